/* SPDX-License-Identifier: Apache-2.0 */
/* The allocator hooks: the only place the library touches the C allocator. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE 1 /* madvise's MADV_HUGEPAGE (a BSD/Linux extension) */
#endif
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

TOKENRING_API int tokenring_set_allocator(const tokenring_allocator *allocator)
{
    if (allocator == NULL) {
        current = (tokenring_allocator){ default_malloc, default_realloc, default_free, NULL };
        return TOKENRING_OK;
    }
    if (!allocator->malloc_fn || !allocator->realloc_fn || !allocator->free_fn)
        return TOKENRING_E_INVAL;
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

void *tr_malloc(size_t size)
{
    return current.malloc_fn(size ? size : 1, current.user);
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
    return current.realloc_fn(ptr, size ? size : 1, current.user);
}

void *tr_reallocarray(void *ptr, size_t n, size_t size)
{
    if (size != 0 && n > SIZE_MAX / size)
        return NULL;
    return tr_realloc(ptr, n * size);
}

void tr_free(void *ptr)
{
    if (ptr)
        current.free_fn(ptr, current.user);
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
