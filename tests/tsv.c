/* SPDX-License-Identifier: Apache-2.0 */
/* Tab-separated vector reader for the tests: see tsv.h. */
#include "tsv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef TEST_DATA_DIR
#define TEST_DATA_DIR "tests/data"
#endif

struct tsv_file {
    FILE *fp;
    char *line;       /* current line buffer (fields point into it) */
    size_t line_cap;
    char **fields;
    size_t *lens;
    size_t nfields, fields_cap;
    char *header;     /* copy of the header line, fields in header_fields */
    char **header_fields;
    size_t nheader;
    size_t lineno, rows;
};

const char *tsv_data_dir(void)
{
    const char *env = getenv("TOKENRING_TEST_DATA");
    return env && *env ? env : TEST_DATA_DIR;
}

/* Reads one line (any length) into f->line without the newline. 0 at EOF. */
static int read_line(tsv_file *f)
{
    size_t n = 0;
    int c;
    while ((c = fgetc(f->fp)) != EOF && c != '\n') {
        if (n + 1 >= f->line_cap) {
            size_t nc = f->line_cap ? f->line_cap * 2 : 256;
            char *p = realloc(f->line, nc);
            if (p == NULL)
                return 0;
            f->line = p;
            f->line_cap = nc;
        }
        f->line[n++] = (char)c;
    }
    if (c == EOF && n == 0)
        return 0;
    if (f->line == NULL) {
        f->line = malloc(1);
        if (f->line == NULL)
            return 0;
        f->line_cap = 1;
    }
    if (n > 0 && f->line[n - 1] == '\r')
        n--;
    f->line[n] = '\0';
    f->lineno++;
    return 1;
}

/* Splits f->line in place on tabs into f->fields. */
static int split(tsv_file *f)
{
    f->nfields = 0;
    char *p = f->line;
    for (;;) {
        if (f->nfields == f->fields_cap) {
            size_t nc = f->fields_cap ? f->fields_cap * 2 : 16;
            char **nf = realloc(f->fields, nc * sizeof *nf);
            if (nf == NULL)
                return 0;
            f->fields = nf;
            size_t *nl = realloc(f->lens, nc * sizeof *nl);
            if (nl == NULL)
                return 0;
            f->lens = nl;
            f->fields_cap = nc;
        }
        char *tab = strchr(p, '\t');
        f->fields[f->nfields] = p;
        f->lens[f->nfields] = tab ? (size_t)(tab - p) : strlen(p);
        f->nfields++;
        if (tab == NULL)
            break;
        *tab = '\0';
        p = tab + 1;
    }
    return 1;
}

static int skip_line(const char *line)
{
    return line[0] == '\0' || line[0] == '#';
}

tsv_file *tsv_open(const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", tsv_data_dir(), name);
    tsv_file *f = calloc(1, sizeof *f);
    if (f == NULL)
        return NULL;
    f->fp = fopen(path, "rb");
    if (f->fp == NULL) {
        fprintf(stderr, "tsv: cannot open %s\n", path);
        free(f);
        return NULL;
    }
    while (read_line(f)) {
        if (skip_line(f->line))
            continue;
        f->header = strdup(f->line);
        if (f->header == NULL || !split(f))
            break;
        f->nheader = f->nfields;
        f->header_fields = malloc(f->nheader * sizeof *f->header_fields);
        if (f->header_fields == NULL)
            break;
        for (size_t i = 0; i < f->nheader; i++)
            f->header_fields[i] = f->header + (f->fields[i] - f->line);
        /* split() cut f->line, not the copy: cut the copy the same way */
        for (size_t i = 0; i + 1 < f->nheader; i++)
            f->header[(f->fields[i] - f->line) + f->lens[i]] = '\0';
        f->nfields = 0;
        return f;
    }
    fprintf(stderr, "tsv: %s has no header line\n", path);
    tsv_close(f);
    return NULL;
}

void tsv_close(tsv_file *f)
{
    if (f == NULL)
        return;
    if (f->fp)
        fclose(f->fp);
    free(f->line);
    free(f->fields);
    free(f->lens);
    free(f->header);
    free(f->header_fields);
    free(f);
}

int tsv_column(const tsv_file *f, const char *name)
{
    for (size_t i = 0; i < f->nheader; i++)
        if (strcmp(f->header_fields[i], name) == 0)
            return (int)i;
    return -1;
}

size_t tsv_header_count(const tsv_file *f)
{
    return f->nheader;
}

int tsv_next(tsv_file *f)
{
    while (read_line(f)) {
        if (skip_line(f->line))
            continue;
        if (!split(f))
            return 0;
        f->rows++;
        return 1;
    }
    f->nfields = 0;
    return 0;
}

size_t tsv_count(const tsv_file *f)
{
    return f->nfields;
}

const char *tsv_field(const tsv_file *f, size_t i)
{
    return i < f->nfields ? f->fields[i] : "";
}

size_t tsv_field_len(const tsv_file *f, size_t i)
{
    return i < f->nfields ? f->lens[i] : 0;
}

size_t tsv_line(const tsv_file *f)
{
    return f->lineno;
}

size_t tsv_rows(const tsv_file *f)
{
    return f->rows;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

long tsv_hex_decode(const char *hex, size_t hexlen, uint8_t *out, size_t cap)
{
    if (hexlen % 2 || hexlen / 2 > cap)
        return -1;
    for (size_t i = 0; i < hexlen / 2; i++) {
        int a = hexval((unsigned char)hex[2 * i]), b = hexval((unsigned char)hex[2 * i + 1]);
        if (a < 0 || b < 0)
            return -1;
        out[i] = (uint8_t)(a << 4 | b);
    }
    return (long)(hexlen / 2);
}

uint8_t *tsv_hex_dup(const char *hex, size_t hexlen, size_t *len_out)
{
    uint8_t *p = malloc(hexlen / 2 + 1);
    if (p == NULL)
        return NULL;
    long n = tsv_hex_decode(hex, hexlen, p, hexlen / 2);
    if (n < 0) {
        free(p);
        return NULL;
    }
    *len_out = (size_t)n;
    return p;
}

char *tsv_hex_encode(const uint8_t *bytes, size_t len)
{
    static const char digits[] = "0123456789abcdef";
    char *s = malloc(2 * len + 1);
    if (s == NULL)
        return NULL;
    for (size_t i = 0; i < len; i++) {
        s[2 * i] = digits[bytes[i] >> 4];
        s[2 * i + 1] = digits[bytes[i] & 15];
    }
    s[2 * len] = '\0';
    return s;
}
