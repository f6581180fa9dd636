/* SPDX-License-Identifier: Apache-2.0 */
/* Queries: token, getendpoints, ring, describering, status, demo: what the ring says, in
 * nodetool's layouts, on rings of every partitioner (tokens in Cassandra's text form,
 * through the library's _text calls). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

enum own_mode { OWN_PRIMARY, OWN_EFFECTIVE, OWN_UNKNOWN };

static const char *const NOTE_DIFFERENT =
    "Non-system keyspaces don't have the same replication settings, effective ownership "
    "information is meaningless";

/* Which ownership `ring`/`status` show: the named keyspace's effective ownership; without
 * one, the effective ownership shared by every keyspace of the input (as nodetool does),
 * "?" when they differ, or primary ownership when the input defines no keyspace. */
static enum own_mode own_mode_for(tr_ctx *ctx, const char *ks, const tokenring_replication **repl)
{
    *repl = NULL;
    if (ks) {
        *repl = find_keyspace(ctx, ks);
        return OWN_EFFECTIVE;
    }
    bool differ;
    *repl = shared_replication(ctx, &differ);
    return *repl ? OWN_EFFECTIVE : differ ? OWN_UNKNOWN : OWN_PRIMARY;
}

/* Per-cluster-node ownership for ring/status; node index = cluster index = ring index. */
struct own {
    enum own_mode mode;
    tokenring_ownership *o; /* NULL when tokens are unknown */
    size_t n;
};

static struct own compute_ownership(tr_ctx *ctx, const char *ks, bool tokens_needed)
{
    struct own res = { OWN_PRIMARY, NULL, 0 };
    const tokenring_replication *r;
    res.mode = own_mode_for(ctx, ks, &r);
    if (!tokenring_cluster_topology(ctx->cluster)) {
        if (ks || tokens_needed)
            need_ring(ctx); /* dies with the reason */
        res.mode = OWN_UNKNOWN;
        return res;
    }
    need_ring(ctx);
    res.n = tokenring_ring_node_count(ctx->ring);
    res.o = calloc(res.n ? res.n : 1, sizeof *res.o);
    if (!res.o)
        die(EXIT_INTERNAL, "out of memory");
    tokenring_placement *p = res.mode == OWN_EFFECTIVE ? build_placement_empty_ok(ctx, r) : NULL;
    int rc = tokenring_ring_ownership(res.o, res.n, ctx->ring, p);
    if (rc != TOKENRING_OK)
        die(lib_exit(rc), "ownership failed: %s", tokenring_strerror(rc));
    tokenring_placement_free(p);
    return res;
}

/* The float nodetool prints, or -1 for "?". */
static double own_value(const struct own *o, size_t i)
{
    if (o->mode == OWN_UNKNOWN || !o->o)
        return -1;
    if (o->o[i].token_count == 0)
        return -1; /* joining: not in the ownership map */
    return o->mode == OWN_EFFECTIVE ? (double)o->o[i].nodetool_effective
                                    : (double)o->o[i].nodetool_primary;
}

/* The Load or Owns cell a pasted nodetool listing gave node i, or NULL. */
static const char *pasted(tr_ctx *ctx, size_t i, bool owns)
{
    const char *load = NULL, *own = NULL;
    tokenring_cluster_node_columns(&load, &own, ctx->cluster, i);
    return owns ? own : load;
}

/* The Owns cell: the library's figure when it has one, else the pasted one, else "?".
 * Counts in *shown_pasted / *hidden_pasted which of the pasted cells were used. */
static void owns_cell(tr_ctx *ctx, const struct own *o, size_t i, bool ring, char *buf,
                      size_t cap, size_t *shown_pasted, size_t *hidden_pasted)
{
    double v = own_value(o, i);
    const char *p = pasted(ctx, i, true);
    if (v >= 0) {
        if (ring) /* Ring.java: ##0.00%; Status.java: ##0.0% */
            snprintf(buf, cap, "%.2f%%", v * 100.0);
        else
            snprintf(buf, cap, "%.1f%%", v * 100.0);
        if (p) {
            /* display only: the pasted percentage may be rounded to the other layout's
             * precision (ring 0.01, status 0.1) */
            char *end;
            double pv = strtod(p, &end);
            bool same = end != p && *end == '%' && fabs(pv - v * 100.0) <= 0.05 + 1e-9;
            *hidden_pasted += !same;
        }
    } else if (p) {
        snprintf(buf, cap, "%s", p);
        ++*shown_pasted;
    } else {
        snprintf(buf, cap, "?");
    }
}

