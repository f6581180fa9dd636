/* SPDX-License-Identifier: Apache-2.0 */
/* Balance statistics and topology-change (movement) analysis
 * (include/tokenring/analysis.h). Built on the public ring/placement API only. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tokenring/analysis.h"

__extension__ typedef unsigned __int128 u128;

static tokenring_u128 u128_out(u128 v)
{
    tokenring_u128 r = { (uint64_t)(v >> 64), (uint64_t)v };
    return r;
}

static double u128_frac(u128 v)
{
    return (double)((long double)v / 18446744073709551616.0L);
}

/* ------------------------------------------------------------------- balance */

/* Square root by Newton's method (keeps the library free of libm). */
static long double sqrt_ld(long double v)
{
    if (v <= 0)
        return 0;
    long double x = v > 1 ? v : 1;
    for (int i = 0; i < 200; i++) {
        long double nx = 0.5L * (x + v / x);
        if (nx >= x)
            break;
        x = nx;
    }
    return x;
}

static void fill_balance(tokenring_balance *out, const u128 *w, const uint32_t *nodes, size_t n)
{
    memset(out, 0, sizeof *out);
    out->node_count = (uint32_t)n;
    u128 total = 0, mn = 0, mx = 0;
    uint32_t mn_node = 0, mx_node = 0;
    for (size_t i = 0; i < n; i++) {
        total += w[i];
        if (i == 0 || w[i] < mn) {
            mn = w[i];
            mn_node = nodes[i];
        }
        if (i == 0 || w[i] > mx) {
            mx = w[i];
            mx_node = nodes[i];
        }
    }
    out->min_node = mn_node;
    out->max_node = mx_node;
    out->min_width = u128_out(mn);
    out->max_width = u128_out(mx);
    out->total_width = u128_out(total);
    out->min = u128_frac(mn);
    out->max = u128_frac(mx);
    long double mean = n ? ((long double)total / 18446744073709551616.0L) / (long double)n : 0;
    out->mean = (double)mean;
    long double ss = 0;
    for (size_t i = 0; i < n; i++) {
        long double d = (long double)w[i] / 18446744073709551616.0L - mean;
        ss += d * d;
    }
    out->stdev = n > 1 ? (double)sqrt_ld(ss / (long double)(n - 1)) : 0.0;
}

TOKENRING_API int tokenring_balance_compute(tokenring_balance *primary_out,
                                            tokenring_balance *effective_out,
                                            const tokenring_ring *ring,
                                            const tokenring_placement *placement,
                                            const char *datacenter, const char *rack,
                                            tokenring_error *err)
{
    if (!ring)
        return tr_fail(err, TOKENRING_E_INVAL, "ring must not be NULL");
    if (tokenring_ring_partitioner(ring) != TOKENRING_PARTITIONER_MURMUR3)
        return tr_fail(err, TOKENRING_E_UNSUPPORTED,
                       "balance statistics are over 2^64: Murmur3 rings only (so far)");
    if (rack && !datacenter)
        return tr_fail(err, TOKENRING_E_INVAL, "a rack needs its datacenter");
    if (effective_out && !placement)
        return tr_fail(err, TOKENRING_E_INVAL,
                       "effective ownership statistics need a placement");
    if (placement && tokenring_placement_ring(placement) != ring)
        return tr_fail(err, TOKENRING_E_INVAL, "the placement was built from another ring");
    size_t n = tokenring_ring_node_count(ring);
    tokenring_ownership *own = tr_calloc(n ? n : 1, sizeof *own);
    u128 *pw = tr_calloc(n ? n : 1, sizeof *pw);
    u128 *ew = tr_calloc(n ? n : 1, sizeof *ew);
    uint32_t *ids = tr_calloc(n ? n : 1, sizeof *ids);
    int rc = TOKENRING_OK;
    if (!own || !pw || !ew || !ids) {
        rc = tr_fail(err, TOKENRING_E_NOMEM, "out of memory computing balance");
        goto done;
    }
    rc = tokenring_ring_ownership(own, n, ring, placement);
    if (rc != TOKENRING_OK) {
        rc = tr_fail(err, rc, "cannot compute ownership: %s", tokenring_strerror(rc));
        goto done;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        tokenring_node_info info;
        tokenring_ring_node_brief(&info, ring, (uint32_t)i);
        if (own[i].token_count == 0)
            continue;
        if (datacenter && strcmp(info.datacenter, datacenter) != 0)
            continue;
        if (rack && strcmp(info.rack, rack) != 0)
            continue;
        pw[m] = ((u128)own[i].primary_width.hi << 64) | own[i].primary_width.lo;
        ew[m] = ((u128)own[i].effective_width.hi << 64) | own[i].effective_width.lo;
        ids[m] = (uint32_t)i;
        m++;
    }
    if (m == 0) {
        if (rack)
            rc = tr_fail(err, TOKENRING_E_NOTFOUND,
                         "no node of the ring in rack '%s' of datacenter '%s'", rack,
                         datacenter);
        else if (datacenter)
            rc = tr_fail(err, TOKENRING_E_NOTFOUND, "no node of the ring in datacenter '%s'",
                         datacenter);
        else
            rc = tr_fail(err, TOKENRING_E_NOTFOUND, "the ring has no node with tokens");
        goto done;
    }
    if (primary_out)
        fill_balance(primary_out, pw, ids, m);
    if (effective_out)
        fill_balance(effective_out, ew, ids, m);
done:
    tr_free(own);
    tr_free(pw);
    tr_free(ew);
    tr_free(ids);
    return rc;
}

