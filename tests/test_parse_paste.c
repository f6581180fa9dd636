/* SPDX-License-Identifier: Apache-2.0 */
/* What operators really paste (lib/parse/parse_paste.c and the readers' variants): a shell or
 * cqlsh prompt line, the JVM's "Picked up ..." notices, cqlsh's version WARNING, a block
 * indented as a whole, `nodetool status` and `nodetool ring` in one text, cqlsh EXPAND ON
 * records, describering without ", " separators (DSE), the pre-1.2 ring with a DC column,
 * and the seed's own queries without data_center and rack. Each is read as the plain
 * output it came from; what is still refused names its line and column. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <tokenring/tokenring.h>

#define AUTO TOKENRING_INPUT_AUTO

static const char RING[] =
    "Datacenter: dc1\n"
    "==========\n"
    "Address    Rack        Status State   Load            Owns                Token\n"
    "                                                                          300\n"
    "10.0.0.1   r1          Up     Normal  98.97 KiB       25.00%              -100\n"
    "10.0.0.2   r2          Up     Normal  98.96 KiB       25.00%              100\n"
    "10.0.0.1   r1          Up     Normal  98.97 KiB       25.00%              200\n"
    "10.0.0.2   r2          Up     Normal  98.96 KiB       25.00%              300\n";

static const char STATUS[] =
    "Datacenter: dc1\n"
    "===============\n"
    "Status=Up/Down\n"
    "|/ State=Normal/Leaving/Joining/Moving\n"
    "--  Address   Load       Tokens  Owns    Host ID                               Rack\n"
    "UN  10.0.0.1  98.97 KiB  2       50.0%   11111111-2222-3333-4444-555555555555  r1\n"
    "DN  10.0.0.2  98.96 KiB  2       50.0%   66666666-7777-8888-9999-000000000000  r2\n";

/* The cluster's topology file (the writer's text), or fails with the error. */
static char *parse_text(int fmt, const char *text, uint32_t flags, int *format_out,
                        uint32_t *cluster_flags)
{
    tokenring_cluster *c = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    int rc = tokenring_cluster_parse(c, fmt, text, strlen(text), flags, format_out, &err);
    if (rc != TOKENRING_OK)
        fail_msg("parse failed (%d) at %u:%u: %s\n%s", rc, err.line, err.column, err.message,
                 text);
    size_t len = 0;
    tokenring_cluster_format(NULL, 0, &len, c);
    char *s = malloc(len + 1);
    assert_non_null(s);
    assert_int_equal(tokenring_cluster_format(s, len + 1, &len, c), TOKENRING_OK);
    if (cluster_flags)
        *cluster_flags = tokenring_cluster_flags(c);
    tokenring_cluster_free(c);
    return s;
}

static void same_as(const char *pasted, const char *plain, int fmt)
{
    int f1 = -1, f2 = -1;
    char *a = parse_text(AUTO, pasted, 0, &f1, NULL);
    char *b = parse_text(fmt, plain, 0, &f2, NULL);
    if (strcmp(a, b) != 0)
        fail_msg("pasted text reads as\n%s\nnot as\n%s\n(from)\n%s", a, b, pasted);
    if (fmt != TOKENRING_INPUT_TOPOLOGY) /* the plain text of another format */
        assert_int_equal(f1, f2);
    free(a);
    free(b);
}

/* Fails with code at line:col, the message holding every want (NULL-ended), the cluster
 * (holding a node) unchanged. */
static void fails(int fmt, const char *text, uint32_t flags, int code, uint32_t line,
                  uint32_t col, ...)
{
    tokenring_cluster *c = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    static const char base[] = "node x dc=d rack=r tokens=5\n";
    assert_int_equal(tokenring_cluster_parse(c, TOKENRING_INPUT_TOPOLOGY, base,
                                             sizeof base - 1, 0, NULL, NULL), TOKENRING_OK);
    int rc = tokenring_cluster_parse(c, fmt, text, strlen(text), flags, NULL, &err);
    if (rc != code || err.line != line || err.column != col)
        fail_msg("want %d at %u:%u, got %d at %u:%u '%s'\n%s", code, line, col, rc, err.line,
                 err.column, err.message, text);
    va_list ap;
    va_start(ap, col);
    for (const char *w; (w = va_arg(ap, const char *)) != NULL;)
        if (!strstr(err.message, w))
            fail_msg("message '%s' lacks '%s'", err.message, w);
    va_end(ap);
    assert_int_equal(tokenring_cluster_node_count(c), 1);
    tokenring_cluster_free(c);
}

