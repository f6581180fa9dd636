/* SPDX-License-Identifier: Apache-2.0 */
/* Tables' partition keys from a pasted schema, so that `getendpoints KEYSPACE TABLE KEY`
 * reads KEY as nodetool does (the table's partition-key type's fromString; the bytes come
 * from the library's tokenring_key_parse). This file reads the first of the two pastes
 * and dispatches; schema_cql.c reads the second; schema_store.c keeps the tables:
 *
 *   - cqlsh output of SELECT keyspace_name, table_name, column_name, kind, position, type
 *     FROM system_schema.columns (SELECT * too: the columns are found by name);
 *   - CQL: DESCRIBE KEYSPACE / DESCRIBE TABLE / DESCRIBE SCHEMA output, or any CREATE
 *     KEYSPACE / CREATE TABLE / CREATE MATERIALIZED VIEW statements (USE sets the keyspace
 *     of unqualified names; other statements are skipped). CREATE KEYSPACE also defines
 *     the keyspace's replication, as --keyspace does.
 *
 * Only the tables' keys are kept: the tool places keys, it does not model the rest of a
 * schema. An input that is neither goes to the library's parsers. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* ------------------------------------------------- cqlsh system_schema.columns */

/* The cells of a cqlsh table row ('|'-separated, trimmed) into cells[] (at most cap);
 * returns the count. */
static size_t split_row(const char *s, size_t n, const char **cells, size_t *lens, size_t cap)
{
    size_t k = 0;
    size_t start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && s[i] != '|')
            continue;
        size_t a = start, b = i;
        while (a < b && isspace((unsigned char)s[a]))
            a++;
        while (b > a && isspace((unsigned char)s[b - 1]))
            b--;
        if (k < cap) {
            cells[k] = s + a;
            lens[k] = b - a;
        }
        k++;
        start = i + 1;
    }
    return k;
}

static bool cell_is(const char *c, size_t n, const char *word)
{
    return n == strlen(word) && memcmp(c, word, n) == 0;
}

enum { COL_KS, COL_TABLE, COL_NAME, COL_KIND, COL_POS, COL_TYPE, NCOLS };
static const char *const col_names[NCOLS] = { "keyspace_name", "table_name", "column_name",
                                              "kind", "position", "type" };

/* The first non-blank line of TEXT, or NULL. */
static const char *first_line(const char *text, size_t len, size_t *n)
{
    size_t pos = 0;
    while (pos < len) {
        const char *s = text + pos;
        const char *nl = memchr(s, '\n', len - pos);
        size_t l = nl ? (size_t)(nl - s) : len - pos;
        pos += l + (nl ? 1 : 0);
        size_t k = 0;
        while (k < l && isspace((unsigned char)s[k]))
            k++;
        if (k < l) {
            *n = l;
            return s;
        }
    }
    return NULL;
}

static bool is_columns_table(const char *text, size_t len)
{
    size_t n;
    const char *s = first_line(text, len, &n);
    if (!s || !memchr(s, '|', n))
        return false;
    const char *cells[64];
    size_t lens[64];
    size_t k = split_row(s, n, cells, lens, 64), found = 0;
    for (size_t c = 0; c < NCOLS; c++)
        for (size_t i = 0; i < k && i < 64; i++)
            if (cell_is(cells[i], lens[i], col_names[c])) {
                found++;
                break;
            }
    /* column_name and kind: no other system table has both */
    for (size_t i = 0; i < k && i < 64; i++)
        if (cell_is(cells[i], lens[i], "column_name"))
            return found >= 2;
    return false;
}

struct pk_row {
    char *ks, *table, *name, *type;
    long position;
    unsigned line;
};

static int cmp_pk_row(const void *a, const void *b)
{
    const struct pk_row *x = a, *y = b;
    int c = strcmp(x->ks, y->ks);
    if (!c)
        c = strcmp(x->table, y->table);
    if (!c)
        c = x->position < y->position ? -1 : x->position > y->position;
    return c;
}

