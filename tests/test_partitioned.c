/* SPDX-License-Identifier: Apache-2.0 */
/* Topologies and rings of RandomPartitioner and ByteOrderedPartitioner: the partitioner
 * names, the token checks of the 128-bit and byte-string add_node / set_tokens calls
 * (and the topology left unchanged when they fail), the ring's sorted tokens, its
 * searches against a plain lower_bound on the full tokens (with tokens that share their
 * 64-bit prefix, which the index cannot tell apart), the Murmur3 calls refusing such
 * rings, ranges and widths over 2^127, and key -> replicas through the ring's
 * partitioner. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"
#include "testrng.h"

__extension__ typedef unsigned __int128 u128;

static const tokenring_token128 MIN128 = {UINT64_MAX, UINT64_MAX};
static const tokenring_token128 MAX128 = {0x8000000000000000ULL, 0};

static void test_partitioner_names(void **state)
{
    (void)state;
    assert_string_equal(tokenring_partitioner_name(TOKENRING_PARTITIONER_MURMUR3),
                        "org.apache.cassandra.dht.Murmur3Partitioner");
    assert_string_equal(tokenring_partitioner_name(TOKENRING_PARTITIONER_RANDOM),
                        "org.apache.cassandra.dht.RandomPartitioner");
    assert_string_equal(tokenring_partitioner_name(TOKENRING_PARTITIONER_BYTE_ORDERED),
                        "org.apache.cassandra.dht.ByteOrderedPartitioner");
    assert_null(tokenring_partitioner_name((tokenring_partitioner)3));
    assert_null(tokenring_partitioner_name((tokenring_partitioner)-1));
    static const struct { const char *text; int p; } ok[] = {
        {"org.apache.cassandra.dht.RandomPartitioner", 1}, {"RandomPartitioner", 1},
        {"random", 1}, {"RANDOM", 1}, {"Random", 1}, {"MURMUR3", 0}, {"ByteOrdered", 2}, {"Murmur3Partitioner", 0}, {"murmur3", 0},
        {"org.apache.cassandra.dht.ByteOrderedPartitioner", 2}, {"byteordered", 2},
        {"ByteOrderedPartitioner", 2},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        tokenring_partitioner p = (tokenring_partitioner)99;
        assert_int_equal(tokenring_partitioner_parse(&p, ok[i].text, strlen(ok[i].text), NULL),
                         TOKENRING_OK);
        assert_int_equal(p, ok[i].p);
    }
    tokenring_partitioner p = TOKENRING_PARTITIONER_RANDOM;
    tokenring_error err;
    assert_int_equal(tokenring_partitioner_parse(&p, "OrderPreservingPartitioner", 26, &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_int_equal(tokenring_partitioner_parse(&p, "org.apache.cassandra.dht.LocalPartitioner",
                                                 41, &err), TOKENRING_E_UNSUPPORTED);
    /* class names are case-sensitive, as Cassandra's Class.forName reads them */
    static const char *const miscased[] = { "randompartitioner", "RANDOMPARTITIONER",
                                            "org.apache.cassandra.dht.murmur3Partitioner",
                                            "Org.apache.cassandra.dht.RandomPartitioner",
                                            "byteorderedpartitioner",
                                            "orderpreservingpartitioner" };
    for (size_t i = 0; i < sizeof miscased / sizeof *miscased; i++) {
        memset(&err, 0, sizeof err);
        assert_int_equal(tokenring_partitioner_parse(&p, miscased[i], strlen(miscased[i]),
                                                     &err), TOKENRING_E_PARSE);
        assert_int_equal(p, TOKENRING_PARTITIONER_RANDOM);
    }
    memset(&err, 0, sizeof err);
    tokenring_partitioner_parse(&p, "randompartitioner", 17, &err);
    assert_non_null(strstr(err.message, "case-sensitive"));
    assert_non_null(strstr(err.message, "(RandomPartitioner)"));
    tokenring_partitioner_parse(&p, "org.apache.cassandra.dht.murmur3Partitioner", 43, &err);
    assert_non_null(strstr(err.message, "(org.apache.cassandra.dht.Murmur3Partitioner)"));
    assert_int_equal(tokenring_partitioner_parse(&p, "random2", 7, &err), TOKENRING_E_PARSE);
    assert_non_null(strstr(err.message, "random2"));
    assert_int_equal(tokenring_partitioner_parse(&p, "rand", 4, &err), TOKENRING_E_PARSE);
    assert_int_equal(tokenring_partitioner_parse(&p, "", 0, &err), TOKENRING_E_PARSE);
    assert_int_equal(p, TOKENRING_PARTITIONER_RANDOM); /* unchanged */
    assert_int_equal(tokenring_partitioner_parse(NULL, "random", 6, NULL), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_partitioner_parse(&p, NULL, 6, NULL), TOKENRING_E_INVAL);
}

static tokenring_token128 t128(uint64_t hi, uint64_t lo)
{
    tokenring_token128 t = {hi, lo};
    return t;
}

