/* SPDX-License-Identifier: Apache-2.0 */
/* Replication descriptions (replication.h): SimpleStrategy and NetworkTopologyStrategy
 * values and every documented error, the text forms (parse and format, errors at their
 * column), the factors of one datacenter (tokenring_replication_dc_factor), and the
 * option names of the CQL map that cannot name a datacenter. The release rules are
 * test_replication_rules.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"

static void replication_values_and_errors(void **state)
{
    (void)state;
    tokenring_replication *r = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_replication_simple(NULL, 3, 0, &err), TOKENRING_E_INVAL);
    assert_true(err.message[0] != '\0');
    /* 256 and above are accepted since 1.2 (TOKENRING_MAX_REPLICATION_FACTOR) */
    const int32_t bad[][2] = { { -1, 0 }, { INT32_MIN, 0 }, { 3, -1 }, { 3, 3 }, { 3, 4 }, { 0, 1 } };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(&err, 0, sizeof err);
        assert_int_equal(tokenring_replication_simple(&r, bad[i][0], bad[i][1], &err),
                         TOKENRING_E_RANGE);
        assert_null(r);
        assert_int_equal(err.code, TOKENRING_E_RANGE);
        assert_true(err.message[0] != '\0');
    }
    assert_int_equal(tokenring_replication_simple(&r, 255, 254, NULL), TOKENRING_OK);
    int32_t rf = -1, tr = -1;
    const char *dc = "x";
    assert_int_equal(tokenring_replication_get(&dc, &rf, &tr, r, 0), TOKENRING_OK);
    assert_null(dc);
    assert_int_equal(rf, 255);
    assert_int_equal(tr, 254);
    assert_int_equal(tokenring_replication_get(NULL, NULL, NULL, r, 1), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_replication_strategy(r), TOKENRING_SIMPLE);
    assert_int_equal(tokenring_replication_dc_count(r), 0);
    /* set_dc needs a NetworkTopologyStrategy description. */
    assert_int_equal(tokenring_replication_set_dc(r, "dc1", 3, 0, &err), TOKENRING_E_INVAL);
    assert_true(err.message[0] != '\0');
    tokenring_replication_free(r);
    r = NULL;

    assert_int_equal(tokenring_replication_network(NULL), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_replication_network(&r), TOKENRING_OK);
    assert_int_equal(tokenring_replication_strategy(r), TOKENRING_NETWORK_TOPOLOGY);
    assert_int_equal(tokenring_replication_set_dc(r, "dc2", 2, 1, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_replication_set_dc(r, "dc1", 3, 0, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_replication_set_dc(r, "dc0", 0, 0, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_replication_set_dc(r, "dc1", 5, 2, NULL), TOKENRING_OK);
    const char *bad_utf8 = "\xff";
    const struct { const char *dc; int32_t rf, tr; int code; } bads[] = {
        { NULL, 1, 0, TOKENRING_E_INVAL }, { "", 1, 0, TOKENRING_E_INVAL },
        { "\xff", 1, 0, TOKENRING_E_INVAL }, { "dc9", -1, 0, TOKENRING_E_RANGE },
        { "dc9", -256, 0, TOKENRING_E_RANGE }, { "dc9", 2, 2, TOKENRING_E_RANGE },
        { "dc9", 2, -1, TOKENRING_E_RANGE }, { "dc9", 0, 1, TOKENRING_E_RANGE },
        { "dc1", -300, 0, TOKENRING_E_RANGE }, /* 256, 300: accepted since 1.2 */
    };
    (void)bad_utf8;
    for (size_t i = 0; i < sizeof bads / sizeof bads[0]; i++) {
        memset(&err, 0, sizeof err);
        assert_int_equal(tokenring_replication_set_dc(r, bads[i].dc, bads[i].rf, bads[i].tr,
                                                      &err),
                         bads[i].code);
        assert_true(err.message[0] != '\0');
    }
    assert_int_equal(tokenring_replication_set_dc(NULL, "dc1", 1, 0, NULL), TOKENRING_E_INVAL);
    /* Unchanged by the failures; sorted by name. */
    assert_int_equal(tokenring_replication_dc_count(r), 3);
    const char *names_[] = { "dc0", "dc1", "dc2" };
    const int32_t rfs[] = { 0, 5, 2 }, trs[] = { 0, 2, 1 };
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(tokenring_replication_get(&dc, &rf, &tr, r, i), TOKENRING_OK);
        assert_string_equal(dc, names_[i]);
        assert_int_equal(rf, rfs[i]);
        assert_int_equal(tr, trs[i]);
    }
    assert_int_equal(tokenring_replication_get(&dc, &rf, &tr, r, 3), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_replication_get(&dc, &rf, &tr, NULL, 0), TOKENRING_E_INVAL);
    char buf[256];
    size_t len = 0;
    assert_int_equal(tokenring_replication_format(buf, sizeof buf, &len, r), TOKENRING_OK);
    assert_string_equal(buf, "{'class': 'NetworkTopologyStrategy', 'dc0': '0', 'dc1': '5/2', "
                             "'dc2': '2/1'}");
    assert_int_equal(len, strlen(buf));
    /* Too small: the needed length is reported. */
    char small[10];
    size_t need = 0;
    assert_int_equal(tokenring_replication_format(small, sizeof small, &need, r),
                     TOKENRING_E_BUFSIZE);
    assert_int_equal(need, len);
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_int_equal(tokenring_replication_format(NULL, 0, &need, r), TOKENRING_E_BUFSIZE);
    assert_int_equal(need, len);
    assert_int_equal(tokenring_replication_format(buf, sizeof buf, NULL, NULL), TOKENRING_E_INVAL);
    tokenring_replication_free(r);
    tokenring_replication_free(NULL);
    assert_int_equal(tokenring_replication_strategy(NULL), 0);
    assert_int_equal(tokenring_replication_dc_count(NULL), 0);
}

static void expect_parse(const char *text, int strategy, const char *formatted)
{
    tokenring_replication *r = NULL;
    tokenring_error err;
    int rc = tokenring_replication_parse(&r, text, strlen(text), &err);
    if (rc != TOKENRING_OK)
        fail_msg("parse(%s): %s", text, err.message);
    assert_int_equal(tokenring_replication_strategy(r), strategy);
    char buf[512];
    assert_int_equal(tokenring_replication_format(buf, sizeof buf, NULL, r), TOKENRING_OK);
    assert_string_equal(buf, formatted);
    /* The formatted text parses back to the same description. */
    tokenring_replication *again = NULL;
    assert_int_equal(tokenring_replication_parse(&again, buf, strlen(buf), NULL), TOKENRING_OK);
    char buf2[512];
    assert_int_equal(tokenring_replication_format(buf2, sizeof buf2, NULL, again), TOKENRING_OK);
    assert_string_equal(buf, buf2);
    tokenring_replication_free(again);
    tokenring_replication_free(r);
}

static void expect_parse_error(const char *text, int code, uint32_t column)
{
    tokenring_replication *r = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = tokenring_replication_parse(&r, text, strlen(text), &err);
    if (rc != code || err.column != column)
        fail_msg("parse(%s): %d at column %u (%s), expected %d at column %u", text, rc,
                 (unsigned)err.column, err.message, code, (unsigned)column);
    assert_null(r);
    assert_int_equal(err.code, code);
    assert_true(err.message[0] != '\0');
}

static void replication_text_forms(void **state)
{
    (void)state;
    const char *simple3 = "{'class': 'SimpleStrategy', 'replication_factor': '3'}";
    const char *nts = "{'class': 'NetworkTopologyStrategy', 'dc1': '3', 'dc2': '2/1'}";
    expect_parse("3", TOKENRING_SIMPLE, simple3);
    expect_parse("  3 ", TOKENRING_SIMPLE, simple3);
    expect_parse("SimpleStrategy:3", TOKENRING_SIMPLE, simple3);
    expect_parse("org.apache.cassandra.locator.SimpleStrategy : 3", TOKENRING_SIMPLE, simple3);
    expect_parse(simple3, TOKENRING_SIMPLE, simple3);
    expect_parse("{\"class\":\"SimpleStrategy\",\"replication_factor\":3}", TOKENRING_SIMPLE,
                 simple3);
    expect_parse("{'replication_factor': '3/1', 'class': "
                 "'org.apache.cassandra.locator.SimpleStrategy'}",
                 TOKENRING_SIMPLE, "{'class': 'SimpleStrategy', 'replication_factor': '3/1'}");
    expect_parse("dc2=2/1,dc1=3", TOKENRING_NETWORK_TOPOLOGY, nts);
    expect_parse(" dc1 = 3 , dc2 = 2/1 ", TOKENRING_NETWORK_TOPOLOGY, nts);
    expect_parse("NetworkTopologyStrategy:dc1=3,dc2=2/1", TOKENRING_NETWORK_TOPOLOGY, nts);
    expect_parse(nts, TOKENRING_NETWORK_TOPOLOGY, nts);
    expect_parse("{ 'class' : 'NetworkTopologyStrategy' , 'dc1' : 3 , 'dc2' : '2/1' }",
                 TOKENRING_NETWORK_TOPOLOGY, nts);
    expect_parse("NetworkTopologyStrategy:", TOKENRING_NETWORK_TOPOLOGY,
                 "{'class': 'NetworkTopologyStrategy'}");
    expect_parse("{'class': 'NetworkTopologyStrategy', 'it''s': '1', 'dc0': '0'}",
                 TOKENRING_NETWORK_TOPOLOGY,
                 "{'class': 'NetworkTopologyStrategy', 'dc0': '0', 'it''s': '1'}");

    expect_parse_error("", TOKENRING_E_PARSE, 1);
    expect_parse_error("   ", TOKENRING_E_PARSE, 4);
    expect_parse_error("abc", TOKENRING_E_PARSE, 1);
    expect_parse_error("3x", TOKENRING_E_PARSE, 2);
    expect_parse_error("3 /1", TOKENRING_E_PARSE, 2);
    expect_parse_error("3/", TOKENRING_E_PARSE, 3);
    expect_parse_error("3/3", TOKENRING_E_RANGE, 1);
    expect_parse_error("2147483648", TOKENRING_E_RANGE, 1); /* 256 is accepted since 1.2 */
    expect_parse_error("99999999999999999999", TOKENRING_E_RANGE, 1);
    expect_parse_error("SimpleStrategy:", TOKENRING_E_PARSE, 16);
    /* valid classes that place nothing on the ring: a status of their own (1.2) */
    expect_parse_error("LocalStrategy:3", TOKENRING_E_NOT_PLACED, 1);
    expect_parse_error("org.apache.cassandra.locator.EverywhereStrategy:", TOKENRING_E_NOT_PLACED,
                       1);
    expect_parse_error("OddStrategy:3", TOKENRING_E_PARSE, 1);
    expect_parse_error("dc1=", TOKENRING_E_PARSE, 5);
    expect_parse_error("dc1=3,", TOKENRING_E_PARSE, 7);
    expect_parse_error("dc1=3,,dc2=1", TOKENRING_E_PARSE, 7);
    expect_parse_error("=3", TOKENRING_E_PARSE, 1);
    expect_parse_error("dc1=3,dc1=2", TOKENRING_E_PARSE, 7);
    expect_parse_error("dc1=3,dc2=-1", TOKENRING_E_PARSE, 11);
    expect_parse_error("dc1=3,dc2=2147483648", TOKENRING_E_RANGE, 11);
    expect_parse_error("dc1=3,dc2=2/2", TOKENRING_E_RANGE, 11);
    expect_parse_error("{'class': 'SimpleStrategy'}", TOKENRING_E_PARSE, 1);
    expect_parse_error("{'replication_factor': '3'}", TOKENRING_E_PARSE, 1);
    expect_parse_error("{'class': 'LocalStrategy'}", TOKENRING_E_NOT_PLACED, 11);
    expect_parse_error("{'class': 'org.apache.cassandra.locator.EverywhereStrategy'}",
                       TOKENRING_E_NOT_PLACED, 11);
    expect_parse_error("{'class': 'MetaStrategy'}", TOKENRING_E_NOT_PLACED, 11);
    expect_parse_error("{'class': 'OddStrategy'}", TOKENRING_E_PARSE, 11);
    expect_parse_error("{'class': 'SimpleStrategy', 'replication_factor': '3', 'dc1': '2'}",
                       TOKENRING_E_PARSE, 56);
    expect_parse_error("{'class': 'SimpleStrategy', 'replication_factor': '3x'}",
                       TOKENRING_E_PARSE, 53);
    expect_parse_error("{'class': 'SimpleStrategy', 'replication_factor': '2147483648'}",
                       TOKENRING_E_RANGE, 52);
    expect_parse_error("{'class': 'NetworkTopologyStrategy', 'replication_factor': '3'}",
                       TOKENRING_E_PARSE, 38);
    expect_parse_error("{'class': 'NetworkTopologyStrategy', 'dc1': '3', 'dc1': '2'}",
                       TOKENRING_E_PARSE, 50);
    expect_parse_error("{'class': 'SimpleStrategy", TOKENRING_E_PARSE, 11);
    expect_parse_error("{'class' 'SimpleStrategy'}", TOKENRING_E_PARSE, 10);
    expect_parse_error("{'class': 'SimpleStrategy', 'replication_factor': '3'} x",
                       TOKENRING_E_PARSE, 56);
    expect_parse_error("{'class': 'SimpleStrategy' 'replication_factor': '3'}",
                       TOKENRING_E_PARSE, 28);
    expect_parse_error("{'class': 'NetworkTopologyStrategy', '': '3'}", TOKENRING_E_INVAL, 38);

    tokenring_replication *r = NULL;
    assert_int_equal(tokenring_replication_parse(NULL, "3", 1, NULL), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_replication_parse(&r, NULL, 1, NULL), TOKENRING_E_INVAL);
    /* text_len is honoured: the text need not be NUL-terminated. */
    assert_int_equal(tokenring_replication_parse(&r, "37", 1, NULL), TOKENRING_OK);
    int32_t rf;
    assert_int_equal(tokenring_replication_get(NULL, &rf, NULL, r, 0), TOKENRING_OK);
    assert_int_equal(rf, 3);
    tokenring_replication_free(r);
}

static void replication_dc_factor(void **state)
{
    (void)state;
    tokenring_replication *r;
    assert_int_equal(tokenring_replication_parse(&r, "dc1=3/1,dc2=2", 13, NULL), TOKENRING_OK);
    int32_t rf = -1, tr = -1;
    assert_int_equal(tokenring_replication_dc_factor(&rf, &tr, r, "dc1"), TOKENRING_OK);
    assert_int_equal(rf, 3);
    assert_int_equal(tr, 1);
    assert_int_equal(tokenring_replication_dc_factor(&rf, &tr, r, "dc2"), TOKENRING_OK);
    assert_int_equal(rf, 2);
    assert_int_equal(tr, 0);
    assert_int_equal(tokenring_replication_dc_factor(&rf, NULL, r, "dc3"), TOKENRING_OK);
    assert_int_equal(rf, 0); /* no replica there */
    rf = 7;
    assert_int_equal(tokenring_replication_dc_factor(&rf, NULL, r, NULL), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_replication_dc_factor(NULL, NULL, r, "dc1"), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_replication_dc_factor(&rf, NULL, NULL, "dc1"), TOKENRING_E_INVAL);
    assert_int_equal(rf, 7); /* untouched on error */
    tokenring_replication_free(r);
    assert_int_equal(tokenring_replication_simple(&r, 2, 1, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_replication_dc_factor(&rf, &tr, r, "anywhere"), TOKENRING_OK);
    assert_int_equal(rf, 2);
    assert_int_equal(tr, 1);
    tokenring_replication_free(r);
}

/* A fuzz-found bug, fixed: the input is also in fuzz/corpus/replication/ and replayed by
 * the fuzz suite. */

/* Format then parse again must give the same text. */
static void round_trips(const tokenring_replication *r)
{
    char a[1024], b[1024];
    size_t la = 0, lb = 0;
    assert_int_equal(tokenring_replication_format(a, sizeof a, &la, r), TOKENRING_OK);
    tokenring_replication *again = NULL;
    tokenring_error err;
    int rc = tokenring_replication_parse(&again, a, la, &err);
    if (rc != TOKENRING_OK)
        fail_msg("'%s' does not parse back: %s", a, err.message);
    assert_int_equal(tokenring_replication_format(b, sizeof b, &lb, again), TOKENRING_OK);
    assert_string_equal(a, b);
    tokenring_replication_free(again);
}

/* fuzz/corpus/replication/crash-4f832ca6...: the bare form "x=0,class=1" made a
 * datacenter called 'class', which formats as a CQL map with 'class' twice. A datacenter
 * may not be called 'class' or 'replication_factor' (the map's option keys). */
static void replication_option_names_are_not_datacenters(void **state)
{
    (void)state;
    static const char *bad[] = {
        "x=0,class=1",
        "class=3",
        "NetworkTopologyStrategy:dc1=3,replication_factor=2",
        "ccla\x4e\x65      ator.Netw           \t=0,.c1=3,class=1,.08=0",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        tokenring_replication *r = (tokenring_replication *)&r; /* must stay untouched */
        tokenring_replication *keep = r;
        tokenring_error err;
        int rc = tokenring_replication_parse(&r, bad[i], strlen(bad[i]), &err);
        assert_int_equal(rc, TOKENRING_E_INVAL);
        assert_ptr_equal(r, keep);
        assert_non_null(strstr(err.message, "cannot name a datacenter"));
        assert_int_equal(err.line, 1);
        assert_true(err.column >= 1);
    }
    tokenring_replication *r = NULL;
    assert_int_equal(tokenring_replication_network(&r), TOKENRING_OK);
    assert_int_equal(tokenring_replication_set_dc(r, "class", 1, 0, NULL), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_replication_set_dc(r, "replication_factor", 1, 0, NULL),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_replication_dc_count(r), 0);
    /* names that merely look like them, and names with quotes, still work and round-trip */
    static const char *good[] = { "Class", "class ", "classes", "it's", "say \"hi\"", "a,b=c",
                                  "{'x'}", " lead" };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        assert_int_equal(tokenring_replication_set_dc(r, good[i], (int32_t)i, 0, NULL),
                         TOKENRING_OK);
    assert_int_equal(tokenring_replication_dc_count(r), sizeof good / sizeof *good);
    round_trips(r);
    tokenring_replication_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(replication_values_and_errors),
        cmocka_unit_test(replication_text_forms),
        cmocka_unit_test(replication_dc_factor),
        cmocka_unit_test(replication_option_names_are_not_datacenters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
