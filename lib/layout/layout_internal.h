/* SPDX-License-Identifier: Apache-2.0 */
/* Private helpers shared by layout.c, allocator.c, migration.c and analysis.c. Never
 * installed. */
#ifndef TOKENRING_LAYOUT_INTERNAL_H
#define TOKENRING_LAYOUT_INTERNAL_H

#include "internal.h"
#include "token.h"

/* The token count per node and replication factor of an allocation or migration plan:
 * TOKENRING_OK, or TOKENRING_E_RANGE with a message when either is out of range. */
TR_HIDDEN int tr_check_plan_shape(tokenring_error *err, uint32_t num_tokens, int32_t rf);
/* tokenring_allocate_nodes() reporting to pg (NULL: no reports); pg->total grows by the
 * tokens to place, so one tr_progress can span several calls. */
TR_HIDDEN int tr_allocate_nodes(int64_t *tokens_out, uint32_t num_tokens,
                                const tokenring_topology *topology, const char *datacenter,
                                const char *const *racks, size_t count, int32_t rf,
                                uint32_t flags, tr_progress *pg, tokenring_error *err);

/* One joining node's plan for tokenring_allocate_join(): `rack` in `datacenter` (with
 * `simple`, the whole cluster's ring with racks ignored), rf replicas, the node's fair
 * share the others' mean, tokens beyond the ring's useful ranges placed where they change
 * nothing (with `stop_no_gain` also once no split lowers the objective). With `given`
 * (ascending), those tokens moved within their neighbours only, `rounds` times each,
 * with `halfway` each ending half way along its move. On
 * TOKENRING_E_IMPOSSIBLE *placed_out (may be NULL) receives how many tokens fitted. */
TR_HIDDEN int tr_allocate_join_candidate(int64_t *tokens_out, uint32_t num_tokens,
                                         const tokenring_topology *topology,
                                         const char *datacenter, const char *rack, int32_t rf,
                                         bool simple, bool stop_no_gain, const int64_t *given,
                                         int rounds, bool halfway, uint32_t *placed_out,
                                         tokenring_error *err);

/* The allocator's cost model, in work units (lib/layout/allocator.c): for each of `count` nodes
 * planned into a datacenter of M tokens (M grows by T with each), (T + 16)(M + T), plus,
 * once the datacenter has rf nodes (before, tokens are evenly spaced), T w^2 with
 * w = 1 + rf T / (M + 1), the tokens walked per replica set (a node that takes many
 * tokens in a few ranges walks past its own tokens: the cubic term). With `datacenter`
 * NULL, M counts every token of the topology. */
TR_HIDDEN uint64_t tr_allocate_work(const tokenring_topology *topology, const char *datacenter,
                                    uint32_t num_tokens, size_t count, int32_t rf);

/* tokenring_allocate_cassandra() / _cassandra128() with num_tokens capped by the limits'
 * max_num_tokens (NULL: Cassandra's TOKENRING_MAX_NUM_TOKENS), for the _limited callers
 * (lib/layout/cassandra_alloc.c). */
TR_HIDDEN int tr_allocate_cassandra_lim(int64_t *tokens_out, uint32_t num_tokens,
                                        const tokenring_topology *topology, const char *name,
                                        const char *datacenter, const char *rack,
                                        const tokenring_replication *keyspace,
                                        int32_t local_rf, const int64_t *first_token,
                                        uint32_t release, uint32_t flags,
                                        const tokenring_limits *lim, tokenring_error *err);
TR_HIDDEN int tr_allocate_cassandra128_lim(tokenring_token128 *tokens_out, uint32_t num_tokens,
                                           const tokenring_topology *topology,
                                           const char *name, const char *datacenter,
                                           const char *rack,
                                           const tokenring_replication *keyspace,
                                           int32_t local_rf,
                                           const tokenring_token128 *first_token,
                                           uint32_t release, uint32_t flags,
                                           const tokenring_limits *lim, tokenring_error *err);

/* The even layout of every partitioner with token arithmetic (width_bits > 0), over its
 * table (lib/layout/layout.c): tr_even_init() checks the shape (TOKENRING_E_RANGE unless
 * num_tokens is 1 .. TOKENRING_LAYOUT_MAX_TOKENS, slots at least 1 and slot below slots),
 * tr_even_tok() gives token j (below num_tokens). tokenring_layout_even_tokens(), _tokens128()
 * and _tokens_text() read their tokens from it. */
typedef struct tr_even {
    const tr_partitioner_ops *ops;
    tr_u128 a, b, d;
    uint32_t slot, slots;
} tr_even;
TR_HIDDEN int tr_even_init(tr_even *e, const tr_partitioner_ops *ops, uint32_t num_tokens,
                           uint32_t slot, uint32_t slots);
TR_HIDDEN tr_tok tr_even_tok(const tr_even *e, uint32_t j);

/* tokenring_layout_even_tokens() without the checks. */
TR_HIDDEN void tr_layout_even(int64_t *out, uint32_t num_tokens, uint32_t slot,
                              uint32_t slots);

#endif
