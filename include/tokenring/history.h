/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file history.h
 * @brief Cassandra 6.0's replica order, replayed from a cluster's history
 *        (lib/history/history.c).
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
 *                                         tokenring_replication_parse() reads it, no blank);
 *                                         for a keyspace that exists, ALTER KEYSPACE
 *     drop_keyspace NAME                  DROP KEYSPACE
 *     unsafe_join ADDRESS TOKEN[,TOKEN]   a node started with auto_bootstrap: false
 *     join ADDRESS TOKEN[,TOKEN]          a bootstrap
 *     leave ADDRESS                       a decommission
 *     move ADDRESS TOKEN                  a move (nodetool move)
 *     replace OLD_ADDRESS NEW_ADDRESS     a replacement (NEW registered before)
 *
 * Nodes are IPv4 addresses, optionally with `:PORT` (the storage port, default 7000):
 * 6.0 appends replicas added in one step in the order of Java's hash of that address.
 * Murmur3 tokens. The distributed system keyspaces of 6.0 (system_auth, system_traces and
 * system_distributed: SimpleStrategy 1, 2 and 3) exist from the start, so a keyspace
 * sharing one of their replications shares its history. A keyspace step with a
 * replication no keyspace has places it afresh (the walk of the tokens, owners first);
 * with one another keyspace has, it shares that placement; a replication no keyspace has
 * any more (after an ALTER or a DROP) is dropped, and placed afresh if a keyspace takes it
 * again (6.0's AlterSchema). Each operation runs to completion; tokenring_history_concurrent() says which
 * planned operations 6.0 would let run at once.
 *
 * A history is immutable once replayed; any number of threads may read it at once.
 */
#ifndef TOKENRING_HISTORY_H
#define TOKENRING_HISTORY_H

#include "tokenring/common.h"
#include "tokenring/placement.h"
#include "tokenring/router_snapshot.h"

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
/* ------------------------------------------------------------ from a driver's rows */

/**
 * One row of `system_views.cluster_metadata_log` (Cassandra 6.0), as the text of its
 * columns. A NULL column is CQL null. @since 1.2
 */
typedef struct tokenring_metadata_log_row {
    const char *epoch;          /**< epoch (a bigint, as decimal text). */
    const char *kind;           /**< kind, e.g. `PREPARE_JOIN`. */
    const char *transformation; /**< transformation: the entry's text
                                     (Transformation.toString() of the server). */
    uint64_t reserved[2];       /**< Reserved, zero. */
} tokenring_metadata_log_row;

/**
 * One row of `system_views.cluster_metadata_directory` (Cassandra 6.0), as the text of
 * its columns. A NULL column is CQL null. @since 1.2
 */
typedef struct tokenring_metadata_node_row {
    const char *node_id;           /**< node_id (an int, as decimal text). */
    const char *broadcast_address; /**< broadcast_address (IPv4; a leading `/` is
                                        ignored). */
    const char *broadcast_port;    /**< broadcast_port, or NULL for 7000. */
    const char *dc;                /**< dc. */
    const char *rack;              /**< rack. */
    const char *state;             /**< state (e.g. `JOINED`, `LEFT`), or NULL. */
    const char *const *tokens;     /**< tokens: each Murmur3 token as text. */
    size_t token_count;            /**< Their number (0: none, or null). */
    uint64_t reserved[2];          /**< Reserved, zero. */
} tokenring_metadata_node_row;

/**
 * Builds a history from what a driver reads on Cassandra 6.0: the rows of
 * `system_views.cluster_metadata_log` and `system_views.cluster_metadata_directory`, and
 * the keyspaces' replications (a router built from `system_schema.keyspaces`), under the
 * rules doc/cassandra-6.md gives (the library's one reader of those tables):
 * - every node of the directory is registered (its address, port, dc and rack); the log
 *   entries are taken in epoch order, which must run without a gap from epoch 1 (a log
 *   whose older entries a metadata snapshot dropped cannot be replayed);
 * - `UNSAFE_JOIN`, `PREPARE_JOIN`, `PREPARE_LEAVE`, `PREPARE_MOVE` and `PREPARE_REPLACE`
 *   are the history's steps, each placed at its prepare entry; their `START_`, `MID_`
 *   and `FINISH_` entries must follow (an operation still in progress, one cancelled
 *   (`CANCEL_SEQUENCE`) or two that interleave are refused, #TOKENRING_E_UNSUPPORTED);
 * - `SCHEMA_CHANGE` entries of CREATE, ALTER and DROP KEYSPACE are keyspace steps with
 *   the replication @p keyspaces gives (the current one; a keyspace's replication before
 *   its last ALTER is not in the log: the replay takes the keyspace from its last ALTER
 *   on, and a keyspace dropped since as one that shared no placement); every keyspace
 *   @p keyspaces routes, but the distributed system keyspaces, must be created in the log;
 * - skipped, as they change no read placement of the ring: `PRE_INITIALIZE_CMS`,
 *   `INITIALIZE_CMS` (a new cluster's), `TRIGGER_SNAPSHOT`, `REGISTER`, `UNREGISTER`,
 *   `STARTUP`, the CMS membership entries (`START_ADD_TO_CMS`, `FINISH_ADD_TO_CMS`,
 *   `REMOVE_FROM_CMS`, `PREPARE_SIMPLE_CMS_RECONFIGURATION`,
 *   `PREPARE_COMPLEX_CMS_RECONFIGURATION`, `ADVANCE_CMS_RECONFIGURATION`,
 *   `CANCEL_CMS_RECONFIGURATION`), Accord's (`UPDATE_AVAILABILITY`,
 *   `BEGIN_CONSENSUS_MIGRATION_FOR_TABLE_AND_RANGE`,
 *   `MAYBE_FINISH_CONSENSUS_MIGRATION_FOR_TABLE_AND_RANGE`, `ACCORD_MARK_STALE`,
 *   `ACCORD_MARK_REJOINING`, `ACCORD_MARK_HARD_REMOVED`, `PREPARE_DROP_ACCORD_TABLE`,
 *   `FINISH_DROP_ACCORD_TABLE`) and schema changes other than keyspaces';
 * - refused (#TOKENRING_E_UNSUPPORTED), as the replay does not model them:
 *   `FORCE_SNAPSHOT`, `ASSASSINATE`, `ALTER_TOPOLOGY`, `CANCEL_SEQUENCE`, `CUSTOM`, a
 *   join with `joinTokenRing=false`, and any kind this release does not know.
 * Bad input names the row (its epoch, or the directory's node id): a malformed epoch,
 * entry or token, a node id the directory lacks.
 *
 * After the replay, the ring of every node the directory says has tokens must be the
 * history's (else #TOKENRING_E_INVAL naming the node: the rows are of two moments).
 * The replay's work is estimated first and refused above the budget of @p limits.
 * @param[out] out receives the history; free with tokenring_history_free()
 * @param log the log rows, in any order (NULL only with @p log_count 0)
 * @param log_count their number
 * @param directory the directory rows (NULL only with @p directory_count 0)
 * @param directory_count their number
 * @param keyspaces a router whose keyspaces give the replications (e.g. built from the
 *        same moment's rows), or NULL when no user keyspace is created in the log
 * @param[in,out] limits NULL (the defaults), or the budget and progress of the replay
 *        (as tokenring_history_replay_limited() on the history the rows make: @c estimate
 *        receives its estimate; progress and cancel as there)
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL (NULL argument, rows of two moments),
 *         #TOKENRING_E_PARSE (a malformed column), #TOKENRING_E_NOTFOUND (a node id not
 *         in the directory, a keyspace whose replication @p keyspaces lacks),
 *         #TOKENRING_E_EXISTS (a node id or an epoch twice), #TOKENRING_E_UNSUPPORTED,
 *         #TOKENRING_E_BUDGET, #TOKENRING_E_CANCELLED, the errors of
 *         tokenring_history_replay(),
 *         #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_history_from_metadata(tokenring_history **out,
                                                  const tokenring_metadata_log_row *log,
                                                  size_t log_count,
                                                  const tokenring_metadata_node_row *directory,
                                                  size_t directory_count,
                                                  const tokenring_router *keyspaces,
                                                  tokenring_limits *limits,
                                                  tokenring_error *err);

/**
 * A new snapshot of @p router whose every keyspace routes through @p history's
 * placement of its replication (tokenring_history_placement(): Cassandra 6.0's order,
 * #TOKENRING_ORDER_HISTORY), its nodes, tags, liveness and local views as @p router's.
 * The history's ring must be the router's: the same nodes (by address), datacenters,
 * racks and tokens; else #TOKENRING_E_INVAL naming the first difference (e.g. a metadata
 * log older than the peers rows), and nothing is built. @p router is not modified.
 * Placements come as #TOKENRING_ROUTER_EVENT_PLACEMENT gives them: a later event that
 * changes the ring recomputes them from the tokens; build the history again and call
 * this again.
 * @param[out] out receives the new router (reference count 1)
 * @param router the current router
 * @param history the history
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_EMPTY (no node in the history's
 *         ring), #TOKENRING_E_IMPOSSIBLE, #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_router_with_history(tokenring_router **out,
                                                const tokenring_router *router,
                                                const tokenring_history *history,
                                                tokenring_error *err);

#ifdef __cplusplus
}
#endif

#endif /* TOKENRING_HISTORY_H */
