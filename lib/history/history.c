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
 * START steps change the write placement only. A replica is an endpoint, its range and
 * whether it is full or transient ('3/1'). This file holds the history's state, its
 * steps, the text and the public calls; applying a delta is lib/history/history_delta.c, the
 * concurrent-operations check lib/history/history_concurrent.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history_internal.h"
#include "ring_internal.h"

/* ------------------------------------------------------------------ work */

/* Work units per token of the ring for one replication's phase of a step (two canonical
 * placements, the delta, the owners' sort), calibrated on 40 nodes x 256 tokens
 * (doc/performance.md). */
#define HIST_UNITS_PER_TOKEN 100u

/* A phase of one replication done on a ring of `tokens` tokens: progress. */
static int work_done(tokenring_history *h, size_t tokens, tokenring_error *err)
{
    if (!h->progress)
        return TOKENRING_OK;
    h->progress->done = tr_work_add(h->progress->done,
                                    tr_work_mul(HIST_UNITS_PER_TOKEN, tokens));
    return tr_progress_report(h->progress, "replaying the history", err);
}

/* ------------------------------------------------------------------ canonical */

static int cmp_htok(const void *a, const void *b)
{
    const htok *x = a, *y = b;
    return x->t < y->t ? -1 : x->t > y->t;
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
    return rc == TOKENRING_E_NOMEM ? tr_hist_nomem(err) : rc;
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

/* The ring of a token map and the history node index of each of its nodes: built once
 * per token map, shared by the canonical placements of every replication. */
typedef struct {
    tokenring_ring *ring;
    uint32_t *map;
} hring;

static void hring_free(hring *r)
{
    tokenring_ring_free(r->ring);
    tr_free(r->map);
    memset(r, 0, sizeof *r);
}

static int hring_make(hring *out, const tokenring_history *h, const htok *toks, size_t n,
                      tokenring_error *err)
{
    memset(out, 0, sizeof *out);
    int rc = ring_of(&out->ring, h, toks, n, err);
    if (rc == TOKENRING_OK && !(out->map = node_map(h, out->ring)))
        rc = tr_hist_nomem(err);
    if (rc != TOKENRING_OK)
        hring_free(out);
    return rc;
}

/* The canonical placement of replication repl on the ring R, at the ranges of the tokens
 * cut (sorted, distinct, a superset of the ring's tokens): every range (l, r] gets the
 * walk's replicas of the ring range holding r (of the first token for r == minimum), each
 * marked transient as the walk marks it. The ranges come in order: appended. */
static int canonical(hmap *out, const hring *R, const tokenring_replication *repl,
                     const int64_t *cut, size_t ncut, tokenring_error *err)
{
    memset(out, 0, sizeof *out);
    tokenring_placement *p = NULL;
    int rc = tokenring_placement_build(&p, R->ring, repl, TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC,
                                       err);
    if (rc == TOKENRING_OK && !(out->r = tr_calloc(ncut + 1, sizeof *out->r)))
        rc = tr_hist_nomem(err);
    out->cap = ncut + 1;
    for (size_t i = 0; rc == TOKENRING_OK && i <= ncut; i++) {
        int64_t left = i == 0 ? HMIN : cut[i - 1], right = i == ncut ? HMIN : cut[i];
        if (left == right)
            continue;
        tokenring_replicas rr;
        tokenring_placement_replicas(&rr, p, right == HMIN ? cut[0] : right);
        hrange *hr = &out->r[out->n++];
        hr->left = left;
        hr->right = right;
        hr->cap = rr.count ? rr.count : 1;
        if (!(hr->eps = tr_malloc(hr->cap * sizeof *hr->eps))) {
            rc = tr_hist_nomem(err);
            break;
        }
        for (uint32_t k = 0; k < rr.count; k++)
            hr->eps[k] = R->map[rr.nodes[k]] |
                         (rr.transient && rr.transient[k] ? HEP_TRANSIENT : 0);
        hr->n = rr.count;
    }
    tokenring_placement_free(p);
    if (rc != TOKENRING_OK)
        tr_hist_hmap_free(out);
    return rc;
}

/* Every range's owner first, for the token map toks (each placed replication). */
static void sort_owners(tokenring_history *h, const htok *toks, size_t n)
{
    if (n == 0 || h->collect)
        return;
    for (size_t r = 0; r < h->nrepls; r++) {
        hmap *P = &h->repls[r].reads;
        size_t at = 0; /* the ranges' end tokens increase: a walk over the token map */
        for (size_t i = 0; i < P->n; i++) {
            hrange *pr = &P->r[i];
            int64_t key = pr->right == HMIN ? toks[0].t : pr->right;
            if (pr->right == HMIN || (at > 0 && toks[at - 1].t >= key))
                at = 0;
            while (at < n && toks[at].t < key)
                at++;
            if (at == n || toks[at].t != key)
                continue;
            uint32_t owner = toks[at].node;
            for (uint32_t j = 1; j < pr->n; j++)
                if (HEP_NODE(pr->eps[j]) == owner) {
                    uint32_t e = pr->eps[j];
                    memmove(pr->eps + 1, pr->eps, j * sizeof *pr->eps);
                    pr->eps[0] = e;
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
static int phase(tokenring_history *h, const htok *fa, size_t na, const htok *ca, size_t nca,
                 const htok *fb, size_t nb, const htok *cb, size_t ncb, bool merged,
                 tokenring_error *err)
{
    int64_t *cuta = token_list(ca, nca), *cutb = token_list(cb, ncb);
    int rc = cuta && cutb ? TOKENRING_OK : tr_hist_nomem(err);
    hring ra = { 0 }, rb = { 0 };
    bool same = fa == fb && na == nb;
    if (rc == TOKENRING_OK)
        rc = hring_make(&ra, h, fa, na, err);
    if (rc == TOKENRING_OK && !same)
        rc = hring_make(&rb, h, fb, nb, err);
    for (size_t r = 0; rc == TOKENRING_OK && r < h->nrepls; r++) {
        hrepl *hr = &h->repls[r];
        if (!hr->placed)
            continue;
        hmap a, b;
        rc = canonical(&a, &ra, hr->repl, cuta, nca, err);
        if (rc != TOKENRING_OK)
            break;
        rc = canonical(&b, same ? &ra : &rb, hr->repl, cutb, ncb, err);
        if (rc == TOKENRING_OK)
            rc = h->collect ? tr_hist_collect_locks(h->collect, r, &a, &b, err)
                            : tr_hist_apply_delta(h, &hr->reads, &a, &b, merged, err);
        tr_hist_hmap_free(&a);
        tr_hist_hmap_free(&b);
        if (rc == TOKENRING_OK)
            rc = work_done(h, na > nb ? na : nb, err);
    }
    hring_free(&ra);
    hring_free(&rb);
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
    int rc = cut ? TOKENRING_OK : tr_hist_nomem(err);
    hring R = { 0 };
    if (rc == TOKENRING_OK)
        rc = hring_make(&R, h, h->toks, h->ntoks, err);
    for (size_t r = 0; rc == TOKENRING_OK && r < h->nrepls; r++) {
        if (h->repls[r].placed)
            continue;
        rc = canonical(&h->repls[r].reads, &R, h->repls[r].repl, cut, h->ntoks, err);
        h->repls[r].placed = rc == TOKENRING_OK;
        if (rc == TOKENRING_OK)
            rc = work_done(h, h->ntoks, err);
    }
    hring_free(&R);
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
        return tr_hist_nomem(err);
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
        return tr_hist_nomem(err);
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
        return tr_hist_nomem(err);
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
        return tr_hist_nomem(err);
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

/* Splits a line into at most max blank-separated fields; returns their count. */
size_t tr_hist_fields(const char *s, size_t len, field *f, size_t max)
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

bool tr_hist_is(const field *f, const char *word)
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

/* Whether a replication has transient replicas ('3/1', 'dc1': '3/1'). */
static bool repl_transient(const tokenring_replication *r)
{
    bool t = r->transient > 0;
    for (size_t k = 0; k < r->dc_count; k++)
        t |= r->dcs[k].transient > 0;
    return t;
}

/* 6.0-alpha2 builds every keyspace's strategy on every node, and ReplicationFactor.validate
 * refuses transient replicas on a node whose num_tokens is not 1: a transient keyspace and
 * a node of several tokens cannot be in one cluster. */
#define TRANSIENT_VNODES "Cassandra 6.0 refuses transient replicas with several tokens a " \
                         "node (ReplicationFactor.validate: \"Transient nodes are not allowed " \
                         "with multiple tokens\"; num_tokens must be 1)"

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
        tr_hist_hmap_free(&h->repls[r].reads);
    }
    tr_free(h->repls);
    for (size_t k = 0; k < h->nks; k++)
        tr_free(h->ks[k].name);
    tr_free(h->ks);
    tr_free(h->toks);
    tokenring_ring_free(h->ring);
    tr_free(h);
}

char *tr_hist_repl_key(const tokenring_replication *r)
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
    char *key = tr_hist_repl_key(r);
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
    tr_hist_hmap_free(&h->repls[i].reads);
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
                return tr_hist_nomem(err);
            }
            h->ks = m;
            h->capk = cap;
        }
        char *copy = tr_malloc(n + 1);
        if (!copy) {
            tokenring_replication_free(r);
            return tr_hist_nomem(err);
        }
        memcpy(copy, name, n);
        copy[n] = '\0';
        h->ks[h->nks] = (hks){ copy, SIZE_MAX };
        k = h->nks++;
    }
    size_t at, old = h->ks[k].repl;
    if (add_repl(h, r, &at) != TOKENRING_OK)
        return tr_hist_nomem(err);
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
            return tr_hist_nomem(err);
        h->nodes = n;
        h->capn = cap;
    }
    hnode nd = { dup_field(&f[1]), dup_field(&f[2]), dup_field(&f[3]), jh };
    if (!nd.name || !nd.dc || !nd.rack) {
        tr_free(nd.name);
        tr_free(nd.dc);
        tr_free(nd.rack);
        return tr_hist_nomem(err);
    }
    h->nodes[h->nnodes++] = nd;
    return TOKENRING_OK;
}

