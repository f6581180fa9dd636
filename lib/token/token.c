/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The partitioner table (lib/token/token.h): for each of Murmur3Partitioner, RandomPartitioner
 * and ByteOrderedPartitioner, what Cassandra's IPartitioner and Token.TokenFactory do
 * with a token: order, midpoint, size of a range, text form, token of a key. The
 * arithmetic is Cassandra's own (Murmur3Partitioner.midpoint, FBUtilities.midpoint,
 * ByteOrderedPartitioner's bigForBytes / bytesForBig); the text forms are the public
 * parse and format functions', so there is one reader and one writer of each. The
 * partitioners' names (tokenring_partitioner_name, tokenring_partitioner_parse) are read
 * from the table here, so partitioner.c (the tokens' arithmetic) never reads it back.
 */
#include <stdio.h>
#include <string.h>

#include "murmur3_core.h"
#include "token.h"

#define TWO_127 ((tr_u128)1 << 127)

static int cmp_tok(const tr_tok *a, const tr_tok *b)
{
    return tr_tok_cmp(a, b);
}

static int64_t key_of(const tr_tok *t)
{
    return t->key;
}

/* ---------------------------------------------------------------- Murmur3 */

static tr_i128 floor_half(tr_i128 x)
{
    return x >= 0 ? x / 2 : -((-x + 1) / 2);
}

/* Murmur3Partitioner.midpoint(): (l + r) / 2, or for the wrapping range (l >= r)
 * (max - min + l + r) / 2 brought back past max, in BigInteger (floor) arithmetic. */
static tr_tok m3_midpoint(const tr_tok *l, const tr_tok *r, uint8_t *buf)
{
    (void)buf;
    int64_t a = l->key, b = r->key;
    if (a < b)
        return tr_tok_m3((int64_t)floor_half((tr_i128)a + b));
    tr_i128 m = floor_half((tr_i128)INT64_MAX - (tr_i128)INT64_MIN + a + b);
    if (m > INT64_MAX)
        m = (tr_i128)INT64_MIN + (m - INT64_MAX);
    return tr_tok_m3((int64_t)m);
}

static tr_u128 m3_size(const tr_tok *from, const tr_tok *to)
{
    uint64_t w = (uint64_t)to->key - (uint64_t)from->key;
    return w ? (tr_u128)w : (tr_u128)1 << 64;
}

static int m3_parse(tr_tok *out, uint8_t *buf, const char *text, size_t len,
                    tokenring_error *err)
{
    (void)buf;
    int64_t v = 0;
    int rc = tokenring_token_parse(&v, text, len, err);
    if (rc == TOKENRING_OK)
        *out = tr_tok_m3(v);
    return rc;
}

/* Writes text[0 .. n) and a NUL to out, or says how long it is. */
static int put_text(char *out, size_t cap, size_t *len_out, const char *text, size_t n)
{
    *len_out = n;
    if (cap < n + 1)
        return TOKENRING_E_BUFSIZE;
    memcpy(out, text, n);
    out[n] = '\0';
    return TOKENRING_OK;
}

static int m3_format(char *out, size_t cap, size_t *len_out, const tr_tok *t)
{
    char text[24];
    int n = snprintf(text, sizeof text, "%lld", (long long)t->key);
    return put_text(out, cap, len_out, text, (size_t)n);
}

static tr_tok m3_key_token(const void *key, size_t len)
{
    return tr_tok_m3(tokenring_token(key, len));
}

static int m3_check(const tr_tok *t, size_t index, const char *node, tokenring_error *err)
{
    (void)t, (void)index, (void)node, (void)err;
    return TOKENRING_OK;
}

/* ------------------------------------------------------- RandomPartitioner */

static bool is_min128(tokenring_token128 v)
{
    return v.hi == UINT64_MAX && v.lo == UINT64_MAX;
}

/* The value as a 128-bit integer, the minimum (-1) as 0 (Cassandra's midpoint). */
static tr_u128 value128(const tr_tok *t)
{
    if (is_min128(t->v128))
        return 0;
    return ((tr_u128)t->v128.hi << 64) | t->v128.lo;
}

static tr_tok tok_of128(tr_u128 v)
{
    tokenring_token128 t = { (uint64_t)(v >> 64), (uint64_t)v };
    return tr_tok_128(t);
}

/* RandomPartitioner.midpoint() (FBUtilities.midpoint over 127 bits, the remainder
 * dropped); l >= r is the wrapping range of 2^127 + r - l. */
static tr_tok rp_midpoint(const tr_tok *l, const tr_tok *r, uint8_t *buf)
{
    (void)buf;
    tr_u128 a = value128(l), b = value128(r);
    if (a < b)
        return tok_of128((a + b) >> 1);
    return tok_of128((((TWO_127 + b - a) >> 1) + a) % TWO_127);
}

/* describeOwnership's width: (to - from + R) mod R with R = 2^127 (so 0 and 2^127 are
 * one point), R when from == to. */
static tr_u128 rp_size(const tr_tok *from, const tr_tok *to)
{
    tr_u128 a = value128(from), b = value128(to);
    if (a == b)
        return TWO_127;
    tr_u128 w = b + TWO_127 - a; /* both in 0 .. R: in 0 .. 2R */
    while (w >= TWO_127)
        w -= TWO_127;
    return w;
}

static int rp_parse(tr_tok *out, uint8_t *buf, const char *text, size_t len,
                    tokenring_error *err)
{
    (void)buf;
    tokenring_token128 v = { 0, 0 };
    int rc = tokenring_token128_parse(&v, text, len, err);
    if (rc == TOKENRING_OK)
        *out = tr_tok_128(v);
    return rc;
}

static int rp_format(char *out, size_t cap, size_t *len_out, const tr_tok *t)
{
    char text[TOKENRING_TOKEN128_TEXT_MAX];
    size_t n;
    int rc = tokenring_token128_format(text, sizeof text, &n, t->v128);
    if (rc != TOKENRING_OK) /* not a token (above 2^127): as the bytes would never hold */
        return rc;
    return put_text(out, cap, len_out, text, n);
}

static tr_tok rp_key_token(const void *key, size_t len)
{
    return tr_tok_128(tokenring_random_token(key, len));
}

static int64_t rp_hash(const tr_tok *t)
{
    return (int64_t)(m3_fmix64(t->v128.hi) ^ t->v128.lo);
}

static int rp_check(const tr_tok *t, size_t index, const char *node, tokenring_error *err)
{
    tokenring_token128 v = t->v128;
    if (v.hi < TOKENRING_TOKEN128_MAX_HI || (v.hi == TOKENRING_TOKEN128_MAX_HI && v.lo == 0))
        return TOKENRING_OK;
    return tr_fail(err, TOKENRING_E_RANGE,
                   "token %zu of node '%s' is %s: RandomPartitioner node tokens are 0 .. 2^127",
                   index, node, is_min128(v) ? "-1 (the minimum token)" : "above 2^127");
}

/* -------------------------------------------------- ByteOrderedPartitioner */

/* ByteOrderedPartitioner.midpoint(): both tokens as unsigned integers of sigbytes =
 * max(lengths) bytes (the shorter padded with zeros on the right, bigForBytes),
 * FBUtilities.midpoint over 8 * sigbytes bits, and the result as sigbytes bytes plus, when
 * the sum was odd, a byte 0x80 (bytesForBig's remainder bit). Big-endian byte arithmetic
 * in buf (TR_TOK_MID_ROOM bytes). */
static tr_tok bop_midpoint(const tr_tok *l, const tr_tok *r, uint8_t *buf)
{
    size_t n = l->len > r->len ? l->len : r->len;
#define BYTE_AT(t, i) ((i) < (t)->len ? (t)->b[i] : 0)
    int c = tr_cmp_bytes(l->b, l->len, r->b, r->len);
    /* left < right as padded integers is the byte order unless one is the other padded
     * with zeros (then they are equal as integers: the wrapping case, as in Java). */
    bool less = false;
    if (c < 0)
        for (size_t i = 0; i < n; i++)
            if (BYTE_AT(l, i) != BYTE_AT(r, i)) {
                less = true;
                break;
            }
    /* sum = left + right (less), or 2^(8n) + right - left (wrapping), in n + 1 bytes:
     * buf[0] holds the carry (the bit 8n), buf[1 .. n] the low bytes. */
    if (less) {
        unsigned carry = 0;
        for (size_t i = n; i-- > 0;) {
            unsigned s = (unsigned)BYTE_AT(l, i) + BYTE_AT(r, i) + carry;
            buf[i + 1] = (uint8_t)s;
            carry = s >> 8;
        }
        buf[0] = (uint8_t)carry;
    } else {
        /* right - left as n bytes with a borrow, then + 2^(8n) */
        unsigned borrow = 0;
        for (size_t i = n; i-- > 0;) {
            int d = (int)BYTE_AT(r, i) - (int)BYTE_AT(l, i) - (int)borrow;
            borrow = d < 0;
            buf[i + 1] = (uint8_t)(d + (d < 0 ? 256 : 0));
        }
        buf[0] = (uint8_t)(1 - borrow); /* + 2^(8n), less the borrow's 2^(8n) */
    }
    bool remainder = n ? (buf[n] & 1) : (buf[0] & 1);
    /* halve the n + 1 bytes: shift right one bit */
    for (size_t i = n + 1; i-- > 0;) {
        unsigned hi = i ? buf[i - 1] & 1 : 0;
        buf[i] = (uint8_t)(buf[i] >> 1 | hi << 7);
    }
    /* buf[1 .. n] holds half (below 2^(8n) when less; distance / 2 otherwise) */
    if (!less) {
        /* + left, mod 2^(8n) */
        unsigned cy = 0;
        for (size_t i = n; i-- > 0;) {
            unsigned s = (unsigned)buf[i + 1] + BYTE_AT(l, i) + cy;
            buf[i + 1] = (uint8_t)s;
            cy = s >> 8;
        }
    }
#undef BYTE_AT
    if (n > 0) /* (also keeps gcc -O3 from seeing an unbounded move) */
        memmove(buf, buf + 1, n);
    if (remainder)
        buf[n] = 0x80;
    return tr_tok_bytes(buf, n + remainder);
}

static tr_u128 bop_size(const tr_tok *from, const tr_tok *to)
{
    (void)from, (void)to;
    return 0;
}

static int bop_parse(tr_tok *out, uint8_t *buf, const char *text, size_t len,
                     tokenring_error *err)
{
    size_t n = 0;
    int rc = tokenring_byte_token_parse(buf, TR_TOK_PARSE_ROOM(len), &n, text, len, err);
    if (rc != TOKENRING_OK)
        return rc;
    *out = tr_tok_bytes(buf, n);
    return TOKENRING_OK;
}

static int bop_format(char *out, size_t cap, size_t *len_out, const tr_tok *t)
{
    return tokenring_byte_token_format(out, cap, len_out, t->b, t->len);
}

static tr_tok bop_key_token(const void *key, size_t len)
{
    return tr_tok_bytes(key, len);
}

static int64_t bop_hash(const tr_tok *t)
{
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */
    for (size_t i = 0; i < t->len; i++)
        h = (h ^ t->b[i]) * 0x100000001b3ULL;
    return (int64_t)m3_fmix64(h ^ t->len);
}

static int bop_check(const tr_tok *t, size_t index, const char *node, tokenring_error *err)
{
    if (t->len <= TOKENRING_BYTE_TOKEN_MAX)
        return TOKENRING_OK;
    return tr_fail(err, TOKENRING_E_RANGE, "token %zu of node '%s' has %zu bytes (at most %d)",
                   index, node, t->len, TOKENRING_BYTE_TOKEN_MAX);
}

/* ------------------------------------------------------------------ the table */

static const tr_partitioner_ops ops[3] = {
    {
        TOKENRING_PARTITIONER_MURMUR3, "org.apache.cassandra.dht.Murmur3Partitioner",
        "murmur3", "64-bit integers", 64, true, 20,
        { INT64_MIN, { 0, 0 }, NULL, 0, TOKENRING_PARTITIONER_MURMUR3 },
        cmp_tok, m3_midpoint, m3_size, m3_parse, m3_format, m3_key_token, key_of, key_of,
        m3_check,
    },
    {
        TOKENRING_PARTITIONER_RANDOM, "org.apache.cassandra.dht.RandomPartitioner", "random",
        "128-bit integers", 127, false, TOKENRING_TOKEN128_TEXT_MAX - 1,
        { INT64_MIN, { UINT64_MAX, UINT64_MAX }, NULL, 0, TOKENRING_PARTITIONER_RANDOM },
        cmp_tok, rp_midpoint, rp_size, rp_parse, rp_format, rp_key_token, key_of, rp_hash,
        rp_check,
    },
    {
        TOKENRING_PARTITIONER_BYTE_ORDERED, "org.apache.cassandra.dht.ByteOrderedPartitioner",
        "byteordered", "byte strings", 0, false, (size_t)2 * TOKENRING_BYTE_TOKEN_MAX,
        { INT64_MIN, { 0, 0 }, NULL, 0, TOKENRING_PARTITIONER_BYTE_ORDERED },
        cmp_tok, bop_midpoint, bop_size, bop_parse, bop_format, bop_key_token, key_of,
        bop_hash, bop_check,
    },
};

TR_HIDDEN const tr_partitioner_ops *tr_partitioner_ops_of(tokenring_partitioner p)
{
    int i = (int)p;
    if (i < TOKENRING_PARTITIONER_MURMUR3 || i > TOKENRING_PARTITIONER_BYTE_ORDERED)
        return NULL;
    return &ops[i];
}

TR_HIDDEN const tr_partitioner_ops *tr_ops(int32_t p)
{
    return &ops[p];
}

TR_HIDDEN int tr_tok_store(int32_t p, const tr_tok *toks, size_t n, tokenring_token128 **t128,
                           uint8_t **tb, uint32_t **off)
{
    *t128 = NULL;
    *tb = NULL;
    *off = NULL;
    if (p == TOKENRING_PARTITIONER_RANDOM) { /* the column's layout is the partitioner's */
        if (!(*t128 = tr_reallocarray(NULL, n ? n : 1, sizeof **t128)))
            return TOKENRING_E_NOMEM;
        for (size_t i = 0; i < n; i++)
            (*t128)[i] = toks[i].v128;
        return TOKENRING_OK;
    }
    if (p != TOKENRING_PARTITIONER_BYTE_ORDERED)
        return TOKENRING_OK;
    size_t bytes = 0; /* at most UINT32_MAX: the caller checked */
    for (size_t i = 0; i < n; i++)
        bytes += toks[i].len;
    *off = tr_reallocarray(NULL, n + 1, sizeof **off);
    *tb = tr_malloc(bytes ? bytes : 1);
    if (!*off || !*tb) {
        tr_free(*off);
        tr_free(*tb);
        *off = NULL;
        *tb = NULL;
        return TOKENRING_E_NOMEM;
    }
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        (*off)[i] = (uint32_t)at;
        if (toks[i].len)
            memcpy(*tb + at, toks[i].b, toks[i].len);
        at += toks[i].len;
    }
    (*off)[n] = (uint32_t)at;
    return TOKENRING_OK;
}

