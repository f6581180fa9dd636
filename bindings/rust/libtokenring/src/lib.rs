// SPDX-License-Identifier: Apache-2.0
//! Apache Cassandra's token ring, exactly: safe Rust over libtokenring (whose single-file
//! C source `libtokenring-sys` compiles in; nothing to install).
//!
//! ```
//! use libtokenring::{Replication, Topology};
//! let mut topo = Topology::new()?;
//! topo.add_node("A", "dc1", "r1", &[10, 50])?;
//! topo.add_node("B", "dc1", "r1", &[30, 80])?;
//! topo.add_node("C", "dc1", "r1", &[65, 95])?;
//! let ring = topo.build()?;
//! let placement = ring.placement(&Replication::simple(2)?)?;
//! assert_eq!(placement.replica_names(42), vec!["A", "C"]);
//! # Ok::<(), libtokenring::Error>(())
//! ```
//!
//! Threads, as the C API promises (`ring.h`, `placement.h`): a [`Ring`] and a
//! [`Placement`] never change once built, so they are `Send + Sync` (share them with
//! `Arc`); a [`Topology`] and a [`Replication`] are ordinary mutable objects, `Send` but
//! not `Sync`. The router (`router.h`): a [`Router`] snapshot and a [`RouterHolder`] are
//! `Send + Sync`; a [`RouterBuilder`] and a [`RouterReader`] (one per thread) are `Send`
//! only; a [`Snapshot`] borrows its reader and releases on drop. A [`History`] (Cassandra
//! 6.0's order replayed from a cluster's history) never changes once replayed:
//! `Send + Sync`.

use libtokenring_sys as sys;
use std::ffi::{CStr, CString};
use std::fmt;
use std::os::raw::c_int;
use std::ptr;

mod history;
pub use history::{History, Limits, MetadataLogRow, MetadataNodeRow, BUDGET_DEFAULT, BUDGET_UNLIMITED, WORK_UNITS_PER_SECOND};
mod router;
pub use router::{Event, Route, Router, RouterBuilder, RouterHolder, RouterNode, RouterReader, Snapshot, ROUTE_UP_FIRST};
mod tokens;
pub use tokens::{compare_tokens, even_tokens_text, key_token_text, normalize_token, seeded_tokens_text, Movement, Partitioner};

/// Cassandra release lines the allocators reproduce (`TOKENRING_CASSANDRA_*`).
pub mod release {
    /// The 4.0.x line.
    pub const CASSANDRA_4_0: u32 = libtokenring_sys::TOKENRING_CASSANDRA_4_0;
    /// The 4.1.x line.
    pub const CASSANDRA_4_1: u32 = libtokenring_sys::TOKENRING_CASSANDRA_4_1;
    /// The 5.0.x line.
    pub const CASSANDRA_5_0: u32 = libtokenring_sys::TOKENRING_CASSANDRA_5_0;
}

/// The `tokenring_status` codes an [`Error`] carries (`Error::code`).
pub mod code {
    /// An argument is invalid (also: a string with a NUL byte).
    pub const INVAL: i32 = -1;
    /// A memory allocation failed.
    pub const NOMEM: i32 = -2;
    /// A named node, datacenter or keyspace does not exist.
    pub const NOTFOUND: i32 = -3;
    /// A node name, token or keyspace is already present.
    pub const EXISTS: i32 = -4;
    /// A value is outside its limits.
    pub const RANGE: i32 = -5;
    /// Malformed text.
    pub const PARSE: i32 = -6;
    /// Nothing to work on.
    pub const EMPTY: i32 = -7;
    /// An output buffer is too small.
    pub const BUFSIZE: i32 = -8;
    /// A valid request this call cannot satisfy.
    pub const UNSUPPORTED: i32 = -9;
    /// The request cannot be met by any answer.
    pub const IMPOSSIBLE: i32 = -10;
    /// The caller's progress callback cancelled the call.
    pub const CANCELLED: i32 = libtokenring_sys::TOKENRING_E_CANCELLED;
    /// The call's estimated work is above its budget (`TOKENRING_E_BUDGET`).
    pub const BUDGET: i32 = libtokenring_sys::TOKENRING_E_BUDGET;
    /// Refused while objects are alive (`TOKENRING_E_BUSY`).
    pub const BUSY: i32 = libtokenring_sys::TOKENRING_E_BUSY;
    /// A valid replication whose class places nothing on the ring (`TOKENRING_E_NOT_PLACED`).
    pub const NOT_PLACED: i32 = libtokenring_sys::TOKENRING_E_NOT_PLACED;
}

