/* SPDX-License-Identifier: Apache-2.0 */
/* Router snapshots: assembly from a spec (ring, one placement per distinct replication,
 * the local-datacenter views), the route lookups and the accessors. The builder is in
 * router_build.c, events in router_event.c, publication in router_holder.c. */
#include <stdlib.h>
#include <string.h>

#include "ring_internal.h"
#include "router_internal.h"

/* ------------------------------------------------------------------- helpers */

TR_HIDDEN bool tr_replication_equal(const tokenring_replication *a,
                                    const tokenring_replication *b)
{
    if (a->strategy != b->strategy ||
        tokenring_replication_rules(a) != tokenring_replication_rules(b))
        return false;
    if (a->strategy == TOKENRING_SIMPLE)
        return a->rf == b->rf && a->transient == b->transient;
    if (a->dc_count != b->dc_count)
        return false;
    for (size_t i = 0; i < a->dc_count; i++) /* both sorted by name */
        if (strcmp(a->dcs[i].name, b->dcs[i].name) != 0 || a->dcs[i].rf != b->dcs[i].rf ||
            a->dcs[i].transient != b->dcs[i].transient)
            return false;
    return true;
}

static int nomem(tokenring_error *err)
{
    return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
}

TR_HIDDEN void tr_rspec_clear(tr_rspec *s)
{
    tokenring_topology_free(s->topo);
    tr_free(s->local_dc);
    tr_free(s->tags);
    tr_free(s->flags);
    if (s->host_ids)
        for (size_t i = 0; i < s->nnodes; i++)
            tr_free(s->host_ids[i]);
    tr_free(s->host_ids);
    for (size_t i = 0; i < s->nks; i++) {
        tr_free(s->ks_names[i]);
        tokenring_replication_free(s->ks_repl[i]);
        tokenring_placement_free(s->ks_given[i]);
    }
    tr_free(s->ks_names);
    tr_free(s->ks_repl);
    tr_free(s->ks_given);
    for (size_t i = 0; i < s->nskipped; i++) {
        tr_free(s->skipped[i].name);
        tr_free(s->skipped[i].cls);
    }
    tr_free(s->skipped);
    memset(s, 0, sizeof *s);
}

TR_HIDDEN int tr_rspec_add_keyspace(tr_rspec *s, tokenring_error *err)
{
    size_t n = s->nks + 1;
    char **names = tr_reallocarray(s->ks_names, n, sizeof *names);
    if (!names)
        return nomem(err);
    s->ks_names = names;
    tokenring_replication **repl = tr_reallocarray(s->ks_repl, n, sizeof *repl);
    if (!repl)
        return nomem(err);
    s->ks_repl = repl;
    tokenring_placement **given = tr_reallocarray(s->ks_given, n, sizeof *given);
    if (!given)
        return nomem(err);
    s->ks_given = given;
    names[n - 1] = NULL;
    repl[n - 1] = NULL;
    given[n - 1] = NULL;
    s->nks = n;
    return TOKENRING_OK;
}

TR_HIDDEN int tr_rspec_resize_nodes(tr_rspec *s, size_t n, tokenring_error *err)
{
    size_t m = n ? n : 1;
    uint64_t *tags = tr_reallocarray(s->tags, m, sizeof *tags);
    if (!tags)
        return nomem(err);
    s->tags = tags;
    uint32_t *flags = tr_reallocarray(s->flags, m, sizeof *flags);
    if (!flags)
        return nomem(err);
    s->flags = flags;
    if (n < s->nnodes)
        for (size_t i = n; i < s->nnodes; i++)
            tr_free(s->host_ids[i]);
    char **hosts = tr_reallocarray(s->host_ids, m, sizeof *hosts);
    if (!hosts) {
        if (n < s->nnodes) /* already freed: forget them */
            s->nnodes = n;
        return nomem(err);
    }
    s->host_ids = hosts;
    for (size_t i = s->nnodes; i < n; i++) {
        tags[i] = 0;
        flags[i] = 0;
        hosts[i] = NULL;
    }
    s->nnodes = n;
    return TOKENRING_OK;
}

