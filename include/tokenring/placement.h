/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file placement.h
 * @brief Placements: the replica map of one ring under one replication, in Cassandra's
 *        replica order, and key and token routing through it (lib/ring/placement.c).
 *
 * A ::tokenring_placement never changes after it is built; any number of threads may
 * query it at once (see @ref ring_threads in ring.h for the publication pattern).
 */
#ifndef TOKENRING_PLACEMENT_H
#define TOKENRING_PLACEMENT_H

#include "tokenring/common.h"
#include "tokenring/types.h"
#include "tokenring/replication.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Flag for tokenring_placement_build(): accept datacenters that have no node in the
 *  ring (they get no replicas, as in Cassandra) instead of failing with
 *  #TOKENRING_E_NOTFOUND. @since 1.0 */
#define TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC 0x1u

/** Flag for tokenring_placement_build(): Cassandra's rule for a datacenter of a
 *  NetworkTopologyStrategy replication that has no node in the ring: it gets no replicas
 *  (ask which with tokenring_replication_empty_dc()), and the build fails with
 *  #TOKENRING_E_IMPOSSIBLE, naming those datacenters, when no replica at all results
 *  (every datacenter with a factor above 0 is empty, or every factor is 0). Callers warn
 *  about the skipped datacenters. Implies #TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC for the
 *  datacenters it skips. @since 1.2 */
#define TOKENRING_PLACEMENT_SKIP_EMPTY_DC 0x2u

/**
 * Builds the replica map of every range of @p ring under @p replication, with exactly
 * Cassandra's replica set and order (SimpleStrategy: distinct nodes clockwise;
 * NetworkTopologyStrategy: one interleaved walk over all datacenters, rack-aware, with
 * the rf - racks repeat budget). Identical replica sets are stored once. The placement
 * holds a reference to the ring. Complexity about O(n * w) for n tokens and w tokens
 * walked per range.
 * @param[out] out receives the placement; free with tokenring_placement_free()
 * @param ring the ring
 * @param replication the description (copied; may be freed afterwards)
 * @param flags 0, #TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC or
 *        #TOKENRING_PLACEMENT_SKIP_EMPTY_DC (since 1.2)
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_NOTFOUND (a datacenter of the
 *         description has no node in the ring, without a flag; @p err names it),
 *         #TOKENRING_E_IMPOSSIBLE (#TOKENRING_PLACEMENT_SKIP_EMPTY_DC and no replica
 *         results; @p err names the empty datacenters), #TOKENRING_E_NOMEM
 * @since 1.0
 */
TOKENRING_API int tokenring_placement_build(tokenring_placement **out,
                                            const tokenring_ring *ring,
                                            const tokenring_replication *replication,
                                            uint32_t flags, tokenring_error *err);

/**
 * Builds the placement of @p ring under the replication of @p previous (and its build
 * flags), reusing the previous placement's replicas wherever they cannot have changed: the
 * result is exactly what tokenring_placement_build() gives for @p ring, in less time when
 * @p ring differs from the previous ring by a few nodes (a join, a decommission, a move, a
 * replacement). A range keeps its previous replicas when its token is still in the ring
 * with the same node and no token was added, removed or given to another node between
 * that token and the first token of its farthest replica (the part of the ring its
 * replica walk visits); every other range is walked again. Nodes are matched by name (same
 * datacenter and rack); their indices may differ between the rings. When a datacenter's
 * node or rack count changes what a walk may pick (its rf is capped by its node count, or
 * its rack count changes the rack repeats it allows), every range is walked again.
 * Complexity O(n + w * c) for n tokens, c ranges to walk again and w tokens per walk; the
 * previous placement is not modified (both may be read concurrently meanwhile).
 * @param[out] out receives the placement (reference count 1); free with
 *             tokenring_placement_free(). When @p ring is the previous placement's ring,
 *             a new reference to @p previous.
 * @param previous a placement built from an earlier ring
 * @param ring the new ring
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_NOTFOUND (a datacenter of the
 *         replication has no node in @p ring and the previous placement was built without
 *         #TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC), #TOKENRING_E_IMPOSSIBLE (built with
 *         #TOKENRING_PLACEMENT_SKIP_EMPTY_DC and no replica results in @p ring),
 *         #TOKENRING_E_NOMEM
 * @since 1.1
 */
