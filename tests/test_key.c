/* SPDX-License-Identifier: Apache-2.0 */
/* Partition-key bytes: CQL type names, encoders, the getendpoints string forms of every
 * type, composite keys; the CQL-value and composite golden vectors; bad input; then every
 * malformed or out-of-range string form and the unusual valid ones. test_key_oom.c fails
 * the allocations of the key functions that allocate. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"
#include "tsv.h"

/* ------------------------------------------------------------ helpers */

/* Parses s as type and returns the lowercase hex of the bytes (static buffer), or NULL
 * when the call fails (the code in *rc). */
static const char *parse_hex(tokenring_cql_type type, const char *s, int *rc)
{
    static char hex[4096];
    uint8_t buf[2048];
    size_t len = 99999;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    *rc = tokenring_value_parse(buf, sizeof buf, &len, type, s, strlen(s), &err);
    if (*rc != TOKENRING_OK)
        return NULL;
    char *h = tsv_hex_encode(buf, len);
    snprintf(hex, sizeof hex, "%s", h);
    free(h);
    return hex;
}

static void expect_hex(tokenring_cql_type type, const char *s, const char *want)
{
    int rc;
    const char *got = parse_hex(type, s, &rc);
    if (got == NULL)
        fail_msg("%s '%s': %s", tokenring_cql_type_name(type), s,
                 tokenring_status_name((tokenring_status)rc));
    if (strcmp(got, want) != 0)
        fail_msg("%s '%s': got %s, want %s", tokenring_cql_type_name(type), s, got, want);
}

/* Expects a failure with code, a message and a column (when want_col is 0, any column
 * >= 1; otherwise exactly want_col). */
static void expect_fail_col(tokenring_cql_type type, const char *s, int code, uint32_t want_col)
{
    uint8_t buf[64];
    size_t len = 4242;
    tokenring_error err;
    memset(&err, 0x5A, sizeof err);
    int rc = tokenring_value_parse(buf, sizeof buf, &len, type, s, strlen(s), &err);
    if (rc != code)
        fail_msg("%s '%s': got %s, want %s", tokenring_cql_type_name(type), s,
                 tokenring_status_name((tokenring_status)rc),
                 tokenring_status_name((tokenring_status)code));
    assert_int_equal(err.code, code);
    assert_true(strlen(err.message) > 0 && strlen(err.message) < sizeof err.message);
    if (want_col)
        assert_int_equal(err.column, want_col);
    else
        assert_true(err.column >= 1 && err.column <= strlen(s) + 1);
    assert_int_equal(len, 4242); /* untouched */
    /* without an error struct too */
    assert_int_equal(tokenring_value_parse(buf, sizeof buf, &len, type, s, strlen(s), NULL),
                     code);
}

static void expect_fail(tokenring_cql_type type, const char *s, int code)
{
    expect_fail_col(type, s, code, 0);
}

static int64_t be64(const char *hex)
{
    uint8_t b[8];
    assert_int_equal(tsv_hex_decode(hex, strlen(hex), b, 8), 8);
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | b[i];
    return (int64_t)v;
}

static int64_t parse_i64(tokenring_cql_type type, const char *s)
{
    int rc;
    const char *h = parse_hex(type, s, &rc);
    if (h == NULL)
        fail_msg("'%s': %s", s, tokenring_status_name((tokenring_status)rc));
    assert_int_equal(strlen(h), 16);
    return be64(h);
}

/* Days from 1970-01-01 of a proleptic Gregorian date (independent of the library). */
static int64_t civil_days(int64_t y, int m, int d)
{
    static const int cum[12] = { 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334 };
    int64_t days = 0;
    for (int64_t yy = 1970; yy < y; yy++)
        days += (yy % 4 == 0 && (yy % 100 != 0 || yy % 400 == 0)) ? 366 : 365;
    for (int64_t yy = y; yy < 1970; yy++)
        days -= (yy % 4 == 0 && (yy % 100 != 0 || yy % 400 == 0)) ? 366 : 365;
    bool leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    return days + cum[m - 1] + (leap && m > 2) + d - 1;
}

static tokenring_cql_type type_of(const char *name, size_t n)
{
    char buf[32];
    assert_true(n < sizeof buf);
    memcpy(buf, name, n);
    buf[n] = '\0';
    tokenring_cql_type t;
    if (tokenring_cql_type_from_name(&t, buf) != TOKENRING_OK)
        fail_msg("unknown type name '%s'", buf);
    return t;
}

/* ------------------------------------------------------------ names and encoders */

static void type_names(void **state)
{
    (void)state;
    tokenring_cql_type t;
    static const char *const names[] = { "ascii", "bigint", "blob", "boolean", "date",
                                         "decimal", "double", "float", "inet", "int",
                                         "smallint", "text", "time", "timestamp", "timeuuid",
                                         "tinyint", "uuid", "varint" };
    for (int v = TOKENRING_CQL_ASCII; v <= TOKENRING_CQL_VARINT; v++) {
        const char *n = tokenring_cql_type_name((tokenring_cql_type)v);
        assert_non_null(n);
        assert_string_equal(n, names[v - 1]);
        assert_int_equal(tokenring_cql_type_from_name(&t, n), TOKENRING_OK);
        assert_int_equal(t, v);
    }
    assert_int_equal(tokenring_cql_type_from_name(&t, "varchar"), TOKENRING_OK);
    assert_int_equal(t, TOKENRING_CQL_TEXT);
    assert_int_equal(tokenring_cql_type_from_name(&t, "counter"), TOKENRING_OK);
    assert_int_equal(t, TOKENRING_CQL_BIGINT);
    assert_int_equal(tokenring_cql_type_from_name(&t, "TimeUUID"), TOKENRING_OK);
    assert_int_equal(t, TOKENRING_CQL_TIMEUUID);
    assert_int_equal(tokenring_cql_type_from_name(&t, "VARCHAR"), TOKENRING_OK);
    assert_int_equal(t, TOKENRING_CQL_TEXT);
    t = TOKENRING_CQL_BLOB;
    assert_int_equal(tokenring_cql_type_from_name(&t, "list"), TOKENRING_E_NOTFOUND);
    assert_int_equal(tokenring_cql_type_from_name(&t, ""), TOKENRING_E_NOTFOUND);
    assert_int_equal(tokenring_cql_type_from_name(&t, "int "), TOKENRING_E_NOTFOUND);
    assert_int_equal(t, TOKENRING_CQL_BLOB);
    assert_int_equal(tokenring_cql_type_from_name(NULL, "int"), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cql_type_from_name(&t, NULL), TOKENRING_E_INVAL);
    assert_null(tokenring_cql_type_name((tokenring_cql_type)0));
    assert_null(tokenring_cql_type_name((tokenring_cql_type)19));
    assert_null(tokenring_cql_type_name((tokenring_cql_type)-1));
}

static void encoders(void **state)
{
    (void)state;
    uint8_t b[16];
    assert_int_equal(tokenring_encode_int(b, 42), TOKENRING_OK);
    assert_memory_equal(b, "\x00\x00\x00\x2a", 4);
    assert_int_equal(tokenring_encode_int(b, INT32_MIN), TOKENRING_OK);
    assert_memory_equal(b, "\x80\x00\x00\x00", 4);
    assert_int_equal(tokenring_encode_bigint(b, -1), TOKENRING_OK);
    assert_memory_equal(b, "\xff\xff\xff\xff\xff\xff\xff\xff", 8);
    assert_int_equal(tokenring_encode_bigint(b, 1700000000000LL), TOKENRING_OK);
    assert_memory_equal(b, "\x00\x00\x01\x8b\xcf\xe5\x68\x00", 8);
    assert_int_equal(tokenring_encode_smallint(b, -32768), TOKENRING_OK);
    assert_memory_equal(b, "\x80\x00", 2);
    assert_int_equal(tokenring_encode_tinyint(b, -1), TOKENRING_OK);
    assert_int_equal(b[0], 0xff);
    assert_int_equal(tokenring_encode_boolean(b, 7), TOKENRING_OK);
    assert_int_equal(b[0], 1);
    assert_int_equal(tokenring_encode_boolean(b, 0), TOKENRING_OK);
    assert_int_equal(b[0], 0);
    assert_int_equal(tokenring_encode_timestamp(b, 1), TOKENRING_OK);
    assert_memory_equal(b, "\x00\x00\x00\x00\x00\x00\x00\x01", 8);
    assert_int_equal(tokenring_encode_uuid(b, 0x123e4567e89b12d3ULL, 0xa456426614174000ULL),
                     TOKENRING_OK);
    assert_memory_equal(b, "\x12\x3e\x45\x67\xe8\x9b\x12\xd3\xa4\x56\x42\x66\x14\x17\x40\x00",
                        16);
    /* (text 'user', int 42) from the spec: the encoders plus composite_encode */
    uint8_t parts[8];
    memcpy(parts, "user", 4);
    assert_int_equal(tokenring_encode_int(parts + 4, 42), TOKENRING_OK);
    uint64_t off[3] = { 0, 4, 8 };
    uint8_t key[32];
    size_t len;
    assert_int_equal(tokenring_composite_encode(key, sizeof key, &len, parts, off, 2),
                     TOKENRING_OK);
    assert_int_equal(len, 14);
    assert_int_equal(tokenring_token(key, len), 4575207870461280363LL);

    assert_int_equal(tokenring_encode_int(NULL, 1), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_encode_bigint(NULL, 1), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_encode_smallint(NULL, 1), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_encode_tinyint(NULL, 1), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_encode_boolean(NULL, 1), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_encode_timestamp(NULL, 1), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_encode_uuid(NULL, 1, 2), TOKENRING_E_INVAL);
}

/* ------------------------------------------------------------ golden vectors */

