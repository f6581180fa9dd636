/* SPDX-License-Identifier: Apache-2.0 */
/* String forms of CQL values and keys (key.h) beyond the golden vectors: every malformed
 * or out-of-range form gets its code and a message, and valid but unusual forms (zones,
 * signs, exponents, Julian dates, hex floats) give the bytes the encode_* functions or a
 * hand computation give. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "tokenring/tokenring.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(malformed_and_out_of_range),
        cmocka_unit_test(values_match_encoders),
        cmocka_unit_test(keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
