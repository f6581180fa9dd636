/* SPDX-License-Identifier: Apache-2.0 */
/* Routing on rings of fuzzed tokens (any token, tokens crowded together, tokens on the
 * first and last values of the index's buckets; 1 to 192 tokens, across the 64-token limit
 * of the small rings' table) with fuzzed keys: every lookup agrees with a plain lower bound
 * over the ring's tokens (wrapping to range 0), and the batches agree with the single-key
 * calls, field by field:
 *   - tokenring_ring_search, tokenring_ring_search_batch, tokenring_placement_replicas;
 *   - tokenring_placement_replicas_for_key, tokenring_placement_key_set_id;
 *   - tokenring_placement_route_keys (set ids) and tokenring_placement_route_keys_replicas
 *     (in chunks of fuzzed sizes).
 * Input: a header (node count, tokens per node, the token mode, the replication), the
 * tokens' bytes, then the keys (a length byte, then the key). */
#include "fuzz_common.h"

enum { MAX_NODES = 12, MAX_PER_NODE = 16, MAX_KEYS = 300, MAX_PROBES = 3 * 192 + 64 };

static uint32_t lower_bound_wrap(const int64_t *tok, size_t n, int64_t t)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (tok[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo == n ? 0 : (uint32_t)lo;
}

/* One token of the mode: raw bytes; near a base (crowded); or a bucket edge of the index's
 * top bits (the first or the last value of a top byte). */
static int64_t next_token(fuzz_reader *r, unsigned mode, int64_t base)
{
    switch (mode) {
    case 0: return (int64_t)fuzz_u64(r);
    case 1: return (int64_t)((uint64_t)base + fuzz_u8(r) - 128);
    default: {
        uint64_t top = fuzz_u8(r), edge = fuzz_u8(r) & 1 ? UINT64_C(0x00FFFFFFFFFFFFFF) : 0;
        return (int64_t)((top << 56 | edge) ^ (UINT64_C(1) << 63));
    }
    }
}

static void same_replicas(const tokenring_replicas *a, const tokenring_replicas *b)
{
    FUZZ_CHECK(a->nodes == b->nodes && a->transient == b->transient);
    FUZZ_CHECK(a->count == b->count && a->range_index == b->range_index);
    FUZZ_CHECK(a->set_id == b->set_id && a->reserved == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_reader r = { data, size };
    unsigned nodes = 1 + fuzz_u8(&r) % MAX_NODES, per = 1 + fuzz_u8(&r) % MAX_PER_NODE;
    unsigned mode = fuzz_u8(&r), repl_byte = fuzz_u8(&r);
    int64_t base = (int64_t)fuzz_u64(&r);
    tokenring_topology *topo = NULL;
    FUZZ_CHECK(tokenring_topology_new(&topo) == TOKENRING_OK);
    for (unsigned i = 0; i < nodes; i++) {
        int64_t tok[MAX_PER_NODE];
        for (unsigned k = 0; k < per; k++)
            tok[k] = next_token(&r, (mode >> (2 * (k % 3))) % 3, base);
        char name[16], dc[8], rack[8];
        snprintf(name, sizeof name, "n%u", i);
        snprintf(dc, sizeof dc, "dc%u", i % (1 + (mode >> 6 & 1)));
        snprintf(rack, sizeof rack, "r%u", i % 3);
        /* a token taken twice is refused: the node is then left out */
        (void)tokenring_topology_add_node(topo, name, dc, rack, tok, per, NULL);
    }
    tokenring_ring *ring = NULL;
    if (tokenring_ring_build(&ring, topo, NULL) != TOKENRING_OK) {
        tokenring_topology_free(topo); /* no node was added */
        return 0;
    }
    tokenring_replication *repl = NULL;
    if (mode >> 7) {
        int32_t rf = 1 + repl_byte % 4, transient = rf >= 2 ? (repl_byte >> 2) % 2 : 0;
        FUZZ_CHECK(tokenring_replication_network(&repl) == TOKENRING_OK);
        /* the ring's datacenters (a node refused for a taken token may leave one out) */
        for (size_t d = 0; d < tokenring_ring_dc_count(ring); d++)
            FUZZ_CHECK(tokenring_replication_set_dc(repl, tokenring_ring_dc_name(ring, d),
                                                    d == 0 ? rf : (int32_t)(1 + (repl_byte >> 3) % 3),
                                                    d == 0 ? transient : 0,
                                                    NULL) == TOKENRING_OK);
    } else {
        FUZZ_CHECK(tokenring_replication_simple(&repl, 1 + repl_byte % 5, 0, NULL) ==
                   TOKENRING_OK);
    }
    tokenring_placement *pl = NULL;
    tokenring_error err;
    int rc = tokenring_placement_build(&pl, ring, repl, 0, &err);
    if (rc != TOKENRING_OK)
        fprintf(stderr, "placement: %s\n", err.message);
    FUZZ_CHECK(rc == TOKENRING_OK);

    size_t n = 0;
    const int64_t *tokens = tokenring_ring_tokens(ring, &n);
    FUZZ_CHECK(tokens != NULL && n >= 1);
    for (size_t i = 1; i < n; i++)
        FUZZ_CHECK(tokens[i - 1] < tokens[i]);

    /* tokens: every ring token and its neighbours, the extremes, and fuzzed ones */
    static int64_t probe[MAX_PROBES];
    static uint32_t batch[MAX_PROBES];
    size_t np = 0;
    for (size_t i = 0; i < n && np + 3 <= MAX_PROBES - 64; i++) {
        probe[np++] = tokens[i];
        probe[np++] = (int64_t)((uint64_t)tokens[i] - 1);
        probe[np++] = (int64_t)((uint64_t)tokens[i] + 1);
    }
    probe[np++] = INT64_MIN;
    probe[np++] = INT64_MAX;
    while (np < MAX_PROBES && r.n >= 8 && np < n * 3 + 40)
        probe[np++] = next_token(&r, fuzz_u8(&r) % 3, base);
    FUZZ_CHECK(tokenring_ring_search_batch(batch, ring, probe, np) == TOKENRING_OK);
    for (size_t i = 0; i < np; i++) {
        uint32_t want = lower_bound_wrap(tokens, n, probe[i]);
        FUZZ_CHECK(tokenring_ring_search(ring, probe[i]) == want);
        FUZZ_CHECK(batch[i] == want);
        tokenring_replicas x;
        FUZZ_CHECK(tokenring_placement_replicas(&x, pl, probe[i]) == TOKENRING_OK);
        FUZZ_CHECK(x.range_index == want);
    }

    /* keys: the rest of the input, routed one by one and in batches */
    static uint8_t packed[MAX_KEYS * 32];
    static uint64_t off[MAX_KEYS + 1];
    static int64_t ktok[MAX_KEYS], rtok[MAX_KEYS];
    static uint32_t sets[MAX_KEYS];
    static tokenring_replicas reps[MAX_KEYS];
    size_t nk = 0;
    off[0] = 0;
    while (nk < MAX_KEYS && r.n > 0) {
        size_t len = fuzz_u8(&r) % 32;
        for (size_t b = 0; b < len; b++)
            packed[off[nk] + b] = fuzz_u8(&r);
        off[nk + 1] = off[nk] + len;
        nk++;
    }
    FUZZ_CHECK(tokenring_placement_route_keys(ktok, sets, pl, packed, off, nk) == TOKENRING_OK);
    for (size_t from = 0, chunk = 1 + (size_t)(mode % 7) * 37; from < nk; from += chunk) {
        size_t m = nk - from < chunk ? nk - from : chunk;
        FUZZ_CHECK(tokenring_placement_route_keys_replicas(reps + from, rtok + from, pl, packed,
                                                           off + from, m) == TOKENRING_OK);
    }
    for (size_t k = 0; k < nk; k++) {
        const uint8_t *key = packed + off[k];
        size_t len = (size_t)(off[k + 1] - off[k]);
        int64_t t = tokenring_token(key, len);
        FUZZ_CHECK(ktok[k] == t && rtok[k] == t);
        tokenring_replicas x;
        FUZZ_CHECK(tokenring_placement_replicas_for_key(&x, pl, key, len) == TOKENRING_OK);
        FUZZ_CHECK(x.range_index == lower_bound_wrap(tokens, n, t));
        FUZZ_CHECK(x.set_id == sets[k]);
        FUZZ_CHECK(tokenring_placement_key_set_id(pl, key, len) == (int64_t)x.set_id);
        same_replicas(&reps[k], &x);
        tokenring_replicas y;
        FUZZ_CHECK(tokenring_placement_range_replicas(&y, pl, x.range_index) == TOKENRING_OK);
        FUZZ_CHECK(y.count == x.count &&
                   (x.count == 0 || memcmp(y.nodes, x.nodes, x.count * sizeof *x.nodes) == 0));
    }

    tokenring_placement_free(pl);
    tokenring_replication_free(repl);
    tokenring_ring_free(ring);
    tokenring_topology_free(topo);
    return 0;
}
