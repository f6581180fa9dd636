/* SPDX-License-Identifier: Apache-2.0 */
/* Keys and tokens from the command line or stdin. The bytes and tokens come from the
 * library's parsers (tokenring_key_parse, tokenring_hex_decode, tokenring_token_parse);
 * this file only says where each key comes from and words the error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* The partition-key types of a key: --types (or a table's from the schema), parsed
 * once. */
struct key_types {
    tokenring_cql_type v[32];
    size_t n;
};

static void parse_types_option(struct key_types *kt, const char *list)
{
    kt->n = 0;
    const char *p = list;
    while (*p) {
        const char *c = strchr(p, ',');
        size_t l = c ? (size_t)(c - p) : strlen(p);
        char tn[64];
        if (l == 0 || l >= sizeof tn || kt->n == 32)
            die(EXIT_USAGE, "--types %s: expected CQL type names separated by ','", list);
        memcpy(tn, p, l);
        tn[l] = '\0';
        if (tokenring_cql_type_from_name(&kt->v[kt->n], tn) != TOKENRING_OK)
            die(EXIT_USAGE, "--types: unknown or unsupported CQL type '%s'", tn);
        kt->n++;
        p += l + (c ? 1 : 0);
    }
    if (kt->n == 0)
        die(EXIT_USAGE, "--types: no type given");
}

/* Turns one key string into bytes and token (typed with KT when not NULL); on error
 * writes a message and returns false. */
static bool make_key(tr_ctx *ctx, const struct key_types *kt, struct key *k, const char *s,
                     size_t n, char *msg, size_t msgcap)
{
    k->label = malloc(n + 1);
    if (!k->label)
        die(EXIT_INTERNAL, "out of memory");
    memcpy(k->label, s, n);
    k->label[n] = '\0';
    k->bytes = NULL;
    k->len = 0;
    k->token_text = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    if (ctx->opt.token_mode) {
        /* a token of the partitioner in its text form, kept in its canonical form */
        tokenring_partitioner p = tool_partitioner(ctx);
        size_t need = 0;
        int rc = tokenring_token_text_normalize(NULL, 0, &need, p, s, n, &err);
        if (rc == TOKENRING_E_BUFSIZE) {
            if (!(k->token_text = malloc(need + 1)))
                die(EXIT_INTERNAL, "out of memory");
            rc = tokenring_token_text_normalize(k->token_text, need + 1, &need, p, s, n, &err);
        }
        if (rc != TOKENRING_OK) {
            snprintf(msg, msgcap, "%s", err.message);
            return false;
        }
        tokenring_token_parse(&k->token, s, n, NULL); /* Murmur3's, for the demo ring */
        return true;
    }
    if (ctx->opt.hex) {
        size_t need = 0;
        int rc = tokenring_hex_decode(NULL, 0, &need, s, n, &err);
        if (rc == TOKENRING_E_BUFSIZE || rc == TOKENRING_OK) {
            k->bytes = malloc(need + 1);
            if (!k->bytes)
                die(EXIT_INTERNAL, "out of memory");
            rc = tokenring_hex_decode(k->bytes, need + 1, &k->len, s, n, &err);
        }
        if (rc != TOKENRING_OK) {
            if (err.column)
                snprintf(msg, msgcap, "column %u: %s in '%s'", (unsigned)err.column,
                         err.message, k->label);
            else
                snprintf(msg, msgcap, "%s in '%s'", err.message, k->label);
            return false;
        }
    } else if (kt) {
        const tokenring_cql_type *types = kt->v;
        size_t nt = kt->n;
        size_t need = 0;
        int rc = tokenring_key_parse(NULL, 0, &need, types, nt, s, n, &err);
        if (rc == TOKENRING_E_BUFSIZE || rc == TOKENRING_OK) {
            k->bytes = malloc(need + 1);
            if (!k->bytes)
                die(EXIT_INTERNAL, "out of memory");
            rc = tokenring_key_parse(k->bytes, need + 1, &k->len, types, nt, s, n, &err);
        }
        if (rc != TOKENRING_OK) {
            if (err.column)
                snprintf(msg, msgcap, "column %u: %s", (unsigned)err.column, err.message);
            else
                snprintf(msg, msgcap, "%s", err.message[0] ? err.message
                                                           : tokenring_strerror(rc));
            return false;
        }
    } else {
        k->bytes = malloc(n + 1);
        if (!k->bytes)
            die(EXIT_INTERNAL, "out of memory");
        memcpy(k->bytes, s, n);
        k->len = n;
    }
    k->token = tokenring_token(k->bytes, k->len);
    return true;
}

