/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file tokenring.h
 * @brief The whole public API of libtokenring: include this one header.
 *
 * libtokenring reproduces Apache Cassandra's token ring exactly: Murmur3Partitioner
 * tokens (hash.h), partition-key bytes (key.h), topologies (topology.h), rings (ring.h),
 * replication descriptions (replication.h), replica placement (placement.h), ownership
 * (ownership.h), cluster documents and their parsers (parse.h), token layouts and the
 * allocator (layout.h), analyses (analysis.h) and routers (router.h). Everything the library exports is
 * declared in the headers this file includes, and nothing else is exported.
 */
#ifndef TOKENRING_TOKENRING_H
#define TOKENRING_TOKENRING_H

#include "tokenring/version.h"
#include "tokenring/common.h"
#include "tokenring/hash.h"
#include "tokenring/key.h"
#include "tokenring/topology.h"
#include "tokenring/ring.h"
#include "tokenring/replication.h"
#include "tokenring/placement.h"
#include "tokenring/ownership.h"
#include "tokenring/parse.h"
#include "tokenring/layout.h"
#include "tokenring/analysis.h"
#include "tokenring/partitioner.h"
#include "tokenring/history.h"
#include "tokenring/router.h"

#endif /* TOKENRING_TOKENRING_H */
