/* SPDX-License-Identifier: Apache-2.0 */
/* Input loading: the cluster from files (any format the library parses), the demo ring
 * or --keyspace definitions; the ring and placements built from it on demand; lookups the
 * commands share. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* Which input first named which nodes (for messages about a node's tokens). */
static struct origin {
    size_t first;          /* index of the first node this input added */
    int format;
    const char *name;
} origins[64];
static size_t norigins;
static bool partial_warned;

/* The library's message without its remedy (the input was accepted with it). */
static void strip_remedy(char *msg)
{
    static const char *const tails[] = { " (allow partial input to accept it)",
                                         "; allow partial input to accept it" };
    for (size_t i = 0; i < 2; i++) {
        char *at = strstr(msg, tails[i]);
        if (at)
            memmove(at, at + strlen(tails[i]), strlen(at + strlen(tails[i])) + 1);
    }
}

/* With --allow-partial: reads the input again without it to name what was cut. */
static void warn_partial(tr_ctx *ctx, const char *text, size_t len, int format,
                         const char *name)
{
    tokenring_cluster *scratch = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    if (tokenring_cluster_new(&scratch) != TOKENRING_OK)
        die(EXIT_INTERNAL, "out of memory");
    tokenring_cluster_set_partitioner(scratch, tokenring_cluster_partitioner(ctx->cluster),
                                      NULL);
    int rc = tokenring_cluster_parse(scratch, format, text, len, 0, NULL, &err);
    tokenring_cluster_free(scratch);
    if (rc != TOKENRING_E_PARSE)
        return; /* this input was whole */
    strip_remedy(err.message);
    fprintf(stderr, "tokenring: warning: the input is incomplete: %s:%u:%u: %s; results "
                    "describe only the tokens it shows\n",
            name, (unsigned)err.line, (unsigned)err.column, err.message);
    partial_warned = true;
}

static void load_input(tr_ctx *ctx, const struct input *in)
{
    static const int formats[] = { TOKENRING_INPUT_AUTO, TOKENRING_INPUT_TOPOLOGY,
                                   TOKENRING_INPUT_NODETOOL_RING,
                                   TOKENRING_INPUT_NODETOOL_STATUS, TOKENRING_INPUT_CQLSH };
    size_t len;
    char *text = read_all(in->path, &len);
    const char *name = strcmp(in->path, "-") == 0 ? "<stdin>" : in->path;
    if ((in->kind == IN_SCHEMA || in->kind == IN_CQLSH || in->kind == IN_AUTO) &&
        schema_read(ctx, name, text, len)) {
        free(text);
        return;
    }
    int format = formats[in->kind == IN_SCHEMA ? IN_CQLSH : in->kind];
    if (format == TOKENRING_INPUT_TOPOLOGY &&
        tokenring_input_detect(text, len) == TOKENRING_INPUT_TSV)
        format = TOKENRING_INPUT_TSV;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    size_t before = tokenring_cluster_node_count(ctx->cluster);
    int rc = tokenring_cluster_parse(ctx->cluster, format, text, len,
                                     (ctx->opt.allow_partial ? TOKENRING_PARSE_ALLOW_PARTIAL : 0) |
                                     (ctx->opt.merge_disjoint ? TOKENRING_PARSE_MERGE_DISJOINT
                                                              : 0),
                                     &format, &err);
    if (rc == TOKENRING_OK && ctx->opt.allow_partial &&
        (tokenring_cluster_flags(ctx->cluster) & TOKENRING_CLUSTER_PARTIAL))
        warn_partial(ctx, text, len, format, name);
    free(text);
    if (rc == TOKENRING_OK && norigins < sizeof origins / sizeof *origins)
        origins[norigins++] = (struct origin){ before, format, name };
    if (rc != TOKENRING_OK) {
        char buf[sizeof err.message + 64];
        const char *msg = with_remedy(err.message, buf, sizeof buf);
        if (err.line)
            die(lib_exit(rc), "%s:%u:%u: %s", name, (unsigned)err.line, (unsigned)err.column,
                msg);
        die(lib_exit(rc), "%s: %s", name, err.message[0] ? msg : tokenring_strerror(rc));
    }
}

