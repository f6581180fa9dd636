/* SPDX-License-Identifier: Apache-2.0 */
/* Cassandra's MurmurHash3_x64_128 and the Murmur3Partitioner token of one key, as inline
 * code (private): murmur3.c builds tokenring_token() and the batches on it, and the
 * single-key routing calls (lib/ring/placement.c) inline m3_token_of() so that a routed key
 * makes one call into the library, not two. The layout of the work and its measurements
 * are described at the top of murmur3.c. */
#ifndef TR_MURMUR3_CORE_H
#define TR_MURMUR3_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "internal.h"

#define M3_C1 0x87c37b91114253d5ULL
#define M3_C2 0x4cf5ad432745937fULL
#define M3_BYTES_01 0x0101010101010101ULL

#define M3_INLINE __attribute__((always_inline)) static inline

/* clang's own rotate: from the shift-or form, clang folds the shifts into the multiplies
 * before it (two multiplies per rotated product). */
#if defined(__has_builtin)
#if __has_builtin(__builtin_rotateleft64)
#define M3_HAVE_ROTATELEFT64 1
#endif
#endif

static inline uint64_t m3_rotl64(uint64_t x, unsigned r)
{
#ifdef M3_HAVE_ROTATELEFT64
    return __builtin_rotateleft64(x, r);
#else
    return (x << r) | (x >> (64 - r));
#endif
}

static inline uint64_t m3_fmix64(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

static inline uint64_t m3_load64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

static inline uint64_t m3_load32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap32(v);
#endif
    return v;
}

/* Java widens a (signed) byte to long by sign extension. */
#define M3_SB(p, i) ((uint64_t)(int64_t)(int8_t)(p)[i])

/* Java reads tail bytes as signed and sign-extends each to 64 bits before shifting it
 * into place and XORing it in. For a word x holding the tail bytes unsigned (zero above
 * them), that is x ^ fix, where byte j of fix is 0xFF when an odd number of the bytes
 * below j have their top bit set. (x << 1) & 0x0101..01 moves each byte's sign bit to the
 * bottom of the byte above it; multiplying by 0x0101..01 gives each byte the count of sign
 * bits below it (at most 7: no carries between bytes); the low bit of each count is its
 * parity, and (q << 8) - q turns each such bit into 0xFF. */
