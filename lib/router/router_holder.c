/* SPDX-License-Identifier: Apache-2.0 */
/* Publication of router snapshots without locks: hazard-pointer slots, one per reader
 * thread, with a mark bit by which a writer counts the readers of the record it retires
 * (the memory-model argument is in router.h, @ref router_holder). Readers that find
 * their slot already protecting the current record (every request between two swaps) do
 * two loads and no store. */
#include <stdalign.h>
#include <stdatomic.h>
#include <string.h>

#include "router_internal.h"

#define MARK ((uintptr_t)1)

/* One publication: a snapshot and how many holders of it are left (the writer's own
 * count while it retires the record, one per marked slot). Published once. */
typedef struct record {
    tokenring_router *router; /* owned reference */
    atomic_size_t readers;
} record;

/* A reader's slot, alone on its cache line(s): the record it protects (with MARK when a
 * writer has counted it) or 0. */
struct tokenring_router_reader {
    alignas(64) _Atomic(uintptr_t) hazard;
    atomic_bool in_use;
    struct tokenring_router_reader *next; /* immutable once the slot is pushed */
    tokenring_router_holder *holder;
    char pad[64 - sizeof(uintptr_t) - sizeof(atomic_bool) - 2 * sizeof(void *)];
};

struct tokenring_router_holder {
    alignas(64) _Atomic(record *) current;
    char pad[64 - sizeof(void *)];
    alignas(64) _Atomic(tokenring_router_reader *) slots; /* pushed, never removed */
};

/* The library's allocator gives no 64-byte alignment (malloc's is 16), which the slots'
 * and the holder's alignas(64) members need: take a cache line more and align by hand,
 * keeping the block's start just below the aligned address for the free. */
static void *line_alloc(size_t size)
{
    char *raw = tr_malloc(size + 64 + sizeof(void *));
    if (!raw)
        return NULL;
    uintptr_t at = ((uintptr_t)(raw + sizeof(void *)) + 63) & ~(uintptr_t)63;
    memcpy((void *)(at - sizeof(void *)), &raw, sizeof raw);
    memset((void *)at, 0, size);
    return (void *)at;
}

static void line_free(void *p)
{
    if (!p)
        return;
    void *raw;
    memcpy(&raw, (char *)p - sizeof raw, sizeof raw);
    tr_free(raw);
}

static void record_drop(record *rec)
{
    if (atomic_fetch_sub_explicit(&rec->readers, 1, memory_order_acq_rel) == 1) {
        tokenring_router_free(rec->router);
        tr_free(rec);
    }
}

/* The reader let go of the value its slot held (what an exchange on the slot returned):
 * a marked record counted it, so it gives that count back. */
static void slot_dropped(uintptr_t old)
{
    if (old & MARK)
        record_drop((record *)(old & ~MARK));
}

static record *record_new(const tokenring_router *router)
{
    record *rec = tr_malloc(sizeof *rec);
    if (!rec)
        return NULL;
    rec->router = tokenring_router_ref(router);
    atomic_init(&rec->readers, 1);
    return rec;
}

/* The writer's part after unpublishing old: count every slot protecting it. */
static void retire(tokenring_router_holder *h, record *old)
{
    for (tokenring_router_reader *s = atomic_load(&h->slots); s; s = s->next) {
        uintptr_t expect = (uintptr_t)old;
        atomic_fetch_add_explicit(&old->readers, 1, memory_order_relaxed);
        if (!atomic_compare_exchange_strong(&s->hazard, &expect, (uintptr_t)old | MARK))
            atomic_fetch_sub_explicit(&old->readers, 1, memory_order_acq_rel); /* not 0:
                                                                  the writer's own count */
    }
    record_drop(old);
}

TOKENRING_API int tokenring_router_holder_new(tokenring_router_holder **out,
                                              const tokenring_router *initial)
{
    if (!out || !initial)
        return TOKENRING_E_INVAL;
    tokenring_router_holder *h = line_alloc(sizeof *h);
    if (!h)
        return TOKENRING_E_NOMEM;
    record *rec = record_new(initial);
    if (!rec) {
        line_free(h);
        return TOKENRING_E_NOMEM;
    }
    atomic_init(&h->current, rec);
    atomic_init(&h->slots, NULL);
    *out = h;
    return TOKENRING_OK;
}

