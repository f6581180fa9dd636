/* SPDX-License-Identifier: Apache-2.0 */
/* Availability under node failures (availability.h, tokenring_availability_build): every
 * k-set of failed nodes whose loss makes some range unavailable at a consistency level,
 * checked exactly against a brute-force model written here; the seed's facts, errors and
 * every bad argument. tokenring_availability_summary_build() (the counts over every k-set
 * of nodes, racks or datacenters) is test_availability_summary.c; allocation failures
 * test_availability_oom.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

#include "tokenring/tokenring.h"
#include "fixtures.h"

/* -------------------------------------------------------------- availability */

/* Brute force: for every k-subset, the width of ranges whose live replicas fall short. */
typedef struct bf_rule {
    int cl;
    int need_total;
    int need_dc[8];
    int local;
} bf_rule;

static int bf_fails(const bf_rule *b, const tokenring_ring *ring, const tokenring_replicas *rep,
                    const uint32_t *f, uint32_t k)
{
    int alive_dc[8] = { 0 }, alive = 0;
    for (uint32_t i = 0; i < rep->count; i++) {
        int down = 0;
        for (uint32_t j = 0; j < k; j++)
            down |= rep->nodes[i] == f[j];
        if (down)
            continue;
        tokenring_node_info ni;
        tokenring_ring_node(&ni, ring, rep->nodes[i]);
        alive_dc[ni.dc_index]++;
        alive++;
    }
    switch (b->cl) {
    case TOKENRING_CL_LOCAL_ONE:
    case TOKENRING_CL_LOCAL_QUORUM: return alive_dc[b->local] < b->need_dc[b->local];
    case TOKENRING_CL_EACH_QUORUM:
        for (int d = 0; d < 8; d++)
            if (alive_dc[d] < b->need_dc[d])
                return 1;
        return 0;
    default: return alive < b->need_total;
    }
}

static void check_against_brute_force(const tokenring_topology *t,
                                      const tokenring_replication *r, const bf_rule *b,
                                      const char *local, uint32_t k, size_t *count_out)
{
    tokenring_ring *ring;
    tokenring_ring_build(&ring, t, NULL);
    tokenring_placement *p;
    assert_int_equal(tokenring_placement_build(&p, ring, r, 0, NULL), 0);
    tokenring_availability *a;
    assert_int_equal(tokenring_availability_build(&a, ring, r, b->cl, local, k, NULL), 0);
    size_t n = tokenring_ring_node_count(ring), ranges;
    tokenring_ring_tokens(ring, &ranges);
    size_t expect = 0, got = tokenring_availability_count(a), idx = 0;
    uint32_t f[3];
    for (f[0] = 0; f[0] < n; f[0]++)
        for (f[1] = k > 1 ? f[0] + 1 : 0; k < 2 || f[1] < n; f[1]++) {
            for (f[2] = k > 2 ? f[1] + 1 : 0; k < 3 || f[2] < n; f[2]++) {
                u128 w = 0;
                for (size_t i = 0; i < ranges; i++) {
                    tokenring_replicas rep;
                    tokenring_range rg;
                    tokenring_placement_range_replicas(&rep, p, i);
                    tokenring_ring_range(&rg, ring, i);
                    if (bf_fails(b, ring, &rep, f, k))
                        w += U(rg.width);
                }
                if (w > 0) {
                    expect++;
                    assert_true(idx < got);
                    uint32_t nodes[3];
                    tokenring_u128 width;
                    double frac;
                    assert_int_equal(tokenring_availability_get(nodes, &width, &frac, a, idx), 0);
                    for (uint32_t j = 0; j < k; j++)
                        assert_int_equal(nodes[j], f[j]);
                    assert_true(U(width) == w);
                    assert_true(frac > 0 && frac <= 1.0);
                    idx++;
                }
                if (k < 3)
                    break;
            }
            if (k < 2)
                break;
        }
    assert_int_equal(got, expect);
    *count_out = got;
    tokenring_availability_free(a);
    tokenring_placement_free(p);
    tokenring_ring_free(ring);
}

