/* SPDX-License-Identifier: Apache-2.0 */
/* Parsers of `nodetool ring` and `nodetool status` as Cassandra 2.0 .. 5.0 print them.
 * Rows are split at whitespace rather than at fixed columns: real listings overflow
 * their columns (long addresses, loads such as "1.04 TiB") and were often re-indented
 * by whoever published them. */
#include <string.h>

#include "parse_formats.h"

#define MAX_WORDS 24

static bool is_note_line(const char *t, size_t n)
{
    return tr_starts_with(t, n, "Note:") || tr_starts_with(t, n, "Warning:") ||
           tr_starts_with(t, n, "To view status related info");
}

static int elided(tokenring_cluster *cl, uint32_t flags, uint32_t line, uint32_t col,
                  tokenring_error *err)
{
    if (flags & TOKENRING_PARSE_ALLOW_PARTIAL) {
        cl->flags |= TOKENRING_CLUSTER_PARTIAL;
        return TOKENRING_OK;
    }
    return tr_fail_at(err, TOKENRING_E_PARSE, line, col,
                      "elided listing ('...'): rows are missing, so placements and "
                      "ownership cannot be computed exactly (allow partial input to "
                      "accept it)");
}

/* A datacenter block that ends without rows: nodetool never prints one, so the listing
 * was cut (or filtered). An error naming the block's line, or with
 * TOKENRING_PARSE_ALLOW_PARTIAL a partial cluster. */
static int empty_dc(tokenring_cluster *cl, uint32_t flags, const char *dc, size_t dc_len,
                    uint32_t line, const char *after, tokenring_error *err)
{
    if (flags & TOKENRING_PARSE_ALLOW_PARTIAL) {
        cl->flags |= TOKENRING_CLUSTER_PARTIAL;
        return TOKENRING_OK;
    }
    return tr_fail_at(err, TOKENRING_E_PARSE, line, 1,
                      "datacenter %.*s lists no node: its block ends after %s, so the "
                      "listing is cut or filtered (nodetool prints every node of a "
                      "datacenter; allow partial input to accept it)",
                      (int)(dc_len > 60 ? 60 : dc_len), dc, after);
}

static const char *skip_ws(const char *s, size_t n, size_t *i)
{
    while (*i < n && (s[*i] == ' ' || s[*i] == '\t'))
        (*i)++;
    return s + *i;
}

/* What every nodetool listing shares: blank lines, Note:/Warning: lines and elisions
 * ("...", accepted only with TOKENRING_PARSE_ALLOW_PARTIAL) are skipped, an "Error:" line
 * fails. Returns LINE_SKIP, LINE_CONTENT (with *i, *t, *tn set to the indentation, the
 * text after it and its length) or a negative status code. */
#define LINE_CONTENT 1
#define LINE_SKIP 2
static int common_line(tokenring_cluster *cl, uint32_t flags, const char *line, size_t n,
                       uint32_t ln, size_t *i, const char **t, size_t *tn,
                       tokenring_error *err)
{
    if (tr_is_blank(line, n))
        return LINE_SKIP;
    *t = skip_ws(line, n, i);
    *tn = n - *i;
    if (is_note_line(*t, *tn))
        return LINE_SKIP;
    if (tr_starts_with(*t, *tn, "Error:"))
        return tr_fail_at(err, TOKENRING_E_PARSE, ln, (uint32_t)*i + 1,
                          "nodetool reported an error: %.*s", (int)(*tn > 200 ? 200 : *tn),
                          *t);
    if (tr_is_elision(*t, *tn)) {
        int rc = elided(cl, flags, ln, (uint32_t)*i + 1, err);
        return rc != TOKENRING_OK ? rc : LINE_SKIP;
    }
    return LINE_CONTENT;
}


static bool word_is(const tr_word *w, const char *lit)
{
    return w->n == strlen(lit) && memcmp(w->s, lit, w->n) == 0;
}

static bool is_load_unit(const tr_word *w)
{
    static const char *units[] = { "bytes", "B", "KB", "KiB", "MB", "MiB", "GB", "GiB",
                                   "TB", "TiB", "PB", "PiB", "EB", "EiB" };
    for (size_t i = 0; i < sizeof units / sizeof *units; i++)
        if (word_is(w, units[i]))
            return true;
    return false;
}

static bool is_owns(const tr_word *w)
{
    if (word_is(w, "?"))
        return true;
    if (w->n < 2 || w->s[w->n - 1] != '%')
        return false;
    for (size_t i = 0; i + 1 < w->n; i++)
        if (!((w->s[i] >= '0' && w->s[i] <= '9') || w->s[i] == '.' || w->s[i] == ','))
            return false;
    return true;
}

