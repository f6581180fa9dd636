/* SPDX-License-Identifier: Apache-2.0 */
/* A node's settings as an operator has them: the top-level scalar keys of cassandra.yaml
 * the check command needs, and cassandra-rackdc.properties. Not a YAML library: top-level
 * `key: value` lines with plain, 'single' or "double" quoted scalars, comments, empty
 * values, and plain scalars continued on more-indented lines are read exactly; a wanted
 * key whose value is a block (a list, a map) or a flow collection is an error naming its
 * line and column, and so is a wanted key given twice. Other keys are skipped whatever
 * their value. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (!d)
        die(EXIT_INTERNAL, "out of memory");
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

static bool wanted(const char *key, size_t n, const char *const *keys, size_t nkeys)
{
    for (size_t i = 0; i < nkeys; i++)
        if (strlen(keys[i]) == n && memcmp(keys[i], key, n) == 0)
            return true;
    return false;
}

static void add_entry(struct conf *c, const char *key, size_t klen, char *value,
                      unsigned line, unsigned col, bool dup_is_error)
{
    for (size_t i = 0; i < c->n; i++)
        if (strlen(c->e[i].key) == klen && memcmp(c->e[i].key, key, klen) == 0) {
            if (dup_is_error)
                die(EXIT_INPUT, "%s:%u:1: %s is set twice (first on line %u): remove one",
                    c->path, line, c->e[i].key, c->e[i].line);
            free(c->e[i].value);
            c->e[i].value = value; /* java.util.Properties: the last one wins */
            c->e[i].line = line;
            c->e[i].col = col;
            return;
        }
    if (c->n == sizeof c->e / sizeof *c->e)
        die(EXIT_INPUT, "%s:%u:1: too many settings", c->path, line);
    c->e[c->n++] = (struct conf_entry){ dup_n(key, klen), value, line, col };
}

/* Lines of TEXT, NUL-terminated in place; CRLF accepted. */
static char **split_lines(char *text, size_t len, size_t *count)
{
    size_t n = 1;
    for (size_t i = 0; i < len; i++)
        n += text[i] == '\n';
    char **lines = calloc(n, sizeof *lines);
    if (!lines)
        die(EXIT_INTERNAL, "out of memory");
    size_t k = 0;
    char *s = text;
    for (size_t i = 0; i <= len; i++)
        if (i == len || text[i] == '\n') {
            text[i] = '\0';
            if (i > 0 && text[i - 1] == '\r' && text + i - 1 >= s)
                text[i - 1] = '\0';
            lines[k++] = s;
            s = text + i + 1;
        }
    if (k && !*lines[k - 1])
        k--; /* the newline ending the last line */
    *count = k;
    return lines;
}

/* A plain scalar's end: before " #" (a comment) or the end, trailing blanks dropped. */
static size_t plain_len(const char *v)
{
    size_t n = 0;
    for (size_t i = 0; v[i]; i++) {
        if (v[i] == '#' && i > 0 && (v[i - 1] == ' ' || v[i - 1] == '\t'))
            break;
        n = i + 1;
    }
    while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
        n--;
    return n;
}

static bool blank_or_comment(const char *l)
{
    l += strspn(l, " \t");
    return *l == '\0' || *l == '#';
}

