/* SPDX-License-Identifier: Apache-2.0 */
/* Error paths and less common layouts of the nodetool ring/status and cqlsh parsers
 * (parse.h) that the sample-driven tests in test_parse.c do not reach: each bad input
 * gets its documented status code, a message naming the problem, and leaves the cluster
 * empty; each odd-but-valid layout (tabs, trailing blanks, "(1 row)" footers, long fields)
 * parses to the expected nodes and tokens. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"

#define RING TOKENRING_INPUT_NODETOOL_RING
#define STATUS TOKENRING_INPUT_NODETOOL_STATUS
#define CQLSH TOKENRING_INPUT_CQLSH

typedef struct {
    int format;
    const char *text;
    int code;
    const char *want; /* substring of the message */
} bad_case;

static void expect_failures(const bad_case *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        tokenring_cluster *c = NULL;
        assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
        tokenring_error err;
        memset(&err, 0, sizeof err);
        int rc = tokenring_cluster_parse(c, cases[i].format, cases[i].text,
                                         strlen(cases[i].text), 0, NULL, &err);
        if (rc != cases[i].code || strstr(err.message, cases[i].want) == NULL)
            fail_msg("case %zu:\n%s\nwant %s '%s'\ngot  %s '%s' at %u:%u", i, cases[i].text,
                     tokenring_status_name(cases[i].code), cases[i].want,
                     tokenring_status_name(rc), err.message, err.line, err.column);
        assert_int_equal(err.code, rc);
        assert_true(err.message[0] != '\0');
        assert_true(err.line >= 1);
        assert_int_equal(tokenring_cluster_node_count(c), 0);
        tokenring_cluster_free(c);
    }
}

static tokenring_cluster *parse_ok(int format, const char *text, uint32_t flags)
{
    tokenring_cluster *c = NULL;
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = tokenring_cluster_parse(c, format, text, strlen(text), flags, NULL, &err);
    if (rc != TOKENRING_OK)
        fail_msg("%s\nfailed: %s '%s' at %u:%u", text, tokenring_status_name(rc), err.message,
                 err.line, err.column);
    return c;
}

static void node_is(const tokenring_cluster *c, size_t i, const char *name, const char *dc,
                    const char *rack, size_t ntok)
{
    tokenring_cluster_node_info n;
    assert_int_equal(tokenring_cluster_node(&n, c, i), TOKENRING_OK);
    assert_string_equal(n.name, name);
    assert_string_equal(n.datacenter, dc);
    assert_string_equal(n.rack, rack);
    assert_int_equal(n.token_count, ntok);
}

#define LONG41 "abcdefghijabcdefghijabcdefghijabcdefghijX"

/* ------------------------------------------------------------- nodetool ring */

#define RHDR "Datacenter: dc1\n==========\nAddress  Rack  Status State   Load   Owns   Token\n"

static void ring_bad_inputs(void **state)
{
    (void)state;
    static const bad_case cases[] = {
        /* a token outside int64, and one that is not a number */
        { RING, RHDR "1.2.3.4  r1  Up  Normal  1 KiB  ?  9223372036854775808\n",
          TOKENRING_E_RANGE, "outside the signed 64-bit range" },
        { RING, RHDR "1.2.3.4  r1  Up  Normal  1 KiB  ?  " LONG41 "\n", TOKENRING_E_PARSE,
          "token" },
        /* a header before any Datacenter line, and a second header */
        { RING, "Address  Rack  Status State   Load   Owns   Token\n", TOKENRING_E_PARSE, "" },
        { RING, RHDR "Address  Rack  Status State   Load   Owns   Token\n", TOKENRING_E_PARSE,
          "second header" },
        /* the wrap-around token line after rows, and a bad wrap-around token */
        { RING, RHDR "1.2.3.4  r1  Up  Normal  1 KiB  ?  5\n                  7\n",
          TOKENRING_E_PARSE, "" },
        { RING, RHDR "                  x7\n", TOKENRING_E_PARSE, "" },
        /* Owns that is not a percentage */
        { RING, RHDR "1.2.3.4  r1  Up  Normal  1 KiB  12a%  5\n", TOKENRING_E_PARSE, "Owns" },
        { RING, RHDR "1.2.3.4  r1  Up  Normal  1 KiB  " LONG41 "  5\n", TOKENRING_E_PARSE,
          "Owns" },
        /* bad status and state words, long ones are cut in the message */
        { RING, RHDR "1.2.3.4  r1  " LONG41 "  Normal  1 KiB  ?  5\n", TOKENRING_E_PARSE,
          "abcdefghij" },
        { RING, RHDR "1.2.3.4  r1  Up  " LONG41 "  1 KiB  ?  5\n", TOKENRING_E_PARSE,
          "expected state" },
        /* the same node with two different states */
        { RING, RHDR "1.2.3.4  r1  Up  Normal  1 KiB  ?  5\n1.2.3.4  r1  Up  Leaving  1 KiB  ?  6\n",
          TOKENRING_E_PARSE, "" },
        /* a Datacenter without a header */
        { RING, "Datacenter: dc1\n==========\n\nDatacenter: dc2\n", TOKENRING_E_PARSE, "header" },
        { RING, "Datacenter: dc1\n", TOKENRING_E_PARSE, "header" },
        /* an '=' line out of place */
        { RING, RHDR "==========\n", TOKENRING_E_PARSE, "" },
        /* too many fields */
        { RING, RHDR "1.2.3.4 r1 Up Normal 1 KiB ? 5 a b c d e f g h i j k l m n o p q r s\n",
          TOKENRING_E_PARSE, "" },
        { RING, "", TOKENRING_E_PARSE, "" },
    };
    expect_failures(cases, sizeof cases / sizeof *cases);
}

