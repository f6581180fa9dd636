/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file layout.h
 * @brief Choosing tokens: seeded (reproducible random) layouts, evenly spaced layouts and
 *        the racks of new nodes (lib/layout.c); the allocators are in allocate.h.
 *
 * @section layout_seeded Seeded layouts, bit for bit
 * The token of vnode @c v of the node called @c identity in layout @c seed, at collision
 * attempt @c a, is
 *
 *     h1 = MurmurHash3_x64_128(bytes, seed 0), first 64-bit half, Cassandra's variant
 *          (tail bytes read as signed, exactly tokenring_murmur3_cassandra())
 *     token = h1, except that h1 == TOKENRING_MIN_TOKEN gives TOKENRING_MAX_TOKEN
 *
 * over the byte string
 *
 *     "tokenring-layout-v1"         19 ASCII bytes, no terminator
 *     seed                          8 bytes, unsigned, big-endian
 *     len(identity)                 4 bytes, unsigned, big-endian
 *     identity                      the identity's bytes (usually the node name), no NUL
 *     v                             4 bytes, unsigned, big-endian (0-based vnode index)
 *     a                             4 bytes, unsigned, big-endian -- ONLY when a > 0
 *
 * The function depends on nothing else: the same tokens on every platform and in every
 * version of the library (a change would get a new tag, "tokenring-layout-v2"). Adding a
 * node therefore never changes the tokens of the nodes already laid out, and another seed
 * gives an unrelated layout.
 *
 * RandomPartitioner's seeded token (tokenring_layout_seeded_token128() and the calls
 * built on it, since 1.2) is defined by exactly the same byte string:
 *
 *     token = tokenring_random_token(bytes), i.e. the absolute value of MD5(bytes) read
 *             as a signed 128-bit big-endian integer (0 .. 2^127)
 *
 * The string is never empty, so the minimum token -1 cannot occur. The same identity,
 * seed, vnode and attempt thus name one token of each partitioner; the two tokens are
 * unrelated values.
 *
 * Collisions are resolved deterministically: the vnodes of a node are taken in index
 * order 0, 1, 2, ...; vnode @c v uses the first attempt a = 0, 1, 2, ... whose token is
 * neither a token of another node already in the topology passed as @c taken nor the
 * token chosen for one of the node's vnodes 0 .. v-1. With 2^64 tokens a collision is
 * rare (about n^2 / 2^65 for n tokens), but it is handled.
 *
 * @section layout_even Evenly spaced layouts
 * tokenring_layout_even_tokens() gives token @c j (0 .. T-1) of slot @c s of @c S
 * interleaved slots the value
 *
 *     TOKENRING_MIN_TOKEN + floor((j * S + s) * 2^64 / (T * S))
 *
 * computed exactly in 128-bit integer arithmetic. With S = 1 that is T tokens exactly
 * 2^64/T apart starting at the minimum token; with S racks and s = rack number it is the
 * usual "first node of rack i offset by i * step / racks" layout (step = 2^64 / T); with
 * S = N nodes and s = node number it is a perfectly even layout of N nodes.
 *
 * tokenring_layout_even_tokens128() (since 1.2) gives RandomPartitioner's token @c j the
 * value
 *
 *     floor((j * S + s) * 2^127 / (T * S))
 *
 * exactly: with S = N nodes, s = node number and T = 1, the classic RandomPartitioner
 * initial_token recipe s * 2^127 / N. Slot 0 starts at token 0, and every token is below
 * 2^127.
 *
 * @section layout_alloc The allocators
 * Choosing tokens for joining nodes (the replication-aware allocator, Cassandra's own
 * allocation, the default plan for one join) is declared in allocate.h, which this file
 * includes.
 *
 * Threads: every function here only reads its inputs (except
 * tokenring_layout_add_seeded_nodes(), which adds to the topology it is given) and may run
 * concurrently with other readers of the same objects.
 */
#ifndef TOKENRING_LAYOUT_H
#define TOKENRING_LAYOUT_H

#include "tokenring/common.h"
#include "tokenring/partitioner.h"
#include "tokenring/ring.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Flag for the seeded-layout calls: fail with #TOKENRING_E_EXISTS on a collision
 *  instead of rehashing with the next attempt number. @since 1.0 */
