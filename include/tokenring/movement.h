/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file movement.h
 * @brief What a join, decommission, replacement or move changes and streams, on every
 *        partitioner (lib/analysis.c).
 *
 * A topology change is simulated on a copy (tokenring_topology_clone()); the result is
 * read through movement_result.h, which this file includes.
 *
 * Part of the analyses (analysis.h, which includes this file): they never modify their
 * inputs, and every width is exact (see analysis.h for what widths count on each
 * partitioner).
 */
#ifndef TOKENRING_MOVEMENT_H
#define TOKENRING_MOVEMENT_H

#include "tokenring/common.h"
#include "tokenring/types.h"
#include "tokenring/partitioner.h"
#include "tokenring/movement_result.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a movement analysis compares; decides the streaming sources. Values are ABI.
 *  @since 1.0 */
typedef enum tokenring_change_kind {
    TOKENRING_CHANGE_GENERIC = 0,      /**< Any two topologies: sources as for a join. */
    TOKENRING_CHANGE_JOIN = 1,         /**< A node bootstraps. */
    TOKENRING_CHANGE_DECOMMISSION = 2, /**< A node leaves and streams its data away. */
    TOKENRING_CHANGE_REPLACE = 3,      /**< A dead node is replaced (replace_address). */
    TOKENRING_CHANGE_MOVE = 4          /**< A node takes new tokens (nodetool move). */
} tokenring_change_kind;

/**
 * Compares the replica placement of two topologies under one replication.
 *
 * Ranges. The boundaries of both rings together cut the token space into elementary
 * ranges (previous boundary, boundary]; each lies inside one range of each ring, so it has
 * one old and one new replica list. An elementary range is reported when the old and new
 * replica SETS differ (a change of order alone moves no data).
 *
 * Nodes are identified by name across the two topologies and numbered in the result:
 * first the nodes of @p before in its order, then the nodes only in @p after.
 *
 * Streaming, for every reported range and every node that gains it (in the new list but
 * not the old), one source, following Cassandra's bootstrap with strict consistency
 * (RangeStreamer.calculateRangesToFetchWithPreferredEndpoints: the replica that loses the
 * range is the one to stream from, so that no consistency guarantee is broken):
 *  - the gaining nodes are paired, in new-replica order, with the losing nodes (old list,
 *    not new list), in old-replica order, preferring a loser of the gainer's datacenter;
 *    such a stream is marked strict;
 *  - when no loser is left (e.g. fewer nodes than the replication factor), the source is
 *    the first old replica of the gainer's datacenter still present, else the first old
 *    replica still present (Cassandra would ask the snitch for the closest one);
 *  - for #TOKENRING_CHANGE_REPLACE the replaced node is dead and never a source: every
 *    gained range comes from the first other old replica of the same datacenter (else any
 *    datacenter), non-strict, as a replacement streams;
 *  - for #TOKENRING_CHANGE_DECOMMISSION the leaving node is the loser and so the source of
 *    its ranges, as unbootstrap streams them.
 *
 * Sample tokens (e.g. tokens of sample keys from tokenring_tokens()) are looked up in both
 * placements.
 *
 * Topologies of every partitioner (since 1.2), both of the same one; on a
 * RandomPartitioner or ByteOrderedPartitioner topology @c int64_t sample tokens do not
 * exist (#TOKENRING_E_UNSUPPORTED when @p sample_count > 0: pass sample keys to
 * tokenring_movement_compare_keys()), and widths, fractions and range bounds are as
 * tokenring_movement_compare_keys() says.
 *
 * Thread-safe as a reader of its inputs. O((n1 + n2) * (log + rf)) plus the two placement
 * builds.
 * @param[out] out receives the result; free with tokenring_movement_free()
 * @param before the topology before the change
 * @param after the topology after the change
 * @param replication the replication to compare under
 * @param kind a ::tokenring_change_kind
 * @param sample_tokens tokens to trace (may be NULL when @p sample_count is 0)
 * @param sample_count number of sample tokens
 * @param[out] err optional detail
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL pointer, unknown kind, topologies of
 *         different partitioners); #TOKENRING_E_EMPTY (a topology has no ring token);
 *         #TOKENRING_E_NOTFOUND (a datacenter of the replication has no node);
 *         #TOKENRING_E_UNSUPPORTED (sample tokens on topologies of another partitioner
 *         than Murmur3); #TOKENRING_E_NOMEM
 * @since 1.0
 */
