/* SPDX-License-Identifier: Apache-2.0 */
/* Allocation failures in every entry point of parse.h (each input format parsed on its
 * own and merged into a non-empty cluster, with and without TOKENRING_PARSE_ALLOW_PARTIAL;
 * add_topology, add_keyspace, the writer). Each failure must give TOKENRING_E_NOMEM, leak
 * nothing and leave the cluster as it was. test_key_oom.c covers the key functions. */
#include <dirent.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"
#include "oom.h"
#include "testdata.h"


typedef struct {
    tokenring_cluster *cluster;
    const char *text;
    size_t len;
    int format;
    uint32_t flags;
    const tokenring_topology *topology;
    const tokenring_replication *replication;
} parse_ctx;

/* The cluster as the writer prints it, plus its flags and per-node details the writer
 * might not carry (declared token counts, input lines, host IDs). */
static char *dump_cluster(void *vctx)
{
    const tokenring_cluster *c = ((parse_ctx *)vctx)->cluster;
    size_t len = 0;
    int rc = tokenring_cluster_format(NULL, 0, &len, c);
    assert_true(rc == TOKENRING_OK || rc == TOKENRING_E_BUFSIZE);
    size_t extra = 64 + tokenring_cluster_node_count(c) * 400 +
                   tokenring_cluster_keyspace_count(c) * 300;
    char *s = malloc(len + 1 + extra);
    assert_non_null(s);
    assert_int_equal(tokenring_cluster_format(s, len + 1, &len, c), TOKENRING_OK);
    size_t at = len;
    at += (size_t)snprintf(s + at, extra, "\nflags %u nodes %zu keyspaces %zu\n",
                           tokenring_cluster_flags(c), tokenring_cluster_node_count(c),
                           tokenring_cluster_keyspace_count(c));
    for (size_t i = 0; i < tokenring_cluster_node_count(c); i++) {
        tokenring_cluster_node_info ni;
        assert_int_equal(tokenring_cluster_node(&ni, c, i), TOKENRING_OK);
        at += (size_t)snprintf(s + at, len + 1 + extra - at, "%s %s %s %s %zu %zu %d %d %u\n",
                               ni.name, ni.datacenter, ni.rack, ni.host_id ? ni.host_id : "-",
                               ni.token_count, ni.declared_tokens, ni.state, ni.liveness,
                               ni.line);
    }
    return s;
}

static int op_parse(void *vctx, void **made)
{
    parse_ctx *ctx = vctx;
    (void)made;
    tokenring_error err;
    int fmt = -1;
    int rc = tokenring_cluster_parse(ctx->cluster, ctx->format, ctx->text, ctx->len,
                                     ctx->flags, &fmt, &err);
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    return rc;
}

static int op_add_topology(void *vctx, void **made)
{
    parse_ctx *ctx = vctx;
    (void)made;
    return tokenring_cluster_add_topology(ctx->cluster, ctx->topology, NULL);
}

static int op_add_keyspace(void *vctx, void **made)
{
    parse_ctx *ctx = vctx;
    (void)made;
    return tokenring_cluster_add_keyspace(ctx->cluster, "ks_new", ctx->replication, NULL);
}

static int op_format(void *vctx, void **made)
{
    parse_ctx *ctx = vctx;
    (void)made;
    size_t len = 0;
    int rc = tokenring_cluster_format(NULL, 0, &len, ctx->cluster);
    if (rc == TOKENRING_E_NOMEM)
        return rc;
    assert_true(rc == TOKENRING_E_BUFSIZE || rc == TOKENRING_OK);
    char *buf = malloc(len + 1);
    rc = tokenring_cluster_format(buf, len + 1, &len, ctx->cluster);
    free(buf);
    return rc;
}

static int op_cluster_new(void *vctx, void **made)
{
    (void)vctx;
    tokenring_cluster *c = NULL;
    int rc = tokenring_cluster_new(&c);
    *made = c;
    tokenring_cluster_free(c);
    return rc;
}

static const char BASE[] = "keyspace base NetworkTopologyStrategy:dc1=3\n"
                           "node 10.9.9.9 dc=dc1 rack=r1 tokens=-17,4242\n";

static tokenring_cluster *base_cluster(int empty)
{
    tokenring_cluster *c = NULL;
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    if (!empty)
        assert_int_equal(tokenring_cluster_parse(c, TOKENRING_INPUT_TOPOLOGY, BASE,
                                                 sizeof BASE - 1, 0, NULL, NULL),
                         TOKENRING_OK);
    return c;
}

