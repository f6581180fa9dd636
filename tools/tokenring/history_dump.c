/* SPDX-License-Identifier: Apache-2.0 */
/* --history FILE given as what cqlsh prints of a Cassandra 6.0 cluster's metadata: the
 * outputs of
 *   SELECT epoch, kind, transformation FROM system_views.cluster_metadata_log;
 *   SELECT node_id, broadcast_address, broadcast_port, dc, rack, state, tokens
 *     FROM system_views.cluster_metadata_directory;
 *   SELECT keyspace_name, replication FROM system_schema.keyspaces;
 * in one file (any order; broadcast_port and state may be left out). The tables are cut
 * into column values here; the library builds the history from them
 * (tokenring_history_from_metadata, its one reader of those rows), the keyspaces'
 * replications through a router of the directory's nodes and the schema's keyspaces. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* One cqlsh table of the file: its columns and rows of values (NULL: null). */
typedef struct {
    char **cols;
    size_t ncols;
    char ***rows;
    size_t nrows;
    unsigned *lines; /* the file line of each row */
} dtable;

static char *trimmed(const char *p, size_t n)
{
    while (n && isspace((unsigned char)*p))
        p++, n--;
    while (n && isspace((unsigned char)p[n - 1]))
        n--;
    char *s = malloc(n + 1);
    if (!s)
        die(EXIT_INTERNAL, "out of memory");
    memcpy(s, p, n);
    s[n] = 0;
    return s;
}

static bool separator_line(const char *p, size_t n)
{
    size_t dashes = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '-')
            dashes++;
        else if (p[i] != '+' && p[i] != '\r')
            return false;
    }
    return dashes > 0;
}

/* Splits a line into ncols values at '|': the last column takes the rest of the line
 * (a transformation's text may hold a '|'). Returns the number found. */
static size_t split_row(const char *p, size_t n, char **out, size_t ncols)
{
    size_t k = 0, start = 0;
    for (size_t i = 0; i <= n && k < ncols; i++) {
        if (i == n || (p[i] == '|' && k + 1 < ncols)) {
            out[k++] = trimmed(p + start, i - start);
            start = i + 1;
        }
    }
    return k;
}

static void free_table(dtable *t)
{
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++)
            free(t->rows[r][c]);
        free(t->rows[r]);
    }
    for (size_t c = 0; c < t->ncols; c++)
        free(t->cols[c]);
    free(t->rows);
    free(t->cols);
    free(t->lines);
    memset(t, 0, sizeof *t);
}

static long col_of(const dtable *t, const char *name)
{
    for (size_t c = 0; c < t->ncols; c++)
        if (strcmp(t->cols[c], name) == 0)
            return (long)c;
    return -1;
}

/* Every table of the text (header line, separator line, rows up to a blank line or
 * "(N rows)"). */
static dtable *read_tables(const char *path, const char *text, size_t len, size_t *count)
{
    dtable *ts = NULL;
    size_t nt = 0;
    const char *prev = NULL;
    size_t prevn = 0;
    unsigned line = 0;
    dtable *cur = NULL;
    for (size_t i = 0; i < len;) {
        size_t e = i;
        while (e < len && text[e] != '\n')
            e++;
        line++;
        const char *p = text + i;
        size_t n = e - i;
        if (n && p[n - 1] == '\r')
            n--;
        if (separator_line(p, n) && prev) {
            ts = realloc(ts, (nt + 1) * sizeof *ts);
            if (!ts)
                die(EXIT_INTERNAL, "out of memory");
            cur = &ts[nt++];
            memset(cur, 0, sizeof *cur);
            size_t nc = 1;
            for (size_t k = 0; k < prevn; k++)
                nc += prev[k] == '|';
            cur->cols = calloc(nc, sizeof *cur->cols);
            if (!cur->cols)
                die(EXIT_INTERNAL, "out of memory");
            cur->ncols = nc;
            size_t got = 0, start = 0;
            for (size_t k = 0; k <= prevn; k++)
                if (k == prevn || prev[k] == '|') {
                    cur->cols[got++] = trimmed(prev + start, k - start);
                    start = k + 1;
                }
        } else if (cur && n > 0 && p[0] != '(') { /* a row ('(N rows)' ends the table) */
            char **vals = calloc(cur->ncols, sizeof *vals);
            cur->rows = realloc(cur->rows, (cur->nrows + 1) * sizeof *cur->rows);
            cur->lines = realloc(cur->lines, (cur->nrows + 1) * sizeof *cur->lines);
            if (!vals || !cur->rows || !cur->lines)
                die(EXIT_INTERNAL, "out of memory");
            size_t got = split_row(p, n, vals, cur->ncols);
            if (got != cur->ncols)
                die(EXIT_INPUT, "%s:%u: %zu values for the %zu columns of the table above (the "
                                "cqlsh output of one SELECT per table, not EXPAND ON)",
                    path, line, got, cur->ncols);
            for (size_t c = 0; c < cur->ncols; c++)
                if (strcmp(vals[c], "null") == 0) {
                    free(vals[c]);
                    vals[c] = NULL;
                }
            cur->lines[cur->nrows] = line;
            cur->rows[cur->nrows++] = vals;
        } else if (n == 0 || p[0] == '(') {
            cur = NULL; /* the table ended */
        }
        prev = p;
        prevn = n;
        i = e + 1;
    }
    *count = nt;
    return ts;
}

