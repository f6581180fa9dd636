/* SPDX-License-Identifier: Apache-2.0 */
/* Placement: the replicas of every range of a ring under one replication, exactly as
 * Cassandra's SimpleStrategy and NetworkTopologyStrategy choose them.
 *
 * Each range's replica list is computed once; identical lists (same nodes, same order,
 * same transient flags) are interned in a hash table and stored once as a flat array of
 * 32-bit node indices. A lookup is a ring search plus two array reads.
 *
 * NetworkTopologyStrategy walks the ring once, interleaving datacenters. A datacenter's
 * decisions depend only on its own tokens (racks are keyed by (datacenter, rack); a node
 * belongs to one datacenter), so the walk is done per datacenter over that datacenter's
 * own tokens, and the per-datacenter picks are merged back by their distance along the
 * ring. This gives exactly Cassandra's order while a small datacenter never makes the
 * walk cross the tokens of a large one. */
#include <string.h>

#include "ring_internal.h"

typedef struct {
    uint32_t dc;          /* ring datacenter index */
    int32_t rf_left;      /* min(rf, nodes in the datacenter) */
    int32_t repeats;      /* rf - racks: configured rf, may be <= 0 */
    int32_t transients;   /* max(transient - (rf - rf_left), 0) */
    uint32_t *pos;        /* ring indices of this datacenter's tokens, ascending */
    uint32_t len;
    uint32_t ptr;         /* first pos >= current range (== len: wrap to 0) */
    uint32_t start;       /* where the cached picks' walk started (UINT32_MAX: none) */
    uint32_t base;        /* this datacenter's picks: picks[base .. base + count) */
    uint32_t count;
    uint32_t rack_lo, rack_hi; /* the datacenter's racks: [rack_lo, rack_hi) */
} dc_plan;

/* After this many tokens rejected in a row with no rack repeat left, a datacenter's walk
 * jumps straight to the nearest token of a rack it has not used (the only tokens it can
 * still accept), so a rack with few tokens does not make the walk cross the ring. */
#define JUMP_AFTER 16

/* Nearest token at or after DC-local position q (cyclically) of a rack of pl not yet
 * used in this walk; its distance from q, or UINT32_MAX when there is none. */
static uint32_t nearest_unused_rack(const dc_plan *pl, uint32_t q, const uint32_t *rack_stamp,
                                    uint32_t stamp, const uint32_t *rpos_off,
                                    const uint32_t *rpos)
{
    uint32_t best = UINT32_MAX;
    for (uint32_t r = pl->rack_lo; r < pl->rack_hi; r++) {
        if (rack_stamp[r] == stamp)
            continue;
        const uint32_t *list = rpos + rpos_off[r];
        uint32_t len = rpos_off[r + 1] - rpos_off[r];
        if (len == 0)
            continue;
        uint32_t lo = 0, hi = len;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (list[mid] < q)
                lo = mid + 1;
            else
                hi = mid;
        }
        uint32_t cand = lo < len ? list[lo] : list[0];
        uint32_t d = cand >= q ? cand - q : cand + pl->len - q;
        if (d < best)
            best = d;
    }
    return best;
}

typedef struct {
    uint32_t pos; /* ring index of the token the replica was reached through */
    uint32_t node;
    uint8_t transient;
} pick;

typedef struct {
    /* sets under construction */
    uint32_t *nodes;
    uint8_t *flags;
    size_t len, cap;
    uint32_t *off;   /* count + 1 */
    uint32_t *first;
    uint8_t *has_t;
    size_t count, set_cap;
    /* interning table: (hash << 32) | (set id + 1), 0 = empty; the hash in the slot spares
     * a second random memory access per probe */
    uint64_t *slots;
    size_t slot_count;
    bool any_transient;
} interner;

