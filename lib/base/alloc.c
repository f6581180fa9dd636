/* SPDX-License-Identifier: Apache-2.0 */
/* The allocator hooks: the only place the library touches the C allocator. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE 1 /* madvise's MADV_HUGEPAGE (a BSD/Linux extension) */
#endif
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "internal.h"

static void *default_malloc(size_t size, void *user)
{
    (void)user;
    return malloc(size);
}

static void *default_realloc(void *ptr, size_t size, void *user)
{
    (void)user;
    return realloc(ptr, size);
}

static void default_free(void *ptr, void *user)
{
    (void)user;
    free(ptr);
}

static tokenring_allocator current = { default_malloc, default_realloc, default_free, NULL };

/* Blocks the library holds: made by tr_malloc (or tr_realloc of NULL), not yet given to
 * tr_free. tokenring_set_allocator() reads it to refuse a change of the free function while
 * a block made by the current one is alive.
 * Relaxed ordering is enough: the counter publishes no other memory, it is only read for
 * its own value, and the read-modify-writes cannot lose an update between threads that
 * allocate at once. The one reader, tokenring_set_allocator(), is documented not to run
 * concurrently with any other library call: the caller's own synchronization (joining the
 * threads, a mutex) makes every earlier allocation and free happen before it, and
 * coherence then makes the load see their sum. A set_allocator racing with allocations
 * is outside the contract, as it was before the counter. */
static atomic_size_t live_blocks;

/* Blocks made under one allocator may be released only by a free function that accepts
 * them: the same free_fn with the same user pointer. */
static bool same_free(const tokenring_allocator *a, const tokenring_allocator *b)
{
    return a->free_fn == b->free_fn && a->user == b->user;
}

TOKENRING_API int tokenring_set_allocator(const tokenring_allocator *allocator)
{
    const tokenring_allocator defaults = { default_malloc, default_realloc, default_free, NULL };
    if (allocator == NULL)
        allocator = &defaults;
    if (!allocator->malloc_fn || !allocator->realloc_fn || !allocator->free_fn)
        return TOKENRING_E_INVAL;
    if (!same_free(allocator, &current) &&
        atomic_load_explicit(&live_blocks, memory_order_relaxed) != 0)
        return TOKENRING_E_BUSY;
    current = *allocator;
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_get_allocator(tokenring_allocator *out)
{
    if (out == NULL)
        return TOKENRING_E_INVAL;
    *out = current;
    return TOKENRING_OK;
}

static void *counted(void *p)
{
    if (p)
        atomic_fetch_add_explicit(&live_blocks, 1, memory_order_relaxed);
    return p;
}

void *tr_malloc(size_t size)
{
    return counted(current.malloc_fn(size ? size : 1, current.user));
}

void *tr_calloc(size_t n, size_t size)
{
    if (size != 0 && n > SIZE_MAX / size)
        return NULL;
    size_t total = n * size;
    void *p = tr_malloc(total);
    if (p)
        memset(p, 0, total ? total : 1);
    return p;
}

void *tr_realloc(void *ptr, size_t size)
{
    void *p = current.realloc_fn(ptr, size ? size : 1, current.user);
    return ptr ? p : counted(p); /* growing a block keeps the count; from NULL it is new */
}

void *tr_reallocarray(void *ptr, size_t n, size_t size)
{
    if (size != 0 && n > SIZE_MAX / size)
        return NULL;
    return tr_realloc(ptr, n * size);
}

void tr_free(void *ptr)
{
    if (ptr) {
        current.free_fn(ptr, current.user);
        atomic_fetch_sub_explicit(&live_blocks, 1, memory_order_relaxed);
    }
}

char *tr_strndup(const char *s, size_t n)
{
    char *d = tr_malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

char *tr_strdup(const char *s)
{
    return tr_strndup(s, strlen(s));
}

void tr_advise_huge(void *ptr, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    /* Only the 2 MiB pages that lie wholly inside the block: the advice never touches
     * memory the block does not own. Advisory: a refusal changes nothing. */
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t lo = ((uintptr_t)ptr + huge - 1) & ~(huge - 1);
    uintptr_t hi = ((uintptr_t)ptr + bytes) & ~(huge - 1);
    if (ptr && hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
    (void)ptr;
    (void)bytes;
#endif
}