static char *cat(const char *a, const char *b, const char *c)
{
    size_t n = strlen(a) + strlen(b) + strlen(c) + 1;
    char *s = malloc(n);
    assert_non_null(s);
    snprintf(s, n, "%s%s%s", a, b, c);
    return s;
}

/* Every line of text with prefix before it. */
static char *indent(const char *text, const char *prefix)
{
    size_t n = strlen(text), p = strlen(prefix), o = 0;
    char *s = malloc(n * (p + 1) + 1);
    assert_non_null(s);
    bool bol = true;
    for (size_t i = 0; i < n; i++) {
        if (bol && text[i] != '\n') {
            memcpy(s + o, prefix, p);
            o += p;
        }
        s[o++] = text[i];
        bol = text[i] == '\n';
    }
    s[o] = '\0';
    return s;
}

static void prompts_and_notices(void **state)
{
    (void)state;
    static const char *const heads[] = {
        "$ nodetool ring\n",
        "# nodetool ring\n",
        "user@host:~$ nodetool -h 10.0.0.1 ring\n",
        "[root@cass1 ~]# sudo /opt/cassandra/bin/nodetool -u admin ring\n",
        "nodetool ring\n",
        "% nodetool ring\n",
        "Picked up JAVA_TOOL_OPTIONS: -Dfile.encoding=UTF-8\n",
        "Picked up _JAVA_OPTIONS: -Xmx1g\n",
        "$ nodetool ring\nPicked up JAVA_TOOL_OPTIONS: -Djava.net.preferIPv4Stack=true\n"
        "Picked up JDK_JAVA_OPTIONS: --add-opens=x\n",
    };
    for (size_t i = 0; i < sizeof heads / sizeof *heads; i++) {
        char *t = cat(heads[i], RING, "");
        same_as(t, RING, TOKENRING_INPUT_NODETOOL_RING);
        free(t);
        /* the prompt of the next command after the listing is no row */
        t = cat(RING, "user@host:~$ nodetool status\n", "");
        same_as(t, RING, TOKENRING_INPUT_NODETOOL_RING);
        free(t);
    }
    /* positions stay those of the text given: line 3 of the listing is line 4 */
    char *t = cat("$ nodetool ring\n", RING, "");
    char *bad = strstr(t, "  100\n");
    memcpy(bad, "  1x0", 5);
    fails(AUTO, t, 0, TOKENRING_E_PARSE, 7, 75, "'1x0'", NULL);
    free(t);
    /* a prompt of another command is not the listing's: named, line and column */
    t = cat("$ ls -l\n", RING, "");
    fails(AUTO, t, 0, TOKENRING_E_PARSE, 1, 1, "expected 'Datacenter: <name>'", NULL);
    fails(AUTO, "\n$ ls -l\ntotal 0\n", 0, TOKENRING_E_PARSE, 2, 1, "at '$ ls -l'",
          "remove any line that is not part", NULL);
    fails(TOKENRING_INPUT_NODETOOL_RING, t, 0, TOKENRING_E_PARSE, 1, 1, "Datacenter:", NULL);
    free(t);
    /* a word that merely holds nodetool is no prompt: "node" is no prompt character */
    fails(AUTO, "node nodetool dc=d rack=r tokens=7\nnode x dc=d rack=r tokens=8\n", 0,
          TOKENRING_E_EXISTS, 2, 6, NULL);
}

static const char CQLSH[] =
    " peer     | data_center | rack | tokens\n"
    "----------+-------------+------+----------------\n"
    " 10.0.0.2 |         dc1 |   r2 | {'100', '300'}\n"
    "\n"
    "(1 rows)\n";

static void cqlsh_notices(void **state)
{
    (void)state;
    char *t = cat("WARNING: cqlsh was built against 5.0.0, but this server is 6.0.0.  All "
                  "features may not work!\ncqlsh> SELECT peer, data_center, rack, tokens FROM "
                  "system.peers_v2;\n\n", CQLSH, "cqlsh:system> \n");
    same_as(t, CQLSH, TOKENRING_INPUT_CQLSH);
    free(t);
}

