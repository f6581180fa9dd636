/* SPDX-License-Identifier: Apache-2.0 */
/* common.h: every status code's message and name, the allocator hooks' argument checks
 * and round trip, the name rules every builder applies (UTF-8 validity, length,
 * emptiness), exercised through tokenring_topology_add_node(), and that every builder
 * leaves *out alone when it fails. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"

static void status_messages_and_names(void **state)
{
    (void)state;
    static const struct {
        tokenring_status code;
        const char *name;
    } all[] = {
        { TOKENRING_OK, "TOKENRING_OK" },
        { TOKENRING_E_INVAL, "TOKENRING_E_INVAL" },
        { TOKENRING_E_NOMEM, "TOKENRING_E_NOMEM" },
        { TOKENRING_E_NOTFOUND, "TOKENRING_E_NOTFOUND" },
        { TOKENRING_E_EXISTS, "TOKENRING_E_EXISTS" },
        { TOKENRING_E_RANGE, "TOKENRING_E_RANGE" },
        { TOKENRING_E_PARSE, "TOKENRING_E_PARSE" },
        { TOKENRING_E_EMPTY, "TOKENRING_E_EMPTY" },
        { TOKENRING_E_BUFSIZE, "TOKENRING_E_BUFSIZE" },
        { TOKENRING_E_UNSUPPORTED, "TOKENRING_E_UNSUPPORTED" },
        { TOKENRING_E_IMPOSSIBLE, "TOKENRING_E_IMPOSSIBLE" },
        { TOKENRING_E_CANCELLED, "TOKENRING_E_CANCELLED" },
        { TOKENRING_E_BUDGET, "TOKENRING_E_BUDGET" },
        { TOKENRING_E_BUSY, "TOKENRING_E_BUSY" },
        { TOKENRING_E_NOT_PLACED, "TOKENRING_E_NOT_PLACED" },
    };
    size_t n = sizeof all / sizeof *all;
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(tokenring_status_name(all[i].code), all[i].name);
        const char *msg = tokenring_strerror(all[i].code);
        assert_non_null(msg);
        assert_true(msg[0] != '\0');
        assert_string_not_equal(msg, "unknown status");
        for (size_t j = 0; j < i; j++) /* every message is distinct */
            assert_string_not_equal(msg, tokenring_strerror(all[j].code));
    }
    assert_string_equal(tokenring_strerror((tokenring_status)-99), "unknown status");
    assert_string_equal(tokenring_strerror((tokenring_status)1), "unknown status");
    assert_string_equal(tokenring_status_name((tokenring_status)-99), "TOKENRING_E_UNKNOWN");
}

static int frees;
static void *my_malloc(size_t n, void *user)
{
    (*(int *)user)++;
    return malloc(n);
}
static void *my_realloc(void *p, size_t n, void *user)
{
    (*(int *)user)++;
    return realloc(p, n);
}
static void my_free(void *p, void *user)
{
    (void)user;
    frees++;
    free(p);
}

static void allocator_hooks(void **state)
{
    (void)state;
    tokenring_allocator def, got;
    assert_int_equal(tokenring_get_allocator(NULL), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_get_allocator(&def), TOKENRING_OK);
    assert_non_null(def.malloc_fn);
    assert_non_null(def.realloc_fn);
    assert_non_null(def.free_fn);

    int calls = 0;
    tokenring_allocator mine = { my_malloc, my_realloc, my_free, &calls };
    /* each missing function is refused and the hooks stay as they were */
    tokenring_allocator bad = mine;
    bad.malloc_fn = NULL;
    assert_int_equal(tokenring_set_allocator(&bad), TOKENRING_E_INVAL);
    bad = mine;
    bad.realloc_fn = NULL;
    assert_int_equal(tokenring_set_allocator(&bad), TOKENRING_E_INVAL);
    bad = mine;
    bad.free_fn = NULL;
    assert_int_equal(tokenring_set_allocator(&bad), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_get_allocator(&got), TOKENRING_OK);
    assert_ptr_equal(got.malloc_fn, def.malloc_fn);

    assert_int_equal(tokenring_set_allocator(&mine), TOKENRING_OK);
    assert_int_equal(tokenring_get_allocator(&got), TOKENRING_OK);
    assert_ptr_equal(got.malloc_fn, my_malloc);
    assert_ptr_equal(got.user, &calls);
    /* the library's allocations go through the hooks */
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    const int64_t tk[] = { 1, 2, 3 };
    assert_int_equal(tokenring_topology_add_node(t, "a", "d", "r", tk, 3, NULL), TOKENRING_OK);
    tokenring_ring *r = NULL;
    assert_int_equal(tokenring_ring_build(&r, t, NULL), TOKENRING_OK);
    assert_true(calls > 0);
    tokenring_ring_free(r);
    tokenring_topology_free(t);
    assert_true(frees > 0);
    /* NULL restores the defaults */
    assert_int_equal(tokenring_set_allocator(NULL), TOKENRING_OK);
    assert_int_equal(tokenring_get_allocator(&got), TOKENRING_OK);
    assert_ptr_equal(got.malloc_fn, def.malloc_fn);
    assert_ptr_equal(got.free_fn, def.free_fn);
}

