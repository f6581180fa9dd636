/* SPDX-License-Identifier: Apache-2.0 */
/* Differential test of the three ways the library answers "who holds this token/key":
 *   - the fast lookup path: tokenring_ring_search / tokenring_ring_search_batch,
 *     tokenring_placement_replicas, tokenring_placement_replicas_for_key and the batched
 *     tokenring_placement_route_keys + tokenring_placement_set, and
 *     tokenring_placement_route_keys_replicas;
 *   - the precomputed replica map: tokenring_placement_range_replicas for every range;
 *   - an independent model written here from the spec (section 4's first_index as a
 *     linear scan and a lower bound, section 5's single ring walk with plain arrays and string compares,
 *     section 6's ownership summed range by range in 128-bit integers).
 * Random topologies: 1-3 datacenters, 1-5 racks each, 1-256 tokens per node (several
 * token-count mixes), some nodes joining/leaving/moving, tokens spread, crowded or on
 * the edges; random replications: SimpleStrategy or NetworkTopologyStrategy, rf 0-5,
 * transient factors, datacenters without nodes. Random keys of 0-40 bytes. Every owner,
 * range, replica list (order and transient flags included), replica-set id and exact
 * ownership width must agree. */
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

static uint64_t rng;
static uint64_t next(void)
{
    return tt_splitmix64(&rng);
}

static int between(int lo, int hi) /* inclusive */
{
    return tt_between(&rng, lo, hi);
}

enum { NODES = 24, TOKS = 256, DCS = 4, REPL_MAX = 5 * DCS, MAX_RING = 4096 };

typedef struct {
    char name[16], dc[8], rack[8];
    int64_t tokens[TOKS];
    int ntok;
    int state;
    uint32_t lib; /* index in the library's ring */
} dnode;

typedef struct {
    dnode node[NODES];
    int nn;
    int64_t tok[MAX_RING]; /* sorted ring tokens (normal, leaving, moving nodes) */
    int owner[MAX_RING];
    int nr;
    bool simple;
    int rf, tr;
    int ndc;
    char dc[DCS][8];
    int dc_rf[DCS], dc_tr[DCS];
} world;

typedef struct {
    int node[REPL_MAX];
    bool transient[REPL_MAX];
    int count;
} rlist;

static bool rings(int state)
{
    return state != TOKENRING_STATE_JOINING;
}

static bool taken(const world *w, int64_t t)
{
    for (int i = 0; i < w->nn; i++)
        for (int k = 0; k < w->node[i].ntok; k++)
            if (w->node[i].tokens[k] == t)
                return true;
    return false;
}

static int64_t pick_token(int style)
{
    static const int64_t edges[] = { INT64_MIN, INT64_MIN + 1, INT64_MIN + 2, -1, 0, 1,
                                     INT64_MAX - 1, INT64_MAX };
    switch (style) {
    case 0:
        return (int64_t)next();
    case 1:
        return (int64_t)(next() % 5000) - 2500;
    default:
        return next() % 4 ? (int64_t)next() : edges[next() % 8];
    }
}

static void make_world(world *w)
{
    memset(w, 0, sizeof *w);
    int ndc = between(1, 3);
    int style = between(0, 2);
    /* token-count mix: single token, a few, up to 256 (ring capped at MAX_RING tokens) */
    int mix = between(0, 3);
    int total = 0;
    for (int d = 0; d < ndc; d++) {
        int racks = between(1, 5);
        int nodes = between(1, 8);
        for (int k = 0; k < nodes && w->nn < NODES; k++) {
            dnode *n = &w->node[w->nn];
            snprintf(n->name, sizeof n->name, "node%02d", w->nn);
            snprintf(n->dc, sizeof n->dc, "dc%d", d + 1);
            snprintf(n->rack, sizeof n->rack, "r%d", between(1, racks));
            int want = mix == 0 ? 1 : mix == 1 ? between(1, 8) : mix == 2 ? between(1, 256)
                                                                           : 256;
            if (total + want > MAX_RING)
                want = MAX_RING - total;
            for (int t = 0; t < want; t++) {
                int64_t v = pick_token(style);
                bool dup = taken(w, v);
                for (int j = 0; j < n->ntok; j++)
                    dup |= n->tokens[j] == v;
                if (!dup)
                    n->tokens[n->ntok++] = v;
            }
            if (n->ntok == 0)
                continue;
            total += n->ntok;
            int s = between(0, 11);
            n->state = s < 8 ? TOKENRING_STATE_NORMAL : s - 8; /* 0..3 */
            w->nn++;
        }
    }
    w->node[0].state = TOKENRING_STATE_NORMAL; /* a ring needs a token */
    /* the ring: insertion sort into a plain array */
    for (int i = 0; i < w->nn; i++) {
        if (!rings(w->node[i].state))
            continue;
        for (int k = 0; k < w->node[i].ntok; k++) {
            int64_t v = w->node[i].tokens[k];
            int at = w->nr;
            while (at > 0 && w->tok[at - 1] > v) {
                w->tok[at] = w->tok[at - 1];
                w->owner[at] = w->owner[at - 1];
                at--;
            }
            w->tok[at] = v;
            w->owner[at] = i;
            w->nr++;
        }
    }
    w->simple = next() % 3 == 0;
    if (w->simple) {
        w->rf = between(0, 5);
        w->tr = w->rf > 1 && next() % 2 ? between(0, w->rf - 1) : 0;
        return;
    }
    for (int d = 1; d <= DCS; d++) {
        if (next() % 4 == 0)
            continue;
        snprintf(w->dc[w->ndc], sizeof w->dc[0], "dc%d", d);
        w->dc_rf[w->ndc] = between(0, 5);
        w->dc_tr[w->ndc] = w->dc_rf[w->ndc] > 1 && next() % 2 ? between(0, w->dc_rf[w->ndc] - 1)
                                                               : 0;
        w->ndc++;
    }
}

