/* SPDX-License-Identifier: Apache-2.0 */
/* The router holder under contention: reader threads route keys (and read every
 * replica's node and tag) through tokenring_router_acquire/release while a writer applies
 * thousands of events and swaps each new snapshot in, and readers come and go. Run under
 * ThreadSanitizer and AddressSanitizer by scripts/test.sh: a snapshot freed while a reader
 * still uses it is a use-after-free there, a missing happens-before edge a data race.
 * With a counting allocator, everything allocated is freed at the end (no snapshot
 * leaks through a reader that was counted and never gave its count back). */
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

static atomic_long live_blocks;

static void *c_malloc(size_t size, void *user)
{
    (void)user;
    void *p = malloc(size);
    if (p)
        atomic_fetch_add(&live_blocks, 1);
    return p;
}

static void *c_realloc(void *ptr, size_t size, void *user)
{
    (void)user;
    void *p = realloc(ptr, size);
    if (p && !ptr)
        atomic_fetch_add(&live_blocks, 1);
    return p;
}

static void c_free(void *ptr, void *user)
{
    (void)user;
    if (ptr)
        atomic_fetch_sub(&live_blocks, 1);
    free(ptr);
}

#define NODES 9
#define VN 8
#define READERS 4

static char names[NODES + 1][24];
static char tok_text[NODES + 1][VN][24];
static const char *tok_ptr[NODES + 1][VN];

static tokenring_router_holder *holder;
static atomic_bool stop;
static atomic_long routed;

static void *reader_main(void *arg)
{
    uint64_t rng = (uint64_t)(uintptr_t)arg;
    tokenring_router_reader *rd = NULL;
    if (tokenring_router_reader_new(&rd, holder) != TOKENRING_OK)
        return (void *)1;
    long n = 0;
    while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
        const tokenring_router *r = tokenring_router_acquire(rd);
        uint64_t key = tt_splitmix64(&rng);
        tokenring_route rt;
        if (tokenring_router_route(&rt, r, "shop", &key, sizeof key,
                                   (n & 1) ? TOKENRING_ROUTE_UP_FIRST : 0) != TOKENRING_OK ||
            rt.count < 3)
            return (void *)2;
        for (uint32_t i = 0; i < rt.count; i++) {
            tokenring_router_node_info info;
            if (tokenring_router_node(&info, r, rt.local[i]) != TOKENRING_OK ||
                rt.tags[rt.local[i]] != info.tag ||
                info.tag != (uint64_t)atoi(strrchr(info.name, '.') + 1))
                return (void *)3;
        }
        const void *parts[2] = { &key, &rng };
        size_t lens[2] = { sizeof key, 4 };
        tokenring_route rt2;
        int rc = tokenring_router_route_parts(&rt2, r, "tmp", parts, lens, 2, 0);
        if (rc != TOKENRING_OK && rc != TOKENRING_E_NOTFOUND)
            return (void *)4;
        tokenring_router_release(rd);
        if (++n % 5000 == 0) { /* come and go */
            tokenring_router_reader_free(rd);
            if (tokenring_router_reader_new(&rd, holder) != TOKENRING_OK)
                return (void *)1;
        }
    }
    tokenring_router_reader_free(rd);
    atomic_fetch_add(&routed, n);
    return NULL;
}