#define TOKENRING_LAYOUT_STRICT 0x1u

/** Most tokens per node the layout and allocation calls accept. @since 1.0 */
#define TOKENRING_LAYOUT_MAX_TOKENS 65536u

/** Most tokens a cluster built by the layout calls and the tool may hold (2^26, about
 *  67 million: a ring of that many tokens takes a few GiB): tokenring_layout_add_seeded_nodes()
 *  refuses a node count x token count product that would pass it, at once, with
 *  #TOKENRING_E_RANGE. @since 1.2 */
#define TOKENRING_MAX_CLUSTER_TOKENS 67108864ull

/**
 * One seeded token: the pure function described in @ref layout_seeded, for one vnode and
 * one attempt number, with no collision handling.
 *
 * Complexity O(length of @p identity). Thread-safe, allocates nothing.
 * @param[out] token_out receives the token
 * @param seed the layout seed
 * @param identity the node identity (usually its name); any bytes
 * @param identity_len length of @p identity in bytes (at most #TOKENRING_MAX_NAME)
 * @param vnode the vnode index (0-based)
 * @param attempt the collision attempt (0 for the first choice)
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL if @p token_out is NULL or @p identity is NULL
 *         with a non-zero length; #TOKENRING_E_RANGE if @p identity_len exceeds
 *         #TOKENRING_MAX_NAME
 * @since 1.0
 */
TOKENRING_API int tokenring_layout_seeded_token(int64_t *token_out, uint64_t seed,
                                                const char *identity, size_t identity_len,
                                                uint32_t vnode, uint32_t attempt);

/**
 * RandomPartitioner's seeded token: tokenring_random_token() of the byte string of
 * @ref layout_seeded (the one tokenring_layout_seeded_token() hashes with Murmur3), for
 * one vnode and one attempt number, with no collision handling. Never the minimum token
 * -1 (the string is never empty).
 *
 * Complexity O(length of @p identity). Thread-safe, allocates nothing.
 * @param[out] token_out receives the token (0 .. 2^127)
 * @param seed the layout seed
 * @param identity the node identity (usually its name); any bytes
 * @param identity_len length of @p identity in bytes (at most #TOKENRING_MAX_NAME)
 * @param vnode the vnode index (0-based)
 * @param attempt the collision attempt (0 for the first choice)
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL if @p token_out is NULL or @p identity is NULL
 *         with a non-zero length; #TOKENRING_E_RANGE if @p identity_len exceeds
 *         #TOKENRING_MAX_NAME
 * @since 1.2
 */
TOKENRING_API int tokenring_layout_seeded_token128(tokenring_token128 *token_out,
                                                   uint64_t seed, const char *identity,
                                                   size_t identity_len, uint32_t vnode,
                                                   uint32_t attempt);

/**
 * The @p count seeded tokens of one node, collisions resolved as in @ref layout_seeded.
 * @p tokens_out[v] is the token of vnode @c v (vnode order, not sorted).
 *
 * Tokens of a node called @p identity inside @p taken do not count as taken, so the call
 * gives back the tokens of a node that is already laid out.
 *
 * Complexity O(n log n + count log count) for n tokens in @p taken. Thread-safe as a
 * reader of @p taken. Allocates a temporary index; nothing is kept.
 * @param[out] tokens_out receives @p count tokens; left unspecified on failure
 * @param count number of tokens (1 .. #TOKENRING_LAYOUT_MAX_TOKENS)
 * @param seed the layout seed
 * @param identity the node's identity, a valid name (non-empty UTF-8, at most
 *        #TOKENRING_MAX_NAME bytes)
 * @param taken a Murmur3 topology whose tokens must be avoided, or NULL
 * @param flags 0 or #TOKENRING_LAYOUT_STRICT
 * @param[out] err optional detail
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL pointer, bad identity, unknown flag);
 *         #TOKENRING_E_RANGE (@p count 0 or too large, identity too long);
 *         #TOKENRING_E_EXISTS (with #TOKENRING_LAYOUT_STRICT: a token collides; @p err
 *         names the token and the other node); #TOKENRING_E_UNSUPPORTED (@p taken is a
 *         topology of another partitioner; since 1.2); #TOKENRING_E_NOMEM
 * @since 1.0
 */
