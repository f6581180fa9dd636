/* SPDX-License-Identifier: Apache-2.0 */
/* The _text calls of topology.h and ring.h (partitioner.h, "Tokens in text form"): tokens
 * read and written through the partitioner table (token/token_text.c), then the typed
 * implementation, so the typed calls and these give the same results. */
#include "token.h"
#include "token_text.h"

/* --------------------------------------------------------------------- topology */

/* Adds (name2 NULL: datacenter and rack given) or sets the tokens of a node. */
static int node_tokens_text(tokenring_topology *topology, const char *name,
                            const char *datacenter, const char *rack, bool add,
                            const char *const *tokens, size_t token_count, tokenring_error *err)
{
    if (!topology)
        return tr_fail(err, TOKENRING_E_INVAL, "topology is NULL");
    tr_text_tokens t;
    int rc = tr_text_tokens_read(&t, tokenring_topology_partitioner(topology), tokens,
                                 token_count, err);
    if (rc != TOKENRING_OK)
        return rc;
    switch (t.partitioner) {
    case TOKENRING_PARTITIONER_RANDOM:
        rc = add ? tokenring_topology_add_node128(topology, name, datacenter, rack, t.r,
                                                  token_count, err)
                 : tokenring_topology_set_tokens128(topology, name, t.r, token_count, err);
        break;
    case TOKENRING_PARTITIONER_BYTE_ORDERED:
        rc = add ? tokenring_topology_add_node_bytes(topology, name, datacenter, rack, t.b,
                                                     t.blen, token_count, err)
                 : tokenring_topology_set_tokens_bytes(topology, name, t.b, t.blen,
                                                       token_count, err);
        break;
    default:
        rc = add ? tokenring_topology_add_node(topology, name, datacenter, rack, t.m,
                                               token_count, err)
                 : tokenring_topology_set_tokens(topology, name, t.m, token_count, err);
        break;
    }
    tr_text_tokens_free(&t);
    return rc;
}

TOKENRING_API int tokenring_topology_add_node_text(tokenring_topology *topology,
                                                   const char *name, const char *datacenter,
                                                   const char *rack, const char *const *tokens,
                                                   size_t token_count, tokenring_error *err)
{
    return node_tokens_text(topology, name, datacenter, rack, true, tokens, token_count, err);
}

TOKENRING_API int tokenring_topology_set_tokens_text(tokenring_topology *topology,
                                                     const char *name,
                                                     const char *const *tokens,
                                                     size_t token_count, tokenring_error *err)
{
    return node_tokens_text(topology, name, NULL, NULL, false, tokens, token_count, err);
}

TOKENRING_API int tokenring_topology_node_token_text(char *out, size_t cap, size_t *len_out,
                                                     const tokenring_topology *topology,
                                                     size_t index, size_t k)
{
    if (tr_text_bad_out(out, cap, len_out) || !topology)
        return TOKENRING_E_INVAL;
    int rc;
    switch (tokenring_topology_partitioner(topology)) {
    case TOKENRING_PARTITIONER_RANDOM: {
        tokenring_token128 v;
        rc = tokenring_topology_node_token128(&v, topology, index, k);
        return rc != TOKENRING_OK ? rc : tr_text_put_t128(out, cap, len_out, v);
    }
    case TOKENRING_PARTITIONER_BYTE_ORDERED: {
        const uint8_t *b;
        size_t n;
        rc = tokenring_topology_node_token_bytes(&b, &n, topology, index, k);
        return rc != TOKENRING_OK ? rc : tr_text_put_bytes(out, cap, len_out, b, n);
    }
    default: {
        tokenring_node_info info;
        rc = tokenring_topology_node(&info, topology, index);
        if (rc != TOKENRING_OK)
            return rc;
        if (k >= info.token_count)
            return TOKENRING_E_RANGE;
        return tr_text_put_i64(out, cap, len_out, info.tokens[k]);
    }
    }
}

/* ------------------------------------------------------------------------- ring */

TOKENRING_API int tokenring_ring_token_text(char *out, size_t cap, size_t *len_out,
                                            const tokenring_ring *ring, size_t index)
{
    if (tr_text_bad_out(out, cap, len_out) || !ring)
        return TOKENRING_E_INVAL;
    int rc;
    switch (tokenring_ring_partitioner(ring)) {
    case TOKENRING_PARTITIONER_RANDOM: {
        tokenring_token128 v;
        rc = tokenring_ring_token128(&v, ring, index);
        return rc != TOKENRING_OK ? rc : tr_text_put_t128(out, cap, len_out, v);
    }
    case TOKENRING_PARTITIONER_BYTE_ORDERED: {
        const uint8_t *b;
        size_t n;
        rc = tokenring_ring_token_bytes(&b, &n, ring, index);
        return rc != TOKENRING_OK ? rc : tr_text_put_bytes(out, cap, len_out, b, n);
    }
    default: {
        size_t count = 0;
        const int64_t *t = tokenring_ring_tokens(ring, &count);
        if (index >= count)
            return TOKENRING_E_RANGE;
        return tr_text_put_i64(out, cap, len_out, t[index]);
    }
    }
}

TOKENRING_API int tokenring_ring_search_text(uint32_t *index_out, const tokenring_ring *ring,
                                             const char *token, size_t len,
                                             tokenring_error *err)
{
    if (!index_out || !ring || !token)
        return tr_fail(err, TOKENRING_E_INVAL, "%s is NULL", !index_out ? "index_out"
                                                             : !ring     ? "ring"
                                                                         : "token");
    tr_text_tok tt;
    int rc = tr_text_tok_read(&tt, tr_ops(tokenring_ring_partitioner(ring)), token, len, 0, 0, err);
    if (rc != TOKENRING_OK)
        return rc;
    switch (tt.t.p) { /* the typed lookup of the ring's partitioner */
    case TOKENRING_PARTITIONER_RANDOM:
        *index_out = tokenring_ring_search128(ring, tt.t.v128);
        break;
    case TOKENRING_PARTITIONER_BYTE_ORDERED:
        *index_out = tokenring_ring_search_bytes(ring, tt.t.b, tt.t.len);
        break;
    default:
        *index_out = tokenring_ring_search(ring, tt.t.key);
    }
    tr_text_tok_free(&tt);
    return TOKENRING_OK;
}
