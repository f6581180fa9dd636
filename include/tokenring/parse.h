/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file parse.h
 * @brief Reading and writing cluster descriptions: the topology file format, the text
 *        of `nodetool ring`, `nodetool status` and `nodetool describering`, and cqlsh
 *        output of the system tables.
 *
 * A ::tokenring_cluster is a document: a list of nodes (name, datacenter, rack, state,
 * liveness, optional host ID, and tokens when the input had them) plus a list of
 * keyspaces with their replication. Parsers add to a cluster; the nodes become a
 * ::tokenring_topology built only through the public builder calls
 * (tokenring_topology_add_node(), tokenring_topology_set_state()), so a parser can never
 * create a state the rest of the API could not.
 *
 * Several inputs can be merged into one cluster (for instance the cqlsh output of
 * `system.peers_v2` and of `system.local`, or `nodetool status` for host IDs and
 * `nodetool ring` for tokens): a node seen twice must keep its datacenter and rack, and
 * what one input lacks (tokens, host ID) is taken from the other.
 *
 * The formats are described in doc/topology-format.md. Summary of the topology file:
 * @code
 * # comment
 * keyspace shop NetworkTopologyStrategy:dc1=3,dc2=2
 * node 10.0.0.1 dc=dc1 rack=r1 tokens=-9223372036854775808,0
 * node 10.0.0.2 dc=dc1 rack=r2 state=joining status=down tokens=
 *     -6148914691236517206,-3074457345618258603
 *     3074457345618258602
 * node 10.0.0.3 dc=dc2 rack=r1 num_tokens=16    # tokens unknown
 * @endcode
 *
 * Errors: a failing parse returns #TOKENRING_E_PARSE (or the builder's code: duplicate
 * tokens give #TOKENRING_E_EXISTS, bad names #TOKENRING_E_INVAL or #TOKENRING_E_RANGE),
 * fills the ::tokenring_error with the 1-based line and byte column and a message saying
 * what was expected, and leaves the cluster exactly as it was.
 *
 * Threads: a cluster is an ordinary mutable object; use it from one thread at a time.
 * Distinct clusters may be used from different threads at once. All functions here
 * allocate through the hooks of tokenring_set_allocator().
 */
#ifndef TOKENRING_PARSE_H
#define TOKENRING_PARSE_H

#include "tokenring/common.h"
#include "tokenring/partitioner.h"
#include "tokenring/ring.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A parsed cluster description: nodes plus keyspaces. Free with
 *  tokenring_cluster_free(). @since 1.0 */
typedef struct tokenring_cluster tokenring_cluster;

/**
 * Text formats understood by tokenring_cluster_parse(). Values are ABI.
 * @since 1.0
 */
typedef enum tokenring_input_format {
    TOKENRING_INPUT_AUTO = 0,            /**< Detect with tokenring_input_detect(). */
    TOKENRING_INPUT_TOPOLOGY = 1,        /**< The topology file (doc/topology-format.md). */
    TOKENRING_INPUT_TSV = 2,             /**< Tab-separated `node dc rack tokens` with that
                                              header line (the golden-vector topologies);
                                              tokens comma-separated. */
    TOKENRING_INPUT_NODETOOL_RING = 3,   /**< Output of `nodetool ring` (any version since
                                              2.0): nodes, racks, states and tokens. */
    TOKENRING_INPUT_NODETOOL_STATUS = 4, /**< Output of `nodetool status`: nodes, racks,
                                              states, liveness, host IDs and token counts,
                                              but tokens only in the single-token layout. */
    TOKENRING_INPUT_CQLSH = 5,           /**< cqlsh tables of `system.peers_v2`,
                                              `system.peers` or `system.local` with the
                                              columns peer (or broadcast_address,
                                              listen_address, rpc_address), data_center,
                                              rack and tokens (host_id optional). Since
                                              1.2 also `SELECT * FROM
                                              system_schema.keyspaces` (the columns
                                              keyspace_name and replication): one keyspace
                                              per row, its replication from the map
                                              cqlsh prints (full Java class names
                                              accepted); LocalStrategy,
                                              EverywhereStrategy and MetaStrategy
                                              keyspaces are skipped, see
                                              tokenring_cluster_skipped_keyspace(). */
    TOKENRING_INPUT_NODETOOL_DESCRIBERING = 6 /**< Output of `nodetool describering
                                              KEYSPACE` (2.0 .. 5.0): each range's end
                                              token belongs to its first endpoint; nodes,
                                              datacenters and racks from endpoint_details.
                                              Refused when the listing contradicts that
                                              (doc/topology-format.md). @since 1.2 */
} tokenring_input_format;

