// SPDX-License-Identifier: Apache-2.0
//! Cassandra 6.0's replica order replayed from a cluster's history (`history.h`), or built
//! from what a driver reads of `system_views.cluster_metadata_log` and
//! `cluster_metadata_directory`, a router routed through it, and the bounded replay
//! (`tokenring_limits`: a budget, progress, cancel).

use crate::{check, code, cstring, new_err, Error, Placement, Replication, Result, Ring, Router};
use libtokenring_sys as sys;
use std::ffi::CString;
use std::os::raw::{c_char, c_int, c_void};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;

/// A budget without limit ([`Limits::budget`], `TOKENRING_BUDGET_UNLIMITED`).
pub const BUDGET_UNLIMITED: u64 = u64::MAX;
/// Work units of the default budget (about 5 s, `TOKENRING_BUDGET_DEFAULT`).
pub const BUDGET_DEFAULT: u64 = sys::TOKENRING_BUDGET_DEFAULT;
/// Work units a second on the machine the cost models were calibrated on.
pub const WORK_UNITS_PER_SECOND: u64 = sys::TOKENRING_WORK_UNITS_PER_SECOND;

/// The bounds of a long call (`tokenring_limits`): before it runs, the call estimates its
/// work and refuses (an [`Error`] with code [`code::BUDGET`]) when that is above
/// `budget`; `progress(done, total)` is called as it goes, and returning `true` cancels it
/// ([`code::CANCELLED`]). `Limits::default()` is the library's defaults.
#[derive(Default)]
pub struct Limits<'a> {
    /// Work units allowed: 0 for [`BUDGET_DEFAULT`], [`BUDGET_UNLIMITED`] for no limit.
    pub budget: u64,
    /// Out: the call's estimate in work units (also when the budget refused it).
    pub estimate: u64,
    /// Progress callback: `(done, total)`; `true` cancels the call.
    pub progress: Option<&'a mut dyn FnMut(u64, u64) -> bool>,
}

struct Trampoline<'a, 'b> {
    f: &'a mut (dyn FnMut(u64, u64) -> bool + 'b),
    panicked: bool,
}

unsafe extern "C" fn on_progress(user: *mut c_void, done: u64, total: u64) -> c_int {
    let t = &mut *(user as *mut Trampoline<'_, '_>);
    // a panic must not unwind into C: it cancels the call, and is reported as an error
    match catch_unwind(AssertUnwindSafe(|| (t.f)(done, total))) {
        Ok(stop) => c_int::from(stop),
        Err(_) => {
            t.panicked = true;
            1
        }
    }
}

/// Runs `call` with the C limits of `limits` (its progress through a trampoline), then
/// stores the estimate back.
pub(crate) fn with_limits(limits: &mut Limits<'_>, call: impl FnOnce(*mut sys::tokenring_limits) -> c_int) -> (c_int, bool) {
    let mut c = sys::tokenring_limits {
        budget: limits.budget,
        estimate: 0,
        progress: None,
        user: ptr::null_mut(),
        failed_nodes: ptr::null(),
        failed_count: 0,
        max_num_tokens: 0,
        flags: 0,
        reserved: [0; 48],
    };
    let mut panicked = false;
    let rc = match limits.progress.as_mut() {
        Some(f) => {
            let mut t = Trampoline { f: &mut **f, panicked: false };
            c.progress = Some(on_progress);
            c.user = &mut t as *mut Trampoline<'_, '_> as *mut c_void;
            let rc = call(&mut c);
            panicked = t.panicked;
            rc
        }
        None => call(&mut c),
    };
    limits.estimate = c.estimate;
    (rc, panicked)
}

/// One row of Cassandra 6.0's `system_views.cluster_metadata_log`, as column text.
#[derive(Debug, Clone, Default)]
pub struct MetadataLogRow {
    pub epoch: String,
    pub kind: String,
    pub transformation: String,
}

/// One row of Cassandra 6.0's `system_views.cluster_metadata_directory`, as column text
/// (`None`: CQL null).
#[derive(Debug, Clone, Default)]
pub struct MetadataNodeRow {
    pub node_id: String,
    pub broadcast_address: String,
    pub broadcast_port: Option<String>,
    pub dc: String,
    pub rack: String,
    pub state: Option<String>,
    pub tokens: Vec<String>,
}