static void indented_blocks(void **state)
{
    (void)state;
    static const char *const prefixes[] = { "    ", "\t", "  ", "> " };
    for (size_t i = 0; i < 3; i++) {
        char *t = indent(RING, prefixes[i]);
        same_as(t, RING, TOKENRING_INPUT_NODETOOL_RING);
        char *u = cat("    $ nodetool ring\n", t, "");
        same_as(u, RING, TOKENRING_INPUT_NODETOOL_RING);
        free(u);
        free(t);
        t = indent(STATUS, prefixes[i]);
        same_as(t, STATUS, TOKENRING_INPUT_NODETOOL_STATUS);
        free(t);
        t = indent(CQLSH, prefixes[i]);
        same_as(t, CQLSH, TOKENRING_INPUT_CQLSH);
        free(t);
    }
    /* an error names the column in the indented text */
    char *t = indent(RING, "    ");
    char *bad = strstr(t, "  100\n");
    memcpy(bad, "  1x0", 5);
    fails(AUTO, t, 0, TOKENRING_E_PARSE, 6, 79, "'1x0'", NULL);
    free(t);
    /* "> " is no indentation: refused, at the line */
    t = indent(RING, prefixes[3]);
    fails(AUTO, t, 0, TOKENRING_E_PARSE, 1, 1, "cannot recognise", NULL);
    free(t);
    /* a topology file given as one is read as written (indentation continues tokens) */
    fails(TOKENRING_INPUT_TOPOLOGY, "  node a dc=d rack=r tokens=1\n", 0, TOKENRING_E_PARSE,
          1, 3, "unexpected indented line", NULL);
    /* ... and an indented topology file pasted as is reads */
    same_as("    node a dc=d rack=r tokens=1\n    node b dc=d rack=r tokens=\n"
            "        2,3\n", "node a dc=d rack=r tokens=1\nnode b dc=d rack=r tokens=2,3\n",
            TOKENRING_INPUT_TOPOLOGY);
}

static void status_and_ring_together(void **state)
{
    (void)state;
    for (int order = 0; order < 2; order++) {
        char *t = order ? cat("$ nodetool ring\n", RING, STATUS)
                        : cat(STATUS, "\n$ nodetool ring\n", RING);
        int f = -1;
        tokenring_cluster *c = NULL;
        tokenring_error err;
        assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
        if (tokenring_cluster_parse(c, order ? TOKENRING_INPUT_NODETOOL_RING : AUTO, t,
                                    strlen(t), 0, &f, &err) != TOKENRING_OK)
            fail_msg("%u:%u %s", err.line, err.column, err.message);
        assert_int_equal(f, order ? TOKENRING_INPUT_NODETOOL_RING
                                  : TOKENRING_INPUT_NODETOOL_STATUS);
        assert_int_equal(tokenring_cluster_node_count(c), 2);
        tokenring_cluster_node_info a, b;
        tokenring_cluster_node(&a, c, 0);
        tokenring_cluster_node(&b, c, 1);
        assert_string_equal(a.name, "10.0.0.1");
        assert_string_equal(a.host_id, "11111111-2222-3333-4444-555555555555");
        assert_int_equal(a.token_count, 2);
        assert_int_equal(a.tokens[0], -100);
        assert_int_equal(b.tokens[1], 300);
        /* the status and state of the first listing */
        assert_int_equal(b.liveness, order ? TOKENRING_UP : TOKENRING_DOWN);
        assert_non_null(tokenring_cluster_topology(c));
        tokenring_cluster_free(c);
        free(t);
    }
    /* an error in the second listing: its line in the whole text, nothing merged */
    char *t = cat(STATUS, "$ nodetool ring\n", RING);
    char *bad = strstr(t, "  300\n10.0.0.1");
    memcpy(bad, "  3z0", 5);
    fails(AUTO, t, 0, TOKENRING_E_PARSE, 12, 75, "'3z0'", NULL);
    free(t);
    /* the listings disagree: the status says 3 tokens */
    t = cat(STATUS, "\n", RING);
    bad = strstr(t, "  2       50.0%");
    memcpy(bad, "  3", 3);
    fails(AUTO, t, 0, TOKENRING_E_EXISTS, 13, 1, "has 2 tokens here but 3", NULL);
    free(t);
}

