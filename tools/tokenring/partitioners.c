/* SPDX-License-Identifier: Apache-2.0 */
/* `token --partitioner random|byteordered|murmur3`: the token of each key under
 * RandomPartitioner (MD5, decimal) or ByteOrderedPartitioner (the key's bytes, hex), from
 * the library's tokenring/partitioner.h. Murmur3 (the default) is queries.c's cmd_token,
 * unchanged; with a ring input the token command refuses the other partitioners (their
 * owners come from getendpoints). getendpoints, describering and ring on rings of
 * RandomPartitioner or ByteOrderedPartitioner (any input: the library reads their
 * tokens) are below; status, availability and convert work on them as they are; the
 * other commands still take Murmur3 rings only (main.c refuses the others). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

tool_command_fn cmd_token; /* queries.c */

/* token KEY... with --partitioner */
TOOL_COMMAND(cmd_token_partitioned)
{
    const char *p = ctx->opt.partitioner;
    if (p == NULL) { /* the ring input's partitioner, if it has one */
        tokenring_partitioner rp = tokenring_cluster_partitioner(ctx->cluster);
        p = rp == TOKENRING_PARTITIONER_RANDOM         ? "random"
            : rp == TOKENRING_PARTITIONER_BYTE_ORDERED ? "byteordered"
                                                       : NULL;
    }
    if (p == NULL || strcmp(p, "murmur3") == 0) {
        cmd_token(ctx);
        return;
    }
    bool random = strcmp(p, "random") == 0;
    if (ctx->opt.token_mode)
        die(EXIT_USAGE, "--token reads Murmur3 tokens; with --partitioner %s give keys", p);
    if (tokenring_cluster_topology(ctx->cluster) != NULL && !ctx->demo)
        die(EXIT_USAGE, "token: with a ring of %s, the command prints no owner; a key's "
                        "replicas on such a ring: getendpoints (tokens alone: --partitioner "
                        "%s without a ring input)",
            tokenring_partitioner_name(tokenring_cluster_partitioner(ctx->cluster)), p);
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

/* ------------------------------------------- rings of RandomPartitioner, ByteOrdered */

tool_command_fn cmd_getendpoints, cmd_describering, cmd_ring; /* queries.c */

/* The commands that take rings of every partitioner; the others refuse a ring of
 * RandomPartitioner or ByteOrderedPartitioner (main.c). */
bool partitioned_command(const char *name)
{
    static const char *const names[] = { "getendpoints", "describering", "ring", "status",
                                         "availability", "convert", "token", "join",
                                         "decommission", "replace", "move", "balance",
                                         "removenode", "assassinate", "ranges", "check" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

/* Whether the input's ring is of another partitioner than Murmur3 (then built). */
static bool partitioned(tr_ctx *ctx)
{
    if (tokenring_cluster_partitioner(ctx->cluster) == TOKENRING_PARTITIONER_MURMUR3)
        return false;
    need_ring(ctx);
    return true;
}

/* Ring token i, or a key's token, as TokenFactory.toString writes it. */
static void token_text(char *out, size_t cap, const tokenring_ring *r, size_t i)
{
    if (tokenring_ring_partitioner(r) == TOKENRING_PARTITIONER_MURMUR3) {
        size_t n;
        const int64_t *t = tokenring_ring_tokens(r, &n);
        snprintf(out, cap, "%lld", (long long)t[i]);
        return;
    }
    size_t len;
    int rc;
    if (tokenring_ring_partitioner(r) == TOKENRING_PARTITIONER_RANDOM) {
        tokenring_token128 t;
        rc = tokenring_ring_token128(&t, r, i);
        if (rc == TOKENRING_OK)
            rc = tokenring_token128_format(out, cap, &len, t);
    } else {
        const uint8_t *b;
        size_t bl;
        rc = tokenring_ring_token_bytes(&b, &bl, r, i);
        if (rc == TOKENRING_OK)
            rc = tokenring_byte_token_format(out, cap, &len, b, bl);
    }
    if (rc != TOKENRING_OK)
        die(EXIT_INTERNAL, "formatting a ring token: %s", tokenring_strerror(rc));
}

/* Text of the longest ring token plus the NUL. */
static size_t token_cap(const tokenring_ring *r)
{
    if (tokenring_ring_partitioner(r) == TOKENRING_PARTITIONER_MURMUR3)
        return 24;
    if (tokenring_ring_partitioner(r) == TOKENRING_PARTITIONER_RANDOM)
        return TOKENRING_TOKEN128_TEXT_MAX;
    size_t n, cap = 1;
    tokenring_ring_tokens(r, &n);
    for (size_t i = 0; i < n; i++) {
        const uint8_t *b;
        size_t bl;
        tokenring_ring_token_bytes(&b, &bl, r, i);
        if (2 * bl + 1 > cap)
            cap = 2 * bl + 1;
    }
    return cap;
}

static void key_token_text(char *out, size_t cap, const tokenring_ring *r, const struct key *k)
{
    size_t len;
    if (tokenring_ring_partitioner(r) == TOKENRING_PARTITIONER_RANDOM)
        tokenring_token128_format(out, cap, &len, tokenring_random_token(k->bytes, k->len));
    else if (tokenring_byte_token_format(out, cap, &len, k->bytes, k->len) != TOKENRING_OK)
        snprintf(out, cap, "(long)");
}

TOOL_COMMAND(cmd_getendpoints_any)
{
    if (!partitioned(ctx)) {
        cmd_getendpoints(ctx);
        return;
    }
    if (ctx->opt.nargs < 1)
        die(EXIT_USAGE, "usage: tokenring getendpoints KEYSPACE TABLE KEY, or KEYSPACE KEY...");
    if (ctx->opt.token_mode)
        die(EXIT_USAGE, "--token reads Murmur3 tokens; on a ring of %s give keys",
            tokenring_partitioner_name(tokenring_ring_partitioner(ctx->ring)));
    const tokenring_replication *r = find_keyspace(ctx, ctx->opt.args[0]);
    size_t n;
    struct key *keys = endpoint_keys(ctx, &n);
    tokenring_placement *p = build_placement_empty_ok(ctx, r);
    order_note(ctx, p);
    if (ctx->opt.json)
        sb_puts(&ctx->out, "[");
    for (size_t i = 0; i < n; i++) {
        tokenring_replicas rep;
        if (tokenring_placement_replicas_for_key_any(&rep, p, keys[i].bytes, keys[i].len) !=
            TOKENRING_OK)
            die(EXIT_INTERNAL, "replica lookup failed");
        size_t cap = TOKENRING_TOKEN128_TEXT_MAX + 2 * keys[i].len;
        char *tt = malloc(cap);
        if (!tt)
            die(EXIT_INTERNAL, "out of memory");
        key_token_text(tt, cap, ctx->ring, &keys[i]);
        if (ctx->opt.json) {
            sb_puts(&ctx->out, i ? ",\n " : "");
            sb_puts(&ctx->out, "{\"key\": ");
            sb_json_str(&ctx->out, keys[i].label);
            sb_printf(&ctx->out, ", \"token\": \"%s\", \"endpoints\": [", tt);
            for (uint32_t j = 0; j < rep.count; j++) {
                sb_puts(&ctx->out, j ? ", " : "");
                sb_json_str(&ctx->out, node_name(ctx, rep.nodes[j]));
            }
            sb_puts(&ctx->out, "]}");
        } else {
            if (n > 1)
                sb_printf(&ctx->out, "%s# %s (token %s)\n", i ? "\n" : "", keys[i].label, tt);
            for (uint32_t j = 0; j < rep.count; j++)
                sb_printf(&ctx->out, "%s\n", node_name(ctx, rep.nodes[j]));
        }
        free(tt);
    }
    if (ctx->opt.json)
        sb_puts(&ctx->out, "]\n");
    tokenring_placement_free(p);
    free_keys(keys, n);
}

TOOL_COMMAND(cmd_describering_any)
{
    if (!partitioned(ctx)) {
        cmd_describering(ctx);
        return;
    }
    check_args(ctx, 1, 1, "KEYSPACE");
    const tokenring_replication *r = find_keyspace(ctx, ctx->opt.args[0]);
    tokenring_placement *p = build_placement_empty_ok(ctx, r);
    order_note(ctx, p);
    size_t nt, cap = token_cap(ctx->ring);
    tokenring_ring_tokens(ctx->ring, &nt);
    char *s = malloc(cap), *e = malloc(cap);
    if (!s || !e)
        die(EXIT_INTERNAL, "out of memory");
    if (ctx->opt.json) {
        sb_puts(&ctx->out, "{\"keyspace\": ");
        sb_json_str(&ctx->out, ctx->opt.args[0]);
        sb_puts(&ctx->out, ", \"ranges\": [");
    } else {
        sb_puts(&ctx->out, "Schema Version:unknown\nTokenRange: \n");
    }
    bool random = tokenring_ring_partitioner(ctx->ring) == TOKENRING_PARTITIONER_RANDOM;
    for (size_t i = 0; i < nt; i++) {
        tokenring_replicas rep;
        if (tokenring_placement_range_replicas(&rep, p, i) != TOKENRING_OK)
            die(EXIT_INTERNAL, "range lookup failed");
        token_text(s, cap, ctx->ring, i == 0 ? nt - 1 : i - 1);
        token_text(e, cap, ctx->ring, i);
        if (ctx->opt.json) {
            sb_printf(&ctx->out, "%s{\"start_token\": \"%s\", \"end_token\": \"%s\"",
                      i ? ",\n " : "", s, e);
            if (random) {
                tokenring_range128 rg;
                char w[48];
                if (tokenring_ring_range128(&rg, ctx->ring, i) != TOKENRING_OK)
                    die(EXIT_INTERNAL, "range lookup failed");
                u128_str(w, rg.width);
                sb_printf(&ctx->out, ", \"width\": \"%s\"", w);
            }
            sb_puts(&ctx->out, ", \"endpoints\": [");
            for (uint32_t j = 0; j < rep.count; j++) {
                sb_puts(&ctx->out, j ? ", " : "");
                sb_json_str(&ctx->out, node_name(ctx, rep.nodes[j]));
            }
            sb_puts(&ctx->out, "]}");
            continue;
        }
        sb_printf(&ctx->out, "\tTokenRange(start_token:%s, end_token:%s, endpoints:[", s, e);
        for (int pass = 0; pass < 2; pass++) {
            if (pass)
                sb_puts(&ctx->out, "], rpc_endpoints:[");
            for (uint32_t j = 0; j < rep.count; j++)
                sb_printf(&ctx->out, "%s%s", j ? ", " : "", node_name(ctx, rep.nodes[j]));
        }
        sb_puts(&ctx->out, "], endpoint_details:[");
        for (uint32_t j = 0; j < rep.count; j++) {
            tokenring_node_info info;
            tokenring_ring_node_brief(&info, ctx->ring, rep.nodes[j]);
            sb_printf(&ctx->out, "%sEndpointDetails(host:%s, datacenter:%s, rack:%s)",
                      j ? ", " : "", info.name, info.datacenter, info.rack);
        }
        sb_puts(&ctx->out, "])\n");
    }
    if (ctx->opt.json)
        sb_puts(&ctx->out, "]}\n");
    free(s);
    free(e);
    tokenring_placement_free(p);
}

/* nodetool's "%-{W}s  %-12s%-7s%-8s%-16s%-20s%-44s%n" */
static void row(tr_ctx *ctx, size_t w, const char *addr, const char *rack, const char *status,
                const char *state, const char *load, const char *owns, const char *token)
{
    sb_pad(&ctx->out, addr, w);
    sb_puts(&ctx->out, "  ");
    sb_pad(&ctx->out, rack, 12);
    sb_pad(&ctx->out, status, 7);
    sb_pad(&ctx->out, state, 8);
    sb_pad(&ctx->out, load, 16);
    sb_pad(&ctx->out, owns, 20);
    sb_pad(&ctx->out, token, 44);
    sb_puts(&ctx->out, "\n");
}

/* ring [KS] on a Random or ByteOrdered ring: nodetool ring's rows per datacenter, Owns
 * the nodetool float (effective for KS, else primary). */
TOOL_COMMAND(cmd_ring_any)
{
    if (!partitioned(ctx)) {
        cmd_ring(ctx);
        return;
    }
    check_args(ctx, 0, 1, "[KEYSPACE]");
    const tokenring_ring *ring = ctx->ring;
    tokenring_placement *p = NULL;
    /* as nodetool: the named keyspace, else the replication all keyspaces share ('?'
     * and a Note when they differ), else (no keyspace known) primary ownership */
    bool differ = false;
    const tokenring_replication *shared = ctx->opt.nargs ? find_keyspace(ctx, ctx->opt.args[0])
                                                         : shared_replication(ctx, &differ);
    if (shared)
        p = build_placement_empty_ok(ctx, shared);
    size_t nn = tokenring_ring_node_count(ring), nt, cap = token_cap(ring);
    tokenring_ring_tokens(ring, &nt);
    tokenring_ownership *own = calloc(nn ? nn : 1, sizeof *own);
    char *tt = malloc(cap);
    if (!own || !tt)
        die(EXIT_INTERNAL, "out of memory");
    if (tokenring_ring_ownership(own, nn, ring, p) != TOKENRING_OK)
        die(EXIT_INTERNAL, "ownership failed");
    const uint32_t *owners = tokenring_ring_token_nodes(ring, NULL);
    if (!owners)
        die(EXIT_INTERNAL, "out of memory");
    size_t w = 7;
    bool vnodes = false;
    for (uint32_t k = 0; k < nn; k++) {
        tokenring_node_info info;
        tokenring_ring_node_brief(&info, ring, k);
        const char *c = strchr(info.name, ':');
        size_t l = strlen(info.name) +
                   ((c && !strchr(c + 1, ':')) || release_before(ctx, 4, 0) ? 0 : 5);
        if (l > w)
            w = l;
        vnodes |= info.token_count > 1;
    }
    bool bop = tokenring_ring_ownership_flags(ring) & TOKENRING_OWNERSHIP_DATA_DEPENDENT;
    size_t ndc = tokenring_ring_dc_count(ring);
    if (ctx->opt.json)
        sb_printf(&ctx->out, "{\"partitioner\": \"%s\", \"ownership\": \"%s\", \"datacenters\": [",
                  tokenring_partitioner_name(tokenring_ring_partitioner(ring)),
                  differ ? "unknown" : p ? "effective" : "primary");
    for (size_t d = 0; d < ndc; d++) {
        const char *dc = tokenring_ring_dc_name(ring, d);
        size_t last = SIZE_MAX, rows = 0;
        for (size_t i = 0; i < nt; i++) {
            tokenring_node_info info;
            tokenring_ring_node_brief(&info, ring, owners[i]);
            if (info.dc_index == d) {
                last = i;
                rows++;
            }
        }
        if (ctx->opt.json) {
            sb_puts(&ctx->out, d ? ",\n " : "");
            sb_puts(&ctx->out, "{\"datacenter\": ");
            sb_json_str(&ctx->out, dc);
            sb_puts(&ctx->out, ", \"rows\": [");
        } else {
            sb_printf(&ctx->out, "%sDatacenter: %s\n==========\n", d ? "" : "\n", dc);
            row(ctx, w, "Address", "Rack", "Status", "State", "Load", "Owns", "Token");
            if (rows > 1) {
                token_text(tt, cap, ring, last);
                row(ctx, w, "", "", "", "", "", "", tt);
            } else {
                sb_puts(&ctx->out, "\n");
            }
        }
        size_t a = 0;
        for (size_t i = 0; i < nt; i++) {
            tokenring_node_info info;
            tokenring_ring_node_brief(&info, ring, owners[i]);
            if (info.dc_index != d)
                continue;
            token_text(tt, cap, ring, i);
            float f = p ? own[owners[i]].nodetool_effective : own[owners[i]].nodetool_primary;
            if (ctx->opt.json) {
                sb_puts(&ctx->out, a++ ? ",\n  " : "\n  ");
                sb_puts(&ctx->out, "{\"address\": ");
                sb_json_str(&ctx->out, info.name);
                sb_puts(&ctx->out, ", \"rack\": ");
                sb_json_str(&ctx->out, info.rack);
                if (differ)
                    sb_printf(&ctx->out, ", \"owns\": null, \"token\": \"%s\"}", tt);
                else
                    sb_printf(&ctx->out, ", \"owns\": %.9g, \"token\": \"%s\"}", (double)f, tt);
                continue;
            }
            char ow[32];
            snprintf(ow, sizeof ow, "%.2f%%", (double)f * 100.0);
            const char *load = NULL; /* the pasted listing's Load (ring index = cluster index) */
            tokenring_cluster_node_columns(&load, NULL, ctx->cluster, owners[i]);
            row(ctx, w, info.name, info.rack, liveness_word(info.liveness),
                state_word(info.state), load ? load : "?", differ ? "?" : ow, tt);
        }
        if (ctx->opt.json)
            sb_puts(&ctx->out, "]}");
        else
            sb_puts(&ctx->out, "\n");
    }
    if (ctx->opt.json) {
        sb_puts(&ctx->out, "]}\n");
    } else {
        if (vnodes)
            sb_puts(&ctx->out, "  Warning: \"nodetool ring\" is used to output all the tokens of a "
                          "node.\n  To view status related info of a node use \"nodetool "
                          "status\" instead.\n\n");
        sb_puts(&ctx->out, "\n  "); /* Ring.java: printf("%n  " + errors) */
        if (differ)
            sb_puts(&ctx->out, "Note: Non-system keyspaces don't have the same replication "
                               "settings, effective ownership information is meaningless\n");
        else if (!p)
            sb_puts(&ctx->out, "Note: Ownership information does not include topology; for "
                          "complete information, specify a keyspace\n");
        if (bop && !differ) /* the tool's own note: on stderr, stdout is nodetool's */
            fputs("tokenring: note: ByteOrderedPartitioner's ownership counts sampled keys "
                  "per range; Owns is its figure for a cluster without data (each token "
                  "1/N)\n", stderr);
    }
    free(tt);
    free(own);
    tokenring_placement_free(p);
}

void ring_token_text(char *out, size_t cap, const tokenring_ring *r, size_t i)
{
    token_text(out, cap, r, i);
}

size_t ring_token_text_cap(const tokenring_ring *r)
{
    return token_cap(r);
}

