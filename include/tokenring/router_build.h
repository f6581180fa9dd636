/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file router_build.h
 * @brief Building a router and changing it: a builder of the rows a driver reads (or a
 *        parsed cluster), and the events that make the next snapshot from the
 *        previous one (lib/router/router_build.c, lib/router/router_event.c). Part of the routers
 *        (router.h, which includes this file).
 *
 * @section router_build Building
 * A ::tokenring_router_builder takes the rows a driver reads: system.local
 * (tokenring_router_builder_add_local()), system.peers_v2 or system.peers
 * (tokenring_router_builder_add_peer()) and system_schema.keyspaces
 * (tokenring_router_builder_add_keyspace()), as the column values the driver hands over,
 * under the rules the cqlsh reader of parse.h applies (one implementation serves both): a
 * peer without datacenter is refused, a null rack is Cassandra's `UNKNOWN_RACK`, a node
 * whose tokens are unknown (null or empty: a node still bootstrapping) is left out of the
 * snapshot until a #TOKENRING_ROUTER_EVENT_JOINED brings it, LocalStrategy, EverywhereStrategy and
 * MetaStrategy keyspaces are skipped (they place nothing on the ring), any other class
 * but SimpleStrategy and NetworkTopologyStrategy is refused. A parsed
 * ::tokenring_cluster (and so a topology, through tokenring_cluster_add_topology())
 * goes in with tokenring_router_builder_add_cluster().
 *
 * @section router_events Events
 * tokenring_router_apply() makes the next snapshot from the previous one and one
 * ::tokenring_router_event: a node up or down, joined, left, moved or replaced; a
 * keyspace created, altered or dropped; a placement supplied by the caller. It reuses
 * every placement the event cannot change (all of them for up, down and keyspace
 * events) and updates the others incrementally (tokenring_placement_update()). A failing
 * event leaves the previous snapshot as it was, and anything published with it.
 *
 * @section router_placement Placements built elsewhere
 * A caller that computes a keyspace's replicas itself (a Cassandra release whose replica
 * order depends on history, or the ranges `describering` gives) builds a
 * ::tokenring_placement on the snapshot's ring (tokenring_router_ring()) and hands it
 * over with a #TOKENRING_ROUTER_EVENT_PLACEMENT event: the new snapshot takes a reference
 * to it (the caller keeps its own) and routes that keyspace through it. The placement
 * must have been built from the snapshot's ring or a ring with the same nodes in the
 * same order and the same tokens; an event that changes the ring later recomputes it
 * with tokenring_placement_update() from its replication (apply the event, then supply
 * the placement again).
 *
 * Threads: a builder is an ordinary mutable object (one thread at a time);
 * tokenring_router_apply() only reads its previous snapshot, so readers may keep routing
 * through it meanwhile.
 */
#ifndef TOKENRING_ROUTER_BUILD_H
#define TOKENRING_ROUTER_BUILD_H

#include "tokenring/common.h"
#include "tokenring/types.h"
#include "tokenring/parse.h"
#include "tokenring/router_snapshot.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Collects driver rows (or a parsed cluster) to build a router. @since 1.2 */
typedef struct tokenring_router_builder tokenring_router_builder;

/* ------------------------------------------------------------------- builder */

/**
 * Creates an empty builder.
 * @param[out] out receives the builder; free with tokenring_router_builder_free()
 * @param local_dc the local datacenter of the routers it builds (the view of
 *        ::tokenring_route), or NULL for none (every node counts as local)
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL (NULL @p out, bad name), #TOKENRING_E_RANGE,
 *         #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_router_builder_new(tokenring_router_builder **out,
                                               const char *local_dc, tokenring_error *err);

/**
 * Frees a builder.
 * @param builder the builder, or NULL (no-op)
 * @since 1.2
 */
TOKENRING_API void tokenring_router_builder_free(tokenring_router_builder *builder);

