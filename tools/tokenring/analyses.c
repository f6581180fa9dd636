/* SPDX-License-Identifier: Apache-2.0 */
/* Analyses: availability under node failures, ownership balance. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tool.h"

static int parse_cl(const char *s)
{
    static const char *names[] = { NULL, "ONE", "TWO", "THREE", "QUORUM", "ALL",
                                   "LOCAL_ONE", "LOCAL_QUORUM", "EACH_QUORUM" };
    for (int i = 1; i < 9; i++)
        if (strcasecmp(s, names[i]) == 0)
            return i;
    die(EXIT_USAGE, "--cl: unknown consistency level '%s' (ONE, TWO, THREE, QUORUM, ALL, "
                    "LOCAL_ONE, LOCAL_QUORUM, EACH_QUORUM)", s);
}

/* availability KEYSPACE [--cl LEVEL] [--local-dc DC] [--failures K] */
TOOL_COMMAND(cmd_availability)
{
    check_args(ctx, 1, 1, "KEYSPACE [--cl LEVEL] [--local-dc DC] [--failures K]");
    const tokenring_replication *r = find_keyspace(ctx, ctx->opt.args[0]);
    const tokenring_ring *rg = need_ring(ctx);
    const char *cl_name = ctx->opt.cl ? ctx->opt.cl : "QUORUM";
    int cl = parse_cl(cl_name);
    const char *local = ctx->opt.local_dc;
    if (!local && (cl == TOKENRING_CL_LOCAL_ONE || cl == TOKENRING_CL_LOCAL_QUORUM))
        local = only_dc(ctx);
    size_t nodes = tokenring_ring_node_count(rg);
    long kmax = ctx->opt.failures > 0 ? ctx->opt.failures : (long)TOKENRING_AVAILABILITY_MAX_K;
    if (kmax > (long)TOKENRING_AVAILABILITY_MAX_K)
        die(EXIT_USAGE, "--failures: at most %u", TOKENRING_AVAILABILITY_MAX_K);
    if ((size_t)kmax > nodes)
        kmax = (long)nodes;
    char rb[512];
    if (ctx->opt.json) {
        sb_printf(&ctx->out, "{\"keyspace\": ");
        sb_json_str(&ctx->out, ctx->opt.args[0]);
        sb_printf(&ctx->out, ", \"consistency\": \"%s\", \"failures\": [", cl_name);
    } else {
        sb_printf(&ctx->out, "Availability of keyspace %s %s at %s%s%s\n", ctx->opt.args[0],
                  repl_text(r, rb, sizeof rb), cl_name, local ? " in " : "",
                  local ? local : "");
    }
    for (long k = 1; k <= kmax; k++) {
        progress(ctx, "availability", (size_t)k - 1, (size_t)kmax);
        tokenring_availability *a = NULL;
        tokenring_error err;
        memset(&err, 0, sizeof err);
        int rc = tokenring_availability_build(&a, rg, r, cl, local, (uint32_t)k, &err);
        if (rc != TOKENRING_OK)
            fail_lib(rc, &err, "availability");
        size_t n = tokenring_availability_count(a);
        /* C(nodes, k) failure sets in all */
        double total = 1;
        for (long i = 0; i < k; i++)
            total = total * (double)(nodes - (size_t)i) / (double)(i + 1);
        if (ctx->opt.json) {
            sb_printf(&ctx->out, "%s{\"k\": %ld, \"sets\": %.0f, \"breaking\": [",
                      k > 1 ? ",\n " : "",
                      k, total);
        } else {
            sb_printf(&ctx->out,
                      "\n%ld failed node%s: %zu of %.0f sets make ranges unavailable\n", k,
                      k > 1 ? "s" : "", n, total);
            if (n)
                sb_printf(&ctx->out, "  %-40s  %s\n", "Failed nodes", "Unavailable");
        }
        for (size_t i = 0; i < n; i++) {
            uint32_t ids[TOKENRING_AVAILABILITY_MAX_K];
            tokenring_u128 w;
            double f;
            tokenring_availability_get(ids, &w, &f, a, i);
            strbuf set = { 0 };
            if (ctx->opt.json) {
                char ws[48];
                u128_str(ws, w);
                sb_puts(&ctx->out, i ? ", " : "");
                sb_puts(&ctx->out, "{\"nodes\": [");
                for (long j = 0; j < k; j++) {
                    sb_puts(&ctx->out, j ? ", " : "");
                    sb_json_str(&ctx->out, node_name(ctx, ids[j]));
                }
                sb_printf(&ctx->out, "], \"width\": \"%s\", \"fraction\": %.17g}", ws, f);
                continue;
            }
            for (long j = 0; j < k; j++)
                sb_printf(&set, "%s%s", j ? ", " : "", node_name(ctx, ids[j]));
            sb_printf(&ctx->out, "  %-40s  %.4f%%\n", set.p, f * 100);
            free(set.p);
        }
        if (ctx->opt.json)
            sb_puts(&ctx->out, "]}");
        tokenring_availability_free(a);
    }
    progress(ctx, "availability", (size_t)kmax, (size_t)kmax);
    if (ctx->opt.json)
        sb_puts(&ctx->out, "]}\n");
}

