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
 *     overlapping 4-byte loads) corrected by signed_word(): a multiply computes the parity
 *     of the sign bits below each byte, a shift and a subtraction spread it to 0x00/0xFF.
 *   - the token: NULL first (one predictable branch), the empty key is the jump table's
 *     default, and the MIN -> MAX rule is one compare with a never-taken branch.
 *   - tokenring_tokens() validates the offsets four at a time before writing anything,
 *     then hashes with the same inlined code, carrying each end offset to the next key.
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

#if defined(TR_CPU_X86)
#include <immintrin.h>
#endif

#define C1 0x87c37b91114253d5ULL
#define C2 0x4cf5ad432745937fULL
#define BYTES_01 0x0101010101010101ULL

#define ALWAYS_INLINE __attribute__((always_inline)) static inline

/* clang's own rotate: from the shift-or form, clang folds the shifts into the multiplies
 * before it (two multiplies per rotated product). */
#if defined(__has_builtin)
#if __has_builtin(__builtin_rotateleft64)
#define HAVE_ROTATELEFT64 1
#endif
#endif

static inline uint64_t rotl64(uint64_t x, unsigned r)
{
#ifdef HAVE_ROTATELEFT64
    return __builtin_rotateleft64(x, r);
#else
    return (x << r) | (x >> (64 - r));
#endif
}

static inline uint64_t fmix64(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

static inline uint64_t load64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

static inline uint64_t load32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap32(v);
#endif
    return v;
}

/* Java widens a (signed) byte to long by sign extension. */
#define SB(p, i) ((uint64_t)(int64_t)(int8_t)(p)[i])

/* Java reads tail bytes as signed and sign-extends each to 64 bits before shifting it
 * into place and XORing it in. For a word x holding the tail bytes unsigned (zero above
 * them), that is x ^ fix, where byte j of fix is 0xFF when an odd number of the bytes
 * below j have their top bit set. (x << 1) & 0x0101..01 moves each byte's sign bit to the
 * bottom of the byte above it; multiplying by 0x0101..01 gives each byte the count of sign
 * bits below it (at most 7: no carries between bytes); the low bit of each count is its
 * parity, and (q << 8) - q turns each such bit into 0xFF. */
static inline uint64_t signed_word(uint64_t x)
{
    uint64_t s = (x << 1) & BYTES_01, q = (s * BYTES_01) & BYTES_01;
    return x ^ ((q << 8) - q);
}

/* Branch coverage is not counted from here to the partitioner's rule (gcovr markers):
 * the coverage build compiles without optimisation, so each inlined copy of these
 * templates keeps the switch cases and if-arms its constant arguments (tail length,
 * may_read_before, short_likely) rule out, thousands of branches no input can take. What
 * they compute is checked instead by value: tests/test_hash.c runs every length 0..300 and
 * every tail sign pattern of 1..31 bytes through all three entry points against a
 * byte-by-byte model, in exact-size buffers under AddressSanitizer. Lines still count. */
/* GCOVR_EXCL_BR_START */
/* The value Java XORs together from the m tail bytes at p (1 <= m <= 7, a constant
 * wherever this is inlined): byte by byte for up to four bytes; else one word load,
 * either the 8 bytes ending at p + m (when the caller allows reading up to 7 bytes
 * before p: they are still key bytes) or two overlapping 4-byte loads. */
ALWAYS_INLINE uint64_t tail_lane(const uint8_t *p, size_t m, bool may_read_before)
{
    switch (m) {
    case 1: return SB(p, 0);
    case 2: return SB(p, 0) ^ SB(p, 1) << 8;
    case 3: return SB(p, 0) ^ SB(p, 1) << 8 ^ SB(p, 2) << 16;
    case 4: return SB(p, 0) ^ SB(p, 1) << 8 ^ SB(p, 2) << 16 ^ SB(p, 3) << 24;
    default:
        if (may_read_before)
            return signed_word(load64(p + m - 8) >> (8 * (8 - m)));
        return signed_word(load32(p) | load32(p + m - 4) << (8 * (m - 4)));
    }
}

static inline uint64_t mix_k1(uint64_t k1)
{
    k1 *= C1;
    k1 = rotl64(k1, 31);
    return k1 * C2;
}

