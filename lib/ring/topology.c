/* SPDX-License-Identifier: Apache-2.0 */
/* The topology: a mutable set of nodes (name, datacenter, rack, tokens, state).
 *
 * Nodes keep insertion order. A hash table of node indices by name gives O(1) lookups
 * (a sorted one cost O(n) per added node, quadratic over a parse of many nodes); an open-addressing hash table maps every token to its node so that a token
 * held by another node is rejected in O(1) per token. Every mutation first prepares all
 * it needs (validation and every allocation), then commits with operations that cannot
 * fail, so a failing call leaves the topology exactly as it was. */
#include <stdlib.h>
#include <string.h>

#include "ring_internal.h"

#define TOK_EMPTY UINT32_MAX
/* Node indices and ring positions are 32-bit. */
#define MAX_TOTAL_TOKENS ((size_t)UINT32_MAX - 1)

static size_t tok_hash(int64_t token)
{
    uint64_t x = (uint64_t)token;
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return (size_t)x;
}

/* Slot of key held by `node` (TOK_EMPTY: by any node), or SIZE_MAX. A Murmur3 key is
 * the token itself, so at most one slot has it; the key of another partitioner's token
 * is a hash of it (tr_token_key), which distinct tokens may share. */
static size_t tok_find_node(const tokenring_topology *t, int64_t token, uint32_t node)
{
    if (t->tok_slots == 0)
        return SIZE_MAX;
    size_t mask = t->tok_slots - 1;
    for (size_t i = tok_hash(token) & mask;; i = (i + 1) & mask) {
        if (t->tok_nodes[i] == TOK_EMPTY)
            return SIZE_MAX;
        if (t->tok_keys[i] == token && (node == TOK_EMPTY || t->tok_nodes[i] == node))
            return i;
    }
}

static size_t tok_find(const tokenring_topology *t, int64_t token)
{
    return tok_find_node(t, token, TOK_EMPTY);
}

static void tok_put(int64_t *keys, uint32_t *nodes, size_t slots, int64_t token, uint32_t node)
{
    size_t mask = slots - 1;
    size_t i = tok_hash(token) & mask;
    while (nodes[i] != TOK_EMPTY)
        i = (i + 1) & mask;
    keys[i] = token;
    nodes[i] = node;
}

/* Makes room for `used` tokens at a load of at most 1/2. Changes nothing on failure. */
static int tok_reserve(tokenring_topology *t, size_t used)
{
    if (used <= t->tok_slots / 2)
        return TOKENRING_OK;
    size_t slots = t->tok_slots ? t->tok_slots : 16;
    while (used > slots / 2) {
        if (slots > SIZE_MAX / 4)
            return TOKENRING_E_NOMEM;
        slots *= 2;
    }
    int64_t *keys = tr_calloc(slots, sizeof *keys);
    uint32_t *nodes = tr_malloc(slots * sizeof *nodes);
    if (!keys || !nodes) {
        tr_free(keys);
        tr_free(nodes);
        return TOKENRING_E_NOMEM;
    }
    memset(nodes, 0xff, slots * sizeof *nodes);
    for (size_t i = 0; i < t->tok_slots; i++)
        if (t->tok_nodes[i] != TOK_EMPTY)
            tok_put(keys, nodes, slots, t->tok_keys[i], t->tok_nodes[i]);
    tr_free(t->tok_keys);
    tr_free(t->tok_nodes);
    t->tok_keys = keys;
    t->tok_nodes = nodes;
    t->tok_slots = slots;
    return TOKENRING_OK;
}

static void tok_insert(tokenring_topology *t, int64_t token, uint32_t node)
{
    tok_put(t->tok_keys, t->tok_nodes, t->tok_slots, token, node);
    t->tok_used++;
}

/* Backward-shift deletion keeps probe chains intact without tombstones. */
static void tok_erase(tokenring_topology *t, int64_t token, uint32_t node)
{
    size_t i = tok_find_node(t, token, node);
    if (i == SIZE_MAX)
        return;
    size_t mask = t->tok_slots - 1;
    size_t j = i;
    for (;;) {
        j = (j + 1) & mask;
        if (t->tok_nodes[j] == TOK_EMPTY)
            break;
        size_t home = tok_hash(t->tok_keys[j]) & mask;
        /* Move j back to i if its home is not cyclically in (i, j]. */
        bool in_between = (i <= j) ? (i < home && home <= j) : (i < home || home <= j);
        if (!in_between) {
            t->tok_keys[i] = t->tok_keys[j];
            t->tok_nodes[i] = t->tok_nodes[j];
            i = j;
        }
    }
    t->tok_nodes[i] = TOK_EMPTY;
    t->tok_used--;
}

static size_t name_hash(const char *name)
{
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * 0x100000001b3ULL;
    return (size_t)(h ^ h >> 29);
}

