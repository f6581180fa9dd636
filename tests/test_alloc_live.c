/* SPDX-License-Identifier: Apache-2.0 */
/* lib/base/alloc.c: tokenring_set_allocator() refuses, with TOKENRING_E_BUSY and no change, an
 * allocator whose free function could not release the blocks alive; the count of live
 * blocks follows every way a block is made (malloc, calloc, realloc of NULL, strdup) and
 * freed, and returns to zero. Links the internal archive to reach tr_realloc directly. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int mine_frees;

static void *mine_malloc(size_t size, void *user)
{
    (void)user;
    return malloc(size);
}

static void *mine_realloc(void *ptr, size_t size, void *user)
{
    (void)user;
    return realloc(ptr, size);
}

static void mine_free(void *ptr, void *user)
{
    (void)user;
    mine_frees += ptr != NULL;
    free(ptr);
}

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

static const tokenring_allocator mine = { mine_malloc, mine_realloc, mine_free, NULL };

static tokenring_topology *one_node(void)
{
    tokenring_topology *t = NULL;
    const int64_t tk[] = { 1, 2 };
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node(t, "n1", "dc1", "r1", tk, 2, NULL), TOKENRING_OK);
    return t;
}

/* The report's case: an object made with the C library's malloc, then another free
 * function installed. Refused, and the object is later freed by the free that matches. */
static void refused_while_an_object_is_alive(void **state)
{
    (void)state;
    tokenring_allocator before, after;
    assert_int_equal(tokenring_get_allocator(&before), TOKENRING_OK);
    tokenring_topology *t = one_node();

    assert_int_equal(tokenring_set_allocator(&mine), TOKENRING_E_BUSY);
    assert_int_equal(tokenring_get_allocator(&after), TOKENRING_OK);
    assert_ptr_equal(after.malloc_fn, before.malloc_fn);
    assert_ptr_equal(after.free_fn, before.free_fn);
    /* the same free function with another user pointer is another allocator */
    tokenring_allocator other_user = before;
    other_user.user = &mine_frees;
    assert_int_equal(tokenring_set_allocator(&other_user), TOKENRING_E_BUSY);
    /* an invalid allocator is still INVAL first */
    tokenring_allocator bad = mine;
    bad.free_fn = NULL;
    assert_int_equal(tokenring_set_allocator(&bad), TOKENRING_E_INVAL);
    assert_string_equal(tokenring_status_name(TOKENRING_E_BUSY), "TOKENRING_E_BUSY");

    /* The same free function is allowed: allocations fail, the object stays usable. */
    tokenring_allocator failing = { fail_malloc, fail_realloc, before.free_fn, before.user };
    assert_int_equal(tokenring_set_allocator(&failing), TOKENRING_OK);
    tokenring_topology *t2 = NULL;
    assert_int_equal(tokenring_topology_new(&t2), TOKENRING_E_NOMEM);
    assert_null(t2);
    assert_int_equal(tokenring_set_allocator(NULL), TOKENRING_OK); /* the same free again */
    assert_int_equal(tokenring_topology_node_count(t), 1);

    tokenring_topology_free(t);
    assert_int_equal(tokenring_set_allocator(&mine), TOKENRING_OK); /* nothing alive now */
    assert_int_equal(tokenring_set_allocator(NULL), TOKENRING_OK);
}

/* Objects made by an installed allocator pin it in turn; the defaults come back once they
 * are freed, and their blocks went to the allocator's own free. */
static void an_installed_allocator_stays_until_its_objects_are_freed(void **state)
{
    (void)state;
    assert_int_equal(tokenring_set_allocator(&mine), TOKENRING_OK);
    tokenring_topology *t = one_node();
    tokenring_ring *r = NULL;
    assert_int_equal(tokenring_ring_build(&r, t, NULL), TOKENRING_OK);
    tokenring_topology_free(t);
    assert_int_equal(tokenring_set_allocator(NULL), TOKENRING_E_BUSY); /* the ring lives */
    mine_frees = 0;
    tokenring_ring_free(r);
    assert_true(mine_frees > 0);
    assert_int_equal(tokenring_set_allocator(NULL), TOKENRING_OK);
}

/* Every way of making a block counts once, every free uncounts once: after a mix of them
 * the count is zero again (a block counted twice would pin the allocator forever; one not
 * counted would let it change under a live block). */
static void every_block_is_counted_once(void **state)
{
    (void)state;
    void *a = tr_malloc(8);
    char *b = tr_calloc(4, 4);
    void *c = tr_realloc(NULL, 16);  /* a new block */
    char *d = tr_strdup("node");
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    assert_non_null(d);
    c = tr_realloc(c, 4096);         /* the same block, grown */
    assert_non_null(c);
    assert_null(tr_reallocarray(NULL, SIZE_MAX, 2)); /* overflow: nothing made */
    assert_null(tr_calloc(SIZE_MAX, 2));
    tr_free(NULL);                   /* nothing freed */
    tr_free(a);
    tr_free(b);
    tr_free(c);
    assert_int_equal(tokenring_set_allocator(&mine), TOKENRING_E_BUSY); /* d is alive */
    tr_free(d);
    assert_int_equal(tokenring_set_allocator(&mine), TOKENRING_OK);

    /* A failed malloc or realloc of NULL makes nothing. */
    tokenring_allocator failing = { fail_malloc, fail_realloc, mine_free, NULL };
    assert_int_equal(tokenring_set_allocator(&failing), TOKENRING_OK);
    assert_null(tr_malloc(8));
    assert_null(tr_realloc(NULL, 8));
    assert_int_equal(tokenring_set_allocator(NULL), TOKENRING_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(refused_while_an_object_is_alive),
        cmocka_unit_test(an_installed_allocator_stays_until_its_objects_are_freed),
        cmocka_unit_test(every_block_is_counted_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
