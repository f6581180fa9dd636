/* SPDX-License-Identifier: Apache-2.0 */
/* Seeded and evenly spaced layouts (layout.h): the bit-for-bit definition (pinned values
 * computed by an independent Python implementation of the documented byte layout, and a
 * cross-check against tokenring_murmur3_cassandra()), collision handling, stability when
 * nodes are added, and bad input. */
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

static const char *demo_names[] = { "10.0.0.1", "10.0.0.2", "10.0.0.3",
                                    "10.0.0.4", "10.0.0.5", "10.0.0.6", "10.0.0.7" };

/* The documented byte layout, hashed with the library's public Murmur3. */
static int64_t by_definition(uint64_t seed, const char *id, size_t len, uint32_t v, uint32_t a)
{
    uint8_t buf[512];
    size_t n = 0;
    memcpy(buf, "tokenring-layout-v1", 19);
    n = 19;
    for (int i = 7; i >= 0; i--)
        buf[n++] = (uint8_t)(seed >> (8 * i));
    for (int i = 3; i >= 0; i--)
        buf[n++] = (uint8_t)((uint32_t)len >> (8 * i));
    memcpy(buf + n, id, len);
    n += len;
    for (int i = 3; i >= 0; i--)
        buf[n++] = (uint8_t)(v >> (8 * i));
    if (a > 0)
        for (int i = 3; i >= 0; i--)
            buf[n++] = (uint8_t)(a >> (8 * i));
    int64_t h[2];
    assert_int_equal(tokenring_murmur3_cassandra(h, buf, n, 0), TOKENRING_OK);
    return h[0] == TOKENRING_MIN_TOKEN ? TOKENRING_MAX_TOKEN : h[0];
}

static void seeded_token_pinned_values(void **state)
{
    (void)state;
    /* Computed by an independent implementation (Python) of the documented layout. */
    static const struct {
        uint64_t seed;
        const char *id;
        uint32_t vnode, attempt;
        int64_t token;
    } v[] = {
        { 1, "10.0.0.1", 0, 0, -5451696012198336313LL },
        { 1, "10.0.0.1", 7, 0, 8480969521621885180LL },
        { 1, "10.0.0.6", 3, 0, -5025247946277222735LL },
        { 2, "10.0.0.1", 0, 0, 4330452255311617232LL },
        { 1, "10.0.0.1", 0, 1, -8057440334393269752LL },
        { 0, "", 0, 0, -2914732834909024811LL },
        { 12345678901234567890ULL, "n\xc3\xa9ud-\xe2\x82\xac", 65535, 7, 8289507267062854984LL },
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        int64_t t = 0;
        assert_int_equal(tokenring_layout_seeded_token(&t, v[i].seed, v[i].id, strlen(v[i].id),
                                                       v[i].vnode, v[i].attempt),
                         TOKENRING_OK);
        assert_true(t == v[i].token);
        assert_true(t == by_definition(v[i].seed, v[i].id, strlen(v[i].id), v[i].vnode,
                                       v[i].attempt));
    }
    /* Many more cross-checks against the public hash. */
    for (uint32_t vn = 0; vn < 300; vn++) {
        int64_t t;
        tokenring_layout_seeded_token(&t, vn * 7919u, "node-x", 6, vn, vn % 3);
        assert_true(t == by_definition(vn * 7919u, "node-x", 6, vn, vn % 3));
    }
}

