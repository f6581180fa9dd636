/* SPDX-License-Identifier: Apache-2.0 */
/* migrate-num-tokens: the library's num_tokens migration plan (tokenring_migration_plan,
 * doc/plans.md), with what the library cannot know refused or warned about here: an
 * input without keyspaces, SimpleStrategy keyspaces across datacenters (all of them
 * named), system keyspaces the input lacks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* migrate-num-tokens --dc OLD --new-dc NEW --num-tokens T --nodes N [--rf RF]
 *                    [--racks ...] [--names a,b,...] */
TOOL_COMMAND(cmd_migrate)
{
    check_args(ctx, 0, 0, "--dc OLD --new-dc NEW --num-tokens T --nodes N [--rf RF]");
    if (!ctx->opt.new_dc || ctx->opt.nodes < 1 || ctx->opt.num_tokens < 1 || ctx->opt.rf == 0)
        die(EXIT_USAGE, "migrate-num-tokens needs --new-dc NAME, --nodes N and --num-tokens T "
                        "(--rf RF, at least 1, gives every keyspace factor RF in the new "
                        "datacenter; without it each keeps its factor)");
    const tokenring_topology *t = need_topology(ctx);
    const char *old = ctx->opt.dc ? ctx->opt.dc : only_dc(ctx);
    if (!old)
        die(EXIT_USAGE, "migrate-num-tokens: the cluster has several datacenters: give --dc");
    size_t nk = tokenring_cluster_keyspace_count(ctx->cluster);
    if (nk == 0)
        die(EXIT_USAGE, "migrate-num-tokens: the input knows no keyspace, so the plan would "
                        "alter none and the rebuild would stream nothing: give every "
                        "keyspace (--schema with cqlsh's SELECT * FROM "
                        "system_schema.keyspaces, or --keyspace NAME=REPLICATION for each, "
                        "system_auth, system_distributed and system_traces included)");
    /* SimpleStrategy in a cluster of several datacenters: refused, naming them all */
    size_t ndc = 0;
    const char **dcs = cluster_dcs(ctx, &ndc);
    strbuf simple = { 0 };
    const char *first_simple = NULL;
    int32_t first_rf = 0;
    for (size_t i = 0; ndc > 1 && i < nk; i++) {
        const char *name;
        const tokenring_replication *r;
        tokenring_cluster_keyspace(&name, &r, ctx->cluster, i);
        if (tokenring_replication_strategy(r) != TOKENRING_SIMPLE)
            continue;
        sb_printf(&simple, "%s%s", simple.n ? ", " : "", name);
        if (!first_simple) {
            first_simple = name;
            tokenring_replication_get(NULL, &first_rf, NULL, r, 0);
        }
    }
    if (first_simple) {
        strbuf map = { 0 };
        for (size_t d = 0; d < ndc; d++)
            sb_printf(&map, ", '%s': 'N'", dcs[d]);
        die(EXIT_USAGE, "migrate-num-tokens: SimpleStrategy places replicas ring-wide, over "
                        "all %zu datacenters, so a plan cannot keep a datacenter's replicas "
                        "of %s: there is no factor per datacenter to keep. First make each "
                        "NetworkTopologyStrategy with the factor each datacenter should "
                        "hold, e.g. ALTER KEYSPACE %s WITH replication = {'class': "
                        "'NetworkTopologyStrategy'%s}; (SimpleStrategy now: %d replica%s in "
                        "all), run nodetool repair -full %s on every node, then give the "
                        "new replication (--schema or --keyspace) and plan again",
            ndc, simple.p, first_simple, map.p, first_rf, first_rf == 1 ? "" : "s",
            first_simple);
    }
    free(dcs);
    size_t n = (size_t)ctx->opt.nodes, nr;
    char **racks = rack_plan(ctx, n, &nr);
    char **names = NULL;
    names = node_names(ctx, n, ctx->opt.new_dc);
    const char **ks = calloc(nk + 1, sizeof *ks);
    const tokenring_replication **rs = calloc(nk + 1, sizeof *rs);
    if (!ks || !rs)
        die(EXIT_INTERNAL, "out of memory");
    for (size_t i = 0; i < nk; i++) {
        tokenring_cluster_keyspace(&ks[i], &rs[i], ctx->cluster, i);
        rs[i] = with_rules(ctx, rs[i]);
    }
    tokenring_migration *m = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    if (ctx->progress_on)
        fprintf(stderr, "planning %zu nodes...", n);
    tokenring_limits lim;
    tool_limits(ctx, &lim, "migrate-num-tokens");
    int rc = tokenring_migration_plan_limited(&m, t, old, ctx->opt.new_dc,
                                              (const char *const *)names,
                                              (const char *const *)racks, n,
                                              (uint32_t)ctx->opt.num_tokens,
                                              ctx->opt.rf > 0 ? (int32_t)ctx->opt.rf : 0, ks, rs,
                                              nk, &lim, &err);
    if (ctx->progress_on)
        fputs("\r\033[K", stderr);
    if (rc != TOKENRING_OK)
        fail_lib(rc, &err, "migrate-num-tokens");
    static const char *const sys[] = { "system_auth", "system_distributed", "system_traces" };
    for (size_t i = 0; i < 3; i++) {
        size_t idx;
        if (tokenring_cluster_find_keyspace(&idx, ctx->cluster, sys[i]) != TOKENRING_OK)
            fprintf(stderr, "tokenring: warning: the input does not know keyspace %s: the "
                            "plan does not alter it, and its replicas in %s are lost with "
                            "the datacenter (give --schema with every keyspace)\n",
                    sys[i], old);
    }
    size_t cnt = tokenring_migration_node_count(m);
    if (ctx->opt.json) {
        sb_puts(&ctx->out, "{\"nodes\": [");
    } else {
        sb_printf(&ctx->out, "Migration of datacenter %s to %s with num_tokens %ld (%zu nodes)\n\n"
                        "New nodes (initial_token):\n",
                  old, ctx->opt.new_dc, ctx->opt.num_tokens, cnt);
    }
    for (size_t i = 0; i < cnt; i++) {
        const char *name, *rack;
        const int64_t *toks;
        size_t tc;
        tokenring_migration_node(&name, &rack, &toks, &tc, m, i);
        if (ctx->opt.json) {
            sb_puts(&ctx->out, i ? ",\n " : "\n ");
            sb_puts(&ctx->out, "{\"name\": ");
            sb_json_str(&ctx->out, name);
            sb_puts(&ctx->out, ", \"rack\": ");
            sb_json_str(&ctx->out, rack);
            sb_puts(&ctx->out, ", \"tokens\": [");
        } else {
            sb_printf(&ctx->out, "  %s (rack %s): ", name, rack);
        }
        for (size_t j = 0; j < tc; j++)
            sb_printf(&ctx->out, ctx->opt.json ? "%s\"%lld\"" : "%s%lld",
                      j ? (ctx->opt.json ? ", " : ",") : "",
                      (long long)toks[j]);
        sb_puts(&ctx->out, ctx->opt.json ? "]}" : "\n");
    }
    size_t steps = tokenring_migration_step_count(m);
    if (ctx->opt.json)
        sb_puts(&ctx->out, "],\n \"steps\": [");
    else
        sb_puts(&ctx->out, "\nSteps:\n");
    for (size_t i = 0; i < steps; i++) {
        if (ctx->opt.json) {
            sb_puts(&ctx->out, i ? ",\n  " : "\n  ");
            sb_json_str(&ctx->out, tokenring_migration_step(m, i));
        } else {
            sb_printf(&ctx->out, "%3zu. %s\n", i + 1, tokenring_migration_step(m, i));
        }
    }
    if (ctx->opt.json)
        sb_puts(&ctx->out, "]}\n");
    tokenring_migration_free(m);
    free(ks);
    free(rs);
    for (size_t i = 0; i < n; i++)
        free(racks[i]);
    free(racks);
    if (ctx->opt.names) {
        free(names[0]);
    } else {
        for (size_t i = 0; i < n; i++)
            free(names[i]);
    }
    free(names);
}
