/* SPDX-License-Identifier: Apache-2.0 */
/* Removal and what a node holds: removenode, assassinate, ranges, pending. Each is the
 * library's movement analysis (or placement) of one question, as tables or JSON.
 *
 * removenode: Cassandra (StorageService.removeNode, restoreReplicaCount) takes the dead
 * node out of the ring and every node that becomes a replica of one of its ranges fetches
 * it from a live replica that remains; the dead node never sends. That is the movement of
 * the ring without the node, with the replacement rule for sources (the library's
 * TOKENRING_CHANGE_REPLACE: the first remaining old replica of the gainer's datacenter,
 * else of any; Cassandra picks by snitch proximity, which an offline tool cannot know).
 *
 * assassinate: Gossiper.assassinateEndpoint only rewrites the node's gossip state to LEFT:
 * the ring changes as for removenode, and nothing streams. The new replicas hold none of
 * the ranges they gain until a repair. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

static tokenring_movement *removal(tr_ctx *ctx, const tokenring_replication *r, const char *node,
                                   const char *what)
{
    const tokenring_topology *t = need_topology(ctx);
    tokenring_topology *after = NULL;
    tokenring_movement *m = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = tokenring_topology_clone(&after, t);
    if (rc == TOKENRING_OK)
        rc = tokenring_topology_remove_node(after, node, &err);
    if (rc == TOKENRING_OK)
        rc = tokenring_movement_compare(&m, t, after, r, TOKENRING_CHANGE_REPLACE, NULL, 0, &err);
    if (rc != TOKENRING_OK)
        fail_lib(rc, &err, what);
    write_topology_after(ctx, after); /* --write-topology */
    tokenring_topology_free(after);
    return m;
}

/* removenode KEYSPACE NODE */
TOOL_COMMAND(cmd_removenode)
{
    check_args(ctx, 2, 2, "KEYSPACE NODE");
    const tokenring_replication *r = find_keyspace(ctx, ctx->opt.args[0]);
    tokenring_movement *m = removal(ctx, r, ctx->opt.args[1], "removenode");
    char title[1024], rb[512];
    snprintf(title, sizeof title, "Removal of dead node %s (nodetool removenode) under keyspace "
                                  "%s %s", ctx->opt.args[1], ctx->opt.args[0],
             repl_text(r, rb, sizeof rb));
    print_movement(ctx, m, title);
    tokenring_movement_free(m);
}

/* assassinate KEYSPACE NODE */
TOOL_COMMAND(cmd_assassinate)
{
    check_args(ctx, 2, 2, "KEYSPACE NODE");
    const tokenring_replication *r = find_keyspace(ctx, ctx->opt.args[0]);
    tokenring_movement *m = removal(ctx, r, ctx->opt.args[1], "assassinate");
    tokenring_movement_summary sum;
    tokenring_movement_get_summary(&sum, m);
    const char **names = calloc(sum.node_count + 1, sizeof *names);
    if (!names)
        die(EXIT_INTERNAL, "out of memory");
    for (uint32_t i = 0; i < sum.node_count; i++) {
        tokenring_movement_node nd;
        tokenring_movement_get_node(&nd, m, i);
        names[i] = nd.name;
    }
    char rb[512], cw[48];
    u128_str(cw, sum.changed_width);
    long double scale = movement_scale_of(m);
    double changed = movement_frac(scale, sum.changed_width);
    if (ctx->opt.json) {
        sb_puts(&ctx->out, "{\"assassinated\": ");
        sb_json_str(&ctx->out, ctx->opt.args[1]);
        sb_puts(&ctx->out, ", \"keyspace\": ");
        sb_json_str(&ctx->out, ctx->opt.args[0]);
        sb_printf(&ctx->out, ", \"changed_width\": \"%s\", \"changed_fraction\": %.17g, "
                             "\"streams\": [], \"unstreamed\": [",
                  cw, changed);
    } else {
        sb_printf(&ctx->out, "Assassination of %s (nodetool assassinate) under keyspace %s %s\n"
                             "\nRanges whose replicas change: %u (%.4f%% of the ring)\n"
                             "Streams: none (assassinate streams nothing; run a repair of "
                             "these ranges on the nodes that gain them)\n\n"
                             "%-20s  %-20s  %-8s  %s\n",
                  ctx->opt.args[1], ctx->opt.args[0], repl_text(r, rb, sizeof rb),
                  (unsigned)sum.range_count, changed * 100, "Start (exclusive)",
                  "End", "Share", "New replicas holding no data");
    }
    for (uint32_t i = 0; i < sum.range_count; i++) {
        tokenring_moved_range mr;
        tokenring_movement_get_range(&mr, m, i);
        char *a, *b;
        movement_bounds(m, i, &a, &b);
        if (ctx->opt.json) {
            char w[48];
            u128_str(w, mr.width);
            sb_printf(&ctx->out, "%s{\"start\": \"%s\", \"end\": \"%s\", \"width\": \"%s\", "
                                 "\"without_data\": [",
                      i ? ",\n  " : "\n  ", a, b, w);
        } else {
            char f[32];
            snprintf(f, sizeof f, "%.4f%%", movement_frac(scale, mr.width) * 100);
            sb_printf(&ctx->out, "%-20s  %-20s  %-8s  ", a, b, f);
        }
        free(a);
        free(b);
        bool first = true;
        for (uint32_t j = 0; j < mr.new_count; j++) {
            bool had = false;
            for (uint32_t k = 0; k < mr.old_count; k++)
                had |= mr.old_replicas[k] == mr.new_replicas[j];
            if (had)
                continue;
            if (ctx->opt.json) {
                sb_puts(&ctx->out, first ? "" : ", ");
                sb_json_str(&ctx->out, names[mr.new_replicas[j]]);
            } else {
                sb_printf(&ctx->out, "%s%s", first ? "" : ", ", names[mr.new_replicas[j]]);
            }
            first = false;
        }
        sb_puts(&ctx->out, ctx->opt.json ? "]}" : (first ? "-\n" : "\n"));
    }
    if (ctx->opt.json)
        sb_puts(&ctx->out, "]}\n");
    free(names);
    tokenring_movement_free(m);
}

