/* SPDX-License-Identifier: Apache-2.0 */
/* Tokens of every partitioner in Cassandra's text form (partitioner.h, "Tokens in text
 * form"): token lists, the token of a key, normalize and compare, and the _text calls of
 * topology.h, ring.h, movement.h and movement_result.h. Each reads or writes the text
 * with the partitioner's own parse and format functions and calls the typed
 * implementation, so the typed calls and these give the same results. The layouts and
 * allocators are in layout_text.c. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

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

static size_t format_i64(char buf[24], int64_t v)
{
    return (size_t)snprintf(buf, 24, "%" PRId64, v);
}

static size_t format_t128(char buf[TOKENRING_TOKEN128_TEXT_MAX], tokenring_token128 v)
{
    size_t len = 0;
    /* every token the library produces is -1 or 0 .. 2^127, which always formats */
    (void)tokenring_token128_format(buf, TOKENRING_TOKEN128_TEXT_MAX, &len, v);
    return len;
}

int tr_token_list_i64(tokenring_token_list **out, const int64_t *t, size_t n,
                      tokenring_error *err)
{
    char buf[24];
    size_t chars = 0;
    for (size_t i = 0; i < n; i++)
        chars += format_i64(buf, t[i]) + 1;
    tokenring_token_list *l = list_alloc(n, chars);
    if (!l)
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        size_t len = format_i64(l->text + l->offsets[i], t[i]);
        l->offsets[i + 1] = l->offsets[i] + len + 1;
    }
    *out = l;
    return TOKENRING_OK;
}

int tr_token_list_t128(tokenring_token_list **out, const tokenring_token128 *t, size_t n,
                       tokenring_error *err)
{
    char buf[TOKENRING_TOKEN128_TEXT_MAX];
    size_t chars = 0;
    for (size_t i = 0; i < n; i++)
        chars += format_t128(buf, t[i]) + 1;
    tokenring_token_list *l = list_alloc(n, chars);
    if (!l)
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        size_t len = format_t128(l->text + l->offsets[i], t[i]);
        l->offsets[i + 1] = l->offsets[i] + len + 1;
    }
    *out = l;
    return TOKENRING_OK;
}

/* ----------------------------------------------------------- reading and writing */

const char *tr_partitioner_short(tokenring_partitioner p)
{
    switch (p) {
    case TOKENRING_PARTITIONER_MURMUR3:
        return "Murmur3Partitioner";
    case TOKENRING_PARTITIONER_RANDOM:
        return "RandomPartitioner";
    case TOKENRING_PARTITIONER_BYTE_ORDERED:
        return "ByteOrderedPartitioner";
    }
    return "an unknown partitioner";
}

