/* SPDX-License-Identifier: Apache-2.0 */
/* Tokens of every partitioner in Cassandra's text form (partitioner.h, "Tokens in text
 * form"): token lists, the token of a key, normalize and compare, and the _text calls of
 * topology.h, ring.h, movement.h and movement_result.h. Text is read and written through
 * the partitioner table (lib/token.h: parse, format, compare, key_token), one path for
 * every partitioner; the topology, ring and movement calls then call the typed
 * implementation, so the typed calls and these give the same results. The layouts and
 * allocators are in layout_text.c. */
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

/* One token read from text with the partitioner's parse: ByteOrderedPartitioner's bytes
 * in `small`, or in `heap` for a longer text (free with text_tok_free()). */
typedef struct text_tok {
    tr_tok t;
    uint8_t small[256];
    uint8_t *heap;
} text_tok;

/* TOKENRING_OK; the parse error in e; or TOKENRING_E_NOMEM (e says so). */
static int read_tok(text_tok *tt, const tr_partitioner_ops *ops, const char *text, size_t len,
                    tokenring_error *e)
{
    uint8_t *buf = tt->small;
    tt->heap = NULL;
    if (TR_TOK_PARSE_ROOM(len) > sizeof tt->small &&
        !(buf = tt->heap = tr_malloc(TR_TOK_PARSE_ROOM(len))))
        return tr_fail(e, TOKENRING_E_NOMEM, "out of memory");
    return ops->parse(&tt->t, buf, text, len, e);
}

static void text_tok_free(text_tok *tt)
{
    tr_free(tt->heap);
    tt->heap = NULL;
}

/* Reads one token for a call that names it in its errors: not_a_token(), or the
 * out-of-memory error as it is. */
static int read_named(text_tok *tt, const tr_partitioner_ops *ops, const char *text,
                      size_t len, size_t pos, size_t of, tokenring_error *err)
{
    tokenring_error e;
    memset(&e, 0, sizeof e);
    int rc = read_tok(tt, ops, text, len, &e);
    if (rc == TOKENRING_OK)
        return rc;
    text_tok_free(tt);
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
    /* every typed form, filled from the tokens read: the typed call takes its own */
    out->m = tr_calloc(n, sizeof *out->m);
    out->r = tr_calloc(n, sizeof *out->r);
    out->b = tr_calloc(n, sizeof *out->b);
    out->blen = tr_calloc(n, sizeof *out->blen);
    out->buf = tr_malloc(bytes);
    if (!out->m || !out->r || !out->b || !out->blen || !out->buf) {
        tr_text_tokens_free(out);
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
    }
    const tr_partitioner_ops *ops = tr_ops(p);
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(tokens[i]);
        tokenring_error e;
        memset(&e, 0, sizeof e);
        tr_tok t;
        int rc = ops->parse(&t, out->buf + used, tokens[i], len, &e);
        if (rc != TOKENRING_OK) {
            tr_text_tokens_free(out);
            return not_a_token(err, &e, p, tokens[i], len, i + 1, n);
        }
        out->m[i] = t.key;
        out->r[i] = t.v128;
        out->b[i] = out->buf + used;
        out->blen[i] = t.len;
        used += t.len;
    }
    out->n = n;
    return TOKENRING_OK;
}

void tr_text_tokens_free(tr_text_tokens *t)
{
    tr_free(t->m);
    tr_free(t->r);
    tr_free((void *)t->b);
    tr_free(t->blen);
    tr_free(t->buf);
    memset(t, 0, sizeof *t);
}

static int put_i64(char *out, size_t cap, size_t *len_out, int64_t v)
{
    tr_tok t = tr_tok_m3(v);
    return tr_ops(TOKENRING_PARTITIONER_MURMUR3)->format(out, cap, len_out, &t);
}

static int put_t128(char *out, size_t cap, size_t *len_out, tokenring_token128 v)
{
    tr_tok t = tr_tok_128(v);
    return tr_ops(TOKENRING_PARTITIONER_RANDOM)->format(out, cap, len_out, &t);
}

static int put_bytes(char *out, size_t cap, size_t *len_out, const uint8_t *b, size_t n)
{
    tr_tok t = tr_tok_bytes(b, n);
    return tr_ops(TOKENRING_PARTITIONER_BYTE_ORDERED)->format(out, cap, len_out, &t);
}

