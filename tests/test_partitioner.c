/* SPDX-License-Identifier: Apache-2.0 */
/* RandomPartitioner and ByteOrderedPartitioner tokens: RFC 1321's MD5 test suite, every
 * golden vector of tests/data/partitioner_vectors.tsv (made by Cassandra's own classes),
 * the drivers' own unit-test expectations, the digest edge cases (a negative digest,
 * -2^127), the text forms and their errors, batches, and the orders. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"
#include "token.h"
#include "tsv.h"

static const tokenring_token128 MIN128 = {UINT64_MAX, UINT64_MAX};

static void assert_token_text(tokenring_token128 t, const char *want)
{
    char buf[TOKENRING_TOKEN128_TEXT_MAX];
    size_t n = 0;
    assert_int_equal(tokenring_token128_format(buf, sizeof buf, &n, t), TOKENRING_OK);
    assert_string_equal(buf, want);
    assert_int_equal(n, strlen(want));
}

static tokenring_token128 parse_ok(const char *text)
{
    tokenring_token128 t = {12345, 678};
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = tokenring_token128_parse(&t, text, strlen(text), &err);
    if (rc != TOKENRING_OK)
        fail_msg("parse \"%s\": %d %s", text, rc, err.message);
    return t;
}

/* ------------------------------------------------------------------ RFC 1321 */

