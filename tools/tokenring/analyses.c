/* SPDX-License-Identifier: Apache-2.0 */
/* Analyses: availability under node failures, ownership balance. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tool.h"

/* The failed nodes the tool tries by default (fewer when the budget stops it earlier). */
#define TOOL_AVAILABILITY_MAX_K 3

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

static long double u128_ld(tokenring_u128 v)
{
    return (long double)v.hi * 18446744073709551616.0L + (long double)v.lo;
}

static uint32_t *down_nodes(const tokenring_ring *rg, size_t *count);

/* availability KEYSPACE --list: every failing set of at most 3 nodes (the 1.0 list), under
 * --budget, from the nodes already down (DN in nodetool status): they count as failed,
 * the sets are of nodes still up and give the width they add, as the summary counts. */
static void availability_list(tr_ctx *ctx)
{
    const tokenring_replication *r = find_keyspace(ctx, ctx->opt.args[0]);
    const tokenring_ring *rg = need_ring(ctx);
    const char *cl_name = ctx->opt.cl ? ctx->opt.cl : "QUORUM";
    int cl = parse_cl(cl_name);
    const char *local = ctx->opt.local_dc;
    if (!local && (cl == TOKENRING_CL_LOCAL_ONE || cl == TOKENRING_CL_LOCAL_QUORUM))
        local = only_dc(ctx);
    size_t ndown = 0;
    uint32_t *down = down_nodes(rg, &ndown);
    size_t nodes = tokenring_ring_node_count(rg) - ndown; /* the nodes still up */
    if (nodes == 0)
        die(EXIT_INPUT, "availability: every node is down already");
    long kmax = ctx->opt.failures > 0 ? ctx->opt.failures : (long)TOKENRING_AVAILABILITY_MAX_K;
    if (kmax > (long)TOKENRING_AVAILABILITY_MAX_K)
        die(EXIT_USAGE, "--failures: at most %u", TOKENRING_AVAILABILITY_MAX_K);
    if ((size_t)kmax > nodes)
        kmax = (long)nodes;
    char rb[512];
    if (ctx->opt.json) {
        sb_printf(&ctx->out, "{\"keyspace\": ");
        sb_json_str(&ctx->out, ctx->opt.args[0]);
        sb_printf(&ctx->out, ", \"consistency\": \"%s\", ", cl_name);
        if (ndown) {
            sb_puts(&ctx->out, "\"down\": [");
            for (size_t i = 0; i < ndown; i++) {
                sb_puts(&ctx->out, i ? ", " : "");
                sb_json_str(&ctx->out, node_name(ctx, down[i]));
            }
            sb_puts(&ctx->out, "], ");
        }
        sb_puts(&ctx->out, "\"failures\": [");
    } else {
        sb_printf(&ctx->out, "Availability of keyspace %s %s at %s%s%s\n", ctx->opt.args[0],
                  repl_text(r, rb, sizeof rb), cl_name, local ? " in " : "",
                  local ? local : "");
        if (ndown) {
            sb_printf(&ctx->out, "Down already (counted as failed): ");
            for (size_t i = 0; i < ndown; i++)
                sb_printf(&ctx->out, "%s%s", i ? ", " : "", node_name(ctx, down[i]));
            sb_puts(&ctx->out, "\n");
        }
    }
    for (long k = 1; k <= kmax; k++) {
        tokenring_availability *a = NULL;
        tokenring_error err;
        memset(&err, 0, sizeof err);
        tokenring_limits lim;
        tool_limits(ctx, &lim, "availability");
        lim.failed_nodes = down;
        lim.failed_count = ndown;
        int rc = tokenring_availability_build_limited(&a, rg, r, cl, local, (uint32_t)k, &lim,
                                                      &err);
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
                      "\n%ld %sfailed node%s: %zu of %.0f sets make %sranges unavailable\n", k,
                      ndown ? "more " : "", k > 1 ? "s" : "", n, total, ndown ? "more " : "");
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
    free(down);
    if (ctx->opt.json)
        sb_puts(&ctx->out, "]}\n");
}