TR_HIDDEN size_t tr_rspec_find_keyspace(const tr_rspec *s, const char *name)
{
    for (size_t i = 0; i < s->nks; i++)
        if (strcmp(s->ks_names[i], name) == 0)
            return i;
    return SIZE_MAX;
}

TR_HIDDEN int tr_rspec_from_router(tr_rspec *s, const tokenring_router *r, tokenring_error *err)
{
    memset(s, 0, sizeof *s);
    int rc = tokenring_topology_clone(&s->topo, r->topo);
    if (rc != TOKENRING_OK)
        return nomem(err);
    if (r->local_dc && !(s->local_dc = tr_strdup(r->local_dc)))
        goto fail;
    if (tr_rspec_resize_nodes(s, r->nnodes, err) != TOKENRING_OK)
        goto fail;
    for (size_t i = 0; i < r->nnodes; i++) {
        s->tags[i] = r->tags[i];
        s->flags[i] = r->flags[i];
        if (r->host_ids[i] && !(s->host_ids[i] = tr_strdup(r->host_ids[i])))
            goto fail;
    }
    for (size_t i = 0; i < r->nks; i++) {
        if (tr_rspec_add_keyspace(s, err) != TOKENRING_OK)
            goto fail;
        const struct tr_rgroup *g = &r->groups[r->ks[i].group];
        if (!(s->ks_names[i] = tr_strdup(r->ks[i].name)) ||
            !(s->ks_repl[i] = tr_replication_clone(g->pl->replication)))
            goto fail;
        if (g->supplied)
            s->ks_given[i] = tokenring_placement_ref(g->pl);
    }
    if (r->nskipped) {
        if (!(s->skipped = tr_calloc(r->nskipped, sizeof *s->skipped)))
            goto fail;
        s->nskipped = r->nskipped;
        for (size_t i = 0; i < r->nskipped; i++)
            if (!(s->skipped[i].name = tr_strdup(r->skipped[i].name)) ||
                !(s->skipped[i].cls = tr_strdup(r->skipped[i].cls)))
                goto fail;
    }
    return TOKENRING_OK;
fail:
    tr_rspec_clear(s);
    return nomem(err);
}

/* ------------------------------------------------------------------ assembly */

static void group_clear(struct tr_rgroup *g)
{
    tokenring_placement_free(g->pl);
    tr_free(g->views);
}

static void router_destroy(tokenring_router *r)
{
    if (!r)
        return;
    tokenring_topology_free(r->topo);
    tokenring_ring_free(r->ring);
    tr_free(r->local_dc);
    tr_free(r->tags);
    tr_free(r->flags);
    if (r->host_ids)
        for (size_t i = 0; i < r->nnodes; i++)
            tr_free(r->host_ids[i]);
    tr_free(r->host_ids);
    tr_free(r->is_local);
    if (r->ks)
        for (size_t i = 0; i < r->nks; i++)
            tr_free(r->ks[i].name);
    tr_free(r->ks);
    tr_free(r->ks_slots);
    tr_free(r->ks_hash);
    if (r->groups)
        for (size_t i = 0; i < r->ngroups; i++)
            group_clear(&r->groups[i]);
    tr_free(r->groups);
    if (r->skipped)
        for (size_t i = 0; i < r->nskipped; i++) {
            tr_free(r->skipped[i].name);
            tr_free(r->skipped[i].cls);
        }
    tr_free(r->skipped);
    tr_free(r);
}

