/* SPDX-License-Identifier: Apache-2.0 */
/* Migration plan for changing num_tokens through a new datacenter
 * (include/tokenring/analysis.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "layout_internal.h"
#include "tokenring/analysis.h"
#include "tokenring/layout.h"

typedef struct mg_node {
    char *name;
    char *rack;
    int64_t *tokens;
} mg_node;

struct tokenring_migration {
    mg_node *nodes;
    size_t node_count;
    uint32_t num_tokens;
    char **steps;
    size_t step_count, step_cap;
};

TOKENRING_API void tokenring_migration_free(tokenring_migration *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->node_count; i++) {
        tr_free(m->nodes[i].name);
        tr_free(m->nodes[i].rack);
        tr_free(m->nodes[i].tokens);
    }
    tr_free(m->nodes);
    for (size_t i = 0; i < m->step_count; i++)
        tr_free(m->steps[i]);
    tr_free(m->steps);
    tr_free(m);
}

TOKENRING_API size_t tokenring_migration_node_count(const tokenring_migration *m)
{
    return m ? m->node_count : 0;
}

TOKENRING_API int tokenring_migration_node(const char **name_out, const char **rack_out,
                                           const int64_t **tokens_out,
                                           size_t *token_count_out,
                                           const tokenring_migration *m, size_t index)
{
    if (!m)
        return TOKENRING_E_INVAL;
    if (index >= m->node_count)
        return TOKENRING_E_RANGE;
    if (name_out)
        *name_out = m->nodes[index].name;
    if (rack_out)
        *rack_out = m->nodes[index].rack;
    if (tokens_out)
        *tokens_out = m->nodes[index].tokens;
    if (token_count_out)
        *token_count_out = m->num_tokens;
    return TOKENRING_OK;
}

TOKENRING_API size_t tokenring_migration_step_count(const tokenring_migration *m)
{
    return m ? m->step_count : 0;
}

TOKENRING_API const char *tokenring_migration_step(const tokenring_migration *m, size_t index)
{
    if (!m || index >= m->step_count)
        return NULL;
    return m->steps[index];
}

/* Appends a formatted step; returns -1 on NOMEM. */
static int step(tokenring_migration *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int step(tokenring_migration *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return -1;
    char *s = tr_malloc((size_t)n + 1);
    if (!s)
        return -1;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    if (m->step_count == m->step_cap) {
        size_t nc = m->step_cap ? m->step_cap * 2 : 32;
        char **ns = tr_reallocarray(m->steps, nc, sizeof *ns);
        if (!ns) {
            tr_free(s);
            return -1;
        }
        m->steps = ns;
        m->step_cap = nc;
    }
    m->steps[m->step_count++] = s;
    return 0;
}

/* A copy of `r` as NetworkTopologyStrategy with `add_dc` set to `add_rf` (when add_dc is
 * not NULL) and `drop_dc` removed (when not NULL). A SimpleStrategy becomes
 * {old_dc: rf}. Formats it into a new string. */
static char *format_variant(const tokenring_replication *r, const char *old_dc,
                            const char *add_dc, int32_t add_rf, const char *drop_dc)
{
    tokenring_replication *n = NULL;
    if (tokenring_replication_network(&n) != TOKENRING_OK)
        return NULL;
    int rc = TOKENRING_OK;
    if (tokenring_replication_strategy(r) == TOKENRING_SIMPLE) {
        int32_t rf = 0, tr = 0;
        tokenring_replication_get(NULL, &rf, &tr, r, 0);
        if (!drop_dc || strcmp(drop_dc, old_dc) != 0)
            rc = tokenring_replication_set_dc(n, old_dc, rf, tr, NULL);
    } else {
        size_t c = tokenring_replication_dc_count(r);
        for (size_t i = 0; i < c && rc == TOKENRING_OK; i++) {
            const char *dc = NULL;
            int32_t rf = 0, tr = 0;
            tokenring_replication_get(&dc, &rf, &tr, r, i);
            if (drop_dc && strcmp(dc, drop_dc) == 0)
                continue;
            rc = tokenring_replication_set_dc(n, dc, rf, tr, NULL);
        }
    }
    if (rc == TOKENRING_OK && add_dc)
        rc = tokenring_replication_set_dc(n, add_dc, add_rf, 0, NULL);
    char *s = NULL;
    size_t len = 0;
    if (rc == TOKENRING_OK) {
        tokenring_replication_format(NULL, 0, &len, n);
        s = tr_malloc(len + 1);
        if (s && tokenring_replication_format(s, len + 1, &len, n) != TOKENRING_OK) {
            tr_free(s);
            s = NULL;
        }
    }
    tokenring_replication_free(n);
    return s;
}

static int plan(tokenring_migration **out, const tokenring_topology *topology,
                const char *old_datacenter, const char *new_datacenter,
                const char *const *node_names, const char *const *racks, size_t node_count,
                uint32_t num_tokens, int32_t rf, const char *const *keyspaces,
                const tokenring_replication *const *replications, size_t keyspace_count,
                tr_progress *pg, tokenring_error *err)
{
    if (!out || !topology || !old_datacenter || !new_datacenter || !node_names || !racks ||
        (keyspace_count && (!keyspaces || !replications)))
        return tr_fail(err, TOKENRING_E_INVAL, "NULL argument to a migration plan");
    if (tokenring_topology_partitioner(topology) != TOKENRING_PARTITIONER_MURMUR3)
        return tr_fail(err, TOKENRING_E_UNSUPPORTED,
                       "migration plans work on Murmur3 topologies only (so far)");
    int rc;
    if ((rc = tr_check_name(err, "datacenter name", old_datacenter)) ||
        (rc = tr_check_name(err, "datacenter name", new_datacenter)))
        return rc;
    if ((rc = tr_check_plan_shape(err, num_tokens, rf)) != TOKENRING_OK)
        return rc;
    if (node_count < (size_t)rf)
        return tr_fail(err, TOKENRING_E_IMPOSSIBLE,
                       "%zu new nodes cannot hold replication factor %d in datacenter '%s'",
                       node_count, rf, new_datacenter);
    size_t tn = tokenring_topology_node_count(topology), old_nodes = 0;
    uint32_t old_tokens = 0;
    for (size_t i = 0; i < tn; i++) {
        tokenring_node_info info;
        tokenring_topology_node(&info, topology, i);
        if (strcmp(info.datacenter, old_datacenter) == 0) {
            old_nodes++;
            if (info.token_count > old_tokens)
                old_tokens = (uint32_t)info.token_count;
        }
        if (strcmp(info.datacenter, new_datacenter) == 0)
            return tr_fail(err, TOKENRING_E_EXISTS, "datacenter '%s' already exists",
                           new_datacenter);
    }
    if (old_nodes == 0)
        return tr_fail(err, TOKENRING_E_NOTFOUND, "datacenter '%s' has no node",
                       old_datacenter);
    for (size_t i = 0; i < node_count; i++) {
        size_t idx;
        if ((rc = tr_check_name(err, "node name", node_names[i])) ||
            (rc = tr_check_name(err, "rack name", racks[i])))
            return rc;
        if (tokenring_topology_find_node(&idx, topology, node_names[i]) == TOKENRING_OK)
            return tr_fail(err, TOKENRING_E_EXISTS, "node '%s' already exists",
                           node_names[i]);
        for (size_t j = 0; j < i; j++)
            if (strcmp(node_names[i], node_names[j]) == 0)
                return tr_fail(err, TOKENRING_E_EXISTS, "node name '%s' is given twice",
                               node_names[i]);
    }
    for (size_t i = 0; i < keyspace_count; i++) {
        if (!keyspaces[i] || !keyspaces[i][0] || !replications[i])
            return tr_fail(err, TOKENRING_E_INVAL, "keyspace %zu has no name or replication",
                           i);
    }

    tokenring_migration *m = tr_calloc(1, sizeof *m);
    tokenring_topology *copy = NULL;
    int64_t *rest = NULL;
    const char **rest_racks = NULL;
    size_t *rest_idx = NULL;
    const char **rack_list = NULL;
    size_t *first_rack = NULL;
    if (!m)
        goto nomem;
    m->num_tokens = num_tokens;
    m->nodes = tr_calloc(node_count, sizeof *m->nodes);
    rack_list = tr_calloc(node_count, sizeof *rack_list);
    rest_racks = tr_calloc(node_count, sizeof *rest_racks);
    rest_idx = tr_calloc(node_count, sizeof *rest_idx);
    first_rack = tr_calloc(node_count, sizeof *first_rack);
    if (!m->nodes || !rack_list || !rest_racks || !rest_idx || !first_rack)
        goto nomem;
    for (size_t i = 0; i < node_count; i++) {
        mg_node *n = &m->nodes[i];
        m->node_count++; /* counted first: a half-made node (zeroed) is freed too */
        if (!(n->name = tr_strdup(node_names[i])) || !(n->rack = tr_strdup(racks[i])) ||
            !(n->tokens = tr_calloc(num_tokens, sizeof *n->tokens)))
            goto nomem;
    }
    /* Racks in order of first appearance; first_rack[i]: the rack index when node i is
     * the first node of its rack, else SIZE_MAX. */
    size_t K = 0;
    for (size_t i = 0; i < node_count; i++) {
        size_t r;
        for (r = 0; r < K; r++)
            if (strcmp(rack_list[r], racks[i]) == 0)
                break;
        first_rack[i] = r == K ? r : SIZE_MAX;
        if (r == K)
            rack_list[K++] = racks[i];
    }
    if ((rc = tokenring_topology_clone(&copy, topology)) != TOKENRING_OK)
        goto nomem;
    if (pg && (rc = tr_progress_report(pg, "migration plan", err)) != TOKENRING_OK)
        goto fail;
    /* First node of each rack: evenly spaced, rack i offset by i * step / racks. */
    size_t nrest = 0;
    for (size_t i = 0; i < node_count; i++) {
        size_t r = first_rack[i];
        if (r == SIZE_MAX) {
            rest_racks[nrest] = racks[i];
            rest_idx[nrest++] = i;
            continue;
        }
        int64_t *t = m->nodes[i].tokens;
        tr_layout_even(t, num_tokens, (uint32_t)r, (uint32_t)K);
        /* Step off tokens already taken (other datacenters). */
        for (uint32_t k = 0; k < num_tokens; k++) {
            for (;;) {
                bool clash = false;
                for (size_t q = 0; q < tokenring_topology_node_count(copy) && !clash; q++) {
                    tokenring_node_info info;
                    tokenring_topology_node(&info, copy, q);
                    int64_t key = t[k];
                    const int64_t *lo = info.tokens;
                    size_t nlo = info.token_count;
                    while (nlo > 0) { /* tokens are ascending */
                        size_t h = nlo / 2;
                        if (lo[h] < key) {
                            lo += h + 1;
                            nlo -= h + 1;
                        } else {
                            nlo = h;
                        }
                    }
                    clash = lo < info.tokens + info.token_count && *lo == key;
                }
                if (!clash)
                    break;
                t[k] = (int64_t)((uint64_t)t[k] + 1);
            }
        }
        tokenring_error e2;
        rc = tokenring_topology_add_node(copy, node_names[i], new_datacenter, racks[i], t,
                                         num_tokens, &e2);
        if (rc != TOKENRING_OK) {
            rc = tr_fail(err, rc, "%s", e2.message);
            goto fail;
        }
    }
    if (nrest > 0) {
        rest = tr_calloc(nrest * (size_t)num_tokens, sizeof *rest);
        if (!rest)
            goto nomem;
        rc = tr_allocate_nodes(rest, num_tokens, copy, new_datacenter, rest_racks, nrest, rf,
                               0, pg, err);
        if (rc != TOKENRING_OK)
            goto fail;
        for (size_t i = 0; i < nrest; i++)
            memcpy(m->nodes[rest_idx[i]].tokens, rest + i * num_tokens,
                   num_tokens * sizeof *rest);
    }

    /* Steps. */
#define STEP(...)                       \
    do {                                \
        if (step(m, __VA_ARGS__))       \
            goto nomem;                 \
    } while (0)
    STEP("# Change num_tokens from %u to %u by replacing datacenter '%s' (%zu nodes) with "
         "new datacenter '%s' (%zu nodes, replication factor %d)",
         old_tokens, num_tokens, old_datacenter, old_nodes, new_datacenter, node_count, rf);
    for (size_t i = 0; i < node_count; i++) {
        size_t len = 0;
        for (uint32_t k = 0; k < num_tokens; k++) {
            char buf[32];
            len += (size_t)snprintf(buf, sizeof buf, "%lld,",
                                    (long long)m->nodes[i].tokens[k]);
        }
        char *list = tr_malloc(len + 1);
        if (!list)
            goto nomem;
        size_t pos = 0;
        for (uint32_t k = 0; k < num_tokens; k++)
            pos += (size_t)snprintf(list + pos, len + 1 - pos, k ? ",%lld" : "%lld",
                                    (long long)m->nodes[i].tokens[k]);
        int s = step(m,
                     "on %s: cassandra-rackdc.properties dc=%s rack=%s; cassandra.yaml "
                     "num_tokens: %u, initial_token: %s, auto_bootstrap: false; start the "
                     "node",
                     node_names[i], new_datacenter, racks[i], num_tokens, list);
        tr_free(list);
        if (s)
            goto nomem;
    }
    for (size_t i = 0; i < keyspace_count; i++) {
        if (tokenring_replication_strategy(replications[i]) == TOKENRING_SIMPLE) {
            char *r = format_variant(replications[i], old_datacenter, NULL, 0, NULL);
            if (!r)
                goto nomem;
            int s = step(m, "cqlsh: ALTER KEYSPACE %s WITH replication = %s;", keyspaces[i], r);
            tr_free(r);
            if (s)
                goto nomem;
        }
        char *r = format_variant(replications[i], old_datacenter, new_datacenter, rf, NULL);
        if (!r)
            goto nomem;
        int s = step(m, "cqlsh: ALTER KEYSPACE %s WITH replication = %s;", keyspaces[i], r);
        tr_free(r);
        if (s)
            goto nomem;
    }
    for (size_t i = 0; i < node_count; i++)
        STEP("on %s: nodetool rebuild -- %s", node_names[i], old_datacenter);
    STEP("clients: switch to local datacenter '%s' (DC-aware load balancing, LOCAL_* "
         "consistency levels) and wait until no request reaches '%s'",
         new_datacenter, old_datacenter);
    for (size_t i = 0; i < keyspace_count; i++) {
        /* Drop the old datacenter, keep the new one (it now holds the data). */
        char *r = format_variant(replications[i], old_datacenter, new_datacenter, rf,
                                 old_datacenter);
        if (!r)
            goto nomem;
        int s = step(m, "cqlsh: ALTER KEYSPACE %s WITH replication = %s;", keyspaces[i], r);
        tr_free(r);
        if (s)
            goto nomem;
    }
    for (size_t i = 0; i < tn; i++) {
        tokenring_node_info info;
        tokenring_topology_node(&info, topology, i);
        if (strcmp(info.datacenter, old_datacenter) == 0)
            STEP("on %s: nodetool decommission", info.name);
    }
#undef STEP
    tokenring_topology_free(copy);
    tr_free(rest);
    tr_free(rest_racks);
    tr_free(rest_idx);
    tr_free(rack_list);
    tr_free(first_rack);
    if (pg) {
        pg->total = pg->done;
        (void)tr_progress_report(pg, "migration plan", NULL); /* the end: too late to stop */
    }
    *out = m;
    return TOKENRING_OK;
nomem:
    rc = tr_fail(err, TOKENRING_E_NOMEM, "out of memory planning a migration");
fail:
    tokenring_topology_free(copy);
    tr_free(rest);
    tr_free(rest_racks);
    tr_free(rest_idx);
    tr_free(rack_list);
    tr_free(first_rack);
    tokenring_migration_free(m);
    return rc;
}

/* The budget at the entry: the allocator's cost model for the new datacenter's nodes
 * (its first node per rack is laid out evenly, so this bounds it) and the num_tokens cap.
 * Bad arguments are left to plan(), which names them. */
static int budget_entry(const tokenring_topology *topology, const char *new_datacenter,
                        size_t node_count, uint32_t num_tokens, int32_t rf,
                        tokenring_limits *lim, tokenring_error *err)
{
    if (lim)
        lim->estimate = 0;
    if (!topology || !new_datacenter || rf < 1 || rf > TOKENRING_MAX_RF)
        return TOKENRING_OK;
    int rc = tr_check_num_tokens(err, num_tokens, lim);
    if (rc != TOKENRING_OK)
        return rc;
    return tr_budget_check(lim,
                           tr_allocate_work(topology, new_datacenter, num_tokens, node_count, rf),
                           "migration plan", err);
}

TOKENRING_API int tokenring_migration_plan_limited(
    tokenring_migration **out, const tokenring_topology *topology, const char *old_datacenter,
    const char *new_datacenter, const char *const *node_names, const char *const *racks,
    size_t node_count, uint32_t num_tokens, int32_t rf, const char *const *keyspaces,
    const tokenring_replication *const *replications, size_t keyspace_count,
    tokenring_limits *limits, tokenring_error *err)
{
    int rc = budget_entry(topology, new_datacenter, node_count, num_tokens, rf, limits, err);
    if (rc != TOKENRING_OK)
        return rc;
    tr_progress pg = { limits ? limits->progress : NULL, limits ? limits->user : NULL, 0, 0, 0 };
    return plan(out, topology, old_datacenter, new_datacenter, node_names, racks, node_count,
                num_tokens, rf, keyspaces, replications, keyspace_count, pg.fn ? &pg : NULL,
                err);
}

TOKENRING_API int tokenring_migration_plan(tokenring_migration **out,
                                           const tokenring_topology *topology,
                                           const char *old_datacenter,
                                           const char *new_datacenter,
                                           const char *const *node_names,
                                           const char *const *racks, size_t node_count,
                                           uint32_t num_tokens, int32_t rf,
                                           const char *const *keyspaces,
                                           const tokenring_replication *const *replications,
                                           size_t keyspace_count, tokenring_error *err)
{
    return tokenring_migration_plan_limited(out, topology, old_datacenter, new_datacenter,
                                            node_names, racks, node_count, num_tokens, rf,
                                            keyspaces, replications, keyspace_count, NULL, err);
}

TOKENRING_API int tokenring_migration_plan_progress(
    tokenring_migration **out, const tokenring_topology *topology, const char *old_datacenter,
    const char *new_datacenter, const char *const *node_names, const char *const *racks,
    size_t node_count, uint32_t num_tokens, int32_t rf, const char *const *keyspaces,
    const tokenring_replication *const *replications, size_t keyspace_count,
    tokenring_progress_fn progress, void *user, tokenring_error *err)
{
    tokenring_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.progress = progress;
    lim.user = user;
    return tokenring_migration_plan_limited(out, topology, old_datacenter, new_datacenter,
                                            node_names, racks, node_count, num_tokens, rf,
                                            keyspaces, replications, keyspace_count, &lim, err);
}
