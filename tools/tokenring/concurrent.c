/* SPDX-License-Identifier: Apache-2.0 */
/* concurrent OPERATION...: whether planned operations can run at once on Cassandra 6.0,
 * and which ranges each locks (tokenring_history_concurrent and _locked_ranges, on the
 * --history given; doc/cassandra-6.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

static void print_locks(tr_ctx *ctx, const tokenring_history *h, const char *label,
                        const tokenring_replication *r, const char *op)
{
    size_t n = 0, cap = 64;
    int64_t *rg = NULL;
    int rc;
    tokenring_error err;
    do {
        free(rg);
        rg = malloc(2 * cap * sizeof *rg);
        if (!rg)
            die(EXIT_INTERNAL, "out of memory");
        memset(&err, 0, sizeof err);
        rc = tokenring_history_locked_ranges(rg, cap, &n, h, r, op, strlen(op), &err);
        cap = n;
    } while (rc == TOKENRING_E_BUFSIZE);
    if (rc != TOKENRING_OK)
        die(lib_exit(rc), "concurrent: %s: %s", op, err.message);
    char text[256];
    sb_printf(&ctx->out, "    %s (%s): %zu range%s", label, repl_text(r, text, sizeof text), n,
              n == 1 ? "" : "s");
    for (size_t i = 0; i < n; i++) {
        sb_puts(&ctx->out, i ? ", (" : ": (");
        if (rg[2 * i] == INT64_MIN)
            sb_puts(&ctx->out, "min, ");
        else
            sb_printf(&ctx->out, "%lld, ", (long long)rg[2 * i]);
        if (rg[2 * i + 1] == INT64_MIN)
            sb_puts(&ctx->out, "min]");
        else
            sb_printf(&ctx->out, "%lld]", (long long)rg[2 * i + 1]);
    }
    sb_puts(&ctx->out, "\n");
    free(rg);
}

TOOL_COMMAND(cmd_concurrent)
{
    if (ctx->opt.nargs < 1)
        die(EXIT_USAGE, "usage: tokenring --history FILE concurrent OPERATION... (each "
                        "OPERATION one argument, e.g. 'join 10.0.0.9 123' 'leave 10.0.0.2')");
    const tokenring_history *h = tool_history();
    if (!h)
        die(EXIT_USAGE, "concurrent: give the cluster's history with --history FILE (6.0 "
                        "locks ranges of its placements, which follow the history)");
    strbuf ops = { 0 };
    for (size_t i = 0; i < ctx->opt.nargs; i++) {
        if (strchr(ctx->opt.args[i], '\n'))
            die(EXIT_USAGE, "concurrent: one operation per argument");
        sb_printf(&ops, "%s\n", ctx->opt.args[i]);
    }
    uint32_t *cf = calloc(ctx->opt.nargs, sizeof *cf);
    if (!cf)
        die(EXIT_INTERNAL, "out of memory");
    size_t n = 0;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = tokenring_history_concurrent(cf, ctx->opt.nargs, &n, h, ops.p, ops.n, &err);
    if (rc != TOKENRING_OK) {
        if (err.line)
            die(lib_exit(rc), "concurrent: operation %u ('%s'): %s", (unsigned)err.line,
                ctx->opt.args[err.line - 1], err.message);
        die(lib_exit(rc), "concurrent: %s", err.message);
    }
    free(ops.p);
    /* 6.0's distributed system keyspaces, then the history's keyspaces */
    static const char *const sys[][2] = { { "system_auth", "1" },
                                          { "system_traces", "2" },
                                          { "system_distributed", "3" } };
    size_t refused = 0;
    for (size_t i = 0; i < n; i++) {
        const char *op = ctx->opt.args[i];
        if (cf[i] == UINT32_MAX)
            sb_printf(&ctx->out, "%zu  %s: can start while the earlier ones run\n", i + 1, op);
        else
            sb_printf(&ctx->out, "%zu  %s: refused while %u ('%s') runs: their locked ranges "
                                 "meet\n",
                      i + 1, op, cf[i] + 1, ctx->opt.args[cf[i]]);
        refused += cf[i] != UINT32_MAX;
        for (size_t s = 0; s < 3; s++) {
            tokenring_replication *r = NULL;
            if (tokenring_replication_parse(&r, sys[s][1], 1, NULL) != TOKENRING_OK)
                die(EXIT_INTERNAL, "out of memory");
            print_locks(ctx, h, sys[s][0], r, op);
            tokenring_replication_free(r);
        }
        for (size_t k = 0; k < tokenring_cluster_keyspace_count(ctx->cluster); k++) {
            const char *name;
            const tokenring_replication *r;
            tokenring_cluster_keyspace(&name, &r, ctx->cluster, k);
            print_locks(ctx, h, name, r, op);
        }
    }
    free(cf);
    sb_printf(&ctx->out, "%zu of %zu operations can run at once (Cassandra 6.0's locked "
                         "ranges, doc/cassandra-6.md)\n",
              n - refused, n);
}
