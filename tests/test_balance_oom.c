/* SPDX-License-Identifier: Apache-2.0 */
/* Allocation failures in tokenring_balance_compute() (balance.h): the whole ring, one
 * datacenter and one rack, under SimpleStrategy and NetworkTopologyStrategy, and (with
 * the tokens kept between two rings) on RandomPartitioner and ByteOrderedPartitioner
 * topologies. Each failure must give TOKENRING_E_NOMEM, leak nothing, and leave the
 * inputs exactly as they were. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"
#include "oom.h"
#include "oom_inputs.h"

static int op_balance(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    (void)made;
    tokenring_balance p, e;
    int rc = tokenring_balance_compute(&p, &e, ctx->ring, ctx->placement, NULL, NULL, NULL);
    if (rc == TOKENRING_OK)
        rc = tokenring_balance_compute(&p, &e, ctx->ring, ctx->placement, "dc1", NULL, NULL);
    if (rc == TOKENRING_OK)
        rc = tokenring_balance_compute(&p, &e, ctx->ring, ctx->placement, "dc2", "r1", NULL);
    return rc;
}

static int op_balance_kept_any(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    (void)made;
    tokenring_ring *r = NULL, *r2 = NULL;
    tokenring_placement *p = NULL;
    int rc = tokenring_ring_build(&r, ctx->topology, NULL);
    if (rc == TOKENRING_OK)
        rc = tokenring_placement_build(&p, r, ctx->replication, 0, NULL);
    tokenring_balance pb, eb;
    if (rc == TOKENRING_OK)
        rc = tokenring_balance_compute(&pb, &eb, r, p, "dc1", NULL, NULL);
    if (rc == TOKENRING_OK)
        rc = tokenring_ring_build(&r2, ctx->topology, NULL);
    size_t kept = 0, lost = 1, gained = 1;
    if (rc == TOKENRING_OK)
        rc = tokenring_ring_tokens_kept(&kept, &lost, &gained, r, r2);
    if (rc == TOKENRING_OK)
        assert_true(kept > 0 && lost == 0 && gained == 0);
    tokenring_placement_free(p);
    tokenring_ring_free(r);
    tokenring_ring_free(r2);
    return rc;
}

static void balance(void **state)
{
    (void)state;
    static const char *repls[] = { "3", "dc1=3,dc2=2/1" };
    for (size_t r = 0; r < 2; r++) {
        oom_ctx ctx = { .topology = oom_sample_topology(),
                        .replication = oom_replication(repls[r]) };
        oom_ring_and_placement(&ctx);
        oom_check("balance_compute", &ctx, op_balance, oom_dump_all);
        tokenring_placement_free(ctx.placement);
        tokenring_ring_free(ctx.ring);
        tokenring_replication_free(ctx.replication);
        tokenring_topology_free(ctx.topology);
    }
}

static void other_partitioners(void **state)
{
    (void)state;
    static const char *repls[] = { "2", "dc1=3,dc2=2/1" };
    for (int p = TOKENRING_PARTITIONER_RANDOM; p <= TOKENRING_PARTITIONER_BYTE_ORDERED; p++)
        for (size_t r = 0; r < 2; r++) {
            oom_ctx ctx = { .topology = oom_partitioned_topology((tokenring_partitioner)p),
                            .replication = oom_replication(repls[r]) };
            char what[120];
            snprintf(what, sizeof what, "balance/tokens_kept %s partitioner %d", repls[r], p);
            oom_check(what, &ctx, op_balance_kept_any, oom_dump_partitioned);
            tokenring_topology_free(ctx.topology);
            tokenring_replication_free(ctx.replication);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(balance, oom_setup, oom_teardown),
        cmocka_unit_test_setup_teardown(other_partitioners, oom_setup, oom_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