TOKENRING_API int tokenring_layout_seeded_tokens(int64_t *tokens_out, size_t count,
                                                 uint64_t seed, const char *identity,
                                                 const tokenring_topology *taken,
                                                 uint32_t flags, tokenring_error *err);

/**
 * tokenring_layout_seeded_tokens() for RandomPartitioner: the @p count seeded tokens
 * (tokenring_layout_seeded_token128()) of one node, collisions with the tokens of
 * @p taken and between the node's own vnodes resolved as in @ref layout_seeded.
 * @p tokens_out[v] is the token of vnode @c v (vnode order, not sorted). Tokens of a node
 * called @p identity inside @p taken do not count as taken.
 *
 * Complexity O(n log n + count log count) for n tokens in @p taken. Thread-safe as a
 * reader of @p taken. Allocates temporary arrays; nothing is kept.
 * @param[out] tokens_out receives @p count tokens (each 0 .. 2^127); left unspecified on
 *        failure
 * @param count number of tokens (1 .. #TOKENRING_LAYOUT_MAX_TOKENS)
 * @param seed the layout seed
 * @param identity the node's identity, a valid name (non-empty UTF-8, at most
 *        #TOKENRING_MAX_NAME bytes)
 * @param taken a RandomPartitioner topology whose tokens must be avoided, or NULL
 * @param flags 0 or #TOKENRING_LAYOUT_STRICT
 * @param[out] err optional detail
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL pointer, bad identity, unknown flag);
 *         #TOKENRING_E_RANGE (@p count 0 or too large, identity too long);
 *         #TOKENRING_E_EXISTS (with #TOKENRING_LAYOUT_STRICT: a token collides; @p err
 *         names the token in decimal and the other node); #TOKENRING_E_UNSUPPORTED
 *         (@p taken is not a RandomPartitioner topology); #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_layout_seeded_tokens128(tokenring_token128 *tokens_out,
                                                    size_t count, uint64_t seed,
                                                    const char *identity,
                                                    const tokenring_topology *taken,
                                                    uint32_t flags, tokenring_error *err);

/**
 * Adds @p count nodes with seeded tokens to a topology, in array order: node @c i is laid
 * out with identity @p names[i] against the topology as it stands after nodes 0 .. i-1
 * were added (so collisions between the new nodes are resolved too). The same call on the
 * same topology always gives the same result, and adding nodes to a seeded layout keeps
 * every existing token.
 *
 * On a RandomPartitioner topology (since 1.2) the nodes get RandomPartitioner's seeded
 * tokens (tokenring_layout_seeded_token128()), with the same collision rules; a
 * ByteOrderedPartitioner topology is refused with #TOKENRING_E_UNSUPPORTED (its tokens
 * are keys: Cassandra has no token allocation for it either).
 *
 * On failure nothing is added: the topology is exactly as it was.
 *
 * Not thread-safe for @p topology (it is modified). Complexity O((n + count * T) log(n +
 * count * T)).
 * @param topology the topology to add to
 * @param seed the layout seed
 * @param tokens_per_node tokens of each new node (1 .. #TOKENRING_LAYOUT_MAX_TOKENS)
 * @param names @p count distinct node names, none already in the topology
 * @param datacenters @p count datacenter names, or NULL to put every node in
 *        "datacenter1" (the name Cassandra's SimpleSnitch uses)
 * @param racks @p count rack names, or NULL to put every node in "rack1"
 * @param count number of nodes to add
 * @param flags 0 or #TOKENRING_LAYOUT_STRICT
 * @param[out] err optional detail (names the offending node)
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL pointer, bad name, unknown flag);
 *         #TOKENRING_E_RANGE (bad @p tokens_per_node, name too long, a cluster above
 *         #TOKENRING_MAX_CLUSTER_TOKENS since 1.2); #TOKENRING_E_EXISTS
 *         (a name already present or repeated; with #TOKENRING_LAYOUT_STRICT a token
 *         collision); #TOKENRING_E_UNSUPPORTED (a ByteOrderedPartitioner topology);
 *         #TOKENRING_E_NOMEM
 * @since 1.0
 */
