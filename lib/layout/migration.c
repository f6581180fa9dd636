/* SPDX-License-Identifier: Apache-2.0 */
/* Migration plan for changing num_tokens through a new datacenter
 * (include/tokenring/migration.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "layout_internal.h"
#include "tokenring/allocate.h"
#include "tokenring/layout.h"
#include "tokenring/migration.h"

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

/* What the plan does to one keyspace: its factor in the old datacenter (0: it has no
 * replica there and is left as it is) and the one the new datacenter gets. */
typedef struct mg_keyspace {
    int32_t old_rf, old_tr;
    int32_t new_rf, new_tr;
    bool simple; /* SimpleStrategy (one-datacenter cluster): made NTS before anything */
} mg_keyspace;

/* A copy of `r` as NetworkTopologyStrategy, every datacenter it lists kept as it is, with
 * `add_dc` set to add_rf/add_tr (when add_dc is not NULL) and `drop_dc` removed (when not
 * NULL; with zero_drop kept at factor 0 instead). A SimpleStrategy (only ever seen in a one-datacenter cluster, whose every
 * replica is in old_dc) becomes {old_dc: its factor}. Formats it into a new string. */
static char *format_variant(const tokenring_replication *r, const char *old_dc,
                            const char *add_dc, int32_t add_rf, int32_t add_tr,
                            const char *drop_dc, bool zero_drop)
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
        else if (zero_drop)
            rc = tokenring_replication_set_dc(n, old_dc, 0, 0, NULL);
    } else {
        size_t c = tokenring_replication_dc_count(r);
        for (size_t i = 0; i < c && rc == TOKENRING_OK; i++) {
            const char *dc = NULL;
            int32_t rf = 0, tr = 0;
            tokenring_replication_get(&dc, &rf, &tr, r, i);
            if (drop_dc && strcmp(dc, drop_dc) == 0) {
                if (zero_drop)
                    rc = tokenring_replication_set_dc(n, dc, 0, 0, NULL);
                continue;
            }
            rc = tokenring_replication_set_dc(n, dc, rf, tr, NULL);
        }
    }
    if (rc == TOKENRING_OK && add_dc)
        rc = tokenring_replication_set_dc(n, add_dc, add_rf, add_tr, NULL);
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

/* A keyspace name as CQL reads it back: as it is when an unquoted identifier gives the
 * same name (a lower-case letter, then lower-case letters, digits and '_'; unquoted
 * identifiers are folded to lower case), else in double quotes ("" for a quote). */
