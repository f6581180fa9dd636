/* SPDX-License-Identifier: Apache-2.0 */
/* What a plan hands on: --emit prints what a planned node takes (a cassandra.yaml
 * snippet, its cassandra-rackdc.properties, or the initial_token line, as Cassandra reads
 * them), --write-topology writes the cluster after a change as a topology file, for the
 * next command. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

void check_plan_options(tr_ctx *ctx)
{
    const char *c = ctx->opt.cmd;
    if (ctx->opt.emit && strcmp(c, "generatetokens") != 0 && strcmp(c, "join") != 0)
        die(EXIT_USAGE, "--emit works with generatetokens and join only");
    if (ctx->opt.emit && ctx->opt.json)
        die(EXIT_USAGE, "--emit prints configuration, not JSON: give one of --emit and --json");
    static const char *const changes[] = { "join", "decommission", "replace", "move",
                                           "removenode", "assassinate" };
    bool change = false;
    for (size_t i = 0; i < sizeof changes / sizeof *changes; i++)
        change |= strcmp(c, changes[i]) == 0;
    if (ctx->opt.write_topology && !change)
        die(EXIT_USAGE, "--write-topology works with join, decommission, replace, move, "
                        "removenode and assassinate only");
    if (ctx->opt.force && strcmp(c, "decommission") != 0)
        die(EXIT_USAGE, "--force works with decommission only");
}

void emit_node(tr_ctx *ctx, tokenring_partitioner p, const char *label, const char *dc,
               const char *rack, char *const *tokens, size_t nt, const char *allocation)
{
    strbuf *o = &ctx->out;
    if (strcmp(ctx->opt.emit, "rackdc") == 0) {
        /* GossipingPropertyFileSnitch reads dc and rack from this file */
        sb_printf(o, "# cassandra-rackdc.properties of %s\ndc=%s\nrack=%s\n", label, dc, rack);
        return;
    }
    bool yaml = strcmp(ctx->opt.emit, "yaml") == 0;
    if (yaml)
        sb_printf(o, "# cassandra.yaml of %s (datacenter %s, rack %s)\npartitioner: %s\n"
                     "num_tokens: %zu\n",
                  label, dc, rack, tokenring_partitioner_name(p), nt);
    else
        sb_printf(o, "# %s (datacenter %s, rack %s)\n", label, dc, rack);
    /* comma-separated, as cassandra.yaml's initial_token takes them */
    sb_puts(o, "initial_token: ");
    for (size_t i = 0; i < nt; i++)
        sb_printf(o, "%s%s", i ? "," : "", tokens[i]);
    sb_puts(o, "\n");
    if (yaml && allocation)
        sb_printf(o, "# initial_token takes precedence; the allocation these tokens were "
                     "planned for:\n%s\n", allocation);
}

void write_topology_after(tr_ctx *ctx, const tokenring_topology *after)
{
    if (!ctx->opt.write_topology)
        return;
    tokenring_cluster *c = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = tokenring_cluster_new(&c);
    if (rc == TOKENRING_OK)
        rc = tokenring_cluster_set_partitioner(c, tokenring_topology_partitioner(after), &err);
    if (rc == TOKENRING_OK)
        rc = tokenring_cluster_add_topology(c, after, &err);
    for (size_t i = 0; rc == TOKENRING_OK && i < tokenring_cluster_keyspace_count(ctx->cluster);
         i++) {
        const char *name;
        const tokenring_replication *r;
        tokenring_cluster_keyspace(&name, &r, ctx->cluster, i);
        rc = tokenring_cluster_add_keyspace(c, name, r, &err);
    }
    size_t len = 0;
    char *text = NULL;
    if (rc == TOKENRING_OK) {
        rc = tokenring_cluster_format(NULL, 0, &len, c);
        if (rc == TOKENRING_E_BUFSIZE || rc == TOKENRING_OK) {
            if (!(text = malloc(len + 1)))
                die(EXIT_INTERNAL, "out of memory");
            rc = tokenring_cluster_format(text, len + 1, &len, c);
        }
    }
    tokenring_cluster_free(c);
    if (rc != TOKENRING_OK)
        fail_lib(rc, &err, "--write-topology");
    FILE *f = fopen(ctx->opt.write_topology, "wb");
    if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0)
        die(EXIT_INPUT, "--write-topology: cannot write %s: %s", ctx->opt.write_topology,
            strerror(errno));
    free(text);
}
