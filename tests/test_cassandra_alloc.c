/* SPDX-License-Identifier: Apache-2.0 */
/* tokenring_allocate_cassandra(): bit-for-bit equality with Cassandra's own allocator on
 * every vector of tests/data/cassandra_allocation_*.tsv (see tests/data/gen/allocation/),
 * and its argument checks. */
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

#include "tokenring/tokenring.h"

#ifndef TEST_DATA_DIR
#define TEST_DATA_DIR "tests/data"
#endif

static const char *data_dir(void)
{
    const char *d = getenv("TOKENRING_TEST_DATA");
    return d && *d ? d : TEST_DATA_DIR;
}

/* Splits s in place on '\t'; returns the field count. */
static size_t split_tabs(char *s, char **f, size_t max)
{
    size_t n = 0;
    f[n++] = s;
    for (char *p = s; *p && n < max; p++)
        if (*p == '\t') {
            *p = '\0';
            f[n++] = p + 1;
        }
    return n;
}

/* Parses a comma-separated token list; returns the count (the array grows as needed). */
static size_t parse_tokens(const char *s, int64_t **out, size_t *cap)
{
    size_t n = 0;
    while (*s) {
        char *end;
        long long v = strtoll(s, &end, 10);
        assert_true(end != s);
        if (n == *cap) {
            *cap = *cap ? *cap * 2 : 64;
            *out = realloc(*out, *cap * sizeof **out);
            assert_non_null(*out);
        }
        (*out)[n++] = (int64_t)v;
        s = *end == ',' ? end + 1 : end;
    }
    return n;
}

static void drop_joining_holders(tokenring_topology *topo, const int64_t *tokens, size_t n)
{
    for (size_t i = tokenring_topology_node_count(topo); i-- > 0;) {
        tokenring_node_info info;
        assert_int_equal(tokenring_topology_node(&info, topo, i), TOKENRING_OK);
        if (info.state != TOKENRING_STATE_JOINING)
            continue;
        bool holds = false;
        for (size_t k = 0; k < info.token_count && !holds; k++)
            for (size_t j = 0; j < n && !holds; j++)
                holds = info.tokens[k] == tokens[j];
        if (holds) {
            char name[TOKENRING_MAX_NAME + 1];
            snprintf(name, sizeof name, "%s", info.name);
            assert_int_equal(tokenring_topology_remove_node(topo, name, NULL), TOKENRING_OK);
        }
    }
}

typedef struct {
    size_t vectors, ok, errors, mismatched;
    bool quiet;
} tally;