/* ranges KEYSPACE NODE: the describering lines where NODE is a replica. */
TOOL_COMMAND(cmd_ranges)
{
    check_args(ctx, 2, 2, "KEYSPACE NODE");
    const tokenring_replication *r = find_keyspace(ctx, ctx->opt.args[0]);
    const char *node = ctx->opt.args[1];
    tokenring_placement *p = build_placement(ctx, r);
    uint32_t idx;
    if (tokenring_ring_find_node(&idx, ctx->ring, node) != TOKENRING_OK)
        die(EXIT_USAGE, "ranges: no node '%s' in the ring (a joining node has none yet: see "
                        "'tokenring pending')", node);
    size_t nt;
    tokenring_ring_tokens(ctx->ring, &nt);
    tokenring_u128 total = { 0, 0 };
    size_t count = 0, primary = 0;
    /* tokens as the partitioner writes them; widths in its units (ByteOrdered: a range
     * counts 1) */
    bool widths = !(tokenring_ring_ownership_flags(ctx->ring) & TOKENRING_OWNERSHIP_NO_WIDTHS);
    size_t cap = ring_token_text_cap(ctx->ring);
    char *ts = malloc(cap), *te = malloc(cap);
    if (!ts || !te)
        die(EXIT_INTERNAL, "out of memory");
    if (ctx->opt.json) {
        sb_puts(&ctx->out, "{\"keyspace\": ");
        sb_json_str(&ctx->out, ctx->opt.args[0]);
        sb_puts(&ctx->out, ", \"node\": ");
        sb_json_str(&ctx->out, node);
        sb_puts(&ctx->out, ", \"ranges\": [");
    }
    for (size_t i = 0; i < nt; i++) {
        tokenring_range rg;
        tokenring_replicas rep;
        memset(&rg, 0, sizeof rg);
        if (!ring_range_width(ctx->ring, i, &rg.width))
            rg.width.lo = 1; /* no widths: a range counts 1 */
        ring_token_text(ts, cap, ctx->ring, i ? i - 1 : nt - 1);
        ring_token_text(te, cap, ctx->ring, i);
        tokenring_placement_range_replicas(&rep, p, i);
        uint32_t pos = UINT32_MAX;
        for (uint32_t j = 0; j < rep.count; j++)
            if (rep.nodes[j] == idx)
                pos = j;
        if (pos == UINT32_MAX)
            continue;
        bool trans = rep.transient && rep.transient[pos];
        uint64_t lo = total.lo + rg.width.lo;
        total.hi += rg.width.hi + (lo < total.lo);
        total.lo = lo;
        primary += pos == 0;
        if (ctx->opt.json) {
            char w[48];
            u128_str(w, rg.width);
            sb_printf(&ctx->out, "%s{\"start_token\": \"%s\", \"end_token\": \"%s\", "
                                 "\"width\": \"%s\", \"position\": %u, \"transient\": %s, "
                                 "\"endpoints\": [",
                      count ? ",\n " : "", ts, te, w, (unsigned)pos, trans ? "true" : "false");
            for (uint32_t j = 0; j < rep.count; j++) {
                sb_puts(&ctx->out, j ? ", " : "");
                sb_json_str(&ctx->out, node_name(ctx, rep.nodes[j]));
            }
            sb_puts(&ctx->out, "]}");
        } else {
            sb_printf(&ctx->out, "\tTokenRange(start_token:%s, end_token:%s, endpoints:[", ts,
                      te);
            for (uint32_t j = 0; j < rep.count; j++)
                sb_printf(&ctx->out, "%s%s", j ? ", " : "", node_name(ctx, rep.nodes[j]));
            sb_puts(&ctx->out, trans ? "]) transient\n" : "])\n");
        }
        count++;
    }
    char w[48];
    u128_str(w, total);
    if (ctx->opt.json)
        sb_printf(&ctx->out, "], \"count\": %zu, \"primary\": %zu, \"width\": \"%s\"}\n", count,
                  primary, w);
    else
        sb_printf(&ctx->out, "# %s replicates %zu of %zu ranges of keyspace %s (%zu as the "
                             "first replica), %.4f%% of the ring: width %s%s\n",
                  node, count, nt, ctx->opt.args[0], primary,
                  ring_frac(ctx->ring, total) * 100, w,
                  widths ? "" : " (ByteOrderedPartitioner: ranges, tokens have no width)");
    free(ts);
    free(te);
    tokenring_placement_free(p);
}

