// SPDX-License-Identifier: Apache-2.0
//! Tokens of every partitioner in Cassandra's text form (`TokenFactory.toString` /
//! `fromString`, partitioner.h): Murmur3 signed decimal, RandomPartitioner decimal (`-1`
//! the minimum), ByteOrderedPartitioner lowercase hex (read in either case, an odd digit
//! count with a leading 0). One call per operation serves all three partitioners: adding
//! nodes, moves, ring token listing, movement, layouts and allocation.
//!
//! ```
//! use libtokenring::{Partitioner, Topology};
//! let mut topo = Topology::with_partitioner(Partitioner::ByteOrdered)?;
//! topo.add_node_text("A", "dc1", "r1", &["6d", "ABC"])?;
//! assert_eq!(topo.node_token_texts(0)?, vec!["0abc", "6d"]);
//! let ring = topo.build()?;
//! assert_eq!(ring.search_text("70")?, 0); // wraps to the first token
//! # Ok::<(), libtokenring::Error>(())
//! ```

use crate::history::{with_limits, Limits};
use crate::{check, cstring, new_err, Error, Replication, Result, Ring, Topology};
use libtokenring_sys as sys;
use std::ffi::CString;
use std::os::raw::{c_char, c_int};
use std::ptr;

/// Cassandra's partitioners (`tokenring_partitioner`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Partitioner {
    /// `org.apache.cassandra.dht.Murmur3Partitioner`: signed 64-bit tokens.
    Murmur3,
    /// `org.apache.cassandra.dht.RandomPartitioner`: MD5, -1 or 0 .. 2^127.
    Random,
    /// `org.apache.cassandra.dht.ByteOrderedPartitioner`: the key's bytes.
    ByteOrdered,
}

impl Partitioner {
    fn raw(self) -> sys::tokenring_partitioner {
        match self {
            Partitioner::Murmur3 => sys::TOKENRING_PARTITIONER_MURMUR3,
            Partitioner::Random => sys::TOKENRING_PARTITIONER_RANDOM,
            Partitioner::ByteOrdered => sys::TOKENRING_PARTITIONER_BYTE_ORDERED,
        }
    }

    fn of(raw: sys::tokenring_partitioner) -> Partitioner {
        match raw {
            sys::TOKENRING_PARTITIONER_RANDOM => Partitioner::Random,
            sys::TOKENRING_PARTITIONER_BYTE_ORDERED => Partitioner::ByteOrdered,
            _ => Partitioner::Murmur3,
        }
    }
}