static inline uint64_t m3_signed_word(uint64_t x)
{
    uint64_t s = (x << 1) & M3_BYTES_01, q = (s * M3_BYTES_01) & M3_BYTES_01;
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
M3_INLINE uint64_t m3_tail_lane(const uint8_t *p, size_t m, bool may_read_before)
{
    switch (m) {
    case 1: return M3_SB(p, 0);
    case 2: return M3_SB(p, 0) ^ M3_SB(p, 1) << 8;
    case 3: return M3_SB(p, 0) ^ M3_SB(p, 1) << 8 ^ M3_SB(p, 2) << 16;
    case 4: return M3_SB(p, 0) ^ M3_SB(p, 1) << 8 ^ M3_SB(p, 2) << 16 ^ M3_SB(p, 3) << 24;
    default:
        if (may_read_before)
            return m3_signed_word(m3_load64(p + m - 8) >> (8 * (8 - m)));
        return m3_signed_word(m3_load32(p) | m3_load32(p + m - 4) << (8 * (m - 4)));
    }
}

static inline uint64_t m3_mix_k1(uint64_t k1)
{
    k1 *= M3_C1;
    k1 = m3_rotl64(k1, 31);
    return k1 * M3_C2;
}

static inline uint64_t m3_mix_k2(uint64_t k2)
{
    k2 *= M3_C2;
    k2 = m3_rotl64(k2, 33);
    return k2 * M3_C1;
}

/* One 16-byte block into (h1, h2). */
#define M3_BLOCK(p)                                                                            \
    do {                                                                                    \
        h1 ^= m3_mix_k1(m3_load64(p));                                                            \
        h1 = m3_rotl64(h1, 27);                                                                \
        h1 += h2;                                                                           \
        h1 = h1 * 5 + 0x52dce729;                                                           \
        h2 ^= m3_mix_k2(m3_load64((p) + 8));                                                      \
        h2 = m3_rotl64(h2, 31);                                                                \
        h2 += h1;                                                                           \
        h2 = h2 * 5 + 0x38495ab5;                                                           \
    } while (0)

/* The tail: the last t bytes (1 <= t <= 15, a constant wherever this is inlined),
 * starting at p. */
M3_INLINE void m3_tail(const uint8_t *p, size_t t, bool may_read_before, uint64_t *h1,
                        uint64_t *h2)
{
    if (t > 8)
        *h2 ^= m3_mix_k2(m3_tail_lane(p + 8, t - 8, true));
    *h1 ^= m3_mix_k1(t >= 8 ? m3_signed_word(m3_load64(p)) : m3_tail_lane(p, t, may_read_before));
}

typedef struct m3_hash128 {
    uint64_t h1, h2;
} m3_hash128;

static inline m3_hash128 m3_finish(uint64_t h1, uint64_t h2, size_t n)
{
    h1 ^= (uint64_t)n;
    h2 ^= (uint64_t)n;
    h1 += h2;
    h2 += h1;
    h1 = m3_fmix64(h1);
    h2 = m3_fmix64(h2);
    h1 += h2;
    h2 += h1;
    return (m3_hash128){ h1, h2 };
}

/* Keys of 25..31 bytes: one block and a two-word tail, out of line (inline, these
 * register-hungry cases made every call save and restore a register). */
M3_INLINE m3_hash128 m3_25_31_inline(const uint8_t *p, size_t n, uint64_t seed)
{
    uint64_t h1 = seed, h2 = seed;
    M3_BLOCK(p);
    switch (n) {
    case 25: m3_tail(p + 16, 9, true, &h1, &h2); break;
    case 26: m3_tail(p + 16, 10, true, &h1, &h2); break;
    case 27: m3_tail(p + 16, 11, true, &h1, &h2); break;
    case 28: m3_tail(p + 16, 12, true, &h1, &h2); break;
    case 29: m3_tail(p + 16, 13, true, &h1, &h2); break;
    case 30: m3_tail(p + 16, 14, true, &h1, &h2); break;
    default: m3_tail(p + 16, 15, true, &h1, &h2); break;
    }
    return m3_finish(h1, h2, n);
}

__attribute__((noinline, unused)) static m3_hash128 m3_25_31(const uint8_t *p, size_t n,
                                                       uint64_t seed)
{
    return m3_25_31_inline(p, n, seed);
}

/* Jump-table cases: one specialised straight-line copy per length. Keys of 1..15 bytes
 * are all tail; 16..31 bytes are one block and a tail. */
#define M3_TAIL_CASE(T)                                                                        \
    case T:                                                                                 \
        m3_tail(p, T, false, &h1, &h2);                                                        \
        break;                                                                              \
    case 16 + T:                                                                            \
        if (T > 8)                                                                          \
            return M3_HASH_25_31;                                                              \
        M3_BLOCK(p);                                                                           \
        m3_tail(p + 16, T, true, &h1, &h2);                                                    \
        break
#define M3_SHORT_CASES                                                                         \
    M3_TAIL_CASE(1);                                                                           \
    M3_TAIL_CASE(2);                                                                           \
    M3_TAIL_CASE(3);                                                                           \
    M3_TAIL_CASE(4);                                                                           \
    M3_TAIL_CASE(5);                                                                           \
    M3_TAIL_CASE(6);                                                                           \
    M3_TAIL_CASE(7);                                                                           \
    M3_TAIL_CASE(8);                                                                           \
    M3_TAIL_CASE(9);                                                                           \
    M3_TAIL_CASE(10);                                                                          \
    M3_TAIL_CASE(11);                                                                          \
    M3_TAIL_CASE(12);                                                                          \
    M3_TAIL_CASE(13);                                                                          \
    M3_TAIL_CASE(14);                                                                          \
    M3_TAIL_CASE(15);                                                                          \
    case 16:                                                                                \
        M3_BLOCK(p);                                                                           \
        break

/* The tail of a long key, after its blocks: the last t bytes at p (1..15). */
#define M3_LONG_TAIL_CASE(T)                                                                   \
    case T:                                                                                 \
        m3_tail(p, T, true, &h1, &h2);                                                         \
        break
#define M3_LONG_TAIL_CASES                                                                     \
    M3_LONG_TAIL_CASE(1);                                                                      \
    M3_LONG_TAIL_CASE(2);                                                                      \
    M3_LONG_TAIL_CASE(3);                                                                      \
    M3_LONG_TAIL_CASE(4);                                                                      \
    M3_LONG_TAIL_CASE(5);                                                                      \
    M3_LONG_TAIL_CASE(6);                                                                      \
    M3_LONG_TAIL_CASE(7);                                                                      \
    M3_LONG_TAIL_CASE(8);                                                                      \
    M3_LONG_TAIL_CASE(9);                                                                      \
    M3_LONG_TAIL_CASE(10);                                                                     \
    M3_LONG_TAIL_CASE(11);                                                                     \
    M3_LONG_TAIL_CASE(12);                                                                     \
    M3_LONG_TAIL_CASE(13);                                                                     \
    M3_LONG_TAIL_CASE(14);                                                                     \
    M3_LONG_TAIL_CASE(15)

enum m3_hash_result { M3_HASH_EMPTY, M3_HASH_DONE, M3_HASH_25_31 };

/* Keys of 32 bytes or more into (*h1_io, *h2_io). */
M3_INLINE void m3_long(const uint8_t *p, size_t n, uint64_t *h1_io, uint64_t *h2_io)
{
    uint64_t h1 = *h1_io, h2 = *h2_io;
    /* The blocks: the first one, one more if that leaves an odd count, then two per
     * iteration. (Four per iteration, after one and two more as needed, took 2% fewer
     * instructions at 256 bytes but two data-dependent branches: 8-9% slower than the
     * reference on keys of random lengths up to 300 or 1000 bytes, against 2% now.) */
    const uint8_t *end = p + (n & ~(size_t)15);
    M3_BLOCK(p);
    p += 16;
    if (!(n & 16)) {
        M3_BLOCK(p);
        p += 16;
    }
    for (; p < end; p += 32) {
        M3_BLOCK(p);
        M3_BLOCK(p + 16);
    }
    if (n & 15) {
        p = end;
        switch (n & 15) {
            M3_LONG_TAIL_CASES;
        default: break;
        }
    }
    *h1_io = h1;
    *h2_io = h2;
}

/* Cassandra's MurmurHash3_x64_128 of the n bytes at p into *out: M3_HASH_DONE; M3_HASH_EMPTY for
 * n == 0 (reads nothing); M3_HASH_25_31 for 25..31 bytes, which the caller hashes with
 * m3_25_31(). *out is set only for M3_HASH_DONE. short_likely lays the code out for
 * keys under 32 bytes (the single-key call: it also spares two register moves there; the
 * batch loop is faster without it). */
M3_INLINE enum m3_hash_result m3_hash(const uint8_t *p, size_t n, uint64_t seed, m3_hash128 *out,
                                       bool short_likely)
{
    uint64_t h1 = seed, h2 = seed;
    /* (the same test twice: the hint in a conditional expression is lost) */
    if (short_likely) {
        if (__builtin_expect(n >= 32, 0)) {
            m3_long(p, n, &h1, &h2);
        } else {
            switch (n) {
                M3_SHORT_CASES;
            default: return M3_HASH_EMPTY; /* n == 0 */
            }
        }
    } else if (n >= 32) {
        m3_long(p, n, &h1, &h2);
    } else {
        switch (n) {
            M3_SHORT_CASES;
        default: return M3_HASH_EMPTY; /* n == 0 */
        }
    }
    *out = m3_finish(h1, h2, n);
    return M3_HASH_DONE;
}

/* GCOVR_EXCL_BR_STOP */

/* The partitioner's rule: Cassandra never returns Long.MIN_VALUE; a raw minimum becomes
 * the maximum. The conversion is two's complement reinterpretation (implementation-
 * defined in C11, exact on every supported compiler). */
static inline int64_t m3_min_to_max(uint64_t h1)
{
    int64_t t = (int64_t)h1, unused;
    /* t - 1 overflows exactly when t is the minimum: a compare and a never-taken branch */
    if (__builtin_expect(__builtin_sub_overflow(t, 1, &unused), 0))
        return TOKENRING_MAX_TOKEN;
    return t;
}

/* Out of line so that the hot path does not keep the constant in a register. */
__attribute__((cold, noinline, unused)) static int64_t m3_min_token(void)
{
    return TOKENRING_MIN_TOKEN;
}

__attribute__((noinline, unused)) static int64_t m3_token_25_31(const uint8_t *p, size_t n)
{
    return m3_min_to_max(m3_25_31_inline(p, n, 0).h1);
}

/* The token of a key (NULL or empty: the minimum). */
M3_INLINE int64_t m3_token_of(const uint8_t *p, size_t n)
{
    m3_hash128 h;
    if (__builtin_expect(p == NULL, 0))
        return m3_min_token();
    switch (m3_hash(p, n, 0, &h, true)) {
    case M3_HASH_DONE: return m3_min_to_max(h.h1);
    case M3_HASH_25_31: return m3_token_25_31(p, n);
    default: return m3_min_token();
    }
}

#endif
