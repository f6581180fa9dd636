/* SPDX-License-Identifier: Apache-2.0 */
/* Topology-change (movement) analysis (include/tokenring/movement.h and
 * movement_result.h) and kept tokens (tokenring_ring_tokens_kept(), ring.h; the balance
 * statistics are balance.c). Built on the public ring/placement API only. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "movement_internal.h"
#include "token.h"
#include "tokenring/movement.h"
#include "tokenring/ring.h"


static tokenring_u128 u128_out(tr_u128 v)
{
    tokenring_u128 r = { (uint64_t)(v >> 64), (uint64_t)v };
    return r;
}

static double u128_frac(tr_u128 v)
{
    return (double)((long double)v / 18446744073709551616.0L);
}

/* ------------------------------------------------------------------ movement */

typedef struct mv_range {
    int64_t start, end;
    tr_u128 width;
    uint32_t old_off, old_count, new_off, new_count;
} mv_range;

typedef struct mv_node {
    char *name;
    tr_u128 before, after, gained, lost, pbefore, pafter;
    uint8_t in_before, in_after;
    uint32_t dc; /* index into the result's dc name list */
} mv_node;

typedef struct mv_sample {
    int64_t token;
    uint32_t old_off, old_count, new_off, new_count;
    uint32_t old_owner, new_owner;
} mv_sample;

/* What a RandomPartitioner or ByteOrderedPartitioner result holds besides: the bounds of
 * changed range i are tok[2i], tok[2i + 1] and sample j's token is stok[j] (t128 / s128
 * for RandomPartitioner, spans of the byte arena for ByteOrderedPartitioner); `space` is
 * the whole ring in the widths' units (2^127, or the elementary range count). */
struct mv_span {
    size_t off, len;
};

struct mv_other {
    int partitioner;
    tr_u128 space;
    tokenring_token128 *t128, *s128;
    size_t t128_cap;
    struct mv_span *span, *sspan;
    size_t span_cap;
    uint8_t *arena;
    size_t arena_len, arena_cap;
};

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
    tr_u128 changed, pchanged, streamed;
    uint32_t samples_primary_changed, samples_replicas_changed;
    struct mv_other *other; /* other partitioners only (NULL on Murmur3, whose result is
                             * laid out as in 1.0) */
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
    if (m->other) {
        tr_free(m->other->t128);
        tr_free(m->other->s128);
        tr_free(m->other->span);
        tr_free(m->other->sspan);
        tr_free(m->other->arena);
        tr_free(m->other);
    }
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

/* Ring a's token i against ring b's token j, in the partitioner's order. */
static int pos_cmp(const tokenring_ring *a, size_t i, const tokenring_ring *b, size_t j)
{
    tr_tok x = tr_ring_token(a, i), y = tr_ring_token(b, j);
    return tr_tok_cmp(&x, &y);
}

/* One elementary boundary of two rings of another partitioner: the ring and position
 * its token is read from, and the range of each ring holding it. */
typedef struct mv_bound {
    const tokenring_ring *ring;
    uint32_t at, r1, r2;
} mv_bound;

/* Appends bytes to the result's arena; the span receives where they are. */
static int arena_add(tokenring_movement *m, struct mv_span *sp, const uint8_t *b, size_t len)
{
    if (grow((void **)&m->other->arena, &m->other->arena_cap, m->other->arena_len + len + 1, 1))
        return -1;
    if (len)
        memcpy(m->other->arena + m->other->arena_len, b, len);
    sp->off = m->other->arena_len;
    sp->len = len;
    m->other->arena_len += len;
    return 0;
}

/* Records the bounds of changed range m->range_count - 1 (another partitioner). */
static int record_bounds(tokenring_movement *m, const mv_bound *s, const mv_bound *e)
{
    size_t k = m->range_count - 1;
    if (m->other->partitioner == TOKENRING_PARTITIONER_RANDOM) {
        if (grow((void **)&m->other->t128, &m->other->t128_cap, 2 * k + 2, sizeof *m->other->t128))
            return -1;
        tokenring_ring_token128(&m->other->t128[2 * k], s->ring, s->at);
        tokenring_ring_token128(&m->other->t128[2 * k + 1], e->ring, e->at);
        return 0;
    }
    if (grow((void **)&m->other->span, &m->other->span_cap, 2 * k + 2, sizeof *m->other->span))
        return -1;
    const uint8_t *b;
    size_t len;
    tokenring_ring_token_bytes(&b, &len, s->ring, s->at);
    if (arena_add(m, &m->other->span[2 * k], b, len))
        return -1;
    tokenring_ring_token_bytes(&b, &len, e->ring, e->at);
    return arena_add(m, &m->other->span[2 * k + 1], b, len);
}

static tr_u128 sat_add(tr_u128 a, tr_u128 b)
{
    tr_u128 s = a + b;
    return s < a ? ~(tr_u128)0 : s;
}

/* One elementary range (start, end] with its old and new replicas and owners: adds its
 * widths to the nodes and, when the replica set changes, a changed range and its
 * streams. *added tells whether a range was appended. Returns -1 when out of memory. */