/* Says which Owns figures are shown when the input had its own. */
static void owns_note_to(strbuf *out, const struct own *o, const char *ks, size_t shown,
                         size_t hidden)
{
    if (hidden) {
        sb_puts(out, "Note: Owns is computed from the tokens (");
        if (o->mode == OWN_EFFECTIVE && ks)
            sb_printf(out, "effective ownership for keyspace %s", ks);
        else
            sb_puts(out, o->mode == OWN_EFFECTIVE ? "effective ownership"
                                                          : "primary ownership");
        sb_printf(out, "); it differs from the pasted Owns of %zu node%s, which is not "
                             "shown\n", hidden, hidden == 1 ? "" : "s");
    }
    if (shown)
        sb_printf(out, "Note: Owns of %zu node%s as pasted (nodetool's figures for the "
                             "keyspace it was run with), not computed: the tokens are "
                             "unknown\n", shown, shown == 1 ? "" : "s");
}

static void owns_note(tr_ctx *ctx, const struct own *o, const char *ks, size_t shown,
                      size_t hidden)
{
    owns_note_to(&ctx->out, o, ks, shown, hidden);
}

static void json_own(tr_ctx *ctx, const struct own *o, size_t i)
{
    double v = own_value(o, i);
    if (v < 0) {
        sb_puts(&ctx->out, "null");
        return;
    }
    char w[48];
    u128_str(w, o->mode == OWN_EFFECTIVE ? o->o[i].effective_width : o->o[i].primary_width);
    sb_printf(&ctx->out, "{\"nodetool\": %.9g, \"exact\": %.17g, \"width\": \"%s\"}", v,
              o->mode == OWN_EFFECTIVE ? o->o[i].effective : o->o[i].primary, w);
}

static const char *mode_name(enum own_mode m)
{
    return m == OWN_EFFECTIVE ? "effective" : m == OWN_PRIMARY ? "primary" : "unknown";
}

/* token KEY...: each key's token under the partitioner (--partitioner, else the
 * input's), with its owner when the input is a ring of that partitioner. */
