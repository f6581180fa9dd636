/* SPDX-License-Identifier: Apache-2.0 */
/* Private helpers shared by the library's source files. Never installed. */
#ifndef TOKENRING_INTERNAL_H
#define TOKENRING_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tokenring/tokenring.h"

#define TR_HIDDEN __attribute__((visibility("hidden")))

/* Memory: every allocation in the library goes through these (lib/base/alloc.c). */
TR_HIDDEN void *tr_malloc(size_t size);
TR_HIDDEN void *tr_calloc(size_t n, size_t size);      /* overflow-checked, zeroed */
TR_HIDDEN void *tr_realloc(void *ptr, size_t size);
TR_HIDDEN void *tr_reallocarray(void *ptr, size_t n, size_t size); /* overflow-checked */
TR_HIDDEN void tr_free(void *ptr);
/* Asks the OS to back the 2 MiB-aligned interior of a large block with huge pages (fewer
 * TLB misses on random reads); call before the block is first written. No-op elsewhere. */
TR_HIDDEN void tr_advise_huge(void *ptr, size_t bytes);
TR_HIDDEN char *tr_strdup(const char *s);
TR_HIDDEN char *tr_strndup(const char *s, size_t n);

/* Errors (lib/base/error.c): fill err (if any) and return code. */
TR_HIDDEN int tr_fail(tokenring_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
TR_HIDDEN int tr_fail_at(tokenring_error *err, int code, uint32_t line, uint32_t column,
                         const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Progress reporting of the long analyses: the caller's callback (may be NULL), its
 * pointer, and the counts reported so far. tr_progress_report() calls the callback with
 * (done, max(total, done)) and returns TOKENRING_E_CANCELLED, with err filled naming
 * what, when it returns non-zero. tr_progress_tick() does so only every 2^12 calls, for
 * inner loops. */
typedef struct tr_progress {
    tokenring_progress_fn fn;
    void *user;
    uint64_t done, total;
    uint32_t ticks;
} tr_progress;
TR_HIDDEN int tr_progress_report(tr_progress *p, const char *what, tokenring_error *err);
static inline int tr_progress_tick(tr_progress *p, const char *what, tokenring_error *err)
{
    if (!p || !p->fn || (++p->ticks & 0xfffu) != 0)
        return TOKENRING_OK;
    return tr_progress_report(p, what, err);
}

/* Budgets (lib/base/budget.c). Work arithmetic saturates at UINT64_MAX. tr_budget_check()
 * stores the estimate in limits (may be NULL: the default budget) and fails with
 * TOKENRING_E_BUDGET, naming what, when it is above the budget. tr_check_num_tokens()
 * checks 1 .. the limits' max_num_tokens (default TOKENRING_MAX_NUM_TOKENS). */
TR_HIDDEN uint64_t tr_work_add(uint64_t a, uint64_t b);
TR_HIDDEN uint64_t tr_work_mul(uint64_t a, uint64_t b);
TR_HIDDEN uint64_t tr_work_binom(uint64_t n, uint64_t k);
TR_HIDDEN int tr_budget_check(tokenring_limits *limits, uint64_t estimate, const char *what,
                              tokenring_error *err);
TR_HIDDEN int tr_check_num_tokens(tokenring_error *err, uint32_t num_tokens,
                                  const tokenring_limits *limits);

/* Processor features beyond the baseline instruction set (lib/base/cpu.c): TR_CPU_* bits,
 * detected once. TR_CPU_X86 marks builds that have the x86-64 paths that use them. */
#if defined(__GNUC__) && defined(__x86_64__)
#define TR_CPU_X86 1
#endif
#define TR_CPU_POPCNT 1u
#define TR_CPU_AVX2 2u /* AVX2, and the system saves the 256-bit registers */
#define TR_CPU_AVX512 4u /* AVX-512 F and DQ, and the system saves the 512-bit registers */
TR_HIDDEN unsigned tr_cpu_features(void);

/* Packed keys (count > 0 keys, key i at keys + offsets[i] .. offsets[i + 1], offsets not
 * NULL), as every batch call takes them: the offsets do not decrease, fit in memory,
 * and keys is NULL only when every key is empty. A batch checks
 * this before it writes anything. */
static inline bool tr_packed_keys_ok(const uint8_t *keys, const uint64_t *offsets,
                                     size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (offsets[i + 1] < offsets[i])
            return false;
    return offsets[count] <= (uint64_t)SIZE_MAX && (keys != NULL || offsets[count] == offsets[0]);
}

/* The Murmur3 tokens of count packed keys into out (lib/token/murmur3.c), as
 * tokenring_token gives them one by one; the keys already checked (tr_packed_keys_ok).
 * Where the processor has AVX-512, eight keys of one length at a time. */
TR_HIDDEN void tr_tokens_packed(int64_t *out, const uint8_t *keys, const uint64_t *offsets,
                                size_t count);

/* Names: non-empty, valid UTF-8, at most TOKENRING_MAX_NAME bytes, no NUL inside. */
TR_HIDDEN int tr_check_name(tokenring_error *err, const char *what, const char *name);
/* As tr_check_name, but the empty rack name "" is valid: Cassandra's snitches read
 * `rack=` in cassandra-rackdc.properties as the rack "" (a rack like any other). */
TR_HIDDEN int tr_check_rack_name(tokenring_error *err, const char *what, const char *name);
TR_HIDDEN bool tr_utf8_valid(const uint8_t *s, size_t n);
TR_HIDDEN size_t tr_utf8_bad_offset(const uint8_t *s, size_t n);

/* Exact 128-bit integers (widths up to 2^127 and their sums and products), for the files
 * that compute them; GCC and Clang have them on every 64-bit target. */
__extension__ typedef unsigned __int128 tr_u128;
__extension__ typedef __int128 tr_i128;

/* qsort/bsearch order of int64_t values (tokens), ascending. */
static inline int tr_cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

#endif
