/* SPDX-License-Identifier: Apache-2.0 */
/* The views a ring builds on first use: each ring node's token list (tokenring_ring_node)
 * and the owners as 32-bit indices (tokenring_ring_token_nodes, for rings that store them
 * in 1 or 2 bytes). Checks them against the topology the ring was built from on rings of
 * each owner width (<= 256, <= 65,536 and more nodes, with nodes outside the ring), that
 * threads racing on the first call agree on one copy and leak nothing (run under
 * ThreadSanitizer by scripts/test.sh), that a thread losing the publication race frees its
 * copy, and that running out of memory while building a view returns TOKENRING_E_NOMEM,
 * leaks nothing and lets a later call succeed. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"
#include "testrng.h"

/* ------------------------------------------------- counting, failing allocator */

static atomic_long live_blocks;
static atomic_long alloc_calls;
static atomic_long fail_at; /* 0 = never; the nth allocation from now fails */
/* When set, the next allocation first runs this (once): a second caller racing in. */
static void (*_Atomic before_alloc)(void);

typedef struct {
    size_t size;
    size_t pad;
} hdr;

static bool should_fail(void)
{
    void (*hook)(void) = atomic_exchange(&before_alloc, NULL);
    if (hook)
        hook();
    long n = atomic_fetch_add(&alloc_calls, 1) + 1;
    long f = atomic_load(&fail_at);
    return f != 0 && n == f;
}

static void *t_malloc(size_t size, void *user)
{
    (void)user;
    if (should_fail())
        return NULL;
    hdr *h = malloc(sizeof(hdr) + size);
    if (!h)
        return NULL;
    h->size = size;
    atomic_fetch_add(&live_blocks, 1);
    return h + 1;
}

static void t_free(void *ptr, void *user)
{
    (void)user;
    if (!ptr)
        return;
    atomic_fetch_sub(&live_blocks, 1);
    free((hdr *)ptr - 1);
}

static void *t_realloc(void *ptr, size_t size, void *user)
{
    if (!ptr)
        return t_malloc(size, user);
    if (should_fail())
        return NULL;
    hdr *h = realloc((hdr *)ptr - 1, sizeof(hdr) + size);
    if (!h)
        return NULL;
    h->size = size;
    return h + 1;
}

static int setup(void **state)
{
    (void)state;
    static const tokenring_allocator a = { t_malloc, t_realloc, t_free, NULL };
    atomic_store(&live_blocks, 0);
    atomic_store(&fail_at, 0);
    return tokenring_set_allocator(&a);
}

static int teardown(void **state)
{
    (void)state;
    long live = atomic_load(&live_blocks);
    tokenring_set_allocator(NULL);
    return live == 0 ? 0 : -1;
}

/* Arms the failure of the nth allocation from now (0 disarms). */
static void fail_nth(long n)
{
    atomic_store(&alloc_calls, 0);
    atomic_store(&fail_at, n);
}

/* ------------------------------------------------------------------ topologies */

/* A hash of z: one splitmix64 step from state z. */
static uint64_t mix(uint64_t z)
{
    return tt_splitmix64(&z);
}

/* `nodes` nodes of `vnodes` random tokens in 3 datacenters x 2 racks, added in name order;
 * every `joining`-th node (when nonzero) is JOINING (outside the ring), and a few others
 * LEAVING or MOVING (in the ring). Node 0 is always NORMAL. */
