/* SPDX-License-Identifier: Apache-2.0 */
/* Seeded and evenly spaced token layouts (include/tokenring/layout.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "layout_internal.h"
#include "tokenring/layout.h"

#define LAYOUT_TAG "tokenring-layout-v1"
#define LAYOUT_TAG_LEN 19u

/* ------------------------------------------------------------ seeded tokens */

static void put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);  p[3] = (uint8_t)v;
}

static void put_be64(uint8_t *p, uint64_t v)
{
    put_be32(p, (uint32_t)(v >> 32));
    put_be32(p + 4, (uint32_t)v);
}

/* Buffer: tag(19) seed(8) len(4) identity(<=255) vnode(4) attempt(4). */
#define LAYOUT_BUF (LAYOUT_TAG_LEN + 8 + 4 + TOKENRING_MAX_NAME + 4 + 4)

/* The byte string of @ref layout_seeded; returns its length. */
static size_t seeded_bytes(uint8_t buf[LAYOUT_BUF], uint64_t seed, const char *identity,
                           size_t len, uint32_t vnode, uint32_t attempt)
{
    size_t n = 0;
    memcpy(buf, LAYOUT_TAG, LAYOUT_TAG_LEN);
    n += LAYOUT_TAG_LEN;
    put_be64(buf + n, seed);
    n += 8;
    put_be32(buf + n, (uint32_t)len);
    n += 4;
    if (len)
        memcpy(buf + n, identity, len);
    n += len;
    put_be32(buf + n, vnode);
    n += 4;
    if (attempt > 0) {
        put_be32(buf + n, attempt);
        n += 4;
    }
    return n;
}

/* The one seeded token: the partitioner's token of the bytes (its key_token). The string
 * is never empty (nor 25 .. 31 bytes), so Murmur3's is the hash with the minimum mapped
 * to the maximum, RandomPartitioner's never the minimum -1. */
static tr_tok seeded_tok(const tr_partitioner_ops *ops, uint64_t seed, const char *identity,
                         size_t len, uint32_t vnode, uint32_t attempt)
{
    uint8_t buf[LAYOUT_BUF];
    size_t n = seeded_bytes(buf, seed, identity, len, vnode, attempt);
    return ops->key_token(buf, n);
}

