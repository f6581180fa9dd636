/* SPDX-License-Identifier: Apache-2.0 */
/* Tables' partition keys from a pasted schema, so that `getendpoints KEYSPACE TABLE KEY`
 * reads KEY as nodetool does (the table's partition-key type's fromString; the bytes come
 * from the library's tokenring_key_parse). Two pastes are read:
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

/* --------------------------------------------------------------- the tables */

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die(EXIT_INTERNAL, "out of memory");
    return p;
}

static char *xstrndup(const char *s, size_t n)
{
    char *p = xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

static void free_table(struct schema_table *t)
{
    free(t->keyspace);
    free(t->table);
    for (size_t i = 0; i < t->ncols; i++) {
        free(t->names[i]);
        free(t->types[i]);
    }
    free(t->names);
    free(t->types);
}

static void free_schema(tr_ctx *ctx)
{
    for (size_t i = 0; i < ctx->ntables; i++)
        free_table(&ctx->tables[i]);
    free(ctx->tables);
    ctx->tables = NULL;
    ctx->ntables = 0;
}

static struct schema_table *find_table(tr_ctx *ctx, const char *ks, const char *table)
{
    for (size_t i = 0; i < ctx->ntables; i++)
        if (strcmp(ctx->tables[i].keyspace, ks) == 0 && strcmp(ctx->tables[i].table, table) == 0)
            return &ctx->tables[i];
    return NULL;
}

static bool same_key(const struct schema_table *a, const struct schema_table *b)
{
    if (a->ncols != b->ncols)
        return false;
    for (size_t i = 0; i < a->ncols; i++)
        if (strcmp(a->names[i], b->names[i]) != 0 || strcmp(a->types[i], b->types[i]) != 0)
            return false;
    return true;
}

static void key_text(strbuf *b, const struct schema_table *t)
{
    for (size_t i = 0; i < t->ncols; i++)
        sb_printf(b, "%s%s %s", i ? ", " : "", t->names[i], t->types[i]);
}

/* Takes T (moved in). A table read twice (two pastes) must have the same key. */
static void add_table(tr_ctx *ctx, struct schema_table *t, const char *where)
{
    struct schema_table *old = find_table(ctx, t->keyspace, t->table);
    if (old) {
        if (!same_key(old, t)) {
            strbuf a = { 0 }, b = { 0 };
            key_text(&a, old);
            key_text(&b, t);
            die(EXIT_INPUT, "%s: table %s.%s: partition key (%s) differs from (%s) read "
                            "before: give one schema",
                where, t->keyspace, t->table, b.p, a.p);
        }
        free_table(t);
        return;
    }
    struct schema_table *q = realloc(ctx->tables, (ctx->ntables + 1) * sizeof *q);
    if (!q)
        die(EXIT_INTERNAL, "out of memory");
    ctx->tables = q;
    ctx->tables[ctx->ntables++] = *t;
}

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
            xstrndup(cells[idx[COL_KS]], lens[idx[COL_KS]]),
            xstrndup(cells[idx[COL_TABLE]], lens[idx[COL_TABLE]]),
            xstrndup(cells[idx[COL_NAME]], lens[idx[COL_NAME]]),
            xstrndup(cells[idx[COL_TYPE]], lens[idx[COL_TYPE]]), v, line
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
                                  xmalloc((b - a) * sizeof(char *)),
                                  xmalloc((b - a) * sizeof(char *)) };
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
        add_table(ctx, &t, name);
        a = b;
    }
    free(rows);
}

/* ------------------------------------------------------------------ CQL text */

enum tk { T_END, T_WORD, T_QUOTED, T_STRING, T_PUNCT };

struct tok {
    enum tk kind;
    const char *s; /* the source text (T_QUOTED, T_STRING: with the quotes) */
    size_t n;
    unsigned line, col;
};

struct lexer {
    const char *name, *text;
    size_t len, pos, line_start;
    unsigned line;
};

