/* SPDX-License-Identifier: Apache-2.0 */
/* Parsing benchmark: reads a generated cluster of N single-token nodes in every input
 * format (topology file, TSV, nodetool ring, nodetool status, nodetool describering,
 * cqlsh system.peers_v2), and the merge of a status and a ring of the same cluster, and
 * prints the time per node at each N side by side. Reading N nodes costs O(N) lookups, so
 * the time per node stays about flat from 10,000 to 100,000 nodes (a quadratic reader's
 * grows tenfold). Each figure is the median of a few passes; thread CPU time.
 *
 *   bench-parse              10,000 and 100,000 nodes
 *   bench-parse N [N ...]    the node counts given
 *
 * See doc/performance.md, "Parsing". */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tokenring/tokenring.h"

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A growing text buffer. */
typedef struct {
    char *p;
    size_t n, cap;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(t->p ? t->p + t->n : NULL, t->p ? t->cap - t->n : 0, fmt, ap);
        va_end(ap);
        if (k >= 0 && t->p && (size_t)k < t->cap - t->n) {
            t->n += (size_t)k;
            return;
        }
        size_t ncap = t->cap ? t->cap * 2 : 1 << 20;
        char *np = realloc(t->p, ncap);
        if (!np) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
        t->p = np;
        t->cap = ncap;
    }
}

/* Node i: its name, rack and (ascending) token. */
static const char *node_name(size_t i, char *buf)
{
    snprintf(buf, 32, "10.%u.%u.%u", (unsigned)(i >> 16 & 255), (unsigned)(i >> 8 & 255),
             (unsigned)(i & 255));
    return buf;
}
static int64_t node_token(size_t i, size_t n)
{
    return (int64_t)((uint64_t)INT64_MIN + (uint64_t)i * (UINT64_MAX / n));
}

enum { TOPOLOGY, TSV, RING, STATUS, DESCRIBERING, CQLSH, FORMATS };
static const char *const format_names[FORMATS] = { "topology", "tsv", "ring", "status",
                                                   "describering", "cqlsh" };

static void generate(text *t, int format, size_t n)
{
    char a[32];
    t->n = 0;
    switch (format) {
    case TOPOLOGY:
        for (size_t i = 0; i < n; i++)
            put(t, "node %s dc=dc1 rack=r%zu tokens=%lld\n", node_name(i, a), i % 3,
                (long long)node_token(i, n));
        break;
    case TSV:
        put(t, "node\tdc\track\ttokens\n");
        for (size_t i = 0; i < n; i++)
            put(t, "%s\tdc1\tr%zu\t%lld\n", node_name(i, a), i % 3,
                (long long)node_token(i, n));
        break;
    case RING:
        put(t, "\nDatacenter: dc1\n==========\nAddress    Rack   Status State   Load       "
               "Owns    Token\n                                                    %lld\n",
            (long long)node_token(n - 1, n));
        for (size_t i = 0; i < n; i++)
            put(t, "%-10s r%zu     Up     Normal  98.97 KiB  0.01%%   %lld\n",
                node_name(i, a), i % 3, (long long)node_token(i, n));
        put(t, "\n");
        break;
    case STATUS:
        put(t, "Datacenter: dc1\n===============\nStatus=Up/Down\n|/ State=Normal/Leaving/"
               "Joining/Moving\n--  Address     Load        Tokens  Owns (effective)  "
               "Host ID                               Rack\n");
        for (size_t i = 0; i < n; i++)
            put(t, "UN  %-10s  75.19 KiB   1       0.01%%             "
                   "3d8f189c-ad47-4b1e-8ea8-%012zx  r%zu\n",
                node_name(i, a), i, i % 3);
        break;
    case DESCRIBERING:
        put(t, "Schema Version:d8210030-20a4-3f05-b2ef-ea154a6d8ef6\nTokenRange: \n");
        for (size_t i = 0; i < n; i++) {
            node_name(i, a);
            put(t, "    TokenRange(start_token:%lld, end_token:%lld, endpoints:[%s], "
                   "rpc_endpoints:[%s], endpoint_details:[EndpointDetails(host:%s, "
                   "datacenter:dc1, rack:r%zu)])\n",
                (long long)node_token(i ? i - 1 : n - 1, n), (long long)node_token(i, n), a,
                a, a, i % 3);
        }
        break;
    case CQLSH:
        put(t, " peer       | data_center | rack | tokens\n------------+-------------+"
               "------+----------------------------\n");
        for (size_t i = 0; i < n; i++)
            put(t, " %-10s |         dc1 |   r%zu | {'%lld'}\n", node_name(i, a), i % 3,
                (long long)node_token(i, n));
        put(t, "\n(%zu rows)\n", n);
        break;
    }
}

