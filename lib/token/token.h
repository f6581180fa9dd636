/* SPDX-License-Identifier: Apache-2.0 */
/* One token of any partitioner, and one table of operations per partitioner: Cassandra's
 * IPartitioner / Token.TokenFactory pair (lib/token/token.c). Never installed; every lib/ file
 * may include it.
 *
 * A token (tr_tok) carries the 64-bit order-preserving key that the ring's index searches
 * (a < b implies key(a) <= key(b); for Murmur3 the key is the token itself) and, for the
 * partitioners whose tokens do not fit 64 bits, the full value: RandomPartitioner's
 * 128-bit integer, ByteOrderedPartitioner's bytes (borrowed, never owned by the tr_tok).
 *
 * What stays outside the table, by design: the routing hot path (the ring search and the
 * replicas of a Murmur3 key) keeps its int64 form, and the stored columns of a topology
 * or ring keep their compact layout (int64 keys, 16-byte values, bytes with offsets);
 * tr_tok_at() reads one of them as a tr_tok. */
#ifndef TOKENRING_TOKEN_H
#define TOKENRING_TOKEN_H

#include <string.h>

#include "internal.h"

/* ------------------------------------------------------------------ the token */

typedef struct tr_tok {
    int64_t key;             /* order-preserving 64-bit key; Murmur3: the token */
    tokenring_token128 v128; /* RandomPartitioner: the value, -1 (all ones) the minimum */
    const uint8_t *b;        /* ByteOrderedPartitioner: the bytes, borrowed (NULL if len 0) */
    size_t len;              /* ByteOrderedPartitioner: bytes at b (else 0) */
    int32_t p;               /* tokenring_partitioner */
} tr_tok;

/* The 64-bit key of a RandomPartitioner token: bits 126..63 of t + 1 (so -1 maps to 0
 * and the buckets of the index spread over the whole range), saturated for 2^127, as a
 * signed value (sign bit flipped) so that signed order is token order. Monotone:
 * a < b implies key(a) <= key(b). */
static inline int64_t tr_prefix128(tokenring_token128 t)
{
    /* t + 1 as 128 bits: -1 (all ones) wraps to 0 */
    uint64_t lo = t.lo + 1, hi = t.hi + (lo == 0);
    uint64_t p;
    if (t.hi == UINT64_MAX && t.lo == UINT64_MAX)
        p = 0;
    else if (hi >> 63) /* t + 1 >= 2^127: only 2^127 itself */
        p = UINT64_MAX;
    else
        p = hi << 1 | lo >> 63;
    return (int64_t)(p ^ (UINT64_C(1) << 63));
}

/* The 64-bit key of a byte token: its first 8 bytes big-endian, zero-padded, sign bit
 * flipped. Monotone in tokenring_byte_token_compare order. */
static inline int64_t tr_prefix_bytes(const uint8_t *b, size_t len)
{
    uint64_t p = 0;
    for (size_t i = 0; i < 8; i++)
        p = p << 8 | (i < len ? b[i] : 0);
    return (int64_t)(p ^ (UINT64_C(1) << 63));
}

/* RandomPartitioner order: -1 first, then numeric. */
static inline int tr_cmp128(tokenring_token128 a, tokenring_token128 b)
{
    /* -1 is all ones: +1 in 128 bits maps it to 0 and keeps every other order */
    uint64_t alo = a.lo + 1, ahi = a.hi + (alo == 0);
    uint64_t blo = b.lo + 1, bhi = b.hi + (blo == 0);
    if (ahi != bhi)
        return ahi < bhi ? -1 : 1;
    return (alo > blo) - (alo < blo);
}

/* ByteOrderedPartitioner order: unsigned bytes, a proper prefix first. */
static inline int tr_cmp_bytes(const uint8_t *a, size_t al, const uint8_t *b, size_t bl)
{
    size_t m = al < bl ? al : bl;
    int c = m ? memcmp(a, b, m) : 0;
    if (c)
        return c;
    return (al > bl) - (al < bl);
}

