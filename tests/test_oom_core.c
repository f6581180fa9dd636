/* SPDX-License-Identifier: Apache-2.0 */
/* Allocation failures in topology, ring, replication and placement building. */
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

static int op_topology_new(void *vctx, void **made)
{
    (void)vctx;
    tokenring_topology *t = NULL;
    int rc = tokenring_topology_new(&t);
    *made = t;
    tokenring_topology_free(t);
    return rc;
}

static int op_add_node(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    (void)made;
    int64_t tok[16];
    for (int i = 0; i < 16; i++)
        tok[i] = 123456789LL * (i + 1) + 3;
    tokenring_error err;
    int rc = tokenring_topology_add_node(ctx->topology, "10.0.9.9", "dc3", "rack-new", tok,
                                         16, &err);
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    return rc;
}

static int op_remove_node(void *vctx, void **made)
{
    (void)made;
    return tokenring_topology_remove_node(((oom_ctx *)vctx)->topology, "10.0.1.3", NULL);
}

static int op_replace_node(void *vctx, void **made)
{
    (void)made;
    return tokenring_topology_replace_node(((oom_ctx *)vctx)->topology, "10.0.1.3",
                                           "10.0.7.7", NULL);
}

static int op_set_tokens(void *vctx, void **made)
{
    (void)made;
    int64_t tok[] = { -5, 5, 55, 555, 5555 };
    return tokenring_topology_set_tokens(((oom_ctx *)vctx)->topology, "10.0.1.2", tok, 5, NULL);
}

static int op_clone(void *vctx, void **made)
{
    tokenring_topology *c = NULL;
    int rc = tokenring_topology_clone(&c, ((oom_ctx *)vctx)->topology);
    *made = c;
    tokenring_topology_free(c);
    return rc;
}

static int op_ring_build(void *vctx, void **made)
{
    tokenring_ring *r = NULL;
    int rc = tokenring_ring_build(&r, ((oom_ctx *)vctx)->topology, NULL);
    *made = r;
    tokenring_ring_free(r);
    return rc;
}

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

static int op_ownership(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    (void)made;
    tokenring_ownership o[16];
    return tokenring_ring_ownership(o, 16, ctx->ring, ctx->placement);
}

static void topology_ops(void **state)
{
    (void)state;
    struct {
        const char *name;
        oom_op op;
    } cases[] = {
        { "topology_add_node", op_add_node },
        { "topology_remove_node", op_remove_node },
        { "topology_replace_node", op_replace_node },
        { "topology_set_tokens", op_set_tokens },
        { "topology_clone", op_clone },
        { "ring_build", op_ring_build },
    };
    oom_check("topology_new", NULL, op_topology_new, NULL);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        oom_ctx ctx = { .topology = oom_sample_topology() };
        oom_check(cases[i].name, &ctx, cases[i].op, oom_dump_topology);
        tokenring_topology_free(ctx.topology);
    }
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
    static const char *repls[] = { "3", "dc1=3,dc2=2", "dc1=3/1,dc2=2/1" };
    for (size_t i = 0; i < sizeof repls / sizeof repls[0]; i++) {
        oom_ctx ctx = { .topology = oom_sample_topology() };
        assert_int_equal(tokenring_ring_build(&ctx.ring, ctx.topology, NULL), TOKENRING_OK);
        assert_int_equal(tokenring_replication_parse(&ctx.replication, repls[i],
                                                     strlen(repls[i]), NULL),
                         TOKENRING_OK);
        oom_check(repls[i], &ctx, op_placement_build, NULL);
        assert_int_equal(tokenring_placement_build(&ctx.placement, ctx.ring, ctx.replication,
                                                   0, NULL),
                         TOKENRING_OK);
        oom_check("ring_ownership", &ctx, op_ownership, NULL);
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
        cmocka_unit_test_setup_teardown(topology_ops, oom_setup, oom_teardown),
        cmocka_unit_test_setup_teardown(replication_ops, oom_setup, oom_teardown),
        cmocka_unit_test_setup_teardown(placement_ops, oom_setup, oom_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