void conf_read_yaml(struct conf *c, const char *path, const char *const *keys, size_t nkeys)
{
    size_t len;
    char *text = read_all(path, &len);
    if (!text)
        die(EXIT_INPUT, "cannot read %s", path);
    memset(c, 0, sizeof *c);
    c->path = path;
    size_t nl;
    char **lines = split_lines(text, len, &nl);
    for (size_t i = 0; i < nl; i++) {
        const char *l = lines[i];
        unsigned ln = (unsigned)i + 1;
        if (blank_or_comment(l) || l[0] == ' ' || l[0] == '\t' || strncmp(l, "---", 3) == 0 ||
            strncmp(l, "...", 3) == 0 || l[0] == '%')
            continue; /* nested lines belong to a key that is skipped */
        size_t k = 0;
        while (isalnum((unsigned char)l[k]) || l[k] == '_' || l[k] == '-' || l[k] == '.')
            k++;
        size_t colon = k + strspn(l + k, " \t"); /* "key : value" is YAML too */
        if (k == 0 || l[colon] != ':' ||
            (l[colon + 1] != '\0' && l[colon + 1] != ' ' && l[colon + 1] != '\t'))
            continue; /* not a plain `key:` (a quoted key, a list item...): not ours */
        if (!wanted(l, k, keys, nkeys))
            continue;
        const char *v = l + colon + 1;
        v += strspn(v, " \t");
        unsigned col = (unsigned)(v - l) + 1;
        char *value = NULL;
        if (*v == '"' || *v == '\'') {
            char q = *v;
            strbuf b = { 0 };
            sb_puts(&b, "");
            const char *p = v + 1;
            for (;; p++) {
                if (!*p)
                    die(EXIT_INPUT, "%s:%u:%u: %.*s: the quoted value is not closed (a "
                                    "quoted value on several lines is not read: put it on "
                                    "one line)",
                        path, ln, col, (int)k, l);
                if (*p == q && q == '\'' && p[1] == '\'') {
                    sb_puts(&b, "'");
                    p++;
                } else if (*p == q) {
                    break;
                } else if (q == '"' && *p == '\\' && p[1]) {
                    p++;
                    const char *esc = *p == 'n' ? "\n" : *p == 't' ? "\t" : NULL;
                    if (esc)
                        sb_puts(&b, esc);
                    else if (*p == '"' || *p == '\\' || *p == '/' || *p == ' ')
                        sb_put(&b, p, 1);
                    else
                        die(EXIT_INPUT, "%s:%u:%u: %.*s: unsupported escape '\\%c' in a "
                                        "double-quoted value",
                            path, ln, (unsigned)(p - l), (int)k, l, *p);
                } else {
                    sb_put(&b, p, 1);
                }
            }
            const char *rest = p + 1 + strspn(p + 1, " \t");
            if (*rest && *rest != '#')
                die(EXIT_INPUT, "%s:%u:%u: %.*s: unexpected text after the quoted value",
                    path, ln, (unsigned)(rest - l) + 1, (int)k, l);
            value = b.p;
        } else if (*v == '[' || *v == '{' || *v == '|' || *v == '>' || *v == '&' ||
                   *v == '*' || *v == '!') {
            die(EXIT_INPUT, "%s:%u:%u: %.*s: expected a single value, found '%c' (a "
                            "collection, block scalar, anchor or tag)",
                path, ln, col, (int)k, l, *v);
        } else if (*v == '\0' || *v == '#') {
            /* empty: null, unless a block follows */
            size_t j = i + 1;
            while (j < nl && blank_or_comment(lines[j]))
                j++;
            if (j < nl && (lines[j][0] == ' ' || lines[j][0] == '\t' || lines[j][0] == '-')) {
                const char *t = lines[j] + strspn(lines[j], " \t");
                die(EXIT_INPUT, "%s:%zu:%zu: %.*s: expected a single value, found %s", path,
                    j + 1, (size_t)(t - lines[j]) + 1, (int)k, l,
                    *t == '-' ? "a list" : "an indented block");
            }
            value = NULL;
        } else {
            strbuf b = { 0 };
            sb_put(&b, v, plain_len(v));
            /* a plain scalar continued on more-indented lines: folded with a space */
            size_t j = i + 1;
            while (j < nl && (lines[j][0] == ' ' || lines[j][0] == '\t') &&
                   !blank_or_comment(lines[j])) {
                const char *t = lines[j] + strspn(lines[j], " \t");
                sb_puts(&b, " ");
                sb_put(&b, t, plain_len(t));
                j++;
            }
            i = j - 1;
            value = b.p;
            if (strcmp(value, "~") == 0 || strcmp(value, "null") == 0 ||
                strcmp(value, "Null") == 0 || strcmp(value, "NULL") == 0) {
                free(value);
                value = NULL;
            }
        }
        add_entry(c, l, k, value, ln, col, true);
    }
    free(lines);
    free(text);
}

void conf_read_properties(struct conf *c, const char *path)
{
    size_t len;
    char *text = read_all(path, &len);
    if (!text)
        die(EXIT_INPUT, "cannot read %s", path);
    memset(c, 0, sizeof *c);
    c->path = path;
    size_t nl;
    char **lines = split_lines(text, len, &nl);
    for (size_t i = 0; i < nl; i++) {
        unsigned ln = (unsigned)i + 1;
        const char *l = lines[i] + strspn(lines[i], " \t\f");
        if (!*l || *l == '#' || *l == '!')
            continue;
        /* the logical line: a line ending in an odd number of backslashes continues */
        strbuf b = { 0 };
        for (;;) {
            size_t n = strlen(l), bs = 0;
            while (bs < n && l[n - 1 - bs] == '\\')
                bs++;
            if (bs % 2 == 0 || i + 1 >= nl) {
                sb_put(&b, l, n);
                break;
            }
            sb_put(&b, l, n - 1);
            i++;
            l = lines[i] + strspn(lines[i], " \t\f");
        }
        /* key: up to an unescaped '=', ':' or blank */
        const char *s = b.p;
        strbuf key = { 0 }, val = { 0 };
        sb_puts(&key, "");
        sb_puts(&val, "");
        size_t p = 0;
        for (; s[p] && s[p] != '=' && s[p] != ':' && s[p] != ' ' && s[p] != '\t'; p++) {
            if (s[p] == '\\' && s[p + 1])
                p++;
            sb_put(&key, s + p, 1);
        }
        p += strspn(s + p, " \t\f");
        if (s[p] == '=' || s[p] == ':')
            p++;
        p += strspn(s + p, " \t\f");
        unsigned col = (unsigned)p + 1;
        for (; s[p]; p++) {
            if (s[p] == '\\' && s[p + 1]) {
                p++;
                char e = s[p] == 't' ? '\t' : s[p] == 'n' ? '\n' : s[p] == 'r' ? '\r' : s[p];
                sb_put(&val, &e, 1);
            } else {
                sb_put(&val, s + p, 1);
            }
        }
        add_entry(c, key.p, key.n, val.p, ln, col, false);
        free(key.p);
        free(b.p);
    }
    free(lines);
    free(text);
}

const struct conf_entry *conf_get(const struct conf *c, const char *key)
{
    for (size_t i = 0; c && i < c->n; i++)
        if (strcmp(c->e[i].key, key) == 0)
            return &c->e[i];
    return NULL;
}

void conf_free(struct conf *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->e[i].key);
        free(c->e[i].value);
    }
    c->n = 0;
}