static void name_rules(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        int code;
    } cases[] = {
        { "plain", TOKENRING_OK },
        { "caf\xc3\xa9", TOKENRING_OK },                 /* 2-byte */
        { "\xe2\x82\xac", TOKENRING_OK },                /* 3-byte (euro sign) */
        { "\xf0\x9f\x98\x80", TOKENRING_OK },            /* 4-byte (emoji) */
        { "\xf4\x8f\xbf\xbf", TOKENRING_OK },            /* U+10FFFF */
        { "\xc0\xaf", TOKENRING_E_INVAL },               /* overlong lead byte */
        { "\xe0\x80\xaf", TOKENRING_E_INVAL },           /* overlong 3-byte */
        { "\xed\xa0\x80", TOKENRING_E_INVAL },           /* surrogate */
        { "\xf0\x80\x80\xaf", TOKENRING_E_INVAL },       /* overlong 4-byte */
        { "\xf4\x90\x80\x80", TOKENRING_E_INVAL },       /* above U+10FFFF */
        { "\xf5\x80\x80\x80", TOKENRING_E_INVAL },       /* bad lead byte */
        { "\xe2\x82", TOKENRING_E_INVAL },               /* truncated */
        { "\xe2\x28\xac", TOKENRING_E_INVAL },           /* bad continuation */
        { "\x80", TOKENRING_E_INVAL },                   /* lone continuation */
        { "", TOKENRING_E_INVAL },
        { NULL, TOKENRING_E_INVAL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        tokenring_topology *t = NULL;
        assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
        const int64_t tk[] = { 5 };
        tokenring_error err;
        memset(&err, 0, sizeof err);
        int rc = tokenring_topology_add_node(t, cases[i].name, "dc", "r", tk, 1, &err);
        if (rc != cases[i].code)
            fail_msg("case %zu: %s, want %s", i, tokenring_status_name(rc),
                     tokenring_status_name(cases[i].code));
        if (rc != TOKENRING_OK) {
            assert_true(err.message[0] != '\0');
            assert_int_equal(err.code, rc);
            assert_int_equal(tokenring_topology_node_count(t), 0);
        }
        tokenring_topology_free(t);
    }
    char longname[TOKENRING_MAX_NAME + 2];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    const int64_t tk[] = { 5 };
    assert_int_equal(tokenring_topology_add_node(t, "n", longname, "r", tk, 1, NULL),
                     TOKENRING_E_RANGE);
    longname[TOKENRING_MAX_NAME] = '\0'; /* exactly the limit */
    assert_int_equal(tokenring_topology_add_node(t, "n", longname, "r", tk, 1, NULL), TOKENRING_OK);
    tokenring_topology_free(t);
}

/* ------------------------------------------------------------ *out after a failure */

/* common.h: a builder that fails leaves *out as it was, whatever the reason (a NULL
 * argument, a bad value, no memory). Each call below starts with *out holding a pointer
 * that is not NULL, fails, and must give its documented code and leave that pointer. */
static char not_an_object;
#define SENTINEL ((void *)&not_an_object)
#define FAILS_LEAVING_OUT(type, var, code, call)                                         \
    do {                                                                                 \
        type *var = SENTINEL;                                                            \
        assert_int_equal((call), (code));                                                \
        assert_ptr_equal(var, SENTINEL);                                                 \
    } while (0)

static void *fail_malloc(size_t size, void *user)
{
    (void)size;
    (void)user;
    return NULL;
}

static void *fail_realloc(void *ptr, size_t size, void *user)
{
    (void)ptr;
    (void)size;
    (void)user;
    return NULL;
}

static int cancel_now(void *user, uint64_t done, uint64_t total)
{
    (void)user;
    (void)done;
    (void)total;
    return 1;
}