/**
 * Adds the row of system.local. A NULL column is CQL null. Add it before the peers: its
 * partitioner fixes how every token is read (without it, as tokenring_cluster_parse()
 * guesses).
 * @param builder the builder; unchanged on failure
 * @param address the node's address (broadcast_address, or the address the driver
 *        connected to)
 * @param datacenter data_center (null is refused)
 * @param rack rack (null reads as `UNKNOWN_RACK`)
 * @param host_id host_id, or NULL
 * @param partitioner the partitioner column (a Java class name), or NULL
 * @param tokens the tokens column, each token as text in the partitioner's string form
 * @param token_count number of tokens (0: tokens unknown)
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_PARSE (null datacenter, a token
 *         that does not read), #TOKENRING_E_EXISTS (node already added, token held by
 *         another node, another partitioner), #TOKENRING_E_RANGE, #TOKENRING_E_UNSUPPORTED
 *         (a partitioner the library does not model), #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_router_builder_add_local(tokenring_router_builder *builder,
                                                     const char *address,
                                                     const char *datacenter, const char *rack,
                                                     const char *host_id,
                                                     const char *partitioner,
                                                     const char *const *tokens,
                                                     size_t token_count, tokenring_error *err);

/**
 * Adds a row of system.peers_v2 (or system.peers), as tokenring_router_builder_add_local()
 * without the partitioner.
 * @param builder the builder; unchanged on failure
 * @param address peer (or broadcast_address)
 * @param datacenter data_center (null is refused)
 * @param rack rack (null reads as `UNKNOWN_RACK`)
 * @param host_id host_id, or NULL
 * @param tokens the tokens as text
 * @param token_count number of tokens (0: unknown)
 * @param[out] err optional detail
 * @return as tokenring_router_builder_add_local()
 * @since 1.2
 */
TOKENRING_API int tokenring_router_builder_add_peer(tokenring_router_builder *builder,
                                                    const char *address,
                                                    const char *datacenter, const char *rack,
                                                    const char *host_id,
                                                    const char *const *tokens,
                                                    size_t token_count, tokenring_error *err);

/**
 * Adds a row of system_schema.keyspaces: its name and its replication map as keys and
 * values (the map a driver decodes, e.g. {"class": "...NetworkTopologyStrategy",
 * "dc1": "3"}). LocalStrategy, EverywhereStrategy and MetaStrategy keyspaces are
 * recorded as skipped (tokenring_router_skipped_count()) and succeed.
 * @param builder the builder; unchanged on failure
 * @param keyspace the keyspace name
 * @param keys the map's keys (one of them "class")
 * @param values the map's values
 * @param count number of entries
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_PARSE (no class, an unknown
 *         class, a bad factor), #TOKENRING_E_RANGE, #TOKENRING_E_EXISTS (keyspace added
 *         twice), #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_router_builder_add_keyspace(tokenring_router_builder *builder,
                                                        const char *keyspace,
                                                        const char *const *keys,
                                                        const char *const *values,
                                                        size_t count, tokenring_error *err);

/**
 * Adds every node and keyspace of a parsed cluster (merge rules of
 * tokenring_cluster_parse()). A topology goes in through a cluster
 * (tokenring_cluster_add_topology(), tokenring_cluster_add_keyspace()).
 * @param builder the builder; unchanged on failure
 * @param cluster the cluster (not referenced afterwards)
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_EXISTS, #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_router_builder_add_cluster(tokenring_router_builder *builder,
                                                       const tokenring_cluster *cluster,
                                                       tokenring_error *err);

/**
 * Sets the tag and the liveness of a node already added.
 * @param builder the builder
 * @param name the node
 * @param tag the caller's tag, kept by the node in every later snapshot
 * @param flags 0 (up) or #TOKENRING_ROUTER_NODE_DOWN
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_NOTFOUND, #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_router_builder_set_node(tokenring_router_builder *builder,
                                                    const char *name, uint64_t tag,
                                                    uint32_t flags, tokenring_error *err);

/**
 * Builds a router from what the builder holds (which stays as it is: build again after
 * more rows). Placements are built with #TOKENRING_PLACEMENT_SKIP_EMPTY_DC, as
 * Cassandra places a keyspace naming a datacenter without nodes.
 * @param[out] out receives the router (reference count 1); free with
 *             tokenring_router_free()
 * @param builder the builder
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_EMPTY (no node with tokens),
 *         #TOKENRING_E_IMPOSSIBLE (a keyspace with no replica at all; @p err names it),
 *         #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_router_build(tokenring_router **out,
                                         const tokenring_router_builder *builder,
                                         tokenring_error *err);

/* -------------------------------------------------------------------- events */

