/* SPDX-License-Identifier: Apache-2.0 */
/* Release rules (TOKENRING_RULES_3_0 / TOKENRING_RULES_3_2): the version parser, the
 * setters, the worked examples, and random topologies checked against a plain model of
 * Cassandra 3.0.30's NetworkTopologyStrategy.calculateNaturalEndpoints written here from
 * that release's source (skip used racks, then append the skipped nodes when the last
 * rack is met), with sets, placement_update and the unsupported transient case. */
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

static uint64_t rng_state = 0x3a11u;

static void version_rules(void **state)
{
    (void)state;
    static const struct {
        const char *v;
        int rules;
    } ok[] = {
        { "3.0.30", TOKENRING_RULES_3_0 }, { "3.0", TOKENRING_RULES_3_0 },
        { "3.1", TOKENRING_RULES_3_0 },    { "2.2.19", TOKENRING_RULES_3_0 },
        { "1.2.19", TOKENRING_RULES_3_0 }, { "3.0.0-rc1", TOKENRING_RULES_3_0 },
        { "3.2", TOKENRING_RULES_3_2 },    { "3.11.17", TOKENRING_RULES_3_2 },
        { "4.0.14", TOKENRING_RULES_3_2 }, { "4.1.7", TOKENRING_RULES_3_2 },
        { "5.0.2", TOKENRING_RULES_3_2 },  { "5.0-rc1", TOKENRING_RULES_3_2 },
        { "3.10", TOKENRING_RULES_3_2 },   { "6.0-alpha2", TOKENRING_RULES_3_2 },
        { "6.0", TOKENRING_RULES_3_2 },    { "6.0.1", TOKENRING_RULES_3_2 },
        { "2.0.17", TOKENRING_RULES_3_0 }, { "4.0", TOKENRING_RULES_3_2 },
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        int r = -1;
        assert_int_equal(tokenring_cassandra_rules_for_version(&r, ok[i].v, NULL), TOKENRING_OK);
        assert_int_equal(r, ok[i].rules);
    }
    static const struct {
        const char *v;
        int rc;
    } bad[] = {
        { "", TOKENRING_E_PARSE },       { "3", TOKENRING_E_PARSE },
        { "x.1", TOKENRING_E_PARSE },    { "3.a", TOKENRING_E_PARSE },
        { "3.0.30x", TOKENRING_E_PARSE }, { "3.0.1.2", TOKENRING_E_PARSE },
        { "3.", TOKENRING_E_PARSE },     { "0.9", TOKENRING_E_RANGE },
        { "100.0", TOKENRING_E_RANGE },  { "3.99999999999", TOKENRING_E_RANGE },
        /* release lines the library does not know: refused, not guessed */
        { "10.0", TOKENRING_E_RANGE },   { "7.0", TOKENRING_E_RANGE },
        { "6.1", TOKENRING_E_RANGE },    { "5.1", TOKENRING_E_RANGE },
        { "4.2", TOKENRING_E_RANGE },    { "3.12", TOKENRING_E_RANGE },
        { "1.1", TOKENRING_E_RANGE },    { "2.3", TOKENRING_E_RANGE },
        { "1.0.12", TOKENRING_E_RANGE }, { "6.0x", TOKENRING_E_PARSE },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int r = 77;
        tokenring_error err = { 0 };
        assert_int_equal(tokenring_cassandra_rules_for_version(&r, bad[i].v, &err), bad[i].rc);
        assert_int_equal(r, 77);
        assert_non_null(strstr(err.message, "Cassandra version"));
    }
    tokenring_error e7 = { 0 };
    int r7 = 0;
    assert_int_equal(tokenring_cassandra_rules_for_version(&r7, "7.0.1", &e7), TOKENRING_E_RANGE);
    assert_non_null(strstr(e7.message, "unknown release line 7.0"));
    assert_non_null(strstr(e7.message, "6.0"));
    int r = 0;
    tokenring_error err = { 0 };
    assert_int_equal(tokenring_cassandra_rules_for_version(NULL, "3.0", &err), TOKENRING_E_INVAL);
    assert_non_null(strstr(err.message, "rules_out"));
    assert_int_equal(tokenring_cassandra_rules_for_version(&r, NULL, &err), TOKENRING_E_INVAL);
    assert_non_null(strstr(err.message, "version"));
}

