/* SPDX-License-Identifier: Apache-2.0 */
/* Inputs shared by the allocation-failure tests of the analyses and layouts (with
 * oom.c): sample tokens, the replication of a text, dumps of the topology with the
 * replication, the sample topology in another partitioner, and a larger datacenter. */
#ifndef TESTS_OOM_INPUTS_H
#define TESTS_OOM_INPUTS_H

#include "tokenring/tokenring.h"
#include "oom.h"

/* INT64_MIN, -1, 0, 1, 4242, 9000, INT64_MAX */
#define OOM_NSAMPLES 7
extern const int64_t OOM_SAMPLES[OOM_NSAMPLES];

/* The replication of a text (parsed, asserted). */
tokenring_replication *oom_replication(const char *text);
/* The topology and the replication of an oom_ctx, printed. */
char *oom_dump_all(void *ctx);
/* Builds ctx->ring and ctx->placement from ctx->topology and ctx->replication. */
void oom_ring_and_placement(oom_ctx *ctx);
/* One datacenter of 24 nodes x 16 tokens in 3 racks (10.7.0.1 ..). */
tokenring_topology *oom_large_topology(void);
/* The sample topology in partitioner p (see oom_inputs.c). */
tokenring_topology *oom_partitioned_topology(tokenring_partitioner p);
/* The topology (tokens through the partitioner's getters) and the replication, printed. */
char *oom_dump_partitioned(void *ctx);

#endif
