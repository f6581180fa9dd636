/* SPDX-License-Identifier: Apache-2.0 */
/* Private layouts shared by topology.c, ring.c, replication.c, placement.c and
 * ownership.c. Never installed. */
#ifndef TOKENRING_RING_INTERNAL_H
#define TOKENRING_RING_INTERNAL_H

#include <stdatomic.h>
#include <string.h>

#include "internal.h"
#include "index.h"
#include "token.h"

/* Exact 128-bit arithmetic for widths (2^64 and sums of them). */
static inline tokenring_u128 tr_u128_out(tr_u128 v)
{
    tokenring_u128 r = { (uint64_t)(v >> 64), (uint64_t)v };
    return r;
}

/* Ring states whose tokens form the ring. */
static inline bool tr_state_in_ring(int32_t state)
{
    return state == TOKENRING_STATE_NORMAL || state == TOKENRING_STATE_LEAVING ||
           state == TOKENRING_STATE_MOVING;
}

/* ------------------------------------------------------------------ topology */

typedef struct tr_tnode {
    char *name;
    char *dc;
    char *rack;
    /* keys[k]: the topology's hash-table key of the node's token k (tokens ascending):
     * tr_partitioner_ops.hash_key, which for Murmur3 is the token itself, so that for
     * Murmur3 keys ARE the tokens; for the other partitioners a hash, the tokens being in
     * t128 / tb. Read token k of any partitioner with tr_tnode_tok(). */
    int64_t *keys;
    size_t token_count;
    int32_t state;
    int32_t liveness;
    tokenring_token128 *t128; /* RandomPartitioner: the tokens, ascending (else NULL) */
    uint8_t *tb;              /* ByteOrderedPartitioner: the tokens' bytes, ascending, */
    uint32_t *tb_off;         /* token_count + 1 offsets into tb (else both NULL) */
} tr_tnode;

/* Token k of node n as a tr_tok (lib/token/token.h). */
static inline tr_tok tr_tnode_tok(const tr_tnode *n, size_t k)
{
    return tr_tok_at(n->keys, n->t128, n->tb, n->tb_off, k);
}

struct tokenring_topology {
    tr_tnode *nodes; /* insertion order */
    size_t count;
    size_t cap;
    /* name -> node index: open addressing, linear probing, power-of-two slots, at most
     * half full. An empty slot holds UINT32_MAX. */
    uint32_t *name_nodes;
    size_t name_slots;
    /* token -> node index: open addressing, linear probing, power-of-two slots. An empty
     * slot has node UINT32_MAX. */
    int64_t *tok_keys;
    uint32_t *tok_nodes;
    size_t tok_slots;
    size_t tok_used;
    int32_t partitioner; /* tokenring_partitioner */
};

/* The implementation of tokenring_topology_add_node / _set_tokens for every partitioner
 * (ring/topology.c): the typed calls (X, X128, X_bytes) and the _text calls build tr_tok
 * arrays and call these. partitioner is the one the caller's tokens belong to (all of
 * toks are of it), refused with the public messages when it is not the topology's.
 * toks may be NULL (refused as the caller's NULL tokens) and is the caller's scratch:
 * sorted in place. The checks, messages and all-or-nothing behaviour of topology.h. */
TR_HIDDEN int tr_topology_add_node_toks(tokenring_topology *topology, const char *name,
                                        const char *datacenter, const char *rack,
                                        int32_t partitioner, tr_tok *toks, size_t count,
                                        tokenring_error *err);
TR_HIDDEN int tr_topology_set_tokens_toks(tokenring_topology *topology, const char *name,
                                          int32_t partitioner, tr_tok *toks, size_t count,
                                          tokenring_error *err);

/* ---------------------------------------------------------------------- ring */

typedef struct tr_rnode {
    const char *name; /* into the arena */
    const char *dc;
    const char *rack;
    size_t token_off;      /* where its tokens start: in the ring nodes' lists
                            * (tr_ring_node_tokens) for a node in the ring, else in
                            * other_tokens */
    uint32_t token_count;
    uint32_t ring_token_count; /* tokens in the ring (0 unless a ring state) */
    int32_t state;
    int32_t liveness;
    uint32_t dc_index;
    uint32_t rack_index;
} tr_rnode;