/// A cluster's history replayed with Cassandra 6.0's placement rules (`register`,
/// `keyspace`, `unsafe_join`, `join`, `leave`, `move`, `replace` steps, one a line:
/// doc/cassandra-6.md). Its placements give each range's replicas in the order a 6.0
/// server gives them, transient replicas marked.
///
/// ```
/// use libtokenring::{History, Replication};
/// let h = History::replay("register 10.0.0.1 dc1 r1\nregister 10.0.0.2 dc1 r1\n\
///                          unsafe_join 10.0.0.1 -5\nunsafe_join 10.0.0.2 5\n")?;
/// let p = h.placement(&Replication::simple(2)?)?;
/// assert_eq!(p.replica_names(0), vec!["10.0.0.2", "10.0.0.1"]);
/// assert_eq!(p.order(), libtokenring::Order::History);
/// # Ok::<(), libtokenring::Error>(())
/// ```
///
/// A history never changes once replayed: `Send + Sync`.
pub struct History {
    ptr: *mut sys::tokenring_history,
    ring: Option<Ring>,
}

// history.h: immutable once replayed; any number of threads may read it at once.
unsafe impl Send for History {}
unsafe impl Sync for History {}

impl History {
    fn adopt(ptr: *mut sys::tokenring_history) -> History {
        let r = unsafe { sys::tokenring_history_ring(ptr) };
        let ring = if r.is_null() { None } else { Some(Ring::adopt(unsafe { sys::tokenring_ring_ref(r) })) };
        History { ptr, ring }
    }

    /// Replays `text` under the default budget. A bad step's [`Error`] names its line and
    /// column.
    pub fn replay(text: &str) -> Result<History> {
        let mut ptr = ptr::null_mut();
        let mut err = new_err();
        check(unsafe { sys::tokenring_history_replay(&mut ptr, text.as_ptr().cast(), text.len(), &mut err) }, Some(&err))?;
        Ok(History::adopt(ptr))
    }

    /// [`History::replay`] under `limits`: refused before it starts when its estimate is
    /// above the budget ([`code::BUDGET`]); progress after every replication's phase of
    /// every step; cancelled when the callback returns `true` ([`code::CANCELLED`]; a
    /// panic in the callback cancels too).
    pub fn replay_limited(text: &str, limits: &mut Limits<'_>) -> Result<History> {
        let mut ptr = ptr::null_mut();
        let mut err = new_err();
        let (rc, panicked) = with_limits(limits, |l| unsafe {
            sys::tokenring_history_replay_limited(&mut ptr, text.as_ptr().cast(), text.len(), l, &mut err)
        });
        if panicked && rc != sys::TOKENRING_OK {
            return Err(Error { code: code::CANCELLED, message: "the progress callback panicked".into() });
        }
        check(rc, Some(&err))?;
        Ok(History::adopt(ptr))
    }

    /// The history of a Cassandra 6.0 cluster from the rows a driver reads of its metadata
    /// log and directory (`tokenring_history_from_metadata`), the keyspaces' replications
    /// from `keyspaces` (a router built from the same moment's rows). The replay runs under
    /// `limits` (as [`History::replay_limited`]; `&mut Limits::default()` for the
    /// defaults). A bad row's error names it (its epoch or node id).
    pub fn from_metadata(
        log: &[MetadataLogRow],
        directory: &[MetadataNodeRow],
        keyspaces: Option<&Router>,
        limits: &mut Limits<'_>,
    ) -> Result<History> {
        let mut keep: Vec<CString> = Vec::new();
        let mut text = |s: &str, what: &str| -> Result<*const c_char> {
            let c = cstring(s, what)?;
            let p = c.as_ptr();
            keep.push(c);
            Ok(p)
        };
        let mut lrows = Vec::with_capacity(log.len());
        for r in log {
            lrows.push(sys::tokenring_metadata_log_row {
                epoch: text(&r.epoch, "epoch")?,
                kind: text(&r.kind, "kind")?,
                transformation: text(&r.transformation, "transformation")?,
                reserved: [0; 2],
            });
        }
        let mut token_arrays: Vec<Vec<*const c_char>> = Vec::with_capacity(directory.len());
        let mut drows = Vec::with_capacity(directory.len());
        for r in directory {
            let toks = r.tokens.iter().map(|t| text(t, "token")).collect::<Result<Vec<_>>>()?;
            let port = match &r.broadcast_port {
                Some(p) => text(p, "broadcast_port")?,
                None => ptr::null(),
            };
            let state = match &r.state {
                Some(s) => text(s, "state")?,
                None => ptr::null(),
            };
            drows.push(sys::tokenring_metadata_node_row {
                node_id: text(&r.node_id, "node_id")?,
                broadcast_address: text(&r.broadcast_address, "broadcast_address")?,
                broadcast_port: port,
                dc: text(&r.dc, "dc")?,
                rack: text(&r.rack, "rack")?,
                state,
                tokens: ptr::null(),
                token_count: toks.len(),
                reserved: [0; 2],
            });
            token_arrays.push(toks);
        }
        // (the arrays no longer move: point the rows at them)
        for (row, toks) in drows.iter_mut().zip(token_arrays.iter()) {
            row.tokens = if toks.is_empty() { ptr::null() } else { toks.as_ptr() };
        }
        let mut ptr = ptr::null_mut();
        let mut err = new_err();
        let (rc, panicked) = with_limits(limits, |l| unsafe {
            sys::tokenring_history_from_metadata(
                &mut ptr,
                if lrows.is_empty() { ptr::null() } else { lrows.as_ptr() },
                lrows.len(),
                if drows.is_empty() { ptr::null() } else { drows.as_ptr() },
                drows.len(),
                keyspaces.map_or(ptr::null(), |r| r.ptr),
                l,
                &mut err,
            )
        });
        if panicked && rc != sys::TOKENRING_OK {
            return Err(Error { code: code::CANCELLED, message: "the progress callback panicked".into() });
        }
        check(rc, Some(&err))?;
        Ok(History::adopt(ptr))
    }