/* ------------------------------------------------------------------ movement */

typedef struct mv_range {
    int64_t start, end;
    u128 width;
    uint32_t old_off, old_count, new_off, new_count;
} mv_range;

typedef struct mv_node {
    char *name;
    u128 before, after, gained, lost, pbefore, pafter;
    uint8_t in_before, in_after;
    uint32_t dc; /* index into the result's dc name list */
} mv_node;

typedef struct mv_sample {
    int64_t token;
    uint32_t old_off, old_count, new_off, new_count;
    uint32_t old_owner, new_owner;
} mv_sample;

struct tokenring_movement {
    mv_node *nodes;
    size_t node_count;
    mv_range *ranges;
    size_t range_count, range_cap;
    tokenring_stream *streams;
    size_t stream_count, stream_cap;
    mv_sample *samples;
    size_t sample_count;
    uint32_t *pool; /* replica lists */
    size_t pool_count, pool_cap;
    u128 changed, pchanged, streamed;
    uint32_t samples_primary_changed, samples_replicas_changed;
};

TOKENRING_API void tokenring_movement_free(tokenring_movement *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->node_count; i++)
        tr_free(m->nodes[i].name);
    tr_free(m->nodes);
    tr_free(m->ranges);
    tr_free(m->streams);
    tr_free(m->samples);
    tr_free(m->pool);
    tr_free(m);
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t nc = *cap ? *cap * 2 : 64;
    while (nc < need)
        nc *= 2;
    void *q = tr_reallocarray(*p, nc, elem);
    if (!q)
        return -1;
    *p = q;
    *cap = nc;
    return 0;
}

/* Appends a replica list (mapped to result numbering) to the pool; returns offset. */
static int pool_add(tokenring_movement *m, const tokenring_replicas *r, const uint32_t *map,
                    uint32_t *off_out)
{
    /* + 1: the pool exists even when every list is empty (rf 0), so m->pool + off is
     * never arithmetic on a null pointer */
    if (grow((void **)&m->pool, &m->pool_cap, m->pool_count + r->count + 1, sizeof(uint32_t)))
        return -1;
    *off_out = (uint32_t)m->pool_count;
    for (uint32_t i = 0; i < r->count; i++)
        m->pool[m->pool_count++] = map[r->nodes[i]];
    return 0;
}

static bool list_has(const uint32_t *l, uint32_t n, uint32_t x)
{
    for (uint32_t i = 0; i < n; i++)
        if (l[i] == x)
            return true;
    return false;
}

static bool same_set(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb)
{
    if (na != nb)
        return false;
    for (uint32_t i = 0; i < na; i++)
        if (!list_has(b, nb, a[i]))
            return false;
    return true;
}