/* A cqlsh list or set of text, ['a', 'b'] or {'a', 'b'}, into its items. */
static char **list_items(const char *v, size_t *n)
{
    *n = 0;
    if (!v)
        return NULL;
    size_t len = strlen(v);
    if (len < 2 || !((v[0] == '[' && v[len - 1] == ']') || (v[0] == '{' && v[len - 1] == '}')))
        return NULL;
    char **out = calloc(len, sizeof *out);
    if (!out)
        die(EXIT_INTERNAL, "out of memory");
    for (size_t i = 1; i < len - 1;) {
        while (i < len - 1 && (v[i] == ' ' || v[i] == ','))
            i++;
        size_t s = i;
        while (i < len - 1 && v[i] != ',')
            i++;
        if (i > s) {
            char *item = trimmed(v + s, i - s);
            size_t il = strlen(item);
            if (il >= 2 && item[0] == '\'' && item[il - 1] == '\'') {
                memmove(item, item + 1, il - 2);
                item[il - 2] = 0;
            }
            out[(*n)++] = item;
        }
    }
    return out;
}

static void free_items(char **items, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(items[i]);
    free(items);
}

bool history_is_metadata_dump(const char *text, size_t len)
{
    /* a cqlsh header naming the log's columns */
    for (size_t i = 0; i < len;) {
        size_t e = i;
        while (e < len && text[e] != '\n')
            e++;
        const char *p = text + i;
        size_t n = e - i;
        bool epoch = false, kind = false, tr = false;
        for (size_t k = 0; k + 5 <= n; k++) {
            epoch |= memcmp(p + k, "epoch", 5) == 0;
            kind |= memcmp(p + k, "kind", 4) == 0;
            tr |= k + 14 <= n && memcmp(p + k, "transformation", 14) == 0;
        }
        if (epoch && kind && tr && memchr(p, '|', n))
            return true;
        i = e + 1;
    }
    return false;
}