__attribute__((always_inline)) static inline int mv_step(tokenring_movement *m, const tokenring_replicas *ro,
                   const tokenring_replicas *rn, uint32_t own1, uint32_t own2,
                   const uint32_t *map1, const uint32_t *map2, tr_u128 width, int64_t start,
                   int64_t end, int kind, uint8_t **used, size_t *used_cap, bool *added)
{
    *added = false;
    m->nodes[map1[own1]].pbefore += width;
    m->nodes[map2[own2]].pafter += width;
    if (map1[own1] != map2[own2])
        m->pchanged += width;
    /* Map into result numbering in a scratch area of the pool. */
    uint32_t off_o, off_n;
    size_t mark = m->pool_count;
    if (pool_add(m, ro, map1, &off_o) || pool_add(m, rn, map2, &off_n))
        return -1;
    const uint32_t *old = m->pool + off_o, *nw = m->pool + off_n;
    for (uint32_t k = 0; k < ro->count; k++)
        m->nodes[old[k]].before += width;
    for (uint32_t k = 0; k < rn->count; k++)
        m->nodes[nw[k]].after += width;
    if (same_set(old, ro->count, nw, rn->count)) {
        m->pool_count = mark; /* unchanged: drop the lists */
        return 0;
    }
    m->changed += width;
    for (uint32_t k = 0; k < rn->count; k++)
        if (!list_has(old, ro->count, nw[k]))
            m->nodes[nw[k]].gained += width;
    for (uint32_t k = 0; k < ro->count; k++)
        if (!list_has(nw, rn->count, old[k]))
            m->nodes[old[k]].lost += width;
    if (grow((void **)&m->ranges, &m->range_cap, m->range_count + 1, sizeof *m->ranges))
        return -1;
    mv_range *rg = &m->ranges[m->range_count];
    rg->start = start;
    rg->end = end;
    rg->width = width;
    rg->old_off = off_o;
    rg->old_count = ro->count;
    rg->new_off = off_n;
    rg->new_count = rn->count;
    if (grow((void **)used, used_cap, ro->count + 1, 1))
        return -1;
    memset(*used, 0, ro->count);
    for (uint32_t k = 0; k < rn->count; k++) {
        uint32_t dest = m->pool[off_n + k];
        if (list_has(m->pool + off_o, ro->count, dest))
            continue;
        uint32_t strict;
        uint32_t src = pick_source(m, m->pool + off_o, ro->count, m->pool + off_n, rn->count,
                                   dest, kind, *used, &strict);
        if (src == UINT32_MAX)
            continue; /* nobody holds the data (e.g. a datacenter added from nothing) */
        if (grow((void **)&m->streams, &m->stream_cap, m->stream_count + 1, sizeof *m->streams))
            return -1;
        tokenring_stream *st = &m->streams[m->stream_count++];
        memset(st, 0, sizeof *st);
        st->start = start;
        st->end = end;
        st->width = u128_out(width);
        st->source = src;
        st->destination = dest;
        st->range_index = (uint32_t)m->range_count;
        st->strict = strict;
        m->streamed = sat_add(m->streamed, width);
    }
    m->range_count++;
    *added = true;
    return 0;
}

/* mv_step for the other partitioners' walk (no int64_t bounds), not inlined there: only
 * the Murmur3 walk needs it inlined. */
__attribute__((noinline)) static int mv_step_other(tokenring_movement *m,
                                                   const tokenring_replicas *ro,
                                                   const tokenring_replicas *rn, uint32_t own1,
                                                   uint32_t own2, const uint32_t *map1,
                                                   const uint32_t *map2, tr_u128 width, int kind,
                                                   uint8_t **used, size_t *used_cap, bool *added)
{
    return mv_step(m, ro, rn, own1, own2, map1, map2, width, 0, 0, kind, used, used_cap, added);
}

