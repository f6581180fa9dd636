/* SPDX-License-Identifier: Apache-2.0 */
/* What the parsers refuse or say instead of guessing: cut listings (a datacenter block or
 * a table without rows, a row count the table falls short of) fail naming the line, or
 * give a partial cluster when allowed; CR-only line endings; a replication class without
 * its ':'; a describering replica out of Cassandra's order; a RandomPartitioner reading
 * that most tokens contradict, and the flag of an inferred partitioner; inputs that share
 * no node. */
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
#define TOPO TOKENRING_INPUT_TOPOLOGY
#define TSV TOKENRING_INPUT_TSV
#define DR TOKENRING_INPUT_NODETOOL_DESCRIBERING
#define PARTIAL TOKENRING_PARSE_ALLOW_PARTIAL

static int parse(tokenring_cluster *c, int fmt, const char *text, uint32_t flags,
                 tokenring_error *err)
{
    memset(err, 0, sizeof *err);
    return tokenring_cluster_parse(c, fmt, text, strlen(text), flags, NULL, err);
}

/* text must fail with code at line:col with a message holding want, leaving the cluster
 * as it was; with ALLOW_PARTIAL it must give a partial cluster of `nodes` nodes. */
static void cut(int fmt, const char *text, uint32_t line, uint32_t col, const char *want,
                size_t nodes)
{
    tokenring_cluster *c = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    int rc = parse(c, fmt, text, 0, &err);
    if (rc != TOKENRING_E_PARSE || err.line != line || err.column != col ||
        !strstr(err.message, want) || !strstr(err.message, "allow partial input"))
        fail_msg("want PARSE at %u:%u '%s', got %d at %u:%u '%s'", line, col, want, rc,
                 err.line, err.column, err.message);
    assert_int_equal(tokenring_cluster_node_count(c), 0);
    assert_int_equal(tokenring_cluster_flags(c), 0);
    rc = parse(c, fmt, text, PARTIAL, &err);
    if (rc != TOKENRING_OK)
        fail_msg("with ALLOW_PARTIAL: %d at %u:%u '%s'", rc, err.line, err.column,
                 err.message);
    assert_true(tokenring_cluster_flags(c) & TOKENRING_CLUSTER_PARTIAL);
    assert_int_equal(tokenring_cluster_node_count(c), nodes);
    tokenring_cluster_free(c);
}

#define RING_HDR(dc)                                                                       \
    "Datacenter: " dc "\n==========\nAddress    Rack  Status State   Load       Owns    "   \
    "Token\n"
#define RING_ROW(a, t) a "   r1    Up     Normal  1 KiB      50%     " t "\n"
#define ST_HDR(dc)                                                                         \
    "Datacenter: " dc "\n===============\nStatus=Up/Down\n|/ State=Normal/Leaving/Joining/"  \
    "Moving\n--  Address    Load       Tokens  Owns (effective)  Host ID                  "  \
    "             Rack\n"
#define ST_ROW(a)                                                                          \
    "UN  " a "   1 KiB      1       50%               3d8f189c-ad47-4b1e-8ea8-c004c0cd95b5" \
    "  r1\n"
#define CQ_HDR " peer | data_center | rack | tokens\n------+-------------+------+--------\n"

static const char ring_dc1[] = RING_HDR("dc1") "                                  100\n"
    RING_ROW("10.0.0.1", "-100") RING_ROW("10.0.0.2", "100") "\n";

