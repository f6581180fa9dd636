/* SPDX-License-Identifier: Apache-2.0 */
/* Inputs of RandomPartitioner and ByteOrderedPartitioner clusters (parse.h): which
 * partitioner an input's tokens are read in (named by the input, fixed by the caller, or
 * read from the tokens), the tokens each format gives, the topology file's partitioner line
 * and its round trip, merging, and refusals that leave the cluster as it was. The inputs
 * captured from real clusters are checked in test_parse_captured.c and by the live stage. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"

#define TWO127 "170141183460469231731687303715884105728"

static int parse(tokenring_cluster *c, int fmt, const char *text, tokenring_error *err)
{
    memset(err, 0, sizeof *err);
    return tokenring_cluster_parse(c, fmt, text, strlen(text), 0, NULL, err);
}

static tokenring_cluster *parse_ok(int fmt, const char *text)
{
    tokenring_cluster *c = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    if (parse(c, fmt, text, &err) != TOKENRING_OK)
        fail_msg("parse failed at %u:%u: %s\n%s", err.line, err.column, err.message, text);
    return c;
}

/* The text must fail with code at line:col with want in the message, on a new cluster. */
static void fails(int fmt, const char *text, int code, uint32_t line, uint32_t col,
                  const char *want)
{
    tokenring_cluster *c = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    int rc = parse(c, fmt, text, &err);
    if (rc != code || (line && (err.line != line || err.column != col)) ||
        !strstr(err.message, want))
        fail_msg("%s\nwant %d at %u:%u '%s'\ngot  %d at %u:%u '%s'", text, code, line, col,
                 want, rc, err.line, err.column, err.message);
    assert_int_equal(tokenring_cluster_node_count(c), 0);
    assert_int_equal(tokenring_cluster_partitioner(c), TOKENRING_PARTITIONER_MURMUR3);
    tokenring_cluster_free(c);
}

static char *format(const tokenring_cluster *c)
{
    size_t len = 0;
    int rc = tokenring_cluster_format(NULL, 0, &len, c);
    assert_true(rc == TOKENRING_E_BUFSIZE || rc == TOKENRING_OK);
    char *buf = malloc(len + 1);
    assert_non_null(buf);
    assert_int_equal(tokenring_cluster_format(buf, len + 1, &len, c), TOKENRING_OK);
    return buf;
}

/* Token k of node i of the cluster's topology, as TokenFactory.toString writes it. */
static const char *tok(const tokenring_cluster *c, size_t i, size_t k, char *buf, size_t cap)
{
    const tokenring_topology *t = tokenring_cluster_topology(c);
    assert_non_null(t);
    size_t len;
    if (tokenring_topology_partitioner(t) == TOKENRING_PARTITIONER_RANDOM) {
        tokenring_token128 v;
        assert_int_equal(tokenring_topology_node_token128(&v, t, i, k), TOKENRING_OK);
        assert_int_equal(tokenring_token128_format(buf, cap, &len, v), TOKENRING_OK);
    } else {
        const uint8_t *b;
        size_t n;
        assert_int_equal(tokenring_topology_node_token_bytes(&b, &n, t, i, k), TOKENRING_OK);
        assert_int_equal(tokenring_byte_token_format(buf, cap, &len, b, n), TOKENRING_OK);
    }
    return buf;
}

/* Node i's tokens, comma-separated, in ascending order. */
static void expect_tokens(const tokenring_cluster *c, size_t i, const char *want)
{
    char got[1024] = "", buf[256];
    tokenring_node_info info;
    assert_int_equal(tokenring_topology_node(&info, tokenring_cluster_topology(c), i),
                     TOKENRING_OK);
    for (size_t k = 0; k < info.token_count; k++) {
        if (k)
            strcat(got, ",");
        strcat(got, tok(c, i, k, buf, sizeof buf));
    }
    if (strcmp(got, want) != 0)
        fail_msg("node %zu: tokens %s, want %s", i, got, want);
    /* the cluster's own view has no int64 tokens for these partitioners */
    tokenring_cluster_node_info ci;
    assert_int_equal(tokenring_cluster_node(&ci, c, i), TOKENRING_OK);
    assert_null(ci.tokens);
    assert_int_equal(ci.token_count, 0);
    assert_int_equal(ci.declared_tokens, info.token_count);
}

