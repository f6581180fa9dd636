/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file ring.h
 * @brief Rings: immutable, reference-counted snapshots of a topology's tokens, with
 *        token, range and node lookups (lib/ring.c).
 *
 * The ring part of the API is declared in one header per concern, each implemented by
 * the library file of the same name: topology.h (the mutable builder), ring.h (this
 * file), replication.h (replication descriptions), placement.h (replica maps) and
 * ownership.h (exact ownership). They name each other's handles through types.h, so none
 * includes a header that includes it back; ring.h includes the other four at its end, so
 * a program that includes ring.h (or tokenring.h) sees all of them, as before they were
 * split.
 *
 * Data flows one way:
 *
 *     topology (mutable builder) --build--> ring (immutable snapshot)
 *     ring + replication         --build--> placement (immutable replica map)
 *
 * @section ring_threads Threads and publication
 * A ::tokenring_topology is an ordinary mutable object: use it from one thread at a time.
 * A ::tokenring_ring and a ::tokenring_placement never change after they are built: any
 * number of threads may query them at once without locks, and lookups allocate nothing.
 * Both are reference counted with atomic counters, so a program can rebuild and swap
 * while readers finish on the old snapshot:
 *
 * @code
 * // shared state
 * static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
 * static tokenring_placement *current;           // owned reference
 *
 * // writer, after a topology change
 * tokenring_placement *next = NULL;
 * if (tokenring_placement_build(&next, new_ring, repl, 0, &err) == TOKENRING_OK) {
 *     pthread_rwlock_wrlock(&lock);
 *     tokenring_placement *old = current;
 *     current = next;
 *     pthread_rwlock_unlock(&lock);
 *     tokenring_placement_free(old);             // freed when the last reader lets go
 * }
 *
 * // reader: hold the lock only to take a reference, never during lookups
 * pthread_rwlock_rdlock(&lock);
 * tokenring_placement *p = tokenring_placement_ref(current);
 * pthread_rwlock_unlock(&lock);
 * tokenring_replicas r;
 * tokenring_placement_replicas_for_key(&r, p, key, key_len);
 * ...
 * tokenring_placement_free(p);
 * @endcode
 *
 * @section ring_nodes Node indices
 * A ring numbers its nodes 0..n-1 in the order the topology held them when the ring was
 * built; a placement built from the ring uses the same numbers. Nodes of every state are
 * numbered, but only the tokens of nodes in state #TOKENRING_STATE_NORMAL,
 * #TOKENRING_STATE_LEAVING or #TOKENRING_STATE_MOVING form the ring (Cassandra keeps a
 * joining node's tokens apart as pending ranges).
 *
 * @section ring_ranges Ranges
 * The ring's sorted tokens t_0 < t_1 < ... < t_{n-1} define n ranges; range @c i is
 * (t_{i-1}, t_i] and range 0 is (t_{n-1}, t_0], wrapping through the largest and the
 * smallest token. A token belongs to the range of the first ring token at or after it,
 * wrapping past the largest to range 0. With a single token its range is the whole ring.
 */
#ifndef TOKENRING_RING_H
#define TOKENRING_RING_H

#include "tokenring/common.h"
#include "tokenring/types.h"
#include "tokenring/topology.h"
#include "tokenring/partitioner.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------- ring */

/**
 * Builds an immutable ring from a topology. The ring copies everything it needs and does
 * not refer to the topology afterwards. Complexity O(n log n) in the number of tokens.
 * @param[out] out receives the ring (reference count 1); free with tokenring_ring_free()
 * @param topology the source
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_EMPTY (no node in a state whose
 *         tokens form the ring), #TOKENRING_E_NOMEM
 * @since 1.0
 */
TOKENRING_API int tokenring_ring_build(tokenring_ring **out, const tokenring_topology *topology,
                                       tokenring_error *err);

/**
 * Takes another reference to a ring (atomic; thread-safe).
 * @param ring the ring (NULL gives NULL)
 * @return @p ring
 * @since 1.0
 */
