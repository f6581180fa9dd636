/* SPDX-License-Identifier: Apache-2.0 */
/* The state of a replayed history (lib/history/history.c), shared with the delta application
 * (lib/history/history_delta.c) and the concurrent-operations check (lib/history/history_concurrent.c): the nodes, the token map, each replication's read
 * placement as 6.0 keeps it, and the step runner, which in collect mode plans a step and
 * collects the ranges it would lock instead of applying it. */
#ifndef TOKENRING_HISTORY_INTERNAL_H
#define TOKENRING_HISTORY_INTERNAL_H

#include "internal.h"
#include "tokenring/history.h"

#define HMIN INT64_MIN

typedef struct {
    char *name, *dc, *rack;
    int32_t jhash; /* Java's InetSocketAddress.hashCode(): address + port */
} hnode;

typedef struct {
    int64_t t;
    uint32_t node;
} htok;

/* A replica in a range's list: the history node index, its top bit set for a transient
 * replica (so that equal values are equal replicas, as 6.0's Replica.equals: endpoint,
 * range and whether it is full). */
#define HEP_TRANSIENT 0x80000000u
#define HEP_NODE(e) ((e) & ~HEP_TRANSIENT)

typedef struct {
    int64_t left, right; /* (left, right]; right == HMIN: up to the minimum token */
    uint32_t *eps;       /* replicas in order (HEP_*) */
    uint32_t n, cap;
} hrange;

typedef struct {
    hrange *r; /* sorted by left (ranges never overlap) */
    size_t n, cap;
} hmap;

typedef struct {
    tokenring_replication *repl;
    char *key;  /* its formatted text: equal replications, equal keys */
    hmap reads;
    bool placed;
} hrepl;

/* A keyspace and the replication it has (an index of repls). */
typedef struct {
    char *name;
    size_t repl;
} hks;

struct tokenring_history {
    hnode *nodes;
    size_t nnodes, capn;
    hks *ks; /* keyspaces by name: a replication no keyspace has any more is dropped */
    size_t nks, capk;
    htok *toks; /* the token map, sorted */
    size_t ntoks;
    hrepl *repls;
    size_t nrepls, capr;
    tokenring_ring *ring; /* after the last step (NULL: no node in the ring) */
    tr_progress *progress;  /* while replaying: progress (NULL: none) */
    struct hlocks *collect; /* non-NULL: a planned operation, its locks collected, nothing
                               applied (tokenring_history_concurrent) */
};

/* The ranges a planned operation locks (6.0's PlacementTransitionPlan.affectedRanges()):
 * per replication, the range of every replica its read deltas add or remove. */
typedef struct {
    size_t repl;
    int64_t left, right;
} hlock;

struct hlocks {
    hlock *l;
    size_t n, cap;
};

typedef struct {
    const char *p;
    size_t n;
} field;

/* lib/history/history_delta.c, the lowest layer of the replay (it calls nothing of history.c or
 * history_concurrent.c): the kept placements, 6.0's way of applying a delta to them, and
 * two of them compared (the locks of a planned operation) */
TR_HIDDEN int tr_hist_nomem(tokenring_error *err);
TR_HIDDEN void tr_hist_hmap_free(hmap *m);
/* The range (left, right] of m, or NULL. */
TR_HIDDEN const hrange *tr_hist_hmap_lookup(const hmap *m, int64_t left, int64_t right);
/* The same at or after *cur, for queries in increasing left order (a walk). */
TR_HIDDEN hrange *tr_hist_seek(const hmap *m, size_t *cur, int64_t left, int64_t right);
TR_HIDDEN bool tr_hist_hrange_has(const hrange *h, uint32_t v);
/* Applies the delta old -> neu (two canonical placements at the same ranges, or a split
 * or merge of them) to P as 6.0 does; merged: it passed through Delta.merge (a MID step,
 * or a FINISH step's merge of ranges). */
TR_HIDDEN int tr_hist_apply_delta(const tokenring_history *h, hmap *P, const hmap *old,
                                  const hmap *neu, bool merged, tokenring_error *err);
/* Splits a line into at most max blank-separated fields; returns their count. */
TR_HIDDEN size_t tr_hist_fields(const char *s, size_t len, field *f, size_t max);
TR_HIDDEN bool tr_hist_is(const field *f, const char *word);
/* The formatted text of a replication (equal replications, equal keys); NULL: no memory. */
TR_HIDDEN char *tr_hist_repl_key(const tokenring_replication *r);
/* One step (a line of fields f[0..nf)); line for messages. In collect mode (h->collect)
 * the step is planned and its locks collected, nothing applied. */
TR_HIDDEN int tr_hist_run_step(tokenring_history *h, field *f, size_t nf, uint32_t line,
                               tokenring_error *err);
/* lib/history/history_delta.c. Collect mode: the ranges of the replicas (endpoint and range) in one map and not in the
 * other, added to L under replication index repl. */
TR_HIDDEN int tr_hist_collect_locks(struct hlocks *L, size_t repl, const hmap *a, const hmap *b,
                                    tokenring_error *err);

/* The replication of a router's keyspace (name, len bytes), or NULL (none, or a NULL
 * router) (router_history.c, for history_metadata.c). */
TR_HIDDEN const tokenring_replication *
tr_router_keyspace_replication(const tokenring_router *r, const char *name, size_t len);

#endif /* TOKENRING_HISTORY_INTERNAL_H */