static void cql_name(char out[2 * TOKENRING_MAX_NAME + 3], const char *name)
{
    bool plain = *name >= 'a' && *name <= 'z';
    for (const char *c = name; plain && *c; c++)
        plain = (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_';
    size_t o = 0;
    if (!plain)
        out[o++] = '"';
    for (const char *c = name; *c && o < 2 * TOKENRING_MAX_NAME; c++) {
        if (*c == '"' && !plain)
            out[o++] = '"';
        out[o++] = *c;
    }
    if (!plain)
        out[o++] = '"';
    out[o] = '\0';
}

/* A factor as the steps write it: "3", or "3/1" with transient replicas. */
static void factor_text(char out[32], int32_t rf, int32_t tr)
{
    if (tr > 0)
        snprintf(out, 32, "%d/%d", rf, tr);
    else
        snprintf(out, 32, "%d", rf);
}

/* Appends "name factor" of every keyspace the plan changes, ", "-separated; NULL on
 * NOMEM. */
static char *factor_list(const char *const *keyspaces, const mg_keyspace *k, size_t count,
                         bool old_side)
{
    size_t cap = 1;
    for (size_t i = 0; i < count; i++)
        cap += strlen(keyspaces[i]) + 2 * TOKENRING_MAX_NAME + 40;
    char *s = tr_malloc(cap);
    if (!s)
        return NULL;
    size_t pos = 0;
    s[0] = '\0';
    for (size_t i = 0; i < count; i++) {
        if (k[i].old_rf == 0)
            continue;
        char f[32];
        factor_text(f, old_side ? k[i].old_rf : k[i].new_rf, old_side ? k[i].old_tr : k[i].new_tr);
        pos += (size_t)snprintf(s + pos, cap - pos, "%s%s %s", pos ? ", " : "", keyspaces[i], f);
    }
    return s;
}

/* The state of one plan() call: its arguments, what it read of the cluster, the plan
 * being made with each keyspace's factors, the new nodes' racks, the copy of the cluster
 * their tokens are chosen in, and the scratch of the steps. Zeroed to start, then the
 * arguments; mig_free() releases all of it but the plan. */
typedef struct mig_state {
    const tokenring_topology *topology;
    const char *old_datacenter, *new_datacenter;
    const char *const *node_names, *const *racks;
    size_t node_count;
    uint32_t num_tokens;
    int32_t rf;
    const char *const *keyspaces;
    const tokenring_replication *const *replications;
    size_t keyspace_count;
    tr_progress *pg;
    tokenring_error *err;
    size_t tn, old_nodes, dcs; /* the cluster's nodes, the old datacenter's, datacenters */
    uint32_t old_tokens;       /* the old datacenter's largest token count */
    int32_t alloc_rf;          /* the factor the new tokens are balanced for */
    size_t simple;             /* SimpleStrategy keyspaces with replicas to move */
    tokenring_migration *m;
    mg_keyspace *ks;
    tokenring_topology *copy;
    int64_t *rest;
    const char **rest_racks;
    size_t *rest_idx;
    const char **rack_list;
    size_t *first_rack;
    size_t K; /* racks of the new nodes */
    char *list;
} mig_state;

static int mg_nomem(tokenring_error *err)
{
    return tr_fail(err, TOKENRING_E_NOMEM, "out of memory planning a migration");
}

static void mig_free(mig_state *st)
{
    tr_free(st->list);
    tokenring_topology_free(st->copy);
    tr_free(st->ks);
    tr_free(st->rest);
    tr_free(st->rest_racks);
    tr_free(st->rest_idx);
    tr_free(st->rack_list);
    tr_free(st->first_rack);
}

/* The arguments, and what the plan reads of the cluster: the old datacenter's nodes
 * and largest token count, the number of datacenters. */
static int mig_check(mig_state *st, tokenring_migration **out)
{
    const tokenring_topology *topology = st->topology;
    const char *old_datacenter = st->old_datacenter;
    const char *new_datacenter = st->new_datacenter;
    const char *const *node_names = st->node_names;
    const char *const *racks = st->racks;
    size_t node_count = st->node_count;
    uint32_t num_tokens = st->num_tokens;
    int32_t rf = st->rf;
    const char *const *keyspaces = st->keyspaces;
    const tokenring_replication *const *replications = st->replications;
    size_t keyspace_count = st->keyspace_count;
    tokenring_error *err = st->err;
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
    /* rf 0: each keyspace keeps its factor (checked below, once the keyspaces are read) */
    if (rf == 0 && keyspace_count == 0)
        return tr_fail(err, TOKENRING_E_RANGE,
                       "replication factor 0 keeps each keyspace's factor, but no keyspace "
                       "is given");
    if ((rc = tr_check_plan_shape(err, num_tokens, rf ? rf : 1)) != TOKENRING_OK)
        return rc;
    size_t tn = tokenring_topology_node_count(topology), old_nodes = 0, dcs = 0;
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
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++) {
            tokenring_node_info other;
            tokenring_topology_node(&other, topology, j);
            seen = strcmp(other.datacenter, info.datacenter) == 0;
        }
        dcs += !seen;
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
        /* SimpleStrategy places replicas ring-wide: in a cluster of several datacenters
         * it has no factor per datacenter that a plan could keep */
        if (dcs > 1 && tokenring_replication_strategy(replications[i]) == TOKENRING_SIMPLE)
            return tr_fail(err, TOKENRING_E_UNSUPPORTED,
                           "keyspace '%s' uses SimpleStrategy, which places replicas "
                           "ring-wide over %zu datacenters, with no factor per datacenter to "
                           "keep: make it NetworkTopologyStrategy first",
                           keyspaces[i], dcs);
    }
    st->tn = tn;
    st->old_nodes = old_nodes;
    st->old_tokens = old_tokens;
    st->dcs = dcs;
    return TOKENRING_OK;
}

/* Each keyspace's factor in the old datacenter and in the new one; the factor the new
 * datacenter's tokens are balanced for: rf, else the largest it takes. */
