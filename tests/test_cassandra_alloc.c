/* SPDX-License-Identifier: Apache-2.0 */
/* Cassandra's own token allocation, tokenring_allocate_cassandra() (Murmur3Partitioner)
 * and tokenring_allocate_cassandra128() (RandomPartitioner): bit-for-bit equality with
 * Cassandra's allocator on every vector of tests/data/cassandra_allocation_*.tsv and
 * cassandra_allocation_random_*.tsv (see tests/data/gen/allocation/), read by one runner
 * over a table of both partitioners' files (tokens as text), and the argument checks of
 * each. The join plan built on it is tested in test_allocate_join.c. */
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

__extension__ typedef unsigned __int128 u128;

typedef struct {
    size_t vectors, ok, errors, mismatched;
    bool quiet;
} tally;

/* One vector file: its partitioner, the release line it was made with, and how many
 * vectors, equal token sets and equal errors it must give at least (before the quick
 * mode's stride). */
typedef struct vfile {
    tokenring_partitioner p;
    const char *name;
    uint32_t release;
    size_t min_vectors, min_ok, min_errors;
} vfile;

#define M3 TOKENRING_PARTITIONER_MURMUR3
#define RP TOKENRING_PARTITIONER_RANDOM
static const vfile vfiles[] = {
    { M3, "cassandra_allocation_5.0.2.tsv", TOKENRING_CASSANDRA_5_0, 1000, 900, 0 },
    { RP, "cassandra_allocation_random_5.0.6.tsv", TOKENRING_CASSANDRA_5_0, 900, 800, 30 },
    /* the newest 5.0 (5.0.9), a fresh run of the same generator: the same allocator */
    { M3, "cassandra_allocation_5.0.9.tsv", TOKENRING_CASSANDRA_5_0, 1000, 900, 0 },
    { RP, "cassandra_allocation_random_5.0.9.tsv", TOKENRING_CASSANDRA_5_0, 900, 800, 30 },
    { M3, "cassandra_allocation_4.1.7.tsv", TOKENRING_CASSANDRA_4_1, 1000, 900, 0 },
    { RP, "cassandra_allocation_random_4.1.10.tsv", TOKENRING_CASSANDRA_4_1, 900, 800, 30 },
    { M3, "cassandra_allocation_4.0.14.tsv", TOKENRING_CASSANDRA_4_0, 1000, 900, 0 },
    { RP, "cassandra_allocation_random_4.0.19.tsv", TOKENRING_CASSANDRA_4_0, 900, 800, 30 },
};
#undef M3
#undef RP

/* Splits a comma-separated token list in place; returns the count (at most max). */
static size_t split_commas(char *s, char **t, size_t max)
{
    size_t n = 0;
    if (!*s)
        return 0;
    t[n++] = s;
    for (char *p = s; *p; p++)
        if (*p == ',') {
            *p = '\0';
            assert_true(n < max);
            t[n++] = p + 1;
        }
    return n;
}

#define MAX_T 4096 /* tokens of one vector line */

/* The typed allocation of the file's partitioner, its tokens written as text into got. */
static int allocate_typed(const vfile *v, char (*got)[48], uint32_t num_tokens,
                          const tokenring_topology *topo, char **f,
                          const tokenring_replication *ks, int32_t local_rf, const char *first,
                          tokenring_error *err)
{
    static int64_t t64[MAX_T];
    static tokenring_token128 t128[MAX_T];
    assert_true(num_tokens <= MAX_T);
    int rc;
    size_t len;
    if (v->p == TOKENRING_PARTITIONER_MURMUR3) {
        int64_t first64 = 0;
        if (first)
            assert_int_equal(tokenring_token_parse(&first64, first, strlen(first), NULL),
                             TOKENRING_OK);
        rc = tokenring_allocate_cassandra(t64, num_tokens, topo, f[1], f[2], f[3], ks, local_rf,
                                          first ? &first64 : NULL, v->release, 0, err);
        for (uint32_t i = 0; rc == TOKENRING_OK && i < num_tokens; i++)
            snprintf(got[i], sizeof got[i], "%" PRId64, t64[i]);
    } else {
        tokenring_token128 first128 = { 0, 0 };
        if (first)
            first128 = av_token128(first, strlen(first));
        rc = tokenring_allocate_cassandra128(t128, num_tokens, topo, f[1], f[2], f[3], ks,
                                             local_rf, first ? &first128 : NULL, v->release, 0,
                                             err);
        for (uint32_t i = 0; rc == TOKENRING_OK && i < num_tokens; i++)
            assert_int_equal(tokenring_token128_format(got[i], sizeof got[i], &len, t128[i]),
                             TOKENRING_OK);
    }
    return rc;
}

