/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file ring.h
 * @brief Topologies, rings, replication, replica placement and ownership.
 *
 * Data flows one way:
 *
 *     topology (mutable builder) --build--> ring (immutable snapshot)
 *     ring + replication         --build--> placement (immutable replica map)
 *
 * @section ring_threads Threads and publication
 * A ::tokenring_topology is an ordinary mutable object: use it from one thread at a time.
 * A ::tokenring_ring and a ::tokenring_placement never change after they are built: any
 * number of threads may query them at once without locks, and lookups allocate nothing.
 * Both are reference counted with atomic counters, so a program can rebuild and swap
 * while readers finish on the old snapshot:
 *
 * @code
 * // shared state
 * static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
 * static tokenring_placement *current;           // owned reference
 *
 * // writer, after a topology change
 * tokenring_placement *next = NULL;
 * if (tokenring_placement_build(&next, new_ring, repl, 0, &err) == TOKENRING_OK) {
 *     pthread_rwlock_wrlock(&lock);
 *     tokenring_placement *old = current;
 *     current = next;
 *     pthread_rwlock_unlock(&lock);
 *     tokenring_placement_free(old);             // freed when the last reader lets go
 * }
 *
 * // reader: hold the lock only to take a reference, never during lookups
 * pthread_rwlock_rdlock(&lock);
 * tokenring_placement *p = tokenring_placement_ref(current);
 * pthread_rwlock_unlock(&lock);
 * tokenring_replicas r;
 * tokenring_placement_replicas_for_key(&r, p, key, key_len);
 * ...
 * tokenring_placement_free(p);
 * @endcode
 *
 * @section ring_nodes Node indices
 * A ring numbers its nodes 0..n-1 in the order the topology held them when the ring was
 * built; a placement built from the ring uses the same numbers. Nodes of every state are
 * numbered, but only the tokens of nodes in state #TOKENRING_STATE_NORMAL,
 * #TOKENRING_STATE_LEAVING or #TOKENRING_STATE_MOVING form the ring (Cassandra keeps a
 * joining node's tokens apart as pending ranges).
 *
 * @section ring_ranges Ranges
 * The ring's sorted tokens t_0 < t_1 < ... < t_{n-1} define n ranges; range @c i is
 * (t_{i-1}, t_i] and range 0 is (t_{n-1}, t_0], wrapping through the largest and the
 * smallest token. A token belongs to the range of the first ring token at or after it,
 * wrapping past the largest to range 0. With a single token its range is the whole ring.
 */
#ifndef TOKENRING_RING_H
#define TOKENRING_RING_H

#include "tokenring/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Mutable set of nodes with their datacenter, rack, tokens and state. @since 1.0 */
typedef struct tokenring_topology tokenring_topology;
/** Immutable, reference-counted snapshot of a topology's token ring. @since 1.0 */
typedef struct tokenring_ring tokenring_ring;
/** A replication description (SimpleStrategy or NetworkTopologyStrategy). @since 1.0 */
typedef struct tokenring_replication tokenring_replication;
/** Immutable, reference-counted replica map of one ring under one replication.
 *  @since 1.0 */
typedef struct tokenring_placement tokenring_placement;

/** An unsigned 128-bit integer, for exact widths that can reach 2^64 or more.
 *  @since 1.0 */
typedef struct tokenring_u128 {
    uint64_t hi; /**< High 64 bits. */
    uint64_t lo; /**< Low 64 bits. */
} tokenring_u128;

/** A node's ring state, as `nodetool status` shows it. Values are ABI. @since 1.0 */
typedef enum tokenring_node_state {
    TOKENRING_STATE_NORMAL = 0,  /**< Joined; its tokens are in the ring. */
    TOKENRING_STATE_JOINING = 1, /**< Bootstrapping; its tokens are not in the ring yet. */
    TOKENRING_STATE_LEAVING = 2, /**< Decommissioning; still owns its tokens. */
    TOKENRING_STATE_MOVING = 3   /**< Moving; still owns its current tokens. */
} tokenring_node_state;