static void cut_listings(void **state)
{
    (void)state;
    char buf[1024];
    /* issue 27: a datacenter block with its header and wrap-around token, no row */
    snprintf(buf, sizeof buf, "%s" RING_HDR("dc2") "                 200\n\n", ring_dc1);
    cut(RING, buf, 8, 1,
        "datacenter dc2 lists no node: its block ends after its header and wrap-around "
        "token", 2);
    cut(RING, RING_HDR("dc1"), 1, 1, "datacenter dc1 lists no node: its block ends after "
        "its header", 0);
    cut(RING, RING_HDR("dc1") "   5\n", 1, 1, "datacenter dc1 lists no node", 0);
    cut(STATUS, ST_HDR("dc1"), 1, 1, "datacenter dc1 lists no node: its block ends after "
        "its header", 0);
    cut(STATUS, ST_HDR("dc1") ST_ROW("10.0.0.1") "Datacenter: dc2\n====\n", 7, 1,
        "datacenter dc2 lists no node: its block ends after its name", 1);
    cut(STATUS, "Datacenter: dc0\n" ST_HDR("dc1") ST_ROW("10.0.0.1"), 1, 1,
        "datacenter dc0 lists no node", 1);
    cut(CQLSH, CQ_HDR, 1, 1, "the cqlsh table of line 1 ends without rows", 0);
    cut(CQLSH, CQ_HDR " a | d | r | {'5'}\n\n(3 rows)\n", 5, 2,
        "cqlsh says 3 rows but the table above has 1", 1);
    cut(TSV, "# vectors\nnode\tdc\track\ttokens\n", 2, 1,
        "the header is not followed by any row", 0);

    /* what is whole stays accepted without the flag */
    tokenring_cluster *c = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    assert_int_equal(parse(c, CQLSH, CQ_HDR "\n(0 rows)\n", 0, &err), TOKENRING_OK);
    assert_int_equal(parse(c, RING, ring_dc1, 0, &err), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_flags(c), 0);
    /* more rows than the count is no cut: an error even when partial input is allowed */
    assert_int_equal(parse(c, CQLSH, CQ_HDR " a | d | r | {'5'}\n b | d | r | {'6'}\n\n"
                                     "(1 rows)\n", PARTIAL, &err),
                     TOKENRING_E_PARSE);
    assert_non_null(strstr(err.message, "cqlsh says 1 rows but the table above has 2"));
    assert_null(strstr(err.message, "allow partial"));
    tokenring_cluster_free(c);
}

static void cr_line_endings(void **state)
{
    (void)state;
    char cr[sizeof ring_dc1];
    memcpy(cr, ring_dc1, sizeof ring_dc1);
    for (char *p = cr; *p; p++)
        if (*p == '\n')
            *p = '\r';
    tokenring_cluster *a = NULL, *b = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_cluster_new(&a), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_new(&b), TOKENRING_OK);
    assert_int_equal(tokenring_input_detect(cr, strlen(cr)), RING);
    assert_int_equal(parse(a, TOKENRING_INPUT_AUTO, cr, 0, &err), TOKENRING_OK);
    assert_int_equal(parse(b, RING, ring_dc1, 0, &err), TOKENRING_OK);
    char fa[512], fb[512];
    size_t la, lb;
    assert_int_equal(tokenring_cluster_format(fa, sizeof fa, &la, a), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_format(fb, sizeof fb, &lb, b), TOKENRING_OK);
    assert_string_equal(fa, fb);
    tokenring_cluster_free(a);
    tokenring_cluster_free(b);
    /* lines are counted at each CR: the error names the line and the column */
    assert_int_equal(tokenring_cluster_new(&a), TOKENRING_OK);
    assert_int_equal(parse(a, TOPO, "node a dc=d rack=r tokens=1\rnode b dc=d rack=r "
                                    "tokens=2x\r",
                           0, &err),
                     TOKENRING_E_PARSE);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.column, 27);
    /* a NUL byte is placed by the same line breaks */
    assert_int_equal(tokenring_cluster_parse(a, TOPO, "node a\rnode \0b", 14, 0, NULL, &err),
                     TOKENRING_E_PARSE);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.column, 6);
    /* a CR before LF is still the CRLF ending, a lone CR in an LF file no break */
    assert_int_equal(parse(a, TOPO, "node a dc=d rack=r tokens=1\r\nnode b dc=d rack=r "
                                    "tokens=2\r\n",
                           0, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_cluster_node_count(a), 2);
    tokenring_cluster_free(a);
}