static void every_cql_value_vector(void **state)
{
    (void)state;
    tsv_file *f = tsv_open("murmur3_cql_values.tsv");
    assert_non_null(f);
    int ct = tsv_column(f, "cql_type"), cv = tsv_column(f, "value_string"),
        ck = tsv_column(f, "key_hex"), ctok = tsv_column(f, "token");
    assert_true(ct >= 0 && cv >= 0 && ck >= 0 && ctok >= 0);
    while (tsv_next(f)) {
        tokenring_cql_type type = type_of(tsv_field(f, (size_t)ct), tsv_field_len(f, (size_t)ct));
        const char *val = tsv_field(f, (size_t)cv);
        size_t vlen = tsv_field_len(f, (size_t)cv);
        size_t want_len;
        uint8_t *want = tsv_hex_dup(tsv_field(f, (size_t)ck), tsv_field_len(f, (size_t)ck),
                                    &want_len);
        assert_non_null(want);
        int64_t want_tok = strtoll(tsv_field(f, (size_t)ctok), NULL, 10);

        uint8_t out[512];
        size_t len = 0;
        tokenring_error err;
        memset(&err, 0, sizeof err);
        int rc = tokenring_value_parse(out, sizeof out, &len, type, val, vlen, &err);
        if (rc != TOKENRING_OK)
            fail_msg("line %zu: %s '%s': %s (%s)", tsv_line(f), tsv_field(f, (size_t)ct), val,
                     tokenring_status_name((tokenring_status)rc), err.message);
        if (len != want_len || memcmp(out, want, len) != 0) {
            char *got = tsv_hex_encode(out, len);
            fail_msg("line %zu: %s '%s': got %s, want %s", tsv_line(f),
                     tsv_field(f, (size_t)ct), val, got, tsv_field(f, (size_t)ck));
        }
        assert_int_equal(tokenring_token(out, len), want_tok);

        /* measuring with cap 0, and a buffer one byte short */
        size_t need = 0;
        assert_int_equal(tokenring_value_parse(NULL, 0, &need, type, val, vlen, &err),
                         TOKENRING_E_BUFSIZE);
        assert_int_equal(need, want_len);
        assert_int_equal(err.code, TOKENRING_E_BUFSIZE);
        assert_true(strlen(err.message) > 0);
        need = 0;
        assert_int_equal(tokenring_value_parse(out, want_len - 1, &need, type, val, vlen, NULL),
                         TOKENRING_E_BUFSIZE);
        assert_int_equal(need, want_len);
        /* the same value as a one-column key */
        size_t klen = 0;
        assert_int_equal(tokenring_key_parse(out, sizeof out, &klen, &type, 1, val, vlen, NULL),
                         TOKENRING_OK);
        assert_int_equal(klen, want_len);
        assert_memory_equal(out, want, want_len);
        free(want);
    }
    assert_int_equal(tsv_rows(f), 90);
    tsv_close(f);
}

/* Splits "a,b,c" into up to max pieces (pointers into s, which is modified). */
static size_t split_commas(char *s, char **pieces, size_t max)
{
    size_t n = 0;
    pieces[n++] = s;
    for (char *p = s; *p; p++) {
        if (*p == ',') {
            *p = '\0';
            assert_true(n < max);
            pieces[n++] = p + 1;
        }
    }
    return n;
}

static void every_composite_vector(void **state)
{
    (void)state;
    tsv_file *f = tsv_open("murmur3_composite.tsv");
    assert_non_null(f);
    int ct = tsv_column(f, "cql_types"), cv = tsv_column(f, "value_string"),
        cc = tsv_column(f, "components_hex"), ck = tsv_column(f, "key_hex"),
        ctok = tsv_column(f, "token");
    assert_true(ct >= 0 && cv >= 0 && cc >= 0 && ck >= 0 && ctok >= 0);
    while (tsv_next(f)) {
        char *types_s = strdup(tsv_field(f, (size_t)ct));
        char *comps_s = strdup(tsv_field(f, (size_t)cc));
        assert_non_null(types_s);
        assert_non_null(comps_s);
        char *tn[16], *cn[16];
        size_t nt = split_commas(types_s, tn, 16), nc = split_commas(comps_s, cn, 16);
        assert_int_equal(nt, nc);
        tokenring_cql_type types[16];
        for (size_t i = 0; i < nt; i++)
            types[i] = type_of(tn[i], strlen(tn[i]));
        size_t want_len;
        uint8_t *want = tsv_hex_dup(tsv_field(f, (size_t)ck), tsv_field_len(f, (size_t)ck),
                                    &want_len);
        assert_non_null(want);
        int64_t want_tok = strtoll(tsv_field(f, (size_t)ctok), NULL, 10);

        /* 1. composite_encode of the component bytes */
        uint8_t parts[1024];
        uint64_t off[17];
        off[0] = 0;
        for (size_t i = 0; i < nc; i++) {
            long n = tsv_hex_decode(cn[i], strlen(cn[i]), parts + off[i],
                                    sizeof parts - off[i]);
            assert_true(n >= 0);
            off[i + 1] = off[i] + (uint64_t)n;
        }
        uint8_t out[1024];
        size_t len = 0;
        assert_int_equal(tokenring_composite_encode(out, sizeof out, &len, parts, off, nc),
                         TOKENRING_OK);
        assert_int_equal(len, want_len);
        assert_memory_equal(out, want, len);
        size_t need = 0;
        assert_int_equal(tokenring_composite_encode(NULL, 0, &need, parts, off, nc),
                         TOKENRING_E_BUFSIZE);
        assert_int_equal(need, want_len);

        /* 2. key_parse of the getendpoints string */
        const char *val = tsv_field(f, (size_t)cv);
        size_t vlen = tsv_field_len(f, (size_t)cv);
        tokenring_error err;
        memset(&err, 0, sizeof err);
        memset(out, 0xEE, sizeof out);
        len = 0;
        int rc = tokenring_key_parse(out, sizeof out, &len, types, nt, val, vlen, &err);
        if (rc != TOKENRING_OK)
            fail_msg("line %zu: '%s': %s (%s, column %u)", tsv_line(f), val,
                     tokenring_status_name((tokenring_status)rc), err.message, err.column);
        if (len != want_len || memcmp(out, want, len) != 0) {
            char *got = tsv_hex_encode(out, len);
            fail_msg("line %zu: '%s': got %s, want %s", tsv_line(f), val, got,
                     tsv_field(f, (size_t)ck));
        }
        assert_int_equal(tokenring_token(out, len), want_tok);
        need = 0;
        assert_int_equal(tokenring_key_parse(NULL, 0, &need, types, nt, val, vlen, &err),
                         TOKENRING_E_BUFSIZE);
        assert_int_equal(need, want_len);
        assert_int_equal(err.code, TOKENRING_E_BUFSIZE);
        need = 0;
        assert_int_equal(tokenring_key_parse(out, want_len - 1, &need, types, nt, val, vlen, NULL),
                         TOKENRING_E_BUFSIZE);
        assert_int_equal(need, want_len);
        free(want);
        free(types_s);
        free(comps_s);
    }
    assert_int_equal(tsv_rows(f), 133);
    tsv_close(f);
}

/* ------------------------------------------------------------ every type, by hand */

/* The empty string, as Cassandra's fromString reads it: false for boolean, an error for
 * date and time, the empty value (token MIN) for every other type. */
static void empty_string_is_empty_value_for_every_type(void **state)
{
    (void)state;
    for (int v = TOKENRING_CQL_ASCII; v <= TOKENRING_CQL_VARINT; v++) {
        for (int pass = 0; pass < 2; pass++) {
            const char *text = pass ? NULL : "";
            size_t len = 99;
            tokenring_error err;
            int rc = tokenring_value_parse(NULL, 0, &len, (tokenring_cql_type)v, text, 0, &err);
            if (v == TOKENRING_CQL_DATE || v == TOKENRING_CQL_TIME) {
                assert_int_equal(rc, TOKENRING_E_PARSE);
                assert_true(err.message[0] != '\0');
            } else if (v == TOKENRING_CQL_BOOLEAN) {
                assert_int_equal(rc, TOKENRING_E_BUFSIZE);
                assert_int_equal(len, 1);
                uint8_t b = 0xAA;
                assert_int_equal(tokenring_value_parse(&b, 1, &len, (tokenring_cql_type)v,
                                                       text, 0, NULL),
                                 TOKENRING_OK);
                assert_int_equal(len, 1);
                assert_int_equal(b, 0);
            } else {
                assert_int_equal(rc, TOKENRING_OK);
                assert_int_equal(len, 0);
                assert_int_equal(tokenring_token(NULL, len), TOKENRING_MIN_TOKEN);
            }
        }
    }
}

static void integers(void **state)
{
    (void)state;
    expect_hex(TOKENRING_CQL_INT, "+7", "00000007");
    expect_hex(TOKENRING_CQL_INT, "-0", "00000000");
    expect_hex(TOKENRING_CQL_INT, "000042", "0000002a");
    expect_hex(TOKENRING_CQL_BIGINT, "-9223372036854775808", "8000000000000000");
    expect_hex(TOKENRING_CQL_SMALLINT, "-32768", "8000");
    expect_hex(TOKENRING_CQL_TINYINT, "-128", "80");
    expect_fail(TOKENRING_CQL_INT, "2147483648", TOKENRING_E_RANGE);
    expect_fail(TOKENRING_CQL_INT, "-2147483649", TOKENRING_E_RANGE);
    expect_fail(TOKENRING_CQL_BIGINT, "9223372036854775808", TOKENRING_E_RANGE);
    expect_fail(TOKENRING_CQL_BIGINT, "-9223372036854775809", TOKENRING_E_RANGE);
    expect_fail(TOKENRING_CQL_BIGINT, "99999999999999999999999999", TOKENRING_E_RANGE);
    expect_fail(TOKENRING_CQL_SMALLINT, "32768", TOKENRING_E_RANGE);
    expect_fail(TOKENRING_CQL_TINYINT, "128", TOKENRING_E_RANGE);
    expect_fail(TOKENRING_CQL_TINYINT, "-129", TOKENRING_E_RANGE);
    expect_fail_col(TOKENRING_CQL_INT, "12a", TOKENRING_E_PARSE, 3);
    expect_fail_col(TOKENRING_CQL_INT, " 1", TOKENRING_E_PARSE, 1);
    expect_fail_col(TOKENRING_CQL_INT, "-", TOKENRING_E_PARSE, 2);
    expect_fail(TOKENRING_CQL_INT, "1.0", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_BIGINT, "0x10", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_SMALLINT, "++1", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_TINYINT, "1e2", TOKENRING_E_PARSE);
}