void free_keys(struct key *keys, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(keys[i].label);
        free(keys[i].bytes);
        free(keys[i].token_text);
    }
    free(keys);
}

/* Did argument ARG (a pointer into the command line's positional arguments) come after
 * '--'? Then it is a key as written: "-" is the one-character key, not standard input. */
static bool after_dashdash(const tr_ctx *ctx, char **arg)
{
    uintptr_t a = (uintptr_t)arg, pos = (uintptr_t)ctx->opt.positional;
    size_t np = 1 + ctx->opt.nargs; /* the command and its arguments */
    if (ctx->opt.literal_from == SIZE_MAX || !ctx->opt.positional || a < pos ||
        a >= pos + np * sizeof *arg)
        return false; /* not a command-line argument (e.g. demo's default key) */
    return (a - pos) / sizeof *arg >= ctx->opt.literal_from;
}

/* Keys from the arguments, or from stdin (one per line) when there are none or the only
 * one is "-" given before any '--'. */
static struct key *collect_typed(tr_ctx *ctx, const struct key_types *kt, char **args,
                                 size_t nargs, size_t *count)
{
    struct key *keys = NULL;
    size_t n = 0, cap = 0;
    char msg[400];
    bool from_stdin = nargs == 0 ||
                      (nargs == 1 && strcmp(args[0], "-") == 0 && !after_dashdash(ctx, args));
    if (!from_stdin) {
        keys = calloc(nargs, sizeof *keys);
        if (!keys)
            die(EXIT_INTERNAL, "out of memory");
        for (size_t i = 0; i < nargs; i++) {
            if (!make_key(ctx, kt, &keys[i], args[i], strlen(args[i]), msg, sizeof msg))
                die(EXIT_USAGE, "key '%s': %s", args[i], msg);
        }
        *count = nargs;
        return keys;
    }
    for (size_t i = 0; i < ctx->opt.ninputs; i++)
        if (strcmp(ctx->opt.inputs[i].path, "-") == 0)
            die(EXIT_USAGE, "stdin is already the cluster input: give the keys as arguments");
    size_t len;
    char *text = read_all("-", &len);
    size_t pos = 0;
    unsigned line = 0;
    while (pos < len) {
        const char *s = text + pos;
        const char *nl = memchr(s, '\n', len - pos);
        size_t l = nl ? (size_t)(nl - s) : len - pos;
        pos += l + (nl ? 1 : 0);
        line++;
        if (l > 0 && s[l - 1] == '\r')
            l--;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            struct key *q = realloc(keys, cap * sizeof *q);
            if (!q)
                die(EXIT_INTERNAL, "out of memory");
            keys = q;
        }
        if (!make_key(ctx, kt, &keys[n], s, l, msg, sizeof msg))
            die(EXIT_INPUT, "<stdin>:%u: %s", line, msg);
        n++;
    }
    free(text);
    *count = n;
    return keys;
}

struct key *collect_keys(tr_ctx *ctx, char **args, size_t nargs, size_t *count)
{
    struct key_types kt;
    if (ctx->opt.types && !ctx->opt.hex && !ctx->opt.token_mode)
        parse_types_option(&kt, ctx->opt.types);
    return collect_typed(ctx, ctx->opt.types ? &kt : NULL, args, nargs, count);
}

/* The partition-key types of schema table T, or a clear refusal naming the column whose
 * type the key reader does not take. */
static void table_types(struct key_types *kt, const struct schema_table *t)
{
    if (t->ncols > 32)
        die(EXIT_INPUT, "table %s.%s: a partition key of %zu columns (at most 32)",
            t->keyspace, t->table, t->ncols);
    kt->n = t->ncols;
    for (size_t i = 0; i < t->ncols; i++)
        if (tokenring_cql_type_from_name(&kt->v[i], t->types[i]) != TOKENRING_OK)
            die(EXIT_INPUT, "table %s.%s: partition-key column %s has type %s, which the key "
                            "reader does not take (it reads the scalar CQL types): give the "
                            "key's serialized bytes with --hex (SELECT token(...) or "
                            "%sAsBlob(...) in cqlsh shows them)",
                t->keyspace, t->table, t->names[i], t->types[i],
                strchr(t->types[i], '<') ? "the column's " : "");
}

static bool same_types(const struct key_types *a, const struct key_types *b)
{
    if (a->n != b->n)
        return false;
    for (size_t i = 0; i < a->n; i++)
        if (a->v[i] != b->v[i])
            return false;
    return true;
}

