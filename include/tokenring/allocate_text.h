/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file allocate_text.h
 * @brief The allocators of allocate.h for every partitioner, with tokens in text form
 *        (see @ref partitioner_text); allocate.h includes this file.
 *
 * Threads: every function here only reads its inputs and may run concurrently with other
 * readers of the same objects.
 */
#ifndef TOKENRING_ALLOCATE_TEXT_H
#define TOKENRING_ALLOCATE_TEXT_H

#include "tokenring/common.h"
#include "tokenring/types.h"
#include "tokenring/partitioner.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The tokens Apache Cassandra gives a node that bootstraps into @p topology, for the
 * topology's partitioner, in text form: tokenring_allocate_cassandra()
 * (Murmur3Partitioner) or tokenring_allocate_cassandra128() (RandomPartitioner), with
 * their rules and results, under @p limits as the @c _limited calls take them: num_tokens
 * up to @c limits->max_num_tokens, and the budget checked against the estimate of
 * tokenring_allocate_nodes_limited() for one node over the cluster's tokens (an upper
 * bound of Cassandra's allocation; the progress callback is not called).
 * ByteOrderedPartitioner has no token allocation in Cassandra and is refused.
 * @param[out] out receives the @p num_tokens tokens, ascending (free the list with
 *        tokenring_token_list_free()); unchanged on failure
 * @param num_tokens the new node's num_tokens (1 .. @c limits->max_num_tokens, default
 *        #TOKENRING_MAX_NUM_TOKENS)
 * @param topology the current cluster (not modified)
 * @param name the new node's name (its address); must not be in @p topology
 * @param datacenter the new node's datacenter
 * @param rack the new node's rack
 * @param keyspace the replication of `allocate_tokens_for_keyspace`, or NULL
 * @param local_rf the local replication factor when @p keyspace is NULL, else 0
 * @param first_token the token an empty allocation ring starts at, NUL-terminated in the
 *        partitioner's text form, or NULL (allowed when the ring is not empty)
 * @param release #TOKENRING_CASSANDRA_4_0, #TOKENRING_CASSANDRA_4_1 or
 *        #TOKENRING_CASSANDRA_5_0
 * @param flags 0 or #TOKENRING_CASSANDRA_OFFLINE
 * @param[in,out] limits budget and num_tokens cap; receives the estimate (NULL: the
 *        defaults)
 * @param[out] err optional detail
 * @return as the typed calls; #TOKENRING_E_PARSE or #TOKENRING_E_RANGE for a bad
 *         @p first_token (named in @p err); #TOKENRING_E_UNSUPPORTED for
 *         ByteOrderedPartitioner; #TOKENRING_E_BUDGET
 * @since 1.2
 */
TOKENRING_API int tokenring_allocate_cassandra_text(
    tokenring_token_list **out, uint32_t num_tokens, const tokenring_topology *topology,
    const char *name, const char *datacenter, const char *rack,
    const tokenring_replication *keyspace, int32_t local_rf, const char *first_token,
    uint32_t release, uint32_t flags, tokenring_limits *limits, tokenring_error *err);

/**
 * The library's join plan for one node, for the topology's partitioner, in text form:
 * tokenring_allocate_join_limited() with the output of the topology's partitioner
 * (Murmur3Partitioner or RandomPartitioner), with its rules, limits and results.
 * ByteOrderedPartitioner has no token allocation and is refused.
 * @param[out] out receives the @p num_tokens tokens, ascending (free the list with
 *        tokenring_token_list_free()); unchanged on failure
 * @param num_tokens as tokenring_allocate_join_limited()
 * @param topology the current cluster (not modified)
 * @param name as tokenring_allocate_join()
 * @param datacenter as tokenring_allocate_join()
 * @param rack as tokenring_allocate_join()
 * @param keyspace as tokenring_allocate_join()
 * @param local_rf as tokenring_allocate_join()
 * @param release as tokenring_allocate_join()
 * @param flags 0 or #TOKENRING_JOIN_BEST_ONE_STEP
 * @param[in,out] limits as tokenring_allocate_join_limited()
 * @param[out] err optional detail
 * @return as tokenring_allocate_join_limited(); #TOKENRING_E_UNSUPPORTED for
 *         ByteOrderedPartitioner
 * @since 1.2
 */
TOKENRING_API int tokenring_allocate_join_text(
    tokenring_token_list **out, uint32_t num_tokens, const tokenring_topology *topology,
    const char *name, const char *datacenter, const char *rack,
    const tokenring_replication *keyspace, int32_t local_rf, uint32_t release,
    uint32_t flags, tokenring_limits *limits, tokenring_error *err);

#ifdef __cplusplus
}
#endif

#endif /* TOKENRING_ALLOCATE_TEXT_H */