static void read_columns_table(tr_ctx *ctx, const char *name, const char *text, size_t len)
{
    size_t pos = 0, nrows = 0, cap = 0;
    unsigned line = 0;
    long idx[NCOLS];
    size_t ncells = 0;
    bool header = false;
    struct pk_row *rows = NULL;
    while (pos < len) {
        const char *s = text + pos;
        const char *nl = memchr(s, '\n', len - pos);
        size_t l = nl ? (size_t)(nl - s) : len - pos;
        pos += l + (nl ? 1 : 0);
        line++;
        if (l > 0 && s[l - 1] == '\r')
            l--;
        size_t k = 0;
        while (k < l && isspace((unsigned char)s[k]))
            k++;
        if (k == l || (l - k >= 1 && s[k] == '(' && l > k && s[l - 1] == ')') ||
            (l - k == 10 && memcmp(s + k, "---MORE---", 10) == 0))
            continue; /* blank, "(N rows)", cqlsh's pager */
        size_t rule = k;
        while (rule < l && (s[rule] == '-' || s[rule] == '+'))
            rule++;
        if (rule == l)
            continue; /* the rule under the header */
        const char *cells[64];
        size_t lens[64];
        size_t nc = split_row(s, l, cells, lens, 64);
        if (!header || (nc == ncells && cell_is(cells[idx[COL_KS]], lens[idx[COL_KS]],
                                                "keyspace_name"))) {
            if (header)
                continue; /* the header again (a paste of several pages) */
            if (nc > 64)
                die(EXIT_INPUT, "%s:%u:1: too many columns (at most 64)", name, line);
            for (size_t c = 0; c < NCOLS; c++) {
                idx[c] = -1;
                for (size_t i = 0; i < nc; i++)
                    if (cell_is(cells[i], lens[i], col_names[c]))
                        idx[c] = (long)i;
                if (idx[c] < 0)
                    die(EXIT_INPUT, "%s:%u:1: system_schema.columns without its column '%s': "
                                    "select keyspace_name, table_name, column_name, kind, "
                                    "position, type",
                        name, line, col_names[c]);
            }
            ncells = nc;
            header = true;
            continue;
        }
        if (nc != ncells)
            die(EXIT_INPUT, "%s:%u:1: expected %zu '|'-separated cells as in the header, "
                            "found %zu",
                name, line, ncells, nc);
        const char *kind = cells[idx[COL_KIND]];
        if (!cell_is(kind, lens[idx[COL_KIND]], "partition_key"))
            continue;
        const char *p = cells[idx[COL_POS]];
        size_t pl = lens[idx[COL_POS]];
        long v = 0;
        size_t i = 0;
        for (; i < pl && isdigit((unsigned char)p[i]) && v < 1000; i++)
            v = v * 10 + (p[i] - '0');
        if (pl == 0 || i != pl || v >= 1000)
            die(EXIT_INPUT, "%s:%u:%zu: expected a partition-key position (0, 1, ...), "
                            "found '%.*s'",
                name, line, (size_t)(p - s) + 1, (int)pl, p);
        for (size_t c = 0; c < NCOLS; c++)
            if (lens[idx[c]] == 0 && c != COL_POS)
                die(EXIT_INPUT, "%s:%u:%zu: empty %s", name, line,
                    (size_t)(cells[idx[c]] - s) + 1, col_names[c]);
        if (nrows == cap) {
            cap = cap ? 2 * cap : 32;
            struct pk_row *q = realloc(rows, cap * sizeof *q);
            if (!q)
                die(EXIT_INTERNAL, "out of memory");
            rows = q;
        }
        rows[nrows++] = (struct pk_row){
            schema_strndup(cells[idx[COL_KS]], lens[idx[COL_KS]]),
            schema_strndup(cells[idx[COL_TABLE]], lens[idx[COL_TABLE]]),
            schema_strndup(cells[idx[COL_NAME]], lens[idx[COL_NAME]]),
            schema_strndup(cells[idx[COL_TYPE]], lens[idx[COL_TYPE]]), v, line
        };
    }
    if (!header)
        die(EXIT_INPUT, "%s: no system_schema.columns header", name);
    qsort(rows, nrows, sizeof *rows, cmp_pk_row);
    for (size_t a = 0; a < nrows;) {
        size_t b = a;
        while (b < nrows && strcmp(rows[b].ks, rows[a].ks) == 0 &&
               strcmp(rows[b].table, rows[a].table) == 0)
            b++;
        struct schema_table t = { rows[a].ks, rows[a].table, b - a,
                                  schema_alloc((b - a) * sizeof(char *)),
                                  schema_alloc((b - a) * sizeof(char *)) };
        for (size_t i = a; i < b; i++) {
            if (rows[i].position != (long)(i - a))
                die(EXIT_INPUT, "%s:%u: table %s.%s: partition-key column %s has position "
                                "%ld, expected %zu (is a row of the table missing from the "
                                "paste?)",
                    name, rows[i].line, t.keyspace, t.table, rows[i].name, rows[i].position,
                    i - a);
            t.names[i - a] = rows[i].name;
            t.types[i - a] = rows[i].type;
            if (i > a) {
                free(rows[i].ks);
                free(rows[i].table);
            }
        }
        schema_add_table(ctx, &t, name);
        a = b;
    }
    free(rows);
}

/* ------------------------------------------------------------------ the API */

bool schema_read(tr_ctx *ctx, const char *name, const char *text, size_t len)
{
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) { /* a UTF-8 byte-order mark */
        if (!is_columns_table(text + 3, len - 3) && !schema_is_cql(text + 3, len - 3))
            return false;
        /* columns keep their numbers: the mark is a blank to the readers */
        char *copy = schema_strndup(text, len);
        memcpy(copy, "   ", 3);
        bool ok = schema_read(ctx, name, copy, len);
        free(copy);
        return ok;
    }
    if (is_columns_table(text, len)) {
        read_columns_table(ctx, name, text, len);
        return true;
    }
    if (schema_is_cql(text, len)) {
        schema_read_cql(ctx, name, text, len);
        return true;
    }
    return false;
}