/* Puts node index into the name table (room reserved, the name not in it). */
static void name_put(tokenring_topology *t, uint32_t index)
{
    size_t mask = t->name_slots - 1;
    size_t i = name_hash(t->nodes[index].name) & mask;
    while (t->name_nodes[i] != TOK_EMPTY)
        i = (i + 1) & mask;
    t->name_nodes[i] = index;
}

/* Fills the name table again from the nodes (after indices or names changed). */
static void name_rebuild(tokenring_topology *t)
{
    if (t->name_slots == 0)
        return;
    memset(t->name_nodes, 0xff, t->name_slots * sizeof *t->name_nodes);
    for (size_t i = 0; i < t->count; i++)
        name_put(t, (uint32_t)i);
}

/* Makes room for `count` names at a load of at most 1/2. Changes nothing on failure. */
static int name_reserve(tokenring_topology *t, size_t count)
{
    if (count <= t->name_slots / 2)
        return TOKENRING_OK;
    size_t slots = t->name_slots ? t->name_slots : 16;
    while (count > slots / 2) {
        if (slots > SIZE_MAX / 4 / sizeof *t->name_nodes)
            return TOKENRING_E_NOMEM;
        slots *= 2;
    }
    uint32_t *nodes = tr_malloc(slots * sizeof *nodes);
    if (!nodes)
        return TOKENRING_E_NOMEM;
    tr_free(t->name_nodes);
    t->name_nodes = nodes;
    t->name_slots = slots;
    name_rebuild(t);
    return TOKENRING_OK;
}

/* O(1) expected: the index of the node named name. */
static bool find_index(const tokenring_topology *t, const char *name, size_t *index)
{
    if (t->name_slots == 0)
        return false;
    size_t mask = t->name_slots - 1;
    for (size_t i = name_hash(name) & mask; t->name_nodes[i] != TOK_EMPTY; i = (i + 1) & mask) {
        if (strcmp(t->nodes[t->name_nodes[i]].name, name) == 0) {
            *index = t->name_nodes[i];
            return true;
        }
    }
    return false;
}

/* The checks before any token is read: some tokens, not NULL, room in the topology. */
static int tokens_check(const tokenring_topology *t, const char *name, size_t self,
                        size_t count, bool null, tokenring_error *err)
{
    if (count == 0)
        return tr_fail(err, TOKENRING_E_EMPTY, "node '%s' has no tokens", name);
    if (null)
        return tr_fail(err, TOKENRING_E_INVAL, "tokens of node '%s' is NULL", name);
    size_t others = t->tok_used;
    if (self != SIZE_MAX)
        others -= t->nodes[self].token_count;
    if (count > MAX_TOTAL_TOKENS || others > MAX_TOTAL_TOKENS - count)
        return tr_fail(err, TOKENRING_E_RANGE, "too many tokens (at most %zu in a topology)",
                       MAX_TOTAL_TOKENS);
    return TOKENRING_OK;
}

static void node_clear(tr_tnode *n)
{
    tr_free(n->name);
    tr_free(n->dc);
    tr_free(n->rack);
    tr_free(n->keys);
    tr_free(n->t128);
    tr_free(n->tb);
    tr_free(n->tb_off);
}

/* Replaces node index's tokens by prepared ones (keys, and the full tokens of another
 * partitioner); the table has room (tok_reserve). Cannot fail. */
static void commit_tokens(tokenring_topology *t, size_t index, int64_t *keys,
                          tokenring_token128 *t128, uint8_t *tb, uint32_t *tb_off,
                          size_t token_count)
{
    tr_tnode *n = &t->nodes[index];
    for (size_t i = 0; i < n->token_count; i++)
        tok_erase(t, n->keys[i], (uint32_t)index);
    for (size_t i = 0; i < token_count; i++)
        tok_insert(t, keys[i], (uint32_t)index);
    tr_free(n->keys);
    tr_free(n->t128);
    tr_free(n->tb);
    tr_free(n->tb_off);
    n->keys = keys;
    n->t128 = t128;
    n->tb = tb;
    n->tb_off = tb_off;
    n->token_count = token_count;
}

TOKENRING_API int tokenring_topology_new(tokenring_topology **out)
{
    return tokenring_topology_new_partitioned(out, TOKENRING_PARTITIONER_MURMUR3);
}

TOKENRING_API int tokenring_topology_new_partitioned(tokenring_topology **out,
                                                     tokenring_partitioner partitioner)
{
    int p = (int)partitioner;
    if (out == NULL || p < TOKENRING_PARTITIONER_MURMUR3 || p > TOKENRING_PARTITIONER_BYTE_ORDERED)
        return TOKENRING_E_INVAL;
    tokenring_topology *t = tr_calloc(1, sizeof *t);
    if (!t)
        return TOKENRING_E_NOMEM;
    t->partitioner = p;
    *out = t;
    return TOKENRING_OK;
}

