/* SPDX-License-Identifier: Apache-2.0 */
/* Analysis benchmark (issue 6 items 5 and 6). Not a test: prints figures only.
 *
 * 1. Balance: six nodes, one rack, seeded random tokens (layout seeds 1..100) with 1, 16
 *    and 256 tokens per node: the largest primary share (fair is 1/6 = 0.1667) as mean,
 *    median and worst over the seeds; next to it the same six nodes planned by the
 *    allocator for rf 1 (primary = effective ownership), which is deterministic.
 * 2. Availability: CPU time of the exact analysis for k = 2 on 1000 nodes x 256 tokens and
 *    k = 3 on 100 nodes x 256 tokens (3 racks, NetworkTopologyStrategy rf 3, QUORUM), plus
 *    k = 2 on 1000 nodes in one rack.
 * 3. Progress and cancellation (TOKENRING_1.2): the same analyses and a 4-node allocation on
 *    1000 nodes x 256 tokens through the _progress variants with a callback that records
 *    CPU time: the overhead against the plain call (the peer), the number of reports, the
 *    longest CPU time between two reports (how long a cancel can wait), and the CPU time
 *    from a cancel at the middle report to the call's return.
 *
 * Usage: bench_analysis [--quick]   (--quick skips the 1000-node availability runs)
 *        bench_analysis --summary [SECONDS [top [KMAX]]]   (the availability summary
 *        table; "top": only the runs that keep the 10 worst sets, k up to KMAX)
 *        bench_analysis --summary-peer [SECONDS]   (the 1.0 list on the same ring) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tokenring/tokenring.h"

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void check(int rc, const char *what, const tokenring_error *err)
{
    if (rc != TOKENRING_OK) {
        fprintf(stderr, "bench_analysis: %s: %s (%s)\n", what, tokenring_strerror(rc),
                err ? err->message : "");
        exit(1);
    }
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static tokenring_topology *cluster(size_t nodes, uint32_t tokens, int racks, uint64_t seed)
{
    char (*names)[32] = calloc(nodes, sizeof *names);
    const char **np = calloc(nodes, sizeof *np), **rp = calloc(nodes, sizeof *rp);
    static const char *rk[] = { "rack1", "rack2", "rack3", "rack4", "rack5" };
    for (size_t i = 0; i < nodes; i++) {
        snprintf(names[i], sizeof names[i], "10.0.%zu.%zu", i / 250, i % 250 + 1);
        np[i] = names[i];
        rp[i] = rk[i % (size_t)racks];
    }
    tokenring_topology *t;
    tokenring_error err;
    check(tokenring_topology_new(&t), "topology", NULL);
    check(tokenring_layout_add_seeded_nodes(t, seed, tokens, np, NULL, rp, nodes, 0, &err),
          "layout", &err);
    free(names);
    free(np);
    free(rp);
    return t;
}

static double max_primary(const tokenring_topology *t)
{
    tokenring_ring *ring;
    tokenring_error err;
    check(tokenring_ring_build(&ring, t, &err), "ring", &err);
    tokenring_balance b;
    check(tokenring_balance_compute(&b, NULL, ring, NULL, NULL, NULL, &err), "balance", &err);
    tokenring_ring_free(ring);
    return b.max;
}

static void balance_table(void)
{
    printf("Largest primary share of six nodes, one rack (fair share 1/6 = 0.1667)\n");
    printf("%8s | %-34s | %s\n", "tokens", "seeded random, seeds 1..100", "allocator");
    printf("%8s | %10s %10s %10s | %s\n", "", "mean", "median", "worst", "(planned for rf 1)");
    static const uint32_t tok[] = { 1, 16, 256 };
    for (size_t k = 0; k < 3; k++) {
        double v[100], sum = 0;
        for (int s = 0; s < 100; s++) {
            tokenring_topology *t = cluster(6, tok[k], 1, (uint64_t)s + 1);
            v[s] = max_primary(t);
            sum += v[s];
            tokenring_topology_free(t);
        }
        qsort(v, 100, sizeof v[0], cmp_d);
        /* The allocator's six nodes. */
        const char *racks[6] = { "rack1", "rack1", "rack1", "rack1", "rack1", "rack1" };
        int64_t *tokens = calloc(6 * (size_t)tok[k], sizeof *tokens);
        tokenring_topology *t;
        tokenring_error err;
        tokenring_topology_new(&t);
        check(tokenring_allocate_nodes(tokens, tok[k], t, "datacenter1", racks, 6, 1, 0, &err),
              "allocate", &err);
        for (int i = 0; i < 6; i++) {
            char name[16];
            snprintf(name, sizeof name, "node%d", i);
            check(tokenring_topology_add_node(t, name, "datacenter1", "rack1",
                                              tokens + (size_t)i * tok[k], tok[k], &err),
                  "add", &err);
        }
        double alloc = max_primary(t);
        tokenring_topology_free(t);
        free(tokens);
        printf("%8u | %10.4f %10.4f %10.4f | %.4f\n", tok[k], sum / 100, (v[49] + v[50]) / 2,
               v[99], alloc);
    }
    printf("(Primary ownership is effective ownership at rf 1, so the allocator plans the six "
           "nodes for rf 1 here.)\n\n");
}

