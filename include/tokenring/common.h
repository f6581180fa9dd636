/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file common.h
 * @brief Status codes, error details, versions and memory hooks shared by every part of
 *        libtokenring.
 *
 * Every function that can fail returns an @c int holding a ::tokenring_status value:
 * #TOKENRING_OK (zero) on success, a negative code otherwise. Functions that build
 * something (topologies, rings, placements, parsers, analyses) also take an optional
 * caller-owned ::tokenring_error that receives a human-readable detail (which node, which
 * token, which datacenter, which line). A failing call never modifies the objects passed to
 * it and never leaves anything allocated; what a failed builder leaves in its @c *out is
 * stated once, in @ref common_out.
 *
 * Thread safety: everything in this file may be called from any thread, except
 * tokenring_set_allocator(), which must be called before any other libtokenring function
 * (or while no other thread calls the library; it refuses to change the free function
 * while a libtokenring object is alive).
 *
 * @section common_out What *out holds after a failed call
 * A builder is a function that creates an object and returns it through its first
 * parameter, <tt>T **out</tt>: tokenring_topology_new(), tokenring_topology_clone(),
 * tokenring_ring_build(), tokenring_replication_simple(), tokenring_replication_network(),
 * tokenring_replication_parse(), tokenring_placement_build(), tokenring_placement_update(),
 * tokenring_cluster_new(), tokenring_movement_compare(), tokenring_movement_join(),
 * tokenring_movement_decommission(), tokenring_movement_replace(),
 * tokenring_movement_move(), tokenring_availability_build(),
 * tokenring_availability_build_progress(), tokenring_migration_plan() and
 * tokenring_migration_plan_progress(). A builder writes @c *out only when it succeeds, and then
 * with the new object, which the caller owns. When it fails, whatever the reason (a NULL
 * argument, a bad value, no memory), @c *out keeps the value it had before the call: a
 * caller that wants NULL after a failure sets it to NULL first (as the examples do), and
 * a failed rebuild into the variable that holds the previous object leaves that object
 * in place. With @c out NULL a builder fails with #TOKENRING_E_INVAL. The other output
 * parameters (structures, buffers, counts, borrowed pointers) hold unspecified contents
 * after a failed call, except where a function documents what it writes (e.g. the length
 * a formatter reports with #TOKENRING_E_BUFSIZE).
 */
#ifndef TOKENRING_COMMON_H
#define TOKENRING_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "tokenring/version.h"

#ifndef TOKENRING_API
#  if defined(_WIN32)
#    define TOKENRING_API
#  elif defined(__GNUC__) && __GNUC__ >= 4
/** Marks a declaration as part of the exported ABI. Defined empty when generating
 *  bindings or documentation. @since 1.0 */
#    define TOKENRING_API __attribute__((visibility("default")))
#  else
#    define TOKENRING_API
#  endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** The smallest token, -2^63: the partitioner's minimum-token sentinel (token of the
 *  empty key). No non-empty key hashes to it. @since 1.0 */
#define TOKENRING_MIN_TOKEN (-9223372036854775807LL - 1)
/** The largest token, 2^63 - 1. A raw hash equal to #TOKENRING_MIN_TOKEN becomes this
 *  token. @since 1.0 */
#define TOKENRING_MAX_TOKEN 9223372036854775807LL
/** Longest node, datacenter or rack name in bytes, excluding the terminating NUL.
 *  @since 1.0 */
#define TOKENRING_MAX_NAME 255
/** Largest replication factor the token allocators and layouts plan for
 *  (tokenring_layout_* and tokenring_allocate_*: their rf parameter is 1 .. this). Until
 *  1.2 it also bounded replication descriptions; those now accept up to
 *  #TOKENRING_MAX_REPLICATION_FACTOR. @since 1.0 */
#define TOKENRING_MAX_RF 255
/** Largest replication factor a replication description accepts for one datacenter (or
 *  for SimpleStrategy): 2^31 - 1, as Cassandra, which reads any int. A factor above the
 *  nodes of a datacenter places every node of it (min(rf, nodes) replicas), so a
 *  ::tokenring_replicas can hold more than #TOKENRING_MAX_RF nodes: size buffers by its
 *  count, never by #TOKENRING_MAX_RF. @since 1.2 */
