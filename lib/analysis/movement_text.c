/* SPDX-License-Identifier: Apache-2.0 */
/* The _text calls of movement.h and movement_result.h (partitioner.h, "Tokens in text
 * form"): tokens read and written through the partitioner table (token/token_text.c),
 * then the typed movement calls, so the typed calls and these give the same results. */
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
    int rc;
    switch (tokenring_movement_partitioner(movement)) {
    case TOKENRING_PARTITIONER_RANDOM: {
        tokenring_token128 v[2];
        rc = tokenring_movement_range_bounds128(&v[0], &v[1], movement, index);
        return rc != TOKENRING_OK ? rc : tr_text_put_t128(out, cap, len_out, v[end]);
    }
    case TOKENRING_PARTITIONER_BYTE_ORDERED: {
        const uint8_t *b[2];
        size_t n[2];
        rc = tokenring_movement_range_bounds_bytes(&b[0], &n[0], &b[1], &n[1], movement,
                                                   index);
        return rc != TOKENRING_OK ? rc
                                  : tr_text_put_bytes(out, cap, len_out, b[end],
                                                                n[end]);
    }
    default: {
        tokenring_moved_range r;
        rc = tokenring_movement_get_range(&r, movement, index);
        return rc != TOKENRING_OK ? rc : tr_text_put_i64(out, cap, len_out, end ? r.end : r.start);
    }
    }
}

TOKENRING_API int tokenring_movement_sample_token_text(char *out, size_t cap, size_t *len_out,
                                                       const tokenring_movement *movement,
                                                       size_t index)
{
    if (tr_text_bad_out(out, cap, len_out) || !movement)
        return TOKENRING_E_INVAL;
    int rc;
    switch (tokenring_movement_partitioner(movement)) {
    case TOKENRING_PARTITIONER_RANDOM: {
        tokenring_token128 v;
        rc = tokenring_movement_sample_token128(&v, movement, index);
        return rc != TOKENRING_OK ? rc : tr_text_put_t128(out, cap, len_out, v);
    }
    case TOKENRING_PARTITIONER_BYTE_ORDERED: {
        const uint8_t *b;
        size_t n;
        rc = tokenring_movement_sample_token_bytes(&b, &n, movement, index);
        return rc != TOKENRING_OK ? rc : tr_text_put_bytes(out, cap, len_out, b, n);
    }
    default: {
        tokenring_sample_change s;
        rc = tokenring_movement_get_sample(&s, movement, index);
        return rc != TOKENRING_OK ? rc : tr_text_put_i64(out, cap, len_out, s.token);
    }
    }
}