static void ring_layouts(void **state)
{
    (void)state;
    /* tabs, trailing blanks, the wrap-around line first */
    tokenring_cluster *c = parse_ok(RING,
                                    "Datacenter: dc1  \n==========\n"
                                    "Address\tRack\tStatus\tState\tLoad\tOwns\tToken\t\n"
                                    "\t\t\t\t\t\t9\n"
                                    "1.2.3.4\tr1\tUp\tNormal\t1 KiB\t33.3%\t-5 \t\n"
                                    "1.2.3.5\tr1\tDown\tLeaving\t?\t1,5%\t9\t\n",
                                    0);
    assert_int_equal(tokenring_cluster_node_count(c), 2);
    node_is(c, 0, "1.2.3.4", "dc1", "r1", 1);
    node_is(c, 1, "1.2.3.5", "dc1", "r1", 1);
    tokenring_cluster_node_info n;
    assert_int_equal(tokenring_cluster_node(&n, c, 1), TOKENRING_OK);
    assert_int_equal(n.state, TOKENRING_STATE_LEAVING);
    assert_int_equal(n.liveness, TOKENRING_DOWN);
    tokenring_cluster_free(c);
}

/* ----------------------------------------------------------- nodetool status */

#define SHDR "Datacenter: dc1\n===\nStatus=Up/Down\n|/ State=Normal/Leaving/Joining/Moving\n"
#define SCOLS "--  Address  Load  Tokens  Owns  Host ID  Rack\n"