static void load_demo(tr_ctx *ctx)
{
    static const char *names[] = { "10.0.0.1", "10.0.0.2", "10.0.0.3",
                                   "10.0.0.4", "10.0.0.5", "10.0.0.6" };
    tokenring_topology *t = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = tokenring_topology_new(&t);
    if (rc == TOKENRING_OK)
        rc = tokenring_layout_add_seeded_nodes(t, 1, 8, names, NULL, NULL, 6, 0, &err);
    if (rc == TOKENRING_OK)
        rc = tokenring_cluster_add_topology(ctx->cluster, t, &err);
    tokenring_topology_free(t);
    tokenring_replication *r = NULL;
    {
        static const char demo_repl[] = "NetworkTopologyStrategy:datacenter1=3";
        if (rc == TOKENRING_OK)
            rc = tokenring_replication_parse(&r, demo_repl, strlen(demo_repl), &err);
    }
    if (rc == TOKENRING_OK)
        rc = tokenring_cluster_add_keyspace(ctx->cluster, "demo", r, &err);
    tokenring_replication_free(r);
    if (rc != TOKENRING_OK)
        die(EXIT_INTERNAL, "cannot build the demo ring: %s", err.message);
    ctx->demo = true;
}

void add_keyspace_defs(tr_ctx *ctx)
{
    for (size_t i = 0; i < ctx->opt.nks_defs; i++) {
        const char *d = ctx->opt.ks_defs[i];
        const char *eq = strchr(d, '=');
        if (!eq || eq == d || !eq[1])
            die(EXIT_USAGE, "--keyspace %s: expected NAME=REPLICATION, e.g. "
                            "shop=NetworkTopologyStrategy:dc1=3", d);
        char name[300];
        size_t nl = (size_t)(eq - d);
        if (nl >= sizeof name)
            die(EXIT_USAGE, "--keyspace: name too long");
        memcpy(name, d, nl);
        name[nl] = '\0';
        tokenring_replication *r = NULL;
        tokenring_error err;
        memset(&err, 0, sizeof err);
        int rc = tokenring_replication_parse(&r, eq + 1, strlen(eq + 1), &err);
        if (rc != TOKENRING_OK)
            die(EXIT_USAGE, "--keyspace %s: column %u: %s", d,
                (unsigned)(err.column + nl + 1), err.message);
        /* a definition on the command line replaces one of the same name from a file:
         * the cluster refuses duplicates, so it must be new */
        rc = tokenring_cluster_add_keyspace(ctx->cluster, name, r, &err);
        tokenring_replication_free(r);
        if (rc != TOKENRING_OK)
            die(rc == TOKENRING_E_NOMEM ? EXIT_INTERNAL : EXIT_USAGE, "--keyspace %s: %s", d,
                err.message);
    }
}

/* --partitioner P fixes the partitioner the inputs' tokens are read in (without it the
 * library reads it from the tokens, a topology file's partitioner line or cqlsh
 * system.local's partitioner column). */
tokenring_partitioner tool_partitioner(tr_ctx *ctx)
{
    if (!ctx->opt.partitioner)
        return tokenring_cluster_partitioner(ctx->cluster);
    return strcmp(ctx->opt.partitioner, "random") == 0 ? TOKENRING_PARTITIONER_RANDOM
           : strcmp(ctx->opt.partitioner, "byteordered") == 0
               ? TOKENRING_PARTITIONER_BYTE_ORDERED
               : TOKENRING_PARTITIONER_MURMUR3;
}

static void apply_partitioner(tr_ctx *ctx)
{
    if (!ctx->opt.partitioner)
        return;
    tokenring_partitioner p = tool_partitioner(ctx);
    tokenring_error err;
    memset(&err, 0, sizeof err);
    if (tokenring_cluster_set_partitioner(ctx->cluster, p, &err) != TOKENRING_OK)
        die(EXIT_INTERNAL, "--partitioner: %s", err.message);
}

