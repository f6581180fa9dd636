/* SPDX-License-Identifier: Apache-2.0 */
/* Murmur3 tokens: the golden vectors, the worked example, batches, bad arguments, and an
 * independent byte-by-byte implementation of the spec's pseudocode on random keys. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"
#include "tsv.h"

/* ------------------------------------------------------------ reference (spec §2.1) */

static uint64_t ref_rotl(uint64_t x, int r)
{
    return (x << r) | (x >> (64 - r));
}

static uint64_t ref_fmix(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

/* Sign-extends a byte the way Java widens a (signed) byte to long. */
static uint64_t sext(uint8_t b)
{
    return b >= 0x80 ? (0xFFFFFFFFFFFFFF00ULL | b) : b;
}

/* Straight transcription of the pseudocode: byte at a time, no tricks. */
static void ref_hash(const uint8_t *key, size_t n, uint64_t seed, uint64_t out[2])
{
    const uint64_t c1 = 0x87c37b91114253d5ULL, c2 = 0x4cf5ad432745937fULL;
    uint64_t h1 = seed, h2 = seed;
    size_t nblocks = n / 16;
    for (size_t i = 0; i < nblocks; i++) {
        uint64_t k1 = 0, k2 = 0;
        for (int b = 7; b >= 0; b--) {
            k1 = (k1 << 8) | key[16 * i + (size_t)b];
            k2 = (k2 << 8) | key[16 * i + 8 + (size_t)b];
        }
        k1 *= c1; k1 = ref_rotl(k1, 31); k1 *= c2; h1 ^= k1;
        h1 = ref_rotl(h1, 27); h1 += h2; h1 = h1 * 5 + 0x52dce729;
        k2 *= c2; k2 = ref_rotl(k2, 33); k2 *= c1; h2 ^= k2;
        h2 = ref_rotl(h2, 31); h2 += h1; h2 = h2 * 5 + 0x38495ab5;
    }
    const uint8_t *tail = key + 16 * nblocks;
    size_t t = n % 16;
    uint64_t k1 = 0, k2 = 0;
    for (size_t i = t; i-- > 8;)
        k2 ^= sext(tail[i]) << (8 * (i - 8));
    if (t > 8) {
        k2 *= c2; k2 = ref_rotl(k2, 33); k2 *= c1; h2 ^= k2;
    }
    for (size_t i = (t < 8 ? t : 8); i-- > 0;)
        k1 ^= sext(tail[i]) << (8 * i);
    if (t > 0) {
        k1 *= c1; k1 = ref_rotl(k1, 31); k1 *= c2; h1 ^= k1;
    }
    h1 ^= (uint64_t)n; h2 ^= (uint64_t)n;
    h1 += h2; h2 += h1;
    h1 = ref_fmix(h1); h2 = ref_fmix(h2);
    h1 += h2; h2 += h1;
    out[0] = h1;
    out[1] = h2;
}

static int64_t ref_token(const uint8_t *key, size_t n)
{
    if (n == 0)
        return TOKENRING_MIN_TOKEN;
    uint64_t h[2];
    ref_hash(key, n, 0, h);
    int64_t t = (int64_t)h[0];
    return t == TOKENRING_MIN_TOKEN ? TOKENRING_MAX_TOKEN : t;
}

/* xorshift64*: deterministic random bytes. */
static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

/* ------------------------------------------------------------ tests */

static void worked_example(void **state)
{
    (void)state;
    const uint8_t ff = 0xFF;
    assert_int_equal(tokenring_token(&ff, 1), -4442228696663692417LL);
    /* the unsigned-tail reading would give 5177511712917721324 */
    assert_int_not_equal(tokenring_token(&ff, 1), 5177511712917721324LL);
    int64_t h[2];
    assert_int_equal(tokenring_murmur3_cassandra(h, &ff, 1, 0), TOKENRING_OK);
    assert_int_equal((uint64_t)h[0], 0xc25a08894c506b7fULL);
    /* other anchors from the spec */
    assert_int_equal(tokenring_token("", 0), TOKENRING_MIN_TOKEN);
    assert_int_equal(tokenring_token("a", 1), -8839064797231613815LL);
    uint8_t seq[16];
    for (int i = 0; i < 16; i++)
        seq[i] = (uint8_t)i;
    assert_int_equal(tokenring_token(seq, 16), 4920504430128807728LL);
}

static void raw_minimum_becomes_maximum(void **state)
{
    (void)state;
    uint8_t key[16];
    assert_int_equal(tsv_hex_decode("653cbefb85ec3111b4e38fa9bc7cbcae", 32, key, 16), 16);
    int64_t h[2];
    assert_int_equal(tokenring_murmur3_cassandra(h, key, 16, 0), TOKENRING_OK);
    assert_int_equal(h[0], TOKENRING_MIN_TOKEN);
    assert_int_equal(tokenring_token(key, 16), TOKENRING_MAX_TOKEN);
}

typedef struct vec {
    uint8_t *key;
    size_t len;
    int64_t token;
} vec;

static vec *load_token_vectors(size_t *count)
{
    tsv_file *f = tsv_open("murmur3_tokens.tsv");
    assert_non_null(f);
    int ck = tsv_column(f, "key_hex"), ct = tsv_column(f, "token");
    assert_true(ck >= 0 && ct >= 0);
    size_t n = 0, cap = 0;
    vec *v = NULL;
    while (tsv_next(f)) {
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            v = realloc(v, cap * sizeof *v);
            assert_non_null(v);
        }
        v[n].key = tsv_hex_dup(tsv_field(f, (size_t)ck), tsv_field_len(f, (size_t)ck), &v[n].len);
        assert_non_null(v[n].key);
        char *end;
        v[n].token = strtoll(tsv_field(f, (size_t)ct), &end, 10);
        assert_true(*end == '\0' && end != tsv_field(f, (size_t)ct));
        n++;
    }
    tsv_close(f);
    *count = n;
    return v;
}