#define TOKENRING_MAX_REPLICATION_FACTOR 2147483647
/** Largest serialized partition key Cassandra accepts (and the largest composite
 *  component), in bytes. @since 1.0 */
#define TOKENRING_MAX_KEY 65535

/**
 * Status codes returned by every fallible call. Values are part of the ABI and never
 * change; new codes may be added with new negative values.
 * @since 1.0
 */
typedef enum tokenring_status {
    TOKENRING_OK = 0,                 /**< Success. */
    TOKENRING_E_INVAL = -1,           /**< An argument is invalid: a NULL pointer, an
                                           empty or non-UTF-8 name, a bad flag. */
    TOKENRING_E_NOMEM = -2,           /**< A memory allocation failed. */
    TOKENRING_E_NOTFOUND = -3,        /**< A named node or datacenter does not exist. */
    TOKENRING_E_EXISTS = -4,          /**< A node name or token is already present. */
    TOKENRING_E_RANGE = -5,           /**< A value is outside its limits: a name longer
                                           than #TOKENRING_MAX_NAME, a negative or too
                                           large replication factor, an index past the
                                           end, a number that does not fit its type. */
    TOKENRING_E_PARSE = -6,           /**< Malformed text (a value string, a file). */
    TOKENRING_E_EMPTY = -7,           /**< Nothing to work on: a node without tokens, a
                                           ring without tokens. */
    TOKENRING_E_BUFSIZE = -8,         /**< A caller-provided output buffer is too small;
                                           the needed size is reported where the call
                                           has a size out-parameter. */
    TOKENRING_E_UNSUPPORTED = -9,     /**< A valid request that this call cannot satisfy
                                           (e.g. an unsupported CQL type). */
    TOKENRING_E_IMPOSSIBLE = -10,     /**< The request cannot be met by any answer, e.g.
                                           a replication factor larger than the nodes
                                           available to an allocator or an analysis. */
    TOKENRING_E_CANCELLED = -11,      /**< The caller's progress callback asked the call
                                           to stop (@since 1.2). */
    TOKENRING_E_BUDGET = -12,         /**< The call's estimated work is above its budget
                                           (::tokenring_limits): it refused before
                                           starting; the message gives the estimate in
                                           work units and in rough seconds
                                           (@since 1.2). */
    TOKENRING_E_BUSY = -13,           /**< Refused while objects are alive: a new
                                           allocator whose free function could not release
                                           them (tokenring_set_allocator(), @since 1.2). */
    TOKENRING_E_NOT_PLACED = -14     /**< A valid replication whose class places nothing
                                           on the token ring (LocalStrategy,
                                           EverywhereStrategy, MetaStrategy), as opposed
                                           to malformed text (#TOKENRING_E_PARSE); see
                                           tokenring_replication_parse() (@since 1.2). */
} tokenring_status;

/**
 * Progress callback of the long analyses (tokenring_availability_build_progress(),
 * tokenring_allocate_nodes_progress(), tokenring_migration_plan_progress()).
 *
 * The call reports @p done units of work out of @p total: at its start (done 0), while it
 * runs (after every few thousand small steps of work, and around the steps that cannot be
 * interrupted, such as building a placement, growing a hash table or sorting), and at
 * its end (done == total) when it succeeds; doc/performance.md gives the longest gaps
 * between reports measured on 1000 nodes x 256 tokens. @p done never decreases; @p total may grow while the call discovers work (an
 * availability analysis learns how many candidate failure sets it must weigh as it
 * goes) and the same pair may be reported more than once. Returning non-zero stops the
 * call as soon as it next reports: it frees what it built, leaves @c *out as it was (as
 * every failed builder does) and returns #TOKENRING_E_CANCELLED. The callback runs on the calling thread; it must not
 * call back into the library with the objects the call is reading.
 * @param user the pointer the caller passed along with the callback
 * @param done units of work done
 * @param total units of work known so far (at least @p done)
 * @return 0 to go on, non-zero to cancel
 * @since 1.2
 */