static bool partitioner_known(tokenring_partitioner p)
{
    return p == TOKENRING_PARTITIONER_MURMUR3 || p == TOKENRING_PARTITIONER_RANDOM ||
           p == TOKENRING_PARTITIONER_BYTE_ORDERED;
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

/* Checks a ByteOrderedPartitioner token's text (hex digits, any count) without
 * decoding it. */
static int check_hex(const char *text, size_t len, tokenring_error *e)
{
    size_t n = 0;
    int rc = tokenring_byte_token_parse(NULL, 0, &n, text, len, e);
    return rc == TOKENRING_E_BUFSIZE ? TOKENRING_OK : rc;
}

/* Reads one token of a number partitioner (Murmur3, Random) into m or r. */
static int read_number(tokenring_partitioner p, const char *text, size_t len, int64_t *m,
                       tokenring_token128 *r, tokenring_error *e)
{
    return p == TOKENRING_PARTITIONER_MURMUR3 ? tokenring_token_parse(m, text, len, e)
                                              : tokenring_token128_parse(r, text, len, e);
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
        bytes += (strlen(tokens[i]) + 1) / 2;
    }
    if (p == TOKENRING_PARTITIONER_MURMUR3)
        out->m = tr_calloc(n, sizeof *out->m);
    else if (p == TOKENRING_PARTITIONER_RANDOM)
        out->r = tr_calloc(n, sizeof *out->r);
    else {
        out->b = tr_calloc(n, sizeof *out->b);
        out->blen = tr_calloc(n, sizeof *out->blen);
        out->buf = tr_malloc(bytes ? bytes : 1);
    }
    if (!out->m && !out->r && (!out->b || !out->blen || !out->buf)) {
        tr_text_tokens_free(out);
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
    }
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(tokens[i]);
        tokenring_error e;
        memset(&e, 0, sizeof e);
        int rc;
        if (out->buf) {
            rc = tokenring_byte_token_parse(out->buf + used, bytes - used, &out->blen[i],
                                            tokens[i], len, &e);
            out->b[i] = out->buf + used;
            used += out->blen[i];
        } else
            rc = read_number(p, tokens[i], len, out->m ? &out->m[i] : NULL,
                             out->r ? &out->r[i] : NULL, &e);
        if (rc != TOKENRING_OK) {
            tr_text_tokens_free(out);
            return not_a_token(err, &e, p, tokens[i], len, i + 1, n);
        }
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

/* Copies a token's text to (out, cap, len_out) with the BUFSIZE convention. */
static int put_text(char *out, size_t cap, size_t *len_out, const char *s, size_t n)
{
    *len_out = n;
    if (cap < n + 1)
        return TOKENRING_E_BUFSIZE;
    memcpy(out, s, n);
    out[n] = '\0';
    return TOKENRING_OK;
}

static int put_i64(char *out, size_t cap, size_t *len_out, int64_t v)
{
    char buf[24];
    return put_text(out, cap, len_out, buf, format_i64(buf, v));
}

static int put_t128(char *out, size_t cap, size_t *len_out, tokenring_token128 v)
{
    return tokenring_token128_format(out, cap, len_out, v);
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
    if (bad_out(out, cap, len_out) || (!key && len != 0) || !partitioner_known(partitioner))
        return TOKENRING_E_INVAL;
    if (partitioner == TOKENRING_PARTITIONER_MURMUR3)
        return put_i64(out, cap, len_out, tokenring_token(key, len));
    if (partitioner == TOKENRING_PARTITIONER_RANDOM)
        return put_t128(out, cap, len_out, tokenring_random_token(key, len));
    return tokenring_byte_token_format(out, cap, len_out, key, len);
}

/* The canonical hex of a checked ByteOrderedPartitioner text: lowercase, a leading 0 for
 * an odd digit count. */
static int put_hex(char *out, size_t cap, size_t *len_out, const char *text, size_t len)
{
    size_t pad = len & 1;
    *len_out = len + pad;
    if (cap < len + pad + 1)
        return TOKENRING_E_BUFSIZE;
    if (pad)
        out[0] = '0';
    for (size_t i = 0; i < len; i++)
        out[pad + i] = (char)(text[i] >= 'A' && text[i] <= 'F' ? text[i] - 'A' + 'a' : text[i]);
    out[len + pad] = '\0';
    return TOKENRING_OK;
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
    if (!partitioner_known(partitioner))
        return bad_partitioner(err, partitioner);
    tokenring_error e;
    memset(&e, 0, sizeof e);
    int64_t m = 0;
    tokenring_token128 r = { 0, 0 };
    int rc = partitioner == TOKENRING_PARTITIONER_BYTE_ORDERED
                 ? check_hex(text, len, &e)
                 : read_number(partitioner, text, len, &m, &r, &e);
    if (rc != TOKENRING_OK)
        return not_a_token(err, &e, partitioner, text, len, 0, 0);
    rc = partitioner == TOKENRING_PARTITIONER_MURMUR3 ? put_i64(out, cap, len_out, m)
         : partitioner == TOKENRING_PARTITIONER_RANDOM ? put_t128(out, cap, len_out, r)
                                                        : put_hex(out, cap, len_out, text, len);
    if (rc == TOKENRING_E_BUFSIZE)
        return tr_fail(err, rc, "output buffer of %zu bytes is too small: %zu bytes needed",
                       cap, *len_out + 1);
    return rc;
}

/* Digit i of the canonical (even-length) form of a checked hex text of len digits. */
static int hex_at(const char *text, size_t len, size_t i)
{
    if (len & 1) {
        if (i == 0)
            return 0;
        i--;
    }
    unsigned char c = (unsigned char)text[i];
    return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

/* ByteOrderedPartitioner's order of two checked hex texts, without decoding them: the
 * canonical digits compared one by one, a proper prefix first. */
static int compare_hex(const char *a, size_t alen, const char *b, size_t blen)
{
    size_t an = alen + (alen & 1), bn = blen + (blen & 1);
    for (size_t i = 0; i < an && i < bn; i++) {
        int x = hex_at(a, alen, i), y = hex_at(b, blen, i);
        if (x != y)
            return x < y ? -1 : 1;
    }
    return (an > bn) - (an < bn);
}

TOKENRING_API int tokenring_token_text_compare(int *cmp_out, tokenring_partitioner partitioner,
                                               const char *a, const char *b,
                                               tokenring_error *err)
{
    if (!cmp_out || !a || !b)
        return tr_fail(err, TOKENRING_E_INVAL, "%s is NULL", !cmp_out ? "cmp_out"
                                                             : !a      ? "a"
                                                                       : "b");
    if (!partitioner_known(partitioner))
        return bad_partitioner(err, partitioner);
    const char *t[2] = { a, b };
    size_t len[2] = { strlen(a), strlen(b) };
    int64_t m[2] = { 0, 0 };
    tokenring_token128 r[2] = { { 0, 0 }, { 0, 0 } };
    for (int i = 0; i < 2; i++) {
        tokenring_error e;
        memset(&e, 0, sizeof e);
        int rc = partitioner == TOKENRING_PARTITIONER_BYTE_ORDERED
                     ? check_hex(t[i], len[i], &e)
                     : read_number(partitioner, t[i], len[i], &m[i], &r[i], &e);
        if (rc != TOKENRING_OK)
            return not_a_token(err, &e, partitioner, t[i], len[i], (size_t)i + 1, 2);
    }
    int c = partitioner == TOKENRING_PARTITIONER_MURMUR3 ? (m[0] > m[1]) - (m[0] < m[1])
            : partitioner == TOKENRING_PARTITIONER_RANDOM
                ? tokenring_token128_compare(r[0], r[1])
                : compare_hex(a, len[0], b, len[1]);
    *cmp_out = (c > 0) - (c < 0);
    return TOKENRING_OK;
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
        return rc != TOKENRING_OK ? rc : tokenring_byte_token_format(out, cap, len_out, b, n);
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
        return rc != TOKENRING_OK ? rc : tokenring_byte_token_format(out, cap, len_out, b, n);
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
    tokenring_partitioner p = tokenring_ring_partitioner(ring);
    tokenring_error e;
    memset(&e, 0, sizeof e);
    int64_t m = 0;
    tokenring_token128 r = { 0, 0 };
    int rc;
    if (p != TOKENRING_PARTITIONER_BYTE_ORDERED) {
        if ((rc = read_number(p, token, len, &m, &r, &e)) != TOKENRING_OK)
            return not_a_token(err, &e, p, token, len, 0, 0);
        *index_out = p == TOKENRING_PARTITIONER_MURMUR3 ? tokenring_ring_search(ring, m)
                                                        : tokenring_ring_search128(ring, r);
        return TOKENRING_OK;
    }
    if ((rc = check_hex(token, len, &e)) != TOKENRING_OK)
        return not_a_token(err, &e, p, token, len, 0, 0);
    uint8_t small[256], *b = small;
    size_t n = (len + 1) / 2;
    if (n > sizeof small && !(b = tr_malloc(n)))
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
    (void)tokenring_byte_token_parse(b, n, &n, token, len, NULL);
    *index_out = tokenring_ring_search_bytes(ring, b, n);
    if (b != small)
        tr_free(b);
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
                                  : tokenring_byte_token_format(out, cap, len_out, b[end],
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
        return rc != TOKENRING_OK ? rc : tokenring_byte_token_format(out, cap, len_out, b, n);
    }
    default: {
        tokenring_sample_change s;
        rc = tokenring_movement_get_sample(&s, movement, index);
        return rc != TOKENRING_OK ? rc : put_i64(out, cap, len_out, s.token);
    }
    }
}
