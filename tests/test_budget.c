/* SPDX-License-Identifier: Apache-2.0 */
/* TOKENRING_1.2: budgets of the long calls (tokenring_limits, TOKENRING_E_BUDGET), the
 * num_tokens cap of the allocators and migration plans, the cluster size cap of the
 * layouts, and availability from the nodes already down. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tokenring/tokenring.h"

/* A, B, C, D with one token each in one rack; A is down (DN). */
static tokenring_ring *four_nodes_one_down(void)
{
    tokenring_topology *t;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    const char *names[] = { "A", "B", "C", "D" };
    int64_t toks[] = { -6000000000000000000LL, -1000000000000000000LL, 3000000000000000000LL,
                       7000000000000000000LL };
    for (int i = 0; i < 4; i++)
        assert_int_equal(tokenring_topology_add_node(t, names[i], "dc1", "r1", &toks[i], 1,
                                                     NULL),
                         TOKENRING_OK);
    assert_int_equal(tokenring_topology_set_state(t, "A", TOKENRING_STATE_NORMAL,
                                                  TOKENRING_DOWN, NULL),
                     TOKENRING_OK);
    tokenring_ring *ring;
    assert_int_equal(tokenring_ring_build(&ring, t, NULL), TOKENRING_OK);
    tokenring_topology_free(t);
    return ring;
}

static tokenring_ring *seeded_ring(size_t nodes, uint32_t tokens, tokenring_topology **topo_out)
{
    tokenring_topology *t;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    char **names = calloc(nodes, sizeof *names);
    for (size_t i = 0; i < nodes; i++) {
        names[i] = malloc(24);
        snprintf(names[i], 24, "10.0.%zu.%zu", i / 250, i % 250 + 1);
    }
    assert_int_equal(tokenring_layout_add_seeded_nodes(t, 1, tokens, (const char *const *)names,
                                                       NULL, NULL, nodes, 0, NULL),
                     TOKENRING_OK);
    for (size_t i = 0; i < nodes; i++)
        free(names[i]);
    free(names);
    tokenring_ring *ring;
    assert_int_equal(tokenring_ring_build(&ring, t, NULL), TOKENRING_OK);
    if (topo_out)
        *topo_out = t;
    else
        tokenring_topology_free(t);
    return ring;
}

/* Issue: one DN node, rf 3 at QUORUM: a second failure on a node sharing ranges with it
 * breaks them, which the summary reported as 0 breaking sets before. */
