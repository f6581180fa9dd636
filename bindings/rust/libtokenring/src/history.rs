// SPDX-License-Identifier: Apache-2.0
//! Cassandra 6.0's replica order replayed from a cluster's history (`history.h`), and the
//! bounded replay (`tokenring_limits`: a budget, progress, cancel).

use crate::{check, code, cstring, new_err, Error, Placement, Replication, Result, Ring};
use libtokenring_sys as sys;
use std::os::raw::{c_int, c_void};
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
fn with_limits(limits: &mut Limits<'_>, call: impl FnOnce(*mut sys::tokenring_limits) -> c_int) -> (c_int, bool) {
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
        let ring = if r.is_null() { None } else { Some(Ring { ptr: unsafe { sys::tokenring_ring_ref(r) } }) };
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
