/* SPDX-License-Identifier: Apache-2.0 */
/* Allocation-failure driver shared by the OOM tests of every area. */
#ifndef TESTS_OOM_H
#define TESTS_OOM_H

#include "tokenring/tokenring.h"

typedef struct oom_ctx {
    tokenring_topology *topology;
    tokenring_ring *ring;
    tokenring_replication *replication;
    tokenring_placement *placement;
    void *extra;
} oom_ctx;

/* Runs the call once; stores anything it created in *made AND frees it itself on success
 * (the driver only checks that a failed call created nothing). */
typedef int (*oom_op)(void *ctx, void **made);
/* A printable snapshot of the inputs, compared before and after each failed run. */
typedef char *(*oom_dump)(void *ctx);

void oom_check(const char *what, void *ctx, oom_op op, oom_dump dump);
char *oom_dump_topology(void *ctx);
tokenring_topology *oom_sample_topology(void);
void oom_release(void *made);
int oom_setup(void **state);
int oom_teardown(void **state);
long oom_live_blocks(void);
/* Runs op once with no failure (it must succeed) and returns how many allocations it made. */
long oom_count_allocations(void *ctx, oom_op op);

#endif
