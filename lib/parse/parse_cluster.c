/* SPDX-License-Identifier: Apache-2.0 */
/* The cluster document (nodes and keyspaces) that every format reader fills: adding
 * nodes, tokens, host IDs and keyspaces to a staging cluster, sorting and checking
 * it, merging it into the caller's cluster, and the public accessors. Nodes become a
 * topology only through the public builder calls. Uses only parse_lex.c below it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_internal.h"

int tr_cl_fail_nomem(tokenring_error *err)
{
    return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
}

/* -------------------------------------------------------------- the cluster */

static void cnode_clear(struct tr_cnode *nd)
{
    tr_free(nd->name);
    tr_free(nd->dc);
    tr_free(nd->rack);
    tr_free(nd->host_id);
    tr_free(nd->load);
    tr_free(nd->owns);
    tr_free(nd->tokens);
    if (nd->vtok)
        for (size_t i = 0; i < nd->ntok; i++)
            tr_cl_tok_free(&nd->vtok[i]);
    tr_free(nd->vtok);
    tr_free(nd->tok_pos);
    memset(nd, 0, sizeof *nd);
}

void tr_cl_clear(tokenring_cluster *cl)
{
    for (size_t i = 0; i < cl->n; i++)
        cnode_clear(&cl->nodes[i]);
    tr_free(cl->nodes);
    for (size_t i = 0; i < cl->nks; i++) {
        tr_free(cl->ks[i].name);
        tokenring_replication_free(cl->ks[i].repl);
    }
    tr_free(cl->ks);
    for (size_t i = 0; i < cl->nskipped; i++) {
        tr_free(cl->skipped[i].name);
        tr_free(cl->skipped[i].cls);
    }
    tr_free(cl->skipped);
    tokenring_topology_free(cl->topo);
    tr_free(cl->hash);
    memset(cl, 0, sizeof *cl);
}

TOKENRING_API int tokenring_cluster_new(tokenring_cluster **out)
{
    if (out == NULL)
        return TOKENRING_E_INVAL;
    tokenring_cluster *c = tr_calloc(1, sizeof *c);
    if (c == NULL)
        return TOKENRING_E_NOMEM; /* *out untouched, as every builder (common.h) */
    *out = c;
    return TOKENRING_OK;
}

TOKENRING_API void tokenring_cluster_free(tokenring_cluster *cluster)
{
    if (cluster == NULL)
        return;
    tr_cl_clear(cluster);
    tr_free(cluster);
}

static uint64_t name_hash(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ULL;
    }
    return h ^ h >> 32; /* the table keeps the low bits: fold the high ones in */
}

/* Makes room in the name index for count nodes in all, rehashing into a larger table
 * (nothing changes on failure). */
static int hash_reserve(tokenring_cluster *cl, size_t count)
{
    if (count * 2 <= cl->hcap)
        return TOKENRING_OK;
    size_t ncap = cl->hcap ? cl->hcap : 64;
    while (count * 2 > ncap)
        ncap *= 2;
    uint32_t *h = ncap <= UINT32_MAX ? tr_calloc(ncap, sizeof *h) : NULL;
    if (!h)
        return TOKENRING_E_NOMEM;
    for (size_t i = 0; i < cl->hashed; i++) {
        const char *nm = cl->nodes[i].name;
        size_t k = (size_t)name_hash(nm, strlen(nm)) & (ncap - 1);
        while (h[k])
            k = (k + 1) & (ncap - 1);
        h[k] = (uint32_t)i + 1;
    }
    tr_free(cl->hash);
    cl->hash = h;
    cl->hcap = ncap;
    return TOKENRING_OK;
}

/* Adds node idx to the name index, growing it as needed. */
static int hash_add(tokenring_cluster *cl, size_t idx)
{
    if (cl->hashed != idx)
        return TOKENRING_OK; /* not a cluster built row by row: lookups scan */
    if (hash_reserve(cl, cl->hashed + 1) != TOKENRING_OK)
        return TOKENRING_E_NOMEM;
    const char *nm = cl->nodes[idx].name;
    size_t k = (size_t)name_hash(nm, strlen(nm)) & (cl->hcap - 1);
    while (cl->hash[k])
        k = (k + 1) & (cl->hcap - 1);
    cl->hash[k] = (uint32_t)idx + 1;
    cl->hashed = idx + 1;
    return TOKENRING_OK;
}

int tr_cl_find(const tokenring_cluster *cl, const char *name, size_t n, size_t *idx)
{
    if (cl->hash && cl->hashed == cl->n) {
        size_t k = (size_t)name_hash(name, n) & (cl->hcap - 1);
        while (cl->hash[k]) {
            const struct tr_cnode *nd = &cl->nodes[cl->hash[k] - 1];
            if (strncmp(nd->name, name, n) == 0 && nd->name[n] == '\0') {
                *idx = cl->hash[k] - 1;
                return TOKENRING_OK;
            }
            k = (k + 1) & (cl->hcap - 1);
        }
        return TOKENRING_E_NOTFOUND;
    }
    /* Rows of one node usually come together: try the last node first. */
    for (size_t k = cl->n; k > 0; k--) {
        const struct tr_cnode *nd = &cl->nodes[k - 1];
        if (strncmp(nd->name, name, n) == 0 && nd->name[n] == '\0') {
            *idx = k - 1;
            return TOKENRING_OK;
        }
    }
    return TOKENRING_E_NOTFOUND;
}

