/* SPDX-License-Identifier: Apache-2.0 */
/* Availability analysis: the sets of k failed nodes that break a consistency level
 * (include/tokenring/availability.h). Works on the placement's distinct replica sets. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "token.h"
#include "tokenring/availability.h"


#define NONE UINT32_MAX
#define KMAX TOKENRING_AVAILABILITY_MAX_K

/* ------------------------------------------------------------- hash map */

/* Key: (class, up to KMAX ascending node ids padded with NONE). */
typedef struct akey {
    uint32_t cls;
    uint32_t n[KMAX];
} akey;

typedef struct aslot {
    akey key;
    tr_u128 value;
    uint8_t used;
} aslot;

typedef struct amap {
    aslot *slots;
    size_t cap, count; /* cap: power of two */
} amap;

static uint64_t akey_hash(const akey *k)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ k->cls;
    for (unsigned i = 0; i < KMAX; i++) {
        h ^= k->n[i];
        h *= 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    return h;
}

static bool akey_eq(const akey *a, const akey *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

static int amap_grow(amap *m)
{
    size_t nc = m->cap ? m->cap * 2 : 1024;
    aslot *ns = tr_calloc(nc, sizeof *ns);
    if (!ns)
        return -1;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->slots[i].used)
            continue;
        size_t j = akey_hash(&m->slots[i].key) & (nc - 1);
        while (ns[j].used)
            j = (j + 1) & (nc - 1);
        ns[j] = m->slots[i];
    }
    tr_free(m->slots);
    m->slots = ns;
    m->cap = nc;
    return 0;
}

/* Returns the slot for `k`, inserting it (value 0) if absent; NULL on NOMEM. */
static aslot *amap_put(amap *m, const akey *k)
{
    if ((m->count + 1) * 4 > m->cap * 3 && amap_grow(m))
        return NULL;
    size_t j = akey_hash(k) & (m->cap - 1);
    while (m->slots[j].used) {
        if (akey_eq(&m->slots[j].key, k))
            return &m->slots[j];
        j = (j + 1) & (m->cap - 1);
    }
    m->slots[j].used = 1;
    m->slots[j].key = *k;
    m->slots[j].value = 0;
    m->count++;
    return &m->slots[j];
}

static const aslot *amap_get(const amap *m, const akey *k)
{
    if (!m->cap)
        return NULL;
    size_t j = akey_hash(k) & (m->cap - 1);
    while (m->slots[j].used) {
        if (akey_eq(&m->slots[j].key, k))
            return &m->slots[j];
        j = (j + 1) & (m->cap - 1);
    }
    return NULL;
}

/* -------------------------------------------------------------- the rules */

/* A class of replica sets: its number of replicas in each datacenter of the ring. Sets
 * of one class fail under exactly the same failure patterns (given the failed nodes'
 * datacenters). */
typedef struct rules {
    int cl;
    uint32_t dc_count;
    uint32_t local;       /* ring dc index for LOCAL_* */
    int64_t need_total;   /* ONE, TWO, THREE, QUORUM, ALL */
    int32_t *need_dc;     /* EACH_QUORUM (0: no requirement), LOCAL_*: at local */
} rules;

/* Does a set with per-dc replica counts `cnt` fail when the failed replicas among it have
 * per-dc counts `fail`? */
static bool fails(const rules *r, const uint32_t *cnt, const uint32_t *fail)
{
    switch (r->cl) {
    case TOKENRING_CL_LOCAL_ONE:
    case TOKENRING_CL_LOCAL_QUORUM:
        return (int32_t)(cnt[r->local] - fail[r->local]) < r->need_dc[r->local];
    case TOKENRING_CL_EACH_QUORUM:
        for (uint32_t d = 0; d < r->dc_count; d++)
            if ((int32_t)(cnt[d] - fail[d]) < r->need_dc[d])
                return true;
        return false;
    default: {
        int64_t alive = 0;
        for (uint32_t d = 0; d < r->dc_count; d++)
            alive += (int64_t)cnt[d] - fail[d];
        return alive < r->need_total;
    }
    }
}

/* ----------------------------------------------------------------- result */

struct tokenring_availability {
    uint32_t k;
    size_t count;
    uint32_t *nodes; /* count * k */
    tr_u128 *widths;
    tr_u128 space;      /* the whole ring in the widths' units (ring_space()) */
};

TOKENRING_API void tokenring_availability_free(tokenring_availability *a)
{
    if (!a)
        return;
    tr_free(a->nodes);
    tr_free(a->widths);
    tr_free(a);
}

TOKENRING_API size_t tokenring_availability_count(const tokenring_availability *a)
{
    return a ? a->count : 0;
}

TOKENRING_API int tokenring_availability_get(uint32_t *nodes_out, tokenring_u128 *width_out,
                                             double *fraction_out,
                                             const tokenring_availability *a, size_t index)
{
    if (!nodes_out || !a)
        return TOKENRING_E_INVAL;
    if (index >= a->count)
        return TOKENRING_E_RANGE;
    memcpy(nodes_out, a->nodes + index * a->k, a->k * sizeof *nodes_out);
    tr_u128 w = a->widths[index];
    if (width_out) {
        width_out->hi = (uint64_t)(w >> 64);
        width_out->lo = (uint64_t)w;
    }
    if (fraction_out)
        *fraction_out = (double)((long double)w / (long double)a->space);
    return TOKENRING_OK;
}

/* ------------------------------------------------------------------ build */

/* The width of range i in the ring's own units: Murmur3 over 2^64, RandomPartitioner over
 * 2^127 (describeOwnership's widths), and one per range on a ByteOrderedPartitioner ring,
 * whose tokens have no width (the design in doc/partitioners.md). The sets failing and
 * their order do not depend on it: they follow the ring's order alone. */
static tr_u128 range_width(const tokenring_ring *ring, size_t i)
{
    const tr_partitioner_ops *o = tr_ops(tokenring_ring_partitioner(ring));
    if (o->width_bits == 0) /* no token arithmetic (ByteOrdered): one per range */
        return 1;
    size_t n = 0;
    tokenring_ring_tokens(ring, &n);
    tr_tok from = tr_ring_token(ring, i == 0 ? n - 1 : i - 1), to = tr_ring_token(ring, i);
    return o->size(&from, &to);
}

/* Range i as "(start, end]" for an error message: Murmur3 and RandomPartitioner tokens in
 * their text form; a ByteOrderedPartitioner range by its number (its tokens can be long). */
static void range_text(char *buf, size_t cap, const tokenring_ring *ring, size_t i)
{
    const tr_partitioner_ops *o = tr_ops(tokenring_ring_partitioner(ring));
    if (o->width_bits == 0) {
        snprintf(buf, cap, "number %zu (ending at ring token %zu)", i, i);
        return;
    }
    size_t n = 0, len;
    tokenring_ring_tokens(ring, &n);
    tr_tok from = tr_ring_token(ring, i == 0 ? n - 1 : i - 1), to = tr_ring_token(ring, i);
    char a[TOKENRING_TOKEN128_TEXT_MAX], b[TOKENRING_TOKEN128_TEXT_MAX]; /* both forms fit */
    o->format(a, sizeof a, &len, &from);
    o->format(b, sizeof b, &len, &to);
    snprintf(buf, cap, "(%s, %s]", a, b);
}

/* The whole ring in range_width()'s units: the denominator of every fraction. */
static tr_u128 ring_space(const tokenring_ring *ring)
{
    size_t ranges;
    tokenring_ring_tokens(ring, &ranges);
    unsigned bits = tr_ops(tokenring_ring_partitioner(ring))->width_bits;
    if (bits == 0)
        return ranges ? ranges : 1;
    return (tr_u128)1 << bits;
}

static const char *cl_name(int cl)
{
    static const char *const names[] = { "?", "ONE", "TWO", "THREE", "QUORUM", "ALL",
                                         "LOCAL_ONE", "LOCAL_QUORUM", "EACH_QUORUM" };
    return cl >= 1 && cl <= 8 ? names[cl] : "?";
}

typedef struct ctx {
    const rules *r;
    const uint32_t *node_dc;
    uint32_t dc_count;
    uint32_t **class_cnt; /* per class: dc counts */
    size_t class_count;
    amap sums;            /* (class, subset) -> total width of the sets containing it */
    amap cands;           /* (0, failure set) -> unused */
    uint32_t k, n;
    const uint8_t *down;  /* node -> down already (never part of a candidate) */
    tr_progress *pg;      /* the caller's progress callback, or NULL */
    tokenring_error *err;
} ctx;