static tokenring_topology *twelve(uint32_t tokens, int racks)
{
    static const char *names[] = { "n01", "n02", "n03", "n04", "n05", "n06",
                                   "n07", "n08", "n09", "n10", "n11", "n12" };
    const char *rk[12];
    for (int i = 0; i < 12; i++)
        rk[i] = racks == 1 ? "r1" : (i % 3 == 0 ? "r1" : i % 3 == 1 ? "r2" : "r3");
    tokenring_topology *t;
    tokenring_topology_new(&t);
    assert_int_equal(tokenring_layout_add_seeded_nodes(t, 1, tokens, names, NULL, rk, 12, 0, NULL),
                     0);
    return t;
}

static tokenring_replication *nts1(int rf)
{
    tokenring_replication *r;
    tokenring_replication_network(&r);
    tokenring_replication_set_dc(r, "datacenter1", rf, 0, NULL);
    return r;
}

static void availability_seed_facts(void **state)
{
    (void)state;
    bf_rule q = { .cl = TOKENRING_CL_QUORUM, .need_total = 2 };
    tokenring_replication *r = nts1(3);
    size_t count;
    /* 256 tokens, one rack: every pair breaks QUORUM. */
    tokenring_topology *t = twelve(256, 1);
    check_against_brute_force(t, r, &q, NULL, 2, &count);
    assert_int_equal(count, 66);
    tokenring_topology_free(t);
    /* Three racks of four: exactly the 48 cross-rack pairs. */
    t = twelve(256, 3);
    tokenring_ring *ring;
    tokenring_ring_build(&ring, t, NULL);
    tokenring_availability *a;
    assert_int_equal(tokenring_availability_build(&a, ring, r, TOKENRING_CL_QUORUM, NULL, 2, NULL),
                     0);
    assert_int_equal(tokenring_availability_count(a), 48);
    for (size_t i = 0; i < 48; i++) {
        uint32_t nodes[2];
        tokenring_availability_get(nodes, NULL, NULL, a, i);
        tokenring_node_info x, y;
        tokenring_ring_node(&x, ring, nodes[0]);
        tokenring_ring_node(&y, ring, nodes[1]);
        assert_string_not_equal(x.rack, y.rack);
    }
    tokenring_availability_free(a);
    tokenring_ring_free(ring);
    check_against_brute_force(t, r, &q, NULL, 2, &count);
    tokenring_topology_free(t);
    /* One token per node: only pairs within two ring positions (12 * 2 = 24). */
    t = twelve(1, 1);
    tokenring_ring_build(&ring, t, NULL);
    assert_int_equal(tokenring_availability_build(&a, ring, r, TOKENRING_CL_QUORUM, NULL, 2, NULL),
                     0);
    assert_int_equal(tokenring_availability_count(a), 24);
    const uint32_t *owners = tokenring_ring_token_nodes(ring, NULL);
    for (size_t i = 0; i < 24; i++) {
        uint32_t nodes[2];
        tokenring_availability_get(nodes, NULL, NULL, a, i);
        int p0 = -1, p1 = -1;
        for (int j = 0; j < 12; j++) {
            if (owners[j] == nodes[0])
                p0 = j;
            if (owners[j] == nodes[1])
                p1 = j;
        }
        int d = abs(p0 - p1);
        if (d > 6)
            d = 12 - d;
        assert_true(d >= 1 && d <= 2);
    }
    tokenring_availability_free(a);
    tokenring_ring_free(ring);
    check_against_brute_force(t, r, &q, NULL, 2, &count);
    check_against_brute_force(t, r, &q, NULL, 3, &count);
    check_against_brute_force(t, r, &q, NULL, 1, &count);
    assert_int_equal(count, 0);
    tokenring_topology_free(t);
    tokenring_replication_free(r);
}

