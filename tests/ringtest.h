/* SPDX-License-Identifier: Apache-2.0 */
/* Small helpers shared by the ring, placement and ownership tests: reading the golden
 * vector files (tab-separated, one header line), building a topology from a
 * replicas_NAME.topology.tsv file, and exact 128-bit decimal parsing. Header-only. */
#ifndef TOKENRING_TESTS_RINGTEST_H
#define TOKENRING_TESTS_RINGTEST_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"

#ifndef TEST_DATA_DIR
#define TEST_DATA_DIR "tests/data"
#endif

__extension__ typedef unsigned __int128 rt_u128;

/* A TSV file: rows of fields, row 0 the header. */
typedef struct {
    char *text;
    char ***rows;
    size_t *nfields;
    size_t nrows;
} rt_tsv;

static inline const char *rt_data_dir(void)
{
    const char *d = getenv("TOKENRING_TEST_DATA");
    return d && *d ? d : TEST_DATA_DIR;
}

/* Loads DATA_DIR/name; returns 0 on success. */
static inline int rt_tsv_load(rt_tsv *t, const char *name)
{
    memset(t, 0, sizeof *t);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", rt_data_dir(), name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    t->text = malloc((size_t)size + 1);
    if (!t->text || fread(t->text, 1, (size_t)size, f) != (size_t)size) {
        fclose(f);
        return -1;
    }
    fclose(f);
    t->text[size] = '\0';
    size_t lines = 0;
    for (long i = 0; i < size; i++)
        lines += t->text[i] == '\n';
    lines++;
    t->rows = calloc(lines, sizeof *t->rows);
    t->nfields = calloc(lines, sizeof *t->nfields);
    char *p = t->text;
    while (*p) {
        char *eol = strchr(p, '\n');
        if (eol)
            *eol = '\0';
        if (*p) {
            size_t nf = 1;
            for (char *q = p; *q; q++)
                nf += *q == '\t';
            char **fields = calloc(nf, sizeof *fields);
            size_t k = 0;
            fields[k++] = p;
            for (char *q = p; *q; q++) {
                if (*q == '\t') {
                    *q = '\0';
                    fields[k++] = q + 1;
                }
            }
            t->rows[t->nrows] = fields;
            t->nfields[t->nrows] = nf;
            t->nrows++;
        }
        if (!eol)
            break;
        p = eol + 1;
    }
    return 0;
}

static inline void rt_tsv_free(rt_tsv *t)
{
    for (size_t i = 0; i < t->nrows; i++)
        free(t->rows[i]);
    free(t->rows);
    free(t->nfields);
    free(t->text);
    memset(t, 0, sizeof *t);
}

/* Column index by header name, or -1. */
static inline int rt_tsv_col(const rt_tsv *t, const char *name)
{
    for (size_t i = 0; t->nrows && i < t->nfields[0]; i++)
        if (strcmp(t->rows[0][i], name) == 0)
            return (int)i;
    return -1;
}

static inline int64_t rt_i64(const char *s)
{
    return (int64_t)strtoll(s, NULL, 10);
}

static inline rt_u128 rt_u128_dec(const char *s)
{
    rt_u128 v = 0;
    for (; *s >= '0' && *s <= '9'; s++)
        v = v * 10 + (unsigned)(*s - '0');
    return v;
}

static inline rt_u128 rt_u128_of(tokenring_u128 v)
{
    return ((rt_u128)v.hi << 64) | v.lo;
}

/* Builds a topology from a replicas_NAME.topology.tsv file (node, dc, rack, tokens). */
static inline tokenring_topology *rt_topology_load(const char *name)
{
    rt_tsv t;
    if (rt_tsv_load(&t, name) != 0)
        return NULL;
    tokenring_topology *topo = NULL;
    if (tokenring_topology_new(&topo) != TOKENRING_OK)
        return NULL;
    for (size_t r = 1; r < t.nrows; r++) {
        char **f = t.rows[r];
        int64_t toks[1024];
        size_t n = 0;
        for (char *p = f[3]; *p && n < 1024;) {
            char *end;
            toks[n++] = (int64_t)strtoll(p, &end, 10);
            p = *end == ',' ? end + 1 : end;
        }
        tokenring_error err;
        if (tokenring_topology_add_node(topo, f[0], f[1], f[2], toks, n, &err) != TOKENRING_OK) {
            fprintf(stderr, "%s: %s\n", name, err.message);
            tokenring_topology_free(topo);
            rt_tsv_free(&t);
            return NULL;
        }
    }
    rt_tsv_free(&t);
    return topo;
}

/* The replication of a vector row: strategy + options ("3", "3/1", "dc1=3,dc2=2/1"). */
static inline tokenring_replication *rt_replication(const char *strategy, const char *options)
{
    char text[512];
    snprintf(text, sizeof text, "%s:%s", strategy, options);
    tokenring_replication *r = NULL;
    tokenring_error err;
    if (tokenring_replication_parse(&r, text, strlen(text), &err) != TOKENRING_OK) {
        fprintf(stderr, "%s: %s\n", text, err.message);
        return NULL;
    }
    return r;
}

#endif