static void free_vectors(vec *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i].key);
    free(v);
}

static void every_token_vector(void **state)
{
    (void)state;
    size_t n;
    vec *v = load_token_vectors(&n);
    assert_true(n >= 2000); /* the file has 2083 rows */
    size_t failures = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t t = tokenring_token(v[i].key, v[i].len);
        if (t != v[i].token) {
            char *hex = tsv_hex_encode(v[i].key, v[i].len);
            fprintf(stderr, "row %zu key %s: got %" PRId64 ", want %" PRId64 "\n", i + 1, hex,
                    t, v[i].token);
            free(hex);
            failures++;
        }
        assert_int_equal(ref_token(v[i].key, v[i].len), v[i].token);
        /* both halves, without the partitioner's rules */
        int64_t h[2];
        assert_int_equal(tokenring_murmur3_cassandra(h, v[i].key, v[i].len, 0), TOKENRING_OK);
        uint64_t r[2];
        ref_hash(v[i].key, v[i].len, 0, r);
        assert_int_equal((uint64_t)h[0], r[0]);
        assert_int_equal((uint64_t)h[1], r[1]);
        if (v[i].len > 0) {
            if (v[i].token == TOKENRING_MAX_TOKEN)
                assert_true(h[0] == TOKENRING_MIN_TOKEN || h[0] == TOKENRING_MAX_TOKEN);
            else
                assert_int_equal(h[0], v[i].token);
        }
    }
    assert_int_equal(failures, 0);
    free_vectors(v, n);
}