static const char EXPAND[] =
    "cqlsh> EXPAND ON\n"
    "Now Expanded output is enabled\n"
    "cqlsh> SELECT peer, data_center, rack, tokens FROM system.peers_v2;\n"
    "\n"
    "@ Row 1\n"
    "-------------+----------------\n"
    " peer        | 10.0.0.2\n"
    " data_center | dc1\n"
    " rack        | r2\n"
    " tokens      | {'100', '300'}\n"
    "\n"
    "@ Row 2\n"
    "-------------+----------------\n"
    " peer        | 10.0.0.3\n"
    " data_center | dc1\n"
    " rack        | r3   \n"
    " tokens      | {'400'}\n"
    "\n"
    "(2 rows)\n"
    "cqlsh> SELECT broadcast_address, data_center, rack, tokens FROM system.local;\n"
    "\n"
    "@ Row 1\n"
    "-------------------+---------------\n"
    " broadcast_address | 10.0.0.1\n"
    " data_center       | dc1\n"
    " rack              | r1\n"
    " tokens            | {'-100', '200'}\n"
    "\n"
    "(1 rows)\n";

static const char EXPAND_PLAIN[] =
    " peer     | data_center | rack | tokens\n"
    "----------+-------------+------+----------------\n"
    " 10.0.0.2 |         dc1 |   r2 | {'100', '300'}\n"
    " 10.0.0.3 |         dc1 |   r3 | {'400'}\n"
    "\n"
    "(2 rows)\n"
    " broadcast_address | data_center | rack | tokens\n"
    "-------------------+-------------+------+----------------\n"
    "          10.0.0.1 |         dc1 |   r1 | {'-100', '200'}\n"
    "\n"
    "(1 rows)\n";

/* EXPAND with the text at from replaced by to. */
static char *expand_with(const char *from, const char *to)
{
    const char *at = strstr(EXPAND, from);
    assert_non_null(at);
    size_t n = strlen(EXPAND) + strlen(to) + 1;
    char *s = malloc(n);
    assert_non_null(s);
    snprintf(s, n, "%.*s%s%s", (int)(at - EXPAND), EXPAND, to, at + strlen(from));
    return s;
}

static void expand_on(void **state)
{
    (void)state;
    same_as(EXPAND, EXPAND_PLAIN, TOKENRING_INPUT_CQLSH);
    int f = -1;
    free(parse_text(TOKENRING_INPUT_CQLSH, EXPAND, 0, &f, NULL));
    assert_int_equal(f, TOKENRING_INPUT_CQLSH);
    /* errors at the records' lines and columns */
    char *t = expand_with("{'400'}", "{'4o0'}");
    fails(AUTO, t, 0, TOKENRING_E_PARSE, 17, 17, "'4o0'", NULL);
    free(t);
    t = expand_with("(2 rows)", "(3 rows)");
    fails(AUTO, t, 0, TOKENRING_E_PARSE, 19, 2, "3 rows but the table above has 2", NULL);
    free(t);
    t = expand_with("@ Row 2\n-------------+----------------\n", "@ Row 2\n");
    fails(AUTO, t, 0, TOKENRING_E_PARSE, 13, 1, "'----+----' line under '@ Row' (line 12)",
          NULL);
    free(t);
    t = expand_with("@ Row 2\n-------------+----------------\n", "@ Row 2\n\n");
    fails(AUTO, t, 0, TOKENRING_E_PARSE, 13, 1, "'----+----'", NULL);
    free(t);
    t = expand_with(" rack        | r3   \n", " rack          r3\n");
    fails(AUTO, t, 0, TOKENRING_E_PARSE, 16, 1, "expected 'column | value'", NULL);
    free(t);
    t = expand_with(" rack        | r3   \n", " rack        | r|3\n");
    fails(AUTO, t, 0, TOKENRING_E_PARSE, 16, 17, "column rack", "without EXPAND ON", NULL);
    free(t);
    /* a line with no column name before its '|' (found by fuzzing: the name's trim ran
     * past its start) */
    t = expand_with(" rack        | r3   \n", "             | r3\n");
    fails(AUTO, t, 0, TOKENRING_E_PARSE, 16, 14, "expected a column name before '|'", NULL);
    free(t);
    t = expand_with(" rack        | r3   \n", "| r3\n");
    fails(AUTO, t, 0, TOKENRING_E_PARSE, 16, 1, "expected a column name", NULL);
    free(t);
    t = expand_with(" rack        | r3   \n", " zone        | r3\n");
    fails(AUTO, t, 0, TOKENRING_E_PARSE, 12, 1, "differ from those of the row on line 5",
          NULL);
    free(t);
    t = expand_with(" peer        | 10.0.0.3\n data_center | dc1\n rack        | r3   \n"
                    " tokens      | {'400'}\n", "");
    fails(AUTO, t, 0, TOKENRING_E_PARSE, 12, 1, "expected 'column | value' lines", NULL);
    free(t);
    /* the last record's rule is missing at the end of the text */
    fails(AUTO, "@ Row 1\n", 0, TOKENRING_E_PARSE, 1, 1, "'----+----'", NULL);
    /* a record without data_center: the header's error names the record */
    t = expand_with(" data_center       | dc1\n", "");
    fails(AUTO, t, 0, TOKENRING_E_PARSE, 22, 1, "lacks the column data_center", NULL);
    free(t);
    /* no footer at the end: read as far as it goes */
    const char *cut = strstr(EXPAND, "\n(2 rows)");
    char *head = strndup(EXPAND, (size_t)(cut - EXPAND) + 1);
    assert_non_null(head);
    free(parse_text(AUTO, head, 0, NULL, NULL));
    free(head);
}