static void balance_line(tr_ctx *ctx, const char *what, const tokenring_balance *b)
{
    if (ctx->opt.json) {
        sb_printf(&ctx->out, "{\"nodes\": %u, \"min\": %.17g, \"max\": %.17g, \"mean\": %.17g, "
                        "\"stdev\": %.17g, \"min_node\": ",
                  (unsigned)b->node_count, b->min, b->max, b->mean, b->stdev);
        sb_json_str(&ctx->out, node_name(ctx, b->min_node));
        sb_puts(&ctx->out, ", \"max_node\": ");
        sb_json_str(&ctx->out, node_name(ctx, b->max_node));
        sb_puts(&ctx->out, "}");
        return;
    }
    char c[4][32];
    snprintf(c[0], 32, "%.4f%%", b->min * 100);
    snprintf(c[1], 32, "%.4f%%", b->max * 100);
    snprintf(c[2], 32, "%.4f%%", b->mean * 100);
    snprintf(c[3], 32, "%.4f%%", b->stdev * 100);
    sb_printf(&ctx->out, "%-10s %-10s %-10s %-10s %-10s %-8.4f  %s / %s\n", what, c[0], c[1], c[2],
              c[3], b->mean > 0 ? b->max / b->mean : 0, node_name(ctx, b->min_node),
              node_name(ctx, b->max_node));
}

/* balance [KEYSPACE] [--dc DC] [--rack RACK] */
TOOL_COMMAND(cmd_balance)
{
    check_args(ctx, 0, 1, "[KEYSPACE] [--dc DC [--rack RACK]]");
    const tokenring_replication *r = ctx->opt.nargs ? find_keyspace(ctx, ctx->opt.args[0]) : NULL;
    const tokenring_ring *rg = need_ring(ctx);
    tokenring_placement *p = r ? build_placement(ctx, r) : NULL;
    tokenring_balance prim, eff;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = tokenring_balance_compute(&prim, p ? &eff : NULL, rg, p, ctx->opt.dc,
                                       ctx->opt.rack, &err);
    if (rc != TOKENRING_OK)
        fail_lib(rc, &err, "balance");
    if (ctx->opt.json) {
        sb_puts(&ctx->out, "{\"primary\": ");
        balance_line(ctx, "primary", &prim);
        if (p) {
            sb_puts(&ctx->out, ", \"effective\": ");
            balance_line(ctx, "effective", &eff);
        }
        sb_puts(&ctx->out, "}\n");
    } else {
        sb_printf(&ctx->out, "Ownership balance over %u nodes%s%s%s%s%s%s\n\n",
                  (unsigned)prim.node_count,
                  ctx->opt.dc ? " of datacenter " : "", ctx->opt.dc ? ctx->opt.dc : "",
                  ctx->opt.rack ? ", rack " : "", ctx->opt.rack ? ctx->opt.rack : "",
                  r ? ", keyspace " : "", r ? ctx->opt.args[0] : "");
        sb_printf(&ctx->out, "%-10s %-10s %-10s %-10s %-10s %-8s  %s\n", "Ownership", "Min", "Max",
                  "Mean", "Stdev", "Max/Mean", "Min node / Max node");
        balance_line(ctx, "primary", &prim);
        if (p)
            balance_line(ctx, "effective", &eff);
    }
    tokenring_placement_free(p);
}
