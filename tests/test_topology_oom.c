/* SPDX-License-Identifier: Apache-2.0 */
/* Allocation failures in the topology builder (topology.h): every mutation, the clone,
 * and the ring built from a topology. Each failure must give TOKENRING_E_NOMEM, leak
 * nothing and leave the topology exactly as it was. */
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

/* More tokens than the typed calls build on the stack: their tr_tok array is allocated. */
#define MANY 40

static int op_add_node_many(void *vctx, void **made)
{
    (void)made;
    int64_t tok[MANY];
    for (int i = 0; i < MANY; i++)
        tok[i] = 987654321LL * (i + 1) + 11;
    tokenring_error err;
    int rc = tokenring_topology_add_node(((oom_ctx *)vctx)->topology, "10.0.9.9", "dc3", "rx",
                                         tok, MANY, &err);
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    return rc;
}

static int op_set_tokens_many(void *vctx, void **made)
{
    (void)made;
    int64_t tok[MANY];
    for (int i = 0; i < MANY; i++)
        tok[i] = -987654321LL * (i + 1) - 7;
    return tokenring_topology_set_tokens(((oom_ctx *)vctx)->topology, "10.0.1.2", tok, MANY,
                                         NULL);
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
        { "topology_add_node (40 tokens)", op_add_node_many },
        { "topology_set_tokens (40 tokens)", op_set_tokens_many },
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

/* ------------------------------------ RandomPartitioner and ByteOrdered topologies */

/* The nodes and every full token, as text. */
static char *dump_partitioned(void *vctx)
{
    const tokenring_topology *t = ((oom_ctx *)vctx)->topology;
    size_t cap = 1 << 16, len = 0;
    char *s = malloc(cap);
    s[0] = '\0';
    bool random = tokenring_topology_partitioner(t) == TOKENRING_PARTITIONER_RANDOM;
    for (size_t i = 0; i < tokenring_topology_node_count(t); i++) {
        tokenring_node_info ni;
        assert_int_equal(tokenring_topology_node(&ni, t, i), TOKENRING_OK);
        assert_null(ni.tokens);
        len += (size_t)snprintf(s + len, cap - len, "\n%s %s %s %d:", ni.name, ni.datacenter,
                                ni.rack, ni.state);
        for (size_t k = 0; k < ni.token_count; k++) {
            char tt[TOKENRING_TOKEN128_TEXT_MAX + 64];
            size_t n;
            if (random) {
                tokenring_token128 v;
                assert_int_equal(tokenring_topology_node_token128(&v, t, i, k), TOKENRING_OK);
                assert_int_equal(tokenring_token128_format(tt, sizeof tt, &n, v), TOKENRING_OK);
            } else {
                const uint8_t *b;
                size_t bl;
                assert_int_equal(tokenring_topology_node_token_bytes(&b, &bl, t, i, k), TOKENRING_OK);
                assert_int_equal(tokenring_byte_token_format(tt, sizeof tt, &n, b, bl), TOKENRING_OK);
            }
            assert_true(len + n + 2 < cap);
            len += (size_t)snprintf(s + len, cap - len, " %s", tt);
        }
    }
    return s;
}

static tokenring_topology *sample_partitioned(tokenring_partitioner p)
{
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new_partitioned(&t, p), TOKENRING_OK);
    for (int node = 0; node < 6; node++) {
        char name[32], rack[8];
        snprintf(name, sizeof name, "10.0.2.%d", node + 1);
        snprintf(rack, sizeof rack, "r%d", node % 3);
        tokenring_token128 t128[8];
        uint8_t bytes[8][10];
        const uint8_t *ptr[8];
        size_t lens[8];
        for (int k = 0; k < 8; k++) {
            uint64_t v = UINT64_C(0x9E3779B97F4A7C15) * (uint64_t)(node * 8 + k + 1);
            t128[k].hi = v >> 1;
            t128[k].lo = ~v;
            for (int b = 0; b < 10; b++)
                bytes[k][b] = (uint8_t)(b < 7 ? 0x41 : v >> (8 * (b - 7)));
            ptr[k] = bytes[k];
            lens[k] = (size_t)(8 + k % 3);
        }
        int rc = p == TOKENRING_PARTITIONER_RANDOM
                     ? tokenring_topology_add_node128(t, name, "dc1", rack, t128, 8, NULL)
                     : tokenring_topology_add_node_bytes(t, name, "dc1", rack, ptr, lens, 8, NULL);
        assert_int_equal(rc, TOKENRING_OK);
    }
    return t;
}

static int op_add_node128(void *vctx, void **made)
{
    (void)made;
    tokenring_token128 tok[5] = {{1, 2}, {3, 4}, {5, 6}, {0, 0}, {0x8000000000000000ULL, 0}};
    return tokenring_topology_add_node128(((oom_ctx *)vctx)->topology, "10.0.9.9", "dc2", "rx",
                                          tok, 5, NULL);
}

static int op_set_tokens128(void *vctx, void **made)
{
    (void)made;
    tokenring_token128 tok[3] = {{7, 7}, {8, 8}, {9, 9}};
    return tokenring_topology_set_tokens128(((oom_ctx *)vctx)->topology, "10.0.2.2", tok, 3, NULL);
}

static int op_add_node_bytes(void *vctx, void **made)
{
    (void)made;
    const uint8_t *tok[3] = {(const uint8_t *)"AAAAAAAAzz", (const uint8_t *)"", (const uint8_t *)"q"};
    size_t lens[3] = {10, 0, 1};
    return tokenring_topology_add_node_bytes(((oom_ctx *)vctx)->topology, "10.0.9.9", "dc2",
                                             "rx", tok, lens, 3, NULL);
}