/* Checks a token column in the cluster's partitioner (a Murmur3 value to *out). */
static int token_word(tokenring_cluster *cl, const tr_word *w, uint32_t line, int64_t *out,
                      tokenring_error *err)
{
    return tr_cl_check_token_text(cl, w->s, w->n, line, w->col, out, err);
}

static bool same_word(const tr_word *a, const tr_word *b)
{
    return a->n == b->n && memcmp(a->s, b->s, a->n) == 0;
}

/* One row of `nodetool ring` (either layout) for node idx: a new node takes the row's
 * status, state, Load (the words l0 .. l1; none when l0 is NULL or they are one "?") and
 * Owns; a known node must repeat its status and state. Then the row's token: Murmur3's
 * value as token_word read it, the other partitioners' text. */
static int ring_row(tokenring_cluster *cl, size_t idx, bool created, int32_t stv, int32_t live,
                    const tr_word *l0, const tr_word *l1, const tr_word *owns,
                    const tr_word *st, const tr_word *state, uint32_t ln, const tr_word *tok,
                    int64_t token, tokenring_error *err)
{
    int rc;
    struct tr_cnode *nd = &cl->nodes[idx];
    if (created) {
        nd->state = stv;
        nd->liveness = live;
        if (l0 && !(l0 == l1 && word_is(l0, "?")) &&
            (rc = tr_cl_set_column(cl, idx, false, l0->s, (size_t)(l1->s + l1->n - l0->s),
                                   err)) != TOKENRING_OK)
            return rc;
        if (!word_is(owns, "?") &&
            (rc = tr_cl_set_column(cl, idx, true, owns->s, owns->n, err)) != TOKENRING_OK)
            return rc;
    } else if (nd->state != stv || nd->liveness != live) {
        return tr_fail_at(err, TOKENRING_E_PARSE, ln, st->col,
                          "node %s is '%.*s %.*s' here but had another status or state on "
                          "line %u", nd->name, (int)st->n, st->s, (int)state->n, state->s,
                          (unsigned)nd->line);
    }
    return cl->partitioner == TOKENRING_PARTITIONER_MURMUR3
               ? tr_cl_add_token(cl, idx, token, ln, tok->col, err)
               : tr_cl_add_token_text(cl, idx, tok->s, tok->n, ln, tok->col, err);
}

/* Shared by both formats: "Datacenter: <name>". Returns the name span. */
static int dc_header(const char *line, size_t n, uint32_t ln, const char **dc, size_t *dc_len,
                     uint32_t *dc_col, tokenring_error *err)
{
    size_t i = strlen("Datacenter:");
    skip_ws(line, n, &i);
    size_t e = n;
    while (e > i && (line[e - 1] == ' ' || line[e - 1] == '\t'))
        e--;
    if (e <= i)
        return tr_fail_at(err, TOKENRING_E_PARSE, ln, (uint32_t)i + 1,
                          "expected a datacenter name after 'Datacenter:'");
    *dc = line + i;
    *dc_len = e - i;
    *dc_col = (uint32_t)i + 1;
    return TOKENRING_OK;
}

static bool is_underline(const char *t, size_t n)
{
    size_t e = n;
    while (e > 0 && (t[e - 1] == ' ' || t[e - 1] == '\t'))
        e--;
    if (e == 0)
        return false;
    for (size_t i = 0; i < e; i++)
        if (t[i] != '=')
            return false;
    return true;
}

/* ------------------------------------------------------------- nodetool ring */

struct ring_dc {
    const char *name;
    size_t len;
    uint32_t col;
    bool header, underline;
    bool have_wrap;
    tr_word wrap;       /* as printed: rows print their tokens the same way */
    uint32_t wrap_line, wrap_col;
    bool wrap_seen;     /* the wrap token appeared in a row */
    size_t rows;
    uint32_t line;      /* of "Datacenter:" */
};