static void replication_class_without_colon(void **state)
{
    (void)state;
    static const char *const bad[] = { "NetworkTopologyStrategy", "NetworkTopologyStrategy dc1=3",
                                       "SimpleStrategy", " SimpleStrategy 3",
                                       "org.apache.cassandra.locator.NetworkTopologyStrategy" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        tokenring_replication *r = NULL;
        tokenring_error err;
        memset(&err, 0, sizeof err);
        int rc = tokenring_replication_parse(&r, bad[i], strlen(bad[i]), &err);
        if (rc != TOKENRING_E_PARSE || !strstr(err.message, "expected ':' and the options "
                                                            "after the class"))
            fail_msg("'%s': %d '%s'", bad[i], rc, err.message);
        assert_null(r);
    }
    /* the bare forms are unchanged */
    tokenring_replication *r = NULL;
    assert_int_equal(tokenring_replication_parse(&r, "dc1=3", 5, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_replication_strategy(r), TOKENRING_NETWORK_TOPOLOGY);
    tokenring_replication_free(r);
    assert_int_equal(tokenring_replication_parse(&r, "3", 1, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_replication_strategy(r), TOKENRING_SIMPLE);
    tokenring_replication_free(r);
    /* in a topology file, at the class's end */
    tokenring_cluster *c = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    assert_int_equal(parse(c, TOPO, "keyspace ks NetworkTopologyStrategy\n", 0, &err),
                     TOKENRING_E_PARSE);
    assert_int_equal(err.line, 1);
    assert_int_equal(err.column, 36);
    assert_non_null(strstr(err.message, "NetworkTopologyStrategy:dc1=3,dc2=3"));
    tokenring_cluster_free(c);
}

#define EP3(a, b, c)                                                                       \
    "endpoints:[" a ", " b ", " c "], rpc_endpoints:[" a ", " b ", " c "], endpoint_details:[" \
    "EndpointDetails(host:" a ", datacenter:d, rack:r), EndpointDetails(host:" b            \
    ", datacenter:d, rack:r), EndpointDetails(host:" c ", datacenter:d, rack:r)])\n"

static void describering_order(void **state)
{
    (void)state;
    static const char ok[] = "TokenRange: \n"
                             "\tTokenRange(start_token:30, end_token:10, " EP3("a", "b", "c")
                             "\tTokenRange(start_token:10, end_token:20, " EP3("b", "c", "a")
                             "\tTokenRange(start_token:20, end_token:30, " EP3("c", "a", "b");
    static const char swapped[] = "TokenRange: \n"
                             "\tTokenRange(start_token:30, end_token:10, " EP3("a", "b", "c")
                             "\tTokenRange(start_token:10, end_token:20, " EP3("b", "a", "c")
                             "\tTokenRange(start_token:20, end_token:30, " EP3("c", "a", "b");
    tokenring_cluster *c = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    assert_int_equal(parse(c, DR, ok, 0, &err), TOKENRING_OK);
    tokenring_cluster_free(c);
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    assert_int_equal(parse(c, DR, swapped, 0, &err), TOKENRING_E_PARSE);
    assert_int_equal(err.line, 3);
    assert_string_equal(err.message,
                        "range (10, 20]: replica 2 is a where Cassandra's order "
                        "(NetworkTopologyStrategy d=3) puts c (expected [b, c, a]: same "
                        "replicas, other order)");
    assert_int_equal(tokenring_cluster_node_count(c), 0);
    tokenring_cluster_free(c);
}

static void partitioner_not_guessed(void **state)
{
    (void)state;
    tokenring_cluster *c = NULL;
    tokenring_error err;
    /* issue 35: a Murmur3 ring with one mistyped (too long) token */
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    assert_int_equal(parse(c, TOPO, "node a dc=d rack=r tokens=3074457345618258603\n"
                                    "node b dc=d rack=r tokens=30744573456182586020\n"
                                    "node c dc=d rack=r tokens=6148914691236517206,7\n",
                           0, &err),
                     TOKENRING_E_RANGE);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.column, 27);
    assert_non_null(strstr(err.message, "token '30744573456182586020' is outside the signed "
                                        "64-bit range"));
    assert_non_null(strstr(err.message, "3 of the 4 tokens are Murmur3 tokens"));
    assert_int_equal(tokenring_cluster_node_count(c), 0);
    /* a negative token is never RandomPartitioner's */
    assert_int_equal(parse(c, TOPO, "node a dc=d rack=r tokens=-5\n"
                                    "node b dc=d rack=r tokens=30744573456182586020\n",
                           0, &err),
                     TOKENRING_E_RANGE);
    assert_int_equal(err.line, 2);
    /* Murmur3 rings: not reported as inferred */
    assert_int_equal(parse(c, TOPO, "node a dc=d rack=r tokens=5,-7\n", 0, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_cluster_flags(c), 0);
    tokenring_cluster_free(c);

    /* as many tokens above 2^63 - 1 as below: RandomPartitioner, inferred */
    static const char random2[] =
        "node a dc=d rack=r tokens=0,85070591730234615865843651857942052864\n";
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    assert_int_equal(parse(c, TOPO, random2, 0, &err), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_partitioner(c), TOKENRING_PARTITIONER_RANDOM);
    assert_int_equal(tokenring_cluster_flags(c), TOKENRING_CLUSTER_PARTITIONER_INFERRED);
    /* an input naming it later: no longer inferred */
    assert_int_equal(parse(c, TOPO, "partitioner RandomPartitioner\nnode b dc=d rack=r "
                                    "tokens=42535295865117307932921825928971026432\n",
                           0, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_cluster_flags(c), 0);
    tokenring_cluster_free(c);
    /* fixed by the caller: not inferred either */
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    assert_int_equal(parse(c, TOPO, random2, 0, &err), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_set_partitioner(c, TOKENRING_PARTITIONER_RANDOM, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_cluster_flags(c), 0);
    tokenring_cluster_free(c);
    /* ByteOrderedPartitioner from hex letters: inferred */
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    assert_int_equal(parse(c, TOPO, "node a dc=d rack=r tokens=0a,ff\n", 0, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_cluster_partitioner(c), TOKENRING_PARTITIONER_BYTE_ORDERED);
    assert_int_equal(tokenring_cluster_flags(c), TOKENRING_CLUSTER_PARTITIONER_INFERRED);
    tokenring_cluster_free(c);
}

static void disjoint_inputs(void **state)
{
    (void)state;
    static const char ring_b[] = RING_HDR("dc1") "                   50\n"
        RING_ROW("10.9.0.1", "-50") RING_ROW("10.9.0.2", "50");
    static const char status_a[] = ST_HDR("dc1") ST_ROW("10.0.0.1");
    tokenring_cluster *c = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    assert_int_equal(parse(c, STATUS, status_a, 0, &err), TOKENRING_OK);
    assert_int_equal(parse(c, RING, ring_b, 0, &err), TOKENRING_E_INVAL);
    assert_string_equal(err.message,
                        "this input's 2 nodes (e.g. 10.9.0.1) share no node with the 1 node "
                        "read before (e.g. 10.0.0.1): the outputs of two clusters? (merge "
                        "disjoint inputs to combine them)");
    assert_int_equal(tokenring_cluster_node_count(c), 1);
    assert_int_equal(parse(c, RING, ring_b, 0x4, &err), TOKENRING_E_INVAL); /* unknown flag */
    /* sharing one node is enough; asked for, disjoint inputs merge */
    assert_int_equal(parse(c, RING, ring_dc1, 0, &err), TOKENRING_OK);
    assert_int_equal(parse(c, RING, ring_b, TOKENRING_PARSE_MERGE_DISJOINT, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_cluster_node_count(c), 4);
    tokenring_cluster_free(c);

    /* exempt: cqlsh into cqlsh (system.peers_v2, system.local), topology files, clusters
     * built from topologies */
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    assert_int_equal(parse(c, CQLSH, CQ_HDR " a | d | r | {'5'}\n", 0, &err), TOKENRING_OK);
    assert_int_equal(parse(c, CQLSH, " broadcast_address | data_center | rack | tokens\n"
                                     "---+---+---+---\n b | d | r | {'9'}\n",
                           0, &err),
                     TOKENRING_OK);
    /* but a nodetool listing of other nodes after them is not */
    int rc = parse(c, RING, ring_b, 0, &err);
    if (rc != TOKENRING_E_INVAL)
        fail_msg("%d '%s'", rc, err.message);
    tokenring_cluster_free(c);
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    assert_int_equal(parse(c, TOPO, "node x dc=d rack=r tokens=1\n", 0, &err), TOKENRING_OK);
    assert_int_equal(parse(c, RING, ring_b, 0, &err), TOKENRING_OK);
    assert_int_equal(parse(c, TOPO, "node y dc=d rack=r tokens=2\n", 0, &err), TOKENRING_OK);
    tokenring_cluster_free(c);
    tokenring_topology *t = NULL;
    int64_t tok = 77;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node(t, "z", "d", "r", &tok, 1, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_add_topology(c, t, &err), TOKENRING_OK);
    assert_int_equal(parse(c, RING, ring_b, 0, &err), TOKENRING_OK);
    tokenring_cluster_free(c);
    tokenring_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cut_listings),
        cmocka_unit_test(cr_line_endings),
        cmocka_unit_test(replication_class_without_colon),
        cmocka_unit_test(describering_order),
        cmocka_unit_test(partitioner_not_guessed),
        cmocka_unit_test(disjoint_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