static int walk_other_in(tokenring_movement *m, tokenring_partitioner part,
                         const tokenring_ring *r1, const tokenring_ring *r2,
                         const tokenring_placement *p1, const tokenring_placement *p2,
                         const uint32_t *map1, const uint32_t *map2, int kind,
                         const uint32_t **pos1_out, const uint32_t **pos2_out,
                         mv_bound **pb_out, uint8_t **usedp, size_t *used_cap)
{
    /* Elementary ranges: both rings' sorted tokens merged; each boundary remembers
     * the range of each ring holding it (the first token at or after it, wrapping). */
    size_t c1, c2;
    tokenring_ring_tokens(r1, &c1);
    tokenring_ring_tokens(r2, &c2);
    const uint32_t *pos1 = *pos1_out = tokenring_ring_token_nodes(r1, NULL);
    const uint32_t *pos2 = *pos2_out = tokenring_ring_token_nodes(r2, NULL);
    mv_bound *pb = *pb_out = tr_reallocarray(NULL, c1 + c2, sizeof *pb);
    if (!pb || !pos1 || !pos2)
        return -1;
    size_t nb = 0, i = 0, j = 0;
    while (i < c1 || j < c2) {
        int c = i == c1 ? 1 : j == c2 ? -1 : pos_cmp(r1, i, r2, j);
        mv_bound *b = &pb[nb++];
        b->ring = c <= 0 ? r1 : r2;
        b->at = (uint32_t)(c <= 0 ? i : j);
        b->r1 = (uint32_t)(i == c1 ? 0 : i);
        b->r2 = (uint32_t)(j == c2 ? 0 : j);
        if (c <= 0)
            i++;
        if (c >= 0)
            j++;
    }
    /* the ring's space in the partitioner's units; without token arithmetic
     * (ByteOrdered) one per elementary range */
    const tr_partitioner_ops *o = tr_ops(part);
    m->other->space = o->width_bits ? (tr_u128)1 << o->width_bits : (tr_u128)nb;
    for (size_t k = 0; k < nb; k++) {
        const mv_bound *e = &pb[k], *s = &pb[k == 0 ? nb - 1 : k - 1];
        tr_u128 width = 1;
        if (o->width_bits) { /* as tokenring_range128: the whole ring for one bound */
            tr_tok a = tr_ring_token(s->ring, s->at), z = tr_ring_token(e->ring, e->at);
            width = o->size(&a, &z);
        }
        tokenring_replicas ro, rn;
        tokenring_placement_range_replicas(&ro, p1, e->r1);
        tokenring_placement_range_replicas(&rn, p2, e->r2);
        bool added;
        if (mv_step_other(m, &ro, &rn, pos1[e->r1], pos2[e->r2], map1, map2, width, kind,
                          usedp, used_cap, &added))
            return -1;
        if (added && record_bounds(m, s, e))
            return -1;
    }
    return 0;
}

/* The elementary ranges of two rings of another partitioner (the Murmur3 walk is in
 * movement_compare, unchanged): both rings' sorted tokens merged, each boundary
 * remembering the range of each ring holding it (the first token at or after it,
 * wrapping). Kept out of movement_compare so that the Murmur3 walk compiles as before.
 * Returns -1 when out of memory. */
__attribute__((noinline)) static int walk_other(
    tokenring_movement *m, tokenring_partitioner part, const tokenring_ring *r1,
    const tokenring_ring *r2, const tokenring_placement *p1, const tokenring_placement *p2,
    const uint32_t *map1, const uint32_t *map2, int kind, const uint32_t **pos1_out,
    const uint32_t **pos2_out)
{
    uint8_t *used = NULL;
    size_t used_cap = 0;
    mv_bound *pb = NULL;
    int rc = walk_other_in(m, part, r1, r2, p1, p2, map1, map2, kind, pos1_out, pos2_out,
                           &pb, &used, &used_cap);
    tr_free(pb);
    tr_free(used);
    return rc;
}

/* The elementary ranges of two Murmur3 rings: the union of both rings' tokens (the walk
 * of 1.0, in its own function so that the other partitioners' code around it does not
 * change how it compiles). Returns -1 when out of memory. */
__attribute__((noinline)) static int walk_murmur3(tokenring_movement *m,
                                                  const tokenring_ring *r1,
                                                  const tokenring_ring *r2,
                                                  const tokenring_placement *p1,
                                                  const tokenring_placement *p2,
                                                  const uint32_t *map1, const uint32_t *map2,
                                                  int kind)
{
    int64_t *bounds = NULL;
    uint8_t *used = NULL;
    size_t used_cap = 0;
    int rc = -1;
    /* Elementary ranges: the union of both rings' tokens. */
    size_t c1, c2;
    const int64_t *t1 = tokenring_ring_tokens(r1, &c1);
    const int64_t *t2 = tokenring_ring_tokens(r2, &c2);
    bounds = tr_reallocarray(NULL, c1 + c2, sizeof *bounds);
    if (!bounds)
        goto fail;
    memcpy(bounds, t1, c1 * sizeof *bounds);
    memcpy(bounds + c1, t2, c2 * sizeof *bounds);
    qsort(bounds, c1 + c2, sizeof *bounds, tr_cmp_i64);
    size_t nb = 0;
    for (size_t i = 0; i < c1 + c2; i++)
        if (nb == 0 || bounds[nb - 1] != bounds[i])
            bounds[nb++] = bounds[i];

    for (size_t i = 0; i < nb; i++) {
        int64_t end = bounds[i], start = bounds[i == 0 ? nb - 1 : i - 1];
        tr_u128 width =
            nb == 1 ? ((tr_u128)1 << 64) : (tr_u128)(uint64_t)((uint64_t)end - (uint64_t)start);
        tokenring_replicas ro, rn;
        tokenring_placement_replicas(&ro, p1, end);
        tokenring_placement_replicas(&rn, p2, end);
        uint32_t own1, own2;
        tokenring_ring_owner(&own1, r1, end);
        tokenring_ring_owner(&own2, r2, end);
        bool added;
        if (mv_step(m, &ro, &rn, own1, own2, map1, map2, width, start, end, kind, &used,
                    &used_cap, &added))
            goto fail;
    }
    rc = 0;
fail:
    tr_free(bounds);
    tr_free(used);
    return rc;
}

