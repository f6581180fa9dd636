/* SPDX-License-Identifier: Apache-2.0 */
/* Keyspaces read from cqlsh's `system_schema.keyspaces` (lib/parse/parse_rows.c): every
 * strategy's replication, Cassandra 6's output, and every refusal at line:column. */
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
#include "cluster_checks.h"

/* ---------------------------------------- cqlsh: system_schema.keyspaces */

static const char *repl_str(const tokenring_cluster *c, const char *ks, char *buf, size_t cap)
{
    size_t idx, len;
    const tokenring_replication *r;
    assert_int_equal(tokenring_cluster_find_keyspace(&idx, c, ks), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_keyspace(NULL, &r, c, idx), TOKENRING_OK);
    assert_int_equal(tokenring_replication_format(buf, cap, &len, r), TOKENRING_OK);
    return buf;
}

static void schema_keyspaces(void **state)
{
    (void)state;
    size_t len;
    char *text = slurp("samples/written/cqlsh-system_schema-keyspaces-5.0.txt", &len);
    assert_int_equal(tokenring_input_detect(text, len), TOKENRING_INPUT_CQLSH);
    tokenring_cluster *c = parse_ok(TOKENRING_INPUT_AUTO, text, len, 0, TOKENRING_INPUT_CQLSH);
    assert_int_equal(tokenring_cluster_node_count(c), 0);
    assert_int_equal(tokenring_cluster_keyspace_count(c), 5);
    char buf[256];
    assert_string_equal(repl_str(c, "shop", buf, sizeof buf),
                        "{'class': 'NetworkTopologyStrategy', 'dc1': '3', 'dc2': '2'}");
    assert_string_equal(repl_str(c, "audit", buf, sizeof buf),
                        "{'class': 'NetworkTopologyStrategy', 'dc1': '3/1'}");
    assert_string_equal(repl_str(c, "system_traces", buf, sizeof buf),
                        "{'class': 'SimpleStrategy', 'replication_factor': '2'}");
    /* the LocalStrategy keyspaces are skipped, in the order read, with their class */
    assert_int_equal(tokenring_cluster_skipped_keyspace_count(c), 2);
    const char *name, *cls;
    assert_int_equal(tokenring_cluster_skipped_keyspace(&name, &cls, c, 0), TOKENRING_OK);
    assert_string_equal(name, "system_schema");
    assert_string_equal(cls, "org.apache.cassandra.locator.LocalStrategy");
    assert_int_equal(tokenring_cluster_skipped_keyspace(&name, NULL, c, 1), TOKENRING_OK);
    assert_string_equal(name, "system");
    assert_int_equal(tokenring_cluster_skipped_keyspace(&name, &cls, c, 2), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_cluster_skipped_keyspace(NULL, NULL, c, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_skipped_keyspace(&name, &cls, NULL, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_skipped_keyspace_count(NULL), 0);
    /* merged with the nodes: the keyspaces place replicas on them */
    size_t pl, ll;
    char *peers = slurp("samples/written/cqlsh-peers_v2-2dc_3r_2r_vn8.txt", &pl);
    char *local = slurp("samples/written/cqlsh-local-2dc_3r_2r_vn8.txt", &ll);
    assert_int_equal(tokenring_cluster_parse(c, TOKENRING_INPUT_CQLSH, peers, pl, 0, NULL, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_cluster_parse(c, TOKENRING_INPUT_CQLSH, local, ll, 0, NULL, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_cluster_node_count(c), 10);
    assert_non_null(tokenring_cluster_topology(c));
    /* the same schema again: its keyspaces exist, so nothing changes */
    tokenring_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(tokenring_cluster_parse(c, TOKENRING_INPUT_CQLSH, text, len, 0, NULL, &err),
                     TOKENRING_E_EXISTS);
    assert_non_null(strstr(err.message, "keyspace system_auth is already defined"));
    assert_int_equal(tokenring_cluster_keyspace_count(c), 5);
    assert_int_equal(tokenring_cluster_skipped_keyspace_count(c), 2);
    /* the skipped list survives a later merge (the cluster is copied) */
    static const char more[] = " keyspace_name | replication\n"
                               "---------------+------------\n"
                               "        system | {'class': 'LocalStrategy'}\n"
                               "         dse_x | {'class': 'org.apache.cassandra.locator.EverywhereStrategy'}\n";
    assert_int_equal(tokenring_cluster_parse(c, TOKENRING_INPUT_CQLSH, more, sizeof more - 1, 0,
                                             NULL, &err), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_skipped_keyspace_count(c), 3);
    assert_int_equal(tokenring_cluster_skipped_keyspace(&name, &cls, c, 2), TOKENRING_OK);
    assert_string_equal(name, "dse_x");
    free(peers);
    free(local);
    free(text);
    tokenring_cluster_free(c);
}

/* Cassandra 6.0-alpha2's cqlsh output, real (tests/data/captured/README.md): PyPI's cqlsh
 * prints a WARNING line first; system_schema.keyspaces has a fast_path column; the metadata
 * keyspace system_cluster_metadata is listed as NetworkTopologyStrategy {'dc1': '1'} but is
 * placed on the CMS members only, so it is skipped (as MetaStrategy), not placed on the ring;
 * release_version reads 6.0-alpha2 in system.local and 6.0.0-alpha2 in peers_v2. */
static void cqlsh_cassandra_6(void **state)
{
    (void)state;
    static const char *const files[] = { "captured/6.0-alpha2-cqlsh-system_schema-keyspaces.txt",
                                         "captured/6.0-alpha2-cqlsh-peers_v2.txt",
                                         "captured/6.0-alpha2-cqlsh-local.txt" };
    tokenring_cluster *c = NULL;
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    for (size_t i = 0; i < 3; i++) {
        size_t len;
        char *text = slurp(files[i], &len);
        assert_non_null(strstr(text, "WARNING: cqlsh was built against"));
        tokenring_error err = { 0 };
        int rc = tokenring_cluster_parse(c, TOKENRING_INPUT_CQLSH, text, len, 0, NULL, &err);
        if (rc != TOKENRING_OK)
            print_message("%s: %s\n", files[i], err.message);
        assert_int_equal(rc, TOKENRING_OK);
        free(text);
    }
    assert_int_equal(tokenring_cluster_node_count(c), 2);
    assert_int_equal(tokenring_cluster_keyspace_count(c), 3);
    size_t idx;
    assert_int_equal(tokenring_cluster_find_keyspace(&idx, c, "system_cluster_metadata"),
                     TOKENRING_E_NOTFOUND);
    assert_int_equal(tokenring_cluster_find_keyspace(&idx, c, "system_distributed"), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_skipped_keyspace_count(c), 3);
    const char *name, *cls;
    assert_int_equal(tokenring_cluster_skipped_keyspace(&name, &cls, c, 0), TOKENRING_OK);
    assert_string_equal(name, "system_cluster_metadata");
    assert_string_equal(cls, "MetaStrategy");
    assert_non_null(tokenring_cluster_topology(c));
    tokenring_cluster_free(c);
    /* the name decides, not the class: the same row in a 5.0-style table is skipped too */
    static const char rows[] =
        " keyspace_name           | replication\n"
        "-------------------------+------------\n"
        " system_cluster_metadata | {'class': 'org.apache.cassandra.locator.NetworkTopologyStrategy', 'dc1': '1'}\n"
        "                     ks1 | {'class': 'org.apache.cassandra.locator.NetworkTopologyStrategy', 'dc1': '1'}\n";
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_parse(c, TOKENRING_INPUT_CQLSH, rows, sizeof rows - 1, 0,
                                             NULL, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_cluster_keyspace_count(c), 1);
    assert_int_equal(tokenring_cluster_skipped_keyspace_count(c), 1);
    tokenring_cluster_free(c);
}

static void schema_keyspaces_errors(void **state)
{
    (void)state;
#define HDR " keyspace_name | durable_writes | replication\n---------------+----------------+---\n"
    static const char unknown_class[] =
        HDR "  ks |  True | {'class': 'com.example.MyStrategy', 'x': '1'}\n";
    fails(TOKENRING_INPUT_CQLSH, unknown_class, sizeof unknown_class - 1, 0, TOKENRING_E_PARSE, 3, /* the class */
          26, "keyspace ks", "unknown replication class", NULL);
    static const char no_map[] = HDR "  ks |  True | null\n";
    fails(TOKENRING_INPUT_CQLSH, no_map, sizeof no_map - 1, 0, TOKENRING_E_PARSE, 3, 16,
          "keyspace ks: expected a replication map", NULL);
    static const char no_name[] = HDR "  null |  True | {'class': 'SimpleStrategy', "
                                      "'replication_factor': '1'}\n";
    fails(TOKENRING_INPUT_CQLSH, no_name, sizeof no_name - 1, 0, TOKENRING_E_PARSE, 3, 3,
          "expected a keyspace name", NULL);
    static const char twice[] = HDR " a | True | {'class': 'SimpleStrategy', "
                                    "'replication_factor': '1'}\n"
                                    " a | True | {'class': 'LocalStrategy'}\n";
    fails(TOKENRING_INPUT_CQLSH, twice, sizeof twice - 1, 0, TOKENRING_E_EXISTS, 4, 2,
          "keyspace a is already defined", NULL);
    static const char bad_rf[] = HDR " a | True | {'class': 'SimpleStrategy', "
                                     "'replication_factor': 'x'}\n";
    fails(TOKENRING_INPUT_CQLSH, bad_rf, sizeof bad_rf - 1, 0, TOKENRING_E_PARSE, 3, 64, /* the x */
          "keyspace a", NULL);
    static const char cut[] = HDR " a | True | {'class': 'LocalStrategy'}\n\n(2 rows)\n";
    fails(TOKENRING_INPUT_CQLSH, cut, sizeof cut - 1, 0, TOKENRING_E_PARSE, 5, 2, "2 rows",
          NULL);
    static const char unquoted[] = HDR " a | True | {'class': LocalStrategy}\n";
    fails(TOKENRING_INPUT_CQLSH, unquoted, sizeof unquoted - 1, 0, TOKENRING_E_PARSE, 3, 13,
          "expected a replication map", NULL);
#undef HDR
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(schema_keyspaces),
        cmocka_unit_test(cqlsh_cassandra_6),
        cmocka_unit_test(schema_keyspaces_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
