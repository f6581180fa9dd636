/* SPDX-License-Identifier: Apache-2.0 */
/* tokenring_availability_summary_build() (TOKENRING_1.2) against a brute-force enumeration
 * of every k-set of failed units on random small rings: NetworkTopologyStrategy over two
 * datacenters with racks and SimpleStrategy, every consistency level, single nodes, whole
 * racks and whole datacenters. The brute force applies Cassandra's blockFor rules to each
 * range's replicas on its own; the library must give the same counts, worst width and
 * worst sets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tokenring/tokenring.h"
#include "testrng.h"

__extension__ typedef unsigned __int128 u128;

static uint64_t rng_state;
static uint64_t next_rand(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return rng_state >> 11;
}

typedef struct world {
    tokenring_ring *ring;
    tokenring_replication *rep;
    bool simple;
    int32_t rf[2]; /* simple: rf[0] */
    size_t n;
} world;

static void make_world(world *w, uint64_t seed)
{
    rng_state = seed;
    memset(w, 0, sizeof *w);
    w->n = 3 + next_rand() % 7; /* 3 .. 9 nodes */
    tokenring_topology *t;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    static const char *racks[] = { "r1", "r2", "r3" };
    int64_t used[64];
    size_t nused = 0;
    for (size_t i = 0; i < w->n; i++) {
        char name[32];
        snprintf(name, sizeof name, "10.0.0.%zu", i + 1);
        const char *dc = (i == 0 || next_rand() % 2) ? "dc1" : "dc2";
        if (i == 1)
            dc = "dc2";
        const char *rack = racks[next_rand() % 3];
        size_t tc = 1 + next_rand() % 4;
        int64_t tok[4];
        for (size_t j = 0; j < tc; j++) {
            int64_t v;
            bool dup;
            do {
                v = (int64_t)(next_rand() << 11) ^ (int64_t)next_rand();
                dup = false;
                for (size_t q = 0; q < nused; q++)
                    dup |= used[q] == v;
            } while (dup);
            used[nused++] = v;
            tok[j] = v;
        }
        assert_int_equal(tokenring_topology_add_node(t, name, dc, rack, tok, tc, NULL),
                         TOKENRING_OK);
    }
    assert_int_equal(tokenring_ring_build(&w->ring, t, NULL), TOKENRING_OK);
    tokenring_topology_free(t);
    w->simple = next_rand() % 3 == 0;
    if (w->simple) {
        w->rf[0] = 1 + (int32_t)(next_rand() % 3);
        assert_int_equal(tokenring_replication_simple(&w->rep, w->rf[0], 0, NULL),
                         TOKENRING_OK);
    } else {
        w->rf[0] = 1 + (int32_t)(next_rand() % 3);
        w->rf[1] = (int32_t)(next_rand() % 3);
        assert_int_equal(tokenring_replication_network(&w->rep), TOKENRING_OK);
        assert_int_equal(tokenring_replication_set_dc(w->rep, "dc1", w->rf[0], 0, NULL),
                         TOKENRING_OK);
        assert_int_equal(tokenring_replication_set_dc(w->rep, "dc2", w->rf[1], 0, NULL),
                         TOKENRING_OK);
    }
}

static void free_world(world *w)
{
    tokenring_ring_free(w->ring);
    tokenring_replication_free(w->rep);
}

/* The ring's dc index of "dc1" / "dc2". */
static int dc_of_name(const tokenring_ring *ring, size_t d)
{
    return strcmp(tokenring_ring_dc_name(ring, d), "dc1") == 0 ? 0 : 1;
}

/* Does a range with `alive[c]` live replicas in dc1/dc2 reach the level? */
static bool reaches(const world *w, int cl, const int64_t alive[2], int local)
{
    int64_t total_rf = w->simple ? w->rf[0] : (int64_t)w->rf[0] + w->rf[1];
    int64_t all = alive[0] + alive[1];
    switch (cl) {
    case TOKENRING_CL_ONE: return all >= 1;
    case TOKENRING_CL_TWO: return all >= 2;
    case TOKENRING_CL_THREE: return all >= 3;
    case TOKENRING_CL_QUORUM: return all >= total_rf / 2 + 1;
    case TOKENRING_CL_ALL: return all >= total_rf;
    case TOKENRING_CL_LOCAL_ONE: return alive[local] >= 1;
    case TOKENRING_CL_LOCAL_QUORUM:
        return alive[local] >= (w->simple ? w->rf[0] : w->rf[local]) / 2 + 1;
    case TOKENRING_CL_EACH_QUORUM:
        if (w->simple)
            return all >= total_rf / 2 + 1;
        for (int c = 0; c < 2; c++)
            if (w->rf[c] > 0 && alive[c] < w->rf[c] / 2 + 1)
                return false;
        return true;
    }
    fail();
    return false;
}

typedef struct bf_row {
    u128 w;
    uint32_t u[10];
} bf_row;

static uint32_t bf_k;
static int cmp_row(const void *a, const void *b)
{
    const bf_row *x = a, *y = b;
    if (x->w != y->w)
        return x->w > y->w ? -1 : 1;
    for (uint32_t i = 0; i < bf_k; i++)
        if (x->u[i] != y->u[i])
            return x->u[i] < y->u[i] ? -1 : 1;
    return 0;
}