static int mig_factors(mig_state *st)
{
    mg_keyspace *ks = st->ks;
    const char *old_datacenter = st->old_datacenter;
    const char *new_datacenter = st->new_datacenter;
    size_t node_count = st->node_count;
    uint32_t num_tokens = st->num_tokens;
    int32_t rf = st->rf;
    const char *const *keyspaces = st->keyspaces;
    const tokenring_replication *const *replications = st->replications;
    size_t keyspace_count = st->keyspace_count;
    tokenring_error *err = st->err;
    int32_t alloc_rf = rf;
    size_t simple = 0;
    for (size_t i = 0; i < keyspace_count; i++) {
        mg_keyspace *k = &ks[i];
        tokenring_replication_dc_factor(&k->old_rf, &k->old_tr, replications[i],
                                        old_datacenter);
        if (k->old_rf == 0)
            continue;
        k->simple = tokenring_replication_strategy(replications[i]) == TOKENRING_SIMPLE;
        simple += k->simple;
        k->new_rf = rf ? rf : k->old_rf;
        k->new_tr = rf ? 0 : k->old_tr;
        if (!rf && k->new_rf > alloc_rf)
            alloc_rf = k->new_rf;
        if (k->new_tr > 0 && num_tokens > 1) {
            /* AlterKeyspaceStatement: "Transient replication is not supported with vnodes
             * yet" (Cassandra 4.0 to 5.0) */
            return tr_fail(err, TOKENRING_E_UNSUPPORTED,
                           "keyspace '%s' has %d transient replica%s in datacenter '%s': "
                           "Cassandra supports transient replication without vnodes only "
                           "(num_tokens 1), not with num_tokens %u",
                           keyspaces[i], k->new_tr, k->new_tr == 1 ? "" : "s", old_datacenter,
                           num_tokens);
        }
        if ((size_t)k->new_rf > node_count)
            return tr_fail(err, TOKENRING_E_IMPOSSIBLE,
                           "%zu new nodes cannot hold keyspace '%s''s replication factor %d in "
                           "datacenter '%s'",
                           node_count, keyspaces[i], k->new_rf, new_datacenter);
    }
    if (alloc_rf == 0)
        return tr_fail(err, TOKENRING_E_EMPTY,
                       "no keyspace given has a replica in datacenter '%s': nothing to move",
                       old_datacenter);
    if (node_count < (size_t)alloc_rf)
        return tr_fail(err, TOKENRING_E_IMPOSSIBLE,
                       "%zu new nodes cannot hold replication factor %d in datacenter '%s'",
                       node_count, alloc_rf, new_datacenter);
    st->alloc_rf = alloc_rf;
    st->simple = simple;
    return TOKENRING_OK;
}

/* The new nodes with their names and racks, the racks in order of first appearance, and
 * the copy of the cluster the tokens are chosen in. */
static int mig_nodes(mig_state *st)
{
    tokenring_migration *m = st->m;
    const tokenring_topology *topology = st->topology;
    const char *const *node_names = st->node_names;
    const char *const *racks = st->racks;
    size_t node_count = st->node_count;
    uint32_t num_tokens = st->num_tokens;
    tr_progress *pg = st->pg;
    tokenring_error *err = st->err;
    m->num_tokens = num_tokens;
    m->nodes = tr_calloc(node_count, sizeof *m->nodes);
    const char **rack_list = st->rack_list = tr_calloc(node_count, sizeof *rack_list);
    st->rest_racks = tr_calloc(node_count, sizeof *st->rest_racks);
    st->rest_idx = tr_calloc(node_count, sizeof *st->rest_idx);
    size_t *first_rack = st->first_rack = tr_calloc(node_count, sizeof *first_rack);
    if (!m->nodes || !rack_list || !st->rest_racks || !st->rest_idx || !first_rack)
        return mg_nomem(err);
    for (size_t i = 0; i < node_count; i++) {
        mg_node *n = &m->nodes[i];
        m->node_count++; /* counted first: a half-made node (zeroed) is freed too */
        if (!(n->name = tr_strdup(node_names[i])) || !(n->rack = tr_strdup(racks[i])) ||
            !(n->tokens = tr_calloc(num_tokens, sizeof *n->tokens)))
            return mg_nomem(err);
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
    st->K = K;
    if (tokenring_topology_clone(&st->copy, topology) != TOKENRING_OK)
        return mg_nomem(err);
    if (pg)
        return tr_progress_report(pg, "migration plan", err);
    return TOKENRING_OK;
}

/* The tokens: the first node of each rack evenly spaced, rack i offset by i * step /
 * racks, off the tokens of other datacenters; the others by the allocator. */
static int mig_tokens(mig_state *st)
{
    tokenring_migration *m = st->m;
    const char *new_datacenter = st->new_datacenter;
    const char *const *node_names = st->node_names;
    const char *const *racks = st->racks;
    size_t node_count = st->node_count;
    uint32_t num_tokens = st->num_tokens;
    tr_progress *pg = st->pg;
    tokenring_error *err = st->err;
    int32_t alloc_rf = st->alloc_rf;
    const char **rest_racks = st->rest_racks;
    size_t *rest_idx = st->rest_idx;
    size_t *first_rack = st->first_rack;
    size_t K = st->K;
    tokenring_topology *copy = st->copy;
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
        int rc = tokenring_topology_add_node(copy, node_names[i], new_datacenter, racks[i], t,
                                             num_tokens, &e2);
        if (rc != TOKENRING_OK)
            return tr_fail(err, rc, "%s", e2.message);
    }
    if (nrest > 0) {
        int64_t *rest = st->rest = tr_calloc(nrest * (size_t)num_tokens, sizeof *rest);
        if (!rest)
            return mg_nomem(err);
        int rc = tr_allocate_nodes(rest, num_tokens, copy, new_datacenter, rest_racks, nrest,
                                   alloc_rf, 0, pg, err);
        if (rc != TOKENRING_OK)
            return rc;
        for (size_t i = 0; i < nrest; i++)
            memcpy(m->nodes[rest_idx[i]].tokens, rest + i * num_tokens,
                   num_tokens * sizeof *rest);
    }
    return TOKENRING_OK;
}

