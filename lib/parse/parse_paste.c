/* SPDX-License-Identifier: Apache-2.0 */
/* What operators paste, turned into what the format readers read: prompt and JVM lines
 * blanked, a block indented as a whole moved back to column 1, `nodetool status` and
 * `nodetool ring` pasted one after the other found as two listings, and cqlsh's
 * `EXPAND ON` records made into the table cqlsh prints without it. Text in, text out
 * (lines keep their numbers, or a map says where each position came from); parse_detect.c
 * applies these before detection. */
#include <stdio.h>
#include <string.h>

#include "parse_paste.h"

static bool is_ws(char c)
{
    return c == ' ' || c == '\t';
}

static size_t trim_right(const char *s, size_t n)
{
    while (n > 0 && is_ws(s[n - 1]))
        n--;
    return n;
}

/* Whether the word s[a..b) (its last path component) is `nodetool` or `cqlsh`. */
static bool is_tool_word(const char *s, size_t a, size_t b)
{
    size_t k = b;
    while (k > a && s[k - 1] != '/')
        k--;
    return (b - k == 8 && memcmp(s + k, "nodetool", 8) == 0) ||
           (b - k == 5 && memcmp(s + k, "cqlsh", 5) == 0);
}

static bool ends_with_prompt(const char *s, size_t n)
{
    n = trim_right(s, n);
    return n > 0 && (s[n - 1] == '$' || s[n - 1] == '#' || s[n - 1] == '%' ||
                     s[n - 1] == '>');
}

/* A shell prompt with a nodetool or cqlsh command: `$ nodetool ring`, `# nodetool status`,
 * `user@host:~$ nodetool -h x ring`, `[root@h ~]# sudo /opt/c/bin/nodetool ring`, or the
 * bare command. */
static bool is_command_line(const char *t, size_t n)
{
    size_t i = 0;
    while (i < n) {
        while (i < n && is_ws(t[i]))
            i++;
        size_t a = i;
        while (i < n && !is_ws(t[i]))
            i++;
        if (a == i)
            break;
        if (!is_tool_word(t, a, i))
            continue;
        /* what comes before the command: nothing, a prompt, or a prompt and sudo */
        size_t p = trim_right(t, a);
        if (p >= 4 && memcmp(t + p - 4, "sudo", 4) == 0 && (p == 4 || is_ws(t[p - 5])))
            p = trim_right(t, p - 4);
        return p == 0 || (p <= 200 && ends_with_prompt(t, p));
    }
    return false;
}

/* A line that is no tool's output. */
static bool is_noise_line(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && is_ws(s[i]))
        i++;
    const char *t = s + i;
    size_t tn = n - i;
    if (tr_starts_with(t, tn, "Picked up JAVA_TOOL_OPTIONS:") ||
        tr_starts_with(t, tn, "Picked up _JAVA_OPTIONS:") ||
        tr_starts_with(t, tn, "Picked up JDK_JAVA_OPTIONS:") ||
        tr_starts_with(t, tn, "WARNING: cqlsh was built against ") ||
        tr_starts_with(t, tn, "Now Expanded output is enabled") ||
        tr_starts_with(t, tn, "Disabled Expanded output."))
        return true;
    if (tr_starts_with(t, tn, "cqlsh")) { /* cqlsh> or cqlsh:keyspace> with a statement */
        size_t k = 5;
        if (k < tn && t[k] == ':')
            while (k < tn && t[k] != '>' && !is_ws(t[k]))
                k++;
        if (k < tn && t[k] == '>')
            return true;
    }
    return is_command_line(t, tn);
}