/** Kinds of ::tokenring_router_event. Values are ABI. @since 1.2 */
typedef enum tokenring_router_event_kind {
    TOKENRING_ROUTER_EVENT_UP = 1,          /**< @c node is up. */
    TOKENRING_ROUTER_EVENT_DOWN = 2,       /**< @c node is down. */
    TOKENRING_ROUTER_EVENT_JOINED = 3,     /**< @c node joined with @c datacenter,
                                                @c rack, @c host_id, @c tokens, @c tag. */
    TOKENRING_ROUTER_EVENT_LEFT = 4,       /**< @c node left the ring (removed). */
    TOKENRING_ROUTER_EVENT_MOVED = 5,      /**< @c node now has @c tokens. */
    TOKENRING_ROUTER_EVENT_REPLACED = 6,   /**< @c node replaced @c old_node, taking its
                                                datacenter, rack and tokens (and
                                                @c host_id, @c tag). */
    TOKENRING_ROUTER_EVENT_CREATED = 7,    /**< @c keyspace created with the replication
                                                map @c keys / @c values. */
    TOKENRING_ROUTER_EVENT_ALTERED = 8,    /**< @c keyspace's replication is now
                                                @c keys / @c values. */
    TOKENRING_ROUTER_EVENT_DROPPED = 9,    /**< @c keyspace dropped. */
    TOKENRING_ROUTER_EVENT_PLACEMENT = 10  /**< @c keyspace is routed through
                                                @c placement (see
                                                @ref router_placement). */
} tokenring_router_event_kind;

/**
 * A change to apply to a router. Zero it, set @c kind and the fields the kind names.
 * @since 1.2
 */
typedef struct tokenring_router_event {
    int32_t kind;                 /**< A ::tokenring_router_event_kind. */
    uint32_t flags;               /**< JOINED, REPLACED: #TOKENRING_ROUTER_NODE_DOWN or 0. */
    const char *node;             /**< The node (the new one for REPLACED). */
    const char *old_node;         /**< REPLACED: the node replaced. */
    const char *datacenter;       /**< JOINED. */
    const char *rack;             /**< JOINED (NULL reads as `UNKNOWN_RACK`). */
    const char *host_id;          /**< JOINED, REPLACED: or NULL. */
    const char *const *tokens;    /**< JOINED, MOVED: tokens as text. */
    size_t token_count;           /**< Their number. */
    uint64_t tag;                 /**< JOINED, REPLACED: the new node's tag. */
    const char *keyspace;         /**< Keyspace events and PLACEMENT. */
    const char *const *keys;      /**< CREATED, ALTERED: replication map keys. */
    const char *const *values;    /**< CREATED, ALTERED: replication map values. */
    size_t count;                 /**< Their number. */
    const tokenring_placement *placement; /**< PLACEMENT: the placement. */
    uint64_t reserved[4];         /**< Reserved, zero. */
} tokenring_router_event;

/**
 * Makes the snapshot that follows @p previous after @p event. @p previous is not
 * modified (readers may keep routing through it). Placements the event cannot change are
 * shared with @p previous; a join, leave, move or replace updates the others with
 * tokenring_placement_update(). A CREATED or ALTERED keyspace whose replication
 * another keyspace already has shares its placement. A dropped keyspace's placement is
 * released with the snapshot when no other keyspace uses it.
 * @param[out] out receives the new router (reference count 1)
 * @param previous the current router
 * @param event the event
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL (NULL, unknown kind, a placement on another
 *         ring), #TOKENRING_E_NOTFOUND (unknown node or keyspace), #TOKENRING_E_EXISTS
 *         (a joining node or a created keyspace already present, a token already held),
 *         #TOKENRING_E_PARSE, #TOKENRING_E_EMPTY (the last node with tokens left),
 *         #TOKENRING_E_IMPOSSIBLE, #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_router_apply(tokenring_router **out,
                                         const tokenring_router *previous,
                                         const tokenring_router_event *event,
                                         tokenring_error *err);

#ifdef __cplusplus
}
#endif

#endif /* TOKENRING_ROUTER_BUILD_H */