TOKENRING_API tokenring_ring *tokenring_ring_ref(const tokenring_ring *ring);

/**
 * Drops a reference; the last one frees the ring. Thread-safe.
 * @param ring the ring, or NULL (no-op)
 * @since 1.0
 */
TOKENRING_API void tokenring_ring_free(tokenring_ring *ring);

/**
 * The ring's sorted tokens (ascending, distinct) as one array owned by the ring.
 * @param ring the ring
 * @param[out] count_out receives the number of tokens (may be NULL)
 * @return the array, valid while the ring lives; NULL if @p ring is NULL
 * @since 1.0
 */
TOKENRING_API const int64_t *tokenring_ring_tokens(const tokenring_ring *ring, size_t *count_out);

/**
 * For each ring token (same order as tokenring_ring_tokens()), the index of its node.
 *
 * A ring of at most 65,536 nodes stores its owners in 1 or 2 bytes each; for such a ring
 * the first call builds this 32-bit array (4 bytes per token, once per ring, kept until the
 * ring is freed) and later calls return the same array. Thread-safe: concurrent first calls
 * agree on one array. O(tokens) on the first call, O(1) after.
 * @param ring the ring
 * @param[out] count_out receives the number of tokens (may be NULL)
 * @return the array, valid while the ring lives; NULL if @p ring is NULL or if building
 *         the array ran out of memory (a later call tries again)
 * @since 1.0
 */
TOKENRING_API const uint32_t *tokenring_ring_token_nodes(const tokenring_ring *ring,
                                                         size_t *count_out);

/**
 * Number of nodes (of every state).
 * @param ring the ring (NULL gives 0)
 * @return the node count
 * @since 1.0
 */
TOKENRING_API size_t tokenring_ring_node_count(const tokenring_ring *ring);

/**
 * Number of distinct datacenters.
 * @param ring the ring (NULL gives 0)
 * @return the datacenter count
 * @since 1.0
 */
TOKENRING_API size_t tokenring_ring_dc_count(const tokenring_ring *ring);

/**
 * Name of datacenter @p index (datacenters are numbered in sorted name order).
 * @param ring the ring
 * @param index the datacenter index
 * @return the name, valid while the ring lives, or NULL for a bad argument
 * @since 1.0
 */
TOKENRING_API const char *tokenring_ring_dc_name(const tokenring_ring *ring, size_t index);

/**
 * Number of distinct (datacenter, rack) pairs.
 * @param ring the ring (NULL gives 0)
 * @return the rack count
 * @since 1.0
 */
TOKENRING_API size_t tokenring_ring_rack_count(const tokenring_ring *ring);

/**
 * Reads node @p node of a ring.
 *
 * The ring does not keep the token lists of the nodes in the ring (their tokens are in the
 * ring's sorted array): the first call for such a node builds the lists of every node in the
 * ring at once (8 bytes per ring token, once per ring, kept until the ring is freed; O(ring
 * tokens)); later calls are O(1). Thread-safe: concurrent first calls agree on one copy.
 * @param[out] out receives the view (pointers valid while the ring lives); on
 *             #TOKENRING_E_NOMEM every field but @c tokens is filled and @c tokens is NULL
 * @param ring the ring
 * @param node the node index
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE, #TOKENRING_E_NOMEM (building
 *         the token lists failed; a later call tries again)
 * @since 1.0
 */
TOKENRING_API int tokenring_ring_node(tokenring_node_info *out, const tokenring_ring *ring,
                                      uint32_t node);

/**
 * Reads node @p node of a ring without its tokens: like tokenring_ring_node() with
 * @c tokens set to NULL (@c token_count is still the node's token count). Never
 * allocates, O(1): what a driver needs to turn replica indices into names, datacenters
 * and racks, without the per-node token lists tokenring_ring_node() builds on first use.
 * Thread-safe.
 * @param[out] out receives the view (pointers valid while the ring lives)
 * @param ring the ring
 * @param node the node index
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE
 * @since 1.1
 */
