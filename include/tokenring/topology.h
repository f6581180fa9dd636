/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file topology.h
 * @brief Topologies: the mutable set of nodes (names, datacenters, racks, tokens, states)
 *        that rings are built from (lib/topology.c).
 *
 * A ::tokenring_topology is an ordinary mutable object: use it from one thread at a time.
 * Every mutation checks its arguments first and leaves the topology unchanged when it
 * fails. tokenring_ring_build() (ring.h) takes an immutable snapshot of it.
 */
#ifndef TOKENRING_TOPOLOGY_H
#define TOKENRING_TOPOLOGY_H

#include "tokenring/common.h"
#include "tokenring/types.h"
#include "tokenring/partitioner.h"

#ifdef __cplusplus
extern "C" {
#endif

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

/** The rack Cassandra gives a node whose rack is missing: `DEFAULT_RACK` of
 *  GossipingPropertyFileSnitch, which `getRack()` returns when neither gossip nor
 *  `system.peers` has the node's rack. The parsers read a cqlsh `null` rack, and the
 *  routers a null rack of a driver's rows, as this rack. @since 1.2 */
#define TOKENRING_DEFAULT_RACK "UNKNOWN_RACK"

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
 * may come in any order. Names must be valid UTF-8 of at most #TOKENRING_MAX_NAME
 * bytes; node and datacenter names must be non-empty, the rack may be "" (Cassandra's
 * snitches read `rack=` as the rack "", a rack distinct from every other; since 1.2).
 * On failure the topology is unchanged.
 *
 * Complexity: O(k log n) for k new tokens and n tokens already present.
 * @param topology the topology
 * @param name the node's unique name
 * @param datacenter its datacenter
 * @param rack its rack within the datacenter
 * @param tokens its tokens (at least one)
 * @param token_count number of tokens
 * @param[out] err optional detail
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL pointer, empty node or datacenter
 *         name, non-UTF-8 name);
 *         #TOKENRING_E_RANGE (name too long); #TOKENRING_E_EMPTY (no tokens);
 *         #TOKENRING_E_EXISTS (name already present, token repeated, or token held by
 *         another node; @p err names it); #TOKENRING_E_NOMEM; #TOKENRING_E_UNSUPPORTED on
 *         a topology of another partitioner (since 1.2; see
 *         tokenring_topology_new_partitioned())
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
 *         #TOKENRING_E_EXISTS, #TOKENRING_E_NOMEM; #TOKENRING_E_UNSUPPORTED on a topology
 *         of another partitioner (since 1.2)
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

/* -------------------------------------------------- partitioned topologies */

/**
 * Creates an empty topology whose tokens belong to @p partitioner. A Murmur3 topology
 * is exactly what tokenring_topology_new() makes. On a topology of another partitioner
 * the calls that take @c int64_t tokens (tokenring_topology_add_node(),
 * tokenring_topology_set_tokens()) return #TOKENRING_E_UNSUPPORTED, its tokens enter
 * through tokenring_topology_add_node128() / tokenring_topology_add_node_bytes() and
 * their set_tokens forms, and tokenring_topology_node() reports @c tokens as NULL (with
 * the right @c token_count): read them with tokenring_topology_node_token128() or
 * tokenring_topology_node_token_bytes(). Every other call works unchanged, and rings
 * built from it have its partitioner.
 * @param[out] out receives the new topology; free it with tokenring_topology_free()
 * @param partitioner a ::tokenring_partitioner
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL (NULL @p out, a value outside the enum),
 *         #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_topology_new_partitioned(tokenring_topology **out,
                                                     tokenring_partitioner partitioner);

/**
 * The partitioner of a topology.
 * @param topology the topology (NULL gives #TOKENRING_PARTITIONER_MURMUR3)
 * @return its ::tokenring_partitioner
 * @since 1.2
 */
TOKENRING_API tokenring_partitioner tokenring_topology_partitioner(
    const tokenring_topology *topology);

