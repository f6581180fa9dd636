/* SPDX-License-Identifier: Apache-2.0 */
/* tokenring_history_from_metadata and tokenring_router_with_history: Cassandra 6.0's
 * history built from the rows of system_views.cluster_metadata_log and
 * cluster_metadata_directory (entries as 6.0-alpha2's Transformation.toString() writes
 * them) must replay exactly as the history text it stands for; a router routed through
 * it answers the history's order; bad rows are refused naming the row, and leave the
 * output untouched. */
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
#include "oom.h"
#include "testdata.h"

#define N_LOG 40
#define N_DIR 5

static const char *T1[] = { "-9000000000000000000", "-3000000000000000000", "3000000000000000000" };
static const char *T2[] = { "-6000000000000000000", "0", "6000000000000000000" };
static const char *T3[] = { "-7500000000000000000", "1500000000000000000" };
static const char *T4[] = { "-1500000000000000000", "4500000000000000000", "8000000000000000000" };

typedef struct {
    tokenring_metadata_log_row log[N_LOG];
    char epochs[N_LOG][24];
    size_t nlog;
    tokenring_metadata_node_row dir[N_DIR];
    size_t ndir;
} rows;

static void entry(rows *r, const char *kind, const char *t)
{
    size_t i = r->nlog++;
    assert_true(i < N_LOG);
    snprintf(r->epochs[i], sizeof r->epochs[i], "%zu", i + 1);
    r->log[i] = (tokenring_metadata_log_row){ r->epochs[i], kind, t, { 0, 0 } };
}

/* A cluster's log: three nodes started without bootstrap, keyspaces created (one
 * altered later, one dropped), a node bootstrapped, one more bootstrapped and then
 * decommissioned; with entries the replay skips in between. Rows in reverse order (the
 * call sorts them by epoch). */
static void base(rows *r)
{
    memset(r, 0, sizeof *r);
    entry(r, "PRE_INITIALIZE_CMS", "PreInitialize{addr=/127.0.0.1:7000, datacenter=dc1}");
    entry(r, "INITIALIZE_CMS", "Initialize{baseState = Epoch{epoch=1}}");
    entry(r, "SCHEMA_CHANGE",
          "AlterSchema{schemaTransformation=org.apache.cassandra.schema."
          "SchemaTransformations$1@5c8e67b9}");
    entry(r, "UNSAFE_JOIN",
          "UnsafeJoin{nodeId=NodeId{id=1}, tokens=[-9000000000000000000, "
          "-3000000000000000000, 3000000000000000000], joinTokenRing=true, streamData=false}");
    entry(r, "REGISTER", "Register{addresses=NodeAddresses{broadcastAddress=/127.0.0.2:7000}, "
                         "location=dc1/r2, version=NodeVersion{}}");
    entry(r, "UNSAFE_JOIN",
          "UnsafeJoin{nodeId=NodeId{id=2}, tokens=[-6000000000000000000, 0, "
          "6000000000000000000], joinTokenRing=true, streamData=false}");
    entry(r, "REGISTER", "Register{...}");
    entry(r, "UNSAFE_JOIN",
          "UnsafeJoin{nodeId=NodeId{id=3}, tokens=[-7500000000000000000, "
          "1500000000000000000], joinTokenRing=true, streamData=false}");
    entry(r, "STARTUP", "Startup{nodeId=NodeId{id=3}, nodeVersion=..., addresses=...}");
    entry(r, "SCHEMA_CHANGE", "AlterSchema{schemaTransformation=CreateKeyspaceStatement (ks_a)}");
    entry(r, "SCHEMA_CHANGE", "AlterSchema{schemaTransformation=CreateTableStatement (ks_a.t)}");
    entry(r, "SCHEMA_CHANGE", "AlterSchema{schemaTransformation=CreateKeyspaceStatement (ks_b)}");
    entry(r, "SCHEMA_CHANGE", "AlterSchema{schemaTransformation=CreateKeyspaceStatement (ks_c)}");
    entry(r, "SCHEMA_CHANGE", "AlterSchema{schemaTransformation=CreateKeyspaceStatement (ks_d)}");
    entry(r, "SCHEMA_CHANGE", "AlterSchema{schemaTransformation=CreateKeyspaceStatement (ks_local)}");
    entry(r, "REGISTER", "Register{...}");
    entry(r, "PREPARE_JOIN",
          "PrepareJoin{nodeId=NodeId{id=4}, tokens=[-1500000000000000000, "
          "4500000000000000000, 8000000000000000000], joinTokenRing=true, streamData=true}");
    entry(r, "START_JOIN", "StartJoin{id=NodeId{id=4}, kind=START_JOIN, delta=...}");
    entry(r, "MID_JOIN", "MidJoin{id=NodeId{id=4}, kind=MID_JOIN, delta=...}");
    entry(r, "FINISH_JOIN", "FinishJoin{id=NodeId{id=4}, kind=FINISH_JOIN, delta=...}");
    entry(r, "SCHEMA_CHANGE", "AlterSchema{schemaTransformation=AlterKeyspaceStatement (ks_c)}");
    entry(r, "SCHEMA_CHANGE", "AlterSchema{schemaTransformation=AlterKeyspaceStatement (ks_c)}");
    entry(r, "SCHEMA_CHANGE", "AlterSchema{schemaTransformation=DropKeyspaceStatement (ks_d)}");
    entry(r, "TRIGGER_SNAPSHOT", "TriggerSnapshot{}");
    entry(r, "REGISTER", "Register{...}");
    entry(r, "PREPARE_JOIN",
          "PrepareJoin{nodeId=NodeId{id=5}, tokens=[-4000000000000000000, "
          "7000000000000000000], joinTokenRing=true, streamData=true}");
    entry(r, "START_JOIN", "StartJoin{...}");
    entry(r, "MID_JOIN", "MidJoin{...}");
    entry(r, "FINISH_JOIN", "FinishJoin{...}");
    entry(r, "ADVANCE_CMS_RECONFIGURATION", "AdvanceCMSReconfiguration{...}");
    entry(r, "PREPARE_LEAVE", "PrepareLeave{leaving=NodeId{id=5}, force=false}");
    entry(r, "START_LEAVE", "StartLeave{...}");
    entry(r, "MID_LEAVE", "MidLeave{...}");
    entry(r, "FINISH_LEAVE", "FinishLeave{...}");
    /* reverse the rows: the call orders them */
    for (size_t i = 0; i < r->nlog / 2; i++) {
        tokenring_metadata_log_row t = r->log[i];
        r->log[i] = r->log[r->nlog - 1 - i];
        r->log[r->nlog - 1 - i] = t;
    }
    r->ndir = 5;
    r->dir[0] = (tokenring_metadata_node_row){ "3", "/127.0.0.3", "7000", "dc2", "r1", "JOINED",
                                               T3, 2, { 0, 0 } };
    r->dir[1] = (tokenring_metadata_node_row){ "1", "127.0.0.1", NULL, "dc1", "r1", "JOINED",
                                               T1, 3, { 0, 0 } };
    r->dir[2] = (tokenring_metadata_node_row){ "2", "127.0.0.2", "7000", "dc1", "r2", "JOINED",
                                               T2, 3, { 0, 0 } };
    r->dir[3] = (tokenring_metadata_node_row){ "4", "127.0.0.4", "7000", "dc1", "r1", "JOINED",
                                               T4, 3, { 0, 0 } };
    r->dir[4] = (tokenring_metadata_node_row){ "5", "127.0.0.5", "7000", "dc2", "r1", "LEFT",
                                               NULL, 0, { 0, 0 } };
}

