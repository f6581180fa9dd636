/* SPDX-License-Identifier: Apache-2.0 */
/* Placement: the replicas of every range of a ring under one replication, exactly as
 * Cassandra's SimpleStrategy and NetworkTopologyStrategy choose them.
 *
 * Each distinct replica list is one row of 32-bit node indices, stored once, in order of
 * first appearance along the ring (lib/ring/ring_internal.h): equal lists are found with a hash
 * table when the map is built, and the rare ranges that repeat an earlier list are marked
 * in a bitmap, so the set of a range is a rank (no per-range array) and a lookup is a ring
 * search, a rank over cache-resident bits, and one row read.
 *
 * NetworkTopologyStrategy walks the ring once, interleaving datacenters. A datacenter's
 * decisions depend only on its own tokens (racks are keyed by (datacenter, rack); a node
 * belongs to one datacenter), so the walk is done per datacenter over that datacenter's
 * own tokens, and the per-datacenter picks are merged back by their distance along the
 * ring. This gives exactly Cassandra's order while a small datacenter never makes the
 * walk cross the tokens of a large one.
 *
 * tokenring_placement_update builds the placement of a changed ring from a previous one:
 * a range's replicas depend only on the tokens its walk visits, from the range's own token
 * to the first token of its last replica (every replica is picked at its first token after
 * the range: a node passed over once is passed over for the rest of the walk). A range
 * whose token survives and whose walk window holds no removed, inserted or re-owned token
 * keeps its row; only the others walk again. */
#include <stdio.h>
#include <string.h>

#include "murmur3_core.h"
#include "ring_internal.h"

