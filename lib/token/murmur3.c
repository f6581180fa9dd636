/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Murmur3Partitioner tokens: Cassandra's MurmurHash3_x64_128, which reads the tail bytes
 * (the last len % 16) as SIGNED bytes, sign-extended to 64 bits before shifting.
 *
 * Layout of the work (memcpy loads, byte-swapped on big-endian hosts; no read outside
 * [key, key + len), which the tests check under AddressSanitizer with exact-size buffers):
 *   - 0..31 bytes: one jump table on the length, each case straight-line code for exactly
 *     that length (16..31: one block, then the tail). 25..31 bytes (a block and a tail of
 *     two words) are out-of-line functions: inline, their register pressure made every
 *     call save and restore a register.
 *   - 32 bytes and more: the first block, one more if that leaves an odd count, two per
 *     loop iteration, then the tail (one jump table, skipped when len % 16 == 0).
 *   - tails: up to four bytes are sign-extending byte loads; five or more are one word
 *     load (the 8 bytes ending at the key's end when at least 8 bytes precede it, else two
 *     overlapping 4-byte loads) corrected by m3_signed_word(): a multiply computes the parity
 *     of the sign bits below each byte, a shift and a subtraction spread it to 0x00/0xFF.
 *   - the token: NULL first (one predictable branch), the empty key is the jump table's
 *     default, and the MIN -> MAX rule is one compare with a never-taken branch.
 *   - tokenring_tokens() validates the offsets four at a time before writing anything,
 *     then hashes with the same inlined code, carrying each end offset to the next key;
 *     where the processor has AVX-512, each run of eight keys of one length (8 bytes or
 *     more) is hashed eight lanes at a time (tr_tokens_packed, tokens_x8 below; the route
 *     batches of lib/ring/placement.c hash their groups with it too).
 *   - the code of one key is inline in murmur3_core.h, which the single-key routing call
 *     (tokenring_placement_replicas_for_key) inlines as well.
 *
 * The figures below are of the scalar code (callgrind has no AVX-512); the eight-lane
 * batch's are in doc/performance.md ("This round (2026-12-05, night)").
 *
 * Measured (gcc 12 -O3, x86-64; bench/bench_ring.c's reference MurmurHash3_x64_128 is
 * compiled into the bench, non-inlined): callgrind instructions per key, with the bench's
 * call loop, at 8, 16, 64, 256 bytes: tokenring_token 66.1, 64.1, 127.1, 337.1 and
 * tokenring_tokens 65.6, 64.6, 125.6, 335.6 against the reference's 81.0, 78.0, 135.0,
 * 363.0 (the previous layout: 85.1, 83.1, 140.1, 368.1 and 82.1, 82.1, 139.1, 367.1).
 * The library's own instructions are under the reference's at every length 1..64, every
 * multiple of 8 to 256, 100, 255, 1000 and 4096: by 3.9% (49..52 bytes: three blocks and
 * a short tail) to 30% (15 bytes). Time (bench-ring --quick, eight runs on a shared
 * 2-core machine, ratios within a run, single / batched): 8 bytes 0.78-0.88 / 0.72-0.86,
 * 16 bytes 0.85-0.96 / 0.80-0.93 (one run each at 1.09 / 1.11), 64 bytes 0.93-1.00 /
 * 0.91-0.98, 256 bytes 0.96-1.00 / 0.97-1.01, 1 MiB parity (GB/s ratio 0.96-1.01). From
 * 64 bytes on a key costs the latency of the h1/h2 dependency chain (about 6 cycles a
 * block here: an add and a scaled LEA on each half), which the reference pays too, so
 * fewer instructions buy less time there. Rewriting the chain to 5 cycles a block
 * (expanding h2 into h1's recurrence) measured 10-17% slower on 1 MiB keys (more
 * multiplies on the one multiply port), so it is not used. Keys of random lengths: 1..32
 * bytes 0.84, 1..64 0.95, 1..300 and 1..1000 1.02 of the reference's time.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "internal.h"
