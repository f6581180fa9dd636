/* SPDX-License-Identifier: Apache-2.0 */
/* Planning: generatetokens: tokens for new nodes from the library's plan or Cassandra's
 * allocator, or (--layout) an even or seeded layout of a new Murmur3 or RandomPartitioner
 * cluster; the names and racks of planned nodes (also migrate.c's). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* The names of n planned nodes: --names (exactly n of them), else node1, node2, ...
 * ("DC-node1", ... with a prefix). */
char **node_names(tr_ctx *ctx, size_t n, const char *prefix)
{
    size_t nn = 0;
    char **names;
    if (ctx->opt.names) {
        names = split_list(ctx->opt.names, &nn);
        if (nn != n)
            die(EXIT_USAGE, "--names: %zu names for %zu nodes", nn, n);
        return names;
    }
    names = calloc(n + 1, sizeof *names);
    if (!names)
        die(EXIT_INTERNAL, "out of memory");
    for (size_t i = 0; i < n; i++) {
        char b[300];
        snprintf(b, sizeof b, "%s%snode%zu", prefix, *prefix ? "-" : "", i + 1);
        if (!(names[i] = strdup(b)))
            die(EXIT_INTERNAL, "out of memory");
    }
    return names;
}

/* Rack names for n new nodes: --racks "2,2,2" (nodes per rack, as Cassandra's
 * generatetokens takes them) fills rack1..rackN round-robin, "RAC1=2,RAC2=2" names the
 * racks (existing ones or new); by default one rack, "rack1".
 * Which rack each node gets and what it is called are the library's
 * (tokenring_layout_assign_racks, tokenring_layout_rack_name); this reads the option. */
char **rack_plan(tr_ctx *ctx, size_t n, size_t *nracks_out)
{
    size_t nr = 1;
    uint32_t counts[256];
    char *names[256] = { NULL };
    if (ctx->opt.racks) {
        char **v = split_list(ctx->opt.racks, &nr);
        if (nr > 256)
            die(EXIT_USAGE, "--racks: at most 256 racks");
        for (size_t i = 0; i < nr; i++) {
            char *num = v[i], *eq = strrchr(v[i], '=');
            if (eq) {
                *eq = '\0';
                num = eq + 1;
                if (!*v[i])
                    die(EXIT_USAGE, "--racks: an empty rack name in '%s'", ctx->opt.racks);
                for (size_t k = 0; k < i; k++)
                    if (names[k] && strcmp(names[k], v[i]) == 0)
                        die(EXIT_USAGE, "--racks: rack %s named twice", v[i]);
                if (!(names[i] = strdup(v[i])))
                    die(EXIT_INTERNAL, "out of memory");
            }
            char *end;
            errno = 0;
            long c = strtol(num, &end, 10);
            if (!*num || *end || c < 1 || errno || (unsigned long)c > UINT32_MAX)
                die(EXIT_USAGE, "--racks: expected node counts per rack such as 2,2,2 or "
                                "RAC1=2,RAC2=2");
            counts[i] = (uint32_t)c;
        }
        free(v[0]);
        free(v);
    }
    uint32_t *rack_of = calloc(n + 1, sizeof *rack_of);
    char **racks = calloc(n + 1, sizeof *racks);
    if (!rack_of || !racks)
        die(EXIT_INTERNAL, "out of memory");
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = tokenring_layout_assign_racks(NULL, rack_of, n, 1, (uint32_t)nr,
                                           ctx->opt.racks ? counts : NULL, &err);
    if (rc != TOKENRING_OK)
        die(EXIT_USAGE, "--racks: %s", err.message);
    for (size_t k = 0; k < n; k++) {
        char name[16];
        size_t len;
        if (names[rack_of[k]]) {
            if (!(racks[k] = strdup(names[rack_of[k]])))
                die(EXIT_INTERNAL, "out of memory");
            continue;
        }
        if (tokenring_layout_rack_name(name, sizeof name, &len, rack_of[k]) != TOKENRING_OK ||
            !(racks[k] = strdup(name)))
            die(EXIT_INTERNAL, "out of memory");
    }
    for (size_t i = 0; i < nr && i < 256; i++)
        free(names[i]);
    free(rack_of);
    *nracks_out = nr;
    return racks;
}

