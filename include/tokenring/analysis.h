/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file analysis.h
 * @brief Questions operators ask of a ring, answered exactly: balance statistics, what a
 *        join / decommission / replacement / move changes and streams, which failures
 *        break a consistency level, and a plan for changing num_tokens.
 *
 * Analyses never modify their inputs: a topology change is simulated on a copy
 * (tokenring_topology_clone()). Results that hold arrays are opaque, immutable handles
 * read through accessor functions and released with their free function; a result may be
 * read from any number of threads at once. Every width is exact (a count of token
 * values, up to 2^64 or more, as ::tokenring_u128); the doubles next to them are the same
 * widths divided by 2^64, for display. On RandomPartitioner rings widths are over 2^127
 * and fractions divide by 2^127; ByteOrderedPartitioner tokens have no width, so there
 * widths count ranges (see tokenring_balance_compute(),
 * tokenring_movement_compare_keys() and tokenring_availability_build()).
 */
#ifndef TOKENRING_ANALYSIS_H
#define TOKENRING_ANALYSIS_H

#include "tokenring/common.h"
#include "tokenring/ring.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------- balance */

/**
 * Statistics of one ownership measure over a group of nodes. Fractions are of the whole
 * ring (2^64 token values; on other partitioners see tokenring_balance_compute()).
 * @since 1.0
 */
typedef struct tokenring_balance {
    uint32_t node_count;      /**< Nodes in the group (nodes holding ring tokens). */
    uint32_t min_node;        /**< Ring index of a node with the smallest share (the
                                   lowest index among equals). */
    uint32_t max_node;        /**< Ring index of a node with the largest share. */
    uint32_t reserved0;       /**< Reserved, zero. */
    tokenring_u128 min_width; /**< Exact smallest width. */
    tokenring_u128 max_width; /**< Exact largest width. */
    tokenring_u128 total_width; /**< Exact sum over the group. */
    double min;               /**< min_width / 2^64. */
    double max;               /**< max_width / 2^64. */
    double mean;              /**< total_width / node_count / 2^64. */
    double stdev;             /**< Sample standard deviation (n - 1 in the denominator,
                                   0 for one node) of the shares, as fractions. */
    uint64_t reserved[4];     /**< Reserved, zero. */
} tokenring_balance;

/**
 * Balance of primary and effective ownership over the nodes of a whole ring, of one
 * datacenter, or of one rack of a datacenter. A node counts when it holds at least one
 * ring token (state normal, leaving or moving).
 *
 * Every partitioner (since 1.2; before, other rings gave #TOKENRING_E_UNSUPPORTED), with
 * widths in the ring's own units:
 *  - Murmur3: token values, fractions over 2^64;
 *  - RandomPartitioner: token values over 2^127 as tokenring_ring_ownership() gives them
 *    (`describeOwnership`'s widths), fractions over 2^127. A node's width is at most
 *    2^127 but @c total_width sums them (effective widths add up to rf * 2^127): past
 *    2^128 - 1 it saturates there, while @c mean comes from the exact sum;
 *  - ByteOrderedPartitioner (tokens without arithmetic): a node's primary width is the
 *    number of ring ranges it owns (its ring tokens) and its effective width the number
 *    of ring ranges it holds a replica of (full or transient); fractions divide by the
 *    ring's range count. This is a balance of ranges, not of data.
 *
 * Thread-safe (reads immutable objects). O(n + ranges * replicas).
 * @param[out] primary_out receives primary-ownership statistics (may be NULL)
 * @param[out] effective_out receives effective-ownership statistics (may be NULL; needs
 *             @p placement)
 * @param ring the ring
 * @param placement a placement built from @p ring, or NULL when @p effective_out is NULL
 * @param datacenter restrict to this datacenter, or NULL for every node
 * @param rack restrict to this rack of @p datacenter, or NULL for the whole datacenter
 * @param[out] err optional detail
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL @p ring, @p rack without
 *         @p datacenter, @p effective_out without @p placement, a placement of another
 *         ring); #TOKENRING_E_NOTFOUND (no node of the ring in that datacenter/rack);
 *         #TOKENRING_E_NOMEM
 * @since 1.0
 */
TOKENRING_API int tokenring_balance_compute(tokenring_balance *primary_out,
                                            tokenring_balance *effective_out,
                                            const tokenring_ring *ring,
                                            const tokenring_placement *placement,
                                            const char *datacenter, const char *rack,
                                            tokenring_error *err);

/* ------------------------------------------------------------------ movement */

/** What a movement analysis compares; decides the streaming sources. Values are ABI.
 *  @since 1.0 */
typedef enum tokenring_change_kind {
    TOKENRING_CHANGE_GENERIC = 0,      /**< Any two topologies: sources as for a join. */
    TOKENRING_CHANGE_JOIN = 1,         /**< A node bootstraps. */
    TOKENRING_CHANGE_DECOMMISSION = 2, /**< A node leaves and streams its data away. */
    TOKENRING_CHANGE_REPLACE = 3,      /**< A dead node is replaced (replace_address). */
    TOKENRING_CHANGE_MOVE = 4          /**< A node takes new tokens (nodetool move). */
} tokenring_change_kind;

/** Result of a movement analysis (immutable; free with tokenring_movement_free()).
 *  @since 1.0 */
typedef struct tokenring_movement tokenring_movement;

/**
 * Compares the replica placement of two topologies under one replication.
 *
 * Ranges. The boundaries of both rings together cut the token space into elementary
 * ranges (previous boundary, boundary]; each lies inside one range of each ring, so it has
 * one old and one new replica list. An elementary range is reported when the old and new
 * replica SETS differ (a change of order alone moves no data).
 *
 * Nodes are identified by name across the two topologies and numbered in the result:
 * first the nodes of @p before in its order, then the nodes only in @p after.
 *
 * Streaming, for every reported range and every node that gains it (in the new list but
 * not the old), one source, following Cassandra's bootstrap with strict consistency
 * (RangeStreamer.calculateRangesToFetchWithPreferredEndpoints: the replica that loses the
 * range is the one to stream from, so that no consistency guarantee is broken):
 *  - the gaining nodes are paired, in new-replica order, with the losing nodes (old list,
 *    not new list), in old-replica order, preferring a loser of the gainer's datacenter;
 *    such a stream is marked strict;
 *  - when no loser is left (e.g. fewer nodes than the replication factor), the source is
 *    the first old replica of the gainer's datacenter still present, else the first old
 *    replica still present (Cassandra would ask the snitch for the closest one);
 *  - for #TOKENRING_CHANGE_REPLACE the replaced node is dead and never a source: every
 *    gained range comes from the first other old replica of the same datacenter (else any
 *    datacenter), non-strict, as a replacement streams;
 *  - for #TOKENRING_CHANGE_DECOMMISSION the leaving node is the loser and so the source of
 *    its ranges, as unbootstrap streams them.
 *
 * Sample tokens (e.g. tokens of sample keys from tokenring_tokens()) are looked up in both
 * placements.
 *
 * Topologies of every partitioner (since 1.2), both of the same one; on a
 * RandomPartitioner or ByteOrderedPartitioner topology @c int64_t sample tokens do not
 * exist (#TOKENRING_E_UNSUPPORTED when @p sample_count > 0: pass sample keys to
 * tokenring_movement_compare_keys()), and widths, fractions and range bounds are as
 * tokenring_movement_compare_keys() says.
 *
 * Thread-safe as a reader of its inputs. O((n1 + n2) * (log + rf)) plus the two placement
 * builds.
 * @param[out] out receives the result; free with tokenring_movement_free()
 * @param before the topology before the change
 * @param after the topology after the change
 * @param replication the replication to compare under
 * @param kind a ::tokenring_change_kind
 * @param sample_tokens tokens to trace (may be NULL when @p sample_count is 0)
 * @param sample_count number of sample tokens
 * @param[out] err optional detail
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL pointer, unknown kind, topologies of
 *         different partitioners); #TOKENRING_E_EMPTY (a topology has no ring token);
 *         #TOKENRING_E_NOTFOUND (a datacenter of the replication has no node);
 *         #TOKENRING_E_UNSUPPORTED (sample tokens on topologies of another partitioner
 *         than Murmur3); #TOKENRING_E_NOMEM
 * @since 1.0
 */
