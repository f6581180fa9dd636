/* SPDX-License-Identifier: Apache-2.0 */
/* Allocation failures in the topology builder (topology.h): every mutation, the clone,
 * and the ring built from a topology. Each failure must give TOKENRING_E_NOMEM, leak
 * nothing and leave the topology exactly as it was. */
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

static int op_set_state(void *vctx, void **made)
{
    (void)made;
    return tokenring_topology_set_state(((oom_ctx *)vctx)->topology, "10.0.1.4",
                                        TOKENRING_STATE_JOINING, TOKENRING_DOWN, NULL);
}

static void topology_set_state(void **state)
{
    (void)state;
    oom_ctx ctx = { .topology = oom_sample_topology() };
    oom_check("topology_set_state", &ctx, op_set_state, oom_dump_topology);
    tokenring_topology_free(ctx.topology);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(topology_ops, oom_setup, oom_teardown),
        cmocka_unit_test_setup_teardown(topology_set_state, oom_setup, oom_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
