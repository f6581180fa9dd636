/* SPDX-License-Identifier: Apache-2.0 */
/* Router benchmarks (issue 28): per request through the holder (acquire, route one key,
 * read the local view, release) next to the read-write-lock pattern ring.h documents and
 * to a hand-written branchless lower_bound over a flat token array with a flat replica
 * array, on 1 and 2 reader threads; building a snapshot of 96 nodes x 256 tokens, 3
 * datacenters x 3 racks, 10 keyspaces of 3 distinct replications, from driver rows;
 * applying one join; memory per token. Per-request figures are thread CPU time (the
 * slower thread's, median of runs); build and event figures are wall time.
 *
 *   bench-router [--quick]     prints the tables; see doc/performance.md */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tokenring/tokenring.h"

#define DCS 3
#define RACKS 3
#define PER_DC 32
#define NODES (DCS * PER_DC)
#define VN 256
#define KEYS (1 << 16)

static int quick;
static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint64_t next_rand(void)
{
    uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double wall_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Thread CPU time: time the scheduler gives other processes on a shared machine is not
 * counted (cache-line sharing between the reader threads still is). */
static double cpu_ns(void)
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

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

/* ------------------------------------------------------ counting allocator */

static atomic_llong live_bytes;

static void *c_malloc(size_t n, void *u)
{
    (void)u;
    size_t *p = malloc(n + 16);
    if (!p)
        return NULL;
    p[0] = n;
    atomic_fetch_add(&live_bytes, (long long)n);
    return (char *)p + 16;
}

static void c_free(void *ptr, void *u)
{
    (void)u;
    if (!ptr)
        return;
    size_t *p = (size_t *)((char *)ptr - 16);
    atomic_fetch_sub(&live_bytes, (long long)p[0]);
    free(p);
}

static void *c_realloc(void *ptr, size_t n, void *u)
{
    if (!ptr)
        return c_malloc(n, u);
    size_t *p = (size_t *)((char *)ptr - 16);
    size_t old = p[0];
    size_t *q = realloc(p, n + 16);
    if (!q)
        return NULL;
    q[0] = n;
    atomic_fetch_add(&live_bytes, (long long)n - (long long)old);
    return (char *)q + 16;
}

/* ------------------------------------------------------------------- data */

static char names[NODES + 1][24], dcs[NODES + 1][8], racks[NODES + 1][8];
static char tok_text[NODES + 1][VN][24];
static const char *tok_ptr[NODES + 1][VN];
static uint8_t keys[KEYS][8];

static void make_data(void)
{
    for (int i = 0; i <= NODES; i++) {
        snprintf(names[i], sizeof names[i], "10.%d.%d.%d", i % DCS, (i / DCS) % RACKS, i);
        snprintf(dcs[i], sizeof dcs[i], "dc%d", i % DCS + 1);
        snprintf(racks[i], sizeof racks[i], "r%d", (i / DCS) % RACKS + 1);
        for (int k = 0; k < VN; k++) {
            snprintf(tok_text[i][k], sizeof tok_text[i][k], "%lld", (long long)next_rand());
            tok_ptr[i][k] = tok_text[i][k];
        }
    }
    for (int i = 0; i < KEYS; i++) {
        uint64_t v = next_rand();
        memcpy(keys[i], &v, 8);
    }
}

static const char *const nts_keys[] = { "class", "dc1", "dc2", "dc3" };
static const char *const nts3_vals[] = { "NetworkTopologyStrategy", "3", "3", "3" };
static const char *const nts1_vals[] = { "NetworkTopologyStrategy", "3" };
static const char *const simple_keys[] = { "class", "replication_factor" };
static const char *const simple_vals[] = { "SimpleStrategy", "3" };

static tokenring_router *build(void)
{
    tokenring_router_builder *b = NULL;
    tokenring_error err;
    if (tokenring_router_builder_new(&b, "dc1", &err) != TOKENRING_OK)
        exit(1);
    for (int i = 0; i < NODES; i++) {
        int rc = i == 0 ? tokenring_router_builder_add_local(
                              b, names[i], dcs[i], racks[i], NULL,
                              "org.apache.cassandra.dht.Murmur3Partitioner", tok_ptr[i], VN, &err)
                        : tokenring_router_builder_add_peer(b, names[i], dcs[i], racks[i], NULL,
                                                            tok_ptr[i], VN, &err);
        if (rc == TOKENRING_OK)
            rc = tokenring_router_builder_set_node(b, names[i], (uint64_t)i, 0, &err);
        if (rc != TOKENRING_OK) {
            fprintf(stderr, "row: %s\n", err.message);
            exit(1);
        }
    }
    for (int k = 0; k < 10; k++) {
        char ks[16];
        snprintf(ks, sizeof ks, "ks%d", k);
        int rc = k % 3 == 0   ? tokenring_router_builder_add_keyspace(b, ks, nts_keys, nts3_vals,
                                                                      4, &err)
                 : k % 3 == 1 ? tokenring_router_builder_add_keyspace(b, ks, nts_keys, nts1_vals,
                                                                      2, &err)
                              : tokenring_router_builder_add_keyspace(b, ks, simple_keys,
                                                                      simple_vals, 2, &err);
        if (rc != TOKENRING_OK)
            exit(1);
    }
    tokenring_router *r = NULL;
    if (tokenring_router_build(&r, b, &err) != TOKENRING_OK) {
        fprintf(stderr, "build: %s\n", err.message);
        exit(1);
    }
    tokenring_router_builder_free(b);
    return r;
}

/* ------------------------------------------------------------ per request */

static tokenring_router_holder *holder;
static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
static tokenring_placement *current; /* the rwlock pattern's shared state */
static const int64_t *flat_tokens;   /* the flat baseline */
static uint32_t flat_n, flat_rf;
static uint32_t *flat_rows;          /* flat_rf replicas per range */
static volatile uint64_t sink;

enum mode { HOLDER, BARE, PLACEMENT, RWLOCK, FLAT };
static const char *const mode_names[] = {
    "holder: acquire, route, local view, release",
    "router_route alone (no holder)",
    "placement_replicas_for_key alone (no view, no keyspace)",
    "rwlock pattern of ring.h (rdlock, ref, unlock, lookup, free)",
    "flat: hash + branchless lower_bound + flat row",
};

static const tokenring_router *bare;

/* Branchless lower_bound: the first index with tokens[i] >= t (n if none). */
static inline uint32_t lower_bound(const int64_t *a, uint32_t n, int64_t t)
{
    const int64_t *base = a;
    uint32_t len = n;
    while (len > 1) {
        uint32_t half = len / 2;
        base = base[half - 1] < t ? base + half : base;
        len -= half;
    }
    return (uint32_t)(base - a) + (*base < t);
}

static uint64_t run(enum mode m, int requests, uint32_t seed)
{
    uint64_t acc = 0;
    tokenring_router_reader *rd = NULL;
    if (m == HOLDER && tokenring_router_reader_new(&rd, holder) != TOKENRING_OK)
        exit(1);
    uint32_t k = seed;
    for (int i = 0; i < requests; i++, k = (k + 1) & (KEYS - 1)) {
        tokenring_route rt;
        switch (m) {
        case HOLDER: {
            const tokenring_router *r = tokenring_router_acquire(rd);
            tokenring_router_route(&rt, r, "ks0", keys[k], 8, TOKENRING_ROUTE_UP_FIRST);
            acc += rt.tags[rt.local[0]];
            tokenring_router_release(rd);
            break;
        }
        case BARE:
            tokenring_router_route(&rt, bare, "ks0", keys[k], 8, TOKENRING_ROUTE_UP_FIRST);
            acc += rt.tags[rt.local[0]];
            break;
        case PLACEMENT: {
            tokenring_replicas rep;
            tokenring_placement_replicas_for_key(&rep, current, keys[k], 8);
            acc += rep.nodes[0];
            break;
        }
        case RWLOCK: {
            pthread_rwlock_rdlock(&lock);
            tokenring_placement *p = tokenring_placement_ref(current);
            pthread_rwlock_unlock(&lock);
            tokenring_replicas rep;
            tokenring_placement_replicas_for_key(&rep, p, keys[k], 8);
            acc += rep.nodes[0];
            tokenring_placement_free(p);
            break;
        }
        case FLAT: {
            uint32_t i2 = lower_bound(flat_tokens, flat_n, tokenring_token(keys[k], 8));
            if (i2 == flat_n)
                i2 = 0;
            acc += flat_rows[(size_t)i2 * flat_rf];
            break;
        }
        }
    }
    tokenring_router_reader_free(rd);
    return acc;
}

struct job {
    enum mode m;
    int requests;
    uint32_t seed;
    double ns;
};

static void *thread_main(void *arg)
{
    struct job *j = arg;
    run(j->m, j->requests / 10, j->seed); /* warm */
    double t0 = cpu_ns();
    sink += run(j->m, j->requests, j->seed);
    j->ns = (cpu_ns() - t0) / j->requests;
    return NULL;
}

static double per_request(enum mode m, int threads)
{
    int requests = quick ? 200000 : 2000000, reps = quick ? 3 : 7;
    double v[7];
    for (int r = 0; r < reps; r++) {
        pthread_t th[2];
        struct job jobs[2];
        for (int t = 0; t < threads; t++) {
            jobs[t] = (struct job){ m, requests, (uint32_t)(t * 7919 + r * 31), 0 };
            pthread_create(&th[t], NULL, thread_main, &jobs[t]);
        }
        double worst = 0;
        for (int t = 0; t < threads; t++) {
            pthread_join(th[t], NULL);
            if (jobs[t].ns > worst)
                worst = jobs[t].ns;
        }
        v[r] = worst;
    }
    return median(v, reps);
}

int main(int argc, char **argv)
{
    quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    tokenring_allocator a = { c_malloc, c_realloc, c_free, NULL };
    tokenring_set_allocator(&a);
    make_data();

    /* building from rows, memory, one join */
    double tb[5], tj[5];
    int reps = quick ? 1 : 5;
    long long mem = 0;
    tokenring_router *r = NULL;
    for (int i = 0; i < reps; i++) {
        long long before = atomic_load(&live_bytes);
        double t0 = wall_ns();
        tokenring_router *x = build();
        tb[i] = wall_ns() - t0;
        mem = atomic_load(&live_bytes) - before;
        if (r)
            tokenring_router_free(r);
        r = x;
    }
    tokenring_router_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = TOKENRING_ROUTER_EVENT_JOINED;
    ev.node = names[NODES];
    ev.datacenter = "dc1";
    ev.rack = "r1";
    ev.tokens = tok_ptr[NODES];
    ev.token_count = VN;
    for (int i = 0; i < reps; i++) {
        tokenring_router *j = NULL;
        tokenring_error err;
        double t0 = wall_ns();
        if (tokenring_router_apply(&j, r, &ev, &err) != TOKENRING_OK) {
            fprintf(stderr, "join: %s\n", err.message);
            return 1;
        }
        tj[i] = wall_ns() - t0;
        tokenring_router_free(j);
    }
    double tu[5];
    ev.kind = TOKENRING_ROUTER_EVENT_DOWN;
    ev.node = names[5];
    for (int i = 0; i < reps; i++) {
        tokenring_router *j = NULL;
        double t0 = wall_ns();
        tokenring_router_apply(&j, r, &ev, NULL);
        tu[i] = wall_ns() - t0;
        tokenring_router_free(j);
    }
    size_t ntok = 0;
    tokenring_ring_tokens(tokenring_router_ring(r), &ntok);
    printf("Router of %d nodes x %d tokens, %d datacenters x %d racks, 10 keyspaces of 3 "
           "distinct replications (NTS 3/3/3, NTS dc1:3, Simple 3)\n",
           NODES, VN, DCS, RACKS);
    printf("  build from driver rows          %10.2f ms\n", median(tb, reps) / 1e6);
    printf("  apply one join                  %10.2f ms\n", median(tj, reps) / 1e6);
    printf("  apply one node down             %10.2f ms\n", median(tu, reps) / 1e6);
    printf("  memory                          %10.2f MiB, %.1f bytes per token (%zu tokens)\n",
           (double)mem / 1048576.0, (double)mem / (double)ntok, ntok);

    /* per request */
    holder = NULL;
    tokenring_router_holder_new(&holder, r);
    bare = r;
    const tokenring_placement *pl = NULL;
    tokenring_router_keyspace(NULL, &pl, r, 0); /* ks0: NTS 3/3/3 */
    current = tokenring_placement_ref(pl);
    size_t n = 0;
    flat_tokens = tokenring_ring_tokens(tokenring_router_ring(r), &n);
    flat_n = (uint32_t)n;
    flat_rf = 9;
    flat_rows = malloc(n * flat_rf * sizeof *flat_rows);
    for (size_t i = 0; i < n; i++) {
        tokenring_replicas rep;
        tokenring_placement_range_replicas(&rep, pl, i);
        memcpy(flat_rows + i * flat_rf, rep.nodes, flat_rf * sizeof *flat_rows);
    }
    printf("\nPer request, ns (median of runs; keyspace ks0, 8-byte keys, %d distinct keys)\n",
           KEYS);
    printf("  %-62s %8s %8s\n", "", "1 thread", "2 threads");
    for (int m = HOLDER; m <= FLAT; m++)
        printf("  %-62s %8.1f %8.1f\n", mode_names[m], per_request((enum mode)m, 1),
               per_request((enum mode)m, 2));
    free(flat_rows);
    tokenring_placement_free(current);
    tokenring_router_holder_free(holder);
    tokenring_router_free(r);
    printf("(live bytes at exit: %lld)\n", (long long)atomic_load(&live_bytes));
    return (int)(sink & 0);
}