static void lex_die(const struct lexer *lx, unsigned line, unsigned col, const char *what)
    __attribute__((noreturn));
static void lex_die(const struct lexer *lx, unsigned line, unsigned col, const char *what)
{
    die(EXIT_INPUT, "%s:%u:%u: %s", lx->name, line, col, what);
}

static bool at_line_start(const struct lexer *lx)
{
    for (size_t i = lx->line_start; i < lx->pos; i++)
        if (!isspace((unsigned char)lx->text[i]))
            return false;
    return true;
}

static void newline(struct lexer *lx)
{
    lx->line++;
    lx->line_start = lx->pos;
}

/* The next token; skips white space, comments (--, //, block) and cqlsh prompt lines
 * ("cqlsh> DESCRIBE ..." / "cqlsh:ks> ..."). */
static struct tok lex(struct lexer *lx)
{
    const char *t = lx->text;
    for (;;) {
        while (lx->pos < lx->len && isspace((unsigned char)t[lx->pos]))
            if (t[lx->pos++] == '\n')
                newline(lx);
        if (lx->pos >= lx->len)
            return (struct tok){ T_END, t + lx->pos, 0, lx->line,
                                 (unsigned)(lx->pos - lx->line_start) + 1 };
        size_t rest = lx->len - lx->pos;
        bool line_comment = (rest >= 2 && ((t[lx->pos] == '-' && t[lx->pos + 1] == '-') ||
                                           (t[lx->pos] == '/' && t[lx->pos + 1] == '/'))) ||
                            (at_line_start(lx) && rest >= 5 &&
                             memcmp(t + lx->pos, "cqlsh", 5) == 0);
        if (line_comment) {
            while (lx->pos < lx->len && t[lx->pos] != '\n')
                lx->pos++;
            continue;
        }
        if (rest >= 2 && t[lx->pos] == '/' && t[lx->pos + 1] == '*') {
            unsigned l0 = lx->line, c0 = (unsigned)(lx->pos - lx->line_start) + 1;
            lx->pos += 2;
            while (lx->pos + 1 < lx->len && !(t[lx->pos] == '*' && t[lx->pos + 1] == '/'))
                if (t[lx->pos++] == '\n')
                    newline(lx);
            if (lx->pos + 1 >= lx->len)
                lex_die(lx, l0, c0, "unterminated comment: expected '*/'");
            lx->pos += 2;
            continue;
        }
        break;
    }
    struct tok k = { T_PUNCT, t + lx->pos, 1, lx->line,
                     (unsigned)(lx->pos - lx->line_start) + 1 };
    char c = t[lx->pos];
    if (c == '"' || c == '\'' || (c == '$' && lx->pos + 1 < lx->len && t[lx->pos + 1] == '$')) {
        bool dollar = c == '$';
        size_t p = lx->pos + (dollar ? 2 : 1);
        for (;;) {
            if (p >= lx->len)
                lex_die(lx, k.line, k.col,
                        c == '"'    ? "unterminated quoted name: expected '\"'"
                        : dollar    ? "unterminated string: expected '$$'"
                                    : "unterminated string: expected '''");
            if (dollar && t[p] == '$' && p + 1 < lx->len && t[p + 1] == '$') {
                p += 2;
                break;
            }
            if (!dollar && t[p] == c) {
                if (p + 1 < lx->len && t[p + 1] == c) { /* doubled: one quote */
                    p += 2;
                    continue;
                }
                p++;
                break;
            }
            if (t[p] == '\n') {
                lx->pos = p + 1;
                newline(lx);
            }
            p++;
        }
        k.kind = c == '"' ? T_QUOTED : T_STRING;
        k.n = p - (size_t)(k.s - t);
        lx->pos = p;
        return k;
    }
    if (isalnum((unsigned char)c) || c == '_') {
        size_t p = lx->pos;
        while (p < lx->len && (isalnum((unsigned char)t[p]) || t[p] == '_'))
            p++;
        k.kind = T_WORD;
        k.n = p - lx->pos;
    }
    lx->pos += k.n;
    return k;
}