TOKENRING_API int tokenring_ring_node_brief(tokenring_node_info *out, const tokenring_ring *ring,
                                            uint32_t node);

/**
 * Finds a node of a ring by name. O(log n).
 * @param[out] node_out receives its index
 * @param ring the ring
 * @param name the name
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_NOTFOUND
 * @since 1.0
 */
TOKENRING_API int tokenring_ring_find_node(uint32_t *node_out, const tokenring_ring *ring,
                                           const char *name);

/**
 * A range of the ring with its exact bounds.
 * @since 1.0
 */
typedef struct tokenring_range {
    int64_t start;         /**< Exclusive lower bound (the previous ring token). */
    int64_t end;           /**< Inclusive upper bound (the range's own ring token). */
    tokenring_u128 width;  /**< Exact number of tokens in the range, (end - start) mod
                                2^64, or 2^64 when the ring has a single token. */
    uint32_t index;        /**< Range index = index of @c end in the sorted tokens. */
    uint32_t owner;        /**< Node index owning @c end (the primary owner). */
} tokenring_range;

/**
 * Index of the range holding @p token: the first ring token at or after it, wrapping to
 * 0. Never fails on a valid ring. O(log n), no allocation, thread-safe.
 * @param ring the ring (must not be NULL)
 * @param token the token
 * @return the range index
 * @since 1.0
 */
TOKENRING_API uint32_t tokenring_ring_search(const tokenring_ring *ring, int64_t token);

/**
 * The node owning @p token (primary owner). O(log n).
 * @param[out] node_out receives the node index
 * @param ring the ring
 * @param token the token
 * @return #TOKENRING_OK or #TOKENRING_E_INVAL
 * @since 1.0
 */
TOKENRING_API int tokenring_ring_owner(uint32_t *node_out, const tokenring_ring *ring,
                                       int64_t token);

/**
 * The range holding @p token, with its exact bounds and owner. O(log n).
 * @param[out] out receives the range
 * @param ring the ring
 * @param token the token
 * @return #TOKENRING_OK or #TOKENRING_E_INVAL
 * @since 1.0
 */
TOKENRING_API int tokenring_ring_range_of(tokenring_range *out, const tokenring_ring *ring,
                                          int64_t token);

/**
 * Range number @p index (0 .. token count - 1).
 * @param[out] out receives the range
 * @param ring the ring
 * @param index the range index
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE
 * @since 1.0
 */
TOKENRING_API int tokenring_ring_range(tokenring_range *out, const tokenring_ring *ring,
                                       size_t index);

/**
 * Range indices of many tokens in one call. O(count log n), no allocation.
 * @param[out] ranges_out receives @p count range indices
 * @param ring the ring
 * @param tokens the tokens
 * @param count number of tokens
 * @return #TOKENRING_OK or #TOKENRING_E_INVAL
 * @since 1.0
 */
TOKENRING_API int tokenring_ring_search_batch(uint32_t *ranges_out, const tokenring_ring *ring,
                                              const int64_t *tokens, size_t count);

/* ------------------------------------------------------- other partitioners */

/**
 * The partitioner of a ring (its topology's).
 *
 * On a ring of RandomPartitioner or ByteOrderedPartitioner the calls of this header that
 * take or return @c int64_t tokens (tokenring_ring_search(), tokenring_ring_owner(),
 * tokenring_ring_range_of(), tokenring_ring_range(), tokenring_ring_search_batch()) fail
 * with #TOKENRING_E_UNSUPPORTED (tokenring_ring_search() returns @c UINT32_MAX),
 * tokenring_ring_tokens() returns NULL (with the count) and tokenring_ring_node()
 * reports @c tokens as NULL. Their lookups are tokenring_ring_search128() and
 * tokenring_ring_search_bytes(), their tokens tokenring_ring_token128() and
 * tokenring_ring_token_bytes(); every call that works on ring positions and node
 * indices (token owners, placements, replica sets) works on every partitioner.
 * @param ring the ring (NULL gives #TOKENRING_PARTITIONER_MURMUR3)
 * @return its ::tokenring_partitioner
 * @since 1.2
 */
