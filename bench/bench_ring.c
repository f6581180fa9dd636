/* SPDX-License-Identifier: Apache-2.0 */
/* Routing benchmarks: hashing, owner lookup, hash + replica lookup, replica-map builds and
 * memory, each next to a baseline compiled into this binary:
 *   - hashing next to a straightforward reference MurmurHash3_x64_128 (the algorithm's own
 *     cost: the floor our Cassandra variant is compared with);
 *   - lookups next to a plain sorted-array lower_bound over the ring's tokens with a flat
 *     per-token replica array (the "flat C" layout the drivers are measured against), and
 *     next to the memory floor: hash + one read of a row at a position taken from the token,
 *     no search (what any layout whose rows outgrow the caches pays per key); the same
 *     plus one read of the tokens (what an exact lookup over tokens past the caches pays),
 *     the batched floor (16 rows prefetched, then read); and the floor of a row whose
 *     position waits on one read of a radix table as large as the library's index.
 * Fixed key sets (seeded), every figure the median of repeated runs.
 *
 *   bench-ring [--quick]      prints the tables; see doc/performance.md
 *   bench-ring --ring 1000x256  the ring table for one ring only
 *   bench-ring --callgrind hash8|hash16|...|6x8|96x256|1000x256
 *                             one untimed pass of each workload, for bench/callgrind.sh */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tokenring/tokenring.h"

static int quick;

/* ------------------------------------------------------------------ utilities */

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint64_t next_rand(void)
{
    uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Thread CPU time: time the scheduler gives to other processes on a shared machine is not
 * counted (cache and memory-bus sharing still is, hence medians and same-pass ratios). */
static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define REPEATS 7
#define CG_KEYS 10000
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

static volatile uint64_t sink;

/* --------------------------------------------- reference MurmurHash3_x64_128 */

static inline uint64_t rotl64(uint64_t x, int r)
{
    return (x << r) | (x >> (64 - r));
}

static inline uint64_t fmix64(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    k ^= k >> 33;
    return k;
}

/* The published algorithm (unsigned tail bytes), written from its description. Not inlined
 * and called with a run-time length, like the library's function, so the compiler cannot
 * specialise it for one key size (which would make the comparison unfair to the library). */
static __attribute__((noinline)) uint64_t ref_murmur3_h1(const uint8_t *data, size_t len)
{
    const uint64_t c1 = 0x87c37b91114253d5ull, c2 = 0x4cf5ad432745937full;
    uint64_t h1 = 0, h2 = 0;
    size_t nblocks = len / 16;
    for (size_t i = 0; i < nblocks; i++) {
        uint64_t k1, k2;
        memcpy(&k1, data + 16 * i, 8);
        memcpy(&k2, data + 16 * i + 8, 8);
        k1 *= c1; k1 = rotl64(k1, 31); k1 *= c2; h1 ^= k1;
        h1 = rotl64(h1, 27); h1 += h2; h1 = h1 * 5 + 0x52dce729;
        k2 *= c2; k2 = rotl64(k2, 33); k2 *= c1; h2 ^= k2;
        h2 = rotl64(h2, 31); h2 += h1; h2 = h2 * 5 + 0x38495ab5;
    }
    const uint8_t *tail = data + 16 * nblocks;
    uint64_t k1 = 0, k2 = 0;
    switch (len & 15) {
    case 15: k2 ^= (uint64_t)tail[14] << 48; /* fall through */
    case 14: k2 ^= (uint64_t)tail[13] << 40; /* fall through */
    case 13: k2 ^= (uint64_t)tail[12] << 32; /* fall through */
    case 12: k2 ^= (uint64_t)tail[11] << 24; /* fall through */
    case 11: k2 ^= (uint64_t)tail[10] << 16; /* fall through */
    case 10: k2 ^= (uint64_t)tail[9] << 8;   /* fall through */
    case 9:  k2 ^= (uint64_t)tail[8];
             k2 *= c2; k2 = rotl64(k2, 33); k2 *= c1; h2 ^= k2; /* fall through */
    case 8:  k1 ^= (uint64_t)tail[7] << 56;  /* fall through */
    case 7:  k1 ^= (uint64_t)tail[6] << 48;  /* fall through */
    case 6:  k1 ^= (uint64_t)tail[5] << 40;  /* fall through */
    case 5:  k1 ^= (uint64_t)tail[4] << 32;  /* fall through */
    case 4:  k1 ^= (uint64_t)tail[3] << 24;  /* fall through */
    case 3:  k1 ^= (uint64_t)tail[2] << 16;  /* fall through */
    case 2:  k1 ^= (uint64_t)tail[1] << 8;   /* fall through */
    case 1:  k1 ^= (uint64_t)tail[0];
             k1 *= c1; k1 = rotl64(k1, 31); k1 *= c2; h1 ^= k1;
    }
    h1 ^= len; h2 ^= len;
    h1 += h2; h2 += h1;
    h1 = fmix64(h1); h2 = fmix64(h2);
    h1 += h2;
    return h1;
}

/* -------------------------------------------------------------------- hashing */

static void bench_hash(void)
{
    static const size_t sizes[] = { 8, 16, 64, 256 };
    size_t nkeys = quick ? 20000 : 200000;
    printf("\n## Hashing (ns per key, median of %d passes over %zu fixed keys; ratio = median of "
           "the per-pass ratios)\n\n", REPEATS, nkeys);
    printf("| key bytes | libtokenring (Cassandra variant) | reference Murmur3 | time ratio (ours/reference) | batched (tokenring_tokens) | batched ratio |\n");
    printf("|---:|---:|---:|---:|---:|---:|\n");
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t len = sizes[s];
        uint8_t *keys = malloc(nkeys * len);
        for (size_t i = 0; i < nkeys * len; i++)
            keys[i] = (uint8_t)next_rand();
        uint64_t *offs = malloc((nkeys + 1) * sizeof *offs);
        int64_t *toks = malloc(nkeys * sizeof *toks);
        for (size_t i = 0; i <= nkeys; i++)
            offs[i] = i * len;
        double ours[REPEATS], ref[REPEATS], ratio[REPEATS], batch[REPEATS], bratio[REPEATS];
        for (int r = 0; r < REPEATS; r++) {
            uint64_t acc = 0;
            double b0 = now_ns();
            tokenring_tokens(toks, keys, offs, nkeys);
            double b1 = now_ns();
            acc += (uint64_t)toks[nkeys / 2];
            batch[r] = (b1 - b0) / (double)nkeys;
            /* Alternate which side runs first so neither always gets the warm caches. */
            double t0 = now_ns(), t1, t2;
            if (r & 1) {
                for (size_t i = 0; i < nkeys; i++)
                    acc += ref_murmur3_h1(keys + i * len, len);
                t1 = now_ns();
                for (size_t i = 0; i < nkeys; i++)
                    acc += (uint64_t)tokenring_token(keys + i * len, len);
                t2 = now_ns();
                ref[r] = (t1 - t0) / (double)nkeys;
                ours[r] = (t2 - t1) / (double)nkeys;
            } else {
                for (size_t i = 0; i < nkeys; i++)
                    acc += (uint64_t)tokenring_token(keys + i * len, len);
                t1 = now_ns();
                for (size_t i = 0; i < nkeys; i++)
                    acc += ref_murmur3_h1(keys + i * len, len);
                t2 = now_ns();
                ours[r] = (t1 - t0) / (double)nkeys;
                ref[r] = (t2 - t1) / (double)nkeys;
            }
            sink += acc;
            ratio[r] = ours[r] / ref[r];
            bratio[r] = batch[r] / ref[r];
        }
        double o = median(ours, REPEATS), f = median(ref, REPEATS);
        printf("| %zu | %.2f | %.2f | %.2f | %.2f | %.2f |\n", len, o, f, median(ratio, REPEATS),
               median(batch, REPEATS), median(bratio, REPEATS));
        free(offs);
        free(toks);
        free(keys);
    }
    /* Throughput on 1 MiB keys. */
    size_t big = 1u << 20;
    uint8_t *key = malloc(big);
    for (size_t i = 0; i < big; i++)
        key[i] = (uint8_t)next_rand();
    int loops = quick ? 20 : 200;
    double ours[REPEATS], ref[REPEATS], ratio[REPEATS];
    for (int r = 0; r < REPEATS; r++) {
        uint64_t acc = 0;
        double t0 = now_ns();
        for (int i = 0; i < loops; i++)
            acc += (uint64_t)tokenring_token(key, big - (size_t)i % 3);
        double t1 = now_ns();
        for (int i = 0; i < loops; i++)
            acc += ref_murmur3_h1(key, big - (size_t)i % 3);
        double t2 = now_ns();
        sink += acc;
        ours[r] = (double)big * loops / (t1 - t0);
        ref[r] = (double)big * loops / (t2 - t1);
        ratio[r] = ref[r] / ours[r];
    }
    double o = median(ours, REPEATS), f = median(ref, REPEATS);
    printf("| 1 MiB (GB/s) | %.2f | %.2f | %.2f | | |\n", o, f, median(ratio, REPEATS));
    free(key);
}

