/* SPDX-License-Identifier: Apache-2.0 */
/* Allocation failures in the layouts (layout.h: seeded tokens and nodes) and the token
 * allocator (allocate.h: one node, a new datacenter, several nodes jointly or node by
 * node, a 24 x 16 datacenter). Each failure must give TOKENRING_E_NOMEM, leak nothing,
 * and leave the topology exactly as it was. Cassandra's own allocation is
 * test_cassandra_alloc_oom.c. */
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

static int op_seeded_tokens(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    (void)made;
    int64_t tok[16];
    return tokenring_layout_seeded_tokens(tok, 16, 99, "10.0.1.1", ctx->topology, 0, NULL);
}

static int op_add_seeded(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    (void)made;
    static const char *names[] = { "10.3.0.1", "10.3.0.2", "10.3.0.3" };
    static const char *dcs[] = { "dc1", "dc3", "dc3" };
    static const char *racks[] = { "r1", "x", "y" };
    tokenring_error err;
    int rc = tokenring_layout_add_seeded_nodes(ctx->topology, 7, 8, names, dcs, racks, 3, 0,
                                               &err);
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    return rc;
}

static int op_allocate_one(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    (void)made;
    int64_t tok[8];
    tokenring_error err;
    int rc = tokenring_allocate_tokens(tok, 8, ctx->topology, "dc1", "r2", 3, 0, &err);
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    return rc;
}

static int op_allocate_new_dc(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    (void)made;
    static const char *racks[] = { "a", "b", "c", "a", "b" };
    int64_t tok[5 * 4];
    tokenring_error err;
    int rc = tokenring_allocate_nodes(tok, 4, ctx->topology, "dc9", racks, 5, 3, 0, &err);
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    return rc;
}

static int op_allocate_nodes(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    (void)made;
    static const char *racks[] = { "r1", "r2", "r3" };
    int64_t tok[3 * 8];
    uint32_t flags = ctx->extra ? TOKENRING_ALLOCATE_NODE_BY_NODE : 0;
    tokenring_error err;
    int rc = tokenring_allocate_nodes(tok, 8, ctx->topology, "dc2", racks, 3, 2, flags, &err);
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    return rc;
}

static void layouts_and_allocator(void **state)
{
    (void)state;
    struct {
        const char *name;
        oom_op op;
        void *extra;
    } cases[] = {
        { "layout_seeded_tokens", op_seeded_tokens, NULL },
        { "layout_add_seeded_nodes", op_add_seeded, NULL },
        { "allocate_tokens (one node)", op_allocate_one, NULL },
        { "allocate_nodes (new datacenter)", op_allocate_new_dc, NULL },
        { "allocate_nodes (several, joint)", op_allocate_nodes, NULL },
        { "allocate_nodes (several, node by node)", op_allocate_nodes, (void *)1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        oom_ctx ctx = { .topology = oom_sample_topology(), .extra = cases[i].extra };
        oom_check(cases[i].name, &ctx, cases[i].op, oom_dump_all);
        tokenring_topology_free(ctx.topology);
    }
}

static int op_allocate_large(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    (void)made;
    static const char *racks[] = { "r1", "r2", "r3" };
    int64_t tok[3 * 16];
    tokenring_error err;
    int rc = tokenring_allocate_nodes(tok, 16, ctx->topology, "dc1", racks, 3, 3, 0, &err);
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    return rc;
}

/* The allocator's queues grow past their first sizes. */
static void larger_inputs(void **state)
{
    (void)state;
    oom_ctx ctx = { .topology = oom_large_topology(), .replication = oom_replication("dc1=3") };
    oom_check("allocate_nodes (24 x 16 datacenter)", &ctx, op_allocate_large, oom_dump_all);
    tokenring_replication_free(ctx.replication);
    tokenring_topology_free(ctx.topology);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(layouts_and_allocator, oom_setup, oom_teardown),
        cmocka_unit_test_setup_teardown(larger_inputs, oom_setup, oom_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