static void status_bad_inputs(void **state)
{
    (void)state;
    static const bad_case cases[] = {
        { STATUS, SHDR "--  Address  Load  Colour  Rack\n", TOKENRING_E_PARSE,
          "unknown status column 'Colour'" },
        { STATUS, SHDR "--  Address  Load  " LONG41 "  Rack\n", TOKENRING_E_PARSE,
          "unknown status column" },
        { STATUS,
          SHDR "--  Address  Load  Load  Load  Load  Load  Load  Load  Load  Load  Rack\n",
          TOKENRING_E_PARSE, "too many columns" },
        { STATUS, SHDR "--  Load  Address  Rack\n", TOKENRING_E_PARSE, "status header" },
        { STATUS, SHDR "--  Address  Load\n", TOKENRING_E_PARSE, "status header" },
        { STATUS, SHDR "--  Address  Rack  Load\n", TOKENRING_E_PARSE, "status header" },
        { STATUS, "UN  1.2.3.4  1 KiB  1  ?  h  r1\n", TOKENRING_E_PARSE, "Datacenter" },
        { STATUS, SHDR "===\n", TOKENRING_E_PARSE, "unexpected '=' line" },
        { STATUS, SHDR "UN  1.2.3.4  1 KiB  1  ?  h  r1\n", TOKENRING_E_PARSE,
          "'--  Address ... Rack' header" },
        { STATUS, SHDR SCOLS "Error: Keyspace ks does not exist\n", TOKENRING_E_PARSE,
          "nodetool reported an error" },
        { STATUS, SHDR SCOLS "UNN  1.2.3.4  1 KiB  1  ?  h  r1\n", TOKENRING_E_PARSE,
          "U/D/?" },
        { STATUS, SHDR SCOLS "XN  1.2.3.4  1 KiB  1  ?  h  r1\n", TOKENRING_E_PARSE, "U/D/?" },
        { STATUS, SHDR SCOLS "UX  1.2.3.4  1 KiB  1  ?  h  r1\n", TOKENRING_E_PARSE, "U/D/?" },
        { STATUS, SHDR SCOLS LONG41 "  1.2.3.4  1 KiB  1  ?  h  r1\n", TOKENRING_E_PARSE,
          "U/D/?" },
        { STATUS, SHDR SCOLS "UN  1.2.3.4  1 KiB  1\n", TOKENRING_E_PARSE, "ends early" },
        { STATUS, SHDR SCOLS "UN  1.2.3.4  1 KiB  -1  ?  h  r1\n", TOKENRING_E_PARSE,
          "token count" },
        { STATUS, SHDR SCOLS "UN  1.2.3.4  1 KiB  65537  ?  h  r1\n", TOKENRING_E_PARSE,
          "token count" },
        { STATUS, SHDR SCOLS "UN  1.2.3.4  1 KiB  " LONG41 "  ?  h  r1\n", TOKENRING_E_PARSE,
          "token count" },
        { STATUS, SHDR SCOLS "UN  1.2.3.4  1 KiB  1  most  h  r1\n", TOKENRING_E_PARSE,
          "Owns" },
        { STATUS, SHDR SCOLS "UN  1.2.3.4  1 KiB  1  " LONG41 "%  h  r1\n", TOKENRING_E_PARSE,
          "Owns" },
        { STATUS, SHDR SCOLS "UN  1.2.3.4  1 KiB  1  ?  h  r1  extra\n", TOKENRING_E_PARSE,
          "after the Rack column" },
        { STATUS, SHDR SCOLS "UN  1.2.3.4  1 KiB  1  ?  h  r1  " LONG41 "\n",
          TOKENRING_E_PARSE, "after the Rack column" },
        { STATUS, SHDR SCOLS "UN  1.2.3.4  1 KiB  1  ?  h  r1\nUN  1.2.3.4  1 KiB  1  ?  h  r1\n",
          TOKENRING_E_EXISTS, "listed twice" },
        { STATUS, SHDR "--  Address  Load  Token  Rack\nUN  1.2.3.4  1 KiB  99999999999999999999  r1\n",
          TOKENRING_E_RANGE, "outside the signed 64-bit range" },
        { STATUS, SHDR "--  Address  Load  Token  Rack\nUN  1.2.3.4  1 KiB  " LONG41 "  r1\n",
          TOKENRING_E_PARSE, "token" },
        { STATUS, SHDR "--  Address  Load  Token  Rack\nUN  1.2.3.4  1 KiB  5  r1\n"
                  "UN  1.2.3.5  1 KiB  5  r1\n",
          TOKENRING_E_EXISTS, "" },
        { STATUS, "\n  \n", TOKENRING_E_PARSE, "Datacenter" },
        { STATUS, SHDR SCOLS "UN 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24\n",
          TOKENRING_E_PARSE, "" },
    };
    expect_failures(cases, sizeof cases / sizeof *cases);
}

static void status_layouts(void **state)
{
    (void)state;
    /* every liveness and state letter, '?' load and host id, a Token column, tabs */
    tokenring_cluster *c = parse_ok(STATUS,
                                    SHDR "--  Address  Load  Owns (effective)  Host ID  Token  Rack\n"
                                         "UN  1.2.3.1  ?  ?  ?  1  r1\n"
                                         "DJ  1.2.3.2  5 KiB  10%  null  2  r1\n"
                                         "?L  1.2.3.3  7  1.5%  abc-def  3  r2\n"
                                         "UM\t1.2.3.4\t1 MiB\t2,5%\th4\t4\tr2\t\n",
                                    0);
    assert_int_equal(tokenring_cluster_node_count(c), 4);
    static const int32_t st[] = { TOKENRING_STATE_NORMAL, TOKENRING_STATE_JOINING,
                                  TOKENRING_STATE_LEAVING, TOKENRING_STATE_MOVING };
    static const int32_t lv[] = { TOKENRING_UP, TOKENRING_DOWN, TOKENRING_UNKNOWN, TOKENRING_UP };
    for (size_t i = 0; i < 4; i++) {
        tokenring_cluster_node_info n;
        assert_int_equal(tokenring_cluster_node(&n, c, i), TOKENRING_OK);
        assert_int_equal(n.token_count, 1);
        assert_int_equal(n.tokens[0], (int64_t)i + 1);
        assert_int_equal(n.state, st[i]);
        assert_int_equal(n.liveness, lv[i]);
        if (i < 2)
            assert_null(n.host_id);
        else
            assert_non_null(n.host_id);
    }
    tokenring_cluster_free(c);

    /* Tokens column: the count is declared, the tokens stay unknown */
    c = parse_ok(STATUS, SHDR SCOLS "UN  1.2.3.1  1 KiB  16  ?  ?  r1\n", 0);
    tokenring_cluster_node_info n;
    assert_int_equal(tokenring_cluster_node(&n, c, 0), TOKENRING_OK);
    assert_int_equal(n.token_count, 0);
    assert_int_equal(n.declared_tokens, 16);
    tokenring_cluster_free(c);
}