int tr_paste_clean(const char *text, size_t len, char **out, size_t *out_len, uint32_t *dedent)
{
    *out = NULL;
    *dedent = 0;
    tr_lines ls;
    tr_lines_init(&ls, text, len);
    const char *line, *prefix = NULL;
    size_t n, plen = 0, noise = 0;
    bool any = false;
    while (tr_lines_next(&ls, &line, &n)) {
        if (tr_is_blank(line, n))
            continue;
        if (is_noise_line(line, n)) {
            noise++;
            continue;
        }
        size_t w = 0;
        while (w < n && is_ws(line[w]))
            w++;
        if (!any) {
            prefix = line;
            plen = w;
            any = true;
        } else {
            size_t k = 0;
            while (k < plen && k < w && line[k] == prefix[k])
                k++;
            plen = k;
        }
    }
    /* an indented block: two or more spaces, or a tab (a single space is how cqlsh
     * starts its header and rows: a table without its rule line is not indented) */
    if (plen == 1 && prefix[0] == ' ')
        plen = 0;
    if (noise == 0 && plen == 0)
        return TOKENRING_OK;
    char *o = tr_malloc(len + 1);
    if (!o)
        return TOKENRING_E_NOMEM;
    size_t on = 0;
    tr_lines_init(&ls, text, len);
    while (tr_lines_next(&ls, &line, &n)) {
        if (!tr_is_blank(line, n) && !is_noise_line(line, n)) {
            memcpy(o + on, line + plen, n - plen);
            on += n - plen;
        }
        o[on++] = '\n';
    }
    o[on] = '\0';
    *out = o;
    *out_len = on;
    *dedent = (uint32_t)plen;
    return TOKENRING_OK;
}

/* ------------------------------------------------- status and ring, one file */

size_t tr_paste_sections(const char *text, size_t len, struct tr_paste_section *out, size_t max)
{
    tr_lines ls;
    tr_lines_init(&ls, text, len);
    const char *line;
    size_t n, count = 0;
    uint32_t block = 0; /* the line of the Datacenter: whose kind is not known yet */
    while (tr_lines_next(&ls, &line, &n)) {
        if (tr_is_blank(line, n))
            continue;
        if (tr_starts_with(line, n, "Datacenter:")) {
            block = ls.lineno;
            continue;
        }
        if (!block)
            continue;
        size_t i = 0;
        while (i < n && is_ws(line[i]))
            i++;
        const char *t = line + i;
        size_t tn = n - i;
        if (t[0] == '=')
            continue;
        int format = 0;
        if (tr_starts_with(t, tn, "Status=Up/Down") || tr_starts_with(t, tn, "--  Address") ||
            tr_starts_with(t, tn, "|/ State="))
            format = TOKENRING_INPUT_NODETOOL_STATUS;
        else if (tr_starts_with(t, tn, "Address"))
            format = TOKENRING_INPUT_NODETOOL_RING;
        if (format && (count == 0 || out[count - 1].format != format)) {
            if (count == max)
                return count;
            out[count].first_line = count == 0 ? 1 : block;
            out[count].format = format;
            count++;
        }
        block = 0;
    }
    return count;
}

char *tr_paste_lines(const char *text, size_t len, uint32_t first_line, uint32_t end_line,
                     size_t *out_len)
{
    char *o = tr_malloc(len + 1);
    if (!o)
        return NULL;
    size_t on = 0;
    tr_lines ls;
    tr_lines_init(&ls, text, len);
    const char *line;
    size_t n;
    while (tr_lines_next(&ls, &line, &n)) {
        if (ls.lineno >= first_line && (end_line == 0 || ls.lineno < end_line)) {
            memcpy(o + on, line, n);
            on += n;
        }
        o[on++] = '\n';
    }
    o[on] = '\0';
    *out_len = on;
    return o;
}

/* ---------------------------------------------------------- cqlsh EXPAND ON */

/* "@ Row N" (N digits). */
static bool is_record_line(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && is_ws(s[i]))
        i++;
    if (!tr_starts_with(s + i, n - i, "@ Row "))
        return false;
    i += 6;
    size_t d = i;
    while (i < n && s[i] >= '0' && s[i] <= '9')
        i++;
    return i > d && trim_right(s, n) == i;
}

static bool is_expand_rule(const char *s, size_t n)
{
    n = trim_right(s, n);
    bool plus = false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '+')
            plus = true;
        else if (s[i] != '-')
            return false;
    }
    return n > 0 && plus;
}

struct ebuf {
    char *p;
    size_t n, cap;
    struct tr_paste_map *map;
    size_t nmap, mcap;
    uint32_t line; /* the output line being written (1-based) */
    bool oom;
};