struct parser {
    struct lexer lx;
    struct tok *v;
    size_t n, i;
};

static const struct tok *peek(struct parser *ps, size_t ahead)
{
    size_t j = ps->i + ahead < ps->n ? ps->i + ahead : ps->n - 1;
    return &ps->v[j];
}

static bool is_word(const struct tok *k, const char *w)
{
    size_t n = strlen(w);
    if (k->kind != T_WORD || k->n != n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)k->s[i]) != w[i])
            return false;
    return true;
}

static bool is_punct(const struct tok *k, char c)
{
    return k->kind == T_PUNCT && k->s[0] == c;
}

static void expect_fail(struct parser *ps, const char *what) __attribute__((noreturn));
static void expect_fail(struct parser *ps, const char *what)
{
    const struct tok *k = peek(ps, 0);
    char msg[300];
    if (k->kind == T_END)
        snprintf(msg, sizeof msg, "expected %s, found the end of the input", what);
    else
        snprintf(msg, sizeof msg, "expected %s, found '%.*s'", what,
                 (int)(k->n > 40 ? 40 : k->n), k->s);
    lex_die(&ps->lx, k->line, k->col, msg);
}

static void expect_punct(struct parser *ps, char c, const char *what)
{
    if (!is_punct(peek(ps, 0), c))
        expect_fail(ps, what);
    ps->i++;
}

/* A name as Cassandra keeps it: unquoted folded to lower case, quoted as written with
 * "" read as one ". */
static char *ident(struct parser *ps, const char *what)
{
    const struct tok *k = peek(ps, 0);
    if (k->kind == T_WORD) {
        char *s = xstrndup(k->s, k->n);
        for (char *p = s; *p; p++)
            *p = (char)tolower((unsigned char)*p);
        ps->i++;
        return s;
    }
    if (k->kind == T_QUOTED) {
        char *s = xmalloc(k->n), *o = s;
        for (size_t i = 1; i + 1 < k->n; i++) {
            *o++ = k->s[i];
            if (k->s[i] == '"')
                i++;
        }
        *o = '\0';
        ps->i++;
        return s;
    }
    expect_fail(ps, what);
}

/* [KS.]NAME, KS defaulting to the keyspace of the last USE. */
static void qualified(struct parser *ps, const char *use, char **ks, char **name,
                      const char *what)
{
    const struct tok *at = peek(ps, 0);
    char *a = ident(ps, what);
    if (is_punct(peek(ps, 0), '.')) {
        ps->i++;
        *ks = a;
        *name = ident(ps, what);
        return;
    }
    if (!use) {
        char msg[300];
        snprintf(msg, sizeof msg, "%s '%s' has no keyspace: write KEYSPACE.%s or put 'USE "
                                  "KEYSPACE;' before it", what, a, a);
        lex_die(&ps->lx, at->line, at->col, msg);
    }
    *ks = strdup(use);
    *name = a;
    if (!*ks)
        die(EXIT_INTERNAL, "out of memory");
}

static void skip_if_not_exists(struct parser *ps)
{
    if (is_word(peek(ps, 0), "if") && is_word(peek(ps, 1), "not") &&
        is_word(peek(ps, 2), "exists"))
        ps->i += 3;
}

/* To the end of the statement: past the next ';' outside brackets (or the end). */
static void skip_statement(struct parser *ps)
{
    int depth = 0;
    while (peek(ps, 0)->kind != T_END) {
        const struct tok *k = peek(ps, 0);
        ps->i++;
        if (is_punct(k, '(') || is_punct(k, '{') || is_punct(k, '['))
            depth++;
        else if ((is_punct(k, ')') || is_punct(k, '}') || is_punct(k, ']')) && depth > 0)
            depth--;
        else if (is_punct(k, ';') && depth == 0)
            return;
    }
}

