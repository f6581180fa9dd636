/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file router.h
 * @brief Routers: the routing state a driver or a proxy needs (nodes, partitioner, every
 *        keyspace's placement) as one immutable snapshot, built from the rows a driver
 *        reads, changed by cluster events, and published to reader threads without locks
 *        (lib/router/: router.c, router_build.c, router_event.c, router_holder.c).
 *
 * @section router_snapshot Snapshots
 * A ::tokenring_router is an immutable, reference-counted snapshot of:
 * - the cluster's nodes: name, datacenter, rack, host ID, up or down, and a tag the
 *   caller chooses (a host object's address, a handle) that stays with the node in every
 *   later snapshot, whatever its index;
 * - the partitioner;
 * - every keyspace with its replication and placement. Keyspaces with the same
 *   replication share one ::tokenring_placement.
 *
 * Lookups take a keyspace name and a key (its serialized bytes, its composite parts, or a
 * token) and give the replicas in the server's order, primary first, and a view for the
 * router's local datacenter (tokenring_router_builder_new()): local replicas first, then
 * the others; with #TOKENRING_ROUTE_UP_FIRST the up replicas of each part before its down
 * ones. Both orders are precomputed when the snapshot is built: a lookup allocates
 * nothing, takes no lock and writes nothing shared. Node indices are those of the
 * snapshot (they shift when a node leaves); tags do not.
 *
 * @section router_build Building
 * A ::tokenring_router_builder takes the rows a driver reads: system.local
 * (tokenring_router_builder_add_local()), system.peers_v2 or system.peers
 * (tokenring_router_builder_add_peer()) and system_schema.keyspaces
 * (tokenring_router_builder_add_keyspace()), as the column values the driver hands over,
 * under the rules the cqlsh reader of parse.h applies (one implementation serves both): a
 * peer without datacenter is refused, a null rack is Cassandra's `UNKNOWN_RACK`, a node
 * whose tokens are unknown (null or empty: a node still bootstrapping) is left out of the
 * snapshot until a #TOKENRING_ROUTER_EVENT_JOINED brings it, LocalStrategy, EverywhereStrategy and
 * MetaStrategy keyspaces are skipped (they place nothing on the ring), any other class
 * but SimpleStrategy and NetworkTopologyStrategy is refused. A parsed
 * ::tokenring_cluster (and so a topology, through tokenring_cluster_add_topology())
 * goes in with tokenring_router_builder_add_cluster().
 *
 * @section router_events Events
 * tokenring_router_apply() makes the next snapshot from the previous one and one
 * ::tokenring_router_event: a node up or down, joined, left, moved or replaced; a
 * keyspace created, altered or dropped; a placement supplied by the caller. It reuses
 * every placement the event cannot change (all of them for up, down and keyspace
 * events) and updates the others incrementally (tokenring_placement_update()). A failing
 * event leaves the previous snapshot as it was, and anything published with it.
 *
 * @section router_placement Placements built elsewhere
 * A caller that computes a keyspace's replicas itself (a Cassandra release whose replica
 * order depends on history, or the ranges `describering` gives) builds a
 * ::tokenring_placement on the snapshot's ring (tokenring_router_ring()) and hands it
 * over with a #TOKENRING_ROUTER_EVENT_PLACEMENT event: the new snapshot takes a reference
 * to it (the caller keeps its own) and routes that keyspace through it. The placement
 * must have been built from the snapshot's ring or a ring with the same nodes in the
 * same order and the same tokens; an event that changes the ring later recomputes it
 * with tokenring_placement_update() from its replication (apply the event, then supply
 * the placement again).
 *
 * @section router_holder Publication
 * A ::tokenring_router_holder publishes the current snapshot to any number of reader
 * threads. Each reader thread registers once (tokenring_router_reader_new()), then per
 * request takes the snapshot with tokenring_router_acquire() and gives it back with
 * tokenring_router_release(), with no lock, no allocation, no atomic read-modify-write and
 * no store to memory another thread reads, as long as the snapshot has not changed
 * since its previous request. A writer swaps in a new snapshot with
 * tokenring_router_holder_swap() at any time; the old one is freed by whichever of the
 * swap and the readers still holding it lets go last.
 *
 * The memory-model argument (C11 atomics; every operation named seq_cst below is
 * memory_order_seq_cst, so all of them are in one total order S):
 * - The holder publishes a small record per swap (the snapshot and a counter
 *   @c readers), never the same record twice. Each reader owns one slot, a word on its
 *   own cache line holding the record it protects (a hazard pointer) and a mark bit.
 * - Acquire, slow path (first request, or the record changed): the reader stores the
 *   record @c p it loaded into its slot (seq_cst exchange, which also returns the record
 *   it protected before, handled as in release), then loads the current record again
 *   (seq_cst) and retries until both loads agree. Only then does it read @c p.
 * - Swap: the writer exchanges the current record (seq_cst), then for every slot adds one
 *   to the old record's @c readers and compare-exchanges the slot from the old record to
 *   the old record with the mark bit set (seq_cst), taking the one back if that fails;
 *   finally it drops its own count of one. Whoever brings @c readers to zero frees the
 *   record and releases its snapshot.
 * - Why no reader reads a freed record: a reader reads @c p only after its second load
 *   returned @c p. That load precedes in S the writer's exchange that removed @c p (a
 *   record is published once, so a load after that exchange cannot return it), so the
 *   reader's slot store precedes the writer's scan of that slot in S, and the scan sees
 *   @c p there (the slot changes only by its reader, who has not moved on): it marks
 *   the slot and counts the reader. The record lives until the reader, finding the mark
 *   when it changes its slot (exchange), takes its count back.
 * - Why nothing leaks: a slot the writer did not mark was not counted, and its reader
 *   gives nothing back; every count taken is given back once, by the writer (failed
 *   compare-exchange, its own count) or by the reader (marked slot).
 * - Happens-before for the free: a reader's reads of the snapshot precede its exchange on
 *   the slot (release); the writer's compare-exchange that reads that value (acquire) or
 *   the reader's own decrement (acq_rel) precede, through the release sequence of
 *   @c readers, the decrement that frees. ThreadSanitizer sees exactly these edges.
 * - Fast path: when the slot already protects the current record (a relaxed load of the
 *   reader's own slot, an acquire load of the current record), the protection has held
 *   since the slot was validated, so acquire returns at once and release keeps the slot
 *   as it is. A release that finds the record changed clears the slot (the slow path).
 *   So an idle reader thread keeps at most one old snapshot alive until its next
 *   tokenring_router_acquire() or tokenring_router_release(), or until it frees its
 *   reader.
 *
 * Threads: a snapshot may be read by any number of threads at once; a builder is an
 * ordinary mutable object (one thread at a time). A holder's swap may be called from any
 * thread, concurrently with readers and with other swaps. A reader is used by one thread
 * at a time and holds one snapshot at a time (tokenring_router_acquire() again without a
 * release gives the current snapshot and drops the old one): a thread that needs two at
 * once registers two readers.
 */
#ifndef TOKENRING_ROUTER_H
#define TOKENRING_ROUTER_H

#include "tokenring/common.h"
#include "tokenring/partitioner.h"
#include "tokenring/placement.h"
#include "tokenring/parse.h"

#ifdef __cplusplus
extern "C" {
#endif

/** An immutable, reference-counted routing snapshot. @since 1.2 */
typedef struct tokenring_router tokenring_router;
/** Collects driver rows (or a parsed cluster) to build a router. @since 1.2 */
typedef struct tokenring_router_builder tokenring_router_builder;
/** Publishes the current router to reader threads without locks. @since 1.2 */
typedef struct tokenring_router_holder tokenring_router_holder;
/** One reader thread's registration with a holder. @since 1.2 */
typedef struct tokenring_router_reader tokenring_router_reader;

/** Flag for tokenring_router_builder_set_node() and ::tokenring_router_node_info: the node is
 *  down. @since 1.2 */
#define TOKENRING_ROUTER_NODE_DOWN 0x1u

/** Flag of the route lookups: in @c local, the up replicas of the local datacenter, then
 *  its down ones, then the other datacenters' up replicas, then their down ones (each
 *  part in the server's order). Without it, @c local holds the local replicas, then the
 *  others, in the server's order. @since 1.2 */
#define TOKENRING_ROUTE_UP_FIRST 0x1u

/**
 * One node of a router. Pointers stay valid while the router lives.
 * @since 1.2
 */
typedef struct tokenring_router_node_info {
    const char *name;       /**< Node name (the address the rows gave). */
    const char *datacenter; /**< Datacenter. */
    const char *rack;       /**< Rack. */
    const char *host_id;    /**< Host ID as the rows gave it, or NULL. */
    uint64_t tag;           /**< The caller's tag (0 unless set). */
    uint32_t flags;         /**< #TOKENRING_ROUTER_NODE_DOWN or 0. */
    int32_t state;          /**< A ::tokenring_node_state. */
    uint32_t token_count;   /**< Number of tokens (0 for a node without tokens). */
    uint32_t local;         /**< 1 when the node is in the router's local datacenter (or
                                 the router has none), else 0. */
    uint64_t reserved[2];   /**< Reserved, zero. */
} tokenring_router_node_info;

/**
 * The replicas of a key, token or range, as a route lookup gives them. The arrays belong
 * to the router: no allocation, valid while the router lives.
 * @since 1.2
 */
typedef struct tokenring_route {
    const uint32_t *replicas; /**< Node indices in the server's order, primary first. */
    const uint32_t *local;    /**< The same nodes, local datacenter first (see
                                   #TOKENRING_ROUTE_UP_FIRST). */
    const uint64_t *tags;     /**< The router's tags by node index: the tag of replica
                                   @c i is <tt>tags[replicas[i]]</tt>. */
    uint32_t count;           /**< Number of replicas. */
    uint32_t local_count;     /**< Replicas in the local datacenter: the first
                                   @c local_count entries of @c local. */
    uint32_t local_up_count;  /**< Up replicas among them (with
                                   #TOKENRING_ROUTE_UP_FIRST, the first entries). */
    uint32_t set_id;          /**< The placement's replica-set id. */
    int64_t token;            /**< The key's token (Murmur3 routers; 0 otherwise). */
    uint64_t reserved[2];     /**< Reserved, zero. */
} tokenring_route;

/* ------------------------------------------------------------------- builder */

/**
 * Creates an empty builder.
 * @param[out] out receives the builder; free with tokenring_router_builder_free()
 * @param local_dc the local datacenter of the routers it builds (the view of
 *        ::tokenring_route), or NULL for none (every node counts as local)
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL (NULL @p out, bad name), #TOKENRING_E_RANGE,
 *         #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_router_builder_new(tokenring_router_builder **out,
                                               const char *local_dc, tokenring_error *err);

/**
 * Frees a builder.
 * @param builder the builder, or NULL (no-op)
 * @since 1.2
 */
TOKENRING_API void tokenring_router_builder_free(tokenring_router_builder *builder);

/**
 * Adds the row of system.local. A NULL column is CQL null. Add it before the peers: its
 * partitioner fixes how every token is read (without it, as tokenring_cluster_parse()
 * guesses).
 * @param builder the builder; unchanged on failure
 * @param address the node's address (broadcast_address, or the address the driver
 *        connected to)
 * @param datacenter data_center (null is refused)
 * @param rack rack (null reads as `UNKNOWN_RACK`)
 * @param host_id host_id, or NULL
 * @param partitioner the partitioner column (a Java class name), or NULL
 * @param tokens the tokens column, each token as text in the partitioner's string form
 * @param token_count number of tokens (0: tokens unknown)
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_PARSE (null datacenter, a token
 *         that does not read), #TOKENRING_E_EXISTS (node already added, token held by
 *         another node, another partitioner), #TOKENRING_E_RANGE, #TOKENRING_E_UNSUPPORTED
 *         (a partitioner the library does not model), #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_router_builder_add_local(tokenring_router_builder *builder,
                                                     const char *address,
                                                     const char *datacenter, const char *rack,
                                                     const char *host_id,
                                                     const char *partitioner,
                                                     const char *const *tokens,
                                                     size_t token_count, tokenring_error *err);

/**
 * Adds a row of system.peers_v2 (or system.peers), as tokenring_router_builder_add_local()
 * without the partitioner.
 * @param builder the builder; unchanged on failure
 * @param address peer (or broadcast_address)
 * @param datacenter data_center (null is refused)
 * @param rack rack (null reads as `UNKNOWN_RACK`)
 * @param host_id host_id, or NULL
 * @param tokens the tokens as text
 * @param token_count number of tokens (0: unknown)
 * @param[out] err optional detail
 * @return as tokenring_router_builder_add_local()
 * @since 1.2
 */
TOKENRING_API int tokenring_router_builder_add_peer(tokenring_router_builder *builder,
                                                    const char *address,
                                                    const char *datacenter, const char *rack,
                                                    const char *host_id,
                                                    const char *const *tokens,
                                                    size_t token_count, tokenring_error *err);

/**
 * Adds a row of system_schema.keyspaces: its name and its replication map as keys and
 * values (the map a driver decodes, e.g. {"class": "...NetworkTopologyStrategy",
 * "dc1": "3"}). LocalStrategy, EverywhereStrategy and MetaStrategy keyspaces are
 * recorded as skipped (tokenring_router_skipped_count()) and succeed.
 * @param builder the builder; unchanged on failure
 * @param keyspace the keyspace name
 * @param keys the map's keys (one of them "class")
 * @param values the map's values
 * @param count number of entries
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_PARSE (no class, an unknown
 *         class, a bad factor), #TOKENRING_E_RANGE, #TOKENRING_E_EXISTS (keyspace added
 *         twice), #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_router_builder_add_keyspace(tokenring_router_builder *builder,
                                                        const char *keyspace,
                                                        const char *const *keys,
                                                        const char *const *values,
                                                        size_t count, tokenring_error *err);

/**
 * Adds every node and keyspace of a parsed cluster (merge rules of
 * tokenring_cluster_parse()). A topology goes in through a cluster
 * (tokenring_cluster_add_topology(), tokenring_cluster_add_keyspace()).
 * @param builder the builder; unchanged on failure
 * @param cluster the cluster (not referenced afterwards)
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_EXISTS, #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_router_builder_add_cluster(tokenring_router_builder *builder,
                                                       const tokenring_cluster *cluster,
                                                       tokenring_error *err);

/**
 * Sets the tag and the liveness of a node already added.
 * @param builder the builder
 * @param name the node
 * @param tag the caller's tag, kept by the node in every later snapshot
 * @param flags 0 (up) or #TOKENRING_ROUTER_NODE_DOWN
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_NOTFOUND, #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_router_builder_set_node(tokenring_router_builder *builder,
                                                    const char *name, uint64_t tag,
                                                    uint32_t flags, tokenring_error *err);

/**
 * Builds a router from what the builder holds (which stays as it is: build again after
 * more rows). Placements are built with #TOKENRING_PLACEMENT_SKIP_EMPTY_DC, as
 * Cassandra places a keyspace naming a datacenter without nodes.
 * @param[out] out receives the router (reference count 1); free with
 *             tokenring_router_free()
 * @param builder the builder
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_EMPTY (no node with tokens),
 *         #TOKENRING_E_IMPOSSIBLE (a keyspace with no replica at all; @p err names it),
 *         #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_router_build(tokenring_router **out,
                                         const tokenring_router_builder *builder,
                                         tokenring_error *err);

/* ------------------------------------------------------------------ snapshot */

/**
 * Takes another reference to a router (atomic; thread-safe).
 * @param router the router (NULL gives NULL)
 * @return @p router
 * @since 1.2
 */
TOKENRING_API tokenring_router *tokenring_router_ref(const tokenring_router *router);

/**
 * Drops a reference; the last one frees the router (and its references to its ring and
 * placements). Thread-safe.
 * @param router the router, or NULL (no-op)
 * @since 1.2
 */
TOKENRING_API void tokenring_router_free(tokenring_router *router);

/**
 * Routes a serialized partition key of a keyspace, with the router's partitioner.
 * O(log k + log n) for k keyspaces and n tokens; no allocation, no lock. Thread-safe.
 * @param[out] out receives the route
 * @param router the router
 * @param keyspace the keyspace name (NUL-terminated)
 * @param key the key bytes (NULL only with @p len 0)
 * @param len their length
 * @param flags 0 or #TOKENRING_ROUTE_UP_FIRST
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL (NULL argument, unknown flag),
 *         #TOKENRING_E_NOTFOUND (no such keyspace, or a skipped one)
 * @since 1.2
 */
TOKENRING_API int tokenring_router_route(tokenring_route *out, const tokenring_router *router,
                                         const char *keyspace, const void *key, size_t len,
                                         uint32_t flags);

/**
 * Routes a composite partition key given as its parts (the column values), hashed in
 * place without packing them: the same answer as tokenring_router_route() on the key
 * tokenring_composite_encode() packs. On a Murmur3 router no copy is made; on the other
 * partitioners the key is packed on the stack, up to 4096 bytes.
 * @param[out] out receives the route
 * @param router the router
 * @param keyspace the keyspace name
 * @param parts the parts (a part may be NULL when its length is 0)
 * @param lens their lengths (each at most #TOKENRING_MAX_KEY)
 * @param count number of parts (at least 1)
 * @param flags 0 or #TOKENRING_ROUTE_UP_FIRST
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE (a part too long; a key
 *         above 4096 bytes on a non-Murmur3 router), #TOKENRING_E_NOTFOUND
 * @since 1.2
 */
TOKENRING_API int tokenring_router_route_parts(tokenring_route *out,
                                               const tokenring_router *router,
                                               const char *keyspace,
                                               const void *const *parts, const size_t *lens,
                                               size_t count, uint32_t flags);

/**
 * Routes a Murmur3 token of a keyspace.
 * @param[out] out receives the route (its @c token is @p token)
 * @param router the router
 * @param keyspace the keyspace name
 * @param token the token
 * @param flags 0 or #TOKENRING_ROUTE_UP_FIRST
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_NOTFOUND,
 *         #TOKENRING_E_UNSUPPORTED (a router of another partitioner)
 * @since 1.2
 */
TOKENRING_API int tokenring_router_route_token(tokenring_route *out,
                                               const tokenring_router *router,
                                               const char *keyspace, int64_t token,
                                               uint32_t flags);

/**
 * Number of nodes.
 * @param router the router (NULL gives 0)
 * @return the count
 * @since 1.2
 */
TOKENRING_API size_t tokenring_router_node_count(const tokenring_router *router);

/**
 * Reads node @p index (0 .. count - 1).
 * @param[out] out receives the node
 * @param router the router
 * @param index the node index
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE
 * @since 1.2
 */
TOKENRING_API int tokenring_router_node(tokenring_router_node_info *out,
                                        const tokenring_router *router, size_t index);

/**
 * Finds a node by name. O(log n).
 * @param[out] index_out receives its index
 * @param router the router
 * @param name the name
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_NOTFOUND
 * @since 1.2
 */
TOKENRING_API int tokenring_router_find_node(uint32_t *index_out,
                                             const tokenring_router *router,
                                             const char *name);

/**
 * The ring the router's placements are built from (borrowed; valid while the router
 * lives): build a placement on it to supply with #TOKENRING_ROUTER_EVENT_PLACEMENT.
 * @param router the router
 * @return the ring, or NULL for NULL
 * @since 1.2
 */
TOKENRING_API const tokenring_ring *tokenring_router_ring(const tokenring_router *router);

/**
 * Number of keyspaces routed (skipped ones excluded).
 * @param router the router (NULL gives 0)
 * @return the count
 * @since 1.2
 */
TOKENRING_API size_t tokenring_router_keyspace_count(const tokenring_router *router);

/**
 * Reads keyspace @p index (sorted by name).
 * @param[out] name_out receives its name (borrowed; may be NULL)
 * @param[out] placement_out receives its placement (borrowed: take a reference to keep
 *             it; keyspaces of the same replication give the same pointer; may be NULL)
 * @param router the router
 * @param index 0 .. count - 1
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE
 * @since 1.2
 */
TOKENRING_API int tokenring_router_keyspace(const char **name_out,
                                            const tokenring_placement **placement_out,
                                            const tokenring_router *router, size_t index);

/**
 * Number of keyspaces skipped because their class places nothing on the ring
 * (LocalStrategy, EverywhereStrategy, MetaStrategy). Read them with
 * tokenring_router_skipped().
 * @param router the router (NULL gives 0)
 * @return the count
 * @since 1.2
 */
TOKENRING_API size_t tokenring_router_skipped_count(const tokenring_router *router);

/**
 * Reads skipped keyspace @p index.
 * @param[out] name_out receives its name (borrowed; may be NULL)
 * @param[out] class_out receives its class as given (borrowed; may be NULL)
 * @param router the router
 * @param index 0 .. count - 1
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_RANGE
 * @since 1.2
 */
TOKENRING_API int tokenring_router_skipped(const char **name_out, const char **class_out,
                                           const tokenring_router *router, size_t index);

/* -------------------------------------------------------------------- events */

/** Kinds of ::tokenring_router_event. Values are ABI. @since 1.2 */
typedef enum tokenring_router_event_kind {
    TOKENRING_ROUTER_EVENT_UP = 1,          /**< @c node is up. */
    TOKENRING_ROUTER_EVENT_DOWN = 2,       /**< @c node is down. */
    TOKENRING_ROUTER_EVENT_JOINED = 3,     /**< @c node joined with @c datacenter,
                                                @c rack, @c host_id, @c tokens, @c tag. */
    TOKENRING_ROUTER_EVENT_LEFT = 4,       /**< @c node left the ring (removed). */
    TOKENRING_ROUTER_EVENT_MOVED = 5,      /**< @c node now has @c tokens. */
    TOKENRING_ROUTER_EVENT_REPLACED = 6,   /**< @c node replaced @c old_node, taking its
                                                datacenter, rack and tokens (and
                                                @c host_id, @c tag). */
    TOKENRING_ROUTER_EVENT_CREATED = 7,    /**< @c keyspace created with the replication
                                                map @c keys / @c values. */
    TOKENRING_ROUTER_EVENT_ALTERED = 8,    /**< @c keyspace's replication is now
                                                @c keys / @c values. */
    TOKENRING_ROUTER_EVENT_DROPPED = 9,    /**< @c keyspace dropped. */
    TOKENRING_ROUTER_EVENT_PLACEMENT = 10  /**< @c keyspace is routed through
                                                @c placement (see
                                                @ref router_placement). */
} tokenring_router_event_kind;

/**
 * A change to apply to a router. Zero it, set @c kind and the fields the kind names.
 * @since 1.2
 */
typedef struct tokenring_router_event {
    int32_t kind;                 /**< A ::tokenring_router_event_kind. */
    uint32_t flags;               /**< JOINED, REPLACED: #TOKENRING_ROUTER_NODE_DOWN or 0. */
    const char *node;             /**< The node (the new one for REPLACED). */
    const char *old_node;         /**< REPLACED: the node replaced. */
    const char *datacenter;       /**< JOINED. */
    const char *rack;             /**< JOINED (NULL reads as `UNKNOWN_RACK`). */
    const char *host_id;          /**< JOINED, REPLACED: or NULL. */
    const char *const *tokens;    /**< JOINED, MOVED: tokens as text. */
    size_t token_count;           /**< Their number. */
    uint64_t tag;                 /**< JOINED, REPLACED: the new node's tag. */
    const char *keyspace;         /**< Keyspace events and PLACEMENT. */
    const char *const *keys;      /**< CREATED, ALTERED: replication map keys. */
    const char *const *values;    /**< CREATED, ALTERED: replication map values. */
    size_t count;                 /**< Their number. */
    const tokenring_placement *placement; /**< PLACEMENT: the placement. */
    uint64_t reserved[4];         /**< Reserved, zero. */
} tokenring_router_event;

/**
 * Makes the snapshot that follows @p previous after @p event. @p previous is not
 * modified (readers may keep routing through it). Placements the event cannot change are
 * shared with @p previous; a join, leave, move or replace updates the others with
 * tokenring_placement_update(). A CREATED or ALTERED keyspace whose replication
 * another keyspace already has shares its placement. A dropped keyspace's placement is
 * released with the snapshot when no other keyspace uses it.
 * @param[out] out receives the new router (reference count 1)
 * @param previous the current router
 * @param event the event
 * @param[out] err optional detail
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL (NULL, unknown kind, a placement on another
 *         ring), #TOKENRING_E_NOTFOUND (unknown node or keyspace), #TOKENRING_E_EXISTS
 *         (a joining node or a created keyspace already present, a token already held),
 *         #TOKENRING_E_PARSE, #TOKENRING_E_EMPTY (the last node with tokens left),
 *         #TOKENRING_E_IMPOSSIBLE, #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_router_apply(tokenring_router **out,
                                         const tokenring_router *previous,
                                         const tokenring_router_event *event,
                                         tokenring_error *err);

/* -------------------------------------------------------------------- holder */

/**
 * Creates a holder publishing @p initial (the holder takes its own reference).
 * @param[out] out receives the holder; free with tokenring_router_holder_free()
 * @param initial the first snapshot
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_router_holder_new(tokenring_router_holder **out,
                                              const tokenring_router *initial);

/**
 * Frees a holder and drops its reference to the current snapshot. Every reader must
 * have been freed, and no call on the holder may be running.
 * @param holder the holder, or NULL (no-op)
 * @since 1.2
 */
TOKENRING_API void tokenring_router_holder_free(tokenring_router_holder *holder);

/**
 * Publishes @p next (the holder takes its own reference): later acquires give it. The
 * previous snapshot is released once no reader holds it. Thread-safe, lock-free; it
 * allocates one small record, so it can fail only for memory.
 * @param holder the holder
 * @param next the new snapshot
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_NOMEM (nothing changed)
 * @since 1.2
 */
TOKENRING_API int tokenring_router_holder_swap(tokenring_router_holder *holder,
                                               const tokenring_router *next);

/**
 * A new reference to the current snapshot, for a writer that wants to apply an event to
 * it (tokenring_router_apply()) or keep it. Thread-safe.
 * @param holder the holder
 * @return the router (free with tokenring_router_free()), or NULL for NULL
 * @since 1.2
 */
TOKENRING_API tokenring_router *tokenring_router_holder_current(tokenring_router_holder *holder);

/**
 * Registers a reader (once per thread; the slot of a freed reader is reused).
 * @param[out] out receives the reader
 * @param holder the holder
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL, #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_router_reader_new(tokenring_router_reader **out,
                                              tokenring_router_holder *holder);

/**
 * Releases what the reader protects and unregisters it.
 * @param reader the reader, or NULL (no-op)
 * @since 1.2
 */
TOKENRING_API void tokenring_router_reader_free(tokenring_router_reader *reader);

/**
 * Takes the current snapshot: valid until tokenring_router_release() (or the next
 * acquire) on this reader. No lock, no allocation; see @ref router_holder.
 * @param reader the reader
 * @return the snapshot (never NULL for a valid reader)
 * @since 1.2
 */
TOKENRING_API const tokenring_router *tokenring_router_acquire(tokenring_router_reader *reader);

/**
 * Gives back the snapshot the reader acquired. Keeps the protection while the snapshot
 * is still current (the next acquire then costs two loads); drops it otherwise.
 * @param reader the reader (NULL: no-op)
 * @since 1.2
 */
TOKENRING_API void tokenring_router_release(tokenring_router_reader *reader);

#ifdef __cplusplus
}
#endif

#endif /* TOKENRING_ROUTER_H */