const char *join_rack(tr_ctx *ctx, const tokenring_topology *t, const char *dc,
                      const char *cmd)
{
    if (ctx->opt.rack)
        return ctx->opt.rack;
    const char *found[64];
    size_t nf = 0, total = 0;
    for (size_t i = 0; t && i < tokenring_topology_node_count(t); i++) {
        tokenring_node_info info;
        if (tokenring_topology_node(&info, t, i) != TOKENRING_OK ||
            strcmp(info.datacenter, dc) != 0)
            continue;
        bool seen = false;
        for (size_t k = 0; k < nf && !seen; k++)
            seen = strcmp(found[k], info.rack) == 0;
        if (!seen) {
            if (nf < 64)
                found[nf++] = info.rack;
            total++;
        }
    }
    if (total == 0)
        return "rack1";
    if (total == 1)
        return found[0];
    strbuf list = { 0 };
    for (size_t k = 0; k < nf; k++)
        sb_printf(&list, "%s%s", k ? ", " : "", found[k]);
    die(EXIT_USAGE, "%s: datacenter %s has %zu racks (%s%s): give --rack, one of them or a new "
                    "one", cmd, dc, total, list.p, total > nf ? ", ..." : "");
}

uint32_t cassandra_release(tr_ctx *ctx, const char **name_out)
{
    const char *v = ctx->opt.cassandra_version ? ctx->opt.cassandra_version : "5.0";
    static const struct { const char *name; uint32_t id; } lines[] = {
        { "4.0", TOKENRING_CASSANDRA_4_0 },
        { "4.1", TOKENRING_CASSANDRA_4_1 },
        { "5.0", TOKENRING_CASSANDRA_5_0 },
    };
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        size_t n = strlen(lines[i].name);
        /* "5.0" or a release of the line, "5.0.2" */
        if (strncmp(v, lines[i].name, n) == 0 && (v[n] == '\0' || v[n] == '.')) {
            if (name_out)
                *name_out = lines[i].name;
            return lines[i].id;
        }
    }
    if (strncmp(v, "6.0", 3) == 0 && (v[3] == 0 || v[3] == '.' || v[3] == '-')) {
        /* 6.0-alpha2's allocator classes are 5.0.9's, bytecode for bytecode, and so is
         * the address hash (tests/data/gen/allocation/README.md) */
        static bool said;
        if (!said)
            fprintf(stderr, "tokenring: note: --cassandra-version %s: token allocation as "
                            "5.0's (6.0-alpha2's allocator classes are 5.0.9's; compared, not "
                            "run)\n", v);
        said = true;
        if (name_out)
            *name_out = "5.0";
        return TOKENRING_CASSANDRA_5_0;
    }
    die(EXIT_USAGE, "--cassandra-version: expected 4.0, 4.1 or 5.0 (or a release of them), "
                    "found '%s'", v);
}

static int64_t cassandra_first_token(tr_ctx *ctx)
{
    if (ctx->opt.first_token) {
        size_t n;
        int64_t *t = parse_token_list_arg(ctx->opt.first_token, &n);
        if (n != 1)
            die(EXIT_USAGE, "--first-token: expected one token");
        int64_t v = t[0];
        free(t);
        return v;
    }
    uint64_t r = 0;
    FILE *f = fopen("/dev/urandom", "rb");
    if (!f || fread(&r, sizeof r, 1, f) != 1)
        die(EXIT_INTERNAL, "cannot read /dev/urandom for a random first token (give "
                           "--first-token)");
    fclose(f);
    /* Murmur3Partitioner.getRandomToken(): a random long, the minimum token excluded */
    int64_t v = (int64_t)r;
    return v == INT64_MIN ? INT64_MAX : v;
}

/* generatetokens as Cassandra: its offline tool with no input (nodes 127.0.0.1:i, every
 * rack treated as the only one), else bootstrap after bootstrap against the input; node
 * i's tokens as text in text[i] (T + 1 entries). */