TOKENRING_API int tokenring_movement_compare(tokenring_movement **out,
                                             const tokenring_topology *before,
                                             const tokenring_topology *after,
                                             const tokenring_replication *replication,
                                             int kind, const int64_t *sample_tokens,
                                             size_t sample_count, tokenring_error *err);

/**
 * Which tokens of @p before are still held by the same node in @p after: the property a
 * join must have (the new nodes take new tokens; every existing node keeps its own) and
 * a move or a decommission does not. Nodes are matched by name. For every node of
 * @p before, each of its tokens counts as kept when the node of that name in @p after
 * holds it, and as lost otherwise (also when the node is gone); each token such a node
 * holds in @p after but did not hold in @p before counts as gained. Tokens of nodes only
 * in @p after (the joining nodes) are not counted. A change kept every existing token
 * exactly when lost and gained are both 0; kept is then the token count of @p before.
 *
 * Reads the node token lists of both rings (see tokenring_ring_node(): built on first
 * use). O(tokens of both rings) plus a name lookup per node.
 *
 * Every partitioner, tokens compared exactly (tokenring_token128_compare(),
 * tokenring_byte_token_compare()). A RandomPartitioner or ByteOrderedPartitioner ring
 * keeps the tokens of its ring members only: a node of @p before outside the ring
 * holding tokens (e.g. joining), or its namesake in @p after, gives
 * #TOKENRING_E_UNSUPPORTED. O(tokens * log) on those rings.
 * @param[out] kept_out tokens of @p before their node still holds (may be NULL)
 * @param[out] lost_out tokens of @p before their node no longer holds (may be NULL)
 * @param[out] gained_out tokens the nodes of @p before hold only in @p after (may be NULL)
 * @param before the ring before the change
 * @param after the ring after it
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL ring, rings of different
 *         partitioners); #TOKENRING_E_UNSUPPORTED (see above); #TOKENRING_E_NOMEM
 *         (building a node token list failed); outputs unchanged on error
 * @since 1.2
 */
TOKENRING_API int tokenring_ring_tokens_kept(size_t *kept_out, size_t *lost_out,
                                             size_t *gained_out, const tokenring_ring *before,
                                             const tokenring_ring *after);

/**
 * Simulates a node joining (state normal afterwards) and compares, as
 * tokenring_movement_compare() with #TOKENRING_CHANGE_JOIN. @p topology is not modified.
 * @param[out] out receives the result
 * @param topology the cluster before the join
 * @param replication the replication
 * @param name the new node's name (must not exist)
 * @param datacenter its datacenter
 * @param rack its rack
 * @param tokens its tokens
 * @param token_count number of tokens (at least 1)
 * @param sample_tokens tokens to trace (may be NULL when @p sample_count is 0)
 * @param sample_count number of sample tokens
 * @param[out] err optional detail
 * @return as tokenring_movement_compare(), plus the errors of
 *         tokenring_topology_add_node() (#TOKENRING_E_EXISTS for a known name or a taken
 *         token)
 * @since 1.0
 */
TOKENRING_API int tokenring_movement_join(tokenring_movement **out,
                                          const tokenring_topology *topology,
                                          const tokenring_replication *replication,
                                          const char *name, const char *datacenter,
                                          const char *rack, const int64_t *tokens,
                                          size_t token_count, const int64_t *sample_tokens,
                                          size_t sample_count, tokenring_error *err);

/**
 * Simulates a decommission (the node leaves) and compares, with
 * #TOKENRING_CHANGE_DECOMMISSION. @p topology is not modified.
 * @param[out] out receives the result
 * @param topology the cluster before
 * @param replication the replication
 * @param name the leaving node
 * @param sample_tokens tokens to trace (may be NULL when @p sample_count is 0)
 * @param sample_count number of sample tokens
 * @param[out] err optional detail
 * @return as tokenring_movement_compare(); #TOKENRING_E_NOTFOUND for an unknown node;
 *         #TOKENRING_E_EMPTY when it is the last node
 * @since 1.0
 */
TOKENRING_API int tokenring_movement_decommission(tokenring_movement **out,
                                                  const tokenring_topology *topology,
                                                  const tokenring_replication *replication,
                                                  const char *name,
                                                  const int64_t *sample_tokens,
                                                  size_t sample_count, tokenring_error *err);

/**
 * Simulates replacing a dead node by a new one with the same tokens, datacenter and rack,
 * with #TOKENRING_CHANGE_REPLACE. @p topology is not modified.
 * @param[out] out receives the result
 * @param topology the cluster before
 * @param replication the replication
 * @param old_name the replaced node
 * @param new_name the replacement (must not exist)
 * @param sample_tokens tokens to trace (may be NULL when @p sample_count is 0)
 * @param sample_count number of sample tokens
 * @param[out] err optional detail
 * @return as tokenring_movement_compare(); #TOKENRING_E_NOTFOUND, #TOKENRING_E_EXISTS
 * @since 1.0
 */
TOKENRING_API int tokenring_movement_replace(tokenring_movement **out,
                                             const tokenring_topology *topology,
                                             const tokenring_replication *replication,
                                             const char *old_name, const char *new_name,
                                             const int64_t *sample_tokens,
                                             size_t sample_count, tokenring_error *err);

/**
 * Simulates a node moving to new tokens, with #TOKENRING_CHANGE_MOVE. @p topology is not
 * modified.
 * @param[out] out receives the result
 * @param topology the cluster before
 * @param replication the replication
 * @param name the moving node
 * @param tokens its new tokens
 * @param token_count number of new tokens (at least 1)
 * @param sample_tokens tokens to trace (may be NULL when @p sample_count is 0)
 * @param sample_count number of sample tokens
 * @param[out] err optional detail
 * @return as tokenring_movement_compare(), plus the errors of
 *         tokenring_topology_set_tokens()
 * @since 1.0
 */
TOKENRING_API int tokenring_movement_move(tokenring_movement **out,
                                          const tokenring_topology *topology,
                                          const tokenring_replication *replication,
                                          const char *name, const int64_t *tokens,
                                          size_t token_count, const int64_t *sample_tokens,
                                          size_t sample_count, tokenring_error *err);

/**
 * Frees a movement result.
 * @param movement the result, or NULL (no-op)
 * @since 1.0
 */
TOKENRING_API void tokenring_movement_free(tokenring_movement *movement);

/**
 * Totals of a movement analysis.
 * @since 1.0
 */
typedef struct tokenring_movement_summary {
    tokenring_u128 changed_width;  /**< Token values whose replica set changes. */
    tokenring_u128 primary_changed_width; /**< Token values whose primary replica (first
                                               replica) changes. */
    tokenring_u128 streamed_width; /**< Sum of the widths of all streams (a range streamed
                                        to two nodes counts twice). */
    double changed_fraction;       /**< changed_width / 2^64 (other partitioners: see
                                        tokenring_movement_compare_keys()). */
    double primary_changed_fraction; /**< primary_changed_width / 2^64. */
    double streamed_fraction;      /**< streamed_width / 2^64. */
    uint32_t range_count;          /**< Elementary ranges whose replica set changes. */
    uint32_t stream_count;         /**< Streams. */
    uint32_t node_count;           /**< Nodes of the result. */
    uint32_t cleanup_count;        /**< Nodes that afterwards hold data they no longer
                                        replicate. */
    uint32_t sample_count;         /**< Sample tokens traced. */
    uint32_t samples_primary_changed;  /**< Samples whose primary replica changes. */
    uint32_t samples_replicas_changed; /**< Samples whose replica set changes. */
    uint32_t reserved0;            /**< Reserved, zero. */
    uint64_t reserved[4];          /**< Reserved, zero. */
} tokenring_movement_summary;