struct tokenring_ring {
    atomic_size_t refs;
    size_t token_count; /* ring tokens */
    int64_t *tokens;    /* ascending, distinct */
    /* Owner node of each ring token, in the narrowest width that holds every node index
     * (read through tr_ring_owner). */
    union {
        void *any;
        uint8_t *u8;
        uint16_t *u16;
        uint32_t *u32;
    } owners;
    uint32_t owner_bytes; /* 1 (<= 256 nodes), 2 (<= 65536) or 4 */
    uint32_t node_count;
    tr_rnode *nodes;
    uint32_t *by_name;     /* node indices sorted by name */
    int64_t *other_tokens; /* tokens of the nodes outside the ring, node after node (or NULL) */
    /* Built on first use and published once (compare-exchange, release; readers load with
     * acquire); the ring is otherwise immutable. */
    _Atomic(void *) node_tokens; /* int64_t: ring nodes' tokens, node after node */
    _Atomic(void *) owners32;    /* uint32_t: 32-bit copy of owners when owner_bytes < 4 */
    uint32_t dc_count;
    const char **dc_names; /* sorted */
    uint32_t *dc_ring_nodes; /* per dc: ring members */
    uint32_t *dc_ring_racks; /* per dc: distinct racks among ring members */
    uint32_t rack_count;     /* distinct (dc, rack) pairs, all nodes */
    int32_t partitioner;     /* tokenring_partitioner (in what was padding) */
    char *arena;
    tr_index index;          /* search index over tokens (lib/ring/index.h) */
    /* RandomPartitioner and ByteOrderedPartitioner rings: `tokens` holds the 64-bit
     * order-preserving prefix of each token (tr_prefix128, tr_prefix_bytes; ascending,
     * not strictly), which the index searches; the full tokens are in `full`. NULL for
     * Murmur3, whose ring is laid out as before (one pointer more). */
    struct tr_ring_full *full;
};

struct tr_ring_full {
    tokenring_token128 *tokens128; /* RandomPartitioner: ascending (else NULL) */
    uint8_t *tok_bytes;            /* ByteOrderedPartitioner: the tokens' bytes, ascending */
    uint32_t *tok_off;             /* token_count + 1 offsets into tok_bytes */
};

/* Ring token i as a tr_tok (lib/token/token.h). */
static inline tr_tok tr_ring_tok(const struct tokenring_ring *ring, size_t i)
{
    const struct tr_ring_full *f = ring->full;
    if (!f)
        return tr_tok_m3(ring->tokens[i]);
    return tr_tok_at(ring->tokens, f->tokens128, f->tok_bytes, f->tok_off, i);
}

/* Order of ring a's token i against ring b's token j (rings of one partitioner): the
 * prefixes decide unless equal, then the full tokens. For Murmur3 the prefix is the
 * token. */
static inline int tr_ring_cmp_at(const struct tokenring_ring *a, size_t i,
                                 const struct tokenring_ring *b, size_t j);

/* Search of a RandomPartitioner / ByteOrderedPartitioner ring (lib/ring/ring.c). */
TR_HIDDEN uint32_t tr_ring_search128(const struct tokenring_ring *ring, tokenring_token128 t);
TR_HIDDEN uint32_t tr_ring_search_bytes(const struct tokenring_ring *ring, const uint8_t *b,
                                        size_t len);

/* First ring token >= token, wrapping to 0. The one place that searches the ring: a radix
 * table on the top token bits (lib/ring/index.h), checked against a plain lower_bound by
 * tests/test_index.c and by every vector test. */
static inline uint32_t tr_ring_search(const struct tokenring_ring *ring, int64_t token)
{
    return tr_index_search(&ring->index, token);
}

static inline int tr_ring_cmp_at(const struct tokenring_ring *a, size_t i,
                                 const struct tokenring_ring *b, size_t j)
{
    if (a->tokens[i] != b->tokens[j])
        return a->tokens[i] < b->tokens[j] ? -1 : 1;
    if (!a->full) /* Murmur3: the key is the token */
        return 0;
    tr_tok x = tr_ring_tok(a, i), y = tr_ring_tok(b, j);
    return tr_tok_cmp(&x, &y);
}

