/* SPDX-License-Identifier: Apache-2.0 */
/* What Cassandra refuses before a ring change starts, and the tool refuses with its
 * message (exit 2, as the tool's other refused plans), saying what would make it
 * possible: decommission's checks (StorageService.decommission). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* Cassandra 4.0 and later (StorageService.decommission, CASSANDRA-12510) refuse to
 * decommission a node unless --force is given when, for some keyspace, the nodes it counts
 * are not more than the keyspace's factor: under NetworkTopologyStrategy the nodes of the
 * leaving node's datacenter and its factor there (full and transient replicas), under any
 * other strategy every node of the ring and its factor; the nodes counted are the ring's
 * members once every leaving node has left (Normal and Moving, down or not; joining
 * nodes are not members yet), the leaving node included. The tool checks every keyspace
 * the input knows and names the first refused one as Cassandra does (Cassandra walks its
 * schema's keyspaces in its own order), then the others. The rule counts nodes and reads
 * each keyspace's factor, both from the library; it is a precondition of the command,
 * not a movement, so it lives here and the movement analysis stays what moves. */
void decommission_allowed(tr_ctx *ctx, const tokenring_topology *t, const char *node)
{
    size_t idx;
    tokenring_node_info me;
    if (tokenring_topology_find_node(&idx, t, node) != TOKENRING_OK ||
        tokenring_topology_node(&me, t, idx) != TOKENRING_OK)
        return; /* the movement analysis names the unknown node */
    if (me.state == TOKENRING_STATE_LEAVING)
        return; /* already decommissioning: Cassandra checks nothing again */
    if (me.state == TOKENRING_STATE_JOINING)
        die(EXIT_USAGE, "decommission: Cassandra refuses it: local node is not a member of "
                        "the token ring yet (%s is joining)", node);
    size_t in_dc = 0, all = 0;
    for (size_t i = 0; i < tokenring_topology_node_count(t); i++) {
        tokenring_node_info info;
        tokenring_topology_node(&info, t, i);
        if (info.state != TOKENRING_STATE_NORMAL && info.state != TOKENRING_STATE_MOVING)
            continue;
        all++;
        in_dc += strcmp(info.datacenter, me.datacenter) == 0;
    }
    if (all < 2) /* --force does not lift this one */
        die(EXIT_USAGE, "decommission: Cassandra refuses it: no other normal nodes in the "
                        "ring; decommission would be pointless");
    const char *v = ctx->opt.cassandra_version;
    if (v && atoi(v) < 4) /* before 4.0 nodetool decommission had no factor check */
        return;
    strbuf first = { 0 }, others = { 0 };
    size_t nfail = 0, need = 0; /* need: nodes to add to the datacenter */
    for (size_t k = 0; k < tokenring_cluster_keyspace_count(ctx->cluster); k++) {
        const char *name;
        const tokenring_replication *r;
        tokenring_cluster_keyspace(&name, &r, ctx->cluster, k);
        bool nts = tokenring_replication_strategy(r) == TOKENRING_NETWORK_TOPOLOGY;
        int32_t rf = 0;
        tokenring_replication_dc_factor(&rf, NULL, r, me.datacenter);
        size_t n = nts ? in_dc : all;
        if (n > (size_t)rf)
            continue;
        if (nfail++ == 0)
            sb_printf(&first, "Not enough live nodes to maintain replication factor in "
                              "keyspace %s (RF = %d, N = %zu). Perform a forceful "
                              "decommission to ignore.", name, rf, n);
        else
            sb_printf(&others, "%s%s (RF = %d, N = %zu)", others.n ? ", " : "", name, rf, n);
        if ((size_t)rf + 1 - n > need)
            need = (size_t)rf + 1 - n;
    }
    if (nfail == 0)
        return;
    if (ctx->opt.force) {
        fprintf(stderr, "tokenring: warning: decommission --force: Cassandra 4.0 and later "
                        "refuse it without --force: %s%s%s%s\n", first.p,
                others.n ? " Also: " : "", others.n ? others.p : "", others.n ? "." : "");
        free(first.p);
        free(others.p);
        return;
    }
    die(EXIT_USAGE, "decommission: Cassandra 4.0 and later refuse it: %s%s%s%s To make it "
                    "possible: add %zu node%s to datacenter %s first (it needs more nodes "
                    "than the factor, %s included), lower %s factor to at most the nodes "
                    "left, N - 1 (ALTER KEYSPACE, then nodetool cleanup), or give --force as "
                    "nodetool decommission --force does (then %s fewer replicas than %s "
                    "factor).",
        first.p, others.n ? " Also: " : "", others.n ? others.p : "", others.n ? "." : "",
        need, need == 1 ? "" : "s", me.datacenter, node,
        nfail > 1 ? "each refused keyspace's" : "the keyspace's",
        nfail > 1 ? "they keep" : "it keeps", nfail > 1 ? "their" : "its");
}