/**
 * Reads the totals.
 * @param[out] out receives them
 * @param movement the result
 * @return #TOKENRING_OK or #TOKENRING_E_INVAL
 * @since 1.0
 */
TOKENRING_API int tokenring_movement_get_summary(tokenring_movement_summary *out,
                                                 const tokenring_movement *movement);

/**
 * What one node gains and loses. Effective widths count every range the node is a
 * replica of; primary widths the ranges it is the first replica of.
 * @since 1.0
 */
typedef struct tokenring_movement_node {
    const char *name;              /**< Node name (valid while the result lives). */
    tokenring_u128 before_width;   /**< Effective width before. */
    tokenring_u128 after_width;    /**< Effective width after. */
    tokenring_u128 gained_width;   /**< Width it replicates after but not before (what it
                                        receives by streaming). */
    tokenring_u128 lost_width;     /**< Width it replicated before but not after. */
    tokenring_u128 primary_before_width; /**< Primary width before. */
    tokenring_u128 primary_after_width;  /**< Primary width after. */
    double gained_fraction;        /**< gained_width / after_width: the share of its data
                                        afterwards that arrives by streaming (0 if none). */
    double lost_fraction;          /**< lost_width / before_width: the share of its data
                                        before that it no longer replicates (0 if none). */
    uint8_t in_before;             /**< 1 if the node is in the topology before. */
    uint8_t in_after;              /**< 1 if the node is in the topology after. */
    uint8_t needs_cleanup;         /**< 1 if it is in both and lost_width > 0: what
                                        `nodetool cleanup` would remove. */
    uint8_t reserved0;             /**< Reserved, zero. */
    uint32_t reserved1;            /**< Reserved, zero. */
    uint64_t reserved[2];          /**< Reserved, zero. */
} tokenring_movement_node;

/**
 * Reads node @p index (0 .. summary.node_count - 1).
 * @param[out] out receives the node
 * @param movement the result
 * @param index the node
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE
 * @since 1.0
 */
TOKENRING_API int tokenring_movement_get_node(tokenring_movement_node *out,
                                              const tokenring_movement *movement,
                                              size_t index);

/**
 * One elementary range whose replica set changes. Node numbers are the result's.
 * @since 1.0
 */
typedef struct tokenring_moved_range {
    int64_t start;                 /**< Exclusive lower bound (0 on other partitioners:
                                        tokenring_movement_range_bounds128(),
                                        tokenring_movement_range_bounds_bytes()). */
    int64_t end;                   /**< Inclusive upper bound (likewise). */
    tokenring_u128 width;          /**< Exact width. */
    const uint32_t *old_replicas;  /**< Old replicas in Cassandra's order. */
    const uint32_t *new_replicas;  /**< New replicas in Cassandra's order. */
    uint32_t old_count;            /**< Number of old replicas. */
    uint32_t new_count;            /**< Number of new replicas. */
    uint64_t reserved[2];          /**< Reserved, zero. */
} tokenring_moved_range;

/**
 * Reads changed range @p index (0 .. summary.range_count - 1), in token order.
 * @param[out] out receives it (pointers valid while the result lives)
 * @param movement the result
 * @param index the range
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE
 * @since 1.0
 */
TOKENRING_API int tokenring_movement_get_range(tokenring_moved_range *out,
                                               const tokenring_movement *movement,
                                               size_t index);

/**
 * One stream: @c source sends range (start, end] to @c destination.
 * @since 1.0
 */
typedef struct tokenring_stream {
    int64_t start;          /**< Exclusive lower bound (0 on other partitioners: the
                                 bounds of range @c range_index). */
    int64_t end;            /**< Inclusive upper bound (likewise). */
    tokenring_u128 width;   /**< Exact width. */
    uint32_t source;        /**< Sending node (result numbering). */
    uint32_t destination;   /**< Receiving node. */
    uint32_t range_index;   /**< The changed range it belongs to. */
    uint32_t strict;        /**< 1 if the source is the replica losing the range. */
    uint64_t reserved[2];   /**< Reserved, zero. */
} tokenring_stream;

/**
 * Reads stream @p index (0 .. summary.stream_count - 1), in range order.
 * @param[out] out receives it
 * @param movement the result
 * @param index the stream
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE
 * @since 1.0
 */
TOKENRING_API int tokenring_movement_get_stream(tokenring_stream *out,
                                                const tokenring_movement *movement,
                                                size_t index);

/**
 * What happens to one sample token.
 * @since 1.0
 */
typedef struct tokenring_sample_change {
    int64_t token;                /**< The sample token (0 on other partitioners:
                                       tokenring_movement_sample_token128(),
                                       tokenring_movement_sample_token_bytes()). */
    const uint32_t *old_replicas; /**< Replicas before (result numbering, Cassandra's
                                       order; the first is the primary). */
    const uint32_t *new_replicas; /**< Replicas after. */
    uint32_t old_count;           /**< Number of old replicas. */
    uint32_t new_count;           /**< Number of new replicas. */
    uint32_t old_owner;           /**< Primary owner (range owner) before. */
    uint32_t new_owner;           /**< Primary owner after. */
    uint8_t owner_changed;        /**< 1 if the range owner changes. */
    uint8_t replicas_changed;     /**< 1 if the replica set changes. */
    uint8_t reserved0[6];         /**< Reserved, zero. */
    uint64_t reserved[2];         /**< Reserved, zero. */
} tokenring_sample_change;

/**
 * Reads sample @p index (0 .. summary.sample_count - 1), in the order given.
 * @param[out] out receives it (pointers valid while the result lives)
 * @param movement the result
 * @param index the sample
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE
 * @since 1.0
 */
TOKENRING_API int tokenring_movement_get_sample(tokenring_sample_change *out,
                                                const tokenring_movement *movement,
                                                size_t index);

/* --------------------------------------------- movement on every partitioner */

/**
 * tokenring_movement_compare() with sample @e keys instead of sample tokens, on topologies
 * of every partitioner. Each key is hashed with the topologies' partitioner
 * (tokenring_token() for Murmur3, tokenring_random_token() for RandomPartitioner, the
 * key's bytes themselves for ByteOrderedPartitioner) and traced as a sample token is.
 *
 * On a RandomPartitioner or ByteOrderedPartitioner topology the analysis is the same
 * walk over ring positions as on Murmur3 (same ranges, replica lists, streams and order),
 * with widths in the ring's own units:
 *  - RandomPartitioner: exact widths over 2^127, an elementary range (start, end] being
 *    (end - start + 2^127) mod 2^127 as ::tokenring_range128 counts it (2^127 when both
 *    rings have one token); fractions divide by 2^127;
 *  - ByteOrderedPartitioner (tokens without arithmetic): every elementary range has
 *    width 1, so widths count elementary ranges (of the union of both rings' tokens) and
 *    fractions divide by their number.
 * The bounds of a changed range are then read with tokenring_movement_range_bounds128()
 * or tokenring_movement_range_bounds_bytes() (the @c int64_t @c start and @c end of
 * ::tokenring_moved_range and ::tokenring_stream are 0; a stream's range is its
 * @c range_index), the sample tokens with tokenring_movement_sample_token128() /
 * tokenring_movement_sample_token_bytes(). The summary's @c streamed_width, a sum over
 * streams, can pass 2^128 on a RandomPartitioner ring (three whole copies streamed): it
 * then saturates at 2^128 - 1. On Murmur3 topologies the result is exactly
 * tokenring_movement_compare()'s with the keys' tokens.
 *
 * @param[out] out receives the result; free with tokenring_movement_free()
 * @param before the topology before the change
 * @param after the topology after the change (same partitioner)
 * @param replication the replication to compare under
 * @param kind a ::tokenring_change_kind
 * @param sample_keys packed key bytes (may be NULL when every key is empty)
 * @param sample_offsets @p sample_count + 1 non-decreasing offsets into @p sample_keys,
 *        as tokenring_tokens() takes them (may be NULL when @p sample_count is 0)
 * @param sample_count number of sample keys
 * @param[out] err optional detail
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL pointer, decreasing offsets, unknown
 *         kind, topologies of different partitioners); #TOKENRING_E_EMPTY;
 *         #TOKENRING_E_NOTFOUND; #TOKENRING_E_NOMEM (as tokenring_movement_compare())
 * @since 1.2
 */
