/* SPDX-License-Identifier: Apache-2.0 */
/* Changes: join, decommission, replace, move: the library's movement analysis of one
 * change, as tables or JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

void print_movement(tr_ctx *ctx, const tokenring_movement *m, const char *title)
{
    print_movement_tokens(ctx, m, title, NULL, 0);
}

/* The ring's size in the units of a movement's widths: 2^64 (Murmur3), 2^127
 * (RandomPartitioner), the elementary ranges (ByteOrdered: every one has width 1, and
 * each has one primary replica, so the primary widths after the change sum to their
 * count). */
static long double movement_scale(const tokenring_movement *m, uint32_t node_count)
{
    switch (tokenring_movement_partitioner(m)) {
    case TOKENRING_PARTITIONER_RANDOM:
        return 170141183460469231731687303715884105728.0L;
    case TOKENRING_PARTITIONER_BYTE_ORDERED: {
        long double n = 0;
        for (uint32_t i = 0; i < node_count; i++) {
            tokenring_movement_node nd;
            if (tokenring_movement_get_node(&nd, m, i) == TOKENRING_OK)
                n += (long double)nd.primary_after_width.hi * 18446744073709551616.0L +
                     (long double)nd.primary_after_width.lo;
        }
        return n > 0 ? n : 1;
    }
    default:
        return 18446744073709551616.0L;
    }
}

static double mfrac(long double scale, tokenring_u128 w)
{
    if (scale == 18446744073709551616.0L)
        return frac(w); /* Murmur3: as before */
    return (double)(((long double)w.hi * 18446744073709551616.0L + (long double)w.lo) / scale);
}

/* Stream bounds as the partitioner's toString writes them. */
static void stream_bounds(const tokenring_movement *m, const tokenring_stream *st, char **a,
                          char **b)
{
    movement_bounds(m, st->range_index, a, b);
}

long double movement_scale_of(const tokenring_movement *m)
{
    tokenring_movement_summary sum;
    if (tokenring_movement_get_summary(&sum, m) != TOKENRING_OK)
        die(EXIT_INTERNAL, "cannot read the movement summary");
    return movement_scale(m, sum.node_count);
}

double movement_frac(long double scale, tokenring_u128 w)
{
    return mfrac(scale, w);
}

static char *bound_text(const tokenring_movement *m, uint32_t range_index, int end)
{
    size_t len = 0;
    int rc = tokenring_movement_range_bound_text(NULL, 0, &len, m, range_index, end);
    char *out = rc == TOKENRING_E_BUFSIZE || rc == TOKENRING_OK ? malloc(len + 1) : NULL;
    if (!out || tokenring_movement_range_bound_text(out, len + 1, &len, m, range_index, end) !=
                    TOKENRING_OK)
        die(EXIT_INTERNAL, "cannot read the bounds of changed range %u", range_index);
    return out;
}

void movement_bounds(const tokenring_movement *m, uint32_t range_index, char **a, char **b)
{
    *a = bound_text(m, range_index, 0);
    *b = bound_text(m, range_index, 1);
}

static void join_allocation(tr_ctx *ctx, const tokenring_replication *r, const char *dc,
                            char *out, size_t cap);

