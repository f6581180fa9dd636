/* SPDX-License-Identifier: Apache-2.0 */
/* How Cassandra 6.0 applies a placement delta (doc/cassandra-6.md), for the history replay
 * (lib/history/history.c): the kept read placement as sorted ranges with ordered replica lists,
 * and a delta between two canonical placements applied to it as 6.0's
 * PlacementDelta.apply does: every removal (by endpoint: withoutReplica), then every
 * addition appended (withReplica), the additions of one step in the iteration order of
 * the java.util.HashMaps 6.0 passes them through (RangesByEndpoint, Delta.merge),
 * emulated call by call; and two placements compared, the ranges a planned operation
 * locks (history_concurrent.c). The replay's lowest layer: it calls nothing of history.c. */
#include <stdlib.h>
#include <string.h>

#include "history_internal.h"

/* ------------------------------------------------------------------ maps */

int tr_hist_nomem(tokenring_error *err)
{
    return tr_fail(err, TOKENRING_E_NOMEM, "out of memory replaying the history");
}


void tr_hist_hmap_free(hmap *m)
{
    for (size_t i = 0; i < m->n; i++)
        tr_free(m->r[i].eps);
    tr_free(m->r);
    memset(m, 0, sizeof *m);
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

const hrange *tr_hist_hmap_lookup(const hmap *m, int64_t left, int64_t right)
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

bool tr_hist_hrange_has(const hrange *h, uint32_t v)
{
    for (uint32_t k = 0; k < h->n; k++)
        if (h->eps[k] == v)
            return true;
    return false;
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

/* The range (left, right] of m at or after *cur, for queries in increasing left order
 * (a walk instead of a search); NULL when m has no such range. */
hrange *tr_hist_seek(const hmap *m, size_t *cur, int64_t left, int64_t right)
{
    size_t i = *cur;
    while (i < m->n && m->r[i].left < left)
        i++;
    *cur = i;
    return i < m->n && m->r[i].left == left && m->r[i].right == right ? &m->r[i] : NULL;
}

static bool hrange_has_node(const hrange *h, uint32_t node)
{
    for (uint32_t k = 0; k < h->n; k++)
        if (HEP_NODE(h->eps[k]) == node)
            return true;
    return false;
}

/* dst gets, for each key of src in iteration order, mult * nadd[key] calls. */
static void jmap_refill(jmap *dst, const jmap *src, const uint32_t *nadd, uint32_t mult,
                        uint32_t *keys)
{
    size_t nk = jmap_keys(src, keys);
    for (size_t q = 0; q < nk; q++)
        for (uint32_t c = 0; c < nadd[keys[q]] * mult; c++)
            jmap_call(dst, keys[q]);
}

/* Applies the delta old -> new (replica granularity: an endpoint, its range and whether it
 * is full; ranges matched exactly) to P: replicas of old missing from new are removed
 * (by endpoint, as withoutReplica; a range left empty disappears), then those of new
 * missing from old are appended, endpoint after endpoint in Java's HashMap order over
 * every endpoint with an addition. A replica turning transient or full is removed and
 * appended again. */
int tr_hist_apply_delta(const tokenring_history *h, hmap *P, const hmap *old, const hmap *neu,
                       bool merged, tokenring_error *err)
{
    /* removals, old and P walked in step */
    size_t pc = 0, nc = 0;
    bool dead = false;
    for (size_t i = 0; i < old->n; i++) {
        const hrange *o = &old->r[i];
        const hrange *n = tr_hist_seek(neu, &nc, o->left, o->right);
        hrange *pr = tr_hist_seek(P, &pc, o->left, o->right);
        if (!pr)
            continue;
        for (uint32_t k = 0; k < o->n; k++) {
            if (n && tr_hist_hrange_has(n, o->eps[k]))
                continue;
            for (uint32_t j = 0; j < pr->n; j++)
                if (HEP_NODE(pr->eps[j]) == HEP_NODE(o->eps[k])) {
                    memmove(pr->eps + j, pr->eps + j + 1, (pr->n - j - 1) * sizeof *pr->eps);
                    pr->n--;
                    break;
                }
        }
        if (pr->n == 0) { /* gone: marked, the map compacted once below */
            tr_free(pr->eps);
            pr->eps = NULL;
            pr->cap = UINT32_MAX;
            dead = true;
        }
    }
    if (dead) {
        size_t k = 0;
        for (size_t i = 0; i < P->n; i++)
            if (!(P->r[i].n == 0 && P->r[i].cap == UINT32_MAX))
                P->r[k++] = P->r[i];
        P->n = k;
    }
    /* additions, endpoint after endpoint in the iteration order of the delta's map, a
     * HashMap (jmap) filled by iterating another: the target placement's endpoints
     * (ReplicaGroups.byEndpoint: along its ranges, each range's list in order; for a MID
     * step the target is the maximal placement, start and final combined: the old list,
     * then the new one's others); one call per replica added. A MID step's delta, and a
     * FINISH step's merge of ranges, pass through Delta.merge: one more map, two calls per
     * replica. With transient replicas a MID step has a second delta, maximal -> final:
     * the replicas turning transient (the maximal placement keeps them full), found by
     * iterating the final placement's endpoints, merged after the first one's. */
    size_t nn = h->nnodes ? h->nnodes : 1;
    uint32_t *seq = tr_malloc(nn * sizeof *seq);
    uint32_t *keys = tr_malloc(nn * sizeof *keys);
    uint32_t *nadd = tr_calloc(2 * nn, sizeof *nadd), *naddb = nadd ? nadd + nn : NULL;
    jmap m[5] = { { 0 } }; /* A0, A1, B0, B1, final */
    bool ok = seq && keys && nadd;
    for (int k = 0; ok && k < 5; k++)
        ok = jmap_init(&m[k], h);
    bool any_b = false;
    size_t oc = 0;
    for (size_t i = 0; ok && i < neu->n; i++) {
        const hrange *n = &neu->r[i];
        const hrange *o = tr_hist_seek(old, &oc, n->left, n->right);
        for (uint32_t k = 0; o && k < o->n; k++)
            jmap_call(&m[0], HEP_NODE(o->eps[k]));
        for (uint32_t k = 0; k < n->n; k++) {
            uint32_t e = n->eps[k], v = HEP_NODE(e);
            if (o && tr_hist_hrange_has(o, e))
                continue;
            if (!o || !hrange_has_node(o, v)) { /* a new endpoint */
                jmap_call(&m[0], v);
                nadd[v]++;
            } else if (e & HEP_TRANSIENT) { /* full -> transient: maximal -> final */
                naddb[v]++;
                any_b = true;
            } else { /* transient -> full: start -> maximal */
                nadd[v]++;
            }
        }
    }
    if (ok && any_b)
        for (size_t i = 0; i < neu->n; i++)
            for (uint32_t k = 0; k < neu->r[i].n; k++)
                jmap_call(&m[2], HEP_NODE(neu->r[i].eps[k]));
    jmap *fin = merged ? &m[4] : &m[1];
    if (ok) {
        jmap_refill(&m[1], &m[0], nadd, 1, keys);
        if (any_b)
            jmap_refill(&m[3], &m[2], naddb, 1, keys);
        if (merged)
            jmap_refill(fin, &m[1], nadd, 2, keys);
        if (any_b)
            jmap_refill(fin, &m[3], naddb, merged ? 2 : 1, keys);
        /* an endpoint's rank in that order; each range appends its additions by rank */
        size_t nkeys = jmap_keys(fin, keys);
        for (size_t q = 0; q < nkeys; q++)
            seq[keys[q]] = (uint32_t)q;
    }
    for (int k = 0; k < 5; k++)
        jmap_free(&m[k]);
    tr_free(nadd);
    tr_free(keys);
    uint32_t longest = 0;
    for (size_t i = 0; i < neu->n; i++)
        longest = neu->r[i].n > longest ? neu->r[i].n : longest;
    uint32_t *add = ok ? tr_malloc((longest ? longest : 1) * sizeof *add) : NULL;
    /* ranges P lacks, in order, merged into P at the end */
    hmap fresh = { 0 };
    int rc = add ? TOKENRING_OK : tr_hist_nomem(err);
    oc = pc = 0;
    for (size_t i = 0; i < neu->n && rc == TOKENRING_OK; i++) {
        const hrange *n = &neu->r[i];
        const hrange *o = tr_hist_seek(old, &oc, n->left, n->right);
        uint32_t na = 0;
        for (uint32_t k = 0; k < n->n; k++) {
            uint32_t e = n->eps[k];
            if (o && tr_hist_hrange_has(o, e))
                continue;
            uint32_t j = na++; /* insertion by rank */
            while (j > 0 && seq[HEP_NODE(add[j - 1])] > seq[HEP_NODE(e)]) {
                add[j] = add[j - 1];
                j--;
            }
            add[j] = e;
        }
        if (na == 0)
            continue;
        hrange *pr = tr_hist_seek(P, &pc, n->left, n->right);
        if (!pr) {
            if (fresh.n == fresh.cap) {
                size_t cap = fresh.cap ? fresh.cap * 2 : 16;
                hrange *r = tr_reallocarray(fresh.r, cap, sizeof *r);
                if (!r) {
                    rc = tr_hist_nomem(err);
                    break;
                }
                fresh.r = r;
                fresh.cap = cap;
            }
            pr = &fresh.r[fresh.n++];
            *pr = (hrange){ n->left, n->right, NULL, 0, 0 };
        }
        for (uint32_t j = 0; j < na; j++)
            if (!hrange_push(pr, add[j])) {
                rc = tr_hist_nomem(err);
                break;
            }
    }
    if (rc == TOKENRING_OK && fresh.n) { /* merge by left; P's range first on a tie */
        hrange *r = tr_reallocarray(NULL, P->n + fresh.n, sizeof *r);
        if (!r) {
            rc = tr_hist_nomem(err);
        } else {
            size_t i = 0, j = 0, k = 0;
            while (i < P->n || j < fresh.n)
                r[k++] = j == fresh.n || (i < P->n && P->r[i].left <= fresh.r[j].left)
                             ? P->r[i++]
                             : fresh.r[j++];
            tr_free(P->r);
            P->r = r;
            P->n = P->cap = k;
            tr_free(fresh.r);
            fresh = (hmap){ 0 };
        }
    }
    tr_hist_hmap_free(&fresh);
    tr_free(add);
    tr_free(seq);
    return rc;
}

/* ------------------------------------------------ two maps compared (locks) */

static int lock_add(struct hlocks *L, size_t repl, const hrange *r, tokenring_error *err)
{
    for (size_t i = 0; i < L->n; i++)
        if (L->l[i].repl == repl && L->l[i].left == r->left && L->l[i].right == r->right)
            return TOKENRING_OK;
    if (L->n == L->cap) {
        size_t cap = L->cap ? 2 * L->cap : 16;
        hlock *l = tr_realloc(L->l, cap * sizeof *l);
        if (!l)
            return tr_hist_nomem(err);
        L->l = l;
        L->cap = cap;
    }
    L->l[L->n++] = (hlock){ repl, r->left, r->right };
    return TOKENRING_OK;
}

/* Ranges of the replicas (endpoint and range) in one map and not in the other. */
int tr_hist_collect_locks(struct hlocks *L, size_t repl, const hmap *a, const hmap *b,
                         tokenring_error *err)
{
    int rc = TOKENRING_OK;
    for (int side = 0; side < 2 && rc == TOKENRING_OK; side++) {
        const hmap *x = side ? b : a, *y = side ? a : b;
        for (size_t i = 0; i < x->n && rc == TOKENRING_OK; i++) {
            const hrange *o = tr_hist_hmap_lookup(y, x->r[i].left, x->r[i].right);
            bool differs = false;
            for (uint32_t k = 0; k < x->r[i].n && !differs; k++)
                differs = !o || !tr_hist_hrange_has(o, x->r[i].eps[k]);
            if (differs)
                rc = lock_add(L, repl, &x->r[i], err);
        }
    }
    return rc;
}