static void test_md5_rfc1321_suite(void **state)
{
    (void)state;
    /* RFC 1321, appendix A.5 ("test suite"). */
    static const struct { const char *msg, *digest; } suite[] = {
        {"", "d41d8cd98f00b204e9800998ecf8427e"},
        {"a", "0cc175b9c0f1b6a831c399e269772661"},
        {"abc", "900150983cd24fb0d6963f7d28e17f72"},
        {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
        {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
        {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
         "d174ab98d277d9f5a5611c2c9f419d9f"},
        {"1234567890123456789012345678901234567890123456789012345678901234567890"
         "1234567890",
         "57edf4a22be3c955ac49da2e2107b67a"},
    };
    for (size_t i = 0; i < sizeof suite / sizeof suite[0]; i++) {
        uint8_t d[16];
        assert_int_equal(tokenring_md5(d, suite[i].msg, strlen(suite[i].msg)), TOKENRING_OK);
        char *hex = tsv_hex_encode(d, 16);
        assert_string_equal(hex, suite[i].digest);
        free(hex);
    }
    uint8_t d[16];
    assert_int_equal(tokenring_md5(d, NULL, 0), TOKENRING_OK); /* the empty message */
    char *hex = tsv_hex_encode(d, 16);
    assert_string_equal(hex, "d41d8cd98f00b204e9800998ecf8427e");
    free(hex);
    assert_int_equal(tokenring_md5(NULL, "a", 1), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_md5(d, NULL, 1), TOKENRING_E_INVAL);
}

/* ------------------------------------------------------------ golden vectors */

static void test_golden_vectors(void **state)
{
    (void)state;
    tsv_file *f = tsv_open("partitioner_vectors.tsv");
    assert_non_null(f);
    int ck = tsv_column(f, "key_hex"), cr = tsv_column(f, "random_token"),
        cb = tsv_column(f, "byte_ordered_token");
    assert_true(ck >= 0 && cr >= 0 && cb >= 0);
    /* Every key also goes into one packed batch, checked against the single calls. */
    size_t cap = 1 << 20, used = 0, nkeys = 0, kcap = 8192;
    uint8_t *packed = malloc(cap);
    uint64_t *off = malloc((kcap + 1) * sizeof *off);
    tokenring_token128 *single = malloc(kcap * sizeof *single);
    assert_non_null(packed);
    assert_non_null(off);
    assert_non_null(single);
    off[0] = 0;
    size_t rows = 0, minimum = 0, negative_digests = 0;
    while (tsv_next(f)) {
        size_t klen = 0;
        uint8_t *key = tsv_hex_dup(tsv_field(f, (size_t)ck), tsv_field_len(f, (size_t)ck), &klen);
        assert_non_null(key);
        const char *want = tsv_field(f, (size_t)cr);

        tokenring_token128 t = tokenring_random_token(key, klen);
        char buf[TOKENRING_TOKEN128_TEXT_MAX];
        size_t n = 0;
        assert_int_equal(tokenring_token128_format(buf, sizeof buf, &n, t), TOKENRING_OK);
        if (strcmp(buf, want) != 0)
            fail_msg("line %zu: RandomPartitioner token %s, Cassandra %s", tsv_line(f), buf, want);
        tokenring_token128 back = parse_ok(want);
        assert_int_equal(tokenring_token128_compare(back, t), 0);
        assert_true(back.hi == t.hi && back.lo == t.lo);
        if (klen == 0) {
            minimum++;
            assert_true(t.hi == UINT64_MAX && t.lo == UINT64_MAX);
        } else {
            uint8_t d[16];
            assert_int_equal(tokenring_md5(d, key, klen), TOKENRING_OK);
            negative_digests += d[0] >> 7;
        }

        /* ByteOrderedPartitioner: the token is the key; its text is Cassandra's. */
        const char *bwant = tsv_field(f, (size_t)cb);
        size_t blen = tsv_field_len(f, (size_t)cb);
        char *btext = malloc(2 * klen + 1);
        assert_non_null(btext);
        assert_int_equal(tokenring_byte_token_format(btext, 2 * klen + 1, &n, key, klen),
                         TOKENRING_OK);
        assert_int_equal(n, blen);
        if (strcmp(btext, bwant) != 0)
            fail_msg("line %zu: byte token %s, Cassandra %s", tsv_line(f), btext, bwant);
        uint8_t *bback = malloc(klen + 1);
        assert_non_null(bback);
        assert_int_equal(tokenring_byte_token_parse(bback, klen, &n, bwant, blen, NULL),
                         TOKENRING_OK);
        assert_int_equal(n, klen);
        assert_int_equal(tokenring_byte_token_compare(bback, n, key, klen), 0);
        free(btext);
        free(bback);

        if (nkeys < kcap && used + klen <= cap) {
            memcpy(packed + used, key, klen);
            used += klen;
            single[nkeys] = t;
            off[++nkeys] = used;
        }
        free(key);
        rows++;
    }
    tsv_close(f);
    print_message("%zu Cassandra vectors match (RandomPartitioner and ByteOrderedPartitioner"
                  " tokens and text), %zu negative digests, %zu empty keys\n",
                  rows, negative_digests, minimum);
    assert_true(rows >= 5000);
    assert_int_equal(minimum, 1);
    assert_true(negative_digests > rows / 3); /* the abs() path is exercised */

    tokenring_token128 *batch = malloc(nkeys * sizeof *batch);
    assert_non_null(batch);
    assert_int_equal(tokenring_random_tokens(batch, packed, off, nkeys), TOKENRING_OK);
    for (size_t i = 0; i < nkeys; i++)
        assert_int_equal(tokenring_token128_compare(batch[i], single[i]), 0);
    assert_int_equal(nkeys, rows);
    free(batch);
    free(single);
    free(off);
    free(packed);
}

/* ---------------------------------------------------------- drivers' own tests */

static void test_driver_cases(void **state)
{
    (void)state;
    /* python-driver tests/unit/test_metadata.py, MD5TokensTest.test_md5_tokens:
     * MD5Token.hash_fn('123') and hash_fn(str(MAX_LONG)). */
    assert_token_text(tokenring_random_token("123", 3), "42767516990368493138776584305024125808");
    assert_token_text(tokenring_random_token("9223372036854775807", 19),
                      "28528976619278518853815276204542453639");
    /* gocql token_test.go, TestRandomPartitionerMatchesReference: hash of "test". */
    assert_token_text(tokenring_random_token("test", 4), "12707736894140473154801792860916528374");
    /* gocql token_test.go, TestRandomPartitioner: the token of the int 1 (4 bytes)
     * reads back from its string. */
    const uint8_t one[4] = {0, 0, 0, 1};
    tokenring_token128 t1 = tokenring_random_token(one, 4);
    char buf[TOKENRING_TOKEN128_TEXT_MAX];
    size_t n;
    assert_int_equal(tokenring_token128_format(buf, sizeof buf, &n, t1), TOKENRING_OK);
    assert_int_equal(tokenring_token128_compare(parse_ok(buf), t1), 0);
    /* gocql TestRandomToken: 42 is not below 42; 41 is below 42. */
    tokenring_token128 t41 = {0, 41}, t42 = {0, 42};
    assert_int_equal(tokenring_token128_compare(t42, t42), 0);
    assert_true(tokenring_token128_compare(t41, t42) < 0);
    assert_true(tokenring_token128_compare(t42, t41) > 0);

    /* cpp-driver tests/src/unit/tests/test_token.cpp, TokenUnitTest.RandomHash ("sampled
     * using SELECT token(key)"). */
    static const struct { const char *key, *token; } cpp[] = {
        {"a", "16955237001963240173058271559858726497"},
        {"b", "144992942750327304334463589818972416113"},
        {"c", "99079589977253916124855502156832923443"},
        {"d", "166860289390734216023086131251507064403"},
        {"abc", "148866708576779697295343134153845407886"},
        {"xyz", "61893731502141497228477852773302439842"},
    };
    for (size_t i = 0; i < sizeof cpp / sizeof cpp[0]; i++)
        assert_token_text(tokenring_random_token(cpp[i].key, strlen(cpp[i].key)), cpp[i].token);
    /* cpp-driver TokenUnitTest.RandomFromString: 0, 1, 2^127 - 1, 2^127 read back. */
    static const char *const cpp_text[] = {"0", "1", "170141183460469231731687303715884105727",
                                           "170141183460469231731687303715884105728"};
    for (size_t i = 0; i < 4; i++)
        assert_token_text(parse_ok(cpp_text[i]), cpp_text[i]);
    /* cpp-driver TokenUnitTest.RandomLessThan: abs of the digests 80 00..01
     * (-(2^127 - 1)) and 80 00..00 (-2^127): the first is below; 00..01 00..00 (2^64) is
     * below 00..02 00..00 (2^65); 0 is below 1. */
    uint8_t d1[16] = {0}, d2[16] = {0};
    d1[0] = 0x80;
    d1[15] = 0x01;
    d2[0] = 0x80;
    assert_true(tokenring_token128_compare(tr_random_token_from_digest(d1),
                                           tr_random_token_from_digest(d2)) < 0);
    memset(d1, 0, 16);
    memset(d2, 0, 16);
    d1[7] = 0x01;
    d2[7] = 0x02;
    assert_token_text(tr_random_token_from_digest(d1), "18446744073709551616");
    assert_token_text(tr_random_token_from_digest(d2), "36893488147419103232");
    assert_true(tokenring_token128_compare(tr_random_token_from_digest(d1),
                                           tr_random_token_from_digest(d2)) < 0);

    /* python-driver BytesTokensTest.test_from_string / test_comparison: the token
     * "0123456789abcdef" sits between the two-byte tokens 0122 and 0124. */
    uint8_t tok[8];
    assert_int_equal(tokenring_byte_token_parse(tok, sizeof tok, &n, "0123456789abcdef", 16, NULL),
                     TOKENRING_OK);
    assert_int_equal(n, 8);
    const uint8_t want[8] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef};
    assert_memory_equal(tok, want, 8);
    const uint8_t lo[2] = {0x01, 0x22}, hi[2] = {0x01, 0x24};
    assert_true(tokenring_byte_token_compare(lo, 2, tok, 8) < 0);
    assert_true(tokenring_byte_token_compare(hi, 2, tok, 8) > 0);
    /* python-driver test_comparison_unicode: b'\'_-()"\xc2\xac' is above from_string('00'). */
    const uint8_t uni[8] = {'\'', '_', '-', '(', ')', '"', 0xc2, 0xac};
    uint8_t zero[1];
    assert_int_equal(tokenring_byte_token_parse(zero, 1, &n, "00", 2, NULL), TOKENRING_OK);
    assert_true(tokenring_byte_token_compare(uni, 8, zero, n) > 0);
    assert_false(tokenring_byte_token_compare(uni, 8, zero, n) < 0);
    /* python-driver test_bytes_tokens: BytesToken(unhexlify('01')).value is b'\x01'. */
    assert_int_equal(tokenring_byte_token_parse(zero, 1, &n, "01", 2, NULL), TOKENRING_OK);
    assert_int_equal(zero[0], 1);
    /* gocql TestOrderedToken: {0,0,4,2} not below itself; {0,0,3} below {0,0,4,2}. */
    const uint8_t a[4] = {0, 0, 4, 2}, b[3] = {0, 0, 3};
    assert_int_equal(tokenring_byte_token_compare(a, 4, a, 4), 0);
    assert_true(tokenring_byte_token_compare(b, 3, a, 4) < 0);
    assert_true(tokenring_byte_token_compare(a, 4, b, 3) > 0);
}

/* ------------------------------------------------------------ digest edges */

static void test_digest_edges(void **state)
{
    (void)state;
    uint8_t d[16];
    /* -2^127: BigInteger.abs gives 2^127, the largest token. */
    memset(d, 0, 16);
    d[0] = 0x80;
    tokenring_token128 t = tr_random_token_from_digest(d);
    assert_true(t.hi == TOKENRING_TOKEN128_MAX_HI && t.lo == 0);
    assert_token_text(t, "170141183460469231731687303715884105728");
    /* -1 (all ones) gives 1; 2^127 - 1 stays; 0 stays; -2^64 gives 2^64. */
    memset(d, 0xff, 16);
    t = tr_random_token_from_digest(d);
    assert_true(t.hi == 0 && t.lo == 1);
    memset(d, 0xff, 16);
    d[0] = 0x7f;
    t = tr_random_token_from_digest(d);
    assert_token_text(t, "170141183460469231731687303715884105727");
    memset(d, 0, 16);
    assert_token_text(tr_random_token_from_digest(d), "0");
    memset(d, 0xff, 8);
    memset(d + 8, 0, 8);
    assert_token_text(tr_random_token_from_digest(d), "18446744073709551616");
    /* A borrow across the halves: -(2^64 + 1) is ff..fe ff..ff. */
    memset(d, 0xff, 16);
    d[7] = 0xfe;
    assert_token_text(tr_random_token_from_digest(d), "18446744073709551617");
    /* The NULL key is the empty key. */
    t = tokenring_random_token(NULL, 5);
    assert_true(t.hi == MIN128.hi && t.lo == MIN128.lo);
    t = tokenring_random_token("", 0);
    assert_token_text(t, "-1");
}

/* -------------------------------------------------------------- text forms */

static void test_token128_parse(void **state)
{
    (void)state;
    tokenring_token128 t = parse_ok("-1");
    assert_true(t.hi == MIN128.hi && t.lo == MIN128.lo);
    t = parse_ok("-0001");
    assert_true(t.hi == MIN128.hi && t.lo == MIN128.lo);
    t = parse_ok("-0");
    assert_true(t.hi == 0 && t.lo == 0);
    t = parse_ok("+5");
    assert_true(t.hi == 0 && t.lo == 5);
    t = parse_ok("0007");
    assert_true(t.hi == 0 && t.lo == 7);
    t = parse_ok("18446744073709551615");
    assert_true(t.hi == 0 && t.lo == UINT64_MAX);
    t = parse_ok("18446744073709551616");
    assert_true(t.hi == 1 && t.lo == 0);
    t = parse_ok("170141183460469231731687303715884105728");
    assert_true(t.hi == TOKENRING_TOKEN128_MAX_HI && t.lo == 0);
    t = parse_ok("000000000000000000000000000000000000000000000170141183460469231731687303715884105727");
    assert_true(t.hi == TOKENRING_TOKEN128_MAX_HI - 1 && t.lo == UINT64_MAX);

    static const struct { const char *text; int rc; uint32_t col; } bad[] = {
        {"", TOKENRING_E_PARSE, 1},
        {"+", TOKENRING_E_PARSE, 2},
        {"-", TOKENRING_E_PARSE, 2},
        {" 1", TOKENRING_E_PARSE, 1},
        {"1 ", TOKENRING_E_PARSE, 2},
        {"12a", TOKENRING_E_PARSE, 3},
        {"--1", TOKENRING_E_PARSE, 2},
        {"0x10", TOKENRING_E_PARSE, 2},
        {"-2", TOKENRING_E_RANGE, 0},
        {"-170141183460469231731687303715884105728", TOKENRING_E_RANGE, 0},
        {"170141183460469231731687303715884105729", TOKENRING_E_RANGE, 0},
        {"340282366920938463463374607431768211455", TOKENRING_E_RANGE, 0},
        {"340282366920938463463374607431768211456", TOKENRING_E_RANGE, 0},
        {"99999999999999999999999999999999999999999999999999999999999999999", TOKENRING_E_RANGE, 0},
        {"-99999999999999999999999999999999999999999", TOKENRING_E_RANGE, 0},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tokenring_token128 keep = {7, 9};
        tokenring_error err;
        memset(&err, 0, sizeof err);
        int rc = tokenring_token128_parse(&keep, bad[i].text, strlen(bad[i].text), &err);
        if (rc != bad[i].rc)
            fail_msg("\"%s\": %d, expected %d", bad[i].text, rc, bad[i].rc);
        assert_int_equal(err.code, bad[i].rc);
        assert_int_equal(err.column, bad[i].col);
        assert_true(err.message[0] != '\0');
        assert_true(keep.hi == 7 && keep.lo == 9);
    }
    assert_int_equal(tokenring_token128_parse(NULL, "1", 1, NULL), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_token128_parse(&t, NULL, 0, NULL), TOKENRING_E_INVAL);
}

static void test_token128_format(void **state)
{
    (void)state;
    assert_token_text(MIN128, "-1");
    tokenring_token128 t = {0, 0};
    assert_token_text(t, "0");
    t.lo = 10;
    assert_token_text(t, "10");
    t.hi = 1;
    t.lo = 0;
    assert_token_text(t, "18446744073709551616");
    t.hi = TOKENRING_TOKEN128_MAX_HI;
    assert_token_text(t, "170141183460469231731687303715884105728");

    char buf[64];
    size_t n = 0;
    /* Too small: the length is still reported, and 39 + 1 bytes are enough. */
    assert_int_equal(tokenring_token128_format(buf, 39, &n, t), TOKENRING_E_BUFSIZE);
    assert_int_equal(n, 39);
    assert_int_equal(tokenring_token128_format(NULL, 0, &n, MIN128), TOKENRING_E_BUFSIZE);
    assert_int_equal(n, 2);
    assert_int_equal(tokenring_token128_format(buf, 40, &n, t), TOKENRING_OK);
    /* Not tokens: above 2^127 and not -1. */
    tokenring_token128 above = {TOKENRING_TOKEN128_MAX_HI, 1};
    assert_int_equal(tokenring_token128_format(buf, sizeof buf, &n, above), TOKENRING_E_RANGE);
    above.hi = UINT64_MAX;
    above.lo = 0;
    assert_int_equal(tokenring_token128_format(buf, sizeof buf, &n, above), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_token128_format(buf, sizeof buf, NULL, t), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_token128_format(NULL, 4, &n, t), TOKENRING_E_INVAL);
}

static void test_token128_order(void **state)
{
    (void)state;
    /* -1 < 0 < 1 < 2^64 - 1 < 2^64 < 2^127 - 1 < 2^127, checked pairwise. */
    const tokenring_token128 seq[] = {
        MIN128, {0, 0}, {0, 1}, {0, UINT64_MAX}, {1, 0},
        {TOKENRING_TOKEN128_MAX_HI - 1, UINT64_MAX}, {TOKENRING_TOKEN128_MAX_HI, 0},
    };
    size_t k = sizeof seq / sizeof seq[0];
    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j < k; j++) {
            int c = tokenring_token128_compare(seq[i], seq[j]);
            if (i < j)
                assert_true(c < 0);
            else if (i > j)
                assert_true(c > 0);
            else
                assert_int_equal(c, 0);
        }
}

