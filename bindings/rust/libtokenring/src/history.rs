// SPDX-License-Identifier: Apache-2.0
//! Cassandra 6.0's replica order (history.h): a cluster's history replayed from its text
//! or built from what a driver reads of `system_views.cluster_metadata_log` and
//! `cluster_metadata_directory`, and a router routed through it.

use crate::{check, cstring, new_err, Placement, Replication, Result, Ring, Router};
use libtokenring_sys as sys;
use std::ffi::CString;
use std::os::raw::c_char;
use std::ptr;

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

/// A cluster history replayed with Cassandra 6.0's placement rules (doc/cassandra-6.md):
/// its placements give each range's replicas in the order a 6.0 server gives them.
pub struct History {
    ptr: *mut sys::tokenring_history,
}

// history.h: a history is immutable once replayed; any number of threads may read it.
unsafe impl Send for History {}
unsafe impl Sync for History {}

impl Drop for History {
    fn drop(&mut self) {
        unsafe { sys::tokenring_history_free(self.ptr) }
    }
}

impl History {
    /// Replays a history text (`register`, `keyspace`, `drop_keyspace`, `unsafe_join`,
    /// `join`, `leave`, `move`, `replace` steps, one a line).
    pub fn replay(text: &str) -> Result<History> {
        let mut ptr = ptr::null_mut();
        let mut err = new_err();
        check(
            unsafe { sys::tokenring_history_replay(&mut ptr, text.as_ptr().cast(), text.len(), &mut err) },
            Some(&err),
        )?;
        Ok(History { ptr })
    }

    /// The history of a Cassandra 6.0 cluster from the rows a driver reads of its metadata
    /// log and directory (`tokenring_history_from_metadata`), the keyspaces' replications
    /// from `keyspaces` (a router built from the same moment's rows). `budget`: work units
    /// allowed (0: the library's default). A bad row's error names it (its epoch or node id).
    pub fn from_metadata(
        log: &[MetadataLogRow],
        directory: &[MetadataNodeRow],
        keyspaces: Option<&Router>,
        budget: u64,
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
        let mut limits = sys::tokenring_limits {
            budget,
            estimate: 0,
            progress: None,
            user: ptr::null_mut(),
            failed_nodes: ptr::null(),
            failed_count: 0,
            max_num_tokens: 0,
            flags: 0,
            reserved: [0; 48],
        };
        let mut ptr = ptr::null_mut();
        let mut err = new_err();
        check(
            unsafe {
                sys::tokenring_history_from_metadata(
                    &mut ptr,
                    if lrows.is_empty() { ptr::null() } else { lrows.as_ptr() },
                    lrows.len(),
                    if drows.is_empty() { ptr::null() } else { drows.as_ptr() },
                    drows.len(),
                    keyspaces.map_or(ptr::null(), |r| r.ptr),
                    &mut limits,
                    &mut err,
                )
            },
            Some(&err),
        )?;
        Ok(History { ptr })
    }

    /// The ring after the history (`None`: no node in it).
    pub fn ring(&self) -> Option<Ring> {
        let r = unsafe { sys::tokenring_history_ring(self.ptr) };
        if r.is_null() {
            None
        } else {
            Some(Ring { ptr: unsafe { sys::tokenring_ring_ref(r) } })
        }
    }

    /// The placement of `replication` after the history, in 6.0's order, on `ring`, which
    /// must be this history's [`History::ring`].
    pub fn placement<'r>(&self, ring: &'r Ring, replication: &Replication) -> Result<Placement<'r>> {
        if !std::ptr::eq(unsafe { sys::tokenring_history_ring(self.ptr) }, ring.ptr) {
            return Err(crate::Error {
                code: crate::code::INVAL,
                message: "the ring is not this history's (take it from History::ring)".into(),
            });
        }
        let mut ptr = ptr::null_mut();
        let mut err = new_err();
        check(
            unsafe { sys::tokenring_history_placement(&mut ptr, self.ptr, replication.ptr, &mut err) },
            Some(&err),
        )?;
        Ok(Placement { ptr, ring })
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
