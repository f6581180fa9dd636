/* SPDX-License-Identifier: Apache-2.0 */
/* Allocation failures in the text-form token calls (partitioner.h, "Tokens in text
 * form"), for each partitioner: every failure gives TOKENRING_E_NOMEM, leaks nothing,
 * creates nothing and leaves the topology exactly as it was. */
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

typedef struct tcase {
    tokenring_partitioner p;
    const char *nodes[3][2];
    const char *join[2];
    const char *move[1];
} tcase;

static const tcase tcases[] = {
    { TOKENRING_PARTITIONER_MURMUR3,
      { { "-9000000000000000000", "-3000000000000000000" }, { "0", "3000000000000000000" },
        { "-6000000000000000000", "6000000000000000000" } },
      { "1500000000000000000", "7500000000000000000" }, { "-8000000000000000000" } },
    { TOKENRING_PARTITIONER_RANDOM,
      { { "0", "85070591730234615865843651857942052864" },
        { "42535295865117307932921825928971026432", "127605887595351923798765477786913079296" },
        { "21267647932558653966460912964485513216", "106338239662793269832304564822427566080" } },
      { "63802943797675961899382738893456539648", "150000000000000000000000000000000000000" },
      { "10" } },
    { TOKENRING_PARTITIONER_BYTE_ORDERED,
      { { "10", "80" }, { "40", "c0" }, { "02", "a0" } }, { "06", "e0" }, { "ff00" } },
};

typedef struct tctx {
    oom_ctx base; /* base.topology: the case's topology */
    const tcase *c;
} tctx;

/* Every node's name and tokens, as text: works for every partitioner. */
static char *dump_text(void *vctx)
{
    const tokenring_topology *t = ((oom_ctx *)vctx)->topology;
    size_t cap = 4096, len = 0;
    char *s = calloc(1, cap);
    for (size_t i = 0; i < tokenring_topology_node_count(t); i++) {
        tokenring_node_info ni;
        assert_int_equal(tokenring_topology_node(&ni, t, i), TOKENRING_OK);
        len += (size_t)snprintf(s + len, cap - len, "\n%s %s %s:", ni.name, ni.datacenter,
                                ni.rack);
        for (size_t k = 0; k < ni.token_count; k++) {
            char tok[160];
            size_t n;
            assert_int_equal(tokenring_topology_node_token_text(tok, sizeof tok, &n, t, i, k),
                             TOKENRING_OK);
            len += (size_t)snprintf(s + len, cap - len, " %s", tok);
        }
        assert_true(len < cap);
    }
    return s;
}

static void setup_case(tctx *ctx, const tcase *c)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->c = c;
    assert_int_equal(tokenring_topology_new_partitioned(&ctx->base.topology, c->p), TOKENRING_OK);
    static const char *const names[3] = { "10.0.0.1", "10.0.0.2", "10.0.0.3" };
    for (size_t i = 0; i < 3; i++)
        assert_int_equal(tokenring_topology_add_node_text(ctx->base.topology, names[i], "dc1",
                                                          "rack1", c->nodes[i], 2, NULL),
                         TOKENRING_OK);
    assert_int_equal(tokenring_replication_simple(&ctx->base.replication, 2, 0, NULL),
                     TOKENRING_OK);
}

static void teardown_case(tctx *ctx)
{
    tokenring_replication_free(ctx->base.replication);
    tokenring_topology_free(ctx->base.topology);
}

static int op_add_node(void *vctx, void **made)
{
    tctx *ctx = vctx;
    (void)made;
    int rc = tokenring_topology_add_node_text(ctx->base.topology, "10.0.0.9", "dc1", "rack2",
                                              ctx->c->join, 2, NULL);
    return rc;
}

static int op_set_tokens(void *vctx, void **made)
{
    tctx *ctx = vctx;
    (void)made;
    int rc = tokenring_topology_set_tokens_text(ctx->base.topology, "10.0.0.1", ctx->c->move, 1,
                                                NULL);
    return rc;
}

static const uint8_t keys[] = "alphabeta";
static const uint64_t offsets[] = { 0, 5, 9 };

static int op_join(void *vctx, void **made)
{
    tctx *ctx = vctx;
    tokenring_movement *m = NULL;
    int rc = tokenring_movement_join_text(&m, ctx->base.topology, ctx->base.replication,
                                          "10.0.0.9", "dc1", "rack2", ctx->c->join, 2, keys,
                                          offsets, 2, NULL);
    *made = m;
    tokenring_movement_free(m);
    return rc;
}

static int op_move(void *vctx, void **made)
{
    tctx *ctx = vctx;
    tokenring_movement *m = NULL;
    int rc = tokenring_movement_move_text(&m, ctx->base.topology, ctx->base.replication,
                                          "10.0.0.1", ctx->c->move, 1, keys, offsets, 2, NULL);
    *made = m;
    tokenring_movement_free(m);
    return rc;
}

