/* SPDX-License-Identifier: Apache-2.0 */
/* tokenring_allocate_cassandra128(): bit-for-bit equality with Cassandra's own allocator
 * on RandomPartitioner rings, every vector of tests/data/cassandra_allocation_random_*.tsv
 * (made by tests/data/gen/allocation/RandomAllocationVectors.java), and its argument
 * checks. */
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

#include "alloc128.h"
#include "tokenring/tokenring.h"

__extension__ typedef unsigned __int128 u128;

#ifndef TEST_DATA_DIR
#define TEST_DATA_DIR "tests/data"
#endif

static const char *data_dir(void)
{
    const char *d = getenv("TOKENRING_TEST_DATA");
    return d && *d ? d : TEST_DATA_DIR;
}

static bool same_token(tokenring_token128 a, tokenring_token128 b)
{
    return a.hi == b.hi && a.lo == b.lo;
}

typedef struct {
    size_t vectors, ok, errors, mismatched;
    bool quiet;
} tally;

static size_t seq_stride(void)
{
    const char *quick = getenv("TOKENRING_TEST_QUICK");
    return quick && *quick && strcmp(quick, "0") != 0 ? 6 : 1;
}

static void run_file(const char *name, uint32_t release, tally *t)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", data_dir(), name);
    FILE *fp = fopen(path, "r");
    if (!fp)
        fail_msg("cannot open %s", path);
    char *line = NULL;
    size_t linecap = 0;
    ssize_t len;
    tokenring_topology *topo = NULL;
    tokenring_token128 *want = NULL, *got = NULL;
    size_t wantcap = 0, gotcap = 0;
    char seq[256] = "";
    unsigned lineno = 0;
    size_t seq_index = 0, stride = seq_stride();
    bool skipping = false;
    while ((len = getline(&line, &linecap, fp)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (len == 0 || line[0] == '#')
            continue;
        char *f[10];
        size_t nf = a128_split_tabs(line, f, 10);
        tokenring_error err;
        memset(&err, 0, sizeof err);
        if (strcmp(f[0], "seq") == 0) {
            skipping = seq_index++ % stride != 0;
            tokenring_topology_free(topo);
            assert_int_equal(tokenring_topology_new_partitioned(&topo,
                                                                TOKENRING_PARTITIONER_RANDOM),
                             TOKENRING_OK);
            snprintf(seq, sizeof seq, "%s", nf > 1 ? f[1] : "?");
            continue;
        }
        if (skipping)
            continue;
        if (strcmp(f[0], "node") == 0) {
            assert_int_equal(nf, 6);
            size_t n = a128_tokens(f[5], &want, &wantcap);
            int rc = tokenring_topology_add_node128(topo, f[1], f[2], f[3], want, n, &err);
            if (rc != TOKENRING_OK)
                fail_msg("%s:%u: node %s: %s", name, lineno, f[1], err.message);
            if (strcmp(f[4], "J") == 0)
                assert_int_equal(tokenring_topology_set_state(topo, f[1], TOKENRING_STATE_JOINING,
                                                              TOKENRING_UP, &err),
                                 TOKENRING_OK);
            continue;
        }
        bool commit = strcmp(f[0], "join") == 0;
        assert_true(commit || strcmp(f[0], "probe") == 0);
        assert_int_equal(nf, 8);
        uint32_t num_tokens = (uint32_t)strtoul(f[4], NULL, 10);
        int32_t local_rf;
        tokenring_replication *ks = a128_mode_replication(f[5], &local_rf);
        tokenring_token128 first = { 0, 0 };
        bool has_first = strcmp(f[6], "-") != 0;
        if (has_first)
            first = a128_token(f[6], strlen(f[6]));
        if (gotcap < num_tokens) {
            gotcap = num_tokens;
            got = realloc(got, gotcap * sizeof *got);
            assert_non_null(got);
        }
        int rc = tokenring_allocate_cassandra128(got, num_tokens, topo, f[1], f[2], f[3], ks,
                                                 local_rf, has_first ? &first : NULL, release,
                                                 0, &err);
        tokenring_replication_free(ks);
        t->vectors++;
        if (strncmp(f[7], "ok ", 3) == 0) {
            size_t n = a128_tokens(f[7] + 3, &want, &wantcap);
            size_t diff = 0;
            if (rc == TOKENRING_OK && n == num_tokens)
                for (size_t i = 0; i < n; i++)
                    diff += !same_token(got[i], want[i]);
            if (rc != TOKENRING_OK || n != num_tokens || diff != 0) {
                t->mismatched++;
                if (!t->quiet)
                    print_message("%s:%u (%s) %s %s dc %s rack %s T %u %s: rc %d (%s), %zu of "
                                  "%zu tokens differ\n",
                                  name, lineno, seq, f[0], f[1], f[2], f[3], num_tokens, f[5],
                                  rc, err.message, diff, n);
            } else {
                t->ok++;
            }
            if (commit) {
                a128_drop_joining_holders(topo, want, n);
                int arc = tokenring_topology_add_node128(topo, f[1], f[2], f[3], want, n, &err);
                if (arc != TOKENRING_OK)
                    fail_msg("%s:%u: join %s: %s", name, lineno, f[1], err.message);
            }
        } else {
            assert_true(strncmp(f[7], "error ", 6) == 0);
            /* Cassandra failed: so must we, with the same reason */
            bool racks = strstr(f[7], "number of racks") != NULL;
            bool taken = strstr(f[7], "already assigned") != NULL;
            bool nosuch = strstr(f[7], "NoSuchElementException") != NULL;
            bool same = rc != TOKENRING_OK &&
                        (!racks || (rc == TOKENRING_E_IMPOSSIBLE &&
                                    strstr(err.message, "number of racks"))) &&
                        (!taken || (rc == TOKENRING_E_EXISTS &&
                                    strstr(err.message, "already assigned"))) &&
                        (!nosuch || (rc == TOKENRING_E_IMPOSSIBLE &&
                                     strstr(err.message, "NoSuchElementException")));
            if (taken && same) {
                /* and the same token named, in decimal as Cassandra prints it */
                const char *a = strstr(f[7], "token "), *b = strstr(err.message, "token ");
                size_t la = a ? strcspn(a + 6, " ") : 0, lb = b ? strcspn(b + 6, " ") : 0;
                same = a && b && la == lb && memcmp(a + 6, b + 6, la) == 0;
            }
            if (!same) {
                t->mismatched++;
                if (!t->quiet)
                    print_message("%s:%u (%s) expected %s, got rc %d (%s)\n", name, lineno, seq,
                                  f[7], rc, err.message);
            } else {
                t->errors++;
            }
        }
    }
    tokenring_topology_free(topo);
    free(line);
    free(want);
    free(got);
    fclose(fp);
}