static int cassandra_generate(tr_ctx *ctx, const tokenring_topology *t, const char *dc,
                              char **racks, size_t n, char ***text, tokenring_error *err)
{
    uint32_t release = cassandra_release(ctx, NULL);
    char *first = cassandra_first_token_text(ctx, tokenring_topology_partitioner(t));
    tokenring_topology *work = NULL;
    int rc = tokenring_topology_clone(&work, t);
    size_t T = (size_t)ctx->opt.num_tokens;
    for (size_t i = 0; i < n && rc == TOKENRING_OK; i++) {
        progress(ctx, "generatetokens", i, n);
        char name[64];
        if (ctx->demo)
            snprintf(name, sizeof name, "127.0.0.1:%zu", i);
        else
            snprintf(name, sizeof name, "planned-node-%zu", i);
        tokenring_token_list *list = NULL;
        rc = tokenring_allocate_cassandra_text(&list, (uint32_t)T, work, name, dc, racks[i],
                                               NULL, (int32_t)ctx->opt.rf, first, release,
                                               ctx->demo ? TOKENRING_CASSANDRA_OFFLINE : 0,
                                               NULL, err);
        if (rc != TOKENRING_OK)
            break;
        if (!(text[i] = calloc(T + 1, sizeof *text[i])))
            die(EXIT_INTERNAL, "out of memory");
        for (size_t j = 0; j < T; j++)
            if (!(text[i][j] = strdup(tokenring_token_list_get(list, j, NULL))))
                die(EXIT_INTERNAL, "out of memory");
        tokenring_token_list_free(list);
        rc = tokenring_topology_add_node_text(work, name, dc, racks[i],
                                              (const char *const *)text[i], T, err);
    }
    free(first);
    progress(ctx, "generatetokens", n, n);
    tokenring_topology_free(work);
    return rc;
}

/* Node i's NUM tokens of a layout in the partitioner's text form (malloc'ed, NUM + 1
 * entries): seeded, the topology's (tokenring_layout_add_seeded_nodes laid them out);
 * even, slot i of N (tokenring_layout_even_tokens_text). */
static char **layout_tokens(tokenring_partitioner p, const tokenring_topology *t, bool seeded,
                            size_t i, size_t n, uint32_t num)
{
    char **text = calloc((size_t)num + 1, sizeof *text);
    if (!text)
        die(EXIT_INTERNAL, "out of memory");
    tokenring_token_list *list = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    if (!seeded &&
        tokenring_layout_even_tokens_text(&list, p, num, (uint32_t)i, (uint32_t)n, &err) !=
            TOKENRING_OK)
        die(EXIT_INTERNAL, "generatetokens --layout even: %s", err.message);
    for (uint32_t k = 0; k < num; k++) {
        if (list) {
            text[k] = strdup(tokenring_token_list_get(list, k, NULL));
        } else {
            size_t len = 0;
            tokenring_topology_node_token_text(NULL, 0, &len, t, i, k);
            if ((text[k] = malloc(len + 1)) &&
                tokenring_topology_node_token_text(text[k], len + 1, &len, t, i, k) !=
                    TOKENRING_OK)
                die(EXIT_INTERNAL, "reading a planned token");
        }
        if (!text[k])
            die(EXIT_INTERNAL, "out of memory");
    }
    tokenring_token_list_free(list);
    return text;
}

static void free_texts(char **text, size_t n)
{
    for (size_t k = 0; k < n; k++)
        free(text[k]);
    free(text);
}