static void varints_and_decimals(void **state)
{
    (void)state;
    expect_hex(TOKENRING_CQL_VARINT, "+5", "05");
    expect_hex(TOKENRING_CQL_VARINT, "-0", "00");
    expect_hex(TOKENRING_CQL_VARINT, "0000", "00");
    expect_hex(TOKENRING_CQL_VARINT, "-256", "ff00");
    expect_hex(TOKENRING_CQL_VARINT, "-32768", "8000");
    expect_hex(TOKENRING_CQL_VARINT, "-32769", "ff7fff");
    expect_hex(TOKENRING_CQL_VARINT, "32768", "008000");
    expect_hex(TOKENRING_CQL_VARINT, "4294967295", "00ffffffff");
    expect_hex(TOKENRING_CQL_VARINT, "-4294967296", "ff00000000");
    expect_hex(TOKENRING_CQL_VARINT, "-18446744073709551616", "ff0000000000000000");
    /* 2^256 - 1 and -(2^256): many limbs */
    expect_hex(TOKENRING_CQL_VARINT,
               "115792089237316195423570985008687907853269984665640564039457584007913129639935",
               "00ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff");
    expect_hex(TOKENRING_CQL_VARINT,
               "-115792089237316195423570985008687907853269984665640564039457584007913129639936",
               "ff0000000000000000000000000000000000000000000000000000000000000000");
    /* 10^200 = 2^200 * 5^200; check with a long number by its length and last bytes */
    {
        char s[202];
        s[0] = '1';
        memset(s + 1, '0', 200);
        s[201] = '\0';
        int rc;
        const char *h = parse_hex(TOKENRING_CQL_VARINT, s, &rc);
        assert_non_null(h);
        /* 10^200 < 2^665 -> 84 bytes (665 bits + sign bit = 666 bits) */
        assert_int_equal(strlen(h), 2 * 84);
        /* divisible by 2^200: the last 25 bytes are zero */
        for (size_t i = strlen(h) - 50; i < strlen(h); i++)
            assert_int_equal(h[i], '0');
    }
    expect_fail_col(TOKENRING_CQL_VARINT, "12x4", TOKENRING_E_PARSE, 3);
    expect_fail(TOKENRING_CQL_VARINT, "-", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_VARINT, "1.5", TOKENRING_E_PARSE);

    expect_hex(TOKENRING_CQL_DECIMAL, "1.50", "000000020096");
    expect_hex(TOKENRING_CQL_DECIMAL, "123456789.000000001", "0000000901b69b4ba5749201");
    expect_hex(TOKENRING_CQL_DECIMAL, "1E+3", "fffffffd01");
    expect_hex(TOKENRING_CQL_DECIMAL, "1e3", "fffffffd01");
    expect_hex(TOKENRING_CQL_DECIMAL, "1.5E-2", "000000030f");
    expect_hex(TOKENRING_CQL_DECIMAL, "-0.00", "0000000200");
    expect_hex(TOKENRING_CQL_DECIMAL, ".5", "0000000105");
    expect_hex(TOKENRING_CQL_DECIMAL, "5.", "0000000005");
    expect_hex(TOKENRING_CQL_DECIMAL, "+128", "000000000080");
    expect_hex(TOKENRING_CQL_DECIMAL, "-1.28", "0000000280");
    expect_hex(TOKENRING_CQL_DECIMAL, "1E+2147483647", "8000000101");
    expect_fail(TOKENRING_CQL_DECIMAL, "1E-2147483648", TOKENRING_E_RANGE);
    expect_fail(TOKENRING_CQL_DECIMAL, "1E+2147483649", TOKENRING_E_RANGE);
    /* the exponent itself must be an int, even when the scale would fit */
    expect_fail_col(TOKENRING_CQL_DECIMAL, "1E+2147483648", TOKENRING_E_RANGE, 4);
    expect_fail(TOKENRING_CQL_DECIMAL, ".", TOKENRING_E_PARSE);
    expect_fail_col(TOKENRING_CQL_DECIMAL, "1.2.3", TOKENRING_E_PARSE, 4);
    expect_fail(TOKENRING_CQL_DECIMAL, "1e", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_DECIMAL, "1e+", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_DECIMAL, "NaN", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_DECIMAL, " 1", TOKENRING_E_PARSE);
}

static void floats_and_doubles(void **state)
{
    (void)state;
    expect_hex(TOKENRING_CQL_FLOAT, "1.5", "3fc00000");
    expect_hex(TOKENRING_CQL_FLOAT, "-2.25", "c0100000");
    expect_hex(TOKENRING_CQL_FLOAT, "0.1", "3dcccccd");
    expect_hex(TOKENRING_CQL_FLOAT, "-0.0", "80000000");
    expect_hex(TOKENRING_CQL_FLOAT, "1e300", "7f800000"); /* overflow: Infinity, as Java */
    expect_hex(TOKENRING_CQL_FLOAT, "NaN", "7fc00000");
    expect_hex(TOKENRING_CQL_FLOAT, "-Infinity", "ff800000");
    expect_hex(TOKENRING_CQL_FLOAT, "+Infinity", "7f800000");
    expect_hex(TOKENRING_CQL_FLOAT, "1.5f", "3fc00000");
    expect_hex(TOKENRING_CQL_FLOAT, " 1.5 ", "3fc00000");
    expect_hex(TOKENRING_CQL_FLOAT, "0x1.8p1", "40400000");
    expect_hex(TOKENRING_CQL_FLOAT, ".5", "3f000000");
    expect_hex(TOKENRING_CQL_FLOAT, "5.", "40a00000");
    expect_hex(TOKENRING_CQL_FLOAT, "1e-50", "00000000");
    expect_hex(TOKENRING_CQL_DOUBLE, "0.1", "3fb999999999999a");
    expect_hex(TOKENRING_CQL_DOUBLE, "1e300", "7e37e43c8800759c");
    expect_hex(TOKENRING_CQL_DOUBLE, "NaN", "7ff8000000000000");
    expect_hex(TOKENRING_CQL_DOUBLE, "Infinity", "7ff0000000000000");
    expect_hex(TOKENRING_CQL_DOUBLE, "1e-400", "0000000000000000");
    expect_hex(TOKENRING_CQL_DOUBLE, "4.9e-324", "0000000000000001");
    expect_hex(TOKENRING_CQL_DOUBLE, "1.7976931348623157E308", "7fefffffffffffff");
    expect_hex(TOKENRING_CQL_DOUBLE, "0x1p-1074", "0000000000000001");
    expect_hex(TOKENRING_CQL_DOUBLE, "2d", "4000000000000000");
    /* 2^53 + 1 rounds to even (down) ... */
    expect_hex(TOKENRING_CQL_DOUBLE, "9007199254740993", "4340000000000000");
    {
        /* ... but a non-zero digit 900 places later must round it up: the digits beyond
         * the kept prefix still count */
        char s[1000];
        size_t k = (size_t)snprintf(s, sizeof s, "9007199254740993.");
        memset(s + k, '0', 900);
        k += 900;
        s[k++] = '1';
        s[k] = '\0';
        expect_hex(TOKENRING_CQL_DOUBLE, s, "4340000000000001");
        /* and 0.000...0001e+N with a long run of leading zeros */
        k = (size_t)snprintf(s, sizeof s, "0.");
        memset(s + k, '0', 899);
        k += 899;
        k += (size_t)snprintf(s + k, sizeof s - k, "1e900");
        expect_hex(TOKENRING_CQL_DOUBLE, s, "3ff0000000000000");
    }
    expect_fail(TOKENRING_CQL_FLOAT, "1,5", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_FLOAT, "nan", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_FLOAT, "inf", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_FLOAT, "1e", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_FLOAT, ".", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_FLOAT, "0x1.8", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_DOUBLE, "1.5ff", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_DOUBLE, "--1", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_DOUBLE, "   ", TOKENRING_E_PARSE);
}

static void floats_ignore_the_locale(void **state)
{
    (void)state;
    static const char *const locales[] = { "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8",
                                           "ru_RU.UTF-8", "C.UTF-8", "C" };
    const char *set = NULL;
    for (size_t i = 0; i < sizeof locales / sizeof locales[0] && set == NULL; i++)
        set = setlocale(LC_NUMERIC, locales[i]) ? locales[i] : NULL;
    print_message("LC_NUMERIC = %s\n", set ? set : "(none available)");
    expect_hex(TOKENRING_CQL_DOUBLE, "1.5", "3ff8000000000000");
    expect_hex(TOKENRING_CQL_FLOAT, "-2.25", "c0100000");
    expect_fail(TOKENRING_CQL_DOUBLE, "1,5", TOKENRING_E_PARSE);
    setlocale(LC_NUMERIC, "C");
}

