/* SPDX-License-Identifier: Apache-2.0 */
/* tokenring: nodetool-style answers (token, getendpoints, ring, describering, status)
 * from a topology file, `nodetool ring`/`status` output, cqlsh system tables, or a
 * built-in demo ring. Built only on the public API: every number shown was computed by
 * the library; the tool only presents it.
 *
 * Output is buffered and written only once the whole command has succeeded, so a
 * failing command never prints a half-valid result. Exit codes: 0 ok, 1 internal error,
 * 2 bad usage, 3 bad input.
 *
 * This file: the options and the dispatch. The rooms are listed in tool.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool.h"

static void parse_args(tr_ctx *ctx, int argc, char **argv)
{
    char **positional = calloc((size_t)argc + 1, sizeof *positional);
    size_t np = 0;
    if (!positional)
        die(EXIT_INTERNAL, "out of memory");
    bool dashdash = false, help = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        /* "-" is stdin; "-42" is a negative number (a token or an int key), not an
         * option */
        if (dashdash || a[0] != '-' || strcmp(a, "-") == 0 || (a[1] >= '0' && a[1] <= '9')) {
            positional[np++] = argv[i];
            continue;
        }
        if (strcmp(a, "--") == 0) {
            dashdash = true;
            ctx->opt.literal_from = np;
            continue;
        }
        const char *val = NULL;
        char flag[64];
        const char *eq = strchr(a, '=');
        if (eq && (size_t)(eq - a) < sizeof flag && a[1] == '-') {
            memcpy(flag, a, (size_t)(eq - a));
            flag[eq - a] = '\0';
            val = eq + 1;
        } else {
            snprintf(flag, sizeof flag, "%s", a);
        }
        size_t k;
        for (k = 0; k < tool_option_count; k++)
            if (strcmp(flag, tool_options[k].flag) == 0)
                break;
        if (strcmp(flag, "-h") == 0)
            for (k = 0; k < tool_option_count; k++)
                if (strcmp(tool_options[k].flag, "--help") == 0)
                    break;
        if (k == tool_option_count) {
            const char *flags[128];
            size_t nf = 0;
            for (size_t j = 0; j < tool_option_count && nf < sizeof flags / sizeof *flags; j++)
                flags[nf++] = tool_options[j].flag;
            char hint[160];
            die(EXIT_USAGE, "unknown option '%s' (see tokenring --help)%s", a,
                did_you_mean(flag, flags, nf, hint, sizeof hint));
        }
        if (tool_options[k].arg && !val) {
            if (i + 1 >= argc)
                die(EXIT_USAGE, "option %s needs an argument %s", flag, tool_options[k].arg);
            val = argv[++i];
        } else if (!tool_options[k].arg && val) {
            die(EXIT_USAGE, "option %s takes no argument", flag);
        }
        const char *f = tool_options[k].flag;
        enum in_kind kind = IN_AUTO;
        if (strcmp(f, "--topology") == 0 || strcmp(f, "--nodetool-ring") == 0 ||
            strcmp(f, "--nodetool-status") == 0 || strcmp(f, "--cqlsh") == 0 ||
            strcmp(f, "--input") == 0 || strcmp(f, "--schema") == 0) {
            kind = f[2] == 't' ? IN_TOPOLOGY
                   : strcmp(f, "--nodetool-ring") == 0 ? IN_RING
                   : strcmp(f, "--nodetool-status") == 0 ? IN_STATUS
                   : f[2] == 'c' ? IN_CQLSH
                   : f[2] == 's' ? IN_SCHEMA /* --schema: keyspaces and tables */
                                 : IN_AUTO;
            if (ctx->opt.ninputs == 64)
                die(EXIT_USAGE, "too many inputs");
            ctx->opt.inputs[ctx->opt.ninputs++] = (struct input){ kind, val };
        } else if (strcmp(f, "--keyspace") == 0) {
            if (ctx->opt.nks_defs == 64)
                die(EXIT_USAGE, "too many --keyspace options");
            ctx->opt.ks_defs[ctx->opt.nks_defs++] = val;
        } else if (strcmp(f, "--allow-partial") == 0) {
            ctx->opt.allow_partial = true;
        } else if (strcmp(f, "--merge-disjoint") == 0) {
            ctx->opt.merge_disjoint = true;
        } else if (strcmp(f, "--json") == 0) {
            ctx->opt.json = true;
        } else if (strcmp(f, "--hex") == 0) {
            ctx->opt.hex = true;
        } else if (strcmp(f, "--types") == 0) {
            ctx->opt.types = val;
        } else if (strcmp(f, "--partitioner") == 0) {
            /* the short forms, or Cassandra's class names as cassandra.yaml gives them
             * (the library reads both); kept as the short form the tool compares */
            static const char *const shortname[] = { "murmur3", "random", "byteordered" };
            tokenring_partitioner part;
            tokenring_error perr;
            memset(&perr, 0, sizeof perr);
            if (tokenring_partitioner_parse(&part, val, strlen(val), &perr) != TOKENRING_OK)
                die(EXIT_USAGE, "--partitioner: %s", perr.message);
            ctx->opt.partitioner = shortname[part];
        } else if (strcmp(f, "--token") == 0) {
            ctx->opt.token_mode = true;
        } else if (strcmp(f, "--dc") == 0) {
            ctx->opt.dc = val;
        } else if (strcmp(f, "--rack") == 0) {
            ctx->opt.rack = val;
        } else if (strcmp(f, "--new-dc") == 0) {
            ctx->opt.new_dc = val;
        } else if (strcmp(f, "--initial-token") == 0) {
            ctx->opt.initial_token = val;
        } else if (strcmp(f, "--racks") == 0) {
            ctx->opt.racks = val;
        } else if (strcmp(f, "--names") == 0) {
            ctx->opt.names = val;
        } else if (strcmp(f, "--cl") == 0) {
            ctx->opt.cl = val;
        } else if (strcmp(f, "--local-dc") == 0) {
            ctx->opt.local_dc = val;
        } else if (strcmp(f, "--history") == 0) {
            ctx->opt.history = val;
        } else if (strcmp(f, "--cassandra-version") == 0) {
            tokenring_error err;
            memset(&err, 0, sizeof err);
            if (tokenring_cassandra_rules_for_version(&ctx->opt.rules, val, &err) != TOKENRING_OK)
                die(EXIT_USAGE, "option --cassandra-version: %s", err.message);
            check_release(val);
            ctx->opt.cassandra_version = val;
        } else if (strcmp(f, "--fail") == 0) {
            ctx->opt.fail_unit = val;
        } else if (strcmp(f, "--budget") == 0 || strcmp(f, "--max-num-tokens") == 0) {
            parse_budget_option(ctx, f, val);
        } else if (strcmp(f, "--progress") == 0) {
            ctx->opt.progress = true;
        } else if (strcmp(f, "--list") == 0) {
            ctx->opt.avail_list = true;
        } else if (strcmp(f, "--top") == 0) {
            char *end;
            errno = 0;
            long v = strtol(val, &end, 10);
            if (!*val || *end || errno || v < 0 || v > 100000)
                die(EXIT_USAGE, "option --top: expected a number from 0 to 100000, found '%s'",
                    val);
            ctx->opt.top = v;
        } else if (strcmp(f, "--force") == 0) {
            ctx->opt.force = true;
        } else if (strcmp(f, "--emit") == 0) {
            if (strcmp(val, "yaml") != 0 && strcmp(val, "rackdc") != 0 &&
                strcmp(val, "initial-token") != 0)
                die(EXIT_USAGE, "--emit: expected yaml, rackdc or initial-token, found '%s'",
                    val);
            ctx->opt.emit = val;
        } else if (strcmp(f, "--write-topology") == 0) {
            ctx->opt.write_topology = val;
        } else if (strcmp(f, "--node-by-node") == 0) {
            ctx->opt.node_by_node = true;
        } else if (strcmp(f, "--as-cassandra") == 0) {
            ctx->opt.as_cassandra = true;
        } else if (strcmp(f, "--one-step") == 0) {
            ctx->opt.one_step = true;
        } else if (strcmp(f, "--first-token") == 0) {
            ctx->opt.first_token = val;
        } else if (strcmp(f, "--layout") == 0) {
            if (strcmp(val, "even") != 0 && strcmp(val, "seeded") != 0)
                die(EXIT_USAGE, "--layout: expected even or seeded, found '%s'", val);
            ctx->opt.layout = val;
        } else if (strcmp(f, "--seed") == 0) {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(val, &end, 10);
            if (!*val || *end || errno || val[0] == '-' || val[0] == '+')
                die(EXIT_USAGE, "option --seed: expected a number from 0 to "
                                "18446744073709551615, found '%s'", val);
            ctx->opt.seed = (uint64_t)v;
            ctx->opt.seed_given = true;
        } else if (strcmp(f, "--num-tokens") == 0 || strcmp(f, "--nodes") == 0 ||
                   strcmp(f, "--rf") == 0 || strcmp(f, "--failures") == 0) {
            char *end;
            errno = 0;
            long v = strtol(val, &end, 10);
            if (!*val || *end || errno || v < 1 || v > 65536)
                die(EXIT_USAGE, "option %s: expected a number from 1 to 65536, found '%s'", f,
                    val);
            if (f[2] == 'n' && f[3] == 'u')
                ctx->opt.num_tokens = v;
            else if (f[2] == 'n')
                ctx->opt.nodes = v;
            else if (f[2] == 'r')
                ctx->opt.rf = v;
            else
                ctx->opt.failures = v;
        } else if (strcmp(f, "--yaml") == 0) {
            ctx->opt.yaml = val;
        } else if (strcmp(f, "--rackdc") == 0) {
            ctx->opt.rackdc = val;
        } else if (strcmp(f, "--node") == 0) {
            ctx->opt.node = val;
        } else if (strcmp(f, "--help") == 0) {
            help = true;
        } else if (strcmp(f, "--man") == 0) {
            print_man();
            free(positional);
            exit(EXIT_OK);
        } else if (strcmp(f, "--version") == 0) {
            printf("tokenring (libtokenring) %s\n", tokenring_version_string());
            free(positional);
            exit(EXIT_OK);
        }
    }
    if ((ctx->opt.hex ? 1 : 0) + (ctx->opt.types ? 1 : 0) + (ctx->opt.token_mode ? 1 : 0) > 1)
        die(EXIT_USAGE, "--hex, --types and --token exclude each other");
    /* tokenring --help, tokenring help: everything; tokenring help CMD, tokenring CMD
     * --help: that command */
    bool help_cmd = np > 0 && strcmp(positional[0], "help") == 0;
    if (help || help_cmd) {
        if (np > (size_t)help_cmd + 1)
            die(EXIT_USAGE, "usage: tokenring help [COMMAND]");
        if (np == (size_t)help_cmd)
            print_help();
        else
            print_command_help(find_command(positional[help_cmd ? 1 : 0]));
        free(positional);
        exit(EXIT_OK);
    }
    if (np == 0)
        die(EXIT_USAGE, "no command given (see tokenring --help)");
    ctx->opt.positional = positional;
    ctx->opt.cmd = positional[0];
    ctx->opt.args = positional + 1;
    ctx->opt.nargs = np - 1;
    check_num_tokens(ctx);
}

