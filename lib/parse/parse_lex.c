/* SPDX-License-Identifier: Apache-2.0 */
/* Bottom layer of the parsers: the line reader and small lexing helpers every
 * format uses. Knows nothing of clusters or formats. */
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
    ls->eol = '\n';
    if (ls->pos < ls->len && !memchr(text + ls->pos, '\n', ls->len - ls->pos) &&
        memchr(text + ls->pos, '\r', ls->len - ls->pos))
        ls->eol = '\r';
}

bool tr_lines_next(tr_lines *ls, const char **line, size_t *n)
{
    if (ls->pos >= ls->len)
        return false;
    const char *start = ls->text + ls->pos;
    const char *nl = memchr(start, ls->eol, ls->len - ls->pos);
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

bool tr_is_elision(const char *t, size_t n)
{
    size_t dots = 0;
    for (size_t i = 0; i < n; i++) {
        if (t[i] == '.')
            dots++;
        else if (t[i] != ' ' && t[i] != '\t')
            return false;
    }
    return dots >= 2;
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