/* The history text the rows stand for: ks_c from its last ALTER on, ks_d (dropped)
 * and ks_local (LocalStrategy) not at all. */
static const char EXPECTED[] =
    "register 127.0.0.1 dc1 r1\n"
    "register 127.0.0.2 dc1 r2\n"
    "register 127.0.0.3 dc2 r1\n"
    "register 127.0.0.4 dc1 r1\n"
    "register 127.0.0.5 dc2 r1\n"
    "unsafe_join 127.0.0.1 -9000000000000000000,-3000000000000000000,3000000000000000000\n"
    "unsafe_join 127.0.0.2 -6000000000000000000,0,6000000000000000000\n"
    "unsafe_join 127.0.0.3 -7500000000000000000,1500000000000000000\n"
    "keyspace ks_a dc1=2,dc2=1\n"
    "keyspace ks_b 3\n"
    "join 127.0.0.4 -1500000000000000000,4500000000000000000,8000000000000000000\n"
    "keyspace ks_c dc1=1\n"
    "join 127.0.0.5 -4000000000000000000,7000000000000000000\n"
    "leave 127.0.0.5\n";

static tokenring_router *make_router(bool with_ks_d)
{
    tokenring_router_builder *b = NULL;
    assert_int_equal(tokenring_router_builder_new(&b, "dc1", NULL), TOKENRING_OK);
    assert_int_equal(tokenring_router_builder_add_local(b, "127.0.0.1", "dc1", "r1", NULL,
                                                        "org.apache.cassandra.dht."
                                                        "Murmur3Partitioner",
                                                        T1, 3, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_router_builder_add_peer(b, "127.0.0.2", "dc1", "r2", NULL, T2, 3,
                                                       NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_router_builder_add_peer(b, "127.0.0.3", "dc2", "r1", NULL, T3, 2,
                                                       NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_router_builder_add_peer(b, "127.0.0.4", "dc1", "r1", NULL, T4, 3,
                                                       NULL),
                     TOKENRING_OK);
    static const char *const nk[] = { "class", "dc1", "dc2" };
    static const char *const nv[] = { "org.apache.cassandra.locator.NetworkTopologyStrategy", "2",
                                      "1" };
    static const char *const sk[] = { "class", "replication_factor" };
    static const char *const s3[] = { "org.apache.cassandra.locator.SimpleStrategy", "3" };
    static const char *const s1[] = { "org.apache.cassandra.locator.SimpleStrategy", "1" };
    static const char *const s2[] = { "org.apache.cassandra.locator.SimpleStrategy", "2" };
    static const char *const cv[] = { "NetworkTopologyStrategy", "1" };
    static const char *const lk[] = { "class" };
    static const char *const lv[] = { "org.apache.cassandra.locator.LocalStrategy" };
    assert_int_equal(tokenring_router_builder_add_keyspace(b, "ks_a", nk, nv, 3, NULL), 0);
    assert_int_equal(tokenring_router_builder_add_keyspace(b, "ks_b", sk, s3, 2, NULL), 0);
    assert_int_equal(tokenring_router_builder_add_keyspace(b, "ks_c", nk, cv, 2, NULL), 0);
    assert_int_equal(tokenring_router_builder_add_keyspace(b, "ks_local", lk, lv, 1, NULL), 0);
    assert_int_equal(tokenring_router_builder_add_keyspace(b, "system_auth", sk, s1, 2, NULL), 0);
    assert_int_equal(tokenring_router_builder_add_keyspace(b, "system_traces", sk, s2, 2, NULL),
                     0);
    assert_int_equal(tokenring_router_builder_add_keyspace(b, "system", lk, lv, 1, NULL), 0);
    if (with_ks_d)
        assert_int_equal(tokenring_router_builder_add_keyspace(b, "ks_e", sk, s2, 2, NULL), 0);
    tokenring_router *r = NULL;
    tokenring_error err;
    int rc = tokenring_router_build(&r, b, &err);
    assert_int_equal(rc, TOKENRING_OK);
    tokenring_router_builder_free(b);
    return r;
}

/* Every range list (and the one above the largest token) of two placements on rings
 * whose nodes may be numbered differently, by name. */
static void assert_same_placement(const tokenring_placement *a, const tokenring_placement *b)
{
    const tokenring_ring *ra = tokenring_placement_ring(a), *rb = tokenring_placement_ring(b);
    size_t n = 0, m = 0;
    const int64_t *ta = tokenring_ring_tokens(ra, &n), *tb = tokenring_ring_tokens(rb, &m);
    assert_int_equal(n, m);
    assert_memory_equal(ta, tb, n * sizeof *ta);
    assert_int_equal(tokenring_placement_order(a), TOKENRING_ORDER_HISTORY);
    assert_int_equal(tokenring_placement_order(b), TOKENRING_ORDER_HISTORY);
    for (size_t i = 0; i <= n; i++) {
        tokenring_replicas x, y;
        if (i < n) {
            assert_int_equal(tokenring_placement_range_replicas(&x, a, i), TOKENRING_OK);
            assert_int_equal(tokenring_placement_range_replicas(&y, b, i), TOKENRING_OK);
        } else {
            assert_int_equal(tokenring_placement_replicas(&x, a, INT64_MAX), TOKENRING_OK);
            assert_int_equal(tokenring_placement_replicas(&y, b, INT64_MAX), TOKENRING_OK);
        }
        assert_int_equal(x.count, y.count);
        for (uint32_t k = 0; k < x.count; k++) {
            tokenring_node_info p, q;
            tokenring_ring_node_brief(&p, ra, x.nodes[k]);
            tokenring_ring_node_brief(&q, rb, y.nodes[k]);
            assert_string_equal(p.name, q.name);
        }
    }
}

static void test_rows_replay_as_the_text(void **state)
{
    (void)state;
    rows r;
    base(&r);
    tokenring_router *ks = make_router(false);
    tokenring_history *h = NULL, *want = NULL;
    tokenring_error err;
    tokenring_limits lim;
    memset(&lim, 0, sizeof lim);
    int rc = tokenring_history_from_metadata(&h, r.log, r.nlog, r.dir, r.ndir, ks, &lim, &err);
    if (rc != TOKENRING_OK)
        fail_msg("%s", err.message);
    assert_true(lim.estimate > 0);
    assert_int_equal(tokenring_history_replay(&want, EXPECTED, strlen(EXPECTED), &err), 0);
    static const char *const repls[] = { "dc1=2,dc2=1", "3", "2", "1", "dc1=1", "dc2=1" };
    for (size_t i = 0; i < sizeof repls / sizeof repls[0]; i++) {
        tokenring_replication *rep = NULL;
        assert_int_equal(tokenring_replication_parse(&rep, repls[i], strlen(repls[i]), NULL), 0);
        tokenring_placement *a = NULL, *b = NULL;
        assert_int_equal(tokenring_history_placement(&a, h, rep, NULL), TOKENRING_OK);
        assert_int_equal(tokenring_history_placement(&b, want, rep, NULL), TOKENRING_OK);
        assert_same_placement(a, b);
        tokenring_placement_free(a);
        tokenring_placement_free(b);
        tokenring_replication_free(rep);
    }
    /* the order differs from the tokens' somewhere (else the test proves little) */
    tokenring_router *hr = NULL;
    assert_int_equal(tokenring_router_with_history(&hr, ks, h, &err), TOKENRING_OK);
    size_t differ = 0;
    for (size_t k = 0; k < tokenring_router_keyspace_count(hr); k++) {
        const char *name;
        const tokenring_placement *p = NULL, *old = NULL;
        assert_int_equal(tokenring_router_keyspace(&name, &p, hr, k), TOKENRING_OK);
        assert_int_equal(tokenring_router_keyspace(NULL, &old, ks, k), TOKENRING_OK);
        assert_int_equal(tokenring_placement_order(p), TOKENRING_ORDER_HISTORY);
        assert_int_equal(tokenring_placement_order(old), TOKENRING_ORDER_TOKENS);
        const char *spec = strcmp(name, "ks_a") == 0          ? "dc1=2,dc2=1"
                           : strcmp(name, "ks_b") == 0        ? "3"
                           : strcmp(name, "ks_c") == 0        ? "dc1=1"
                           : strcmp(name, "system_auth") == 0 ? "1"
                                                              : "2";
        tokenring_replication *rep = NULL;
        assert_int_equal(tokenring_replication_parse(&rep, spec, strlen(spec), NULL), 0);
        tokenring_placement *hp = NULL;
        assert_int_equal(tokenring_history_placement(&hp, want, rep, NULL), TOKENRING_OK);
        assert_same_placement(p, hp);
        tokenring_placement_free(hp);
        tokenring_replication_free(rep);
        /* the routes answer the history's order */
        for (int64_t t = INT64_MIN + 1; t < INT64_MAX - (INT64_MAX / 50);
             t += INT64_MAX / 50) {
            tokenring_route ro, rt;
            assert_int_equal(tokenring_router_route_token(&ro, hr, name, t, 0), TOKENRING_OK);
            assert_int_equal(tokenring_router_route_token(&rt, ks, name, t, 0), TOKENRING_OK);
            assert_int_equal(ro.count, rt.count);
            differ += memcmp(ro.replicas, rt.replicas, ro.count * sizeof *ro.replicas) != 0;
        }
        /* keyspaces of one replication share one placement */
        for (size_t j = 0; j < k; j++) {
            const tokenring_placement *q = NULL;
            tokenring_router_keyspace(NULL, &q, hr, j);
            const tokenring_placement *oq = NULL, *op = NULL;
            tokenring_router_keyspace(NULL, &oq, ks, j);
            tokenring_router_keyspace(NULL, &op, ks, k);
            assert_int_equal(q == p, oq == op);
        }
    }
    assert_true(differ > 0);
    /* the skipped keyspaces and nodes are the router's */
    assert_int_equal(tokenring_router_skipped_count(hr), tokenring_router_skipped_count(ks));
    assert_int_equal(tokenring_router_node_count(hr), 4);
    /* again, over a router already routed through a history: the same */
    tokenring_router *again = NULL;
    assert_int_equal(tokenring_router_with_history(&again, hr, h, &err), TOKENRING_OK);
    tokenring_route x, y;
    assert_int_equal(tokenring_router_route_token(&x, again, "ks_a", 42, 0), 0);
    assert_int_equal(tokenring_router_route_token(&y, hr, "ks_a", 42, 0), 0);
    assert_memory_equal(x.replicas, y.replicas, x.count * sizeof *x.replicas);
    tokenring_router_free(again);
    tokenring_router_free(hr);
    tokenring_router_free(ks);
    tokenring_history_free(h);
    tokenring_history_free(want);
}

/* Without keyspaces: the system keyspaces' placements; a router not routing a keyspace
 * of the log is refused. */
static void test_without_keyspaces(void **state)
{
    (void)state;
    rows r;
    base(&r);
    tokenring_history *h = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_history_from_metadata(&h, r.log, r.nlog, r.dir, r.ndir, NULL, NULL,
                                                     &err),
                     TOKENRING_OK);
    assert_non_null(tokenring_history_ring(h));
    tokenring_history_free(h);
}

/* One mutation of the base rows, and the error it must give. */
typedef struct {
    const char *what;
    int code;
    const char *message; /* a substring of the message */
} bad;

static void check_bad(rows *r, tokenring_router *ks, const bad *b)
{
    tokenring_history *h = (tokenring_history *)(uintptr_t)1;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = tokenring_history_from_metadata(&h, r->log, r->nlog, r->dir, r->ndir, ks, NULL,
                                             &err);
    if (rc != b->code || !strstr(err.message, b->message))
        fail_msg("%s: got %d '%s', want %d '%s'", b->what, rc, err.message, b->code,
                 b->message);
    assert_ptr_equal(h, (tokenring_history *)(uintptr_t)1); /* untouched */
}

/* The row of epoch e. */
static tokenring_metadata_log_row *at_epoch(rows *r, const char *e)
{
    for (size_t i = 0; i < r->nlog; i++)
        if (strcmp(r->log[i].epoch, e) == 0)
            return &r->log[i];
    fail_msg("no epoch %s", e);
    return NULL;
}

static void test_bad_rows(void **state)
{
    (void)state;
    tokenring_router *ks = make_router(false);
    rows r;
    static const char *const bad_tok[] = { "12x" };
    static const char *const min_tok[] = { "-9223372036854775808" };
    static const char *const T1b[] = { "-9000000000000000000", "-3000000000000000000",
                                       "3000000000000000001" };

#define CASE(mutate, code, msg)                                                              \
    do {                                                                                     \
        base(&r);                                                                            \
        mutate;                                                                              \
        bad b = { #mutate, code, msg };                                                      \
        check_bad(&r, ks, &b);                                                               \
    } while (0)

    CASE(r.dir[1].node_id = "one", TOKENRING_E_PARSE, "row 2: node_id 'one' is not a number");
    CASE(r.dir[1].node_id = NULL, TOKENRING_E_PARSE, "node_id 'null'");
    CASE(r.dir[1].dc = "my dc", TOKENRING_E_PARSE, "node_id 1: dc is null, empty or has a blank");
    CASE(r.dir[1].rack = NULL, TOKENRING_E_PARSE, "node_id 1: rack is null");
    CASE(r.dir[1].broadcast_address = NULL, TOKENRING_E_PARSE, "node_id 1: broadcast_address");
    CASE(r.dir[1].broadcast_address = "host.example", TOKENRING_E_PARSE,
         "cluster_metadata_directory node_id 1: 'host.example' is not an IPv4 address");
    CASE(r.dir[1].broadcast_port = "70000", TOKENRING_E_PARSE, "broadcast_port '70000'");
    CASE(r.dir[1].tokens = bad_tok; r.dir[1].token_count = 1, TOKENRING_E_PARSE,
         "node_id 1: token '12x' is not a Murmur3 token");
    CASE(r.dir[1].tokens = min_tok; r.dir[1].token_count = 1, TOKENRING_E_PARSE,
         "token '-9223372036854775808'");
    CASE(r.dir[1].tokens = NULL, TOKENRING_E_INVAL, "node_id 1: NULL tokens");
    CASE(r.dir[1].node_id = "2", TOKENRING_E_EXISTS, "node_id 2 is in two rows");
    CASE(r.dir[1].tokens = T1b, TOKENRING_E_INVAL,
         "node_id 1 (127.0.0.1) has 3 tokens, the log's replay gives it 3 others");
    CASE(r.dir[3].token_count = 2, TOKENRING_E_INVAL, "node_id 4 (127.0.0.4) has 2 tokens");
    CASE(r.dir[0] = r.dir[4]; r.ndir = 4, TOKENRING_E_NOTFOUND,
         "epoch 8 (UNSAFE_JOIN): node id 3 is not in cluster_metadata_directory");
    CASE(r.ndir = 4, TOKENRING_E_NOTFOUND, "epoch 26 (PREPARE_JOIN): node id 5 is not in");
    CASE(at_epoch(&r, "3")->epoch = "x3", TOKENRING_E_PARSE, "epoch 'x3' is not a number");
    CASE(at_epoch(&r, "3")->epoch = NULL, TOKENRING_E_PARSE, "epoch is null");
    CASE(at_epoch(&r, "3")->kind = NULL, TOKENRING_E_PARSE, "kind is null");
    CASE(at_epoch(&r, "3")->transformation = NULL, TOKENRING_E_PARSE, "transformation is null");
    CASE(at_epoch(&r, "3")->epoch = "4", TOKENRING_E_EXISTS, "epoch 4 is in two rows");
    CASE(at_epoch(&r, "3")->epoch = "99", TOKENRING_E_UNSUPPORTED, "log: epoch 3 is missing");
    CASE(at_epoch(&r, "34")->epoch = "99", TOKENRING_E_UNSUPPORTED, "epochs 34 to 98 are missing");
    CASE(at_epoch(&r, "1")->epoch = "0"; at_epoch(&r, "2")->kind = "REGISTER",
         TOKENRING_E_UNSUPPORTED, "");
    CASE(at_epoch(&r, "1")->kind = "REGISTER", TOKENRING_E_UNSUPPORTED,
         "epoch 1 (REGISTER): the log does not start at the cluster's first entry");
    CASE(at_epoch(&r, "2")->transformation = "Initialize{baseState = Epoch{epoch=-9223372036854775807}}",
         TOKENRING_E_UNSUPPORTED, "upgraded from gossip");
    CASE(at_epoch(&r, "24")->kind = "NEW_KIND", TOKENRING_E_UNSUPPORTED,
         "epoch 24 (NEW_KIND): a kind of entry this release does not know");
    CASE(at_epoch(&r, "24")->kind = "FORCE_SNAPSHOT", TOKENRING_E_UNSUPPORTED,
         "not modelled: a forced metadata snapshot");
    CASE(at_epoch(&r, "24")->kind = "ASSASSINATE", TOKENRING_E_UNSUPPORTED, "assassinated");
    CASE(at_epoch(&r, "24")->kind = "CANCEL_SEQUENCE", TOKENRING_E_UNSUPPORTED, "cancelled");
    CASE(at_epoch(&r, "24")->kind = "ALTER_TOPOLOGY", TOKENRING_E_UNSUPPORTED, "rack changed");
    CASE(at_epoch(&r, "24")->kind = "CUSTOM", TOKENRING_E_UNSUPPORTED, "custom");
    CASE(at_epoch(&r, "20")->kind = "MID_JOIN", TOKENRING_E_UNSUPPORTED,
         "epoch 26 (PREPARE_JOIN): starts while the JOIN of epoch 17 is in progress");
    CASE(at_epoch(&r, "34")->kind = "MID_LEAVE", TOKENRING_E_UNSUPPORTED,
         "epoch 31 (PREPARE_LEAVE): still in progress (no FINISH_LEAVE");
    CASE(at_epoch(&r, "18")->kind = "START_LEAVE", TOKENRING_E_UNSUPPORTED,
         "epoch 18 (START_LEAVE): no PREPARE_LEAVE in progress");
    CASE(at_epoch(&r, "17")->transformation = "PrepareJoin{nodeId=NodeId{id=4}, tokens=[1], "
                                              "joinTokenRing=false, streamData=true}",
         TOKENRING_E_UNSUPPORTED, "write survey");
    CASE(at_epoch(&r, "17")->transformation = "PrepareJoin{nodeId=4, tokens=[1]}",
         TOKENRING_E_PARSE, "epoch 17 (PREPARE_JOIN): no 'nodeId=NodeId{id=N}'");
    CASE(at_epoch(&r, "17")->transformation = "PrepareJoin{nodeId=NodeId{id=4}, tokens=[1, x]}",
         TOKENRING_E_PARSE, "no list of Murmur3 tokens");
    CASE(at_epoch(&r, "17")->transformation = "PrepareJoin{nodeId=NodeId{id=4}, tokens=[]}",
         TOKENRING_E_PARSE, "no list of Murmur3 tokens");
    CASE(at_epoch(&r, "17")->transformation = "PrepareJoin{nodeId=NodeId{id=4}, tokens=[1",
         TOKENRING_E_PARSE, "no list of Murmur3 tokens");
    CASE(at_epoch(&r, "17")->transformation = "PrepareJoin{nodeId=NodeId{id=4}}",
         TOKENRING_E_PARSE, "no list of Murmur3 tokens");
    CASE(at_epoch(&r, "17")->transformation = "PrepareJoin{nodeId=NodeId{id=4x}, tokens=[1]}",
         TOKENRING_E_PARSE, "no 'nodeId=NodeId{id=N}'");
    CASE(at_epoch(&r, "17")->transformation = "PrepareJoin{nodeId=NodeId{id=4",
         TOKENRING_E_PARSE, "no 'nodeId=NodeId{id=N}'");
    CASE(at_epoch(&r, "17")->transformation =
             "PrepareJoin{nodeId=NodeId{id=4}, tokens=[-9000000000000000000]}",
         TOKENRING_E_EXISTS, "cluster_metadata_log epoch 17: token -9000000000000000000 is "
                             "already in the ring");
    CASE(at_epoch(&r, "10")->transformation = "CreateKeyspaceStatement (ks_a)",
         TOKENRING_E_PARSE, "epoch 10 (SCHEMA_CHANGE): not 'AlterSchema{");
    CASE(at_epoch(&r, "10")->transformation = "AlterSchema{schemaTransformation="
                                              "CreateKeyspaceStatement ()}",
         TOKENRING_E_PARSE, "not 'AlterSchema{");
    CASE(at_epoch(&r, "10")->transformation = "AlterSchema{schemaTransformation="
                                              "CreateKeyspaceStatement (ks_zz)}",
         TOKENRING_E_NOTFOUND, "epoch 10 (SCHEMA_CHANGE): keyspace ks_zz exists but the "
                               "keyspaces given do not have it");
    CASE(at_epoch(&r, "12")->transformation = "AlterSchema{schemaTransformation="
                                              "CreateTableStatement (ks_b.t)}",
         TOKENRING_E_NOTFOUND, "keyspace ks_b is in the schema, but no cluster_metadata_log "
                               "entry creates it");
    tokenring_router_free(ks);
    /* a keyspace only the router has (created by an entry the log lost) */
    ks = make_router(true);
    CASE((void)0, TOKENRING_E_NOTFOUND, "keyspace ks_e is in the schema");
    tokenring_router_free(ks);
#undef CASE
    /* NULL arguments */
    base(&r);
    tokenring_history *h = NULL;
    tokenring_error err;
    tokenring_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.estimate = 7;
    assert_int_equal(tokenring_history_from_metadata(NULL, r.log, r.nlog, r.dir, r.ndir, NULL,
                                                     &lim, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(lim.estimate, 0);
    assert_int_equal(tokenring_history_from_metadata(&h, NULL, 1, r.dir, r.ndir, NULL, NULL,
                                                     &err),
                     TOKENRING_E_INVAL);
    assert_non_null(strstr(err.message, "log is NULL"));
    assert_int_equal(tokenring_history_from_metadata(&h, r.log, r.nlog, NULL, 1, NULL, NULL,
                                                     &err),
                     TOKENRING_E_INVAL);
    assert_non_null(strstr(err.message, "directory is NULL"));
    /* no rows: an empty history (no ring) */
    assert_int_equal(tokenring_history_from_metadata(&h, NULL, 0, NULL, 0, NULL, NULL, &err),
                     TOKENRING_OK);
    assert_null(tokenring_history_ring(h));
    tokenring_router *ks2 = make_router(false), *out = (tokenring_router *)(uintptr_t)1;
    assert_int_equal(tokenring_router_with_history(&out, ks2, h, &err), TOKENRING_E_EMPTY);
    assert_ptr_equal(out, (tokenring_router *)(uintptr_t)1);
    tokenring_history_free(h);
    tokenring_router_free(ks2);
}

static int cancel_at(void *user, uint64_t done, uint64_t total)
{
    int *calls = user;
    (*calls)++;
    assert_true(done <= total);
    return *calls == 2; /* stop at the second report (the end) */
}

/* The budget: the estimate is refused above it, before any work. */
static void test_budget(void **state)
{
    (void)state;
    rows r;
    base(&r);
    tokenring_router *ks = make_router(false);
    tokenring_history *h = NULL;
    tokenring_error err;
    tokenring_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.budget = 1000;
    assert_int_equal(tokenring_history_from_metadata(&h, r.log, r.nlog, r.dir, r.ndir, ks, &lim,
                                                     &err),
                     TOKENRING_E_BUDGET);
    assert_null(h);
    assert_true(lim.estimate > 1000);
    assert_non_null(strstr(err.message, "raise tokenring_limits.budget"));
    lim.budget = lim.estimate;
    assert_int_equal(tokenring_history_from_metadata(&h, r.log, r.nlog, r.dir, r.ndir, ks, &lim,
                                                     &err),
                     TOKENRING_OK);
    tokenring_history_free(h);
    /* progress: reported at the start and the end; a cancel at the end frees the work */
    int calls = 0;
    lim.progress = cancel_at;
    lim.user = &calls;
    h = NULL;
    assert_int_equal(tokenring_history_from_metadata(&h, r.log, r.nlog, r.dir, r.ndir, ks, &lim,
                                                     &err),
                     TOKENRING_E_CANCELLED);
    assert_int_equal(calls, 2);
    assert_null(h);
    tokenring_router_free(ks);
}

/* A router whose ring is not the history's is refused, naming the difference, and
 * nothing is built. */
static void test_router_ring_differs(void **state)
{
    (void)state;
    rows r;
    base(&r);
    tokenring_router *ks = make_router(false);
    tokenring_history *h = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_history_from_metadata(&h, r.log, r.nlog, r.dir, r.ndir, ks, NULL,
                                                     &err),
                     TOKENRING_OK);
    tokenring_router *out = (tokenring_router *)(uintptr_t)1;
    /* the router saw node 4 leave (the log is older than the peers rows) */
    tokenring_router_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = TOKENRING_ROUTER_EVENT_LEFT;
    ev.node = "127.0.0.4";
    tokenring_router *left = NULL;
    assert_int_equal(tokenring_router_apply(&left, ks, &ev, &err), TOKENRING_OK);
    assert_int_equal(tokenring_router_with_history(&out, left, h, &err), TOKENRING_E_INVAL);
    assert_non_null(strstr(err.message, "token -1500000000000000000 is in the history's only"));
    assert_ptr_equal(out, (tokenring_router *)(uintptr_t)1);
    /* a node joined the router, not the history */
    static const char *const t6[] = { "100" };
    ev.kind = TOKENRING_ROUTER_EVENT_JOINED;
    ev.node = "127.0.0.6";
    ev.datacenter = "dc1";
    ev.rack = "r1";
    ev.tokens = t6;
    ev.token_count = 1;
    tokenring_router *joined = NULL;
    assert_int_equal(tokenring_router_apply(&joined, ks, &ev, &err), TOKENRING_OK);
    assert_int_equal(tokenring_router_with_history(&out, joined, h, &err), TOKENRING_E_INVAL);
    assert_non_null(strstr(err.message, "token 100 is in the router's only"));
    tokenring_router_free(joined);
    /* another rack */
    tokenring_router_builder *b = NULL;
    assert_int_equal(tokenring_router_builder_new(&b, NULL, NULL), 0);
    assert_int_equal(tokenring_router_builder_add_local(b, "127.0.0.1", "dc1", "r9", NULL, NULL,
                                                        T1, 3, NULL), 0);
    assert_int_equal(tokenring_router_builder_add_peer(b, "127.0.0.2", "dc1", "r2", NULL, T2, 3,
                                                       NULL), 0);
    assert_int_equal(tokenring_router_builder_add_peer(b, "127.0.0.3", "dc2", "r1", NULL, T3, 2,
                                                       NULL), 0);
    assert_int_equal(tokenring_router_builder_add_peer(b, "127.0.0.4", "dc1", "r1", NULL, T4, 3,
                                                       NULL), 0);
    tokenring_router *rack = NULL;
    assert_int_equal(tokenring_router_build(&rack, b, NULL), 0);
    assert_int_equal(tokenring_router_with_history(&out, rack, h, &err), TOKENRING_E_INVAL);
    assert_non_null(strstr(err.message, "node 127.0.0.1 is in dc1/r9 in the router, dc1/r1 in "
                                        "the history"));
    tokenring_router_free(rack);
    /* a token owned by another node */
    tokenring_router_builder_free(b);
    b = NULL;
    assert_int_equal(tokenring_router_builder_new(&b, NULL, NULL), 0);
    assert_int_equal(tokenring_router_builder_add_local(b, "127.0.0.1", "dc1", "r1", NULL, NULL,
                                                        T2, 3, NULL), 0);
    assert_int_equal(tokenring_router_builder_add_peer(b, "127.0.0.2", "dc1", "r2", NULL, T1, 3,
                                                       NULL), 0);
    assert_int_equal(tokenring_router_builder_add_peer(b, "127.0.0.3", "dc2", "r1", NULL, T3, 2,
                                                       NULL), 0);
    assert_int_equal(tokenring_router_builder_add_peer(b, "127.0.0.4", "dc1", "r1", NULL, T4, 3,
                                                       NULL), 0);
    tokenring_router *swapped = NULL;
    assert_int_equal(tokenring_router_build(&swapped, b, NULL), 0);
    assert_int_equal(tokenring_router_with_history(&out, swapped, h, &err), TOKENRING_E_INVAL);
    assert_non_null(strstr(err.message, "token -9000000000000000000 is 127.0.0.2's in the "
                                        "router, 127.0.0.1's in the history"));
    tokenring_router_free(swapped);
    tokenring_router_builder_free(b);
    /* NULL arguments */
    assert_int_equal(tokenring_router_with_history(NULL, ks, h, &err), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_router_with_history(&out, NULL, h, &err), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_router_with_history(&out, ks, NULL, &err), TOKENRING_E_INVAL);
    assert_non_null(strstr(err.message, "history is NULL"));
    tokenring_router_free(left);
    tokenring_router_free(ks);
    tokenring_history_free(h);
}

/* Nodes on another storage port are named ADDRESS:PORT in the history, and matched with
 * the router's ADDRESS. */
static void test_ports(void **state)
{
    (void)state;
    rows r;
    base(&r);
    for (size_t i = 0; i < r.ndir; i++)
        r.dir[i].broadcast_port = "7001";
    tokenring_router *ks = make_router(false);
    tokenring_history *h = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_history_from_metadata(&h, r.log, r.nlog, r.dir, r.ndir, ks, NULL,
                                                     &err),
                     TOKENRING_OK);
    tokenring_node_info info;
    assert_int_equal(tokenring_ring_node_brief(&info, tokenring_history_ring(h), 0), 0);
    assert_non_null(strstr(info.name, ":7001"));
    tokenring_router *out = NULL;
    assert_int_equal(tokenring_router_with_history(&out, ks, h, &err), TOKENRING_OK);
    assert_int_equal(tokenring_router_node_count(out), 4);
    tokenring_router_free(out);
    tokenring_router_free(ks);
    tokenring_history_free(h);
}

/* The history text's keyspace steps: a replication no keyspace has any more is dropped
 * (after drop_keyspace, or a keyspace step that alters it away) and placed afresh when a
 * keyspace takes it again; while one has it, a new keyspace shares its history. */
static const char NODES[] =
    "register 127.0.0.1 dc1 r1\nregister 127.0.0.2 dc1 r2\nregister 127.0.0.3 dc2 r1\n"
    "register 127.0.0.4 dc1 r1\n"
    "unsafe_join 127.0.0.1 -9000000000000000000,-3000000000000000000,3000000000000000000\n"
    "unsafe_join 127.0.0.2 -6000000000000000000,0,6000000000000000000\n"
    "unsafe_join 127.0.0.3 -7500000000000000000,1500000000000000000\n";
static const char JOIN4[] =
    "join 127.0.0.4 -1500000000000000000,4500000000000000000,8000000000000000000\n";

static tokenring_placement *text_placement(const char *a, const char *b, const char *c,
                                           const char *spec)
{
    char text[2048];
    snprintf(text, sizeof text, "%s%s%s%s", NODES, a, b, c);
    tokenring_history *h = NULL;
    tokenring_error err;
    if (tokenring_history_replay(&h, text, strlen(text), &err) != TOKENRING_OK)
        fail_msg("%s", err.message);
    tokenring_replication *rep = NULL;
    assert_int_equal(tokenring_replication_parse(&rep, spec, strlen(spec), NULL), 0);
    tokenring_placement *p = NULL;
    assert_int_equal(tokenring_history_placement(&p, h, rep, NULL), TOKENRING_OK);
    tokenring_replication_free(rep);
    tokenring_history_free(h);
    return p;
}

static bool same_lists(const tokenring_placement *a, const tokenring_placement *b)
{
    size_t n = 0;
    tokenring_ring_tokens(tokenring_placement_ring(a), &n);
    for (size_t i = 0; i < n; i++) {
        tokenring_replicas x, y;
        tokenring_placement_range_replicas(&x, a, i);
        tokenring_placement_range_replicas(&y, b, i);
        if (x.count != y.count || memcmp(x.nodes, y.nodes, x.count * sizeof *x.nodes) != 0)
            return false;
    }
    return true;
}

static void test_keyspace_steps(void **state)
{
    (void)state;
    const char *R = "dc1=2,dc2=1";
    /* fresh: the keyspace created after the join */
    tokenring_placement *fresh = text_placement(JOIN4, "keyspace k2 dc1=2,dc2=1\n", "", R);
    /* kept: created before the join, through which it went */
    tokenring_placement *kept = text_placement("keyspace k1 dc1=2,dc2=1\n", JOIN4,
                                               "keyspace k2 dc1=2,dc2=1\n", R);
    assert_false(same_lists(fresh, kept)); /* the join changed the order */
    tokenring_placement *dropped = text_placement("keyspace k1 dc1=2,dc2=1\n", JOIN4,
                                                  "drop_keyspace k1\nkeyspace k2 "
                                                  "dc1=2,dc2=1\n", R);
    assert_true(same_lists(fresh, dropped));
    tokenring_placement *altered = text_placement("keyspace k1 dc1=2,dc2=1\n", JOIN4,
                                                  "keyspace k1 3\nkeyspace k2 dc1=2,dc2=1\n", R);
    assert_true(same_lists(fresh, altered));
    /* altered to the replication it has: nothing changes */
    tokenring_placement *same = text_placement("keyspace k1 dc1=2,dc2=1\n", JOIN4,
                                               "keyspace k1 dc1=2,dc2=1\n", R);
    assert_true(same_lists(kept, same));
    /* another keyspace keeps it: the drop of one leaves the placement */
    tokenring_placement *shared = text_placement("keyspace k1 dc1=2,dc2=1\nkeyspace k3 "
                                                 "dc1=2,dc2=1\n", JOIN4,
                                                 "drop_keyspace k1\n", R);
    assert_true(same_lists(kept, shared));
    /* the system keyspaces are keyspaces: system_distributed altered away from 3 */
    tokenring_placement *s3 = text_placement("", JOIN4, "", "3");
    tokenring_placement *s3f = text_placement(JOIN4, "keyspace system_distributed 1\n",
                                              "keyspace k 3\n", "3");
    tokenring_placement *s3n = text_placement("", "", JOIN4, "3");
    assert_true(same_lists(s3, s3n));
    tokenring_placement *s3x = text_placement(JOIN4, "keyspace system_distributed 1\n", "",
                                              "3"); /* no keyspace has it: as created now */
    assert_true(same_lists(s3f, s3x));
    assert_false(same_lists(s3, s3f)); /* the join changed system_distributed's order */
    tokenring_placement_free(s3x);
    tokenring_placement_free(s3);
    tokenring_placement_free(s3f);
    tokenring_placement_free(s3n);
    tokenring_placement_free(fresh);
    tokenring_placement_free(kept);
    tokenring_placement_free(dropped);
    tokenring_placement_free(altered);
    tokenring_placement_free(same);
    tokenring_placement_free(shared);
    /* drop_keyspace of a keyspace that does not exist */
    char text[1024];
    snprintf(text, sizeof text, "%sdrop_keyspace nope\n", NODES);
    tokenring_history *h = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_history_replay(&h, text, strlen(text), &err), TOKENRING_E_NOTFOUND);
    assert_int_equal(err.line, 8);
    assert_non_null(strstr(err.message, "keyspace nope does not exist"));
    snprintf(text, sizeof text, "%sdrop_keyspace a b\n", NODES);
    assert_int_equal(tokenring_history_replay(&h, text, strlen(text), &err), TOKENRING_E_PARSE);
    assert_non_null(strstr(err.message, "want: drop_keyspace NAME"));
}

/* The replication keyspace `name` has at script position `upto`: its last keyspace step
 * before it (the system keyspaces': 6.0's until a step alters them). */
static tokenring_replication *repl_at(const char *script, const char *upto, const char *name)
{
    char want[160], spec[256] = "";
    snprintf(want, sizeof want, "\nkeyspace %s ", name);
    strcpy(spec, strcmp(name, "system_auth") == 0       ? "1"
                 : strcmp(name, "system_traces") == 0   ? "2"
                 : strcmp(name, "system_distributed") == 0 ? "3"
                                                          : "");
    /* (the newline before a step is the end of the previous one: at + 1 is the step) */
    for (const char *at = strstr(script, want); at && at + 1 < upto; at = strstr(at + 1, want)) {
        const char *v = at + strlen(want);
        size_t n = strcspn(v, "\n");
        assert_true(n < sizeof spec);
        memcpy(spec, v, n);
        spec[n] = 0;
    }
    assert_true(spec[0] != 0);
    tokenring_replication *r = NULL;
    assert_int_equal(tokenring_replication_parse(&r, spec, strlen(spec), NULL), TOKENRING_OK);
    return r;
}

/* tests/data/cassandra6/keyspace_changes: keyspaces created, altered and dropped between
 * joins and leaves, replayed step by step against 6.0-alpha2's own classes (the
 * generator's AlterSchema): every range list of every replication, in order. */
static void test_keyspace_change_vectors(void **state)
{
    (void)state;
    size_t slen, vlen, lists = 0;
    char *script = slurp("cassandra6/keyspace_changes.script", &slen);
    char *vec = slurp("cassandra6/keyspace_changes.placements", &vlen);
    tokenring_history *h = NULL;
    const char *pos = script;
    for (char *save = NULL, *line = strtok_r(vec, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "step ", 5) == 0) {
            const char *text = strchr(line + 5, ' ') + 1;
            char want[4096];
            snprintf(want, sizeof want, "\n%s\n", text);
            const char *at = strstr(pos - 1 > script ? pos - 1 : script, want);
            assert_non_null(at);
            pos = at + strlen(want);
            tokenring_history_free(h);
            tokenring_error err;
            if (tokenring_history_replay(&h, script, (size_t)(pos - script), &err) != 0)
                fail_msg("%s: %s", text, err.message);
            continue;
        }
        if (strncmp(line, "place ", 6) != 0)
            continue;
        char *sv = NULL;
        strtok_r(line, " ", &sv);
        char *kss = strtok_r(NULL, " ", &sv);
        strtok_r(NULL, " ", &sv);
        long long end = strtoll(strtok_r(NULL, " ", &sv), NULL, 10);
        char *eps = strtok_r(NULL, " ", &sv);
        char first[128];
        snprintf(first, sizeof first, "%.*s", (int)strcspn(kss, ","), kss);
        tokenring_replication *r = repl_at(script, pos, first);
        tokenring_placement *p = NULL;
        assert_int_equal(tokenring_history_placement(&p, h, r, NULL), TOKENRING_OK);
        const tokenring_ring *ring = tokenring_history_ring(h);
        size_t nt = 0;
        const int64_t *toks = tokenring_ring_tokens(ring, &nt);
        tokenring_replicas rr;
        if (end == INT64_MIN)
            assert_int_equal(tokenring_placement_replicas(&rr, p, toks[nt - 1] + 1), 0);
        else
            assert_int_equal(tokenring_placement_range_replicas(&rr, p,
                                                                tokenring_ring_search(ring, end)),
                             0);
        char got[512] = "";
        size_t len = 0;
        for (uint32_t k = 0; k < rr.count; k++) {
            tokenring_node_info info;
            tokenring_ring_node_brief(&info, ring, rr.nodes[k]);
            len += (size_t)snprintf(got + len, sizeof got - len, "%s%s", k ? "," : "",
                                    info.name);
        }
        if (strcmp(got, eps ? eps : "") != 0)
            fail_msg("%s (.., %lld]: library %s, Cassandra %s", kss, end, got, eps);
        lists++;
        tokenring_placement_free(p);
        tokenring_replication_free(r);
    }
    assert_true(lists > 2000);
    printf("keyspace_changes: %zu range lists equal Cassandra 6.0-alpha2's, in order\n", lists);
    tokenring_history_free(h);
    free(script);
    free(vec);
}

/* Under every allocation failure in turn: each call gives TOKENRING_E_NOMEM, makes nothing
 * and leaks nothing. */
static rows OOM_ROWS;

static int op_from_metadata(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    tokenring_history *h = NULL;
    tokenring_error err;
    int rc = tokenring_history_from_metadata(&h, OOM_ROWS.log, OOM_ROWS.nlog, OOM_ROWS.dir,
                                             OOM_ROWS.ndir, ctx->extra, NULL, &err);
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    *made = h;
    tokenring_history_free(h);
    return rc;
}

static int op_with_history(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    tokenring_router *out = NULL;
    int rc = tokenring_router_with_history(&out, ctx->extra, (tokenring_history *)ctx->placement,
                                           NULL);
    *made = out;
    tokenring_router_free(out);
    return rc;
}

static void test_out_of_memory(void **state)
{
    (void)state;
    base(&OOM_ROWS);
    tokenring_router *ks = make_router(false);
    oom_ctx ctx = { .extra = ks };
    oom_check("history_from_metadata", &ctx, op_from_metadata, NULL);
    tokenring_history *h = NULL;
    assert_int_equal(tokenring_history_from_metadata(&h, OOM_ROWS.log, OOM_ROWS.nlog,
                                                     OOM_ROWS.dir, OOM_ROWS.ndir, ks, NULL,
                                                     NULL),
                     TOKENRING_OK);
    ctx.placement = (tokenring_placement *)h; /* (the history, through the context) */
    oom_check("router_with_history", &ctx, op_with_history, NULL);
    tokenring_history_free(h);
    tokenring_router_free(ks);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_replay_as_the_text),
        cmocka_unit_test(test_without_keyspaces),
        cmocka_unit_test(test_bad_rows),
        cmocka_unit_test(test_budget),
        cmocka_unit_test(test_router_ring_differs),
        cmocka_unit_test(test_ports),
        cmocka_unit_test(test_keyspace_steps),
        cmocka_unit_test(test_keyspace_change_vectors),
        cmocka_unit_test_setup_teardown(test_out_of_memory, oom_setup, oom_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