TOKENRING_API int tokenring_layout_seeded_token(int64_t *token_out, uint64_t seed,
                                                const char *identity, size_t identity_len,
                                                uint32_t vnode, uint32_t attempt)
{
    if (!token_out || (!identity && identity_len > 0))
        return TOKENRING_E_INVAL;
    if (identity_len > TOKENRING_MAX_NAME)
        return TOKENRING_E_RANGE;
    *token_out = seeded_tok(tr_ops(TOKENRING_PARTITIONER_MURMUR3), seed, identity,
                            identity_len, vnode, attempt).key;
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_layout_seeded_token128(tokenring_token128 *token_out,
                                                   uint64_t seed, const char *identity,
                                                   size_t identity_len, uint32_t vnode,
                                                   uint32_t attempt)
{
    if (!token_out || (!identity && identity_len > 0))
        return TOKENRING_E_INVAL;
    if (identity_len > TOKENRING_MAX_NAME)
        return TOKENRING_E_RANGE;
    *token_out = seeded_tok(tr_ops(TOKENRING_PARTITIONER_RANDOM), seed, identity,
                            identity_len, vnode, attempt).v128;
    return TOKENRING_OK;
}

/* ------------------------------------------------ seeded layouts of a node */

/* The seeded layouts of both partitioners work on 128-bit keys that order as the tokens
 * do: a Murmur3 token t is the unsigned value of t with its sign bit flipped, a
 * RandomPartitioner token (0 .. 2^127, never -1 here) its value. */
typedef tr_u128 tr_key;

#define SIGN64 0x8000000000000000ULL

static tr_key key_of64(int64_t t)
{
    return (tr_key)((uint64_t)t ^ SIGN64);
}

static int64_t token_of_key64(tr_key k)
{
    return (int64_t)((uint64_t)k ^ SIGN64);
}

static tr_key key_of128(tokenring_token128 t)
{
    return ((tr_key)t.hi << 64) | t.lo;
}

static tokenring_token128 token_of_key128(tr_key k)
{
    tokenring_token128 t = { (uint64_t)(k >> 64), (uint64_t)k };
    return t;
}

/* The key of a token: its offset from the ring's start, the point the table's size()
 * counts from (Murmur3's minimum; RandomPartitioner's value 0, its minimum -1 never a
 * layout's token). */
static tr_key key_of_tok(const tr_partitioner_ops *ops, const tr_tok *t)
{
    return ops->key_is_token ? key_of64(t->key) : key_of128(t->v128);
}

/* The token `off` units past the ring's start: key_of_tok()'s inverse. */
static tr_tok tok_at_offset(const tr_partitioner_ops *ops, tr_u128 off)
{
    if (ops->key_is_token)
        return tr_tok_m3((int64_t)((uint64_t)ops->minimum.key + (uint64_t)off));
    return tr_tok_128(token_of_key128(off));
}

/* A sorted array of distinct keys, with (optionally) the topology node index of each. */
typedef struct key_set {
    tr_key *keys;
    uint32_t *nodes;
    size_t count;
} key_set;

static bool key_set_find(const key_set *set, tr_key k, size_t *pos_out)
{
    size_t lo = 0, hi = set->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (set->keys[mid] < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (pos_out)
        *pos_out = lo;
    return lo < set->count && set->keys[lo] == k;
}

/* Inserts k (absent) into a sorted array of capacity > set->count. */
static void key_set_insert(key_set *set, tr_key k)
{
    size_t p;
    key_set_find(set, k, &p);
    memmove(set->keys + p + 1, set->keys + p, (set->count - p) * sizeof *set->keys);
    set->keys[p] = k;
    set->count++;
}

static void key_set_free(key_set *set)
{
    tr_free(set->keys);
    tr_free(set->nodes);
    memset(set, 0, sizeof *set);
}

/* The keys of the nodes planned earlier in one tokenring_layout_add_seeded_nodes() call:
 * only membership is asked of them (a clash is a clash, whoever holds it), so an
 * open-addressing hash set, filled once per key. A sorted array took a memmove per insert:
 * quadratic, 2.5 s for 1000 nodes x 256 tokens. Empty slots hold KEY_NONE, which is no
 * token's key (Murmur3 keys are below 2^64, RandomPartitioner's at most 2^127). */
#define KEY_NONE (~(tr_key)0)

typedef struct key_hash {
    tr_key *slots;
    size_t mask; /* capacity - 1, the capacity a power of two at least twice the keys */
} key_hash;

static size_t key_hash_home(const key_hash *h, tr_key k)
{
    uint64_t x = (uint64_t)k ^ ((uint64_t)(k >> 64) * 0x9E3779B97F4A7C15ULL);
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x & h->mask;
}

/* Room for `keys` keys; false on NOMEM (or a size that cannot be allocated). */
static bool key_hash_init(key_hash *h, size_t keys)
{
    size_t cap = 16;
    while (cap < 2 * keys) {
        if (cap > SIZE_MAX / 4)
            return false;
        cap *= 2;
    }
    h->slots = tr_reallocarray(NULL, cap, sizeof *h->slots);
    if (!h->slots)
        return false;
    for (size_t i = 0; i < cap; i++)
        h->slots[i] = KEY_NONE;
    h->mask = cap - 1;
    return true;
}

static bool key_hash_has(const key_hash *h, tr_key k)
{
    for (size_t j = key_hash_home(h, k);; j = (j + 1) & h->mask) {
        if (h->slots[j] == k)
            return true;
        if (h->slots[j] == KEY_NONE)
            return false;
    }
}

/* Adds k (absent; the set never holds more than half its capacity). */
static void key_hash_add(key_hash *h, tr_key k)
{
    size_t j = key_hash_home(h, k);
    while (h->slots[j] != KEY_NONE)
        j = (j + 1) & h->mask;
    h->slots[j] = k;
}

static int cmp_key(const void *a, const void *b)
{
    tr_key x = *(const tr_key *)a, y = *(const tr_key *)b;
    return (x > y) - (x < y);
}

/* Key of token k of node i of a Murmur3 or RandomPartitioner topology. */
static tr_key node_key(const tokenring_topology *topo, tokenring_partitioner part,
                       const tokenring_node_info *info, size_t i, size_t k)
{
    if (part == TOKENRING_PARTITIONER_RANDOM) {
        tokenring_token128 t;
        tokenring_topology_node_token128(&t, topo, i, k);
        return key_of128(t);
    }
    return key_of64(info->tokens[k]);
}

/* Sorted keys of every token of `topo` (Murmur3 or RandomPartitioner; NULL: none) except
 * those of the node named `skip` (may be NULL), each with its node index. */
static int collect_taken_keys(key_set *set, const tokenring_topology *topo, const char *skip)
{
    memset(set, 0, sizeof *set);
    if (!topo)
        return TOKENRING_OK;
    tokenring_partitioner part = tokenring_topology_partitioner(topo);
    size_t n = tokenring_topology_node_count(topo), total = 0;
    for (size_t i = 0; i < n; i++) {
        tokenring_node_info info;
        tokenring_topology_node(&info, topo, i);
        if (!(skip && strcmp(info.name, skip) == 0))
            total += info.token_count;
    }
    if (total == 0)
        return TOKENRING_OK;
    set->keys = tr_reallocarray(NULL, total, sizeof *set->keys);
    set->nodes = tr_reallocarray(NULL, total, sizeof *set->nodes);
    if (!set->keys || !set->nodes) {
        key_set_free(set);
        return TOKENRING_E_NOMEM;
    }
    size_t c = 0;
    for (size_t i = 0; i < n; i++) {
        tokenring_node_info info;
        tokenring_topology_node(&info, topo, i);
        if (skip && strcmp(info.name, skip) == 0)
            continue;
        for (size_t k = 0; k < info.token_count; k++)
            set->keys[c++] = node_key(topo, part, &info, i, k);
    }
    qsort(set->keys, total, sizeof *set->keys, cmp_key);
    set->count = total;
    /* Node of each token: tokens are distinct across a topology, so a second pass with
     * binary search fills the parallel array. */
    for (size_t i = 0; i < n; i++) {
        tokenring_node_info info;
        tokenring_topology_node(&info, topo, i);
        if (skip && strcmp(info.name, skip) == 0)
            continue;
        for (size_t k = 0; k < info.token_count; k++) {
            size_t pos;
            key_set_find(set, node_key(topo, part, &info, i, k), &pos);
            set->nodes[pos] = (uint32_t)i;
        }
    }
    return TOKENRING_OK;
}

/* Is `k` among keys[0..n) (unsorted, small)? */
static bool in_list(const tr_key *keys, size_t n, tr_key k)
{
    for (size_t i = 0; i < n; i++)
        if (keys[i] == k)
            return true;
    return false;
}

/* The token of a key as text, in the partitioner's text form (buf holds any). */
static void key_text(char *buf, size_t cap, const tr_partitioner_ops *ops, tr_key k)
{
    size_t len;
    tr_tok t = tok_at_offset(ops, k);
    ops->format(buf, cap, &len, &t);
}

/* Lays out one node: out[v] is the key of vnode v. `ops` is the partitioner's table
 * (Murmur3 or RandomPartitioner), its key_token the token function. `own` (sorted copy
 * of the keys chosen so far, capacity count) makes the check between vnodes
 * O(log count). */
static int layout_node(tr_key *out, size_t count, uint64_t seed, const char *identity,
                       const tr_partitioner_ops *ops, const key_set *taken,
                       const key_hash *extra, const tokenring_topology *topo, uint32_t flags,
                       tokenring_error *err)
{
    size_t len = strlen(identity);
    key_set own = { NULL, NULL, 0 };
    if (count > 64) {
        own.keys = tr_reallocarray(NULL, count, sizeof *own.keys);
        if (!own.keys)
            return tr_fail(err, TOKENRING_E_NOMEM, "out of memory laying out node '%s'",
                           identity);
    }
    for (size_t v = 0; v < count; v++) {
        uint32_t attempt = 0;
        for (;;) {
            tr_tok tok = seeded_tok(ops, seed, identity, len, (uint32_t)v, attempt);
            tr_key t = key_of_tok(ops, &tok);
            size_t pos;
            bool clash_other = taken && key_set_find(taken, t, &pos);
            bool clash_extra = extra && key_hash_has(extra, t);
            bool clash_own = own.keys ? key_set_find(&own, t, NULL) : in_list(out, v, t);
            if (!clash_other && !clash_own && !clash_extra) {
                out[v] = t;
                if (own.keys)
                    key_set_insert(&own, t);
                break;
            }
            if (flags & TOKENRING_LAYOUT_STRICT) {
                char text[TOKENRING_TOKEN128_TEXT_MAX];
                key_text(text, sizeof text, ops, t);
                tr_free(own.keys);
                if (clash_other) {
                    tokenring_node_info info;
                    tokenring_topology_node(&info, topo, taken->nodes[pos]);
                    return tr_fail(err, TOKENRING_E_EXISTS,
                                   "seeded token %s of node '%s' (vnode %zu) is already "
                                   "held by node '%s'",
                                   text, identity, v, info.name);
                }
                return tr_fail(err, TOKENRING_E_EXISTS,
                               "seeded token %s of node '%s' (vnode %zu) collides with "
                               "another of its vnodes or with a node added in the same call",
                               text, identity, v);
            }
            if (attempt == UINT32_MAX) {
                tr_free(own.keys);
                return tr_fail(err, TOKENRING_E_IMPOSSIBLE,
                               "no free token found for node '%s' vnode %zu", identity, v);
            }
            attempt++;
        }
    }
    tr_free(own.keys);
    return TOKENRING_OK;
}

/* tokenring_layout_seeded_tokens() and _tokens128(): the argument checks, then the keys of
 * one node's vnodes in *keys_out (to free; untouched on failure). `have_out`: the caller's
 * output pointer is not NULL. */
static int seeded_node_keys(tr_key **keys_out, bool have_out, size_t count, uint64_t seed,
                            const char *identity, const tokenring_topology *taken,
                            uint32_t flags, tokenring_partitioner part, const char *fn,
                            tokenring_error *err)
{
    if (!have_out || !identity)
        return tr_fail(err, TOKENRING_E_INVAL, "tokens_out and identity must not be NULL");
    if (flags & ~TOKENRING_LAYOUT_STRICT)
        return tr_fail(err, TOKENRING_E_INVAL, "unknown flags 0x%x", flags);
    if (count == 0 || count > TOKENRING_LAYOUT_MAX_TOKENS)
        return tr_fail(err, TOKENRING_E_RANGE, "token count %zu is outside 1..%u", count,
                       TOKENRING_LAYOUT_MAX_TOKENS);
    tr_key *keys = tr_reallocarray(NULL, count, sizeof *keys);
    if (!keys)
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory laying out node '%s'",
                       identity);
    int rc = tr_check_name(err, "identity", identity);
    if (rc == TOKENRING_OK && taken && tokenring_topology_partitioner(taken) != part)
        rc = tr_fail(err, TOKENRING_E_UNSUPPORTED,
                     "%s: the taken topology's partitioner is %s, not %s", fn,
                     tokenring_partitioner_name(tokenring_topology_partitioner(taken)),
                     tokenring_partitioner_name(part));
    key_set set = { NULL, NULL, 0 };
    if (rc == TOKENRING_OK && (rc = collect_taken_keys(&set, taken, identity)) != TOKENRING_OK)
        rc = tr_fail(err, rc, "out of memory reading the tokens of the topology");
    if (rc == TOKENRING_OK)
        rc = layout_node(keys, count, seed, identity, tr_ops(part), &set, NULL, taken, flags,
                         err);
    key_set_free(&set);
    if (rc == TOKENRING_OK)
        *keys_out = keys;
    else
        tr_free(keys);
    return rc;
}

TOKENRING_API int tokenring_layout_seeded_tokens(int64_t *tokens_out, size_t count,
                                                 uint64_t seed, const char *identity,
                                                 const tokenring_topology *taken,
                                                 uint32_t flags, tokenring_error *err)
{
    tr_key *keys = NULL;
    int rc = seeded_node_keys(&keys, tokens_out != NULL, count, seed, identity, taken, flags,
                              TOKENRING_PARTITIONER_MURMUR3, "tokenring_layout_seeded_tokens",
                              err);
    if (rc != TOKENRING_OK)
        return rc;
    const tr_partitioner_ops *ops = tr_ops(TOKENRING_PARTITIONER_MURMUR3);
    for (size_t v = 0; v < count; v++)
        tokens_out[v] = tok_at_offset(ops, keys[v]).key;
    tr_free(keys);
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_layout_seeded_tokens128(tokenring_token128 *tokens_out,
                                                    size_t count, uint64_t seed,
                                                    const char *identity,
                                                    const tokenring_topology *taken,
                                                    uint32_t flags, tokenring_error *err)
{
    tr_key *keys = NULL;
    int rc = seeded_node_keys(&keys, tokens_out != NULL, count, seed, identity, taken, flags,
                              TOKENRING_PARTITIONER_RANDOM,
                              "tokenring_layout_seeded_tokens128", err);
    if (rc != TOKENRING_OK)
        return rc;
    const tr_partitioner_ops *ops = tr_ops(TOKENRING_PARTITIONER_RANDOM);
    for (size_t v = 0; v < count; v++)
        tokens_out[v] = tok_at_offset(ops, keys[v]).v128;
    tr_free(keys);
    return TOKENRING_OK;
}

/* Adds node `name` with the keys `keys` to a Murmur3 or RandomPartitioner topology;
 * `conv` has room for `n` tokens of either kind. */
static int add_node_keys(tokenring_topology *topology, tokenring_partitioner part,
                         const char *name, const char *dc, const char *rack,
                         const tr_key *keys, size_t n, tokenring_token128 *conv,
                         tokenring_error *err)
{
    if (part == TOKENRING_PARTITIONER_RANDOM) {
        for (size_t j = 0; j < n; j++)
            conv[j] = token_of_key128(keys[j]);
        return tokenring_topology_add_node128(topology, name, dc, rack, conv, n, err);
    }
    int64_t *t64 = (int64_t *)(void *)conv;
    for (size_t j = 0; j < n; j++)
        t64[j] = token_of_key64(keys[j]);
    return tokenring_topology_add_node(topology, name, dc, rack, t64, n, err);
}

TOKENRING_API int tokenring_layout_add_seeded_nodes(tokenring_topology *topology, uint64_t seed,
                                                    uint32_t tokens_per_node,
                                                    const char *const *names,
                                                    const char *const *datacenters,
                                                    const char *const *racks, size_t count,
                                                    uint32_t flags, tokenring_error *err)
{
    if (!topology || (!names && count > 0))
        return tr_fail(err, TOKENRING_E_INVAL, "topology and names must not be NULL");
    tokenring_partitioner part = tokenring_topology_partitioner(topology);
    if (part == TOKENRING_PARTITIONER_BYTE_ORDERED)
        return tr_fail(err, TOKENRING_E_UNSUPPORTED,
                       "seeded layouts need a Murmur3Partitioner or RandomPartitioner "
                       "topology: ByteOrderedPartitioner has no token allocation (its "
                       "tokens are keys)");
    if (flags & ~TOKENRING_LAYOUT_STRICT)
        return tr_fail(err, TOKENRING_E_INVAL, "unknown flags 0x%x", flags);
    if (tokens_per_node == 0 || tokens_per_node > TOKENRING_LAYOUT_MAX_TOKENS)
        return tr_fail(err, TOKENRING_E_RANGE, "tokens per node %u is outside 1..%u",
                       tokens_per_node, TOKENRING_LAYOUT_MAX_TOKENS);
    if (count == 0)
        return TOKENRING_OK;
    {
        uint64_t have = 0;
        for (size_t i = 0; i < tokenring_topology_node_count(topology); i++) {
            tokenring_node_info info;
            tokenring_topology_node(&info, topology, i);
            have += info.token_count;
        }
        uint64_t add = tr_work_mul(count, tokens_per_node);
        if (tr_work_add(have, add) > TOKENRING_MAX_CLUSTER_TOKENS)
            return tr_fail(err, TOKENRING_E_RANGE,
                           "%zu nodes x %u tokens would make a cluster of %llu tokens, above "
                           "the limit of %llu (TOKENRING_MAX_CLUSTER_TOKENS, what fits in "
                           "memory)",
                           count, tokens_per_node,
                           (unsigned long long)tr_work_add(have, add),
                           (unsigned long long)TOKENRING_MAX_CLUSTER_TOKENS);
    }
    /* Validate every name first, so that nothing is added when one is bad. */
    for (size_t i = 0; i < count; i++) {
        int rc = tr_check_name(err, "node name", names[i]);
        if (rc != TOKENRING_OK)
            return rc;
        if (datacenters && (rc = tr_check_name(err, "datacenter name", datacenters[i])) != 0)
            return rc;
        if (racks && (rc = tr_check_rack_name(err, "rack name", racks[i])) != 0)
            return rc;
        size_t idx;
        if (tokenring_topology_find_node(&idx, topology, names[i]) == TOKENRING_OK)
            return tr_fail(err, TOKENRING_E_EXISTS, "node '%s' is already in the topology",
                           names[i]);
        for (size_t j = 0; j < i; j++)
            if (strcmp(names[i], names[j]) == 0)
                return tr_fail(err, TOKENRING_E_EXISTS, "node name '%s' is given twice",
                               names[i]);
    }
    key_set taken;
    int rc = collect_taken_keys(&taken, topology, NULL);
    if (rc != TOKENRING_OK)
        return tr_fail(err, rc, "out of memory reading the tokens of the topology");
    size_t total = count * (size_t)tokens_per_node;
    tr_key *all = tr_reallocarray(NULL, total, sizeof *all);
    key_hash extra = { NULL, 0 };
    bool have_extra = key_hash_init(&extra, total);
    tokenring_token128 *conv = tr_reallocarray(NULL, tokens_per_node, sizeof *conv);
    if (!all || !have_extra || !conv) {
        tr_free(all);
        tr_free(extra.slots);
        tr_free(conv);
        key_set_free(&taken);
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory laying out %zu nodes", count);
    }
    /* Plan every node first (against the topology and the nodes planned before it). */
    for (size_t i = 0; i < count; i++) {
        tr_key *out = all + i * tokens_per_node;
        rc = layout_node(out, tokens_per_node, seed, names[i], tr_ops(part), &taken, &extra,
                         topology, flags, err);
        if (rc != TOKENRING_OK)
            break;
        for (size_t j = 0; j < tokens_per_node; j++)
            key_hash_add(&extra, out[j]);
    }
    key_set_free(&taken);
    tr_free(extra.slots);
    size_t added = 0;
    if (rc == TOKENRING_OK) {
        for (; added < count; added++) {
            rc = add_node_keys(topology, part, names[added],
                               datacenters ? datacenters[added] : "datacenter1",
                               racks ? racks[added] : "rack1", all + added * tokens_per_node,
                               tokens_per_node, conv, err);
            if (rc != TOKENRING_OK)
                break;
        }
    }
    /* On failure, roll back: the added nodes are the last ones, so removing them restores
     * the topology exactly. */
    while (rc != TOKENRING_OK && added > 0) {
        added--;
        tokenring_topology_remove_node(topology, names[added], NULL);
    }
    tr_free(conv);
    tr_free(all);
    return rc;
}

/* --------------------------------------------------------------- even layout */

/* The one even layout, over the partitioner table: token j of slot s of S, T tokens each,
 * is the ring's start plus floor((j S + s) 2^W / (T S)) units of 2^-W of the ring, W the
 * table's width_bits (the units of its size()). p = j S + s < d = T S <= 2^48, so with
 * 2^W = a d + b (b < d) the offset is p a + floor(p b / d) exactly, where p a < 2^W and
 * p b < d^2 (at most 2^96 within the layouts' cap, below 2^128 for any uint32 shape):
 * no product overflows 128 bits, for W = 64 or 127. */
static void even_setup(tr_even *e, const tr_partitioner_ops *ops, uint32_t num_tokens,
                       uint32_t slot, uint32_t slots)
{
    tr_u128 ring = (tr_u128)1 << ops->width_bits;
    e->ops = ops;
    e->d = (tr_u128)num_tokens * slots;
    e->a = ring / e->d;
    e->b = ring % e->d;
    e->slot = slot;
    e->slots = slots;
}

int tr_even_init(tr_even *e, const tr_partitioner_ops *ops, uint32_t num_tokens,
                 uint32_t slot, uint32_t slots)
{
    if (num_tokens == 0 || num_tokens > TOKENRING_LAYOUT_MAX_TOKENS || slots == 0 ||
        slot >= slots)
        return TOKENRING_E_RANGE;
    even_setup(e, ops, num_tokens, slot, slots);
    return TOKENRING_OK;
}

tr_tok tr_even_tok(const tr_even *e, uint32_t j)
{
    tr_u128 p = (tr_u128)j * e->slots + e->slot;
    return tok_at_offset(e->ops, p * e->a + p * e->b / e->d);
}

void tr_layout_even(int64_t *out, uint32_t num_tokens, uint32_t slot, uint32_t slots)
{
    tr_even e; /* the callers checked the shape (num_tokens may pass the layouts' cap) */
    even_setup(&e, tr_ops(TOKENRING_PARTITIONER_MURMUR3), num_tokens, slot, slots);
    for (uint32_t j = 0; j < num_tokens; j++)
        out[j] = tr_even_tok(&e, j).key;
}

TOKENRING_API int tokenring_layout_even_tokens(int64_t *tokens_out, uint32_t num_tokens,
                                               uint32_t slot, uint32_t slots)
{
    if (!tokens_out)
        return TOKENRING_E_INVAL;
    tr_even e;
    int rc = tr_even_init(&e, tr_ops(TOKENRING_PARTITIONER_MURMUR3), num_tokens, slot, slots);
    for (uint32_t j = 0; rc == TOKENRING_OK && j < num_tokens; j++)
        tokens_out[j] = tr_even_tok(&e, j).key;
    return rc;
}

TOKENRING_API int tokenring_layout_even_tokens128(tokenring_token128 *tokens_out,
                                                  uint32_t num_tokens, uint32_t slot,
                                                  uint32_t slots)
{
    if (!tokens_out)
        return TOKENRING_E_INVAL;
    tr_even e;
    int rc = tr_even_init(&e, tr_ops(TOKENRING_PARTITIONER_RANDOM), num_tokens, slot, slots);
    for (uint32_t j = 0; rc == TOKENRING_OK && j < num_tokens; j++)
        tokens_out[j] = tr_even_tok(&e, j).v128;
    return rc;
}

/* ------------------------------------------------------------ racks of new nodes */

TOKENRING_API int tokenring_layout_assign_racks(uint32_t *dc_out, uint32_t *rack_out,
                                                size_t node_count, uint32_t dc_count,
                                                uint32_t rack_count,
                                                const uint32_t *nodes_per_rack,
                                                tokenring_error *err)
{
    if (rack_out == NULL && node_count)
        return tr_fail(err, TOKENRING_E_INVAL, "rack_out is NULL");
    if (dc_count == 0)
        return tr_fail(err, TOKENRING_E_INVAL, "no datacenter (dc_count is 0)");
    if (rack_count == 0)
        return tr_fail(err, TOKENRING_E_INVAL, "no rack (rack_count is 0)");
    if (nodes_per_rack) {
        uint64_t sum = 0;
        for (uint32_t r = 0; r < rack_count; r++) {
            if (nodes_per_rack[r] == 0)
                return tr_fail(err, TOKENRING_E_INVAL, "rack %u is given no node",
                               (unsigned)r + 1);
            sum += nodes_per_rack[r];
        }
        if (sum * dc_count != node_count) {
            if (dc_count == 1)
                return tr_fail(err, TOKENRING_E_INVAL,
                               "the counts add up to %llu, not to the %zu nodes",
                               (unsigned long long)sum, node_count);
            return tr_fail(err, TOKENRING_E_INVAL,
                           "the counts add up to %llu per datacenter, not to the %zu nodes "
                           "of %u datacenters", (unsigned long long)sum, node_count,
                           (unsigned)dc_count);
        }
    }
    /* Each datacenter's p-th node gets the same rack, so the sequence is computed once
     * (as the datacenter's nodes come) and read by every datacenter. With counts, rack r
     * holds its k-th node at round-robin pass k exactly when k < nodes_per_rack[r]: the
     * racks still open at pass k, in order. Walking the passes with a cursor (rack and
     * pass) needs no scratch memory. */
    uint32_t rack = 0;
    uint64_t pass = 0;
    for (size_t i = 0; i < node_count; i++) {
        size_t p = i / dc_count;
        uint32_t d = (uint32_t)(i % dc_count);
        uint32_t r;
        if (!nodes_per_rack) {
            r = (uint32_t)(p % rack_count);
        } else if (d == 0) {
            /* the next open rack from the cursor */
            while (nodes_per_rack[rack] <= pass) {
                if (++rack == rack_count) {
                    rack = 0;
                    pass++;
                }
            }
            r = rack;
            if (++rack == rack_count) {
                rack = 0;
                pass++;
            }
        } else {
            r = rack_out[i - d]; /* the rack datacenter 0's p-th node got */
        }
        if (dc_out)
            dc_out[i] = d;
        rack_out[i] = r;
    }
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_layout_rack_name(char *out, size_t cap, size_t *len_out,
                                             uint32_t rack)
{
    if (len_out == NULL || (out == NULL && cap != 0))
        return TOKENRING_E_INVAL;
    char buf[16];
    int n = snprintf(buf, sizeof buf, "rack%llu", (unsigned long long)rack + 1);
    *len_out = (size_t)n;
    if ((size_t)n + 1 > cap)
        return TOKENRING_E_BUFSIZE;
    memcpy(out, buf, (size_t)n + 1);
    return TOKENRING_OK;
}