TOKENRING_API int tokenring_movement_compare_keys(tokenring_movement **out,
                                                  const tokenring_topology *before,
                                                  const tokenring_topology *after,
                                                  const tokenring_replication *replication,
                                                  int kind, const uint8_t *sample_keys,
                                                  const uint64_t *sample_offsets,
                                                  size_t sample_count, tokenring_error *err);

/**
 * Simulates a node with RandomPartitioner tokens joining, as tokenring_movement_join()
 * does, and compares as tokenring_movement_compare_keys() with #TOKENRING_CHANGE_JOIN.
 * @p topology is not modified.
 * @param[out] out receives the result
 * @param topology the cluster before the join (a RandomPartitioner topology)
 * @param replication the replication
 * @param name the new node's name (must not exist)
 * @param datacenter its datacenter
 * @param rack its rack
 * @param tokens its tokens, 0 .. 2^127
 * @param token_count number of tokens (at least 1)
 * @param sample_keys as tokenring_movement_compare_keys()
 * @param sample_offsets as tokenring_movement_compare_keys()
 * @param sample_count as tokenring_movement_compare_keys()
 * @param[out] err optional detail
 * @return as tokenring_movement_compare_keys(), plus the errors of
 *         tokenring_topology_add_node128() (#TOKENRING_E_EXISTS for a known name or a
 *         taken token, #TOKENRING_E_RANGE for -1 or a token above 2^127,
 *         #TOKENRING_E_UNSUPPORTED for a topology of another partitioner)
 * @since 1.2
 */
TOKENRING_API int tokenring_movement_join128(tokenring_movement **out,
                                             const tokenring_topology *topology,
                                             const tokenring_replication *replication,
                                             const char *name, const char *datacenter,
                                             const char *rack, const tokenring_token128 *tokens,
                                             size_t token_count, const uint8_t *sample_keys,
                                             const uint64_t *sample_offsets,
                                             size_t sample_count, tokenring_error *err);

/**
 * Simulates a node with ByteOrderedPartitioner tokens joining, as
 * tokenring_movement_join128() does with 128-bit tokens. @p topology is not modified.
 * @param[out] out receives the result
 * @param topology the cluster before the join (a ByteOrderedPartitioner topology)
 * @param replication the replication
 * @param name the new node's name (must not exist)
 * @param datacenter its datacenter
 * @param rack its rack
 * @param tokens @p token_count tokens (byte strings; the empty token allowed)
 * @param token_lens their lengths (at most #TOKENRING_BYTE_TOKEN_MAX each)
 * @param token_count number of tokens (at least 1)
 * @param sample_keys as tokenring_movement_compare_keys()
 * @param sample_offsets as tokenring_movement_compare_keys()
 * @param sample_count as tokenring_movement_compare_keys()
 * @param[out] err optional detail
 * @return as tokenring_movement_compare_keys(), plus the errors of
 *         tokenring_topology_add_node_bytes() (#TOKENRING_E_EXISTS,
 *         #TOKENRING_E_RANGE, #TOKENRING_E_UNSUPPORTED for a topology of another
 *         partitioner)
 * @since 1.2
 */
TOKENRING_API int tokenring_movement_join_bytes(
    tokenring_movement **out, const tokenring_topology *topology,
    const tokenring_replication *replication, const char *name, const char *datacenter,
    const char *rack, const uint8_t *const *tokens, const size_t *token_lens,
    size_t token_count, const uint8_t *sample_keys, const uint64_t *sample_offsets,
    size_t sample_count, tokenring_error *err);

/**
 * Simulates a node of a RandomPartitioner topology moving to new tokens, with
 * #TOKENRING_CHANGE_MOVE (as tokenring_movement_move()). @p topology is not modified.
 * @param[out] out receives the result
 * @param topology the cluster before (a RandomPartitioner topology)
 * @param replication the replication
 * @param name the moving node
 * @param tokens its new tokens, 0 .. 2^127
 * @param token_count number of new tokens (at least 1)
 * @param sample_keys as tokenring_movement_compare_keys()
 * @param sample_offsets as tokenring_movement_compare_keys()
 * @param sample_count as tokenring_movement_compare_keys()
 * @param[out] err optional detail
 * @return as tokenring_movement_compare_keys(); #TOKENRING_E_NOTFOUND for an unknown
 *         node; the errors of tokenring_topology_set_tokens128()
 * @since 1.2
 */
TOKENRING_API int tokenring_movement_move128(tokenring_movement **out,
                                             const tokenring_topology *topology,
                                             const tokenring_replication *replication,
                                             const char *name, const tokenring_token128 *tokens,
                                             size_t token_count, const uint8_t *sample_keys,
                                             const uint64_t *sample_offsets,
                                             size_t sample_count, tokenring_error *err);

/**
 * Simulates a node of a ByteOrderedPartitioner topology moving to new tokens, with
 * #TOKENRING_CHANGE_MOVE. @p topology is not modified.
 * @param[out] out receives the result
 * @param topology the cluster before (a ByteOrderedPartitioner topology)
 * @param replication the replication
 * @param name the moving node
 * @param tokens its new tokens (byte strings)
 * @param token_lens their lengths
 * @param token_count number of new tokens (at least 1)
 * @param sample_keys as tokenring_movement_compare_keys()
 * @param sample_offsets as tokenring_movement_compare_keys()
 * @param sample_count as tokenring_movement_compare_keys()
 * @param[out] err optional detail
 * @return as tokenring_movement_compare_keys(); #TOKENRING_E_NOTFOUND for an unknown
 *         node; the errors of tokenring_topology_set_tokens_bytes()
 * @since 1.2
 */
TOKENRING_API int tokenring_movement_move_bytes(tokenring_movement **out,
                                                const tokenring_topology *topology,
                                                const tokenring_replication *replication,
                                                const char *name, const uint8_t *const *tokens,
                                                const size_t *token_lens, size_t token_count,
                                                const uint8_t *sample_keys,
                                                const uint64_t *sample_offsets,
                                                size_t sample_count, tokenring_error *err);

/**
 * tokenring_movement_decommission() with sample keys, on topologies of every partitioner
 * (see tokenring_movement_compare_keys()).
 * @param[out] out receives the result
 * @param topology the cluster before
 * @param replication the replication
 * @param name the leaving node
 * @param sample_keys as tokenring_movement_compare_keys()
 * @param sample_offsets as tokenring_movement_compare_keys()
 * @param sample_count as tokenring_movement_compare_keys()
 * @param[out] err optional detail
 * @return as tokenring_movement_compare_keys(); #TOKENRING_E_NOTFOUND for an unknown
 *         node; #TOKENRING_E_EMPTY when it is the last node
 * @since 1.2
 */
TOKENRING_API int tokenring_movement_decommission_keys(tokenring_movement **out,
                                                       const tokenring_topology *topology,
                                                       const tokenring_replication *replication,
                                                       const char *name,
                                                       const uint8_t *sample_keys,
                                                       const uint64_t *sample_offsets,
                                                       size_t sample_count, tokenring_error *err);

/**
 * tokenring_movement_replace() with sample keys, on topologies of every partitioner (see
 * tokenring_movement_compare_keys()).
 * @param[out] out receives the result
 * @param topology the cluster before
 * @param replication the replication
 * @param old_name the replaced node
 * @param new_name the replacement (must not exist)
 * @param sample_keys as tokenring_movement_compare_keys()
 * @param sample_offsets as tokenring_movement_compare_keys()
 * @param sample_count as tokenring_movement_compare_keys()
 * @param[out] err optional detail
 * @return as tokenring_movement_compare_keys(); #TOKENRING_E_NOTFOUND,
 *         #TOKENRING_E_EXISTS
 * @since 1.2
 */
