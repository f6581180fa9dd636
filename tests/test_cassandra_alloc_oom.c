/* SPDX-License-Identifier: Apache-2.0 */
/* Allocation failures in tokenring_allocate_cassandra() and
 * tokenring_allocate_cassandra128(): each of their paths (ReplicationAware,
 * NoReplication, the split generator) fails every allocation in turn; each failure must
 * give TOKENRING_E_NOMEM, leak nothing and leave the topology as it was. */
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

static int run(oom_ctx *ctx, const char *dc, const char *rack, int32_t rf, uint32_t release)
{
    int64_t out[8], first = 42;
    tokenring_error err;
    int rc = tokenring_allocate_cassandra(out, 8, ctx->topology, "10.0.9.9", dc, rack, NULL,
                                          rf, &first, release, 0, &err);
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    return rc;
}

static int op_replication_aware(void *vctx, void **made)
{
    (void)made;
    return run(vctx, "dc1", "r1", 2, TOKENRING_CASSANDRA_5_0); /* 3 racks > rf 2 */
}

static int op_no_replication(void *vctx, void **made)
{
    (void)made;
    return run(vctx, "dc1", "r2", 3, TOKENRING_CASSANDRA_4_0); /* 3 racks = rf 3 */
}

static int op_splits(void *vctx, void **made)
{
    (void)made;
    return run(vctx, "dc9", "r1", 3, TOKENRING_CASSANDRA_4_1); /* an empty datacenter */
}

static int op_keyspace(void *vctx, void **made)
{
    (void)made;
    oom_ctx *ctx = vctx;
    int64_t out[4];
    return tokenring_allocate_cassandra(out, 4, ctx->topology, "10.0.9.9", "dc2", "r1",
                                        ctx->replication, 0, NULL, TOKENRING_CASSANDRA_5_0, 0,
                                        NULL);
}

/* tokenring_allocate_join: Cassandra's tokens, the allocator's plan, the refined tokens
 * and three ring and placement builds; a keyspace (SimpleStrategy) and a local factor */
static int op_join_local(void *vctx, void **made)
{
    (void)made;
    oom_ctx *ctx = vctx;
    int64_t out[8];
    tokenring_error err;
    int rc = tokenring_allocate_join(out, 8, ctx->topology, "10.0.9.9", "dc1", "r1", NULL, 2,
                                     TOKENRING_CASSANDRA_5_0, TOKENRING_JOIN_BEST_ONE_STEP, &err);
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    return rc;
}

static int op_join_keyspace(void *vctx, void **made)
{
    (void)made;
    oom_ctx *ctx = vctx;
    int64_t out[8];
    return tokenring_allocate_join(out, 8, ctx->topology, "10.0.9.9", "dc9", "r1",
                                   ctx->replication, 0, TOKENRING_CASSANDRA_4_1, TOKENRING_JOIN_BEST_ONE_STEP, NULL);
}

/* the default plan (Cassandra's tokens) */
static int op_join_default(void *vctx, void **made)
{
    (void)made;
    oom_ctx *ctx = vctx;
    int64_t out[8];
    return tokenring_allocate_join(out, 8, ctx->topology, "10.0.9.9", "dc1", "r1", NULL, 2,
                                   TOKENRING_CASSANDRA_5_0, 0, NULL);
}

/* tokenring_allocate_tokens with more tokens than the datacenter's ranges (the join plan's
 * allocator places the rest), and the default join where a joining node holds
 * Cassandra's tokens (the allocator's plan instead) */
static int op_tokens_beyond(void *vctx, void **made)
{
    (void)made;
    oom_ctx *ctx = vctx;
    int64_t out[16];
    int rc = tokenring_allocate_tokens(out, 16, ctx->topology, "dc1", "r1", 3, 0, NULL);
    if (rc == TOKENRING_OK)
        rc = tokenring_allocate_join(out, 4, ctx->topology, "10.0.9.9", "dc1", "r1", NULL, 3,
                                     TOKENRING_CASSANDRA_5_0, 0, NULL);
    return rc;
}

/* The whole-datacenter plan with no room: planned join after join. */
static int op_batch_beyond(void *vctx, void **made)
{
    (void)made;
    oom_ctx *ctx = vctx;
    static const char *const racks[] = { "r1", "r1" };
    int64_t out[32];
    return tokenring_allocate_nodes(out, 16, ctx->topology, "dc1", racks, 2, 3, 0, NULL);
}