static void test_batch_errors(void **state)
{
    (void)state;
    const uint8_t keys[] = "abcdef";
    uint64_t off[4] = {0, 3, 3, 6};
    tokenring_token128 out[3];
    assert_int_equal(tokenring_random_tokens(out, keys, off, 3), TOKENRING_OK);
    tokenring_token128 abc = tokenring_random_token("abc", 3), def = tokenring_random_token("def", 3);
    assert_int_equal(tokenring_token128_compare(out[0], abc), 0);
    assert_int_equal(tokenring_token128_compare(out[1], MIN128), 0);
    assert_int_equal(tokenring_token128_compare(out[2], def), 0);
    assert_int_equal(tokenring_random_tokens(NULL, NULL, NULL, 0), TOKENRING_OK);
    assert_int_equal(tokenring_random_tokens(NULL, keys, off, 3), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_random_tokens(out, keys, NULL, 3), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_random_tokens(out, NULL, off, 3), TOKENRING_E_INVAL);
    /* Every key empty: keys may be NULL. */
    uint64_t same[3] = {4, 4, 4};
    assert_int_equal(tokenring_random_tokens(out, NULL, same, 2), TOKENRING_OK);
    assert_int_equal(tokenring_token128_compare(out[1], MIN128), 0);
    /* Decreasing offsets: nothing written. */
    uint64_t dec[4] = {0, 3, 2, 6};
    tokenring_token128 untouched[3] = {{1, 1}, {1, 1}, {1, 1}};
    assert_int_equal(tokenring_random_tokens(untouched, keys, dec, 3), TOKENRING_E_INVAL);
    for (int i = 0; i < 3; i++)
        assert_true(untouched[i].hi == 1 && untouched[i].lo == 1);
}

