/* SPDX-License-Identifier: Apache-2.0 */
/* Cluster documents and their parsers (parse.h): every input format, errors with line and
 * column, merging, the topology-file writer's round trip, and failure atomicity (a failing
 * parse, including every allocation failure, leaves the cluster as it was and leaks
 * nothing); then the error paths and odd layouts of each reader, format detection, the
 * cluster accessors' argument checks and the writer's quoting. test_parse_oom.c fails
 * every allocation of every entry point in turn. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"
#include "testdata.h"


static char *format(const tokenring_cluster *c)
{
    size_t len = 0;
    int rc = tokenring_cluster_format(NULL, 0, &len, c);
    assert_true(rc == TOKENRING_E_BUFSIZE || rc == TOKENRING_OK);
    char *buf = malloc(len + 1);
    assert_non_null(buf);
    assert_int_equal(tokenring_cluster_format(buf, len + 1, &len, c), TOKENRING_OK);
    assert_int_equal(strlen(buf), len);
    return buf;
}

static tokenring_cluster *parse_ok(int fmt, const char *text, size_t len, uint32_t flags)
{
    tokenring_cluster *c = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    int rc = tokenring_cluster_parse(c, fmt, text, len, flags, NULL, &err);
    if (rc != TOKENRING_OK)
        fail_msg("parse failed at %u:%u: %s", err.line, err.column, err.message);
    return c;
}

/* Parses text that must fail at line:column with message containing want. */
static void parse_fails(int fmt, const char *text, int code, uint32_t line, uint32_t col,
                        const char *want)
{
    tokenring_cluster *c = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    int rc = tokenring_cluster_parse(c, fmt, text, strlen(text), 0, NULL, &err);
    if (rc != code || err.line != line || err.column != col || !strstr(err.message, want))
        fail_msg("input %s\nwant %d at %u:%u '%s'\ngot  %d at %u:%u '%s'", text, code, line,
                 col, want, rc, err.line, err.column, err.message);
    assert_int_equal(err.code, code);
    assert_int_equal(tokenring_cluster_node_count(c), 0);
    assert_int_equal(tokenring_cluster_keyspace_count(c), 0);
    tokenring_cluster_free(c);
}

static void node_is(const tokenring_cluster *c, size_t i, const char *name, const char *dc,
                    const char *rack, size_t ntok, int state, int liveness)
{
    tokenring_cluster_node_info n;
    assert_int_equal(tokenring_cluster_node(&n, c, i), TOKENRING_OK);
    assert_string_equal(n.name, name);
    assert_string_equal(n.datacenter, dc);
    assert_string_equal(n.rack, rack);
    assert_int_equal(n.token_count, ntok);
    assert_int_equal(n.state, state);
    assert_int_equal(n.liveness, liveness);
}

/* ------------------------------------------------------------ topology file */

static const char TOPO[] =
    "# a comment\n"
    "keyspace shop NetworkTopologyStrategy:dc1=3,dc2=2   # trailing comment\n"
    "keyspace logs {'class': 'SimpleStrategy', 'replication_factor': '2'}\n"
    "\n"
    "node 10.0.0.1 dc=dc1 rack=r1 tokens=50,-9223372036854775808\n"
    "node 10.0.0.2 rack=r2 dc=dc1 state=joining status=down host_id=abc tokens=7,\n"
    "    8,9\n"
    "\t10 11\n"
    "node \"x y\" dc=\"d\\\"c\" rack=r tokens=-5   # quoted names\n"
    "node 10.0.0.4 dc=dc2 rack=r1 tokens=100,200 num_tokens=2\r\n"
    "   \n"
    "node 10.0.0.5 dc=dc2 rack=r1 status=unknown state=leaving tokens=300";