TOKENRING_API int tokenring_movement_replace_keys(tokenring_movement **out,
                                                  const tokenring_topology *topology,
                                                  const tokenring_replication *replication,
                                                  const char *old_name, const char *new_name,
                                                  const uint8_t *sample_keys,
                                                  const uint64_t *sample_offsets,
                                                  size_t sample_count, tokenring_error *err);

/**
 * The partitioner of the topologies a movement result compares: it says how to read the
 * bounds of its ranges (the @c int64_t fields for Murmur3,
 * tokenring_movement_range_bounds128() or tokenring_movement_range_bounds_bytes()
 * otherwise) and what its widths count.
 * @param movement the result (NULL gives #TOKENRING_PARTITIONER_MURMUR3)
 * @return its ::tokenring_partitioner
 * @since 1.2
 */
TOKENRING_API tokenring_partitioner tokenring_movement_partitioner(
    const tokenring_movement *movement);

/**
 * The bounds (start, end] of changed range @p index of a RandomPartitioner result (the
 * range tokenring_movement_get_range() reads at the same index).
 * @param[out] start_out receives the exclusive lower bound (may be NULL)
 * @param[out] end_out receives the inclusive upper bound (may be NULL)
 * @param movement the result
 * @param index the range, 0 .. summary.range_count - 1
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL @p movement, both outputs NULL);
 *         #TOKENRING_E_UNSUPPORTED (a result of another partitioner);
 *         #TOKENRING_E_RANGE
 * @since 1.2
 */
TOKENRING_API int tokenring_movement_range_bounds128(tokenring_token128 *start_out,
                                                     tokenring_token128 *end_out,
                                                     const tokenring_movement *movement,
                                                     size_t index);

/**
 * The bounds (start, end] of changed range @p index of a ByteOrderedPartitioner result,
 * as byte strings owned by the result.
 * @param[out] start_out receives a pointer to the lower bound's bytes (valid while the
 *             result lives)
 * @param[out] start_len_out receives its length
 * @param[out] end_out receives a pointer to the upper bound's bytes
 * @param[out] end_len_out receives its length
 * @param movement the result
 * @param index the range, 0 .. summary.range_count - 1
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (a NULL argument);
 *         #TOKENRING_E_UNSUPPORTED (a result of another partitioner);
 *         #TOKENRING_E_RANGE
 * @since 1.2
 */
TOKENRING_API int tokenring_movement_range_bounds_bytes(const uint8_t **start_out,
                                                        size_t *start_len_out,
                                                        const uint8_t **end_out,
                                                        size_t *end_len_out,
                                                        const tokenring_movement *movement,
                                                        size_t index);

/**
 * The RandomPartitioner token of sample @p index (tokenring_random_token() of the key;
 * -1 for the empty key).
 * @param[out] out receives the token
 * @param movement the result
 * @param index the sample, 0 .. summary.sample_count - 1
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL; #TOKENRING_E_UNSUPPORTED (a result of
 *         another partitioner); #TOKENRING_E_RANGE
 * @since 1.2
 */
TOKENRING_API int tokenring_movement_sample_token128(tokenring_token128 *out,
                                                     const tokenring_movement *movement,
                                                     size_t index);

/**
 * The ByteOrderedPartitioner token of sample @p index (the key's bytes, copied).
 * @param[out] out receives a pointer to its bytes, valid while the result lives
 * @param[out] len_out receives its length
 * @param movement the result
 * @param index the sample, 0 .. summary.sample_count - 1
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL; #TOKENRING_E_UNSUPPORTED (a result of
 *         another partitioner); #TOKENRING_E_RANGE
 * @since 1.2
 */
TOKENRING_API int tokenring_movement_sample_token_bytes(const uint8_t **out, size_t *len_out,
                                                        const tokenring_movement *movement,
                                                        size_t index);

/* -------------------------------------------------------------- availability */

/** Consistency levels for availability analyses. Values are ABI. @since 1.0 */
typedef enum tokenring_consistency {
    TOKENRING_CL_ONE = 1,          /**< One live replica. */
    TOKENRING_CL_TWO = 2,          /**< Two live replicas. */
    TOKENRING_CL_THREE = 3,        /**< Three live replicas. */
    TOKENRING_CL_QUORUM = 4,       /**< (sum of all datacenters' rf) / 2 + 1 live
                                        replicas, counted across datacenters. */
    TOKENRING_CL_ALL = 5,          /**< Every configured replica (sum of rf) live. */
    TOKENRING_CL_LOCAL_ONE = 6,    /**< One live replica in the local datacenter. */
    TOKENRING_CL_LOCAL_QUORUM = 7, /**< rf(local) / 2 + 1 live replicas in the local
                                        datacenter. */
    TOKENRING_CL_EACH_QUORUM = 8   /**< rf(dc) / 2 + 1 live replicas in every
                                        datacenter with rf > 0. */
} tokenring_consistency;

/** Largest number of failed nodes an availability analysis enumerates. @since 1.0 */
#define TOKENRING_AVAILABILITY_MAX_K 3u

/** Result of an availability analysis (immutable; free with
 *  tokenring_availability_free()). @since 1.0 */
typedef struct tokenring_availability tokenring_availability;

/**
 * Finds every set of exactly @p k failed nodes (k distinct ring nodes) that leaves at
 * least one range unable to reach consistency level @p consistency, and for each such
 * set the exact width of the token space it makes unavailable.
 *
 * Rules. The required counts come from the configured factors, as Cassandra's
 * ConsistencyLevel.blockFor does: QUORUM = (sum of rf) / 2 + 1, ALL = sum of rf,
 * LOCAL_QUORUM = rf(local) / 2 + 1, EACH_QUORUM needs rf(dc) / 2 + 1 in every datacenter
 * of the replication with rf > 0. Transient replicas count as replicas. A range fails
 * when its replicas that are not in the failed set are fewer than required (for the
 * LOCAL levels: its local replicas; for EACH_QUORUM: in some datacenter). When some
 * range cannot reach the level even with every node up (e.g. THREE with rf 2, or a
 * datacenter with fewer nodes than its rf at ALL), the call fails with
 * #TOKENRING_E_IMPOSSIBLE instead of listing every set.
 *
 * Method. The placement's distinct replica sets are the only inputs that matter: for each
 * set and each subset of it of at most @p k nodes the widths are accumulated (a hash map
 * keyed by the node combination); a candidate failure set is formed from each failing
 * subset completed by any other nodes, and its unavailable width is the sum, over the
 * replica sets it breaks, of their widths (computed by inclusion-exclusion over its 2^k
 * subsets). Exact, and fast when breaking needs several failures in one set (QUORUM): about
 * O(sets * 2^rf + results * 2^k).
 *
 * Partitioners. Which sets fail depends only on the ring's order, so every partitioner
 * is analysed. Widths are in the ring's
 * own units: token values over 2^64 (Murmur3), over 2^127 as
 * RandomPartitioner.describeOwnership counts them (tokenring_range128::width), and, on a
 * ByteOrderedPartitioner ring, whose tokens have no width, one per range (a width is a
 * range count there). Fractions divide by the whole ring in those units: 2^64, 2^127 or
 * the ring's range count.
 *
 * Thread-safe (reads immutable objects).
 * @param[out] out receives the result; free with tokenring_availability_free()
 * @param ring the ring
 * @param replication the replication (a placement is built internally)
 * @param consistency a ::tokenring_consistency
 * @param local_dc the local datacenter for LOCAL_ONE and LOCAL_QUORUM (NULL otherwise)
 * @param k number of failed nodes, 1 .. #TOKENRING_AVAILABILITY_MAX_K and at most the
 *        ring's node count
 * @param[out] err optional detail
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL pointer, unknown level, LOCAL level
 *         without @p local_dc); #TOKENRING_E_RANGE (@p k out of range);
 *         #TOKENRING_E_NOTFOUND (@p local_dc or a datacenter of the replication has no
 *         node); #TOKENRING_E_IMPOSSIBLE (the level is unreachable with no failure);
 *         #TOKENRING_E_NOMEM; #TOKENRING_E_BUDGET (since 1.2: the estimate, every subset
 *         of at most k replicas of every range plus every completion of a failing subset,
 *         is above #TOKENRING_BUDGET_DEFAULT; nothing was done;
 *         tokenring_availability_build_limited() raises it)
 * @since 1.0
 */