static void check_release(const char *file, uint32_t release)
{
    tally t = { 0 };
    run_file(file, release, &t);
    print_message("%s: %zu vectors, %zu token sets equal, %zu errors equal, %zu differ\n", file,
                  t.vectors, t.ok, t.errors, t.mismatched);
    size_t stride = seq_stride();
    assert_true(t.vectors >= 900 / stride);
    assert_true(t.ok >= 800 / stride);
    assert_true(t.errors >= 30 / stride);
    assert_int_equal(t.mismatched, 0);
}

static void test_vectors_5_0(void **state)
{
    (void)state;
    check_release("cassandra_allocation_random_5.0.6.tsv", TOKENRING_CASSANDRA_5_0);
}

/* the newest 5.0 (5.0.9), a fresh run of the same generator: the same allocator */
static void test_vectors_5_0_9(void **state)
{
    (void)state;
    check_release("cassandra_allocation_random_5.0.9.tsv", TOKENRING_CASSANDRA_5_0);
}

static void test_vectors_4_1(void **state)
{
    (void)state;
    check_release("cassandra_allocation_random_4.1.10.tsv", TOKENRING_CASSANDRA_4_1);
}

static void test_vectors_4_0(void **state)
{
    (void)state;
    check_release("cassandra_allocation_random_4.0.19.tsv", TOKENRING_CASSANDRA_4_0);
}