/** Whether a node is reachable. Placement ignores it; availability analyses use it.
 *  Values are ABI. @since 1.0 */
typedef enum tokenring_liveness {
    TOKENRING_UP = 0,      /**< Up (the default). */
    TOKENRING_DOWN = 1,    /**< Down. */
    TOKENRING_UNKNOWN = 2  /**< Unknown ('?' in nodetool). */
} tokenring_liveness;

/**
 * Read-only view of one node. Pointers stay valid while the object it was read from
 * lives and, for a topology, until that topology is next modified.
 * @since 1.0
 */
typedef struct tokenring_node_info {
    const char *name;          /**< Node name (e.g. its address). */
    const char *datacenter;    /**< Datacenter name. */
    const char *rack;          /**< Rack name (racks are per datacenter). */
    const int64_t *tokens;     /**< The node's tokens, ascending. */
    size_t token_count;        /**< Number of tokens. */
    int32_t state;             /**< A ::tokenring_node_state. */
    int32_t liveness;          /**< A ::tokenring_liveness. */
    uint32_t dc_index;         /**< Datacenter index (rings only; 0 in a topology). */
    uint32_t rack_index;       /**< Index of the (datacenter, rack) pair (rings only). */
    uint64_t reserved[2];      /**< Reserved, zero. */
} tokenring_node_info;

/* ------------------------------------------------------------------ topology */

/**
 * Creates an empty topology.
 * @param[out] out receives the new topology; free it with tokenring_topology_free()
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL (NULL @p out), #TOKENRING_E_NOMEM
 * @since 1.0
 */
TOKENRING_API int tokenring_topology_new(tokenring_topology **out);

/**
 * Frees a topology. Rings built from it stay valid (they hold their own copy).
 * @param topology the topology, or NULL (no-op)
 * @since 1.0
 */
TOKENRING_API void tokenring_topology_free(tokenring_topology *topology);

/**
 * Deep-copies a topology.
 * @param[out] out receives the copy
 * @param topology the source
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_NOMEM
 * @since 1.0
 */
TOKENRING_API int tokenring_topology_clone(tokenring_topology **out,
                                           const tokenring_topology *topology);

/**
 * Adds a node in state #TOKENRING_STATE_NORMAL, #TOKENRING_UP. The tokens are copied and
 * may come in any order. Names must be non-empty valid UTF-8 of at most
 * #TOKENRING_MAX_NAME bytes. On failure the topology is unchanged.
 *
 * Complexity: O(k log n) for k new tokens and n tokens already present.
 * @param topology the topology
 * @param name the node's unique name
 * @param datacenter its datacenter
 * @param rack its rack within the datacenter
 * @param tokens its tokens (at least one)
 * @param token_count number of tokens
 * @param[out] err optional detail
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL pointer, empty or non-UTF-8 name);
 *         #TOKENRING_E_RANGE (name too long); #TOKENRING_E_EMPTY (no tokens);
 *         #TOKENRING_E_EXISTS (name already present, token repeated, or token held by
 *         another node; @p err names it); #TOKENRING_E_NOMEM
 * @since 1.0
 */
TOKENRING_API int tokenring_topology_add_node(tokenring_topology *topology, const char *name,
                                              const char *datacenter, const char *rack,
                                              const int64_t *tokens, size_t token_count,
                                              tokenring_error *err);

/**
 * Removes a node (a completed decommission or removenode).
 * @param topology the topology
 * @param name the node to remove
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_NOTFOUND (unknown node)
 * @since 1.0
 */
TOKENRING_API int tokenring_topology_remove_node(tokenring_topology *topology,
                                                 const char *name, tokenring_error *err);

/**
 * Replaces a node by a new one that takes over its datacenter, rack, tokens and index
 * (Cassandra's replace_address). The new node starts #TOKENRING_STATE_NORMAL and
 * #TOKENRING_UP.
 * @param topology the topology
 * @param old_name the node being replaced
 * @param new_name the replacement's name (must not exist yet)
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE, #TOKENRING_E_NOTFOUND,
 *         #TOKENRING_E_EXISTS, #TOKENRING_E_NOMEM
 * @since 1.0
 */