void print_movement_tokens(tr_ctx *ctx, const tokenring_movement *m, const char *title,
                           char *const *text_tokens, size_t ntext)
{
    tokenring_movement_summary sum;
    if (tokenring_movement_get_summary(&sum, m) != TOKENRING_OK)
        die(EXIT_INTERNAL, "cannot read the movement summary");
    long double scale = movement_scale(m, sum.node_count);
    double changed = mfrac(scale, sum.changed_width);
    double streamed = mfrac(scale, sum.streamed_width);
    char cw[48], sw[48];
    u128_str(cw, sum.changed_width);
    u128_str(sw, sum.streamed_width);
    if (ctx->opt.json) {
        sb_puts(&ctx->out, "{\"change\": ");
        sb_json_str(&ctx->out, title);
        if (text_tokens) {
            sb_puts(&ctx->out, ", \"tokens\": [");
            for (size_t i = 0; i < ntext; i++) {
                sb_puts(&ctx->out, i ? ", " : "");
                sb_json_str(&ctx->out, text_tokens[i]);
            }
            sb_puts(&ctx->out, "]");
        }
        sb_printf(&ctx->out, ", \"changed_width\": \"%s\", \"changed_fraction\": %.17g, "
                        "\"streamed_width\": \"%s\", \"streamed_fraction\": %.17g, "
                        "\"nodes\": [",
                  cw, changed, sw, streamed);
    } else {
        if (*title)
            sb_printf(&ctx->out, "%s\n", title);
        sb_printf(&ctx->out, "\nRanges whose replicas change: %u (%.4f%% of the ring)\n"
                        "Streams: %u (%.4f%% of the ring streamed)\n"
                        "Nodes needing cleanup: %u\n\n",
                  (unsigned)sum.range_count, changed * 100, (unsigned)sum.stream_count,
                  streamed * 100,
                  (unsigned)sum.cleanup_count);
    }
    size_t wn = 4;
    const char **names = calloc(sum.node_count + 1, sizeof *names);
    if (!names)
        die(EXIT_INTERNAL, "out of memory");
    for (uint32_t i = 0; i < sum.node_count; i++) {
        tokenring_movement_node nd;
        tokenring_movement_get_node(&nd, m, i);
        names[i] = nd.name;
        if (strlen(nd.name) > wn)
            wn = strlen(nd.name);
    }
    if (!ctx->opt.json)
        sb_printf(&ctx->out, "%-*s  %-10s  %-10s  %-10s  %-10s  %s\n", (int)wn, "Node",
                  "Before", "After", "Gains", "Loses", "Cleanup");
    for (uint32_t i = 0; i < sum.node_count; i++) {
        tokenring_movement_node nd;
        tokenring_movement_get_node(&nd, m, i);
        if (ctx->opt.json) {
            char b[48], a[48], g[48], l[48];
            u128_str(b, nd.before_width);
            u128_str(a, nd.after_width);
            u128_str(g, nd.gained_width);
            u128_str(l, nd.lost_width);
            sb_puts(&ctx->out, i ? ",\n  " : "\n  ");
            sb_puts(&ctx->out, "{\"name\": ");
            sb_json_str(&ctx->out, nd.name);
            sb_printf(&ctx->out, ", \"before_width\": \"%s\", \"after_width\": \"%s\", "
                            "\"gained_width\": \"%s\", \"lost_width\": \"%s\", "
                            "\"in_before\": %s, \"in_after\": %s, \"needs_cleanup\": %s}",
                      b, a, g, l, nd.in_before ? "true" : "false",
                      nd.in_after ? "true" : "false", nd.needs_cleanup ? "true" : "false");
            continue;
        }
        char c[5][32];
        snprintf(c[0], 32, nd.in_before ? "%.2f%%" : "-", mfrac(scale, nd.before_width) * 100);
        snprintf(c[1], 32, nd.in_after ? "%.2f%%" : "-", mfrac(scale, nd.after_width) * 100);
        snprintf(c[2], 32, "%.2f%%", mfrac(scale, nd.gained_width) * 100);
        snprintf(c[3], 32, "%.2f%%", mfrac(scale, nd.lost_width) * 100);
        sb_printf(&ctx->out, "%-*s  %-10s  %-10s  %-10s  %-10s  %s\n", (int)wn, nd.name, c[0],
                  c[1], c[2], c[3], nd.needs_cleanup ? "yes" : "no");
    }
    int bw = 20; /* the bound columns: a Murmur3 token's 20 characters, or the longest bound */
    for (uint32_t i = 0; !ctx->opt.json && i < sum.stream_count; i++) {
        tokenring_stream st;
        char *a, *b;
        tokenring_movement_get_stream(&st, m, i);
        stream_bounds(m, &st, &a, &b);
        if ((int)strlen(a) > bw)
            bw = (int)strlen(a);
        if ((int)strlen(b) > bw)
            bw = (int)strlen(b);
        free(a);
        free(b);
    }
    if (ctx->opt.json)
        sb_puts(&ctx->out, "],\n \"streams\": [");
    else
        sb_printf(&ctx->out, "\nStreaming plan\n%-*s  %-*s  %-*s  %-*s  %-8s  %s\n",
                  (int)(wn > 6 ? wn : 6), "Source", (int)(wn > 11 ? wn : 11), "Destination",
                  bw, "Start (exclusive)", bw, "End", "Share", "Strict");
    for (uint32_t i = 0; i < sum.stream_count; i++) {
        tokenring_stream st;
        tokenring_movement_get_stream(&st, m, i);
        if (ctx->opt.json) {
            char w[48];
            u128_str(w, st.width);
            sb_puts(&ctx->out, i ? ",\n  " : "\n  ");
            sb_puts(&ctx->out, "{\"source\": ");
            sb_json_str(&ctx->out, names[st.source]);
            sb_puts(&ctx->out, ", \"destination\": ");
            sb_json_str(&ctx->out, names[st.destination]);
            char *a, *b;
            stream_bounds(m, &st, &a, &b);
            sb_printf(&ctx->out, ", \"start\": \"%s\", \"end\": \"%s\", \"width\": \"%s\", "
                            "\"strict\": %s}",
                      a, b, w, st.strict ? "true" : "false");
            free(a);
            free(b);
            continue;
        }
        char *a, *b, f[32];
        stream_bounds(m, &st, &a, &b);
        snprintf(f, sizeof f, "%.4f%%", mfrac(scale, st.width) * 100);
        sb_printf(&ctx->out, "%-*s  %-*s  %-*s  %-*s  %-8s  %s\n", (int)(wn > 6 ? wn : 6),
                  names[st.source],
                  (int)(wn > 11 ? wn : 11), names[st.destination], bw, a, bw, b, f,
                  st.strict ? "yes" : "no");
        free(a);
        free(b);
    }
    if (ctx->opt.json)
        sb_puts(&ctx->out, "]}\n");
    else if (tokenring_movement_partitioner(m) == TOKENRING_PARTITIONER_BYTE_ORDERED)
        sb_puts(&ctx->out, "\nNote: ByteOrderedPartitioner tokens have no width: shares count "
                           "elementary ranges (between the tokens of both rings), not keys\n");
    free(names);
}