TOKENRING_API tokenring_partitioner tokenring_topology_partitioner(
    const tokenring_topology *topology)
{
    return topology ? (tokenring_partitioner)topology->partitioner : TOKENRING_PARTITIONER_MURMUR3;
}

TOKENRING_API void tokenring_topology_free(tokenring_topology *topology)
{
    if (!topology)
        return;
    for (size_t i = 0; i < topology->count; i++)
        node_clear(&topology->nodes[i]);
    tr_free(topology->nodes);
    tr_free(topology->name_nodes);
    tr_free(topology->tok_keys);
    tr_free(topology->tok_nodes);
    tr_free(topology);
}

TOKENRING_API int tokenring_topology_clone(tokenring_topology **out,
                                           const tokenring_topology *topology)
{
    if (out == NULL || topology == NULL)
        return TOKENRING_E_INVAL;
    const tokenring_topology *s = topology;
    tokenring_topology *t = tr_calloc(1, sizeof *t);
    if (!t)
        return TOKENRING_E_NOMEM;
    t->partitioner = s->partitioner;
    if (s->count) {
        t->nodes = tr_calloc(s->count, sizeof *t->nodes);
        t->name_nodes = tr_malloc(s->name_slots * sizeof *t->name_nodes);
        if (!t->nodes || !t->name_nodes)
            goto nomem;
        t->cap = s->count;
        for (size_t i = 0; i < s->count; i++) {
            const tr_tnode *a = &s->nodes[i];
            tr_tnode *b = &t->nodes[i];
            t->count = i + 1; /* so that free releases what was copied */
            b->name = tr_strdup(a->name);
            b->dc = tr_strdup(a->dc);
            b->rack = tr_strdup(a->rack);
            b->keys = tr_malloc(a->token_count * sizeof *b->keys);
            if (!b->name || !b->dc || !b->rack || !b->keys)
                goto nomem;
            memcpy(b->keys, a->keys, a->token_count * sizeof *b->keys);
            b->token_count = a->token_count;
            if (a->t128) {
                if (!(b->t128 = tr_malloc(a->token_count * sizeof *b->t128)))
                    goto nomem;
                memcpy(b->t128, a->t128, a->token_count * sizeof *b->t128);
            }
            if (a->tb_off) {
                size_t bytes = a->tb_off[a->token_count];
                b->tb_off = tr_malloc((a->token_count + 1) * sizeof *b->tb_off);
                b->tb = tr_malloc(bytes ? bytes : 1);
                if (!b->tb_off || !b->tb)
                    goto nomem;
                memcpy(b->tb_off, a->tb_off, (a->token_count + 1) * sizeof *b->tb_off);
                memcpy(b->tb, a->tb, bytes);
            }
            b->state = a->state;
            b->liveness = a->liveness;
        }
        memcpy(t->name_nodes, s->name_nodes, s->name_slots * sizeof *t->name_nodes);
        t->name_slots = s->name_slots;
    }
    if (s->tok_slots) {
        t->tok_keys = tr_malloc(s->tok_slots * sizeof *t->tok_keys);
        t->tok_nodes = tr_malloc(s->tok_slots * sizeof *t->tok_nodes);
        if (!t->tok_keys || !t->tok_nodes)
            goto nomem;
        memcpy(t->tok_keys, s->tok_keys, s->tok_slots * sizeof *t->tok_keys);
        memcpy(t->tok_nodes, s->tok_nodes, s->tok_slots * sizeof *t->tok_nodes);
        t->tok_slots = s->tok_slots;
        t->tok_used = s->tok_used;
    }
    *out = t;
    return TOKENRING_OK;
nomem:
    tokenring_topology_free(t);
    return TOKENRING_E_NOMEM;
}

/* Tokens checked and sorted for a node, ready to commit: the hash-table keys (the tokens
 * themselves for Murmur3) and, for another partitioner, the full tokens. */
typedef struct prepared {
    int64_t *keys;
    tokenring_token128 *t128;
    uint8_t *tb;
    uint32_t *tb_off;
    size_t count;
} prepared;

static void prepared_free(prepared *pr)
{
    tr_free(pr->keys);
    tr_free(pr->t128);
    tr_free(pr->tb);
    tr_free(pr->tb_off);
    memset(pr, 0, sizeof *pr);
}