/* The steps of a plan, in mig_steps_*(): each adds one line to m; out of memory returns
 * from the function. ALTER: ALTER KEYSPACE k WITH replication = variant; */
#define STEP(...)                           \
    do {                                    \
        if (step(m, __VA_ARGS__))           \
            return mg_nomem(err);           \
    } while (0)
#define ALTER(i, add_dc, add_rf, add_tr, drop_dc, zero)                                    \
    do {                                                                                   \
        char q_[2 * TOKENRING_MAX_NAME + 3];                                               \
        char *r_ = format_variant(replications[i], old_datacenter, add_dc, add_rf, add_tr, \
                                  drop_dc, zero);                                          \
        if (!r_)                                                                           \
            return mg_nomem(err);                                                          \
        cql_name(q_, keyspaces[i]);                                                        \
        int s_ = step(m, "cqlsh: ALTER KEYSPACE %s WITH replication = %s;", q_, r_);       \
        tr_free(r_);                                                                       \
        if (s_)                                                                            \
            return mg_nomem(err);                                                          \
    } while (0)

/* The steps before the new nodes start: what the plan does, the clients pinned, the
 * SimpleStrategy keyspaces made NetworkTopologyStrategy. */
static int mig_steps_before(mig_state *st)
{
    tokenring_migration *m = st->m;
    mg_keyspace *ks = st->ks;
    const tokenring_topology *topology = st->topology;
    const char *old_datacenter = st->old_datacenter;
    const char *new_datacenter = st->new_datacenter;
    size_t node_count = st->node_count;
    uint32_t num_tokens = st->num_tokens;
    int32_t rf = st->rf;
    const char *const *keyspaces = st->keyspaces;
    const tokenring_replication *const *replications = st->replications;
    size_t keyspace_count = st->keyspace_count;
    tokenring_error *err = st->err;
    size_t tn = st->tn;
    size_t old_nodes = st->old_nodes;
    uint32_t old_tokens = st->old_tokens;
    size_t dcs = st->dcs;
    int32_t alloc_rf = st->alloc_rf;
    size_t simple = st->simple;
    size_t old_racks = 0;
    for (size_t i = 0; i < tn; i++) {
        tokenring_node_info info;
        tokenring_topology_node(&info, topology, i);
        if (strcmp(info.datacenter, old_datacenter) != 0)
            continue;
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++) {
            tokenring_node_info other;
            tokenring_topology_node(&other, topology, j);
            seen = strcmp(other.datacenter, old_datacenter) == 0 &&
                   strcmp(other.rack, info.rack) == 0;
        }
        old_racks += !seen;
    }
    STEP("# Change num_tokens from %u to %u by replacing datacenter '%s' (%zu nodes) with "
         "new datacenter '%s' (%zu nodes, tokens balanced for replication factor %d)",
         old_tokens, num_tokens, old_datacenter, old_nodes, new_datacenter, node_count,
         alloc_rf);
    char *list = st->list = factor_list(keyspaces, ks, keyspace_count, rf == 0);
    if (!list)
        return mg_nomem(err);
    if (rf == 0) {
        STEP("# Replication in '%s': each keyspace keeps its factor of '%s' (%s)",
             new_datacenter, old_datacenter, list);
    } else {
        char *was = factor_list(keyspaces, ks, keyspace_count, true);
        if (!was)
            return mg_nomem(err);
        int s = step(m, "# Replication in '%s': factor %d for every keyspace with replicas in "
                        "'%s', as asked (their factors in '%s': %s)",
                     new_datacenter, rf, old_datacenter, old_datacenter, was);
        tr_free(was);
        if (s)
            return mg_nomem(err);
    }
    tr_free(st->list);
    st->list = NULL;
    for (size_t i = 0; i < keyspace_count; i++)
        if (ks[i].old_rf == 0)
            STEP("# Keyspace %s has no replica in '%s': left as it is", keyspaces[i],
                 old_datacenter);
    if (dcs > 1)
        STEP("# Every datacenter but '%s' keeps its replicas as they are", old_datacenter);
    STEP("clients: before any change, pin every client of '%s' to it: a DC-aware "
         "load-balancing policy with local datacenter '%s', and LOCAL_ONE / LOCAL_QUORUM "
         "instead of ONE, QUORUM, ALL or EACH_QUORUM (clients of another datacenter to "
         "theirs), so that no request waits on '%s' while it has no data",
         old_datacenter, old_datacenter, new_datacenter);
    if (simple > 0) {
        STEP("# SimpleStrategy keyspaces become NetworkTopologyStrategy with the same factor "
             "in '%s' before the new nodes start: SimpleStrategy would make them replicas "
             "at once, without data",
             old_datacenter);
        for (size_t i = 0; i < keyspace_count; i++) {
            if (!ks[i].simple)
                continue;
            ALTER(i, NULL, 0, 0, NULL, false);
            if (old_racks > 1 && ks[i].old_rf > 1) {
                char q[2 * TOKENRING_MAX_NAME + 3];
                cql_name(q, keyspaces[i]);
                STEP("on each node of '%s' in turn: nodetool repair -full %s "
                     "(NetworkTopologyStrategy places the replicas on %zu racks, "
                     "SimpleStrategy ignored them)",
                     old_datacenter, q, old_racks);
            }
        }
    }
    return TOKENRING_OK;
}