static uint32_t unit_of(const tokenring_ring *ring, uint32_t node, int unit)
{
    tokenring_node_info info;
    assert_int_equal(tokenring_ring_node_brief(&info, ring, node), TOKENRING_OK);
    return unit == TOKENRING_FAIL_NODES   ? node
           : unit == TOKENRING_FAIL_RACKS ? info.rack_index
                                          : info.dc_index;
}

/* Brute force over every k-subset of units. Returns false when some range cannot reach
 * the level with every node up. Fills rows (sets that break something) and their count. */
static bool brute(const world *w, int cl, int local, int unit, uint32_t k, bf_row *rows,
                  size_t *nrows, size_t *total)
{
    tokenring_placement *pl;
    assert_int_equal(tokenring_placement_build(&pl, w->ring, w->rep, 0, NULL), TOKENRING_OK);
    size_t ranges;
    tokenring_ring_tokens(w->ring, &ranges);
    size_t U = unit == TOKENRING_FAIL_NODES   ? w->n
               : unit == TOKENRING_FAIL_RACKS ? tokenring_ring_rack_count(w->ring)
                                              : tokenring_ring_dc_count(w->ring);
    bool ok = true;
    *nrows = *total = 0;
    for (uint32_t mask = 0; mask < (1u << U) && ok; mask++) {
        if ((uint32_t)__builtin_popcount(mask) != (mask ? k : 0))
            continue;
        u128 lost = 0;
        for (size_t i = 0; i < ranges; i++) {
            tokenring_replicas rp;
            tokenring_range rg;
            assert_int_equal(tokenring_placement_range_replicas(&rp, pl, i), TOKENRING_OK);
            assert_int_equal(tokenring_ring_range(&rg, w->ring, i), TOKENRING_OK);
            int64_t alive[2] = { 0, 0 };
            for (uint32_t j = 0; j < rp.count; j++) {
                tokenring_node_info info;
                tokenring_ring_node_brief(&info, w->ring, rp.nodes[j]);
                if (!(mask & (1u << unit_of(w->ring, rp.nodes[j], unit))))
                    alive[dc_of_name(w->ring, info.dc_index)]++;
            }
            if (!reaches(w, cl, alive, local))
                lost += ((u128)rg.width.hi << 64) | rg.width.lo;
        }
        if (mask == 0) {
            ok = lost == 0;
            continue;
        }
        (*total)++;
        if (lost) {
            bf_row *r = &rows[(*nrows)++];
            r->w = lost;
            uint32_t m = 0;
            for (uint32_t u = 0; u < U; u++)
                if (mask & (1u << u))
                    r->u[m++] = u;
        }
    }
    tokenring_placement_free(pl);
    bf_k = k;
    qsort(rows, *nrows, sizeof *rows, cmp_row);
    return ok;
}