/* The local-first and up-first orders of every replica set of g's placement. */
static int group_views(struct tr_rgroup *g, const tokenring_router *r, tokenring_error *err)
{
    size_t nsets = tokenring_placement_set_count(g->pl);
    g->nsets = (uint32_t)nsets;
    size_t most = 0;
    for (size_t s = 0; s < nsets; s++) {
        tokenring_replicas rep;
        tokenring_placement_set(&rep, g->pl, s);
        most = rep.count > most ? rep.count : most;
    }
    g->stride = (uint32_t)(2 + 2 * most);
    size_t blocks = nsets + (nsets == 0); /* never 0 bytes */
    g->views = tr_reallocarray(NULL, blocks, (size_t)g->stride * sizeof *g->views); /* checked */
    if (!g->views)
        return nomem(err);
    tr_advise_huge(g->views, blocks * g->stride * sizeof *g->views); /* read at random */
    for (size_t s = 0; s < nsets; s++) {
        tokenring_replicas rep;
        tokenring_placement_set(&rep, g->pl, s);
        uint32_t *blk = g->views + s * g->stride, *lf = blk + 2, *uf = lf + rep.count;
        uint32_t nl = 0, nlu = 0, k = 0, u = 0;
        for (uint32_t i = 0; i < rep.count; i++)
            if (r->is_local[rep.nodes[i]])
                lf[k++] = rep.nodes[i];
        nl = k;
        for (uint32_t i = 0; i < rep.count; i++)
            if (!r->is_local[rep.nodes[i]])
                lf[k++] = rep.nodes[i];
        /* up-first: four passes over (local?, up?) */
        for (int pass = 0; pass < 4; pass++) {
            bool want_local = pass < 2, want_up = (pass & 1) == 0;
            for (uint32_t i = 0; i < rep.count; i++) {
                uint32_t nd = rep.nodes[i];
                bool up = !(r->flags[nd] & TOKENRING_ROUTER_NODE_DOWN);
                if ((r->is_local[nd] != 0) == want_local && up == want_up)
                    uf[u++] = nd;
            }
            if (pass == 0)
                nlu = u;
        }
        blk[0] = nl;
        blk[1] = nlu;
    }
    return TOKENRING_OK;
}

/* FNV-1a of a NUL-terminated name. */
static inline uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

/* The keyspace index over the sorted keyspaces. */
static int index_keyspaces(tokenring_router *r, tokenring_error *err)
{
    size_t cap = 4;
    while (cap < 2 * r->nks)
        cap *= 2;
    r->ks_slots = tr_calloc(cap, sizeof *r->ks_slots);
    r->ks_hash = tr_calloc(cap, sizeof *r->ks_hash);
    if (!r->ks_slots || !r->ks_hash)
        return nomem(err);
    r->ks_mask = (uint32_t)(cap - 1);
    for (size_t i = 0; i < r->nks; i++) {
        uint32_t h = name_hash(r->ks[i].name), j = h & r->ks_mask;
        while (r->ks_slots[j] != TR_KS_EMPTY)
            j = (j + 1) & r->ks_mask;
        r->ks_slots[j] = (uint32_t)i + 1;
        r->ks_hash[j] = h;
    }
    return TOKENRING_OK;
}

/* Checks that a supplied placement's ring has ring's nodes (same order, names, racks)
 * and tokens. */
static int check_supplied(const tokenring_placement *pl, const tokenring_ring *ring,
                          const char *ks, tokenring_error *err)
{
    const tokenring_ring *pr = pl->ring;
    if (pr == ring)
        return TOKENRING_OK;
    bool same = pr->node_count == ring->node_count && pr->token_count == ring->token_count &&
                pr->partitioner == ring->partitioner &&
                memcmp(pr->tokens, ring->tokens, ring->token_count * sizeof *ring->tokens) == 0;
    for (uint32_t i = 0; same && i < ring->node_count; i++)
        same = strcmp(pr->nodes[i].name, ring->nodes[i].name) == 0 &&
               strcmp(pr->nodes[i].dc, ring->nodes[i].dc) == 0 &&
               strcmp(pr->nodes[i].rack, ring->nodes[i].rack) == 0 &&
               pr->nodes[i].ring_token_count == ring->nodes[i].ring_token_count;
    for (size_t t = 0; same && t < ring->token_count; t++)
        same = tr_ring_owner(pr, t) == tr_ring_owner(ring, t);
    if (!same)
        return tr_fail(err, TOKENRING_E_INVAL,
                       "the placement supplied for keyspace %s was built on another ring "
                       "than the router's (build it on tokenring_router_ring())", ks);
    return TOKENRING_OK;
}

static int ks_cmp(const void *a, const void *b)
{
    return strcmp(((const struct tr_rks *)a)->name, ((const struct tr_rks *)b)->name);
}

