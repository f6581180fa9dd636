/* SPDX-License-Identifier: Apache-2.0 */
/* tokenring_history_*: Cassandra 6.0's replica order replayed from a cluster's history,
 * against the vectors of tests/data/cassandra6 (6.0-alpha2's own ClusterMetadata
 * transformations run on the same scripts, tests/data/gen/cassandra6). After every step
 * of every script, every range's read replicas of every distinct replication must equal
 * Cassandra's, in order; then the errors of bad histories. */
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
#include "testdata.h"

static const char *const SCENARIOS[] = { "simple_1dc_vnodes", "nts_2dc_3racks_vnodes",
                                         "nts_3dc_single_token", "live_stage",
                                         "bucket_collisions_3dc", "transient_single_token",
                                         "transient_bucket_collisions" };

/* The replication of keyspace `name` in the script (system keyspaces: 6.0's). */
static tokenring_replication *keyspace_repl(const char *script, const char *name)
{
    const char *spec = strcmp(name, "system_auth") == 0          ? "1"
                       : strcmp(name, "system_traces") == 0      ? "2"
                       : strcmp(name, "system_distributed") == 0 ? "3"
                                                                 : NULL;
    char buf[256];
    if (!spec) {
        char want[160];
        snprintf(want, sizeof want, "\nkeyspace %s ", name);
        const char *at = strstr(script, want);
        assert_non_null(at);
        at += strlen(want);
        size_t n = strcspn(at, "\n");
        assert_true(n < sizeof buf);
        memcpy(buf, at, n);
        buf[n] = 0;
        spec = buf;
    }
    tokenring_replication *r = NULL;
    assert_int_equal(tokenring_replication_parse(&r, spec, strlen(spec), NULL), TOKENRING_OK);
    return r;
}

/* Compares one "place" line with the history's placement; returns 1. */
static int check_place(const tokenring_history *h, const char *script, char *line,
                       const char *step)
{
    char *save = NULL;
    strtok_r(line, " ", &save); /* "place" */
    char *kss = strtok_r(NULL, " ", &save);
    long long start = strtoll(strtok_r(NULL, " ", &save), NULL, 10);
    long long end = strtoll(strtok_r(NULL, " ", &save), NULL, 10);
    char *eps = strtok_r(NULL, " ", &save);
    (void)start;
    char first[128];
    snprintf(first, sizeof first, "%.*s", (int)strcspn(kss, ","), kss);
    tokenring_replication *r = keyspace_repl(script, first);
    tokenring_placement *p = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_history_placement(&p, h, r, &err), TOKENRING_OK);
    assert_int_equal(tokenring_placement_order(p), TOKENRING_ORDER_HISTORY);
    const tokenring_ring *ring = tokenring_history_ring(h);
    /* (t_last, min]: 6.0 keeps it apart from (min, t_0] (its order may differ); the
     * placement answers it for the tokens above the largest ring token */
    size_t nt = 0;
    const int64_t *toks = tokenring_ring_tokens(ring, &nt);
    tokenring_replicas rr;
    if (end == INT64_MIN) {
        assert_true(toks[nt - 1] < INT64_MAX);
        assert_int_equal(tokenring_placement_replicas(&rr, p, toks[nt - 1] + 1), TOKENRING_OK);
    } else {
        uint32_t idx = tokenring_ring_search(ring, end);
        assert_true(toks[idx] == end);
        assert_int_equal(tokenring_placement_range_replicas(&rr, p, idx), TOKENRING_OK);
    }
    char got[512] = "";
    size_t len = 0;
    for (uint32_t k = 0; k < rr.count; k++) {
        tokenring_node_info info;
        assert_int_equal(tokenring_ring_node(&info, ring, rr.nodes[k]), TOKENRING_OK);
        len += (size_t)snprintf(got + len, sizeof got - len, "%s%s%s", k ? "," : "", info.name,
                                rr.transient && rr.transient[k] ? "/t" : "");
    }
    if (strcmp(got, eps ? eps : "") != 0)
        fail_msg("%s: %s (%lld, %lld]: library %s, Cassandra %s", step, kss, start, end, got,
                 eps ? eps : "");
    tokenring_placement_free(p);
    tokenring_replication_free(r);
    return 1;
}

