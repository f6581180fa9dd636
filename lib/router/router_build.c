/* SPDX-License-Identifier: Apache-2.0 */
/* The router builder: driver rows (system.local, system.peers_v2, system_schema.keyspaces)
 * read under the rules of parse_rows.c into a cluster document, staged and merged as the
 * parsers do (tr_cluster_stage), then turned into a snapshot spec (router.c). */
#include <stdio.h>
#include <string.h>

#include "parse_internal.h"
#include "ring_internal.h"
#include "router_internal.h"

struct tokenring_router_builder {
    tokenring_cluster cl;
    char *local_dc;
    uint64_t *tags;   /* per cluster node */
    uint32_t *flags;  /* per cluster node: TOKENRING_ROUTER_NODE_DOWN */
    uint8_t *set;     /* per cluster node: tag and flags were set */
    size_t cap;
};

static int nomem(tokenring_error *err)
{
    return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
}

TOKENRING_API int tokenring_router_builder_new(tokenring_router_builder **out,
                                               const char *local_dc, tokenring_error *err)
{
    if (!out)
        return tr_fail(err, TOKENRING_E_INVAL, "out is NULL");
    int rc;
    if (local_dc && (rc = tr_check_name(err, "local datacenter", local_dc)) != TOKENRING_OK)
        return rc;
    tokenring_router_builder *b = tr_calloc(1, sizeof *b);
    if (!b)
        return nomem(err);
    if (local_dc && !(b->local_dc = tr_strdup(local_dc))) {
        tr_free(b);
        return nomem(err);
    }
    *out = b;
    return TOKENRING_OK;
}

TOKENRING_API void tokenring_router_builder_free(tokenring_router_builder *builder)
{
    if (!builder)
        return;
    tr_cl_clear(&builder->cl);
    tr_free(builder->local_dc);
    tr_free(builder->tags);
    tr_free(builder->flags);
    tr_free(builder->set);
    tr_free(builder);
}

/* Room for the per-node settings of every node of the cluster. */
static int grow(tokenring_router_builder *b, tokenring_error *err)
{
    size_t need = b->cl.n;
    if (need <= b->cap)
        return TOKENRING_OK;
    size_t n = b->cap ? b->cap : 16; /* doubling: a row at a time costs O(1) amortised */
    while (n < need)
        n *= 2;
    uint64_t *tags = tr_reallocarray(b->tags, n, sizeof *tags);
    if (!tags)
        return nomem(err);
    b->tags = tags;
    uint32_t *flags = tr_reallocarray(b->flags, n, sizeof *flags);
    if (!flags)
        return nomem(err);
    b->flags = flags;
    uint8_t *set = tr_reallocarray(b->set, n, 1);
    if (!set)
        return nomem(err);
    b->set = set;
    for (size_t i = b->cap; i < n; i++) {
        tags[i] = 0;
        flags[i] = 0;
        set[i] = 0;
    }
    b->cap = n;
    return TOKENRING_OK;
}

static tr_col val(const char *s)
{
    tr_col c = { s, s ? strlen(s) : 0, 0 };
    return c;
}

TR_HIDDEN int tr_router_fill_node(tokenring_cluster *st, void *ctx, tokenring_error *err)
{
    const struct node_row *row = ctx;
    int rc;
    if (row->partitioner &&
        (rc = tr_cl_name_partitioner(st, row->partitioner, strlen(row->partitioner), 0, 0,
                                     err)) != TOKENRING_OK)
        return rc;
    tr_col name = val(row->address), dc = val(row->dc), rack = val(row->rack),
           host = val(row->host_id);
    size_t idx;
    if ((rc = tr_row_node(st, &name, &dc, &rack, &host, 0, &idx, err)) != TOKENRING_OK)
        return rc;
    for (size_t i = 0; i < row->ntokens; i++) {
        if (!row->tokens[i])
            return tr_fail(err, TOKENRING_E_INVAL, "node %s: token %zu is NULL", row->address,
                           i);
        rc = tr_cl_add_token_text(st, idx, row->tokens[i], strlen(row->tokens[i]), 0, 0, err);
        if (rc != TOKENRING_OK)
            return rc;
    }
    return TOKENRING_OK;
}