/* Adds a node with prepared tokens (owned by this call from here on). */
static int add_node_prepared(tokenring_topology *t, const char *name, const char *datacenter,
                             const char *rack, prepared *pr, tokenring_error *err)
{
    tr_tnode n = { 0 };
    n.name = tr_strdup(name);
    n.dc = tr_strdup(datacenter);
    n.rack = tr_strdup(rack);
    n.keys = pr->keys;
    n.t128 = pr->t128;
    n.tb = pr->tb;
    n.tb_off = pr->tb_off;
    n.token_count = pr->count;
    n.state = TOKENRING_STATE_NORMAL;
    n.liveness = TOKENRING_UP;
    size_t token_count = pr->count;
    memset(pr, 0, sizeof *pr);
    if (!n.name || !n.dc || !n.rack)
        goto nomem;
    if (t->count == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 8;
        tr_tnode *nodes = tr_reallocarray(t->nodes, cap, sizeof *nodes);
        if (!nodes)
            goto nomem;
        t->nodes = nodes;
        t->cap = cap;
    }
    if (name_reserve(t, t->count + 1) != TOKENRING_OK)
        goto nomem;
    if (tok_reserve(t, t->tok_used + token_count) != TOKENRING_OK)
        goto nomem;

    /* Commit: nothing below can fail. */
    uint32_t index = (uint32_t)t->count;
    t->nodes[index] = n;
    t->count++;
    name_put(t, index);
    for (size_t i = 0; i < token_count; i++)
        tok_insert(t, n.keys[i], index);
    return TOKENRING_OK;
nomem:
    node_clear(&n);
    return tr_fail(err, TOKENRING_E_NOMEM, "out of memory adding node '%s'", name);
}

/* The checks of every add_node form before its tokens: names, a new name, room. */
static int add_node_check(tokenring_topology *t, const char *name, const char *datacenter,
                          const char *rack, int partitioner, tokenring_error *err)
{
    int rc;
    if (t == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "topology is NULL");
    if (t->partitioner != partitioner)
        return tr_fail(err, TOKENRING_E_UNSUPPORTED,
                       "the topology's partitioner is %s: its tokens are not %s",
                       tokenring_partitioner_name((tokenring_partitioner)t->partitioner),
                       tr_ops(partitioner)->kind);
    if ((rc = tr_check_name(err, "node", name)) != TOKENRING_OK ||
        (rc = tr_check_name(err, "datacenter", datacenter)) != TOKENRING_OK ||
        (rc = tr_check_rack_name(err, "rack", rack)) != TOKENRING_OK)
        return rc;
    size_t index = 0;
    if (find_index(t, name, &index))
        return tr_fail(err, TOKENRING_E_EXISTS, "node '%s' already exists", name);
    if (t->count >= (size_t)UINT32_MAX - 1)
        return tr_fail(err, TOKENRING_E_RANGE, "too many nodes");
    return TOKENRING_OK;
}

/* ------------------------------------------------------- one path over tr_tok */

/* tr_topology_add_node_toks and tr_topology_set_tokens_toks hold the implementation; the
 * typed public calls (add_node, add_node128, add_node_bytes, set_tokens*) and the _text
 * calls (ring_text.c) only build tr_tok arrays for them. Each names the partitioner its
 * tokens belong to, checked against the topology's in add_node_check / set_tokens_check:
 * the ABI's type checks. */

