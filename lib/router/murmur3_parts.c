/* SPDX-License-Identifier: Apache-2.0 */
/* The Murmur3Partitioner token of a composite partition key hashed from its parts, in
 * one pass and without packing them: the byte stream tokenring_composite_encode() writes
 * (per part a u16 big-endian length, the bytes, a 0x00 end-of-component byte) is fed
 * through Cassandra's MurmurHash3_x64_128 (lib/token/murmur3_core.h's blocks, tail mix and
 * finish) 16 bytes at a time, the parts' bytes read in place and only a block that
 * straddles two pieces staged in a small buffer. tests/test_router.c checks it against
 * tokenring_token() of the packed key. */
#include <string.h>

#include "murmur3_core.h"
#include "router_internal.h"

typedef struct stream {
    uint64_t h1, h2;
    uint8_t buf[16];
    size_t nbuf, total;
} stream;

/* One 16-byte block into (h1, h2): murmur3_core.h's. */
static inline void block(stream *s, const uint8_t *p)
{
    uint64_t h1 = s->h1, h2 = s->h2;
    M3_BLOCK(p);
    s->h1 = h1;
    s->h2 = h2;
}

static void feed(stream *s, const uint8_t *p, size_t n)
{
    s->total += n;
    if (s->nbuf > 0) {
        size_t take = 16 - s->nbuf < n ? 16 - s->nbuf : n;
        memcpy(s->buf + s->nbuf, p, take);
        s->nbuf += take;
        p += take;
        n -= take;
        if (s->nbuf < 16)
            return;
        block(s, s->buf);
        s->nbuf = 0;
    }
    for (; n >= 16; p += 16, n -= 16)
        block(s, p);
    if (n > 0) {
        memcpy(s->buf, p, n);
        s->nbuf = n;
    }
}

/* Java reads the tail bytes as signed bytes, each sign-extended before it is shifted. */
#define SB(i) ((uint64_t)(int64_t)(int8_t)s->buf[i])

static int64_t finish(stream *s)
{
    uint64_t k1 = 0, k2 = 0;
    size_t t = s->nbuf;
    for (size_t i = t; i > 8; i--)
        k2 ^= SB(i - 1) << (8 * (i - 9));
    for (size_t i = t < 8 ? t : 8; i > 0; i--)
        k1 ^= SB(i - 1) << (8 * (i - 1));
    if (t > 8)
        s->h2 ^= m3_mix_k2(k2);
    if (t > 0)
        s->h1 ^= m3_mix_k1(k1);
    return m3_min_to_max(m3_finish(s->h1, s->h2, s->total).h1);
}

TR_HIDDEN int64_t tr_token_parts(const void *const *parts, const size_t *lens, size_t count)
{
    stream s = { 0, 0, { 0 }, 0, 0 };
    static const uint8_t end = 0;
    for (size_t i = 0; i < count; i++) {
        uint8_t len[2] = { (uint8_t)(lens[i] >> 8), (uint8_t)lens[i] };
        feed(&s, len, 2);
        if (lens[i] > 0)
            feed(&s, parts[i], lens[i]);
        feed(&s, &end, 1);
    }
    return s.total == 0 ? TOKENRING_MIN_TOKEN : finish(&s);
}