typedef int (*tokenring_progress_fn)(void *user, uint64_t done, uint64_t total);

/** Work units of the default budget of the long calls (about 5 seconds on the machine
 *  the cost models were calibrated on, see #TOKENRING_WORK_UNITS_PER_SECOND). @since 1.2 */
#define TOKENRING_BUDGET_DEFAULT 1000000000ull
/** A budget without limit (::tokenring_limits::budget). @since 1.2 */
#define TOKENRING_BUDGET_UNLIMITED UINT64_MAX
/** Work units per second of the calibration (2 cores of a 2026 x86-64 server; a unit is
 *  about 5 ns): what turns an estimate into rough seconds in messages. @since 1.2 */
#define TOKENRING_WORK_UNITS_PER_SECOND 200000000ull
/** Cassandra's own limit on num_tokens (DatabaseDescriptor.MAX_NUM_TOKENS: "A maximum
 *  number of 1536 tokens per node is supported"): the default cap of the allocators and
 *  migration plans (::tokenring_limits::max_num_tokens raises it). @since 1.2 */
#define TOKENRING_MAX_NUM_TOKENS 1536u

/**
 * Bounds and options of a long call (the availability analyses, the allocators,
 * migration plans), passed to the @c _limited variants. Zero it (all defaults) and set
 * what you need; the calls without @c _limited behave as with a zeroed struct.
 *
 * Before it starts, such a call estimates its work from its inputs, in work units (a
 * count of elementary steps, an upper bound that does not depend on the machine; about
 * #TOKENRING_WORK_UNITS_PER_SECOND of them take a second) and writes it to @c estimate.
 * When the estimate is above @c budget it does nothing else and returns
 * #TOKENRING_E_BUDGET, its message giving the estimate (units and rough seconds) and
 * saying how to raise the budget. doc/performance.md gives each cost model.
 * @since 1.2
 */
typedef struct tokenring_limits {
    uint64_t budget;            /**< Work units allowed: 0 for #TOKENRING_BUDGET_DEFAULT,
                                     #TOKENRING_BUDGET_UNLIMITED for no limit. */
    uint64_t estimate;          /**< Out: the call's estimate, in work units (written
                                     before the budget is checked, so also on
                                     #TOKENRING_E_BUDGET; 0 when the call failed
                                     earlier, e.g. on a bad argument). */
    tokenring_progress_fn progress; /**< Progress callback, or NULL (see
                                     ::tokenring_progress_fn). */
    void *user;                 /**< Passed to @c progress. */
    const uint32_t *failed_nodes; /**< Availability analyses: ring node indices already
                                     down (e.g. DN in nodetool status), counted as failed
                                     before the @p k more; NULL when none. Other calls
                                     ignore it. */
    size_t failed_count;        /**< Number of entries of @c failed_nodes. */
    uint32_t max_num_tokens;    /**< Allocators and migration plans: the largest
                                     num_tokens accepted, 0 for #TOKENRING_MAX_NUM_TOKENS
                                     (up to #TOKENRING_LAYOUT_MAX_TOKENS). */
    uint32_t flags;             /**< Reserved, set to 0. */
    uint8_t reserved[48];       /**< Reserved, set to 0. */
} tokenring_limits;

/**
 * Returns a static, human-readable description of a status code. Never returns NULL;
 * unknown codes give "unknown status". C++ callers may pass the @c int a call returned
 * (an inline overload converts it; since 1.2).
 * @param status a ::tokenring_status value (or any int)
 * @return a NUL-terminated string with static storage duration
 * @since 1.0
 */
TOKENRING_API const char *tokenring_strerror(tokenring_status status);

/**
 * Returns the enumerator name of a status code, e.g. "TOKENRING_E_INVAL". Never returns
 * NULL; unknown codes give "TOKENRING_E_UNKNOWN".
 * @param status a ::tokenring_status value
 * @return a NUL-terminated string with static storage duration
 * @since 1.0
 */
TOKENRING_API const char *tokenring_status_name(tokenring_status status);