static inline tr_tok tr_tok_m3(int64_t t)
{
    tr_tok r = { t, { 0, 0 }, NULL, 0, TOKENRING_PARTITIONER_MURMUR3 };
    return r;
}

static inline tr_tok tr_tok_128(tokenring_token128 v)
{
    tr_tok r = { tr_prefix128(v), v, NULL, 0, TOKENRING_PARTITIONER_RANDOM };
    return r;
}

/* b borrowed (may be NULL when len is 0). */
static inline tr_tok tr_tok_bytes(const uint8_t *b, size_t len)
{
    tr_tok r = { tr_prefix_bytes(b, len), { 0, 0 }, len ? b : NULL, len,
                 TOKENRING_PARTITIONER_BYTE_ORDERED };
    return r;
}

/* Token i of a stored column: the 128-bit values when t128 is set, else the bytes when
 * off is set (token i is tb[off[i] .. off[i + 1])), else the Murmur3 tokens m3. */
static inline tr_tok tr_tok_at(const int64_t *m3, const tokenring_token128 *t128,
                               const uint8_t *tb, const uint32_t *off, size_t i)
{
    if (t128)
        return tr_tok_128(t128[i]);
    if (off)
        return tr_tok_bytes(tb + off[i], off[i + 1] - off[i]);
    return tr_tok_m3(m3[i]);
}

/* Order of two tokens of one partitioner: the keys, then the full values. */
static inline int tr_tok_cmp(const tr_tok *a, const tr_tok *b)
{
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    if (a->p == TOKENRING_PARTITIONER_RANDOM) /* the full value breaks a tie of keys */
        return tr_cmp128(a->v128, b->v128);
    if (a->p == TOKENRING_PARTITIONER_BYTE_ORDERED)
        return tr_cmp_bytes(a->b, a->len, b->b, b->len);
    return 0;
}

/* ------------------------------------------------------------ the partitioner */

/* Room parse() needs in buf for a text of len characters, and midpoint() for tokens l, r. */
#define TR_TOK_PARSE_ROOM(len) ((len) / 2 + 1)
#define TR_TOK_MID_ROOM(l, r) (((l)->len > (r)->len ? (l)->len : (r)->len) + 1)

typedef struct tr_partitioner_ops {
    tokenring_partitioner id;
    const char *name;       /* Cassandra's class name (tokenring_partitioner_name) */
    const char *short_name; /* murmur3, random, byteordered */
    const char *kind;       /* what its tokens are, for messages: "64-bit integers", ... */
    /* size() counts in units of 2^-width_bits of the ring (the units of
     * tokenring_ownership's widths): 64 (Murmur3), 127 (RandomPartitioner), 0 when the
     * partitioner has no token arithmetic (ByteOrdered: size() is 0). */
    unsigned width_bits;
    /* The 64-bit key is the whole token (Murmur3): no full value beside it. */
    bool key_is_token;
    size_t text_max;        /* longest text form, without the NUL */
    tr_tok minimum;         /* the minimum token (Murmur3 INT64_MIN, Random -1, BOP empty) */
    /* Token order (tr_tok_cmp): negative, 0 or positive. */
    int (*compare)(const tr_tok *a, const tr_tok *b);
    /* Cassandra's midpoint(l, r); l >= r is the wrapping range. ByteOrdered writes the
     * bytes to buf (TR_TOK_MID_ROOM(l, r) bytes); the others ignore buf (may be NULL). */
    tr_tok (*midpoint)(const tr_tok *l, const tr_tok *r, uint8_t *buf);
    /* Exact width of the range (from, to] in units of 2^-width_bits of the ring:
     * (to - from) modulo the ring, the whole ring (2^width_bits) when from == to. The
     * RandomPartitioner minimum counts as 0 (as in Cassandra's midpoint). */
    tr_u128 (*size)(const tr_tok *from, const tr_tok *to);
    /* Reads Cassandra's text form (TokenFactory.fromString), all of text[0 .. len):
     * TOKENRING_OK, TOKENRING_E_PARSE (err names the column) or TOKENRING_E_RANGE.
     * ByteOrdered writes the bytes to buf (TR_TOK_PARSE_ROOM(len) bytes) and out->b
     * points there; the others ignore buf (may be NULL). */
    int (*parse)(tr_tok *out, uint8_t *buf, const char *text, size_t len,
                 tokenring_error *err);
    /* Writes the text form (TokenFactory.toString) and a NUL: TOKENRING_OK, or
     * TOKENRING_E_BUFSIZE with *len_out the length needed (without the NUL). */
    int (*format)(char *out, size_t cap, size_t *len_out, const tr_tok *t);
    /* The token of a partition key (getToken): Murmur3 hash, MD5, or the key's bytes
     * (borrowed: ByteOrdered's token points into key). key may be NULL when len is 0. */
    tr_tok (*key_token)(const void *key, size_t len);
    /* The 64-bit order-preserving key of a token (what tr_tok.key holds). */
    int64_t (*key64)(const tr_tok *t);
    /* The topology's hash-table key of a token (tr_tnode.keys): Murmur3's token itself;
     * a mix of the full value otherwise (distinct tokens may share one). */
    int64_t (*hash_key)(const tr_tok *t);
    /* Whether t can be a node's token: TOKENRING_OK, or TOKENRING_E_RANGE with err
     * naming token `index` of node `node` (RandomPartitioner: 0 .. 2^127, not -1;
     * ByteOrdered: at most TOKENRING_BYTE_TOKEN_MAX bytes). */
    int (*check_node_token)(const tr_tok *t, size_t index, const char *node,
                            tokenring_error *err);
} tr_partitioner_ops;

