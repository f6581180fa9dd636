/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file tokenring.h
 * @brief The whole public API of libtokenring: include this one header.
 *
 * libtokenring reproduces Apache Cassandra's token ring exactly: Murmur3Partitioner
 * tokens (hash.h), partition-key bytes (key.h), the handles of the ring core (types.h),
 * topologies (topology.h), rings (ring.h), replication descriptions (replication.h),
 * replica placement (placement.h), ownership (ownership.h), cluster documents and their
 * parsers (parse.h), token layouts (layout.h) and the allocators (allocate.h), analyses
 * (analysis.h: balance.h, movement.h with movement_result.h, availability.h,
 * migration.h) and routers (router.h). Everything the library exports is declared in the
 * headers this file includes, and nothing else is exported.
 */
#ifndef TOKENRING_TOKENRING_H
#define TOKENRING_TOKENRING_H

#include "tokenring/version.h"
#include "tokenring/common.h"
#include "tokenring/hash.h"
#include "tokenring/key.h"
#include "tokenring/types.h"
#include "tokenring/topology.h"
#include "tokenring/ring.h"
#include "tokenring/replication.h"
#include "tokenring/placement.h"
#include "tokenring/ownership.h"
#include "tokenring/parse.h"
#include "tokenring/layout.h"
#include "tokenring/allocate.h"
#include "tokenring/allocate_text.h"
#include "tokenring/analysis.h"
#include "tokenring/balance.h"
#include "tokenring/movement_result.h"
#include "tokenring/movement.h"
#include "tokenring/availability.h"
#include "tokenring/migration.h"
#include "tokenring/partitioner.h"
#include "tokenring/history.h"
#include "tokenring/router.h"

#endif /* TOKENRING_TOKENRING_H */