static void vectors(void **state)
{
    (void)state;
    size_t total = 0;
    for (size_t s = 0; s < sizeof SCENARIOS / sizeof SCENARIOS[0]; s++) {
        char path[128];
        size_t slen, vlen;
        snprintf(path, sizeof path, "cassandra6/%s.script", SCENARIOS[s]);
        char *script = slurp(path, &slen);
        snprintf(path, sizeof path, "cassandra6/%s.placements", SCENARIOS[s]);
        char *vec = slurp(path, &vlen);
        tokenring_history *h = NULL;
        const char *pos = script; /* the script up to the current step's line */
        char step[4096] = "";
        size_t lists = 0;
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
                int rc = tokenring_history_replay(&h, script, (size_t)(pos - script), &err);
                if (rc != TOKENRING_OK)
                    fail_msg("%s %s: %s", SCENARIOS[s], text, err.message);
                snprintf(step, sizeof step, "%s: %.3000s", SCENARIOS[s], text);
            } else if (strncmp(line, "place ", 6) == 0) {
                lists += (size_t)check_place(h, script, line, step);
            }
        }
        assert_true(lists > 100);
        total += lists;
        tokenring_history_free(h);
        free(script);
        free(vec);
    }
    printf("history: %zu range lists equal Cassandra 6.0-alpha2's, in order\n", total);
}

/* A keyspace whose replication no keyspace of the history has gets a fresh placement:
 * the walk's replicas with the owner first; and a history's order differs from the
 * tokens' one somewhere in the vectors' live-stage history. */