/* ---------------------------------------------------------------------- rings */

typedef struct {
    const char *name;
    int nodes, tokens_per_node, dcs, racks_per_dc;
    const char *replication;
} ring_spec;

/* A setup or build call that must succeed: otherwise print its error and stop. */
static void must(int rc, const tokenring_error *err)
{
    if (rc != TOKENRING_OK) {
        fprintf(stderr, "bench-ring: %s\n", err->message);
        abort();
    }
}

static tokenring_topology *make_topology(const ring_spec *spec)
{
    tokenring_topology *t = NULL;
    if (tokenring_topology_new(&t) != TOKENRING_OK)
        abort();
    int64_t *tok = malloc((size_t)spec->tokens_per_node * sizeof *tok);
    char name[32], dc[16], rack[16];
    for (int i = 0; i < spec->nodes; i++) {
        snprintf(name, sizeof name, "10.%d.%d.%d", i % spec->dcs, i / 250, i % 250);
        snprintf(dc, sizeof dc, "dc%d", i % spec->dcs + 1);
        snprintf(rack, sizeof rack, "rack%d", i / spec->dcs % spec->racks_per_dc + 1);
        for (;;) {
            for (int k = 0; k < spec->tokens_per_node; k++)
                tok[k] = (int64_t)next_rand();
            tokenring_error err;
            int rc = tokenring_topology_add_node(t, name, dc, rack, tok,
                                                 (size_t)spec->tokens_per_node, &err);
            if (rc == TOKENRING_OK)
                break;
            if (rc != TOKENRING_E_EXISTS) /* a drawn token already taken: draw again */
                must(rc, &err);
        }
    }
    free(tok);
    return t;
}

/* Live heap bytes, measured through the public allocator hooks. */
static long long live_bytes;
static void *count_malloc(size_t n, void *u)
{
    (void)u;
    size_t *p = malloc(n + 16);
    if (!p)
        return NULL;
    *p = n;
    live_bytes += (long long)n;
    return (char *)p + 16;
}
static void *count_realloc(void *ptr, size_t n, void *u)
{
    if (!ptr)
        return count_malloc(n, u);
    size_t *p = (size_t *)((char *)ptr - 16);
    long long old = (long long)*p;
    p = realloc(p, n + 16);
    if (!p)
        return NULL;
    live_bytes += (long long)n - old;
    *p = n;
    return (char *)p + 16;
}
static void count_free(void *ptr, void *u)
{
    (void)u;
    if (!ptr)
        return;
    size_t *p = (size_t *)((char *)ptr - 16);
    live_bytes -= (long long)*p;
    free(p);
}