/* pending KEYSPACE [NODE]: what a joining node gains once it is Normal.
 *
 * A joining node's pending ranges are the movement of its bootstrap: the ring before it
 * (its tokens are pending, not part of the ring) against the ring with it Normal. Its
 * tokens come from the input when they are there (nodetool ring lists them as Joining
 * rows; cqlsh, a topology file with state=joining). When the input gives only the node
 * (a UJ row of nodetool status: datacenter, rack and token count, next to the other
 * nodes' tokens from nodetool ring or cqlsh), or names a node that is in no input, its
 * tokens are planned as Cassandra's bootstrap would choose them (the allocator of
 * allocate_tokens_for_keyspace: KEYSPACE, or of allocate_tokens_for_local_replication_
 * factor with --rf; --initial-token gives them). */

/* The nodes whose tokens are known, as a topology with their states; NULL when none. */
static tokenring_topology *known_nodes(tr_ctx *ctx)
{
    tokenring_topology *t = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    if (tokenring_topology_new(&t) != TOKENRING_OK)
        die(EXIT_INTERNAL, "out of memory");
    size_t n = tokenring_cluster_node_count(ctx->cluster), known = 0;
    for (size_t i = 0; i < n; i++) {
        tokenring_cluster_node_info c;
        tokenring_cluster_node(&c, ctx->cluster, i);
        if (!c.tokens)
            continue;
        int rc = tokenring_topology_add_node(t, c.name, c.datacenter, c.rack, c.tokens,
                                             c.token_count, &err);
        if (rc == TOKENRING_OK && (c.state != TOKENRING_STATE_NORMAL || c.liveness != TOKENRING_UP))
            rc = tokenring_topology_set_state(t, c.name, c.state, c.liveness, &err);
        if (rc != TOKENRING_OK)
            fail_lib(rc, &err, "pending");
        known++;
    }
    if (!known) {
        tokenring_topology_free(t);
        return NULL;
    }
    return t;
}

/* Plans the tokens of joining node `name` (dc/rack) on `before`, as Cassandra's
 * bootstrap would, in the partitioner's text form; `how` receives the method. */