static void sort_small(uint32_t *v, unsigned n)
{
    for (unsigned i = 1; i < n; i++)
        for (unsigned j = i; j > 0 && v[j - 1] > v[j]; j--) {
            uint32_t t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
}

static akey make_key(uint32_t cls, const uint32_t *nodes, unsigned n)
{
    akey k;
    k.cls = cls;
    for (unsigned i = 0; i < KMAX; i++)
        k.n[i] = i < n ? nodes[i] : NONE;
    sort_small(k.n, n);
    return k;
}

/* Does failing exactly `sub` (|sub| = m) inside a set of class `cls` break it? */
static bool sub_fails(const ctx *c, uint32_t cls, const uint32_t *sub, unsigned m)
{
    uint32_t fail[64];
    uint32_t *f = fail;
    uint32_t *heap = NULL;
    if (c->dc_count > 64) {
        heap = tr_calloc(c->dc_count, sizeof *heap);
        if (!heap)
            return false;
        f = heap;
    } else {
        memset(fail, 0, sizeof fail);
    }
    for (unsigned i = 0; i < m; i++)
        f[c->node_dc[sub[i]]]++;
    bool res = fails(c->r, c->class_cnt[cls], f);
    tr_free(heap);
    return res;
}

/* Adds every completion of `base` (m nodes) to k nodes as a candidate. */
static int add_completions(ctx *c, const uint32_t *base, unsigned m)
{
    uint32_t f[KMAX];
    memcpy(f, base, m * sizeof *f);
    unsigned need = c->k - m;
    if (need == 0) {
        akey key = make_key(0, f, c->k);
        return amap_put(&c->cands, &key) ? 0 : -1;
    }
    /* Enumerate combinations of `need` nodes from 0..n-1 not in base, ascending. */
    uint32_t idx[KMAX];
    for (unsigned i = 0; i < need; i++)
        idx[i] = i;
    for (;;) {
        bool clash = false;
        for (unsigned i = 0; i < need && !clash; i++)
            clash = c->down[idx[i]] != 0;
        for (unsigned i = 0; i < need && !clash; i++)
            for (unsigned j = 0; j < m; j++)
                if (idx[i] == base[j])
                    clash = true;
        if (!clash) {
            for (unsigned i = 0; i < need; i++)
                f[m + i] = idx[i];
            akey key = make_key(0, f, c->k);
            if (!amap_put(&c->cands, &key))
                return -1;
        }
        int i = (int)need - 1;
        while (i >= 0 && idx[i] == c->n - need + (unsigned)i)
            i--;
        if (i < 0)
            break;
        idx[i]++;
        for (unsigned j = (unsigned)i + 1; j < need; j++)
            idx[j] = idx[j - 1] + 1;
        if (c->pg) {
            if (tr_progress_tick(c->pg, "availability analysis", c->err) != TOKENRING_OK)
                return TOKENRING_E_CANCELLED;
        }
    }
    return 0;
}

/* Unavailable width of candidate failure set f (k nodes, ascending). Unsigned arithmetic
 * modulo 2^128: the inclusion-exclusion terms and partial sums may leave 0 .. 2^127 (a
 * RandomPartitioner width reaches 2^127, beyond a signed 128-bit integer), the result,
 * a width of the ring, does not. */
static tr_u128 eval_candidate(const ctx *c, const uint32_t *f)
{
    unsigned k = c->k, full = (1u << k) - 1;
    tr_u128 total = 0;
    for (size_t cls = 0; cls < c->class_count; cls++) {
        /* A[mask] = width of sets of this class containing the nodes of mask. */
        tr_u128 A[1 << KMAX];
        for (unsigned mask = 1; mask <= full; mask++) {
            uint32_t sub[KMAX];
            unsigned m = 0;
            for (unsigned i = 0; i < k; i++)
                if (mask & (1u << i))
                    sub[m++] = f[i];
            akey key = make_key((uint32_t)cls, sub, m);
            const aslot *s = amap_get(&c->sums, &key);
            A[mask] = s ? s->value : 0;
        }
        for (unsigned mask = 1; mask <= full; mask++) {
            if (A[mask] == 0)
                continue;
            uint32_t sub[KMAX];
            unsigned m = 0;
            for (unsigned i = 0; i < k; i++)
                if (mask & (1u << i))
                    sub[m++] = f[i];
            if (!sub_fails(c, (uint32_t)cls, sub, m))
                continue;
            /* Sets meeting f in exactly `mask`: inclusion-exclusion over supersets. */
            tr_u128 e = 0;
            for (unsigned sup = mask; sup <= full; sup = (sup + 1) | mask) {
                int extra = __builtin_popcount(sup & ~mask);
                e = (extra & 1) ? e - A[sup] : e + A[sup];
                if (sup == full)
                    break;
            }
            total += e;
        }
    }
    return total;
}

static int cmp_tuple(const void *a, const void *b)
{
    const uint32_t *x = a, *y = b;
    for (uint32_t i = 0; i < KMAX; i++) {
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    }
    return 0;
}

/* Fills the rules of `consistency` (r->need_dc holds dc_count + 1 zeroed entries). The
 * factors are summed in 64 bits: replication factors go up to
 * TOKENRING_MAX_REPLICATION_FACTOR. */
static int make_rules(rules *r, const tokenring_ring *ring,
                      const tokenring_replication *replication, int consistency,
                      const char *local_dc, tokenring_error *err)
{
    uint32_t dcn = r->dc_count;
    bool local = consistency == TOKENRING_CL_LOCAL_ONE ||
                 consistency == TOKENRING_CL_LOCAL_QUORUM;
    int64_t total_rf = 0;
    int strategy = tokenring_replication_strategy(replication);
    size_t entries = strategy == TOKENRING_SIMPLE ? 1 : tokenring_replication_dc_count(replication);
    for (size_t i = 0; i < entries; i++) {
        const char *dname = NULL;
        int32_t rf = 0, tr = 0;
        tokenring_replication_get(&dname, &rf, &tr, replication, i);
        total_rf += rf;
        if (strategy == TOKENRING_SIMPLE) {
            for (uint32_t d = 0; d < dcn; d++)
                r->need_dc[d] = consistency == TOKENRING_CL_LOCAL_ONE ? 1 : rf / 2 + 1;
            continue;
        }
        for (uint32_t d = 0; d < dcn; d++)
            if (rf > 0 && strcmp(tokenring_ring_dc_name(ring, d), dname) == 0)
                r->need_dc[d] = consistency == TOKENRING_CL_LOCAL_ONE ? 1 : rf / 2 + 1;
    }
    if (strategy == TOKENRING_SIMPLE && consistency == TOKENRING_CL_EACH_QUORUM)
        r->cl = TOKENRING_CL_QUORUM; /* no datacenters to be each-quorum in */
    switch (consistency) {
    case TOKENRING_CL_ONE: r->need_total = 1; break;
    case TOKENRING_CL_TWO: r->need_total = 2; break;
    case TOKENRING_CL_THREE: r->need_total = 3; break;
    case TOKENRING_CL_QUORUM:
    case TOKENRING_CL_EACH_QUORUM: r->need_total = total_rf / 2 + 1; break;
    case TOKENRING_CL_ALL: r->need_total = total_rf; break;
    default: break;
    }
    if (local) {
        uint32_t d;
        for (d = 0; d < dcn; d++)
            if (strcmp(tokenring_ring_dc_name(ring, d), local_dc) == 0)
                break;
        if (d == dcn) {
            return tr_fail(err, TOKENRING_E_NOTFOUND, "local datacenter '%s' has no node",
                         local_dc);
        }
        r->local = d;
        if (r->need_dc[d] == 0) {
            return tr_fail(err, TOKENRING_E_IMPOSSIBLE,
                         "%s: the replication has no replica in local datacenter '%s'",
                         cl_name(consistency), local_dc);
        }
    }
    return TOKENRING_OK;
}

/* Replicas per range, at most: the sum of the factors, capped by the node count. */
static uint64_t replicas_per_range(const tokenring_ring *ring,
                                   const tokenring_replication *replication)
{
    int strategy = tokenring_replication_strategy(replication);
    size_t entries = strategy == TOKENRING_SIMPLE ? 1 : tokenring_replication_dc_count(replication);
    uint64_t total = 0, n = tokenring_ring_node_count(ring);
    for (size_t i = 0; i < entries; i++) {
        const char *dname = NULL;
        int32_t rf = 0, tr = 0;
        tokenring_replication_get(&dname, &rf, &tr, replication, i);
        total += rf > 0 ? (uint64_t)rf : 0;
    }
    return total < n ? total : n;
}

/* The cost models (work units, about 5 ns each; doc/performance.md). Building the
 * placement and reading its sets costs about 64 units per replica of a range. */
static uint64_t setup_work(const tokenring_ring *ring, uint64_t R)
{
    size_t ranges = 0;
    tokenring_ring_tokens(ring, &ranges);
    return tr_work_mul(64, tr_work_mul((uint64_t)ranges + 1, R + 1));
}

/* The k-list: every subset of at most k replicas of every range (2^R of them), then each
 * failing subset of m < k nodes completed by every choice of k - m other nodes, each
 * candidate weighed over its 2^k subsets. */
static uint64_t list_work(const tokenring_ring *ring, const tokenring_replication *repl,
                          uint32_t k, uint64_t n)
{
    uint64_t R = replicas_per_range(ring, repl);
    size_t ranges = 0;
    tokenring_ring_tokens(ring, &ranges);
    uint64_t w = setup_work(ring, R);
    uint64_t subsets = 0;
    for (uint32_t m = 1; m <= k; m++)
        subsets = tr_work_add(subsets, tr_work_binom(R, m));
    w = tr_work_add(w, tr_work_mul(16, tr_work_mul(ranges, subsets)));
    for (uint32_t m = 1; m < k; m++)
        w = tr_work_add(w, tr_work_mul(tr_work_mul(ranges, tr_work_binom(R, m)),
                                       tr_work_mul(8u << k, tr_work_binom(n, k - m))));
    return w;
}

/* The summary's walk: every unit set of at most k - 1 units (k for racks and
 * datacenters, whose last level is walked too) fails and recovers its units, each node
 * change touching the node's replica sets (and, for single nodes, the sets' members
 * that become critical); single nodes then scan the last unit of every k-set. An upper
 * bound: sets that already break are pruned by the walk. */
static uint64_t summary_work(const tokenring_ring *ring, const tokenring_replication *repl,
                             int cl, bool single, uint64_t U, uint64_t n_live, uint32_t k,
                             size_t top_n)
{
    uint64_t R = replicas_per_range(ring, repl), n = tokenring_ring_node_count(ring);
    /* A level that one failed replica breaks (ALL, or a level needing every replica of
     * a range): every unit breaks at once and the count needs no walk. */
    uint64_t need = cl == TOKENRING_CL_ONE ? 1 : cl == TOKENRING_CL_TWO ? 2
                    : cl == TOKENRING_CL_THREE ? 3 : cl == TOKENRING_CL_QUORUM ? R / 2 + 1
                    : cl == TOKENRING_CL_ALL ? R : 0;
    bool any_breaks = need > 0 && R <= need;
    size_t ranges = 0;
    tokenring_ring_tokens(ring, &ranges);
    uint64_t spn = (tr_work_mul(ranges, R) + n - 1) / (n ? n : 1); /* sets per node */
    uint64_t per_node = tr_work_mul(spn + 1, single ? 2 + 2 * R : 2);
    uint64_t nodes_per_unit = U ? (n_live + U - 1) / U : 1;
    uint64_t per_unit = tr_work_mul(2, tr_work_mul(per_node, nodes_per_unit ? nodes_per_unit : 1));
    uint64_t prefixes = 0;
    if (any_breaks && top_n == 0)
        prefixes = U; /* every unit breaks a set at once: nothing below it is walked */
    else
        for (uint32_t j = 1; j <= (single ? k - 1 : k); j++)
            prefixes = tr_work_add(prefixes, tr_work_binom(U, j));
    uint64_t w = tr_work_add(setup_work(ring, R), tr_work_mul(prefixes, per_unit));
    if (single && !(any_breaks && top_n == 0))
        w = tr_work_add(w, tr_work_mul(top_n ? 2 : 1, tr_work_binom(U, k)));
    return w;
}

/* Checks the nodes already down of `lim` (failed_nodes, failed_count) against a ring of n
 * nodes. */
static int check_down(const tokenring_limits *lim, size_t n, tokenring_error *err)
{
    size_t nfailed = lim->failed_count;
    if (nfailed && !lim->failed_nodes)
        return tr_fail(err, TOKENRING_E_INVAL, "failed_count is %zu but failed_nodes is NULL",
                       nfailed);
    if (nfailed > n)
        return tr_fail(err, TOKENRING_E_RANGE, "%zu failed nodes, but the ring has %zu nodes",
                       nfailed, n);
    for (size_t i = 0; i < nfailed; i++) {
        if (lim->failed_nodes[i] >= n)
            return tr_fail(err, TOKENRING_E_RANGE,
                           "failed node index %u is outside the ring's nodes 0..%zu",
                           lim->failed_nodes[i], n - 1);
        for (size_t j = 0; j < i; j++)
            if (lim->failed_nodes[j] == lim->failed_nodes[i])
                return tr_fail(err, TOKENRING_E_INVAL, "failed node index %u is given twice",
                               lim->failed_nodes[i]);
    }
    return TOKENRING_OK;
}

/* The state of one availability() call: the level's rules and the walk's context, each
 * node's datacenter and whether it is down already, the placement, each replica set's
 * width and class, the per-set scratch, the candidate rows and the result being made.
 * Zeroed to start; avail_free() releases all of it. */
typedef struct avail_state {
    rules r;
    ctx c;
    uint32_t *node_dc;
    uint8_t *down;
    tokenring_placement *pl;
    size_t sets;
    tr_u128 *set_w;
    uint32_t *set_cls;
    uint32_t *cnt;
    uint32_t *dcnt; /* per dc: replicas of the set that are down already */
    uint32_t *zero; /* per dc: 0 */
    uint32_t *live; /* the set's replicas that are up */
    uint32_t *rows; /* the candidates, KMAX nodes each */
    tokenring_availability *res;
} avail_state;

static int av_nomem(tokenring_error *err)
{
    return tr_fail(err, TOKENRING_E_NOMEM, "out of memory in an availability analysis");
}

static void avail_free(avail_state *a)
{
    tokenring_availability_free(a->res);
    tokenring_placement_free(a->pl);
    for (size_t i = 0; i < a->c.class_count; i++)
        tr_free(a->c.class_cnt[i]);
    tr_free(a->c.class_cnt);
    tr_free(a->c.sums.slots);
    tr_free(a->c.cands.slots);
    tr_free(a->set_w);
    tr_free(a->set_cls);
    tr_free(a->cnt);
    tr_free(a->dcnt);
    tr_free(a->zero);
    tr_free(a->live);
    tr_free(a->rows);
    tr_free(a->down);
    tr_free(a->r.need_dc);
    tr_free(a->node_dc);
}

/* The arguments, the nodes down already and the budget. */
static int avail_check(tokenring_availability **out, const tokenring_ring *ring,
                       const tokenring_replication *replication, int consistency,
                       const char *local_dc, uint32_t k, tokenring_limits *lim,
                       tokenring_error *err)
{
    if (!out || !ring || !replication)
        return tr_fail(err, TOKENRING_E_INVAL, "NULL argument to an availability analysis");
    if (consistency < TOKENRING_CL_ONE || consistency > TOKENRING_CL_EACH_QUORUM)
        return tr_fail(err, TOKENRING_E_INVAL, "unknown consistency level %d", consistency);
    bool local = consistency == TOKENRING_CL_LOCAL_ONE ||
                 consistency == TOKENRING_CL_LOCAL_QUORUM;
    if (local && !local_dc)
        return tr_fail(err, TOKENRING_E_INVAL, "%s needs a local datacenter",
                       cl_name(consistency));
    size_t n = tokenring_ring_node_count(ring);
    int vrc = check_down(lim, n, err);
    if (vrc != TOKENRING_OK)
        return vrc;
    size_t ndown = lim->failed_count, n_up = n - ndown;
    if (k < 1 || k > KMAX || k > n_up)
        return tr_fail(err, TOKENRING_E_RANGE,
                       "k = %u failed nodes is outside 1..%u (the ring has %zu nodes%s, at "
                       "most %u are enumerated)",
                       k, k > n_up && n_up < KMAX ? (unsigned)n_up : KMAX, n_up,
                       ndown ? " not down already" : "", KMAX);
    int brc = tr_budget_check(lim, list_work(ring, replication, k, n_up),
                              "availability analysis", err);
    if (brc != TOKENRING_OK)
        return brc;
    return TOKENRING_OK;
}

/* The rules of the level, each node's datacenter and state, the placement, and the width
 * of each distinct replica set. */
static int avail_init(avail_state *a, const tokenring_ring *ring,
                      const tokenring_replication *replication, int consistency,
                      const char *local_dc, const tokenring_limits *lim, tokenring_error *err)
{
    size_t n = tokenring_ring_node_count(ring), ndown = lim->failed_count;
    uint32_t dcn = (uint32_t)tokenring_ring_dc_count(ring);
    a->r.cl = consistency;
    a->r.dc_count = dcn;
    a->r.need_dc = tr_calloc(dcn + 1, sizeof *a->r.need_dc);
    a->node_dc = tr_calloc(n + 1, sizeof *a->node_dc);
    a->down = tr_calloc(n + 1, 1);
    if (!a->r.need_dc || !a->node_dc || !a->down)
        return av_nomem(err);
    for (size_t i = 0; i < ndown; i++)
        a->down[lim->failed_nodes[i]] = 1;

    int rc = make_rules(&a->r, ring, replication, consistency, local_dc, err);
    if (rc != TOKENRING_OK)
        return rc;
    for (size_t i = 0; i < n; i++) {
        tokenring_node_info info;
        tokenring_ring_node_brief(&info, ring, (uint32_t)i);
        a->node_dc[i] = info.dc_index;
    }

    tokenring_error e2;
    rc = tokenring_placement_build(&a->pl, ring, replication, 0, &e2);
    if (rc != TOKENRING_OK)
        return tr_fail(err, rc, "%s", e2.message);
    size_t sets = a->sets = tokenring_placement_set_count(a->pl);
    size_t ranges;
    tokenring_ring_tokens(ring, &ranges);
    a->set_w = tr_calloc(sets + 1, sizeof *a->set_w);
    a->set_cls = tr_calloc(sets + 1, sizeof *a->set_cls);
    a->cnt = tr_calloc(dcn + 1, sizeof *a->cnt);
    a->dcnt = tr_calloc(dcn + 1, sizeof *a->dcnt);
    a->zero = tr_calloc(dcn + 1, sizeof *a->zero);
    a->live = tr_calloc(n + 1, sizeof *a->live);
    if (!a->set_w || !a->set_cls || !a->cnt || !a->dcnt || !a->zero || !a->live)
        return av_nomem(err);
    for (size_t i = 0; i < ranges; i++) {
        tokenring_replicas rep;
        tokenring_placement_range_replicas(&rep, a->pl, i);
        a->set_w[rep.set_id] += range_width(ring, i);
    }
    return TOKENRING_OK;
}

/* One distinct replica set: its class (the replicas per datacenter that are up), then
 * every subset of at most k of its live replicas, with the set's width added. */
static int avail_set(avail_state *a, size_t set, const tokenring_ring *ring, uint32_t k,
                     tokenring_error *err)
{
    uint32_t dcn = a->c.dc_count;
    const uint32_t *node_dc = a->node_dc;
    const uint8_t *down = a->down;
    uint32_t *cnt = a->cnt, *dcnt = a->dcnt, *zero = a->zero, *live = a->live;
    tokenring_replicas rep;
    tokenring_placement_set(&rep, a->pl, set);
    memset(cnt, 0, (dcn + 1) * sizeof *cnt);
    uint32_t m = 0;
    for (uint32_t i = 0; i < rep.count; i++) {
        cnt[node_dc[rep.nodes[i]]]++;
        if (!down[rep.nodes[i]])
            live[m++] = rep.nodes[i];
    }
    if (m < rep.count) {
        /* Replicas down already: the level must be reachable with every node up,
         * the set is left out when it is unavailable already (the k-sets list what
         * they add), and otherwise its class counts its live replicas only. */
        memset(dcnt, 0, (dcn + 1) * sizeof *dcnt);
        for (uint32_t i = 0; i < rep.count; i++)
            if (down[rep.nodes[i]])
                dcnt[node_dc[rep.nodes[i]]]++;
        if (fails(&a->r, cnt, zero)) {
            char rt[2 * TOKENRING_TOKEN128_TEXT_MAX + 8];
            range_text(rt, sizeof rt, ring, rep.range_index);
            return tr_fail(err, TOKENRING_E_IMPOSSIBLE,
                           "%s cannot be reached even with every node up: range %s has "
                           "%u replicas",
                           cl_name(a->r.cl), rt, rep.count);
        }
        if (fails(&a->r, cnt, dcnt))
            return TOKENRING_OK; /* unavailable already: the k-sets list what they add */
        for (uint32_t d = 0; d < dcn; d++)
            cnt[d] -= dcnt[d];
    }
    size_t cls;
    for (cls = 0; cls < a->c.class_count; cls++)
        if (memcmp(a->c.class_cnt[cls], cnt, dcn * sizeof *cnt) == 0)
            break;
    if (cls == a->c.class_count) {
        uint32_t **nc = tr_reallocarray(a->c.class_cnt, a->c.class_count + 1, sizeof *nc);
        if (!nc)
            return av_nomem(err);
        a->c.class_cnt = nc;
        if (!(nc[cls] = tr_calloc(dcn + 1, sizeof **nc)))
            return av_nomem(err);
        memcpy(nc[cls], cnt, dcn * sizeof *cnt);
        a->c.class_count++;
        /* A class that fails with nothing down makes the level unreachable. */
        if (sub_fails(&a->c, (uint32_t)cls, NULL, 0)) {
            char rt[2 * TOKENRING_TOKEN128_TEXT_MAX + 8];
            range_text(rt, sizeof rt, ring, rep.range_index);
            return tr_fail(err, TOKENRING_E_IMPOSSIBLE,
                           "%s cannot be reached even with every node up: range %s has "
                           "%u replicas",
                           cl_name(a->r.cl), rt, rep.count);
        }
    }
    a->set_cls[set] = (uint32_t)cls;
    /* Every subset of at most k live replicas: accumulate the set's width. */
    uint32_t idx[KMAX];
    for (unsigned size = 1; size <= k && size <= m; size++) {
        for (unsigned i = 0; i < size; i++)
            idx[i] = i;
        for (;;) {
            uint32_t sub[KMAX];
            for (unsigned i = 0; i < size; i++)
                sub[i] = live[idx[i]];
            akey key = make_key((uint32_t)cls, sub, size);
            aslot *sl = amap_put(&a->c.sums, &key);
            if (!sl)
                return av_nomem(err);
            bool fresh = sl->value == 0;
            sl->value += a->set_w[set];
            if (fresh && sub_fails(&a->c, (uint32_t)cls, sub, size)) {
                int ac = add_completions(&a->c, key.n, size);
                if (ac == TOKENRING_E_CANCELLED)
                    return ac;
                if (ac)
                    return av_nomem(err);
            }
            int i = (int)size - 1;
            while (i >= 0 && idx[i] == m - size + (unsigned)i)
                i--;
            if (i < 0)
                break;
            idx[i]++;
            for (unsigned j = (unsigned)i + 1; j < size; j++)
                idx[j] = idx[j - 1] + 1;
        }
    }
    return TOKENRING_OK;
}

/* The result: the candidates in order, each evaluated, those that break the level kept. */
static int avail_result(avail_state *a, const tokenring_ring *ring, uint32_t k,
                        tr_progress *pg, const char *what, tokenring_error *err)
{
    a->res = tr_calloc(1, sizeof *a->res);
    if (!a->res)
        return av_nomem(err);
    a->res->k = k;
    a->res->space = ring_space(ring);
    size_t nc = a->c.cands.count;
    a->rows = tr_calloc(nc ? nc : 1, KMAX * sizeof *a->rows);
    uint32_t *rows = a->rows;
    if (!rows)
        return av_nomem(err);
    size_t j = 0;
    for (size_t i = 0; i < a->c.cands.cap; i++)
        if (a->c.cands.slots[i].used)
            memcpy(rows + (j++) * KMAX, a->c.cands.slots[i].key.n, KMAX * sizeof *rows);
    qsort(rows, nc, KMAX * sizeof *rows, cmp_tuple);
    if (pg) {
        pg->done = a->sets;
        pg->total = a->sets + nc;
        int rc = tr_progress_report(pg, what, err);
        if (rc != TOKENRING_OK)
            return rc;
    }
    a->res->nodes = tr_calloc(nc ? nc * k : 1, sizeof *a->res->nodes);
    a->res->widths = tr_calloc(nc ? nc : 1, sizeof *a->res->widths);
    if (!a->res->nodes || !a->res->widths)
        return av_nomem(err);
    for (size_t i = 0; i < nc; i++) {
        if (pg) {
            pg->done = a->sets + i;
            pg->total = a->sets + nc;
            int rc = tr_progress_tick(pg, what, err);
            if (rc != TOKENRING_OK)
                return rc;
        }
        tr_u128 w = eval_candidate(&a->c, rows + i * KMAX);
        if (w == 0)
            continue;
        memcpy(a->res->nodes + a->res->count * k, rows + i * KMAX, k * sizeof *rows);
        a->res->widths[a->res->count++] = w;
    }
    if (pg) {
        pg->done = pg->total = a->sets + nc;
        (void)tr_progress_report(pg, what, NULL); /* the end: too late to stop */
    }
    return TOKENRING_OK;
}

static int availability(tokenring_availability **out, const tokenring_ring *ring,
                        const tokenring_replication *replication, int consistency,
                        const char *local_dc, uint32_t k, tokenring_limits *lim,
                        tokenring_error *err)
{
    int rc = avail_check(out, ring, replication, consistency, local_dc, k, lim, err);
    if (rc != TOKENRING_OK)
        return rc;
    tr_progress pgs = { lim->progress, lim->user, 0, 0, 0 };
    tr_progress *pg = lim->progress ? &pgs : NULL;
    static const char what[] = "availability analysis";
    avail_state a;
    memset(&a, 0, sizeof a);
    rc = avail_init(&a, ring, replication, consistency, local_dc, lim, err);
    if (rc == TOKENRING_OK && pg) {
        pg->total = a.sets;
        rc = tr_progress_report(pg, what, err);
    }
    a.c.pg = pg;
    a.c.err = err;
    a.c.r = &a.r;
    a.c.node_dc = a.node_dc;
    a.c.dc_count = (uint32_t)tokenring_ring_dc_count(ring);
    a.c.k = k;
    a.c.n = (uint32_t)tokenring_ring_node_count(ring);
    a.c.down = a.down;
    for (size_t set = 0; rc == TOKENRING_OK && set < a.sets; set++) {
        if (pg) {
            pg->done = set;
            pg->total = a.sets + a.c.cands.count;
            if ((rc = tr_progress_tick(pg, what, err)) != TOKENRING_OK)
                break;
        }
        rc = avail_set(&a, set, ring, k, err);
    }
    if (rc == TOKENRING_OK)
        rc = avail_result(&a, ring, k, pg, what, err);
    if (rc == TOKENRING_OK) {
        *out = a.res;
        a.res = NULL;
    }
    avail_free(&a);
    return rc;
}

TOKENRING_API int tokenring_availability_build(tokenring_availability **out,
                                               const tokenring_ring *ring,
                                               const tokenring_replication *replication,
                                               int consistency, const char *local_dc,
                                               uint32_t k, tokenring_error *err)
{
    tokenring_limits none;
    memset(&none, 0, sizeof none);
    return availability(out, ring, replication, consistency, local_dc, k, &none, err);
}

TOKENRING_API int tokenring_availability_build_progress(
    tokenring_availability **out, const tokenring_ring *ring,
    const tokenring_replication *replication, int consistency, const char *local_dc,
    uint32_t k, tokenring_progress_fn progress, void *user, tokenring_error *err)
{
    tokenring_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.progress = progress;
    lim.user = user;
    return availability(out, ring, replication, consistency, local_dc, k, &lim, err);
}

TOKENRING_API int tokenring_availability_build_limited(
    tokenring_availability **out, const tokenring_ring *ring,
    const tokenring_replication *replication, int consistency, const char *local_dc,
    uint32_t k, tokenring_limits *limits, tokenring_error *err)
{
    tokenring_limits none;
    if (!limits) {
        memset(&none, 0, sizeof none);
        limits = &none;
    }
    limits->estimate = 0;
    return availability(out, ring, replication, consistency, local_dc, k, limits, err);
}

/* ------------------------------------------------------------ the summary */

/* tokenring_availability_summary_build(): counts the k-sets of failure units (nodes,
 * racks or datacenters) that break a consistency level and finds the worst ones, exactly,
 * by a depth-first walk over unit sets in lexicographic order that keeps, for every
 * distinct replica set, its failed replicas per datacenter.
 *
 * Counting. Breaking is monotone (failing more never repairs a range), so once the chosen
 * prefix P breaks a range every completion of it does, and they are counted with a
 * binomial; the walk only descends below prefixes that break nothing. For single nodes
 * the last level is not walked either: every node y carries crit_n[y], the number of
 * replica sets containing y that are unbroken but would break if y failed too, and
 * crit_w[y] their width, kept up to date as nodes fail and recover. So the work is one
 * failure step per unit set of at most k - 1 units that breaks nothing.
 *
 * Worst sets. The same walk keeps the top-N sets by unavailable width (ties: the
 * lexicographically smaller set first). A subtree is skipped for them when the width of
 * its prefix plus r times the largest width a single remaining unit holds (r = units
 * still to choose) cannot beat the N-th best. */

struct tokenring_availability_summary {
    int unit;
    uint32_t k, n_units, top_count;
    tr_u128 breaking, total, worst;
    uint64_t sets;
    uint32_t *top_units; /* top_count * k */
    tr_u128 *top_w;
    tr_u128 space;          /* the whole ring in the widths' units (ring_space()) */
    tr_u128 down;           /* unavailable already with the failed nodes down */
};

typedef struct sm {
    const rules *r;
    uint32_t dcn, k, U;
    bool single;         /* units are single nodes */
    /* replica sets */
    size_t sets;
    tr_u128 *w;             /* width per set */
    uint32_t *cnt;       /* sets * dcn: replicas per dc */
    uint32_t *fail;      /* sets * G: failed replicas per group */
    uint32_t *thr;       /* sets * G: failures in the group that break the set (NONE) */
    uint32_t *nover;     /* per set: groups at or over their threshold */
    uint32_t G;          /* groups: 1 for the levels that count all replicas, else dcn */
    uint32_t *grp;       /* node -> group */
    uint32_t *mem_off, *mem; /* members of each set (CSR) */
    uint32_t *node_dc;
    /* node -> sets containing it (CSR) */
    uint32_t *ns_off, *ns;
    /* units -> nodes (CSR) */
    uint32_t *un_off, *un;
    tr_u128 *gsuf;          /* gsuf[u] = max over units >= u of the width its nodes hold */
    /* single-node shortcut */
    tr_u128 *crit_w;
    uint32_t *crit_n;
    /* state */
    tr_u128 W;
    size_t nbroken;
    tr_u128 W0;             /* W and nbroken with only the nodes already down failed */
    size_t nb0;
    uint32_t *chosen;    /* k */
    tr_u128 breaking;
    /* top-N min-heap: worst of the kept at the root */
    size_t top_n, heap_len;
    tr_u128 *hw;
    uint32_t *hu;        /* top_n * k */
    tr_progress *pg;
    tokenring_error *err;
    int rc;
} sm;

/* Members of `set` in group g gain (sign +1) or lose (-1) the set as "critical": it is
 * unbroken and one more failure in their group breaks it. */
static void crit_members(sm *s, size_t set, uint32_t g, int sign)
{
    for (uint32_t i = s->mem_off[set]; i < s->mem_off[set + 1]; i++) {
        uint32_t y = s->mem[i];
        if (s->grp[y] != g)
            continue;
        if (sign > 0) {
            s->crit_w[y] += s->w[set];
            s->crit_n[y]++;
        } else {
            s->crit_w[y] -= s->w[set];
            s->crit_n[y]--;
        }
    }
}

/* Every group in which `set` is critical gains or loses it (on breaking / repairing). */
static void crit_all(sm *s, size_t set, int sign)
{
    for (uint32_t g = 0; g < s->G; g++)
        if (s->thr[set * s->G + g] != NONE &&
            s->fail[set * s->G + g] + 1 == s->thr[set * s->G + g])
            crit_members(s, set, g, sign);
}

/* Node x fails (delta +1) or recovers (-1). A set is broken while some group has at least
 * its threshold of failed replicas (nover counts those groups). */
static void node_change(sm *s, uint32_t x, int delta)
{
    uint32_t g = s->grp[x];
    for (uint32_t i = s->ns_off[x]; i < s->ns_off[x + 1]; i++) {
        size_t set = s->ns[i];
        uint32_t *f = &s->fail[set * s->G + g];
        uint32_t thr = s->thr[set * s->G + g];
        if (delta > 0) {
            ++*f;
            if (thr == NONE)
                continue;
            if (*f == thr) {
                if (s->nover[set]++ == 0) {
                    if (s->single) {
                        --*f; /* the set was critical in g (and maybe elsewhere) */
                        crit_all(s, set, -1);
                        ++*f;
                    }
                    s->W += s->w[set];
                    s->nbroken++;
                }
            } else if (*f + 1 == thr && s->single && s->nover[set] == 0) {
                crit_members(s, set, g, +1);
            }
        } else {
            if (thr == NONE) {
                --*f;
                continue;
            }
            if (*f == thr) {
                --*f;
                if (--s->nover[set] == 0) {
                    s->W -= s->w[set];
                    s->nbroken--;
                    if (s->single)
                        crit_all(s, set, +1);
                }
            } else {
                --*f;
                if (*f + 2 == thr && s->single && s->nover[set] == 0)
                    crit_members(s, set, g, -1); /* was critical in g */
            }
        }
    }
}

static int unit_change(sm *s, uint32_t u, int delta)
{
    for (uint32_t i = s->un_off[u]; i < s->un_off[u + 1]; i++)
        node_change(s, s->un[i], delta);
    if (s->pg && delta > 0 &&
        tr_progress_tick(s->pg, "availability summary", s->err) != TOKENRING_OK)
        return TOKENRING_E_CANCELLED;
    return TOKENRING_OK;
}

static tr_u128 gcd128(tr_u128 a, tr_u128 b)
{
    while (b) {
        tr_u128 t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* C(a, b) in 128 bits; *ovf set when it does not fit. */
static tr_u128 binom(uint64_t a, uint64_t b, bool *ovf)
{
    if (b > a)
        return 0;
    if (b > a - b)
        b = a - b;
    tr_u128 r = 1;
    for (uint64_t i = 1; i <= b; i++) {
        /* C(a-b+i, i) = C(a-b+i-1, i-1) * (a-b+i) / i, and i / gcd(r, i) divides a-b+i */
        tr_u128 g = gcd128(r, i);
        tr_u128 q = r / g, m = (tr_u128)(a - b + i) / ((tr_u128)i / g);
        if (m != 0 && q > ~(tr_u128)0 / m) {
            *ovf = true;
            return 0;
        }
        r = q * m;
    }
    return r;
}

static int cmp_units(const uint32_t *a, const uint32_t *b, uint32_t k)
{
    for (uint32_t i = 0; i < k; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* Heap order: entry a ranks below entry b (worse width, or equal and later). */
static bool ranks_below(const sm *s, size_t a, size_t b)
{
    if (s->hw[a] != s->hw[b])
        return s->hw[a] < s->hw[b];
    return cmp_units(s->hu + a * s->k, s->hu + b * s->k, s->k) > 0;
}

static void heap_swap(sm *s, size_t a, size_t b)
{
    tr_u128 t = s->hw[a];
    s->hw[a] = s->hw[b];
    s->hw[b] = t;
    for (uint32_t i = 0; i < s->k; i++) {
        uint32_t v = s->hu[a * s->k + i];
        s->hu[a * s->k + i] = s->hu[b * s->k + i];
        s->hu[b * s->k + i] = v;
    }
}

static void heap_down(sm *s, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < s->heap_len && ranks_below(s, l, m))
            m = l;
        if (r < s->heap_len && ranks_below(s, r, m))
            m = r;
        if (m == i)
            return;
        heap_swap(s, i, m);
        i = m;
    }
}

/* Does a set of width `w` still have a chance (the walk goes in lexicographic order, so a
 * later set with the width of the N-th best ranks below it)? */
/* a + r * b, saturated at the largest tr_u128: a bound that is only compared (widths reach
 * 2^127 on a RandomPartitioner ring, so a sum of two can overflow). */
static tr_u128 bound_sum(tr_u128 a, uint32_t r, tr_u128 b)
{
    tr_u128 max = ~(tr_u128)0;
    if (r && b > (max - a) / r)
        return max;
    return a + (tr_u128)r * b;
}

static bool top_wants(const sm *s, tr_u128 bound)
{
    if (!s->top_n || bound == 0)
        return false;
    return s->heap_len < s->top_n || bound > s->hw[0];
}

/* Offers chosen[0..k-2] + last with width w. */
static void top_offer(sm *s, uint32_t last, tr_u128 w)
{
    if (!top_wants(s, w))
        return;
    size_t at;
    if (s->heap_len < s->top_n) {
        at = s->heap_len++;
        s->hw[at] = w;
        memcpy(s->hu + at * s->k, s->chosen, (s->k - 1) * sizeof *s->hu);
        s->hu[at * s->k + s->k - 1] = last;
        /* sift up */
        while (at > 0 && ranks_below(s, at, (at - 1) / 2)) {
            heap_swap(s, at, (at - 1) / 2);
            at = (at - 1) / 2;
        }
        return;
    }
    s->hw[0] = w;
    memcpy(s->hu, s->chosen, (s->k - 1) * sizeof *s->hu);
    s->hu[s->k - 1] = last;
    heap_down(s, 0);
}

/* The walk: chosen[0..depth-1] have failed; pick the next unit from `start`. `count`:
 * the prefix breaks nothing yet, so its completions still have to be counted. */
static int walk(sm *s, uint32_t depth, uint32_t start, bool count)
{
    uint32_t r = s->k - depth;
    if (count && s->nbroken > s->nb0) {
        bool ovf = false;
        s->breaking += binom(s->U - start, r, &ovf); /* at most C(U, k): no overflow */
        count = false;
    }
    if (s->single && r == 1) {
        if (!count && !top_wants(s, bound_sum(s->W - s->W0, 1, s->gsuf[start])))
            return TOKENRING_OK; /* crit_w[x] <= the width x holds */
        for (uint32_t x = start; x < s->U; x++) {
            uint32_t y = s->un[s->un_off[x]]; /* the unit's node */
            if (count && s->crit_n[y])
                s->breaking++;
            if (s->top_n)
                top_offer(s, x, s->W - s->W0 + s->crit_w[y]);
            else if (!count)
                break;
        }
        return TOKENRING_OK;
    }
    for (uint32_t x = start; x + r <= s->U; x++) {
        bool want = top_wants(s, bound_sum(s->W - s->W0, r, s->gsuf[x]));
        if (!count && !want)
            break; /* gsuf only decreases */
        int rc = unit_change(s, x, +1);
        if (rc != TOKENRING_OK)
            return rc;
        s->chosen[depth] = x;
        if (r == 1) {
            if (count && s->nbroken > s->nb0)
                s->breaking++;
            top_offer(s, x, s->W - s->W0);
        } else if ((rc = walk(s, depth + 1, x + 1, count)) != TOKENRING_OK) {
            return rc;
        }
        (void)unit_change(s, x, -1);
        if (depth == 0 && s->pg) {
            s->pg->done = s->sets + x + 1;
            if ((rc = tr_progress_report(s->pg, "availability summary", s->err)) !=
                TOKENRING_OK)
                return rc;
        }
    }
    return TOKENRING_OK;
}

TOKENRING_API void tokenring_availability_summary_free(tokenring_availability_summary *s)
{
    if (!s)
        return;
    tr_free(s->top_units);
    tr_free(s->top_w);
    tr_free(s);
}

static void put_u128(tokenring_u128 *out, tr_u128 v)
{
    if (out) {
        out->hi = (uint64_t)(v >> 64);
        out->lo = (uint64_t)v;
    }
}

TOKENRING_API int tokenring_availability_summary_counts(
    tokenring_u128 *breaking_out, tokenring_u128 *total_out, tokenring_u128 *worst_width_out,
    const tokenring_availability_summary *s)
{
    if (!s)
        return TOKENRING_E_INVAL;
    put_u128(breaking_out, s->breaking);
    put_u128(total_out, s->total);
    put_u128(worst_width_out, s->worst);
    return TOKENRING_OK;
}

TOKENRING_API uint32_t tokenring_availability_summary_k(const tokenring_availability_summary *s)
{
    return s ? s->k : 0;
}

TOKENRING_API size_t
tokenring_availability_summary_top_count(const tokenring_availability_summary *s)
{
    return s ? s->top_count : 0;
}

TOKENRING_API int tokenring_availability_summary_top(uint32_t *units_out,
                                                     tokenring_u128 *width_out,
                                                     double *fraction_out,
                                                     const tokenring_availability_summary *s,
                                                     size_t index)
{
    if (!units_out || !s)
        return TOKENRING_E_INVAL;
    if (index >= s->top_count)
        return TOKENRING_E_RANGE;
    memcpy(units_out, s->top_units + index * s->k, s->k * sizeof *units_out);
    tr_u128 w = s->top_w[index];
    put_u128(width_out, w);
    if (fraction_out)
        *fraction_out = (double)((long double)w / (long double)s->space);
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_availability_summary_down(
    tokenring_u128 *width_out, double *fraction_out, const tokenring_availability_summary *s)
{
    if (!s)
        return TOKENRING_E_INVAL;
    put_u128(width_out, s->down);
    if (fraction_out)
        *fraction_out = (double)((long double)s->down / (long double)s->space);
    return TOKENRING_OK;
}

static int summary_build(tokenring_availability_summary **out, const tokenring_ring *ring,
                         const tokenring_replication *replication, int consistency,
                         const char *local_dc, int unit, uint32_t k, size_t top_n,
                         tokenring_limits *lim, tokenring_error *err);

TOKENRING_API int tokenring_availability_summary_build(
    tokenring_availability_summary **out, const tokenring_ring *ring,
    const tokenring_replication *replication, int consistency, const char *local_dc,
    int unit, uint32_t k, size_t top_n, tokenring_progress_fn progress, void *user,
    tokenring_error *err)
{
    tokenring_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.progress = progress;
    lim.user = user;
    return summary_build(out, ring, replication, consistency, local_dc, unit, k, top_n, &lim,
                         err);
}

TOKENRING_API int tokenring_availability_summary_build_limited(
    tokenring_availability_summary **out, const tokenring_ring *ring,
    const tokenring_replication *replication, int consistency, const char *local_dc,
    int unit, uint32_t k, size_t top_n, tokenring_limits *limits, tokenring_error *err)
{
    tokenring_limits none;
    if (!limits) {
        memset(&none, 0, sizeof none);
        limits = &none;
    }
    limits->estimate = 0;
    return summary_build(out, ring, replication, consistency, local_dc, unit, k, top_n, limits,
                         err);
}

/* The state of one summary_build() call: the level's rules, the walk's state machine,
 * the placement, the nodes down already, the walk's unit -> ring node map, the progress
 * and the result being made. Zeroed to start; summary_free() releases all of it. */
typedef struct sum_state {
    rules r;
    sm s;
    tokenring_placement *pl;
    tokenring_availability_summary *res;
    uint8_t *down;       /* node -> already failed */
    uint32_t *unit_node; /* single nodes: walk unit -> ring node */
    tr_progress pg;
} sum_state;

static int sum_nomem(tokenring_error *err)
{
    return tr_fail(err, TOKENRING_E_NOMEM, "out of memory in an availability summary");
}

static void summary_free(sum_state *st)
{
    sm *s = &st->s;
    tokenring_availability_summary_free(st->res);
    tokenring_placement_free(st->pl);
    tr_free(st->down);
    tr_free(st->unit_node);
    tr_free(st->r.need_dc);
    tr_free(s->node_dc);
    tr_free(s->w);
    tr_free(s->cnt);
    tr_free(s->fail);
    tr_free(s->thr);
    tr_free(s->nover);
    tr_free(s->grp);
    tr_free(s->mem_off);
    tr_free(s->mem);
    tr_free(s->ns_off);
    tr_free(s->ns);
    tr_free(s->un_off);
    tr_free(s->un);
    tr_free(s->gsuf);
    tr_free(s->crit_w);
    tr_free(s->crit_n);
    tr_free(s->chosen);
    tr_free(s->hw);
    tr_free(s->hu);
}

/* The arguments, the nodes down already and the budget: *U_out units, *total_out
 * C(U, k) sets of them. */
static int summary_check(tokenring_availability_summary **out, const tokenring_ring *ring,
                         const tokenring_replication *replication, int consistency,
                         const char *local_dc, int unit, uint32_t k, size_t top_n,
                         tokenring_limits *lim, size_t *U_out, tr_u128 *total_out,
                         tokenring_error *err)
{
    if (!out || !ring || !replication)
        return tr_fail(err, TOKENRING_E_INVAL, "NULL argument to an availability summary");
    if (consistency < TOKENRING_CL_ONE || consistency > TOKENRING_CL_EACH_QUORUM)
        return tr_fail(err, TOKENRING_E_INVAL, "unknown consistency level %d", consistency);
    if (unit != TOKENRING_FAIL_NODES && unit != TOKENRING_FAIL_RACKS &&
        unit != TOKENRING_FAIL_DATACENTERS)
        return tr_fail(err, TOKENRING_E_INVAL, "unknown failure unit %d", unit);
    bool local = consistency == TOKENRING_CL_LOCAL_ONE ||
                 consistency == TOKENRING_CL_LOCAL_QUORUM;
    if (local && !local_dc)
        return tr_fail(err, TOKENRING_E_INVAL, "%s needs a local datacenter",
                       cl_name(consistency));
    static const char *const unit_names[] = { "nodes", "racks", "datacenters" };
    size_t n = tokenring_ring_node_count(ring);
    uint32_t dcn = (uint32_t)tokenring_ring_dc_count(ring);
    size_t nfailed = lim->failed_count;
    int vrc = check_down(lim, n, err);
    if (vrc != TOKENRING_OK)
        return vrc;
    size_t U = unit == TOKENRING_FAIL_NODES   ? n - nfailed
               : unit == TOKENRING_FAIL_RACKS ? tokenring_ring_rack_count(ring)
                                              : dcn;
    if (k < 1 || k > U)
        return tr_fail(err, TOKENRING_E_RANGE,
                       "k = %u failed %s is outside 1..%zu (the ring has %zu %s%s)", k,
                       unit_names[unit], U, U, unit_names[unit],
                       unit == TOKENRING_FAIL_NODES && nfailed ? " not down already" : "");
    bool ovf = false;
    tr_u128 total = binom(U, k, &ovf);
    if (ovf)
        return tr_fail(err, TOKENRING_E_RANGE,
                       "C(%zu, %u) sets of failed %s do not fit in 128 bits", U, k,
                       unit_names[unit]);
    if (top_n > (size_t)1 << 24)
        return tr_fail(err, TOKENRING_E_RANGE, "top_n = %zu is above 2^24", top_n);
    int brc = tr_budget_check(lim,
                              summary_work(ring, replication, consistency,
                                           unit == TOKENRING_FAIL_NODES, U,
                                           n - nfailed, k, top_n),
                              "availability summary", err);
    if (brc != TOKENRING_OK)
        return brc;
    *U_out = U;
    *total_out = total;
    return TOKENRING_OK;
}

/* The rules, the nodes down already, the walk's parameters, the placement and the
 * arrays of the walk. */
static int summary_init(sum_state *st, const tokenring_ring *ring,
                        const tokenring_replication *replication, int consistency,
                        const char *local_dc, int unit, uint32_t k, size_t U, size_t top_n,
                        const tokenring_limits *lim, const char *what, tokenring_error *err)
{
    rules *r = &st->r;
    sm *s = &st->s;
    size_t n = tokenring_ring_node_count(ring), nfailed = lim->failed_count;
    uint32_t dcn = (uint32_t)tokenring_ring_dc_count(ring);
    r->cl = consistency;
    r->dc_count = dcn;
    r->need_dc = tr_calloc(dcn + 1, sizeof *r->need_dc);
    st->down = tr_calloc(n + 1, 1);
    st->unit_node = tr_calloc(n + 1, sizeof *st->unit_node);
    if (!r->need_dc || !st->down || !st->unit_node)
        return sum_nomem(err);
    for (size_t i = 0; i < nfailed; i++)
        st->down[lim->failed_nodes[i]] = 1;
    int rc = make_rules(r, ring, replication, consistency, local_dc, err);
    if (rc != TOKENRING_OK)
        return rc;

    s->r = r;
    s->dcn = dcn;
    s->k = k;
    s->U = (uint32_t)U;
    s->single = unit == TOKENRING_FAIL_NODES;
    s->top_n = top_n;
    s->err = err;
    s->pg = lim->progress ? &st->pg : NULL;

    tokenring_error e2;
    rc = tokenring_placement_build(&st->pl, ring, replication, 0, &e2);
    if (rc != TOKENRING_OK)
        return tr_fail(err, rc, "%s", e2.message);
    size_t sets = tokenring_placement_set_count(st->pl);
    s->sets = sets;
    if (s->pg) {
        st->pg.total = (uint64_t)sets + U;
        if ((rc = tr_progress_report(s->pg, what, err)) != TOKENRING_OK)
            return rc;
    }
    s->node_dc = tr_calloc(n + 1, sizeof *s->node_dc);
    s->w = tr_calloc(sets + 1, sizeof *s->w);
    s->cnt = tr_calloc((sets + 1) * (dcn + 1), sizeof *s->cnt);
    bool by_dc = r->cl == TOKENRING_CL_LOCAL_ONE || r->cl == TOKENRING_CL_LOCAL_QUORUM ||
                 r->cl == TOKENRING_CL_EACH_QUORUM;
    s->G = by_dc ? dcn : 1;
    s->fail = tr_calloc((sets + 1) * (s->G + 1), sizeof *s->fail);
    s->thr = tr_calloc((sets + 1) * (s->G + 1), sizeof *s->thr);
    s->nover = tr_calloc(sets + 1, sizeof *s->nover);
    s->grp = tr_calloc(n + 1, sizeof *s->grp);
    s->mem_off = tr_calloc(sets + 2, sizeof *s->mem_off);
    s->ns_off = tr_calloc(n + 2, sizeof *s->ns_off);
    s->un_off = tr_calloc(U + 2, sizeof *s->un_off);
    s->un = tr_calloc(n + 1, sizeof *s->un);
    s->gsuf = tr_calloc(U + 2, sizeof *s->gsuf);
    s->chosen = tr_calloc(k + 1, sizeof *s->chosen);
    if (s->single) {
        s->crit_w = tr_calloc(n + 1, sizeof *s->crit_w);
        s->crit_n = tr_calloc(n + 1, sizeof *s->crit_n);
    }
    if (top_n) {
        s->hw = tr_calloc(top_n, sizeof *s->hw);
        s->hu = tr_calloc(top_n, (size_t)k * sizeof *s->hu);
    }
    if (!s->node_dc || !s->w || !s->cnt || !s->fail || !s->thr || !s->nover || !s->grp ||
        !s->mem_off || !s->ns_off || !s->un_off || !s->un || !s->gsuf || !s->chosen ||
        (s->single && (!s->crit_w || !s->crit_n)) || (top_n && (!s->hw || !s->hu)))
        return sum_nomem(err);
    return TOKENRING_OK;
}

/* The failure units and the ring nodes in each (CSR); nodes down already are in none.
 * TOKENRING_E_NOMEM with err not filled. */
static int summary_units(sum_state *st, const tokenring_ring *ring, int unit)
{
    sm *s = &st->s;
    size_t n = tokenring_ring_node_count(ring), U = s->U;
    bool by_dc = st->r.cl == TOKENRING_CL_LOCAL_ONE || st->r.cl == TOKENRING_CL_LOCAL_QUORUM ||
                 st->r.cl == TOKENRING_CL_EACH_QUORUM;
    const uint8_t *down = st->down;
    uint32_t *unit_node = st->unit_node;
    uint32_t *unit_of = tr_calloc(n + 1, sizeof *unit_of);
    if (!unit_of)
        return TOKENRING_E_NOMEM;
    uint32_t live = 0;
    for (size_t i = 0; i < n; i++) {
        tokenring_node_info info;
        tokenring_ring_node_brief(&info, ring, (uint32_t)i);
        s->node_dc[i] = info.dc_index;
        s->grp[i] = by_dc ? info.dc_index : 0;
        if (down[i])
            continue; /* down already: in no unit, failed once below */
        if (unit == TOKENRING_FAIL_NODES)
            unit_node[live] = (uint32_t)i;
        unit_of[i] = unit == TOKENRING_FAIL_NODES   ? live
                     : unit == TOKENRING_FAIL_RACKS ? info.rack_index
                                                    : info.dc_index;
        live++;
        s->un_off[unit_of[i] + 1]++;
    }
    for (size_t u = 0; u < U; u++)
        s->un_off[u + 1] += s->un_off[u];
    for (size_t i = 0; i < n; i++)
        if (!down[i])
            s->un[s->un_off[unit_of[i]] + s->ns_off[unit_of[i]]++] = (uint32_t)i; /* cursor */
    tr_free(unit_of);
    memset(s->ns_off, 0, (n + 2) * sizeof *s->ns_off);
    return TOKENRING_OK;
}

/* The distinct replica sets: widths, members, per-datacenter counts and the thresholds
 * that break them; the members of each set and the sets of each node (CSR). */
static int summary_sets(sum_state *st, const tokenring_ring *ring, const char *what,
                        tokenring_error *err)
{
    const rules *r = &st->r;
    sm *s = &st->s;
    size_t n = tokenring_ring_node_count(ring), sets = s->sets;
    uint32_t dcn = s->dcn;
    bool by_dc = r->cl == TOKENRING_CL_LOCAL_ONE || r->cl == TOKENRING_CL_LOCAL_QUORUM ||
                 r->cl == TOKENRING_CL_EACH_QUORUM;
    /* Widths, members and per-dc counts of the distinct sets. */
    size_t ranges;
    tokenring_ring_tokens(ring, &ranges);
    for (size_t i = 0; i < ranges; i++) {
        tokenring_replicas rep = { 0 }; /* i < ranges: always filled */
        tokenring_placement_range_replicas(&rep, st->pl, i);
        s->w[rep.set_id] += range_width(ring, i);
    }
    size_t members = 0;
    for (size_t t = 0; t < sets; t++) {
        tokenring_replicas rep;
        tokenring_placement_set(&rep, st->pl, t);
        members += rep.count;
        s->mem_off[t + 1] = (uint32_t)members;
        for (uint32_t i = 0; i < rep.count; i++) {
            s->cnt[t * dcn + s->node_dc[rep.nodes[i]]]++;
            s->ns_off[rep.nodes[i] + 1]++;
        }
        /* Thresholds: failures within a group that break the set. */
        bool impossible = false;
        if (!by_dc) {
            int64_t all = 0;
            for (uint32_t d = 0; d < dcn; d++)
                all += s->cnt[t * dcn + d];
            int64_t thr = all - r->need_total + 1;
            impossible = thr <= 0;
            s->thr[t] = impossible ? 1 : (uint32_t)thr;
        } else {
            for (uint32_t d = 0; d < dcn; d++) {
                bool counts = r->cl == TOKENRING_CL_EACH_QUORUM ? r->need_dc[d] > 0 : d == r->local;
                int64_t thr = (int64_t)s->cnt[t * dcn + d] - r->need_dc[d] + 1;
                if (counts && thr <= 0)
                    impossible = true;
                s->thr[t * dcn + d] = !counts ? NONE : thr <= 0 ? 1 : (uint32_t)thr;
            }
        }
        if (impossible) {
            char rt[2 * TOKENRING_TOKEN128_TEXT_MAX + 8];
            range_text(rt, sizeof rt, ring, rep.range_index);
            return tr_fail(err, TOKENRING_E_IMPOSSIBLE,
                           "%s cannot be reached even with every node up: range %s has %u "
                           "replicas",
                           cl_name(r->cl), rt, rep.count);
        }
        if (s->pg) {
            st->pg.done = t;
            int rc = tr_progress_tick(s->pg, what, err);
            if (rc != TOKENRING_OK)
                return rc;
        }
    }
    if (members > UINT32_MAX)
        return tr_fail(err, TOKENRING_E_RANGE,
                       "the placement's distinct replica sets hold %zu members, above 2^32",
                       members);
    s->mem = tr_calloc(members + 1, sizeof *s->mem);
    s->ns = tr_calloc(members + 1, sizeof *s->ns);
    if (!s->mem || !s->ns)
        return sum_nomem(err);
    for (size_t i = 0; i < n; i++)
        s->ns_off[i + 1] += s->ns_off[i];
    {
        uint32_t *cur = tr_calloc(n + 1, sizeof *cur);
        if (!cur)
            return sum_nomem(err);
        for (size_t t = 0; t < sets; t++) {
            tokenring_replicas rep;
            tokenring_placement_set(&rep, st->pl, t);
            for (uint32_t i = 0; i < rep.count; i++) {
                uint32_t y = rep.nodes[i];
                s->mem[s->mem_off[t] + i] = y;
                s->ns[s->ns_off[y] + cur[y]++] = (uint32_t)t;
            }
        }
        tr_free(cur);
    }
    return TOKENRING_OK;
}

/* The width each unit can add (suffix maxima), the critical sets of single nodes, and
 * the nodes already down failed first. */
static int summary_prepare(sum_state *st, const tokenring_ring *ring, const char *what,
                           tokenring_error *err)
{
    sm *s = &st->s;
    size_t n = tokenring_ring_node_count(ring), sets = s->sets, U = s->U;
    /* The width each unit holds (every set with a replica in it), suffix maxima. */
    {
        tr_u128 *g = tr_calloc(U + 1, sizeof *g);
        uint32_t *seen = tr_calloc(sets + 1, sizeof *seen);
        if (!g || !seen) {
            tr_free(g);
            tr_free(seen);
            return sum_nomem(err);
        }
        for (uint32_t u = 0; u < U; u++)
            for (uint32_t i = s->un_off[u]; i < s->un_off[u + 1]; i++) {
                uint32_t y = s->un[i];
                for (uint32_t j = s->ns_off[y]; j < s->ns_off[y + 1]; j++)
                    if (seen[s->ns[j]] != u + 1) {
                        seen[s->ns[j]] = u + 1;
                        g[u] += s->w[s->ns[j]];
                    }
            }
        for (size_t u = U; u-- > 0;)
            s->gsuf[u] = g[u] > s->gsuf[u + 1] ? g[u] : s->gsuf[u + 1];
        tr_free(g);
        tr_free(seen);
    }
    if (s->single)
        for (size_t t = 0; t < sets; t++)
            crit_all(s, t, +1);
    /* The nodes already down fail first; the walk counts what more failures add. */
    for (size_t i = 0; i < n; i++)
        if (st->down[i])
            node_change(s, (uint32_t)i, +1);
    s->W0 = s->W;
    s->nb0 = s->nbroken;
    if (s->pg) {
        st->pg.done = sets;
        int rc = tr_progress_report(s->pg, what, err);
        if (rc != TOKENRING_OK)
            return rc;
    }
    return TOKENRING_OK;
}

/* The result: the counts, and the top sets popped from the heap, worst first. */
static int summary_result(sum_state *st, const tokenring_ring *ring, int unit, uint32_t k,
                          tr_u128 total, const char *what, tokenring_error *err)
{
    sm *s = &st->s;
    size_t sets = s->sets, U = s->U;
    st->res = tr_calloc(1, sizeof *st->res);
    if (!st->res)
        return sum_nomem(err);
    st->res->unit = unit;
    st->res->k = k;
    st->res->space = ring_space(ring);
    st->res->n_units = (uint32_t)U;
    st->res->breaking = s->breaking;
    st->res->total = total;
    st->res->down = s->W0;
    st->res->sets = sets;
    st->res->top_count = (uint32_t)s->heap_len;
    if (s->heap_len) {
        st->res->top_units = tr_calloc(s->heap_len, k * sizeof *st->res->top_units);
        st->res->top_w = tr_calloc(s->heap_len, sizeof *st->res->top_w);
        if (!st->res->top_units || !st->res->top_w)
            return sum_nomem(err);
        /* Pop the heap (lowest rank first) into the result from its end. */
        for (size_t i = s->heap_len; i-- > 0;) {
            st->res->top_w[i] = s->hw[0];
            for (uint32_t j = 0; j < k; j++)
                st->res->top_units[i * k + j] =
                    unit == TOKENRING_FAIL_NODES ? st->unit_node[s->hu[j]] : s->hu[j];
            heap_swap(s, 0, i);
            s->heap_len = i;
            heap_down(s, 0);
        }
        st->res->worst = st->res->top_w[0];
    }
    if (s->pg) {
        st->pg.done = st->pg.total = (uint64_t)sets + U;
        (void)tr_progress_report(s->pg, what, NULL); /* the end: too late to stop */
    }
    return TOKENRING_OK;
}

static int summary_build(tokenring_availability_summary **out, const tokenring_ring *ring,
                         const tokenring_replication *replication, int consistency,
                         const char *local_dc, int unit, uint32_t k, size_t top_n,
                         tokenring_limits *lim, tokenring_error *err)
{
    size_t U = 0;
    tr_u128 total = 0;
    int rc = summary_check(out, ring, replication, consistency, local_dc, unit, k, top_n, lim,
                           &U, &total, err);
    if (rc != TOKENRING_OK)
        return rc;
    static const char what[] = "availability summary";
    sum_state st;
    memset(&st, 0, sizeof st);
    st.pg = (tr_progress){ lim->progress, lim->user, 0, 0, 0 };
    rc = summary_init(&st, ring, replication, consistency, local_dc, unit, k, U, top_n, lim,
                      what, err);
    if (rc == TOKENRING_OK && summary_units(&st, ring, unit) != TOKENRING_OK)
        rc = sum_nomem(err);
    if (rc == TOKENRING_OK)
        rc = summary_sets(&st, ring, what, err);
    if (rc == TOKENRING_OK)
        rc = summary_prepare(&st, ring, what, err);
    if (rc == TOKENRING_OK)
        rc = walk(&st.s, 0, 0, true);
    if (rc == TOKENRING_OK)
        rc = summary_result(&st, ring, unit, k, total, what, err);
    if (rc == TOKENRING_OK) {
        *out = st.res;
        st.res = NULL;
    }
    summary_free(&st);
    return rc;
}