/* A column's type up to ',' or ')' or STATIC / PRIMARY KEY at its level, in the form
 * system_schema.columns shows (lower case, ", " between parameters). */
static char *type_text(struct parser *ps)
{
    strbuf b = { 0 };
    int depth = 0;
    const struct tok *start = peek(ps, 0);
    for (;;) {
        const struct tok *k = peek(ps, 0);
        if (k->kind == T_END)
            expect_fail(ps, "a column type and ',' or ')'");
        if (depth == 0 && (is_punct(k, ',') || is_punct(k, ')') || is_word(k, "static") ||
                           is_word(k, "primary")))
            break;
        if (is_punct(k, '<') || is_punct(k, '('))
            depth++;
        if ((is_punct(k, '>') || is_punct(k, ')')) && depth > 0)
            depth--;
        if (k->kind == T_WORD) {
            for (size_t i = 0; i < k->n; i++)
                sb_printf(&b, "%c", (char)tolower((unsigned char)k->s[i]));
        } else {
            sb_put(&b, k->s, k->n);
            if (is_punct(k, ','))
                sb_puts(&b, " ");
        }
        ps->i++;
    }
    if (!b.p)
        lex_die(&ps->lx, start->line, start->col, "expected a column type");
    return b.p;
}

/* PRIMARY KEY ( (a, b), c ) or ( a, c ): the partition key's column names. */
static char **primary_key(struct parser *ps, size_t *count)
{
    expect_punct(ps, '(', "'(' after PRIMARY KEY");
    char **v = NULL;
    size_t n = 0;
    bool compound = is_punct(peek(ps, 0), '(');
    if (compound)
        ps->i++;
    do {
        char **q = realloc(v, (n + 1) * sizeof *q);
        if (!q)
            die(EXIT_INTERNAL, "out of memory");
        v = q;
        v[n++] = ident(ps, "a partition-key column name");
    } while (compound && is_punct(peek(ps, 0), ',') && (ps->i++, true));
    if (compound)
        expect_punct(ps, ')', "')' closing the partition key");
    int depth = 1; /* the clustering columns: not needed */
    while (depth > 0) {
        const struct tok *k = peek(ps, 0);
        if (k->kind == T_END)
            expect_fail(ps, "')' closing PRIMARY KEY");
        depth += is_punct(k, '(') - is_punct(k, ')');
        ps->i++;
    }
    *count = n;
    return v;
}

/* Every column of the tables read from this input (views take their types from their
 * base table). */
struct cols {
    char *ks, *table;
    size_t n;
    char **names, **types;
};

static void table_key(struct parser *ps, const struct tok *at, struct schema_table *t,
                      char **pk, size_t npk, const struct cols *c, const char *what)
{
    t->ncols = npk;
    t->names = pk;
    t->types = xmalloc(npk * sizeof *t->types);
    for (size_t i = 0; i < npk; i++) {
        size_t j = 0;
        while (j < c->n && strcmp(c->names[j], pk[i]) != 0)
            j++;
        if (j == c->n) {
            char msg[400];
            snprintf(msg, sizeof msg, "%s %s.%s: partition-key column '%s' is not a column "
                                      "of %s",
                     what, t->keyspace, t->table, pk[i], c->table);
            lex_die(&ps->lx, at->line, at->col, msg);
        }
        t->types[i] = strdup(c->types[j]);
        if (!t->types[i])
            die(EXIT_INTERNAL, "out of memory");
    }
}