static int op_set_tokens_bytes(void *vctx, void **made)
{
    (void)made;
    const uint8_t *tok[2] = {(const uint8_t *)"zz", (const uint8_t *)"zzz"};
    size_t lens[2] = {2, 3};
    return tokenring_topology_set_tokens_bytes(((oom_ctx *)vctx)->topology, "10.0.2.2", tok,
                                               lens, 2, NULL);
}

static int op_add_node128_many(void *vctx, void **made)
{
    (void)made;
    tokenring_token128 tok[MANY];
    for (int i = 0; i < MANY; i++)
        tok[i] = (tokenring_token128){ (uint64_t)i + 1, UINT64_C(0x1234567) * (uint64_t)i };
    tokenring_error err;
    int rc = tokenring_topology_add_node128(((oom_ctx *)vctx)->topology, "10.0.9.9", "dc2",
                                            "rx", tok, MANY, &err);
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    return rc;
}

static int op_set_tokens128_many(void *vctx, void **made)
{
    (void)made;
    tokenring_token128 tok[MANY];
    for (int i = 0; i < MANY; i++)
        tok[i] = (tokenring_token128){ (uint64_t)i + 100, 77 };
    return tokenring_topology_set_tokens128(((oom_ctx *)vctx)->topology, "10.0.2.2", tok, MANY,
                                            NULL);
}

static int op_add_node_bytes_many(void *vctx, void **made)
{
    (void)made;
    uint8_t bytes[MANY][2];
    const uint8_t *tok[MANY];
    size_t lens[MANY];
    for (int i = 0; i < MANY; i++) {
        bytes[i][0] = 'z';
        bytes[i][1] = (uint8_t)i;
        tok[i] = bytes[i];
        lens[i] = 2;
    }
    return tokenring_topology_add_node_bytes(((oom_ctx *)vctx)->topology, "10.0.9.9", "dc2",
                                             "rx", tok, lens, MANY, NULL);
}

static int op_set_tokens_bytes_many(void *vctx, void **made)
{
    (void)made;
    uint8_t bytes[MANY][3];
    const uint8_t *tok[MANY];
    size_t lens[MANY];
    for (int i = 0; i < MANY; i++) {
        bytes[i][0] = 'y';
        bytes[i][1] = 'y';
        bytes[i][2] = (uint8_t)i;
        tok[i] = bytes[i];
        lens[i] = 3;
    }
    return tokenring_topology_set_tokens_bytes(((oom_ctx *)vctx)->topology, "10.0.2.2", tok,
                                               lens, MANY, NULL);
}

static int op_seeded_tokens128(void *vctx, void **made)
{
    (void)made;
    tokenring_token128 tok[80];
    tokenring_error err;
    int rc = tokenring_layout_seeded_tokens128(tok, 80, 99, "10.0.2.1",
                                               ((oom_ctx *)vctx)->topology, 0, &err);
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    return rc;
}

static int op_add_seeded128(void *vctx, void **made)
{
    (void)made;
    static const char *names[] = { "10.3.0.1", "10.3.0.2", "10.3.0.3" };
    static const char *dcs[] = { "dc1", "dc3", "dc3" };
    static const char *racks[] = { "r1", "x", "y" };
    tokenring_error err;
    int rc = tokenring_layout_add_seeded_nodes(((oom_ctx *)vctx)->topology, 7, 70, names, dcs,
                                               racks, 3, 0, &err);
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    return rc;
}

static void topology_partitioned_ops(void **state)
{
    (void)state;
    struct {
        const char *name;
        tokenring_partitioner p;
        oom_op op;
    } cases[] = {
        { "topology_add_node128", TOKENRING_PARTITIONER_RANDOM, op_add_node128 },
        { "topology_set_tokens128", TOKENRING_PARTITIONER_RANDOM, op_set_tokens128 },
        { "topology_add_node128 (40 tokens)", TOKENRING_PARTITIONER_RANDOM, op_add_node128_many },
        { "topology_set_tokens128 (40 tokens)", TOKENRING_PARTITIONER_RANDOM,
          op_set_tokens128_many },
        { "topology_clone (random)", TOKENRING_PARTITIONER_RANDOM, op_clone },
        { "ring_build (random)", TOKENRING_PARTITIONER_RANDOM, op_ring_build },
        { "layout_seeded_tokens128", TOKENRING_PARTITIONER_RANDOM, op_seeded_tokens128 },
        { "layout_add_seeded_nodes (random)", TOKENRING_PARTITIONER_RANDOM, op_add_seeded128 },
        { "topology_add_node_bytes", TOKENRING_PARTITIONER_BYTE_ORDERED, op_add_node_bytes },
        { "topology_set_tokens_bytes", TOKENRING_PARTITIONER_BYTE_ORDERED, op_set_tokens_bytes },
        { "topology_add_node_bytes (40 tokens)", TOKENRING_PARTITIONER_BYTE_ORDERED,
          op_add_node_bytes_many },
        { "topology_set_tokens_bytes (40 tokens)", TOKENRING_PARTITIONER_BYTE_ORDERED,
          op_set_tokens_bytes_many },
        { "topology_clone (bytes)", TOKENRING_PARTITIONER_BYTE_ORDERED, op_clone },
        { "ring_build (bytes)", TOKENRING_PARTITIONER_BYTE_ORDERED, op_ring_build },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        oom_ctx ctx = { .topology = sample_partitioned(cases[i].p) };
        oom_check(cases[i].name, &ctx, cases[i].op, dump_partitioned);
        tokenring_topology_free(ctx.topology);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(topology_ops, oom_setup, oom_teardown),
        cmocka_unit_test_setup_teardown(topology_set_state, oom_setup, oom_teardown),
        cmocka_unit_test_setup_teardown(topology_partitioned_ops, oom_setup, oom_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
