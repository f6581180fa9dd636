/* SPDX-License-Identifier: Apache-2.0 */
/* tokenring_placement_update against full builds: random topologies (1-3 datacenters,
 * 1-4 racks, 1-24 tokens per node, some nodes not in the ring), random replications
 * (SimpleStrategy and NetworkTopologyStrategy, transient factors), and random changes
 * (joins into existing and new racks and datacenters, decommissions, moves, replacements,
 * state changes, a node re-racked under the same name). After every change the updated
 * placement must equal a full build of the new ring range by range (nodes, order,
 * transient flags, set ids) and set by set; chains of updates are checked too, so a reused
 * row of a reused row is still right. */
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

static uint64_t rng_state;
static uint64_t rnd(void)
{
    return tt_splitmix64(&rng_state);
}
static int rnd_in(int lo, int hi) /* inclusive */
{
    return tt_between(&rng_state, lo, hi);
}

static int next_node_id;

static void add_random_node(tokenring_topology *t, int dcs, int racks, int max_tokens)
{
    char name[32], dc[16], rack[16];
    snprintf(name, sizeof name, "10.0.%d.%d", next_node_id / 200, next_node_id % 200);
    next_node_id++;
    snprintf(dc, sizeof dc, "dc%d", rnd_in(1, dcs));
    snprintf(rack, sizeof rack, "r%d", rnd_in(1, racks));
    int64_t tok[64];
    int n = rnd_in(1, max_tokens);
    for (int i = 0; i < n; i++)
        tok[i] = (int64_t)rnd();
    /* a clash with an existing token is refused: try again with other tokens */
    while (tokenring_topology_add_node(t, name, dc, rack, tok, (size_t)n, NULL) != TOKENRING_OK)
        for (int i = 0; i < n; i++)
            tok[i] = (int64_t)rnd();
}

static const char *random_node_name(const tokenring_topology *t)
{
    tokenring_node_info info;
    size_t count = tokenring_topology_node_count(t);
    assert_int_equal(tokenring_topology_node(&info, t, (size_t)rnd_in(0, (int)count - 1)),
                     TOKENRING_OK);
    return info.name;
}

static size_t ring_members(const tokenring_topology *t)
{
    size_t m = 0;
    tokenring_node_info info;
    for (size_t i = 0; i < tokenring_topology_node_count(t); i++) {
        assert_int_equal(tokenring_topology_node(&info, t, i), TOKENRING_OK);
        m += info.state != TOKENRING_STATE_JOINING;
    }
    return m;
}

/* One random change; the topology keeps at least one ring member. */
static void random_change(tokenring_topology *t, int dcs, int racks, int max_tokens)
{
    char name[64];
    int kind = rnd_in(0, 9);
    if (kind <= 3 || tokenring_topology_node_count(t) < 3) {
        /* join, sometimes into a new rack or datacenter */
        add_random_node(t, dcs + (kind == 3), racks + (kind == 2), max_tokens);
        return;
    }
    snprintf(name, sizeof name, "%s", random_node_name(t));
    switch (kind) {
    case 4: /* decommission */
        assert_int_equal(tokenring_topology_remove_node(t, name, NULL), TOKENRING_OK);
        if (ring_members(t) == 0)
            add_random_node(t, dcs, racks, max_tokens);
        break;
    case 5: { /* move: new tokens */
        int64_t tok[8];
        int n = rnd_in(1, 8);
        for (int i = 0; i < n; i++)
            tok[i] = (int64_t)rnd();
        (void)tokenring_topology_set_tokens(t, name, tok, (size_t)n, NULL);
        break;
    }
    case 6: { /* replacement */
        char fresh[32];
        snprintf(fresh, sizeof fresh, "10.9.%d.%d", next_node_id / 200, next_node_id % 200);
        next_node_id++;
        assert_int_equal(tokenring_topology_replace_node(t, name, fresh, NULL), TOKENRING_OK);
        break;
    }
    case 7: { /* state change */
        int state = rnd_in(0, 3);
        assert_int_equal(tokenring_topology_set_state(t, name, state, TOKENRING_UP, NULL), TOKENRING_OK);
        if (ring_members(t) == 0)
            assert_int_equal(tokenring_topology_set_state(t, name, 0, TOKENRING_UP, NULL), TOKENRING_OK);
        break;
    }
    case 8: { /* the same name in another rack: removed and added again */
        tokenring_node_info info;
        size_t at;
        assert_int_equal(tokenring_topology_find_node(&at, t, name), TOKENRING_OK);
        assert_int_equal(tokenring_topology_node(&info, t, at), TOKENRING_OK);
        int64_t tok[64];
        size_t n = info.token_count < 64 ? info.token_count : 64;
        memcpy(tok, info.tokens, n * sizeof *tok);
        char dc[32];
        snprintf(dc, sizeof dc, "%s", info.datacenter);
        assert_int_equal(tokenring_topology_remove_node(t, name, NULL), TOKENRING_OK);
        assert_int_equal(tokenring_topology_add_node(t, name, dc, "r-moved", tok, n, NULL),
                         TOKENRING_OK);
        break;
    }
    default: /* several joins at once */
        for (int k = rnd_in(2, 4); k > 0; k--)
            add_random_node(t, dcs, racks, max_tokens);
        break;
    }
}