static int add_node_row(tokenring_router_builder *b, const struct node_row *row,
                        tokenring_error *err)
{
    if (!b || !row->address || (row->ntokens && !row->tokens))
        return tr_fail(err, TOKENRING_E_INVAL, "NULL builder, address or tokens");
    size_t idx;
    if (tr_cl_find(&b->cl, row->address, strlen(row->address), &idx) == TOKENRING_OK)
        return tr_fail(err, TOKENRING_E_EXISTS, "node %s was already added", row->address);
    if (b->cl.n + 1 > b->cap) { /* before the merge: a failure leaves nothing changed */
        b->cl.n++;
        int rc = grow(b, err);
        b->cl.n--;
        if (rc != TOKENRING_OK)
            return rc;
    }
    return tr_cluster_stage(&b->cl, TOKENRING_INPUT_CQLSH, 0, tr_router_fill_node, (void *)row, err);
}

TOKENRING_API int tokenring_router_builder_add_local(tokenring_router_builder *builder,
                                                     const char *address,
                                                     const char *datacenter, const char *rack,
                                                     const char *host_id,
                                                     const char *partitioner,
                                                     const char *const *tokens,
                                                     size_t token_count, tokenring_error *err)
{
    struct node_row row = { address, datacenter, rack, host_id, partitioner, tokens,
                            token_count };
    return add_node_row(builder, &row, err);
}

TOKENRING_API int tokenring_router_builder_add_peer(tokenring_router_builder *builder,
                                                    const char *address,
                                                    const char *datacenter, const char *rack,
                                                    const char *host_id,
                                                    const char *const *tokens,
                                                    size_t token_count, tokenring_error *err)
{
    struct node_row row = { address, datacenter, rack, host_id, NULL, tokens, token_count };
    return add_node_row(builder, &row, err);
}

/* Writes a replication map given as keys and values as the CQL map text the cqlsh
 * reader sees ({'class': 'X', 'k': 'v'}), for the shared keyspace rule. */

TR_HIDDEN int tr_router_fill_keyspace(tokenring_cluster *st, void *ctx, tokenring_error *err)
{
    const struct ks_row *row = ctx;
    tr_col name = val(row->name), cls = { NULL, 0, 0 };
    size_t len = 3;
    for (size_t i = 0; i < row->count; i++) {
        if (!row->keys[i] || !row->values[i])
            return tr_fail(err, TOKENRING_E_INVAL, "keyspace %s: replication entry %zu is NULL",
                           row->name, i);
        if (strchr(row->keys[i], '\'') || strchr(row->values[i], '\''))
            return tr_fail(err, TOKENRING_E_PARSE,
                           "keyspace %s: replication entry '%s' has a quote", row->name,
                           row->keys[i]);
        if (strcmp(row->keys[i], "class") == 0)
            cls = val(row->values[i]);
        len += strlen(row->keys[i]) + strlen(row->values[i]) + 8;
    }
    char *text = tr_malloc(len);
    if (!text)
        return nomem(err);
    size_t n = 0;
    text[n++] = '{';
    for (size_t i = 0; i < row->count; i++)
        n += (size_t)snprintf(text + n, len - n, "%s'%s': '%s'", i ? ", " : "", row->keys[i],
                              row->values[i]);
    text[n++] = '}';
    text[n] = '\0';
    tr_col map = { text, n, 0 };
    int rc = tr_row_keyspace(st, &name, &cls, &map, 0, err);
    tr_free(text);
    return rc;
}

TOKENRING_API int tokenring_router_builder_add_keyspace(tokenring_router_builder *builder,
                                                        const char *keyspace,
                                                        const char *const *keys,
                                                        const char *const *values,
                                                        size_t count, tokenring_error *err)
{
    if (!builder || !keyspace || (count && (!keys || !values)))
        return tr_fail(err, TOKENRING_E_INVAL, "NULL builder, keyspace, keys or values");
    struct ks_row row = { keyspace, keys, values, count };
    return tr_cluster_stage(&builder->cl, TOKENRING_INPUT_CQLSH, 0, tr_router_fill_keyspace, &row, err);
}

