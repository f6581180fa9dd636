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

/* ---------------------------------------------------------------- murmur3 */

/* The first half of Cassandra's MurmurHash3_x64_128 (signed tail bytes, seed 0): the same
 * function the partitioner uses (lib/murmur3.c, pinned by the token vectors), without the
 * partitioner's empty-key and minimum-token rules. */
static int64_t murmur3_h1(const uint8_t *data, size_t len)
{
    int64_t h[2];
    tokenring_murmur3_cassandra(h, data, len, 0);
    return h[0];
}

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

static int64_t seeded_token(uint64_t seed, const char *identity, size_t len, uint32_t vnode,
                            uint32_t attempt)
{
    uint8_t buf[LAYOUT_BUF];
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
    int64_t h = murmur3_h1(buf, n);
    return h == TOKENRING_MIN_TOKEN ? TOKENRING_MAX_TOKEN : h;
}

TOKENRING_API int tokenring_layout_seeded_token(int64_t *token_out, uint64_t seed,
                                                const char *identity, size_t identity_len,
                                                uint32_t vnode, uint32_t attempt)
{
    if (!token_out || (!identity && identity_len > 0))
        return TOKENRING_E_INVAL;
    if (identity_len > TOKENRING_MAX_NAME)
        return TOKENRING_E_RANGE;
    *token_out = seeded_token(seed, identity, identity_len, vnode, attempt);
    return TOKENRING_OK;
}

/* ------------------------------------------------------------ taken tokens */

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Sorted tokens of every node of `topo` except the one named `skip` (may be NULL), each
 * with its node index (parallel array, optional). */
int tr_layout_collect_tokens(tr_token_set *set, const tokenring_topology *topo,
                             const char *skip)
{
    memset(set, 0, sizeof *set);
    if (!topo)
        return TOKENRING_OK;
    size_t n = tokenring_topology_node_count(topo), total = 0;
    for (size_t i = 0; i < n; i++) {
        tokenring_node_info info;
        if (tokenring_topology_node(&info, topo, i) != TOKENRING_OK)
            return TOKENRING_E_INVAL;
        if (skip && strcmp(info.name, skip) == 0)
            continue;
        total += info.token_count;
    }
    if (total == 0)
        return TOKENRING_OK;
    set->tokens = tr_reallocarray(NULL, total, sizeof *set->tokens);
    set->nodes = tr_reallocarray(NULL, total, sizeof *set->nodes);
    if (!set->tokens || !set->nodes) {
        tr_free(set->tokens);
        tr_free(set->nodes);
        memset(set, 0, sizeof *set);
        return TOKENRING_E_NOMEM;
    }
    /* Sort pairs via a packed index sort: sort tokens, then recover nodes by search. */
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        tokenring_node_info info;
        tokenring_topology_node(&info, topo, i);
        if (skip && strcmp(info.name, skip) == 0)
            continue;
        memcpy(set->tokens + k, info.tokens, info.token_count * sizeof(int64_t));
        k += info.token_count;
    }
    qsort(set->tokens, total, sizeof *set->tokens, cmp_i64);
    set->count = total;
    /* Node of each token: tokens are distinct across a topology, so a second pass with
     * binary search fills the parallel array. */
    for (size_t i = 0; i < n; i++) {
        tokenring_node_info info;
        tokenring_topology_node(&info, topo, i);
        if (skip && strcmp(info.name, skip) == 0)
            continue;
        for (size_t j = 0; j < info.token_count; j++) {
            size_t pos;
            if (tr_token_set_find(set, info.tokens[j], &pos))
                set->nodes[pos] = (uint32_t)i;
        }
    }
    return TOKENRING_OK;
}

bool tr_token_set_find(const tr_token_set *set, int64_t token, size_t *pos_out)
{
    size_t lo = 0, hi = set->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (set->tokens[mid] < token)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (pos_out)
        *pos_out = lo;
    return lo < set->count && set->tokens[lo] == token;
}

void tr_token_set_free(tr_token_set *set)
{
    tr_free(set->tokens);
    tr_free(set->nodes);
    memset(set, 0, sizeof *set);
}

