/* SPDX-License-Identifier: Apache-2.0 */
/* Tokens of every partitioner in Cassandra's text form (partitioner.h, "Tokens in text
 * form"): token lists, the token of a key, normalize and compare, and what the other
 * layers' _text calls share (reading token arrays, writing one token). Text is read and
 * written through the partitioner table (token.h: parse, format, compare, key_token), one
 * path for every partitioner. The topology and ring calls are in ring/ring_text.c, the
 * movement calls in analysis/movement_text.c, the layouts and allocators in
 * layout/layout_text.c. */
#include <string.h>

#include "token.h"
#include "token_text.h"

/* ------------------------------------------------------------------ token lists */

struct tokenring_token_list {
    size_t count;
    size_t *offsets; /* count + 1 offsets into text; token i ends with a NUL */
    char *text;
};

/* A list of count tokens whose texts take chars bytes with their NULs, in one block
 * (count is at most TOKENRING_LAYOUT_MAX_TOKENS, so the sizes cannot overflow). */
static tokenring_token_list *list_alloc(size_t count, size_t chars)
{
    tokenring_token_list *l =
        tr_malloc(sizeof *l + (count + 1) * sizeof(size_t) + chars);
    if (!l)
        return NULL;
    l->count = count;
    l->offsets = (size_t *)(l + 1);
    l->text = (char *)(l->offsets + count + 1);
    l->offsets[0] = 0;
    return l;
}

TOKENRING_API size_t tokenring_token_list_count(const tokenring_token_list *list)
{
    return list ? list->count : 0;
}

TOKENRING_API const char *tokenring_token_list_get(const tokenring_token_list *list, size_t i,
                                                   size_t *len_out)
{
    if (!list || i >= list->count)
        return NULL;
    if (len_out)
        *len_out = list->offsets[i + 1] - list->offsets[i] - 1;
    return list->text + list->offsets[i];
}

TOKENRING_API void tokenring_token_list_free(tokenring_token_list *list)
{
    tr_free(list);
}

int tr_token_list_of(tokenring_token_list **out, tokenring_partitioner p, const int64_t *m3,
                     const tokenring_token128 *t128, size_t n, tokenring_error *err)
{
    const tr_partitioner_ops *ops = tr_ops(p);
    size_t chars = 0, len;
    for (size_t i = 0; i < n; i++) {
        tr_tok t = tr_tok_at(m3, t128, NULL, NULL, i);
        (void)ops->format(NULL, 0, &len, &t); /* the length, TOKENRING_E_BUFSIZE */
        chars += len + 1;
    }
    tokenring_token_list *l = list_alloc(n, chars);
    if (!l)
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        tr_tok t = tr_tok_at(m3, t128, NULL, NULL, i);
        (void)ops->format(l->text + l->offsets[i], chars - l->offsets[i], &len, &t);
        l->offsets[i + 1] = l->offsets[i] + len + 1;
    }
    *out = l;
    return TOKENRING_OK;
}

/* ----------------------------------------------------------- reading and writing */

const char *tr_partitioner_short(tokenring_partitioner p)
{
    const tr_partitioner_ops *ops = tr_partitioner_ops_of(p);
    return ops ? strrchr(ops->name, '.') + 1 : "an unknown partitioner";
}

static int bad_partitioner(tokenring_error *err, tokenring_partitioner p)
{
    return tr_fail(err, TOKENRING_E_INVAL, "unknown partitioner %d", (int)p);
}

/* The first 40 bytes of a token's text for a message, bytes outside printable ASCII as
 * '?', "..." after a longer one. */
static void shown(char out[48], const char *text, size_t len)
{
    size_t n = len > 40 ? 40 : len, i;
    for (i = 0; i < n; i++)
        out[i] = text[i] >= 0x20 && text[i] < 0x7f ? text[i] : '?';
    if (len > n)
        memcpy(out + i, "...", 3), i += 3;
    out[i] = '\0';
}

/* Why `text` is not a token of p, from the parse function's error e, with the token's
 * position when `of` is non-zero ("token 3 of 4 ("12ab"): not a ..."). */
static int not_a_token(tokenring_error *err, const tokenring_error *e, tokenring_partitioner p,
                       const char *text, size_t len, size_t pos, size_t of)
{
    char s[48];
    shown(s, text, len);
    if (of)
        return tr_fail_at(err, e->code, 0, e->column,
                          "token %zu of %zu (\"%s\"): not a %s token: %s", pos, of, s,
                          tr_partitioner_short(p), e->message);
    return tr_fail_at(err, e->code, 0, e->column, "\"%s\" is not a %s token: %s", s,
                      tr_partitioner_short(p), e->message);
}

/* TOKENRING_OK; the parse error in e; or TOKENRING_E_NOMEM (e says so). */
static int read_tok(tr_text_tok *tt, const tr_partitioner_ops *ops, const char *text, size_t len,
                    tokenring_error *e)
{
    uint8_t *buf = tt->small;
    tt->heap = NULL;
    if (TR_TOK_PARSE_ROOM(len) > sizeof tt->small &&
        !(buf = tt->heap = tr_malloc(TR_TOK_PARSE_ROOM(len))))
        return tr_fail(e, TOKENRING_E_NOMEM, "out of memory");
    return ops->parse(&tt->t, buf, text, len, e);
}