/* Chooses the source of a gained range for `dest` (see the header). */
static uint32_t pick_source(const tokenring_movement *m, const uint32_t *old, uint32_t on,
                            const uint32_t *nw, uint32_t nn, uint32_t dest, int kind,
                            uint8_t *used, uint32_t *strict)
{
    uint32_t ddc = m->nodes[dest].dc;
    *strict = 0;
    if (kind != TOKENRING_CHANGE_REPLACE) {
        /* Losers: old, not new; paired in order, same datacenter first. */
        for (int pass = 0; pass < 2; pass++)
            for (uint32_t i = 0; i < on; i++) {
                if (used[i] || list_has(nw, nn, old[i]))
                    continue;
                if (pass == 0 && m->nodes[old[i]].dc != ddc)
                    continue;
                used[i] = 1;
                *strict = 1;
                return old[i];
            }
    }
    /* Fallback: the first old replica still present, same datacenter first. */
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < on; i++) {
            if (!m->nodes[old[i]].in_after || old[i] == dest)
                continue;
            if (pass == 0 && m->nodes[old[i]].dc != ddc)
                continue;
            return old[i];
        }
    return UINT32_MAX;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Datacenter ids shared by both rings: index into a small list of names. */
static uint32_t dc_id(const char ***names, size_t *count, size_t *cap, const char *dc)
{
    for (size_t i = 0; i < *count; i++)
        if (strcmp((*names)[i], dc) == 0)
            return (uint32_t)i;
    if (grow((void **)names, cap, *count + 1, sizeof(char *)))
        return UINT32_MAX;
    (*names)[*count] = dc;
    return (uint32_t)(*count)++;
}