TOKENRING_API int tokenring_availability_build(tokenring_availability **out,
                                               const tokenring_ring *ring,
                                               const tokenring_replication *replication,
                                               int consistency, const char *local_dc,
                                               uint32_t k, tokenring_error *err);

/**
 * tokenring_availability_build() reporting its progress to @p progress (see
 * ::tokenring_progress_fn): one unit per distinct replica set of the placement, then one
 * per candidate failure set (their number grows during the first pass). When the callback
 * returns non-zero the call stops at once (at that report), frees what it built,
 * leaves @p *out as it was and returns #TOKENRING_E_CANCELLED.
 * @param[out] out as tokenring_availability_build()
 * @param ring as tokenring_availability_build()
 * @param replication as tokenring_availability_build()
 * @param consistency as tokenring_availability_build()
 * @param local_dc as tokenring_availability_build()
 * @param k as tokenring_availability_build()
 * @param progress the callback, or NULL (then exactly tokenring_availability_build())
 * @param user passed to @p progress
 * @param[out] err optional detail
 * @return as tokenring_availability_build(), or #TOKENRING_E_CANCELLED
 * @since 1.2
 */
TOKENRING_API int tokenring_availability_build_progress(
    tokenring_availability **out, const tokenring_ring *ring,
    const tokenring_replication *replication, int consistency, const char *local_dc,
    uint32_t k, tokenring_progress_fn progress, void *user, tokenring_error *err);

/**
 * tokenring_availability_build() under @p limits (see ::tokenring_limits): a budget,
 * progress, and the nodes already down.
 *
 * Nodes already down (@c limits->failed_nodes, e.g. the DN nodes of `nodetool status`)
 * count as failed before any of the @p k, as in
 * tokenring_availability_summary_build_limited(): the list answers "which k more
 * failures make more token space unavailable?". The sets are made of nodes that are up
 * (@p k at most their number); a set is listed when it makes some range unavailable that
 * is not unavailable already, and its width is the width it adds (the ranges the down
 * nodes break already are left out; tokenring_availability_summary_down() gives their
 * width). The node indices are the ring's. The level must still be reachable with every
 * node up (#TOKENRING_E_IMPOSSIBLE otherwise).
 *
 * The estimate (@c limits->estimate, work units) is the cost model of
 * tokenring_availability_build() over the nodes that are up: placement setup, every
 * subset of at most k replicas of every range, and every completion of a failing subset
 * by other nodes that are up (doc/performance.md). Progress is reported as
 * tokenring_availability_build_progress() reports it.
 *
 * @param[out] out as tokenring_availability_build()
 * @param ring as tokenring_availability_build()
 * @param replication as tokenring_availability_build()
 * @param consistency as tokenring_availability_build()
 * @param local_dc as tokenring_availability_build()
 * @param k number of additional failed nodes, 1 .. #TOKENRING_AVAILABILITY_MAX_K and at
 *        most the number of nodes not down
 * @param[in,out] limits budget, progress, nodes already down; receives the estimate
 *        (NULL: the defaults)
 * @param[out] err optional detail
 * @return as tokenring_availability_build(); #TOKENRING_E_BUDGET (the estimate is above
 *         the budget; nothing was done); #TOKENRING_E_CANCELLED (the progress callback
 *         returned non-zero); #TOKENRING_E_RANGE also for a failed node index outside the
 *         ring; #TOKENRING_E_INVAL also for a failed node given twice, or
 *         @c failed_count without @c failed_nodes
 * @since 1.2
 */
TOKENRING_API int tokenring_availability_build_limited(
    tokenring_availability **out, const tokenring_ring *ring,
    const tokenring_replication *replication, int consistency, const char *local_dc,
    uint32_t k, tokenring_limits *limits, tokenring_error *err);

/**
 * Frees an availability result.
 * @param availability the result, or NULL (no-op)
 * @since 1.0
 */
TOKENRING_API void tokenring_availability_free(tokenring_availability *availability);

/**
 * Number of failure sets found.
 * @param availability the result (NULL gives 0)
 * @return the count
 * @since 1.0
 */
TOKENRING_API size_t tokenring_availability_count(const tokenring_availability *availability);

/**
 * Reads failure set @p index. Sets are sorted by their node indices (lexicographically,
 * each set ascending).
 * @param[out] nodes_out receives the k ring node indices, ascending (k entries)
 * @param[out] width_out receives the exact unavailable width (may be NULL)
 * @param[out] fraction_out receives the width / 2^64 (Murmur3; / 2^127 on a
 *             RandomPartitioner ring, / the range count on a ByteOrderedPartitioner ring:
 *             see tokenring_availability_build()) (may be NULL)
 * @param availability the result
 * @param index the set, 0 .. count - 1
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE
 * @since 1.0
 */
TOKENRING_API int tokenring_availability_get(uint32_t *nodes_out, tokenring_u128 *width_out,
                                             double *fraction_out,
                                             const tokenring_availability *availability,
                                             size_t index);

/* ----------------------------------------------------- availability summary */

/** What fails together in an availability summary. Values are ABI. @since 1.2 */
typedef enum tokenring_failure_unit {
    TOKENRING_FAIL_NODES = 0,      /**< Single nodes (units are ring node indices). */
    TOKENRING_FAIL_RACKS = 1,      /**< Every node of a (datacenter, rack) pair (units are
                                        the ring's rack indices,
                                        tokenring_node_info::rack_index). */
    TOKENRING_FAIL_DATACENTERS = 2 /**< Every node of a datacenter (units are the ring's
                                        datacenter indices). */
} tokenring_failure_unit;

/** Result of tokenring_availability_summary_build() (immutable; free with
 *  tokenring_availability_summary_free()). @since 1.2 */
typedef struct tokenring_availability_summary tokenring_availability_summary;

/**
 * Summarises the failures of exactly @p k units (nodes, racks or datacenters, see
 * ::tokenring_failure_unit) against consistency level @p consistency: how many of the
 * C(units, k) sets leave at least one range unable to reach the level, and the @p top_n
 * sets that make the most token space unavailable, with their exact widths.
 *
 * The rules are those of tokenring_availability_build() (configured factors, transient
 * replicas count, #TOKENRING_E_IMPOSSIBLE when a range cannot reach the level with every
 * node up). Failing a rack or a datacenter fails every node in it. Unlike
 * tokenring_availability_build() there is no fixed limit on @p k: the answer is exact for
 * every @p k, and the work grows with the number of unit sets of at most k - 1 units that
 * break nothing (counted ones are not visited) plus, when @p top_n > 0, the sets the
 * search for the worst ones cannot rule out; doc/performance.md gives the k that finish
 * within a minute on 1000 nodes x 256 tokens.
 *
 * The worst sets are ranked by unavailable width, largest first, and among equal widths
 * by their unit indices (ascending tuples, lexicographically); only sets that break
 * something are listed, so fewer than @p top_n may come back.
 *
 * Progress (see ::tokenring_progress_fn): one unit per distinct replica set of the
 * placement while they are read, then one per value of the first unit of the walk
 * (total = distinct sets + units; the walk's units are uneven, the earlier ones cost
 * more). A non-zero return cancels: the call frees what it built, leaves @p *out as it
 * was and returns #TOKENRING_E_CANCELLED.
 *
 * Every partitioner, with widths in the ring's own units as tokenring_availability_build()
 * says.
 *
 * @param[out] out receives the summary; free with tokenring_availability_summary_free()
 * @param ring the ring
 * @param replication the keyspace's replication
 * @param consistency a ::tokenring_consistency
 * @param local_dc the local datacenter for the LOCAL levels (ignored otherwise)
 * @param unit a ::tokenring_failure_unit
 * @param k number of failed units, 1 .. the ring's number of such units, with C(units, k)
 *        below 2^128
 * @param top_n how many worst sets to keep (0: count only, then the worst width is 0);
 *        at most 2^24
 * @param progress progress callback, or NULL
 * @param user passed to @p progress
 * @param[out] err optional detail
 * The default budget applies (::tokenring_limits): past it the call refuses with
 * #TOKENRING_E_BUDGET; tokenring_availability_summary_build_limited() raises it.
 *
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL argument, unknown level or unit, LOCAL
 *         level without @p local_dc); #TOKENRING_E_RANGE (@p k or @p top_n out of range);
 *         #TOKENRING_E_BUDGET;
 *         #TOKENRING_E_NOTFOUND (unknown local datacenter); #TOKENRING_E_IMPOSSIBLE;
 *         #TOKENRING_E_CANCELLED; #TOKENRING_E_NOMEM; a placement error
 * @since 1.2
 */
