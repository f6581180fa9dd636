/* SPDX-License-Identifier: Apache-2.0 */
/* Differential test: random topologies (1-3 datacenters, 1-5 racks, 1-32 tokens per node,
 * some nodes joining/leaving/moving) and random replications (rf 0-5, transient factors)
 * checked against an independent, deliberately plain model written here from the spec:
 * a linear search for the owner, Cassandra's single interleaved ring walk over a sorted
 * copy of the tokens with string comparisons for racks, and ownership summed range by
 * range. Owner, range bounds, replica order, transient flags, exact primary and effective
 * widths and the nodetool floats must all agree. */
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
__extension__ typedef __int128 i128;

static uint64_t rng_state;
static uint64_t rnd(void)
{
    return tt_splitmix64(&rng_state);
}
static int rnd_in(int lo, int hi) /* inclusive */
{
    return tt_between(&rng_state, lo, hi);
}

enum { MAX_NODES = 40, MAX_TOK = 32, MAX_DC = 4 };

typedef struct {
    char name[16], dc[16], rack[16];
    int64_t tokens[MAX_TOK];
    int ntok;
    int state;
} mnode;

typedef struct {
    int64_t token;
    int node;
} mtok;

typedef struct {
    mnode nodes[MAX_NODES];
    int nn;
    mtok ring[MAX_NODES * MAX_TOK];
    int nr;
} model;

typedef struct {
    bool simple;
    int rf, tr;              /* simple */
    int ndc;
    char dc[MAX_DC][16];
    int dc_rf[MAX_DC], dc_tr[MAX_DC];
} mrepl;

static bool in_ring(int state)
{
    return state == TOKENRING_STATE_NORMAL || state == TOKENRING_STATE_LEAVING ||
           state == TOKENRING_STATE_MOVING;
}

static int cmp_mtok(const void *a, const void *b)
{
    int64_t x = ((const mtok *)a)->token, y = ((const mtok *)b)->token;
    return (x > y) - (x < y);
}

static bool token_used(const model *m, int64_t t)
{
    for (int i = 0; i < m->nn; i++)
        for (int k = 0; k < m->nodes[i].ntok; k++)
            if (m->nodes[i].tokens[k] == t)
                return true;
    return false;
}

static int64_t random_token(int style)
{
    switch (style) {
    case 0:
        return (int64_t)rnd();
    case 1: /* crowded: a small window, many neighbours */
        return (int64_t)(rnd() % 2000) - 1000;
    default: { /* edges */
        int64_t edges[] = { TOKENRING_MIN_TOKEN, TOKENRING_MIN_TOKEN + 1, -1, 0, 1,
                            TOKENRING_MAX_TOKEN - 1, TOKENRING_MAX_TOKEN };
        return rnd() % 3 ? (int64_t)rnd() : edges[rnd() % 7];
    }
    }
}

static void random_model(model *m)
{
    memset(m, 0, sizeof *m);
    int ndc = rnd_in(1, 3);
    int style = rnd_in(0, 2);
    int vn_max = rnd() % 3 ? 32 : 1;
    for (int d = 0; d < ndc; d++) {
        int racks = rnd_in(1, 5);
        int nodes = rnd_in(1, 10);
        /* Lopsided: racks other than r1 get a single token per node, so walks cross long
         * runs of r1 tokens they cannot take. */
        bool lopsided = rnd() % 3 == 0;
        for (int k = 0; k < nodes && m->nn < MAX_NODES; k++) {
            mnode *n = &m->nodes[m->nn];
            snprintf(n->name, sizeof n->name, "n%02d", m->nn);
            snprintf(n->dc, sizeof n->dc, "dc%d", d + 1);
            /* rack names repeat across datacenters on purpose */
            snprintf(n->rack, sizeof n->rack, "r%d", rnd_in(1, racks));
            int want = lopsided && strcmp(n->rack, "r1") != 0 ? 1 : rnd_in(1, vn_max);
            for (int t = 0; t < want; t++) {
                int64_t tok = random_token(style);
                bool dup = token_used(m, tok);
                for (int j = 0; j < n->ntok; j++)
                    dup |= n->tokens[j] == tok;
                if (!dup)
                    n->tokens[n->ntok++] = tok;
            }
            if (n->ntok == 0)
                continue;
            int s = rnd_in(0, 9);
            n->state = s < 7 ? TOKENRING_STATE_NORMAL : s - 6; /* 1..3 */
            m->nn++;
        }
    }
    /* Make sure some node is in the ring. */
    m->nodes[0].state = TOKENRING_STATE_NORMAL;
    for (int i = 0; i < m->nn; i++)
        if (in_ring(m->nodes[i].state))
            for (int k = 0; k < m->nodes[i].ntok; k++)
                m->ring[m->nr++] = (mtok){ m->nodes[i].tokens[k], i };
    qsort(m->ring, (size_t)m->nr, sizeof *m->ring, cmp_mtok);
}

