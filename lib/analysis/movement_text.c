/* SPDX-License-Identifier: Apache-2.0 */
/* The _text calls of movement.h and movement_result.h (partitioner.h, "Tokens in text
 * form"): tokens read through the topology's _text calls, and written with the partitioner
 * table's format from the result's tokens as tr_tok, so the typed calls and these give
 * the same results. No partitioner switch here. */
#include "movement_internal.h"
#include "token.h"
#include "token_text.h"

/* --------------------------------------------------------------------- movement */

/* A join (datacenter non-NULL) or a move on a copy of topology, compared with sample
 * keys: the same steps as the typed calls, with the tokens read as text. */
static int movement_text(tokenring_movement **out, const tokenring_topology *topology,
                         const tokenring_replication *replication, const char *name,
                         const char *datacenter, const char *rack, bool join,
                         const char *const *tokens, size_t token_count,
                         const uint8_t *sample_keys, const uint64_t *sample_offsets,
                         size_t sample_count, tokenring_error *err)
{
    if (!out || !topology || !replication || !name)
        return tr_fail(err, TOKENRING_E_INVAL, "NULL argument to a movement analysis");
    size_t idx;
    if (!join && tokenring_topology_find_node(&idx, topology, name) != TOKENRING_OK)
        return tr_fail(err, TOKENRING_E_NOTFOUND, "unknown node '%s'", name);
    tokenring_topology *copy = NULL;
    int rc = tokenring_topology_clone(&copy, topology);
    if (rc != TOKENRING_OK)
        return tr_fail(err, rc, "cannot copy the topology");
    rc = join ? tokenring_topology_add_node_text(copy, name, datacenter, rack, tokens,
                                                 token_count, err)
              : tokenring_topology_set_tokens_text(copy, name, tokens, token_count, err);
    if (rc == TOKENRING_OK)
        rc = tokenring_movement_compare_keys(out, topology, copy, replication,
                                             join ? TOKENRING_CHANGE_JOIN
                                                  : TOKENRING_CHANGE_MOVE,
                                             sample_keys, sample_offsets, sample_count, err);
    tokenring_topology_free(copy);
    return rc;
}

TOKENRING_API int tokenring_movement_join_text(tokenring_movement **out,
                                               const tokenring_topology *topology,
                                               const tokenring_replication *replication,
                                               const char *name, const char *datacenter,
                                               const char *rack, const char *const *tokens,
                                               size_t token_count, const uint8_t *sample_keys,
                                               const uint64_t *sample_offsets,
                                               size_t sample_count, tokenring_error *err)
{
    return movement_text(out, topology, replication, name, datacenter, rack, true, tokens,
                         token_count, sample_keys, sample_offsets, sample_count, err);
}

TOKENRING_API int tokenring_movement_move_text(tokenring_movement **out,
                                               const tokenring_topology *topology,
                                               const tokenring_replication *replication,
                                               const char *name, const char *const *tokens,
                                               size_t token_count, const uint8_t *sample_keys,
                                               const uint64_t *sample_offsets,
                                               size_t sample_count, tokenring_error *err)
{
    return movement_text(out, topology, replication, name, NULL, NULL, false, tokens,
                         token_count, sample_keys, sample_offsets, sample_count, err);
}

TOKENRING_API int tokenring_movement_range_bound_text(char *out, size_t cap, size_t *len_out,
                                                      const tokenring_movement *movement,
                                                      size_t index, int end)
{
    if (tr_text_bad_out(out, cap, len_out) || !movement || (end != 0 && end != 1))
        return TOKENRING_E_INVAL;
    tr_tok t;
    int rc = tr_movement_bound_tok(&t, movement, index, end);
    return rc != TOKENRING_OK ? rc : tr_ops(t.p)->format(out, cap, len_out, &t);
}

TOKENRING_API int tokenring_movement_sample_token_text(char *out, size_t cap, size_t *len_out,
                                                       const tokenring_movement *movement,
                                                       size_t index)
{
    if (tr_text_bad_out(out, cap, len_out) || !movement)
        return TOKENRING_E_INVAL;
    tr_tok t;
    int rc = tr_movement_sample_tok(&t, movement, index);
    return rc != TOKENRING_OK ? rc : tr_ops(t.p)->format(out, cap, len_out, &t);
}
