/* SPDX-License-Identifier: Apache-2.0 */
/* The cluster document (nodes + keyspaces), merging parsed inputs into it, the topology
 * file format (reader and writer), the golden-vector TSV reader and format detection.
 * Nodes become a topology only through the public builder calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_internal.h"

/* ------------------------------------------------------------------ helpers */

void tr_lines_init(tr_lines *ls, const char *text, size_t len)
{
    ls->text = text;
    ls->len = text ? len : 0;
    ls->pos = 0;
    ls->lineno = 0;
    if (ls->len >= 3 && (unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB &&
        (unsigned char)text[2] == 0xBF)
        ls->pos = 3;
}

bool tr_lines_next(tr_lines *ls, const char **line, size_t *n)
{
    if (ls->pos >= ls->len)
        return false;
    const char *start = ls->text + ls->pos;
    const char *nl = memchr(start, '\n', ls->len - ls->pos);
    size_t len = nl ? (size_t)(nl - start) : ls->len - ls->pos;
    ls->pos += len + (nl ? 1 : 0);
    if (len > 0 && start[len - 1] == '\r')
        len--;
    ls->lineno++;
    *line = start;
    *n = len;
    return true;
}

bool tr_is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\f' && s[i] != '\v')
            return false;
    return true;
}

bool tr_starts_with(const char *s, size_t n, const char *prefix)
{
    size_t p = strlen(prefix);
    return n >= p && memcmp(s, prefix, p) == 0;
}

size_t tr_split_words(const char *line, size_t n, tr_word *words, size_t max)
{
    size_t count = 0, i = 0;
    while (i < n) {
        while (i < n && (line[i] == ' ' || line[i] == '\t'))
            i++;
        if (i >= n)
            break;
        size_t start = i;
        while (i < n && line[i] != ' ' && line[i] != '\t')
            i++;
        if (count == max)
            return max + 1;
        words[count].s = line + start;
        words[count].n = i - start;
        words[count].col = (uint32_t)start + 1;
        count++;
    }
    return count;
}

int tr_parse_i64(const char *s, size_t n, int64_t *out)
{
    size_t i = 0;
    bool neg = false;
    if (n > 0 && (s[0] == '-' || s[0] == '+')) {
        neg = s[0] == '-';
        i = 1;
    }
    if (i >= n)
        return TOKENRING_E_PARSE;
    uint64_t v = 0;
    const uint64_t limit = neg ? (uint64_t)INT64_MAX + 1u : (uint64_t)INT64_MAX;
    bool overflow = false;
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return TOKENRING_E_PARSE;
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (limit - d) / 10)
            overflow = true;
        else
            v = v * 10 + d;
    }
    if (overflow)
        return TOKENRING_E_RANGE;
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return TOKENRING_OK;
}

static int fail_nomem(tokenring_error *err)
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
    tr_free(nd->tokens);
    tr_free(nd->tok_pos);
    memset(nd, 0, sizeof *nd);
}

static void cluster_clear(tokenring_cluster *cl)
{
    for (size_t i = 0; i < cl->n; i++)
        cnode_clear(&cl->nodes[i]);
    tr_free(cl->nodes);
    for (size_t i = 0; i < cl->nks; i++) {
        tr_free(cl->ks[i].name);
        tokenring_replication_free(cl->ks[i].repl);
    }
    tr_free(cl->ks);
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
    cluster_clear(cluster);
    tr_free(cluster);
}

static uint64_t name_hash(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ULL;
    }
    return h;
}

