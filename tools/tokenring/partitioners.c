/* SPDX-License-Identifier: Apache-2.0 */
/* `token --partitioner random|byteordered|murmur3`: the token of each key under
 * RandomPartitioner (MD5, decimal) or ByteOrderedPartitioner (the key's bytes, hex), from
 * the library's tokenring/partitioner.h. Murmur3 (the default) is queries.c's cmd_token,
 * unchanged. Rings of the other partitioners are not modelled yet, so a ring input is
 * refused rather than answered with Murmur3 owners. */
#include <stdlib.h>
#include <string.h>

#include "tool.h"

tool_command_fn cmd_token; /* queries.c */

/* token KEY... with --partitioner */
TOOL_COMMAND(cmd_token_partitioned)
{
    const char *p = ctx->opt.partitioner;
    if (p == NULL || strcmp(p, "murmur3") == 0) {
        cmd_token(ctx);
        return;
    }
    bool random = strcmp(p, "random") == 0;
    if (ctx->opt.token_mode)
        die(EXIT_USAGE, "--token reads Murmur3 tokens; with --partitioner %s give keys", p);
    if (tokenring_cluster_topology(ctx->cluster) != NULL && !ctx->demo)
        die(EXIT_USAGE, "--partitioner %s: owners on a ring of this partitioner are not "
                        "supported yet; give keys without a ring input", p);
    size_t n;
    struct key *keys = collect_keys(ctx, ctx->opt.args, ctx->opt.nargs, &n);
    char **text = calloc(n ? n : 1, sizeof *text);
    if (!text)
        die(EXIT_INTERNAL, "out of memory");
    size_t wk = 3, wt = 5;
    for (size_t i = 0; i < n; i++) {
        size_t cap = random ? TOKENRING_TOKEN128_TEXT_MAX : 2 * keys[i].len + 1, len = 0;
        text[i] = malloc(cap);
        if (!text[i])
            die(EXIT_INTERNAL, "out of memory");
        int rc = random ? tokenring_token128_format(text[i], cap, &len,
                                                    tokenring_random_token(keys[i].bytes,
                                                                           keys[i].len))
                        : tokenring_byte_token_format(text[i], cap, &len, keys[i].bytes,
                                                      keys[i].len);
        if (rc != TOKENRING_OK)
            die(EXIT_INTERNAL, "formatting a token: %s", tokenring_strerror(rc));
        if (strlen(keys[i].label) > wk)
            wk = strlen(keys[i].label);
        if (len > wt)
            wt = len;
    }
    if (ctx->opt.json) {
        sb_puts(&ctx->out, "[");
        for (size_t i = 0; i < n; i++) {
            sb_puts(&ctx->out, i ? ",\n " : "");
            sb_puts(&ctx->out, "{\"key\": ");
            sb_json_str(&ctx->out, keys[i].label);
            sb_puts(&ctx->out, ", \"token\": ");
            sb_json_str(&ctx->out, text[i]);
            sb_puts(&ctx->out, "}");
        }
        sb_puts(&ctx->out, "]\n");
    } else {
        sb_pad(&ctx->out, "Key", wk);
        sb_puts(&ctx->out, "  Token\n");
        for (size_t i = 0; i < n; i++) {
            sb_pad(&ctx->out, keys[i].label, wk);
            sb_printf(&ctx->out, "  %s\n", text[i]);
        }
    }
    for (size_t i = 0; i < n; i++)
        free(text[i]);
    free(text);
    free_keys(keys, n);
}
