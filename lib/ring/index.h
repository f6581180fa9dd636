/* SPDX-License-Identifier: Apache-2.0 */
/* The ring's search index: a pure function of the sorted tokens.
 *
 * A radix table on the top bits of the (order-preserving, unsigned) token: bucket b holds
 * the index of the first ring token whose top bits are >= b, so the answer for a token
 * lies between first[b] and first[b + 1]. With 2^bits about a quarter to half the number
 * of tokens, a bucket holds two to four tokens on average and a lookup is one table read
 * plus eight branch-free comparisons on neighbouring tokens; crowded buckets (uneven
 * layouts) first narrow by binary search, so the worst case stays O(log n). With
 * bits = floor(log2 n) - 1 (at least 1), memory is (2^bits + 1) * 4 bytes: at most 2 bytes
 * per token (plus 12 on tiny rings). A ring of at most 64 tokens also has a 256-byte table
 * on the token's top 8 bits (tr_index_search_tiny: one read and one compare). Batches on
 * larger rings, where the processor has AVX2, count a bucket's eight tokens four at a
 * time (tr_index_search_small_at). */
#ifndef TOKENRING_INDEX_H
#define TOKENRING_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"

typedef struct tr_index {
    const int64_t *tokens; /* borrowed: the ring's sorted tokens */
    uint32_t *first;       /* 2^bits + 1 entries */
    uint32_t count;        /* number of tokens (>= 1) */
    unsigned shift;        /* 64 - bits */
    /* rings of at most TR_INDEX_TINY_MAX tokens: 2^TR_INDEX_TINY_BITS entries for
     * tr_index_search_tiny (else NULL) */
    uint8_t *tiny;
    /* at least 8 tokens and a processor with AVX2: tr_index_search_small_at may be used */
    bool avx2;
} tr_index;

/* Rings of at most 64 tokens (one to eight cache lines, in L1): a lookup is instructions,
 * not memory, and a 256-byte table on the token's top 8 bits answers most keys with one
 * read and one compare. */
#define TR_INDEX_TINY_MAX 64
#define TR_INDEX_TINY_BITS 8

/* Builds the index over count >= 1 strictly ascending tokens (borrowed: they must outlive
 * the index). Returns TOKENRING_OK or TOKENRING_E_NOMEM (idx untouched). */
TR_HIDDEN int tr_index_build(tr_index *idx, const int64_t *tokens, size_t count);
TR_HIDDEN void tr_index_free(tr_index *idx);
TR_HIDDEN size_t tr_index_bytes(const tr_index *idx);

/* The bucket entry that a search for t reads first: batched callers prefetch it (and then
 * idx->tokens + *entry) for many tokens before searching any of them. */
static inline const uint32_t *tr_index_bucket(const tr_index *idx, int64_t t)
{
    /* shift = 64 - bits with 1 <= bits <= 24: always a valid shift count */
    uint64_t u = (uint64_t)t ^ (UINT64_C(1) << 63);
    return idx->first + (u >> idx->shift);
}

#if defined(__GNUC__) || defined(__clang__)
#define TR_PREFETCH(p) __builtin_prefetch(p)
#else
#define TR_PREFETCH(p) ((void)(p))
#endif

/* Index of the first token >= t, wrapping to 0 past the largest (Cassandra's
 * firstTokenIndex), by the radix buckets (any ring; tr_index_search takes the tiny table
 * first where there is one). */
