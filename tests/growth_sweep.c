/* SPDX-License-Identifier: Apache-2.0 */
/* Datacenters grown node by node (issue 32): from a first node per rack, node i joins
 * rack i mod R of a datacenter replicated by NetworkTopologyStrategy with factor F, each
 * node with T tokens, until N nodes, three ways on the same growth:
 *   join  the library's join plan, tokenring_allocate_join() with flags 0 (its default)
 *   one   tokenring_allocate_join() with TOKENRING_JOIN_BEST_ONE_STEP (best in one step)
 *   cass  Cassandra 5.0's tokens, tokenring_allocate_cassandra(): bit for bit what
 *         Cassandra's own allocator gives (checked against vectors made by running it,
 *         tests/data/gen/allocation), so this program produces the Cassandra side offline
 *   tok   tokenring_allocate_tokens() (the older per-node entry point)
 * Each ring is measured after every join by the datacenter's effective ownership: the
 * exact widths of tokenring_ring_ownership(), max/mean and min/mean compared as exact
 * rationals (256-bit products of integer widths; no floating point decides anything),
 * for the final ring and for the worst point of the growth (highest max/mean, lowest
 * min/mean, over every size from F + 1 nodes on).
 * Starts: "seeded", the first node of each rack at evenly spaced tokens (slot r of R,
 * tokenring_layout_even_tokens()); "random", the first node of each rack at random tokens
 * (a fixed seed per configuration).
 *
 * Usage: growth_sweep [--quick | --full]
 *   --quick (the test): a reduced sweep; exit status 1 when the default join plan ends,
 *           or is at its worst point, less balanced than Cassandra's on any configuration,
 *           or when any entry point refuses a join Cassandra accepts
 *   --full: the sweep of doc/performance.md ("Growth sweep"); prints one row per
 *           configuration and the counts. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"

__extension__ typedef unsigned __int128 u128;

/* a ratio num/den of exact integers (num = width * nodes, den = the widths' sum) */
typedef struct ratio {
    u128 num, den;
} ratio;

/* a * b as 256 bits, hi:lo */
static void mul256(u128 a, u128 b, u128 *hi, u128 *lo)
{
    uint64_t a0 = (uint64_t)a, a1 = (uint64_t)(a >> 64), b0 = (uint64_t)b,
             b1 = (uint64_t)(b >> 64);
    u128 p00 = (u128)a0 * b0, p01 = (u128)a0 * b1, p10 = (u128)a1 * b0, p11 = (u128)a1 * b1;
    u128 mid = (p00 >> 64) + (uint64_t)p01 + (uint64_t)p10;
    *lo = (mid << 64) | (uint64_t)p00;
    *hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
}

/* -1, 0, 1 as x <, =, > y */
static int ratio_cmp(ratio x, ratio y)
{
    u128 h1, l1, h2, l2;
    mul256(x.num, y.den, &h1, &l1);
    mul256(y.num, x.den, &h2, &l2);
    if (h1 != h2)
        return h1 < h2 ? -1 : 1;
    return l1 < l2 ? -1 : l1 > l2;
}

static double ratio_d(ratio x) /* display only */
{
    return x.den ? (double)x.num / (double)x.den : 1.0;
}

typedef struct balance {
    ratio max, min; /* max/mean, min/mean */
} balance;

static void die(int rc, const char *what, const tokenring_error *err)
{
    fprintf(stderr, "growth_sweep: %s: %s (%s)\n", what, tokenring_strerror(rc),
            err ? err->message : "");
    exit(2);
}

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static void measure(balance *out, const tokenring_topology *t, const tokenring_replication *r)
{
    tokenring_ring *ring = NULL;
    tokenring_placement *pl = NULL;
    tokenring_error err;
    int rc = tokenring_ring_build(&ring, t, &err);
    if (rc == TOKENRING_OK)
        rc = tokenring_placement_build(&pl, ring, r, 0, &err);
    if (rc != TOKENRING_OK)
        die(rc, "ring", &err);
    size_t n = tokenring_ring_node_count(ring);
    tokenring_ownership *own = calloc(n, sizeof *own);
    if (!own || tokenring_ring_ownership(own, n, ring, pl) != TOKENRING_OK)
        die(TOKENRING_E_NOMEM, "ownership", NULL);
    u128 sum = 0, mx = 0, mn = ~(u128)0;
    for (size_t i = 0; i < n; i++) {
        u128 w = ((u128)own[i].effective_width.hi << 64) | own[i].effective_width.lo;
        sum += w;
        mx = w > mx ? w : mx;
        mn = w < mn ? w : mn;
    }
    out->max = (ratio){ mx * n, sum };
    out->min = (ratio){ mn * n, sum };
    free(own);
    tokenring_placement_free(pl);
    tokenring_ring_free(ring);
}