/* Owner node of ring token i. */
static inline uint32_t tr_ring_owner(const struct tokenring_ring *ring, size_t i)
{
    if (ring->owner_bytes == 1)
        return ring->owners.u8[i];
    if (ring->owner_bytes == 2)
        return ring->owners.u16[i];
    return ring->owners.u32[i];
}

/* Every ring token's owner as 32-bit node indices, for bulk readers: the ring's own array
 * when it stores 32-bit owners (*scratch = NULL), else a widened copy in *scratch that the
 * caller frees with tr_free(*scratch). NULL when out of memory. */
TR_HIDDEN const uint32_t *tr_ring_owners_wide(const struct tokenring_ring *ring,
                                              uint32_t **scratch);

/* The tokens of every node in the ring, node after node (node i's start at
 * ring->nodes[i].token_off), built on the first call (8 bytes per ring token, once per
 * ring; thread-safe). NULL when out of memory (a later call tries again). */
TR_HIDDEN const int64_t *tr_ring_node_tokens(const struct tokenring_ring *ring);


/* Exact width of range i: (t_i - t_{i-1}) mod 2^64, or 2^64 for a single token. */
static inline tr_u128 tr_ring_width(const struct tokenring_ring *ring, size_t i)
{
    size_t n = ring->token_count;
    if (n == 1)
        return (tr_u128)1 << 64;
    uint64_t end = (uint64_t)ring->tokens[i];
    uint64_t start = (uint64_t)ring->tokens[i == 0 ? n - 1 : i - 1];
    return (tr_u128)(uint64_t)(end - start);
}

/* Exact width of range i in its partitioner's units (tr_partitioner_ops.size: Murmur3
 * over 2^64, RandomPartitioner over 2^127 with Cassandra's describeOwnership rule,
 * ByteOrderedPartitioner 0), the whole ring for a single token. */
static inline tr_u128 tr_ring_width_any(const struct tokenring_ring *ring, size_t i)
{
    size_t n = ring->token_count;
    tr_tok from = tr_ring_tok(ring, i == 0 ? n - 1 : i - 1), to = tr_ring_tok(ring, i);
    return tr_ops(ring->partitioner)->size(&from, &to);
}

/* --------------------------------------------------------------- replication */

typedef struct tr_repl_dc {
    char *name;
    int32_t rf;
    int32_t transient;
} tr_repl_dc;

struct tokenring_replication {
    int32_t strategy;
    int32_t rf;        /* SimpleStrategy */
    int32_t transient; /* SimpleStrategy */
    tr_repl_dc *dcs;   /* NetworkTopologyStrategy, sorted by name */
    size_t dc_count;
    size_t dc_cap;
    int32_t rules;     /* tokenring_cassandra_rules; 0 (calloc) means the latest */
};

/* ----------------------------------------------------------------- placement */

/* A copy of a replication description (NULL when out of memory). */
TR_HIDDEN tokenring_replication *tr_replication_clone(const tokenring_replication *r);

/* The replica map: one row of node indices per distinct replica set, stored once, in
 * order of first appearance along the ring (the set id). A range whose row already
 * appeared at an earlier range is a "repeat" (rare with vnodes); every other range opens
 * a new set, so the set of a non-repeat range r is r minus the repeats before it (a rank
 * over a bitmap and a small per-word table, both a few bits per range and cache-resident
 * on the lookup path), and a repeat's set is listed at that rank. No per-range array. */