/* generatetokens --layout even|seeded: a new cluster laid out without the allocator. */
static void generate_layout(tr_ctx *ctx)
{
    tokenring_partitioner part = tool_partitioner(ctx); /* no input: --partitioner's */
    bool seeded = strcmp(ctx->opt.layout, "seeded") == 0;
    if (ctx->opt.rf >= 1 || ctx->opt.as_cassandra || ctx->opt.node_by_node)
        die(EXIT_USAGE, "generatetokens --layout lays tokens out without the allocator: "
                        "--rf, --as-cassandra and --node-by-node do not apply");
    if (ctx->opt.seed_given && !seeded)
        die(EXIT_USAGE, "--seed: only --layout seeded takes a seed");
    if (ctx->opt.rack && ctx->opt.racks)
        die(EXIT_USAGE, "generatetokens: give --rack (every new node in one rack) or --racks "
                        "(nodes per rack), not both");
    size_t n = (size_t)ctx->opt.nodes, nr;
    uint32_t num = (uint32_t)ctx->opt.num_tokens;
    char **racks = rack_plan(ctx, n, &nr);
    const char *dc = ctx->opt.dc ? ctx->opt.dc : "datacenter1";
    if (!ctx->opt.racks)
        for (size_t i = 0; i < n; i++) {
            free(racks[i]);
            if (!(racks[i] = strdup(ctx->opt.rack ? ctx->opt.rack : "rack1")))
                die(EXIT_INTERNAL, "out of memory");
        }
    char **names = NULL;
    if (ctx->opt.names && !seeded)
        die(EXIT_USAGE, "--names: only --layout seeded names its nodes");
    names = node_names(ctx, n, "");
    uint64_t seed = ctx->opt.seed_given ? ctx->opt.seed : 1;
    tokenring_topology *t = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = tokenring_topology_new_partitioned(&t, part);
    const char **dcs = calloc(n, sizeof *dcs);
    if (rc != TOKENRING_OK || !dcs)
        die(EXIT_INTERNAL, "out of memory");
    for (size_t i = 0; i < n; i++)
        dcs[i] = dc;
    if (seeded) {
        rc = tokenring_layout_add_seeded_nodes(t, seed, num, (const char *const *)names, dcs,
                                               (const char *const *)racks, n, 0, &err);
        if (rc != TOKENRING_OK)
            fail_lib(rc, &err, "generatetokens");
    } /* else node i of N takes slot i of N: N * T evenly spaced tokens, interleaved */
    const char *pname = strrchr(tokenring_partitioner_name(part), '.') + 1;
    if (ctx->opt.emit) {
        /* what each node of the new cluster takes, no allocator involved */
        for (size_t i = 0; i < n; i++) {
            char **text = layout_tokens(part, t, seeded, i, n, num);
            char label[32];
            snprintf(label, sizeof label, "node %zu", i);
            emit_node(ctx, part, seeded ? names[i] : label, dc, racks[i], text, num, NULL);
            free_texts(text, num);
        }
    } else if (ctx->opt.json) {
        sb_puts(&ctx->out, "{\"datacenter\": ");
        sb_json_str(&ctx->out, dc);
        sb_printf(&ctx->out, ", \"partitioner\": \"%s\", \"layout\": \"%s\", ", pname,
                  ctx->opt.layout);
        if (seeded)
            sb_printf(&ctx->out, "\"seed\": \"%llu\", ", (unsigned long long)seed);
        sb_puts(&ctx->out, "\"nodes\": [");
    } else if (seeded) {
        sb_printf(&ctx->out, "Generating seeded tokens (layout seed %llu) for %zu nodes with %u "
                             "vnodes each and partitioner %s (datacenter %s, empty cluster)\n",
                  (unsigned long long)seed, n, num, pname, dc);
    } else {
        sb_printf(&ctx->out, "Generating evenly spaced tokens for %zu nodes with %u vnodes each "
                             "and partitioner %s (datacenter %s, empty cluster)\n",
                  n, num, pname, dc);
    }
    for (size_t i = 0; i < n && !ctx->opt.emit; i++) {
        char **text = layout_tokens(part, t, seeded, i, n, num);
        if (ctx->opt.json) {
            sb_puts(&ctx->out, i ? ",\n " : "\n ");
            if (seeded) {
                sb_puts(&ctx->out, "{\"name\": ");
                sb_json_str(&ctx->out, names[i]);
                sb_puts(&ctx->out, ", \"rack\": ");
            } else {
                sb_puts(&ctx->out, "{\"rack\": ");
            }
            sb_json_str(&ctx->out, racks[i]);
            sb_puts(&ctx->out, ", \"tokens\": [");
        } else if (seeded) {
            sb_printf(&ctx->out, "Node %zu (%s) rack %s: [", i, names[i], racks[i]);
        } else {
            sb_printf(&ctx->out, "Node %zu rack %s: [", i, racks[i]);
        }
        for (size_t k = 0; k < num; k++)
            sb_printf(&ctx->out, ctx->opt.json ? "%s\"%s\"" : "%s%s", k ? ", " : "", text[k]);
        sb_puts(&ctx->out, ctx->opt.json ? "]}" : "]\n");
        free_texts(text, num);
    }
    if (ctx->opt.json && !ctx->opt.emit)
        sb_puts(&ctx->out, "]}\n");
    if (ctx->opt.names) {
        free(names[0]); /* split_list: one copy of the text */
    } else {
        for (size_t i = 0; i < n; i++)
            free(names[i]);
    }
    free(names);
    for (size_t i = 0; i < n; i++)
        free(racks[i]);
    free(racks);
    free(dcs);
    tokenring_topology_free(t);
}