/* ----------------------------------------------------------- tokens as text */

/* A node's tokens in its partitioner's text form (Cassandra's TokenFactory.toString),
 * from --initial-token or an allocator: what join and move hand to the library's _text
 * calls and print. */
struct ptokens {
    size_t n;
    char **text;
};

static void ptokens_free(struct ptokens *pt)
{
    for (size_t i = 0; i < pt->n; i++)
        free(pt->text[i]);
    free(pt->text);
}

/* A token list the library made, copied out (and freed). */
static void ptokens_from_list(struct ptokens *pt, tokenring_token_list *list)
{
    pt->n = tokenring_token_list_count(list);
    if (!(pt->text = calloc(pt->n ? pt->n : 1, sizeof *pt->text)))
        die(EXIT_INTERNAL, "out of memory");
    for (size_t i = 0; i < pt->n; i++)
        if (!(pt->text[i] = strdup(tokenring_token_list_get(list, i, NULL))))
            die(EXIT_INTERNAL, "out of memory");
    tokenring_token_list_free(list);
}

/* --initial-token T1,T2,... in the partitioner's text form, each read and written back
 * in its canonical form. */
static void ptokens_parse(struct ptokens *pt, tokenring_partitioner p, const char *list)
{
    pt->text = parse_token_texts(p, "--initial-token", list, &pt->n);
}

static const char *const *ptexts(const struct ptokens *pt)
{
    return (const char *const *)pt->text;
}

