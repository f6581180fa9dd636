/* SPDX-License-Identifier: Apache-2.0 */
/* The topology-file and TSV readers, format detection, the cluster accessors' argument
 * checks, merging of inputs that disagree, and the writer's quoting (parse.h): the cases
 * test_parse.c does not reach. Bad inputs must give their documented code and a message,
 * and leave the cluster unchanged; quoted names must survive a write/read round trip. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"

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
    fails(TOPO, "node a dc=d rack=r tokens=9223372036854775808\n", TOKENRING_E_RANGE, "");
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
    assert_int_equal(tokenring_cluster_parse(c, TOKENRING_INPUT_AUTO, "node\tdc\track\ttokens\n",
                                             20, 0, &fmt, &err),
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
        cmocka_unit_test(topology_file_errors),   cmocka_unit_test(topology_file_layouts),
        cmocka_unit_test(tsv_errors_and_layouts), cmocka_unit_test(detection_and_names),
        cmocka_unit_test(accessors_and_merging),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
