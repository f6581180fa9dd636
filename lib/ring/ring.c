/* SPDX-License-Identifier: Apache-2.0 */
/* The ring: an immutable, reference-counted snapshot of a topology.
 *
 * Holds the sorted ring tokens (nodes in state NORMAL, LEAVING or MOVING) with a parallel
 * array of owner node indices (1, 2 or 4 bytes each, the narrowest that holds every node
 * index), a copy of every node (names in one arena), datacenters numbered in sorted name
 * order and (datacenter, rack) pairs numbered in sorted order.
 *
 * Two views are derived on first use rather than stored up front, since most rings never
 * need them: each ring node's own token list (tokenring_ring_node; a counting pass over
 * the sorted tokens and their owners) and the owners as 32-bit indices
 * (tokenring_ring_token_nodes, when they are stored narrower). A ring is shared by reader
 * threads without locks, so each view is computed privately and published with one
 * compare-exchange: the first thread to finish wins, the others free their copy and use
 * the winner's. The tokens of nodes outside the ring (e.g. JOINING) are copied eagerly. */
#include <stdlib.h>
#include <string.h>

#include "ring_internal.h"

static void ring_destroy(tokenring_ring *r)
{
    tr_index_free(&r->index);
    tr_free(r->tokens);
    tr_free(r->owners.any);
    tr_free(atomic_load_explicit(&r->owners32, memory_order_acquire));
    tr_free(r->nodes);
    tr_free(r->by_name);
    tr_free(r->other_tokens);
    tr_free(atomic_load_explicit(&r->node_tokens, memory_order_acquire));
    tr_free(r->dc_names);
    tr_free(r->dc_ring_nodes);
    tr_free(r->dc_ring_racks);
    tr_free(r->arena);
    if (r->full) {
        tr_free(r->full->tokens128);
        tr_free(r->full->tok_bytes);
        tr_free(r->full->tok_off);
        tr_free(r->full);
    }
    tr_free(r);
}

/* ------------------------------------------- RandomPartitioner, ByteOrdered rings */

typedef struct item_tok {
    tr_tok t;
    uint32_t node;
} item_tok;

static int cmp_item_tok(const void *a, const void *b)
{
    return tr_tok_cmp(&((const item_tok *)a)->t, &((const item_tok *)b)->t);
}

/* The sorted full tokens of a ring whose 64-bit keys are not the tokens (RandomPartitioner,
 * ByteOrderedPartitioner): their keys in r->tokens, the full values in r->full (the
 * partitioner's column, tr_tok_store) and their owners in owner (32-bit). */
static int build_other_tokens(tokenring_ring *r, const tokenring_topology *t, uint32_t *owner)
{
    size_t n = r->token_count, at = 0, bytes = 0;
    if (!(r->full = tr_calloc(1, sizeof *r->full)))
        return TOKENRING_E_NOMEM;
    item_tok *it = tr_reallocarray(NULL, n ? n : 1, sizeof *it);
    tr_tok *toks = tr_reallocarray(NULL, n ? n : 1, sizeof *toks);
    int rc = TOKENRING_E_NOMEM;
    if (!it || !toks)
        goto done;
    for (size_t i = 0; i < t->count; i++) {
        const tr_tnode *nd = &t->nodes[i];
        if (!tr_state_in_ring(nd->state))
            continue;
        for (size_t k = 0; k < nd->token_count; k++) {
            it[at] = (item_tok){ tr_tnode_tok(nd, k), (uint32_t)i };
            bytes += it[at++].t.len;
        }
    }
    if (bytes > UINT32_MAX)
        goto done;
    qsort(it, n, sizeof *it, cmp_item_tok);
    for (size_t i = 0; i < n; i++) {
        toks[i] = it[i].t;
        r->tokens[i] = it[i].t.key;
        owner[i] = it[i].node;
    }
    rc = tr_tok_store(t->partitioner, toks, n, &r->full->tokens128, &r->full->tok_bytes,
                      &r->full->tok_off);
done:
    tr_free(it);
    tr_free(toks);
    return rc;
}

/* The index's answer on the 64-bit keys is the first ring token whose key is >= t's, so
 * every token before it is below t; among tokens of an equal key (rare: RandomPartitioner
 * values that share bits 126..63, byte tokens that share 8 bytes), a binary search on the
 * full values. */