enum { JOIN, ONE, CASS, TOK, METHODS };
static const char *const method_name[METHODS] = { "join", "one", "cass", "tok" };

typedef struct outcome {
    balance final, worst;
    int refused; /* the node index refused (0: none) */
    char why[256];
} outcome;


static void grow(outcome out[METHODS], int R, int F, uint32_t T, int N, bool seeded,
                 uint64_t seed)
{
    tokenring_replication *repl = NULL;
    tokenring_error err;
    if (tokenring_replication_network(&repl) != TOKENRING_OK ||
        tokenring_replication_set_dc(repl, "dc1", F, 0, &err) != TOKENRING_OK)
        die(TOKENRING_E_NOMEM, "replication", NULL);
    int64_t *tk = calloc(T, sizeof *tk);
    tokenring_topology *topo[METHODS];
    for (int m = 0; m < METHODS; m++) {
        memset(&out[m], 0, sizeof out[m]);
        if (tokenring_topology_new(&topo[m]) != TOKENRING_OK)
            die(TOKENRING_E_NOMEM, "topology", NULL);
    }
    char name[32], rack[16];
    for (int i = 0; i < N; i++) {
        snprintf(name, sizeof name, "10.0.%d.%d", i / 250, i % 250 + 1);
        snprintf(rack, sizeof rack, "r%d", i % R + 1);
        for (int m = 0; m < METHODS; m++) {
            if (out[m].refused)
                continue;
            int rc;
            if (i < R) {
                if (seeded)
                    rc = tokenring_layout_even_tokens(tk, T, (uint32_t)i, (uint32_t)R);
                else {
                    uint64_t s = seed * 1000 + (uint64_t)i;
                    for (uint32_t k = 0; k < T; k++)
                        tk[k] = (int64_t)splitmix(&s);
                    qsort(tk, T, sizeof *tk, cmp_i64);
                    rc = TOKENRING_OK;
                }
            } else if (m == JOIN || m == ONE)
                rc = tokenring_allocate_join(tk, T, topo[m], name, "dc1", rack, NULL, F,
                                             TOKENRING_CASSANDRA_5_0,
                                             m == ONE ? TOKENRING_JOIN_BEST_ONE_STEP : 0,
                                             &err);
            else if (m == CASS)
                rc = tokenring_allocate_cassandra(tk, T, topo[m], name, "dc1", rack, NULL, F,
                                                  NULL, TOKENRING_CASSANDRA_5_0, 0, &err);
            else
                rc = tokenring_allocate_tokens(tk, T, topo[m], "dc1", rack, F, 0, &err);
            if (rc == TOKENRING_OK)
                rc = tokenring_topology_add_node(topo[m], name, "dc1", rack, tk, T, &err);
            if (rc != TOKENRING_OK) {
                out[m].refused = i + 1;
                memcpy(out[m].why, err.message, sizeof out[m].why);
                out[m].why[sizeof out[m].why - 1] = 0;
                continue;
            }
            balance b;
            measure(&b, topo[m], repl);
            out[m].final = b;
            if (i + 1 <= F)
                continue;
            if (i + 1 == F + 1 || (i == R - 1 && R > F) ||
                ratio_cmp(b.max, out[m].worst.max) > 0)
                out[m].worst.max = b.max;
            if (i + 1 == F + 1 || (i == R - 1 && R > F) ||
                ratio_cmp(b.min, out[m].worst.min) < 0)
                out[m].worst.min = b.min;
        }
    }
    for (int m = 0; m < METHODS; m++)
        tokenring_topology_free(topo[m]);
    tokenring_replication_free(repl);
    free(tk);
}