static void availability_run(size_t nodes, int racks, uint32_t k)
{
    tokenring_topology *t = cluster(nodes, 256, racks, 1);
    tokenring_ring *ring;
    tokenring_error err;
    check(tokenring_ring_build(&ring, t, &err), "ring", &err);
    tokenring_replication *r;
    tokenring_replication_network(&r);
    tokenring_replication_set_dc(r, "datacenter1", 3, 0, NULL);
    tokenring_availability *a;
    double t0 = cpu_now();
    check(tokenring_availability_build(&a, ring, r, TOKENRING_CL_QUORUM, NULL, k, &err),
          "availability", &err);
    double dt = cpu_now() - t0;
    double worst = 0;
    size_t n = tokenring_availability_count(a);
    uint32_t set[3];
    for (size_t i = 0; i < n; i++) {
        double f;
        tokenring_availability_get(set, NULL, &f, a, i);
        if (f > worst)
            worst = f;
    }
    printf("%6zu nodes x 256 tokens, %d rack(s), rf 3, QUORUM, k = %u: %9zu failing sets, "
           "worst unavailable %.6f of the ring, %.3f s CPU\n",
           nodes, racks, k, n, worst, dt);
    fflush(stdout);
    tokenring_availability_free(a);
    tokenring_replication_free(r);
    tokenring_ring_free(ring);
    tokenring_topology_free(t);
}

/* Records the CPU time of every report; cancels at report `cancel_at` (0: never). */
typedef struct gaps {
    double last, max;
    unsigned calls, cancel_at;
    double cancelled_at;
} gaps;

static int on_progress(void *user, uint64_t done, uint64_t total)
{
    (void)done;
    (void)total;
    gaps *g = user;
    double now = cpu_now();
    if (g->calls > 0 && now - g->last > g->max)
        g->max = now - g->last;
    g->last = now;
    g->calls++;
    if (g->cancel_at && g->calls == g->cancel_at) {
        g->cancelled_at = now;
        return 1;
    }
    return 0;
}

typedef int run_fn(void *arg, tokenring_progress_fn fn, void *user);

static void progress_row(const char *what, run_fn *run, void *arg)
{
    double t0 = cpu_now();
    check(run(arg, NULL, NULL), what, NULL);
    double plain = cpu_now() - t0;
    gaps g = { 0 };
    t0 = cpu_now();
    g.last = t0;
    check(run(arg, on_progress, &g), what, NULL);
    double with = cpu_now() - t0;
    gaps c = { 0 };
    c.cancel_at = g.calls / 2 ? g.calls / 2 : 1;
    c.last = cpu_now();
    int rc = run(arg, on_progress, &c);
    double stop = cpu_now() - c.cancelled_at;
    printf("%-44s plain %7.3f s | with callback %7.3f s, %6u reports, longest gap %6.1f ms | "
           "cancel at report %u: %s, returned %.1f ms later\n",
           what, plain, with, g.calls, g.max * 1e3, c.cancel_at,
           rc == TOKENRING_E_CANCELLED ? "cancelled" : "NOT cancelled", stop * 1e3);
    fflush(stdout);
}

typedef struct avail_arg {
    const tokenring_ring *ring;
    const tokenring_replication *repl;
    uint32_t k;
} avail_arg;