static tokenring_topology *make_topology(uint32_t nodes, uint32_t vnodes, uint32_t joining,
                                         uint64_t seed)
{
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    int64_t *tok = malloc(vnodes * sizeof *tok);
    assert_non_null(tok);
    for (uint32_t i = 0; i < nodes; i++) {
        char name[24], dc[8], rack[8];
        snprintf(name, sizeof name, "n%07u", i);
        snprintf(dc, sizeof dc, "dc%u", i % 3);
        snprintf(rack, sizeof rack, "r%u", i / 3 % 2);
        int rc;
        do { /* a repeated token (improbable) draws again */
            for (uint32_t k = 0; k < vnodes; k++)
                tok[k] = (int64_t)mix(seed++);
            rc = tokenring_topology_add_node(t, name, dc, rack, tok, vnodes, NULL);
        } while (rc == TOKENRING_E_EXISTS);
        assert_int_equal(rc, TOKENRING_OK);
        tokenring_node_state st = TOKENRING_STATE_NORMAL;
        if (i > 0 && joining && i % joining == 0)
            st = TOKENRING_STATE_JOINING;
        else if (i % 7 == 3)
            st = TOKENRING_STATE_LEAVING;
        else if (i % 11 == 5)
            st = TOKENRING_STATE_MOVING;
        if (st != TOKENRING_STATE_NORMAL)
            assert_int_equal(tokenring_topology_set_state(t, name, st, TOKENRING_UP, NULL),
                             TOKENRING_OK);
    }
    free(tok);
    return t;
}

static tokenring_ring *build(const tokenring_topology *t)
{
    tokenring_ring *r = NULL;
    assert_int_equal(tokenring_ring_build(&r, t, NULL), TOKENRING_OK);
    return r;
}

static bool in_ring(int32_t state)
{
    return state == TOKENRING_STATE_NORMAL || state == TOKENRING_STATE_LEAVING ||
           state == TOKENRING_STATE_MOVING;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Every view of `r` against the topology it was built from: each node's token list is
 * the topology's (ascending), and each ring token's owner holds that token and is in the
 * ring; the owner lookups agree with the owner array. */
static void check_ring(const tokenring_ring *r, const tokenring_topology *t)
{
    size_t nn = tokenring_ring_node_count(r), n = 0, n2 = 0;
    assert_int_equal(nn, tokenring_topology_node_count(t));
    const int64_t *tokens = tokenring_ring_tokens(r, &n);
    const uint32_t *owners = tokenring_ring_token_nodes(r, &n2);
    assert_non_null(owners);
    assert_int_equal(n, n2);
    assert_ptr_equal(tokenring_ring_token_nodes(r, NULL), owners); /* built once */
    size_t expect_ring = 0;
    const int64_t *first_list = NULL;
    for (size_t i = 0; i < nn; i++) {
        tokenring_node_info a, b;
        assert_int_equal(tokenring_topology_node(&a, t, i), TOKENRING_OK);
        assert_int_equal(tokenring_ring_node(&b, r, (uint32_t)i), TOKENRING_OK);
        assert_string_equal(a.name, b.name);
        assert_int_equal(a.state, b.state);
        assert_int_equal(a.token_count, b.token_count);
        assert_non_null(b.tokens);
        assert_memory_equal(a.tokens, b.tokens, a.token_count * sizeof *a.tokens);
        for (size_t k = 1; k < b.token_count; k++)
            assert_true(b.tokens[k - 1] < b.tokens[k]);
        if (in_ring(b.state)) {
            expect_ring += b.token_count;
            if (!first_list)
                first_list = b.tokens;
        }
        tokenring_node_info again;
        assert_int_equal(tokenring_ring_node(&again, r, (uint32_t)i), TOKENRING_OK);
        assert_ptr_equal(again.tokens, b.tokens);
    }
    assert_int_equal(n, expect_ring);
    for (size_t i = 0; i < n; i++) {
        uint32_t o = owners[i];
        assert_true(o < nn);
        tokenring_node_info a;
        assert_int_equal(tokenring_topology_node(&a, t, o), TOKENRING_OK);
        assert_true(in_ring(a.state));
        assert_non_null(bsearch(&tokens[i], a.tokens, a.token_count, sizeof *a.tokens,
                                cmp_i64));
        uint32_t via = UINT32_MAX;
        assert_int_equal(tokenring_ring_owner(&via, r, tokens[i]), TOKENRING_OK);
        assert_int_equal(via, o);
        assert_int_equal(tokenring_ring_owner(&via, r, (int64_t)((uint64_t)tokens[i] - 1)),
                         TOKENRING_OK);
        assert_int_equal(via, o); /* the range (t_{i-1}, t_i] ends at t_i */
        tokenring_range rg;
        assert_int_equal(tokenring_ring_range(&rg, r, i), TOKENRING_OK);
        assert_int_equal(rg.owner, o);
    }
}

static void ring_of(uint32_t nodes, uint32_t vnodes, uint32_t joining, uint64_t seed)
{
    tokenring_topology *t = make_topology(nodes, vnodes, joining, seed);
    tokenring_ring *r = build(t);
    check_ring(r, t);
    /* A placement reads the owners in bulk (borrowed when 32-bit, else widened): each
     * range's first replica is its owner. */
    tokenring_replication *repl = NULL;
    assert_int_equal(tokenring_replication_parse(&repl, "2", 1, NULL), TOKENRING_OK);
    tokenring_placement *p = NULL;
    assert_int_equal(tokenring_placement_build(&p, r, repl, 0, NULL), TOKENRING_OK);
    size_t n = 0;
    const int64_t *tokens = tokenring_ring_tokens(r, &n);
    const uint32_t *owners = tokenring_ring_token_nodes(r, NULL);
    for (size_t i = 0; i < n; i++) {
        tokenring_replicas x;
        assert_int_equal(tokenring_placement_replicas(&x, p, tokens[i]), TOKENRING_OK);
        assert_true(x.count >= 1);
        assert_int_equal(x.nodes[0], owners[i]);
    }
    tokenring_placement_free(p);
    tokenring_replication_free(repl);
    tokenring_ring_free(r);
    tokenring_topology_free(t);
}

/* ----------------------------------------------------------------------- tests */

static void views_match_the_topology(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 6; seed++)
        ring_of(1 + (uint32_t)(mix(seed) % 40), 1 + (uint32_t)(mix(seed + 99) % 32),
                (uint32_t)(seed % 3) * 4, seed * 1000);
    ring_of(1, 1, 0, 5);         /* a single token */
    ring_of(256, 3, 5, 77);      /* the largest ring with 1-byte owners */
    ring_of(257, 3, 9, 78);      /* the smallest with 2-byte owners */
    ring_of(1500, 2, 13, 79);
    ring_of(65537, 1, 101, 80); /* 4-byte owners */
}