/* The table of partitioner p, or NULL when p is not a tokenring_partitioner. */
TR_HIDDEN const tr_partitioner_ops *tr_partitioner_ops_of(tokenring_partitioner p);

/* The table of a known-valid partitioner value (a topology's, a ring's). */
TR_HIDDEN const tr_partitioner_ops *tr_ops(int32_t p);

/* Stores tokens toks[0 .. n) of partitioner p (ascending) as the columns a topology and a
 * ring keep beside their 64-bit keys: RandomPartitioner's values in *t128,
 * ByteOrderedPartitioner's bytes in *tb with n + 1 offsets in *off; the others stay NULL
 * (Murmur3 has nothing beyond the key). The caller checks that the bytes fit 32-bit
 * offsets. TOKENRING_OK or TOKENRING_E_NOMEM (nothing allocated then). */
TR_HIDDEN int tr_tok_store(int32_t p, const tr_tok *toks, size_t n, tokenring_token128 **t128,
                           uint8_t **tb, uint32_t **off);

/* qsort order of tr_tok values (tr_tok_cmp). */
TR_HIDDEN int tr_tok_qsort_cmp(const void *a, const void *b);

/* The ring's tokens for the files above the ring core (lib/ring/ring.c): ring token i (below
 * the ring's token count) as a tr_tok borrowing the ring's storage, and the first ring
 * token >= t (t of the ring's partitioner), wrapping to 0, by the index on the 64-bit
 * keys and then the full values. */
struct tokenring_ring;
TR_HIDDEN tr_tok tr_ring_token(const struct tokenring_ring *ring, size_t i);
TR_HIDDEN uint32_t tr_ring_search_tok(const struct tokenring_ring *ring, const tr_tok *t);

/* Formats t into buf for a message: the text form, a byte token cut after 32 bytes with
 * "..." and the empty one as "'' (empty)". buf has TR_TOK_MSG_MAX bytes. */
#define TR_TOK_MSG_MAX 80
TR_HIDDEN const char *tr_tok_msg(char buf[TR_TOK_MSG_MAX], const tr_tok *t);

/* RandomPartitioner (partitioner.c): the token of a 16-byte MD5 digest, the absolute value
 * of the digest read as a signed big-endian 128-bit integer. */
TR_HIDDEN tokenring_token128 tr_random_token_from_digest(const uint8_t d[16]);

#endif
