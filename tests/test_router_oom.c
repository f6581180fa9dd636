/* SPDX-License-Identifier: Apache-2.0 */
/* Routers when memory runs out: building from rows and from a cluster, every kind of
 * event, and the holder, each run with its 1st, 2nd, ... allocation failing: every
 * failure returns TOKENRING_E_NOMEM, leaks nothing and leaves the previous snapshot as it
 * was (compared through a dump of its nodes, keyspaces and routes). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"
#include "oom.h"

static const char *const toks[4][3] = {
    { "-9000000000000000000", "-3000000000000000000", "3000000000000000000" },
    { "-7000000000000000000", "-1000000000000000000", "5000000000000000000" },
    { "-5000000000000000000", "1000000000000000000", "7000000000000000000" },
    { "-8000000000000000000", "2000000000000000000", "8000000000000000000" },
};
static const char *const nts_keys[] = { "class", "dc1", "dc2" };
static const char *const nts_vals[] = { "NetworkTopologyStrategy", "2", "1" };
static const char *const local_keys[] = { "class" };
static const char *const local_vals[] = { "LocalStrategy" };
static const char *const simple_keys[] = { "class", "replication_factor" };
static const char *const simple_vals[] = { "SimpleStrategy", "1" };

static int build_rows(tokenring_router **out)
{
    tokenring_router_builder *b = NULL;
    int rc = tokenring_router_builder_new(&b, "dc1", NULL);
    if (rc != TOKENRING_OK)
        return rc;
    if ((rc = tokenring_router_builder_add_local(b, "a", "dc1", "r1", "host-a",
                                                 "Murmur3Partitioner", toks[0], 3, NULL)) ||
        (rc = tokenring_router_builder_add_peer(b, "b", "dc1", NULL, NULL, toks[1], 3, NULL)) ||
        (rc = tokenring_router_builder_add_peer(b, "c", "dc2", "r1", NULL, toks[2], 3, NULL)) ||
        (rc = tokenring_router_builder_set_node(b, "c", 3, TOKENRING_ROUTER_NODE_DOWN, NULL)) ||
        (rc = tokenring_router_builder_add_keyspace(b, "ks", nts_keys, nts_vals, 3, NULL)) ||
        (rc = tokenring_router_builder_add_keyspace(b, "ks2", nts_keys, nts_vals, 3, NULL)) ||
        (rc = tokenring_router_builder_add_keyspace(b, "sys", local_keys, local_vals, 1, NULL)) ||
        (rc = tokenring_router_build(out, b, NULL))) {
        tokenring_router_builder_free(b);
        return rc;
    }
    tokenring_router_builder_free(b);
    return TOKENRING_OK;
}

static int op_build(void *ctx, void **made)
{
    (void)ctx;
    (void)made;
    tokenring_router *r = NULL;
    int rc = build_rows(&r);
    tokenring_router_free(r);
    return rc;
}

static int op_cluster(void *ctx, void **made)
{
    (void)made;
    tokenring_router_builder *b = NULL;
    int rc = tokenring_router_builder_new(&b, NULL, NULL);
    if (rc == TOKENRING_OK)
        rc = tokenring_router_builder_add_cluster(b, ctx, NULL);
    tokenring_router *r = NULL;
    if (rc == TOKENRING_OK)
        rc = tokenring_router_build(&r, b, NULL);
    tokenring_router_free(r);
    tokenring_router_builder_free(b);
    return rc;
}

static char *dump_router(void *ctx)
{
    const tokenring_router *r = ((oom_ctx *)ctx)->extra;
    char *s = malloc(4096);
    size_t n = 0;
    for (size_t i = 0; i < tokenring_router_node_count(r); i++) {
        tokenring_router_node_info info;
        tokenring_router_node(&info, r, i);
        n += (size_t)snprintf(s + n, 4096 - n, "%s %s %s %llu %u;", info.name, info.datacenter,
                              info.rack, (unsigned long long)info.tag, (unsigned)info.flags);
    }
    for (size_t i = 0; i < tokenring_router_keyspace_count(r); i++) {
        const char *name;
        tokenring_router_keyspace(&name, NULL, r, i);
        tokenring_route rt;
        tokenring_router_route_token(&rt, r, name, 0, 0);
        n += (size_t)snprintf(s + n, 4096 - n, "%s %u %u;", name, rt.count, rt.local[0]);
    }
    return s;
}

static const tokenring_router_event *current_event;

static int op_event(void *ctx, void **made)
{
    (void)made;
    tokenring_router *next = NULL;
    tokenring_error err;
    int rc = tokenring_router_apply(&next, ((oom_ctx *)ctx)->extra, current_event, &err);
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    tokenring_router_free(next);
    return rc;
}

static void build_ops(void **state)
{
    (void)state;
    oom_check("router build from rows", NULL, op_build, NULL);
    tokenring_cluster *cl = NULL;
    assert_int_equal(tokenring_cluster_new(&cl), TOKENRING_OK);
    static const char text[] = "keyspace ks NetworkTopologyStrategy:dc1=1\n"
                               "node a dc=dc1 rack=r1 tokens=10,50\n"
                               "node b dc=dc1 rack=r2 tokens=30,70\n";
    assert_int_equal(tokenring_cluster_parse(cl, TOKENRING_INPUT_TOPOLOGY, text,
                                             sizeof text - 1, 0, NULL, NULL),
                     TOKENRING_OK);
    oom_check("router build from a cluster", cl, op_cluster, NULL);
    tokenring_cluster_free(cl);
}

static void event_ops(void **state)
{
    (void)state;
    oom_ctx ctx = { 0 };
    tokenring_router *r = NULL;
    assert_int_equal(build_rows(&r), TOKENRING_OK);
    ctx.extra = r;
    tokenring_router_event ev[10];
    memset(ev, 0, sizeof ev);
    ev[0].kind = TOKENRING_ROUTER_EVENT_DOWN;
    ev[0].node = "a";
    ev[1].kind = TOKENRING_ROUTER_EVENT_JOINED;
    ev[1].node = "d";
    ev[1].datacenter = "dc2";
    ev[1].rack = "r2";
    ev[1].host_id = "host-d";
    ev[1].tokens = toks[3];
    ev[1].token_count = 3;
    ev[2].kind = TOKENRING_ROUTER_EVENT_LEFT;
    ev[2].node = "b";
    ev[3].kind = TOKENRING_ROUTER_EVENT_MOVED;
    ev[3].node = "b";
    ev[3].tokens = toks[3];
    ev[3].token_count = 3;
    ev[4].kind = TOKENRING_ROUTER_EVENT_REPLACED;
    ev[4].node = "e";
    ev[4].old_node = "c";
    ev[4].host_id = "host-e";
    ev[5].kind = TOKENRING_ROUTER_EVENT_CREATED;
    ev[5].keyspace = "new";
    ev[5].keys = simple_keys;
    ev[5].values = simple_vals;
    ev[5].count = 2;
    ev[6].kind = TOKENRING_ROUTER_EVENT_ALTERED;
    ev[6].keyspace = "ks2";
    ev[6].keys = local_keys;
    ev[6].values = local_vals;
    ev[6].count = 1;
    ev[7].kind = TOKENRING_ROUTER_EVENT_DROPPED;
    ev[7].keyspace = "sys";
    ev[8].kind = TOKENRING_ROUTER_EVENT_ALTERED;
    ev[8].keyspace = "sys";
    ev[8].keys = simple_keys;
    ev[8].values = simple_vals;
    ev[8].count = 2;
    tokenring_replication *repl = NULL;
    tokenring_placement *pl = NULL;
    assert_int_equal(tokenring_replication_simple(&repl, 1, 0, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_placement_build(&pl, tokenring_router_ring(r), repl, 0, NULL),
                     TOKENRING_OK);
    ev[9].kind = TOKENRING_ROUTER_EVENT_PLACEMENT;
    ev[9].keyspace = "ks";
    ev[9].placement = pl;
    static const char *const what[] = { "down", "joined", "left", "moved", "replaced",
                                        "created", "altered", "dropped", "altered back",
                                        "placement" };
    for (int i = 0; i < 10; i++) {
        current_event = &ev[i];
        oom_check(what[i], &ctx, op_event, dump_router);
    }
    /* a snapshot holding a supplied placement, through a ring change */
    tokenring_router *with = NULL;
    assert_int_equal(tokenring_router_apply(&with, r, &ev[9], NULL), TOKENRING_OK);
    ctx.extra = with;
    current_event = &ev[1];
    oom_check("joined, supplied placement", &ctx, op_event, dump_router);
    current_event = &ev[0];
    oom_check("down, supplied placement", &ctx, op_event, dump_router);
    tokenring_router_free(with);
    tokenring_placement_free(pl);
    tokenring_replication_free(repl);
    tokenring_router_free(r);
}