static void fresh_and_differs(void **state)
{
    (void)state;
    size_t slen;
    char *script = slurp("cassandra6/live_stage.script", &slen);
    tokenring_history *h = NULL;
    assert_int_equal(tokenring_history_replay(&h, script, slen, NULL), TOKENRING_OK);
    const tokenring_ring *ring = tokenring_history_ring(h);
    size_t n = 0;
    tokenring_ring_tokens(ring, &n);
    tokenring_replication *fresh = NULL, *shared = NULL;
    assert_int_equal(tokenring_replication_parse(&fresh, "dc1=1,dc2=1", 11, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_replication_parse(&shared, "3", 1, NULL), TOKENRING_OK);
    tokenring_placement *hp = NULL, *tp = NULL;
    assert_int_equal(tokenring_history_placement(&hp, h, fresh, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_placement_build(&tp, ring, fresh, 0, NULL), TOKENRING_OK);
    for (size_t i = 0; i < n; i++) {
        tokenring_replicas a, b;
        tokenring_placement_range_replicas(&a, hp, i);
        tokenring_placement_range_replicas(&b, tp, i);
        assert_int_equal(a.count, b.count);
        /* the same set; the owner (a dc1 or dc2 node here, both replicated) first */
        assert_int_equal(a.nodes[0], b.nodes[0]);
    }
    tokenring_placement_free(hp);
    tokenring_placement_free(tp);
    assert_int_equal(tokenring_history_placement(&hp, h, shared, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_placement_build(&tp, ring, shared, 0, NULL), TOKENRING_OK);
    size_t differ = 0;
    for (size_t i = 0; i < n; i++) {
        tokenring_replicas a, b;
        tokenring_placement_range_replicas(&a, hp, i);
        tokenring_placement_range_replicas(&b, tp, i);
        assert_int_equal(a.count, b.count);
        differ += memcmp(a.nodes, b.nodes, a.count * sizeof *a.nodes) != 0;
    }
    assert_true(differ > 0);
    tokenring_placement_free(hp);
    tokenring_placement_free(tp);
    tokenring_replication_free(fresh);
    tokenring_replication_free(shared);
    tokenring_history_free(h);
    free(script);
}

static void expect_error(const char *text, int code, const char *message)
{
    tokenring_history *h = (tokenring_history *)1;
    tokenring_error err;
    assert_int_equal(tokenring_history_replay(&h, text, strlen(text), &err), code);
    if (strstr(err.message, message) == NULL)
        fail_msg("'%s': message '%s' lacks '%s'", text, err.message, message);
    assert_ptr_equal(h, (tokenring_history *)1);
}

static void errors(void **state)
{
    (void)state;
    const char *reg = "register 10.0.0.1 dc1 r1\nregister 10.0.0.2 dc1 r1\n";
    char buf[512];
    expect_error("hop 1\n", TOKENRING_E_PARSE, "unknown step 'hop'");
    expect_error("register 10.0.0.1 dc1\n", TOKENRING_E_PARSE, "want: register ADDRESS DC RACK");
    expect_error("register node-a dc1 r1\n", TOKENRING_E_PARSE, "'node-a' is not an IPv4");
    expect_error("register 10.0.0.300 dc1 r1\n", TOKENRING_E_PARSE, "not an IPv4");
    expect_error("register 10.0.0.1:x dc1 r1\n", TOKENRING_E_PARSE, "not an IPv4");
    expect_error("register 10.0.0.1:99999 dc1 r1\n", TOKENRING_E_PARSE, "not an IPv4");
    expect_error("register 10.0.0.1 dc1 r1\nregister 10.0.0.1 dc2 r1\n", TOKENRING_E_EXISTS,
                 "registered already");
    expect_error("join 10.0.0.9 5\n", TOKENRING_E_NOTFOUND, "10.0.0.9 is not registered");
    snprintf(buf, sizeof buf, "%sjoin 10.0.0.1 5,x\n", reg);
    expect_error(buf, TOKENRING_E_PARSE, "bad token");
    snprintf(buf, sizeof buf, "%sjoin 10.0.0.1 -9223372036854775808\n", reg);
    expect_error(buf, TOKENRING_E_PARSE, "bad token");
    snprintf(buf, sizeof buf, "%sjoin 10.0.0.1 5\njoin 10.0.0.2 5\n", reg);
    expect_error(buf, TOKENRING_E_EXISTS, "token 5 is already in the ring");
    snprintf(buf, sizeof buf, "%sjoin 10.0.0.1 5,5\n", reg);
    expect_error(buf, TOKENRING_E_EXISTS, "token 5 is already");
    snprintf(buf, sizeof buf, "%sjoin 10.0.0.1 5\njoin 10.0.0.1 6\n", reg);
    expect_error(buf, TOKENRING_E_EXISTS, "10.0.0.1 is already in the ring");
    snprintf(buf, sizeof buf, "%sjoin 10.0.0.1 5\nleave 10.0.0.2\n", reg);
    expect_error(buf, TOKENRING_E_NOTFOUND, "10.0.0.2 is not in the ring");
    snprintf(buf, sizeof buf, "%sjoin 10.0.0.1 5\nleave 10.0.0.1\n", reg);
    expect_error(buf, TOKENRING_E_IMPOSSIBLE, "the last node of the ring");
    snprintf(buf, sizeof buf, "%sjoin 10.0.0.1 5\nmove 10.0.0.1 6,7\n", reg);
    expect_error(buf, TOKENRING_E_PARSE, "move takes one token, not 2");
    snprintf(buf, sizeof buf, "%sjoin 10.0.0.1 5\nreplace 10.0.0.1 10.0.0.7\n", reg);
    expect_error(buf, TOKENRING_E_NOTFOUND, "10.0.0.7 is not registered");
    snprintf(buf, sizeof buf, "%sjoin 10.0.0.1 5\njoin 10.0.0.2 6\nreplace 10.0.0.1 10.0.0.2\n",
             reg);
    expect_error(buf, TOKENRING_E_EXISTS, "10.0.0.2 is already in the ring");
    expect_error("keyspace ks {'class'\n", TOKENRING_E_PARSE, "keyspace ks:");
    tokenring_error err;
    tokenring_history *h = NULL;
    assert_int_equal(tokenring_history_replay(NULL, "", 0, &err), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_history_replay(&h, NULL, 3, &err), TOKENRING_E_INVAL);
    /* the line and column of a bad step */
    snprintf(buf, sizeof buf, "# comment\n\n%sjoin 10.0.0.1 5,oops\n", reg);
    assert_int_equal(tokenring_history_replay(&h, buf, strlen(buf), &err), TOKENRING_E_PARSE);
    assert_int_equal(err.line, 5);
    assert_int_equal(err.column, 17);
    /* an empty history: no ring, no placement */
    assert_int_equal(tokenring_history_replay(&h, "", 0, NULL), TOKENRING_OK);
    assert_null(tokenring_history_ring(h));
    tokenring_replication *r = NULL;
    assert_int_equal(tokenring_replication_parse(&r, "3", 1, NULL), TOKENRING_OK);
    tokenring_placement *p = NULL;
    assert_int_equal(tokenring_history_placement(&p, h, r, &err), TOKENRING_E_EMPTY);
    assert_int_equal(tokenring_history_placement(NULL, h, r, &err), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_history_placement(&p, NULL, r, &err), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_history_placement(&p, h, NULL, &err), TOKENRING_E_INVAL);
    assert_null(tokenring_history_ring(NULL));
    tokenring_history_free(h);
    tokenring_history_free(NULL);
    /* a keyspace before the first node, with a port, a move, a replacement */
    snprintf(buf, sizeof buf,
             "keyspace ks dc1=2\nregister 10.0.0.1:7001 dc1 r1\nregister 10.0.0.2 dc1 r1\n"
             "register 10.0.0.3 dc1 r2\nunsafe_join 10.0.0.1:7001 -100,100\n"
             "join 10.0.0.2 0\nmove 10.0.0.2 50\nreplace 10.0.0.2 10.0.0.3\n");
    assert_int_equal(tokenring_history_replay(&h, buf, strlen(buf), &err), TOKENRING_OK);
    tokenring_replication_free(r);
    assert_int_equal(tokenring_replication_parse(&r, "dc1=2", 5, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_history_placement(&p, h, r, &err), TOKENRING_OK);
    tokenring_replicas rr;
    assert_int_equal(tokenring_placement_replicas(&rr, p, 50), TOKENRING_OK);
    tokenring_node_info info;
    tokenring_ring_node(&info, tokenring_history_ring(h), rr.nodes[0]);
    assert_string_equal(info.name, "10.0.0.3"); /* the owner of 50 first */
    tokenring_placement_free(p);
    tokenring_replication_free(r);
    tokenring_history_free(h);
}

/* Locked ranges and concurrent operations (6.0's LockedRanges and PlacementTransitionPlan,
 * read in the 6.0-alpha2 source; not vectors from its classes). */
static void locks(void **state)
{
    (void)state;
    /* two nodes, SimpleStrategy 1 (system_auth's replication): a join at 500 splits
     * (0, 1000000] and moves (0, 500] from B to C */
    static const char two[] = "register 10.0.0.1 dc1 r1\nregister 10.0.0.2 dc1 r1\n"
                              "register 10.0.0.3 dc1 r1\nunsafe_join 10.0.0.1 0\n"
                              "unsafe_join 10.0.0.2 1000000\n";
    tokenring_history *h = NULL;
    tokenring_error err = { 0 };
    assert_int_equal(tokenring_history_replay(&h, two, strlen(two), &err), TOKENRING_OK);
    tokenring_replication *r1 = NULL, *r9 = NULL;
    assert_int_equal(tokenring_replication_parse(&r1, "1", 1, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_replication_parse(&r9, "dc1=9", 5, NULL), TOKENRING_OK);
    int64_t rg[16];
    size_t n = 0;
    static const char join[] = "join 10.0.0.3 500";
    assert_int_equal(tokenring_history_locked_ranges(rg, 8, &n, h, r1, join, strlen(join), &err),
                     TOKENRING_OK);
    assert_int_equal(n, 3);
    int64_t want[][2] = { { 0, 1000000 }, { 0, 500 }, { 500, 1000000 } };
    for (size_t w = 0; w < 3; w++) {
        bool found = false;
        for (size_t i = 0; i < n; i++)
            found |= rg[2 * i] == want[w][0] && rg[2 * i + 1] == want[w][1];
        assert_true(found);
    }
    /* the history is unchanged: the placement after it as before */
    tokenring_placement *p = NULL;
    assert_int_equal(tokenring_history_placement(&p, h, r1, NULL), TOKENRING_OK);
    tokenring_replicas rr;
    assert_int_equal(tokenring_placement_replicas(&rr, p, 400), TOKENRING_OK);
    assert_int_equal(rr.count, 1);
    tokenring_placement_free(p);
    /* too small a buffer: the count, E_BUFSIZE */
    assert_int_equal(tokenring_history_locked_ranges(rg, 1, &n, h, r1, join, strlen(join), &err),
                     TOKENRING_E_BUFSIZE);
    assert_int_equal(n, 3);
    assert_int_equal(tokenring_history_locked_ranges(NULL, 0, &n, h, r1, join, strlen(join),
                                                     NULL),
                     TOKENRING_E_BUFSIZE);
    /* errors */
    assert_int_equal(tokenring_history_locked_ranges(rg, 8, &n, h, r9, join, strlen(join), &err),
                     TOKENRING_E_NOTFOUND);
    assert_non_null(strstr(err.message, "no keyspace of the history"));
    assert_int_equal(tokenring_history_locked_ranges(rg, 8, NULL, h, r1, join, 4, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_history_locked_ranges(rg, 8, &n, NULL, r1, join, 4, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_history_locked_ranges(rg, 8, &n, h, NULL, join, 4, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_history_locked_ranges(NULL, 8, &n, h, r1, join, 4, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_history_locked_ranges(rg, 8, &n, h, r1, NULL, 4, &err),
                     TOKENRING_E_INVAL);
    static const char *const bad[] = { "register 10.0.0.4 dc1 r1", "", "# x", "keyspace k 2",
                                       "join 10.0.0.9 5", "leave 10.0.0.3",
                                       "join 10.0.0.3 0", "move 10.0.0.1 7,8" };
    static const int bad_rc[] = { TOKENRING_E_PARSE,    TOKENRING_E_PARSE,  TOKENRING_E_PARSE,
                                  TOKENRING_E_PARSE,    TOKENRING_E_NOTFOUND, TOKENRING_E_NOTFOUND,
                                  TOKENRING_E_EXISTS,   TOKENRING_E_PARSE };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_equal(tokenring_history_locked_ranges(rg, 8, &n, h, r1, bad[i],
                                                         strlen(bad[i]), &err),
                         bad_rc[i]);
    tokenring_history_free(h);
    /* no ring: nothing to plan on */
    assert_int_equal(tokenring_history_replay(&h, "", 0, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_history_locked_ranges(rg, 8, &n, h, r1, join, strlen(join), &err),
                     TOKENRING_E_EMPTY);
    uint32_t cf[8];
    assert_int_equal(tokenring_history_concurrent(cf, 8, &n, h, join, strlen(join), &err),
                     TOKENRING_E_EMPTY);
    tokenring_history_free(h);

    /* twelve nodes, one token each at i * 10^17 (i = -6..5): joins far apart lock disjoint
     * ranges of every replication (SimpleStrategy 1, 2, 3: the system keyspaces), joins
     * next to each other meet, and so do two operations both next to the minimum token */
    char buf[2048];
    size_t at = 0;
    for (int i = 0; i < 16; i++)
        at += (size_t)snprintf(buf + at, sizeof buf - at, "register 10.0.1.%d dc1 r1\n", i + 1);
    for (int i = 0; i < 12; i++)
        at += (size_t)snprintf(buf + at, sizeof buf - at, "unsafe_join 10.0.1.%d %lld\n", i + 1,
                               (long long)(i - 6) * 100000000000000000LL);
    assert_int_equal(tokenring_history_replay(&h, buf, at, &err), TOKENRING_OK);
    static const char ops[] = "join 10.0.1.13 50\n"                  /* 0 */
                              "\n# planned next\n"
                              "join 10.0.1.14 450000000000000000\n" /* 1: far from 0 */
                              "join 10.0.1.15 150000000000000000\n" /* 2: next to 0 */
                              "leave 10.0.1.1\n"                     /* 3: -6e17, the minimum */
                              "move 10.0.1.5 -150000000000000000\n"; /* 4 */
    assert_int_equal(tokenring_history_concurrent(cf, 8, &n, h, ops, strlen(ops), &err),
                     TOKENRING_OK);
    assert_int_equal(n, 5);
    print_message("conflicts: %u %u %u %u %u\n", cf[0], cf[1], cf[2], cf[3], cf[4]);
    assert_int_equal(cf[0], UINT32_MAX);
    assert_int_equal(cf[1], UINT32_MAX);
    assert_int_equal(cf[2], 0);
    assert_int_equal(cf[3], 1);
    assert_int_equal(cf[4], 0);
    assert_int_equal(tokenring_history_concurrent(cf, 2, &n, h, ops, strlen(ops), &err),
                     TOKENRING_E_BUFSIZE);
    assert_int_equal(n, 5);
    assert_int_equal(cf[1], UINT32_MAX);
    /* a refused operation holds no locks: the third meets only the refused second */
    static const char seq[] = "join 10.0.1.13 50\njoin 10.0.1.14 150000000000000000\n"
                              "join 10.0.1.15 350000000000000000\n";
    assert_int_equal(tokenring_history_concurrent(cf, 8, &n, h, seq, strlen(seq), &err),
                     TOKENRING_OK);
    assert_int_equal(n, 3);
    assert_int_equal(cf[0], UINT32_MAX);
    assert_int_equal(cf[1], 0);
    assert_int_equal(cf[2], UINT32_MAX);
    static const char badops[] = "join 10.0.1.13 50\nregister 10.0.0.9 dc1 r1\n";
    assert_int_equal(tokenring_history_concurrent(cf, 8, &n, h, badops, strlen(badops), &err),
                     TOKENRING_E_PARSE);
    assert_int_equal(err.line, 2);
    assert_int_equal(tokenring_history_concurrent(NULL, 8, &n, h, ops, 3, &err), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_history_concurrent(cf, 8, NULL, h, ops, 3, &err), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_history_concurrent(cf, 8, &n, NULL, ops, 3, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_history_concurrent(cf, 8, &n, h, NULL, 3, &err), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_history_concurrent(cf, 8, &n, h, "", 0, &err), TOKENRING_OK);
    assert_int_equal(n, 0);
    tokenring_history_free(h);
    tokenring_replication_free(r1);
    tokenring_replication_free(r9);
}

/* The vectors of 6.0-alpha2's own Prepare* transformations (tests/data/cassandra6/
 * concurrent.vectors): every operation accepted or refused as 6.0 did. */
static void concurrent_file(const char *path, size_t min_cases)
{
    size_t len;
    char *text = slurp(path, &len);
    size_t cases = 0, ops_total = 0, agree = 0;
    char *p = text;
    while ((p = strstr(p, "reset ")) != NULL) {
        char *end = strstr(p + 1, "\nreset ");
        size_t blen = end ? (size_t)(end - p) + 1 : strlen(p);
        char *hist = calloc(blen + 1, 1), *ops = calloc(blen + 1, 1);
        bool want[16];
        size_t nops = 0, hl = 0, ol = 0;
        assert_non_null(hist);
        assert_non_null(ops);
        for (char *l = p; l < p + blen;) {
            char *e = memchr(l, '\n', (size_t)(p + blen - l));
            size_t n = e ? (size_t)(e - l) : (size_t)(p + blen - l);
            bool ok = n > 3 && memcmp(l, "ok ", 3) == 0;
            bool rej = n > 9 && memcmp(l, "rejected ", 9) == 0;
            if (ok || rej) {
                size_t skip = ok ? 3 : 9;
                memcpy(ops + ol, l + skip, n - skip);
                ol += n - skip;
                ops[ol++] = '\n';
                assert_true(nops < 16);
                want[nops++] = ok;
            } else if (!(n > 6 && memcmp(l, "reset ", 6) == 0)) {
                memcpy(hist + hl, l, n);
                hl += n;
                hist[hl++] = '\n';
            }
            l += n + 1;
        }
        tokenring_history *h = NULL;
        tokenring_error err = { 0 };
        assert_int_equal(tokenring_history_replay(&h, hist, hl, &err), TOKENRING_OK);
        uint32_t cf[16];
        size_t n = 0;
        int rc = tokenring_history_concurrent(cf, 16, &n, h, ops, ol, &err);
        if (rc != TOKENRING_OK)
            print_message("case %zu: %s\n", cases, err.message);
        assert_int_equal(rc, TOKENRING_OK);
        assert_int_equal(n, nops);
        for (size_t i = 0; i < nops; i++) {
            bool got = cf[i] == UINT32_MAX;
            if (got != want[i])
                print_message("case %zu op %zu: 6.0 %s, the library %s\n", cases, i,
                              want[i] ? "accepts" : "refuses", got ? "accepts" : "refuses");
            agree += got == want[i];
        }
        ops_total += nops;
        cases++;
        tokenring_history_free(h);
        free(hist);
        free(ops);
        p += blen;
    }
    print_message("%s: %zu clusters, %zu of %zu operations as 6.0\n", path, cases, agree,
                  ops_total);
    assert_true(cases >= min_cases);
    assert_int_equal(agree, ops_total);
    free(text);
}

static void concurrent_vectors(void **state)
{
    (void)state;
    concurrent_file("cassandra6/concurrent.vectors", 50);
    /* transient replicas: a replica turning transient or full locks its range too */
    concurrent_file("cassandra6/concurrent_transient.vectors", 30);
}

/* Transient replicas: 6.0 places them (flags in the history's placement) with one token a
 * node, and refuses them with several (ReplicationFactor.validate). */
static void transient(void **state)
{
    (void)state;
    static const char reg[] = "register 10.0.0.1 dc1 r1\nregister 10.0.0.2 dc1 r1\n"
                              "register 10.0.0.3 dc1 r1\nregister 10.0.0.4 dc1 r1\n";
    char buf[1024];
    /* a node of several tokens, then a transient keyspace: refused at the keyspace */
    snprintf(buf, sizeof buf, "%sunsafe_join 10.0.0.1 5,50\nkeyspace t 3/1\n", reg);
    expect_error(buf, TOKENRING_E_UNSUPPORTED, "Transient nodes are not allowed with multiple");
    tokenring_history *h = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_history_replay(&h, buf, strlen(buf), &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_int_equal(err.line, 6);
    assert_int_equal(err.column, 12);
    assert_non_null(strstr(err.message, "keyspace t: node 10.0.0.1 has several tokens"));
    /* a transient keyspace (NetworkTopologyStrategy too), then a node of several tokens */
    snprintf(buf, sizeof buf, "keyspace t dc1=3/1\n%sunsafe_join 10.0.0.1 5\n"
                              "join 10.0.0.2 7,9\n", reg);
    expect_error(buf, TOKENRING_E_UNSUPPORTED, "joins with 2 tokens, and a keyspace has "
                                               "transient replicas");
    /* with one token a node: placed, the walk's last replica transient, then the history's */
    snprintf(buf, sizeof buf, "%sunsafe_join 10.0.0.1 -100\nunsafe_join 10.0.0.2 0\n"
                              "unsafe_join 10.0.0.3 100\nkeyspace t 3/1\n"
                              "join 10.0.0.4 50\n", reg);
    assert_int_equal(tokenring_history_replay(&h, buf, strlen(buf), &err), TOKENRING_OK);
    tokenring_replication *r = NULL, *full = NULL;
    assert_int_equal(tokenring_replication_parse(&r, "3/1", 3, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_replication_parse(&full, "3", 1, NULL), TOKENRING_OK);
    tokenring_placement *p = NULL, *pf = NULL;
    assert_int_equal(tokenring_history_placement(&p, h, r, &err), TOKENRING_OK);
    assert_int_equal(tokenring_history_placement(&pf, h, full, &err), TOKENRING_OK);
    size_t transients = 0;
    for (uint32_t i = 0; i < 4; i++) {
        tokenring_replicas a, b;
        assert_int_equal(tokenring_placement_range_replicas(&a, p, i), TOKENRING_OK);
        assert_int_equal(tokenring_placement_range_replicas(&b, pf, i), TOKENRING_OK);
        assert_int_equal(a.count, 3);
        assert_non_null(a.transient);
        assert_null(b.transient);
        for (uint32_t k = 0; k < a.count; k++)
            transients += a.transient[k];
    }
    assert_int_equal(transients, 4); /* one transient replica a range */
    /* (-100, 0] after the join of 10.0.0.4 at 50 (6.0-alpha2's own classes on this
     * history): 10.0.0.2, 10.0.0.3/t, 10.0.0.4. 10.0.0.3 turned transient (a removal and
     * an appended addition), 10.0.0.4 joined full and was appended; the walk's order is
     * 10.0.0.2, 10.0.0.4, 10.0.0.3/t */
    tokenring_replicas rr;
    assert_int_equal(tokenring_placement_replicas(&rr, p, -50), TOKENRING_OK);
    const tokenring_ring *ring = tokenring_history_ring(h);
    static const char *const want[] = { "10.0.0.2", "10.0.0.3", "10.0.0.4" };
    static const uint8_t want_t[] = { 0, 1, 0 };
    assert_int_equal(rr.count, 3);
    for (uint32_t k = 0; k < 3; k++) {
        tokenring_node_info info;
        assert_int_equal(tokenring_ring_node(&info, ring, rr.nodes[k]), TOKENRING_OK);
        assert_string_equal(info.name, want[k]);
        assert_int_equal(rr.transient[k], want_t[k]);
    }
    tokenring_placement_free(p);
    tokenring_placement_free(pf);
    tokenring_replication_free(r);
    tokenring_replication_free(full);
    tokenring_history_free(h);
}

typedef struct {
    uint64_t calls, last_done, last_total, stop_at;
    bool monotonic;
} prog;

static int on_progress(void *user, uint64_t done, uint64_t total)
{
    prog *pg = user;
    pg->monotonic &= done >= pg->last_done && total >= done;
    pg->last_done = done;
    pg->last_total = total;
    return ++pg->calls == pg->stop_at;
}

/* tokenring_history_replay_limited: the estimate, the budget, progress and cancel. */
static void limited(void **state)
{
    (void)state;
    size_t len;
    char *script = slurp("cassandra6/nts_2dc_3racks_vnodes.script", &len);
    tokenring_history *h = NULL, *keep = (tokenring_history *)1;
    tokenring_error err;
    tokenring_limits lim;
    /* above a small budget: refused before it starts, with the estimate */
    memset(&lim, 0, sizeof lim);
    lim.budget = 1000;
    assert_int_equal(tokenring_history_replay_limited(&keep, script, len, &lim, &err),
                     TOKENRING_E_BUDGET);
    assert_ptr_equal(keep, (tokenring_history *)1);
    assert_true(lim.estimate > 1000);
    assert_non_null(strstr(err.message, "replaying the history: estimated"));
    uint64_t estimate = lim.estimate;
    /* progress: from 0 to the estimate, never backwards; the same history as without */
    prog pg = { 0, 0, 0, 0, true };
    memset(&lim, 0, sizeof lim);
    lim.progress = on_progress;
    lim.user = &pg;
    assert_int_equal(tokenring_history_replay_limited(&h, script, len, &lim, &err),
                     TOKENRING_OK);
    assert_int_equal(lim.estimate, estimate);
    assert_true(pg.calls > 20);
    assert_true(pg.monotonic);
    assert_int_equal(pg.last_done, estimate);
    assert_int_equal(pg.last_total, estimate);
    tokenring_history *plain = NULL;
    assert_int_equal(tokenring_history_replay(&plain, script, len, NULL), TOKENRING_OK);
    tokenring_replication *r = NULL;
    assert_int_equal(tokenring_replication_parse(&r, "dc1=3,dc2=2", 11, NULL), TOKENRING_OK);
    tokenring_placement *a = NULL, *b = NULL;
    assert_int_equal(tokenring_history_placement(&a, h, r, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_history_placement(&b, plain, r, NULL), TOKENRING_OK);
    size_t nt = 0;
    tokenring_ring_tokens(tokenring_history_ring(h), &nt);
    assert_true(nt > 40);
    for (uint32_t i = 0; i < nt; i++) {
        tokenring_replicas x, y;
        tokenring_placement_range_replicas(&x, a, i);
        tokenring_placement_range_replicas(&y, b, i);
        assert_int_equal(x.count, y.count);
        assert_memory_equal(x.nodes, y.nodes, x.count * sizeof *x.nodes);
    }
    tokenring_placement_free(a);
    tokenring_placement_free(b);
    tokenring_replication_free(r);
    tokenring_history_free(plain);
    tokenring_history_free(h);
    /* cancelled at the start, and in the middle: nothing made */
    for (uint64_t stop = 1; stop <= 9; stop += 8) {
        prog c = { 0, 0, 0, stop, true };
        lim.user = &c;
        keep = (tokenring_history *)1;
        assert_int_equal(tokenring_history_replay_limited(&keep, script, len, &lim, &err),
                         TOKENRING_E_CANCELLED);
        assert_ptr_equal(keep, (tokenring_history *)1);
        assert_int_equal(c.calls, stop);
        assert_non_null(strstr(err.message, "replaying the history cancelled"));
    }
    /* unlimited, NULL arguments */
    memset(&lim, 0, sizeof lim);
    lim.budget = TOKENRING_BUDGET_UNLIMITED;
    assert_int_equal(tokenring_history_replay_limited(&h, script, len, &lim, NULL), TOKENRING_OK);
    tokenring_history_free(h);
    lim.estimate = 7;
    assert_int_equal(tokenring_history_replay_limited(NULL, script, len, &lim, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(lim.estimate, 0);
    assert_int_equal(tokenring_history_replay_limited(&h, NULL, 1, &lim, &err),
                     TOKENRING_E_INVAL);
    free(script);
    /* the plain call applies the default budget: 4,000 joins of one token each (the
     * estimate reads the text; nothing is replayed) */
    static const char line[] = "join 10.0.0.1 1\n";
    size_t n = 4000, ll = sizeof line - 1;
    char *big = malloc(n * ll + 64);
    assert_non_null(big);
    for (size_t i = 0; i < n; i++)
        memcpy(big + i * ll, line, ll);
    memcpy(big + n * ll, "keyspace k 3\n# a comment\nleave 10.0.0.1\nmove 10.0.0.1 2\n", 54);
    keep = (tokenring_history *)1;
    assert_int_equal(tokenring_history_replay(&keep, big, n * ll + 54, &err),
                     TOKENRING_E_BUDGET);
    assert_non_null(strstr(err.message, "raise tokenring_limits.budget"));
    assert_ptr_equal(keep, (tokenring_history *)1);
    free(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(vectors),
        cmocka_unit_test(fresh_and_differs),
        cmocka_unit_test(errors),
        cmocka_unit_test(locks),
        cmocka_unit_test(concurrent_vectors),
        cmocka_unit_test(transient),
        cmocka_unit_test(limited),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
