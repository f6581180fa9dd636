/* SPDX-License-Identifier: Apache-2.0 */
/* Availability analysis: the sets of k failed nodes that break a consistency level
 * (include/tokenring/analysis.h). Works on the placement's distinct replica sets. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tokenring/analysis.h"

__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 i128;

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
    u128 value;
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
    int32_t need_total;   /* ONE, TWO, THREE, QUORUM, ALL */
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
        int32_t alive = 0;
        for (uint32_t d = 0; d < r->dc_count; d++)
            alive += (int32_t)(cnt[d] - fail[d]);
        return alive < r->need_total;
    }
    }
}

/* ----------------------------------------------------------------- result */

struct tokenring_availability {
    uint32_t k;
    size_t count;
    uint32_t *nodes; /* count * k */
    u128 *widths;
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
    u128 w = a->widths[index];
    if (width_out) {
        width_out->hi = (uint64_t)(w >> 64);
        width_out->lo = (uint64_t)w;
    }
    if (fraction_out)
        *fraction_out = (double)((long double)w / 18446744073709551616.0L);
    return TOKENRING_OK;
}

/* ------------------------------------------------------------------ build */

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

/* Unavailable width of candidate failure set f (k nodes, ascending). */
static u128 eval_candidate(const ctx *c, const uint32_t *f)
{
    unsigned k = c->k, full = (1u << k) - 1;
    i128 total = 0;
    for (size_t cls = 0; cls < c->class_count; cls++) {
        /* A[mask] = width of sets of this class containing the nodes of mask. */
        i128 A[1 << KMAX];
        for (unsigned mask = 1; mask <= full; mask++) {
            uint32_t sub[KMAX];
            unsigned m = 0;
            for (unsigned i = 0; i < k; i++)
                if (mask & (1u << i))
                    sub[m++] = f[i];
            akey key = make_key((uint32_t)cls, sub, m);
            const aslot *s = amap_get(&c->sums, &key);
            A[mask] = s ? (i128)s->value : 0;
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
            i128 e = 0;
            for (unsigned sup = mask; sup <= full; sup = (sup + 1) | mask) {
                int extra = __builtin_popcount(sup & ~mask);
                e += (extra & 1) ? -A[sup] : A[sup];
                if (sup == full)
                    break;
            }
            total += e;
        }
    }
    return total > 0 ? (u128)total : 0;
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

static int availability(tokenring_availability **out, const tokenring_ring *ring,
                        const tokenring_replication *replication, int consistency,
                        const char *local_dc, uint32_t k, tr_progress *pg,
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
    if (k < 1 || k > KMAX || k > n)
        return tr_fail(err, TOKENRING_E_RANGE,
                       "k = %u failed nodes is outside 1..%u (the ring has %zu nodes, at "
                       "most %u are enumerated)",
                       k, k > n && n < KMAX ? (unsigned)n : KMAX, n, KMAX);

    uint32_t dcn = (uint32_t)tokenring_ring_dc_count(ring);
    rules r;
    memset(&r, 0, sizeof r);
    r.cl = consistency;
    r.dc_count = dcn;
    r.need_dc = tr_calloc(dcn + 1, sizeof *r.need_dc);
    uint32_t *node_dc = tr_calloc(n + 1, sizeof *node_dc);
    ctx c;
    memset(&c, 0, sizeof c);
    tokenring_placement *pl = NULL;
    u128 *set_w = NULL;
    uint32_t *set_cls = NULL;
    uint32_t *cnt = NULL;
    tokenring_availability *res = NULL;
    int rc = TOKENRING_OK;
    if (!r.need_dc || !node_dc)
        goto nomem;

    /* Configured factors. */
    int32_t total_rf = 0;
    int strategy = tokenring_replication_strategy(replication);
    size_t entries = strategy == TOKENRING_SIMPLE ? 1 : tokenring_replication_dc_count(replication);
    for (size_t i = 0; i < entries; i++) {
        const char *dname = NULL;
        int32_t rf = 0, tr = 0;
        tokenring_replication_get(&dname, &rf, &tr, replication, i);
        total_rf += rf;
        if (strategy == TOKENRING_SIMPLE) {
            for (uint32_t d = 0; d < dcn; d++)
                r.need_dc[d] = consistency == TOKENRING_CL_LOCAL_ONE ? 1 : rf / 2 + 1;
            continue;
        }
        for (uint32_t d = 0; d < dcn; d++)
            if (rf > 0 && strcmp(tokenring_ring_dc_name(ring, d), dname) == 0)
                r.need_dc[d] = consistency == TOKENRING_CL_LOCAL_ONE ? 1 : rf / 2 + 1;
    }
    if (strategy == TOKENRING_SIMPLE && consistency == TOKENRING_CL_EACH_QUORUM)
        r.cl = TOKENRING_CL_QUORUM; /* no datacenters to be each-quorum in */
    switch (consistency) {
    case TOKENRING_CL_ONE: r.need_total = 1; break;
    case TOKENRING_CL_TWO: r.need_total = 2; break;
    case TOKENRING_CL_THREE: r.need_total = 3; break;
    case TOKENRING_CL_QUORUM:
    case TOKENRING_CL_EACH_QUORUM: r.need_total = total_rf / 2 + 1; break;
    case TOKENRING_CL_ALL: r.need_total = total_rf; break;
    default: break;
    }
    if (local) {
        uint32_t d;
        for (d = 0; d < dcn; d++)
            if (strcmp(tokenring_ring_dc_name(ring, d), local_dc) == 0)
                break;
        if (d == dcn) {
            rc = tr_fail(err, TOKENRING_E_NOTFOUND, "local datacenter '%s' has no node",
                         local_dc);
            goto done;
        }
        r.local = d;
        if (r.need_dc[d] == 0) {
            rc = tr_fail(err, TOKENRING_E_IMPOSSIBLE,
                         "%s: the replication has no replica in local datacenter '%s'",
                         cl_name(consistency), local_dc);
            goto done;
        }
    }
    for (size_t i = 0; i < n; i++) {
        tokenring_node_info info;
        tokenring_ring_node_brief(&info, ring, (uint32_t)i);
        node_dc[i] = info.dc_index;
    }

    tokenring_error e2;
    rc = tokenring_placement_build(&pl, ring, replication, 0, &e2);
    if (rc != TOKENRING_OK) {
        rc = tr_fail(err, rc, "%s", e2.message);
        goto done;
    }
    size_t sets = tokenring_placement_set_count(pl);
    size_t ranges;
    tokenring_ring_tokens(ring, &ranges);
    set_w = tr_calloc(sets + 1, sizeof *set_w);
    set_cls = tr_calloc(sets + 1, sizeof *set_cls);
    cnt = tr_calloc(dcn + 1, sizeof *cnt);
    if (!set_w || !set_cls || !cnt)
        goto nomem;
    for (size_t i = 0; i < ranges; i++) {
        tokenring_replicas rep;
        tokenring_range rg;
        tokenring_placement_range_replicas(&rep, pl, i);
        tokenring_ring_range(&rg, ring, i);
        set_w[rep.set_id] += ((u128)rg.width.hi << 64) | rg.width.lo;
    }

    static const char what[] = "availability analysis";
    if (pg) {
        pg->total = sets;
        if ((rc = tr_progress_report(pg, what, err)) != TOKENRING_OK)
            goto done;
    }
    c.pg = pg;
    c.err = err;
    c.r = &r;
    c.node_dc = node_dc;
    c.dc_count = dcn;
    c.k = k;
    c.n = (uint32_t)n;
    for (size_t s = 0; s < sets; s++) {
        if (pg) {
            pg->done = s;
            pg->total = sets + c.cands.count;
            if ((rc = tr_progress_tick(pg, what, err)) != TOKENRING_OK)
                goto done;
        }
        tokenring_replicas rep;
        tokenring_placement_set(&rep, pl, s);
        memset(cnt, 0, (dcn + 1) * sizeof *cnt);
        for (uint32_t i = 0; i < rep.count; i++)
            cnt[node_dc[rep.nodes[i]]]++;
        size_t cls;
        for (cls = 0; cls < c.class_count; cls++)
            if (memcmp(c.class_cnt[cls], cnt, dcn * sizeof *cnt) == 0)
                break;
        if (cls == c.class_count) {
            uint32_t **nc = tr_reallocarray(c.class_cnt, c.class_count + 1, sizeof *nc);
            if (!nc)
                goto nomem;
            c.class_cnt = nc;
            if (!(nc[cls] = tr_calloc(dcn + 1, sizeof **nc)))
                goto nomem;
            memcpy(nc[cls], cnt, dcn * sizeof *cnt);
            c.class_count++;
            /* A class that fails with nothing down makes the level unreachable. */
            if (sub_fails(&c, (uint32_t)cls, NULL, 0)) {
                tokenring_range rg;
                tokenring_ring_range(&rg, ring, rep.range_index);
                rc = tr_fail(err, TOKENRING_E_IMPOSSIBLE,
                             "%s cannot be reached even with every node up: range (%lld, "
                             "%lld] has %u replicas",
                             cl_name(consistency), (long long)rg.start, (long long)rg.end,
                             rep.count);
                goto done;
            }
        }
        set_cls[s] = (uint32_t)cls;
        /* Every subset of at most k replicas: accumulate the set's width. */
        uint32_t m = rep.count;
        uint32_t idx[KMAX];
        for (unsigned size = 1; size <= k && size <= m; size++) {
            for (unsigned i = 0; i < size; i++)
                idx[i] = i;
            for (;;) {
                uint32_t sub[KMAX];
                for (unsigned i = 0; i < size; i++)
                    sub[i] = rep.nodes[idx[i]];
                akey key = make_key((uint32_t)cls, sub, size);
                aslot *sl = amap_put(&c.sums, &key);
                if (!sl)
                    goto nomem;
                bool fresh = sl->value == 0;
                sl->value += set_w[s];
                if (fresh && sub_fails(&c, (uint32_t)cls, sub, size)) {
                    int ac = add_completions(&c, key.n, size);
                    if (ac == TOKENRING_E_CANCELLED) {
                        rc = ac;
                        goto done;
                    }
                    if (ac)
                        goto nomem;
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
    }

    res = tr_calloc(1, sizeof *res);
    if (!res)
        goto nomem;
    res->k = k;
    size_t nc = c.cands.count;
    uint32_t *rows = tr_calloc(nc ? nc : 1, KMAX * sizeof *rows);
    if (!rows)
        goto nomem;
    size_t j = 0;
    for (size_t i = 0; i < c.cands.cap; i++)
        if (c.cands.slots[i].used)
            memcpy(rows + (j++) * KMAX, c.cands.slots[i].key.n, KMAX * sizeof *rows);
    qsort(rows, nc, KMAX * sizeof *rows, cmp_tuple);
    if (pg) {
        pg->done = sets;
        pg->total = sets + nc;
        if ((rc = tr_progress_report(pg, what, err)) != TOKENRING_OK) {
            tr_free(rows);
            goto done;
        }
    }
    res->nodes = tr_calloc(nc ? nc * k : 1, sizeof *res->nodes);
    res->widths = tr_calloc(nc ? nc : 1, sizeof *res->widths);
    if (!res->nodes || !res->widths) {
        tr_free(rows);
        goto nomem;
    }
    for (size_t i = 0; i < nc; i++) {
        if (pg) {
            pg->done = sets + i;
            pg->total = sets + nc;
            if ((rc = tr_progress_tick(pg, what, err)) != TOKENRING_OK) {
                tr_free(rows);
                goto done;
            }
        }
        u128 w = eval_candidate(&c, rows + i * KMAX);
        if (w == 0)
            continue;
        memcpy(res->nodes + res->count * k, rows + i * KMAX, k * sizeof *rows);
        res->widths[res->count++] = w;
    }
    tr_free(rows);
    if (pg) {
        pg->done = pg->total = sets + nc;
        (void)tr_progress_report(pg, what, NULL); /* the end: too late to stop */
    }
    *out = res;
    res = NULL;
    rc = TOKENRING_OK;
    goto done;
nomem:
    rc = tr_fail(err, TOKENRING_E_NOMEM, "out of memory in an availability analysis");
done:
    tokenring_availability_free(res);
    tokenring_placement_free(pl);
    for (size_t i = 0; i < c.class_count; i++)
        tr_free(c.class_cnt[i]);
    tr_free(c.class_cnt);
    tr_free(c.sums.slots);
    tr_free(c.cands.slots);
    tr_free(set_w);
    tr_free(set_cls);
    tr_free(cnt);
    tr_free(r.need_dc);
    tr_free(node_dc);
    return rc;
}

TOKENRING_API int tokenring_availability_build(tokenring_availability **out,
                                               const tokenring_ring *ring,
                                               const tokenring_replication *replication,
                                               int consistency, const char *local_dc,
                                               uint32_t k, tokenring_error *err)
{
    return availability(out, ring, replication, consistency, local_dc, k, NULL, err);
}

TOKENRING_API int tokenring_availability_build_progress(
    tokenring_availability **out, const tokenring_ring *ring,
    const tokenring_replication *replication, int consistency, const char *local_dc,
    uint32_t k, tokenring_progress_fn progress, void *user, tokenring_error *err)
{
    tr_progress pg = {progress, user, 0, 0, 0};
    return availability(out, ring, replication, consistency, local_dc, k,
                        progress ? &pg : NULL, err);
}