static int op_holder(void *ctx, void **made)
{
    (void)made;
    tokenring_router *r = ((oom_ctx *)ctx)->extra;
    tokenring_router_holder *h = NULL;
    tokenring_router_reader *rd = NULL;
    int rc = tokenring_router_holder_new(&h, r);
    if (rc != TOKENRING_OK)
        return rc;
    if ((rc = tokenring_router_reader_new(&rd, h)) == TOKENRING_OK) {
        tokenring_router_acquire(rd);
        rc = tokenring_router_holder_swap(h, r);
        tokenring_router_release(rd);
        tokenring_router_reader_free(rd);
    }
    if (rc == TOKENRING_OK) {
        tokenring_router *cur = tokenring_router_holder_current(h);
        rc = cur ? TOKENRING_OK : TOKENRING_E_NOMEM;
        tokenring_router_free(cur);
    }
    tokenring_router_holder_free(h);
    return rc;
}

static void holder_ops(void **state)
{
    (void)state;
    oom_ctx ctx = { 0 };
    tokenring_router *r = NULL;
    assert_int_equal(build_rows(&r), TOKENRING_OK);
    ctx.extra = r;
    oom_check("holder", &ctx, op_holder, NULL);
    tokenring_router_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(build_ops, oom_setup, oom_teardown),
        cmocka_unit_test_setup_teardown(event_ops, oom_setup, oom_teardown),
        cmocka_unit_test_setup_teardown(holder_ops, oom_setup, oom_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