#include "murmur3_core.h"

#if defined(TR_CPU_X86)
#include <immintrin.h>
#endif

TOKENRING_API int64_t tokenring_token(const void *key, size_t len)
{
    return m3_token_of(key, len);
}

/* One key of a batch (not NULL): the batch loop's layout of the hash. */
M3_INLINE int64_t batch_token(const uint8_t *key, size_t len)
{
    m3_hash128 h;
    switch (m3_hash(key, len, 0, &h, false)) {
    case M3_HASH_DONE: return m3_min_to_max(h.h1);
    case M3_HASH_25_31: return m3_min_to_max(m3_25_31(key, len, 0).h1);
    default: return TOKENRING_MIN_TOKEN;
    }
}

/* The tokens of count keys one by one, each end offset carried to the next key. */
M3_INLINE void tokens_scalar(int64_t *out, const uint8_t *keys, const uint64_t *offsets,
                                 size_t count)
{
    size_t start = count ? (size_t)offsets[0] : 0;
    for (size_t i = 0; i < count; i++) {
        size_t stop = (size_t)offsets[i + 1];
        out[i] = batch_token(keys + start, stop - start);
        start = stop;
    }
}

#if defined(TR_CPU_X86)
/* Eight keys at a time with AVX-512 (F for the 64-bit lanes and rotates, DQ for the 64-bit
 * multiply): lane j hashes key j of a run of eight keys of one length (8 bytes or more).
 * The same arithmetic as M3_BLOCK, m3_tail() and m3_finish(), lane by lane; tests/test_hash.c
 * compares every length 0..300 with the single-key call, in runs and broken runs.
 * The lanes' words come from scalar loads (x86-64 is little-endian, as the words are):
 * AVX-512 gathers measured 2.2x slower here than the scalar loads. */
#define X8 __attribute__((target("avx512f,avx512dq")))

X8 static inline __m512i x8_mix_k1(__m512i k)
{
    k = _mm512_mullo_epi64(k, _mm512_set1_epi64((long long)M3_C1));
    k = _mm512_rol_epi64(k, 31);
    return _mm512_mullo_epi64(k, _mm512_set1_epi64((long long)M3_C2));
}

X8 static inline __m512i x8_mix_k2(__m512i k)
{
    k = _mm512_mullo_epi64(k, _mm512_set1_epi64((long long)M3_C2));
    k = _mm512_rol_epi64(k, 33);
    return _mm512_mullo_epi64(k, _mm512_set1_epi64((long long)M3_C1));
}

/* h * 5 + c */
X8 static inline __m512i x8_mul5_add(__m512i h, uint64_t c)
{
    return _mm512_add_epi64(_mm512_add_epi64(_mm512_slli_epi64(h, 2), h),
                            _mm512_set1_epi64((long long)c));
}

X8 static inline __m512i x8_fmix(__m512i k)
{
    k = _mm512_xor_si512(k, _mm512_srli_epi64(k, 33));
    k = _mm512_mullo_epi64(k, _mm512_set1_epi64((long long)0xff51afd7ed558ccdULL));
    k = _mm512_xor_si512(k, _mm512_srli_epi64(k, 33));
    k = _mm512_mullo_epi64(k, _mm512_set1_epi64((long long)0xc4ceb9fe1a85ec53ULL));
    return _mm512_xor_si512(k, _mm512_srli_epi64(k, 33));
}

/* The 8 bytes at p + j * n in lane j (eight keys of length n one after the other). Loads,
 * not a gather: AVX-512 gathers measured 2.2x slower here. */
X8 static inline __m512i x8_words(const uint8_t *p, size_t n)
{
    if (n == 8)
        return _mm512_loadu_si512((const void *)p);
    return _mm512_set_epi64((long long)m3_load64(p + 7 * n), (long long)m3_load64(p + 6 * n),
                            (long long)m3_load64(p + 5 * n), (long long)m3_load64(p + 4 * n),
                            (long long)m3_load64(p + 3 * n), (long long)m3_load64(p + 2 * n),
                            (long long)m3_load64(p + n), (long long)m3_load64(p));
}