static int avail_run(void *arg, tokenring_progress_fn fn, void *user)
{
    avail_arg *a = arg;
    tokenring_availability *out = NULL;
    int rc = tokenring_availability_build_progress(&out, a->ring, a->repl, TOKENRING_CL_QUORUM,
                                                   NULL, a->k, fn, user, NULL);
    tokenring_availability_free(out);
    return rc;
}

typedef struct alloc_arg {
    const tokenring_topology *topo;
} alloc_arg;

static int alloc_run(void *arg, tokenring_progress_fn fn, void *user)
{
    alloc_arg *a = arg;
    static const char *racks[] = { "rack1", "rack2", "rack3", "rack1" };
    int64_t *out = calloc(4 * 256, sizeof *out);
    int rc = tokenring_allocate_nodes_progress(out, 256, a->topo, "datacenter1", racks, 4, 3, 0,
                                               fn, user, NULL);
    free(out);
    return rc;
}

static void progress_table(int quick)
{
    printf("Progress and cancellation (CPU time; the plain call is the peer)\n");
    size_t sizes[] = { 100, 1000 };
    for (size_t i = quick ? 0 : 1; i < 2; i++) {
        tokenring_topology *t = cluster(sizes[i], 256, 3, 1);
        tokenring_ring *ring;
        tokenring_error err;
        check(tokenring_ring_build(&ring, t, &err), "ring", &err);
        tokenring_replication *r;
        tokenring_replication_network(&r);
        tokenring_replication_set_dc(r, "datacenter1", 3, 0, NULL);
        char what[64];
        avail_arg a = { ring, r, sizes[i] == 100 ? 3u : 2u };
        snprintf(what, sizeof what, "availability %zu x 256, QUORUM, k = %u", sizes[i], a.k);
        progress_row(what, avail_run, &a);
        alloc_arg b = { t };
        snprintf(what, sizeof what, "allocate 4 nodes x 256 on %zu x 256", sizes[i]);
        progress_row(what, alloc_run, &b);
        tokenring_replication_free(r);
        tokenring_ring_free(ring);
        tokenring_topology_free(t);
    }
}

/* --summary: tokenring_availability_summary_build on 1000 nodes x 256 tokens, 3 racks, rf 3,
 * for every consistency level, k = 1, 2, ... until a run passes the time limit (a progress
 * callback cancels it there), counting only and with the 10 worst sets. */
typedef struct deadline {
    double end;
} deadline;

static int past_deadline(void *user, uint64_t done, uint64_t total)
{
    (void)done;
    (void)total;
    return cpu_now() > ((deadline *)user)->end;
}

static void summary_table(double limit, int only_top, uint32_t kmax)
{
    tokenring_topology *t = cluster(1000, 256, 3, 1);
    tokenring_ring *ring;
    tokenring_error err;
    check(tokenring_ring_build(&ring, t, &err), "ring", &err);
    tokenring_replication *r;
    tokenring_replication_network(&r);
    tokenring_replication_set_dc(r, "datacenter1", 3, 0, NULL);
    static const int cls[] = { TOKENRING_CL_ONE, TOKENRING_CL_TWO, TOKENRING_CL_QUORUM,
                               TOKENRING_CL_ALL, TOKENRING_CL_LOCAL_QUORUM,
                               TOKENRING_CL_EACH_QUORUM };
    static const char *names[] = { "ONE", "TWO", "QUORUM", "ALL", "LOCAL_QUORUM",
                                   "EACH_QUORUM" };
    printf("Availability summary, 1000 nodes x 256 tokens, 3 racks, rf 3 (CPU s; a run is "
           "cancelled at %.0f s)\n", limit);
    for (int unit = TOKENRING_FAIL_NODES; unit <= TOKENRING_FAIL_RACKS; unit++)
        for (size_t top = 0; top <= 10; top += 10)
            for (size_t c = 0; c < sizeof cls / sizeof *cls; c++) {
                if ((unit == TOKENRING_FAIL_RACKS || only_top) && top == 0)
                    continue;
                for (uint32_t k = 1; k <= (unit == TOKENRING_FAIL_RACKS ? 3u : kmax); k++) {
                    tokenring_availability_summary *s = NULL;
                    deadline d = { cpu_now() + limit };
                    double t0 = cpu_now();
                    int rc = tokenring_availability_summary_build(
                        &s, ring, r, cls[c], "datacenter1", unit, k, top, past_deadline, &d,
                        &err);
                    double dt = cpu_now() - t0;
                    if (rc == TOKENRING_E_CANCELLED) {
                        printf("  %-5s %-12s top %2zu k = %2u: not done in %.0f s\n",
                               unit ? "racks" : "nodes", names[c], top, k, limit);
                        break;
                    }
                    check(rc, "summary", &err);
                    tokenring_u128 b, tot, w;
                    tokenring_availability_summary_counts(&b, &tot, &w, s);
                    long double bl = (long double)b.hi * 18446744073709551616.0L + b.lo;
                    long double tl = (long double)tot.hi * 18446744073709551616.0L + tot.lo;
                    printf("  %-5s %-12s top %2zu k = %2u: %.6Lg of %.6Lg sets break it "
                           "(%.4Lf), worst %.6f of the ring, %.3f s\n",
                           unit ? "racks" : "nodes", names[c], top, k, bl, tl, bl / tl,
                           (double)((long double)w.hi + (long double)w.lo /
                                    18446744073709551616.0L),
                           dt);
                    fflush(stdout);
                    tokenring_availability_summary_free(s);
                    if (bl == tl && top == 0 && k >= 4)
                        break; /* every set breaks: the count is a binomial from here on */
                }
            }
    printf("\n");
    tokenring_replication_free(r);
    tokenring_ring_free(ring);
    tokenring_topology_free(t);
}