/// Placement flag: a datacenter of the strategy with no node in the ring gets no replicas
/// instead of an error (`TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC`).
pub const ALLOW_UNKNOWN_DC: u32 = 0x1;
/// Placement flag: `TOKENRING_PLACEMENT_SKIP_EMPTY_DC` (see placement.h).
pub const SKIP_EMPTY_DC: u32 = 0x2;

/// A failed call: the C status code and the library's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// The `tokenring_status` code (negative).
    pub code: i32,
    /// What failed, naming the node, token or datacenter.
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tokenring: {} (code {})", self.message, self.code)
    }
}

impl std::error::Error for Error {}

/// `Result` with this crate's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

pub(crate) fn new_err() -> sys::tokenring_error {
    sys::tokenring_error { code: 0, line: 0, column: 0, flags: 0, message: [0; 256], reserved: [0; 64] }
}

pub(crate) fn check(rc: c_int, err: Option<&sys::tokenring_error>) -> Result<()> {
    if rc == sys::TOKENRING_OK {
        return Ok(());
    }
    let detail = err
        .map(|e| unsafe { CStr::from_ptr(e.message.as_ptr()) }.to_string_lossy().into_owned())
        .filter(|m| !m.is_empty());
    let message = detail.unwrap_or_else(|| {
        unsafe { CStr::from_ptr(sys::tokenring_strerror(rc)) }.to_string_lossy().into_owned()
    });
    Err(Error { code: rc, message })
}

pub(crate) fn cstring(s: &str, what: &str) -> Result<CString> {
    CString::new(s).map_err(|_| Error { code: -1, message: format!("{} {:?} contains a NUL byte", what, s) })
}

/// The library's version, e.g. "1.2.0".
pub fn version() -> &'static str {
    unsafe { CStr::from_ptr(sys::tokenring_version_string()) }.to_str().unwrap_or("")
}

/// The Murmur3Partitioner token of a partition key (its serialized bytes).
pub fn token(key: &[u8]) -> i64 {
    unsafe { sys::tokenring_token(key.as_ptr().cast(), key.len()) }
}

/// A cluster description being assembled: nodes with their datacenter, rack and tokens.
pub struct Topology {
    ptr: *mut sys::tokenring_topology,
}

// A topology is an ordinary mutable object (topology.h): one thread at a time.
unsafe impl Send for Topology {}

impl Topology {
    /// An empty topology.
    pub fn new() -> Result<Topology> {
        let mut ptr = ptr::null_mut();
        check(unsafe { sys::tokenring_topology_new(&mut ptr) }, None)?;
        Ok(Topology { ptr })
    }

    /// Adds a node (Murmur3 tokens).
    pub fn add_node(&mut self, name: &str, datacenter: &str, rack: &str, tokens: &[i64]) -> Result<()> {
        let (n, d, r) = (cstring(name, "node name")?, cstring(datacenter, "datacenter")?, cstring(rack, "rack")?);
        let mut err = new_err();
        let rc = unsafe {
            sys::tokenring_topology_add_node(self.ptr, n.as_ptr(), d.as_ptr(), r.as_ptr(), tokens.as_ptr(), tokens.len(), &mut err)
        };
        check(rc, Some(&err))
    }

    /// The immutable ring of the nodes added so far.
    pub fn build(&self) -> Result<Ring> {
        let mut ptr = ptr::null_mut();
        let mut err = new_err();
        check(unsafe { sys::tokenring_ring_build(&mut ptr, self.ptr, &mut err) }, Some(&err))?;
        Ok(Ring::adopt(ptr))
    }
}

impl Drop for Topology {
    fn drop(&mut self) {
        unsafe { sys::tokenring_topology_free(self.ptr) }
    }
}