TOKENRING_API int tokenring_movement_compare(tokenring_movement **out,
                                             const tokenring_topology *before,
                                             const tokenring_topology *after,
                                             const tokenring_replication *replication,
                                             int kind, const int64_t *sample_tokens,
                                             size_t sample_count, tokenring_error *err);

/**
 * Simulates a node joining (state normal afterwards) and compares, as
 * tokenring_movement_compare() with #TOKENRING_CHANGE_JOIN. @p topology is not modified.
 * @param[out] out receives the result
 * @param topology the cluster before the join
 * @param replication the replication
 * @param name the new node's name (must not exist)
 * @param datacenter its datacenter
 * @param rack its rack
 * @param tokens its tokens
 * @param token_count number of tokens (at least 1)
 * @param sample_tokens tokens to trace (may be NULL when @p sample_count is 0)
 * @param sample_count number of sample tokens
 * @param[out] err optional detail
 * @return as tokenring_movement_compare(), plus the errors of
 *         tokenring_topology_add_node() (#TOKENRING_E_EXISTS for a known name or a taken
 *         token)
 * @since 1.0
 */
TOKENRING_API int tokenring_movement_join(tokenring_movement **out,
                                          const tokenring_topology *topology,
                                          const tokenring_replication *replication,
                                          const char *name, const char *datacenter,
                                          const char *rack, const int64_t *tokens,
                                          size_t token_count, const int64_t *sample_tokens,
                                          size_t sample_count, tokenring_error *err);

/**
 * Simulates a decommission (the node leaves) and compares, with
 * #TOKENRING_CHANGE_DECOMMISSION. @p topology is not modified.
 * @param[out] out receives the result
 * @param topology the cluster before
 * @param replication the replication
 * @param name the leaving node
 * @param sample_tokens tokens to trace (may be NULL when @p sample_count is 0)
 * @param sample_count number of sample tokens
 * @param[out] err optional detail
 * @return as tokenring_movement_compare(); #TOKENRING_E_NOTFOUND for an unknown node;
 *         #TOKENRING_E_EMPTY when it is the last node
 * @since 1.0
 */
TOKENRING_API int tokenring_movement_decommission(tokenring_movement **out,
                                                  const tokenring_topology *topology,
                                                  const tokenring_replication *replication,
                                                  const char *name,
                                                  const int64_t *sample_tokens,
                                                  size_t sample_count, tokenring_error *err);

/**
 * Simulates replacing a dead node by a new one with the same tokens, datacenter and rack,
 * with #TOKENRING_CHANGE_REPLACE. @p topology is not modified.
 * @param[out] out receives the result
 * @param topology the cluster before
 * @param replication the replication
 * @param old_name the replaced node
 * @param new_name the replacement (must not exist)
 * @param sample_tokens tokens to trace (may be NULL when @p sample_count is 0)
 * @param sample_count number of sample tokens
 * @param[out] err optional detail
 * @return as tokenring_movement_compare(); #TOKENRING_E_NOTFOUND, #TOKENRING_E_EXISTS
 * @since 1.0
 */
TOKENRING_API int tokenring_movement_replace(tokenring_movement **out,
                                             const tokenring_topology *topology,
                                             const tokenring_replication *replication,
                                             const char *old_name, const char *new_name,
                                             const int64_t *sample_tokens,
                                             size_t sample_count, tokenring_error *err);

/**
 * Simulates a node moving to new tokens, with #TOKENRING_CHANGE_MOVE. @p topology is not
 * modified.
 * @param[out] out receives the result
 * @param topology the cluster before
 * @param replication the replication
 * @param name the moving node
 * @param tokens its new tokens
 * @param token_count number of new tokens (at least 1)
 * @param sample_tokens tokens to trace (may be NULL when @p sample_count is 0)
 * @param sample_count number of sample tokens
 * @param[out] err optional detail
 * @return as tokenring_movement_compare(), plus the errors of
 *         tokenring_topology_set_tokens()
 * @since 1.0
 */
TOKENRING_API int tokenring_movement_move(tokenring_movement **out,
                                          const tokenring_topology *topology,
                                          const tokenring_replication *replication,
                                          const char *name, const int64_t *tokens,
                                          size_t token_count, const int64_t *sample_tokens,
                                          size_t sample_count, tokenring_error *err);

/* --------------------------------------------- movement on every partitioner */