TOKENRING_API void tokenring_router_holder_free(tokenring_router_holder *holder)
{
    if (!holder)
        return;
    record *rec = atomic_load(&holder->current);
    tokenring_router_reader *s = atomic_load(&holder->slots);
    while (s) {
        tokenring_router_reader *next = s->next;
        slot_dropped(atomic_exchange(&s->hazard, 0));
        line_free(s);
        s = next;
    }
    record_drop(rec);
    line_free(holder);
}

TOKENRING_API int tokenring_router_holder_swap(tokenring_router_holder *holder,
                                               const tokenring_router *next)
{
    if (!holder || !next)
        return TOKENRING_E_INVAL;
    record *rec = record_new(next);
    if (!rec)
        return TOKENRING_E_NOMEM;
    record *old = atomic_exchange(&holder->current, rec);
    retire(holder, old);
    return TOKENRING_OK;
}

TOKENRING_API tokenring_router *tokenring_router_holder_current(tokenring_router_holder *holder)
{
    if (!holder)
        return NULL;
    /* A short-lived reader of its own: protect, validate, take a reference, let go. */
    tokenring_router_reader *rd = NULL;
    if (tokenring_router_reader_new(&rd, holder) != TOKENRING_OK)
        return NULL;
    tokenring_router *r = tokenring_router_ref(tokenring_router_acquire(rd));
    tokenring_router_reader_free(rd);
    return r;
}

TOKENRING_API int tokenring_router_reader_new(tokenring_router_reader **out,
                                              tokenring_router_holder *holder)
{
    if (!out || !holder)
        return TOKENRING_E_INVAL;
    for (tokenring_router_reader *s = atomic_load(&holder->slots); s; s = s->next) {
        bool free_slot = false;
        if (atomic_compare_exchange_strong(&s->in_use, &free_slot, true)) {
            *out = s;
            return TOKENRING_OK;
        }
    }
    tokenring_router_reader *s = line_alloc(sizeof *s);
    if (!s)
        return TOKENRING_E_NOMEM;
    atomic_init(&s->hazard, 0);
    atomic_init(&s->in_use, true);
    s->holder = holder;
    tokenring_router_reader *head = atomic_load(&holder->slots);
    do
        s->next = head;
    while (!atomic_compare_exchange_weak(&holder->slots, &head, s));
    *out = s;
    return TOKENRING_OK;
}

TOKENRING_API void tokenring_router_reader_free(tokenring_router_reader *reader)
{
    if (!reader)
        return;
    slot_dropped(atomic_exchange(&reader->hazard, 0));
    atomic_store(&reader->in_use, false);
}

TOKENRING_API const tokenring_router *tokenring_router_acquire(tokenring_router_reader *reader)
{
    if (!reader)
        return NULL;
    tokenring_router_holder *h = reader->holder;
    record *p = atomic_load_explicit(&h->current, memory_order_acquire);
    uintptr_t mine = atomic_load_explicit(&reader->hazard, memory_order_relaxed);
    if (__builtin_expect((mine & ~MARK) == (uintptr_t)p, 1))
        return p->router; /* protected since it was validated */
    for (;;) {
        slot_dropped(atomic_exchange(&reader->hazard, (uintptr_t)p));
        record *q = atomic_load(&h->current);
        if (q == p)
            return p->router;
        p = q;
    }
}

TOKENRING_API void tokenring_router_release(tokenring_router_reader *reader)
{
    if (!reader)
        return;
    record *p = atomic_load_explicit(&reader->holder->current, memory_order_relaxed);
    uintptr_t mine = atomic_load_explicit(&reader->hazard, memory_order_relaxed);
    if (__builtin_expect((mine & ~MARK) == (uintptr_t)p, 1))
        return; /* still current: keep the protection for the next request */
    slot_dropped(atomic_exchange(&reader->hazard, 0));
}