TOKENRING_API tokenring_partitioner tokenring_ring_partitioner(const tokenring_ring *ring);

/**
 * Index of the range holding a RandomPartitioner token: the first ring token at or after
 * it (tokenring_token128_compare() order), wrapping to 0. O(log n), no allocation,
 * thread-safe.
 * @param ring a RandomPartitioner ring
 * @param token the token (-1, the minimum, gives 0)
 * @return the range index; @c UINT32_MAX for a NULL ring or a ring of another partitioner
 * @since 1.2
 */
TOKENRING_API uint32_t tokenring_ring_search128(const tokenring_ring *ring,
                                                tokenring_token128 token);

/**
 * Index of the range holding a ByteOrderedPartitioner token (tokenring_byte_token_compare()
 * order), wrapping to 0. O(log n), no allocation, thread-safe.
 * @param ring a ByteOrderedPartitioner ring
 * @param token the token's bytes (may be NULL when @p len is 0)
 * @param len its length
 * @return the range index; @c UINT32_MAX for a NULL ring, a NULL @p token with a non-zero
 *         @p len, or a ring of another partitioner
 * @since 1.2
 */
TOKENRING_API uint32_t tokenring_ring_search_bytes(const tokenring_ring *ring,
                                                   const uint8_t *token, size_t len);

/**
 * Ring token @p index (ascending) of a RandomPartitioner ring.
 * @param[out] out receives the token
 * @param ring the ring
 * @param index 0 .. token count - 1
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE,
 *         #TOKENRING_E_UNSUPPORTED (another partitioner)
 * @since 1.2
 */
TOKENRING_API int tokenring_ring_token128(tokenring_token128 *out, const tokenring_ring *ring,
                                          size_t index);

/**
 * Ring token @p index (ascending) of a ByteOrderedPartitioner ring.
 * @param[out] out receives a pointer to its bytes, valid while the ring lives
 * @param[out] len_out receives its length
 * @param ring the ring
 * @param index 0 .. token count - 1
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE,
 *         #TOKENRING_E_UNSUPPORTED (another partitioner)
 * @since 1.2
 */
TOKENRING_API int tokenring_ring_token_bytes(const uint8_t **out, size_t *len_out,
                                             const tokenring_ring *ring, size_t index);

/**
 * A range of a RandomPartitioner ring with its exact bounds and width.
 * @since 1.2
 */
typedef struct tokenring_range128 {
    tokenring_token128 start; /**< Exclusive lower bound (the previous ring token). */
    tokenring_token128 end;   /**< Inclusive upper bound (the range's own ring token). */
    tokenring_u128 width;     /**< (end - start + 2^127) mod 2^127, Cassandra's width
                                   (`describeOwnership`; 0 and 2^127 are one point), or
                                   2^127 when the ring has a single token. */
    uint32_t index;           /**< Range index = index of @c end in the sorted tokens. */
    uint32_t owner;           /**< Node index owning @c end. */
    uint64_t reserved;        /**< Reserved, zero. */
} tokenring_range128;

/**
 * Range number @p index of a RandomPartitioner ring.
 * @param[out] out receives the range
 * @param ring the ring
 * @param index 0 .. token count - 1
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE,
 *         #TOKENRING_E_UNSUPPORTED (another partitioner)
 * @since 1.2
 */
TOKENRING_API int tokenring_ring_range128(tokenring_range128 *out, const tokenring_ring *ring,
                                          size_t index);