/* --summary-peer: the 1.0 list (tokenring_availability_build_progress) on the same ring,
 * QUORUM and ONE, k = 2 and 3, cancelled at the same limit. */
static void summary_peer(double limit)
{
    tokenring_topology *t = cluster(1000, 256, 3, 1);
    tokenring_ring *ring;
    tokenring_error err;
    check(tokenring_ring_build(&ring, t, &err), "ring", &err);
    tokenring_replication *r;
    tokenring_replication_network(&r);
    tokenring_replication_set_dc(r, "datacenter1", 3, 0, NULL);
    static const int cls[] = { TOKENRING_CL_ONE, TOKENRING_CL_QUORUM };
    static const char *names[] = { "ONE", "QUORUM" };
    printf("Peer: the 1.0 list, tokenring_availability_build_progress, same ring\n");
    for (size_t c = 0; c < 2; c++)
        for (uint32_t k = 2; k <= 3; k++) {
            tokenring_availability *a = NULL;
            deadline d = { cpu_now() + limit };
            double t0 = cpu_now();
            int rc = tokenring_availability_build_progress(&a, ring, r, cls[c], NULL, k,
                                                           past_deadline, &d, &err);
            double dt = cpu_now() - t0;
            if (rc == TOKENRING_E_CANCELLED) {
                printf("  list  %-12s k = %2u: not done in %.0f s\n", names[c], k, limit);
                continue;
            }
            check(rc, "availability", &err);
            printf("  list  %-12s k = %2u: %zu sets listed, %.3f s\n", names[c], k,
                   tokenring_availability_count(a), dt);
            fflush(stdout);
            tokenring_availability_free(a);
        }
    tokenring_replication_free(r);
    tokenring_ring_free(ring);
    tokenring_topology_free(t);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--summary-peer") == 0) {
        summary_peer(argc > 2 ? atof(argv[2]) : 60.0);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--summary") == 0) {
        /* --summary [SECONDS [top [KMAX]]]: "top" runs only the top-10 rows */
        summary_table(argc > 2 ? atof(argv[2]) : 60.0,
                      argc > 3 && strcmp(argv[3], "top") == 0,
                      argc > 4 ? (uint32_t)atoi(argv[4]) : 12u);
        return 0;
    }
    int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    balance_table();
    printf("Availability (exact; CPU time of tokenring_availability_build, placement "
           "included)\n");
    availability_run(12, 1, 2);
    availability_run(12, 3, 2);
    availability_run(100, 3, 3);
    availability_run(100, 1, 3);
    if (!quick) {
        availability_run(1000, 3, 2);
        availability_run(1000, 1, 2);
    }
    printf("\n");
    progress_table(quick);
    return 0;
}