tokenring_history *history_from_dump(tr_ctx *ctx, const char *path, const char *text, size_t len,
                                     strbuf *keyspaces)
{
    size_t nt = 0;
    dtable *ts = read_tables(path, text, len, &nt);
    dtable *log = NULL, *dir = NULL, *ks = NULL;
    for (size_t i = 0; i < nt; i++) {
        if (col_of(&ts[i], "transformation") >= 0 && col_of(&ts[i], "epoch") >= 0 &&
            col_of(&ts[i], "kind") >= 0)
            log = &ts[i];
        else if (col_of(&ts[i], "node_id") >= 0 && col_of(&ts[i], "tokens") >= 0)
            dir = &ts[i];
        else if (col_of(&ts[i], "keyspace_name") >= 0 && col_of(&ts[i], "replication") >= 0)
            ks = &ts[i];
    }
    if (!log || !dir)
        die(EXIT_INPUT, "%s: a metadata dump needs the cqlsh output of both "
                        "system_views.cluster_metadata_log (epoch, kind, transformation) and "
                        "system_views.cluster_metadata_directory (node_id, broadcast_address, "
                        "dc, rack, tokens); %s is missing",
            path, !log ? "the log" : "the directory");
    static const char *const dcols[] = { "node_id", "broadcast_address", "dc", "rack" };
    for (size_t c = 0; c < 4; c++)
        if (col_of(dir, dcols[c]) < 0)
            die(EXIT_INPUT, "%s: the cluster_metadata_directory table has no column %s", path,
                dcols[c]);
    /* the router: the directory's nodes with tokens, the schema's keyspaces */
    tokenring_router_builder *b = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    if (tokenring_router_builder_new(&b, NULL, &err) != TOKENRING_OK)
        die(EXIT_INTERNAL, "out of memory");
    long cid = col_of(dir, "node_id"), cad = col_of(dir, "broadcast_address"),
         cpo = col_of(dir, "broadcast_port"), cdc = col_of(dir, "dc"),
         crk = col_of(dir, "rack"), cst = col_of(dir, "state"), ctk = col_of(dir, "tokens");
    tokenring_metadata_node_row *drows = calloc(dir->nrows + 1, sizeof *drows);
    char ***toks = calloc(dir->nrows + 1, sizeof *toks);
    if (!drows || !toks)
        die(EXIT_INTERNAL, "out of memory");
    for (size_t r = 0; r < dir->nrows; r++) {
        char **v = dir->rows[r];
        size_t n = 0;
        toks[r] = list_items(v[ctk], &n);
        if (v[ctk] && !toks[r])
            die(EXIT_INPUT, "%s:%u: tokens '%s' is not a cqlsh list of tokens", path,
                dir->lines[r], v[ctk]);
        drows[r] = (tokenring_metadata_node_row){
            .node_id = v[cid], .broadcast_address = v[cad],
            .broadcast_port = cpo >= 0 ? v[cpo] : NULL, .dc = v[cdc], .rack = v[crk],
            .state = cst >= 0 ? v[cst] : NULL, .tokens = (const char *const *)toks[r],
            .token_count = n
        };
        if (n && v[cad] && v[cdc] &&
            tokenring_router_builder_add_peer(b, v[cad], v[cdc], v[crk], NULL,
                                              (const char *const *)toks[r], n,
                                              &err) != TOKENRING_OK)
            die(lib_exit(err.code), "%s:%u: %s", path, dir->lines[r], err.message);
    }
    long ckn = ks ? col_of(ks, "keyspace_name") : -1, crp = ks ? col_of(ks, "replication") : -1;
    for (size_t r = 0; ks && r < ks->nrows; r++) {
        const char *name = ks->rows[r][ckn], *repl = ks->rows[r][crp];
        /* the replication map as its keys and values: {'k': 'v', ...} */
        size_t n = 0;
        char **items = list_items(repl, &n);
        const char **keys = calloc(n + 1, sizeof *keys), **vals = calloc(n + 1, sizeof *vals);
        if (!keys || !vals)
            die(EXIT_INTERNAL, "out of memory");
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            char *colon = strstr(items[i], "': '");
            if (!colon)
                die(EXIT_INPUT, "%s:%u: replication %s is not a cqlsh map", path,
                    ks->lines[r], repl ? repl : "null");
            *colon = 0;
            keys[m] = items[i];
            vals[m++] = colon + 4;
        }
        if (!name || !items ||
            tokenring_router_builder_add_keyspace(b, name, keys, vals, m, &err) != TOKENRING_OK)
            die(items ? lib_exit(err.code) : EXIT_INPUT, "%s:%u: keyspace %s: %s", path,
                ks->lines[r], name ? name : "null",
                items ? err.message : "the replication is not a cqlsh map");
        /* the tool's own keyspace lines (with no other input, the dump is the input) */
        tokenring_replication *rp = NULL;
        if (tokenring_replication_parse(&rp, repl, strlen(repl), NULL) == TOKENRING_OK) {
            char cql[512];
            size_t cn = 0;
            if (tokenring_replication_format(cql, sizeof cql, &cn, rp) == TOKENRING_OK)
                sb_printf(keyspaces, "keyspace %s %s\n", name, cql);
            tokenring_replication_free(rp);
        }
        free(keys);
        free(vals);
        free_items(items, n);
    }
    tokenring_router *router = NULL;
    int rc = tokenring_router_build(&router, b, &err);
    tokenring_router_builder_free(b);
    if (rc != TOKENRING_OK)
        die(lib_exit(rc), "%s: %s", path, err.message);
    long cep = col_of(log, "epoch"), ckd = col_of(log, "kind"),
         ctr = col_of(log, "transformation");
    tokenring_metadata_log_row *lrows = calloc(log->nrows + 1, sizeof *lrows);
    if (!lrows)
        die(EXIT_INTERNAL, "out of memory");
    for (size_t r = 0; r < log->nrows; r++)
        lrows[r] = (tokenring_metadata_log_row){ .epoch = log->rows[r][cep],
                                                 .kind = log->rows[r][ckd],
                                                 .transformation = log->rows[r][ctr] };
    tokenring_history *h = NULL;
    tokenring_limits lim;
    tool_limits(ctx, &lim, "replaying the metadata log");
    rc = tokenring_history_from_metadata(&h, lrows, log->nrows, drows, dir->nrows, router,
                                         &lim, &err);
    if (rc != TOKENRING_OK)
        die(lib_exit(rc), "%s: %s", path, err.message);
    tokenring_router_free(router);
    free(lrows);
    for (size_t r = 0; r < dir->nrows; r++) {
        size_t n = drows[r].token_count;
        free_items(toks[r], n);
    }
    free(toks);
    free(drows);
    for (size_t i = 0; i < nt; i++)
        free_table(&ts[i]);
    free(ts);
    return h;
}
