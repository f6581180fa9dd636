/* SPDX-License-Identifier: Apache-2.0 */
/* The replication-aware token allocator (include/tokenring/layout.h).
 *
 * Model: one datacenter's sub-ring as a doubly linked list of token slots (slots never
 * move in memory, so inserting a token is O(1)). For each slot we keep the replica set of
 * the range ending at it, computed with the real NetworkTopologyStrategy walk restricted to
 * the datacenter (rack repeat budget rf - racks, rfLeft = min(rf, nodes)), and the number
 * of tokens that walk visited. Node ownership is kept exactly (128-bit integers).
 *
 * Inserting a token c of the new node u into range (a, b] (b = slot j):
 *  - the part (a, c] gets the replica set of a walk starting at c: its members change
 *    linearly with x = c - a;
 *  - every earlier range whose walk reached b now meets c first: its new set differs from
 *    the old by a constant width;
 *  - (c, b] keeps b's set.
 * So the objective sum_w (S_w - o_w)^2 / o_w along one range is a quadratic in x, minimised
 * exactly, then kept off the range's ends (no adjacent tokens). Tokens are chosen greedily with a lazily re-evaluated max-heap (every popped
 * candidate is re-evaluated from the current state, so the structure is never stale; only
 * the order is heuristic). Moving an existing token p inside (prev, next) changes no
 * replica set, only the widths of p's and next's ranges, so refinement is a cheap exact
 * one-dimensional minimisation per token. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "layout_internal.h"
#include "tokenring/allocate.h"
#include "tokenring/layout.h"

/* Split points come from double arithmetic: no fused multiply-adds (Clang contracts
 * a * b + c by default on ARM64 and WebAssembly, GCC in GNU modes), so that every
 * platform rounds the same way and picks the same tokens. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif


#define NIL UINT32_MAX
#define TWO64 18446744073709551616.0

/* ------------------------------------------------------------ token hash set */

typedef struct tset {
    int64_t *keys;
    uint8_t *used;
    size_t cap, count;
} tset;

static uint64_t thash(int64_t t)
{
    uint64_t h = (uint64_t)t * 0x9e3779b97f4a7c15ULL;
    return h ^ (h >> 29);
}

static int tset_add(tset *s, int64_t t);

static int tset_grow(tset *s)
{
    size_t nc = s->cap ? s->cap * 2 : 1024;
    tset ns = { tr_calloc(nc, sizeof(int64_t)), tr_calloc(nc, 1), nc, 0 };
    if (!ns.keys || !ns.used) {
        tr_free(ns.keys);
        tr_free(ns.used);
        return -1;
    }
    for (size_t i = 0; i < s->cap; i++)
        if (s->used[i])
            tset_add(&ns, s->keys[i]);
    tr_free(s->keys);
    tr_free(s->used);
    *s = ns;
    return 0;
}

static int tset_add(tset *s, int64_t t)
{
    if ((s->count + 1) * 2 > s->cap && tset_grow(s))
        return -1;
    size_t j = thash(t) & (s->cap - 1);
    while (s->used[j]) {
        if (s->keys[j] == t)
            return 0;
        j = (j + 1) & (s->cap - 1);
    }
    s->used[j] = 1;
    s->keys[j] = t;
    s->count++;
    return 0;
}

static bool tset_has(const tset *s, int64_t t)
{
    if (!s->cap)
        return false;
    size_t j = thash(t) & (s->cap - 1);
    while (s->used[j]) {
        if (s->keys[j] == t)
            return true;
        j = (j + 1) & (s->cap - 1);
    }
    return false;
}

static void tset_remove(tset *s, int64_t t)
{
    /* Backward-shift deletion for linear probing. */
    if (!s->cap)
        return;
    size_t mask = s->cap - 1, j = thash(t) & mask;
    while (s->used[j] && s->keys[j] != t)
        j = (j + 1) & mask;
    if (!s->used[j])
        return;
    s->used[j] = 0;
    s->count--;
    size_t k = (j + 1) & mask;
    while (s->used[k]) {
        int64_t key = s->keys[k];
        s->used[k] = 0;
        s->count--;
        tset_add(s, key); /* never grows: count went down */
        k = (k + 1) & mask;
    }
}

/* ------------------------------------------------------------------- model */

typedef struct anode {
    tr_i128 own;          /* exact effective ownership (token values) */
    uint32_t tokens;   /* tokens in the datacenter ring */
    uint32_t rack;
} anode;

typedef struct model {
    /* slots */
    int64_t *tok;
    uint32_t *node, *next, *prev;
    uint32_t *rs;      /* slot * rfcap replica nodes */
    uint8_t *rsn;      /* replica count per slot */
    uint32_t *wl;      /* tokens visited by the slot's walk */
    uint32_t *nnext;   /* next slot of the same node (NIL ends) */
    uint32_t *mark;    /* per slot: candidate stamp */
    uint32_t mark_stamp;
    size_t slots, slot_cap;
    uint32_t head;     /* any slot of the ring (NIL when empty) */
    size_t ring_count; /* tokens in the ring */
    /* nodes */
    anode *nodes;
    uint32_t *nfirst;  /* per node: first of its slots */
    size_t node_count, node_cap;
    bool params_valid;
    uint32_t even_slot, even_slots; /* first node of an empty ring: slot of slots */
    uint32_t u_rem;       /* tokens of the joining node still to place (0: no cap) */
    uint32_t rack_count;  /* racks known (ids 0..rack_count-1) */
    uint32_t *rack_nodes; /* nodes per rack (ring members) */
    size_t rack_cap;
    /* replication */
    int32_t rf;
    uint32_t rfcap;       /* = rf (max replicas per set) */
    uint32_t rf_left;     /* min(rf, nodes in ring) */
    int32_t repeats;      /* rf - racks in ring */
    uint32_t maxwl;
    uint32_t *wl_hist;    /* number of slots per walk length (index < wl_hist_cap) */
    size_t wl_hist_cap;
    uint32_t racks_in_ring, nodes_in_ring;
    /* scratch */
    uint32_t *seen_rack;  /* stamp per rack */
    uint32_t stamp;
    double *inv_o;        /* per node 1 / o_w (fractions) */
    double *o;            /* per node o_w (fractions) */
    tset taken;           /* every token of the cluster + planned ones */
    /* one joining node (tr_allocate_join_candidate) */
    uint32_t cur_u;       /* the node being placed (NIL: none) */
    double u_weight;      /* > 0: its weight in the fair shares instead of its tokens */
    bool neutral_fill;    /* no room left: extra tokens where they change nothing */
    bool stop_no_gain;    /* and once no split helps */
} model;

static void model_free(model *m)
{
    tr_free(m->tok);
    tr_free(m->node);
    tr_free(m->next);
    tr_free(m->prev);
    tr_free(m->rs);
    tr_free(m->rsn);
    tr_free(m->wl);
    tr_free(m->wl_hist);
    tr_free(m->nnext);
    tr_free(m->mark);
    tr_free(m->nfirst);
    tr_free(m->nodes);
    tr_free(m->rack_nodes);
    tr_free(m->seen_rack);
    tr_free(m->inv_o);
    tr_free(m->o);
    tr_free(m->taken.keys);
    tr_free(m->taken.used);
}

static tr_u128 slot_width(const model *m, uint32_t s)
{
    if (m->ring_count == 1)
        return (tr_u128)1 << 64;
    return (tr_u128)(uint64_t)((uint64_t)m->tok[s] - (uint64_t)m->tok[m->prev[s]]);
}

static void hist_add(model *m, uint32_t len, int delta)
{
    if (len == 0 || len >= m->wl_hist_cap)
        return;
    m->wl_hist[len] = (uint32_t)((int)m->wl_hist[len] + delta);
    if (delta > 0 && len > m->maxwl)
        m->maxwl = len;
    while (m->maxwl > 0 && m->wl_hist[m->maxwl] == 0)
        m->maxwl--;
}

/* NTS walk restricted to the datacenter. Visits `start` first, except that when
 * `inject` == start the injected token (node u) comes first; afterwards the injected token
 * is visited right before slot `inject`. Writes the replica nodes to out (<= rf_left) and
 * returns how many tokens were visited (the injected one included). */
static uint32_t walk(model *m, uint32_t start, uint32_t inject, uint32_t u, uint32_t *out,
                     uint32_t *count_out)
{
    uint32_t n = 0, visited = 0;
    int32_t repeats = m->repeats;
    uint32_t want = m->rf_left;
    m->stamp++;
    if (m->stamp == 0) {
        memset(m->seen_rack, 0, m->rack_cap * sizeof *m->seen_rack);
        m->stamp = 1;
    }
    size_t total = m->ring_count + (inject != NIL ? 1 : 0);
    uint32_t s = start;
    bool injected_pending = inject != NIL;
    while (n < want && visited < total) {
        uint32_t nd;
        if (injected_pending && s == inject) {
            nd = u;
            injected_pending = false;
        } else {
            nd = m->node[s];
            s = m->next[s];
        }
        visited++;
        bool dup = false;
        for (uint32_t i = 0; i < n; i++)
            if (out[i] == nd) {
                dup = true;
                break;
            }
        if (dup)
            continue;
        uint32_t rk = m->nodes[nd].rack;
        if (m->seen_rack[rk] != m->stamp) {
            m->seen_rack[rk] = m->stamp;
        } else if (repeats > 0) {
            repeats--;
        } else {
            continue;
        }
        out[n++] = nd;
    }
    *count_out = n;
    return visited;
}

