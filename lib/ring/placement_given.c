/* SPDX-License-Identifier: Apache-2.0 */
/* Placements from given replica lists: the replica order of a range as a server reports
 * it, or as Cassandra 6.0's history gives it, which no walk of the tokens reproduces
 * (doc/cassandra-6.md). The lists are checked (offsets, node indices, no node twice in
 * one list) and stored as tokenring_placement_build() stores its own, so every query of
 * placement.h answers from them unchanged. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ring_internal.h"

/* "range I (end token T)" for messages: the token for Murmur3 rings. */
static const char *range_name(char *buf, size_t cap, const tokenring_ring *ring, size_t i)
{
    if (ring->partitioner == TOKENRING_PARTITIONER_MURMUR3)
        snprintf(buf, cap, "range %zu (ending at token %lld)", i, (long long)ring->tokens[i]);
    else
        snprintf(buf, cap, "range %zu", i);
    return buf;
}

TOKENRING_API int tokenring_placement_from_lists(tokenring_placement **out,
                                                 const tokenring_ring *ring,
                                                 const tokenring_replication *replication,
                                                 const uint32_t *offsets,
                                                 const uint32_t *nodes,
                                                 const uint32_t *upper, size_t upper_count,
                                                 int order, tokenring_error *err)
{
    if (out == NULL || ring == NULL || replication == NULL || offsets == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "%s is NULL",
                       !out ? "out" : !ring ? "ring" : !replication ? "replication" : "offsets");
    if (order != TOKENRING_ORDER_SERVER && order != TOKENRING_ORDER_HISTORY)
        return tr_fail(err, TOKENRING_E_INVAL,
                       "order %d: given lists are in the server's order (%d) or Cassandra "
                       "6.0's history order (%d); tokenring_placement_build() computes the "
                       "tokens' order", order, TOKENRING_ORDER_SERVER, TOKENRING_ORDER_HISTORY);
    const size_t n = ring->token_count;
    char rb[96];
    if (offsets[0] != 0)
        return tr_fail(err, TOKENRING_E_INVAL, "offsets[0] is %u, not 0", (unsigned)offsets[0]);
    for (size_t i = 0; i < n; i++)
        if (offsets[i + 1] < offsets[i])
            return tr_fail(err, TOKENRING_E_INVAL, "offsets decrease at %s: %u after %u",
                           range_name(rb, sizeof rb, ring, i), (unsigned)offsets[i + 1],
                           (unsigned)offsets[i]);
    if (offsets[n] > 0 && nodes == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "nodes is NULL with %u replicas listed",
                       (unsigned)offsets[n]);
    if (upper && ring->partitioner != TOKENRING_PARTITIONER_MURMUR3)
        return tr_fail(err, TOKENRING_E_UNSUPPORTED,
                       "a list above the largest token (Cassandra 6.0's (t, min] range) on a "
                       "%s ring: Murmur3 rings only",
                       tokenring_partitioner_name(ring->partitioner));
    if (upper_count > UINT32_MAX)
        return tr_fail(err, TOKENRING_E_INVAL, "upper_count %zu is too large", upper_count);
    /* Each node at most once per list: a stamp per node, the range's index + 1. */
    uint32_t *stamp = tr_calloc(ring->node_count ? ring->node_count : 1, sizeof *stamp);
    if (!stamp)
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory checking %zu replica lists", n);
    int rc = TOKENRING_OK;
    for (size_t i = 0; i <= n && rc == TOKENRING_OK; i++) {
        if (i == n && !upper)
            break;
        const uint32_t *list = i < n ? nodes + offsets[i] : upper;
        uint32_t cnt = i < n ? offsets[i + 1] - offsets[i] : (uint32_t)upper_count;
        if (i == n)
            snprintf(rb, sizeof rb, "the list above the largest token");
        for (uint32_t k = 0; k < cnt; k++) {
            uint32_t v = list[k];
            if (v >= ring->node_count) {
                rc = tr_fail(err, TOKENRING_E_INVAL,
                             "%s: replica %u is node index %u, but the ring has %u nodes",
                             i < n ? range_name(rb, sizeof rb, ring, i) : rb, (unsigned)k,
                             (unsigned)v, (unsigned)ring->node_count);
                break;
            }
            if (stamp[v] == i + 1) {
                rc = tr_fail(err, TOKENRING_E_INVAL, "%s names node %s twice",
                             i < n ? range_name(rb, sizeof rb, ring, i) : rb,
                             ring->nodes[v].name);
                break;
            }
            stamp[v] = (uint32_t)(i + 1);
        }
    }
    tr_free(stamp);
    if (rc != TOKENRING_OK)
        return rc;
    return tr_placement_from_rows(out, ring, replication, offsets, nodes, upper,
                                  (uint32_t)upper_count, NULL, NULL, (uint8_t)order, err);
}

TOKENRING_API int tokenring_placement_order(const tokenring_placement *placement)
{
    return placement ? placement->order : TOKENRING_E_INVAL;
}