/**
 * Caller-owned detail about a failure. Pass a pointer as the last argument of calls that
 * accept one, or NULL to ignore details. On failure the library fills @c code and
 * @c message (always NUL-terminated) and, for text parsers, @c line and @c column; on
 * success the struct is left untouched. @c reserved is zeroed by the library and gives
 * room to grow without changing the size.
 * @since 1.0
 */
typedef struct tokenring_error {
    int32_t code;        /**< The ::tokenring_status returned by the call. */
    uint32_t line;       /**< 1-based line of the offending input for parsers, else 0. */
    uint32_t column;     /**< 1-based column (in bytes) for parsers, else 0. */
    uint32_t flags;      /**< Reserved, set to 0. */
    char message[256];   /**< NUL-terminated description naming the node, token,
                              datacenter or expectation that failed. */
    uint8_t reserved[64]; /**< Reserved, set to 0. */
} tokenring_error;

/**
 * Returns the library version as MAJOR*10000 + MINOR*100 + PATCH, to compare with
 * #TOKENRING_VERSION_NUMBER at run time.
 * @return the run-time version number
 * @since 1.0
 */
TOKENRING_API uint32_t tokenring_version_number(void);

/**
 * Returns the library version string, e.g. "1.0.0".
 * @return a static NUL-terminated string, equal to #TOKENRING_VERSION_STRING of the
 *         headers the library was built with
 * @since 1.0
 */
TOKENRING_API const char *tokenring_version_string(void);

/**
 * Memory functions the library uses for every allocation. All three are required. @c user
 * is passed back to each call. realloc_fn(NULL, n, user) must behave like malloc_fn, and
 * free_fn(NULL, user) must be a no-op. A function returning NULL makes the calling
 * libtokenring function fail with #TOKENRING_E_NOMEM, leaving its inputs unchanged.
 * @since 1.0
 */
typedef struct tokenring_allocator {
    void *(*malloc_fn)(size_t size, void *user);               /**< Like malloc(). */
    void *(*realloc_fn)(void *ptr, size_t size, void *user);   /**< Like realloc(). */
    void (*free_fn)(void *ptr, void *user);                    /**< Like free(). */
    void *user;                                                /**< Passed to each call. */
} tokenring_allocator;

/**
 * Installs the allocator used for every later allocation, or restores the C library's
 * malloc/realloc/free when @p allocator is NULL. The struct is copied.
 *
 * Objects are freed by the allocator that made them: while any block the library
 * allocated is alive (any object not yet freed), the call installs only an allocator with
 * the same @c free_fn and @c user as the current one (to make allocations fail or count
 * them in a test, say; its @c realloc_fn then receives blocks the previous @c malloc_fn
 * made), and refuses any other with #TOKENRING_E_BUSY, changing nothing. Free every
 * object first. (Until 1.2 it returned #TOKENRING_OK and the next free of an older object
 * went to the wrong free function.)
 *
 * Not thread-safe: call it before any other libtokenring function, or while no other
 * thread calls the library.
 * @param allocator the functions to use, or NULL for the default
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL if a function pointer is NULL, or
 *         #TOKENRING_E_BUSY if objects are alive and @p allocator has another
 *         @c free_fn or @c user than the allocator in use
 * @since 1.0
 */
TOKENRING_API int tokenring_set_allocator(const tokenring_allocator *allocator);

/**
 * Copies the allocator in use into @p out.
 * @param[out] out receives the current functions (the defaults if none was installed)
 * @return #TOKENRING_OK, or #TOKENRING_E_INVAL if @p out is NULL
 * @since 1.0
 */
TOKENRING_API int tokenring_get_allocator(tokenring_allocator *out);

#ifdef __cplusplus
}
#endif

#ifdef __cplusplus
/* C++: every call returns an int, which C++ does not convert to the enum implicitly.
 * These overloads (C++ linkage, inline, nothing exported) take the int; the exported C
 * functions and their ABI are unchanged. */
inline const char *tokenring_strerror(int status)
{
    return tokenring_strerror(static_cast<tokenring_status>(status));
}
inline const char *tokenring_status_name(int status)
{
    return tokenring_status_name(static_cast<tokenring_status>(status));
}
#endif

#endif /* TOKENRING_COMMON_H */
