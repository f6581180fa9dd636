/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file replication.h
 * @brief Replication descriptions: SimpleStrategy and NetworkTopologyStrategy with their
 *        per-datacenter factors, parsed from and written as CQL (lib/ring/replication.c).
 *
 * A description is a small mutable value: build it, then hand it to
 * tokenring_placement_build() (placement.h), which copies it.
 */
#ifndef TOKENRING_REPLICATION_H
#define TOKENRING_REPLICATION_H

#include "tokenring/common.h"
#include "tokenring/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Kind of a replication description. Values are ABI. @since 1.0 */
typedef enum tokenring_strategy {
    TOKENRING_SIMPLE = 1,           /**< SimpleStrategy: rack- and datacenter-unaware. */
    TOKENRING_NETWORK_TOPOLOGY = 2  /**< NetworkTopologyStrategy: per-datacenter factors. */
} tokenring_strategy;

/**
 * Creates a SimpleStrategy description.
 * @param[out] out receives it; free with tokenring_replication_free()
 * @param rf replication factor, 0 .. #TOKENRING_MAX_REPLICATION_FACTOR (0 places no
 *        replicas; a factor above the nodes places every node; before 1.2 at most
 *        #TOKENRING_MAX_RF)
 * @param transient how many of the @p rf replicas are transient (0 .. rf - 1, and 0 when
 *        rf is 0), written "rf/transient" in CQL
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL (NULL @p out), #TOKENRING_E_RANGE (negative
 *         or too large factors), #TOKENRING_E_NOMEM
 * @since 1.0
 */
TOKENRING_API int tokenring_replication_simple(tokenring_replication **out, int32_t rf,
                                               int32_t transient, tokenring_error *err);

/**
 * Creates an empty NetworkTopologyStrategy description; add datacenters with
 * tokenring_replication_set_dc().
 * @param[out] out receives it
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_NOMEM
 * @since 1.0
 */
TOKENRING_API int tokenring_replication_network(tokenring_replication **out);

/**
 * Sets (or replaces) one datacenter's factor of a NetworkTopologyStrategy description.
 * An rf of 0 records the datacenter with no replicas (as Cassandra ignores "0").
 * @param replication a NetworkTopologyStrategy description
 * @param datacenter the datacenter name (same rules as node names; not "class" or
 *        "replication_factor", the option keys of a CQL replication map)
 * @param rf replication factor, 0 .. #TOKENRING_MAX_REPLICATION_FACTOR (before 1.2 at
 *        most #TOKENRING_MAX_RF)
 * @param transient transient replicas among them (0 .. rf - 1; 0 when rf is 0)
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL (NULL, bad or reserved name, or a
 *         SimpleStrategy description), #TOKENRING_E_RANGE, #TOKENRING_E_NOMEM
 * @since 1.0
 */
TOKENRING_API int tokenring_replication_set_dc(tokenring_replication *replication,
                                               const char *datacenter, int32_t rf,
                                               int32_t transient, tokenring_error *err);

/**
 * Parses a replication description. Accepted forms:
 * - a CQL replication map: <tt>{'class': 'SimpleStrategy', 'replication_factor': '3'}</tt>
 *   or <tt>{'class': 'NetworkTopologyStrategy', 'dc1': '3', 'dc2': '2/1'}</tt> (class
 *   names may be fully qualified);
 * - <tt>SimpleStrategy:3</tt>, <tt>NetworkTopologyStrategy:dc1=3,dc2=2/1</tt>;
 * - a bare <tt>3</tt> (SimpleStrategy) or <tt>dc1=3,dc2=2/1</tt> (NetworkTopologyStrategy).
 * @param[out] out receives the description
 * @param text the text
 * @param text_len its length in bytes
 * @param[out] err optional detail (column of the error)
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_PARSE (malformed, or an unknown
 *         class), #TOKENRING_E_NOT_PLACED (since 1.2: LocalStrategy, EverywhereStrategy or
 *         MetaStrategy, valid classes that place nothing on the ring; before 1.2
 *         #TOKENRING_E_PARSE), #TOKENRING_E_RANGE, #TOKENRING_E_NOMEM
 * @since 1.0
 */