/* Balance of datacenter dc once node `name` has joined with `tokens`: max/mean and
 * min/mean of the nodes' effective ownership (primary ownership while the datacenter has
 * at most rf nodes, when every node replicates everything). False if it cannot be had. */
static bool join_balance(const tokenring_topology *t, const tokenring_replication *r,
                         const char *name, const char *dc, const char *rack,
                         const struct ptokens *pt, int32_t rf, double out[2], bool *primary)
{
    tokenring_movement *m = NULL;
    if (tokenring_movement_join_text(&m, t, r, name, dc, rack, ptexts(pt), pt->n, NULL, NULL,
                                     0, NULL) != TOKENRING_OK)
        return false;
    long double scale = movement_scale_of(m);
    tokenring_movement_summary sum;
    tokenring_movement_get_summary(&sum, m);
    double *eff = calloc(sum.node_count + 1, sizeof *eff);
    double *pri = calloc(sum.node_count + 1, sizeof *pri);
    size_t n = 0;
    for (uint32_t i = 0; eff && pri && i < sum.node_count; i++) {
        tokenring_movement_node node;
        if (tokenring_movement_get_node(&node, m, i) != TOKENRING_OK || !node.in_after)
            continue;
        const char *ndc = dc;
        size_t idx;
        if (strcmp(node.name, name) != 0) {
            tokenring_node_info info;
            if (tokenring_topology_find_node(&idx, t, node.name) != TOKENRING_OK ||
                tokenring_topology_node(&info, t, idx) != TOKENRING_OK)
                continue;
            ndc = info.datacenter;
        }
        if (strcmp(ndc, dc) != 0)
            continue;
        eff[n] = mfrac(scale, node.after_width);
        pri[n] = mfrac(scale, node.primary_after_width);
        n++;
    }
    tokenring_movement_free(m);
    bool ok = eff && pri && n > 0;
    if (ok) {
        *primary = n <= (size_t)rf;
        const double *v = *primary ? pri : eff;
        double mx = v[0], mn = v[0], mean = 0;
        for (size_t i = 0; i < n; i++) {
            mean += v[i];
            mx = v[i] > mx ? v[i] : mx;
            mn = v[i] < mn ? v[i] : mn;
        }
        mean /= (double)n;
        out[0] = mx / mean;
        out[1] = mn / mean;
    }
    free(eff);
    free(pri);
    return ok;
}

/* The balance of our join next to the one Cassandra (allocate_tokens_for_keyspace: the
 * same keyspace) would choose for the same node. */
static void compare_with_cassandra(tr_ctx *ctx, const tokenring_topology *t,
                                   const tokenring_replication *r, const char *dc,
                                   const char *rack, const struct ptokens *pt)
{
    const char *line;
    uint32_t release = cassandra_release(ctx, &line);
    int32_t rf = 0;
    tokenring_replication_dc_factor(&rf, NULL, r, dc);
    double ours[2], theirs[2];
    bool primary = false, p2 = false;
    if (!join_balance(t, r, ctx->opt.args[1], dc, rack, pt, rf, ours, &primary))
        return;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    tokenring_token_list *list = NULL;
    int rc = tokenring_allocate_cassandra_text(&list, (uint32_t)pt->n, t, ctx->opt.args[1], dc,
                                               rack, r, 0, NULL, release, 0, NULL, &err);
    sb_printf(&ctx->out, "Balance of %s after the join (%s ownership, max/mean min/mean): "
                         "the library's plan %.3f / %.3f",
              dc, primary ? "primary" : "effective", ours[0], ours[1]);
    struct ptokens c = { 0, NULL };
    if (rc == TOKENRING_OK)
        ptokens_from_list(&c, list);
    if (rc == TOKENRING_OK &&
        join_balance(t, r, ctx->opt.args[1], dc, rack, &c, rf, theirs, &p2))
        sb_printf(&ctx->out, "; Cassandra %s's allocator %.3f / %.3f "
                             "(allocate_tokens_for_keyspace: %s; its tokens: join "
                             "--as-cassandra, pending)\n",
                  line, theirs[0], theirs[1], ctx->opt.args[0]);
    else if (rc == TOKENRING_E_INVAL)
        sb_printf(&ctx->out, "; Cassandra %s's allocator would start the datacenter at a "
                             "random token\n",
                  line);
    else
        sb_printf(&ctx->out, "; Cassandra %s's allocator would refuse: %s\n", line,
                  err.message);
    ptokens_free(&c);
}

