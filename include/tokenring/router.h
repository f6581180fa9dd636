/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file router.h
 * @brief Routers: the routing state a driver or a proxy needs (nodes, partitioner, every
 *        keyspace's placement) as one immutable snapshot, built from the rows a driver
 *        reads, changed by cluster events, and published to reader threads without locks
 *        (lib/router/: router.c, router_build.c, router_event.c, router_holder.c).
 *
 * The routers in three headers of one concern each, which this file includes (a program
 * written against router.h before the split still compiles):
 * - router_snapshot.h: the immutable snapshot and its lookups (@ref router_snapshot);
 * - router_build.h: building a snapshot from a driver's rows or a cluster, the events that
 *   make the next one, and placements built elsewhere (@ref router_build,
 *   @ref router_events, @ref router_placement);
 * - router_holder.h: publishing it to reader threads without locks, and the
 *   memory-model argument (@ref router_holder).
 */
#ifndef TOKENRING_ROUTER_H
#define TOKENRING_ROUTER_H

#include "tokenring/common.h"
#include "tokenring/partitioner.h"
#include "tokenring/placement.h"
#include "tokenring/parse.h"
#include "tokenring/router_snapshot.h"
#include "tokenring/router_build.h"
#include "tokenring/router_holder.h"

#endif /* TOKENRING_ROUTER_H */