TOOL_COMMAND(cmd_token)
{
    tokenring_partitioner part = tool_partitioner(ctx);
    size_t n;
    struct key *keys = collect_keys(ctx, ctx->opt.args, ctx->opt.nargs, &n);
    bool with_owner = tokenring_cluster_topology(ctx->cluster) != NULL &&
                      tokenring_cluster_partitioner(ctx->cluster) == part;
    if (with_owner)
        need_ring(ctx);
    char **text = calloc(n ? n : 1, sizeof *text);
    uint32_t *range = calloc(n ? n : 1, sizeof *range);
    if (!text || !range)
        die(EXIT_INTERNAL, "out of memory");
    size_t wk = 3, wt = 5;
    for (size_t i = 0; i < n; i++) {
        if (!(text[i] = key_token_text(ctx, part, &keys[i])))
            die(EXIT_INTERNAL, "the token of key '%s' failed", keys[i].label);
        if (with_owner) {
            tokenring_error err;
            memset(&err, 0, sizeof err);
            int rc = tokenring_ring_search_text(&range[i], ctx->ring, text[i], strlen(text[i]),
                                                &err);
            if (rc != TOKENRING_OK)
                die(lib_exit(rc), "the range of token %s: %s", text[i], err.message);
        }
        if (strlen(keys[i].label) > wk)
            wk = strlen(keys[i].label);
        if (strlen(text[i]) > wt)
            wt = strlen(text[i]);
    }
    const uint32_t *owners = with_owner ? tokenring_ring_token_nodes(ctx->ring, NULL) : NULL;
    if (with_owner && !owners)
        die(EXIT_INTERNAL, "out of memory");
    size_t nt = 0;
    if (with_owner)
        tokenring_ring_tokens(ctx->ring, &nt);
    if (ctx->opt.json) {
        sb_puts(&ctx->out, "[");
        for (size_t i = 0; i < n; i++) {
            sb_puts(&ctx->out, i ? ",\n " : "");
            sb_puts(&ctx->out, "{\"key\": ");
            sb_json_str(&ctx->out, keys[i].label);
            sb_puts(&ctx->out, ", \"token\": ");
            sb_json_str(&ctx->out, text[i]);
            if (with_owner) {
                size_t cap = ring_token_text_cap(ctx->ring);
                char *a = malloc(cap), *b = malloc(cap);
                if (!a || !b)
                    die(EXIT_INTERNAL, "out of memory");
                ring_token_text(a, cap, ctx->ring, range[i] ? range[i] - 1 : nt - 1);
                ring_token_text(b, cap, ctx->ring, range[i]);
                sb_puts(&ctx->out, ", \"owner\": ");
                sb_json_str(&ctx->out, node_name(ctx, owners[range[i]]));
                sb_printf(&ctx->out, ", \"range\": [\"%s\", \"%s\"]", a, b);
                free(a);
                free(b);
            }
            sb_puts(&ctx->out, "}");
        }
        sb_puts(&ctx->out, "]\n");
    } else {
        /* the layout only: Murmur3's Token column is always as wide as its longest token
         * can be (20), as the tool has printed it since 1.0; the others' as the longest
         * shown before an Owner column, unpadded without one */
        if (part == TOKENRING_PARTITIONER_MURMUR3 || !with_owner)
            wt = part == TOKENRING_PARTITIONER_MURMUR3 ? 20 : 0;
        sb_pad(&ctx->out, "Key", wk);
        sb_puts(&ctx->out, "  ");
        sb_pad(&ctx->out, "Token", wt);
        sb_puts(&ctx->out, with_owner ? "  Owner\n" : "\n");
        for (size_t i = 0; i < n; i++) {
            sb_pad(&ctx->out, keys[i].label, wk);
            sb_puts(&ctx->out, "  ");
            if (with_owner) {
                sb_pad(&ctx->out, text[i], wt);
                sb_printf(&ctx->out, "  %s\n", node_name(ctx, owners[range[i]]));
            } else {
                sb_printf(&ctx->out, "%s\n", text[i]);
            }
        }
    }
    for (size_t i = 0; i < n; i++)
        free(text[i]);
    free(text);
    free(range);
    free_keys(keys, n);
}

/* getendpoints KS TABLE KEY (nodetool's form: exactly three arguments) or KS KEY... (one
 * key, or three keys and more; two keys in this form go on standard input). The rule
 * looks at the count only, never at whether an argument looks like a table name: a key
 * may be any text. The table is not checked (the tool knows no tables; --types gives the
 * partition key's types). */