static void against_brute_force(void **state)
{
    (void)state;
    bf_row *rows = calloc(1024, sizeof *rows);
    assert_non_null(rows);
    unsigned compared = 0, impossible = 0, broke = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        world w;
        make_world(&w, seed);
        for (int cl = TOKENRING_CL_ONE; cl <= TOKENRING_CL_EACH_QUORUM; cl++) {
            for (int local = 0; local < 2; local++) {
                bool is_local = cl == TOKENRING_CL_LOCAL_ONE || cl == TOKENRING_CL_LOCAL_QUORUM;
                if (local && !is_local)
                    continue;
                const char *ldc = local ? "dc2" : "dc1";
                /* the ring's own dc index of ldc, for the brute force */
                int lidx = local;
                for (int unit = TOKENRING_FAIL_NODES; unit <= TOKENRING_FAIL_DATACENTERS;
                     unit++) {
                    size_t U = unit == TOKENRING_FAIL_NODES ? w.n
                               : unit == TOKENRING_FAIL_RACKS
                                   ? tokenring_ring_rack_count(w.ring)
                                   : tokenring_ring_dc_count(w.ring);
                    for (uint32_t k = 1; k <= U; k++) {
                        size_t nrows, total;
                        bool ok = brute(&w, cl, lidx, unit, k, rows, &nrows, &total);
                        size_t top_n = 1 + (seed + k) % 6;
                        tokenring_availability_summary *s = NULL;
                        tokenring_error err;
                        int rc = tokenring_availability_summary_build(
                            &s, w.ring, w.rep, cl, ldc, unit, k, top_n, NULL, NULL, &err);
                        bool local_missing = is_local && !w.simple && w.rf[lidx] == 0;
                        if (local_missing) {
                            assert_int_equal(rc, TOKENRING_E_IMPOSSIBLE);
                            assert_null(s);
                            break;
                        }
                        if (!ok) {
                            assert_int_equal(rc, TOKENRING_E_IMPOSSIBLE);
                            assert_null(s);
                            impossible++;
                            break;
                        }
                        assert_int_equal(rc, TOKENRING_OK);
                        tokenring_u128 b, t, worst;
                        assert_int_equal(tokenring_availability_summary_counts(&b, &t, &worst, s),
                                         TOKENRING_OK);
                        assert_int_equal(b.hi, 0);
                        assert_int_equal(t.hi, 0);
                        assert_int_equal(b.lo, nrows);
                        assert_int_equal(t.lo, total);
                        assert_int_equal(tokenring_availability_summary_k(s), k);
                        u128 wv = ((u128)worst.hi << 64) | worst.lo;
                        assert_true(wv == (nrows ? rows[0].w : 0));
                        size_t want = nrows < top_n ? nrows : top_n;
                        assert_int_equal(tokenring_availability_summary_top_count(s), want);
                        for (size_t i = 0; i < want; i++) {
                            uint32_t u[10];
                            tokenring_u128 width;
                            double f;
                            assert_int_equal(tokenring_availability_summary_top(u, &width, &f,
                                                                                 s, i),
                                             TOKENRING_OK);
                            assert_true((((u128)width.hi << 64) | width.lo) == rows[i].w);
                            assert_memory_equal(u, rows[i].u, k * sizeof *u);
                            assert_true(f > 0.0 && f <= 1.0);
                        }
                        if (nrows)
                            broke++;
                        /* Count only: same count, no worst sets. */
                        tokenring_availability_summary *s0 = NULL;
                        assert_int_equal(tokenring_availability_summary_build(
                                             &s0, w.ring, w.rep, cl, ldc, unit, k, 0, NULL,
                                             NULL, NULL),
                                         TOKENRING_OK);
                        assert_int_equal(tokenring_availability_summary_counts(&b, NULL, &worst,
                                                                               s0),
                                         TOKENRING_OK);
                        assert_int_equal(b.lo, nrows);
                        assert_int_equal(worst.lo | worst.hi, 0);
                        assert_int_equal(tokenring_availability_summary_top_count(s0), 0);
                        tokenring_availability_summary_free(s0);
                        /* The 1.0 list agrees for single nodes, k <= 3. */
                        if (unit == TOKENRING_FAIL_NODES && k <= TOKENRING_AVAILABILITY_MAX_K) {
                            tokenring_availability *a = NULL;
                            assert_int_equal(tokenring_availability_build(&a, w.ring, w.rep, cl,
                                                                          ldc, k, NULL),
                                             TOKENRING_OK);
                            assert_int_equal(tokenring_availability_count(a), nrows);
                            tokenring_availability_free(a);
                        }
                        tokenring_availability_summary_free(s);
                        compared++;
                    }
                }
            }
        }
        free_world(&w);
    }
    free(rows);
    /* the random rings reach every branch: some impossible levels, many breaking sets */
    assert_true(compared > 500);
    assert_true(impossible > 0);
    assert_true(broke > 100);
}

typedef struct counter {
    unsigned calls, cancel_at;
    uint64_t last_done, last_total;
    bool monotone;
} counter;

static int on_progress(void *user, uint64_t done, uint64_t total)
{
    counter *c = user;
    if (done < c->last_done || done > total)
        c->monotone = false;
    c->last_done = done;
    c->last_total = total;
    c->calls++;
    return c->cancel_at && c->calls >= c->cancel_at;
}