/// An immutable token ring, built from a [`Topology`] (or a [`History`]'s).
pub struct Ring {
    pub(crate) ptr: *mut sys::tokenring_ring,
    /// Every node's name, read once when the ring is adopted: the names of a replica list
    /// are then a table lookup each, not a call into C and a UTF-8 check.
    names: Vec<Box<str>>,
}

// ring.h: a ring never changes after it is built; any number of threads may query it.
unsafe impl Send for Ring {}
unsafe impl Sync for Ring {}

impl Ring {
    /// Takes ownership of a ring (one reference) and reads its node names.
    pub(crate) fn adopt(ptr: *mut sys::tokenring_ring) -> Ring {
        let n = unsafe { sys::tokenring_ring_node_count(ptr) };
        let names = (0..n as u32).map(|i| Ring::read_name(ptr, i).unwrap_or("").into()).collect();
        Ring { ptr, names }
    }

    fn read_name<'a>(ptr: *mut sys::tokenring_ring, index: u32) -> Result<&'a str> {
        let mut info = sys::tokenring_node_info {
            name: ptr::null(), datacenter: ptr::null(), rack: ptr::null(), tokens: ptr::null(),
            token_count: 0, state: 0, liveness: 0, dc_index: 0, rack_index: 0, reserved: [0; 2],
        };
        check(unsafe { sys::tokenring_ring_node_brief(&mut info, ptr, index) }, None)?;
        Ok(unsafe { CStr::from_ptr(info.name) }.to_str().unwrap_or(""))
    }

    /// Number of nodes.
    pub fn node_count(&self) -> usize {
        unsafe { sys::tokenring_ring_node_count(self.ptr) }
    }

    /// Name of node `index` (as replica lists number them).
    pub fn node_name(&self, index: u32) -> Result<&str> {
        match self.names.get(index as usize) {
            Some(name) => Ok(name),
            None => Ring::read_name(self.ptr, index), // the library's error for the index
        }
    }

    /// The replica placement of a replication strategy over this ring.
    pub fn placement(&self, replication: &Replication) -> Result<Placement<'_>> {
        self.placement_with(replication, 0)
    }

    /// [`Ring::placement`] with flags: [`ALLOW_UNKNOWN_DC`], [`SKIP_EMPTY_DC`].
    pub fn placement_with(&self, replication: &Replication, flags: u32) -> Result<Placement<'_>> {
        let mut ptr = ptr::null_mut();
        let mut err = new_err();
        check(unsafe { sys::tokenring_placement_build(&mut ptr, self.ptr, replication.ptr, flags, &mut err) }, Some(&err))?;
        Ok(Placement { ptr, ring: self })
    }
}

impl Drop for Ring {
    fn drop(&mut self) {
        unsafe { sys::tokenring_ring_free(self.ptr) }
    }
}

/// A replication strategy (SimpleStrategy or NetworkTopologyStrategy).
pub struct Replication {
    pub(crate) ptr: *mut sys::tokenring_replication,
}

// An ordinary mutable object: one thread at a time.
unsafe impl Send for Replication {}

impl Replication {
    /// SimpleStrategy with replication factor `rf`.
    pub fn simple(rf: i32) -> Result<Replication> {
        let mut ptr = ptr::null_mut();
        let mut err = new_err();
        check(unsafe { sys::tokenring_replication_simple(&mut ptr, rf, 0, &mut err) }, Some(&err))?;
        Ok(Replication { ptr })
    }

    /// NetworkTopologyStrategy with a factor per datacenter.
    pub fn network(factors: &[(&str, i32)]) -> Result<Replication> {
        let mut ptr = ptr::null_mut();
        check(unsafe { sys::tokenring_replication_network(&mut ptr) }, None)?;
        let repl = Replication { ptr };
        for (dc, rf) in factors {
            let d = cstring(dc, "datacenter")?;
            let mut err = new_err();
            check(unsafe { sys::tokenring_replication_set_dc(repl.ptr, d.as_ptr(), *rf, 0, &mut err) }, Some(&err))?;
        }
        Ok(repl)
    }

