/* SPDX-License-Identifier: Apache-2.0 */
/* Allocation failures in tokenring_availability_build() and
 * tokenring_availability_build_limited() (availability.h, with a node down already):
 * every consistency level, k = 1..3, under SimpleStrategy and NetworkTopologyStrategy.
 * Each failure must give TOKENRING_E_NOMEM, leak nothing, produce nothing, and leave the
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

typedef struct {
    int cl;
    const char *local;
    uint32_t k;
} avail_args;

static int op_availability(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    const avail_args *a = ctx->extra;
    tokenring_availability *av = NULL;
    tokenring_error err;
    int rc = tokenring_availability_build(&av, ctx->ring, ctx->replication, a->cl, a->local,
                                          a->k, &err);
    *made = av;
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    tokenring_availability_free(av);
    return rc;
}

/* The same under limits with node 0 down already (tokenring_availability_build_limited). */
static int op_availability_down(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    const avail_args *a = ctx->extra;
    tokenring_availability *av = NULL;
    tokenring_error err;
    uint32_t down[] = { 0 };
    tokenring_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.failed_nodes = down;
    lim.failed_count = 1;
    int rc = tokenring_availability_build_limited(&av, ctx->ring, ctx->replication, a->cl,
                                                  a->local, a->k, &lim, &err);
    *made = av;
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    tokenring_availability_free(av);
    return rc;
}

static void availability(void **state)
{
    (void)state;
    static const char *repls[] = { "3", "dc1=3,dc2=2/1" };
    static const avail_args avs[] = {
        { TOKENRING_CL_QUORUM, NULL, 1 },
        { TOKENRING_CL_ONE, NULL, 2 },
        { TOKENRING_CL_LOCAL_QUORUM, "dc1", 3 },
        { TOKENRING_CL_EACH_QUORUM, NULL, 2 },
        { TOKENRING_CL_ALL, NULL, 1 },
    };
    for (size_t r = 0; r < 2; r++) {
        oom_ctx ctx = { .topology = oom_sample_topology(),
                        .replication = oom_replication(repls[r]) };
        oom_ring_and_placement(&ctx);
        for (size_t a = 0; a < sizeof avs / sizeof *avs; a++) {
            if (r == 0 && avs[a].local)
                continue;
            ctx.extra = (void *)&avs[a];
            char what[100];
            snprintf(what, sizeof what, "availability_build %s cl=%d k=%u", repls[r],
                     avs[a].cl, avs[a].k);
            oom_check(what, &ctx, op_availability, oom_dump_all);
            snprintf(what, sizeof what, "availability_build_limited (node 0 down) %s cl=%d k=%u",
                     repls[r], avs[a].cl, avs[a].k);
            oom_check(what, &ctx, op_availability_down, oom_dump_all);
        }
        tokenring_placement_free(ctx.placement);
        tokenring_ring_free(ctx.ring);
        tokenring_replication_free(ctx.replication);
        tokenring_topology_free(ctx.topology);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(availability, oom_setup, oom_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