static int ring_dc_end(tokenring_cluster *cl, const struct ring_dc *dc, uint32_t flags,
                       tokenring_error *err)
{
    if (dc->name && !dc->header)
        return tr_fail_at(err, TOKENRING_E_PARSE, 0, 0,
                          "datacenter %.*s has no 'Address ... Token' header", (int)dc->len,
                          dc->name);
    if (dc->name && dc->rows == 0)
        return empty_dc(cl, flags, dc->name, dc->len, dc->line,
                        dc->have_wrap ? "its header and wrap-around token" : "its header",
                        err);
    if (dc->have_wrap && dc->rows > 0 && !dc->wrap_seen) {
        if (flags & TOKENRING_PARSE_ALLOW_PARTIAL) {
            cl->flags |= TOKENRING_CLUSTER_PARTIAL;
            return TOKENRING_OK;
        }
        return tr_fail_at(err, TOKENRING_E_PARSE, dc->wrap_line, dc->wrap_col,
                          "the wrap-around token %.*s above the rows of datacenter %.*s is "
                          "in none of its rows: the listing is incomplete (allow partial "
                          "input to accept it)",
                          (int)(dc->wrap.n > 60 ? 60 : dc->wrap.n), dc->wrap.s, (int)dc->len,
                          dc->name);
    }
    return TOKENRING_OK;
}

static int parse_state_word(const tr_word *w, int32_t *state)
{
    static const char *names[] = { "Normal", "Joining", "Leaving", "Moving" };
    for (int k = 0; k < 4; k++)
        if (word_is(w, names[k])) {
            *state = k;
            return 0;
        }
    return -1;
}

/* A host ID as nodetool prints it: 8-4-4-4-12 hexadecimal digits. */
static bool is_uuid(const tr_word *w)
{
    if (w->n != 36)
        return false;
    for (size_t i = 0; i < 36; i++) {
        char ch = w->s[i];
        bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? ch != '-'
                 : !((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') ||
                     (ch >= 'A' && ch <= 'F')))
            return false;
    }
    return true;
}

static bool is_status(const tr_word *w)
{
    return word_is(w, "Up") || word_is(w, "Down") || word_is(w, "?");
}

/* A rack of 12 or more characters followed directly by Up, Down or ?. */
#define RING_RACK_WIDTH 12
static bool split_glued(const tr_word *w, tr_word out[2])
{
    static const char *st[] = { "Up", "Down", "?" };
    for (size_t k = 0; k < 3; k++) {
        size_t sl = strlen(st[k]);
        if (w->n >= RING_RACK_WIDTH + sl && memcmp(w->s + w->n - sl, st[k], sl) == 0) {
            out[0] = (tr_word){ w->s, w->n - sl, w->col };
            out[1] = (tr_word){ w->s + w->n - sl, sl, w->col + (uint32_t)(w->n - sl) };
            return true;
        }
    }
    return false;
}

/* nodetool ring before Cassandra 1.2: no "Datacenter:" blocks, the datacenter in a column
 * of its own (NodeCmd.printRing, "%-16s%-12s%-12s%-7s%-8s%-16s%-20s%-44s": Address DC
 * Rack Status State Load Owns Token, Owns "Effective-Ownership" when 1.1 was given a
 * keyspace), the wrap-around token alone above the rows. Read from the header on line
 * header_ln; any other header without a Datacenter: line is refused, naming what to add. */
