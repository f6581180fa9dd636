/* SPDX-License-Identifier: Apache-2.0 */
/* The library's plan for one joining node, tokenring_allocate_join() (Murmur3Partitioner)
 * and tokenring_allocate_join128() (RandomPartitioner): Cassandra's tokens by default; with
 * TOKENRING_JOIN_BEST_ONE_STEP never less balanced than them on every join of Cassandra's
 * vectors (5.0.2's Murmur3, 5.0.6's RandomPartitioner), more balanced on some, its tokens
 * valid and free; the argument checks of each, and a RandomPartitioner ring the 64-bit
 * plan cannot project. */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "alloc_vectors.h"
#include "tokenring/tokenring.h"

/* ------------------------------------------- tokenring_allocate_join: the default plan */

/* max/mean and min/mean of dc once `name` holds `tok`: effective under ks, primary while
 * the group has at most rf nodes (the figures tokenring_allocate_join is judged by). */
static void join_balance(const tokenring_topology *t, const tokenring_replication *ks,
                         const char *name, const char *dc, const char *rack,
                         const int64_t *tok, size_t n, double out[2])
{
    bool simple_ks = tokenring_replication_strategy(ks) == TOKENRING_SIMPLE;
    int32_t dc_rf = 0;
    tokenring_replication_dc_factor(&dc_rf, NULL, ks, dc);
    tokenring_replication *own = NULL; /* NetworkTopologyStrategy: the datacenter's factor */
    if (!simple_ks) {
        tokenring_replication_network(&own);
        tokenring_replication_set_dc(own, dc, dc_rf, 0, NULL);
    }
    tokenring_topology *x = NULL;
    tokenring_ring *ring = NULL;
    tokenring_placement *pl = NULL;
    assert_int_equal(tokenring_topology_clone(&x, t), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node(x, name, dc, rack, tok, n, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_ring_build(&ring, x, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_placement_build(&pl, ring, own ? own : ks, 0, NULL), TOKENRING_OK);
    bool simple = tokenring_replication_strategy(ks) == TOKENRING_SIMPLE;
    int32_t rf = 0;
    tokenring_replication_dc_factor(&rf, NULL, ks, dc);
    tokenring_balance pb, eb;
    assert_int_equal(tokenring_balance_compute(&pb, &eb, ring, pl, simple ? NULL : dc, NULL,
                                               NULL),
                     TOKENRING_OK);
    const tokenring_balance *b = eb.node_count <= (uint32_t)rf ? &pb : &eb;
    out[0] = b->max / b->mean;
    out[1] = b->min / b->mean;
    tokenring_placement_free(pl);
    tokenring_ring_free(ring);
    tokenring_topology_free(x);
    tokenring_replication_free(own);
}

static void assert_distinct_new(const int64_t *tok, size_t n, const tokenring_topology *t)
{
    for (size_t i = 1; i < n; i++)
        assert_true(tok[i - 1] < tok[i]);
    for (size_t i = 0; i < tokenring_topology_node_count(t); i++) {
        tokenring_node_info info;
        tokenring_topology_node(&info, t, i);
        for (size_t k = 0; k < info.token_count; k++)
            for (size_t j = 0; j < n; j++)
                assert_true(info.tokens[k] != tok[j]);
    }
}

/* Two nodes Cassandra built (16 tokens, one rack), SimpleStrategy 2: the third node makes
 * every node own two thirds (the example gave 78.86 / 55.00 / 66.14 %). */
static void test_join_simple_strategy(void **state)
{
    (void)state;
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    int64_t tok[16], first = INT64_C(-8686704767075290596);
    const char *names[] = { "172.16.0.11", "172.16.0.12" };
    for (int i = 0; i < 2; i++) {
        assert_int_equal(tokenring_allocate_cassandra(tok, 16, t, names[i], "datacenter1",
                                                      "RAC1", NULL, 2, &first,
                                                      TOKENRING_CASSANDRA_5_0, 0, NULL),
                         TOKENRING_OK);
        assert_int_equal(tokenring_topology_add_node(t, names[i], "datacenter1", "RAC1", tok,
                                                     16, NULL),
                         TOKENRING_OK);
    }
    tokenring_replication *ks = NULL;
    assert_int_equal(tokenring_replication_simple(&ks, 2, 0, NULL), TOKENRING_OK);
    tokenring_error err;
    /* a rack of its own: SimpleStrategy ignores racks, so it must not matter */
    assert_int_equal(tokenring_allocate_join(tok, 16, t, "172.16.0.13", "datacenter1", "rack1",
                                             ks, 0, TOKENRING_CASSANDRA_5_0, TOKENRING_JOIN_BEST_ONE_STEP, &err),
                     TOKENRING_OK);
    assert_distinct_new(tok, 16, t);
    double ours[2], theirs[2];
    join_balance(t, ks, "172.16.0.13", "datacenter1", "rack1", tok, 16, ours);
    assert_true(ours[0] < 1.001 && ours[1] > 0.999);
    int64_t c[16];
    assert_int_equal(tokenring_allocate_cassandra(c, 16, t, "172.16.0.13", "datacenter1",
                                                  "rack1", ks, 0, NULL,
                                                  TOKENRING_CASSANDRA_5_0, 0, NULL),
                     TOKENRING_OK);
    join_balance(t, ks, "172.16.0.13", "datacenter1", "rack1", c, 16, theirs);
    assert_true(theirs[0] > ours[0]);
    tokenring_replication_free(ks);
    tokenring_topology_free(t);
}

/* The second node of a datacenter with rf 3: primary ranges balanced against the first
 * node's tokens (not evenly spaced ignoring them), never worse than Cassandra's. */
static void test_join_second_node(void **state)
{
    (void)state;
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    int64_t tok[16], c[16], first = INT64_C(4719551804927258585);
    assert_int_equal(tokenring_allocate_cassandra(tok, 16, t, "10.0.0.1", "dc1", "rack1", NULL,
                                                  3, &first, TOKENRING_CASSANDRA_5_0, 0, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node(t, "10.0.0.1", "dc1", "rack1", tok, 16, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_allocate_join(tok, 16, t, "10.0.0.2", "dc1", "rack1", NULL, 3,
                                             TOKENRING_CASSANDRA_5_0, TOKENRING_JOIN_BEST_ONE_STEP, NULL),
                     TOKENRING_OK);
    assert_distinct_new(tok, 16, t);
    assert_int_equal(tokenring_allocate_cassandra(c, 16, t, "10.0.0.2", "dc1", "rack1", NULL, 3,
                                                  NULL, TOKENRING_CASSANDRA_5_0, 0, NULL),
                     TOKENRING_OK);
    tokenring_replication *ks = NULL;
    tokenring_replication_network(&ks);
    tokenring_replication_set_dc(ks, "dc1", 3, 0, NULL);
    double ours[2], theirs[2];
    join_balance(t, ks, "10.0.0.2", "dc1", "rack1", tok, 16, ours);
    join_balance(t, ks, "10.0.0.2", "dc1", "rack1", c, 16, theirs);
    assert_true(ours[0] <= theirs[0] && ours[1] >= theirs[1]);
    assert_true(ours[0] < 1.01);
    tokenring_replication_free(ks);
    tokenring_topology_free(t);
}

/* 16 tokens into a datacenter of 5 single-token nodes: no "no room left"; the tokens
 * beyond the useful ranges change nothing, and the node does not take every range. */
static void test_join_single_token_ring(void **state)
{
    (void)state;
    const char *names[] = { "127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5" };
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    for (int i = 0; i < 5; i++) {
        int64_t one = (int64_t)((uint64_t)INT64_MIN + (uint64_t)i * (UINT64_MAX / 5));
        assert_int_equal(tokenring_topology_add_node(t, names[i], "dc1", "rack1", &one, 1, NULL),
                         TOKENRING_OK);
    }
    tokenring_replication *ks = NULL;
    tokenring_replication_simple(&ks, 3, 0, NULL);
    int64_t tok[16];
    tokenring_error err;
    assert_int_equal(tokenring_allocate_join(tok, 16, t, "10.0.0.99", "dc1", "rack1", ks, 0,
                                             TOKENRING_CASSANDRA_5_0, TOKENRING_JOIN_BEST_ONE_STEP, &err),
                     TOKENRING_OK);
    assert_distinct_new(tok, 16, t);
    double ours[2];
    join_balance(t, ks, "10.0.0.99", "dc1", "rack1", tok, 16, ours);
    assert_true(ours[0] < 1.5); /* Cassandra's tokens give the new node everything: 2.0 */
    /* the 1.0 allocator with NTS on the same ring accepts the node too, as Cassandra */
    assert_int_equal(tokenring_allocate_tokens(tok, 16, t, "dc1", "rack1", 3, 0, &err),
                     TOKENRING_OK);
    assert_distinct_new(tok, 16, t);
    /* and so does the default plan (Cassandra's tokens) */
    assert_int_equal(tokenring_allocate_join(tok, 16, t, "10.0.0.99", "dc1", "rack1", ks, 0,
                                             TOKENRING_CASSANDRA_5_0, 0, &err),
                     TOKENRING_OK);
    assert_distinct_new(tok, 16, t);
    tokenring_replication_free(ks);
    tokenring_topology_free(t);
}

static int cmp_tok(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The refined candidate's tokens end half way along their moves; a half-way token that
 * another datacenter already holds steps back towards Cassandra's token (as a full move
 * does) instead of making the whole candidate unusable. 12 seeded nodes x 16 tokens in
 * 3 racks: the refined candidate wins; then a dc2 node takes one of its tokens. */
static void test_join_half_move_avoids_taken_tokens(void **state)
{
    (void)state;
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    const char *names[12], *dcs[12], *racks[12];
    char buf[12][8];
    static const char *const rack_names[3] = { "r1", "r2", "r3" };
    for (int i = 0; i < 12; i++) {
        snprintf(buf[i], sizeof buf[i], "n%d", i);
        names[i] = buf[i];
        dcs[i] = "dc1";
        racks[i] = rack_names[i % 3];
    }
    tokenring_error err;
    assert_int_equal(tokenring_layout_add_seeded_nodes(t, 42, 16, names, dcs, racks, 12, 0,
                                                       &err),
                     TOKENRING_OK);
    int64_t ours[16], cass[16], again[16], cass2[16];
    assert_int_equal(tokenring_allocate_join(ours, 16, t, "new", "dc1", "r1", NULL, 3,
                                             TOKENRING_CASSANDRA_4_0, TOKENRING_JOIN_BEST_ONE_STEP, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_allocate_cassandra(cass, 16, t, "new", "dc1", "r1", NULL, 3,
                                                  NULL, TOKENRING_CASSANDRA_4_0, 0, &err),
                     TOKENRING_OK);
    qsort(cass, 16, sizeof *cass, cmp_tok);
    int at = -1;
    for (int i = 0; i < 16 && at < 0; i++)
        if (ours[i] != cass[i])
            at = i;
    assert_true(at >= 0); /* the refined candidate won */
    int64_t held = ours[at];
    assert_int_equal(tokenring_topology_add_node(t, "other", "dc2", "r1", &held, 1, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_allocate_join(again, 16, t, "new", "dc1", "r1", NULL, 3,
                                             TOKENRING_CASSANDRA_4_0, TOKENRING_JOIN_BEST_ONE_STEP, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_allocate_cassandra(cass2, 16, t, "new", "dc1", "r1", NULL, 3,
                                                  NULL, TOKENRING_CASSANDRA_4_0, 0, &err),
                     TOKENRING_OK);
    qsort(cass2, 16, sizeof *cass2, cmp_tok);
    assert_memory_equal(cass, cass2, sizeof cass); /* dc2 changes nothing for Cassandra */
    /* still the refined candidate: every token as before but the one dc2 holds, which
     * stepped back towards Cassandra's token */
    int changed = 0;
    for (int i = 0; i < 16; i++) {
        assert_true(again[i] != held);
        if (again[i] != ours[i]) {
            changed++;
            assert_int_equal(i, at);
            assert_true(ours[i] > cass[i] ? again[i] == held - 1 : again[i] == held + 1);
        }
    }
    assert_int_equal(changed, 1);
    tokenring_topology_free(t);
}

static void test_join_arguments(void **state)
{
    (void)state;
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    int64_t tok[4] = { -100, 0, 100, 200 };
    assert_int_equal(tokenring_topology_add_node(t, "10.0.0.1", "dc1", "r1", tok, 4, NULL),
                     TOKENRING_OK);
    tokenring_error err;
    memset(tok, 0x5a, sizeof tok);
    int64_t keep = tok[0];
    assert_int_equal(tokenring_allocate_join(NULL, 4, t, "n", "dc1", "r1", NULL, 3,
                                             TOKENRING_CASSANDRA_5_0, TOKENRING_JOIN_BEST_ONE_STEP, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_allocate_join(tok, 4, t, "10.0.0.1", "dc1", "r1", NULL, 3,
                                             TOKENRING_CASSANDRA_5_0, TOKENRING_JOIN_BEST_ONE_STEP, &err),
                     TOKENRING_E_EXISTS);
    assert_int_equal(tokenring_allocate_join(tok, 4, t, "10.0.0.2", "dc1", "r1", NULL, 0,
                                             TOKENRING_CASSANDRA_5_0, TOKENRING_JOIN_BEST_ONE_STEP, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_allocate_join(tok, 0, t, "10.0.0.2", "dc1", "r1", NULL, 3,
                                             TOKENRING_CASSANDRA_5_0, TOKENRING_JOIN_BEST_ONE_STEP, &err),
                     TOKENRING_E_RANGE);
    assert_int_equal(tokenring_allocate_join(tok, 4, t, "10.0.0.2", "dc1", "r1", NULL, 3, 0x99,
                                             TOKENRING_JOIN_BEST_ONE_STEP, &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_int_equal(tokenring_allocate_join(tok, 4, t, "10.0.0.2", "dc1", "r1", NULL, 3,
                                             TOKENRING_CASSANDRA_5_0,  0x2, &err),
                     TOKENRING_E_INVAL);
    tokenring_replication *ks = NULL;
    tokenring_replication_network(&ks);
    tokenring_replication_set_dc(ks, "dc2", 3, 0, NULL);
    assert_int_equal(tokenring_allocate_join(tok, 4, t, "10.0.0.2", "dc1", "r1", ks, 0,
                                             TOKENRING_CASSANDRA_5_0, TOKENRING_JOIN_BEST_ONE_STEP, &err),
                     TOKENRING_E_IMPOSSIBLE);
    assert_non_null(strstr(err.message, "no replica"));
    assert_int_equal(tokenring_allocate_join(tok, 4, t, "10.0.0.2", "dc1", "r1", ks, 3,
                                             TOKENRING_CASSANDRA_5_0, TOKENRING_JOIN_BEST_ONE_STEP, &err),
                     TOKENRING_E_INVAL);
    assert_true(tok[0] == keep); /* untouched on failure */
    tokenring_replication_free(ks);
    tokenring_topology_free(t);
}

/* Every vector Cassandra answered: the default plan is at least as balanced as its tokens
 * (max/mean and min/mean), strictly better on a good part of them. */
static void test_join_never_worse_on_vectors(void **state)
{
    (void)state;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", av_data_dir(), "cassandra_allocation_5.0.2.tsv");
    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    char *line = NULL;
    size_t linecap = 0, wantcap = 0, stride = av_seq_stride(), seq_index = 0;
    ssize_t len;
    tokenring_topology *topo = NULL;
    int64_t *want = NULL, *got = NULL;
    size_t better = 0, same = 0, judged = 0;
    bool skipping = false;
    while ((len = getline(&line, &linecap, fp)) >= 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (len == 0 || line[0] == '#')
            continue;
        char *f[10];
        size_t nf = av_split_tabs(line, f, 10);
        if (strcmp(f[0], "seq") == 0) {
            skipping = seq_index++ % stride != 0;
            tokenring_topology_free(topo);
            assert_int_equal(tokenring_topology_new(&topo), TOKENRING_OK);
            continue;
        }
        if (skipping)
            continue;
        if (strcmp(f[0], "node") == 0) {
            size_t n = av_tokens64(f[5], &want, &wantcap);
            assert_int_equal(tokenring_topology_add_node(topo, f[1], f[2], f[3], want, n, NULL),
                             TOKENRING_OK);
            if (strcmp(f[4], "J") == 0)
                tokenring_topology_set_state(topo, f[1], TOKENRING_STATE_JOINING, TOKENRING_UP,
                                             NULL);
            continue;
        }
        if (nf != 8 || strncmp(f[7], "ok ", 3) != 0)
            continue;
        uint32_t T = (uint32_t)strtoul(f[4], NULL, 10);
        size_t n = av_tokens64(f[7] + 3, &want, &wantcap);
        tokenring_replication *ks = NULL;
        int32_t local_rf = 0;
        if (strncmp(f[5], "rf:", 3) == 0) {
            local_rf = atoi(f[5] + 3);
            tokenring_replication_network(&ks);
            tokenring_replication_set_dc(ks, f[2], local_rf, 0, NULL);
        } else if (strncmp(f[5], "simple:", 7) == 0) {
            tokenring_replication_simple(&ks, atoi(f[5] + 7), 0, NULL);
        } else {
            tokenring_replication_network(&ks);
            char buf[512];
            snprintf(buf, sizeof buf, "%s", f[5] + 4);
            for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv;
                 kv = strtok_r(NULL, ",", &save)) {
                char *eq = strchr(kv, '=');
                *eq = '\0';
                tokenring_replication_set_dc(ks, kv, atoi(eq + 1), 0, NULL);
            }
        }
        int32_t rf = 0;
        tokenring_replication_dc_factor(&rf, NULL, ks, f[2]);
        av_drop_joining_holders64(topo, want, n);
        if (rf >= 1) {
            got = realloc(got, (T + 1) * sizeof *got);
            tokenring_error err;
            int rc = tokenring_allocate_join(got, T, topo, f[1], f[2], f[3],
                                             local_rf ? NULL : ks, local_rf,
                                             TOKENRING_CASSANDRA_5_0, TOKENRING_JOIN_BEST_ONE_STEP, &err);
            if (rc != TOKENRING_OK)
                fail_msg("join %s: %s", f[1], err.message);
            double o[2], c[2];
            join_balance(topo, ks, f[1], f[2], f[3], got, T, o);
            join_balance(topo, ks, f[1], f[2], f[3], want, n, c);
            if (!(o[0] <= c[0] && o[1] >= c[1]))
                fail_msg("join %s (%s, %u tokens): ours %.4f/%.4f, Cassandra %.4f/%.4f", f[1],
                         f[5], T, o[0], o[1], c[0], c[1]);
            judged++;
            better += o[0] < c[0] || o[1] > c[1];
            same += o[0] == c[0] && o[1] == c[1];
        }
        tokenring_replication_free(ks);
        if (strcmp(f[0], "join") == 0)
            assert_int_equal(tokenring_topology_add_node(topo, f[1], f[2], f[3], want, n, NULL),
                             TOKENRING_OK);
    }
    print_message("default plan vs Cassandra on %zu joins: %zu better, %zu as good, 0 worse\n",
                  judged, better, same);
    assert_true(judged >= 1500 / stride);
    assert_true(better * 4 >= judged); /* a real improvement, not a copy */
    tokenring_topology_free(topo);
    free(line);
    free(want);
    free(got);
    fclose(fp);
}

/* The default plan is Cassandra's tokens, bit for bit: on a ring of random tokens, on an
 * empty ring (started at token 0), and the allocator's plan where Cassandra's tokens are
 * held by a joining node (Cassandra does not see joining nodes). */
static void test_join_default_is_cassandra(void **state)
{
    (void)state;
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    int64_t tok[8], cass[8], zero = 0;
    tokenring_error err;
    /* empty: Cassandra's layout started at 0 */
    assert_int_equal(tokenring_allocate_join(tok, 8, t, "10.0.0.1", "dc1", "r1", NULL, 3,
                                             TOKENRING_CASSANDRA_5_0, 0, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_allocate_cassandra(cass, 8, t, "10.0.0.1", "dc1", "r1", NULL, 3,
                                                  &zero, TOKENRING_CASSANDRA_5_0, 0, &err),
                     TOKENRING_OK);
    assert_memory_equal(tok, cass, sizeof tok);
    uint64_t s = 32;
    for (int i = 0; i < 12; i++) {
        char name[16], rack[8];
        snprintf(name, sizeof name, "10.0.0.%d", i + 1);
        snprintf(rack, sizeof rack, "r%d", i % 3 + 1);
        for (int k = 0; k < 8; k++) {
            s = s * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
            tok[k] = (int64_t)s;
        }
        qsort(tok, 8, sizeof *tok, cmp_tok);
        assert_int_equal(tokenring_topology_add_node(t, name, "dc1", rack, tok, 8, NULL),
                         TOKENRING_OK);
    }
    for (int r = 1; r <= 4; r++) { /* r4: the first node of a new rack */
        char rack[8];
        snprintf(rack, sizeof rack, "r%d", r);
        assert_int_equal(tokenring_allocate_join(tok, 8, t, "10.0.1.1", "dc1", rack, NULL, 3,
                                                 TOKENRING_CASSANDRA_5_0, 0, &err),
                         TOKENRING_OK);
        assert_int_equal(tokenring_allocate_cassandra(cass, 8, t, "10.0.1.1", "dc1", rack,
                                                      NULL, 3, NULL, TOKENRING_CASSANDRA_5_0,
                                                      0, &err),
                         TOKENRING_OK);
        assert_memory_equal(tok, cass, sizeof tok);
    }
    /* a joining node holds Cassandra's tokens: the allocator's plan, no collision */
    assert_int_equal(tokenring_topology_add_node(t, "10.0.2.1", "dc1", "r1", cass, 8, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_set_state(t, "10.0.2.1", TOKENRING_STATE_JOINING,
                                                  TOKENRING_UP, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_allocate_join(tok, 8, t, "10.0.1.1", "dc1", "r4", NULL, 3,
                                             TOKENRING_CASSANDRA_5_0, 0, &err),
                     TOKENRING_OK);
    assert_distinct_new(tok, 8, t);
    tokenring_topology_free(t);
}

/* ------------------------------------------------- the plan on RandomPartitioner */

static bool same(tokenring_token128 a, tokenring_token128 b)
{
    return a.hi == b.hi && a.lo == b.lo;
}

/* The rule tokenring_allocate_join() documents, computed here with the public calls:
 * the datacenter's (the cluster's, SimpleStrategy) max/mean and min/mean of effective
 * ownership under the datacenter's factor alone, primary while it has at most rf nodes. */
static bool judge(double out[2], const tokenring_topology *topo, const char *name,
                  const char *dc, const char *rack, const tokenring_token128 *tokens, size_t n,
                  const tokenring_replication *ks, int32_t local_rf)
{
    tokenring_topology *w = NULL;
    assert_int_equal(tokenring_topology_clone(&w, topo), TOKENRING_OK);
    if (tokenring_topology_add_node128(w, name, dc, rack, tokens, n, NULL) != TOKENRING_OK) {
        tokenring_topology_free(w);
        return false;
    }
    bool simple = ks && tokenring_replication_strategy(ks) == TOKENRING_SIMPLE;
    int32_t rf = local_rf;
    if (ks)
        tokenring_replication_dc_factor(&rf, NULL, ks, dc);
    tokenring_replication *r = NULL;
    if (simple) {
        assert_int_equal(tokenring_replication_simple(&r, rf, 0, NULL), TOKENRING_OK);
    } else {
        assert_int_equal(tokenring_replication_network(&r), TOKENRING_OK);
        assert_int_equal(tokenring_replication_set_dc(r, dc, rf, 0, NULL), TOKENRING_OK);
    }
    tokenring_ring *ring = NULL;
    tokenring_placement *p = NULL;
    tokenring_balance pb, eb;
    assert_int_equal(tokenring_ring_build(&ring, w, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_placement_build(&p, ring, r, 0, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_balance_compute(&pb, &eb, ring, p, simple ? NULL : dc, NULL,
                                               NULL),
                     TOKENRING_OK);
    const tokenring_balance *b = eb.node_count <= (uint32_t)rf ? &pb : &eb;
    out[0] = b->mean > 0 ? b->max / b->mean : 1;
    out[1] = b->mean > 0 ? b->min / b->mean : 1;
    tokenring_placement_free(p);
    tokenring_ring_free(ring);
    tokenring_replication_free(r);
    tokenring_topology_free(w);
    return true;
}

static void test_join_never_worse_random(void **state)
{
    (void)state;
    char path[4096];
    snprintf(path, sizeof path, "%s/cassandra_allocation_random_5.0.6.tsv", av_data_dir());
    FILE *fp = fopen(path, "r");
    if (!fp)
        fail_msg("cannot open %s", path);
    const char *quick = getenv("TOKENRING_TEST_QUICK");
    size_t stride = quick && *quick && strcmp(quick, "0") != 0 ? 8 : 1, seqs = 0;
    bool skipping = false;
    char *line = NULL;
    size_t linecap = 0, wantcap = 0, better = 0, equal = 0, judged = 0, refused = 0;
    ssize_t len;
    tokenring_topology *topo = NULL;
    tokenring_token128 *want = NULL, *got = NULL;
    while ((len = getline(&line, &linecap, fp)) >= 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (len == 0 || line[0] == '#')
            continue;
        char *f[10];
        size_t nf = av_split_tabs(line, f, 10);
        if (strcmp(f[0], "seq") == 0) {
            skipping = seqs++ % stride != 0;
            tokenring_topology_free(topo);
            assert_int_equal(tokenring_topology_new_partitioned(&topo,
                                                                TOKENRING_PARTITIONER_RANDOM),
                             TOKENRING_OK);
            continue;
        }
        if (skipping)
            continue;
        if (strcmp(f[0], "node") == 0) {
            size_t n = av_tokens128(f[5], &want, &wantcap);
            assert_int_equal(tokenring_topology_add_node128(topo, f[1], f[2], f[3], want, n,
                                                            NULL),
                             TOKENRING_OK);
            if (strcmp(f[4], "J") == 0)
                assert_int_equal(tokenring_topology_set_state(topo, f[1],
                                                              TOKENRING_STATE_JOINING,
                                                              TOKENRING_UP, NULL),
                                 TOKENRING_OK);
            continue;
        }
        assert_int_equal(nf, 8);
        uint32_t T = (uint32_t)strtoul(f[4], NULL, 10);
        int32_t local_rf;
        tokenring_replication *ks = av_mode_replication(f[5], &local_rf);
        got = realloc(got, (T ? T : 1) * sizeof *got);
        assert_non_null(got);
        tokenring_error err;
        memset(&err, 0, sizeof err);
        int rc = tokenring_allocate_join128(got, T, topo, f[1], f[2], f[3], ks, local_rf,
                                            TOKENRING_CASSANDRA_5_0, TOKENRING_JOIN_BEST_ONE_STEP, &err);
        bool ok = strncmp(f[7], "ok ", 3) == 0;
        size_t n = ok ? av_tokens128(f[7] + 3, &want, &wantcap) : 0;
        /* an empty datacenter: Cassandra's tokens start at its random draw (the vector's
         * first token), which the library does not take; nothing to compare */
        bool empty_ring = true;
        for (size_t i = 0; i < tokenring_topology_node_count(topo) && empty_ring; i++) {
            tokenring_node_info info;
            tokenring_topology_node(&info, topo, i);
            empty_ring = info.state == TOKENRING_STATE_JOINING || info.token_count == 0 ||
                         (strcmp(info.datacenter, f[2]) != 0 &&
                          !(ks && tokenring_replication_strategy(ks) == TOKENRING_SIMPLE));
        }
        if (rc == TOKENRING_OK) {
            /* valid: in range, ascending, distinct, held by no other node */
            for (uint32_t i = 0; i < T; i++) {
                assert_false(got[i].hi > (1ULL << 63) ||
                             (got[i].hi == (1ULL << 63) && got[i].lo != 0));
                if (i)
                    assert_true(tokenring_token128_compare(got[i - 1], got[i]) < 0);
            }
            double ours[2], theirs[2];
            if (ok && !empty_ring &&
                judge(ours, topo, f[1], f[2], f[3], got, T, ks, local_rf) &&
                judge(theirs, topo, f[1], f[2], f[3], want, n, ks, local_rf)) {
                judged++;
                if (!(ours[0] <= theirs[0] && ours[1] >= theirs[1]))
                    fail_msg("%s joining %s/%s: ours %.6f / %.6f, Cassandra %.6f / %.6f",
                             f[1], f[2], f[3], ours[0], ours[1], theirs[0], theirs[1]);
                if (ours[0] < theirs[0] || ours[1] > theirs[1])
                    better++;
                else
                    equal++;
            }
        } else {
            /* only where there is nothing to plan: Cassandra fails too, the keyspace
             * places no replica there, or Cassandra's tokens are held by a joining node
             * (Cassandra does not see those) and no plan of ours fits either */
            double dummy[2];
            bool refusable = !ok || empty_ring ||
                             strstr(err.message, "places no replica") != NULL ||
                             !judge(dummy, topo, f[1], f[2], f[3], want, n, ks, local_rf);
            refused += ok && !empty_ring;
            if (!refusable)
                fail_msg("%s joining %s/%s: rc %d (%s) where Cassandra gives tokens", f[1],
                         f[2], f[3], rc, err.message);
        }
        tokenring_replication_free(ks);
        if (strcmp(f[0], "join") == 0 && ok) {
            av_drop_joining_holders128(topo, want, n);
            assert_int_equal(tokenring_topology_add_node128(topo, f[1], f[2], f[3], want, n,
                                                            NULL),
                             TOKENRING_OK);
        }
    }
    tokenring_topology_free(topo);
    free(line);
    free(want);
    free(got);
    fclose(fp);
    print_message("%zu joins judged: %zu more balanced than Cassandra's, %zu as balanced, "
                  "0 less; %zu refused where Cassandra gives tokens (no replica in the "
                  "datacenter, or its tokens held by a joining node)\n", judged, better, equal,
                  refused);
    assert_true(judged > 100 / stride);
    assert_true(better > 0);
}

/* The default plan on RandomPartitioner: Cassandra's tokens bit for bit; where a joining
 * node holds them (Cassandra does not see it), the allocator's plan, free tokens. */
static void test_join_default_is_cassandra_random(void **state)
{
    (void)state;
    tokenring_topology *rp = NULL;
    assert_int_equal(tokenring_topology_new_partitioned(&rp, TOKENRING_PARTITIONER_RANDOM),
                     TOKENRING_OK);
    uint64_t s = 7;
    tokenring_token128 tk[4], out[4], cass[4];
    for (int i = 0; i < 9; i++) {
        char name[16], rack[8];
        snprintf(name, sizeof name, "10.0.0.%d", i + 1);
        snprintf(rack, sizeof rack, "r%d", i % 3 + 1);
        assert_int_equal(tokenring_layout_even_tokens128(tk, 4, (uint32_t)i, 9), TOKENRING_OK);
        for (int k = 0; k < 4; k++) {
            s = s * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
            tk[k].lo ^= s >> 40; /* near even, not even */
        }
        assert_int_equal(tokenring_topology_add_node128(rp, name, "dc1", rack, tk, 4, NULL),
                         TOKENRING_OK);
    }
    tokenring_error err;
    assert_int_equal(tokenring_allocate_join128(out, 4, rp, "10.0.1.1", "dc1", "r2", NULL, 3,
                                                TOKENRING_CASSANDRA_5_0, 0, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_allocate_cassandra128(cass, 4, rp, "10.0.1.1", "dc1", "r2",
                                                     NULL, 3, NULL, TOKENRING_CASSANDRA_5_0,
                                                     0, &err),
                     TOKENRING_OK);
    for (int k = 0; k < 4; k++)
        assert_true(same(out[k], cass[k]));
    assert_int_equal(tokenring_topology_add_node128(rp, "10.0.2.1", "dc1", "r1", cass, 4, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_set_state(rp, "10.0.2.1", TOKENRING_STATE_JOINING,
                                                  TOKENRING_UP, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_allocate_join128(out, 4, rp, "10.0.1.1", "dc1", "r2", NULL, 3,
                                                TOKENRING_CASSANDRA_5_0, 0, &err),
                     TOKENRING_OK);
    for (int k = 0; k < 4; k++)
        for (int j = 0; j < 4; j++)
            assert_false(same(out[k], cass[j]));
    tokenring_topology_free(rp);
}

static void test_join_arguments_random(void **state)
{
    (void)state;
    tokenring_topology *m3 = NULL, *bop = NULL, *rp = NULL;
    assert_int_equal(tokenring_topology_new(&m3), TOKENRING_OK);
    assert_int_equal(tokenring_topology_new_partitioned(&bop,
                                                        TOKENRING_PARTITIONER_BYTE_ORDERED),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_new_partitioned(&rp, TOKENRING_PARTITIONER_RANDOM),
                     TOKENRING_OK);
    tokenring_token128 t[4] = { { 0, 1 }, { 1ULL << 62, 0 }, { 1ULL << 63, 0 }, { 0, 0 } };
    assert_int_equal(tokenring_topology_add_node128(rp, "a", "dc1", "r1", t, 1, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node128(rp, "b", "dc1", "r1", t + 1, 1, NULL),
                     TOKENRING_OK);
    tokenring_token128 out[8], keep[8];
    memset(out, 0x5a, sizeof out);
    memcpy(keep, out, sizeof out);
    tokenring_error err;
    assert_int_equal(tokenring_allocate_join128(out, 4, m3, "n", "dc1", "r1", NULL, 1,
                                                TOKENRING_CASSANDRA_5_0, TOKENRING_JOIN_BEST_ONE_STEP, &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_non_null(strstr(err.message, "tokenring_allocate_join()"));
    assert_int_equal(tokenring_allocate_join128(out, 4, bop, "n", "dc1", "r1", NULL, 1,
                                                TOKENRING_CASSANDRA_5_0, TOKENRING_JOIN_BEST_ONE_STEP, &err),
                     TOKENRING_E_UNSUPPORTED);
    int64_t o64[4];
    assert_int_equal(tokenring_allocate_join(o64, 4, rp, "n", "dc1", "r1", NULL, 1,
                                             TOKENRING_CASSANDRA_5_0, TOKENRING_JOIN_BEST_ONE_STEP, &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_non_null(strstr(err.message, "tokenring_allocate_join128()"));
    assert_int_equal(tokenring_allocate_join128(NULL, 4, rp, "n", "dc1", "r1", NULL, 1,
                                                TOKENRING_CASSANDRA_5_0, TOKENRING_JOIN_BEST_ONE_STEP, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_allocate_join128(out, 4, rp, "a", "dc1", "r1", NULL, 1,
                                                TOKENRING_CASSANDRA_5_0, TOKENRING_JOIN_BEST_ONE_STEP, &err),
                     TOKENRING_E_EXISTS);
    assert_int_equal(tokenring_allocate_join128(out, 4, rp, "n", "dc1", "r1", NULL, 1,
                                                TOKENRING_CASSANDRA_5_0,  0x2, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_allocate_join128(out, 0, rp, "n", "dc1", "r1", NULL, 1,
                                                TOKENRING_CASSANDRA_5_0, TOKENRING_JOIN_BEST_ONE_STEP, &err),
                     TOKENRING_E_RANGE);
    assert_memory_equal(out, keep, sizeof out);
    /* a plan: 4 tokens, ascending, distinct, none held */
    assert_int_equal(tokenring_allocate_join128(out, 4, rp, "n", "dc1", "r1", NULL, 1,
                                                TOKENRING_CASSANDRA_5_0, TOKENRING_JOIN_BEST_ONE_STEP, &err),
                     TOKENRING_OK);
    for (int i = 1; i < 4; i++)
        assert_true(tokenring_token128_compare(out[i - 1], out[i]) < 0);
    for (int i = 0; i < 4; i++)
        assert_false(same(out[i], t[0]) || same(out[i], t[1]));
    /* two tokens in one 2^63-wide slice: no 64-bit plan, Cassandra's tokens */
    tokenring_topology_free(rp);
    assert_int_equal(tokenring_topology_new_partitioned(&rp, TOKENRING_PARTITIONER_RANDOM),
                     TOKENRING_OK);
    for (int n = 0; n < 3; n++) {
        tokenring_token128 tk[8];
        for (int i = 0; i < 8; i++)
            tk[i] = (tokenring_token128){ (uint64_t)(i * 3 + n + 1) << 58, (uint64_t)n };
        if (n == 2)
            tk[7] = (tokenring_token128){ tk[6].hi, 1 }; /* within 2^63 of tk[6] */
        char name[8];
        snprintf(name, sizeof name, "n%d", n);
        assert_int_equal(tokenring_topology_add_node128(rp, name, "dc1", "r1", tk, 8, NULL),
                         TOKENRING_OK);
    }
    tokenring_token128 cass[4];
    int crc = tokenring_allocate_cassandra128(cass, 4, rp, "n", "dc1", "r1", NULL, 1, NULL,
                                              TOKENRING_CASSANDRA_5_0, 0, &err);
    if (crc != TOKENRING_OK)
        fail_msg("Cassandra's allocation: %d %s", crc, err.message);
    assert_int_equal(tokenring_allocate_join128(out, 4, rp, "n", "dc1", "r1", NULL, 1,
                                                TOKENRING_CASSANDRA_5_0, TOKENRING_JOIN_BEST_ONE_STEP, &err),
                     TOKENRING_OK);
    assert_memory_equal(out, cass, sizeof cass);
    tokenring_topology_free(m3);
    tokenring_topology_free(bop);
    tokenring_topology_free(rp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_join_simple_strategy),
        cmocka_unit_test(test_join_second_node),
        cmocka_unit_test(test_join_single_token_ring),
        cmocka_unit_test(test_join_default_is_cassandra),
        cmocka_unit_test(test_join_half_move_avoids_taken_tokens),
        cmocka_unit_test(test_join_arguments),
        cmocka_unit_test(test_join_never_worse_on_vectors),
        cmocka_unit_test(test_join_never_worse_random),
        cmocka_unit_test(test_join_arguments_random),
        cmocka_unit_test(test_join_default_is_cassandra_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
