/* SPDX-License-Identifier: Apache-2.0 */
/* Allocation failures in the movement analyses (movement.h): join, decommission,
 * replace, move and compare on the sample topology under SimpleStrategy and
 * NetworkTopologyStrategy, on a 24 x 16 datacenter, and the 128-bit, byte-token and
 * key-sample variants on RandomPartitioner and ByteOrderedPartitioner topologies; and
 * tokenring_ring_tokens_kept(). Each failure must give TOKENRING_E_NOMEM, leak nothing,
 * produce nothing, and leave the topology and the replication exactly as they were. */
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

/* ------------------------------------------------------------------- movement */

static int finish_movement(int rc, tokenring_movement *m, void **made, tokenring_error *err)
{
    *made = m;
    if (rc != TOKENRING_OK) {
        assert_int_equal(err->code, rc);
        return rc;
    }
    tokenring_movement_summary s;
    assert_int_equal(tokenring_movement_get_summary(&s, m), TOKENRING_OK);
    tokenring_movement_free(m);
    return rc;
}

static int op_join(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    static const int64_t tok[] = { -4000000000000000000LL, 17, 3000000000000000001LL };
    tokenring_movement *m = NULL;
    tokenring_error err;
    int rc = tokenring_movement_join(&m, ctx->topology, ctx->replication, "10.0.5.5", "dc1",
                                     "r2", tok, 3, OOM_SAMPLES, OOM_NSAMPLES, &err);
    return finish_movement(rc, m, made, &err);
}

static int op_decommission(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    tokenring_movement *m = NULL;
    tokenring_error err;
    int rc = tokenring_movement_decommission(&m, ctx->topology, ctx->replication, "10.0.1.2",
                                             OOM_SAMPLES, OOM_NSAMPLES, &err);
    return finish_movement(rc, m, made, &err);
}

static int op_replace(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    tokenring_movement *m = NULL;
    tokenring_error err;
    int rc = tokenring_movement_replace(&m, ctx->topology, ctx->replication, "10.0.2.1",
                                        "10.0.8.8", OOM_SAMPLES, OOM_NSAMPLES, &err);
    return finish_movement(rc, m, made, &err);
}

static int op_move(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    static const int64_t tok[] = { -77, 77, 777 };
    tokenring_movement *m = NULL;
    tokenring_error err;
    int rc = tokenring_movement_move(&m, ctx->topology, ctx->replication, "10.0.1.3", tok, 3,
                                     OOM_SAMPLES, OOM_NSAMPLES, &err);
    return finish_movement(rc, m, made, &err);
}

static int op_compare(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    const tokenring_topology *after = ctx->extra;
    tokenring_movement *m = NULL;
    tokenring_error err;
    int rc = tokenring_movement_compare(&m, ctx->topology, after, ctx->replication,
                                        TOKENRING_CHANGE_GENERIC, OOM_SAMPLES, OOM_NSAMPLES, &err);
    return finish_movement(rc, m, made, &err);
}

/* ------------------------------------------------------------------------ tests */

static void movements(void **state)
{
    (void)state;
    static const char *repls[] = { "2", "dc1=3,dc2=2/1" };
    struct {
        const char *name;
        oom_op op;
    } cases[] = {
        { "movement_join", op_join },
        { "movement_decommission", op_decommission },
        { "movement_replace", op_replace },
        { "movement_move", op_move },
        { "movement_compare", op_compare },
    };
    for (size_t r = 0; r < 2; r++) {
        for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
            oom_ctx ctx = { .topology = oom_sample_topology(),
                            .replication = oom_replication(repls[r]) };
            tokenring_topology *after = oom_sample_topology();
            assert_int_equal(tokenring_topology_remove_node(after, "10.0.1.5", NULL),
                             TOKENRING_OK);
            int64_t tok[] = { -3, 3 };
            assert_int_equal(tokenring_topology_add_node(after, "10.0.6.6", "dc2", "r2", tok,
                                                         2, NULL),
                             TOKENRING_OK);
            ctx.extra = after;
            char what[100];
            snprintf(what, sizeof what, "%s %s", cases[i].name, repls[r]);
            oom_check(what, &ctx, cases[i].op, oom_dump_all);
            tokenring_topology_free(after);
            tokenring_topology_free(ctx.topology);
            tokenring_replication_free(ctx.replication);
        }
    }
}

static int op_decommission_large(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    tokenring_movement *m = NULL;
    tokenring_error err;
    int rc = tokenring_movement_decommission(&m, ctx->topology, ctx->replication, "10.7.0.5",
                                             OOM_SAMPLES, OOM_NSAMPLES, &err);
    return finish_movement(rc, m, made, &err);
}

/* The movement's arrays grow past their first sizes. */
static void larger_inputs(void **state)
{
    (void)state;
    oom_ctx ctx = { .topology = oom_large_topology(), .replication = oom_replication("dc1=3") };
    oom_check("movement_decommission (24 x 16)", &ctx, op_decommission_large, oom_dump_all);
    tokenring_replication_free(ctx.replication);
    tokenring_topology_free(ctx.topology);
}

/* ---------------------------------------------------------------- kept tokens */

/* Builds both rings inside the op, so that every run starts without the lazily built
 * node token lists tokenring_ring_tokens_kept() reads. */