/**
 * tokenring_topology_add_node() for a RandomPartitioner topology: the same rules, with
 * 128-bit tokens, each in 0 .. 2^127 (Cassandra's `validate`; the minimum token -1 is
 * not a node token).
 * @param topology a #TOKENRING_PARTITIONER_RANDOM topology
 * @param name the node's unique name
 * @param datacenter its datacenter
 * @param rack its rack within the datacenter
 * @param tokens its tokens (at least one, any order)
 * @param token_count number of tokens
 * @param[out] err optional detail
 * @return as tokenring_topology_add_node(), plus #TOKENRING_E_RANGE (a token above 2^127
 *         or -1) and #TOKENRING_E_UNSUPPORTED (a topology of another partitioner)
 * @since 1.2
 */
TOKENRING_API int tokenring_topology_add_node128(tokenring_topology *topology, const char *name,
                                                 const char *datacenter, const char *rack,
                                                 const tokenring_token128 *tokens,
                                                 size_t token_count, tokenring_error *err);

/**
 * tokenring_topology_add_node() for a ByteOrderedPartitioner topology: token @c i is
 * the @p lens[i] bytes at @p tokens[i] (copied), at most #TOKENRING_BYTE_TOKEN_MAX bytes
 * (Cassandra's partition-key limit); the empty token (the minimum) is allowed.
 * @param topology a #TOKENRING_PARTITIONER_BYTE_ORDERED topology
 * @param name the node's unique name
 * @param datacenter its datacenter
 * @param rack its rack within the datacenter
 * @param tokens @p token_count pointers to the tokens' bytes (one may be NULL only when
 *        its length is 0)
 * @param lens their lengths
 * @param token_count number of tokens (at least one)
 * @param[out] err optional detail
 * @return as tokenring_topology_add_node(), plus #TOKENRING_E_RANGE (a token longer than
 *         #TOKENRING_BYTE_TOKEN_MAX) and #TOKENRING_E_UNSUPPORTED (another partitioner)
 * @since 1.2
 */
TOKENRING_API int tokenring_topology_add_node_bytes(tokenring_topology *topology,
                                                    const char *name, const char *datacenter,
                                                    const char *rack,
                                                    const uint8_t *const *tokens,
                                                    const size_t *lens, size_t token_count,
                                                    tokenring_error *err);

/** Longest ByteOrderedPartitioner node token, in bytes (a partition key's limit). @since 1.2 */
#define TOKENRING_BYTE_TOKEN_MAX 65535

/**
 * tokenring_topology_set_tokens() for a RandomPartitioner topology (rules of
 * tokenring_topology_add_node128()).
 * @param topology the topology
 * @param name the node
 * @param tokens the new tokens (at least one)
 * @param token_count number of tokens
 * @param[out] err optional detail
 * @return as tokenring_topology_set_tokens(), plus #TOKENRING_E_RANGE and
 *         #TOKENRING_E_UNSUPPORTED
 * @since 1.2
 */
TOKENRING_API int tokenring_topology_set_tokens128(tokenring_topology *topology,
                                                   const char *name,
                                                   const tokenring_token128 *tokens,
                                                   size_t token_count, tokenring_error *err);

/**
 * tokenring_topology_set_tokens() for a ByteOrderedPartitioner topology (rules of
 * tokenring_topology_add_node_bytes()).
 * @param topology the topology
 * @param name the node
 * @param tokens pointers to the new tokens' bytes
 * @param lens their lengths
 * @param token_count number of tokens (at least one)
 * @param[out] err optional detail
 * @return as tokenring_topology_set_tokens(), plus #TOKENRING_E_RANGE and
 *         #TOKENRING_E_UNSUPPORTED
 * @since 1.2
 */
TOKENRING_API int tokenring_topology_set_tokens_bytes(tokenring_topology *topology,
                                                      const char *name,
                                                      const uint8_t *const *tokens,
                                                      const size_t *lens, size_t token_count,
                                                      tokenring_error *err);

/**
 * Token @p k (0-based, ascending in the partitioner's order) of node @p index of a
 * RandomPartitioner topology.
 * @param[out] out receives the token
 * @param topology the topology
 * @param index the node index
 * @param k the token's position among the node's tokens
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE (@p index or @p k past the
 *         end), #TOKENRING_E_UNSUPPORTED (another partitioner)
 * @since 1.2
 */
