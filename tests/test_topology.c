/* SPDX-License-Identifier: Apache-2.0 */
/* The topology builder: nodes in insertion order, name lookup, token ownership checks, and
 * every bad input of issue 2 item 7, each checked for its status code, a message, and a
 * topology left exactly as it was (compared through a full dump). */
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

/* ------------------------------------------------------------------ helpers */

/* Everything observable about a topology, as text. */
static char *dump(const tokenring_topology *t)
{
    size_t cap = 1 << 16, len = 0;
    char *s = malloc(cap);
    s[0] = '\0';
    size_t n = tokenring_topology_node_count(t);
    len += (size_t)snprintf(s + len, cap - len, "%zu nodes\n", n);
    for (size_t i = 0; i < n; i++) {
        tokenring_node_info ni;
        assert_int_equal(tokenring_topology_node(&ni, t, i), TOKENRING_OK);
        size_t found = SIZE_MAX;
        assert_int_equal(tokenring_topology_find_node(&found, t, ni.name), TOKENRING_OK);
        assert_int_equal(found, i);
        if (cap - len < 4096) {
            cap *= 2;
            s = realloc(s, cap);
        }
        len += (size_t)snprintf(s + len, cap - len, "%zu %s dc=%s rack=%s state=%d live=%d [",
                                i, ni.name, ni.datacenter, ni.rack, (int)ni.state,
                                (int)ni.liveness);
        for (size_t k = 0; k < ni.token_count; k++) {
            if (cap - len < 4096) {
                cap *= 2;
                s = realloc(s, cap);
            }
            len += (size_t)snprintf(s + len, cap - len, "%s%lld", k ? "," : "",
                                    (long long)ni.tokens[k]);
        }
        len += (size_t)snprintf(s + len, cap - len, "]\n");
    }
    return s;
}