static const char DR[] =
    "Schema Version:d8210030-20a4-3f05-b2ef-ea154a6d8ef6\n"
    "TokenRange: \n"
    "\tTokenRange(start_token:300, end_token:-100, endpoints:[10.0.0.1, 10.0.0.2], "
    "rpc_endpoints:[10.0.0.1, 10.0.0.2], endpoint_details:[EndpointDetails(host:10.0.0.1, "
    "datacenter:dc1, rack:r1), EndpointDetails(host:10.0.0.2, datacenter:dc1, rack:r2)])\n"
    "\tTokenRange(start_token:-100, end_token:300, endpoints:[10.0.0.2, 10.0.0.1], "
    "rpc_endpoints:[10.0.0.2, 10.0.0.1], endpoint_details:[EndpointDetails(host:10.0.0.2, "
    "datacenter:dc1, rack:r2), EndpointDetails(host:10.0.0.1, datacenter:dc1, rack:r1)])\n";

/* DR without ", " before endpoints:, rpc_endpoints: and endpoint_details: */
static char *dse(const char *text)
{
    char *s = strdup(text);
    assert_non_null(s);
    static const char *const fields[] = { ", endpoints:", ", rpc_endpoints:",
                                          ", endpoint_details:" };
    for (size_t k = 0; k < 3; k++)
        for (char *p; (p = strstr(s, fields[k])) != NULL;)
            memmove(p, p + 2, strlen(p + 2) + 1);
    return s;
}