TOKENRING_API int tokenring_topology_replace_node(tokenring_topology *topology,
                                                  const char *old_name, const char *new_name,
                                                  tokenring_error *err);

/**
 * Gives a node a new set of tokens (a completed move). Same rules as
 * tokenring_topology_add_node(); the node's own old tokens do not count as taken.
 * @param topology the topology
 * @param name the node
 * @param tokens the new tokens (at least one)
 * @param token_count number of tokens
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_NOTFOUND, #TOKENRING_E_EMPTY,
 *         #TOKENRING_E_EXISTS, #TOKENRING_E_NOMEM
 * @since 1.0
 */
TOKENRING_API int tokenring_topology_set_tokens(tokenring_topology *topology, const char *name,
                                                const int64_t *tokens, size_t token_count,
                                                tokenring_error *err);

/**
 * Sets a node's state and liveness.
 * @param topology the topology
 * @param name the node
 * @param state a ::tokenring_node_state
 * @param liveness a ::tokenring_liveness
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL (NULL or a value outside the enums),
 *         #TOKENRING_E_NOTFOUND
 * @since 1.0
 */
TOKENRING_API int tokenring_topology_set_state(tokenring_topology *topology, const char *name,
                                               tokenring_node_state state,
                                               tokenring_liveness liveness,
                                               tokenring_error *err);

/**
 * Number of nodes.
 * @param topology the topology (NULL gives 0)
 * @return the node count
 * @since 1.0
 */
TOKENRING_API size_t tokenring_topology_node_count(const tokenring_topology *topology);

/**
 * Reads node @p index (0-based, in insertion order; removing a node shifts later ones
 * down by one).
 * @param[out] out receives the view
 * @param topology the topology
 * @param index the node index
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE (index past the end)
 * @since 1.0
 */
TOKENRING_API int tokenring_topology_node(tokenring_node_info *out,
                                          const tokenring_topology *topology, size_t index);

/**
 * Finds a node by name. O(log n).
 * @param[out] index_out receives its index
 * @param topology the topology
 * @param name the name
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_NOTFOUND
 * @since 1.0
 */
TOKENRING_API int tokenring_topology_find_node(size_t *index_out,
                                               const tokenring_topology *topology,
                                               const char *name);

/* ---------------------------------------------------------------------- ring */

/**
 * Builds an immutable ring from a topology. The ring copies everything it needs and does
 * not refer to the topology afterwards. Complexity O(n log n) in the number of tokens.
 * @param[out] out receives the ring (reference count 1); free with tokenring_ring_free()
 * @param topology the source
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_EMPTY (no node in a state whose
 *         tokens form the ring), #TOKENRING_E_NOMEM
 * @since 1.0
 */
TOKENRING_API int tokenring_ring_build(tokenring_ring **out, const tokenring_topology *topology,
                                       tokenring_error *err);

/**
 * Takes another reference to a ring (atomic; thread-safe).
 * @param ring the ring (NULL gives NULL)
 * @return @p ring
 * @since 1.0
 */
TOKENRING_API tokenring_ring *tokenring_ring_ref(const tokenring_ring *ring);

/**
 * Drops a reference; the last one frees the ring. Thread-safe.
 * @param ring the ring, or NULL (no-op)
 * @since 1.0
 */
TOKENRING_API void tokenring_ring_free(tokenring_ring *ring);

/**
 * The ring's sorted tokens (ascending, distinct) as one array owned by the ring.
 * @param ring the ring
 * @param[out] count_out receives the number of tokens (may be NULL)
 * @return the array, valid while the ring lives; NULL if @p ring is NULL
 * @since 1.0
 */
TOKENRING_API const int64_t *tokenring_ring_tokens(const tokenring_ring *ring, size_t *count_out);