static tokenring_topology *sample(void)
{
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    const int64_t a[] = { 50, 10 }, b[] = { 30, 80 }, c[] = { 95, 65 };
    assert_int_equal(tokenring_topology_add_node(t, "A", "dc1", "r1", a, 2, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node(t, "B", "dc1", "r2", b, 2, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node(t, "C", "dc2", "r1", c, 2, NULL), TOKENRING_OK);
    return t;
}

/* Asserts a failing call's code, its message, and an unchanged topology. */
#define EXPECT_FAIL(t, expected_code, call)                                                  \
    do {                                                                                     \
        char *before_ = dump(t);                                                             \
        tokenring_error err;                                                                 \
        memset(&err, 0x5a, sizeof err);                                                      \
        int rc_ = (call);                                                                    \
        assert_int_equal(rc_, (expected_code));                                              \
        assert_int_equal(err.code, (expected_code));                                         \
        assert_true(err.message[0] != '\0');                                                 \
        assert_non_null(memchr(err.message, '\0', sizeof err.message));                      \
        char *after_ = dump(t);                                                              \
        assert_string_equal(before_, after_);                                                \
        free(before_);                                                                       \
        free(after_);                                                                        \
    } while (0)

/* ------------------------------------------------------------------- basics */

static void nodes_keep_insertion_order_and_sorted_tokens(void **state)
{
    (void)state;
    tokenring_topology *t = sample();
    assert_int_equal(tokenring_topology_node_count(t), 3);
    tokenring_node_info ni;
    assert_int_equal(tokenring_topology_node(&ni, t, 0), TOKENRING_OK);
    assert_string_equal(ni.name, "A");
    assert_string_equal(ni.datacenter, "dc1");
    assert_string_equal(ni.rack, "r1");
    assert_int_equal(ni.token_count, 2);
    assert_int_equal(ni.tokens[0], 10); /* given as {50, 10}: stored ascending */
    assert_int_equal(ni.tokens[1], 50);
    assert_int_equal(ni.state, TOKENRING_STATE_NORMAL);
    assert_int_equal(ni.liveness, TOKENRING_UP);
    assert_int_equal(ni.dc_index, 0);
    assert_int_equal(ni.rack_index, 0);
    assert_int_equal(tokenring_topology_node(&ni, t, 2), TOKENRING_OK);
    assert_string_equal(ni.name, "C");
    assert_int_equal(tokenring_topology_node(&ni, t, 3), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_topology_node(NULL, t, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_topology_node(&ni, NULL, 0), TOKENRING_E_INVAL);
    size_t idx;
    assert_int_equal(tokenring_topology_find_node(&idx, t, "B"), TOKENRING_OK);
    assert_int_equal(idx, 1);
    assert_int_equal(tokenring_topology_find_node(&idx, t, "D"), TOKENRING_E_NOTFOUND);
    assert_int_equal(tokenring_topology_find_node(&idx, t, NULL), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_topology_find_node(NULL, t, "A"), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_topology_node_count(NULL), 0);
    assert_int_equal(tokenring_topology_new(NULL), TOKENRING_E_INVAL);
    tokenring_topology_free(NULL);
    tokenring_topology_free(t);
}

static void remove_shifts_later_nodes_and_frees_tokens(void **state)
{
    (void)state;
    tokenring_topology *t = sample();
    assert_int_equal(tokenring_topology_remove_node(t, "A", NULL), TOKENRING_OK);
    assert_int_equal(tokenring_topology_node_count(t), 2);
    size_t idx;
    assert_int_equal(tokenring_topology_find_node(&idx, t, "A"), TOKENRING_E_NOTFOUND);
    assert_int_equal(tokenring_topology_find_node(&idx, t, "B"), TOKENRING_OK);
    assert_int_equal(idx, 0);
    assert_int_equal(tokenring_topology_find_node(&idx, t, "C"), TOKENRING_OK);
    assert_int_equal(idx, 1);
    /* A's tokens are free again; C's are still taken and C is named at its new index. */
    const int64_t again[] = { 10, 50 };
    assert_int_equal(tokenring_topology_add_node(t, "D", "dc1", "r1", again, 2, NULL),
                     TOKENRING_OK);
    tokenring_error err;
    const int64_t clash[] = { 65 };
    assert_int_equal(tokenring_topology_add_node(t, "E", "dc1", "r1", clash, 1, &err),
                     TOKENRING_E_EXISTS);
    assert_non_null(strstr(err.message, "'C'"));
    assert_non_null(strstr(err.message, "65"));
    char *d = dump(t);
    assert_string_equal(d, "3 nodes\n"
                           "0 B dc=dc1 rack=r2 state=0 live=0 [30,80]\n"
                           "1 C dc=dc2 rack=r1 state=0 live=0 [65,95]\n"
                           "2 D dc=dc1 rack=r1 state=0 live=0 [10,50]\n");
    free(d);
    tokenring_topology_free(t);
}

static void replace_takes_index_location_and_tokens(void **state)
{
    (void)state;
    tokenring_topology *t = sample();
    assert_int_equal(tokenring_topology_set_state(t, "B", TOKENRING_STATE_LEAVING, TOKENRING_DOWN,
                                                  NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_replace_node(t, "B", "0new", NULL), TOKENRING_OK);
    char *d = dump(t);
    assert_string_equal(d, "3 nodes\n"
                           "0 A dc=dc1 rack=r1 state=0 live=0 [10,50]\n"
                           "1 0new dc=dc1 rack=r2 state=0 live=0 [30,80]\n"
                           "2 C dc=dc2 rack=r1 state=0 live=0 [65,95]\n");
    free(d);
    assert_int_equal(tokenring_topology_replace_node(t, "A", "zzz", NULL), TOKENRING_OK);
    assert_int_equal(tokenring_topology_replace_node(t, "zzz", "Bb", NULL), TOKENRING_OK);
    d = dump(t); /* dump() checks find_node for every name */
    assert_non_null(strstr(d, "0 Bb dc=dc1 rack=r1"));
    free(d);
    size_t idx;
    assert_int_equal(tokenring_topology_find_node(&idx, t, "B"), TOKENRING_E_NOTFOUND);
    assert_int_equal(tokenring_topology_find_node(&idx, t, "zzz"), TOKENRING_E_NOTFOUND);
    tokenring_topology_free(t);
}

static void set_tokens_and_state(void **state)
{
    (void)state;
    tokenring_topology *t = sample();
    /* The node's own old tokens do not count as taken. */
    const int64_t moved[] = { 80, 31, 1000 };
    assert_int_equal(tokenring_topology_set_tokens(t, "B", moved, 3, NULL), TOKENRING_OK);
    const int64_t old30[] = { 30 };
    assert_int_equal(tokenring_topology_add_node(t, "D", "dc1", "r1", old30, 1, NULL),
                     TOKENRING_OK);
    tokenring_error err;
    const int64_t taken[] = { 1000 };
    assert_int_equal(tokenring_topology_add_node(t, "E", "dc1", "r1", taken, 1, &err),
                     TOKENRING_E_EXISTS);
    assert_non_null(strstr(err.message, "'B'"));
    assert_int_equal(tokenring_topology_set_state(t, "C", TOKENRING_STATE_JOINING,
                                                  TOKENRING_UNKNOWN, NULL),
                     TOKENRING_OK);
    char *d = dump(t);
    assert_string_equal(d, "4 nodes\n"
                           "0 A dc=dc1 rack=r1 state=0 live=0 [10,50]\n"
                           "1 B dc=dc1 rack=r2 state=0 live=0 [31,80,1000]\n"
                           "2 C dc=dc2 rack=r1 state=1 live=2 [65,95]\n"
                           "3 D dc=dc1 rack=r1 state=0 live=0 [30]\n");
    free(d);
    tokenring_topology_free(t);
}

static void clone_is_deep(void **state)
{
    (void)state;
    tokenring_topology *t = sample(), *c = NULL;
    assert_int_equal(tokenring_topology_clone(&c, t), TOKENRING_OK);
    char *a = dump(t), *b = dump(c);
    assert_string_equal(a, b);
    free(b);
    assert_int_equal(tokenring_topology_remove_node(c, "A", NULL), TOKENRING_OK);
    const int64_t tok[] = { 10 };
    assert_int_equal(tokenring_topology_add_node(c, "X", "dc9", "r9", tok, 1, NULL),
                     TOKENRING_OK);
    b = dump(t);
    assert_string_equal(a, b); /* the original did not change */
    free(a);
    free(b);
    /* The clone's token index is its own: 10 is taken by X there, free in t only after
     * removing A. */
    tokenring_error err;
    assert_int_equal(tokenring_topology_add_node(c, "Y", "dc1", "r1", tok, 1, &err),
                     TOKENRING_E_EXISTS);
    assert_non_null(strstr(err.message, "'X'"));
    assert_int_equal(tokenring_topology_clone(NULL, t), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_topology_clone(&c, NULL), TOKENRING_E_INVAL);
    tokenring_topology_free(c);
    tokenring_topology *empty = NULL, *ec = NULL;
    assert_int_equal(tokenring_topology_new(&empty), TOKENRING_OK);
    assert_int_equal(tokenring_topology_clone(&ec, empty), TOKENRING_OK);
    assert_int_equal(tokenring_topology_node_count(ec), 0);
    tokenring_topology_free(ec);
    tokenring_topology_free(empty);
    tokenring_topology_free(t);
}

/* ---------------------------------------------------------------- bad input */

static void add_node_rejects_bad_input(void **state)
{
    (void)state;
    tokenring_topology *t = sample();
    const int64_t ok[] = { 1, 2 };
    char long_name[TOKENRING_MAX_NAME + 2];
    memset(long_name, 'x', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    char max_name[TOKENRING_MAX_NAME + 1];
    memset(max_name, 'y', sizeof max_name - 1);
    max_name[sizeof max_name - 1] = '\0';
    const char bad_utf8[] = { 'n', (char)0xC3, (char)0x28, 0 };
    const char overlong[] = { (char)0xC0, (char)0xAF, 0 };
    const char surrogate[] = { (char)0xED, (char)0xA0, (char)0x80, 0 };

    /* NULL pointers. */
    assert_int_equal(tokenring_topology_add_node(NULL, "X", "dc1", "r1", ok, 2, NULL),
                     TOKENRING_E_INVAL);
    EXPECT_FAIL(t, TOKENRING_E_INVAL, tokenring_topology_add_node(t, NULL, "dc1", "r1", ok, 2, &err));
    EXPECT_FAIL(t, TOKENRING_E_INVAL, tokenring_topology_add_node(t, "X", NULL, "r1", ok, 2, &err));
    EXPECT_FAIL(t, TOKENRING_E_INVAL, tokenring_topology_add_node(t, "X", "dc1", NULL, ok, 2, &err));
    EXPECT_FAIL(t, TOKENRING_E_INVAL, tokenring_topology_add_node(t, "X", "dc1", "r1", NULL, 2, &err));
    /* No tokens. */
    EXPECT_FAIL(t, TOKENRING_E_EMPTY, tokenring_topology_add_node(t, "X", "dc1", "r1", ok, 0, &err));
    EXPECT_FAIL(t, TOKENRING_E_EMPTY, tokenring_topology_add_node(t, "X", "dc1", "r1", NULL, 0, &err));
    /* Empty, oversized and non-UTF-8 names, for each of the three names. */
    EXPECT_FAIL(t, TOKENRING_E_INVAL, tokenring_topology_add_node(t, "", "dc1", "r1", ok, 2, &err));
    EXPECT_FAIL(t, TOKENRING_E_INVAL, tokenring_topology_add_node(t, "X", "", "r1", ok, 2, &err));
    EXPECT_FAIL(t, TOKENRING_E_RANGE, tokenring_topology_add_node(t, long_name, "dc1", "r1", ok, 2, &err));
    EXPECT_FAIL(t, TOKENRING_E_RANGE, tokenring_topology_add_node(t, "X", long_name, "r1", ok, 2, &err));
    EXPECT_FAIL(t, TOKENRING_E_RANGE, tokenring_topology_add_node(t, "X", "dc1", long_name, ok, 2, &err));
    EXPECT_FAIL(t, TOKENRING_E_INVAL, tokenring_topology_add_node(t, bad_utf8, "dc1", "r1", ok, 2, &err));
    EXPECT_FAIL(t, TOKENRING_E_INVAL, tokenring_topology_add_node(t, "X", overlong, "r1", ok, 2, &err));
    EXPECT_FAIL(t, TOKENRING_E_INVAL, tokenring_topology_add_node(t, "X", "dc1", surrogate, ok, 2, &err));
    /* The same node twice. */
    {
        char *before = dump(t);
        tokenring_error err;
        assert_int_equal(tokenring_topology_add_node(t, "B", "dc1", "r1", ok, 2, &err),
                         TOKENRING_E_EXISTS);
        assert_non_null(strstr(err.message, "'B'"));
        char *after = dump(t);
        assert_string_equal(before, after);
        free(before);
        free(after);
    }
    /* A token held by another node: err names the token and the holder. */
    {
        const int64_t clash[] = { 1, 2, 3, 80 };
        char *before = dump(t);
        tokenring_error err;
        assert_int_equal(tokenring_topology_add_node(t, "X", "dc1", "r1", clash, 4, &err),
                         TOKENRING_E_EXISTS);
        assert_int_equal(err.code, TOKENRING_E_EXISTS);
        assert_non_null(strstr(err.message, "80"));
        assert_non_null(strstr(err.message, "'B'"));
        assert_non_null(strstr(err.message, "'X'"));
        char *after = dump(t);
        assert_string_equal(before, after);
        free(before);
        free(after);
    }
    /* A token repeated within the call. */
    {
        const int64_t rep[] = { 7, 8, 7 };
        char *before = dump(t);
        tokenring_error err;
        assert_int_equal(tokenring_topology_add_node(t, "X", "dc1", "r1", rep, 3, &err),
                         TOKENRING_E_EXISTS);
        assert_non_null(strstr(err.message, "7"));
        assert_non_null(strstr(err.message, "repeated"));
        char *after = dump(t);
        assert_string_equal(before, after);
        free(before);
        free(after);
    }
    /* After all that, the names and tokens are still usable: a 255-byte name is fine. */
    assert_int_equal(tokenring_topology_add_node(t, max_name, "dc1", "r1", ok, 2, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_node_count(t), 4);
    tokenring_topology_free(t);
}

static void other_mutations_reject_bad_input(void **state)
{
    (void)state;
    tokenring_topology *t = sample();
    const int64_t ok[] = { 1000 };
    char long_name[TOKENRING_MAX_NAME + 2];
    memset(long_name, 'x', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    const char bad_utf8[] = { (char)0xFF, 0 };

    /* remove */
    assert_int_equal(tokenring_topology_remove_node(NULL, "A", NULL), TOKENRING_E_INVAL);
    EXPECT_FAIL(t, TOKENRING_E_INVAL, tokenring_topology_remove_node(t, NULL, &err));
    EXPECT_FAIL(t, TOKENRING_E_NOTFOUND, tokenring_topology_remove_node(t, "nobody", &err));
    {
        tokenring_error err;
        assert_int_equal(tokenring_topology_remove_node(t, "nobody", &err),
                         TOKENRING_E_NOTFOUND);
        assert_non_null(strstr(err.message, "nobody"));
    }
    /* replace */
    assert_int_equal(tokenring_topology_replace_node(NULL, "A", "X", NULL), TOKENRING_E_INVAL);
    EXPECT_FAIL(t, TOKENRING_E_INVAL, tokenring_topology_replace_node(t, NULL, "X", &err));
    EXPECT_FAIL(t, TOKENRING_E_INVAL, tokenring_topology_replace_node(t, "A", NULL, &err));
    EXPECT_FAIL(t, TOKENRING_E_INVAL, tokenring_topology_replace_node(t, "A", "", &err));
    EXPECT_FAIL(t, TOKENRING_E_INVAL, tokenring_topology_replace_node(t, "A", bad_utf8, &err));
    EXPECT_FAIL(t, TOKENRING_E_RANGE, tokenring_topology_replace_node(t, "A", long_name, &err));
    EXPECT_FAIL(t, TOKENRING_E_NOTFOUND, tokenring_topology_replace_node(t, "nobody", "X", &err));
    EXPECT_FAIL(t, TOKENRING_E_EXISTS, tokenring_topology_replace_node(t, "A", "C", &err));
    EXPECT_FAIL(t, TOKENRING_E_EXISTS, tokenring_topology_replace_node(t, "A", "A", &err));
    /* set_tokens */
    assert_int_equal(tokenring_topology_set_tokens(NULL, "A", ok, 1, NULL), TOKENRING_E_INVAL);
    EXPECT_FAIL(t, TOKENRING_E_INVAL, tokenring_topology_set_tokens(t, NULL, ok, 1, &err));
    EXPECT_FAIL(t, TOKENRING_E_INVAL, tokenring_topology_set_tokens(t, "A", NULL, 1, &err));
    EXPECT_FAIL(t, TOKENRING_E_NOTFOUND, tokenring_topology_set_tokens(t, "nobody", ok, 1, &err));
    EXPECT_FAIL(t, TOKENRING_E_EMPTY, tokenring_topology_set_tokens(t, "A", ok, 0, &err));
    {
        const int64_t clash[] = { 10, 95 }; /* 10 is A's own, 95 is C's */
        EXPECT_FAIL(t, TOKENRING_E_EXISTS, tokenring_topology_set_tokens(t, "A", clash, 2, &err));
        const int64_t rep[] = { 5, 5 };
        EXPECT_FAIL(t, TOKENRING_E_EXISTS, tokenring_topology_set_tokens(t, "A", rep, 2, &err));
    }
    /* set_state */
    assert_int_equal(tokenring_topology_set_state(NULL, "A", TOKENRING_STATE_NORMAL, TOKENRING_UP,
                                                  NULL),
                     TOKENRING_E_INVAL);
    EXPECT_FAIL(t, TOKENRING_E_INVAL,
                tokenring_topology_set_state(t, NULL, TOKENRING_STATE_NORMAL, TOKENRING_UP, &err));
    EXPECT_FAIL(t, TOKENRING_E_INVAL,
                tokenring_topology_set_state(t, "A", (tokenring_node_state)4, TOKENRING_UP, &err));
    EXPECT_FAIL(t, TOKENRING_E_INVAL,
                tokenring_topology_set_state(t, "A", (tokenring_node_state)-1, TOKENRING_UP, &err));
    EXPECT_FAIL(t, TOKENRING_E_INVAL,
                tokenring_topology_set_state(t, "A", TOKENRING_STATE_NORMAL, (tokenring_liveness)3,
                                             &err));
    EXPECT_FAIL(t, TOKENRING_E_NOTFOUND,
                tokenring_topology_set_state(t, "nobody", TOKENRING_STATE_NORMAL, TOKENRING_UP,
                                             &err));
    tokenring_topology_free(t);
}

/* ----------------------------------------------------- allocation failures */

static long fail_at; /* fail the fail_at-th allocation from now (1-based); 0: never */
static long alloc_calls;

static void *t_malloc(size_t n, void *u)
{
    (void)u;
    if (fail_at && ++alloc_calls == fail_at)
        return NULL;
    return malloc(n);
}

static void *t_realloc(void *p, size_t n, void *u)
{
    (void)u;
    if (fail_at && ++alloc_calls == fail_at)
        return NULL;
    return realloc(p, n);
}

/* Runs op with the 1st, 2nd, ... allocation failing until it succeeds; every failure must
 * be E_NOMEM with the topology unchanged. Returns the number of failures seen. */
static int oom_loop(tokenring_topology *t, int (*op)(tokenring_topology *, tokenring_error *))
{
    int failures = 0;
    for (long k = 1;; k++) {
        char *before = dump(t);
        tokenring_error err;
        alloc_calls = 0;
        fail_at = k;
        int rc = op(t, &err);
        fail_at = 0;
        if (rc == TOKENRING_OK) {
            free(before);
            break;
        }
        assert_int_equal(rc, TOKENRING_E_NOMEM);
        assert_true(err.message[0] != '\0');
        char *after = dump(t);
        assert_string_equal(before, after);
        free(before);
        free(after);
        failures++;
        assert_true(k < 1000);
    }
    return failures;
}

static int op_add(tokenring_topology *t, tokenring_error *err)
{
    int64_t toks[64];
    for (int i = 0; i < 64; i++)
        toks[i] = 100000 + i * 7;
    return tokenring_topology_add_node(t, "new", "dc3", "r3", toks, 64, err);
}

static int op_set_tokens(tokenring_topology *t, tokenring_error *err)
{
    int64_t toks[100];
    for (int i = 0; i < 100; i++)
        toks[i] = -500000 - i;
    return tokenring_topology_set_tokens(t, "B", toks, 100, err);
}

static int op_replace(tokenring_topology *t, tokenring_error *err)
{
    return tokenring_topology_replace_node(t, "C", "C2", err);
}

static int op_clone(tokenring_topology *t, tokenring_error *err)
{
    tokenring_topology *c = NULL;
    int rc = tokenring_topology_clone(&c, t);
    if (rc != TOKENRING_OK) {
        assert_null(c);
        memset(err, 0, sizeof *err);
        err->code = rc;
        snprintf(err->message, sizeof err->message, "clone failed: %d", rc);
        return rc;
    }
    char *a = dump(t), *b = dump(c);
    assert_string_equal(a, b);
    free(a);
    free(b);
    tokenring_topology_free(c);
    return rc;
}

static void mutations_are_atomic_on_allocation_failure(void **state)
{
    (void)state;
    /* The topology made below is alive while the failing allocator is installed: keep the
     * free function that made it (tokenring_set_allocator() refuses another). */
    tokenring_allocator cur;
    assert_int_equal(tokenring_get_allocator(&cur), TOKENRING_OK);
    tokenring_allocator a = { t_malloc, t_realloc, cur.free_fn, cur.user };
    tokenring_topology *t = sample();
    /* Enough nodes that the next add grows the arrays and the token table. */
    for (int i = 0; i < 5; i++) {
        char name[16];
        snprintf(name, sizeof name, "n%d", i);
        int64_t tok = 1000 + i;
        assert_int_equal(tokenring_topology_add_node(t, name, "dc1", "r1", &tok, 1, NULL),
                         TOKENRING_OK);
    }
    assert_int_equal(tokenring_set_allocator(&a), TOKENRING_OK);
    assert_true(oom_loop(t, op_add) >= 3);
    assert_true(oom_loop(t, op_set_tokens) >= 1);
    assert_true(oom_loop(t, op_replace) >= 1);
    assert_true(oom_loop(t, op_clone) >= 3);
    assert_int_equal(tokenring_set_allocator(NULL), TOKENRING_OK);
    char *d = dump(t);
    assert_non_null(strstr(d, " new dc=dc3 rack=r3"));
    assert_non_null(strstr(d, " C2 dc=dc2 rack=r1"));
    assert_non_null(strstr(d, "[-500099,"));
    free(d);
    tokenring_topology_free(t);
}

/* --------------------------------------------------- randomized consistency */

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Random adds, removes, moves and replaces against a plain model: token -> holder. */
static void random_operations_match_a_model(void **state)
{
    (void)state;
    enum { SPACE = 512, NODES = 48 };
    int holder[SPACE];     /* model: node id holding token, or -1 */
    bool present[NODES] = { false };
    char names[NODES][16];
    for (int i = 0; i < SPACE; i++)
        holder[i] = -1;
    for (int i = 0; i < NODES; i++)
        snprintf(names[i], sizeof names[i], "node%02d", i);
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    for (int step = 0; step < 3000; step++) {
        int id = (int)(next_rand() % NODES);
        int op = (int)(next_rand() % 4);
        int64_t toks[8];
        size_t k = 1 + next_rand() % 8;
        for (size_t i = 0; i < k; i++)
            toks[i] = (int64_t)(next_rand() % SPACE) - SPACE / 2;
        tokenring_error err;
        if (op <= 1) {
            /* add (or set_tokens when present) */
            bool repeat = false, taken = false;
            for (size_t i = 0; i < k; i++) {
                for (size_t j = 0; j < i; j++)
                    repeat |= toks[i] == toks[j];
                int h = holder[toks[i] + SPACE / 2];
                taken |= h >= 0 && h != id;
            }
            int rc = present[id] ? tokenring_topology_set_tokens(t, names[id], toks, k, &err)
                                 : tokenring_topology_add_node(t, names[id], "dc", "r", toks, k,
                                                               &err);
            if (repeat || taken) {
                assert_int_equal(rc, TOKENRING_E_EXISTS);
                continue;
            }
            assert_int_equal(rc, TOKENRING_OK);
            for (int i = 0; i < SPACE; i++)
                if (holder[i] == id)
                    holder[i] = -1;
            for (size_t i = 0; i < k; i++)
                holder[toks[i] + SPACE / 2] = id;
            present[id] = true;
        } else if (op == 2) {
            int rc = tokenring_topology_remove_node(t, names[id], &err);
            assert_int_equal(rc, present[id] ? TOKENRING_OK : TOKENRING_E_NOTFOUND);
            if (present[id])
                for (int i = 0; i < SPACE; i++)
                    if (holder[i] == id)
                        holder[i] = -1;
            present[id] = false;
        } else {
            int to = (int)(next_rand() % NODES);
            int rc = tokenring_topology_replace_node(t, names[id], names[to], &err);
            if (!present[id]) {
                assert_int_equal(rc, TOKENRING_E_NOTFOUND);
            } else if (present[to]) {
                assert_int_equal(rc, TOKENRING_E_EXISTS);
            } else {
                assert_int_equal(rc, TOKENRING_OK);
                for (int i = 0; i < SPACE; i++)
                    if (holder[i] == id)
                        holder[i] = to;
                present[id] = false;
                present[to] = true;
            }
        }
    }
    /* Every token's holder agrees with the model, seen through the topology. */
    int seen[SPACE];
    for (int i = 0; i < SPACE; i++)
        seen[i] = -1;
    size_t n = tokenring_topology_node_count(t), count = 0;
    for (size_t i = 0; i < n; i++) {
        tokenring_node_info ni;
        assert_int_equal(tokenring_topology_node(&ni, t, i), TOKENRING_OK);
        int id = atoi(ni.name + 4);
        assert_true(present[id]);
        for (size_t j = 0; j < ni.token_count; j++) {
            if (j)
                assert_true(ni.tokens[j - 1] < ni.tokens[j]);
            seen[ni.tokens[j] + SPACE / 2] = id;
        }
        count++;
    }
    for (int i = 0; i < SPACE; i++)
        assert_int_equal(seen[i], holder[i]);
    for (int i = 0; i < NODES; i++)
        if (present[i])
            count--;
    assert_int_equal(count, 0);
    tokenring_topology_free(t);
}

/* The rack "" is a rack: Cassandra's snitches read `rack=` in cassandra-rackdc.properties
 * as "" (GossipingPropertyFileSnitch trims the value and keeps it), and
 * NetworkTopologyStrategy keys racks by name, so "" is distinct from every other rack. */
static void empty_rack_is_a_rack_of_its_own(void **state)
{
    (void)state;
    tokenring_topology *t = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    const int64_t a[] = { 10 }, b[] = { 20 }, c[] = { 30 }, d[] = { 40 };
    assert_int_equal(tokenring_topology_add_node(t, "A", "dc1", "", a, 1, &err), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node(t, "B", "dc1", "", b, 1, &err), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node(t, "C", "dc1", "r1", c, 1, &err), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node(t, "D", "dc1", "r1", d, 1, &err), TOKENRING_OK);
    tokenring_ring *ring = NULL;
    assert_int_equal(tokenring_ring_build(&ring, t, &err), TOKENRING_OK);
    assert_int_equal(tokenring_ring_rack_count(ring), 2);
    tokenring_node_info ni;
    assert_int_equal(tokenring_ring_node(&ni, ring, 0), TOKENRING_OK);
    assert_string_equal(ni.rack, "");
    tokenring_replication *r = NULL;
    assert_int_equal(tokenring_replication_network(&r), TOKENRING_OK);
    assert_int_equal(tokenring_replication_set_dc(r, "dc1", 2, 0, &err), TOKENRING_OK);
    tokenring_placement *pl = NULL;
    assert_int_equal(tokenring_placement_build(&pl, ring, r, 0, &err), TOKENRING_OK);
    /* Token 5 is A's range: A (rack ""), then B is skipped (same rack), C (r1) follows. */
    tokenring_replicas rep;
    assert_int_equal(tokenring_placement_replicas(&rep, pl, 5), TOKENRING_OK);
    assert_int_equal(rep.count, 2);
    assert_int_equal(rep.nodes[0], 0);
    assert_int_equal(rep.nodes[1], 2);
    /* Token 25 is C's range: C (r1), D skipped, then A (rack "") wraps around. */
    assert_int_equal(tokenring_placement_replicas(&rep, pl, 25), TOKENRING_OK);
    assert_int_equal(rep.count, 2);
    assert_int_equal(rep.nodes[0], 2);
    assert_int_equal(rep.nodes[1], 0);
    tokenring_placement_free(pl);
    tokenring_replication_free(r);
    tokenring_ring_free(ring);
    /* The node and datacenter names stay non-empty. */
    assert_int_equal(tokenring_topology_add_node(t, "E", "", "", d, 1, &err), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_topology_node_count(t), 4);
    tokenring_topology_free(t);
}

/* The name index (a hash table since lookups by a sorted array made adding n nodes cost
 * O(n^2)): names added in descending order, then removed and renamed, are found at their
 * indices by the topology and by a ring built from it. */
static void name_index_after_removals_and_renames(void **state)
{
    (void)state;
    enum { N = 3000 };
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    char name[32];
    for (int i = 0; i < N; i++) {
        int64_t tok = (int64_t)i * 1000;
        snprintf(name, sizeof name, "10.%d.%d", (N - i) / 100, (N - i) % 100);
        assert_int_equal(tokenring_topology_add_node(t, name, "dc", "r", &tok, 1, NULL),
                         TOKENRING_OK);
    }
    assert_int_equal(tokenring_topology_add_node(t, "10.30.0", "dc", "r",
                                                 &(int64_t){ -1 }, 1, NULL),
                     TOKENRING_E_EXISTS);
    for (int i = 0; i < N; i += 7) {
        snprintf(name, sizeof name, "10.%d.%d", (N - i) / 100, (N - i) % 100);
        assert_int_equal(tokenring_topology_remove_node(t, name, NULL), TOKENRING_OK);
    }
    assert_int_equal(tokenring_topology_replace_node(t, "10.29.99", "renamed", NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_replace_node(t, "renamed", "10.29.98", NULL),
                     TOKENRING_E_EXISTS);
    size_t n = tokenring_topology_node_count(t), idx;
    assert_int_equal(n, N - (N + 6) / 7);
    tokenring_ring *ring = NULL;
    assert_int_equal(tokenring_ring_build(&ring, t, NULL), TOKENRING_OK);
    for (size_t i = 0; i < n; i++) {
        tokenring_node_info info;
        assert_int_equal(tokenring_topology_node(&info, t, i), TOKENRING_OK);
        assert_int_equal(tokenring_topology_find_node(&idx, t, info.name), TOKENRING_OK);
        assert_int_equal(idx, i);
        uint32_t ri;
        assert_int_equal(tokenring_ring_find_node(&ri, ring, info.name), TOKENRING_OK);
        tokenring_node_info rinfo;
        assert_int_equal(tokenring_ring_node(&rinfo, ring, ri), TOKENRING_OK);
        assert_string_equal(rinfo.name, info.name);
    }
    assert_int_equal(tokenring_topology_find_node(&idx, t, "10.29.99"), TOKENRING_E_NOTFOUND);
    assert_int_equal(tokenring_topology_find_node(&idx, t, "10.30.0"), TOKENRING_E_NOTFOUND);
    uint32_t ri;
    assert_int_equal(tokenring_ring_find_node(&ri, ring, "10.30.0"), TOKENRING_E_NOTFOUND);
    tokenring_topology *copy = NULL;
    assert_int_equal(tokenring_topology_clone(&copy, t), TOKENRING_OK);
    assert_int_equal(tokenring_topology_find_node(&idx, copy, "renamed"), TOKENRING_OK);
    assert_int_equal(tokenring_topology_find_node(&idx, t, "renamed"), TOKENRING_OK);
    tokenring_topology_free(copy);
    tokenring_ring_free(ring);
    tokenring_topology_free(t);
}

/* ------------------- RandomPartitioner and ByteOrderedPartitioner topologies */

static const tokenring_token128 MIN128 = {UINT64_MAX, UINT64_MAX};
static const tokenring_token128 MAX128 = {0x8000000000000000ULL, 0};

static tokenring_token128 t128(uint64_t hi, uint64_t lo)
{
    tokenring_token128 t = {hi, lo};
    return t;
}

static void test_topology128(void **state)
{
    (void)state;
    tokenring_topology *t = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_topology_new_partitioned(&t, (tokenring_partitioner)3),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_topology_new_partitioned(NULL, TOKENRING_PARTITIONER_RANDOM),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_topology_new_partitioned(&t, TOKENRING_PARTITIONER_RANDOM),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_partitioner(t), TOKENRING_PARTITIONER_RANDOM);
    assert_int_equal(tokenring_topology_partitioner(NULL), TOKENRING_PARTITIONER_MURMUR3);
    int64_t i64 = 5;
    assert_int_equal(tokenring_topology_add_node(t, "a", "dc1", "r1", &i64, 1, &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_non_null(strstr(err.message, "RandomPartitioner"));
    const uint8_t *bp = (const uint8_t *)"x";
    size_t bl = 1;
    assert_int_equal(tokenring_topology_add_node_bytes(t, "a", "dc1", "r1", &bp, &bl, 1, &err),
                     TOKENRING_E_UNSUPPORTED);
    tokenring_token128 a[] = {t128(5, 0), MAX128, t128(0, 0)};
    assert_int_equal(tokenring_topology_add_node128(t, "a", "dc1", "r1", a, 3, &err),
                     TOKENRING_OK);
    tokenring_node_info info;
    assert_int_equal(tokenring_topology_node(&info, t, 0), TOKENRING_OK);
    assert_null(info.tokens);
    assert_int_equal(info.token_count, 3);
    tokenring_token128 got;
    assert_int_equal(tokenring_topology_node_token128(&got, t, 0, 0), TOKENRING_OK);
    assert_true(got.hi == 0 && got.lo == 0);
    assert_int_equal(tokenring_topology_node_token128(&got, t, 0, 2), TOKENRING_OK);
    assert_true(got.hi == MAX128.hi && got.lo == 0);
    assert_int_equal(tokenring_topology_node_token128(&got, t, 0, 3), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_topology_node_token128(&got, t, 1, 0), TOKENRING_E_RANGE);
    const uint8_t *bo;
    size_t bol;
    assert_int_equal(tokenring_topology_node_token_bytes(&bo, &bol, t, 0, 0),
                     TOKENRING_E_UNSUPPORTED);

    /* refused tokens; the topology is unchanged after each */
    tokenring_token128 bad1[] = {t128(1, 1), MIN128};
    assert_int_equal(tokenring_topology_add_node128(t, "b", "dc1", "r1", bad1, 2, &err),
                     TOKENRING_E_RANGE);
    assert_non_null(strstr(err.message, "-1"));
    tokenring_token128 bad2[] = {t128(0x8000000000000000ULL, 1)};
    assert_int_equal(tokenring_topology_add_node128(t, "b", "dc1", "r1", bad2, 1, &err),
                     TOKENRING_E_RANGE);
    tokenring_token128 bad3[] = {t128(7, 7), t128(7, 7)};
    assert_int_equal(tokenring_topology_add_node128(t, "b", "dc1", "r1", bad3, 2, &err),
                     TOKENRING_E_EXISTS);
    assert_non_null(strstr(err.message, "repeated"));
    tokenring_token128 bad4[] = {t128(7, 7), t128(5, 0)};
    assert_int_equal(tokenring_topology_add_node128(t, "b", "dc1", "r1", bad4, 2, &err),
                     TOKENRING_E_EXISTS);
    assert_non_null(strstr(err.message, "92233720368547758080")); /* 5 * 2^64 */
    assert_non_null(strstr(err.message, "'a'"));
    assert_int_equal(tokenring_topology_add_node128(t, "b", "dc1", "r1", NULL, 1, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_topology_add_node128(t, "b", "dc1", "r1", bad4, 0, &err),
                     TOKENRING_E_EMPTY);
    assert_int_equal(tokenring_topology_add_node128(t, "a", "dc1", "r1", bad2, 1, &err),
                     TOKENRING_E_EXISTS);
    assert_int_equal(tokenring_topology_node_count(t), 1);

    tokenring_token128 b[] = {t128(7, 7), t128(1, 0)};
    assert_int_equal(tokenring_topology_add_node128(t, "b", "dc1", "r2", b, 2, &err),
                     TOKENRING_OK);
    /* moves: a keeps one of its own tokens, takes a new one; b's tokens are refused */
    tokenring_token128 mv[] = {t128(5, 0), t128(9, 9)};
    assert_int_equal(tokenring_topology_set_tokens128(t, "a", mv, 2, &err), TOKENRING_OK);
    tokenring_token128 mv2[] = {t128(1, 0)};
    assert_int_equal(tokenring_topology_set_tokens128(t, "a", mv2, 1, &err), TOKENRING_E_EXISTS);
    assert_int_equal(tokenring_topology_set_tokens128(t, "zz", mv2, 1, &err), TOKENRING_E_NOTFOUND);
    assert_int_equal(tokenring_topology_set_tokens(t, "a", &i64, 1, &err), TOKENRING_E_UNSUPPORTED);
    /* a's old tokens are free again */
    tokenring_token128 c[] = {MAX128, t128(0, 0)};
    tokenring_topology *copy = NULL;
    assert_int_equal(tokenring_topology_clone(&copy, t), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node128(t, "c", "dc1", "r3", c, 2, &err),
                     TOKENRING_OK);
    /* the clone kept its own tokens and its partitioner */
    assert_int_equal(tokenring_topology_partitioner(copy), TOKENRING_PARTITIONER_RANDOM);
    assert_int_equal(tokenring_topology_add_node128(copy, "c", "dc1", "r3", b, 1, &err),
                     TOKENRING_E_EXISTS);
    assert_int_equal(tokenring_topology_add_node128(copy, "c", "dc1", "r3", c, 2, &err),
                     TOKENRING_OK);
    /* removing a node frees its tokens */
    assert_int_equal(tokenring_topology_remove_node(t, "b", &err), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node128(t, "d", "dc1", "r3", b, 2, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_replace_node(t, "d", "e", &err), TOKENRING_OK);
    size_t idx;
    assert_int_equal(tokenring_topology_find_node(&idx, t, "e"), TOKENRING_OK);
    assert_int_equal(tokenring_topology_node_token128(&got, t, idx, 1), TOKENRING_OK);
    assert_true(got.hi == 7 && got.lo == 7);
    tokenring_topology_free(copy);
    tokenring_topology_free(t);
}

static void test_topology_bytes(void **state)
{
    (void)state;
    tokenring_topology *t = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_topology_new_partitioned(&t, TOKENRING_PARTITIONER_BYTE_ORDERED),
                     TOKENRING_OK);
    const uint8_t *tok[] = {(const uint8_t *)"\x61\x62", (const uint8_t *)"", (const uint8_t *)"\xff"};
    size_t len[] = {2, 0, 1};
    assert_int_equal(tokenring_topology_add_node_bytes(t, "a", "dc1", "r1", tok, len, 3, &err),
                     TOKENRING_OK);
    const uint8_t *b;
    size_t bl;
    assert_int_equal(tokenring_topology_node_token_bytes(&b, &bl, t, 0, 0), TOKENRING_OK);
    assert_int_equal(bl, 0);
    assert_int_equal(tokenring_topology_node_token_bytes(&b, &bl, t, 0, 1), TOKENRING_OK);
    assert_int_equal(bl, 2);
    assert_memory_equal(b, "ab", 2);
    assert_int_equal(tokenring_topology_node_token_bytes(&b, &bl, t, 0, 2), TOKENRING_OK);
    assert_true(bl == 1 && b[0] == 0xff);
    tokenring_token128 x = {1, 1};
    assert_int_equal(tokenring_topology_add_node128(t, "b", "dc1", "r1", &x, 1, &err),
                     TOKENRING_E_UNSUPPORTED);
    /* no tokens, NULL tokens: refused before any token is read, nothing added */
    assert_int_equal(tokenring_topology_add_node_bytes(t, "b", "dc1", "r1", tok, len, 0, &err),
                     TOKENRING_E_EMPTY);
    assert_non_null(strstr(err.message, "node 'b' has no tokens"));
    assert_int_equal(tokenring_topology_add_node_bytes(t, "b", "dc1", "r1", NULL, len, 1, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_topology_set_tokens_bytes(t, "a", tok, NULL, 1, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_topology_node_count(t), 1);
    /* "ab" vs "ab\0": distinct tokens (a prefix comes first), the same 8-byte prefix */
    const uint8_t *tok2[] = {(const uint8_t *)"ab\0", (const uint8_t *)"ab"};
    size_t len2[] = {3, 2};
    assert_int_equal(tokenring_topology_add_node_bytes(t, "b", "dc1", "r1", tok2, len2, 2, &err),
                     TOKENRING_E_EXISTS);
    assert_non_null(strstr(err.message, "6162 of node 'b' is already held by node 'a'"));
    assert_int_equal(tokenring_topology_add_node_bytes(t, "b", "dc1", "r1", tok2, len2, 1, &err),
                     TOKENRING_OK);
    const uint8_t *nul[] = {NULL};
    size_t one = 1, big = TOKENRING_BYTE_TOKEN_MAX + 1;
    assert_int_equal(tokenring_topology_add_node_bytes(t, "c", "dc1", "r1", nul, &one, 1, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_topology_add_node_bytes(t, "c", "dc1", "r1", tok, &big, 1, &err),
                     TOKENRING_E_RANGE);
    const uint8_t *dup[] = {(const uint8_t *)"q", (const uint8_t *)"q"};
    size_t dl[] = {1, 1};
    assert_int_equal(tokenring_topology_add_node_bytes(t, "c", "dc1", "r1", dup, dl, 2, &err),
                     TOKENRING_E_EXISTS);
    assert_non_null(strstr(err.message, "repeated"));
    assert_int_equal(tokenring_topology_set_tokens_bytes(t, "b", dup, dl, 1, &err), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node_bytes(t, "c", "dc1", "r1", tok2, len2, 1, &err),
                     TOKENRING_OK); /* b's old token is free */
    assert_int_equal(tokenring_topology_node_count(t), 3);
    tokenring_topology_free(t);
}

/* The typed calls build their tokens for one implementation: a count over what a
 * topology holds is refused before any token is read (the arrays here hold one), and the
 * partitioner of the call before its tokens; nothing changes. */
static void typed_calls_refuse_before_reading_tokens(void **state)
{
    (void)state;
    tokenring_topology *m = sample(), *r = NULL, *b = NULL;
    assert_int_equal(tokenring_topology_new_partitioned(&r, TOKENRING_PARTITIONER_RANDOM),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_new_partitioned(&b, TOKENRING_PARTITIONER_BYTE_ORDERED),
                     TOKENRING_OK);
    const int64_t one = 5;
    const tokenring_token128 one128 = { 0, 5 };
    const uint8_t *one_bytes[] = { (const uint8_t *)"q" };
    size_t one_len = 1, len = 0;
    char buf[8];
    const size_t n = SIZE_MAX;
    char *before = dump(m);
    tokenring_error err;
    assert_int_equal(tokenring_topology_add_node(m, "X", "dc1", "r1", &one, n, &err),
                     TOKENRING_E_RANGE);
    assert_non_null(strstr(err.message, "too many tokens (at most"));
    assert_int_equal(tokenring_topology_set_tokens(m, "B", &one, n, &err), TOKENRING_E_RANGE);
    assert_non_null(strstr(err.message, "too many tokens"));
    char *after = dump(m);
    assert_string_equal(before, after);
    free(before);
    free(after);
    assert_int_equal(tokenring_topology_add_node128(r, "X", "dc1", "r1", &one128, n, &err),
                     TOKENRING_E_RANGE);
    assert_non_null(strstr(err.message, "too many tokens"));
    assert_int_equal(tokenring_topology_add_node_bytes(b, "X", "dc1", "r1", one_bytes, &one_len,
                                                       n, &err),
                     TOKENRING_E_RANGE);
    assert_non_null(strstr(err.message, "too many tokens"));
    assert_int_equal(tokenring_topology_add_node128(r, "X", "dc1", "r1", &one128, 1, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_set_tokens128(r, "X", &one128, n, &err),
                     TOKENRING_E_RANGE);
    assert_int_equal(tokenring_topology_add_node_bytes(b, "X", "dc1", "r1", one_bytes, &one_len,
                                                       1, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_set_tokens_bytes(b, "X", one_bytes, &one_len, n, &err),
                     TOKENRING_E_RANGE);
    /* a NULL byte token of length 0 is the empty token */
    const uint8_t *empty[] = { NULL };
    size_t zero = 0;
    assert_int_equal(tokenring_topology_add_node_bytes(b, "E", "dc1", "r1", empty, &zero, 1,
                                                       &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_node_token_text(buf, sizeof buf, &len, b, 1, 0),
                     TOKENRING_OK);
    assert_int_equal(len, 0);
    /* the call's partitioner first, even with no tokens */
    assert_int_equal(tokenring_topology_add_node128(m, "X", "dc1", "r1", NULL, 0, &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_non_null(strstr(err.message, "its tokens are not 128-bit integers"));
    assert_int_equal(tokenring_topology_set_tokens_bytes(r, "X", NULL, NULL, 0, &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_int_equal(tokenring_topology_set_tokens(b, "X", NULL, 0, &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_int_equal(tokenring_topology_node_count(r), 1);
    assert_int_equal(tokenring_topology_node_count(b), 2);
    tokenring_topology_free(m);
    tokenring_topology_free(r);
    tokenring_topology_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nodes_keep_insertion_order_and_sorted_tokens),
        cmocka_unit_test(remove_shifts_later_nodes_and_frees_tokens),
        cmocka_unit_test(replace_takes_index_location_and_tokens),
        cmocka_unit_test(set_tokens_and_state),
        cmocka_unit_test(clone_is_deep),
        cmocka_unit_test(add_node_rejects_bad_input),
        cmocka_unit_test(empty_rack_is_a_rack_of_its_own),
        cmocka_unit_test(other_mutations_reject_bad_input),
        cmocka_unit_test(mutations_are_atomic_on_allocation_failure),
        cmocka_unit_test(random_operations_match_a_model),
        cmocka_unit_test(name_index_after_removals_and_renames),
        cmocka_unit_test(test_topology128),
        cmocka_unit_test(test_topology_bytes),
        cmocka_unit_test(typed_calls_refuse_before_reading_tokens),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