/* --first-token for a RandomPartitioner ring, else a random token as
 * RandomPartitioner.getRandomToken() draws it: the absolute value of 128 random bits
 * read as a signed integer (0 .. 2^127). */
static tokenring_token128 cassandra_first_token128(tr_ctx *ctx)
{
    tokenring_token128 t = { 0, 0 };
    if (ctx->opt.first_token) {
        tokenring_error err;
        memset(&err, 0, sizeof err);
        if (tokenring_token128_parse(&t, ctx->opt.first_token, strlen(ctx->opt.first_token),
                                     &err) != TOKENRING_OK)
            die(EXIT_USAGE, "--first-token: %s", err.message);
        return t;
    }
    uint8_t b[16];
    FILE *f = fopen("/dev/urandom", "rb");
    if (!f || fread(b, sizeof b, 1, f) != 1)
        die(EXIT_INTERNAL, "cannot read /dev/urandom for a random first token (give "
                           "--first-token)");
    fclose(f);
    for (int i = 0; i < 8; i++) {
        t.hi = t.hi << 8 | b[i];
        t.lo = t.lo << 8 | b[8 + i];
    }
    if (t.hi >> 63) { /* negative: its two's complement negation, 1 .. 2^127 */
        t.hi = ~t.hi;
        t.lo = ~t.lo;
        if (++t.lo == 0)
            t.hi++;
    }
    return t;
}

/* The first token as text: Cassandra draws it as its partitioner's getRandomToken() does,
 * which the library does not model (a Murmur3 long, or RandomPartitioner's 0 .. 2^127);
 * NULL for ByteOrderedPartitioner, which allocates no tokens. */
char *cassandra_first_token_text(tr_ctx *ctx, tokenring_partitioner p)
{
    if (p == TOKENRING_PARTITIONER_BYTE_ORDERED)
        return NULL;
    char *out = malloc(TOKENRING_TOKEN128_TEXT_MAX);
    if (!out)
        die(EXIT_INTERNAL, "out of memory");
    size_t len;
    if (p == TOKENRING_PARTITIONER_RANDOM) {
        if (tokenring_token128_format(out, TOKENRING_TOKEN128_TEXT_MAX, &len,
                                      cassandra_first_token128(ctx)) != TOKENRING_OK)
            die(EXIT_INTERNAL, "formatting the first token");
    } else {
        snprintf(out, TOKENRING_TOKEN128_TEXT_MAX, "%lld", (long long)cassandra_first_token(ctx));
    }
    return out;
}

/* generatetokens -n NODES --num-tokens T --rf RF [--racks 2,2,2] [--dc DC]
 * generatetokens -n NODES --num-tokens T --layout even|seeded [--partitioner random]
 * generatetokens -n NODES --num-tokens T --rf RF --as-cassandra --partitioner random */