/* TOKENRING_TEST_QUICK=1 (the valgrind job) replays every sixth sequence of each file
 * (a sequence's joins depend on each other, so whole sequences are kept or skipped). */
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
    int64_t *want = NULL, *got = NULL;
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
        size_t nf = split_tabs(line, f, 10);
        tokenring_error err;
        memset(&err, 0, sizeof err);
        if (strcmp(f[0], "seq") == 0) {
            skipping = seq_index++ % stride != 0;
            tokenring_topology_free(topo);
            assert_int_equal(tokenring_topology_new(&topo), TOKENRING_OK);
            snprintf(seq, sizeof seq, "%s", nf > 1 ? f[1] : "?");
            continue;
        }
        if (skipping)
            continue;
        if (strcmp(f[0], "node") == 0) {
            assert_int_equal(nf, 6);
            size_t n = parse_tokens(f[5], &want, &wantcap);
            int rc = tokenring_topology_add_node(topo, f[1], f[2], f[3], want, n, &err);
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
        tokenring_replication *ks = NULL;
        int32_t local_rf = 0;
        const char *mode = f[5];
        if (strncmp(mode, "rf:", 3) == 0) {
            local_rf = atoi(mode + 3);
        } else if (strncmp(mode, "simple:", 7) == 0) {
            assert_int_equal(tokenring_replication_simple(&ks, atoi(mode + 7), 0, &err),
                             TOKENRING_OK);
        } else {
            assert_true(strncmp(mode, "nts:", 4) == 0);
            assert_int_equal(tokenring_replication_network(&ks), TOKENRING_OK);
            char buf[512];
            snprintf(buf, sizeof buf, "%s", mode + 4);
            for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv;
                 kv = strtok_r(NULL, ",", &save)) {
                char *eq = strchr(kv, '=');
                assert_non_null(eq);
                *eq = '\0';
                assert_int_equal(tokenring_replication_set_dc(ks, kv, atoi(eq + 1), 0, &err),
                                 TOKENRING_OK);
            }
        }
        int64_t first = 0;
        bool has_first = strcmp(f[6], "-") != 0;
        if (has_first)
            first = (int64_t)strtoll(f[6], NULL, 10);
        if (gotcap < num_tokens) {
            gotcap = num_tokens;
            got = realloc(got, gotcap * sizeof *got);
            assert_non_null(got);
        }
        int rc = tokenring_allocate_cassandra(got, num_tokens, topo, f[1], f[2], f[3], ks,
                                              local_rf, has_first ? &first : NULL, release, 0,
                                              &err);
        tokenring_replication_free(ks);
        t->vectors++;
        if (strncmp(f[7], "ok ", 3) == 0) {
            size_t n = parse_tokens(f[7] + 3, &want, &wantcap);
            bool same = rc == TOKENRING_OK && n == num_tokens &&
                        memcmp(got, want, n * sizeof *got) == 0;
            if (!same) {
                t->mismatched++;
                if (t->quiet)
                    goto next;
                size_t diff = 0;
                if (rc == TOKENRING_OK)
                    for (size_t i = 0; i < n; i++)
                        diff += got[i] != want[i];
                print_message("%s:%u (%s) %s %s dc %s rack %s T %u %s: rc %d (%s), %zu of %zu "
                              "tokens differ\n",
                              name, lineno, seq, f[0], f[1], f[2], f[3], num_tokens, mode, rc,
                              err.message, diff, n);
            } else {
                t->ok++;
            }
        next:
            if (commit) {
                /* Cassandra does not see joining nodes and may take their tokens (see
                 * layout.h); they are invisible to every later allocation, so dropping the
                 * joining node that holds one changes nothing for the vectors that follow */
                drop_joining_holders(topo, want, n);
                int arc = tokenring_topology_add_node(topo, f[1], f[2], f[3], want, n, &err);
                if (arc != TOKENRING_OK)
                    fail_msg("%s:%u: join %s: %s", name, lineno, f[1], err.message);
            }
        } else {
            assert_true(strncmp(f[7], "error ", 6) == 0);
            /* Cassandra failed: so must we, with the same reason */
            bool racks = strstr(f[7], "number of racks") != NULL;
            bool taken = strstr(f[7], "already assigned") != NULL;
            bool same = rc != TOKENRING_OK &&
                        (!racks || (rc == TOKENRING_E_IMPOSSIBLE &&
                                    strstr(err.message, "number of racks"))) &&
                        (!taken || (rc == TOKENRING_E_EXISTS &&
                                    strstr(err.message, "already assigned")));
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
    assert_true(t.vectors >= 1000 / stride);
    assert_true(t.ok >= 900 / stride);
    assert_int_equal(t.mismatched, 0);
}

static void test_vectors_5_0(void **state)
{
    (void)state;
    check_release("cassandra_allocation_5.0.2.tsv", TOKENRING_CASSANDRA_5_0);
}

/* the newest 5.0 (5.0.9), a fresh run of the same generator: the same allocator */
static void test_vectors_5_0_9(void **state)
{
    (void)state;
    check_release("cassandra_allocation_5.0.9.tsv", TOKENRING_CASSANDRA_5_0);
}

static void test_vectors_4_1(void **state)
{
    (void)state;
    check_release("cassandra_allocation_4.1.7.tsv", TOKENRING_CASSANDRA_4_1);
}

static void test_vectors_4_0(void **state)
{
    (void)state;
    check_release("cassandra_allocation_4.0.14.tsv", TOKENRING_CASSANDRA_4_0);
}

/* The lines differ only in the address hash, which decides ties: the 4.0 vectors include
 * rings where it does (evenly spaced tokens, one replica), so 4.0's hash must matter. */
static void test_release_hash_decides_ties(void **state)
{
    (void)state;
    if (seq_stride() > 1)
        skip(); /* the tie cases are in a few sequences only */
    tally as41 = { .quiet = true }, as40 = { .quiet = true };
    run_file("cassandra_allocation_4.0.14.tsv", TOKENRING_CASSANDRA_4_1, &as41);
    run_file("cassandra_allocation_5.0.2.tsv", TOKENRING_CASSANDRA_4_0, &as40);
    print_message("4.0 vectors read as 4.1: %zu differ; 5.0 vectors read as 4.0: %zu differ\n",
                  as41.mismatched, as40.mismatched);
    assert_true(as41.mismatched > 0);
    assert_true(as40.mismatched > 0);
}

