/* SPDX-License-Identifier: Apache-2.0 */
/* Parser of cqlsh tables from system.peers_v2, system.peers and system.local:
 *
 *   peer      | data_center | rack  | tokens
 *  -----------+-------------+-------+----------------------
 *   127.0.0.2 | datacenter1 | rack1 | {'-100', '-2', '12'}
 *
 *  (1 rows)
 *
 * A text may hold several tables (peers, then local). Tokens arrive as a set<text> in
 * string order; they are sorted numerically later.
 *
 * A table with the columns keyspace_name and replication (SELECT * FROM
 * system_schema.keyspaces) gives keyspaces instead of nodes:
 *
 *   keyspace_name | durable_writes | replication
 *  ---------------+----------------+---------------------------------------------------
 *              ks |           True | {'class': 'org.apache.cassandra.locator.SimpleStrategy', 'replication_factor': '3'}
 *
 * Keyspaces whose class places no ranges on the ring (LocalStrategy, EverywhereStrategy,
 * MetaStrategy: the system keyspaces) are recorded as skipped, with their class.
 *
 * This file reads the text; what a row means (null columns, the rack a peer without one
 * gets, which keyspaces are skipped) is decided in parse_rows.c, which the router
 * builder uses for the column values a driver reads. */
#include <string.h>

#include "parse_formats.h"

#define MAX_CELLS 64

typedef struct cell {
    const char *s;
    size_t n;
    uint32_t col;
} cell;

/* Splits at '|' and trims each cell. Returns the number of cells (MAX_CELLS + 1 if
 * more). */
static size_t split_cells(const char *line, size_t n, cell *cells)
{
    size_t count = 0, start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i == n || line[i] == '|') {
            if (count == MAX_CELLS)
                return MAX_CELLS + 1;
            size_t a = start, b = i;
            while (a < b && (line[a] == ' ' || line[a] == '\t'))
                a++;
            while (b > a && (line[b - 1] == ' ' || line[b - 1] == '\t'))
                b--;
            cells[count].s = line + a;
            cells[count].n = b - a;
            cells[count].col = (uint32_t)a + 1;
            count++;
            start = i + 1;
        }
    }
    return count;
}

static bool cell_is(const cell *c, const char *lit)
{
    return c->n == strlen(lit) && memcmp(c->s, lit, c->n) == 0;
}

static bool is_rule(const char *s, size_t n)
{
    bool dash = false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '-')
            dash = true;
        else if (s[i] != '+' && s[i] != ' ' && s[i] != '\t')
            return false;
    }
    return dash;
}

static bool has_elision(const char *s, size_t n)
{
    for (size_t i = 0; i + 3 <= n; i++)
        if (s[i] == '.' && s[i + 1] == '.' && s[i + 2] == '.')
            return true;
    return false;
}

/* "(N rows)" or "(1 row)": returns N, or -1 when the line is not one. */
static long rows_footer(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && s[i] == ' ')
        i++;
    if (i >= n || s[i] != '(')
        return -1;
    i++;
    long v = 0;
    size_t d = i;
    while (i < n && s[i] >= '0' && s[i] <= '9' && v < 100000000)
        v = v * 10 + (s[i++] - '0');
    if (i == d)
        return -1;
    if (i + 5 <= n && memcmp(s + i, " rows", 5) == 0)
        i += 5;
    else if (i + 4 <= n && memcmp(s + i, " row", 4) == 0)
        i += 4;
    else
        return -1;
    if (i >= n || s[i] != ')')
        return -1;
    return v;
}

