/* SPDX-License-Identifier: Apache-2.0 */
/* The _text calls of topology.h and ring.h (partitioner.h, "Tokens in text form"): tokens
 * read and written through the partitioner table (token/token_text.c) and the one
 * implementation over tr_tok that the typed calls (X, X128, X_bytes) wrap too, so both
 * give the same results. No partitioner switch here. */
#include "ring_internal.h"
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
    rc = add ? tr_topology_add_node_toks(topology, name, datacenter, rack, t.partitioner, t.t,
                                         token_count, err)
             : tr_topology_set_tokens_toks(topology, name, t.partitioner, t.t, token_count,
                                           err);
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
    if (index >= topology->count || k >= topology->nodes[index].token_count)
        return TOKENRING_E_RANGE;
    tr_tok tok = tr_tnode_tok(&topology->nodes[index], k);
    return tr_ops(topology->partitioner)->format(out, cap, len_out, &tok);
}

/* ------------------------------------------------------------------------- ring */

TOKENRING_API int tokenring_ring_token_text(char *out, size_t cap, size_t *len_out,
                                            const tokenring_ring *ring, size_t index)
{
    if (tr_text_bad_out(out, cap, len_out) || !ring)
        return TOKENRING_E_INVAL;
    if (index >= ring->token_count)
        return TOKENRING_E_RANGE;
    tr_tok tok = tr_ring_token(ring, index);
    return tr_ops(ring->partitioner)->format(out, cap, len_out, &tok);
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
    int rc = tr_text_tok_read(&tt, tr_ops(ring->partitioner), token, len, 0, 0, err);
    if (rc != TOKENRING_OK)
        return rc;
    *index_out = tr_ring_search_tok(ring, &tt.t);
    tr_text_tok_free(&tt);
    return TOKENRING_OK;
}