static tokenring_topology *ring_of(const char *const *names, size_t n, const char *const *racks,
                                   uint32_t tokens_per_node)
{
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    for (size_t i = 0; i < n; i++) {
        int64_t tok[64];
        assert_true(tokens_per_node <= 64);
        /* evenly spaced, interleaved: every node owns exactly the same share */
        assert_int_equal(tokenring_layout_even_tokens(tok, tokens_per_node, (uint32_t)i,
                                                      (uint32_t)n),
                         TOKENRING_OK);
        assert_int_equal(tokenring_topology_add_node(t, names[i], "dc1", racks ? racks[i] : "r1",
                                                     tok, tokens_per_node, NULL),
                         TOKENRING_OK);
    }
    return t;
}

static void assert_valid(const int64_t *tok, uint32_t n, const tokenring_topology *t)
{
    for (uint32_t i = 1; i < n; i++)
        assert_true(tok[i - 1] < tok[i]);
    for (size_t k = 0; k < tokenring_topology_node_count(t); k++) {
        tokenring_node_info info;
        assert_int_equal(tokenring_topology_node(&info, t, k), TOKENRING_OK);
        for (size_t j = 0; j < info.token_count; j++)
            for (uint32_t i = 0; i < n; i++)
                assert_true(info.tokens[j] != tok[i]);
    }
}

