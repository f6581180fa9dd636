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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