static void test_read_from_the_tokens(void **state)
{
    (void)state;
    /* every token a signed 64-bit decimal: Murmur3, as before */
    tokenring_cluster *c = parse_ok(0, "node a dc=d rack=r tokens=5,-7\n");
    assert_int_equal(tokenring_cluster_partitioner(c), TOKENRING_PARTITIONER_MURMUR3);
    tokenring_cluster_free(c);
    /* a decimal above 2^63 - 1: RandomPartitioner, the small ones too */
    c = parse_ok(0, "node a dc=d rack=r tokens=9223372036854775808,5\n"
                    "node b dc=d rack=r tokens=" TWO127 ",0\n");
    assert_int_equal(tokenring_cluster_partitioner(c), TOKENRING_PARTITIONER_RANDOM);
    expect_tokens(c, 0, "5,9223372036854775808");
    expect_tokens(c, 1, "0," TWO127);
    tokenring_cluster_free(c);
    /* a hex letter: ByteOrderedPartitioner (odd digit counts get a leading 0) */
    c = parse_ok(0, "node a dc=d rack=r tokens=0a,FF01,123\nnode b dc=d rack=r tokens=41\n");
    assert_int_equal(tokenring_cluster_partitioner(c), TOKENRING_PARTITIONER_BYTE_ORDERED);
    expect_tokens(c, 0, "0123,0a,ff01");
    expect_tokens(c, 1, "41");
    tokenring_cluster_free(c);
    /* no partitioner fits: Murmur3's error (a negative below -2^63 is no other's token,
     * and digits alone are not read as hex unless the partitioner is named) */
    fails(0, "node a dc=d rack=r tokens=-9223372036854775809\n", TOKENRING_E_RANGE, 1, 27,
          "outside the signed 64-bit range");
    fails(0, "node a dc=d rack=r tokens=170141183460469231731687303715884105729\n",
          TOKENRING_E_RANGE, 1, 27, "outside the signed 64-bit range");
    fails(0, "node a dc=d rack=r tokens=5,-1,9223372036854775808\n", TOKENRING_E_RANGE, 1,
          32, "outside the signed 64-bit range");
    fails(0, "node a dc=d rack=r tokens=0x10\n", TOKENRING_E_PARSE, 1, 27,
          "expected a token (a signed 64-bit integer)");
}

static void test_detection(void **state)
{
    (void)state;
    /* a topology file whose first 41 lines are comments is still one */
    char text[4096] = "";
    for (int i = 0; i < 41; i++)
        strcat(text, "# a comment\n");
    strcat(text, "node a dc=d rack=r tokens=1,2\n");
    assert_int_equal(tokenring_input_detect(text, strlen(text)), TOKENRING_INPUT_TOPOLOGY);
    assert_int_equal(tokenring_input_detect("# nothing yet\n", 14), TOKENRING_INPUT_TOPOLOGY);
    assert_int_equal(tokenring_input_detect("# c\nnode\tdc\track\ttokens\n", strlen("# c\nnode\tdc\track\ttokens\n")),
                     TOKENRING_INPUT_TSV);
    assert_int_equal(tokenring_input_detect(" partitioner\n-------------\n x\n", strlen(" partitioner\n-------------\n x\n")),
                     TOKENRING_INPUT_CQLSH);
    /* a mistyped decimal token: Murmur3's error, not a ring of bytes gone wrong */
    const char *dr =
        "TokenRange: \n"
        "\tTokenRange(start_token:10, end_token:5, endpoints:[a], rpc_endpoints:[a], "
        "endpoint_details:[EndpointDetails(host:a, datacenter:d, rack:r)])\n"
        "\tTokenRange(start_token:5, end_token:99999999999999999999999999999999999999999999, "
        "endpoints:[a], rpc_endpoints:[a], "
        "endpoint_details:[EndpointDetails(host:a, datacenter:d, rack:r)])\n";
    fails(TOKENRING_INPUT_AUTO, dr, TOKENRING_E_RANGE, 0, 0, "outside -9223372036854775808");
    fails(0, "node a dc=d rack=r tokens=99999999999999999999999999999999999999999999\n"
             "node b dc=d rack=r bogus=2\n",
          TOKENRING_E_RANGE, 1, 27, "outside the signed 64-bit range");
}