/* m3_signed_word() lane by lane, the parity of the sign bits below each byte by three
 * shift-XOR steps instead of a multiply. */
X8 static inline __m512i x8_signed_word(__m512i x)
{
    const __m512i ones = _mm512_set1_epi64((long long)M3_BYTES_01);
    __m512i q = _mm512_and_si512(_mm512_slli_epi64(x, 1), ones);
    q = _mm512_xor_si512(q, _mm512_slli_epi64(q, 8));
    q = _mm512_xor_si512(q, _mm512_slli_epi64(q, 16));
    q = _mm512_xor_si512(q, _mm512_slli_epi64(q, 32));
    q = _mm512_and_si512(q, ones);
    return _mm512_xor_si512(x, _mm512_sub_epi64(_mm512_slli_epi64(q, 8), q));
}

/* The tail word of m bytes (1 <= m <= 8) ending at p + j * n, in lane j, as m3_tail_lane()
 * gives it: the 8 bytes ending there (key bytes: n >= 8), shifted down. */
X8 static inline __m512i x8_tail_word(const uint8_t *end, size_t n, size_t m)
{
    __m512i w = _mm512_srl_epi64(x8_words(end - 8, n), _mm_cvtsi64_si128((long long)(8 * (8 - m))));
    return x8_signed_word(w);
}

/* One 16-byte block of each lane into (h1, h2). */
#define X8_BLOCK(k1, k2)                                                                    \
    do {                                                                                    \
        h1 = _mm512_xor_si512(h1, x8_mix_k1(k1));                                           \
        h1 = _mm512_rol_epi64(h1, 27);                                                      \
        h1 = _mm512_add_epi64(h1, h2);                                                      \
        h1 = x8_mul5_add(h1, 0x52dce729);                                                   \
        h2 = _mm512_xor_si512(h2, x8_mix_k2(k2));                                           \
        h2 = _mm512_rol_epi64(h2, 31);                                                      \
        h2 = _mm512_add_epi64(h2, h1);                                                      \
        h2 = x8_mul5_add(h2, 0x38495ab5);                                                   \
    } while (0)

/* The tokens of the eight keys at keys + off[0..7], when they have one length n >= 8 (so
 * they lie one after the other, key j at keys + off[0] + j * n, and every tail word can
 * be read as the 8 key bytes ending at its end): true; false (nothing written) otherwise
 * (shorter keys: the scalar code's byte loads). */
X8 static inline bool tokens_x8(int64_t *out, const uint8_t *keys, const uint64_t *off)
{
    __m512i start = _mm512_loadu_si512((const void *)off);
    __m512i lens = _mm512_sub_epi64(_mm512_loadu_si512((const void *)(off + 1)), start);
    size_t n = (size_t)(off[1] - off[0]);
    if (n < 8 || _mm512_cmpneq_epi64_mask(lens, _mm512_set1_epi64((long long)n)) != 0)
        return false;
    const uint8_t *p = keys + off[0];
    __m512i h1 = _mm512_setzero_si512(), h2 = _mm512_setzero_si512();
    size_t blocks = n >> 4;
    if (n == 16) {
        /* 128 bytes: two loads, the words of each half gathered by one permute each */
        __m512i a = _mm512_loadu_si512((const void *)p);
        __m512i b = _mm512_loadu_si512((const void *)(p + 64));
        __m512i k1 = _mm512_permutex2var_epi64(a, _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0), b);
        __m512i k2 = _mm512_permutex2var_epi64(a, _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1), b);
        X8_BLOCK(k1, k2);
    } else {
        for (size_t b = 0; b < blocks; b++) {
            __m512i k1 = x8_words(p + 16 * b, n), k2 = x8_words(p + 16 * b + 8, n);
            X8_BLOCK(k1, k2);
        }
    }
    size_t t = n & 15;
    if (t) {
        /* the last t bytes: a second word when t > 8 (the last t - 8), a first of up to 8 */
        const uint8_t *tail_at = p + 16 * blocks;
        if (t > 8)
            h2 = _mm512_xor_si512(h2, x8_mix_k2(x8_tail_word(p + n, n, t - 8)));
        size_t m = t < 8 ? t : 8;
        h1 = _mm512_xor_si512(h1, x8_mix_k1(x8_tail_word(tail_at + m, n, m)));
    }
    __m512i vn = _mm512_set1_epi64((long long)n);
    h1 = _mm512_xor_si512(h1, vn);
    h2 = _mm512_xor_si512(h2, vn);
    h1 = _mm512_add_epi64(h1, h2);
    h2 = _mm512_add_epi64(h2, h1);
    h1 = _mm512_add_epi64(x8_fmix(h1), x8_fmix(h2));
    /* the partitioner's rule: the minimum becomes the maximum */
    __mmask8 min = _mm512_cmpeq_epi64_mask(h1, _mm512_set1_epi64(INT64_MIN));
    h1 = _mm512_mask_mov_epi64(h1, min, _mm512_set1_epi64(INT64_MAX));
    _mm512_storeu_si512((void *)out, h1);
    return true;
}