/* Samples: either int64 tokens (Murmur3) or packed keys hashed with the partitioner. */
typedef struct mv_samples {
    bool by_key;
    const int64_t *tokens;
    const uint8_t *keys;
    const uint64_t *offsets;
    size_t count;
} mv_samples;

static int movement_compare(tokenring_movement **out, const tokenring_topology *before,
                            const tokenring_topology *after,
                            const tokenring_replication *replication, int kind,
                            const mv_samples *smp, tokenring_error *err)
{
    if (!out || !before || !after || !replication)
        return tr_fail(err, TOKENRING_E_INVAL, "NULL argument to a movement analysis");
    if (smp->count && !(smp->by_key ? smp->offsets != NULL : smp->tokens != NULL))
        return tr_fail(err, TOKENRING_E_INVAL, "NULL argument to a movement analysis");
    tokenring_partitioner part = tokenring_topology_partitioner(before);
    if (tokenring_topology_partitioner(after) != part)
        return tr_fail(err, TOKENRING_E_INVAL,
                       "the topologies have different partitioners (%s before, %s after)",
                       tokenring_partitioner_name(part),
                       tokenring_partitioner_name(tokenring_topology_partitioner(after)));
    if (part != TOKENRING_PARTITIONER_MURMUR3 && !smp->by_key && smp->count)
        return tr_fail(err, TOKENRING_E_UNSUPPORTED,
                       "the topologies' partitioner is %s: sample tokens are not 64-bit "
                       "integers (pass sample keys: tokenring_movement_compare_keys())",
                       tokenring_partitioner_name(part));
    if (kind < TOKENRING_CHANGE_GENERIC || kind > TOKENRING_CHANGE_MOVE)
        return tr_fail(err, TOKENRING_E_INVAL, "unknown change kind %d", kind);
    if (smp->by_key && smp->count) {
        if (!smp->keys && smp->offsets[smp->count] != smp->offsets[0])
            return tr_fail(err, TOKENRING_E_INVAL, "NULL sample keys with non-empty keys");
        for (size_t i = 0; i < smp->count; i++)
            if (smp->offsets[i + 1] < smp->offsets[i])
                return tr_fail(err, TOKENRING_E_INVAL,
                               "sample key offsets must not decrease (key %zu)", i);
    }
    tokenring_ring *r1 = NULL, *r2 = NULL;
    tokenring_placement *p1 = NULL, *p2 = NULL;
    tokenring_movement *m = NULL;
    uint32_t *map1 = NULL, *map2 = NULL;
    int64_t *hashed = NULL;
    const char **dcs = NULL;
    size_t dc_count = 0, dc_cap = 0;
    int rc;
    tokenring_error e2;
    const int64_t *sample_tokens = smp->tokens;
    size_t sample_count = smp->count;

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
    if (part != TOKENRING_PARTITIONER_MURMUR3) {
        if (!(m->other = tr_calloc(1, sizeof *m->other)))
            goto nomem;
        m->other->partitioner = (int)part;
    }
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

    const uint32_t *pos1 = NULL, *pos2 = NULL; /* ring position -> node (other partitioners) */
    if (part == TOKENRING_PARTITIONER_MURMUR3) {
        if (walk_murmur3(m, r1, r2, p1, p2, map1, map2, kind))
            goto nomem;
    } else if (walk_other(m, part, r1, r2, p1, p2, map1, map2, kind, &pos1, &pos2)) {
        goto nomem;
    }

    if (sample_count) {
        m->samples = tr_calloc(sample_count, sizeof *m->samples);
        if (!m->samples)
            goto nomem;
        if (part == TOKENRING_PARTITIONER_MURMUR3 && smp->by_key) {
            if (!(hashed = tr_reallocarray(NULL, sample_count, sizeof *hashed)))
                goto nomem;
            for (size_t i = 0; i < sample_count; i++)
                hashed[i] = smp->keys ? tokenring_token(smp->keys + smp->offsets[i],
                                                        (size_t)(smp->offsets[i + 1] -
                                                                 smp->offsets[i]))
                                      : tokenring_token("", 0);
            sample_tokens = hashed;
        } else if (part == TOKENRING_PARTITIONER_RANDOM) {
            if (!(m->other->s128 = tr_calloc(sample_count, sizeof *m->other->s128)))
                goto nomem;
        } else if (part == TOKENRING_PARTITIONER_BYTE_ORDERED) {
            if (!(m->other->sspan = tr_calloc(sample_count, sizeof *m->other->sspan)))
                goto nomem;
        }
    }
    for (size_t i = 0; i < sample_count; i++) {
        mv_sample *s = &m->samples[i];
        tokenring_replicas ro, rn;
        uint32_t o1, o2;
        if (part == TOKENRING_PARTITIONER_MURMUR3) {
            s->token = sample_tokens[i];
            tokenring_placement_replicas(&ro, p1, s->token);
            tokenring_placement_replicas(&rn, p2, s->token);
            tokenring_ring_owner(&o1, r1, s->token);
            tokenring_ring_owner(&o2, r2, s->token);
        } else {
            static const uint8_t none[1];
            const uint8_t *key = smp->keys ? smp->keys + smp->offsets[i] : none;
            size_t len = (size_t)(smp->offsets[i + 1] - smp->offsets[i]);
            tr_tok t = tr_ops(part)->key_token(key, len);
            uint32_t x = tr_ring_search_tok(r1, &t), y = tr_ring_search_tok(r2, &t);
            /* the result keeps the sample's token in the partitioner's column */
            if (m->other->s128)
                m->other->s128[i] = t.v128;
            else if (arena_add(m, &m->other->sspan[i], key, len))
                goto nomem;
            tokenring_placement_range_replicas(&ro, p1, x);
            tokenring_placement_range_replicas(&rn, p2, y);
            o1 = pos1[x];
            o2 = pos2[y];
        }
        if (pool_add(m, &ro, map1, &s->old_off) || pool_add(m, &rn, map2, &s->new_off))
            goto nomem;
        s->old_count = ro.count;
        s->new_count = rn.count;
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
    tr_free(hashed);
    tr_free(dcs);
    return rc;
}

TOKENRING_API int tokenring_movement_compare(tokenring_movement **out,
                                             const tokenring_topology *before,
                                             const tokenring_topology *after,
                                             const tokenring_replication *replication,
                                             int kind, const int64_t *sample_tokens,
                                             size_t sample_count, tokenring_error *err)
{
    mv_samples smp = { false, sample_tokens, NULL, NULL, sample_count };
    return movement_compare(out, before, after, replication, kind, &smp, err);
}

TOKENRING_API int tokenring_movement_compare_keys(tokenring_movement **out,
                                                  const tokenring_topology *before,
                                                  const tokenring_topology *after,
                                                  const tokenring_replication *replication,
                                                  int kind, const uint8_t *sample_keys,
                                                  const uint64_t *sample_offsets,
                                                  size_t sample_count, tokenring_error *err)
{
    mv_samples smp = { true, NULL, sample_keys, sample_offsets, sample_count };
    return movement_compare(out, before, after, replication, kind, &smp, err);
}

/* The new tokens of a join or a move, in one of the three forms. */
typedef struct mv_tokens {
    int partitioner; /* which of the arrays below */
    const int64_t *t64;
    const tokenring_token128 *t128;
    const uint8_t *const *tb;
    const size_t *tb_len;
    size_t count;
} mv_tokens;

static int movement_on_clone(tokenring_movement **out, const tokenring_topology *topology,
                             const tokenring_replication *replication, int kind,
                             const char *name, const char *name2, const char *dc,
                             const char *rack, const mv_tokens *tok, const mv_samples *smp,
                             tokenring_error *err)
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
        rc = tok->partitioner == TOKENRING_PARTITIONER_RANDOM
                 ? tokenring_topology_add_node128(copy, name, dc, rack, tok->t128, tok->count,
                                                  err)
             : tok->partitioner == TOKENRING_PARTITIONER_BYTE_ORDERED
                 ? tokenring_topology_add_node_bytes(copy, name, dc, rack, tok->tb,
                                                     tok->tb_len, tok->count, err)
                 : tokenring_topology_add_node(copy, name, dc, rack, tok->t64, tok->count, err);
        break;
    case TOKENRING_CHANGE_DECOMMISSION:
        rc = tokenring_topology_remove_node(copy, name, err);
        break;
    case TOKENRING_CHANGE_REPLACE:
        rc = tokenring_topology_replace_node(copy, name, name2, err);
        break;
    default:
        rc = tok->partitioner == TOKENRING_PARTITIONER_RANDOM
                 ? tokenring_topology_set_tokens128(copy, name, tok->t128, tok->count, err)
             : tok->partitioner == TOKENRING_PARTITIONER_BYTE_ORDERED
                 ? tokenring_topology_set_tokens_bytes(copy, name, tok->tb, tok->tb_len,
                                                       tok->count, err)
                 : tokenring_topology_set_tokens(copy, name, tok->t64, tok->count, err);
        break;
    }
    if (rc == TOKENRING_OK)
        rc = movement_compare(out, topology, copy, replication, kind, smp, err);
    tokenring_topology_free(copy);
    return rc;
}