typedef struct {
    uint32_t repl;        /* index of the datacenter in the replication */
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

/* ------------------------------------------------------------------ walks */

typedef struct builder {
    const tokenring_ring *ring;
    const uint32_t *tn;   /* owner of each ring token */
    uint32_t *tn_scratch; /* tn when the ring stores narrower owners */
    bool simple;
    bool rules_3_0;        /* TOKENRING_RULES_3_0: skip, then fill at rack exhaustion */
    size_t n;
    size_t total_rf;       /* replicas per range */
    int32_t full_replicas; /* SimpleStrategy: rf - transient */
    dc_plan *plan;
    size_t nplan;
    uint32_t *dc_plan_of, *pos_all, *node_stamp, *rack_stamp, *node_rack, *rpos_off, *rpos;
    uint32_t *list_nodes;
    uint8_t *list_flags;
    uint32_t *skip, *skip_stamp; /* TOKENRING_RULES_3_0: nodes passed over, in walk order */
    pick *picks;
    uint64_t *order;
    bool transient;  /* some replica can be transient */
    uint32_t walk; /* stamp of the current walk in node_stamp / rack_stamp */
} builder;

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

/* Does datacenter entry d of a NetworkTopologyStrategy replication ask for replicas in a
 * datacenter without a Normal, Leaving or Moving node of ring? */
static bool empty_dc(const tokenring_ring *ring, const tr_repl_dc *d)
{
    uint32_t dc;
    return d->rf > 0 && (!find_dc(ring, d->name, &dc) || ring->dc_ring_nodes[dc] == 0);
}

/* The failure of a SKIP_EMPTY_DC build that places no replica, naming the datacenters. */
static int no_replica(const tokenring_ring *ring, const tokenring_replication *replication,
                      tokenring_error *err)
{
    size_t n = tokenring_replication_empty_dc_count(replication, ring);
    if (n == 0)
        return tr_fail(err, TOKENRING_E_IMPOSSIBLE,
                       "the replication places no replica: every datacenter has replication "
                       "factor 0");
    char names[200];
    size_t len = 0;
    names[0] = 0;
    for (size_t i = 0; i < n && len + 1 < sizeof names; i++) {
        int w = snprintf(names + len, sizeof names - len, "%s'%s'", i ? ", " : "",
                         tokenring_replication_empty_dc(replication, ring, i));
        if (w < 0)
            break;
        len += (size_t)w;
    }
    return tr_fail(err, TOKENRING_E_IMPOSSIBLE,
                   "no replica: %s %s of the replication %s no node in the ring (Cassandra "
                   "places no replica in a datacenter without nodes)",
                   n == 1 ? "datacenter" : "datacenters", names, n == 1 ? "has" : "have");
}

TOKENRING_API size_t tokenring_replication_empty_dc_count(
    const tokenring_replication *replication, const tokenring_ring *ring)
{
    if (!replication || !ring || replication->strategy != TOKENRING_NETWORK_TOPOLOGY)
        return 0;
    size_t n = 0;
    for (size_t k = 0; k < replication->dc_count; k++)
        n += empty_dc(ring, &replication->dcs[k]);
    return n;
}

TOKENRING_API const char *tokenring_replication_empty_dc(const tokenring_replication *replication,
                                                         const tokenring_ring *ring,
                                                         size_t index)
{
    if (!replication || !ring || replication->strategy != TOKENRING_NETWORK_TOPOLOGY)
        return NULL;
    for (size_t k = 0; k < replication->dc_count; k++)
        if (empty_dc(ring, &replication->dcs[k]) && index-- == 0)
            return replication->dcs[k].name;
    return NULL;
}

/* The per-datacenter constants of a NetworkTopologyStrategy walk over ring (plan,
 * dc_plan_of), or for SimpleStrategy only total_rf. */
static int plan_make(const tokenring_ring *ring, const tokenring_replication *replication,
                     uint32_t flags, dc_plan **plan_out, uint32_t **dc_plan_of_out,
                     size_t *nplan_out, size_t *total_rf_out, tokenring_error *err)
{
    size_t nplan = 0, total_rf = 0;
    if (replication->strategy == TOKENRING_SIMPLE) {
        size_t members = 0;
        for (size_t d = 0; d < ring->dc_count; d++)
            members += ring->dc_ring_nodes[d];
        *total_rf_out = (size_t)replication->rf < members ? (size_t)replication->rf : members;
        *nplan_out = 0;
        if (*total_rf_out == 0 && (flags & TOKENRING_PLACEMENT_SKIP_EMPTY_DC))
            return tr_fail(err, TOKENRING_E_IMPOSSIBLE,
                           "the replication places no replica: SimpleStrategy with "
                           "replication factor 0");
        return TOKENRING_OK;
    }
    dc_plan *plan = tr_calloc(replication->dc_count ? replication->dc_count : 1, sizeof *plan);
    uint32_t *dc_plan_of = tr_malloc(ring->dc_count * sizeof *dc_plan_of);
    if (!plan || !dc_plan_of) {
        tr_free(plan);
        tr_free(dc_plan_of);
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory planning the replica map");
    }
    memset(dc_plan_of, 0xff, ring->dc_count * sizeof *dc_plan_of);
    for (size_t k = 0; k < replication->dc_count; k++) {
        const tr_repl_dc *d = &replication->dcs[k];
        if (d->rf <= 0)
            continue;
        uint32_t dc;
        if (!find_dc(ring, d->name, &dc) || ring->dc_ring_nodes[dc] == 0) {
            if (flags & (TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC | TOKENRING_PLACEMENT_SKIP_EMPTY_DC))
                continue;
            tr_free(plan);
            tr_free(dc_plan_of);
            return tr_fail(err, TOKENRING_E_NOTFOUND,
                           "datacenter '%s' of the replication has no node in the ring",
                           d->name);
        }
        dc_plan *pl = &plan[nplan];
        int32_t nodes = (int32_t)ring->dc_ring_nodes[dc];
        pl->repl = (uint32_t)k;
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
    if (total_rf == 0 && (flags & TOKENRING_PLACEMENT_SKIP_EMPTY_DC)) {
        tr_free(plan);
        tr_free(dc_plan_of);
        return no_replica(ring, replication, err);
    }
    *plan_out = plan;
    *dc_plan_of_out = dc_plan_of;
    *nplan_out = nplan;
    *total_rf_out = total_rf;
    return TOKENRING_OK;
}

static void builder_free(builder *b)
{
    tr_free(b->tn_scratch);
    tr_free(b->plan);
    tr_free(b->dc_plan_of);
    tr_free(b->pos_all);
    tr_free(b->node_stamp);
    tr_free(b->rack_stamp);
    tr_free(b->node_rack);
    tr_free(b->skip);
    tr_free(b->skip_stamp);
    tr_free(b->rpos_off);
    tr_free(b->rpos);
    tr_free(b->list_nodes);
    tr_free(b->list_flags);
    tr_free(b->picks);
    tr_free(b->order);
}

/* Everything the walks of replication over ring need. On failure b is freed. */
static int builder_init(builder *b, const tokenring_ring *ring,
                        const tokenring_replication *replication, uint32_t flags,
                        tokenring_error *err)
{
    memset(b, 0, sizeof *b);
    b->ring = ring;
    b->n = ring->token_count;
    b->simple = replication->strategy == TOKENRING_SIMPLE;
    b->rules_3_0 = replication->rules == TOKENRING_RULES_3_0;
    b->full_replicas = replication->rf - replication->transient;
    int rc = plan_make(ring, replication, flags, &b->plan, &b->dc_plan_of, &b->nplan,
                       &b->total_rf, err);
    if (rc != TOKENRING_OK)
        return rc;
    const size_t n = b->n, rf = b->total_rf ? b->total_rf : 1;
    b->transient = b->simple && b->full_replicas < (int32_t)b->total_rf;
    for (size_t k = 0; k < b->nplan; k++)
        b->transient |= b->plan[k].transients > 0;
    const uint32_t *tn = b->tn = tr_ring_owners_wide(ring, &b->tn_scratch);
    if (!tn)
        goto nomem;
    b->node_stamp = tr_calloc(ring->node_count, sizeof *b->node_stamp);
    b->node_rack = tr_malloc(ring->node_count * sizeof *b->node_rack);
    b->rack_stamp = tr_calloc(ring->rack_count ? ring->rack_count : 1, sizeof *b->rack_stamp);
    b->list_nodes = tr_malloc(rf * sizeof *b->list_nodes);
    b->list_flags = tr_malloc(rf);
    b->picks = tr_malloc(rf * sizeof *b->picks);
    b->order = tr_malloc(rf * sizeof *b->order);
    if (!b->node_stamp || !b->node_rack || !b->rack_stamp || !b->list_nodes ||
        !b->list_flags || !b->picks || !b->order)
        goto nomem;
    if (b->rules_3_0 && !b->simple) {
        b->skip = tr_malloc((ring->node_count ? ring->node_count : 1) * sizeof *b->skip);
        b->skip_stamp = tr_calloc(ring->node_count ? ring->node_count : 1,
                                  sizeof *b->skip_stamp);
        if (!b->skip || !b->skip_stamp)
            goto nomem;
    }
    for (size_t k = 0; k < ring->node_count; k++)
        b->node_rack[k] = ring->nodes[k].rack_index;
    if (b->simple)
        return TOKENRING_OK;

    /* Each planned datacenter's ring positions, ascending. */
    dc_plan *plan = b->plan;
    b->pos_all = tr_malloc((n ? n : 1) * sizeof *b->pos_all);
    if (!b->pos_all)
        goto nomem;
    for (size_t j = 0; j < n; j++) {
        uint32_t pi = b->dc_plan_of[ring->nodes[tn[j]].dc_index];
        if (pi != UINT32_MAX)
            plan[pi].len++;
    }
    size_t at = 0;
    for (size_t k = 0; k < b->nplan; k++) {
        plan[k].pos = b->pos_all + at;
        at += plan[k].len;
        plan[k].len = 0;
    }
    for (size_t j = 0; j < n; j++) {
        uint32_t pi = b->dc_plan_of[ring->nodes[tn[j]].dc_index];
        if (pi != UINT32_MAX)
            plan[pi].pos[plan[pi].len++] = (uint32_t)j;
    }
    /* Per rack, the DC-local positions of its tokens, ascending. */
    b->rpos_off = tr_calloc((size_t)ring->rack_count + 2, sizeof *b->rpos_off);
    b->rpos = tr_malloc((n ? n : 1) * sizeof *b->rpos);
    if (!b->rpos_off || !b->rpos)
        goto nomem;
    for (size_t k = 0; k < b->nplan; k++) {
        dc_plan *pl = &plan[k];
        pl->rack_lo = UINT32_MAX;
        pl->rack_hi = 0;
        for (uint32_t q = 0; q < pl->len; q++) {
            uint32_t r = b->node_rack[tn[pl->pos[q]]];
            b->rpos_off[r + 2]++;
            if (r < pl->rack_lo)
                pl->rack_lo = r;
            if (r + 1 > pl->rack_hi)
                pl->rack_hi = r + 1;
        }
    }
    for (size_t r = 0; r < ring->rack_count; r++)
        b->rpos_off[r + 2] += b->rpos_off[r + 1];
    for (size_t k = 0; k < b->nplan; k++)
        for (uint32_t q = 0; q < plan[k].len; q++)
            b->rpos[b->rpos_off[b->node_rack[tn[plan[k].pos[q]]] + 1]++] = q;
    /* rpos_off[r] .. rpos_off[r + 1] is now rack r's list. */
    return TOKENRING_OK;

nomem:
    builder_free(b);
    return tr_fail(err, TOKENRING_E_NOMEM, "out of memory building the replica map of %zu ranges",
                   n);
}

/* A fresh stamp for one walk (stamps wrap by clearing the tables). */
static uint32_t next_stamp(builder *b)
{
    if (b->walk >= UINT32_MAX - 1) {
        memset(b->node_stamp, 0, b->ring->node_count * sizeof *b->node_stamp);
        if (b->skip_stamp)
            memset(b->skip_stamp, 0, b->ring->node_count * sizeof *b->skip_stamp);
        memset(b->rack_stamp, 0,
               (b->ring->rack_count ? b->ring->rack_count : 1) * sizeof *b->rack_stamp);
        b->walk = 0;
    }
    return ++b->walk;
}

/* SimpleStrategy replicas of range i: the first total_rf distinct nodes clockwise. */
static size_t simple_row(builder *b, size_t i)
{
    const uint32_t stamp = next_stamp(b);
    size_t cnt = 0;
    for (size_t w = 0, j = i; w < b->n && cnt < b->total_rf; w++) {
        uint32_t v = b->tn[j];
        if (++j == b->n)
            j = 0;
        if (b->node_stamp[v] == stamp)
            continue;
        b->node_stamp[v] = stamp;
        b->list_flags[cnt] = !((int32_t)cnt < b->full_replicas);
        b->list_nodes[cnt++] = v;
    }
    return cnt;
}

/* One datacenter's picks under TOKENRING_RULES_3_0 (Cassandra before 3.2,
 * calculateNaturalEndpoints): while some rack of the datacenter has no replica, a node of
 * an already used rack is passed over and remembered; when the last rack gets its
 * replica, the remembered nodes follow it (in walk order, up to the factor), and from then
 * on every new node is taken where the walk meets it. The remembered nodes are reported
 * at the position of the node that completed the racks, after it. Returns the count. */
static uint32_t nts_picks_3_0(builder *b, const dc_plan *pl, uint32_t q, uint32_t stamp)
{
    const uint32_t racks = b->ring->dc_ring_racks[pl->dc];
    int32_t rf_left = pl->rf_left;
    pick *out = b->picks + pl->base;
    uint32_t at = 0, seen = 0, nskip = 0;
    for (uint32_t w = 0; w < pl->len && rf_left > 0; w++) {
        uint32_t j = pl->pos[q];
        if (++q == pl->len)
            q = 0;
        uint32_t node = b->tn[j];
        if (b->node_stamp[node] == stamp)
            continue;
        if (seen < racks) {
            uint32_t rack = b->node_rack[node];
            if (b->rack_stamp[rack] == stamp) {
                if (b->skip_stamp[node] != stamp) {
                    b->skip_stamp[node] = stamp;
                    b->skip[nskip++] = node;
                }
                continue;
            }
            b->rack_stamp[rack] = stamp;
            seen++;
        }
        b->node_stamp[node] = stamp;
        out[at++] = (pick){ .pos = j, .node = node, .transient = 0 };
        rf_left--;
        if (seen == racks && nskip) {
            for (uint32_t h = 0; h < nskip && rf_left > 0; h++) {
                /* a remembered node is never already a replica: it is taken only here */
                b->node_stamp[b->skip[h]] = stamp;
                out[at++] = (pick){ .pos = j, .node = b->skip[h], .transient = 0 };
                rf_left--;
            }
            nskip = 0;
        }
    }
    return at;
}

/* NetworkTopologyStrategy replicas of range i into list_nodes / list_flags. Calls on one
 * builder take ascending i (the full build walks every range, the update the ranges it
 * must redo, both in ring order): each datacenter's pointer into its tokens only moves
 * forward, and a datacenter's picks depend only on where its walk starts (its first token
 * at or after range i), which moves only for the datacenter of token i - 1. */
static size_t nts_row(builder *b, size_t i)
{
    dc_plan *plan = b->plan;
    const uint32_t *tn = b->tn;
    for (size_t k = 0; k < b->nplan; k++) {
        dc_plan *pl = &plan[k];
        while (pl->ptr < pl->len && pl->pos[pl->ptr] < i)
            pl->ptr++;
        uint32_t q = pl->ptr == pl->len ? 0 : pl->ptr;
        if (q == pl->start)
            continue;
        pl->start = q;
        const uint32_t stamp = next_stamp(b);
        if (b->rules_3_0) {
            pl->count = nts_picks_3_0(b, pl, q, stamp);
            continue;
        }
        int32_t rf_left = pl->rf_left, repeats = pl->repeats;
        pick *out_picks = b->picks + pl->base;
        uint32_t at = 0;
        uint32_t rejected = 0;
        for (uint32_t w = 0; w < pl->len && rf_left > 0; w++) {
            if (repeats <= 0 && rejected >= JUMP_AFTER) {
                uint32_t d = nearest_unused_rack(pl, q, b->rack_stamp, stamp, b->rpos_off,
                                                 b->rpos);
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
            if (b->node_stamp[node] == stamp) {
                rejected++;
                continue;
            }
            bool full = rf_left > pl->transients;
            uint32_t rack = b->node_rack[node];
            if (b->rack_stamp[rack] != stamp) {
                b->rack_stamp[rack] = stamp;
            } else if (repeats > 0) {
                repeats--;
            } else {
                rejected++;
                continue;
            }
            rejected = 0;
            b->node_stamp[node] = stamp;
            out_picks[at].pos = j;
            out_picks[at].node = node;
            out_picks[at].transient = !full;
            at++;
            rf_left--;
        }
        pl->count = at;
    }
    /* Order the datacenters' picks by distance along the ring from range i: the order of
     * Cassandra's single interleaved walk. Each datacenter's picks are already in that
     * order, so an insertion sort on (distance, pick) keys does little work. */
    size_t cnt = 0, n = b->n;
    for (size_t k = 0; k < b->nplan; k++) {
        const pick *pk = b->picks + plan[k].base;
        for (uint32_t h = 0; h < plan[k].count; h++) {
            uint64_t j = pk[h].pos;
            uint64_t dist = j >= i ? j - i : j + n - i;
            uint64_t key = dist << 32 | (plan[k].base + h);
            size_t at = cnt++;
            while (at > 0 && b->order[at - 1] > key) {
                b->order[at] = b->order[at - 1];
                at--;
            }
            b->order[at] = key;
        }
    }
    for (size_t h = 0; h < cnt; h++) {
        const pick *pk = &b->picks[(uint32_t)b->order[h]];
        b->list_nodes[h] = pk->node;
        b->list_flags[h] = pk->transient;
    }
    return cnt;
}

/* ------------------------------------------------------------------- rows */

/* Rows under construction, appended range after range. Every row has at most `stride`
 * entries; while all have exactly that many, no offsets are kept. */
typedef struct {
    uint32_t *rows;
    uint8_t *flags; /* allocated at the first transient replica */
    uint32_t *off;  /* allocated at the first short row */
    size_t n, stride, cap, len, count;
} rowbuf;

static bool rowbuf_init(rowbuf *rb, size_t n, size_t stride)
{
    memset(rb, 0, sizeof *rb);
    rb->n = n;
    rb->stride = stride;
    rb->cap = n * stride;
    rb->rows = tr_malloc((rb->cap ? rb->cap : 1) * sizeof *rb->rows);
    tr_advise_huge(rb->rows, rb->cap * sizeof *rb->rows);
    return rb->rows != NULL;
}

static void rowbuf_free(rowbuf *rb)
{
    tr_free(rb->rows);
    tr_free(rb->flags);
    tr_free(rb->off);
}

/* Appends the row of range rb->count (flags NULL: no transient replica). The flags of rows
 * appended before the first transient one are zero (calloc). Rows are short: plain loops
 * instead of library calls. */
static bool rowbuf_put(rowbuf *rb, const uint32_t *nodes, const uint8_t *flags, size_t cnt)
{
    if (!rb->off && cnt != rb->stride) {
        if (rb->cap > UINT32_MAX)
            return false; /* 32-bit offsets */
        rb->off = tr_malloc((rb->n + 1) * sizeof *rb->off);
        if (!rb->off)
            return false;
        for (size_t k = 0; k <= rb->count; k++)
            rb->off[k] = (uint32_t)(k * rb->stride);
    }
    uint32_t *dst = rb->rows + rb->len;
    for (size_t k = 0; k < cnt; k++)
        dst[k] = nodes[k];
    if (flags) {
        bool t = false;
        for (size_t k = 0; k < cnt; k++)
            t |= flags[k] != 0;
        if (t && !rb->flags && !(rb->flags = tr_calloc(rb->cap, 1)))
            return false;
        if (rb->flags)
            for (size_t k = 0; k < cnt; k++)
                rb->flags[rb->len + k] = flags[k];
    }
    rb->len += cnt;
    rb->count++;
    if (rb->off)
        rb->off[rb->count] = (uint32_t)rb->len;
    return true;
}

static uint32_t row_hash(const tokenring_placement *p, uint32_t r)
{
    const uint32_t *v = p->rows + tr_row_off(p, r);
    uint32_t len = tr_row_len(p, r);
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ len;
    uint32_t k = 0;
    for (; k + 2 <= len; k += 2) {
        h ^= (uint64_t)v[k] | (uint64_t)v[k + 1] << 32;
        h *= 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    if (k < len) {
        h ^= v[k];
        h *= 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    if (p->row_flags) {
        const uint8_t *f = p->row_flags + tr_row_off(p, r);
        for (k = 0; k < len; k++)
            h ^= (uint64_t)(f[k] != 0) << (k & 63);
    }
    h ^= h >> 29;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 32;
    return (uint32_t)h;
}

static bool rows_equal(const tokenring_placement *p, uint32_t a, uint32_t b)
{
    uint32_t len = tr_row_len(p, a);
    if (tr_row_len(p, b) != len)
        return false;
    size_t oa = tr_row_off(p, a), ob = tr_row_off(p, b);
    if (memcmp(p->rows + oa, p->rows + ob, len * sizeof *p->rows) != 0)
        return false;
    return !p->row_flags || memcmp(p->row_flags + oa, p->row_flags + ob, len) == 0;
}

/* Shrinks an array to its final size; keeps the larger block if that fails. */
static void *shrink(void *ptr, size_t n, size_t size)
{
    void *s = tr_reallocarray(ptr, n ? n : 1, size);
    return s ? s : ptr;
}

/* Moves the rows into p and numbers the distinct ones. */
static bool finish(tokenring_placement *p, rowbuf *rb)
{
    const size_t n = rb->count;
    p->range_count = (uint32_t)n;
    p->stride = rb->off ? 0 : (uint32_t)rb->stride;
    p->row_off = rb->off;
    p->rows = shrink(rb->rows, rb->len, sizeof *rb->rows);
    p->row_flags = rb->flags ? shrink(rb->flags, rb->len, 1) : NULL;
    memset(rb, 0, sizeof *rb);

    size_t slots = 16;
    while (slots < 2 * n)
        slots *= 2;
    const size_t mask = slots - 1, words = (n + 63) / 64;
    uint64_t *slot = tr_calloc(slots, sizeof *slot);
    uint32_t *set = tr_malloc((n ? n : 1) * sizeof *set);
    uint64_t *bits = tr_calloc(words ? words : 1, sizeof *bits);
    bool ok = false;
    if (!slot || !set || !bits)
        goto out;
    /* In groups, so that the table misses of 16 rows overlap; rows are numbered in range
     * order, which the first-appearance numbering needs. */
    enum { GROUP = 16 };
    uint32_t next = 0, repeats = 0;
    for (size_t g = 0; g < n; g += GROUP) {
        size_t m = n - g < GROUP ? n - g : GROUP;
        uint32_t h[GROUP];
        for (size_t j = 0; j < m; j++) {
            h[j] = row_hash(p, (uint32_t)(g + j));
            TR_PREFETCH(slot + (h[j] & mask));
        }
        for (size_t j = 0; j < m; j++) {
            uint32_t i = (uint32_t)(g + j);
            for (size_t at = h[j] & mask;; at = (at + 1) & mask) {
                uint64_t s = slot[at];
                if (!s) {
                    slot[at] = (uint64_t)h[j] << 32 | (i + 1);
                    set[i] = next++;
                    break;
                }
                uint32_t r = (uint32_t)s - 1;
                if ((uint32_t)(s >> 32) == h[j] && rows_equal(p, r, i)) {
                    set[i] = set[r];
                    bits[i >> 6] |= UINT64_C(1) << (i & 63);
                    repeats++;
                    break;
                }
            }
        }
    }
    p->set_count = next;
    p->repeat_count = repeats;
    if (repeats) {
        /* Keep each set's row once: row i of a non-repeat range moves down to set[i]
         * (never above i, so in place, in order). */
        uint32_t *off = p->row_off;
        size_t len = 0;
        for (size_t i = 0; i < n; i++) {
            if (bits[i >> 6] >> (i & 63) & 1)
                continue;
            size_t from = off ? off[i] : i * p->stride;
            size_t cnt = off ? off[i + 1] - off[i] : p->stride;
            if (from != len) {
                memmove(p->rows + len, p->rows + from, cnt * sizeof *p->rows);
                if (p->row_flags)
                    memmove(p->row_flags + len, p->row_flags + from, cnt);
            }
            if (off)
                off[set[i]] = (uint32_t)len; /* set[i] <= i: entries still to read are above */
            len += cnt;
        }
        if (off) {
            off[next] = (uint32_t)len;
            p->row_off = shrink(off, (size_t)next + 1, sizeof *off);
        }
        p->rows = shrink(p->rows, len, sizeof *p->rows);
        if (p->row_flags)
            p->row_flags = shrink(p->row_flags, len, 1);
        p->repeat_set = tr_malloc(repeats * sizeof *p->repeat_set);
        p->repeat_rank = tr_malloc(words * sizeof *p->repeat_rank);
        p->set_sample = tr_malloc(((next + 15) / 16) * sizeof *p->set_sample);
        p->set_mask = tr_calloc((next + 15) / 16, sizeof *p->set_mask);
        if (!p->repeat_set || !p->repeat_rank || !p->set_sample || !p->set_mask)
            goto out;
        for (size_t i = 0; i < n; i++) {
            if (bits[i >> 6] >> (i & 63) & 1)
                continue;
            uint32_t s = set[i]; /* first range i: i - s repeats before it */
            if (s % 16 == 0)
                p->set_sample[s / 16] = (uint32_t)i;
            else if (i - s != p->set_sample[s / 16] - (s & ~UINT32_C(15)))
                p->set_mask[s / 16] |= (uint16_t)(1u << (s % 16));
        }
        uint32_t k = 0;
        for (size_t w = 0; w < words; w++) {
            p->repeat_rank[w] = k;
            for (uint64_t x = bits[w]; x; x &= x - 1) {
                uint32_t i = (uint32_t)(w * 64 + (size_t)__builtin_ctzll(x));
                p->repeat_set[k] = set[i];
                k++;
            }
        }
        p->repeat_bits = bits;
        bits = NULL;
        if (n <= TR_SET_TABLES_MAX) {
            p->set_first = tr_malloc((size_t)next * sizeof *p->set_first);
            if (!p->set_first)
                goto out;
            for (size_t i = n; i-- > 0;) /* from the end: the first range of a set wins */
                p->set_first[set[i]] = (uint32_t)i;
            p->range_set = set;
            set = NULL;
        }
    }
    p->plain = !p->row_off && !p->row_flags && p->wrap_set == UINT32_MAX;
    p->tiny_plain = p->plain && n <= TR_INDEX_TINY_MAX && n * p->stride <= UINT16_MAX;
    for (size_t r = 0; p->tiny_plain && r < n; r++) {
        uint32_t s = tr_range_set(p, (uint32_t)r);
        p->tiny_set[r] = (uint8_t)s;
        p->tiny_off[r] = (uint16_t)(s * p->stride);
    }
    ok = true;
out:
    tr_free(slot);
    tr_free(set);
    tr_free(bits);
    return ok;
}

static void placement_destroy(tokenring_placement *p)
{
    tr_free(p->rows);
    tr_free(p->row_off);
    tr_free(p->row_flags);
    tr_free(p->repeat_set);
    tr_free(p->repeat_bits);
    tr_free(p->repeat_rank);
    tr_free(p->set_sample);
    tr_free(p->set_mask);
    tr_free(p->range_set);
    tr_free(p->set_first);
    tokenring_replication_free(p->replication);
    tokenring_ring_free(p->ring);
    tr_free(p);
}

static tokenring_placement *placement_new(const tokenring_ring *ring,
                                          const tokenring_replication *replication,
                                          uint32_t flags)
{
    tokenring_placement *p = tr_calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->replication = tr_replication_clone(replication);
    if (!p->replication) {
        tr_free(p);
        return NULL;
    }
    p->flags = flags;
    p->wrap_set = UINT32_MAX;
    p->hw_popcnt = (tr_cpu_features() & TR_CPU_POPCNT) != 0;
    p->ring = tokenring_ring_ref(ring);
    atomic_init(&p->refs, 1);
    return p;
}

/* Every range's row, walked from scratch. */
static bool build_rows(builder *b, rowbuf *rb)
{
    const size_t n = b->n;
    if (!b->simple) {
        for (size_t i = 0; i < n; i++) {
            size_t cnt = nts_row(b, i);
            if (!rowbuf_put(rb, b->list_nodes, b->transient ? b->list_flags : NULL, cnt))
                return false;
        }
        return true;
    }
    /* SimpleStrategy, ranges in the order 0, n-1, n-2, ..., 1: the distinct nodes in
     * ring-walk order from range i are node(i) followed by those from range i+1 without
     * node(i), so a linked list of every node gives each range in O(rf) instead of a walk
     * over the ring. Every row has total_rf entries (total_rf <= ring members). */
    const tokenring_ring *ring = b->ring;
    const uint32_t *tn = b->tn;
    uint32_t *lnext = tr_malloc(ring->node_count * sizeof *lnext);
    uint32_t *lprev = tr_malloc(ring->node_count * sizeof *lprev);
    uint8_t *seen = tr_calloc(ring->node_count, 1);
    bool ok = lnext && lprev && seen;
    if (ok && b->full_replicas < (int32_t)b->total_rf)
        ok = (rb->flags = tr_calloc(rb->cap, 1)) != NULL;
    if (!ok)
        goto out;
    uint32_t head = UINT32_MAX, tail = UINT32_MAX;
    for (size_t j = 0; j < n; j++) {
        uint32_t v = tn[j];
        if (seen[v])
            continue;
        seen[v] = 1;
        lprev[v] = tail;
        lnext[v] = UINT32_MAX;
        if (tail == UINT32_MAX)
            head = v;
        else
            lnext[tail] = v;
        tail = v;
    }
    const size_t stride = rb->stride;
    for (size_t i = 0; i < n; i++) {
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
        uint32_t *row = rb->rows + at * stride;
        size_t cnt = 0;
        for (uint32_t v = head; v != UINT32_MAX && cnt < stride; v = lnext[v])
            row[cnt++] = v;
        if (rb->flags)
            for (size_t k = (size_t)b->full_replicas; k < stride; k++)
                rb->flags[at * stride + k] = 1;
    }
    rb->len = n * stride;
    rb->count = n;
out:
    tr_free(lnext);
    tr_free(lprev);
    tr_free(seen);
    return ok;
}

static int check_build_args(tokenring_placement **out, const tokenring_ring *ring,
                      const tokenring_replication *replication, uint32_t flags,
                      tokenring_error *err)
{
    if (out == NULL || ring == NULL || replication == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "%s is NULL",
                       !out ? "out" : !ring ? "ring" : "replication");
    if (flags & ~(TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC | TOKENRING_PLACEMENT_SKIP_EMPTY_DC))
        return tr_fail(err, TOKENRING_E_INVAL, "unknown placement flags 0x%x", (unsigned)flags);
    if (replication->strategy != TOKENRING_SIMPLE &&
        replication->strategy != TOKENRING_NETWORK_TOPOLOGY)
        return tr_fail(err, TOKENRING_E_INVAL, "unknown replication strategy");
    if (replication->rules == TOKENRING_RULES_3_0) {
        bool transient = replication->transient > 0;
        for (size_t k = 0; k < replication->dc_count; k++)
            transient |= replication->dcs[k].transient > 0;
        if (transient)
            return tr_fail(err, TOKENRING_E_UNSUPPORTED,
                           "transient replicas need Cassandra 4.0 or later, not the rules of "
                           "Cassandra before 3.2");
    }
    return TOKENRING_OK;
}

static int nomem(tokenring_error *err, size_t n)
{
    return tr_fail(err, TOKENRING_E_NOMEM, "out of memory building the replica map of %zu ranges",
                   n);
}

TOKENRING_API int tokenring_placement_build(tokenring_placement **out,
                                            const tokenring_ring *ring,
                                            const tokenring_replication *replication,
                                            uint32_t flags, tokenring_error *err)
{
    int rc = check_build_args(out, ring, replication, flags, err);
    if (rc != TOKENRING_OK)
        return rc;
    builder b;
    if ((rc = builder_init(&b, ring, replication, flags, err)) != TOKENRING_OK)
        return rc;
    rowbuf rb = { 0 };
    tokenring_placement *p = placement_new(ring, replication, flags);
    bool ok = p && rowbuf_init(&rb, b.n, b.total_rf) && build_rows(&b, &rb) && finish(p, &rb);
    builder_free(&b);
    rowbuf_free(&rb);
    if (!ok) {
        if (p)
            placement_destroy(p);
        return nomem(err, ring->token_count);
    }
    *out = p;
    return TOKENRING_OK;
}

int tr_placement_from_rows(tokenring_placement **out, const tokenring_ring *ring,
                           const tokenring_replication *replication, const uint32_t *offsets,
                           const uint32_t *nodes, const uint32_t *upper, uint32_t upper_count,
                           const uint8_t *flags, const uint8_t *upper_flags, uint8_t order,
                           tokenring_error *err)
{
    const size_t n = ring->token_count;
    size_t stride = upper ? upper_count : 0;
    for (size_t i = 0; i < n; i++)
        if (offsets[i + 1] - offsets[i] > stride)
            stride = offsets[i + 1] - offsets[i];
    rowbuf rb = { 0 };
    tokenring_placement *p = placement_new(ring, replication, 0);
    /* the upper part of range 0, when given, is one row more: numbered as a range n, it
     * gets a set id like every row, then the placement keeps n ranges */
    size_t rows = n + (upper != NULL);
    bool ok = p && rowbuf_init(&rb, rows, stride);
    for (size_t i = 0; ok && i < n; i++)
        ok = rowbuf_put(&rb, nodes + offsets[i], flags ? flags + offsets[i] : NULL,
                        offsets[i + 1] - offsets[i]);
    if (ok && upper)
        ok = rowbuf_put(&rb, upper, upper_flags, upper_count);
    ok = ok && finish(p, &rb);
    if (ok && upper) {
        p->wrap_set = tr_range_set(p, (uint32_t)n);
        p->range_count = (uint32_t)n;
        p->plain = false;
        p->tiny_plain = false;
    }
    rowbuf_free(&rb);
    if (!ok) {
        if (p)
            placement_destroy(p);
        return nomem(err, n);
    }
    p->order = order;
    *out = p;
    return TOKENRING_OK;
}

/* ------------------------------------------------------------------ update */

/* Whether two plans (same replication, two rings) give every walk the same constants. */
static bool plans_equal(const dc_plan *a, size_t na, size_t rfa, const dc_plan *b, size_t nb,
                        size_t rfb)
{
    if (na != nb || rfa != rfb)
        return false;
    for (size_t k = 0; k < na; k++)
        if (a[k].repl != b[k].repl || a[k].rf_left != b[k].rf_left ||
            a[k].repeats != b[k].repeats || a[k].transients != b[k].transients)
            return false;
    return true;
}

/* Events (prefix counts pre[0..n]) at cyclic positions from .. to (to may be >= n, < 2n). */
static uint32_t events_in(const uint32_t *pre, size_t n, size_t from, size_t to)
{
    if (from > to)
        return 0;
    if (to < n)
        return pre[to + 1] - pre[from];
    return pre[n] - pre[from] + pre[to - n + 1];
}

/* The rows of `ring` under previous's replication, reusing previous's rows where they
 * cannot have changed. Returns false when out of memory. */
static bool update_rows(builder *b, rowbuf *rb, const tokenring_placement *prev)
{
    const tokenring_ring *old = prev->ring, *ring = b->ring;
    const size_t n0 = old->token_count, n1 = ring->token_count;
    uint32_t *otn_scratch = NULL;
    const uint32_t *otn = tr_ring_owners_wide(old, &otn_scratch), *ntn = b->tn;
    uint32_t *map = tr_malloc((old->node_count ? old->node_count : 1) * sizeof *map);
    uint32_t *next = tr_malloc((old->node_count ? old->node_count : 1) * sizeof *next);
    uint32_t *keep = tr_malloc(n0 * sizeof *keep);
    uint32_t *dirty = tr_calloc(n0 + 1, sizeof *dirty);
    uint32_t *ins = tr_calloc(n0 + 1, sizeof *ins);
    uint32_t *old_of = tr_malloc((n1 ? n1 : 1) * sizeof *old_of);
    uint32_t *mapped = tr_malloc((b->total_rf ? b->total_rf : 1) * sizeof *mapped);
    bool ok = otn && map && next && keep && dirty && ins && old_of && mapped;
    if (!ok)
        goto out;
    /* Old node -> new node, for nodes with the same name, datacenter and rack. */
    for (uint32_t v = 0; v < old->node_count; v++) {
        const tr_rnode *o = &old->nodes[v];
        uint32_t w;
        map[v] = UINT32_MAX;
        if (tokenring_ring_find_node(&w, ring, o->name) == TOKENRING_OK &&
            strcmp(ring->nodes[w].dc, o->dc) == 0 && strcmp(ring->nodes[w].rack, o->rack) == 0)
            map[v] = w;
    }
    /* Merge the token lists: an old token is dirty when it is gone or changed owner; a new
     * token is counted as an insertion into the old range that holds it. dirty[] and ins[]
     * are counts at old positions, then prefix sums. */
    size_t i = 0, j = 0;
    while (i < n0 || j < n1) {
        int c = i == n0 ? 1 : j == n1 ? -1 : tr_ring_cmp_at(old, i, ring, j);
        if (c < 0) {
            dirty[i++]++;
        } else if (c > 0) {
            ins[i == n0 ? 0 : i]++;
            old_of[j++] = UINT32_MAX;
        } else {
            if (map[otn[i]] != ntn[j])
                dirty[i]++;
            old_of[j++] = (uint32_t)i++;
        }
    }
    for (size_t k = n0; k > 0; k--) {
        dirty[k] = dirty[k - 1];
        ins[k] = ins[k - 1];
    }
    dirty[0] = ins[0] = 0;
    for (size_t k = 0; k < n0; k++) {
        dirty[k + 1] += dirty[k];
        ins[k + 1] += ins[k];
    }
    /* Each old range's walk window: from its token to the first token, at or after it, of
     * its farthest replica (next[v]: v's first position at or after the current one,
     * positions past the end counted from n0). keep[k] is the range's set when the window
     * holds no dirty token and no insertion after the range's own token, else UINT32_MAX. */
    for (size_t k = n0; k-- > 0;)
        next[otn[k]] = (uint32_t)(k + n0);
    for (size_t k = n0; k-- > 0;) {
        next[otn[k]] = (uint32_t)k;
        uint32_t set = tr_range_set(prev, (uint32_t)k);
        size_t off = tr_row_off(prev, set);
        uint32_t len = tr_row_len(prev, set), far = 0;
        for (uint32_t h = 0; h < len; h++) {
            uint32_t d = next[prev->rows[off + h]] - (uint32_t)k;
            if (d > far)
                far = d;
        }
        bool clean = events_in(dirty, n0, k, k + far) == 0 &&
                     events_in(ins, n0, k + 1, k + far) == 0;
        keep[k] = clean ? set : UINT32_MAX;
    }
    for (j = 0; j < n1; j++) {
        uint32_t o = old_of[j], set = o == UINT32_MAX ? UINT32_MAX : keep[o];
        if (set != UINT32_MAX) {
            size_t off = tr_row_off(prev, set);
            uint32_t len = tr_row_len(prev, set);
            for (uint32_t h = 0; h < len; h++)
                mapped[h] = map[prev->rows[off + h]];
            ok = rowbuf_put(rb, mapped, prev->row_flags ? prev->row_flags + off : NULL, len);
        } else {
            size_t cnt = b->simple ? simple_row(b, j) : nts_row(b, j);
            ok = rowbuf_put(rb, b->list_nodes, b->transient ? b->list_flags : NULL, cnt);
        }
        if (!ok)
            goto out;
    }
out:
    tr_free(otn_scratch);
    tr_free(map);
    tr_free(next);
    tr_free(keep);
    tr_free(dirty);
    tr_free(ins);
    tr_free(old_of);
    tr_free(mapped);
    return ok;
}

TOKENRING_API int tokenring_placement_update(tokenring_placement **out,
                                             const tokenring_placement *previous,
                                             const tokenring_ring *ring, tokenring_error *err)
{
    if (out == NULL || previous == NULL || ring == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "%s is NULL",
                       !out ? "out" : !previous ? "previous" : "ring");
    if (ring == previous->ring) {
        *out = tokenring_placement_ref(previous);
        return TOKENRING_OK;
    }
    if (previous->order != TOKENRING_ORDER_TOKENS)
        return tr_fail(err, TOKENRING_E_UNSUPPORTED,
                       "the previous placement's replica order was given (%s), not computed "
                       "from the ring's tokens: build the new ring's placement from its own "
                       "replica lists (tokenring_placement_from_lists)",
                       previous->order == TOKENRING_ORDER_SERVER ? "the server's order"
                                                                 : "Cassandra 6.0's history");
    builder b;
    int rc = builder_init(&b, ring, previous->replication, previous->flags, err);
    if (rc != TOKENRING_OK)
        return rc;
    dc_plan *oplan = NULL;
    uint32_t *odc = NULL;
    size_t onplan = 0, orf = 0;
    rowbuf rb = { 0 };
    tokenring_placement *p = placement_new(ring, previous->replication, previous->flags);
    bool ok = p && rowbuf_init(&rb, b.n, b.total_rf);
    if (ok) {
        /* The previous ring planned with the same replication: it built, so this cannot
         * fail for a missing datacenter; only for memory. */
        rc = plan_make(previous->ring, previous->replication, previous->flags, &oplan, &odc,
                       &onplan, &orf, NULL);
        ok = rc == TOKENRING_OK;
    }
    if (ok) {
        if (previous->ring->partitioner == ring->partitioner &&
            plans_equal(oplan, onplan, orf, b.plan, b.nplan, b.total_rf))
            ok = update_rows(&b, &rb, previous);
        else
            ok = build_rows(&b, &rb);
        ok = ok && finish(p, &rb);
    }
    tr_free(oplan);
    tr_free(odc);
    builder_free(&b);
    rowbuf_free(&rb);
    if (!ok) {
        if (p)
            placement_destroy(p);
        return nomem(err, ring->token_count);
    }
    *out = p;
    return TOKENRING_OK;
}

/* ------------------------------------------------------------------ reading */

/* The calls that take an int64 token are Murmur3's routing hot path: each refuses a ring of
 * another partitioner with one predictable branch instead of going through the partitioner
 * table (replicas_for_key_any is the call of every partitioner). */

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

/* The single-key lookup behind tokenring_placement_replicas and _for_key: the bucket, then
 * the tokens, then the range's row. The answer is one of the bucket's few ranges, whose rows
 * are adjacent (unless one repeats an earlier set), so the first four cache lines from the
 * first range's row start coming from memory while the search reads the tokens; on a large
 * ring that row read is the lookup's one miss to memory. Only a prefetch: the answer comes
 * from the search. Inlined into both entry points, so that a routed key costs one call into
 * the library: on a large ring a lookup waits on memory, and the fewer instructions each
 * takes, the more lookups the processor keeps in flight at once. */
/* The answer for range `range` of a plain placement. */
static inline void fill_plain(tokenring_replicas *out, const tokenring_placement *p,
                              uint32_t range)
{
    uint32_t set = tr_range_set(p, range);
    tr_placement_fill_plain(out, p->rows + (size_t)set * p->stride, p->stride, range, set);
}

/* The answer for range `range` of a placement with the tiny tables (p->tiny_plain). */
static inline void fill_tiny(tokenring_replicas *out, const tokenring_placement *p,
                             uint32_t range)
{
    tr_placement_fill_plain(out, p->rows + p->tiny_off[range], p->stride, range,
                            p->tiny_set[range]);
}

__attribute__((always_inline)) static inline void lookup(tokenring_replicas *out,
                                                        const tokenring_placement *p,
                                                        int64_t token)
{
    const tr_index *idx = &p->ring->index;
    if (__builtin_expect(idx->tiny != NULL, 0)) {
        /* at most 64 tokens (in L1): the tiny table and one compare (lib/ring/index.h), no
         * row prefetch */
        uint32_t range = tr_index_search_tiny(idx, token);
        if (__builtin_expect(p->tiny_plain, 1))
            fill_tiny(out, p, range);
        else if (p->plain)
            fill_plain(out, p, range);
        else
            tr_placement_fill_row(out, p, range, tr_token_set(p, range, token));
        return;
    }
    const uint32_t *bk = tr_index_bucket(idx, token);
    uint32_t first = *bk;
    if (first < p->range_count) {
        /* about the first range's set: exact but for the repeats inside its bitmap word */
        uint32_t set = p->repeat_bits ? first - p->repeat_rank[first >> 6] : first;
        const char *row = (const char *)(p->rows + tr_row_off(p, set));
        TR_PREFETCH(row);
        TR_PREFETCH(row + 64);
        TR_PREFETCH(row + 128);
        TR_PREFETCH(row + 192);
    }
#if defined(TR_CPU_X86)
    /* the AVX2 count out of line where there is AVX2: as many instructions as the scalar
     * count inline, but fewer operations (1000x16 single 1.52-1.56x -> 1.63-1.65x the
     * strongest baseline, 96x256 1.82-1.88x -> 1.97-2.08x; paired runs) */
    uint32_t range = idx->avx2 ? tr_index_search_small_call(idx, bk, token)
                               : tr_index_search_bucket(idx, token);
#else
    uint32_t range = tr_index_search_bucket(idx, token);
#endif
    if (__builtin_expect(p->plain, 1))
        fill_plain(out, p, range);
    else
        tr_placement_fill_row(out, p, range, tr_token_set(p, range, token));
}

TOKENRING_API int tokenring_placement_replicas(tokenring_replicas *out,
                                               const tokenring_placement *placement,
                                               int64_t token)
{
    if (out == NULL || placement == NULL)
        return TOKENRING_E_INVAL;
    if (__builtin_expect(placement->ring->partitioner != TOKENRING_PARTITIONER_MURMUR3, 0))
        return TOKENRING_E_UNSUPPORTED;
    lookup(out, placement, token);
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_placement_replicas_for_key(tokenring_replicas *out,
                                                       const tokenring_placement *placement,
                                                       const void *key, size_t len)
{
    if (out == NULL || placement == NULL || (key == NULL && len > 0))
        return TOKENRING_E_INVAL;
    /* the check after the hash, where the ring is read anyway: before it, the compiler
     * keeps a register across the call (a few instructions per key more) */
    int64_t token = m3_token_of((const uint8_t *)key, len); /* inline: one call per key */
    if (__builtin_expect(placement->ring->partitioner != TOKENRING_PARTITIONER_MURMUR3, 0))
        return TOKENRING_E_UNSUPPORTED;
    lookup(out, placement, token);
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_placement_replicas_for_key_any(tokenring_replicas *out,
                                                           const tokenring_placement *placement,
                                                           const void *key, size_t len)
{
    if (out == NULL || placement == NULL || (key == NULL && len > 0))
        return TOKENRING_E_INVAL;
    const tokenring_ring *ring = placement->ring;
    if (!ring->full) { /* Murmur3 hot path: the int64 lookup, as replicas_for_key */
        lookup(out, placement, tokenring_token(key, len));
        return TOKENRING_OK;
    }
    tr_tok t = tr_ops(ring->partitioner)->key_token(key, len);
    tr_placement_fill(out, placement, tr_ring_search_tok(ring, &t));
    return TOKENRING_OK;
}

TOKENRING_API int64_t tokenring_placement_key_set_id(const tokenring_placement *placement,
                                                     const void *key, size_t len)
{
    if (placement == NULL || (key == NULL && len > 0))
        return TOKENRING_E_INVAL;
    int64_t token = tokenring_token(key, len);
    if (__builtin_expect(placement->ring->partitioner != TOKENRING_PARTITIONER_MURMUR3, 0))
        return TOKENRING_E_UNSUPPORTED;
    /* the range's set id only: no replica row is read (nor prefetched) */
    return tr_token_set(placement, tr_index_search(&placement->ring->index, token), token);
}

TOKENRING_API int tokenring_placement_range_replicas(tokenring_replicas *out,
                                                     const tokenring_placement *placement,
                                                     size_t range_index)
{
    if (out == NULL || placement == NULL)
        return TOKENRING_E_INVAL;
    if (range_index >= placement->range_count)
        return TOKENRING_E_RANGE;
    tr_placement_fill(out, placement, (uint32_t)range_index);
    return TOKENRING_OK;
}

/* The batch behind tokenring_placement_route_keys and _route_keys_replicas: keys in groups,
 * stage by stage, so that the cache misses of different keys overlap (a single lookup is a
 * chain of dependent reads: bucket, tokens): hash each key and prefetch its index bucket;
 * prefetch the bucket's first token; search and prefetch the range's row, which the caller
 * reads next. Each key's answer goes to set_ids (its set id) or to reps (its replicas, as
 * the single-key lookup fills them: the range is known here, so no set -> range lookup);
 * one of them is NULL, and the compiler makes one copy per caller. Arguments checked. */
__attribute__((always_inline)) static inline void route_batch(int64_t *tokens_out,
                                                             uint32_t *set_ids_out,
                                                             tokenring_replicas *reps,
                                                             const tokenring_placement *placement,
                                                             const uint8_t *keys,
                                                             const uint64_t *offsets, size_t count)
{
    enum { GROUP = 16 };
    const tr_index *idx = &placement->ring->index;
    /* at most 64 tokens (in L1): no misses to overlap, so no prefetch stages; the tiny
     * table searches */
    const bool tiny = idx->tiny != NULL;
#if defined(TR_CPU_X86)
    /* the search stage as one AVX2 call per group where the processor has it (rings past
     * 64 tokens here): 20 instructions fewer per key, 1.02-1.05x -> 1.06-1.12x the
     * strongest batched baseline on 96x256 and 1000x16 (paired runs) */
    const bool simd = idx->avx2;
#endif
    /* rows of one length, no transient replica, no wrap set (the common case): the
     * answers are read with the placement's fields read once */
    const bool plain = placement->plain, tiny_plain = placement->tiny_plain;
    const uint32_t *rows = placement->rows;
    const uint32_t stride = placement->stride;
    for (size_t g = 0; g < count; g += GROUP) {
        size_t m = count - g < GROUP ? count - g : GROUP;
        int64_t tok[GROUP];
        uint32_t range[GROUP];
        const uint32_t *bk[GROUP]; /* each key's bucket entry, read by all three stages */
        tr_tokens_packed(tok, keys, offsets + g, m);
        if (!tiny)
            for (size_t j = 0; j < m; j++) {
                bk[j] = tr_index_bucket(idx, tok[j]);
                TR_PREFETCH(bk[j]);
            }
        if (tiny) {
            for (size_t j = 0; j < m; j++)
                range[j] = tr_index_search_tiny(idx, tok[j]);
        } else {
            for (size_t j = 0; j < m; j++)
                TR_PREFETCH(idx->tokens + *bk[j]);
#if defined(TR_CPU_X86)
            if (simd)
                tr_index_search_small_batch(idx, tok, bk, m, range);
            else
#endif
                for (size_t j = 0; j < m; j++)
                    range[j] = tr_index_search_bucket(idx, tok[j]);
        }
        if (tokens_out)
            for (size_t j = 0; j < m; j++)
                tokens_out[g + j] = tok[j];
        if (tiny_plain) { /* in L1: no prefetch */
            for (size_t j = 0; j < m; j++) {
                if (reps)
                    fill_tiny(&reps[g + j], placement, range[j]);
                else
                    set_ids_out[g + j] = placement->tiny_set[range[j]];
            }
            continue;
        }
        if (plain) {
            for (size_t j = 0; j < m; j++) {
                uint32_t set = tr_range_set(placement, range[j]);
                const uint32_t *row = rows + (size_t)set * stride;
                TR_PREFETCH(row); /* the caller reads the row next */
                if (reps)
                    tr_placement_fill_plain(&reps[g + j], row, stride, range[j], set);
                else
                    set_ids_out[g + j] = set;
            }
            continue;
        }
        for (size_t j = 0; j < m; j++) {
            uint32_t set = tr_token_set(placement, range[j], tok[j]);
            /* the caller reads the row next */
            TR_PREFETCH(placement->rows + tr_row_off(placement, set));
            if (reps)
                tr_placement_fill_row(&reps[g + j], placement, range[j], set);
            else
                set_ids_out[g + j] = set;
        }
    }
}

/* The checks both batches share: TOKENRING_OK to go on (count > 0), 1 for nothing to do,
 * else the error. */
static int route_check(const void *out, const tokenring_placement *placement,
                       const uint8_t *keys, const uint64_t *offsets, size_t count)
{
    if (placement == NULL)
        return TOKENRING_E_INVAL;
    if (placement->ring->partitioner != TOKENRING_PARTITIONER_MURMUR3)
        return TOKENRING_E_UNSUPPORTED;
    if (count == 0)
        return 1;
    if (out == NULL || offsets == NULL || !tr_packed_keys_ok(keys, offsets, count))
        return TOKENRING_E_INVAL;
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_placement_route_keys(int64_t *tokens_out, uint32_t *set_ids_out,
                                                 const tokenring_placement *placement,
                                                 const uint8_t *keys, const uint64_t *offsets,
                                                 size_t count)
{
    int rc = route_check(set_ids_out, placement, keys, offsets, count);
    if (rc != TOKENRING_OK)
        return rc > 0 ? TOKENRING_OK : rc;
    route_batch(tokens_out, set_ids_out, NULL, placement, keys, offsets, count);
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_placement_route_keys_replicas(tokenring_replicas *out,
                                                          int64_t *tokens_out,
                                                          const tokenring_placement *placement,
                                                          const uint8_t *keys,
                                                          const uint64_t *offsets, size_t count)
{
    int rc = route_check(out, placement, keys, offsets, count);
    if (rc != TOKENRING_OK)
        return rc > 0 ? TOKENRING_OK : rc;
    route_batch(tokens_out, NULL, out, placement, keys, offsets, count);
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
    tr_placement_fill_row(out, placement, tr_set_range(placement, (uint32_t)set_id),
                          (uint32_t)set_id);
    return TOKENRING_OK;
}
