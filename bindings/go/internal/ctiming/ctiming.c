/* SPDX-License-Identifier: Apache-2.0 */
/* The C side of the Go binding's benchmark (../../bench_test.go): the same rings (same
 * splitmix64 seed, node names, datacenters, racks, tokens), the same 100,000 16-byte keys
 * and the same operations, timed in plain C inside the benchmark process, so that each Go
 * figure is measured next to the library's own per-key cost under the same load. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <tokenring/tokenring.h>

#include "ctiming.h"

#define NKEYS 100000

static uint64_t state;
static uint64_t next_rand(void)
{
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU time of this thread, as the Go side */
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static volatile uint64_t sink;

typedef struct {
    uint8_t *keys;
    uint64_t *offs;
    int64_t *tokens;
    uint32_t *ids;
    tokenring_ring *ring;
    tokenring_placement *pl;
} bench;

static bench benches[2];

double ctiming_run(int ring_index, int op)
{
    const bench *b = &benches[ring_index];
    uint64_t acc = 0;
    tokenring_replicas rr;
    double t0 = now_ns();
    switch (op) {
    case OP_TOKEN_SINGLE:
        for (size_t i = 0; i < NKEYS; i++)
            acc += (uint64_t)tokenring_token(b->keys + b->offs[i], 16);
        break;
    case OP_TOKEN_BATCH:
        tokenring_tokens(b->tokens, b->keys, b->offs, NKEYS);
        break;
    case OP_OWNER_SINGLE:
        for (size_t i = 0; i < NKEYS; i++)
            acc += tokenring_ring_search(b->ring, b->tokens[i]);
        break;
    case OP_KEY_SINGLE:
        for (size_t i = 0; i < NKEYS; i++) {
            tokenring_placement_replicas_for_key(&rr, b->pl, b->keys + b->offs[i], 16);
            for (uint32_t k = 0; k < rr.count; k++)
                acc += rr.nodes[k];
        }
        break;
    case OP_KEY_BATCH:
        tokenring_placement_route_keys(NULL, b->ids, b->pl, b->keys, b->offs, NKEYS);
        for (size_t i = 0; i < NKEYS; i++) {
            tokenring_placement_set(&rr, b->pl, b->ids[i]);
            for (uint32_t k = 0; k < rr.count; k++)
                acc += rr.nodes[k];
        }
        break;
    case OP_KEY_REPLICAS_BATCH: {
        tokenring_replicas chunk[256]; /* the chunk the Go binding routes per call */
        for (size_t i = 0; i < NKEYS; i += 256) {
            size_t m = NKEYS - i < 256 ? NKEYS - i : 256;
            tokenring_placement_route_keys_replicas(chunk, NULL, b->pl, b->keys, b->offs + i, m);
            for (size_t j = 0; j < m; j++)
                for (uint32_t k = 0; k < chunk[j].count; k++)
                    acc += chunk[j].nodes[k];
        }
        break;
    }
    case OP_TOKEN_REPLICAS_SINGLE:
        for (size_t i = 0; i < NKEYS; i++) {
            tokenring_placement_replicas(&rr, b->pl, b->tokens[i]);
            acc += rr.nodes[0];
        }
        break;
    case OP_TOKEN_REPLICAS_BATCH:
        tokenring_ring_search_batch(b->ids, b->ring, b->tokens, NKEYS);
        for (size_t i = 0; i < NKEYS; i++) {
            tokenring_placement_range_replicas(&rr, b->pl, b->ids[i]);
            acc += rr.nodes[0];
        }
        break;
    }
    double t1 = now_ns();
    sink += acc;
    return (t1 - t0) / NKEYS;
}

int ctiming_setup(int ring_index, int nodes, int vnodes, int dcs, int racks, const char *repl_text,
                  uint64_t *checksum_out)
{
    bench *b = &benches[ring_index];
    state = 0x2545F4914F6CDD1Dull;
    tokenring_topology *topo;
    int rc = tokenring_topology_new(&topo);
    if (rc)
        return rc;
    int64_t *tok = malloc((size_t)vnodes * sizeof *tok);
    char n[32], dc[16], rack[16];
    for (int i = 0; i < nodes; i++) {
        snprintf(n, sizeof n, "10.%d.%d.%d", i % dcs, i / 250, i % 250);
        snprintf(dc, sizeof dc, "dc%d", i % dcs + 1);
        snprintf(rack, sizeof rack, "rack%d", i / dcs % racks + 1);
        for (;;) {
            for (int k = 0; k < vnodes; k++)
                tok[k] = (int64_t)next_rand();
            rc = tokenring_topology_add_node(topo, n, dc, rack, tok, (size_t)vnodes, NULL);
            if (rc == TOKENRING_OK)
                break;
            if (rc != TOKENRING_E_EXISTS)
                return rc;
        }
    }
    free(tok);
    if ((rc = tokenring_ring_build(&b->ring, topo, NULL)))
        return rc;
    tokenring_topology_free(topo);
    tokenring_replication *repl;
    if ((rc = tokenring_replication_parse(&repl, repl_text, strlen(repl_text), NULL)))
        return rc;
    rc = tokenring_placement_build(&b->pl, b->ring, repl, 0, NULL);
    tokenring_replication_free(repl);
    if (rc)
        return rc;
    b->keys = malloc(NKEYS * 16);
    b->offs = malloc((NKEYS + 1) * sizeof *b->offs);
    b->tokens = malloc(NKEYS * sizeof *b->tokens);
    b->ids = malloc(NKEYS * sizeof *b->ids);
    for (size_t i = 0; i < NKEYS; i++) {
        uint64_t lo = next_rand(), hi = next_rand(); /* little-endian, as the Go side */
        memcpy(b->keys + 16 * i, &lo, 8);
        memcpy(b->keys + 16 * i + 8, &hi, 8);
    }
    for (size_t i = 0; i <= NKEYS; i++)
        b->offs[i] = 16 * i;
    tokenring_tokens(b->tokens, b->keys, b->offs, NKEYS);
    /* A checksum of the ring tokens and key tokens, for the Go side to compare. */
    size_t nt;
    const int64_t *rt = tokenring_ring_tokens(b->ring, &nt);
    uint64_t sum = 0;
    for (size_t i = 0; i < nt; i++)
        sum = sum * 31 + (uint64_t)rt[i];
    for (size_t i = 0; i < NKEYS; i++)
        sum = sum * 31 + (uint64_t)b->tokens[i];
    *checksum_out = sum;
    return 0;
}
