/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file migration.h
 * @brief A plan for changing num_tokens of a live cluster node by node
 *        (lib/layout/migration.c).
 *
 * Part of the analyses (analysis.h, which includes this file): they never modify their
 * inputs, and every width is exact (see analysis.h for what widths count on each
 * partitioner).
 */
#ifndef TOKENRING_MIGRATION_H
#define TOKENRING_MIGRATION_H

#include "tokenring/common.h"
#include "tokenring/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Result of a num_tokens migration plan (immutable; free with
 *  tokenring_migration_free()). @since 1.0 */
typedef struct tokenring_migration tokenring_migration;

/**
 * Plans changing num_tokens by building a new datacenter and moving to it (the only safe
 * way: a node's tokens cannot change in place). The new datacenter's nodes get tokens
 * for @p num_tokens each: the first node of rack @c i (racks numbered 0, 1, ... in order
 * of first appearance in @p racks) gets tokenring_layout_even_tokens(num_tokens, i,
 * number of racks), stepped up by one value where another datacenter already holds the
 * token; the other nodes come from the allocator (tokenring_allocate_nodes(), batch mode,
 * with the first nodes fixed), balanced for @p rf (or, with @p rf 0, the largest factor
 * a keyspace takes in the new datacenter).
 *
 * The steps are text lines naming the real keyspaces, datacenters and nodes, each a
 * command Cassandra accepts or an instruction ('#' lines are comments): pin the clients
 * to the old datacenter (DC-aware load balancing, LOCAL_* consistency levels); make each
 * SimpleStrategy keyspace NetworkTopologyStrategy with its factor in the old datacenter
 * before the new nodes start (else they would become its replicas at once, without data;
 * a repair follows where the old datacenter has several racks); configure and start the
 * new nodes without bootstrap; add the new datacenter to each keyspace that has replicas
 * in the old one; rebuild each new node from the old datacenter; repair those keyspaces
 * (`nodetool repair -full`); switch the clients; remove the old datacenter from those
 * keyspaces; decommission the old nodes. Every datacenter but the old one keeps its
 * replicas exactly as they are, and a keyspace without replicas in the old datacenter
 * is left alone. Since 1.2: a SimpleStrategy keyspace in a cluster of several
 * datacenters is refused (#TOKENRING_E_UNSUPPORTED, naming it): SimpleStrategy places
 * replicas ring-wide, with no factor per datacenter to keep; and @p rf 0 keeps each
 * keyspace's factor.
 *
 * Thread-safe as a reader of its inputs.
 * @param[out] out receives the plan
 * @param topology the current cluster (not modified)
 * @param old_datacenter the datacenter being replaced (must exist)
 * @param new_datacenter the new datacenter's name (must not exist)
 * @param node_names @p node_count names for the new nodes (none may exist)
 * @param racks @p node_count rack names, in join order
 * @param node_count number of new nodes (at least the new datacenter's factors)
 * @param num_tokens the target num_tokens
 * @param rf the replication factor every keyspace with replicas in the old datacenter
 *        gets in the new one (the plan's first lines say so, with the factors it
 *        replaces); 0 (since 1.2): each keyspace keeps its factor of the old datacenter
 *        (transient replicas included)
 * @param keyspaces @p keyspace_count keyspace names
 * @param replications @p keyspace_count current replications of those keyspaces
 * @param keyspace_count number of keyspaces (may be 0 when @p rf is not 0; then the plan
 *        alters nothing and the rebuild streams nothing)
 * @param[out] err optional detail
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL; #TOKENRING_E_NOTFOUND (old datacenter);
 *         #TOKENRING_E_EXISTS (new datacenter or a node name exists); #TOKENRING_E_RANGE
 *         (since 1.2 also num_tokens above #TOKENRING_MAX_NUM_TOKENS, and @p rf 0
 *         without keyspaces); #TOKENRING_E_BUDGET (since 1.2, see
 *         tokenring_migration_plan_limited()); #TOKENRING_E_IMPOSSIBLE (fewer nodes than a
 *         factor of the new datacenter); #TOKENRING_E_UNSUPPORTED (a SimpleStrategy
 *         keyspace in a cluster of several datacenters, or transient replicas kept with
 *         @p num_tokens above 1, which Cassandra refuses; since 1.2);
 *         #TOKENRING_E_EMPTY (@p rf 0 and no keyspace has a replica in the old
 *         datacenter, since 1.2); #TOKENRING_E_NOMEM
 * @since 1.0
 */
TOKENRING_API int tokenring_migration_plan(tokenring_migration **out,
                                           const tokenring_topology *topology,
                                           const char *old_datacenter,
                                           const char *new_datacenter,
                                           const char *const *node_names,
                                           const char *const *racks, size_t node_count,
                                           uint32_t num_tokens, int32_t rf,
                                           const char *const *keyspaces,
                                           const tokenring_replication *const *replications,
                                           size_t keyspace_count, tokenring_error *err);