/* The commands that take rings of every partitioner; the others refuse a ring of
 * RandomPartitioner or ByteOrderedPartitioner (below). */
bool partitioned_command(const char *name)
{
    static const char *const names[] = { "getendpoints", "describering", "ring", "status",
                                         "availability", "convert", "token", "join",
                                         "decommission", "replace", "move", "balance",
                                         "removenode", "assassinate", "ranges", "check",
                                         "pending" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

int main(int argc, char **argv)
{
    tr_ctx state = { .opt = { .num_tokens = -1, .nodes = -1, .rf = -1, .failures = -1, .top = -1,
                              .literal_from = SIZE_MAX } };
    tr_ctx *ctx = &state;
    parse_args(ctx, argc, argv);
    const tool_command *cmd = find_command(ctx->opt.cmd);
    bool other = ctx->opt.partitioner && strcmp(ctx->opt.partitioner, "murmur3") != 0;
    bool generate = strcmp(cmd->name, "generatetokens") == 0;
    if (generate && other && strcmp(ctx->opt.partitioner, "byteordered") == 0)
        die(EXIT_USAGE, "generatetokens: ByteOrderedPartitioner has no token allocation (its "
                        "tokens are keys; Cassandra has none either): use --partitioner "
                        "murmur3 or random");
    if (other && !partitioned_command(cmd->name) && !generate)
        die(EXIT_USAGE, "--partitioner %s works with the token, getendpoints, describering, "
                        "ring, status, availability, convert, join, decommission, replace, "
                        "move, removenode, assassinate, ranges, pending, balance, check and "
                        "generatetokens commands only (so far)",
            ctx->opt.partitioner);
    if ((ctx->opt.layout || ctx->opt.seed_given) && !generate)
        die(EXIT_USAGE, "--layout and --seed work with generatetokens only");
    if (ctx->opt.layout && ctx->opt.ninputs > 0)
        die(EXIT_USAGE, "generatetokens --layout plans a new cluster: give no input");
    check_plan_options(ctx);
    ctx->progress_on = isatty(STDERR_FILENO) == 1;
    load_cluster(ctx);
    check_dc_lookups(ctx, cmd->name);
    tokenring_partitioner part = tokenring_cluster_partitioner(ctx->cluster);
    if (part != TOKENRING_PARTITIONER_MURMUR3 && !partitioned_command(cmd->name) &&
        !(generate && part == TOKENRING_PARTITIONER_RANDOM))
        die(EXIT_USAGE, "%s works on Murmur3Partitioner rings only (so far); the input's "
                        "tokens are %s tokens (token, getendpoints, describering, ring, "
                        "status, availability, convert, join, decommission, replace, move, "
                        "removenode, assassinate, ranges, pending, balance and check take them; "
                        "generatetokens RandomPartitioner's)",
            cmd->name, tokenring_partitioner_name(part));
    cmd->fn(ctx);
    tokenring_ring_free(ctx->ring);
    tokenring_cluster_free(ctx->cluster);
    schema_free(ctx);
    free(ctx->opt.positional);
    flush_and_exit(ctx);
}
