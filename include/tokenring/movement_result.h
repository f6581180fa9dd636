/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file movement_result.h
 * @brief Reading a movement result: its summary, nodes, changed ranges, streams and
 *        samples, and the bounds of its ranges on every partitioner (lib/analysis.c).
 *
 * A ::tokenring_movement is made by the simulations of movement.h; it is immutable and
 * may be read from any number of threads at once.
 *
 * Part of the analyses (analysis.h, which includes this file): they never modify their
 * inputs, and every width is exact (see analysis.h for what widths count on each
 * partitioner).
 */
#ifndef TOKENRING_MOVEMENT_RESULT_H
#define TOKENRING_MOVEMENT_RESULT_H

#include "tokenring/common.h"
#include "tokenring/types.h"
#include "tokenring/partitioner.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Result of a movement analysis (immutable; free with tokenring_movement_free()).
 *  @since 1.0 */
typedef struct tokenring_movement tokenring_movement;

/**
 * Frees a movement result.
 * @param movement the result, or NULL (no-op)
 * @since 1.0
 */
TOKENRING_API void tokenring_movement_free(tokenring_movement *movement);

/**
 * Totals of a movement analysis.
 * @since 1.0
 */
typedef struct tokenring_movement_summary {
    tokenring_u128 changed_width;  /**< Token values whose replica set changes. */
    tokenring_u128 primary_changed_width; /**< Token values whose primary replica (first
                                               replica) changes. */
    tokenring_u128 streamed_width; /**< Sum of the widths of all streams (a range streamed
                                        to two nodes counts twice). */
    double changed_fraction;       /**< changed_width / 2^64 (other partitioners: see
                                        tokenring_movement_compare_keys()). */
    double primary_changed_fraction; /**< primary_changed_width / 2^64. */
    double streamed_fraction;      /**< streamed_width / 2^64. */
    uint32_t range_count;          /**< Elementary ranges whose replica set changes. */
    uint32_t stream_count;         /**< Streams. */
    uint32_t node_count;           /**< Nodes of the result. */
    uint32_t cleanup_count;        /**< Nodes that afterwards hold data they no longer
                                        replicate. */
    uint32_t sample_count;         /**< Sample tokens traced. */
    uint32_t samples_primary_changed;  /**< Samples whose primary replica changes. */
    uint32_t samples_replicas_changed; /**< Samples whose replica set changes. */
    uint32_t reserved0;            /**< Reserved, zero. */
    uint64_t reserved[4];          /**< Reserved, zero. */
} tokenring_movement_summary;

/**
 * Reads the totals.
 * @param[out] out receives them
 * @param movement the result
 * @return #TOKENRING_OK or #TOKENRING_E_INVAL
 * @since 1.0
 */
TOKENRING_API int tokenring_movement_get_summary(tokenring_movement_summary *out,
                                                 const tokenring_movement *movement);

/**
 * What one node gains and loses. Effective widths count every range the node is a
 * replica of; primary widths the ranges it is the first replica of.
 * @since 1.0
 */
typedef struct tokenring_movement_node {
    const char *name;              /**< Node name (valid while the result lives). */
    tokenring_u128 before_width;   /**< Effective width before. */
    tokenring_u128 after_width;    /**< Effective width after. */
    tokenring_u128 gained_width;   /**< Width it replicates after but not before (what it
                                        receives by streaming). */
    tokenring_u128 lost_width;     /**< Width it replicated before but not after. */
    tokenring_u128 primary_before_width; /**< Primary width before. */
    tokenring_u128 primary_after_width;  /**< Primary width after. */
    double gained_fraction;        /**< gained_width / after_width: the share of its data
                                        afterwards that arrives by streaming (0 if none). */
    double lost_fraction;          /**< lost_width / before_width: the share of its data
                                        before that it no longer replicates (0 if none). */
    uint8_t in_before;             /**< 1 if the node is in the topology before. */
    uint8_t in_after;              /**< 1 if the node is in the topology after. */
    uint8_t needs_cleanup;         /**< 1 if it is in both and lost_width > 0: what
                                        `nodetool cleanup` would remove. */
    uint8_t reserved0;             /**< Reserved, zero. */
    uint32_t reserved1;            /**< Reserved, zero. */
    uint64_t reserved[2];          /**< Reserved, zero. */
} tokenring_movement_node;

/**
 * Reads node @p index (0 .. summary.node_count - 1).
 * @param[out] out receives the node
 * @param movement the result
 * @param index the node
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE
 * @since 1.0
 */
TOKENRING_API int tokenring_movement_get_node(tokenring_movement_node *out,
                                              const tokenring_movement *movement,
                                              size_t index);

