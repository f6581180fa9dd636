/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file allocate.h
 * @brief Choosing tokens for joining nodes: the replication-aware allocator
 *        (lib/allocator.c), Cassandra's own allocation reproduced bit for bit
 *        (lib/cassandra_alloc.c) and the default plan for one join (lib/allocate_join.c).
 *
 * tokenring_allocate_tokens() and tokenring_allocate_nodes() choose tokens for nodes
 * joining one datacenter so that effective (replicated) ownership under the real
 * NetworkTopologyStrategy rules is as even as possible. See their documentation for the
 * model and the algorithm. The token caps (#TOKENRING_LAYOUT_MAX_TOKENS,
 * #TOKENRING_MAX_CLUSTER_TOKENS) are in layout.h, which includes this file.
 *
 * Threads: every function here only reads its inputs and may run concurrently with other
 * readers of the same objects.
 */
#ifndef TOKENRING_ALLOCATE_H
#define TOKENRING_ALLOCATE_H

#include "tokenring/common.h"
#include "tokenring/types.h"
#include "tokenring/partitioner.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------------------------- allocator */

/** Flag for tokenring_allocate_nodes(): plan strictly node by node (each node's tokens
 *  are final once chosen) instead of refining the whole batch jointly at the end.
 *  @since 1.0 */
#define TOKENRING_ALLOCATE_NODE_BY_NODE 0x1u

/**
 * Chooses @p num_tokens tokens for one node joining @p datacenter / @p rack so that the
 * effective ownership of the datacenter's nodes, under NetworkTopologyStrategy with
 * factor @p rf in that datacenter, is as even as possible.
 *
 * Model. Only the datacenter's own tokens matter for its replicas (NetworkTopologyStrategy
 * fills each datacenter independently). Every node of @p topology in @p datacenter is
 * counted whatever its state (joining nodes included, as Cassandra's allocator includes
 * bootstrapping tokens). Replica sets are computed with the real walk: racks counted
 * with the new node included, the rf - racks repeat budget, any number of racks (also
 * 1 < racks < rf, which Cassandra's allocator refuses), in any fill order. The objective
 * is the sum over the datacenter's nodes of (S_w - o_w)^2 / o_w, with S_w a node's
 * effective ownership and o_w its fair share: with at least rf racks, rack totals
 * proportional to the racks' token counts but at most 1 (a rack holds one copy at most),
 * split among the rack's nodes by token count; with fewer racks than rf, node totals
 * proportional to token counts but at most 1; the totals sum to min(rf, nodes).
 *
 * Algorithm. A candidate is a split of a range of the datacenter's ring (including
 * ranges made by tokens chosen earlier in the same call, so a node may take several
 * tokens in one range; never a range next to one of the node's own tokens, where a token
 * changes nothing). Inserting a token changes the replica sets of a few neighbouring
 * ranges by constant widths and of the split part linearly in the split position, so the
 * objective along one range is a quadratic whose minimum gives the split point (no
 * fixed midpoints), kept at least 1/16 of the range from either end (1/8 with one
 * replica, where a token also takes at most its share, 1/remaining tokens, of what the
 * node still lacks), so that no token lands next to another. Tokens are chosen greedily, best candidate first, with a
 * lazily re-evaluated priority queue; the new node's own deviation is weighted (k+1)/T
 * while choosing its (k+1)-th token, as Cassandra does, so that early tokens relieve the
 * most loaded nodes. On rings of more than 64 * @p num_tokens tokens only the ranges near
 * the tokens of the 2 * @p num_tokens most over-served nodes are candidates. Then each
 * chosen token is moved within its neighbours towards its best position (moving a token
 * between its neighbours changes no replica set, only two range widths, so this is an
 * exact one-dimensional minimisation), stopping 1/8 of the span short of either
 * neighbour. Ring fractions become integer offsets through double (exact scaling by
 * 2^64, integer clamping), never long double, so the tokens are the same on every
 * IEEE-754 platform. Scores use floating point only to rank
 * candidates; tokens are exact integers.
 *
 * Special cases. While the datacenter has at most rf nodes (every node replicates
 * everything), and for the first node of a new rack while there are at most rf racks,
 * the node gets evenly spaced tokens: tokenring_layout_even_tokens() with slot = its
 * position (node or rack number, 0-based) and rf slots. When the datacenter has (or
 * will have, counting the planned nodes) exactly rf racks and rf > 1, every rack holds
 * one full copy, so a node's effective ownership is its primary ownership inside its
 * rack's own ring; each rack's ring is then balanced on its own with one replica (as
 * Cassandra does since 4.0), the first node of the i-th rack (in order of appearance)
 * evenly spaced at slot i of rf. The result never contains a token already held by any
 * node of @p topology (any datacenter); a split point on such a token steps to the next
 * value.
 *
 * Deprecated (since 1.2) in favour of tokenring_allocate_join(), the library's join plan
 * (Cassandra's own tokens by default): a datacenter grown node by node with this call
 * ended less balanced than the same growth with Cassandra's tokens on 175 of 180
 * growths of the sweep in doc/performance.md ("Growth sweep"). Kept for compatibility.
 * Since 1.2 a node with more tokens than the datacenter has ranges (16 tokens joining a
 * few single-token nodes), which Cassandra accepts, is not refused: the tokens beyond
 * the useful ranges go where they change nothing, as tokenring_allocate_join()'s
 * allocator candidate places them.
 *
 * Thread-safe as a reader of @p topology. Complexity about O(M (w^2 + log M)) for M
 * tokens in the datacenter and w tokens walked per replica set.
 * @param[out] tokens_out receives @p num_tokens tokens, ascending
 * @param num_tokens tokens for the new node (1 .. #TOKENRING_MAX_NUM_TOKENS since 1.2)
 * @param topology the current cluster (not modified)
 * @param datacenter the new node's datacenter (need not exist yet)
 * @param rack the new node's rack (need not exist yet)
 * @param rf the replication factor of @p datacenter (1 .. #TOKENRING_MAX_RF)
 * @param flags 0 (reserved)
 * @param[out] err optional detail
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL pointer, bad name, unknown flag);
 *         #TOKENRING_E_RANGE (@p num_tokens or @p rf out of range); #TOKENRING_E_IMPOSSIBLE
 *         (no room left for distinct tokens); #TOKENRING_E_NOMEM
 * @since 1.0
 * @deprecated Use tokenring_allocate_join().
 */
TOKENRING_API int tokenring_allocate_tokens(int64_t *tokens_out, uint32_t num_tokens,
                                            const tokenring_topology *topology,
                                            const char *datacenter, const char *rack,
                                            int32_t rf, uint32_t flags, tokenring_error *err);

/**
 * Plans @p count nodes joining @p datacenter together: node @c i (in rack @p racks[i])
 * gets @p tokens_out[i * num_tokens .. (i+1) * num_tokens - 1] (ascending). The nodes are
 * planned in order, each against the cluster plus the nodes planned before it, so no two
 * nodes collide and the nodes can bootstrap in that order (or all at once with these
 * tokens as initial_token). Planning a whole datacenter from nothing is a call on a
 * topology without that datacenter.
 *
 * Unless #TOKENRING_ALLOCATE_NODE_BY_NODE is given, the batch is refined jointly at the
 * end: the tokens of the planned nodes (never the tokens already in @p topology) are
 * moved within their neighbours, round after round (at most 2000 rounds, until no token
 * moves by 2^-40 of the ring or more), towards equal effective ownership of the final
 * datacenter. That makes the final state much more even (a node-by-node
 * allocator cannot do better than about +-1/(2T) with one replica per rack), at the cost
 * of the intermediate states of a one-by-one rollout being less even than the final one.
 *
 * Where the datacenter has fewer useful ranges than the nodes ask for (a single-token
 * datacenter, the first node of a new rack), which Cassandra accepts join after join, the
 * nodes are planned join after join with the join plan's allocator instead (since 1.2;
 * before, #TOKENRING_E_IMPOSSIBLE "fits only N"): the tokens beyond the useful ranges go
 * where they change nothing. Where the batch plan succeeds its result is unchanged.
 *
 * For one node joining a running cluster, tokenring_allocate_join() is the library's
 * join plan (what `tokenring join` uses): Cassandra's own tokens by default.
 *
 * Thread-safe as a reader of @p topology. Complexity about O(count * M (w^2 + log M)).
 * @param[out] tokens_out receives @p count * @p num_tokens tokens
 * @param num_tokens tokens per new node (1 .. #TOKENRING_MAX_NUM_TOKENS since 1.2, before
 *        1 .. #TOKENRING_LAYOUT_MAX_TOKENS; tokenring_allocate_nodes_limited() raises it)
 * @param topology the current cluster (not modified)
 * @param datacenter the datacenter the nodes join
 * @param racks @p count rack names, one per new node, in join order
 * @param count number of nodes to plan (at least 1)
 * @param rf the replication factor of @p datacenter (1 .. #TOKENRING_MAX_RF)
 * @param flags 0 or #TOKENRING_ALLOCATE_NODE_BY_NODE
 * @param[out] err optional detail
 * @return as tokenring_allocate_tokens(); since 1.2 also #TOKENRING_E_BUDGET (the
 *         default budget, see tokenring_allocate_nodes_limited())
 * @since 1.0
 */
TOKENRING_API int tokenring_allocate_nodes(int64_t *tokens_out, uint32_t num_tokens,
                                           const tokenring_topology *topology,
                                           const char *datacenter, const char *const *racks,
                                           size_t count, int32_t rf, uint32_t flags,
                                           tokenring_error *err);

/**
 * tokenring_allocate_nodes() reporting its progress to @p progress (see
 * ::tokenring_progress_fn): one unit per token placed, then one per round of the joint
 * refinement (the total grows by one with each round started). When the callback returns
 * non-zero the call stops before its next token or round and returns
 * #TOKENRING_E_CANCELLED; @p tokens_out is then unspecified (as after any failure).
 * Allocating one node as tokenring_allocate_tokens() does is this call with @p count 1 and
 * #TOKENRING_ALLOCATE_NODE_BY_NODE.
 * @param[out] tokens_out as tokenring_allocate_nodes()
 * @param num_tokens as tokenring_allocate_nodes()
 * @param topology as tokenring_allocate_nodes()
 * @param datacenter as tokenring_allocate_nodes()
 * @param racks as tokenring_allocate_nodes()
 * @param count as tokenring_allocate_nodes()
 * @param rf as tokenring_allocate_nodes()
 * @param flags as tokenring_allocate_nodes()
 * @param progress the callback, or NULL (then exactly tokenring_allocate_nodes())
 * @param user passed to @p progress
 * @param[out] err optional detail
 * @return as tokenring_allocate_nodes(), or #TOKENRING_E_CANCELLED
 * @since 1.2
 */
TOKENRING_API int tokenring_allocate_nodes_progress(int64_t *tokens_out, uint32_t num_tokens,
                                                    const tokenring_topology *topology,
                                                    const char *datacenter,
                                                    const char *const *racks, size_t count,
                                                    int32_t rf, uint32_t flags,
                                                    tokenring_progress_fn progress, void *user,
                                                    tokenring_error *err);

/**
 * tokenring_allocate_nodes() under @p limits (see ::tokenring_limits): a budget,
 * progress (as tokenring_allocate_nodes_progress()) and the num_tokens cap.
 *
 * num_tokens is at most @c limits->max_num_tokens (default #TOKENRING_MAX_NUM_TOKENS,
 * Cassandra's own limit; tokenring_allocate_nodes() and tokenring_allocate_tokens() apply
 * that default). The estimate, before anything is planned: for each node planned into a
 * datacenter of M tokens (growing by T = @p num_tokens with each), (T + 16)(M + T) units,
 * plus, once the datacenter has rf nodes (before, a node's tokens are evenly spaced),
 * T w^2 with w = 1 + rf T / (M + 1), the tokens a replica walk passes (a node taking many
 * tokens in a few ranges walks past its own: the cost is then cubic in T); plus 64 M.
 * @param[out] tokens_out as tokenring_allocate_nodes()
 * @param num_tokens tokens per new node (1 .. the cap above)
 * @param topology as tokenring_allocate_nodes()
 * @param datacenter as tokenring_allocate_nodes()
 * @param racks as tokenring_allocate_nodes()
 * @param count as tokenring_allocate_nodes()
 * @param rf as tokenring_allocate_nodes()
 * @param flags as tokenring_allocate_nodes()
 * @param[in,out] limits budget, progress, num_tokens cap; receives the estimate (NULL:
 *        the defaults)
 * @param[out] err optional detail
 * @return as tokenring_allocate_nodes(); #TOKENRING_E_RANGE also for num_tokens above the
 *         cap (the message names it and how to raise it); #TOKENRING_E_BUDGET;
 *         #TOKENRING_E_CANCELLED
 * @since 1.2
 */
TOKENRING_API int tokenring_allocate_nodes_limited(int64_t *tokens_out, uint32_t num_tokens,
                                                   const tokenring_topology *topology,
                                                   const char *datacenter,
                                                   const char *const *racks, size_t count,
                                                   int32_t rf, uint32_t flags,
                                                   tokenring_limits *limits,
                                                   tokenring_error *err);

/* ------------------------------------------------ Cassandra's own allocation */

/** Flag for tokenring_allocate_cassandra(): follow the offline `generatetokens` tool of
 *  Cassandra 4.0 - 5.0 instead of a bootstrapping node. That tool's allocation learns a
 *  rack only once a node of it has tokens and keeps its first decision per rack, so every
 *  rack is treated as the only one: the whole datacenter is one ring with groups = nodes
 *  (its documented example output is reproduced with this flag). @since 1.2 */
#define TOKENRING_CASSANDRA_OFFLINE 0x1u

/** Release lines for tokenring_allocate_cassandra(): 4.0.x. @since 1.2 */
#define TOKENRING_CASSANDRA_4_0 0x0400u
/** Release line 4.1.x. @since 1.2 */
#define TOKENRING_CASSANDRA_4_1 0x0401u
/** Release line 5.0.x. @since 1.2 */
#define TOKENRING_CASSANDRA_5_0 0x0500u

/**
 * The tokens Apache Cassandra gives a node that bootstraps into @p topology with
 * `allocate_tokens_for_local_replication_factor: local_rf` (@p keyspace NULL) or
 * `allocate_tokens_for_keyspace` of a keyspace replicated as @p keyspace, bit for bit.
 * The allocator classes are the same in every release of 4.0, 4.1 and 5.0; the lines
 * differ in one detail that can decide ties, the hash code of a node's address (4.0:
 * 31 * address + port; 4.1 and 5.0, where InetAddressAndPort extends InetSocketAddress:
 * address + port), so @p release names the line. Checked against vectors made by running
 * 4.0.14, 4.1.7 and 5.0.2.
 *
 * What Cassandra does, and so this call (TokenAllocation): with NetworkTopologyStrategy
 * the factor R is the keyspace's factor in @p datacenter (0 when absent) or @p local_rf;
 * the racks K of the datacenter are counted among nodes holding normal tokens (every
 * state but #TOKENRING_STATE_JOINING), K = 1 when @p rack is not one of them. R <= 1:
 * the datacenter's tokens with one replica (NoReplicationTokenAllocator); K == R: only
 * the tokens of @p rack, one replica; K > R: the datacenter, R replicas, racks as
 * groups (ReplicationAwareTokenAllocator); K == 1: the datacenter, R replicas, nodes as
 * groups; 1 < K < R fails (#TOKENRING_E_IMPOSSIBLE, Cassandra's ConfigurationException).
 * SimpleStrategy: every token of the cluster, R = its factor, nodes as groups. Joining
 * nodes are not seen at all (TokenAllocation copies the ring with
 * TokenMetadata.cloneOnlyTokenMap(), which drops bootstrapping tokens), so two nodes that
 * bootstrap at the same time can be given the same tokens, as in Cassandra. Fewer units than R (the first
 * nodes of a datacenter), fewer groups than R or @p num_tokens larger than the ring use
 * TokenAllocatorBase.generateSplits(): a java.util.Random seeded with the ring's token
 * count splits the largest range at a ratio in [0.553, 0.628], and an empty ring starts
 * at a random token, which Cassandra draws without a seed: pass it as @p first_token.
 * Finally a token held (as a normal token) by a node outside the allocation ring steps
 * to the next value, and one held inside it fails (#TOKENRING_E_EXISTS, "Is another node
 * also allocating tokens?").
 *
 * Ties between equal ownerships are broken as the JVM breaks them: by
 * java.util.PriorityQueue's heap and java.util.HashMap's iteration order over the nodes'
 * InetAddressAndPort hash codes. Node names are therefore read as addresses, like
 * `nodetool status` prints them: "10.0.0.1", "10.0.0.1:7001", "fd00::1",
 * "[fd00::1]:7001", port 7000 when none is given (the default storage port). A name that
 * is not an address gets a fixed hash of our own (String.hashCode() of the name), which
 * can only matter when two such nodes own exactly the same share.
 *
 * Thread-safe as a reader of @p topology. Complexity about O(M (w + log M) + T w^2) for
 * M tokens in the allocation ring, T = @p num_tokens and w tokens walked per replica
 * set, as Cassandra's.
 * @param[out] tokens_out receives @p num_tokens tokens, ascending; untouched on failure
 * @param num_tokens the new node's num_tokens (1 .. #TOKENRING_MAX_NUM_TOKENS since 1.2,
 *        Cassandra's own limit: it refuses to start a node with more, so there are no
 *        tokens to reproduce; before, 1 .. #TOKENRING_LAYOUT_MAX_TOKENS)
 * @param topology the current cluster (not modified)
 * @param name the new node's name (its address); must not be in @p topology
 * @param datacenter the new node's datacenter (need not exist yet)
 * @param rack the new node's rack (need not exist yet)
 * @param keyspace the replication of `allocate_tokens_for_keyspace`, or NULL for
 *        `allocate_tokens_for_local_replication_factor`
 * @param local_rf the local replication factor (1 .. #TOKENRING_MAX_RF) when @p keyspace
 *        is NULL, else 0
 * @param first_token the token an empty allocation ring starts at (Cassandra's random
 *        one); may be NULL when the ring is not empty
 * @param release #TOKENRING_CASSANDRA_4_0, #TOKENRING_CASSANDRA_4_1 or
 *        #TOKENRING_CASSANDRA_5_0
 * @param flags 0 or #TOKENRING_CASSANDRA_OFFLINE
 * @param[out] err optional detail (Cassandra's message where it fails)
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL pointer, bad name, unknown flag, both
 *         or neither of @p keyspace / @p local_rf, an empty ring without @p first_token);
 *         #TOKENRING_E_RANGE (@p num_tokens or @p local_rf out of range, SimpleStrategy
 *         with factor 0); #TOKENRING_E_EXISTS (@p name already in the ring, or a chosen
 *         token held in the allocation ring); #TOKENRING_E_IMPOSSIBLE (1 < racks < R; a
 *         case where Cassandra's allocator throws, e.g. a NoSuchElementException when a
 *         single donor is asked for more tokens than it has); #TOKENRING_E_UNSUPPORTED
 *         (an unknown @p release; a topology of another partitioner: RandomPartitioner
 *         takes tokenring_allocate_cassandra128()); #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_allocate_cassandra(int64_t *tokens_out, uint32_t num_tokens,
                                               const tokenring_topology *topology,
                                               const char *name, const char *datacenter,
                                               const char *rack,
                                               const tokenring_replication *keyspace,
                                               int32_t local_rf, const int64_t *first_token,
                                               uint32_t release, uint32_t flags,
                                               tokenring_error *err);

/**
 * tokenring_allocate_cassandra() for a RandomPartitioner topology
 * (tokenring_topology_new_partitioned() with #TOKENRING_PARTITIONER_RANDOM): the tokens
 * Cassandra 4.0 - 5.0 gives a bootstrapping node there, bit for bit. Cassandra's
 * allocator is the same for both partitioners; what differs is BigIntegerToken's
 * arithmetic, reproduced exactly: a range's size is
 * <tt>Math.scalb(BigInteger.doubleValue(next - this), -127)</tt> (rounded to the
 * nearest double, ties to even; plus 1 when not positive, so the range from 2^127 to 0
 * has size 0), RandomPartitioner.split() computes <tt>left + (right - left) *
 * BigDecimal.valueOf(ratio)</tt> exactly and truncates (wrapping over 2^127 + right -
 * left, modulo 2^127), the midpoint is FBUtilities.midpoint over 127 bits, and a token
 * held in another datacenter steps to token + 1 (no wrap). Checked against vectors made
 * by running 4.0.19, 4.1.10 and 5.0.6 with RandomPartitioner.
 *
 * Murmur3Partitioner topologies take tokenring_allocate_cassandra(); Cassandra has no
 * allocation for ByteOrderedPartitioner (BytesToken.size() and split() throw
 * UnsupportedOperationException), so both are refused here.
 *
 * Thread-safe as a reader of @p topology. Complexity as tokenring_allocate_cassandra().
 * @param[out] tokens_out receives @p num_tokens tokens in 0 .. 2^127, ascending;
 *             untouched on failure
 * @param num_tokens the new node's num_tokens (1 .. #TOKENRING_MAX_NUM_TOKENS since 1.2,
 *        Cassandra's own limit: it refuses to start a node with more, so there are no
 *        tokens to reproduce; before, 1 .. #TOKENRING_LAYOUT_MAX_TOKENS)
 * @param topology the current cluster, a RandomPartitioner topology (not modified)
 * @param name the new node's name (its address); must not be in @p topology
 * @param datacenter the new node's datacenter (need not exist yet)
 * @param rack the new node's rack (need not exist yet)
 * @param keyspace the replication of `allocate_tokens_for_keyspace`, or NULL for
 *        `allocate_tokens_for_local_replication_factor`
 * @param local_rf the local replication factor (1 .. #TOKENRING_MAX_RF) when @p keyspace
 *        is NULL, else 0
 * @param first_token the token (0 .. 2^127) an empty allocation ring starts at
 *        (Cassandra's random one); may be NULL when the ring is not empty
 * @param release #TOKENRING_CASSANDRA_4_0, #TOKENRING_CASSANDRA_4_1 or
 *        #TOKENRING_CASSANDRA_5_0
 * @param flags 0 or #TOKENRING_CASSANDRA_OFFLINE
 * @param[out] err optional detail (Cassandra's message where it fails)
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL pointer, bad name, unknown flag, both
 *         or neither of @p keyspace / @p local_rf, an empty ring without @p first_token);
 *         #TOKENRING_E_RANGE (@p num_tokens or @p local_rf out of range, SimpleStrategy
 *         with factor 0, @p first_token above 2^127 or the minimum token -1);
 *         #TOKENRING_E_EXISTS (@p name already in the ring, or a chosen token held in the
 *         allocation ring); #TOKENRING_E_IMPOSSIBLE (1 < racks < R; a case where
 *         Cassandra's allocator throws; a chosen token 2^127 held in another datacenter,
 *         which Cassandra would move to 2^127 + 1, outside the token range);
 *         #TOKENRING_E_UNSUPPORTED (a Murmur3Partitioner or ByteOrderedPartitioner
 *         topology, an unknown @p release); #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_allocate_cassandra128(tokenring_token128 *tokens_out,
                                                  uint32_t num_tokens,
                                                  const tokenring_topology *topology,
                                                  const char *name, const char *datacenter,
                                                  const char *rack,
                                                  const tokenring_replication *keyspace,
                                                  int32_t local_rf,
                                                  const tokenring_token128 *first_token,
                                                  uint32_t release, uint32_t flags,
                                                  tokenring_error *err);

/* ------------------------------------------------- the default plan for one join */

/** Flag for tokenring_allocate_join(), tokenring_allocate_join128() and
 *  tokenring_allocate_join_limited(): the plan best in one step (the default of 1.2
 *  before this flag) instead of Cassandra's tokens. Each join is then never less balanced
 *  than Cassandra's tokens for that join, but a datacenter grown join after join with it
 *  can end less balanced than the same growth with Cassandra's (see
 *  tokenring_allocate_join()). @since 1.2 */
#define TOKENRING_JOIN_BEST_ONE_STEP 0x1u

/**
 * The tokens for one node joining @p topology, final when it joins: the library's join
 * plan (what `tokenring join` uses). By default the plan is Cassandra's own tokens,
 * tokenring_allocate_cassandra() with the same arguments, so a datacenter grown node by
 * node with it is exactly as balanced as the same growth under Cassandra's allocator; an
 * empty allocation ring starts at token 0 (Cassandra's layout up to a rotation: Cassandra
 * draws that first token at random). Where Cassandra gives no tokens (1 < racks < rf,
 * which Cassandra refuses; a case where its allocator throws; tokens held by a joining
 * node) the plan is the replication-aware allocator's, described below.
 *
 * Why Cassandra's tokens are the default: the plan best in one step
 * (#TOKENRING_JOIN_BEST_ONE_STEP), applied join after join from a first node per rack,
 * ended less balanced than Cassandra's on the same growth on 12 of 82 configurations of
 * the reduced growth sweep (tests/growth_sweep.c; doc/performance.md, "Growth sweep", has
 * the full sweep), by up to about 1 % of the mean in max/mean, while it was more balanced
 * on about as many; no per-join rule found keeps "never less balanced than Cassandra's"
 * over a whole growth.
 *
 * With #TOKENRING_JOIN_BEST_ONE_STEP, the join is judged by effective ownership under
 * @p keyspace (or NetworkTopologyStrategy {@p datacenter: @p local_rf}) over the nodes
 * of @p datacenter that hold ring tokens once the node has joined (every node of the
 * cluster with SimpleStrategy), by max/mean, then min/mean (no finer tie-break); primary
 * ownership instead while that group has at most rf nodes (every node then replicates
 * everything). Candidates, each evaluated exactly with the library's ring, placement and
 * balance:
 *  - Cassandra's own choice, tokenring_allocate_cassandra() with the same arguments
 *    (when Cassandra would give one: not where it refuses, e.g. 1 < racks < rf, nor, from
 *    8 tokens on, for an empty allocation ring, whose first token Cassandra draws at
 *    random);
 *  - the replication-aware allocator's greedy plan (tokenring_allocate_tokens() of 1.0 as
 *    documented there, with three differences: the node's fair share is the mean of the
 *    others' rather than proportional to its token count; SimpleStrategy plans over the
 *    whole cluster with racks ignored; and tokens beyond the ring's useful ranges go
 *    where they change nothing, inside a range that ends at one of the node's own
 *    tokens, instead of failing, so that 16 tokens can join a single-token datacenter);
 *    while the group has at most rf nodes it balances primary ownership (one replica);
 *  - Cassandra's tokens, each moved within its neighbours half way towards the
 *    allocator's optimum (an exact one-dimensional minimisation; no replica set
 *    changes; the full move raised the max/mean of datacenters grown join after join).
 * The result is Cassandra's candidate unless another is at least as good on both
 * max/mean and min/mean and lowers max/mean or, at equal max/mean, raises min/mean;
 * without Cassandra's candidate, the allocator's plan. So this one join never leaves the
 * datacenter less balanced than Cassandra's tokens would; the joins after it start from
 * another ring than Cassandra's, and can end less balanced (see above).
 *
 * When each candidate competes (chosen on the allocator baseline, a datacenter grown
 * join after join, where a better single join can serve later joins worse): the
 * allocator's plan for the first rf + 1 nodes of the group, when the ring has fewer
 * tokens than @p num_tokens, and where Cassandra gives no tokens; the refined tokens
 * from 8 tokens per node on. Below 8 tokens per node the result is Cassandra's tokens
 * whenever Cassandra gives some, an empty ring started at token 0. doc/performance.md has
 * the figures: on the vectors of tokenring_allocate_cassandra() no join is less balanced
 * and about 39 % are more.
 *
 * Thread-safe as a reader of @p topology. Complexity: Cassandra's allocation and one ring
 * and placement build of the cluster (with #TOKENRING_JOIN_BEST_ONE_STEP also the
 * allocator's, and two more builds).
 * @param[out] tokens_out receives @p num_tokens tokens, ascending; untouched on failure
 * @param num_tokens the new node's num_tokens (1 .. #TOKENRING_MAX_NUM_TOKENS, Cassandra's
 *        own limit; tokenring_allocate_join_limited() raises it)
 * @param topology the current cluster (not modified)
 * @param name the new node's name (its address, as for tokenring_allocate_cassandra());
 *        must not be in @p topology
 * @param datacenter the new node's datacenter (need not exist yet)
 * @param rack the new node's rack (need not exist yet; ignored with SimpleStrategy)
 * @param keyspace the replication to balance, or NULL for @p local_rf
 * @param local_rf the replication factor of @p datacenter (1 .. #TOKENRING_MAX_RF) when
 *        @p keyspace is NULL, else 0
 * @param release the Cassandra release line of the comparison (#TOKENRING_CASSANDRA_4_0,
 *        #TOKENRING_CASSANDRA_4_1 or #TOKENRING_CASSANDRA_5_0; they differ only in ties)
 * @param flags 0 (Cassandra's tokens) or #TOKENRING_JOIN_BEST_ONE_STEP
 * @param[out] err optional detail
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL pointer, bad name, unknown flag, both
 *         or neither of @p keyspace / @p local_rf); #TOKENRING_E_RANGE (@p num_tokens or
 *         the factor out of range); #TOKENRING_E_EXISTS (@p name already in the cluster);
 *         #TOKENRING_E_IMPOSSIBLE (the keyspace places no replica in @p datacenter, or
 *         not one token fits: the message says how many can and why);
 *         #TOKENRING_E_UNSUPPORTED (an unknown @p release); #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_allocate_join(int64_t *tokens_out, uint32_t num_tokens,
                                          const tokenring_topology *topology, const char *name,
                                          const char *datacenter, const char *rack,
                                          const tokenring_replication *keyspace,
                                          int32_t local_rf, uint32_t release, uint32_t flags,
                                          tokenring_error *err);

/**
 * tokenring_allocate_join() for a RandomPartitioner topology: the tokens for one node
 * joining, never less balanced than the tokens Cassandra would give the same node
 * (tokenring_allocate_cassandra128()).
 *
 * By default the result is Cassandra's tokens (exact), as for tokenring_allocate_join().
 * With #TOKENRING_JOIN_BEST_ONE_STEP the candidates and the rule are those of
 * tokenring_allocate_join(): Cassandra's tokens, the allocator's greedy plan and
 * Cassandra's tokens refined half way; each is
 * evaluated exactly on the RandomPartitioner ring (ownership widths over 2^127), and the
 * result is Cassandra's tokens unless another candidate is at least as good on both
 * max/mean and min/mean and better on one. The allocator plans on a projection of the
 * ring to 64 bits: a token t is its bits 126..63 (the order is kept and widths are kept
 * to 2^-64 of the ring); a planned token becomes the middle of its 2^63-wide slice of the
 * ring, or the Cassandra token it came from when the refinement left it in place. A ring
 * with two tokens in one slice (within 2^63 of each other, which random tokens all but
 * never are) cannot be projected: the result is then Cassandra's tokens.
 *
 * Thread-safe as a reader of @p topology.
 * @param[out] tokens_out receives @p num_tokens tokens (0 .. 2^127), ascending; untouched
 *             on failure
 * @param num_tokens as tokenring_allocate_join()
 * @param topology a #TOKENRING_PARTITIONER_RANDOM topology (not modified)
 * @param name as tokenring_allocate_join()
 * @param datacenter as tokenring_allocate_join()
 * @param rack as tokenring_allocate_join()
 * @param keyspace as tokenring_allocate_join()
 * @param local_rf as tokenring_allocate_join()
 * @param release as tokenring_allocate_join()
 * @param flags 0 or #TOKENRING_JOIN_BEST_ONE_STEP
 * @param[out] err optional detail
 * @return as tokenring_allocate_join(); #TOKENRING_E_UNSUPPORTED also for a topology of
 *         another partitioner (Murmur3: tokenring_allocate_join(); ByteOrderedPartitioner
 *         has no token allocation)
 * @since 1.2
 */
TOKENRING_API int tokenring_allocate_join128(tokenring_token128 *tokens_out,
                                             uint32_t num_tokens,
                                             const tokenring_topology *topology,
                                             const char *name, const char *datacenter,
                                             const char *rack,
                                             const tokenring_replication *keyspace,
                                             int32_t local_rf, uint32_t release,
                                             uint32_t flags, tokenring_error *err);

/**
 * tokenring_allocate_join() or tokenring_allocate_join128() under @p limits (see
 * ::tokenring_limits): exactly one of @p tokens_out (a Murmur3 topology) and
 * @p tokens128_out (a RandomPartitioner topology) is given. num_tokens is at most
 * @c limits->max_num_tokens (default #TOKENRING_MAX_NUM_TOKENS, which the calls without
 * limits apply). The estimate: twice the allocator's (tokenring_allocate_nodes_limited())
 * for one node, plus 192 units per token of the cluster (three ring and placement
 * builds). Planning one join is about cubic in num_tokens when the node's tokens
 * outnumber the datacenter's (1,024 tokens joining 48: 0.03 s, 4,096: 1 s, 8,192: 14 s).
 * @param[out] tokens_out receives the tokens on a Murmur3 topology, else NULL
 * @param[out] tokens128_out receives the tokens on a RandomPartitioner topology, else NULL
 * @param num_tokens as tokenring_allocate_join() (1 .. the cap above)
 * @param topology as tokenring_allocate_join()
 * @param name as tokenring_allocate_join()
 * @param datacenter as tokenring_allocate_join()
 * @param rack as tokenring_allocate_join()
 * @param keyspace as tokenring_allocate_join()
 * @param local_rf as tokenring_allocate_join()
 * @param release as tokenring_allocate_join()
 * @param flags 0 or #TOKENRING_JOIN_BEST_ONE_STEP
 * @param[in,out] limits budget and num_tokens cap; receives the estimate (NULL: the
 *        defaults; the progress callback is not called)
 * @param[out] err optional detail
 * @return as tokenring_allocate_join(); #TOKENRING_E_INVAL also for both or neither
 *         output; #TOKENRING_E_UNSUPPORTED for an output that does not match the
 *         topology's partitioner; #TOKENRING_E_BUDGET
 * @since 1.2
 */
TOKENRING_API int tokenring_allocate_join_limited(
    int64_t *tokens_out, tokenring_token128 *tokens128_out, uint32_t num_tokens,
    const tokenring_topology *topology, const char *name, const char *datacenter,
    const char *rack, const tokenring_replication *keyspace, int32_t local_rf,
    uint32_t release, uint32_t flags, tokenring_limits *limits, tokenring_error *err);

#ifdef __cplusplus
}
#endif

/* The allocators for every partitioner, tokens as text (a header of their own: this one
 * is at its size cap). */
#include "tokenring/allocate_text.h"

#endif /* TOKENRING_ALLOCATE_H */
