/* SPDX-License-Identifier: Apache-2.0 */
/* Budgets of the long commands: --budget SECONDS|unlimited, --max-num-tokens T, the
 * tokenring_limits the library calls take, and their progress callback. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

void parse_budget_option(tr_ctx *ctx, const char *flag, const char *val)
{
    if (strcmp(flag, "--budget") == 0) {
        if (strcmp(val, "unlimited") == 0) {
            ctx->opt.budget = TOKENRING_BUDGET_UNLIMITED;
            return;
        }
        char *end;
        errno = 0;
        double s = strtod(val, &end);
        if (!*val || *end || errno || !(s > 0) || !isfinite(s) || s > 1e9)
            die(EXIT_USAGE, "--budget: expected a number of seconds (e.g. 5 or 0.5) or "
                            "'unlimited', found '%s'", val);
        double units = s * (double)TOKENRING_WORK_UNITS_PER_SECOND;
        ctx->opt.budget = units < 1 ? 1 : (uint64_t)(units + 0.5);
        return;
    }
    /* --max-num-tokens */
    char *end;
    errno = 0;
    long v = strtol(val, &end, 10);
    if (!*val || *end || errno || v < 1 || v > (long)TOKENRING_LAYOUT_MAX_TOKENS)
        die(EXIT_USAGE, "--max-num-tokens: expected a number from 1 to %u, found '%s'",
            TOKENRING_LAYOUT_MAX_TOKENS, val);
    ctx->opt.max_num_tokens = (uint32_t)v;
}

/* num_tokens above the cap (Cassandra's 1536 unless --max-num-tokens) and node x token
 * products above what fits in memory are refused before anything is read or planned. */
void check_num_tokens(tr_ctx *ctx)
{
    uint32_t max = ctx->opt.max_num_tokens ? ctx->opt.max_num_tokens : TOKENRING_MAX_NUM_TOKENS;
    /* Cassandra's tokens (--as-cassandra, pending): the server refuses above its cap, so
     * there is nothing to reproduce, whatever --max-num-tokens says */
    if (ctx->opt.num_tokens > (long)TOKENRING_MAX_NUM_TOKENS &&
        (ctx->opt.as_cassandra || (ctx->opt.cmd && strcmp(ctx->opt.cmd, "pending") == 0)))
        die(EXIT_USAGE,
            "--num-tokens %ld is above 1536, Cassandra's own limit (\"A maximum number of "
            "1536 tokens per node is supported\"): Cassandra refuses to start such a node, so "
            "%s has no Cassandra tokens to show (--max-num-tokens raises the cap of the "
            "library's plans: join or generatetokens without --as-cassandra)",
            ctx->opt.num_tokens, ctx->opt.as_cassandra ? "--as-cassandra" : "pending");
    if (ctx->opt.num_tokens > (long)max)
        die(EXIT_USAGE,
            "--num-tokens %ld is above %u%s; give --max-num-tokens %ld to plan it anyway "
            "(planning a join is about cubic in tokens per node: see doc/performance.md)",
            ctx->opt.num_tokens, max,
            ctx->opt.max_num_tokens ? " (--max-num-tokens)"
                                    : ", Cassandra's own limit (num_tokens above 1536 is "
                                      "refused: \"A maximum number of 1536 tokens per node "
                                      "is supported\")",
            ctx->opt.num_tokens);
    if (ctx->opt.num_tokens > 0 && ctx->opt.nodes > 0 &&
        (uint64_t)ctx->opt.num_tokens * (uint64_t)ctx->opt.nodes > TOKENRING_MAX_CLUSTER_TOKENS)
        die(EXIT_USAGE,
            "--nodes %ld x --num-tokens %ld is %llu tokens, above the limit of %llu "
            "(TOKENRING_MAX_CLUSTER_TOKENS, about what fits in memory): plan fewer nodes or "
            "tokens",
            ctx->opt.nodes, ctx->opt.num_tokens,
            (unsigned long long)ctx->opt.nodes * (unsigned long long)ctx->opt.num_tokens,
            (unsigned long long)TOKENRING_MAX_CLUSTER_TOKENS);
}

static int limits_progress(void *user, uint64_t done, uint64_t total)
{
    tr_ctx *ctx = user;
    progress(ctx, ctx->progress_what ? ctx->progress_what : ctx->opt.cmd, (size_t)done,
             (size_t)total);
    return 0;
}

void tool_limits(tr_ctx *ctx, tokenring_limits *lim, const char *what)
{
    memset(lim, 0, sizeof *lim);
    lim->budget = ctx->opt.budget;
    lim->max_num_tokens = ctx->opt.max_num_tokens;
    lim->progress = limits_progress;
    lim->user = ctx;
    ctx->progress_what = what;
}