static tokenring_replication *random_replication(int dcs)
{
    tokenring_replication *r = NULL;
    if (rnd_in(0, 3) == 0) {
        int rf = rnd_in(1, 5);
        int tr = rf > 1 && rnd_in(0, 2) == 0 ? rnd_in(1, rf - 1) : 0;
        assert_int_equal(tokenring_replication_simple(&r, rf, tr, NULL), TOKENRING_OK);
        return r;
    }
    assert_int_equal(tokenring_replication_network(&r), TOKENRING_OK);
    for (int d = 1; d <= dcs; d++) {
        char dc[16];
        snprintf(dc, sizeof dc, "dc%d", d);
        int rf = rnd_in(0, 4);
        int tr = rf > 1 && rnd_in(0, 3) == 0 ? 1 : 0;
        assert_int_equal(tokenring_replication_set_dc(r, dc, rf, tr, NULL), TOKENRING_OK);
    }
    return r;
}

static void assert_same_placement(const tokenring_placement *a, const tokenring_placement *b)
{
    const tokenring_ring *ring = tokenring_placement_ring(a);
    size_t n = 0;
    tokenring_ring_tokens(ring, &n);
    assert_int_equal(tokenring_placement_set_count(a), tokenring_placement_set_count(b));
    for (size_t i = 0; i < n; i++) {
        tokenring_replicas x, y;
        assert_int_equal(tokenring_placement_range_replicas(&x, a, i), TOKENRING_OK);
        assert_int_equal(tokenring_placement_range_replicas(&y, b, i), TOKENRING_OK);
        assert_int_equal(x.count, y.count);
        assert_memory_equal(x.nodes, y.nodes, x.count * sizeof *x.nodes);
        assert_int_equal(x.transient == NULL, y.transient == NULL);
        if (x.transient)
            assert_memory_equal(x.transient, y.transient, x.count);
        assert_int_equal(x.set_id, y.set_id);
    }
    for (size_t s = 0; s < tokenring_placement_set_count(a); s++) {
        tokenring_replicas x, y;
        assert_int_equal(tokenring_placement_set(&x, a, s), TOKENRING_OK);
        assert_int_equal(tokenring_placement_set(&y, b, s), TOKENRING_OK);
        assert_int_equal(x.range_index, y.range_index);
        assert_int_equal(x.set_id, s);
    }
}

static void random_changes_match_full_builds(void **state)
{
    (void)state;
    size_t checked = 0, rebuilt_whole = 0;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        rng_state = seed * 0x2545f4914f6cdd1dULL;
        int dcs = rnd_in(1, 3), racks = rnd_in(1, 4), max_tokens = rnd_in(1, 24);
        tokenring_topology *t = NULL;
        assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
        for (int k = rnd_in(dcs * 2, 24); k > 0; k--)
            add_random_node(t, dcs, racks, max_tokens);
        /* some nodes joining (their tokens are outside the ring) */
        if (rnd_in(0, 2) == 0)
            assert_int_equal(tokenring_topology_set_state(t, random_node_name(t),
                                                          TOKENRING_STATE_JOINING, TOKENRING_UP,
                                                          NULL),
                             TOKENRING_OK);
        if (ring_members(t) == 0)
            add_random_node(t, dcs, racks, max_tokens);
        tokenring_replication *repl = random_replication(dcs);
        uint32_t flags = TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC;
        tokenring_ring *ring = NULL;
        tokenring_placement *prev = NULL;
        assert_int_equal(tokenring_ring_build(&ring, t, NULL), TOKENRING_OK);
        assert_int_equal(tokenring_placement_build(&prev, ring, repl, flags, NULL), TOKENRING_OK);
        for (int step = 0; step < 4; step++) {
            random_change(t, dcs, racks, max_tokens);
            tokenring_ring *next = NULL;
            tokenring_placement *full = NULL, *upd = NULL;
            assert_int_equal(tokenring_ring_build(&next, t, NULL), TOKENRING_OK);
            assert_int_equal(tokenring_placement_build(&full, next, repl, flags, NULL),
                             TOKENRING_OK);
            assert_int_equal(tokenring_placement_update(&upd, prev, next, NULL), TOKENRING_OK);
            assert_ptr_equal(tokenring_placement_ring(upd), next);
            assert_same_placement(full, upd);
            checked++;
            tokenring_placement_free(full);
            tokenring_placement_free(prev);
            tokenring_ring_free(ring);
            ring = next;
            prev = upd; /* chain: the next update starts from an updated placement */
        }
        (void)rebuilt_whole;
        tokenring_placement_free(prev);
        tokenring_ring_free(ring);
        tokenring_replication_free(repl);
        tokenring_topology_free(t);
    }
    assert_int_equal(checked, 1200);
}

