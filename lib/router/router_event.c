/* SPDX-License-Identifier: Apache-2.0 */
/* Router events: the next snapshot from the previous one and one change. The previous
 * snapshot is copied into a spec (router.c), the change applied to the copy, and the
 * snapshot assembled reusing the previous placements: shared as they are when the ring
 * cannot have changed (up, down, keyspace events), else updated incrementally
 * (tokenring_placement_update). Node rows and keyspace rows are read under the rules of
 * the builder (parse_rows.c). */
#include <stdio.h>
#include <string.h>

#include "parse_internal.h"
#include "ring_internal.h"
#include "router_internal.h"

static int nomem(tokenring_error *err)
{
    return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
}

static int find_node(size_t *idx, const tr_rspec *s, const char *name, tokenring_error *err)
{
    if (!name)
        return tr_fail(err, TOKENRING_E_INVAL, "the event names no node");
    if (tokenring_topology_find_node(idx, s->topo, name) != TOKENRING_OK)
        return tr_fail(err, TOKENRING_E_NOTFOUND, "node %s is not in the router", name);
    return TOKENRING_OK;
}

/* Reads a node row of the event in the router's partitioner into a one-node cluster. */
static int stage_node(tokenring_cluster *st, const tokenring_router *prev,
                      const struct node_row *row, tokenring_error *err)
{
    memset(st, 0, sizeof *st);
    st->partitioner = (tokenring_partitioner)prev->ring->partitioner;
    st->partitioner_fixed = true;
    int rc = tr_router_fill_node(st, (void *)row, err);
    if (rc == TOKENRING_OK)
        rc = tr_cl_finish(st, err);
    if (rc == TOKENRING_OK && (!st->nodes[0].known || st->nodes[0].ntok == 0))
        rc = tr_fail(err, TOKENRING_E_EMPTY, "node %s: the event gives no tokens",
                     row->address);
    return rc;
}