/* Every full eight of count keys (one call: the eights inline); the number done. */
X8 static size_t tokens_avx512(int64_t *out, const uint8_t *keys, const uint64_t *offsets,
                               size_t count)
{
    size_t i = 0;
    for (; count - i >= 8; i += 8)
        if (!tokens_x8(out + i, keys, offsets + i))
            tokens_scalar(out + i, keys, offsets + i, 8);
    return i;
}
#endif

void tr_tokens_packed(int64_t *out, const uint8_t *keys, const uint64_t *offsets, size_t count)
{
    size_t i = 0;
    if (keys == NULL) { /* every key empty (checked) */
        for (; i < count; i++)
            out[i] = TOKENRING_MIN_TOKEN;
        return;
    }
#if defined(TR_CPU_X86)
    /* runs of eight keys of one length eight at a time, any other eight one by one */
    if (count >= 8 && (tr_cpu_features() & TR_CPU_AVX512))
        i = tokens_avx512(out, keys, offsets, count);
#endif
    tokens_scalar(out + i, keys, offsets + i, count - i);
}

TOKENRING_API int tokenring_tokens(int64_t *tokens_out, const uint8_t *keys,
                                   const uint64_t *offsets, size_t count)
{
    if (count == 0)
        return TOKENRING_OK;
    if (tokens_out == NULL || offsets == NULL)
        return TOKENRING_E_INVAL;
    /* Validate everything before writing anything: the offsets must not decrease (checked
     * four at a time), and keys may be NULL only when every key is empty. */
    size_t i = 0;
    for (; count - i >= 4; i += 4)
        if (offsets[i + 1] < offsets[i] || offsets[i + 2] < offsets[i + 1] ||
            offsets[i + 3] < offsets[i + 2] || offsets[i + 4] < offsets[i + 3])
            return TOKENRING_E_INVAL;
    for (; i < count; i++)
        if (offsets[i + 1] < offsets[i])
            return TOKENRING_E_INVAL;
    if (offsets[count] > (uint64_t)SIZE_MAX)
        return TOKENRING_E_INVAL;
    if (keys == NULL && offsets[count] != offsets[0])
        return TOKENRING_E_INVAL;
    tr_tokens_packed(tokens_out, keys, offsets, count);
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_murmur3_cassandra(int64_t out[2], const void *key, size_t len,
                                              uint64_t seed)
{
    if (out == NULL || (key == NULL && len != 0))
        return TOKENRING_E_INVAL;
    m3_hash128 h = m3_finish(seed, seed, 0);
    if (m3_hash(key, len, seed, &h, false) == M3_HASH_25_31)
        h = m3_25_31(key, len, seed);
    out[0] = (int64_t)h.h1;
    out[1] = (int64_t)h.h2;
    return TOKENRING_OK;
}