/* Is `t` among tokens[0..n) (unsorted, small) or in the sorted extra array? */
static bool in_list(const int64_t *tokens, size_t n, int64_t t)
{
    for (size_t i = 0; i < n; i++)
        if (tokens[i] == t)
            return true;
    return false;
}

/* Lays out one node. `own` (sorted copy of the tokens chosen so far, capacity count) makes
 * the check between vnodes O(log count). */
static int layout_node(int64_t *out, size_t count, uint64_t seed, const char *identity,
                       const tr_token_set *taken, const tr_token_set *extra,
                       const tokenring_topology *topo, uint32_t flags, tokenring_error *err)
{
    size_t len = strlen(identity);
    int64_t *own = NULL;
    if (count > 64) {
        own = tr_reallocarray(NULL, count, sizeof *own);
        if (!own)
            return tr_fail(err, TOKENRING_E_NOMEM, "out of memory laying out node '%s'",
                           identity);
    }
    size_t own_n = 0;
    for (size_t v = 0; v < count; v++) {
        uint32_t attempt = 0;
        for (;;) {
            int64_t t = seeded_token(seed, identity, len, (uint32_t)v, attempt);
            size_t pos;
            bool clash_other = taken && tr_token_set_find(taken, t, &pos);
            bool clash_extra = extra && tr_token_set_find(extra, t, NULL);
            bool clash_own;
            if (own) {
                tr_token_set s = { own, NULL, own_n };
                clash_own = tr_token_set_find(&s, t, NULL);
            } else {
                clash_own = in_list(out, v, t);
            }
            if (!clash_other && !clash_own && !clash_extra) {
                out[v] = t;
                if (own) {
                    size_t p;
                    tr_token_set s = { own, NULL, own_n };
                    tr_token_set_find(&s, t, &p);
                    memmove(own + p + 1, own + p, (own_n - p) * sizeof *own);
                    own[p] = t;
                    own_n++;
                }
                break;
            }
            if (flags & TOKENRING_LAYOUT_STRICT) {
                tr_free(own);
                if (clash_other) {
                    tokenring_node_info info;
                    const char *who = "?";
                    if (topo && tokenring_topology_node(&info, topo, taken->nodes[pos]) ==
                                    TOKENRING_OK)
                        who = info.name;
                    return tr_fail(err, TOKENRING_E_EXISTS,
                                   "seeded token %lld of node '%s' (vnode %zu) is already "
                                   "held by node '%s'",
                                   (long long)t, identity, v, who);
                }
                return tr_fail(err, TOKENRING_E_EXISTS,
                               "seeded token %lld of node '%s' (vnode %zu) collides with "
                               "another of its vnodes or with a node added in the same call",
                               (long long)t, identity, v);
            }
            if (attempt == UINT32_MAX) {
                tr_free(own);
                return tr_fail(err, TOKENRING_E_IMPOSSIBLE,
                               "no free token found for node '%s' vnode %zu", identity, v);
            }
            attempt++;
        }
    }
    tr_free(own);
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_layout_seeded_tokens(int64_t *tokens_out, size_t count,
                                                 uint64_t seed, const char *identity,
                                                 const tokenring_topology *taken,
                                                 uint32_t flags, tokenring_error *err)
{
    if (!tokens_out || !identity)
        return tr_fail(err, TOKENRING_E_INVAL, "tokens_out and identity must not be NULL");
    if (flags & ~TOKENRING_LAYOUT_STRICT)
        return tr_fail(err, TOKENRING_E_INVAL, "unknown flags 0x%x", flags);
    if (count == 0 || count > TOKENRING_LAYOUT_MAX_TOKENS)
        return tr_fail(err, TOKENRING_E_RANGE, "token count %zu is outside 1..%u", count,
                       TOKENRING_LAYOUT_MAX_TOKENS);
    int rc = tr_check_name(err, "identity", identity);
    if (rc != TOKENRING_OK)
        return rc;
    tr_token_set set;
    rc = tr_layout_collect_tokens(&set, taken, identity);
    if (rc != TOKENRING_OK)
        return tr_fail(err, rc, "cannot read the tokens of the topology");
    rc = layout_node(tokens_out, count, seed, identity, &set, NULL, taken, flags, err);
    tr_token_set_free(&set);
    return rc;
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
    if (flags & ~TOKENRING_LAYOUT_STRICT)
        return tr_fail(err, TOKENRING_E_INVAL, "unknown flags 0x%x", flags);
    if (tokens_per_node == 0 || tokens_per_node > TOKENRING_LAYOUT_MAX_TOKENS)
        return tr_fail(err, TOKENRING_E_RANGE, "tokens per node %u is outside 1..%u",
                       tokens_per_node, TOKENRING_LAYOUT_MAX_TOKENS);
    if (count == 0)
        return TOKENRING_OK;
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
    tr_token_set taken;
    int rc = tr_layout_collect_tokens(&taken, topology, NULL);
    if (rc != TOKENRING_OK)
        return tr_fail(err, rc, "cannot read the tokens of the topology");
    size_t total = count * (size_t)tokens_per_node;
    int64_t *all = tr_reallocarray(NULL, total, sizeof *all);
    int64_t *sorted = tr_reallocarray(NULL, total, sizeof *sorted);
    if (!all || !sorted) {
        tr_free(all);
        tr_free(sorted);
        tr_token_set_free(&taken);
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory laying out %zu nodes", count);
    }
    /* Plan every node first (against the topology and the nodes planned before it). */
    tr_token_set extra = { sorted, NULL, 0 };
    for (size_t i = 0; i < count && rc == TOKENRING_OK; i++) {
        int64_t *out = all + i * tokens_per_node;
        rc = layout_node(out, tokens_per_node, seed, names[i], &taken, &extra, topology,
                         flags, err);
        if (rc != TOKENRING_OK)
            break;
        for (size_t j = 0; j < tokens_per_node; j++) {
            size_t p;
            tr_token_set_find(&extra, out[j], &p);
            memmove(sorted + p + 1, sorted + p, (extra.count - p) * sizeof *sorted);
            sorted[p] = out[j];
            extra.count++;
        }
    }
    tr_token_set_free(&taken);
    tr_free(sorted);
    if (rc != TOKENRING_OK) {
        tr_free(all);
        return rc;
    }
    size_t added = 0;
    for (; added < count; added++) {
        rc = tokenring_topology_add_node(topology, names[added],
                                         datacenters ? datacenters[added] : "datacenter1",
                                         racks ? racks[added] : "rack1",
                                         all + added * tokens_per_node, tokens_per_node, err);
        if (rc != TOKENRING_OK)
            break;
    }
    if (rc != TOKENRING_OK) {
        /* Roll back: the added nodes are the last ones, so removing them restores the
         * topology exactly. */
        while (added > 0) {
            added--;
            tokenring_topology_remove_node(topology, names[added], NULL);
        }
    }
    tr_free(all);
    return rc;
}

/* --------------------------------------------------------------- even layout */

TOKENRING_API int tokenring_layout_even_tokens(int64_t *tokens_out, uint32_t num_tokens,
                                               uint32_t slot, uint32_t slots)
{
    if (!tokens_out)
        return TOKENRING_E_INVAL;
    if (num_tokens == 0 || num_tokens > TOKENRING_LAYOUT_MAX_TOKENS || slots == 0 ||
        slot >= slots)
        return TOKENRING_E_RANGE;
    tr_layout_even(tokens_out, num_tokens, slot, slots);
    return TOKENRING_OK;
}

void tr_layout_even(int64_t *out, uint32_t num_tokens, uint32_t slot, uint32_t slots)
{
    __extension__ typedef unsigned __int128 u128;
    u128 denom = (u128)num_tokens * slots;
    for (uint32_t j = 0; j < num_tokens; j++) {
        u128 p = (u128)j * slots + slot;
        u128 off = (p << 64) / denom; /* p < denom <= 2^48, so p << 64 fits */
        out[j] = (int64_t)((uint64_t)TOKENRING_MIN_TOKEN + (uint64_t)off);
    }
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
