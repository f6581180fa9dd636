/* SPDX-License-Identifier: Apache-2.0 */
/* Keys and tokens from the command line or stdin. The bytes and tokens come from the
 * library's parsers (tokenring_key_parse, tokenring_hex_decode, tokenring_token_parse);
 * this file only says where each key comes from and words the error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* Turns one key string into bytes and token; on error writes a message and returns
 * false. */
static bool make_key(tr_ctx *ctx, struct key *k, const char *s, size_t n, char *msg, size_t msgcap)
{
    k->label = malloc(n + 1);
    if (!k->label)
        die(EXIT_INTERNAL, "out of memory");
    memcpy(k->label, s, n);
    k->label[n] = '\0';
    k->bytes = NULL;
    k->len = 0;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    if (ctx->opt.token_mode) {
        if (tokenring_token_parse(&k->token, s, n, &err) != TOKENRING_OK) {
            snprintf(msg, msgcap, "expected a token (a signed 64-bit integer), found '%s'",
                     k->label);
            return false;
        }
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
    } else if (ctx->opt.types) {
        tokenring_cql_type types[32];
        size_t nt = 0;
        const char *p = ctx->opt.types;
        while (*p) {
            const char *c = strchr(p, ',');
            size_t l = c ? (size_t)(c - p) : strlen(p);
            char tn[64];
            if (l == 0 || l >= sizeof tn || nt == 32)
                die(EXIT_USAGE, "--types %s: expected CQL type names separated by ','",
                    ctx->opt.types);
            memcpy(tn, p, l);
            tn[l] = '\0';
            if (tokenring_cql_type_from_name(&types[nt], tn) != TOKENRING_OK)
                die(EXIT_USAGE, "--types: unknown or unsupported CQL type '%s'", tn);
            nt++;
            p += l + (c ? 1 : 0);
        }
        if (nt == 0)
            die(EXIT_USAGE, "--types: no type given");
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
    }
    free(keys);
}

/* Keys from the arguments, or from stdin (one per line) when there are none or the only
 * one is "-". */
struct key *collect_keys(tr_ctx *ctx, char **args, size_t nargs, size_t *count)
{
    struct key *keys = NULL;
    size_t n = 0, cap = 0;
    char msg[400];
    bool from_stdin = nargs == 0 || (nargs == 1 && strcmp(args[0], "-") == 0);
    if (!from_stdin) {
        keys = calloc(nargs, sizeof *keys);
        if (!keys)
            die(EXIT_INTERNAL, "out of memory");
        for (size_t i = 0; i < nargs; i++) {
            if (!make_key(ctx, &keys[i], args[i], strlen(args[i]), msg, sizeof msg))
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
        if (!make_key(ctx, &keys[n], s, l, msg, sizeof msg))
            die(EXIT_INPUT, "<stdin>:%u: %s", line, msg);
        n++;
    }
    free(text);
    *count = n;
    return keys;
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