/* ---------------------------------------------------------------------- cqlsh */

#define CHDR " peer | data_center | rack | tokens\n------+-------------+------+-------\n"

static void cqlsh_bad_inputs(void **state)
{
    (void)state;
    static const bad_case cases[] = {
        { CQLSH, CHDR " a | dc1 | r1 | {'99999999999999999999'}\n", TOKENRING_E_RANGE,
          "outside the signed 64-bit range" },
        { CQLSH, CHDR " a | dc1 | r1 | {'" LONG41 "'}\n", TOKENRING_E_PARSE, "token" },
        { CQLSH, CHDR " a | dc1 | r1 | {'5'\n", TOKENRING_E_PARSE, "" },
        { CQLSH, CHDR " a | dc1 | r1 | {'5\n", TOKENRING_E_PARSE, "" },
        { CQLSH, CHDR " a | dc1 | r1 | " LONG41 "\n", TOKENRING_E_PARSE, "" },
        { CQLSH, CHDR " null | dc1 | r1 | {'5'}\n", TOKENRING_E_PARSE, "" },
        { CQLSH, CHDR "  | dc1 | r1 | {'5'}\n", TOKENRING_E_PARSE, "" },
        { CQLSH, CHDR " a | null | r1 | {'5'}\n", TOKENRING_E_PARSE, "" },
        { CQLSH, CHDR " a | dc1 | null | {'5'}\n", TOKENRING_E_PARSE, "" },
        { CQLSH, CHDR " a | dc1 | r1 | {'5'}\n a | dc1 | r1 | {'6'}\n", TOKENRING_E_EXISTS, "" },
        { CQLSH, CHDR " a | dc1 | r1 | {'5'}\n b | dc1 | r1 | {'5'}\n", TOKENRING_E_EXISTS, "" },
        { CQLSH, CHDR " a | dc1 | r1\n", TOKENRING_E_PARSE, "" },
        { CQLSH, CHDR " a\n", TOKENRING_E_PARSE, "" },
        { CQLSH, " peer | data_center | rack | tokens\n", TOKENRING_E_PARSE, "" },
        { CQLSH, " peer | rack | tokens\n------+------+-------\n a | r1 | {'5'}\n",
          TOKENRING_E_PARSE, "data_center" },
        { CQLSH, " peer | data_center | tokens\n------+------+-------\n a | d | {'5'}\n",
          TOKENRING_E_PARSE, "" },
        { CQLSH, CHDR " a | dc1 | r1 | {'5'}\n(1 rows\n", TOKENRING_E_PARSE, "" },
        { CQLSH, "\n\n", TOKENRING_E_PARSE, "" },
        { CQLSH, "x|y\n", TOKENRING_E_PARSE, "" },
        { CQLSH, "a|b|c|d|e|f|g|h|i|j|k|l|m|n|o|p|q|r|s|t|u|v|w|x|y|z|a|b|c|d|e|f|g|h|i|j|k|l\n"
                 "-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-\n",
          TOKENRING_E_PARSE, "" },
        { CQLSH, CHDR " a | dc1 | r1 | {'5'}\n(1 row)\n b | dc1 | r1 | {'6'}\n",
          TOKENRING_E_PARSE, "" },
    };
    expect_failures(cases, sizeof cases / sizeof *cases);
}

static void cqlsh_layouts(void **state)
{
    (void)state;
    /* tabs around cells, an empty token set, "(1 row)" and "(2 rows)" footers, a warnings
     * line, two tables */
    tokenring_cluster *c = parse_ok(CQLSH,
                                    " peer | data_center | rack | tokens\n"
                                    "------+-------------+------+-------\n"
                                    "\ta\t|\tdc1\t| r1 | {'5', '-7'}\t\n"
                                    "\n(1 row)\n\n"
                                    "Warnings :\n  Warning: an aggregation query\n\n"
                                    " peer | data_center | rack | tokens\n"
                                    "------+-------------+------+-------\n"
                                    " b | dc1 | r2 | {'6'}\n"
                                    " c | dc1 | r2 | {'8'}\n"
                                    "\n(2 rows)\n",
                                    0);
    assert_int_equal(tokenring_cluster_node_count(c), 3);
    node_is(c, 0, "a", "dc1", "r1", 2);
    node_is(c, 1, "b", "dc1", "r2", 1);
    node_is(c, 2, "c", "dc1", "r2", 1);
    tokenring_cluster_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ring_bad_inputs),   cmocka_unit_test(ring_layouts),
        cmocka_unit_test(status_bad_inputs), cmocka_unit_test(status_layouts),
        cmocka_unit_test(cqlsh_bad_inputs),  cmocka_unit_test(cqlsh_layouts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