TR_HIDDEN int tr_router_make(tokenring_router **out, tr_rspec *spec,
                             const tokenring_router *prev, bool ring_same,
                             tokenring_error *err)
{
    int rc = TOKENRING_E_NOMEM;
    tokenring_router *r = tr_calloc(1, sizeof *r);
    if (!r) {
        tr_rspec_clear(spec);
        return nomem(err);
    }
    atomic_init(&r->refs, 1);
    if (ring_same && prev) {
        r->ring = tokenring_ring_ref(prev->ring);
    } else if ((rc = tokenring_ring_build(&r->ring, spec->topo, err)) != TOKENRING_OK) {
        goto fail;
    }
    rc = TOKENRING_E_NOMEM;
    /* take over the spec's node arrays and topology */
    r->topo = spec->topo;
    spec->topo = NULL;
    r->local_dc = spec->local_dc;
    spec->local_dc = NULL;
    r->nnodes = (uint32_t)spec->nnodes;
    r->tags = spec->tags;
    r->flags = spec->flags;
    r->host_ids = spec->host_ids;
    spec->tags = NULL;
    spec->flags = NULL;
    spec->host_ids = NULL;
    spec->nnodes = 0;
    r->skipped = spec->skipped;
    r->nskipped = spec->nskipped;
    spec->skipped = NULL;
    spec->nskipped = 0;
    if (!(r->is_local = tr_calloc(r->nnodes ? r->nnodes : 1, 1)))
        goto nomem;
    for (uint32_t i = 0; i < r->nnodes; i++) {
        tokenring_node_info info;
        tokenring_ring_node_brief(&info, r->ring, i);
        r->is_local[i] = !r->local_dc || strcmp(info.datacenter, r->local_dc) == 0;
    }
    /* keyspaces, sorted; one group per distinct replication or supplied placement */
    r->ks = tr_calloc(spec->nks ? spec->nks : 1, sizeof *r->ks);
    r->groups = tr_calloc(spec->nks ? spec->nks : 1, sizeof *r->groups);
    if (!r->ks || !r->groups)
        goto nomem;
    for (size_t i = 0; i < spec->nks; i++) {
        r->ks[i].name = spec->ks_names[i];
        spec->ks_names[i] = NULL;
        r->nks = i + 1;
        const tokenring_replication *repl = spec->ks_repl[i];
        tokenring_placement *given = spec->ks_given[i];
        const tokenring_placement *recompute = NULL;
        if (given && !ring_same) { /* the ring changed: recompute it from its replication */
            recompute = given;
            given = NULL;
        }
        size_t g = r->ngroups;
        if (!given && !recompute)
            for (g = 0; g < r->ngroups; g++)
                if (!r->groups[g].supplied &&
                    tr_replication_equal(r->groups[g].pl->replication, repl))
                    break;
        if (given) /* a supplied placement is its keyspace's own group */
            for (g = 0; g < r->ngroups; g++)
                if (r->groups[g].pl == given)
                    break;
        r->ks[i].group = (uint32_t)g;
        if (g < r->ngroups)
            continue;
        struct tr_rgroup *grp = &r->groups[g];
        if (given) {
            if ((rc = check_supplied(given, r->ring, r->ks[i].name, err)) != TOKENRING_OK)
                goto fail;
            grp->pl = tokenring_placement_ref(given);
            grp->supplied = true;
        } else {
            const tokenring_placement *reuse = recompute;
            if (prev && !reuse)
                for (size_t k = 0; k < prev->ngroups && !reuse; k++)
                    if (!prev->groups[k].supplied &&
                        tr_replication_equal(prev->groups[k].pl->replication, repl))
                        reuse = prev->groups[k].pl;
            tokenring_error e;
            memset(&e, 0, sizeof e);
            if (reuse && ring_same)
                rc = (grp->pl = tokenring_placement_ref(reuse)) ? TOKENRING_OK : rc;
            else if (reuse)
                rc = tokenring_placement_update(&grp->pl, reuse, r->ring, &e);
            else
                rc = tokenring_placement_build(&grp->pl, r->ring, repl,
                                               TOKENRING_PLACEMENT_SKIP_EMPTY_DC, &e);
            if (rc != TOKENRING_OK) {
                tr_fail(err, rc, "keyspace %s: %s", r->ks[i].name, e.message);
                goto fail;
            }
        }
        r->ngroups = g + 1;
        if ((rc = group_views(grp, r, err)) != TOKENRING_OK)
            goto fail;
    }
    qsort(r->ks, r->nks, sizeof *r->ks, ks_cmp);
    if ((rc = index_keyspaces(r, err)) != TOKENRING_OK)
        goto fail;
    tr_rspec_clear(spec);
    *out = r;
    return TOKENRING_OK;
nomem:
    rc = nomem(err);
fail:
    tr_rspec_clear(spec);
    router_destroy(r);
    return rc;
}