/** Flag for tokenring_cluster_parse(): accept a listing that is visibly incomplete (an
 *  elided `...` line in `nodetool ring`, a ring whose wrap-around token is missing from
 *  its rows, a cqlsh token set cut short; since 1.2 also a datacenter block of `nodetool
 *  ring` or `status` without rows, a cqlsh table without rows or with fewer than its
 *  `(N rows)` line counts, a TSV header without rows) instead of failing with
 *  #TOKENRING_E_PARSE. The
 *  cluster then reports #TOKENRING_CLUSTER_PARTIAL: its tokens are a subset of the real
 *  ring's, so placements computed from it are not the cluster's. @since 1.0 */
#define TOKENRING_PARSE_ALLOW_PARTIAL 0x1u

/** Flag for tokenring_cluster_parse(): merge an input although it shares no node with
 *  the nodes the cluster already has. Without it such an input fails with
 *  #TOKENRING_E_INVAL, naming both sides' node counts and a node of each: the outputs of
 *  two different clusters (a ring of one, a status of another) would otherwise make one
 *  cluster of both. Cqlsh tables merged into cqlsh tables are exempt (`system.peers_v2`
 *  and `system.local` never share a node). @since 1.2 */
#define TOKENRING_PARSE_MERGE_DISJOINT 0x2u

/** Bit of tokenring_cluster_flags(): an input was accepted with
 *  #TOKENRING_PARSE_ALLOW_PARTIAL and was incomplete. @since 1.0 */
#define TOKENRING_CLUSTER_PARTIAL 0x1u
/** Bit of tokenring_cluster_flags(): some node's tokens are unknown (only its token
 *  count is, as in `nodetool status`), so tokenring_cluster_topology() gives NULL.
 *  @since 1.0 */
#define TOKENRING_CLUSTER_TOKENS_UNKNOWN 0x2u
/** Bit of tokenring_cluster_flags(): the cluster's partitioner, RandomPartitioner or
 *  ByteOrderedPartitioner, was inferred from the form of the tokens (see
 *  tokenring_cluster_set_partitioner()), not fixed by the caller or named by an input.
 *  Murmur3Partitioner, the default, is never reported as inferred. @since 1.2 */
#define TOKENRING_CLUSTER_PARTITIONER_INFERRED 0x4u
/** Bit of tokenring_cluster_flags(): an input gave some node's tokens without its
 *  datacenter and rack (cqlsh `SELECT peer, tokens FROM system.peers_v2`, `SELECT tokens
 *  FROM system.local`), so the node is in Cassandra's default datacenter `datacenter1`,
 *  rack `rack1` (those of SimpleSnitch, the default `endpoint_snitch`); a `system.local`
 *  row without its address is the node `local` (the row's key in that table).
 *  @since 1.2 */
#define TOKENRING_CLUSTER_DEFAULT_DC_RACK 0x8u

/**
 * Read-only view of one node of a cluster. Pointers stay valid until the cluster is
 * next modified or freed.
 * @since 1.0
 */
typedef struct tokenring_cluster_node_info {
    const char *name;        /**< Node name (the address as the input printed it). */
    const char *datacenter;  /**< Datacenter name. */
    const char *rack;        /**< Rack name. */
    const char *host_id;     /**< Host ID as printed, or NULL when the input had none. */
    const int64_t *tokens;   /**< Known tokens, ascending; NULL when unknown, and on a
                                  cluster of another partitioner than Murmur3, whose
                                  tokens tokenring_cluster_topology() gives
                                  (tokenring_topology_node_token128(),
                                  tokenring_topology_node_token_bytes()). */
    size_t token_count;      /**< Number of tokens in @c tokens (0 when NULL). */
    size_t declared_tokens;  /**< Number of tokens the node has: @c token_count when
                                  the tokens are known, else the count the input gave
                                  (`nodetool status` Tokens column), 0 if none. */
    int32_t state;           /**< A ::tokenring_node_state. */
    int32_t liveness;        /**< A ::tokenring_liveness. */
    uint32_t line;           /**< 1-based line where the input first named the node, 0
                                  for nodes added with tokenring_cluster_add_topology(). */
    uint32_t reserved32;     /**< Reserved, zero. */
    uint64_t reserved[2];    /**< Reserved, zero. */
} tokenring_cluster_node_info;