static void eput(struct ebuf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (b->n + n + 1 > cap)
            cap *= 2;
        char *q = tr_realloc(b->p, cap);
        if (!q) {
            b->oom = true;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

/* The output column the next byte of the current line gets. */
static uint32_t ecol(const struct ebuf *b)
{
    size_t k = b->n;
    while (k > 0 && b->p[k - 1] != '\n')
        k--;
    return (uint32_t)(b->n - k) + 1;
}

static void emap(struct ebuf *b, uint32_t in_line, uint32_t in_col)
{
    if (b->oom)
        return;
    if (b->nmap == b->mcap) {
        size_t cap = b->mcap ? b->mcap * 2 : 64;
        struct tr_paste_map *m = tr_reallocarray(b->map, cap, sizeof *m);
        if (!m) {
            b->oom = true;
            return;
        }
        b->map = m;
        b->mcap = cap;
    }
    b->map[b->nmap++] = (struct tr_paste_map){ b->line, b->n ? ecol(b) : 1, in_line, in_col };
}

static void eline_end(struct ebuf *b)
{
    eput(b, "\n", 1);
    b->line++;
}

/* One `column | value` line of a record. */
struct field {
    const char *name, *value;
    size_t nn, vn;
    uint32_t line, ncol, vcol;
};

#define MAX_FIELDS 64

struct record {
    struct field f[MAX_FIELDS];
    size_t n;
    uint32_t line; /* the "@ Row" line */
};

static int record_out(struct ebuf *b, const struct record *r, bool names, tokenring_error *err)
{
    emap(b, r->line, 1);
    for (size_t k = 0; k < r->n; k++) {
        const struct field *f = &r->f[k];
        eput(b, k ? " | " : " ", k ? 3 : 1);
        emap(b, f->line, names ? f->ncol : f->vcol);
        eput(b, names ? f->name : f->value, names ? f->nn : f->vn);
    }
    eline_end(b);
    if (names) { /* the rule under the header */
        emap(b, r->line, 1);
        eput(b, "-", 1);
        for (size_t k = 0; k < r->n; k++)
            eput(b, k ? "-+--" : "--", k ? 4 : 2);
        eline_end(b);
    }
    return b->oom ? tr_fail(err, TOKENRING_E_NOMEM, "out of memory") : TOKENRING_OK;
}

static bool same_columns(const struct record *a, const struct record *b)
{
    if (a->n != b->n)
        return false;
    for (size_t k = 0; k < a->n; k++)
        if (a->f[k].nn != b->f[k].nn || memcmp(a->f[k].name, b->f[k].name, a->f[k].nn) != 0)
            return false;
    return true;
}

/* Ends record r (if any): checks it and writes it (with a header first in a new table). */
static int record_end(struct ebuf *b, struct record *r, struct record *first, bool *open,
                      tokenring_error *err)
{
    if (!r->line)
        return TOKENRING_OK;
    int rc;
    if (r->n == 0)
        return tr_fail_at(err, TOKENRING_E_PARSE, r->line, 1,
                          "expected 'column | value' lines under '@ Row' (cqlsh EXPAND ON "
                          "output)");
    if (*open && !same_columns(first, r))
        return tr_fail_at(err, TOKENRING_E_PARSE, r->line, 1,
                          "this row's columns differ from those of the row on line %u: "
                          "expected a '(N rows)' line between the outputs of two queries",
                          (unsigned)first->line);
    if (!*open) {
        *first = *r;
        *open = true;
        if ((rc = record_out(b, r, true, err)) != TOKENRING_OK)
            return rc;
    }
    rc = record_out(b, r, false, err);
    r->line = 0;
    r->n = 0;
    return rc;
}

static void pass_line(struct ebuf *b, const char *line, size_t n, uint32_t ln)
{
    emap(b, ln, 1);
    eput(b, line, n);
    eline_end(b);
}

bool tr_paste_has_records(const char *text, size_t len)
{
    tr_lines ls;
    tr_lines_init(&ls, text, len);
    const char *line;
    size_t n;
    while (tr_lines_next(&ls, &line, &n))
        if (is_record_line(line, n))
            return true;
    return false;
}

int tr_paste_expand(const char *text, size_t len, char **out, size_t *out_len,
                    struct tr_paste_map **map, size_t *nmap, tokenring_error *err)
{
    *out = NULL;
    if (!tr_paste_has_records(text, len))
        return TOKENRING_OK;
    tr_lines ls;
    const char *line;
    size_t n;
    struct ebuf b = { .line = 1 };
    struct record *r = tr_calloc(2, sizeof *r);
    if (!r)
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
    struct record *first = r + 1;
    bool open = false, want_rule = false;
    int rc = TOKENRING_OK;
    tr_lines_init(&ls, text, len);
    while (rc == TOKENRING_OK && tr_lines_next(&ls, &line, &n)) {
        uint32_t ln = ls.lineno;
        if (tr_is_blank(line, n)) {
            if (want_rule)
                rc = tr_fail_at(err, TOKENRING_E_PARSE, ln, 1,
                                "expected the '----+----' line under '@ Row'");
            else
                rc = record_end(&b, r, first, &open, err);
            continue;
        }
        if (is_record_line(line, n)) {
            if ((rc = record_end(&b, r, first, &open, err)) != TOKENRING_OK)
                break;
            r->line = ln;
            want_rule = true;
            continue;
        }
        if (want_rule) {
            if (!is_expand_rule(line, n))
                rc = tr_fail_at(err, TOKENRING_E_PARSE, ln, 1,
                                "expected the '----+----' line under '@ Row' (line %u)",
                                (unsigned)r->line);
            want_rule = false;
            continue;
        }
        if (!r->line) {
            /* outside records: "(N rows)" ends a table, anything else passes through */
            if ((rc = record_end(&b, r, first, &open, err)) != TOKENRING_OK)
                break;
            size_t i = 0;
            while (i < n && is_ws(line[i]))
                i++;
            if (i < n && line[i] == '(')
                open = false;
            pass_line(&b, line, n, ln);
            continue;
        }
        const char *bar = memchr(line, '|', n);
        if (!bar) {
            rc = tr_fail_at(err, TOKENRING_E_PARSE, ln, 1,
                            "expected 'column | value' in the record of line %u (cqlsh "
                            "EXPAND ON output)", (unsigned)r->line);
            break;
        }
        if (r->n == MAX_FIELDS) {
            rc = tr_fail_at(err, TOKENRING_E_PARSE, ln, 1, "too many columns in one record");
            break;
        }
        struct field *f = &r->f[r->n];
        size_t a = 0, e = trim_right(line, (size_t)(bar - line));
        while (a < e && is_ws(line[a]))
            a++;
        if (a == e) {
            rc = tr_fail_at(err, TOKENRING_E_PARSE, ln, (uint32_t)(bar - line) + 1,
                            "expected a column name before '|' in the record of line %u "
                            "(cqlsh EXPAND ON output)", (unsigned)r->line);
            break;
        }
        size_t va = (size_t)(bar - line) + 1, ve = trim_right(line, n);
        while (va < ve && is_ws(line[va]))
            va++;
        const char *bar2 = memchr(line + va, '|', ve - va);
        if (bar2) {
            rc = tr_fail_at(err, TOKENRING_E_PARSE, ln, (uint32_t)(bar2 - line) + 1,
                            "a '|' in the value of column %.*s cannot be told from a "
                            "column separator: select the table without EXPAND ON",
                            (int)(e - a), line + a);
            break;
        }
        *f = (struct field){ line + a, line + va, e - a, ve - va, ln, (uint32_t)a + 1,
                             (uint32_t)va + 1 };
        r->n++;
    }
    if (rc == TOKENRING_OK && want_rule)
        rc = tr_fail_at(err, TOKENRING_E_PARSE, ls.lineno, 1,
                        "expected the '----+----' line under '@ Row'");
    if (rc == TOKENRING_OK)
        rc = record_end(&b, r, first, &open, err);
    tr_free(r);
    if (rc == TOKENRING_OK && b.oom)
        rc = tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
    if (rc != TOKENRING_OK) {
        tr_free(b.p);
        tr_free(b.map);
        return rc;
    }
    *out = b.p;
    *out_len = b.n;
    *map = b.map;
    *nmap = b.nmap;
    return TOKENRING_OK;
}

void tr_paste_map_error(const struct tr_paste_map *map, size_t nmap, tokenring_error *err)
{
    if (!err || err->line == 0)
        return;
    const struct tr_paste_map *best = NULL;
    for (size_t i = 0; i < nmap; i++)
        if (map[i].out_line == err->line &&
            (err->column == 0 || map[i].out_col <= err->column) &&
            (!best || map[i].out_col >= best->out_col))
            best = &map[i];
    if (!best)
        return;
    err->line = best->in_line;
    if (err->column)
        err->column = best->in_col + (err->column - best->out_col);
}
