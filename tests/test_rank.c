/* SPDX-License-Identifier: Apache-2.0 */
/* The set-id rank of a placement (lib/ring/ring_internal.h) on both of its popcount paths: the
 * processor's POPCNT, which a placement uses when tr_cpu_features() reports it (lib/base/cpu.c),
 * and the portable SWAR form that other processors run. The machine running the tests
 * takes one path on its own, so each placement here is read on both (the hw_popcnt flag
 * flipped; the POPCNT path only where the processor has it), and they must agree with each
 * other and with the public range-by-range view. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ring_internal.h"
#include "testrng.h"

static uint64_t rng_state = 7;

static uint64_t rnd(void)
{
    return tt_splitmix64(&rng_state);
}

static uint32_t bits_of(uint64_t x)
{
    uint32_t n = 0;
    for (; x; x >>= 1)
        n += (uint32_t)(x & 1);
    return n;
}

static void test_swar_popcount(void **state)
{
    (void)state;
    static const uint64_t edge[] = { 0, 1, UINT64_MAX, UINT64_C(1) << 63,
                                     UINT64_C(0x5555555555555555), UINT64_C(0xaaaaaaaaaaaaaaaa),
                                     UINT64_C(0x00000000ffffffff), UINT64_C(0x8000000000000001) };
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++)
        assert_int_equal(tr_popcount64_swar(edge[i]), bits_of(edge[i]));
    for (int i = 0; i < 64; i++) {
        assert_int_equal(tr_popcount64_swar(UINT64_C(1) << i), 1);
        assert_int_equal(tr_popcount64_swar((UINT64_C(1) << i) - 1), (uint32_t)i);
    }
    /* sparse, dense and uniform words */
    for (int i = 0; i < 100000; i++) {
        uint64_t x = rnd();
        if (i % 3 == 1)
            x &= rnd() & rnd();
        else if (i % 3 == 2)
            x |= rnd() | rnd();
        assert_int_equal(tr_popcount64_swar(x), bits_of(x));
    }
}

/* Both paths of tr_popcount64 on one placement give the same counts. */
static void test_popcount_paths(void **state)
{
    (void)state;
    struct tokenring_placement p;
    memset(&p, 0, sizeof p);
    for (int i = 0; i < 100000; i++) {
        uint64_t x = rnd() & (i % 2 ? rnd() : UINT64_MAX);
        p.hw_popcnt = false;
        uint32_t soft = tr_popcount64(&p, x);
        p.hw_popcnt = (tr_cpu_features() & TR_CPU_POPCNT) != 0;
        assert_int_equal(tr_popcount64(&p, x), soft);
        assert_int_equal(soft, bits_of(x));
    }
}

/* A ring of `nodes` nodes with `per` random tokens each over `dcs` datacenters of `racks`
 * racks. Few nodes and many tokens give many repeated sets (the rank's slow path). */
static tokenring_ring *random_ring(int nodes, int per, int dcs, int racks)
{
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    int64_t *tok = malloc((size_t)per * sizeof *tok);
    assert_non_null(tok);
    for (int i = 0; i < nodes; i++) {
        char name[32], dc[16], rack[16];
        snprintf(name, sizeof name, "n%d", i);
        snprintf(dc, sizeof dc, "dc%d", i % dcs + 1);
        snprintf(rack, sizeof rack, "r%d", i / dcs % racks + 1);
        for (;;) {
            for (int k = 0; k < per; k++)
                tok[k] = (int64_t)rnd();
            tokenring_error err;
            int rc = tokenring_topology_add_node(t, name, dc, rack, tok, (size_t)per, &err);
            if (rc == TOKENRING_OK)
                break;
            assert_int_equal(rc, TOKENRING_E_EXISTS);
        }
    }
    free(tok);
    tokenring_ring *ring = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_ring_build(&ring, t, &err), TOKENRING_OK);
    tokenring_topology_free(t);
    return ring;
}

/* The paths this machine can run: index 0 is the portable one. */
static int paths(bool hw_popcnt[2])
{
    hw_popcnt[0] = false;
    hw_popcnt[1] = true;
    return (tr_cpu_features() & TR_CPU_POPCNT) ? 2 : 1;
}

static void same(const tokenring_replicas *a, const tokenring_replicas *b)
{
    assert_int_equal(a->set_id, b->set_id);
    assert_int_equal(a->range_index, b->range_index);
    assert_int_equal(a->count, b->count);
    assert_ptr_equal(a->nodes, b->nodes);
    assert_ptr_equal(a->transient, b->transient);
}

/* Every lookup of one placement read with the SWAR rank equals the same lookup with the
 * processor's, and the range-by-range view: by range, by token (each range's bounds and
 * random tokens) and by set id. */
