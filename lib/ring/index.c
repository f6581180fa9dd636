/* SPDX-License-Identifier: Apache-2.0 */
#include "index.h"

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
    /* rings of at most 64 tokens: entry b is the first token at or after bucket b's start
     * on the top 8 bits, with 0x80 when the bucket holds two tokens or more */
    uint8_t *tiny = NULL;
    if (count <= TR_INDEX_TINY_MAX) {
        tiny = tr_malloc((size_t)1 << TR_INDEX_TINY_BITS);
        if (!tiny) {
            tr_free(first);
            return TOKENRING_E_NOMEM;
        }
        size_t at = 0;
        for (size_t b = 0; b < ((size_t)1 << TR_INDEX_TINY_BITS); b++) {
            while (at < count &&
                   (((uint64_t)tokens[at] ^ (UINT64_C(1) << 63)) >> (64 - TR_INDEX_TINY_BITS)) < b)
                at++;
            size_t in = at; /* tokens in bucket b */
            while (in < count &&
                   (((uint64_t)tokens[in] ^ (UINT64_C(1) << 63)) >> (64 - TR_INDEX_TINY_BITS)) == b)
                in++;
            tiny[b] = (uint8_t)(at | (in - at > 1 ? 0x80 : 0));
        }
    }
    idx->tiny = tiny;
#if defined(TR_CPU_X86)
    idx->avx2 = count >= 8 && (tr_cpu_features() & TR_CPU_AVX2) != 0;
#else
    idx->avx2 = false;
#endif
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
        tr_free(idx->tiny);
        idx->tiny = NULL;
    }
}

size_t tr_index_bytes(const tr_index *idx)
{
    return ((size_t)1 << (64 - idx->shift)) * sizeof(uint32_t) + sizeof(uint32_t) +
           (idx->tiny ? (size_t)1 << TR_INDEX_TINY_BITS : 0);
}

#if defined(TR_CPU_X86)
__attribute__((target("avx2,popcnt"))) uint32_t tr_index_search_small_call(const tr_index *idx,
                                                                           const uint32_t *bk,
                                                                           int64_t t)
{
    return tr_index_search_small_at(idx, bk, t);
}

__attribute__((target("avx2,popcnt"))) void
tr_index_search_small_batch(const tr_index *idx, const int64_t *tokens,
                            const uint32_t *const *buckets, size_t count, uint32_t *out)
{
    for (size_t i = 0; i < count; i++)
        out[i] = tr_index_search_small_at(idx, buckets[i], tokens[i]);
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
