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

/// `tokenring_router_node_info`: one node of a router (valid while the router lives).
#[repr(C)]
pub struct tokenring_router_node_info {
    pub name: *const c_char,
    pub datacenter: *const c_char,
    pub rack: *const c_char,
    pub host_id: *const c_char,
    pub tag: u64,
    pub flags: u32,
    pub state: i32,
    pub token_count: u32,
    pub local: u32,
    pub reserved: [u64; 2],
}

/// `tokenring_route`: the replicas of a key (arrays owned by the router).
#[repr(C)]
pub struct tokenring_route {
    pub replicas: *const u32,
    pub local: *const u32,
    pub tags: *const u64,
    pub count: u32,
    pub local_count: u32,
    pub local_up_count: u32,
    pub set_id: u32,
    pub token: i64,
    pub reserved: [u64; 2],
}

/// `tokenring_router_event`: a change to apply to a router (zero it, set `kind`).
#[repr(C)]
pub struct tokenring_router_event {
    pub kind: i32,
    pub flags: u32,
    pub node: *const c_char,
    pub old_node: *const c_char,
    pub datacenter: *const c_char,
    pub rack: *const c_char,
    pub host_id: *const c_char,
    pub tokens: *const *const c_char,
    pub token_count: usize,
    pub tag: u64,
    pub keyspace: *const c_char,
    pub keys: *const *const c_char,
    pub values: *const *const c_char,
    pub count: usize,
    pub placement: *const tokenring_placement,
    pub reserved: [u64; 4],
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

#[repr(C)]
pub struct tokenring_router {
    _private: [u8; 0],
}
#[repr(C)]
pub struct tokenring_router_builder {
    _private: [u8; 0],
}
#[repr(C)]
pub struct tokenring_router_holder {
    _private: [u8; 0],
}
#[repr(C)]
pub struct tokenring_router_reader {
    _private: [u8; 0],
}
#[repr(C)]
pub struct tokenring_cluster {
    _private: [u8; 0],
}
#[repr(C)]
pub struct tokenring_history {
    _private: [u8; 0],
}
#[repr(C)]
pub struct tokenring_movement {
    _private: [u8; 0],
}
/// `tokenring_token_list`: tokens in text form (partitioner.h).
#[repr(C)]
pub struct tokenring_token_list {
    _private: [u8; 0],
}

/// `tokenring_partitioner` (partitioner.h).
pub type tokenring_partitioner = c_int;
pub const TOKENRING_PARTITIONER_MURMUR3: i32 = 0;
pub const TOKENRING_PARTITIONER_RANDOM: i32 = 1;
pub const TOKENRING_PARTITIONER_BYTE_ORDERED: i32 = 2;

/// `tokenring_progress_fn`: the progress callback of the long calls (non-zero cancels).
pub type tokenring_progress_fn = Option<unsafe extern "C" fn(user: *mut c_void, done: u64, total: u64) -> c_int>;

/// `tokenring_limits`: a long call's budget and progress (zero it: the defaults).
#[repr(C)]
pub struct tokenring_limits {
    pub budget: u64,
    pub estimate: u64,
    pub progress: tokenring_progress_fn,
    pub user: *mut c_void,
    pub failed_nodes: *const u32,
    pub failed_count: usize,
    pub max_num_tokens: u32,
    pub flags: u32,
    pub reserved: [u8; 48],
}

/// `tokenring_metadata_log_row`: a row of Cassandra 6.0's
/// system_views.cluster_metadata_log, as column text (NULL: CQL null).
#[repr(C)]
pub struct tokenring_metadata_log_row {
    pub epoch: *const c_char,
    pub kind: *const c_char,
    pub transformation: *const c_char,
    pub reserved: [u64; 2],
}

/// `tokenring_metadata_node_row`: a row of Cassandra 6.0's
/// system_views.cluster_metadata_directory, as column text (NULL: CQL null).
#[repr(C)]
pub struct tokenring_metadata_node_row {
    pub node_id: *const c_char,
    pub broadcast_address: *const c_char,
    pub broadcast_port: *const c_char,
    pub dc: *const c_char,
    pub rack: *const c_char,
    pub state: *const c_char,
    pub tokens: *const *const c_char,
    pub token_count: usize,
    pub reserved: [u64; 2],
}

pub const TOKENRING_OK: c_int = 0;
pub const TOKENRING_E_CANCELLED: c_int = -11;
pub const TOKENRING_E_BUDGET: c_int = -12;
pub const TOKENRING_E_BUSY: c_int = -13;
pub const TOKENRING_E_NOT_PLACED: c_int = -14;
pub const TOKENRING_E_RANGE: c_int = -5;
pub const TOKENRING_E_BUFSIZE: c_int = -8;

/// Layout and allocation flags and release lines (layout.h, allocate.h).
pub const TOKENRING_LAYOUT_STRICT: u32 = 0x1;
pub const TOKENRING_CASSANDRA_OFFLINE: u32 = 0x1;
pub const TOKENRING_CASSANDRA_4_0: u32 = 0x0400;
pub const TOKENRING_CASSANDRA_4_1: u32 = 0x0401;
pub const TOKENRING_CASSANDRA_5_0: u32 = 0x0500;
pub const TOKENRING_JOIN_BEST_ONE_STEP: u32 = 0x1;

/// Budgets (common.h): the default in work units, and the calibration's units a second.
pub const TOKENRING_BUDGET_DEFAULT: u64 = 1000000000;
pub const TOKENRING_WORK_UNITS_PER_SECOND: u64 = 200000000;

/// Replica orders (placement.h, `tokenring_placement_order`).
pub const TOKENRING_ORDER_TOKENS: c_int = 0;
pub const TOKENRING_ORDER_SERVER: c_int = 1;
pub const TOKENRING_ORDER_HISTORY: c_int = 2;

/// Router flags and event kinds (router.h).
pub const TOKENRING_ROUTER_NODE_DOWN: u32 = 0x1;
pub const TOKENRING_ROUTE_UP_FIRST: u32 = 0x1;
pub const TOKENRING_ROUTER_EVENT_UP: i32 = 1;
pub const TOKENRING_ROUTER_EVENT_DOWN: i32 = 2;
pub const TOKENRING_ROUTER_EVENT_JOINED: i32 = 3;
pub const TOKENRING_ROUTER_EVENT_LEFT: i32 = 4;
pub const TOKENRING_ROUTER_EVENT_MOVED: i32 = 5;
pub const TOKENRING_ROUTER_EVENT_REPLACED: i32 = 6;
pub const TOKENRING_ROUTER_EVENT_CREATED: i32 = 7;
pub const TOKENRING_ROUTER_EVENT_ALTERED: i32 = 8;
pub const TOKENRING_ROUTER_EVENT_DROPPED: i32 = 9;
pub const TOKENRING_ROUTER_EVENT_PLACEMENT: i32 = 10;

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
    pub fn tokenring_placement_route_keys_replicas(
        out: *mut tokenring_replicas,
        tokens_out: *mut i64,
        placement: *const tokenring_placement,
        keys: *const u8,
        offsets: *const u64,
        count: usize,
    ) -> c_int;
    pub fn tokenring_placement_order(placement: *const tokenring_placement) -> c_int;
    pub fn tokenring_ring_ref(ring: *const tokenring_ring) -> *mut tokenring_ring;