static int node_event(tr_rspec *s, const tokenring_router *prev, const tokenring_router_event *ev,
                      bool *ring_same, tokenring_error *err)
{
    size_t idx;
    int rc;
    switch (ev->kind) {
    case TOKENRING_ROUTER_EVENT_UP:
    case TOKENRING_ROUTER_EVENT_DOWN:
        if ((rc = find_node(&idx, s, ev->node, err)) != TOKENRING_OK)
            return rc;
        if (ev->kind == TOKENRING_ROUTER_EVENT_UP)
            s->flags[idx] &= ~TOKENRING_ROUTER_NODE_DOWN;
        else
            s->flags[idx] |= TOKENRING_ROUTER_NODE_DOWN;
        *ring_same = true;
        return TOKENRING_OK;
    case TOKENRING_ROUTER_EVENT_JOINED: {
        if (!ev->node)
            return tr_fail(err, TOKENRING_E_INVAL, "the event names no node");
        if (tokenring_topology_find_node(&idx, s->topo, ev->node) == TOKENRING_OK)
            return tr_fail(err, TOKENRING_E_EXISTS, "node %s is already in the router",
                           ev->node);
        struct node_row row = { ev->node, ev->datacenter, ev->rack, ev->host_id, NULL,
                                ev->tokens, ev->token_count };
        if (ev->token_count && !ev->tokens)
            return tr_fail(err, TOKENRING_E_INVAL, "node %s: NULL tokens", ev->node);
        tokenring_cluster st;
        rc = stage_node(&st, prev, &row, err);
        if (rc == TOKENRING_OK)
            rc = tr_router_topo_add(s->topo, &st, &st.nodes[0], err);
        tr_cl_clear(&st);
        if (rc != TOKENRING_OK)
            return rc;
        size_t k = s->nnodes;
        if ((rc = tr_rspec_resize_nodes(s, k + 1, err)) != TOKENRING_OK)
            return rc;
        s->tags[k] = ev->tag;
        s->flags[k] = ev->flags & TOKENRING_ROUTER_NODE_DOWN;
        if (ev->host_id && !(s->host_ids[k] = tr_strdup(ev->host_id)))
            return nomem(err);
        return TOKENRING_OK;
    }
    case TOKENRING_ROUTER_EVENT_LEFT:
        if ((rc = find_node(&idx, s, ev->node, err)) != TOKENRING_OK)
            return rc;
        if ((rc = tokenring_topology_remove_node(s->topo, ev->node, err)) != TOKENRING_OK)
            return rc;
        tr_free(s->host_ids[idx]);
        memmove(s->tags + idx, s->tags + idx + 1, (s->nnodes - idx - 1) * sizeof *s->tags);
        memmove(s->flags + idx, s->flags + idx + 1, (s->nnodes - idx - 1) * sizeof *s->flags);
        memmove(s->host_ids + idx, s->host_ids + idx + 1,
                (s->nnodes - idx - 1) * sizeof *s->host_ids);
        s->nnodes--;
        return TOKENRING_OK;
    case TOKENRING_ROUTER_EVENT_MOVED: {
        if ((rc = find_node(&idx, s, ev->node, err)) != TOKENRING_OK)
            return rc;
        if (ev->token_count && !ev->tokens)
            return tr_fail(err, TOKENRING_E_INVAL, "node %s: NULL tokens", ev->node);
        tokenring_node_info info;
        tokenring_topology_node(&info, s->topo, idx);
        struct node_row row = { ev->node, info.datacenter, info.rack, NULL, NULL, ev->tokens,
                                ev->token_count };
        tokenring_cluster st;
        rc = stage_node(&st, prev, &row, err);
        /* the new tokens: replace the node by its staged copy, in place (same index) */
        tokenring_topology *t = NULL;
        if (rc == TOKENRING_OK && tokenring_topology_clone(&t, s->topo) != TOKENRING_OK)
            rc = nomem(err);
        if (rc == TOKENRING_OK)
            rc = tr_router_topo_set_tokens(t, &st, &st.nodes[0], err);
        tr_cl_clear(&st);
        if (rc != TOKENRING_OK) {
            tokenring_topology_free(t);
            return rc;
        }
        tokenring_topology_free(s->topo);
        s->topo = t;
        return TOKENRING_OK;
    }
    case TOKENRING_ROUTER_EVENT_REPLACED:
        if (!ev->old_node || !ev->node)
            return tr_fail(err, TOKENRING_E_INVAL, "a replacement names the node and old_node");
        if ((rc = find_node(&idx, s, ev->old_node, err)) != TOKENRING_OK)
            return rc;
        if ((rc = tokenring_topology_replace_node(s->topo, ev->old_node, ev->node, err)) !=
            TOKENRING_OK)
            return rc;
        tr_free(s->host_ids[idx]);
        s->host_ids[idx] = NULL;
        s->tags[idx] = ev->tag;
        s->flags[idx] = ev->flags & TOKENRING_ROUTER_NODE_DOWN;
        if (ev->host_id && !(s->host_ids[idx] = tr_strdup(ev->host_id)))
            return nomem(err);
        return TOKENRING_OK;
    default:
        return tr_fail(err, TOKENRING_E_INVAL, "unknown event kind %d", (int)ev->kind);
    }
}

static size_t find_skipped(const tr_rspec *s, const char *name)
{
    for (size_t i = 0; i < s->nskipped; i++)
        if (strcmp(s->skipped[i].name, name) == 0)
            return i;
    return SIZE_MAX;
}

static void remove_keyspace(tr_rspec *s, size_t k)
{
    tr_free(s->ks_names[k]);
    tokenring_replication_free(s->ks_repl[k]);
    tokenring_placement_free(s->ks_given[k]);
    size_t rest = s->nks - k - 1;
    memmove(s->ks_names + k, s->ks_names + k + 1, rest * sizeof *s->ks_names);
    memmove(s->ks_repl + k, s->ks_repl + k + 1, rest * sizeof *s->ks_repl);
    memmove(s->ks_given + k, s->ks_given + k + 1, rest * sizeof *s->ks_given);
    s->nks--;
}

static void remove_skipped(tr_rspec *s, size_t k)
{
    tr_free(s->skipped[k].name);
    tr_free(s->skipped[k].cls);
    memmove(s->skipped + k, s->skipped + k + 1, (s->nskipped - k - 1) * sizeof *s->skipped);
    s->nskipped--;
}

