/* SPDX-License-Identifier: Apache-2.0 */
/* The num_tokens migration plan (tokenring_migration_plan) as an operator follows it:
 * every datacenter it does not migrate keeps its replicas exactly, each keyspace keeps
 * its factor (rf 0) or gets the one asked for, SimpleStrategy keyspaces of a cluster of
 * several datacenters are refused, clients are pinned before any ALTER, a repair follows
 * the rebuild, system_auth keeps the old datacenter at factor 0 until its nodes leave;
 * then the plan's tokens and steps on a seeded ring, every bad argument and the
 * accessors. test_migration_oom.c fails each of its allocations in turn. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"
#include "fixtures.h"

/* Two datacenters: dc1 (3 nodes, racks r1 r2 r3), dc2 (3 nodes, rack r1). */
static tokenring_topology *two_dcs(void)
{
    tokenring_topology *t;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    static const char *const racks[] = { "r1", "r2", "r3" };
    for (int i = 0; i < 6; i++) {
        char name[16];
        snprintf(name, sizeof name, "n%d", i);
        int64_t tk[2] = { (int64_t)i * 1000 - 3000, (int64_t)i * 1000 + 500000 };
        assert_int_equal(tokenring_topology_add_node(t, name, i < 3 ? "dc1" : "dc2",
                                                     i < 3 ? racks[i] : "r1", tk, 2, NULL),
                         TOKENRING_OK);
    }
    return t;
}

static tokenring_replication *repl(const char *text)
{
    tokenring_replication *r;
    assert_int_equal(tokenring_replication_parse(&r, text, strlen(text), NULL), TOKENRING_OK);
    return r;
}

/* The index of the first step equal to (or, with prefix, starting with) s; -1 if none. */
static long find_step(const tokenring_migration *m, const char *s, bool prefix)
{
    for (size_t i = 0; i < tokenring_migration_step_count(m); i++) {
        const char *x = tokenring_migration_step(m, i);
        if (prefix ? strncmp(x, s, strlen(s)) == 0 : strcmp(x, s) == 0)
            return (long)i;
    }
    return -1;
}

static const char *names[] = { "x1", "x2", "x3" };
static const char *racks[] = { "r1", "r2", "r3" };

/* Migrating dc2 of two datacenters: dc1 is in every ALTER as it was, each keyspace keeps
 * its dc2 factor, a keyspace without dc2 replicas is not touched. */