TOKENRING_API int tokenring_availability_summary_build(
    tokenring_availability_summary **out, const tokenring_ring *ring,
    const tokenring_replication *replication, int consistency, const char *local_dc,
    int unit, uint32_t k, size_t top_n, tokenring_progress_fn progress, void *user,
    tokenring_error *err);

/**
 * tokenring_availability_summary_build() under @p limits (see ::tokenring_limits): a
 * budget, progress, and the nodes already down.
 *
 * Nodes already down (@c limits->failed_nodes, e.g. the DN nodes of `nodetool status`)
 * count as failed before any of the @p k: the summary answers "what breaks if k more
 * fail?". They are not units themselves (with #TOKENRING_FAIL_NODES the units are the
 * other nodes, @p k at most their number, and the total is C(nodes up, k)); a rack or
 * datacenter failing fails its nodes that are still up. A k-set counts as breaking when
 * it makes some range unavailable that is not unavailable already, and its width is
 * the width it adds; what is unavailable already is read with
 * tokenring_availability_summary_down(). The worst sets give ring node indices (racks
 * and datacenters: their ring indices) as the summary without limits does.
 *
 * The estimate (@c limits->estimate, work units) bounds the walk from the ring's size:
 * placement setup, then 2 x (sets per node) x (1 + rf for single nodes) units per unit
 * change, for every unit set of at most k - 1 units (k for racks and datacenters), plus
 * C(units, k) for single nodes. It is an upper bound (sets that break already are
 * pruned), so a refused call may have finished sooner.
 *
 * @param[out] out as tokenring_availability_summary_build()
 * @param ring as tokenring_availability_summary_build()
 * @param replication as tokenring_availability_summary_build()
 * @param consistency as tokenring_availability_summary_build()
 * @param local_dc as tokenring_availability_summary_build()
 * @param unit as tokenring_availability_summary_build()
 * @param k number of additional failed units
 * @param top_n as tokenring_availability_summary_build()
 * @param[in,out] limits budget, progress, nodes already down; receives the estimate
 *        (NULL: the defaults)
 * @param[out] err optional detail
 * @return as tokenring_availability_summary_build(); #TOKENRING_E_BUDGET (the estimate
 *         is above the budget; nothing was done); #TOKENRING_E_RANGE also for a failed
 *         node index outside the ring; #TOKENRING_E_INVAL also for a failed node given
 *         twice, or @c failed_count without @c failed_nodes
 * @since 1.2
 */
TOKENRING_API int tokenring_availability_summary_build_limited(
    tokenring_availability_summary **out, const tokenring_ring *ring,
    const tokenring_replication *replication, int consistency, const char *local_dc,
    int unit, uint32_t k, size_t top_n, tokenring_limits *limits, tokenring_error *err);

/**
 * What is unavailable already with the nodes that were down when the summary was built
 * (::tokenring_limits::failed_nodes of tokenring_availability_summary_build_limited();
 * 0 without them): the width of the ranges that cannot reach the level.
 * @param[out] width_out receives the exact width (may be NULL)
 * @param[out] fraction_out receives it as a fraction of the ring (may be NULL)
 * @param summary the summary
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL (NULL @p summary)
 * @since 1.2
 */
TOKENRING_API int tokenring_availability_summary_down(
    tokenring_u128 *width_out, double *fraction_out,
    const tokenring_availability_summary *summary);

/**
 * Frees a summary.
 * @param summary the summary, or NULL (no-op)
 * @since 1.2
 */
TOKENRING_API void tokenring_availability_summary_free(tokenring_availability_summary *summary);

/**
 * The counts of a summary.
 * @param[out] breaking_out receives how many k-sets break the level (may be NULL)
 * @param[out] total_out receives C(units, k), the number of k-sets (may be NULL)
 * @param[out] worst_width_out receives the largest unavailable width of any k-set (0 when
 *             none breaks the level or the summary kept no worst sets) (may be NULL)
 * @param summary the summary
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL (NULL @p summary)
 * @since 1.2
 */
TOKENRING_API int tokenring_availability_summary_counts(
    tokenring_u128 *breaking_out, tokenring_u128 *total_out, tokenring_u128 *worst_width_out,
    const tokenring_availability_summary *summary);

/**
 * The number of units in each set of a summary.
 * @param summary the summary (NULL gives 0)
 * @return k
 * @since 1.2
 */
TOKENRING_API uint32_t tokenring_availability_summary_k(
    const tokenring_availability_summary *summary);

/**
 * The number of worst sets kept (at most the @p top_n asked for).
 * @param summary the summary (NULL gives 0)
 * @return the count
 * @since 1.2
 */
TOKENRING_API size_t tokenring_availability_summary_top_count(
    const tokenring_availability_summary *summary);

/**
 * One of the worst sets, worst first.
 * @param[out] units_out receives k unit indices, ascending
 * @param[out] width_out receives the exact unavailable width (may be NULL)
 * @param[out] fraction_out receives width / 2^64, or / 2^127 or / the range count as
 *             tokenring_availability_get() says (may be NULL)
 * @param summary the summary
 * @param index 0 .. tokenring_availability_summary_top_count() - 1
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL (NULL argument), #TOKENRING_E_RANGE
 * @since 1.2
 */
TOKENRING_API int tokenring_availability_summary_top(
    uint32_t *units_out, tokenring_u128 *width_out, double *fraction_out,
    const tokenring_availability_summary *summary, size_t index);

/* ----------------------------------------------------------------- migration */

/** Result of a num_tokens migration plan (immutable; free with
 *  tokenring_migration_free()). @since 1.0 */
typedef struct tokenring_migration tokenring_migration;

