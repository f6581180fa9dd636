/* SPDX-License-Identifier: Apache-2.0 */
/* Budgets (issue 27). Not a test: prints figures only.
 *
 * For each long call and shape, the largest ring (nodes, growing by 1/4 at a time) whose
 * estimate fits the default budget (TOKENRING_BUDGET_DEFAULT), the estimate there, and the
 * CPU time of the call there (it must answer within its budget: the estimate is an upper
 * bound; CPU time, because the machine is shared). Rings are seeded layouts (seed 1) in one datacenter, NetworkTopologyStrategy rf 3,
 * racks as named; the estimate is read from a refusal with budget 1 (no work done).
 *
 * Usage: bench_budget [--quick]   (--quick: only the 16-token rings) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tokenring/tokenring.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static tokenring_topology *layout(size_t nodes, uint32_t tokens, size_t racks)
{
    tokenring_topology *t;
    if (tokenring_topology_new(&t) != TOKENRING_OK)
        exit(1);
    char **names = calloc(nodes, sizeof *names), **rk = calloc(nodes, sizeof *rk);
    const char **dcs = calloc(nodes, sizeof *dcs);
    for (size_t i = 0; i < nodes; i++) {
        names[i] = malloc(24);
        rk[i] = malloc(24);
        snprintf(names[i], 24, "10.%zu.%zu.%zu", i / 62500, i / 250 % 250, i % 250 + 1);
        snprintf(rk[i], 24, "r%zu", i % racks);
        dcs[i] = "dc1";
    }
    if (tokenring_layout_add_seeded_nodes(t, 1, tokens, (const char *const *)names, dcs,
                                          (const char *const *)rk, nodes, 0, NULL) != TOKENRING_OK)
        exit(1);
    for (size_t i = 0; i < nodes; i++) {
        free(names[i]);
        free(rk[i]);
    }
    free(names);
    free(rk);
    free(dcs);
    return t;
}

typedef struct shape {
    const char *what;
    int unit, cl;
    uint32_t k, tokens;
    size_t racks; /* 0: one rack per node */
} shape;

/* The estimate of the summary on nodes x tokens (budget 1: refused at once). */
static uint64_t estimate(const shape *s, size_t nodes, tokenring_ring **ring_out)
{
    tokenring_topology *t = layout(nodes, s->tokens, s->racks ? s->racks : nodes);
    tokenring_ring *ring;
    if (tokenring_ring_build(&ring, t, NULL) != TOKENRING_OK)
        exit(1);
    tokenring_topology_free(t);
    tokenring_replication *r;
    tokenring_replication_parse(&r, "NetworkTopologyStrategy:dc1=3", 29, NULL);
    tokenring_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.budget = 1;
    tokenring_availability_summary *sum = NULL;
    int rc = tokenring_availability_summary_build_limited(&sum, ring, r, s->cl, NULL, s->unit,
                                                          s->k, 5, &lim, NULL);
    tokenring_replication_free(r);
    if (rc != TOKENRING_E_BUDGET && rc != TOKENRING_OK) {
        tokenring_ring_free(ring);
        return UINT64_MAX; /* e.g. k above the units */
    }
    tokenring_availability_summary_free(sum);
    *ring_out = ring;
    return lim.estimate;
}

int main(int argc, char **argv)
{
    int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    static const shape shapes[] = {
        { "nodes QUORUM k=2", TOKENRING_FAIL_NODES, TOKENRING_CL_QUORUM, 2, 16, 3 },
        { "nodes QUORUM k=3", TOKENRING_FAIL_NODES, TOKENRING_CL_QUORUM, 3, 16, 3 },
        { "nodes ONE k=3", TOKENRING_FAIL_NODES, TOKENRING_CL_ONE, 3, 16, 3 },
        { "nodes QUORUM k=2", TOKENRING_FAIL_NODES, TOKENRING_CL_QUORUM, 2, 256, 3 },
        { "nodes QUORUM k=3", TOKENRING_FAIL_NODES, TOKENRING_CL_QUORUM, 3, 256, 3 },
        { "racks QUORUM k=3", TOKENRING_FAIL_RACKS, TOKENRING_CL_QUORUM, 3, 16, 0 },
        { "racks QUORUM k=4", TOKENRING_FAIL_RACKS, TOKENRING_CL_QUORUM, 4, 16, 0 },
    };
    printf("%-20s %6s %9s %16s %9s %8s\n", "analysis", "tokens", "max nodes", "estimate",
           "est. s", "cpu s");
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        const shape *s = &shapes[i];
        if (quick && s->tokens > 16)
            continue;
        size_t best = 0;
        uint64_t best_est = 0;
        tokenring_ring *best_ring = NULL;
        for (size_t n = 8; n <= 200000; n += n / 4) {
            tokenring_ring *ring = NULL;
            uint64_t e = estimate(s, n, &ring);
            if (e > TOKENRING_BUDGET_DEFAULT) {
                tokenring_ring_free(ring);
                break;
            }
            tokenring_ring_free(best_ring);
            best_ring = ring;
            best = n;
            best_est = e;
        }
        double secs = 0;
        if (best_ring) {
            tokenring_replication *r;
            tokenring_replication_parse(&r, "NetworkTopologyStrategy:dc1=3", 29, NULL);
            tokenring_availability_summary *sum = NULL;
            double t0 = now();
            int rc = tokenring_availability_summary_build(&sum, best_ring, r, s->cl, NULL,
                                                          s->unit, s->k, 5, NULL, NULL, NULL);
            secs = now() - t0;
            if (rc != TOKENRING_OK)
                secs = -1;
            tokenring_availability_summary_free(sum);
            tokenring_replication_free(r);
            tokenring_ring_free(best_ring);
        }
        printf("%-20s %6u %9zu %16llu %9.2f %8.2f\n", s->what, (unsigned)s->tokens, best,
               (unsigned long long)best_est,
               (double)best_est / (double)TOKENRING_WORK_UNITS_PER_SECOND, secs);
        fflush(stdout);
    }
    /* joins: the largest num_tokens joining 6 nodes x 8 tokens (the demo ring) */
    tokenring_topology *t = layout(6, 8, 1);
    int64_t *out = calloc(65536, sizeof *out);
    uint32_t best = 0;
    for (uint32_t nt = 256; nt <= 65536; nt += nt / 8) {
        tokenring_limits lim;
        memset(&lim, 0, sizeof lim);
        lim.max_num_tokens = 65536;
        lim.budget = 1;
        tokenring_allocate_join_limited(out, NULL, nt, t, "10.9.9.9", "dc1", "r0", NULL, 3,
                                        TOKENRING_CASSANDRA_5_0, 0, &lim, NULL);
        if (lim.estimate > TOKENRING_BUDGET_DEFAULT)
            break;
        best = nt;
    }
    tokenring_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.max_num_tokens = 65536;
    double t0 = now();
    int rc = tokenring_allocate_join_limited(out, NULL, best, t, "10.9.9.9", "dc1", "r0", NULL,
                                             3, TOKENRING_CASSANDRA_5_0, 0, &lim, NULL);
    printf("%-20s %6u %9d %16llu %9.2f %8.2f\n", "join (6 x 8 tokens)", best, 6,
           (unsigned long long)lim.estimate,
           (double)lim.estimate / (double)TOKENRING_WORK_UNITS_PER_SECOND,
           rc == TOKENRING_OK ? now() - t0 : -1.0);
    free(out);
    tokenring_topology_free(t);
    return 0;
}