TOKENRING_API int tokenring_layout_add_seeded_nodes(tokenring_topology *topology, uint64_t seed,
                                                    uint32_t tokens_per_node,
                                                    const char *const *names,
                                                    const char *const *datacenters,
                                                    const char *const *racks, size_t count,
                                                    uint32_t flags, tokenring_error *err);

/**
 * Evenly spaced tokens: @p tokens_out[j] = #TOKENRING_MIN_TOKEN + floor((j * @p slots +
 * @p slot) * 2^64 / (@p num_tokens * @p slots)) for j = 0 .. @p num_tokens - 1, exact
 * (see @ref layout_even). The tokens come out ascending.
 *
 * Pure, thread-safe, allocates nothing. O(@p num_tokens).
 * @param[out] tokens_out receives @p num_tokens tokens
 * @param num_tokens tokens per node (1 .. #TOKENRING_LAYOUT_MAX_TOKENS)
 * @param slot which of the interleaved slots (e.g. the rack number), 0 .. @p slots - 1
 * @param slots how many interleaved slots (e.g. the number of racks), at least 1
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL @p tokens_out); #TOKENRING_E_RANGE
 *         (@p num_tokens or @p slots out of range, @p slot >= @p slots)
 * @since 1.0
 */
TOKENRING_API int tokenring_layout_even_tokens(int64_t *tokens_out, uint32_t num_tokens,
                                               uint32_t slot, uint32_t slots);

/**
 * Evenly spaced RandomPartitioner tokens: @p tokens_out[j] = floor((j * @p slots +
 * @p slot) * 2^127 / (@p num_tokens * @p slots)) for j = 0 .. @p num_tokens - 1, exact
 * (see @ref layout_even); with @p num_tokens 1 and @p slots N, node @p slot gets the
 * classic initial_token @p slot * 2^127 / N. The tokens come out ascending, in
 * 0 .. 2^127 - 1.
 *
 * Pure, thread-safe, allocates nothing. O(@p num_tokens).
 * @param[out] tokens_out receives @p num_tokens tokens
 * @param num_tokens tokens per node (1 .. #TOKENRING_LAYOUT_MAX_TOKENS)
 * @param slot which of the interleaved slots (e.g. the node number), 0 .. @p slots - 1
 * @param slots how many interleaved slots (e.g. the number of nodes), at least 1
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL @p tokens_out); #TOKENRING_E_RANGE
 *         (@p num_tokens or @p slots out of range, @p slot >= @p slots)
 * @since 1.2
 */
TOKENRING_API int tokenring_layout_even_tokens128(tokenring_token128 *tokens_out,
                                                  uint32_t num_tokens, uint32_t slot,
                                                  uint32_t slots);

/* ----------------------------------------------------------- racks of new nodes */

/**
 * Which datacenter and rack each of @p node_count new nodes gets, in join order: the
 * placement `generatetokens --racks` and the lab's cluster builder use.
 *
 * Node @c i goes to datacenter <tt>i mod dc_count</tt> as that datacenter's node number
 * <tt>p = i div dc_count</tt>. Within a datacenter, nodes go round-robin over the
 * @p rack_count racks: with @p nodes_per_rack NULL, node @c p to rack <tt>p mod
 * rack_count</tt>; with @p nodes_per_rack, rack @c r takes @p nodes_per_rack[r] nodes and
 * the round-robin skips a rack once it is full (counts 2,1,3 give racks 0,1,2,0,2,2), so
 * every datacenter needs exactly the sum of the counts. Indices are 0-based; name a rack
 * with tokenring_layout_rack_name().
 *
 * Pure, thread-safe, allocates nothing. O(@p node_count + @p rack_count).
 * @param[out] dc_out receives @p node_count datacenter indices (may be NULL)
 * @param[out] rack_out receives @p node_count rack indices
 * @param node_count number of new nodes (0 writes nothing)
 * @param dc_count number of datacenters (at least 1)
 * @param rack_count number of racks per datacenter (at least 1)
 * @param nodes_per_rack @p rack_count node counts, each at least 1, or NULL (no limit)
 * @param[out] err optional detail
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL @p rack_out for nodes, a zero count,
 *         @p nodes_per_rack whose counts do not add up to the nodes of each datacenter);
 *         outputs unchanged on error
 * @since 1.2
 */