/* first_index: the first ring token >= t, wrapping to 0 (a linear scan on purpose). */
static int first_index_linear(const world *w, int64_t t)
{
    for (int i = 0; i < w->nr; i++)
        if (w->tok[i] >= t)
            return i;
    return 0;
}

/* The same as a textbook lower bound (the linear scan is too slow under sanitizers for
 * the 12k queries of a large ring; the two are compared on the random queries). */
static int first_index(const world *w, int64_t t)
{
    int lo = 0, hi = w->nr;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (w->tok[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo == w->nr ? 0 : lo;
}

static bool listed(const rlist *r, int node)
{
    for (int j = 0; j < r->count; j++)
        if (r->node[j] == node)
            return true;
    return false;
}

/* calculateNaturalReplicas from the ring position `start`, as spec section 5 writes it. */
static void walk(const world *w, int start, rlist *out)
{
    out->count = 0;
    if (w->simple) {
        for (int k = 0; k < w->nr && out->count < w->rf; k++) {
            int ep = w->owner[(start + k) % w->nr];
            if (!listed(out, ep)) {
                out->transient[out->count] = !(out->count < w->rf - w->tr);
                out->node[out->count++] = ep;
            }
        }
        return;
    }
    bool active[DCS] = { false };
    int rf_left[DCS] = { 0 }, repeats[DCS] = { 0 }, transients[DCS] = { 0 };
    int to_fill = 0;
    for (int d = 0; d < w->ndc; d++) {
        int nodes = 0, racks = 0;
        const char *seen[NODES];
        for (int i = 0; i < w->nn; i++) {
            if (w->node[i].state != TOKENRING_STATE_NORMAL &&
                w->node[i].state != TOKENRING_STATE_LEAVING &&
                w->node[i].state != TOKENRING_STATE_MOVING)
                continue;
            if (strcmp(w->node[i].dc, w->dc[d]) != 0)
                continue;
            nodes++;
            bool s = false;
            for (int k = 0; k < racks; k++)
                s = s || strcmp(seen[k], w->node[i].rack) == 0;
            if (!s)
                seen[racks++] = w->node[i].rack;
        }
        if (w->dc_rf[d] <= 0 || nodes == 0)
            continue;
        active[d] = true;
        rf_left[d] = w->dc_rf[d] < nodes ? w->dc_rf[d] : nodes;
        repeats[d] = w->dc_rf[d] - racks;
        int t = w->dc_tr[d] - (w->dc_rf[d] - rf_left[d]);
        transients[d] = t > 0 ? t : 0;
        to_fill++;
    }
    const dnode *seen_racks[REPL_MAX * 2];
    int nseen = 0;
    for (int k = 0; k < w->nr && to_fill > 0; k++) {
        int ep = w->owner[(start + k) % w->nr];
        const dnode *n = &w->node[ep];
        int d = -1;
        for (int j = 0; j < w->ndc; j++)
            if (strcmp(w->dc[j], n->dc) == 0)
                d = j;
        if (d < 0 || !active[d] || rf_left[d] == 0 || listed(out, ep))
            continue;
        bool full = rf_left[d] > transients[d];
        bool seen = false;
        for (int j = 0; j < nseen; j++)
            seen = seen || (strcmp(seen_racks[j]->dc, n->dc) == 0 &&
                            strcmp(seen_racks[j]->rack, n->rack) == 0);
        if (!seen)
            seen_racks[nseen++] = n;
        else if (repeats[d] > 0)
            repeats[d]--;
        else
            continue;
        out->transient[out->count] = !full;
        out->node[out->count++] = ep;
        if (--rf_left[d] == 0)
            to_fill--;
    }
}

static void same(const world *w, const rlist *want, const tokenring_replicas *got,
                 const char *what, uint64_t seed, long long at)
{
    bool any = false;
    if (got->count != (uint32_t)want->count)
        fail_msg("seed %llu %s %lld: %u replicas, model %d", (unsigned long long)seed, what,
                 at, (unsigned)got->count, want->count);
    for (int j = 0; j < want->count; j++) {
        if (got->nodes[j] != w->node[want->node[j]].lib)
            fail_msg("seed %llu %s %lld: replica %d is node %u, model %s",
                     (unsigned long long)seed, what, at, j, (unsigned)got->nodes[j],
                     w->node[want->node[j]].name);
        bool t = got->transient != NULL && got->transient[j];
        if (t != want->transient[j])
            fail_msg("seed %llu %s %lld: replica %d transient %d, model %d",
                     (unsigned long long)seed, what, at, j, t, want->transient[j]);
        any = any || want->transient[j];
    }
    if ((got->transient != NULL) != any)
        fail_msg("seed %llu %s %lld: transient array %s", (unsigned long long)seed, what, at,
                 any ? "missing" : "present without transient replicas");
}

static u128 wide(tokenring_u128 v)
{
    return ((u128)v.hi << 64) | v.lo;
}

static world W;
static rlist by_range[MAX_RING];

/* Orders range indices by their model replica list (then transient flags). */
static int by_list(const void *pa, const void *pb)
{
    const rlist *a = &by_range[*(const int *)pa], *b = &by_range[*(const int *)pb];
    if (a->count != b->count)
        return a->count < b->count ? -1 : 1;
    for (int j = 0; j < a->count; j++) {
        if (a->node[j] != b->node[j])
            return a->node[j] < b->node[j] ? -1 : 1;
        if (a->transient[j] != b->transient[j])
            return a->transient[j] ? 1 : -1;
    }
    return 0;
}

static void check_world(uint64_t seed)
{
    rng = seed;
    world *w = &W;
    make_world(w);

    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    for (int i = 0; i < w->nn; i++) {
        dnode *n = &w->node[i];
        assert_int_equal(tokenring_topology_add_node(t, n->name, n->dc, n->rack, n->tokens,
                                                     (size_t)n->ntok, NULL),
                         TOKENRING_OK);
        assert_int_equal(tokenring_topology_set_state(t, n->name, n->state, TOKENRING_UP, NULL),
                         TOKENRING_OK);
    }
    tokenring_ring *ring = NULL;
    assert_int_equal(tokenring_ring_build(&ring, t, NULL), TOKENRING_OK);
    tokenring_topology_free(t);
    for (int i = 0; i < w->nn; i++)
        assert_int_equal(tokenring_ring_find_node(&w->node[i].lib, ring, w->node[i].name),
                         TOKENRING_OK);
    tokenring_replication *repl = NULL;
    if (w->simple) {
        assert_int_equal(tokenring_replication_simple(&repl, w->rf, w->tr, NULL), TOKENRING_OK);
    } else {
        assert_int_equal(tokenring_replication_network(&repl), TOKENRING_OK);
        for (int d = 0; d < w->ndc; d++)
            assert_int_equal(tokenring_replication_set_dc(repl, w->dc[d], w->dc_rf[d],
                                                          w->dc_tr[d], NULL),
                             TOKENRING_OK);
    }
    tokenring_placement *p = NULL;
    assert_int_equal(tokenring_placement_build(&p, ring, repl,
                                               TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC, NULL),
                     TOKENRING_OK);
    tokenring_replication_free(repl);

    /* the ring itself */
    size_t n = 0;
    const int64_t *tokens = tokenring_ring_tokens(ring, &n);
    const uint32_t *owners = tokenring_ring_token_nodes(ring, NULL);
    assert_int_equal(n, (size_t)w->nr);
    for (int i = 0; i < w->nr; i++) {
        assert_int_equal(tokens[i], w->tok[i]);
        assert_int_equal(owners[i], w->node[w->owner[i]].lib);
    }

    /* the precomputed map, range by range, against the model's walk */
    size_t sets = tokenring_placement_set_count(p);
    assert_true(sets >= 1 && sets <= (size_t)w->nr);
    for (int i = 0; i < w->nr; i++) {
        walk(w, i, &by_range[i]);
        tokenring_replicas x;
        assert_int_equal(tokenring_placement_range_replicas(&x, p, (size_t)i), TOKENRING_OK);
        assert_int_equal(x.range_index, (uint32_t)i);
        same(w, &by_range[i], &x, "range", seed, i);
        assert_true(x.set_id < sets);
        tokenring_replicas s;
        assert_int_equal(tokenring_placement_set(&s, p, x.set_id), TOKENRING_OK);
        same(w, &by_range[i], &s, "set of range", seed, i);
        tokenring_range r;
        assert_int_equal(tokenring_ring_range(&r, ring, (size_t)i), TOKENRING_OK);
        assert_int_equal(r.end, w->tok[i]);
        assert_int_equal(r.start, w->tok[i == 0 ? w->nr - 1 : i - 1]);
        assert_int_equal(r.owner, w->node[w->owner[i]].lib);
    }
    /* equal lists share one id (different lists cannot: each set reads back as its
     * list, checked above): sort the ranges by their model list, compare neighbours */
    static int order[MAX_RING];
    static uint32_t ids[MAX_RING];
    for (int i = 0; i < w->nr; i++) {
        tokenring_replicas x;
        assert_int_equal(tokenring_placement_range_replicas(&x, p, (size_t)i), TOKENRING_OK);
        ids[i] = x.set_id;
        order[i] = i;
    }
    qsort(order, (size_t)w->nr, sizeof *order, by_list);
    size_t distinct = 0;
    for (int k = 0; k < w->nr; k++) {
        if (k == 0 || by_list(&order[k - 1], &order[k]) != 0) {
            distinct++;
            continue;
        }
        if (ids[order[k]] != ids[order[k - 1]])
            fail_msg("seed %llu: ranges %d and %d have equal replicas but sets %u and %u",
                     (unsigned long long)seed, order[k - 1], order[k], ids[order[k - 1]],
                     ids[order[k]]);
    }
    assert_int_equal(distinct, sets);

    /* token lookups: every ring token and its neighbours, the edges, random tokens; one
     * by one and in one batch */
    enum { QMAX = MAX_RING * 3 + 80 };
    static int64_t q[QMAX];
    static uint32_t batch[QMAX];
    int nq = 0;
    for (int i = 0; i < w->nr; i++) {
        q[nq++] = w->tok[i];
        q[nq++] = (int64_t)((uint64_t)w->tok[i] + 1);
        q[nq++] = (int64_t)((uint64_t)w->tok[i] - 1);
    }
    q[nq++] = INT64_MIN;
    q[nq++] = INT64_MAX;
    for (int k = 0; k < 78; k++)
        q[nq++] = pick_token(between(0, 2));
    assert_int_equal(tokenring_ring_search_batch(batch, ring, q, (size_t)nq), TOKENRING_OK);
    for (int k = 0; k < nq; k++) {
        int i = first_index(w, q[k]);
        if (k >= 3 * w->nr)
            assert_int_equal(first_index_linear(w, q[k]), i);
        assert_int_equal(batch[k], (uint32_t)i);
        assert_int_equal(tokenring_ring_search(ring, q[k]), (uint32_t)i);
        uint32_t own;
        assert_int_equal(tokenring_ring_owner(&own, ring, q[k]), TOKENRING_OK);
        assert_int_equal(own, w->node[w->owner[i]].lib);
        tokenring_replicas x;
        assert_int_equal(tokenring_placement_replicas(&x, p, q[k]), TOKENRING_OK);
        assert_int_equal(x.range_index, (uint32_t)i);
        same(w, &by_range[i], &x, "token", seed, (long long)q[k]);
    }

    /* keys: random bytes, hashed one by one, in a batch and routed in a batch */
    enum { KEYS = 200 };
    static uint8_t packed[KEYS * 40];
    uint64_t off[KEYS + 1];
    int64_t one[KEYS], many[KEYS], routed[KEYS];
    uint32_t set_ids[KEYS];
    off[0] = 0;
    for (int k = 0; k < KEYS; k++) {
        int len = k == 0 ? 0 : between(0, 40);
        for (int b = 0; b < len; b++)
            packed[off[k] + (uint64_t)b] = (uint8_t)next();
        off[k + 1] = off[k] + (uint64_t)len;
        one[k] = tokenring_token(packed + off[k], (size_t)len);
    }
    assert_int_equal(tokenring_tokens(many, packed, off, KEYS), TOKENRING_OK);
    assert_int_equal(tokenring_placement_route_keys(routed, set_ids, p, packed, off, KEYS),
                     TOKENRING_OK);
    for (int k = 0; k < KEYS; k++) {
        assert_int_equal(many[k], one[k]);
        assert_int_equal(routed[k], one[k]);
        int i = first_index(w, one[k]);
        tokenring_replicas x, s;
        assert_int_equal(tokenring_placement_replicas_for_key(&x, p, packed + off[k],
                                                              (size_t)(off[k + 1] - off[k])),
                         TOKENRING_OK);
        assert_int_equal(x.range_index, (uint32_t)i);
        same(w, &by_range[i], &x, "key", seed, k);
        assert_int_equal(x.set_id, set_ids[k]);
        assert_int_equal(tokenring_placement_set(&s, p, set_ids[k]), TOKENRING_OK);
        same(w, &by_range[i], &s, "routed key", seed, k);
    }
    /* routed to their replicas in one call: every field as the single-key call gives it
     * (the key's own range, not its set's first), in chunks of every size 1..KEYS */
    static tokenring_replicas reps[KEYS];
    int64_t rtok[KEYS];
    for (int from = 0; from < KEYS;) {
        int chunk = between(1, KEYS - from);
        assert_int_equal(tokenring_placement_route_keys_replicas(reps + from, rtok + from, p,
                                                                 packed, off + from, (size_t)chunk),
                         TOKENRING_OK);
        from += chunk;
    }
    for (int k = 0; k < KEYS; k++) {
        tokenring_replicas x;
        assert_int_equal(tokenring_placement_replicas_for_key(&x, p, packed + off[k],
                                                              (size_t)(off[k + 1] - off[k])),
                         TOKENRING_OK);
        assert_int_equal(rtok[k], one[k]);
        assert_ptr_equal(reps[k].nodes, x.nodes);
        assert_ptr_equal(reps[k].transient, x.transient);
        assert_int_equal(reps[k].count, x.count);
        assert_int_equal(reps[k].range_index, x.range_index);
        assert_int_equal(reps[k].set_id, x.set_id);
        assert_int_equal(reps[k].reserved, 0);
        same(w, &by_range[first_index(w, one[k])], &reps[k], "routed replicas", seed, k);
    }

    /* ownership: exact widths, summed range by range */
    u128 prim[NODES] = { 0 }, eff[NODES] = { 0 };
    int count[NODES] = { 0 };
    for (int i = 0; i < w->nr; i++) {
        u128 width = w->nr == 1 ? (u128)1 << 64
                                : (u128)((uint64_t)w->tok[i] -
                                         (uint64_t)w->tok[i == 0 ? w->nr - 1 : i - 1]);
        prim[w->owner[i]] += width;
        count[w->owner[i]]++;
        for (int j = 0; j < by_range[i].count; j++)
            eff[by_range[i].node[j]] += width;
    }
    size_t nodes = tokenring_ring_node_count(ring);
    assert_int_equal(nodes, (size_t)w->nn);
    tokenring_ownership own[NODES];
    assert_int_equal(tokenring_ring_ownership(own, NODES, ring, p), TOKENRING_OK);
    u128 total = 0;
    for (int i = 0; i < w->nn; i++) {
        const tokenring_ownership *o = &own[w->node[i].lib];
        if (wide(o->primary_width) != prim[i] || wide(o->effective_width) != eff[i])
            fail_msg("seed %llu node %s: ownership widths differ from the model",
                     (unsigned long long)seed, w->node[i].name);
        assert_int_equal(o->token_count, (uint32_t)count[i]);
        total += prim[i];
    }
    assert_true(total == (u128)1 << 64);
    tokenring_placement_free(p);
    tokenring_ring_free(ring);
}

/* Sanitizer builds run fewer worlds (about 10x slower per world). */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

static void random_worlds_agree(void **state)
{
    (void)state;
    const char *env = getenv("TOKENRING_DIFFERENTIAL_WORLDS");
    long worlds = env ? atol(env) : SANITIZED ? 80 : 250;
    for (long s = 1; s <= worlds; s++)
        check_world((uint64_t)s * 1000003u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_worlds_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