/* Recomputes the ring parameters (racks/nodes in the ring, plus the joining node u when
 * u != NIL) and every slot's replica set and ownership. */
static void recompute_all(model *m, uint32_t u)
{
    uint32_t racks = 0, nodes = 0;
    for (uint32_t r = 0; r < m->rack_count; r++)
        m->rack_nodes[r] = 0;
    for (size_t i = 0; i < m->node_count; i++) {
        m->nodes[i].own = 0;
        if (m->nodes[i].tokens > 0 || i == u) {
            nodes++;
            if (m->rack_nodes[m->nodes[i].rack]++ == 0)
                racks++;
        }
    }
    m->nodes_in_ring = nodes;
    m->racks_in_ring = racks;
    m->params_valid = true;
    m->rf_left = (uint32_t)m->rf < nodes ? (uint32_t)m->rf : nodes;
    m->repeats = m->rf - (int32_t)racks;
    m->maxwl = 0;
    if (m->wl_hist)
        memset(m->wl_hist, 0, m->wl_hist_cap * sizeof *m->wl_hist);
    if (m->ring_count == 0)
        return;
    uint32_t s = m->head;
    for (size_t i = 0; i < m->ring_count; i++, s = m->next[s]) {
        uint32_t cnt;
        m->wl[s] = walk(m, s, NIL, NIL, m->rs + (size_t)s * m->rfcap, &cnt);
        m->rsn[s] = (uint8_t)cnt;
        hist_add(m, m->wl[s], +1);
        tr_u128 w = slot_width(m, s);
        for (uint32_t k = 0; k < cnt; k++)
            m->nodes[m->rs[(size_t)s * m->rfcap + k]].own += (tr_i128)w;
    }
}

/* Water-filling: shares proportional to weights, none above `cap`, summing to `total`. */
static void water_fill(const double *w, double *out, size_t n, double cap, double total)
{
    for (size_t i = 0; i < n; i++)
        out[i] = -1;
    for (;;) {
        double left = total, wsum = 0;
        for (size_t i = 0; i < n; i++) {
            if (out[i] >= 0)
                left -= out[i];
            else
                wsum += w[i];
        }
        if (wsum <= 0) {
            for (size_t i = 0; i < n; i++)
                if (out[i] < 0)
                    out[i] = 0;
            return;
        }
        bool capped = false;
        for (size_t i = 0; i < n; i++)
            if (out[i] < 0 && left * w[i] / wsum > cap) {
                out[i] = cap;
                capped = true;
            }
        if (!capped) {
            for (size_t i = 0; i < n; i++)
                if (out[i] < 0)
                    out[i] = left * w[i] / wsum;
            return;
        }
    }
}

/* A node's weight in the fair shares: its tokens, except the joining node's when the
 * caller asked for an equal share (u_weight, the mean token count of the others). */
static double node_weight(const model *m, size_t i)
{
    if (i == m->cur_u && m->u_weight > 0)
        return m->u_weight;
    return (double)m->nodes[i].tokens;
}

/* Fair shares under NetworkTopologyStrategy: with racks >= rf every rack holds at most one
 * copy of each range (rack totals water-filled by token count, capped at 1, then split
 * among the rack's nodes by tokens); with fewer racks than rf a node holds at most one
 * copy (node totals water-filled, capped at 1). Weights are token counts. */
static int set_targets(model *m)
{
    size_t n = m->node_count;
    double *w = tr_calloc(n + m->rack_count + 1, sizeof *w);
    double *share = tr_calloc(n + m->rack_count + 1, sizeof *share);
    if (!w || !share) {
        tr_free(w);
        tr_free(share);
        return -1;
    }
    if (m->racks_in_ring >= (uint32_t)m->rf) {
        for (size_t i = 0; i < n; i++)
            w[m->nodes[i].rack] += node_weight(m, i);
        water_fill(w, share, m->rack_count, 1.0, (double)m->rf_left);
        for (size_t i = 0; i < n; i++) {
            uint32_t r = m->nodes[i].rack;
            m->o[i] = w[r] > 0 ? share[r] * node_weight(m, i) / w[r] : 0.0;
        }
    } else {
        for (size_t i = 0; i < n; i++)
            w[i] = node_weight(m, i);
        water_fill(w, m->o, n, 1.0, (double)m->rf_left);
    }
    for (size_t i = 0; i < n; i++)
        m->inv_o[i] = m->o[i] > 0 ? 1.0 / m->o[i] : 0.0;
    tr_free(w);
    tr_free(share);
    return 0;
}

/* A ring fraction (double) as an integer offset clamped to [0, hi], without long double
 * (whose width differs between x86-64, ARM64 and WebAssembly): scaling by 2^64 is exact
 * in double, and the clamp is done on integers so that rounding cannot step past hi. The
 * same inputs give the same offset on every IEEE-754 platform. */
static uint64_t frac_to_offset(double f, uint64_t hi)
{
    if (!(f > 0))
        return 0;
    double v = f * TWO64;
    uint64_t u = v >= TWO64 ? UINT64_MAX : (uint64_t)v;
    return u > hi ? hi : u;
}

/* ------------------------------------------------------------- candidates */

typedef struct delta {
    uint32_t node;
    double k; /* constant change (fraction) */
    int l;    /* change per unit of x */
} delta;

typedef struct cand {
    double gain;  /* objective decrease */
    uint64_t x;   /* split offset from the range start */
} cand;

static void add_delta(delta *d, uint32_t *nd, uint32_t node, double k, int l)
{
    for (uint32_t i = 0; i < *nd; i++)
        if (d[i].node == node) {
            d[i].k += k;
            d[i].l += l;
            return;
        }
    d[*nd].node = node;
    d[*nd].k = k;
    d[*nd].l = l;
    (*nd)++;
}

static bool in_set(const uint32_t *s, uint32_t n, uint32_t x)
{
    for (uint32_t i = 0; i < n; i++)
        if (s[i] == x)
            return true;
    return false;
}

/* Evaluates inserting a token of u into the range ending at slot j. Returns false when
 * the range has no room. `d` needs room for (maxwl + 2) * 2 * rfcap entries. */
static bool evaluate(model *m, uint32_t j, uint32_t u, double uw, delta *d, uint32_t *tmp,
                     cand *out)
{
    tr_u128 W = slot_width(m, j);
    if (W < 2)
        return false;
    /* Next to one of u's own tokens a new token of u changes no replica set: useless, and
     * runs of one node's tokens lengthen every walk. */
    if (m->node[j] == u || m->node[m->prev[j]] == u)
        return false;
    uint32_t nd = 0, cnt;
    /* The split part (a, c]: walk from c. */
    walk(m, j, j, u, tmp, &cnt);
    const uint32_t *old = m->rs + (size_t)j * m->rfcap;
    uint32_t on = m->rsn[j];
    for (uint32_t i = 0; i < cnt; i++)
        if (!in_set(old, on, tmp[i]))
            add_delta(d, &nd, tmp[i], 0, +1);
    for (uint32_t i = 0; i < on; i++)
        if (!in_set(tmp, cnt, old[i]))
            add_delta(d, &nd, old[i], 0, -1);
    /* Earlier ranges whose walk reached j. */
    if (m->ring_count > 1) {
        uint32_t p = m->prev[j];
        for (uint32_t dist = 1; dist < m->maxwl && p != j; dist++, p = m->prev[p]) {
            if (m->wl[p] <= dist)
                continue;
            walk(m, p, j, u, tmp, &cnt);
            const uint32_t *po = m->rs + (size_t)p * m->rfcap;
            uint32_t pn = m->rsn[p];
            double w = (double)slot_width(m, p) / TWO64;
            for (uint32_t i = 0; i < cnt; i++)
                if (!in_set(po, pn, tmp[i]))
                    add_delta(d, &nd, tmp[i], w, 0);
            for (uint32_t i = 0; i < pn; i++)
                if (!in_set(tmp, cnt, po[i]))
                    add_delta(d, &nd, po[i], -w, 0);
        }
    }
    /* Quadratic in x (fraction): sum (D + l x)^2 / o, D = S + k - o. */
    double a = 0, b = 0, base = 0, cst = 0;
    for (uint32_t i = 0; i < nd; i++) {
        uint32_t w = d[i].node;
        double S = (double)m->nodes[w].own / TWO64, io = m->inv_o[w];
        if (w == u)
            io *= uw; /* the new node's own deviation weighs in gradually */
        double D = S + d[i].k - m->o[w];
        a += d[i].l * d[i].l * io;
        b += d[i].l * D * io;
        cst += D * D * io;
        base += (S - m->o[w]) * (S - m->o[w]) * io;
    }
    double xmax = (double)(W - 1) / TWO64, xmin = 1.0 / TWO64;
    double x = a > 0 ? -b / a : (double)W / 2 / TWO64;
    /* One token takes no more than its part of the new node's remaining deficit: the
     * quadratic alone, with a range narrower than the deficit, puts the split at the
     * range's end, so that the first tokens swallow whole ranges and the last ones are
     * left next to other nodes' tokens (adjacent, degenerate tokens). */
    if (m->u_rem > 0 && m->rf_left == 1) {
        for (uint32_t i = 0; i < nd; i++) {
            if (d[i].node != u || d[i].l <= 0)
                continue;
            double S = (double)m->nodes[u].own / TWO64;
            double cap = (2.0 * (m->o[u] - S) / m->u_rem - d[i].k) / d[i].l;
            if (x > cap)
                x = cap;
        }
    }
    /* A split leaves both sides a real part of the range: no token one apart from another
     * (refinement still moves the token wherever the exact optimum is). */
    if (m->u_rem > 0) {
        double wf = (double)W / TWO64, edge = m->rf_left == 1 ? 0.125 : 0.0625;
        if (x > wf * (1 - edge))
            x = wf * (1 - edge);
        if (x < wf * edge)
            x = wf * edge;
    }
    if (x < xmin)
        x = xmin;
    if (x > xmax)
        x = xmax;
    double after = cst + 2 * b * x + a * x * x;
    /* Tie-break (flat objective): prefer splitting wide ranges, which keeps ranges even
     * for the nodes that join later. Far below any real improvement. */
    out->gain = base - after + 1e-9 * ((double)W / TWO64) * (double)m->ring_count;
    out->x = frac_to_offset(x, (uint64_t)(W - 1));
    return true;
}