static inline uint32_t tr_index_search_bucket(const tr_index *idx, int64_t t)
{
    const uint32_t *b = tr_index_bucket(idx, t);
    uint32_t lo = b[0], hi = b[1];
    const int64_t *tok = idx->tokens;
    /* Answer in [lo, hi]: every token before lo is < t's bucket, every token from hi on
     * is in a later bucket (so > t). */
    while (hi - lo > 8) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (tok[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    /* The answer is lo plus the number of tokens of [lo, hi) below t. Tokens from hi on
     * are above t, so counting those below t among the eight from lo gives it without a
     * branch, whenever eight tokens follow lo (all but the ring's last buckets). Eight
     * rather than four: a bucket of 2 to 4 tokens on average still holds more than four
     * often enough (about one lookup in six) for the narrowing loop above to mispredict. */
    if (__builtin_expect(idx->count >= 8, 1)) {
        /* In the ring's last buckets fewer than eight tokens follow lo: count the last
         * eight instead, from count - 8 < lo (the tokens between it and lo are below t, so
         * counting them too gives the same answer): no data-dependent branch there either
         * (on a 48-token ring one key in six ends in those buckets). */
        if (lo + 8 > idx->count)
            lo = idx->count - 8;
        const int64_t *q = tok + lo; /* one base: each compare is one load at a constant offset */
        lo += (uint32_t)(q[0] < t) + (uint32_t)(q[1] < t) + (uint32_t)(q[2] < t) +
              (uint32_t)(q[3] < t) + (uint32_t)(q[4] < t) + (uint32_t)(q[5] < t) +
              (uint32_t)(q[6] < t) + (uint32_t)(q[7] < t);
    } else {
        while (lo < hi && tok[lo] < t)
            lo++;
    }
    return lo == idx->count ? 0 : lo;
}

/* tr_index_search on a ring of at most 64 tokens (idx->tiny): one table read on the
 * token's top 8 bits gives the first token at or after the bucket's start, e; when the
 * bucket holds at most one token the answer is e, or e + 1 past that token (one compare,
 * no branch on the data), wrapping to 0 past the last token; a bucket of two tokens or
 * more (flag 0x80; on 48 random tokens about one key in 60) takes tr_index_search. */
static inline uint32_t tr_index_search_tiny(const tr_index *idx, int64_t t)
{
    uint64_t u = (uint64_t)t ^ (UINT64_C(1) << 63);
    uint32_t e = idx->tiny[u >> (64 - TR_INDEX_TINY_BITS)];
    if (__builtin_expect(e & 0x80, 0))
        return tr_index_search_bucket(idx, t);
    uint32_t n = idx->count;
    uint32_t r = e + (uint32_t)(idx->tokens[e < n ? e : n - 1] < t);
    return r >= n ? 0 : r;
}

/* Index of the first token >= t, wrapping to 0 past the largest (Cassandra's
 * firstTokenIndex): the tiny table on rings of at most 64 tokens, else the buckets. */
static inline uint32_t tr_index_search(const tr_index *idx, int64_t t)
{
    if (__builtin_expect(idx->tiny != NULL, 0))
        return tr_index_search_tiny(idx, t);
    return tr_index_search_bucket(idx, t);
}

#if defined(TR_CPU_X86)
#include <immintrin.h>

/* tr_index_search_bucket on a ring of at least 8 tokens where the processor has AVX2 (the
 * caller checks tr_cpu_features() and the count), inlined only into functions compiled for
 * AVX2 (the library is built for the baseline): the bucket, then its at most eight tokens
 * compared four at a time (two compares, two sign masks, a popcount, where the scalar count
 * is eight compares and adds), wrapping to 0. As in tr_index_search_bucket, the ring's last
 * buckets count the last eight tokens instead; a bucket of more than eight tokens (uneven
 * tokens) takes tr_index_search_bucket. The batches' search stage on rings past 64 tokens
 * (tr_index_search_small_batch). */
__attribute__((target("avx2,popcnt"))) static inline uint32_t
tr_index_search_small_at(const tr_index *idx, const uint32_t *bk, int64_t t)
{
    uint32_t lo = bk[0];
    if (__builtin_expect(bk[1] - lo > 8, 0))
        return tr_index_search_bucket(idx, t);
    if (lo + 8 > idx->count)
        lo = idx->count - 8; /* the tokens from there to lo are below t: same count */
    __m256i key = _mm256_set1_epi64x(t);
    const int64_t *q = idx->tokens + lo;
    unsigned m0 = (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(
        _mm256_cmpgt_epi64(key, _mm256_loadu_si256((const __m256i *)(const void *)q))));
    unsigned m1 = (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(
        _mm256_cmpgt_epi64(key, _mm256_loadu_si256((const __m256i *)(const void *)(q + 4)))));
    lo += (uint32_t)__builtin_popcount(m0 | m1 << 4);
    return lo == idx->count ? 0 : lo;
}

/* tr_index_search_small_at as a call, for callers built for the baseline, given t's bucket
 * entry (tr_index_bucket: the single-key lookup has read it already for its prefetch). */
TR_HIDDEN uint32_t tr_index_search_small_call(const tr_index *idx, const uint32_t *bk,
                                              int64_t t);
/* tr_index_search_small_at for each of count tokens into out[] (one call for many keys), given
 * each token's bucket entry (tr_index_bucket: a batch has read them for its prefetches). */
TR_HIDDEN void tr_index_search_small_batch(const tr_index *idx, const int64_t *tokens,
                                           const uint32_t *const *buckets, size_t count,
                                           uint32_t *out);
#endif

/* tr_index_search for each of count tokens into out[], in groups whose memory reads
 * overlap (prefetch every bucket of a group, then every bucket's first token, then
 * search). Same answers as tr_index_search, token by token. */
TR_HIDDEN void tr_index_search_batch(const tr_index *idx, const int64_t *tokens, size_t count,
                                     uint32_t *out);

#endif