/**
 * tokenring_movement_compare() with sample @e keys instead of sample tokens, on topologies
 * of every partitioner. Each key is hashed with the topologies' partitioner
 * (tokenring_token() for Murmur3, tokenring_random_token() for RandomPartitioner, the
 * key's bytes themselves for ByteOrderedPartitioner) and traced as a sample token is.
 *
 * On a RandomPartitioner or ByteOrderedPartitioner topology the analysis is the same
 * walk over ring positions as on Murmur3 (same ranges, replica lists, streams and order),
 * with widths in the ring's own units:
 *  - RandomPartitioner: exact widths over 2^127, an elementary range (start, end] being
 *    (end - start + 2^127) mod 2^127 as ::tokenring_range128 counts it (2^127 when both
 *    rings have one token); fractions divide by 2^127;
 *  - ByteOrderedPartitioner (tokens without arithmetic): every elementary range has
 *    width 1, so widths count elementary ranges (of the union of both rings' tokens) and
 *    fractions divide by their number.
 * The bounds of a changed range are then read with tokenring_movement_range_bounds128()
 * or tokenring_movement_range_bounds_bytes() (the @c int64_t @c start and @c end of
 * ::tokenring_moved_range and ::tokenring_stream are 0; a stream's range is its
 * @c range_index), the sample tokens with tokenring_movement_sample_token128() /
 * tokenring_movement_sample_token_bytes(). The summary's @c streamed_width, a sum over
 * streams, can pass 2^128 on a RandomPartitioner ring (three whole copies streamed): it
 * then saturates at 2^128 - 1. On Murmur3 topologies the result is exactly
 * tokenring_movement_compare()'s with the keys' tokens.
 *
 * @param[out] out receives the result; free with tokenring_movement_free()
 * @param before the topology before the change
 * @param after the topology after the change (same partitioner)
 * @param replication the replication to compare under
 * @param kind a ::tokenring_change_kind
 * @param sample_keys packed key bytes (may be NULL when every key is empty)
 * @param sample_offsets @p sample_count + 1 non-decreasing offsets into @p sample_keys,
 *        as tokenring_tokens() takes them (may be NULL when @p sample_count is 0)
 * @param sample_count number of sample keys
 * @param[out] err optional detail
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL pointer, decreasing offsets, unknown
 *         kind, topologies of different partitioners); #TOKENRING_E_EMPTY;
 *         #TOKENRING_E_NOTFOUND; #TOKENRING_E_NOMEM (as tokenring_movement_compare())
 * @since 1.2
 */
TOKENRING_API int tokenring_movement_compare_keys(tokenring_movement **out,
                                                  const tokenring_topology *before,
                                                  const tokenring_topology *after,
                                                  const tokenring_replication *replication,
                                                  int kind, const uint8_t *sample_keys,
                                                  const uint64_t *sample_offsets,
                                                  size_t sample_count, tokenring_error *err);

/**
 * Simulates a node with RandomPartitioner tokens joining, as tokenring_movement_join()
 * does, and compares as tokenring_movement_compare_keys() with #TOKENRING_CHANGE_JOIN.
 * @p topology is not modified.
 * @param[out] out receives the result
 * @param topology the cluster before the join (a RandomPartitioner topology)
 * @param replication the replication
 * @param name the new node's name (must not exist)
 * @param datacenter its datacenter
 * @param rack its rack
 * @param tokens its tokens, 0 .. 2^127
 * @param token_count number of tokens (at least 1)
 * @param sample_keys as tokenring_movement_compare_keys()
 * @param sample_offsets as tokenring_movement_compare_keys()
 * @param sample_count as tokenring_movement_compare_keys()
 * @param[out] err optional detail
 * @return as tokenring_movement_compare_keys(), plus the errors of
 *         tokenring_topology_add_node128() (#TOKENRING_E_EXISTS for a known name or a
 *         taken token, #TOKENRING_E_RANGE for -1 or a token above 2^127,
 *         #TOKENRING_E_UNSUPPORTED for a topology of another partitioner)
 * @since 1.2
 */
TOKENRING_API int tokenring_movement_join128(tokenring_movement **out,
                                             const tokenring_topology *topology,
                                             const tokenring_replication *replication,
                                             const char *name, const char *datacenter,
                                             const char *rack, const tokenring_token128 *tokens,
                                             size_t token_count, const uint8_t *sample_keys,
                                             const uint64_t *sample_offsets,
                                             size_t sample_count, tokenring_error *err);