static int check_name_at(tokenring_error *err, const char *what, const char *name,
                         uint32_t line, uint32_t col)
{
    tokenring_error tmp;
    int rc = strcmp(what, "rack") == 0 ? tr_check_rack_name(&tmp, what, name)
                                       : tr_check_name(&tmp, what, name);
    if (rc != TOKENRING_OK)
        return tr_fail_at(err, rc, line, col, "%s", tmp.message);
    for (const char *p = name; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            return tr_fail_at(err, TOKENRING_E_INVAL, line, col,
                              "%s name contains a control character", what);
    return TOKENRING_OK;
}

static bool same_str(const char *a, const char *s, size_t n)
{
    return strncmp(a, s, n) == 0 && a[n] == '\0';
}

int tr_cl_node(tokenring_cluster *cl, const char *name, size_t name_len, const char *dc,
               size_t dc_len, const char *rack, size_t rack_len, uint32_t line, uint32_t col,
               uint32_t dc_col, uint32_t rack_col, size_t *idx, bool *created,
               tokenring_error *err)
{
    size_t i;
    if (created)
        *created = false;
    if (memchr(name, '\0', name_len) || memchr(dc, '\0', dc_len) ||
        memchr(rack, '\0', rack_len))
        return tr_fail_at(err, TOKENRING_E_INVAL, line, col, "unexpected NUL byte in a name");
    if (tr_cl_find(cl, name, name_len, &i) == TOKENRING_OK) {
        const struct tr_cnode *nd = &cl->nodes[i];
        if (!same_str(nd->dc, dc, dc_len) || !same_str(nd->rack, rack, rack_len))
            return tr_fail_at(err, TOKENRING_E_EXISTS, line, rack_col,
                              "node %s is in datacenter %s, rack %s (line %u), not in "
                              "datacenter %.*s, rack %.*s",
                              nd->name, nd->dc, nd->rack, (unsigned)nd->line, (int)dc_len, dc,
                              (int)rack_len, rack);
        *idx = i;
        return TOKENRING_OK;
    }
    struct tr_cnode nd;
    memset(&nd, 0, sizeof nd);
    nd.name = tr_strndup(name, name_len);
    nd.dc = tr_strndup(dc, dc_len);
    nd.rack = tr_strndup(rack, rack_len);
    int rc = TOKENRING_OK;
    if (!nd.name || !nd.dc || !nd.rack) {
        rc = tr_cl_fail_nomem(err);
        goto fail;
    }
    if ((rc = check_name_at(err, "node", nd.name, line, col)) != TOKENRING_OK ||
        (rc = check_name_at(err, "datacenter", nd.dc, line, dc_col)) != TOKENRING_OK ||
        (rc = check_name_at(err, "rack", nd.rack, line, rack_col)) != TOKENRING_OK)
        goto fail;
    if (cl->n == cl->cap) {
        size_t ncap = cl->cap ? cl->cap * 2 : 8;
        struct tr_cnode *nn = tr_reallocarray(cl->nodes, ncap, sizeof *nn);
        if (!nn) {
            rc = tr_cl_fail_nomem(err);
            goto fail;
        }
        cl->nodes = nn;
        cl->cap = ncap;
    }
    nd.state = TOKENRING_STATE_NORMAL;
    nd.liveness = TOKENRING_UP;
    nd.line = line;
    nd.column = col;
    cl->nodes[cl->n] = nd;
    if (hash_add(cl, cl->n) != TOKENRING_OK) {
        rc = tr_cl_fail_nomem(err);
        goto fail; /* the node was not counted: cl->n is unchanged */
    }
    *idx = cl->n++;
    if (created)
        *created = true;
    return TOKENRING_OK;
fail:
    cnode_clear(&nd);
    return rc;
}

/* Makes room for one more token of node nd (in tokens or vtok, as the partitioner). */
static int token_room(const tokenring_cluster *cl, struct tr_cnode *nd, tokenring_error *err)
{
    if (nd->ntok < nd->tcap)
        return TOKENRING_OK;
    size_t ncap = nd->tcap ? nd->tcap * 2 : 8;
    if (cl->partitioner == TOKENRING_PARTITIONER_MURMUR3) {
        int64_t *t = tr_reallocarray(nd->tokens, ncap, sizeof *t);
        if (!t)
            return tr_cl_fail_nomem(err);
        nd->tokens = t;
    } else {
        tr_tok *v = tr_reallocarray(nd->vtok, ncap, sizeof *v);
        if (!v)
            return tr_cl_fail_nomem(err);
        nd->vtok = v;
    }
    uint64_t *p = tr_reallocarray(nd->tok_pos, ncap, sizeof *p);
    if (!p)
        return tr_cl_fail_nomem(err);
    nd->tok_pos = p;
    nd->tcap = ncap;
    return TOKENRING_OK;
}

int tr_cl_add_token(tokenring_cluster *cl, size_t idx, int64_t token, uint32_t line,
                    uint32_t col, tokenring_error *err)
{
    struct tr_cnode *nd = &cl->nodes[idx];
    if (cl->partitioner != TOKENRING_PARTITIONER_MURMUR3)
        return tr_fail_at(err, TOKENRING_E_INVAL, line, col,
                          "a Murmur3 token in a %s cluster",
                          tokenring_partitioner_name(cl->partitioner));
    int rc = token_room(cl, nd, err);
    if (rc != TOKENRING_OK)
        return rc;
    nd->tokens[nd->ntok] = token;
    nd->tok_pos[nd->ntok] = ((uint64_t)line << 32) | col;
    nd->ntok++;
    nd->known = true;
    return TOKENRING_OK;
}

int tr_cl_tok_copy(tr_tok *dst, const tr_tok *src)
{
    *dst = *src;
    dst->b = NULL;
    if (src->len) {
        uint8_t *copy = tr_malloc(src->len);
        if (!copy) {
            dst->len = 0;
            return TOKENRING_E_NOMEM;
        }
        memcpy(copy, src->b, src->len);
        dst->b = copy;
    }
    return TOKENRING_OK;
}

void tr_cl_tok_free(tr_tok *t)
{
    tr_free((void *)(uintptr_t)t->b); /* the node's own copy (tr_cl_tok_copy) */
    t->b = NULL;
}

/* Adds a token of another partitioner (a ByteOrdered token's bytes copied). */
static int add_vtok(tokenring_cluster *cl, size_t idx, const tr_tok *t, uint32_t line,
                    uint32_t col, tokenring_error *err)
{
    struct tr_cnode *nd = &cl->nodes[idx];
    int rc = token_room(cl, nd, err);
    if (rc != TOKENRING_OK)
        return rc;
    if (tr_cl_tok_copy(&nd->vtok[nd->ntok], t) != TOKENRING_OK)
        return tr_cl_fail_nomem(err);
    nd->tok_pos[nd->ntok] = ((uint64_t)line << 32) | col;
    nd->ntok++;
    nd->known = true;
    return TOKENRING_OK;
}

/* One case per partitioner: the messages name each one's text form, as the goldens show. */
int tr_cl_read_token(tokenring_cluster *cl, tokenring_partitioner p, const char *s, size_t n,
                     uint32_t line, uint32_t col, tr_tok *out, uint8_t *buf,
                     tokenring_error *err)
{
    int rc;
    switch (p) {
    case TOKENRING_PARTITIONER_MURMUR3: {
        int64_t v = 0;
        rc = tr_parse_i64(s, n, &v);
        if (rc == TOKENRING_OK) {
            if (out)
                *out = tr_tok_m3(v);
            return TOKENRING_OK;
        }
        cl->token_text_failed = true;
        if (rc == TOKENRING_E_RANGE)
            return tr_fail_at(err, rc, line, col,
                              "token '%.*s' is outside the signed 64-bit range "
                              "-9223372036854775808..9223372036854775807",
                              (int)(n > 60 ? 60 : n), s);
        return tr_fail_at(err, TOKENRING_E_PARSE, line, col,
                          "expected a token (a signed 64-bit integer), found '%.*s'",
                          (int)(n > 40 ? 40 : n), s);
    }
    case TOKENRING_PARTITIONER_RANDOM: {
        tokenring_token128 t = { 0, 0 };
        rc = tokenring_token128_parse(&t, s, n, NULL);
        if (rc == TOKENRING_OK && t.hi == UINT64_MAX && t.lo == UINT64_MAX)
            rc = TOKENRING_E_RANGE; /* -1, the minimum token, is no node's token */
        if (rc == TOKENRING_OK) {
            if (out)
                *out = tr_tok_128(t);
            return TOKENRING_OK;
        }
        cl->token_text_failed = true;
        if (rc == TOKENRING_E_RANGE)
            return tr_fail_at(err, rc, line, col,
                              "token '%.*s' is outside 0..2^127 (RandomPartitioner)",
                              (int)(n > 60 ? 60 : n), s);
        return tr_fail_at(err, TOKENRING_E_PARSE, line, col,
                          "expected a RandomPartitioner token (a decimal 0..2^127), found "
                          "'%.*s'", (int)(n > 40 ? 40 : n), s);
    }
    case TOKENRING_PARTITIONER_BYTE_ORDERED: {
        size_t len = 0;
        if (n == 0) {
            /* the empty (minimum) token is no token a ring's listing shows (and the
             * topology file could not write it back) */
            cl->token_text_failed = true;
            return tr_fail_at(err, TOKENRING_E_PARSE, line, col, "expected a token");
        }
        rc = out ? tokenring_byte_token_parse(buf, TR_TOK_PARSE_ROOM(n), &len, s, n, NULL)
                 : tokenring_byte_token_parse(NULL, 0, &len, s, n, NULL);
        for (size_t i = 0; i < n && !cl->hex_letter; i++)
            cl->hex_letter = (s[i] >= 'a' && s[i] <= 'f') || (s[i] >= 'A' && s[i] <= 'F');
        if (rc == TOKENRING_OK || (rc == TOKENRING_E_BUFSIZE && !out)) {
            if (len <= TOKENRING_BYTE_TOKEN_MAX) {
                if (out)
                    *out = tr_tok_bytes(buf, len);
                return TOKENRING_OK;
            }
            cl->token_text_failed = true;
            return tr_fail_at(err, TOKENRING_E_RANGE, line, col,
                              "token of %zu bytes is longer than %d bytes "
                              "(ByteOrderedPartitioner)", len, TOKENRING_BYTE_TOKEN_MAX);
        }
        cl->token_text_failed = true;
        return tr_fail_at(err, TOKENRING_E_PARSE, line, col,
                          "expected a ByteOrderedPartitioner token (hex digits), found "
                          "'%.*s'", (int)(n > 40 ? 40 : n), s);
    }
    }
    return tr_fail_at(err, TOKENRING_E_INVAL, line, col, "unknown partitioner");
}

int tr_cl_check_token_text(tokenring_cluster *cl, const char *s, size_t n, uint32_t line,
                           uint32_t col, int64_t *murmur3_out, tokenring_error *err)
{
    /* only a token that is its own key (Murmur3) has a value to give back: the others
     * are checked without a buffer */
    bool value = murmur3_out && tr_ops(cl->partitioner)->key_is_token;
    tr_tok t;
    int rc = tr_cl_read_token(cl, cl->partitioner, s, n, line, col, value ? &t : NULL, NULL,
                              err);
    if (rc == TOKENRING_OK && value)
        *murmur3_out = t.key;
    return rc;
}

int tr_cl_add_token_text(tokenring_cluster *cl, size_t idx, const char *s, size_t n,
                         uint32_t line, uint32_t col, tokenring_error *err)
{
    tr_tok t;
    if (tr_ops(cl->partitioner)->key_is_token) { /* Murmur3: kept as int64 */
        int rc = tr_cl_read_token(cl, cl->partitioner, s, n, line, col, &t, NULL, err);
        return rc == TOKENRING_OK ? tr_cl_add_token(cl, idx, t.key, line, col, err) : rc;
    }
    uint8_t *b = tr_malloc(TR_TOK_PARSE_ROOM(n));
    if (!b)
        return tr_cl_fail_nomem(err);
    int rc = tr_cl_read_token(cl, cl->partitioner, s, n, line, col, &t, b, err);
    if (rc == TOKENRING_OK)
        rc = add_vtok(cl, idx, &t, line, col, err);
    tr_free(b);
    return rc;
}

int tr_cl_name_partitioner(tokenring_cluster *cl, const char *s, size_t n, uint32_t line,
                           uint32_t col, tokenring_error *err)
{
    tokenring_partitioner p;
    tokenring_error tmp;
    memset(&tmp, 0, sizeof tmp);
    int rc = tokenring_partitioner_parse(&p, s, n, &tmp);
    if (rc != TOKENRING_OK)
        return tr_fail_at(err, rc, line, col, "%s",
                          tmp.message[0] ? tmp.message : "unknown partitioner");
    if (p == cl->partitioner) {
        cl->partitioner_fixed = cl->named = true;
        return TOKENRING_OK;
    }
    if (cl->partitioner_fixed)
        return tr_fail_at(err, TOKENRING_E_INVAL, line, col,
                          "the input names %s, but the tokens are read as %s",
                          tokenring_partitioner_name(p),
                          tokenring_partitioner_name(cl->partitioner));
    for (size_t i = 0; i < cl->n; i++) {
        if (cl->nodes[i].ntok) {
            cl->restart = true; /* tokens read in the wrong partitioner: parse again */
            cl->partitioner = p;
            return tr_fail_at(err, TOKENRING_E_PARSE, line, col, "partitioner changed");
        }
    }
    cl->partitioner = p;
    cl->partitioner_fixed = cl->named = true;
    return TOKENRING_OK;
}

const char *tr_cl_token_text(const tokenring_cluster *cl, const struct tr_cnode *nd, size_t k,
                             char *buf)
{
    /* a byte token longer than fits is cut, "..." after it */
    tr_tok t = tr_cl_tok(nd, k);
    size_t len = 0, max = (TR_TOKEN_TEXT_MAX - 4) / 2, n = t.len;
    if (n > max)
        t.len = max;
    if (tr_ops(cl->partitioner)->format(buf, TR_TOKEN_TEXT_MAX, &len, &t) != TOKENRING_OK)
        buf[0] = '\0';
    if (n > max)
        strcat(buf, "...");
    return buf;
}

int tr_cl_set_column(tokenring_cluster *cl, size_t idx, bool owns, const char *s, size_t n,
                     tokenring_error *err)
{
    struct tr_cnode *nd = &cl->nodes[idx];
    char **slot = owns ? &nd->owns : &nd->load;
    if (*slot)
        return TOKENRING_OK;
    if (n > TOKENRING_MAX_NAME)
        n = TOKENRING_MAX_NAME; /* a cell, not a name: kept up to the name limit */
    if (!(*slot = tr_strndup(s, n)))
        return tr_cl_fail_nomem(err);
    return TOKENRING_OK;
}

int tr_cl_set_host_id(tokenring_cluster *cl, size_t idx, const char *s, size_t n,
                      uint32_t line, uint32_t col, tokenring_error *err)
{
    struct tr_cnode *nd = &cl->nodes[idx];
    if (nd->host_id)
        return TOKENRING_OK;
    if (memchr(s, '\0', n))
        return tr_fail_at(err, TOKENRING_E_INVAL, line, col, "unexpected NUL byte in a host ID");
    char *id = tr_strndup(s, n);
    if (!id)
        return tr_cl_fail_nomem(err);
    int rc = check_name_at(err, "host ID", id, line, col);
    if (rc != TOKENRING_OK) {
        tr_free(id);
        return rc;
    }
    nd->host_id = id;
    return TOKENRING_OK;
}

int tr_cl_check_keyspace_name(const char *s, size_t n, uint32_t line, uint32_t col,
                               tokenring_error *err)
{
    if (n == 0)
        return tr_fail_at(err, TOKENRING_E_INVAL, line, col, "keyspace name is empty");
    if (n > TOKENRING_MAX_NAME)
        return tr_fail_at(err, TOKENRING_E_RANGE, line, col,
                          "keyspace name is longer than %d bytes", TOKENRING_MAX_NAME);
    if (!tr_utf8_valid((const uint8_t *)s, n))
        return tr_fail_at(err, TOKENRING_E_INVAL, line, col,
                          "keyspace name is not valid UTF-8");
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c <= 0x20 || c == 0x7f || c == '#' || c == '"' || c == '=')
            return tr_fail_at(err, TOKENRING_E_INVAL, line, col + (uint32_t)i,
                              "keyspace name may not contain whitespace, control "
                              "characters, '#', '\"' or '='");
    }
    return TOKENRING_OK;
}

