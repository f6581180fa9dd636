/* SPDX-License-Identifier: Apache-2.0 */
/* A router snapshot routed through a Cassandra 6.0 history's placements
 * (tokenring_router_with_history): the history's ring checked against the router's, each
 * distinct replication's history placement moved onto the router's ring, handed over as
 * supplied placements. */
#include <string.h>

#include "internal.h"
#include "history_internal.h"
#include "ring_internal.h"
#include "router_internal.h"
#include "tokenring/history.h"

const tokenring_replication *tr_router_keyspace_replication(const tokenring_router *r,
                                                            const char *name, size_t len)
{
    for (size_t k = 0; r && k < r->nks; k++)
        if (strlen(r->ks[k].name) == len && memcmp(r->ks[k].name, name, len) == 0)
            return r->groups[r->ks[k].group].pl->replication;
    return NULL;
}

/* The history node of router node v (by name, the history's without :PORT), or
 * UINT32_MAX. */
static uint32_t history_node(const tokenring_ring *hr, const tokenring_ring *rr, uint32_t v)
{
    const char *name = rr->nodes[v].name;
    uint32_t w = UINT32_MAX;
    if (tokenring_ring_find_node(&w, hr, name) == TOKENRING_OK)
        return w;
    size_t n = strlen(name);
    for (uint32_t x = 0; x < hr->node_count; x++) {
        const char *hn = hr->nodes[x].name;
        if (strncmp(hn, name, n) == 0 && hn[n] == ':')
            return x;
    }
    return UINT32_MAX;
}

/* The router's ring is the history's: same tokens, owned by the same nodes (by name),
 * in the same datacenters and racks. map[history node] = router node. */
static int same_ring(uint32_t *map, const tokenring_ring *hr, const tokenring_ring *rr,
                     tokenring_error *err)
{
    for (uint32_t x = 0; x < hr->node_count; x++)
        map[x] = UINT32_MAX;
    size_t n = rr->token_count;
    for (size_t i = 0; i < n || i < hr->token_count; i++) {
        if (i >= n || i >= hr->token_count || rr->tokens[i] != hr->tokens[i]) {
            int64_t t = i < n && (i >= hr->token_count || rr->tokens[i] < hr->tokens[i])
                            ? rr->tokens[i]
                            : hr->tokens[i];
            bool in_router = i < n && t == rr->tokens[i];
            return tr_fail(err, TOKENRING_E_INVAL,
                           "the history's ring differs from the router's: token %lld is in "
                           "%s only (were the metadata log and the peers read at different "
                           "moments?)",
                           (long long)t, in_router ? "the router's" : "the history's");
        }
        uint32_t v = tr_ring_owner(rr, i), x = tr_ring_owner(hr, i);
        uint32_t want = history_node(hr, rr, v);
        if (want != x)
            return tr_fail(err, TOKENRING_E_INVAL,
                           "the history's ring differs from the router's: token %lld is "
                           "%s's in the router, %s's in the history",
                           (long long)rr->tokens[i], rr->nodes[v].name, hr->nodes[x].name);
        if (strcmp(rr->nodes[v].dc, hr->nodes[x].dc) != 0 ||
            strcmp(rr->nodes[v].rack, hr->nodes[x].rack) != 0)
            return tr_fail(err, TOKENRING_E_INVAL,
                           "the history's ring differs from the router's: node %s is in %s/%s "
                           "in the router, %s/%s in the history",
                           rr->nodes[v].name, rr->nodes[v].dc, rr->nodes[v].rack,
                           hr->nodes[x].dc, hr->nodes[x].rack);
        map[x] = v;
    }
    return TOKENRING_OK;
}