static void parse_table(tr_ctx *ctx, struct parser *ps, const char *use, struct cols **all,
                        size_t *nall)
{
    const struct tok *at = peek(ps, 0);
    struct schema_table t = { 0 };
    struct cols c = { 0 };
    skip_if_not_exists(ps);
    qualified(ps, use, &t.keyspace, &t.table, "table");
    expect_punct(ps, '(', "'(' opening the column definitions");
    char **pk = NULL;
    size_t npk = 0;
    for (;;) {
        if (is_word(peek(ps, 0), "primary") && is_word(peek(ps, 1), "key")) {
            if (pk)
                expect_fail(ps, "one PRIMARY KEY");
            ps->i += 2;
            pk = primary_key(ps, &npk);
        } else {
            c.names = realloc(c.names, (c.n + 1) * sizeof *c.names);
            c.types = realloc(c.types, (c.n + 1) * sizeof *c.types);
            if (!c.names || !c.types)
                die(EXIT_INTERNAL, "out of memory");
            c.names[c.n] = ident(ps, "a column name or PRIMARY KEY");
            c.types[c.n] = type_text(ps);
            c.n++;
            if (is_word(peek(ps, 0), "static"))
                ps->i++;
            if (is_word(peek(ps, 0), "primary") && is_word(peek(ps, 1), "key")) {
                if (pk)
                    expect_fail(ps, "one PRIMARY KEY");
                ps->i += 2;
                pk = xmalloc(sizeof *pk);
                pk[0] = strdup(c.names[c.n - 1]);
                npk = 1;
            }
        }
        if (is_punct(peek(ps, 0), ',')) {
            ps->i++;
            if (is_punct(peek(ps, 0), ')')) /* a trailing comma */
                break;
            continue;
        }
        break;
    }
    expect_punct(ps, ')', "',' or ')' after a column definition");
    if (!pk)
        lex_die(&ps->lx, at->line, at->col, "table without a PRIMARY KEY");
    c.ks = strdup(t.keyspace);
    c.table = strdup(t.table);
    table_key(ps, at, &t, pk, npk, &c, "table");
    add_table(ctx, &t, ps->lx.name);
    struct cols *q = realloc(*all, (*nall + 1) * sizeof *q);
    if (!q || !c.ks || !c.table)
        die(EXIT_INTERNAL, "out of memory");
    *all = q;
    (*all)[(*nall)++] = c;
    skip_statement(ps); /* WITH ...; */
}

/* CREATE MATERIALIZED VIEW [IF NOT EXISTS] v AS SELECT ... FROM base WHERE ...
 * PRIMARY KEY (...) [WITH ...] */
static void parse_view(tr_ctx *ctx, struct parser *ps, const char *use, struct cols *all,
                       size_t nall)
{
    const struct tok *at = peek(ps, 0);
    struct schema_table t = { 0 };
    skip_if_not_exists(ps);
    qualified(ps, use, &t.keyspace, &t.table, "view");
    while (!is_word(peek(ps, 0), "from")) {
        if (peek(ps, 0)->kind == T_END || is_punct(peek(ps, 0), ';'))
            expect_fail(ps, "FROM naming the view's base table");
        ps->i++;
    }
    ps->i++;
    char *bks, *btable;
    qualified(ps, t.keyspace, &bks, &btable, "base table");
    while (!(is_word(peek(ps, 0), "primary") && is_word(peek(ps, 1), "key"))) {
        if (peek(ps, 0)->kind == T_END || is_punct(peek(ps, 0), ';'))
            expect_fail(ps, "the view's PRIMARY KEY");
        ps->i++;
    }
    ps->i += 2;
    size_t npk;
    char **pk = primary_key(ps, &npk);
    const struct cols *base = NULL;
    for (size_t i = 0; i < nall; i++)
        if (strcmp(all[i].ks, bks) == 0 && strcmp(all[i].table, btable) == 0)
            base = &all[i];
    if (!base) {
        char msg[600];
        snprintf(msg, sizeof msg, "view %s.%s: its base table %s.%s is not in this input "
                                  "(paste DESCRIBE KEYSPACE %s, or the base table's CREATE "
                                  "TABLE before the view)",
                 t.keyspace, t.table, bks, btable, bks);
        lex_die(&ps->lx, at->line, at->col, msg);
    }
    table_key(ps, at, &t, pk, npk, base, "view");
    add_table(ctx, &t, ps->lx.name);
    free(bks);
    free(btable);
    skip_statement(ps);
}