static void every_token_vector_in_one_batch(void **state)
{
    (void)state;
    size_t n;
    vec *v = load_token_vectors(&n);
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += v[i].len;
    uint8_t *keys = malloc(total + 1);
    uint64_t *off = malloc((n + 1) * sizeof *off);
    int64_t *out = malloc(n * sizeof *out);
    assert_non_null(keys);
    assert_non_null(off);
    assert_non_null(out);
    off[0] = 0;
    for (size_t i = 0; i < n; i++) {
        memcpy(keys + off[i], v[i].key, v[i].len);
        off[i + 1] = off[i] + v[i].len;
    }
    for (size_t i = 0; i < n; i++)
        out[i] = 12345;
    assert_int_equal(tokenring_tokens(out, keys, off, n), TOKENRING_OK);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(out[i], v[i].token);
    free(keys);
    free(off);
    free(out);
    free_vectors(v, n);
}

/* tokenring_token(key) equals the reference token (the key in hex on failure); returns
 * the token. */
static int64_t check_token(const uint8_t *key, size_t len)
{
    int64_t t = tokenring_token(key, len), want = ref_token(key, len);
    if (t != want) {
        char *hex = tsv_hex_encode(key, len);
        fail_msg("len %zu key %s: got %" PRId64 " want %" PRId64, len, hex, t, want);
    }
    return want;
}

/* tokenring_murmur3_cassandra(key, seed) equals the reference hash. */
static void check_hash(const uint8_t *key, size_t len, uint64_t seed)
{
    int64_t h[2];
    uint64_t r[2];
    assert_int_equal(tokenring_murmur3_cassandra(h, key, len, seed), TOKENRING_OK);
    ref_hash(key ? key : (const uint8_t *)"", len, seed, r);
    assert_int_equal((uint64_t)h[0], r[0]);
    assert_int_equal((uint64_t)h[1], r[1]);
}

static void fast_path_matches_reference_on_random_keys(void **state)
{
    (void)state;
    uint8_t buf[256 + 16];
    for (size_t len = 0; len <= 200; len++) {
        for (int rep = 0; rep < 24; rep++) {
            size_t shift = (size_t)rep % 8; /* unaligned starts too */
            uint8_t *key = buf + shift;
            for (size_t i = 0; i < len; i++) {
                uint64_t r = rng();
                /* mix: random, all-high, all-low and alternating bytes */
                key[i] = rep % 4 == 1 ? (uint8_t)(0x80 | r) : rep % 4 == 2 ? (uint8_t)(r & 0x7F)
                                                           : (uint8_t)r;
            }
            check_token(key, len);
            check_hash(key, len, rep % 3 == 0 ? 0 : rng());
        }
    }
    /* every single byte value at every tail position (lengths 1..31) */
    for (size_t len = 1; len < 32; len++) {
        for (size_t pos = 0; pos < len; pos++) {
            for (int b = 0; b < 256; b += 7) {
                memset(buf, 0x11, len);
                buf[pos] = (uint8_t)b;
                assert_int_equal(tokenring_token(buf, len), ref_token(buf, len));
            }
        }
    }
}

/* Every combination of tail-byte signs for keys of 1..31 bytes (the straight-line
 * paths: all of a key up to 16 bytes, the tail after one block up to 31), each key in a
 * heap buffer of exactly its size so that AddressSanitizer sees any read outside it. */
static void every_sign_pattern_of_short_tails(void **state)
{
    (void)state;
    for (size_t len = 1; len < 32; len++) {
        size_t first = len > 16 ? 16 : 0, bits = len - first;
        uint8_t *key = malloc(len);
        assert_non_null(key);
        for (uint32_t pattern = 0; pattern < (1u << bits); pattern++) {
            for (size_t i = 0; i < len; i++)
                key[i] = (uint8_t)(rng() & 0x7F);
            for (size_t b = 0; b < bits; b++)
                if (pattern >> b & 1)
                    key[first + b] |= 0x80;
            check_token(key, len);
            if (pattern % 61 == 0)
                check_hash(key, len, rng());
        }
        free(key);
    }
}

/* Every length 0..300 (and a few long ones) with all-high, all-low, alternating and random
 * bytes, in heap buffers of exactly the key's size: single keys, seeded hashes and one
 * batch of all of them packed back to back (offsets starting past 0). */