/* The lines differ only in the address hash, which decides ties between equal
 * ownerships (evenly spaced rings, one replica): some vectors must change with it. */
static void test_release_hash_decides_ties(void **state)
{
    (void)state;
    if (seq_stride() > 1)
        skip(); /* the tie cases are in a few sequences only */
    tally as41 = { .quiet = true }, as40 = { .quiet = true };
    run_file("cassandra_allocation_random_4.0.19.tsv", TOKENRING_CASSANDRA_4_1, &as41);
    run_file("cassandra_allocation_random_5.0.6.tsv", TOKENRING_CASSANDRA_4_0, &as40);
    print_message("4.0 vectors read as 4.1: %zu differ; 5.0 vectors read as 4.0: %zu differ\n",
                  as41.mismatched, as40.mismatched);
    assert_true(as41.mismatched > 0);
    assert_true(as40.mismatched > 0);
}

/* ------------------------------------------------------------- argument checks */

static tokenring_token128 tok128(uint64_t hi, uint64_t lo)
{
    tokenring_token128 t = { hi, lo };
    return t;
}

/* n nodes of one token each, node i at i * 2^127 / n (+1 so none sits at 0), one rack */
static tokenring_topology *random_ring(size_t n, const char *dc)
{
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new_partitioned(&t, TOKENRING_PARTITIONER_RANDOM),
                     TOKENRING_OK);
    for (size_t i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "10.0.0.%zu", i + 1);
        u128 v = (((u128)1 << 127) / n) * i + 1;
        tokenring_token128 tk = tok128((uint64_t)(v >> 64), (uint64_t)v);
        assert_int_equal(tokenring_topology_add_node128(t, name, dc, "r1", &tk, 1, NULL),
                         TOKENRING_OK);
    }
    return t;
}