static void booleans_uuids_blobs_text(void **state)
{
    (void)state;
    expect_hex(TOKENRING_CQL_BOOLEAN, "TRUE", "01");
    expect_hex(TOKENRING_CQL_BOOLEAN, "False", "00");
    expect_fail_col(TOKENRING_CQL_BOOLEAN, "yes", TOKENRING_E_PARSE, 1);
    expect_fail(TOKENRING_CQL_BOOLEAN, "1", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_BOOLEAN, "true ", TOKENRING_E_PARSE);

    expect_hex(TOKENRING_CQL_UUID, "123E4567-E89B-12D3-A456-426614174000",
               "123e4567e89b12d3a456426614174000");
    expect_fail_col(TOKENRING_CQL_UUID, "123e4567e89b12d3a456426614174000", TOKENRING_E_PARSE, 9);
    expect_fail_col(TOKENRING_CQL_UUID, "123e4567-e89b-12d3-a456-42661417400", TOKENRING_E_PARSE,
                    36);
    expect_fail(TOKENRING_CQL_UUID, "123e4567-e89b-12d3-a456-4266141740000", TOKENRING_E_PARSE);
    expect_fail_col(TOKENRING_CQL_UUID, "123e4567-e89b-12d3-a456-42661417400g", TOKENRING_E_PARSE,
                    36);
    expect_fail(TOKENRING_CQL_UUID, "{123e4567-e89b-12d3-a456-426614174000}", TOKENRING_E_PARSE);
    /* timeuuid must be version 1 (TimeUUIDType.fromString) */
    expect_hex(TOKENRING_CQL_TIMEUUID, "8a8bb2a0-6c1f-11ee-b962-0242ac120002",
               "8a8bb2a06c1f11eeb9620242ac120002");
    expect_fail_col(TOKENRING_CQL_TIMEUUID, "550e8400-e29b-41d4-a716-446655440000",
                    TOKENRING_E_PARSE, 15);
    expect_hex(TOKENRING_CQL_UUID, "550e8400-e29b-41d4-a716-446655440000",
               "550e8400e29b41d4a716446655440000");

    expect_hex(TOKENRING_CQL_BLOB, "CAFEbabe", "cafebabe");
    expect_fail_col(TOKENRING_CQL_BLOB, "0xcafe", TOKENRING_E_PARSE, 2);
    expect_fail_col(TOKENRING_CQL_BLOB, "abc", TOKENRING_E_PARSE, 3);
    expect_fail_col(TOKENRING_CQL_BLOB, "ab c", TOKENRING_E_PARSE, 3);

    expect_hex(TOKENRING_CQL_TEXT, "a:b\\:c!", "613a625c3a6321"); /* literal for one column */
    expect_fail_col(TOKENRING_CQL_TEXT, "ab\xff", TOKENRING_E_PARSE, 3);
    expect_fail_col(TOKENRING_CQL_TEXT, "a\xc3", TOKENRING_E_PARSE, 2);
    expect_fail_col(TOKENRING_CQL_TEXT, "\xed\xa0\x80", TOKENRING_E_PARSE, 1); /* surrogate */
    expect_fail_col(TOKENRING_CQL_TEXT, "\xc0\xaf", TOKENRING_E_PARSE, 1);     /* overlong */
    expect_hex(TOKENRING_CQL_ASCII, "Hello, World!", "48656c6c6f2c20576f726c6421");
    expect_fail_col(TOKENRING_CQL_ASCII, "caf\xc3\xa9", TOKENRING_E_PARSE, 4);
    /* NUL inside text is a valid code point */
    uint8_t out[4];
    size_t len;
    assert_int_equal(tokenring_value_parse(out, 4, &len, TOKENRING_CQL_TEXT, "a\0b", 3, NULL),
                     TOKENRING_OK);
    assert_int_equal(len, 3);
    assert_memory_equal(out, "a\0b", 3);
}

static void inets(void **state)
{
    (void)state;
    expect_hex(TOKENRING_CQL_INET, "127.0.0.1", "7f000001");
    expect_hex(TOKENRING_CQL_INET, "255.255.255.255", "ffffffff");
    expect_hex(TOKENRING_CQL_INET, "127.1", "7f000001"); /* Java's short forms */
    expect_hex(TOKENRING_CQL_INET, "10.1.2", "0a010002");
    expect_hex(TOKENRING_CQL_INET, "16909060", "01020304");
    expect_hex(TOKENRING_CQL_INET, "::", "00000000000000000000000000000000");
    expect_hex(TOKENRING_CQL_INET, "[::1]", "00000000000000000000000000000001");
    expect_hex(TOKENRING_CQL_INET, "2001:DB8::FF00:42:8329", "20010db8000000000000ff0000428329");
    expect_hex(TOKENRING_CQL_INET, "::ffff:1.2.3.4", "01020304"); /* mapped -> IPv4 */
    expect_hex(TOKENRING_CQL_INET, "::1.2.3.4", "00000000000000000000000001020304");
    expect_fail(TOKENRING_CQL_INET, "1.2.3.256", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_INET, "1.2.3.4.5", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_INET, "1.2.3.", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_INET, "1.256.3", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_INET, "4294967296", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_INET, "localhost", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_INET, "1:2:3", TOKENRING_E_PARSE);
    expect_hex(TOKENRING_CQL_INET, "fe80::1%3", "fe800000000000000000000000000001");
    expect_fail_col(TOKENRING_CQL_INET, "::1%eth0", TOKENRING_E_PARSE, 5);
    expect_fail(TOKENRING_CQL_INET, "::1%", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_INET, "1::2::3", TOKENRING_E_PARSE);
}

static void dates(void **state)
{
    (void)state;
    expect_hex(TOKENRING_CQL_DATE, "1970-01-01", "80000000");
    expect_hex(TOKENRING_CQL_DATE, "1969-12-31", "7fffffff");
    expect_hex(TOKENRING_CQL_DATE, "2000-02-29", "80002b08");
    expect_hex(TOKENRING_CQL_DATE, "0", "00000000"); /* raw day numbers */
    expect_hex(TOKENRING_CQL_DATE, "2147483648", "80000000");
    expect_hex(TOKENRING_CQL_DATE, "4294967295", "ffffffff");
    int rc;
    const char *h = parse_hex(TOKENRING_CQL_DATE, "+10000-01-01", &rc);
    assert_non_null(h);
    char want[16];
    snprintf(want, sizeof want, "%08" PRIx32,
             (uint32_t)(civil_days(10000, 1, 1) + 2147483648LL));
    assert_string_equal(h, want);
    h = parse_hex(TOKENRING_CQL_DATE, "-0001-03-01", &rc);
    assert_non_null(h);
    snprintf(want, sizeof want, "%08" PRIx32, (uint32_t)(civil_days(-1, 3, 1) + 2147483648LL));
    assert_string_equal(h, want);
    h = parse_hex(TOKENRING_CQL_DATE, "1600-02-29", &rc);
    assert_non_null(h);
    snprintf(want, sizeof want, "%08" PRIx32, (uint32_t)(civil_days(1600, 2, 29) + 2147483648LL));
    assert_string_equal(h, want);
    expect_fail(TOKENRING_CQL_DATE, "-1", TOKENRING_E_RANGE);
    expect_fail(TOKENRING_CQL_DATE, "4294967296", TOKENRING_E_RANGE);
    expect_fail(TOKENRING_CQL_DATE, "99999999999999999999", TOKENRING_E_RANGE);
    expect_fail_col(TOKENRING_CQL_DATE, "2023-02-29", TOKENRING_E_RANGE, 9);
    expect_fail(TOKENRING_CQL_DATE, "1900-02-29", TOKENRING_E_RANGE);
    expect_fail_col(TOKENRING_CQL_DATE, "2024-13-01", TOKENRING_E_RANGE, 6);
    expect_fail(TOKENRING_CQL_DATE, "2024-04-31", TOKENRING_E_RANGE);
    expect_fail(TOKENRING_CQL_DATE, "2024-00-10", TOKENRING_E_RANGE);
    expect_fail(TOKENRING_CQL_DATE, "+5881580-07-12", TOKENRING_E_RANGE); /* > 2^31 days */
    expect_fail(TOKENRING_CQL_DATE, "24-01-01", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_DATE, "10000-01-01", TOKENRING_E_PARSE); /* needs '+' */
    expect_fail(TOKENRING_CQL_DATE, "+2024-01-01", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_DATE, "2024-1-01", TOKENRING_E_PARSE);
    expect_fail_col(TOKENRING_CQL_DATE, "2024/01/01", TOKENRING_E_PARSE, 5);
    expect_fail_col(TOKENRING_CQL_DATE, "2024-01-01x", TOKENRING_E_PARSE, 11);
    expect_fail(TOKENRING_CQL_DATE, "2024-01-01 00:00", TOKENRING_E_PARSE);
}

static void times(void **state)
{
    (void)state;
    assert_int_equal(parse_i64(TOKENRING_CQL_TIME, "12:34:56"),
                     ((12 * 60 + 34) * 60 + 56) * 1000000000LL);
    assert_int_equal(parse_i64(TOKENRING_CQL_TIME, "00:00:00.000000001"), 1);
    assert_int_equal(parse_i64(TOKENRING_CQL_TIME, "23:59:59.999999999"), 86399999999999LL);
    assert_int_equal(parse_i64(TOKENRING_CQL_TIME, "1:2:3.5"), 3723500000000LL);
    assert_int_equal(parse_i64(TOKENRING_CQL_TIME, " 01:02:03 "), 3723000000000LL);
    assert_int_equal(parse_i64(TOKENRING_CQL_TIME, "86399999999999"), 86399999999999LL);
    assert_int_equal(parse_i64(TOKENRING_CQL_TIME, "0"), 0);
    expect_fail(TOKENRING_CQL_TIME, "86400000000000", TOKENRING_E_RANGE);
    expect_fail(TOKENRING_CQL_TIME, "-1", TOKENRING_E_RANGE);
    expect_fail_col(TOKENRING_CQL_TIME, "24:00:00", TOKENRING_E_RANGE, 1);
    expect_fail_col(TOKENRING_CQL_TIME, "12:60:00", TOKENRING_E_RANGE, 4);
    expect_fail_col(TOKENRING_CQL_TIME, "12:00:60", TOKENRING_E_RANGE, 7);
    expect_fail(TOKENRING_CQL_TIME, "12:00", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_TIME, "12:00:", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_TIME, "12:00:00.", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_TIME, "12:00:00.1234567890", TOKENRING_E_PARSE);
    expect_fail_col(TOKENRING_CQL_TIME, "12:00:00.12a", TOKENRING_E_PARSE, 12);
    expect_fail_col(TOKENRING_CQL_TIME, "12:x0:00", TOKENRING_E_PARSE, 4);
    expect_fail(TOKENRING_CQL_TIME, "noon", TOKENRING_E_PARSE);
}