    /// The ring after the last step (`None` when no node is in it).
    pub fn ring(&self) -> Option<&Ring> {
        self.ring.as_ref()
    }

    /// The placement of `replication` after the history, in Cassandra 6.0's order
    /// ([`Order::History`](crate::Order::History)), on [`History::ring`].
    pub fn placement(&self, replication: &Replication) -> Result<Placement<'_>> {
        let mut ptr = ptr::null_mut();
        let mut err = new_err();
        check(unsafe { sys::tokenring_history_placement(&mut ptr, self.ptr, replication.ptr, &mut err) }, Some(&err))?;
        match self.ring.as_ref() {
            Some(ring) => Ok(Placement { ptr, ring }),
            None => {
                unsafe { sys::tokenring_placement_free(ptr) };
                Err(Error { code: code::EMPTY, message: "the history leaves no node in the ring".into() })
            }
        }
    }

    /// The ranges `(left, right]` Cassandra 6.0 would lock in `replication`'s placement
    /// to prepare `operation` (`join ADDRESS TOKEN[,TOKEN...]`, `leave ADDRESS`, `move
    /// ADDRESS TOKEN`, `replace OLD NEW`) now; `right` is `None` for the range up to the
    /// minimum token.
    pub fn locked_ranges(&self, replication: &Replication, operation: &str) -> Result<Vec<(i64, Option<i64>)>> {
        let mut cap = 64usize;
        loop {
            let mut buf = vec![0i64; 2 * cap];
            let mut n = 0usize;
            let mut err = new_err();
            let rc = unsafe {
                sys::tokenring_history_locked_ranges(buf.as_mut_ptr(), cap, &mut n, self.ptr, replication.ptr,
                                                     operation.as_ptr().cast(), operation.len(), &mut err)
            };
            if rc == code::BUFSIZE && n > cap {
                cap = n;
                continue;
            }
            check(rc, Some(&err))?;
            return Ok(buf[..2 * n].chunks(2).map(|p| (p[0], if p[1] == i64::MIN { None } else { Some(p[1]) })).collect());
        }
    }

    /// Whether planned operations can run at once on Cassandra 6.0: for each, in order,
    /// the index of the first earlier one (not itself refused) whose locked ranges it
    /// meets (6.0 refuses it while that one runs), or `None` (it can start).
    pub fn concurrent(&self, operations: &[&str]) -> Result<Vec<Option<usize>>> {
        let mut text = String::new();
        for (i, op) in operations.iter().enumerate() {
            if op.contains('\n') || op.trim().is_empty() || op.trim_start().starts_with('#') {
                return Err(Error { code: code::INVAL, message: format!("operation {} ({:?}) is not one step line", i + 1, op) });
            }
            text.push_str(op);
            text.push('\n');
        }
        cstring(&text, "operations")?;
        let mut out = vec![0u32; operations.len()];
        let mut n = 0usize;
        let mut err = new_err();
        check(
            unsafe {
                sys::tokenring_history_concurrent(out.as_mut_ptr(), out.len(), &mut n, self.ptr, text.as_ptr().cast(), text.len(), &mut err)
            },
            Some(&err),
        )?;
        Ok(out[..n].iter().map(|&c| if c == u32::MAX { None } else { Some(c as usize) }).collect())
    }
}

impl Drop for History {
    fn drop(&mut self) {
        self.ring = None; // its own reference
        unsafe { sys::tokenring_history_free(self.ptr) }
    }
}

impl Router {
    /// A new snapshot whose every keyspace routes through `history`'s placement of its
    /// replication (6.0's order), with this one's nodes, tags and liveness
    /// (`tokenring_router_with_history`); refused when the history's ring is not this
    /// router's (rows of another moment).
    pub fn with_history(&self, history: &History) -> Result<Router> {
        let mut out = ptr::null_mut();
        let mut err = new_err();
        check(
            unsafe { sys::tokenring_router_with_history(&mut out, self.ptr, history.ptr, &mut err) },
            Some(&err),
        )?;
        Ok(Router { ptr: out })
    }
}
