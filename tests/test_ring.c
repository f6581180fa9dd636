/* SPDX-License-Identifier: Apache-2.0 */
/* Rings, placements and ownership through the public API: the toy worked example of
 * issue 2, the exact scaled shares, node numbering and states, and every documented
 * error. Replication descriptions are test_replication.c. */
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
#include "testrng.h"

__extension__ typedef unsigned __int128 u128;

static double dabs(double x)
{
    return x < 0 ? -x : x;
}

static u128 u128_of(tokenring_u128 v)
{
    return ((u128)v.hi << 64) | v.lo;
}

static tokenring_topology *toy_topology(const int64_t pos[6])
{
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    const int64_t a[] = { pos[0], pos[1] }, b[] = { pos[2], pos[3] }, c[] = { pos[4], pos[5] };
    assert_int_equal(tokenring_topology_add_node(t, "A", "dc1", "r1", a, 2, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node(t, "B", "dc1", "r1", b, 2, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node(t, "C", "dc1", "r1", c, 2, NULL), TOKENRING_OK);
    return t;
}

static const int64_t TOY[6] = { 10, 50, 30, 80, 65, 95 };

static tokenring_ring *toy_ring(void)
{
    tokenring_topology *t = toy_topology(TOY);
    tokenring_ring *r = NULL;
    assert_int_equal(tokenring_ring_build(&r, t, NULL), TOKENRING_OK);
    tokenring_topology_free(t); /* the ring keeps its own copy */
    return r;
}

static const char *name_of(const tokenring_ring *r, uint32_t node)
{
    tokenring_node_info ni;
    assert_int_equal(tokenring_ring_node(&ni, r, node), TOKENRING_OK);
    return ni.name;
}

/* "A,C" from a replica list. */
static void names(char *buf, size_t cap, const tokenring_ring *r, const tokenring_replicas *x)
{
    size_t len = 0;
    buf[0] = '\0';
    for (uint32_t k = 0; k < x->count; k++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s%s", k ? "," : "",
                                name_of(r, x->nodes[k]),
                                x->transient && x->transient[k] ? "~" : "");
}

static tokenring_placement *simple_placement(const tokenring_ring *r, int rf)
{
    tokenring_replication *repl = NULL;
    assert_int_equal(tokenring_replication_simple(&repl, rf, 0, NULL), TOKENRING_OK);
    tokenring_placement *p = NULL;
    assert_int_equal(tokenring_placement_build(&p, r, repl, 0, NULL), TOKENRING_OK);
    tokenring_replication_free(repl); /* the placement does not keep it */
    return p;
}

/* ------------------------------------------------------------ toy example */

static void toy_owner_ranges_and_replicas(void **state)
{
    (void)state;
    tokenring_ring *r = toy_ring();
    size_t n;
    const int64_t *tokens = tokenring_ring_tokens(r, &n);
    const uint32_t *owners = tokenring_ring_token_nodes(r, NULL);
    assert_int_equal(n, 6);
    const int64_t sorted[] = { 10, 30, 50, 65, 80, 95 };
    const char *owner_names[] = { "A", "B", "A", "C", "B", "C" };
    for (size_t i = 0; i < 6; i++) {
        assert_int_equal(tokens[i], sorted[i]);
        assert_string_equal(name_of(r, owners[i]), owner_names[i]);
    }
    /* Key token 42 -> A, range (30, 50]. */
    uint32_t node;
    tokenring_range range;
    assert_int_equal(tokenring_ring_owner(&node, r, 42), TOKENRING_OK);
    assert_string_equal(name_of(r, node), "A");
    assert_int_equal(tokenring_ring_range_of(&range, r, 42), TOKENRING_OK);
    assert_int_equal(range.start, 30);
    assert_int_equal(range.end, 50);
    assert_int_equal(range.index, 2);
    assert_true(u128_of(range.width) == 20);
    assert_string_equal(name_of(r, range.owner), "A");
    /* 97 wraps to 10 -> A, range (95, 10], width 2^64 - 85. */
    assert_int_equal(tokenring_ring_range_of(&range, r, 97), TOKENRING_OK);
    assert_int_equal(range.start, 95);
    assert_int_equal(range.end, 10);
    assert_int_equal(range.index, 0);
    assert_true(u128_of(range.width) == ((u128)1 << 64) - 85);
    assert_string_equal(name_of(r, range.owner), "A");
    /* Exact hits belong to that token's node; one past goes on. */
    assert_int_equal(tokenring_ring_owner(&node, r, 50), TOKENRING_OK);
    assert_string_equal(name_of(r, node), "A");
    assert_int_equal(tokenring_ring_owner(&node, r, 10), TOKENRING_OK);
    assert_string_equal(name_of(r, node), "A");
    assert_int_equal(tokenring_ring_owner(&node, r, 11), TOKENRING_OK);
    assert_string_equal(name_of(r, node), "B");
    assert_int_equal(tokenring_ring_owner(&node, r, TOKENRING_MIN_TOKEN), TOKENRING_OK);
    assert_string_equal(name_of(r, node), "A");
    assert_int_equal(tokenring_ring_owner(&node, r, TOKENRING_MAX_TOKEN), TOKENRING_OK);
    assert_string_equal(name_of(r, node), "A");
    assert_int_equal(tokenring_ring_search(r, 95), 5);
    assert_int_equal(tokenring_ring_search(r, 96), 0);
    assert_int_equal(tokenring_ring_search(r, 65), 3);
    assert_int_equal(tokenring_ring_search(r, 64), 3);

    /* SimpleStrategy rf 2: 42 -> {A, C}, 97 -> {A, B}. */
    tokenring_placement *p = simple_placement(r, 2);
    assert_ptr_equal(tokenring_placement_ring(p), r);
    tokenring_replicas x;
    char buf[256];
    assert_int_equal(tokenring_placement_replicas(&x, p, 42), TOKENRING_OK);
    names(buf, sizeof buf, r, &x);
    assert_string_equal(buf, "A,C");
    assert_int_equal(x.range_index, 2);
    assert_null(x.transient);
    assert_int_equal(tokenring_placement_replicas(&x, p, 97), TOKENRING_OK);
    names(buf, sizeof buf, r, &x);
    assert_string_equal(buf, "A,B");
    assert_int_equal(x.range_index, 0);
    /* Every range: (t_i-1, t_i] -> owner then the next distinct node. */
    const char *expect[] = { "A,B", "B,A", "A,C", "C,B", "B,C", "C,A" };
    for (size_t i = 0; i < 6; i++) {
        assert_int_equal(tokenring_placement_range_replicas(&x, p, i), TOKENRING_OK);
        names(buf, sizeof buf, r, &x);
        assert_string_equal(buf, expect[i]);
        assert_int_equal(x.range_index, i);
        tokenring_replicas s;
        assert_int_equal(tokenring_placement_set(&s, p, x.set_id), TOKENRING_OK);
        assert_ptr_equal(s.nodes, x.nodes);
        assert_int_equal(s.set_id, x.set_id);
        assert_true(s.range_index <= i);
    }
    assert_int_equal(tokenring_placement_set_count(p), 6);
    assert_int_equal(tokenring_placement_range_replicas(&x, p, 6), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_placement_set(&x, p, 6), TOKENRING_E_RANGE);

    /* Keys whose tokens are exactly 10, 50 and 95 (from the vectors' README). */
    static const uint8_t k10[] = { 0x63, 0x4f, 0xb9, 0x0c, 0x82, 0x26, 0x1a, 0x2d,
                                   0x1e, 0x5e, 0x67, 0x4b, 0x21, 0x0e, 0x9b, 0xe3 };
    static const uint8_t k50[] = { 0xc9, 0xae, 0x85, 0xcd, 0x5e, 0x14, 0xd7, 0x26,
                                   0x64, 0x84, 0x30, 0x9e, 0x80, 0x1e, 0xd1, 0xe8 };
    static const uint8_t k95[] = { 0x86, 0x04, 0x13, 0x33, 0xf9, 0x58, 0x5f, 0x9e,
                                   0x6f, 0xe6, 0xf5, 0x26, 0xa0, 0x21, 0x23, 0x1c };
    assert_int_equal(tokenring_placement_replicas_for_key(&x, p, k10, 16), TOKENRING_OK);
    assert_int_equal(x.range_index, 0);
    assert_int_equal(tokenring_placement_replicas_for_key(&x, p, k50, 16), TOKENRING_OK);
    assert_int_equal(x.range_index, 2);
    assert_int_equal(tokenring_placement_replicas_for_key(&x, p, k95, 16), TOKENRING_OK);
    assert_int_equal(x.range_index, 5);
    names(buf, sizeof buf, r, &x);
    assert_string_equal(buf, "C,A");
    /* The empty key hashes to the minimum token: range 0. */
    assert_int_equal(tokenring_placement_replicas_for_key(&x, p, NULL, 0), TOKENRING_OK);
    assert_int_equal(x.range_index, 0);
    assert_int_equal(tokenring_placement_replicas_for_key(&x, p, NULL, 1), TOKENRING_E_INVAL);

    /* tokenring_placement_key_set_id returns the set id replicas_for_key gives, key by
     * key (the three keys above, the empty key and 200 keys of 1..40 bytes). */
    const uint8_t *three[] = { k10, k50, k95 };
    int64_t sids[3];
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(tokenring_placement_replicas_for_key(&x, p, three[i], 16), TOKENRING_OK);
        sids[i] = tokenring_placement_key_set_id(p, three[i], 16);
        assert_int_equal(sids[i], (int64_t)x.set_id);
    }
    /* ranges 0, 2 and 5: three distinct sets of the six */
    assert_true(sids[0] != sids[1] && sids[1] != sids[2] && sids[0] != sids[2]);
    assert_int_equal(tokenring_placement_replicas_for_key(&x, p, NULL, 0), TOKENRING_OK);
    assert_int_equal(tokenring_placement_key_set_id(p, NULL, 0), (int64_t)x.set_id);
    uint8_t kb[40];
    for (unsigned i = 0; i < 200; i++) {
        size_t len = 1 + i % 40;
        for (size_t j = 0; j < len; j++)
            kb[j] = (uint8_t)(i * 131u + j * 7u + 1u);
        assert_int_equal(tokenring_placement_replicas_for_key(&x, p, kb, len), TOKENRING_OK);
        int64_t sid = tokenring_placement_key_set_id(p, kb, len);
        assert_int_equal(sid, (int64_t)x.set_id);
        assert_true(sid >= 0 && (size_t)sid < tokenring_placement_set_count(p));
    }
    assert_int_equal(tokenring_placement_key_set_id(p, NULL, 1), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_placement_key_set_id(NULL, "k", 1), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_placement_key_set_id(NULL, NULL, 0), TOKENRING_E_INVAL);

    /* Batch routing gives the same sets. */
    uint8_t packed[48];
    memcpy(packed, k10, 16);
    memcpy(packed + 16, k50, 16);
    memcpy(packed + 32, k95, 16);
    const uint64_t offsets[] = { 0, 16, 32, 48, 48 };
    int64_t toks[4];
    uint32_t sets[4];
    assert_int_equal(tokenring_placement_route_keys(toks, sets, p, packed, offsets, 4),
                     TOKENRING_OK);
    assert_int_equal(toks[0], 10);
    assert_int_equal(toks[1], 50);
    assert_int_equal(toks[2], 95);
    assert_int_equal(toks[3], TOKENRING_MIN_TOKEN);
    for (int i = 0; i < 4; i++) {
        tokenring_replicas y;
        assert_int_equal(tokenring_placement_replicas(&y, p, toks[i]), TOKENRING_OK);
        assert_int_equal(sets[i], y.set_id);
    }
    assert_int_equal(tokenring_placement_route_keys(NULL, sets, p, packed, offsets, 3),
                     TOKENRING_OK);
    const uint64_t bad_offsets[] = { 0, 16, 8, 48 };
    sets[0] = 12345;
    assert_int_equal(tokenring_placement_route_keys(toks, sets, p, packed, bad_offsets, 3),
                     TOKENRING_E_INVAL);
    assert_int_equal(sets[0], 12345); /* nothing written */
    assert_int_equal(tokenring_placement_route_keys(toks, NULL, p, packed, offsets, 3),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_placement_route_keys(toks, sets, p, NULL, offsets, 3),
                     TOKENRING_E_INVAL);
    const uint64_t empty_offsets[] = { 0, 0, 0 };
    assert_int_equal(tokenring_placement_route_keys(toks, sets, p, NULL, empty_offsets, 2),
                     TOKENRING_OK);
    assert_int_equal(toks[1], TOKENRING_MIN_TOKEN);
    assert_int_equal(tokenring_placement_route_keys(toks, sets, NULL, packed, offsets, 3),
                     TOKENRING_E_INVAL);

    /* the same keys routed to their replicas: what the single-key calls give, field by
     * field; the errors of route_keys, with nothing written */
    tokenring_replicas reps[4];
    int64_t rtoks[4];
    assert_int_equal(tokenring_placement_route_keys_replicas(reps, rtoks, p, packed, offsets, 4),
                     TOKENRING_OK);
    for (int i = 0; i < 4; i++) {
        tokenring_replicas y;
        assert_int_equal(tokenring_placement_replicas(&y, p, rtoks[i]), TOKENRING_OK);
        assert_int_equal(rtoks[i], i == 0 ? 10 : i == 1 ? 50 : i == 2 ? 95 : TOKENRING_MIN_TOKEN);
        assert_ptr_equal(reps[i].nodes, y.nodes);
        assert_int_equal(reps[i].count, y.count);
        assert_int_equal(reps[i].range_index, y.range_index);
        assert_int_equal(reps[i].set_id, y.set_id);
    }
    assert_int_equal(tokenring_placement_route_keys_replicas(reps, NULL, p, packed, offsets, 3),
                     TOKENRING_OK);
    memset(reps, 0x5a, sizeof reps);
    rtoks[0] = 777;
    assert_int_equal(tokenring_placement_route_keys_replicas(reps, rtoks, p, packed, bad_offsets, 3),
                     TOKENRING_E_INVAL);
    assert_int_equal(rtoks[0], 777); /* nothing written */
    assert_int_equal(reps[0].count, 0x5a5a5a5a);
    assert_int_equal(tokenring_placement_route_keys_replicas(NULL, rtoks, p, packed, offsets, 3),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_placement_route_keys_replicas(reps, rtoks, p, NULL, offsets, 3),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_placement_route_keys_replicas(reps, rtoks, p, packed, NULL, 3),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_placement_route_keys_replicas(reps, rtoks, NULL, packed, offsets, 3),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_placement_route_keys_replicas(NULL, NULL, p, NULL, NULL, 0),
                     TOKENRING_OK); /* nothing to route */
    assert_int_equal(tokenring_placement_route_keys_replicas(reps, rtoks, p, NULL, empty_offsets, 2),
                     TOKENRING_OK);
    assert_int_equal(rtoks[1], TOKENRING_MIN_TOKEN);
    assert_int_equal(reps[1].range_index, 0);

    /* Ownership on the literal toy ring (spec section 6.4). */
    tokenring_ownership own[3];
    assert_int_equal(tokenring_ring_ownership(own, 3, r, p), TOKENRING_OK);
    assert_true(u128_of(own[0].primary_width) == ((u128)1 << 64) - 85 + 20);
    assert_true(u128_of(own[1].primary_width) == 35);
    assert_true(u128_of(own[2].primary_width) == 30);
    assert_true(own[0].nodetool_primary == 1.0f && own[1].nodetool_primary == 0.0f);
    assert_true(own[0].nodetool_effective == 1.0f && own[1].nodetool_effective == 1.0f &&
                own[2].nodetool_effective == 0.0f);
    assert_int_equal(own[0].token_count, 2);
    tokenring_placement_free(p);
    tokenring_ring_free(r);
}

/* Positions p -> -2^63 + p * 2^64 / 100 (floored): A 35 %, B 35 %, C 30 % exactly. */
static int64_t scaled(int p)
{
    u128 off = ((u128)(unsigned)p << 64) / 100;
    return (int64_t)((uint64_t)off + (uint64_t)TOKENRING_MIN_TOKEN);
}

static void toy_scaled_shares_are_exact(void **state)
{
    (void)state;
    int64_t pos[6];
    for (int i = 0; i < 6; i++)
        pos[i] = scaled((int)TOY[i]);
    tokenring_topology *t = toy_topology(pos);
    tokenring_ring *r = NULL;
    assert_int_equal(tokenring_ring_build(&r, t, NULL), TOKENRING_OK);
    tokenring_topology_free(t);
    tokenring_ownership own[3];
    assert_int_equal(tokenring_ring_ownership(own, 3, r, NULL), TOKENRING_OK);
    const u128 ring = (u128)1 << 64;
    /* Exact widths from the floored positions f(p) = floor(p * 2^64 / 100). */
#define F(p) ((((u128)(p)) << 64) / 100)
    const u128 a = (ring - (F(95) - F(10))) + (F(50) - F(30));
    const u128 b = (F(30) - F(10)) + (F(80) - F(65));
    const u128 c = (F(65) - F(50)) + (F(95) - F(80));
#undef F
    assert_true(u128_of(own[0].primary_width) == a);
    assert_true(u128_of(own[1].primary_width) == b);
    assert_true(u128_of(own[2].primary_width) == c);
    assert_true(a + b + c == ring);
    /* 35 %, 35 %, 30 % of 2^64, to within the flooring of the positions (< 2 values). */
    const u128 pa = ring / 100 * 35 + (ring % 100) * 35 / 100;
    const u128 pc = ring / 100 * 30 + (ring % 100) * 30 / 100;
    assert_true(a >= pa - 1 && a <= pa + 1);
    assert_true(b >= pa - 1 && b <= pa + 1);
    assert_true(c >= pc - 1 && c <= pc + 1);
    assert_true(dabs(own[0].primary - 0.35) < 1e-15 && dabs(own[1].primary - 0.35) < 1e-15 &&
                dabs(own[2].primary - 0.30) < 1e-15);
    /* nodetool: each range rounded to 6 decimals as a float, then summed in float. */
    const float f15 = 0.15f, f20 = 0.2f;
    assert_true(own[0].nodetool_primary == f15 + f20); /* (95,10] and (30,50] */
    assert_true(own[1].nodetool_primary == f20 + f15); /* (10,30] and (65,80] */
    assert_true(own[2].nodetool_primary == f15 + f15); /* (50,65] and (80,95] */
    assert_true(own[0].effective == 0.0 && own[0].nodetool_effective == 0.0f);
    /* With rf 2 every node holds a replica of 65 % (A, B) or 70 % (C) of the ring. */
    tokenring_placement *p = simple_placement(r, 2);
    assert_int_equal(tokenring_ring_ownership(own, 3, r, p), TOKENRING_OK);
    u128 sum = 0;
    for (int i = 0; i < 3; i++)
        sum += u128_of(own[i].effective_width);
    assert_true(sum == 2 * ring);
    /* A: (95,10] (10,30] (30,50] (80,95]; B and C: three 15 % ranges and one 20 %. */
    assert_true(dabs(own[0].effective - 0.70) < 1e-15 && dabs(own[1].effective - 0.65) < 1e-15 &&
                dabs(own[2].effective - 0.65) < 1e-15);
    tokenring_placement_free(p);
    tokenring_ring_free(r);
}

/* ----------------------------------------------------------------- rings */

static void ring_numbers_nodes_dcs_and_racks(void **state)
{
    (void)state;
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    const int64_t t1[] = { 100 }, t2[] = { 200 }, t3[] = { 300 }, t4[] = { 400 }, t5[] = { 500 };
    assert_int_equal(tokenring_topology_add_node(t, "n1", "west", "rb", t1, 1, NULL), 0);
    assert_int_equal(tokenring_topology_add_node(t, "n2", "east", "rb", t2, 1, NULL), 0);
    assert_int_equal(tokenring_topology_add_node(t, "n3", "west", "ra", t3, 1, NULL), 0);
    assert_int_equal(tokenring_topology_add_node(t, "n4", "east", "rb", t4, 1, NULL), 0);
    assert_int_equal(tokenring_topology_add_node(t, "n5", "north", "rz", t5, 1, NULL), 0);
    /* Only NORMAL, LEAVING and MOVING tokens form the ring. */
    assert_int_equal(tokenring_topology_set_state(t, "n2", TOKENRING_STATE_JOINING, TOKENRING_UP,
                                                  NULL), 0);
    assert_int_equal(tokenring_topology_set_state(t, "n3", TOKENRING_STATE_LEAVING,
                                                  TOKENRING_DOWN, NULL), 0);
    assert_int_equal(tokenring_topology_set_state(t, "n4", TOKENRING_STATE_MOVING,
                                                  TOKENRING_UNKNOWN, NULL), 0);
    tokenring_ring *r = NULL;
    assert_int_equal(tokenring_ring_build(&r, t, NULL), TOKENRING_OK);
    tokenring_topology_free(t);
    assert_int_equal(tokenring_ring_node_count(r), 5);
    size_t n;
    const int64_t *tok = tokenring_ring_tokens(r, &n);
    assert_int_equal(n, 4);
    assert_int_equal(tok[0], 100);
    assert_int_equal(tok[1], 300);
    assert_int_equal(tok[2], 400);
    assert_int_equal(tok[3], 500);
    /* Datacenters sorted by name; (dc, rack) pairs sorted too. */
    assert_int_equal(tokenring_ring_dc_count(r), 3);
    assert_string_equal(tokenring_ring_dc_name(r, 0), "east");
    assert_string_equal(tokenring_ring_dc_name(r, 1), "north");
    assert_string_equal(tokenring_ring_dc_name(r, 2), "west");
    assert_null(tokenring_ring_dc_name(r, 3));
    assert_null(tokenring_ring_dc_name(NULL, 0));
    assert_int_equal(tokenring_ring_rack_count(r), 4); /* east/rb north/rz west/ra west/rb */
    tokenring_node_info ni;
    assert_int_equal(tokenring_ring_node(&ni, r, 0), TOKENRING_OK);
    assert_string_equal(ni.name, "n1");
    assert_int_equal(ni.dc_index, 2);
    assert_int_equal(ni.rack_index, 3);
    assert_int_equal(tokenring_ring_node(&ni, r, 1), TOKENRING_OK);
    assert_string_equal(ni.name, "n2");
    assert_int_equal(ni.state, TOKENRING_STATE_JOINING);
    assert_int_equal(ni.token_count, 1);
    assert_int_equal(ni.tokens[0], 200);
    assert_int_equal(ni.dc_index, 0);
    assert_int_equal(ni.rack_index, 0);
    assert_int_equal(tokenring_ring_node(&ni, r, 2), TOKENRING_OK);
    assert_int_equal(ni.rack_index, 2);
    assert_int_equal(ni.state, TOKENRING_STATE_LEAVING);
    assert_int_equal(ni.liveness, TOKENRING_DOWN);
    assert_int_equal(tokenring_ring_node(&ni, r, 4), TOKENRING_OK);
    assert_int_equal(ni.dc_index, 1);
    assert_int_equal(ni.rack_index, 1);
    assert_int_equal(tokenring_ring_node(&ni, r, 5), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_ring_node(NULL, r, 0), TOKENRING_E_INVAL);
    uint32_t idx;
    assert_int_equal(tokenring_ring_find_node(&idx, r, "n4"), TOKENRING_OK);
    assert_int_equal(idx, 3);
    assert_int_equal(tokenring_ring_find_node(&idx, r, "n9"), TOKENRING_E_NOTFOUND);
    assert_int_equal(tokenring_ring_find_node(&idx, r, NULL), TOKENRING_E_INVAL);
    /* 200 is not a ring token: it belongs to the range ending at 300 (n3). */
    assert_int_equal(tokenring_ring_owner(&idx, r, 200), TOKENRING_OK);
    assert_int_equal(idx, 2);
    /* Ranges and batch search. */
    tokenring_range range;
    assert_int_equal(tokenring_ring_range(&range, r, 0), TOKENRING_OK);
    assert_int_equal(range.start, 500);
    assert_int_equal(range.end, 100);
    assert_true(u128_of(range.width) == ((u128)1 << 64) - 400);
    assert_int_equal(tokenring_ring_range(&range, r, 4), TOKENRING_E_RANGE);
    const int64_t q[] = { 0, 100, 101, 450, 501, TOKENRING_MIN_TOKEN, TOKENRING_MAX_TOKEN };
    uint32_t out[7];
    assert_int_equal(tokenring_ring_search_batch(out, r, q, 7), TOKENRING_OK);
    const uint32_t expect[] = { 0, 0, 1, 3, 0, 0, 0 };
    assert_memory_equal(out, expect, sizeof out);
    assert_int_equal(tokenring_ring_search_batch(NULL, r, q, 7), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_ring_search_batch(out, NULL, q, 7), TOKENRING_E_INVAL);
    /* Ownership: the joining node owns nothing; token counts are ring tokens. */
    tokenring_ownership own[5];
    assert_int_equal(tokenring_ring_ownership(own, 5, r, NULL), TOKENRING_OK);
    assert_true(u128_of(own[1].primary_width) == 0);
    assert_int_equal(own[1].token_count, 0);
    assert_int_equal(own[0].token_count, 1);
    assert_int_equal(tokenring_ring_ownership(own, 4, r, NULL), TOKENRING_E_BUFSIZE);
    assert_int_equal(tokenring_ring_ownership(NULL, 5, r, NULL), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_ring_ownership(own, 5, NULL, NULL), TOKENRING_E_INVAL);
    /* Reference counting: the ring lives until the last reference goes. */
    tokenring_ring *r2 = tokenring_ring_ref(r);
    assert_ptr_equal(r2, r);
    tokenring_ring_free(r);
    assert_int_equal(tokenring_ring_node_count(r2), 5);
    tokenring_ring_free(r2);
    assert_null(tokenring_ring_ref(NULL));
    tokenring_ring_free(NULL);
    assert_null(tokenring_ring_tokens(NULL, &n));
    assert_int_equal(n, 0);
    assert_null(tokenring_ring_token_nodes(NULL, NULL));
    assert_int_equal(tokenring_ring_node_count(NULL), 0);
    assert_int_equal(tokenring_ring_dc_count(NULL), 0);
    assert_int_equal(tokenring_ring_rack_count(NULL), 0);
}

static void ring_build_errors_and_single_token(void **state)
{
    (void)state;
    tokenring_topology *t = NULL;
    tokenring_ring *r = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    assert_int_equal(tokenring_ring_build(&r, t, &err), TOKENRING_E_EMPTY);
    assert_true(err.message[0] != '\0');
    assert_null(r);
    const int64_t tok[] = { -7 };
    assert_int_equal(tokenring_topology_add_node(t, "only", "dc1", "r1", tok, 1, NULL), 0);
    assert_int_equal(tokenring_topology_set_state(t, "only", TOKENRING_STATE_JOINING,
                                                  TOKENRING_UP, NULL), 0);
    assert_int_equal(tokenring_ring_build(&r, t, &err), TOKENRING_E_EMPTY);
    assert_int_equal(err.code, TOKENRING_E_EMPTY);
    assert_int_equal(tokenring_ring_build(NULL, t, &err), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_ring_build(&r, NULL, &err), TOKENRING_E_INVAL);
    assert_true(err.message[0] != '\0');
    /* A single token owns the whole ring: width 2^64, nodetool 1.0. */
    assert_int_equal(tokenring_topology_set_state(t, "only", TOKENRING_STATE_NORMAL,
                                                  TOKENRING_UP, NULL), 0);
    assert_int_equal(tokenring_ring_build(&r, t, NULL), TOKENRING_OK);
    tokenring_range range;
    assert_int_equal(tokenring_ring_range_of(&range, r, 12345), TOKENRING_OK);
    assert_int_equal(range.start, -7);
    assert_int_equal(range.end, -7);
    assert_true(u128_of(range.width) == (u128)1 << 64);
    tokenring_placement *p = simple_placement(r, 3);
    tokenring_ownership own;
    assert_int_equal(tokenring_ring_ownership(&own, 1, r, p), TOKENRING_OK);
    assert_true(u128_of(own.primary_width) == (u128)1 << 64);
    assert_true(u128_of(own.effective_width) == (u128)1 << 64);
    assert_true(own.primary == 1.0 && own.nodetool_primary == 1.0f &&
                own.nodetool_effective == 1.0f);
    tokenring_replicas x;
    assert_int_equal(tokenring_placement_replicas(&x, p, 0), TOKENRING_OK);
    assert_int_equal(x.count, 1); /* rf 3 on one node: that node */
    /* A placement of another ring is refused by the ownership call. */
    tokenring_ring *other = NULL;
    assert_int_equal(tokenring_ring_build(&other, t, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_ring_ownership(&own, 1, other, p), TOKENRING_E_INVAL);
    tokenring_ring_free(other);
    /* The placement keeps its ring alive. */
    tokenring_ring_free(r);
    assert_int_equal(tokenring_placement_replicas(&x, p, 0), TOKENRING_OK);
    assert_int_equal(tokenring_ring_node_count(tokenring_placement_ring(p)), 1);
    tokenring_placement *p2 = tokenring_placement_ref(p);
    tokenring_placement_free(p);
    assert_int_equal(tokenring_placement_set_count(p2), 1);
    tokenring_placement_free(p2);
    tokenring_placement_free(NULL);
    assert_null(tokenring_placement_ref(NULL));
    assert_null(tokenring_placement_ring(NULL));
    assert_int_equal(tokenring_placement_set_count(NULL), 0);
    tokenring_topology_free(t);
}

/* Rings large enough for the radix sort: tokens strictly ascending, each token's node
 * really holds it, including the extreme tokens and crowded layouts. */
static void large_rings_are_sorted_and_owned(void **state)
{
    (void)state;
    uint64_t x = 0x2545F4914F6CDD1DULL;
    for (int layout = 0; layout < 3; layout++) {
        tokenring_topology *t = NULL;
        assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
        size_t total = 0;
        for (int node = 0; node < 64; node++) {
            int64_t toks[128];
            for (int k = 0; k < 128; k++) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                int64_t m = (int64_t)k * 64 + node; /* distinct per (node, k) */
                toks[k] = layout == 0   ? (int64_t)((x & ~(uint64_t)0x3fff) | (uint64_t)m)
                          : layout == 1 ? m * 3 - 50000 /* every token shares its high bits */
                                        : TOKENRING_MAX_TOKEN - m * 7;
            }
            if (node == 0)
                toks[0] = TOKENRING_MIN_TOKEN;
            if (node == 1)
                toks[0] = TOKENRING_MAX_TOKEN;
            char name[16];
            snprintf(name, sizeof name, "n%d", node);
            assert_int_equal(tokenring_topology_add_node(t, name, "dc1", "r1", toks, 128, NULL),
                             TOKENRING_OK);
            total += 128;
        }
        tokenring_ring *r = NULL;
        assert_int_equal(tokenring_ring_build(&r, t, NULL), TOKENRING_OK);
        size_t n;
        const int64_t *tok = tokenring_ring_tokens(r, &n);
        const uint32_t *own = tokenring_ring_token_nodes(r, NULL);
        assert_int_equal(n, total);
        assert_int_equal(tok[0], TOKENRING_MIN_TOKEN);
        assert_int_equal(tok[n - 1], TOKENRING_MAX_TOKEN);
        size_t per_node[64] = { 0 };
        for (size_t i = 0; i < n; i++) {
            if (i)
                assert_true(tok[i - 1] < tok[i]);
            tokenring_node_info ni;
            assert_int_equal(tokenring_ring_node(&ni, r, own[i]), TOKENRING_OK);
            bool held = false;
            for (size_t j = 0; j < ni.token_count; j++)
                held |= ni.tokens[j] == tok[i];
            assert_true(held);
            per_node[own[i]]++;
            assert_int_equal(tokenring_ring_search(r, tok[i]), i);
        }
        for (int node = 0; node < 64; node++)
            assert_int_equal(per_node[node], 128);
        tokenring_ring_free(r);
        tokenring_topology_free(t);
    }
}

/* ------------------------------------------------------------- placement */

static tokenring_ring *two_dc_ring(void)
{
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    /* Spec 5.2 example: A(dc1,r1,0) B(dc2,r1,10) C(dc1,r2,20) D(dc2,r1,30). */
    const int64_t a[] = { 0 }, b[] = { 10 }, c[] = { 20 }, d[] = { 30 };
    assert_int_equal(tokenring_topology_add_node(t, "A", "dc1", "r1", a, 1, NULL), 0);
    assert_int_equal(tokenring_topology_add_node(t, "B", "dc2", "r1", b, 1, NULL), 0);
    assert_int_equal(tokenring_topology_add_node(t, "C", "dc1", "r2", c, 1, NULL), 0);
    assert_int_equal(tokenring_topology_add_node(t, "D", "dc2", "r1", d, 1, NULL), 0);
    tokenring_ring *r = NULL;
    assert_int_equal(tokenring_ring_build(&r, t, NULL), TOKENRING_OK);
    tokenring_topology_free(t);
    return r;
}

static void placement_rules_and_errors(void **state)
{
    (void)state;
    tokenring_ring *r = two_dc_ring();
    tokenring_replication *repl = NULL;
    tokenring_placement *p = NULL;
    tokenring_error err;
    tokenring_replicas x;
    char buf[256];

    /* {dc1: 2, dc2: 1}, key token 5 -> [B, C, A]: datacenters interleave by ring order. */
    assert_int_equal(tokenring_replication_parse(&repl, "dc1=2,dc2=1", 11, NULL), 0);
    assert_int_equal(tokenring_placement_build(&p, r, repl, 0, &err), TOKENRING_OK);
    assert_int_equal(tokenring_placement_replicas(&x, p, 5), TOKENRING_OK);
    names(buf, sizeof buf, r, &x);
    assert_string_equal(buf, "B,C,A");
    tokenring_placement_free(p);
    tokenring_replication_free(repl);

    /* dc2 with a transient replica: rf 2/1 on 2 nodes (one rack): B full, D transient. */
    assert_int_equal(tokenring_replication_parse(&repl, "dc2=2/1", 7, NULL), 0);
    assert_int_equal(tokenring_placement_build(&p, r, repl, 0, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_placement_replicas(&x, p, 5), TOKENRING_OK);
    names(buf, sizeof buf, r, &x);
    assert_string_equal(buf, "B,D~");
    assert_non_null(x.transient);
    tokenring_placement_free(p);
    tokenring_replication_free(repl);

    /* A datacenter without nodes: refused by name unless allowed; rf 0 is fine. */
    assert_int_equal(tokenring_replication_parse(&repl, "dc1=1,dc7=2,dc8=0", 17, NULL), 0);
    p = (tokenring_placement *)&err; /* must be left alone on failure */
    memset(&err, 0, sizeof err);
    tokenring_placement *keep = p;
    assert_int_equal(tokenring_placement_build(&p, r, repl, 0, &err), TOKENRING_E_NOTFOUND);
    assert_ptr_equal(p, keep);
    assert_int_equal(err.code, TOKENRING_E_NOTFOUND);
    assert_non_null(strstr(err.message, "dc7"));
    assert_int_equal(tokenring_placement_build(&p, r, repl,
                                               TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_placement_replicas(&x, p, 5), TOKENRING_OK);
    names(buf, sizeof buf, r, &x);
    assert_string_equal(buf, "C");
    tokenring_placement_free(p);
    /* Bad arguments. */
    assert_int_equal(tokenring_placement_build(NULL, r, repl, 0, &err), TOKENRING_E_INVAL);
    assert_true(err.message[0] != '\0');
    assert_int_equal(tokenring_placement_build(&p, NULL, repl, 0, &err), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_placement_build(&p, r, NULL, 0, &err), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_placement_build(&p, r, repl, 0x80, &err), TOKENRING_E_INVAL);
    assert_true(err.message[0] != '\0');
    tokenring_replication_free(repl);

    /* No datacenters, or rf 0: every range has no replica. */
    assert_int_equal(tokenring_replication_network(&repl), TOKENRING_OK);
    assert_int_equal(tokenring_placement_build(&p, r, repl, 0, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_placement_set_count(p), 1);
    assert_int_equal(tokenring_placement_replicas(&x, p, 5), TOKENRING_OK);
    assert_int_equal(x.count, 0);
    assert_non_null(x.nodes);
    tokenring_ownership own[4];
    assert_int_equal(tokenring_ring_ownership(own, 4, r, p), TOKENRING_OK);
    for (int i = 0; i < 4; i++)
        assert_true(u128_of(own[i].effective_width) == 0 && own[i].nodetool_effective == 0.0f);
    tokenring_placement_free(p);
    tokenring_replication_free(repl);
    p = simple_placement(r, 0);
    assert_int_equal(tokenring_placement_range_replicas(&x, p, 2), TOKENRING_OK);
    assert_int_equal(x.count, 0);
    tokenring_placement_free(p);

    /* Lookup argument checks. */
    p = simple_placement(r, 1);
    assert_int_equal(tokenring_placement_replicas(NULL, p, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_placement_replicas(&x, NULL, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_placement_range_replicas(NULL, p, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_placement_set(NULL, p, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_placement_replicas_for_key(&x, NULL, "k", 1), TOKENRING_E_INVAL);
    tokenring_placement_free(p);
    tokenring_ring_free(r);
}

/* Spec 5.2: racks < rf accept a used rack immediately while rf - racks allows. */
static void rack_repeats_are_taken_in_walk_order(void **state)
{
    (void)state;
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    const int64_t a[] = { 0 }, b[] = { 10 }, c[] = { 20 }, d[] = { 30 };
    assert_int_equal(tokenring_topology_add_node(t, "A", "dc1", "r1", a, 1, NULL), 0);
    assert_int_equal(tokenring_topology_add_node(t, "B", "dc1", "r1", b, 1, NULL), 0);
    assert_int_equal(tokenring_topology_add_node(t, "C", "dc1", "r1", c, 1, NULL), 0);
    assert_int_equal(tokenring_topology_add_node(t, "D", "dc1", "r2", d, 1, NULL), 0);
    tokenring_ring *r = NULL;
    assert_int_equal(tokenring_ring_build(&r, t, NULL), TOKENRING_OK);
    tokenring_topology_free(t);
    tokenring_replication *repl = NULL;
    assert_int_equal(tokenring_replication_parse(&repl, "dc1=3", 5, NULL), 0);
    tokenring_placement *p = NULL;
    assert_int_equal(tokenring_placement_build(&p, r, repl, 0, NULL), TOKENRING_OK);
    tokenring_replicas x;
    char buf[64];
    assert_int_equal(tokenring_placement_replicas(&x, p, 5), TOKENRING_OK);
    names(buf, sizeof buf, r, &x);
    assert_string_equal(buf, "B,C,D"); /* not the pre-3.2 order B,D,C */
    tokenring_placement_free(p);
    tokenring_replication_free(repl);
    tokenring_ring_free(r);
}

/* ----------------------------------------------------- allocation failures */

static long fail_at; /* fail the fail_at-th allocation from now (1-based); 0: never */
static long alloc_calls, live_blocks;

static void *t_malloc(size_t n, void *u)
{
    (void)u;
    if (fail_at && ++alloc_calls == fail_at)
        return NULL;
    void *p = malloc(n);
    if (p)
        live_blocks++;
    return p;
}

static void *t_realloc(void *p, size_t n, void *u)
{
    (void)u;
    if (fail_at && ++alloc_calls == fail_at)
        return NULL;
    void *q = realloc(p, n);
    if (q && !p)
        live_blocks++;
    return q;
}

static void t_free(void *p, void *u)
{
    (void)u;
    if (p)
        live_blocks--;
    free(p);
}

typedef struct {
    tokenring_topology *topology;
    tokenring_ring *ring;
    tokenring_replication *simple, *network;
} oom_inputs;

/* Builds something from the inputs; on success frees it again. */
typedef int (*oom_op)(oom_inputs *in, tokenring_error *err);

static int op_ring(oom_inputs *in, tokenring_error *err)
{
    tokenring_ring *r = NULL;
    int rc = tokenring_ring_build(&r, in->topology, err);
    if (rc != TOKENRING_OK)
        assert_null(r);
    tokenring_ring_free(r);
    return rc;
}

static int op_placement(oom_inputs *in, tokenring_replication *repl, tokenring_error *err)
{
    tokenring_placement *p = NULL;
    int rc = tokenring_placement_build(&p, in->ring, repl, TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC,
                                       err);
    if (rc != TOKENRING_OK)
        assert_null(p);
    tokenring_placement_free(p);
    return rc;
}

static int op_placement_simple(oom_inputs *in, tokenring_error *err)
{
    return op_placement(in, in->simple, err);
}

static int op_placement_network(oom_inputs *in, tokenring_error *err)
{
    return op_placement(in, in->network, err);
}

static int op_parse(oom_inputs *in, tokenring_error *err)
{
    (void)in;
    static const char text[] = "{'class': 'NetworkTopologyStrategy', 'dc1': '3', 'dc2': '2/1', "
                               "'dc3': '1', 'dc4': '1', 'dc5': '2'}";
    tokenring_replication *r = NULL;
    int rc = tokenring_replication_parse(&r, text, sizeof text - 1, err);
    if (rc != TOKENRING_OK)
        assert_null(r);
    tokenring_replication_free(r);
    return rc;
}

static int op_set_dc(oom_inputs *in, tokenring_error *err)
{
    return tokenring_replication_set_dc(in->network, "dc9", 1, 0, err);
}

static void oom_loop(const char *what, oom_inputs *in, oom_op op)
{
    char before[512], after[512];
    for (long k = 1;; k++) {
        assert_int_equal(tokenring_replication_format(before, sizeof before, NULL, in->network),
                         TOKENRING_OK);
        long live = live_blocks;
        tokenring_error err;
        memset(&err, 0, sizeof err);
        alloc_calls = 0;
        fail_at = k;
        int rc = op(in, &err);
        fail_at = 0;
        if (rc == TOKENRING_OK)
            break;
        if (rc != TOKENRING_E_NOMEM)
            fail_msg("%s: allocation %ld failed with %d", what, k, rc);
        assert_int_equal(live_blocks, live); /* nothing leaked */
        assert_int_equal(tokenring_replication_format(after, sizeof after, NULL, in->network),
                         TOKENRING_OK);
        assert_string_equal(before, after);
        assert_true(k < 10000);
    }
}

static void builders_fail_cleanly_on_allocation_failure(void **state)
{
    (void)state;
    tokenring_allocator a = { t_malloc, t_realloc, t_free, NULL };
    assert_int_equal(tokenring_set_allocator(&a), TOKENRING_OK);
    oom_inputs in = { 0 };
    assert_int_equal(tokenring_topology_new(&in.topology), TOKENRING_OK);
    uint64_t x = 42;
    for (int node = 0; node < 60; node++) {
        int64_t toks[100];
        for (int k = 0; k < 100; k++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            toks[k] = (int64_t)x;
        }
        char name[16], dc[8], rack[8];
        snprintf(name, sizeof name, "n%d", node);
        snprintf(dc, sizeof dc, "dc%d", node % 3 + 1);
        snprintf(rack, sizeof rack, "r%d", node % 4);
        assert_int_equal(tokenring_topology_add_node(in.topology, name, dc, rack, toks, 100, NULL),
                         TOKENRING_OK);
    }
    assert_int_equal(tokenring_ring_build(&in.ring, in.topology, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_replication_simple(&in.simple, 3, 1, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_replication_parse(&in.network, "dc1=3,dc2=2/1,dc3=5,dc4=1", 25,
                                                 NULL),
                     TOKENRING_OK);
    oom_loop("ring", &in, op_ring);
    oom_loop("placement simple", &in, op_placement_simple);
    oom_loop("placement network", &in, op_placement_network);
    oom_loop("parse", &in, op_parse);
    oom_loop("set_dc", &in, op_set_dc);
    tokenring_replication_free(in.simple);
    tokenring_replication_free(in.network);
    tokenring_ring_free(in.ring);
    tokenring_topology_free(in.topology);
    assert_int_equal(live_blocks, 0);
    assert_int_equal(tokenring_set_allocator(NULL), TOKENRING_OK);
}

/* ---------------------- RandomPartitioner and ByteOrderedPartitioner rings */

static const tokenring_token128 MIN128 = {UINT64_MAX, UINT64_MAX};
static const tokenring_token128 MAX128 = {0x8000000000000000ULL, 0};

static tokenring_token128 t128(uint64_t hi, uint64_t lo)
{
    tokenring_token128 t = {hi, lo};
    return t;
}

static int cmp128(const void *a, const void *b)
{
    return tokenring_token128_compare(*(const tokenring_token128 *)a,
                                      *(const tokenring_token128 *)b);
}

/* lower_bound over sorted tokens, wrapping to 0 */
static uint32_t lb128(const tokenring_token128 *s, size_t n, tokenring_token128 t)
{
    size_t i = 0;
    while (i < n && tokenring_token128_compare(s[i], t) < 0)
        i++;
    return i == n ? 0 : (uint32_t)i;
}

static tokenring_token128 random128(uint64_t *rng, int shape)
{
    tokenring_token128 t;
    t.hi = tt_splitmix64(rng) >> 1;
    t.lo = tt_splitmix64(rng);
    if (shape == 1) { /* shared 64-bit prefixes: few distinct hi, bit 63 of lo */
        t.hi = tt_splitmix64(rng) % 4;
    } else if (shape == 2) {
        t.hi = 0x7fffffffffffffffULL;
    }
    return t;
}

static void test_ring128_search(void **state)
{
    (void)state;
    uint64_t rng = 2026120201;
    for (int shape = 0; shape < 3; shape++) {
        for (int round = 0; round < 20; round++) {
            tokenring_topology *t = NULL;
            assert_int_equal(tokenring_topology_new_partitioned(&t, TOKENRING_PARTITIONER_RANDOM),
                             TOKENRING_OK);
            int nodes = tt_between(&rng, 1, 9), per = tt_between(&rng, 1, 40);
            tokenring_token128 all[9 * 42];
            size_t n = 0;
            for (int k = 0; k < nodes; k++) {
                tokenring_token128 mine[42];
                int m = 0;
                while (m < per) {
                    tokenring_token128 c = random128(&rng, shape);
                    if (round == 0 && k == 0 && m == 0)
                        c = t128(0, 0);
                    if (round == 1 && k == 0 && m == 0)
                        c = MAX128;
                    bool seen = false;
                    for (size_t q = 0; q < n; q++)
                        seen |= cmp128(&all[q], &c) == 0;
                    for (int q = 0; q < m; q++)
                        seen |= cmp128(&mine[q], &c) == 0;
                    if (!seen)
                        mine[m++] = c;
                }
                char name[16], rack[8];
                snprintf(name, sizeof name, "n%d", k);
                snprintf(rack, sizeof rack, "r%d", k % 3);
                assert_int_equal(tokenring_topology_add_node128(t, name, "dc1", rack, mine,
                                                                (size_t)m, NULL), TOKENRING_OK);
                memcpy(all + n, mine, (size_t)m * sizeof *mine);
                n += (size_t)m;
            }
            tokenring_ring *r = NULL;
            assert_int_equal(tokenring_ring_build(&r, t, NULL), TOKENRING_OK);
            assert_int_equal(tokenring_ring_partitioner(r), TOKENRING_PARTITIONER_RANDOM);
            qsort(all, n, sizeof *all, cmp128);
            size_t count;
            assert_null(tokenring_ring_tokens(r, &count));
            assert_int_equal(count, n);
            const uint32_t *owners = tokenring_ring_token_nodes(r, NULL);
            for (size_t i = 0; i < n; i++) {
                tokenring_token128 got;
                assert_int_equal(tokenring_ring_token128(&got, r, i), TOKENRING_OK);
                assert_int_equal(cmp128(&got, &all[i]), 0);
                size_t node = owners[i], k;
                tokenring_node_info info;
                assert_int_equal(tokenring_ring_node(&info, r, (uint32_t)node), TOKENRING_OK);
                assert_null(info.tokens);
                bool held = false;
                size_t idx;
                assert_int_equal(tokenring_topology_find_node(&idx, t, info.name), TOKENRING_OK);
                for (k = 0; k < info.token_count; k++) {
                    tokenring_token128 nt;
                    assert_int_equal(tokenring_topology_node_token128(&nt, t, idx, k), TOKENRING_OK);
                    held |= cmp128(&nt, &got) == 0;
                }
                assert_true(held);
                /* each ring token, one below and one above */
                assert_int_equal(tokenring_ring_search128(r, got), i);
                tokenring_token128 below = got, above = got;
                if (below.lo-- == 0)
                    below.hi--;
                if (++above.lo == 0)
                    above.hi++;
                assert_int_equal(tokenring_ring_search128(r, below), lb128(all, n, below));
                if (tokenring_token128_compare(above, MAX128) <= 0)
                    assert_int_equal(tokenring_ring_search128(r, above), lb128(all, n, above));
            }
            tokenring_token128 edge[] = {MIN128, t128(0, 0), MAX128, t128(0x7fffffffffffffffULL, UINT64_MAX)};
            for (size_t e = 0; e < 4; e++)
                assert_int_equal(tokenring_ring_search128(r, edge[e]), lb128(all, n, edge[e]));
            for (int q = 0; q < 300; q++) {
                tokenring_token128 k = random128(&rng, shape);
                assert_int_equal(tokenring_ring_search128(r, k), lb128(all, n, k));
            }
            /* ranges: exact widths over 2^127, summing to 2^127 unless 0 and 2^127 both
             * bound ranges (Cassandra's widths make them one point) */
            u128 sum = 0;
            for (size_t i = 0; i < n; i++) {
                tokenring_range128 rg;
                assert_int_equal(tokenring_ring_range128(&rg, r, i), TOKENRING_OK);
                assert_int_equal(rg.index, i);
                assert_int_equal(rg.owner, owners[i]);
                assert_int_equal(cmp128(&rg.end, &all[i]), 0);
                assert_int_equal(cmp128(&rg.start, &all[i ? i - 1 : n - 1]), 0);
                u128 w = ((u128)rg.width.hi << 64) | rg.width.lo;
                u128 e = ((u128)all[i].hi << 64) | all[i].lo;
                u128 s = ((u128)rg.start.hi << 64) | rg.start.lo;
                u128 R = (u128)1 << 127;
                u128 want = n == 1 ? R : (e + R - s) % R;
                assert_true(w == want);
                sum += w;
            }
            u128 R = (u128)1 << 127;
            bool both = n > 1 && all[0].hi == 0 && all[0].lo == 0 && all[n - 1].hi == MAX128.hi;
            if (!both)
                assert_true(sum == R);
            tokenring_range128 rg;
            assert_int_equal(tokenring_ring_range128(&rg, r, n), TOKENRING_E_RANGE);
            /* the Murmur3 calls refuse the ring */
            uint32_t u;
            tokenring_range r64;
            int64_t tk = 0;
            assert_int_equal(tokenring_ring_search(r, 0), UINT32_MAX);
            assert_int_equal(tokenring_ring_owner(&u, r, 0), TOKENRING_E_UNSUPPORTED);
            assert_int_equal(tokenring_ring_range_of(&r64, r, 0), TOKENRING_E_UNSUPPORTED);
            assert_int_equal(tokenring_ring_range(&r64, r, 0), TOKENRING_E_UNSUPPORTED);
            assert_int_equal(tokenring_ring_search_batch(&u, r, &tk, 1), TOKENRING_E_UNSUPPORTED);
            assert_int_equal(tokenring_ring_search_bytes(r, NULL, 0), UINT32_MAX);
            const uint8_t *bp;
            size_t bl;
            assert_int_equal(tokenring_ring_token_bytes(&bp, &bl, r, 0), TOKENRING_E_UNSUPPORTED);
            tokenring_ring_free(r);
            tokenring_topology_free(t);
        }
    }
}

typedef struct btok {
    uint8_t b[20];
    size_t len;
} btok;

static int cmpb(const void *a, const void *b)
{
    const btok *x = a, *y = b;
    return tokenring_byte_token_compare(x->b, x->len, y->b, y->len);
}

static btok random_btok(uint64_t *rng, int shape)
{
    btok t;
    t.len = (size_t)tt_between(rng, shape == 0 ? 0 : 6, shape == 0 ? 12 : 12);
    for (size_t i = 0; i < t.len; i++)
        t.b[i] = (uint8_t)tt_splitmix64(rng);
    if (shape == 1) /* a shared 8-byte prefix, or a prefix of it */
        for (size_t i = 0; i < t.len && i < 8; i++)
            t.b[i] = (uint8_t)(i < 6 ? 0x41 : (tt_splitmix64(rng) & 1 ? 0 : 0x41));
    if (shape == 2) /* values around 0x00 and 0xff */
        for (size_t i = 0; i < t.len; i++)
            t.b[i] = tt_splitmix64(rng) & 1 ? 0 : 0xff;
    return t;
}

static uint32_t lbb(const btok *s, size_t n, const btok *t)
{
    size_t i = 0;
    while (i < n && cmpb(&s[i], t) < 0)
        i++;
    return i == n ? 0 : (uint32_t)i;
}

static void test_ring_bytes_search(void **state)
{
    (void)state;
    uint64_t rng = 2026120202;
    for (int shape = 0; shape < 3; shape++) {
        for (int round = 0; round < 20; round++) {
            tokenring_topology *t = NULL;
            assert_int_equal(tokenring_topology_new_partitioned(&t, TOKENRING_PARTITIONER_BYTE_ORDERED),
                             TOKENRING_OK);
            int nodes = tt_between(&rng, 1, 6), per = tt_between(&rng, 1, 30);
            btok all[6 * 30];
            size_t n = 0;
            for (int k = 0; k < nodes; k++) {
                const uint8_t *ptr[30];
                size_t lens[30];
                int m = 0;
                for (int tries = 0; m < per && tries < 1000; tries++) {
                    btok c = random_btok(&rng, shape);
                    bool seen = false;
                    for (size_t q = 0; q < n + (size_t)m; q++)
                        seen |= cmpb(&all[q], &c) == 0;
                    if (!seen) {
                        all[n + (size_t)m] = c;
                        m++;
                    }
                }
                for (int q = 0; q < m; q++) {
                    ptr[q] = all[n + (size_t)q].b;
                    lens[q] = all[n + (size_t)q].len;
                }
                char name[16];
                snprintf(name, sizeof name, "n%d", k);
                assert_int_equal(tokenring_topology_add_node_bytes(t, name, "dc1", "r1", ptr, lens,
                                                                   (size_t)m, NULL), TOKENRING_OK);
                n += (size_t)m;
            }
            tokenring_ring *r = NULL;
            assert_int_equal(tokenring_ring_build(&r, t, NULL), TOKENRING_OK);
            assert_int_equal(tokenring_ring_partitioner(r), TOKENRING_PARTITIONER_BYTE_ORDERED);
            qsort(all, n, sizeof *all, cmpb);
            for (size_t i = 0; i < n; i++) {
                const uint8_t *b;
                size_t bl;
                assert_int_equal(tokenring_ring_token_bytes(&b, &bl, r, i), TOKENRING_OK);
                assert_int_equal(bl, all[i].len);
                if (bl)
                    assert_memory_equal(b, all[i].b, bl);
                assert_int_equal(tokenring_ring_search_bytes(r, all[i].b, all[i].len), i);
                btok longer = all[i];
                if (longer.len < 20) {
                    longer.b[longer.len++] = 0;
                    assert_int_equal(tokenring_ring_search_bytes(r, longer.b, longer.len),
                                     lbb(all, n, &longer));
                }
            }
            for (int q = 0; q < 300; q++) {
                btok k = random_btok(&rng, shape);
                assert_int_equal(tokenring_ring_search_bytes(r, k.b, k.len), lbb(all, n, &k));
            }
            assert_int_equal(tokenring_ring_search_bytes(r, NULL, 0), 0);
            assert_int_equal(tokenring_ring_search_bytes(r, NULL, 1), UINT32_MAX);
            assert_int_equal(tokenring_ring_search128(r, MIN128), UINT32_MAX);
            tokenring_range128 rg;
            assert_int_equal(tokenring_ring_range128(&rg, r, 0), TOKENRING_E_UNSUPPORTED);
            tokenring_ring_free(r);
            tokenring_topology_free(t);
        }
    }
}

/* What does not work on these rings yet refuses them instead of reading int64 tokens
 * that are not there; ownership of a byte-ordered ring is the no-data figure. */
static void test_unsupported_and_byte_ownership(void **state)
{
    (void)state;
    tokenring_topology *t = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_topology_new_partitioned(&t, TOKENRING_PARTITIONER_RANDOM),
                     TOKENRING_OK);
    tokenring_token128 a[] = {t128(1, 0), t128(3, 0)}, b[] = {t128(2, 0)};
    assert_int_equal(tokenring_topology_add_node128(t, "a", "dc1", "r1", a, 2, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node128(t, "b", "dc1", "r2", b, 1, NULL), TOKENRING_OK);
    tokenring_ring *r = NULL;
    assert_int_equal(tokenring_ring_build(&r, t, NULL), TOKENRING_OK);
    tokenring_replication *repl = NULL;
    assert_int_equal(tokenring_replication_simple(&repl, 2, 0, NULL), TOKENRING_OK);
    /* movement, kept tokens and balance work on such rings since 1.2
     * (tests/test_movement.c); the allocators still refuse them */
    tokenring_movement *m = NULL;
    assert_int_equal(tokenring_movement_decommission(&m, t, repl, "a", NULL, 0, &err),
                     TOKENRING_OK);
    tokenring_movement_free(m);
    size_t kept, lost, gained;
    assert_int_equal(tokenring_ring_tokens_kept(&kept, &lost, &gained, r, r), TOKENRING_OK);
    assert_true(kept == 3 && lost == 0 && gained == 0);
    tokenring_balance bal;
    assert_int_equal(tokenring_balance_compute(&bal, NULL, r, NULL, NULL, NULL, &err),
                     TOKENRING_OK);
    int64_t out[4];
    assert_int_equal(tokenring_allocate_tokens(out, 4, t, "dc1", "r1", 2, 0, &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_int_equal(tokenring_allocate_join(out, 4, t, "n", "dc1", "r1", NULL, 2,
                                             TOKENRING_CASSANDRA_5_0, 0, &err),
                     TOKENRING_E_UNSUPPORTED);
    /* placements and ownership work: widths over 2^127 */
    tokenring_placement *p = NULL;
    assert_int_equal(tokenring_placement_build(&p, r, repl, 0, &err), TOKENRING_OK);
    tokenring_ownership own[2];
    assert_int_equal(tokenring_ring_ownership(own, 2, r, p), TOKENRING_OK);
    /* a owns (2^64, 3*2^64] minus b's (2^64, 2*2^64], plus the wrap (3*2^64, 2^64] */
    assert_true(own[1].primary_width.hi == 1 && own[1].primary_width.lo == 0);
    assert_true(own[0].primary_width.hi == (UINT64_C(1) << 63) - 1 && own[0].primary_width.lo == 0);
    assert_true(own[0].effective_width.hi == UINT64_C(1) << 63); /* 2^127: every range */
    assert_true(own[1].primary == 0x1p-63);
    assert_true(own[1].nodetool_primary == 0x1p-63f);
    assert_int_equal(tokenring_ring_ownership_flags(r), 0);
    tokenring_placement_free(p);
    tokenring_replication_free(repl);
    tokenring_ring_free(r);
    tokenring_topology_free(t);

    assert_int_equal(tokenring_topology_new_partitioned(&t, TOKENRING_PARTITIONER_BYTE_ORDERED),
                     TOKENRING_OK);
    const uint8_t *ta[] = {(const uint8_t *)"a", (const uint8_t *)"c"}, *tb[] = {(const uint8_t *)"b"};
    size_t la[] = {1, 1};
    assert_int_equal(tokenring_topology_add_node_bytes(t, "a", "dc1", "r1", ta, la, 2, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node_bytes(t, "b", "dc1", "r1", tb, la, 1, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_ring_build(&r, t, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_ring_ownership(own, 2, r, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_ring_ownership_flags(r),
                     TOKENRING_OWNERSHIP_NO_WIDTHS | TOKENRING_OWNERSHIP_DATA_DEPENDENT);
    assert_true(own[0].primary_width.hi == 0 && own[0].primary_width.lo == 0);
    assert_true(own[0].primary == 0.0);
    assert_true(own[1].nodetool_primary == 1.0f / 3.0f);               /* 0x3eaaaaab */
    assert_true(own[0].nodetool_primary == 1.0f / 3.0f + 1.0f / 3.0f); /* summed in float */
    assert_int_equal(own[0].token_count, 2);
    tokenring_ring_free(r);
    tokenring_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(toy_owner_ranges_and_replicas),
        cmocka_unit_test(toy_scaled_shares_are_exact),
        cmocka_unit_test(ring_numbers_nodes_dcs_and_racks),
        cmocka_unit_test(ring_build_errors_and_single_token),
        cmocka_unit_test(large_rings_are_sorted_and_owned),
        cmocka_unit_test(placement_rules_and_errors),
        cmocka_unit_test(rack_repeats_are_taken_in_walk_order),
        cmocka_unit_test(builders_fail_cleanly_on_allocation_failure),
        cmocka_unit_test(test_ring128_search),
        cmocka_unit_test(test_ring_bytes_search),
        cmocka_unit_test(test_unsupported_and_byte_ownership),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