static void test_arguments(void **state)
{
    (void)state;
    static const char *const names[] = { "10.0.0.1", "10.0.0.2", "10.0.0.3" };
    tokenring_topology *t = ring_of(names, 3, NULL, 4);
    tokenring_replication *simple0 = NULL, *simple3 = NULL;
    assert_int_equal(tokenring_replication_simple(&simple0, 0, 0, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_replication_simple(&simple3, 3, 0, NULL), TOKENRING_OK);
    int64_t out[4] = { 7, 7, 7, 7 }, first = 5;
    const uint32_t r50 = TOKENRING_CASSANDRA_5_0;
    tokenring_error err;
#define CALL(nt, topo, name, dc, rack, ks, rf, fst, rel, fl)                                  \
    tokenring_allocate_cassandra(out, nt, topo, name, dc, rack, ks, rf, fst, rel, fl, &err)
    assert_int_equal(tokenring_allocate_cassandra(NULL, 4, t, "n", "dc1", "r1", NULL, 3, NULL,
                                                  r50, 0, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(CALL(4, NULL, "n", "dc1", "r1", NULL, 3, NULL, r50, 0), TOKENRING_E_INVAL);
    assert_int_equal(CALL(4, t, NULL, "dc1", "r1", NULL, 3, NULL, r50, 0), TOKENRING_E_INVAL);
    assert_int_equal(CALL(4, t, "n", NULL, "r1", NULL, 3, NULL, r50, 0), TOKENRING_E_INVAL);
    assert_int_equal(CALL(4, t, "n", "dc1", NULL, NULL, 3, NULL, r50, 0), TOKENRING_E_INVAL);
    assert_int_equal(CALL(4, t, "n", "dc1", "r1", NULL, 3, NULL, r50, 0x80), TOKENRING_E_INVAL);
    assert_int_equal(CALL(4, t, "n", "dc1", "r1", NULL, 3, NULL, 0x0311, 0),
                     TOKENRING_E_UNSUPPORTED);
    assert_non_null(strstr(err.message, "release"));
    assert_int_equal(CALL(4, t, "", "dc1", "r1", NULL, 3, NULL, r50, 0), TOKENRING_E_INVAL);
    assert_int_equal(CALL(4, t, "n", "", "r1", NULL, 3, NULL, r50, 0), TOKENRING_E_INVAL);
    /* The rack "" is a rack like any other: a node in it gets the tokens a node in any
     * other new rack gets. */
    assert_int_equal(CALL(4, t, "n", "dc1", "", NULL, 3, NULL, r50, 0), TOKENRING_OK);
    int64_t in_empty[4];
    memcpy(in_empty, out, sizeof in_empty);
    assert_int_equal(CALL(4, t, "n", "dc1", "zz", NULL, 3, NULL, r50, 0), TOKENRING_OK);
    assert_memory_equal(in_empty, out, sizeof in_empty);
    for (int i = 0; i < 4; i++)
        out[i] = 7;
    assert_int_equal(CALL(0, t, "n", "dc1", "r1", NULL, 3, NULL, r50, 0), TOKENRING_E_RANGE);
    assert_int_equal(CALL(TOKENRING_LAYOUT_MAX_TOKENS + 1, t, "n", "dc1", "r1", NULL, 3, NULL,
                          r50, 0),
                     TOKENRING_E_RANGE);
    assert_int_equal(CALL(4, t, "n", "dc1", "r1", simple3, 3, NULL, r50, 0), TOKENRING_E_INVAL);
    assert_int_equal(CALL(4, t, "n", "dc1", "r1", NULL, 0, NULL, r50, 0), TOKENRING_E_RANGE);
    assert_int_equal(CALL(4, t, "n", "dc1", "r1", NULL, TOKENRING_MAX_RF + 1, NULL, r50, 0),
                     TOKENRING_E_RANGE);
    assert_int_equal(CALL(4, t, "n", "dc1", "r1", simple0, 0, NULL, r50, 0), TOKENRING_E_RANGE);
    assert_int_equal(CALL(4, t, "10.0.0.2", "dc1", "r1", NULL, 3, NULL, r50, 0),
                     TOKENRING_E_EXISTS);
    /* a new datacenter: Cassandra starts it at a random token, which must be given */
    assert_int_equal(CALL(4, t, "n", "dc2", "r1", NULL, 3, NULL, r50, 0), TOKENRING_E_INVAL);
    assert_non_null(strstr(err.message, "first_token"));
    for (int i = 0; i < 4; i++)
        assert_int_equal(out[i], 7); /* untouched on failure */
    assert_int_equal(CALL(4, t, "n", "dc2", "r1", NULL, 3, &first, r50, 0), TOKENRING_OK);
    assert_valid(out, 4, t);
    bool has_first = false;
    for (int i = 0; i < 4; i++)
        has_first |= out[i] == first;
    assert_true(has_first);
#undef CALL
    tokenring_replication_free(simple0);
    tokenring_replication_free(simple3);
    tokenring_topology_free(t);
}

/* Evenly spaced nodes own exactly equal shares, so with one replica the order in which
 * Cassandra's HashMap hands the nodes to its queue decides which nodes give up ranges:
 * the same addresses written in other forms must hash alike and give the same tokens. */
static void test_address_forms(void **state)
{
    (void)state;
    static const char *const plain[] = { "10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4",
                                         "fd00::5", "fd00::6" };
    static const char *const other[] = { "10.0.0.1:7000", "::ffff:10.0.0.2",
                                         "[::ffff:10.0.0.3]:7000", "[::FFFF:10.0.0.4]",
                                         "[fd00:0:0:0:0:0:0:5]:7000", "fd00:0::6" };
    static const char *const names[] = { "node-a", "1::2::3", ":1", "[::1", "1.2.3.256",
                                         "fd00::1:", "[::1]x", "10.0.0.1:99999",
                                         "1:2:3:4:5:6:7:8:9", "12345::1" };
    const uint32_t releases[] = { TOKENRING_CASSANDRA_4_0, TOKENRING_CASSANDRA_4_1,
                                  TOKENRING_CASSANDRA_5_0 };
    for (size_t r = 0; r < 3; r++) {
        tokenring_topology *a = ring_of(plain, 6, NULL, 8), *b = ring_of(other, 6, NULL, 8);
        int64_t ta[5], tb[5];
        assert_int_equal(tokenring_allocate_cassandra(ta, 5, a, "10.1.0.1", "dc1", "r1", NULL,
                                                      1, NULL, releases[r], 0, NULL),
                         TOKENRING_OK);
        assert_int_equal(tokenring_allocate_cassandra(tb, 5, b, "10.1.0.1", "dc1", "r1", NULL,
                                                      1, NULL, releases[r], 0, NULL),
                         TOKENRING_OK);
        assert_memory_equal(ta, tb, sizeof ta);
        assert_valid(ta, 5, a);
        tokenring_topology_free(a);
        tokenring_topology_free(b);
        /* names that are not addresses still allocate (a fixed hash of our own) */
        tokenring_topology *c = ring_of(names, 10, NULL, 2);
        int64_t tc[3];
        assert_int_equal(tokenring_allocate_cassandra(tc, 3, c, "x", "dc1", "r1", NULL, 1, NULL,
                                                      releases[r], 0, NULL),
                         TOKENRING_OK);
        assert_valid(tc, 3, c);
        tokenring_topology_free(c);
    }
}

/* One donor asked for more ranges than it has: Cassandra's PriorityQueue.remove() throws
 * NoSuchElementException; so the call fails. A owns 0.8 of the ring with one token, B 0.2:
 * only A is a donor (0.2 is not above (0.8 + 0.2) / 3), and it must split 2 ranges. */
static void test_cassandra_throws(void **state)
{
    (void)state;
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    int64_t a = INT64_C(5534023222112865484), b = INT64_MIN + 1; /* 0.8 and 0.0 of the ring */
    assert_int_equal(tokenring_topology_add_node(t, "10.0.0.1", "dc1", "r1", &a, 1, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node(t, "10.0.0.2", "dc1", "r1", &b, 1, NULL),
                     TOKENRING_OK);
    int64_t out[2];
    tokenring_error err;
    assert_int_equal(tokenring_allocate_cassandra(out, 2, t, "10.0.0.3", "dc1", "r1", NULL, 1,
                                                  NULL, TOKENRING_CASSANDRA_5_0, 0, &err),
                     TOKENRING_E_IMPOSSIBLE);
    assert_non_null(strstr(err.message, "NoSuchElementException"));
    tokenring_topology_free(t);
}

/* The offline generatetokens rule treats every rack as the only one: a 3-rack datacenter
 * with rf 3 is allocated exactly as the same nodes in one rack. */
static void test_offline_ignores_racks(void **state)
{
    (void)state;
    static const char *const names[] = { "10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4",
                                         "10.0.0.5", "10.0.0.6" };
    static const char *const racks[] = { "r1", "r2", "r3", "r1", "r2", "r3" };
    tokenring_topology *three = ring_of(names, 6, racks, 8), *one = ring_of(names, 6, NULL, 8);
    int64_t x[8], y[8], z[8];
    assert_int_equal(tokenring_allocate_cassandra(x, 8, three, "10.0.0.7", "dc1", "r1", NULL, 3,
                                                  NULL, TOKENRING_CASSANDRA_5_0,
                                                  TOKENRING_CASSANDRA_OFFLINE, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_allocate_cassandra(y, 8, one, "10.0.0.7", "dc1", "r1", NULL, 3,
                                                  NULL, TOKENRING_CASSANDRA_5_0, 0, NULL),
                     TOKENRING_OK);
    assert_memory_equal(x, y, sizeof x);
    /* while the bootstrap rule balances rack r1's own ring (3 racks = rf) */
    assert_int_equal(tokenring_allocate_cassandra(z, 8, three, "10.0.0.7", "dc1", "r1", NULL, 3,
                                                  NULL, TOKENRING_CASSANDRA_5_0, 0, NULL),
                     TOKENRING_OK);
    assert_memory_not_equal(x, z, sizeof x);
    tokenring_topology_free(three);
    tokenring_topology_free(one);
}

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
    snprintf(path, sizeof path, "%s/%s", data_dir(), "cassandra_allocation_5.0.2.tsv");
    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    char *line = NULL;
    size_t linecap = 0, wantcap = 0, stride = seq_stride(), seq_index = 0;
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
        size_t nf = split_tabs(line, f, 10);
        if (strcmp(f[0], "seq") == 0) {
            skipping = seq_index++ % stride != 0;
            tokenring_topology_free(topo);
            assert_int_equal(tokenring_topology_new(&topo), TOKENRING_OK);
            continue;
        }
        if (skipping)
            continue;
        if (strcmp(f[0], "node") == 0) {
            size_t n = parse_tokens(f[5], &want, &wantcap);
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
        size_t n = parse_tokens(f[7] + 3, &want, &wantcap);
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
        drop_joining_holders(topo, want, n);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors_5_0),
        cmocka_unit_test(test_vectors_5_0_9),
        cmocka_unit_test(test_vectors_4_1),
        cmocka_unit_test(test_vectors_4_0),
        cmocka_unit_test(test_release_hash_decides_ties),
        cmocka_unit_test(test_arguments),
        cmocka_unit_test(test_address_forms),
        cmocka_unit_test(test_cassandra_throws),
        cmocka_unit_test(test_offline_ignores_racks),
        cmocka_unit_test(test_join_simple_strategy),
        cmocka_unit_test(test_join_second_node),
        cmocka_unit_test(test_join_single_token_ring),
        cmocka_unit_test(test_join_default_is_cassandra),
        cmocka_unit_test(test_join_half_move_avoids_taken_tokens),
        cmocka_unit_test(test_join_arguments),
        cmocka_unit_test(test_join_never_worse_on_vectors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
