/* SPDX-License-Identifier: Apache-2.0 */
/* One join into a large ring (issue 20, speed): the tokens of a 1001st node joining a
 * 1000-node x 16-token datacenter, in Cassandra-exact mode (tokenring_allocate_cassandra,
 * the tokens Cassandra would choose) and in the library's default mode
 * (tokenring_allocate_join, the default plan for one join), next to Cassandra's own allocator on the same ring: run
 * bench/cassandra/compare.sh, which runs this program and the Java harness beside it
 * (bench/cassandra/JoinBench.java) in one go. Not a test: prints figures only.
 *
 * Usage: bench_join RING_OUT [REPEATS]
 *   writes the two rings it times (1 rack, and 3 racks) to RING_OUT.<layout>.tsv in the
 *   format of tests/data/cassandra_allocation_*.tsv ("node" lines), then prints one line
 *   per ring and mode: layout, mode, median and best wall seconds of REPEATS (default 21)
 *   joins, and the tokens of the exact mode (for the harness to compare). Mode exact128
 *   is the exact mode on the same ring written in RandomPartitioner tokens
 *   (tokenring_allocate_cassandra128; Murmur3 token t as (t + 2^63) * 2^63, the same
 *   order and range sizes), its tokens in decimal. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tokenring/tokenring.h"

#define NODES 1000
#define TOKENS 16

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void must(int rc, const char *what, const tokenring_error *err)
{
    if (rc != TOKENRING_OK) {
        fprintf(stderr, "bench_join: %s: %s (%s)\n", what, tokenring_strerror(rc),
                err ? err->message : "");
        exit(1);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_join RING_OUT [REPEATS]\n");
        return 2;
    }
    int repeats = argc > 2 ? atoi(argv[2]) : 21;
    if (repeats < 1)
        repeats = 1;
    double *times = calloc((size_t)repeats, sizeof *times);
    for (int racks = 1; racks <= 3; racks += 2) {
        /* random tokens (a fixed seed), node i in rack i mod racks, addresses 10.x.y.z */
        uint64_t seed = 20261202u + (uint64_t)racks;
        tokenring_topology *t = NULL;
        tokenring_error err;
        must(tokenring_topology_new(&t), "topology", NULL);
        char path[4096];
        snprintf(path, sizeof path, "%s.%drack.tsv", argv[1], racks);
        FILE *f = fopen(path, "w");
        if (!f) {
            perror(path);
            return 1;
        }
        fprintf(f, "# %d nodes x %d random tokens, %d rack(s), written by bench_join\n",
                NODES, TOKENS, racks);
        for (int i = 0; i < NODES; i++) {
            int64_t tok[TOKENS];
            char name[32], rack[16];
            snprintf(name, sizeof name, "10.0.%d.%d", i / 250, i % 250 + 1);
            snprintf(rack, sizeof rack, "rack%d", i % racks + 1);
            int rc;
            do {
                for (int k = 0; k < TOKENS; k++)
                    tok[k] = (int64_t)splitmix(&seed);
                rc = tokenring_topology_add_node(t, name, "dc1", rack, tok, TOKENS, &err);
            } while (rc == TOKENRING_E_EXISTS);
            must(rc, "add node", &err);
            tokenring_node_info info;
            must(tokenring_topology_node(&info, t, (size_t)i), "node", NULL);
            fprintf(f, "node\t%s\tdc1\t%s\tN\t", name, rack);
            for (size_t k = 0; k < info.token_count; k++)
                fprintf(f, "%s%" PRId64, k ? "," : "", info.tokens[k]);
            fputc('\n', f);
        }
        fclose(f);
        int64_t out[TOKENS];
        for (int mode = 0; mode < 2; mode++) {
            for (int r = 0; r < repeats; r++) {
                double t0 = now();
                int rc = mode == 0
                             ? tokenring_allocate_cassandra(out, TOKENS, t, "10.0.9.1", "dc1",
                                                            "rack1", NULL, 3, NULL,
                                                            TOKENRING_CASSANDRA_5_0, 0, &err)
                             : tokenring_allocate_join(out, TOKENS, t, "10.0.9.1", "dc1", "rack1",
                                                       NULL, 3, TOKENRING_CASSANDRA_5_0, 0,
                                                       &err);
                times[r] = now() - t0;
                must(rc, mode == 0 ? "allocate_cassandra" : "allocate_join", &err);
            }
            qsort(times, (size_t)repeats, sizeof *times, cmp_double);
            printf("%drack\t%s\t%.6f\t%.6f", racks, mode == 0 ? "exact" : "default",
                   times[repeats / 2], times[0]);
            if (mode == 0) {
                putchar('\t');
                for (int k = 0; k < TOKENS; k++)
                    printf("%s%" PRId64, k ? "," : "", out[k]);
            }
            putchar('\n');
        }
        /* the same ring in RandomPartitioner tokens */
        tokenring_topology *t128 = NULL;
        must(tokenring_topology_new_partitioned(&t128, TOKENRING_PARTITIONER_RANDOM),
             "topology", NULL);
        for (size_t i = 0; i < tokenring_topology_node_count(t); i++) {
            tokenring_node_info info;
            tokenring_token128 tk[TOKENS];
            must(tokenring_topology_node(&info, t, i), "node", NULL);
            for (size_t k = 0; k < info.token_count; k++) {
                uint64_t u = (uint64_t)info.tokens[k] ^ (UINT64_C(1) << 63);
                tk[k] = (tokenring_token128){ u >> 1, u << 63 };
            }
            must(tokenring_topology_add_node128(t128, info.name, info.datacenter, info.rack,
                                                tk, info.token_count, &err),
                 "add node", &err);
        }
        tokenring_token128 out128[TOKENS];
        for (int r = 0; r < repeats; r++) {
            double t0 = now();
            int rc = tokenring_allocate_cassandra128(out128, TOKENS, t128, "10.0.9.1", "dc1",
                                                     "rack1", NULL, 3, NULL,
                                                     TOKENRING_CASSANDRA_5_0, 0, &err);
            times[r] = now() - t0;
            must(rc, "allocate_cassandra128", &err);
        }
        qsort(times, (size_t)repeats, sizeof *times, cmp_double);
        printf("%drack\texact128\t%.6f\t%.6f\t", racks, times[repeats / 2], times[0]);
        for (int k = 0; k < TOKENS; k++) {
            char text[TOKENRING_TOKEN128_TEXT_MAX];
            size_t len;
            must(tokenring_token128_format(text, sizeof text, &len, out128[k]), "format", NULL);
            printf("%s%s", k ? "," : "", text);
        }
        putchar('\n');
        tokenring_topology_free(t128);
        tokenring_topology_free(t);
    }
    free(times);
    return 0;
}