void tr_text_tok_free(tr_text_tok *tt)
{
    tr_free(tt->heap);
    tt->heap = NULL;
}

int tr_text_tok_read(tr_text_tok *tt, const tr_partitioner_ops *ops, const char *text,
                      size_t len, size_t pos, size_t of, tokenring_error *err)
{
    tokenring_error e;
    memset(&e, 0, sizeof e);
    int rc = read_tok(tt, ops, text, len, &e);
    if (rc == TOKENRING_OK)
        return rc;
    tr_text_tok_free(tt);
    if (rc == TOKENRING_E_NOMEM)
        return tr_fail(err, rc, "out of memory");
    return not_a_token(err, &e, ops->id, text, len, pos, of);
}

int tr_text_tokens_read(tr_text_tokens *out, tokenring_partitioner p,
                        const char *const *tokens, size_t n, tokenring_error *err)
{
    memset(out, 0, sizeof *out);
    out->partitioner = p;
    if (n == 0)
        return TOKENRING_OK; /* the typed call judges an empty list */
    if (!tokens)
        return tr_fail(err, TOKENRING_E_INVAL, "tokens is NULL");
    size_t bytes = 0;
    for (size_t i = 0; i < n; i++) {
        if (!tokens[i])
            return tr_fail(err, TOKENRING_E_INVAL, "token %zu of %zu is NULL", i + 1, n);
        bytes += TR_TOK_PARSE_ROOM(strlen(tokens[i]));
    }
    out->t = tr_calloc(n, sizeof *out->t);
    out->buf = tr_malloc(bytes);
    if (!out->t || !out->buf) {
        tr_text_tokens_free(out);
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
    }
    const tr_partitioner_ops *ops = tr_ops(p);
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(tokens[i]);
        tokenring_error e;
        memset(&e, 0, sizeof e);
        int rc = ops->parse(&out->t[i], out->buf + used, tokens[i], len, &e);
        if (rc != TOKENRING_OK) {
            tr_text_tokens_free(out);
            return not_a_token(err, &e, p, tokens[i], len, i + 1, n);
        }
        used += out->t[i].len;
    }
    out->n = n;
    return TOKENRING_OK;
}

void tr_text_tokens_free(tr_text_tokens *t)
{
    tr_free(t->t);
    tr_free(t->buf);
    memset(t, 0, sizeof *t);
}

bool tr_text_bad_out(char *out, size_t cap, const size_t *len_out)
{
    return !len_out || (!out && cap != 0);
}

/* ------------------------------------------------------ tokens of any partitioner */

TOKENRING_API int tokenring_key_token_text(char *out, size_t cap, size_t *len_out,
                                           tokenring_partitioner partitioner, const void *key,
                                           size_t len)
{
    const tr_partitioner_ops *ops = tr_partitioner_ops_of(partitioner);
    if (tr_text_bad_out(out, cap, len_out) || (!key && len != 0) || !ops)
        return TOKENRING_E_INVAL;
    tr_tok t = ops->key_token(key, len);
    return ops->format(out, cap, len_out, &t);
}

TOKENRING_API int tokenring_token_text_normalize(char *out, size_t cap, size_t *len_out,
                                                 tokenring_partitioner partitioner,
                                                 const char *text, size_t len,
                                                 tokenring_error *err)
{
    if (tr_text_bad_out(out, cap, len_out))
        return tr_fail(err, TOKENRING_E_INVAL, len_out ? "out is NULL but cap is %zu"
                                                       : "len_out is NULL", cap);
    if (!text)
        return tr_fail(err, TOKENRING_E_INVAL, "text is NULL");
    const tr_partitioner_ops *ops = tr_partitioner_ops_of(partitioner);
    if (!ops)
        return bad_partitioner(err, partitioner);
    tr_text_tok tt;
    int rc = tr_text_tok_read(&tt, ops, text, len, 0, 0, err);
    if (rc != TOKENRING_OK)
        return rc;
    rc = ops->format(out, cap, len_out, &tt.t);
    tr_text_tok_free(&tt);
    if (rc == TOKENRING_E_BUFSIZE)
        return tr_fail(err, rc, "output buffer of %zu bytes is too small: %zu bytes needed",
                       cap, *len_out + 1);
    return rc;
}

TOKENRING_API int tokenring_token_text_compare(int *cmp_out, tokenring_partitioner partitioner,
                                               const char *a, const char *b,
                                               tokenring_error *err)
{
    if (!cmp_out || !a || !b)
        return tr_fail(err, TOKENRING_E_INVAL, "%s is NULL", !cmp_out ? "cmp_out"
                                                             : !a      ? "a"
                                                                       : "b");
    const tr_partitioner_ops *ops = tr_partitioner_ops_of(partitioner);
    if (!ops)
        return bad_partitioner(err, partitioner);
    tr_text_tok x, y;
    int rc = tr_text_tok_read(&x, ops, a, strlen(a), 1, 2, err);
    if (rc != TOKENRING_OK)
        return rc;
    if ((rc = tr_text_tok_read(&y, ops, b, strlen(b), 2, 2, err)) == TOKENRING_OK) {
        int c = ops->compare(&x.t, &y.t);
        *cmp_out = (c > 0) - (c < 0);
        tr_text_tok_free(&y);
    }
    tr_text_tok_free(&x);
    return rc;
}