    pub fn tokenring_history_replay(
        out: *mut *mut tokenring_history,
        text: *const c_char,
        len: usize,
        err: *mut tokenring_error,
    ) -> c_int;
    pub fn tokenring_history_replay_limited(
        out: *mut *mut tokenring_history,
        text: *const c_char,
        len: usize,
        limits: *mut tokenring_limits,
        err: *mut tokenring_error,
    ) -> c_int;
    pub fn tokenring_history_free(history: *mut tokenring_history);
    pub fn tokenring_history_ring(history: *const tokenring_history) -> *const tokenring_ring;
    pub fn tokenring_history_placement(
        out: *mut *mut tokenring_placement,
        history: *const tokenring_history,
        replication: *const tokenring_replication,
        err: *mut tokenring_error,
    ) -> c_int;
    pub fn tokenring_history_locked_ranges(
        ranges_out: *mut i64,
        cap: usize,
        count_out: *mut usize,
        history: *const tokenring_history,
        replication: *const tokenring_replication,
        operation: *const c_char,
        len: usize,
        err: *mut tokenring_error,
    ) -> c_int;
    pub fn tokenring_history_concurrent(
        conflicts_out: *mut u32,
        cap: usize,
        count_out: *mut usize,
        history: *const tokenring_history,
        operations: *const c_char,
        len: usize,
        err: *mut tokenring_error,
    ) -> c_int;

