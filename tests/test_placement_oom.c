/* SPDX-License-Identifier: Apache-2.0 */
/* Allocation failures in replication settings (replication.h), placement building and
 * updating (placement.h), and ownership (ownership.h). Each failure must give
 * TOKENRING_E_NOMEM, leak nothing and create nothing. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"
#include "oom.h"

static int op_replication_parse(void *vctx, void **made)
{
    (void)vctx;
    static const char text[] =
        "{'class': 'NetworkTopologyStrategy', 'dc1': '3', 'dc2': '2/1', 'dc3': '1'}";
    tokenring_replication *r = NULL;
    int rc = tokenring_replication_parse(&r, text, sizeof text - 1, NULL);
    *made = r;
    tokenring_replication_free(r);
    return rc;
}

static char *dump_replication(void *vctx)
{
    oom_ctx *ctx = vctx;
    size_t len = 0;
    tokenring_replication_format(NULL, 0, &len, ctx->replication);
    char *s = malloc(len + 1);
    assert_int_equal(tokenring_replication_format(s, len + 1, &len, ctx->replication),
                     TOKENRING_OK);
    return s;
}

static int op_replication_set_dc(void *vctx, void **made)
{
    (void)made;
    return tokenring_replication_set_dc(((oom_ctx *)vctx)->replication, "dc-added", 2, 0, NULL);
}

static int op_placement_build(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    tokenring_placement *p = NULL;
    int rc = tokenring_placement_build(&p, ctx->ring, ctx->replication, 0, NULL);
    *made = p;
    tokenring_placement_free(p);
    return rc;
}

/* ctx->extra: a ring with one more node than ctx->ring */
static int op_placement_update(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    tokenring_placement *p = NULL;
    tokenring_error err;
    int rc = tokenring_placement_update(&p, ctx->placement, ctx->extra, &err);
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    *made = p;
    tokenring_placement_free(p);
    return rc;
}

/* ctx->placement's lists, reversed, given back (tokenring_placement_from_lists) */
static int op_placement_from_lists(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    size_t n = 0;
    tokenring_ring_tokens(ctx->ring, &n);
    uint32_t *off = calloc(n + 1, sizeof *off), *nodes = calloc(n * 8 + 1, sizeof *nodes);
    assert_non_null(off);
    assert_non_null(nodes);
    for (size_t i = 0; i < n; i++) {
        tokenring_replicas r;
        assert_int_equal(tokenring_placement_range_replicas(&r, ctx->placement, i), TOKENRING_OK);
        for (uint32_t k = 0; k < r.count; k++)
            nodes[off[i] + k] = r.nodes[r.count - 1 - k];
        off[i + 1] = off[i] + r.count;
    }
    tokenring_placement *p = NULL;
    tokenring_error err;
    int rc = tokenring_placement_from_lists(&p, ctx->ring, ctx->replication, off, nodes, NULL, 0,
                                            TOKENRING_ORDER_SERVER, &err);
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    free(off);
    free(nodes);
    *made = p;
    tokenring_placement_free(p);
    return rc;
}

static int op_ownership(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    (void)made;
    tokenring_ownership o[16];
    return tokenring_ring_ownership(o, 16, ctx->ring, ctx->placement);
}

static void replication_ops(void **state)
{
    (void)state;
    oom_check("replication_parse", NULL, op_replication_parse, NULL);
    oom_ctx ctx = { 0 };
    assert_int_equal(tokenring_replication_network(&ctx.replication), TOKENRING_OK);
    assert_int_equal(tokenring_replication_set_dc(ctx.replication, "dc1", 3, 0, NULL),
                     TOKENRING_OK);
    oom_check("replication_set_dc", &ctx, op_replication_set_dc, dump_replication);
    tokenring_replication_free(ctx.replication);
}

static void placement_ops(void **state)
{
    (void)state;
    /* the last one again under the rules of Cassandra before 3.2 (their own walk) */
    static const char *repls[] = { "3", "dc1=3,dc2=2", "dc1=3/1,dc2=2/1", "dc1=3,dc2=2" };
    for (size_t i = 0; i < sizeof repls / sizeof repls[0]; i++) {
        oom_ctx ctx = { .topology = oom_sample_topology() };
        assert_int_equal(tokenring_ring_build(&ctx.ring, ctx.topology, NULL), TOKENRING_OK);
        assert_int_equal(tokenring_replication_parse(&ctx.replication, repls[i],
                                                     strlen(repls[i]), NULL),
                         TOKENRING_OK);
        if (i == 3)
            assert_int_equal(tokenring_replication_set_rules(ctx.replication, TOKENRING_RULES_3_0),
                             TOKENRING_OK);
        oom_check(repls[i], &ctx, op_placement_build, NULL);
        assert_int_equal(tokenring_placement_build(&ctx.placement, ctx.ring, ctx.replication,
                                                   0, NULL),
                         TOKENRING_OK);
        oom_check("ring_ownership", &ctx, op_ownership, NULL);
        oom_check("placement_from_lists", &ctx, op_placement_from_lists, NULL);
        /* an update after a join, and after a join into a new rack (every range again) */
        for (int rack = 0; rack < 2; rack++) {
            tokenring_topology *joined = NULL;
            tokenring_ring *next = NULL;
            int64_t tok[8];
            for (int k = 0; k < 8; k++)
                tok[k] = (int64_t)(0x1234567890abcdefULL * (uint64_t)(k + 1));
            assert_int_equal(tokenring_topology_clone(&joined, ctx.topology), TOKENRING_OK);
            assert_int_equal(tokenring_topology_add_node(joined, "10.0.9.9", "dc1",
                                                         rack ? "rack-new" : "r1", tok, 8,
                                                         NULL),
                             TOKENRING_OK);
            assert_int_equal(tokenring_ring_build(&next, joined, NULL), TOKENRING_OK);
            ctx.extra = next;
            oom_check("placement_update", &ctx, op_placement_update, NULL);
            ctx.extra = NULL;
            tokenring_ring_free(next);
            tokenring_topology_free(joined);
        }
        tokenring_placement_free(ctx.placement);
        tokenring_replication_free(ctx.replication);
        tokenring_ring_free(ctx.ring);
        tokenring_topology_free(ctx.topology);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(replication_ops, oom_setup, oom_teardown),
        cmocka_unit_test_setup_teardown(placement_ops, oom_setup, oom_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