/* ------------------------------------------------------------------ updates */

static int reserve_slots(model *m, size_t want)
{
    if (want <= m->slot_cap)
        return 0;
    size_t nc = m->slot_cap ? m->slot_cap * 2 : 256;
    while (nc < want)
        nc *= 2;
    /* Each per-slot array to nc entries; on failure the arrays already grown keep their
     * new size (slot_cap is not raised, so nothing reads past the old one). */
#define GROW(arr, n, size)                                                                  \
    do {                                                                                    \
        void *grown_ = tr_reallocarray((arr), (n), (size));                                 \
        if (!grown_)                                                                        \
            return -1;                                                                      \
        (arr) = grown_;                                                                     \
    } while (0)
    GROW(m->tok, nc, sizeof *m->tok);
    GROW(m->node, nc, sizeof *m->node);
    GROW(m->next, nc, sizeof *m->next);
    GROW(m->prev, nc, sizeof *m->prev);
    GROW(m->wl, nc, sizeof *m->wl);
    GROW(m->rs, nc, (size_t)m->rfcap * sizeof *m->rs);
    GROW(m->rsn, nc, sizeof *m->rsn);
    GROW(m->nnext, nc, sizeof *m->nnext);
    GROW(m->mark, nc, sizeof *m->mark);
    for (size_t i = m->slot_cap; i < nc; i++)
        m->mark[i] = 0;
    GROW(m->wl_hist, nc + 2, sizeof *m->wl_hist);
#undef GROW
    for (size_t i = m->wl_hist_cap; i < nc + 2; i++)
        m->wl_hist[i] = 0;
    m->wl_hist_cap = nc + 2;
    m->slot_cap = nc;
    return 0;
}

static int ensure_slot(model *m)
{
    return reserve_slots(m, m->slots + 1);
}

/* Replaces slot s's replica set by a fresh walk, updating ownership. */
static void refresh_slot(model *m, uint32_t s, tr_u128 old_width)
{
    uint32_t *rs = m->rs + (size_t)s * m->rfcap;
    for (uint32_t k = 0; k < m->rsn[s]; k++)
        m->nodes[rs[k]].own -= (tr_i128)old_width;
    uint32_t cnt;
    hist_add(m, m->wl[s], -1);
    m->wl[s] = walk(m, s, NIL, NIL, rs, &cnt);
    m->rsn[s] = (uint8_t)cnt;
    hist_add(m, m->wl[s], +1);
    tr_u128 w = slot_width(m, s);
    for (uint32_t k = 0; k < cnt; k++)
        m->nodes[rs[k]].own += (tr_i128)w;
}

/* Inserts token `t` of node u before slot j (t inside (prev(j), j)); ring parameters must
 * already include u. Returns the new slot or NIL on NOMEM. */
static uint32_t insert_token(model *m, uint32_t j, int64_t t, uint32_t u)
{
    if (ensure_slot(m))
        return NIL;
    uint32_t s = (uint32_t)m->slots++;
    m->tok[s] = t;
    m->node[s] = u;
    m->rsn[s] = 0;
    m->wl[s] = 0;
    m->nnext[s] = m->nfirst[u];
    m->nfirst[u] = s;
    if (m->ring_count == 0) {
        m->next[s] = m->prev[s] = s;
        m->head = s;
        m->ring_count = 1;
        m->nodes[u].tokens++;
        refresh_slot(m, s, 0);
        return s;
    }
    /* Ranges whose walk reached j: remember them (walking back), then relink. */
    tr_u128 wj_old = slot_width(m, j);
    uint32_t p = m->prev[j];
    m->prev[s] = p;
    m->next[s] = j;
    m->next[p] = s;
    m->prev[j] = s;
    m->ring_count++;
    m->nodes[u].tokens++;
    /* j keeps its set but shrinks. */
    tr_u128 wj_new = slot_width(m, j);
    for (uint32_t k = 0; k < m->rsn[j]; k++)
        m->nodes[m->rs[(size_t)j * m->rfcap + k]].own -= (tr_i128)(wj_old - wj_new);
    refresh_slot(m, s, 0);
    /* Earlier ranges within the longest walk: refresh those whose walk reached j. */
    uint32_t q = p;
    uint32_t lim = m->maxwl + 1;
    for (uint32_t dist = 1; dist <= lim && q != s; dist++, q = m->prev[q]) {
        if (m->wl[q] <= dist - 1)
            continue;
        refresh_slot(m, q, slot_width(m, q));
    }
    return s;
}

/* Exact best move of slot p inside (prev, next); replica sets do not change. */
static bool refine_slot(model *m, uint32_t p, bool keep_apart)
{
    if (m->ring_count < 3)
        return false;
    uint32_t pv = m->prev[p], nx = m->next[p];
    const uint32_t *A = m->rs + (size_t)p * m->rfcap, *B = m->rs + (size_t)nx * m->rfcap;
    uint32_t an = m->rsn[p], bn = m->rsn[nx];
    double num = 0, den = 0;
    for (uint32_t i = 0; i < an; i++) {
        uint32_t w = A[i];
        if (in_set(B, bn, w))
            continue;
        double S = (double)m->nodes[w].own / TWO64;
        num += (S - m->o[w]) * m->inv_o[w];
        den += m->inv_o[w];
    }
    for (uint32_t i = 0; i < bn; i++) {
        uint32_t w = B[i];
        if (in_set(A, an, w))
            continue;
        double S = (double)m->nodes[w].own / TWO64;
        num -= (S - m->o[w]) * m->inv_o[w];
        den += m->inv_o[w];
    }
    if (den <= 0)
        return false;
    double dstar = -num / den; /* fraction; positive moves p forward */
    uint64_t lo_room = (uint64_t)m->tok[p] - (uint64_t)m->tok[pv] - 1; /* max backward */
    uint64_t hi_room = (uint64_t)m->tok[nx] - (uint64_t)m->tok[p] - 1; /* max forward */
    if (keep_apart) {
        /* Stop short of the neighbours (an eighth of the span between them): a node's
         * tokens planned one at a time stay real tokens, not one apart from another. */
        uint64_t span = (uint64_t)m->tok[nx] - (uint64_t)m->tok[pv];
        uint64_t margin = span / 8;
        lo_room = lo_room + 1 > margin ? lo_room + 1 - margin : 0;
        hi_room = hi_room + 1 > margin ? hi_room + 1 - margin : 0;
    }
    int64_t step;
    if (dstar > 0) {
        uint64_t f = frac_to_offset(dstar, hi_room);
        step = f > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)f;
    } else {
        uint64_t b = frac_to_offset(-dstar, lo_room);
        step = b > (uint64_t)INT64_MAX ? -INT64_MAX : -(int64_t)b;
    }
    /* Moves below 2^-40 of the ring change nothing measurable: call it converged. */
    if (step > -(1LL << 24) && step < (1LL << 24))
        return false;
    int64_t nt = (int64_t)((uint64_t)m->tok[p] + (uint64_t)step);
    /* Avoid other datacenters' tokens: back off towards the current position. */
    while (nt != m->tok[p] && tset_has(&m->taken, nt)) {
        step += step > 0 ? -1 : 1;
        nt = (int64_t)((uint64_t)m->tok[p] + (uint64_t)step);
    }
    if (step == 0)
        return false;
    tset_remove(&m->taken, m->tok[p]);
    tset_add(&m->taken, nt);
    tr_i128 d = (tr_i128)step;
    for (uint32_t i = 0; i < an; i++)
        m->nodes[A[i]].own += d;
    for (uint32_t i = 0; i < bn; i++)
        m->nodes[B[i]].own -= d;
    m->tok[p] = nt;
    return true;
}

/* ------------------------------------------------------------------ heap */

typedef struct hent {
    double gain;
    uint32_t slot;
} hent;

/* Heap order: larger gain first. Equal gains keep the order the (deterministic) sequence
 * of heap operations gives them: no library or platform dependence. */