/* A large ring and one join: most rows must come out unchanged and equal. */
static void one_join_on_a_vnode_ring(void **state)
{
    (void)state;
    rng_state = 42;
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    for (int k = 0; k < 48; k++) {
        char name[32], dc[8], rack[8];
        snprintf(name, sizeof name, "n%02d", k);
        snprintf(dc, sizeof dc, "dc%d", k % 3 + 1);
        snprintf(rack, sizeof rack, "r%d", k / 3 % 3 + 1);
        int64_t tok[64];
        for (int i = 0; i < 64; i++)
            tok[i] = (int64_t)rnd();
        assert_int_equal(tokenring_topology_add_node(t, name, dc, rack, tok, 64, NULL),
                         TOKENRING_OK);
    }
    tokenring_replication *repl = NULL;
    assert_int_equal(tokenring_replication_parse(&repl, "dc1=3,dc2=3,dc3=3", 17, NULL),
                     TOKENRING_OK);
    tokenring_ring *r1 = NULL, *r2 = NULL;
    tokenring_placement *p1 = NULL, *p2 = NULL, *full = NULL, *same = NULL;
    assert_int_equal(tokenring_ring_build(&r1, t, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_placement_build(&p1, r1, repl, 0, NULL), TOKENRING_OK);
    /* the same ring: a new reference to the same placement */
    assert_int_equal(tokenring_placement_update(&same, p1, r1, NULL), TOKENRING_OK);
    assert_ptr_equal(same, p1);
    tokenring_placement_free(same);
    int64_t tok[64];
    for (int i = 0; i < 64; i++)
        tok[i] = (int64_t)rnd();
    assert_int_equal(tokenring_topology_add_node(t, "joined", "dc2", "r2", tok, 64, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_ring_build(&r2, t, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_placement_update(&p2, p1, r2, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_placement_build(&full, r2, repl, 0, NULL), TOKENRING_OK);
    assert_same_placement(full, p2);
    /* the previous placement is untouched and still answers for its ring */
    tokenring_placement *again = NULL;
    assert_int_equal(tokenring_placement_build(&again, r1, repl, 0, NULL), TOKENRING_OK);
    assert_same_placement(again, p1);
    tokenring_placement_free(again);
    tokenring_placement_free(full);
    tokenring_placement_free(p2);
    tokenring_placement_free(p1);
    tokenring_ring_free(r2);
    tokenring_ring_free(r1);
    tokenring_replication_free(repl);
    tokenring_topology_free(t);
}

static void bad_arguments(void **state)
{
    (void)state;
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    int64_t a[] = { 10, 20 }, b[] = { 30 }, c[] = { 40 };
    assert_int_equal(tokenring_topology_add_node(t, "a", "dc1", "r1", a, 2, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node(t, "b", "dc2", "r1", b, 1, NULL), TOKENRING_OK);
    tokenring_ring *r1 = NULL, *r2 = NULL;
    assert_int_equal(tokenring_ring_build(&r1, t, NULL), TOKENRING_OK);
    tokenring_replication *repl = NULL;
    assert_int_equal(tokenring_replication_parse(&repl, "dc1=1,dc2=1", 11, NULL), TOKENRING_OK);
    tokenring_placement *p = NULL, *q = (tokenring_placement *)&q;
    assert_int_equal(tokenring_placement_build(&p, r1, repl, 0, NULL), TOKENRING_OK);
    tokenring_error err;
    assert_int_equal(tokenring_placement_update(NULL, p, r1, &err), TOKENRING_E_INVAL);
    assert_int_equal(err.code, TOKENRING_E_INVAL);
    assert_true(strlen(err.message) > 0);
    assert_int_equal(tokenring_placement_update(&q, NULL, r1, &err), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_placement_update(&q, p, NULL, &err), TOKENRING_E_INVAL);
    assert_ptr_equal(q, (tokenring_placement *)&q);
    /* dc2 leaves: the strict placement cannot follow (the replication names it) */
    assert_int_equal(tokenring_topology_remove_node(t, "b", NULL), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node(t, "c", "dc1", "r2", c, 1, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_ring_build(&r2, t, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_placement_update(&q, p, r2, &err), TOKENRING_E_NOTFOUND);
    assert_non_null(strstr(err.message, "dc2"));
    assert_ptr_equal(q, (tokenring_placement *)&q);
    /* with ALLOW_UNKNOWN_DC it follows, like a full build */
    tokenring_placement *lax = NULL, *upd = NULL, *full = NULL;
    assert_int_equal(tokenring_placement_build(&lax, r1, repl,
                                               TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_placement_update(&upd, lax, r2, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_placement_build(&full, r2, repl,
                                               TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC, NULL),
                     TOKENRING_OK);
    assert_same_placement(full, upd);
    tokenring_placement_free(full);
    tokenring_placement_free(upd);
    tokenring_placement_free(lax);
    tokenring_placement_free(p);
    tokenring_replication_free(repl);
    tokenring_ring_free(r1);
    tokenring_ring_free(r2);
    tokenring_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_changes_match_full_builds),
        cmocka_unit_test(one_join_on_a_vnode_ring),
        cmocka_unit_test(bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