/* The allocation setting a joined node's tokens were planned for (--emit yaml): the
 * keyspace's factor in the datacenter for the library's plan, the setting Cassandra's
 * allocator ran with for --as-cassandra, none for --initial-token. */
static void join_allocation(tr_ctx *ctx, const tokenring_replication *r, const char *dc,
                            char *out, size_t cap)
{
    int32_t rf = 0;
    out[0] = '\0';
    if (ctx->opt.initial_token)
        return;
    if (ctx->opt.as_cassandra && ctx->opt.rf <= 0) {
        snprintf(out, cap, "allocate_tokens_for_keyspace: %s", ctx->opt.args[0]);
        return;
    }
    if (ctx->opt.as_cassandra)
        rf = (int32_t)ctx->opt.rf;
    else
        tokenring_replication_dc_factor(&rf, NULL, r, dc);
    snprintf(out, cap, "allocate_tokens_for_local_replication_factor: %d", rf);
}

/* join KEYSPACE NODE --dc DC --rack RACK [--num-tokens T | --initial-token LIST]: tokens
 * from --initial-token, with --as-cassandra as Cassandra's allocator gives them, else the
 * library's plan; on every partitioner (ByteOrderedPartitioner's tokens are keys, and
 * Cassandra allocates none: --initial-token only). */