/**
 * Creates an empty cluster.
 * @param[out] out receives the cluster; free it with tokenring_cluster_free()
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL (NULL @p out), #TOKENRING_E_NOMEM
 * @since 1.0
 */
TOKENRING_API int tokenring_cluster_new(tokenring_cluster **out);

/**
 * Frees a cluster and everything it owns (its topology and replications included).
 * @param cluster the cluster, or NULL (no-op)
 * @since 1.0
 */
TOKENRING_API void tokenring_cluster_free(tokenring_cluster *cluster);

/**
 * Guesses the format of a text from its first lines: `Datacenter:` blocks with
 * `Status=Up/Down` are `nodetool status`, an `Address ... Token` header is
 * `nodetool ring`, a `|`-separated header underlined with `-+-` is cqlsh, a
 * `node<TAB>dc<TAB>rack<TAB>tokens` header is TSV, `node`/`keyspace` statements are the
 * topology file, a `TokenRange:` header or `TokenRange(start_token:` line is
 * `nodetool describering` (since 1.2). Pure and thread-safe; O(length of the first
 * lines).
 * @param text the text (need not be NUL-terminated; NULL only with @p len 0)
 * @param len its length in bytes
 * @return a ::tokenring_input_format, or #TOKENRING_INPUT_AUTO (0) when nothing matches
 * @since 1.0
 */
TOKENRING_API int tokenring_input_detect(const char *text, size_t len);

/**
 * A short name for a format: "topology", "tsv", "nodetool-ring", "nodetool-status",
 * "cqlsh", "nodetool-describering" (since 1.2), "auto".
 * @param format a ::tokenring_input_format
 * @return a static string; "unknown" for other values
 * @since 1.0
 */
TOKENRING_API const char *tokenring_input_format_name(int format);

/**
 * Parses a text and merges what it describes into @p cluster. Accepts CRLF or LF line
 * endings, a missing final newline, a UTF-8 byte-order mark, blank and whitespace-only
 * lines, and (nodetool) the `Note:` and `Warning:` lines nodetool prints. Everything is
 * validated before the cluster changes: on failure @p cluster is exactly as before.
 *
 * With #TOKENRING_INPUT_AUTO, a text that cannot be detected fails with a message saying
 * what it is when that is known: "empty input" for an empty or blank text, and for
 * `nodetool getendpoints` output (one address per line) why it cannot describe a ring and
 * what to give instead (since 1.2).
 *
 * Merge rules: a node already in the cluster must have the same datacenter and rack;
 * tokens known on both sides must be equal; unknown tokens and a missing host ID are
 * filled from the new input; state and liveness stay those of the input that first
 * named the node.
 *
 * Complexity O(len + n log n) for n tokens.
 * @param cluster the cluster to add to
 * @param format a ::tokenring_input_format (#TOKENRING_INPUT_AUTO detects)
 * @param text the text (need not be NUL-terminated; NULL only with @p len 0)
 * @param len its length in bytes
 * @param flags 0, or #TOKENRING_PARSE_ALLOW_PARTIAL and #TOKENRING_PARSE_MERGE_DISJOINT
 *        (since 1.2) combined
 * @param[out] format_out receives the format actually parsed (may be NULL)
 * @param[out] err optional detail: line, column and what was expected
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL argument, unknown format or flag, an
 *         invalid name, an input sharing no node with the cluster's nodes without
 *         #TOKENRING_PARSE_MERGE_DISJOINT); #TOKENRING_E_PARSE (malformed or, without the
 *         flag, incomplete
 *         text; a format that cannot be detected); #TOKENRING_E_RANGE (a token or count
 *         out of range, a name too long); #TOKENRING_E_EXISTS (a token held by two
 *         nodes, a node or keyspace defined twice, a merge conflict);
 *         #TOKENRING_E_EMPTY (a topology-file node with an empty `tokens=`);
 *         #TOKENRING_E_NOMEM
 * @since 1.0
 */
TOKENRING_API int tokenring_cluster_parse(tokenring_cluster *cluster, int format,
                                          const char *text, size_t len, uint32_t flags,
                                          int *format_out, tokenring_error *err);

/**
 * Adds every node of a topology (with its tokens, state and liveness) to a cluster, with
 * the merge rules of tokenring_cluster_parse(). The topology is not modified and not
 * referenced afterwards.
 * @param cluster the cluster
 * @param topology the nodes to add
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_EXISTS (merge conflict),
 *         #TOKENRING_E_NOMEM
 * @since 1.0
 */