static bool hent_before(const hent *a, const hent *b)
{
    return a->gain > b->gain;
}

static void heap_up(hent *h, size_t i)
{
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!hent_before(&h[i], &h[p]))
            break;
        hent t = h[p];
        h[p] = h[i];
        h[i] = t;
        i = p;
    }
}

static void heap_down(hent *h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, b = i;
        if (l < n && hent_before(&h[l], &h[b]))
            b = l;
        if (r < n && hent_before(&h[r], &h[b]))
            b = r;
        if (b == i)
            return;
        hent t = h[b];
        h[b] = h[i];
        h[i] = t;
        i = b;
    }
}

/* ------------------------------------------------------------ one new node */

typedef struct scratch {
    delta *d;
    uint32_t *tmp;
    size_t dcap;
    hent *heap;
    size_t heap_cap;
    uint32_t *mine; /* slots of the node being placed */
    tr_progress *pg; /* the caller's progress callback, or NULL */
    tokenring_error *err;
} scratch;

static int ensure_scratch(model *m, scratch *sc)
{
    size_t need = ((size_t)m->maxwl + 4) * 2 * m->rfcap + 2 * m->rfcap + 8;
    if (need > sc->dcap) {
        delta *d = tr_reallocarray(sc->d, need, sizeof *d);
        if (!d)
            return -1;
        sc->d = d;
        sc->dcap = need;
    }
    return 0;
}

/* Even tokens for the first node(s): slot `slot` of `slots`, nudged off taken tokens. */
static int place_even(model *m, uint32_t u, uint32_t T, uint32_t slot, uint32_t slots,
                      uint32_t *mine)
{
    int64_t *ev = tr_reallocarray(NULL, T, sizeof *ev);
    if (!ev)
        return -1;
    tr_layout_even(ev, T, slot, slots);
    for (uint32_t i = 0; i < T; i++) {
        int64_t t = ev[i];
        while (tset_has(&m->taken, t))
            t = (int64_t)((uint64_t)t + 1);
        /* Find the slot before which t goes. */
        uint32_t j = NIL;
        if (m->ring_count > 0) {
            uint32_t s = m->head;
            uint32_t best = NIL;
            for (size_t k = 0; k < m->ring_count; k++, s = m->next[s]) {
                if (m->tok[s] > t && (best == NIL || m->tok[s] < m->tok[best]))
                    best = s;
            }
            if (best == NIL) { /* wrap: the smallest token */
                s = m->head;
                best = s;
                for (size_t k = 0; k < m->ring_count; k++, s = m->next[s])
                    if (m->tok[s] < m->tok[best])
                        best = s;
            }
            j = best;
        }
        uint32_t ns = insert_token(m, j, t, u);
        if (ns == NIL || tset_add(&m->taken, t)) {
            tr_free(ev);
            return -1;
        }
        mine[i] = ns;
    }
    tr_free(ev);
    return 0;
}

static int cmp_excess(const void *a, const void *b)
{
    double x = ((const double *)a)[0], y = ((const double *)b)[0];
    if (x != y)
        return (x < y) - (x > y); /* descending */
    /* Equal excess: lower node id first, so that qsort (not stable, and different in
     * every C library) cannot change the result. */
    double i = ((const double *)a)[1], j = ((const double *)b)[1];
    return (i > j) - (i < j);
}

/* Evaluates a token for node u in slot s and, when it is a candidate, writes it to heap
 * entry hn (the heap is ordered later). Returns the number of entries written, 0 or 1. */
static size_t queue_candidate(model *m, scratch *sc, size_t hn, uint32_t s, uint32_t u,
                              uint32_t T)
{
    cand c;
    if (!evaluate(m, s, u, 1.0 / T, sc->d, sc->tmp, &c))
        return 0;
    sc->heap[hn].gain = c.gain;
    sc->heap[hn].slot = s;
    return 1;
}

/* Ring parameters with u counted: recompute everything only when they change. Returns
 * true when the rack of u had no node yet. */
static bool count_node(model *m, uint32_t u)
{
    uint32_t ur = m->nodes[u].rack;
    /* rack_nodes is only valid once recompute_all() has run: before the first placement
     * it reads zero for every rack, and a node joining an existing rack was taken for
     * the first of its rack (even tokens, stepped off the taken ones next to its rack
     * mate's, so it owned nothing). */
    if (!m->params_valid)
        recompute_all(m, NIL);
    bool rack_empty = m->rack_nodes[ur] == 0;
    uint32_t want_nodes = m->nodes_in_ring + 1, want_racks = m->racks_in_ring + rack_empty;
    uint32_t want_left = (uint32_t)m->rf < want_nodes ? (uint32_t)m->rf : want_nodes;
    if (!m->params_valid || want_left != m->rf_left ||
        m->rf - (int32_t)want_racks != m->repeats) {
        recompute_all(m, u);
    } else {
        m->nodes_in_ring = want_nodes;
        m->racks_in_ring = want_racks;
        m->rack_nodes[ur]++;
    }
    return rack_empty;
}

/* The fair shares with u counted with T tokens (or its u_weight). */
static int node_targets(model *m, uint32_t u, uint32_t T)
{
    m->cur_u = u;
    m->nodes[u].tokens = T;
    int trc = set_targets(m);
    m->nodes[u].tokens = 0;
    return trc;
}

/* One token of u where it changes no replica set and no ownership: inside the widest
 * range that ends at one of u's own tokens (a walk from there meets u first either way).
 * For a node that asks for more tokens than the ring has useful ranges. Returns the new
 * slot, NIL when there is none (u has no token yet, or every such range is too narrow),
 * or NIL with *nomem set. */
static uint32_t place_neutral(model *m, uint32_t u, bool *nomem)
{
    uint32_t best = NIL;
    tr_u128 bw = 0;
    for (uint32_t s = m->nfirst[u]; s != NIL; s = m->nnext[s]) {
        tr_u128 w = slot_width(m, s);
        if (w >= 2 && w > bw) {
            bw = w;
            best = s;
        }
    }
    if (best == NIL)
        return NIL;
    uint64_t start = (uint64_t)m->tok[m->prev[best]];
    uint64_t x = (uint64_t)(bw / 2);
    int64_t tk = (int64_t)(start + x);
    while (tset_has(&m->taken, tk) && x < (uint64_t)(bw - 1))
        tk = (int64_t)(start + ++x);
    if (tset_has(&m->taken, tk))
        return NIL;
    uint32_t ns = insert_token(m, best, tk, u);
    if (ns == NIL || tset_add(&m->taken, tk)) {
        *nomem = true;
        return NIL;
    }
    return ns;
}