static void timestamps(void **state)
{
    (void)state;
    const int64_t day = 86400000;
    int64_t jan1 = civil_days(2024, 1, 1) * day;
    assert_int_equal(jan1, 1704067200000LL);
    assert_int_equal(parse_i64(TOKENRING_CQL_TIMESTAMP, "2024-01-01"), jan1);
    assert_int_equal(parse_i64(TOKENRING_CQL_TIMESTAMP, "2024-01-01 00:00"), jan1);
    assert_int_equal(parse_i64(TOKENRING_CQL_TIMESTAMP, "2024-01-01 00:00:00Z"), jan1);
    assert_int_equal(parse_i64(TOKENRING_CQL_TIMESTAMP, "2024-01-01T01:00:00+01:00"), jan1);
    assert_int_equal(parse_i64(TOKENRING_CQL_TIMESTAMP, "2024-01-01 01:00+0100"), jan1);
    assert_int_equal(parse_i64(TOKENRING_CQL_TIMESTAMP, "2023-12-31 19:00-05"), jan1);
    assert_int_equal(parse_i64(TOKENRING_CQL_TIMESTAMP, "2024-01-01 00:00:00 UTC"), jan1);
    assert_int_equal(parse_i64(TOKENRING_CQL_TIMESTAMP, "2024-01-01 02:00 GMT+2:00"), jan1);
    assert_int_equal(parse_i64(TOKENRING_CQL_TIMESTAMP, "2024-01-01 utc"), jan1);
    assert_int_equal(parse_i64(TOKENRING_CQL_TIMESTAMP, "2024-01-01+00"), jan1);
    /* SimpleDateFormat's zone grammar: ISO forms only right after the time, general
     * zones (names, GMT+h:mm, RFC 822 +hhmm) only after a space; checked against
     * commons-lang3 DateUtils.parseDateStrictly with Cassandra's patterns */
    expect_fail(TOKENRING_CQL_TIMESTAMP, "2024-01-01 12:34 Z", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_TIMESTAMP, "2024-01-01 12:34 +01:00", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_TIMESTAMP, "2024-01-01 12:34 +01", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_TIMESTAMP, "2024-01-01 12:34UTC", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_TIMESTAMP, "2024-01-01 12:34 GMT+1", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_TIMESTAMP, "2024-01-01 12:34 GMT+0100", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_TIMESTAMP, "2024-01-01 12:34 UTC+01:00", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_TIMESTAMP, "2024-01-01 12:34 GMT+24:00", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_TIMESTAMP, "2024-01-01 12:34+2400", TOKENRING_E_PARSE);
    assert_int_equal(parse_i64(TOKENRING_CQL_TIMESTAMP, "2024-01-01 +0000"), jan1);
    assert_int_equal(parse_i64(TOKENRING_CQL_TIMESTAMP, "2024-01-01 12:34:56.789"),
                     jan1 + ((12 * 60 + 34) * 60 + 56) * 1000LL + 789);
    /* SimpleDateFormat's SSS reads a count of milliseconds: ".5" is 5 ms */
    assert_int_equal(parse_i64(TOKENRING_CQL_TIMESTAMP, "2024-01-01 00:00:00.5"), jan1 + 5);
    assert_int_equal(parse_i64(TOKENRING_CQL_TIMESTAMP, "2024-1-1 0:0"), jan1);
    assert_int_equal(parse_i64(TOKENRING_CQL_TIMESTAMP, "1969-12-31 23:59:59.999"), -1);
    assert_int_equal(parse_i64(TOKENRING_CQL_TIMESTAMP, "1700000000123"), 1700000000123LL);
    assert_int_equal(parse_i64(TOKENRING_CQL_TIMESTAMP, "-1"), -1);
    /* java.util.GregorianCalendar: Julian calendar before 1582-10-15 */
    assert_int_equal(parse_i64(TOKENRING_CQL_TIMESTAMP, "1582-10-15") -
                         parse_i64(TOKENRING_CQL_TIMESTAMP, "1582-10-04"),
                     day);
    assert_int_equal(parse_i64(TOKENRING_CQL_TIMESTAMP, "1500-03-01"),
                     civil_days(1500, 3, 11) * day);
    assert_int_equal(parse_i64(TOKENRING_CQL_TIMESTAMP, "1500-02-29"),
                     civil_days(1500, 3, 10) * day); /* a Julian leap day */
    expect_fail(TOKENRING_CQL_TIMESTAMP, "1582-10-10", TOKENRING_E_RANGE);
    expect_fail(TOKENRING_CQL_TIMESTAMP, "2023-02-29", TOKENRING_E_RANGE);
    expect_fail(TOKENRING_CQL_TIMESTAMP, "2024-01-01 24:00", TOKENRING_E_RANGE);
    expect_fail(TOKENRING_CQL_TIMESTAMP, "2024-01-01 12:00:60", TOKENRING_E_RANGE);
    expect_fail(TOKENRING_CQL_TIMESTAMP, "0000-01-01", TOKENRING_E_RANGE);
    expect_fail(TOKENRING_CQL_TIMESTAMP, "9223372036854775808", TOKENRING_E_RANGE);
    expect_fail(TOKENRING_CQL_TIMESTAMP, "now", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_TIMESTAMP, "NOW", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_TIMESTAMP, "2024-01-01 12:00 PST", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_TIMESTAMP, "2024-01-01 12", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_TIMESTAMP, "2024-01-01 12:00:00.1234", TOKENRING_E_PARSE);
    expect_fail(TOKENRING_CQL_TIMESTAMP, "2024-01-01 12:00+25", TOKENRING_E_PARSE);
    expect_fail_col(TOKENRING_CQL_TIMESTAMP, "2024-01-01x", TOKENRING_E_PARSE, 11);
    expect_fail(TOKENRING_CQL_TIMESTAMP, "yesterday", TOKENRING_E_PARSE);
}