/**
 * For each ring token (same order as tokenring_ring_tokens()), the index of its node.
 *
 * A ring of at most 65,536 nodes stores its owners in 1 or 2 bytes each; for such a ring
 * the first call builds this 32-bit array (4 bytes per token, once per ring, kept until the
 * ring is freed) and later calls return the same array. Thread-safe: concurrent first calls
 * agree on one array. O(tokens) on the first call, O(1) after.
 * @param ring the ring
 * @param[out] count_out receives the number of tokens (may be NULL)
 * @return the array, valid while the ring lives; NULL if @p ring is NULL or if building
 *         the array ran out of memory (a later call tries again)
 * @since 1.0
 */
TOKENRING_API const uint32_t *tokenring_ring_token_nodes(const tokenring_ring *ring,
                                                         size_t *count_out);

/**
 * Number of nodes (of every state).
 * @param ring the ring (NULL gives 0)
 * @return the node count
 * @since 1.0
 */
TOKENRING_API size_t tokenring_ring_node_count(const tokenring_ring *ring);

/**
 * Number of distinct datacenters.
 * @param ring the ring (NULL gives 0)
 * @return the datacenter count
 * @since 1.0
 */
TOKENRING_API size_t tokenring_ring_dc_count(const tokenring_ring *ring);

/**
 * Name of datacenter @p index (datacenters are numbered in sorted name order).
 * @param ring the ring
 * @param index the datacenter index
 * @return the name, valid while the ring lives, or NULL for a bad argument
 * @since 1.0
 */
TOKENRING_API const char *tokenring_ring_dc_name(const tokenring_ring *ring, size_t index);

/**
 * Number of distinct (datacenter, rack) pairs.
 * @param ring the ring (NULL gives 0)
 * @return the rack count
 * @since 1.0
 */
TOKENRING_API size_t tokenring_ring_rack_count(const tokenring_ring *ring);

/**
 * Reads node @p node of a ring.
 *
 * The ring does not keep the token lists of the nodes in the ring (their tokens are in the
 * ring's sorted array): the first call for such a node builds the lists of every node in the
 * ring at once (8 bytes per ring token, once per ring, kept until the ring is freed; O(ring
 * tokens)); later calls are O(1). Thread-safe: concurrent first calls agree on one copy.
 * @param[out] out receives the view (pointers valid while the ring lives); on
 *             #TOKENRING_E_NOMEM every field but @c tokens is filled and @c tokens is NULL
 * @param ring the ring
 * @param node the node index
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE, #TOKENRING_E_NOMEM (building
 *         the token lists failed; a later call tries again)
 * @since 1.0
 */
TOKENRING_API int tokenring_ring_node(tokenring_node_info *out, const tokenring_ring *ring,
                                      uint32_t node);

/**
 * Reads node @p node of a ring without its tokens: like tokenring_ring_node() with
 * @c tokens set to NULL (@c token_count is still the node's token count). Never
 * allocates, O(1): what a driver needs to turn replica indices into names, datacenters
 * and racks, without the per-node token lists tokenring_ring_node() builds on first use.
 * Thread-safe.
 * @param[out] out receives the view (pointers valid while the ring lives)
 * @param ring the ring
 * @param node the node index
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE
 * @since 1.1
 */
TOKENRING_API int tokenring_ring_node_brief(tokenring_node_info *out, const tokenring_ring *ring,
                                            uint32_t node);

/**
 * Finds a node of a ring by name. O(log n).
 * @param[out] node_out receives its index
 * @param ring the ring
 * @param name the name
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_NOTFOUND
 * @since 1.0
 */
TOKENRING_API int tokenring_ring_find_node(uint32_t *node_out, const tokenring_ring *ring,
                                           const char *name);

/**
 * A range of the ring with its exact bounds.
 * @since 1.0
 */