static int legacy_ring(tokenring_cluster *cl, const char *text, size_t len, uint32_t flags,
                       uint32_t header_ln, tokenring_error *err)
{
    static const char *const cols[] = { "Address", "DC", "Rack", "Status", "State", "Load",
                                        "Owns", "Token" };
    tr_lines ls;
    tr_lines_init(&ls, text, len);
    const char *line;
    size_t n;
    tr_word w[MAX_WORDS], wrap = { NULL, 0, 0 };
    uint32_t wrap_line = 0;
    bool wrap_seen = false;
    size_t rows = 0;
    int rc;
    while (tr_lines_next(&ls, &line, &n) && ls.lineno < header_ln) {
    }
    size_t nw = tr_split_words(line, n, w, MAX_WORDS);
    bool known = nw == 8;
    for (size_t k = 0; k < 8 && known; k++)
        known = word_is(&w[k], cols[k]) || (k == 6 && word_is(&w[k], "Effective-Ownership"));
    if (!known)
        return tr_fail_at(err, TOKENRING_E_PARSE, header_ln, 1,
                          "a nodetool ring header without 'Datacenter: <name>' above it, "
                          "whose columns are not those of Cassandra 1.0/1.1 (Address DC Rack "
                          "Status State Load Owns Token): add the 'Datacenter: <name>' line "
                          "nodetool printed above it, or give nodetool status");
    while (tr_lines_next(&ls, &line, &n)) {
        uint32_t ln = ls.lineno;
        size_t i = 0;
        const char *t = NULL;
        size_t tn = 0;
        if ((rc = common_line(cl, flags, line, n, ln, &i, &t, &tn, err)) != LINE_CONTENT) {
            if (rc == LINE_SKIP)
                continue;
            return rc;
        }
        nw = tr_split_words(line, n, w, MAX_WORDS);
        if (nw == 1 && rows == 0 && !wrap.s) {
            if ((rc = token_word(cl, &w[0], ln, NULL, err)) != TOKENRING_OK)
                return rc;
            wrap = w[0];
            wrap_line = ln;
            continue;
        }
        if (nw < 8 || nw > MAX_WORDS)
            return tr_fail_at(err, TOKENRING_E_PARSE, ln, (uint32_t)i + 1,
                              "expected a ring row: Address DC Rack Status State Load Owns "
                              "Token (8 or more fields), found %zu fields", nw);
        const tr_word *addr = &w[0], *dcw = &w[1], *rack = &w[2], *st = &w[3], *state = &w[4];
        const tr_word *owns = &w[nw - 2], *tok = &w[nw - 1];
        int32_t live, stv;
        if (word_is(st, "Up"))
            live = TOKENRING_UP;
        else if (word_is(st, "Down"))
            live = TOKENRING_DOWN;
        else if (word_is(st, "?"))
            live = TOKENRING_UNKNOWN;
        else
            return tr_fail_at(err, TOKENRING_E_PARSE, ln, st->col,
                              "expected status Up, Down or ? in the fourth column, found "
                              "'%.*s'", (int)(st->n > 40 ? 40 : st->n), st->s);
        if (parse_state_word(state, &stv) != 0)
            return tr_fail_at(err, TOKENRING_E_PARSE, ln, state->col,
                              "expected state Normal, Joining, Leaving or Moving, found "
                              "'%.*s'", (int)(state->n > 40 ? 40 : state->n), state->s);
        if (!is_owns(owns))
            return tr_fail_at(err, TOKENRING_E_PARSE, ln, owns->col,
                              "expected Owns as a percentage or '?', found '%.*s'",
                              (int)(owns->n > 40 ? 40 : owns->n), owns->s);
        int64_t token = 0;
        if ((rc = token_word(cl, tok, ln, &token, err)) != TOKENRING_OK)
            return rc;
        size_t idx;
        bool created;
        rc = tr_cl_node(cl, addr->s, addr->n, dcw->s, dcw->n, rack->s, rack->n, ln, addr->col,
                        dcw->col, rack->col, &idx, &created, err);
        if (rc != TOKENRING_OK)
            return rc;
        /* Load: the words between State and Owns */
        if ((rc = ring_row(cl, idx, created, stv, live, &w[5], &w[nw - 3], owns, st, state,
                           ln, tok, token, err)) != TOKENRING_OK)
            return rc;
        rows++;
        if (wrap.s && same_word(tok, &wrap))
            wrap_seen = true;
    }
    if (rows == 0)
        return tr_fail_at(err, TOKENRING_E_PARSE, ls.lineno, 1,
                          "nodetool ring output without any row");
    if (wrap.s && !wrap_seen) {
        if (flags & TOKENRING_PARSE_ALLOW_PARTIAL) {
            cl->flags |= TOKENRING_CLUSTER_PARTIAL;
            return TOKENRING_OK;
        }
        return tr_fail_at(err, TOKENRING_E_PARSE, wrap_line, wrap.col,
                          "the wrap-around token %.*s above the rows is in none of them: the "
                          "listing is incomplete (allow partial input to accept it)",
                          (int)(wrap.n > 60 ? 60 : wrap.n), wrap.s);
    }
    return TOKENRING_OK;
}