/* The new nodes started, the keyspaces replicated to them, rebuilt and repaired, the
 * clients moved, the old datacenter dropped and decommissioned. */
static int mig_steps_move(mig_state *st)
{
    tokenring_migration *m = st->m;
    mg_keyspace *ks = st->ks;
    const tokenring_topology *topology = st->topology;
    const char *old_datacenter = st->old_datacenter;
    const char *new_datacenter = st->new_datacenter;
    const char *const *node_names = st->node_names;
    const char *const *racks = st->racks;
    size_t node_count = st->node_count;
    uint32_t num_tokens = st->num_tokens;
    const char *const *keyspaces = st->keyspaces;
    const tokenring_replication *const *replications = st->replications;
    size_t keyspace_count = st->keyspace_count;
    tokenring_error *err = st->err;
    size_t tn = st->tn;
    for (size_t i = 0; i < node_count; i++) {
        size_t len = 0;
        for (uint32_t k = 0; k < num_tokens; k++) {
            char buf[32];
            len += (size_t)snprintf(buf, sizeof buf, "%lld,",
                                    (long long)m->nodes[i].tokens[k]);
        }
        char *list = st->list = tr_malloc(len + 1);
        if (!list)
            return mg_nomem(err);
        size_t pos = 0;
        for (uint32_t k = 0; k < num_tokens; k++)
            pos += (size_t)snprintf(list + pos, len + 1 - pos, k ? ",%lld" : "%lld",
                                    (long long)m->nodes[i].tokens[k]);
        int s = step(m,
                     "on %s: cassandra-rackdc.properties dc=%s rack=%s; cassandra.yaml "
                     "num_tokens: %u, initial_token: %s, auto_bootstrap: false; start the "
                     "node",
                     node_names[i], new_datacenter, racks[i], num_tokens, list);
        tr_free(st->list);
        st->list = NULL;
        if (s)
            return mg_nomem(err);
    }
    for (size_t i = 0; i < keyspace_count; i++)
        if (ks[i].old_rf > 0)
            ALTER(i, new_datacenter, ks[i].new_rf, ks[i].new_tr, NULL, false);
    for (size_t i = 0; i < node_count; i++)
        STEP("on %s: nodetool rebuild -- %s", node_names[i], old_datacenter);
    for (size_t i = 0; i < keyspace_count; i++) {
        if (ks[i].old_rf == 0)
            continue;
        char q[2 * TOKENRING_MAX_NAME + 3];
        cql_name(q, keyspaces[i]);
        STEP("on each node of '%s' in turn, once every rebuild has finished: nodetool repair "
             "-full %s",
             new_datacenter, q);
    }
    STEP("clients: switch the clients of '%s' to local datacenter '%s' (DC-aware load "
         "balancing, LOCAL_* consistency levels) and wait until no request reaches '%s'",
         old_datacenter,
         new_datacenter, old_datacenter);
    /* Drop the old datacenter; the new one now holds the data. Cassandra 4.1 and later
     * refuse to leave out of system_auth a datacenter with live nodes (CASSANDRA-17478):
     * there it stays at factor 0 until its nodes are gone. */
    bool auth = false;
    for (size_t i = 0; i < keyspace_count; i++) {
        if (ks[i].old_rf == 0)
            continue;
        bool is_auth = strcmp(keyspaces[i], "system_auth") == 0;
        if (is_auth)
            STEP("# system_auth keeps '%s' at factor 0 while its nodes are live: Cassandra "
                 "4.1 and later refuse to leave it out before",
                 old_datacenter);
        ALTER(i, new_datacenter, ks[i].new_rf, ks[i].new_tr, old_datacenter, is_auth);
        auth |= is_auth;
    }
    for (size_t i = 0; i < tn; i++) {
        tokenring_node_info info;
        tokenring_topology_node(&info, topology, i);
        if (strcmp(info.datacenter, old_datacenter) == 0)
            STEP("on %s: nodetool decommission", info.name);
    }
    for (size_t i = 0; auth && i < keyspace_count; i++)
        if (ks[i].old_rf > 0 && strcmp(keyspaces[i], "system_auth") == 0)
            ALTER(i, new_datacenter, ks[i].new_rf, ks[i].new_tr, old_datacenter, false);
    return TOKENRING_OK;
}