static bool bad_out(char *out, size_t cap, const size_t *len_out)
{
    return !len_out || (!out && cap != 0);
}

/* ------------------------------------------------------ tokens of any partitioner */

TOKENRING_API int tokenring_key_token_text(char *out, size_t cap, size_t *len_out,
                                           tokenring_partitioner partitioner, const void *key,
                                           size_t len)
{
    const tr_partitioner_ops *ops = tr_partitioner_ops_of(partitioner);
    if (bad_out(out, cap, len_out) || (!key && len != 0) || !ops)
        return TOKENRING_E_INVAL;
    tr_tok t = ops->key_token(key, len);
    return ops->format(out, cap, len_out, &t);
}

TOKENRING_API int tokenring_token_text_normalize(char *out, size_t cap, size_t *len_out,
                                                 tokenring_partitioner partitioner,
                                                 const char *text, size_t len,
                                                 tokenring_error *err)
{
    if (bad_out(out, cap, len_out))
        return tr_fail(err, TOKENRING_E_INVAL, len_out ? "out is NULL but cap is %zu"
                                                       : "len_out is NULL", cap);
    if (!text)
        return tr_fail(err, TOKENRING_E_INVAL, "text is NULL");
    const tr_partitioner_ops *ops = tr_partitioner_ops_of(partitioner);
    if (!ops)
        return bad_partitioner(err, partitioner);
    text_tok tt;
    int rc = read_named(&tt, ops, text, len, 0, 0, err);
    if (rc != TOKENRING_OK)
        return rc;
    rc = ops->format(out, cap, len_out, &tt.t);
    text_tok_free(&tt);
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
    text_tok x, y;
    int rc = read_named(&x, ops, a, strlen(a), 1, 2, err);
    if (rc != TOKENRING_OK)
        return rc;
    if ((rc = read_named(&y, ops, b, strlen(b), 2, 2, err)) == TOKENRING_OK) {
        int c = ops->compare(&x.t, &y.t);
        *cmp_out = (c > 0) - (c < 0);
        text_tok_free(&y);
    }
    text_tok_free(&x);
    return rc;
}

/* --------------------------------------------------------------------- topology */

/* Adds (name2 NULL: datacenter and rack given) or sets the tokens of a node. */
static int node_tokens_text(tokenring_topology *topology, const char *name,
                            const char *datacenter, const char *rack, bool add,
                            const char *const *tokens, size_t token_count, tokenring_error *err)
{
    if (!topology)
        return tr_fail(err, TOKENRING_E_INVAL, "topology is NULL");
    tr_text_tokens t;
    int rc = tr_text_tokens_read(&t, tokenring_topology_partitioner(topology), tokens,
                                 token_count, err);
    if (rc != TOKENRING_OK)
        return rc;
    switch (t.partitioner) {
    case TOKENRING_PARTITIONER_RANDOM:
        rc = add ? tokenring_topology_add_node128(topology, name, datacenter, rack, t.r,
                                                  token_count, err)
                 : tokenring_topology_set_tokens128(topology, name, t.r, token_count, err);
        break;
    case TOKENRING_PARTITIONER_BYTE_ORDERED:
        rc = add ? tokenring_topology_add_node_bytes(topology, name, datacenter, rack, t.b,
                                                     t.blen, token_count, err)
                 : tokenring_topology_set_tokens_bytes(topology, name, t.b, t.blen,
                                                       token_count, err);
        break;
    default:
        rc = add ? tokenring_topology_add_node(topology, name, datacenter, rack, t.m,
                                               token_count, err)
                 : tokenring_topology_set_tokens(topology, name, t.m, token_count, err);
        break;
    }
    tr_text_tokens_free(&t);
    return rc;
}

TOKENRING_API int tokenring_topology_add_node_text(tokenring_topology *topology,
                                                   const char *name, const char *datacenter,
                                                   const char *rack, const char *const *tokens,
                                                   size_t token_count, tokenring_error *err)
{
    return node_tokens_text(topology, name, datacenter, rack, true, tokens, token_count, err);
}

TOKENRING_API int tokenring_topology_set_tokens_text(tokenring_topology *topology,
                                                     const char *name,
                                                     const char *const *tokens,
                                                     size_t token_count, tokenring_error *err)
{
    return node_tokens_text(topology, name, NULL, NULL, false, tokens, token_count, err);
}