/* A ring whose only in-ring node is not node 0, others JOINING: the lists of nodes outside
 * the ring never need the built view. */
static void nodes_outside_the_ring_need_no_allocation(void **state)
{
    (void)state;
    tokenring_topology *t = make_topology(20, 4, 1, 4242); /* every node but node 0 joins */
    tokenring_ring *r = build(t);
    size_t n = 0;
    tokenring_ring_tokens(r, &n);
    assert_int_equal(n, 4);
    fail_nth(1); /* any allocation would fail */
    for (uint32_t i = 1; i < 20; i++) {
        tokenring_node_info ni, tn;
        assert_int_equal(tokenring_ring_node(&ni, r, i), TOKENRING_OK);
        assert_int_equal(tokenring_topology_node(&tn, t, i), TOKENRING_OK);
        assert_int_equal(ni.state, TOKENRING_STATE_JOINING);
        assert_memory_equal(ni.tokens, tn.tokens, tn.token_count * sizeof *tn.tokens);
    }
    assert_int_equal(atomic_load(&alloc_calls), 0);
    fail_nth(0);
    check_ring(r, t);
    tokenring_ring_free(r);
    tokenring_topology_free(t);
}

/* tokenring_ring_node_brief: every field of tokenring_ring_node but the tokens, never an
 * allocation (so it also works while every allocation fails), and bad arguments. */