static int place_node(model *m, scratch *sc, uint32_t u, uint32_t T, bool refine)
{
    bool rack_empty = count_node(m, u);
    if (m->ring_count == 0 || m->nodes_in_ring <= (uint32_t)m->rf ||
        (rack_empty && m->racks_in_ring <= (uint32_t)m->rf)) {
        /* Every node replicates everything (nodes <= rf), or the first node of a rack
         * while racks <= rf: nothing to balance yet, so interleave evenly. */
        uint32_t slot = m->nodes_in_ring <= (uint32_t)m->rf ? m->nodes_in_ring - 1
                                                            : m->racks_in_ring - 1;
        uint32_t slots = (uint32_t)m->rf;
        if (slot >= slots)
            slot = 0;
        if (m->ring_count == 0 && m->even_slots > 0) {
            slot = m->even_slot;
            slots = m->even_slots;
        }
        return place_even(m, u, T, slot, slots, sc->mine);
    }
    /* Targets count u with its T tokens. */
    if (node_targets(m, u, T))
        return -1;
    if (ensure_scratch(m, sc))
        return -1;
    size_t need = m->ring_count + T + 1;
    if (need > sc->heap_cap) {
        hent *h = tr_reallocarray(sc->heap, need, sizeof *h);
        if (!h)
            return -1;
        sc->heap = h;
        sc->heap_cap = need;
    }
    size_t hn = 0;
    m->u_rem = T;
    if (m->ring_count <= (size_t)64 * T) {
        uint32_t s = m->head;
        for (size_t i = 0; i < m->ring_count; i++, s = m->next[s])
            hn += queue_candidate(m, sc, hn, s, u, T);
    } else {
        /* Large rings: only ranges near the tokens of the most over-served nodes (the
         * donors) can take ownership from them; evaluate those. */
        size_t n = m->node_count, nd = 0;
        double *ex = tr_reallocarray(NULL, n, 2 * sizeof *ex);
        if (!ex)
            return -1;
        for (size_t i = 0; i < n; i++) {
            if (m->nodes[i].tokens == 0 || i == u)
                continue;
            ex[2 * nd] = ((double)m->nodes[i].own / TWO64 - m->o[i]) * m->inv_o[i];
            ex[2 * nd + 1] = (double)i;
            nd++;
        }
        qsort(ex, nd, 2 * sizeof *ex, cmp_excess);
        size_t donors = nd < (size_t)T ? nd : (size_t)T;
        uint32_t window = (uint32_t)(m->rf + 1) < m->maxwl ? (uint32_t)(m->rf + 1) : m->maxwl;
        if (++m->mark_stamp == 0) {
            for (size_t i = 0; i < m->slot_cap; i++)
                m->mark[i] = 0;
            m->mark_stamp = 1;
        }
        for (size_t dn = 0; dn < donors; dn++) {
            uint32_t w = (uint32_t)ex[2 * dn + 1];
            for (uint32_t t0 = m->nfirst[w]; t0 != NIL; t0 = m->nnext[t0]) {
                uint32_t s = t0;
                for (uint32_t back = 0; back <= window && back < m->ring_count;
                     back++, s = m->prev[s]) {
                    if (m->mark[s] == m->mark_stamp)
                        continue;
                    m->mark[s] = m->mark_stamp;
                    hn += queue_candidate(m, sc, hn, s, u, T);
                }
            }
        }
        tr_free(ex);
    }
    for (size_t i = hn / 2; i-- > 0;)
        heap_down(sc->heap, hn, i);
    for (uint32_t t = 0; t < T; t++) {
        if (sc->pg) {
            if (tr_progress_report(sc->pg, "token allocation", sc->err) != TOKENRING_OK)
                return 2; /* cancelled */
            sc->pg->done++;
        }
        m->u_rem = T - t;
        for (;;) {
            if (hn == 0 && m->neutral_fill) {
                bool nomem = false;
                uint32_t ns = place_neutral(m, u, &nomem);
                if (nomem)
                    return -1;
                if (ns == NIL)
                    return 1;
                sc->mine[t] = ns;
                break;
            }
            if (hn == 0)
                return 1; /* no room */
            hent top = sc->heap[0];
            sc->heap[0] = sc->heap[--hn];
            heap_down(sc->heap, hn, 0);
            if (ensure_scratch(m, sc))
                return -1;
            cand c;
            if (!evaluate(m, top.slot, u, (double)(t + 1) / T, sc->d, sc->tmp, &c))
                continue;
            if (hn > 0 && c.gain < sc->heap[0].gain) {
                sc->heap[hn].gain = c.gain;
                sc->heap[hn].slot = top.slot;
                heap_up(sc->heap, hn++);
                continue;
            }
            if (m->stop_no_gain && c.gain <= 0 && m->nodes[u].tokens > 0) {
                /* no split helps any more (the node has its share): the rest go where
                 * they change nothing */
                bool nomem = false;
                uint32_t ns = place_neutral(m, u, &nomem);
                if (nomem)
                    return -1;
                if (ns != NIL) {
                    sc->heap[hn].gain = c.gain;
                    sc->heap[hn].slot = top.slot;
                    heap_up(sc->heap, hn++);
                    sc->mine[t] = ns;
                    break;
                }
            }
            uint32_t j = top.slot;
            uint64_t start = (uint64_t)m->tok[m->prev[j]];
            tr_u128 W = slot_width(m, j);
            uint64_t x = c.x;
            int64_t tk = (int64_t)(start + x);
            /* Step off tokens of other datacenters (or planned ones). */
            while (tset_has(&m->taken, tk) && x < (uint64_t)(W - 1)) {
                x++;
                tk = (int64_t)(start + x);
            }
            if (tset_has(&m->taken, tk))
                continue;
            uint32_t ns = insert_token(m, j, tk, u);
            if (ns == NIL || tset_add(&m->taken, tk))
                return -1;
            sc->mine[t] = ns;
            m->u_rem = T - t - 1;
            /* Both parts of the split range are candidates again. */
            cand c2;
            if (evaluate(m, ns, u, (double)(t + 1) / T, sc->d, sc->tmp, &c2)) {
                sc->heap[hn].gain = c2.gain;
                sc->heap[hn].slot = ns;
                heap_up(sc->heap, hn++);
            }
            if (evaluate(m, j, u, (double)(t + 1) / T, sc->d, sc->tmp, &c2)) {
                sc->heap[hn].gain = c2.gain;
                sc->heap[hn].slot = j;
                heap_up(sc->heap, hn++);
            }
            break;
        }
    }
    m->u_rem = 0;
    if (refine) {
        for (int round = 0; round < 8; round++) {
            bool moved = false;
            for (uint32_t t = 0; t < T; t++)
                moved |= refine_slot(m, sc->mine[t], true);
            if (!moved)
                break;
        }
    }
    return 0;
}

/* u takes the given tokens (ascending, none taken), then each is moved within its
 * neighbours towards its best position, as place_node() refines its own choice; with
 * `halfway` each token then ends half way along its move (tokenring_allocate_join() says
 * why). */
static int place_given(model *m, scratch *sc, uint32_t u, uint32_t T, const int64_t *given,
                       int rounds, bool halfway)
{
    (void)count_node(m, u);
    if (node_targets(m, u, T))
        return -1;
    for (uint32_t t = 0; t < T; t++) {
        uint32_t j = NIL;
        if (m->ring_count > 0) {
            /* the slot before which given[t] goes: the smallest token above it, else
             * (wrapping) the smallest token */
            uint32_t s = m->head, above = NIL, least = NIL;
            for (size_t k = 0; k < m->ring_count; k++, s = m->next[s]) {
                if (m->tok[s] > given[t] && (above == NIL || m->tok[s] < m->tok[above]))
                    above = s;
                if (least == NIL || m->tok[s] < m->tok[least])
                    least = s;
            }
            j = above != NIL ? above : least;
        }
        if (tset_has(&m->taken, given[t]))
            return 1;
        uint32_t ns = insert_token(m, j, given[t], u);
        if (ns == NIL || tset_add(&m->taken, given[t]))
            return -1;
        sc->mine[t] = ns;
    }
    tr_i128 *moved_by = NULL; /* halfway: each token's total move (steps fit int64 each) */
    if (halfway && !(moved_by = tr_calloc(T, sizeof *moved_by)))
        return -1;
    for (int round = 0; round < rounds; round++) {
        bool moved = false;
        for (uint32_t t = 0; t < T; t++) {
            int64_t was = m->tok[sc->mine[t]];
            moved |= refine_slot(m, sc->mine[t], true);
            if (moved_by)
                moved_by[t] += (int64_t)((uint64_t)m->tok[sc->mine[t]] - (uint64_t)was);
        }
        if (!moved)
            break;
    }
    if (moved_by) {
        /* Each token ends half way along its move. The model's shares are left as the full
         * moves made them: nothing reads them after this node, whose tokens are the output
         * (one node, NODE_BY_NODE). Halving keeps each token's order against its
         * neighbours, which moved the same way or not at all. */
        for (uint32_t t = 0; t < T; t++) {
            /* |move| < 2^64 (the token stays inside its neighbour gap): half fits int64 */
            int64_t half = (int64_t)(moved_by[t] / 2);
            int64_t h = (int64_t)((uint64_t)given[t] + (uint64_t)half);
            /* A token held elsewhere in the cluster (another datacenter or rack ring):
             * back off towards the token's start, as refine_slot() does for a full move
             * (given[t] itself was free). */
            while (half != 0 && tset_has(&m->taken, h)) {
                half += half > 0 ? -1 : 1;
                h = (int64_t)((uint64_t)given[t] + (uint64_t)half);
            }
            m->tok[sc->mine[t]] = h;
        }
        tr_free(moved_by);
    }
    return 0;
}

/* ------------------------------------------------------------------ entry points */

static uint32_t rack_id(char ***names, size_t *ncount, const char *rack)
{
    for (size_t i = 0; i < *ncount; i++)
        if (strcmp((*names)[i], rack) == 0)
            return (uint32_t)i;
    char **nn = tr_reallocarray(*names, *ncount + 1, sizeof *nn);
    if (!nn)
        return NIL;
    *names = nn;
    if (!(nn[*ncount] = tr_strdup(rack)))
        return NIL;
    return (uint32_t)(*ncount)++;
}

static uint32_t add_model_node(model *m, uint32_t rack)
{
    if (m->node_count == m->node_cap) {
        size_t nc = m->node_cap ? m->node_cap * 2 : 64;
        anode *a = tr_reallocarray(m->nodes, nc, sizeof *a);
        if (!a)
            return NIL;
        m->nodes = a;
        double *o = tr_reallocarray(m->o, nc, sizeof *o);
        if (!o)
            return NIL;
        m->o = o;
        if (!(o = tr_reallocarray(m->inv_o, nc, sizeof *o)))
            return NIL;
        m->inv_o = o;
        uint32_t *f = tr_reallocarray(m->nfirst, nc, sizeof *f);
        if (!f)
            return NIL;
        m->nfirst = f;
        m->node_cap = nc;
    }
    memset(&m->nodes[m->node_count], 0, sizeof m->nodes[0]);
    m->nodes[m->node_count].rack = rack;
    m->nfirst[m->node_count] = NIL;
    return (uint32_t)m->node_count++;
}

static int ensure_racks(model *m, size_t racks)
{
    if (racks <= m->rack_cap)
        return 0;
    size_t nc = racks * 2 + 8;
    uint32_t *a = tr_reallocarray(m->rack_nodes, nc, sizeof *a);
    if (!a)
        return -1;
    /* place_node() reads a new rack's count before recompute_all() sets it. */
    memset(a + m->rack_cap, 0, (nc - m->rack_cap) * sizeof *a);
    m->rack_nodes = a;
    uint32_t *b = tr_calloc(nc, sizeof *b);
    if (!b)
        return -1;
    tr_free(m->seen_rack);
    m->seen_rack = b;
    m->stamp = 0;
    m->rack_cap = nc;
    return 0;
}