static void setters(void **state)
{
    (void)state;
    tokenring_replication *r, *s;
    assert_int_equal(tokenring_replication_parse(&r, "dc1=3", 5, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_replication_rules(r), TOKENRING_RULES_LATEST);
    assert_int_equal(TOKENRING_RULES_LATEST, TOKENRING_RULES_3_2);
    assert_int_equal(tokenring_replication_set_rules(r, TOKENRING_RULES_3_0), TOKENRING_OK);
    assert_int_equal(tokenring_replication_rules(r), TOKENRING_RULES_3_0);
    assert_int_equal(tokenring_replication_set_rules(r, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_replication_set_rules(r, 3), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_replication_rules(r), TOKENRING_RULES_3_0);
    assert_int_equal(tokenring_replication_set_rules(NULL, TOKENRING_RULES_3_0),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_replication_rules(NULL), 0);
    assert_int_equal(tokenring_replication_set_rules(r, TOKENRING_RULES_3_2), TOKENRING_OK);
    assert_int_equal(tokenring_replication_rules(r), TOKENRING_RULES_3_2);
    assert_int_equal(tokenring_replication_simple(&s, 2, 0, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_replication_rules(s), TOKENRING_RULES_LATEST);
    tokenring_replication_free(r);
    tokenring_replication_free(s);
}

/* The names of the replicas of `token`. */
static void names_of(char *out, size_t cap, const tokenring_placement *pl, int64_t token)
{
    tokenring_replicas rep;
    assert_int_equal(tokenring_placement_replicas(&rep, pl, token), TOKENRING_OK);
    out[0] = '\0';
    for (uint32_t i = 0; i < rep.count; i++) {
        tokenring_node_info n;
        assert_int_equal(tokenring_ring_node_brief(&n, tokenring_placement_ring(pl), rep.nodes[i]),
                         TOKENRING_OK);
        size_t len = strlen(out);
        snprintf(out + len, cap - len, "%s%s", i ? "," : "", n.name);
    }
}

static tokenring_placement *place(const tokenring_ring *ring, const char *repl, int rules)
{
    tokenring_replication *r;
    tokenring_placement *pl;
    assert_int_equal(tokenring_replication_parse(&r, repl, strlen(repl), NULL), TOKENRING_OK);
    assert_int_equal(tokenring_replication_set_rules(r, rules), TOKENRING_OK);
    assert_int_equal(tokenring_placement_build(&pl, ring, r, 0, NULL), TOKENRING_OK);
    tokenring_replication_free(r); /* the placement keeps a copy, with the rules */
    return pl;
}

/* The two orders of the semantics notes: one datacenter with racks r1 r1 r1 r2 and rf 3;
 * and the 2-datacenter ring of the replicas_2dc_single_token vectors, token 0. */
static void worked_examples(void **state)
{
    (void)state;
    tokenring_topology *t;
    tokenring_ring *ring;
    char buf[256];
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    const char *names[] = { "A", "B", "C", "D" }, *racks[] = { "r1", "r1", "r1", "r2" };
    for (int i = 0; i < 4; i++) {
        int64_t tok = i * 10;
        assert_int_equal(tokenring_topology_add_node(t, names[i], "dc1", racks[i], &tok, 1, NULL),
                         TOKENRING_OK);
    }
    assert_int_equal(tokenring_ring_build(&ring, t, NULL), TOKENRING_OK);
    tokenring_placement *p32 = place(ring, "dc1=3", TOKENRING_RULES_3_2);
    tokenring_placement *p30 = place(ring, "dc1=3", TOKENRING_RULES_3_0);
    names_of(buf, sizeof buf, p32, 5);
    assert_string_equal(buf, "B,C,D");
    names_of(buf, sizeof buf, p30, 5);
    assert_string_equal(buf, "B,D,C");
    tokenring_placement_free(p32);
    tokenring_placement_free(p30);
    tokenring_ring_free(ring);
    tokenring_topology_free(t);

    /* dc1 a0..a5 on racks r1 r2 r3, dc2 b0..b3 on r1 r2: the tokens of the vectors'
     * walk from token 0 (semantics notes 5.2). */
    static const struct {
        const char *name, *dc, *rack;
        int64_t token;
    } n[] = {
        { "a2", "dc1", "r3", INT64_C(968569377691113668) },
        { "b0", "dc2", "r1", INT64_C(1449047623157679587) },
        { "a4", "dc1", "r2", INT64_C(2831242728071673193) },
        { "b2", "dc2", "r1", INT64_C(-9081300425231719150) },
        { "a0", "dc1", "r1", INT64_C(-8764025639020300938) },
        { "a5", "dc1", "r3", INT64_C(-8297121921760562460) },
        { "b3", "dc2", "r2", INT64_C(-5475720035394849140) },
        { "a1", "dc1", "r2", INT64_C(-1080535365710241154) },
    };
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    for (size_t i = 0; i < sizeof n / sizeof *n; i++)
        assert_int_equal(tokenring_topology_add_node(t, n[i].name, n[i].dc, n[i].rack,
                                                     &n[i].token, 1, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_ring_build(&ring, t, NULL), TOKENRING_OK);
    p32 = place(ring, "dc1=3,dc2=3", TOKENRING_RULES_3_2);
    p30 = place(ring, "dc1=3,dc2=3", TOKENRING_RULES_3_0);
    names_of(buf, sizeof buf, p32, 0);
    assert_string_equal(buf, "a2,b0,a4,b2,a0,b3");
    names_of(buf, sizeof buf, p30, 0);
    assert_string_equal(buf, "a2,b0,a4,a0,b3,b2");
    tokenring_placement_free(p32);
    tokenring_placement_free(p30);
    tokenring_ring_free(ring);
    tokenring_topology_free(t);
}

/* ------------------------------------------------------------------ the model */

enum { MAX_NODES = 24, MAX_TOK = 12, MAX_DC = 3, MAX_RING = MAX_NODES * MAX_TOK };

typedef struct {
    char name[8], dc[8], rack[8];
    int64_t tokens[MAX_TOK];
    int ntok;
} mnode;

typedef struct {
    int64_t token;
    int node;
} mtok;

static int cmp_tok(const void *a, const void *b)
{
    const mtok *x = a, *y = b;
    return x->token < y->token ? -1 : x->token > y->token;
}

static bool in_list(const int *list, int n, int v)
{
    for (int i = 0; i < n; i++)
        if (list[i] == v)
            return true;
    return false;
}

/* calculateNaturalEndpoints of Cassandra 3.0.30, transcribed: one walk; per datacenter a
 * replica set, a seen-rack set and a skipped list (insertion ordered, no duplicates). */
static int model_30(int *out, const mnode *nodes, int nn, const mtok *ring, int nr,
                    const char (*dcs)[8], const int *rfs, int ndc, int64_t search)
{
    int first = 0;
    while (first < nr && ring[first].token < search)
        first++;
    if (first == nr)
        first = 0;
    int count = 0;
    int dc_count[MAX_DC] = { 0 }, dc_nodes[MAX_DC] = { 0 }, dc_racks[MAX_DC] = { 0 };
    int seen_n[MAX_DC] = { 0 }, skip_n[MAX_DC] = { 0 };
    const char *seen[MAX_DC][MAX_NODES];
    int skipped[MAX_DC][MAX_NODES];
    for (int d = 0; d < ndc; d++) {
        const char *racks[MAX_NODES];
        int nrk = 0;
        for (int v = 0; v < nn; v++) {
            if (strcmp(nodes[v].dc, dcs[d]) != 0)
                continue;
            dc_nodes[d]++;
            bool have = false;
            for (int k = 0; k < nrk; k++)
                have |= strcmp(racks[k], nodes[v].rack) == 0;
            if (!have)
                racks[nrk++] = nodes[v].rack;
        }
        dc_racks[d] = nrk;
    }
#define WANT(d) (rfs[d] < dc_nodes[d] ? rfs[d] : dc_nodes[d])
#define SUFFICIENT(d) (dc_count[d] >= WANT(d))
    for (int w = 0; w < nr; w++) {
        bool all = true;
        for (int d = 0; d < ndc; d++)
            all &= SUFFICIENT(d);
        if (all)
            break;
        int v = ring[(first + w) % nr].node;
        int d = -1;
        for (int k = 0; k < ndc; k++)
            if (strcmp(nodes[v].dc, dcs[k]) == 0)
                d = k;
        if (d < 0 || SUFFICIENT(d))
            continue;
        if (seen_n[d] == dc_racks[d]) {
            if (!in_list(out, count, v)) {
                out[count++] = v;
                dc_count[d]++;
            }
            continue;
        }
        bool seen_rack = false;
        for (int k = 0; k < seen_n[d]; k++)
            seen_rack |= strcmp(seen[d][k], nodes[v].rack) == 0;
        if (seen_rack) {
            if (!in_list(skipped[d], skip_n[d], v))
                skipped[d][skip_n[d]++] = v;
            continue;
        }
        if (!in_list(out, count, v)) {
            out[count++] = v;
            dc_count[d]++;
        }
        seen[d][seen_n[d]++] = nodes[v].rack;
        if (seen_n[d] == dc_racks[d])
            for (int k = 0; k < skip_n[d] && !SUFFICIENT(d); k++)
                if (!in_list(out, count, skipped[d][k])) {
                    out[count++] = skipped[d][k];
                    dc_count[d]++;
                }
    }
#undef WANT
#undef SUFFICIENT
    return count;
}

static void random_against_model(void **state)
{
    (void)state;
    int worlds = getenv("TOKENRING_TEST_QUICK") ? 60 : 400;
    long compared = 0, differ = 0;
    for (int world = 0; world < worlds; world++) {
        static mnode nodes[MAX_NODES];
        static mtok ring[MAX_RING];
        int nn = tt_between(&rng_state, 1, MAX_NODES), nr = 0;
        int ndc = tt_between(&rng_state, 1, MAX_DC);
        char dcs[MAX_DC][8];
        int rfs[MAX_DC];
        for (int d = 0; d < ndc; d++) {
            snprintf(dcs[d], sizeof dcs[d], "dc%d", d + 1);
            rfs[d] = tt_between(&rng_state, 0, 6);
        }
        tokenring_topology *t;
        assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
        for (int v = 0; v < nn; v++) {
            mnode *m = &nodes[v];
            snprintf(m->name, sizeof m->name, "n%d", v);
            snprintf(m->dc, sizeof m->dc, "dc%d", tt_between(&rng_state, 1, ndc));
            snprintf(m->rack, sizeof m->rack, "r%d", tt_between(&rng_state, 1, 4));
            m->ntok = tt_between(&rng_state, 1, MAX_TOK);
            for (int k = 0; k < m->ntok; k++) {
                int64_t tok;
                bool dup;
                do {
                    /* a small token space makes exact hits on ring tokens common */
                    tok = (int64_t)(tt_splitmix64(&rng_state) % 4000) - 2000;
                    dup = false;
                    for (int j = 0; j < nr; j++)
                        dup |= ring[j].token == tok;
                } while (dup);
                m->tokens[k] = tok;
                ring[nr++] = (mtok){ tok, v };
            }
            assert_int_equal(tokenring_topology_add_node(t, m->name, m->dc, m->rack, m->tokens,
                                                         (size_t)m->ntok, NULL), TOKENRING_OK);
        }
        qsort(ring, (size_t)nr, sizeof *ring, cmp_tok);
        tokenring_ring *tr;
        assert_int_equal(tokenring_ring_build(&tr, t, NULL), TOKENRING_OK);
        tokenring_replication *r;
        assert_int_equal(tokenring_replication_network(&r), TOKENRING_OK);
        for (int d = 0; d < ndc; d++)
            assert_int_equal(tokenring_replication_set_dc(r, dcs[d], rfs[d], 0, NULL), TOKENRING_OK);
        tokenring_placement *p32, *p30;
        assert_int_equal(tokenring_placement_build(&p32, tr, r, TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC,
                                                   NULL), TOKENRING_OK);
        assert_int_equal(tokenring_replication_set_rules(r, TOKENRING_RULES_3_0), TOKENRING_OK);
        assert_int_equal(tokenring_placement_build(&p30, tr, r, TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC,
                                                   NULL), TOKENRING_OK);
        for (int q = 0; q < 60; q++) {
            int64_t tok = q < nr ? ring[q].token : (int64_t)(tt_splitmix64(&rng_state) % 4400) - 2200;
            int want[MAX_NODES];
            int nw = model_30(want, nodes, nn, ring, nr, (const char (*)[8])dcs, rfs, ndc, tok);
            tokenring_replicas a, b;
            assert_int_equal(tokenring_placement_replicas(&a, p30, tok), TOKENRING_OK);
            assert_int_equal(tokenring_placement_replicas(&b, p32, tok), TOKENRING_OK);
            assert_int_equal(a.count, (uint32_t)nw);
            assert_int_equal(b.count, (uint32_t)nw);
            bool same_order = true;
            for (int i = 0; i < nw; i++) {
                tokenring_node_info info;
                assert_int_equal(tokenring_ring_node_brief(&info, tr, a.nodes[i]), TOKENRING_OK);
                assert_string_equal(info.name, nodes[want[i]].name);
                /* the 3.2 rules choose the same set */
                bool found = false;
                for (uint32_t j = 0; j < b.count; j++)
                    found |= b.nodes[j] == a.nodes[i];
                assert_true(found);
                same_order &= a.nodes[i] == b.nodes[i];
            }
            compared++;
            differ += !same_order;
        }
        /* placement_update keeps the rules: a node leaves, update equals a 3.0 build */
        if (nn > 1) {
            tokenring_topology *t2;
            tokenring_ring *tr2;
            tokenring_placement *up, *full;
            assert_int_equal(tokenring_topology_clone(&t2, t), TOKENRING_OK);
            assert_int_equal(tokenring_topology_remove_node(t2, nodes[world % nn].name, NULL),
                             TOKENRING_OK);
            assert_int_equal(tokenring_ring_build(&tr2, t2, NULL), TOKENRING_OK);
            assert_int_equal(tokenring_placement_update(&up, p30, tr2, NULL), TOKENRING_OK);
            assert_int_equal(tokenring_placement_build(&full, tr2, r,
                                                       TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC, NULL),
                             TOKENRING_OK);
            size_t n2;
            const int64_t *toks = tokenring_ring_tokens(tr2, &n2);
            for (size_t i = 0; i < n2; i++) {
                tokenring_replicas a, b;
                assert_int_equal(tokenring_placement_replicas(&a, up, toks[i]), TOKENRING_OK);
                assert_int_equal(tokenring_placement_replicas(&b, full, toks[i]), TOKENRING_OK);
                assert_int_equal(a.count, b.count);
                assert_memory_equal(a.nodes, b.nodes, a.count * sizeof *a.nodes);
            }
            tokenring_placement_free(up);
            tokenring_placement_free(full);
            tokenring_ring_free(tr2);
            tokenring_topology_free(t2);
        }
        tokenring_placement_free(p30);
        tokenring_placement_free(p32);
        tokenring_replication_free(r);
        tokenring_ring_free(tr);
        tokenring_topology_free(t);
    }
    /* the two rules must really differ on some of these worlds, or the test proves little */
    assert_true(differ > 0);
    assert_true(differ < compared);
}

static void transient_unsupported(void **state)
{
    (void)state;
    tokenring_topology *t;
    tokenring_ring *ring;
    tokenring_placement *pl = (tokenring_placement *)&rng_state;
    int64_t tok = 1;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node(t, "A", "dc1", "r1", &tok, 1, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_ring_build(&ring, t, NULL), TOKENRING_OK);
    const char *forms[] = { "dc1=3/1", "SimpleStrategy:3/1" };
    for (int i = 0; i < 2; i++) {
        tokenring_replication *r;
        tokenring_error err = { 0 };
        assert_int_equal(tokenring_replication_parse(&r, forms[i], strlen(forms[i]), NULL),
                         TOKENRING_OK);
        assert_int_equal(tokenring_replication_set_rules(r, TOKENRING_RULES_3_0), TOKENRING_OK);
        assert_int_equal(tokenring_placement_build(&pl, ring, r, 0, &err), TOKENRING_E_UNSUPPORTED);
        assert_ptr_equal(pl, (tokenring_placement *)&rng_state);
        assert_non_null(strstr(err.message, "transient"));
        tokenring_replication_free(r);
    }
    /* SimpleStrategy without transients: the same under both rules */
    tokenring_replication *r;
    assert_int_equal(tokenring_replication_simple(&r, 1, 0, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_replication_set_rules(r, TOKENRING_RULES_3_0), TOKENRING_OK);
    assert_int_equal(tokenring_placement_build(&pl, ring, r, 0, NULL), TOKENRING_OK);
    tokenring_replicas rep;
    assert_int_equal(tokenring_placement_replicas(&rep, pl, 0), TOKENRING_OK);
    assert_int_equal(rep.count, 1);
    tokenring_placement_free(pl);
    tokenring_replication_free(r);
    tokenring_ring_free(ring);
    tokenring_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(version_rules),
        cmocka_unit_test(setters),
        cmocka_unit_test(worked_examples),
        cmocka_unit_test(random_against_model),
        cmocka_unit_test(transient_unsupported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