static void random_repl(mrepl *r, bool *unknown_dc)
{
    memset(r, 0, sizeof *r);
    *unknown_dc = false;
    r->simple = rnd() % 3 == 0;
    if (r->simple) {
        r->rf = rnd_in(0, 5);
        r->tr = r->rf > 1 && rnd() % 2 ? rnd_in(0, r->rf - 1) : 0;
        return;
    }
    for (int d = 1; d <= 4; d++) {
        if (rnd() % 4 == 0)
            continue;
        snprintf(r->dc[r->ndc], sizeof r->dc[0], "dc%d", d);
        r->dc_rf[r->ndc] = rnd_in(0, 5);
        r->dc_tr[r->ndc] =
            r->dc_rf[r->ndc] > 1 && rnd() % 2 ? rnd_in(0, r->dc_rf[r->ndc] - 1) : 0;
        r->ndc++;
    }
    *unknown_dc = true; /* dc4 never has nodes; other dcs may be missing too */
}

/* Owner index in m->ring: first token >= t, else 0 (linear on purpose). */
static int model_search(const model *m, int64_t t)
{
    for (int i = 0; i < m->nr; i++)
        if (m->ring[i].token >= t)
            return i;
    return 0;
}

/* Cassandra's calculateNaturalReplicas, written out from spec section 5. */
static int model_replicas(const model *m, const mrepl *r, int start, int *out, bool *transient)
{
    int cnt = 0;
    if (r->simple) {
        for (int k = 0; k < m->nr && cnt < r->rf; k++) {
            int node = m->ring[(start + k) % m->nr].node;
            bool seen = false;
            for (int j = 0; j < cnt; j++)
                seen |= out[j] == node;
            if (!seen) {
                transient[cnt] = !(cnt < r->rf - r->tr);
                out[cnt++] = node;
            }
        }
        return cnt;
    }
    struct {
        bool active;
        int rf_left, repeats, transients;
    } st[MAX_DC] = { { 0 } };
    int to_fill = 0;
    for (int d = 0; d < r->ndc; d++) {
        int nodes = 0, racks = 0;
        char seen_racks[MAX_NODES][16];
        for (int i = 0; i < m->nn; i++) {
            if (!in_ring(m->nodes[i].state) || strcmp(m->nodes[i].dc, r->dc[d]) != 0)
                continue;
            nodes++;
            bool s = false;
            for (int k = 0; k < racks; k++)
                s |= strcmp(seen_racks[k], m->nodes[i].rack) == 0;
            if (!s)
                strcpy(seen_racks[racks++], m->nodes[i].rack);
        }
        if (r->dc_rf[d] <= 0 || nodes == 0)
            continue;
        st[d].active = true;
        st[d].rf_left = r->dc_rf[d] < nodes ? r->dc_rf[d] : nodes;
        st[d].repeats = r->dc_rf[d] - racks;
        int t = r->dc_tr[d] - (r->dc_rf[d] - st[d].rf_left);
        st[d].transients = t > 0 ? t : 0;
        to_fill++;
    }
    char used[MAX_NODES][40]; /* "dc/rack" */
    int nused = 0;
    for (int k = 0; k < m->nr && to_fill > 0; k++) {
        int node = m->ring[(start + k) % m->nr].node;
        const mnode *n = &m->nodes[node];
        int d = -1;
        for (int j = 0; j < r->ndc; j++)
            if (strcmp(r->dc[j], n->dc) == 0)
                d = j;
        if (d < 0 || !st[d].active || st[d].rf_left == 0)
            continue;
        bool chosen = false;
        for (int j = 0; j < cnt; j++)
            chosen |= out[j] == node;
        if (chosen)
            continue;
        bool full = st[d].rf_left > st[d].transients;
        char loc[40];
        snprintf(loc, sizeof loc, "%s/%s", n->dc, n->rack);
        bool seen = false;
        for (int j = 0; j < nused; j++)
            seen |= strcmp(used[j], loc) == 0;
        if (!seen)
            strcpy(used[nused++], loc);
        else if (st[d].repeats > 0)
            st[d].repeats--;
        else
            continue;
        transient[cnt] = !full;
        out[cnt++] = node;
        if (--st[d].rf_left == 0)
            to_fill--;
    }
    return cnt;
}

