/* SPDX-License-Identifier: Apache-2.0 */
/* The compile-time version macros and the run-time version query agree (the SONAME,
 * the Meson project version and pkg-config are checked by abi/check-versions.py). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "tokenring/tokenring.h"

static void number_matches_macros(void **state)
{
    (void)state;
    assert_int_equal(tokenring_version_number(), TOKENRING_VERSION_NUMBER);
    assert_int_equal(TOKENRING_VERSION_NUMBER,
                     TOKENRING_VERSION_MAJOR * 10000 + TOKENRING_VERSION_MINOR * 100 +
                         TOKENRING_VERSION_PATCH);
    /* Each component fits its two decimal digits, so the number is unambiguous. */
    assert_true(TOKENRING_VERSION_MINOR >= 0 && TOKENRING_VERSION_MINOR < 100);
    assert_true(TOKENRING_VERSION_PATCH >= 0 && TOKENRING_VERSION_PATCH < 100);
    assert_true(TOKENRING_VERSION_MAJOR >= 1);
}

static void string_matches_macros(void **state)
{
    (void)state;
    const char *s = tokenring_version_string();
    assert_non_null(s);
    assert_string_equal(s, TOKENRING_VERSION_STRING);
    char expect[32];
    snprintf(expect, sizeof expect, "%d.%d.%d", TOKENRING_VERSION_MAJOR,
             TOKENRING_VERSION_MINOR, TOKENRING_VERSION_PATCH);
    assert_string_equal(s, expect);
    /* Static storage: the same pointer every time. */
    assert_ptr_equal(s, tokenring_version_string());
}

static void version_check_macro(void **state)
{
    (void)state;
    assert_true(TOKENRING_VERSION_CHECK(TOKENRING_VERSION_MAJOR, TOKENRING_VERSION_MINOR,
                                        TOKENRING_VERSION_PATCH));
    assert_true(TOKENRING_VERSION_CHECK(1, 0, 0));
    assert_false(TOKENRING_VERSION_CHECK(TOKENRING_VERSION_MAJOR, TOKENRING_VERSION_MINOR,
                                         TOKENRING_VERSION_PATCH + 1));
    assert_false(TOKENRING_VERSION_CHECK(TOKENRING_VERSION_MAJOR + 1, 0, 0));
}

/* Status values are ABI (abi/README.md): pin them so a renumbering fails here too,
 * not only in the abidiff check. */
static void status_values_are_pinned(void **state)
{
    (void)state;
    assert_int_equal(TOKENRING_OK, 0);
    assert_int_equal(TOKENRING_E_INVAL, -1);
    assert_int_equal(TOKENRING_E_NOMEM, -2);
    assert_int_equal(TOKENRING_E_NOTFOUND, -3);
    assert_int_equal(TOKENRING_E_EXISTS, -4);
    assert_int_equal(TOKENRING_E_RANGE, -5);
    assert_int_equal(TOKENRING_E_PARSE, -6);
    assert_int_equal(TOKENRING_E_EMPTY, -7);
    assert_int_equal(TOKENRING_E_BUFSIZE, -8);
    assert_int_equal(TOKENRING_E_UNSUPPORTED, -9);
    assert_int_equal(TOKENRING_E_IMPOSSIBLE, -10);
    assert_int_equal(TOKENRING_E_CANCELLED, -11);
    assert_int_equal(TOKENRING_E_BUDGET, -12);
    assert_int_equal(TOKENRING_E_BUSY, -13);
    assert_int_equal(TOKENRING_E_NOT_PLACED, -14);
}

/* Public struct sizes are ABI: pin them on LP64. */
static void public_struct_sizes_are_pinned(void **state)
{
    (void)state;
    assert_int_equal(sizeof(tokenring_error), 16 + 256 + 64);
    /* RandomPartitioner tokens (1.2): hi then lo, passed by value. */
    assert_int_equal(sizeof(tokenring_token128), 16);
    assert_int_equal(offsetof(tokenring_token128, hi), 0);
    assert_int_equal(offsetof(tokenring_token128, lo), 8);
    if (sizeof(void *) == 8) {
        assert_int_equal(sizeof(tokenring_allocator), 32);
        /* routers (1.2) */
        assert_int_equal(sizeof(tokenring_route), 64);
        assert_int_equal(offsetof(tokenring_route, token), 40);
        assert_int_equal(sizeof(tokenring_router_node_info), 72);
        assert_int_equal(offsetof(tokenring_router_node_info, tag), 32);
        assert_int_equal(sizeof(tokenring_router_event), 144);
        assert_int_equal(offsetof(tokenring_router_event, placement), 104);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(number_matches_macros),
        cmocka_unit_test(string_matches_macros),
        cmocka_unit_test(version_check_macro),
        cmocka_unit_test(status_values_are_pinned),
        cmocka_unit_test(public_struct_sizes_are_pinned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
