/* SPDX-License-Identifier: Apache-2.0 */
/* Cassandra 6.0's read placements replayed from a cluster's history (doc/cassandra-6.md).
 *
 * 6.0 keeps one placement per distinct replication: ranges (cut at the minimum token as
 * well as at every ring token) each with an ordered replica list. A change of the ring
 * is planned on the canonical placements (the 4.0+ walk of the tokens: what
 * tokenring_placement_build() computes) and applied to the kept ones as deltas: a
 * replica removed keeps the others' order; the replicas added to a range in one delta are
 * appended in the iteration order of Java's HashMap over their addresses (the delta is a
 * map from endpoint to ranges); a range that is split or merged loses its replicas and
 * gets them back that way. After every committed step every range's owner (the node
 * owning its end token in that step's token map; the first token for the range ending
 * at the minimum) moves to the front, the others keeping their order. The steps, as
 * UniformRangePlacement plans them and the sequences commit them:
 *   join:    PREPARE (split the ranges at the new tokens) / MID (reads: remove what the
 *            new ring drops, append what it adds) / FINISH (the tokens join the map)
 *   leave:   MID (as join's) / FINISH (merge the ranges of the leaving tokens; the
 *            tokens leave the map)
 *   move:    PREPARE (split at the new token) / MID / FINISH (merge at the old token)
 *   replace: MID / FINISH (the tokens change owner)
 * START steps change the write placement only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define HMIN INT64_MIN

typedef struct {
    char *name, *dc, *rack;
    int32_t jhash; /* Java's InetSocketAddress.hashCode(): address + port */
} hnode;

typedef struct {
    int64_t t;
    uint32_t node;
} htok;

typedef struct {
    int64_t left, right; /* (left, right]; right == HMIN: up to the minimum token */
    uint32_t *eps;
    uint32_t n, cap;
} hrange;

typedef struct {
    hrange *r; /* sorted by left (ranges never overlap) */
    size_t n, cap;
} hmap;

typedef struct {
    tokenring_replication *repl;
    char *key;  /* its formatted text: equal replications, equal keys */
    hmap reads;
    bool placed;
} hrepl;

/* A keyspace and the replication it has (an index of repls). */
typedef struct {
    char *name;
    size_t repl;
} hks;

struct tokenring_history {
    hnode *nodes;
    size_t nnodes, capn;
    hks *ks; /* keyspaces by name: a replication no keyspace has any more is dropped */
    size_t nks, capk;
    htok *toks; /* the token map, sorted */
    size_t ntoks;
    hrepl *repls;
    size_t nrepls, capr;
    tokenring_ring *ring; /* after the last step (NULL: no node in the ring) */
    struct hlocks *collect; /* non-NULL: a planned operation, its locks collected, nothing
                               applied (tokenring_history_concurrent) */
};

/* The ranges a planned operation locks (6.0's PlacementTransitionPlan.affectedRanges()):
 * per replication, the range of every replica its read deltas add or remove. */
typedef struct {
    size_t repl;
    int64_t left, right;
} hlock;

struct hlocks {
    hlock *l;
    size_t n, cap;
};

/* ------------------------------------------------------------------ maps */

static void hmap_free(hmap *m)
{
    for (size_t i = 0; i < m->n; i++)
        tr_free(m->r[i].eps);
    tr_free(m->r);
    memset(m, 0, sizeof *m);
}

static int cmp_left(int64_t a, int64_t b)
{
    return a < b ? -1 : a > b;
}

/* Index of the range (left, right] in m, or of where it would go (*found false). */
static size_t hmap_find(const hmap *m, int64_t left, bool *found)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->r[mid].left < left)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = lo < m->n && m->r[lo].left == left;
    return lo;
}

/* The range (left, right] of m, created empty where absent; NULL when out of memory. */
static hrange *hmap_get(hmap *m, int64_t left, int64_t right)
{
    bool found;
    size_t at = hmap_find(m, left, &found);
    if (found && m->r[at].right == right)
        return &m->r[at];
    if (found) /* a range of another extent starting there: the map is being rebuilt */
        at++;
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 16;
        hrange *r = tr_reallocarray(m->r, cap, sizeof *r);
        if (!r)
            return NULL;
        m->r = r;
        m->cap = cap;
    }
    memmove(m->r + at + 1, m->r + at, (m->n - at) * sizeof *m->r);
    m->n++;
    hrange *h = &m->r[at];
    memset(h, 0, sizeof *h);
    h->left = left;
    h->right = right;
    return h;
}

static const hrange *hmap_lookup(const hmap *m, int64_t left, int64_t right)
{
    bool found;
    size_t at = hmap_find(m, left, &found);
    return found && m->r[at].right == right ? &m->r[at] : NULL;
}

static bool hrange_push(hrange *h, uint32_t v)
{
    if (h->n == h->cap) {
        uint32_t cap = h->cap ? h->cap * 2 : 4;
        uint32_t *e = tr_reallocarray(h->eps, cap, sizeof *e);
        if (!e)
            return false;
        h->eps = e;
        h->cap = cap;
    }
    h->eps[h->n++] = v;
    return true;
}

static bool hrange_has(const hrange *h, uint32_t v)
{
    for (uint32_t k = 0; k < h->n; k++)
        if (h->eps[k] == v)
            return true;
    return false;
}

static void hmap_remove_at(hmap *m, size_t at)
{
    tr_free(m->r[at].eps);
    memmove(m->r + at, m->r + at + 1, (m->n - at - 1) * sizeof *m->r);
    m->n--;
}

/* ------------------------------------------------------------------ canonical */

static int cmp_htok(const void *a, const void *b)
{
    const htok *x = a, *y = b;
    return cmp_left(x->t, y->t);
}

static int nomem(tokenring_error *err)
{
    return tr_fail(err, TOKENRING_E_NOMEM, "out of memory replaying the history");
}

/* The ring of a token map (node names from h). */
static int ring_of(tokenring_ring **out, const tokenring_history *h, const htok *toks,
                   size_t n, tokenring_error *err)
{
    tokenring_topology *t = NULL;
    int64_t *buf = tr_malloc((n ? n : 1) * sizeof *buf);
    int rc = buf ? tokenring_topology_new(&t) : TOKENRING_E_NOMEM;
    for (size_t v = 0; rc == TOKENRING_OK && v < h->nnodes; v++) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (toks[i].node == v)
                buf[k++] = toks[i].t;
        if (k)
            rc = tokenring_topology_add_node(t, h->nodes[v].name, h->nodes[v].dc,
                                             h->nodes[v].rack, buf, k, err);
    }
    if (rc == TOKENRING_OK)
        rc = tokenring_ring_build(out, t, err);
    tokenring_topology_free(t);
    tr_free(buf);
    return rc == TOKENRING_E_NOMEM ? nomem(err) : rc;
}

