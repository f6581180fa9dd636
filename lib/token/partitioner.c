/* SPDX-License-Identifier: Apache-2.0 */
/*
 * RandomPartitioner and ByteOrderedPartitioner tokens (include/tokenring/partitioner.h).
 *
 * MD5 is written from RFC 1321's description: four rounds of sixteen steps over 64-byte
 * blocks of little-endian words, the sine-derived constants T[i] = floor(2^32 *
 * |sin(i + 1)|), and the padding (0x80, zeros, the bit length as a little-endian 64-bit
 * word). The batch call hashes each key straight from the caller's buffer, copying only
 * the last partial block and the padding.
 *
 * 128-bit arithmetic uses two uint64_t halves (no compiler extension types, so the
 * library stays ISO C11 under -pedantic); decimal conversion works on 32-bit limbs.
 */
#include <string.h>

#include "internal.h"
#include "token.h"

/* ------------------------------------------------------------------------- MD5 */

static const uint32_t md5_t[64] = {
    0xd76aa478U, 0xe8c7b756U, 0x242070dbU, 0xc1bdceeeU,
    0xf57c0fafU, 0x4787c62aU, 0xa8304613U, 0xfd469501U,
    0x698098d8U, 0x8b44f7afU, 0xffff5bb1U, 0x895cd7beU,
    0x6b901122U, 0xfd987193U, 0xa679438eU, 0x49b40821U,
    0xf61e2562U, 0xc040b340U, 0x265e5a51U, 0xe9b6c7aaU,
    0xd62f105dU, 0x02441453U, 0xd8a1e681U, 0xe7d3fbc8U,
    0x21e1cde6U, 0xc33707d6U, 0xf4d50d87U, 0x455a14edU,
    0xa9e3e905U, 0xfcefa3f8U, 0x676f02d9U, 0x8d2a4c8aU,
    0xfffa3942U, 0x8771f681U, 0x6d9d6122U, 0xfde5380cU,
    0xa4beea44U, 0x4bdecfa9U, 0xf6bb4b60U, 0xbebfbc70U,
    0x289b7ec6U, 0xeaa127faU, 0xd4ef3085U, 0x04881d05U,
    0xd9d4d039U, 0xe6db99e5U, 0x1fa27cf8U, 0xc4ac5665U,
    0xf4292244U, 0x432aff97U, 0xab9423a7U, 0xfc93a039U,
    0x655b59c3U, 0x8f0ccc92U, 0xffeff47dU, 0x85845dd1U,
    0x6fa87e4fU, 0xfe2ce6e0U, 0xa3014314U, 0x4e0811a1U,
    0xf7537e82U, 0xbd3af235U, 0x2ad7d2bbU, 0xeb86d391U,
};

/* Left-rotation amounts: four per round, repeating within the round. */
static const uint8_t md5_s[4][4] = {
    {7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21},
};

static inline uint32_t rotl32(uint32_t x, unsigned r)
{
    return (x << r) | (x >> (32u - r));
}

static inline uint32_t load_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

/* One 64-byte block into the state st[4] = {A, B, C, D}. */
static void md5_block(uint32_t st[4], const uint8_t *blk)
{
    uint32_t x[16];
    for (unsigned i = 0; i < 16; i++)
        x[i] = load_le32(blk + 4 * i);
    uint32_t a = st[0], b = st[1], c = st[2], d = st[3];
    for (unsigned i = 0; i < 64; i++) {
        uint32_t f;
        unsigned g;
        switch (i >> 4) {
        case 0: f = (b & c) | (~b & d); g = i; break;               /* F */
        case 1: f = (b & d) | (c & ~d); g = (5 * i + 1) & 15; break; /* G */
        case 2: f = b ^ c ^ d; g = (3 * i + 5) & 15; break;         /* H */
        default: f = c ^ (b | ~d); g = (7 * i) & 15; break;         /* I */
        }
        uint32_t t = a + f + x[g] + md5_t[i];
        a = d;
        d = c;
        c = b;
        b = b + rotl32(t, md5_s[i >> 4][i & 3]);
    }
    st[0] += a;
    st[1] += b;
    st[2] += c;
    st[3] += d;
}

static void md5_digest(uint8_t out[16], const uint8_t *p, size_t len)
{
    uint32_t st[4] = {0x67452301U, 0xefcdab89U, 0x98badcfeU, 0x10325476U};
    size_t full = len / 64;
    for (size_t i = 0; i < full; i++)
        md5_block(st, p + 64 * i);
    uint8_t tail[128];
    size_t rest = len - 64 * full;
    if (rest)
        memcpy(tail, p + 64 * full, rest);
    tail[rest] = 0x80;
    size_t total = rest + 1 + 8 <= 64 ? 64 : 128;
    memset(tail + rest + 1, 0, total - 8 - (rest + 1));
    uint64_t bits = (uint64_t)len << 3; /* the length modulo 2^64 bits, as RFC 1321 says */
    for (unsigned i = 0; i < 8; i++)
        tail[total - 8 + i] = (uint8_t)(bits >> (8 * i));
    md5_block(st, tail);
    if (total == 128)
        md5_block(st, tail + 64);
    for (unsigned i = 0; i < 4; i++)
        for (unsigned j = 0; j < 4; j++)
            out[4 * i + j] = (uint8_t)(st[i] >> (8 * j));
}