TOKENRING_API int tokenring_layout_assign_racks(uint32_t *dc_out, uint32_t *rack_out,
                                                size_t node_count, uint32_t dc_count,
                                                uint32_t rack_count,
                                                const uint32_t *nodes_per_rack,
                                                tokenring_error *err);

/**
 * The name of rack @p rack (0-based) of tokenring_layout_assign_racks(): "rack1" for 0,
 * "rack2" for 1, ... (Cassandra's default rack is "rack1").
 * @param[out] out buffer for the NUL-terminated name (may be NULL when @p cap is 0)
 * @param cap size of @p out; 16 bytes hold any name
 * @param[out] len_out receives the name's length without the NUL (also on
 *        #TOKENRING_E_BUFSIZE)
 * @param rack the rack index
 * @return #TOKENRING_OK; #TOKENRING_E_BUFSIZE (@p cap < length + 1); #TOKENRING_E_INVAL
 *         (NULL @p len_out, NULL @p out with a non-zero @p cap)
 * @since 1.2
 */
TOKENRING_API int tokenring_layout_rack_name(char *out, size_t cap, size_t *len_out,
                                             uint32_t rack);

/* --------------------------------------------- tokens as text, every partitioner */

/**
 * Evenly spaced tokens of @p partitioner, in text form (see @ref partitioner_text): the
 * tokens of tokenring_layout_even_tokens() (Murmur3Partitioner) or
 * tokenring_layout_even_tokens128() (RandomPartitioner), ascending.
 * ByteOrderedPartitioner has no even layout (its tokens are keys) and is refused.
 *
 * Thread-safe. O(@p num_tokens); allocates the list.
 * @param[out] out receives the list (free it with tokenring_token_list_free());
 *        unchanged on error
 * @param partitioner the partitioner
 * @param num_tokens tokens per node (1 .. #TOKENRING_LAYOUT_MAX_TOKENS)
 * @param slot which of the interleaved slots, 0 .. @p slots - 1
 * @param slots how many interleaved slots, at least 1
 * @param[out] err optional detail
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL @p out, a @p partitioner outside the
 *         enum); #TOKENRING_E_RANGE (as the typed calls); #TOKENRING_E_UNSUPPORTED
 *         (ByteOrderedPartitioner); #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_layout_even_tokens_text(tokenring_token_list **out,
                                                    tokenring_partitioner partitioner,
                                                    uint32_t num_tokens, uint32_t slot,
                                                    uint32_t slots, tokenring_error *err);

/**
 * The @p count seeded tokens of one node for @p partitioner, in text form:
 * tokenring_layout_seeded_tokens() (Murmur3Partitioner) or
 * tokenring_layout_seeded_tokens128() (RandomPartitioner), in vnode order, with their
 * rules (collisions with @p taken resolved, a node called @p identity inside @p taken
 * not counted). ByteOrderedPartitioner has no seeded layout and is refused.
 *
 * Thread-safe as a reader of @p taken. Allocates the list and temporary arrays.
 * @param[out] out receives the list (free it with tokenring_token_list_free());
 *        unchanged on error
 * @param partitioner the partitioner
 * @param count number of tokens (1 .. #TOKENRING_LAYOUT_MAX_TOKENS)
 * @param seed the layout seed
 * @param identity the node's identity, a valid name
 * @param taken a topology of @p partitioner whose tokens must be avoided, or NULL
 * @param flags 0 or #TOKENRING_LAYOUT_STRICT
 * @param[out] err optional detail
 * @return as the typed calls; #TOKENRING_E_UNSUPPORTED also for ByteOrderedPartitioner
 *         and for a @p taken of another partitioner; #TOKENRING_E_INVAL also for a
 *         @p partitioner outside the enum
 * @since 1.2
 */
TOKENRING_API int tokenring_layout_seeded_tokens_text(tokenring_token_list **out,
                                                      tokenring_partitioner partitioner,
                                                      size_t count, uint64_t seed,
                                                      const char *identity,
                                                      const tokenring_topology *taken,
                                                      uint32_t flags, tokenring_error *err);


#ifdef __cplusplus
}
#endif

/* The allocators, declared here before they had a header of their own. */
#include "tokenring/allocate.h"

#endif /* TOKENRING_LAYOUT_H */