TOOL_COMMAND(cmd_getendpoints)
{
    if (ctx->opt.nargs < 1)
        die(EXIT_USAGE, "usage: tokenring getendpoints KEYSPACE TABLE KEY, or KEYSPACE "
                        "KEY... (see tokenring --help)");
    const tokenring_replication *r = find_keyspace(ctx, ctx->opt.args[0]);
    size_t n;
    struct key *keys = endpoint_keys(ctx, &n);
    tokenring_placement *p = build_placement_empty_ok(ctx, r);
    order_note(ctx, p);
    if (ctx->opt.json)
        sb_puts(&ctx->out, "[");
    tokenring_partitioner part = tokenring_ring_partitioner(need_ring(ctx));
    for (size_t i = 0; i < n; i++) {
        tokenring_replicas rep;
        char *tt = key_token_text(ctx, part, &keys[i]);
        uint32_t range = 0;
        int rc = !tt ? TOKENRING_E_NOMEM
                 : ctx->opt.token_mode
                     ? tokenring_ring_search_text(&range, ctx->ring, tt, strlen(tt), NULL)
                     : tokenring_placement_replicas_for_key_any(&rep, p, keys[i].bytes,
                                                                keys[i].len);
        if (rc == TOKENRING_OK && ctx->opt.token_mode)
            rc = tokenring_placement_range_replicas(&rep, p, range);
        if (rc != TOKENRING_OK)
            die(EXIT_INTERNAL, "replica lookup failed");
        if (ctx->opt.json) {
            sb_puts(&ctx->out, i ? ",\n " : "");
            sb_puts(&ctx->out, "{\"key\": ");
            sb_json_str(&ctx->out, keys[i].label);
            sb_printf(&ctx->out, ", \"token\": \"%s\", \"endpoints\": [", tt);
            for (uint32_t j = 0; j < rep.count; j++) {
                sb_puts(&ctx->out, j ? ", " : "");
                sb_json_str(&ctx->out, node_name(ctx, rep.nodes[j]));
            }
            sb_puts(&ctx->out, "], \"transient\": [");
            for (uint32_t j = 0; j < rep.count; j++)
                sb_printf(&ctx->out, "%s%s", j ? ", " : "",
                          rep.transient && rep.transient[j] ? "true" : "false");
            sb_puts(&ctx->out, "]}");
            free(tt);
            continue;
        }
        if (n > 1)
            sb_printf(&ctx->out, "%s# %s (token %s)\n", i ? "\n" : "", keys[i].label, tt);
        for (uint32_t j = 0; j < rep.count; j++)
            sb_printf(&ctx->out, "%s\n", node_name(ctx, rep.nodes[j]));
        free(tt);
    }
    if (ctx->opt.json)
        sb_puts(&ctx->out, "]\n");
    tokenring_placement_free(p);
    free_keys(keys, n);
}