static void exact_size_keys_of_every_length(void **state)
{
    (void)state;
    static const size_t extra[] = { 511, 512, 513, 1000, 1023, 1024, 1025, 4099 };
    size_t nlens = 301 + sizeof extra / sizeof extra[0], count = 4 * nlens, total = 0;
    size_t *lens = malloc(count * sizeof *lens);
    assert_non_null(lens);
    for (size_t i = 0; i < count; i++) {
        size_t l = i / 4 < 301 ? i / 4 : extra[i / 4 - 301];
        lens[i] = l;
        total += l;
    }
    uint8_t *packed = malloc(total + 3);
    uint64_t *off = malloc((count + 1) * sizeof *off);
    int64_t *out = malloc(count * sizeof *out), *want = malloc(count * sizeof *want);
    assert_non_null(packed);
    assert_non_null(off);
    assert_non_null(out);
    assert_non_null(want);
    off[0] = 3;
    for (size_t i = 0; i < count; i++) {
        size_t len = lens[i];
        uint8_t *key = len ? malloc(len) : NULL;
        assert_true(len == 0 || key != NULL);
        for (size_t j = 0; j < len; j++) {
            uint8_t r = (uint8_t)rng();
            key[j] = i % 4 == 0 ? (uint8_t)(r | 0x80) : i % 4 == 1 ? (uint8_t)(r & 0x7F)
                     : i % 4 == 2 ? (uint8_t)(j % 2 ? r | 0x80 : r & 0x7F) : r;
        }
        want[i] = check_token(key, len);
        check_hash(key, len, i % 3 ? rng() : 0);
        if (len)
            memcpy(packed + off[i], key, len);
        off[i + 1] = off[i] + len;
        free(key);
    }
    assert_int_equal(tokenring_tokens(out, packed, off, count), TOKENRING_OK);
    for (size_t i = 0; i < count; i++)
        if (out[i] != want[i])
            fail_msg("batch key %zu (len %zu): got %" PRId64 " want %" PRId64, i, lens[i],
                     out[i], want[i]);
    free(lens);
    free(packed);
    free(off);
    free(out);
    free(want);
}

/* Runs of keys of one length, which the batch hashes eight at a time where the processor
 * has AVX-512 (lib/token/murmur3.c), for every length 0..300 and a few long ones: each
 * batch in a heap buffer of exactly its size (the first key at its start, the last at its
 * end), lane by lane all-high, all-low, alternating and random bytes; then the same keys
 * with one key's length changed (a broken run, hashed one by one) at each lane position,
 * and a batch that starts one key off the runs. Every token equals tokenring_token's. */
static void check_batch(const uint8_t *packed, const uint64_t *off, size_t count)
{
    int64_t *out = malloc(count * sizeof *out);
    assert_non_null(out);
    assert_int_equal(tokenring_tokens(out, packed, off, count), TOKENRING_OK);
    for (size_t i = 0; i < count; i++) {
        size_t len = (size_t)(off[i + 1] - off[i]);
        int64_t want = tokenring_token(len ? packed + off[i] : NULL, len);
        if (out[i] != want)
            fail_msg("key %zu of %zu (len %zu): got %" PRId64 " want %" PRId64, i, count, len,
                     out[i], want);
        assert_int_equal(want, ref_token(len ? packed + off[i] : (const uint8_t *)"", len));
    }
    free(out);
}