TOKENRING_API int tokenring_topology_node_token_text(char *out, size_t cap, size_t *len_out,
                                                     const tokenring_topology *topology,
                                                     size_t index, size_t k)
{
    if (bad_out(out, cap, len_out) || !topology)
        return TOKENRING_E_INVAL;
    int rc;
    switch (tokenring_topology_partitioner(topology)) {
    case TOKENRING_PARTITIONER_RANDOM: {
        tokenring_token128 v;
        rc = tokenring_topology_node_token128(&v, topology, index, k);
        return rc != TOKENRING_OK ? rc : put_t128(out, cap, len_out, v);
    }
    case TOKENRING_PARTITIONER_BYTE_ORDERED: {
        const uint8_t *b;
        size_t n;
        rc = tokenring_topology_node_token_bytes(&b, &n, topology, index, k);
        return rc != TOKENRING_OK ? rc : put_bytes(out, cap, len_out, b, n);
    }
    default: {
        tokenring_node_info info;
        rc = tokenring_topology_node(&info, topology, index);
        if (rc != TOKENRING_OK)
            return rc;
        if (k >= info.token_count)
            return TOKENRING_E_RANGE;
        return put_i64(out, cap, len_out, info.tokens[k]);
    }
    }
}

/* ------------------------------------------------------------------------- ring */

TOKENRING_API int tokenring_ring_token_text(char *out, size_t cap, size_t *len_out,
                                            const tokenring_ring *ring, size_t index)
{
    if (bad_out(out, cap, len_out) || !ring)
        return TOKENRING_E_INVAL;
    int rc;
    switch (tokenring_ring_partitioner(ring)) {
    case TOKENRING_PARTITIONER_RANDOM: {
        tokenring_token128 v;
        rc = tokenring_ring_token128(&v, ring, index);
        return rc != TOKENRING_OK ? rc : put_t128(out, cap, len_out, v);
    }
    case TOKENRING_PARTITIONER_BYTE_ORDERED: {
        const uint8_t *b;
        size_t n;
        rc = tokenring_ring_token_bytes(&b, &n, ring, index);
        return rc != TOKENRING_OK ? rc : put_bytes(out, cap, len_out, b, n);
    }
    default: {
        size_t count = 0;
        const int64_t *t = tokenring_ring_tokens(ring, &count);
        if (index >= count)
            return TOKENRING_E_RANGE;
        return put_i64(out, cap, len_out, t[index]);
    }
    }
}

TOKENRING_API int tokenring_ring_search_text(uint32_t *index_out, const tokenring_ring *ring,
                                             const char *token, size_t len,
                                             tokenring_error *err)
{
    if (!index_out || !ring || !token)
        return tr_fail(err, TOKENRING_E_INVAL, "%s is NULL", !index_out ? "index_out"
                                                             : !ring     ? "ring"
                                                                         : "token");
    text_tok tt;
    int rc = read_named(&tt, tr_ops(tokenring_ring_partitioner(ring)), token, len, 0, 0, err);
    if (rc != TOKENRING_OK)
        return rc;
    switch (tt.t.p) { /* the typed lookup of the ring's partitioner */
    case TOKENRING_PARTITIONER_RANDOM:
        *index_out = tokenring_ring_search128(ring, tt.t.v128);
        break;
    case TOKENRING_PARTITIONER_BYTE_ORDERED:
        *index_out = tokenring_ring_search_bytes(ring, tt.t.b, tt.t.len);
        break;
    default:
        *index_out = tokenring_ring_search(ring, tt.t.key);
    }
    text_tok_free(&tt);
    return TOKENRING_OK;
}

/* --------------------------------------------------------------------- movement */

/* A join (datacenter non-NULL) or a move on a copy of topology, compared with sample
 * keys: the same steps as the typed calls, with the tokens read as text. */