static void parse_keyspace(tr_ctx *ctx, struct parser *ps)
{
    skip_if_not_exists(ps);
    const struct tok *at = peek(ps, 0);
    char *name = ident(ps, "a keyspace name");
    while (!(is_word(peek(ps, 0), "replication") && is_punct(peek(ps, 1), '='))) {
        if (peek(ps, 0)->kind == T_END || is_punct(peek(ps, 0), ';'))
            expect_fail(ps, "WITH replication = {...}");
        ps->i++;
    }
    ps->i += 2;
    const struct tok *open = peek(ps, 0);
    if (!is_punct(open, '{'))
        expect_fail(ps, "'{' opening the replication map");
    while (!is_punct(peek(ps, 0), '}')) {
        if (peek(ps, 0)->kind == T_END)
            expect_fail(ps, "'}' closing the replication map");
        ps->i++;
    }
    const struct tok *close = peek(ps, 0);
    ps->i++;
    size_t len = (size_t)(close->s - open->s) + 1;
    skip_statement(ps);
    /* the classes that place nothing on the ring (system keyspaces of DESCRIBE FULL
     * SCHEMA), as the library's system_schema.keyspaces reader skips them */
    static const char *const local[] = { "LocalStrategy'", "EverywhereStrategy'",
                                         "MetaStrategy'" };
    for (size_t i = 0; i < sizeof local / sizeof *local; i++)
        for (const char *p = open->s; p + strlen(local[i]) <= close->s; p++)
            if (memcmp(p, local[i], strlen(local[i])) == 0) {
                free(name);
                return;
            }
    tokenring_replication *r = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = tokenring_replication_parse(&r, open->s, len, &err);
    if (rc != TOKENRING_OK) {
        char msg[sizeof err.message + 64];
        snprintf(msg, sizeof msg, "keyspace %s: %s", name, err.message);
        lex_die(&ps->lx, open->line, open->col + (err.column ? err.column - 1 : 0), msg);
    }
    size_t idx;
    if (tokenring_cluster_find_keyspace(&idx, ctx->cluster, name) == TOKENRING_OK) {
        const tokenring_replication *old;
        char a[512], b[512];
        tokenring_cluster_keyspace(NULL, &old, ctx->cluster, idx);
        if (strcmp(repl_text(old, a, sizeof a), repl_text(r, b, sizeof b)) != 0) {
            char msg[1200];
            snprintf(msg, sizeof msg, "keyspace %s: replication %s differs from %s read "
                                      "before: give one schema",
                     name, b, a);
            lex_die(&ps->lx, at->line, at->col, msg);
        }
    } else if ((rc = tokenring_cluster_add_keyspace(ctx->cluster, name, r, &err)) !=
               TOKENRING_OK) {
        char msg[sizeof err.message + 64];
        snprintf(msg, sizeof msg, "keyspace %s: %s", name, err.message);
        lex_die(&ps->lx, at->line, at->col, msg);
    }
    tokenring_replication_free(r);
    free(name);
}

/* Does TEXT open (after blank lines, comments and cqlsh prompts) with CREATE or USE?
 * Reads only up to that word: detection never fails. */
static bool is_cql(const char *text, size_t len)
{
    size_t p = 0;
    for (;;) {
        while (p < len && isspace((unsigned char)text[p]))
            p++;
        if (p + 1 < len && ((text[p] == '-' && text[p + 1] == '-') ||
                            (text[p] == '/' && text[p + 1] == '/') ||
                            (p + 5 <= len && memcmp(text + p, "cqlsh", 5) == 0))) {
            while (p < len && text[p] != '\n')
                p++;
            continue;
        }
        if (p + 1 < len && text[p] == '/' && text[p + 1] == '*') {
            p += 2;
            while (p + 1 < len && !(text[p] == '*' && text[p + 1] == '/'))
                p++;
            p += 2;
            continue;
        }
        break;
    }
    size_t w = p;
    while (w < len && isalpha((unsigned char)text[w]))
        w++;
    struct tok k = { T_WORD, text + p, w - p, 0, 0 };
    return w > p && (is_word(&k, "create") || is_word(&k, "use"));
}