/* Parses a set<text> of tokens: {'-1', '12'} (quotes optional), "null" or {}. */
static int parse_token_set(tokenring_cluster *cl, size_t idx, const cell *c, uint32_t line,
                           uint32_t flags, tokenring_error *err)
{
    if (cell_is(c, "null") || c->n == 0 || cell_is(c, "{}"))
        return TOKENRING_OK; /* tokens unknown */
    if (has_elision(c->s, c->n)) {
        if (flags & TOKENRING_PARSE_ALLOW_PARTIAL) {
            cl->flags |= TOKENRING_CLUSTER_PARTIAL;
            return TOKENRING_OK;
        }
        return tr_fail_at(err, TOKENRING_E_PARSE, line, c->col,
                          "elided token set ('...'): the tokens are incomplete (allow "
                          "partial input to accept it)");
    }
    if (c->s[0] != '{' || c->s[c->n - 1] != '}')
        return tr_fail_at(err, TOKENRING_E_PARSE, line, c->col,
                          "expected the tokens as a set {'t1', 't2', ...}, found '%.*s'",
                          (int)(c->n > 40 ? 40 : c->n), c->s);
    size_t i = 1, end = c->n - 1;
    while (i < end) {
        while (i < end && c->s[i] == ' ')
            i++;
        size_t a = i, b;
        uint32_t col = c->col + (uint32_t)i;
        if (i < end && c->s[i] == '\'') {
            a = ++i;
            while (i < end && c->s[i] != '\'')
                i++;
            if (i >= end)
                return tr_fail_at(err, TOKENRING_E_PARSE, line, col,
                                  "unterminated quoted token: expected a closing \"'\"");
            b = i++;
        } else {
            while (i < end && c->s[i] != ',' && c->s[i] != ' ')
                i++;
            b = i;
        }
        int rc = tr_cl_add_token_text(cl, idx, c->s + a, b - a, line, col, err);
        if (rc != TOKENRING_OK)
            return rc;
        while (i < end && c->s[i] == ' ')
            i++;
        if (i < end) {
            if (c->s[i] != ',')
                return tr_fail_at(err, TOKENRING_E_PARSE, line, c->col + (uint32_t)i,
                                  "expected ',' or '}' after a token");
            i++;
            if (i >= end)
                return tr_fail_at(err, TOKENRING_E_PARSE, line, c->col + (uint32_t)i,
                                  "expected a token after ','");
        }
    }
    return TOKENRING_OK;
}

/* The class named in a cqlsh replication map ({'class': 'X', ...}), or NULL. */
static const char *map_class(const cell *c, size_t *n)
{
    static const char key[] = "'class'";
    for (size_t i = 0; i + sizeof key - 1 <= c->n; i++) {
        if (memcmp(c->s + i, key, sizeof key - 1) != 0)
            continue;
        size_t j = i + sizeof key - 1;
        while (j < c->n && (c->s[j] == ' ' || c->s[j] == ':'))
            j++;
        if (j >= c->n || c->s[j] != '\'')
            return NULL;
        size_t a = ++j;
        while (j < c->n && c->s[j] != '\'')
            j++;
        if (j >= c->n)
            return NULL;
        *n = j - a;
        return c->s + a;
    }
    return NULL;
}

/* A cell as a row value: "null" is CQL null. */
static tr_col col_of(const cell *c)
{
    tr_col v = { cell_is(c, "null") ? NULL : c->s, c->n, c->col };
    return v;
}

/* One row of system_schema.keyspaces (the rules: parse_rows.c). */
static int keyspace_row(tokenring_cluster *cl, const cell *name, const cell *repl, uint32_t line,
                        tokenring_error *err)
{
    tr_col nm = col_of(name), map = { repl->s, repl->n, repl->col }, cls = { NULL, 0, 0 };
    if (name->n == 0)
        nm.s = NULL;
    cls.s = map_class(repl, &cls.n);
    return tr_row_keyspace(cl, &nm, &cls, &map, line, err);
}

/* A table without data_center and rack (the seed's SELECT peer, tokens FROM
 * system.peers_v2): Cassandra's default endpoint_snitch, SimpleSnitch, puts every node in
 * datacenter1, rack1; a system.local row without its address (SELECT tokens FROM
 * system.local) is the node "local", the row's key in that table. The cluster says so
 * (TOKENRING_CLUSTER_DEFAULT_DC_RACK). */
static void default_dc_rack(tokenring_cluster *cl, cell dflt[3], const cell **name,
                            const cell **dc, const cell **rack)
{
    static const char *const text[3] = { "local", "datacenter1", "rack1" };
    const cell **slot[3] = { name, dc, rack };
    for (int k = 0; k < 3; k++) {
        dflt[k] = (cell){ text[k], strlen(text[k]), 1 };
        if (!*slot[k])
            *slot[k] = &dflt[k];
    }
    cl->flags |= TOKENRING_CLUSTER_DEFAULT_DC_RACK;
}