/**
 * Simulates a node with ByteOrderedPartitioner tokens joining, as
 * tokenring_movement_join128() does with 128-bit tokens. @p topology is not modified.
 * @param[out] out receives the result
 * @param topology the cluster before the join (a ByteOrderedPartitioner topology)
 * @param replication the replication
 * @param name the new node's name (must not exist)
 * @param datacenter its datacenter
 * @param rack its rack
 * @param tokens @p token_count tokens (byte strings; the empty token allowed)
 * @param token_lens their lengths (at most #TOKENRING_BYTE_TOKEN_MAX each)
 * @param token_count number of tokens (at least 1)
 * @param sample_keys as tokenring_movement_compare_keys()
 * @param sample_offsets as tokenring_movement_compare_keys()
 * @param sample_count as tokenring_movement_compare_keys()
 * @param[out] err optional detail
 * @return as tokenring_movement_compare_keys(), plus the errors of
 *         tokenring_topology_add_node_bytes() (#TOKENRING_E_EXISTS,
 *         #TOKENRING_E_RANGE, #TOKENRING_E_UNSUPPORTED for a topology of another
 *         partitioner)
 * @since 1.2
 */
TOKENRING_API int tokenring_movement_join_bytes(
    tokenring_movement **out, const tokenring_topology *topology,
    const tokenring_replication *replication, const char *name, const char *datacenter,
    const char *rack, const uint8_t *const *tokens, const size_t *token_lens,
    size_t token_count, const uint8_t *sample_keys, const uint64_t *sample_offsets,
    size_t sample_count, tokenring_error *err);

/**
 * Simulates a node of a RandomPartitioner topology moving to new tokens, with
 * #TOKENRING_CHANGE_MOVE (as tokenring_movement_move()). @p topology is not modified.
 * @param[out] out receives the result
 * @param topology the cluster before (a RandomPartitioner topology)
 * @param replication the replication
 * @param name the moving node
 * @param tokens its new tokens, 0 .. 2^127
 * @param token_count number of new tokens (at least 1)
 * @param sample_keys as tokenring_movement_compare_keys()
 * @param sample_offsets as tokenring_movement_compare_keys()
 * @param sample_count as tokenring_movement_compare_keys()
 * @param[out] err optional detail
 * @return as tokenring_movement_compare_keys(); #TOKENRING_E_NOTFOUND for an unknown
 *         node; the errors of tokenring_topology_set_tokens128()
 * @since 1.2
 */
TOKENRING_API int tokenring_movement_move128(tokenring_movement **out,
                                             const tokenring_topology *topology,
                                             const tokenring_replication *replication,
                                             const char *name, const tokenring_token128 *tokens,
                                             size_t token_count, const uint8_t *sample_keys,
                                             const uint64_t *sample_offsets,
                                             size_t sample_count, tokenring_error *err);

/**
 * Simulates a node of a ByteOrderedPartitioner topology moving to new tokens, with
 * #TOKENRING_CHANGE_MOVE. @p topology is not modified.
 * @param[out] out receives the result
 * @param topology the cluster before (a ByteOrderedPartitioner topology)
 * @param replication the replication
 * @param name the moving node
 * @param tokens its new tokens (byte strings)
 * @param token_lens their lengths
 * @param token_count number of new tokens (at least 1)
 * @param sample_keys as tokenring_movement_compare_keys()
 * @param sample_offsets as tokenring_movement_compare_keys()
 * @param sample_count as tokenring_movement_compare_keys()
 * @param[out] err optional detail
 * @return as tokenring_movement_compare_keys(); #TOKENRING_E_NOTFOUND for an unknown
 *         node; the errors of tokenring_topology_set_tokens_bytes()
 * @since 1.2
 */
TOKENRING_API int tokenring_movement_move_bytes(tokenring_movement **out,
                                                const tokenring_topology *topology,
                                                const tokenring_replication *replication,
                                                const char *name, const uint8_t *const *tokens,
                                                const size_t *token_lens, size_t token_count,
                                                const uint8_t *sample_keys,
                                                const uint64_t *sample_offsets,
                                                size_t sample_count, tokenring_error *err);

/**
 * tokenring_movement_decommission() with sample keys, on topologies of every partitioner
 * (see tokenring_movement_compare_keys()).
 * @param[out] out receives the result
 * @param topology the cluster before
 * @param replication the replication
 * @param name the leaving node
 * @param sample_keys as tokenring_movement_compare_keys()
 * @param sample_offsets as tokenring_movement_compare_keys()
 * @param sample_count as tokenring_movement_compare_keys()
 * @param[out] err optional detail
 * @return as tokenring_movement_compare_keys(); #TOKENRING_E_NOTFOUND for an unknown
 *         node; #TOKENRING_E_EMPTY when it is the last node
 * @since 1.2
 */