static char **plan_pending(tr_ctx *ctx, const tokenring_topology *before,
                           const tokenring_replication *r, const char *name, const char *dc,
                           const char *rack, long count, size_t *nt, char *how, size_t howcap)
{
    tokenring_partitioner p = tokenring_topology_partitioner(before);
    tokenring_error err;
    memset(&err, 0, sizeof err);
    if (ctx->opt.initial_token) {
        snprintf(how, howcap, "given by --initial-token");
        return parse_token_texts(p, "--initial-token", ctx->opt.initial_token, nt);
    }
    const char *line;
    uint32_t release = cassandra_release(ctx, &line);
    long T = ctx->opt.num_tokens > 0 ? ctx->opt.num_tokens : count > 0 ? count : 16;
    char *first = cassandra_first_token_text(ctx, p);
    bool local = ctx->opt.rf > 0;
    tokenring_token_list *list = NULL;
    int rc = tokenring_allocate_cassandra_text(&list, (uint32_t)T, before, name, dc, rack,
                                               local ? NULL : r,
                                               local ? (int32_t)ctx->opt.rf : 0, first, release,
                                               0, NULL, &err);
    free(first);
    if (rc == TOKENRING_E_UNSUPPORTED)
        die(EXIT_USAGE, "pending: the tokens of a %s ring are keys, and Cassandra allocates "
                        "none: give the joining node's --initial-token T1,T2,...",
            tokenring_partitioner_name(p));
    if (rc != TOKENRING_OK)
        fail_lib(rc, &err, "pending: planning the joining node's tokens");
    *nt = tokenring_token_list_count(list);
    char **tokens = calloc(*nt + 1, sizeof *tokens);
    if (!tokens)
        die(EXIT_INTERNAL, "out of memory");
    for (size_t i = 0; i < *nt; i++)
        if (!(tokens[i] = strdup(tokenring_token_list_get(list, i, NULL))))
            die(EXIT_INTERNAL, "out of memory");
    tokenring_token_list_free(list);
    if (local)
        snprintf(how, howcap, "planned by Cassandra %s's allocator with "
                              "allocate_tokens_for_local_replication_factor: %ld", line,
                 ctx->opt.rf);
    else
        snprintf(how, howcap, "planned by Cassandra %s's allocator with "
                              "allocate_tokens_for_keyspace: %s", line, ctx->opt.args[0]);
    return tokens;
}

static void print_pending(tr_ctx *ctx, const tokenring_movement *m, const char *name,
                          size_t nt, char *const *planned, const char *how, size_t *found)
{
    char title[1024], rb[512];
    const tokenring_replication *r = find_keyspace(ctx, ctx->opt.args[0]);
    snprintf(title, sizeof title, "Pending ranges of joining node %s (%zu tokens%s%s) under "
                                  "keyspace %s %s", name, nt, how ? ", " : "", how ? how : "",
             ctx->opt.args[0], repl_text(r, rb, sizeof rb));
    if (ctx->opt.json && *found)
        sb_puts(&ctx->out, ",\n");
    else if (*found)
        sb_puts(&ctx->out, "\n");
    if (planned && !ctx->opt.json) {
        sb_printf(&ctx->out, "%s\nTokens: ", title);
        for (size_t i = 0; i < nt; i++)
            sb_printf(&ctx->out, "%s%s", i ? "," : "", planned[i]);
        sb_puts(&ctx->out, "\n");
        print_movement(ctx, m, "");
    } else {
        print_movement_tokens(ctx, m, title, planned, nt);
    }
    (*found)++;
}

/* The pending ranges of a node whose tokens are planned (not in the input). */
static void pending_planned(tr_ctx *ctx, const tokenring_topology *before,
                            const tokenring_replication *r, const char *name, const char *dc,
                            const char *rack, long count, size_t *found)
{
    size_t nt = 0;
    char how[512];
    char **tokens = plan_pending(ctx, before, r, name, dc, rack, count, &nt, how, sizeof how);
    tokenring_movement *m = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = tokenring_movement_join_text(&m, before, r, name, dc, rack,
                                          (const char *const *)tokens, nt, NULL, NULL, 0, &err);
    if (rc != TOKENRING_OK)
        fail_lib(rc, &err, "pending");
    print_pending(ctx, m, name, nt, tokens, how, found);
    tokenring_movement_free(m);
    free_token_texts(tokens, nt);
}

