/* SPDX-License-Identifier: Apache-2.0 */
/* What the check command's three files share, below all of them: a finding added to the
 * list, a datacenter and a rack found by name, and the token count most of a datacenter's
 * nodes have (declared in tool.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

void check_add(struct findings *fs, enum sev sev, const char *subject, const char *fmt, ...)
{
    if (fs->n == fs->cap) {
        fs->cap = fs->cap ? 2 * fs->cap : 32;
        struct finding *g = realloc(fs->f, fs->cap * sizeof *g);
        if (!g)
            die(EXIT_INTERNAL, "out of memory");
        fs->f = g;
    }
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *t = malloc((size_t)k + 1), *s = strdup(subject);
    if (!t || !s)
        die(EXIT_INTERNAL, "out of memory");
    va_start(ap, fmt);
    vsnprintf(t, (size_t)k + 1, fmt, ap);
    va_end(ap);
    fs->f[fs->n++] = (struct finding){ sev, s, t };
}

/* ------------------------------------------------------------- the cluster */

struct dc *check_find_dc(struct dc *dcs, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(dcs[i].name, name) == 0)
            return &dcs[i];
    return NULL;
}

struct rack *check_find_rack(struct dc *d, const char *name)
{
    for (size_t i = 0; i < d->nracks; i++)
        if (strcmp(d->racks[i].name, name) == 0)
            return &d->racks[i];
    return NULL;
}

/* The token count most of the datacenter's nodes have (0 when none is known). */
size_t check_usual_tokens(tr_ctx *ctx, const char *dc)
{
    size_t n = tokenring_cluster_node_count(ctx->cluster), best = 0, best_votes = 0;
    for (size_t i = 0; i < n; i++) {
        tokenring_cluster_node_info a;
        tokenring_cluster_node(&a, ctx->cluster, i);
        if (strcmp(a.datacenter, dc) != 0 || !a.declared_tokens)
            continue;
        size_t votes = 0;
        for (size_t j = 0; j < n; j++) {
            tokenring_cluster_node_info b;
            tokenring_cluster_node(&b, ctx->cluster, j);
            votes += strcmp(b.datacenter, dc) == 0 && b.declared_tokens == a.declared_tokens;
        }
        if (votes > best_votes || (votes == best_votes && a.declared_tokens < best)) {
            best = a.declared_tokens;
            best_votes = votes;
        }
    }
    return best;
}