uint32_t tr_ring_search_tok(const tokenring_ring *ring, const tr_tok *t)
{
    uint32_t i = tr_index_search(&ring->index, t->key);
    if (i == 0 && ring->tokens[0] < t->key)
        return 0; /* every token is below: wrap */
    tr_tok r = tr_ring_tok(ring, i);
    if (tr_tok_cmp(&r, t) >= 0)
        return i;
    size_t lo = (size_t)i + 1, hi = ring->token_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        r = tr_ring_tok(ring, mid);
        if (tr_tok_cmp(&r, t) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo == ring->token_count ? 0 : (uint32_t)lo;
}

uint32_t tr_ring_search128(const tokenring_ring *ring, tokenring_token128 t)
{
    tr_tok v = tr_tok_128(t);
    return tr_ring_search_tok(ring, &v);
}

uint32_t tr_ring_search_bytes(const tokenring_ring *ring, const uint8_t *b, size_t len)
{
    tr_tok v = tr_tok_bytes(b, len);
    return tr_ring_search_tok(ring, &v);
}

tr_tok tr_ring_token(const tokenring_ring *ring, size_t i)
{
    return tr_ring_tok(ring, i);
}

/* Sorts (token, node) pairs by token: LSD radix sort on 11-bit digits of the token with
 * its sign bit flipped (so unsigned order is signed order). One pass counts every digit;
 * a digit that is the same for every token is skipped. tmp arrays have n entries; hist
 * has RADIX_PASSES << RADIX_BITS zeroed entries. */
#define RADIX_BITS 11
#define RADIX_PASSES 6 /* ceil(64 / 11) */
static void sort_pairs(int64_t *tok, uint32_t *node, int64_t *tmp_tok, uint32_t *tmp_node,
                       uint32_t *hist, size_t n)
{
    const size_t nb = (size_t)1 << RADIX_BITS, mask = nb - 1;
    for (size_t i = 0; i < n; i++) {
        uint64_t u = (uint64_t)tok[i] ^ 0x8000000000000000ULL;
        for (unsigned p = 0; p < RADIX_PASSES; p++)
            hist[p * nb + ((u >> (p * RADIX_BITS)) & mask)]++;
    }
    int64_t *src_t = tok, *dst_t = tmp_tok;
    uint32_t *src_n = node, *dst_n = tmp_node;
    for (unsigned p = 0; p < RADIX_PASSES; p++) {
        uint32_t *count = hist + p * nb;
        uint32_t sum = 0;
        bool skip = false;
        for (size_t d = 0; d < nb; d++) {
            uint32_t c = count[d];
            skip |= c == n;
            count[d] = sum;
            sum += c;
        }
        if (skip)
            continue;
        const unsigned shift = p * RADIX_BITS;
        for (size_t i = 0; i < n; i++) {
            uint64_t u = (uint64_t)src_t[i] ^ 0x8000000000000000ULL;
            uint32_t at = count[(u >> shift) & mask]++;
            dst_t[at] = src_t[i];
            dst_n[at] = src_n[i];
        }
        int64_t *st = src_t;
        src_t = dst_t;
        dst_t = st;
        uint32_t *sn = src_n;
        src_n = dst_n;
        dst_n = sn;
    }
    if (src_t != tok) {
        memcpy(tok, src_t, n * sizeof *tok);
        memcpy(node, src_n, n * sizeof *node);
    }
}

typedef struct {
    const char *key1;
    const char *key2;
    uint32_t node;
} sort_item;

static int cmp_item(const void *a, const void *b)
{
    const sort_item *x = a, *y = b;
    int c = strcmp(x->key1, y->key1);
    if (c == 0 && x->key2 && y->key2)
        c = strcmp(x->key2, y->key2);
    return c;
}

/* Copies s with its terminator to *a, moves *a past it, and returns the copy. */
static char *arena_put(char **a, const char *s)
{
    size_t l = strlen(s) + 1;
    char *at = memcpy(*a, s, l);
    *a += l;
    return at;
}

TOKENRING_API int tokenring_ring_build(tokenring_ring **out, const tokenring_topology *topology,
                                       tokenring_error *err)
{
    if (out == NULL || topology == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "%s is NULL", out ? "topology" : "out");
    const tokenring_topology *t = topology;
    size_t ring_tokens = 0, other_tokens = 0, strings = 0;
    for (size_t i = 0; i < t->count; i++) {
        const tr_tnode *n = &t->nodes[i];
        if (tr_state_in_ring(n->state))
            ring_tokens += n->token_count;
        else
            other_tokens += n->token_count;
        strings += strlen(n->name) + strlen(n->dc) + strlen(n->rack) + 3;
    }
    if (ring_tokens == 0)
        return tr_fail(err, TOKENRING_E_EMPTY,
                       "no node in state NORMAL, LEAVING or MOVING: the ring has no tokens");

    tokenring_ring *r = tr_calloc(1, sizeof *r);
    sort_item *items = NULL;
    int64_t *tmp_tok = NULL;
    uint32_t *tmp_node = NULL, *hist = NULL, *owner = NULL;
    uint8_t *seen = NULL;
    if (!r)
        goto nomem;
    size_t nn = t->count;
    r->node_count = (uint32_t)nn;
    r->token_count = ring_tokens;
    r->owner_bytes = nn <= 256 ? 1 : nn <= 65536 ? 2 : 4;
    atomic_init(&r->node_tokens, NULL);
    atomic_init(&r->owners32, NULL);
    r->tokens = tr_malloc(ring_tokens * sizeof *r->tokens);
    owner = tr_malloc(ring_tokens * sizeof *owner); /* 32-bit while sorting */
    r->nodes = tr_calloc(nn, sizeof *r->nodes);
    r->by_name = tr_malloc(nn * sizeof *r->by_name);
    if (other_tokens > 0 && !(r->other_tokens = tr_malloc(other_tokens * sizeof(int64_t))))
        goto nomem;
    r->arena = tr_malloc(strings);
    items = tr_malloc(nn * sizeof *items);
    if (!r->tokens || !owner || !r->nodes || !r->by_name || !r->arena || !items)
        goto nomem;

    /* Nodes, names, tokens. */
    char *a = r->arena;
    size_t other_at = 0, rt = 0;
    for (size_t i = 0; i < nn; i++) {
        const tr_tnode *n = &t->nodes[i];
        tr_rnode *m = &r->nodes[i];
        m->name = arena_put(&a, n->name);
        m->dc = arena_put(&a, n->dc);
        m->rack = arena_put(&a, n->rack);
        m->token_count = (uint32_t)n->token_count;
        m->state = n->state;
        m->liveness = n->liveness;
        if (tr_state_in_ring(n->state)) {
            /* node after node, as tr_ring_node_tokens lays them out */
            m->token_off = rt;
            m->ring_token_count = (uint32_t)n->token_count;
            for (size_t k = 0; k < n->token_count; k++) {
                r->tokens[rt] = n->keys[k]; /* Murmur3's tokens; the others' are set below */
                owner[rt] = (uint32_t)i;
                rt++;
            }
        } else {
            m->token_off = other_at;
            memcpy(r->other_tokens + other_at, n->keys, n->token_count * sizeof(int64_t));
            other_at += n->token_count;
        }
    }
    /* Node indices in name order (names are distinct), for tokenring_ring_find_node(). */
    for (size_t i = 0; i < nn; i++)
        items[i] = (sort_item){ r->nodes[i].name, NULL, (uint32_t)i };
    qsort(items, nn, sizeof *items, cmp_item);
    for (size_t i = 0; i < nn; i++)
        r->by_name[i] = items[i].node;

    /* Sorted ring tokens. */
    r->partitioner = t->partitioner;
    if (!tr_ops(t->partitioner)->key_is_token) {
        if (build_other_tokens(r, t, owner) != TOKENRING_OK)
            goto nomem;
    } else if (ring_tokens > 4096) {
        tmp_tok = tr_malloc(ring_tokens * sizeof *tmp_tok);
        tmp_node = tr_malloc(ring_tokens * sizeof *tmp_node);
        hist = tr_calloc((size_t)RADIX_PASSES << RADIX_BITS, sizeof *hist);
        if (!tmp_tok || !tmp_node || !hist)
            goto nomem;
        sort_pairs(r->tokens, owner, tmp_tok, tmp_node, hist, ring_tokens);
    } else {
        /* Small rings: sort (token, node) packed as 16-byte records by token. */
        struct pair { int64_t tok; int64_t node; } *p = tr_malloc(ring_tokens * sizeof *p);
        if (!p)
            goto nomem;
        for (size_t i = 0; i < ring_tokens; i++) {
            p[i].tok = r->tokens[i];
            p[i].node = owner[i];
        }
        qsort(p, ring_tokens, sizeof *p, tr_cmp_i64); /* compares the leading token */
        for (size_t i = 0; i < ring_tokens; i++) {
            r->tokens[i] = p[i].tok;
            owner[i] = (uint32_t)p[i].node;
        }
        tr_free(p);
    }

    /* Owners in their narrow width. */
    if (r->owner_bytes == 4) {
        r->owners.u32 = owner;
        owner = NULL;
    } else {
        r->owners.any = tr_malloc(ring_tokens * r->owner_bytes);
        if (!r->owners.any)
            goto nomem;
        for (size_t i = 0; i < ring_tokens; i++) {
            if (r->owner_bytes == 1)
                r->owners.u8[i] = (uint8_t)owner[i];
            else
                r->owners.u16[i] = (uint16_t)owner[i];
        }
        tr_free(owner);
        owner = NULL;
    }

    /* Datacenters in sorted name order. */
    for (size_t i = 0; i < nn; i++)
        items[i] = (sort_item){ r->nodes[i].dc, NULL, (uint32_t)i };
    qsort(items, nn, sizeof *items, cmp_item);
    uint32_t dcs = 0;
    for (size_t i = 0; i < nn; i++) {
        if (i == 0 || strcmp(items[i].key1, items[i - 1].key1) != 0)
            dcs++;
        r->nodes[items[i].node].dc_index = dcs - 1;
    }
    r->dc_count = dcs;
    r->dc_names = tr_malloc(dcs * sizeof *r->dc_names);
    r->dc_ring_nodes = tr_calloc(dcs, sizeof *r->dc_ring_nodes);
    r->dc_ring_racks = tr_calloc(dcs, sizeof *r->dc_ring_racks);
    if (!r->dc_names || !r->dc_ring_nodes || !r->dc_ring_racks)
        goto nomem;
    for (size_t i = 0; i < nn; i++)
        r->dc_names[r->nodes[items[i].node].dc_index] = r->nodes[items[i].node].dc;

    /* (datacenter, rack) pairs in sorted order. */
    for (size_t i = 0; i < nn; i++)
        items[i] = (sort_item){ r->nodes[i].dc, r->nodes[i].rack, (uint32_t)i };
    qsort(items, nn, sizeof *items, cmp_item);
    uint32_t racks = 0;
    for (size_t i = 0; i < nn; i++) {
        if (i == 0 || cmp_item(&items[i], &items[i - 1]) != 0)
            racks++;
        r->nodes[items[i].node].rack_index = racks - 1;
    }
    r->rack_count = racks;

    /* Ring members and their racks per datacenter. */
    seen = tr_calloc(racks, 1);
    if (!seen)
        goto nomem;
    for (size_t i = 0; i < nn; i++) {
        const tr_rnode *m = &r->nodes[i];
        if (m->ring_token_count == 0)
            continue;
        r->dc_ring_nodes[m->dc_index]++;
        if (!seen[m->rack_index]) {
            seen[m->rack_index] = 1;
            r->dc_ring_racks[m->dc_index]++;
        }
    }

    if (tr_index_build(&r->index, r->tokens, r->token_count) != TOKENRING_OK)
        goto nomem;
    atomic_init(&r->refs, 1);
    tr_free(items);
    tr_free(tmp_tok);
    tr_free(tmp_node);
    tr_free(hist);
    tr_free(seen);
    tr_free(owner);
    *out = r;
    return TOKENRING_OK;
nomem:
    if (r)
        ring_destroy(r);
    tr_free(items);
    tr_free(tmp_tok);
    tr_free(tmp_node);
    tr_free(hist);
    tr_free(seen);
    tr_free(owner);
    return tr_fail(err, TOKENRING_E_NOMEM, "out of memory building a ring of %zu tokens",
                   ring_tokens);
}

TOKENRING_API tokenring_ring *tokenring_ring_ref(const tokenring_ring *ring)
{
    if (!ring)
        return NULL;
    tokenring_ring *r = (tokenring_ring *)ring;
    atomic_fetch_add_explicit(&r->refs, 1, memory_order_relaxed);
    return r;
}

TOKENRING_API void tokenring_ring_free(tokenring_ring *ring)
{
    if (!ring)
        return;
    if (atomic_fetch_sub_explicit(&ring->refs, 1, memory_order_acq_rel) == 1)
        ring_destroy(ring);
}

TOKENRING_API const int64_t *tokenring_ring_tokens(const tokenring_ring *ring, size_t *count_out)
{
    if (count_out)
        *count_out = ring ? ring->token_count : 0;
    return ring && ring->partitioner == TOKENRING_PARTITIONER_MURMUR3 ? ring->tokens : NULL;
}

/* The view in *slot, built by build() on first use and published for every reader:
 * concurrent first callers may each build one; the first to publish wins, the others
 * free theirs. NULL when out of memory (a later call tries again). */
static void *publish_once(_Atomic(void *) *slot, void *(*build)(const tokenring_ring *),
                          const tokenring_ring *ring)
{
    void *have = atomic_load_explicit(slot, memory_order_acquire);
    if (have)
        return have;
    void *mine = build(ring);
    if (!mine)
        return NULL;
    if (atomic_compare_exchange_strong_explicit(slot, &have, mine, memory_order_acq_rel,
                                                memory_order_acquire))
        return mine;
    tr_free(mine); /* another thread published first: use its copy */
    return have;
}

/* A 32-bit copy of narrow owners, or NULL when out of memory. */
static void *widen_owners(const tokenring_ring *ring)
{
    uint32_t *w = tr_reallocarray(NULL, ring->token_count, sizeof *w);
    if (!w)
        return NULL;
    if (ring->owner_bytes == 1)
        for (size_t i = 0; i < ring->token_count; i++)
            w[i] = ring->owners.u8[i];
    else
        for (size_t i = 0; i < ring->token_count; i++)
            w[i] = ring->owners.u16[i];
    return w;
}

TOKENRING_API const uint32_t *tokenring_ring_token_nodes(const tokenring_ring *ring,
                                                         size_t *count_out)
{
    if (count_out)
        *count_out = ring ? ring->token_count : 0;
    if (!ring)
        return NULL;
    if (ring->owner_bytes == 4)
        return ring->owners.u32;
    /* only the lazily published view changes */
    return publish_once(&((tokenring_ring *)ring)->owners32, widen_owners, ring);
}

const uint32_t *tr_ring_owners_wide(const tokenring_ring *ring, uint32_t **scratch)
{
    *scratch = NULL;
    if (ring->owner_bytes == 4)
        return ring->owners.u32;
    uint32_t *have = atomic_load_explicit(&((tokenring_ring *)ring)->owners32,
                                          memory_order_acquire);
    if (have)
        return have;
    return *scratch = widen_owners(ring);
}

TOKENRING_API size_t tokenring_ring_node_count(const tokenring_ring *ring)
{
    return ring ? ring->node_count : 0;
}

TOKENRING_API size_t tokenring_ring_dc_count(const tokenring_ring *ring)
{
    return ring ? ring->dc_count : 0;
}

TOKENRING_API const char *tokenring_ring_dc_name(const tokenring_ring *ring, size_t index)
{
    if (!ring || index >= ring->dc_count)
        return NULL;
    return ring->dc_names[index];
}

TOKENRING_API size_t tokenring_ring_rack_count(const tokenring_ring *ring)
{
    return ring ? ring->rack_count : 0;
}

/* The ring nodes' token lists, node after node: a counting pass over the sorted tokens
 * (so each list comes out ascending). NULL when out of memory. */
static void *build_node_tokens(const tokenring_ring *ring)
{
    int64_t *lists = tr_reallocarray(NULL, ring->token_count, sizeof *lists);
    size_t *at = tr_reallocarray(NULL, ring->node_count, sizeof *at);
    if (!lists || !at) {
        tr_free(lists);
        tr_free(at);
        return NULL;
    }
    for (size_t k = 0; k < ring->node_count; k++)
        at[k] = ring->nodes[k].token_off; /* only ring nodes' entries are used */
    for (size_t i = 0; i < ring->token_count; i++)
        lists[at[tr_ring_owner(ring, i)]++] = ring->tokens[i];
    tr_free(at);
    return lists;
}

const int64_t *tr_ring_node_tokens(const tokenring_ring *ring)
{
    /* only the lazily published view changes */
    return publish_once(&((tokenring_ring *)ring)->node_tokens, build_node_tokens, ring);
}

/* Node `node` as tokenring_ring_node reports it, without its tokens (NULL; token_count
 * is set): what tokenring_ring_node_brief returns, and the first half of
 * tokenring_ring_node. */
static void node_meta(tokenring_node_info *out, const tokenring_ring *ring, uint32_t node)
{
    const tr_rnode *m = &ring->nodes[node];
    memset(out, 0, sizeof *out);
    out->name = m->name;
    out->datacenter = m->dc;
    out->rack = m->rack;
    out->token_count = m->token_count;
    out->state = m->state;
    out->liveness = m->liveness;
    out->dc_index = m->dc_index;
    out->rack_index = m->rack_index;
}

TOKENRING_API int tokenring_ring_node_brief(tokenring_node_info *out, const tokenring_ring *ring,
                                            uint32_t node)
{
    if (out == NULL || ring == NULL)
        return TOKENRING_E_INVAL;
    if (node >= ring->node_count)
        return TOKENRING_E_RANGE;
    node_meta(out, ring, node);
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_ring_node(tokenring_node_info *out, const tokenring_ring *ring,
                                      uint32_t node)
{
    int rc = tokenring_ring_node_brief(out, ring, node);
    if (rc != TOKENRING_OK)
        return rc;
    const tr_rnode *m = &ring->nodes[node];
    if (ring->partitioner != TOKENRING_PARTITIONER_MURMUR3)
        return TOKENRING_OK; /* tokens NULL: tokenring_ring_token128 / _token_bytes */
    if (!tr_state_in_ring(m->state)) {
        out->tokens = ring->other_tokens + m->token_off;
        return TOKENRING_OK;
    }
    const int64_t *lists = tr_ring_node_tokens(ring);
    if (!lists)
        return TOKENRING_E_NOMEM; /* every field but tokens is filled */
    out->tokens = lists + m->token_off;
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_ring_find_node(uint32_t *node_out, const tokenring_ring *ring,
                                           const char *name)
{
    if (node_out == NULL || ring == NULL || name == NULL)
        return TOKENRING_E_INVAL;
    size_t lo = 0, hi = ring->node_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(ring->nodes[ring->by_name[mid]].name, name);
        if (c == 0) {
            *node_out = ring->by_name[mid];
            return TOKENRING_OK;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return TOKENRING_E_NOTFOUND;
}

TOKENRING_API uint32_t tokenring_ring_search(const tokenring_ring *ring, int64_t token)
{
    if (!ring)
        return 0;
    if (__builtin_expect(ring->partitioner != TOKENRING_PARTITIONER_MURMUR3, 0))
        return UINT32_MAX;
    return tr_ring_search(ring, token);
}

TOKENRING_API int tokenring_ring_owner(uint32_t *node_out, const tokenring_ring *ring,
                                       int64_t token)
{
    if (node_out == NULL || ring == NULL)
        return TOKENRING_E_INVAL;
    if (ring->partitioner != TOKENRING_PARTITIONER_MURMUR3)
        return TOKENRING_E_UNSUPPORTED;
    *node_out = tr_ring_owner(ring, tr_ring_search(ring, token));
    return TOKENRING_OK;
}

static void fill_range(tokenring_range *out, const tokenring_ring *ring, size_t i)
{
    size_t n = ring->token_count;
    memset(out, 0, sizeof *out);
    out->end = ring->tokens[i];
    out->start = ring->tokens[i == 0 ? n - 1 : i - 1];
    out->width = tr_u128_out(tr_ring_width(ring, i));
    out->index = (uint32_t)i;
    out->owner = tr_ring_owner(ring, i);
}

TOKENRING_API int tokenring_ring_range_of(tokenring_range *out, const tokenring_ring *ring,
                                          int64_t token)
{
    if (out == NULL || ring == NULL)
        return TOKENRING_E_INVAL;
    if (ring->partitioner != TOKENRING_PARTITIONER_MURMUR3)
        return TOKENRING_E_UNSUPPORTED;
    fill_range(out, ring, tr_ring_search(ring, token));
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_ring_range(tokenring_range *out, const tokenring_ring *ring,
                                       size_t index)
{
    if (out == NULL || ring == NULL)
        return TOKENRING_E_INVAL;
    if (ring->partitioner != TOKENRING_PARTITIONER_MURMUR3)
        return TOKENRING_E_UNSUPPORTED;
    if (index >= ring->token_count)
        return TOKENRING_E_RANGE;
    fill_range(out, ring, index);
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_ring_search_batch(uint32_t *ranges_out, const tokenring_ring *ring,
                                              const int64_t *tokens, size_t count)
{
    if (ring == NULL || (count > 0 && (ranges_out == NULL || tokens == NULL)))
        return TOKENRING_E_INVAL;
    if (ring->partitioner != TOKENRING_PARTITIONER_MURMUR3)
        return TOKENRING_E_UNSUPPORTED;
    tr_index_search_batch(&ring->index, tokens, count, ranges_out);
    return TOKENRING_OK;
}

/* ------------------------------------------------------- other partitioners */

/* The suffixed calls (X128, X_bytes; above, the int64 ones of Murmur3's hot path) take
 * their partitioner's own token type, so each first checks that the ring's partitioner is
 * that one: these checks are the ABI's, not partitioner logic. */

TOKENRING_API tokenring_partitioner tokenring_ring_partitioner(const tokenring_ring *ring)
{
    return ring ? (tokenring_partitioner)ring->partitioner : TOKENRING_PARTITIONER_MURMUR3;
}

TOKENRING_API uint32_t tokenring_ring_search128(const tokenring_ring *ring,
                                                tokenring_token128 token)
{
    if (!ring || ring->partitioner != TOKENRING_PARTITIONER_RANDOM)
        return UINT32_MAX;
    return tr_ring_search128(ring, token);
}

TOKENRING_API uint32_t tokenring_ring_search_bytes(const tokenring_ring *ring,
                                                   const uint8_t *token, size_t len)
{
    if (!ring || ring->partitioner != TOKENRING_PARTITIONER_BYTE_ORDERED ||
        (token == NULL && len > 0))
        return UINT32_MAX;
    return tr_ring_search_bytes(ring, token, len);
}

TOKENRING_API int tokenring_ring_token128(tokenring_token128 *out, const tokenring_ring *ring,
                                          size_t index)
{
    if (out == NULL || ring == NULL)
        return TOKENRING_E_INVAL;
    if (ring->partitioner != TOKENRING_PARTITIONER_RANDOM)
        return TOKENRING_E_UNSUPPORTED;
    if (index >= ring->token_count)
        return TOKENRING_E_RANGE;
    *out = ring->full->tokens128[index];
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_ring_token_bytes(const uint8_t **out, size_t *len_out,
                                             const tokenring_ring *ring, size_t index)
{
    if (out == NULL || len_out == NULL || ring == NULL)
        return TOKENRING_E_INVAL;
    if (ring->partitioner != TOKENRING_PARTITIONER_BYTE_ORDERED)
        return TOKENRING_E_UNSUPPORTED;
    if (index >= ring->token_count)
        return TOKENRING_E_RANGE;
    *out = ring->full->tok_bytes + ring->full->tok_off[index];
    *len_out = ring->full->tok_off[index + 1] - ring->full->tok_off[index];
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_ring_range128(tokenring_range128 *out, const tokenring_ring *ring,
                                          size_t index)
{
    if (out == NULL || ring == NULL)
        return TOKENRING_E_INVAL;
    if (ring->partitioner != TOKENRING_PARTITIONER_RANDOM)
        return TOKENRING_E_UNSUPPORTED;
    if (index >= ring->token_count)
        return TOKENRING_E_RANGE;
    size_t n = ring->token_count;
    memset(out, 0, sizeof *out);
    out->end = ring->full->tokens128[index];
    out->start = ring->full->tokens128[index == 0 ? n - 1 : index - 1];
    out->width = tr_u128_out(tr_ring_width_any(ring, index));
    out->index = (uint32_t)index;
    out->owner = tr_ring_owner(ring, index);
    return TOKENRING_OK;
}
