/* SPDX-License-Identifier: Apache-2.0 */
/* The partitioner table of lib/token/token.h, one table of cases over the three partitioners:
 * names, the minimum, the text forms (canonical output, errors, buffer sizes), the order
 * and its 64-bit keys, Cassandra's midpoint (Murmur3Partitioner.midpoint,
 * FBUtilities.midpoint over 127 bits, ByteOrderedPartitioner's padded bytes with the
 * remainder byte; the expected values computed with Java's BigInteger rules), the exact
 * size of a range, the token of a key, the hash keys, the node-token checks. */
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

#define M3 TOKENRING_PARTITIONER_MURMUR3
#define RP TOKENRING_PARTITIONER_RANDOM
#define BOP TOKENRING_PARTITIONER_BYTE_ORDERED

/* A token read from its text form (buf holds a byte token's bytes). */
static tr_tok parse_ok(int p, const char *text, uint8_t *buf)
{
    tr_tok t;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = tr_ops(p)->parse(&t, buf, text, strlen(text), &err);
    if (rc != TOKENRING_OK)
        fail_msg("parse %d \"%s\": %d %s", p, text, rc, err.message);
    assert_int_equal(t.p, p);
    assert_true(t.key == tr_ops(p)->key64(&t));
    return t;
}

static void assert_text(const tr_tok *t, const char *want)
{
    char out[64];
    size_t n = 0;
    assert_int_equal(tr_ops(t->p)->format(out, sizeof out, &n, t), TOKENRING_OK);
    assert_string_equal(out, want);
    assert_int_equal(n, strlen(want));
}

static void test_table(void **state)
{
    (void)state;
    assert_null(tr_partitioner_ops_of((tokenring_partitioner)-1));
    assert_null(tr_partitioner_ops_of((tokenring_partitioner)3));
    static const char *const shorts[] = { "murmur3", "random", "byteordered" };
    static const unsigned bits[] = { 64, 127, 0 };
    static const char *const mins[] = { "-9223372036854775808", "-1", "" };
    for (int p = M3; p <= BOP; p++) {
        const tr_partitioner_ops *o = tr_partitioner_ops_of((tokenring_partitioner)p);
        assert_ptr_equal(o, tr_ops(p));
        assert_int_equal(o->id, p);
        assert_string_equal(o->name, tokenring_partitioner_name((tokenring_partitioner)p));
        assert_string_equal(o->short_name, shorts[p]);
        assert_int_equal(o->width_bits, bits[p]);
        assert_int_equal(o->key_is_token, p == M3);
        assert_non_null(o->kind);
        assert_int_equal(o->minimum.p, p);
        assert_true(o->minimum.key == INT64_MIN);
        assert_text(&o->minimum, mins[p]);
    }
    assert_int_equal(tr_ops(M3)->text_max, strlen(mins[M3]));
    assert_int_equal(tr_ops(RP)->text_max, strlen("170141183460469231731687303715884105728"));
    assert_int_equal(tr_ops(BOP)->text_max, 2 * TOKENRING_BYTE_TOKEN_MAX);
}

/* Each partitioner's tokens in ascending order, as text (canonical). */
static const char *const ascending[3][8] = {
    { "-9223372036854775808", "-9223372036854775807", "-1", "0", "1", "4611686018427387904",
      "9223372036854775807", NULL },
    { "-1", "0", "1", "9223372036854775808", "9223372036854775809",
      "85070591730234615865843651857942052864", "170141183460469231731687303715884105728",
      NULL },
    { "", "00", "0000", "0001", "00ff", "0100000000000000", "010000000000000000",
      "ffffffffffffffffff" },
};

static void test_text_and_order(void **state)
{
    (void)state;
    for (int p = M3; p <= BOP; p++) {
        tr_tok t[8];
        uint8_t buf[8][16];
        size_t n = 0;
        for (; n < 8 && ascending[p][n]; n++) {
            t[n] = parse_ok(p, ascending[p][n], buf[n]);
            assert_text(&t[n], ascending[p][n]);
        }
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++) {
                int c = tr_ops(p)->compare(&t[i], &t[j]);
                assert_int_equal(c < 0 ? -1 : c > 0, i < j ? -1 : i > j);
                if (i < j) /* the keys are monotone */
                    assert_true(t[i].key <= t[j].key);
            }
        /* the minimum is first */
        assert_true(tr_ops(p)->compare(&tr_ops(p)->minimum, &t[n - 1]) < 0);
    }
    /* tokens whose keys tie are told apart by the full value */
    uint8_t b1[16], b2[16];
    tr_tok x = parse_ok(RP, "0", b1), y = parse_ok(RP, "1", b2);
    assert_true(x.key == y.key);
    x = parse_ok(BOP, "0100000000000000", b1);
    y = parse_ok(BOP, "010000000000000000", b2);
    assert_true(x.key == y.key);
    assert_true(tr_tok_cmp(&x, &y) < 0 && tr_tok_cmp(&y, &x) > 0);
}