    /// Parses a CQL replication map or the short form, e.g.
    /// `{'class': 'NetworkTopologyStrategy', 'dc1': '3'}` or `dc1=3`.
    pub fn parse(text: &str) -> Result<Replication> {
        let mut ptr = ptr::null_mut();
        let mut err = new_err();
        check(
            unsafe { sys::tokenring_replication_parse(&mut ptr, text.as_ptr().cast(), text.len(), &mut err) },
            Some(&err),
        )?;
        Ok(Replication { ptr })
    }
}

impl Drop for Replication {
    fn drop(&mut self) {
        unsafe { sys::tokenring_replication_free(self.ptr) }
    }
}

/// The replicas of every range of a ring for one strategy. Lookups allocate nothing in C.
pub struct Placement<'r> {
    pub(crate) ptr: *mut sys::tokenring_placement,
    pub(crate) ring: &'r Ring,
}

/// Which rule ordered a placement's replicas (`tokenring_replica_order`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// Computed from the ring's tokens: Cassandra's order before 6.0.
    Tokens,
    /// Given: the order a server reported.
    Server,
    /// Given: Cassandra 6.0's order, replayed from the cluster's history.
    History,
}

// placement.h: a placement never changes after it is built; any number of threads may query it.
unsafe impl Send for Placement<'_> {}
unsafe impl Sync for Placement<'_> {}

