/* SPDX-License-Identifier: Apache-2.0 */
/* The tables' partition keys the tool keeps from a pasted schema (--schema): the store
 * both schema readers add to (schema.c, cqlsh system_schema.columns; schema_cql.c, CQL)
 * and getendpoints looks up. Its own file, so that the two readers depend on it and not
 * on each other. */
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* --------------------------------------------------------------- the tables */

void *schema_alloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die(EXIT_INTERNAL, "out of memory");
    return p;
}

char *schema_strndup(const char *s, size_t n)
{
    char *p = schema_alloc(n + 1);
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
void schema_add_table(tr_ctx *ctx, struct schema_table *t, const char *where)
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

/* ------------------------------------------------------------------ the API */

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