int tr_cl_add_skipped(tokenring_cluster *cl, const char *name, size_t n, const char *cls,
                      size_t cn, uint32_t line, uint32_t col, tokenring_error *err)
{
    int rc = tr_cl_check_keyspace_name(name, n, line, col, err);
    if (rc != TOKENRING_OK)
        return rc;
    for (size_t i = 0; i < cl->nks; i++)
        if (same_str(cl->ks[i].name, name, n))
            return tr_fail_at(err, TOKENRING_E_EXISTS, line, col,
                              "keyspace %.*s is already defined", (int)n, name);
    for (size_t i = 0; i < cl->nskipped; i++)
        if (same_str(cl->skipped[i].name, name, n))
            return TOKENRING_OK;
    struct tr_skipped *k = tr_reallocarray(cl->skipped, cl->nskipped + 1, sizeof *k);
    if (!k)
        return tr_cl_fail_nomem(err);
    cl->skipped = k;
    char *a = tr_strndup(name, n), *b = tr_strndup(cls, cn);
    if (!a || !b) {
        tr_free(a);
        tr_free(b);
        return tr_cl_fail_nomem(err);
    }
    cl->skipped[cl->nskipped].name = a;
    cl->skipped[cl->nskipped].cls = b;
    cl->nskipped++;
    return TOKENRING_OK;
}

