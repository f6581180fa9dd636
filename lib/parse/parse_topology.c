/* SPDX-License-Identifier: Apache-2.0 */
/* The topology file format (doc/topology-format.md): its reader and its writer,
 * tokenring_cluster_format(). Uses the cluster document and the lexing helpers
 * below it; nothing else. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_formats.h"

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
        rc = tr_cl_add_token_list(cl, idx, tok_s, tok_n, line, tok_col, err);
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
                rc = tr_cl_add_token_list(cl, node_idx, line + start, i - start, ln,
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
        } else if (kw == 11 && memcmp(line, "partitioner", 11) == 0) {
            size_t k = kw;
            while (k < m && (line[k] == ' ' || line[k] == '\t'))
                k++;
            size_t ps = k;
            while (k < m && line[k] != ' ' && line[k] != '\t')
                k++;
            size_t pe = k;
            while (k < m && (line[k] == ' ' || line[k] == '\t'))
                k++;
            if (pe == ps || k < m)
                return tr_fail_at(err, TOKENRING_E_PARSE, ln, (uint32_t)(pe == ps ? ps : k) + 1,
                                  "expected 'partitioner NAME' (Murmur3Partitioner, "
                                  "RandomPartitioner or ByteOrderedPartitioner)");
            if (cl->n > 0)
                return tr_fail_at(err, TOKENRING_E_PARSE, ln, 1,
                                  "the partitioner line must come before the first node");
            rc = tr_cl_name_partitioner(cl, line + ps, pe - ps, ln, (uint32_t)ps + 1, err);
            if (rc != TOKENRING_OK)
                return rc;
        } else if (kw == 8 && memcmp(line, "keyspace", 8) == 0) {
            /* the name is a word (it holds no '#' nor whitespace); quotes count only
             * after it, in the replication: a name such as ' must not open a quote */
            size_t mk = strip_comment(line, n, false);
            size_t k = kw;
            while (k < mk && (line[k] == ' ' || line[k] == '\t'))
                k++;
            size_t ns = k;
            while (k < mk && line[k] != ' ' && line[k] != '\t')
                k++;
            mk = k + strip_comment(line + k, n - k, true);
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
            rc = tr_cl_check_keyspace_name(line + ns, ne - ns, ln, (uint32_t)ns + 1, err);
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
                              "expected 'node', 'keyspace', 'partitioner', a comment or a "
                              "blank line, "
                              "found '%.*s'", (int)(kw > 40 ? 40 : kw), line);
        }
    }
    if (in_node && (rc = check_node_complete(cl, node_idx, err)) != TOKENRING_OK)
        return rc;
    return TOKENRING_OK;
}

/* ------------------------------------------------------ topology file: write */

typedef struct textbuf {
    char *p;
    size_t n, cap;
    bool oom;
} textbuf;

static void text_put(textbuf *b, const char *s, size_t n)
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

static void text_str(textbuf *b, const char *s)
{
    text_put(b, s, strlen(s));
}

static void text_value(textbuf *b, const char *s)
{
    bool quote = *s == '\0';
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c <= 0x20 || c == 0x7f || c == '#' || c == '"' || c == '\\' || c == '=')
            quote = true;
    }
    if (!quote) {
        text_str(b, s);
        return;
    }
    text_put(b, "\"", 1);
    for (const char *p = s; *p; p++) {
        switch (*p) {
        case '"': text_put(b, "\\\"", 2); break;
        case '\\': text_put(b, "\\\\", 2); break;
        case '\n': text_put(b, "\\n", 2); break;
        case '\t': text_put(b, "\\t", 2); break;
        case '\r': text_put(b, "\\r", 2); break;
        default: text_put(b, p, 1);
        }
    }
    text_put(b, "\"", 1);
}

static void sb_i64(textbuf *b, int64_t v)
{
    char tmp[32];
    int k = snprintf(tmp, sizeof tmp, "%lld", (long long)v);
    text_put(b, tmp, (size_t)k);
}

#define TOKENS_PER_LINE 6

/* Token j of node nd in its partitioner's string form (TokenFactory.toString). */
static void put_token(textbuf *b, const tokenring_cluster *cl, const struct tr_cnode *nd,
                      size_t j)
{
    if (cl->partitioner == TOKENRING_PARTITIONER_MURMUR3) {
        sb_i64(b, nd->tokens[j]);
    } else if (cl->partitioner == TOKENRING_PARTITIONER_RANDOM) {
        char buf[TR_TOKEN_TEXT_MAX];
        text_str(b, tr_cl_token_text(cl, nd, j, buf));
    } else {
        static const char hex[] = "0123456789abcdef";
        for (size_t k = 0; k < nd->vtok[j].len; k++) {
            char d[2] = { hex[nd->vtok[j].b[k] >> 4], hex[nd->vtok[j].b[k] & 15] };
            text_put(b, d, 2);
        }
    }
}

TOKENRING_API int tokenring_cluster_format(char *out, size_t cap, size_t *len_out,
                                           const tokenring_cluster *cluster)
{
    static const char *states[] = { "normal", "joining", "leaving", "moving" };
    static const char *lives[] = { "up", "down", "unknown" };
    if (cluster == NULL || len_out == NULL || (out == NULL && cap > 0))
        return TOKENRING_E_INVAL;
    textbuf b = { 0 };
    text_str(&b, "# tokenring topology file (format: doc/topology-format.md)\n");
    if (cluster->partitioner != TOKENRING_PARTITIONER_MURMUR3) {
        text_str(&b, "partitioner ");
        text_str(&b, tokenring_partitioner_name(cluster->partitioner));
        text_str(&b, "\n");
    }
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
        text_str(&b, "keyspace ");
        text_str(&b, cluster->ks[i].name);
        text_str(&b, " ");
        text_put(&b, r, rl);
        text_str(&b, "\n");
        tr_free(r);
    }
    for (size_t i = 0; i < cluster->n; i++) {
        const struct tr_cnode *nd = &cluster->nodes[i];
        text_str(&b, "node ");
        text_value(&b, nd->name);
        text_str(&b, " dc=");
        text_value(&b, nd->dc);
        text_str(&b, " rack=");
        text_value(&b, nd->rack);
        if (nd->state != TOKENRING_STATE_NORMAL && nd->state >= 0 && nd->state < 4) {
            text_str(&b, " state=");
            text_str(&b, states[nd->state]);
        }
        if (nd->liveness != TOKENRING_UP && nd->liveness >= 0 && nd->liveness < 3) {
            text_str(&b, " status=");
            text_str(&b, lives[nd->liveness]);
        }
        if (nd->host_id) {
            text_str(&b, " host_id=");
            text_value(&b, nd->host_id);
        }
        if (!nd->known) {
            if (nd->declared) {
                text_str(&b, " num_tokens=");
                sb_i64(&b, (int64_t)nd->declared);
            } else {
                text_str(&b, " tokens=?");
            }
            text_str(&b, "\n");
            continue;
        }
        text_str(&b, " tokens=");
        if (nd->ntok <= TOKENS_PER_LINE) {
            for (size_t j = 0; j < nd->ntok; j++) {
                if (j)
                    text_put(&b, ",", 1);
                put_token(&b, cluster, nd, j);
            }
            text_str(&b, "\n");
            continue;
        }
        for (size_t j = 0; j < nd->ntok; j++) {
            text_str(&b, j % TOKENS_PER_LINE == 0 ? "\n    " : ",");
            put_token(&b, cluster, nd, j);
        }
        text_str(&b, "\n");
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