/* Whether node n holds token v (binary search of its ascending tokens). */
static bool node_has(const tr_tnode *n, const tr_tok *v)
{
    size_t lo = 0, hi = n->token_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        tr_tok m = tr_tnode_tok(n, mid);
        int c = tr_tok_cmp(&m, v);
        if (c == 0)
            return true;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

/* The node other than self holding token v (whose hash key is key), or TOK_EMPTY. */
static uint32_t holder_other(const tokenring_topology *t, size_t self, int64_t key,
                             const tr_tok *v)
{
    if (t->tok_slots == 0)
        return TOK_EMPTY;
    size_t mask = t->tok_slots - 1;
    for (size_t i = tok_hash(key) & mask;; i = (i + 1) & mask) {
        uint32_t node = t->tok_nodes[i];
        if (node == TOK_EMPTY)
            return TOK_EMPTY;
        if (t->tok_keys[i] != key || node == self)
            continue;
        if (node_has(&t->nodes[node], v))
            return node;
    }
}

/* Each token as a node token (the partitioner's range; a byte token's length before its
 * bytes are read, then its pointer), and the bytes' total. */
static int toks_check(const tokenring_topology *t, const char *name, const tr_tok *toks,
                      size_t count, tokenring_error *err)
{
    const tr_partitioner_ops *o = tr_ops(t->partitioner);
    size_t total = 0;
    for (size_t i = 0; i < count; i++) {
        int rc = o->check_node_token(&toks[i], i, name, err);
        if (rc != TOKENRING_OK)
            return rc;
        if (toks[i].len > 0 && toks[i].b == NULL)
            return tr_fail(err, TOKENRING_E_INVAL, "token %zu of node '%s' is NULL", i, name);
        total += toks[i].len;
    }
    if (total > UINT32_MAX)
        return tr_fail(err, TOKENRING_E_RANGE, "the tokens of node '%s' exceed 4 GiB", name);
    return TOKENRING_OK;
}

/* A partitioner whose 64-bit key is the token (Murmur3): the keys copied and sorted as
 * 8-byte values (the large topologies' path: a third of the time of sorting tr_tok),
 * repeats and tokens held by a node other than self refused. */
static int prepare_keys(tokenring_topology *t, const char *name, size_t self,
                        const tr_tok *toks, size_t count, prepared *pr, tokenring_error *err)
{
    int64_t *sorted = tr_reallocarray(NULL, count, sizeof *sorted);
    if (!sorted)
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory copying %zu tokens", count);
    for (size_t i = 0; i < count; i++)
        sorted[i] = toks[i].key;
    qsort(sorted, count, sizeof *sorted, tr_cmp_i64);
    for (size_t i = 1; i < count; i++) {
        if (sorted[i] == sorted[i - 1]) {
            long long tok = (long long)sorted[i];
            tr_free(sorted);
            return tr_fail(err, TOKENRING_E_EXISTS,
                           "token %lld is repeated in the tokens of node '%s'", tok, name);
        }
    }
    for (size_t i = 0; i < count; i++) {
        size_t slot = tok_find(t, sorted[i]);
        if (slot != SIZE_MAX && t->tok_nodes[slot] != self) {
            long long tok = (long long)sorted[i];
            tr_free(sorted);
            return tr_fail(err, TOKENRING_E_EXISTS,
                           "token %lld of node '%s' is already held by node '%s'", tok, name,
                           t->nodes[t->tok_nodes[slot]].name);
        }
    }
    pr->keys = sorted;
    pr->count = count;
    return TOKENRING_OK;
}

/* A partitioner with full values beside the keys: toks sorted in place, repeats and
 * tokens held by a node other than self refused, their hash keys and full values stored
 * into pr. */
static int prepare_values(tokenring_topology *t, const char *name, size_t self, tr_tok *toks,
                          size_t count, prepared *pr, tokenring_error *err)
{
    const tr_partitioner_ops *o = tr_ops(t->partitioner);
    int64_t *keys = tr_reallocarray(NULL, count, sizeof *keys);
    if (!keys)
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory copying %zu tokens", count);
    qsort(toks, count, sizeof *toks, tr_tok_qsort_cmp);
    for (size_t i = 0; i < count; i++) {
        keys[i] = o->hash_key(&toks[i]);
        uint32_t holder = TOK_EMPTY;
        bool repeated = i > 0 && tr_tok_cmp(&toks[i], &toks[i - 1]) == 0;
        if (!repeated)
            holder = holder_other(t, self, keys[i], &toks[i]);
        if (repeated || holder != TOK_EMPTY) {
            char text[TR_TOK_MSG_MAX];
            tr_tok_msg(text, &toks[i]);
            tr_free(keys);
            if (repeated)
                return tr_fail(err, TOKENRING_E_EXISTS,
                               "token %s is repeated in the tokens of node '%s'", text, name);
            return tr_fail(err, TOKENRING_E_EXISTS,
                           "token %s of node '%s' is already held by node '%s'", text, name,
                           t->nodes[holder].name);
        }
    }
    if (tr_tok_store(t->partitioner, toks, count, &pr->t128, &pr->tb, &pr->tb_off) != 0) {
        tr_free(keys);
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory copying %zu tokens", count);
    }
    pr->keys = keys;
    pr->count = count;
    return TOKENRING_OK;
}

/* The tokens of a node (self: its index, SIZE_MAX for a new one) checked, sorted and
 * stored into pr, ready to commit; nothing kept on failure. */
static int prepare(tokenring_topology *t, const char *name, size_t self, tr_tok *toks,
                   size_t count, prepared *pr, tokenring_error *err)
{
    int rc = tokens_check(t, name, self, count, toks == NULL, err);
    if (rc == TOKENRING_OK)
        rc = toks_check(t, name, toks, count, err);
    if (rc != TOKENRING_OK)
        return rc;
    return tr_ops(t->partitioner)->key_is_token
               ? prepare_keys(t, name, self, toks, count, pr, err)
               : prepare_values(t, name, self, toks, count, pr, err);
}

TR_HIDDEN int tr_topology_add_node_toks(tokenring_topology *topology, const char *name,
                                        const char *datacenter, const char *rack,
                                        int32_t partitioner, tr_tok *toks, size_t count,
                                        tokenring_error *err)
{
    int rc = add_node_check(topology, name, datacenter, rack, partitioner, err);
    if (rc != TOKENRING_OK)
        return rc;
    prepared pr = { 0 };
    if ((rc = prepare(topology, name, SIZE_MAX, toks, count, &pr, err)) != TOKENRING_OK)
        return rc;
    return add_node_prepared(topology, name, datacenter, rack, &pr, err);
}

/* ------------------------------------------------- the typed calls: tr_tok arrays */

/* Up to TOKS_SMALL tokens are built on the caller's stack, more in an allocation. */
#define TOKS_SMALL 32

/* Where the tr_tok form of count typed tokens goes: NULL when tokens is NULL (the
 * implementation refuses them before reading any); small when they fit in it, or when
 * there are more than a topology holds (refused before any is read: small stays unread);
 * else an allocation. *fill says whether to build the tokens there. */
static int toks_room(tr_tok **toks, bool *fill, tr_tok small[TOKS_SMALL], const void *tokens,
                     size_t count, tokenring_error *err)
{
    *toks = NULL;
    *fill = false;
    if (tokens == NULL)
        return TOKENRING_OK;
    if (count <= TOKS_SMALL || count > MAX_TOTAL_TOKENS) {
        *toks = small;
        *fill = count <= TOKS_SMALL;
        return TOKENRING_OK;
    }
    if (!(*toks = tr_reallocarray(NULL, count, sizeof **toks)))
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory copying %zu tokens", count);
    *fill = true;
    return TOKENRING_OK;
}

static void toks_done(tr_tok *toks, const tr_tok small[TOKS_SMALL])
{
    if (toks != small)
        tr_free(toks);
}

/* The tr_tok form of the typed token arrays (tokens non-NULL, count of them); a byte
 * token the implementation refuses (too long, or NULL) is kept unread: its pointer and
 * length only. */
static void build_m3(tr_tok *toks, const int64_t *tokens, size_t count)
{
    for (size_t i = 0; i < count; i++)
        toks[i] = tr_tok_m3(tokens[i]);
}

static void build_128(tr_tok *toks, const tokenring_token128 *tokens, size_t count)
{
    for (size_t i = 0; i < count; i++)
        toks[i] = tr_tok_128(tokens[i]);
}

static void build_bytes(tr_tok *toks, const uint8_t *const *tokens, const size_t *lens,
                        size_t count)
{
    for (size_t i = 0; i < count; i++) {
        if (lens[i] <= TOKENRING_BYTE_TOKEN_MAX && (tokens[i] || lens[i] == 0)) {
            toks[i] = tr_tok_bytes(tokens[i], lens[i]);
        } else {
            tr_tok unread = { 0, { 0, 0 }, tokens[i], lens[i],
                              TOKENRING_PARTITIONER_BYTE_ORDERED };
            toks[i] = unread;
        }
    }
}

TOKENRING_API int tokenring_topology_add_node(tokenring_topology *topology, const char *name,
                                              const char *datacenter, const char *rack,
                                              const int64_t *tokens, size_t token_count,
                                              tokenring_error *err)
{
    tr_tok small[TOKS_SMALL], *toks;
    bool fill;
    int rc = toks_room(&toks, &fill, small, tokens, token_count, err);
    if (rc != TOKENRING_OK)
        return rc;
    if (fill)
        build_m3(toks, tokens, token_count);
    rc = tr_topology_add_node_toks(topology, name, datacenter, rack,
                                       TOKENRING_PARTITIONER_MURMUR3, toks, token_count, err);
    toks_done(toks, small);
    return rc;
}

TOKENRING_API int tokenring_topology_add_node128(tokenring_topology *topology, const char *name,
                                                 const char *datacenter, const char *rack,
                                                 const tokenring_token128 *tokens,
                                                 size_t token_count, tokenring_error *err)
{
    tr_tok small[TOKS_SMALL], *toks;
    bool fill;
    int rc = toks_room(&toks, &fill, small, tokens, token_count, err);
    if (rc != TOKENRING_OK)
        return rc;
    if (fill)
        build_128(toks, tokens, token_count);
    rc = tr_topology_add_node_toks(topology, name, datacenter, rack,
                                       TOKENRING_PARTITIONER_RANDOM, toks, token_count, err);
    toks_done(toks, small);
    return rc;
}

TOKENRING_API int tokenring_topology_add_node_bytes(tokenring_topology *topology,
                                                    const char *name, const char *datacenter,
                                                    const char *rack,
                                                    const uint8_t *const *tokens,
                                                    const size_t *lens, size_t token_count,
                                                    tokenring_error *err)
{
    tr_tok small[TOKS_SMALL], *toks;
    bool fill;
    int rc = toks_room(&toks, &fill, small, lens ? tokens : NULL, token_count, err);
    if (rc != TOKENRING_OK)
        return rc;
    if (fill)
        build_bytes(toks, tokens, lens, token_count);
    rc = tr_topology_add_node_toks(topology, name, datacenter, rack,
                                       TOKENRING_PARTITIONER_BYTE_ORDERED, toks, token_count,
                                       err);
    toks_done(toks, small);
    return rc;
}

/* The checks of every set_tokens form: the topology's partitioner, the node. */
static int set_tokens_check(tokenring_topology *t, const char *name, int partitioner,
                            size_t *index, tokenring_error *err)
{
    if (t == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "topology is NULL");
    if (t->partitioner != partitioner)
        return tr_fail(err, TOKENRING_E_UNSUPPORTED,
                       "the topology's partitioner is %s, not %s",
                       tokenring_partitioner_name((tokenring_partitioner)t->partitioner),
                       tokenring_partitioner_name((tokenring_partitioner)partitioner));
    if (name == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "node name is NULL");
    if (!find_index(t, name, index))
        return tr_fail(err, TOKENRING_E_NOTFOUND, "node '%s' is not in the topology", name);
    return TOKENRING_OK;
}

TR_HIDDEN int tr_topology_set_tokens_toks(tokenring_topology *topology, const char *name,
                                          int32_t partitioner, tr_tok *toks, size_t count,
                                          tokenring_error *err)
{
    size_t index = 0;
    int rc = set_tokens_check(topology, name, partitioner, &index, err);
    if (rc != TOKENRING_OK)
        return rc;
    prepared pr = { 0 };
    if ((rc = prepare(topology, name, index, toks, count, &pr, err)) != TOKENRING_OK)
        return rc;
    if (tok_reserve(topology, topology->tok_used + pr.count) != TOKENRING_OK) {
        prepared_free(&pr);
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory moving node '%s'", name);
    }
    commit_tokens(topology, index, pr.keys, pr.t128, pr.tb, pr.tb_off, pr.count);
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_topology_set_tokens(tokenring_topology *topology, const char *name,
                                                const int64_t *tokens, size_t token_count,
                                                tokenring_error *err)
{
    tr_tok small[TOKS_SMALL], *toks;
    bool fill;
    int rc = toks_room(&toks, &fill, small, tokens, token_count, err);
    if (rc != TOKENRING_OK)
        return rc;
    if (fill)
        build_m3(toks, tokens, token_count);
    rc = tr_topology_set_tokens_toks(topology, name, TOKENRING_PARTITIONER_MURMUR3, toks,
                                     token_count, err);
    toks_done(toks, small);
    return rc;
}

TOKENRING_API int tokenring_topology_set_tokens128(tokenring_topology *topology,
                                                   const char *name,
                                                   const tokenring_token128 *tokens,
                                                   size_t token_count, tokenring_error *err)
{
    tr_tok small[TOKS_SMALL], *toks;
    bool fill;
    int rc = toks_room(&toks, &fill, small, tokens, token_count, err);
    if (rc != TOKENRING_OK)
        return rc;
    if (fill)
        build_128(toks, tokens, token_count);
    rc = tr_topology_set_tokens_toks(topology, name, TOKENRING_PARTITIONER_RANDOM, toks,
                                     token_count, err);
    toks_done(toks, small);
    return rc;
}

TOKENRING_API int tokenring_topology_set_tokens_bytes(tokenring_topology *topology,
                                                      const char *name,
                                                      const uint8_t *const *tokens,
                                                      const size_t *lens, size_t token_count,
                                                      tokenring_error *err)
{
    tr_tok small[TOKS_SMALL], *toks;
    bool fill;
    int rc = toks_room(&toks, &fill, small, lens ? tokens : NULL, token_count, err);
    if (rc != TOKENRING_OK)
        return rc;
    if (fill)
        build_bytes(toks, tokens, lens, token_count);
    rc = tr_topology_set_tokens_toks(topology, name, TOKENRING_PARTITIONER_BYTE_ORDERED, toks,
                                     token_count, err);
    toks_done(toks, small);
    return rc;
}

TOKENRING_API int tokenring_topology_node_token128(tokenring_token128 *out,
                                                   const tokenring_topology *topology,
                                                   size_t index, size_t k)
{
    if (out == NULL || topology == NULL)
        return TOKENRING_E_INVAL;
    if (topology->partitioner != TOKENRING_PARTITIONER_RANDOM)
        return TOKENRING_E_UNSUPPORTED;
    if (index >= topology->count || k >= topology->nodes[index].token_count)
        return TOKENRING_E_RANGE;
    *out = topology->nodes[index].t128[k];
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_topology_node_token_bytes(const uint8_t **out, size_t *len_out,
                                                      const tokenring_topology *topology,
                                                      size_t index, size_t k)
{
    if (out == NULL || len_out == NULL || topology == NULL)
        return TOKENRING_E_INVAL;
    if (topology->partitioner != TOKENRING_PARTITIONER_BYTE_ORDERED)
        return TOKENRING_E_UNSUPPORTED;
    if (index >= topology->count || k >= topology->nodes[index].token_count)
        return TOKENRING_E_RANGE;
    const tr_tnode *n = &topology->nodes[index];
    *out = n->tb + n->tb_off[k];
    *len_out = n->tb_off[k + 1] - n->tb_off[k];
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_topology_remove_node(tokenring_topology *topology,
                                                 const char *name, tokenring_error *err)
{
    tokenring_topology *t = topology;
    if (t == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "topology is NULL");
    if (name == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "node name is NULL");
    size_t index = 0;
    if (!find_index(t, name, &index))
        return tr_fail(err, TOKENRING_E_NOTFOUND, "node '%s' is not in the topology", name);
    tr_tnode *n = &t->nodes[index];
    for (size_t i = 0; i < n->token_count; i++)
        tok_erase(t, n->keys[i], (uint32_t)index);
    /* Node indices above the removed one move down by one. Without a branch (vectorised;
     * about half the slots are empty, which made the branch mispredict): this loop was
     * most of a node's removal. */
    const uint32_t removed = (uint32_t)index;
    uint32_t *slot_node = t->tok_nodes;
    for (size_t i = 0; i < t->tok_slots; i++) {
        uint32_t v = slot_node[i];
        slot_node[i] = v - (uint32_t)((v > removed) & (v != TOK_EMPTY));
    }
    node_clear(n);
    memmove(t->nodes + index, t->nodes + index + 1, (t->count - index - 1) * sizeof *t->nodes);
    t->count--;
    name_rebuild(t); /* the indices above the removed one moved down */
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_topology_replace_node(tokenring_topology *topology,
                                                  const char *old_name, const char *new_name,
                                                  tokenring_error *err)
{
    tokenring_topology *t = topology;
    int rc;
    if (t == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "topology is NULL");
    if (old_name == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "node name is NULL");
    if ((rc = tr_check_name(err, "new node", new_name)) != TOKENRING_OK)
        return rc;
    size_t index, other;
    if (!find_index(t, old_name, &index))
        return tr_fail(err, TOKENRING_E_NOTFOUND, "node '%s' is not in the topology", old_name);
    if (find_index(t, new_name, &other))
        return tr_fail(err, TOKENRING_E_EXISTS, "node '%s' already exists", new_name);
    char *copy = tr_strdup(new_name);
    if (!copy)
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory replacing node '%s'", old_name);
    tr_tnode *n = &t->nodes[index];
    tr_free(n->name);
    n->name = copy;
    name_rebuild(t); /* the node's slot follows its new name */
    n->state = TOKENRING_STATE_NORMAL;
    n->liveness = TOKENRING_UP;
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_topology_set_state(tokenring_topology *topology, const char *name,
                                               tokenring_node_state state,
                                               tokenring_liveness liveness,
                                               tokenring_error *err)
{
    tokenring_topology *t = topology;
    if (t == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "topology is NULL");
    if (name == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "node name is NULL");
    int s = (int)state, l = (int)liveness;
    if (s < TOKENRING_STATE_NORMAL || s > TOKENRING_STATE_MOVING)
        return tr_fail(err, TOKENRING_E_INVAL, "node state %d is not a tokenring_node_state", s);
    if (l < TOKENRING_UP || l > TOKENRING_UNKNOWN)
        return tr_fail(err, TOKENRING_E_INVAL, "liveness %d is not a tokenring_liveness", l);
    size_t index = 0;
    if (!find_index(t, name, &index))
        return tr_fail(err, TOKENRING_E_NOTFOUND, "node '%s' is not in the topology", name);
    t->nodes[index].state = s;
    t->nodes[index].liveness = l;
    return TOKENRING_OK;
}

TOKENRING_API size_t tokenring_topology_node_count(const tokenring_topology *topology)
{
    return topology ? topology->count : 0;
}

TOKENRING_API int tokenring_topology_node(tokenring_node_info *out,
                                          const tokenring_topology *topology, size_t index)
{
    if (out == NULL || topology == NULL)
        return TOKENRING_E_INVAL;
    if (index >= topology->count)
        return TOKENRING_E_RANGE;
    const tr_tnode *n = &topology->nodes[index];
    memset(out, 0, sizeof *out);
    out->name = n->name;
    out->datacenter = n->dc;
    out->rack = n->rack;
    /* the keys are the tokens for Murmur3 only (tr_tnode); the others read theirs with
     * tokenring_topology_node_token128 / _token_bytes */
    out->tokens = tr_ops(topology->partitioner)->key_is_token ? n->keys : NULL;
    out->token_count = n->token_count;
    out->state = n->state;
    out->liveness = n->liveness;
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_topology_find_node(size_t *index_out,
                                               const tokenring_topology *topology,
                                               const char *name)
{
    if (index_out == NULL || topology == NULL || name == NULL)
        return TOKENRING_E_INVAL;
    size_t index = 0;
    if (!find_index(topology, name, &index))
        return TOKENRING_E_NOTFOUND;
    *index_out = index;
    return TOKENRING_OK;
}