#define PASSES 3

/* Median time per node (ns) of parsing texts[0..ntexts) into one fresh cluster. */
static double time_parse(text *texts, int ntexts, const int *formats, size_t n)
{
    double v[PASSES];
    for (int pass = 0; pass < PASSES; pass++) {
        tokenring_cluster *c = NULL;
        if (tokenring_cluster_new(&c) != TOKENRING_OK)
            exit(1);
        double t0 = now_ns();
        for (int k = 0; k < ntexts; k++) {
            tokenring_error err;
            int rc = tokenring_cluster_parse(c, formats[k], texts[k].p, texts[k].n, 0, NULL,
                                             &err);
            if (rc != TOKENRING_OK) {
                fprintf(stderr, "%s, %zu nodes: line %u column %u: %s\n",
                        format_names[formats[k]], n, (unsigned)err.line,
                        (unsigned)err.column, err.message);
                exit(1);
            }
        }
        v[pass] = (now_ns() - t0) / (double)n;
        if (tokenring_cluster_node_count(c) != n) {
            fprintf(stderr, "%zu nodes read, %zu expected\n", tokenring_cluster_node_count(c),
                    n);
            exit(1);
        }
        tokenring_cluster_free(c);
    }
    qsort(v, PASSES, sizeof *v, cmp_double);
    return v[PASSES / 2];
}

static const int input_format[FORMATS] = {
    TOKENRING_INPUT_TOPOLOGY,      TOKENRING_INPUT_TSV,
    TOKENRING_INPUT_NODETOOL_RING, TOKENRING_INPUT_NODETOOL_STATUS,
    TOKENRING_INPUT_NODETOOL_DESCRIBERING, TOKENRING_INPUT_CQLSH,
};

int main(int argc, char **argv)
{
    size_t sizes[8] = { 10000, 100000 };
    int nsizes = 2;
    if (argc > 1) {
        nsizes = 0;
        for (int i = 1; i < argc && nsizes < 8; i++) {
            char *end;
            unsigned long long v = strtoull(argv[i], &end, 10);
            if (*end || v < 2 || v > 1000000) {
                fprintf(stderr, "usage: bench-parse [NODES ...] (2 .. 1000000 each)\n");
                return 2;
            }
            sizes[nsizes++] = (size_t)v;
        }
    }
    double ns[FORMATS + 1][8];
    for (int s = 0; s < nsizes; s++) {
        text texts[FORMATS];
        memset(texts, 0, sizeof texts);
        for (int f = 0; f < FORMATS; f++) {
            generate(&texts[f], f, sizes[s]);
            int fmt = input_format[f];
            ns[f][s] = time_parse(&texts[f], 1, &fmt, sizes[s]);
        }
        /* status first (host IDs, no tokens), then the ring fills the tokens: the merge
         * finds every node of the second input in the first */
        text two[2] = { texts[STATUS], texts[RING] };
        int fmts[2] = { TOKENRING_INPUT_NODETOOL_STATUS, TOKENRING_INPUT_NODETOOL_RING };
        ns[FORMATS][s] = time_parse(two, 2, fmts, sizes[s]);
        for (int f = 0; f < FORMATS; f++)
            free(texts[f].p);
    }
    printf("Parse time per node (ns, median of %d passes, single-token nodes)\n\n", PASSES);
    printf("| input |");
    for (int s = 0; s < nsizes; s++)
        printf(" %zu nodes |", sizes[s]);
    if (nsizes > 1)
        printf(" ratio |");
    printf("\n| --- |");
    for (int s = 0; s < nsizes; s++)
        printf(" ---: |");
    if (nsizes > 1)
        printf(" ---: |");
    printf("\n");
    for (int f = 0; f <= FORMATS; f++) {
        printf("| %s |", f < FORMATS ? format_names[f] : "status + ring (merge)");
        for (int s = 0; s < nsizes; s++)
            printf(" %.0f |", ns[f][s]);
        if (nsizes > 1)
            printf(" %.2f |", ns[f][nsizes - 1] / ns[f][0]);
        printf("\n");
    }
    return 0;
}