static const struct {
    const char *file;
    int format;
} INPUTS[] = {
    { "replicas_2dc_3r_2r_vn8.topology.tsv", TOKENRING_INPUT_TSV },
    { "replicas_edges.topology.tsv", TOKENRING_INPUT_AUTO },
    { "samples/ring-3.10-2dc-9nodes-single-token.txt", TOKENRING_INPUT_NODETOOL_RING },
    { "samples/ring-4.1-3racks-vnodes16-elided-warning.txt", TOKENRING_INPUT_NODETOOL_RING },
    { "samples/ring-5.0-joining-node-vnodes16.txt", TOKENRING_INPUT_AUTO },
    { "samples/written/ring-4.x-states-toy.txt", TOKENRING_INPUT_NODETOOL_RING },
    { "samples/status-4.1-3racks-vnodes16.txt", TOKENRING_INPUT_NODETOOL_STATUS },
    { "samples/status-5.0-uj-joining-vnodes16.txt", TOKENRING_INPUT_AUTO },
    { "samples/status-2.2-3dc-single-token-dn-anonymized.txt", TOKENRING_INPUT_NODETOOL_STATUS },
    { "samples/written/cqlsh-peers_v2-2dc_3r_2r_vn8.txt", TOKENRING_INPUT_CQLSH },
    { "samples/written/cqlsh-local-2dc_3r_2r_vn8.txt", TOKENRING_INPUT_AUTO },
    { "samples/peers-cqlsh-2.1-select-star-abridged.txt", TOKENRING_INPUT_CQLSH },
    { "samples/written/cqlsh-system_schema-keyspaces-5.0.txt", TOKENRING_INPUT_CQLSH },
    { "samples/describering-3.11-3nodes-single-token-rf3.txt",
      TOKENRING_INPUT_NODETOOL_DESCRIBERING },
    /* RandomPartitioner and ByteOrderedPartitioner clusters (read on an empty cluster;
     * the merged one holds Murmur3 tokens): the retries in another partitioner, the
     * byte tokens, describering's two passes, cqlsh's restart at system.local */
    { "captured/5.0.6-random-ring.txt", TOKENRING_INPUT_AUTO },
    { "captured/5.0.6-byteordered-ring.txt", TOKENRING_INPUT_NODETOOL_RING },
    { "captured/5.0.6-random-cqlsh.txt", TOKENRING_INPUT_AUTO },
    { "captured/5.0.6-byteordered-cqlsh.txt", TOKENRING_INPUT_CQLSH },
    { "captured/5.0.6-random-describering-ks_nts.txt", TOKENRING_INPUT_AUTO },
    { "captured/5.0.6-byteordered-describering-ks_simple.txt",
      TOKENRING_INPUT_NODETOOL_DESCRIBERING },
};

/* Every cluster sample (nodetool ring/status/describering, cqlsh) and every golden topology, detected
 * automatically: their error and growth paths differ from the chosen inputs above. */
static void parse_every_sample(void **state)
{
    (void)state;
    static const char *dirs[] = { "samples", "samples/written", "." };
    char what[400], rel[300];
    int files = 0;
    for (size_t d = 0; d < sizeof dirs / sizeof *dirs; d++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", TEST_DATA_DIR, dirs[d]);
        DIR *dir = opendir(path);
        assert_non_null(dir);
        struct dirent *e;
        while ((e = readdir(dir)) != NULL) {
            const char *n = e->d_name;
            size_t l = strlen(n);
            bool sample = d < 2 && l > 4 && strcmp(n + l - 4, ".txt") == 0 &&
                          (strncmp(n, "ring-", 5) == 0 || strncmp(n, "status-", 7) == 0 ||
                           strncmp(n, "describering-", 13) == 0 ||
                           strstr(n, "cqlsh") != NULL);
            bool topo = d == 2 && l > 13 && strcmp(n + l - 13, ".topology.tsv") == 0;
            if (!sample && !topo)
                continue;
            snprintf(rel, sizeof rel, "%s/%s", dirs[d], n);
            size_t len;
            char *text = slurp(rel, &len);
            if (len > 64 * 1024) {
                free(text);
                continue;
            }
            parse_ctx ctx = { base_cluster(0), text, len, TOKENRING_INPUT_AUTO,
                              TOKENRING_PARSE_ALLOW_PARTIAL, NULL, NULL };
            snprintf(what, sizeof what, "parse %s", rel);
            oom_check(what, &ctx, op_parse, dump_cluster);
            tokenring_cluster_free(ctx.cluster);
            free(text);
            files++;
        }
        closedir(dir);
    }
    assert_true(files >= 20);
}