/**
 * tokenring_migration_plan() reporting its progress to @p progress (see
 * ::tokenring_progress_fn): the units are those of tokenring_allocate_nodes_progress()
 * for the new nodes the allocator places. When the callback returns non-zero the call
 * stops, leaves @p *out as it was and returns #TOKENRING_E_CANCELLED.
 * @param[out] out as tokenring_migration_plan()
 * @param topology as tokenring_migration_plan()
 * @param old_datacenter as tokenring_migration_plan()
 * @param new_datacenter as tokenring_migration_plan()
 * @param node_names as tokenring_migration_plan()
 * @param racks as tokenring_migration_plan()
 * @param node_count as tokenring_migration_plan()
 * @param num_tokens as tokenring_migration_plan()
 * @param rf as tokenring_migration_plan()
 * @param keyspaces as tokenring_migration_plan()
 * @param replications as tokenring_migration_plan()
 * @param keyspace_count as tokenring_migration_plan()
 * @param progress the callback, or NULL (then exactly tokenring_migration_plan())
 * @param user passed to @p progress
 * @param[out] err optional detail
 * @return as tokenring_migration_plan(), or #TOKENRING_E_CANCELLED
 * @since 1.2
 */
TOKENRING_API int tokenring_migration_plan_progress(
    tokenring_migration **out, const tokenring_topology *topology, const char *old_datacenter,
    const char *new_datacenter, const char *const *node_names, const char *const *racks,
    size_t node_count, uint32_t num_tokens, int32_t rf, const char *const *keyspaces,
    const tokenring_replication *const *replications, size_t keyspace_count,
    tokenring_progress_fn progress, void *user, tokenring_error *err);

/**
 * tokenring_migration_plan() under @p limits (see ::tokenring_limits): a budget,
 * progress (as tokenring_migration_plan_progress()) and the num_tokens cap
 * (@c limits->max_num_tokens, default #TOKENRING_MAX_NUM_TOKENS, which the calls without
 * limits apply). The estimate is the allocator's (tokenring_allocate_nodes_limited())
 * for @p node_count nodes joining the new datacenter.
 * @param[out] out as tokenring_migration_plan()
 * @param topology as tokenring_migration_plan()
 * @param old_datacenter as tokenring_migration_plan()
 * @param new_datacenter as tokenring_migration_plan()
 * @param node_names as tokenring_migration_plan()
 * @param racks as tokenring_migration_plan()
 * @param node_count as tokenring_migration_plan()
 * @param num_tokens as tokenring_migration_plan() (1 .. the cap above)
 * @param rf as tokenring_migration_plan()
 * @param keyspaces as tokenring_migration_plan()
 * @param replications as tokenring_migration_plan()
 * @param keyspace_count as tokenring_migration_plan()
 * @param[in,out] limits budget, progress, num_tokens cap; receives the estimate (NULL:
 *        the defaults)
 * @param[out] err optional detail
 * @return as tokenring_migration_plan(); #TOKENRING_E_BUDGET; #TOKENRING_E_CANCELLED
 * @since 1.2
 */
TOKENRING_API int tokenring_migration_plan_limited(
    tokenring_migration **out, const tokenring_topology *topology, const char *old_datacenter,
    const char *new_datacenter, const char *const *node_names, const char *const *racks,
    size_t node_count, uint32_t num_tokens, int32_t rf, const char *const *keyspaces,
    const tokenring_replication *const *replications, size_t keyspace_count,
    tokenring_limits *limits, tokenring_error *err);

/**
 * Frees a plan.
 * @param migration the plan, or NULL (no-op)
 * @since 1.0
 */
TOKENRING_API void tokenring_migration_free(tokenring_migration *migration);

/**
 * Number of new nodes in the plan.
 * @param migration the plan (NULL gives 0)
 * @return the count
 * @since 1.0
 */
TOKENRING_API size_t tokenring_migration_node_count(const tokenring_migration *migration);

/**
 * Reads new node @p index.
 * @param[out] name_out receives its name (valid while the plan lives; may be NULL)
 * @param[out] rack_out receives its rack (may be NULL)
 * @param[out] tokens_out receives a pointer to its tokens, ascending (may be NULL)
 * @param[out] token_count_out receives the number of tokens (may be NULL)
 * @param migration the plan
 * @param index the node, in join order
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE
 * @since 1.0
 */
TOKENRING_API int tokenring_migration_node(const char **name_out, const char **rack_out,
                                           const int64_t **tokens_out,
                                           size_t *token_count_out,
                                           const tokenring_migration *migration, size_t index);

/**
 * Number of steps.
 * @param migration the plan (NULL gives 0)
 * @return the count
 * @since 1.0
 */
TOKENRING_API size_t tokenring_migration_step_count(const tokenring_migration *migration);

/**
 * Step @p index as one NUL-terminated line of text (a command or an instruction).
 * @param migration the plan
 * @param index the step
 * @return the text, valid while the plan lives, or NULL for a bad argument
 * @since 1.0
 */
TOKENRING_API const char *tokenring_migration_step(const tokenring_migration *migration,
                                                   size_t index);

#ifdef __cplusplus
}
#endif

#endif /* TOKENRING_MIGRATION_H */