static void batch_runs_of_one_length(void **state)
{
    (void)state;
    static const size_t extra[] = { 511, 512, 513, 1000, 1024, 1031 };
    size_t nlens = 301 + sizeof extra / sizeof extra[0];
    for (size_t li = 0; li < nlens; li++) {
        size_t len = li < 301 ? li : extra[li - 301];
        size_t count = len > 300 ? 17 : 29; /* three runs and a rest; two and one */
        for (int broken = -1; broken < 9; broken++) {
            /* broken < 0: runs intact; 0..7: key `broken` one byte longer; 8: one key of
             * another length first, so the batch's eights straddle the runs */
            size_t total = len * count + (broken >= 0 ? 1 : 0);
            uint8_t *packed = malloc(total ? total : 1);
            uint64_t *off = malloc((count + 1) * sizeof *off);
            assert_non_null(packed);
            assert_non_null(off);
            off[0] = 0;
            for (size_t i = 0; i < count; i++)
                off[i + 1] = off[i] + len + ((broken < 8 && (int)i == broken) || (broken == 8 && i == 0) ? 1 : 0);
            assert_int_equal(off[count], total);
            for (size_t i = 0; i < count; i++)
                for (uint64_t j = off[i]; j < off[i + 1]; j++) {
                    uint8_t r = (uint8_t)rng();
                    packed[j] = i % 4 == 0 ? (uint8_t)(r | 0x80) : i % 4 == 1 ? (uint8_t)(r & 0x7F)
                                : i % 4 == 2 ? (uint8_t)(j % 2 ? r | 0x80 : r & 0x7F) : r;
                }
            check_batch(packed, off, count);
            free(packed);
            free(off);
        }
    }
    /* the raw minimum (raw_minimum_becomes_maximum's key) in each lane of a run of eight
     * 16-byte keys: the maximum there, every other lane its own token */
    uint8_t minkey[16];
    assert_int_equal(tsv_hex_decode("653cbefb85ec3111b4e38fa9bc7cbcae", 32, minkey, 16), 16);
    for (size_t lane = 0; lane < 8; lane++) {
        uint8_t packed[8 * 16];
        uint64_t off[9];
        int64_t out[8];
        for (size_t i = 0; i < 8; i++) {
            off[i] = 16 * i;
            for (size_t j = 0; j < 16; j++)
                packed[16 * i + j] = i == lane ? minkey[j] : (uint8_t)rng();
        }
        off[8] = 128;
        assert_int_equal(tokenring_tokens(out, packed, off, 8), TOKENRING_OK);
        for (size_t i = 0; i < 8; i++)
            assert_int_equal(out[i], i == lane ? TOKENRING_MAX_TOKEN
                                               : tokenring_token(packed + 16 * i, 16));
    }
}

/* The batch validates its offsets several at a time: a decrease at any position of
 * batches of 1..13 keys is refused with nothing written, and all-empty batches of every
 * size accept NULL keys. */
static void batch_decrease_anywhere_writes_nothing(void **state)
{
    (void)state;
    uint8_t keys[64];
    for (size_t i = 0; i < sizeof keys; i++)
        keys[i] = (uint8_t)(0x41 + i);
    for (size_t count = 1; count <= 13; count++) {
        uint64_t off[14];
        int64_t out[13];
        for (size_t i = 0; i <= count; i++)
            off[i] = 2 * i + 1;
        for (size_t i = 0; i < count; i++)
            out[i] = 7;
        assert_int_equal(tokenring_tokens(out, keys, off, count), TOKENRING_OK);
        for (size_t i = 0; i < count; i++)
            assert_int_equal(out[i], tokenring_token(keys + 2 * i + 1, 2));
        for (size_t bad = 1; bad <= count; bad++) {
            for (size_t i = 0; i < count; i++)
                out[i] = 7;
            uint64_t saved = off[bad];
            off[bad] = off[bad - 1] - 1; /* the only decrease: between keys bad-1 and bad */
            assert_int_equal(tokenring_tokens(out, keys, off, count), TOKENRING_E_INVAL);
            for (size_t i = 0; i < count; i++)
                assert_int_equal(out[i], 7);
            off[bad] = saved;
        }
        uint64_t same[14];
        for (size_t i = 0; i <= count; i++)
            same[i] = 9;
        assert_int_equal(tokenring_tokens(out, NULL, same, count), TOKENRING_OK);
        for (size_t i = 0; i < count; i++)
            assert_int_equal(out[i], TOKENRING_MIN_TOKEN);
    }
}