#undef ALTER
#undef STEP

static int plan(tokenring_migration **out, const tokenring_topology *topology,
                const char *old_datacenter, const char *new_datacenter,
                const char *const *node_names, const char *const *racks, size_t node_count,
                uint32_t num_tokens, int32_t rf, const char *const *keyspaces,
                const tokenring_replication *const *replications, size_t keyspace_count,
                tr_progress *pg, tokenring_error *err)
{
    mig_state st;
    memset(&st, 0, sizeof st);
    st.topology = topology;
    st.old_datacenter = old_datacenter;
    st.new_datacenter = new_datacenter;
    st.node_names = node_names;
    st.racks = racks;
    st.node_count = node_count;
    st.num_tokens = num_tokens;
    st.rf = rf;
    st.keyspaces = keyspaces;
    st.replications = replications;
    st.keyspace_count = keyspace_count;
    st.pg = pg;
    st.err = err;
    int rc = mig_check(&st, out);
    if (rc != TOKENRING_OK)
        return rc;
    st.m = tr_calloc(1, sizeof *st.m);
    if (!st.m || !(st.ks = tr_calloc(keyspace_count + 1, sizeof *st.ks)))
        rc = mg_nomem(err);
    if (rc == TOKENRING_OK)
        rc = mig_factors(&st);
    if (rc == TOKENRING_OK)
        rc = mig_nodes(&st);
    if (rc == TOKENRING_OK)
        rc = mig_tokens(&st);
    if (rc == TOKENRING_OK)
        rc = mig_steps_before(&st);
    if (rc == TOKENRING_OK)
        rc = mig_steps_move(&st);
    mig_free(&st);
    if (rc != TOKENRING_OK) {
        tokenring_migration_free(st.m);
        return rc;
    }
    if (pg) {
        pg->total = pg->done;
        (void)tr_progress_report(pg, "migration plan", NULL); /* the end: too late to stop */
    }
    *out = st.m;
    return TOKENRING_OK;
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