/* One step (a line of fields f[0..nf)); line for messages. */
int tr_hist_run_step(tokenring_history *h, field *f, size_t nf, uint32_t line,
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
    while (s < sizeof steps / sizeof steps[0] && !tr_hist_is(&f[0], steps[s].verb))
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
        if (repl_transient(r))
            for (size_t i = 0; i + 1 < h->ntoks; i++)
                for (size_t j = i + 1; j < h->ntoks; j++)
                    if (h->toks[j].node == h->toks[i].node) {
                        tokenring_replication_free(r);
                        return tr_fail_at(err, TOKENRING_E_UNSUPPORTED, line, COL(2),
                                          "keyspace %.*s: node %s has several tokens: "
                                          TRANSIENT_VNODES, (int)f[1].n, f[1].p,
                                          h->nodes[h->toks[i].node].name);
                    }
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
        return tr_hist_nomem(err);
    if (rc != TOKENRING_OK)
        return tr_fail_at(err, rc, line, COL(2) + (uint32_t)bad,
                          "bad token (a Murmur3 token above the minimum %lld)",
                          (long long)HMIN);
    if (s == 5 && nt != 1)
        rc = tr_fail_at(err, TOKENRING_E_PARSE, line, COL(2), "move takes one token, not %zu",
                        nt);
    for (size_t r = 0; rc == TOKENRING_OK && nt > 1 && r < h->nrepls; r++)
        if (repl_transient(h->repls[r].repl))
            rc = tr_fail_at(err, TOKENRING_E_UNSUPPORTED, line, COL(2),
                            "node %.*s joins with %zu tokens, and a keyspace has transient "
                            "replicas (%s): " TRANSIENT_VNODES,
                            (int)f[1].n, f[1].p, nt, h->repls[r].key);
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

/* The replay's work, an upper bound read from the text before it starts: per step, its
 * phases times the replications known then (3 system ones and every keyspace line) times
 * the ring's tokens (every token a join names, never fewer after a leave). */
static uint64_t replay_estimate(const char *text, size_t len)
{
    uint64_t work = len, toks = 0, repls = 3;
    for (size_t i = 0; i < len;) {
        size_t e = i;
        while (e < len && text[e] != '\n')
            e++;
        field f[3];
        size_t nf = tr_hist_fields(text + i, e - i, f, 3);
        uint64_t phases = 0;
        if (nf == 0 || f[0].p[0] == '#') {
        } else if (tr_hist_is(&f[0], "keyspace")) {
            repls++;
            phases = toks ? 1 : 0;
        } else if ((tr_hist_is(&f[0], "join") || tr_hist_is(&f[0], "unsafe_join")) && nf >= 3) {
            uint64_t n = 1;
            for (size_t k = 0; k < f[2].n; k++)
                n += f[2].p[k] == ',';
            phases = toks ? 2 : 1;
            toks += n;
        } else if (tr_hist_is(&f[0], "move")) {
            toks++;
            phases = 3;
        } else if (tr_hist_is(&f[0], "leave")) {
            phases = 2;
        } else if (tr_hist_is(&f[0], "replace")) {
            phases = 1;
        }
        work = tr_work_add(work, tr_work_mul(tr_work_mul(phases, repls),
                                             tr_work_mul(toks, HIST_UNITS_PER_TOKEN)));
        i = e + 1;
    }
    return work;
}

TOKENRING_API int tokenring_history_replay_limited(tokenring_history **out, const char *text,
                                                   size_t len, tokenring_limits *limits,
                                                   tokenring_error *err)
{
    if (limits)
        limits->estimate = 0;
    if (out == NULL || (text == NULL && len > 0))
        return tr_fail(err, TOKENRING_E_INVAL, "%s is NULL", !out ? "out" : "text");
    uint64_t estimate = replay_estimate(text, len);
    int rc = tr_budget_check(limits, estimate, "replaying the history", err);
    if (rc != TOKENRING_OK)
        return rc;
    tr_progress pg = { limits ? limits->progress : NULL, limits ? limits->user : NULL, 0,
                       estimate, 0 };
    rc = tr_progress_report(&pg, "replaying the history", err);
    if (rc != TOKENRING_OK)
        return rc;
    tokenring_history *h = tr_calloc(1, sizeof *h);
    if (!h)
        return tr_hist_nomem(err);
    h->progress = pg.fn ? &pg : NULL;
    /* 6.0's distributed system keyspaces, with their replication at creation */
    static const char *const sys[] = { "system_auth", "system_traces", "system_distributed" };
    static const char *const sysr[] = { "1", "2", "3" };
    for (size_t i = 0; rc == TOKENRING_OK && i < 3; i++) {
        tokenring_replication *r = NULL;
        rc = tokenring_replication_parse(&r, sysr[i], 1, NULL);
        if (rc == TOKENRING_OK)
            rc = set_keyspace(h, sys[i], strlen(sys[i]), r, err);
    }
    if (rc != TOKENRING_OK)
        rc = tr_hist_nomem(err);
    uint32_t line = 0;
    for (size_t i = 0; rc == TOKENRING_OK && i < len;) {
        size_t e = i;
        while (e < len && text[e] != '\n')
            e++;
        line++;
        field f[5];
        size_t nf = tr_hist_fields(text + i, e - i, f, 5);
        if (nf > 0 && f[0].p[0] != '#')
            rc = tr_hist_run_step(h, f, nf, line, err);
        i = e + 1;
    }
    if (rc == TOKENRING_OK && h->ntoks)
        rc = ring_of(&h->ring, h, h->toks, h->ntoks, err);
    if (rc == TOKENRING_OK && pg.fn) {
        pg.done = pg.total = estimate > pg.done ? estimate : pg.done;
        rc = tr_progress_report(&pg, "replaying the history", err);
    }
    h->progress = NULL;
    if (rc != TOKENRING_OK) {
        history_destroy(h);
        return rc;
    }
    *out = h;
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_history_replay(tokenring_history **out, const char *text,
                                           size_t len, tokenring_error *err)
{
    return tokenring_history_replay_limited(out, text, len, NULL, err);
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
    char *key = tr_hist_repl_key(replication);
    if (!key)
        return tr_hist_nomem(err);
    const hmap *P = NULL;
    for (size_t r = 0; r < h->nrepls && !P; r++)
        if (strcmp(h->repls[r].key, key) == 0)
            P = &h->repls[r].reads;
    tr_free(key);
    hmap fresh = { 0 };
    int rc = TOKENRING_OK;
    if (!P) { /* as a CREATE KEYSPACE would place it now: canonical, owners first */
        int64_t *cut = token_list(h->toks, h->ntoks);
        hring R = { 0 };
        rc = cut ? hring_make(&R, h, h->toks, h->ntoks, err) : tr_hist_nomem(err);
        if (rc == TOKENRING_OK)
            rc = canonical(&fresh, &R, replication, cut, h->ntoks, err);
        hring_free(&R);
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
    uint8_t *flags = tr_calloc(total ? total : 1, 1);
    uint32_t *to_ring = tr_malloc((h->nnodes ? h->nnodes : 1) * sizeof *to_ring);
    if (!off || !nodes || !flags || !to_ring)
        rc = tr_hist_nomem(err);
    if (rc == TOKENRING_OK) {
        for (size_t v = 0; v < h->nnodes; v++) {
            uint32_t idx = UINT32_MAX;
            tokenring_ring_find_node(&idx, h->ring, h->nodes[v].name);
            to_ring[v] = idx;
        }
        size_t at = 0, pc = 0;
        bool transient = false;
        for (size_t i = 0; i < n; i++) {
            int64_t left = i == 0 ? HMIN : h->toks[i - 1].t;
            const hrange *pr = tr_hist_seek(P, &pc, left, h->toks[i].t);
            off[i] = (uint32_t)at;
            for (uint32_t k = 0; pr && k < pr->n; k++) {
                transient |= (flags[at] = (pr->eps[k] & HEP_TRANSIENT) != 0);
                nodes[at++] = to_ring[HEP_NODE(pr->eps[k])];
            }
        }
        off[n] = (uint32_t)at;
        /* (t_{n-1}, min]: 6.0 keeps it apart from (min, t_0], possibly in another order */
        const hrange *up = tr_hist_hmap_lookup(P, h->toks[n - 1].t, HMIN);
        uint32_t *upper = nodes + at;
        uint8_t *upper_flags = flags + at;
        uint32_t nup = 0;
        for (uint32_t k = 0; up && k < up->n; k++) {
            transient |= (upper_flags[nup] = (up->eps[k] & HEP_TRANSIENT) != 0);
            upper[nup++] = to_ring[HEP_NODE(up->eps[k])];
        }
        rc = tr_placement_from_rows(out, h->ring, replication, off, nodes, upper, nup,
                                    transient ? flags : NULL, transient ? upper_flags : NULL,
                                    TOKENRING_ORDER_HISTORY, err);
        if (rc == TOKENRING_E_NOMEM)
            rc = tr_hist_nomem(err);
    }
    tr_free(off);
    tr_free(nodes);
    tr_free(flags);
    tr_free(to_ring);
    tr_hist_hmap_free(&fresh);
    return rc;
}