TOKENRING_API int tokenring_placement_update(tokenring_placement **out,
                                             const tokenring_placement *previous,
                                             const tokenring_ring *ring, tokenring_error *err);

/**
 * Takes another reference to a placement (atomic; thread-safe).
 * @param placement the placement (NULL gives NULL)
 * @return @p placement
 * @since 1.0
 */
TOKENRING_API tokenring_placement *tokenring_placement_ref(const tokenring_placement *placement);

/**
 * Drops a reference; the last one frees the placement (and its reference to the ring).
 * @param placement the placement, or NULL (no-op)
 * @since 1.0
 */
TOKENRING_API void tokenring_placement_free(tokenring_placement *placement);

/**
 * The ring a placement was built from (borrowed; valid while the placement lives).
 * @param placement the placement
 * @return the ring, or NULL for NULL
 * @since 1.0
 */
TOKENRING_API const tokenring_ring *tokenring_placement_ring(const tokenring_placement *placement);

/**
 * The replicas of one range. @c nodes points into the placement's shared memory: no
 * allocation, valid while the placement lives.
 * @since 1.0
 */
typedef struct tokenring_replicas {
    const uint32_t *nodes;     /**< Node indices in Cassandra's replica order. */
    const uint8_t *transient;  /**< NULL when every replica is full; otherwise one flag
                                    per replica, 1 for a transient replica. */
    uint32_t count;            /**< Number of replicas. */
    uint32_t range_index;      /**< The range these replicas serve. */
    uint32_t set_id;           /**< Identifier of this distinct replica set (equal sets
                                    share one id), 0 .. set count - 1. */
    uint32_t reserved;         /**< Reserved, zero. */
} tokenring_replicas;

/**
 * Replicas of the range holding @p token. O(log n), no allocation, thread-safe.
 * @param[out] out receives the replicas
 * @param placement the placement
 * @param token the token
 * @return #TOKENRING_OK or #TOKENRING_E_INVAL
 * @since 1.0
 */
TOKENRING_API int tokenring_placement_replicas(tokenring_replicas *out,
                                               const tokenring_placement *placement,
                                               int64_t token);

/**
 * Replicas of a key: its token (tokenring_token()) then tokenring_placement_replicas().
 * @param[out] out receives the replicas
 * @param placement the placement
 * @param key the serialized partition key (NULL only with @p len 0)
 * @param len its length
 * @return #TOKENRING_OK or #TOKENRING_E_INVAL
 * @since 1.0
 */
TOKENRING_API int tokenring_placement_replicas_for_key(tokenring_replicas *out,
                                                       const tokenring_placement *placement,
                                                       const void *key, size_t len);

/**
 * Replicas of a key with the ring's partitioner: the key's token (tokenring_token() for
 * Murmur3, tokenring_random_token() for RandomPartitioner, the key's bytes for
 * ByteOrderedPartitioner), then the replicas of its range. On a Murmur3 ring the same
 * answer as tokenring_placement_replicas_for_key(). O(log n), no allocation,
 * thread-safe.
 * @param[out] out receives the replicas
 * @param placement the placement
 * @param key the serialized partition key (NULL only with @p len 0)
 * @param len its length
 * @return #TOKENRING_OK or #TOKENRING_E_INVAL
 * @since 1.2
 */
TOKENRING_API int tokenring_placement_replicas_for_key_any(tokenring_replicas *out,
                                                           const tokenring_placement *placement,
                                                           const void *key, size_t len);

