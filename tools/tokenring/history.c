/* SPDX-License-Identifier: Apache-2.0 */
/* --history FILE: Cassandra 6.0's replica order, replayed from a cluster's history
 * (tokenring_history_replay_limited, under --budget and --progress; doc/cassandra-6.md). With no other input the history is the
 * input: its ring and its keyspaces. Placements then come from the history, laid over the
 * tool's ring node by node, and stderr says which rule ordered them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

static tokenring_history *history; /* the replayed history (NULL: no --history) */

static void free_history(void)
{
    tokenring_history_free(history);
}

/* The history's ring and keyspaces as a topology text (the tool's input format). */
static void history_topology(strbuf *sb, const char *text, size_t len)
{
    for (size_t i = 0; i < len;) {
        size_t e = i;
        while (e < len && text[e] != '\n')
            e++;
        char name[256], spec[512];
        if (e - i < 700 && strncmp(text + i, "keyspace ", 9) == 0) {
            char line[720];
            memcpy(line, text + i, e - i);
            line[e - i] = 0;
            tokenring_replication *r = NULL;
            if (sscanf(line, "keyspace %255s %511s", name, spec) == 2 &&
                tokenring_replication_parse(&r, spec, strlen(spec), NULL) == TOKENRING_OK) {
                char cql[512];
                size_t n = 0;
                if (tokenring_replication_format(cql, sizeof cql, &n, r) == TOKENRING_OK)
                    sb_printf(sb, "keyspace %s %s\n", name, cql);
                tokenring_replication_free(r);
            }
        }
        i = e + 1;
    }
    const tokenring_ring *ring = tokenring_history_ring(history);
    size_t nn = tokenring_ring_node_count(ring), nt = 0;
    const int64_t *toks = tokenring_ring_tokens(ring, &nt);
    for (size_t v = 0; v < nn; v++) {
        tokenring_node_info info;
        tokenring_ring_node_brief(&info, ring, (uint32_t)v);
        sb_printf(sb, "node %s dc=%s rack=%s tokens=", info.name, info.datacenter, info.rack);
        bool first = true;
        for (size_t i = 0; i < nt; i++) {
            uint32_t owner;
            tokenring_ring_owner(&owner, ring, toks[i]);
            if (owner == v) {
                sb_printf(sb, "%s%lld", first ? "" : ",", (long long)toks[i]);
                first = false;
            }
        }
        sb_printf(sb, "\n");
    }
}

void load_history(tr_ctx *ctx)
{
    const char *path = ctx->opt.history;
    size_t len;
    char *text = read_all(path, &len);
    tokenring_error err;
    memset(&err, 0, sizeof err);
    strbuf dump_ks = { 0 };
    bool dump = history_is_metadata_dump(text, len);
    int rc = TOKENRING_OK;
    if (dump) {
        history = history_from_dump(ctx, path, text, len, &dump_ks);
    } else {
        /* a long history: --budget, --progress (tokenring_history_replay_limited) */
        tokenring_limits lim;
        tool_limits(ctx, &lim, "replaying the history");
        rc = tokenring_history_replay_limited(&history, text, len, &lim, &err);
    }
    if (rc != TOKENRING_OK) {
        free(text);
        if (err.line)
            die(lib_exit(rc), "%s:%u:%u: %s", path, (unsigned)err.line, (unsigned)err.column,
                err.message);
        if (rc == TOKENRING_E_BUDGET) {
            char what[300];
            snprintf(what, sizeof what, "--history %s", path);
            fail_lib(rc, &err, what);
        }
        die(lib_exit(rc), "%s: %s", path, err.message);
    }
    atexit(free_history);
    if (!tokenring_history_ring(history)) {
        free(text);
        die(EXIT_INPUT, "%s: the history leaves no node in the ring", path);
    }
    if (ctx->opt.ninputs == 0) {
        strbuf sb = { 0 };
        if (dump_ks.n)
            sb_printf(&sb, "%s", dump_ks.p);
        history_topology(&sb, dump ? "" : text, dump ? 0 : len);
        rc = tokenring_cluster_parse(ctx->cluster, TOKENRING_INPUT_TOPOLOGY, sb.p, sb.n, 0,
                                     NULL, &err);
        free(sb.p);
        if (rc != TOKENRING_OK)
            die(lib_exit(rc), "%s: %s", path, err.message);
    }
    free(dump_ks.p);
    free(text);
}