TOKENRING_API int tokenring_replication_parse(tokenring_replication **out, const char *text,
                                              size_t text_len, tokenring_error *err);

/**
 * Writes a description as a CQL replication map, datacenters in sorted order, e.g.
 * <tt>{'class': 'NetworkTopologyStrategy', 'dc1': '3'}</tt>, NUL-terminated.
 * @param[out] out buffer (may be NULL when @p cap is 0)
 * @param cap its size, including room for the NUL
 * @param[out] len_out receives the length without the NUL (also on #TOKENRING_E_BUFSIZE)
 * @param replication the description
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_BUFSIZE
 * @since 1.0
 */
TOKENRING_API int tokenring_replication_format(char *out, size_t cap, size_t *len_out,
                                               const tokenring_replication *replication);

/**
 * Frees a description.
 * @param replication the description, or NULL (no-op)
 * @since 1.0
 */
TOKENRING_API void tokenring_replication_free(tokenring_replication *replication);

/**
 * The strategy of a description.
 * @param replication the description
 * @return a ::tokenring_strategy, or 0 for NULL
 * @since 1.0
 */
TOKENRING_API int tokenring_replication_strategy(const tokenring_replication *replication);

/**
 * Number of datacenter entries (NetworkTopologyStrategy; 0 for SimpleStrategy).
 * @param replication the description (NULL gives 0)
 * @return the count
 * @since 1.0
 */
TOKENRING_API size_t tokenring_replication_dc_count(const tokenring_replication *replication);

/**
 * Reads a factor: entry @p index of a NetworkTopologyStrategy (sorted by datacenter
 * name), or with @p index 0 the single factor of a SimpleStrategy (then @p dc_out
 * receives NULL).
 * @param[out] dc_out receives the datacenter name (valid while the description lives and
 *             is not modified); may be NULL
 * @param[out] rf_out receives the replication factor; may be NULL
 * @param[out] transient_out receives the transient count; may be NULL
 * @param replication the description
 * @param index the entry
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE
 * @since 1.0
 */
TOKENRING_API int tokenring_replication_get(const char **dc_out, int32_t *rf_out,
                                            int32_t *transient_out,
                                            const tokenring_replication *replication,
                                            size_t index);

/**
 * The replication factor @p replication gives @p datacenter: a SimpleStrategy's factor
 * whatever the datacenter; a NetworkTopologyStrategy's factor for that datacenter, 0 when
 * it lists none (no replica there). This is the factor to plan tokens for when a node joins
 * @p datacenter (tokenring_allocate_tokens()).
 * @param[out] rf_out receives the factor
 * @param[out] transient_out receives how many of them are transient; may be NULL
 * @param replication the description
 * @param datacenter the datacenter's name
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL argument); outputs unchanged on error
 * @since 1.2
 */
TOKENRING_API int tokenring_replication_dc_factor(int32_t *rf_out, int32_t *transient_out,
                                                  const tokenring_replication *replication,
                                                  const char *datacenter);

/* --------------------------------------------------- Cassandra release rules */

/**
 * The replica-order rules of a Cassandra release line: how NetworkTopologyStrategy
 * orders (and, with vnodes, chooses) the replicas of a datacenter that has fewer racks
 * than its replication factor. Replica sets are the same under both rules when every
 * datacenter has at least rf racks or a single rack; the order (the primary replica,
 * and so `nodetool getendpoints`) differs otherwise. SimpleStrategy is the same in every
 * release. Values are ABI.
 * @since 1.2
 */
typedef enum tokenring_cassandra_rules {
    /** Cassandra before 3.2 (the 2.x lines, 3.0.x to 3.0.30, 3.1):
     *  NetworkTopologyStrategy.calculateNaturalEndpoints skips a node whose rack is
     *  already used, remembering it, until every rack of the datacenter has a replica;
     *  then it appends the remembered nodes, in walk order, and takes every further
     *  node. */
    TOKENRING_RULES_3_0 = 1,
    /** Cassandra 3.2 and later (3.11, 4.0, 4.1, 5.0; CASSANDRA-10200): one walk in which
     *  a node of an already used rack is taken at once while the datacenter's budget of
     *  rf - racks repeats lasts, and passed over for good afterwards. The default. */
    TOKENRING_RULES_3_2 = 2
} tokenring_cassandra_rules;