static void test_partitioner_line(void **state)
{
    (void)state;
    /* named: small decimals are RandomPartitioner tokens, digits are hex */
    tokenring_cluster *c = parse_ok(0, "# a comment\npartitioner RandomPartitioner\n"
                                       "node a dc=d rack=r tokens=10,20\n");
    assert_int_equal(tokenring_cluster_partitioner(c), TOKENRING_PARTITIONER_RANDOM);
    expect_tokens(c, 0, "10,20");
    char *text = format(c);
    assert_non_null(strstr(text, "partitioner org.apache.cassandra.dht.RandomPartitioner\n"));
    tokenring_cluster *back = parse_ok(0, text);
    assert_int_equal(tokenring_cluster_partitioner(back), TOKENRING_PARTITIONER_RANDOM);
    expect_tokens(back, 0, "10,20");
    char *again = format(back);
    assert_string_equal(text, again);
    free(text);
    free(again);
    tokenring_cluster_free(back);
    /* the named partitioner refuses another's token, and the cluster stays as it was */
    tokenring_error err;
    assert_int_equal(parse(c, 0, "node b dc=d rack=r tokens=-5\n", &err), TOKENRING_E_RANGE);
    assert_non_null(strstr(err.message, "outside 0..2^127 (RandomPartitioner)"));
    assert_int_equal(tokenring_cluster_node_count(c), 1);
    tokenring_cluster_free(c);

    c = parse_ok(0, "partitioner org.apache.cassandra.dht.ByteOrderedPartitioner\n"
                    "node a dc=d rack=r tokens=10,20\n");
    expect_tokens(c, 0, "10,20");
    text = format(c);
    assert_non_null(strstr(text, "ByteOrderedPartitioner\nnode a dc=d rack=r tokens=10,20\n"));
    free(text);
    tokenring_cluster_free(c);

    fails(0, "node a dc=d rack=r tokens=1\npartitioner random\n", TOKENRING_E_PARSE, 2, 1,
          "must come before the first node");
    fails(0, "partitioner\n", TOKENRING_E_PARSE, 0, 0, "expected 'partitioner NAME'");
    fails(0, "partitioner random extra\n", TOKENRING_E_PARSE, 0, 0, "expected 'partitioner");
    fails(0, "partitioner md5\n", TOKENRING_E_PARSE, 1, 13, "unknown partitioner 'md5'");
    fails(0, "partitioner OrderPreservingPartitioner\n", TOKENRING_E_UNSUPPORTED, 0, 0, "");
    fails(0, "partitioner random\npartitioner byteordered\n", TOKENRING_E_INVAL, 2, 13,
          "the input names org.apache.cassandra.dht.ByteOrderedPartitioner");
    /* the empty token is no token of a listing */
    fails(0, "partitioner byteordered\nnode a dc=d rack=r tokens=ab,,cd\n", TOKENRING_E_PARSE,
          2, 30, "expected a token before ','");
}