/* History node index of each node of ring (by name). */
static uint32_t *node_map(const tokenring_history *h, const tokenring_ring *ring)
{
    size_t n = tokenring_ring_node_count(ring);
    uint32_t *map = tr_malloc((n ? n : 1) * sizeof *map);
    if (!map)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        tokenring_node_info info;
        tokenring_ring_node(&info, ring, i);
        map[i] = UINT32_MAX;
        for (size_t v = 0; v < h->nnodes; v++)
            if (strcmp(h->nodes[v].name, info.name) == 0)
                map[i] = (uint32_t)v;
    }
    return map;
}

/* The canonical placement of replication r on the token map toks, at the ranges of the
 * tokens cut (sorted, distinct, a superset of toks' tokens): every range (l, r] gets the
 * walk's replicas of the ring range holding r (of the first token for r == minimum). */
static int canonical(hmap *out, const tokenring_history *h, const htok *toks, size_t n,
                     const tokenring_replication *repl, const int64_t *cut, size_t ncut,
                     tokenring_error *err)
{
    memset(out, 0, sizeof *out);
    tokenring_ring *ring = NULL;
    tokenring_placement *p = NULL;
    uint32_t *map = NULL;
    int rc = ring_of(&ring, h, toks, n, err);
    if (rc != TOKENRING_OK)
        return rc;
    rc = tokenring_placement_build(&p, ring, repl, TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC, err);
    if (rc == TOKENRING_OK && !(map = node_map(h, ring)))
        rc = nomem(err);
    for (size_t i = 0; rc == TOKENRING_OK && i <= ncut; i++) {
        int64_t left = i == 0 ? HMIN : cut[i - 1], right = i == ncut ? HMIN : cut[i];
        if (left == right)
            continue;
        tokenring_replicas rr;
        tokenring_placement_replicas(&rr, p, right == HMIN ? cut[0] : right);
        hrange *hr = hmap_get(out, left, right);
        if (!hr) {
            rc = nomem(err);
            break;
        }
        for (uint32_t k = 0; k < rr.count; k++)
            if (!hrange_push(hr, map[rr.nodes[k]])) {
                rc = nomem(err);
                break;
            }
    }
    tr_free(map);
    tokenring_placement_free(p);
    tokenring_ring_free(ring);
    if (rc != TOKENRING_OK)
        hmap_free(out);
    return rc;
}

/* ------------------------------------------------------------------ deltas */

/* Java's HashMap bucket of a key hash for a table of cap buckets. */
static uint32_t bucket(int32_t hash, size_t cap)
{
    uint32_t hv = (uint32_t)hash;
    return (hv ^ (hv >> 16)) & (uint32_t)(cap - 1);
}

/* A java.util.HashMap of endpoints (node indices) filled by computeIfAbsent, as
 * ReplicaMultimap.Builder fills the maps of 6.0's deltas: each call first resizes the table
 * when the size has passed 0.75 of it (16 buckets at the first call, then doubled); a new
 * key goes to the HEAD of its bucket's chain; a key landing in a chain of 7 or more makes
 * the table double when it has fewer than 64 buckets (treeifyBin). A resize splits every
 * chain in two, keeping its order. Iteration: bucket by bucket, each chain in order. */
typedef struct {
    const tokenring_history *h;
    uint32_t *head, *next; /* head[bucket], next[key]: chains (UINT32_MAX ends one) */
    size_t cap, size, max;
} jmap;

static bool jmap_init(jmap *m, const tokenring_history *h)
{
    size_t max = 128;
    while (max < 4 * h->nnodes)
        max *= 2;
    *m = (jmap){ h, tr_malloc(max * sizeof *m->head),
                 tr_malloc((h->nnodes ? h->nnodes : 1) * sizeof *m->next), 0, 0, max };
    return m->head && m->next;
}

static void jmap_free(jmap *m)
{
    tr_free(m->head);
    tr_free(m->next);
}

static void jmap_resize(jmap *m)
{
    size_t old = m->cap, cap = old ? old * 2 : 16;
    if (cap > m->max)
        return; /* (cannot happen: the size stays below the keys' count) */
    for (size_t b = old; b < cap; b++)
        m->head[b] = UINT32_MAX;
    if (!old)
        for (size_t b = 0; b < cap; b++)
            m->head[b] = UINT32_MAX;
    for (size_t b = 0; b < old; b++) {
        uint32_t lo = UINT32_MAX, lo_tail = UINT32_MAX, hi = UINT32_MAX, hi_tail = UINT32_MAX;
        for (uint32_t k = m->head[b]; k != UINT32_MAX;) {
            uint32_t nk = m->next[k];
            bool up = bucket(m->h->nodes[k].jhash, cap) != b;
            uint32_t *hd = up ? &hi : &lo, *tl = up ? &hi_tail : &lo_tail;
            if (*tl == UINT32_MAX)
                *hd = k;
            else
                m->next[*tl] = k;
            *tl = k;
            m->next[k] = UINT32_MAX;
            k = nk;
        }
        m->head[b] = lo;
        m->head[b + old] = hi;
    }
    m->cap = cap;
}

static void jmap_call(jmap *m, uint32_t key)
{
    if (m->cap == 0 || m->size > m->cap / 4 * 3)
        jmap_resize(m);
    uint32_t b = bucket(m->h->nodes[key].jhash, m->cap), chain = 0;
    for (uint32_t k = m->head[b]; k != UINT32_MAX; k = m->next[k], chain++)
        if (k == key)
            return;
    m->next[key] = m->head[b];
    m->head[b] = key;
    m->size++;
    if (chain >= 7 && m->cap < 64)
        jmap_resize(m);
}

/* The keys in iteration order into out; their count. */
static size_t jmap_keys(const jmap *m, uint32_t *out)
{
    size_t n = 0;
    for (size_t b = 0; b < m->cap; b++)
        for (uint32_t k = m->head[b]; k != UINT32_MAX; k = m->next[k])
            out[n++] = k;
    return n;
}

/* Applies the delta old -> new (replica granularity, ranges matched exactly) to P:
 * replicas of old missing from new are removed (a range left empty disappears), then
 * those of new missing from old are appended, endpoint after endpoint in Java's HashMap
 * order over every endpoint with an addition. */