/* ------------------------------------------------ RandomPartitioner (128-bit) */

static int run128(oom_ctx *ctx, const char *dc, const char *rack, int32_t rf, uint32_t release,
                  const tokenring_replication *ks)
{
    tokenring_token128 out[8], first = { 1, 42 };
    tokenring_error err;
    int rc = tokenring_allocate_cassandra128(out, 8, ctx->topology, "10.0.9.9", dc, rack, ks,
                                             ks ? 0 : rf, &first, release, 0, &err);
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    return rc;
}

static int op128_replication_aware(void *vctx, void **made)
{
    (void)made;
    return run128(vctx, "dc1", "r1", 2, TOKENRING_CASSANDRA_5_0, NULL);
}

static int op128_no_replication(void *vctx, void **made)
{
    (void)made;
    return run128(vctx, "dc1", "r2", 3, TOKENRING_CASSANDRA_4_0, NULL);
}

static int op128_splits(void *vctx, void **made)
{
    (void)made;
    return run128(vctx, "dc9", "r1", 3, TOKENRING_CASSANDRA_4_1, NULL);
}

static int op128_keyspace(void *vctx, void **made)
{
    (void)made;
    oom_ctx *ctx = vctx;
    return run128(vctx, "dc2", "r1", 0, TOKENRING_CASSANDRA_5_0, ctx->replication);
}

/* tokenring_allocate_join128: the projection, Cassandra's tokens, the plans' images */
static int op_join128(void *vctx, void **made)
{
    (void)made;
    oom_ctx *ctx = vctx;
    tokenring_token128 out[8];
    tokenring_error err;
    int rc = tokenring_allocate_join128(out, 8, ctx->topology, "10.0.9.9", "dc1", "r1", NULL,
                                        2, TOKENRING_CASSANDRA_5_0, TOKENRING_JOIN_BEST_ONE_STEP, &err);
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    return rc;
}

static int op_join128_keyspace(void *vctx, void **made)
{
    (void)made;
    oom_ctx *ctx = vctx;
    tokenring_token128 out[8];
    return tokenring_allocate_join128(out, 8, ctx->topology, "10.0.9.9", "dc2", "r1",
                                      ctx->replication, 0, TOKENRING_CASSANDRA_4_1, TOKENRING_JOIN_BEST_ONE_STEP, NULL);
}

/* The sample topology's nodes with 128-bit tokens (each 64-bit token t as
 * (t + 2^63) * 2^63 + 5: the same order, spread over 0 .. 2^127). */
static tokenring_topology *random_sample(void)
{
    tokenring_topology *m = oom_sample_topology(), *t = NULL;
    assert_int_equal(tokenring_topology_new_partitioned(&t, TOKENRING_PARTITIONER_RANDOM),
                     TOKENRING_OK);
    for (size_t i = 0; i < tokenring_topology_node_count(m); i++) {
        tokenring_node_info ni;
        assert_int_equal(tokenring_topology_node(&ni, m, i), TOKENRING_OK);
        tokenring_token128 tk[64];
        assert_true(ni.token_count <= 64);
        for (size_t k = 0; k < ni.token_count; k++) {
            uint64_t u = (uint64_t)ni.tokens[k] ^ (UINT64_C(1) << 63);
            tk[k] = (tokenring_token128){ u >> 1, (u << 63) | 5 };
        }
        assert_int_equal(tokenring_topology_add_node128(t, ni.name, ni.datacenter, ni.rack, tk,
                                                        ni.token_count, NULL),
                         TOKENRING_OK);
    }
    tokenring_topology_free(m);
    return t;
}

/* oom_dump_topology() for 128-bit tokens */
static char *dump128(void *vctx)
{
    const tokenring_topology *t = ((oom_ctx *)vctx)->topology;
    size_t cap = 1024, len = 0;
    char *s = malloc(cap);
    s[0] = '\0';
    for (size_t i = 0; i < tokenring_topology_node_count(t); i++) {
        tokenring_node_info ni;
        assert_int_equal(tokenring_topology_node(&ni, t, i), TOKENRING_OK);
        for (size_t k = 0; k <= ni.token_count; k++) {
            char line[700];
            int w;
            if (k == 0) {
                w = snprintf(line, sizeof line, "\n%s %s %s %d %d:", ni.name, ni.datacenter,
                             ni.rack, ni.state, ni.liveness);
            } else {
                tokenring_token128 tk;
                assert_int_equal(tokenring_topology_node_token128(&tk, t, i, k - 1),
                                 TOKENRING_OK);
                w = snprintf(line, sizeof line, " %016llx%016llx", (unsigned long long)tk.hi,
                             (unsigned long long)tk.lo);
            }
            while (len + (size_t)w + 1 > cap)
                s = realloc(s, cap *= 2);
            memcpy(s + len, line, (size_t)w + 1);
            len += (size_t)w;
        }
    }
    return s;
}

