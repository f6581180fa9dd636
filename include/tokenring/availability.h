/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file availability.h
 * @brief Which failures of nodes, racks or datacenters make data unavailable at a
 *        consistency level (lib/analysis/availability.c).
 *
 * Part of the analyses (analysis.h, which includes this file): they never modify their
 * inputs, and every width is exact (see analysis.h for what widths count on each
 * partitioner).
 */
#ifndef TOKENRING_AVAILABILITY_H
#define TOKENRING_AVAILABILITY_H

#include "tokenring/common.h"
#include "tokenring/types.h"

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif

#endif /* TOKENRING_AVAILABILITY_H */