/**
 * One elementary range whose replica set changes. Node numbers are the result's.
 * @since 1.0
 */
typedef struct tokenring_moved_range {
    int64_t start;                 /**< Exclusive lower bound (0 on other partitioners:
                                        tokenring_movement_range_bounds128(),
                                        tokenring_movement_range_bounds_bytes()). */
    int64_t end;                   /**< Inclusive upper bound (likewise). */
    tokenring_u128 width;          /**< Exact width. */
    const uint32_t *old_replicas;  /**< Old replicas in Cassandra's order. */
    const uint32_t *new_replicas;  /**< New replicas in Cassandra's order. */
    uint32_t old_count;            /**< Number of old replicas. */
    uint32_t new_count;            /**< Number of new replicas. */
    uint64_t reserved[2];          /**< Reserved, zero. */
} tokenring_moved_range;

/**
 * Reads changed range @p index (0 .. summary.range_count - 1), in token order.
 * @param[out] out receives it (pointers valid while the result lives)
 * @param movement the result
 * @param index the range
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE
 * @since 1.0
 */
TOKENRING_API int tokenring_movement_get_range(tokenring_moved_range *out,
                                               const tokenring_movement *movement,
                                               size_t index);

/**
 * One stream: @c source sends range (start, end] to @c destination.
 * @since 1.0
 */
typedef struct tokenring_stream {
    int64_t start;          /**< Exclusive lower bound (0 on other partitioners: the
                                 bounds of range @c range_index). */
    int64_t end;            /**< Inclusive upper bound (likewise). */
    tokenring_u128 width;   /**< Exact width. */
    uint32_t source;        /**< Sending node (result numbering). */
    uint32_t destination;   /**< Receiving node. */
    uint32_t range_index;   /**< The changed range it belongs to. */
    uint32_t strict;        /**< 1 if the source is the replica losing the range. */
    uint64_t reserved[2];   /**< Reserved, zero. */
} tokenring_stream;

/**
 * Reads stream @p index (0 .. summary.stream_count - 1), in range order.
 * @param[out] out receives it
 * @param movement the result
 * @param index the stream
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE
 * @since 1.0
 */
TOKENRING_API int tokenring_movement_get_stream(tokenring_stream *out,
                                                const tokenring_movement *movement,
                                                size_t index);

/**
 * What happens to one sample token.
 * @since 1.0
 */
typedef struct tokenring_sample_change {
    int64_t token;                /**< The sample token (0 on other partitioners:
                                       tokenring_movement_sample_token128(),
                                       tokenring_movement_sample_token_bytes()). */
    const uint32_t *old_replicas; /**< Replicas before (result numbering, Cassandra's
                                       order; the first is the primary). */
    const uint32_t *new_replicas; /**< Replicas after. */
    uint32_t old_count;           /**< Number of old replicas. */
    uint32_t new_count;           /**< Number of new replicas. */
    uint32_t old_owner;           /**< Primary owner (range owner) before. */
    uint32_t new_owner;           /**< Primary owner after. */
    uint8_t owner_changed;        /**< 1 if the range owner changes. */
    uint8_t replicas_changed;     /**< 1 if the replica set changes. */
    uint8_t reserved0[6];         /**< Reserved, zero. */
    uint64_t reserved[2];         /**< Reserved, zero. */
} tokenring_sample_change;

/**
 * Reads sample @p index (0 .. summary.sample_count - 1), in the order given.
 * @param[out] out receives it (pointers valid while the result lives)
 * @param movement the result
 * @param index the sample
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE
 * @since 1.0
 */
TOKENRING_API int tokenring_movement_get_sample(tokenring_sample_change *out,
                                                const tokenring_movement *movement,
                                                size_t index);

/**
 * The partitioner of the topologies a movement result compares: it says how to read the
 * bounds of its ranges (the @c int64_t fields for Murmur3,
 * tokenring_movement_range_bounds128() or tokenring_movement_range_bounds_bytes()
 * otherwise) and what its widths count.
 * @param movement the result (NULL gives #TOKENRING_PARTITIONER_MURMUR3)
 * @return its ::tokenring_partitioner
 * @since 1.2
 */
TOKENRING_API tokenring_partitioner tokenring_movement_partitioner(
    const tokenring_movement *movement);

/**
 * The bounds (start, end] of changed range @p index of a RandomPartitioner result (the
 * range tokenring_movement_get_range() reads at the same index).
 * @param[out] start_out receives the exclusive lower bound (may be NULL)
 * @param[out] end_out receives the inclusive upper bound (may be NULL)
 * @param movement the result
 * @param index the range, 0 .. summary.range_count - 1
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL @p movement, both outputs NULL);
 *         #TOKENRING_E_UNSUPPORTED (a result of another partitioner);
 *         #TOKENRING_E_RANGE
 * @since 1.2
 */