static int apply_delta(const tokenring_history *h, hmap *P, const hmap *old, const hmap *neu,
                       bool merged, tokenring_error *err)
{
    /* removals */
    for (size_t i = 0; i < old->n; i++) {
        const hrange *o = &old->r[i];
        const hrange *n = hmap_lookup(neu, o->left, o->right);
        bool found;
        size_t at = hmap_find(P, o->left, &found);
        if (!found || P->r[at].right != o->right)
            continue;
        hrange *pr = &P->r[at];
        for (uint32_t k = 0; k < o->n; k++) {
            if (n && hrange_has(n, o->eps[k]))
                continue;
            for (uint32_t j = 0; j < pr->n; j++)
                if (pr->eps[j] == o->eps[k]) {
                    memmove(pr->eps + j, pr->eps + j + 1, (pr->n - j - 1) * sizeof *pr->eps);
                    pr->n--;
                    break;
                }
        }
        if (pr->n == 0)
            hmap_remove_at(P, at);
    }
    /* additions, endpoint after endpoint in the iteration order of the delta's map, a
     * HashMap (jmap) filled by iterating another: the target placement's endpoints
     * (ReplicaGroups.byEndpoint: along its ranges, each range's list in order; for a MID
     * step the target is start and final combined: the old list, then the new one's
     * others); one call per replica added. A MID step's delta, and a FINISH step's merge
     * of ranges, pass through Delta.merge: one more map, two calls per replica. */
    uint32_t *seq = tr_malloc((h->nnodes ? h->nnodes : 1) * sizeof *seq);
    uint32_t *keys = tr_malloc((h->nnodes ? h->nnodes : 1) * sizeof *keys);
    uint32_t *nadd = tr_calloc(h->nnodes ? h->nnodes : 1, sizeof *nadd);
    jmap map = { 0 };
    if (!seq || !keys || !nadd || !jmap_init(&map, h)) {
        tr_free(seq);
        tr_free(keys);
        tr_free(nadd);
        jmap_free(&map);
        return nomem(err);
    }
    for (size_t i = 0; i < neu->n; i++) {
        const hrange *n = &neu->r[i];
        const hrange *o = hmap_lookup(old, n->left, n->right);
        for (uint32_t k = 0; o && k < o->n; k++)
            jmap_call(&map, o->eps[k]);
        for (uint32_t k = 0; k < n->n; k++)
            if (!o || !hrange_has(o, n->eps[k])) {
                jmap_call(&map, n->eps[k]);
                nadd[n->eps[k]]++;
            }
    }
    for (int level = 0; level < (merged ? 2 : 1); level++) {
        size_t nall = jmap_keys(&map, keys);
        jmap_free(&map);
        if (!jmap_init(&map, h)) {
            tr_free(seq);
            tr_free(keys);
            tr_free(nadd);
            jmap_free(&map);
            return nomem(err);
        }
        for (size_t q = 0; q < nall; q++)
            for (uint32_t c = 0; c < nadd[keys[q]] * (level ? 2u : 1u); c++)
                jmap_call(&map, keys[q]);
    }
    size_t nkeys = jmap_keys(&map, keys);
    jmap_free(&map);
    tr_free(nadd);
    /* an endpoint's rank in that order; each range appends its additions by rank */
    for (size_t q = 0; q < nkeys; q++)
        seq[keys[q]] = (uint32_t)q;
    uint32_t longest = 0;
    for (size_t i = 0; i < neu->n; i++)
        longest = neu->r[i].n > longest ? neu->r[i].n : longest;
    uint32_t *add = tr_malloc((longest ? longest : 1) * sizeof *add);
    int rc = add ? TOKENRING_OK : nomem(err);
    for (size_t i = 0; i < neu->n && rc == TOKENRING_OK; i++) {
        const hrange *n = &neu->r[i];
        const hrange *o = hmap_lookup(old, n->left, n->right);
        uint32_t na = 0;
        for (uint32_t k = 0; k < n->n; k++) {
            uint32_t e = n->eps[k];
            if (o && hrange_has(o, e))
                continue;
            uint32_t j = na++; /* insertion by rank */
            while (j > 0 && seq[add[j - 1]] > seq[e]) {
                add[j] = add[j - 1];
                j--;
            }
            add[j] = e;
        }
        if (na == 0)
            continue;
        hrange *pr = hmap_get(P, n->left, n->right);
        for (uint32_t j = 0; pr && j < na; j++)
            if (!hrange_push(pr, add[j]))
                pr = NULL;
        if (!pr)
            rc = nomem(err);
    }
    tr_free(add);
    tr_free(seq);
    tr_free(keys);
    return rc;
}

/* Every range's owner first, for the token map toks (each placed replication). */
static void sort_owners(tokenring_history *h, const htok *toks, size_t n)
{
    if (n == 0 || h->collect)
        return;
    for (size_t r = 0; r < h->nrepls; r++) {
        hmap *P = &h->repls[r].reads;
        for (size_t i = 0; i < P->n; i++) {
            hrange *pr = &P->r[i];
            htok key = { pr->right == HMIN ? toks[0].t : pr->right, 0 };
            const htok *o = bsearch(&key, toks, n, sizeof *toks, cmp_htok);
            if (!o)
                continue;
            for (uint32_t j = 1; j < pr->n; j++)
                if (pr->eps[j] == o->node) {
                    memmove(pr->eps + 1, pr->eps, j * sizeof *pr->eps);
                    pr->eps[0] = o->node;
                    break;
                }
        }
    }
}

/* ------------------------------------------------------------------ steps */

static int64_t *token_list(const htok *toks, size_t n)
{
    int64_t *c = tr_malloc((n ? n : 1) * sizeof *c);
    if (c)
        for (size_t i = 0; i < n; i++)
            c[i] = toks[i].t;
    return c;
}

/* One phase for every placed replication: P += delta(canonical(fa at cut ca) ->
 * canonical(fb at cut cb)). */
static int lock_add(struct hlocks *L, size_t repl, const hrange *r, tokenring_error *err)
{
    for (size_t i = 0; i < L->n; i++)
        if (L->l[i].repl == repl && L->l[i].left == r->left && L->l[i].right == r->right)
            return TOKENRING_OK;
    if (L->n == L->cap) {
        size_t cap = L->cap ? 2 * L->cap : 16;
        hlock *l = tr_realloc(L->l, cap * sizeof *l);
        if (!l)
            return nomem(err);
        L->l = l;
        L->cap = cap;
    }
    L->l[L->n++] = (hlock){ repl, r->left, r->right };
    return TOKENRING_OK;
}

/* Ranges of the replicas (endpoint and range) in one map and not in the other. */
static int collect_locks(struct hlocks *L, size_t repl, const hmap *a, const hmap *b,
                         tokenring_error *err)
{
    int rc = TOKENRING_OK;
    for (int side = 0; side < 2 && rc == TOKENRING_OK; side++) {
        const hmap *x = side ? b : a, *y = side ? a : b;
        for (size_t i = 0; i < x->n && rc == TOKENRING_OK; i++) {
            const hrange *o = hmap_lookup(y, x->r[i].left, x->r[i].right);
            bool differs = false;
            for (uint32_t k = 0; k < x->r[i].n && !differs; k++)
                differs = !o || !hrange_has(o, x->r[i].eps[k]);
            if (differs)
                rc = lock_add(L, repl, &x->r[i], err);
        }
    }
    return rc;
}

