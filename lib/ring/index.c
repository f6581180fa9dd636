/* SPDX-License-Identifier: Apache-2.0 */
#include "index.h"

#if defined(TR_CPU_X86)
#include <immintrin.h>
#endif

int tr_index_build(tr_index *idx, const int64_t *tokens, size_t count)
{
    /* bits = floor(log2(count)) - 1, at least 1 and at most 24 (64 MiB table cap): 2 to 4
     * tokens per bucket on an even ring, a table of at most 2 bytes per token. One bit more
     * (1 to 2 tokens per bucket) measured faster owner lookups on 24,576 tokens (about
     * 1.3x with a four-token scan) and about the same on 256,000, for 1.3 to 2 bytes per
     * token more: the ring's memory budget (bench-ring's ring B/token) decides. */
    unsigned bits = 1;
    while (bits < 24 && (UINT64_C(1) << (bits + 2)) <= count)
        bits++;
    size_t buckets = (size_t)1 << bits;
    uint32_t *first = tr_reallocarray(NULL, buckets + 1, sizeof *first);
    if (!first)
        return TOKENRING_E_NOMEM;
    unsigned shift = 64 - bits;
    size_t i = 0;
    for (size_t b = 0; b <= buckets; b++) {
        /* first token whose bucket is >= b */
        while (i < count && (((uint64_t)tokens[i] ^ (UINT64_C(1) << 63)) >> shift) < b)
            i++;
        first[b] = (uint32_t)i;
    }
    first[buckets] = (uint32_t)count;
    int64_t *small = NULL;
    size_t small_count = (count + 7) & ~(size_t)7;
    if (count <= TR_INDEX_SMALL_MAX && (tr_cpu_features() & TR_CPU_AVX2)) {
        small = tr_reallocarray(NULL, small_count, sizeof *small);
        if (!small) {
            tr_free(first);
            return TOKENRING_E_NOMEM;
        }
        for (size_t k = 0; k < small_count; k++)
            small[k] = k < count ? tokens[k] : INT64_MAX;
    }
    idx->small = small;
    idx->small_count = small ? (uint32_t)small_count : 0;
    idx->tokens = tokens;
    idx->first = first;
    idx->count = (uint32_t)count;
    idx->shift = shift;
    return TOKENRING_OK;
}

void tr_index_free(tr_index *idx)
{
    if (idx) {
        tr_free(idx->first);
        idx->first = NULL;
        tr_free(idx->small);
        idx->small = NULL;
    }
}

size_t tr_index_bytes(const tr_index *idx)
{
    return ((size_t)1 << (64 - idx->shift)) * sizeof(uint32_t) + sizeof(uint32_t) +
           (size_t)idx->small_count * sizeof(int64_t);
}

#if defined(TR_CPU_X86)
__attribute__((target("avx2"))) static inline uint32_t count_below(const tr_index *idx, int64_t t)
{
    const __m256i *q = (const __m256i *)(const void *)idx->small;
    __m256i key = _mm256_set1_epi64x(t);
    __m256i a = _mm256_setzero_si256(), b = _mm256_setzero_si256();
    /* each compare is -1 in the lanes whose token is below t; two sums, fully unrolled
     * from the ring's vector count (an indirect jump to the same place on every lookup of
     * a ring): a loop costs a third more instructions on 48 tokens */
#define TR_COUNT2(k)                                                                        \
    a = _mm256_add_epi64(a, _mm256_cmpgt_epi64(key, _mm256_loadu_si256(q + (k))));           \
    b = _mm256_add_epi64(b, _mm256_cmpgt_epi64(key, _mm256_loadu_si256(q + (k) + 1)))
    switch (idx->small_count / 8) {
    default: /* 8: 64 tokens */
        TR_COUNT2(14);
        /* fall through */
    case 7:
        TR_COUNT2(12);
        /* fall through */
    case 6:
        TR_COUNT2(10);
        /* fall through */
    case 5:
        TR_COUNT2(8);
        /* fall through */
    case 4:
        TR_COUNT2(6);
        /* fall through */
    case 3:
        TR_COUNT2(4);
        /* fall through */
    case 2:
        TR_COUNT2(2);
        /* fall through */
    case 1:
        TR_COUNT2(0);
    }
#undef TR_COUNT2
    a = _mm256_add_epi64(a, b);
    __m128i s = _mm_add_epi64(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
    s = _mm_add_epi64(s, _mm_unpackhi_epi64(s, s));
    uint32_t lo = (uint32_t)-_mm_cvtsi128_si64(s);
    return lo == idx->count ? 0 : lo;
}

__attribute__((target("avx2"))) uint32_t tr_index_search_small(const tr_index *idx, int64_t t)
{
    return count_below(idx, t);
}
#else
uint32_t tr_index_search_small(const tr_index *idx, int64_t t)
{
    return tr_index_search(idx, t); /* never called: small is NULL here */
}
#endif

void tr_index_search_batch(const tr_index *idx, const int64_t *tokens, size_t count,
                           uint32_t *out)
{
    enum { GROUP = 16 };
    for (size_t g = 0; g < count; g += GROUP) {
        size_t m = count - g < GROUP ? count - g : GROUP;
        for (size_t j = 0; j < m; j++)
            TR_PREFETCH(tr_index_bucket(idx, tokens[g + j]));
        for (size_t j = 0; j < m; j++)
            TR_PREFETCH(idx->tokens + *tr_index_bucket(idx, tokens[g + j]));
        for (size_t j = 0; j < m; j++)
            out[g + j] = tr_index_search(idx, tokens[g + j]);
    }
}
