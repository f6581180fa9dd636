/* SPDX-License-Identifier: Apache-2.0 */
/* The rules for the rows a driver reads (system.local, system.peers_v2 or system.peers,
 * system_schema.keyspaces), whether they come as cqlsh text (parse_cqlsh.c) or as column
 * values (the router builder, router_build.c): one owner, so the two cannot disagree. */
#include <string.h>

#include "parse_internal.h"

TR_HIDDEN int tr_row_node(tokenring_cluster *cl, const tr_col *name, const tr_col *dc,
                          const tr_col *rack, const tr_col *host_id, uint32_t line,
                          size_t *idx_out, tokenring_error *err)
{
    if (!name->s || name->n == 0)
        return tr_fail_at(err, TOKENRING_E_PARSE, line, name->col, "expected a node address");
    if (!dc->s)
        return tr_fail_at(err, TOKENRING_E_PARSE, line, dc->col,
                          "node %.*s has no datacenter (data_center is null)", (int)name->n,
                          name->s);
    /* A peer whose rack is null: Cassandra's snitches (GossipingPropertyFileSnitch,
     * getRack) find no rack for it in system.peers and give it DEFAULT_RACK,
     * "UNKNOWN_RACK". An empty value is the rack "". */
    const char *rack_s = rack->s;
    size_t rack_n = rack->n;
    if (!rack_s) {
        rack_s = TOKENRING_DEFAULT_RACK;
        rack_n = sizeof TOKENRING_DEFAULT_RACK - 1;
    }
    size_t idx;
    bool created;
    int rc = tr_cl_node(cl, name->s, name->n, dc->s, dc->n, rack_s, rack_n, line, name->col,
                        dc->col, rack->col, &idx, &created, err);
    if (rc != TOKENRING_OK)
        return rc;
    if (!created)
        return tr_fail_at(err, TOKENRING_E_EXISTS, line, name->col,
                          "node %s is listed twice (first on line %u)", cl->nodes[idx].name,
                          (unsigned)cl->nodes[idx].line);
    if (host_id && host_id->s && host_id->n > 0 &&
        (rc = tr_cl_set_host_id(cl, idx, host_id->s, host_id->n, line, host_id->col, err)) !=
            TOKENRING_OK)
        return rc;
    *idx_out = idx;
    return TOKENRING_OK;
}

TR_HIDDEN bool tr_ringless_class(const char *s, size_t n)
{
    static const char *const names[] = { "LocalStrategy", "EverywhereStrategy", "MetaStrategy" };
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        size_t l = strlen(names[k]);
        if (n >= l && memcmp(s + n - l, names[k], l) == 0 && (n == l || s[n - l - 1] == '.'))
            return true;
    }
    return false;
}

TR_HIDDEN int tr_row_keyspace(tokenring_cluster *cl, const tr_col *name, const tr_col *cls,
                              const tr_col *map, uint32_t line, tokenring_error *err)
{
    if (!name->s || name->n == 0)
        return tr_fail_at(err, TOKENRING_E_PARSE, line, name->col, "expected a keyspace name");
    if (!cls->s)
        return tr_fail_at(err, TOKENRING_E_PARSE, line, map->col,
                          "keyspace %.*s: expected a replication map such as {'class': "
                          "'org.apache.cassandra.locator.SimpleStrategy', "
                          "'replication_factor': '3'}", (int)name->n, name->s);
    if (tr_ringless_class(cls->s, cls->n))
        return tr_cl_add_skipped(cl, name->s, name->n, cls->s, cls->n, line, name->col, err);
    /* Cassandra 6.0's metadata keyspace: system_schema lists it as NetworkTopologyStrategy
     * {'dc1': '1'}, but it is placed by MetaStrategy on the CMS members only, one
     * (min, min] range: not a placement of the ring, skipped as the other ringless ones */
    static const char cms[] = "system_cluster_metadata";
    if (name->n == sizeof cms - 1 && memcmp(name->s, cms, sizeof cms - 1) == 0)
        return tr_cl_add_skipped(cl, name->s, name->n, "MetaStrategy", strlen("MetaStrategy"),
                                 line, name->col, err);
    tokenring_replication *r = NULL;
    tokenring_error e;
    memset(&e, 0, sizeof e);
    int rc = tokenring_replication_parse(&r, map->s, map->n, &e);
    if (rc != TOKENRING_OK)
        return tr_fail_at(err, rc, line, map->col + (map->col && e.column ? e.column - 1 : 0),
                          "keyspace %.*s: %s", (int)name->n, name->s, e.message);
    return tr_cl_add_keyspace_at(cl, name->s, name->n, r, line, name->col, err);
}