/* The typed entry points (int64, 128-bit, bytes) pass their tokens as they came: the
 * topology's own typed calls check them against its partitioner (the ABI's checks). */
#define MV_T64(t, n) { TOKENRING_PARTITIONER_MURMUR3, (t), NULL, NULL, NULL, (n) }
#define MV_T128(t, n) { TOKENRING_PARTITIONER_RANDOM, NULL, (t), NULL, NULL, (n) }
#define MV_TB(t, l, n) { TOKENRING_PARTITIONER_BYTE_ORDERED, NULL, NULL, (t), (l), (n) }
#define MV_NONE { TOKENRING_PARTITIONER_MURMUR3, NULL, NULL, NULL, NULL, 0 }
#define MV_BY_TOKEN(t, n) { false, (t), NULL, NULL, (n) }
#define MV_BY_KEY(k, o, n) { true, NULL, (k), (o), (n) }

TOKENRING_API int tokenring_movement_join(tokenring_movement **out,
                                          const tokenring_topology *topology,
                                          const tokenring_replication *replication,
                                          const char *name, const char *datacenter,
                                          const char *rack, const int64_t *tokens,
                                          size_t token_count, const int64_t *sample_tokens,
                                          size_t sample_count, tokenring_error *err)
{
    mv_tokens tok = MV_T64(tokens, token_count);
    mv_samples smp = MV_BY_TOKEN(sample_tokens, sample_count);
    return movement_on_clone(out, topology, replication, TOKENRING_CHANGE_JOIN, name, NULL,
                             datacenter, rack, &tok, &smp, err);
}

