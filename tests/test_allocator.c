/* SPDX-License-Identifier: Apache-2.0 */
/* The replication-aware allocator (layout.h): balance of effective ownership under the
 * real NetworkTopologyStrategy placement (evaluated by the library's own placement), rack
 * layouts Cassandra refuses, batches without collisions, determinism, bad input. */
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

/* The placement of t's ring under NetworkTopologyStrategy {dc: rf} (the other
 * datacenters hold no replica); its ring is tokenring_placement_ring(). */
static tokenring_placement *dc_placement(const tokenring_topology *t, const char *dc, int rf)
{
    tokenring_ring *ring;
    assert_int_equal(tokenring_ring_build(&ring, t, NULL), 0);
    tokenring_replication *r;
    assert_int_equal(tokenring_replication_network(&r), 0);
    assert_int_equal(tokenring_replication_set_dc(r, dc, rf, 0, NULL), 0);
    tokenring_placement *p;
    assert_int_equal(tokenring_placement_build(&p, ring, r, TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC,
                                               NULL),
                     0);
    tokenring_replication_free(r);
    tokenring_ring_free(ring); /* the placement keeps its own reference */
    return p;
}

/* Adds the planned nodes ("dc-<i>") to t (fails the test on a collision) and returns the
 * effective-ownership balance of the datacenter. */
static tokenring_balance add_and_measure(tokenring_topology *t, const char *dc,
                                         const char *const *racks, size_t n, uint32_t T,
                                         const int64_t *tokens, int rf)
{
    for (size_t i = 0; i < n; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s-%zu", dc, i);
        for (uint32_t k = 1; k < T; k++)
            assert_true(tokens[i * T + k - 1] < tokens[i * T + k]); /* ascending */
        assert_int_equal(tokenring_topology_add_node(t, name, dc, racks[i], tokens + i * T, T,
                                                     NULL),
                         TOKENRING_OK);
    }
    tokenring_placement *p = dc_placement(t, dc, rf);
    tokenring_balance b;
    assert_int_equal(
        tokenring_balance_compute(NULL, &b, tokenring_placement_ring(p), p, dc, NULL, NULL), 0);
    tokenring_placement_free(p);
    return b;
}

static const char *rack_of(size_t i, int racks)
{
    static const char *names[] = { "r1", "r2", "r3", "r4", "r5" };
    return names[i % (size_t)racks];
}