struct key *endpoint_keys(tr_ctx *ctx, size_t *count)
{
    char **args = ctx->opt.args;
    size_t nargs = ctx->opt.nargs;
    /* nodetool's form: exactly three arguments; with --token there is no table, the
     * arguments after KEYSPACE are tokens */
    if (nargs != 3 || ctx->opt.token_mode)
        return collect_keys(ctx, args + 1, nargs - 1, count);
    const char *ks = args[0], *table = args[1];
    strbuf known = { 0 };
    const struct schema_table *t = schema_table(ctx, ks, table, &known);
    if (!t && known.n)
        die(EXIT_USAGE, "unknown table '%s' in keyspace '%s' (the schema input's tables of "
                        "%s: %s)",
            table, ks, ks, known.p);
    free(known.p);
    struct key_types kt;
    if (t)
        table_types(&kt, t);
    if (ctx->opt.hex)
        return collect_typed(ctx, NULL, args + 2, 1, count);
    if (ctx->opt.types) {
        struct key_types given;
        parse_types_option(&given, ctx->opt.types);
        if (t && !same_types(&given, &kt)) {
            strbuf b = { 0 };
            for (size_t i = 0; i < t->ncols; i++)
                sb_printf(&b, "%s%s", i ? "," : "", t->types[i]);
            fprintf(stderr, "tokenring: warning: --types %s differs from the partition key of "
                            "table %s.%s in the schema input (%s): the key is read as --types "
                            "says\n",
                    ctx->opt.types, ks, table, b.p);
            free(b.p);
        }
        return collect_typed(ctx, &given, args + 2, 1, count);
    }
    if (t)
        return collect_typed(ctx, &kt, args + 2, 1, count);
    if (ctx->ntables == 0)
        fprintf(stderr, "tokenring: warning: getendpoints %s %s KEY: no schema input, so the "
                        "key is hashed as text and the table is ignored; for the table's "
                        "partition-key types give --schema FILE (cqlsh DESCRIBE TABLE output, "
                        "or SELECT keyspace_name, table_name, column_name, kind, position, "
                        "type FROM system_schema.columns) or --types\n",
                ks, table);
    else
        fprintf(stderr, "tokenring: warning: getendpoints %s %s KEY: the schema input has no "
                        "table of keyspace %s, so the key is hashed as text and the table is "
                        "ignored; give its schema (--schema) or --types\n",
                ks, table, ks);
    return collect_typed(ctx, NULL, args + 2, 1, count);
}

/* Splits "a,b,c" into a NULL-terminated array of strings (owned by the caller). */
char **split_list(const char *s, size_t *count)
{
    size_t n = 1;
    for (const char *p = s; *p; p++)
        n += *p == ',';
    char **v = calloc(n + 1, sizeof *v);
    char *dup = strdup(s);
    if (!v || !dup)
        die(EXIT_INTERNAL, "out of memory");
    size_t k = 0;
    for (char *tok = dup, *next; tok; tok = next) {
        next = strchr(tok, ',');
        if (next)
            *next++ = '\0';
        v[k++] = tok;
    }
    *count = k;
    return v;
}

int64_t *parse_token_list_arg(const char *s, size_t *count)
{
    char **v = split_list(s, count);
    int64_t *t = calloc(*count, sizeof *t);
    if (!t)
        die(EXIT_INTERNAL, "out of memory");
    for (size_t i = 0; i < *count; i++)
        if (tokenring_token_parse(&t[i], v[i], strlen(v[i]), NULL) != TOKENRING_OK)
            die(EXIT_USAGE, "--initial-token: expected comma-separated tokens, found '%s'",
                v[i]);
    free(v[0]);
    free(v);
    return t;
}

char **parse_token_texts(tokenring_partitioner p, const char *flag, const char *list,
                         size_t *count)
{
    size_t n;
    char **v = split_list(list, &n);
    char **out = calloc(n + 1, sizeof *out);
    if (!out)
        die(EXIT_INTERNAL, "out of memory");
    for (size_t i = 0; i < n; i++) {
        tokenring_error err;
        memset(&err, 0, sizeof err);
        size_t len = strlen(v[i]), need = 0;
        if (len == 0)
            die(EXIT_USAGE, "%s: an empty token in '%s'", flag, list);
        int rc = tokenring_token_text_normalize(NULL, 0, &need, p, v[i], len, &err);
        if (rc == TOKENRING_E_BUFSIZE) {
            if (!(out[i] = malloc(need + 1)))
                die(EXIT_INTERNAL, "out of memory");
            rc = tokenring_token_text_normalize(out[i], need + 1, &need, p, v[i], len, &err);
        }
        if (rc != TOKENRING_OK)
            die(EXIT_USAGE, "%s: '%s' is no %s token: %s", flag, v[i],
                tokenring_partitioner_name(p), err.message);
    }
    free(v[0]);
    free(v);
    *count = n;
    return out;
}

void free_token_texts(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}