static int phase(tokenring_history *h, const htok *fa, size_t na, const htok *ca, size_t nca,
                 const htok *fb, size_t nb, const htok *cb, size_t ncb, bool merged,
                 tokenring_error *err)
{
    int64_t *cuta = token_list(ca, nca), *cutb = token_list(cb, ncb);
    int rc = cuta && cutb ? TOKENRING_OK : nomem(err);
    for (size_t r = 0; rc == TOKENRING_OK && r < h->nrepls; r++) {
        hrepl *hr = &h->repls[r];
        if (!hr->placed)
            continue;
        hmap a, b;
        rc = canonical(&a, h, fa, na, hr->repl, cuta, nca, err);
        if (rc != TOKENRING_OK)
            break;
        rc = canonical(&b, h, fb, nb, hr->repl, cutb, ncb, err);
        if (rc == TOKENRING_OK)
            rc = h->collect ? collect_locks(h->collect, r, &a, &b, err)
                            : apply_delta(h, &hr->reads, &a, &b, merged, err);
        hmap_free(&a);
        hmap_free(&b);
    }
    tr_free(cuta);
    tr_free(cutb);
    return rc;
}

/* A token map: copy of cur, without node `drop`, with `add` (n tokens) owned by `node`. */
static htok *tokmap(const htok *cur, size_t ncur, uint32_t drop, const int64_t *add, size_t n,
                    uint32_t node, size_t *count)
{
    htok *out = tr_malloc((ncur + n + 1) * sizeof *out);
    if (!out)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < ncur; i++)
        if (cur[i].node != drop)
            out[k++] = cur[i];
    for (size_t i = 0; i < n; i++)
        out[k++] = (htok){ add[i], node };
    qsort(out, k, sizeof *out, cmp_htok);
    *count = k;
    return out;
}

static void set_map(tokenring_history *h, htok *next, size_t n)
{
    if (h->collect) { /* planned, not applied */
        tr_free(next);
        return;
    }
    tr_free(h->toks);
    h->toks = next;
    h->ntoks = n;
}

/* Places every replication not yet placed: canonical, owners first (a new keyspace). */
static int place_new(tokenring_history *h, tokenring_error *err)
{
    int64_t *cut = token_list(h->toks, h->ntoks);
    int rc = cut ? TOKENRING_OK : nomem(err);
    for (size_t r = 0; rc == TOKENRING_OK && r < h->nrepls; r++) {
        if (h->repls[r].placed)
            continue;
        rc = canonical(&h->repls[r].reads, h, h->toks, h->ntoks, h->repls[r].repl, cut,
                       h->ntoks, err);
        h->repls[r].placed = rc == TOKENRING_OK;
    }
    tr_free(cut);
    if (rc == TOKENRING_OK)
        sort_owners(h, h->toks, h->ntoks);
    return rc;
}

static int step_join(tokenring_history *h, uint32_t node, const int64_t *t, size_t n,
                     tokenring_error *err)
{
    size_t na;
    htok *after = tokmap(h->toks, h->ntoks, UINT32_MAX, t, n, node, &na);
    if (!after)
        return nomem(err);
    if (h->ntoks == 0) { /* the first node: every placement at once */
        set_map(h, after, na);
        return place_new(h, err);
    }
    const htok *cur = h->toks;
    size_t nc = h->ntoks;
    /* PREPARE_JOIN: the ranges split at the new tokens */
    int rc = phase(h, cur, nc, cur, nc, cur, nc, after, na, false, err);
    if (rc == TOKENRING_OK) {
        sort_owners(h, cur, nc);
        /* MID_JOIN: reads move to the new ring's replicas */
        rc = phase(h, cur, nc, after, na, after, na, after, na, true, err);
    }
    if (rc == TOKENRING_OK) {
        sort_owners(h, cur, nc);
        set_map(h, after, na); /* FINISH_JOIN */
        sort_owners(h, h->toks, h->ntoks);
        return TOKENRING_OK;
    }
    tr_free(after);
    return rc;
}

static int step_leave(tokenring_history *h, uint32_t node, tokenring_error *err)
{
    size_t na;
    htok *after = tokmap(h->toks, h->ntoks, node, NULL, 0, node, &na);
    if (!after)
        return nomem(err);
    const htok *cur = h->toks;
    size_t nc = h->ntoks;
    /* MID_LEAVE: reads move to the replicas without the leaving node (at the current
     * ranges); FINISH_LEAVE: the ranges at its tokens merge */
    int rc = phase(h, cur, nc, cur, nc, after, na, cur, nc, true, err);
    if (rc == TOKENRING_OK) {
        sort_owners(h, cur, nc);
        rc = phase(h, after, na, cur, nc, after, na, after, na, true, err);
    }
    if (rc == TOKENRING_OK) {
        set_map(h, after, na);
        sort_owners(h, h->toks, h->ntoks);
        return TOKENRING_OK;
    }
    tr_free(after);
    return rc;
}

static int step_move(tokenring_history *h, uint32_t node, int64_t token, tokenring_error *err)
{
    size_t nw, na;
    htok *with = tokmap(h->toks, h->ntoks, UINT32_MAX, &token, 1, node, &nw);
    htok *after = tokmap(h->toks, h->ntoks, node, &token, 1, node, &na);
    if (!with || !after) {
        tr_free(with);
        tr_free(after);
        return nomem(err);
    }
    const htok *cur = h->toks;
    size_t nc = h->ntoks;
    /* PREPARE_MOVE: split at the new token; MID_MOVE: reads move; FINISH_MOVE: merge at
     * the old token */
    int rc = phase(h, cur, nc, cur, nc, cur, nc, with, nw, false, err);
    if (rc == TOKENRING_OK) {
        sort_owners(h, cur, nc);
        rc = phase(h, cur, nc, with, nw, after, na, with, nw, true, err);
    }
    if (rc == TOKENRING_OK) {
        sort_owners(h, cur, nc);
        rc = phase(h, after, na, with, nw, after, na, after, na, true, err);
    }
    tr_free(with);
    if (rc == TOKENRING_OK) {
        set_map(h, after, na);
        sort_owners(h, h->toks, h->ntoks);
        return TOKENRING_OK;
    }
    tr_free(after);
    return rc;
}

static int step_replace(tokenring_history *h, uint32_t old, uint32_t neu, tokenring_error *err)
{
    htok *after = tr_malloc((h->ntoks ? h->ntoks : 1) * sizeof *after);
    if (!after)
        return nomem(err);
    for (size_t i = 0; i < h->ntoks; i++)
        after[i] = (htok){ h->toks[i].t, h->toks[i].node == old ? neu : h->toks[i].node };
    const htok *cur = h->toks;
    size_t nc = h->ntoks;
    /* MID_REPLACE: reads move to the replacement; FINISH_REPLACE: it takes the tokens */
    int rc = phase(h, cur, nc, cur, nc, after, nc, after, nc, true, err);
    if (rc == TOKENRING_OK) {
        sort_owners(h, cur, nc);
        set_map(h, after, nc);
        sort_owners(h, h->toks, h->ntoks);
        return TOKENRING_OK;
    }
    tr_free(after);
    return rc;
}