static int fill_cluster(tokenring_cluster *st, void *ctx, tokenring_error *err)
{
    const tokenring_cluster *src = ctx;
    int rc;
    st->partitioner = src->partitioner;
    st->partitioner_fixed = true;
    for (size_t i = 0; i < src->n; i++) {
        const struct tr_cnode *nd = &src->nodes[i];
        size_t idx;
        bool created;
        if ((rc = tr_cl_node(st, nd->name, strlen(nd->name), nd->dc, strlen(nd->dc), nd->rack,
                             strlen(nd->rack), 0, 0, 0, 0, &idx, &created, err)) != TOKENRING_OK)
            return rc;
        st->nodes[idx].state = nd->state;
        st->nodes[idx].liveness = nd->liveness;
        if (nd->host_id && (rc = tr_cl_set_host_id(st, idx, nd->host_id, strlen(nd->host_id), 0,
                                                   0, err)) != TOKENRING_OK)
            return rc;
        for (size_t k = 0; nd->known && k < nd->ntok; k++) {
            if (src->partitioner == TOKENRING_PARTITIONER_MURMUR3) {
                rc = tr_cl_add_token(st, idx, nd->tokens[k], 0, 0, err);
            } else {
                char buf[TR_TOKEN_TEXT_MAX];
                const char *t = tr_cl_token_text(src, nd, k, buf);
                rc = tr_cl_add_token_text(st, idx, t, strlen(t), 0, 0, err);
            }
            if (rc != TOKENRING_OK)
                return rc;
        }
    }
    for (size_t i = 0; i < src->nks; i++) {
        tokenring_replication *copy = tr_replication_clone(src->ks[i].repl);
        if (!copy)
            return nomem(err);
        rc = tr_cl_add_keyspace_at(st, src->ks[i].name, strlen(src->ks[i].name), copy, 0, 0,
                                   err);
        if (rc != TOKENRING_OK)
            return rc;
    }
    for (size_t i = 0; i < src->nskipped; i++)
        if ((rc = tr_cl_add_skipped(st, src->skipped[i].name, strlen(src->skipped[i].name),
                                    src->skipped[i].cls, strlen(src->skipped[i].cls), 0, 0,
                                    err)) != TOKENRING_OK)
            return rc;
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_router_builder_add_cluster(tokenring_router_builder *builder,
                                                       const tokenring_cluster *cluster,
                                                       tokenring_error *err)
{
    if (!builder || !cluster)
        return tr_fail(err, TOKENRING_E_INVAL, "NULL builder or cluster");
    size_t n = builder->cl.n;
    builder->cl.n += cluster->n; /* room first: a failure leaves nothing changed */
    int rc = grow(builder, err);
    builder->cl.n = n;
    if (rc != TOKENRING_OK)
        return rc;
    return tr_cluster_stage(&builder->cl, TOKENRING_INPUT_TOPOLOGY, 0, fill_cluster, (void *)cluster, err);
}

TOKENRING_API int tokenring_router_builder_set_node(tokenring_router_builder *builder,
                                                    const char *name, uint64_t tag,
                                                    uint32_t flags, tokenring_error *err)
{
    if (!builder || !name)
        return tr_fail(err, TOKENRING_E_INVAL, "NULL builder or name");
    if (flags & ~TOKENRING_ROUTER_NODE_DOWN)
        return tr_fail(err, TOKENRING_E_INVAL, "unknown node flag 0x%x", (unsigned)flags);
    size_t idx;
    if (tr_cl_find(&builder->cl, name, strlen(name), &idx) != TOKENRING_OK)
        return tr_fail(err, TOKENRING_E_NOTFOUND, "node %s has not been added", name);
    builder->tags[idx] = tag;
    builder->flags[idx] = flags;
    builder->set[idx] = 1;
    return TOKENRING_OK;
}

/* Adds a cluster node (with known tokens) to a topology of the cluster's partitioner,
 * or (set) gives an existing node of the topology that node's tokens. */
static int topo_put(tokenring_topology *t, const tokenring_cluster *cl,
                    const struct tr_cnode *nd, bool set, tokenring_error *err)
{
    int rc;
    if (cl->partitioner == TOKENRING_PARTITIONER_MURMUR3) {
        rc = set ? tokenring_topology_set_tokens(t, nd->name, nd->tokens, nd->ntok, err)
                 : tokenring_topology_add_node(t, nd->name, nd->dc, nd->rack, nd->tokens,
                                               nd->ntok, err);
    } else if (cl->partitioner == TOKENRING_PARTITIONER_RANDOM) {
        tokenring_token128 *tk = tr_calloc(nd->ntok, sizeof *tk);
        if (!tk)
            return nomem(err);
        for (size_t k = 0; k < nd->ntok; k++)
            tk[k] = nd->vtok[k].v128;
        rc = set ? tokenring_topology_set_tokens128(t, nd->name, tk, nd->ntok, err)
                 : tokenring_topology_add_node128(t, nd->name, nd->dc, nd->rack, tk, nd->ntok,
                                                  err);
        tr_free(tk);
    } else {
        const uint8_t **p = tr_calloc(nd->ntok, sizeof *p);
        size_t *lens = tr_calloc(nd->ntok, sizeof *lens);
        if (!p || !lens) {
            tr_free(p);
            tr_free(lens);
            return nomem(err);
        }
        for (size_t k = 0; k < nd->ntok; k++) {
            p[k] = nd->vtok[k].b;
            lens[k] = nd->vtok[k].len;
        }
        rc = set ? tokenring_topology_set_tokens_bytes(t, nd->name, p, lens, nd->ntok, err)
                 : tokenring_topology_add_node_bytes(t, nd->name, nd->dc, nd->rack, p, lens,
                                                     nd->ntok, err);
        tr_free(p);
        tr_free(lens);
    }
    if (rc == TOKENRING_OK && !set && nd->state != TOKENRING_STATE_NORMAL)
        rc = tokenring_topology_set_state(t, nd->name, (tokenring_node_state)nd->state,
                                          TOKENRING_UP, err);
    return rc;
}

TR_HIDDEN int tr_router_topo_add(tokenring_topology *t, const tokenring_cluster *cl,
                                 const struct tr_cnode *nd, tokenring_error *err)
{
    return topo_put(t, cl, nd, false, err);
}

TR_HIDDEN int tr_router_topo_set_tokens(tokenring_topology *t, const tokenring_cluster *cl,
                                        const struct tr_cnode *nd, tokenring_error *err)
{
    return topo_put(t, cl, nd, true, err);
}

TOKENRING_API int tokenring_router_build(tokenring_router **out,
                                         const tokenring_router_builder *builder,
                                         tokenring_error *err)
{
    if (!out || !builder)
        return tr_fail(err, TOKENRING_E_INVAL, "NULL out or builder");
    const tokenring_cluster *cl = &builder->cl;
    tr_rspec spec;
    memset(&spec, 0, sizeof spec);
    int rc = tokenring_topology_new_partitioned(&spec.topo, cl->partitioner);
    if (rc != TOKENRING_OK)
        return nomem(err);
    if (builder->local_dc && !(spec.local_dc = tr_strdup(builder->local_dc))) {
        rc = nomem(err);
        goto fail;
    }
    for (size_t i = 0; i < cl->n; i++) {
        const struct tr_cnode *nd = &cl->nodes[i];
        if (!nd->known || nd->ntok == 0)
            continue; /* not in the ring until it joins */
        if ((rc = tr_router_topo_add(spec.topo, cl, nd, err)) != TOKENRING_OK)
            goto fail;
        size_t k = spec.nnodes;
        if ((rc = tr_rspec_resize_nodes(&spec, k + 1, err)) != TOKENRING_OK)
            goto fail;
        bool set = i < builder->cap && builder->set[i];
        spec.tags[k] = set ? builder->tags[i] : 0;
        spec.flags[k] = set ? builder->flags[i]
                            : (nd->liveness == TOKENRING_DOWN ? TOKENRING_ROUTER_NODE_DOWN : 0);
        if (nd->host_id && !(spec.host_ids[k] = tr_strdup(nd->host_id))) {
            rc = nomem(err);
            goto fail;
        }
    }
    for (size_t i = 0; i < cl->nks; i++) {
        if ((rc = tr_rspec_add_keyspace(&spec, err)) != TOKENRING_OK)
            goto fail;
        if (!(spec.ks_names[i] = tr_strdup(cl->ks[i].name)) ||
            !(spec.ks_repl[i] = tr_replication_clone(cl->ks[i].repl))) {
            rc = nomem(err);
            goto fail;
        }
    }
    if (cl->nskipped) {
        if (!(spec.skipped = tr_calloc(cl->nskipped, sizeof *spec.skipped))) {
            rc = nomem(err);
            goto fail;
        }
        spec.nskipped = cl->nskipped;
        for (size_t i = 0; i < cl->nskipped; i++)
            if (!(spec.skipped[i].name = tr_strdup(cl->skipped[i].name)) ||
                !(spec.skipped[i].cls = tr_strdup(cl->skipped[i].cls))) {
                rc = nomem(err);
                goto fail;
            }
    }
    if (spec.nnodes == 0) {
        rc = tr_fail(err, TOKENRING_E_EMPTY, "no node with tokens: add the rows of "
                                             "system.local and system.peers_v2 first");
        goto fail;
    }
    return tr_router_make(out, &spec, NULL, false, err);
fail:
    tr_rspec_clear(&spec);
    return rc;
}