/**
 * The id of the replica set of a key's range, as the return value: what
 * tokenring_placement_replicas_for_key() gives in @c set_id (the key's Murmur3 token),
 * without the output structure.
 * For a router that keeps its own table per set id (a driver's hosts, say) and so needs
 * nothing else per request: the call that costs least from a binding (no out argument to
 * allocate or read back). O(log n), no allocation, thread-safe.
 * @param placement the placement
 * @param key the serialized partition key (NULL only with @p len 0)
 * @param len its length
 * @return the set id, 0 .. tokenring_placement_set_count() - 1 (read the set with
 *         tokenring_placement_set()); #TOKENRING_E_INVAL (negative) for a NULL placement
 *         or a NULL key with @p len > 0; #TOKENRING_E_UNSUPPORTED (negative) on a ring
 *         of another partitioner (as tokenring_placement_replicas_for_key())
 * @since 1.2
 */
TOKENRING_API int64_t tokenring_placement_key_set_id(const tokenring_placement *placement,
                                                     const void *key, size_t len);

/**
 * Replicas of range @p range_index.
 * @param[out] out receives the replicas
 * @param placement the placement
 * @param range_index the range (0 .. token count - 1)
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE
 * @since 1.0
 */
TOKENRING_API int tokenring_placement_range_replicas(tokenring_replicas *out,
                                                     const tokenring_placement *placement,
                                                     size_t range_index);

/**
 * Routes many keys in one call: for each key (packed as in tokenring_tokens()) its token
 * and the id of its replica set, to be read with tokenring_placement_set().
 * @param[out] tokens_out receives @p count tokens (may be NULL)
 * @param[out] set_ids_out receives @p count replica-set ids
 * @param placement the placement
 * @param keys packed key bytes
 * @param offsets @p count + 1 offsets
 * @param count number of keys
 * @return #TOKENRING_OK or #TOKENRING_E_INVAL
 * @since 1.0
 */
TOKENRING_API int tokenring_placement_route_keys(int64_t *tokens_out, uint32_t *set_ids_out,
                                                 const tokenring_placement *placement,
                                                 const uint8_t *keys, const uint64_t *offsets,
                                                 size_t count);

/**
 * Routes many keys in one call to their replicas: for each key (packed as in
 * tokenring_tokens()) exactly what tokenring_placement_replicas_for_key() gives it (its
 * replica nodes and transient flags, the key's own range and its set id), without a
 * second call per key. Each @c nodes points into the placement (no copy, valid while it
 * lives). The keys are hashed and searched in groups whose memory reads overlap, and each
 * key's replica row is prefetched as it is routed, so a caller that reads the nodes right
 * after the call finds them in the cache: route a few hundred keys per call (64-1,024
 * measured; doc/performance.md), not a whole table. Unlike tokenring_placement_route_keys()
 * + tokenring_placement_set(), @c range_index is the key's range, not its set's first.
 * Murmur3 rings only; no allocation, thread-safe.
 * @param[out] out receives @p count replica lists
 * @param[out] tokens_out receives @p count tokens (may be NULL)
 * @param placement the placement
 * @param keys packed key bytes (NULL only when every key is empty)
 * @param offsets @p count + 1 non-decreasing offsets into @p keys
 * @param count number of keys (0: nothing is read or written)
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL for a NULL placement, a NULL @p out or
 *         @p offsets with @p count > 0, decreasing offsets or NULL @p keys with bytes;
 *         #TOKENRING_E_UNSUPPORTED on a ring of another partitioner. On an error nothing
 *         is written.
 * @since 1.2
 */
TOKENRING_API int tokenring_placement_route_keys_replicas(tokenring_replicas *out,
                                                          int64_t *tokens_out,
                                                          const tokenring_placement *placement,
                                                          const uint8_t *keys,
                                                          const uint64_t *offsets, size_t count);

/**
 * Number of distinct replica sets.
 * @param placement the placement (NULL gives 0)
 * @return the count
 * @since 1.0
 */
TOKENRING_API size_t tokenring_placement_set_count(const tokenring_placement *placement);

/**
 * Reads distinct replica set @p set_id (its @c range_index is the first range using it).
 * @param[out] out receives the replicas
 * @param placement the placement
 * @param set_id the set id
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE
 * @since 1.0
 */
TOKENRING_API int tokenring_placement_set(tokenring_replicas *out,
                                          const tokenring_placement *placement, size_t set_id);

