/* SPDX-License-Identifier: Apache-2.0 */
/* The layouts (layout.h) and allocators (allocate_text.h) for every partitioner, their
 * tokens returned as a token list in text form: each calls the typed implementation of
 * the partitioner and writes its tokens as text (lib/token/token_text.c has the lists). */
#include <string.h>

#include "layout_internal.h"
#include "token_text.h"

/* The partitioners with token arithmetic (a table with width_bits): ByteOrderedPartitioner's
 * tokens are keys, so it has no layouts and no allocation (Cassandra has none either). */
static int number_partitioner(tokenring_partitioner p, const char *what, tokenring_error *err)
{
    const tr_partitioner_ops *ops = tr_partitioner_ops_of(p);
    if (!ops)
        return tr_fail(err, TOKENRING_E_INVAL, "unknown partitioner %d", (int)p);
    if (ops->width_bits == 0)
        return tr_fail(err, TOKENRING_E_UNSUPPORTED,
                       "%s has no %s (its tokens are keys; Cassandra has none either)",
                       tr_partitioner_short(p), what);
    return TOKENRING_OK;
}

/* Room for n tokens of p (n checked by the caller: 1 .. TOKENRING_LAYOUT_MAX_TOKENS). */
static void *token_array(tokenring_partitioner p, size_t n)
{
    return p == TOKENRING_PARTITIONER_RANDOM ? tr_calloc(n, sizeof(tokenring_token128))
                                             : tr_calloc(n, sizeof(int64_t));
}

static int list_of(tokenring_token_list **out, tokenring_partitioner p, const void *tokens,
                   size_t n, tokenring_error *err)
{
    bool wide = p == TOKENRING_PARTITIONER_RANDOM;
    return tr_token_list_of(out, p, wide ? NULL : tokens, wide ? tokens : NULL, n, err);
}

TOKENRING_API int tokenring_layout_even_tokens_text(tokenring_token_list **out,
                                                    tokenring_partitioner partitioner,
                                                    uint32_t num_tokens, uint32_t slot,
                                                    uint32_t slots, tokenring_error *err)
{
    if (!out)
        return tr_fail(err, TOKENRING_E_INVAL, "out is NULL");
    int rc = number_partitioner(partitioner, "even layout", err);
    if (rc != TOKENRING_OK)
        return rc;
    const tr_partitioner_ops *ops = tr_ops(partitioner);
    tr_even e;
    if (tr_even_init(&e, ops, num_tokens, slot, slots) != TOKENRING_OK)
        return tr_fail(err, TOKENRING_E_RANGE,
                       "num_tokens %u, slot %u, slots %u: num_tokens must be 1 .. %u, slots "
                       "at least 1 and slot below slots",
                       num_tokens, slot, slots, TOKENRING_LAYOUT_MAX_TOKENS);
    /* the table's stored form: the 64-bit keys, and the full values unless the key is
     * the token */
    int64_t *keys = tr_calloc(num_tokens, sizeof *keys);
    tokenring_token128 *v = ops->key_is_token ? NULL : tr_calloc(num_tokens, sizeof *v);
    if (!keys || (!ops->key_is_token && !v)) {
        tr_free(keys);
        tr_free(v);
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
    }
    for (uint32_t j = 0; j < num_tokens; j++) {
        tr_tok t = tr_even_tok(&e, j);
        keys[j] = t.key;
        if (v)
            v[j] = t.v128;
    }
    rc = tr_token_list_of(out, partitioner, keys, v, num_tokens, err);
    tr_free(keys);
    tr_free(v);
    return rc;
}

TOKENRING_API int tokenring_layout_seeded_tokens_text(tokenring_token_list **out,
                                                      tokenring_partitioner partitioner,
                                                      size_t count, uint64_t seed,
                                                      const char *identity,
                                                      const tokenring_topology *taken,
                                                      uint32_t flags, tokenring_error *err)
{
    if (!out)
        return tr_fail(err, TOKENRING_E_INVAL, "out is NULL");
    int rc = number_partitioner(partitioner, "seeded layout", err);
    if (rc != TOKENRING_OK)
        return rc;
    tokenring_token128 one;
    void *t = count >= 1 && count <= TOKENRING_LAYOUT_MAX_TOKENS ? token_array(partitioner, count)
                                                                : &one;
    if (!t)
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
    rc = partitioner == TOKENRING_PARTITIONER_RANDOM
             ? tokenring_layout_seeded_tokens128(t, count, seed, identity, taken, flags, err)
             : tokenring_layout_seeded_tokens(t, count, seed, identity, taken, flags, err);
    if (rc == TOKENRING_OK)
        rc = list_of(out, partitioner, t, count, err);
    if (t != &one)
        tr_free(t);
    return rc;
}