TOKENRING_API int tokenring_md5(uint8_t out[16], const void *data, size_t len)
{
    if (out == NULL || (data == NULL && len != 0))
        return TOKENRING_E_INVAL;
    md5_digest(out, data, len);
    return TOKENRING_OK;
}

/* ---------------------------------------------------------- RandomPartitioner */

static const tokenring_token128 token128_min = {TOKENRING_TOKEN128_MIN_HI,
                                                TOKENRING_TOKEN128_MIN_LO};

static bool token128_is_min(tokenring_token128 t)
{
    return t.hi == TOKENRING_TOKEN128_MIN_HI && t.lo == TOKENRING_TOKEN128_MIN_LO;
}

TR_HIDDEN tokenring_token128 tr_random_token_from_digest(const uint8_t d[16])
{
    tokenring_token128 t = {0, 0};
    for (unsigned i = 0; i < 8; i++) {
        t.hi = t.hi << 8 | d[i];
        t.lo = t.lo << 8 | d[8 + i];
    }
    if (t.hi >> 63) {
        /* A negative digest: its absolute value is the two's-complement negation, read
         * unsigned. -2^127 negates to itself, which unsigned is 2^127, as BigInteger.abs. */
        t.lo = ~t.lo + 1;
        t.hi = ~t.hi + (t.lo == 0);
    }
    return t;
}

static inline tokenring_token128 random_token(const uint8_t *key, size_t len)
{
    if (len == 0)
        return token128_min;
    uint8_t d[16];
    md5_digest(d, key, len);
    return tr_random_token_from_digest(d);
}

TOKENRING_API tokenring_token128 tokenring_random_token(const void *key, size_t len)
{
    if (key == NULL)
        return token128_min;
    return random_token(key, len);
}