static int op_even(void *vctx, void **made)
{
    tctx *ctx = vctx;
    tokenring_token_list *l = NULL;
    int rc = tokenring_layout_even_tokens_text(&l, ctx->c->p, 16, 1, 3, NULL);
    *made = l;
    tokenring_token_list_free(l);
    return rc;
}

static int op_seeded(void *vctx, void **made)
{
    tctx *ctx = vctx;
    tokenring_token_list *l = NULL;
    int rc = tokenring_layout_seeded_tokens_text(&l, ctx->c->p, 8, 7, "10.0.0.9",
                                                 ctx->base.topology, 0, NULL);
    *made = l;
    tokenring_token_list_free(l);
    return rc;
}

static int op_cassandra(void *vctx, void **made)
{
    tctx *ctx = vctx;
    tokenring_token_list *l = NULL;
    int rc = tokenring_allocate_cassandra_text(&l, 2, ctx->base.topology, "10.0.0.9", "dc1",
                                               "rack1", NULL, 1, ctx->c->join[0],
                                               TOKENRING_CASSANDRA_5_0, 0, NULL, NULL);
    *made = l;
    tokenring_token_list_free(l);
    return rc;
}

static int op_join_plan(void *vctx, void **made)
{
    tctx *ctx = vctx;
    tokenring_token_list *l = NULL;
    int rc = tokenring_allocate_join_text(&l, 2, ctx->base.topology, "10.0.0.9", "dc1", "rack1",
                                          NULL, 2, TOKENRING_CASSANDRA_5_0, 0, NULL, NULL);
    *made = l;
    tokenring_token_list_free(l);
    return rc;
}

/* a ByteOrderedPartitioner token longer than the search's stack buffer */
static int op_search_long(void *vctx, void **made)
{
    tctx *ctx = vctx;
    (void)made;
    tokenring_ring *ring = NULL;
    int rc = tokenring_ring_build(&ring, ctx->base.topology, NULL);
    if (rc != TOKENRING_OK)
        return rc;
    char text[1200];
    memset(text, 'b', sizeof text);
    uint32_t idx = 0;
    rc = tokenring_ring_search_text(&idx, ring, text, sizeof text, NULL);
    tokenring_ring_free(ring);
    if (rc == TOKENRING_OK)
        assert_int_equal(idx, 5); /* bb.. is above a0, below c0 */
    return rc;
}

/* ByteOrderedPartitioner texts longer than the stack buffers of normalize and compare */
static char long_hex[1201];

static int op_normalize_long(void *vctx, void **made)
{
    (void)vctx, (void)made;
    static char out[1300];
    size_t len;
    return tokenring_token_text_normalize(out, sizeof out, &len,
                                          TOKENRING_PARTITIONER_BYTE_ORDERED, long_hex,
                                          sizeof long_hex - 1, NULL);
}

static int op_compare_long(void *vctx, void **made)
{
    (void)vctx, (void)made;
    int cmp;
    int rc = tokenring_token_text_compare(&cmp, TOKENRING_PARTITIONER_BYTE_ORDERED, long_hex,
                                          long_hex, NULL);
    if (rc == TOKENRING_OK)
        assert_int_equal(cmp, 0);
    return rc;
}

static void test_text_oom(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        oom_op op;
        bool numbers_only; /* Murmur3 and RandomPartitioner: layouts and allocators */
    } ops[] = {
        { "topology_add_node_text", op_add_node, false },
        { "topology_set_tokens_text", op_set_tokens, false },
        { "movement_join_text", op_join, false },
        { "movement_move_text", op_move, false },
        { "layout_even_tokens_text", op_even, true },
        { "layout_seeded_tokens_text", op_seeded, true },
        { "allocate_cassandra_text", op_cassandra, true },
        { "allocate_join_text", op_join_plan, true },
    };
    for (size_t c = 0; c < sizeof tcases / sizeof tcases[0]; c++)
        for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
            if (ops[i].numbers_only && tcases[c].p == TOKENRING_PARTITIONER_BYTE_ORDERED)
                continue;
            tctx ctx;
            setup_case(&ctx, &tcases[c]);
            char what[96];
            snprintf(what, sizeof what, "%s (%s)", ops[i].name,
                     tokenring_partitioner_name(tcases[c].p));
            assert_true(oom_count_allocations(&ctx, ops[i].op) > 0);
            teardown_case(&ctx); /* the count's run may have changed the topology */
            setup_case(&ctx, &tcases[c]);
            oom_check(what, &ctx, ops[i].op, dump_text);
            teardown_case(&ctx);
        }
    tctx ctx;
    setup_case(&ctx, &tcases[2]);
    oom_check("ring_search_text (long ByteOrderedPartitioner token)", &ctx, op_search_long,
              dump_text);
    memset(long_hex, 'c', sizeof long_hex - 1);
    oom_check("token_text_normalize (long ByteOrderedPartitioner token)", &ctx,
              op_normalize_long, dump_text);
    oom_check("token_text_compare (long ByteOrderedPartitioner tokens)", &ctx, op_compare_long,
              dump_text);
    teardown_case(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_text_oom, oom_setup, oom_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