int tr_parse_ring_text(tokenring_cluster *cl, const char *text, size_t len, uint32_t flags,
                       tokenring_error *err)
{
    tr_lines ls;
    tr_lines_init(&ls, text, len);
    const char *line;
    size_t n;
    struct ring_dc dc;
    memset(&dc, 0, sizeof dc);
    bool any_dc = false;
    int rc;
    tr_word w[MAX_WORDS];
    while (tr_lines_next(&ls, &line, &n)) {
        uint32_t ln = ls.lineno;
        size_t i = 0;
        const char *t = NULL;
        size_t tn = 0;
        if ((rc = common_line(cl, flags, line, n, ln, &i, &t, &tn, err)) != LINE_CONTENT) {
            if (rc == LINE_SKIP)
                continue;
            return rc;
        }
        if (i == 0 && tr_starts_with(t, tn, "Datacenter:")) {
            if ((rc = ring_dc_end(cl, &dc, flags, err)) != TOKENRING_OK) {
                if (err && err->line == 0)
                    err->line = ln;
                return rc;
            }
            memset(&dc, 0, sizeof dc);
            if ((rc = dc_header(line, n, ln, &dc.name, &dc.len, &dc.col, err)) != TOKENRING_OK)
                return rc;
            dc.line = ln;
            any_dc = true;
            continue;
        }
        if (is_underline(t, tn)) {
            if (!dc.name || dc.header || dc.underline)
                return tr_fail_at(err, TOKENRING_E_PARSE, ln, (uint32_t)i + 1,
                                  "unexpected '=' line: expected it only under "
                                  "'Datacenter: <name>'");
            dc.underline = true;
            continue;
        }
        if (i == 0 && tr_starts_with(t, tn, "Address") && tn > 7 &&
            (t[7] == ' ' || t[7] == '\t')) {
            if (!dc.name && !any_dc) /* before 1.2: the datacenter is a column */
                return legacy_ring(cl, text, len, flags, ln, err);
            if (!dc.name)
                return tr_fail_at(err, TOKENRING_E_PARSE, ln, 1,
                                  "expected 'Datacenter: <name>' before the header");
            if (dc.header)
                return tr_fail_at(err, TOKENRING_E_PARSE, ln, 1,
                                  "a second header in datacenter %.*s", (int)dc.len, dc.name);
            dc.header = true;
            continue;
        }
        size_t nw = tr_split_words(line, n, w, MAX_WORDS);
        if (!dc.header)
            return tr_fail_at(err, TOKENRING_E_PARSE, ln, (uint32_t)i + 1,
                              any_dc ? "expected the 'Address Rack Status State Load Owns "
                                       "Token' header before the rows"
                                     : "expected 'Datacenter: <name>' (nodetool ring "
                                       "output)");
        if (nw == 1) {
            if (dc.rows > 0 || dc.have_wrap)
                return tr_fail_at(err, TOKENRING_E_PARSE, ln, w[0].col,
                                  "expected a ring row (Address Rack Status State Load Owns "
                                  "Token), found a lone value");
            if ((rc = token_word(cl, &w[0], ln, NULL, err)) != TOKENRING_OK)
                return rc;
            dc.wrap = w[0];
            dc.have_wrap = true;
            dc.wrap_line = ln;
            dc.wrap_col = w[0].col;
            continue;
        }
        /* nodetool pads Rack to 12 characters (Ring.java "%-12s"): a longer rack name
         * runs into Status ("us-east-1a-ec2Up"). Split such a word back into the two. */
        tr_word glued[2];
        if (nw >= 6 && nw < MAX_WORDS && !is_status(&w[2]) && split_glued(&w[1], glued)) {
            memmove(&w[3], &w[2], (nw - 2) * sizeof w[0]);
            w[1] = glued[0];
            w[2] = glued[1];
            nw++;
        }
        /* An empty rack (the rack "" of rack= with nothing after it) leaves 12 spaces:
         * the status follows the address. A rack cannot be read so, as the state word
         * would then be the status. */
        int32_t stv_probe;
        if (nw >= 6 && nw < MAX_WORDS && is_status(&w[1]) &&
            parse_state_word(&w[2], &stv_probe) == 0) {
            memmove(&w[2], &w[1], (nw - 1) * sizeof w[0]);
            w[1].s = w[0].s + w[0].n;
            w[1].n = 0;
            w[1].col = w[0].col + (uint32_t)w[0].n;
            nw++;
        }
        if (nw < 7 || nw > MAX_WORDS)
            return tr_fail_at(err, TOKENRING_E_PARSE, ln, (uint32_t)i + 1,
                              "expected a ring row: Address Rack Status State Load Owns "
                              "Token (7 or more fields), found %zu fields", nw);
        const tr_word *addr = &w[0], *rack = &w[1], *st = &w[2], *state = &w[3];
        const tr_word *owns = &w[nw - 2], *tok = &w[nw - 1];
        int32_t live, stv;
        if (word_is(st, "Up"))
            live = TOKENRING_UP;
        else if (word_is(st, "Down"))
            live = TOKENRING_DOWN;
        else if (word_is(st, "?"))
            live = TOKENRING_UNKNOWN;
        else
            return tr_fail_at(err, TOKENRING_E_PARSE, ln, st->col,
                              "expected status Up, Down or ?, found '%.*s'",
                              (int)(st->n > 40 ? 40 : st->n), st->s);
        if (parse_state_word(state, &stv) != 0)
            return tr_fail_at(err, TOKENRING_E_PARSE, ln, state->col,
                              "expected state Normal, Joining, Leaving or Moving, found "
                              "'%.*s'", (int)(state->n > 40 ? 40 : state->n), state->s);
        if (!is_owns(owns))
            return tr_fail_at(err, TOKENRING_E_PARSE, ln, owns->col,
                              "expected Owns as a percentage or '?', found '%.*s'",
                              (int)(owns->n > 40 ? 40 : owns->n), owns->s);
        int64_t token = 0;
        if ((rc = token_word(cl, tok, ln, &token, err)) != TOKENRING_OK)
            return rc;
        size_t idx;
        bool created;
        rc = tr_cl_node(cl, addr->s, addr->n, dc.name, dc.len, rack->s, rack->n, ln, addr->col,
                        rack->col, rack->col, &idx, &created, err);
        if (rc != TOKENRING_OK)
            return rc;
        /* Load: the words between State and Owns ("105.3 KiB", "?"), when there are any */
        if ((rc = ring_row(cl, idx, created, stv, live, nw >= 7 ? &w[4] : NULL, &w[nw - 3],
                           owns, st, state, ln, tok, token, err)) != TOKENRING_OK)
            return rc;
        dc.rows++;
        if (dc.have_wrap && same_word(tok, &dc.wrap))
            dc.wrap_seen = true;
    }
    if (!any_dc)
        return tr_fail_at(err, TOKENRING_E_PARSE, ls.lineno ? ls.lineno : 1, 1,
                          "expected 'Datacenter: <name>' (nodetool ring output)");
    rc = ring_dc_end(cl, &dc, flags, err);
    if (rc != TOKENRING_OK && err && err->line == 0)
        err->line = ls.lineno;
    return rc;
}