TOKENRING_API int tokenring_cluster_add_topology(tokenring_cluster *cluster,
                                                 const tokenring_topology *topology,
                                                 tokenring_error *err);

/**
 * Adds a keyspace. The replication is copied.
 * @param cluster the cluster
 * @param name the keyspace name (non-empty UTF-8, at most #TOKENRING_MAX_NAME bytes, no
 *        whitespace or '#')
 * @param replication its replication
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL (NULL or bad name), #TOKENRING_E_RANGE (name
 *         too long), #TOKENRING_E_EXISTS (keyspace already present), #TOKENRING_E_NOMEM
 * @since 1.0
 */
TOKENRING_API int tokenring_cluster_add_keyspace(tokenring_cluster *cluster, const char *name,
                                                 const tokenring_replication *replication,
                                                 tokenring_error *err);

/**
 * Number of nodes.
 * @param cluster the cluster (NULL gives 0)
 * @return the node count
 * @since 1.0
 */
TOKENRING_API size_t tokenring_cluster_node_count(const tokenring_cluster *cluster);

/**
 * Reads node @p index, in the order the inputs first named the nodes.
 * @param[out] out receives the view
 * @param cluster the cluster
 * @param index the node index
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE
 * @since 1.0
 */
TOKENRING_API int tokenring_cluster_node(tokenring_cluster_node_info *out,
                                         const tokenring_cluster *cluster, size_t index);

/**
 * The cluster's nodes as a topology (same node order), rebuilt after each change.
 * @param cluster the cluster
 * @return a borrowed topology, valid until the cluster is next modified or freed; NULL
 *         when @p cluster is NULL, has no node, or some node's tokens are unknown
 *         (#TOKENRING_CLUSTER_TOKENS_UNKNOWN). Clone it with tokenring_topology_clone()
 *         to modify it.
 * @since 1.0
 */
TOKENRING_API const tokenring_topology *tokenring_cluster_topology(const tokenring_cluster *cluster);

/**
 * Fixes the partitioner whose string form the cluster's inputs give tokens in (the
 * `partitioner` line of a topology file, cqlsh `system.local.partitioner` do the same).
 *
 * Without it, tokenring_cluster_parse() reads an input's tokens as Murmur3 tokens when
 * every one is a signed 64-bit decimal, else as RandomPartitioner tokens when every one
 * is a decimal 0 .. 2^127, else as ByteOrderedPartitioner tokens (hex); the first input
 * with tokens decides for the later ones. Since 1.2 a guess that the tokens contradict is
 * not made: RandomPartitioner only when no token is negative and at least as many tokens
 * are above 2^63 - 1 as below (a Murmur3 ring with one mistyped token fails, naming it),
 * and the cluster reports #TOKENRING_CLUSTER_PARTITIONER_INFERRED when it read the tokens
 * in a partitioner other than Murmur3 that nothing named. Tokens of one form can be another's (a
 * RandomPartitioner ring whose tokens are all below 2^63 reads as Murmur3, hex tokens
 * of decimal digits only as a decimal partitioner): name the partitioner for such rings.
 * @param cluster the cluster; unchanged on failure
 * @param partitioner the partitioner
 * @param[out] err optional detail
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL @p cluster, an unknown @p partitioner);
 *         #TOKENRING_E_EXISTS (the cluster already has another partitioner: fixed, named
 *         by an input, or holding tokens read in it)
 * @since 1.2
 */
TOKENRING_API int tokenring_cluster_set_partitioner(tokenring_cluster *cluster,
                                                    tokenring_partitioner partitioner,
                                                    tokenring_error *err);

/**
 * The partitioner of the cluster's tokens (and of tokenring_cluster_topology()).
 * @param cluster the cluster
 * @return the partitioner fixed, named by an input or read from the tokens;
 *         #TOKENRING_PARTITIONER_MURMUR3 for a cluster without tokens or a NULL @p cluster
 * @since 1.2
 */
TOKENRING_API tokenring_partitioner tokenring_cluster_partitioner(
    const tokenring_cluster *cluster);

/**
 * Properties of the cluster as a whole.
 * @param cluster the cluster (NULL gives 0)
 * @return a combination of #TOKENRING_CLUSTER_PARTIAL,
 *         #TOKENRING_CLUSTER_TOKENS_UNKNOWN, #TOKENRING_CLUSTER_PARTITIONER_INFERRED
 *         and #TOKENRING_CLUSTER_DEFAULT_DC_RACK (since 1.2)
 * @since 1.0
 */
