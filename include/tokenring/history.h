/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file history.h
 * @brief Cassandra 6.0's replica order, replayed from a cluster's history (lib/history.c).
 *
 * Cassandra 6.0 (Transactional Cluster Metadata) keeps one read placement per distinct
 * replication and changes it at every join, leave, move and replace by deltas (replicas
 * removed, new ones appended), then moves each range's owner first: the order of a
 * range's replicas depends on the cluster's history, not on its tokens alone
 * (doc/cassandra-6.md). A ::tokenring_history replays a history, given as text, with
 * those rules and answers each replication's placement in the order a 6.0 server gives
 * (#TOKENRING_ORDER_HISTORY), as an ordinary ::tokenring_placement.
 *
 * The history text, one step a line (`#` starts a comment; fields separated by blanks):
 *
 *     register ADDRESS DC RACK            a node the cluster knows, not yet in the ring
 *     keyspace NAME REPLICATION           CREATE KEYSPACE (REPLICATION as
 *                                         tokenring_replication_parse() reads it, no blank)
 *     unsafe_join ADDRESS TOKEN[,TOKEN]   a node started with auto_bootstrap: false
 *     join ADDRESS TOKEN[,TOKEN]          a bootstrap
 *     leave ADDRESS                       a decommission
 *     move ADDRESS TOKEN                  a move (nodetool move)
 *     replace OLD_ADDRESS NEW_ADDRESS     a replacement (NEW registered before)
 *
 * Nodes are IPv4 addresses, optionally with `:PORT` (the storage port, default 7000):
 * 6.0 appends replicas added in one step in the order of Java's hash of that address.
 * Murmur3 tokens. The distributed system keyspaces of 6.0 (SimpleStrategy 1, 2 and 3)
 * exist from the start, so a keyspace sharing one of their replications shares its
 * history. Each operation runs to completion; tokenring_history_concurrent() says which
 * planned operations 6.0 would let run at once.
 *
 * A history is immutable once replayed; any number of threads may read it at once.
 */
#ifndef TOKENRING_HISTORY_H
#define TOKENRING_HISTORY_H

#include "tokenring/common.h"
#include "tokenring/placement.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A replayed cluster history (Cassandra 6.0's placements). @since 1.2 */
typedef struct tokenring_history tokenring_history;

/**
 * Replays a cluster history (the text format above) with Cassandra 6.0's placement rules.
 * @param[out] out receives the history; free with tokenring_history_free()
 * @param text the history text (need not be NUL-terminated)
 * @param len its length
 * @param[out] err optional detail; for a bad step it names the line and column
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL (NULL argument), #TOKENRING_E_PARSE (a
 *         malformed line, an unknown step, a bad token, replication or address),
 *         #TOKENRING_E_NOTFOUND (a step names a node not registered, or not in the ring),
 *         #TOKENRING_E_EXISTS (a node registered twice, a token already owned),
 *         #TOKENRING_E_IMPOSSIBLE (a step that leaves no node in the ring),
 *         #TOKENRING_E_UNSUPPORTED (a keyspace with transient replicas and a node of
 *         several tokens: Cassandra 6.0 refuses them together),
 *         #TOKENRING_E_BUDGET (the work is above the default budget:
 *         tokenring_history_replay_limited() raises it), #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_history_replay(tokenring_history **out, const char *text,
                                           size_t len, tokenring_error *err);

/**
 * Frees a history.
 * @param history the history, or NULL (no-op)
 * @since 1.2
 */
TOKENRING_API void tokenring_history_free(tokenring_history *history);

/**
 * The ring after the history's last step (borrowed: valid while the history lives; take
 * a reference with tokenring_ring_ref() to keep it). Nodes are named by their address as
 * the history gives it.
 * @param history the history
 * @return the ring, or NULL for NULL or a history with no node in the ring
 * @since 1.2
 */
TOKENRING_API const tokenring_ring *tokenring_history_ring(const tokenring_history *history);

/**
 * The placement of @p replication after the history, in Cassandra 6.0's order
 * (tokenring_placement_order() gives #TOKENRING_ORDER_HISTORY), on
 * tokenring_history_ring(). A replication no keyspace of the history had gets the
 * placement a CREATE KEYSPACE with it would get now. A datacenter of the replication
 * with no node gets no replicas (Cassandra's rule).
 * @param[out] out receives the placement; free with tokenring_placement_free()
 * @param history the history
 * @param replication the keyspace's replication
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL (NULL argument), #TOKENRING_E_EMPTY (no node
 *         in the ring), #TOKENRING_E_IMPOSSIBLE (no replica at all),
 *         #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_history_placement(tokenring_placement **out,
                                              const tokenring_history *history,
                                              const tokenring_replication *replication,
                                              tokenring_error *err);

/**
 * The token ranges Cassandra 6.0 would lock in @p replication's placement to prepare
 * @p operation now, after the history: the range of every replica the operation's read
 * deltas add or remove (`PlacementTransitionPlan.affectedRanges()`), ranges as 6.0 cuts
 * them (at the minimum token too). Read in the 6.0-alpha2 source (doc/cassandra-6.md);
 * the verdicts of tokenring_history_concurrent() are checked against 6.0's own classes.
 * @param[out] ranges_out receives pairs (left, right) of ranges (left, right], right ==
 *        INT64_MIN for the range up to the minimum token; room for @p cap pairs
 * @param cap the number of pairs @p ranges_out holds
 * @param[out] count_out receives the number of ranges (also when #TOKENRING_E_BUFSIZE)
 * @param history the history
 * @param replication a replication of one of the history's keyspaces
 * @param operation one step line: `join ADDRESS TOKEN[,TOKEN...]`, `leave ADDRESS`,
 *        `move ADDRESS TOKEN` or `replace OLD_ADDRESS NEW_ADDRESS` (nodes registered in
 *        the history)
 * @param len its length
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL (NULL argument), #TOKENRING_E_PARSE (not one
 *         of those operations), #TOKENRING_E_NOTFOUND (a node not registered or not in
 *         the ring, or a replication of no keyspace), #TOKENRING_E_EXISTS,
 *         #TOKENRING_E_IMPOSSIBLE (as tokenring_history_replay() for the step),
 *         #TOKENRING_E_EMPTY (no node in the ring), #TOKENRING_E_BUFSIZE, #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_history_locked_ranges(int64_t *ranges_out, size_t cap,
                                                  size_t *count_out,
                                                  const tokenring_history *history,
                                                  const tokenring_replication *replication,
                                                  const char *operation, size_t len,
                                                  tokenring_error *err);

/**
 * Whether planned operations can run at once on Cassandra 6.0: each is planned on the
 * history as it is (as 6.0 plans an operation while others are in progress: their
 * tokens are not in its token map yet), and 6.0 refuses to prepare an operation whose
 * locked ranges (tokenring_history_locked_ranges(), over every replication of the
 * history's keyspaces) meet those of one in progress: an intersection, or two ranges
 * both at the minimum token (`LockedRanges.intersects`).
 * The operations are prepared in the order given, each while the earlier ones it did not
 * refuse are in progress (a refused one holds no locks).
 * @param[out] conflicts_out receives, per operation in order, the index of the first
 *        earlier operation, itself not refused, whose locks it meets (6.0 refuses it
 *        while that one runs), or UINT32_MAX (it can start); room for @p cap
 * @param cap the number of entries @p conflicts_out holds
 * @param[out] count_out receives the number of operations (also when
 *        #TOKENRING_E_BUFSIZE)
 * @param history the history
 * @param operations the operations, one step line each (as in
 *        tokenring_history_locked_ranges(); blank lines and `#` comments skipped)
 * @param len its length
 * @param[out] err optional detail; for a bad operation it names its line
 * @return as tokenring_history_locked_ranges()
 * @since 1.2
 */
TOKENRING_API int tokenring_history_concurrent(uint32_t *conflicts_out, size_t cap,
                                               size_t *count_out,
                                               const tokenring_history *history,
                                               const char *operations, size_t len,
                                               tokenring_error *err);

/* ---- Bounded replay (a budget, progress and cancel) ---------------------------------- */

/**
 * tokenring_history_replay() under @p limits (see ::tokenring_limits): before it starts,
 * the replay estimates its work from the text (per step, its phases times the keyspaces'
 * distinct replications, the three system ones included, times the ring's tokens; an
 * upper bound, doc/performance.md) and refuses with #TOKENRING_E_BUDGET when that is
 * above @c limits->budget; while it runs it reports progress after every replication's
 * phase of every step, and stops with #TOKENRING_E_CANCELLED when the callback asks.
 * tokenring_history_replay() is this call with the default budget.
 * @param[out] out as tokenring_history_replay()
 * @param text as tokenring_history_replay()
 * @param len as tokenring_history_replay()
 * @param[in,out] limits budget and progress; receives the estimate (NULL: the defaults)
 * @param[out] err optional detail
 * @return as tokenring_history_replay(); #TOKENRING_E_BUDGET; #TOKENRING_E_CANCELLED;
 *         #TOKENRING_E_UNSUPPORTED (a keyspace with transient replicas and a node of
 *         several tokens, which 6.0 refuses)
 * @since 1.2
 */
TOKENRING_API int tokenring_history_replay_limited(tokenring_history **out, const char *text,
                                                   size_t len, tokenring_limits *limits,
                                                   tokenring_error *err);

#ifdef __cplusplus
}
#endif

#endif /* TOKENRING_HISTORY_H */
