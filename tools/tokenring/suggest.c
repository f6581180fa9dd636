/* SPDX-License-Identifier: Apache-2.0 */
/* "Did you mean": the known name closest to a mistyped one (Levenshtein distance, ASCII
 * case ignored), and the lookups of datacenter names given on the command line, checked
 * once before a command runs so that every command says the same thing; and the sorted
 * datacenter names of the cluster they are checked against (cluster_dcs). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

static bool same_char(char x, char y)
{
    return tolower((unsigned char)x) == tolower((unsigned char)y);
}

/* Edit distance (insertions, deletions, substitutions, and transpositions of two
 * neighbours: "rnig" is one typo from "ring"; ASCII case ignored) of a and b, or SIZE_MAX
 * past LIMIT (names are short; the rows are bounded). */
static size_t distance(const char *a, const char *b, size_t limit)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 256 || lb > 256 || (la > lb ? la - lb : lb - la) > limit)
        return (size_t)-1;
    size_t rows[3][257], *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= lb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t best = cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t v = prev[j - 1] + !same_char(a[i - 1], b[j - 1]);
            if (prev[j] + 1 < v)
                v = prev[j] + 1;
            if (cur[j - 1] + 1 < v)
                v = cur[j - 1] + 1;
            if (i > 1 && j > 1 && same_char(a[i - 1], b[j - 2]) &&
                same_char(a[i - 2], b[j - 1]) && prev2[j - 2] + 1 < v)
                v = prev2[j - 2] + 1;
            cur[j] = v;
            if (v < best)
                best = v;
        }
        if (best > limit)
            return (size_t)-1;
        size_t *t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    return prev[lb] <= limit ? prev[lb] : (size_t)-1;
}

/* "r4" and "r1", "dc3" and "dc1": numbered siblings, named so on purpose, not typos. */
static bool numbered_siblings(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    while (la && a[la - 1] >= '0' && a[la - 1] <= '9')
        la--;
    while (lb && b[lb - 1] >= '0' && b[lb - 1] <= '9')
        lb--;
    return la == lb && la < strlen(a) && lb < strlen(b) && strncmp(a, b, la) == 0;
}

const char *closest_name(const char *name, const char *const *known, size_t n)
{
    /* close enough to be a typo: a third of the name, at least 1, at most 3 edits */
    size_t len = strlen(name), limit = len / 3 ? len / 3 : 1;
    if (limit > 3)
        limit = 3;
    const char *best = NULL;
    size_t best_d = (size_t)-1;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(known[i], name) == 0 || numbered_siblings(name, known[i]))
            continue;
        size_t d = distance(name, known[i], limit);
        if (d < best_d) {
            best_d = d;
            best = known[i];
        }
    }
    return best;
}

const char *did_you_mean(const char *name, const char *const *known, size_t n, char *buf,
                         size_t cap)
{
    const char *c = closest_name(name, known, n);
    if (c)
        snprintf(buf, cap, "; did you mean '%s'?", c);
    else if (cap)
        buf[0] = '\0';
    return buf;
}

const char *dc_hint(tr_ctx *ctx, const char *dc, char *buf, size_t cap)
{
    size_t ndc;
    const char **dcs = cluster_dcs(ctx, &ndc);
    did_you_mean(dc, dcs, ndc, buf, cap);
    free((void *)dcs);
    return buf;
}

static bool cluster_has_dc(tr_ctx *ctx, const char *dc)
{
    size_t ndc;
    const char **dcs = cluster_dcs(ctx, &ndc);
    bool found = false;
    for (size_t i = 0; i < ndc; i++)
        found |= strcmp(dcs[i], dc) == 0;
    free((void *)dcs);
    return found;
}

static void known_dcs(tr_ctx *ctx, strbuf *b)
{
    size_t ndc;
    const char **dcs = cluster_dcs(ctx, &ndc);
    for (size_t i = 0; i < ndc; i++)
        sb_printf(b, "%s%s", i ? ", " : "", dcs[i]);
    free((void *)dcs);
}

/* A datacenter the command needs to exist (--dc of balance and migrate-num-tokens,
 * --local-dc): an unknown one is a usage error naming the known ones. One that a plan may
 * create (--dc of join, generatetokens, pending) only gets a note when it is one
 * typo away from a known one. */
void check_dc_lookups(tr_ctx *ctx, const char *cmd)
{
    static const char *const must_exist[] = { "balance", "migrate-num-tokens" };
    struct {
        const char *flag, *value;
    } given[] = { { "--dc", ctx->opt.dc }, { "--local-dc", ctx->opt.local_dc } };
    for (size_t g = 0; g < sizeof given / sizeof *given; g++) {
        const char *dc = given[g].value;
        if (!dc || cluster_has_dc(ctx, dc))
            continue;
        bool need = strcmp(given[g].flag, "--local-dc") == 0;
        for (size_t i = 0; i < sizeof must_exist / sizeof *must_exist; i++)
            need |= strcmp(given[g].flag, "--dc") == 0 && strcmp(cmd, must_exist[i]) == 0;
        char hint[320];
        dc_hint(ctx, dc, hint, sizeof hint);
        if (need) {
            strbuf known = { 0 };
            known_dcs(ctx, &known);
            die(EXIT_USAGE, "%s %s: unknown datacenter '%s' (known: %s)%s", cmd, given[g].flag, dc,
                known.p ? known.p : "none", hint);
        }
        if (*hint)
            fprintf(stderr, "tokenring: note: %s %s is not a datacenter of the cluster: "
                            "planned as a new one%s\n",
                    given[g].flag, dc, hint);
    }
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sorted distinct datacenter names of the cluster (all nodes, any state). */
const char **cluster_dcs(tr_ctx *ctx, size_t *count)
{
    size_t n = tokenring_cluster_node_count(ctx->cluster), k = 0;
    const char **dcs = calloc(n + 1, sizeof *dcs);
    if (!dcs)
        die(EXIT_INTERNAL, "out of memory");
    for (size_t i = 0; i < n; i++) {
        tokenring_cluster_node_info info;
        tokenring_cluster_node(&info, ctx->cluster, i);
        bool seen = false;
        for (size_t j = 0; j < k; j++)
            if (strcmp(dcs[j], info.datacenter) == 0)
                seen = true;
        if (!seen)
            dcs[k++] = info.datacenter;
    }
    qsort(dcs, k, sizeof *dcs, cmp_str);
    *count = k;
    return dcs;
}