/* describeOwnership's float for ring position i, computed with plain 128-bit division. */
static float model_fraction(const model *m, int i)
{
    if (m->nr == 1)
        return 1.0f;
    const u128 R = ((u128)1 << 64) - 2;
    i128 cur = m->ring[i].token;
    i128 prev = m->ring[i == 0 ? m->nr - 1 : i - 1].token;
    i128 v = (cur - prev + (i128)R) % (i128)R;
    if (v < 0)
        v += (i128)R;
    u128 x = (u128)v * 1000000u;
    u128 q = x / R, rem = x % R;
    if (2 * rem > R || (2 * rem == R && (q & 1)))
        q++;
    return (float)(uint32_t)q / 1000000.0f;
}

static u128 u128_of(tokenring_u128 v)
{
    return ((u128)v.hi << 64) | v.lo;
}

static void check_one(uint64_t seed)
{
    rng_state = seed;
    model m;
    random_model(&m);
    mrepl mr;
    bool unknown;
    random_repl(&mr, &unknown);

    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    for (int i = 0; i < m.nn; i++) {
        const mnode *n = &m.nodes[i];
        assert_int_equal(tokenring_topology_add_node(t, n->name, n->dc, n->rack, n->tokens,
                                                     (size_t)n->ntok, NULL),
                         TOKENRING_OK);
        assert_int_equal(tokenring_topology_set_state(t, n->name, n->state, TOKENRING_UP, NULL),
                         TOKENRING_OK);
    }
    tokenring_ring *ring = NULL;
    assert_int_equal(tokenring_ring_build(&ring, t, NULL), TOKENRING_OK);
    tokenring_topology_free(t);
    tokenring_replication *repl = NULL;
    if (mr.simple) {
        assert_int_equal(tokenring_replication_simple(&repl, mr.rf, mr.tr, NULL), TOKENRING_OK);
    } else {
        assert_int_equal(tokenring_replication_network(&repl), TOKENRING_OK);
        for (int d = 0; d < mr.ndc; d++)
            assert_int_equal(tokenring_replication_set_dc(repl, mr.dc[d], mr.dc_rf[d],
                                                          mr.dc_tr[d], NULL),
                             TOKENRING_OK);
    }
    tokenring_placement *p = NULL;
    assert_int_equal(tokenring_placement_build(&p, ring, repl,
                                               unknown ? TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC : 0,
                                               NULL),
                     TOKENRING_OK);
    tokenring_replication_free(repl);

    size_t n;
    const int64_t *tokens = tokenring_ring_tokens(ring, &n);
    assert_int_equal(n, (size_t)m.nr);
    for (int i = 0; i < m.nr; i++)
        assert_int_equal(tokens[i], m.ring[i].token);

    /* Queries: every ring token, its neighbours, the edges and random tokens. */
    int64_t q[MAX_NODES * MAX_TOK * 3 + 64];
    int nq = 0;
    for (int i = 0; i < m.nr; i++) {
        q[nq++] = m.ring[i].token;
        q[nq++] = (int64_t)((uint64_t)m.ring[i].token + 1);
        q[nq++] = (int64_t)((uint64_t)m.ring[i].token - 1);
    }
    q[nq++] = TOKENRING_MIN_TOKEN;
    q[nq++] = TOKENRING_MAX_TOKEN;
    for (int k = 0; k < 64; k++)
        q[nq++] = random_token(rnd_in(0, 2));

    for (int k = 0; k < nq; k++) {
        int i = model_search(&m, q[k]);
        int want[MAX_NODES];
        bool want_t[MAX_NODES];
        int cnt = model_replicas(&m, &mr, i, want, want_t);
        tokenring_range range;
        assert_int_equal(tokenring_ring_range_of(&range, ring, q[k]), TOKENRING_OK);
        assert_int_equal(range.index, (uint32_t)i);
        assert_int_equal(range.owner, (uint32_t)m.ring[i].node);
        assert_int_equal(range.end, m.ring[i].token);
        assert_int_equal(range.start, m.ring[i == 0 ? m.nr - 1 : i - 1].token);
        tokenring_replicas x;
        assert_int_equal(tokenring_placement_replicas(&x, p, q[k]), TOKENRING_OK);
        if (x.count != (uint32_t)cnt)
            fail_msg("seed %llu token %lld: %u replicas, model %d", (unsigned long long)seed,
                     (long long)q[k], (unsigned)x.count, cnt);
        bool any_t = false;
        for (int j = 0; j < cnt; j++) {
            if (x.nodes[j] != (uint32_t)want[j])
                fail_msg("seed %llu token %lld: replica %d is node %u, model %d",
                         (unsigned long long)seed, (long long)q[k], j, (unsigned)x.nodes[j],
                         want[j]);
            bool got_t = x.transient && x.transient[j];
            assert_int_equal(got_t, want_t[j]);
            any_t |= want_t[j];
        }
        assert_int_equal(x.transient != NULL, any_t);
    }

    /* Ownership: exact widths and nodetool floats, range by range. */
    u128 prim[MAX_NODES] = { 0 }, eff[MAX_NODES] = { 0 };
    float nprim[MAX_NODES] = { 0 }, neff[MAX_NODES] = { 0 };
    for (int i = 0; i < m.nr; i++) {
        u128 w = m.nr == 1 ? (u128)1 << 64
                           : (u128)(uint64_t)((uint64_t)m.ring[i].token -
                                              (uint64_t)m.ring[i == 0 ? m.nr - 1 : i - 1].token);
        float f = model_fraction(&m, i);
        prim[m.ring[i].node] += w;
        nprim[m.ring[i].node] = nprim[m.ring[i].node] + f;
        int want[MAX_NODES];
        bool want_t[MAX_NODES];
        int cnt = model_replicas(&m, &mr, i, want, want_t);
        for (int j = 0; j < cnt; j++) {
            eff[want[j]] += w;
            neff[want[j]] = neff[want[j]] + f;
        }
    }
    tokenring_ownership own[MAX_NODES];
    assert_int_equal(tokenring_ring_ownership(own, MAX_NODES, ring, p), TOKENRING_OK);
    for (int i = 0; i < m.nn; i++) {
        if (u128_of(own[i].primary_width) != prim[i] || u128_of(own[i].effective_width) != eff[i])
            fail_msg("seed %llu node %d: widths differ from the model", (unsigned long long)seed,
                     i);
        if (memcmp(&own[i].nodetool_primary, &nprim[i], sizeof(float)) != 0 ||
            memcmp(&own[i].nodetool_effective, &neff[i], sizeof(float)) != 0)
            fail_msg("seed %llu node %d: nodetool %.9g/%.9g, model %.9g/%.9g",
                     (unsigned long long)seed, i, (double)own[i].nodetool_primary,
                     (double)own[i].nodetool_effective, (double)nprim[i], (double)neff[i]);
    }
    tokenring_placement_free(p);
    tokenring_ring_free(ring);
}

static void random_topologies_agree_with_the_model(void **state)
{
    (void)state;
    /* TOKENRING_TEST_QUICK=1 (the valgrind job) checks a sixth of the topologies. */
    const char *quick = getenv("TOKENRING_TEST_QUICK");
    uint64_t seeds = quick && quick[0] == '1' ? 100 : 600;
    for (uint64_t seed = 1; seed <= seeds; seed++)
        check_one(seed * 7919);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_topologies_agree_with_the_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