int tr_cl_add_keyspace_at(tokenring_cluster *cl, const char *name, size_t n,
                          tokenring_replication *repl_owned, uint32_t line, uint32_t col,
                          tokenring_error *err)
{
    int rc = tr_cl_check_keyspace_name(name, n, line, col, err);
    if (rc != TOKENRING_OK)
        goto fail;
    /* a datacenter the replication names follows the rules of node datacenters (no
     * control character), so that every keyspace can be written and read back */
    for (size_t i = 0, ndc = tokenring_replication_dc_count(repl_owned); i < ndc; i++) {
        const char *dc = NULL;
        tokenring_replication_get(&dc, NULL, NULL, repl_owned, i);
        for (const char *p = dc; p && *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f) {
                rc = tr_fail_at(err, TOKENRING_E_INVAL, line, col,
                                "keyspace %.*s: datacenter name contains a control "
                                "character", (int)n, name);
                goto fail;
            }
    }
    for (size_t i = 0; i < cl->nks; i++) {
        if (same_str(cl->ks[i].name, name, n)) {
            rc = tr_fail_at(err, TOKENRING_E_EXISTS, line, col,
                            "keyspace %.*s is already defined", (int)n, name);
            goto fail;
        }
    }
    if (cl->nks == cl->kcap) {
        size_t ncap = cl->kcap ? cl->kcap * 2 : 4;
        struct tr_keyspace *k = tr_reallocarray(cl->ks, ncap, sizeof *k);
        if (!k) {
            rc = tr_cl_fail_nomem(err);
            goto fail;
        }
        cl->ks = k;
        cl->kcap = ncap;
    }
    char *dup = tr_strndup(name, n);
    if (!dup) {
        rc = tr_cl_fail_nomem(err);
        goto fail;
    }
    cl->ks[cl->nks].name = dup;
    cl->ks[cl->nks].repl = repl_owned;
    cl->ks[cl->nks].line = line;
    cl->nks++;
    return TOKENRING_OK;
fail:
    tokenring_replication_free(repl_owned);
    return rc;
}

static int repl_clone(tokenring_replication **out, const tokenring_replication *r)
{
    size_t len = 0;
    int rc = tokenring_replication_format(NULL, 0, &len, r);
    if (rc != TOKENRING_OK && rc != TOKENRING_E_BUFSIZE)
        return rc;
    char *buf = tr_malloc(len + 1);
    if (!buf)
        return TOKENRING_E_NOMEM;
    rc = tokenring_replication_format(buf, len + 1, &len, r);
    if (rc == TOKENRING_OK)
        rc = tokenring_replication_parse(out, buf, len, NULL);
    tr_free(buf);
    /* the text form does not carry the release rules: copy them */
    if (rc == TOKENRING_OK)
        tokenring_replication_set_rules(*out, tokenring_replication_rules(r));
    return rc;
}

/* --------------------------------------------------------- finish and merge */

struct tokpos {
    tr_tok t;
    uint64_t pos;
    size_t node;
    size_t k;                           /* its index in the node's tokens */
};