TOKENRING_API int tokenring_movement_decommission(tokenring_movement **out,
                                                  const tokenring_topology *topology,
                                                  const tokenring_replication *replication,
                                                  const char *name,
                                                  const int64_t *sample_tokens,
                                                  size_t sample_count, tokenring_error *err)
{
    mv_tokens tok = MV_NONE;
    mv_samples smp = MV_BY_TOKEN(sample_tokens, sample_count);
    return movement_on_clone(out, topology, replication, TOKENRING_CHANGE_DECOMMISSION, name,
                             NULL, NULL, NULL, &tok, &smp, err);
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
    mv_tokens tok = MV_NONE;
    mv_samples smp = MV_BY_TOKEN(sample_tokens, sample_count);
    return movement_on_clone(out, topology, replication, TOKENRING_CHANGE_REPLACE, old_name,
                             new_name, NULL, NULL, &tok, &smp, err);
}

TOKENRING_API int tokenring_movement_move(tokenring_movement **out,
                                          const tokenring_topology *topology,
                                          const tokenring_replication *replication,
                                          const char *name, const int64_t *tokens,
                                          size_t token_count, const int64_t *sample_tokens,
                                          size_t sample_count, tokenring_error *err)
{
    mv_tokens tok = MV_T64(tokens, token_count);
    mv_samples smp = MV_BY_TOKEN(sample_tokens, sample_count);
    return movement_on_clone(out, topology, replication, TOKENRING_CHANGE_MOVE, name, NULL,
                             NULL, NULL, &tok, &smp, err);
}

TOKENRING_API int tokenring_movement_join128(tokenring_movement **out,
                                             const tokenring_topology *topology,
                                             const tokenring_replication *replication,
                                             const char *name, const char *datacenter,
                                             const char *rack, const tokenring_token128 *tokens,
                                             size_t token_count, const uint8_t *sample_keys,
                                             const uint64_t *sample_offsets,
                                             size_t sample_count, tokenring_error *err)
{
    mv_tokens tok = MV_T128(tokens, token_count);
    mv_samples smp = MV_BY_KEY(sample_keys, sample_offsets, sample_count);
    return movement_on_clone(out, topology, replication, TOKENRING_CHANGE_JOIN, name, NULL,
                             datacenter, rack, &tok, &smp, err);
}

TOKENRING_API int tokenring_movement_join_bytes(
    tokenring_movement **out, const tokenring_topology *topology,
    const tokenring_replication *replication, const char *name, const char *datacenter,
    const char *rack, const uint8_t *const *tokens, const size_t *token_lens,
    size_t token_count, const uint8_t *sample_keys, const uint64_t *sample_offsets,
    size_t sample_count, tokenring_error *err)
{
    mv_tokens tok = MV_TB(tokens, token_lens, token_count);
    mv_samples smp = MV_BY_KEY(sample_keys, sample_offsets, sample_count);
    return movement_on_clone(out, topology, replication, TOKENRING_CHANGE_JOIN, name, NULL,
                             datacenter, rack, &tok, &smp, err);
}

TOKENRING_API int tokenring_movement_move128(tokenring_movement **out,
                                             const tokenring_topology *topology,
                                             const tokenring_replication *replication,
                                             const char *name, const tokenring_token128 *tokens,
                                             size_t token_count, const uint8_t *sample_keys,
                                             const uint64_t *sample_offsets,
                                             size_t sample_count, tokenring_error *err)
{
    mv_tokens tok = MV_T128(tokens, token_count);
    mv_samples smp = MV_BY_KEY(sample_keys, sample_offsets, sample_count);
    return movement_on_clone(out, topology, replication, TOKENRING_CHANGE_MOVE, name, NULL,
                             NULL, NULL, &tok, &smp, err);
}

TOKENRING_API int tokenring_movement_move_bytes(tokenring_movement **out,
                                                const tokenring_topology *topology,
                                                const tokenring_replication *replication,
                                                const char *name, const uint8_t *const *tokens,
                                                const size_t *token_lens, size_t token_count,
                                                const uint8_t *sample_keys,
                                                const uint64_t *sample_offsets,
                                                size_t sample_count, tokenring_error *err)
{
    mv_tokens tok = MV_TB(tokens, token_lens, token_count);
    mv_samples smp = MV_BY_KEY(sample_keys, sample_offsets, sample_count);
    return movement_on_clone(out, topology, replication, TOKENRING_CHANGE_MOVE, name, NULL,
                             NULL, NULL, &tok, &smp, err);
}