static uint32_t seq_hash(const uint32_t *nodes, const uint8_t *flags, size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
    for (size_t i = 0; i < n; i++) {
        h ^= ((uint64_t)nodes[i] << 1) | flags[i];
        h *= 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    h ^= h >> 29;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 32;
    return (uint32_t)h;
}

static bool grow_slots(interner *in)
{
    size_t n = in->slot_count ? in->slot_count * 2 : 1024;
    uint64_t *s = tr_calloc(n, sizeof *s);
    if (!s)
        return false;
    for (size_t k = 0; k < in->slot_count; k++) {
        if (!in->slots[k])
            continue;
        size_t i = (size_t)(in->slots[k] >> 32) & (n - 1);
        while (s[i])
            i = (i + 1) & (n - 1);
        s[i] = in->slots[k];
    }
    tr_free(in->slots);
    in->slots = s;
    in->slot_count = n;
    return true;
}

/* Interns a replica list; returns its set id, or UINT32_MAX when out of memory. */
static uint32_t intern(interner *in, const uint32_t *nodes, const uint8_t *flags, size_t n,
                       uint32_t range)
{
    if ((in->count + 1) * 2 > in->slot_count && !grow_slots(in))
        return UINT32_MAX;
    uint32_t h = seq_hash(nodes, flags, n);
    size_t mask = in->slot_count - 1;
    size_t i = h & mask;
    for (; in->slots[i]; i = (i + 1) & mask) {
        if ((uint32_t)(in->slots[i] >> 32) != h)
            continue;
        uint32_t id = (uint32_t)in->slots[i] - 1;
        if (in->off[id + 1] - in->off[id] != n)
            continue;
        if (memcmp(in->nodes + in->off[id], nodes, n * sizeof *nodes) == 0 &&
            memcmp(in->flags + in->off[id], flags, n) == 0)
            return id;
    }
    /* New set. Offsets are 32-bit: refuse a map that would not fit them. */
    if (in->len + n > UINT32_MAX || in->count + 1 >= UINT32_MAX)
        return UINT32_MAX;
    if (in->count + 1 >= in->set_cap) {
        size_t cap = in->set_cap ? in->set_cap * 2 : 256;
        uint32_t *off = tr_reallocarray(in->off, cap + 1, sizeof *off);
        if (!off)
            return UINT32_MAX;
        in->off = off;
        uint32_t *first = tr_reallocarray(in->first, cap, sizeof *first);
        if (!first)
            return UINT32_MAX;
        in->first = first;
        uint8_t *has_t = tr_reallocarray(in->has_t, cap, 1);
        if (!has_t)
            return UINT32_MAX;
        in->has_t = has_t;
        in->set_cap = cap;
    }
    if (in->len + n > in->cap || in->nodes == NULL) {
        size_t cap = in->cap ? in->cap * 2 : 4096;
        while (cap < in->len + n)
            cap *= 2;
        uint32_t *nn = tr_reallocarray(in->nodes, cap, sizeof *nn);
        if (!nn)
            return UINT32_MAX;
        in->nodes = nn;
        uint8_t *nf = tr_reallocarray(in->flags, cap, 1);
        if (!nf)
            return UINT32_MAX;
        in->flags = nf;
        in->cap = cap;
    }
    uint32_t id = (uint32_t)in->count;
    memcpy(in->nodes + in->len, nodes, n * sizeof *nodes);
    memcpy(in->flags + in->len, flags, n);
    bool t = false;
    for (size_t k = 0; k < n; k++)
        t |= flags[k] != 0;
    in->has_t[id] = t;
    in->any_transient |= t;
    in->first[id] = range;
    in->off[id] = (uint32_t)in->len;
    in->len += n;
    in->off[id + 1] = (uint32_t)in->len;
    in->count++;
    in->slots[i] = (uint64_t)h << 32 | (id + 1);
    return id;
}

static void interner_free(interner *in)
{
    tr_free(in->nodes);
    tr_free(in->flags);
    tr_free(in->off);
    tr_free(in->first);
    tr_free(in->has_t);
    tr_free(in->slots);
}

static void placement_destroy(tokenring_placement *p)
{
    tr_free(p->range_set);
    tr_free(p->set_off);
    tr_free(p->set_first_range);
    tr_free(p->set_nodes);
    tr_free(p->set_transient);
    tr_free(p->set_has_transient);
    tokenring_ring_free(p->ring);
    tr_free(p);
}

/* Shrinks an array to its final size; keeps the larger block if that fails. */
static void *shrink(void *ptr, size_t n, size_t size)
{
    void *s = tr_reallocarray(ptr, n ? n : 1, size);
    return s ? s : ptr;
}

static int find_dc(const tokenring_ring *ring, const char *name, uint32_t *dc)
{
    size_t lo = 0, hi = ring->dc_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(ring->dc_names[mid], name);
        if (c == 0) {
            *dc = (uint32_t)mid;
            return 1;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

TOKENRING_API int tokenring_placement_build(tokenring_placement **out,
                                            const tokenring_ring *ring,
                                            const tokenring_replication *replication,
                                            uint32_t flags, tokenring_error *err)
{
    if (out == NULL || ring == NULL || replication == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "%s is NULL",
                       !out ? "out" : !ring ? "ring" : "replication");
    if (flags & ~TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC)
        return tr_fail(err, TOKENRING_E_INVAL, "unknown placement flags 0x%x", (unsigned)flags);
    if (replication->strategy != TOKENRING_SIMPLE &&
        replication->strategy != TOKENRING_NETWORK_TOPOLOGY)
        return tr_fail(err, TOKENRING_E_INVAL, "unknown replication strategy");

    const size_t n = ring->token_count;
    uint32_t *tn_scratch = NULL; /* owners widened to 32 bits, when the ring stores them narrower */
    const uint32_t *tn = NULL;
    const bool simple = replication->strategy == TOKENRING_SIMPLE;
    dc_plan *plan = NULL;
    uint32_t *dc_plan_of = NULL, *pos_all = NULL, *node_stamp = NULL, *rack_stamp = NULL;
    uint32_t *node_rack = NULL, *lnext = NULL, *lprev = NULL, *rpos_off = NULL, *rpos = NULL;
    uint32_t *list_nodes = NULL;
    uint8_t *list_flags = NULL;
    pick *picks = NULL;
    uint64_t *order = NULL;
    interner in = { 0 };
    tokenring_placement *p = NULL;
    size_t nplan = 0, total_rf = 0;
    int rc = TOKENRING_OK;

    tn = tr_ring_owners_wide(ring, &tn_scratch);
    if (!tn)
        goto nomem;
    if (!simple) {
        plan = tr_calloc(replication->dc_count ? replication->dc_count : 1, sizeof *plan);
        dc_plan_of = tr_malloc(ring->dc_count * sizeof *dc_plan_of);
        if (!plan || !dc_plan_of)
            goto nomem;
        memset(dc_plan_of, 0xff, ring->dc_count * sizeof *dc_plan_of);
        for (size_t k = 0; k < replication->dc_count; k++) {
            const tr_repl_dc *d = &replication->dcs[k];
            if (d->rf <= 0)
                continue;
            uint32_t dc;
            if (!find_dc(ring, d->name, &dc) || ring->dc_ring_nodes[dc] == 0) {
                if (flags & TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC)
                    continue;
                rc = tr_fail(err, TOKENRING_E_NOTFOUND,
                             "datacenter '%s' of the replication has no node in the ring",
                             d->name);
                goto fail;
            }
            dc_plan *pl = &plan[nplan];
            int32_t nodes = (int32_t)ring->dc_ring_nodes[dc];
            pl->dc = dc;
            pl->rf_left = d->rf < nodes ? d->rf : nodes;
            pl->repeats = d->rf - (int32_t)ring->dc_ring_racks[dc];
            int32_t tr = d->transient - (d->rf - pl->rf_left);
            pl->transients = tr > 0 ? tr : 0;
            dc_plan_of[dc] = (uint32_t)nplan;
            pl->start = UINT32_MAX;
            pl->base = (uint32_t)total_rf;
            total_rf += (size_t)pl->rf_left;
            nplan++;
        }
        /* Each planned datacenter's ring positions, ascending. */
        pos_all = tr_malloc((n ? n : 1) * sizeof *pos_all);
        if (!pos_all)
            goto nomem;
        for (size_t j = 0; j < n; j++) {
            uint32_t pi = dc_plan_of[ring->nodes[tn[j]].dc_index];
            if (pi != UINT32_MAX)
                plan[pi].len++;
        }
        size_t at = 0;
        for (size_t k = 0; k < nplan; k++) {
            plan[k].pos = pos_all + at;
            at += plan[k].len;
            plan[k].len = 0;
        }
        for (size_t j = 0; j < n; j++) {
            uint32_t pi = dc_plan_of[ring->nodes[tn[j]].dc_index];
            if (pi != UINT32_MAX)
                plan[pi].pos[plan[pi].len++] = (uint32_t)j;
        }
    } else {
        size_t members = 0;
        for (size_t d = 0; d < ring->dc_count; d++)
            members += ring->dc_ring_nodes[d];
        total_rf = (size_t)replication->rf < members ? (size_t)replication->rf : members;
    }

    node_stamp = tr_calloc(ring->node_count, sizeof *node_stamp);
    node_rack = tr_malloc(ring->node_count * sizeof *node_rack);
    if (simple) {
        lnext = tr_malloc(ring->node_count * sizeof *lnext);
        lprev = tr_malloc(ring->node_count * sizeof *lprev);
        if (!lnext || !lprev)
            goto nomem;
    }
    rack_stamp = tr_calloc(ring->rack_count ? ring->rack_count : 1, sizeof *rack_stamp);
    list_nodes = tr_malloc((total_rf ? total_rf : 1) * sizeof *list_nodes);
    list_flags = tr_malloc(total_rf ? total_rf : 1);
    picks = tr_malloc((total_rf ? total_rf : 1) * sizeof *picks);
    order = tr_malloc((total_rf ? total_rf : 1) * sizeof *order);
    p = tr_calloc(1, sizeof *p);
    if (!node_stamp || !node_rack || !rack_stamp || !list_nodes || !list_flags || !picks || !order || !p)
        goto nomem;
    p->range_set = tr_malloc(n * sizeof *p->range_set);
    if (!p->range_set)
        goto nomem;
    /* Size the interner for about one set per range up front (typical with vnodes): no
     * rehash and no copying while it fills; it is trimmed at the end. */
    {
        size_t sets = n + 1, slots = 1024;
        while (slots < 2 * sets)
            slots *= 2;
        size_t per = total_rf < 16 ? total_rf : 16;
        size_t entries = n * per + 16;
        in.off = tr_malloc((sets + 1) * sizeof *in.off);
        in.first = tr_malloc(sets * sizeof *in.first);
        in.has_t = tr_malloc(sets);
        in.slots = tr_calloc(slots, sizeof *in.slots);
        in.nodes = tr_malloc(entries * sizeof *in.nodes);
        in.flags = tr_malloc(entries);
        if (!in.off || !in.first || !in.has_t || !in.slots || !in.nodes || !in.flags)
            goto nomem;
        in.set_cap = sets;
        in.slot_count = slots;
        in.cap = entries;
    }
    for (size_t k = 0; k < ring->node_count; k++)
        node_rack[k] = ring->nodes[k].rack_index;
    if (!simple) {
        /* Per rack, the DC-local positions of its tokens, ascending. */
        rpos_off = tr_calloc((size_t)ring->rack_count + 2, sizeof *rpos_off);
        rpos = tr_malloc((n ? n : 1) * sizeof *rpos);
        if (!rpos_off || !rpos)
            goto nomem;
        for (size_t k = 0; k < nplan; k++) {
            dc_plan *pl = &plan[k];
            pl->rack_lo = UINT32_MAX;
            pl->rack_hi = 0;
            for (uint32_t q = 0; q < pl->len; q++) {
                uint32_t r = node_rack[tn[pl->pos[q]]];
                rpos_off[r + 2]++;
                if (r < pl->rack_lo)
                    pl->rack_lo = r;
                if (r + 1 > pl->rack_hi)
                    pl->rack_hi = r + 1;
            }
        }
        for (size_t r = 0; r < ring->rack_count; r++)
            rpos_off[r + 2] += rpos_off[r + 1];
        for (size_t k = 0; k < nplan; k++)
            for (uint32_t q = 0; q < plan[k].len; q++)
                rpos[rpos_off[node_rack[tn[plan[k].pos[q]]] + 1]++] = q;
        /* rpos_off[r] .. rpos_off[r + 1] is now rack r's list. */
    }

    const int32_t full_replicas = replication->rf - replication->transient;
    uint32_t walk = 0; /* stamp of the current walk in node_stamp / rack_stamp */
    uint32_t head = UINT32_MAX;
    if (simple) {
        /* Every ring node in order of first appearance from range 0. */
        uint32_t tail = UINT32_MAX;
        for (size_t j = 0; j < n; j++) {
            uint32_t v = tn[j];
            if (node_stamp[v])
                continue;
            node_stamp[v] = 1;
            lprev[v] = tail;
            lnext[v] = UINT32_MAX;
            if (tail == UINT32_MAX)
                head = v;
            else
                lnext[tail] = v;
            tail = v;
        }
    }
    for (size_t i = 0; i < n; i++) {
        size_t cnt = 0;
        if (walk >= UINT32_MAX - nplan - 1) {
            memset(node_stamp, 0, ring->node_count * sizeof *node_stamp);
            memset(rack_stamp, 0, (ring->rack_count ? ring->rack_count : 1) * sizeof *rack_stamp);
            walk = 0;
        }
        if (simple) {
            /* Ranges in the order 0, n-1, n-2, ..., 1: the distinct nodes in ring-walk
             * order from range i are node(i) followed by those from range i+1 without
             * node(i), so a linked list of every node gives each range in O(rf) instead
             * of a walk over the ring. */
            size_t at = i == 0 ? 0 : n - i;
            if (i > 0) {
                uint32_t v = tn[at];
                if (head != v) {
                    /* unlink v, then push it in front */
                    lnext[lprev[v]] = lnext[v];
                    if (lnext[v] != UINT32_MAX)
                        lprev[lnext[v]] = lprev[v];
                    lprev[head] = v;
                    lnext[v] = head;
                    lprev[v] = UINT32_MAX;
                    head = v;
                }
            }
            for (uint32_t v = head; v != UINT32_MAX && cnt < total_rf; v = lnext[v]) {
                list_flags[cnt] = !((int32_t)cnt < full_replicas);
                list_nodes[cnt++] = v;
            }
            uint32_t id = intern(&in, list_nodes, list_flags, cnt, (uint32_t)at);
            if (id == UINT32_MAX)
                goto nomem;
            p->range_set[at] = id;
            continue;
        } else {
            /* A datacenter's picks depend only on where its walk starts: its first token
             * at or after range i. That moves only for the datacenter of token i - 1, so
             * at most one datacenter walks again per range. */
            for (size_t k = 0; k < nplan; k++) {
                dc_plan *pl = &plan[k];
                while (pl->ptr < pl->len && pl->pos[pl->ptr] < i)
                    pl->ptr++;
                uint32_t q = pl->ptr == pl->len ? 0 : pl->ptr;
                if (q == pl->start)
                    continue;
                pl->start = q;
                const uint32_t stamp = ++walk;
                int32_t rf_left = pl->rf_left, repeats = pl->repeats;
                pick *out_picks = picks + pl->base;
                uint32_t at = 0;
                uint32_t rejected = 0;
                for (uint32_t w = 0; w < pl->len && rf_left > 0; w++) {
                    if (repeats <= 0 && rejected >= JUMP_AFTER) {
                        uint32_t d = nearest_unused_rack(pl, q, rack_stamp, stamp, rpos_off,
                                                         rpos);
                        if (d == UINT32_MAX || d >= pl->len - w)
                            break;
                        w += d;
                        q += d;
                        if (q >= pl->len)
                            q -= pl->len;
                        rejected = 0;
                    }
                    uint32_t j = pl->pos[q];
                    if (++q == pl->len)
                        q = 0;
                    uint32_t node = tn[j];
                    if (node_stamp[node] == stamp) {
                        rejected++;
                        continue;
                    }
                    bool full = rf_left > pl->transients;
                    uint32_t rack = node_rack[node];
                    if (rack_stamp[rack] != stamp) {
                        rack_stamp[rack] = stamp;
                    } else if (repeats > 0) {
                        repeats--;
                    } else {
                        rejected++;
                        continue;
                    }
                    rejected = 0;
                    node_stamp[node] = stamp;
                    out_picks[at].pos = j;
                    out_picks[at].node = node;
                    out_picks[at].transient = !full;
                    at++;
                    rf_left--;
                }
                pl->count = at;
            }
            /* Order the datacenters' picks by distance along the ring from range i: the
             * order of Cassandra's single interleaved walk. Each datacenter's picks are
             * already in that order, so an insertion sort on (distance, pick) keys does
             * little work. */
            for (size_t k = 0; k < nplan; k++) {
                const pick *pk = picks + plan[k].base;
                for (uint32_t h = 0; h < plan[k].count; h++) {
                    uint64_t j = pk[h].pos;
                    uint64_t dist = j >= i ? j - i : j + n - i;
                    uint64_t key = dist << 32 | (plan[k].base + h);
                    size_t at = cnt++;
                    while (at > 0 && order[at - 1] > key) {
                        order[at] = order[at - 1];
                        at--;
                    }
                    order[at] = key;
                }
            }
            for (size_t h = 0; h < cnt; h++) {
                const pick *pk = &picks[(uint32_t)order[h]];
                list_nodes[h] = pk->node;
                list_flags[h] = pk->transient;
            }
        }
        uint32_t id = intern(&in, list_nodes, list_flags, cnt, (uint32_t)i);
        if (id == UINT32_MAX)
            goto nomem;
        p->range_set[i] = id;
    }

    if (simple) {
        /* Ranges were visited out of order: record each set's first range. */
        for (size_t k = 0; k < in.count; k++)
            in.first[k] = UINT32_MAX;
        for (size_t i = 0; i < n; i++)
            if (in.first[p->range_set[i]] == UINT32_MAX)
                in.first[p->range_set[i]] = (uint32_t)i;
    }

    /* Hand the sets over to the placement, trimmed to size. */
    p->range_count = (uint32_t)n;
    p->set_count = (uint32_t)in.count;
    /* Every list has min(rf, nodes) replicas per replicated datacenter (a walk always
     * fills its datacenter), so sets normally share one length: then no offsets. */
    bool uniform = true;
    for (size_t k = 0; k + 1 < in.count && uniform; k++)
        uniform = in.off[k + 1] - in.off[k] == in.off[k + 2] - in.off[k + 1];
    if (uniform) {
        p->set_stride = in.count ? in.off[1] : 0;
        tr_free(in.off);
    } else {
        p->set_off = shrink(in.off, in.count + 1, sizeof *in.off);
    }
    p->set_first_range = shrink(in.first, in.count, sizeof *in.first);
    p->set_nodes = shrink(in.nodes, in.len, sizeof *in.nodes);
    in.off = in.first = in.nodes = NULL;
    if (in.any_transient) {
        p->set_transient = shrink(in.flags, in.len, 1);
        p->set_has_transient = shrink(in.has_t, in.count, 1);
        in.flags = in.has_t = NULL;
    }
    p->ring = tokenring_ring_ref(ring);
    atomic_init(&p->refs, 1);
    *out = p;
    p = NULL;
    goto done;

nomem:
    rc = tr_fail(err, TOKENRING_E_NOMEM, "out of memory building the replica map of %zu ranges",
                 n);
fail:
done:
    if (p)
        placement_destroy(p);
    interner_free(&in);
    tr_free(plan);
    tr_free(dc_plan_of);
    tr_free(pos_all);
    tr_free(node_stamp);
    tr_free(node_rack);
    tr_free(lnext);
    tr_free(lprev);
    tr_free(rpos_off);
    tr_free(rpos);
    tr_free(rack_stamp);
    tr_free(list_nodes);
    tr_free(list_flags);
    tr_free(picks);
    tr_free(order);
    tr_free(tn_scratch);
    return rc;
}

TOKENRING_API tokenring_placement *tokenring_placement_ref(const tokenring_placement *placement)
{
    if (!placement)
        return NULL;
    tokenring_placement *p = (tokenring_placement *)placement;
    atomic_fetch_add_explicit(&p->refs, 1, memory_order_relaxed);
    return p;
}

TOKENRING_API void tokenring_placement_free(tokenring_placement *placement)
{
    if (!placement)
        return;
    if (atomic_fetch_sub_explicit(&placement->refs, 1, memory_order_acq_rel) == 1)
        placement_destroy(placement);
}

TOKENRING_API const tokenring_ring *tokenring_placement_ring(const tokenring_placement *placement)
{
    return placement ? placement->ring : NULL;
}

TOKENRING_API int tokenring_placement_replicas(tokenring_replicas *out,
                                               const tokenring_placement *placement,
                                               int64_t token)
{
    if (out == NULL || placement == NULL)
        return TOKENRING_E_INVAL;
    /* The lookup is a chain of dependent reads (bucket, tokens, set id, set): guess that
     * the answer is the bucket's first token (it usually is) and start fetching that range's
     * set id and set while the search reads the tokens. Only a prefetch: the answer comes
     * from the search. */
    uint32_t guess = *tr_index_bucket(&placement->ring->index, token);
    if (guess < placement->range_count)
        TR_PREFETCH(placement->set_nodes + tr_set_off(placement, placement->range_set[guess]));
    uint32_t range = tr_ring_search(placement->ring, token);
    tr_placement_fill(out, placement, placement->range_set[range], range);
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_placement_replicas_for_key(tokenring_replicas *out,
                                                       const tokenring_placement *placement,
                                                       const void *key, size_t len)
{
    if (out == NULL || placement == NULL || (key == NULL && len > 0))
        return TOKENRING_E_INVAL;
    return tokenring_placement_replicas(out, placement, tokenring_token(key, len));
}

TOKENRING_API int tokenring_placement_range_replicas(tokenring_replicas *out,
                                                     const tokenring_placement *placement,
                                                     size_t range_index)
{
    if (out == NULL || placement == NULL)
        return TOKENRING_E_INVAL;
    if (range_index >= placement->range_count)
        return TOKENRING_E_RANGE;
    tr_placement_fill(out, placement, placement->range_set[range_index], (uint32_t)range_index);
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_placement_route_keys(int64_t *tokens_out, uint32_t *set_ids_out,
                                                 const tokenring_placement *placement,
                                                 const uint8_t *keys, const uint64_t *offsets,
                                                 size_t count)
{
    if (placement == NULL)
        return TOKENRING_E_INVAL;
    if (count == 0)
        return TOKENRING_OK;
    if (set_ids_out == NULL || offsets == NULL)
        return TOKENRING_E_INVAL;
    for (size_t i = 0; i < count; i++)
        if (offsets[i + 1] < offsets[i])
            return TOKENRING_E_INVAL;
    if (keys == NULL && offsets[count] != offsets[0])
        return TOKENRING_E_INVAL;
    /* Keys in groups, stage by stage, so that the cache misses of different keys overlap
     * (a single lookup is a chain of dependent reads: bucket, tokens, set id): hash each
     * key and prefetch its index bucket; prefetch the bucket's first token; search and
     * prefetch the range's set id; read the set ids. */
    enum { GROUP = 16 };
    const tr_index *idx = &placement->ring->index;
    for (size_t g = 0; g < count; g += GROUP) {
        size_t m = count - g < GROUP ? count - g : GROUP;
        int64_t tok[GROUP];
        uint32_t range[GROUP];
        for (size_t j = 0; j < m; j++) {
            size_t i = g + j, len = (size_t)(offsets[i + 1] - offsets[i]);
            tok[j] = tokenring_token(len ? keys + offsets[i] : NULL, len);
            TR_PREFETCH(tr_index_bucket(idx, tok[j]));
        }
        for (size_t j = 0; j < m; j++)
            TR_PREFETCH(idx->tokens + *tr_index_bucket(idx, tok[j]));
        for (size_t j = 0; j < m; j++) {
            range[j] = tr_ring_search(placement->ring, tok[j]);
            TR_PREFETCH(placement->range_set + range[j]);
        }
        for (size_t j = 0; j < m; j++) {
            if (tokens_out)
                tokens_out[g + j] = tok[j];
            set_ids_out[g + j] = placement->range_set[range[j]];
        }
    }
    return TOKENRING_OK;
}

TOKENRING_API size_t tokenring_placement_set_count(const tokenring_placement *placement)
{
    return placement ? placement->set_count : 0;
}

TOKENRING_API int tokenring_placement_set(tokenring_replicas *out,
                                          const tokenring_placement *placement, size_t set_id)
{
    if (out == NULL || placement == NULL)
        return TOKENRING_E_INVAL;
    if (set_id >= placement->set_count)
        return TOKENRING_E_RANGE;
    tr_placement_fill(out, placement, (uint32_t)set_id, placement->set_first_range[set_id]);
    return TOKENRING_OK;
}