static void availability_levels_brute_force(void **state)
{
    (void)state;
    /* Two datacenters, racks, 4 tokens per node. */
    static const char *names[] = { "a1", "a2", "a3", "a4", "a5", "b1", "b2", "b3", "b4" };
    static const char *dcs[] = { "east", "east", "east", "east", "east",
                                 "west", "west", "west", "west" };
    static const char *racks[] = { "r1", "r2", "r3", "r1", "r2", "r1", "r2", "r1", "r2" };
    tokenring_topology *t;
    tokenring_topology_new(&t);
    assert_int_equal(tokenring_layout_add_seeded_nodes(t, 3, 4, names, dcs, racks, 9, 0, NULL), 0);
    tokenring_replication *r;
    tokenring_replication_network(&r);
    tokenring_replication_set_dc(r, "east", 3, 0, NULL);
    tokenring_replication_set_dc(r, "west", 2, 0, NULL);
    size_t count;
    /* dc indices: east 0, west 1 (sorted names). */
    bf_rule rules[] = {
        { .cl = TOKENRING_CL_ONE, .need_total = 1 },
        { .cl = TOKENRING_CL_TWO, .need_total = 2 },
        { .cl = TOKENRING_CL_THREE, .need_total = 3 },
        { .cl = TOKENRING_CL_QUORUM, .need_total = 3 },
        { .cl = TOKENRING_CL_ALL, .need_total = 5 },
        { .cl = TOKENRING_CL_LOCAL_ONE, .need_dc = { 1, 1 }, .local = 1 },
        { .cl = TOKENRING_CL_LOCAL_QUORUM, .need_dc = { 2, 2 }, .local = 0 },
        { .cl = TOKENRING_CL_EACH_QUORUM, .need_dc = { 2, 2 } },
    };
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        for (uint32_t k = 1; k <= 3; k++) {
            const char *local = rules[i].cl == TOKENRING_CL_LOCAL_ONE ? "west"
                                : rules[i].cl == TOKENRING_CL_LOCAL_QUORUM ? "east"
                                                                           : NULL;
            check_against_brute_force(t, r, &rules[i], local, k, &count);
            if (rules[i].cl == TOKENRING_CL_ALL && k == 1)
                assert_int_equal(count, 9); /* any node down breaks ALL */
        }
    tokenring_replication_free(r);
    tokenring_topology_free(t);
}