    pub fn tokenring_router_builder_new(
        out: *mut *mut tokenring_router_builder,
        local_dc: *const c_char,
        err: *mut tokenring_error,
    ) -> c_int;
    pub fn tokenring_router_builder_free(builder: *mut tokenring_router_builder);
    pub fn tokenring_router_builder_add_local(
        builder: *mut tokenring_router_builder,
        address: *const c_char,
        datacenter: *const c_char,
        rack: *const c_char,
        host_id: *const c_char,
        partitioner: *const c_char,
        tokens: *const *const c_char,
        token_count: usize,
        err: *mut tokenring_error,
    ) -> c_int;
    pub fn tokenring_router_builder_add_peer(
        builder: *mut tokenring_router_builder,
        address: *const c_char,
        datacenter: *const c_char,
        rack: *const c_char,
        host_id: *const c_char,
        tokens: *const *const c_char,
        token_count: usize,
        err: *mut tokenring_error,
    ) -> c_int;
    pub fn tokenring_router_builder_add_keyspace(
        builder: *mut tokenring_router_builder,
        keyspace: *const c_char,
        keys: *const *const c_char,
        values: *const *const c_char,
        count: usize,
        err: *mut tokenring_error,
    ) -> c_int;
    pub fn tokenring_router_builder_add_cluster(
        builder: *mut tokenring_router_builder,
        cluster: *const tokenring_cluster,
        err: *mut tokenring_error,
    ) -> c_int;
    pub fn tokenring_router_builder_set_node(
        builder: *mut tokenring_router_builder,
        name: *const c_char,
        tag: u64,
        flags: u32,
        err: *mut tokenring_error,
    ) -> c_int;
    pub fn tokenring_router_build(
        out: *mut *mut tokenring_router,
        builder: *const tokenring_router_builder,
        err: *mut tokenring_error,
    ) -> c_int;
    pub fn tokenring_router_ref(router: *const tokenring_router) -> *mut tokenring_router;
    pub fn tokenring_router_free(router: *mut tokenring_router);
    pub fn tokenring_router_route(
        out: *mut tokenring_route,
        router: *const tokenring_router,
        keyspace: *const c_char,
        key: *const c_void,
        len: usize,
        flags: u32,
    ) -> c_int;
    pub fn tokenring_router_route_parts(
        out: *mut tokenring_route,
        router: *const tokenring_router,
        keyspace: *const c_char,
        parts: *const *const c_void,
        lens: *const usize,
        count: usize,
        flags: u32,
    ) -> c_int;
    pub fn tokenring_router_route_token(
        out: *mut tokenring_route,
        router: *const tokenring_router,
        keyspace: *const c_char,
        token: i64,
        flags: u32,
    ) -> c_int;
    pub fn tokenring_router_node_count(router: *const tokenring_router) -> usize;
    pub fn tokenring_router_node(
        out: *mut tokenring_router_node_info,
        router: *const tokenring_router,
        index: usize,
    ) -> c_int;
    pub fn tokenring_router_find_node(
        index_out: *mut u32,
        router: *const tokenring_router,
        name: *const c_char,
    ) -> c_int;
    pub fn tokenring_router_ring(router: *const tokenring_router) -> *const tokenring_ring;
    pub fn tokenring_router_keyspace_count(router: *const tokenring_router) -> usize;
    pub fn tokenring_router_keyspace(
        name_out: *mut *const c_char,
        placement_out: *mut *const tokenring_placement,
        router: *const tokenring_router,
        index: usize,
    ) -> c_int;
    pub fn tokenring_router_skipped_count(router: *const tokenring_router) -> usize;
    pub fn tokenring_router_skipped(
        name_out: *mut *const c_char,
        class_out: *mut *const c_char,
        router: *const tokenring_router,
        index: usize,
    ) -> c_int;
    pub fn tokenring_router_apply(
        out: *mut *mut tokenring_router,
        previous: *const tokenring_router,
        event: *const tokenring_router_event,
        err: *mut tokenring_error,
    ) -> c_int;
    pub fn tokenring_router_holder_new(
        out: *mut *mut tokenring_router_holder,
        initial: *const tokenring_router,
    ) -> c_int;
    pub fn tokenring_router_holder_free(holder: *mut tokenring_router_holder);
    pub fn tokenring_router_holder_swap(
        holder: *mut tokenring_router_holder,
        next: *const tokenring_router,
    ) -> c_int;
    pub fn tokenring_router_holder_current(holder: *mut tokenring_router_holder) -> *mut tokenring_router;
    pub fn tokenring_router_reader_new(
        out: *mut *mut tokenring_router_reader,
        holder: *mut tokenring_router_holder,
    ) -> c_int;
    pub fn tokenring_router_reader_free(reader: *mut tokenring_router_reader);
    pub fn tokenring_router_acquire(reader: *mut tokenring_router_reader) -> *const tokenring_router;
    pub fn tokenring_router_release(reader: *mut tokenring_router_reader);
    pub fn tokenring_history_from_metadata(
        out: *mut *mut tokenring_history,
        log: *const tokenring_metadata_log_row,
        log_count: usize,
        directory: *const tokenring_metadata_node_row,
        directory_count: usize,
        keyspaces: *const tokenring_router,
        limits: *mut tokenring_limits,
        err: *mut tokenring_error,
    ) -> c_int;
    pub fn tokenring_router_with_history(
        out: *mut *mut tokenring_router,
        router: *const tokenring_router,
        history: *const tokenring_history,
        err: *mut tokenring_error,
    ) -> c_int;