TOOL_COMMAND(cmd_pending)
{
    check_args(ctx, 1, 2, "KEYSPACE [NODE]");
    const tokenring_replication *r = find_keyspace(ctx, ctx->opt.args[0]);
    const char *want = ctx->opt.nargs == 2 ? ctx->opt.args[1] : NULL;
    size_t found = 0;
    if (ctx->opt.json)
        sb_puts(&ctx->out, "[");
    size_t cn = tokenring_cluster_node_count(ctx->cluster);
    bool in_input = false;
    for (size_t i = 0; want && i < cn; i++) {
        tokenring_cluster_node_info c;
        tokenring_cluster_node(&c, ctx->cluster, i);
        in_input |= strcmp(c.name, want) == 0;
    }
    const tokenring_topology *t = cn ? tokenring_cluster_topology(ctx->cluster) : NULL;
    if (!t) {
        /* Some tokens are unknown: only joining nodes may lack them, which are then
         * planned on the ring of the others (read from the listing's Murmur3 tokens: the
         * cluster gives another partitioner's tokens only as a whole topology) */
        if (cn && tokenring_cluster_partitioner(ctx->cluster) != TOKENRING_PARTITIONER_MURMUR3)
            die(EXIT_INPUT, "pending: some node's tokens are unknown; on a %s ring give every "
                            "node's tokens (a joining node's as Joining rows of nodetool "
                            "ring, or state=joining in a topology file), or leave the joining "
                            "node out and name it to plan its tokens: pending KEYSPACE NODE",
                tokenring_partitioner_name(tokenring_cluster_partitioner(ctx->cluster)));
        for (size_t i = 0; i < cn; i++) {
            tokenring_cluster_node_info c;
            tokenring_cluster_node(&c, ctx->cluster, i);
            if (!c.tokens && c.state != TOKENRING_STATE_JOINING)
                die(EXIT_INPUT, "pending: the tokens of node %s (%s) are unknown: nodetool "
                                "status shows only token counts; give nodetool ring (it lists "
                                "a joining node's tokens as Joining rows) or cqlsh output, "
                                "e.g. --nodetool-ring ring.txt (merged with --nodetool-status)",
                    c.name, state_word(c.state));
        }
        tokenring_topology *before = known_nodes(ctx);
        if (!before)
            die(EXIT_INPUT, "pending: the input has no node with known tokens");
        for (size_t i = 0; i < cn; i++) {
            tokenring_cluster_node_info c;
            tokenring_cluster_node(&c, ctx->cluster, i);
            if (c.tokens || (want && strcmp(c.name, want) != 0))
                continue;
            pending_planned(ctx, before, r, c.name, c.datacenter, c.rack,
                            (long)c.declared_tokens, &found);
        }
        if (want && !found && !in_input) {
            const char *dc = ctx->opt.dc ? ctx->opt.dc : only_dc(ctx);
            if (!dc)
                die(EXIT_USAGE, "pending: node %s is in no input and the cluster has several "
                                "datacenters: give --dc", want);
            pending_planned(ctx, before, r, want, dc, join_rack(ctx, before, dc, "pending"), -1,
                            &found);
        }
        tokenring_topology_free(before);
        if (!found && want)
            die(EXIT_USAGE, "pending: node %s has known tokens but others are unknown; give "
                            "the whole ring (nodetool ring or cqlsh)", want);
    }
    size_t n = t ? tokenring_topology_node_count(t) : 0;
    for (size_t i = 0; i < n; i++) {
        tokenring_node_info info;
        tokenring_topology_node(&info, t, i);
        if (want ? strcmp(info.name, want) != 0 : info.state != TOKENRING_STATE_JOINING)
            continue;
        if (info.state != TOKENRING_STATE_JOINING)
            die(EXIT_USAGE, "pending: node %s is not joining (state %s): only a joining node "
                            "(UJ) has pending ranges", info.name, state_word(info.state));
        tokenring_topology *after = NULL;
        tokenring_movement *m = NULL;
        tokenring_error err;
        memset(&err, 0, sizeof err);
        int rc = tokenring_topology_clone(&after, t);
        if (rc == TOKENRING_OK)
            rc = tokenring_topology_set_state(after, info.name, TOKENRING_STATE_NORMAL,
                                              TOKENRING_UP, &err);
        if (rc == TOKENRING_OK)
            rc = tokenring_movement_compare(&m, t, after, r, TOKENRING_CHANGE_JOIN, NULL, 0,
                                            &err);
        tokenring_topology_free(after);
        if (rc != TOKENRING_OK)
            fail_lib(rc, &err, "pending");
        print_pending(ctx, m, info.name, info.token_count, NULL, NULL, &found);
        tokenring_movement_free(m);
    }
    if (t && want && !found && !in_input) {
        /* A node the input does not name: it is about to join; plan its tokens. */
        const char *dc = ctx->opt.dc ? ctx->opt.dc : only_dc(ctx);
        if (!dc)
            die(EXIT_USAGE, "pending: node %s is in no input and the cluster has several "
                            "datacenters: give --dc", want);
        pending_planned(ctx, t, r, want, dc, join_rack(ctx, t, dc, "pending"), -1, &found);
    }
    if (!found) {
        if (cn == 0)
            die(EXIT_INPUT, "the input describes no node");
        die(EXIT_INPUT, "pending: the input has no joining node (UJ in nodetool status, "
                        "Joining in nodetool ring); name a node to plan its join: pending "
                        "KEYSPACE NODE [--dc DC] [--rack RACK] [--num-tokens T]");
    }
    if (ctx->opt.json)
        sb_puts(&ctx->out, "]\n");
}
