/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file types.h
 * @brief The handles of the ring core (topology, ring, replication, placement) and the
 *        exact 128-bit width, declared once for every header that names them.
 *
 * Each header of the ring core includes this file instead of another's: topology.h,
 * ring.h, replication.h, placement.h and ownership.h name each other's handles only
 * through it, so none of them includes a header that includes it back. The handles are
 * opaque; their functions are in the header of their concern.
 */
#ifndef TOKENRING_TYPES_H
#define TOKENRING_TYPES_H

#include "tokenring/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Mutable set of nodes with their datacenter, rack, tokens and state (topology.h).
 *  @since 1.0 */
typedef struct tokenring_topology tokenring_topology;

/** Immutable, reference-counted snapshot of a topology's token ring (ring.h). @since 1.0 */
typedef struct tokenring_ring tokenring_ring;

/** A replication description (SimpleStrategy or NetworkTopologyStrategy; replication.h).
 *  @since 1.0 */
typedef struct tokenring_replication tokenring_replication;

/** Immutable, reference-counted replica map of one ring under one replication
 *  (placement.h). @since 1.0 */
typedef struct tokenring_placement tokenring_placement;

/** An unsigned 128-bit integer, for exact widths that can reach 2^64 or more.
 *  @since 1.0 */
typedef struct tokenring_u128 {
    uint64_t hi; /**< High 64 bits. */
    uint64_t lo; /**< Low 64 bits. */
} tokenring_u128;

#ifdef __cplusplus
}
#endif

#endif /* TOKENRING_TYPES_H */