TOKENRING_API int tokenring_movement_compare(tokenring_movement **out,
                                             const tokenring_topology *before,
                                             const tokenring_topology *after,
                                             const tokenring_replication *replication,
                                             int kind, const int64_t *sample_tokens,
                                             size_t sample_count, tokenring_error *err)
{
    if (!out || !before || !after || !replication || (!sample_tokens && sample_count))
        return tr_fail(err, TOKENRING_E_INVAL, "NULL argument to a movement analysis");
    if (tokenring_topology_partitioner(before) != TOKENRING_PARTITIONER_MURMUR3 ||
        tokenring_topology_partitioner(after) != TOKENRING_PARTITIONER_MURMUR3)
        return tr_fail(err, TOKENRING_E_UNSUPPORTED,
                       "movement analyses work on Murmur3 topologies only (so far)");
    if (kind < TOKENRING_CHANGE_GENERIC || kind > TOKENRING_CHANGE_MOVE)
        return tr_fail(err, TOKENRING_E_INVAL, "unknown change kind %d", kind);
    tokenring_ring *r1 = NULL, *r2 = NULL;
    tokenring_placement *p1 = NULL, *p2 = NULL;
    tokenring_movement *m = NULL;
    uint32_t *map1 = NULL, *map2 = NULL;
    int64_t *bounds = NULL;
    uint8_t *used = NULL;
    const char **dcs = NULL;
    size_t dc_count = 0, dc_cap = 0;
    int rc;
    tokenring_error e2;

    if ((rc = tokenring_ring_build(&r1, before, &e2)) != TOKENRING_OK) {
        rc = tr_fail(err, rc, "before the change: %s", e2.message);
        goto fail;
    }
    if ((rc = tokenring_ring_build(&r2, after, &e2)) != TOKENRING_OK) {
        rc = tr_fail(err, rc, "after the change: %s", e2.message);
        goto fail;
    }
    if ((rc = tokenring_placement_build(&p1, r1, replication, 0, &e2)) != TOKENRING_OK) {
        rc = tr_fail(err, rc, "before the change: %s", e2.message);
        goto fail;
    }
    if ((rc = tokenring_placement_build(&p2, r2, replication, 0, &e2)) != TOKENRING_OK) {
        rc = tr_fail(err, rc, "after the change: %s", e2.message);
        goto fail;
    }
    rc = TOKENRING_E_NOMEM;
    m = tr_calloc(1, sizeof *m);
    size_t n1 = tokenring_ring_node_count(r1), n2 = tokenring_ring_node_count(r2);
    map1 = tr_calloc(n1 + 1, sizeof *map1);
    map2 = tr_calloc(n2 + 1, sizeof *map2);
    if (!m || !map1 || !map2)
        goto nomem;
    m->nodes = tr_calloc(n1 + n2 + 1, sizeof *m->nodes);
    if (!m->nodes)
        goto nomem;
    for (size_t i = 0; i < n1; i++) {
        tokenring_node_info info;
        tokenring_ring_node_brief(&info, r1, (uint32_t)i);
        mv_node *nd = &m->nodes[m->node_count];
        if (!(nd->name = tr_strdup(info.name)))
            goto nomem;
        nd->in_before = 1;
        if ((nd->dc = dc_id(&dcs, &dc_count, &dc_cap, info.datacenter)) == UINT32_MAX)
            goto nomem;
        map1[i] = (uint32_t)m->node_count++;
    }
    for (size_t i = 0; i < n2; i++) {
        tokenring_node_info info;
        tokenring_ring_node_brief(&info, r2, (uint32_t)i);
        uint32_t j;
        if (tokenring_ring_find_node(&j, r1, info.name) == TOKENRING_OK) {
            map2[i] = map1[j];
        } else {
            mv_node *nd = &m->nodes[m->node_count];
            if (!(nd->name = tr_strdup(info.name)))
                goto nomem;
            if ((nd->dc = dc_id(&dcs, &dc_count, &dc_cap, info.datacenter)) == UINT32_MAX)
                goto nomem;
            map2[i] = (uint32_t)m->node_count++;
        }
        m->nodes[map2[i]].in_after = 1;
    }

    /* Elementary ranges: the union of both rings' tokens. */
    size_t c1, c2;
    const int64_t *t1 = tokenring_ring_tokens(r1, &c1);
    const int64_t *t2 = tokenring_ring_tokens(r2, &c2);
    bounds = tr_reallocarray(NULL, c1 + c2, sizeof *bounds);
    if (!bounds)
        goto nomem;
    memcpy(bounds, t1, c1 * sizeof *bounds);
    memcpy(bounds + c1, t2, c2 * sizeof *bounds);
    qsort(bounds, c1 + c2, sizeof *bounds, cmp_i64);
    size_t nb = 0;
    for (size_t i = 0; i < c1 + c2; i++)
        if (nb == 0 || bounds[nb - 1] != bounds[i])
            bounds[nb++] = bounds[i];
    size_t used_cap = 0;

    for (size_t i = 0; i < nb; i++) {
        int64_t end = bounds[i], start = bounds[i == 0 ? nb - 1 : i - 1];
        u128 width = nb == 1 ? ((u128)1 << 64) : (u128)(uint64_t)((uint64_t)end - (uint64_t)start);
        tokenring_replicas ro, rn;
        tokenring_placement_replicas(&ro, p1, end);
        tokenring_placement_replicas(&rn, p2, end);
        uint32_t own1, own2;
        tokenring_ring_owner(&own1, r1, end);
        tokenring_ring_owner(&own2, r2, end);
        m->nodes[map1[own1]].pbefore += width;
        m->nodes[map2[own2]].pafter += width;
        if (map1[own1] != map2[own2])
            m->pchanged += width;
        /* Map into result numbering in a scratch area of the pool. */
        uint32_t off_o, off_n;
        size_t mark = m->pool_count;
        if (pool_add(m, &ro, map1, &off_o) || pool_add(m, &rn, map2, &off_n))
            goto nomem;
        const uint32_t *old = m->pool + off_o, *nw = m->pool + off_n;
        for (uint32_t k = 0; k < ro.count; k++)
            m->nodes[old[k]].before += width;
        for (uint32_t k = 0; k < rn.count; k++)
            m->nodes[nw[k]].after += width;
        if (same_set(old, ro.count, nw, rn.count)) {
            m->pool_count = mark; /* unchanged: drop the lists */
            continue;
        }
        m->changed += width;
        for (uint32_t k = 0; k < rn.count; k++)
            if (!list_has(old, ro.count, nw[k]))
                m->nodes[nw[k]].gained += width;
        for (uint32_t k = 0; k < ro.count; k++)
            if (!list_has(nw, rn.count, old[k]))
                m->nodes[old[k]].lost += width;
        if (grow((void **)&m->ranges, &m->range_cap, m->range_count + 1, sizeof *m->ranges))
            goto nomem;
        mv_range *rg = &m->ranges[m->range_count];
        rg->start = start;
        rg->end = end;
        rg->width = width;
        rg->old_off = off_o;
        rg->old_count = ro.count;
        rg->new_off = off_n;
        rg->new_count = rn.count;
        if (grow((void **)&used, &used_cap, ro.count + 1, 1))
            goto nomem;
        memset(used, 0, ro.count);
        for (uint32_t k = 0; k < rn.count; k++) {
            uint32_t dest = m->pool[off_n + k];
            if (list_has(m->pool + off_o, ro.count, dest))
                continue;
            uint32_t strict;
            uint32_t src = pick_source(m, m->pool + off_o, ro.count, m->pool + off_n,
                                       rn.count, dest, kind, used, &strict);
            if (src == UINT32_MAX)
                continue; /* nobody holds the data (e.g. a datacenter added from nothing) */
            if (grow((void **)&m->streams, &m->stream_cap, m->stream_count + 1,
                     sizeof *m->streams))
                goto nomem;
            tokenring_stream *st = &m->streams[m->stream_count++];
            memset(st, 0, sizeof *st);
            st->start = start;
            st->end = end;
            st->width = u128_out(width);
            st->source = src;
            st->destination = dest;
            st->range_index = (uint32_t)m->range_count;
            st->strict = strict;
            m->streamed += width;
        }
        m->range_count++;
    }

    if (sample_count) {
        m->samples = tr_calloc(sample_count, sizeof *m->samples);
        if (!m->samples)
            goto nomem;
    }
    for (size_t i = 0; i < sample_count; i++) {
        mv_sample *s = &m->samples[i];
        tokenring_replicas ro, rn;
        s->token = sample_tokens[i];
        tokenring_placement_replicas(&ro, p1, s->token);
        tokenring_placement_replicas(&rn, p2, s->token);
        if (pool_add(m, &ro, map1, &s->old_off) || pool_add(m, &rn, map2, &s->new_off))
            goto nomem;
        s->old_count = ro.count;
        s->new_count = rn.count;
        uint32_t o1, o2;
        tokenring_ring_owner(&o1, r1, s->token);
        tokenring_ring_owner(&o2, r2, s->token);
        s->old_owner = map1[o1];
        s->new_owner = map2[o2];
        m->sample_count++;
        if (s->old_owner != s->new_owner)
            m->samples_primary_changed++;
        if (!same_set(m->pool + s->old_off, s->old_count, m->pool + s->new_off, s->new_count))
            m->samples_replicas_changed++;
    }
    rc = TOKENRING_OK;
    *out = m;
    m = NULL;
    goto fail;
nomem:
    rc = tr_fail(err, TOKENRING_E_NOMEM, "out of memory in a movement analysis");
fail:
    tokenring_movement_free(m);
    tokenring_placement_free(p1);
    tokenring_placement_free(p2);
    tokenring_ring_free(r1);
    tokenring_ring_free(r2);
    tr_free(map1);
    tr_free(map2);
    tr_free(bounds);
    tr_free(used);
    tr_free(dcs);
    return rc;
}