impl Placement<'_> {
    fn names(&self, r: &sys::tokenring_replicas) -> Vec<&str> {
        let nodes = if r.count == 0 { &[][..] } else { unsafe { std::slice::from_raw_parts(r.nodes, r.count as usize) } };
        let names = &self.ring.names;
        nodes.iter().map(|&n| names.get(n as usize).map_or("", |s| s)).collect()
    }

    fn empty() -> sys::tokenring_replicas {
        sys::tokenring_replicas { nodes: ptr::null(), transient: ptr::null(), count: 0, range_index: 0, set_id: 0, reserved: 0 }
    }

    /// Node indices of the replicas of `token`, in Cassandra's order.
    pub fn replicas(&self, token: i64) -> Vec<u32> {
        let mut r = Self::empty();
        let rc = unsafe { sys::tokenring_placement_replicas(&mut r, self.ptr, token) };
        if rc != sys::TOKENRING_OK || r.count == 0 {
            return Vec::new();
        }
        unsafe { std::slice::from_raw_parts(r.nodes, r.count as usize) }.to_vec()
    }

    /// Names of the replicas of `token`, in Cassandra's order.
    pub fn replica_names(&self, token: i64) -> Vec<&str> {
        let mut r = Self::empty();
        if unsafe { sys::tokenring_placement_replicas(&mut r, self.ptr, token) } != sys::TOKENRING_OK {
            return Vec::new();
        }
        self.names(&r)
    }

    /// Which rule ordered the replicas.
    pub fn order(&self) -> Order {
        match unsafe { sys::tokenring_placement_order(self.ptr) } {
            sys::TOKENRING_ORDER_SERVER => Order::Server,
            sys::TOKENRING_ORDER_HISTORY => Order::History,
            _ => Order::Tokens,
        }
    }

    /// Whether each replica of `token` is transient (`'3/1'`), in the order of
    /// [`Placement::replicas`]; all `false` when every replica is full.
    pub fn transient(&self, token: i64) -> Vec<bool> {
        let mut r = Self::empty();
        if unsafe { sys::tokenring_placement_replicas(&mut r, self.ptr, token) } != sys::TOKENRING_OK || r.count == 0 {
            return Vec::new();
        }
        if r.transient.is_null() {
            return vec![false; r.count as usize];
        }
        unsafe { std::slice::from_raw_parts(r.transient, r.count as usize) }.iter().map(|&f| f != 0).collect()
    }

    /// Names of the replicas of a partition key (its serialized bytes).
    pub fn replica_names_for_key(&self, key: &[u8]) -> Result<Vec<&str>> {
        let mut r = Self::empty();
        check(unsafe { sys::tokenring_placement_replicas_for_key(&mut r, self.ptr, key.as_ptr().cast(), key.len()) }, None)?;
        Ok(self.names(&r))
    }

    /// Routes one key (its serialized bytes) as [`Placement::route_keys`] routes each key:
    /// its token, its range, its replica set and the replicas
    /// (`tokenring_placement_replicas_for_key`). `code::UNSUPPORTED` on a ring of another
    /// partitioner than Murmur3.
    pub fn route_key(&self, key: &[u8]) -> Result<RoutedKey<'_>> {
        let mut r = Self::empty();
        check(unsafe { sys::tokenring_placement_replicas_for_key(&mut r, self.ptr, key.as_ptr().cast(), key.len()) }, None)?;
        Ok(unsafe { RoutedKey::new(crate::token(key), &r) })
    }

    /// Routes many keys (their serialized bytes) in one C call per [`ROUTE_CHUNK`] keys
    /// (`tokenring_placement_route_keys_replicas`): for each key, in order, what
    /// [`Placement::route_key`] gives it, the replicas borrowed from the placement. The
    /// library prefetches each key's replica row as it routes the key, so reading the
    /// nodes right after the call finds them in the cache. `code::UNSUPPORTED` on a ring of
    /// another partitioner than Murmur3 (also for no keys).
    ///
    /// ```
    /// use libtokenring::{Replication, Topology};
    /// let mut topo = Topology::new()?;
    /// topo.add_node("A", "dc1", "r1", &[10, 50])?;
    /// topo.add_node("B", "dc1", "r1", &[30, 80])?;
    /// let ring = topo.build()?;
    /// let placement = ring.placement(&Replication::simple(1)?)?;
    /// let routed = placement.route_keys(&["user:1", "user:2"])?;
    /// assert_eq!(routed[1], placement.route_key(b"user:2")?);
    /// assert_eq!(routed[0].nodes, placement.replicas(routed[0].token).as_slice());
    /// # Ok::<(), libtokenring::Error>(())
    /// ```
    pub fn route_keys<K: AsRef<[u8]>>(&self, keys: &[K]) -> Result<Vec<RoutedKey<'_>>> {
        let mut out = Vec::with_capacity(keys.len());
        self.route_keys_into(keys, &mut out)?;
        Ok(out)
    }

    /// [`Placement::route_keys`] appending to `out` (reuse one vector across batches: no
    /// allocation once it has grown). On an error `out` is left as it was.
    pub fn route_keys_into<'p, K: AsRef<[u8]>>(&'p self, keys: &[K], out: &mut Vec<RoutedKey<'p>>) -> Result<()> {
        let start = out.len();
        let mut data = Vec::new();
        let mut offsets = Vec::with_capacity(keys.len().min(ROUTE_CHUNK) + 1);
        let mut rows = Vec::new();
        let mut tokens = Vec::new();
        if keys.is_empty() {
            return self.route_chunk(&[], &[0], &mut rows, &mut tokens, out);
        }
        for chunk in keys.chunks(ROUTE_CHUNK) {
            data.clear();
            offsets.clear();
            offsets.push(0u64);
            for k in chunk {
                data.extend_from_slice(k.as_ref());
                offsets.push(data.len() as u64);
            }
            if let Err(e) = self.route_chunk(&data, &offsets, &mut rows, &mut tokens, out) {
                out.truncate(start);
                return Err(e);
            }
        }
        Ok(())
    }

    /// [`Placement::route_keys_into`] for keys already packed back to back: key `i` is
    /// `data[offsets[i] as usize..offsets[i + 1] as usize]`, so `offsets.len() - 1` keys.
    /// `code::INVAL` for no offsets, offsets past the end of `data` or decreasing; on an
    /// error `out` is left as it was.
    pub fn route_keys_packed<'p>(&'p self, data: &[u8], offsets: &[u64], out: &mut Vec<RoutedKey<'p>>) -> Result<()> {
        let inval = |message: String| Error { code: code::INVAL, message };
        let last = match offsets.iter().max() {
            Some(&m) => m,
            None => return Err(inval("route_keys_packed: offsets needs count + 1 entries, not none".to_string())),
        };
        if last > data.len() as u64 {
            return Err(inval(format!("route_keys_packed: offsets reach byte {} but the key buffer holds {}", last, data.len())));
        }
        if let Some(i) = offsets.windows(2).position(|w| w[1] < w[0]) {
            return Err(inval(format!("route_keys_packed: offsets[{}] {} is below offsets[{}] {}", i + 1, offsets[i + 1], i, offsets[i])));
        }
        let start = out.len();
        let (mut rows, mut tokens) = (Vec::new(), Vec::new());
        let n = offsets.len() - 1;
        if n == 0 {
            return self.route_chunk(data, offsets, &mut rows, &mut tokens, out);
        }
        for i in (0..n).step_by(ROUTE_CHUNK) {
            let k = ROUTE_CHUNK.min(n - i);
            if let Err(e) = self.route_chunk(data, &offsets[i..=i + k], &mut rows, &mut tokens, out) {
                out.truncate(start);
                return Err(e);
            }
        }
        Ok(())
    }

    /// One C call: the `offsets.len() - 1` keys of `data` (offsets checked against `data`
    /// by the callers), appended to `out`.
    fn route_chunk<'p>(
        &'p self,
        data: &[u8],
        offsets: &[u64],
        rows: &mut Vec<sys::tokenring_replicas>,
        tokens: &mut Vec<i64>,
        out: &mut Vec<RoutedKey<'p>>,
    ) -> Result<()> {
        let n = offsets.len() - 1;
        rows.clear();
        rows.resize_with(n, Self::empty);
        tokens.clear();
        tokens.resize(n, 0);
        let keys = if data.is_empty() { ptr::null() } else { data.as_ptr() };
        check(
            unsafe { sys::tokenring_placement_route_keys_replicas(rows.as_mut_ptr(), tokens.as_mut_ptr(), self.ptr, keys, offsets.as_ptr(), n) },
            None,
        )?;
        out.reserve(n);
        // the rows point into the placement, which `'p` borrows
        out.extend(rows.iter().zip(tokens.iter()).map(|(r, &t)| unsafe { RoutedKey::new(t, r) }));
        Ok(())
    }
}