static void describering_without_separators(void **state)
{
    (void)state;
    char *t = dse(DR);
    assert_non_null(strstr(t, "end_token:-100endpoints:[10.0.0.1, 10.0.0.2]rpc_endpoints:"));
    same_as(t, DR, TOKENRING_INPUT_NODETOOL_DESCRIBERING);
    /* a byte token ending in 'e' runs into endpoints: too */
    tokenring_cluster *c = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_set_partitioner(c, TOKENRING_PARTITIONER_BYTE_ORDERED,
                                                       NULL), TOKENRING_OK);
    const char *dse_bo =
        "TokenRange:\n"
        "\tTokenRange(start_token:0ffe, end_token:0aeendpoints:[a]rpc_endpoints:[a]"
        "endpoint_details:[EndpointDetails(host:a, datacenter:d, rack:r)])\n"
        "\tTokenRange(start_token:0ae, end_token:0ffeendpoints:[b]rpc_endpoints:[b]"
        "endpoint_details:[EndpointDetails(host:b, datacenter:d, rack:r)])\n";
    if (tokenring_cluster_parse(c, AUTO, dse_bo, strlen(dse_bo), 0, NULL, &err) != TOKENRING_OK)
        fail_msg("%u:%u %s", err.line, err.column, err.message);
    const uint8_t *b = NULL;
    size_t bn = 0;
    assert_int_equal(tokenring_topology_node_token_bytes(&b, &bn, tokenring_cluster_topology(c),
                                                         0, 0), TOKENRING_OK);
    assert_int_equal(bn, 2);
    assert_int_equal(b[0], 0x00); /* "0ae": an odd digit count reads with a leading 0 */
    assert_int_equal(b[1], 0xae);
    tokenring_cluster_free(c);
    /* still refused: a field missing, named */
    char *u = strdup(t);
    char *at = strstr(u, "rpc_endpoints:");
    memcpy(at, "rpc_endpoint:_", 14);
    fails(AUTO, u, 0, TOKENRING_E_PARSE, 3, (uint32_t)(at - strchr(u + 60, '\t')) + 1,
          "expected 'rpc_endpoints:'", NULL);
    free(u);
    free(t);
}

static const char LEGACY[] =
    "Address         DC          Rack        Status State   Load            Owns                Token\n"
    "                                                                                           300\n"
    "10.0.0.1        dc1         r1          Up     Normal  6.19 KB         25.00%              -100\n"
    "10.0.0.3        dc2         r1          Down   Normal  6.2 KB          25.00%              50\n"
    "10.0.0.2        dc1         r2          Up     Normal  6.19 KB         25.00%              100\n"
    "10.0.0.4        dc2         r1          Up     Leaving 6.19 KB         25.00%              300\n";

static const char LEGACY_TOPO[] =
    "node 10.0.0.1 dc=dc1 rack=r1 tokens=-100\n"
    "node 10.0.0.3 dc=dc2 rack=r1 status=down tokens=50\n"
    "node 10.0.0.2 dc=dc1 rack=r2 tokens=100\n"
    "node 10.0.0.4 dc=dc2 rack=r1 state=leaving tokens=300\n";

static char *legacy_with(const char *from, const char *to)
{
    const char *at = strstr(LEGACY, from);
    assert_non_null(at);
    size_t n = strlen(LEGACY) + strlen(to) + 1;
    char *s = malloc(n);
    assert_non_null(s);
    snprintf(s, n, "%.*s%s%s", (int)(at - LEGACY), LEGACY, to, at + strlen(from));
    return s;
}