static void check_placement(tokenring_placement *pl)
{
    const tokenring_ring *ring = tokenring_placement_ring(pl);
    size_t n = 0;
    const int64_t *tok = tokenring_ring_tokens(ring, &n);
    bool pcs[2];
    int nc = paths(pcs);
    bool own_pc = pl->hw_popcnt;
    size_t repeats = 0;
    for (size_t r = 0; r < n; r++) {
        tokenring_replicas want, got[2];
        assert_int_equal(tokenring_placement_range_replicas(&want, pl, r), TOKENRING_OK);
        int64_t probes[3] = { tok[r], tok[r] - 1, (int64_t)rnd() };
        for (int k = 0; k < 3; k++) {
            if (k == 1 && tok[r] == INT64_MIN)
                continue;
            for (int c = 0; c < nc; c++) {
                pl->hw_popcnt = pcs[c];
                assert_int_equal(tokenring_placement_replicas(&got[c], pl, probes[k]),
                                 TOKENRING_OK);
                same(&got[c], &got[0]);
            }
            assert_int_equal(got[0].range_index, tokenring_ring_search(ring, probes[k]));
            /* a range's own end token is in it; one below its end is too unless the
             * range is a single token wide */
            if (k == 0 || (k == 1 && (r == 0 || tok[r] - 1 > tok[r - 1])))
                same(&got[0], &want);
        }
        /* the set's first range reads the same row */
        for (int c = 0; c < nc; c++) {
            pl->hw_popcnt = pcs[c];
            tokenring_replicas by_set;
            assert_int_equal(tokenring_placement_set(&by_set, pl, want.set_id), TOKENRING_OK);
            assert_ptr_equal(by_set.nodes, want.nodes);
            assert_true(by_set.range_index <= r);
            if (c == 0 && by_set.range_index < r)
                repeats++;
        }
    }
    pl->hw_popcnt = own_pc;
    assert_int_equal(repeats, n - tokenring_placement_set_count(pl));
}

static void test_rank_paths(void **state)
{
    (void)state;
    static const struct {
        int nodes, per, dcs, racks;
        const char *repl;
    } cases[] = {
        { 6, 8, 1, 1, "3" },                  /* a fifth of the ranges repeat */
        { 4, 64, 1, 2, "3" },                 /* many repeats, several per 64-range word */
        { 9, 32, 3, 1, "dc1=2,dc2=2,dc3=2" }, /* NTS, one rack per datacenter */
        { 24, 16, 2, 3, "dc1=3,dc2=2" },
        { 96, 16, 3, 3, "dc1=3,dc2=3,dc3=3" }, /* few repeats: the common case */
        { 8, 640, 1, 2, "3" }, /* past TR_SET_TABLES_MAX ranges: the rank alone */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        tokenring_ring *ring =
            random_ring(cases[c].nodes, cases[c].per, cases[c].dcs, cases[c].racks);
        tokenring_replication *repl = NULL;
        tokenring_error err;
        assert_int_equal(tokenring_replication_parse(&repl, cases[c].repl,
                                                     strlen(cases[c].repl), &err),
                         TOKENRING_OK);
        tokenring_placement *pl = NULL;
        assert_int_equal(tokenring_placement_build(&pl, ring, repl, 0, &err), TOKENRING_OK);
        assert_int_equal(pl->hw_popcnt, (tr_cpu_features() & TR_CPU_POPCNT) != 0);
        if (c < 2) {
            size_t ntok = 0;
            tokenring_ring_tokens(ring, &ntok);
            assert_true(tokenring_placement_set_count(pl) < ntok);
        }
        check_placement(pl);
        /* small rings with repeats read plain tables instead of the rank (both ways);
         * hidden, the rank answers the same */
        size_t ntok = 0;
        tokenring_ring_tokens(ring, &ntok);
        bool small = ntok <= TR_SET_TABLES_MAX && tokenring_placement_set_count(pl) < ntok;
        assert_int_equal(pl->range_set != NULL, small);
        assert_int_equal(pl->set_first != NULL, small);
        if (small) {
            size_t nsets = tokenring_placement_set_count(pl);
            for (size_t r = 0; r < ntok; r++)
                assert_int_equal(pl->set_first[pl->range_set[r]] <= r, true);
            uint32_t *range_set = pl->range_set, *set_first = pl->set_first;
            pl->range_set = pl->set_first = NULL;
            for (size_t r = 0; r < ntok; r++)
                assert_int_equal(tr_range_set(pl, (uint32_t)r), range_set[r]);
            for (size_t k = 0; k < nsets; k++)
                assert_int_equal(tr_set_range(pl, (uint32_t)k), set_first[k]);
            check_placement(pl);
            pl->range_set = range_set;
            pl->set_first = set_first;
        }
        tokenring_placement_free(pl);
        tokenring_replication_free(repl);
        tokenring_ring_free(ring);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_swar_popcount),
        cmocka_unit_test(test_popcount_paths),
        cmocka_unit_test(test_rank_paths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