static int keyspace_event(tr_rspec *s, const tokenring_router_event *ev, tokenring_error *err)
{
    if (!ev->keyspace)
        return tr_fail(err, TOKENRING_E_INVAL, "the event names no keyspace");
    size_t k = tr_rspec_find_keyspace(s, ev->keyspace), sk = find_skipped(s, ev->keyspace);
    bool exists = k != SIZE_MAX || sk != SIZE_MAX;
    int rc;
    switch (ev->kind) {
    case TOKENRING_ROUTER_EVENT_DROPPED:
        if (!exists)
            return tr_fail(err, TOKENRING_E_NOTFOUND, "keyspace %s is not in the router",
                           ev->keyspace);
        if (k != SIZE_MAX)
            remove_keyspace(s, k);
        else
            remove_skipped(s, sk);
        return TOKENRING_OK;
    case TOKENRING_ROUTER_EVENT_PLACEMENT:
        if (k == SIZE_MAX)
            return tr_fail(err, TOKENRING_E_NOTFOUND, "keyspace %s is not routed by the router",
                           ev->keyspace);
        if (!ev->placement)
            return tr_fail(err, TOKENRING_E_INVAL, "the event gives no placement");
        {
            tokenring_replication *copy = tr_replication_clone(ev->placement->replication);
            if (!copy)
                return nomem(err);
            tokenring_replication_free(s->ks_repl[k]);
            s->ks_repl[k] = copy;
            tokenring_placement_free(s->ks_given[k]);
            s->ks_given[k] = tokenring_placement_ref(ev->placement);
        }
        return TOKENRING_OK;
    default: /* CREATED, ALTERED */
        break;
    }
    if (ev->kind == TOKENRING_ROUTER_EVENT_CREATED && exists)
        return tr_fail(err, TOKENRING_E_EXISTS, "keyspace %s already exists", ev->keyspace);
    if (ev->kind == TOKENRING_ROUTER_EVENT_ALTERED && !exists)
        return tr_fail(err, TOKENRING_E_NOTFOUND, "keyspace %s is not in the router",
                       ev->keyspace);
    if (ev->count && (!ev->keys || !ev->values))
        return tr_fail(err, TOKENRING_E_INVAL, "NULL replication keys or values");
    tokenring_cluster st;
    memset(&st, 0, sizeof st);
    struct ks_row row = { ev->keyspace, ev->keys, ev->values, ev->count };
    rc = tr_router_fill_keyspace(&st, &row, err);
    if (rc != TOKENRING_OK) {
        tr_cl_clear(&st);
        return rc;
    }
    if (k != SIZE_MAX)
        remove_keyspace(s, k);
    if (sk != SIZE_MAX)
        remove_skipped(s, sk);
    if (st.nks == 1) {
        if ((rc = tr_rspec_add_keyspace(s, err)) == TOKENRING_OK) {
            s->ks_names[s->nks - 1] = st.ks[0].name;
            s->ks_repl[s->nks - 1] = st.ks[0].repl;
            st.ks[0].name = NULL;
            st.ks[0].repl = NULL;
        }
    } else {
        struct tr_rskip *sks = tr_reallocarray(s->skipped, s->nskipped + 1, sizeof *sks);
        if (!sks) {
            rc = nomem(err);
        } else {
            s->skipped = sks;
            sks[s->nskipped].name = st.skipped[0].name;
            sks[s->nskipped].cls = st.skipped[0].cls;
            st.skipped[0].name = st.skipped[0].cls = NULL;
            s->nskipped++;
        }
    }
    tr_cl_clear(&st);
    return rc;
}

TOKENRING_API int tokenring_router_apply(tokenring_router **out,
                                         const tokenring_router *previous,
                                         const tokenring_router_event *event,
                                         tokenring_error *err)
{
    if (!out || !previous || !event)
        return tr_fail(err, TOKENRING_E_INVAL, "NULL out, router or event");
    if (event->kind < TOKENRING_ROUTER_EVENT_UP || event->kind > TOKENRING_ROUTER_EVENT_PLACEMENT)
        return tr_fail(err, TOKENRING_E_INVAL, "unknown event kind %d", (int)event->kind);
    tr_rspec s;
    int rc = tr_rspec_from_router(&s, previous, err);
    if (rc != TOKENRING_OK)
        return rc;
    bool ring_same = true;
    if (event->kind <= TOKENRING_ROUTER_EVENT_REPLACED) {
        ring_same = false;
        rc = node_event(&s, previous, event, &ring_same, err);
    } else {
        rc = keyspace_event(&s, event, err);
    }
    if (rc != TOKENRING_OK) {
        tr_rspec_clear(&s);
        return rc;
    }
    return tr_router_make(out, &s, previous, ring_same, err);
}