static void cassandra128_paths(void **state)
{
    (void)state;
    oom_ctx ctx = { random_sample(), NULL, NULL, NULL, NULL };
    assert_int_equal(tokenring_replication_simple(&ctx.replication, 3, 0, NULL), TOKENRING_OK);
    oom_check("allocate_cassandra128 replication-aware", &ctx, op128_replication_aware,
              dump128);
    oom_check("allocate_cassandra128 no-replication", &ctx, op128_no_replication, dump128);
    oom_check("allocate_cassandra128 splits", &ctx, op128_splits, dump128);
    oom_check("allocate_cassandra128 keyspace", &ctx, op128_keyspace, dump128);
    oom_check("allocate_join128 local rf", &ctx, op_join128, dump128);
    oom_check("allocate_join128 keyspace", &ctx, op_join128_keyspace, dump128);
    tokenring_replication_free(ctx.replication);
    tokenring_topology_free(ctx.topology);
}

static void cassandra_paths(void **state)
{
    (void)state;
    oom_ctx ctx = { oom_sample_topology(), NULL, NULL, NULL, NULL };
    assert_int_equal(tokenring_replication_simple(&ctx.replication, 3, 0, NULL), TOKENRING_OK);
    oom_check("allocate_cassandra replication-aware", &ctx, op_replication_aware,
              oom_dump_topology);
    oom_check("allocate_cassandra no-replication", &ctx, op_no_replication, oom_dump_topology);
    oom_check("allocate_cassandra splits", &ctx, op_splits, oom_dump_topology);
    oom_check("allocate_cassandra keyspace", &ctx, op_keyspace, oom_dump_topology);
    oom_check("allocate_join local rf", &ctx, op_join_local, oom_dump_topology);
    oom_check("allocate_join keyspace", &ctx, op_join_keyspace, oom_dump_topology);
    oom_check("allocate_join default", &ctx, op_join_default, oom_dump_topology);
    tokenring_replication_free(ctx.replication);
    tokenring_topology_free(ctx.topology);
    /* three single-token nodes, and a joining node holding Cassandra's tokens for the
     * next one */
    oom_ctx one = { NULL, NULL, NULL, NULL, NULL };
    assert_int_equal(tokenring_topology_new(&one.topology), TOKENRING_OK);
    for (int i = 0; i < 3; i++) {
        char name[16];
        snprintf(name, sizeof name, "10.0.0.%d", i + 1);
        int64_t tok = (int64_t)((uint64_t)INT64_MIN + 1 + (uint64_t)i * (UINT64_MAX / 3));
        assert_int_equal(tokenring_topology_add_node(one.topology, name, "dc1", "r1", &tok, 1,
                                                     NULL),
                         TOKENRING_OK);
    }
    int64_t held[4];
    assert_int_equal(tokenring_allocate_cassandra(held, 4, one.topology, "10.0.9.9", "dc1",
                                                  "r1", NULL, 3, NULL, TOKENRING_CASSANDRA_5_0,
                                                  0, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node(one.topology, "10.0.8.8", "dc1", "r1", held,
                                                 4, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_set_state(one.topology, "10.0.8.8",
                                                  TOKENRING_STATE_JOINING, TOKENRING_UP, NULL),
                     TOKENRING_OK);
    oom_check("allocate_tokens beyond the ranges, join fallback", &one, op_tokens_beyond,
              oom_dump_topology);
    oom_check("allocate_nodes beyond the ranges, joins one after another", &one,
              op_batch_beyond, oom_dump_topology);
    tokenring_topology_free(one.topology);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(cassandra_paths, oom_setup, oom_teardown),
        cmocka_unit_test_setup_teardown(cassandra128_paths, oom_setup, oom_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