static int movement_on_clone(tokenring_movement **out, const tokenring_topology *topology,
                             const tokenring_replication *replication, int kind,
                             const char *name, const char *name2, const char *dc,
                             const char *rack, const int64_t *tokens, size_t token_count,
                             const int64_t *samples, size_t sample_count, tokenring_error *err)
{
    if (!out || !topology || !replication || !name)
        return tr_fail(err, TOKENRING_E_INVAL, "NULL argument to a movement analysis");
    tokenring_topology *copy = NULL;
    int rc = tokenring_topology_clone(&copy, topology);
    if (rc != TOKENRING_OK)
        return tr_fail(err, rc, "cannot copy the topology");
    size_t idx;
    if (kind != TOKENRING_CHANGE_JOIN &&
        tokenring_topology_find_node(&idx, topology, name) != TOKENRING_OK) {
        tokenring_topology_free(copy);
        return tr_fail(err, TOKENRING_E_NOTFOUND, "unknown node '%s'", name);
    }
    switch (kind) {
    case TOKENRING_CHANGE_JOIN:
        rc = tokenring_topology_add_node(copy, name, dc, rack, tokens, token_count, err);
        break;
    case TOKENRING_CHANGE_DECOMMISSION:
        rc = tokenring_topology_remove_node(copy, name, err);
        break;
    case TOKENRING_CHANGE_REPLACE:
        rc = tokenring_topology_replace_node(copy, name, name2, err);
        break;
    default:
        rc = tokenring_topology_set_tokens(copy, name, tokens, token_count, err);
        break;
    }
    if (rc == TOKENRING_OK)
        rc = tokenring_movement_compare(out, topology, copy, replication, kind, samples,
                                        sample_count, err);
    tokenring_topology_free(copy);
    return rc;
}