    // Tokens of every partitioner in Cassandra's text form (partitioner.h and the _text
    // calls of topology.h, ring.h, movement.h, movement_result.h, layout.h,
    // allocate_text.h).
    pub fn tokenring_token_list_count(list: *const tokenring_token_list) -> usize;
    pub fn tokenring_token_list_get(list: *const tokenring_token_list, i: usize, len_out: *mut usize) -> *const c_char;
    pub fn tokenring_token_list_free(list: *mut tokenring_token_list);
    pub fn tokenring_key_token_text(
        out: *mut c_char,
        cap: usize,
        len_out: *mut usize,
        partitioner: tokenring_partitioner,
        key: *const c_void,
        len: usize,
    ) -> c_int;
    pub fn tokenring_token_text_normalize(
        out: *mut c_char,
        cap: usize,
        len_out: *mut usize,
        partitioner: tokenring_partitioner,
        text: *const c_char,
        len: usize,
        err: *mut tokenring_error,
    ) -> c_int;
    pub fn tokenring_token_text_compare(
        cmp_out: *mut c_int,
        partitioner: tokenring_partitioner,
        a: *const c_char,
        b: *const c_char,
        err: *mut tokenring_error,
    ) -> c_int;
    pub fn tokenring_topology_new_partitioned(out: *mut *mut tokenring_topology, partitioner: tokenring_partitioner) -> c_int;
    pub fn tokenring_topology_partitioner(topology: *const tokenring_topology) -> tokenring_partitioner;
    pub fn tokenring_topology_node_count(topology: *const tokenring_topology) -> usize;
    pub fn tokenring_topology_add_node_text(
        topology: *mut tokenring_topology,
        name: *const c_char,
        datacenter: *const c_char,
        rack: *const c_char,
        tokens: *const *const c_char,
        token_count: usize,
        err: *mut tokenring_error,
    ) -> c_int;
    pub fn tokenring_topology_set_tokens_text(
        topology: *mut tokenring_topology,
        name: *const c_char,
        tokens: *const *const c_char,
        token_count: usize,
        err: *mut tokenring_error,
    ) -> c_int;
    pub fn tokenring_topology_node_token_text(
        out: *mut c_char,
        cap: usize,
        len_out: *mut usize,
        topology: *const tokenring_topology,
        index: usize,
        k: usize,
    ) -> c_int;
    pub fn tokenring_ring_partitioner(ring: *const tokenring_ring) -> tokenring_partitioner;
    pub fn tokenring_ring_tokens(ring: *const tokenring_ring, count_out: *mut usize) -> *const i64;
    pub fn tokenring_ring_token_text(out: *mut c_char, cap: usize, len_out: *mut usize, ring: *const tokenring_ring, index: usize) -> c_int;
    pub fn tokenring_ring_search_text(
        index_out: *mut u32,
        ring: *const tokenring_ring,
        token: *const c_char,
        len: usize,
        err: *mut tokenring_error,
    ) -> c_int;
    pub fn tokenring_movement_join_text(
        out: *mut *mut tokenring_movement,
        topology: *const tokenring_topology,
        replication: *const tokenring_replication,
        name: *const c_char,
        datacenter: *const c_char,
        rack: *const c_char,
        tokens: *const *const c_char,
        token_count: usize,
        sample_keys: *const u8,
        sample_offsets: *const u64,
        sample_count: usize,
        err: *mut tokenring_error,
    ) -> c_int;
    pub fn tokenring_movement_move_text(
        out: *mut *mut tokenring_movement,
        topology: *const tokenring_topology,
        replication: *const tokenring_replication,
        name: *const c_char,
        tokens: *const *const c_char,
        token_count: usize,
        sample_keys: *const u8,
        sample_offsets: *const u64,
        sample_count: usize,
        err: *mut tokenring_error,
    ) -> c_int;
    pub fn tokenring_movement_free(movement: *mut tokenring_movement);
    pub fn tokenring_movement_range_bound_text(
        out: *mut c_char,
        cap: usize,
        len_out: *mut usize,
        movement: *const tokenring_movement,
        index: usize,
        end: c_int,
    ) -> c_int;
    pub fn tokenring_movement_sample_token_text(
        out: *mut c_char,
        cap: usize,
        len_out: *mut usize,
        movement: *const tokenring_movement,
        index: usize,
    ) -> c_int;
    pub fn tokenring_layout_even_tokens_text(
        out: *mut *mut tokenring_token_list,
        partitioner: tokenring_partitioner,
        num_tokens: u32,
        slot: u32,
        slots: u32,
        err: *mut tokenring_error,
    ) -> c_int;
    pub fn tokenring_layout_seeded_tokens_text(
        out: *mut *mut tokenring_token_list,
        partitioner: tokenring_partitioner,
        count: usize,
        seed: u64,
        identity: *const c_char,
        taken: *const tokenring_topology,
        flags: u32,
        err: *mut tokenring_error,
    ) -> c_int;
    pub fn tokenring_allocate_cassandra_text(
        out: *mut *mut tokenring_token_list,
        num_tokens: u32,
        topology: *const tokenring_topology,
        name: *const c_char,
        datacenter: *const c_char,
        rack: *const c_char,
        keyspace: *const tokenring_replication,
        local_rf: i32,
        first_token: *const c_char,
        release: u32,
        flags: u32,
        limits: *mut tokenring_limits,
        err: *mut tokenring_error,
    ) -> c_int;
    pub fn tokenring_allocate_join_text(
        out: *mut *mut tokenring_token_list,
        num_tokens: u32,
        topology: *const tokenring_topology,
        name: *const c_char,
        datacenter: *const c_char,
        rack: *const c_char,
        keyspace: *const tokenring_replication,
        local_rf: i32,
        release: u32,
        flags: u32,
        limits: *mut tokenring_limits,
        err: *mut tokenring_error,
    ) -> c_int;
}