/**
 * Which tokens of @p before are still held by the same node in @p after: the property a
 * join must have (the new nodes take new tokens; every existing node keeps its own) and
 * a move or a decommission does not. Nodes are matched by name. For every node of
 * @p before, each of its tokens counts as kept when the node of that name in @p after
 * holds it, and as lost otherwise (also when the node is gone); each token such a node
 * holds in @p after but did not hold in @p before counts as gained. Tokens of nodes only
 * in @p after (the joining nodes) are not counted. A change kept every existing token
 * exactly when lost and gained are both 0; kept is then the token count of @p before.
 *
 * Reads the node token lists of both rings (see tokenring_ring_node(): built on first
 * use). O(tokens of both rings) plus a name lookup per node.
 *
 * Every partitioner, tokens compared exactly (tokenring_token128_compare(),
 * tokenring_byte_token_compare()). A RandomPartitioner or ByteOrderedPartitioner ring
 * keeps the tokens of its ring members only: a node of @p before outside the ring
 * holding tokens (e.g. joining), or its namesake in @p after, gives
 * #TOKENRING_E_UNSUPPORTED. O(tokens * log) on those rings.
 * @param[out] kept_out tokens of @p before their node still holds (may be NULL)
 * @param[out] lost_out tokens of @p before their node no longer holds (may be NULL)
 * @param[out] gained_out tokens the nodes of @p before hold only in @p after (may be NULL)
 * @param before the ring before the change
 * @param after the ring after it
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL ring, rings of different
 *         partitioners); #TOKENRING_E_UNSUPPORTED (see above); #TOKENRING_E_NOMEM
 *         (building a node token list failed); outputs unchanged on error
 * @since 1.2
 */
TOKENRING_API int tokenring_ring_tokens_kept(size_t *kept_out, size_t *lost_out,
                                             size_t *gained_out, const tokenring_ring *before,
                                             const tokenring_ring *after);

/**
 * Ring token @p index (ascending) in the text form of the ring's partitioner (see
 * @ref partitioner_text), for every partitioner.
 * @param[out] out buffer for the NUL-terminated text (may be NULL when @p cap is 0)
 * @param cap size of @p out
 * @param[out] len_out receives the text's length without the NUL (also on
 *        #TOKENRING_E_BUFSIZE)
 * @param ring the ring
 * @param index 0 .. token count - 1
 * @return #TOKENRING_OK; #TOKENRING_E_BUFSIZE; #TOKENRING_E_INVAL (NULL @p ring or
 *         @p len_out, NULL @p out with a non-zero @p cap); #TOKENRING_E_RANGE (@p index
 *         past the end)
 * @since 1.2
 */
TOKENRING_API int tokenring_ring_token_text(char *out, size_t cap, size_t *len_out,
                                            const tokenring_ring *ring, size_t index);

/**
 * Index of the range holding a token given in the text form of the ring's partitioner:
 * tokenring_ring_search(), tokenring_ring_search128() or tokenring_ring_search_bytes()
 * of the parsed token. Not for the routing hot path (it parses the text each time).
 * O(len + log n), thread-safe; allocates only for a ByteOrderedPartitioner text of more
 * than 510 hex digits.
 * @param[out] index_out receives the range index; unchanged on error
 * @param ring the ring (any partitioner)
 * @param token the token's text (need not be NUL-terminated)
 * @param len its length in bytes
 * @param[out] err optional detail (why the text is not a token of the partitioner)
 * @return #TOKENRING_OK; #TOKENRING_E_PARSE, #TOKENRING_E_RANGE (see
 *         tokenring_token_text_normalize()); #TOKENRING_E_INVAL (NULL @p index_out,
 *         @p ring or @p token); #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_ring_search_text(uint32_t *index_out, const tokenring_ring *ring,
                                             const char *token, size_t len,
                                             tokenring_error *err);


#ifdef __cplusplus
}
#endif

/* The rest of what ring.h declared before the split (see the file comment); none of these
 * includes ring.h. */
#include "tokenring/replication.h"
#include "tokenring/placement.h"
#include "tokenring/ownership.h"

#endif /* TOKENRING_RING_H */
