/* SPDX-License-Identifier: Apache-2.0 */
/* Routers (router.h): built from driver rows, agreeing with the cqlsh reader and with
 * placements built directly; composite keys hashed from their parts equal to the packed
 * key's token; the local-datacenter views; events (every kind) against snapshots built
 * from scratch, with placements shared where nothing can change them; placements
 * supplied by the caller; bad input refused with the previous snapshot untouched; the
 * holder on one thread. The concurrent stress test is test_router_concurrency.c. */
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
#include "testrng.h"

#define NODES 9
#define VN 8

/* Node i: 10.0.0.(i+1), dc1 for i < 6 (racks r0..r2), dc2 otherwise (racks r0, r1). */
static char names[NODES + 4][32];
static char dcs[NODES + 4][8];
static char racks[NODES + 4][8];
static char tok_text[NODES + 4][VN][24];
static const char *tok_ptr[NODES + 4][VN];
static int64_t toks[NODES + 4][VN];

static void make_nodes(void)
{
    uint64_t rng = 42;
    for (int i = 0; i < NODES + 4; i++) {
        snprintf(names[i], sizeof names[i], "10.0.0.%d", i + 1);
        snprintf(dcs[i], sizeof dcs[i], "%s", i < 6 ? "dc1" : "dc2");
        snprintf(racks[i], sizeof racks[i], "r%d", i < 6 ? i % 3 : i % 2);
        for (int k = 0; k < VN; k++) {
            toks[i][k] = (int64_t)tt_splitmix64(&rng);
            snprintf(tok_text[i][k], sizeof tok_text[i][k], "%lld", (long long)toks[i][k]);
            tok_ptr[i][k] = tok_text[i][k];
        }
    }
}

static const char *const nts_keys[] = { "class", "dc1", "dc2" };
static const char *const nts_vals[] = { "org.apache.cassandra.locator.NetworkTopologyStrategy",
                                        "3", "2" };
static const char *const simple_keys[] = { "class", "replication_factor" };
static const char *const simple_vals[] = { "SimpleStrategy", "2" };
static const char *const local_keys[] = { "class" };
static const char *const local_vals[] = { "org.apache.cassandra.locator.LocalStrategy" };
static const char *const every_vals[] = { "org.apache.cassandra.locator.EverywhereStrategy" };