/**
 * Plans changing num_tokens by building a new datacenter and moving to it (the only safe
 * way: a node's tokens cannot change in place). The new datacenter's nodes get tokens
 * for @p num_tokens each: the first node of rack @c i (racks numbered 0, 1, ... in order
 * of first appearance in @p racks) gets tokenring_layout_even_tokens(num_tokens, i,
 * number of racks), stepped up by one value where another datacenter already holds the
 * token; the other nodes come from the allocator (tokenring_allocate_nodes(), batch mode,
 * with the first nodes fixed), balanced for @p rf (or, with @p rf 0, the largest factor
 * a keyspace takes in the new datacenter).
 *
 * The steps are text lines naming the real keyspaces, datacenters and nodes, each a
 * command Cassandra accepts or an instruction ('#' lines are comments): pin the clients
 * to the old datacenter (DC-aware load balancing, LOCAL_* consistency levels); make each
 * SimpleStrategy keyspace NetworkTopologyStrategy with its factor in the old datacenter
 * before the new nodes start (else they would become its replicas at once, without data;
 * a repair follows where the old datacenter has several racks); configure and start the
 * new nodes without bootstrap; add the new datacenter to each keyspace that has replicas
 * in the old one; rebuild each new node from the old datacenter; repair those keyspaces
 * (`nodetool repair -full`); switch the clients; remove the old datacenter from those
 * keyspaces; decommission the old nodes. Every datacenter but the old one keeps its
 * replicas exactly as they are, and a keyspace without replicas in the old datacenter
 * is left alone. Since 1.2: a SimpleStrategy keyspace in a cluster of several
 * datacenters is refused (#TOKENRING_E_UNSUPPORTED, naming it): SimpleStrategy places
 * replicas ring-wide, with no factor per datacenter to keep; and @p rf 0 keeps each
 * keyspace's factor.
 *
 * Thread-safe as a reader of its inputs.
 * @param[out] out receives the plan
 * @param topology the current cluster (not modified)
 * @param old_datacenter the datacenter being replaced (must exist)
 * @param new_datacenter the new datacenter's name (must not exist)
 * @param node_names @p node_count names for the new nodes (none may exist)
 * @param racks @p node_count rack names, in join order
 * @param node_count number of new nodes (at least the new datacenter's factors)
 * @param num_tokens the target num_tokens
 * @param rf the replication factor every keyspace with replicas in the old datacenter
 *        gets in the new one (the plan's first lines say so, with the factors it
 *        replaces); 0 (since 1.2): each keyspace keeps its factor of the old datacenter
 *        (transient replicas included)
 * @param keyspaces @p keyspace_count keyspace names
 * @param replications @p keyspace_count current replications of those keyspaces
 * @param keyspace_count number of keyspaces (may be 0 when @p rf is not 0; then the plan
 *        alters nothing and the rebuild streams nothing)
 * @param[out] err optional detail
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL; #TOKENRING_E_NOTFOUND (old datacenter);
 *         #TOKENRING_E_EXISTS (new datacenter or a node name exists); #TOKENRING_E_RANGE
 *         (since 1.2 also num_tokens above #TOKENRING_MAX_NUM_TOKENS, and @p rf 0
 *         without keyspaces); #TOKENRING_E_BUDGET (since 1.2, see
 *         tokenring_migration_plan_limited()); #TOKENRING_E_IMPOSSIBLE (fewer nodes than a
 *         factor of the new datacenter); #TOKENRING_E_UNSUPPORTED (a SimpleStrategy
 *         keyspace in a cluster of several datacenters, or transient replicas kept with
 *         @p num_tokens above 1, which Cassandra refuses; since 1.2);
 *         #TOKENRING_E_EMPTY (@p rf 0 and no keyspace has a replica in the old
 *         datacenter, since 1.2); #TOKENRING_E_NOMEM
 * @since 1.0
 */
TOKENRING_API int tokenring_migration_plan(tokenring_migration **out,
                                           const tokenring_topology *topology,
                                           const char *old_datacenter,
                                           const char *new_datacenter,
                                           const char *const *node_names,
                                           const char *const *racks, size_t node_count,
                                           uint32_t num_tokens, int32_t rf,
                                           const char *const *keyspaces,
                                           const tokenring_replication *const *replications,
                                           size_t keyspace_count, tokenring_error *err);

/**
 * tokenring_migration_plan() reporting its progress to @p progress (see
 * ::tokenring_progress_fn): the units are those of tokenring_allocate_nodes_progress()
 * for the new nodes the allocator places. When the callback returns non-zero the call
 * stops, leaves @p *out as it was and returns #TOKENRING_E_CANCELLED.
 * @param[out] out as tokenring_migration_plan()
 * @param topology as tokenring_migration_plan()
 * @param old_datacenter as tokenring_migration_plan()
 * @param new_datacenter as tokenring_migration_plan()
 * @param node_names as tokenring_migration_plan()
 * @param racks as tokenring_migration_plan()
 * @param node_count as tokenring_migration_plan()
 * @param num_tokens as tokenring_migration_plan()
 * @param rf as tokenring_migration_plan()
 * @param keyspaces as tokenring_migration_plan()
 * @param replications as tokenring_migration_plan()
 * @param keyspace_count as tokenring_migration_plan()
 * @param progress the callback, or NULL (then exactly tokenring_migration_plan())
 * @param user passed to @p progress
 * @param[out] err optional detail
 * @return as tokenring_migration_plan(), or #TOKENRING_E_CANCELLED
 * @since 1.2
 */
TOKENRING_API int tokenring_migration_plan_progress(
    tokenring_migration **out, const tokenring_topology *topology, const char *old_datacenter,
    const char *new_datacenter, const char *const *node_names, const char *const *racks,
    size_t node_count, uint32_t num_tokens, int32_t rf, const char *const *keyspaces,
    const tokenring_replication *const *replications, size_t keyspace_count,
    tokenring_progress_fn progress, void *user, tokenring_error *err);

/**
 * tokenring_migration_plan() under @p limits (see ::tokenring_limits): a budget,
 * progress (as tokenring_migration_plan_progress()) and the num_tokens cap
 * (@c limits->max_num_tokens, default #TOKENRING_MAX_NUM_TOKENS, which the calls without
 * limits apply). The estimate is the allocator's (tokenring_allocate_nodes_limited())
 * for @p node_count nodes joining the new datacenter.
 * @param[out] out as tokenring_migration_plan()
 * @param topology as tokenring_migration_plan()
 * @param old_datacenter as tokenring_migration_plan()
 * @param new_datacenter as tokenring_migration_plan()
 * @param node_names as tokenring_migration_plan()
 * @param racks as tokenring_migration_plan()
 * @param node_count as tokenring_migration_plan()
 * @param num_tokens as tokenring_migration_plan() (1 .. the cap above)
 * @param rf as tokenring_migration_plan()
 * @param keyspaces as tokenring_migration_plan()
 * @param replications as tokenring_migration_plan()
 * @param keyspace_count as tokenring_migration_plan()
 * @param[in,out] limits budget, progress, num_tokens cap; receives the estimate (NULL:
 *        the defaults)
 * @param[out] err optional detail
 * @return as tokenring_migration_plan(); #TOKENRING_E_BUDGET; #TOKENRING_E_CANCELLED
 * @since 1.2
 */
TOKENRING_API int tokenring_migration_plan_limited(
    tokenring_migration **out, const tokenring_topology *topology, const char *old_datacenter,
    const char *new_datacenter, const char *const *node_names, const char *const *racks,
    size_t node_count, uint32_t num_tokens, int32_t rf, const char *const *keyspaces,
    const tokenring_replication *const *replications, size_t keyspace_count,
    tokenring_limits *limits, tokenring_error *err);

/**
 * Frees a plan.
 * @param migration the plan, or NULL (no-op)
 * @since 1.0
 */
TOKENRING_API void tokenring_migration_free(tokenring_migration *migration);

/**
 * Number of new nodes in the plan.
 * @param migration the plan (NULL gives 0)
 * @return the count
 * @since 1.0
 */
TOKENRING_API size_t tokenring_migration_node_count(const tokenring_migration *migration);

/**
 * Reads new node @p index.
 * @param[out] name_out receives its name (valid while the plan lives; may be NULL)
 * @param[out] rack_out receives its rack (may be NULL)
 * @param[out] tokens_out receives a pointer to its tokens, ascending (may be NULL)
 * @param[out] token_count_out receives the number of tokens (may be NULL)
 * @param migration the plan
 * @param index the node, in join order
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE
 * @since 1.0
 */
TOKENRING_API int tokenring_migration_node(const char **name_out, const char **rack_out,
                                           const int64_t **tokens_out,
                                           size_t *token_count_out,
                                           const tokenring_migration *migration, size_t index);

/**
 * Number of steps.
 * @param migration the plan (NULL gives 0)
 * @return the count
 * @since 1.0
 */
TOKENRING_API size_t tokenring_migration_step_count(const tokenring_migration *migration);

/**
 * Step @p index as one NUL-terminated line of text (a command or an instruction).
 * @param migration the plan
 * @param index the step
 * @return the text, valid while the plan lives, or NULL for a bad argument
 * @since 1.0
 */
TOKENRING_API const char *tokenring_migration_step(const tokenring_migration *migration,
                                                   size_t index);

#ifdef __cplusplus
}
#endif

#endif /* TOKENRING_ANALYSIS_H */