/* Baseline: sorted tokens + lower_bound + a flat [tokens][rf_total] replica array. */
static inline size_t lower_bound(const int64_t *tok, size_t n, int64_t t)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (tok[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo == n ? 0 : lo;
}

/* Stronger baselines a driver author writes once he cares (issue 34), over the same tokens:
 *   - branchless lower_bound with prefetch: the search halves a length that depends on n
 *     only, moving the base by a multiply instead of a branch, and prefetches both
 *     candidates of the step after next (so the loop never mispredicts and two levels of
 *     misses overlap);
 *   - Eytzinger layout: the tokens in BFS order of the implicit search tree (node k has
 *     children 2k and 2k+1), so the 8 nodes of a level 3 steps ahead share one cache line
 *     and one prefetch covers them; the replica rows are stored in the same order, so the
 *     answer's row is read without a second index. */
static inline size_t lower_bound_bf(const int64_t *tok, size_t n, int64_t t)
{
    const int64_t *base = tok;
    size_t len = n;
    while (len > 1) {
        size_t half = len / 2;
        len -= half;
        __builtin_prefetch(&base[len / 2 - 1]);
        __builtin_prefetch(&base[half + len / 2 - 1]);
        base += (size_t)(base[half - 1] < t) * half;
    }
    size_t r = (size_t)(base - tok) + (size_t)(*base < t);
    return r == n ? 0 : r;
}

/* e[1..n] the tokens in Eytzinger order, e[0] unused; returns the Eytzinger position of the
 * first token >= t, or 0 when t is past the largest (row 0 then holds range 0's row). */
static inline size_t eytzinger_search(const int64_t *e, size_t n, int64_t t)
{
    size_t k = 1;
    while (k <= n) {
        /* k's descendants 3 levels down, 8k..8k+7, are one cache line (e is 64-byte aligned);
         * a prefetch past the array is ignored */
        __builtin_prefetch((const void *)((uintptr_t)e + k * 64));
        k = 2 * k + (size_t)(e[k] < t);
    }
    k >>= __builtin_ffsll((long long)~k);
    return k;
}

/* S-tree (static B-tree, issue 34): nodes of 8 tokens = one cache line, 9 children each;
 * node k's child j is k * 9 + j + 1. A node is searched by counting its tokens below t
 * (branch-free); the last node's slot holding the first token >= t is the answer. One
 * dependent read per level (6 levels for 256,000 tokens) instead of one per halving.
 * bidx holds each slot's sorted index (n for padding: past the largest, wraps to 0). */
enum { SB = 8 };
typedef struct {
    int64_t *key;  /* nblocks * SB, 64-byte aligned */
    uint32_t *idx; /* nblocks * SB */
    size_t nblocks;
} stree;

static size_t stree_fill(stree *st, const int64_t *sorted, size_t n, size_t t, size_t k)
{
    if (k < st->nblocks) {
        for (size_t i = 0; i < SB; i++) {
            t = stree_fill(st, sorted, n, t, k * (SB + 1) + i + 1);
            st->key[k * SB + i] = t < n ? sorted[t] : INT64_MAX;
            st->idx[k * SB + i] = (uint32_t)(t < n ? t : n);
            if (t < n)
                t++;
        }
        t = stree_fill(st, sorted, n, t, k * (SB + 1) + SB + 1);
    }
    return t;
}

static inline unsigned stree_rank(const int64_t *node, int64_t t)
{
    return (unsigned)(node[0] < t) + (unsigned)(node[1] < t) + (unsigned)(node[2] < t) +
           (unsigned)(node[3] < t) + (unsigned)(node[4] < t) + (unsigned)(node[5] < t) +
           (unsigned)(node[6] < t) + (unsigned)(node[7] < t);
}

/* the sorted index of the first token >= t, wrapping to 0 past the largest */
static inline size_t stree_search(const stree *st, size_t n, int64_t t)
{
    size_t k = 0, res = n;
    while (k < st->nblocks) {
        unsigned i = stree_rank(st->key + k * SB, t);
        if (i < SB)
            res = st->idx[k * SB + i];
        k = k * (SB + 1) + i + 1;
    }
    return res == n ? 0 : res;
}

static size_t eytzinger_fill(int64_t *e, uint32_t *pos, const int64_t *sorted, size_t n,
                             size_t i, size_t k)
{
    if (k <= n) {
        i = eytzinger_fill(e, pos, sorted, n, i, 2 * k);
        e[k] = sorted[i];
        pos[k] = (uint32_t)i++;
        i = eytzinger_fill(e, pos, sorted, n, i, 2 * k + 1);
    }
    return i;
}

/* The lookup workloads, each over the same fixed keys. Separate non-inlined functions so
 * that callgrind (--callgrind mode below) can count each one's instructions on its own. */
typedef struct {
    const tokenring_ring *ring;
    const tokenring_placement *pl;
    const int64_t *sorted; /* baseline: sorted tokens */
    const uint32_t *flat;  /* baseline: [ntok][width] replicas */
    const int64_t *eyt;    /* baseline: tokens in Eytzinger order, [1..ntok] */
    const uint32_t *eflat; /* baseline: rows in Eytzinger order, row 0 = range 0's */
    const stree *st;       /* baseline: S-tree over the tokens */
    size_t ntok;
    uint32_t width;
    const uint8_t *keys; /* nkeys * klen bytes */
    const uint64_t *offs;
    const int64_t *ktok; /* each key's token */
    uint32_t *sets;      /* scratch for the batched route */
    size_t nkeys, klen;
    const uint32_t *btab; /* floor: a radix table as large as the library's index */
    unsigned bshift;
} work;

#define NOINLINE __attribute__((noinline))

static NOINLINE uint64_t w_owner(const work *w)
{
    uint64_t acc = 0;
    for (size_t i = 0; i < w->nkeys; i++)
        acc += tokenring_ring_search(w->ring, w->ktok[i]);
    return acc;
}

static NOINLINE uint64_t w_owner_base(const work *w)
{
    uint64_t acc = 0;
    for (size_t i = 0; i < w->nkeys; i++)
        acc += lower_bound(w->sorted, w->ntok, w->ktok[i]);
    return acc;
}

static NOINLINE uint64_t w_owner_batch(const work *w)
{
    uint64_t acc = 0;
    tokenring_ring_search_batch(w->sets, w->ring, w->ktok, w->nkeys);
    for (size_t i = 0; i < w->nkeys; i++)
        acc += w->sets[i];
    return acc;
}

static NOINLINE uint64_t w_route(const work *w)
{
    uint64_t acc = 0;
    for (size_t i = 0; i < w->nkeys; i++) {
        tokenring_replicas rr;
        tokenring_placement_replicas_for_key(&rr, w->pl, w->keys + i * w->klen, w->klen);
        for (uint32_t k = 0; k < rr.count; k++)
            acc += rr.nodes[k];
    }
    return acc;
}

/* The library's batch: tokenring_placement_route_keys_replicas over chunks of RCHUNK keys,
 * each chunk's nodes read right after its call (the rows it prefetched are still in the
 * cache): what a proxy routing a batch of requests does. */
enum { RCHUNK = 256 };
static NOINLINE uint64_t w_route_batch(const work *w)
{
    uint64_t acc = 0;
    tokenring_replicas rr[RCHUNK];
    for (size_t g = 0; g < w->nkeys; g += RCHUNK) {
        size_t m = w->nkeys - g < RCHUNK ? w->nkeys - g : RCHUNK;
        tokenring_placement_route_keys_replicas(rr, NULL, w->pl, w->keys, w->offs + g, m);
        for (size_t i = 0; i < m; i++)
            for (uint32_t k = 0; k < rr[i].count; k++)
                acc += rr[i].nodes[k];
    }
    return acc;
}

/* The batch of 1.0: tokenring_placement_route_keys over all the keys (set ids), then
 * tokenring_placement_set per key (a second call per key; its rows read a pass later). */
static NOINLINE uint64_t w_route_sets(const work *w)
{
    uint64_t acc = 0;
    tokenring_placement_route_keys(NULL, w->sets, w->pl, w->keys, w->offs, w->nkeys);
    for (size_t i = 0; i < w->nkeys; i++) {
        tokenring_replicas rr;
        tokenring_placement_set(&rr, w->pl, w->sets[i]);
        for (uint32_t k = 0; k < rr.count; k++)
            acc += rr.nodes[k];
    }
    return acc;
}

static NOINLINE uint64_t w_route_base(const work *w)
{
    uint64_t acc = 0;
    for (size_t i = 0; i < w->nkeys; i++) {
        int64_t t = tokenring_token(w->keys + i * w->klen, w->klen);
        const uint32_t *rp = w->flat + lower_bound(w->sorted, w->ntok, t) * w->width;
        for (uint32_t k = 0; k < w->width; k++)
            acc += rp[k];
    }
    return acc;
}

static NOINLINE uint64_t w_owner_bf(const work *w)
{
    uint64_t acc = 0;
    for (size_t i = 0; i < w->nkeys; i++)
        acc += lower_bound_bf(w->sorted, w->ntok, w->ktok[i]);
    return acc;
}

static NOINLINE uint64_t w_route_bf(const work *w)
{
    uint64_t acc = 0;
    for (size_t i = 0; i < w->nkeys; i++) {
        int64_t t = tokenring_token(w->keys + i * w->klen, w->klen);
        const uint32_t *rp = w->flat + lower_bound_bf(w->sorted, w->ntok, t) * w->width;
        for (uint32_t k = 0; k < w->width; k++)
            acc += rp[k];
    }
    return acc;
}

static NOINLINE uint64_t w_route_eyt(const work *w)
{
    uint64_t acc = 0;
    for (size_t i = 0; i < w->nkeys; i++) {
        int64_t t = tokenring_token(w->keys + i * w->klen, w->klen);
        const uint32_t *rp = w->eflat + eytzinger_search(w->eyt, w->ntok, t) * w->width;
        for (uint32_t k = 0; k < w->width; k++)
            acc += rp[k];
    }
    return acc;
}

static NOINLINE uint64_t w_route_stree(const work *w)
{
    uint64_t acc = 0;
    for (size_t i = 0; i < w->nkeys; i++) {
        int64_t t = tokenring_token(w->keys + i * w->klen, w->klen);
        const uint32_t *rp = w->flat + stree_search(w->st, w->ntok, t) * w->width;
        for (uint32_t k = 0; k < w->width; k++)
            acc += rp[k];
    }
    return acc;
}

static NOINLINE uint64_t w_route_stree_batch(const work *w)
{
    enum { G = 16 };
    uint64_t acc = 0;
    const stree *st = w->st;
    for (size_t g = 0; g < w->nkeys; g += G) {
        size_t m = w->nkeys - g < G ? w->nkeys - g : G;
        int64_t t[G];
        size_t k[G], res[G];
        tokenring_tokens(t, w->keys, w->offs + g, m);
        for (size_t j = 0; j < m; j++) {
            k[j] = 0;
            res[j] = w->ntok;
        }
        for (int live = 1; live;) {
            live = 0;
            for (size_t j = 0; j < m; j++) {
                if (k[j] < st->nblocks) {
                    unsigned i = stree_rank(st->key + k[j] * SB, t[j]);
                    if (i < SB)
                        res[j] = st->idx[k[j] * SB + i];
                    k[j] = k[j] * (SB + 1) + i + 1;
                    if (k[j] < st->nblocks)
                        __builtin_prefetch(st->key + k[j] * SB);
                    live = 1;
                }
            }
        }
        for (size_t j = 0; j < m; j++) {
            const uint32_t *rp = w->flat + (res[j] == w->ntok ? 0 : res[j]) * w->width;
            for (uint32_t q = 0; q < w->width; q++)
                acc += rp[q];
        }
    }
    return acc;
}

/* The batched baselines: 16 keys at a time, hashed with the library's batch call
 * (tokenring_tokens: what a batch's author calls, and eight keys at a time where the
 * processor has AVX-512, as the library's own batch), then searched level by level across
 * the group (every key's step k before any key's step k + 1), so the misses of 16 keys
 * overlap, as the library's batch does; then each row is read. */
enum { BGROUP = 16 };
static NOINLINE uint64_t w_route_bf_batch(const work *w)
{
    uint64_t acc = 0;
    for (size_t g = 0; g < w->nkeys; g += BGROUP) {
        size_t m = w->nkeys - g < BGROUP ? w->nkeys - g : BGROUP;
        int64_t t[BGROUP];
        const int64_t *base[BGROUP];
        tokenring_tokens(t, w->keys, w->offs + g, m);
        for (size_t j = 0; j < m; j++) {
            base[j] = w->sorted;
        }
        size_t len = w->ntok;
        while (len > 1) {
            size_t half = len / 2;
            len -= half;
            for (size_t j = 0; j < m; j++) {
                __builtin_prefetch(&base[j][len / 2 - 1]);
                __builtin_prefetch(&base[j][half + len / 2 - 1]);
                base[j] += (size_t)(base[j][half - 1] < t[j]) * half;
            }
        }
        for (size_t j = 0; j < m; j++) {
            size_t r = (size_t)(base[j] - w->sorted) + (size_t)(*base[j] < t[j]);
            const uint32_t *rp = w->flat + (r == w->ntok ? 0 : r) * w->width;
            for (uint32_t k = 0; k < w->width; k++)
                acc += rp[k];
        }
    }
    return acc;
}

static NOINLINE uint64_t w_route_eyt_batch(const work *w)
{
    uint64_t acc = 0;
    size_t n = w->ntok;
    for (size_t g = 0; g < w->nkeys; g += BGROUP) {
        size_t m = w->nkeys - g < BGROUP ? w->nkeys - g : BGROUP;
        int64_t t[BGROUP];
        size_t k[BGROUP];
        tokenring_tokens(t, w->keys, w->offs + g, m);
        for (size_t j = 0; j < m; j++) {
            k[j] = 1;
        }
        for (int live = 1; live;) {
            live = 0;
            for (size_t j = 0; j < m; j++) {
                if (k[j] <= n) {
                    __builtin_prefetch((const void *)((uintptr_t)w->eyt + k[j] * 64));
                    k[j] = 2 * k[j] + (size_t)(w->eyt[k[j]] < t[j]);
                    live = 1;
                }
            }
        }
        for (size_t j = 0; j < m; j++) {
            size_t e = k[j] >> __builtin_ffsll((long long)~k[j]);
            const uint32_t *rp = w->eflat + e * w->width;
            for (uint32_t q = 0; q < w->width; q++)
                acc += rp[q];
        }
    }
    return acc;
}

/* The memory floor of a single-key lookup: hash the key, then read one row of the flat
 * replica array at a position taken from the token (no search at all). Every design that
 * keeps a ring's rows in an array larger than the caches pays at least this per key. */
static NOINLINE uint64_t w_route_floor(const work *w)
{
    uint64_t acc = 0;
    for (size_t i = 0; i < w->nkeys; i++) {
        uint64_t t = (uint64_t)tokenring_token(w->keys + i * w->klen, w->klen);
        __extension__ unsigned __int128 wide = (unsigned __int128)t * w->ntok;
        size_t r = (size_t)(wide >> 64); /* uniform over the rows, without a division */
        const uint32_t *rp = w->flat + r * w->width;
        for (uint32_t k = 0; k < w->width; k++)
            acc += rp[k];
    }
    return acc;
}

/* The floor with one token read: the same, plus one read of the sorted tokens at that
 * position, issued next to the row's (both addresses come from the hash; neither waits on
 * the other). An exact lookup on a ring whose tokens are past the caches reads at least one
 * token line and one row: this is what it cannot go below. */
static NOINLINE uint64_t w_route_floor_tok(const work *w)
{
    uint64_t acc = 0;
    for (size_t i = 0; i < w->nkeys; i++) {
        uint64_t t = (uint64_t)tokenring_token(w->keys + i * w->klen, w->klen);
        __extension__ unsigned __int128 wide = (unsigned __int128)t * w->ntok;
        size_t r = (size_t)(wide >> 64);
        acc += (uint64_t)w->sorted[r];
        const uint32_t *rp = w->flat + r * w->width;
        for (uint32_t k = 0; k < w->width; k++)
            acc += rp[k];
    }
    return acc;
}

/* The floor with one dependent read: the row's position read from a radix table on the
 * token's top bits (as large as the library's index: 2 bytes per token), then the row: a
 * design whose row address waits on one table read (no search) pays this. */
static NOINLINE uint64_t w_route_floor_dep(const work *w)
{
    uint64_t acc = 0;
    for (size_t i = 0; i < w->nkeys; i++) {
        uint64_t t = (uint64_t)tokenring_token(w->keys + i * w->klen, w->klen);
        const uint32_t *rp = w->flat + (size_t)w->btab[(t ^ (UINT64_C(1) << 63)) >> w->bshift] *
                                           w->width;
        for (uint32_t k = 0; k < w->width; k++)
            acc += rp[k];
    }
    return acc;
}

/* The batched floor: 16 keys hashed (the library's batch hash, as the batched baselines)
 * and their rows prefetched, then read (no search): what a batch that reads each key's
 * row cannot go below. */
static NOINLINE uint64_t w_route_floor_batch(const work *w)
{
    uint64_t acc = 0;
    for (size_t g = 0; g < w->nkeys; g += BGROUP) {
        size_t m = w->nkeys - g < BGROUP ? w->nkeys - g : BGROUP;
        const uint32_t *rp[BGROUP];
        int64_t tk[BGROUP];
        tokenring_tokens(tk, w->keys, w->offs + g, m);
        for (size_t j = 0; j < m; j++) {
            __extension__ unsigned __int128 wide = (unsigned __int128)(uint64_t)tk[j] * w->ntok;
            rp[j] = w->flat + (size_t)(wide >> 64) * w->width;
            __builtin_prefetch(rp[j]);
        }
        for (size_t j = 0; j < m; j++)
            for (uint32_t k = 0; k < w->width; k++)
                acc += rp[j][k];
    }
    return acc;
}

static NOINLINE tokenring_ring *w_ring_build(const tokenring_topology *topo)
{
    tokenring_ring *ring = NULL;
    tokenring_error err;
    must(tokenring_ring_build(&ring, topo, &err), &err);
    return ring;
}

static NOINLINE tokenring_placement *w_map_build(const tokenring_ring *ring,
                                                 const tokenring_replication *repl)
{
    tokenring_placement *pl = NULL;
    tokenring_error err;
    must(tokenring_placement_build(&pl, ring, repl, 0, &err), &err);
    return pl;
}

static NOINLINE tokenring_placement *w_map_update_build(const tokenring_placement *prev,
                                                        const tokenring_ring *ring)
{
    tokenring_placement *pl = NULL;
    tokenring_error err;
    must(tokenring_placement_update(&pl, prev, ring, &err), &err);
    return pl;
}

static int callgrind; /* --callgrind: run each workload once, no timing */
static char baseline_rows[8][768]; /* the baselines table, printed after the rings table */
static int baseline_count;

static void bench_ring(const ring_spec *spec)
{
    tokenring_allocator counting = { count_malloc, count_realloc, count_free, NULL };
    if (tokenring_set_allocator(&counting) != TOKENRING_OK) { /* E_BUSY: objects alive */
        fprintf(stderr, "bench-ring: the counting allocator was refused\n");
        abort();
    }
    live_bytes = 0;
    tokenring_topology *topo = make_topology(spec);
    tokenring_replication *repl = NULL;
    tokenring_error err;
    must(tokenring_replication_parse(&repl, spec->replication, strlen(spec->replication), &err),
         &err);
    /* The same topology with one more node (dc1, rack1): the rebuild after a join. */
    tokenring_topology *joined = NULL;
    tokenring_topology_clone(&joined, topo);
    {
        int64_t *tok = malloc((size_t)spec->tokens_per_node * sizeof *tok);
        for (int k = 0; k < spec->tokens_per_node; k++)
            tok[k] = (int64_t)next_rand();
        must(tokenring_topology_add_node(joined, "10.255.255.1", "dc1", "rack1", tok,
                                         (size_t)spec->tokens_per_node, &err),
             &err);
        free(tok);
    }

    /* Builds: ring, placement (memory measured on the last one); then rebuilding both
     * after one node joins. */
    int reps = callgrind ? 1 : REPEATS;
    double ring_ms[REPEATS], map_ms[REPEATS], join_ms[REPEATS];
    tokenring_ring *ring = NULL;
    tokenring_placement *pl = NULL;
    long long ring_bytes = 0, map_bytes = 0;
    for (int r = 0; r < reps; r++) {
        tokenring_placement_free(pl);
        tokenring_ring_free(ring);
        long long before = live_bytes;
        double t0 = now_ns();
        ring = w_ring_build(topo);
        double t1 = now_ns();
        long long mid = live_bytes;
        pl = w_map_build(ring, repl);
        double t2 = now_ns();
        ring_bytes = mid - before;
        map_bytes = live_bytes - mid;
        ring_ms[r] = (t1 - t0) / 1e6;
        map_ms[r] = (t2 - t1) / 1e6;
    }
    /* After the join: the new ring, then its replica map updated from the previous one
     * (tokenring_placement_update) and, for comparison, built from scratch. The update is
     * checked to equal the full build (set count) so a wrong fast path cannot look fast. */
    double join_ring_ms[REPEATS], upd_ms[REPEATS], join_map_ms[REPEATS], upd_x[REPEATS];
    for (int r = 0; r < reps; r++) {
        double t0 = now_ns();
        tokenring_ring *r2 = w_ring_build(joined);
        double t1 = now_ns();
        tokenring_placement *p2 = w_map_update_build(pl, r2);
        double t2 = now_ns();
        tokenring_placement *p3 = w_map_build(r2, repl);
        double t3 = now_ns();
        if (tokenring_placement_set_count(p2) != tokenring_placement_set_count(p3))
            abort();
        join_ring_ms[r] = (t1 - t0) / 1e6;
        upd_ms[r] = (t2 - t1) / 1e6;
        join_map_ms[r] = (t3 - t2) / 1e6;
        upd_x[r] = (t3 - t2) / (t2 - t1);
        join_ms[r] = join_ring_ms[r] + upd_ms[r];
        tokenring_placement_free(p3);
        tokenring_placement_free(p2);
        tokenring_ring_free(r2);
    }

    size_t ntok = 0;
    const int64_t *tokens = tokenring_ring_tokens(ring, &ntok);
    size_t nsets = tokenring_placement_set_count(pl);

    /* Baseline flat replica array. */
    uint32_t width = 0;
    for (size_t i = 0; i < ntok; i++) {
        tokenring_replicas rr;
        tokenring_placement_range_replicas(&rr, pl, i);
        if (rr.count > width)
            width = rr.count;
    }
    uint32_t *flat = calloc(ntok * (width ? width : 1), sizeof *flat);
    for (size_t i = 0; i < ntok; i++) {
        tokenring_replicas rr;
        tokenring_placement_range_replicas(&rr, pl, i);
        memcpy(flat + i * width, rr.nodes, rr.count * sizeof *flat);
    }
    int64_t *sorted = malloc(ntok * sizeof *sorted);
    memcpy(sorted, tokens, ntok * sizeof *sorted);

    /* Fixed keys: 100,000 random 16-byte keys (10,000 under callgrind). */
    size_t nkeys = callgrind ? CG_KEYS : quick ? 20000 : 100000, klen = 16;
    uint8_t *keys = malloc(nkeys * klen);
    uint64_t *offs = malloc((nkeys + 1) * sizeof *offs);
    int64_t *ktok = malloc(nkeys * sizeof *ktok);
    uint32_t *sets = malloc(nkeys * sizeof *sets);
    for (size_t i = 0; i < nkeys * klen; i++)
        keys[i] = (uint8_t)next_rand();
    for (size_t i = 0; i <= nkeys; i++)
        offs[i] = i * klen;
    for (size_t i = 0; i < nkeys; i++)
        ktok[i] = tokenring_token(keys + i * klen, klen);
    /* Eytzinger copies of the tokens and rows (64-byte aligned: see eytzinger_search) */
    int64_t *eyt = aligned_alloc(64, ((ntok + 1) * sizeof *eyt + 63) / 64 * 64);
    uint32_t *epos = malloc((ntok + 1) * sizeof *epos);
    uint32_t *eflat = malloc((ntok + 1) * (width ? width : 1) * sizeof *eflat);
    eytzinger_fill(eyt, epos, sorted, ntok, 0, 1);
    eyt[0] = 0;
    memcpy(eflat, flat, width * sizeof *eflat); /* position 0: past the largest, range 0 */
    for (size_t k = 1; k <= ntok; k++)
        memcpy(eflat + k * width, flat + (size_t)epos[k] * width, width * sizeof *eflat);
    free(epos);
    stree st;
    st.nblocks = (ntok + SB - 1) / SB;
    st.key = aligned_alloc(64, st.nblocks * SB * sizeof *st.key);
    st.idx = malloc(st.nblocks * SB * sizeof *st.idx);
    stree_fill(&st, sorted, ntok, 0, 0);
    /* the dependent floor's table: 2^bits entries with bits = floor(log2 ntok) - 1, as the
     * library's index (lib/ring/index.c), each the first token of its bucket */
    unsigned bbits = 1;
    while (bbits < 24 && ((size_t)1 << (bbits + 2)) <= ntok)
        bbits++;
    uint32_t *btab = malloc(((size_t)1 << bbits) * sizeof *btab);
    for (size_t b = 0, i = 0; b < ((size_t)1 << bbits); b++) {
        while (i < ntok && (((uint64_t)sorted[i] ^ (UINT64_C(1) << 63)) >> (64 - bbits)) < b)
            i++;
        btab[b] = (uint32_t)(i < ntok ? i : 0);
    }
    work w = { ring, pl, sorted, flat, eyt, eflat, &st, ntok, width, keys, offs, ktok, sets,
               nkeys, klen, btab, 64 - bbits };
    /* the baselines must give the library's answers: checked on every key before timing
     * (not under callgrind, which counts each workload's one call) */
    for (size_t i = 0; !callgrind && i < nkeys; i++) {
        size_t r = lower_bound(sorted, ntok, ktok[i]);
        size_t e = eytzinger_search(eyt, ntok, ktok[i]);
        if (lower_bound_bf(sorted, ntok, ktok[i]) != r || r != tokenring_ring_search(ring, ktok[i]) ||
            stree_search(&st, ntok, ktok[i]) != r ||
            (e == 0 ? r != 0 : sorted[r] != eyt[e])) {
            fprintf(stderr, "bench-ring: a baseline search disagrees with the library\n");
            abort();
        }
    }
    if (!callgrind && (w_route_bf(&w) != w_route_base(&w) || w_route_eyt(&w) != w_route_base(&w) ||
        w_route_bf_batch(&w) != w_route_base(&w) || w_route_eyt_batch(&w) != w_route_base(&w) ||
        w_route_stree(&w) != w_route_base(&w) || w_route_stree_batch(&w) != w_route_base(&w) ||
        w_route(&w) != w_route_base(&w) || w_route_batch(&w) != w_route_base(&w) ||
        w_route_sets(&w) != w_route_base(&w))) {
        fprintf(stderr, "bench-ring: a baseline route disagrees with the library\n");
        abort();
    }

    double own[REPEATS], own_batch[REPEATS], own_base[REPEATS], rep[REPEATS], rep_base[REPEATS],
        rep_batch[REPEATS], own_x[REPEATS], rep_x[REPEATS], batch_x[REPEATS], floor_ns[REPEATS],
        floor_x[REPEATS];
    double b_bf[REPEATS], b_eyt[REPEATS], b_lib[REPEATS], b_bfb[REPEATS], b_eytb[REPEATS],
        b_libb[REPEATS], b_floor[REPEATS], b_obf[REPEATS], x_single[REPEATS], x_batch[REPEATS],
        x_text[REPEATS], f_single[REPEATS], f_batch[REPEATS], b_st[REPEATS], b_stb[REPEATS],
        b_ftok[REPEATS], b_fbatch[REPEATS], f_tok[REPEATS], f_bb[REPEATS], b_fdep[REPEATS],
        f_dep[REPEATS], b_sets[REPEATS];
    for (int r = 0; r < reps; r++) {
        uint64_t acc = 0;
        double t0 = now_ns();
        acc += w_owner(&w);
        double t1 = now_ns();
        acc += w_owner_base(&w);
        double t2 = now_ns();
        acc += w_route(&w);
        double t3 = now_ns();
        acc += w_route_base(&w);
        double t4 = now_ns();
        acc += w_route_batch(&w);
        double t5 = now_ns();
        acc += w_owner_batch(&w);
        double t6 = now_ns();
        acc += w_route_floor(&w);
        double t7 = now_ns();
        /* the stronger baselines, then the library's two routes again right after them
         * (the ratios of the baselines table pair each side with its neighbour in time) */
        acc += w_route_bf(&w);
        double u1 = now_ns();
        acc += w_route_eyt(&w);
        double u2 = now_ns();
        if (!callgrind) /* callgrind counts one call each */
            acc += w_route(&w);
        double u3 = now_ns();
        acc += w_route_bf_batch(&w);
        double u4 = now_ns();
        acc += w_route_eyt_batch(&w);
        double u5 = now_ns();
        if (!callgrind) /* callgrind counts one call each */
            acc += w_route_batch(&w);
        double u6 = now_ns();
        if (!callgrind) /* callgrind counts one call each */
            acc += w_route_floor(&w);
        double u7 = now_ns();
        acc += w_owner_bf(&w);
        double u8 = now_ns();
        acc += w_route_stree(&w);
        double u9 = now_ns();
        acc += w_route_stree_batch(&w);
        double u10 = now_ns();
        acc += w_route_floor_tok(&w);
        double u11 = now_ns();
        if (!callgrind) /* callgrind counts one call each */
            acc += w_route(&w);
        double u12 = now_ns();
        acc += w_route_floor_batch(&w);
        double u13 = now_ns();
        if (!callgrind) /* callgrind counts one call each */
            acc += w_route_batch(&w);
        double u14 = now_ns();
        acc += w_route_floor_dep(&w);
        double u15 = now_ns();
        if (!callgrind) /* callgrind counts one call each */
            acc += w_route(&w);
        double u16 = now_ns();
        acc += w_route_sets(&w);
        double u17 = now_ns();
        double kn = (double)nkeys;
        b_bf[r] = (u1 - t7) / kn;
        b_eyt[r] = (u2 - u1) / kn;
        b_lib[r] = (u3 - u2) / kn;
        b_bfb[r] = (u4 - u3) / kn;
        b_eytb[r] = (u5 - u4) / kn;
        b_libb[r] = (u6 - u5) / kn;
        b_floor[r] = (u7 - u6) / kn;
        b_obf[r] = (u8 - u7) / kn;
        b_st[r] = (u9 - u8) / kn;
        b_stb[r] = (u10 - u9) / kn;
        b_ftok[r] = (u11 - u10) / kn;
        f_tok[r] = ((u12 - u11) / kn) / b_ftok[r]; /* single, next to it in time */
        b_fbatch[r] = (u13 - u12) / kn;
        f_bb[r] = ((u14 - u13) / kn) / b_fbatch[r]; /* batched, next to it in time */
        b_fdep[r] = (u15 - u14) / kn;
        f_dep[r] = ((u16 - u15) / kn) / b_fdep[r]; /* single, next to it in time */
        b_sets[r] = (u17 - u16) / kn;
        double single_best = b_bf[r] < b_eyt[r] ? b_bf[r] : b_eyt[r];
        if (b_st[r] < single_best)
            single_best = b_st[r];
        double batch_best = b_bfb[r] < b_eytb[r] ? b_bfb[r] : b_eytb[r];
        if (b_stb[r] < batch_best)
            batch_best = b_stb[r];
        x_single[r] = single_best / b_lib[r];
        x_batch[r] = batch_best / b_libb[r];
        x_text[r] = ((t4 - t3) / kn) / b_lib[r];
        f_single[r] = b_lib[r] / b_floor[r];
        f_batch[r] = b_libb[r] / b_floor[r];
        floor_ns[r] = (t7 - t6) / (double)nkeys;
        floor_x[r] = ((t4 - t3) / (double)nkeys) / floor_ns[r];
        own_batch[r] = (t6 - t5) / (double)nkeys;
        sink += acc;
        own[r] = (t1 - t0) / (double)nkeys;
        own_base[r] = (t2 - t1) / (double)nkeys;
        rep[r] = (t3 - t2) / (double)nkeys;
        rep_base[r] = (t4 - t3) / (double)nkeys;
        rep_batch[r] = (t5 - t4) / (double)nkeys;
        own_x[r] = own_base[r] / own[r];
        rep_x[r] = rep_base[r] / rep[r];
        batch_x[r] = rep_base[r] / rep_batch[r];
    }
    if (!callgrind) {
        /* Speed-ups: medians of the per-pass ratios (both sides of a ratio ran
         * back to back on the same keys). */
        printf("| %s | %zu | %u | %.1f | %.1f | %.1f | %.2fx | %.1f | %.1f | %.1f | %.2fx | %.2fx | "
               "%.2f | %.2f | %.2f | %.2f | %.1fx | %.2f | %zu | %.1f | %.1f | %.1f | %.1f | "
               "%.2fx |\n",
               spec->name, ntok, width, median(own, reps), median(own_batch, reps),
               median(own_base, reps),
               median(own_x, reps), median(rep, reps), median(rep_batch, reps),
               median(rep_base, reps), median(rep_x, reps), median(batch_x, reps),
               median(ring_ms, reps), median(map_ms, reps), median(join_map_ms, reps),
               median(upd_ms, reps), median(upd_x, reps), median(join_ms, reps), nsets,
               (double)ring_bytes / (double)ntok, (double)map_bytes / (double)ntok,
               (double)(ring_bytes + map_bytes) / (double)ntok, median(floor_ns, reps),
               median(floor_x, reps));
        snprintf(baseline_rows[baseline_count++], sizeof baseline_rows[0],
                 "| %s | %.1f | %.1f | %.1f | %.1f | %.1f | **%.2fx** | %.2fx | %.1f | %.1f | %.1f | "
                 "%.1f | **%.2fx** | %.1f | %.2f | %.2f | %.1f | %.1f | %.1f | %.2f | %.1f | "
                 "%.2f | %.1f | %.2f | %.1f |",
                 spec->name, median(b_lib, reps), median(b_bf, reps), median(b_eyt, reps),
                 median(b_st, reps), median(rep_base, reps), median(x_single, reps),
                 median(x_text, reps), median(b_libb, reps), median(b_bfb, reps),
                 median(b_eytb, reps), median(b_stb, reps),
                 median(x_batch, reps), median(b_floor, reps), median(f_single, reps),
                 median(f_batch, reps), median(b_obf, reps), median(own_base, reps),
                 median(b_ftok, reps), median(f_tok, reps), median(b_fbatch, reps),
                 median(f_bb, reps), median(b_fdep, reps), median(f_dep, reps),
                 median(b_sets, reps));
    } else {
        printf("%s: %zu tokens, %zu keys per lookup workload\n", spec->name, ntok, nkeys);
    }

    free(keys);
    free(offs);
    free(ktok);
    free(sets);
    free(flat);
    free(btab);
    free(sorted);
    free(eyt);
    free(eflat);
    free(st.key);
    free(st.idx);
    tokenring_placement_free(pl);
    tokenring_ring_free(ring);
    tokenring_replication_free(repl);
    tokenring_topology_free(joined);
    tokenring_topology_free(topo);
    if (tokenring_set_allocator(NULL) != TOKENRING_OK) { /* E_BUSY: a block was not freed */
        fprintf(stderr, "bench-ring: the library still holds memory after freeing everything\n");
        abort();
    }
}

/* Hashing workloads for callgrind: one function per key size and side. */
/* Hashing workloads for callgrind (one key size per process: see main). */
static NOINLINE uint64_t w_hash(const uint8_t *k, size_t len, size_t count)
{
    uint64_t acc = 0;
    for (size_t i = 0; i < count; i++)
        acc += (uint64_t)tokenring_token(k + i * len, len);
    return acc;
}

static NOINLINE uint64_t w_ref(const uint8_t *k, size_t len, size_t count)
{
    uint64_t acc = 0;
    for (size_t i = 0; i < count; i++)
        acc += ref_murmur3_h1(k + i * len, len);
    return acc;
}

static NOINLINE uint64_t w_hash_batch(const uint8_t *k, const uint64_t *offs, int64_t *out,
                                      size_t count)
{
    tokenring_tokens(out, k, offs, count);
    return (uint64_t)out[count / 2];
}

static void callgrind_hash(size_t len)
{
    uint8_t *keys = malloc(CG_KEYS * len);
    uint64_t *offs = malloc((CG_KEYS + 1) * sizeof *offs);
    int64_t *toks = malloc(CG_KEYS * sizeof *toks);
    for (size_t i = 0; i < CG_KEYS * len; i++)
        keys[i] = (uint8_t)next_rand();
    for (size_t i = 0; i <= CG_KEYS; i++)
        offs[i] = i * len;
    sink += w_hash(keys, len, CG_KEYS) + w_ref(keys, len, CG_KEYS);
    sink += w_hash_batch(keys, offs, toks, CG_KEYS);
    free(offs);
    free(toks);
    printf("hash%zu: %d keys per workload\n", len, CG_KEYS);
    free(keys);
}

int main(int argc, char **argv)
{
    const char *only = NULL, *ring_only = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            quick = 1;
        } else if (strcmp(argv[i], "--ring") == 0 && i + 1 < argc) {
            ring_only = argv[++i];
        } else if (strcmp(argv[i], "--callgrind") == 0 && i + 1 < argc) {
            callgrind = 1;
            only = argv[++i];
        } else {
            fprintf(stderr, "usage: bench-ring [--quick] [--ring 6x8|96x256|1000x16|1000x256] "
                            "[--callgrind hashN|6x8|96x256|1000x16|1000x256]\n");
            return 2;
        }
    }
    static const ring_spec rings[] = {
        { "6x8, 1 DC, rf 3", 6, 8, 1, 1, "dc1=3" },
        { "96x256, 3 DCs x 3 racks, rf 3 each", 96, 256, 3, 3, "dc1=3,dc2=3,dc3=3" },
        { "1000x16, 3 DCs x 3 racks, rf 3 each", 1000, 16, 3, 3, "dc1=3,dc2=3,dc3=3" },
        { "1000x256, 3 DCs x 3 racks, rf 3 each", 1000, 256, 3, 3, "dc1=3,dc2=3,dc3=3" },
    };
    if (callgrind) {
        /* One pass of each workload, no timing: for valgrind --tool=callgrind (see
         * bench/callgrind.sh, which divides each w_* function's inclusive Ir by the keys). */
        if (strncmp(only, "hash", 4) == 0 && atoi(only + 4) > 0) {
            callgrind_hash((size_t)atoi(only + 4));
            return 0;
        }
        for (size_t i = 0; i < sizeof rings / sizeof rings[0]; i++) {
            size_t len = strlen(only);
            if (strncmp(rings[i].name, only, len) == 0 && rings[i].name[len] == ',') {
                bench_ring(&rings[i]);
                return 0;
            }
        }
        fprintf(stderr, "bench-ring: unknown workload set '%s'\n", only);
        return 2;
    }
    printf("# libtokenring %s routing benchmark%s\n", tokenring_version_string(),
           quick ? " (quick)" : "");
    if (!ring_only)
        bench_hash();
    printf("\n## Rings (ns per key over %s fixed 16-byte keys; builds in ms; medians of %d "
           "passes; speed-ups are medians of per-pass ratios)\n\n",
           quick ? "20,000" : "100,000", REPEATS);
    printf("| ring | tokens | replicas | owner ns | owner batched ns | owner ns (lower_bound) | "
           "owner speed-up | "
           "hash+replicas ns | batched ns | baseline ns | speed-up | batched speed-up | "
           "ring build ms | replica map ms | map after join: full build ms | map after join: "
           "update ms | update speed-up | rebuild after join ms (ring + update) | distinct sets | "
           "ring B/token | map B/token | total B/token | floor ns | floor speed-up |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
           "---:|---:|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < sizeof rings / sizeof rings[0]; i++) {
        if (quick && rings[i].nodes > 100)
            continue;
        if (ring_only && !(strncmp(rings[i].name, ring_only, strlen(ring_only)) == 0 &&
                           rings[i].name[strlen(ring_only)] == ','))
            continue;
        bench_ring(&rings[i]);
    }
    printf("\n## Against the strongest baseline (issue 34; hash + replicas, ns per key, same keys, "
           "same pass; speed-ups are medians of per-pass ratios against the fastest of the three "
           "strong baselines)\n\n");
    printf("| ring | library single | branchless lower_bound + prefetch | Eytzinger + prefetch | "
           "S-tree (B = 8) | textbook lower_bound | **single speed-up vs strongest** | "
           "single vs textbook | library batched (route_keys_replicas, 256 keys a call) | branchless batched | Eytzinger batched | "
           "S-tree batched | "
           "**batched speed-up vs strongest** | floor ns | single / floor | batched / floor | "
           "owner ns (branchless) | owner ns (textbook) | floor + one token read ns | "
           "single / (floor + token) | batched floor ns | batched / batched floor | "
           "floor, row after one table read ns | single / that floor | "
           "route_keys + _set (1.0's batch) ns |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
           "---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int i = 0; i < baseline_count; i++)
        printf("%s\n", baseline_rows[i]);
    return 0;
}