/* The name of a failure unit: a node, "dc/rack", or a datacenter. */
static const char *unit_name(tr_ctx *ctx, int unit, uint32_t idx, char *buf, size_t len)
{
    if (unit == TOKENRING_FAIL_NODES)
        return node_name(ctx, idx);
    const tokenring_ring *rg = need_ring(ctx);
    if (unit == TOKENRING_FAIL_DATACENTERS)
        return tokenring_ring_dc_name(rg, idx);
    for (uint32_t i = 0; i < tokenring_ring_node_count(rg); i++) {
        tokenring_node_info info;
        tokenring_ring_node_brief(&info, rg, i);
        if (info.rack_index == idx) {
            snprintf(buf, len, "%s/%s", info.datacenter, info.rack);
            return buf;
        }
    }
    return "?";
}

/* The ring nodes that are down (DN in nodetool status): failed before any k. */
static uint32_t *down_nodes(const tokenring_ring *rg, size_t *count)
{
    size_t n = tokenring_ring_node_count(rg);
    uint32_t *ids = calloc(n + 1, sizeof *ids);
    if (!ids)
        die(EXIT_INTERNAL, "out of memory");
    *count = 0;
    for (uint32_t i = 0; i < n; i++) {
        tokenring_node_info info;
        tokenring_ring_node_brief(&info, rg, i);
        if (info.liveness == TOKENRING_DOWN)
            ids[(*count)++] = i;
    }
    return ids;
}


/* availability KEYSPACE [--cl L1,L2] [--local-dc DC] [--failures K] [--fail UNIT] [--top N]
 * [--list]: per level and k, how many k-sets of failed units break it, the worst loss and
 * the worst sets. */
