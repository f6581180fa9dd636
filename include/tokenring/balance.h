/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file balance.h
 * @brief Balance statistics of ownership over a ring, a datacenter or a rack
 *        (lib/analysis/balance.c).
 *
 * Part of the analyses (analysis.h, which includes this file): they never modify their
 * inputs, and every width is exact (see analysis.h for what widths count on each
 * partitioner).
 */
#ifndef TOKENRING_BALANCE_H
#define TOKENRING_BALANCE_H

#include "tokenring/common.h"
#include "tokenring/types.h"

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif

#endif /* TOKENRING_BALANCE_H */