/* describering KS */
TOOL_COMMAND(cmd_describering)
{
    check_args(ctx, 1, 1, "KEYSPACE");
    const tokenring_replication *r = find_keyspace(ctx, ctx->opt.args[0]);
    tokenring_placement *p = build_placement_empty_ok(ctx, r);
    order_note(ctx, p);
    size_t nt, cap = ring_token_text_cap(ctx->ring);
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
    for (size_t i = 0; i < nt; i++) {
        tokenring_replicas rep;
        if (tokenring_placement_range_replicas(&rep, p, i) != TOKENRING_OK)
            die(EXIT_INTERNAL, "range lookup failed");
        ring_token_text(s, cap, ctx->ring, i == 0 ? nt - 1 : i - 1);
        ring_token_text(e, cap, ctx->ring, i);
        if (ctx->opt.json) {
            sb_printf(&ctx->out, "%s{\"start_token\": \"%s\", \"end_token\": \"%s\"",
                      i ? ",\n " : "", s, e);
            tokenring_u128 width;
            if (ring_range_width(ctx->ring, i, &width)) {
                char w[48];
                u128_str(w, width);
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
static void ring_row(tr_ctx *ctx, size_t w, const char *addr, const char *rack, const char *status,
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

struct row {
    char *token; /* in the partitioner's text form */
    size_t node;
};

/* Sorts rows by token in the partitioner's order (merge sort: the comparison needs the
 * partitioner, which qsort cannot pass). */
static void sort_rows(struct row *rows, struct row *tmp, size_t n, tokenring_partitioner p)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    sort_rows(rows, tmp, h, p);
    sort_rows(rows + h, tmp, n - h, p);
    size_t a = 0, b = h, k = 0;
    while (a < h || b < n) {
        int c = 1;
        if (a < h && b < n && tokenring_token_text_compare(&c, p, rows[a].token, rows[b].token,
                                                           NULL) != TOKENRING_OK)
            die(EXIT_INTERNAL, "comparing tokens %s and %s", rows[a].token, rows[b].token);
        tmp[k++] = a < h && (b == n || c <= 0) ? rows[a++] : rows[b++];
    }
    memcpy(rows, tmp, n * sizeof *rows);
}

static void free_rows(struct row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(rows[i].token);
    free(rows);
}

/* ring [KS] */
TOOL_COMMAND(cmd_ring)
{
    check_args(ctx, 0, 1, "[KEYSPACE]");
    struct own o = compute_ownership(ctx, ctx->opt.nargs ? ctx->opt.args[0] : NULL, true);
    tokenring_partitioner part = tokenring_cluster_partitioner(ctx->cluster);
    size_t n = tokenring_cluster_node_count(ctx->cluster);
    size_t ndc;
    const char **dcs = cluster_dcs(ctx, &ndc);
    size_t w = 0;
    bool vnodes = false;
    for (size_t i = 0; i < n; i++) {
        tokenring_cluster_node_info info;
        tokenring_cluster_node(&info, ctx->cluster, i);
        const char *c = strchr(info.name, ':');
        /* 4.0 and later: the widest ip:port, even without -pp ("ip:7000") */
        size_t l = strlen(info.name) +
                   ((c && !strchr(c + 1, ':')) || release_before(ctx, 4, 0) ? 0 : 5);
        if (l > w)
            w = l;
        if (info.declared_tokens > 1)
            vnodes = true;
    }
    if (ctx->opt.json)
        sb_printf(&ctx->out, "{\"ownership\": \"%s\", \"datacenters\": [", mode_name(o.mode));
    else
        sb_puts(&ctx->out, "\n"); /* Ring.java: println() before the datacenters */
    for (size_t d = 0; d < ndc; d++) {
        /* rows: every token of the DC's nodes (normal and joining), ascending */
        size_t nrows = 0;
        for (size_t i = 0; i < n; i++) {
            tokenring_cluster_node_info info;
            tokenring_cluster_node(&info, ctx->cluster, i);
            if (strcmp(info.datacenter, dcs[d]) == 0)
                nrows += info.declared_tokens; /* all known: the ring has a topology */
        }
        struct row *rows = calloc(nrows ? nrows : 1, sizeof *rows);
        struct row *tmp = calloc(nrows ? nrows : 1, sizeof *tmp);
        if (!rows || !tmp)
            die(EXIT_INTERNAL, "out of memory");
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            tokenring_cluster_node_info info;
            tokenring_cluster_node(&info, ctx->cluster, i);
            if (strcmp(info.datacenter, dcs[d]) == 0)
                for (size_t j = 0; j < info.declared_tokens; j++) {
                    char *tt = cluster_token_text(ctx, i, j);
                    if (!tt)
                        die(EXIT_INTERNAL, "token %zu of node %s: unknown", j, info.name);
                    rows[k++] = (struct row){ tt, i };
                }
        }
        sort_rows(rows, tmp, nrows, part); /* tokens are distinct */
        free(tmp);
        if (ctx->opt.json) {
            sb_puts(&ctx->out, d ? ",\n " : "");
            sb_puts(&ctx->out, "{\"datacenter\": ");
            sb_json_str(&ctx->out, dcs[d]);
            sb_puts(&ctx->out, ", \"rows\": [");
            for (size_t a = 0; a < nrows; a++) {
                tokenring_cluster_node_info info;
                tokenring_cluster_node(&info, ctx->cluster, rows[a].node);
                sb_puts(&ctx->out, a ? ",\n  " : "\n  ");
                sb_puts(&ctx->out, "{\"address\": ");
                sb_json_str(&ctx->out, info.name);
                sb_puts(&ctx->out, ", \"rack\": ");
                sb_json_str(&ctx->out, info.rack);
                sb_printf(&ctx->out, ", \"status\": \"%s\", \"state\": \"%s\", \"owns\": ",
                          liveness_word(info.liveness), state_word(info.state));
                json_own(ctx, &o, rows[a].node);
                sb_printf(&ctx->out, ", \"token\": \"%s\"}", rows[a].token);
            }
            sb_puts(&ctx->out, "]}");
            free_rows(rows, nrows);
            continue;
        }
        sb_printf(&ctx->out, "Datacenter: %s\n==========\n", dcs[d]);
        ring_row(ctx, w, "Address", "Rack", "Status", "State", "Load", "Owns", "Token");
        if (nrows > 1) {
            ring_row(ctx, w, "", "", "", "", "", "", rows[nrows - 1].token);
        } else {
            sb_puts(&ctx->out, "\n");
        }
        for (size_t a = 0; a < nrows; a++) {
            tokenring_cluster_node_info info;
            tokenring_cluster_node(&info, ctx->cluster, rows[a].node);
            char ow[320];
            size_t dummy = 0;
            owns_cell(ctx, &o, rows[a].node, true, ow, sizeof ow, &dummy, &dummy);
            const char *load = pasted(ctx, rows[a].node, false);
            ring_row(ctx, w, info.name, info.rack, liveness_word(info.liveness),
                     state_word(info.state), load ? load : "?", ow, rows[a].token);
        }
        sb_puts(&ctx->out, "\n");
        free_rows(rows, nrows);
    }
    if (ctx->opt.json) {
        sb_puts(&ctx->out, "]}\n");
    } else {
        if (vnodes)
            sb_puts(&ctx->out, "  Warning: \"nodetool ring\" is used to output all the tokens of a "
                          "node.\n  To view status related info of a node use \"nodetool "
                          "status\" instead.\n\n");
        size_t shown = 0, hidden = 0;
        for (size_t i = 0; i < n; i++) {
            char buf[320];
            owns_cell(ctx, &o, i, true, buf, sizeof buf, &shown, &hidden);
        }
        /* the tool's own notes on stderr: stdout is nodetool's, byte for byte */
        strbuf notes = { 0 };
        owns_note_to(&notes, &o, ctx->opt.nargs ? ctx->opt.args[0] : NULL, shown, hidden);
        for (char *line = notes.p; line && *line;) {
            char *nl = strchr(line, '\n');
            fprintf(stderr, "tokenring: %.*s\n", (int)(nl ? nl - line : (long)strlen(line)),
                    line);
            line = nl ? nl + 1 : line + strlen(line);
        }
        free(notes.p);
        /* Ring.java ends with printf("%n  " + errors): a blank line, two spaces, and the
         * note ("Note: ...%n") when effective ownership was not shown */
        sb_puts(&ctx->out, "\n  ");
        if (o.mode == OWN_UNKNOWN)
            sb_printf(&ctx->out, "Note: %s\n", NOTE_DIFFERENT);
        else if (o.mode == OWN_PRIMARY)
            sb_puts(&ctx->out, "Note: Ownership information does not include topology; for "
                          "complete information, specify a keyspace\n");
        if ((tokenring_ring_ownership_flags(ctx->ring) & TOKENRING_OWNERSHIP_DATA_DEPENDENT) &&
            o.mode != OWN_UNKNOWN) /* the tool's own note: on stderr, stdout is nodetool's */
            fputs("tokenring: note: ByteOrderedPartitioner's ownership counts sampled keys "
                  "per range; Owns is its figure for a cluster without data (each token "
                  "1/N)\n", stderr);
    }
    free(dcs);
    free(o.o);
}

/* status [KS] */
TOOL_COMMAND(cmd_status)
{
    check_args(ctx, 0, 1, "[KEYSPACE]");
    struct own o = compute_ownership(ctx, ctx->opt.nargs ? ctx->opt.args[0] : NULL, false);
    size_t n = tokenring_cluster_node_count(ctx->cluster);
    size_t ndc;
    const char **dcs = cluster_dcs(ctx, &ndc);
    size_t total_tokens = 0;
    for (size_t i = 0; i < n; i++) {
        tokenring_cluster_node_info info;
        tokenring_cluster_node(&info, ctx->cluster, i);
        total_tokens += info.declared_tokens;
    }
    /* nodetool compares the token count with the number of datacenters */
    bool token_layout = total_tokens <= ndc && o.o != NULL;
    const char *owns_head = o.mode == OWN_EFFECTIVE ? "Owns (effective)" : "Owns";
    if (ctx->opt.json) {
        sb_printf(&ctx->out, "{\"ownership\": \"%s\", \"nodes\": [", mode_name(o.mode));
        for (size_t d = 0, first = 1; d < ndc; d++) {
            for (size_t i = 0; i < n; i++) {
                tokenring_cluster_node_info info;
                tokenring_cluster_node(&info, ctx->cluster, i);
                if (strcmp(info.datacenter, dcs[d]) != 0)
                    continue;
                sb_puts(&ctx->out, first ? "\n " : ",\n ");
                first = 0;
                sb_puts(&ctx->out, "{\"address\": ");
                sb_json_str(&ctx->out, info.name);
                sb_puts(&ctx->out, ", \"datacenter\": ");
                sb_json_str(&ctx->out, info.datacenter);
                sb_puts(&ctx->out, ", \"rack\": ");
                sb_json_str(&ctx->out, info.rack);
                sb_printf(&ctx->out, ", \"status\": \"%s\", \"state\": \"%s\", \"tokens\": %zu, "
                                "\"host_id\": ",
                          liveness_word(info.liveness), state_word(info.state),
                          info.declared_tokens);
                if (info.host_id)
                    sb_json_str(&ctx->out, info.host_id);
                else
                    sb_puts(&ctx->out, "null");
                sb_puts(&ctx->out, ", \"owns\": ");
                json_own(ctx, &o, i);
                sb_puts(&ctx->out, "}");
            }
        }
        sb_puts(&ctx->out, "]}\n");
        free(dcs);
        free(o.o);
        return;
    }
    /* cells first, for shared column widths */
    enum { NCOL = 7 };
    const char *head[NCOL];
    size_t nc = 0;
    head[nc++] = "--";
    head[nc++] = "Address";
    head[nc++] = "Load";
    if (!token_layout)
        head[nc++] = "Tokens";
    head[nc++] = owns_head;
    head[nc++] = "Host ID";
    if (token_layout)
        head[nc++] = "Token";
    head[nc++] = "Rack";
    char **cells = calloc(n * NCOL + 1, sizeof *cells);
    size_t width[NCOL];
    if (!cells)
        die(EXIT_INTERNAL, "out of memory");
    size_t shown_pasted = 0, hidden_pasted = 0;
    for (size_t c = 0; c < nc; c++)
        width[c] = strlen(head[c]);
    for (size_t i = 0; i < n; i++) {
        tokenring_cluster_node_info info;
        tokenring_cluster_node(&info, ctx->cluster, i);
        char buf[NCOL][320];
        size_t c = 0;
        snprintf(buf[c++], 320, "%c%c",
                 info.liveness == TOKENRING_UP ? 'U' : info.liveness == TOKENRING_DOWN ? 'D'
                                                                                       : '?',
                 "NJLM"[info.state & 3]);
        snprintf(buf[c++], 320, "%s", info.name);
        const char *load = pasted(ctx, i, false);
        snprintf(buf[c++], 320, "%s", load ? load : "?");
        if (!token_layout)
            snprintf(buf[c++], 320, "%zu", info.declared_tokens);
        owns_cell(ctx, &o, i, false, buf[c++], 320, &shown_pasted, &hidden_pasted);
        snprintf(buf[c++], 320, "%s", info.host_id ? info.host_id : "?");
        if (token_layout) {
            char *tt = cluster_token_text(ctx, i, 0);
            snprintf(buf[c++], 320, "%s", tt ? tt : "?");
            free(tt);
        }
        snprintf(buf[c++], 320, "%s", info.rack);
        for (size_t j = 0; j < nc; j++) {
            cells[i * NCOL + j] = strdup(buf[j]);
            if (!cells[i * NCOL + j])
                die(EXIT_INTERNAL, "out of memory");
            if (strlen(buf[j]) > width[j])
                width[j] = strlen(buf[j]);
        }
    }
    for (size_t d = 0; d < ndc; d++) {
        char title[400];
        snprintf(title, sizeof title, "Datacenter: %s", dcs[d]);
        sb_printf(&ctx->out, "%s\n", title);
        for (size_t k = strlen(title); k > 0; k--)
            sb_puts(&ctx->out, "=");
        sb_puts(&ctx->out, "\nStatus=Up/Down\n|/ State=Normal/Leaving/Joining/Moving\n");
        for (size_t c = 0; c < nc; c++) {
            sb_pad(&ctx->out, head[c], width[c]);
            sb_puts(&ctx->out, c + 1 < nc ? "  " : "\n");
        }
        for (size_t i = 0; i < n; i++) {
            tokenring_cluster_node_info info;
            tokenring_cluster_node(&info, ctx->cluster, i);
            if (strcmp(info.datacenter, dcs[d]) != 0)
                continue;
            for (size_t c = 0; c < nc; c++) {
                sb_pad(&ctx->out, cells[i * NCOL + c], width[c]);
                sb_puts(&ctx->out, c + 1 < nc ? "  " : "\n");
            }
        }
        sb_puts(&ctx->out, "\n");
    }
    owns_note(ctx, &o, ctx->opt.nargs ? ctx->opt.args[0] : NULL, shown_pasted, hidden_pasted);
    if (o.mode == OWN_UNKNOWN && o.o)
        sb_printf(&ctx->out, "Note: %s\n", NOTE_DIFFERENT);
    else if (o.mode == OWN_UNKNOWN && shown_pasted)
        ;
    else if (o.mode == OWN_UNKNOWN)
        sb_puts(&ctx->out, "Note: the input has no tokens (nodetool status), so ownership is "
                      "unknown\n");
    for (size_t i = 0; i < n * NCOL; i++)
        free(cells[i]);
    free(cells);
    free(dcs);
    free(o.o);
}

/* demo [KEY...] */
TOOL_COMMAND(cmd_demo)
{
    if (!ctx->demo)
        die(EXIT_USAGE, "demo works on the built-in demo ring only (give no input)");
    static char *defaults[] = { "user42" };
    char **args = ctx->opt.nargs ? ctx->opt.args : defaults;
    size_t nargs = ctx->opt.nargs ? ctx->opt.nargs : 1;
    size_t n;
    struct key *keys = collect_keys(ctx, args, nargs, &n);
    const tokenring_replication *r = find_keyspace(ctx, "demo");
    tokenring_placement *p = build_placement(ctx, r);
    size_t nt;
    tokenring_ring_tokens(ctx->ring, &nt);
    if (ctx->opt.json)
        sb_puts(&ctx->out, "[");
    else
        sb_printf(&ctx->out, "Demo ring: %zu nodes x 8 tokens (layout seed 1), datacenter1; "
                        "keyspace demo = NetworkTopologyStrategy datacenter1=3\n\n",
                  tokenring_ring_node_count(ctx->ring));
    for (size_t i = 0; i < n; i++) {
        tokenring_replicas rep;
        tokenring_range rg;
        tokenring_placement_replicas(&rep, p, keys[i].token);
        tokenring_ring_range_of(&rg, ctx->ring, keys[i].token);
        if (ctx->opt.json) {
            sb_puts(&ctx->out, i ? ",\n " : "");
            sb_puts(&ctx->out, "{\"key\": ");
            sb_json_str(&ctx->out, keys[i].label);
            sb_printf(&ctx->out, ", \"token\": \"%lld\", \"owner\": ", (long long)keys[i].token);
            sb_json_str(&ctx->out, node_name(ctx, rg.owner));
            sb_puts(&ctx->out, ", \"replicas\": [");
            for (uint32_t j = 0; j < rep.count; j++) {
                sb_puts(&ctx->out, j ? ", " : "");
                sb_json_str(&ctx->out, node_name(ctx, rep.nodes[j]));
            }
            sb_puts(&ctx->out, "]}");
            continue;
        }
        sb_printf(&ctx->out, "key       %s\ntoken     %lld\nrange     (%lld, %lld]\nowner     %s\n"
                        "replicas ",
                  keys[i].label, (long long)keys[i].token, (long long)rg.start,
                  (long long)rg.end, node_name(ctx, rg.owner));
        for (uint32_t j = 0; j < rep.count; j++)
            sb_printf(&ctx->out, " %s", node_name(ctx, rep.nodes[j]));
        sb_puts(&ctx->out, i + 1 < n ? "\n\n" : "\n");
    }
    if (ctx->opt.json)
        sb_puts(&ctx->out, "]\n");
    tokenring_placement_free(p);
    free_keys(keys, n);
}