TOOL_COMMAND(cmd_availability)
{
    check_args(ctx, 1, 1,
               "KEYSPACE [--cl LEVEL[,LEVEL...]] [--local-dc DC] [--failures K] "
               "[--fail nodes|racks|datacenters] [--top N] [--list]");
    if (ctx->opt.avail_list) {
        if (ctx->opt.fail_unit && strcmp(ctx->opt.fail_unit, "nodes") != 0)
            die(EXIT_USAGE, "--list lists failed nodes only; drop --fail %s or --list",
                ctx->opt.fail_unit);
        availability_list(ctx);
        return;
    }
    const tokenring_replication *r = find_keyspace(ctx, ctx->opt.args[0]);
    const tokenring_ring *rg = need_ring(ctx);
    int unit = TOKENRING_FAIL_NODES;
    static const char *const unit_words[] = { "nodes", "racks", "datacenters" };
    static const char *const unit_one[] = { "node", "rack", "datacenter" };
    if (ctx->opt.fail_unit) {
        for (unit = 0; unit < 3; unit++)
            if (strcasecmp(ctx->opt.fail_unit, unit_words[unit]) == 0)
                break;
        if (unit == 3)
            die(EXIT_USAGE, "--fail: expected nodes, racks or datacenters, found '%s'",
                ctx->opt.fail_unit);
    }
    size_t ndown = 0;
    uint32_t *down = down_nodes(rg, &ndown);
    size_t units = unit == TOKENRING_FAIL_NODES   ? tokenring_ring_node_count(rg) - ndown
                   : unit == TOKENRING_FAIL_RACKS ? tokenring_ring_rack_count(rg)
                                                  : tokenring_ring_dc_count(rg);
    if (units == 0)
        die(EXIT_INPUT, "availability: every node is down already");
    long kmax;
    if (ctx->opt.failures > 0) {
        kmax = ctx->opt.failures; /* bounded by the budget (--budget) */
    } else {
        kmax = unit == TOKENRING_FAIL_NODES ? TOOL_AVAILABILITY_MAX_K : (long)units;
    }
    if ((size_t)kmax > units)
        kmax = (long)units;
    size_t top = ctx->opt.top >= 0 ? (size_t)ctx->opt.top : 5;

    /* the levels: a comma-separated list */
    size_t nlev = 0;
    char **levels = split_list(ctx->opt.cl ? ctx->opt.cl : "QUORUM", &nlev);
    int cls[16];
    if (nlev == 0 || nlev > 16)
        die(EXIT_USAGE, "--cl: expected 1 to 16 consistency levels");
    for (size_t i = 0; i < nlev; i++)
        cls[i] = parse_cl(levels[i]);

    char rb[512];
    if (ctx->opt.json) {
        sb_printf(&ctx->out, "{\"keyspace\": ");
        sb_json_str(&ctx->out, ctx->opt.args[0]);
        sb_printf(&ctx->out, ", \"failing\": \"%s\", \"down\": [", unit_words[unit]);
        for (size_t i = 0; i < ndown; i++) {
            sb_puts(&ctx->out, i ? ", " : "");
            sb_json_str(&ctx->out, node_name(ctx, down[i]));
        }
        sb_puts(&ctx->out, "], \"levels\": [");
    } else {
        sb_printf(&ctx->out, "Availability of keyspace %s %s when %s%s%s fail\n",
                  ctx->opt.args[0], repl_text(r, rb, sizeof rb),
                  unit == TOKENRING_FAIL_NODES ? "" : "whole ", ndown ? "more " : "",
                  unit_words[unit]);
        if (ndown) {
            sb_printf(&ctx->out, "Down already (counted as failed): ");
            for (size_t i = 0; i < ndown; i++)
                sb_printf(&ctx->out, "%s%s", i ? ", " : "", node_name(ctx, down[i]));
            sb_puts(&ctx->out, "\n");
        }
    }
    strbuf notes = { 0 };
    for (size_t li = 0; li < nlev; li++) {
        int cl = cls[li];
        const char *local = ctx->opt.local_dc;
        if (!local && (cl == TOKENRING_CL_LOCAL_ONE || cl == TOKENRING_CL_LOCAL_QUORUM))
            local = only_dc(ctx);
        bool is_local = cl == TOKENRING_CL_LOCAL_ONE || cl == TOKENRING_CL_LOCAL_QUORUM;
        if (ctx->opt.json) {
            sb_printf(&ctx->out, "%s{\"consistency\": \"%s\", ", li ? ",\n " : "", levels[li]);
            if (is_local) {
                sb_puts(&ctx->out, "\"local_dc\": ");
                sb_json_str(&ctx->out, local);
                sb_puts(&ctx->out, ", ");
            }
        } else {
            sb_printf(&ctx->out, "\n%s%s%s\n", levels[li], is_local ? " in " : "",
                      is_local ? local : "");
        }
        strbuf worst_text = { 0 };
        for (long k = 1; k <= kmax; k++) {
            tokenring_availability_summary *s = NULL;
            tokenring_error err;
            memset(&err, 0, sizeof err);
            tokenring_limits lim;
            tool_limits(ctx, &lim, "availability");
            lim.failed_nodes = down;
            lim.failed_count = ndown;
            int rc = tokenring_availability_summary_build_limited(
                &s, rg, r, cl, local, unit, (uint32_t)k, top, &lim, &err);
            if (rc == TOKENRING_E_BUDGET && k > 1 && ctx->opt.failures <= 0) {
                /* the default count stops where the budget does, and says so */
                char buf[sizeof err.message + 64];
                sb_printf(&notes, "%s%s: k = %ld and more not computed: %s\n",
                          notes.p ? "" : "\n", levels[li], k,
                          with_remedy(err.message, buf, sizeof buf));
                break;
            }
            if (rc != TOKENRING_OK)
                fail_lib(rc, &err, "availability");
            if (k == 1) {
                tokenring_u128 dw;
                double df;
                tokenring_availability_summary_down(&dw, &df, s);
                if (ctx->opt.json) {
                    char dws[48];
                    u128_str(dws, dw);
                    sb_printf(&ctx->out, "\"down_width\": \"%s\", \"down_fraction\": %.17g, ",
                              dws, df);
                    sb_puts(&ctx->out, "\"failures\": [");
                } else if (ndown) {
                    sb_printf(&ctx->out, "  unavailable already: %.4f%% of the ring\n",
                              df * 100);
                }
                if (!ctx->opt.json)
                    sb_printf(&ctx->out, "  %-3s %20s %20s %10s %12s\n", "k", "Breaking sets",
                              "Sets", "Breaking", "Worst loss");
            }
            tokenring_u128 b, tot, w;
            tokenring_availability_summary_counts(&b, &tot, &w, s);
            char bs[48], ts[48], ws[48];
            u128_str(bs, b);
            u128_str(ts, tot);
            u128_str(ws, w);
            double share = (double)(u128_ld(b) / u128_ld(tot));
            size_t nt = tokenring_availability_summary_top_count(s);
            if (ctx->opt.json) {
                sb_printf(&ctx->out,
                          "%s{\"k\": %ld, \"sets\": \"%s\", \"breaking\": \"%s\", "
                          "\"breaking_fraction\": %.17g, \"worst_width\": \"%s\", "
                          "\"worst_fraction\": %.17g, \"worst\": [",
                          k > 1 ? ", " : "", k, ts, bs, share, ws, ring_frac(rg, w));
            } else {
                char pct[32], wp[32];
                snprintf(pct, sizeof pct, "%.4f%%", share * 100);
                snprintf(wp, sizeof wp, "%.4f%%", ring_frac(rg, w) * 100);
                sb_printf(&ctx->out, "  %-3ld %20s %20s %10s %12s\n", k, bs, ts, pct,
                          top ? wp : "-");
                if (nt)
                    sb_printf(&worst_text, "  worst sets of %ld failed %s:\n", k,
                              k > 1 ? unit_words[unit] : unit_one[unit]);
            }
            uint32_t *ids = calloc((size_t)k, sizeof *ids);
            if (!ids)
                die(EXIT_INTERNAL, "out of memory");
            for (size_t i = 0; i < nt; i++) {
                tokenring_u128 tw;
                double f;
                tokenring_availability_summary_top(ids, &tw, &f, s, i);
                char nb[600];
                if (ctx->opt.json) {
                    char tws[48];
                    u128_str(tws, tw);
                    sb_puts(&ctx->out, i ? ", {\"units\": [" : "{\"units\": [");
                    for (long j = 0; j < k; j++) {
                        sb_puts(&ctx->out, j ? ", " : "");
                        sb_json_str(&ctx->out, unit_name(ctx, unit, ids[j], nb, sizeof nb));
                    }
                    sb_printf(&ctx->out, "], \"width\": \"%s\", \"fraction\": %.17g}", tws, f);
                    continue;
                }
                strbuf set = { 0 };
                for (long j = 0; j < k; j++)
                    sb_printf(&set, "%s%s", j ? ", " : "",
                              unit_name(ctx, unit, ids[j], nb, sizeof nb));
                sb_printf(&worst_text, "    %-40s  %.4f%%\n", set.p, f * 100);
                free(set.p);
            }
            free(ids);
            if (ctx->opt.json)
                sb_puts(&ctx->out, "]}");
            tokenring_availability_summary_free(s);
        }
        if (ctx->opt.json) {
            sb_puts(&ctx->out, "]}");
        } else if (worst_text.p) {
            sb_puts(&ctx->out, worst_text.p);
        }
        free(worst_text.p);
    }
    free(levels[0]); /* split_list: one copy of the text */
    free(levels);
    free(down);
    if (ctx->opt.json) {
        sb_puts(&ctx->out, "]}\n");
    } else if (notes.p) {
        sb_puts(&ctx->out, notes.p);
    }
    if (notes.p)
        fputs(notes.p + 1, stderr);
    free(notes.p);
    if (!ctx->opt.json && (tokenring_ring_ownership_flags(rg) & TOKENRING_OWNERSHIP_NO_WIDTHS))
        sb_puts(&ctx->out, "\nNote: ByteOrderedPartitioner tokens have no width: losses "
                           "count ranges (of the ring's ranges), not keys\n");
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