/* Cassandra does not see joining nodes and may take their tokens (see layout.h); they
 * are invisible to every later allocation, so dropping the joining node that holds one
 * changes nothing for the vectors that follow. Tokens compared as canonical text. */
static void drop_joining_holders(tokenring_topology *topo, char **tokens, size_t n)
{
    for (size_t i = tokenring_topology_node_count(topo); i-- > 0;) {
        tokenring_node_info info;
        assert_int_equal(tokenring_topology_node(&info, topo, i), TOKENRING_OK);
        if (info.state != TOKENRING_STATE_JOINING)
            continue;
        bool holds = false;
        for (size_t k = 0; k < info.token_count && !holds; k++) {
            char tok[48];
            size_t len;
            assert_int_equal(tokenring_topology_node_token_text(tok, sizeof tok, &len, topo, i, k),
                             TOKENRING_OK);
            for (size_t j = 0; j < n && !holds; j++)
                holds = strcmp(tok, tokens[j]) == 0;
        }
        if (holds) {
            char name[TOKENRING_MAX_NAME + 1];
            snprintf(name, sizeof name, "%s", info.name);
            assert_int_equal(tokenring_topology_remove_node(topo, name, NULL), TOKENRING_OK);
        }
    }
}

/* Replays one vector file (read as `release`), every sequence from an empty topology of
 * the file's partitioner. Every eighth allocation is also asked of
 * tokenring_allocate_cassandra_text(), which must agree. */