static void test_text_forms(void **state)
{
    (void)state;
    /* other spellings read to the canonical form */
    static const struct { int p; const char *in, *out; } same[] = {
        { M3, "+5", "5" }, { M3, "-0", "0" }, { RP, "+7", "7" }, { RP, "-0", "0" },
        { BOP, "ABC", "0abc" }, { BOP, "0A0b", "0a0b" }, { BOP, "f", "0f" },
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        uint8_t buf[16];
        tr_tok t = parse_ok(same[i].p, same[i].in, buf);
        assert_text(&t, same[i].out);
    }
    static const struct { int p; const char *in; int rc; } bad[] = {
        { M3, "", TOKENRING_E_PARSE }, { M3, "1x", TOKENRING_E_PARSE },
        { M3, "9223372036854775808", TOKENRING_E_RANGE },
        { RP, "", TOKENRING_E_PARSE }, { RP, "1x", TOKENRING_E_PARSE },
        { RP, "-2", TOKENRING_E_RANGE },
        { RP, "170141183460469231731687303715884105729", TOKENRING_E_RANGE },
        { BOP, "0g", TOKENRING_E_PARSE }, { BOP, "-1", TOKENRING_E_PARSE },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint8_t buf[32];
        tr_tok t = tr_ops(bad[i].p)->minimum;
        tokenring_error err;
        memset(&err, 0, sizeof err);
        int rc = tr_ops(bad[i].p)->parse(&t, buf, bad[i].in, strlen(bad[i].in), &err);
        assert_int_equal(rc, bad[i].rc);
        assert_true(err.message[0] != '\0');
        assert_true(t.key == INT64_MIN); /* untouched */
    }
    /* a buffer too small: the length needed, and nothing written past it */
    for (int p = M3; p <= BOP; p++) {
        uint8_t buf[16];
        tr_tok t = parse_ok(p, ascending[p][2], buf);
        char out[4] = "xyz";
        size_t n = 0;
        assert_int_equal(tr_ops(p)->format(out, 1, &n, &t), TOKENRING_E_BUFSIZE);
        assert_int_equal(n, strlen(ascending[p][2]));
        assert_int_equal(out[1], 'y');
    }
    /* a RandomPartitioner value above 2^127 is no token */
    tokenring_token128 big = { UINT64_MAX, 0 };
    tr_tok t = tr_tok_128(big);
    char out[64];
    size_t n;
    assert_int_equal(tr_ops(RP)->format(out, sizeof out, &n, &t), TOKENRING_E_RANGE);
}