static const char TOPO_TEXT[] =
    "# every statement form\n"
    "keyspace shop NetworkTopologyStrategy:dc1=3,dc2=2/1\n"
    "keyspace logs {'class': 'SimpleStrategy', 'replication_factor': '2'}\n"
    "node 10.0.0.1 dc=dc1 rack=r1 tokens=50,-9223372036854775808\n"
    "node 10.0.0.2 rack=r2 dc=dc1 state=joining status=down host_id=abc tokens=7,\n"
    "    8,9\n"
    "node \"x y\" dc=\"d\\\"c\" rack=r tokens=-5\n"
    "node 10.0.0.4 dc=dc2 rack=r1 tokens=100,200 num_tokens=2\n"
    "node 10.0.0.5 dc=dc2 rack=r1 status=unknown state=leaving tokens=300\n";

static void parse_every_format(void **state)
{
    (void)state;
    char what[300];
    for (size_t i = 0; i < sizeof INPUTS / sizeof *INPUTS + 1; i++) {
        size_t len;
        char *text;
        int format;
        if (i < sizeof INPUTS / sizeof *INPUTS) {
            text = slurp(INPUTS[i].file, &len);
            format = INPUTS[i].format;
        } else {
            len = sizeof TOPO_TEXT - 1;
            text = malloc(len + 1);
            memcpy(text, TOPO_TEXT, len + 1);
            format = TOKENRING_INPUT_TOPOLOGY;
        }
        /* a partial input (elided listing) needs ALLOW_PARTIAL; try both, keep what parses */
        for (int empty = 0; empty < 2; empty++) {
            for (uint32_t flags = 0; flags <= TOKENRING_PARSE_ALLOW_PARTIAL; flags++) {
                parse_ctx ctx = { base_cluster(empty), text, len, format, flags, NULL, NULL };
                tokenring_cluster *probe = base_cluster(empty);
                int rc = tokenring_cluster_parse(probe, format, text, len, flags, NULL, NULL);
                tokenring_cluster_free(probe);
                if (rc == TOKENRING_OK) {
                    snprintf(what, sizeof what, "parse %s (%s, flags %u)",
                             i < sizeof INPUTS / sizeof *INPUTS ? INPUTS[i].file : "topology",
                             empty ? "empty cluster" : "merged", flags);
                    oom_check(what, &ctx, op_parse, dump_cluster);
                }
                tokenring_cluster_free(ctx.cluster);
            }
        }
        free(text);
    }
}

static void cluster_calls(void **state)
{
    (void)state;
    oom_check("cluster_new", NULL, op_cluster_new, NULL);

    parse_ctx ctx = { base_cluster(0), TOPO_TEXT, sizeof TOPO_TEXT - 1, 0, 0, NULL, NULL };
    tokenring_topology *t = oom_sample_topology();
    /* states and liveness travel too */
    assert_int_equal(tokenring_topology_set_state(t, "10.0.1.2", TOKENRING_STATE_LEAVING,
                                                  TOKENRING_DOWN, NULL),
                     TOKENRING_OK);
    ctx.topology = t;
    oom_check("cluster_add_topology", &ctx, op_add_topology, dump_cluster);
    tokenring_cluster_free(ctx.cluster);

    ctx.cluster = base_cluster(1);
    oom_check("cluster_add_topology (empty cluster)", &ctx, op_add_topology, dump_cluster);
    tokenring_cluster_free(ctx.cluster);
    tokenring_topology_free(t);

    static const char *repls[] = { "3/1", "dc1=3,dc2=2/1,dc3=0" };
    for (size_t i = 0; i < 2; i++) {
        tokenring_replication *r = NULL;
        assert_int_equal(tokenring_replication_parse(&r, repls[i], strlen(repls[i]), NULL),
                         TOKENRING_OK);
        ctx.cluster = base_cluster(0);
        ctx.replication = r;
        oom_check("cluster_add_keyspace", &ctx, op_add_keyspace, dump_cluster);
        tokenring_cluster_free(ctx.cluster);
        tokenring_replication_free(r);
    }

    ctx.cluster = base_cluster(1);
    assert_int_equal(tokenring_cluster_parse(ctx.cluster, TOKENRING_INPUT_TOPOLOGY, TOPO_TEXT,
                                             sizeof TOPO_TEXT - 1, 0, NULL, NULL),
                     TOKENRING_OK);
    oom_check("cluster_format", &ctx, op_format, dump_cluster);
    tokenring_cluster_free(ctx.cluster);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(parse_every_format, oom_setup, oom_teardown),
        cmocka_unit_test_setup_teardown(parse_every_sample, oom_setup, oom_teardown),
        cmocka_unit_test_setup_teardown(cluster_calls, oom_setup, oom_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