typedef struct tokenring_range {
    int64_t start;         /**< Exclusive lower bound (the previous ring token). */
    int64_t end;           /**< Inclusive upper bound (the range's own ring token). */
    tokenring_u128 width;  /**< Exact number of tokens in the range, (end - start) mod
                                2^64, or 2^64 when the ring has a single token. */
    uint32_t index;        /**< Range index = index of @c end in the sorted tokens. */
    uint32_t owner;        /**< Node index owning @c end (the primary owner). */
} tokenring_range;

/**
 * Index of the range holding @p token: the first ring token at or after it, wrapping to
 * 0. Never fails on a valid ring. O(log n), no allocation, thread-safe.
 * @param ring the ring (must not be NULL)
 * @param token the token
 * @return the range index
 * @since 1.0
 */
TOKENRING_API uint32_t tokenring_ring_search(const tokenring_ring *ring, int64_t token);

/**
 * The node owning @p token (primary owner). O(log n).
 * @param[out] node_out receives the node index
 * @param ring the ring
 * @param token the token
 * @return #TOKENRING_OK or #TOKENRING_E_INVAL
 * @since 1.0
 */
TOKENRING_API int tokenring_ring_owner(uint32_t *node_out, const tokenring_ring *ring,
                                       int64_t token);

/**
 * The range holding @p token, with its exact bounds and owner. O(log n).
 * @param[out] out receives the range
 * @param ring the ring
 * @param token the token
 * @return #TOKENRING_OK or #TOKENRING_E_INVAL
 * @since 1.0
 */
TOKENRING_API int tokenring_ring_range_of(tokenring_range *out, const tokenring_ring *ring,
                                          int64_t token);

/**
 * Range number @p index (0 .. token count - 1).
 * @param[out] out receives the range
 * @param ring the ring
 * @param index the range index
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE
 * @since 1.0
 */
TOKENRING_API int tokenring_ring_range(tokenring_range *out, const tokenring_ring *ring,
                                       size_t index);

/**
 * Range indices of many tokens in one call. O(count log n), no allocation.
 * @param[out] ranges_out receives @p count range indices
 * @param ring the ring
 * @param tokens the tokens
 * @param count number of tokens
 * @return #TOKENRING_OK or #TOKENRING_E_INVAL
 * @since 1.0
 */
TOKENRING_API int tokenring_ring_search_batch(uint32_t *ranges_out, const tokenring_ring *ring,
                                              const int64_t *tokens, size_t count);

/* --------------------------------------------------------------- replication */

/** Kind of a replication description. Values are ABI. @since 1.0 */
typedef enum tokenring_strategy {
    TOKENRING_SIMPLE = 1,           /**< SimpleStrategy: rack- and datacenter-unaware. */
    TOKENRING_NETWORK_TOPOLOGY = 2  /**< NetworkTopologyStrategy: per-datacenter factors. */
} tokenring_strategy;

/**
 * Creates a SimpleStrategy description.
 * @param[out] out receives it; free with tokenring_replication_free()
 * @param rf replication factor, 0 .. #TOKENRING_MAX_RF (0 places no replicas)
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
 * @param rf replication factor, 0 .. #TOKENRING_MAX_RF
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
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_PARSE, #TOKENRING_E_RANGE,
 *         #TOKENRING_E_NOMEM
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

/* ----------------------------------------------------------------- placement */

/** Flag for tokenring_placement_build(): accept datacenters that have no node in the
 *  ring (they get no replicas, as in Cassandra) instead of failing with
 *  #TOKENRING_E_NOTFOUND. @since 1.0 */
#define TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC 0x1u

/**
 * Builds the replica map of every range of @p ring under @p replication, with exactly
 * Cassandra's replica set and order (SimpleStrategy: distinct nodes clockwise;
 * NetworkTopologyStrategy: one interleaved walk over all datacenters, rack-aware, with
 * the rf - racks repeat budget). Identical replica sets are stored once. The placement
 * holds a reference to the ring. Complexity about O(n * w) for n tokens and w tokens
 * walked per range.
 * @param[out] out receives the placement; free with tokenring_placement_free()
 * @param ring the ring
 * @param replication the description (copied; may be freed afterwards)
 * @param flags 0 or #TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_NOTFOUND (a datacenter of the
 *         description has no node in the ring; @p err names it), #TOKENRING_E_NOMEM
 * @since 1.0
 */