TOKENRING_API int tokenring_movement_decommission_keys(tokenring_movement **out,
                                                       const tokenring_topology *topology,
                                                       const tokenring_replication *replication,
                                                       const char *name,
                                                       const uint8_t *sample_keys,
                                                       const uint64_t *sample_offsets,
                                                       size_t sample_count, tokenring_error *err);

/**
 * tokenring_movement_replace() with sample keys, on topologies of every partitioner (see
 * tokenring_movement_compare_keys()).
 * @param[out] out receives the result
 * @param topology the cluster before
 * @param replication the replication
 * @param old_name the replaced node
 * @param new_name the replacement (must not exist)
 * @param sample_keys as tokenring_movement_compare_keys()
 * @param sample_offsets as tokenring_movement_compare_keys()
 * @param sample_count as tokenring_movement_compare_keys()
 * @param[out] err optional detail
 * @return as tokenring_movement_compare_keys(); #TOKENRING_E_NOTFOUND,
 *         #TOKENRING_E_EXISTS
 * @since 1.2
 */
TOKENRING_API int tokenring_movement_replace_keys(tokenring_movement **out,
                                                  const tokenring_topology *topology,
                                                  const tokenring_replication *replication,
                                                  const char *old_name, const char *new_name,
                                                  const uint8_t *sample_keys,
                                                  const uint64_t *sample_offsets,
                                                  size_t sample_count, tokenring_error *err);

/**
 * Simulates a node joining with tokens in the text form of @p topology's partitioner
 * (see @ref partitioner_text): one call for tokenring_movement_join() (with
 * tokenring_movement_compare_keys()'s samples), tokenring_movement_join128() and
 * tokenring_movement_join_bytes(). @p topology is not modified.
 * @param[out] out receives the result
 * @param topology the cluster before the join (any partitioner)
 * @param replication the replication
 * @param name the new node's name (must not exist)
 * @param datacenter its datacenter
 * @param rack its rack
 * @param tokens @p token_count NUL-terminated tokens
 * @param token_count number of tokens (at least 1)
 * @param sample_keys as tokenring_movement_compare_keys()
 * @param sample_offsets as tokenring_movement_compare_keys()
 * @param sample_count as tokenring_movement_compare_keys()
 * @param[out] err optional detail (a bad token is named with its position)
 * @return as tokenring_movement_compare_keys(), plus the errors of
 *         tokenring_topology_add_node_text()
 * @since 1.2
 */
TOKENRING_API int tokenring_movement_join_text(tokenring_movement **out,
                                               const tokenring_topology *topology,
                                               const tokenring_replication *replication,
                                               const char *name, const char *datacenter,
                                               const char *rack, const char *const *tokens,
                                               size_t token_count, const uint8_t *sample_keys,
                                               const uint64_t *sample_offsets,
                                               size_t sample_count, tokenring_error *err);

/**
 * Simulates a node moving to new tokens given in the text form of @p topology's
 * partitioner: one call for tokenring_movement_move() (with samples),
 * tokenring_movement_move128() and tokenring_movement_move_bytes(). @p topology is not
 * modified.
 * @param[out] out receives the result
 * @param topology the cluster before (any partitioner)
 * @param replication the replication
 * @param name the moving node
 * @param tokens @p token_count NUL-terminated new tokens
 * @param token_count number of new tokens (at least 1)
 * @param sample_keys as tokenring_movement_compare_keys()
 * @param sample_offsets as tokenring_movement_compare_keys()
 * @param sample_count as tokenring_movement_compare_keys()
 * @param[out] err optional detail (a bad token is named with its position)
 * @return as tokenring_movement_compare_keys(); #TOKENRING_E_NOTFOUND for an unknown
 *         node; the errors of tokenring_topology_set_tokens_text()
 * @since 1.2
 */
TOKENRING_API int tokenring_movement_move_text(tokenring_movement **out,
                                               const tokenring_topology *topology,
                                               const tokenring_replication *replication,
                                               const char *name, const char *const *tokens,
                                               size_t token_count, const uint8_t *sample_keys,
                                               const uint64_t *sample_offsets,
                                               size_t sample_count, tokenring_error *err);

#ifdef __cplusplus
}
#endif

#endif /* TOKENRING_MOVEMENT_H */
