/* SPDX-License-Identifier: Apache-2.0 */
/* A schema pasted as CQL (schema.c keeps the tables): DESCRIBE KEYSPACE / TABLE / SCHEMA
 * output, or any CREATE KEYSPACE, CREATE TABLE and CREATE MATERIALIZED VIEW statements;
 * USE sets the keyspace of unqualified names, other statements are skipped. Names as
 * Cassandra keeps them (unquoted ones folded to lower case, "" in a quoted one read as
 * "), types as system_schema.columns shows them. CREATE KEYSPACE also defines the
 * keyspace's replication, as --keyspace does. Errors name the line and column. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

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
        char *s = schema_strndup(k->s, k->n);
        for (char *p = s; *p; p++)
            *p = (char)tolower((unsigned char)*p);
        ps->i++;
        return s;
    }
    if (k->kind == T_QUOTED) {
        char *s = schema_alloc(k->n), *o = s;
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
    *ks = schema_strndup(use, strlen(use));
    *name = a;
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
    t->types = schema_alloc(npk * sizeof *t->types);
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
        t->types[i] = schema_strndup(c->types[j], strlen(c->types[j]));
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
                pk = schema_alloc(sizeof *pk);
                pk[0] = schema_strndup(c.names[c.n - 1], strlen(c.names[c.n - 1]));
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
    c.ks = schema_strndup(t.keyspace, strlen(t.keyspace));
    c.table = schema_strndup(t.table, strlen(t.table));
    table_key(ps, at, &t, pk, npk, &c, "table");
    schema_add_table(ctx, &t, ps->lx.name);
    struct cols *q = realloc(*all, (*nall + 1) * sizeof *q);
    if (!q)
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
    schema_add_table(ctx, &t, ps->lx.name);
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
    /* Cassandra 6.0's metadata keyspace, shown with NetworkTopologyStrategy but placed on
     * the CMS members only (MetaStrategy), as the library's reader skips it */
    if (strcmp(name, "system_cluster_metadata") == 0) {
        free(name);
        return;
    }
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
bool schema_is_cql(const char *text, size_t len)
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

void schema_read_cql(tr_ctx *ctx, const char *name, const char *text, size_t len)
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