TOKENRING_API int tokenring_random_tokens(tokenring_token128 *tokens_out, const uint8_t *keys,
                                          const uint64_t *offsets, size_t count)
{
    if (count == 0)
        return TOKENRING_OK;
    if (tokens_out == NULL || offsets == NULL || !tr_packed_keys_ok(keys, offsets, count))
        return TOKENRING_E_INVAL;
    for (size_t i = 0; i < count; i++) {
        size_t len = (size_t)(offsets[i + 1] - offsets[i]);
        tokens_out[i] = len ? random_token(keys + offsets[i], len) : token128_min;
    }
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_token128_compare(tokenring_token128 a, tokenring_token128 b)
{
    bool am = token128_is_min(a), bm = token128_is_min(b);
    if (am || bm)
        return (int)bm - (int)am;
    if (a.hi != b.hi)
        return a.hi < b.hi ? -1 : 1;
    if (a.lo != b.lo)
        return a.lo < b.lo ? -1 : 1;
    return 0;
}

static bool token128_valid(tokenring_token128 t)
{
    return token128_is_min(t) || t.hi < TOKENRING_TOKEN128_MAX_HI ||
           (t.hi == TOKENRING_TOKEN128_MAX_HI && t.lo == 0);
}

TOKENRING_API int tokenring_token128_format(char *out, size_t cap, size_t *len_out,
                                            tokenring_token128 token)
{
    if (len_out == NULL || (out == NULL && cap != 0))
        return TOKENRING_E_INVAL;
    if (!token128_valid(token))
        return TOKENRING_E_RANGE;
    char digits[TOKENRING_TOKEN128_TEXT_MAX];
    size_t n = 0;
    if (token128_is_min(token)) {
        digits[0] = '-';
        digits[1] = '1';
        n = 2;
    } else {
        /* Most significant limb first; divide by ten until zero, digits come out last
         * first. */
        uint32_t limb[4] = {(uint32_t)(token.hi >> 32), (uint32_t)token.hi,
                            (uint32_t)(token.lo >> 32), (uint32_t)token.lo};
        char rev[TOKENRING_TOKEN128_TEXT_MAX];
        size_t r = 0;
        do {
            uint64_t rem = 0;
            for (unsigned i = 0; i < 4; i++) {
                uint64_t cur = rem << 32 | limb[i];
                limb[i] = (uint32_t)(cur / 10);
                rem = cur % 10;
            }
            rev[r++] = (char)('0' + rem);
        } while (limb[0] | limb[1] | limb[2] | limb[3]);
        while (r)
            digits[n++] = rev[--r];
    }
    *len_out = n;
    if (cap < n + 1)
        return TOKENRING_E_BUFSIZE;
    memcpy(out, digits, n);
    out[n] = '\0';
    return TOKENRING_OK;
}

static uint32_t column_of(size_t i)
{
    return i >= UINT32_MAX ? UINT32_MAX : (uint32_t)(i + 1);
}

TOKENRING_API int tokenring_token128_parse(tokenring_token128 *token_out, const char *text,
                                           size_t text_len, tokenring_error *err)
{
    if (token_out == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "token_out is NULL");
    if (text == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "text is NULL");
    size_t i = 0;
    bool neg = false;
    if (text_len && (text[0] == '+' || text[0] == '-')) {
        neg = text[0] == '-';
        i = 1;
    }
    if (i == text_len)
        return tr_fail_at(err, TOKENRING_E_PARSE, 1, column_of(i),
                          "expected a decimal RandomPartitioner token");
    for (size_t j = i; j < text_len; j++)
        if (text[j] < '0' || text[j] > '9')
            return tr_fail_at(err, TOKENRING_E_PARSE, 1, column_of(j),
                              "expected a decimal digit");
    /* Accumulate in 32-bit limbs (least significant first), saturating once the value
     * passes 2^127: the digits are all checked already, so only the range is left. */
    uint32_t limb[4] = {0, 0, 0, 0};
    bool over = false;
    for (size_t j = i; j < text_len && !over; j++) {
        uint64_t carry = (uint64_t)(text[j] - '0');
        for (unsigned k = 0; k < 4; k++) {
            uint64_t cur = (uint64_t)limb[k] * 10 + carry;
            limb[k] = (uint32_t)cur;
            carry = cur >> 32;
        }
        if (carry || limb[3] > 0x80000000U ||
            (limb[3] == 0x80000000U && (limb[2] | limb[1] | limb[0])))
            over = true;
    }
    tokenring_token128 t = {(uint64_t)limb[3] << 32 | limb[2],
                            (uint64_t)limb[1] << 32 | limb[0]};
    if (neg && !over && (t.hi | t.lo) != 0) {
        if (t.hi == 0 && t.lo == 1) {
            *token_out = token128_min;
            return TOKENRING_OK;
        }
        return tr_fail(err, TOKENRING_E_RANGE,
                       "a RandomPartitioner token is -1 or between 0 and 2^127");
    }
    if (over)
        return tr_fail(err, TOKENRING_E_RANGE,
                       "a RandomPartitioner token is -1 or between 0 and 2^127");
    *token_out = t;
    return TOKENRING_OK;
}

/* ----------------------------------------------------- ByteOrderedPartitioner */

TOKENRING_API int tokenring_byte_token_compare(const uint8_t *a, size_t a_len,
                                               const uint8_t *b, size_t b_len)
{
    if (a == NULL)
        a_len = 0;
    if (b == NULL)
        b_len = 0;
    size_t n = a_len < b_len ? a_len : b_len;
    int c = n ? memcmp(a, b, n) : 0;
    if (c)
        return c < 0 ? -1 : 1;
    return a_len < b_len ? -1 : a_len > b_len ? 1 : 0;
}

TOKENRING_API int tokenring_byte_token_format(char *out, size_t cap, size_t *len_out,
                                              const uint8_t *token, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    if (len_out == NULL || (out == NULL && cap != 0) || (token == NULL && len != 0))
        return TOKENRING_E_INVAL;
    if (len > (SIZE_MAX - 1) / 2)
        return TOKENRING_E_RANGE;
    *len_out = 2 * len;
    if (cap < 2 * len + 1)
        return TOKENRING_E_BUFSIZE;
    for (size_t i = 0; i < len; i++) {
        out[2 * i] = hex[token[i] >> 4];
        out[2 * i + 1] = hex[token[i] & 15];
    }
    out[2 * len] = '\0';
    return TOKENRING_OK;
}

static int hex_digit(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

TOKENRING_API int tokenring_byte_token_parse(uint8_t *out, size_t cap, size_t *len_out,
                                             const char *text, size_t text_len,
                                             tokenring_error *err)
{
    if (len_out == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "len_out is NULL");
    if (out == NULL && cap != 0)
        return tr_fail(err, TOKENRING_E_INVAL, "out is NULL but cap is %zu", cap);
    if (text == NULL && text_len != 0)
        return tr_fail(err, TOKENRING_E_INVAL, "text is NULL");
    for (size_t j = 0; j < text_len; j++)
        if (hex_digit((unsigned char)text[j]) < 0)
            return tr_fail_at(err, TOKENRING_E_PARSE, 1, column_of(j),
                              "expected a hex digit in a ByteOrderedPartitioner token");
    /* An odd count reads as if a '0' led it (Cassandra's fromString pads it). */
    size_t odd = text_len & 1;
    size_t n = text_len / 2 + odd;
    *len_out = n;
    if (n > cap)
        return tr_fail(err, TOKENRING_E_BUFSIZE,
                       "output buffer of %zu bytes is too small: %zu bytes needed", cap, n);
    size_t j = 0;
    if (odd)
        out[0] = (uint8_t)hex_digit((unsigned char)text[j++]);
    for (size_t k = odd; k < n; k++, j += 2)
        out[k] = (uint8_t)(hex_digit((unsigned char)text[j]) << 4 |
                           hex_digit((unsigned char)text[j + 1]));
    return TOKENRING_OK;
}