TOOL_COMMAND(cmd_join)
{
    check_args(ctx, 2, 2, "KEYSPACE NODE --dc DC --rack RACK [--num-tokens T | --initial-token "
                     "T1,T2,...]");
    const tokenring_replication *r = find_keyspace(ctx, ctx->opt.args[0]);
    const tokenring_topology *t = need_topology(ctx);
    tokenring_partitioner p = tokenring_topology_partitioner(t);
    const char *dc = ctx->opt.dc ? ctx->opt.dc : only_dc(ctx);
    if (!dc)
        die(EXIT_USAGE, "join: the cluster has several datacenters: give --dc");
    const char *rack = join_rack(ctx, t, dc, "join");
    struct ptokens pt = { 0, NULL };
    tokenring_token_list *list = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    char how[512] = ": the library's plan";
    long T = ctx->opt.num_tokens > 0 ? ctx->opt.num_tokens : 16;
    int rc = TOKENRING_OK;
    if (ctx->opt.initial_token) {
        ptokens_parse(&pt, p, ctx->opt.initial_token);
        snprintf(how, sizeof how, ": --initial-token");
    } else if (ctx->opt.as_cassandra) {
        const char *line;
        uint32_t release = cassandra_release(ctx, &line);
        bool local = ctx->opt.rf > 0;
        char *first = cassandra_first_token_text(ctx, p);
        rc = tokenring_allocate_cassandra_text(&list, (uint32_t)T, t, ctx->opt.args[1], dc,
                                               rack, local ? NULL : r,
                                               local ? (int32_t)ctx->opt.rf : 0, first,
                                               release, 0, NULL, &err);
        free(first);
        if (rc == TOKENRING_OK && local)
            snprintf(how, sizeof how,
                     ": Cassandra %s's allocator with "
                     "allocate_tokens_for_local_replication_factor: %ld",
                     line, ctx->opt.rf);
        else if (rc == TOKENRING_OK)
            snprintf(how, sizeof how,
                     ": Cassandra %s's allocator with allocate_tokens_for_keyspace: %s", line,
                     ctx->opt.args[0]);
    } else {
        int32_t rf = 0;
        tokenring_replication_dc_factor(&rf, NULL, r, dc);
        if (rf < 1)
            die(EXIT_USAGE, "join: keyspace %s places no replica in datacenter %s",
                ctx->opt.args[0], dc);
        /* the library's plan: Cassandra's tokens, or with --one-step the plan best in one
         * step (never less balanced than Cassandra's for this join) */
        tokenring_limits lim;
        tool_limits(ctx, &lim, "join");
        rc = tokenring_allocate_join_text(&list, (uint32_t)T, t, ctx->opt.args[1], dc, rack, r,
                                          0, cassandra_release(ctx, NULL),
                                          ctx->opt.one_step ? TOKENRING_JOIN_BEST_ONE_STEP : 0,
                                          &lim, &err);
        if (ctx->opt.one_step)
            snprintf(how, sizeof how, ": the library's plan, best in one step");
    }
    if (rc == TOKENRING_E_UNSUPPORTED)
        die(EXIT_USAGE, "join: the tokens of a %s ring are keys, and Cassandra allocates "
                        "none: give --initial-token T1,T2,...",
            tokenring_partitioner_name(p));
    if (rc != TOKENRING_OK)
        fail_lib(rc, &err, ctx->opt.as_cassandra ? "join: Cassandra's allocation"
                                                 : "join: allocating tokens");
    if (list)
        ptokens_from_list(&pt, list);
    tokenring_movement *m = NULL;
    rc = tokenring_movement_join_text(&m, t, r, ctx->opt.args[1], dc, rack, ptexts(&pt), pt.n,
                                      NULL, NULL, 0, &err);
    if (rc != TOKENRING_OK)
        fail_lib(rc, &err, "join");
    if (ctx->opt.write_topology) {
        tokenring_topology *after = NULL;
        rc = tokenring_topology_clone(&after, t);
        if (rc == TOKENRING_OK)
            rc = tokenring_topology_add_node_text(after, ctx->opt.args[1], dc, rack,
                                                  ptexts(&pt), pt.n, &err);
        if (rc != TOKENRING_OK)
            fail_lib(rc, &err, "--write-topology");
        write_topology_after(ctx, after);
        tokenring_topology_free(after);
    }
    if (ctx->opt.emit) {
        char alloc[600];
        join_allocation(ctx, r, dc, alloc, sizeof alloc);
        emit_node(ctx, p, ctx->opt.args[1], dc, rack, pt.text, pt.n, alloc[0] ? alloc : NULL);
        tokenring_movement_free(m);
        ptokens_free(&pt);
        return;
    }
    char title[1024], rb[512];
    snprintf(title, sizeof title, "Join of %s (%s/%s, %zu tokens%s) under keyspace %s %s",
             ctx->opt.args[1], dc, rack, pt.n, how, ctx->opt.args[0],
             repl_text(r, rb, sizeof rb));
    if (!ctx->opt.json) {
        sb_printf(&ctx->out, "%s\nTokens: ", title);
        for (size_t i = 0; i < pt.n; i++)
            sb_printf(&ctx->out, "%s%s", i ? "," : "", pt.text[i]);
        sb_puts(&ctx->out, "\n");
        if (!ctx->opt.initial_token && !ctx->opt.as_cassandra)
            compare_with_cassandra(ctx, t, r, dc, rack, &pt);
        print_movement(ctx, m, "");
    } else {
        print_movement_tokens(ctx, m, title, pt.text, pt.n);
    }
    tokenring_movement_free(m);
    ptokens_free(&pt);
}

