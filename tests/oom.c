/* SPDX-License-Identifier: Apache-2.0 */
/* Allocation-failure injection through the public allocator hooks: every call that
 * allocates is run with its 1st, 2nd, ... nth allocation failing, until it succeeds. Each
 * failure must return TOKENRING_E_NOMEM, leak nothing, and leave the handles passed in
 * exactly as they were (compared through a printable dump). */
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"
#include "oom.h"

/* ------------------------------------------------------------ counting allocator */

static long live_blocks;
static long alloc_calls;
static long fail_at; /* 0 = never */

typedef struct {
    size_t size;
    size_t pad;
} hdr;

static void *oom_malloc(size_t size, void *user)
{
    (void)user;
    if (fail_at && ++alloc_calls == fail_at)
        return NULL;
    hdr *h = malloc(sizeof(hdr) + size);
    if (!h)
        return NULL;
    h->size = size;
    live_blocks++;
    return h + 1;
}

static void oom_free(void *ptr, void *user)
{
    (void)user;
    if (!ptr)
        return;
    live_blocks--;
    free((hdr *)ptr - 1);
}

static void *oom_realloc(void *ptr, size_t size, void *user)
{
    if (!ptr)
        return oom_malloc(size, user);
    if (fail_at && ++alloc_calls == fail_at)
        return NULL;
    hdr *h = realloc((hdr *)ptr - 1, sizeof(hdr) + size);
    if (!h)
        return NULL;
    h->size = size;
    return h + 1;
}

static const tokenring_allocator counting = { oom_malloc, oom_realloc, oom_free, NULL };

/* ------------------------------------------------------------------ the driver */

void oom_check(const char *what, void *ctx, oom_op op, oom_dump dump)
{
    char *before = dump ? dump(ctx) : NULL;
    long base = live_blocks;
    for (long n = 1;; n++) {
        alloc_calls = 0;
        fail_at = n;
        void *made = NULL;
        int rc = op(ctx, &made);
        fail_at = 0;
        if (rc == TOKENRING_OK) {
            if (n == 1 && alloc_calls == 0)
                fprintf(stderr, "%s: no allocation at all\n", what);
            else
                fprintf(stderr, "%s: %ld allocation failures handled\n", what, n - 1);
            oom_release(made);
            break;
        }
        if (rc != TOKENRING_E_NOMEM)
            fail_msg("%s: allocation %ld failing gave %d (%s), not TOKENRING_E_NOMEM", what,
                     n, rc, tokenring_status_name(rc));
        if (made != NULL)
            fail_msg("%s: allocation %ld failing still produced an object", what, n);
        if (live_blocks != base)
            fail_msg("%s: allocation %ld failing leaked %ld blocks", what, n,
                     live_blocks - base);
        if (dump) {
            char *after = dump(ctx);
            if (strcmp(before, after) != 0)
                fail_msg("%s: allocation %ld failing changed the input:\n%s\nvs\n%s", what, n,
                         before, after);
            free(after);
        }
        if (n > 100000)
            fail_msg("%s: still failing after %ld allocations", what, n);
    }
    free(before);
}

/* ----------------------------------------------------------- shared fixtures */

char *oom_dump_topology(void *ctx)
{
    const tokenring_topology *t = ((oom_ctx *)ctx)->topology;
    size_t cap = 1024, len = 0;
    char *s = malloc(cap);
    s[0] = '\0';
    for (size_t i = 0; i < tokenring_topology_node_count(t); i++) {
        tokenring_node_info ni;
        assert_int_equal(tokenring_topology_node(&ni, t, i), TOKENRING_OK);
        for (size_t k = 0; k <= ni.token_count; k++) {
            char line[700];
            int w = k == 0 ? snprintf(line, sizeof line, "\n%s %s %s %d %d:", ni.name,
                                      ni.datacenter, ni.rack, ni.state, ni.liveness)
                           : snprintf(line, sizeof line, " %lld", (long long)ni.tokens[k - 1]);
            while (len + (size_t)w + 1 > cap)
                s = realloc(s, cap *= 2);
            memcpy(s + len, line, (size_t)w + 1);
            len += (size_t)w;
        }
    }
    return s;
}

static void add(tokenring_topology *t, const char *name, const char *dc, const char *rack,
                int64_t first, int n)
{
    int64_t tok[64];
    for (int i = 0; i < n; i++)
        tok[i] = first + (int64_t)i * (INT64_MAX / n) - INT64_MAX / 2;
    assert_int_equal(tokenring_topology_add_node(t, name, dc, rack, tok, (size_t)n, NULL),
                     TOKENRING_OK);
}

tokenring_topology *oom_sample_topology(void)
{
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    static const char *racks[] = { "r1", "r2", "r3" };
    char name[16];
    for (int i = 0; i < 9; i++) {
        snprintf(name, sizeof name, "10.0.%d.%d", i / 6 + 1, i % 6 + 1);
        add(t, name, i < 6 ? "dc1" : "dc2", racks[i % 3], 1000 * i + 7, 8);
    }
    return t;
}

void oom_release(void *made)
{
    /* Objects are released by the op's own context; nothing generic to free. */
    (void)made;
}

int oom_setup(void **state)
{
    (void)state;
    assert_int_equal(tokenring_set_allocator(&counting), TOKENRING_OK);
    live_blocks = 0;
    return 0;
}

int oom_teardown(void **state)
{
    (void)state;
    assert_int_equal(live_blocks, 0);
    assert_int_equal(tokenring_set_allocator(NULL), TOKENRING_OK);
    return 0;
}

long oom_live_blocks(void)
{
    return live_blocks;
}

long oom_count_allocations(void *ctx, oom_op op)
{
    alloc_calls = 0;
    fail_at = LONG_MAX; /* counts every allocation, fails none */
    void *made = NULL;
    int rc = op(ctx, &made);
    fail_at = 0;
    assert_int_equal(rc, TOKENRING_OK);
    return alloc_calls;
}