/* ----------------------------------------------------------- nodetool status */

enum scol { C_ADDRESS, C_LOAD, C_TOKENS, C_OWNS, C_HOSTID, C_TOKEN, C_RACK };

#define MAX_COLS 10

static int status_header(const char *line, size_t n, uint32_t ln, enum scol *cols,
                         size_t *ncols, tokenring_error *err)
{
    /* Column names are separated by two or more spaces ("Owns (effective)" and "Host ID"
     * contain one). The first is "--". */
    size_t i = 2, k = 0;
    bool have_addr = false, have_rack = false;
    for (;;) {
        while (i < n && (line[i] == ' ' || line[i] == '\t'))
            i++;
        if (i >= n)
            break;
        size_t s = i;
        while (i < n && !(line[i] == '\t' || (line[i] == ' ' && (i + 1 >= n ||
                                                                   line[i + 1] == ' '))))
            i++;
        const char *c = line + s;
        size_t cn = i - s;
        enum scol col;
#define IS(lit) (cn == sizeof(lit) - 1 && memcmp(c, lit, cn) == 0)
        if (IS("Address")) {
            col = C_ADDRESS;
            have_addr = true;
        } else if (IS("Load")) {
            col = C_LOAD;
        } else if (IS("Tokens")) {
            col = C_TOKENS;
        } else if (IS("Owns") || IS("Owns (effective)")) {
            col = C_OWNS;
        } else if (IS("Host ID")) {
            col = C_HOSTID;
        } else if (IS("Token")) {
            col = C_TOKEN;
        } else if (IS("Rack")) {
            col = C_RACK;
            have_rack = true;
        } else {
            return tr_fail_at(err, TOKENRING_E_PARSE, ln, (uint32_t)s + 1,
                              "unknown status column '%.*s': expected Address, Load, Tokens, "
                              "Owns, Host ID, Token or Rack", (int)(cn > 40 ? 40 : cn), c);
        }
#undef IS
        if (k == MAX_COLS)
            return tr_fail_at(err, TOKENRING_E_PARSE, ln, (uint32_t)s + 1, "too many columns");
        cols[k++] = col;
    }
    if (!have_addr || !have_rack || cols[0] != C_ADDRESS || cols[k - 1] != C_RACK)
        return tr_fail_at(err, TOKENRING_E_PARSE, ln, 1,
                          "expected a status header '--  Address ... Rack'");
    *ncols = k;
    return TOKENRING_OK;
}

/* The two letters that start a status row: U/D/? (liveness) and N/J/L/M (state). false:
 * not such a code. */