/* decommission KEYSPACE NODE */
TOOL_COMMAND(cmd_decommission)
{
    check_args(ctx, 2, 2, "KEYSPACE NODE");
    const tokenring_replication *r = find_keyspace(ctx, ctx->opt.args[0]);
    decommission_allowed(ctx, need_topology(ctx), ctx->opt.args[1]);
    tokenring_movement *m = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = tokenring_movement_decommission(&m, need_topology(ctx), r, ctx->opt.args[1], NULL,
                                             0, &err);
    if (rc != TOKENRING_OK)
        fail_lib(rc, &err, "decommission");
    if (ctx->opt.write_topology) {
        tokenring_topology *after = NULL;
        rc = tokenring_topology_clone(&after, need_topology(ctx));
        if (rc == TOKENRING_OK)
            rc = tokenring_topology_remove_node(after, ctx->opt.args[1], &err);
        if (rc != TOKENRING_OK)
            fail_lib(rc, &err, "--write-topology");
        write_topology_after(ctx, after);
        tokenring_topology_free(after);
    }
    char title[1024], rb[512];
    snprintf(title, sizeof title, "Decommission of %s under keyspace %s %s", ctx->opt.args[1],
             ctx->opt.args[0], repl_text(r, rb, sizeof rb));
    print_movement(ctx, m, title);
    tokenring_movement_free(m);
}

/* replace KEYSPACE OLD NEW */
TOOL_COMMAND(cmd_replace)
{
    check_args(ctx, 3, 3, "KEYSPACE DEAD_NODE NEW_NODE");
    const tokenring_replication *r = find_keyspace(ctx, ctx->opt.args[0]);
    tokenring_movement *m = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = tokenring_movement_replace(&m, need_topology(ctx), r, ctx->opt.args[1],
                                        ctx->opt.args[2], NULL,
                                        0, &err);
    if (rc != TOKENRING_OK)
        fail_lib(rc, &err, "replace");
    if (ctx->opt.write_topology) {
        tokenring_topology *after = NULL;
        rc = tokenring_topology_clone(&after, need_topology(ctx));
        if (rc == TOKENRING_OK)
            rc = tokenring_topology_replace_node(after, ctx->opt.args[1], ctx->opt.args[2],
                                                 &err);
        if (rc != TOKENRING_OK)
            fail_lib(rc, &err, "--write-topology");
        write_topology_after(ctx, after);
        tokenring_topology_free(after);
    }
    char title[1024], rb[512];
    snprintf(title, sizeof title, "Replacement of %s by %s under keyspace %s %s", ctx->opt.args[1],
             ctx->opt.args[2], ctx->opt.args[0], repl_text(r, rb, sizeof rb));
    print_movement(ctx, m, title);
    tokenring_movement_free(m);
}

/* move KEYSPACE NODE --initial-token LIST, on every partitioner */
TOOL_COMMAND(cmd_move)
{
    check_args(ctx, 2, 2, "KEYSPACE NODE --initial-token T1,T2,...");
    if (!ctx->opt.initial_token)
        die(EXIT_USAGE, "move needs the node's new tokens: --initial-token T1,T2,...");
    const tokenring_replication *r = find_keyspace(ctx, ctx->opt.args[0]);
    const tokenring_topology *t = need_topology(ctx);
    struct ptokens pt;
    ptokens_parse(&pt, tokenring_topology_partitioner(t), ctx->opt.initial_token);
    tokenring_movement *m = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = tokenring_movement_move_text(&m, t, r, ctx->opt.args[1], ptexts(&pt), pt.n, NULL,
                                          NULL, 0, &err);
    if (rc != TOKENRING_OK)
        fail_lib(rc, &err, "move");
    if (ctx->opt.write_topology) {
        tokenring_topology *after = NULL;
        rc = tokenring_topology_clone(&after, t);
        if (rc == TOKENRING_OK)
            rc = tokenring_topology_set_tokens_text(after, ctx->opt.args[1], ptexts(&pt), pt.n,
                                                    &err);
        if (rc != TOKENRING_OK)
            fail_lib(rc, &err, "--write-topology");
        write_topology_after(ctx, after);
        tokenring_topology_free(after);
    }
    char title[1024], rb[512];
    snprintf(title, sizeof title, "Move of %s to %zu new token%s under keyspace %s %s",
             ctx->opt.args[1], pt.n, pt.n == 1 ? "" : "s", ctx->opt.args[0],
             repl_text(r, rb, sizeof rb));
    print_movement(ctx, m, title);
    tokenring_movement_free(m);
    ptokens_free(&pt);
}