/* How a plan is made (tr_allocate_nodes_opts); zero: tokenring_allocate_nodes(). */
typedef struct plan_opts {
    const int64_t *given; /* one node: start from these tokens (ascending), refine only */
    bool simple;          /* SimpleStrategy: the whole cluster's ring, racks ignored */
    bool equal_share;     /* the new node's fair share is the others' mean, not by tokens */
    bool neutral_fill;    /* tokens beyond the useful ranges where they change nothing */
    bool stop_no_gain;    /* and once no split helps */
    int refine_rounds;    /* with `given`: rounds of moves (each token once per round) */
    bool halfway;         /* with `given`: each token ends half way along its move */
    uint32_t *placed_out; /* receives the tokens the failing node could take */
} plan_opts;

static bool in_group(const tokenring_node_info *info, const char *dc, const char *rack,
                     const plan_opts *po)
{
    if (po->simple)
        return true;
    return strcmp(info->datacenter, dc) == 0 && (!rack || strcmp(info->rack, rack) == 0);
}

/* The state of one plan_group() call: the model of the group's ring, the placement
 * scratch, the rack names met, and the model ids and slots of the planned nodes.
 * group_init() sets it up (allocating nothing), group_free() releases all of it. */
typedef struct plan_state {
    model m;
    scratch sc;
    char **rack_names;
    size_t rack_n;
    uint32_t *planned; /* model node ids of the planned nodes */
    uint32_t *pslots;  /* their slots, count * T */
} plan_state;

static void group_init(plan_state *g, int32_t rf, uint32_t even_slot, uint32_t even_slots,
                       const plan_opts *po, tr_progress *pg, tokenring_error *err)
{
    memset(g, 0, sizeof *g);
    g->m.cur_u = NIL;
    g->m.neutral_fill = po->neutral_fill;
    g->m.stop_no_gain = po->stop_no_gain;
    g->m.rf = rf;
    g->m.rfcap = (uint32_t)rf;
    g->m.head = NIL;
    g->m.even_slot = even_slot;
    g->m.even_slots = even_slots;
    g->sc.pg = pg;
    g->sc.err = err;
}

static void group_free(plan_state *g)
{
    for (size_t i = 0; i < g->rack_n; i++)
        tr_free(g->rack_names[i]);
    tr_free(g->rack_names);
    tr_free(g->planned);
    tr_free(g->pslots);
    tr_free(g->sc.d);
    tr_free(g->sc.tmp);
    tr_free(g->sc.heap);
    model_free(&g->m);
}

/* Phase 1: every token of the topology and of `shared` is taken. TOKENRING_E_NOMEM: out
 * of memory (err not filled). */
static int group_taken(plan_state *g, const tokenring_topology *topology,
                       const tset *shared)
{
    size_t tn = tokenring_topology_node_count(topology);
    for (size_t i = 0; i < tn; i++) {
        tokenring_node_info info;
        tokenring_topology_node(&info, topology, i);
        for (size_t k = 0; k < info.token_count; k++)
            if (tset_add(&g->m.taken, info.tokens[k]))
                return TOKENRING_E_NOMEM;
    }
    for (size_t i = 0; i < shared->cap; i++)
        if (shared->used[i] && tset_add(&g->m.taken, shared->keys[i]))
            return TOKENRING_E_NOMEM;
    return 0;
}

/* Phase 2: the group's nodes and tokens, sorted into one ring, with room for `more`
 * planned slots. TOKENRING_E_NOMEM: out of memory (err not filled). */
static int group_ring(plan_state *g, const tokenring_topology *topology,
                      const char *datacenter, const char *only_rack, const plan_opts *po,
                      size_t more)
{
    model *m = &g->m;
    size_t tn = tokenring_topology_node_count(topology);
    size_t dc_tokens = 0;
    for (size_t i = 0; i < tn; i++) {
        tokenring_node_info info;
        tokenring_topology_node(&info, topology, i);
        if (in_group(&info, datacenter, only_rack, po))
            dc_tokens += info.token_count;
    }
    int64_t *pairs_t = tr_reallocarray(NULL, dc_tokens + 1, sizeof *pairs_t);
    if (!pairs_t)
        return TOKENRING_E_NOMEM;
    size_t k = 0;
    for (size_t i = 0; i < tn; i++) {
        tokenring_node_info info;
        tokenring_topology_node(&info, topology, i);
        if (!in_group(&info, datacenter, only_rack, po))
            continue;
        uint32_t r = rack_id(&g->rack_names, &g->rack_n, po->simple ? "" : info.rack);
        if (r == NIL || ensure_racks(m, g->rack_n)) {
            tr_free(pairs_t);
            return TOKENRING_E_NOMEM;
        }
        m->rack_count = (uint32_t)g->rack_n;
        uint32_t id = add_model_node(m, r);
        if (id == NIL) {
            tr_free(pairs_t);
            return TOKENRING_E_NOMEM;
        }
        for (size_t j = 0; j < info.token_count; j++) {
            /* encode node in a side table: slot order = sorted order below */
            pairs_t[k++] = info.tokens[j];
        }
        m->nodes[id].tokens = (uint32_t)info.token_count;
    }
    qsort(pairs_t, k, sizeof *pairs_t, tr_cmp_i64);
    if (reserve_slots(m, k + more + 1)) {
        tr_free(pairs_t);
        return TOKENRING_E_NOMEM;
    }
    /* Owner of each sorted token: search each node's tokens. */
    for (size_t i = 0, id = 0; i < tn; i++) {
        tokenring_node_info info;
        tokenring_topology_node(&info, topology, i);
        if (!in_group(&info, datacenter, only_rack, po))
            continue;
        for (size_t j = 0; j < info.token_count; j++) {
            int64_t *hit = bsearch(&info.tokens[j], pairs_t, k, sizeof *pairs_t, tr_cmp_i64);
            m->node[hit - pairs_t] = (uint32_t)id;
        }
        id++;
    }
    for (size_t i = 0; i < k; i++) {
        m->tok[i] = pairs_t[i];
        m->next[i] = (uint32_t)((i + 1) % k);
        m->prev[i] = (uint32_t)((i + k - 1) % k);
    }
    for (size_t i = 0; i < k; i++) {
        m->nnext[i] = m->nfirst[m->node[i]];
        m->nfirst[m->node[i]] = (uint32_t)i;
    }
    m->slots = k;
    m->ring_count = k;
    m->head = k ? 0 : NIL;
    tr_free(pairs_t);
    return 0;
}

/* Phase 3: the planned nodes join the model (no tokens yet), with the scratch the
 * placement needs. TOKENRING_E_NOMEM: out of memory (err not filled). */
static int group_add_planned(plan_state *g, const char *const *racks, size_t count,
                             uint32_t num_tokens, const plan_opts *po)
{
    model *m = &g->m;
    g->planned = tr_calloc(count, sizeof *g->planned);
    g->pslots = tr_calloc(count * (size_t)num_tokens, sizeof *g->pslots);
    g->sc.tmp = tr_calloc((size_t)m->rfcap + 1, sizeof *g->sc.tmp);
    if (!g->planned || !g->pslots || !g->sc.tmp)
        return TOKENRING_E_NOMEM;
    for (size_t i = 0; i < count; i++) {
        uint32_t r = rack_id(&g->rack_names, &g->rack_n, po->simple ? "" : racks[i]);
        if (r == NIL || ensure_racks(m, g->rack_n))
            return TOKENRING_E_NOMEM;
        m->rack_count = (uint32_t)g->rack_n;
        uint32_t id = add_model_node(m, r);
        if (id == NIL)
            return TOKENRING_E_NOMEM;
        g->planned[i] = id;
    }
    if (po->equal_share && m->node_count > count) {
        /* the others' mean token count: an equal share per node */
        double sum = 0;
        for (size_t i = 0; i + count < m->node_count; i++)
            sum += m->nodes[i].tokens;
        m->u_weight = sum / (double)(m->node_count - count);
    }
    return 0;
}

/* Phase 4: each planned node takes its tokens in turn. A status code;
 * TOKENRING_E_NOMEM with err not filled (the caller fills it). */
static int group_place(plan_state *g, uint32_t num_tokens, size_t count,
                       const char *datacenter, const plan_opts *po, tr_progress *pg,
                       tokenring_error *err)
{
    model *m = &g->m;
    for (size_t i = 0; i < count; i++) {
        g->sc.mine = g->pslots + i * num_tokens;
        uint64_t before = pg ? pg->done : 0;
        int prc = po->given ? place_given(m, &g->sc, g->planned[i], num_tokens, po->given,
                                          po->refine_rounds, po->halfway)
                            : place_node(m, &g->sc, g->planned[i], num_tokens, true);
        if (prc < 0)
            return TOKENRING_E_NOMEM;
        if (prc == 2)
            return TOKENRING_E_CANCELLED;
        if (pg)
            pg->done = before + num_tokens; /* evenly spaced nodes report nothing */
        if (prc > 0 && po->given)
            return tr_fail(err, TOKENRING_E_EXISTS, "a given token is already in the ring");
        if (prc > 0) {
            uint32_t placed = m->nodes[g->planned[i]].tokens;
            if (po->placed_out)
                *po->placed_out = placed;
            return tr_fail(err, TOKENRING_E_IMPOSSIBLE,
                           "no room left in datacenter '%s' for %u more tokens: node %zu of "
                           "the plan fits only %u (one per range of the %zu-token ring that "
                           "is not next to its own tokens)",
                           datacenter, num_tokens, i + 1, placed, m->ring_count - placed);
        }
    }
    return TOKENRING_OK;
}