static bool status_code(const tr_word *code, int32_t *live, int32_t *state)
{
    if (code->n != 2)
        return false;
    switch (code->s[0]) {
    case 'U': *live = TOKENRING_UP; break;
    case 'D': *live = TOKENRING_DOWN; break;
    case '?': *live = TOKENRING_UNKNOWN; break;
    default: return false;
    }
    switch (code->s[1]) {
    case 'N': *state = TOKENRING_STATE_NORMAL; break;
    case 'J': *state = TOKENRING_STATE_JOINING; break;
    case 'L': *state = TOKENRING_STATE_LEAVING; break;
    case 'M': *state = TOKENRING_STATE_MOVING; break;
    default: return false;
    }
    return true;
}

int tr_parse_status_text(tokenring_cluster *cl, const char *text, size_t len, uint32_t flags,
                         tokenring_error *err)
{
    tr_lines ls;
    tr_lines_init(&ls, text, len);
    const char *line;
    size_t n;
    const char *dc = NULL;
    size_t dc_len = 0;
    uint32_t dc_col = 0;
    bool header = false, underline = false;
    uint32_t dc_line = 0;
    size_t dc_rows = 0;
    enum scol cols[MAX_COLS];
    size_t ncols = 0;
    int rc;
    tr_word w[MAX_WORDS];
    while (tr_lines_next(&ls, &line, &n)) {
        uint32_t ln = ls.lineno;
        size_t i = 0;
        const char *t = NULL;
        size_t tn = 0;
        if ((rc = common_line(cl, flags, line, n, ln, &i, &t, &tn, err)) != LINE_CONTENT) {
            if (rc == LINE_SKIP)
                continue;
            return rc;
        }
        if (i == 0 && tr_starts_with(t, tn, "Datacenter:")) {
            if (dc && dc_rows == 0 &&
                (rc = empty_dc(cl, flags, dc, dc_len, dc_line,
                               header ? "its header" : "its name", err)) != TOKENRING_OK)
                return rc;
            if ((rc = dc_header(line, n, ln, &dc, &dc_len, &dc_col, err)) != TOKENRING_OK)
                return rc;
            header = underline = false;
            dc_line = ln;
            dc_rows = 0;
            continue;
        }
        if (!dc)
            return tr_fail_at(err, TOKENRING_E_PARSE, ln, (uint32_t)i + 1,
                              "expected 'Datacenter: <name>' (nodetool status output)");
        if (is_underline(t, tn)) {
            if (header || underline)
                return tr_fail_at(err, TOKENRING_E_PARSE, ln, (uint32_t)i + 1,
                                  "unexpected '=' line: expected it only under "
                                  "'Datacenter: <name>'");
            underline = true;
            continue;
        }
        if (tr_starts_with(t, tn, "Status=Up/Down") || tr_starts_with(t, tn, "|/ State="))
            continue;
        if (tr_starts_with(t, tn, "--") && !header) {
            if ((rc = status_header(t, tn, ln, cols, &ncols, err)) != TOKENRING_OK) {
                if (err && err->column)
                    err->column += (uint32_t)i;
                return rc;
            }
            header = true;
            continue;
        }
        if (!header)
            return tr_fail_at(err, TOKENRING_E_PARSE, ln, (uint32_t)i + 1,
                              "expected the '--  Address ... Rack' header of datacenter %.*s",
                              (int)dc_len, dc);
        size_t nw = tr_split_words(line, n, w, MAX_WORDS);
        if (nw > MAX_WORDS)
            return tr_fail_at(err, TOKENRING_E_PARSE, ln, (uint32_t)i + 1,
                              "too many fields for a status row");
        const tr_word *code = &w[0];
        int32_t live = 0, state = 0;
        if (!status_code(code, &live, &state))
            return tr_fail_at(err, TOKENRING_E_PARSE, ln, code->col,
                              "expected a status row starting with U/D/? and N/L/J/M (e.g. "
                              "'UN'), found '%.*s'", (int)(code->n > 40 ? 40 : code->n),
                              code->s);
        size_t k = 1;
        const tr_word *addr = NULL, *rack = NULL, *host = NULL, *load = NULL, *own = NULL;
        size_t load_n = 0;
        int64_t ntok = -1, token = 0;
        uint32_t token_col = 0;
        bool have_token = false;
        tr_word token_w = { NULL, 0, 0 };
        tr_word no_rack;
        for (size_t c = 0; c < ncols; c++) {
            if (k >= nw && cols[c] == C_RACK && c + 1 == ncols && c > 0 &&
                cols[c - 1] == C_HOSTID && host && is_uuid(host)) {
                /* Nothing under Rack (the last column) after a whole host ID: the rack
                 * "", which Cassandra's snitches read from rack= with nothing after it.
                 * A row cut short elsewhere still ends early. */
                no_rack.s = line + n;
                no_rack.n = 0;
                no_rack.col = (uint32_t)n + 1;
                rack = &no_rack;
                break;
            }
            if (k >= nw)
                return tr_fail_at(err, TOKENRING_E_PARSE, ln, (uint32_t)n + 1,
                                  "status row ends early: expected %zu columns "
                                  "(Address ... Rack)", ncols);
            const tr_word *x = &w[k];
            switch (cols[c]) {
            case C_ADDRESS:
                addr = x;
                k++;
                break;
            case C_LOAD:
                load = x;
                load_n = x->n;
                k++;
                if (!word_is(x, "?") && k < nw && is_load_unit(&w[k])) {
                    load_n = (size_t)(w[k].s + w[k].n - x->s); /* "105.3 KiB" */
                    k++;
                }
                break;
            case C_TOKENS:
                if (tr_parse_i64(x->s, x->n, &ntok) != TOKENRING_OK || ntok < 0 ||
                    ntok > 65536)
                    return tr_fail_at(err, TOKENRING_E_PARSE, ln, x->col,
                                      "expected a token count (0..65536) in the Tokens "
                                      "column, found '%.*s'", (int)(x->n > 40 ? 40 : x->n),
                                      x->s);
                k++;
                break;
            case C_OWNS:
                if (!is_owns(x))
                    return tr_fail_at(err, TOKENRING_E_PARSE, ln, x->col,
                                      "expected Owns as a percentage or '?', found '%.*s'",
                                      (int)(x->n > 40 ? 40 : x->n), x->s);
                own = x;
                k++;
                break;
            case C_HOSTID:
                host = x;
                k++;
                break;
            case C_TOKEN:
                if ((rc = token_word(cl, x, ln, &token, err)) != TOKENRING_OK)
                    return rc;
                have_token = true;
                token_w = *x;
                token_col = x->col;
                k++;
                break;
            case C_RACK:
                rack = x;
                k++;
                break;
            }
        }
        if (k != nw)
            return tr_fail_at(err, TOKENRING_E_PARSE, ln, w[k].col,
                              "unexpected field '%.*s' after the Rack column",
                              (int)(w[k].n > 40 ? 40 : w[k].n), w[k].s);
        size_t idx;
        bool created;
        rc = tr_cl_node(cl, addr->s, addr->n, dc, dc_len, rack->s, rack->n, ln, addr->col,
                        rack->col, rack->col, &idx, &created, err);
        if (rc != TOKENRING_OK)
            return rc;
        if (!created)
            return tr_fail_at(err, TOKENRING_E_EXISTS, ln, addr->col,
                              "node %s is listed twice (first on line %u)",
                              cl->nodes[idx].name, (unsigned)cl->nodes[idx].line);
        struct tr_cnode *nd = &cl->nodes[idx];
        nd->state = state;
        nd->liveness = live;
        if (host && !word_is(host, "?") && !word_is(host, "null") &&
            (rc = tr_cl_set_host_id(cl, idx, host->s, host->n, ln, host->col, err)) !=
                TOKENRING_OK)
            return rc;
        if (load && !word_is(load, "?") &&
            (rc = tr_cl_set_column(cl, idx, false, load->s, load_n, err)) != TOKENRING_OK)
            return rc;
        if (own && !word_is(own, "?") &&
            (rc = tr_cl_set_column(cl, idx, true, own->s, own->n, err)) != TOKENRING_OK)
            return rc;
        if (have_token) {
            rc = cl->partitioner == TOKENRING_PARTITIONER_MURMUR3
                     ? tr_cl_add_token(cl, idx, token, ln, token_col, err)
                     : tr_cl_add_token_text(cl, idx, token_w.s, token_w.n, ln, token_col, err);
            if (rc != TOKENRING_OK)
                return rc;
        } else if (ntok > 0) {
            nd->declared = (size_t)ntok;
        }
        dc_rows++;
    }
    if (!dc)
        return tr_fail_at(err, TOKENRING_E_PARSE, ls.lineno ? ls.lineno : 1, 1,
                          "expected 'Datacenter: <name>' (nodetool status output)");
    (void)dc_col;
    if (dc_rows == 0)
        return empty_dc(cl, flags, dc, dc_len, dc_line, header ? "its header" : "its name",
                        err);
    return TOKENRING_OK;
}