/* --------------------------------------------------------- byte tokens */

static void test_byte_tokens(void **state)
{
    (void)state;
    uint8_t out[8];
    size_t n = 99;
    /* An odd number of digits reads with a leading 0 (Cassandra's fromString). */
    assert_int_equal(tokenring_byte_token_parse(out, sizeof out, &n, "abc", 3, NULL), TOKENRING_OK);
    assert_int_equal(n, 2);
    assert_int_equal(out[0], 0x0a);
    assert_int_equal(out[1], 0xbc);
    assert_int_equal(tokenring_byte_token_parse(out, sizeof out, &n, "F", 1, NULL), TOKENRING_OK);
    assert_int_equal(n, 1);
    assert_int_equal(out[0], 0x0f);
    assert_int_equal(tokenring_byte_token_parse(out, sizeof out, &n, "DeadBEEF", 8, NULL), TOKENRING_OK);
    assert_int_equal(n, 4);
    assert_int_equal(out[0], 0xde);
    assert_int_equal(out[3], 0xef);
    assert_int_equal(tokenring_byte_token_parse(NULL, 0, &n, "", 0, NULL), TOKENRING_OK);
    assert_int_equal(n, 0);
    assert_int_equal(tokenring_byte_token_parse(NULL, 0, &n, NULL, 0, NULL), TOKENRING_OK);
    /* Errors: the column of a non-digit; too small a buffer reports the length. */
    tokenring_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(tokenring_byte_token_parse(out, sizeof out, &n, "0x12", 4, &err), TOKENRING_E_PARSE);
    assert_int_equal(err.column, 2);
    memset(&err, 0, sizeof err);
    assert_int_equal(tokenring_byte_token_parse(out, sizeof out, &n, "12 ", 3, &err), TOKENRING_E_PARSE);
    assert_int_equal(err.column, 3);
    assert_int_equal(tokenring_byte_token_parse(out, 1, &n, "12345", 5, NULL), TOKENRING_E_BUFSIZE);
    assert_int_equal(n, 3);
    assert_int_equal(tokenring_byte_token_parse(out, 8, NULL, "12", 2, NULL), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_byte_token_parse(NULL, 8, &n, "12", 2, NULL), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_byte_token_parse(out, 8, &n, NULL, 2, NULL), TOKENRING_E_INVAL);

    char text[8];
    const uint8_t tok[3] = {0x00, 0xab, 0xff};
    assert_int_equal(tokenring_byte_token_format(text, sizeof text, &n, tok, 3), TOKENRING_OK);
    assert_string_equal(text, "00abff");
    assert_int_equal(n, 6);
    assert_int_equal(tokenring_byte_token_format(text, 6, &n, tok, 3), TOKENRING_E_BUFSIZE);
    assert_int_equal(n, 6);
    assert_int_equal(tokenring_byte_token_format(text, 1, &n, NULL, 0), TOKENRING_OK);
    assert_string_equal(text, "");
    assert_int_equal(tokenring_byte_token_format(text, 8, NULL, tok, 3), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_byte_token_format(NULL, 8, &n, tok, 3), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_byte_token_format(text, 8, &n, NULL, 3), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_byte_token_format(text, 8, &n, tok, SIZE_MAX / 2 + 1), TOKENRING_E_RANGE);

    /* Order: unsigned bytes (0x80 above 0x7f), a proper prefix first, empty lowest. */
    const uint8_t x7f[1] = {0x7f}, x80[1] = {0x80}, x80_00[2] = {0x80, 0x00};
    assert_true(tokenring_byte_token_compare(x7f, 1, x80, 1) < 0);
    assert_true(tokenring_byte_token_compare(x80, 1, x80_00, 2) < 0);
    assert_true(tokenring_byte_token_compare(x80_00, 2, x80, 1) > 0);
    assert_true(tokenring_byte_token_compare(NULL, 0, x7f, 1) < 0);
    assert_true(tokenring_byte_token_compare(x7f, 1, NULL, 0) > 0);
    assert_int_equal(tokenring_byte_token_compare(NULL, 3, NULL, 0), 0);
    assert_int_equal(tokenring_byte_token_compare(x7f, 0, NULL, 5), 0);
}

/* ------------------------------------------------- the partitioners' names */

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_md5_rfc1321_suite),
        cmocka_unit_test(test_golden_vectors),
        cmocka_unit_test(test_driver_cases),
        cmocka_unit_test(test_digest_edges),
        cmocka_unit_test(test_token128_parse),
        cmocka_unit_test(test_token128_format),
        cmocka_unit_test(test_token128_order),
        cmocka_unit_test(test_batch_errors),
        cmocka_unit_test(test_byte_tokens),
        cmocka_unit_test(test_partitioner_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