/* Phase 5: joint refinement of every planned token against the final datacenter. A
 * status code; TOKENRING_E_NOMEM with err not filled. */
static int group_refine(plan_state *g, size_t total, tr_progress *pg, tokenring_error *err)
{
    model *m = &g->m;
    recompute_all(m, NIL);
    if (set_targets(m))
        return TOKENRING_E_NOMEM;
    uint64_t base = pg ? pg->total : 0;
    for (int round = 0; round < 2000; round++) {
        if (pg) {
            pg->total = base + (uint64_t)round + 1;
            int rc = tr_progress_report(pg, "token allocation", err);
            if (rc != TOKENRING_OK)
                return rc;
            pg->done++;
        }
        size_t moved = 0;
        for (size_t t = 0; t < total; t++)
            moved += refine_slot(m, g->pslots[t], true);
        if (moved == 0)
            break;
    }
    return TOKENRING_OK;
}

/* Phase 6: each planned node's tokens, ascending, into tokens_out and `shared`.
 * TOKENRING_E_NOMEM: out of memory (err not filled). */
static int group_output(const plan_state *g, int64_t *tokens_out, uint32_t num_tokens,
                        size_t count, tset *shared)
{
    for (size_t i = 0; i < count; i++) {
        int64_t *o = tokens_out + i * num_tokens;
        for (uint32_t t = 0; t < num_tokens; t++)
            o[t] = g->m.tok[g->pslots[i * num_tokens + t]];
        qsort(o, num_tokens, sizeof *o, tr_cmp_i64);
        for (uint32_t t = 0; t < num_tokens; t++)
            if (tset_add(shared, o[t]))
                return TOKENRING_E_NOMEM;
    }
    return 0;
}

/* Plans `count` nodes of one group: the whole datacenter (only_rack NULL) or one rack's
 * own ring (only_rack set, rf 1). `shared` holds tokens planned by earlier groups and
 * receives this group's. */
static int plan_group(int64_t *tokens_out, uint32_t num_tokens,
                      const tokenring_topology *topology, const char *datacenter,
                      const char *only_rack, const char *const *racks, size_t count,
                      int32_t rf, uint32_t flags, uint32_t even_slot, uint32_t even_slots,
                      tset *shared, const plan_opts *po, tr_progress *pg,
                      tokenring_error *err)
{
    plan_state g;
    group_init(&g, rf, even_slot, even_slots, po, pg, err);
    int rc = group_taken(&g, topology, shared);
    if (rc == TOKENRING_OK)
        rc = group_ring(&g, topology, datacenter, only_rack, po, count * (size_t)num_tokens);
    if (rc == TOKENRING_OK)
        rc = group_add_planned(&g, racks, count, num_tokens, po);
    if (rc == TOKENRING_OK)
        rc = group_place(&g, num_tokens, count, datacenter, po, pg, err);
    if (rc == TOKENRING_OK && !(flags & TOKENRING_ALLOCATE_NODE_BY_NODE) &&
        g.m.ring_count >= 3)
        rc = group_refine(&g, count * (size_t)num_tokens, pg, err);
    if (rc == TOKENRING_OK)
        rc = group_output(&g, tokens_out, num_tokens, count, shared);
    if (rc == TOKENRING_E_NOMEM) /* the phases leave it to this one message */
        rc = tr_fail(err, TOKENRING_E_NOMEM, "out of memory in the allocator");
    group_free(&g);
    return rc;
}

int tr_check_plan_shape(tokenring_error *err, uint32_t num_tokens, int32_t rf)
{
    if (num_tokens == 0 || num_tokens > TOKENRING_LAYOUT_MAX_TOKENS)
        return tr_fail(err, TOKENRING_E_RANGE, "num_tokens %u is outside 1..%u", num_tokens,
                       TOKENRING_LAYOUT_MAX_TOKENS);
    if (rf < 1 || rf > TOKENRING_MAX_RF)
        return tr_fail(err, TOKENRING_E_RANGE, "replication factor %d is outside 1..%d", rf,
                       TOKENRING_MAX_RF);
    return TOKENRING_OK;
}

static int allocate_nodes_opts(int64_t *tokens_out, uint32_t num_tokens,
                               const tokenring_topology *topology, const char *datacenter,
                               const char *const *racks, size_t count, int32_t rf,
                               uint32_t flags, const plan_opts *po, tr_progress *pg,
                               tokenring_error *err)
{
    if (topology && tokenring_topology_partitioner(topology) != TOKENRING_PARTITIONER_MURMUR3)
        return tr_fail(err, TOKENRING_E_UNSUPPORTED,
                       "the allocator works on Murmur3 topologies only (so far)");
    if (!tokens_out || !topology || !datacenter || !racks)
        return tr_fail(err, TOKENRING_E_INVAL, "NULL argument to the allocator");
    if (flags & ~TOKENRING_ALLOCATE_NODE_BY_NODE)
        return tr_fail(err, TOKENRING_E_INVAL, "unknown flags 0x%x", flags);
    int rc = tr_check_name(err, "datacenter name", datacenter);
    if (rc != TOKENRING_OK)
        return rc;
    for (size_t i = 0; i < count; i++)
        if ((rc = tr_check_rack_name(err, "rack name", racks[i])) != TOKENRING_OK)
            return rc;
    if (count == 0)
        return tr_fail(err, TOKENRING_E_RANGE, "no node to plan");
    if ((rc = tr_check_plan_shape(err, num_tokens, rf)) != TOKENRING_OK)
        return rc;
    if (pg) {
        pg->total += (uint64_t)count * num_tokens;
        if ((rc = tr_progress_report(pg, "token allocation", err)) != TOKENRING_OK)
            return rc;
    }

    /* Racks of the datacenter once the plan is done. */
    size_t tn = tokenring_topology_node_count(topology), nr = 0;
    const char **rl = tr_calloc(tn + count + 1, sizeof *rl);
    size_t *idx = tr_calloc(count + 1, sizeof *idx);
    const char **gr = tr_calloc(count + 1, sizeof *gr);
    int64_t *buf = tr_calloc(count * (size_t)num_tokens + 1, sizeof *buf);
    tset shared;
    memset(&shared, 0, sizeof shared);
    if (!rl || !idx || !gr || !buf) {
        rc = tr_fail(err, TOKENRING_E_NOMEM, "out of memory in the allocator");
        goto out;
    }
    for (size_t i = 0; i < tn + count; i++) {
        const char *r;
        if (i < tn) {
            tokenring_node_info info;
            tokenring_topology_node(&info, topology, i);
            if (strcmp(info.datacenter, datacenter) != 0)
                continue;
            r = info.rack;
        } else {
            r = racks[i - tn];
        }
        size_t k;
        for (k = 0; k < nr; k++)
            if (strcmp(rl[k], r) == 0)
                break;
        if (k == nr)
            rl[nr++] = r;
    }
    if (rf > 1 && nr == (size_t)rf && !po->simple) {
        /* Exactly rf racks: each rack holds one full copy, so a node's effective ownership
         * is its primary ownership in its rack's own ring. Balance each rack's ring on its
         * own (one replica), the first node of rack i evenly spaced at offset i / rf. */
        for (size_t k = 0; k < nr && rc == TOKENRING_OK; k++) {
            size_t n = 0;
            for (size_t i = 0; i < count; i++)
                if (strcmp(racks[i], rl[k]) == 0) {
                    idx[n] = i;
                    gr[n++] = racks[i];
                }
            if (n == 0)
                continue;
            rc = plan_group(buf, num_tokens, topology, datacenter, rl[k], gr, n, 1, flags,
                            (uint32_t)k, (uint32_t)nr, &shared, po, pg, err);
            for (size_t i = 0; i < n && rc == TOKENRING_OK; i++)
                memcpy(tokens_out + idx[i] * num_tokens, buf + i * num_tokens,
                       num_tokens * sizeof *buf);
        }
    } else {
        rc = plan_group(tokens_out, num_tokens, topology, datacenter, NULL, racks, count, rf,
                        flags, 0, 0, &shared, po, pg, err);
    }
    if (rc == TOKENRING_OK && pg) {
        pg->total = pg->done;
        (void)tr_progress_report(pg, "token allocation", NULL); /* the end: too late to stop */
    }
out:
    tr_free(rl);
    tr_free(idx);
    tr_free(gr);
    tr_free(buf);
    tr_free(shared.keys);
    tr_free(shared.used);
    return rc;
}

int tr_allocate_nodes(int64_t *tokens_out, uint32_t num_tokens,
                      const tokenring_topology *topology, const char *datacenter,
                      const char *const *racks, size_t count, int32_t rf, uint32_t flags,
                      tr_progress *pg, tokenring_error *err)
{
    plan_opts po;
    memset(&po, 0, sizeof po);
    return allocate_nodes_opts(tokens_out, num_tokens, topology, datacenter, racks, count, rf,
                               flags, &po, pg, err);
}