static void ring_before_1_2(void **state)
{
    (void)state;
    same_as(LEGACY, LEGACY_TOPO, TOKENRING_INPUT_TOPOLOGY);
    char *t = legacy_with("Owns         ", "Effective-Ownership");
    same_as(t, LEGACY_TOPO, TOKENRING_INPUT_TOPOLOGY);
    free(t);
    t = cat("$ nodetool ring\n", LEGACY, "Note: Ownership information does not include "
                                          "topology\n");
    same_as(t, LEGACY_TOPO, TOKENRING_INPUT_TOPOLOGY);
    free(t);
    /* the wrap-around token in no row: incomplete */
    t = legacy_with("Leaving 6.19 KB         25.00%              300",
                    "Leaving 6.19 KB         25.00%              301");
    fails(AUTO, t, 0, TOKENRING_E_PARSE, 2, 92, "wrap-around token 300", NULL);
    uint32_t fl = 0;
    free(parse_text(AUTO, t, TOKENRING_PARSE_ALLOW_PARTIAL, NULL, &fl));
    assert_true(fl & TOKENRING_CLUSTER_PARTIAL);
    free(t);
    /* 0.7/0.8 had neither DC nor Rack: named, with what to add */
    fails(AUTO, "Address         Status State   Load            Owns    Token\n"
                "10.0.0.1        Up     Normal  6.19 KB         100.00% 5\n", 0,
          TOKENRING_E_PARSE, 1, 1, "Address DC Rack Status State Load Owns Token",
          "add the 'Datacenter: <name>' line", NULL);
    t = legacy_with("Up     Normal  6.19 KB         25.00%              -100",
                    "Upp    Normal  6.19 KB         25.00%              -100");
    fails(AUTO, t, 0, TOKENRING_E_PARSE, 3, 41, "'Upp'", NULL);
    free(t);
    t = legacy_with("Normal  6.2 KB", "Normal6.2 KB");
    fails(AUTO, t, 0, TOKENRING_E_PARSE, 4, 48, "'Normal6.2'", NULL);
    free(t);
    t = legacy_with("6.2 KB          25.00%", "6.2 KB          25.00+");
    fails(AUTO, t, 0, TOKENRING_E_PARSE, 4, 72, "Owns", NULL);
    free(t);
    t = legacy_with("6.2 KB          25.00%              50", "6.2 KB          25.00%   x");
    fails(AUTO, t, 0, TOKENRING_E_PARSE, 4, 81, "'x'", NULL);
    free(t);
    t = legacy_with("10.0.0.3        dc2         r1          Down   ",
                    "10.0.0.3        dc2         ");
    fails(AUTO, t, 0, TOKENRING_E_PARSE, 4, 1, "8 or more fields", NULL);
    free(t);
    t = legacy_with("10.0.0.3        dc2 ", "10.0.0.1        dc2 ");
    fails(AUTO, t, 0, TOKENRING_E_EXISTS, 4, 29, "node 10.0.0.1 is in datacenter dc1", NULL);
    free(t);
    t = legacy_with("10.0.0.3        dc2         r1          Down   Normal  6.2 KB",
                    "10.0.0.1        dc1         r1          Down   Normal  6.2 KB");
    fails(AUTO, t, 0, TOKENRING_E_PARSE, 4, 41, "another status or state", NULL);
    free(t);
    t = legacy_with("                                                                   "
                    "                        300\n", "");
    same_as(t, LEGACY_TOPO, TOKENRING_INPUT_TOPOLOGY);
    free(t);
    fails(AUTO, "Address         DC          Rack        Status State   Load            "
                "Owns                Token\n", 0, TOKENRING_E_PARSE, 1, 1, "without any row",
          NULL);
    fails(AUTO, "Address         DC          Rack        Status State   Load            "
                "Owns                Token\n  9x\n", 0, TOKENRING_E_PARSE, 2, 3, "'9x'", NULL);
    fails(AUTO, "Address         DC          Rack        Status State   Load            "
                "Owns                Token\n...\n", 0, TOKENRING_E_PARSE, 2, 1, "elided", NULL);
}

static void seed_queries(void **state)
{
    (void)state;
    static const char seed[] =
        "cqlsh> SELECT peer, tokens FROM system.peers_v2;\n"
        "\n"
        " peer     | tokens\n"
        "----------+----------------\n"
        " 10.0.0.2 | {'100', '300'}\n"
        "\n"
        "(1 rows)\n"
        "cqlsh> SELECT tokens FROM system.local;\n"
        "\n"
        " tokens\n"
        "-----------------\n"
        " {'-100', '200'}\n"
        "\n"
        "(1 rows)\n";
    uint32_t fl = 0;
    int f = -1;
    char *s = parse_text(AUTO, seed, 0, &f, &fl);
    assert_int_equal(f, TOKENRING_INPUT_CQLSH);
    assert_true(fl & TOKENRING_CLUSTER_DEFAULT_DC_RACK);
    assert_non_null(strstr(s, "node 10.0.0.2 dc=datacenter1 rack=rack1 tokens=100,300\n"
                              "node local dc=datacenter1 rack=rack1 tokens=-100,200\n"));
    free(s);
    /* one column of tokens alone is detected as cqlsh */
    assert_int_equal(tokenring_input_detect(seed + 147, strlen(seed + 147)),
                     TOKENRING_INPUT_CQLSH);
    /* the flag says defaults were used, only then */
    s = parse_text(AUTO, CQLSH, 0, NULL, &fl);
    assert_false(fl & TOKENRING_CLUSTER_DEFAULT_DC_RACK);
    free(s);
    /* as EXPAND ON records too */
    s = parse_text(AUTO, "@ Row 1\n---+---\n peer   | a\n tokens | {'7'}\n\n(1 rows)\n", 0, NULL,
                   &fl);
    assert_true(fl & TOKENRING_CLUSTER_DEFAULT_DC_RACK);
    assert_non_null(strstr(s, "node a dc=datacenter1 rack=rack1 tokens=7\n"));
    free(s);
    /* a datacenter without a rack is still refused: the column to add is named */
    fails(AUTO, " peer | data_center | tokens\n------+-------------+-------\n a | d | {'1'}\n",
          0, TOKENRING_E_PARSE, 1, 1, "lacks the column rack", NULL);
    /* and a table naming neither node nor tokens */
    fails(AUTO, " peer | rack\n------+------\n a | r\n", 0, TOKENRING_E_PARSE, 1, 1,
          "lacks the column data_center", NULL);
}