TOKENRING_API int tokenring_placement_build(tokenring_placement **out,
                                            const tokenring_ring *ring,
                                            const tokenring_replication *replication,
                                            uint32_t flags, tokenring_error *err);

/**
 * Builds the placement of @p ring under the replication of @p previous (and its build
 * flags), reusing the previous placement's replicas wherever they cannot have changed: the
 * result is exactly what tokenring_placement_build() gives for @p ring, in less time when
 * @p ring differs from the previous ring by a few nodes (a join, a decommission, a move, a
 * replacement). A range keeps its previous replicas when its token is still in the ring
 * with the same node and no token was added, removed or given to another node between
 * that token and the first token of its farthest replica (the part of the ring its
 * replica walk visits); every other range is walked again. Nodes are matched by name (same
 * datacenter and rack); their indices may differ between the rings. When a datacenter's
 * node or rack count changes what a walk may pick (its rf is capped by its node count, or
 * its rack count changes the rack repeats it allows), every range is walked again.
 * Complexity O(n + w * c) for n tokens, c ranges to walk again and w tokens per walk; the
 * previous placement is not modified (both may be read concurrently meanwhile).
 * @param[out] out receives the placement (reference count 1); free with
 *             tokenring_placement_free(). When @p ring is the previous placement's ring,
 *             a new reference to @p previous.
 * @param previous a placement built from an earlier ring
 * @param ring the new ring
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_NOTFOUND (a datacenter of the
 *         replication has no node in @p ring and the previous placement was built without
 *         #TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC), #TOKENRING_E_NOMEM
 * @since 1.1
 */
TOKENRING_API int tokenring_placement_update(tokenring_placement **out,
                                             const tokenring_placement *previous,
                                             const tokenring_ring *ring, tokenring_error *err);

/**
 * Takes another reference to a placement (atomic; thread-safe).
 * @param placement the placement (NULL gives NULL)
 * @return @p placement
 * @since 1.0
 */
TOKENRING_API tokenring_placement *tokenring_placement_ref(const tokenring_placement *placement);

/**
 * Drops a reference; the last one frees the placement (and its reference to the ring).
 * @param placement the placement, or NULL (no-op)
 * @since 1.0
 */
TOKENRING_API void tokenring_placement_free(tokenring_placement *placement);

/**
 * The ring a placement was built from (borrowed; valid while the placement lives).
 * @param placement the placement
 * @return the ring, or NULL for NULL
 * @since 1.0
 */
TOKENRING_API const tokenring_ring *tokenring_placement_ring(const tokenring_placement *placement);

/**
 * The replicas of one range. @c nodes points into the placement's shared memory: no
 * allocation, valid while the placement lives.
 * @since 1.0
 */
typedef struct tokenring_replicas {
    const uint32_t *nodes;     /**< Node indices in Cassandra's replica order. */
    const uint8_t *transient;  /**< NULL when every replica is full; otherwise one flag
                                    per replica, 1 for a transient replica. */
    uint32_t count;            /**< Number of replicas. */
    uint32_t range_index;      /**< The range these replicas serve. */
    uint32_t set_id;           /**< Identifier of this distinct replica set (equal sets
                                    share one id), 0 .. set count - 1. */
    uint32_t reserved;         /**< Reserved, zero. */
} tokenring_replicas;

/**
 * Replicas of the range holding @p token. O(log n), no allocation, thread-safe.
 * @param[out] out receives the replicas
 * @param placement the placement
 * @param token the token
 * @return #TOKENRING_OK or #TOKENRING_E_INVAL
 * @since 1.0
 */
TOKENRING_API int tokenring_placement_replicas(tokenring_replicas *out,
                                               const tokenring_placement *placement,
                                               int64_t token);