static void down_node_counts_as_failed(void **state)
{
    (void)state;
    tokenring_ring *ring = four_nodes_one_down();
    tokenring_replication *rep;
    assert_int_equal(tokenring_replication_simple(&rep, 3, 0, NULL), TOKENRING_OK);
    uint32_t down[] = { 0 };
    tokenring_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.failed_nodes = down;
    lim.failed_count = 1;
    tokenring_availability_summary *s = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_availability_summary_build_limited(
                         &s, ring, rep, TOKENRING_CL_QUORUM, NULL, TOKENRING_FAIL_NODES, 1, 3,
                         &lim, &err),
                     TOKENRING_OK);
    assert_true(lim.estimate > 0);
    tokenring_u128 b, tot, w;
    assert_int_equal(tokenring_availability_summary_counts(&b, &tot, &w, s), TOKENRING_OK);
    assert_int_equal(tot.lo, 3); /* B, C, D: A is no unit */
    assert_int_equal(b.lo, 3);   /* each shares ranges with A */
    assert_true(w.lo != 0 || w.hi != 0);
    assert_int_equal(tokenring_availability_summary_top_count(s), 3);
    uint32_t units[1];
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(tokenring_availability_summary_top(units, NULL, NULL, s, i),
                         TOKENRING_OK);
        assert_true(units[0] >= 1 && units[0] <= 3); /* ring indices of B, C, D */
    }
    tokenring_u128 dw;
    double df = -1;
    assert_int_equal(tokenring_availability_summary_down(&dw, &df, s), TOKENRING_OK);
    assert_int_equal(dw.lo, 0); /* QUORUM survives one failure */
    assert_true(df == 0);
    assert_int_equal(tokenring_availability_summary_down(NULL, NULL, NULL), TOKENRING_E_INVAL);
    tokenring_availability_summary_free(s);

    /* without the down node, no single failure breaks QUORUM */
    s = NULL;
    assert_int_equal(tokenring_availability_summary_build_limited(
                         &s, ring, rep, TOKENRING_CL_QUORUM, NULL, TOKENRING_FAIL_NODES, 1, 0,
                         NULL, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_availability_summary_counts(&b, &tot, NULL, s), TOKENRING_OK);
    assert_int_equal(b.lo, 0);
    assert_int_equal(tot.lo, 4);
    tokenring_availability_summary_free(s);

    /* ALL is unavailable already wherever A is a replica (3 of the 4 ranges) */
    s = NULL;
    assert_int_equal(tokenring_availability_summary_build_limited(
                         &s, ring, rep, TOKENRING_CL_ALL, NULL, TOKENRING_FAIL_NODES, 1, 1,
                         &lim, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_availability_summary_down(&dw, &df, s), TOKENRING_OK);
    assert_true(df > 0.5 && df < 1);
    /* one more failure adds the range without A: every remaining node is its replica */
    assert_int_equal(tokenring_availability_summary_counts(&b, &tot, &w, s), TOKENRING_OK);
    assert_int_equal(b.lo, 3);
    tokenring_availability_summary_free(s);

    /* racks: the rack of A fails its other nodes */
    s = NULL;
    assert_int_equal(tokenring_availability_summary_build_limited(
                         &s, ring, rep, TOKENRING_CL_QUORUM, NULL, TOKENRING_FAIL_RACKS, 1, 1,
                         &lim, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_availability_summary_counts(&b, &tot, NULL, s), TOKENRING_OK);
    assert_int_equal(b.lo, 1);
    assert_int_equal(tot.lo, 1);
    tokenring_availability_summary_free(s);

    /* bad failed-node lists leave *out alone */
    tokenring_availability_summary *keep = (tokenring_availability_summary *)&lim;
    s = keep;
    lim.failed_nodes = NULL;
    assert_int_equal(tokenring_availability_summary_build_limited(
                         &s, ring, rep, TOKENRING_CL_QUORUM, NULL, 0, 1, 0, &lim, &err),
                     TOKENRING_E_INVAL);
    uint32_t bad[] = { 7 };
    lim.failed_nodes = bad;
    assert_int_equal(tokenring_availability_summary_build_limited(
                         &s, ring, rep, TOKENRING_CL_QUORUM, NULL, 0, 1, 0, &lim, &err),
                     TOKENRING_E_RANGE);
    assert_non_null(strstr(err.message, "failed node index 7"));
    uint32_t twice[] = { 1, 1 };
    lim.failed_nodes = twice;
    lim.failed_count = 2;
    assert_int_equal(tokenring_availability_summary_build_limited(
                         &s, ring, rep, TOKENRING_CL_QUORUM, NULL, 0, 1, 0, &lim, &err),
                     TOKENRING_E_INVAL);
    assert_non_null(strstr(err.message, "twice"));
    lim.failed_count = 5;
    assert_int_equal(tokenring_availability_summary_build_limited(
                         &s, ring, rep, TOKENRING_CL_QUORUM, NULL, 0, 1, 0, &lim, &err),
                     TOKENRING_E_RANGE);
    uint32_t three[] = { 0, 1, 2 };
    lim.failed_nodes = three;
    lim.failed_count = 3;
    assert_int_equal(tokenring_availability_summary_build_limited(
                         &s, ring, rep, TOKENRING_CL_ONE, NULL, 0, 2, 0, &lim, &err),
                     TOKENRING_E_RANGE); /* one node is up: k = 2 is too many */
    assert_non_null(strstr(err.message, "not down already"));
    assert_ptr_equal(s, keep);
    tokenring_replication_free(rep);
    tokenring_ring_free(ring);
}

static unsigned progress_calls;
static int count_progress(void *user, uint64_t done, uint64_t total)
{
    (void)user;
    (void)done;
    (void)total;
    progress_calls++;
    return 0;
}

/* A budget below the estimate refuses before any work, with the estimate in the message
 * and in the limits; a larger one, or none, runs. */
static void availability_budget(void **state)
{
    (void)state;
    tokenring_ring *ring = seeded_ring(300, 16, NULL);
    tokenring_replication *rep;
    assert_int_equal(tokenring_replication_simple(&rep, 3, 0, NULL), TOKENRING_OK);
    tokenring_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.budget = 1000;
    tokenring_availability_summary *s = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_availability_summary_build_limited(
                         &s, ring, rep, TOKENRING_CL_QUORUM, NULL, TOKENRING_FAIL_NODES, 2, 5,
                         &lim, &err),
                     TOKENRING_E_BUDGET);
    assert_null(s);
    assert_int_equal(err.code, TOKENRING_E_BUDGET);
    assert_true(lim.estimate > 1000);
    char want[64];
    snprintf(want, sizeof want, "estimated %llu work units", (unsigned long long)lim.estimate);
    assert_non_null(strstr(err.message, want));
    assert_non_null(strstr(err.message, "tokenring_limits.budget"));
    assert_non_null(strstr(err.message, " s)"));
    uint64_t est = lim.estimate;
    lim.budget = est; /* exactly the estimate is within it */
    lim.progress = count_progress;
    progress_calls = 0;
    assert_int_equal(tokenring_availability_summary_build_limited(
                         &s, ring, rep, TOKENRING_CL_QUORUM, NULL, TOKENRING_FAIL_NODES, 2, 5,
                         &lim, &err),
                     TOKENRING_OK);
    assert_true(progress_calls > 0);
    assert_int_equal(lim.estimate, est);
    tokenring_availability_summary_free(s);
    /* k = 20 of 300 nodes: beyond any budget but unlimited, and the message says so */
    s = NULL;
    memset(&lim, 0, sizeof lim);
    assert_int_equal(tokenring_availability_summary_build_limited(
                         &s, ring, rep, TOKENRING_CL_ONE, NULL, TOKENRING_FAIL_NODES, 20, 5, &lim,
                         &err),
                     TOKENRING_E_BUDGET);
    assert_int_equal(lim.estimate, UINT64_MAX);
    assert_non_null(strstr(err.message, "more than 1.8e19"));
    /* the calls without limits apply the default budget */
    assert_int_equal(tokenring_availability_summary_build(&s, ring, rep, TOKENRING_CL_ONE, NULL,
                                                          TOKENRING_FAIL_NODES, 20, 5, NULL,
                                                          NULL, &err),
                     TOKENRING_E_BUDGET);
    /* racks: 300 single-node racks, 4 failed racks (the 27 s) is refused */
    tokenring_availability *a = NULL;
    int rc = tokenring_availability_build(&a, ring, rep, TOKENRING_CL_QUORUM, NULL, 3, &err);
    if (rc != TOKENRING_E_BUDGET)
        fail_msg("%d %s", rc, err.message);
    assert_null(a);
    assert_non_null(strstr(err.message, "availability analysis"));
    assert_int_equal(tokenring_availability_build(&a, ring, rep, TOKENRING_CL_QUORUM, NULL, 2,
                                                  &err),
                     TOKENRING_OK);
    tokenring_availability_free(a);
    tokenring_replication_free(rep);
    tokenring_ring_free(ring);
}

/* The allocators: num_tokens capped at Cassandra's 1536 unless raised; budgets. */
static void allocator_limits(void **state)
{
    (void)state;
    tokenring_topology *t;
    tokenring_ring *ring = seeded_ring(6, 8, &t);
    tokenring_ring_free(ring);
    const char *racks[] = { "rack1" };
    int64_t *out = calloc(8192, sizeof *out);
    tokenring_error err;
    assert_int_equal(tokenring_allocate_nodes(out, 1537, t, "datacenter1", racks, 1, 3, 0, &err),
                     TOKENRING_E_RANGE);
    assert_non_null(strstr(err.message, "A maximum number of 1536 tokens per node"));
    assert_int_equal(tokenring_allocate_tokens(out, 1537, t, "datacenter1", "rack1", 3, 0, &err),
                     TOKENRING_E_RANGE);
    tokenring_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.max_num_tokens = 2048;
    assert_int_equal(tokenring_allocate_nodes_limited(out, 2049, t, "datacenter1", racks, 1, 3,
                                                      0, &lim, &err),
                     TOKENRING_E_RANGE);
    assert_non_null(strstr(err.message, "above 2048"));
    assert_int_equal(tokenring_allocate_join_limited(out, NULL, 1600, t, "10.9.9.9",
                                                     "datacenter1", "rack1", NULL, 3,
                                                     TOKENRING_CASSANDRA_5_0, 0, &lim, &err),
                     TOKENRING_OK);
    assert_true(lim.estimate > 0);
    lim.max_num_tokens = 70000; /* above TOKENRING_LAYOUT_MAX_TOKENS: that one holds */
    assert_int_equal(tokenring_allocate_nodes_limited(out, 65537, t, "datacenter1", racks, 1, 3,
                                                      0, &lim, &err),
                     TOKENRING_E_RANGE);
    assert_int_equal(tokenring_allocate_nodes_limited(out, 0, t, "datacenter1", racks, 1, 3, 0,
                                                      &lim, &err),
                     TOKENRING_E_RANGE);
    /* no node, or a bad factor: the allocator's own errors, not a budget */
    assert_int_equal(tokenring_allocate_nodes_limited(out, 4, t, "datacenter1", racks, 0, 3, 0,
                                                      &lim, &err),
                     TOKENRING_E_RANGE);
    assert_int_equal(tokenring_allocate_nodes_limited(out, 4, t, "datacenter1", racks, 1, 0, 0,
                                                      &lim, &err),
                     TOKENRING_E_RANGE);
    lim.max_num_tokens = 0;
    lim.budget = 10;
    assert_int_equal(tokenring_allocate_nodes_limited(out, 16, t, "datacenter1", racks, 1, 3, 0,
                                                      &lim, &err),
                     TOKENRING_E_BUDGET);
    assert_non_null(strstr(err.message, "token allocation"));
    assert_int_equal(tokenring_allocate_nodes_limited(NULL, 16, t, "datacenter1", racks, 1, 3, 0,
                                                      &lim, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(lim.estimate, 0);
    lim.budget = TOKENRING_BUDGET_UNLIMITED;
    lim.progress = count_progress;
    progress_calls = 0;
    assert_int_equal(tokenring_allocate_nodes_limited(out, 16, t, "datacenter1", racks, 1, 3, 0,
                                                      &lim, &err),
                     TOKENRING_OK);
    assert_true(progress_calls > 0);
    assert_int_equal(tokenring_allocate_nodes_limited(out, 16, t, "datacenter1", racks, 1, 3, 0,
                                                      NULL, &err),
                     TOKENRING_OK);

    /* join: the cubic case (many tokens joining few) is estimated and refused */
    memset(&lim, 0, sizeof lim);
    lim.max_num_tokens = 8192;
    assert_int_equal(tokenring_allocate_join_limited(out, NULL, 8192, t, "10.9.9.9",
                                                     "datacenter1", "rack1", NULL, 3,
                                                     TOKENRING_CASSANDRA_5_0, 0, &lim, &err),
                     TOKENRING_E_BUDGET);
    assert_non_null(strstr(err.message, "join planning"));
    assert_true(lim.estimate > TOKENRING_BUDGET_DEFAULT);
    assert_int_equal(tokenring_allocate_join(out, 1537, t, "10.9.9.9", "datacenter1", "rack1",
                                             NULL, 3, TOKENRING_CASSANDRA_5_0, 0, &err),
                     TOKENRING_E_RANGE);
    assert_int_equal(tokenring_allocate_join_limited(out, NULL, 16, t, "10.9.9.9",
                                                     "datacenter1", "rack1", NULL, 3,
                                                     TOKENRING_CASSANDRA_5_0, 0, NULL, &err),
                     TOKENRING_OK);
    tokenring_token128 t128[16];
    assert_int_equal(tokenring_allocate_join_limited(out, t128, 16, t, "10.9.9.9",
                                                     "datacenter1", "rack1", NULL, 3,
                                                     TOKENRING_CASSANDRA_5_0, 0, NULL, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_allocate_join_limited(NULL, NULL, 16, t, "10.9.9.9",
                                                     "datacenter1", "rack1", NULL, 3,
                                                     TOKENRING_CASSANDRA_5_0, 0, NULL, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_allocate_join_limited(out, NULL, 16, NULL, "10.9.9.9",
                                                     "datacenter1", "rack1", NULL, 3,
                                                     TOKENRING_CASSANDRA_5_0, 0, NULL, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_allocate_join_limited(NULL, t128, 16, t, "10.9.9.9",
                                                     "datacenter1", "rack1", NULL, 3,
                                                     TOKENRING_CASSANDRA_5_0, 0, NULL, &err),
                     TOKENRING_E_UNSUPPORTED);
    const char *nm[3][3] = { { NULL, "datacenter1", "rack1" }, { "10.9.9.9", NULL, "rack1" },
                             { "10.9.9.9", "datacenter1", NULL } };
    for (int i = 0; i < 3; i++) {
        assert_int_equal(tokenring_allocate_join_limited(out, NULL, 16, t, nm[i][0], nm[i][1],
                                                         nm[i][2], NULL, 3,
                                                         TOKENRING_CASSANDRA_5_0, 0, NULL, &err),
                         TOKENRING_E_INVAL);
        const char *const *rk = i == 2 ? NULL : racks;
        assert_int_equal(tokenring_allocate_nodes_limited(out, 16, t, i == 1 ? NULL : "dc1", rk,
                                                          1, 3, 0, NULL, &err),
                         i == 0 ? TOKENRING_OK : TOKENRING_E_INVAL);
    }
    tokenring_topology *t2;
    assert_int_equal(tokenring_topology_new_partitioned(&t2, TOKENRING_PARTITIONER_RANDOM),
                     TOKENRING_OK);
    tokenring_token128 one = { 0, 12345 };
    assert_int_equal(tokenring_topology_add_node128(t2, "10.0.0.1", "dc1", "r1", &one, 1, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_allocate_join_limited(out, NULL, 4, t2, "10.9.9.9", "dc1", "r1",
                                                     NULL, 1, TOKENRING_CASSANDRA_5_0, 0, NULL,
                                                     &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_int_equal(tokenring_allocate_join_limited(NULL, t128, 4, t2, "10.9.9.9", "dc1", "r1",
                                                     NULL, 1, TOKENRING_CASSANDRA_5_0, 0, NULL,
                                                     &err),
                     TOKENRING_OK);
    tokenring_topology_free(t2);
    assert_int_equal(tokenring_topology_new_partitioned(&t2,
                                                        TOKENRING_PARTITIONER_BYTE_ORDERED),
                     TOKENRING_OK);
    assert_int_equal(tokenring_allocate_join_limited(out, NULL, 4, t2, "10.9.9.9", "dc1", "r1",
                                                     NULL, 1, TOKENRING_CASSANDRA_5_0, 0, NULL,
                                                     &err),
                     TOKENRING_E_UNSUPPORTED);
    tokenring_topology_free(t2);

    /* migration plans */
    const char *names[] = { "n1", "n2", "n3" };
    const char *mr[] = { "r1", "r2", "r3" };
    tokenring_migration *m = NULL;
    assert_int_equal(tokenring_migration_plan(&m, t, "datacenter1", "dc2", names, mr, 3, 2000, 3,
                                              NULL, NULL, 0, &err),
                     TOKENRING_E_RANGE);
    memset(&lim, 0, sizeof lim);
    lim.budget = 5;
    assert_int_equal(tokenring_migration_plan_limited(&m, t, "datacenter1", "dc2", names, mr, 3,
                                                      16, 3, NULL, NULL, 0, &lim, &err),
                     TOKENRING_E_BUDGET);
    assert_non_null(strstr(err.message, "migration plan"));
    assert_null(m);
    lim.budget = 0;
    lim.progress = count_progress;
    progress_calls = 0;
    assert_int_equal(tokenring_migration_plan_limited(&m, t, "datacenter1", "dc2", names, mr, 3,
                                                      16, 3, NULL, NULL, 0, &lim, &err),
                     TOKENRING_OK);
    assert_true(progress_calls > 0);
    tokenring_migration_free(m);
    m = NULL;
    assert_int_equal(tokenring_migration_plan_limited(&m, t, "datacenter1", "dc2", names, mr, 3,
                                                      16, 0, NULL, NULL, 0, &lim, &err),
                     TOKENRING_E_RANGE);
    assert_int_equal(tokenring_migration_plan_progress(&m, t, "datacenter1", "dc2", names, mr, 3,
                                                       16, 3, NULL, NULL, 0, NULL, NULL, &err),
                     TOKENRING_OK);
    tokenring_migration_free(m);
    m = NULL;
    assert_int_equal(tokenring_migration_plan_limited(&m, NULL, "datacenter1", "dc2", names, mr,
                                                      3, 16, 3, NULL, NULL, 0, NULL, &err),
                     TOKENRING_E_INVAL);
    free(out);
    tokenring_topology_free(t);
}

/* A layout whose node x token product passes TOKENRING_MAX_CLUSTER_TOKENS is refused at
 * once (the 65536 x 65536, 2^32 tokens). */
static void cluster_size_cap(void **state)
{
    (void)state;
    tokenring_topology *t;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    const char **names = calloc(65536, sizeof *names); /* never read: refused first */
    tokenring_error err;
    assert_int_equal(tokenring_layout_add_seeded_nodes(t, 1, 65536, names, NULL, NULL, 65536, 0,
                                                       &err),
                     TOKENRING_E_RANGE);
    assert_non_null(strstr(err.message, "4294967296 tokens"));
    assert_non_null(strstr(err.message, "TOKENRING_MAX_CLUSTER_TOKENS"));
    assert_int_equal(tokenring_topology_node_count(t), 0);
    free(names);
    tokenring_topology_free(t);
}

/* The set of ring indices of a k-set as a bit mask (rings of at most 64 nodes here). */
static uint64_t mask_of(const uint32_t *ids, uint32_t k)
{
    uint64_t m = 0;
    for (uint32_t i = 0; i < k; i++)
        m |= (uint64_t)1 << ids[i];
    return m;
}

/* tokenring_availability_build_limited() on the list of `k`-sets and the summary (top all)
 * agree on every set and width, with the nodes in `down` already down; no listed set holds
 * a down node. Returns the number of sets. */
static size_t list_agrees_with_summary(const tokenring_ring *ring, const tokenring_replication *rep,
                                       int cl, const char *local, uint32_t k,
                                       const uint32_t *down, size_t ndown)
{
    tokenring_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.failed_nodes = down;
    lim.failed_count = ndown;
    tokenring_availability *a = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_availability_build_limited(&a, ring, rep, cl, local, k, &lim,
                                                          &err),
                     TOKENRING_OK);
    assert_true(lim.estimate > 0);
    tokenring_availability_summary *s = NULL;
    assert_int_equal(tokenring_availability_summary_build_limited(
                         &s, ring, rep, cl, local, TOKENRING_FAIL_NODES, k, 100000, &lim, &err),
                     TOKENRING_OK);
    size_t n = tokenring_availability_count(a);
    tokenring_u128 b;
    assert_int_equal(tokenring_availability_summary_counts(&b, NULL, NULL, s), TOKENRING_OK);
    assert_int_equal(b.hi, 0);
    assert_int_equal(b.lo, n);
    assert_int_equal(tokenring_availability_summary_top_count(s), n);
    uint64_t downmask = mask_of(down, (uint32_t)ndown);
    for (size_t i = 0; i < n; i++) {
        uint32_t ids[TOKENRING_AVAILABILITY_MAX_K];
        tokenring_u128 w;
        assert_int_equal(tokenring_availability_get(ids, &w, NULL, a, i), TOKENRING_OK);
        assert_int_equal(mask_of(ids, k) & downmask, 0);
        size_t j;
        for (j = 0; j < n; j++) {
            uint32_t u[TOKENRING_AVAILABILITY_MAX_K];
            tokenring_u128 sw;
            assert_int_equal(tokenring_availability_summary_top(u, &sw, NULL, s, j), TOKENRING_OK);
            if (mask_of(u, k) == mask_of(ids, k)) {
                assert_int_equal(sw.hi, w.hi);
                assert_int_equal(sw.lo, w.lo);
                break;
            }
        }
        assert_true(j < n); /* the summary has the set too */
    }
    tokenring_availability_summary_free(s);
    tokenring_availability_free(a);
    return n;
}

static int cancel_at_once(void *user, uint64_t done, uint64_t total)
{
    (void)user;
    (void)done;
    (void)total;
    return 1;
}

/* tokenring_availability_build_limited(): the 1.0 list under limits, from the nodes
 * already down (counted as the summary counts them), refused past its budget. */
static void availability_list_limited(void **state)
{
    (void)state;
    tokenring_ring *ring = four_nodes_one_down();
    tokenring_replication *rep;
    assert_int_equal(tokenring_replication_simple(&rep, 3, 0, NULL), TOKENRING_OK);
    uint32_t down[] = { 0 };
    tokenring_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.failed_nodes = down;
    lim.failed_count = 1;
    tokenring_availability *a = NULL;
    tokenring_error err;
    /* QUORUM: B, C or D failing with A breaks a range they share; nothing without A */
    assert_int_equal(tokenring_availability_build_limited(&a, ring, rep, TOKENRING_CL_QUORUM,
                                                          NULL, 1, &lim, &err),
                     TOKENRING_OK);
    assert_true(lim.estimate > 0);
    assert_int_equal(tokenring_availability_count(a), 3);
    for (size_t i = 0; i < 3; i++) {
        uint32_t id;
        assert_int_equal(tokenring_availability_get(&id, NULL, NULL, a, i), TOKENRING_OK);
        assert_int_equal(id, i + 1);
    }
    tokenring_availability_free(a);
    a = NULL;
    assert_int_equal(tokenring_availability_build_limited(&a, ring, rep, TOKENRING_CL_QUORUM,
                                                          NULL, 1, NULL, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_availability_count(a), 0);
    tokenring_availability_free(a);
    /* ALL: the ranges A holds are unavailable already and left out; each of B, C, D adds
     * the range without A, and the three of them together the same range */
    a = NULL;
    assert_int_equal(tokenring_availability_build_limited(&a, ring, rep, TOKENRING_CL_ALL, NULL,
                                                          3, &lim, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_availability_count(a), 1);
    uint32_t ids[3];
    tokenring_u128 w3;
    assert_int_equal(tokenring_availability_get(ids, &w3, NULL, a, 0), TOKENRING_OK);
    assert_int_equal(ids[0], 1);
    assert_int_equal(ids[2], 3);
    tokenring_availability_free(a);
    assert_int_equal(list_agrees_with_summary(ring, rep, TOKENRING_CL_ALL, NULL, 1, down, 1), 3);
    assert_int_equal(list_agrees_with_summary(ring, rep, TOKENRING_CL_QUORUM, NULL, 2, down, 1),
                     3);

    /* bad arguments leave *out alone, and give no estimate */
    tokenring_availability *keep = (tokenring_availability *)&lim;
    a = keep;
    assert_int_equal(tokenring_availability_build_limited(NULL, ring, rep, TOKENRING_CL_ONE, NULL,
                                                          1, &lim, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(lim.estimate, 0);
    lim.failed_nodes = NULL;
    assert_int_equal(tokenring_availability_build_limited(&a, ring, rep, TOKENRING_CL_ONE, NULL, 1,
                                                          &lim, &err),
                     TOKENRING_E_INVAL);
    assert_non_null(strstr(err.message, "failed_nodes is NULL"));
    uint32_t bad[] = { 4 };
    lim.failed_nodes = bad;
    assert_int_equal(tokenring_availability_build_limited(&a, ring, rep, TOKENRING_CL_ONE, NULL, 1,
                                                          &lim, &err),
                     TOKENRING_E_RANGE);
    assert_non_null(strstr(err.message, "failed node index 4"));
    uint32_t twice[] = { 2, 2 };
    lim.failed_nodes = twice;
    lim.failed_count = 2;
    assert_int_equal(tokenring_availability_build_limited(&a, ring, rep, TOKENRING_CL_ONE, NULL, 1,
                                                          &lim, &err),
                     TOKENRING_E_INVAL);
    assert_non_null(strstr(err.message, "twice"));
    lim.failed_count = 5;
    assert_int_equal(tokenring_availability_build_limited(&a, ring, rep, TOKENRING_CL_ONE, NULL, 1,
                                                          &lim, &err),
                     TOKENRING_E_RANGE);
    uint32_t three[] = { 0, 1, 2 };
    lim.failed_nodes = three;
    lim.failed_count = 3;
    assert_int_equal(tokenring_availability_build_limited(&a, ring, rep, TOKENRING_CL_ONE, NULL, 2,
                                                          &lim, &err),
                     TOKENRING_E_RANGE); /* one node is up: 2 more is too many */
    assert_non_null(strstr(err.message, "not down already"));
    lim.failed_count = 1;
    assert_int_equal(tokenring_availability_build_limited(&a, ring, rep, 99, NULL, 1, &lim, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_availability_build_limited(&a, ring, rep,
                                                          TOKENRING_CL_LOCAL_QUORUM, NULL, 1,
                                                          &lim, &err),
                     TOKENRING_E_INVAL);
    /* THREE with rf 2 cannot be reached with every node up, down or not */
    tokenring_replication *rf2;
    assert_int_equal(tokenring_replication_simple(&rf2, 2, 0, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_availability_build_limited(&a, ring, rf2, TOKENRING_CL_THREE, NULL,
                                                          1, &lim, &err),
                     TOKENRING_E_IMPOSSIBLE);
    assert_non_null(strstr(err.message, "even with every node up"));
    lim.failed_count = 0;
    assert_int_equal(tokenring_availability_build_limited(&a, ring, rf2, TOKENRING_CL_THREE, NULL,
                                                          1, &lim, &err),
                     TOKENRING_E_IMPOSSIBLE);
    tokenring_replication_free(rf2);
    /* a progress callback that cancels */
    lim.failed_count = 1;
    lim.failed_nodes = down;
    lim.progress = cancel_at_once;
    assert_int_equal(tokenring_availability_build_limited(&a, ring, rep, TOKENRING_CL_QUORUM, NULL,
                                                          2, &lim, &err),
                     TOKENRING_E_CANCELLED);
    assert_ptr_equal(a, keep);
    tokenring_replication_free(rep);
    tokenring_ring_free(ring);

    /* two datacenters, two nodes down: the list agrees with the summary at every level */
    tokenring_topology *t;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    const char *names[16], *dcs[16], *racks[16];
    char nb[16][8];
    static const char *const rack_names[] = { "r1", "r2", "r3" };
    for (int i = 0; i < 16; i++) {
        snprintf(nb[i], sizeof nb[i], "n%d", i);
        names[i] = nb[i];
        dcs[i] = i < 10 ? "dc1" : "dc2";
        racks[i] = rack_names[i % 3];
    }
    assert_int_equal(tokenring_layout_add_seeded_nodes(t, 5, 4, names, dcs, racks, 16, 0, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_ring_build(&ring, t, NULL), TOKENRING_OK);
    tokenring_topology_free(t);
    static const char text[] = "dc1=3,dc2=3";
    assert_int_equal(tokenring_replication_parse(&rep, text, sizeof text - 1, NULL), TOKENRING_OK);
    uint32_t two_down[] = { 3, 12 };
    int levels[] = { TOKENRING_CL_ONE, TOKENRING_CL_QUORUM, TOKENRING_CL_ALL,
                     TOKENRING_CL_LOCAL_QUORUM, TOKENRING_CL_EACH_QUORUM,
                     TOKENRING_CL_LOCAL_ONE };
    size_t found = 0;
    for (size_t l = 0; l < sizeof levels / sizeof *levels; l++)
        for (uint32_t k = 1; k <= 3; k++)
            found += list_agrees_with_summary(ring, rep, levels[l], "dc2", k, two_down, 2);
    assert_true(found > 0);
    tokenring_replication_free(rep);
    tokenring_ring_free(ring);

    /* the budget: refused before any work, with the estimate; unlimited runs */
    ring = seeded_ring(300, 16, NULL);
    assert_int_equal(tokenring_replication_simple(&rep, 3, 0, NULL), TOKENRING_OK);
    memset(&lim, 0, sizeof lim);
    lim.budget = 1000;
    a = NULL;
    assert_int_equal(tokenring_availability_build_limited(&a, ring, rep, TOKENRING_CL_QUORUM, NULL,
                                                          1, &lim, &err),
                     TOKENRING_E_BUDGET);
    assert_null(a);
    assert_true(lim.estimate > 1000);
    char want[64];
    snprintf(want, sizeof want, "estimated %llu work units", (unsigned long long)lim.estimate);
    assert_non_null(strstr(err.message, want));
    /* the 1.0 call applies the default budget: 3 failures of 300 nodes are above it */
    assert_int_equal(tokenring_availability_build(&a, ring, rep, TOKENRING_CL_QUORUM, NULL, 3,
                                                  &err),
                     TOKENRING_E_BUDGET);
    lim.budget = 0;
    assert_int_equal(tokenring_availability_build_limited(&a, ring, rep, TOKENRING_CL_QUORUM, NULL,
                                                          3, &lim, &err),
                     TOKENRING_E_BUDGET);
    assert_true(lim.estimate > TOKENRING_BUDGET_DEFAULT);
    lim.budget = TOKENRING_BUDGET_UNLIMITED;
    progress_calls = 0;
    lim.progress = count_progress;
    assert_int_equal(tokenring_availability_build_limited(&a, ring, rep, TOKENRING_CL_QUORUM, NULL,
                                                          1, &lim, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_availability_count(a), 0);
    assert_true(progress_calls > 0);
    tokenring_availability_free(a);
    tokenring_replication_free(rep);
    tokenring_ring_free(ring);
}

/* Cassandra's own allocator: num_tokens capped at its 1536 (DatabaseDescriptor's
 * MAX_NUM_TOKENS), in both partitioners; the join plan, which runs it, under the cap its
 * limits raise. */
static void cassandra_allocator_cap(void **state)
{
    (void)state;
    tokenring_topology *t;
    tokenring_ring *ring = seeded_ring(6, 8, &t);
    tokenring_ring_free(ring);
    int64_t *out = calloc(2048, sizeof *out);
    tokenring_error err;
    assert_int_equal(tokenring_allocate_cassandra(out, 1537, t, "10.9.9.9", "datacenter1",
                                                  "rack1", NULL, 3, NULL,
                                                  TOKENRING_CASSANDRA_5_0, 0, &err),
                     TOKENRING_E_RANGE);
    assert_non_null(strstr(err.message, "A maximum number of 1536 tokens per node"));
    assert_non_null(strstr(err.message, "tokenring_allocate_join_limited"));
    assert_int_equal(tokenring_allocate_cassandra(out, 1536, t, "10.9.9.9", "datacenter1",
                                                  "rack1", NULL, 3, NULL,
                                                  TOKENRING_CASSANDRA_5_0, 0, &err),
                     TOKENRING_OK);
    /* the join plan's default is Cassandra's tokens: the same at the cap */
    int64_t *join = calloc(2048, sizeof *join);
    tokenring_limits lim;
    memset(&lim, 0, sizeof lim);
    assert_int_equal(tokenring_allocate_join_limited(join, NULL, 1536, t, "10.9.9.9",
                                                     "datacenter1", "rack1", NULL, 3,
                                                     TOKENRING_CASSANDRA_5_0, 0, &lim, &err),
                     TOKENRING_OK);
    assert_memory_equal(join, out, 1536 * sizeof *out);
    assert_true(lim.estimate > 0);
    assert_int_equal(tokenring_allocate_join_limited(join, NULL, 1537, t, "10.9.9.9",
                                                     "datacenter1", "rack1", NULL, 3,
                                                     TOKENRING_CASSANDRA_5_0, 0, &lim, &err),
                     TOKENRING_E_RANGE);
    free(join);
    free(out);
    tokenring_topology_free(t);
    /* RandomPartitioner: refused before the ring is looked at (an empty ring with no
     * first token would be TOKENRING_E_INVAL) */
    tokenring_topology *rp;
    assert_int_equal(tokenring_topology_new_partitioned(&rp, TOKENRING_PARTITIONER_RANDOM),
                     TOKENRING_OK);
    tokenring_token128 *o128 = calloc(1537, sizeof *o128);
    assert_int_equal(tokenring_allocate_cassandra128(o128, 1537, rp, "10.9.9.9", "dc1", "r1",
                                                     NULL, 1, NULL, TOKENRING_CASSANDRA_5_0, 0,
                                                     &err),
                     TOKENRING_E_RANGE);
    assert_non_null(strstr(err.message, "1536"));
    assert_int_equal(tokenring_allocate_cassandra128(o128, 4, rp, "10.9.9.9", "dc1", "r1", NULL,
                                                     1, NULL, TOKENRING_CASSANDRA_5_0, 0, &err),
                     TOKENRING_E_INVAL);
    free(o128);
    tokenring_topology_free(rp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(down_node_counts_as_failed),
        cmocka_unit_test(availability_budget),
        cmocka_unit_test(availability_list_limited),
        cmocka_unit_test(allocator_limits),
        cmocka_unit_test(cassandra_allocator_cap),
        cmocka_unit_test(cluster_size_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