TOKENRING_API int tokenring_topology_node_token128(tokenring_token128 *out,
                                                   const tokenring_topology *topology,
                                                   size_t index, size_t k);

/**
 * Token @p k (0-based, ascending) of node @p index of a ByteOrderedPartitioner topology.
 * @param[out] out receives a pointer to the token's bytes (valid until the topology is
 *             next modified; not NUL-terminated; may be non-NULL for an empty token)
 * @param[out] len_out receives its length
 * @param topology the topology
 * @param index the node index
 * @param k the token's position among the node's tokens
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE,
 *         #TOKENRING_E_UNSUPPORTED (another partitioner)
 * @since 1.2
 */
TOKENRING_API int tokenring_topology_node_token_bytes(const uint8_t **out, size_t *len_out,
                                                      const tokenring_topology *topology,
                                                      size_t index, size_t k);

/* --------------------------------------------- tokens as text, every partitioner */

/**
 * Adds a node whose tokens are given in the text form of the topology's partitioner
 * (see @ref partitioner_text): one call for tokenring_topology_add_node(),
 * tokenring_topology_add_node128() and tokenring_topology_add_node_bytes(), with their
 * rules. Every token is read before anything changes; a token that does not parse names
 * itself, its position and the partitioner expected in @p err ("token 3 of 4
 * ("12ab"): not a Murmur3Partitioner token: ..."). On failure the topology is unchanged.
 * @param topology the topology (any partitioner)
 * @param name the node's unique name
 * @param datacenter its datacenter
 * @param rack its rack within the datacenter
 * @param tokens @p token_count NUL-terminated tokens (at least one, any order)
 * @param token_count number of tokens
 * @param[out] err optional detail
 * @return as the typed call of the topology's partitioner, plus #TOKENRING_E_PARSE (a
 *         token that is not in the partitioner's text form) and #TOKENRING_E_RANGE (a
 *         value outside its tokens); #TOKENRING_E_INVAL also for a NULL @p tokens or a
 *         NULL token
 * @since 1.2
 */
TOKENRING_API int tokenring_topology_add_node_text(tokenring_topology *topology,
                                                   const char *name, const char *datacenter,
                                                   const char *rack, const char *const *tokens,
                                                   size_t token_count, tokenring_error *err);

/**
 * Replaces a node's tokens with tokens in the text form of the topology's partitioner:
 * one call for tokenring_topology_set_tokens(), tokenring_topology_set_tokens128() and
 * tokenring_topology_set_tokens_bytes(), with their rules and the token errors of
 * tokenring_topology_add_node_text(). On failure the topology is unchanged.
 * @param topology the topology (any partitioner)
 * @param name the node
 * @param tokens @p token_count NUL-terminated tokens (at least one)
 * @param token_count number of tokens
 * @param[out] err optional detail
 * @return as the typed call, plus #TOKENRING_E_PARSE and #TOKENRING_E_RANGE for a token
 * @since 1.2
 */
TOKENRING_API int tokenring_topology_set_tokens_text(tokenring_topology *topology,
                                                     const char *name,
                                                     const char *const *tokens,
                                                     size_t token_count, tokenring_error *err);

/**
 * Token @p k (0-based, ascending in the partitioner's order) of node @p index, in the
 * text form of the topology's partitioner, for every partitioner.
 * @param[out] out buffer for the NUL-terminated text (may be NULL when @p cap is 0)
 * @param cap size of @p out
 * @param[out] len_out receives the text's length without the NUL (also on
 *        #TOKENRING_E_BUFSIZE)
 * @param topology the topology
 * @param index the node index
 * @param k the token's position among the node's tokens
 * @return #TOKENRING_OK; #TOKENRING_E_BUFSIZE; #TOKENRING_E_INVAL (NULL @p topology or
 *         @p len_out, NULL @p out with a non-zero @p cap); #TOKENRING_E_RANGE (@p index or
 *         @p k past the end)
 * @since 1.2
 */
TOKENRING_API int tokenring_topology_node_token_text(char *out, size_t cap, size_t *len_out,
                                                     const tokenring_topology *topology,
                                                     size_t index, size_t k);

#ifdef __cplusplus
}
#endif

#endif /* TOKENRING_TOPOLOGY_H */