static void availability_errors(void **state)
{
    (void)state;
    tokenring_topology *t = twelve(4, 1);
    tokenring_ring *ring;
    tokenring_ring_build(&ring, t, NULL);
    tokenring_replication *r = nts1(2);
    tokenring_availability *a = (tokenring_availability *)0x1;
    tokenring_error err;
    assert_int_equal(tokenring_availability_build(&a, ring, r, TOKENRING_CL_THREE, NULL, 1, &err),
                     TOKENRING_E_IMPOSSIBLE);
    assert_ptr_equal(a, (tokenring_availability *)0x1); /* *out untouched (common.h) */
    assert_non_null(strstr(err.message, "THREE"));
    assert_int_equal(tokenring_availability_build(&a, ring, r, TOKENRING_CL_ONE, NULL, 0, &err),
                     TOKENRING_E_RANGE);
    assert_int_equal(tokenring_availability_build(&a, ring, r, TOKENRING_CL_ONE, NULL, 4, &err),
                     TOKENRING_E_RANGE);
    assert_non_null(strstr(err.message, "k = 4"));
    assert_int_equal(tokenring_availability_build(&a, ring, r, 0, NULL, 1, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(
        tokenring_availability_build(&a, ring, r, TOKENRING_CL_LOCAL_QUORUM, NULL, 1, &err),
        TOKENRING_E_INVAL);
    assert_int_equal(
        tokenring_availability_build(&a, ring, r, TOKENRING_CL_LOCAL_QUORUM, "mars", 1, &err),
        TOKENRING_E_NOTFOUND);
    assert_int_equal(tokenring_availability_build(NULL, ring, r, 1, NULL, 1, &err),
                     TOKENRING_E_INVAL);
    /* k larger than the node count. */
    tokenring_topology *two;
    tokenring_topology_new(&two);
    tokenring_layout_add_seeded_nodes(two, 1, 4, demo_names, NULL, NULL, 2, 0, NULL);
    tokenring_ring *ring2;
    tokenring_ring_build(&ring2, two, NULL);
    assert_int_equal(tokenring_availability_build(&a, ring2, r, TOKENRING_CL_ONE, NULL, 3, &err),
                     TOKENRING_E_RANGE);
    assert_int_equal(tokenring_availability_build(&a, ring2, r, TOKENRING_CL_ONE, NULL, 2, &err),
                     0);
    assert_int_equal(tokenring_availability_count(a), 1);
    uint32_t nodes[2];
    tokenring_u128 w;
    assert_int_equal(tokenring_availability_get(nodes, &w, NULL, a, 0), 0);
    assert_true(U(w) == (u128)1 << 64);
    assert_int_equal(tokenring_availability_get(nodes, &w, NULL, a, 1), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_availability_get(NULL, &w, NULL, a, 0), TOKENRING_E_INVAL);
    tokenring_availability_free(a);
    tokenring_availability_free(NULL);
    assert_int_equal(tokenring_availability_count(NULL), 0);
    tokenring_ring_free(ring2);
    tokenring_topology_free(two);
    tokenring_replication_free(r);
    tokenring_ring_free(ring);
    tokenring_topology_free(t);
}

/* ------------------------------------------------------------- bad arguments */

static void availability_arguments(void **state)
{
    (void)state;
    fixture f;
    make(&f);
    tokenring_availability *a = NULL;
    FAILS(tokenring_availability_build(NULL, f.ring, f.nts, TOKENRING_CL_ONE, NULL, 1, err),
          TOKENRING_E_INVAL);
    FAILS(tokenring_availability_build(&a, f.ring, NULL, TOKENRING_CL_ONE, NULL, 1, err),
          TOKENRING_E_INVAL);
    FAILS(tokenring_availability_build(&a, f.ring, f.nts, 0, NULL, 1, err), TOKENRING_E_INVAL);
    FAILS(tokenring_availability_build(&a, f.ring, f.nts, 9, NULL, 1, err), TOKENRING_E_INVAL);
    FAILS(tokenring_availability_build(&a, f.ring, f.nts, TOKENRING_CL_LOCAL_ONE, NULL, 1, err),
          TOKENRING_E_INVAL);
    FAILS(tokenring_availability_build(&a, f.ring, f.nts, TOKENRING_CL_LOCAL_QUORUM, "dcX", 1,
                                       err),
          TOKENRING_E_NOTFOUND);
    FAILS(tokenring_availability_build(&a, f.ring, f.nts, TOKENRING_CL_ONE, NULL, 0, err),
          TOKENRING_E_RANGE);
    FAILS(tokenring_availability_build(&a, f.ring, f.nts, TOKENRING_CL_ONE, NULL,
                                       TOKENRING_AVAILABILITY_MAX_K + 1, err),
          TOKENRING_E_RANGE);
    assert_null(a);

    /* LOCAL_ONE in dc1 with rf 3: two failures never suffice, three in distinct racks do */
    tokenring_error err;
    assert_int_equal(tokenring_availability_build(&a, f.ring, f.nts, TOKENRING_CL_LOCAL_ONE, "dc1",
                                                  2, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_availability_count(a), 0);
    tokenring_availability_free(a);
    assert_int_equal(tokenring_availability_build(&a, f.ring, f.nts, TOKENRING_CL_ONE, NULL, 3,
                                                  &err),
                     TOKENRING_OK);
    size_t n = tokenring_availability_count(a);
    assert_true(n > 0);
    uint32_t nodes[3];
    double frac = -1;
    tokenring_u128 w;
    assert_int_equal(tokenring_availability_get(nodes, &w, &frac, a, 0), TOKENRING_OK);
    assert_true(frac > 0 && frac <= 1);
    assert_true(nodes[0] < nodes[1] && nodes[1] < nodes[2]);
    assert_int_equal(tokenring_availability_get(nodes, NULL, NULL, a, n), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_availability_get(NULL, NULL, NULL, a, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_availability_get(nodes, NULL, NULL, NULL, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_availability_count(NULL), 0);
    tokenring_availability_free(a);
    tokenring_availability_free(NULL);
    unmake(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(availability_seed_facts),
        cmocka_unit_test(availability_levels_brute_force),
        cmocka_unit_test(availability_errors),
        cmocka_unit_test(availability_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
