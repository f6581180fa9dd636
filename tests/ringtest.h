/* SPDX-License-Identifier: Apache-2.0 */
/* Small helpers shared by the ring, placement and ownership vector tests (on top of the
 * TSV reader tests/tsv.h): building a topology from a replicas_NAME.topology.tsv file,
 * the replication of a vector row, and exact 128-bit decimal parsing. Header-only. */
#ifndef TOKENRING_TESTS_RINGTEST_H
#define TOKENRING_TESTS_RINGTEST_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"
#include "tsv.h"

__extension__ typedef unsigned __int128 rt_u128;

/* Data lines of a vector file (non-empty lines after the header), counted independently
 * of the TSV reader so that a skipped row cannot go unnoticed. */
static inline size_t rt_data_lines(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", tsv_data_dir(), name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t lines = 0;
    int c, prev = '\n';
    while ((c = fgetc(f)) != EOF) {
        if (c == '\n' && prev != '\n')
            lines++;
        prev = c;
    }
    if (prev != '\n')
        lines++;
    fclose(f);
    return lines ? lines - 1 : 0;
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
    tsv_file *t = tsv_open(name);
    if (!t)
        return NULL;
    int c_node = tsv_column(t, "node"), c_dc = tsv_column(t, "dc"),
        c_rack = tsv_column(t, "rack"), c_tokens = tsv_column(t, "tokens");
    tokenring_topology *topo = NULL;
    if (c_node < 0 || c_dc < 0 || c_rack < 0 || c_tokens < 0 ||
        tokenring_topology_new(&topo) != TOKENRING_OK) {
        tsv_close(t);
        return NULL;
    }
    while (tsv_next(t)) {
        int64_t toks[1024];
        size_t n = 0;
        for (const char *p = tsv_field(t, (size_t)c_tokens); *p && n < 1024;) {
            char *end;
            toks[n++] = (int64_t)strtoll(p, &end, 10);
            p = *end == ',' ? end + 1 : end;
        }
        tokenring_error err;
        if (tokenring_topology_add_node(topo, tsv_field(t, (size_t)c_node),
                                        tsv_field(t, (size_t)c_dc), tsv_field(t, (size_t)c_rack),
                                        toks, n, &err) != TOKENRING_OK) {
            fprintf(stderr, "%s line %zu: %s\n", name, tsv_line(t), err.message);
            tokenring_topology_free(topo);
            tsv_close(t);
            return NULL;
        }
    }
    tsv_close(t);
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