static int movement_text(tokenring_movement **out, const tokenring_topology *topology,
                         const tokenring_replication *replication, const char *name,
                         const char *datacenter, const char *rack, bool join,
                         const char *const *tokens, size_t token_count,
                         const uint8_t *sample_keys, const uint64_t *sample_offsets,
                         size_t sample_count, tokenring_error *err)
{
    if (!out || !topology || !replication || !name)
        return tr_fail(err, TOKENRING_E_INVAL, "NULL argument to a movement analysis");
    size_t idx;
    if (!join && tokenring_topology_find_node(&idx, topology, name) != TOKENRING_OK)
        return tr_fail(err, TOKENRING_E_NOTFOUND, "unknown node '%s'", name);
    tokenring_topology *copy = NULL;
    int rc = tokenring_topology_clone(&copy, topology);
    if (rc != TOKENRING_OK)
        return tr_fail(err, rc, "cannot copy the topology");
    rc = node_tokens_text(copy, name, datacenter, rack, join, tokens, token_count, err);
    if (rc == TOKENRING_OK)
        rc = tokenring_movement_compare_keys(out, topology, copy, replication,
                                             join ? TOKENRING_CHANGE_JOIN
                                                  : TOKENRING_CHANGE_MOVE,
                                             sample_keys, sample_offsets, sample_count, err);
    tokenring_topology_free(copy);
    return rc;
}

TOKENRING_API int tokenring_movement_join_text(tokenring_movement **out,
                                               const tokenring_topology *topology,
                                               const tokenring_replication *replication,
                                               const char *name, const char *datacenter,
                                               const char *rack, const char *const *tokens,
                                               size_t token_count, const uint8_t *sample_keys,
                                               const uint64_t *sample_offsets,
                                               size_t sample_count, tokenring_error *err)
{
    return movement_text(out, topology, replication, name, datacenter, rack, true, tokens,
                         token_count, sample_keys, sample_offsets, sample_count, err);
}

TOKENRING_API int tokenring_movement_move_text(tokenring_movement **out,
                                               const tokenring_topology *topology,
                                               const tokenring_replication *replication,
                                               const char *name, const char *const *tokens,
                                               size_t token_count, const uint8_t *sample_keys,
                                               const uint64_t *sample_offsets,
                                               size_t sample_count, tokenring_error *err)
{
    return movement_text(out, topology, replication, name, NULL, NULL, false, tokens,
                         token_count, sample_keys, sample_offsets, sample_count, err);
}

TOKENRING_API int tokenring_movement_range_bound_text(char *out, size_t cap, size_t *len_out,
                                                      const tokenring_movement *movement,
                                                      size_t index, int end)
{
    if (bad_out(out, cap, len_out) || !movement || (end != 0 && end != 1))
        return TOKENRING_E_INVAL;
    int rc;
    switch (tokenring_movement_partitioner(movement)) {
    case TOKENRING_PARTITIONER_RANDOM: {
        tokenring_token128 v[2];
        rc = tokenring_movement_range_bounds128(&v[0], &v[1], movement, index);
        return rc != TOKENRING_OK ? rc : put_t128(out, cap, len_out, v[end]);
    }
    case TOKENRING_PARTITIONER_BYTE_ORDERED: {
        const uint8_t *b[2];
        size_t n[2];
        rc = tokenring_movement_range_bounds_bytes(&b[0], &n[0], &b[1], &n[1], movement,
                                                   index);
        return rc != TOKENRING_OK ? rc
                                  : put_bytes(out, cap, len_out, b[end],
                                                                n[end]);
    }
    default: {
        tokenring_moved_range r;
        rc = tokenring_movement_get_range(&r, movement, index);
        return rc != TOKENRING_OK ? rc : put_i64(out, cap, len_out, end ? r.end : r.start);
    }
    }
}

TOKENRING_API int tokenring_movement_sample_token_text(char *out, size_t cap, size_t *len_out,
                                                       const tokenring_movement *movement,
                                                       size_t index)
{
    if (bad_out(out, cap, len_out) || !movement)
        return TOKENRING_E_INVAL;
    int rc;
    switch (tokenring_movement_partitioner(movement)) {
    case TOKENRING_PARTITIONER_RANDOM: {
        tokenring_token128 v;
        rc = tokenring_movement_sample_token128(&v, movement, index);
        return rc != TOKENRING_OK ? rc : put_t128(out, cap, len_out, v);
    }
    case TOKENRING_PARTITIONER_BYTE_ORDERED: {
        const uint8_t *b;
        size_t n;
        rc = tokenring_movement_sample_token_bytes(&b, &n, movement, index);
        return rc != TOKENRING_OK ? rc : put_bytes(out, cap, len_out, b, n);
    }
    default: {
        tokenring_sample_change s;
        rc = tokenring_movement_get_sample(&s, movement, index);
        return rc != TOKENRING_OK ? rc : put_i64(out, cap, len_out, s.token);
    }
    }
}