static void seeded_token_bad_input(void **state)
{
    (void)state;
    int64_t t;
    char big[300];
    memset(big, 'a', sizeof big);
    assert_int_equal(tokenring_layout_seeded_token(NULL, 1, "a", 1, 0, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_layout_seeded_token(&t, 1, NULL, 1, 0, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_layout_seeded_token(&t, 1, big, 256, 0, 0), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_layout_seeded_token(&t, 1, big, 255, 0, 0), TOKENRING_OK);
}

static void seeded_tokens_vnode_order(void **state)
{
    (void)state;
    int64_t t[8];
    assert_int_equal(tokenring_layout_seeded_tokens(t, 8, 1, "10.0.0.1", NULL, 0, NULL),
                     TOKENRING_OK);
    for (uint32_t v = 0; v < 8; v++)
        assert_true(t[v] == by_definition(1, "10.0.0.1", 8, v, 0));
    /* Another seed gives another layout. */
    int64_t u[8];
    tokenring_layout_seeded_tokens(u, 8, 2, "10.0.0.1", NULL, 0, NULL);
    for (int v = 0; v < 8; v++)
        assert_true(t[v] != u[v]);
}

static void seeded_tokens_collisions(void **state)
{
    (void)state;
    /* Another node already holds vnode 0's first choice: vnode 0 takes attempt 1. */
    int64_t first = by_definition(5, "victim", 6, 0, 0);
    tokenring_topology *topo;
    assert_int_equal(tokenring_topology_new(&topo), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node(topo, "squatter", "dc1", "r1", &first, 1, NULL),
                     TOKENRING_OK);
    int64_t t[3];
    assert_int_equal(tokenring_layout_seeded_tokens(t, 3, 5, "victim", topo, 0, NULL),
                     TOKENRING_OK);
    assert_true(t[0] == by_definition(5, "victim", 6, 0, 1));
    assert_true(t[1] == by_definition(5, "victim", 6, 1, 0));
    assert_true(t[2] == by_definition(5, "victim", 6, 2, 0));
    /* Strict: a clear error naming the token and the other node. */
    tokenring_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(tokenring_layout_seeded_tokens(t, 3, 5, "victim", topo,
                                                    TOKENRING_LAYOUT_STRICT, &err),
                     TOKENRING_E_EXISTS);
    assert_int_equal(err.code, TOKENRING_E_EXISTS);
    assert_non_null(strstr(err.message, "squatter"));
    char num[32];
    snprintf(num, sizeof num, "%lld", (long long)first);
    assert_non_null(strstr(err.message, num));
    /* The node's own tokens in the topology are not "taken": it gets them back. */
    int64_t mine[4];
    tokenring_layout_seeded_tokens(mine, 4, 9, "self", NULL, 0, NULL);
    assert_int_equal(tokenring_topology_add_node(topo, "self", "dc1", "r1", mine, 4, NULL),
                     TOKENRING_OK);
    int64_t again[4];
    assert_int_equal(tokenring_layout_seeded_tokens(again, 4, 9, "self", topo,
                                                    TOKENRING_LAYOUT_STRICT, NULL),
                     TOKENRING_OK);
    assert_memory_equal(mine, again, sizeof mine);
    tokenring_topology_free(topo);
}

static void seeded_tokens_bad_input(void **state)
{
    (void)state;
    int64_t t[4];
    tokenring_error err;
    assert_int_equal(tokenring_layout_seeded_tokens(NULL, 4, 1, "a", NULL, 0, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_layout_seeded_tokens(t, 4, 1, NULL, NULL, 0, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_layout_seeded_tokens(t, 4, 1, "", NULL, 0, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_layout_seeded_tokens(t, 4, 1, "\xff\xfe", NULL, 0, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_layout_seeded_tokens(t, 0, 1, "a", NULL, 0, &err),
                     TOKENRING_E_RANGE);
    assert_int_equal(err.code, TOKENRING_E_RANGE);
    assert_int_equal(tokenring_layout_seeded_tokens(t, 4, 1, "a", NULL, 0x80, &err),
                     TOKENRING_E_INVAL);
}

static void add_seeded_nodes_keeps_existing_tokens(void **state)
{
    (void)state;
    tokenring_topology *six, *seven;
    assert_int_equal(tokenring_topology_new(&six), TOKENRING_OK);
    assert_int_equal(tokenring_topology_new(&seven), TOKENRING_OK);
    assert_int_equal(
        tokenring_layout_add_seeded_nodes(six, 1, 8, demo_names, NULL, NULL, 6, 0, NULL),
        TOKENRING_OK);
    assert_int_equal(
        tokenring_layout_add_seeded_nodes(seven, 1, 8, demo_names, NULL, NULL, 6, 0, NULL),
        TOKENRING_OK);
    assert_int_equal(
        tokenring_layout_add_seeded_nodes(seven, 1, 8, demo_names + 6, NULL, NULL, 1, 0, NULL),
        TOKENRING_OK);
    assert_int_equal(tokenring_topology_node_count(seven), 7);
    for (size_t i = 0; i < 6; i++) {
        tokenring_node_info a, b;
        tokenring_topology_node(&a, six, i);
        tokenring_topology_node(&b, seven, i);
        assert_string_equal(a.name, b.name);
        assert_string_equal(a.datacenter, "datacenter1");
        assert_string_equal(a.rack, "rack1");
        assert_int_equal(a.token_count, 8);
        assert_memory_equal(a.tokens, b.tokens, 8 * sizeof(int64_t));
        /* Each node's tokens are its seeded tokens (sorted by the topology). */
        int64_t expect[8];
        tokenring_layout_seeded_tokens(expect, 8, 1, a.name, NULL, 0, NULL);
        for (int v = 0; v < 8; v++) {
            int found = 0;
            for (int k = 0; k < 8; k++)
                found += a.tokens[k] == expect[v];
            assert_int_equal(found, 1);
        }
    }
    tokenring_topology_free(six);
    tokenring_topology_free(seven);
}

static void add_seeded_nodes_failure_leaves_topology(void **state)
{
    (void)state;
    tokenring_topology *t;
    tokenring_topology_new(&t);
    tokenring_layout_add_seeded_nodes(t, 1, 8, demo_names, NULL, NULL, 3, 0, NULL);
    const char *dup[] = { "fresh-1", "10.0.0.2" };
    tokenring_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(tokenring_layout_add_seeded_nodes(t, 1, 8, dup, NULL, NULL, 2, 0, &err),
                     TOKENRING_E_EXISTS);
    assert_non_null(strstr(err.message, "10.0.0.2"));
    assert_int_equal(tokenring_topology_node_count(t), 3);
    const char *twice[] = { "x", "x" };
    assert_int_equal(tokenring_layout_add_seeded_nodes(t, 1, 8, twice, NULL, NULL, 2, 0, &err),
                     TOKENRING_E_EXISTS);
    assert_int_equal(tokenring_topology_node_count(t), 3);
    const char *bad[] = { "ok", "" };
    assert_int_equal(tokenring_layout_add_seeded_nodes(t, 1, 8, bad, NULL, NULL, 2, 0, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_topology_node_count(t), 3);
    assert_int_equal(tokenring_layout_add_seeded_nodes(t, 1, 0, bad, NULL, NULL, 1, 0, &err),
                     TOKENRING_E_RANGE);
    assert_int_equal(tokenring_layout_add_seeded_nodes(NULL, 1, 8, bad, NULL, NULL, 1, 0, &err),
                     TOKENRING_E_INVAL);
    /* Datacenters and racks. */
    const char *names[] = { "a1", "b1" }, *dcs[] = { "east", "west" }, *racks[] = { "r1", "r2" };
    assert_int_equal(tokenring_layout_add_seeded_nodes(t, 1, 4, names, dcs, racks, 2, 0, &err),
                     TOKENRING_OK);
    tokenring_node_info ni;
    tokenring_topology_node(&ni, t, 4);
    assert_string_equal(ni.name, "b1");
    assert_string_equal(ni.datacenter, "west");
    assert_string_equal(ni.rack, "r2");
    tokenring_topology_free(t);
}

static void even_tokens_exact(void **state)
{
    (void)state;
    int64_t t[4];
    assert_int_equal(tokenring_layout_even_tokens(t, 4, 0, 1), TOKENRING_OK);
    assert_true(t[0] == TOKENRING_MIN_TOKEN);
    assert_true(t[1] == -4611686018427387904LL);
    assert_true(t[2] == 0);
    assert_true(t[3] == 4611686018427387904LL);
    /* One token, slot 1 of 3: MIN + floor(2^64 / 3). */
    int64_t one;
    assert_int_equal(tokenring_layout_even_tokens(&one, 1, 1, 3), TOKENRING_OK);
    assert_true(one == (int64_t)((uint64_t)TOKENRING_MIN_TOKEN + 6148914691236517205ULL));
    /* Rack offsets: 3 racks x 16 tokens interleave into 48 evenly spaced tokens. */
    int64_t all[48], r[16];
    for (uint32_t s = 0; s < 3; s++) {
        assert_int_equal(tokenring_layout_even_tokens(r, 16, s, 3), TOKENRING_OK);
        for (int j = 0; j < 16; j++)
            all[j * 3 + s] = r[j];
    }
    int64_t flat[48];
    tokenring_layout_even_tokens(flat, 48, 0, 1);
    assert_memory_equal(all, flat, sizeof flat);
    for (int j = 1; j < 48; j++)
        assert_true(all[j] > all[j - 1]);
    assert_int_equal(tokenring_layout_even_tokens(NULL, 4, 0, 1), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_layout_even_tokens(t, 0, 0, 1), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_layout_even_tokens(t, 4, 1, 1), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_layout_even_tokens(t, 4, 0, 0), TOKENRING_E_RANGE);
}

/* ------------------------------------------------------------ racks of new nodes */

static void assign_racks_round_robin(void **state)
{
    (void)state;
    uint32_t dc[12], rack[12];
    /* one datacenter, counts 2,1,3: round-robin skipping full racks */
    const uint32_t counts[] = { 2, 1, 3 };
    assert_int_equal(tokenring_layout_assign_racks(dc, rack, 6, 1, 3, counts, NULL),
                     TOKENRING_OK);
    const uint32_t want[] = { 0, 1, 2, 0, 2, 2 };
    for (size_t i = 0; i < 6; i++) {
        assert_int_equal(rack[i], want[i]);
        assert_int_equal(dc[i], 0);
    }
    /* generatetokens --racks 2,2,2: rack1 rack2 rack3 rack1 rack2 rack3 */
    const uint32_t even[] = { 2, 2, 2 };
    assert_int_equal(tokenring_layout_assign_racks(NULL, rack, 6, 1, 3, even, NULL),
                     TOKENRING_OK);
    for (size_t i = 0; i < 6; i++)
        assert_int_equal(rack[i], i % 3);
    /* no counts, two datacenters, two racks: the lab's layout (dc i mod 2, rack
     * (i div 2) mod 2) */
    assert_int_equal(tokenring_layout_assign_racks(dc, rack, 7, 2, 2, NULL, NULL),
                     TOKENRING_OK);
    for (size_t i = 0; i < 7; i++) {
        assert_int_equal(dc[i], i % 2);
        assert_int_equal(rack[i], (i / 2) % 2);
    }
    /* counts per datacenter: each datacenter gets the same racks in the same order */
    const uint32_t c31[] = { 3, 1 };
    assert_int_equal(tokenring_layout_assign_racks(dc, rack, 8, 2, 2, c31, NULL),
                     TOKENRING_OK);
    const uint32_t want2[] = { 0, 0, 1, 1, 0, 0, 0, 0 };
    for (size_t i = 0; i < 8; i++) {
        assert_int_equal(dc[i], i % 2);
        assert_int_equal(rack[i], want2[i]);
    }
    /* nothing to place */
    assert_int_equal(tokenring_layout_assign_racks(NULL, NULL, 0, 1, 1, NULL, NULL),
                     TOKENRING_OK);
}

static void assign_racks_bad_input(void **state)
{
    (void)state;
    uint32_t rack[4] = { 9, 9, 9, 9 }, dc[4] = { 9, 9, 9, 9 };
    tokenring_error err;
    const uint32_t c11[] = { 1, 1 }, c10[] = { 1, 0 };
    memset(&err, 0, sizeof err);
    assert_int_equal(tokenring_layout_assign_racks(dc, rack, 3, 1, 2, c11, &err),
                     TOKENRING_E_INVAL);
    assert_string_equal(err.message, "the counts add up to 2, not to the 3 nodes");
    assert_int_equal(tokenring_layout_assign_racks(dc, rack, 3, 2, 2, c11, &err),
                     TOKENRING_E_INVAL);
    assert_non_null(strstr(err.message, "per datacenter"));
    assert_int_equal(tokenring_layout_assign_racks(dc, rack, 1, 1, 2, c10, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_layout_assign_racks(dc, NULL, 1, 1, 1, NULL, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_layout_assign_racks(dc, rack, 1, 0, 1, NULL, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_layout_assign_racks(dc, rack, 1, 1, 0, NULL, &err),
                     TOKENRING_E_INVAL);
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(rack[i], 9); /* outputs unchanged on error */
        assert_int_equal(dc[i], 9);
    }
}

static void rack_names(void **state)
{
    (void)state;
    char b[16];
    size_t n = 0;
    assert_int_equal(tokenring_layout_rack_name(b, sizeof b, &n, 0), TOKENRING_OK);
    assert_string_equal(b, "rack1");
    assert_int_equal(n, 5);
    assert_int_equal(tokenring_layout_rack_name(b, sizeof b, &n, UINT32_MAX), TOKENRING_OK);
    assert_string_equal(b, "rack4294967296");
    assert_int_equal(n, 14);
    /* the NUL must fit */
    assert_int_equal(tokenring_layout_rack_name(b, 5, &n, 0), TOKENRING_E_BUFSIZE);
    assert_int_equal(n, 5);
    assert_int_equal(tokenring_layout_rack_name(NULL, 0, &n, 11), TOKENRING_E_BUFSIZE);
    assert_int_equal(n, 6);
    assert_int_equal(tokenring_layout_rack_name(b, 6, &n, 0), TOKENRING_OK);
    assert_int_equal(tokenring_layout_rack_name(b, 6, NULL, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_layout_rack_name(NULL, 6, &n, 0), TOKENRING_E_INVAL);
}


/* ------------------------------------------------------------ RandomPartitioner */

static tokenring_token128 parse128(const char *text)
{
    tokenring_token128 t;
    assert_int_equal(tokenring_token128_parse(&t, text, strlen(text), NULL), TOKENRING_OK);
    return t;
}

static bool eq128(tokenring_token128 a, tokenring_token128 b)
{
    return a.hi == b.hi && a.lo == b.lo;
}

static bool below128(tokenring_token128 a, tokenring_token128 b)
{
    return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
}

/* The documented byte layout, given to the public RandomPartitioner token function. */
static tokenring_token128 by_definition128(uint64_t seed, const char *id, size_t len,
                                           uint32_t v, uint32_t a)
{
    uint8_t buf[512];
    size_t n = 0;
    memcpy(buf, "tokenring-layout-v1", 19);
    n = 19;
    for (int i = 7; i >= 0; i--)
        buf[n++] = (uint8_t)(seed >> (8 * i));
    for (int i = 3; i >= 0; i--)
        buf[n++] = (uint8_t)((uint32_t)len >> (8 * i));
    memcpy(buf + n, id, len);
    n += len;
    for (int i = 3; i >= 0; i--)
        buf[n++] = (uint8_t)(v >> (8 * i));
    if (a > 0)
        for (int i = 3; i >= 0; i--)
            buf[n++] = (uint8_t)(a >> (8 * i));
    return tokenring_random_token(buf, n);
}

/* The three forms of the even layout are one layout: the Murmur3 tokens, the
 * RandomPartitioner tokens and the text lists of both agree token by token, on several
 * shapes (including the cap and the last slot of many). */
static void even_tokens_forms_agree(void **state)
{
    (void)state;
    static const struct { uint32_t n, slot, slots; } shapes[] = {
        { 1, 0, 1 }, { 4, 0, 1 }, { 16, 2, 3 }, { 7, 6, 7 }, { 256, 5, 12 },
        { 3, 65534, 65535 }, { TOKENRING_LAYOUT_MAX_TOKENS, 1, 2 },
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        uint32_t n = shapes[i].n;
        int64_t *m3 = calloc(n, sizeof *m3);
        tokenring_token128 *rp = calloc(n, sizeof *rp);
        assert_non_null(m3);
        assert_non_null(rp);
        assert_int_equal(tokenring_layout_even_tokens(m3, n, shapes[i].slot, shapes[i].slots),
                         TOKENRING_OK);
        assert_int_equal(tokenring_layout_even_tokens128(rp, n, shapes[i].slot,
                                                         shapes[i].slots),
                         TOKENRING_OK);
        tokenring_token_list *lm = NULL, *lr = NULL;
        tokenring_error err;
        assert_int_equal(tokenring_layout_even_tokens_text(&lm, TOKENRING_PARTITIONER_MURMUR3, n,
                                                           shapes[i].slot, shapes[i].slots,
                                                           &err),
                         TOKENRING_OK);
        assert_int_equal(tokenring_layout_even_tokens_text(&lr, TOKENRING_PARTITIONER_RANDOM, n,
                                                           shapes[i].slot, shapes[i].slots,
                                                           &err),
                         TOKENRING_OK);
        assert_int_equal(tokenring_token_list_count(lm), n);
        assert_int_equal(tokenring_token_list_count(lr), n);
        for (uint32_t j = 0; j < n; j++) {
            char want[TOKENRING_TOKEN128_TEXT_MAX];
            size_t len;
            snprintf(want, sizeof want, "%lld", (long long)m3[j]);
            assert_string_equal(tokenring_token_list_get(lm, j, &len), want);
            assert_int_equal(len, strlen(want));
            assert_int_equal(tokenring_token128_format(want, sizeof want, &len, rp[j]),
                             TOKENRING_OK);
            assert_string_equal(tokenring_token_list_get(lr, j, &len), want);
            /* the same fraction of the ring: the Murmur3 offset from the minimum,
             * floor(p 2^64 / d), is the RandomPartitioner value floor(p 2^127 / d) without
             * its low 63 bits (floor of a floor) */
            uint64_t off64 = (uint64_t)m3[j] ^ 0x8000000000000000ULL;
            uint64_t top = rp[j].hi << 1 | rp[j].lo >> 63;
            assert_true(top == off64);
        }
        tokenring_token_list_free(lm);
        tokenring_token_list_free(lr);
        free(m3);
        free(rp);
    }
}

static void even_tokens128_exact(void **state)
{
    (void)state;
    /* One token per node, node i of N: i * 2^127 / N (Python big integers). */
    static const struct {
        uint32_t slot, slots;
        const char *token;
    } v[] = {
        { 0, 3, "0" },
        { 1, 3, "56713727820156410577229101238628035242" },
        { 2, 3, "113427455640312821154458202477256070485" },
        { 1, 4, "42535295865117307932921825928971026432" },
        { 3, 4, "127605887595351923798765477786913079296" },
        { 6, 7, "145835300108973627198589117470757804909" },
        { 11, 12, "155962751505430129087380028406227096917" },
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        tokenring_token128 t = { 9, 9 };
        assert_int_equal(tokenring_layout_even_tokens128(&t, 1, v[i].slot, v[i].slots),
                         TOKENRING_OK);
        assert_true(eq128(t, parse128(v[i].token)));
    }
    /* Four tokens of one node: 0, 2^125, 2^126, 3 * 2^125. */
    tokenring_token128 four[4];
    assert_int_equal(tokenring_layout_even_tokens128(four, 4, 0, 1), TOKENRING_OK);
    assert_true(four[0].hi == 0 && four[0].lo == 0);
    assert_true(four[1].hi == UINT64_C(1) << 61 && four[1].lo == 0);
    assert_true(four[2].hi == UINT64_C(1) << 62 && four[2].lo == 0);
    assert_true(four[3].hi == UINT64_C(3) << 61 && four[3].lo == 0);
    /* 16 tokens, slot 2 of 3, token 5: floor(17 * 2^127 / 48). */
    tokenring_token128 r[16];
    assert_int_equal(tokenring_layout_even_tokens128(r, 16, 2, 3), TOKENRING_OK);
    assert_true(eq128(r[5], parse128("60258335808916186238305920066042287445")));
    /* The largest case: the last token of the last slot stays below 2^127. */
    static tokenring_token128 big[TOKENRING_LAYOUT_MAX_TOKENS];
    assert_int_equal(tokenring_layout_even_tokens128(big, TOKENRING_LAYOUT_MAX_TOKENS, 65534,
                                                     65535),
                     TOKENRING_OK);
    assert_true(eq128(big[TOKENRING_LAYOUT_MAX_TOKENS - 1],
                      parse128("170141183420854546002421814828034129919")));
    assert_true(big[TOKENRING_LAYOUT_MAX_TOKENS - 1].hi == UINT64_C(0x7fffffff7fff7fff));
    for (size_t j = 1; j < TOKENRING_LAYOUT_MAX_TOKENS; j++)
        assert_true(below128(big[j - 1], big[j]));
    /* Slots interleave: 3 slots x 16 tokens are the 48 tokens of one slot. */
    tokenring_token128 all[48], flat[48];
    for (uint32_t sl = 0; sl < 3; sl++) {
        assert_int_equal(tokenring_layout_even_tokens128(r, 16, sl, 3), TOKENRING_OK);
        for (int j = 0; j < 16; j++)
            all[j * 3 + sl] = r[j];
    }
    assert_int_equal(tokenring_layout_even_tokens128(flat, 48, 0, 1), TOKENRING_OK);
    assert_memory_equal(all, flat, sizeof flat);
    /* Ascending, spaced floor or ceil of 2^127 / 48 apart (that step is
     * 3544607988759775661076818827414252202.66...). */
    tokenring_token128 step = parse128("3544607988759775661076818827414252202");
    for (int j = 1; j < 48; j++) {
        assert_true(below128(flat[j - 1], flat[j]));
        uint64_t lo = flat[j].lo - flat[j - 1].lo;
        uint64_t hi = flat[j].hi - flat[j - 1].hi - (flat[j].lo < flat[j - 1].lo);
        assert_true(hi == step.hi && (lo == step.lo || lo == step.lo + 1));
    }
    /* Errors: as tokenring_layout_even_tokens(). */
    tokenring_token128 one = { 7, 7 };
    assert_int_equal(tokenring_layout_even_tokens128(NULL, 1, 0, 1), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_layout_even_tokens128(&one, 0, 0, 1), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_layout_even_tokens128(&one, TOKENRING_LAYOUT_MAX_TOKENS + 1, 0, 1),
                     TOKENRING_E_RANGE);
    assert_int_equal(tokenring_layout_even_tokens128(&one, 1, 0, 0), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_layout_even_tokens128(&one, 1, 3, 3), TOKENRING_E_RANGE);
    assert_true(one.hi == 7 && one.lo == 7);
}

static void seeded_token128_pinned_values(void **state)
{
    (void)state;
    /* Computed in Python: abs(int.from_bytes(hashlib.md5(bytes).digest(), "big",
     * signed=True)) of the documented byte string. */
    static const struct {
        uint64_t seed;
        const char *id;
        uint32_t vnode, attempt;
        const char *token;
    } v[] = {
        { 1, "10.0.0.1", 0, 0, "144675658811347221704957138149180670279" },
        { 1, "10.0.0.1", 7, 0, "3700401186300025711594979412657921823" },
        { 1, "10.0.0.6", 3, 0, "71957342164915684988901587533062195306" },
        { 2, "10.0.0.1", 0, 0, "120440333400589864162359911036662375419" },
        { 1, "10.0.0.1", 0, 1, "70418675600109400859289483589002120350" },
        { 0, "", 0, 0, "69755332666340034779905587657002503579" },
        { 12345678901234567890ULL, "n\xc3\xa9ud-\xe2\x82\xac", 65535, 7,
          "12356620107560518718617875316342653595" },
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        tokenring_token128 t = { 0, 0 };
        assert_int_equal(tokenring_layout_seeded_token128(&t, v[i].seed, v[i].id,
                                                          strlen(v[i].id), v[i].vnode,
                                                          v[i].attempt),
                         TOKENRING_OK);
        assert_true(eq128(t, parse128(v[i].token)));
        assert_true(eq128(t, by_definition128(v[i].seed, v[i].id, strlen(v[i].id),
                                              v[i].vnode, v[i].attempt)));
    }
    for (uint32_t vn = 0; vn < 300; vn++) {
        tokenring_token128 t;
        assert_int_equal(tokenring_layout_seeded_token128(&t, vn * 7919u, "node-x", 6, vn,
                                                          vn % 3),
                         TOKENRING_OK);
        assert_true(eq128(t, by_definition128(vn * 7919u, "node-x", 6, vn, vn % 3)));
        assert_true(t.hi <= TOKENRING_TOKEN128_MAX_HI); /* 0 .. 2^127, never -1 */
    }
    /* Bad input, as tokenring_layout_seeded_token(). */
    tokenring_token128 t;
    char big[300];
    memset(big, 'a', sizeof big);
    assert_int_equal(tokenring_layout_seeded_token128(NULL, 1, "a", 1, 0, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_layout_seeded_token128(&t, 1, NULL, 1, 0, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_layout_seeded_token128(&t, 1, big, 256, 0, 0), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_layout_seeded_token128(&t, 1, big, 255, 0, 0), TOKENRING_OK);
    assert_true(eq128(t, by_definition128(1, big, 255, 0, 0)));
}

static void seeded_tokens128_vnodes_and_collisions(void **state)
{
    (void)state;
    tokenring_token128 t[100];
    assert_int_equal(tokenring_layout_seeded_tokens128(t, 100, 1, "10.0.0.1", NULL, 0, NULL),
                     TOKENRING_OK);
    for (uint32_t v = 0; v < 100; v++)
        assert_true(eq128(t[v], by_definition128(1, "10.0.0.1", 8, v, 0)));
    assert_int_equal(tokenring_layout_seeded_tokens128(t, 3, 1, "10.0.0.1", NULL, 0, NULL),
                     TOKENRING_OK);
    assert_true(eq128(t[0], parse128("144675658811347221704957138149180670279")));
    /* Another node holds vnode 0's first choice: vnode 0 takes attempt 1. */
    tokenring_token128 first = by_definition128(5, "victim", 6, 0, 0);
    tokenring_topology *topo;
    assert_int_equal(tokenring_topology_new_partitioned(&topo, TOKENRING_PARTITIONER_RANDOM),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node128(topo, "squatter", "dc1", "r1", &first, 1,
                                                    NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_layout_seeded_tokens128(t, 3, 5, "victim", topo, 0, NULL),
                     TOKENRING_OK);
    assert_true(eq128(t[0], by_definition128(5, "victim", 6, 0, 1)));
    assert_true(eq128(t[1], by_definition128(5, "victim", 6, 1, 0)));
    assert_true(eq128(t[2], by_definition128(5, "victim", 6, 2, 0)));
    /* Strict: the token in decimal and the other node. */
    tokenring_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(tokenring_layout_seeded_tokens128(t, 3, 5, "victim", topo,
                                                       TOKENRING_LAYOUT_STRICT, &err),
                     TOKENRING_E_EXISTS);
    assert_int_equal(err.code, TOKENRING_E_EXISTS);
    char num[TOKENRING_TOKEN128_TEXT_MAX];
    size_t nl;
    assert_int_equal(tokenring_token128_format(num, sizeof num, &nl, first), TOKENRING_OK);
    char want[400];
    snprintf(want, sizeof want,
             "seeded token %s of node 'victim' (vnode 0) is already held by node 'squatter'",
             num);
    assert_string_equal(err.message, want);
    /* The node's own tokens in the topology are not "taken": it gets them back. */
    tokenring_token128 mine[4], again[4];
    assert_int_equal(tokenring_layout_seeded_tokens128(mine, 4, 9, "self", NULL, 0, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node128(topo, "self", "dc1", "r1", mine, 4, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_layout_seeded_tokens128(again, 4, 9, "self", topo,
                                                       TOKENRING_LAYOUT_STRICT, NULL),
                     TOKENRING_OK);
    assert_memory_equal(mine, again, sizeof mine);
    /* A topology of another partitioner is refused, both ways. */
    tokenring_topology *m3, *bop;
    assert_int_equal(tokenring_topology_new(&m3), TOKENRING_OK);
    assert_int_equal(tokenring_topology_new_partitioned(&bop,
                                                        TOKENRING_PARTITIONER_BYTE_ORDERED),
                     TOKENRING_OK);
    assert_int_equal(tokenring_layout_seeded_tokens128(t, 3, 5, "victim", m3, 0, &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_string_equal(err.message,
                        "tokenring_layout_seeded_tokens128: the taken topology's partitioner "
                        "is org.apache.cassandra.dht.Murmur3Partitioner, not "
                        "org.apache.cassandra.dht.RandomPartitioner");
    assert_int_equal(tokenring_layout_seeded_tokens128(t, 3, 5, "victim", bop, 0, &err),
                     TOKENRING_E_UNSUPPORTED);
    int64_t t64[3];
    assert_int_equal(tokenring_layout_seeded_tokens(t64, 3, 5, "victim", topo, 0, &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_non_null(strstr(err.message, "RandomPartitioner, not "
                                        "org.apache.cassandra.dht.Murmur3Partitioner"));
    assert_int_equal(tokenring_layout_seeded_tokens(t64, 3, 5, "victim", bop, 0, &err),
                     TOKENRING_E_UNSUPPORTED);
    tokenring_topology_free(m3);
    tokenring_topology_free(bop);
    tokenring_topology_free(topo);
    /* Bad input. */
    assert_int_equal(tokenring_layout_seeded_tokens128(NULL, 4, 1, "a", NULL, 0, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_layout_seeded_tokens128(t, 4, 1, NULL, NULL, 0, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_layout_seeded_tokens128(t, 4, 1, "", NULL, 0, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_layout_seeded_tokens128(t, 4, 1, "\xff\xfe", NULL, 0, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_layout_seeded_tokens128(t, 0, 1, "a", NULL, 0, &err),
                     TOKENRING_E_RANGE);
    assert_int_equal(err.code, TOKENRING_E_RANGE);
    assert_int_equal(tokenring_layout_seeded_tokens128(t, TOKENRING_LAYOUT_MAX_TOKENS + 1, 1,
                                                       "a", NULL, 0, &err),
                     TOKENRING_E_RANGE);
    assert_int_equal(tokenring_layout_seeded_tokens128(t, 4, 1, "a", NULL, 0x80, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_layout_seeded_tokens(t64, TOKENRING_LAYOUT_MAX_TOKENS + 1, 1,
                                                    "a", NULL, 0, &err),
                     TOKENRING_E_RANGE);
}

/* Node i's tokens of a RandomPartitioner topology are exactly `want` (any order). */
static void assert_node_tokens128(const tokenring_topology *t, size_t i,
                                  const tokenring_token128 *want, size_t n)
{
    tokenring_node_info ni;
    assert_int_equal(tokenring_topology_node(&ni, t, i), TOKENRING_OK);
    assert_int_equal(ni.token_count, n);
    for (size_t v = 0; v < n; v++) {
        int found = 0;
        for (size_t k = 0; k < n; k++) {
            tokenring_token128 got;
            assert_int_equal(tokenring_topology_node_token128(&got, t, i, k), TOKENRING_OK);
            found += eq128(got, want[v]);
        }
        assert_int_equal(found, 1);
    }
}

static void add_seeded_nodes_random(void **state)
{
    (void)state;
    tokenring_topology *six, *seven;
    assert_int_equal(tokenring_topology_new_partitioned(&six, TOKENRING_PARTITIONER_RANDOM),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_new_partitioned(&seven, TOKENRING_PARTITIONER_RANDOM),
                     TOKENRING_OK);
    assert_int_equal(
        tokenring_layout_add_seeded_nodes(six, 1, 8, demo_names, NULL, NULL, 6, 0, NULL),
        TOKENRING_OK);
    assert_int_equal(
        tokenring_layout_add_seeded_nodes(seven, 1, 8, demo_names, NULL, NULL, 6, 0, NULL),
        TOKENRING_OK);
    assert_int_equal(
        tokenring_layout_add_seeded_nodes(seven, 1, 8, demo_names + 6, NULL, NULL, 1, 0, NULL),
        TOKENRING_OK);
    assert_int_equal(tokenring_topology_node_count(seven), 7);
    for (size_t i = 0; i < 7; i++) {
        tokenring_node_info a;
        tokenring_topology_node(&a, seven, i);
        assert_string_equal(a.name, demo_names[i]);
        assert_string_equal(a.datacenter, "datacenter1");
        assert_string_equal(a.rack, "rack1");
        tokenring_token128 expect[8];
        for (uint32_t v = 0; v < 8; v++)
            expect[v] = by_definition128(1, a.name, strlen(a.name), v, 0);
        assert_node_tokens128(seven, i, expect, 8);
        if (i < 6)
            assert_node_tokens128(six, i, expect, 8);
    }
    tokenring_topology_free(six);
    /* A node holding another's first choice: the newcomer takes attempt 1, or with
     * STRICT nothing is added. */
    tokenring_token128 first = by_definition128(3, "victim", 6, 0, 0);
    assert_int_equal(tokenring_topology_add_node128(seven, "squatter", "dc1", "r1", &first, 1,
                                                    NULL),
                     TOKENRING_OK);
    const char *names[] = { "fresh", "victim" }, *dcs[] = { "east", "west" },
               *racks[] = { "r1", "r2" };
    tokenring_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(tokenring_layout_add_seeded_nodes(seven, 3, 2, names, dcs, racks, 2,
                                                       TOKENRING_LAYOUT_STRICT, &err),
                     TOKENRING_E_EXISTS);
    assert_non_null(strstr(err.message, "already held by node 'squatter'"));
    assert_int_equal(tokenring_topology_node_count(seven), 8);
    const char *dup[] = { "fresh", "10.0.0.2" };
    assert_int_equal(tokenring_layout_add_seeded_nodes(seven, 3, 2, dup, NULL, NULL, 2, 0, &err),
                     TOKENRING_E_EXISTS);
    assert_int_equal(tokenring_topology_node_count(seven), 8);
    assert_int_equal(tokenring_layout_add_seeded_nodes(seven, 3, 2, names, dcs, racks, 2, 0,
                                                       &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_node_count(seven), 10);
    /* Refusals before anything is planned: flags, bad datacenter or rack names; nothing
     * to add is fine. */
    const char *more[] = { "m1" }, *bad_dc[] = { "" }, *bad_rack[] = { "\xff" };
    assert_int_equal(tokenring_layout_add_seeded_nodes(seven, 3, 2, more, NULL, NULL, 1, 0x80,
                                                       &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_layout_add_seeded_nodes(seven, 3, 2, more, bad_dc, NULL, 1, 0,
                                                       &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_layout_add_seeded_nodes(seven, 3, 2, more, NULL, bad_rack, 1, 0,
                                                       &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_layout_add_seeded_nodes(seven, 3, 2, NULL, NULL, NULL, 0, 0,
                                                       &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_node_count(seven), 10);
    tokenring_token128 victim[2] = { by_definition128(3, "victim", 6, 0, 1),
                                     by_definition128(3, "victim", 6, 1, 0) };
    assert_node_tokens128(seven, 9, victim, 2);
    tokenring_node_info ni;
    tokenring_topology_node(&ni, seven, 9);
    assert_string_equal(ni.datacenter, "west");
    assert_string_equal(ni.rack, "r2");
    tokenring_topology_free(seven);
}

static void add_seeded_nodes_byte_ordered(void **state)
{
    (void)state;
    tokenring_topology *t;
    assert_int_equal(tokenring_topology_new_partitioned(&t, TOKENRING_PARTITIONER_BYTE_ORDERED),
                     TOKENRING_OK);
    tokenring_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(tokenring_layout_add_seeded_nodes(t, 1, 8, demo_names, NULL, NULL, 2, 0,
                                                       &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_int_equal(err.code, TOKENRING_E_UNSUPPORTED);
    assert_non_null(strstr(err.message, "ByteOrderedPartitioner has no token allocation"));
    /* Refused also with nothing to add, and with an existing node. */
    assert_int_equal(tokenring_layout_add_seeded_nodes(t, 1, 8, demo_names, NULL, NULL, 0, 0,
                                                       &err),
                     TOKENRING_E_UNSUPPORTED);
    const uint8_t *tok[1] = { (const uint8_t *)"k" };
    size_t len[1] = { 1 };
    assert_int_equal(tokenring_topology_add_node_bytes(t, "b1", "dc1", "r1", tok, len, 1, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_layout_add_seeded_nodes(t, 1, 8, demo_names, NULL, NULL, 2, 0,
                                                       &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_int_equal(tokenring_topology_node_count(t), 1);
    tokenring_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(seeded_token_pinned_values),
        cmocka_unit_test(seeded_token_bad_input),
        cmocka_unit_test(seeded_tokens_vnode_order),
        cmocka_unit_test(seeded_tokens_collisions),
        cmocka_unit_test(seeded_tokens_bad_input),
        cmocka_unit_test(add_seeded_nodes_keeps_existing_tokens),
        cmocka_unit_test(add_seeded_nodes_failure_leaves_topology),
        cmocka_unit_test(even_tokens_exact),
        cmocka_unit_test(assign_racks_round_robin),
        cmocka_unit_test(assign_racks_bad_input),
        cmocka_unit_test(rack_names),
        cmocka_unit_test(even_tokens128_exact),
        cmocka_unit_test(even_tokens_forms_agree),
        cmocka_unit_test(seeded_token128_pinned_values),
        cmocka_unit_test(seeded_tokens128_vnodes_and_collisions),
        cmocka_unit_test(add_seeded_nodes_random),
        cmocka_unit_test(add_seeded_nodes_byte_ordered),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