/**
 * Replicas of a key: its token (tokenring_token()) then tokenring_placement_replicas().
 * @param[out] out receives the replicas
 * @param placement the placement
 * @param key the serialized partition key (NULL only with @p len 0)
 * @param len its length
 * @return #TOKENRING_OK or #TOKENRING_E_INVAL
 * @since 1.0
 */
TOKENRING_API int tokenring_placement_replicas_for_key(tokenring_replicas *out,
                                                       const tokenring_placement *placement,
                                                       const void *key, size_t len);

/**
 * Replicas of range @p range_index.
 * @param[out] out receives the replicas
 * @param placement the placement
 * @param range_index the range (0 .. token count - 1)
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE
 * @since 1.0
 */
TOKENRING_API int tokenring_placement_range_replicas(tokenring_replicas *out,
                                                     const tokenring_placement *placement,
                                                     size_t range_index);

/**
 * Routes many keys in one call: for each key (packed as in tokenring_tokens()) its token
 * and the id of its replica set, to be read with tokenring_placement_set().
 * @param[out] tokens_out receives @p count tokens (may be NULL)
 * @param[out] set_ids_out receives @p count replica-set ids
 * @param placement the placement
 * @param keys packed key bytes
 * @param offsets @p count + 1 offsets
 * @param count number of keys
 * @return #TOKENRING_OK or #TOKENRING_E_INVAL
 * @since 1.0
 */
TOKENRING_API int tokenring_placement_route_keys(int64_t *tokens_out, uint32_t *set_ids_out,
                                                 const tokenring_placement *placement,
                                                 const uint8_t *keys, const uint64_t *offsets,
                                                 size_t count);

/**
 * Number of distinct replica sets.
 * @param placement the placement (NULL gives 0)
 * @return the count
 * @since 1.0
 */
TOKENRING_API size_t tokenring_placement_set_count(const tokenring_placement *placement);

/**
 * Reads distinct replica set @p set_id (its @c range_index is the first range using it).
 * @param[out] out receives the replicas
 * @param placement the placement
 * @param set_id the set id
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE
 * @since 1.0
 */
TOKENRING_API int tokenring_placement_set(tokenring_replicas *out,
                                          const tokenring_placement *placement, size_t set_id);

/* ----------------------------------------------------------------- ownership */

/**
 * One node's ownership. The exact widths decide; the doubles and floats are for display.
 * @since 1.0
 */
typedef struct tokenring_ownership {
    tokenring_u128 primary_width;   /**< Exact number of token values whose primary
                                         replica (range owner) is the node; sums to 2^64
                                         over the ring. */
    tokenring_u128 effective_width; /**< Exact number of token values the node holds a
                                         replica of (full or transient); 0 without a
                                         placement. */
    double primary;                 /**< primary_width / 2^64. */
    double effective;               /**< effective_width / 2^64. */
    float nodetool_primary;         /**< What `nodetool ring`/`status` print without a
                                         keyspace (describeOwnership's float
                                         arithmetic and wrap quirks, summed in float). */
    float nodetool_effective;       /**< What they print as Owns (effective); 0 without
                                         a placement. */
    uint32_t token_count;           /**< The node's tokens in the ring. */
    uint32_t reserved;              /**< Reserved, zero. */
} tokenring_ownership;

/**
 * Ownership of every node of a ring: primary from the ring alone, effective from the
 * placement when one is given (it must have been built from @p ring).
 * O(n + ranges * replicas).
 * @param[out] out array of at least tokenring_ring_node_count() entries, indexed by node
 * @param cap number of entries in @p out
 * @param ring the ring
 * @param placement a placement of @p ring, or NULL for primary ownership only
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL (NULL, or a placement of another ring),
 *         #TOKENRING_E_BUFSIZE
 * @since 1.0
 */
TOKENRING_API int tokenring_ring_ownership(tokenring_ownership *out, size_t cap,
                                           const tokenring_ring *ring,
                                           const tokenring_placement *placement);

#ifdef __cplusplus
}
#endif

#endif /* TOKENRING_RING_H */