static inline uint64_t mix_k2(uint64_t k2)
{
    k2 *= C2;
    k2 = rotl64(k2, 33);
    return k2 * C1;
}

/* One 16-byte block into (h1, h2). */
#define BLOCK(p)                                                                            \
    do {                                                                                    \
        h1 ^= mix_k1(load64(p));                                                            \
        h1 = rotl64(h1, 27);                                                                \
        h1 += h2;                                                                           \
        h1 = h1 * 5 + 0x52dce729;                                                           \
        h2 ^= mix_k2(load64((p) + 8));                                                      \
        h2 = rotl64(h2, 31);                                                                \
        h2 += h1;                                                                           \
        h2 = h2 * 5 + 0x38495ab5;                                                           \
    } while (0)

/* The tail: the last t bytes (1 <= t <= 15, a constant wherever this is inlined),
 * starting at p. */
ALWAYS_INLINE void tail(const uint8_t *p, size_t t, bool may_read_before, uint64_t *h1,
                        uint64_t *h2)
{
    if (t > 8)
        *h2 ^= mix_k2(tail_lane(p + 8, t - 8, true));
    *h1 ^= mix_k1(t >= 8 ? signed_word(load64(p)) : tail_lane(p, t, may_read_before));
}

typedef struct hash128 {
    uint64_t h1, h2;
} hash128;

static inline hash128 finish(uint64_t h1, uint64_t h2, size_t n)
{
    h1 ^= (uint64_t)n;
    h2 ^= (uint64_t)n;
    h1 += h2;
    h2 += h1;
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 += h2;
    h2 += h1;
    return (hash128){ h1, h2 };
}

/* Keys of 25..31 bytes: one block and a two-word tail, out of line (inline, these
 * register-hungry cases made every call save and restore a register). */
ALWAYS_INLINE hash128 murmur3_25_31_inline(const uint8_t *p, size_t n, uint64_t seed)
{
    uint64_t h1 = seed, h2 = seed;
    BLOCK(p);
    switch (n) {
    case 25: tail(p + 16, 9, true, &h1, &h2); break;
    case 26: tail(p + 16, 10, true, &h1, &h2); break;
    case 27: tail(p + 16, 11, true, &h1, &h2); break;
    case 28: tail(p + 16, 12, true, &h1, &h2); break;
    case 29: tail(p + 16, 13, true, &h1, &h2); break;
    case 30: tail(p + 16, 14, true, &h1, &h2); break;
    default: tail(p + 16, 15, true, &h1, &h2); break;
    }
    return finish(h1, h2, n);
}

__attribute__((noinline)) static hash128 murmur3_25_31(const uint8_t *p, size_t n,
                                                       uint64_t seed)
{
    return murmur3_25_31_inline(p, n, seed);
}

/* Jump-table cases: one specialised straight-line copy per length. Keys of 1..15 bytes
 * are all tail; 16..31 bytes are one block and a tail. */
#define TAIL_CASE(T)                                                                        \
    case T:                                                                                 \
        tail(p, T, false, &h1, &h2);                                                        \
        break;                                                                              \
    case 16 + T:                                                                            \
        if (T > 8)                                                                          \
            return HASH_25_31;                                                              \
        BLOCK(p);                                                                           \
        tail(p + 16, T, true, &h1, &h2);                                                    \
        break
#define SHORT_CASES                                                                         \
    TAIL_CASE(1);                                                                           \
    TAIL_CASE(2);                                                                           \
    TAIL_CASE(3);                                                                           \
    TAIL_CASE(4);                                                                           \
    TAIL_CASE(5);                                                                           \
    TAIL_CASE(6);                                                                           \
    TAIL_CASE(7);                                                                           \
    TAIL_CASE(8);                                                                           \
    TAIL_CASE(9);                                                                           \
    TAIL_CASE(10);                                                                          \
    TAIL_CASE(11);                                                                          \
    TAIL_CASE(12);                                                                          \
    TAIL_CASE(13);                                                                          \
    TAIL_CASE(14);                                                                          \
    TAIL_CASE(15);                                                                          \
    case 16:                                                                                \
        BLOCK(p);                                                                           \
        break