struct tokenring_placement {
    atomic_size_t refs;
    tokenring_ring *ring;               /* owned reference */
    tokenring_replication *replication; /* owned copy: what tokenring_placement_update reuses */
    uint32_t flags;                     /* the build flags */
    uint8_t order;                      /* TOKENRING_ORDER_*: which rule ordered the rows */
    uint32_t wrap_set;  /* Murmur3 tokens above the largest ring token: this set instead
                           of range 0's (given lists, Cassandra 6.0's (t_last, min]);
                           UINT32_MAX: none */
    bool hw_popcnt;                     /* the processor has POPCNT (tr_popcount64) */
    bool plain; /* rows of one length (stride), no transient replica, no wrap set: the
                   lookups' common case (tr_placement_fill_plain) */
    uint32_t range_count;
    uint32_t stride;       /* replicas per set when every row has the same length */
    uint32_t *row_off;     /* otherwise set_count + 1 offsets into rows (else NULL) */
    uint32_t *rows;        /* node indices, set after set */
    uint8_t *row_flags;    /* transient flags parallel to rows, or NULL when none is */
    uint32_t set_count;    /* range_count - repeat_count */
    uint32_t repeat_count;
    uint32_t *repeat_set;   /* the set id of each repeat range, in range order */
    uint64_t *repeat_bits;  /* bit r set: range r is a repeat (NULL when none is) */
    uint32_t *repeat_rank;  /* per 64-range word: repeats in the words before it */
    uint32_t *set_sample;   /* first range of sets 0, 16, 32, ... (NULL when no repeat) */
    uint16_t *set_mask;     /* per 16 sets: bit j set when set 16k + j has more repeats
                               before its first range than set 16k */
    /* On small rings with repeats (at most TR_SET_TABLES_MAX ranges), both directions as
     * plain tables, read instead of the rank: the set of each range and the first range of
     * each set (8 bytes per range at most, 32 KiB): there the rank's branches on the
     * repeats, which a fifth of the ranges of a 48-token ring are, cost more than the
     * lookup. NULL otherwise (the rank above is then the only way). */
    uint32_t *range_set;
    uint32_t *set_first;
    /* Plain placements of at most TR_INDEX_TINY_MAX ranges (the rings the index's tiny
     * table searches): each range's set and its row's offset in rows, read by the lookups
     * instead of the set rank and the stride's multiply (tiny_plain; 192 bytes). A set id
     * is below the range count (<= 64); tiny_plain also needs range count x stride to fit
     * the 16-bit offsets. */
    bool tiny_plain;
    uint8_t tiny_set[TR_INDEX_TINY_MAX];
    uint16_t tiny_off[TR_INDEX_TINY_MAX];
};

#define TR_SET_TABLES_MAX 4096

/* Set bits of x, without a popcount instruction: a dozen instructions inline.
 * (__builtin_popcountll is a library call unless the build targets a CPU that has one.) */
static inline uint32_t tr_popcount64_swar(uint64_t x)
{
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    return (uint32_t)((x * UINT64_C(0x0101010101010101)) >> 56);
}

/* A placement of ring whose range i has the replicas nodes[offsets[i] .. offsets[i + 1])
 * (already checked: indices below the node count, no repeats), ordered by rule `order`
 * (TOKENRING_ORDER_*); replication is copied. flags (parallel to nodes) and upper_flags
 * (to upper) mark transient replicas, or are NULL when none is. TOKENRING_OK or
 * TOKENRING_E_NOMEM (placement.c). */
TR_HIDDEN int tr_placement_from_rows(tokenring_placement **out, const tokenring_ring *ring,
                           const tokenring_replication *replication, const uint32_t *offsets,
                           const uint32_t *nodes, const uint32_t *upper, uint32_t upper_count,
                           const uint8_t *flags, const uint8_t *upper_flags, uint8_t order,
                           tokenring_error *err);

/* Set bits of x: the POPCNT instruction when the placement was built on a processor that
 * has it (hw_popcnt, from tr_cpu_features()), else the SWAR form. */
static inline uint32_t tr_popcount64(const struct tokenring_placement *p, uint64_t x)
{
#if defined(__POPCNT__)
    (void)p;
    return (uint32_t)__builtin_popcountll(x);
#elif defined(TR_CPU_X86)
    if (__builtin_expect(p->hw_popcnt, 1)) {
        uint64_t r;
        __asm__("popcnt %1, %0" : "=r"(r) : "r"(x) : "cc");
        return (uint32_t)r;
    }
    return tr_popcount64_swar(x);
#else
    (void)p;
    return tr_popcount64_swar(x);
#endif
}