static void keeps_other_datacenters_and_factors(void **state)
{
    (void)state;
    tokenring_topology *t = two_dcs();
    tokenring_replication *a = repl("dc1=3,dc2=2"), *b = repl("dc1=2"),
                          *c = repl("dc1=1,dc2=3");
    const char *ks[] = { "shop", "dc1only", "MyKs" };
    const tokenring_replication *rs[] = { a, b, c };
    tokenring_migration *m = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_migration_plan(&m, t, "dc2", "dc3", names, racks, 3, 4, 0, ks, rs,
                                              3, &err),
                     TOKENRING_OK);
    long pin = find_step(m, "clients: before any change, pin every client of 'dc2' to it", true);
    long add_a = find_step(m, "cqlsh: ALTER KEYSPACE shop WITH replication = {'class': "
                              "'NetworkTopologyStrategy', 'dc1': '3', 'dc2': '2', 'dc3': '2'};",
                           false);
    /* a quoted identifier: MyKs unquoted would be myks */
    long add_c = find_step(m, "cqlsh: ALTER KEYSPACE \"MyKs\" WITH replication = {'class': "
                              "'NetworkTopologyStrategy', 'dc1': '1', 'dc2': '3', 'dc3': '3'};",
                           false);
    long start = find_step(m, "on x1: cassandra-rackdc.properties dc=dc3 rack=r1;", true);
    long rebuild = find_step(m, "on x3: nodetool rebuild -- dc2", false);
    long repair = find_step(m, "on each node of 'dc3' in turn, once every rebuild has finished: "
                               "nodetool repair -full shop", false);
    long sw = find_step(m, "clients: switch the clients of 'dc2' to local datacenter 'dc3'", true);
    long drop_a = find_step(m, "cqlsh: ALTER KEYSPACE shop WITH replication = {'class': "
                               "'NetworkTopologyStrategy', 'dc1': '3', 'dc3': '2'};", false);
    long drop_c = find_step(m, "cqlsh: ALTER KEYSPACE \"MyKs\" WITH replication = {'class': "
                               "'NetworkTopologyStrategy', 'dc1': '1', 'dc3': '3'};", false);
    long decom = find_step(m, "on n3: nodetool decommission", false);
    assert_true(pin >= 0 && add_a >= 0 && add_c >= 0 && start >= 0 && rebuild >= 0 &&
                repair >= 0 && sw >= 0 && drop_a >= 0 && drop_c >= 0 && decom >= 0);
    /* the order an operator runs them in */
    assert_true(pin < start && start < add_a && add_a < rebuild && rebuild < repair &&
                repair < sw && sw < drop_a && drop_c < decom);
    assert_true(find_step(m, "# Replication in 'dc3': each keyspace keeps its factor of 'dc2' "
                             "(shop 2, MyKs 3)", false) >= 0);
    assert_true(find_step(m, "# Keyspace dc1only has no replica in 'dc2': left as it is",
                          false) >= 0);
    assert_true(find_step(m, "# Every datacenter but 'dc2' keeps its replicas as they are",
                          false) >= 0);
    for (size_t i = 0; i < tokenring_migration_step_count(m); i++) {
        const char *s = tokenring_migration_step(m, i);
        assert_null(strstr(s, "ALTER KEYSPACE dc1only"));
        if (strstr(s, "ALTER KEYSPACE"))
            assert_non_null(strstr(s, "'dc1': '")); /* dc1 never stripped */
        assert_null(strstr(s, "nodetool decommission") && strstr(s, "on n0") ? s : NULL);
    }
    tokenring_migration_free(m);
    /* --rf asked for: every keyspace with dc2 replicas gets it, and the plan says so */
    assert_int_equal(tokenring_migration_plan(&m, t, "dc2", "dc3", names, racks, 3, 4, 3, ks, rs,
                                              3, &err),
                     TOKENRING_OK);
    assert_true(find_step(m, "# Replication in 'dc3': factor 3 for every keyspace with replicas "
                             "in 'dc2', as asked (their factors in 'dc2': shop 2, MyKs 3)",
                          false) >= 0);
    assert_true(find_step(m, "cqlsh: ALTER KEYSPACE shop WITH replication = {'class': "
                             "'NetworkTopologyStrategy', 'dc1': '3', 'dc2': '2', 'dc3': '3'};",
                          false) >= 0);
    tokenring_migration_free(m);
    /* a factor the new nodes cannot hold, kept from the old datacenter */
    m = NULL;
    assert_int_equal(tokenring_migration_plan(&m, t, "dc2", "dc3", names, racks, 2, 4, 0, ks, rs,
                                              3, &err),
                     TOKENRING_E_IMPOSSIBLE);
    assert_non_null(strstr(err.message, "keyspace 'MyKs''s replication factor 3"));
    assert_null(m);
    /* rf 0 and no keyspace with a replica in the old datacenter: nothing to move */
    const tokenring_replication *only_b[] = { b };
    const char *only_b_name[] = { "dc1only" };
    assert_int_equal(tokenring_migration_plan(&m, t, "dc2", "dc3", names, racks, 3, 4, 0,
                                              only_b_name, only_b, 1, &err),
                     TOKENRING_E_EMPTY);
    assert_non_null(strstr(err.message, "no keyspace given has a replica in datacenter 'dc2'"));
    /* rf 0 without keyspaces */
    assert_int_equal(tokenring_migration_plan(&m, t, "dc2", "dc3", names, racks, 3, 4, 0, NULL,
                                              NULL, 0, &err),
                     TOKENRING_E_RANGE);
    assert_int_equal(tokenring_migration_plan(&m, t, "dc2", "dc3", names, racks, 3, 4, -1, ks,
                                              rs, 3, &err),
                     TOKENRING_E_RANGE);
    tokenring_replication_free(a);
    tokenring_replication_free(b);
    tokenring_replication_free(c);
    tokenring_topology_free(t);
}

/* SimpleStrategy places replicas ring-wide: in a cluster of two datacenters there is no
 * per-datacenter factor to keep, so the plan is refused, naming the keyspace. */