static void test_arguments(void **state)
{
    (void)state;
    tokenring_topology *t = random_ring(4, "dc1");
    tokenring_token128 out[4], keep[4];
    memset(out, 0x5a, sizeof out);
    memcpy(keep, out, sizeof out);
    tokenring_error err;
    const uint32_t r50 = TOKENRING_CASSANDRA_5_0;
#define CALL(o, nt, topo, name, dc, rack, ks, rf, fst, rel, fl)                                \
    tokenring_allocate_cassandra128(o, nt, topo, name, dc, rack, ks, rf, fst, rel, fl, &err)
    assert_int_equal(CALL(NULL, 2, t, "n", "dc1", "r1", NULL, 1, NULL, r50, 0),
                     TOKENRING_E_INVAL);
    assert_int_equal(CALL(out, 2, NULL, "n", "dc1", "r1", NULL, 1, NULL, r50, 0),
                     TOKENRING_E_INVAL);
    assert_int_equal(CALL(out, 2, t, NULL, "dc1", "r1", NULL, 1, NULL, r50, 0),
                     TOKENRING_E_INVAL);
    assert_int_equal(CALL(out, 2, t, "n", NULL, "r1", NULL, 1, NULL, r50, 0),
                     TOKENRING_E_INVAL);
    assert_int_equal(CALL(out, 2, t, "n", "dc1", NULL, NULL, 1, NULL, r50, 0),
                     TOKENRING_E_INVAL);
    assert_int_equal(CALL(out, 2, t, "n", "dc1", "r1", NULL, 1, NULL, r50, 0x80),
                     TOKENRING_E_INVAL);
    assert_int_equal(CALL(out, 2, t, "n", "dc1", "r1", NULL, 1, NULL, 0x0311, 0),
                     TOKENRING_E_UNSUPPORTED);
    assert_int_equal(CALL(out, 0, t, "n", "dc1", "r1", NULL, 1, NULL, r50, 0),
                     TOKENRING_E_RANGE);
    assert_int_equal(CALL(out, TOKENRING_LAYOUT_MAX_TOKENS + 1, t, "n", "dc1", "r1", NULL, 1,
                          NULL, r50, 0),
                     TOKENRING_E_RANGE);
    assert_int_equal(CALL(out, 2, t, "n", "dc1", "r1", NULL, 0, NULL, r50, 0),
                     TOKENRING_E_RANGE);
    assert_int_equal(CALL(out, 2, t, "10.0.0.2", "dc1", "r1", NULL, 1, NULL, r50, 0),
                     TOKENRING_E_EXISTS);
    /* an empty datacenter needs the first token, a node token (0 .. 2^127) */
    assert_int_equal(CALL(out, 2, t, "n", "dc2", "r1", NULL, 1, NULL, r50, 0),
                     TOKENRING_E_INVAL);
    assert_non_null(strstr(err.message, "first_token"));
    tokenring_token128 above = tok128(TOKENRING_TOKEN128_MAX_HI, 1);
    tokenring_token128 minimum = tok128(TOKENRING_TOKEN128_MIN_HI, TOKENRING_TOKEN128_MIN_LO);
    assert_int_equal(CALL(out, 2, t, "n", "dc2", "r1", NULL, 1, &above, r50, 0),
                     TOKENRING_E_RANGE);
    assert_int_equal(CALL(out, 2, t, "n", "dc2", "r1", NULL, 1, &minimum, r50, 0),
                     TOKENRING_E_RANGE);
    /* 1 < racks < rf: Cassandra's ConfigurationException */
    tokenring_token128 r2tok = tok128(1, 0);
    assert_int_equal(tokenring_topology_add_node128(t, "10.0.1.1", "dc1", "r2", &r2tok, 1, NULL),
                     TOKENRING_OK);
    assert_int_equal(CALL(out, 2, t, "n", "dc1", "r1", NULL, 3, NULL, r50, 0),
                     TOKENRING_E_IMPOSSIBLE);
    assert_non_null(strstr(err.message, "number of racks"));
    assert_memory_equal(out, keep, sizeof out); /* untouched by every failure */
    /* the 64-bit call refuses this topology and names the right one */
    int64_t out64[2];
    assert_int_equal(tokenring_allocate_cassandra(out64, 2, t, "n", "dc1", "r1", NULL, 1, NULL,
                                                  r50, 0, &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_non_null(strstr(err.message, "tokenring_allocate_cassandra128"));
    /* and this call refuses Murmur3 and ByteOrdered topologies */
    tokenring_topology *m3 = NULL, *bop = NULL;
    assert_int_equal(tokenring_topology_new(&m3), TOKENRING_OK);
    int64_t one = 5;
    assert_int_equal(tokenring_topology_add_node(m3, "10.0.0.1", "dc1", "r1", &one, 1, NULL),
                     TOKENRING_OK);
    assert_int_equal(CALL(out, 2, m3, "n", "dc1", "r1", NULL, 1, NULL, r50, 0),
                     TOKENRING_E_UNSUPPORTED);
    assert_non_null(strstr(err.message, "tokenring_allocate_cassandra()"));
    assert_int_equal(tokenring_topology_new_partitioned(&bop,
                                                        TOKENRING_PARTITIONER_BYTE_ORDERED),
                     TOKENRING_OK);
    const uint8_t key[] = { 'k' };
    const uint8_t *keys[] = { key };
    size_t lens[] = { 1 };
    assert_int_equal(tokenring_topology_add_node_bytes(bop, "10.0.0.1", "dc1", "r1", keys, lens,
                                                       1, NULL),
                     TOKENRING_OK);
    assert_int_equal(CALL(out, 2, bop, "n", "dc1", "r1", NULL, 1, &r2tok, r50, 0),
                     TOKENRING_E_UNSUPPORTED);
    assert_non_null(strstr(err.message, "ByteOrderedPartitioner"));
    assert_int_equal(tokenring_allocate_cassandra(out64, 2, bop, "n", "dc1", "r1", NULL, 1,
                                                  NULL, r50, 0, &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_non_null(strstr(err.message, "ByteOrderedPartitioner"));
    assert_memory_equal(out, keep, sizeof out);
#undef CALL
    tokenring_topology_free(m3);
    tokenring_topology_free(bop);
    tokenring_topology_free(t);
}

/* A token another datacenter holds steps to the next value (BigIntegerToken
 * nextValidToken: + 1, carrying into the high word, no wrap); at 2^127 there is no next
 * node token and the call fails. One token in an empty dc2 is the first token itself. */
static void test_clash_steps(void **state)
{
    (void)state;
    tokenring_topology *t = random_ring(3, "dc1");
    tokenring_error err;
    const tokenring_token128 cases[][2] = {
        { { 0, 7 }, { 0, 8 } },
        { { 3, UINT64_MAX }, { 4, 0 } },
        { { 0, 0 }, { 0, 2 } }, /* 1 is dc1's: steps twice */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        tokenring_token128 first = cases[c][0], got = { 9, 9 };
        /* free: the first token itself */
        assert_int_equal(tokenring_allocate_cassandra128(&got, 1, t, "n", "dc2", "r1", NULL, 1,
                                                         &first, TOKENRING_CASSANDRA_5_0, 0,
                                                         &err),
                         TOKENRING_OK);
        assert_true(same_token(got, first));
        assert_int_equal(tokenring_topology_add_node128(t, "10.9.0.1", "dc3", "r1", &first, 1,
                                                        NULL),
                         TOKENRING_OK);
        assert_int_equal(tokenring_allocate_cassandra128(&got, 1, t, "n", "dc2", "r1", NULL, 1,
                                                         &first, TOKENRING_CASSANDRA_5_0, 0,
                                                         &err),
                         TOKENRING_OK);
        assert_true(same_token(got, cases[c][1]));
        assert_int_equal(tokenring_topology_remove_node(t, "10.9.0.1", NULL), TOKENRING_OK);
    }
    tokenring_token128 top = tok128(TOKENRING_TOKEN128_MAX_HI, 0), got = { 9, 9 };
    assert_int_equal(tokenring_topology_add_node128(t, "10.9.0.1", "dc3", "r1", &top, 1, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_allocate_cassandra128(&got, 1, t, "n", "dc2", "r1", NULL, 1,
                                                     &top, TOKENRING_CASSANDRA_5_0, 0, &err),
                     TOKENRING_E_IMPOSSIBLE);
    assert_non_null(strstr(err.message, "2^127"));
    assert_true(got.hi == 9 && got.lo == 9);
    tokenring_topology_free(t);
}

/* 1 to 6 evenly spaced single-token nodes, one replica, 16 new tokens (more than the
 * ring has: Cassandra's split generator, splitting ranges that wrap past 2^127): the
 * tokens are distinct, ascending, in 0 .. 2^127 and join the ring as they are. */
static void test_result_in_range(void **state)
{
    (void)state;
    for (size_t n = 1; n <= 6; n++) {
        tokenring_topology *t = random_ring(n, "dc1");
        tokenring_token128 out[16];
        tokenring_error err;
        assert_int_equal(tokenring_allocate_cassandra128(out, 16, t, "10.1.0.1", "dc1", "r1",
                                                         NULL, 1, NULL,
                                                         TOKENRING_CASSANDRA_4_1, 0, &err),
                         TOKENRING_OK);
        for (size_t i = 0; i < 16; i++) {
            assert_true(out[i].hi < TOKENRING_TOKEN128_MAX_HI ||
                        (out[i].hi == TOKENRING_TOKEN128_MAX_HI && out[i].lo == 0));
            if (i > 0)
                assert_true(tokenring_token128_compare(out[i - 1], out[i]) < 0);
        }
        /* the result joins the ring as it is */
        assert_int_equal(tokenring_topology_add_node128(t, "10.1.0.1", "dc1", "r1", out, 16,
                                                        &err),
                         TOKENRING_OK);
        tokenring_topology_free(t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors_5_0),
        cmocka_unit_test(test_vectors_5_0_9),
        cmocka_unit_test(test_vectors_4_1),
        cmocka_unit_test(test_vectors_4_0),
        cmocka_unit_test(test_release_hash_decides_ties),
        cmocka_unit_test(test_arguments),
        cmocka_unit_test(test_clash_steps),
        cmocka_unit_test(test_result_in_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