/* Where the row of set `set` starts in rows, and its length. */
static inline size_t tr_row_off(const struct tokenring_placement *p, uint32_t set)
{
    return p->row_off ? p->row_off[set] : (size_t)set * p->stride;
}

static inline uint32_t tr_row_len(const struct tokenring_placement *p, uint32_t set)
{
    return p->row_off ? p->row_off[set + 1] - p->row_off[set] : p->stride;
}

/* Repeats among ranges 0 .. r - 1 (p has repeats). */
static inline uint32_t tr_repeats_before(const struct tokenring_placement *p, uint32_t r)
{
    return p->repeat_rank[r >> 6] +
           tr_popcount64(p, p->repeat_bits[r >> 6] & ((UINT64_C(1) << (r & 63)) - 1));
}

/* Set id of range r: a repeat's is listed (in range order, so at its rank); any other
 * range's is r minus the repeats before it. */
static inline uint32_t tr_range_set(const struct tokenring_placement *p, uint32_t r)
{
    if (!p->repeat_bits)
        return r;
    if (p->range_set)
        return p->range_set[r];
    uint32_t before = tr_repeats_before(p, r);
    if (__builtin_expect((p->repeat_bits[r >> 6] >> (r & 63)) & 1, 0))
        return p->repeat_set[before];
    return r - before;
}

/* First range of set s (s < set_count): the s-th non-repeat range, i.e. the smallest
 * non-repeat a with a = s + (repeats before a). Usually (mask bit clear) no repeat lies
 * between the first range of set s - s % 16 (sampled) and it: a is that range plus s % 16.
 * Otherwise iterate a = s + repeats_before(a) from there, which reaches it from below. */
static inline uint32_t tr_set_range(const struct tokenring_placement *p, uint32_t s)
{
    if (!p->repeat_bits)
        return s;
    if (p->set_first)
        return p->set_first[s];
    uint32_t a = p->set_sample[s >> 4] + (s & 15);
    if (__builtin_expect(!((p->set_mask[s >> 4] >> (s & 15)) & 1), 1))
        return a;
    for (;;) {
        uint32_t b = s + tr_repeats_before(p, a);
        if (b == a)
            break;
        a = b;
    }
    /* a = s + repeats before a; if a itself repeats, so does the equation for a + 1 */
    while ((p->repeat_bits[a >> 6] >> (a & 63)) & 1)
        a++;
    return a;
}

/* Fills out with set `set`, reported for range `range`. */
static inline void tr_placement_fill_row(tokenring_replicas *out,
                                         const struct tokenring_placement *p, uint32_t range,
                                         uint32_t set)
{
    size_t off = tr_row_off(p, set);
    uint32_t count = tr_row_len(p, set);
    out->nodes = p->rows + off;
    out->transient = NULL;
    if (p->row_flags) {
        for (uint32_t k = 0; k < count; k++)
            if (p->row_flags[off + k]) {
                out->transient = p->row_flags + off;
                break;
            }
    }
    out->count = count;
    out->range_index = range;
    out->set_id = set;
    out->reserved = 0;
}

/* Fills out with set `set`, reported for range `range`, on a plain placement (p->plain):
 * its row and the stride, which a batch reads once for many keys. */
static inline void tr_placement_fill_plain(tokenring_replicas *out, const uint32_t *row,
                                           uint32_t stride, uint32_t range, uint32_t set)
{
    out->nodes = row;
    out->transient = NULL;
    out->count = stride;
    out->range_index = range;
    out->set_id = set;
    out->reserved = 0;
}

static inline void tr_placement_fill(tokenring_replicas *out, const struct tokenring_placement *p,
                                     uint32_t range)
{
    tr_placement_fill_row(out, p, range, tr_range_set(p, range));
}

/* The set of Murmur3 token `token` in its range `range`: range 0's, or the wrap set for a
 * token above the largest ring token when the placement has one. */
static inline uint32_t tr_token_set(const struct tokenring_placement *p, uint32_t range,
                                    int64_t token)
{
    if (__builtin_expect(p->wrap_set != UINT32_MAX, 0) && range == 0 &&
        token > p->ring->tokens[p->ring->token_count - 1])
        return p->wrap_set;
    return tr_range_set(p, range);
}

#endif