static void test_midpoint(void **state)
{
    (void)state;
    static const struct { int p; const char *l, *r, *mid; } cases[] = {
        { M3, "0", "10", "5" },
        { M3, "-3", "0", "-2" }, /* BigInteger.shiftRight floors */
        { M3, "10", "0", "-9223372036854775803" }, /* wrapping */
        { M3, "5", "5", "-9223372036854775803" },
        { M3, "-9223372036854775808", "-9223372036854775808", "-1" },
        { M3, "9223372036854775807", "-9223372036854775808", "9223372036854775807" },
        { RP, "0", "10", "5" },
        { RP, "-1", "10", "5" }, /* the minimum acts as 0 */
        { RP, "10", "0", "85070591730234615865843651857942052869" }, /* 2^126 + 5 */
        { RP, "0", "0", "85070591730234615865843651857942052864" },
        { BOP, "00", "02", "01" },
        { BOP, "01", "02", "0180" }, /* odd sum: the remainder byte */
        { BOP, "", "", "80" },
        { BOP, "02", "01", "8180" },
        { BOP, "0a", "0b0c", "0a86" }, /* padded to two bytes */
        { BOP, "ab", "ab00", "2b00" }, /* equal once padded: the wrapping case */
        { BOP, "ff", "00", "ff80" },
        { BOP, "", "ff", "7f80" },
        { BOP, "ffff", "0001", "0000" },
        { BOP, "80", "", "c0" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t lb[16], rb[16], mb[16];
        tr_tok l = parse_ok(cases[i].p, cases[i].l, lb);
        tr_tok r = parse_ok(cases[i].p, cases[i].r, rb);
        assert_true(TR_TOK_MID_ROOM(&l, &r) <= sizeof mb);
        tr_tok m = tr_ops(cases[i].p)->midpoint(&l, &r, mb);
        assert_int_equal(m.p, cases[i].p);
        assert_true(m.key == tr_ops(cases[i].p)->key64(&m));
        assert_text(&m, cases[i].mid);
    }
}

static void test_size(void **state)
{
    (void)state;
    static const struct { int p; const char *from, *to; uint64_t hi, lo; } cases[] = {
        { M3, "0", "10", 0, 10 },
        { M3, "10", "0", 0, UINT64_MAX - 9 },
        { M3, "7", "7", 1, 0 }, /* the whole ring, 2^64 */
        { M3, "-9223372036854775808", "9223372036854775807", 0, UINT64_MAX },
        { RP, "0", "10", 0, 10 },
        { RP, "-1", "10", 0, 10 },
        { RP, "10", "0", (UINT64_C(1) << 63) - 1, UINT64_MAX - 9 }, /* 2^127 - 10 */
        { RP, "7", "7", UINT64_C(1) << 63, 0 },  /* the whole ring, 2^127 */
        { RP, "0", "170141183460469231731687303715884105728", 0, 0 }, /* one point */
        { BOP, "00", "ff", 0, 0 },
        { BOP, "ff", "ff", 0, 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t fb[16], tb[16];
        tr_tok f = parse_ok(cases[i].p, cases[i].from, fb);
        tr_tok t = parse_ok(cases[i].p, cases[i].to, tb);
        tr_u128 w = tr_ops(cases[i].p)->size(&f, &t);
        assert_true((uint64_t)(w >> 64) == cases[i].hi);
        assert_true((uint64_t)w == cases[i].lo);
    }
}

static void test_keys(void **state)
{
    (void)state;
    static const char key[] = "partition key";
    size_t len = sizeof key - 1;
    tr_tok t = tr_ops(M3)->key_token(key, len);
    assert_true(t.key == tokenring_token(key, len));
    t = tr_ops(RP)->key_token(key, len);
    tokenring_token128 v = tokenring_random_token(key, len);
    assert_true(t.v128.hi == v.hi && t.v128.lo == v.lo);
    assert_true(t.key == tr_prefix128(v));
    t = tr_ops(BOP)->key_token(key, len);
    assert_ptr_equal(t.b, (const uint8_t *)key);
    assert_int_equal(t.len, len);
    /* the empty key is the minimum token of each */
    for (int p = M3; p <= BOP; p++) {
        tr_tok e = tr_ops(p)->key_token(NULL, 0);
        assert_int_equal(tr_ops(p)->compare(&e, &tr_ops(p)->minimum), 0);
    }
    /* hash keys: Murmur3's is the token; the others' depend on the full value */
    uint8_t a[16], b[16];
    tr_tok x = parse_ok(M3, "-42", a);
    assert_true(tr_ops(M3)->hash_key(&x) == -42);
    x = parse_ok(RP, "0", a);
    tr_tok y = parse_ok(RP, "1", b);
    assert_true(tr_ops(RP)->hash_key(&x) != tr_ops(RP)->hash_key(&y));
    x = parse_ok(BOP, "00", a);
    y = parse_ok(BOP, "0000", b);
    assert_true(tr_ops(BOP)->hash_key(&x) != tr_ops(BOP)->hash_key(&y));
    assert_true(tr_ops(BOP)->hash_key(&x) == tr_ops(BOP)->hash_key(&x));
}

static void test_node_tokens(void **state)
{
    (void)state;
    tokenring_error err;
    uint8_t buf[16];
    tr_tok t = parse_ok(M3, "-9223372036854775808", buf);
    assert_int_equal(tr_ops(M3)->check_node_token(&t, 0, "n", &err), TOKENRING_OK);
    t = parse_ok(RP, "170141183460469231731687303715884105728", buf);
    assert_int_equal(tr_ops(RP)->check_node_token(&t, 0, "n", &err), TOKENRING_OK);
    t = parse_ok(RP, "-1", buf);
    assert_int_equal(tr_ops(RP)->check_node_token(&t, 3, "n", &err), TOKENRING_E_RANGE);
    assert_non_null(strstr(err.message, "token 3 of node 'n' is -1 (the minimum token)"));
    tokenring_token128 big = { TOKENRING_TOKEN128_MAX_HI, 1 };
    t = tr_tok_128(big);
    assert_int_equal(tr_ops(RP)->check_node_token(&t, 0, "n", &err), TOKENRING_E_RANGE);
    assert_non_null(strstr(err.message, "above 2^127"));
    static uint8_t long_token[TOKENRING_BYTE_TOKEN_MAX + 1];
    t = tr_tok_bytes(long_token, TOKENRING_BYTE_TOKEN_MAX);
    assert_int_equal(tr_ops(BOP)->check_node_token(&t, 0, "n", &err), TOKENRING_OK);
    t = tr_tok_bytes(long_token, sizeof long_token);
    assert_int_equal(tr_ops(BOP)->check_node_token(&t, 1, "n", &err), TOKENRING_E_RANGE);
    assert_non_null(strstr(err.message, "has 65536 bytes (at most 65535)"));
}

static void test_columns_and_messages(void **state)
{
    (void)state;
    const int64_t m3[] = { -5, 7 };
    const tokenring_token128 t128[] = { { 0, 1 }, { 0, 2 } };
    const uint8_t tb[] = { 1, 2, 3 };
    const uint32_t off[] = { 0, 1, 3 };
    tr_tok t = tr_tok_at(m3, NULL, NULL, NULL, 1);
    assert_text(&t, "7");
    t = tr_tok_at(m3, t128, NULL, NULL, 1);
    assert_text(&t, "2");
    t = tr_tok_at(m3, NULL, tb, off, 1);
    assert_text(&t, "0203");
    char msg[TR_TOK_MSG_MAX];
    assert_string_equal(tr_tok_msg(msg, &t), "0203");
    t = tr_tok_bytes(NULL, 0);
    assert_string_equal(tr_tok_msg(msg, &t), "'' (empty)");
    static const uint8_t forty[40] = { 0xab };
    t = tr_tok_bytes(forty, sizeof forty);
    tr_tok_msg(msg, &t);
    assert_int_equal(strlen(msg), 64 + 3);
    assert_string_equal(msg + 64, "...");
    t = tr_tok_m3(INT64_MIN);
    assert_string_equal(tr_tok_msg(msg, &t), "-9223372036854775808");
    t = tr_tok_128(t128[0]);
    assert_string_equal(tr_tok_msg(msg, &t), "1");
}

/* The stored columns: RandomPartitioner's values, ByteOrdered's bytes with offsets (the
 * empty token included), nothing beside Murmur3's keys; and the qsort order. */
static void test_store(void **state)
{
    (void)state;
    uint8_t b[4][16];
    tr_tok t[4];
    tokenring_token128 *t128;
    uint8_t *tb;
    uint32_t *off;
    static const char *const rp[] = { "9", "-1", "170141183460469231731687303715884105728", "0" };
    for (int i = 0; i < 4; i++)
        t[i] = parse_ok(RP, rp[i], b[i]);
    qsort(t, 4, sizeof *t, tr_tok_qsort_cmp);
    assert_int_equal(tr_tok_store(RP, t, 4, &t128, &tb, &off), TOKENRING_OK);
    assert_null(tb);
    assert_null(off);
    for (int i = 0; i < 4; i++) {
        tr_tok back = tr_tok_at(NULL, t128, NULL, NULL, (size_t)i);
        assert_int_equal(tr_tok_cmp(&back, &t[i]), 0);
    }
    assert_true(t128[0].hi == UINT64_MAX && t128[0].lo == UINT64_MAX); /* -1 first */
    tr_free(t128);
    static const char *const bop[] = { "0a0b", "", "ff", "0a" };
    for (int i = 0; i < 4; i++)
        t[i] = parse_ok(BOP, bop[i], b[i]);
    qsort(t, 4, sizeof *t, tr_tok_qsort_cmp);
    assert_int_equal(tr_tok_store(BOP, t, 4, &t128, &tb, &off), TOKENRING_OK);
    assert_null(t128);
    static const char *const sorted[] = { "", "0a", "0a0b", "ff" };
    for (int i = 0; i < 4; i++) {
        tr_tok back = tr_tok_at(NULL, NULL, tb, off, (size_t)i);
        assert_text(&back, sorted[i]);
    }
    assert_int_equal(off[4], 4);
    tr_free(tb);
    tr_free(off);
    /* no token at all still stores (an empty column) */
    assert_int_equal(tr_tok_store(BOP, t, 0, &t128, &tb, &off), TOKENRING_OK);
    assert_int_equal(off[0], 0);
    tr_free(tb);
    tr_free(off);
    t[0] = tr_tok_m3(5);
    assert_int_equal(tr_tok_store(M3, t, 1, &t128, &tb, &off), TOKENRING_OK);
    assert_null(t128);
    assert_null(tb);
    assert_null(off);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_text_and_order),
        cmocka_unit_test(test_text_forms),
        cmocka_unit_test(test_midpoint),
        cmocka_unit_test(test_size),
        cmocka_unit_test(test_keys),
        cmocka_unit_test(test_node_tokens),
        cmocka_unit_test(test_columns_and_messages),
        cmocka_unit_test(test_store),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
