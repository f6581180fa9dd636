/* SPDX-License-Identifier: Apache-2.0 */
/* convert: the input written back as a topology file or JSON. */
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* convert */
TOOL_COMMAND(cmd_convert)
{
    check_args(ctx, 0, 0, "");
    if (ctx->opt.json) {
        size_t n = tokenring_cluster_node_count(ctx->cluster);
        size_t k = tokenring_cluster_keyspace_count(ctx->cluster);
        sb_puts(&ctx->out, "{\"keyspaces\": [");
        for (size_t i = 0; i < k; i++) {
            const char *name;
            const tokenring_replication *r;
            char rb[4096];
            size_t len;
            tokenring_cluster_keyspace(&name, &r, ctx->cluster, i);
            if (tokenring_replication_format(rb, sizeof rb, &len, r) != TOKENRING_OK)
                die(EXIT_INTERNAL, "replication too long to format");
            sb_puts(&ctx->out, i ? ", " : "");
            sb_puts(&ctx->out, "{\"name\": ");
            sb_json_str(&ctx->out, name);
            sb_puts(&ctx->out, ", \"replication\": ");
            sb_json_str(&ctx->out, rb);
            sb_puts(&ctx->out, "}");
        }
        sb_printf(&ctx->out, "], \"partitioner\": \"%s\"",
                  tokenring_partitioner_name(tokenring_cluster_partitioner(ctx->cluster)));
        sb_printf(&ctx->out, ", \"partial\": %s, \"nodes\": [",
                  tokenring_cluster_flags(ctx->cluster) & TOKENRING_CLUSTER_PARTIAL ? "true"
                                                                                : "false");
        for (size_t i = 0; i < n; i++) {
            tokenring_cluster_node_info info;
            tokenring_cluster_node(&info, ctx->cluster, i);
            sb_puts(&ctx->out, i ? ",\n " : "\n ");
            sb_puts(&ctx->out, "{\"name\": ");
            sb_json_str(&ctx->out, info.name);
            sb_puts(&ctx->out, ", \"datacenter\": ");
            sb_json_str(&ctx->out, info.datacenter);
            sb_puts(&ctx->out, ", \"rack\": ");
            sb_json_str(&ctx->out, info.rack);
            sb_printf(&ctx->out, ", \"state\": \"%s\", \"status\": \"%s\", \"host_id\": ",
                      state_word(info.state), liveness_word(info.liveness));
            if (info.host_id)
                sb_json_str(&ctx->out, info.host_id);
            else
                sb_puts(&ctx->out, "null");
            sb_printf(&ctx->out, ", \"num_tokens\": %zu, \"tokens\": ", info.declared_tokens);
            char *first = info.declared_tokens ? cluster_token_text(ctx, i, 0) : NULL;
            if (!first) {
                sb_puts(&ctx->out, "null}");
                continue;
            }
            /* every partitioner's tokens as strings in its form (decimal, hex) */
            sb_puts(&ctx->out, "[");
            for (size_t j = 0; j < info.declared_tokens; j++) {
                char *tt = j ? cluster_token_text(ctx, i, j) : first;
                sb_puts(&ctx->out, j ? ", " : "");
                sb_json_str(&ctx->out, tt ? tt : "");
                free(tt);
            }
            sb_puts(&ctx->out, "]}");
        }
        sb_puts(&ctx->out, "]}\n");
        return;
    }
    size_t len = 0;
    int rc = tokenring_cluster_format(NULL, 0, &len, ctx->cluster);
    if (rc != TOKENRING_E_BUFSIZE && rc != TOKENRING_OK)
        die(EXIT_INTERNAL, "cannot write the topology: %s", tokenring_strerror(rc));
    sb_reserve(&ctx->out, len + 1);
    rc = tokenring_cluster_format(ctx->out.p + ctx->out.n, ctx->out.cap - ctx->out.n, &len,
                                  ctx->cluster);
    if (rc != TOKENRING_OK)
        die(EXIT_INTERNAL, "cannot write the topology: %s", tokenring_strerror(rc));
    ctx->out.n += len;
}