/* The history's placement of repl, moved onto the router's ring. */
static int placement_on(tokenring_placement **out, const tokenring_history *h,
                        const tokenring_ring *rr, const uint32_t *map,
                        const tokenring_replication *repl, tokenring_error *err)
{
    tokenring_placement *hp = NULL;
    int rc = tokenring_history_placement(&hp, h, repl, err);
    if (rc != TOKENRING_OK)
        return rc;
    size_t n = rr->token_count, total = 0;
    for (size_t i = 0; i < n; i++) {
        tokenring_replicas r = { 0 }; /* i < n: always filled */
        tokenring_placement_range_replicas(&r, hp, i);
        total += r.count;
    }
    tokenring_replicas up;
    memset(&up, 0, sizeof up);
    if (rr->tokens[n - 1] != INT64_MAX)
        tokenring_placement_replicas(&up, hp, INT64_MAX);
    uint32_t *off = tr_malloc((n + 1) * sizeof *off);
    uint32_t *nodes = tr_malloc((total + up.count + 1) * sizeof *nodes);
    if (!off || !nodes) {
        rc = tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
    } else {
        size_t at = 0;
        for (size_t i = 0; i < n; i++) {
            tokenring_replicas r = { 0 }; /* i < n: always filled */
            tokenring_placement_range_replicas(&r, hp, i);
            off[i] = (uint32_t)at;
            for (uint32_t k = 0; k < r.count; k++)
                nodes[at++] = map[r.nodes[k]];
        }
        off[n] = (uint32_t)at;
        for (uint32_t k = 0; k < up.count; k++)
            nodes[at + k] = map[up.nodes[k]];
        rc = tokenring_placement_from_lists(out, rr, repl, off, nodes,
                                            up.count ? nodes + at : NULL, up.count,
                                            TOKENRING_ORDER_HISTORY, err);
    }
    tr_free(off);
    tr_free(nodes);
    tokenring_placement_free(hp);
    return rc;
}

TOKENRING_API int tokenring_router_with_history(tokenring_router **out,
                                                const tokenring_router *router,
                                                const tokenring_history *history,
                                                tokenring_error *err)
{
    if (!out || !router || !history)
        return tr_fail(err, TOKENRING_E_INVAL, "%s is NULL",
                       !out ? "out" : !router ? "router" : "history");
    const tokenring_ring *hr = tokenring_history_ring(history);
    if (!hr)
        return tr_fail(err, TOKENRING_E_EMPTY, "the history leaves no node in the ring");
    const tokenring_ring *rr = router->ring;
    if (rr->partitioner != TOKENRING_PARTITIONER_MURMUR3)
        return tr_fail(err, TOKENRING_E_INVAL,
                       "the router's partitioner is not Murmur3, the history's is");
    uint32_t *map = tr_malloc(hr->node_count * sizeof *map);
    if (!map)
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
    int rc = same_ring(map, hr, rr, err);
    tr_rspec s;
    memset(&s, 0, sizeof s);
    if (rc == TOKENRING_OK)
        rc = tr_rspec_from_router(&s, router, err);
    if (rc != TOKENRING_OK) {
        tr_free(map);
        return rc;
    }
    /* every keyspace through the history (placements supplied before included); one
     * placement per distinct replication: keyspaces that share one share it */
    for (size_t k = 0; k < s.nks; k++) {
        tokenring_placement_free(s.ks_given[k]);
        s.ks_given[k] = NULL;
    }
    for (size_t k = 0; rc == TOKENRING_OK && k < s.nks; k++) {
        for (size_t j = 0; j < k && !s.ks_given[k]; j++)
            if (tr_replication_equal(s.ks_repl[j], s.ks_repl[k]))
                s.ks_given[k] = tokenring_placement_ref(s.ks_given[j]);
        if (!s.ks_given[k])
            rc = placement_on(&s.ks_given[k], history, rr, map, s.ks_repl[k], err);
    }
    tr_free(map);
    if (rc != TOKENRING_OK) {
        tr_rspec_clear(&s);
        return rc;
    }
    return tr_router_make(out, &s, router, true, err);
}
