/* SPDX-License-Identifier: Apache-2.0 */
/* The router snapshot's layout, shared by router.c (lookups, assembly), router_build.c
 * (builder), router_event.c (events) and router_holder.c. Never installed. */
#ifndef TOKENRING_ROUTER_INTERNAL_H
#define TOKENRING_ROUTER_INTERNAL_H

#include <stdatomic.h>

#include "internal.h"
#include "tokenring/router.h"

/* One placement per distinct replication, with the local-datacenter views of each of its
 * replica sets. Set s has one block in views: its local count, its local up count, its
 * replicas local first, then up first (2 + 2 * count entries), so that a lookup reads one
 * place. The blocks are stride entries apart, 2 + 2 * the largest count (every set of
 * the library's placements has the same count; a placement supplied by the caller may
 * not), so that no offset is read first. */
struct tr_rgroup {
    tokenring_placement *pl; /* owned reference */
    bool supplied;           /* given by the caller (EVENT_PLACEMENT) */
    uint32_t nsets;
    uint32_t stride;         /* entries per block */
    uint32_t *views;
};

/* The keyspace index: open addressing over a hash of the name (slot: keyspace index + 1,
 * 0 empty), so that a lookup costs a hash and one string comparison. */
#define TR_KS_EMPTY 0u

struct tr_rks {
    char *name;
    uint32_t group;
};

struct tr_rskip {
    char *name, *cls;
};

struct tokenring_router {
    atomic_size_t refs;
    tokenring_topology *topo; /* the nodes with their tokens, for the next event */
    tokenring_ring *ring;
    char *local_dc;           /* NULL: every node is local */
    uint32_t nnodes;
    uint64_t *tags;           /* per node (ring index) */
    uint32_t *flags;          /* per node: TOKENRING_ROUTER_NODE_DOWN */
    char **host_ids;          /* per node, entries may be NULL */
    uint8_t *is_local;        /* per node */
    struct tr_rks *ks;        /* sorted by name */
    size_t nks;
    uint32_t *ks_slots;       /* the keyspace index (TR_KS_EMPTY or index + 1) */
    uint32_t *ks_hash;        /* hash of each slot's name */
    uint32_t ks_mask;         /* slot count - 1 */
    struct tr_rgroup *groups;
    size_t ngroups;
    struct tr_rskip *skipped;
    size_t nskipped;
};

/* What a snapshot is made of, before its ring, placements and views exist. Owns
 * everything it points to; tr_router_make consumes it (also on failure). */
typedef struct tr_rspec {
    tokenring_topology *topo;
    char *local_dc;
    size_t nnodes;                  /* = the topology's node count */
    uint64_t *tags;                 /* per topology node, in its order */
    uint32_t *flags;
    char **host_ids;
    size_t nks;
    char **ks_names;
    tokenring_replication **ks_repl;
    tokenring_placement **ks_given; /* a supplied placement (owned reference) or NULL */
    struct tr_rskip *skipped;
    size_t nskipped;
} tr_rspec;

TR_HIDDEN void tr_rspec_clear(tr_rspec *s);
/* Grows the keyspace arrays by one (zeroed entry at index nks - 1). */
TR_HIDDEN int tr_rspec_add_keyspace(tr_rspec *s, tokenring_error *err);
/* Grows the per-node arrays to n entries (new ones zeroed). */
TR_HIDDEN int tr_rspec_resize_nodes(tr_rspec *s, size_t n, tokenring_error *err);
/* Index of keyspace name in s, or SIZE_MAX. */
TR_HIDDEN size_t tr_rspec_find_keyspace(const tr_rspec *s, const char *name);
/* A spec holding a copy of router r (topology cloned, keyspaces and replications
 * copied, supplied placements referenced). */
TR_HIDDEN int tr_rspec_from_router(tr_rspec *s, const tokenring_router *r, tokenring_error *err);
/* Builds the snapshot. prev (may be NULL): its placements are reused for equal
 * replications (as they are when ring_same, else updated with
 * tokenring_placement_update). */
TR_HIDDEN int tr_router_make(tokenring_router **out, tr_rspec *spec,
                             const tokenring_router *prev, bool ring_same,
                             tokenring_error *err);
/* Two replications place the same replicas (strategy, factors, rules). */
TR_HIDDEN bool tr_replication_equal(const tokenring_replication *a,
                                    const tokenring_replication *b);
/* The Murmur3 token of the composite key tokenring_composite_encode packs from the parts,
 * hashed from the parts in place (lib/router/murmur3_parts.c). */
TR_HIDDEN int64_t tr_token_parts(const void *const *parts, const size_t *lens, size_t count);

/* Row staging shared by the builder and the events (router_build.c): a node row and a
 * keyspace row as tr_cluster_stage fill callbacks, and a cluster node's copy into a
 * topology of the cluster's partitioner. */
struct node_row {
    const char *address, *dc, *rack, *host_id, *partitioner;
    const char *const *tokens;
    size_t ntokens;
};
struct ks_row {
    const char *name;
    const char *const *keys, *const *values;
    size_t count;
};
struct tokenring_cluster;
struct tr_cnode;
TR_HIDDEN int tr_router_fill_node(struct tokenring_cluster *st, void *ctx, tokenring_error *err);
TR_HIDDEN int tr_router_fill_keyspace(struct tokenring_cluster *st, void *ctx,
                                      tokenring_error *err);
TR_HIDDEN int tr_router_topo_add(tokenring_topology *t, const struct tokenring_cluster *cl,
                                 const struct tr_cnode *nd, tokenring_error *err);
TR_HIDDEN int tr_router_topo_set_tokens(tokenring_topology *t,
                                        const struct tokenring_cluster *cl,
                                        const struct tr_cnode *nd, tokenring_error *err);

#endif