static int cmp_tokpos(const void *a, const void *b)
{
    const struct tokpos *x = a, *y = b;
    int c = tr_tok_cmp(&x->t, &y->t);
    if (c)
        return c;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Sorts each node's tokens and rejects a token given twice, naming the later place. */
int tr_cl_finish(tokenring_cluster *cl, tokenring_error *err)
{
    size_t total = 0;
    for (size_t i = 0; i < cl->n; i++)
        total += cl->nodes[i].ntok;
    if (total > 0) {
        struct tokpos *all = tr_calloc(total, sizeof *all);
        if (!all)
            return tr_cl_fail_nomem(err);
        size_t k = 0;
        for (size_t i = 0; i < cl->n; i++)
            for (size_t j = 0; j < cl->nodes[i].ntok; j++)
                all[k++] = (struct tokpos){ tr_cl_tok(&cl->nodes[i], j),
                                            cl->nodes[i].tok_pos[j], i, j };
        qsort(all, total, sizeof *all, cmp_tokpos);
        for (size_t i = 1; i < total; i++) {
            if (tr_tok_cmp(&all[i].t, &all[i - 1].t) == 0) {
                const struct tokpos *a = &all[i - 1], *b = &all[i];
                const struct tr_cnode *nb = &cl->nodes[b->node];
                char buf[TR_TOKEN_TEXT_MAX];
                tr_cl_token_text(cl, nb, b->k, buf);
                int rc = tr_fail_at(err, TOKENRING_E_EXISTS, (uint32_t)(b->pos >> 32),
                                    (uint32_t)b->pos,
                                    "token %s of node %s is already held by node %s "
                                    "(line %u)",
                                    buf, nb->name, cl->nodes[a->node].name,
                                    (unsigned)(a->pos >> 32));
                tr_free(all);
                return rc;
            }
        }
        tr_free(all);
    }
    for (size_t i = 0; i < cl->n; i++) {
        struct tr_cnode *nd = &cl->nodes[i];
        if (nd->ntok > 1) {
            if (nd->vtok)
                qsort(nd->vtok, nd->ntok, sizeof *nd->vtok, tr_tok_qsort_cmp);
            else /* Murmur3's int64 */
                qsort(nd->tokens, nd->ntok, sizeof *nd->tokens, tr_cmp_i64);
        }
        tr_free(nd->tok_pos);
        nd->tok_pos = NULL;
        if (nd->known)
            nd->declared = nd->ntok;
    }
    return TOKENRING_OK;
}

/* Adds node nd with its tokens to topology t of partitioner p. */
static int add_cnode(tokenring_topology *t, tokenring_partitioner p, const struct tr_cnode *nd,
                     tokenring_error *err)
{
    if (p == TOKENRING_PARTITIONER_MURMUR3)
        return tokenring_topology_add_node(t, nd->name, nd->dc, nd->rack, nd->tokens, nd->ntok,
                                           err);
    size_t n = nd->ntok ? nd->ntok : 1;
    int rc;
    if (p == TOKENRING_PARTITIONER_RANDOM) {
        tokenring_token128 *tk = tr_calloc(n, sizeof *tk);
        if (!tk)
            return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
        for (size_t j = 0; j < nd->ntok; j++)
            tk[j] = nd->vtok[j].v128;
        rc = tokenring_topology_add_node128(t, nd->name, nd->dc, nd->rack, tk, nd->ntok, err);
        tr_free(tk);
        return rc;
    }
    const uint8_t **ptrs = tr_calloc(n, sizeof *ptrs);
    size_t *lens = tr_calloc(n, sizeof *lens);
    if (!ptrs || !lens) {
        tr_free(ptrs);
        tr_free(lens);
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
    }
    for (size_t j = 0; j < nd->ntok; j++) {
        ptrs[j] = nd->vtok[j].b;
        lens[j] = nd->vtok[j].len;
    }
    rc = tokenring_topology_add_node_bytes(t, nd->name, nd->dc, nd->rack, ptrs, lens, nd->ntok,
                                           err);
    tr_free(ptrs);
    tr_free(lens);
    return rc;
}

static int rebuild_topology(tokenring_cluster *cl, tokenring_error *err)
{
    tokenring_topology_free(cl->topo);
    cl->topo = NULL;
    cl->flags &= ~TOKENRING_CLUSTER_TOKENS_UNKNOWN;
    for (size_t i = 0; i < cl->n; i++)
        if (!cl->nodes[i].known)
            cl->flags |= TOKENRING_CLUSTER_TOKENS_UNKNOWN;
    if (cl->n == 0 || (cl->flags & TOKENRING_CLUSTER_TOKENS_UNKNOWN))
        return TOKENRING_OK;
    tokenring_topology *t = NULL;
    int rc = tokenring_topology_new_partitioned(&t, cl->partitioner);
    if (rc != TOKENRING_OK)
        return tr_fail(err, rc, "cannot create a topology: %s", tokenring_strerror(rc));
    for (size_t i = 0; i < cl->n; i++) {
        const struct tr_cnode *nd = &cl->nodes[i];
        tokenring_error tmp;
        memset(&tmp, 0, sizeof tmp);
        rc = add_cnode(t, cl->partitioner, nd, &tmp);
        if (rc == TOKENRING_OK && (nd->state != TOKENRING_STATE_NORMAL ||
                                   nd->liveness != TOKENRING_UP))
            rc = tokenring_topology_set_state(t, nd->name, (tokenring_node_state)nd->state,
                                              (tokenring_liveness)nd->liveness, &tmp);
        if (rc != TOKENRING_OK) {
            tokenring_topology_free(t);
            return tr_fail_at(err, rc, nd->line, nd->column, "node %s: %s", nd->name,
                              tmp.message[0] ? tmp.message : tokenring_strerror(rc));
        }
    }
    cl->topo = t;
    return TOKENRING_OK;
}

/* Moves the contents of staging node src into dst of the merged cluster. */
static int merge_node(struct tr_cnode *dst, struct tr_cnode *src, tokenring_error *err)
{
    if (strcmp(dst->dc, src->dc) != 0 || strcmp(dst->rack, src->rack) != 0)
        return tr_fail_at(err, TOKENRING_E_EXISTS, src->line, src->column,
                          "node %s is in datacenter %s, rack %s in an earlier input, not in "
                          "datacenter %s, rack %s",
                          dst->name, dst->dc, dst->rack, src->dc, src->rack);
    if (dst->known && src->known) {
        bool differ = dst->ntok != src->ntok;
        if (!differ && dst->tokens)
            differ = memcmp(dst->tokens, src->tokens, dst->ntok * sizeof *dst->tokens) != 0;
        for (size_t j = 0; !differ && dst->vtok && j < dst->ntok; j++)
            differ = tr_tok_cmp(&dst->vtok[j], &src->vtok[j]) != 0;
        if (differ)
            return tr_fail_at(err, TOKENRING_E_EXISTS, src->line, src->column,
                              "node %s has different tokens in an earlier input", dst->name);
    } else if (src->known) {
        if (dst->declared && dst->declared != src->ntok)
            return tr_fail_at(err, TOKENRING_E_EXISTS, src->line, src->column,
                              "node %s has %zu tokens here but %zu in an earlier input",
                              dst->name, src->ntok, dst->declared);
        tr_free(dst->tokens);
        dst->tokens = src->tokens;
        dst->vtok = src->vtok; /* dst had no token to free: unknown */
        dst->ntok = dst->tcap = src->ntok;
        dst->known = true;
        dst->declared = src->ntok;
        src->tokens = NULL;
        src->vtok = NULL;
        src->ntok = 0;
    } else if (dst->known) {
        if (src->declared && src->declared != dst->ntok)
            return tr_fail_at(err, TOKENRING_E_EXISTS, src->line, src->column,
                              "node %s has %zu tokens here but %zu in an earlier input",
                              dst->name, src->declared, dst->ntok);
    } else if (dst->declared == 0) {
        dst->declared = src->declared;
    }
    if (dst->load == NULL) {
        dst->load = src->load;
        src->load = NULL;
    }
    if (dst->owns == NULL) {
        dst->owns = src->owns;
        src->owns = NULL;
    }
    if (dst->host_id == NULL) {
        dst->host_id = src->host_id;
        src->host_id = NULL;
    }
    return TOKENRING_OK;
}

/* Deep copy of a cluster (without its topology). */
static int cluster_copy(tokenring_cluster *dst, const tokenring_cluster *src)
{
    memset(dst, 0, sizeof *dst);
    dst->flags = src->flags;
    dst->formats = src->formats;
    dst->partitioner = src->partitioner;
    dst->partitioner_fixed = src->partitioner_fixed;
    if (src->n) {
        dst->nodes = tr_calloc(src->n, sizeof *dst->nodes);
        if (!dst->nodes)
            return TOKENRING_E_NOMEM;
        dst->cap = src->n;
    }
    for (size_t i = 0; i < src->n; i++) {
        const struct tr_cnode *s = &src->nodes[i];
        struct tr_cnode *d = &dst->nodes[i];
        *d = *s;
        d->name = d->dc = d->rack = d->host_id = d->load = d->owns = NULL;
        d->tokens = NULL;
        d->vtok = NULL;
        d->tok_pos = NULL;
        d->ntok = 0; /* counted as copied, so that a failure frees what was */
        dst->n = i + 1;
        d->name = tr_strdup(s->name);
        d->dc = tr_strdup(s->dc);
        d->rack = tr_strdup(s->rack);
        if (!d->name || !d->dc || !d->rack)
            return TOKENRING_E_NOMEM;
        if (s->host_id && !(d->host_id = tr_strdup(s->host_id)))
            return TOKENRING_E_NOMEM;
        if (s->load && !(d->load = tr_strdup(s->load)))
            return TOKENRING_E_NOMEM;
        if (s->owns && !(d->owns = tr_strdup(s->owns)))
            return TOKENRING_E_NOMEM;
        if (s->ntok && s->tokens) {
            d->tokens = tr_calloc(s->ntok, sizeof *d->tokens);
            if (!d->tokens)
                return TOKENRING_E_NOMEM;
            memcpy(d->tokens, s->tokens, s->ntok * sizeof *d->tokens);
            d->ntok = s->ntok;
        } else if (s->ntok) {
            d->vtok = tr_calloc(s->ntok, sizeof *d->vtok);
            if (!d->vtok)
                return TOKENRING_E_NOMEM;
            for (size_t j = 0; j < s->ntok; j++) {
                if (tr_cl_tok_copy(&d->vtok[j], &s->vtok[j]) != TOKENRING_OK)
                    return TOKENRING_E_NOMEM; /* d->ntok counts the ones to free */
                d->ntok = j + 1;
            }
        }
        d->tcap = s->ntok;
    }
    if (src->nks) {
        dst->ks = tr_calloc(src->nks, sizeof *dst->ks);
        if (!dst->ks)
            return TOKENRING_E_NOMEM;
        dst->kcap = src->nks;
    }
    for (size_t i = 0; i < src->nks; i++) {
        dst->ks[i].line = src->ks[i].line;
        dst->ks[i].name = tr_strdup(src->ks[i].name);
        dst->nks = i + 1;
        if (!dst->ks[i].name)
            return TOKENRING_E_NOMEM;
        int rc = repl_clone(&dst->ks[i].repl, src->ks[i].repl);
        if (rc != TOKENRING_OK)
            return rc;
    }
    for (size_t i = 0; i < src->nskipped; i++) {
        size_t l = strlen(src->skipped[i].name);
        if (tr_cl_add_skipped(dst, src->skipped[i].name, l, src->skipped[i].cls,
                              strlen(src->skipped[i].cls), 0, 0, NULL) != TOKENRING_OK)
            return TOKENRING_E_NOMEM;
    }
    return TOKENRING_OK;
}

/* The merge of an input that only adds nodes with known tokens to a cluster with a
 * topology (the router builder's row by row, a peer at a time): appended in place, each
 * node added to the cluster's topology, so that a row costs its own size and not the
 * cluster's. The outcome, errors included, is the general merge's: the topology refuses
 * what rebuild_topology() would, and nothing changes on failure. Sets *applies to false
 * (and changes nothing) when the input is of another kind. */
static int merge_append(tokenring_cluster *target, tokenring_cluster *staging, bool *applies,
                        tokenring_error *err)
{
    *applies = false;
    if (target->n == 0 || !target->topo || target->hashed != target->n ||
        staging->partitioner != target->partitioner || staging->check_disjoint ||
        staging->nks || staging->nskipped || staging->n == 0)
        return TOKENRING_OK;
    for (size_t i = 0; i < staging->n; i++) {
        const struct tr_cnode *s = &staging->nodes[i];
        size_t idx;
        if (!s->known || s->ntok == 0 ||
            tr_cl_find(target, s->name, strlen(s->name), &idx) == TOKENRING_OK)
            return TOKENRING_OK;
        for (size_t j = 0; j < i; j++)
            if (strcmp(staging->nodes[j].name, s->name) == 0)
                return TOKENRING_OK;
    }
    *applies = true;
    size_t total = target->n + staging->n;
    if (total > target->cap) {
        size_t ncap = target->cap ? target->cap : 8;
        while (ncap < total)
            ncap *= 2;
        struct tr_cnode *nn = tr_reallocarray(target->nodes, ncap, sizeof *nn);
        if (!nn)
            return tr_cl_fail_nomem(err);
        target->nodes = nn;
        target->cap = ncap;
    }
    if (hash_reserve(target, total) != TOKENRING_OK)
        return tr_cl_fail_nomem(err);
    for (size_t i = 0; i < staging->n; i++) {
        const struct tr_cnode *nd = &staging->nodes[i];
        tokenring_error tmp;
        memset(&tmp, 0, sizeof tmp);
        int rc = add_cnode(target->topo, target->partitioner, nd, &tmp);
        if (rc == TOKENRING_OK && (nd->state != TOKENRING_STATE_NORMAL ||
                                   nd->liveness != TOKENRING_UP))
            rc = tokenring_topology_set_state(target->topo, nd->name,
                                              (tokenring_node_state)nd->state,
                                              (tokenring_liveness)nd->liveness, &tmp);
        if (rc != TOKENRING_OK) {
            /* back out the nodes this merge added (the one that failed too, when it
             * was added before its state was refused) */
            for (size_t j = i + 1; j-- > 0;)
                (void)tokenring_topology_remove_node(target->topo, staging->nodes[j].name,
                                                     NULL);
            return tr_fail_at(err, rc, nd->line, nd->column, "node %s: %s", nd->name,
                              tmp.message[0] ? tmp.message : tokenring_strerror(rc));
        }
    }
    for (size_t i = 0; i < staging->n; i++) {
        target->nodes[target->n] = staging->nodes[i];
        memset(&staging->nodes[i], 0, sizeof staging->nodes[i]);
        (void)hash_add(target, target->n++); /* room reserved above: cannot fail */
    }
    target->partitioner_fixed |= staging->partitioner_fixed;
    target->flags |= staging->flags;
    return TOKENRING_OK;
}

/* Merges staging into a copy of target; on success the copy replaces target. */
int tr_cl_merge(tokenring_cluster *target, tokenring_cluster *staging,
                      tokenring_error *err)
{
    bool applies;
    int rc = merge_append(target, staging, &applies, err);
    if (applies)
        return rc;
    tokenring_cluster merged;
    rc = cluster_copy(&merged, target);
    if (rc != TOKENRING_OK) {
        tr_cl_clear(&merged);
        return tr_cl_fail_nomem(err);
    }
    if (staging->partitioner != merged.partitioner) {
        bool decided = merged.partitioner_fixed;
        for (size_t i = 0; i < merged.n && !decided; i++)
            decided = merged.nodes[i].ntok > 0;
        if (decided) {
            rc = tr_fail(err, TOKENRING_E_INVAL,
                         "this input's tokens are %s tokens, but the cluster's are %s tokens "
                         "(give the partitioner before the first input when its tokens could "
                         "be read as either)",
                         tokenring_partitioner_name(staging->partitioner),
                         tokenring_partitioner_name(merged.partitioner));
            goto fail;
        }
        merged.partitioner = staging->partitioner;
    }
    merged.partitioner_fixed |= staging->partitioner_fixed;
    /* the copy's name index, so that each lookup below costs O(1), not O(nodes) */
    for (size_t i = 0; i < merged.n; i++) {
        if (hash_add(&merged, i) != TOKENRING_OK) {
            rc = tr_cl_fail_nomem(err);
            goto fail;
        }
    }
    if (staging->check_disjoint && merged.n > 0 && staging->n > 0) {
        size_t idx, i = 0;
        while (i < staging->n && tr_cl_find(&merged, staging->nodes[i].name,
                                            strlen(staging->nodes[i].name), &idx) != 0)
            i++;
        if (i == staging->n) {
            rc = tr_fail(err, TOKENRING_E_INVAL,
                         "this input's %zu node%s (e.g. %s) share%s no node with the %zu "
                         "node%s read before (e.g. %s): the outputs of two clusters? (merge "
                         "disjoint inputs to combine them)",
                         staging->n, staging->n == 1 ? "" : "s", staging->nodes[0].name,
                         staging->n == 1 ? "s" : "", merged.n, merged.n == 1 ? "" : "s",
                         merged.nodes[0].name);
            goto fail;
        }
    }
    for (size_t i = 0; i < staging->n; i++) {
        struct tr_cnode *s = &staging->nodes[i];
        size_t idx;
        if (tr_cl_find(&merged, s->name, strlen(s->name), &idx) == TOKENRING_OK) {
            rc = merge_node(&merged.nodes[idx], s, err);
            if (rc != TOKENRING_OK)
                goto fail;
            continue;
        }
        if (merged.n == merged.cap) {
            size_t ncap = merged.cap ? merged.cap * 2 : 8;
            struct tr_cnode *nn = tr_reallocarray(merged.nodes, ncap, sizeof *nn);
            if (!nn) {
                rc = tr_cl_fail_nomem(err);
                goto fail;
            }
            merged.nodes = nn;
            merged.cap = ncap;
        }
        merged.nodes[merged.n] = *s;
        memset(s, 0, sizeof *s);
        if (hash_add(&merged, merged.n++) != TOKENRING_OK) {
            rc = tr_cl_fail_nomem(err);
            goto fail; /* the node moved in is counted: freed with merged */
        }
        s->name = NULL;
    }
    for (size_t i = 0; i < staging->nks; i++) {
        struct tr_keyspace *k = &staging->ks[i];
        rc = tr_cl_add_keyspace_at(&merged, k->name, strlen(k->name), k->repl, k->line, 1,
                                   err);
        k->repl = NULL; /* owned (and freed on failure) by tr_cl_add_keyspace_at */
        if (rc != TOKENRING_OK)
            goto fail;
    }
    for (size_t i = 0; i < staging->nskipped; i++) {
        const struct tr_skipped *k = &staging->skipped[i];
        rc = tr_cl_add_skipped(&merged, k->name, strlen(k->name), k->cls, strlen(k->cls), 0,
                               0, err);
        if (rc != TOKENRING_OK)
            goto fail;
    }
    merged.flags |= staging->flags;
    rc = rebuild_topology(&merged, err);
    if (rc != TOKENRING_OK)
        goto fail;
    tr_cl_clear(target);
    *target = merged;
    return TOKENRING_OK;
fail:
    tr_cl_clear(&merged);
    return rc;
}



/* Parses a comma-separated token list s[0..n) at column col0 into node idx. An empty
 * list is allowed only when allow_empty. */
int tr_cl_add_token_list(tokenring_cluster *cl, size_t idx, const char *s, size_t n,
                          uint32_t line, uint32_t col0, tokenring_error *err)
{
    size_t i = 0;
    while (i < n) {
        size_t start = i;
        while (i < n && s[i] != ',')
            i++;
        if (i == start)
            return tr_fail_at(err, TOKENRING_E_PARSE, line, col0 + (uint32_t)start,
                              cl->partitioner == TOKENRING_PARTITIONER_MURMUR3
                                  ? "expected a token (a signed 64-bit integer) before ','"
                                  : "expected a token before ','");
        int rc = tr_cl_add_token_text(cl, idx, s + start, i - start, line,
                                      col0 + (uint32_t)start, err);
        if (rc != TOKENRING_OK)
            return rc;
        if (i < n) {
            i++; /* ',' */
            if (i == n)
                break; /* a trailing comma before a continuation line */
        }
    }
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_cluster_add_topology(tokenring_cluster *cluster,
                                                 const tokenring_topology *topology,
                                                 tokenring_error *err)
{
    if (cluster == NULL || topology == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "NULL cluster or topology");
    tokenring_cluster staging;
    memset(&staging, 0, sizeof staging);
    staging.partitioner = tokenring_topology_partitioner(topology);
    int rc = TOKENRING_OK;
    size_t n = tokenring_topology_node_count(topology);
    for (size_t i = 0; i < n && rc == TOKENRING_OK; i++) {
        tokenring_node_info info;
        rc = tokenring_topology_node(&info, topology, i);
        if (rc != TOKENRING_OK) {
            rc = tr_fail(err, rc, "cannot read node %zu of the topology", i);
            break;
        }
        size_t idx;
        rc = tr_cl_node(&staging, info.name, strlen(info.name), info.datacenter,
                        strlen(info.datacenter), info.rack, strlen(info.rack), 0, 0, 0, 0, &idx,
                        NULL, err);
        for (size_t j = 0; j < info.token_count && rc == TOKENRING_OK; j++) {
            if (staging.partitioner == TOKENRING_PARTITIONER_MURMUR3) {
                rc = tr_cl_add_token(&staging, idx, info.tokens[j], 0, 0, err);
            } else if (staging.partitioner == TOKENRING_PARTITIONER_RANDOM) {
                tokenring_token128 t = { 0, 0 };
                rc = tokenring_topology_node_token128(&t, topology, i, j);
                tr_tok v = tr_tok_128(t);
                if (rc == TOKENRING_OK)
                    rc = add_vtok(&staging, idx, &v, 0, 0, err);
            } else {
                const uint8_t *b = NULL;
                size_t bn = 0;
                rc = tokenring_topology_node_token_bytes(&b, &bn, topology, i, j);
                tr_tok v = tr_tok_bytes(b, bn);
                if (rc == TOKENRING_OK)
                    rc = add_vtok(&staging, idx, &v, 0, 0, err);
            }
        }
        if (rc == TOKENRING_OK) {
            staging.nodes[idx].state = info.state;
            staging.nodes[idx].liveness = info.liveness;
        }
    }
    if (rc == TOKENRING_OK)
        rc = tr_cl_finish(&staging, err);
    if (rc == TOKENRING_OK)
        rc = tr_cl_merge(cluster, &staging, err);
    tr_cl_clear(&staging);
    return rc;
}

TOKENRING_API int tokenring_cluster_add_keyspace(tokenring_cluster *cluster, const char *name,
                                                 const tokenring_replication *replication,
                                                 tokenring_error *err)
{
    if (cluster == NULL || name == NULL || replication == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "NULL cluster, name or replication");
    tokenring_replication *copy = NULL;
    int rc = repl_clone(&copy, replication);
    if (rc != TOKENRING_OK)
        return tr_fail(err, rc, "cannot copy the replication: %s", tokenring_strerror(rc));
    /* tr_cl_add_keyspace_at frees the copy on failure; positions are 0 (no text). */
    rc = tr_cl_add_keyspace_at(cluster, name, strlen(name), copy, 0, 0, err);
    if (rc != TOKENRING_OK && err) {
        err->line = 0;
        err->column = 0;
    }
    return rc;
}

TOKENRING_API int tokenring_cluster_node_columns(const char **load_out, const char **owns_out,
                                                 const tokenring_cluster *cluster,
                                                 size_t index)
{
    if (cluster == NULL || (load_out == NULL && owns_out == NULL))
        return TOKENRING_E_INVAL;
    if (index >= cluster->n)
        return TOKENRING_E_RANGE;
    if (load_out)
        *load_out = cluster->nodes[index].load;
    if (owns_out)
        *owns_out = cluster->nodes[index].owns;
    return TOKENRING_OK;
}

TOKENRING_API size_t tokenring_cluster_skipped_keyspace_count(const tokenring_cluster *cluster)
{
    return cluster ? cluster->nskipped : 0;
}

TOKENRING_API int tokenring_cluster_skipped_keyspace(const char **name_out,
                                                     const char **class_out,
                                                     const tokenring_cluster *cluster,
                                                     size_t index)
{
    if (cluster == NULL || (name_out == NULL && class_out == NULL))
        return TOKENRING_E_INVAL;
    if (index >= cluster->nskipped)
        return TOKENRING_E_RANGE;
    if (name_out)
        *name_out = cluster->skipped[index].name;
    if (class_out)
        *class_out = cluster->skipped[index].cls;
    return TOKENRING_OK;
}

TOKENRING_API size_t tokenring_cluster_node_count(const tokenring_cluster *cluster)
{
    return cluster ? cluster->n : 0;
}

TOKENRING_API int tokenring_cluster_node(tokenring_cluster_node_info *out,
                                         const tokenring_cluster *cluster, size_t index)
{
    if (out == NULL || cluster == NULL)
        return TOKENRING_E_INVAL;
    if (index >= cluster->n)
        return TOKENRING_E_RANGE;
    const struct tr_cnode *nd = &cluster->nodes[index];
    memset(out, 0, sizeof *out);
    out->name = nd->name;
    out->datacenter = nd->dc;
    out->rack = nd->rack;
    out->host_id = nd->host_id;
    out->tokens = nd->known && nd->tokens ? nd->tokens : NULL;
    out->token_count = nd->known && nd->tokens ? nd->ntok : 0;
    out->declared_tokens = nd->known ? nd->ntok : nd->declared;
    out->state = nd->state;
    out->liveness = nd->liveness;
    out->line = nd->line;
    return TOKENRING_OK;
}

TOKENRING_API const tokenring_topology *tokenring_cluster_topology(const tokenring_cluster *cluster)
{
    return cluster ? cluster->topo : NULL;
}

TOKENRING_API uint32_t tokenring_cluster_flags(const tokenring_cluster *cluster)
{
    return cluster ? cluster->flags : 0;
}

TOKENRING_API size_t tokenring_cluster_keyspace_count(const tokenring_cluster *cluster)
{
    return cluster ? cluster->nks : 0;
}

TOKENRING_API int tokenring_cluster_keyspace(const char **name_out,
                                             const tokenring_replication **replication_out,
                                             const tokenring_cluster *cluster, size_t index)
{
    if (cluster == NULL)
        return TOKENRING_E_INVAL;
    if (index >= cluster->nks)
        return TOKENRING_E_RANGE;
    if (name_out)
        *name_out = cluster->ks[index].name;
    if (replication_out)
        *replication_out = cluster->ks[index].repl;
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_cluster_find_keyspace(size_t *index_out,
                                                  const tokenring_cluster *cluster,
                                                  const char *name)
{
    if (index_out == NULL || cluster == NULL || name == NULL)
        return TOKENRING_E_INVAL;
    for (size_t i = 0; i < cluster->nks; i++) {
        if (strcmp(cluster->ks[i].name, name) == 0) {
            *index_out = i;
            return TOKENRING_OK;
        }
    }
    return TOKENRING_E_NOTFOUND;
}

TOKENRING_API int tokenring_cluster_set_partitioner(tokenring_cluster *cluster,
                                                    tokenring_partitioner partitioner,
                                                    tokenring_error *err)
{
    if (cluster == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "NULL cluster");
    if (tokenring_partitioner_name(partitioner) == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "unknown partitioner %d", (int)partitioner);
    if (partitioner != cluster->partitioner) {
        if (cluster->partitioner_fixed)
            return tr_fail(err, TOKENRING_E_EXISTS, "the cluster's partitioner is already %s",
                           tokenring_partitioner_name(cluster->partitioner));
        for (size_t i = 0; i < cluster->n; i++)
            if (cluster->nodes[i].ntok)
                return tr_fail(err, TOKENRING_E_EXISTS,
                               "the cluster already holds %s tokens (node %s)",
                               tokenring_partitioner_name(cluster->partitioner),
                               cluster->nodes[i].name);
    }
    cluster->partitioner = partitioner;
    cluster->partitioner_fixed = true;
    cluster->flags &= ~TOKENRING_CLUSTER_PARTITIONER_INFERRED;
    return TOKENRING_OK;
}

TOKENRING_API tokenring_partitioner tokenring_cluster_partitioner(
    const tokenring_cluster *cluster)
{
    return cluster ? cluster->partitioner : TOKENRING_PARTITIONER_MURMUR3;
}