static void failed_builders_leave_out_alone(void **state)
{
    (void)state;
    tokenring_topology *topo = NULL;
    tokenring_ring *ring = NULL;
    tokenring_replication *repl = NULL, *nts = NULL;
    tokenring_placement *plc = NULL;
    int64_t tok[] = { -100, 0, 100 };
    assert_int_equal(tokenring_topology_new(&topo), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node(topo, "n1", "dc1", "r1", tok, 3, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_ring_build(&ring, topo, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_replication_simple(&repl, 1, 0, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_replication_parse(&nts, "dc9=1", 5, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_placement_build(&plc, ring, repl, 0, NULL), TOKENRING_OK);
    tokenring_topology *empty = NULL;
    assert_int_equal(tokenring_topology_new(&empty), TOKENRING_OK);
    static const char *const names[] = { "m1" }, *const racks[] = { "r1" };

    /* a NULL argument */
    FAILS_LEAVING_OUT(tokenring_topology, t, TOKENRING_E_INVAL,
                        tokenring_topology_clone(&t, NULL));
    FAILS_LEAVING_OUT(tokenring_ring, r, TOKENRING_E_INVAL,
                        tokenring_ring_build(&r, NULL, NULL));
    FAILS_LEAVING_OUT(tokenring_replication, r, TOKENRING_E_INVAL,
                        tokenring_replication_parse(&r, NULL, 3, NULL));
    FAILS_LEAVING_OUT(tokenring_placement, p, TOKENRING_E_INVAL,
                        tokenring_placement_build(&p, ring, NULL, 0, NULL));
    FAILS_LEAVING_OUT(tokenring_placement, p, TOKENRING_E_INVAL,
                        tokenring_placement_update(&p, plc, NULL, NULL));
    FAILS_LEAVING_OUT(tokenring_movement, m, TOKENRING_E_INVAL,
                        tokenring_movement_compare(&m, topo, NULL, repl, 0, NULL, 0, NULL));
    FAILS_LEAVING_OUT(tokenring_movement, m, TOKENRING_E_INVAL,
                        tokenring_movement_join(&m, topo, repl, NULL, "dc1", "r1", tok, 1,
                                                NULL, 0, NULL));
    FAILS_LEAVING_OUT(tokenring_movement, m, TOKENRING_E_INVAL,
                        tokenring_movement_decommission(&m, NULL, repl, "n1", NULL, 0, NULL));
    FAILS_LEAVING_OUT(tokenring_movement, m, TOKENRING_E_INVAL,
                        tokenring_movement_replace(&m, topo, repl, "n1", NULL, NULL, 0, NULL));
    FAILS_LEAVING_OUT(tokenring_movement, m, TOKENRING_E_INVAL,
                        tokenring_movement_move(&m, topo, NULL, "n1", tok, 1, NULL, 0, NULL));
    FAILS_LEAVING_OUT(tokenring_availability, a, TOKENRING_E_INVAL,
                        tokenring_availability_build(&a, NULL, repl, TOKENRING_CL_ONE, NULL,
                                                     1, NULL));
    FAILS_LEAVING_OUT(tokenring_migration, m, TOKENRING_E_INVAL,
                        tokenring_migration_plan(&m, NULL, "dc1", "dc2", names, racks, 1, 8,
                                                 1, NULL, NULL, 0, NULL));

    /* a bad value after valid pointers */
    FAILS_LEAVING_OUT(tokenring_ring, r, TOKENRING_E_EMPTY,
                        tokenring_ring_build(&r, empty, NULL));
    FAILS_LEAVING_OUT(tokenring_replication, r, TOKENRING_E_RANGE,
                        tokenring_replication_simple(&r, -1, 0, NULL));
    FAILS_LEAVING_OUT(tokenring_replication, r, TOKENRING_E_PARSE,
                        tokenring_replication_parse(&r, "{", 1, NULL));
    FAILS_LEAVING_OUT(tokenring_placement, p, TOKENRING_E_NOTFOUND,
                        tokenring_placement_build(&p, ring, nts, 0, NULL));
    FAILS_LEAVING_OUT(tokenring_movement, m, TOKENRING_E_INVAL,
                        tokenring_movement_compare(&m, topo, topo, repl, 99, NULL, 0, NULL));
    FAILS_LEAVING_OUT(tokenring_movement, m, TOKENRING_E_NOTFOUND,
                        tokenring_movement_decommission(&m, topo, repl, "nobody", NULL, 0,
                                                        NULL));
    FAILS_LEAVING_OUT(tokenring_movement, m, TOKENRING_E_EXISTS,
                        tokenring_movement_join(&m, topo, repl, "n1", "dc1", "r1", tok, 1,
                                                NULL, 0, NULL));
    FAILS_LEAVING_OUT(tokenring_availability, a, TOKENRING_E_INVAL,
                        tokenring_availability_build(&a, ring, repl, 12345, NULL, 1, NULL));
    FAILS_LEAVING_OUT(tokenring_migration, m, TOKENRING_E_NOTFOUND,
                        tokenring_migration_plan(&m, topo, "dc-none", "dc2", names, racks, 1,
                                                 8, 1, NULL, NULL, 0, NULL));
    FAILS_LEAVING_OUT(tokenring_placement, p, TOKENRING_E_IMPOSSIBLE,
                        tokenring_placement_build(&p, ring, nts,
                                                  TOKENRING_PLACEMENT_SKIP_EMPTY_DC, NULL));
    FAILS_LEAVING_OUT(tokenring_availability, a, TOKENRING_E_INVAL,
                        tokenring_availability_build_progress(&a, ring, repl, 12345, NULL, 1,
                                                              cancel_now, NULL, NULL));
    FAILS_LEAVING_OUT(tokenring_availability, a, TOKENRING_E_CANCELLED,
                        tokenring_availability_build_progress(&a, ring, repl, TOKENRING_CL_ONE,
                                                              NULL, 1, cancel_now, NULL, NULL));
    FAILS_LEAVING_OUT(tokenring_migration, m, TOKENRING_E_CANCELLED,
                        tokenring_migration_plan_progress(&m, topo, "dc1", "dc2", names, racks,
                                                          1, 8, 1, NULL, NULL, 0, cancel_now,
                                                          NULL, NULL));

    /* no memory at all (the objects alive keep the free function that can release them) */
    tokenring_allocator cur;
    assert_int_equal(tokenring_get_allocator(&cur), TOKENRING_OK);
    tokenring_allocator none = { fail_malloc, fail_realloc, cur.free_fn, cur.user };
    assert_int_equal(tokenring_set_allocator(&none), TOKENRING_OK);
    FAILS_LEAVING_OUT(tokenring_topology, t, TOKENRING_E_NOMEM, tokenring_topology_new(&t));
    FAILS_LEAVING_OUT(tokenring_topology, t, TOKENRING_E_NOMEM,
                        tokenring_topology_clone(&t, topo));
    FAILS_LEAVING_OUT(tokenring_ring, r, TOKENRING_E_NOMEM,
                        tokenring_ring_build(&r, topo, NULL));
    FAILS_LEAVING_OUT(tokenring_replication, r, TOKENRING_E_NOMEM,
                        tokenring_replication_network(&r));
    FAILS_LEAVING_OUT(tokenring_replication, r, TOKENRING_E_NOMEM,
                        tokenring_replication_simple(&r, 3, 0, NULL));
    FAILS_LEAVING_OUT(tokenring_placement, p, TOKENRING_E_NOMEM,
                        tokenring_placement_build(&p, ring, repl, 0, NULL));
    FAILS_LEAVING_OUT(tokenring_cluster, c, TOKENRING_E_NOMEM, tokenring_cluster_new(&c));
    FAILS_LEAVING_OUT(tokenring_movement, m, TOKENRING_E_NOMEM,
                        tokenring_movement_decommission(&m, topo, repl, "n1", NULL, 0, NULL));
    FAILS_LEAVING_OUT(tokenring_availability, a, TOKENRING_E_NOMEM,
                        tokenring_availability_build(&a, ring, repl, TOKENRING_CL_ONE, NULL,
                                                     1, NULL));
    assert_int_equal(tokenring_set_allocator(NULL), TOKENRING_OK);

    /* with out NULL the call fails and there is nothing to write */
    assert_int_equal(tokenring_topology_new(NULL), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_new(NULL), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_placement_build(NULL, ring, repl, 0, NULL), TOKENRING_E_INVAL);

    tokenring_topology_free(empty);
    tokenring_placement_free(plc);
    tokenring_replication_free(nts);
    tokenring_replication_free(repl);
    tokenring_ring_free(ring);
    tokenring_topology_free(topo);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(status_messages_and_names),
        cmocka_unit_test(allocator_hooks),
        cmocka_unit_test(name_rules),
        cmocka_unit_test(failed_builders_leave_out_alone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