static tokenring_router_builder *rows_builder(const char *local_dc)
{
    tokenring_router_builder *b = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_router_builder_new(&b, local_dc, &err), TOKENRING_OK);
    assert_int_equal(tokenring_router_builder_add_local(
                         b, names[0], dcs[0], racks[0], "11111111-0000-0000-0000-000000000001",
                         "org.apache.cassandra.dht.Murmur3Partitioner", tok_ptr[0], VN, &err),
                     TOKENRING_OK);
    for (int i = 1; i < NODES; i++)
        assert_int_equal(tokenring_router_builder_add_peer(b, names[i], dcs[i], racks[i], NULL,
                                                           tok_ptr[i], VN, &err),
                         TOKENRING_OK);
    for (int i = 0; i < NODES; i++)
        assert_int_equal(tokenring_router_builder_set_node(b, names[i], 1000 + (uint64_t)i, 0,
                                                           &err),
                         TOKENRING_OK);
    assert_int_equal(tokenring_router_builder_add_keyspace(b, "shop", nts_keys, nts_vals, 3, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_router_builder_add_keyspace(b, "users", nts_keys, nts_vals, 3,
                                                           &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_router_builder_add_keyspace(b, "simple", simple_keys, simple_vals,
                                                           2, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_router_builder_add_keyspace(b, "system", local_keys, local_vals, 1,
                                                           &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_router_builder_add_keyspace(b, "system_auth", local_keys,
                                                           every_vals, 1, &err),
                     TOKENRING_OK);
    return b;
}

static tokenring_router *rows_router(const char *local_dc)
{
    tokenring_router_builder *b = rows_builder(local_dc);
    tokenring_router *r = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_router_build(&r, b, &err), TOKENRING_OK);
    tokenring_router_builder_free(b);
    return r;
}

/* The placement of repl built from scratch on nodes 0..n-1 (skipping `skip`). */
static tokenring_placement *direct(const char *repl_text, int n, int skip)
{
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    for (int i = 0; i < n; i++)
        if (i != skip)
            assert_int_equal(tokenring_topology_add_node(t, names[i], dcs[i], racks[i], toks[i],
                                                         VN, NULL),
                             TOKENRING_OK);
    tokenring_ring *ring = NULL;
    assert_int_equal(tokenring_ring_build(&ring, t, NULL), TOKENRING_OK);
    tokenring_replication *repl = NULL;
    assert_int_equal(tokenring_replication_parse(&repl, repl_text, strlen(repl_text), NULL),
                     TOKENRING_OK);
    tokenring_placement *p = NULL;
    assert_int_equal(tokenring_placement_build(&p, ring, repl, 0, NULL), TOKENRING_OK);
    tokenring_replication_free(repl);
    tokenring_ring_free(ring);
    tokenring_topology_free(t);
    return p;
}

/* Every key's replicas (by name) through the router equal those of the placement. */
static void same_as(const tokenring_router *r, const char *ks, const tokenring_placement *p)
{
    uint64_t rng = 7;
    const tokenring_ring *pring = tokenring_placement_ring(p);
    for (int k = 0; k < 500; k++) {
        uint8_t key[8];
        uint64_t v = tt_splitmix64(&rng);
        memcpy(key, &v, 8);
        tokenring_route route;
        tokenring_replicas rep;
        assert_int_equal(tokenring_router_route(&route, r, ks, key, 8, 0), TOKENRING_OK);
        assert_int_equal(tokenring_placement_replicas_for_key(&rep, p, key, 8), TOKENRING_OK);
        assert_int_equal(route.count, rep.count);
        assert_int_equal(route.token, tokenring_token(key, 8));
        for (uint32_t i = 0; i < rep.count; i++) {
            tokenring_router_node_info a;
            tokenring_node_info b;
            assert_int_equal(tokenring_router_node(&a, r, route.replicas[i]), TOKENRING_OK);
            assert_int_equal(tokenring_ring_node_brief(&b, pring, rep.nodes[i]), TOKENRING_OK);
            assert_string_equal(a.name, b.name);
            assert_int_equal(route.tags[route.replicas[i]], a.tag);
        }
    }
}

static const char NTS[] = "NetworkTopologyStrategy:dc1=3,dc2=2";
static void apply_ok(tokenring_router **r, const tokenring_router_event *ev);

static void test_rows(void **state)
{
    (void)state;
    tokenring_router *r = rows_router("dc1");
    assert_int_equal(tokenring_router_node_count(r), NODES);
    assert_int_equal(tokenring_router_keyspace_count(r), 3);
    assert_int_equal(tokenring_router_skipped_count(r), 2);
    const char *name, *cls;
    assert_int_equal(tokenring_router_skipped(&name, &cls, r, 1), TOKENRING_OK);
    assert_string_equal(name, "system_auth");
    assert_string_equal(cls, every_vals[0]);
    assert_int_equal(tokenring_router_skipped(&name, NULL, r, 2), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_router_skipped(NULL, &cls, r, 0), TOKENRING_OK);
    assert_string_equal(cls, local_vals[0]);
    assert_int_equal(tokenring_router_skipped(&name, NULL, NULL, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_router_keyspace(&name, NULL, NULL, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_router_skipped(NULL, NULL, r, 0), TOKENRING_E_INVAL);
    /* keyspaces sorted; shop and users share one placement */
    const tokenring_placement *p0, *p1, *p2;
    assert_int_equal(tokenring_router_keyspace(&name, &p0, r, 0), TOKENRING_OK);
    assert_string_equal(name, "shop");
    assert_int_equal(tokenring_router_keyspace(&name, &p1, r, 1), TOKENRING_OK);
    assert_string_equal(name, "simple");
    assert_int_equal(tokenring_router_keyspace(&name, &p2, r, 2), TOKENRING_OK);
    assert_string_equal(name, "users");
    assert_ptr_equal(p0, p2);
    assert_ptr_not_equal(p0, p1);
    assert_int_equal(tokenring_router_keyspace(&name, NULL, r, 3), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_router_keyspace(NULL, NULL, r, 0), TOKENRING_E_INVAL);
    tokenring_placement *d = direct(NTS, NODES, -1);
    same_as(r, "shop", d);
    tokenring_placement_free(d);
    d = direct("2", NODES, -1);
    same_as(r, "simple", d);
    tokenring_placement_free(d);
    /* nodes */
    tokenring_router_node_info info;
    uint32_t idx;
    assert_int_equal(tokenring_router_find_node(&idx, r, names[0]), TOKENRING_OK);
    assert_int_equal(tokenring_router_node(&info, r, idx), TOKENRING_OK);
    assert_string_equal(info.host_id, "11111111-0000-0000-0000-000000000001");
    assert_int_equal(info.tag, 1000);
    assert_int_equal(info.local, 1);
    assert_int_equal(info.token_count, VN);
    assert_int_equal(tokenring_router_find_node(&idx, r, "nope"), TOKENRING_E_NOTFOUND);
    assert_int_equal(tokenring_router_node(&info, r, NODES), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_router_node(NULL, r, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_router_find_node(&idx, NULL, "x"), TOKENRING_E_INVAL);
    assert_non_null(tokenring_router_ring(r));
    assert_null(tokenring_router_ring(NULL));
    assert_int_equal(tokenring_router_node_count(NULL), 0);
    assert_int_equal(tokenring_router_keyspace_count(NULL), 0);
    assert_int_equal(tokenring_router_skipped_count(NULL), 0);
    tokenring_router_free(r);
}

/* The local view: local replicas in server order, then the others; up-first. */
static void check_views(const tokenring_router *r, const tokenring_route *rt, bool up_first)
{
    uint32_t nl = 0, nlu = 0;
    for (uint32_t i = 0; i < rt->count; i++) {
        tokenring_router_node_info info;
        tokenring_router_node(&info, r, rt->replicas[i]);
        nl += info.local;
        nlu += info.local && !(info.flags & TOKENRING_ROUTER_NODE_DOWN);
    }
    assert_int_equal(rt->local_count, nl);
    assert_int_equal(rt->local_up_count, nlu);
    /* same multiset; order per part */
    int last_rank = -1;
    for (uint32_t i = 0; i < rt->count; i++) {
        tokenring_router_node_info info;
        tokenring_router_node(&info, r, rt->local[i]);
        bool down = info.flags & TOKENRING_ROUTER_NODE_DOWN;
        int rank = up_first ? (info.local ? 0 : 2) + (down ? 1 : 0) : (info.local ? 0 : 1);
        assert_true(rank >= last_rank);
        last_rank = rank;
        assert_int_equal(i < nl, info.local == 1);
        /* within a part, server order */
        if (i > 0) {
            tokenring_router_node_info prev;
            tokenring_router_node(&prev, r, rt->local[i - 1]);
            int prank = up_first ? (prev.local ? 0 : 2) +
                                       ((prev.flags & TOKENRING_ROUTER_NODE_DOWN) ? 1 : 0)
                                 : (prev.local ? 0 : 1);
            if (prank == rank) {
                uint32_t a = 0, b = 0;
                for (uint32_t k = 0; k < rt->count; k++) {
                    if (rt->replicas[k] == rt->local[i - 1])
                        a = k;
                    if (rt->replicas[k] == rt->local[i])
                        b = k;
                }
                assert_true(a < b);
            }
        }
    }
}

static void test_views_and_token(void **state)
{
    (void)state;
    tokenring_router *r = rows_router("dc2");
    tokenring_router_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = TOKENRING_ROUTER_EVENT_DOWN;
    ev.node = names[7];
    tokenring_router *r2 = NULL;
    assert_int_equal(tokenring_router_apply(&r2, r, &ev, NULL), TOKENRING_OK);
    ev.node = names[1];
    tokenring_router *r3 = NULL;
    assert_int_equal(tokenring_router_apply(&r3, r2, &ev, NULL), TOKENRING_OK);
    /* up and down change no placement */
    const tokenring_placement *a, *b;
    tokenring_router_keyspace(NULL, &a, r, 0);
    tokenring_router_keyspace(NULL, &b, r3, 0);
    assert_ptr_equal(a, b);
    assert_ptr_equal(tokenring_router_ring(r), tokenring_router_ring(r3));
    uint64_t rng = 3;
    for (int k = 0; k < 300; k++) {
        int64_t t = (int64_t)tt_splitmix64(&rng);
        tokenring_route x, y;
        assert_int_equal(tokenring_router_route_token(&x, r3, "shop", t, 0), TOKENRING_OK);
        check_views(r3, &x, false);
        assert_int_equal(tokenring_router_route_token(&y, r3, "shop", t, TOKENRING_ROUTE_UP_FIRST),
                         TOKENRING_OK);
        check_views(r3, &y, true);
        assert_int_equal(x.token, t);
        assert_int_equal(x.count, 5);
        assert_int_equal(x.local_count, 2);
    }
    /* no local dc: everything local */
    tokenring_router *n = rows_router(NULL);
    tokenring_route z;
    assert_int_equal(tokenring_router_route_token(&z, n, "shop", 0, 0), TOKENRING_OK);
    assert_int_equal(z.local_count, z.count);
    assert_memory_equal(z.local, z.replicas, z.count * sizeof *z.replicas);
    /* errors */
    assert_int_equal(tokenring_router_route_token(&z, n, "nope", 0, 0), TOKENRING_E_NOTFOUND);
    assert_int_equal(tokenring_router_route_token(&z, n, "system", 0, 0), TOKENRING_E_NOTFOUND);
    assert_int_equal(tokenring_router_route_token(&z, n, "shop", 0, 0x80), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_router_route_token(NULL, n, "shop", 0, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_router_route(&z, n, "shop", NULL, 3, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_router_route(&z, n, NULL, "k", 1, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_router_route(&z, n, "shop", NULL, 0, 0), TOKENRING_OK);
    assert_int_equal(z.token, TOKENRING_MIN_TOKEN);
    tokenring_router_free(n);
    tokenring_router_free(r);
    tokenring_router_free(r2);
    tokenring_router_free(r3);
}

static void test_parts(void **state)
{
    (void)state;
    tokenring_router *r = rows_router("dc1");
    uint64_t rng = 99;
    uint8_t data[5][80], packed[5 * 83];
    for (int it = 0; it < 3000; it++) {
        size_t count = (size_t)tt_between(&rng, 1, 5);
        const void *parts[5];
        size_t lens[5];
        uint8_t flat[5 * 80];
        uint64_t offs[6] = { 0 };
        for (size_t i = 0; i < count; i++) {
            lens[i] = (size_t)tt_between(&rng, 0, it < 1500 ? 20 : 79);
            for (size_t j = 0; j < lens[i]; j++)
                data[i][j] = (uint8_t)tt_splitmix64(&rng);
            parts[i] = lens[i] ? data[i] : NULL;
            memcpy(flat + offs[i], data[i], lens[i]);
            offs[i + 1] = offs[i] + lens[i];
        }
        size_t plen = 0;
        assert_int_equal(tokenring_composite_encode(packed, sizeof packed, &plen, flat, offs,
                                                    count),
                         TOKENRING_OK);
        tokenring_route a, b;
        assert_int_equal(tokenring_router_route_parts(&a, r, "shop", parts, lens, count, 0),
                         TOKENRING_OK);
        assert_int_equal(tokenring_router_route(&b, r, "shop", packed, plen, 0), TOKENRING_OK);
        assert_int_equal(a.token, tokenring_token(packed, plen));
        assert_int_equal(a.set_id, b.set_id);
    }
    const void *parts[1] = { NULL };
    size_t lens[1] = { 3 };
    tokenring_route a;
    assert_int_equal(tokenring_router_route_parts(&a, r, "shop", parts, lens, 1, 0),
                     TOKENRING_E_INVAL);
    lens[0] = 70000;
    parts[0] = "x";
    assert_int_equal(tokenring_router_route_parts(&a, r, "shop", parts, lens, 1, 0),
                     TOKENRING_E_RANGE);
    assert_int_equal(tokenring_router_route_parts(&a, r, "shop", parts, lens, 0, 0),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_router_route_parts(&a, r, "shop", NULL, lens, 1, 0),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_router_route_parts(&a, r, "shop", parts, NULL, 1, 0),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_router_route_parts(&a, NULL, "shop", parts, lens, 1, 0),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_router_route_parts(&a, r, "nope", parts, lens, 1, 0),
                     TOKENRING_E_NOTFOUND);
    tokenring_router_free(r);
}

/* The same rows as cqlsh prints them, through the cqlsh reader and add_cluster. */
static void test_cqlsh_agreement(void **state)
{
    (void)state;
    char text[16384];
    size_t n = 0;
    n += (size_t)snprintf(text + n, sizeof text - n,
                          " peer | data_center | host_id | rack | tokens\n"
                          "------+-------------+---------+------+-------\n");
    for (int i = 0; i < NODES; i++) {
        n += (size_t)snprintf(text + n, sizeof text - n, " %s | %s | null | %s | {", names[i],
                              dcs[i], racks[i]);
        for (int k = 0; k < VN; k++)
            n += (size_t)snprintf(text + n, sizeof text - n, "%s'%s'", k ? ", " : "",
                                  tok_text[i][k]);
        n += (size_t)snprintf(text + n, sizeof text - n, "}\n");
    }
    n += (size_t)snprintf(text + n, sizeof text - n,
                          "\n(%d rows)\n\n keyspace_name | replication\n"
                          "---------------+------------\n"
                          " shop | {'class': '%s', 'dc1': '3', 'dc2': '2'}\n"
                          " users | {'class': '%s', 'dc1': '3', 'dc2': '2'}\n"
                          " simple | {'class': 'SimpleStrategy', 'replication_factor': '2'}\n"
                          " system | {'class': '%s'}\n"
                          " system_auth | {'class': '%s'}\n\n(5 rows)\n",
                          NODES, nts_vals[0], nts_vals[0], local_vals[0], every_vals[0]);
    tokenring_cluster *cl = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_cluster_new(&cl), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_parse(cl, TOKENRING_INPUT_CQLSH, text, n, 0, NULL, &err),
                     TOKENRING_OK);
    tokenring_router_builder *b = NULL;
    assert_int_equal(tokenring_router_builder_new(&b, "dc1", &err), TOKENRING_OK);
    assert_int_equal(tokenring_router_builder_add_cluster(b, cl, &err), TOKENRING_OK);
    /* a second time: the nodes and keyspaces are there already */
    assert_int_not_equal(tokenring_router_builder_add_cluster(b, cl, &err), TOKENRING_OK);
    tokenring_router *a = NULL, *r = rows_router("dc1");
    assert_int_equal(tokenring_router_build(&a, b, &err), TOKENRING_OK);
    assert_int_equal(tokenring_router_keyspace_count(a), 3);
    assert_int_equal(tokenring_router_skipped_count(a), 2);
    for (size_t k = 0; k < 3; k++) {
        const tokenring_placement *pa, *pr;
        tokenring_router_keyspace(NULL, &pa, a, k);
        tokenring_router_keyspace(NULL, &pr, r, k);
        assert_int_equal(tokenring_placement_set_count(pa), tokenring_placement_set_count(pr));
        const char *ks;
        tokenring_router_keyspace(&ks, NULL, a, k);
        same_as(r, ks, pa);
    }
    tokenring_router_free(a);
    tokenring_router_free(r);
    tokenring_router_builder_free(b);
    tokenring_cluster_free(cl);
}

static void test_builder_errors(void **state)
{
    (void)state;
    tokenring_router_builder *b = NULL;
    tokenring_error err;
    tokenring_router *r = NULL;
    assert_int_equal(tokenring_router_builder_new(NULL, NULL, &err), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_router_builder_new(&b, "", &err), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_router_builder_new(&b, "dc1", &err), TOKENRING_OK);
    assert_int_equal(tokenring_router_build(&r, b, &err), TOKENRING_E_EMPTY);
    assert_int_equal(tokenring_router_build(NULL, b, &err), TOKENRING_E_INVAL);
    /* a peer without datacenter */
    assert_int_equal(tokenring_router_builder_add_peer(b, "10.1.1.1", NULL, "r1", NULL,
                                                       tok_ptr[0], VN, &err),
                     TOKENRING_E_PARSE);
    assert_non_null(strstr(err.message, "10.1.1.1 has no datacenter"));
    assert_int_equal(tokenring_router_builder_add_peer(b, NULL, "dc1", "r1", NULL, tok_ptr[0],
                                                       VN, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_router_builder_add_peer(b, "10.1.1.1", "dc1", "r1", NULL, NULL,
                                                       2, &err),
                     TOKENRING_E_INVAL);
    const char *bad[] = { "12", "x1" };
    assert_int_equal(tokenring_router_builder_add_peer(b, "10.1.1.1", "dc1", "r1", NULL, bad, 2,
                                                       &err),
                     TOKENRING_E_PARSE);
    const char *nul[] = { "12", NULL };
    assert_int_equal(tokenring_router_builder_add_peer(b, "10.1.1.1", "dc1", "r1", NULL, nul, 2,
                                                       &err),
                     TOKENRING_E_INVAL);
    /* a null rack is UNKNOWN_RACK; a node without tokens is left out of the ring */
    assert_int_equal(tokenring_router_builder_add_peer(b, names[0], "dc1", NULL, "h0",
                                                       tok_ptr[0], VN, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_router_builder_add_peer(b, names[0], "dc1", NULL, NULL,
                                                       tok_ptr[0], VN, &err),
                     TOKENRING_E_EXISTS);
    assert_int_equal(tokenring_router_builder_add_peer(b, names[1], "dc1", "r1", NULL, tok_ptr[0],
                                                       VN, &err),
                     TOKENRING_E_EXISTS); /* tokens held by another node */
    assert_non_null(strstr(err.message, names[1]));
    /* ... which left nothing behind: the node is added afresh with its own tokens */
    assert_int_equal(tokenring_router_builder_add_peer(b, names[1], "dc1", "r1", NULL, tok_ptr[1],
                                                       VN, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_router_builder_set_node(b, names[1], 7, 0, &err), TOKENRING_OK);
    assert_int_equal(tokenring_router_builder_add_peer(b, "10.9.9.9", "dc1", "r1", NULL, NULL, 0,
                                                       &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_router_builder_set_node(b, "10.9.9.9", 5,
                                                       TOKENRING_ROUTER_NODE_DOWN, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_router_builder_set_node(b, "nope", 5, 0, &err),
                     TOKENRING_E_NOTFOUND);
    assert_int_equal(tokenring_router_builder_set_node(b, names[0], 5, 0x10, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_router_builder_set_node(b, NULL, 5, 0, &err), TOKENRING_E_INVAL);
    /* keyspaces */
    const char *unk_vals[] = { "com.example.OddStrategy" };
    assert_int_equal(tokenring_router_builder_add_keyspace(b, "odd", local_keys, unk_vals, 1,
                                                           &err),
                     TOKENRING_E_PARSE);
    assert_non_null(strstr(err.message, "keyspace odd"));
    const char *nocls_keys[] = { "dc1" };
    const char *nocls_vals[] = { "3" };
    assert_int_equal(tokenring_router_builder_add_keyspace(b, "x", nocls_keys, nocls_vals, 1,
                                                           &err),
                     TOKENRING_E_PARSE);
    const char *quote_vals[] = { "Simple'Strategy" };
    assert_int_equal(tokenring_router_builder_add_keyspace(b, "x", local_keys, quote_vals, 1,
                                                           &err),
                     TOKENRING_E_PARSE);
    const char *null_vals[] = { NULL };
    assert_int_equal(tokenring_router_builder_add_keyspace(b, "x", local_keys, null_vals, 1,
                                                           &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_router_builder_add_keyspace(b, NULL, local_keys, local_vals, 1,
                                                           &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_router_builder_add_keyspace(b, "ks", simple_keys, simple_vals, 2,
                                                           &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_router_builder_add_keyspace(b, "ks", simple_keys, simple_vals, 2,
                                                           &err),
                     TOKENRING_E_EXISTS);
    /* a keyspace naming only a datacenter without nodes: no replica at all */
    const char *far_keys[] = { "class", "dc9" };
    const char *far_vals[] = { "NetworkTopologyStrategy", "3" };
    assert_int_equal(tokenring_router_builder_add_keyspace(b, "far", far_keys, far_vals, 2, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_router_build(&r, b, &err), TOKENRING_E_IMPOSSIBLE);
    assert_non_null(strstr(err.message, "keyspace far"));
    tokenring_router_builder_free(b);

    assert_int_equal(tokenring_router_builder_new(&b, NULL, &err), TOKENRING_OK);
    assert_int_equal(tokenring_router_builder_add_peer(b, names[0], "dc1", NULL, NULL,
                                                       tok_ptr[0], VN, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_router_builder_add_peer(b, "10.9.9.9", "dc1", "r1", NULL, NULL, 0,
                                                       &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_router_build(&r, b, &err), TOKENRING_OK);
    assert_int_equal(tokenring_router_node_count(r), 1); /* the node without tokens is out */
    tokenring_router_node_info info;
    tokenring_router_node(&info, r, 0);
    assert_string_equal(info.rack, "UNKNOWN_RACK");
    tokenring_router_free(r);
    assert_int_equal(tokenring_router_builder_add_cluster(b, NULL, &err), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_router_builder_add_local(NULL, "a", "b", "c", NULL, NULL, NULL, 0,
                                                        &err),
                     TOKENRING_E_INVAL);
    tokenring_router_builder_free(b);
    tokenring_router_builder_free(NULL);
    tokenring_router_free(NULL);
    assert_null(tokenring_router_ref(NULL));
}

/* A RandomPartitioner cluster, named by system.local's partitioner. */
static void test_random_partitioner(void **state)
{
    (void)state;
    tokenring_router_builder *b = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_router_builder_new(&b, "dc1", &err), TOKENRING_OK);
    const char *t0[] = { "100", "85070591730234615865843651857942052864" };
    const char *t1[] = { "42535295865117307932921825928971026432",
                         "127605887595351923798765477786913079296" };
    const char *t2[] = { "170141183460469231731687303715884105727" };
    assert_int_equal(tokenring_router_builder_add_local(b, "a", "dc1", "r1", NULL,
                                                        "org.apache.cassandra.dht.RandomPartitioner",
                                                        t0, 2, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_router_builder_add_peer(b, "b", "dc1", "r1", NULL, t1, 2, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_router_builder_add_peer(b, "c", "dc2", "r1", NULL, t2, 1, &err),
                     TOKENRING_OK);
    const char *k[] = { "class", "dc1", "dc2" }, *v[] = { "NetworkTopologyStrategy", "1", "1" };
    assert_int_equal(tokenring_router_builder_add_keyspace(b, "ks", k, v, 3, &err), TOKENRING_OK);
    tokenring_router *r = NULL;
    assert_int_equal(tokenring_router_build(&r, b, &err), TOKENRING_OK);
    tokenring_route rt;
    assert_int_equal(tokenring_router_route_token(&rt, r, "ks", 0, 0), TOKENRING_E_UNSUPPORTED);
    const tokenring_placement *p;
    tokenring_router_keyspace(NULL, &p, r, 0);
    for (int i = 0; i < 50; i++) {
        char key[16];
        int n = snprintf(key, sizeof key, "key%d", i);
        tokenring_replicas rep;
        assert_int_equal(tokenring_router_route(&rt, r, "ks", key, (size_t)n, 0), TOKENRING_OK);
        tokenring_placement_replicas_for_key_any(&rep, p, key, (size_t)n);
        assert_int_equal(rt.set_id, rep.set_id);
        assert_int_equal(rt.count, 2);
        assert_int_equal(rt.local_count, 1);
        /* parts: packed on the stack */
        const void *parts[1] = { key };
        size_t lens[1] = { (size_t)n };
        uint8_t packed[32];
        uint64_t offs[2] = { 0, (uint64_t)n };
        size_t plen;
        tokenring_composite_encode(packed, sizeof packed, &plen, (const uint8_t *)key, offs, 1);
        tokenring_route a, c;
        assert_int_equal(tokenring_router_route_parts(&a, r, "ks", parts, lens, 1, 0),
                         TOKENRING_OK);
        assert_int_equal(tokenring_router_route(&c, r, "ks", packed, plen, 0), TOKENRING_OK);
        assert_int_equal(a.set_id, c.set_id);
    }
    static uint8_t big[5000];
    const void *parts[1] = { big };
    size_t lens[1] = { sizeof big };
    assert_int_equal(tokenring_router_route_parts(&rt, r, "ks", parts, lens, 1, 0),
                     TOKENRING_E_RANGE);
    /* a join of that partitioner */
    tokenring_router_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = TOKENRING_ROUTER_EVENT_JOINED;
    ev.node = "d";
    ev.datacenter = "dc2";
    ev.rack = "r2";
    const char *t3[] = { "5" };
    ev.tokens = t3;
    ev.token_count = 1;
    tokenring_router *r2 = NULL;
    assert_int_equal(tokenring_router_apply(&r2, r, &ev, &err), TOKENRING_OK);
    assert_int_equal(tokenring_router_node_count(r2), 4);
    ev.kind = TOKENRING_ROUTER_EVENT_MOVED;
    const char *t4[] = { "6", "7" };
    ev.tokens = t4;
    ev.token_count = 2;
    tokenring_router *r3 = NULL;
    assert_int_equal(tokenring_router_apply(&r3, r2, &ev, &err), TOKENRING_OK);
    tokenring_router_node_info info;
    tokenring_router_node(&info, r3, 3);
    assert_int_equal(info.token_count, 2);
    tokenring_router_free(r3);
    tokenring_router_free(r2);
    tokenring_router_free(r);
    tokenring_router_builder_free(b);
}

/* Applies ev to *r (replacing it) and returns the new router. */
/* One placement per distinct replication: strategy, factors, datacenters and rules. */
static void test_grouping(void **state)
{
    (void)state;
    static const char *const repl[] = { "1", "2", "dc1=1", "dc1=2", "dc2=1", "dc1=1,dc2=1",
                                        "dc1=1,dc3=1", "2", "dc1=1", "dc1=2,dc2=1", "dc1=1" };
    tokenring_cluster *cl = NULL;
    assert_int_equal(tokenring_cluster_new(&cl), TOKENRING_OK);
    tokenring_topology *t = NULL;
    tokenring_topology_new(&t);
    for (int i = 0; i < NODES; i++)
        tokenring_topology_add_node(t, names[i], dcs[i], racks[i], toks[i], VN, NULL);
    assert_int_equal(tokenring_cluster_add_topology(cl, t, NULL), TOKENRING_OK);
    tokenring_topology_free(t);
    size_t nrepl = sizeof repl / sizeof *repl;
    for (size_t i = 0; i < nrepl; i++) {
        tokenring_replication *r = NULL;
        assert_int_equal(tokenring_replication_parse(&r, repl[i], strlen(repl[i]), NULL),
                         TOKENRING_OK);
        if (i == nrepl - 1) /* the same factors under the rules of 3.0 */
            tokenring_replication_set_rules(r, TOKENRING_RULES_3_0);
        char name[8];
        snprintf(name, sizeof name, "k%02zu", i);
        assert_int_equal(tokenring_cluster_add_keyspace(cl, name, r, NULL), TOKENRING_OK);
        tokenring_replication_free(r);
    }
    tokenring_router_builder *b = NULL;
    tokenring_router_builder_new(&b, "dc1", NULL);
    assert_int_equal(tokenring_router_builder_add_cluster(b, cl, NULL), TOKENRING_OK);
    tokenring_router *r = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_router_build(&r, b, &err), TOKENRING_OK);
    const tokenring_placement *p[16];
    for (size_t i = 0; i < nrepl; i++)
        assert_int_equal(tokenring_router_keyspace(NULL, &p[i], r, i), TOKENRING_OK);
    for (size_t i = 0; i < nrepl; i++)
        for (size_t j = i + 1; j < nrepl; j++)
            if (p[i] == p[j] && !((i == 1 && j == 7) || (i == 2 && j == 8)))
                fail_msg("%s and %s share a placement", repl[i], repl[j]);
    assert_ptr_equal(p[1], p[7]);
    assert_ptr_equal(p[2], p[8]);
    tokenring_router_free(r);
    tokenring_router_builder_free(b);
    tokenring_cluster_free(cl);
}

/* A parsed cluster of another partitioner, with host IDs, states and liveness. */
static void test_cluster_partitioned(void **state)
{
    (void)state;
    static const char text[] =
        "partitioner RandomPartitioner\n"
        "keyspace ks SimpleStrategy:2\n"
        "node a dc=dc1 rack=r1 tokens=100,85070591730234615865843651857942052864\n"
        "node b dc=dc1 rack=r2 status=down tokens=42535295865117307932921825928971026432\n"
        "node c dc=dc1 rack=r3 state=joining tokens=5\n";
    tokenring_cluster *cl = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_cluster_new(&cl), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_parse(cl, TOKENRING_INPUT_TOPOLOGY, text, sizeof text - 1,
                                             0, NULL, &err),
                     TOKENRING_OK);
    tokenring_router_builder *b = NULL;
    tokenring_router_builder_new(&b, "dc1", NULL);
    assert_int_equal(tokenring_router_builder_add_cluster(b, cl, &err), TOKENRING_OK);
    assert_int_equal(tokenring_router_builder_set_node(b, "a", 7, 0, &err), TOKENRING_OK);
    tokenring_router *r = NULL;
    assert_int_equal(tokenring_router_build(&r, b, &err), TOKENRING_OK);
    tokenring_router_node_info info;
    uint32_t idx;
    assert_int_equal(tokenring_router_find_node(&idx, r, "b"), TOKENRING_OK);
    tokenring_router_node(&info, r, idx);
    assert_int_equal(info.flags, TOKENRING_ROUTER_NODE_DOWN); /* the cluster's liveness */
    assert_int_equal(tokenring_router_find_node(&idx, r, "c"), TOKENRING_OK);
    tokenring_router_node(&info, r, idx);
    assert_int_equal(info.state, TOKENRING_STATE_JOINING);
    assert_int_equal(tokenring_router_find_node(&idx, r, "a"), TOKENRING_OK);
    tokenring_router_node(&info, r, idx);
    assert_int_equal(info.tag, 7);
    tokenring_route rt;
    assert_int_equal(tokenring_router_route(&rt, r, "ks", "k", 1, 0), TOKENRING_OK);
    assert_int_equal(rt.count, 2); /* the joining node's tokens are not in the ring */
    tokenring_router_free(r);
    tokenring_router_builder_free(b);
    tokenring_cluster_free(cl);
}

/* A ByteOrderedPartitioner router: tokens as hex, a join and a move. */
static void test_byte_ordered(void **state)
{
    (void)state;
    tokenring_router_builder *b = NULL;
    tokenring_error err;
    tokenring_router_builder_new(&b, NULL, NULL);
    const char *t0[] = { "10", "80" }, *t1[] = { "40", "c0" }, *t2[] = { "a0" };
    assert_int_equal(tokenring_router_builder_add_local(
                         b, "a", "dc1", "r1", NULL, "org.apache.cassandra.dht.ByteOrderedPartitioner",
                         t0, 2, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_router_builder_add_peer(b, "b", "dc1", "r2", NULL, t1, 2, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_router_builder_add_keyspace(b, "ks", simple_keys, simple_vals, 2,
                                                           &err),
                     TOKENRING_OK);
    tokenring_router *r = NULL;
    assert_int_equal(tokenring_router_build(&r, b, &err), TOKENRING_OK);
    tokenring_route rt;
    const uint8_t key[1] = { 0x30 };
    assert_int_equal(tokenring_router_route(&rt, r, "ks", key, 1, 0), TOKENRING_OK);
    tokenring_router_node_info info;
    tokenring_router_node(&info, r, rt.replicas[0]);
    assert_string_equal(info.name, "b"); /* 0x30 -> the range ending at 40 */
    tokenring_router_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = TOKENRING_ROUTER_EVENT_JOINED;
    ev.node = "c";
    ev.datacenter = "dc1";
    ev.rack = "r3";
    ev.tokens = t2;
    ev.token_count = 1;
    apply_ok(&r, &ev);
    const char *t3[] = { "30" };
    ev.kind = TOKENRING_ROUTER_EVENT_MOVED;
    ev.tokens = t3;
    apply_ok(&r, &ev);
    assert_int_equal(tokenring_router_route(&rt, r, "ks", key, 1, 0), TOKENRING_OK);
    tokenring_router_node(&info, r, rt.replicas[0]);
    assert_string_equal(info.name, "c");
    tokenring_router_free(r);
    tokenring_router_builder_free(b);
}

static void apply_ok(tokenring_router **r, const tokenring_router_event *ev)
{
    tokenring_router *next = NULL;
    tokenring_error err;
    int rc = tokenring_router_apply(&next, *r, ev, &err);
    if (rc != TOKENRING_OK)
        fail_msg("apply kind %d: %s", (int)ev->kind, err.message);
    tokenring_router_free(*r);
    *r = next;
}

static void test_events(void **state)
{
    (void)state;
    tokenring_router *r = rows_router("dc1");
    const tokenring_placement *before;
    tokenring_router_keyspace(NULL, &before, r, 1); /* simple */
    tokenring_placement *keep = tokenring_placement_ref(before);
    tokenring_router_event ev;
    memset(&ev, 0, sizeof ev);
    /* join node 9 (dc1 r0) with its tag */
    ev.kind = TOKENRING_ROUTER_EVENT_JOINED;
    ev.node = names[NODES];
    ev.datacenter = "dc1";
    ev.rack = "r0";
    ev.host_id = "h9";
    ev.tokens = tok_ptr[NODES];
    ev.token_count = VN;
    ev.tag = 77;
    apply_ok(&r, &ev);
    const char *nm[NODES + 1];
    (void)nm;
    tokenring_placement *d = direct(NTS, NODES + 1, -1);
    /* node 9's dc/rack in the direct topology: dcs[9] = dc2 there; rebuild to match */
    tokenring_placement_free(d);
    {
        tokenring_topology *t = NULL;
        tokenring_topology_new(&t);
        for (int i = 0; i < NODES; i++)
            tokenring_topology_add_node(t, names[i], dcs[i], racks[i], toks[i], VN, NULL);
        tokenring_topology_add_node(t, names[NODES], "dc1", "r0", toks[NODES], VN, NULL);
        tokenring_ring *ring = NULL;
        tokenring_ring_build(&ring, t, NULL);
        tokenring_replication *repl = NULL;
        tokenring_replication_parse(&repl, NTS, strlen(NTS), NULL);
        tokenring_placement_build(&d, ring, repl, 0, NULL);
        same_as(r, "shop", d);
        tokenring_placement_free(d);
        tokenring_replication_free(repl);
        tokenring_ring_free(ring);
        tokenring_topology_free(t);
    }
    uint32_t idx;
    tokenring_router_node_info info;
    assert_int_equal(tokenring_router_find_node(&idx, r, names[NODES]), TOKENRING_OK);
    tokenring_router_node(&info, r, idx);
    assert_int_equal(info.tag, 77);
    assert_string_equal(info.host_id, "h9");
    /* leave: node 2 goes, indices shift, tags stay with their nodes */
    memset(&ev, 0, sizeof ev);
    ev.kind = TOKENRING_ROUTER_EVENT_LEFT;
    ev.node = names[2];
    apply_ok(&r, &ev);
    assert_int_equal(tokenring_router_node_count(r), NODES);
    for (uint32_t i = 0; i < NODES; i++) {
        tokenring_router_node(&info, r, i);
        int orig = atoi(strrchr(info.name, '.') + 1) - 1;
        assert_int_equal(info.tag, orig == NODES ? 77 : 1000 + (uint64_t)orig);
    }
    /* leave the joined node again, and the ring is the original minus node 2 */
    ev.node = names[NODES];
    apply_ok(&r, &ev);
    d = direct(NTS, NODES, 2);
    same_as(r, "shop", d);
    tokenring_placement_free(d);
    /* move node 3 to node 2's old tokens */
    memset(&ev, 0, sizeof ev);
    ev.kind = TOKENRING_ROUTER_EVENT_MOVED;
    ev.node = names[3];
    ev.tokens = tok_ptr[2];
    ev.token_count = VN;
    apply_ok(&r, &ev);
    assert_int_equal(tokenring_router_find_node(&idx, r, names[3]), TOKENRING_OK);
    tokenring_router_node(&info, r, idx);
    assert_int_equal(info.tag, 1003);
    /* replace node 4 by 10.0.0.99 */
    memset(&ev, 0, sizeof ev);
    ev.kind = TOKENRING_ROUTER_EVENT_REPLACED;
    ev.node = "10.0.0.99";
    ev.old_node = names[4];
    ev.tag = 99;
    ev.flags = TOKENRING_ROUTER_NODE_DOWN;
    apply_ok(&r, &ev);
    assert_int_equal(tokenring_router_find_node(&idx, r, "10.0.0.99"), TOKENRING_OK);
    tokenring_router_node(&info, r, idx);
    assert_int_equal(info.tag, 99);
    assert_int_equal(info.flags, TOKENRING_ROUTER_NODE_DOWN);
    assert_string_equal(info.rack, racks[4]);
    /* keyspaces: created with an existing replication shares its placement */
    memset(&ev, 0, sizeof ev);
    ev.kind = TOKENRING_ROUTER_EVENT_CREATED;
    ev.keyspace = "orders";
    ev.keys = nts_keys;
    ev.values = nts_vals;
    ev.count = 3;
    apply_ok(&r, &ev);
    const tokenring_placement *pa, *pb;
    const char *name;
    tokenring_router_keyspace(&name, &pa, r, 0);
    assert_string_equal(name, "orders");
    tokenring_router_keyspace(&name, &pb, r, 1);
    assert_string_equal(name, "shop");
    assert_ptr_equal(pa, pb);
    /* altered to SimpleStrategy 2: shares simple's */
    ev.kind = TOKENRING_ROUTER_EVENT_ALTERED;
    ev.keys = simple_keys;
    ev.values = simple_vals;
    ev.count = 2;
    apply_ok(&r, &ev);
    tokenring_router_keyspace(&name, &pa, r, 0);
    tokenring_router_keyspace(NULL, &pb, r, 2);
    assert_ptr_equal(pa, pb);
    /* altered to LocalStrategy: skipped; dropped */
    ev.keys = local_keys;
    ev.values = local_vals;
    ev.count = 1;
    apply_ok(&r, &ev);
    assert_int_equal(tokenring_router_skipped_count(r), 3);
    assert_int_equal(tokenring_router_keyspace_count(r), 3);
    ev.kind = TOKENRING_ROUTER_EVENT_ALTERED;
    ev.keys = simple_keys;
    ev.values = simple_vals;
    ev.count = 2;
    apply_ok(&r, &ev); /* back from skipped */
    assert_int_equal(tokenring_router_skipped_count(r), 2);
    ev.kind = TOKENRING_ROUTER_EVENT_DROPPED;
    apply_ok(&r, &ev);
    ev.keyspace = "system";
    apply_ok(&r, &ev);
    assert_int_equal(tokenring_router_keyspace_count(r), 3);
    assert_int_equal(tokenring_router_skipped_count(r), 1);
    tokenring_placement_free(keep);
    tokenring_router_free(r);
}

static void apply_fails(const tokenring_router *r, const tokenring_router_event *ev, int code,
                        const char *text)
{
    tokenring_router *next = (tokenring_router *)r;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(tokenring_router_apply(&next, r, ev, &err), code);
    assert_ptr_equal(next, r);
    if (text && !strstr(err.message, text))
        fail_msg("expected '%s' in '%s'", text, err.message);
}

static void test_event_errors(void **state)
{
    (void)state;
    tokenring_router *r = rows_router("dc1");
    tokenring_router_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = 0;
    apply_fails(r, &ev, TOKENRING_E_INVAL, "unknown event kind");
    ev.kind = 11;
    apply_fails(r, &ev, TOKENRING_E_INVAL, "unknown event kind");
    ev.kind = TOKENRING_ROUTER_EVENT_UP;
    apply_fails(r, &ev, TOKENRING_E_INVAL, "names no node");
    ev.node = "10.9.9.9";
    apply_fails(r, &ev, TOKENRING_E_NOTFOUND, "10.9.9.9");
    ev.kind = TOKENRING_ROUTER_EVENT_LEFT;
    apply_fails(r, &ev, TOKENRING_E_NOTFOUND, "10.9.9.9");
    ev.kind = TOKENRING_ROUTER_EVENT_MOVED;
    apply_fails(r, &ev, TOKENRING_E_NOTFOUND, "10.9.9.9");
    ev.kind = TOKENRING_ROUTER_EVENT_REPLACED;
    apply_fails(r, &ev, TOKENRING_E_INVAL, "old_node");
    ev.old_node = "10.9.9.8";
    apply_fails(r, &ev, TOKENRING_E_NOTFOUND, "10.9.9.8");
    ev.old_node = names[0];
    ev.node = names[1];
    apply_fails(r, &ev, TOKENRING_E_EXISTS, NULL);
    /* joins */
    ev.kind = TOKENRING_ROUTER_EVENT_JOINED;
    ev.node = names[0];
    apply_fails(r, &ev, TOKENRING_E_EXISTS, "already");
    ev.node = NULL;
    apply_fails(r, &ev, TOKENRING_E_INVAL, "names no node");
    ev.node = "10.9.9.9";
    apply_fails(r, &ev, TOKENRING_E_PARSE, "no datacenter");
    ev.datacenter = "dc1";
    apply_fails(r, &ev, TOKENRING_E_EMPTY, "no tokens");
    ev.token_count = 1;
    apply_fails(r, &ev, TOKENRING_E_INVAL, "NULL tokens");
    ev.tokens = tok_ptr[0];
    apply_fails(r, &ev, TOKENRING_E_EXISTS, NULL); /* a token of node 0 */
    const char *bad[] = { "nope" };
    ev.tokens = bad;
    apply_fails(r, &ev, TOKENRING_E_PARSE, NULL);
    ev.kind = TOKENRING_ROUTER_EVENT_MOVED;
    ev.node = names[0];
    ev.tokens = NULL;
    apply_fails(r, &ev, TOKENRING_E_INVAL, "NULL tokens");
    ev.tokens = tok_ptr[1];
    apply_fails(r, &ev, TOKENRING_E_EXISTS, NULL);
    /* keyspaces */
    memset(&ev, 0, sizeof ev);
    ev.kind = TOKENRING_ROUTER_EVENT_CREATED;
    apply_fails(r, &ev, TOKENRING_E_INVAL, "names no keyspace");
    ev.keyspace = "shop";
    apply_fails(r, &ev, TOKENRING_E_EXISTS, "shop");
    ev.keyspace = "system";
    apply_fails(r, &ev, TOKENRING_E_EXISTS, "system");
    ev.kind = TOKENRING_ROUTER_EVENT_ALTERED;
    ev.keyspace = "nope";
    apply_fails(r, &ev, TOKENRING_E_NOTFOUND, "nope");
    ev.kind = TOKENRING_ROUTER_EVENT_DROPPED;
    apply_fails(r, &ev, TOKENRING_E_NOTFOUND, "nope");
    ev.kind = TOKENRING_ROUTER_EVENT_CREATED;
    ev.count = 1;
    apply_fails(r, &ev, TOKENRING_E_INVAL, "NULL replication");
    const char *odd[] = { "OddStrategy" };
    ev.keys = local_keys;
    ev.values = odd;
    apply_fails(r, &ev, TOKENRING_E_PARSE, "keyspace nope");
    ev.kind = TOKENRING_ROUTER_EVENT_PLACEMENT;
    apply_fails(r, &ev, TOKENRING_E_NOTFOUND, "nope");
    ev.keyspace = "shop";
    apply_fails(r, &ev, TOKENRING_E_INVAL, "no placement");
    assert_int_equal(tokenring_router_apply(NULL, r, &ev, NULL), TOKENRING_E_INVAL);
    /* the last node with tokens cannot leave */
    tokenring_router_builder *b = NULL;
    tokenring_router_builder_new(&b, NULL, NULL);
    tokenring_router_builder_add_peer(b, names[0], "dc1", "r1", NULL, tok_ptr[0], VN, NULL);
    tokenring_router *one = NULL;
    assert_int_equal(tokenring_router_build(&one, b, NULL), TOKENRING_OK);
    memset(&ev, 0, sizeof ev);
    ev.kind = TOKENRING_ROUTER_EVENT_LEFT;
    ev.node = names[0];
    apply_fails(one, &ev, TOKENRING_E_EMPTY, NULL);
    tokenring_router_free(one);
    tokenring_router_builder_free(b);
    tokenring_router_free(r);
}

/* A placement built elsewhere: the router takes a reference and routes through it. */
static void test_supplied_placement(void **state)
{
    (void)state;
    tokenring_router *r = rows_router("dc1");
    tokenring_replication *repl = NULL;
    tokenring_replication_simple(&repl, 1, 0, NULL);
    tokenring_placement *mine = NULL;
    assert_int_equal(tokenring_placement_build(&mine, tokenring_router_ring(r), repl, 0, NULL),
                     TOKENRING_OK);
    tokenring_router_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = TOKENRING_ROUTER_EVENT_PLACEMENT;
    ev.keyspace = "users";
    ev.placement = mine;
    apply_ok(&r, &ev);
    const tokenring_placement *p;
    tokenring_router_keyspace(NULL, &p, r, 2);
    assert_ptr_equal(p, mine);
    same_as(r, "users", mine);
    /* survives an up/down event, is recomputed by a join */
    memset(&ev, 0, sizeof ev);
    ev.kind = TOKENRING_ROUTER_EVENT_DOWN;
    ev.node = names[0];
    apply_ok(&r, &ev);
    tokenring_router_keyspace(NULL, &p, r, 2);
    assert_ptr_equal(p, mine);
    ev.kind = TOKENRING_ROUTER_EVENT_UP;
    apply_ok(&r, &ev);
    ev.kind = TOKENRING_ROUTER_EVENT_JOINED;
    ev.node = names[NODES];
    ev.datacenter = "dc2";
    ev.rack = "r9";
    ev.tokens = tok_ptr[NODES];
    ev.token_count = VN;
    apply_ok(&r, &ev);
    tokenring_router_keyspace(NULL, &p, r, 2);
    assert_ptr_not_equal(p, mine);
    tokenring_route rt;
    assert_int_equal(tokenring_router_route_token(&rt, r, "users", 0, 0), TOKENRING_OK);
    assert_int_equal(rt.count, 1);
    /* a placement of another ring is refused */
    memset(&ev, 0, sizeof ev);
    ev.kind = TOKENRING_ROUTER_EVENT_PLACEMENT;
    ev.keyspace = "users";
    ev.placement = mine;
    apply_fails(r, &ev, TOKENRING_E_INVAL, "another ring");
    /* same nodes and tokens, another rack: refused */
    {
        tokenring_topology *t = NULL;
        tokenring_topology_new(&t);
        for (int i = 0; i < NODES; i++)
            tokenring_topology_add_node(t, names[i], dcs[i], i == 3 ? "rX" : racks[i], toks[i],
                                        VN, NULL);
        tokenring_ring *ring = NULL;
        tokenring_ring_build(&ring, t, NULL);
        tokenring_placement *other = NULL;
        tokenring_placement_build(&other, ring, repl, 0, NULL);
        tokenring_router *r0 = rows_router("dc1");
        ev.placement = other;
        apply_fails(r0, &ev, TOKENRING_E_INVAL, "another ring");
        tokenring_router_free(r0);
        tokenring_placement_free(other);
        tokenring_ring_free(ring);
        tokenring_topology_free(t);
    }
    /* a placement of an equal ring built elsewhere is accepted */
    tokenring_placement *d = direct(NTS, NODES, -1);
    tokenring_router *r0 = rows_router("dc1");
    tokenring_router *r1 = NULL;
    ev.placement = d;
    assert_int_equal(tokenring_router_apply(&r1, r0, &ev, NULL), TOKENRING_OK);
    tokenring_router_free(r1);
    tokenring_router_free(r0);
    tokenring_placement_free(d);
    tokenring_placement_free(mine);
    tokenring_replication_free(repl);
    tokenring_router_free(r);
}

static void test_holder_single(void **state)
{
    (void)state;
    tokenring_router *a = rows_router("dc1"), *b = rows_router("dc2");
    tokenring_router_holder *h = NULL;
    assert_int_equal(tokenring_router_holder_new(NULL, a), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_router_holder_new(&h, NULL), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_router_holder_new(&h, a), TOKENRING_OK);
    tokenring_router_reader *rd = NULL, *rd2 = NULL;
    assert_int_equal(tokenring_router_reader_new(&rd, NULL), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_router_reader_new(&rd, h), TOKENRING_OK);
    assert_int_equal(tokenring_router_reader_new(&rd2, h), TOKENRING_OK);
    assert_ptr_not_equal(rd, rd2);
    assert_ptr_equal(tokenring_router_acquire(rd), a);
    tokenring_router_release(rd);
    assert_ptr_equal(tokenring_router_acquire(rd), a); /* fast path */
    assert_int_equal(tokenring_router_holder_swap(h, b), TOKENRING_OK);
    assert_ptr_equal(tokenring_router_acquire(rd2), b);
    tokenring_router_release(rd); /* drops a */
    assert_ptr_equal(tokenring_router_acquire(rd), b);
    tokenring_router *cur = tokenring_router_holder_current(h);
    assert_ptr_equal(cur, b);
    tokenring_router_free(cur);
    assert_int_equal(tokenring_router_holder_swap(h, a), TOKENRING_OK);
    assert_ptr_equal(tokenring_router_acquire(rd), a); /* without a release in between */
    tokenring_router_release(rd);
    tokenring_router_reader_free(rd2);
    tokenring_router_reader *rd3 = NULL;
    assert_int_equal(tokenring_router_reader_new(&rd3, h), TOKENRING_OK); /* reused */
    assert_ptr_not_equal(rd3, rd); /* a free slot, never one in use */
    tokenring_router_reader_free(rd3);
    tokenring_router_reader_free(rd);
    tokenring_router_reader_free(NULL);
    tokenring_router_release(NULL);
    assert_null(tokenring_router_acquire(NULL));
    assert_null(tokenring_router_holder_current(NULL));
    assert_int_equal(tokenring_router_holder_swap(h, NULL), TOKENRING_E_INVAL);
    tokenring_router_holder_free(h);
    tokenring_router_holder_free(NULL);
    tokenring_router_free(a);
    tokenring_router_free(b);
}

int main(void)
{
    make_nodes();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_views_and_token),
        cmocka_unit_test(test_parts),
        cmocka_unit_test(test_cqlsh_agreement),
        cmocka_unit_test(test_builder_errors),
        cmocka_unit_test(test_random_partitioner),
        cmocka_unit_test(test_events),
        cmocka_unit_test(test_event_errors),
        cmocka_unit_test(test_supplied_placement),
        cmocka_unit_test(test_grouping),
        cmocka_unit_test(test_byte_ordered),
        cmocka_unit_test(test_cluster_partitioned),
        cmocka_unit_test(test_holder_single),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