static void value_parse_bad_arguments(void **state)
{
    (void)state;
    uint8_t out[8];
    size_t len = 77;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(tokenring_value_parse(out, 8, NULL, TOKENRING_CQL_INT, "1", 1, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(err.code, TOKENRING_E_INVAL);
    assert_true(strlen(err.message) > 0);
    assert_int_equal(tokenring_value_parse(NULL, 8, &len, TOKENRING_CQL_INT, "1", 1, NULL),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_value_parse(out, 8, &len, TOKENRING_CQL_INT, NULL, 1, NULL),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_value_parse(out, 8, &len, (tokenring_cql_type)0, "1", 1, NULL),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_value_parse(out, 8, &len, (tokenring_cql_type)99, "1", 1, NULL),
                     TOKENRING_E_INVAL);
    assert_int_equal(len, 77);
    /* too small: E_BUFSIZE with the needed length, for fixed and variable sizes */
    assert_int_equal(tokenring_value_parse(out, 3, &len, TOKENRING_CQL_INT, "1", 1, &err),
                     TOKENRING_E_BUFSIZE);
    assert_int_equal(len, 4);
    assert_int_equal(err.code, TOKENRING_E_BUFSIZE);
    assert_non_null(strstr(err.message, "4"));
    assert_int_equal(tokenring_value_parse(out, 8, &len, TOKENRING_CQL_TEXT, "123456789", 9,
                                           NULL),
                     TOKENRING_E_BUFSIZE);
    assert_int_equal(len, 9);
    assert_int_equal(tokenring_value_parse(out, 4, &len, TOKENRING_CQL_DECIMAL, "1.50", 4, NULL),
                     TOKENRING_E_BUFSIZE);
    assert_int_equal(len, 6);
    assert_int_equal(tokenring_value_parse(NULL, 0, &len, TOKENRING_CQL_VARINT,
                                           "18446744073709551616", 20, NULL),
                     TOKENRING_E_BUFSIZE);
    assert_int_equal(len, 9);
    /* text need not be NUL-terminated: only text_len bytes are read */
    assert_int_equal(tokenring_value_parse(out, 8, &len, TOKENRING_CQL_INT, "12345", 2, NULL),
                     TOKENRING_OK);
    assert_memory_equal(out, "\x00\x00\x00\x0c", 4);
}

/* ------------------------------------------------------------ composite keys */

static void composite_encode_bad_arguments(void **state)
{
    (void)state;
    uint8_t out[16];
    size_t len = 5;
    const uint8_t parts[] = "abcd";
    uint64_t off[3] = { 0, 2, 4 };
    assert_int_equal(tokenring_composite_encode(out, 16, NULL, parts, off, 2), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_composite_encode(out, 16, &len, parts, NULL, 2), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_composite_encode(out, 16, &len, NULL, off, 2), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_composite_encode(NULL, 16, &len, parts, off, 2), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_composite_encode(out, 16, &len, parts, off, 0), TOKENRING_E_INVAL);
    uint64_t dec[3] = { 0, 3, 2 };
    assert_int_equal(tokenring_composite_encode(out, 16, &len, parts, dec, 2), TOKENRING_E_INVAL);
    assert_int_equal(len, 5);
    /* one component is still wrapped; empty parts with NULL bytes are fine */
    assert_int_equal(tokenring_composite_encode(out, 16, &len, parts, off, 1), TOKENRING_OK);
    assert_int_equal(len, 5);
    assert_memory_equal(out, "\x00\x02" "ab" "\x00", 5);
    uint64_t zero[3] = { 0, 0, 0 };
    assert_int_equal(tokenring_composite_encode(out, 16, &len, NULL, zero, 2), TOKENRING_OK);
    assert_int_equal(len, 6);
    assert_memory_equal(out, "\0\0\0\0\0\0", 6);
    assert_int_equal(tokenring_token(out, len), 9027482631457916009LL);
    /* too small */
    len = 0;
    assert_int_equal(tokenring_composite_encode(out, 9, &len, parts, off, 2), TOKENRING_E_BUFSIZE);
    assert_int_equal(len, 10);
    /* component limits: 65535 is fine, 65536 is not */
    uint8_t *big = calloc(1, 65536 + 8);
    uint8_t *kout = malloc(65536 + 16);
    assert_non_null(big);
    assert_non_null(kout);
    uint64_t boff[3] = { 0, 65535, 65536 };
    assert_int_equal(tokenring_composite_encode(kout, 65536 + 16, &len, big, boff, 2),
                     TOKENRING_OK);
    assert_int_equal(len, 65535 + 3 + 1 + 3);
    assert_int_equal(kout[0], 0xff);
    assert_int_equal(kout[1], 0xff);
    uint64_t boff2[2] = { 0, 65536 };
    len = 3;
    assert_int_equal(tokenring_composite_encode(kout, 65536 + 16, &len, big, boff2, 1),
                     TOKENRING_E_RANGE);
    assert_int_equal(len, 3);
    free(big);
    free(kout);
}

static void key_parse_forms(void **state)
{
    (void)state;
    tokenring_cql_type tt[2] = { TOKENRING_CQL_TEXT, TOKENRING_CQL_TEXT };
    tokenring_cql_type ti[2] = { TOKENRING_CQL_TEXT, TOKENRING_CQL_INT };
    uint8_t out[256];
    size_t len;
    tokenring_error err;
#define KP(types, n, s) tokenring_key_parse(out, sizeof out, &len, types, n, s, strlen(s), &err)
    /* end-of-component markers: "!" -> 0x01, "_" -> 0xFF, and parsing stops */
    assert_int_equal(KP(tt, 2, "a:!"), TOKENRING_OK);
    assert_int_equal(len, 4);
    assert_memory_equal(out, "\x00\x01" "a" "\x01", 4);
    assert_int_equal(KP(tt, 2, "a:b:_"), TOKENRING_OK);
    assert_int_equal(len, 8);
    assert_memory_equal(out, "\x00\x01" "a" "\x00" "\x00\x01" "b" "\xff", 8);
    assert_int_equal(KP(tt, 2, "a:_:whatever:else"), TOKENRING_OK);
    assert_int_equal(len, 4);
    assert_memory_equal(out, "\x00\x01" "a" "\xff", 4);
    /* escapes: "!!" is "!", a trailing '!' is dropped, "\:" is ':' */
    assert_int_equal(KP(tt, 2, "!!:\\:!"), TOKENRING_OK);
    assert_memory_equal(out, "\x00\x01" "!" "\x00" "\x00\x01" ":" "\x00", 8);
    assert_int_equal(KP(tt, 2, "x\\!:y!!"), TOKENRING_OK);
    assert_memory_equal(out, "\x00\x02" "x\\" "\x00" "\x00\x02" "y!" "\x00", 10);
    /* empty text: no components at all, the empty key (CompositeType.fromString) */
    len = 9;
    assert_int_equal(KP(tt, 2, ""), TOKENRING_OK);
    assert_int_equal(len, 0);
    /* wrong component counts */
    memset(&err, 0, sizeof err);
    assert_int_equal(KP(tt, 2, "a:b:c"), TOKENRING_E_PARSE);
    assert_int_equal(err.column, 5);
    assert_true(strlen(err.message) > 0);
    assert_int_equal(KP(tt, 2, "abc"), TOKENRING_E_PARSE);
    assert_true(err.column >= 1);
    assert_int_equal(KP(tt, 2, "!"), TOKENRING_E_PARSE);
    assert_int_equal(KP(tt, 2, "_:a"), TOKENRING_E_PARSE);
    /* errors inside a component name it and point into the whole text */
    memset(&err, 0, sizeof err);
    assert_int_equal(KP(ti, 2, "a\\:b:zz"), TOKENRING_E_PARSE);
    assert_int_equal(err.column, 6);
    assert_non_null(strstr(err.message, "component 2"));
    tokenring_cql_type tm[2] = { TOKENRING_CQL_TEXT, TOKENRING_CQL_TIME };
    assert_int_equal(KP(tm, 2, "x:12\\:30\\:00"), TOKENRING_OK);
    assert_int_equal(len, 4 + 3 + 8);
    assert_int_equal(KP(tm, 2, "x:12\\:30\\:0x"), TOKENRING_E_PARSE);
    assert_int_equal(err.column, 12);
    assert_int_equal(KP(ti, 2, "a:99999999999"), TOKENRING_E_RANGE);
    assert_int_equal(err.code, TOKENRING_E_RANGE);
    assert_int_equal(err.column, 3);
    assert_int_equal(KP(ti, 2, "\xff:1"), TOKENRING_E_PARSE);
    assert_int_equal(err.column, 1);
    /* one type: the whole text is the value, ':' and escapes included */
    assert_int_equal(KP(tt, 1, "a:b\\:c!"), TOKENRING_OK);
    assert_int_equal(len, 7);
    assert_memory_equal(out, "a:b\\:c!", 7);
    /* too small buffer: the needed length, even when an early component overflows */
    size_t need = 0;
    assert_int_equal(tokenring_key_parse(out, 5, &need, ti, 2, "hello:1", 7, &err),
                     TOKENRING_E_BUFSIZE);
    assert_int_equal(need, 8 + 7);
    assert_int_equal(err.code, TOKENRING_E_BUFSIZE);
    /* a parse error later in the text wins over the short buffer */
    assert_int_equal(tokenring_key_parse(out, 2, &need, ti, 2, "hello:x", 7, &err),
                     TOKENRING_E_PARSE);
    /* bad arguments */
    assert_int_equal(tokenring_key_parse(out, 8, NULL, ti, 2, "a:1", 3, &err), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_key_parse(NULL, 8, &len, ti, 2, "a:1", 3, &err), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_key_parse(out, 8, &len, NULL, 2, "a:1", 3, &err), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_key_parse(out, 8, &len, ti, 0, "a:1", 3, &err), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_key_parse(out, 8, &len, ti, 2, NULL, 3, &err), TOKENRING_E_INVAL);
    tokenring_cql_type bad[2] = { TOKENRING_CQL_TEXT, (tokenring_cql_type)42 };
    assert_int_equal(tokenring_key_parse(out, 8, &len, bad, 2, "a:1", 3, &err), TOKENRING_E_INVAL);
    assert_int_equal(err.code, TOKENRING_E_INVAL);
#undef KP
}

static void key_parse_component_too_long(void **state)
{
    (void)state;
    size_t n = 2 * 65536;
    char *s = malloc(n + 3);
    assert_non_null(s);
    memset(s, 'a', n);
    memcpy(s + n, ":1", 2);
    tokenring_cql_type types[2] = { TOKENRING_CQL_BLOB, TOKENRING_CQL_INT };
    size_t len = 0;
    tokenring_error err;
    assert_int_equal(tokenring_key_parse(NULL, 0, &len, types, 2, s, n + 2, &err),
                     TOKENRING_E_RANGE);
    assert_int_equal(err.code, TOKENRING_E_RANGE);
    assert_true(strlen(err.message) > 0);
    /* 65535 bytes still fit */
    uint8_t *out = malloc(65535 + 3 + 7);
    assert_non_null(out);
    memcpy(s + n - 2, ":1", 2);
    assert_int_equal(tokenring_key_parse(out, 65535 + 3 + 7, &len, types, 2, s, n, &err),
                     TOKENRING_OK);
    assert_int_equal(len, 65535 + 3 + 7);
    free(out);
    free(s);
}

/* ============================================================ */

/* String forms of CQL values and keys (key.h) beyond the golden vectors: every malformed
 * or out-of-range form gets its code and a message, and valid but unusual forms (zones,
 * signs, exponents, Julian dates, hex floats) give the bytes the encode_* functions or a
 * hand computation give. */

typedef struct {
    tokenring_cql_type type;
    const char *text;
    int code;
} vcase;

static void check_values(const vcase *cases, size_t n)
{
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t buf[64];
        size_t len = 999;
        tokenring_error err;
        memset(&err, 0, sizeof err);
        int rc = tokenring_value_parse(buf, sizeof buf, &len, cases[i].type, cases[i].text,
                                       strlen(cases[i].text), &err);
        if (rc != cases[i].code) {
            print_error("%s '%s': got %s (%s), want %s\n", tokenring_cql_type_name(cases[i].type),
                        cases[i].text, tokenring_status_name(rc), err.message,
                        tokenring_status_name(cases[i].code));
            bad++;
            continue;
        }
        if (rc != TOKENRING_OK) {
            assert_true(err.message[0] != '\0');
            assert_int_equal(err.code, rc);
        }
    }
    assert_int_equal(bad, 0);
}

static void malformed_and_out_of_range(void **state)
{
    (void)state;
    static const vcase cases[] = {
        /* integers */
        { TOKENRING_CQL_INT, "-", TOKENRING_E_PARSE },
        { TOKENRING_CQL_INT, "+", TOKENRING_E_PARSE },
        { TOKENRING_CQL_INT, "12a", TOKENRING_E_PARSE },
        { TOKENRING_CQL_INT, "2147483648", TOKENRING_E_RANGE },
        { TOKENRING_CQL_INT, "+2147483647", TOKENRING_OK },
        { TOKENRING_CQL_SMALLINT, "32768", TOKENRING_E_RANGE },
        { TOKENRING_CQL_TINYINT, "-129", TOKENRING_E_RANGE },
        { TOKENRING_CQL_BIGINT, "99999999999999999999999", TOKENRING_E_RANGE },
        { TOKENRING_CQL_VARINT, "-", TOKENRING_E_PARSE },
        { TOKENRING_CQL_VARINT, "+12", TOKENRING_OK },
        { TOKENRING_CQL_VARINT, "1x", TOKENRING_E_PARSE },
        /* decimals */
        { TOKENRING_CQL_DECIMAL, "1e", TOKENRING_E_PARSE },
        { TOKENRING_CQL_DECIMAL, "1ex", TOKENRING_E_PARSE },
        { TOKENRING_CQL_DECIMAL, "+1.5E+3", TOKENRING_OK },
        { TOKENRING_CQL_DECIMAL, "-1.5e-3", TOKENRING_OK },
        { TOKENRING_CQL_DECIMAL, "1e99999999999999", TOKENRING_E_RANGE },
        { TOKENRING_CQL_DECIMAL, "1e-2147483649", TOKENRING_E_RANGE },
        { TOKENRING_CQL_DECIMAL, ".", TOKENRING_E_PARSE },
        { TOKENRING_CQL_DECIMAL, "1.2.3", TOKENRING_E_PARSE },
        /* floating point */
        { TOKENRING_CQL_DOUBLE, "1.5e", TOKENRING_E_PARSE },
        { TOKENRING_CQL_DOUBLE, "1.5e+", TOKENRING_E_PARSE },
        { TOKENRING_CQL_DOUBLE, "1.5E-2", TOKENRING_OK },
        { TOKENRING_CQL_DOUBLE, "0x1.8p1", TOKENRING_OK },
        { TOKENRING_CQL_DOUBLE, "0X1P-2", TOKENRING_OK },
        { TOKENRING_CQL_DOUBLE, "0x1.8", TOKENRING_E_PARSE },
        { TOKENRING_CQL_DOUBLE, "2.5d", TOKENRING_OK },
        { TOKENRING_CQL_DOUBLE, "2.5D", TOKENRING_OK },
        { TOKENRING_CQL_FLOAT, "2.5f", TOKENRING_OK },
        { TOKENRING_CQL_FLOAT, "2.5F", TOKENRING_OK },
        { TOKENRING_CQL_FLOAT, "1e99999999999999999", TOKENRING_OK }, /* Infinity, as Java */
        { TOKENRING_CQL_DOUBLE, "1..2", TOKENRING_E_PARSE },
        { TOKENRING_CQL_DOUBLE, "abc", TOKENRING_E_PARSE },
        /* dates */
        { TOKENRING_CQL_DATE, "2020-13-01", TOKENRING_E_RANGE },
        { TOKENRING_CQL_DATE, "2020-02-30", TOKENRING_E_RANGE },
        { TOKENRING_CQL_DATE, "2020-02-29", TOKENRING_OK },
        { TOKENRING_CQL_DATE, "2020-02", TOKENRING_E_PARSE },
        { TOKENRING_CQL_DATE, "2020-02-1", TOKENRING_E_PARSE },
        { TOKENRING_CQL_DATE, "2020/02/01", TOKENRING_E_PARSE },
        { TOKENRING_CQL_DATE, "+2020-02-01", TOKENRING_E_PARSE }, /* as Java: a sign needs 5+ digits */
        { TOKENRING_CQL_DATE, "+12020-02-01", TOKENRING_OK },
        { TOKENRING_CQL_DATE, "-6000000-01-01", TOKENRING_E_RANGE },
        { TOKENRING_CQL_DATE, "+9999999-01-01", TOKENRING_E_RANGE },
        /* times */
        { TOKENRING_CQL_TIME, "24:00:00", TOKENRING_E_RANGE },
        { TOKENRING_CQL_TIME, "23:60:00", TOKENRING_E_RANGE },
        { TOKENRING_CQL_TIME, "23:59:60", TOKENRING_E_RANGE },
        { TOKENRING_CQL_TIME, "23:59", TOKENRING_E_PARSE },
        { TOKENRING_CQL_TIME, ":59:59", TOKENRING_E_PARSE },
        { TOKENRING_CQL_TIME, "x:59:59", TOKENRING_E_PARSE },
        { TOKENRING_CQL_TIME, " 12:34:56.5 ", TOKENRING_OK },
        { TOKENRING_CQL_TIME, "86400000000000", TOKENRING_E_RANGE },
        { TOKENRING_CQL_TIME, "-1", TOKENRING_E_RANGE },
        /* timestamps */
        { TOKENRING_CQL_TIMESTAMP, "2020", TOKENRING_OK }, /* digits alone: milliseconds */
        { TOKENRING_CQL_TIMESTAMP, "2020-", TOKENRING_E_PARSE },
        { TOKENRING_CQL_TIMESTAMP, "2020-1", TOKENRING_E_PARSE },
        { TOKENRING_CQL_TIMESTAMP, "2020-1-", TOKENRING_E_PARSE },
        { TOKENRING_CQL_TIMESTAMP, "2020-13-01", TOKENRING_E_RANGE },
        { TOKENRING_CQL_TIMESTAMP, "2020-12-32", TOKENRING_E_RANGE },
        { TOKENRING_CQL_TIMESTAMP, "1582-10-10", TOKENRING_E_RANGE }, /* the Gregorian gap */
        { TOKENRING_CQL_TIMESTAMP, "1582-10-04", TOKENRING_OK },
        { TOKENRING_CQL_TIMESTAMP, "1582-10-15", TOKENRING_OK },
        { TOKENRING_CQL_TIMESTAMP, "1500-02-29", TOKENRING_OK }, /* Julian leap year */
        { TOKENRING_CQL_TIMESTAMP, "2020-01-01 25:00", TOKENRING_E_RANGE },
        { TOKENRING_CQL_TIMESTAMP, "2020-01-01 10", TOKENRING_E_PARSE },
        { TOKENRING_CQL_TIMESTAMP, "2020-01-01 10:", TOKENRING_E_PARSE },
        { TOKENRING_CQL_TIMESTAMP, "2020-01-01 10:00:", TOKENRING_E_PARSE },
        { TOKENRING_CQL_TIMESTAMP, "2020-01-01 10:00:00+01:00", TOKENRING_OK },
        { TOKENRING_CQL_TIMESTAMP, "2020-01-01 10:00:00 GMT", TOKENRING_OK },
        { TOKENRING_CQL_TIMESTAMP, "2020-01-01 10:00:00 utc", TOKENRING_OK },
        { TOKENRING_CQL_TIMESTAMP, "2020-01-01 10:00:00 GMT+5:30", TOKENRING_OK },
        { TOKENRING_CQL_TIMESTAMP, "2020-01-01 10:00:00 GMT+5", TOKENRING_E_PARSE },
        { TOKENRING_CQL_TIMESTAMP, "2020-01-01 10:00:00 GMT*05:00", TOKENRING_E_PARSE },
        { TOKENRING_CQL_TIMESTAMP, "2020-01-01 10:00:00 GMT+05:3", TOKENRING_E_PARSE },
        { TOKENRING_CQL_TIMESTAMP, "2020-01-01 10:00:00*0100", TOKENRING_E_PARSE },
        { TOKENRING_CQL_TIMESTAMP, "2020-01-01 10:00:00+2500", TOKENRING_E_PARSE },
        { TOKENRING_CQL_TIMESTAMP, "2020-01-01 10:00:00+0160", TOKENRING_E_PARSE },
        { TOKENRING_CQL_TIMESTAMP, "2020-01-01 10:00:00Z", TOKENRING_OK },
        { TOKENRING_CQL_TIMESTAMP, "2020-01-01T10:00:00.123+0100", TOKENRING_OK },
        { TOKENRING_CQL_TIMESTAMP, "0-01-01", TOKENRING_E_RANGE },
        { TOKENRING_CQL_TIMESTAMP, "292278995-01-01", TOKENRING_E_RANGE },
        /* inet */
        { TOKENRING_CQL_INET, "[::1]", TOKENRING_OK },
        { TOKENRING_CQL_INET, "[::1", TOKENRING_E_PARSE },
        { TOKENRING_CQL_INET, "1.2.3.4.5", TOKENRING_E_PARSE },
        { TOKENRING_CQL_INET, "1.2.3", TOKENRING_OK }, /* Java: 1.2.0.3 */
        { TOKENRING_CQL_INET, "::g", TOKENRING_E_PARSE },
        { TOKENRING_CQL_INET, "fe80::1%eth0", TOKENRING_E_PARSE }, /* named scopes unsupported */
        { TOKENRING_CQL_INET, "fe80::1%2", TOKENRING_OK },
        /* uuid, blob, boolean, ascii */
        { TOKENRING_CQL_UUID, "00000000-0000-0000-0000-00000000000g", TOKENRING_E_PARSE },
        { TOKENRING_CQL_UUID, "0000000-0000-0000-0000-000000000000", TOKENRING_E_PARSE },
        { TOKENRING_CQL_TIMEUUID, "00000000-0000-4000-8000-000000000000", TOKENRING_E_PARSE },
        { TOKENRING_CQL_BLOB, "abc", TOKENRING_E_PARSE },
        { TOKENRING_CQL_BLOB, "0xzz", TOKENRING_E_PARSE },
        { TOKENRING_CQL_BOOLEAN, "yes", TOKENRING_E_PARSE },
        { TOKENRING_CQL_BOOLEAN, "TRUE", TOKENRING_OK },
        { TOKENRING_CQL_ASCII, "caf\xc3\xa9", TOKENRING_E_PARSE },
        { TOKENRING_CQL_TEXT, "\xed\xa0\x80", TOKENRING_E_PARSE },
        { TOKENRING_CQL_TEXT, "\xf4\x90\x80\x80", TOKENRING_E_PARSE },
        { TOKENRING_CQL_TEXT, "\xe0\x80\x80", TOKENRING_E_PARSE },
        { TOKENRING_CQL_TEXT, "\xe2\x28\xa1", TOKENRING_E_PARSE },
        { TOKENRING_CQL_TEXT, "\xf0\x9f\x98\x80", TOKENRING_OK },
    };
    check_values(cases, sizeof cases / sizeof *cases);
}

static void values_match_encoders(void **state)
{
    (void)state;
    uint8_t a[16], b[16];
    size_t len;
    /* 2020-01-01 10:00:00 at +01:00 is 09:00 UTC */
    const int64_t utc9 = 1577869200000LL;
    assert_int_equal(tokenring_encode_timestamp(b, utc9), TOKENRING_OK);
    static const char *const same[] = { "2020-01-01 10:00:00+0100", "2020-01-01 10:00:00+01:00",
                                        "2020-01-01 09:00:00Z", "2020-01-01 09:00:00 GMT",
                                        "2020-01-01 10:00:00 GMT+01:00",
                                        "2020-01-01T08:00:00-01:00" };
    for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
        assert_int_equal(tokenring_value_parse(a, sizeof a, &len, TOKENRING_CQL_TIMESTAMP, same[i],
                                               strlen(same[i]), NULL),
                         TOKENRING_OK);
        assert_int_equal(len, 8);
        if (memcmp(a, b, 8) != 0)
            fail_msg("%s is not %lld ms", same[i], (long long)utc9);
    }
    /* integers with a sign */
    assert_int_equal(tokenring_value_parse(a, sizeof a, &len, TOKENRING_CQL_INT, "+7", 2, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_encode_int(b, 7), TOKENRING_OK);
    assert_memory_equal(a, b, 4);
    /* booleans, any case */
    assert_int_equal(tokenring_value_parse(a, sizeof a, &len, TOKENRING_CQL_BOOLEAN, "TrUe", 4,
                                           NULL),
                     TOKENRING_OK);
    assert_int_equal(len, 1);
    assert_int_equal(a[0], 1);
    /* 0x1.8p1 = 3.0 = 0x4008000000000000 */
    assert_int_equal(tokenring_value_parse(a, sizeof a, &len, TOKENRING_CQL_DOUBLE, "0x1.8p1", 7,
                                           NULL),
                     TOKENRING_OK);
    static const uint8_t three[8] = { 0x40, 0x08, 0, 0, 0, 0, 0, 0 };
    assert_memory_equal(a, three, 8);
    /* an empty string is an empty value for every type */
    assert_int_equal(tokenring_value_parse(a, sizeof a, &len, TOKENRING_CQL_UUID, "", 0, NULL),
                     TOKENRING_OK);
    assert_int_equal(len, 0);
    /* buffer too small: BUFSIZE with the needed length */
    assert_int_equal(tokenring_value_parse(a, 2, &len, TOKENRING_CQL_BIGINT, "5", 1, NULL),
                     TOKENRING_E_BUFSIZE);
    assert_int_equal(len, 8);
    assert_int_equal(tokenring_value_parse(NULL, 0, &len, TOKENRING_CQL_BIGINT, "5", 1, NULL),
                     TOKENRING_E_BUFSIZE);
    /* bad arguments */
    tokenring_error err;
    assert_int_equal(tokenring_value_parse(a, sizeof a, NULL, TOKENRING_CQL_INT, "5", 1, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_value_parse(a, sizeof a, &len, (tokenring_cql_type)99, "5", 1,
                                           &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_value_parse(a, sizeof a, &len, TOKENRING_CQL_INT, NULL, 1, &err),
                     TOKENRING_E_INVAL);
}

static void keys(void **state)
{
    (void)state;
    uint8_t out[128];
    size_t len;
    tokenring_error err;
    const tokenring_cql_type two[] = { TOKENRING_CQL_TEXT, TOKENRING_CQL_INT };
    /* an escaped ':' in a component, and the column of an error in the second component */
    assert_int_equal(tokenring_key_parse(out, sizeof out, &len, two, 2, "a\\:b:5", 6, &err),
                     TOKENRING_OK);
    static const uint8_t want[] = { 0, 3, 'a', ':', 'b', 0, 0, 4, 0, 0, 0, 5, 0 };
    assert_int_equal(len, sizeof want);
    assert_memory_equal(out, want, sizeof want);
    assert_int_equal(tokenring_key_parse(out, sizeof out, &len, two, 2, "a\\:b:x", 6, &err),
                     TOKENRING_E_PARSE);
    assert_int_equal(err.column, 6);
    assert_true(err.message[0] != '\0');
    assert_int_equal(tokenring_key_parse(out, sizeof out, &len, two, 2, "a\\:b:x", 6, NULL),
                     TOKENRING_E_PARSE);
    assert_int_equal(tokenring_key_parse(out, sizeof out, &len, two, 2, "a", 1, &err),
                     TOKENRING_E_PARSE);
    assert_int_equal(tokenring_key_parse(out, sizeof out, &len, two, 2, "a:1:2", 5, &err),
                     TOKENRING_E_PARSE);
    assert_int_equal(tokenring_key_parse(out, sizeof out, &len, two, 2, NULL, 3, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_key_parse(out, sizeof out, &len, two, 0, "a", 1, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_key_parse(out, 3, &len, two, 2, "a:5", 3, &err),
                     TOKENRING_E_BUFSIZE);
    assert_int_equal(len, 11);
    /* composite_encode argument checks */
    const uint8_t parts[] = { 'x', 'y' };
    const uint64_t offs[] = { 0, 1, 2 };
    const uint64_t bad[] = { 0, 2, 1 };
    assert_int_equal(tokenring_composite_encode(out, sizeof out, &len, parts, offs, 2),
                     TOKENRING_OK);
    assert_int_equal(len, 8);
    assert_int_equal(tokenring_composite_encode(out, sizeof out, &len, parts, bad, 2),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_composite_encode(out, sizeof out, &len, parts, offs, 0),
                     TOKENRING_E_INVAL);
    /* type names */
    tokenring_cql_type t;
    assert_int_equal(tokenring_cql_type_from_name(&t, "COUNTER"), TOKENRING_OK);
    assert_int_equal(t, TOKENRING_CQL_BIGINT);
    assert_int_equal(tokenring_cql_type_from_name(&t, "list"), TOKENRING_E_NOTFOUND);
    assert_int_equal(tokenring_cql_type_from_name(NULL, "int"), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cql_type_from_name(&t, NULL), TOKENRING_E_INVAL);
    for (int k = TOKENRING_CQL_ASCII; k <= TOKENRING_CQL_VARINT; k++) {
        const char *name = tokenring_cql_type_name((tokenring_cql_type)k);
        assert_non_null(name);
        assert_int_equal(tokenring_cql_type_from_name(&t, name), TOKENRING_OK);
        assert_int_equal(t, k);
    }
    assert_null(tokenring_cql_type_name((tokenring_cql_type)0));
}

/* ---------------------------------------------------------- tokens and hex */

static void token_parse_forms(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int rc;
        int64_t token;
        uint32_t column;
    } cases[] = {
        { "0", TOKENRING_OK, 0, 0 },
        { "-42", TOKENRING_OK, -42, 0 },
        { "+42", TOKENRING_OK, 42, 0 },
        { "9223372036854775807", TOKENRING_OK, INT64_MAX, 0 },
        { "-9223372036854775808", TOKENRING_OK, INT64_MIN, 0 },
        { "9223372036854775808", TOKENRING_E_RANGE, 0, 1 },
        { "-9223372036854775809", TOKENRING_E_RANGE, 0, 1 },
        { "", TOKENRING_E_PARSE, 0, 1 },
        { "-", TOKENRING_E_PARSE, 0, 2 },
        { " 5", TOKENRING_E_PARSE, 0, 1 },
        { "5 ", TOKENRING_E_PARSE, 0, 2 },
        { "12a", TOKENRING_E_PARSE, 0, 3 },
        { "0x10", TOKENRING_E_PARSE, 0, 2 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int64_t t = 77;
        tokenring_error err;
        memset(&err, 0, sizeof err);
        int rc = tokenring_token_parse(&t, cases[i].text, strlen(cases[i].text), &err);
        assert_int_equal(rc, cases[i].rc);
        assert_true(rc == TOKENRING_OK ? t == cases[i].token : t == 77); /* untouched */
        assert_int_equal(err.column, cases[i].column);
        if (rc != TOKENRING_OK)
            assert_non_null(strstr(err.message, "token"));
    }
    /* the length bounds the text: "123" of "1234" */
    int64_t t;
    assert_int_equal(tokenring_token_parse(&t, "1234", 3, NULL), TOKENRING_OK);
    assert_true(t == 123);
    assert_int_equal(tokenring_token_parse(&t, "1\0002", 3, NULL), TOKENRING_E_PARSE);
    assert_int_equal(tokenring_token_parse(NULL, "1", 1, NULL), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_token_parse(&t, NULL, 1, NULL), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_token_parse(&t, NULL, 0, NULL), TOKENRING_E_PARSE);
}

static void hex_decode_forms(void **state)
{
    (void)state;
    uint8_t b[8];
    size_t n = 99;
    assert_int_equal(tokenring_hex_decode(b, sizeof b, &n, "00ffA5", 6, NULL), TOKENRING_OK);
    assert_int_equal(n, 3);
    assert_int_equal(b[0], 0x00);
    assert_int_equal(b[1], 0xff);
    assert_int_equal(b[2], 0xa5);
    assert_int_equal(tokenring_hex_decode(b, sizeof b, &n, "0X7f", 4, NULL), TOKENRING_OK);
    assert_int_equal(n, 1);
    assert_int_equal(b[0], 0x7f);
    assert_int_equal(tokenring_hex_decode(NULL, 0, &n, "0x", 2, NULL), TOKENRING_OK);
    assert_int_equal(n, 0);
    assert_int_equal(tokenring_hex_decode(NULL, 0, &n, "", 0, NULL), TOKENRING_OK);
    assert_int_equal(n, 0);
    /* the bytes hash like the raw key: "alice" */
    assert_int_equal(tokenring_hex_decode(b, sizeof b, &n, "616c696365", 10, NULL),
                     TOKENRING_OK);
    assert_true(tokenring_token(b, n) == tokenring_token("alice", 5));

    tokenring_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(tokenring_hex_decode(b, sizeof b, &n, "abc", 3, &err), TOKENRING_E_PARSE);
    assert_int_equal(err.column, 0);
    assert_string_equal(err.message, "expected an even number of hex digits");
    memset(&err, 0, sizeof err);
    assert_int_equal(tokenring_hex_decode(b, sizeof b, &n, "0x0g", 4, &err), TOKENRING_E_PARSE);
    assert_int_equal(err.column, 4);
    assert_string_equal(err.message, "expected a hex digit");
    /* the count is checked before the digits */
    assert_int_equal(tokenring_hex_decode(b, sizeof b, &n, "zzz", 3, &err), TOKENRING_E_PARSE);
    assert_int_equal(err.column, 0);
    /* a buffer too small reports the length and writes nothing */
    memset(b, 0xee, sizeof b);
    assert_int_equal(tokenring_hex_decode(b, 1, &n, "0102", 4, NULL), TOKENRING_E_BUFSIZE);
    assert_int_equal(n, 2);
    assert_int_equal(b[0], 0xee);
    assert_int_equal(tokenring_hex_decode(b, 1, NULL, "01", 2, NULL), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_hex_decode(NULL, 1, &n, "01", 2, NULL), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_hex_decode(b, 1, &n, NULL, 2, NULL), TOKENRING_E_INVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(type_names),
        cmocka_unit_test(encoders),
        cmocka_unit_test(every_cql_value_vector),
        cmocka_unit_test(every_composite_vector),
        cmocka_unit_test(empty_string_is_empty_value_for_every_type),
        cmocka_unit_test(integers),
        cmocka_unit_test(varints_and_decimals),
        cmocka_unit_test(floats_and_doubles),
        cmocka_unit_test(floats_ignore_the_locale),
        cmocka_unit_test(booleans_uuids_blobs_text),
        cmocka_unit_test(inets),
        cmocka_unit_test(dates),
        cmocka_unit_test(times),
        cmocka_unit_test(timestamps),
        cmocka_unit_test(value_parse_bad_arguments),
        cmocka_unit_test(composite_encode_bad_arguments),
        cmocka_unit_test(key_parse_forms),
        cmocka_unit_test(key_parse_component_too_long),
        cmocka_unit_test(malformed_and_out_of_range),
        cmocka_unit_test(values_match_encoders),
        cmocka_unit_test(keys),
        cmocka_unit_test(token_parse_forms),
        cmocka_unit_test(hex_decode_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
