/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file router_holder.h
 * @brief Publishing a router to reader threads without locks: the holder and its
 *        readers (lib/router/router_holder.c). Part of the routers (router.h, which includes
 *        this file).
 *
 * @section router_holder Publication
 * A ::tokenring_router_holder publishes the current snapshot to any number of reader
 * threads. Each reader thread registers once (tokenring_router_reader_new()), then per
 * request takes the snapshot with tokenring_router_acquire() and gives it back with
 * tokenring_router_release(), with no lock, no allocation, no atomic read-modify-write and
 * no store to memory another thread reads, as long as the snapshot has not changed
 * since its previous request. A writer swaps in a new snapshot with
 * tokenring_router_holder_swap() at any time; the old one is freed by whichever of the
 * swap and the readers still holding it lets go last.
 *
 * The memory-model argument (C11 atomics; every operation named seq_cst below is
 * memory_order_seq_cst, so all of them are in one total order S):
 * - The holder publishes a small record per swap (the snapshot and a counter
 *   @c readers), never the same record twice. Each reader owns one slot, a word on its
 *   own cache line holding the record it protects (a hazard pointer) and a mark bit.
 * - Acquire, slow path (first request, or the record changed): the reader stores the
 *   record @c p it loaded into its slot (seq_cst exchange, which also returns the record
 *   it protected before, handled as in release), then loads the current record again
 *   (seq_cst) and retries until both loads agree. Only then does it read @c p.
 * - Swap: the writer exchanges the current record (seq_cst), then for every slot adds one
 *   to the old record's @c readers and compare-exchanges the slot from the old record to
 *   the old record with the mark bit set (seq_cst), taking the one back if that fails;
 *   finally it drops its own count of one. Whoever brings @c readers to zero frees the
 *   record and releases its snapshot.
 * - Why no reader reads a freed record: a reader reads @c p only after its second load
 *   returned @c p. That load precedes in S the writer's exchange that removed @c p (a
 *   record is published once, so a load after that exchange cannot return it), so the
 *   reader's slot store precedes the writer's scan of that slot in S, and the scan sees
 *   @c p there (the slot changes only by its reader, who has not moved on): it marks
 *   the slot and counts the reader. The record lives until the reader, finding the mark
 *   when it changes its slot (exchange), takes its count back.
 * - Why nothing leaks: a slot the writer did not mark was not counted, and its reader
 *   gives nothing back; every count taken is given back once, by the writer (failed
 *   compare-exchange, its own count) or by the reader (marked slot).
 * - Happens-before for the free: a reader's reads of the snapshot precede its exchange on
 *   the slot (release); the writer's compare-exchange that reads that value (acquire) or
 *   the reader's own decrement (acq_rel) precede, through the release sequence of
 *   @c readers, the decrement that frees. ThreadSanitizer sees exactly these edges.
 * - Fast path: when the slot already protects the current record (a relaxed load of the
 *   reader's own slot, an acquire load of the current record), the protection has held
 *   since the slot was validated, so acquire returns at once and release keeps the slot
 *   as it is. A release that finds the record changed clears the slot (the slow path).
 *   So an idle reader thread keeps at most one old snapshot alive until its next
 *   tokenring_router_acquire() or tokenring_router_release(), or until it frees its
 *   reader.
 *
 * Threads: a holder's swap may be called from any thread, concurrently with readers and
 * with other swaps. A reader is used by one thread at a time and holds one snapshot at a
 * time (tokenring_router_acquire() again without a release gives the current snapshot
 * and drops the old one): a thread that needs two at once registers two readers.
 */
#ifndef TOKENRING_ROUTER_HOLDER_H
#define TOKENRING_ROUTER_HOLDER_H

#include "tokenring/common.h"
#include "tokenring/router_snapshot.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Publishes the current router to reader threads without locks. @since 1.2 */
typedef struct tokenring_router_holder tokenring_router_holder;
/** One reader thread's registration with a holder. @since 1.2 */
typedef struct tokenring_router_reader tokenring_router_reader;

/**
 * Creates a holder publishing @p initial (the holder takes its own reference).
 * @param[out] out receives the holder; free with tokenring_router_holder_free()
 * @param initial the first snapshot
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_router_holder_new(tokenring_router_holder **out,
                                              const tokenring_router *initial);

/**
 * Frees a holder and drops its reference to the current snapshot. Every reader must
 * have been freed, and no call on the holder may be running.
 * @param holder the holder, or NULL (no-op)
 * @since 1.2
 */
TOKENRING_API void tokenring_router_holder_free(tokenring_router_holder *holder);

/**
 * Publishes @p next (the holder takes its own reference): later acquires give it. The
 * previous snapshot is released once no reader holds it. Thread-safe, lock-free; it
 * allocates one small record, so it can fail only for memory.
 * @param holder the holder
 * @param next the new snapshot
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_NOMEM (nothing changed)
 * @since 1.2
 */
TOKENRING_API int tokenring_router_holder_swap(tokenring_router_holder *holder,
                                               const tokenring_router *next);

/**
 * A new reference to the current snapshot, for a writer that wants to apply an event to
 * it (tokenring_router_apply()) or keep it. Thread-safe.
 * @param holder the holder
 * @return the router (free with tokenring_router_free()), or NULL for NULL
 * @since 1.2
 */
TOKENRING_API tokenring_router *tokenring_router_holder_current(tokenring_router_holder *holder);

/**
 * Registers a reader (once per thread; the slot of a freed reader is reused).
 * @param[out] out receives the reader
 * @param holder the holder
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_router_reader_new(tokenring_router_reader **out,
                                              tokenring_router_holder *holder);

/**
 * Releases what the reader protects and unregisters it.
 * @param reader the reader, or NULL (no-op)
 * @since 1.2
 */
TOKENRING_API void tokenring_router_reader_free(tokenring_router_reader *reader);

/**
 * Takes the current snapshot: valid until tokenring_router_release() (or the next
 * acquire) on this reader. No lock, no allocation; see @ref router_holder.
 * @param reader the reader
 * @return the snapshot (never NULL for a valid reader)
 * @since 1.2
 */
TOKENRING_API const tokenring_router *tokenring_router_acquire(tokenring_router_reader *reader);

/**
 * Gives back the snapshot the reader acquired. Keeps the protection while the snapshot
 * is still current (the next acquire then costs two loads); drops it otherwise.
 * @param reader the reader (NULL: no-op)
 * @since 1.2
 */
TOKENRING_API void tokenring_router_release(tokenring_router_reader *reader);

#ifdef __cplusplus
}
#endif

#endif /* TOKENRING_ROUTER_HOLDER_H */