static void refuses_simple_strategy_across_datacenters(void **state)
{
    (void)state;
    tokenring_topology *t = two_dcs();
    tokenring_replication *a = repl("dc1=3,dc2=2"), *s = repl("SimpleStrategy:3");
    const char *ks[] = { "shop", "system_auth" };
    const tokenring_replication *rs[] = { a, s };
    tokenring_migration *m = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_migration_plan(&m, t, "dc2", "dc3", names, racks, 3, 4, 0, ks, rs,
                                              2, &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_string_equal(err.message, "keyspace 'system_auth' uses SimpleStrategy, which places "
                                     "replicas ring-wide over 2 datacenters, with no factor per "
                                     "datacenter to keep: make it NetworkTopologyStrategy "
                                     "first");
    assert_null(m);
    tokenring_replication_free(a);
    tokenring_replication_free(s);
    tokenring_topology_free(t);
}

/* Transient replicas are kept only where Cassandra accepts them: without vnodes. */
static void transient_replicas_need_single_tokens(void **state)
{
    (void)state;
    tokenring_topology *t = two_dcs();
    tokenring_replication *tr = repl("dc1=3,dc2=3/1");
    const char *ks[] = { "audit" };
    const tokenring_replication *rs[] = { tr };
    tokenring_migration *m = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_migration_plan(&m, t, "dc2", "dc3", names, racks, 3, 4, 0, ks, rs,
                                              1, &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_non_null(strstr(err.message, "keyspace 'audit' has 1 transient replica in datacenter 'dc2'"));
    assert_null(m);
    assert_int_equal(tokenring_migration_plan(&m, t, "dc2", "dc3", names, racks, 3, 1, 0, ks, rs,
                                              1, &err),
                     TOKENRING_OK);
    assert_true(find_step(m, "cqlsh: ALTER KEYSPACE audit WITH replication = {'class': "
                             "'NetworkTopologyStrategy', 'dc1': '3', 'dc2': '3/1', "
                             "'dc3': '3/1'};", false) >= 0);
    tokenring_migration_free(m);
    /* --rf asked for: full replicas only, whatever the old datacenter had */
    assert_int_equal(tokenring_migration_plan(&m, t, "dc2", "dc3", names, racks, 3, 4, 2, ks, rs,
                                              1, &err),
                     TOKENRING_OK);
    tokenring_migration_free(m);
    tokenring_replication_free(tr);
    tokenring_topology_free(t);
}

/* One datacenter with three racks: a SimpleStrategy keyspace becomes NTS with its factor
 * before the new nodes start (a repair follows: NTS uses the racks), and system_auth
 * keeps the old datacenter at factor 0 until its nodes are decommissioned. */
static void simple_strategy_in_one_datacenter(void **state)
{
    (void)state;
    tokenring_topology *t;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    for (int i = 0; i < 3; i++) {
        char name[16];
        snprintf(name, sizeof name, "n%d", i);
        int64_t tk[1] = { (int64_t)i * 1000 };
        assert_int_equal(tokenring_topology_add_node(t, name, "dc1", racks[i], tk, 1, NULL),
                         TOKENRING_OK);
    }
    tokenring_replication *s = repl("SimpleStrategy:3"), *one = repl("SimpleStrategy:1");
    const char *ks[] = { "system_auth", "system_traces" };
    const tokenring_replication *rs[] = { s, one };
    tokenring_migration *m = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_migration_plan(&m, t, "dc1", "dc2", names, racks, 3, 16, 0, ks,
                                              rs, 2, &err),
                     TOKENRING_OK);
    long pin = find_step(m, "clients: before any change", true);
    long conv = find_step(m, "cqlsh: ALTER KEYSPACE system_auth WITH replication = {'class': "
                             "'NetworkTopologyStrategy', 'dc1': '3'};", false);
    long conv_repair = find_step(m, "on each node of 'dc1' in turn: nodetool repair -full "
                                    "system_auth (NetworkTopologyStrategy places the replicas "
                                    "on 3 racks, SimpleStrategy ignored them)", false);
    long conv1 = find_step(m, "cqlsh: ALTER KEYSPACE system_traces WITH replication = {'class': "
                              "'NetworkTopologyStrategy', 'dc1': '1'};", false);
    long start = find_step(m, "on x1: cassandra-rackdc.properties", true);
    long add = find_step(m, "cqlsh: ALTER KEYSPACE system_auth WITH replication = {'class': "
                            "'NetworkTopologyStrategy', 'dc1': '3', 'dc2': '3'};", false);
    long zero = find_step(m, "cqlsh: ALTER KEYSPACE system_auth WITH replication = {'class': "
                             "'NetworkTopologyStrategy', 'dc1': '0', 'dc2': '3'};", false);
    long decom = find_step(m, "on n2: nodetool decommission", false);
    long last = find_step(m, "cqlsh: ALTER KEYSPACE system_auth WITH replication = {'class': "
                             "'NetworkTopologyStrategy', 'dc2': '3'};", false);
    assert_true(pin >= 0 && conv >= 0 && conv_repair >= 0 && conv1 >= 0 && start >= 0 &&
                add >= 0 && zero >= 0 && decom >= 0 && last >= 0);
    assert_true(pin < conv && conv < conv_repair && conv_repair < start && conv1 < start &&
                start < add && add < zero && zero < decom && decom < last);
    /* factor 1: no replica moves between racks, so no repair for system_traces there */
    assert_int_equal(find_step(m, "on each node of 'dc1' in turn: nodetool repair -full "
                                  "system_traces", true), -1);
    assert_int_equal((long)tokenring_migration_step_count(m) - 1, last);
    tokenring_migration_free(m);
    tokenring_replication_free(s);
    tokenring_replication_free(one);
    tokenring_topology_free(t);
}

/* A keyspace name CQL would read differently unquoted is double-quoted, a quote in it
 * doubled. */
static void quotes_keyspace_names(void **state)
{
    (void)state;
    tokenring_topology *t = two_dcs();
    tokenring_replication *a = repl("dc2=1");
    const char *ks[] = { "a\"B", "9lives" };
    const tokenring_replication *rs[] = { a, a };
    tokenring_migration *m = NULL;
    assert_int_equal(tokenring_migration_plan(&m, t, "dc2", "dc3", names, racks, 1, 4, 0, ks, rs,
                                              2, NULL),
                     TOKENRING_OK);
    assert_true(find_step(m, "cqlsh: ALTER KEYSPACE \"a\"\"B\" WITH replication = {'class': "
                             "'NetworkTopologyStrategy', 'dc2': '1', 'dc3': '1'};", false) >= 0);
    assert_true(find_step(m, "cqlsh: ALTER KEYSPACE \"9lives\" WITH replication", true) >= 0);
    tokenring_migration_free(m);
    tokenring_replication_free(a);
    tokenring_topology_free(t);
}

/* -------------------------------------------- the plan's tokens and arguments */

static void migration_plan(void **state)
{
    (void)state;
    tokenring_topology *t = demo(6, 8);
    static const char *names6[] = { "n1", "n2", "n3", "n4", "n5", "n6" };
    static const char *racks6[] = { "r1", "r2", "r3", "r1", "r2", "r3" };
    static const char *ks[] = { "shop", "users" };
    tokenring_replication *r1, *r2;
    tokenring_replication_parse(&r1, "datacenter1=3", 13, NULL);
    tokenring_replication_parse(&r2, "SimpleStrategy:2", 16, NULL);
    const tokenring_replication *reps[] = { r1, r2 };
    tokenring_migration *m;
    tokenring_error err;
    assert_int_equal(tokenring_migration_plan(&m, t, "datacenter1", "dc16", names6, racks6, 6, 16,
                                              3, ks, reps, 2, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_migration_node_count(m), 6);
    /* First node of each rack: evenly spaced with rack offsets. */
    for (uint32_t i = 0; i < 3; i++) {
        const int64_t *tok;
        size_t n;
        const char *name, *rack;
        assert_int_equal(tokenring_migration_node(&name, &rack, &tok, &n, m, i), 0);
        assert_int_equal(n, 16);
        assert_string_equal(name, names6[i]);
        int64_t even[16];
        tokenring_layout_even_tokens(even, 16, i, 3);
        assert_memory_equal(tok, even, sizeof even);
    }
    /* Every token distinct and none taken. */
    tokenring_topology *after;
    tokenring_topology_clone(&after, t);
    for (uint32_t i = 0; i < 6; i++) {
        const int64_t *tok;
        size_t n;
        tokenring_migration_node(NULL, NULL, &tok, &n, m, i);
        assert_int_equal(tokenring_topology_add_node(after, names6[i], "dc16", racks6[i], tok, n,
                                                     NULL),
                         TOKENRING_OK);
    }
    tokenring_topology_free(after);
    /* Steps name the keyspaces, datacenters and nodes. */
    size_t steps = tokenring_migration_step_count(m);
    assert_true(steps > 10);
    int alter_add = 0, alter_drop = 0, rebuild = 0, decom = 0;
    for (size_t i = 0; i < steps; i++) {
        const char *s = tokenring_migration_step(m, i);
        assert_non_null(s);
        if (strstr(s, "ALTER KEYSPACE shop") && strstr(s, "'dc16': '3'") &&
            strstr(s, "'datacenter1': '3'"))
            alter_add++;
        if (strstr(s, "ALTER KEYSPACE users") && strstr(s, "'dc16': '3'") &&
            strstr(s, "'datacenter1': '2'"))
            alter_add++;
        /* Dropping the old datacenter keeps the new one (it was left out before). */
        if (strcmp(s, "cqlsh: ALTER KEYSPACE shop WITH replication = {'class': "
                      "'NetworkTopologyStrategy', 'dc16': '3'};") == 0 ||
            strcmp(s, "cqlsh: ALTER KEYSPACE users WITH replication = {'class': "
                      "'NetworkTopologyStrategy', 'dc16': '3'};") == 0)
            alter_drop++;
        if (strstr(s, "ALTER KEYSPACE") && !strstr(s, "dc16") && !strstr(s, "datacenter1"))
            fail_msg("a replication with no datacenter: %s", s);
        if (strstr(s, "nodetool rebuild -- datacenter1"))
            rebuild++;
        if (strstr(s, "nodetool decommission"))
            decom++;
    }
    assert_int_equal(alter_add, 2);
    assert_int_equal(alter_drop, 2);
    assert_int_equal(rebuild, 6);
    assert_int_equal(decom, 6);
    assert_null(tokenring_migration_step(m, steps));
    tokenring_migration_free(m);
    /* Errors. */
    assert_int_equal(tokenring_migration_plan(&m, t, "nowhere", "dc16", names6, racks6, 6, 16, 3,
                                              ks, reps, 2, &err),
                     TOKENRING_E_NOTFOUND);
    assert_int_equal(tokenring_migration_plan(&m, t, "datacenter1", "datacenter1", names6, racks6,
                                              6, 16, 3, ks, reps, 2, &err),
                     TOKENRING_E_EXISTS);
    assert_int_equal(tokenring_migration_plan(&m, t, "datacenter1", "dc16", names6, racks6, 2, 16,
                                              3, ks, reps, 2, &err),
                     TOKENRING_E_IMPOSSIBLE);
    assert_int_equal(tokenring_migration_plan(&m, t, "datacenter1", "dc16", demo_names, racks6, 6,
                                              16, 3, ks, reps, 2, &err),
                     TOKENRING_E_EXISTS);
    assert_int_equal(tokenring_migration_plan(&m, t, "datacenter1", "dc16", names6, racks6, 6, 0, 3,
                                              ks, reps, 2, &err),
                     TOKENRING_E_RANGE);
    tokenring_migration_free(NULL);
    tokenring_replication_free(r1);
    tokenring_replication_free(r2);
    tokenring_topology_free(t);
}

static void migration_arguments_and_accessors(void **state)
{
    (void)state;
    fixture f;
    make(&f);
    tokenring_migration *m = NULL;
    const char *names3[] = { "m1", "m2", "m3" };
    const char *dup[] = { "m1", "m1", "m3" };
    const char *racks3[] = { "r1", "r2", "r3" };
    const char *ks[] = { "shop" };
    const char *noname[] = { "" };
    const tokenring_replication *reps[] = { f.nts };
    FAILS(tokenring_migration_plan(&m, f.t, "dc1", "dc2", names3, NULL, 3, 16, 3, NULL, NULL, 0,
                                   err),
          TOKENRING_E_INVAL);
    FAILS(tokenring_migration_plan(&m, f.t, "dc1", "dc2", names3, racks3, 3, 16, 3, NULL, NULL, 1,
                                   err),
          TOKENRING_E_INVAL);
    FAILS(tokenring_migration_plan(&m, f.t, "dc1", "", names3, racks3, 3, 16, 3, NULL, NULL, 0,
                                   err),
          TOKENRING_E_INVAL);
    FAILS(tokenring_migration_plan(&m, f.t, "dc1", "dc2", names3, racks3, 3, 0, 3, NULL, NULL, 0,
                                   err),
          TOKENRING_E_RANGE);
    FAILS(tokenring_migration_plan(&m, f.t, "dc1", "dc2", names3, racks3, 3, 16, 0, NULL, NULL, 0,
                                   err),
          TOKENRING_E_RANGE);
    FAILS(tokenring_migration_plan(&m, f.t, "dc1", "dc2", dup, racks3, 3, 16, 3, NULL, NULL, 0,
                                   err),
          TOKENRING_E_EXISTS);
    FAILS(tokenring_migration_plan(&m, f.t, "dc1", "dc2", names3, racks3, 3, 16, 3, noname, reps, 1,
                                   err),
          TOKENRING_E_INVAL);
    FAILS(tokenring_migration_plan(&m, f.t, "dcX", "dc2", names3, racks3, 3, 16, 3, NULL, NULL, 0,
                                   err),
          TOKENRING_E_NOTFOUND);
    FAILS(tokenring_migration_plan(&m, f.t, "dc1", "dc1", names3, racks3, 3, 16, 3, NULL, NULL, 0,
                                   err),
          TOKENRING_E_EXISTS);
    FAILS(tokenring_migration_plan(&m, f.t, "dc1", "dc2", names3, racks3, 2, 16, 3, NULL, NULL, 0,
                                   err),
          TOKENRING_E_IMPOSSIBLE);
    assert_null(m);

    tokenring_error err;
    assert_int_equal(tokenring_migration_plan(&m, f.t, "dc1", "dc2", names3, racks3, 3, 4, 3, ks,
                                              reps, 1, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_migration_node_count(m), 3);
    const char *nm = NULL, *rk = NULL;
    const int64_t *toks = NULL;
    size_t ntok = 0;
    assert_int_equal(tokenring_migration_node(&nm, &rk, &toks, &ntok, m, 2), TOKENRING_OK);
    assert_string_equal(nm, "m3");
    assert_string_equal(rk, "r3");
    assert_int_equal(ntok, 4);
    for (size_t i = 1; i < ntok; i++)
        assert_true(toks[i - 1] < toks[i]);
    assert_int_equal(tokenring_migration_node(NULL, NULL, NULL, NULL, m, 0), TOKENRING_OK);
    assert_int_equal(tokenring_migration_node(&nm, &rk, &toks, &ntok, m, 3), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_migration_node(&nm, &rk, &toks, &ntok, NULL, 0), TOKENRING_E_INVAL);
    size_t steps = tokenring_migration_step_count(m);
    assert_true(steps > 0);
    bool names_keyspace = false;
    for (size_t i = 0; i < steps; i++) {
        const char *line = tokenring_migration_step(m, i);
        assert_non_null(line);
        names_keyspace |= strstr(line, "shop") != NULL;
    }
    assert_true(names_keyspace);
    assert_null(tokenring_migration_step(m, steps));
    assert_null(tokenring_migration_step(NULL, 0));
    assert_int_equal(tokenring_migration_step_count(NULL), 0);
    assert_int_equal(tokenring_migration_node_count(NULL), 0);
    tokenring_migration_free(m);
    tokenring_migration_free(NULL);
    unmake(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(keeps_other_datacenters_and_factors),
        cmocka_unit_test(refuses_simple_strategy_across_datacenters),
        cmocka_unit_test(simple_strategy_in_one_datacenter),
        cmocka_unit_test(quotes_keyspace_names),
        cmocka_unit_test(transient_replicas_need_single_tokens),
        cmocka_unit_test(migration_plan),
        cmocka_unit_test(migration_arguments_and_accessors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