static void batch_bad_arguments_write_nothing(void **state)
{
    (void)state;
    const uint8_t keys[] = { 'a', 'b', 'c', 'd' };
    int64_t out[3] = { 7, 7, 7 };
    uint64_t good[4] = { 0, 1, 3, 4 };
    uint64_t bad[4] = { 0, 2, 1, 4 };
    assert_int_equal(tokenring_tokens(out, keys, bad, 3), TOKENRING_E_INVAL);
    for (int i = 0; i < 3; i++)
        assert_int_equal(out[i], 7);
    uint64_t bad_last[4] = { 0, 1, 3, 2 };
    assert_int_equal(tokenring_tokens(out, keys, bad_last, 3), TOKENRING_E_INVAL);
    for (int i = 0; i < 3; i++)
        assert_int_equal(out[i], 7);
    assert_int_equal(tokenring_tokens(NULL, keys, good, 3), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_tokens(out, keys, NULL, 3), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_tokens(out, NULL, good, 3), TOKENRING_E_INVAL);
    for (int i = 0; i < 3; i++)
        assert_int_equal(out[i], 7);
    /* count 0 needs nothing */
    assert_int_equal(tokenring_tokens(NULL, NULL, NULL, 0), TOKENRING_OK);
    /* NULL keys are fine when every key is empty */
    uint64_t empty[3] = { 5, 5, 5 };
    assert_int_equal(tokenring_tokens(out, NULL, empty, 2), TOKENRING_OK);
    assert_int_equal(out[0], TOKENRING_MIN_TOKEN);
    assert_int_equal(out[1], TOKENRING_MIN_TOKEN);
    assert_int_equal(out[2], 7);
    /* offsets need not start at 0 */
    uint64_t shifted[2] = { 1, 3 };
    assert_int_equal(tokenring_tokens(out, keys, shifted, 1), TOKENRING_OK);
    assert_int_equal(out[0], tokenring_token("bc", 2));
    assert_int_equal(tokenring_tokens(out, keys, good, 3), TOKENRING_OK);
    assert_int_equal(out[0], tokenring_token("a", 1));
    assert_int_equal(out[1], tokenring_token("bc", 2));
    assert_int_equal(out[2], tokenring_token("d", 1));
}

static void single_key_bad_arguments(void **state)
{
    (void)state;
    assert_int_equal(tokenring_token(NULL, 0), TOKENRING_MIN_TOKEN);
    assert_int_equal(tokenring_token(NULL, 5), TOKENRING_MIN_TOKEN);
    int64_t h[2] = { 1, 2 };
    assert_int_equal(tokenring_murmur3_cassandra(NULL, "a", 1, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_murmur3_cassandra(h, NULL, 1, 0), TOKENRING_E_INVAL);
    assert_int_equal(h[0], 1);
    assert_int_equal(h[1], 2);
    assert_int_equal(tokenring_murmur3_cassandra(h, NULL, 0, 0), TOKENRING_OK);
    uint64_t r[2];
    ref_hash((const uint8_t *)"", 0, 0, r);
    assert_int_equal((uint64_t)h[0], r[0]);
    assert_int_equal((uint64_t)h[1], r[1]);
    /* the plain hash of nothing is 0 (what drivers return), the token is MIN */
    assert_int_equal(h[0], 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(worked_example),
        cmocka_unit_test(raw_minimum_becomes_maximum),
        cmocka_unit_test(every_token_vector),
        cmocka_unit_test(every_token_vector_in_one_batch),
        cmocka_unit_test(fast_path_matches_reference_on_random_keys),
        cmocka_unit_test(every_sign_pattern_of_short_tails),
        cmocka_unit_test(exact_size_keys_of_every_length),
        cmocka_unit_test(batch_runs_of_one_length),
        cmocka_unit_test(batch_decrease_anywhere_writes_nothing),
        cmocka_unit_test(batch_bad_arguments_write_nothing),
        cmocka_unit_test(single_key_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