/* The edges of the transforms: bounds, rarer prompts and headers. */
static void paste_edges(void **state)
{
    (void)state;
    /* a record of more columns than a table holds */
    char rec[4096] = "@ Row 1\n---+---\n";
    for (int k = 0; k < 65; k++)
        snprintf(rec + strlen(rec), sizeof rec - strlen(rec), " c%d | v\n", k);
    fails(AUTO, rec, 0, TOKENRING_E_PARSE, 67, 1, "too many columns", NULL);
    /* cqlsh's other prompts and notices */
    char *t = cat("cqlsh:system> EXPAND OFF\nDisabled Expanded output.\n"
                  "sudo nodetool ring\n", CQLSH, "");
    same_as(t, CQLSH, TOKENRING_INPUT_CQLSH);
    free(t);
    t = cat("cassandra@node1> nodetool ring\n", RING, "");
    same_as(t, RING, TOKENRING_INPUT_NODETOOL_RING);
    free(t);
    /* no prompt character before the command: a row that names it is no prompt */
    fails(AUTO, "Datacenter: d\n==\nAddress Rack Status State Load Owns Token\n"
                "bin/nodetool r Up Normal 1 KiB 1% 5\nx nodetool\n", 0, TOKENRING_E_PARSE,
          5, 1, NULL);
    /* a status whose header lines were filtered out still splits from the ring */
    const char *hdr = strstr(STATUS, "--  Address");
    t = cat("Datacenter: dc1\n", hdr, RING);
    int f = -1;
    free(parse_text(AUTO, t, 0, &f, NULL));
    assert_int_equal(f, TOKENRING_INPUT_NODETOOL_STATUS);
    free(t);
    /* more alternations than one split holds: the last part is split again */
    size_t cap = 40 * (sizeof RING + sizeof STATUS), o = 0;
    char *many = malloc(cap);
    assert_non_null(many);
    for (int k = 0; k < 18; k++)
        o += (size_t)snprintf(many + o, cap - o, "%s", k % 2 ? RING : STATUS);
    tokenring_cluster *c = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    if (tokenring_cluster_parse(c, AUTO, many, o, 0, NULL, &err) != TOKENRING_OK)
        fail_msg("%u:%u %s", err.line, err.column, err.message);
    assert_int_equal(tokenring_cluster_node_count(c), 2);
    assert_non_null(tokenring_cluster_topology(c));
    tokenring_cluster_free(c);
    free(many);
    /* detection sees what the parser reads */
    t = indent(RING, "    ");
    assert_int_equal(tokenring_input_detect(t, strlen(t)), TOKENRING_INPUT_NODETOOL_RING);
    free(t);
    assert_int_equal(tokenring_input_detect(EXPAND, strlen(EXPAND)), TOKENRING_INPUT_CQLSH);
    assert_int_equal(tokenring_input_detect(LEGACY, strlen(LEGACY)),
                     TOKENRING_INPUT_NODETOOL_RING);
    /* an empty text and a text of prompts only */
    fails(AUTO, "", 0, TOKENRING_E_PARSE, 1, 1, "empty input", NULL);
    fails(AUTO, "$ nodetool ring\n", 0, TOKENRING_E_PARSE, 1, 1, "empty input", NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(prompts_and_notices),
        cmocka_unit_test(cqlsh_notices),
        cmocka_unit_test(indented_blocks),
        cmocka_unit_test(status_and_ring_together),
        cmocka_unit_test(expand_on),
        cmocka_unit_test(describering_without_separators),
        cmocka_unit_test(ring_before_1_2),
        cmocka_unit_test(seed_queries),
        cmocka_unit_test(paste_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