static void test_stress(void **state)
{
    (void)state;
    tokenring_allocator a = { c_malloc, c_realloc, c_free, NULL };
    assert_int_equal(tokenring_set_allocator(&a), TOKENRING_OK);
    uint64_t rng = 5;
    for (int i = 0; i <= NODES; i++) {
        snprintf(names[i], sizeof names[i], "10.0.0.%d", i + 1);
        for (int k = 0; k < VN; k++) {
            snprintf(tok_text[i][k], sizeof tok_text[i][k], "%lld",
                     (long long)tt_splitmix64(&rng));
            tok_ptr[i][k] = tok_text[i][k];
        }
    }
    tokenring_router_builder *b = NULL;
    assert_int_equal(tokenring_router_builder_new(&b, "dc1", NULL), TOKENRING_OK);
    for (int i = 0; i < NODES; i++) {
        char rack[8];
        snprintf(rack, sizeof rack, "r%d", i % 3);
        assert_int_equal(tokenring_router_builder_add_peer(b, names[i], i < 6 ? "dc1" : "dc2",
                                                           rack, NULL, tok_ptr[i], VN, NULL),
                         TOKENRING_OK);
        assert_int_equal(tokenring_router_builder_set_node(b, names[i], (uint64_t)i + 1, 0, NULL),
                         TOKENRING_OK);
    }
    const char *k[] = { "class", "dc1", "dc2" }, *v[] = { "NetworkTopologyStrategy", "3", "2" };
    assert_int_equal(tokenring_router_builder_add_keyspace(b, "shop", k, v, 3, NULL),
                     TOKENRING_OK);
    tokenring_router *r = NULL;
    assert_int_equal(tokenring_router_build(&r, b, NULL), TOKENRING_OK);
    tokenring_router_builder_free(b);
    assert_int_equal(tokenring_router_holder_new(&holder, r), TOKENRING_OK);
    tokenring_router_free(r);

    pthread_t th[READERS];
    for (uintptr_t i = 0; i < READERS; i++)
        assert_int_equal(pthread_create(&th[i], NULL, reader_main, (void *)(i + 1)), 0);
    const int swaps = getenv("TOKENRING_TEST_QUICK") ? 500 : 3000;
    bool joined = false, tmp = false;
    for (int s = 0; s < swaps; s++) {
        tokenring_router_event ev;
        memset(&ev, 0, sizeof ev);
        switch (s % 4) {
        case 0:
        case 2:
            ev.kind = (s % 8 == 0) ? TOKENRING_ROUTER_EVENT_DOWN : TOKENRING_ROUTER_EVENT_UP;
            ev.node = names[tt_between(&rng, 0, NODES - 1)];
            break;
        case 1:
            ev.kind = joined ? TOKENRING_ROUTER_EVENT_LEFT : TOKENRING_ROUTER_EVENT_JOINED;
            ev.node = names[NODES];
            ev.datacenter = "dc1";
            ev.rack = "r1";
            ev.tokens = tok_ptr[NODES];
            ev.token_count = VN;
            ev.tag = NODES + 1;
            joined = !joined;
            break;
        default:
            ev.kind = tmp ? TOKENRING_ROUTER_EVENT_DROPPED : TOKENRING_ROUTER_EVENT_CREATED;
            ev.keyspace = "tmp";
            ev.keys = k;
            ev.values = v;
            ev.count = 3;
            tmp = !tmp;
            break;
        }
        tokenring_router *cur = tokenring_router_holder_current(holder), *next = NULL;
        tokenring_error err;
        int rc = tokenring_router_apply(&next, cur, &ev, &err);
        if (rc != TOKENRING_OK)
            fail_msg("event %d: %s", s, err.message);
        assert_int_equal(tokenring_router_holder_swap(holder, next), TOKENRING_OK);
        tokenring_router_free(next);
        tokenring_router_free(cur);
    }
    atomic_store(&stop, true);
    for (int i = 0; i < READERS; i++) {
        void *res;
        pthread_join(th[i], &res);
        assert_null(res);
    }
    assert_true(atomic_load(&routed) > 0);

    /* A swap storm: two prepared snapshots swapped as fast as the writer can, so that
     * readers often load a record the writer is retiring at that moment. */
    tokenring_router *snap[2];
    snap[0] = tokenring_router_holder_current(holder);
    tokenring_router_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = TOKENRING_ROUTER_EVENT_DOWN;
    ev.node = names[0];
    assert_int_equal(tokenring_router_apply(&snap[1], snap[0], &ev, NULL), TOKENRING_OK);
    atomic_store(&stop, false);
    for (uintptr_t i = 0; i < READERS; i++)
        assert_int_equal(pthread_create(&th[i], NULL, reader_main, (void *)(i + 10)), 0);
    const int storm = getenv("TOKENRING_TEST_QUICK") ? 20000 : 200000;
    for (int s = 0; s < storm; s++)
        assert_int_equal(tokenring_router_holder_swap(holder, snap[s & 1]), TOKENRING_OK);
    atomic_store(&stop, true);
    for (int i = 0; i < READERS; i++) {
        void *res;
        pthread_join(th[i], &res);
        assert_null(res);
    }
    tokenring_router_free(snap[0]);
    tokenring_router_free(snap[1]);
    tokenring_router_holder_free(holder);
    assert_int_equal(atomic_load(&live_blocks), 0);
    assert_int_equal(tokenring_set_allocator(NULL), TOKENRING_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stress),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