tokenring_placement *history_placement(tr_ctx *ctx, const tokenring_ring *ring,
                                       const tokenring_replication *r)
{
    if (!history)
        return NULL;
    const tokenring_ring *hring = tokenring_history_ring(history);
    size_t n = 0, hn = 0;
    const int64_t *toks = tokenring_ring_tokens(ring, &n);
    const int64_t *htoks = tokenring_ring_tokens(hring, &hn);
    if (!toks || n != hn || memcmp(toks, htoks, n * sizeof *toks) != 0)
        die(EXIT_INPUT, "--history %s: the history's ring (%zu tokens) is not the input's "
                        "(%zu tokens): give the same moment's ring, or the history alone",
            ctx->opt.history, hn, n);
    tokenring_placement *hp = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = tokenring_history_placement(&hp, history, r, &err);
    if (rc != TOKENRING_OK)
        die(lib_exit(rc), "cannot place replicas from --history %s: %s", ctx->opt.history,
            err.message);
    /* the history's lists, node by node in the tool's ring (names, not indices); the
     * list above the largest token last (6.0 keeps it apart from range 0's) */
    uint32_t *off = calloc(n + 2, sizeof *off);
    size_t cap = 16;
    uint32_t *nodes = malloc(cap * sizeof *nodes);
    if (!off || !nodes)
        die(EXIT_INTERNAL, "out of memory");
    for (size_t i = 0; i <= n; i++) {
        tokenring_replicas rr;
        if (i < n)
            tokenring_placement_range_replicas(&rr, hp, i);
        else if (toks[n - 1] < INT64_MAX)
            tokenring_placement_replicas(&rr, hp, toks[n - 1] + 1);
        else
            rr.count = 0;
        for (uint32_t k = 0; k < rr.count; k++) {
            tokenring_node_info info;
            uint32_t v = 0;
            tokenring_ring_node_brief(&info, hring, rr.nodes[k]);
            if (tokenring_ring_find_node(&v, ring, info.name) != TOKENRING_OK)
                die(EXIT_INPUT, "--history %s: node %s is not in the input's ring",
                    ctx->opt.history, info.name);
            size_t at = off[i] + k;
            if (at == cap && !(nodes = realloc(nodes, (cap *= 2) * sizeof *nodes)))
                die(EXIT_INTERNAL, "out of memory");
            nodes[at] = v;
        }
        off[i + 1] = off[i] + rr.count;
    }
    tokenring_placement *p = NULL;
    rc = tokenring_placement_from_lists(&p, ring, r, off, nodes, nodes + off[n],
                                        off[n + 1] - off[n], TOKENRING_ORDER_HISTORY, &err);
    free(off);
    free(nodes);
    tokenring_placement_free(hp);
    if (rc != TOKENRING_OK)
        die(lib_exit(rc), "cannot place replicas from --history %s: %s", ctx->opt.history,
            err.message);
    static bool said;
    if (!said) {
        fprintf(stderr, "tokenring: note: replica order: Cassandra 6.0's, replayed from the "
                        "history %s (doc/cassandra-6.md)\n", ctx->opt.history);
        said = true;
    }
    return p;
}

/* Which rule ordered the replica lists a command shows (getendpoints, describering),
 * said once on stderr: the tokens (3.2-5.0's walk, or before 3.2's), the history
 * (history_placement says it), or a server's lists. */
void order_note(tr_ctx *ctx, const tokenring_placement *p)
{
    static bool said;
    int order = tokenring_placement_order(p);
    if (said || order == TOKENRING_ORDER_HISTORY)
        return;
    said = true;
    const char *v = ctx->opt.cassandra_version;
    if (order == TOKENRING_ORDER_SERVER)
        fprintf(stderr, "tokenring: note: replica order: the server's lists\n");
    else if (v && strncmp(v, "6.0", 3) == 0 && (v[3] == 0 || v[3] == '.' || v[3] == '-'))
        fprintf(stderr, "tokenring: note: replica order: from the tokens (Cassandra 3.2 to "
                        "5.0's rule); the sets are 6.0's, but 6.0 orders each range by the "
                        "cluster's history (even the first replica may differ): give --history "
                        "FILE for 6.0's order (doc/cassandra-6.md)\n");
    else if (ctx->opt.rules == TOKENRING_RULES_3_0)
        fprintf(stderr, "tokenring: note: replica order: from the tokens (Cassandra before "
                        "3.2's rule, --cassandra-version %s)\n", v);
    else
        fprintf(stderr, "tokenring: note: replica order: from the tokens (Cassandra 3.2 to "
                        "5.0's rule; 6.0 follows the cluster's history: --history FILE)\n");
}

const tokenring_history *tool_history(void)
{
    return history;
}