TOKENRING_API int tokenring_movement_join(tokenring_movement **out,
                                          const tokenring_topology *topology,
                                          const tokenring_replication *replication,
                                          const char *name, const char *datacenter,
                                          const char *rack, const int64_t *tokens,
                                          size_t token_count, const int64_t *sample_tokens,
                                          size_t sample_count, tokenring_error *err)
{
    return movement_on_clone(out, topology, replication, TOKENRING_CHANGE_JOIN, name, NULL,
                             datacenter, rack, tokens, token_count, sample_tokens,
                             sample_count, err);
}

TOKENRING_API int tokenring_movement_decommission(tokenring_movement **out,
                                                  const tokenring_topology *topology,
                                                  const tokenring_replication *replication,
                                                  const char *name,
                                                  const int64_t *sample_tokens,
                                                  size_t sample_count, tokenring_error *err)
{
    return movement_on_clone(out, topology, replication, TOKENRING_CHANGE_DECOMMISSION, name,
                             NULL, NULL, NULL, NULL, 0, sample_tokens, sample_count, err);
}

TOKENRING_API int tokenring_movement_replace(tokenring_movement **out,
                                             const tokenring_topology *topology,
                                             const tokenring_replication *replication,
                                             const char *old_name, const char *new_name,
                                             const int64_t *sample_tokens,
                                             size_t sample_count, tokenring_error *err)
{
    if (!new_name)
        return tr_fail(err, TOKENRING_E_INVAL, "NULL argument to a movement analysis");
    return movement_on_clone(out, topology, replication, TOKENRING_CHANGE_REPLACE, old_name,
                             new_name, NULL, NULL, NULL, 0, sample_tokens, sample_count, err);
}

TOKENRING_API int tokenring_movement_move(tokenring_movement **out,
                                          const tokenring_topology *topology,
                                          const tokenring_replication *replication,
                                          const char *name, const int64_t *tokens,
                                          size_t token_count, const int64_t *sample_tokens,
                                          size_t sample_count, tokenring_error *err)
{
    return movement_on_clone(out, topology, replication, TOKENRING_CHANGE_MOVE, name, NULL,
                             NULL, NULL, tokens, token_count, sample_tokens, sample_count, err);
}