static void test_set_partitioner(void **state)
{
    (void)state;
    tokenring_cluster *c = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_set_partitioner(NULL, TOKENRING_PARTITIONER_RANDOM, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_set_partitioner(c, (tokenring_partitioner)7, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_partitioner(NULL), TOKENRING_PARTITIONER_MURMUR3);
    assert_int_equal(tokenring_cluster_set_partitioner(c, TOKENRING_PARTITIONER_BYTE_ORDERED,
                                                       &err), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_set_partitioner(c, TOKENRING_PARTITIONER_BYTE_ORDERED,
                                                       &err), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_set_partitioner(c, TOKENRING_PARTITIONER_RANDOM, &err),
                     TOKENRING_E_EXISTS);
    /* fixed: digits are hex, and an input naming another partitioner is refused */
    assert_int_equal(parse(c, 0, "node a dc=d rack=r tokens=3132\n", &err), TOKENRING_OK);
    expect_tokens(c, 0, "3132");
    assert_int_equal(parse(c, 0, "partitioner random\nnode b dc=d rack=r tokens=1\n", &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_node_count(c), 1);
    tokenring_cluster_free(c);

    /* a cluster holding Murmur3 tokens keeps them: another partitioner is refused */
    c = parse_ok(0, "node a dc=d rack=r tokens=1\n");
    assert_int_equal(tokenring_cluster_set_partitioner(c, TOKENRING_PARTITIONER_RANDOM, &err),
                     TOKENRING_E_EXISTS);
    assert_non_null(strstr(err.message, "node a"));
    assert_int_equal(parse(c, 0, "node b dc=d rack=r tokens=9223372036854775808\n", &err),
                     TOKENRING_E_RANGE);
    assert_int_equal(parse(c, 0, "node b dc=d rack=r tokens=ab\n", &err), TOKENRING_E_PARSE);
    assert_int_equal(tokenring_cluster_node_count(c), 1);
    assert_int_equal(tokenring_cluster_partitioner(c), TOKENRING_PARTITIONER_MURMUR3);
    tokenring_cluster_free(c);

    /* a cluster without tokens (nodetool status) takes the partitioner of the first
     * input with tokens */
    c = parse_ok(TOKENRING_INPUT_NODETOOL_STATUS,
                 "Datacenter: d\n===\nStatus=Up/Down\n|/ State=Normal/Leaving/Joining/Moving\n"
                 "--  Address  Load  Tokens  Owns  Host ID  Rack\n"
                 "UN  a  1 KiB  2  ?  11111111-1111-1111-1111-111111111111  r\n");
    assert_int_equal(parse(c, 0, "node a dc=d rack=r tokens=ab,cd\n", &err), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_partitioner(c), TOKENRING_PARTITIONER_BYTE_ORDERED);
    expect_tokens(c, 0, "ab,cd");
    /* a token count that differs from the status row's is a conflict, as for Murmur3 */
    tokenring_cluster_free(c);
}

static const char *const RING_RP =
    "\nDatacenter: dc1\n==========\n"
    "Address    Rack        Status State   Load            Owns                Token\n"
    "                                                                          "
    "127605887595351923798765477786913079296\n"
    "127.0.0.1  r1          Up     Normal  105.3 KiB       ?                   "
    "42535295865117307932921825928971026432\n"
    "127.0.0.2  r2          Up     Normal  98.1 KiB        ?                   "
    "85070591730234615865843651857942052864\n"
    "127.0.0.1  r1          Up     Normal  105.3 KiB       ?                   "
    "127605887595351923798765477786913079296\n"
    "\n";

static void test_nodetool_ring(void **state)
{
    (void)state;
    tokenring_cluster *c = parse_ok(TOKENRING_INPUT_AUTO, RING_RP);
    assert_int_equal(tokenring_cluster_partitioner(c), TOKENRING_PARTITIONER_RANDOM);
    expect_tokens(c, 0, "42535295865117307932921825928971026432,"
                        "127605887595351923798765477786913079296");
    expect_tokens(c, 1, "85070591730234615865843651857942052864");
    tokenring_cluster_free(c);
    /* the wrap-around token is compared as printed: a missing one is an elided listing */
    char *cut = strdup(RING_RP);
    char *last = strstr(cut, "127.0.0.1  r1          Up     Normal  105.3 KiB       ?"
                             "                   1276");
    assert_non_null(last);
    *last = '\0';
    fails(TOKENRING_INPUT_AUTO, cut, TOKENRING_E_PARSE, 0, 0,
          "the wrap-around token 127605887595351923798765477786913079296");
    free(cut);
    /* byte tokens */
    c = parse_ok(TOKENRING_INPUT_AUTO,
                 "Datacenter: dc1\n==========\n"
                 "Address    Rack  Status State   Load  Owns  Token\n"
                 "                                             c0ffee\n"
                 "127.0.0.1  r1  Up  Normal  1 KiB  33.33%  0a\n"
                 "127.0.0.2  r1  Up  Normal  1 KiB  33.33%  7f\n"
                 "127.0.0.3  r1  Up  Normal  1 KiB  33.33%  c0ffee\n");
    assert_int_equal(tokenring_cluster_partitioner(c), TOKENRING_PARTITIONER_BYTE_ORDERED);
    expect_tokens(c, 2, "c0ffee");
    tokenring_cluster_free(c);
}

static void test_cqlsh(void **state)
{
    (void)state;
    /* system.peers_v2 first, then system.local naming the partitioner: the peers' small
     * decimals must be read again as RandomPartitioner tokens */
    const char *text =
        " peer      | data_center | rack | tokens\n"
        "-----------+-------------+------+----------\n"
        " 127.0.0.2 |         dc1 |   r1 | {'10', '30'}\n"
        "\n(1 rows)\n\n"
        " broadcast_address | data_center | rack | tokens | partitioner\n"
        "-------------------+-------------+------+--------+-------------\n"
        " 127.0.0.1 |         dc1 |   r1 | {'" TWO127 "', '20'} | "
        "org.apache.cassandra.dht.RandomPartitioner\n"
        "\n(1 rows)\n";
    tokenring_cluster *c = parse_ok(TOKENRING_INPUT_CQLSH, text);
    assert_int_equal(tokenring_cluster_partitioner(c), TOKENRING_PARTITIONER_RANDOM);
    expect_tokens(c, 0, "10,30");
    expect_tokens(c, 1, "20," TWO127);
    tokenring_cluster_free(c);
    /* a table of the partitioner alone fixes it for the tokens of the next */
    c = parse_ok(TOKENRING_INPUT_CQLSH,
                 " partitioner\n--------------\n"
                 " org.apache.cassandra.dht.ByteOrderedPartitioner\n\n(1 rows)\n\n"
                 " peer | data_center | rack | tokens\n------+----+----+----\n"
                 " a | d | r | {'3132', '00'}\n\n(1 rows)\n");
    assert_int_equal(tokenring_cluster_partitioner(c), TOKENRING_PARTITIONER_BYTE_ORDERED);
    expect_tokens(c, 0, "00,3132");
    tokenring_cluster_free(c);
    /* a Murmur3 partitioner column keeps Murmur3 and refuses a token out of its range */
    fails(TOKENRING_INPUT_CQLSH,
          " peer | data_center | rack | tokens | partitioner\n------+----+----+----+----\n"
          " a | d | r | {'9223372036854775808'} | Murmur3Partitioner\n\n(1 rows)\n",
          TOKENRING_E_RANGE, 0, 0, "outside the signed 64-bit range");
    fails(TOKENRING_INPUT_CQLSH,
          " peer | data_center | rack | tokens | partitioner\n------+----+----+----+----\n"
          " a | d | r | {'1'} | LocalPartitioner\n\n(1 rows)\n",
          TOKENRING_E_UNSUPPORTED, 0, 0, "");
    fails(TOKENRING_INPUT_CQLSH,
          " peer | data_center | rack | tokens\n------+----+----+----\n"
          " a | d | r | {'ab', ''}\n\n(1 rows)\n", TOKENRING_E_PARSE, 0, 0, "expected a token");
}

/* describering of a RandomPartitioner ring: 3 nodes, one token each, SimpleStrategy 2 */
static const char *const DR_RP =
    "Schema Version:1b2f0a9e-0000-0000-0000-000000000000\nTokenRange: \n"
    "\tTokenRange(start_token:" TWO127 ", end_token:42535295865117307932921825928971026432, "
    "endpoints:[127.0.0.1, 127.0.0.2], rpc_endpoints:[127.0.0.1, 127.0.0.2], "
    "endpoint_details:[EndpointDetails(host:127.0.0.1, datacenter:dc1, rack:r1), "
    "EndpointDetails(host:127.0.0.2, datacenter:dc1, rack:r1)])\n"
    "\tTokenRange(start_token:42535295865117307932921825928971026432, "
    "end_token:85070591730234615865843651857942052864, endpoints:[127.0.0.2, 127.0.0.3], "
    "rpc_endpoints:[127.0.0.2, 127.0.0.3], endpoint_details:[EndpointDetails(host:127.0.0.2, "
    "datacenter:dc1, rack:r1), EndpointDetails(host:127.0.0.3, datacenter:dc1, rack:r1)])\n"
    "\tTokenRange(start_token:85070591730234615865843651857942052864, end_token:" TWO127 ", "
    "endpoints:[127.0.0.3, 127.0.0.1], rpc_endpoints:[127.0.0.3, 127.0.0.1], "
    "endpoint_details:[EndpointDetails(host:127.0.0.3, datacenter:dc1, rack:r1), "
    "EndpointDetails(host:127.0.0.1, datacenter:dc1, rack:r1)])\n";

static void test_describering(void **state)
{
    (void)state;
    tokenring_cluster *c = parse_ok(TOKENRING_INPUT_AUTO, DR_RP);
    assert_int_equal(tokenring_cluster_partitioner(c), TOKENRING_PARTITIONER_RANDOM);
    assert_int_equal(tokenring_cluster_node_count(c), 3);
    expect_tokens(c, 0, "42535295865117307932921825928971026432");
    expect_tokens(c, 1, "85070591730234615865843651857942052864");
    expect_tokens(c, 2, TWO127);
    /* the replication it shows is checked against the ring: SimpleStrategy 2 fits */
    tokenring_cluster_free(c);
    /* a replica order that does not fit the tokens is refused, naming the range in
     * decimal */
    char *bad = strdup(DR_RP);
    char *p = strstr(bad, "endpoints:[127.0.0.3, 127.0.0.1]");
    memcpy(p, "endpoints:[127.0.0.3, 127.0.0.2]", 32);
    fails(TOKENRING_INPUT_AUTO, bad, TOKENRING_E_PARSE, 0, 0,
          "range (85070591730234615865843651857942052864, " TWO127 "]");
    free(bad);
    /* byte tokens: the same ring written in bytes (any order-preserving tokens) */
    const char *dr_bop =
        "TokenRange: \n"
        "\tTokenRange(start_token:cc, end_token:0a, endpoints:[a, b], rpc_endpoints:[a, b], "
        "endpoint_details:[EndpointDetails(host:a, datacenter:dc1, rack:r1), "
        "EndpointDetails(host:b, datacenter:dc1, rack:r1)])\n"
        "\tTokenRange(start_token:0a, end_token:0aff, endpoints:[b, c], rpc_endpoints:[b, c], "
        "endpoint_details:[EndpointDetails(host:b, datacenter:dc1, rack:r1), "
        "EndpointDetails(host:c, datacenter:dc1, rack:r1)])\n"
        "\tTokenRange(start_token:0aff, end_token:cc, endpoints:[c, a], rpc_endpoints:[c, a], "
        "endpoint_details:[EndpointDetails(host:c, datacenter:dc1, rack:r1), "
        "EndpointDetails(host:a, datacenter:dc1, rack:r1)])\n";
    c = parse_ok(TOKENRING_INPUT_AUTO, dr_bop);
    assert_int_equal(tokenring_cluster_partitioner(c), TOKENRING_PARTITIONER_BYTE_ORDERED);
    expect_tokens(c, 0, "0a");
    expect_tokens(c, 1, "0aff");
    expect_tokens(c, 2, "cc");
    tokenring_cluster_free(c);
    /* ranges that do not tile the ring, in byte tokens */
    char *gap = strdup(dr_bop);
    p = strstr(gap, "start_token:0a,");
    memcpy(p, "start_token:0b,", 15);
    fails(TOKENRING_INPUT_AUTO, gap, TOKENRING_E_PARSE, 0, 0, "range (0b, 0aff]");
    free(gap);
}

static void test_duplicates_and_merge(void **state)
{
    (void)state;
    fails(0, "node a dc=d rack=r tokens=" TWO127 "\nnode b dc=d rack=r tokens=1," TWO127 "\n",
          TOKENRING_E_EXISTS, 2, 29, "token " TWO127 " of node b is already held by node a");
    fails(0, "node a dc=d rack=r tokens=ab\nnode b dc=d rack=r tokens=AB\n", TOKENRING_E_EXISTS,
          2, 27, "token ab of node b is already held by node a");
    /* a byte token too long for the message is cut after 46 bytes, "..." after it */
    char text[512], want[160];
    char hex[121];
    for (int i = 0; i < 120; i++)
        hex[i] = "0123456789abcdef"[i % 16];
    hex[120] = '\0';
    snprintf(text, sizeof text, "node a dc=d rack=r tokens=%s\nnode b dc=d rack=r tokens=%s\n",
             hex, hex);
    snprintf(want, sizeof want, "token %.92s... of node b is already held by node a", hex);
    fails(0, text, TOKENRING_E_EXISTS, 2, 27, want);
    /* the same node in two inputs: equal tokens merge, other tokens conflict */
    tokenring_cluster *c = parse_ok(0, "node a dc=d rack=r tokens=ab,cd\n");
    tokenring_error err;
    assert_int_equal(parse(c, 0, "node a dc=d rack=r tokens=CD,AB\n", &err), TOKENRING_OK);
    assert_int_equal(parse(c, 0, "node a dc=d rack=r tokens=cd,ac\n", &err), TOKENRING_E_EXISTS);
    assert_non_null(strstr(err.message, "different tokens"));
    expect_tokens(c, 0, "ab,cd");
    tokenring_cluster_free(c);
    /* a topology of another partitioner merges into an empty cluster, not into one
     * holding Murmur3 tokens */
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new_partitioned(&t, TOKENRING_PARTITIONER_RANDOM),
                     TOKENRING_OK);
    tokenring_token128 tk[2] = { { 0, 5 }, { 1ULL << 63, 0 } };
    assert_int_equal(tokenring_topology_add_node128(t, "x", "d", "r", tk, 2, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_add_topology(c, t, &err), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_partitioner(c), TOKENRING_PARTITIONER_RANDOM);
    expect_tokens(c, 0, "5," TWO127);
    tokenring_cluster_free(c);
    c = parse_ok(0, "node a dc=d rack=r tokens=1\n");
    assert_int_equal(tokenring_cluster_add_topology(c, t, &err), TOKENRING_E_INVAL);
    assert_non_null(strstr(err.message, "RandomPartitioner tokens, but the cluster's are"));
    assert_int_equal(tokenring_cluster_node_count(c), 1);
    tokenring_cluster_free(c);
    tokenring_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_from_the_tokens),
        cmocka_unit_test(test_detection),
        cmocka_unit_test(test_partitioner_line),
        cmocka_unit_test(test_set_partitioner),
        cmocka_unit_test(test_nodetool_ring),
        cmocka_unit_test(test_cqlsh),
        cmocka_unit_test(test_describering),
        cmocka_unit_test(test_duplicates_and_merge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