static int op_tokens_kept(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    tokenring_ring *before = NULL, *after = NULL;
    *made = NULL;
    int rc = tokenring_ring_build(&before, ctx->topology, NULL);
    if (rc == TOKENRING_OK)
        rc = tokenring_ring_build(&after, ctx->extra, NULL);
    size_t kept = 0, lost = 0, gained = 0;
    if (rc == TOKENRING_OK)
        rc = tokenring_ring_tokens_kept(&kept, &lost, &gained, before, after);
    if (rc == TOKENRING_OK) {
        assert_true(kept > 0);
        assert_true(lost > 0); /* the removed node's tokens */
        assert_int_equal(gained, 0);
    }
    tokenring_ring_free(after);
    tokenring_ring_free(before);
    return rc;
}

static void tokens_kept(void **state)
{
    (void)state;
    oom_ctx ctx = { .topology = oom_sample_topology() };
    tokenring_topology *after = oom_sample_topology();
    assert_int_equal(tokenring_topology_remove_node(after, "10.0.1.5", NULL), TOKENRING_OK);
    ctx.extra = after;
    oom_check("ring_tokens_kept", &ctx, op_tokens_kept, oom_dump_all);
    tokenring_topology_free(after);
    tokenring_topology_free(ctx.topology);
}

/* ------------------------------------- RandomPartitioner, ByteOrderedPartitioner */

static const uint8_t PKEYS[] = "abcdefghijklmnopq";
static const uint64_t POFF[] = { 0, 0, 1, 9, 17 }; /* "", "a", "bcdefghi", "jklmnopq" */
#define NPKEYS 4

static bool is_random(const tokenring_topology *t)
{
    return tokenring_topology_partitioner(t) == TOKENRING_PARTITIONER_RANDOM;
}

static int op_join_any(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    tokenring_movement *m = NULL;
    tokenring_error err;
    const tokenring_token128 t128[] = { { 5, 0 }, { UINT64_C(1) << 63, 0 } };
    const uint8_t *tb[] = { (const uint8_t *)"abcdefgh0", (const uint8_t *)"\xff" };
    const size_t tl[] = { 9, 1 };
    int rc = is_random(ctx->topology)
                 ? tokenring_movement_join128(&m, ctx->topology, ctx->replication, "10.0.5.5",
                                              "dc1", "r2", t128, 2, PKEYS, POFF, NPKEYS, &err)
                 : tokenring_movement_join_bytes(&m, ctx->topology, ctx->replication, "10.0.5.5",
                                                 "dc1", "r2", tb, tl, 2, PKEYS, POFF, NPKEYS,
                                                 &err);
    return finish_movement(rc, m, made, &err);
}

static int op_move_any(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    tokenring_movement *m = NULL;
    tokenring_error err;
    const tokenring_token128 t128[] = { { 7, 1 } };
    const uint8_t *tb[] = { (const uint8_t *)"m" };
    const size_t tl[] = { 1 };
    int rc = is_random(ctx->topology)
                 ? tokenring_movement_move128(&m, ctx->topology, ctx->replication, "10.0.1.2",
                                              t128, 1, PKEYS, POFF, NPKEYS, &err)
                 : tokenring_movement_move_bytes(&m, ctx->topology, ctx->replication, "10.0.1.2",
                                                 tb, tl, 1, PKEYS, POFF, NPKEYS, &err);
    return finish_movement(rc, m, made, &err);
}

static int op_decommission_keys(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    tokenring_movement *m = NULL;
    tokenring_error err;
    int rc = tokenring_movement_decommission_keys(&m, ctx->topology, ctx->replication,
                                                  "10.0.1.2", PKEYS, POFF, NPKEYS, &err);
    return finish_movement(rc, m, made, &err);
}

static int op_replace_keys(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    tokenring_movement *m = NULL;
    tokenring_error err;
    int rc = tokenring_movement_replace_keys(&m, ctx->topology, ctx->replication, "10.0.1.2",
                                             "10.0.9.9", PKEYS, POFF, NPKEYS, &err);
    return finish_movement(rc, m, made, &err);
}

static void other_partitioners(void **state)
{
    (void)state;
    static const char *repls[] = { "2", "dc1=3,dc2=2/1" };
    struct {
        const char *name;
        oom_op op;
    } cases[] = {
        { "movement_join128/_bytes", op_join_any },
        { "movement_move128/_bytes", op_move_any },
        { "movement_decommission_keys", op_decommission_keys },
        { "movement_replace_keys", op_replace_keys },
    };
    for (int p = TOKENRING_PARTITIONER_RANDOM; p <= TOKENRING_PARTITIONER_BYTE_ORDERED; p++)
        for (size_t r = 0; r < 2; r++)
            for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
                oom_ctx ctx = { .topology = oom_partitioned_topology((tokenring_partitioner)p),
                                .replication = oom_replication(repls[r]) };
                char what[120];
                snprintf(what, sizeof what, "%s %s partitioner %d", cases[i].name, repls[r], p);
                oom_check(what, &ctx, cases[i].op, oom_dump_partitioned);
                tokenring_topology_free(ctx.topology);
                tokenring_replication_free(ctx.replication);
            }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(movements, oom_setup, oom_teardown),
        cmocka_unit_test_setup_teardown(larger_inputs, oom_setup, oom_teardown),
        cmocka_unit_test_setup_teardown(tokens_kept, oom_setup, oom_teardown),
        cmocka_unit_test_setup_teardown(other_partitioners, oom_setup, oom_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
