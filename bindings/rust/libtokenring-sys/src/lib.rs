// SPDX-License-Identifier: Apache-2.0
//! Raw declarations of libtokenring's C API (the part the `libtokenring` crate wraps),
//! written by hand from `tokenring.h` and checked against it by `tests/header.rs`. The
//! library itself is compiled from its bundled single-file source by `build.rs`.
#![allow(non_camel_case_types)]

use std::os::raw::{c_char, c_int, c_void};

/// `tokenring_error`: the detail of a failed call.
#[repr(C)]
pub struct tokenring_error {
    pub code: i32,
    pub line: u32,
    pub column: u32,
    pub flags: u32,
    pub message: [c_char; 256],
    pub reserved: [u8; 64],
}

/// `tokenring_replicas`: a view of one replica list (valid while the placement lives).
#[repr(C)]
pub struct tokenring_replicas {
    pub nodes: *const u32,
    pub transient: *const u8,
    pub count: u32,
    pub range_index: u32,
    pub set_id: u32,
    pub reserved: u32,
}

/// `tokenring_node_info`: a view of one node (valid while its ring lives).
#[repr(C)]
pub struct tokenring_node_info {
    pub name: *const c_char,
    pub datacenter: *const c_char,
    pub rack: *const c_char,
    pub tokens: *const i64,
    pub token_count: usize,
    pub state: i32,
    pub liveness: i32,
    pub dc_index: u32,
    pub rack_index: u32,
    pub reserved: [u64; 2],
}

/// Opaque handles.
#[repr(C)]
pub struct tokenring_topology {
    _private: [u8; 0],
}
#[repr(C)]
pub struct tokenring_ring {
    _private: [u8; 0],
}
#[repr(C)]
pub struct tokenring_replication {
    _private: [u8; 0],
}
#[repr(C)]
pub struct tokenring_placement {
    _private: [u8; 0],
}

pub const TOKENRING_OK: c_int = 0;

extern "C" {
    pub fn tokenring_version_string() -> *const c_char;
    pub fn tokenring_version_number() -> u32;
    pub fn tokenring_strerror(status: c_int) -> *const c_char;
    pub fn tokenring_token(key: *const c_void, len: usize) -> i64;

    pub fn tokenring_topology_new(out: *mut *mut tokenring_topology) -> c_int;
    pub fn tokenring_topology_free(topology: *mut tokenring_topology);
    pub fn tokenring_topology_add_node(
        topology: *mut tokenring_topology,
        name: *const c_char,
        datacenter: *const c_char,
        rack: *const c_char,
        tokens: *const i64,
        token_count: usize,
        err: *mut tokenring_error,
    ) -> c_int;

    pub fn tokenring_ring_build(
        out: *mut *mut tokenring_ring,
        topology: *const tokenring_topology,
        err: *mut tokenring_error,
    ) -> c_int;
    pub fn tokenring_ring_free(ring: *mut tokenring_ring);
    pub fn tokenring_ring_node_count(ring: *const tokenring_ring) -> usize;
    pub fn tokenring_ring_node_brief(
        out: *mut tokenring_node_info,
        ring: *const tokenring_ring,
        node: u32,
    ) -> c_int;

    pub fn tokenring_replication_simple(
        out: *mut *mut tokenring_replication,
        rf: i32,
        transient: i32,
        err: *mut tokenring_error,
    ) -> c_int;
    pub fn tokenring_replication_network(out: *mut *mut tokenring_replication) -> c_int;
    pub fn tokenring_replication_set_dc(
        replication: *mut tokenring_replication,
        datacenter: *const c_char,
        rf: i32,
        transient: i32,
        err: *mut tokenring_error,
    ) -> c_int;
    pub fn tokenring_replication_parse(
        out: *mut *mut tokenring_replication,
        text: *const c_char,
        text_len: usize,
        err: *mut tokenring_error,
    ) -> c_int;
    pub fn tokenring_replication_free(replication: *mut tokenring_replication);

    pub fn tokenring_placement_build(
        out: *mut *mut tokenring_placement,
        ring: *const tokenring_ring,
        replication: *const tokenring_replication,
        flags: u32,
        err: *mut tokenring_error,
    ) -> c_int;
    pub fn tokenring_placement_free(placement: *mut tokenring_placement);
    pub fn tokenring_placement_replicas(
        out: *mut tokenring_replicas,
        placement: *const tokenring_placement,
        token: i64,
    ) -> c_int;
    pub fn tokenring_placement_replicas_for_key(
        out: *mut tokenring_replicas,
        placement: *const tokenring_placement,
        key: *const c_void,
        len: usize,
    ) -> c_int;
}