static void test_topology128(void **state)
{
    (void)state;
    tokenring_topology *t = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_topology_new_partitioned(&t, (tokenring_partitioner)3),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_topology_new_partitioned(NULL, TOKENRING_PARTITIONER_RANDOM),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_topology_new_partitioned(&t, TOKENRING_PARTITIONER_RANDOM),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_partitioner(t), TOKENRING_PARTITIONER_RANDOM);
    assert_int_equal(tokenring_topology_partitioner(NULL), TOKENRING_PARTITIONER_MURMUR3);
    int64_t i64 = 5;
    assert_int_equal(tokenring_topology_add_node(t, "a", "dc1", "r1", &i64, 1, &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_non_null(strstr(err.message, "RandomPartitioner"));
    const uint8_t *bp = (const uint8_t *)"x";
    size_t bl = 1;
    assert_int_equal(tokenring_topology_add_node_bytes(t, "a", "dc1", "r1", &bp, &bl, 1, &err),
                     TOKENRING_E_UNSUPPORTED);
    tokenring_token128 a[] = {t128(5, 0), MAX128, t128(0, 0)};
    assert_int_equal(tokenring_topology_add_node128(t, "a", "dc1", "r1", a, 3, &err),
                     TOKENRING_OK);
    tokenring_node_info info;
    assert_int_equal(tokenring_topology_node(&info, t, 0), TOKENRING_OK);
    assert_null(info.tokens);
    assert_int_equal(info.token_count, 3);
    tokenring_token128 got;
    assert_int_equal(tokenring_topology_node_token128(&got, t, 0, 0), TOKENRING_OK);
    assert_true(got.hi == 0 && got.lo == 0);
    assert_int_equal(tokenring_topology_node_token128(&got, t, 0, 2), TOKENRING_OK);
    assert_true(got.hi == MAX128.hi && got.lo == 0);
    assert_int_equal(tokenring_topology_node_token128(&got, t, 0, 3), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_topology_node_token128(&got, t, 1, 0), TOKENRING_E_RANGE);
    const uint8_t *bo;
    size_t bol;
    assert_int_equal(tokenring_topology_node_token_bytes(&bo, &bol, t, 0, 0),
                     TOKENRING_E_UNSUPPORTED);

    /* refused tokens; the topology is unchanged after each */
    tokenring_token128 bad1[] = {t128(1, 1), MIN128};
    assert_int_equal(tokenring_topology_add_node128(t, "b", "dc1", "r1", bad1, 2, &err),
                     TOKENRING_E_RANGE);
    assert_non_null(strstr(err.message, "-1"));
    tokenring_token128 bad2[] = {t128(0x8000000000000000ULL, 1)};
    assert_int_equal(tokenring_topology_add_node128(t, "b", "dc1", "r1", bad2, 1, &err),
                     TOKENRING_E_RANGE);
    tokenring_token128 bad3[] = {t128(7, 7), t128(7, 7)};
    assert_int_equal(tokenring_topology_add_node128(t, "b", "dc1", "r1", bad3, 2, &err),
                     TOKENRING_E_EXISTS);
    assert_non_null(strstr(err.message, "repeated"));
    tokenring_token128 bad4[] = {t128(7, 7), t128(5, 0)};
    assert_int_equal(tokenring_topology_add_node128(t, "b", "dc1", "r1", bad4, 2, &err),
                     TOKENRING_E_EXISTS);
    assert_non_null(strstr(err.message, "92233720368547758080")); /* 5 * 2^64 */
    assert_non_null(strstr(err.message, "'a'"));
    assert_int_equal(tokenring_topology_add_node128(t, "b", "dc1", "r1", NULL, 1, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_topology_add_node128(t, "b", "dc1", "r1", bad4, 0, &err),
                     TOKENRING_E_EMPTY);
    assert_int_equal(tokenring_topology_add_node128(t, "a", "dc1", "r1", bad2, 1, &err),
                     TOKENRING_E_EXISTS);
    assert_int_equal(tokenring_topology_node_count(t), 1);

    tokenring_token128 b[] = {t128(7, 7), t128(1, 0)};
    assert_int_equal(tokenring_topology_add_node128(t, "b", "dc1", "r2", b, 2, &err),
                     TOKENRING_OK);
    /* moves: a keeps one of its own tokens, takes a new one; b's tokens are refused */
    tokenring_token128 mv[] = {t128(5, 0), t128(9, 9)};
    assert_int_equal(tokenring_topology_set_tokens128(t, "a", mv, 2, &err), TOKENRING_OK);
    tokenring_token128 mv2[] = {t128(1, 0)};
    assert_int_equal(tokenring_topology_set_tokens128(t, "a", mv2, 1, &err), TOKENRING_E_EXISTS);
    assert_int_equal(tokenring_topology_set_tokens128(t, "zz", mv2, 1, &err), TOKENRING_E_NOTFOUND);
    assert_int_equal(tokenring_topology_set_tokens(t, "a", &i64, 1, &err), TOKENRING_E_UNSUPPORTED);
    /* a's old tokens are free again */
    tokenring_token128 c[] = {MAX128, t128(0, 0)};
    tokenring_topology *copy = NULL;
    assert_int_equal(tokenring_topology_clone(&copy, t), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node128(t, "c", "dc1", "r3", c, 2, &err),
                     TOKENRING_OK);
    /* the clone kept its own tokens and its partitioner */
    assert_int_equal(tokenring_topology_partitioner(copy), TOKENRING_PARTITIONER_RANDOM);
    assert_int_equal(tokenring_topology_add_node128(copy, "c", "dc1", "r3", b, 1, &err),
                     TOKENRING_E_EXISTS);
    assert_int_equal(tokenring_topology_add_node128(copy, "c", "dc1", "r3", c, 2, &err),
                     TOKENRING_OK);
    /* removing a node frees its tokens */
    assert_int_equal(tokenring_topology_remove_node(t, "b", &err), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node128(t, "d", "dc1", "r3", b, 2, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_replace_node(t, "d", "e", &err), TOKENRING_OK);
    size_t idx;
    assert_int_equal(tokenring_topology_find_node(&idx, t, "e"), TOKENRING_OK);
    assert_int_equal(tokenring_topology_node_token128(&got, t, idx, 1), TOKENRING_OK);
    assert_true(got.hi == 7 && got.lo == 7);
    tokenring_topology_free(copy);
    tokenring_topology_free(t);
}

static void test_topology_bytes(void **state)
{
    (void)state;
    tokenring_topology *t = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_topology_new_partitioned(&t, TOKENRING_PARTITIONER_BYTE_ORDERED),
                     TOKENRING_OK);
    const uint8_t *tok[] = {(const uint8_t *)"\x61\x62", (const uint8_t *)"", (const uint8_t *)"\xff"};
    size_t len[] = {2, 0, 1};
    assert_int_equal(tokenring_topology_add_node_bytes(t, "a", "dc1", "r1", tok, len, 3, &err),
                     TOKENRING_OK);
    const uint8_t *b;
    size_t bl;
    assert_int_equal(tokenring_topology_node_token_bytes(&b, &bl, t, 0, 0), TOKENRING_OK);
    assert_int_equal(bl, 0);
    assert_int_equal(tokenring_topology_node_token_bytes(&b, &bl, t, 0, 1), TOKENRING_OK);
    assert_int_equal(bl, 2);
    assert_memory_equal(b, "ab", 2);
    assert_int_equal(tokenring_topology_node_token_bytes(&b, &bl, t, 0, 2), TOKENRING_OK);
    assert_true(bl == 1 && b[0] == 0xff);
    tokenring_token128 x = {1, 1};
    assert_int_equal(tokenring_topology_add_node128(t, "b", "dc1", "r1", &x, 1, &err),
                     TOKENRING_E_UNSUPPORTED);
    /* no tokens, NULL tokens: refused before any token is read, nothing added */
    assert_int_equal(tokenring_topology_add_node_bytes(t, "b", "dc1", "r1", tok, len, 0, &err),
                     TOKENRING_E_EMPTY);
    assert_non_null(strstr(err.message, "node 'b' has no tokens"));
    assert_int_equal(tokenring_topology_add_node_bytes(t, "b", "dc1", "r1", NULL, len, 1, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_topology_set_tokens_bytes(t, "a", tok, NULL, 1, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_topology_node_count(t), 1);
    /* "ab" vs "ab\0": distinct tokens (a prefix comes first), the same 8-byte prefix */
    const uint8_t *tok2[] = {(const uint8_t *)"ab\0", (const uint8_t *)"ab"};
    size_t len2[] = {3, 2};
    assert_int_equal(tokenring_topology_add_node_bytes(t, "b", "dc1", "r1", tok2, len2, 2, &err),
                     TOKENRING_E_EXISTS);
    assert_non_null(strstr(err.message, "6162 of node 'b' is already held by node 'a'"));
    assert_int_equal(tokenring_topology_add_node_bytes(t, "b", "dc1", "r1", tok2, len2, 1, &err),
                     TOKENRING_OK);
    const uint8_t *nul[] = {NULL};
    size_t one = 1, big = TOKENRING_BYTE_TOKEN_MAX + 1;
    assert_int_equal(tokenring_topology_add_node_bytes(t, "c", "dc1", "r1", nul, &one, 1, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_topology_add_node_bytes(t, "c", "dc1", "r1", tok, &big, 1, &err),
                     TOKENRING_E_RANGE);
    const uint8_t *dup[] = {(const uint8_t *)"q", (const uint8_t *)"q"};
    size_t dl[] = {1, 1};
    assert_int_equal(tokenring_topology_add_node_bytes(t, "c", "dc1", "r1", dup, dl, 2, &err),
                     TOKENRING_E_EXISTS);
    assert_non_null(strstr(err.message, "repeated"));
    assert_int_equal(tokenring_topology_set_tokens_bytes(t, "b", dup, dl, 1, &err), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node_bytes(t, "c", "dc1", "r1", tok2, len2, 1, &err),
                     TOKENRING_OK); /* b's old token is free */
    assert_int_equal(tokenring_topology_node_count(t), 3);
    tokenring_topology_free(t);
}

/* ------------------------------------------------------------------ rings */

static int cmp128(const void *a, const void *b)
{
    return tokenring_token128_compare(*(const tokenring_token128 *)a,
                                      *(const tokenring_token128 *)b);
}

/* lower_bound over sorted tokens, wrapping to 0 */
static uint32_t lb128(const tokenring_token128 *s, size_t n, tokenring_token128 t)
{
    size_t i = 0;
    while (i < n && tokenring_token128_compare(s[i], t) < 0)
        i++;
    return i == n ? 0 : (uint32_t)i;
}

static tokenring_token128 random128(uint64_t *rng, int shape)
{
    tokenring_token128 t;
    t.hi = tt_splitmix64(rng) >> 1;
    t.lo = tt_splitmix64(rng);
    if (shape == 1) { /* shared 64-bit prefixes: few distinct hi, bit 63 of lo */
        t.hi = tt_splitmix64(rng) % 4;
    } else if (shape == 2) {
        t.hi = 0x7fffffffffffffffULL;
    }
    return t;
}

static void test_ring128_search(void **state)
{
    (void)state;
    uint64_t rng = 2026120201;
    for (int shape = 0; shape < 3; shape++) {
        for (int round = 0; round < 20; round++) {
            tokenring_topology *t = NULL;
            assert_int_equal(tokenring_topology_new_partitioned(&t, TOKENRING_PARTITIONER_RANDOM),
                             TOKENRING_OK);
            int nodes = tt_between(&rng, 1, 9), per = tt_between(&rng, 1, 40);
            tokenring_token128 all[9 * 42];
            size_t n = 0;
            for (int k = 0; k < nodes; k++) {
                tokenring_token128 mine[42];
                int m = 0;
                while (m < per) {
                    tokenring_token128 c = random128(&rng, shape);
                    if (round == 0 && k == 0 && m == 0)
                        c = t128(0, 0);
                    if (round == 1 && k == 0 && m == 0)
                        c = MAX128;
                    bool seen = false;
                    for (size_t q = 0; q < n; q++)
                        seen |= cmp128(&all[q], &c) == 0;
                    for (int q = 0; q < m; q++)
                        seen |= cmp128(&mine[q], &c) == 0;
                    if (!seen)
                        mine[m++] = c;
                }
                char name[16], rack[8];
                snprintf(name, sizeof name, "n%d", k);
                snprintf(rack, sizeof rack, "r%d", k % 3);
                assert_int_equal(tokenring_topology_add_node128(t, name, "dc1", rack, mine,
                                                                (size_t)m, NULL), TOKENRING_OK);
                memcpy(all + n, mine, (size_t)m * sizeof *mine);
                n += (size_t)m;
            }
            tokenring_ring *r = NULL;
            assert_int_equal(tokenring_ring_build(&r, t, NULL), TOKENRING_OK);
            assert_int_equal(tokenring_ring_partitioner(r), TOKENRING_PARTITIONER_RANDOM);
            qsort(all, n, sizeof *all, cmp128);
            size_t count;
            assert_null(tokenring_ring_tokens(r, &count));
            assert_int_equal(count, n);
            const uint32_t *owners = tokenring_ring_token_nodes(r, NULL);
            for (size_t i = 0; i < n; i++) {
                tokenring_token128 got;
                assert_int_equal(tokenring_ring_token128(&got, r, i), TOKENRING_OK);
                assert_int_equal(cmp128(&got, &all[i]), 0);
                size_t node = owners[i], k;
                tokenring_node_info info;
                assert_int_equal(tokenring_ring_node(&info, r, (uint32_t)node), TOKENRING_OK);
                assert_null(info.tokens);
                bool held = false;
                size_t idx;
                assert_int_equal(tokenring_topology_find_node(&idx, t, info.name), TOKENRING_OK);
                for (k = 0; k < info.token_count; k++) {
                    tokenring_token128 nt;
                    assert_int_equal(tokenring_topology_node_token128(&nt, t, idx, k), TOKENRING_OK);
                    held |= cmp128(&nt, &got) == 0;
                }
                assert_true(held);
                /* each ring token, one below and one above */
                assert_int_equal(tokenring_ring_search128(r, got), i);
                tokenring_token128 below = got, above = got;
                if (below.lo-- == 0)
                    below.hi--;
                if (++above.lo == 0)
                    above.hi++;
                assert_int_equal(tokenring_ring_search128(r, below), lb128(all, n, below));
                if (tokenring_token128_compare(above, MAX128) <= 0)
                    assert_int_equal(tokenring_ring_search128(r, above), lb128(all, n, above));
            }
            tokenring_token128 edge[] = {MIN128, t128(0, 0), MAX128, t128(0x7fffffffffffffffULL, UINT64_MAX)};
            for (size_t e = 0; e < 4; e++)
                assert_int_equal(tokenring_ring_search128(r, edge[e]), lb128(all, n, edge[e]));
            for (int q = 0; q < 300; q++) {
                tokenring_token128 k = random128(&rng, shape);
                assert_int_equal(tokenring_ring_search128(r, k), lb128(all, n, k));
            }
            /* ranges: exact widths over 2^127, summing to 2^127 unless 0 and 2^127 both
             * bound ranges (Cassandra's widths make them one point) */
            u128 sum = 0;
            for (size_t i = 0; i < n; i++) {
                tokenring_range128 rg;
                assert_int_equal(tokenring_ring_range128(&rg, r, i), TOKENRING_OK);
                assert_int_equal(rg.index, i);
                assert_int_equal(rg.owner, owners[i]);
                assert_int_equal(cmp128(&rg.end, &all[i]), 0);
                assert_int_equal(cmp128(&rg.start, &all[i ? i - 1 : n - 1]), 0);
                u128 w = ((u128)rg.width.hi << 64) | rg.width.lo;
                u128 e = ((u128)all[i].hi << 64) | all[i].lo;
                u128 s = ((u128)rg.start.hi << 64) | rg.start.lo;
                u128 R = (u128)1 << 127;
                u128 want = n == 1 ? R : (e + R - s) % R;
                assert_true(w == want);
                sum += w;
            }
            u128 R = (u128)1 << 127;
            bool both = n > 1 && all[0].hi == 0 && all[0].lo == 0 && all[n - 1].hi == MAX128.hi;
            if (!both)
                assert_true(sum == R);
            tokenring_range128 rg;
            assert_int_equal(tokenring_ring_range128(&rg, r, n), TOKENRING_E_RANGE);
            /* the Murmur3 calls refuse the ring */
            uint32_t u;
            tokenring_range r64;
            int64_t tk = 0;
            assert_int_equal(tokenring_ring_search(r, 0), UINT32_MAX);
            assert_int_equal(tokenring_ring_owner(&u, r, 0), TOKENRING_E_UNSUPPORTED);
            assert_int_equal(tokenring_ring_range_of(&r64, r, 0), TOKENRING_E_UNSUPPORTED);
            assert_int_equal(tokenring_ring_range(&r64, r, 0), TOKENRING_E_UNSUPPORTED);
            assert_int_equal(tokenring_ring_search_batch(&u, r, &tk, 1), TOKENRING_E_UNSUPPORTED);
            assert_int_equal(tokenring_ring_search_bytes(r, NULL, 0), UINT32_MAX);
            const uint8_t *bp;
            size_t bl;
            assert_int_equal(tokenring_ring_token_bytes(&bp, &bl, r, 0), TOKENRING_E_UNSUPPORTED);
            tokenring_ring_free(r);
            tokenring_topology_free(t);
        }
    }
}

typedef struct btok {
    uint8_t b[20];
    size_t len;
} btok;

static int cmpb(const void *a, const void *b)
{
    const btok *x = a, *y = b;
    return tokenring_byte_token_compare(x->b, x->len, y->b, y->len);
}

static btok random_btok(uint64_t *rng, int shape)
{
    btok t;
    t.len = (size_t)tt_between(rng, shape == 0 ? 0 : 6, shape == 0 ? 12 : 12);
    for (size_t i = 0; i < t.len; i++)
        t.b[i] = (uint8_t)tt_splitmix64(rng);
    if (shape == 1) /* a shared 8-byte prefix, or a prefix of it */
        for (size_t i = 0; i < t.len && i < 8; i++)
            t.b[i] = (uint8_t)(i < 6 ? 0x41 : (tt_splitmix64(rng) & 1 ? 0 : 0x41));
    if (shape == 2) /* values around 0x00 and 0xff */
        for (size_t i = 0; i < t.len; i++)
            t.b[i] = tt_splitmix64(rng) & 1 ? 0 : 0xff;
    return t;
}

static uint32_t lbb(const btok *s, size_t n, const btok *t)
{
    size_t i = 0;
    while (i < n && cmpb(&s[i], t) < 0)
        i++;
    return i == n ? 0 : (uint32_t)i;
}

static void test_ring_bytes_search(void **state)
{
    (void)state;
    uint64_t rng = 2026120202;
    for (int shape = 0; shape < 3; shape++) {
        for (int round = 0; round < 20; round++) {
            tokenring_topology *t = NULL;
            assert_int_equal(tokenring_topology_new_partitioned(&t, TOKENRING_PARTITIONER_BYTE_ORDERED),
                             TOKENRING_OK);
            int nodes = tt_between(&rng, 1, 6), per = tt_between(&rng, 1, 30);
            btok all[6 * 30];
            size_t n = 0;
            for (int k = 0; k < nodes; k++) {
                const uint8_t *ptr[30];
                size_t lens[30];
                int m = 0;
                for (int tries = 0; m < per && tries < 1000; tries++) {
                    btok c = random_btok(&rng, shape);
                    bool seen = false;
                    for (size_t q = 0; q < n + (size_t)m; q++)
                        seen |= cmpb(&all[q], &c) == 0;
                    if (!seen) {
                        all[n + (size_t)m] = c;
                        m++;
                    }
                }
                for (int q = 0; q < m; q++) {
                    ptr[q] = all[n + (size_t)q].b;
                    lens[q] = all[n + (size_t)q].len;
                }
                char name[16];
                snprintf(name, sizeof name, "n%d", k);
                assert_int_equal(tokenring_topology_add_node_bytes(t, name, "dc1", "r1", ptr, lens,
                                                                   (size_t)m, NULL), TOKENRING_OK);
                n += (size_t)m;
            }
            tokenring_ring *r = NULL;
            assert_int_equal(tokenring_ring_build(&r, t, NULL), TOKENRING_OK);
            assert_int_equal(tokenring_ring_partitioner(r), TOKENRING_PARTITIONER_BYTE_ORDERED);
            qsort(all, n, sizeof *all, cmpb);
            for (size_t i = 0; i < n; i++) {
                const uint8_t *b;
                size_t bl;
                assert_int_equal(tokenring_ring_token_bytes(&b, &bl, r, i), TOKENRING_OK);
                assert_int_equal(bl, all[i].len);
                if (bl)
                    assert_memory_equal(b, all[i].b, bl);
                assert_int_equal(tokenring_ring_search_bytes(r, all[i].b, all[i].len), i);
                btok longer = all[i];
                if (longer.len < 20) {
                    longer.b[longer.len++] = 0;
                    assert_int_equal(tokenring_ring_search_bytes(r, longer.b, longer.len),
                                     lbb(all, n, &longer));
                }
            }
            for (int q = 0; q < 300; q++) {
                btok k = random_btok(&rng, shape);
                assert_int_equal(tokenring_ring_search_bytes(r, k.b, k.len), lbb(all, n, &k));
            }
            assert_int_equal(tokenring_ring_search_bytes(r, NULL, 0), 0);
            assert_int_equal(tokenring_ring_search_bytes(r, NULL, 1), UINT32_MAX);
            assert_int_equal(tokenring_ring_search128(r, MIN128), UINT32_MAX);
            tokenring_range128 rg;
            assert_int_equal(tokenring_ring_range128(&rg, r, 0), TOKENRING_E_UNSUPPORTED);
            tokenring_ring_free(r);
            tokenring_topology_free(t);
        }
    }
}

/* What does not work on these rings yet refuses them instead of reading int64 tokens
 * that are not there; ownership of a byte-ordered ring is the no-data figure. */
static void test_unsupported_and_byte_ownership(void **state)
{
    (void)state;
    tokenring_topology *t = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_topology_new_partitioned(&t, TOKENRING_PARTITIONER_RANDOM),
                     TOKENRING_OK);
    tokenring_token128 a[] = {t128(1, 0), t128(3, 0)}, b[] = {t128(2, 0)};
    assert_int_equal(tokenring_topology_add_node128(t, "a", "dc1", "r1", a, 2, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node128(t, "b", "dc1", "r2", b, 1, NULL), TOKENRING_OK);
    tokenring_ring *r = NULL;
    assert_int_equal(tokenring_ring_build(&r, t, NULL), TOKENRING_OK);
    tokenring_replication *repl = NULL;
    assert_int_equal(tokenring_replication_simple(&repl, 2, 0, NULL), TOKENRING_OK);
    /* movement, kept tokens and balance work on such rings since 1.2
     * (tests/test_movement_partitioned.c); the allocators still refuse them */
    tokenring_movement *m = NULL;
    assert_int_equal(tokenring_movement_decommission(&m, t, repl, "a", NULL, 0, &err),
                     TOKENRING_OK);
    tokenring_movement_free(m);
    size_t kept, lost, gained;
    assert_int_equal(tokenring_ring_tokens_kept(&kept, &lost, &gained, r, r), TOKENRING_OK);
    assert_true(kept == 3 && lost == 0 && gained == 0);
    tokenring_balance bal;
    assert_int_equal(tokenring_balance_compute(&bal, NULL, r, NULL, NULL, NULL, &err),
                     TOKENRING_OK);
    int64_t out[4];
    assert_int_equal(tokenring_allocate_tokens(out, 4, t, "dc1", "r1", 2, 0, &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_int_equal(tokenring_allocate_join(out, 4, t, "n", "dc1", "r1", NULL, 2,
                                             TOKENRING_CASSANDRA_5_0, 0, &err),
                     TOKENRING_E_UNSUPPORTED);
    /* placements and ownership work: widths over 2^127 */
    tokenring_placement *p = NULL;
    assert_int_equal(tokenring_placement_build(&p, r, repl, 0, &err), TOKENRING_OK);
    tokenring_ownership own[2];
    assert_int_equal(tokenring_ring_ownership(own, 2, r, p), TOKENRING_OK);
    /* a owns (2^64, 3*2^64] minus b's (2^64, 2*2^64], plus the wrap (3*2^64, 2^64] */
    assert_true(own[1].primary_width.hi == 1 && own[1].primary_width.lo == 0);
    assert_true(own[0].primary_width.hi == (UINT64_C(1) << 63) - 1 && own[0].primary_width.lo == 0);
    assert_true(own[0].effective_width.hi == UINT64_C(1) << 63); /* 2^127: every range */
    assert_true(own[1].primary == 0x1p-63);
    assert_true(own[1].nodetool_primary == 0x1p-63f);
    assert_int_equal(tokenring_ring_ownership_flags(r), 0);
    tokenring_placement_free(p);
    tokenring_replication_free(repl);
    tokenring_ring_free(r);
    tokenring_topology_free(t);

    assert_int_equal(tokenring_topology_new_partitioned(&t, TOKENRING_PARTITIONER_BYTE_ORDERED),
                     TOKENRING_OK);
    const uint8_t *ta[] = {(const uint8_t *)"a", (const uint8_t *)"c"}, *tb[] = {(const uint8_t *)"b"};
    size_t la[] = {1, 1};
    assert_int_equal(tokenring_topology_add_node_bytes(t, "a", "dc1", "r1", ta, la, 2, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node_bytes(t, "b", "dc1", "r1", tb, la, 1, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_ring_build(&r, t, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_ring_ownership(own, 2, r, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_ring_ownership_flags(r),
                     TOKENRING_OWNERSHIP_NO_WIDTHS | TOKENRING_OWNERSHIP_DATA_DEPENDENT);
    assert_true(own[0].primary_width.hi == 0 && own[0].primary_width.lo == 0);
    assert_true(own[0].primary == 0.0);
    assert_true(own[1].nodetool_primary == 1.0f / 3.0f);               /* 0x3eaaaaab */
    assert_true(own[0].nodetool_primary == 1.0f / 3.0f + 1.0f / 3.0f); /* summed in float */
    assert_int_equal(own[0].token_count, 2);
    tokenring_ring_free(r);
    tokenring_topology_free(t);
}

/* ---------------------------------------------- availability on every partitioner */

/* The same ring in three partitioners: Murmur3 token t, RandomPartitioner token
 * u * 2^63 and the 8 big-endian bytes of u, where u = t with its sign bit flipped (all
 * three order the same way). Widths then scale exactly: RandomPartitioner's are
 * Murmur3's times 2^63, and a ByteOrderedPartitioner width counts ranges. */
static tokenring_topology *same_ring(tokenring_partitioner p, const tokenring_topology *m3)
{
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new_partitioned(&t, p), TOKENRING_OK);
    for (size_t i = 0; i < tokenring_topology_node_count(m3); i++) {
        tokenring_node_info n;
        assert_int_equal(tokenring_topology_node(&n, m3, i), TOKENRING_OK);
        tokenring_token128 r[16];
        uint8_t b[16][8];
        const uint8_t *bp[16];
        size_t bl[16];
        assert_true(n.token_count <= 16);
        for (size_t k = 0; k < n.token_count; k++) {
            uint64_t u = (uint64_t)n.tokens[k] ^ UINT64_C(0x8000000000000000);
            r[k].hi = u >> 1;
            r[k].lo = (u & 1) << 63;
            for (int j = 0; j < 8; j++)
                b[k][j] = (uint8_t)(u >> (56 - 8 * j));
            bp[k] = b[k];
            bl[k] = 8;
        }
        int rc = p == TOKENRING_PARTITIONER_RANDOM
                     ? tokenring_topology_add_node128(t, n.name, n.datacenter, n.rack, r,
                                                      n.token_count, NULL)
                     : tokenring_topology_add_node_bytes(t, n.name, n.datacenter, n.rack, bp,
                                                         bl, n.token_count, NULL);
        assert_int_equal(rc, TOKENRING_OK);
    }
    return t;
}

__extension__ typedef unsigned __int128 u128t;

static u128t w128(tokenring_u128 w)
{
    return ((u128t)w.hi << 64) | w.lo;
}

/* Fractions: equal natively (the widths differ by a power of two); valgrind computes the
 * library's long double division in double precision, one rounding off. */
static bool close_to(double a, double b)
{
    double d = a > b ? a - b : b - a;
    return d <= 0x1p-50 * (a > b ? a : b);
}

static void test_availability_every_partitioner(void **state)
{
    (void)state;
    uint64_t rng = 20261204;
    for (int round = 0; round < 6; round++) {
        tokenring_topology *m3 = NULL;
        assert_int_equal(tokenring_topology_new(&m3), TOKENRING_OK);
        int nodes = tt_between(&rng, 4, 9), tokens = tt_between(&rng, 1, 6);
        for (int i = 0; i < nodes; i++) {
            char name[16], rack[8];
            snprintf(name, sizeof name, "10.0.0.%d", i + 1);
            snprintf(rack, sizeof rack, "r%d", tt_between(&rng, 1, 3));
            int64_t tk[16];
            for (int k = 0; k < tokens; k++)
                tk[k] = (int64_t)tt_splitmix64(&rng);
            assert_int_equal(tokenring_topology_add_node(m3, name, i % 2 ? "dc2" : "dc1", rack,
                                                         tk, (size_t)tokens, NULL),
                             TOKENRING_OK);
        }
        tokenring_topology *rp = same_ring(TOKENRING_PARTITIONER_RANDOM, m3);
        tokenring_topology *bo = same_ring(TOKENRING_PARTITIONER_BYTE_ORDERED, m3);
        tokenring_ring *r[3] = { NULL, NULL, NULL };
        assert_int_equal(tokenring_ring_build(&r[0], m3, NULL), TOKENRING_OK);
        assert_int_equal(tokenring_ring_build(&r[1], rp, NULL), TOKENRING_OK);
        assert_int_equal(tokenring_ring_build(&r[2], bo, NULL), TOKENRING_OK);
        size_t ranges;
        tokenring_ring_tokens(r[2], &ranges);
        tokenring_replication *repl = NULL;
        const char *rtext = round % 2 ? "NetworkTopologyStrategy:dc1=2,dc2=2" : "SimpleStrategy:3";
        assert_int_equal(tokenring_replication_parse(&repl, rtext, strlen(rtext), NULL),
                         TOKENRING_OK);
        static const int levels[] = { TOKENRING_CL_ONE, TOKENRING_CL_QUORUM, TOKENRING_CL_ALL };
        for (size_t l = 0; l < 3; l++)
            for (uint32_t k = 1; k <= 2; k++) {
                tokenring_availability *a[3] = { NULL, NULL, NULL };
                for (int p = 0; p < 3; p++)
                    assert_int_equal(tokenring_availability_build(&a[p], r[p], repl, levels[l],
                                                                  NULL, k, NULL),
                                     TOKENRING_OK);
                size_t n = tokenring_availability_count(a[0]);
                assert_int_equal(tokenring_availability_count(a[1]), n);
                assert_int_equal(tokenring_availability_count(a[2]), n);
                for (size_t i = 0; i < n; i++) {
                    uint32_t s[3][2];
                    tokenring_u128 w[3];
                    double f[3];
                    for (int p = 0; p < 3; p++)
                        assert_int_equal(tokenring_availability_get(s[p], &w[p], &f[p], a[p], i),
                                         TOKENRING_OK);
                    assert_memory_equal(s[0], s[1], k * sizeof(uint32_t));
                    assert_memory_equal(s[0], s[2], k * sizeof(uint32_t));
                    assert_true(w128(w[1]) == w128(w[0]) << 63);
                    assert_true(close_to(f[1], f[0]));
                    assert_true(w128(w[2]) >= 1 && w128(w[2]) <= ranges);
                    assert_true(close_to(f[2], (double)w128(w[2]) / (double)ranges));
                }
                for (int p = 0; p < 3; p++)
                    tokenring_availability_free(a[p]);
                /* the summary, by node and by rack */
                for (int unit = TOKENRING_FAIL_NODES; unit <= TOKENRING_FAIL_RACKS; unit++) {
                    tokenring_availability_summary *sm[3] = { NULL, NULL, NULL };
                    int rc0 = tokenring_availability_summary_build(&sm[0], r[0], repl, levels[l],
                                                                   NULL, unit, k, 4, NULL,
                                                                   NULL, NULL);
                    for (int p = 1; p < 3; p++)
                        assert_int_equal(tokenring_availability_summary_build(
                                             &sm[p], r[p], repl, levels[l], NULL, unit, k, 4,
                                             NULL, NULL, NULL),
                                         rc0);
                    if (rc0 != TOKENRING_OK)
                        continue; /* k above the racks: refused alike */
                    tokenring_u128 br[3], tot[3], worst[3];
                    for (int p = 0; p < 3; p++)
                        tokenring_availability_summary_counts(&br[p], &tot[p], &worst[p], sm[p]);
                    assert_true(w128(br[1]) == w128(br[0]) && w128(br[2]) == w128(br[0]));
                    assert_true(w128(tot[1]) == w128(tot[0]) && w128(tot[2]) == w128(tot[0]));
                    assert_true(w128(worst[1]) == w128(worst[0]) << 63);
                    size_t top = tokenring_availability_summary_top_count(sm[0]);
                    assert_int_equal(tokenring_availability_summary_top_count(sm[1]), top);
                    for (size_t i = 0; i < top; i++) {
                        uint32_t u0[2], u1[2];
                        tokenring_u128 x0, x1;
                        double f0, f1;
                        tokenring_availability_summary_top(u0, &x0, &f0, sm[0], i);
                        tokenring_availability_summary_top(u1, &x1, &f1, sm[1], i);
                        assert_memory_equal(u0, u1, k * sizeof(uint32_t));
                        assert_true(w128(x1) == w128(x0) << 63 && close_to(f1, f0));
                    }
                    for (int p = 0; p < 3; p++)
                        tokenring_availability_summary_free(sm[p]);
                }
            }
        tokenring_replication_free(repl);
        for (int p = 0; p < 3; p++)
            tokenring_ring_free(r[p]);
        tokenring_topology_free(m3);
        tokenring_topology_free(rp);
        tokenring_topology_free(bo);
    }

    /* A ByteOrderedPartitioner width counts ranges: three nodes, one token each, rf 1 */
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new_partitioned(&t, TOKENRING_PARTITIONER_BYTE_ORDERED),
                     TOKENRING_OK);
    const char *names[] = { "a", "b", "c" };
    for (int i = 0; i < 3; i++) {
        const uint8_t *tok = (const uint8_t *)names[i];
        size_t len = 1;
        assert_int_equal(tokenring_topology_add_node_bytes(t, names[i], "dc1", "r1", &tok, &len,
                                                           1, NULL),
                         TOKENRING_OK);
    }
    tokenring_ring *br = NULL;
    assert_int_equal(tokenring_ring_build(&br, t, NULL), TOKENRING_OK);
    tokenring_replication *one = NULL;
    assert_int_equal(tokenring_replication_simple(&one, 1, 0, NULL), TOKENRING_OK);
    tokenring_availability *av = NULL;
    assert_int_equal(tokenring_availability_build(&av, br, one, TOKENRING_CL_ONE, NULL, 1, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_availability_count(av), 3);
    for (size_t i = 0; i < 3; i++) {
        uint32_t node;
        tokenring_u128 w;
        double f;
        assert_int_equal(tokenring_availability_get(&node, &w, &f, av, i), TOKENRING_OK);
        assert_int_equal(node, i);
        assert_true(w.hi == 0 && w.lo == 1 && f == 1.0 / 3.0);
    }
    tokenring_availability_free(av);
    /* an unreachable level names the range in the partitioner's terms */
    tokenring_error err;
    assert_int_equal(tokenring_availability_build(&av, br, one, TOKENRING_CL_TWO, NULL, 1, &err),
                     TOKENRING_E_IMPOSSIBLE);
    assert_non_null(strstr(err.message, "range number 0 (ending at ring token 0)"));
    tokenring_availability_summary *sm = NULL;
    assert_int_equal(tokenring_availability_summary_build(&sm, br, one, TOKENRING_CL_TWO, NULL,
                                                          TOKENRING_FAIL_NODES, 1, 1, NULL,
                                                          NULL, &err),
                     TOKENRING_E_IMPOSSIBLE);
    assert_non_null(strstr(err.message, "range number"));
    tokenring_ring_free(br);
    tokenring_topology_free(t);
    assert_int_equal(tokenring_topology_new_partitioned(&t, TOKENRING_PARTITIONER_RANDOM),
                     TOKENRING_OK);
    tokenring_token128 x = { 0, 5 }, y = { 1, 0 };
    assert_int_equal(tokenring_topology_add_node128(t, "a", "dc1", "r1", &x, 1, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node128(t, "b", "dc1", "r1", &y, 1, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_ring_build(&br, t, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_availability_build(&av, br, one, TOKENRING_CL_TWO, NULL, 1, &err),
                     TOKENRING_E_IMPOSSIBLE);
    assert_non_null(strstr(err.message, "range (18446744073709551616, 5]"));
    assert_int_equal(tokenring_availability_summary_build(&sm, br, one, TOKENRING_CL_TWO, NULL,
                                                          TOKENRING_FAIL_NODES, 1, 1, NULL,
                                                          NULL, &err),
                     TOKENRING_E_IMPOSSIBLE);
    assert_non_null(strstr(err.message, "range (18446744073709551616, 5]"));
    tokenring_replication_free(one);
    tokenring_ring_free(br);
    /* Widths of 2^127: every node of a 3-node ring holds the whole ring at rf 3, so every
     * pair breaks ALL over all of it (sums of such widths pass 2^128: the walk's bounds
     * saturate instead of wrapping) */
    tokenring_token128 z = { 1u << 30, 0 };
    assert_int_equal(tokenring_topology_add_node128(t, "c", "dc1", "r1", &z, 1, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_ring_build(&br, t, NULL), TOKENRING_OK);
    tokenring_replication *three = NULL;
    assert_int_equal(tokenring_replication_simple(&three, 3, 0, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_availability_summary_build(&sm, br, three, TOKENRING_CL_ALL, NULL,
                                                          TOKENRING_FAIL_NODES, 2, 4, NULL,
                                                          NULL, &err),
                     TOKENRING_OK);
    tokenring_u128 breaking, total, worst;
    tokenring_availability_summary_counts(&breaking, &total, &worst, sm);
    assert_true(w128(breaking) == 3 && w128(total) == 3 && w128(worst) == (u128t)1 << 127);
    assert_int_equal(tokenring_availability_summary_top_count(sm), 3);
    for (size_t i = 0; i < 3; i++) {
        uint32_t pair[2];
        tokenring_u128 w;
        double f;
        assert_int_equal(tokenring_availability_summary_top(pair, &w, &f, sm, i), TOKENRING_OK);
        assert_true(w128(w) == (u128t)1 << 127 && f == 1.0);
    }
    tokenring_availability_summary_free(sm);
    assert_int_equal(tokenring_availability_build(&av, br, three, TOKENRING_CL_ALL, NULL, 2, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_availability_count(av), 3);
    for (size_t i = 0; i < 3; i++) {
        uint32_t pair[2];
        tokenring_u128 w;
        double f;
        assert_int_equal(tokenring_availability_get(pair, &w, &f, av, i), TOKENRING_OK);
        assert_true(w128(w) == (u128t)1 << 127 && f == 1.0);
    }
    tokenring_availability_free(av);
    tokenring_replication_free(three);
    tokenring_ring_free(br);
    tokenring_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_partitioner_names),
        cmocka_unit_test(test_topology128),
        cmocka_unit_test(test_topology_bytes),
        cmocka_unit_test(test_ring128_search),
        cmocka_unit_test(test_ring_bytes_search),
        cmocka_unit_test(test_unsupported_and_byte_ownership),
        cmocka_unit_test(test_availability_every_partitioner),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