TR_HIDDEN int tr_tok_qsort_cmp(const void *a, const void *b)
{
    return tr_tok_cmp(a, b);
}

TR_HIDDEN const char *tr_tok_msg(char buf[TR_TOK_MSG_MAX], const tr_tok *t)
{
    size_t len;
    if (t->p == TOKENRING_PARTITIONER_BYTE_ORDERED) {
        if (t->len == 0) {
            strcpy(buf, "'' (empty)");
            return buf;
        }
        size_t n = t->len > 32 ? 32 : t->len;
        tokenring_byte_token_format(buf, TR_TOK_MSG_MAX, &len, t->b, n);
        if (t->len > n)
            strcat(buf, "...");
        return buf;
    }
    ops[t->p].format(buf, TR_TOK_MSG_MAX, &len, t);
    return buf;
}

/* ------------------------------------------------------------------ partitioners */

/* The names are the table's (above). */
TOKENRING_API const char *tokenring_partitioner_name(tokenring_partitioner partitioner)
{
    const tr_partitioner_ops *o = tr_partitioner_ops_of(partitioner);
    return o ? o->name : NULL;
}

/* Whether text[0 .. len) is name exactly (a Java class name). */
static bool class_is(const char *text, size_t len, const char *name)
{
    return strlen(name) == len && memcmp(text, name, len) == 0;
}