static void topology_file(void **state)
{
    (void)state;
    int fmt = -1;
    tokenring_cluster *c = NULL;
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    assert_int_equal(tokenring_input_detect(TOPO, strlen(TOPO)), TOKENRING_INPUT_TOPOLOGY);
    assert_int_equal(tokenring_cluster_parse(c, TOKENRING_INPUT_AUTO, TOPO, strlen(TOPO), 0,
                                             &fmt, NULL),
                     TOKENRING_OK);
    assert_int_equal(fmt, TOKENRING_INPUT_TOPOLOGY);
    assert_int_equal(tokenring_cluster_node_count(c), 5);
    node_is(c, 0, "10.0.0.1", "dc1", "r1", 2, TOKENRING_STATE_NORMAL, TOKENRING_UP);
    node_is(c, 1, "10.0.0.2", "dc1", "r2", 5, TOKENRING_STATE_JOINING, TOKENRING_DOWN);
    node_is(c, 2, "x y", "d\"c", "r", 1, TOKENRING_STATE_NORMAL, TOKENRING_UP);
    node_is(c, 3, "10.0.0.4", "dc2", "r1", 2, TOKENRING_STATE_NORMAL, TOKENRING_UP);
    node_is(c, 4, "10.0.0.5", "dc2", "r1", 1, TOKENRING_STATE_LEAVING, TOKENRING_UNKNOWN);
    tokenring_cluster_node_info n;
    assert_int_equal(tokenring_cluster_node(&n, c, 0), TOKENRING_OK);
    assert_true(n.tokens[0] == TOKENRING_MIN_TOKEN && n.tokens[1] == 50); /* sorted */
    assert_int_equal(n.line, 5);
    assert_null(n.host_id);
    assert_int_equal(tokenring_cluster_node(&n, c, 1), TOKENRING_OK);
    assert_string_equal(n.host_id, "abc");
    assert_true(n.tokens[0] == 7 && n.tokens[4] == 11);
    assert_int_equal(tokenring_cluster_node(&n, c, 5), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_cluster_node(NULL, c, 0), TOKENRING_E_INVAL);

    assert_int_equal(tokenring_cluster_keyspace_count(c), 2);
    size_t idx = 9;
    assert_int_equal(tokenring_cluster_find_keyspace(&idx, c, "logs"), TOKENRING_OK);
    assert_int_equal(idx, 1);
    assert_int_equal(tokenring_cluster_find_keyspace(&idx, c, "nope"), TOKENRING_E_NOTFOUND);
    const char *name;
    const tokenring_replication *r;
    assert_int_equal(tokenring_cluster_keyspace(&name, &r, c, 0), TOKENRING_OK);
    assert_string_equal(name, "shop");
    assert_int_equal(tokenring_replication_strategy(r), TOKENRING_NETWORK_TOPOLOGY);
    assert_int_equal(tokenring_replication_dc_count(r), 2);
    assert_int_equal(tokenring_cluster_keyspace(&name, &r, c, 2), TOKENRING_E_RANGE);

    /* the topology is built through the builder: joining tokens are not in the ring */
    const tokenring_topology *t = tokenring_cluster_topology(c);
    assert_non_null(t);
    assert_int_equal(tokenring_topology_node_count(t), 5);
    tokenring_ring *ring = NULL;
    assert_int_equal(tokenring_ring_build(&ring, t, NULL), TOKENRING_OK);
    size_t nt = 0;
    tokenring_ring_tokens(ring, &nt);
    assert_int_equal(nt, 2 + 1 + 2 + 1);
    tokenring_ring_free(ring);
    assert_int_equal(tokenring_cluster_flags(c), 0);

    /* a host ID that needs quotes survives the round trip */
    static const char odd[] = "node q dc=d rack=r host_id=\"a #b\" tokens=77\n";
    assert_int_equal(tokenring_cluster_parse(c, TOKENRING_INPUT_TOPOLOGY, odd, sizeof odd - 1,
                                             0, NULL, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_cluster_node(&n, c, 5), TOKENRING_OK);
    assert_string_equal(n.host_id, "a #b");
    /* writer round trip: same text again, same nodes */
    char *a = format(c);
    tokenring_cluster *c2 = parse_ok(TOKENRING_INPUT_TOPOLOGY, a, strlen(a), 0);
    char *b = format(c2);
    assert_string_equal(a, b);
    assert_non_null(strstr(a, "node \"x y\" dc=\"d\\\"c\" rack=r tokens=-5\n"));
    assert_non_null(strstr(a, "state=joining status=down host_id=abc tokens=7,8,9,10,11\n"));
    assert_non_null(strstr(a, "node q dc=d rack=r host_id=\"a #b\" tokens=77\n"));
    free(a);
    free(b);
    tokenring_cluster_free(c2);

    /* buffer too small: BUFSIZE with the length, buffer untouched beyond cap */
    size_t len = 0;
    char small[8] = "zzzzzzz";
    assert_int_equal(tokenring_cluster_format(small, sizeof small, &len, c), TOKENRING_E_BUFSIZE);
    assert_true(len > sizeof small);
    assert_int_equal(tokenring_cluster_format(NULL, 4, &len, c), TOKENRING_E_INVAL);
    tokenring_cluster_free(c);
}

static void topology_long_token_lists_round_trip(void **state)
{
    (void)state;
    char text[8192];
    size_t k = (size_t)snprintf(text, sizeof text, "node n dc=d rack=r tokens=");
    for (int i = 0; i < 200; i++)
        k += (size_t)snprintf(text + k, sizeof text - k, "%s%d", i ? "," : "", i * 1000 - 7);
    tokenring_cluster *c = parse_ok(TOKENRING_INPUT_TOPOLOGY, text, k, 0);
    char *a = format(c);
    assert_non_null(strstr(a, "tokens=\n    -7,993,"));
    tokenring_cluster *c2 = parse_ok(TOKENRING_INPUT_TOPOLOGY, a, strlen(a), 0);
    tokenring_cluster_node_info n;
    assert_int_equal(tokenring_cluster_node(&n, c2, 0), TOKENRING_OK);
    assert_int_equal(n.token_count, 200);
    assert_true(n.tokens[199] == 199 * 1000 - 7);
    free(a);
    tokenring_cluster_free(c);
    tokenring_cluster_free(c2);
}

static void topology_errors(void **state)
{
    (void)state;
    const int T = TOKENRING_INPUT_TOPOLOGY;
    parse_fails(T, "node a dc=d rack=r tokens=1,2x\n", TOKENRING_E_PARSE, 1, 29,
                "expected a token");
    parse_fails(T, "node a dc=d rack=r tokens=1,,2\n", TOKENRING_E_PARSE, 1, 29,
                "expected a token");
    parse_fails(T, "node a dc=d rack=r tokens=-9223372036854775809\n", TOKENRING_E_RANGE, 1, 27,
                "outside");
    parse_fails(T, "node a dc=d rack=r tokens=1\nnode b dc=d rack=r tokens=2,1\n",
                TOKENRING_E_EXISTS, 2, 29, "already held by node a (line 1)");
    parse_fails(T, "node a dc=d rack=r tokens=1,1\n", TOKENRING_E_EXISTS, 1, 29,
                "already held by node a");
    parse_fails(T, "\n\nnode a dc=d rack=r tokens=1\nnode a dc=d rack=r tokens=2\n",
                TOKENRING_E_EXISTS, 4, 6, "already defined on line 3");
    parse_fails(T, "node a dc=d tokens=1\n", TOKENRING_E_PARSE, 1, 21, "expected rack=");
    parse_fails(T, "node a rack=r tokens=1\n", TOKENRING_E_PARSE, 1, 23, "expected dc=");
    parse_fails(T, "node a dc=d rack=r\n", TOKENRING_E_PARSE, 1, 19, "tokens=");
    parse_fails(T, "node a dc=d rack=r size=3 tokens=1\n", TOKENRING_E_PARSE, 1, 20,
                "unknown key 'size'");
    parse_fails(T, "node a dc=d dc=e rack=r tokens=1\n", TOKENRING_E_PARSE, 1, 13,
                "given twice");
    parse_fails(T, "node a dc=d rack=r state=up tokens=1\n", TOKENRING_E_PARSE, 1, 26,
                "expected state");
    parse_fails(T, "node a dc=d rack=r status=sleepy tokens=1\n", TOKENRING_E_PARSE, 1, 27,
                "expected status");
    parse_fails(T, "node a dc=d rack=r tokens=1,2 num_tokens=3\n", TOKENRING_E_PARSE, 1, 6,
                "num_tokens=3 but 2");
    parse_fails(T, "node a dc=d rack=r num_tokens=0\n", TOKENRING_E_RANGE, 1, 31,
                "num_tokens");
    parse_fails(T, "node a dc=d rack=r tokens=\n", TOKENRING_E_EMPTY, 1, 6, "lists no token");
    parse_fails(T, "node a dc= rack=r tokens=1\n", TOKENRING_E_INVAL, 1, 11, "empty");
    parse_fails(T, "node a dc=\xc3 rack=r tokens=1\n", TOKENRING_E_INVAL, 1, 11, "UTF-8");
    parse_fails(T, "node \"a dc=d rack=r tokens=1\n", TOKENRING_E_PARSE, 1, 6,
                "unterminated");
    parse_fails(T, "node \"a\"b dc=d rack=r tokens=1\n", TOKENRING_E_PARSE, 1, 9,
                "whitespace after");
    parse_fails(T, "node \"a\\q\" dc=d rack=r tokens=1\n", TOKENRING_E_PARSE, 1, 8,
                "unknown escape");
    parse_fails(T, "node a dc=d rack=r tokens=1\n  2,x\n", TOKENRING_E_PARSE, 2, 5,
                "expected a token");
    parse_fails(T, "keyspace k 3\n  5\n", TOKENRING_E_PARSE, 2, 3, "unexpected indented");
    parse_fails(T, "node a dc=d rack=r num_tokens=4\n  5\n", TOKENRING_E_PARSE, 2, 3,
                "unexpected indented");
    parse_fails(T, "nod a\n", TOKENRING_E_PARSE, 1, 1, "expected 'node', 'keyspace'");
    parse_fails(T, "keyspace\n", TOKENRING_E_PARSE, 1, 9, "expected a keyspace name");
    parse_fails(T, "keyspace ks\n", TOKENRING_E_PARSE, 1, 12, "expected a replication");
    parse_fails(T, "keyspace ks SimpleStrategy:x\n", TOKENRING_E_PARSE, 1, 28, "keyspace ks");
    parse_fails(T, "keyspace ks 3\nkeyspace ks 2\n", TOKENRING_E_EXISTS, 2, 10,
                "already defined");
    parse_fails(T, "keyspace k=s 3\n", TOKENRING_E_INVAL, 1, 11, "keyspace name");
    parse_fails(T, "node a dc=d rack=r tokens=1\nnode a\x01 dc=d rack=r tokens=2\n",
                TOKENRING_E_INVAL, 2, 6, "control character");
    parse_fails(T, "node a dc=d rack=\xff tokens=1\n", TOKENRING_E_INVAL, 1, 18, "UTF-8");
    parse_fails(T, "node a dc=d rack=r host_id=\"\" tokens=1\n", TOKENRING_E_INVAL, 1, 28,
                "host ID name is empty");
    /* a 256-byte name */
    char longname[400];
    memset(longname, 'n', sizeof longname);
    memcpy(longname, "node ", 5);
    memcpy(longname + 5 + 256, " dc=d rack=r tokens=1\n", 23);
    parse_fails(T, longname, TOKENRING_E_RANGE, 1, 6, "longer than 255");
    /* a NUL byte is reported where it is */
    tokenring_cluster *c = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    static const char nul[] = "node a dc=d rack=r tokens=1\nnode b\0 dc=d";
    assert_int_equal(tokenring_cluster_parse(c, T, nul, sizeof nul - 1, 0, NULL, &err),
                     TOKENRING_E_PARSE);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.column, 7);
    /* bad arguments */
    assert_int_equal(tokenring_cluster_parse(NULL, T, "x", 1, 0, NULL, NULL), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_parse(c, T, NULL, 1, 0, NULL, NULL), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_parse(c, 99, "x", 1, 0, NULL, NULL), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_parse(c, T, "x", 1, 0x80, NULL, NULL), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_parse(c, TOKENRING_INPUT_AUTO, "hello\n", 6, 0, NULL,
                                             &err),
                     TOKENRING_E_PARSE);
    assert_non_null(strstr(err.message, "cannot recognise"));
    /* an empty text is an empty cluster */
    assert_int_equal(tokenring_cluster_parse(c, T, NULL, 0, 0, NULL, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_node_count(c), 0);
    assert_null(tokenring_cluster_topology(c));
    tokenring_cluster_free(c);
}

/* ------------------------------------------------------------------ TSV */

static void tsv_vectors(void **state)
{
    (void)state;
    size_t len;
    char *text = slurp("replicas_2dc_3r_2r_vn8.topology.tsv", &len);
    assert_int_equal(tokenring_input_detect(text, len), TOKENRING_INPUT_TSV);
    tokenring_cluster *c = parse_ok(TOKENRING_INPUT_AUTO, text, len, 0);
    assert_int_equal(tokenring_cluster_node_count(c), 10);
    node_is(c, 9, "b3", "dc2", "r2", 8, TOKENRING_STATE_NORMAL, TOKENRING_UP);
    free(text);
    tokenring_cluster_free(c);
    parse_fails(TOKENRING_INPUT_TSV, "node\tdc\track\n", TOKENRING_E_PARSE, 1, 1, "header");
    parse_fails(TOKENRING_INPUT_TSV, "node\tdc\track\ttokens\na\td\tr\t1,q\n", TOKENRING_E_PARSE,
                2, 9, "expected a token");
    parse_fails(TOKENRING_INPUT_TSV, "node\tdc\track\ttokens\na\td\tr\n", TOKENRING_E_PARSE, 2, 6,
                "4 tab-separated");
}

/* -------------------------------------------------------------- nodetool */

static void ring_samples(void **state)
{
    (void)state;
    size_t len;
    char *text = slurp("samples/ring-5.0-joining-node-vnodes16.txt", &len);
    assert_int_equal(tokenring_input_detect(text, len), TOKENRING_INPUT_NODETOOL_RING);
    tokenring_cluster *c = parse_ok(TOKENRING_INPUT_AUTO, text, len, 0);
    assert_int_equal(tokenring_cluster_node_count(c), 2);
    node_is(c, 0, "172.16.0.12", "datacenter1", "RAC1", 16, TOKENRING_STATE_JOINING,
            TOKENRING_UP);
    node_is(c, 1, "172.16.0.11", "datacenter1", "RAC1", 16, TOKENRING_STATE_NORMAL,
            TOKENRING_UP);
    tokenring_cluster_node_info n;
    assert_int_equal(tokenring_cluster_node(&n, c, 1), TOKENRING_OK);
    assert_true(n.tokens[15] == 8920941708532877872LL); /* the wrap-around token */
    free(text);
    tokenring_cluster_free(c);

    /* 2.0: rows grouped by node, not sorted; Note line first */
    text = slurp("samples/ring-2.0-vnodes3-ownership-note.txt", &len);
    c = parse_ok(TOKENRING_INPUT_NODETOOL_RING, text, len, 0);
    assert_int_equal(tokenring_cluster_node_count(c), 3);
    node_is(c, 1, "192.168.1.95", "datacenter1", "rack1", 3, 0, 0);
    free(text);
    tokenring_cluster_free(c);

    /* 2 DCs, whitespace-only line, trailing spaces */
    text = slurp("samples/ring-3.10-2dc-9nodes-single-token.txt", &len);
    c = parse_ok(TOKENRING_INPUT_NODETOOL_RING, text, len, 0);
    assert_int_equal(tokenring_cluster_node_count(c), 9);
    node_is(c, 8, "127.0.0.9", "dc2", "r1", 1, 0, 0);
    free(text);
    tokenring_cluster_free(c);
}

static void ring_incomplete(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        uint32_t line, col;
        const char *msg;
    } cases[] = {
        { "samples/ring-3.11-vnodes256-1node-elided.txt", 10, 1, "elided" },
        { "samples/ring-4.1-3racks-vnodes16-elided-warning.txt", 7, 1, "elided" },
        { "samples/ring-2.x-ec2-vnodes-partial.txt", 5, 79, "wrap-around token" },
        { "samples/peers-cqlsh-2.1-select-star-abridged.txt", 3, 115, "elided token set" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t len;
        char *text = slurp(cases[i].file, &len);
        tokenring_cluster *c = NULL;
        tokenring_error err;
        memset(&err, 0, sizeof err);
        assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
        assert_int_equal(tokenring_cluster_parse(c, 0, text, len, 0, NULL, &err),
                         TOKENRING_E_PARSE);
        assert_int_equal(err.line, cases[i].line);
        assert_int_equal(err.column, cases[i].col);
        assert_non_null(strstr(err.message, cases[i].msg));
        assert_int_equal(tokenring_cluster_node_count(c), 0);
        assert_int_equal(tokenring_cluster_parse(c, 0, text, len, TOKENRING_PARSE_ALLOW_PARTIAL,
                                                 NULL, &err),
                         TOKENRING_OK);
        assert_true(tokenring_cluster_flags(c) & TOKENRING_CLUSTER_PARTIAL);
        assert_true(tokenring_cluster_node_count(c) > 0);
        free(text);
        tokenring_cluster_free(c);
    }
}

static const char RING_HDR[] =
    "Datacenter: dc1\n==========\n"
    "Address    Rack        Status State   Load            Owns                Token\n";

static void ring_errors(void **state)
{
    (void)state;
    const int R = TOKENRING_INPUT_NODETOOL_RING;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s%s", RING_HDR, "1.2.3.4  r1  Up  Gone  1 KiB  50%  5\n");
    parse_fails(R, buf, TOKENRING_E_PARSE, 4, 18, "expected state");
    snprintf(buf, sizeof buf, "%s%s", RING_HDR, "1.2.3.4  r1  Up  Normal  1 KiB  lots  5\n");
    parse_fails(R, buf, TOKENRING_E_PARSE, 4, 33, "expected Owns");
    snprintf(buf, sizeof buf, "%s%s", RING_HDR, "1.2.3.4  r1  Up  Normal  5\n");
    parse_fails(R, buf, TOKENRING_E_PARSE, 4, 1, "7 or more fields");
    snprintf(buf, sizeof buf, "%s%s%s", RING_HDR, "1.2.3.4  r1  Up  Normal  1 KiB  ?  5\n",
             "1.2.3.4  r2  Up  Normal  1 KiB  ?  6\n");
    parse_fails(R, buf, TOKENRING_E_EXISTS, 5, 10, "rack r1");
    snprintf(buf, sizeof buf, "%s%s%s", RING_HDR, "1.2.3.4  r1  Up  Normal  1 KiB  ?  5\n",
             "1.2.3.5  r1  Up  Normal  1 KiB  ?  5\n");
    parse_fails(R, buf, TOKENRING_E_EXISTS, 5, 36, "already held by node 1.2.3.4");
    snprintf(buf, sizeof buf, "%s%s", RING_HDR, "Error: Keyspace nope does not exist\n");
    parse_fails(R, buf, TOKENRING_E_PARSE, 4, 1, "nodetool reported an error");
    parse_fails(R, "Datacenter:\n", TOKENRING_E_PARSE, 1, 12, "datacenter name");
    parse_fails(R, "Datacenter: a\n==========\n1.2.3.4  r1  Up  Normal  1 KiB  ?  5\n",
                TOKENRING_E_PARSE, 3, 1, "header");
    parse_fails(R, "\n\n", TOKENRING_E_PARSE, 2, 1, "Datacenter");
}

static void status_samples(void **state)
{
    (void)state;
    size_t len;
    char *text = slurp("samples/status-2.2-3dc-single-token-dn-anonymized.txt", &len);
    assert_int_equal(tokenring_input_detect(text, len), TOKENRING_INPUT_NODETOOL_STATUS);
    tokenring_cluster *c = parse_ok(TOKENRING_INPUT_AUTO, text, len, 0);
    assert_int_equal(tokenring_cluster_node_count(c), 9);
    node_is(c, 4, "11.111.111.115", "dc2", "rac1", 0, TOKENRING_STATE_NORMAL, TOKENRING_DOWN);
    tokenring_cluster_node_info n;
    assert_int_equal(tokenring_cluster_node(&n, c, 8), TOKENRING_OK);
    assert_string_equal(n.host_id, "97123467-7dab-4a9e-bd44-5613ac419961");
    assert_int_equal(n.declared_tokens, 1);
    assert_null(n.tokens);
    assert_true(tokenring_cluster_flags(c) & TOKENRING_CLUSTER_TOKENS_UNKNOWN);
    assert_null(tokenring_cluster_topology(c));
    /* the writer keeps the token count */
    char *a = format(c);
    assert_non_null(strstr(a, "status=down host_id=f8452845-42ff-482c-87d9-a05f3074fd06 "
                              "num_tokens=1\n"));
    tokenring_cluster *c2 = parse_ok(TOKENRING_INPUT_TOPOLOGY, a, strlen(a), 0);
    char *b = format(c2);
    assert_string_equal(a, b);
    free(a);
    free(b);
    tokenring_cluster_free(c2);
    free(text);

    /* merging nodetool ring into it is refused: different nodes are fine, but these... */
    tokenring_cluster_free(c);

    /* single-token layout: the Token column gives the token */
    text = slurp("samples/status-3.11-1node-token-column-note.txt", &len);
    c = parse_ok(TOKENRING_INPUT_NODETOOL_STATUS, text, len, 0);
    node_is(c, 0, "10.244.1.12", "dc1", "default", 1, 0, 0);
    assert_non_null(tokenring_cluster_topology(c));
    free(text);
    tokenring_cluster_free(c);

    /* CRLF, 2 named DCs */
    text = slurp("samples/status-5.0-2dc-named-dcs-vnodes16-crlf.txt", &len);
    c = parse_ok(TOKENRING_INPUT_AUTO, text, len, 0);
    node_is(c, 2, "192.168.100.152", "Terres-de-la-Couronne", "Port-Real", 0, 0, 0);
    free(text);
    tokenring_cluster_free(c);

    /* UJ */
    text = slurp("samples/status-5.0-uj-joining-vnodes16.txt", &len);
    c = parse_ok(TOKENRING_INPUT_AUTO, text, len, 0);
    node_is(c, 0, "172.16.0.12", "datacenter1", "RAC1", 0, TOKENRING_STATE_JOINING, 0);
    free(text);
    tokenring_cluster_free(c);
}

static const char STATUS_HDR[] =
    "Datacenter: dc1\n===============\nStatus=Up/Down\n"
    "|/ State=Normal/Leaving/Joining/Moving\n"
    "--  Address    Load       Tokens  Owns (effective)  Host ID  Rack\n";

static void status_errors(void **state)
{
    (void)state;
    const int S = TOKENRING_INPUT_NODETOOL_STATUS;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s%s", STATUS_HDR, "UX  1.2.3.4  1 KiB  16  ?  h  r1\n");
    parse_fails(S, buf, TOKENRING_E_PARSE, 6, 1, "expected a status row");
    snprintf(buf, sizeof buf, "%s%s", STATUS_HDR, "UN  1.2.3.4  1 KiB  -3  ?  h  r1\n");
    parse_fails(S, buf, TOKENRING_E_PARSE, 6, 21, "token count");
    snprintf(buf, sizeof buf, "%s%s", STATUS_HDR, "UN  1.2.3.4  1 KiB  16  ?  h\n");
    parse_fails(S, buf, TOKENRING_E_PARSE, 6, 29, "ends early");
    snprintf(buf, sizeof buf, "%s%s", STATUS_HDR, "UN  1.2.3.4  1 KiB  16  ?  h  r1 extra\n");
    parse_fails(S, buf, TOKENRING_E_PARSE, 6, 34, "after the Rack column");
    snprintf(buf, sizeof buf, "%s%s%s", STATUS_HDR, "UN  1.2.3.4  1 KiB  16  ?  h  r1\n",
             "UN  1.2.3.4  1 KiB  16  ?  h  r1\n");
    parse_fails(S, buf, TOKENRING_E_EXISTS, 7, 5, "listed twice");
    /* a host ID follows the rules of names (found by fuzzing: it used to be kept raw,
     * and the written topology file then failed to parse) */
    snprintf(buf, sizeof buf, "%s%s", STATUS_HDR, "UN  1.2.3.4  1 KiB  16  ?  h\xff  r1\n");
    parse_fails(S, buf, TOKENRING_E_INVAL, 6, 28, "host ID name is not valid UTF-8");
    parse_fails(S, "Datacenter: dc1\n=====\n--  Address  Load  Colour  Rack\n",
                TOKENRING_E_PARSE, 3, 20, "unknown status column");
    parse_fails(S, "Datacenter: dc1\n=====\nUN  1.2.3.4  1 KiB  16  ?  h  r1\n",
                TOKENRING_E_PARSE, 3, 1, "header");
}

/* ------------------------------------------------------------------ cqlsh */

static void cqlsh(void **state)
{
    (void)state;
    size_t la, lb;
    char *peers = slurp("samples/written/cqlsh-peers_v2-2dc_3r_2r_vn8.txt", &la);
    char *local = slurp("samples/written/cqlsh-local-2dc_3r_2r_vn8.txt", &lb);
    assert_int_equal(tokenring_input_detect(peers, la), TOKENRING_INPUT_CQLSH);
    assert_int_equal(tokenring_input_detect(local, lb), TOKENRING_INPUT_CQLSH);
    tokenring_cluster *c = parse_ok(TOKENRING_INPUT_CQLSH, peers, la, 0);
    assert_int_equal(tokenring_cluster_node_count(c), 9);
    assert_int_equal(tokenring_cluster_parse(c, TOKENRING_INPUT_AUTO, local, lb, 0, NULL, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_cluster_node_count(c), 10);
    tokenring_cluster_node_info n;
    assert_int_equal(tokenring_cluster_node(&n, c, 9), TOKENRING_OK);
    assert_string_equal(n.name, "a0");
    assert_string_equal(n.host_id, "0b0b6ad4-8b0b-4f0e-9d21-8c1c2b1d0a01");
    /* string order '-1707..', '-3372..', ... came back sorted numerically */
    for (size_t i = 1; i < n.token_count; i++)
        assert_true(n.tokens[i - 1] < n.tokens[i]);
    assert_true(n.tokens[0] == -9151770387480999426LL);

    /* the same nodes as the vector topology */
    size_t lt;
    char *tsv = slurp("replicas_2dc_3r_2r_vn8.topology.tsv", &lt);
    tokenring_cluster *v = parse_ok(TOKENRING_INPUT_TSV, tsv, lt, 0);
    for (size_t i = 0; i < 10; i++) {
        tokenring_cluster_node_info a, b;
        size_t j = (i + 9) % 10; /* a0 came last */
        assert_int_equal(tokenring_cluster_node(&a, v, i), TOKENRING_OK);
        assert_int_equal(tokenring_cluster_node(&b, c, j), TOKENRING_OK);
        assert_string_equal(a.name, b.name);
        assert_int_equal(a.token_count, b.token_count);
        assert_memory_equal(a.tokens, b.tokens, a.token_count * sizeof *a.tokens);
    }
    /* parsing peers again merges (same nodes, same tokens): nothing changes */
    char *before = format(c);
    assert_int_equal(tokenring_cluster_parse(c, 0, peers, la, 0, NULL, NULL), TOKENRING_OK);
    char *after = format(c);
    assert_string_equal(before, after);
    free(before);
    free(after);
    free(tsv);
    free(peers);
    free(local);
    tokenring_cluster_free(c);
    tokenring_cluster_free(v);

    const int Q = TOKENRING_INPUT_CQLSH;
    static const char H[] = " peer | data_center | rack | tokens\n------+----+----+----\n";
    char buf[512];
    snprintf(buf, sizeof buf, "%s a | d | r | {'1', '2'}\n\n(3 rows)\n", H);
    parse_fails(Q, buf, TOKENRING_E_PARSE, 5, 2, "incomplete");
    snprintf(buf, sizeof buf, "%s a | d | r | {'1' '2'}\n", H);
    parse_fails(Q, buf, TOKENRING_E_PARSE, 3, 19, "expected ',' or '}'");
    snprintf(buf, sizeof buf, "%s a | d | r | {'1', }\n", H);
    parse_fails(Q, buf, TOKENRING_E_PARSE, 3, 20, "expected a token");
    snprintf(buf, sizeof buf, "%s a | d | r | 1, 2\n", H);
    parse_fails(Q, buf, TOKENRING_E_PARSE, 3, 14, "as a set");
    snprintf(buf, sizeof buf, "%s a | d | r\n", H);
    parse_fails(Q, buf, TOKENRING_E_PARSE, 3, 1, "expected 4");
    snprintf(buf, sizeof buf, "%s a | null | r | {'1'}\n", H);
    parse_fails(Q, buf, TOKENRING_E_PARSE, 3, 6, "no datacenter");
    parse_fails(Q, " peer | rack | tokens\n---+---+---\n", TOKENRING_E_PARSE, 1, 1,
                "data_center");
    parse_fails(Q, " peer | data_center | rack | tokens\n a | b | c | d\n", TOKENRING_E_PARSE,
                2, 1, "'----+----'");
    /* cqlsh's pager line between rows */
    snprintf(buf, sizeof buf, "%s a | d | r | {'1'}\n---MORE---\n b | d | r | {'2'}\n\n(2 rows)\n",
             H);
    tokenring_cluster *cm = parse_ok(Q, buf, strlen(buf), 0);
    assert_int_equal(tokenring_cluster_node_count(cm), 2);
    tokenring_cluster_free(cm);
    /* null tokens: the node is kept with unknown tokens */
    snprintf(buf, sizeof buf, "%s a | d | r | null\n b | d | r | {'5'}\n\n(2 rows)\n", H);
    tokenring_cluster *c3 = parse_ok(Q, buf, strlen(buf), 0);
    assert_true(tokenring_cluster_flags(c3) & TOKENRING_CLUSTER_TOKENS_UNKNOWN);
    tokenring_cluster_free(c3);
}

/* ------------------------------------------------------------------ merging */

static void merge_rules(void **state)
{
    (void)state;
    size_t ls, lr;
    char *st = slurp("samples/status-5.0-uj-joining-vnodes16.txt", &ls);
    char *rg = slurp("samples/ring-5.0-joining-node-vnodes16.txt", &lr);
    tokenring_cluster *c = parse_ok(0, st, ls, 0);
    assert_null(tokenring_cluster_topology(c));
    assert_int_equal(tokenring_cluster_parse(c, 0, rg, lr, 0, NULL, NULL), TOKENRING_OK);
    assert_non_null(tokenring_cluster_topology(c));
    assert_int_equal(tokenring_cluster_flags(c), 0);
    tokenring_cluster_node_info n;
    assert_int_equal(tokenring_cluster_node(&n, c, 0), TOKENRING_OK);
    assert_string_equal(n.host_id, "2c7d204b-8375-4ee1-b2c2-bcda888f3cfb");
    assert_int_equal(n.token_count, 16);
    assert_int_equal(n.state, TOKENRING_STATE_JOINING);

    /* a conflict leaves everything as it was */
    char *before = format(c);
    static const char moved[] = "node 172.16.0.11 dc=datacenter1 rack=RAC9 tokens=1\n";
    tokenring_error err;
    assert_int_equal(tokenring_cluster_parse(c, TOKENRING_INPUT_TOPOLOGY, moved,
                                             sizeof moved - 1, 0, NULL, &err),
                     TOKENRING_E_EXISTS);
    assert_int_equal(err.line, 1);
    assert_non_null(strstr(err.message, "rack RAC1"));
    static const char other_tokens[] = "node 172.16.0.11 dc=datacenter1 rack=RAC1 tokens=1\n";
    assert_int_equal(tokenring_cluster_parse(c, TOKENRING_INPUT_TOPOLOGY, other_tokens,
                                             sizeof other_tokens - 1, 0, NULL, &err),
                     TOKENRING_E_EXISTS);
    assert_non_null(strstr(err.message, "different tokens"));
    static const char stolen[] = "node new dc=datacenter1 rack=RAC1 tokens=8920941708532877872\n";
    assert_int_equal(tokenring_cluster_parse(c, TOKENRING_INPUT_TOPOLOGY, stolen,
                                             sizeof stolen - 1, 0, NULL, &err),
                     TOKENRING_E_EXISTS);
    assert_int_equal(err.line, 1);
    char *after = format(c);
    assert_string_equal(before, after);
    free(before);
    free(after);

    /* add_topology and add_keyspace */
    tokenring_topology *t = NULL;
    int64_t toks[] = { 42, 43 };
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node(t, "z", "datacenter1", "RAC2", toks, 2, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_set_state(t, "z", TOKENRING_STATE_MOVING,
                                                  TOKENRING_DOWN, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_cluster_add_topology(c, t, NULL), TOKENRING_OK);
    node_is(c, 2, "z", "datacenter1", "RAC2", 2, TOKENRING_STATE_MOVING, TOKENRING_DOWN);
    assert_int_equal(tokenring_cluster_add_topology(c, t, NULL), TOKENRING_OK); /* same */
    assert_int_equal(tokenring_cluster_node_count(c), 3);
    assert_int_equal(tokenring_cluster_add_topology(NULL, t, NULL), TOKENRING_E_INVAL);
    tokenring_topology_free(t);
    tokenring_replication *r = NULL;
    assert_int_equal(tokenring_replication_parse(&r, "dc1=3/1", 7, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_add_keyspace(c, "ks", r, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_add_keyspace(c, "ks", r, &err), TOKENRING_E_EXISTS);
    assert_int_equal(tokenring_cluster_add_keyspace(c, "a b", r, &err), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_add_keyspace(c, "", r, &err), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_add_keyspace(c, "x", NULL, &err), TOKENRING_E_INVAL);
    tokenring_replication_free(r); /* the cluster holds its own copy */
    const tokenring_replication *kr;
    assert_int_equal(tokenring_cluster_keyspace(NULL, &kr, c, 0), TOKENRING_OK);
    int32_t rf, tr;
    assert_int_equal(tokenring_replication_get(NULL, &rf, &tr, kr, 0), TOKENRING_OK);
    assert_int_equal(rf, 3);
    assert_int_equal(tr, 1);
    char *text = format(c);
    assert_non_null(strstr(text, "keyspace ks {'class': 'NetworkTopologyStrategy', "
                                 "'dc1': '3/1'}\n"));
    free(text);
    free(st);
    free(rg);
    tokenring_cluster_free(c);
    tokenring_cluster_free(NULL);
    assert_int_equal(tokenring_cluster_node_count(NULL), 0);
    assert_int_equal(tokenring_cluster_flags(NULL), 0);
    assert_null(tokenring_cluster_topology(NULL));
    assert_int_equal(tokenring_cluster_new(NULL), TOKENRING_E_INVAL);
}

static void format_names(void **state)
{
    (void)state;
    assert_string_equal(tokenring_input_format_name(TOKENRING_INPUT_CQLSH), "cqlsh");
    assert_string_equal(tokenring_input_format_name(TOKENRING_INPUT_NODETOOL_RING),
                        "nodetool-ring");
    assert_string_equal(tokenring_input_format_name(42), "unknown");
    assert_int_equal(tokenring_input_detect(NULL, 0), TOKENRING_INPUT_AUTO);
    assert_int_equal(tokenring_input_detect("\n\n", 2), TOKENRING_INPUT_AUTO);
}

/* --------------------------------------------------- allocation failures */

static long fail_at, calls, live;

static void *t_malloc(size_t n, void *u)
{
    (void)u;
    if (fail_at && ++calls == fail_at)
        return NULL;
    void *p = malloc(n);
    if (p)
        live++;
    return p;
}

static void *t_realloc(void *p, size_t n, void *u)
{
    (void)u;
    if (fail_at && ++calls == fail_at)
        return NULL;
    void *q = realloc(p, n);
    if (q && !p)
        live++;
    return q;
}

static void t_free(void *p, void *u)
{
    (void)u;
    if (p)
        live--;
    free(p);
}

/* Each format, merged into a non-empty cluster, failing the 1st, 2nd, ... allocation:
 * NOMEM, the cluster unchanged, nothing leaked. */
static void allocation_failures(void **state)
{
    (void)state;
    static const char *files[] = {
        "samples/ring-5.0-joining-node-vnodes16.txt",
        "samples/status-2.2-3dc-single-token-dn-anonymized.txt",
        "samples/written/cqlsh-local-2dc_3r_2r_vn8.txt",
        "replicas_toy.topology.tsv",
    };
    tokenring_allocator a = { t_malloc, t_realloc, t_free, NULL };
    assert_int_equal(tokenring_set_allocator(&a), TOKENRING_OK);
    for (size_t f = 0; f < sizeof files / sizeof *files + 1; f++) {
        size_t len;
        char *text = f < 4 ? slurp(files[f], &len) : NULL;
        if (!text) {
            text = strdup(TOPO);
            len = strlen(TOPO);
        }
        for (long k = 1;; k++) {
            live = 0;
            tokenring_cluster *c = NULL;
            static const char seed[] = "keyspace base 3\nnode s dc=x rack=y tokens=-1\n";
            fail_at = 0;
            assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
            assert_int_equal(tokenring_cluster_parse(c, TOKENRING_INPUT_TOPOLOGY, seed,
                                                     sizeof seed - 1, 0, NULL, NULL),
                             TOKENRING_OK);
            char *before = format(c);
            calls = 0;
            fail_at = k;
            tokenring_error err;
            int rc = tokenring_cluster_parse(c, 0, text, len, 0, NULL, &err);
            long made = calls;
            fail_at = 0;
            if (rc == TOKENRING_OK) {
                assert_true(made < k);
                tokenring_cluster_free(c);
                free(before);
                assert_int_equal(live, 0);
                break;
            }
            assert_int_equal(rc, TOKENRING_E_NOMEM);
            char *after = format(c);
            assert_string_equal(before, after);
            free(before);
            free(after);
            tokenring_cluster_free(c);
            assert_int_equal(live, 0);
        }
        free(text);
    }
    /* the writer too */
    tokenring_cluster *c = parse_ok(TOKENRING_INPUT_TOPOLOGY, TOPO, strlen(TOPO), 0);
    for (long k = 1;; k++) {
        size_t len = 0;
        calls = 0;
        fail_at = k;
        int rc = tokenring_cluster_format(NULL, 0, &len, c);
        fail_at = 0;
        if (rc != TOKENRING_E_NOMEM) {
            assert_int_equal(rc, TOKENRING_E_BUFSIZE);
            break;
        }
    }
    tokenring_cluster_free(c);
    assert_int_equal(live, 0);
    assert_int_equal(tokenring_set_allocator(NULL), TOKENRING_OK);
}

/* ============================================================ */

/* Error paths and less common layouts of the nodetool ring/status and cqlsh parsers
 * (parse.h) that the sample-driven tests above do not reach: each bad input gets
 * its documented status code, a message naming the problem, and leaves the cluster empty;
 * each odd-but-valid layout (tabs, trailing blanks, "(1 row)" footers, long fields) parses
 * to the expected nodes and tokens. */

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

static tokenring_cluster *parse_text_ok(int format, const char *text, uint32_t flags)
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

static void node_placed(const tokenring_cluster *c, size_t i, const char *name,
                        const char *dc, const char *rack, size_t ntok)
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
        { RING, RHDR "1.2.3.4  r1  Up  Normal  1 KiB  ?  -9223372036854775809\n",
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
    tokenring_cluster *c = parse_text_ok(RING,
                                    "Datacenter: dc1  \n==========\n"
                                    "Address\tRack\tStatus\tState\tLoad\tOwns\tToken\t\n"
                                    "\t\t\t\t\t\t9\n"
                                    "1.2.3.4\tr1\tUp\tNormal\t1 KiB\t33.3%\t-5 \t\n"
                                    "1.2.3.5\tr1\tDown\tLeaving\t?\t1,5%\t9\t\n",
                                    0);
    assert_int_equal(tokenring_cluster_node_count(c), 2);
    node_placed(c, 0, "1.2.3.4", "dc1", "r1", 1);
    node_placed(c, 1, "1.2.3.5", "dc1", "r1", 1);
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
        { STATUS, SHDR "--  Address  Load  Token  Rack\nUN  1.2.3.4  1 KiB  -9223372036854775809  r1\n",
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
    tokenring_cluster *c = parse_text_ok(STATUS,
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
    c = parse_text_ok(STATUS, SHDR SCOLS "UN  1.2.3.1  1 KiB  16  ?  ?  r1\n", 0);
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
        { CQLSH, CHDR " a | dc1 | r1 | {'-9223372036854775809'}\n", TOKENRING_E_RANGE,
          "outside the signed 64-bit range" },
        { CQLSH, CHDR " a | dc1 | r1 | {'" LONG41 "'}\n", TOKENRING_E_PARSE, "token" },
        { CQLSH, CHDR " a | dc1 | r1 | {'5'\n", TOKENRING_E_PARSE, "" },
        { CQLSH, CHDR " a | dc1 | r1 | {'5\n", TOKENRING_E_PARSE, "" },
        { CQLSH, CHDR " a | dc1 | r1 | " LONG41 "\n", TOKENRING_E_PARSE, "" },
        { CQLSH, CHDR " null | dc1 | r1 | {'5'}\n", TOKENRING_E_PARSE, "" },
        { CQLSH, CHDR "  | dc1 | r1 | {'5'}\n", TOKENRING_E_PARSE, "" },
        { CQLSH, CHDR " a | null | r1 | {'5'}\n", TOKENRING_E_PARSE, "" },
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
    tokenring_cluster *c = parse_text_ok(CQLSH,
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
    node_placed(c, 0, "a", "dc1", "r1", 2);
    node_placed(c, 1, "b", "dc1", "r2", 1);
    node_placed(c, 2, "c", "dc1", "r2", 1);
    tokenring_cluster_free(c);
}

/* ============================================================ */

/* The topology-file and TSV readers, format detection, the cluster accessors' argument
 * checks, merging of inputs that disagree, and the writer's quoting (parse.h): the cases
 * the tests above do not reach. Bad inputs must give their documented code and a message,
 * and leave the cluster unchanged; quoted names must survive a write/read round trip. */

#define TOPO TOKENRING_INPUT_TOPOLOGY
#define TSV TOKENRING_INPUT_TSV

static int parse(tokenring_cluster *c, int format, const char *text, tokenring_error *err)
{
    memset(err, 0, sizeof *err);
    return tokenring_cluster_parse(c, format, text, strlen(text), 0, NULL, err);
}

static void fails(int format, const char *text, int code, const char *want)
{
    tokenring_cluster *c = NULL;
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    tokenring_error err;
    int rc = parse(c, format, text, &err);
    if (rc != code || strstr(err.message, want) == NULL || err.message[0] == '\0')
        fail_msg("%s\nwant %s '%s'\ngot  %s '%s' at %u:%u", text, tokenring_status_name(code),
                 want, tokenring_status_name(rc), err.message, err.line, err.column);
    assert_int_equal(tokenring_cluster_node_count(c), 0);
    assert_int_equal(tokenring_cluster_keyspace_count(c), 0);
    tokenring_cluster_free(c);
}

static tokenring_cluster *ok(int format, const char *text)
{
    tokenring_cluster *c = NULL;
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    tokenring_error err;
    int rc = parse(c, format, text, &err);
    if (rc != TOKENRING_OK)
        fail_msg("%s\nfailed: %s '%s' at %u:%u", text, tokenring_status_name(rc), err.message,
                 err.line, err.column);
    return c;
}

static char *write_out(const tokenring_cluster *c)
{
    size_t len = 0;
    int rc = tokenring_cluster_format(NULL, 0, &len, c);
    assert_true(rc == TOKENRING_E_BUFSIZE || rc == TOKENRING_OK);
    char *buf = malloc(len + 1);
    assert_non_null(buf);
    assert_int_equal(tokenring_cluster_format(buf, len + 1, &len, c), TOKENRING_OK);
    return buf;
}

static void topology_file_errors(void **state)
{
    (void)state;
    fails(TOPO, "node a dc=d rack=r tokens=1 colour=blue\n", TOKENRING_E_PARSE, "colour");
    fails(TOPO, "node a dc=d rack=r tokens=1 bare\n", TOKENRING_E_PARSE, "bare");
    fails(TOPO, "node\n", TOKENRING_E_PARSE, "");
    fails(TOPO, "node a dc=d rack=r num_tokens=0\n", TOKENRING_E_RANGE, "");
    fails(TOPO, "node a dc=d rack=r num_tokens=65537\n", TOKENRING_E_RANGE, "");
    fails(TOPO, "node a dc=d rack=r num_tokens=x\n", TOKENRING_E_PARSE, "");
    fails(TOPO, "node a dc=d rack=r num_tokens=2 tokens=1\n", TOKENRING_E_PARSE, "");
    fails(TOPO, "keyspace ks 3\n    2\n", TOKENRING_E_PARSE, "");
    fails(TOPO, "node a dc=d rack=r state=sleeping tokens=1\n", TOKENRING_E_PARSE, "");
    fails(TOPO, "node a dc=d rack=r status=asleep tokens=1\n", TOKENRING_E_PARSE, "");
    fails(TOPO, "node a dc=\"unterminated rack=r tokens=1\n", TOKENRING_E_PARSE, "");
    fails(TOPO, "node a dc=\"d\"x rack=r tokens=1\n", TOKENRING_E_PARSE, "");
    fails(TOPO, "node a dc=d rack=r\n", TOKENRING_E_PARSE, "");
    fails(TOPO, "node a rack=r tokens=1\n", TOKENRING_E_PARSE, "");
    fails(TOPO, "node a dc=d rack=r tokens=1 dc=e\n", TOKENRING_E_PARSE, "");
    fails(TOPO, "node a dc=d rack=r tokens=1\nnode a dc=d rack=r tokens=2\n", TOKENRING_E_EXISTS,
          "already defined");
    fails(TOPO, "node a dc=d rack=r tokens=1\nnode b dc=d rack=r tokens=1\n", TOKENRING_E_EXISTS,
          "");
    fails(TOPO, "    1,2\n", TOKENRING_E_PARSE, "");
    fails(TOPO, "frobnicate a\n", TOKENRING_E_PARSE, "");
    fails(TOPO, "keyspace\n", TOKENRING_E_PARSE, "");
    fails(TOPO, "keyspace ks\n", TOKENRING_E_PARSE, "");
    fails(TOPO, "keyspace ks dc1=x\n", TOKENRING_E_PARSE, "");
    fails(TOPO, "keyspace ks 3\nkeyspace ks 2\n", TOKENRING_E_EXISTS, "");
    fails(TOPO, "node a\x01 dc=d rack=r tokens=1\n", TOKENRING_E_INVAL, "");
    fails(TOPO, "node \xff dc=d rack=r tokens=1\n", TOKENRING_E_INVAL, "");
    fails(TOPO, "node a dc=\xc3\x28 rack=r tokens=1\n", TOKENRING_E_INVAL, "");
    fails(TOPO, "node a dc=d rack=r tokens=1 host_id=\"\"\n", TOKENRING_E_INVAL, "empty");
    /* escapes decode, but names may not hold control characters */
    fails(TOPO, "node a dc=\"x\\ty\" rack=r tokens=1\n", TOKENRING_E_INVAL, "control character");
    fails(TOPO, "node a dc=d rack=\"\\n\" tokens=1\n", TOKENRING_E_INVAL, "control character");
    fails(TOPO, "node a dc=d rack=r host_id=\"\\r\" tokens=1\n", TOKENRING_E_INVAL,
          "control character");
    fails(TOPO, "node a dc=d rack=r tokens=1,,2\n", TOKENRING_E_PARSE, "");
    fails(TOPO, "node a dc=d rack=r tokens=-9223372036854775809\n", TOKENRING_E_RANGE, "");
    fails(TOPO, "node a dc=d rack=r tokens=\n", TOKENRING_E_EMPTY, "");
    /* a name longer than TOKENRING_MAX_NAME */
    char big[600];
    snprintf(big, sizeof big, "node a dc=d rack=%0300d tokens=1\n", 7);
    fails(TOPO, big, TOKENRING_E_RANGE, "");
    char quoted[1200];
    char *p = quoted + sprintf(quoted, "node a dc=\"");
    for (int i = 0; i < 300; i++)
        p += sprintf(p, "\\n");
    sprintf(p, "\" rack=r tokens=1\n");
    fails(TOPO, quoted, TOKENRING_E_RANGE, "");
    /* NUL bytes */
    {
        tokenring_cluster *c = NULL;
        assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
        static const char nul[] = "node a dc=d\0 rack=r tokens=1\n";
        tokenring_error err;
        assert_int_not_equal(tokenring_cluster_parse(c, TOPO, nul, sizeof nul - 1, 0, NULL, &err),
                             TOKENRING_OK);
        assert_true(err.message[0] != '\0');
        assert_int_equal(tokenring_cluster_node_count(c), 0);
        tokenring_cluster_free(c);
    }
}

static void topology_file_layouts(void **state)
{
    (void)state;
    /* byte-order mark, CRLF, comments, quoted names with escapes, continuation lines,
     * every state and status, host IDs */
    tokenring_cluster *c = ok(TOPO, "\xEF\xBB\xBF# cluster\r\n"
                                    "keyspace ks   {'class': 'SimpleStrategy', 'replication_factor': '2'}\r\n"
                                    "keyspace k2 dc1=3 # comment\r\n"
                                    "node \"a b\" dc=\"x=y\" rack=\"q\\\"\\\\#\" host_id=\"h\\\\2\" tokens=1,\r\n"
                                    "\t2 3\r\n"
                                    "    4\r\n"
                                    "node b\tdc=d  rack=r state=leaving status=down host_id=\"h 1\" tokens=9\n"
                                    "node c dc=d rack=r state=moving status=unknown tokens=10\n"
                                    "node d dc=d rack=r state=joining num_tokens=4\n");
    assert_int_equal(tokenring_cluster_node_count(c), 4);
    assert_int_equal(tokenring_cluster_keyspace_count(c), 2);
    tokenring_cluster_node_info n;
    assert_int_equal(tokenring_cluster_node(&n, c, 0), TOKENRING_OK);
    assert_string_equal(n.name, "a b");
    assert_string_equal(n.datacenter, "x=y");
    assert_string_equal(n.rack, "q\"\\#");
    assert_string_equal(n.host_id, "h\\2");
    assert_int_equal(n.token_count, 4);
    assert_int_equal(n.tokens[3], 4);
    assert_int_equal(tokenring_cluster_node(&n, c, 1), TOKENRING_OK);
    assert_string_equal(n.host_id, "h 1");
    assert_int_equal(n.state, TOKENRING_STATE_LEAVING);
    assert_int_equal(n.liveness, TOKENRING_DOWN);
    assert_int_equal(tokenring_cluster_node(&n, c, 2), TOKENRING_OK);
    assert_int_equal(n.state, TOKENRING_STATE_MOVING);
    assert_int_equal(n.liveness, TOKENRING_UNKNOWN);
    assert_int_equal(tokenring_cluster_node(&n, c, 3), TOKENRING_OK);
    assert_int_equal(n.token_count, 0);
    assert_int_equal(n.declared_tokens, 4);
    assert_true(tokenring_cluster_flags(c) & TOKENRING_CLUSTER_TOKENS_UNKNOWN);
    assert_null(tokenring_cluster_topology(c));

    /* the writer quotes and escapes; reading its output gives the same cluster back */
    char *text = write_out(c);
    assert_non_null(strstr(text, "\"a b\""));
    assert_non_null(strstr(text, "\"q\\\"\\\\#\""));
    tokenring_cluster *c2 = ok(TOPO, text);
    char *text2 = write_out(c2);
    assert_string_equal(text, text2);
    free(text);
    free(text2);
    tokenring_cluster_free(c2);

    /* a buffer too small: BUFSIZE, the needed length, still NUL-terminated */
    char small[8];
    size_t need = 0;
    assert_int_equal(tokenring_cluster_format(small, sizeof small, &need, c), TOKENRING_E_BUFSIZE);
    assert_true(need > sizeof small);
    assert_int_equal(tokenring_cluster_format(small, sizeof small, NULL, NULL), TOKENRING_E_INVAL);
    tokenring_cluster_free(c);
}

static void tsv_errors_and_layouts(void **state)
{
    (void)state;
    const char *H = "node\tdc\track\ttokens\n";
    char buf[256];
    fails(TSV, "node dc rack tokens\n", TOKENRING_E_PARSE, "header");
    fails(TSV, "", TOKENRING_E_PARSE, "header");
    snprintf(buf, sizeof buf, "%sa\td\tr\t1\textra\n", H);
    fails(TSV, buf, TOKENRING_E_PARSE, "found more");
    snprintf(buf, sizeof buf, "%sa\td\tr\n", H);
    fails(TSV, buf, TOKENRING_E_PARSE, "found 3");
    snprintf(buf, sizeof buf, "%sa\td\tr\t1\na\td\tr\t2\n", H);
    fails(TSV, buf, TOKENRING_E_EXISTS, "already defined");
    snprintf(buf, sizeof buf, "%sa\td\tr\t\n", H);
    fails(TSV, buf, TOKENRING_E_EMPTY, "at least one token");
    snprintf(buf, sizeof buf, "%sa\td\tr\t1,x\n", H);
    fails(TSV, buf, TOKENRING_E_PARSE, "");
    snprintf(buf, sizeof buf, "%sa\td\tr\t3,1\n\n \nb\td\tr2\t2\n", H);
    tokenring_cluster *c = ok(TSV, buf);
    assert_int_equal(tokenring_cluster_node_count(c), 2);
    assert_non_null(tokenring_cluster_topology(c));
    tokenring_cluster_node_info n;
    assert_int_equal(tokenring_cluster_node(&n, c, 0), TOKENRING_OK);
    assert_int_equal(n.token_count, 2);
    assert_int_equal(n.tokens[0], 1);
    tokenring_cluster_free(c);
}

static void detection_and_names(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int format;
    } cases[] = {
        { "node\tdc\track\ttokens\na\td\tr\t1\n", TOKENRING_INPUT_TSV },
        { "# comment\nnode a dc=d rack=r tokens=1\n", TOKENRING_INPUT_TOPOLOGY },
        { "keyspace\tks 3\n", TOKENRING_INPUT_TOPOLOGY },
        { "\xEF\xBB\xBFnode a dc=d rack=r tokens=1\n", TOKENRING_INPUT_TOPOLOGY },
        { "Datacenter: dc1\n=====\nAddress\tRack\tStatus\tState\tLoad\tOwns\tToken\n",
          TOKENRING_INPUT_NODETOOL_RING },
        { "Datacenter: dc1\n=====\nStatus=Up/Down\n", TOKENRING_INPUT_NODETOOL_STATUS },
        { "  --  Address  Load  Rack\n", TOKENRING_INPUT_NODETOOL_STATUS },
        { " peer | rack\n------+------\n", TOKENRING_INPUT_CQLSH },
        { " a | b\n--+--\n", TOKENRING_INPUT_CQLSH },
        { " a | b\n-- x\n", TOKENRING_INPUT_AUTO },
        { "hello\nworld\n", TOKENRING_INPUT_AUTO },
        { "", TOKENRING_INPUT_AUTO },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int got = tokenring_input_detect(cases[i].text, strlen(cases[i].text));
        if (got != cases[i].format)
            fail_msg("case %zu: detected %s, want %s", i, tokenring_input_format_name(got),
                     tokenring_input_format_name(cases[i].format));
    }
    assert_int_equal(tokenring_input_detect(NULL, 0), TOKENRING_INPUT_AUTO);
    assert_string_equal(tokenring_input_format_name(TOKENRING_INPUT_AUTO), "auto");
    assert_string_equal(tokenring_input_format_name(TOKENRING_INPUT_TOPOLOGY), "topology");
    assert_string_equal(tokenring_input_format_name(TOKENRING_INPUT_TSV), "tsv");
    assert_string_equal(tokenring_input_format_name(TOKENRING_INPUT_NODETOOL_STATUS),
                        "nodetool-status");
    assert_string_equal(tokenring_input_format_name(12345), "unknown");

    /* an undetectable text: PARSE; an unknown format or flag: INVAL */
    tokenring_cluster *c = NULL;
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    tokenring_error err;
    assert_int_equal(parse(c, TOKENRING_INPUT_AUTO, "hello\n", &err), TOKENRING_E_PARSE);
    assert_true(err.message[0] != '\0');
    assert_int_equal(parse(c, 999, "node a dc=d rack=r tokens=1\n", &err), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_parse(c, TOPO, "x", 1, 0x100, NULL, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_parse(c, TOPO, NULL, 3, 0, NULL, &err), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_parse(NULL, TOPO, "x", 1, 0, NULL, &err),
                     TOKENRING_E_INVAL);
    int fmt = -1;
    assert_int_equal(tokenring_cluster_parse(c, TOKENRING_INPUT_AUTO,
                                             "node\tdc\track\ttokens\na\td\tr\t1\n", 28, 0,
                                             &fmt, &err),
                     TOKENRING_OK);
    assert_int_equal(fmt, TOKENRING_INPUT_TSV);
    tokenring_cluster_free(c);
}

static void accessors_and_merging(void **state)
{
    (void)state;
    tokenring_cluster *c = ok(TOPO, "keyspace ks 3\nnode a dc=d rack=r num_tokens=2\n");
    size_t idx = 99;
    const char *name = NULL;
    const tokenring_replication *rep = NULL;
    assert_int_equal(tokenring_cluster_find_keyspace(&idx, c, "ks"), TOKENRING_OK);
    assert_int_equal(idx, 0);
    assert_int_equal(tokenring_cluster_find_keyspace(&idx, c, "nope"), TOKENRING_E_NOTFOUND);
    assert_int_equal(tokenring_cluster_find_keyspace(NULL, c, "ks"), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_find_keyspace(&idx, NULL, "ks"), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_find_keyspace(&idx, c, NULL), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_keyspace(&name, &rep, c, 0), TOKENRING_OK);
    assert_string_equal(name, "ks");
    assert_int_equal(tokenring_replication_strategy(rep), TOKENRING_SIMPLE);
    assert_int_equal(tokenring_cluster_keyspace(NULL, NULL, c, 0), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_keyspace(&name, &rep, c, 1), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_cluster_keyspace(&name, &rep, NULL, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_keyspace_count(NULL), 0);
    assert_int_equal(tokenring_cluster_node_count(NULL), 0);
    assert_int_equal(tokenring_cluster_flags(NULL), 0);
    assert_null(tokenring_cluster_topology(NULL));
    tokenring_cluster_node_info n;
    assert_int_equal(tokenring_cluster_node(NULL, c, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_node(&n, NULL, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_node(&n, c, 5), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_cluster_new(NULL), TOKENRING_E_INVAL);
    tokenring_cluster_free(NULL);

    tokenring_error err;
    tokenring_replication *r2 = NULL;
    assert_int_equal(tokenring_replication_simple(&r2, 2, 0, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_add_keyspace(c, "ks", r2, &err), TOKENRING_E_EXISTS);
    assert_int_equal(tokenring_cluster_add_keyspace(c, NULL, r2, &err), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_add_keyspace(NULL, "x", r2, &err), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_add_keyspace(c, "x", NULL, &err), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_add_keyspace(c, "has space", r2, &err), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_keyspace_count(c), 1);
    assert_int_equal(tokenring_cluster_add_keyspace(c, "ks2", r2, &err), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_keyspace_count(c), 2);
    tokenring_replication_free(r2);

    /* merging: the declared count must match tokens learned later, both ways */
    assert_int_equal(parse(c, TOPO, "node a dc=d rack=r tokens=1,2,3\n", &err), TOKENRING_E_EXISTS);
    assert_true(err.message[0] != '\0');
    assert_int_equal(parse(c, TOPO, "node a dc=d rack=r2 tokens=1,2\n", &err), TOKENRING_E_EXISTS);
    assert_int_equal(parse(c, TOPO, "node a dc=d rack=r num_tokens=2\n", &err), TOKENRING_OK);
    assert_int_equal(parse(c, TOPO, "node a dc=d rack=r tokens=1,2\n", &err), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_node(&n, c, 0), TOKENRING_OK);
    assert_int_equal(n.token_count, 2);
    assert_int_equal(parse(c, TOPO, "node a dc=d rack=r num_tokens=3\n", &err), TOKENRING_E_EXISTS);
    assert_int_equal(parse(c, TOPO, "node a dc=d rack=r tokens=1,3\n", &err), TOKENRING_E_EXISTS);
    assert_int_equal(parse(c, TOPO, "node a dc=d rack=r num_tokens=2 host_id=h\n", &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_cluster_node(&n, c, 0), TOKENRING_OK);
    assert_string_equal(n.host_id, "h");

    /* add_topology: argument checks, merge conflicts, host IDs and states carried over */
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    const int64_t tk[] = { 1, 2 };
    assert_int_equal(tokenring_topology_add_node(t, "a", "d", "other", tk, 2, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_add_topology(c, t, &err), TOKENRING_E_EXISTS);
    assert_int_equal(tokenring_cluster_add_topology(NULL, t, &err), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_add_topology(c, NULL, &err), TOKENRING_E_INVAL);
    tokenring_topology_free(t);
    tokenring_cluster_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(topology_file),
        cmocka_unit_test(topology_long_token_lists_round_trip),
        cmocka_unit_test(topology_errors),
        cmocka_unit_test(tsv_vectors),
        cmocka_unit_test(ring_samples),
        cmocka_unit_test(ring_incomplete),
        cmocka_unit_test(ring_errors),
        cmocka_unit_test(status_samples),
        cmocka_unit_test(status_errors),
        cmocka_unit_test(cqlsh),
        cmocka_unit_test(merge_rules),
        cmocka_unit_test(format_names),
        cmocka_unit_test(allocation_failures),
        cmocka_unit_test(ring_bad_inputs),
        cmocka_unit_test(ring_layouts),
        cmocka_unit_test(status_bad_inputs),
        cmocka_unit_test(status_layouts),
        cmocka_unit_test(cqlsh_bad_inputs),
        cmocka_unit_test(cqlsh_layouts),
        cmocka_unit_test(topology_file_errors),
        cmocka_unit_test(topology_file_layouts),
        cmocka_unit_test(tsv_errors_and_layouts),
        cmocka_unit_test(detection_and_names),
        cmocka_unit_test(accessors_and_merging),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