TOOL_COMMAND(cmd_generatetokens)
{
    check_args(ctx, 0, 0, "--nodes N --num-tokens T (--rf RF | --layout even|seeded) "
                          "[--racks 2,2,2] [--dc DC]");
    tokenring_partitioner part = tool_partitioner(ctx);
    if (ctx->opt.seed_given && !ctx->opt.layout)
        die(EXIT_USAGE, "--seed: only --layout seeded takes a seed");
    if (ctx->opt.as_cassandra && ctx->opt.node_by_node)
        die(EXIT_USAGE, "generatetokens: --node-by-node plans with the library's join plan, "
                        "--as-cassandra with Cassandra's allocator (node by node too): give "
                        "one of them");
    /* the library's plan of all the nodes at once (tokenring_allocate_nodes) has no
     * text form: Murmur3's only */
    if (part != TOKENRING_PARTITIONER_MURMUR3 && !ctx->opt.layout && !ctx->opt.as_cassandra &&
        !ctx->opt.node_by_node)
        die(EXIT_USAGE, "generatetokens --partitioner random needs --as-cassandra (Cassandra's "
                        "allocator), --node-by-node (the library's join plan, node after node) "
                        "or --layout even or --layout seeded (the library's plan of all the "
                        "nodes at once plans Murmur3 tokens only, so far)");
    if (ctx->opt.layout) {
        if (ctx->opt.nodes < 1 || ctx->opt.num_tokens < 1)
            die(EXIT_USAGE, "generatetokens --layout needs --nodes N and --num-tokens T (each "
                            "at least 1)");
        generate_layout(ctx);
        return;
    }
    if (ctx->opt.nodes < 1 || ctx->opt.num_tokens < 1 || ctx->opt.rf < 1)
        die(EXIT_USAGE, "generatetokens needs --nodes N, --num-tokens T and --rf RF (each at "
                        "least 1)");
    size_t n = (size_t)ctx->opt.nodes, nr;
    if (ctx->opt.rack && ctx->opt.racks)
        die(EXIT_USAGE, "generatetokens: give --rack (every new node in one rack) or --racks "
                        "(nodes per rack), not both");
    char **racks = rack_plan(ctx, n, &nr);
    tokenring_topology *empty = NULL;
    const tokenring_topology *t = NULL;
    if (ctx->demo) {
        if (tokenring_topology_new_partitioned(&empty, part) != TOKENRING_OK)
            die(EXIT_INTERNAL, "out of memory");
        t = empty;
    } else {
        t = need_topology(ctx);
    }
    const char *dc = ctx->opt.dc ? ctx->opt.dc : ctx->demo ? "datacenter1" : only_dc(ctx);
    if (!dc)
        die(EXIT_USAGE, "generatetokens: the cluster has several datacenters: give --dc");
    if (!ctx->opt.racks) {
        /* one rack for every new node: --rack, or the datacenter's own */
        const char *rk = join_rack(ctx, ctx->demo ? NULL : t, dc, "generatetokens");
        for (size_t i = 0; i < n; i++) {
            free(racks[i]);
            if (!(racks[i] = strdup(rk)))
                die(EXIT_INTERNAL, "out of memory");
        }
    }
    size_t T = (size_t)ctx->opt.num_tokens;
    int64_t *tokens = calloc(n * T, sizeof *tokens);
    char ***text = calloc(n, sizeof *text); /* node i's tokens as text */
    if (!tokens || !text)
        die(EXIT_INTERNAL, "out of memory");
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc;
    if (ctx->opt.as_cassandra) {
        rc = cassandra_generate(ctx, t, dc, racks, n, text, &err);
    } else if (ctx->opt.node_by_node) {
        /* node by node, so that progress can be shown: each node against the cluster
         * plus the nodes planned before it; any partitioner the join plan takes */
        tokenring_topology *work = NULL;
        rc = tokenring_topology_clone(&work, t);
        for (size_t i = 0; i < n && rc == TOKENRING_OK; i++) {
            progress(ctx, "generatetokens", i, n);
            char name[64];
            snprintf(name, sizeof name, "planned-node-%zu", i);
            /* the library's plan for one join: Cassandra's tokens, or --one-step */
            tokenring_limits lim;
            tool_limits(ctx, &lim, "generatetokens");
            tokenring_token_list *list = NULL;
            rc = tokenring_allocate_join_text(
                &list, (uint32_t)T, work, name, dc, racks[i], NULL, (int32_t)ctx->opt.rf,
                cassandra_release(ctx, NULL),
                ctx->opt.one_step ? TOKENRING_JOIN_BEST_ONE_STEP : 0, &lim, &err);
            if (rc != TOKENRING_OK)
                break;
            if (!(text[i] = calloc(T + 1, sizeof *text[i])))
                die(EXIT_INTERNAL, "out of memory");
            for (size_t j = 0; j < T; j++)
                if (!(text[i][j] = strdup(tokenring_token_list_get(list, j, NULL))))
                    die(EXIT_INTERNAL, "out of memory");
            tokenring_token_list_free(list);
            rc = tokenring_topology_add_node_text(work, name, dc, racks[i],
                                                  (const char *const *)text[i], T, &err);
        }
        progress(ctx, "generatetokens", n, n);
        tokenring_topology_free(work);
    } else {
        if (ctx->progress_on)
            fprintf(stderr, "planning %zu nodes...", n);
        tokenring_limits lim;
        tool_limits(ctx, &lim, "generatetokens");
        rc = tokenring_allocate_nodes_limited(tokens, (uint32_t)ctx->opt.num_tokens, t, dc,
                                              (const char *const *)racks, n,
                                              (int32_t)ctx->opt.rf, 0, &lim, &err);
        if (ctx->progress_on)
            fputs("\r\033[K", stderr);
    }
    if (rc != TOKENRING_OK)
        fail_lib(rc, &err, "generatetokens");
    for (size_t i = 0; i < n; i++) { /* the int64 plans as text */
        if (text[i])
            continue;
        if (!(text[i] = calloc(T + 1, sizeof *text[i])))
            die(EXIT_INTERNAL, "out of memory");
        for (size_t j = 0; j < T; j++) {
            if (!(text[i][j] = malloc(24)))
                die(EXIT_INTERNAL, "out of memory");
            snprintf(text[i][j], 24, "%lld", (long long)tokens[i * T + j]);
        }
    }
    if (ctx->opt.emit) {
        char alloc[64], label[32];
        snprintf(alloc, sizeof alloc, "allocate_tokens_for_local_replication_factor: %ld",
                 ctx->opt.rf);
        for (size_t i = 0; i < n; i++) {
            snprintf(label, sizeof label, "node %zu", i);
            emit_node(ctx, part, label, dc, racks[i], text[i], T, alloc);
        }
    } else if (ctx->opt.json) {
        sb_puts(&ctx->out, "{\"datacenter\": ");
        sb_json_str(&ctx->out, dc);
        sb_printf(&ctx->out, ", \"partitioner\": \"%s\", \"nodes\": [",
                  strrchr(tokenring_partitioner_name(part), '.') + 1);
    } else {
        const char *line = NULL;
        if (ctx->opt.as_cassandra)
            cassandra_release(ctx, &line);
        sb_printf(&ctx->out, "Generating tokens for %zu nodes with %ld vnodes each for replication "
                        "factor %ld and partitioner %s (datacenter %s%s): %s%s%s\n",
                  n, ctx->opt.num_tokens, ctx->opt.rf,
                  strrchr(tokenring_partitioner_name(part), '.') + 1, dc,
                  ctx->demo ? ", empty cluster" : "",
                  line ? "Cassandra " : "the library's plan",
                  line ? line : (ctx->opt.node_by_node ? ", node by node" : ""),
                  line ? (ctx->demo ? "'s allocator, as its generatetokens tool runs it"
                                    : "'s allocator, as each node gets them bootstrapping in "
                                      "turn")
                       : "");
    }
    for (size_t i = 0; i < n && !ctx->opt.emit; i++) {
        if (ctx->opt.json) {
            sb_puts(&ctx->out, i ? ",\n " : "\n ");
            sb_puts(&ctx->out, "{\"rack\": ");
            sb_json_str(&ctx->out, racks[i]);
            sb_puts(&ctx->out, ", \"tokens\": [");
        } else {
            sb_printf(&ctx->out, "Node %zu rack %s: [", i, racks[i]);
        }
        for (size_t j = 0; j < T; j++)
            sb_printf(&ctx->out, ctx->opt.json ? "%s\"%s\"" : "%s%s", j ? ", " : "",
                      text[i][j]);
        sb_puts(&ctx->out, ctx->opt.json ? "]}" : "]\n");
    }
    if (ctx->opt.json && !ctx->opt.emit)
        sb_puts(&ctx->out, "]}\n");
    for (size_t i = 0; i < n; i++) {
        free(racks[i]);
        free_texts(text[i], T);
    }
    free(racks);
    free(text);
    free(tokens);
    tokenring_topology_free(empty);
}