static void plan_datacenter(size_t n, int racks, uint32_t T, uint32_t flags, double max_ratio,
                            double min_ratio)
{
    const char **rk = calloc(n, sizeof *rk);
    for (size_t i = 0; i < n; i++)
        rk[i] = rack_of(i, racks);
    int64_t *tok = calloc(n * T, sizeof *tok);
    tokenring_topology *t;
    tokenring_topology_new(&t);
    tokenring_error err;
    assert_int_equal(tokenring_allocate_nodes(tok, T, t, "dc1", rk, n, 3, flags, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_node_count(t), 0); /* input untouched */
    tokenring_balance b = add_and_measure(t, "dc1", rk, n, T, tok, 3);
    double mx = b.max / b.mean, mn = b.min / b.mean;
    if (mx > max_ratio || mn < min_ratio)
        fprintf(stderr, "%zu nodes, %d racks, %u tokens, flags %u: max/mean %.4f min/mean %.4f\n",
                n, racks, T, flags, mx, mn);
    assert_true(mx <= max_ratio);
    assert_true(mn >= min_ratio);
    tokenring_topology_free(t);
    free(tok);
    free(rk);
}

static void balanced_datacenters(void **state)
{
    (void)state;
    /* Batch plans (joint refinement): within 1 % at 16 tokens. */
    plan_datacenter(6, 1, 16, 0, 1.01, 0.99);
    plan_datacenter(12, 3, 16, 0, 1.01, 0.99);
    plan_datacenter(48, 3, 16, 0, 1.01, 0.99);
    plan_datacenter(50, 5, 16, 0, 1.01, 0.99);
    plan_datacenter(48, 1, 16, 0, 1.01, 0.99);
    plan_datacenter(48, 3, 4, 0, 1.01, 0.99);
    /* Node by node: each node final once chosen; still close to even. */
    plan_datacenter(12, 3, 16, TOKENRING_ALLOCATE_NODE_BY_NODE, 1.01, 0.99);
    plan_datacenter(48, 3, 16, TOKENRING_ALLOCATE_NODE_BY_NODE, 1.06, 0.94);
    plan_datacenter(6, 1, 16, TOKENRING_ALLOCATE_NODE_BY_NODE, 1.03, 0.94);
}

static void racks_fewer_than_rf_and_any_order(void **state)
{
    (void)state;
    /* Two racks, rf 3 (Cassandra refuses), filled one rack after the other. */
    const char *rk[8] = { "r1", "r1", "r1", "r1", "r2", "r2", "r2", "r2" };
    int64_t tok[8 * 16];
    tokenring_topology *t;
    tokenring_topology_new(&t);
    assert_int_equal(tokenring_allocate_nodes(tok, 16, t, "dc1", rk, 8, 3, 0, NULL),
                     TOKENRING_OK);
    tokenring_balance b = add_and_measure(t, "dc1", rk, 8, 16, tok, 3);
    assert_true(b.max / b.mean <= 1.05);
    assert_true(b.min / b.mean >= 0.95);
    tokenring_topology_free(t);
    /* Three racks filled in blocks: rack 1, then 2, then 3. */
    const char *blocks[9] = { "a", "a", "a", "b", "b", "b", "c", "c", "c" };
    int64_t tk[9 * 16];
    tokenring_topology_new(&t);
    assert_int_equal(tokenring_allocate_nodes(tk, 16, t, "dc1", blocks, 9, 3, 0, NULL),
                     TOKENRING_OK);
    b = add_and_measure(t, "dc1", blocks, 9, 16, tk, 3);
    assert_true(b.max / b.mean <= 1.01);
    assert_true(b.min / b.mean >= 0.99);
    tokenring_topology_free(t);
}

static void joins_existing_cluster_without_collisions(void **state)
{
    (void)state;
    static const char *names[] = { "10.0.0.1", "10.0.0.2", "10.0.0.3",
                                   "10.0.0.4", "10.0.0.5", "10.0.0.6" };
    tokenring_topology *t;
    tokenring_topology_new(&t);
    assert_int_equal(
        tokenring_layout_add_seeded_nodes(t, 1, 8, names, NULL, NULL, 6, 0, NULL), 0);
    /* Three nodes planned at once in the same rack: all distinct (parallel bootstraps of
     * Cassandra's allocator would pick identical tokens). */
    const char *rk[3] = { "rack1", "rack1", "rack1" };
    int64_t tok[3 * 8], again[3 * 8];
    assert_int_equal(tokenring_allocate_nodes(tok, 8, t, "datacenter1", rk, 3, 3, 0, NULL), 0);
    assert_int_equal(tokenring_allocate_nodes(again, 8, t, "datacenter1", rk, 3, 3, 0, NULL), 0);
    assert_memory_equal(tok, again, sizeof tok); /* deterministic */
    tokenring_topology *before;
    tokenring_topology_clone(&before, t);
    tokenring_placement *p = dc_placement(before, "datacenter1", 3);
    tokenring_balance b0;
    assert_int_equal(
        tokenring_balance_compute(NULL, &b0, tokenring_placement_ring(p), p, NULL, NULL, NULL), 0);
    tokenring_balance b1 = add_and_measure(t, "datacenter1", rk, 3, 8, tok, 3);
    assert_int_equal(b1.node_count, 9);
    assert_true(b1.max / b1.mean < b0.max / b0.mean); /* joining improves the balance */
    /* A second datacenter avoids every token of the first. */
    const char *rk2[4] = { "x", "y", "z", "x" };
    int64_t t2[4 * 8];
    assert_int_equal(tokenring_allocate_nodes(t2, 8, t, "dc2", rk2, 4, 3, 0, NULL), 0);
    add_and_measure(t, "dc2", rk2, 4, 8, t2, 3);
    /* One node: the same as a one-node plan, node by node. */
    int64_t one[8], plan[8];
    assert_int_equal(tokenring_allocate_tokens(one, 8, t, "dc2", "y", 3, 0, NULL), 0);
    const char *y = "y";
    assert_int_equal(tokenring_allocate_nodes(plan, 8, t, "dc2", &y, 1, 3,
                                              TOKENRING_ALLOCATE_NODE_BY_NODE, NULL),
                     0);
    assert_memory_equal(one, plan, sizeof one);
    tokenring_placement_free(p);
    tokenring_topology_free(before);
    tokenring_topology_free(t);
}

static int cmp_tok(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* ---- every node of the datacenter gets a fair share (regression: a joining node's tokens
 * were placed next to a same-rack node's, so it owned nothing) */

#define BAND_MAX 1.25
#define BAND_MIN 0.75

/* Effective ownership of dc's nodes (of one rack when rack is not NULL) stays within
 * BAND_MIN..BAND_MAX of the mean; what names the case in the message on failure. */
static void assert_in_band(const tokenring_placement *p, const char *dc, const char *rack,
                           const char *what)
{
    tokenring_balance b;
    assert_int_equal(
        tokenring_balance_compute(NULL, &b, tokenring_placement_ring(p), p, dc, rack, NULL), 0);
    double mx = b.max / b.mean, mn = b.min / b.mean;
    if (mx > BAND_MAX || mn < BAND_MIN)
        fprintf(stderr, "%s: %s %s max/mean %.3f min/mean %.3f\n", what,
                rack ? "rack" : "datacenter", rack ? rack : dc, mx, mn);
    assert_true(mx <= BAND_MAX);
    assert_true(mn >= BAND_MIN);
}

/* Effective ownership of every node of dc, checked against its fair share: inside each
 * rack (racks >= rf: each node's share of its rack's copy; racks < rf: the same for all
 * nodes), and across the datacenter when every rack has as many nodes. */
static void assert_fair(tokenring_topology *t, const char *dc, int rf, const char *what)
{
    tokenring_placement *p = dc_placement(t, dc, rf);
    const char *racks[8];
    size_t per[8], nr = 0;
    for (size_t i = 0; i < tokenring_topology_node_count(t); i++) {
        tokenring_node_info info;
        tokenring_topology_node(&info, t, i);
        if (strcmp(info.datacenter, dc) != 0)
            continue;
        size_t k;
        for (k = 0; k < nr; k++)
            if (strcmp(racks[k], info.rack) == 0)
                break;
        if (k == nr) {
            assert_true(nr < 8);
            racks[nr] = info.rack;
            per[nr++] = 0;
        }
        per[k]++;
    }
    bool same = true;
    for (size_t k = 0; k < nr; k++) {
        same &= per[k] == per[0];
        if (nr < (size_t)rf)
            continue; /* racks < rf: checked across the datacenter below */
        assert_in_band(p, dc, racks[k], what);
    }
    if (same || nr < (size_t)rf)
        assert_in_band(p, dc, NULL, what);
    tokenring_placement_free(p);
}

/* No degenerate tokens: every gap between consecutive tokens of the datacenter is at
 * least 1/4096 of the mean gap (adjacent tokens, one apart, are what the bug produced). */
static void assert_no_adjacent(tokenring_topology *t, const char *dc, const char *what)
{
    size_t n = 0;
    int64_t *all = NULL;
    for (size_t i = 0; i < tokenring_topology_node_count(t); i++) {
        tokenring_node_info info;
        tokenring_topology_node(&info, t, i);
        if (strcmp(info.datacenter, dc) != 0)
            continue;
        all = realloc(all, (n + info.token_count) * sizeof *all);
        memcpy(all + n, info.tokens, info.token_count * sizeof *all);
        n += info.token_count;
    }
    qsort(all, n, sizeof *all, cmp_tok);
    double mean_gap = 18446744073709551616.0 / (double)n, min_gap = mean_gap;
    for (size_t i = 1; i < n; i++) {
        double g = (double)((uint64_t)all[i] - (uint64_t)all[i - 1]);
        if (g < min_gap)
            min_gap = g;
    }
    if (min_gap < mean_gap / 4096)
        fprintf(stderr, "%s: smallest gap %.0f, mean %.0f\n", what, min_gap, mean_gap);
    assert_true(min_gap >= mean_gap / 4096);
    free(all);
}

static void add_node(tokenring_topology *t, const char *dc, const char *rack, const int64_t *tok,
                     uint32_t T)
{
    char name[32];
    snprintf(name, sizeof name, "n%zu", tokenring_topology_node_count(t));
    for (uint32_t k = 1; k < T; k++)
        assert_true(tok[k - 1] < tok[k]);
    assert_int_equal(tokenring_topology_add_node(t, name, dc, rack, tok, T, NULL), TOKENRING_OK);
}

/* `existing` nodes laid out evenly (slot i of existing) or seeded, rack i % racks; then
 * `joins` nodes join one at a time with tokenring_allocate_tokens(), the datacenter
 * checked after each join once it has more than rf nodes. */
static void join_one_by_one(int racks, size_t existing, bool seeded, size_t joins)
{
    enum { T = 16, RF = 3 };
    static const char *rk[] = { "r1", "r2", "r3", "r4", "r5" };
    tokenring_topology *t;
    tokenring_topology_new(&t);
    if (seeded) {
        const char *names[16], *dcs[16], *rks[16];
        char buf[16][16];
        for (size_t i = 0; i < existing; i++) {
            snprintf(buf[i], sizeof buf[i], "s%zu", i);
            names[i] = buf[i];
            dcs[i] = "dc1";
            rks[i] = rk[i % (size_t)racks];
        }
        assert_int_equal(tokenring_layout_add_seeded_nodes(t, 7, T, names, dcs, rks, existing,
                                                           0, NULL),
                         TOKENRING_OK);
    } else {
        for (size_t i = 0; i < existing; i++) {
            int64_t tok[T];
            tokenring_layout_even_tokens(tok, T, (uint32_t)i, (uint32_t)existing);
            add_node(t, "dc1", rk[i % (size_t)racks], tok, T);
        }
    }
    for (size_t j = 0; j < joins; j++) {
        size_t i = existing + j;
        int64_t tok[T];
        tokenring_error err;
        assert_int_equal(tokenring_allocate_tokens(tok, T, t, "dc1", rk[i % (size_t)racks], RF,
                                                   0, &err),
                         TOKENRING_OK);
        add_node(t, "dc1", rk[i % (size_t)racks], tok, T);
        if (i + 1 > (size_t)RF) {
            char what[96];
            snprintf(what, sizeof what, "%d racks, %zu %s + %zu joined", racks, existing,
                     seeded ? "seeded" : "even", j + 1);
            if (!seeded) {
                assert_fair(t, "dc1", RF, what);
                assert_no_adjacent(t, "dc1", what);
            }
        }
    }
    if (seeded) /* the seeded nodes start uneven: check the final state only */
        assert_fair(t, "dc1", RF, "seeded");
    tokenring_topology_free(t);
}

/* A batch of n nodes planned node by node (and jointly) from an empty datacenter. */
static void plan_fair(int racks, size_t n, uint32_t flags)
{
    enum { T = 16, RF = 3 };
    const char *rk[32];
    for (size_t i = 0; i < n; i++)
        rk[i] = rack_of(i, racks);
    int64_t tok[32 * T];
    tokenring_topology *t;
    tokenring_topology_new(&t);
    assert_int_equal(tokenring_allocate_nodes(tok, T, t, "dc1", rk, n, RF, flags, NULL),
                     TOKENRING_OK);
    for (size_t i = 0; i < n; i++)
        add_node(t, "dc1", rk[i], tok + i * T, T);
    char what[64];
    snprintf(what, sizeof what, "%d racks, %zu planned, flags %u", racks, n, flags);
    assert_fair(t, "dc1", RF, what);
    assert_no_adjacent(t, "dc1", what);
    tokenring_topology_free(t);
}

static void every_node_gets_a_fair_share(void **state)
{
    (void)state;
    /* The reported case: three even nodes in r1..r3, a fourth joins r1. */
    join_one_by_one(3, 3, false, 1);
    static const int rack_counts[] = { 1, 3, 2, 5 };
    for (size_t c = 0; c < 4; c++) {
        int racks = rack_counts[c];
        size_t base = racks > 3 ? (size_t)racks : 3;
        join_one_by_one(racks, base, false, 1);
        join_one_by_one(racks, 2 * base, true, 1);
        join_one_by_one(racks, 0, false, 2 * base + 1); /* node by node from empty */
        plan_fair(racks, 2 * base + 1, TOKENRING_ALLOCATE_NODE_BY_NODE);
        plan_fair(racks, 2 * base + 1, 0);
    }
}

static void bad_input(void **state)
{
    (void)state;
    tokenring_topology *t;
    tokenring_topology_new(&t);
    int64_t tok[16];
    const char *rk[1] = { "r1" };
    tokenring_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(tokenring_allocate_tokens(tok, 16, t, "dc1", "r1", 0, 0, &err),
                     TOKENRING_E_RANGE);
    assert_non_null(strstr(err.message, "replication factor"));
    assert_int_equal(tokenring_allocate_tokens(tok, 16, t, "dc1", "r1", 256, 0, &err),
                     TOKENRING_E_RANGE);
    assert_int_equal(tokenring_allocate_tokens(tok, 0, t, "dc1", "r1", 3, 0, &err),
                     TOKENRING_E_RANGE);
    assert_int_equal(tokenring_allocate_tokens(NULL, 16, t, "dc1", "r1", 3, 0, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_allocate_tokens(tok, 16, NULL, "dc1", "r1", 3, 0, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_allocate_tokens(tok, 16, t, "", "r1", 3, 0, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_allocate_tokens(tok, 16, t, "dc1", NULL, 3, 0, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_allocate_tokens(tok, 16, t, "dc1", "r1", 3, 0x10, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_allocate_nodes(tok, 16, t, "dc1", rk, 0, 3, 0, &err),
                     TOKENRING_E_RANGE);
    assert_int_equal(tokenring_allocate_nodes(tok, 16, t, "dc1", rk, 1, 3, 0x10, &err),
                     TOKENRING_E_INVAL);
    const char *bad[1] = { "\xff" };
    assert_int_equal(tokenring_allocate_nodes(tok, 16, t, "dc1", bad, 1, 3, 0, &err),
                     TOKENRING_E_INVAL);
    /* A single node with rf 3 is fine: it replicates everything. */
    assert_int_equal(tokenring_allocate_tokens(tok, 16, t, "dc1", "r1", 3, 0, &err), 0);
    int64_t even[16];
    tokenring_layout_even_tokens(even, 16, 0, 3);
    assert_memory_equal(tok, even, sizeof even);
    tokenring_topology_free(t);
}

/* More tokens than the datacenter has ranges, which Cassandra accepts: a 16-token node
 * joining 5 (or, as in issue 32, 3) single-token nodes; tokens distinct, ascending, new. */
static void more_tokens_than_ranges_accepted(void **state)
{
    (void)state;
    for (int n = 3; n <= 5; n += 2)
        for (int32_t rf = 1; rf <= 3; rf += 2) {
            tokenring_topology *t = NULL;
            assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
            for (int i = 0; i < n; i++) {
                char name[16];
                snprintf(name, sizeof name, "10.0.0.%d", i + 1);
                int64_t tok = (int64_t)((uint64_t)INT64_MIN + 1 +
                                        (uint64_t)i * (UINT64_MAX / (uint64_t)n));
                assert_int_equal(tokenring_topology_add_node(t, name, "dc1", "r1", &tok, 1,
                                                             NULL),
                                 TOKENRING_OK);
            }
            int64_t out[16];
            tokenring_error err;
            assert_int_equal(tokenring_allocate_tokens(out, 16, t, "dc1", "r1", rf, 0, &err),
                             TOKENRING_OK);
            for (int k = 1; k < 16; k++)
                assert_true(out[k - 1] < out[k]);
            for (int i = 0; i < n; i++) {
                int64_t held = (int64_t)((uint64_t)INT64_MIN + 1 +
                                         (uint64_t)i * (UINT64_MAX / (uint64_t)n));
                for (int k = 0; k < 16; k++)
                    assert_true(out[k] != held);
            }
            tokenring_topology_free(t);
        }
}

/* The whole-datacenter plan where the datacenter has fewer ranges than the nodes ask for
 * (single-token datacenters, the first node of a new rack), which Cassandra accepts join
 * after join: planned join after join instead of refused ("fits only N"); every token
 * distinct, new, and each node's ascending. */
static void batch_plan_more_tokens_than_ranges(void **state)
{
    (void)state;
    static const char *const same[] = { "r1", "r1", "r1" };
    static const char *const fresh[] = { "r4", "r1", "r2" };
    const char *const *plans[] = { same, fresh };
    for (int p = 0; p < 2; p++)
        for (uint32_t flags = 0; flags <= TOKENRING_ALLOCATE_NODE_BY_NODE;
             flags += TOKENRING_ALLOCATE_NODE_BY_NODE) {
            tokenring_topology *t = NULL;
            assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
            int64_t held[3];
            for (int i = 0; i < 3; i++) {
                char name[16], rack[8];
                snprintf(name, sizeof name, "10.0.0.%d", i + 1);
                snprintf(rack, sizeof rack, "r%d", p ? i + 1 : 1);
                held[i] = (int64_t)((uint64_t)INT64_MIN + 1 + (uint64_t)i * (UINT64_MAX / 3));
                assert_int_equal(tokenring_topology_add_node(t, name, "dc1", rack, &held[i], 1,
                                                             NULL),
                                 TOKENRING_OK);
            }
            int64_t out[3 * 16];
            tokenring_error err;
            memset(&err, 0, sizeof err);
            assert_int_equal(tokenring_allocate_nodes(out, 16, t, "dc1", plans[p], 3, 3, flags,
                                                      &err),
                             TOKENRING_OK);
            for (int a = 0; a < 48; a++) {
                if (a % 16)
                    assert_true(out[a - 1] < out[a]);
                for (int i = 0; i < 3; i++)
                    assert_true(out[a] != held[i]);
                for (int b = a + 1; b < 48; b++)
                    assert_true(out[a] != out[b]);
            }
            tokenring_topology_free(t);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(balanced_datacenters),
        cmocka_unit_test(racks_fewer_than_rf_and_any_order),
        cmocka_unit_test(joins_existing_cluster_without_collisions),
        cmocka_unit_test(every_node_gets_a_fair_share),
        cmocka_unit_test(bad_input),
        cmocka_unit_test(more_tokens_than_ranges_accepted),
        cmocka_unit_test(batch_plan_more_tokens_than_ranges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