TOKENRING_API int tokenring_movement_get_summary(tokenring_movement_summary *out,
                                                 const tokenring_movement *m)
{
    if (!out || !m)
        return TOKENRING_E_INVAL;
    memset(out, 0, sizeof *out);
    out->changed_width = u128_out(m->changed);
    out->primary_changed_width = u128_out(m->pchanged);
    out->streamed_width = u128_out(m->streamed);
    out->changed_fraction = u128_frac(m->changed);
    out->primary_changed_fraction = u128_frac(m->pchanged);
    out->streamed_fraction = u128_frac(m->streamed);
    out->range_count = (uint32_t)m->range_count;
    out->stream_count = (uint32_t)m->stream_count;
    out->node_count = (uint32_t)m->node_count;
    for (size_t i = 0; i < m->node_count; i++)
        if (m->nodes[i].in_before && m->nodes[i].in_after && m->nodes[i].lost > 0)
            out->cleanup_count++;
    out->sample_count = (uint32_t)m->sample_count;
    out->samples_primary_changed = m->samples_primary_changed;
    out->samples_replicas_changed = m->samples_replicas_changed;
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_movement_get_node(tokenring_movement_node *out,
                                              const tokenring_movement *m, size_t index)
{
    if (!out || !m)
        return TOKENRING_E_INVAL;
    if (index >= m->node_count)
        return TOKENRING_E_RANGE;
    const mv_node *n = &m->nodes[index];
    memset(out, 0, sizeof *out);
    out->name = n->name;
    out->before_width = u128_out(n->before);
    out->after_width = u128_out(n->after);
    out->gained_width = u128_out(n->gained);
    out->lost_width = u128_out(n->lost);
    out->primary_before_width = u128_out(n->pbefore);
    out->primary_after_width = u128_out(n->pafter);
    out->gained_fraction =
        n->after ? (double)((long double)n->gained / (long double)n->after) : 0.0;
    out->lost_fraction =
        n->before ? (double)((long double)n->lost / (long double)n->before) : 0.0;
    out->in_before = n->in_before;
    out->in_after = n->in_after;
    out->needs_cleanup = n->in_before && n->in_after && n->lost > 0;
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_movement_get_range(tokenring_moved_range *out,
                                               const tokenring_movement *m, size_t index)
{
    if (!out || !m)
        return TOKENRING_E_INVAL;
    if (index >= m->range_count)
        return TOKENRING_E_RANGE;
    const mv_range *r = &m->ranges[index];
    memset(out, 0, sizeof *out);
    out->start = r->start;
    out->end = r->end;
    out->width = u128_out(r->width);
    out->old_replicas = m->pool + r->old_off;
    out->new_replicas = m->pool + r->new_off;
    out->old_count = r->old_count;
    out->new_count = r->new_count;
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_movement_get_stream(tokenring_stream *out,
                                                const tokenring_movement *m, size_t index)
{
    if (!out || !m)
        return TOKENRING_E_INVAL;
    if (index >= m->stream_count)
        return TOKENRING_E_RANGE;
    *out = m->streams[index];
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_movement_get_sample(tokenring_sample_change *out,
                                                const tokenring_movement *m, size_t index)
{
    if (!out || !m)
        return TOKENRING_E_INVAL;
    if (index >= m->sample_count)
        return TOKENRING_E_RANGE;
    const mv_sample *s = &m->samples[index];
    memset(out, 0, sizeof *out);
    out->token = s->token;
    out->old_replicas = m->pool + s->old_off;
    out->new_replicas = m->pool + s->new_off;
    out->old_count = s->old_count;
    out->new_count = s->new_count;
    out->old_owner = s->old_owner;
    out->new_owner = s->new_owner;
    out->owner_changed = s->old_owner != s->new_owner;
    out->replicas_changed =
        !same_set(out->old_replicas, s->old_count, out->new_replicas, s->new_count);
    return TOKENRING_OK;
}

/* ---------------------------------------------------------------- kept tokens */

TOKENRING_API int tokenring_ring_tokens_kept(size_t *kept_out, size_t *lost_out,
                                             size_t *gained_out, const tokenring_ring *before,
                                             const tokenring_ring *after)
{
    if (before == NULL || after == NULL)
        return TOKENRING_E_INVAL;
    if (tokenring_ring_partitioner(before) != TOKENRING_PARTITIONER_MURMUR3 ||
        tokenring_ring_partitioner(after) != TOKENRING_PARTITIONER_MURMUR3)
        return TOKENRING_E_UNSUPPORTED;
    size_t kept = 0, lost = 0, gained = 0;
    size_t n = tokenring_ring_node_count(before);
    for (size_t i = 0; i < n; i++) {
        tokenring_node_info a, b;
        int rc = tokenring_ring_node(&a, before, (uint32_t)i);
        if (rc != TOKENRING_OK)
            return rc;
        uint32_t j;
        if (tokenring_ring_find_node(&j, after, a.name) != TOKENRING_OK) {
            lost += a.token_count;
            continue;
        }
        if ((rc = tokenring_ring_node(&b, after, j)) != TOKENRING_OK)
            return rc;
        /* both lists ascending: one merge counts the common tokens */
        size_t x = 0, y = 0, common = 0;
        while (x < a.token_count && y < b.token_count) {
            if (a.tokens[x] < b.tokens[y]) {
                x++;
            } else if (a.tokens[x] > b.tokens[y]) {
                y++;
            } else {
                common++;
                x++;
                y++;
            }
        }
        kept += common;
        lost += a.token_count - common;
        gained += b.token_count - common;
    }
    if (kept_out)
        *kept_out = kept;
    if (lost_out)
        *lost_out = lost;
    if (gained_out)
        *gained_out = gained;
    return TOKENRING_OK;
}
