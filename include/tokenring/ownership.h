/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file ownership.h
 * @brief Ownership: the exact share of the token space each node owns, as a primary and
 *        as a replica, with what nodetool prints next to it (lib/ring/ownership.c).
 */
#ifndef TOKENRING_OWNERSHIP_H
#define TOKENRING_OWNERSHIP_H

#include "tokenring/common.h"
#include "tokenring/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * One node's ownership. The exact widths decide; the doubles and floats are for display.
 * @since 1.0
 */
typedef struct tokenring_ownership {
    tokenring_u128 primary_width;   /**< Exact number of token values whose primary
                                         replica (range owner) is the node; sums to 2^64
                                         over the ring. */
    tokenring_u128 effective_width; /**< Exact number of token values the node holds a
                                         replica of (full or transient); 0 without a
                                         placement. */
    double primary;                 /**< primary_width / 2^64. */
    double effective;               /**< effective_width / 2^64. */
    float nodetool_primary;         /**< What `nodetool ring`/`status` print without a
                                         keyspace (describeOwnership's float
                                         arithmetic and wrap quirks, summed in float). */
    float nodetool_effective;       /**< What they print as Owns (effective); 0 without
                                         a placement. */
    uint32_t token_count;           /**< The node's tokens in the ring. */
    uint32_t reserved;              /**< Reserved, zero. */
} tokenring_ownership;

/**
 * Ownership of every node of a ring: primary from the ring alone, effective from the
 * placement when one is given (it must have been built from @p ring).
 * O(n + ranges * replicas).
 * @param[out] out array of at least tokenring_ring_node_count() entries, indexed by node
 * @param cap number of entries in @p out
 * @param ring the ring
 * @param placement a placement of @p ring, or NULL for primary ownership only
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL (NULL, or a placement of another ring),
 *         #TOKENRING_E_BUFSIZE
 * @since 1.0
 */
TOKENRING_API int tokenring_ring_ownership(tokenring_ownership *out, size_t cap,
                                           const tokenring_ring *ring,
                                           const tokenring_placement *placement);

/** tokenring_ring_ownership_flags(): the ring's partitioner has no token arithmetic
 *  (ByteOrderedPartitioner), so every width is 0 and @c primary / @c effective are 0.
 *  @since 1.2 */
#define TOKENRING_OWNERSHIP_NO_WIDTHS 1u
/** tokenring_ring_ownership_flags(): Cassandra's `describeOwnership` for this ring
 *  depends on the data (ByteOrderedPartitioner counts sampled keys per range); the
 *  nodetool floats given are its figure on a cluster without data (every token owns
 *  1/N, N the ring's tokens). @since 1.2 */
#define TOKENRING_OWNERSHIP_DATA_DEPENDENT 2u

/**
 * What tokenring_ring_ownership() can give for a ring's partitioner. For Murmur3 and
 * RandomPartitioner 0: exact widths (over 2^64 and 2^127, so @c primary and
 * @c effective are the width divided by 2^64 or 2^127) and Cassandra's own floats. For
 * ByteOrderedPartitioner #TOKENRING_OWNERSHIP_NO_WIDTHS | #TOKENRING_OWNERSHIP_DATA_DEPENDENT.
 * @param ring the ring (NULL gives 0)
 * @return a combination of the TOKENRING_OWNERSHIP_* flags
 * @since 1.2
 */
TOKENRING_API uint32_t tokenring_ring_ownership_flags(const tokenring_ring *ring);

#ifdef __cplusplus
}
#endif

#endif /* TOKENRING_OWNERSHIP_H */