/* ------------------------------------------------------------------ parsing */

typedef struct {
    const char *p;
    size_t n;
} field;

/* Splits a line into at most max blank-separated fields; returns their count. */
static size_t fields(const char *s, size_t len, field *f, size_t max)
{
    size_t k = 0, i = 0;
    while (i < len) {
        while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
            i++;
        if (i >= len)
            break;
        size_t st = i;
        while (i < len && s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            i++;
        if (k < max)
            f[k] = (field){ s + st, i - st };
        k++;
    }
    return k;
}

static bool is(const field *f, const char *word)
{
    return f->n == strlen(word) && memcmp(f->p, word, f->n) == 0;
}

static char *dup_field(const field *f)
{
    char *s = tr_malloc(f->n + 1);
    if (s) {
        memcpy(s, f->p, f->n);
        s[f->n] = 0;
    }
    return s;
}

/* Java's hash of an IPv4 address (dotted quad, optional :PORT, default 7000). */
static bool address_hash(const field *f, int32_t *out)
{
    uint32_t ip = 0, port = 7000;
    size_t i = 0;
    for (int part = 0; part < 4; part++) {
        if (part && (i >= f->n || f->p[i++] != '.'))
            return false;
        uint32_t v = 0;
        size_t st = i;
        while (i < f->n && f->p[i] >= '0' && f->p[i] <= '9' && i - st < 3)
            v = v * 10 + (uint32_t)(f->p[i++] - '0');
        if (i == st || v > 255)
            return false;
        ip = ip << 8 | v;
    }
    if (i < f->n) {
        if (f->p[i++] != ':' || i == f->n)
            return false;
        port = 0;
        for (; i < f->n; i++) {
            if (f->p[i] < '0' || f->p[i] > '9' || port > 65535)
                return false;
            port = port * 10 + (uint32_t)(f->p[i] - '0');
        }
        if (port > 65535)
            return false;
    }
    *out = (int32_t)(ip + port);
    return true;
}

static int find_node(const tokenring_history *h, const field *f, uint32_t *out)
{
    for (size_t v = 0; v < h->nnodes; v++)
        if (strlen(h->nodes[v].name) == f->n && memcmp(h->nodes[v].name, f->p, f->n) == 0) {
            *out = (uint32_t)v;
            return 1;
        }
    return 0;
}

static bool in_ring(const tokenring_history *h, uint32_t v)
{
    for (size_t i = 0; i < h->ntoks; i++)
        if (h->toks[i].node == v)
            return true;
    return false;
}

/* Tokens "T[,T...]" of field f into *out (allocated); column of a bad one in *bad. */
static int parse_tokens(const field *f, int64_t **out, size_t *n, size_t *bad)
{
    size_t cap = 1;
    for (size_t i = 0; i < f->n; i++)
        cap += f->p[i] == ',';
    int64_t *t = tr_malloc(cap * sizeof *t);
    if (!t)
        return TOKENRING_E_NOMEM;
    size_t k = 0, i = 0;
    while (i <= f->n) {
        size_t st = i;
        while (i < f->n && f->p[i] != ',')
            i++;
        char buf[32];
        size_t len = i - st;
        bool ok = len > 0 && len < sizeof buf;
        if (ok) {
            memcpy(buf, f->p + st, len);
            buf[len] = 0;
            ok = tokenring_token_parse(&t[k], buf, len, NULL) == TOKENRING_OK && t[k] != HMIN;
        }
        if (!ok) {
            tr_free(t);
            *bad = st;
            return TOKENRING_E_PARSE;
        }
        k++;
        i++;
    }
    *out = t;
    *n = k;
    return TOKENRING_OK;
}

static void history_destroy(tokenring_history *h)
{
    if (!h)
        return;
    for (size_t v = 0; v < h->nnodes; v++) {
        tr_free(h->nodes[v].name);
        tr_free(h->nodes[v].dc);
        tr_free(h->nodes[v].rack);
    }
    tr_free(h->nodes);
    for (size_t r = 0; r < h->nrepls; r++) {
        tokenring_replication_free(h->repls[r].repl);
        tr_free(h->repls[r].key);
        hmap_free(&h->repls[r].reads);
    }
    tr_free(h->repls);
    for (size_t k = 0; k < h->nks; k++)
        tr_free(h->ks[k].name);
    tr_free(h->ks);
    tr_free(h->toks);
    tokenring_ring_free(h->ring);
    tr_free(h);
}

static char *repl_key(const tokenring_replication *r)
{
    size_t len = 0;
    tokenring_replication_format(NULL, 0, &len, r);
    char *s = tr_malloc(len + 1);
    if (s && tokenring_replication_format(s, len + 1, &len, r) != TOKENRING_OK) {
        tr_free(s);
        s = NULL;
    }
    return s;
}

/* Adds a replication (taking r) unless an equal one is there (then frees r); *at
 * receives its index. */
static int add_repl(tokenring_history *h, tokenring_replication *r, size_t *at)
{
    char *key = repl_key(r);
    if (!key) {
        tokenring_replication_free(r);
        return TOKENRING_E_NOMEM;
    }
    for (size_t i = 0; i < h->nrepls; i++)
        if (strcmp(h->repls[i].key, key) == 0) {
            tr_free(key);
            tokenring_replication_free(r);
            *at = i;
            return TOKENRING_OK;
        }
    if (h->nrepls == h->capr) {
        size_t cap = h->capr ? h->capr * 2 : 8;
        hrepl *n = tr_reallocarray(h->repls, cap, sizeof *n);
        if (!n) {
            tr_free(key);
            tokenring_replication_free(r);
            return TOKENRING_E_NOMEM;
        }
        h->repls = n;
        h->capr = cap;
    }
    *at = h->nrepls;
    h->repls[h->nrepls++] = (hrepl){ r, key, { 0 }, false };
    return TOKENRING_OK;
}

/* Drops replication i when no keyspace has it any more (AlterSchema computes placements
 * for the keyspaces' replications only: a later keyspace with it starts afresh). */
static void drop_unused(tokenring_history *h, size_t i)
{
    for (size_t k = 0; k < h->nks; k++)
        if (h->ks[k].repl == i)
            return;
    tokenring_replication_free(h->repls[i].repl);
    tr_free(h->repls[i].key);
    hmap_free(&h->repls[i].reads);
    memmove(&h->repls[i], &h->repls[i + 1], (h->nrepls - i - 1) * sizeof *h->repls);
    h->nrepls--;
    for (size_t k = 0; k < h->nks; k++)
        h->ks[k].repl -= h->ks[k].repl != SIZE_MAX && h->ks[k].repl > i;
}

static size_t find_ks(const tokenring_history *h, const char *name, size_t n)
{
    for (size_t k = 0; k < h->nks; k++)
        if (strlen(h->ks[k].name) == n && memcmp(h->ks[k].name, name, n) == 0)
            return k;
    return SIZE_MAX;
}

/* CREATE KEYSPACE name (or ALTER, when it exists) with r (taken): its replication's
 * placement is shared, or placed afresh when new; the one it leaves is dropped when no
 * keyspace has it any more. */
static int set_keyspace(tokenring_history *h, const char *name, size_t n,
                        tokenring_replication *r, tokenring_error *err)
{
    size_t k = find_ks(h, name, n);
    if (k == SIZE_MAX) {
        if (h->nks == h->capk) {
            size_t cap = h->capk ? h->capk * 2 : 8;
            hks *m = tr_reallocarray(h->ks, cap, sizeof *m);
            if (!m) {
                tokenring_replication_free(r);
                return nomem(err);
            }
            h->ks = m;
            h->capk = cap;
        }
        char *copy = tr_malloc(n + 1);
        if (!copy) {
            tokenring_replication_free(r);
            return nomem(err);
        }
        memcpy(copy, name, n);
        copy[n] = '\0';
        h->ks[h->nks] = (hks){ copy, SIZE_MAX };
        k = h->nks++;
    }
    size_t at, old = h->ks[k].repl;
    if (add_repl(h, r, &at) != TOKENRING_OK)
        return nomem(err);
    h->ks[k].repl = at;
    if (old != SIZE_MAX && old != at)
        drop_unused(h, old);
    return h->ntoks ? place_new(h, err) : TOKENRING_OK;
}

/* DROP KEYSPACE name. */
static int drop_keyspace(tokenring_history *h, const char *name, size_t n)
{
    size_t k = find_ks(h, name, n);
    if (k == SIZE_MAX)
        return TOKENRING_E_NOTFOUND;
    size_t old = h->ks[k].repl;
    tr_free(h->ks[k].name);
    h->ks[k] = h->ks[--h->nks];
    drop_unused(h, old);
    return TOKENRING_OK;
}

static int register_node(tokenring_history *h, const field *f, uint32_t line,
                         tokenring_error *err)
{
    uint32_t dummy;
    int32_t jh;
    if (find_node(h, &f[1], &dummy))
        return tr_fail_at(err, TOKENRING_E_EXISTS, line, (uint32_t)(f[1].p - f[0].p) + 1,
                          "node %.*s is registered already", (int)f[1].n, f[1].p);
    if (!address_hash(&f[1], &jh))
        return tr_fail_at(err, TOKENRING_E_PARSE, line, (uint32_t)(f[1].p - f[0].p) + 1,
                          "'%.*s' is not an IPv4 address (optionally with :PORT): 6.0 orders "
                          "replicas added at once by Java's hash of the node's address",
                          (int)f[1].n, f[1].p);
    if (h->nnodes == h->capn) {
        size_t cap = h->capn ? h->capn * 2 : 16;
        hnode *n = tr_reallocarray(h->nodes, cap, sizeof *n);
        if (!n)
            return nomem(err);
        h->nodes = n;
        h->capn = cap;
    }
    hnode nd = { dup_field(&f[1]), dup_field(&f[2]), dup_field(&f[3]), jh };
    if (!nd.name || !nd.dc || !nd.rack) {
        tr_free(nd.name);
        tr_free(nd.dc);
        tr_free(nd.rack);
        return nomem(err);
    }
    h->nodes[h->nnodes++] = nd;
    return TOKENRING_OK;
}

/* One step (a line of fields f[0..nf)); line for messages. */
static int run_step(tokenring_history *h, field *f, size_t nf, uint32_t line,
                    tokenring_error *err)
{
#define COL(k) ((uint32_t)(f[k].p - f[0].p) + 1)
    static const struct {
        const char *verb;
        size_t nf;
        const char *usage;
    } steps[] = {
        { "register", 4, "register ADDRESS DC RACK" },
        { "keyspace", 3, "keyspace NAME REPLICATION" },
        { "unsafe_join", 3, "unsafe_join ADDRESS TOKEN[,TOKEN...]" },
        { "join", 3, "join ADDRESS TOKEN[,TOKEN...]" },
        { "leave", 2, "leave ADDRESS" },
        { "move", 3, "move ADDRESS TOKEN" },
        { "replace", 3, "replace OLD_ADDRESS NEW_ADDRESS" },
        { "drop_keyspace", 2, "drop_keyspace NAME" },
    };
    size_t s = 0;
    while (s < sizeof steps / sizeof steps[0] && !is(&f[0], steps[s].verb))
        s++;
    if (s == sizeof steps / sizeof steps[0])
        return tr_fail_at(err, TOKENRING_E_PARSE, line, 1,
                          "unknown step '%.*s' (register, keyspace, drop_keyspace, unsafe_join, "
                          "join, leave, move, replace)", (int)f[0].n, f[0].p);
    if (nf != steps[s].nf)
        return tr_fail_at(err, TOKENRING_E_PARSE, line, 1, "%zu fields; want: %s", nf,
                          steps[s].usage);
    if (s == 0)
        return register_node(h, f, line, err);
    if (s == 1) {
        tokenring_replication *r = NULL;
        tokenring_error e2;
        int rc = tokenring_replication_parse(&r, f[2].p, f[2].n, &e2);
        if (rc != TOKENRING_OK)
            return tr_fail_at(err, rc, line, COL(2), "keyspace %.*s: %s", (int)f[1].n,
                              f[1].p, e2.message);
        return set_keyspace(h, f[1].p, f[1].n, r, err);
    }
    if (s == 7) {
        if (drop_keyspace(h, f[1].p, f[1].n) != TOKENRING_OK)
            return tr_fail_at(err, TOKENRING_E_NOTFOUND, line, COL(1),
                              "keyspace %.*s does not exist (no keyspace step created it)",
                              (int)f[1].n, f[1].p);
        return TOKENRING_OK;
    }
    uint32_t v, w = 0;
    if (!find_node(h, &f[1], &v))
        return tr_fail_at(err, TOKENRING_E_NOTFOUND, line, COL(1),
                          "node %.*s is not registered (register ADDRESS DC RACK first)",
                          (int)f[1].n, f[1].p);
    bool joining = s == 2 || s == 3;
    if (joining == in_ring(h, v))
        return tr_fail_at(err, joining ? TOKENRING_E_EXISTS : TOKENRING_E_NOTFOUND, line,
                          COL(1), "node %.*s is %s the ring", (int)f[1].n, f[1].p,
                          joining ? "already in" : "not in");
    if (s == 6) {
        if (!find_node(h, &f[2], &w))
            return tr_fail_at(err, TOKENRING_E_NOTFOUND, line, COL(2),
                              "node %.*s is not registered (register ADDRESS DC RACK first)",
                              (int)f[2].n, f[2].p);
        if (in_ring(h, w))
            return tr_fail_at(err, TOKENRING_E_EXISTS, line, COL(2),
                              "node %.*s is already in the ring", (int)f[2].n, f[2].p);
        return step_replace(h, v, w, err);
    }
    if (s == 4) {
        bool other = false;
        for (size_t i = 0; i < h->ntoks; i++)
            other |= h->toks[i].node != v;
        if (!other)
            return tr_fail_at(err, TOKENRING_E_IMPOSSIBLE, line, COL(1),
                              "node %.*s is the last node of the ring", (int)f[1].n, f[1].p);
        return step_leave(h, v, err);
    }
    int64_t *t = NULL;
    size_t nt = 0, bad = 0;
    int rc = parse_tokens(&f[2], &t, &nt, &bad);
    if (rc == TOKENRING_E_NOMEM)
        return nomem(err);
    if (rc != TOKENRING_OK)
        return tr_fail_at(err, rc, line, COL(2) + (uint32_t)bad,
                          "bad token (a Murmur3 token above the minimum %lld)",
                          (long long)HMIN);
    if (s == 5 && nt != 1)
        rc = tr_fail_at(err, TOKENRING_E_PARSE, line, COL(2), "move takes one token, not %zu",
                        nt);
    for (size_t i = 0; rc == TOKENRING_OK && i < nt; i++) {
        htok key = { t[i], 0 };
        bool dup = false;
        for (size_t j = 0; j < i; j++)
            dup |= t[j] == t[i];
        if (dup || (h->ntoks && bsearch(&key, h->toks, h->ntoks, sizeof *h->toks, cmp_htok)))
            rc = tr_fail_at(err, TOKENRING_E_EXISTS, line, COL(2),
                            "token %lld is already in the ring", (long long)t[i]);
    }
    if (rc == TOKENRING_OK)
        rc = s == 5 ? step_move(h, v, t[0], err) : step_join(h, v, t, nt, err);
    tr_free(t);
    return rc;
#undef COL
}

TOKENRING_API int tokenring_history_replay(tokenring_history **out, const char *text,
                                           size_t len, tokenring_error *err)
{
    if (out == NULL || (text == NULL && len > 0))
        return tr_fail(err, TOKENRING_E_INVAL, "%s is NULL", !out ? "out" : "text");
    tokenring_history *h = tr_calloc(1, sizeof *h);
    if (!h)
        return nomem(err);
    /* 6.0's distributed system keyspaces, with their replication at creation */
    static const char *const sys[] = { "system_auth", "system_traces", "system_distributed" };
    static const char *const sysr[] = { "1", "2", "3" };
    int rc = TOKENRING_OK;
    for (size_t i = 0; rc == TOKENRING_OK && i < 3; i++) {
        tokenring_replication *r = NULL;
        rc = tokenring_replication_parse(&r, sysr[i], 1, NULL);
        if (rc == TOKENRING_OK)
            rc = set_keyspace(h, sys[i], strlen(sys[i]), r, err);
    }
    if (rc != TOKENRING_OK)
        rc = nomem(err);
    uint32_t line = 0;
    for (size_t i = 0; rc == TOKENRING_OK && i < len;) {
        size_t e = i;
        while (e < len && text[e] != '\n')
            e++;
        line++;
        field f[5];
        size_t nf = fields(text + i, e - i, f, 5);
        if (nf > 0 && f[0].p[0] != '#')
            rc = run_step(h, f, nf, line, err);
        i = e + 1;
    }
    if (rc == TOKENRING_OK && h->ntoks)
        rc = ring_of(&h->ring, h, h->toks, h->ntoks, err);
    if (rc != TOKENRING_OK) {
        history_destroy(h);
        return rc;
    }
    *out = h;
    return TOKENRING_OK;
}

TOKENRING_API void tokenring_history_free(tokenring_history *history)
{
    history_destroy(history);
}

TOKENRING_API const tokenring_ring *tokenring_history_ring(const tokenring_history *history)
{
    return history ? history->ring : NULL;
}

TOKENRING_API int tokenring_history_placement(tokenring_placement **out,
                                              const tokenring_history *history,
                                              const tokenring_replication *replication,
                                              tokenring_error *err)
{
    if (out == NULL || history == NULL || replication == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "%s is NULL",
                       !out ? "out" : !history ? "history" : "replication");
    const tokenring_history *h = history;
    if (!h->ring)
        return tr_fail(err, TOKENRING_E_EMPTY, "the history leaves no node in the ring");
    char *key = repl_key(replication);
    if (!key)
        return nomem(err);
    const hmap *P = NULL;
    for (size_t r = 0; r < h->nrepls && !P; r++)
        if (strcmp(h->repls[r].key, key) == 0)
            P = &h->repls[r].reads;
    tr_free(key);
    hmap fresh = { 0 };
    int rc = TOKENRING_OK;
    if (!P) { /* as a CREATE KEYSPACE would place it now: canonical, owners first */
        int64_t *cut = token_list(h->toks, h->ntoks);
        rc = cut ? canonical(&fresh, h, h->toks, h->ntoks, replication, cut, h->ntoks, err)
                 : nomem(err);
        tr_free(cut);
        if (rc != TOKENRING_OK)
            return rc;
        tokenring_history tmp = *h;
        hrepl one = { NULL, NULL, fresh, true };
        tmp.repls = &one;
        tmp.nrepls = 1;
        sort_owners(&tmp, h->toks, h->ntoks);
        fresh = one.reads;
        P = &fresh;
    }
    /* ring range i, (t_{i-1}, t_i], is 6.0's range ending at t_i ((min, t_0] for 0) */
    size_t n = h->ntoks, total = 0;
    for (size_t k = 0; k < P->n; k++)
        total += P->r[k].n; /* every list once: the ring's ranges and (t_{n-1}, min] */
    uint32_t *off = tr_calloc(n + 1, sizeof *off);
    uint32_t *nodes = tr_malloc((total ? total : 1) * sizeof *nodes);
    uint32_t *to_ring = tr_malloc((h->nnodes ? h->nnodes : 1) * sizeof *to_ring);
    if (!off || !nodes || !to_ring)
        rc = nomem(err);
    if (rc == TOKENRING_OK) {
        for (size_t v = 0; v < h->nnodes; v++) {
            uint32_t idx = UINT32_MAX;
            tokenring_ring_find_node(&idx, h->ring, h->nodes[v].name);
            to_ring[v] = idx;
        }
        size_t at = 0;
        for (size_t i = 0; i < n; i++) {
            int64_t left = i == 0 ? HMIN : h->toks[i - 1].t;
            const hrange *pr = hmap_lookup(P, left, h->toks[i].t);
            off[i] = (uint32_t)at;
            for (uint32_t k = 0; pr && k < pr->n; k++)
                nodes[at++] = to_ring[pr->eps[k]];
        }
        off[n] = (uint32_t)at;
        /* (t_{n-1}, min]: 6.0 keeps it apart from (min, t_0], possibly in another order */
        const hrange *up = hmap_lookup(P, h->toks[n - 1].t, HMIN);
        uint32_t *upper = nodes + at;
        uint32_t nup = 0;
        for (uint32_t k = 0; up && k < up->n; k++)
            upper[nup++] = to_ring[up->eps[k]];
        rc = tokenring_placement_from_lists(out, h->ring, replication, off, nodes, upper, nup,
                                            TOKENRING_ORDER_HISTORY, err);
    }
    tr_free(off);
    tr_free(nodes);
    tr_free(to_ring);
    hmap_free(&fresh);
    return rc;
}

/* ------------------------------------------------------------------ locks */

/* The locks of one planned operation (a step line), on the history as it is. */
static int plan_locks(const tokenring_history *history, const char *line, size_t len,
                      uint32_t lineno, struct hlocks *L, tokenring_error *err)
{
    field f[5];
    size_t nf = fields(line, len, f, 5);
    if (nf == 0 || f[0].p[0] == '#')
        return tr_fail_at(err, TOKENRING_E_PARSE, lineno, 1,
                          "expected an operation: join, leave, move or replace");
    if (!is(&f[0], "join") && !is(&f[0], "leave") && !is(&f[0], "move") &&
        !is(&f[0], "replace"))
        return tr_fail_at(err, TOKENRING_E_PARSE, lineno, 1,
                          "'%.*s' is not an operation that locks ranges (join, leave, move, "
                          "replace; register nodes and create keyspaces in the history)",
                          (int)f[0].n, f[0].p);
    if (!history->ring)
        return tr_fail(err, TOKENRING_E_EMPTY, "the history leaves no node in the ring");
    tokenring_history tmp = *history; /* read only: collect mode applies nothing */
    tmp.collect = L;
    return run_step(&tmp, f, nf, lineno, err);
}

/* Range.intersects for ranges cut at the minimum token (right == HMIN: to the end), and
 * LockedRanges' rule: two ranges both at the minimum token always meet. */
static bool locks_meet(const hlock *a, const hlock *b)
{
    if (a->repl != b->repl)
        return false;
    if ((a->left == HMIN || a->right == HMIN) && (b->left == HMIN || b->right == HMIN))
        return true;
    int64_t lo = a->left > b->left ? a->left : b->left;
    /* not both at the minimum: at most one runs to the end of the ring */
    bool a_end = a->right == HMIN, b_end = b->right == HMIN;
    int64_t hi = a_end ? b->right : b_end ? a->right : (a->right < b->right ? a->right : b->right);
    return lo < hi;
}

TOKENRING_API int tokenring_history_locked_ranges(int64_t *ranges_out, size_t cap,
                                                  size_t *count_out,
                                                  const tokenring_history *history,
                                                  const tokenring_replication *replication,
                                                  const char *operation, size_t len,
                                                  tokenring_error *err)
{
    if (count_out == NULL || history == NULL || replication == NULL ||
        (operation == NULL && len > 0) || (ranges_out == NULL && cap > 0))
        return tr_fail(err, TOKENRING_E_INVAL, "%s is NULL",
                       !count_out ? "count_out" : !history ? "history" : !replication
                                                                 ? "replication"
                                                                 : !ranges_out ? "ranges_out"
                                                                               : "operation");
    char *key = repl_key(replication);
    if (!key)
        return nomem(err);
    size_t repl = SIZE_MAX;
    for (size_t r = 0; r < history->nrepls && repl == SIZE_MAX; r++)
        if (strcmp(history->repls[r].key, key) == 0)
            repl = r;
    tr_free(key);
    if (repl == SIZE_MAX)
        return tr_fail(err, TOKENRING_E_NOTFOUND, "no keyspace of the history has this "
                                                  "replication (6.0 locks ranges per "
                                                  "replication of its keyspaces)");
    struct hlocks L = { 0 };
    int rc = plan_locks(history, operation, len, 1, &L, err);
    size_t n = 0;
    for (size_t i = 0; rc == TOKENRING_OK && i < L.n; i++)
        if (L.l[i].repl == repl) {
            if (n < cap) {
                ranges_out[2 * n] = L.l[i].left;
                ranges_out[2 * n + 1] = L.l[i].right;
            }
            n++;
        }
    tr_free(L.l);
    if (rc != TOKENRING_OK)
        return rc;
    *count_out = n;
    if (n > cap)
        return tr_fail(err, TOKENRING_E_BUFSIZE, "%zu ranges, room for %zu", n, cap);
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_history_concurrent(uint32_t *conflicts_out, size_t cap,
                                               size_t *count_out,
                                               const tokenring_history *history,
                                               const char *operations, size_t len,
                                               tokenring_error *err)
{
    if (count_out == NULL || history == NULL || (operations == NULL && len > 0) ||
        (conflicts_out == NULL && cap > 0))
        return tr_fail(err, TOKENRING_E_INVAL, "%s is NULL",
                       !count_out ? "count_out" : !history ? "history" : !operations
                                                                 ? "operations"
                                                                 : "conflicts_out");
    struct hlocks *ops = NULL;
    size_t nops = 0, capops = 0;
    int rc = TOKENRING_OK;
    uint32_t line = 0;
    for (size_t i = 0; rc == TOKENRING_OK && i < len;) {
        size_t e = i;
        while (e < len && operations[e] != '\n')
            e++;
        line++;
        field f[1];
        if (fields(operations + i, e - i, f, 1) && f[0].p[0] != '#') {
            if (nops == capops) {
                size_t c = capops ? 2 * capops : 8;
                struct hlocks *o = tr_realloc(ops, c * sizeof *o);
                if (!o) {
                    rc = nomem(err);
                    break;
                }
                memset(o + capops, 0, (c - capops) * sizeof *o);
                ops = o;
                capops = c;
            }
            rc = plan_locks(history, operations + i, e - i, line, &ops[nops++], err);
        }
        i = e + 1;
    }
    if (rc == TOKENRING_OK) {
        *count_out = nops;
        for (size_t i = 0; i < nops && i < cap; i++) {
            conflicts_out[i] = UINT32_MAX;
            /* prepared in order: one refused holds no locks */
            for (size_t j = 0; j < i && conflicts_out[i] == UINT32_MAX; j++)
                for (size_t a = 0; conflicts_out[j] == UINT32_MAX && a < ops[i].n &&
                                   conflicts_out[i] == UINT32_MAX;
                     a++)
                    for (size_t b = 0; b < ops[j].n; b++)
                        if (locks_meet(&ops[i].l[a], &ops[j].l[b])) {
                            conflicts_out[i] = (uint32_t)j;
                            break;
                        }
        }
        if (nops > cap)
            rc = tr_fail(err, TOKENRING_E_BUFSIZE, "%zu operations, room for %zu", nops, cap);
    }
    for (size_t i = 0; i < nops; i++)
        tr_free(ops[i].l);
    tr_free(ops);
    return rc;
}