static void big(tokenring_ring **ring, tokenring_replication **rep, size_t nodes)
{
    const char *np[64], *dcs[64], *racks[64];
    char names[64][16];
    static const char *rk[] = { "r1", "r2", "r3" };
    for (size_t i = 0; i < nodes; i++) {
        snprintf(names[i], sizeof names[i], "10.0.1.%zu", i + 1);
        np[i] = names[i];
        dcs[i] = "dc1";
        racks[i] = rk[i % 3];
    }
    tokenring_topology *t;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    assert_int_equal(tokenring_layout_add_seeded_nodes(t, 11, 16, np, dcs, racks, nodes, 0,
                                                       NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_ring_build(ring, t, NULL), TOKENRING_OK);
    tokenring_topology_free(t);
    assert_int_equal(tokenring_replication_simple(rep, 3, 0, NULL), TOKENRING_OK);
}

static void progress_and_cancel(void **state)
{
    (void)state;
    tokenring_ring *ring;
    tokenring_replication *rep;
    big(&ring, &rep, 40);
    size_t sets;
    {
        tokenring_placement *pl;
        assert_int_equal(tokenring_placement_build(&pl, ring, rep, 0, NULL), TOKENRING_OK);
        sets = tokenring_placement_set_count(pl);
        tokenring_placement_free(pl);
    }
    counter c = { 0, 0, 0, 0, true };
    tokenring_availability_summary *s = NULL;
    assert_int_equal(tokenring_availability_summary_build(&s, ring, rep, TOKENRING_CL_QUORUM,
                                                          NULL, TOKENRING_FAIL_NODES, 3, 5,
                                                          on_progress, &c, NULL),
                     TOKENRING_OK);
    assert_true(c.monotone);
    assert_true(c.calls >= 40); /* one per first unit at least */
    assert_int_equal(c.last_done, sets + 40);
    assert_int_equal(c.last_total, sets + 40);
    tokenring_u128 b, t;
    assert_int_equal(tokenring_availability_summary_counts(&b, &t, NULL, s), TOKENRING_OK);
    assert_int_equal(t.lo, 9880); /* C(40, 3) */
    assert_true(b.lo > 0 && b.lo < t.lo);
    /* the 1.0 list has the same count */
    tokenring_availability *a;
    assert_int_equal(tokenring_availability_build(&a, ring, rep, TOKENRING_CL_QUORUM, NULL, 3,
                                                  NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_availability_count(a), b.lo);
    tokenring_availability_free(a);
    tokenring_availability_summary_free(s);

    for (unsigned at = 1; at <= 3; at++) {
        counter cc = { 0, at, 0, 0, true };
        tokenring_availability_summary *keep = (tokenring_availability_summary *)&cc;
        tokenring_error err;
        assert_int_equal(tokenring_availability_summary_build(
                             &keep, ring, rep, TOKENRING_CL_ONE, NULL, TOKENRING_FAIL_NODES, 3,
                             5, on_progress, &cc, &err),
                         TOKENRING_E_CANCELLED);
        assert_ptr_equal(keep, (tokenring_availability_summary *)&cc);
        assert_non_null(strstr(err.message, "cancelled"));
    }
    tokenring_ring_free(ring);
    tokenring_replication_free(rep);
}

static void bad_arguments(void **state)
{
    (void)state;
    tokenring_ring *ring;
    tokenring_replication *rep;
    big(&ring, &rep, 40);
    tokenring_availability_summary *s = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_availability_summary_build(NULL, ring, rep, TOKENRING_CL_ONE,
                                                          NULL, 0, 1, 1, NULL, NULL, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_availability_summary_build(&s, NULL, rep, TOKENRING_CL_ONE,
                                                          NULL, 0, 1, 1, NULL, NULL, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_availability_summary_build(&s, ring, rep, 0, NULL, 0, 1, 1,
                                                          NULL, NULL, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_availability_summary_build(&s, ring, rep, TOKENRING_CL_ONE,
                                                          NULL, 3, 1, 1, NULL, NULL, &err),
                     TOKENRING_E_INVAL);
    assert_non_null(strstr(err.message, "failure unit"));
    assert_int_equal(tokenring_availability_summary_build(&s, ring, rep,
                                                          TOKENRING_CL_LOCAL_ONE, NULL, 0, 1,
                                                          1, NULL, NULL, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_availability_summary_build(&s, ring, rep,
                                                          TOKENRING_CL_LOCAL_ONE, "dc9", 0, 1,
                                                          1, NULL, NULL, &err),
                     TOKENRING_E_NOTFOUND);
    assert_int_equal(tokenring_availability_summary_build(&s, ring, rep, TOKENRING_CL_ONE,
                                                          NULL, 0, 0, 1, NULL, NULL, &err),
                     TOKENRING_E_RANGE);
    assert_int_equal(tokenring_availability_summary_build(&s, ring, rep, TOKENRING_CL_ONE,
                                                          NULL, TOKENRING_FAIL_RACKS, 4, 1,
                                                          NULL, NULL, &err),
                     TOKENRING_E_RANGE);
    assert_non_null(strstr(err.message, "racks"));
    assert_int_equal(tokenring_availability_summary_build(&s, ring, rep, TOKENRING_CL_ONE,
                                                          NULL, 0, 1, ((size_t)1 << 24) + 1,
                                                          NULL, NULL, &err),
                     TOKENRING_E_RANGE);
    assert_int_equal(tokenring_availability_summary_build(&s, ring, rep, TOKENRING_CL_THREE,
                                                          NULL, 0, 1, 1, NULL, NULL, &err),
                     TOKENRING_OK);
    tokenring_availability_summary_free(s);
    s = NULL;
    tokenring_replication *two;
    assert_int_equal(tokenring_replication_simple(&two, 2, 0, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_availability_summary_build(&s, ring, two, TOKENRING_CL_THREE,
                                                          NULL, 0, 1, 1, NULL, NULL, &err),
                     TOKENRING_E_IMPOSSIBLE);
    assert_null(s);
    tokenring_replication_free(two);
    /* accessors on NULL */
    assert_int_equal(tokenring_availability_summary_counts(NULL, NULL, NULL, NULL),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_availability_summary_k(NULL), 0);
    assert_int_equal(tokenring_availability_summary_top_count(NULL), 0);
    uint32_t u[3];
    assert_int_equal(tokenring_availability_summary_top(u, NULL, NULL, NULL, 0),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_availability_summary_build(&s, ring, rep, TOKENRING_CL_ALL,
                                                          NULL, 0, 2, 2, NULL, NULL, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_availability_summary_top(u, NULL, NULL, s, 2), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_availability_summary_top(NULL, NULL, NULL, s, 0),
                     TOKENRING_E_INVAL);
    /* ALL: every pair breaks */
    tokenring_u128 b;
    assert_int_equal(tokenring_availability_summary_counts(&b, NULL, NULL, s), TOKENRING_OK);
    assert_int_equal(b.lo, 780);
    tokenring_availability_summary_free(s);
    tokenring_availability_summary_free(NULL);
    tokenring_ring_free(ring);
    tokenring_replication_free(rep);
}

/* C(units, k) past 2^128 is refused; just below it works (ALL breaks every set). */
static void huge_counts(void **state)
{
    (void)state;
    tokenring_topology *t;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    for (int i = 0; i < 300; i++) {
        char name[16];
        snprintf(name, sizeof name, "n%d", i);
        int64_t tok = (int64_t)i * 1000003;
        assert_int_equal(tokenring_topology_add_node(t, name, "dc1", "r1", &tok, 1, NULL),
                         TOKENRING_OK);
    }
    tokenring_ring *ring;
    assert_int_equal(tokenring_ring_build(&ring, t, NULL), TOKENRING_OK);
    tokenring_topology_free(t);
    tokenring_replication *rep;
    assert_int_equal(tokenring_replication_simple(&rep, 1, 0, NULL), TOKENRING_OK);
    tokenring_availability_summary *s = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_availability_summary_build(&s, ring, rep, TOKENRING_CL_ONE,
                                                          NULL, 0, 150, 0, NULL, NULL, &err),
                     TOKENRING_E_RANGE);
    assert_non_null(strstr(err.message, "128 bits"));
    /* C(300, 20) = 7.5e30: every 20-set breaks ONE at rf 1, counted without walking */
    assert_int_equal(tokenring_availability_summary_build(&s, ring, rep, TOKENRING_CL_ONE,
                                                          NULL, 0, 20, 0, NULL, NULL, &err),
                     TOKENRING_OK);
    tokenring_u128 b, tot;
    assert_int_equal(tokenring_availability_summary_counts(&b, &tot, NULL, s), TOKENRING_OK);
    assert_int_equal(b.hi, tot.hi);
    assert_int_equal(b.lo, tot.lo);
    /* 7500433758922134083130376809510 = C(300, 20) */
    u128 want = (u128)7500433758922134ULL * 1000000000000000ULL + 83130376809510ULL;
    assert_true((((u128)tot.hi << 64) | tot.lo) == want);
    tokenring_availability_summary_free(s);
    tokenring_ring_free(ring);
    tokenring_replication_free(rep);
}

/* Replication factors above 255 (TOKENRING_MAX_REPLICATION_FACTOR, 1.2): Cassandra
 * accepts any int; a factor above the nodes gives every node of the datacenter. */
static void large_replication_factors(void **state)
{
    (void)state;
    tokenring_topology *t;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    for (int i = 0; i < 10; i++) {
        char name[16];
        snprintf(name, sizeof name, "n%d", i);
        int64_t tok[2] = { (int64_t)i * 1000003, (int64_t)i * -77777 - 5 };
        assert_int_equal(tokenring_topology_add_node(t, name, i < 6 ? "dc1" : "dc2",
                                                     i % 2 ? "r1" : "r2", tok, 2, NULL),
                         TOKENRING_OK);
    }
    tokenring_ring *ring;
    assert_int_equal(tokenring_ring_build(&ring, t, NULL), TOKENRING_OK);
    tokenring_topology_free(t);
    static const char *texts[] = { "SimpleStrategy:300", "{'class': 'SimpleStrategy', "
                                   "'replication_factor': '2147483647'}",
                                   "dc1=300,dc2=2147483647", "dc1=2147483647/5,dc2=1" };
    static const uint32_t want[] = { 10, 10, 10, 7 };
    for (size_t c = 0; c < 4; c++) {
        tokenring_replication *r = NULL;
        tokenring_error err;
        assert_int_equal(tokenring_replication_parse(&r, texts[c], strlen(texts[c]), &err),
                         TOKENRING_OK);
        tokenring_placement *pl;
        assert_int_equal(tokenring_placement_build(&pl, ring, r, 0, &err), TOKENRING_OK);
        size_t ranges;
        tokenring_ring_tokens(ring, &ranges);
        for (size_t i = 0; i < ranges; i++) {
            tokenring_replicas rep;
            assert_int_equal(tokenring_placement_range_replicas(&rep, pl, i), TOKENRING_OK);
            assert_int_equal(rep.count, want[c]);
            /* distinct nodes */
            for (uint32_t a = 0; a < rep.count; a++)
                for (uint32_t b = a + 1; b < rep.count; b++)
                    assert_int_not_equal(rep.nodes[a], rep.nodes[b]);
        }
        tokenring_placement_free(pl);
        /* ONE: only losing every replica breaks it; QUORUM / ALL of 2^31 - 1 never */
        tokenring_availability_summary *s = NULL;
        assert_int_equal(tokenring_availability_summary_build(&s, ring, r, TOKENRING_CL_ONE,
                                                              NULL, TOKENRING_FAIL_NODES,
                                                              want[c] - 1, 1, NULL, NULL, &err),
                         TOKENRING_OK);
        tokenring_u128 b;
        assert_int_equal(tokenring_availability_summary_counts(&b, NULL, NULL, s), TOKENRING_OK);
        assert_int_equal(b.lo | b.hi, 0); /* one replica always survives */
        tokenring_availability_summary_free(s);
        s = NULL;
        if (want[c] == 10) {
            assert_int_equal(tokenring_availability_summary_build(
                                 &s, ring, r, TOKENRING_CL_ONE, NULL, TOKENRING_FAIL_NODES, 10,
                                 1, NULL, NULL, &err),
                             TOKENRING_OK);
            assert_int_equal(tokenring_availability_summary_counts(&b, NULL, NULL, s),
                             TOKENRING_OK);
            assert_int_equal(b.lo, 1); /* every node down */
            tokenring_availability_summary_free(s);
            s = NULL;
        }
        /* ALL (and the sum of factors in 64 bits) cannot be met by 10 nodes */
        assert_int_equal(tokenring_availability_summary_build(&s, ring, r, TOKENRING_CL_ALL,
                                                              NULL, TOKENRING_FAIL_NODES, 1,
                                                              1, NULL, NULL, &err),
                         TOKENRING_E_IMPOSSIBLE);
        assert_null(s);
        tokenring_replication_free(r);
    }
    tokenring_replication *r = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_replication_parse(&r, "dc1=2147483648", 14, &err),
                     TOKENRING_E_RANGE);
    assert_non_null(strstr(err.message, "2147483647"));
    assert_null(r);
    assert_int_equal(tokenring_replication_parse(&r, "SimpleStrategy:99999999999999", 29, &err),
                     TOKENRING_E_RANGE);
    assert_int_equal(tokenring_replication_simple(&r, TOKENRING_MAX_REPLICATION_FACTOR, 0, &err),
                     TOKENRING_OK);
    tokenring_replication_free(r);
    r = NULL;
    assert_int_equal(tokenring_replication_simple(&r, -1, 0, &err), TOKENRING_E_RANGE);
    /* the allocator keeps its own limit */
    assert_int_equal(TOKENRING_MAX_RF, 255);
    tokenring_ring_free(ring);
}

/* ---------------------------------------------- availability on every partitioner */

/* The same ring in three partitioners: Murmur3 token t, RandomPartitioner token
 * u * 2^63 and the 8 big-endian bytes of u, where u = t with its sign bit flipped (all
 * three order the same way). Widths then scale exactly: RandomPartitioner's are
 * Murmur3's times 2^63, and a ByteOrderedPartitioner width counts ranges. */
static tokenring_topology *same_ring(tokenring_partitioner p, const tokenring_topology *m3)
{
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new_partitioned(&t, p), TOKENRING_OK);
    for (size_t i = 0; i < tokenring_topology_node_count(m3); i++) {
        tokenring_node_info n;
        assert_int_equal(tokenring_topology_node(&n, m3, i), TOKENRING_OK);
        tokenring_token128 r[16];
        uint8_t b[16][8];
        const uint8_t *bp[16];
        size_t bl[16];
        assert_true(n.token_count <= 16);
        for (size_t k = 0; k < n.token_count; k++) {
            uint64_t u = (uint64_t)n.tokens[k] ^ UINT64_C(0x8000000000000000);
            r[k].hi = u >> 1;
            r[k].lo = (u & 1) << 63;
            for (int j = 0; j < 8; j++)
                b[k][j] = (uint8_t)(u >> (56 - 8 * j));
            bp[k] = b[k];
            bl[k] = 8;
        }
        int rc = p == TOKENRING_PARTITIONER_RANDOM
                     ? tokenring_topology_add_node128(t, n.name, n.datacenter, n.rack, r,
                                                      n.token_count, NULL)
                     : tokenring_topology_add_node_bytes(t, n.name, n.datacenter, n.rack, bp,
                                                         bl, n.token_count, NULL);
        assert_int_equal(rc, TOKENRING_OK);
    }
    return t;
}

__extension__ typedef unsigned __int128 u128t;

static u128t w128(tokenring_u128 w)
{
    return ((u128t)w.hi << 64) | w.lo;
}

/* Fractions: equal natively (the widths differ by a power of two); valgrind computes the
 * library's long double division in double precision, one rounding off. */
static bool close_to(double a, double b)
{
    double d = a > b ? a - b : b - a;
    return d <= 0x1p-50 * (a > b ? a : b);
}

static void test_availability_every_partitioner(void **state)
{
    (void)state;
    uint64_t rng = 20261204;
    for (int round = 0; round < 6; round++) {
        tokenring_topology *m3 = NULL;
        assert_int_equal(tokenring_topology_new(&m3), TOKENRING_OK);
        int nodes = tt_between(&rng, 4, 9), tokens = tt_between(&rng, 1, 6);
        for (int i = 0; i < nodes; i++) {
            char name[16], rack[8];
            snprintf(name, sizeof name, "10.0.0.%d", i + 1);
            snprintf(rack, sizeof rack, "r%d", tt_between(&rng, 1, 3));
            int64_t tk[16];
            for (int k = 0; k < tokens; k++)
                tk[k] = (int64_t)tt_splitmix64(&rng);
            assert_int_equal(tokenring_topology_add_node(m3, name, i % 2 ? "dc2" : "dc1", rack,
                                                         tk, (size_t)tokens, NULL),
                             TOKENRING_OK);
        }
        tokenring_topology *rp = same_ring(TOKENRING_PARTITIONER_RANDOM, m3);
        tokenring_topology *bo = same_ring(TOKENRING_PARTITIONER_BYTE_ORDERED, m3);
        tokenring_ring *r[3] = { NULL, NULL, NULL };
        assert_int_equal(tokenring_ring_build(&r[0], m3, NULL), TOKENRING_OK);
        assert_int_equal(tokenring_ring_build(&r[1], rp, NULL), TOKENRING_OK);
        assert_int_equal(tokenring_ring_build(&r[2], bo, NULL), TOKENRING_OK);
        size_t ranges;
        tokenring_ring_tokens(r[2], &ranges);
        tokenring_replication *repl = NULL;
        const char *rtext = round % 2 ? "NetworkTopologyStrategy:dc1=2,dc2=2" : "SimpleStrategy:3";
        assert_int_equal(tokenring_replication_parse(&repl, rtext, strlen(rtext), NULL),
                         TOKENRING_OK);
        static const int levels[] = { TOKENRING_CL_ONE, TOKENRING_CL_QUORUM, TOKENRING_CL_ALL };
        for (size_t l = 0; l < 3; l++)
            for (uint32_t k = 1; k <= 2; k++) {
                tokenring_availability *a[3] = { NULL, NULL, NULL };
                for (int p = 0; p < 3; p++)
                    assert_int_equal(tokenring_availability_build(&a[p], r[p], repl, levels[l],
                                                                  NULL, k, NULL),
                                     TOKENRING_OK);
                size_t n = tokenring_availability_count(a[0]);
                assert_int_equal(tokenring_availability_count(a[1]), n);
                assert_int_equal(tokenring_availability_count(a[2]), n);
                for (size_t i = 0; i < n; i++) {
                    uint32_t s[3][2];
                    tokenring_u128 w[3];
                    double f[3];
                    for (int p = 0; p < 3; p++)
                        assert_int_equal(tokenring_availability_get(s[p], &w[p], &f[p], a[p], i),
                                         TOKENRING_OK);
                    assert_memory_equal(s[0], s[1], k * sizeof(uint32_t));
                    assert_memory_equal(s[0], s[2], k * sizeof(uint32_t));
                    assert_true(w128(w[1]) == w128(w[0]) << 63);
                    assert_true(close_to(f[1], f[0]));
                    assert_true(w128(w[2]) >= 1 && w128(w[2]) <= ranges);
                    assert_true(close_to(f[2], (double)w128(w[2]) / (double)ranges));
                }
                for (int p = 0; p < 3; p++)
                    tokenring_availability_free(a[p]);
                /* the summary, by node and by rack */
                for (int unit = TOKENRING_FAIL_NODES; unit <= TOKENRING_FAIL_RACKS; unit++) {
                    tokenring_availability_summary *sm[3] = { NULL, NULL, NULL };
                    int rc0 = tokenring_availability_summary_build(&sm[0], r[0], repl, levels[l],
                                                                   NULL, unit, k, 4, NULL,
                                                                   NULL, NULL);
                    for (int p = 1; p < 3; p++)
                        assert_int_equal(tokenring_availability_summary_build(
                                             &sm[p], r[p], repl, levels[l], NULL, unit, k, 4,
                                             NULL, NULL, NULL),
                                         rc0);
                    if (rc0 != TOKENRING_OK)
                        continue; /* k above the racks: refused alike */
                    tokenring_u128 br[3], tot[3], worst[3];
                    for (int p = 0; p < 3; p++)
                        tokenring_availability_summary_counts(&br[p], &tot[p], &worst[p], sm[p]);
                    assert_true(w128(br[1]) == w128(br[0]) && w128(br[2]) == w128(br[0]));
                    assert_true(w128(tot[1]) == w128(tot[0]) && w128(tot[2]) == w128(tot[0]));
                    assert_true(w128(worst[1]) == w128(worst[0]) << 63);
                    size_t top = tokenring_availability_summary_top_count(sm[0]);
                    assert_int_equal(tokenring_availability_summary_top_count(sm[1]), top);
                    for (size_t i = 0; i < top; i++) {
                        uint32_t u0[2], u1[2];
                        tokenring_u128 x0, x1;
                        double f0, f1;
                        tokenring_availability_summary_top(u0, &x0, &f0, sm[0], i);
                        tokenring_availability_summary_top(u1, &x1, &f1, sm[1], i);
                        assert_memory_equal(u0, u1, k * sizeof(uint32_t));
                        assert_true(w128(x1) == w128(x0) << 63 && close_to(f1, f0));
                    }
                    for (int p = 0; p < 3; p++)
                        tokenring_availability_summary_free(sm[p]);
                }
            }
        tokenring_replication_free(repl);
        for (int p = 0; p < 3; p++)
            tokenring_ring_free(r[p]);
        tokenring_topology_free(m3);
        tokenring_topology_free(rp);
        tokenring_topology_free(bo);
    }

    /* A ByteOrderedPartitioner width counts ranges: three nodes, one token each, rf 1 */
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new_partitioned(&t, TOKENRING_PARTITIONER_BYTE_ORDERED),
                     TOKENRING_OK);
    const char *names[] = { "a", "b", "c" };
    for (int i = 0; i < 3; i++) {
        const uint8_t *tok = (const uint8_t *)names[i];
        size_t len = 1;
        assert_int_equal(tokenring_topology_add_node_bytes(t, names[i], "dc1", "r1", &tok, &len,
                                                           1, NULL),
                         TOKENRING_OK);
    }
    tokenring_ring *br = NULL;
    assert_int_equal(tokenring_ring_build(&br, t, NULL), TOKENRING_OK);
    tokenring_replication *one = NULL;
    assert_int_equal(tokenring_replication_simple(&one, 1, 0, NULL), TOKENRING_OK);
    tokenring_availability *av = NULL;
    assert_int_equal(tokenring_availability_build(&av, br, one, TOKENRING_CL_ONE, NULL, 1, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_availability_count(av), 3);
    for (size_t i = 0; i < 3; i++) {
        uint32_t node;
        tokenring_u128 w;
        double f;
        assert_int_equal(tokenring_availability_get(&node, &w, &f, av, i), TOKENRING_OK);
        assert_int_equal(node, i);
        assert_true(w.hi == 0 && w.lo == 1 && f == 1.0 / 3.0);
    }
    tokenring_availability_free(av);
    /* an unreachable level names the range in the partitioner's terms */
    tokenring_error err;
    assert_int_equal(tokenring_availability_build(&av, br, one, TOKENRING_CL_TWO, NULL, 1, &err),
                     TOKENRING_E_IMPOSSIBLE);
    assert_non_null(strstr(err.message, "range number 0 (ending at ring token 0)"));
    tokenring_availability_summary *sm = NULL;
    assert_int_equal(tokenring_availability_summary_build(&sm, br, one, TOKENRING_CL_TWO, NULL,
                                                          TOKENRING_FAIL_NODES, 1, 1, NULL,
                                                          NULL, &err),
                     TOKENRING_E_IMPOSSIBLE);
    assert_non_null(strstr(err.message, "range number"));
    tokenring_ring_free(br);
    tokenring_topology_free(t);
    assert_int_equal(tokenring_topology_new_partitioned(&t, TOKENRING_PARTITIONER_RANDOM),
                     TOKENRING_OK);
    tokenring_token128 x = { 0, 5 }, y = { 1, 0 };
    assert_int_equal(tokenring_topology_add_node128(t, "a", "dc1", "r1", &x, 1, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node128(t, "b", "dc1", "r1", &y, 1, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_ring_build(&br, t, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_availability_build(&av, br, one, TOKENRING_CL_TWO, NULL, 1, &err),
                     TOKENRING_E_IMPOSSIBLE);
    assert_non_null(strstr(err.message, "range (18446744073709551616, 5]"));
    assert_int_equal(tokenring_availability_summary_build(&sm, br, one, TOKENRING_CL_TWO, NULL,
                                                          TOKENRING_FAIL_NODES, 1, 1, NULL,
                                                          NULL, &err),
                     TOKENRING_E_IMPOSSIBLE);
    assert_non_null(strstr(err.message, "range (18446744073709551616, 5]"));
    tokenring_replication_free(one);
    tokenring_ring_free(br);
    /* Widths of 2^127: every node of a 3-node ring holds the whole ring at rf 3, so every
     * pair breaks ALL over all of it (sums of such widths pass 2^128: the walk's bounds
     * saturate instead of wrapping) */
    tokenring_token128 z = { 1u << 30, 0 };
    assert_int_equal(tokenring_topology_add_node128(t, "c", "dc1", "r1", &z, 1, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_ring_build(&br, t, NULL), TOKENRING_OK);
    tokenring_replication *three = NULL;
    assert_int_equal(tokenring_replication_simple(&three, 3, 0, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_availability_summary_build(&sm, br, three, TOKENRING_CL_ALL, NULL,
                                                          TOKENRING_FAIL_NODES, 2, 4, NULL,
                                                          NULL, &err),
                     TOKENRING_OK);
    tokenring_u128 breaking, total, worst;
    tokenring_availability_summary_counts(&breaking, &total, &worst, sm);
    assert_true(w128(breaking) == 3 && w128(total) == 3 && w128(worst) == (u128t)1 << 127);
    assert_int_equal(tokenring_availability_summary_top_count(sm), 3);
    for (size_t i = 0; i < 3; i++) {
        uint32_t pair[2];
        tokenring_u128 w;
        double f;
        assert_int_equal(tokenring_availability_summary_top(pair, &w, &f, sm, i), TOKENRING_OK);
        assert_true(w128(w) == (u128t)1 << 127 && f == 1.0);
    }
    tokenring_availability_summary_free(sm);
    assert_int_equal(tokenring_availability_build(&av, br, three, TOKENRING_CL_ALL, NULL, 2, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_availability_count(av), 3);
    for (size_t i = 0; i < 3; i++) {
        uint32_t pair[2];
        tokenring_u128 w;
        double f;
        assert_int_equal(tokenring_availability_get(pair, &w, &f, av, i), TOKENRING_OK);
        assert_true(w128(w) == (u128t)1 << 127 && f == 1.0);
    }
    tokenring_availability_free(av);
    tokenring_replication_free(three);
    tokenring_ring_free(br);
    tokenring_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(against_brute_force),
        cmocka_unit_test(progress_and_cancel),
        cmocka_unit_test(bad_arguments),
        cmocka_unit_test(huge_counts),
        cmocka_unit_test(large_replication_factors),
        cmocka_unit_test(test_availability_every_partitioner),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