/// Runs a call writing one token's text (`out`, `cap`, `len_out`), again with the length
/// the library asked for when the first buffer is too small.
fn text_out(err: Option<&sys::tokenring_error>, mut call: impl FnMut(*mut c_char, usize, *mut usize) -> c_int) -> Result<String> {
    let mut buf = vec![0u8; 48]; // any Murmur3 or RandomPartitioner token
    let mut n = 0usize;
    let mut rc = call(buf.as_mut_ptr().cast(), buf.len(), &mut n);
    if rc == sys::TOKENRING_E_BUFSIZE {
        buf = vec![0u8; n + 1];
        rc = call(buf.as_mut_ptr().cast(), buf.len(), &mut n);
    }
    check(rc, err)?;
    buf.truncate(n);
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

/// The texts of a `tokenring_token_list`, which this frees.
fn list_out(list: *mut sys::tokenring_token_list) -> Vec<String> {
    let count = unsafe { sys::tokenring_token_list_count(list) };
    let out = (0..count)
        .map(|i| {
            let mut n = 0usize;
            let p = unsafe { sys::tokenring_token_list_get(list, i, &mut n) };
            let bytes = unsafe { std::slice::from_raw_parts(p.cast::<u8>(), n) };
            String::from_utf8_lossy(bytes).into_owned()
        })
        .collect();
    unsafe { sys::tokenring_token_list_free(list) };
    out
}

/// NUL-terminated copies of token texts and the pointer array a `_text` call takes.
struct Texts {
    _owned: Vec<CString>,
    ptrs: Vec<*const c_char>,
}

fn texts(tokens: &[&str]) -> Result<Texts> {
    let owned = tokens.iter().map(|t| cstring(t, "token text")).collect::<Result<Vec<_>>>()?;
    let ptrs = owned.iter().map(|c| c.as_ptr()).collect();
    Ok(Texts { _owned: owned, ptrs })
}

/// Packed sample keys and their offsets (the layout `tokenring_tokens()` takes).
fn packed(keys: &[&[u8]]) -> (Vec<u8>, Vec<u64>) {
    let mut data = Vec::new();
    let mut offsets = vec![0u64];
    for k in keys {
        data.extend_from_slice(k);
        offsets.push(data.len() as u64);
    }
    data.push(0); // never empty: a valid pointer for empty keys
    (data, offsets)
}

/// The token of a serialized partition key under `partitioner`, in text form (what
/// `SELECT token(...)` prints).
pub fn key_token_text(partitioner: Partitioner, key: &[u8]) -> Result<String> {
    text_out(None, |o, c, n| unsafe { sys::tokenring_key_token_text(o, c, n, partitioner.raw(), key.as_ptr().cast(), key.len()) })
}

/// Validates a token of `partitioner` in text form and returns its canonical form
/// (`"+007"` is `"7"`, `"ABC"` is `"0abc"`); a [`code::PARSE`](crate::code::PARSE) or
/// [`code::RANGE`](crate::code::RANGE) error otherwise.
pub fn normalize_token(partitioner: Partitioner, text: &str) -> Result<String> {
    let mut err = new_err();
    let e: *mut sys::tokenring_error = &mut err;
    let r = text_out(None, |o, c, n| unsafe {
        sys::tokenring_token_text_normalize(o, c, n, partitioner.raw(), text.as_ptr().cast(), text.len(), e)
    });
    // the library's detail (which character, which partitioner) in the error
    r.map_err(|x| check(x.code, Some(&err)).err().unwrap_or(x))
}

/// Orders two tokens of `partitioner` given in text form (-1, 0 or 1), as Cassandra's
/// `Token.compareTo` does.
pub fn compare_tokens(partitioner: Partitioner, a: &str, b: &str) -> Result<i32> {
    let (ca, cb) = (cstring(a, "token text")?, cstring(b, "token text")?);
    let mut out: c_int = 0;
    let mut err = new_err();
    check(unsafe { sys::tokenring_token_text_compare(&mut out, partitioner.raw(), ca.as_ptr(), cb.as_ptr(), &mut err) }, Some(&err))?;
    Ok(out.signum())
}

/// `num_tokens` evenly spaced tokens of `partitioner`, of slot `slot` of `slots`
/// interleaved slots, ascending, in text form (ByteOrderedPartitioner has none).
pub fn even_tokens_text(partitioner: Partitioner, num_tokens: u32, slot: u32, slots: u32) -> Result<Vec<String>> {
    let mut list = ptr::null_mut();
    let mut err = new_err();
    check(unsafe { sys::tokenring_layout_even_tokens_text(&mut list, partitioner.raw(), num_tokens, slot, slots, &mut err) }, Some(&err))?;
    Ok(list_out(list))
}

/// The `count` seeded tokens of `partitioner` of node `identity`, in vnode order and in
/// text form, avoiding the tokens of the other nodes of `taken` (collisions rehash, or
/// fail with [`code::EXISTS`](crate::code::EXISTS) when `strict`).
pub fn seeded_tokens_text(partitioner: Partitioner, count: usize, seed: u64, identity: &str, taken: Option<&Topology>, strict: bool) -> Result<Vec<String>> {
    let id = cstring(identity, "identity")?;
    let mut list = ptr::null_mut();
    let mut err = new_err();
    let flags = if strict { sys::TOKENRING_LAYOUT_STRICT } else { 0 };
    let t = taken.map_or(ptr::null(), |t| t.ptr as *const _);
    check(unsafe { sys::tokenring_layout_seeded_tokens_text(&mut list, partitioner.raw(), count, seed, id.as_ptr(), t, flags, &mut err) }, Some(&err))?;
    Ok(list_out(list))
}

impl Topology {
    /// An empty topology of `partitioner`.
    pub fn with_partitioner(partitioner: Partitioner) -> Result<Topology> {
        let mut ptr = ptr::null_mut();
        check(unsafe { sys::tokenring_topology_new_partitioned(&mut ptr, partitioner.raw()) }, None)?;
        Ok(Topology { ptr })
    }

    /// The topology's partitioner.
    pub fn partitioner(&self) -> Partitioner {
        Partitioner::of(unsafe { sys::tokenring_topology_partitioner(self.ptr) })
    }

    /// Adds a node with tokens in the text form of the topology's partitioner (a bad
    /// token is named with its position; on failure the topology is unchanged).
    pub fn add_node_text(&mut self, name: &str, datacenter: &str, rack: &str, tokens: &[&str]) -> Result<()> {
        let (n, d, r) = (cstring(name, "node name")?, cstring(datacenter, "datacenter")?, cstring(rack, "rack")?);
        let t = texts(tokens)?;
        let mut err = new_err();
        check(
            unsafe { sys::tokenring_topology_add_node_text(self.ptr, n.as_ptr(), d.as_ptr(), r.as_ptr(), t.ptrs.as_ptr(), tokens.len(), &mut err) },
            Some(&err),
        )
    }

    /// Gives node `name` new tokens (a completed move) in the text form of the topology's
    /// partitioner.
    pub fn set_tokens_text(&mut self, name: &str, tokens: &[&str]) -> Result<()> {
        let n = cstring(name, "node name")?;
        let t = texts(tokens)?;
        let mut err = new_err();
        check(unsafe { sys::tokenring_topology_set_tokens_text(self.ptr, n.as_ptr(), t.ptrs.as_ptr(), tokens.len(), &mut err) }, Some(&err))
    }

    /// The tokens (ascending) of node `index` (insertion order) in text form.
    pub fn node_token_texts(&self, index: usize) -> Result<Vec<String>> {
        if index >= unsafe { sys::tokenring_topology_node_count(self.ptr) } {
            return Err(Error { code: crate::code::RANGE, message: format!("node index {} is past the end", index) });
        }
        let mut out = Vec::new();
        for k in 0.. {
            match text_out(None, |o, c, n| unsafe { sys::tokenring_topology_node_token_text(o, c, n, self.ptr, index, k) }) {
                Ok(s) => out.push(s),
                Err(e) if e.code == crate::code::RANGE => break, // past the node's last token
                Err(e) => return Err(e),
            }
        }
        Ok(out)
    }

    /// Simulates node `name` joining `datacenter`/`rack` with tokens in text form,
    /// tracing `sample_keys` (hashed with the partitioner). The topology is not modified.
    pub fn simulate_join_text(&self, replication: &Replication, name: &str, datacenter: &str, rack: &str, tokens: &[&str], sample_keys: &[&[u8]]) -> Result<Movement> {
        let (n, d, r) = (cstring(name, "node name")?, cstring(datacenter, "datacenter")?, cstring(rack, "rack")?);
        let t = texts(tokens)?;
        let (data, offs) = packed(sample_keys);
        let mut out = ptr::null_mut();
        let mut err = new_err();
        let rc = unsafe {
            sys::tokenring_movement_join_text(
                &mut out, self.ptr, replication.ptr, n.as_ptr(), d.as_ptr(), r.as_ptr(), t.ptrs.as_ptr(), tokens.len(),
                data.as_ptr(), offs.as_ptr(), sample_keys.len(), &mut err,
            )
        };
        check(rc, Some(&err))?;
        Ok(Movement { ptr: out })
    }

    /// Simulates node `name` moving to new tokens in text form, tracing `sample_keys`.
    pub fn simulate_move_text(&self, replication: &Replication, name: &str, tokens: &[&str], sample_keys: &[&[u8]]) -> Result<Movement> {
        let n = cstring(name, "node name")?;
        let t = texts(tokens)?;
        let (data, offs) = packed(sample_keys);
        let mut out = ptr::null_mut();
        let mut err = new_err();
        let rc = unsafe {
            sys::tokenring_movement_move_text(
                &mut out, self.ptr, replication.ptr, n.as_ptr(), t.ptrs.as_ptr(), tokens.len(), data.as_ptr(), offs.as_ptr(),
                sample_keys.len(), &mut err,
            )
        };
        check(rc, Some(&err))?;
        Ok(Movement { ptr: out })
    }

    /// The tokens (ascending, text form) Cassandra `release`
    /// (`TOKENRING_CASSANDRA_5_0`, ...) gives node `name` bootstrapping into
    /// `datacenter`/`rack`, bit for bit: with `local_rf` when `keyspace` is `None`, else
    /// allocating for the keyspace (then `local_rf` is 0). `first_token` is the token an
    /// empty ring starts at. ByteOrderedPartitioner has no allocation.
    #[allow(clippy::too_many_arguments)]
    pub fn allocate_as_cassandra_text(
        &self, num_tokens: u32, name: &str, datacenter: &str, rack: &str, keyspace: Option<&Replication>, local_rf: i32,
        first_token: Option<&str>, release: u32, offline: bool,
    ) -> Result<Vec<String>> {
        let (n, d, r) = (cstring(name, "node name")?, cstring(datacenter, "datacenter")?, cstring(rack, "rack")?);
        let first = first_token.map(|f| cstring(f, "first token")).transpose()?;
        let ks = keyspace.map_or(ptr::null(), |k| k.ptr as *const _);
        let flags = if offline { sys::TOKENRING_CASSANDRA_OFFLINE } else { 0 };
        let mut list = ptr::null_mut();
        let mut err = new_err();
        let rc = unsafe {
            sys::tokenring_allocate_cassandra_text(
                &mut list, num_tokens, self.ptr, n.as_ptr(), d.as_ptr(), r.as_ptr(), ks, local_rf,
                first.as_ref().map_or(ptr::null(), |f| f.as_ptr()), release, flags, ptr::null_mut(), &mut err,
            )
        };
        check(rc, Some(&err))?;
        Ok(list_out(list))
    }

    /// The library's join plan (ascending, text form) for node `name` joining
    /// `datacenter`/`rack` under `limits`: by default the tokens Cassandra `release` would
    /// choose; `one_step` picks the tokens best for this one join.
    #[allow(clippy::too_many_arguments)]
    pub fn allocate_join_text(
        &self, num_tokens: u32, name: &str, datacenter: &str, rack: &str, keyspace: Option<&Replication>, local_rf: i32,
        release: u32, one_step: bool, limits: &mut Limits<'_>,
    ) -> Result<Vec<String>> {
        let (n, d, r) = (cstring(name, "node name")?, cstring(datacenter, "datacenter")?, cstring(rack, "rack")?);
        let ks = keyspace.map_or(ptr::null(), |k| k.ptr as *const _);
        let flags = if one_step { sys::TOKENRING_JOIN_BEST_ONE_STEP } else { 0 };
        let mut list = ptr::null_mut();
        let mut err = new_err();
        let (rc, _) = with_limits(limits, |l| unsafe {
            sys::tokenring_allocate_join_text(&mut list, num_tokens, self.ptr, n.as_ptr(), d.as_ptr(), r.as_ptr(), ks, local_rf, release, flags, l, &mut err)
        });
        check(rc, Some(&err))?;
        Ok(list_out(list))
    }
}

impl Ring {
    /// The ring's partitioner.
    pub fn partitioner(&self) -> Partitioner {
        Partitioner::of(unsafe { sys::tokenring_ring_partitioner(self.ptr) })
    }

    /// Ring token `index` (ascending) in text form.
    pub fn token_text(&self, index: usize) -> Result<String> {
        text_out(None, |o, c, n| unsafe { sys::tokenring_ring_token_text(o, c, n, self.ptr, index) })
    }

    /// Every ring token (ascending) in text form, as `nodetool ring` prints them.
    pub fn token_texts(&self) -> Result<Vec<String>> {
        let mut count = 0usize;
        unsafe { sys::tokenring_ring_tokens(self.ptr, &mut count) };
        (0..count).map(|i| self.token_text(i)).collect()
    }

    /// Index of the range holding a token given in text form (not for routing: it parses
    /// the text each time).
    pub fn search_text(&self, token: &str) -> Result<u32> {
        let mut out = 0u32;
        let mut err = new_err();
        check(unsafe { sys::tokenring_ring_search_text(&mut out, self.ptr, token.as_ptr().cast(), token.len(), &mut err) }, Some(&err))?;
        Ok(out)
    }
}

/// The result of a movement analysis ([`Topology::simulate_join_text`],
/// [`Topology::simulate_move_text`]): its changed ranges and samples, tokens in text form.
pub struct Movement {
    ptr: *mut sys::tokenring_movement,
}

// movement_result.h: a result never changes; any number of threads may read it.
unsafe impl Send for Movement {}
unsafe impl Sync for Movement {}

impl Movement {
    /// The (start, end] bounds of every range whose replica set changes, in token order.
    pub fn range_bound_texts(&self) -> Result<Vec<(String, String)>> {
        let mut out = Vec::new();
        for i in 0.. {
            let bound = |end: c_int| text_out(None, |o, c, n| unsafe { sys::tokenring_movement_range_bound_text(o, c, n, self.ptr, i, end) });
            match bound(0) {
                Ok(start) => out.push((start, bound(1)?)),
                Err(e) if e.code == crate::code::RANGE => break, // past the last range
                Err(e) => return Err(e),
            }
        }
        Ok(out)
    }

    /// The token of every sample, in the order given.
    pub fn sample_token_texts(&self) -> Result<Vec<String>> {
        let mut out = Vec::new();
        for i in 0.. {
            match text_out(None, |o, c, n| unsafe { sys::tokenring_movement_sample_token_text(o, c, n, self.ptr, i) }) {
                Ok(s) => out.push(s),
                Err(e) if e.code == crate::code::RANGE => break,
                Err(e) => return Err(e),
            }
        }
        Ok(out)
    }
}

impl Drop for Movement {
    fn drop(&mut self) {
        unsafe { sys::tokenring_movement_free(self.ptr) }
    }
}