void load_cluster(tr_ctx *ctx)
{
    if (tokenring_cluster_new(&ctx->cluster) != TOKENRING_OK)
        die(EXIT_INTERNAL, "out of memory");
    if (ctx->opt.ninputs == 0 && ctx->opt.partitioner &&
        strcmp(ctx->opt.partitioner, "murmur3") != 0 && strcmp(ctx->opt.cmd, "token") != 0 &&
        strcmp(ctx->opt.cmd, "generatetokens") != 0)
        die(EXIT_USAGE, "--partitioner %s: give the ring (--topology FILE, --nodetool-ring "
                        "FILE, --cqlsh FILE, ...; the built-in demo ring is Murmur3's)",
            ctx->opt.partitioner);
    if (ctx->opt.history)
        load_history(ctx); /* with no other input, the history's ring and keyspaces */
    if (ctx->opt.ninputs == 0 && !ctx->opt.history) {
        load_demo(ctx); /* Murmur3's, whatever --partitioner says (token prints tokens) */
        /* every time it answers from it: a script whose input variable came out empty
         * must not take the demo ring's made-up answers for its cluster's (generatetokens
         * plans an empty cluster then, token --partitioner random|byteordered prints
         * tokens only) */
        bool other = ctx->opt.partitioner && strcmp(ctx->opt.partitioner, "murmur3") != 0;
        if (strcmp(ctx->opt.cmd, "generatetokens") != 0 &&
            !(strcmp(ctx->opt.cmd, "token") == 0 && other))
            fputs(DEMO_NOTICE "\n", stderr);
    } else if (ctx->opt.ninputs)
        apply_partitioner(ctx);
    for (size_t i = 0; i < ctx->opt.ninputs; i++)
        load_input(ctx, &ctx->opt.inputs[i]);
    add_keyspace_defs(ctx);
    size_t nskip = tokenring_cluster_skipped_keyspace_count(ctx->cluster);
    if (nskip) {
        fprintf(stderr, "tokenring: note: skipped %zu keyspace%s whose replication places "
                        "nothing on the token ring:", nskip, nskip == 1 ? "" : "s");
        for (size_t i = 0; i < nskip; i++) {
            const char *name, *cls;
            tokenring_cluster_skipped_keyspace(&name, &cls, ctx->cluster, i);
            const char *dot = strrchr(cls, '.');
            fprintf(stderr, "%s %s (%s)", i ? "," : "", name, dot ? dot + 1 : cls);
        }
        fputs("\n", stderr);
    }
    uint32_t flags = tokenring_cluster_flags(ctx->cluster);
    if (flags & TOKENRING_CLUSTER_DEFAULT_DC_RACK) {
        bool local = false;
        for (size_t i = 0, n = tokenring_cluster_node_count(ctx->cluster); i < n; i++) {
            tokenring_cluster_node_info info;
            tokenring_cluster_node(&info, ctx->cluster, i);
            local |= strcmp(info.name, "local") == 0;
        }
        fprintf(stderr, "tokenring: note: the input gives no datacenter or rack for some "
                        "nodes (cqlsh SELECT peer, tokens ...): they are in datacenter "
                        "datacenter1, rack rack1, the defaults of Cassandra's default snitch "
                        "(SimpleSnitch); select data_center and rack to use the real ones%s\n",
                local ? "; the system.local row without its address is the node 'local'"
                      : "");
    }
    if ((flags & TOKENRING_CLUSTER_PARTIAL) && !partial_warned)
        fprintf(stderr, "tokenring: warning: the input is incomplete (elided or cut-short "
                        "listing); results describe only the tokens it shows\n");
    if (flags & TOKENRING_CLUSTER_PARTITIONER_INFERRED) {
        bool random =
            tokenring_cluster_partitioner(ctx->cluster) == TOKENRING_PARTITIONER_RANDOM;
        fprintf(stderr, "tokenring: note: partitioner %s inferred from the tokens' form (%s); "
                        "--partitioner %s names it\n",
                random ? "RandomPartitioner" : "ByteOrderedPartitioner",
                random ? "decimals up to 2^127, none negative, most above 2^63 - 1"
                       : "hexadecimal, some with a letter a-f",
                random ? "random" : "byteordered");
    }
}

/* Dies naming why node i's tokens are unknown, from the input that first named it. */
static void die_unknown_tokens(const tokenring_cluster_node_info *info, size_t i)
{
    size_t k = norigins;
    while (k > 0 && origins[k - 1].first > i)
        k--;
    if (k > 0 && origins[k - 1].format == TOKENRING_INPUT_CQLSH)
        die(EXIT_INPUT, "the tokens of node %s are unknown: its row in %s (line %u) has "
                        "tokens null (a node that has not joined the ring yet, or a stale "
                        "system.peers row): remove that row, or give nodetool ring output",
            info->name, origins[k - 1].name, (unsigned)info->line);
    if (k > 0 && origins[k - 1].format == TOKENRING_INPUT_TOPOLOGY)
        die(EXIT_INPUT, "the tokens of node %s are unknown: %s (line %u) gives only its "
                        "token count: give its tokens (tokens=...)",
            info->name, origins[k - 1].name, (unsigned)info->line);
    die(EXIT_INPUT, "the tokens of node %s are unknown (nodetool status shows only token "
                    "counts): give nodetool ring or cqlsh output, or a topology file with "
                    "tokens", info->name);
}

