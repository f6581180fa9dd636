/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Murmur3Partitioner tokens: Cassandra's MurmurHash3_x64_128, which reads the tail bytes
 * (the last len % 16) as SIGNED bytes, sign-extended to 64 bits before shifting.
 *
 * The body is the textbook loop over 16-byte blocks read as two little-endian 64-bit
 * words (memcpy loads, byte-swapped on big-endian hosts). The tail is loaded without a
 * per-byte loop or switch: a zero-padded little-endian word pair is assembled from a few
 * overlapping loads, and the sign extension is applied to all bytes at once:
 *
 *   SEXT(b_i) << 8i  ==  (b_i << 8i)  XOR  (b_i >= 0x80 ? ~0 << 8(i+1) : 0)
 *
 * so byte j of the correction is 0xFF exactly when an odd number of the bytes below j
 * have their top bit set: an exclusive prefix-XOR of the per-byte sign bits, computed
 * with three shift-XOR steps and widened to whole bytes by a multiplication by 0xFF.
 * Padding bytes are zero, so they contribute nothing, and a zero k1/k2 mixes to zero,
 * so the "if tail length > 0 / > 8" branches of the reference code are not needed.
 */
#include <string.h>

#include "internal.h"

#define C1 0x87c37b91114253d5ULL
#define C2 0x4cf5ad432745937fULL

static inline uint64_t rotl64(uint64_t x, unsigned r)
{
    return (x << r) | (x >> (64 - r));
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

/* The XOR correction that turns an unsigned little-endian reading of up to 8 bytes into
 * Cassandra's XOR of sign-extended bytes (see the comment at the top). */
static inline uint64_t sign_fix(uint64_t x)
{
    uint64_t s = (x >> 7) & 0x0101010101010101ULL; /* bit 0 of byte i = top bit of byte i */
    s ^= s << 8;
    s ^= s << 16;
    s ^= s << 32;                                   /* inclusive prefix XOR per byte */
    return (s << 8) * 0xFFu;                        /* exclusive, widened to 0x00/0xFF */
}

/* The tail (t = n % 16 bytes at p, 0 <= t < 16) as two zero-padded little-endian words.
 * @p whole is the start of the key and @p n its length: when n >= 16 the last 16 bytes of
 * the key may be read as one block and shifted, which needs no branch on t. */
static inline void load_tail(uint64_t *lo, uint64_t *hi, const uint8_t *whole, size_t n,
                             const uint8_t *p, size_t t)
{
    if (t == 0) {
        *lo = *hi = 0;
    } else if (n >= 16) {
        uint64_t a = load64(whole + n - 16), b = load64(whole + n - 8);
        unsigned s = (unsigned)(16 - t) * 8; /* 8 .. 120 */
        if (s >= 64) {
            *lo = b >> (s - 64);
            *hi = 0;
        } else {
            *lo = (a >> s) | (b << (64 - s));
            *hi = b >> s;
        }
    } else if (t >= 8) {
        *lo = load64(p);
        *hi = t == 8 ? 0 : load64(p + t - 8) >> ((16 - t) * 8);
    } else if (t >= 4) {
        *lo = load32(p) | (load32(p + t - 4) << ((t - 4) * 8));
        *hi = 0;
    } else {
        *lo = (uint64_t)p[0] | ((uint64_t)p[t >> 1] << ((t >> 1) * 8)) |
              ((uint64_t)p[t - 1] << ((t - 1) * 8));
        *hi = 0;
    }
}

static inline void murmur3(const uint8_t *key, size_t n, uint64_t seed, uint64_t *o1,
                           uint64_t *o2)
{
    uint64_t h1 = seed, h2 = seed;
    size_t nblocks = n / 16;
    const uint8_t *p = key;

    for (size_t i = 0; i < nblocks; i++, p += 16) {
        uint64_t k1 = load64(p), k2 = load64(p + 8);
        k1 *= C1;
        k1 = rotl64(k1, 31);
        k1 *= C2;
        h1 ^= k1;
        h1 = rotl64(h1, 27);
        h1 += h2;
        h1 = h1 * 5 + 0x52dce729;
        k2 *= C2;
        k2 = rotl64(k2, 33);
        k2 *= C1;
        h2 ^= k2;
        h2 = rotl64(h2, 31);
        h2 += h1;
        h2 = h2 * 5 + 0x38495ab5;
    }

    uint64_t k1, k2;
    load_tail(&k1, &k2, key, n, p, n & 15);
    k1 ^= sign_fix(k1);
    k2 ^= sign_fix(k2);
    k2 *= C2;
    k2 = rotl64(k2, 33);
    k2 *= C1;
    h2 ^= k2;
    k1 *= C1;
    k1 = rotl64(k1, 31);
    k1 *= C2;
    h1 ^= k1;

    h1 ^= (uint64_t)n;
    h2 ^= (uint64_t)n;
    h1 += h2;
    h2 += h1;
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 += h2;
    h2 += h1;
    *o1 = h1;
    *o2 = h2;
}

static inline int64_t token_of(const uint8_t *key, size_t len)
{
    if (len == 0)
        return TOKENRING_MIN_TOKEN;
    uint64_t h1, h2;
    murmur3(key, len, 0, &h1, &h2);
    (void)h2;
    /* Two's complement reinterpretation (implementation-defined in C11 but exact on
     * every compiler we support); MIN is normalised to MAX. */
    int64_t t = (int64_t)h1;
    return t == TOKENRING_MIN_TOKEN ? TOKENRING_MAX_TOKEN : t;
}

TOKENRING_API int64_t tokenring_token(const void *key, size_t len)
{
    if (key == NULL)
        return TOKENRING_MIN_TOKEN;
    return token_of(key, len);
}

TOKENRING_API int tokenring_tokens(int64_t *tokens_out, const uint8_t *keys,
                                   const uint64_t *offsets, size_t count)
{
    if (count == 0)
        return TOKENRING_OK;
    if (tokens_out == NULL || offsets == NULL)
        return TOKENRING_E_INVAL;
    /* Validate everything before writing anything. */
    for (size_t i = 0; i < count; i++)
        if (offsets[i + 1] < offsets[i])
            return TOKENRING_E_INVAL;
    if (offsets[count] > (uint64_t)SIZE_MAX)
        return TOKENRING_E_INVAL;
    if (keys == NULL && offsets[count] != offsets[0])
        return TOKENRING_E_INVAL;
    for (size_t i = 0; i < count; i++) {
        size_t a = (size_t)offsets[i], len = (size_t)(offsets[i + 1] - offsets[i]);
        tokens_out[i] = len ? token_of(keys + a, len) : TOKENRING_MIN_TOKEN;
    }
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_murmur3_cassandra(int64_t out[2], const void *key, size_t len,
                                              uint64_t seed)
{
    if (out == NULL || (key == NULL && len != 0))
        return TOKENRING_E_INVAL;
    uint64_t h1, h2;
    static const uint8_t empty[1] = { 0 };
    murmur3(key ? key : empty, len, seed, &h1, &h2);
    out[0] = (int64_t)h1;
    out[1] = (int64_t)h2;
    return TOKENRING_OK;
}