/* Adds node idx to the name index, growing it as needed. */
static int hash_add(tokenring_cluster *cl, size_t idx)
{
    if (cl->hashed != idx)
        return TOKENRING_OK; /* not a cluster built row by row: lookups scan */
    if ((cl->hashed + 1) * 2 > cl->hcap) {
        size_t ncap = cl->hcap ? cl->hcap * 2 : 64;
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
    }
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
    int rc = tr_check_name(&tmp, what, name);
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
        rc = fail_nomem(err);
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
            rc = fail_nomem(err);
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
        rc = fail_nomem(err);
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

int tr_cl_add_token(tokenring_cluster *cl, size_t idx, int64_t token, uint32_t line,
                    uint32_t col, tokenring_error *err)
{
    struct tr_cnode *nd = &cl->nodes[idx];
    if (nd->ntok == nd->tcap) {
        size_t ncap = nd->tcap ? nd->tcap * 2 : 8;
        int64_t *t = tr_reallocarray(nd->tokens, ncap, sizeof *t);
        if (!t)
            return fail_nomem(err);
        nd->tokens = t;
        uint64_t *p = tr_reallocarray(nd->tok_pos, ncap, sizeof *p);
        if (!p)
            return fail_nomem(err);
        nd->tok_pos = p;
        nd->tcap = ncap;
    }
    nd->tokens[nd->ntok] = token;
    nd->tok_pos[nd->ntok] = ((uint64_t)line << 32) | col;
    nd->ntok++;
    nd->known = true;
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
        return fail_nomem(err);
    int rc = check_name_at(err, "host ID", id, line, col);
    if (rc != TOKENRING_OK) {
        tr_free(id);
        return rc;
    }
    nd->host_id = id;
    return TOKENRING_OK;
}

static int check_keyspace_name(const char *s, size_t n, uint32_t line, uint32_t col,
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

int tr_cl_add_keyspace_at(tokenring_cluster *cl, const char *name, size_t n,
                          tokenring_replication *repl_owned, uint32_t line, uint32_t col,
                          tokenring_error *err)
{
    int rc = check_keyspace_name(name, n, line, col, err);
    if (rc != TOKENRING_OK)
        goto fail;
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
            rc = fail_nomem(err);
            goto fail;
        }
        cl->ks = k;
        cl->kcap = ncap;
    }
    char *dup = tr_strndup(name, n);
    if (!dup) {
        rc = fail_nomem(err);
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
    return rc;
}

/* --------------------------------------------------------- finish and merge */

struct tokpos {
    int64_t token;
    uint64_t pos;
    size_t node;
};

static int cmp_tokpos(const void *a, const void *b)
{
    const struct tokpos *x = a, *y = b;
    if (x->token != y->token)
        return x->token < y->token ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* Sorts each node's tokens and rejects a token given twice, naming the later place. */
static int finish_staging(tokenring_cluster *cl, tokenring_error *err)
{
    size_t total = 0;
    for (size_t i = 0; i < cl->n; i++)
        total += cl->nodes[i].ntok;
    if (total > 0) {
        struct tokpos *all = tr_calloc(total, sizeof *all);
        if (!all)
            return fail_nomem(err);
        size_t k = 0;
        for (size_t i = 0; i < cl->n; i++)
            for (size_t j = 0; j < cl->nodes[i].ntok; j++)
                all[k++] = (struct tokpos){ cl->nodes[i].tokens[j], cl->nodes[i].tok_pos[j], i };
        qsort(all, total, sizeof *all, cmp_tokpos);
        for (size_t i = 1; i < total; i++) {
            if (all[i].token == all[i - 1].token) {
                const struct tokpos *a = &all[i - 1], *b = &all[i];
                int rc = tr_fail_at(err, TOKENRING_E_EXISTS, (uint32_t)(b->pos >> 32),
                                    (uint32_t)b->pos,
                                    "token %lld of node %s is already held by node %s "
                                    "(line %u)",
                                    (long long)b->token, cl->nodes[b->node].name,
                                    cl->nodes[a->node].name, (unsigned)(a->pos >> 32));
                tr_free(all);
                return rc;
            }
        }
        tr_free(all);
    }
    for (size_t i = 0; i < cl->n; i++) {
        struct tr_cnode *nd = &cl->nodes[i];
        if (nd->ntok > 1)
            qsort(nd->tokens, nd->ntok, sizeof *nd->tokens, cmp_i64);
        tr_free(nd->tok_pos);
        nd->tok_pos = NULL;
        if (nd->known)
            nd->declared = nd->ntok;
    }
    return TOKENRING_OK;
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
    int rc = tokenring_topology_new(&t);
    if (rc != TOKENRING_OK)
        return tr_fail(err, rc, "cannot create a topology: %s", tokenring_strerror(rc));
    for (size_t i = 0; i < cl->n; i++) {
        const struct tr_cnode *nd = &cl->nodes[i];
        tokenring_error tmp;
        memset(&tmp, 0, sizeof tmp);
        rc = tokenring_topology_add_node(t, nd->name, nd->dc, nd->rack, nd->tokens, nd->ntok,
                                         &tmp);
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
        if (dst->ntok != src->ntok ||
            memcmp(dst->tokens, src->tokens, dst->ntok * sizeof *dst->tokens) != 0)
            return tr_fail_at(err, TOKENRING_E_EXISTS, src->line, src->column,
                              "node %s has different tokens in an earlier input", dst->name);
    } else if (src->known) {
        if (dst->declared && dst->declared != src->ntok)
            return tr_fail_at(err, TOKENRING_E_EXISTS, src->line, src->column,
                              "node %s has %zu tokens here but %zu in an earlier input",
                              dst->name, src->ntok, dst->declared);
        tr_free(dst->tokens);
        dst->tokens = src->tokens;
        dst->ntok = dst->tcap = src->ntok;
        dst->known = true;
        dst->declared = src->ntok;
        src->tokens = NULL;
        src->ntok = 0;
    } else if (dst->known) {
        if (src->declared && src->declared != dst->ntok)
            return tr_fail_at(err, TOKENRING_E_EXISTS, src->line, src->column,
                              "node %s has %zu tokens here but %zu in an earlier input",
                              dst->name, src->declared, dst->ntok);
    } else if (dst->declared == 0) {
        dst->declared = src->declared;
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
        d->name = d->dc = d->rack = d->host_id = NULL;
        d->tokens = NULL;
        d->tok_pos = NULL;
        dst->n = i + 1;
        d->name = tr_strdup(s->name);
        d->dc = tr_strdup(s->dc);
        d->rack = tr_strdup(s->rack);
        if (!d->name || !d->dc || !d->rack)
            return TOKENRING_E_NOMEM;
        if (s->host_id && !(d->host_id = tr_strdup(s->host_id)))
            return TOKENRING_E_NOMEM;
        if (s->ntok) {
            d->tokens = tr_calloc(s->ntok, sizeof *d->tokens);
            if (!d->tokens)
                return TOKENRING_E_NOMEM;
            memcpy(d->tokens, s->tokens, s->ntok * sizeof *d->tokens);
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
    return TOKENRING_OK;
}

/* Merges staging into a copy of target; on success the copy replaces target. */
static int merge_into(tokenring_cluster *target, tokenring_cluster *staging,
                      tokenring_error *err)
{
    tokenring_cluster merged;
    int rc = cluster_copy(&merged, target);
    if (rc != TOKENRING_OK) {
        cluster_clear(&merged);
        return fail_nomem(err);
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
                rc = fail_nomem(err);
                goto fail;
            }
            merged.nodes = nn;
            merged.cap = ncap;
        }
        merged.nodes[merged.n++] = *s;
        memset(s, 0, sizeof *s);
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
    merged.flags |= staging->flags;
    rc = rebuild_topology(&merged, err);
    if (rc != TOKENRING_OK)
        goto fail;
    cluster_clear(target);
    *target = merged;
    return TOKENRING_OK;
fail:
    cluster_clear(&merged);
    return rc;
}

/* Staging nodes moved into merged are zeroed; cluster_clear copes with NULL names. */

TOKENRING_API int tokenring_cluster_parse(tokenring_cluster *cluster, int format,
                                          const char *text, size_t len, uint32_t flags,
                                          int *format_out, tokenring_error *err)
{
    if (cluster == NULL || (text == NULL && len > 0))
        return tr_fail(err, TOKENRING_E_INVAL, "NULL cluster or text");
    if (flags & ~TOKENRING_PARSE_ALLOW_PARTIAL)
        return tr_fail(err, TOKENRING_E_INVAL, "unknown flag 0x%x", (unsigned)flags);
    if (format == TOKENRING_INPUT_AUTO) {
        format = tokenring_input_detect(text, len);
        if (format == TOKENRING_INPUT_AUTO)
            return tr_fail_at(err, TOKENRING_E_PARSE, 1, 1,
                              "cannot recognise the input: expected a topology file, "
                              "nodetool ring or status output, or a cqlsh table");
    }
    /* A NUL byte would silently cut names short: reject it up front. */
    const char *nul = len ? memchr(text, '\0', len) : NULL;
    if (nul) {
        uint32_t line = 1, col = 1;
        for (const char *p = text; p < nul; p++) {
            if (*p == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        return tr_fail_at(err, TOKENRING_E_PARSE, line, col, "unexpected NUL byte");
    }
    tokenring_cluster staging;
    memset(&staging, 0, sizeof staging);
    int rc;
    switch (format) {
    case TOKENRING_INPUT_TOPOLOGY:
        rc = tr_parse_topology_text(&staging, text, len, flags, err);
        break;
    case TOKENRING_INPUT_TSV:
        rc = tr_parse_tsv_text(&staging, text, len, flags, err);
        break;
    case TOKENRING_INPUT_NODETOOL_RING:
        rc = tr_parse_ring_text(&staging, text, len, flags, err);
        break;
    case TOKENRING_INPUT_NODETOOL_STATUS:
        rc = tr_parse_status_text(&staging, text, len, flags, err);
        break;
    case TOKENRING_INPUT_CQLSH:
        rc = tr_parse_cqlsh_text(&staging, text, len, flags, err);
        break;
    default:
        return tr_fail(err, TOKENRING_E_INVAL, "unknown input format %d", format);
    }
    if (rc == TOKENRING_OK)
        rc = finish_staging(&staging, err);
    if (rc == TOKENRING_OK)
        rc = merge_into(cluster, &staging, err);
    cluster_clear(&staging);
    if (rc == TOKENRING_OK && format_out)
        *format_out = format;
    return rc;
}

TOKENRING_API int tokenring_cluster_add_topology(tokenring_cluster *cluster,
                                                 const tokenring_topology *topology,
                                                 tokenring_error *err)
{
    if (cluster == NULL || topology == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "NULL cluster or topology");
    tokenring_cluster staging;
    memset(&staging, 0, sizeof staging);
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
        for (size_t j = 0; j < info.token_count && rc == TOKENRING_OK; j++)
            rc = tr_cl_add_token(&staging, idx, info.tokens[j], 0, 0, err);
        if (rc == TOKENRING_OK) {
            staging.nodes[idx].state = info.state;
            staging.nodes[idx].liveness = info.liveness;
        }
    }
    if (rc == TOKENRING_OK)
        rc = finish_staging(&staging, err);
    if (rc == TOKENRING_OK)
        rc = merge_into(cluster, &staging, err);
    cluster_clear(&staging);
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
    out->tokens = nd->known ? nd->tokens : NULL;
    out->token_count = nd->known ? nd->ntok : 0;
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

/* ------------------------------------------------------------ format detect */

TOKENRING_API const char *tokenring_input_format_name(int format)
{
    switch (format) {
    case TOKENRING_INPUT_AUTO: return "auto";
    case TOKENRING_INPUT_TOPOLOGY: return "topology";
    case TOKENRING_INPUT_TSV: return "tsv";
    case TOKENRING_INPUT_NODETOOL_RING: return "nodetool-ring";
    case TOKENRING_INPUT_NODETOOL_STATUS: return "nodetool-status";
    case TOKENRING_INPUT_CQLSH: return "cqlsh";
    }
    return "unknown";
}

static bool is_cqlsh_rule(const char *s, size_t n)
{
    bool dash = false, plus = false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '-')
            dash = true;
        else if (s[i] == '+')
            plus = true;
        else if (s[i] != ' ' && s[i] != '\t')
            return false;
    }
    return dash && (plus || n > 0);
}

TOKENRING_API int tokenring_input_detect(const char *text, size_t len)
{
    if (text == NULL)
        return TOKENRING_INPUT_AUTO;
    tr_lines ls;
    tr_lines_init(&ls, text, len);
    const char *line, *prev = NULL;
    size_t n, prev_n = 0;
    int seen = 0;
    bool saw_dc = false;
    while (seen < 40 && tr_lines_next(&ls, &line, &n)) {
        if (tr_is_blank(line, n))
            continue;
        seen++;
        size_t i = 0;
        while (i < n && (line[i] == ' ' || line[i] == '\t'))
            i++;
        const char *t = line + i;
        size_t tn = n - i;
        if (seen == 1 && tr_starts_with(line, n, "node\tdc\track\ttokens"))
            return TOKENRING_INPUT_TSV;
        if (tr_starts_with(t, tn, "Status=Up/Down") || tr_starts_with(t, tn, "--  Address") ||
            tr_starts_with(t, tn, "|/ State="))
            return TOKENRING_INPUT_NODETOOL_STATUS;
        if (tr_starts_with(t, tn, "Datacenter:"))
            saw_dc = true;
        if (i == 0 && tr_starts_with(t, tn, "Address") && tn > 7 &&
            (t[7] == ' ' || t[7] == '\t')) {
            for (size_t k = 0; k + 5 <= tn; k++)
                if (memcmp(t + k, "Token", 5) == 0)
                    return TOKENRING_INPUT_NODETOOL_RING;
        }
        if (prev && memchr(prev, '|', prev_n) && is_cqlsh_rule(line, n) &&
            memchr(line, '+', n))
            return TOKENRING_INPUT_CQLSH;
        if (!saw_dc && i == 0 &&
            ((tn > 5 && memcmp(t, "node", 4) == 0 && (t[4] == ' ' || t[4] == '\t')) ||
             (tn > 9 && memcmp(t, "keyspace", 8) == 0 && (t[8] == ' ' || t[8] == '\t'))))
            return TOKENRING_INPUT_TOPOLOGY;
        if (t[0] == '#' && !saw_dc) {
            /* a comment line: only the topology format has them */
            return TOKENRING_INPUT_TOPOLOGY;
        }
        prev = line;
        prev_n = n;
    }
    return TOKENRING_INPUT_AUTO;
}

/* ------------------------------------------------------- topology file: read */

/* Scans a value at s[i..n): a "quoted string" with \" \\ \n \t \r escapes, or a run of
 * characters up to whitespace. The unescaped value is written to buf (cap
 * TOKENRING_MAX_NAME * 4 + 1 is plenty for names; longer values fail). */
static int scan_value(const char *s, size_t n, size_t *i, char *buf, size_t cap,
                      size_t *out_len, uint32_t line, tokenring_error *err)
{
    size_t k = *i, o = 0;
    if (k < n && s[k] == '"') {
        size_t open = k;
        k++;
        for (;;) {
            if (k >= n)
                return tr_fail_at(err, TOKENRING_E_PARSE, line, (uint32_t)open + 1,
                                  "unterminated quoted string: expected a closing '\"'");
            char c = s[k++];
            if (c == '"')
                break;
            if (c == '\\') {
                if (k >= n)
                    continue;
                char e = s[k++];
                switch (e) {
                case 'n': c = '\n'; break;
                case 't': c = '\t'; break;
                case 'r': c = '\r'; break;
                case '"': case '\\': c = e; break;
                default:
                    return tr_fail_at(err, TOKENRING_E_PARSE, line, (uint32_t)k - 1,
                                      "unknown escape '\\%c': expected \\\" \\\\ \\n \\t or "
                                      "\\r", e);
                }
            }
            if (o + 1 >= cap)
                return tr_fail_at(err, TOKENRING_E_RANGE, line, (uint32_t)open + 1,
                                  "quoted value is too long");
            buf[o++] = c;
        }
        if (k < n && s[k] != ' ' && s[k] != '\t')
            return tr_fail_at(err, TOKENRING_E_PARSE, line, (uint32_t)k + 1,
                              "expected whitespace after the closing '\"'");
    } else {
        while (k < n && s[k] != ' ' && s[k] != '\t') {
            if (o + 1 >= cap)
                return tr_fail_at(err, TOKENRING_E_RANGE, line, (uint32_t)*i + 1,
                                  "value is too long");
            buf[o++] = s[k++];
        }
    }
    buf[o] = '\0';
    *out_len = o;
    *i = k;
    return TOKENRING_OK;
}

/* Length of the line without a trailing comment: '#' at the start or after whitespace,
 * outside double (and, if single_quotes, single) quotes. */
static size_t strip_comment(const char *s, size_t n, bool single_quotes)
{
    bool dq = false, sq = false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (dq) {
            if (c == '\\')
                i++;
            else if (c == '"')
                dq = false;
        } else if (sq) {
            if (c == '\'')
                sq = false;
        } else if (c == '"') {
            dq = true;
        } else if (c == '\'' && single_quotes) {
            sq = true;
        } else if (c == '#' && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t')) {
            n = i;
            break;
        }
    }
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    return n;
}

/* Parses a comma-separated token list s[0..n) at column col0 into node idx. An empty
 * list is allowed only when allow_empty. */
static int parse_token_list(tokenring_cluster *cl, size_t idx, const char *s, size_t n,
                            uint32_t line, uint32_t col0, tokenring_error *err)
{
    size_t i = 0;
    while (i < n) {
        size_t start = i;
        while (i < n && s[i] != ',')
            i++;
        if (i == start)
            return tr_fail_at(err, TOKENRING_E_PARSE, line, col0 + (uint32_t)start,
                              "expected a token (a signed 64-bit integer) before ','");
        int64_t v;
        int rc = tr_parse_i64(s + start, i - start, &v);
        if (rc == TOKENRING_E_RANGE)
            return tr_fail_at(err, rc, line, col0 + (uint32_t)start,
                              "token '%.*s' is outside -9223372036854775808.."
                              "9223372036854775807", (int)(i - start), s + start);
        if (rc != TOKENRING_OK)
            return tr_fail_at(err, TOKENRING_E_PARSE, line, col0 + (uint32_t)start,
                              "expected a token (a signed 64-bit integer), found '%.*s'",
                              (int)(i - start), s + start);
        rc = tr_cl_add_token(cl, idx, v, line, col0 + (uint32_t)start, err);
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

static int parse_state(const char *v, int32_t *state)
{
    static const char *names[] = { "normal", "joining", "leaving", "moving" };
    for (int k = 0; k < 4; k++)
        if (strcmp(v, names[k]) == 0) {
            *state = k;
            return 0;
        }
    return -1;
}

static int parse_liveness(const char *v, int32_t *live)
{
    static const char *names[] = { "up", "down", "unknown" };
    for (int k = 0; k < 3; k++)
        if (strcmp(v, names[k]) == 0) {
            *live = k;
            return 0;
        }
    return -1;
}

#define VALUE_CAP (TOKENRING_MAX_NAME * 4 + 2)

static int parse_node_stmt(tokenring_cluster *cl, const char *s, size_t n, size_t i,
                           uint32_t line, bool *tokens_open, size_t *node_idx,
                           tokenring_error *err)
{
    char name[VALUE_CAP], dc[VALUE_CAP], rack[VALUE_CAP];
    char val[VALUE_CAP];
    size_t name_len = 0, dc_len = 0, rack_len = 0, vlen;
    bool have_dc = false, have_rack = false, have_tokens = false, have_num = false;
    bool have_state = false, have_status = false, have_host = false;
    uint32_t name_col, rack_col = 0, dc_col = 0;
    int32_t state = TOKENRING_STATE_NORMAL, live = TOKENRING_UP;
    int64_t num_tokens = 0;
    uint32_t num_col = 0;
    const char *tok_s = NULL;
    char host[VALUE_CAP];
    size_t tok_n = 0, host_n = 0;
    uint32_t tok_col = 0, host_col = 0;
    int rc;

    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i >= n)
        return tr_fail_at(err, TOKENRING_E_PARSE, line, (uint32_t)i + 1,
                          "expected a node name after 'node'");
    name_col = (uint32_t)i + 1;
    if ((rc = scan_value(s, n, &i, name, sizeof name, &name_len, line, err)) != TOKENRING_OK)
        return rc;
    for (;;) {
        while (i < n && (s[i] == ' ' || s[i] == '\t'))
            i++;
        if (i >= n)
            break;
        size_t kstart = i;
        while (i < n && s[i] != '=' && s[i] != ' ' && s[i] != '\t')
            i++;
        if (i >= n || s[i] != '=')
            return tr_fail_at(err, TOKENRING_E_PARSE, line, (uint32_t)kstart + 1,
                              "expected key=value (dc=, rack=, tokens=, num_tokens=, "
                              "state=, status=, host_id=), found '%.*s'",
                              (int)(i - kstart), s + kstart);
        const char *key = s + kstart;
        size_t klen = i - kstart;
        i++;
        uint32_t vcol = (uint32_t)i + 1;
#define KEY_IS(lit) (klen == sizeof(lit) - 1 && memcmp(key, lit, klen) == 0)
        bool dupkey = false;
        if (KEY_IS("tokens")) {
            dupkey = have_tokens;
            have_tokens = true;
            tok_s = s + i;
            while (i < n && s[i] != ' ' && s[i] != '\t')
                i++;
            tok_n = (size_t)(s + i - tok_s);
            tok_col = vcol;
        } else if (KEY_IS("host_id")) {
            dupkey = have_host;
            have_host = true;
            if ((rc = scan_value(s, n, &i, host, sizeof host, &host_n, line, err)) !=
                TOKENRING_OK)
                return rc;
            host_col = vcol;
        } else {
            if ((rc = scan_value(s, n, &i, val, sizeof val, &vlen, line, err)) != TOKENRING_OK)
                return rc;
            if (KEY_IS("dc")) {
                dupkey = have_dc;
                have_dc = true;
                memcpy(dc, val, vlen + 1);
                dc_len = vlen;
                dc_col = vcol;
            } else if (KEY_IS("rack")) {
                dupkey = have_rack;
                have_rack = true;
                memcpy(rack, val, vlen + 1);
                rack_len = vlen;
                rack_col = vcol;
            } else if (KEY_IS("state")) {
                dupkey = have_state;
                have_state = true;
                if (parse_state(val, &state) != 0)
                    return tr_fail_at(err, TOKENRING_E_PARSE, line, vcol,
                                      "expected state normal, joining, leaving or moving, "
                                      "found '%s'", val);
            } else if (KEY_IS("status")) {
                dupkey = have_status;
                have_status = true;
                if (parse_liveness(val, &live) != 0)
                    return tr_fail_at(err, TOKENRING_E_PARSE, line, vcol,
                                      "expected status up, down or unknown, found '%s'", val);
            } else if (KEY_IS("num_tokens")) {
                dupkey = have_num;
                have_num = true;
                num_col = vcol;
                rc = tr_parse_i64(val, vlen, &num_tokens);
                if (rc != TOKENRING_OK || num_tokens < 1 || num_tokens > 65536)
                    return tr_fail_at(err, rc == TOKENRING_OK ? TOKENRING_E_RANGE : rc, line,
                                      vcol, "expected num_tokens between 1 and 65536, "
                                      "found '%s'", val);
            } else {
                return tr_fail_at(err, TOKENRING_E_PARSE, line, (uint32_t)kstart + 1,
                                  "unknown key '%.*s': expected dc, rack, tokens, "
                                  "num_tokens, state, status or host_id", (int)klen, key);
            }
        }
        if (dupkey)
            return tr_fail_at(err, TOKENRING_E_PARSE, line, (uint32_t)kstart + 1,
                              "'%.*s=' is given twice", (int)klen, key);
#undef KEY_IS
    }
    if (!have_dc)
        return tr_fail_at(err, TOKENRING_E_PARSE, line, (uint32_t)n + 1,
                          "node %s: expected dc=<datacenter>", name);
    if (!have_rack)
        return tr_fail_at(err, TOKENRING_E_PARSE, line, (uint32_t)n + 1,
                          "node %s: expected rack=<rack>", name);
    if (!have_tokens && !have_num)
        return tr_fail_at(err, TOKENRING_E_PARSE, line, (uint32_t)n + 1,
                          "node %s: expected tokens=<t1>,<t2>,..., tokens=? or "
                          "num_tokens=<n>", name);
    size_t idx;
    bool created;
    rc = tr_cl_node(cl, name, name_len, dc, dc_len, rack, rack_len, line, name_col, dc_col,
                    rack_col, &idx, &created, err);
    if (rc != TOKENRING_OK)
        return rc;
    if (!created)
        return tr_fail_at(err, TOKENRING_E_EXISTS, line, name_col,
                          "node %s is already defined on line %u", name,
                          (unsigned)cl->nodes[idx].line);
    struct tr_cnode *nd = &cl->nodes[idx];
    nd->state = state;
    nd->liveness = live;
    if (have_host &&
        (rc = tr_cl_set_host_id(cl, idx, host, host_n, line, host_col, err)) != TOKENRING_OK)
        return rc;
    if (have_tokens && tok_n == 1 && tok_s[0] == '?') {
        if (have_num)
            return tr_fail_at(err, TOKENRING_E_PARSE, line, tok_col,
                              "node %s: give either tokens=? or num_tokens=<n>", name);
        *tokens_open = false;
    } else if (have_tokens) {
        rc = parse_token_list(cl, idx, tok_s, tok_n, line, tok_col, err);
        if (rc != TOKENRING_OK)
            return rc;
        nd->known = true;
        *tokens_open = true;
    } else {
        *tokens_open = false;
    }
    nd->declared = (size_t)num_tokens;
    (void)num_col;
    *node_idx = idx;
    return TOKENRING_OK;
}

static int check_node_complete(tokenring_cluster *cl, size_t idx, tokenring_error *err)
{
    struct tr_cnode *nd = &cl->nodes[idx];
    if (!nd->known)
        return TOKENRING_OK;
    if (nd->ntok == 0)
        return tr_fail_at(err, TOKENRING_E_EMPTY, nd->line, nd->column,
                          "node %s: 'tokens=' lists no token (expected at least one, or "
                          "num_tokens=<n> when the tokens are unknown)", nd->name);
    if (nd->declared && nd->declared != nd->ntok)
        return tr_fail_at(err, TOKENRING_E_PARSE, nd->line, nd->column,
                          "node %s: num_tokens=%zu but %zu tokens are listed", nd->name,
                          nd->declared, nd->ntok);
    return TOKENRING_OK;
}

int tr_parse_topology_text(tokenring_cluster *cl, const char *text, size_t len,
                           uint32_t flags, tokenring_error *err)
{
    (void)flags;
    tr_lines ls;
    tr_lines_init(&ls, text, len);
    const char *line;
    size_t n;
    bool in_node = false, tokens_open = false;
    size_t node_idx = 0;
    int rc;
    while (tr_lines_next(&ls, &line, &n)) {
        uint32_t ln = ls.lineno;
        bool indented = n > 0 && (line[0] == ' ' || line[0] == '\t');
        size_t i = 0;
        while (i < n && (line[i] == ' ' || line[i] == '\t'))
            i++;
        if (i < n && line[i] == '#')
            continue;
        size_t m = strip_comment(line, n, false);
        if (m <= i)
            continue;
        if (indented) {
            if (!in_node || !tokens_open)
                return tr_fail_at(err, TOKENRING_E_PARSE, ln, (uint32_t)i + 1,
                                  "unexpected indented line: continuation lines carry "
                                  "more tokens of the node above, after its 'tokens='");
            /* more tokens: comma- or space-separated */
            while (i < m) {
                size_t start = i;
                while (i < m && line[i] != ' ' && line[i] != '\t')
                    i++;
                rc = parse_token_list(cl, node_idx, line + start, i - start, ln,
                                      (uint32_t)start + 1, err);
                if (rc != TOKENRING_OK)
                    return rc;
                while (i < m && (line[i] == ' ' || line[i] == '\t'))
                    i++;
            }
            continue;
        }
        if (in_node && (rc = check_node_complete(cl, node_idx, err)) != TOKENRING_OK)
            return rc;
        in_node = false;
        tokens_open = false;
        size_t kw = 0;
        while (kw < m && line[kw] != ' ' && line[kw] != '\t')
            kw++;
        if (kw == 4 && memcmp(line, "node", 4) == 0) {
            rc = parse_node_stmt(cl, line, m, kw, ln, &tokens_open, &node_idx, err);
            if (rc != TOKENRING_OK)
                return rc;
            in_node = true;
        } else if (kw == 8 && memcmp(line, "keyspace", 8) == 0) {
            size_t mk = strip_comment(line, n, true);
            size_t k = kw;
            while (k < mk && (line[k] == ' ' || line[k] == '\t'))
                k++;
            size_t ns = k;
            while (k < mk && line[k] != ' ' && line[k] != '\t')
                k++;
            if (k == ns)
                return tr_fail_at(err, TOKENRING_E_PARSE, ln, (uint32_t)ns + 1,
                                  "expected a keyspace name after 'keyspace'");
            size_t ne = k;
            while (k < mk && (line[k] == ' ' || line[k] == '\t'))
                k++;
            if (k >= mk)
                return tr_fail_at(err, TOKENRING_E_PARSE, ln, (uint32_t)k + 1,
                                  "keyspace %.*s: expected a replication (e.g. "
                                  "NetworkTopologyStrategy:dc1=3 or SimpleStrategy:3)",
                                  (int)(ne - ns), line + ns);
            rc = check_keyspace_name(line + ns, ne - ns, ln, (uint32_t)ns + 1, err);
            if (rc != TOKENRING_OK)
                return rc;
            tokenring_replication *repl = NULL;
            tokenring_error tmp;
            memset(&tmp, 0, sizeof tmp);
            rc = tokenring_replication_parse(&repl, line + k, mk - k, &tmp);
            if (rc != TOKENRING_OK)
                return tr_fail_at(err, rc, ln,
                                  (uint32_t)k + 1 + (tmp.column ? tmp.column - 1 : 0),
                                  "keyspace %.*s: %s", (int)(ne - ns), line + ns,
                                  tmp.message[0] ? tmp.message : tokenring_strerror(rc));
            rc = tr_cl_add_keyspace_at(cl, line + ns, ne - ns, repl, ln, (uint32_t)ns + 1,
                                       err);
            if (rc != TOKENRING_OK)
                return rc;
        } else {
            return tr_fail_at(err, TOKENRING_E_PARSE, ln, 1,
                              "expected 'node', 'keyspace', a comment or a blank line, "
                              "found '%.*s'", (int)(kw > 40 ? 40 : kw), line);
        }
    }
    if (in_node && (rc = check_node_complete(cl, node_idx, err)) != TOKENRING_OK)
        return rc;
    return TOKENRING_OK;
}

/* ------------------------------------------------------------ TSV (vectors) */

int tr_parse_tsv_text(tokenring_cluster *cl, const char *text, size_t len, uint32_t flags,
                      tokenring_error *err)
{
    (void)flags;
    tr_lines ls;
    tr_lines_init(&ls, text, len);
    const char *line;
    size_t n;
    bool header = false;
    while (tr_lines_next(&ls, &line, &n)) {
        uint32_t ln = ls.lineno;
        if (!header) {
            if (!(n == 19 && memcmp(line, "node\tdc\track\ttokens", 19) == 0))
                return tr_fail_at(err, TOKENRING_E_PARSE, ln, 1,
                                  "expected the header 'node<TAB>dc<TAB>rack<TAB>tokens'");
            header = true;
            continue;
        }
        if (tr_is_blank(line, n))
            continue;
        const char *f[4];
        size_t fl[4];
        uint32_t fc[4];
        size_t nf = 0, start = 0;
        for (size_t i = 0; i <= n; i++) {
            if (i == n || line[i] == '\t') {
                if (nf == 4)
                    return tr_fail_at(err, TOKENRING_E_PARSE, ln, (uint32_t)start + 1,
                                      "expected 4 tab-separated fields, found more");
                f[nf] = line + start;
                fl[nf] = i - start;
                fc[nf] = (uint32_t)start + 1;
                nf++;
                start = i + 1;
            }
        }
        if (nf != 4)
            return tr_fail_at(err, TOKENRING_E_PARSE, ln, (uint32_t)n + 1,
                              "expected 4 tab-separated fields (node, dc, rack, tokens), "
                              "found %zu", nf);
        size_t idx;
        bool created;
        int rc = tr_cl_node(cl, f[0], fl[0], f[1], fl[1], f[2], fl[2], ln, fc[0], fc[1], fc[2],
                            &idx, &created, err);
        if (rc != TOKENRING_OK)
            return rc;
        if (!created)
            return tr_fail_at(err, TOKENRING_E_EXISTS, ln, fc[0],
                              "node %.*s is already defined on line %u", (int)fl[0], f[0],
                              (unsigned)cl->nodes[idx].line);
        if (fl[3] == 0)
            return tr_fail_at(err, TOKENRING_E_EMPTY, ln, fc[3],
                              "expected at least one token");
        rc = parse_token_list(cl, idx, f[3], fl[3], ln, fc[3], err);
        if (rc != TOKENRING_OK)
            return rc;
    }
    if (!header)
        return tr_fail_at(err, TOKENRING_E_PARSE, 1, 1,
                          "expected the header 'node<TAB>dc<TAB>rack<TAB>tokens'");
    return TOKENRING_OK;
}

/* ------------------------------------------------------ topology file: write */

typedef struct sbuf {
    char *p;
    size_t n, cap;
    bool oom;
} sbuf;

static void sb_put(sbuf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t ncap = b->cap ? b->cap : 1024;
        while (b->n + n + 1 > ncap)
            ncap *= 2;
        char *q = tr_realloc(b->p, ncap);
        if (!q) {
            b->oom = true;
            return;
        }
        b->p = q;
        b->cap = ncap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

static void sb_str(sbuf *b, const char *s)
{
    sb_put(b, s, strlen(s));
}

static void sb_value(sbuf *b, const char *s)
{
    bool quote = *s == '\0';
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c <= 0x20 || c == 0x7f || c == '#' || c == '"' || c == '\\' || c == '=')
            quote = true;
    }
    if (!quote) {
        sb_str(b, s);
        return;
    }
    sb_put(b, "\"", 1);
    for (const char *p = s; *p; p++) {
        switch (*p) {
        case '"': sb_put(b, "\\\"", 2); break;
        case '\\': sb_put(b, "\\\\", 2); break;
        case '\n': sb_put(b, "\\n", 2); break;
        case '\t': sb_put(b, "\\t", 2); break;
        case '\r': sb_put(b, "\\r", 2); break;
        default: sb_put(b, p, 1);
        }
    }
    sb_put(b, "\"", 1);
}

static void sb_i64(sbuf *b, int64_t v)
{
    char tmp[32];
    int k = snprintf(tmp, sizeof tmp, "%lld", (long long)v);
    sb_put(b, tmp, (size_t)k);
}

#define TOKENS_PER_LINE 6

TOKENRING_API int tokenring_cluster_format(char *out, size_t cap, size_t *len_out,
                                           const tokenring_cluster *cluster)
{
    static const char *states[] = { "normal", "joining", "leaving", "moving" };
    static const char *lives[] = { "up", "down", "unknown" };
    if (cluster == NULL || len_out == NULL || (out == NULL && cap > 0))
        return TOKENRING_E_INVAL;
    sbuf b = { 0 };
    sb_str(&b, "# tokenring topology file (format: doc/topology-format.md)\n");
    for (size_t i = 0; i < cluster->nks; i++) {
        size_t rl = 0;
        int rc = tokenring_replication_format(NULL, 0, &rl, cluster->ks[i].repl);
        if (rc != TOKENRING_OK && rc != TOKENRING_E_BUFSIZE) {
            tr_free(b.p);
            return rc;
        }
        char *r = tr_malloc(rl + 1);
        if (!r) {
            tr_free(b.p);
            return TOKENRING_E_NOMEM;
        }
        tokenring_replication_format(r, rl + 1, &rl, cluster->ks[i].repl);
        sb_str(&b, "keyspace ");
        sb_str(&b, cluster->ks[i].name);
        sb_str(&b, " ");
        sb_put(&b, r, rl);
        sb_str(&b, "\n");
        tr_free(r);
    }
    for (size_t i = 0; i < cluster->n; i++) {
        const struct tr_cnode *nd = &cluster->nodes[i];
        sb_str(&b, "node ");
        sb_value(&b, nd->name);
        sb_str(&b, " dc=");
        sb_value(&b, nd->dc);
        sb_str(&b, " rack=");
        sb_value(&b, nd->rack);
        if (nd->state != TOKENRING_STATE_NORMAL && nd->state >= 0 && nd->state < 4) {
            sb_str(&b, " state=");
            sb_str(&b, states[nd->state]);
        }
        if (nd->liveness != TOKENRING_UP && nd->liveness >= 0 && nd->liveness < 3) {
            sb_str(&b, " status=");
            sb_str(&b, lives[nd->liveness]);
        }
        if (nd->host_id) {
            sb_str(&b, " host_id=");
            sb_value(&b, nd->host_id);
        }
        if (!nd->known) {
            if (nd->declared) {
                sb_str(&b, " num_tokens=");
                sb_i64(&b, (int64_t)nd->declared);
            } else {
                sb_str(&b, " tokens=?");
            }
            sb_str(&b, "\n");
            continue;
        }
        sb_str(&b, " tokens=");
        if (nd->ntok <= TOKENS_PER_LINE) {
            for (size_t j = 0; j < nd->ntok; j++) {
                if (j)
                    sb_put(&b, ",", 1);
                sb_i64(&b, nd->tokens[j]);
            }
            sb_str(&b, "\n");
            continue;
        }
        for (size_t j = 0; j < nd->ntok; j++) {
            sb_str(&b, j % TOKENS_PER_LINE == 0 ? "\n    " : ",");
            sb_i64(&b, nd->tokens[j]);
        }
        sb_str(&b, "\n");
    }
    if (b.oom) {
        tr_free(b.p);
        return TOKENRING_E_NOMEM;
    }
    *len_out = b.n;
    int rc = TOKENRING_OK;
    if (cap < b.n + 1) {
        rc = TOKENRING_E_BUFSIZE;
    } else {
        memcpy(out, b.p, b.n + 1);
    }
    tr_free(b.p);
    return rc;
}