int tr_allocate_join_candidate(int64_t *tokens_out, uint32_t num_tokens,
                               const tokenring_topology *topology, const char *datacenter,
                               const char *rack, int32_t rf, bool simple,
                               bool stop_no_gain, const int64_t *given, int rounds,
                               bool halfway, uint32_t *placed_out, tokenring_error *err)
{
    plan_opts po;
    memset(&po, 0, sizeof po);
    po.given = given;
    po.simple = simple;
    po.equal_share = true;
    po.neutral_fill = true;
    po.stop_no_gain = stop_no_gain;
    po.refine_rounds = rounds;
    po.halfway = halfway;
    po.placed_out = placed_out;
    return allocate_nodes_opts(tokens_out, num_tokens, topology, datacenter, &rack, 1, rf,
                               TOKENRING_ALLOCATE_NODE_BY_NODE, &po, NULL, err);
}

TOKENRING_API int tokenring_allocate_tokens(int64_t *tokens_out, uint32_t num_tokens,
                                            const tokenring_topology *topology,
                                            const char *datacenter, const char *rack,
                                            int32_t rf, uint32_t flags, tokenring_error *err)
{
    if (!rack)
        return tr_fail(err, TOKENRING_E_INVAL, "NULL argument to the allocator");
    if (flags != 0)
        return tr_fail(err, TOKENRING_E_INVAL, "unknown flags 0x%x", flags);
    int rc = tokenring_allocate_nodes(tokens_out, num_tokens, topology, datacenter, &rack, 1,
                                      rf, TOKENRING_ALLOCATE_NODE_BY_NODE, err);
    if (rc != TOKENRING_E_IMPOSSIBLE || num_tokens < 2)
        return rc;
    /* More tokens than the datacenter has useful ranges (a 16-token node joining a
     * single-token datacenter), which Cassandra accepts: the join plan's allocator puts
     * the tokens beyond them where they change nothing. */
    {
        size_t group = 1;
        for (size_t i = 0; i < tokenring_topology_node_count(topology); i++) {
            tokenring_node_info info;
            tokenring_topology_node(&info, topology, i);
            if (info.state != TOKENRING_STATE_JOINING && info.token_count > 0 &&
                strcmp(info.datacenter, datacenter) == 0)
                group++;
        }
        int64_t *alt = tr_calloc(num_tokens, sizeof *alt);
        if (!alt)
            return tr_fail(err, TOKENRING_E_NOMEM, "out of memory in the allocator");
        int jrc = tr_allocate_join_candidate(alt, num_tokens, topology, datacenter, rack,
                                             group <= (size_t)rf ? 1 : rf, false, true, NULL,
                                             0, false, NULL, err);
        if (jrc == TOKENRING_OK) {
            qsort(alt, num_tokens, sizeof *alt, tr_cmp_i64);
            memcpy(tokens_out, alt, num_tokens * sizeof *alt);
        }
        tr_free(alt);
        return jrc;
    }
}

/* tokenring_allocate_nodes() where the batch plan has no room: each node planned by the
 * join plan's allocator on the ring the nodes before it joined (named "(planned node N)"
 * in a private copy of the topology), its tokens ascending. */
static int allocate_nodes_joins(int64_t *tokens_out, uint32_t num_tokens,
                                const tokenring_topology *topology, const char *datacenter,
                                const char *const *racks, size_t count, int32_t rf,
                                tokenring_error *err)
{
    tokenring_topology *work = NULL;
    int64_t *all = tr_calloc(count * (size_t)num_tokens, sizeof *all); /* tokens_out is
                                                                          * left as it was
                                                                          * on failure */
    int rc = all ? tokenring_topology_clone(&work, topology) : TOKENRING_E_NOMEM;
    if (rc != TOKENRING_OK) {
        tr_free(all);
        return tr_fail(err, rc, "out of memory in the allocator");
    }
    size_t group = 1; /* the datacenter's nodes holding ring tokens, the new one included */
    for (size_t i = 0; i < tokenring_topology_node_count(topology); i++) {
        tokenring_node_info info;
        tokenring_topology_node(&info, topology, i);
        if (info.state != TOKENRING_STATE_JOINING && info.token_count > 0 &&
            strcmp(info.datacenter, datacenter) == 0)
            group++;
    }
    for (size_t i = 0; i < count; i++, group++) {
        int64_t *mine = all + i * (size_t)num_tokens;
        rc = tr_allocate_join_candidate(mine, num_tokens, work, datacenter, racks[i],
                                        group <= (size_t)rf ? 1 : rf, false, true, NULL, 0,
                                        false, NULL, err);
        if (rc != TOKENRING_OK)
            break;
        qsort(mine, num_tokens, sizeof *mine, tr_cmp_i64);
        char name[48];
        size_t where, n = i + 1;
        do /* a name no node has */
            snprintf(name, sizeof name, "(planned node %zu)", n++);
        while (tokenring_topology_find_node(&where, work, name) == TOKENRING_OK);
        if ((rc = tokenring_topology_add_node(work, name, datacenter, racks[i], mine, num_tokens,
                                              err)) != TOKENRING_OK)
            break;
    }
    if (rc == TOKENRING_OK)
        memcpy(tokens_out, all, count * (size_t)num_tokens * sizeof *all);
    tokenring_topology_free(work);
    tr_free(all);
    return rc;
}

uint64_t tr_allocate_work(const tokenring_topology *topology, const char *datacenter,
                          uint32_t num_tokens, size_t count, int32_t rf)
{
    uint64_t M = 0, T = num_tokens, R = rf < 1 ? 1 : (uint64_t)rf, nodes = 0;
    for (size_t i = 0; i < tokenring_topology_node_count(topology); i++) {
        tokenring_node_info info;
        tokenring_topology_node(&info, topology, i);
        if (!datacenter || strcmp(info.datacenter, datacenter) == 0) {
            M += info.token_count;
            nodes++;
        }
    }
    uint64_t w = tr_work_mul(64, M);
    for (size_t i = 0; i < count && w != UINT64_MAX; i++, M += T, nodes++) {
        w = tr_work_add(w, tr_work_mul(T + 16, M + T));
        if (nodes < R)
            continue; /* at most rf nodes: evenly spaced tokens, no walk */
        uint64_t walk = 1 + tr_work_mul(R, T) / (M + 1);
        w = tr_work_add(w, tr_work_mul(T, tr_work_mul(walk, walk)));
    }
    return w;
}

TOKENRING_API int tokenring_allocate_nodes_limited(int64_t *tokens_out, uint32_t num_tokens,
                                                   const tokenring_topology *topology,
                                                   const char *datacenter,
                                                   const char *const *racks, size_t count,
                                                   int32_t rf, uint32_t flags,
                                                   tokenring_limits *limits,
                                                   tokenring_error *err)
{
    if (limits)
        limits->estimate = 0;
    if (!tokens_out || !topology || !datacenter || !racks)
        return tr_fail(err, TOKENRING_E_INVAL, "NULL argument to the allocator");
    int rc = tr_check_num_tokens(err, num_tokens, limits);
    if (rc != TOKENRING_OK)
        return rc;
    if (count > 0 && rf >= 1 && rf <= TOKENRING_MAX_RF &&
        (rc = tr_budget_check(limits, tr_allocate_work(topology, datacenter, num_tokens, count, rf),
                              "token allocation", err)) != TOKENRING_OK)
        return rc;
    tr_progress pg = { limits ? limits->progress : NULL, limits ? limits->user : NULL, 0, 0, 0 };
    rc = tr_allocate_nodes(tokens_out, num_tokens, topology, datacenter, racks, count, rf,
                           flags, pg.fn ? &pg : NULL, err);
    if (rc != TOKENRING_E_IMPOSSIBLE || num_tokens < 2)
        return rc;
    /* The plan has no room (more tokens than the datacenter has useful ranges: a
     * single-token datacenter, a new rack's first node), where Cassandra accepts each
     * join: plan the nodes join after join with the join plan's allocator, which puts the
     * tokens beyond the useful ranges where they change nothing. Its work is that of the
     * batch plan's model, node by node (the estimate above bounds it). */
    return allocate_nodes_joins(tokens_out, num_tokens, topology, datacenter, racks, count, rf,
                                err);
}

TOKENRING_API int tokenring_allocate_nodes(int64_t *tokens_out, uint32_t num_tokens,
                                           const tokenring_topology *topology,
                                           const char *datacenter, const char *const *racks,
                                           size_t count, int32_t rf, uint32_t flags,
                                           tokenring_error *err)
{
    return tokenring_allocate_nodes_limited(tokens_out, num_tokens, topology, datacenter, racks,
                                            count, rf, flags, NULL, err);
}

TOKENRING_API int tokenring_allocate_nodes_progress(int64_t *tokens_out, uint32_t num_tokens,
                                                    const tokenring_topology *topology,
                                                    const char *datacenter,
                                                    const char *const *racks, size_t count,
                                                    int32_t rf, uint32_t flags,
                                                    tokenring_progress_fn progress, void *user,
                                                    tokenring_error *err)
{
    tokenring_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.progress = progress;
    lim.user = user;
    return tokenring_allocate_nodes_limited(tokens_out, num_tokens, topology, datacenter, racks,
                                            count, rf, flags, &lim, err);
}