/* The tail of a long key, after its blocks: the last t bytes at p (1..15). */
#define LONG_TAIL_CASE(T)                                                                   \
    case T:                                                                                 \
        tail(p, T, true, &h1, &h2);                                                         \
        break
#define LONG_TAIL_CASES                                                                     \
    LONG_TAIL_CASE(1);                                                                      \
    LONG_TAIL_CASE(2);                                                                      \
    LONG_TAIL_CASE(3);                                                                      \
    LONG_TAIL_CASE(4);                                                                      \
    LONG_TAIL_CASE(5);                                                                      \
    LONG_TAIL_CASE(6);                                                                      \
    LONG_TAIL_CASE(7);                                                                      \
    LONG_TAIL_CASE(8);                                                                      \
    LONG_TAIL_CASE(9);                                                                      \
    LONG_TAIL_CASE(10);                                                                     \
    LONG_TAIL_CASE(11);                                                                     \
    LONG_TAIL_CASE(12);                                                                     \
    LONG_TAIL_CASE(13);                                                                     \
    LONG_TAIL_CASE(14);                                                                     \
    LONG_TAIL_CASE(15)

enum hash_result { HASH_EMPTY, HASH_DONE, HASH_25_31 };

/* Keys of 32 bytes or more into (*h1_io, *h2_io). */
ALWAYS_INLINE void murmur3_long(const uint8_t *p, size_t n, uint64_t *h1_io, uint64_t *h2_io)
{
    uint64_t h1 = *h1_io, h2 = *h2_io;
    /* The blocks: the first one, one more if that leaves an odd count, then two per
     * iteration. (Four per iteration, after one and two more as needed, took 2% fewer
     * instructions at 256 bytes but two data-dependent branches: 8-9% slower than the
     * reference on keys of random lengths up to 300 or 1000 bytes, against 2% now.) */
    const uint8_t *end = p + (n & ~(size_t)15);
    BLOCK(p);
    p += 16;
    if (!(n & 16)) {
        BLOCK(p);
        p += 16;
    }
    for (; p < end; p += 32) {
        BLOCK(p);
        BLOCK(p + 16);
    }
    if (n & 15) {
        p = end;
        switch (n & 15) {
            LONG_TAIL_CASES;
        default: break;
        }
    }
    *h1_io = h1;
    *h2_io = h2;
}

/* Cassandra's MurmurHash3_x64_128 of the n bytes at p into *out: HASH_DONE; HASH_EMPTY for
 * n == 0 (reads nothing); HASH_25_31 for 25..31 bytes, which the caller hashes with
 * murmur3_25_31(). *out is set only for HASH_DONE. short_likely lays the code out for
 * keys under 32 bytes (the single-key call: it also spares two register moves there; the
 * batch loop is faster without it). */
ALWAYS_INLINE enum hash_result murmur3(const uint8_t *p, size_t n, uint64_t seed, hash128 *out,
                                       bool short_likely)
{
    uint64_t h1 = seed, h2 = seed;
    /* (the same test twice: the hint in a conditional expression is lost) */
    if (short_likely) {
        if (__builtin_expect(n >= 32, 0)) {
            murmur3_long(p, n, &h1, &h2);
        } else {
            switch (n) {
                SHORT_CASES;
            default: return HASH_EMPTY; /* n == 0 */
            }
        }
    } else if (n >= 32) {
        murmur3_long(p, n, &h1, &h2);
    } else {
        switch (n) {
            SHORT_CASES;
        default: return HASH_EMPTY; /* n == 0 */
        }
    }
    *out = finish(h1, h2, n);
    return HASH_DONE;
}

/* GCOVR_EXCL_BR_STOP */

/* The partitioner's rule: Cassandra never returns Long.MIN_VALUE; a raw minimum becomes
 * the maximum. The conversion is two's complement reinterpretation (implementation-
 * defined in C11, exact on every supported compiler). */
static inline int64_t min_to_max(uint64_t h1)
{
    int64_t t = (int64_t)h1, unused;
    /* t - 1 overflows exactly when t is the minimum: a compare and a never-taken branch */
    if (__builtin_expect(__builtin_sub_overflow(t, 1, &unused), 0))
        return TOKENRING_MAX_TOKEN;
    return t;
}