TOKENRING_API int tokenring_movement_range_bounds128(tokenring_token128 *start_out,
                                                     tokenring_token128 *end_out,
                                                     const tokenring_movement *movement,
                                                     size_t index);

/**
 * The bounds (start, end] of changed range @p index of a ByteOrderedPartitioner result,
 * as byte strings owned by the result.
 * @param[out] start_out receives a pointer to the lower bound's bytes (valid while the
 *             result lives)
 * @param[out] start_len_out receives its length
 * @param[out] end_out receives a pointer to the upper bound's bytes
 * @param[out] end_len_out receives its length
 * @param movement the result
 * @param index the range, 0 .. summary.range_count - 1
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (a NULL argument);
 *         #TOKENRING_E_UNSUPPORTED (a result of another partitioner);
 *         #TOKENRING_E_RANGE
 * @since 1.2
 */
TOKENRING_API int tokenring_movement_range_bounds_bytes(const uint8_t **start_out,
                                                        size_t *start_len_out,
                                                        const uint8_t **end_out,
                                                        size_t *end_len_out,
                                                        const tokenring_movement *movement,
                                                        size_t index);

/**
 * The RandomPartitioner token of sample @p index (tokenring_random_token() of the key;
 * -1 for the empty key).
 * @param[out] out receives the token
 * @param movement the result
 * @param index the sample, 0 .. summary.sample_count - 1
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL; #TOKENRING_E_UNSUPPORTED (a result of
 *         another partitioner); #TOKENRING_E_RANGE
 * @since 1.2
 */
TOKENRING_API int tokenring_movement_sample_token128(tokenring_token128 *out,
                                                     const tokenring_movement *movement,
                                                     size_t index);

/**
 * The ByteOrderedPartitioner token of sample @p index (the key's bytes, copied).
 * @param[out] out receives a pointer to its bytes, valid while the result lives
 * @param[out] len_out receives its length
 * @param movement the result
 * @param index the sample, 0 .. summary.sample_count - 1
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL; #TOKENRING_E_UNSUPPORTED (a result of
 *         another partitioner); #TOKENRING_E_RANGE
 * @since 1.2
 */
TOKENRING_API int tokenring_movement_sample_token_bytes(const uint8_t **out, size_t *len_out,
                                                        const tokenring_movement *movement,
                                                        size_t index);

/**
 * A bound of changed range @p index of a result of any partitioner, in its text form
 * (see @ref partitioner_text): the range tokenring_movement_get_range() reads at the
 * same index, whose bounds tokenring_movement_range_bounds128() and
 * tokenring_movement_range_bounds_bytes() give typed.
 * @param[out] out buffer for the NUL-terminated text (may be NULL when @p cap is 0)
 * @param cap size of @p out
 * @param[out] len_out receives the text's length without the NUL (also on
 *        #TOKENRING_E_BUFSIZE)
 * @param movement the result
 * @param index the range, 0 .. summary.range_count - 1
 * @param end 0 for the exclusive lower bound (start), 1 for the inclusive upper bound
 *        (end)
 * @return #TOKENRING_OK; #TOKENRING_E_BUFSIZE; #TOKENRING_E_INVAL (NULL @p movement or
 *         @p len_out, NULL @p out with a non-zero @p cap, @p end not 0 or 1);
 *         #TOKENRING_E_RANGE (@p index past the end)
 * @since 1.2
 */
TOKENRING_API int tokenring_movement_range_bound_text(char *out, size_t cap, size_t *len_out,
                                                      const tokenring_movement *movement,
                                                      size_t index, int end);

/**
 * The token of sample @p index of a result of any partitioner, in its text form (the
 * token of the key, as tokenring_key_token_text() writes it).
 * @param[out] out buffer for the NUL-terminated text (may be NULL when @p cap is 0)
 * @param cap size of @p out
 * @param[out] len_out receives the text's length without the NUL (also on
 *        #TOKENRING_E_BUFSIZE)
 * @param movement the result
 * @param index the sample, 0 .. summary.sample_count - 1
 * @return #TOKENRING_OK; #TOKENRING_E_BUFSIZE; #TOKENRING_E_INVAL (NULL @p movement or
 *         @p len_out, NULL @p out with a non-zero @p cap); #TOKENRING_E_RANGE
 * @since 1.2
 */
TOKENRING_API int tokenring_movement_sample_token_text(char *out, size_t cap, size_t *len_out,
                                                       const tokenring_movement *movement,
                                                       size_t index);

#ifdef __cplusplus
}
#endif

#endif /* TOKENRING_MOVEMENT_RESULT_H */