/**
 * Which rule ordered a placement's replicas (tokenring_placement_order()). Cassandra
 * before 6.0 orders a range's replicas by the replication's walk of the ring from the
 * range's token, a function of the tokens alone; Cassandra 6.0 keeps one replica list
 * per range and distinct replication, updates it by deltas at each join, leave, move and
 * replace (new replicas appended) and then moves the range's owner first: its order
 * depends on the cluster's history (doc/cassandra-6.md). A placement says which it is.
 * @since 1.2
 */
typedef enum tokenring_replica_order {
    TOKENRING_ORDER_TOKENS = 0,  /**< Computed from the ring's tokens by the replication's
                                      walk (tokenring_placement_build()): Cassandra's order
                                      before 6.0. */
    TOKENRING_ORDER_SERVER = 1,  /**< Given: the order a server reported (e.g. `nodetool
                                      describering` of one keyspace). */
    TOKENRING_ORDER_HISTORY = 2  /**< Given: Cassandra 6.0's order, replayed from the
                                      cluster's history. */
} tokenring_replica_order;

/**
 * Builds a placement from explicit replica lists, one per range of @p ring, kept in the
 * order given: the seam for replica orders that are not a function of the tokens (what a
 * Cassandra 6.0 server says, or its history replayed). Range @c i of the ring, (t_{i-1},
 * t_i], gets the nodes @p nodes[@p offsets[i] .. @p offsets[i + 1]) (ring node indices,
 * tokenring_ring_node()). Every query of placement.h then answers from these lists
 * (replicas, routing, set ids; equal lists share a set id), and tokenring_placement_order()
 * says @p order. A list may be empty (a range without replicas). The replication is kept
 * for callers that ask (ownership figures count the given replicas); the lists are not
 * checked against it. tokenring_placement_update() refuses such a placement
 * (#TOKENRING_E_UNSUPPORTED): build the next one from its own lists.
 * @param[out] out receives the placement (reference count 1); free with
 *             tokenring_placement_free()
 * @param ring the ring (the placement holds a reference)
 * @param replication the keyspace's replication (copied)
 * @param offsets token count + 1 offsets into @p nodes, @p offsets[0] == 0, non-decreasing
 * @param nodes the node indices of every range's list, range after range (NULL only when
 *        every list is empty)
 * @param upper NULL, or (Murmur3 rings) the list of the tokens above the largest ring
 *        token, when it differs from range 0's: Cassandra 6.0 cuts range 0 at the
 *        minimum token and keeps a list for each part, (t_{n-1}, min] and (min, t_0],
 *        which a history can order differently. Token lookups then answer it above t_{n-1};
 *        range 0 (tokenring_placement_range_replicas()) keeps the lower part's list. Its set
 *        id, when no range has the same list, is the last one, with @c range_index equal
 *        to the token count.
 * @param upper_count the length of @p upper
 * @param order #TOKENRING_ORDER_SERVER or #TOKENRING_ORDER_HISTORY
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL (a NULL argument, another @p order, offsets
 *         that decrease or do not start at 0, a node index past the ring's nodes, a node
 *         named twice in one list: @p err names the range, its end token and the node),
 *         #TOKENRING_E_UNSUPPORTED (@p upper on a ring of another partitioner),
 *         #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_placement_from_lists(tokenring_placement **out,
                                                 const tokenring_ring *ring,
                                                 const tokenring_replication *replication,
                                                 const uint32_t *offsets,
                                                 const uint32_t *nodes,
                                                 const uint32_t *upper, size_t upper_count,
                                                 int order, tokenring_error *err);

/**
 * Which rule ordered the placement's replicas: #TOKENRING_ORDER_TOKENS for
 * tokenring_placement_build() and tokenring_placement_update(), else the @c order given
 * to tokenring_placement_from_lists(). Thread-safe.
 * @param placement the placement
 * @return a ::tokenring_replica_order value, or #TOKENRING_E_INVAL for NULL
 * @since 1.2
 */
TOKENRING_API int tokenring_placement_order(const tokenring_placement *placement);

#ifdef __cplusplus
}
#endif

#endif /* TOKENRING_PLACEMENT_H */