/** The rules of the newest Cassandra releases, which every description starts with.
 *  @since 1.2 */
#define TOKENRING_RULES_LATEST TOKENRING_RULES_3_2

/**
 * The rules of a Cassandra release: "MAJOR.MINOR" with an optional ".PATCH" and an
 * optional suffix after '-' (e.g. "3.0.30", "3.11.17", "4.1", "5.0-rc1", "6.0-alpha2").
 * Releases before 3.2 give #TOKENRING_RULES_3_0, later ones #TOKENRING_RULES_3_2.
 * The release lines known are 1.2, 2.0 to 2.2, 3.0 to 3.11, 4.0, 4.1, 5.0 and 6.0; any
 * other line (e.g. "4.2", "6.1", "7.0") is refused, since it may place replicas otherwise.
 * 6.0 gives #TOKENRING_RULES_3_2: its replica sets, ranges and ownership are 5.0's, but
 * its replica *order* follows the cluster's history, which no rules value says: a
 * placement built from tokens has the 5.0 order (tokenring_placement_order() says
 * #TOKENRING_ORDER_TOKENS); 6.0's order comes from tokenring_history_placement() or the
 * server's lists (tokenring_placement_from_lists()).
 * @param[out] rules_out receives a ::tokenring_cassandra_rules
 * @param version the NUL-terminated release
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL (NULL), #TOKENRING_E_PARSE (not a release
 *         number), #TOKENRING_E_RANGE (major version 0 or above 99, or a release line the
 *         library does not know)
 * @since 1.2
 */
TOKENRING_API int tokenring_cassandra_rules_for_version(int *rules_out, const char *version,
                                                        tokenring_error *err);

/**
 * Sets the release rules a description is placed with (by tokenring_placement_build()
 * and everything built on it: ownership, movement and availability analyses). New
 * descriptions use #TOKENRING_RULES_LATEST; copies keep the rules. The text forms
 * (tokenring_replication_format()) do not carry them.
 * @param replication the description
 * @param rules a ::tokenring_cassandra_rules
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL (NULL or unknown rules; the description is
 *         left unchanged)
 * @since 1.2
 */
TOKENRING_API int tokenring_replication_set_rules(tokenring_replication *replication,
                                                  int rules);

/**
 * The release rules of a description.
 * @param replication the description
 * @return a ::tokenring_cassandra_rules, or 0 for NULL
 * @since 1.2
 */
TOKENRING_API int tokenring_replication_rules(const tokenring_replication *replication);

/**
 * Number of datacenters that @p replication gives a factor above 0 and that have no
 * Normal, Leaving or Moving node in @p ring: the datacenters Cassandra places no replica
 * in, which tokenring_placement_build() refuses without a flag and skips with
 * #TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC or #TOKENRING_PLACEMENT_SKIP_EMPTY_DC.
 * SimpleStrategy has none. Thread-safe (reads immutable objects).
 * @param replication the replication (NULL gives 0)
 * @param ring the ring (NULL gives 0)
 * @return the count
 * @since 1.2
 */
TOKENRING_API size_t tokenring_replication_empty_dc_count(
    const tokenring_replication *replication, const tokenring_ring *ring);

/**
 * Name of the @p index-th datacenter counted by tokenring_replication_empty_dc_count(), in
 * the replication's order (tokenring_replication_get()).
 * @param replication the replication
 * @param ring the ring
 * @param index 0 .. count - 1
 * @return the name, valid while @p replication lives, or NULL for a bad argument or an
 *         index past the end
 * @since 1.2
 */
TOKENRING_API const char *tokenring_replication_empty_dc(const tokenring_replication *replication,
                                                         const tokenring_ring *ring,
                                                         size_t index);

#ifdef __cplusplus
}
#endif

#endif /* TOKENRING_REPLICATION_H */