const tokenring_ring *need_ring(tr_ctx *ctx)
{
    if (ctx->ring)
        return ctx->ring;
    const tokenring_topology *t = tokenring_cluster_topology(ctx->cluster);
    if (!t) {
        size_t n = tokenring_cluster_node_count(ctx->cluster);
        if (n && tokenring_cluster_partitioner(ctx->cluster) != TOKENRING_PARTITIONER_MURMUR3)
            die(EXIT_INPUT, "the tokens of some node are unknown (nodetool status shows only "
                            "token counts): give nodetool ring or cqlsh output, or a topology "
                            "file with tokens");
        for (size_t i = 0; i < n; i++) {
            tokenring_cluster_node_info info;
            tokenring_cluster_node(&info, ctx->cluster, i);
            if (!info.tokens)
                die_unknown_tokens(&info, i);
        }
        die(EXIT_INPUT, "the input describes no node");
    }
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = tokenring_ring_build(&ctx->ring, t, &err);
    if (rc != TOKENRING_OK)
        die(lib_exit(rc), "cannot build the ring: %s", err.message);
    return ctx->ring;
}

const tokenring_topology *need_topology(tr_ctx *ctx)
{
    need_ring(ctx);
    return tokenring_cluster_topology(ctx->cluster);
}

const tokenring_replication *find_keyspace(tr_ctx *ctx, const char *name)
{
    size_t idx;
    const tokenring_replication *r = NULL;
    if (tokenring_cluster_find_keyspace(&idx, ctx->cluster, name) != TOKENRING_OK) {
        strbuf known = { 0 };
        size_t k = tokenring_cluster_keyspace_count(ctx->cluster);
        const char **names = calloc(k + 1, sizeof *names);
        if (!names)
            die(EXIT_INTERNAL, "out of memory");
        for (size_t i = 0; i < k; i++) {
            tokenring_cluster_keyspace(&names[i], NULL, ctx->cluster, i);
            sb_printf(&known, "%s%s", i ? ", " : "", names[i]);
        }
        char hint[320];
        did_you_mean(name, names, k, hint, sizeof hint);
        die(EXIT_USAGE, "unknown keyspace '%s' (%s%s)%s; define one with --keyspace "
                        "NAME=REPLICATION or a 'keyspace' line in the topology file",
            name, k ? "known: " : "the input defines none", k ? known.p : "", hint);
    }
    tokenring_cluster_keyspace(NULL, &r, ctx->cluster, idx);
    return with_rules(ctx, r);
}

const tokenring_replication *shared_replication(tr_ctx *ctx, bool *differ)
{
    *differ = false;
    size_t k = tokenring_cluster_keyspace_count(ctx->cluster);
    if (k == 0)
        return NULL;
    char first[4096], cur[4096];
    size_t len;
    const tokenring_replication *r0;
    tokenring_cluster_keyspace(NULL, &r0, ctx->cluster, 0);
    *differ = tokenring_replication_format(first, sizeof first, &len, r0) != TOKENRING_OK;
    for (size_t i = 1; i < k && !*differ; i++) {
        const tokenring_replication *r;
        tokenring_cluster_keyspace(NULL, &r, ctx->cluster, i);
        *differ = tokenring_replication_format(cur, sizeof cur, &len, r) != TOKENRING_OK ||
                  strcmp(cur, first) != 0;
    }
    return *differ ? NULL : with_rules(ctx, r0);
}

/* The copies with_rules() made, freed at exit. */
static tokenring_replication **ruled;
static size_t nruled;

static void free_ruled(void)
{
    for (size_t i = 0; i < nruled; i++)
        tokenring_replication_free(ruled[i]);
    free(ruled);
}

/* r itself, or with --cassandra-version a copy placed with that release's rules. */
const tokenring_replication *with_rules(tr_ctx *ctx, const tokenring_replication *r)
{
    if (ctx->opt.rules == 0 || r == NULL || tokenring_replication_rules(r) == ctx->opt.rules)
        return r;
    size_t len = 0;
    tokenring_replication_format(NULL, 0, &len, r);
    char *buf = malloc(len + 1);
    tokenring_replication **grown = realloc(ruled, (nruled + 1) * sizeof *ruled);
    tokenring_replication *copy = NULL;
    if (!buf || !grown)
        die(EXIT_INTERNAL, "out of memory");
    if (!ruled)
        atexit(free_ruled);
    ruled = grown;
    if (tokenring_replication_format(buf, len + 1, &len, r) != TOKENRING_OK ||
        tokenring_replication_parse(&copy, buf, len, NULL) != TOKENRING_OK ||
        tokenring_replication_set_rules(copy, ctx->opt.rules) != TOKENRING_OK)
        die(EXIT_INTERNAL, "cannot apply --cassandra-version to a replication");
    free(buf);
    ruled[nruled++] = copy;
    return copy;
}