/* ------------------------------------------------------------ life and nodes */

TOKENRING_API tokenring_router *tokenring_router_ref(const tokenring_router *router)
{
    tokenring_router *r = (tokenring_router *)router;
    if (r)
        atomic_fetch_add_explicit(&r->refs, 1, memory_order_relaxed);
    return r;
}

TOKENRING_API void tokenring_router_free(tokenring_router *router)
{
    if (router && atomic_fetch_sub_explicit(&router->refs, 1, memory_order_acq_rel) == 1)
        router_destroy(router);
}

TOKENRING_API size_t tokenring_router_node_count(const tokenring_router *router)
{
    return router ? router->nnodes : 0;
}

TOKENRING_API int tokenring_router_node(tokenring_router_node_info *out,
                                        const tokenring_router *router, size_t index)
{
    if (!out || !router)
        return TOKENRING_E_INVAL;
    if (index >= router->nnodes)
        return TOKENRING_E_RANGE;
    tokenring_node_info info;
    tokenring_ring_node_brief(&info, router->ring, (uint32_t)index);
    memset(out, 0, sizeof *out);
    out->name = info.name;
    out->datacenter = info.datacenter;
    out->rack = info.rack;
    out->host_id = router->host_ids[index];
    out->tag = router->tags[index];
    out->flags = router->flags[index];
    out->state = info.state;
    out->token_count = (uint32_t)info.token_count;
    out->local = router->is_local[index];
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_router_find_node(uint32_t *index_out,
                                             const tokenring_router *router, const char *name)
{
    if (!router)
        return TOKENRING_E_INVAL;
    return tokenring_ring_find_node(index_out, router->ring, name);
}

TOKENRING_API const tokenring_ring *tokenring_router_ring(const tokenring_router *router)
{
    return router ? router->ring : NULL;
}

TOKENRING_API size_t tokenring_router_keyspace_count(const tokenring_router *router)
{
    return router ? router->nks : 0;
}

TOKENRING_API int tokenring_router_keyspace(const char **name_out,
                                            const tokenring_placement **placement_out,
                                            const tokenring_router *router, size_t index)
{
    if (!router || (!name_out && !placement_out))
        return TOKENRING_E_INVAL;
    if (index >= router->nks)
        return TOKENRING_E_RANGE;
    if (name_out)
        *name_out = router->ks[index].name;
    if (placement_out)
        *placement_out = router->groups[router->ks[index].group].pl;
    return TOKENRING_OK;
}

TOKENRING_API size_t tokenring_router_skipped_count(const tokenring_router *router)
{
    return router ? router->nskipped : 0;
}

TOKENRING_API int tokenring_router_skipped(const char **name_out, const char **class_out,
                                           const tokenring_router *router, size_t index)
{
    if (!router || (!name_out && !class_out))
        return TOKENRING_E_INVAL;
    if (index >= router->nskipped)
        return TOKENRING_E_RANGE;
    if (name_out)
        *name_out = router->skipped[index].name;
    if (class_out)
        *class_out = router->skipped[index].cls;
    return TOKENRING_OK;
}

/* ------------------------------------------------------------------- lookups */

static inline const struct tr_rgroup *find_group(const tokenring_router *r, const char *ks)
{
    uint32_t h = name_hash(ks), j = h & r->ks_mask, k;
    while ((k = r->ks_slots[j]) != TR_KS_EMPTY) {
        if (r->ks_hash[j] == h && strcmp(r->ks[k - 1].name, ks) == 0)
            return &r->groups[r->ks[k - 1].group];
        j = (j + 1) & r->ks_mask;
    }
    return NULL;
}

static inline void fill(tokenring_route *out, const tokenring_router *r,
                        const struct tr_rgroup *g, const tokenring_replicas *rep,
                        int64_t token, uint32_t flags)
{
    uint32_t s = rep->set_id;
    const uint32_t *blk = g->views + (size_t)s * g->stride;
    out->replicas = rep->nodes;
    out->local = blk + 2 + ((flags & TOKENRING_ROUTE_UP_FIRST) ? rep->count : 0);
    out->tags = r->tags;
    out->count = rep->count;
    out->local_count = blk[0];
    out->local_up_count = blk[1];
    out->set_id = s;
    out->token = token;
    out->reserved[0] = 0;
    out->reserved[1] = 0;
}

static int lookup_args(const tokenring_route *out, const tokenring_router *r, const char *ks,
                       uint32_t flags, const struct tr_rgroup **g)
{
    if (!out || !r || !ks || (flags & ~TOKENRING_ROUTE_UP_FIRST))
        return TOKENRING_E_INVAL;
    *g = find_group(r, ks);
    return *g ? TOKENRING_OK : TOKENRING_E_NOTFOUND;
}

TOKENRING_API int tokenring_router_route(tokenring_route *out, const tokenring_router *router,
                                         const char *keyspace, const void *key, size_t len,
                                         uint32_t flags)
{
    const struct tr_rgroup *g;
    int rc = lookup_args(out, router, keyspace, flags, &g);
    if (rc != TOKENRING_OK)
        return rc;
    if (!key && len)
        return TOKENRING_E_INVAL;
    tokenring_replicas rep;
    int64_t token = 0;
    if (router->ring->partitioner == TOKENRING_PARTITIONER_MURMUR3) { /* Murmur3 hot path */
        token = tokenring_token(key, len);
        tokenring_placement_replicas(&rep, g->pl, token);
    } else {
        tokenring_placement_replicas_for_key_any(&rep, g->pl, key, len);
    }
    fill(out, router, g, &rep, token, flags);
    return TOKENRING_OK;
}

#define PACK_MAX 4096

TOKENRING_API int tokenring_router_route_parts(tokenring_route *out,
                                               const tokenring_router *router,
                                               const char *keyspace,
                                               const void *const *parts, const size_t *lens,
                                               size_t count, uint32_t flags)
{
    const struct tr_rgroup *g;
    int rc = lookup_args(out, router, keyspace, flags, &g);
    if (rc != TOKENRING_OK)
        return rc;
    if (!parts || !lens || count == 0)
        return TOKENRING_E_INVAL;
    size_t total = 0;
    for (size_t i = 0; i < count; i++) {
        if (!parts[i] && lens[i])
            return TOKENRING_E_INVAL;
        if (lens[i] > TOKENRING_MAX_KEY)
            return TOKENRING_E_RANGE;
        total += lens[i] + 3;
    }
    tokenring_replicas rep;
    int64_t token = 0;
    if (router->ring->partitioner == TOKENRING_PARTITIONER_MURMUR3) { /* Murmur3 hot path */
        token = tr_token_parts(parts, lens, count);
        tokenring_placement_replicas(&rep, g->pl, token);
    } else {
        if (total > PACK_MAX)
            return TOKENRING_E_RANGE;
        uint8_t buf[PACK_MAX];
        size_t n = 0;
        for (size_t i = 0; i < count; i++) {
            buf[n++] = (uint8_t)(lens[i] >> 8);
            buf[n++] = (uint8_t)lens[i];
            if (lens[i])
                memcpy(buf + n, parts[i], lens[i]);
            n += lens[i];
            buf[n++] = 0;
        }
        tokenring_placement_replicas_for_key_any(&rep, g->pl, buf, n);
    }
    fill(out, router, g, &rep, token, flags);
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_router_route_token(tokenring_route *out,
                                               const tokenring_router *router,
                                               const char *keyspace, int64_t token,
                                               uint32_t flags)
{
    const struct tr_rgroup *g;
    int rc = lookup_args(out, router, keyspace, flags, &g);
    if (rc != TOKENRING_OK)
        return rc;
    if (router->ring->partitioner != TOKENRING_PARTITIONER_MURMUR3) /* an int64 token */
        return TOKENRING_E_UNSUPPORTED;
    tokenring_replicas rep;
    tokenring_placement_replicas(&rep, g->pl, token);
    fill(out, router, g, &rep, token, flags);
    return TOKENRING_OK;
}