TOKENRING_API uint32_t tokenring_cluster_flags(const tokenring_cluster *cluster);

/**
 * Number of keyspaces.
 * @param cluster the cluster (NULL gives 0)
 * @return the keyspace count
 * @since 1.0
 */
TOKENRING_API size_t tokenring_cluster_keyspace_count(const tokenring_cluster *cluster);

/**
 * The Load and Owns cells of a node as `nodetool status` or `nodetool ring` printed them
 * (e.g. `105.3 KiB` and `33.5%`), so that a tool re-printing a pasted listing can keep
 * them. NULL where the input had none or printed `?`; the first input that gave one wins.
 * These are nodetool's figures for the keyspace it was run with; the library's own
 * ownership comes from tokenring_ring_ownership().
 * @param[out] load_out receives the Load cell (borrowed; may be NULL)
 * @param[out] owns_out receives the Owns cell (borrowed; may be NULL)
 * @param cluster the cluster
 * @param index the node index
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL cluster, or both outputs NULL);
 *         #TOKENRING_E_RANGE (index out of range)
 * @since 1.2
 */
TOKENRING_API int tokenring_cluster_node_columns(const char **load_out, const char **owns_out,
                                                 const tokenring_cluster *cluster,
                                                 size_t index);

/**
 * Number of keyspaces read from a cqlsh `system_schema.keyspaces` table but not kept,
 * because their replication class places no range on the token ring (LocalStrategy,
 * EverywhereStrategy, MetaStrategy: Cassandra's system keyspaces). A name read twice
 * counts once.
 * @param cluster the cluster (NULL gives 0)
 * @return the skipped keyspace count
 * @since 1.2
 */
TOKENRING_API size_t tokenring_cluster_skipped_keyspace_count(const tokenring_cluster *cluster);

/**
 * Reads skipped keyspace @p index (in the order they were read).
 * @param[out] name_out receives the keyspace name (borrowed; may be NULL)
 * @param[out] class_out receives the replication class as the input wrote it, e.g.
 *             `org.apache.cassandra.locator.LocalStrategy` (borrowed; may be NULL)
 * @param cluster the cluster
 * @param index the index, below tokenring_cluster_skipped_keyspace_count()
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL cluster, or both outputs NULL);
 *         #TOKENRING_E_RANGE (index out of range)
 * @since 1.2
 */
TOKENRING_API int tokenring_cluster_skipped_keyspace(const char **name_out,
                                                     const char **class_out,
                                                     const tokenring_cluster *cluster,
                                                     size_t index);

/**
 * Reads keyspace @p index (in the order they were added).
 * @param[out] name_out receives the name (borrowed; may be NULL)
 * @param[out] replication_out receives the replication (borrowed; may be NULL)
 * @param cluster the cluster
 * @param index the keyspace index
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE
 * @since 1.0
 */
TOKENRING_API int tokenring_cluster_keyspace(const char **name_out,
                                             const tokenring_replication **replication_out,
                                             const tokenring_cluster *cluster, size_t index);

/**
 * Finds a keyspace by name. O(k) for k keyspaces.
 * @param[out] index_out receives its index
 * @param cluster the cluster
 * @param name the keyspace name
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_NOTFOUND
 * @since 1.0
 */
TOKENRING_API int tokenring_cluster_find_keyspace(size_t *index_out,
                                                  const tokenring_cluster *cluster,
                                                  const char *name);

/**
 * Writes the cluster in the topology file format (keyspaces first, then nodes in order,
 * tokens ascending), NUL-terminated. Parsing the result gives back the same nodes,
 * tokens, states, liveness, host IDs and keyspaces. Output convention of key.h: with
 * @p cap too small the call returns #TOKENRING_E_BUFSIZE and still stores the needed
 * length, so a call with @p cap 0 measures.
 * @param[out] out buffer (may be NULL when @p cap is 0)
 * @param cap its size, including room for the NUL
 * @param[out] len_out receives the length without the NUL (also on #TOKENRING_E_BUFSIZE)
 * @param cluster the cluster
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_BUFSIZE, #TOKENRING_E_NOMEM
 * @since 1.0
 */
TOKENRING_API int tokenring_cluster_format(char *out, size_t cap, size_t *len_out,
                                           const tokenring_cluster *cluster);

#ifdef __cplusplus
}
#endif

#endif /* TOKENRING_PARSE_H */