TOKENRING_API int tokenring_movement_decommission_keys(tokenring_movement **out,
                                                       const tokenring_topology *topology,
                                                       const tokenring_replication *replication,
                                                       const char *name,
                                                       const uint8_t *sample_keys,
                                                       const uint64_t *sample_offsets,
                                                       size_t sample_count, tokenring_error *err)
{
    mv_tokens tok = MV_NONE;
    mv_samples smp = MV_BY_KEY(sample_keys, sample_offsets, sample_count);
    return movement_on_clone(out, topology, replication, TOKENRING_CHANGE_DECOMMISSION, name,
                             NULL, NULL, NULL, &tok, &smp, err);
}

TOKENRING_API int tokenring_movement_replace_keys(tokenring_movement **out,
                                                  const tokenring_topology *topology,
                                                  const tokenring_replication *replication,
                                                  const char *old_name, const char *new_name,
                                                  const uint8_t *sample_keys,
                                                  const uint64_t *sample_offsets,
                                                  size_t sample_count, tokenring_error *err)
{
    if (!new_name)
        return tr_fail(err, TOKENRING_E_INVAL, "NULL argument to a movement analysis");
    mv_tokens tok = MV_NONE;
    mv_samples smp = MV_BY_KEY(sample_keys, sample_offsets, sample_count);
    return movement_on_clone(out, topology, replication, TOKENRING_CHANGE_REPLACE, old_name,
                             new_name, NULL, NULL, &tok, &smp, err);
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
    if (!m->other) {
        out->changed_fraction = u128_frac(m->changed);
        out->primary_changed_fraction = u128_frac(m->pchanged);
        out->streamed_fraction = u128_frac(m->streamed);
    } else {
        long double sp = (long double)m->other->space;
        out->changed_fraction = (double)((long double)m->changed / sp);
        out->primary_changed_fraction = (double)((long double)m->pchanged / sp);
        out->streamed_fraction = (double)((long double)m->streamed / sp);
    }
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

TOKENRING_API tokenring_partitioner tokenring_movement_partitioner(const tokenring_movement *m)
{
    return m && m->other ? (tokenring_partitioner)m->other->partitioner
                         : TOKENRING_PARTITIONER_MURMUR3;
}

TOKENRING_API int tokenring_movement_range_bounds128(tokenring_token128 *start_out,
                                                     tokenring_token128 *end_out,
                                                     const tokenring_movement *m, size_t index)
{
    if (!m || (!start_out && !end_out))
        return TOKENRING_E_INVAL;
    if (tokenring_movement_partitioner(m) != TOKENRING_PARTITIONER_RANDOM)
        return TOKENRING_E_UNSUPPORTED;
    if (index >= m->range_count)
        return TOKENRING_E_RANGE;
    if (start_out)
        *start_out = m->other->t128[2 * index];
    if (end_out)
        *end_out = m->other->t128[2 * index + 1];
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_movement_range_bounds_bytes(const uint8_t **start_out,
                                                        size_t *start_len_out,
                                                        const uint8_t **end_out,
                                                        size_t *end_len_out,
                                                        const tokenring_movement *m,
                                                        size_t index)
{
    if (!m || !start_out || !start_len_out || !end_out || !end_len_out)
        return TOKENRING_E_INVAL;
    if (tokenring_movement_partitioner(m) != TOKENRING_PARTITIONER_BYTE_ORDERED)
        return TOKENRING_E_UNSUPPORTED;
    if (index >= m->range_count)
        return TOKENRING_E_RANGE;
    *start_out = m->other->arena + m->other->span[2 * index].off;
    *start_len_out = m->other->span[2 * index].len;
    *end_out = m->other->arena + m->other->span[2 * index + 1].off;
    *end_len_out = m->other->span[2 * index + 1].len;
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_movement_sample_token128(tokenring_token128 *out,
                                                     const tokenring_movement *m, size_t index)
{
    if (!out || !m)
        return TOKENRING_E_INVAL;
    if (tokenring_movement_partitioner(m) != TOKENRING_PARTITIONER_RANDOM)
        return TOKENRING_E_UNSUPPORTED;
    if (index >= m->sample_count)
        return TOKENRING_E_RANGE;
    *out = m->other->s128[index];
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_movement_sample_token_bytes(const uint8_t **out, size_t *len_out,
                                                        const tokenring_movement *m,
                                                        size_t index)
{
    if (!out || !len_out || !m)
        return TOKENRING_E_INVAL;
    if (tokenring_movement_partitioner(m) != TOKENRING_PARTITIONER_BYTE_ORDERED)
        return TOKENRING_E_UNSUPPORTED;
    if (index >= m->sample_count)
        return TOKENRING_E_RANGE;
    *out = m->other->arena + m->other->sspan[index].off;
    *len_out = m->other->sspan[index].len;
    return TOKENRING_OK;
}

/* Stored token i of a result's ranges' bounds or of its samples: m3 on Murmur3 (laid out
 * as in 1.0), else the 128-bit value or the bytes of its span. */
static tr_tok mv_tok(const tokenring_movement *m, int64_t m3, bool sample, size_t i)
{
    const struct mv_other *o = m->other;
    if (!o)
        return tr_tok_m3(m3);
    if (o->partitioner == TOKENRING_PARTITIONER_RANDOM)
        return tr_tok_128((sample ? o->s128 : o->t128)[i]);
    const struct mv_span *sp = sample ? o->sspan : o->span;
    return tr_tok_bytes(o->arena + sp[i].off, sp[i].len);
}

TR_HIDDEN int tr_movement_bound_tok(tr_tok *out, const tokenring_movement *m, size_t index,
                                    int end)
{
    if (index >= m->range_count)
        return TOKENRING_E_RANGE;
    const mv_range *r = &m->ranges[index];
    *out = mv_tok(m, end ? r->end : r->start, false, 2 * index + (size_t)end);
    return TOKENRING_OK;
}

TR_HIDDEN int tr_movement_sample_tok(tr_tok *out, const tokenring_movement *m, size_t index)
{
    if (index >= m->sample_count)
        return TOKENRING_E_RANGE;
    *out = mv_tok(m, m->samples[index].token, true, index);
    return TOKENRING_OK;
}

/* ---------------------------------------------------------------- kept tokens */

static bool in_ring_state(int32_t state)
{
    return state == TOKENRING_STATE_NORMAL || state == TOKENRING_STATE_LEAVING ||
           state == TOKENRING_STATE_MOVING;
}

/* tokenring_ring_tokens_kept() on a RandomPartitioner or ByteOrderedPartitioner ring:
 * such a ring holds the full tokens of its ring positions only, so each ring token of
 * `before` is looked up in `after` (the same token, held by the node of that name). A
 * node of `before` outside the ring with tokens (joining), or its namesake in `after`,
 * has tokens the rings do not keep: E_UNSUPPORTED. */
static int tokens_kept_other(size_t *kept_out, size_t *lost_out, size_t *gained_out,
                             const tokenring_ring *before, const tokenring_ring *after)
{
    size_t n = tokenring_ring_node_count(before), c1;
    tokenring_ring_tokens(before, &c1);
    for (size_t i = 0; i < n; i++) {
        tokenring_node_info a, b;
        uint32_t j;
        tokenring_ring_node_brief(&a, before, (uint32_t)i);
        if (a.token_count && !in_ring_state(a.state))
            return TOKENRING_E_UNSUPPORTED;
        if (tokenring_ring_find_node(&j, after, a.name) == TOKENRING_OK) {
            tokenring_ring_node_brief(&b, after, j);
            if (b.token_count && !in_ring_state(b.state))
                return TOKENRING_E_UNSUPPORTED;
        }
    }
    const uint32_t *o1 = tokenring_ring_token_nodes(before, NULL);
    const uint32_t *o2 = tokenring_ring_token_nodes(after, NULL);
    if (!o1 || !o2)
        return TOKENRING_E_NOMEM;
    bool random = tokenring_ring_partitioner(before) == TOKENRING_PARTITIONER_RANDOM;
    size_t kept = 0, lost = 0, gained = 0;
    for (size_t i = 0; i < c1; i++) {
        tokenring_node_info a;
        uint32_t j, at;
        tokenring_ring_node_brief(&a, before, o1[i]);
        if (tokenring_ring_find_node(&j, after, a.name) != TOKENRING_OK) {
            lost++;
            continue;
        }
        bool same;
        if (random) {
            tokenring_token128 t, u;
            tokenring_ring_token128(&t, before, i);
            at = tokenring_ring_search128(after, t);
            tokenring_ring_token128(&u, after, at);
            same = tokenring_token128_compare(t, u) == 0;
        } else {
            const uint8_t *t, *u;
            size_t tl, ul;
            tokenring_ring_token_bytes(&t, &tl, before, i);
            at = tokenring_ring_search_bytes(after, t, tl);
            tokenring_ring_token_bytes(&u, &ul, after, at);
            same = tokenring_byte_token_compare(t, tl, u, ul) == 0;
        }
        if (same && o2[at] == j)
            kept++;
        else
            lost++;
    }
    /* gained: the after tokens of the nodes of `before`, less the kept ones */
    for (size_t i = 0; i < n; i++) {
        tokenring_node_info a, b;
        uint32_t j;
        tokenring_ring_node_brief(&a, before, (uint32_t)i);
        if (tokenring_ring_find_node(&j, after, a.name) != TOKENRING_OK)
            continue;
        tokenring_ring_node_brief(&b, after, j);
        gained += b.token_count;
    }
    gained -= kept;
    if (kept_out)
        *kept_out = kept;
    if (lost_out)
        *lost_out = lost;
    if (gained_out)
        *gained_out = gained;
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_ring_tokens_kept(size_t *kept_out, size_t *lost_out,
                                             size_t *gained_out, const tokenring_ring *before,
                                             const tokenring_ring *after)
{
    if (before == NULL || after == NULL)
        return TOKENRING_E_INVAL;
    if (tokenring_ring_partitioner(before) != tokenring_ring_partitioner(after))
        return TOKENRING_E_INVAL;
    if (tokenring_ring_partitioner(before) != TOKENRING_PARTITIONER_MURMUR3)
        return tokens_kept_other(kept_out, lost_out, gained_out, before, after);
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
