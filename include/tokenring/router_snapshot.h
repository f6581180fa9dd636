/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file router_snapshot.h
 * @brief A router's snapshot and its lookups: the nodes, the keyspaces and the routes of
 *        keys and tokens (lib/router/router.c). Part of the routers (router.h, which includes
 *        this file).
 *
 * @section router_snapshot Snapshots
 * A ::tokenring_router is an immutable, reference-counted snapshot of:
 * - the cluster's nodes: name, datacenter, rack, host ID, up or down, and a tag the
 *   caller chooses (a host object's address, a handle) that stays with the node in every
 *   later snapshot, whatever its index;
 * - the partitioner;
 * - every keyspace with its replication and placement. Keyspaces with the same
 *   replication share one ::tokenring_placement.
 *
 * Lookups take a keyspace name and a key (its serialized bytes, its composite parts, or a
 * token) and give the replicas in the server's order, primary first, and a view for the
 * router's local datacenter (tokenring_router_builder_new()): local replicas first, then
 * the others; with #TOKENRING_ROUTE_UP_FIRST the up replicas of each part before its down
 * ones. Both orders are precomputed when the snapshot is built: a lookup allocates
 * nothing, takes no lock and writes nothing shared. Node indices are those of the
 * snapshot (they shift when a node leaves); tags do not.
 *
 * Threads: a snapshot may be read by any number of threads at once; tokenring_router_ref()
 * and tokenring_router_free() are atomic. Snapshots are made by router_build.h and
 * published by router_holder.h.
 */
#ifndef TOKENRING_ROUTER_SNAPSHOT_H
#define TOKENRING_ROUTER_SNAPSHOT_H

#include "tokenring/common.h"
#include "tokenring/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** An immutable, reference-counted routing snapshot. @since 1.2 */
typedef struct tokenring_router tokenring_router;

/** Flag for tokenring_router_builder_set_node() and ::tokenring_router_node_info: the node is
 *  down. @since 1.2 */
#define TOKENRING_ROUTER_NODE_DOWN 0x1u

/** Flag of the route lookups: in @c local, the up replicas of the local datacenter, then
 *  its down ones, then the other datacenters' up replicas, then their down ones (each
 *  part in the server's order). Without it, @c local holds the local replicas, then the
 *  others, in the server's order. @since 1.2 */
#define TOKENRING_ROUTE_UP_FIRST 0x1u

/**
 * One node of a router. Pointers stay valid while the router lives.
 * @since 1.2
 */
typedef struct tokenring_router_node_info {
    const char *name;       /**< Node name (the address the rows gave). */
    const char *datacenter; /**< Datacenter. */
    const char *rack;       /**< Rack. */
    const char *host_id;    /**< Host ID as the rows gave it, or NULL. */
    uint64_t tag;           /**< The caller's tag (0 unless set). */
    uint32_t flags;         /**< #TOKENRING_ROUTER_NODE_DOWN or 0. */
    int32_t state;          /**< A ::tokenring_node_state. */
    uint32_t token_count;   /**< Number of tokens (0 for a node without tokens). */
    uint32_t local;         /**< 1 when the node is in the router's local datacenter (or
                                 the router has none), else 0. */
    uint64_t reserved[2];   /**< Reserved, zero. */
} tokenring_router_node_info;

/**
 * The replicas of a key, token or range, as a route lookup gives them. The arrays belong
 * to the router: no allocation, valid while the router lives.
 * @since 1.2
 */
typedef struct tokenring_route {
    const uint32_t *replicas; /**< Node indices in the server's order, primary first. */
    const uint32_t *local;    /**< The same nodes, local datacenter first (see
                                   #TOKENRING_ROUTE_UP_FIRST). */
    const uint64_t *tags;     /**< The router's tags by node index: the tag of replica
                                   @c i is <tt>tags[replicas[i]]</tt>. */
    uint32_t count;           /**< Number of replicas. */
    uint32_t local_count;     /**< Replicas in the local datacenter: the first
                                   @c local_count entries of @c local. */
    uint32_t local_up_count;  /**< Up replicas among them (with
                                   #TOKENRING_ROUTE_UP_FIRST, the first entries). */
    uint32_t set_id;          /**< The placement's replica-set id. */
    int64_t token;            /**< The key's token (Murmur3 routers; 0 otherwise). */
    uint64_t reserved[2];     /**< Reserved, zero. */
} tokenring_route;


/**
 * Takes another reference to a router (atomic; thread-safe).
 * @param router the router (NULL gives NULL)
 * @return @p router
 * @since 1.2
 */
TOKENRING_API tokenring_router *tokenring_router_ref(const tokenring_router *router);

/**
 * Drops a reference; the last one frees the router (and its references to its ring and
 * placements). Thread-safe.
 * @param router the router, or NULL (no-op)
 * @since 1.2
 */
TOKENRING_API void tokenring_router_free(tokenring_router *router);

/**
 * Routes a serialized partition key of a keyspace, with the router's partitioner.
 * O(log k + log n) for k keyspaces and n tokens; no allocation, no lock. Thread-safe.
 * @param[out] out receives the route
 * @param router the router
 * @param keyspace the keyspace name (NUL-terminated)
 * @param key the key bytes (NULL only with @p len 0)
 * @param len their length
 * @param flags 0 or #TOKENRING_ROUTE_UP_FIRST
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL (NULL argument, unknown flag),
 *         #TOKENRING_E_NOTFOUND (no such keyspace, or a skipped one)
 * @since 1.2
 */
TOKENRING_API int tokenring_router_route(tokenring_route *out, const tokenring_router *router,
                                         const char *keyspace, const void *key, size_t len,
                                         uint32_t flags);

/**
 * Routes a composite partition key given as its parts (the column values), hashed in
 * place without packing them: the same answer as tokenring_router_route() on the key
 * tokenring_composite_encode() packs. On a Murmur3 router no copy is made; on the other
 * partitioners the key is packed on the stack, up to 4096 bytes.
 * @param[out] out receives the route
 * @param router the router
 * @param keyspace the keyspace name
 * @param parts the parts (a part may be NULL when its length is 0)
 * @param lens their lengths (each at most #TOKENRING_MAX_KEY)
 * @param count number of parts (at least 1)
 * @param flags 0 or #TOKENRING_ROUTE_UP_FIRST
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE (a part too long; a key
 *         above 4096 bytes on a non-Murmur3 router), #TOKENRING_E_NOTFOUND
 * @since 1.2
 */
TOKENRING_API int tokenring_router_route_parts(tokenring_route *out,
                                               const tokenring_router *router,
                                               const char *keyspace,
                                               const void *const *parts, const size_t *lens,
                                               size_t count, uint32_t flags);

/**
 * Routes a Murmur3 token of a keyspace.
 * @param[out] out receives the route (its @c token is @p token)
 * @param router the router
 * @param keyspace the keyspace name
 * @param token the token
 * @param flags 0 or #TOKENRING_ROUTE_UP_FIRST
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_NOTFOUND,
 *         #TOKENRING_E_UNSUPPORTED (a router of another partitioner)
 * @since 1.2
 */
TOKENRING_API int tokenring_router_route_token(tokenring_route *out,
                                               const tokenring_router *router,
                                               const char *keyspace, int64_t token,
                                               uint32_t flags);

/**
 * Number of nodes.
 * @param router the router (NULL gives 0)
 * @return the count
 * @since 1.2
 */
TOKENRING_API size_t tokenring_router_node_count(const tokenring_router *router);

/**
 * Reads node @p index (0 .. count - 1).
 * @param[out] out receives the node
 * @param router the router
 * @param index the node index
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE
 * @since 1.2
 */
TOKENRING_API int tokenring_router_node(tokenring_router_node_info *out,
                                        const tokenring_router *router, size_t index);

/**
 * Finds a node by name. O(log n).
 * @param[out] index_out receives its index
 * @param router the router
 * @param name the name
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_NOTFOUND
 * @since 1.2
 */
TOKENRING_API int tokenring_router_find_node(uint32_t *index_out,
                                             const tokenring_router *router,
                                             const char *name);

/**
 * The ring the router's placements are built from (borrowed; valid while the router
 * lives): build a placement on it to supply with #TOKENRING_ROUTER_EVENT_PLACEMENT.
 * @param router the router
 * @return the ring, or NULL for NULL
 * @since 1.2
 */
TOKENRING_API const tokenring_ring *tokenring_router_ring(const tokenring_router *router);

/**
 * Number of keyspaces routed (skipped ones excluded).
 * @param router the router (NULL gives 0)
 * @return the count
 * @since 1.2
 */
TOKENRING_API size_t tokenring_router_keyspace_count(const tokenring_router *router);

/**
 * Reads keyspace @p index (sorted by name).
 * @param[out] name_out receives its name (borrowed; may be NULL)
 * @param[out] placement_out receives its placement (borrowed: take a reference to keep
 *             it; keyspaces of the same replication give the same pointer; may be NULL)
 * @param router the router
 * @param index 0 .. count - 1
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE
 * @since 1.2
 */
TOKENRING_API int tokenring_router_keyspace(const char **name_out,
                                            const tokenring_placement **placement_out,
                                            const tokenring_router *router, size_t index);

/**
 * Number of keyspaces skipped because their class places nothing on the ring
 * (LocalStrategy, EverywhereStrategy, MetaStrategy). Read them with
 * tokenring_router_skipped().
 * @param router the router (NULL gives 0)
 * @return the count
 * @since 1.2
 */
TOKENRING_API size_t tokenring_router_skipped_count(const tokenring_router *router);

/**
 * Reads skipped keyspace @p index.
 * @param[out] name_out receives its name (borrowed; may be NULL)
 * @param[out] class_out receives its class as given (borrowed; may be NULL)
 * @param router the router
 * @param index 0 .. count - 1
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE
 * @since 1.2
 */
TOKENRING_API int tokenring_router_skipped(const char **name_out, const char **class_out,
                                           const tokenring_router *router, size_t index);

#ifdef __cplusplus
}
#endif

#endif /* TOKENRING_ROUTER_SNAPSHOT_H */