static void read_cql(tr_ctx *ctx, const char *name, const char *text, size_t len)
{
    struct parser ps = { { name, text, len, 0, 0, 1 }, NULL, 0, 0 };
    size_t cap = 0;
    for (;;) {
        if (ps.n == cap) {
            cap = cap ? 2 * cap : 256;
            ps.v = realloc(ps.v, cap * sizeof *ps.v);
            if (!ps.v)
                die(EXIT_INTERNAL, "out of memory");
        }
        ps.v[ps.n] = lex(&ps.lx);
        if (ps.v[ps.n++].kind == T_END)
            break;
    }
    char *use = NULL;
    struct cols *all = NULL;
    size_t nall = 0;
    while (peek(&ps, 0)->kind != T_END) {
        const struct tok *k = peek(&ps, 0);
        if (is_punct(k, ';')) {
            ps.i++;
        } else if (is_word(k, "use")) {
            ps.i++;
            free(use);
            use = ident(&ps, "a keyspace name after USE");
            skip_statement(&ps);
        } else if (is_word(k, "create") && (is_word(peek(&ps, 1), "table") ||
                                            is_word(peek(&ps, 1), "columnfamily"))) {
            ps.i += 2;
            parse_table(ctx, &ps, use, &all, &nall);
        } else if (is_word(k, "create") && (is_word(peek(&ps, 1), "keyspace") ||
                                            is_word(peek(&ps, 1), "schema"))) {
            ps.i += 2;
            parse_keyspace(ctx, &ps);
        } else if (is_word(k, "create") && is_word(peek(&ps, 1), "materialized") &&
                   is_word(peek(&ps, 2), "view")) {
            ps.i += 3;
            parse_view(ctx, &ps, use, all, nall);
        } else {
            skip_statement(&ps); /* CREATE TYPE, INDEX, FUNCTION, ...: no partition key */
        }
    }
    for (size_t i = 0; i < nall; i++) {
        for (size_t j = 0; j < all[i].n; j++) {
            free(all[i].names[j]);
            free(all[i].types[j]);
        }
        free(all[i].names);
        free(all[i].types);
        free(all[i].ks);
        free(all[i].table);
    }
    free(all);
    free(use);
    free(ps.v);
}

/* ------------------------------------------------------------------ the API */

bool schema_read(tr_ctx *ctx, const char *name, const char *text, size_t len)
{
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) { /* a UTF-8 byte-order mark */
        if (!is_columns_table(text + 3, len - 3) && !is_cql(text + 3, len - 3))
            return false;
        /* columns keep their numbers: the mark is a blank to the readers */
        char *copy = xstrndup(text, len);
        memcpy(copy, "   ", 3);
        bool ok = schema_read(ctx, name, copy, len);
        free(copy);
        return ok;
    }
    if (is_columns_table(text, len)) {
        read_columns_table(ctx, name, text, len);
        return true;
    }
    if (is_cql(text, len)) {
        read_cql(ctx, name, text, len);
        return true;
    }
    return false;
}

void schema_free(tr_ctx *ctx)
{
    free_schema(ctx);
}

const struct schema_table *schema_table(tr_ctx *ctx, const char *keyspace, const char *table,
                                        strbuf *known)
{
    const struct schema_table *t = find_table(ctx, keyspace, table);
    if (t || !known)
        return t;
    for (size_t i = 0; i < ctx->ntables; i++)
        if (strcmp(ctx->tables[i].keyspace, keyspace) == 0)
            sb_printf(known, "%s%s", known->n ? ", " : "", ctx->tables[i].table);
    return NULL;
}