static void brief_view_never_allocates(void **state)
{
    (void)state;
    tokenring_topology *t = make_topology(300, 8, 0, 99);
    tokenring_ring *r = build(t);
    fail_nth(1); /* any allocation would fail */
    for (uint32_t i = 0; i < 300; i++) {
        tokenring_node_info b;
        assert_int_equal(tokenring_ring_node_brief(&b, r, i), TOKENRING_OK);
        assert_null(b.tokens);
        tokenring_node_info tn;
        assert_int_equal(tokenring_topology_node(&tn, t, i), TOKENRING_OK);
        assert_string_equal(b.name, tn.name);
        assert_string_equal(b.datacenter, tn.datacenter);
        assert_string_equal(b.rack, tn.rack);
        assert_int_equal(b.token_count, tn.token_count);
        assert_int_equal(b.state, tn.state);
    }
    assert_int_equal(atomic_load(&alloc_calls), 0);
    fail_nth(0);
    /* the full view agrees field by field */
    for (uint32_t i = 0; i < 300; i += 37) {
        tokenring_node_info a, b;
        assert_int_equal(tokenring_ring_node(&a, r, i), TOKENRING_OK);
        assert_int_equal(tokenring_ring_node_brief(&b, r, i), TOKENRING_OK);
        assert_ptr_equal(a.name, b.name);
        assert_int_equal(a.dc_index, b.dc_index);
        assert_int_equal(a.rack_index, b.rack_index);
        assert_int_equal(a.liveness, b.liveness);
        assert_non_null(a.tokens);
    }
    tokenring_node_info b;
    assert_int_equal(tokenring_ring_node_brief(NULL, r, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_ring_node_brief(&b, NULL, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_ring_node_brief(&b, r, 300), TOKENRING_E_RANGE);
    tokenring_ring_free(r);
    tokenring_topology_free(t);
}

/* Each allocation of building a view fails in turn: E_NOMEM (tokens NULL, every other
 * field filled), nothing leaked, then success with the right lists. */
static void out_of_memory_then_success(void **state)
{
    (void)state;
    for (uint32_t nodes = 40; nodes <= 400; nodes += 360) { /* 1- and 2-byte owners */
        tokenring_topology *t = make_topology(nodes, 8, 6, nodes);
        long before_ring = atomic_load(&live_blocks);
        tokenring_ring *r = build(t);
        long base = atomic_load(&live_blocks);
        long failures = 0;
        for (long k = 1;; k++) {
            tokenring_node_info ni;
            fail_nth(k);
            int rc = tokenring_ring_node(&ni, r, 0);
            fail_nth(0);
            if (rc == TOKENRING_OK)
                break;
            assert_int_equal(rc, TOKENRING_E_NOMEM);
            assert_null(ni.tokens);
            assert_string_equal(ni.name, "n0000000");
            assert_int_equal(ni.token_count, 8);
            assert_int_equal(atomic_load(&live_blocks), base);
            failures++;
        }
        assert_int_equal(failures, 2); /* the lists and their cursors */
        base = atomic_load(&live_blocks);
        fail_nth(1);
        assert_null(tokenring_ring_token_nodes(r, NULL));
        fail_nth(0);
        assert_int_equal(atomic_load(&live_blocks), base);

        /* A placement widens the owners for its build (and frees the copy): each of its
         * allocations failing in turn, until it succeeds. */
        tokenring_replication *repl = NULL;
        assert_int_equal(tokenring_replication_parse(&repl, "dc0=2,dc1=1", 11, NULL),
                         TOKENRING_OK);
        tokenring_placement *p = NULL;
        base = atomic_load(&live_blocks);
        for (long k = 1;; k++) {
            fail_nth(k);
            int rc = tokenring_placement_build(&p, r, repl, 0, NULL);
            fail_nth(0);
            if (rc == TOKENRING_OK)
                break;
            assert_int_equal(rc, TOKENRING_E_NOMEM);
            assert_null(p);
            assert_int_equal(atomic_load(&live_blocks), base);
        }
        tokenring_placement_free(p);
        assert_int_equal(atomic_load(&live_blocks), base); /* the widened copy was freed */

        check_ring(r, t);
        /* With the 32-bit copy published, a placement borrows it instead of widening. */
        assert_int_equal(tokenring_placement_build(&p, r, repl, 0, NULL), TOKENRING_OK);
        tokenring_placement_free(p);
        tokenring_replication_free(repl);
        tokenring_ring_free(r); /* frees the views with it */
        assert_int_equal(atomic_load(&live_blocks), before_ring);
        tokenring_topology_free(t);
    }
}

/* Building rings (nodes outside the ring, each owner width) with each allocation failing
 * in turn: E_NOMEM and nothing leaked, until it succeeds. */
static void ring_build_out_of_memory(void **state)
{
    (void)state;
    static const uint32_t sizes[] = { 30, 300 };
    for (size_t s = 0; s < 2; s++) {
        tokenring_topology *t = make_topology(sizes[s], 5000 / sizes[s], 4, s + 1);
        long base = atomic_load(&live_blocks);
        long k = 1;
        for (;; k++) {
            tokenring_ring *r = NULL;
            fail_nth(k);
            int rc = tokenring_ring_build(&r, t, NULL);
            fail_nth(0);
            if (rc == TOKENRING_OK) {
                check_ring(r, t);
                tokenring_ring_free(r);
                break;
            }
            assert_int_equal(rc, TOKENRING_E_NOMEM);
            assert_null(r);
            assert_int_equal(atomic_load(&live_blocks), base);
        }
        assert_true(k > 5);
        tokenring_topology_free(t);
    }
}

/* Deterministic race: a second caller runs inside the first caller's allocation, so it
 * publishes first; the first caller must drop its own copy and return the winner's. */
static const tokenring_ring *race_ring;
static const int64_t *inner_list;
static const uint32_t *inner_owners;

static void racing_node(void)
{
    tokenring_node_info ni;
    assert_int_equal(tokenring_ring_node(&ni, race_ring, 1), TOKENRING_OK);
    inner_list = ni.tokens;
}

static void racing_owners(void)
{
    inner_owners = tokenring_ring_token_nodes(race_ring, NULL);
}

static void loser_frees_its_copy(void **state)
{
    (void)state;
    tokenring_topology *t = make_topology(50, 6, 0, 99);
    long before_ring = atomic_load(&live_blocks);
    tokenring_ring *r = build(t);
    race_ring = r;
    long base = atomic_load(&live_blocks);

    atomic_store(&before_alloc, racing_node);
    tokenring_node_info ni;
    assert_int_equal(tokenring_ring_node(&ni, r, 1), TOKENRING_OK);
    assert_non_null(inner_list);
    assert_ptr_equal(ni.tokens, inner_list);
    assert_int_equal(atomic_load(&live_blocks), base + 1); /* one list kept, not two */

    atomic_store(&before_alloc, racing_owners);
    const uint32_t *owners = tokenring_ring_token_nodes(r, NULL);
    assert_non_null(inner_owners);
    assert_ptr_equal(owners, inner_owners);
    assert_int_equal(atomic_load(&live_blocks), base + 2);

    check_ring(r, t);
    tokenring_ring_free(r);
    assert_int_equal(atomic_load(&live_blocks), before_ring);
    tokenring_topology_free(t);
}

/* Threads released together all make the first calls on a fresh ring. */
#define THREADS 4
#define ROUNDS 12

typedef struct {
    const tokenring_ring *ring;
    pthread_barrier_t *go;
    int id;
    const int64_t *lists[8];
    const uint32_t *owners;
    uint64_t token_sum, owner_sum; /* of what this thread read through the views */
    int rc;
} racer;

/* Reads both views right away, in an order that depends on the thread (some threads
 * build a view, others find it published), and reads the arrays' contents, so that
 * ThreadSanitizer sees every read of data another thread wrote. */
static void *race(void *arg)
{
    racer *x = arg;
    size_t n = 0, nn = tokenring_ring_node_count(x->ring);
    tokenring_ring_tokens(x->ring, &n);
    pthread_barrier_wait(x->go);
    for (int pass = 0; pass < 2; pass++) {
        if ((x->id + pass) % 2 == 0) {
            const uint32_t *o = tokenring_ring_token_nodes(x->ring, NULL);
            if (!o || (x->owners && o != x->owners))
                x->rc = -1;
            x->owners = o;
            for (size_t i = 0; o && i < n; i++)
                x->owner_sum += o[i];
            continue;
        }
        for (uint32_t i = 0; i < nn; i++) {
            uint32_t node = (uint32_t)((i + (size_t)x->id * 37) % nn);
            tokenring_node_info ni;
            int rc = tokenring_ring_node(&ni, x->ring, node);
            if (rc != TOKENRING_OK) {
                x->rc = rc;
                continue;
            }
            if (node < 8)
                x->lists[node] = ni.tokens;
            for (size_t k = 0; k < ni.token_count; k++)
                x->token_sum += (uint64_t)ni.tokens[k];
        }
    }
    return NULL;
}

static void concurrent_first_calls_agree(void **state)
{
    (void)state;
    for (int round = 0; round < ROUNDS; round++) {
        /* 1- and 2-byte owners, no JOINING node among the eight read */
        tokenring_topology *t = make_topology(round % 2 ? 300 : 60, 8, 0, (uint64_t)round);
        long before = atomic_load(&live_blocks);
        tokenring_ring *r = build(t);
        long built = atomic_load(&live_blocks);
        pthread_barrier_t go;
        assert_int_equal(pthread_barrier_init(&go, NULL, THREADS), 0);
        racer x[THREADS];
        pthread_t th[THREADS];
        for (int i = 0; i < THREADS; i++) {
            x[i] = (racer){ .ring = r, .go = &go, .id = i };
            assert_int_equal(pthread_create(&th[i], NULL, race, &x[i]), 0);
        }
        for (int i = 0; i < THREADS; i++)
            assert_int_equal(pthread_join(th[i], NULL), 0);
        pthread_barrier_destroy(&go);
        /* what the views must hold: every node's tokens, every ring token's owner */
        uint64_t tokens_sum = 0, owners_sum = 0;
        size_t n = 0;
        const int64_t *tokens = tokenring_ring_tokens(r, &n);
        for (size_t i = 0; i < tokenring_topology_node_count(t); i++) {
            tokenring_node_info a;
            assert_int_equal(tokenring_topology_node(&a, t, i), TOKENRING_OK);
            for (size_t k = 0; k < a.token_count; k++)
                tokens_sum += (uint64_t)a.tokens[k];
        }
        for (size_t i = 0; i < n; i++) {
            uint32_t o;
            assert_int_equal(tokenring_ring_owner(&o, r, tokens[i]), TOKENRING_OK);
            owners_sum += o;
        }
        for (int i = 0; i < THREADS; i++) {
            assert_int_equal(x[i].rc, TOKENRING_OK);
            assert_non_null(x[i].owners);
            assert_ptr_equal(x[i].owners, x[0].owners);
            for (int k = 0; k < 8; k++)
                assert_ptr_equal(x[i].lists[k], x[0].lists[k]);
            assert_int_equal(x[i].token_sum, tokens_sum);
            assert_int_equal(x[i].owner_sum, owners_sum);
        }
        /* exactly the two published views remain: every loser freed its copy */
        assert_int_equal(atomic_load(&live_blocks), built + 2);
        check_ring(r, t);
        tokenring_ring_free(r);
        assert_int_equal(atomic_load(&live_blocks), before);
        tokenring_topology_free(t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(views_match_the_topology, setup, teardown),
        cmocka_unit_test_setup_teardown(nodes_outside_the_ring_need_no_allocation, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(brief_view_never_allocates, setup, teardown),
        cmocka_unit_test_setup_teardown(out_of_memory_then_success, setup, teardown),
        cmocka_unit_test_setup_teardown(ring_build_out_of_memory, setup, teardown),
        cmocka_unit_test_setup_teardown(loser_frees_its_copy, setup, teardown),
        cmocka_unit_test_setup_teardown(concurrent_first_calls_agree, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