/* Whether text[0 .. len) is name, ASCII case ignored. */
static bool name_is(const char *text, size_t len, const char *name)
{
    if (strlen(name) != len)
        return false;
    for (size_t i = 0; i < len; i++) {
        unsigned char a = (unsigned char)text[i], b = (unsigned char)name[i];
        if (a >= 'A' && a <= 'Z')
            a = (unsigned char)(a - 'A' + 'a');
        if (b >= 'A' && b <= 'Z')
            b = (unsigned char)(b - 'A' + 'a');
        if (a != b)
            return false;
    }
    return true;
}

TOKENRING_API int tokenring_partitioner_parse(tokenring_partitioner *out, const char *text,
                                              size_t text_len, tokenring_error *err)
{
    if (out == NULL || text == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "%s is NULL", out ? "text" : "out");
    static const char pkg[] = "org.apache.cassandra.dht.";
    /* Class names as Cassandra reads them (FBUtilities.newPartitioner: a name without a
     * '.' is in org.apache.cassandra.dht; Class.forName is case-sensitive); the short
     * forms are the library's own, any case. */
    const tr_partitioner_ops *o;
    for (int p = 0; (o = tr_partitioner_ops_of((tokenring_partitioner)p)) != NULL; p++) {
        const char *cls = o->name;
        if (class_is(text, text_len, cls) || class_is(text, text_len, cls + sizeof pkg - 1) ||
            name_is(text, text_len, o->short_name)) {
            *out = o->id;
            return TOKENRING_OK;
        }
    }
    static const char *const unmodelled[] = { "OrderPreservingPartitioner", "LocalPartitioner" };
    for (size_t i = 0; i < 2; i++) {
        size_t l = strlen(unmodelled[i]);
        if (class_is(text, text_len, unmodelled[i]) ||
            (text_len == sizeof pkg - 1 + l && class_is(text, sizeof pkg - 1, pkg) &&
             class_is(text + sizeof pkg - 1, l, unmodelled[i])))
            return tr_fail(err, TOKENRING_E_UNSUPPORTED,
                           "%s is not modelled (Murmur3Partitioner, RandomPartitioner and "
                           "ByteOrderedPartitioner are)", unmodelled[i]);
    }
    for (int p = 0; (o = tr_partitioner_ops_of((tokenring_partitioner)p)) != NULL; p++) {
        const char *cls = o->name;
        if (name_is(text, text_len, cls) || name_is(text, text_len, cls + sizeof pkg - 1))
            return tr_fail(err, TOKENRING_E_PARSE,
                           "unknown partitioner '%.*s': class names are case-sensitive, as "
                           "in Cassandra (%s)", (int)text_len, text,
                           text_len == strlen(cls) ? cls : cls + sizeof pkg - 1);
    }
    int shown = text_len > 100 ? 100 : (int)text_len;
    return tr_fail(err, TOKENRING_E_PARSE,
                   "unknown partitioner '%.*s' (expected Murmur3Partitioner, RandomPartitioner, "
                   "ByteOrderedPartitioner, their class names, or murmur3, random, byteordered)",
                   shown, text);
}