/// Keys per C call of [`Placement::route_keys`]: the library prefetches each key's replica
/// row as it routes it, for a caller that reads the rows right after (64 - 1,024 measured).
pub const ROUTE_CHUNK: usize = 1024;

/// One key routed by [`Placement::route_key`] or [`Placement::route_keys`]: borrowed from
/// the placement, no allocation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoutedKey<'p> {
    /// The key's Murmur3 token.
    pub token: i64,
    /// The index of the key's own range (the range ending at the first ring token at or
    /// above `token`, wrapping to 0): what a bulk loader groups keys by.
    pub range: u32,
    /// The id of the key's replica set (equal sets share one id), 0 .. set count - 1.
    pub set_id: u32,
    /// Node indices of the replicas in Cassandra's order ([`Ring::node_name`] names them).
    pub nodes: &'p [u32],
    /// `None` when every replica is full; otherwise one flag per replica of `nodes`, 1 for
    /// a transient replica (`'3/1'`).
    pub transient: Option<&'p [u8]>,
}

impl<'p> RoutedKey<'p> {
    /// # Safety
    /// `r` was filled by the library from a placement that lives for `'p`.
    unsafe fn new(token: i64, r: &sys::tokenring_replicas) -> RoutedKey<'p> {
        let len = r.count as usize;
        let nodes = if len == 0 || r.nodes.is_null() { &[][..] } else { std::slice::from_raw_parts(r.nodes, len) };
        let transient = if len == 0 || r.transient.is_null() { None } else { Some(std::slice::from_raw_parts(r.transient, len)) };
        RoutedKey { token, range: r.range_index, set_id: r.set_id, nodes, transient }
    }

    /// Whether replica `i` (of `nodes`) is transient; `false` past the end.
    pub fn is_transient(&self, i: usize) -> bool {
        self.transient.map_or(false, |t| t.get(i).map_or(false, |&f| f != 0))
    }
}

impl Drop for Placement<'_> {
    fn drop(&mut self) {
        unsafe { sys::tokenring_placement_free(self.ptr) }
    }
}