/* -1 a less balanced than b on (max, min), 0 as balanced on both, 1 never less and better */
static int verdict(const balance *a, const balance *b)
{
    int cm = ratio_cmp(a->max, b->max), cn = ratio_cmp(a->min, b->min);
    if (cm > 0 || cn < 0)
        return -1;
    return cm == 0 && cn == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    bool full = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--full"))
            full = true;
        else if (!strcmp(argv[i], "--quick"))
            full = false;
        else {
            fprintf(stderr, "usage: growth_sweep [--quick | --full]\n");
            return 2;
        }
    }
    static const uint32_t tokens_full[] = { 1, 4, 8, 16, 64, 256 };
    static const uint32_t tokens_quick[] = { 1, 4, 16 };
    const uint32_t *tokens = full ? tokens_full : tokens_quick;
    size_t ntok = full ? 6 : 3;
    int count[2][METHODS][3] = { 0 }; /* [final/worst][method][worse, equal, better] */
    int refusals[METHODS] = { 0 };
    printf("%-6s %2s %2s %4s %4s | %-13s %-13s %-13s | %-13s %-13s %-13s | %s\n", "start",
           "R", "F", "T", "N", "cass final", "one final", "tok final", "cass worst",
           "one worst", "tok worst", "join one tok (final, worst)");
    for (size_t ti = 0; ti < ntok; ti++) {
        uint32_t T = tokens[ti];
        for (int R = 1; R <= 5; R++)
            for (int F = 1; F <= 5; F++) {
                if (R > 1 && R < F)
                    continue; /* Cassandra refuses 1 < racks < rf */
                /* sparser for many tokens: T = 64 on every second combination and
                 * 150 nodes, T = 256 on F = 3 (and R = 1 F = 1) and 60 nodes */
                int N = full ? 300 : 40;
                if (full && T == 64) {
                    if ((R + F) % 2)
                        continue;
                    N = 150;
                }
                if (full && T == 256) {
                    if (!(F == 3 && (R == 1 || R == 3)) && !(R == 1 && F == 1))
                        continue;
                    N = 60;
                }
                if (!full && (R + F) % 2 && T > 1)
                    continue;
                for (int s = 0; s < 2; s++) {
                    outcome o[METHODS];
                    uint64_t seed = (uint64_t)(T * 100 + R * 10 + F);
                    grow(o, R, F, T, N, s == 0, seed);
                    char v[2][METHODS][4];
                    for (int m = 0; m < METHODS; m++) {
                        if (o[m].refused) {
                            refusals[m]++;
                            strcpy(v[0][m], "R");
                            strcpy(v[1][m], "R");
                            continue;
                        }
                        for (int k = 0; k < 2; k++) {
                            int r = verdict(k ? &o[m].worst : &o[m].final,
                                            k ? &o[CASS].worst : &o[CASS].final);
                            count[k][m][r + 1]++;
                            strcpy(v[k][m], r < 0 ? "<" : r ? ">" : "=");
                        }
                    }
                    printf("%-6s %2d %2d %4" PRIu32 " %4d | %.4f/%.4f %.4f/%.4f %.4f/%.4f | "
                           "%.4f/%.4f %.4f/%.4f %.4f/%.4f | %s%s %s%s %s%s\n",
                           s == 0 ? "seeded" : "random", R, F, T, N,
                           ratio_d(o[CASS].final.max), ratio_d(o[CASS].final.min),
                           ratio_d(o[ONE].final.max), ratio_d(o[ONE].final.min),
                           ratio_d(o[TOK].final.max), ratio_d(o[TOK].final.min),
                           ratio_d(o[CASS].worst.max), ratio_d(o[CASS].worst.min),
                           ratio_d(o[ONE].worst.max), ratio_d(o[ONE].worst.min),
                           ratio_d(o[TOK].worst.max), ratio_d(o[TOK].worst.min),
                           v[0][JOIN], v[1][JOIN], v[0][ONE], v[1][ONE], v[0][TOK],
                           v[1][TOK]);
                    for (int m = 0; m < METHODS; m++)
                        if (o[m].refused)
                            printf("  %s refused node %d: %s\n", method_name[m],
                                   o[m].refused - 1, o[m].why);
                    fflush(stdout);
                }
            }
    }
    int bad = 0;
    for (int m = 0; m < METHODS; m++) {
        if (m == CASS)
            continue;
        printf("%s against cass: final %d less balanced, %d equal, %d more; worst point "
               "%d less, %d equal, %d more; %d refused\n",
               method_name[m], count[0][m][0], count[0][m][1], count[0][m][2], count[1][m][0],
               count[1][m][1], count[1][m][2], refusals[m]);
    }
    bad = count[0][JOIN][0] + count[1][JOIN][0];
    for (int m = 0; m < METHODS; m++)
        bad += refusals[m];
    return !full && bad ? 1 : 0;
}
