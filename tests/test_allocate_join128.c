/* SPDX-License-Identifier: Apache-2.0 */
/* tokenring_allocate_join128(): the library's plan for a node joining a RandomPartitioner
 * ring. On every join of Cassandra 5.0.6's RandomPartitioner vectors
 * (tests/data/cassandra_allocation_random_5.0.6.tsv) the plan is evaluated here, apart from
 * the library's own choice, next to Cassandra's tokens from the file: never less balanced
 * on max/mean and min/mean, more balanced on some; its tokens valid and free. Then the
 * argument checks, and a ring the 64-bit plan cannot project. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc128.h"
#include "tokenring/tokenring.h"

#ifndef TEST_DATA_DIR
#define TEST_DATA_DIR "tests/data"
#endif

static const char *data_dir(void)
{
    const char *d = getenv("TOKENRING_TEST_DATA");
    return d && *d ? d : TEST_DATA_DIR;
}

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

static void test_never_worse_than_cassandra(void **state)
{
    (void)state;
    char path[4096];
    snprintf(path, sizeof path, "%s/cassandra_allocation_random_5.0.6.tsv", data_dir());
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
        size_t nf = a128_split_tabs(line, f, 10);
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
            size_t n = a128_tokens(f[5], &want, &wantcap);
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
        tokenring_replication *ks = a128_mode_replication(f[5], &local_rf);
        got = realloc(got, (T ? T : 1) * sizeof *got);
        assert_non_null(got);
        tokenring_error err;
        memset(&err, 0, sizeof err);
        int rc = tokenring_allocate_join128(got, T, topo, f[1], f[2], f[3], ks, local_rf,
                                            TOKENRING_CASSANDRA_5_0, TOKENRING_JOIN_BEST_ONE_STEP, &err);
        bool ok = strncmp(f[7], "ok ", 3) == 0;
        size_t n = ok ? a128_tokens(f[7] + 3, &want, &wantcap) : 0;
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
            a128_drop_joining_holders(topo, want, n);
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
static void test_default_is_cassandra(void **state)
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

static void test_arguments(void **state)
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
        cmocka_unit_test(test_never_worse_than_cassandra),
        cmocka_unit_test(test_arguments),
        cmocka_unit_test(test_default_is_cassandra),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