static void run_file(const vfile *v, uint32_t release, tally *t)
{
    vfile rv = *v;
    rv.release = release;
    v = &rv;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", av_data_dir(), v->name);
    FILE *fp = fopen(path, "r");
    if (!fp)
        fail_msg("cannot open %s", path);
    const char *name = v->name;
    char *line = NULL;
    size_t linecap = 0;
    ssize_t len;
    tokenring_topology *topo = NULL;
    static char *want[MAX_T];
    static char got[MAX_T][48];
    char seq[256] = "";
    unsigned lineno = 0;
    size_t seq_index = 0, stride = av_seq_stride();
    bool skipping = false;
    while ((len = getline(&line, &linecap, fp)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (len == 0 || line[0] == '#')
            continue;
        char *f[10];
        size_t nf = av_split_tabs(line, f, 10);
        tokenring_error err;
        memset(&err, 0, sizeof err);
        if (strcmp(f[0], "seq") == 0) {
            skipping = seq_index++ % stride != 0;
            tokenring_topology_free(topo);
            assert_int_equal(tokenring_topology_new_partitioned(&topo, v->p), TOKENRING_OK);
            snprintf(seq, sizeof seq, "%s", nf > 1 ? f[1] : "?");
            continue;
        }
        if (skipping)
            continue;
        if (strcmp(f[0], "node") == 0) {
            assert_int_equal(nf, 6);
            size_t n = split_commas(f[5], want, MAX_T);
            int rc = tokenring_topology_add_node_text(topo, f[1], f[2], f[3],
                                                      (const char *const *)want, n, &err);
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
        tokenring_replication *ks = av_mode_replication(f[5], &local_rf);
        const char *first = strcmp(f[6], "-") != 0 ? f[6] : NULL;
        int rc = allocate_typed(v, got, num_tokens, topo, f, ks, local_rf, first, &err);
        if (t->vectors % 8 == 0) {
            /* the text call: the same answer */
            tokenring_token_list *l = NULL;
            tokenring_error e2;
            int rc2 = tokenring_allocate_cassandra_text(&l, num_tokens, topo, f[1], f[2], f[3],
                                                        ks, local_rf, first, release, 0, NULL,
                                                        &e2);
            assert_int_equal(rc2, rc);
            for (uint32_t i = 0; rc == TOKENRING_OK && i < num_tokens; i++)
                assert_string_equal(tokenring_token_list_get(l, i, NULL), got[i]);
            tokenring_token_list_free(l);
        }
        tokenring_replication_free(ks);
        t->vectors++;
        if (strncmp(f[7], "ok ", 3) == 0) {
            size_t n = split_commas(f[7] + 3, want, MAX_T);
            size_t diff = 0;
            if (rc == TOKENRING_OK && n == num_tokens)
                for (size_t i = 0; i < n; i++)
                    diff += strcmp(got[i], want[i]) != 0;
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
                drop_joining_holders(topo, want, n);
                int arc = tokenring_topology_add_node_text(topo, f[1], f[2], f[3],
                                                           (const char *const *)want, n, &err);
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
    fclose(fp);
}

/* Rows `row` and `row + 1` of the table (the two partitioners' files of one release
 * line), each read as the release it was made with. */
static void check_rows(size_t row)
{
    for (size_t i = row; i < row + 2; i++) {
        const vfile *v = &vfiles[i];
        tally t = { 0 };
        run_file(v, v->release, &t);
        print_message("%s: %zu vectors, %zu token sets equal, %zu errors equal, %zu differ\n",
                      v->name, t.vectors, t.ok, t.errors, t.mismatched);
        size_t stride = av_seq_stride();
        assert_true(t.vectors >= v->min_vectors / stride);
        assert_true(t.ok >= v->min_ok / stride);
        assert_true(t.errors >= v->min_errors / stride);
        assert_int_equal(t.mismatched, 0);
    }
    assert_int_not_equal(vfiles[row].p, vfiles[row + 1].p); /* one per partitioner */
}

static void test_vectors_5_0(void **state)
{
    (void)state;
    check_rows(0);
}

static void test_vectors_5_0_9(void **state)
{
    (void)state;
    check_rows(2);
}

static void test_vectors_4_1(void **state)
{
    (void)state;
    check_rows(4);
}

static void test_vectors_4_0(void **state)
{
    (void)state;
    check_rows(6);
}

/* The lines differ only in the address hash, which decides ties between equal
 * ownerships (evenly spaced rings, one replica): the 4.0 vectors include rings where it
 * does, so some vectors of each partitioner must change with it. */
static void test_release_hash_decides_ties(void **state)
{
    (void)state;
    if (av_seq_stride() > 1)
        skip(); /* the tie cases are in a few sequences only */
    static const size_t v40[] = { 6, 7 }, v50[] = { 0, 1 }; /* rows of vfiles */
    for (size_t i = 0; i < 2; i++) {
        tally as41 = { .quiet = true }, as40 = { .quiet = true };
        run_file(&vfiles[v40[i]], TOKENRING_CASSANDRA_4_1, &as41);
        run_file(&vfiles[v50[i]], TOKENRING_CASSANDRA_4_0, &as40);
        print_message("%s: 4.0 vectors read as 4.1: %zu differ; 5.0 vectors read as 4.0: %zu "
                      "differ\n",
                      tokenring_partitioner_name(vfiles[v40[i]].p), as41.mismatched,
                      as40.mismatched);
        assert_true(as41.mismatched > 0);
        assert_true(as40.mismatched > 0);
    }
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


/* ------------------------------------------ argument checks: RandomPartitioner */

/* ------------------------------------------------------------- argument checks */

static bool same_token(tokenring_token128 a, tokenring_token128 b)
{
    return a.hi == b.hi && a.lo == b.lo;
}

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

static void test_arguments_random(void **state)
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
        cmocka_unit_test(test_address_forms),
        cmocka_unit_test(test_cassandra_throws),
        cmocka_unit_test(test_offline_ignores_racks),
        cmocka_unit_test(test_arguments_random),
        cmocka_unit_test(test_clash_steps),
        cmocka_unit_test(test_result_in_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