/* The allocators' estimate for one node (tokenring_allocate_nodes_limited()'s model over
 * the whole cluster's tokens): rf is the keyspace's factor in the datacenter or
 * local_rf, at least 1 and at most TOKENRING_MAX_RF. */
static uint64_t allocation_work(const tokenring_topology *topology, const char *datacenter,
                                uint32_t num_tokens, const tokenring_replication *keyspace,
                                int32_t local_rf)
{
    int32_t rf = local_rf, transient = 0;
    if (keyspace && tokenring_replication_dc_factor(&rf, &transient, keyspace, datacenter) !=
                        TOKENRING_OK)
        rf = 1;
    rf = rf < 1 ? 1 : rf > TOKENRING_MAX_RF ? TOKENRING_MAX_RF : rf;
    return tr_allocate_work(topology, NULL, num_tokens, 1, rf);
}

TOKENRING_API int tokenring_allocate_cassandra_text(
    tokenring_token_list **out, uint32_t num_tokens, const tokenring_topology *topology,
    const char *name, const char *datacenter, const char *rack,
    const tokenring_replication *keyspace, int32_t local_rf, const char *first_token,
    uint32_t release, uint32_t flags, tokenring_limits *limits, tokenring_error *err)
{
    if (limits)
        limits->estimate = 0;
    if (!out || !topology || !name || !datacenter || !rack)
        return tr_fail(err, TOKENRING_E_INVAL, "NULL argument to the Cassandra allocator");
    tokenring_partitioner p = tokenring_topology_partitioner(topology);
    int rc = number_partitioner(p, "token allocation", err);
    if (rc != TOKENRING_OK || (rc = tr_check_num_tokens(err, num_tokens, limits)) != TOKENRING_OK)
        return rc;
    tr_text_tokens first;
    void *t = NULL;
    if ((rc = tr_text_tokens_read(&first, p, first_token ? &first_token : NULL,
                                  first_token ? 1 : 0, err)) != TOKENRING_OK)
        return rc;
    if ((rc = tr_budget_check(limits,
                              allocation_work(topology, datacenter, num_tokens, keyspace,
                                              local_rf),
                              "Cassandra's token allocation", err)) != TOKENRING_OK)
        goto done;
    if (!(t = token_array(p, num_tokens))) {
        rc = tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
        goto done;
    }
    const tr_tok *f = first.t; /* NULL without a first token */
    rc = p == TOKENRING_PARTITIONER_RANDOM
             ? tr_allocate_cassandra128_lim(t, num_tokens, topology, name, datacenter, rack,
                                            keyspace, local_rf, f ? &f->v128 : NULL, release,
                                            flags, limits, err)
             : tr_allocate_cassandra_lim(t, num_tokens, topology, name, datacenter, rack,
                                         keyspace, local_rf, f ? &f->key : NULL, release,
                                         flags, limits, err);
    if (rc == TOKENRING_OK)
        rc = list_of(out, p, t, num_tokens, err);
done:
    tr_free(t);
    tr_text_tokens_free(&first);
    return rc;
}

TOKENRING_API int tokenring_allocate_join_text(
    tokenring_token_list **out, uint32_t num_tokens, const tokenring_topology *topology,
    const char *name, const char *datacenter, const char *rack,
    const tokenring_replication *keyspace, int32_t local_rf, uint32_t release,
    uint32_t flags, tokenring_limits *limits, tokenring_error *err)
{
    if (limits)
        limits->estimate = 0;
    if (!out || !topology)
        return tr_fail(err, TOKENRING_E_INVAL, "NULL argument to the allocator");
    tokenring_partitioner p = tokenring_topology_partitioner(topology);
    int rc = number_partitioner(p, "token allocation", err);
    if (rc != TOKENRING_OK || (rc = tr_check_num_tokens(err, num_tokens, limits)) != TOKENRING_OK)
        return rc;
    void *t = token_array(p, num_tokens);
    if (!t)
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
    bool wide = p == TOKENRING_PARTITIONER_RANDOM;
    rc = tokenring_allocate_join_limited(wide ? NULL : t, wide ? t : NULL, num_tokens, topology,
                                         name, datacenter, rack, keyspace, local_rf, release,
                                         flags, limits, err);
    if (rc == TOKENRING_OK)
        rc = list_of(out, p, t, num_tokens, err);
    tr_free(t);
    return rc;
}
