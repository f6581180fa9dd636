/* SPDX-License-Identifier: Apache-2.0 */
/* check [KEYSPACE...]: what no server checks before an operator acts. The command: the
 * cluster's datacenters and racks counted once, the findings of check_cluster.c (the
 * cluster's layout) and check_node.c (with --yaml / --rackdc, a node's settings against
 * that cluster) collected and printed. Each finding is one line, `error:`, `warning:` or
 * `ok:`, saying why it matters; the exit code says the worst (tool.h, check_exit). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* ------------------------------------------------------------------ output */

static const char *sev_word(enum sev s)
{
    return s == SEV_ERROR ? "error" : s == SEV_WARNING ? "warning" : "ok";
}

static int cmp_rack(const void *a, const void *b)
{
    return strcmp(((const struct rack *)a)->name, ((const struct rack *)b)->name);
}

/* check [KEYSPACE...] [--yaml FILE] [--rackdc FILE] [--node NAME] */
TOOL_COMMAND(cmd_check)
{
    for (size_t a = 0; a < ctx->opt.nargs; a++)
        find_keyspace(ctx, ctx->opt.args[a]); /* an unknown one is a usage error */
    if (ctx->opt.node && !ctx->opt.yaml && !ctx->opt.rackdc)
        die(EXIT_USAGE, "check: --node NAME names the node whose --yaml cassandra.yaml and "
                        "--rackdc cassandra-rackdc.properties to check: give them");
    size_t n = tokenring_cluster_node_count(ctx->cluster), ndc;
    const char **names = cluster_dcs(ctx, &ndc);
    struct dc *dcs = calloc(ndc ? ndc : 1, sizeof *dcs);
    if (!dcs)
        die(EXIT_INTERNAL, "out of memory");
    for (size_t d = 0; d < ndc; d++)
        dcs[d].name = names[d];
    for (size_t i = 0; i < n; i++) {
        tokenring_cluster_node_info a;
        tokenring_cluster_node(&a, ctx->cluster, i);
        struct dc *d = check_find_dc(dcs, ndc, a.datacenter);
        if (a.state == TOKENRING_STATE_JOINING) {
            d->joining++;
            continue;
        }
        d->nodes++;
        struct rack *r = check_find_rack(d, a.rack);
        if (!r) {
            if (d->nracks == sizeof d->racks / sizeof *d->racks)
                die(EXIT_INPUT, "check: datacenter %s has more than 256 racks", d->name);
            r = &d->racks[d->nracks++];
            r->name = a.rack;
        }
        r->nodes++;
    }
    for (size_t d = 0; d < ndc; d++)
        qsort(dcs[d].racks, dcs[d].nracks, sizeof *dcs[d].racks, cmp_rack);
    struct findings fs = { 0 };
    if (ctx->demo)
        check_add(&fs, SEV_WARNING, "input", "none given: this is the built-in demo ring");
    check_layout(ctx, &fs, dcs, ndc);
    check_keyspaces(ctx, &fs, dcs, ndc);
    check_owns(ctx, &fs);
    if (ctx->opt.yaml || ctx->opt.rackdc)
        check_node(ctx, &fs, dcs, ndc);
    size_t count[3] = { 0, 0, 0 };
    for (size_t i = 0; i < fs.n; i++)
        count[fs.f[i].sev]++;
    if (ctx->opt.json) {
        sb_puts(&ctx->out, "{\"findings\": [");
        for (size_t i = 0; i < fs.n; i++) {
            sb_printf(&ctx->out, "%s{\"severity\": \"%s\", \"subject\": ", i ? ",\n " : "\n ",
                      sev_word(fs.f[i].sev));
            sb_json_str(&ctx->out, fs.f[i].subject);
            sb_puts(&ctx->out, ", \"message\": ");
            sb_json_str(&ctx->out, fs.f[i].text);
            sb_puts(&ctx->out, "}");
        }
        sb_printf(&ctx->out, "],\n \"errors\": %zu, \"warnings\": %zu, \"ok\": %zu}\n",
                  count[SEV_ERROR], count[SEV_WARNING], count[SEV_OK]);
    } else {
        for (size_t i = 0; i < fs.n; i++)
            sb_printf(&ctx->out, "%s: %s: %s\n", sev_word(fs.f[i].sev), fs.f[i].subject,
                      fs.f[i].text);
        sb_printf(&ctx->out, "%zu error%s, %zu warning%s, %zu ok\n", count[SEV_ERROR],
                  count[SEV_ERROR] == 1 ? "" : "s", count[SEV_WARNING],
                  count[SEV_WARNING] == 1 ? "" : "s", count[SEV_OK]);
    }
    ctx->exit_code = count[SEV_ERROR] ? EXIT_CHECK_ERRORS
                     : count[SEV_WARNING] ? EXIT_CHECK_WARNINGS
                                          : EXIT_OK;
    for (size_t i = 0; i < fs.n; i++) {
        free(fs.f[i].subject);
        free(fs.f[i].text);
    }
    free(fs.f);
    free(dcs);
    free(names);
}