/* Out of line so that the hot path does not keep the constant in a register. */
__attribute__((cold, noinline)) static int64_t min_token(void)
{
    return TOKENRING_MIN_TOKEN;
}

__attribute__((noinline)) static int64_t token_25_31(const uint8_t *p, size_t n)
{
    return min_to_max(murmur3_25_31_inline(p, n, 0).h1);
}

/* The token of a key (NULL or empty: the minimum). */
ALWAYS_INLINE int64_t token_of(const uint8_t *p, size_t n)
{
    hash128 h;
    if (__builtin_expect(p == NULL, 0))
        return min_token();
    switch (murmur3(p, n, 0, &h, true)) {
    case HASH_DONE: return min_to_max(h.h1);
    case HASH_25_31: return token_25_31(p, n);
    default: return min_token();
    }
}

TOKENRING_API int64_t tokenring_token(const void *key, size_t len)
{
    return token_of(key, len);
}

/* One key of a batch (not NULL): the batch loop's layout of the hash. */
ALWAYS_INLINE int64_t batch_token(const uint8_t *key, size_t len)
{
    hash128 h;
    switch (murmur3(key, len, 0, &h, false)) {
    case HASH_DONE: return min_to_max(h.h1);
    case HASH_25_31: return min_to_max(murmur3_25_31(key, len, 0).h1);
    default: return TOKENRING_MIN_TOKEN;
    }
}

/* The tokens of count keys one by one, each end offset carried to the next key. */
ALWAYS_INLINE void tokens_scalar(int64_t *out, const uint8_t *keys, const uint64_t *offsets,
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
 * The same arithmetic as BLOCK, tail() and finish(), lane by lane; tests/test_hash.c
 * compares every length 0..300 with the single-key call, in runs and broken runs.
 * The lanes' words come from scalar loads (x86-64 is little-endian, as the words are):
 * AVX-512 gathers measured 2.2x slower here than the scalar loads. */
#define X8 __attribute__((target("avx512f,avx512dq")))

X8 static inline __m512i x8_mix_k1(__m512i k)
{
    k = _mm512_mullo_epi64(k, _mm512_set1_epi64((long long)C1));
    k = _mm512_rol_epi64(k, 31);
    return _mm512_mullo_epi64(k, _mm512_set1_epi64((long long)C2));
}

X8 static inline __m512i x8_mix_k2(__m512i k)
{
    k = _mm512_mullo_epi64(k, _mm512_set1_epi64((long long)C2));
    k = _mm512_rol_epi64(k, 33);
    return _mm512_mullo_epi64(k, _mm512_set1_epi64((long long)C1));
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
    return _mm512_set_epi64((long long)load64(p + 7 * n), (long long)load64(p + 6 * n),
                            (long long)load64(p + 5 * n), (long long)load64(p + 4 * n),
                            (long long)load64(p + 3 * n), (long long)load64(p + 2 * n),
                            (long long)load64(p + n), (long long)load64(p));
}

/* signed_word() lane by lane, the parity of the sign bits below each byte by three
 * shift-XOR steps instead of a multiply. */
X8 static inline __m512i x8_signed_word(__m512i x)
{
    const __m512i ones = _mm512_set1_epi64((long long)BYTES_01);
    __m512i q = _mm512_and_si512(_mm512_slli_epi64(x, 1), ones);
    q = _mm512_xor_si512(q, _mm512_slli_epi64(q, 8));
    q = _mm512_xor_si512(q, _mm512_slli_epi64(q, 16));
    q = _mm512_xor_si512(q, _mm512_slli_epi64(q, 32));
    q = _mm512_and_si512(q, ones);
    return _mm512_xor_si512(x, _mm512_sub_epi64(_mm512_slli_epi64(q, 8), q));
}

/* The tail word of m bytes (1 <= m <= 8) ending at p + j * n, in lane j, as tail_lane()
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
    hash128 h = finish(seed, seed, 0);
    if (murmur3(key, len, seed, &h, false) == HASH_25_31)
        h = murmur3_25_31(key, len, seed);
    out[0] = (int64_t)h.h1;
    out[1] = (int64_t)h.h2;
    return TOKENRING_OK;
}