/* Cassandra's rule for datacenters without nodes (the library's SKIP_EMPTY_DC): such a
 * datacenter gets no replicas, which stderr says, naming it. No replica at all fails,
 * unless EMPTY_OK: then, as Cassandra answers such a keyspace (SimpleStrategy with factor
 * 0, NetworkTopologyStrategy naming only datacenters without nodes), the placement's
 * replica lists are empty, and stderr says why. */
static tokenring_placement *placement_for(tr_ctx *ctx, const tokenring_replication *r,
                                          bool empty_ok)
{
    const tokenring_ring *ring = need_ring(ctx);
    tokenring_placement *p = history_placement(ctx, ring, r);
    if (p)
        return p;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = tokenring_placement_build(&p, ring, r, TOKENRING_PLACEMENT_SKIP_EMPTY_DC, &err);
    if (rc == TOKENRING_E_IMPOSSIBLE && empty_ok) {
        char text[512], hint[320] = "";
        if (tokenring_replication_empty_dc_count(r, ring))
            dc_hint(ctx, tokenring_replication_empty_dc(r, ring, 0), hint, sizeof hint);
        fprintf(stderr, "tokenring: warning: replication %s: %s: every replica list is "
                        "empty and every node owns 0%%, as Cassandra answers%s\n",
                repl_text(r, text, sizeof text), err.message, hint);
        /* the same walk without the refusal: no datacenter planned, empty lists */
        memset(&err, 0, sizeof err);
        rc = tokenring_placement_build(&p, ring, r, TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC, &err);
        if (rc != TOKENRING_OK)
            die(lib_exit(rc), "cannot place replicas: %s", err.message);
        return p;
    }
    if (rc == TOKENRING_E_IMPOSSIBLE) {
        strbuf dcs = { 0 };
        size_t n = tokenring_ring_dc_count(ring);
        for (size_t i = 0; i < n; i++)
            sb_printf(&dcs, "%s%s", i ? ", " : "", tokenring_ring_dc_name(ring, i));
        char hint[320] = "";
        if (tokenring_replication_empty_dc_count(r, ring))
            dc_hint(ctx, tokenring_replication_empty_dc(r, ring, 0), hint, sizeof hint);
        die(EXIT_INPUT, "cannot place replicas: %s; the ring's datacenters: %s%s", err.message,
            n ? dcs.p : "none", hint);
    }
    if (rc != TOKENRING_OK)
        die(lib_exit(rc), "cannot place replicas: %s", err.message);
    size_t empty = tokenring_replication_empty_dc_count(r, ring);
    for (size_t i = 0; i < empty; i++) {
        char text[512], hint[320];
        fprintf(stderr,
                "tokenring: warning: datacenter '%s' of replication %s has no node in the "
                "ring: Cassandra places no replica there%s\n",
                tokenring_replication_empty_dc(r, ring, i), repl_text(r, text, sizeof text),
                dc_hint(ctx, tokenring_replication_empty_dc(r, ring, i), hint,
                        sizeof hint));
    }
    return p;
}

tokenring_placement *build_placement(tr_ctx *ctx, const tokenring_replication *r)
{
    return placement_for(ctx, r, false);
}

tokenring_placement *build_placement_empty_ok(tr_ctx *ctx, const tokenring_replication *r)
{
    return placement_for(ctx, r, true);
}

const char *node_name(tr_ctx *ctx, uint32_t idx)
{
    tokenring_node_info info;
    if (tokenring_ring_node_brief(&info, ctx->ring, idx) != TOKENRING_OK)
        die(EXIT_INTERNAL, "bad node index %u", (unsigned)idx);
    return info.name;
}

const char *only_dc(tr_ctx *ctx)
{
    size_t ndc;
    const char **dcs = cluster_dcs(ctx, &ndc);
    const char *dc = ndc == 1 ? dcs[0] : NULL;
    free(dcs);
    return dc;
}

void check_args(tr_ctx *ctx, size_t min, size_t max, const char *usage)
{
    if (ctx->opt.nargs < min || ctx->opt.nargs > max)
        die(EXIT_USAGE, "usage: tokenring %s %s (see tokenring --help)", ctx->opt.cmd, usage);
}