int tr_parse_cqlsh_text(tokenring_cluster *cl, const char *text, size_t len, uint32_t flags,
                        tokenring_error *err)
{
    static const char *name_cols[] = { "peer", "broadcast_address", "listen_address",
                                       "rpc_address", "native_address" };
    tr_lines ls;
    tr_lines_init(&ls, text, len);
    const char *line;
    size_t n;
    enum { WANT_HEADER, WANT_RULE, ROWS } st = WANT_HEADER;
    int c_name = -1, c_dc = -1, c_rack = -1, c_tokens = -1, c_host = -1, c_ks = -1, c_repl = -1;
    int c_part = -1; /* system.local's partitioner (the class name) */
    size_t ncells = 0;
    long rows = 0;
    uint32_t header_line = 0;
    bool any_table = false;
    cell cells[MAX_CELLS];
    int rc;
    while (tr_lines_next(&ls, &line, &n)) {
        uint32_t ln = ls.lineno;
        if (tr_is_blank(line, n)) {
            if (st == WANT_RULE)
                return tr_fail_at(err, TOKENRING_E_PARSE, ln, 1,
                                  "expected the '----+----' line under the cqlsh header");
            continue;
        }
        {
            /* cqlsh's pager separates pages with "---MORE---" (rows continue after it) */
            size_t a = 0, b = n;
            while (a < b && line[a] == ' ')
                a++;
            while (b > a && line[b - 1] == ' ')
                b--;
            if (b - a == 10 && memcmp(line + a, "---MORE---", 10) == 0 && st == ROWS)
                continue;
        }
        long footer = rows_footer(line, n);
        if (footer >= 0) {
            if (st == WANT_RULE || (st == WANT_HEADER && !any_table))
                return tr_fail_at(err, TOKENRING_E_PARSE, ln, 1,
                                  "unexpected row count: expected a cqlsh table header");
            if (footer > rows && (flags & TOKENRING_PARSE_ALLOW_PARTIAL))
                cl->flags |= TOKENRING_CLUSTER_PARTIAL; /* rows cut out of the table */
            else if (footer != rows)
                return tr_fail_at(err, TOKENRING_E_PARSE, ln, 2,
                                  "cqlsh says %ld rows but the table above has %ld: the "
                                  "output is incomplete%s", footer, rows,
                                  footer > rows ? " (allow partial input to accept it)" : "");
            st = WANT_HEADER;
            continue;
        }
        if (st == WANT_HEADER) {
            size_t i = 0;
            while (i < n && line[i] == ' ')
                i++;
            if (tr_starts_with(line + i, n - i, "Warnings :") ||
                tr_starts_with(line + i, n - i, "Warning:"))
                continue;
            ncells = split_cells(line, n, cells);
            if (ncells > MAX_CELLS ||
                (ncells < 2 && !(ncells == 1 && (cell_is(&cells[0], "partitioner") ||
                                                 cell_is(&cells[0], "tokens")))))
                return tr_fail_at(err, TOKENRING_E_PARSE, ln, 1,
                                  ncells < 2 ? "expected a cqlsh table header such as "
                                               "'peer | data_center | rack | tokens'"
                                             : "too many columns in the cqlsh header");
            c_name = c_dc = c_rack = c_tokens = c_host = c_ks = c_repl = c_part = -1;
            int name_rank = 99;
            for (size_t k = 0; k < ncells; k++) {
                for (int r = 0; r < 5; r++)
                    if (cell_is(&cells[k], name_cols[r]) && r < name_rank) {
                        name_rank = r;
                        c_name = (int)k;
                    }
                if (cell_is(&cells[k], "data_center"))
                    c_dc = (int)k;
                else if (cell_is(&cells[k], "rack"))
                    c_rack = (int)k;
                else if (cell_is(&cells[k], "tokens"))
                    c_tokens = (int)k;
                else if (cell_is(&cells[k], "host_id"))
                    c_host = (int)k;
                else if (cell_is(&cells[k], "keyspace_name"))
                    c_ks = (int)k;
                else if (cell_is(&cells[k], "replication"))
                    c_repl = (int)k;
                else if (cell_is(&cells[k], "partitioner"))
                    c_part = (int)k;
            }
            if (c_part >= 0 && c_name < 0 && c_tokens < 0) { /* SELECT partitioner ... */
                header_line = ln;
                st = WANT_RULE;
                continue;
            }
            if (c_ks >= 0 && c_repl >= 0) { /* system_schema.keyspaces */
                header_line = ln;
                st = WANT_RULE;
                continue;
            }
            /* SELECT peer, tokens FROM system.peers_v2 / SELECT tokens FROM system.local:
             * neither datacenter nor rack, which default (default_dc_rack) */
            bool defaults = c_tokens >= 0 && c_dc < 0 && c_rack < 0;
            const char *missing = c_name < 0 && !defaults ? "peer (or broadcast_address)"
                                  : c_dc < 0 && !defaults ? "data_center"
                                  : c_rack < 0 && !defaults ? "rack"
                                  : c_tokens < 0 ? "tokens"
                                                 : NULL;
            if (missing)
                return tr_fail_at(err, TOKENRING_E_PARSE, ln, 1,
                                  "the cqlsh header lacks the column %s (select peer, "
                                  "data_center, rack, tokens)", missing);
            header_line = ln;
            st = WANT_RULE;
            continue;
        }
        if (st == WANT_RULE) {
            if (!is_rule(line, n))
                return tr_fail_at(err, TOKENRING_E_PARSE, ln, 1,
                                  "expected the '----+----' line under the cqlsh header of "
                                  "line %u", (unsigned)header_line);
            st = ROWS;
            rows = 0;
            any_table = true;
            continue;
        }
        size_t nc = split_cells(line, n, cells);
        if (nc != ncells)
            return tr_fail_at(err, TOKENRING_E_PARSE, ln, 1,
                              "expected %zu '|'-separated cells as in the header, found %zu",
                              ncells, nc > MAX_CELLS ? (size_t)MAX_CELLS : nc);
        if (c_ks >= 0 && c_repl >= 0) {
            if ((rc = keyspace_row(cl, &cells[c_ks], &cells[c_repl], ln, err)) != TOKENRING_OK)
                return rc;
            rows++;
            continue;
        }
        if (c_part >= 0 && cells[c_part].n > 0 && !cell_is(&cells[c_part], "null") &&
            (rc = tr_cl_name_partitioner(cl, cells[c_part].s, cells[c_part].n, ln,
                                         cells[c_part].col, err)) != TOKENRING_OK)
            return rc;
        if (c_name < 0 && c_tokens < 0) { /* a table of the partitioner alone */
            rows++;
            continue;
        }
        cell dflt[3];
        const cell *name_c = c_name >= 0 ? &cells[c_name] : NULL;
        const cell *dc_c = c_dc >= 0 ? &cells[c_dc] : NULL;
        const cell *rack_c = c_rack >= 0 ? &cells[c_rack] : NULL;
        if (!name_c || !dc_c)
            default_dc_rack(cl, dflt, &name_c, &dc_c, &rack_c);
        tr_col name = col_of(name_c), dc = col_of(dc_c), rack = col_of(rack_c),
               host = { NULL, 0, 0 };
        if (c_host >= 0)
            host = col_of(&cells[c_host]);
        size_t idx;
        if ((rc = tr_row_node(cl, &name, &dc, &rack, &host, ln, &idx, err)) != TOKENRING_OK)
            return rc;
        if ((rc = parse_token_set(cl, idx, &cells[c_tokens], ln, flags, err)) != TOKENRING_OK)
            return rc;
        rows++;
    }
    if (st == WANT_RULE)
        return tr_fail_at(err, TOKENRING_E_PARSE, ls.lineno, 1,
                          "expected the '----+----' line under the cqlsh header");
    if (!any_table)
        return tr_fail_at(err, TOKENRING_E_PARSE, ls.lineno ? ls.lineno : 1, 1,
                          "expected a cqlsh table with the columns peer, data_center, rack "
                          "and tokens, or keyspace_name and replication");
    if (st == ROWS && rows == 0) { /* a header and its rule, then nothing: cut */
        if (flags & TOKENRING_PARSE_ALLOW_PARTIAL) {
            cl->flags |= TOKENRING_CLUSTER_PARTIAL;
            return TOKENRING_OK;
        }
        return tr_fail_at(err, TOKENRING_E_PARSE, header_line, 1,
                          "the cqlsh table of line %u ends without rows or its '(N rows)' "
                          "line: the output is cut (allow partial input to accept it)",
                          (unsigned)header_line);
    }
    return TOKENRING_OK;
}
