/* SPDX-License-Identifier: Apache-2.0 */
/* The analyses on a topology and replication read from a byte stream: join, decommission,
 * replace and move movements (also on the same topology in RandomPartitioner and
 * ByteOrderedPartitioner, against Murmur3), availability, balance, the token allocator,
 * num_tokens migration plans and seeded layouts. Every call
 * either fails with its code in err or gives a self-consistent result (moved range widths
 * sum to the changed width, stream widths to the streamed width, allocated tokens
 * ascending, distinct and free); the topology and replication are never changed. */
#include <stdbool.h>

#include "fuzz_common.h"

__extension__ typedef unsigned __int128 u128;

static const char *dcs[] = { "dc1", "dc2" };
static const char *racks[] = { "r1", "r2", "r3" };

static u128 w128(tokenring_u128 v)
{
    return ((u128)v.hi << 64) | v.lo;
}

static char *dump(const tokenring_topology *t, const tokenring_replication *r)
{
    size_t cap = 4096, len = 0;
    char *s = malloc(cap);
    FUZZ_CHECK(s != NULL);
    size_t rl = 0;
    tokenring_replication_format(NULL, 0, &rl, r);
    while (rl + 2 > cap)
        s = realloc(s, cap *= 2);
    FUZZ_CHECK(tokenring_replication_format(s, rl + 1, &rl, r) == TOKENRING_OK);
    len = rl;
    for (size_t i = 0; i < tokenring_topology_node_count(t); i++) {
        tokenring_node_info ni;
        FUZZ_CHECK(tokenring_topology_node(&ni, t, i) == TOKENRING_OK);
        for (size_t k = 0; k <= ni.token_count; k++) {
            char line[600];
            int w = k == 0 ? snprintf(line, sizeof line, "\n%s %s %s %d %d:", ni.name,
                                      ni.datacenter, ni.rack, ni.state, ni.liveness)
                           : snprintf(line, sizeof line, " %lld", (long long)ni.tokens[k - 1]);
            while (len + (size_t)w + 2 > cap)
                s = realloc(s, cap *= 2);
            memcpy(s + len, line, (size_t)w + 1);
            len += (size_t)w;
        }
    }
    return s;
}

static int64_t token_of(fuzz_reader *r)
{
    uint8_t k = fuzz_u8(r);
    if (k < 64)
        return (int64_t)(k - 32) * 1000; /* crowded */
    if (k < 72)
        return k == 64 ? INT64_MIN : k == 65 ? INT64_MAX : (int64_t)(k - 68);
    return (int64_t)fuzz_u64(r);
}

static void check_movement(int rc, tokenring_movement **mp, const tokenring_error *err)
{
    tokenring_movement *m = *mp;
    if (rc != TOKENRING_OK) {
        FUZZ_CHECK(m == NULL && err->code == rc && err->message[0] != '\0');
        return;
    }
    tokenring_movement_summary s;
    FUZZ_CHECK(tokenring_movement_get_summary(&s, m) == TOKENRING_OK);
    u128 changed = 0, streamed = 0;
    for (uint32_t i = 0; i < s.range_count; i++) {
        tokenring_moved_range mr;
        FUZZ_CHECK(tokenring_movement_get_range(&mr, m, i) == TOKENRING_OK);
        FUZZ_CHECK(w128(mr.width) > 0);
        changed += w128(mr.width);
    }
    FUZZ_CHECK(tokenring_movement_get_range(&(tokenring_moved_range){ 0 }, m, s.range_count) ==
               TOKENRING_E_RANGE);
    for (uint32_t i = 0; i < s.stream_count; i++) {
        tokenring_stream st;
        FUZZ_CHECK(tokenring_movement_get_stream(&st, m, i) == TOKENRING_OK);
        FUZZ_CHECK(st.range_index < s.range_count && st.source < s.node_count &&
                   st.destination < s.node_count && st.source != st.destination);
        streamed += w128(st.width);
    }
    FUZZ_CHECK(changed == w128(s.changed_width));
    FUZZ_CHECK(streamed == w128(s.streamed_width));
    FUZZ_CHECK(changed <= (u128)1 << 64);
    for (uint32_t i = 0; i < s.node_count; i++) {
        tokenring_movement_node mn;
        FUZZ_CHECK(tokenring_movement_get_node(&mn, m, i) == TOKENRING_OK);
        FUZZ_CHECK(mn.in_before || mn.in_after);
    }
    for (uint32_t i = 0; i < s.sample_count; i++) {
        tokenring_sample_change sc;
        FUZZ_CHECK(tokenring_movement_get_sample(&sc, m, i) == TOKENRING_OK);
    }
    tokenring_movement_free(m);
}

/* The topology in another partitioner: Murmur3 token t as u * 2^63 or the 8 big-endian
 * bytes of u, u = t with its sign bit flipped (the same order), states kept. */
static void conv_token(int64_t t, tokenring_token128 *r, uint8_t b[8])
{
    uint64_t u = (uint64_t)t ^ UINT64_C(0x8000000000000000);
    r->hi = u >> 1;
    r->lo = (u & 1) << 63;
    for (int j = 0; j < 8; j++)
        b[j] = (uint8_t)(u >> (56 - 8 * j));
}

static tokenring_topology *convert(const tokenring_topology *t, tokenring_partitioner p)
{
    tokenring_topology *c = NULL;
    FUZZ_CHECK(tokenring_topology_new_partitioned(&c, p) == TOKENRING_OK);
    for (size_t i = 0; i < tokenring_topology_node_count(t); i++) {
        tokenring_node_info ni;
        FUZZ_CHECK(tokenring_topology_node(&ni, t, i) == TOKENRING_OK);
        tokenring_token128 r[8];
        uint8_t b[8][8];
        const uint8_t *bp[8];
        size_t bl[8];
        FUZZ_CHECK(ni.token_count <= 8);
        for (size_t k = 0; k < ni.token_count; k++) {
            conv_token(ni.tokens[k], &r[k], b[k]);
            bp[k] = b[k];
            bl[k] = 8;
        }
        int rc = p == TOKENRING_PARTITIONER_RANDOM
                     ? tokenring_topology_add_node128(c, ni.name, ni.datacenter, ni.rack, r,
                                                      ni.token_count, NULL)
                     : tokenring_topology_add_node_bytes(c, ni.name, ni.datacenter, ni.rack,
                                                         bp, bl, ni.token_count, NULL);
        FUZZ_CHECK(rc == TOKENRING_OK);
        FUZZ_CHECK(tokenring_topology_set_state(c, ni.name, (tokenring_node_state)ni.state,
                                                (tokenring_liveness)ni.liveness,
                                                NULL) == TOKENRING_OK);
    }
    return c;
}

/* A movement of the converted topology (p) against the Murmur3 one: the same code, and
 * when both succeed the same ranges, replica lists and streams, RandomPartitioner widths
 * Murmur3's times 2^63 (the streamed total saturating), ByteOrderedPartitioner widths 1. */
static void check_same_movement(int rc3, tokenring_movement *m3, int rc,
                                tokenring_movement *mp, tokenring_partitioner p)
{
    FUZZ_CHECK(rc == rc3);
    if (rc3 != TOKENRING_OK) {
        FUZZ_CHECK(mp == NULL && m3 == NULL);
        return;
    }
    FUZZ_CHECK(tokenring_movement_partitioner(mp) == p);
    tokenring_movement_summary a, b;
    FUZZ_CHECK(tokenring_movement_get_summary(&a, m3) == TOKENRING_OK);
    FUZZ_CHECK(tokenring_movement_get_summary(&b, mp) == TOKENRING_OK);
    FUZZ_CHECK(a.range_count == b.range_count && a.stream_count == b.stream_count &&
               a.node_count == b.node_count && a.cleanup_count == b.cleanup_count);
    bool random = p == TOKENRING_PARTITIONER_RANDOM;
    if (random) {
        FUZZ_CHECK(w128(b.changed_width) == w128(a.changed_width) << 63);
        u128 st = w128(a.streamed_width);
        FUZZ_CHECK(w128(b.streamed_width) == (st >> 65 ? ~(u128)0 : st << 63));
    } else {
        FUZZ_CHECK(w128(b.changed_width) == a.range_count);
        FUZZ_CHECK(w128(b.streamed_width) == a.stream_count);
    }
    for (uint32_t i = 0; i < a.range_count; i++) {
        tokenring_moved_range x, y;
        FUZZ_CHECK(tokenring_movement_get_range(&x, m3, i) == TOKENRING_OK);
        FUZZ_CHECK(tokenring_movement_get_range(&y, mp, i) == TOKENRING_OK);
        FUZZ_CHECK(x.old_count == y.old_count && x.new_count == y.new_count);
        FUZZ_CHECK(memcmp(x.old_replicas, y.old_replicas, x.old_count * sizeof(uint32_t)) == 0);
        FUZZ_CHECK(memcmp(x.new_replicas, y.new_replicas, x.new_count * sizeof(uint32_t)) == 0);
        FUZZ_CHECK(w128(y.width) == (random ? w128(x.width) << 63 : 1));
        tokenring_token128 s128, e128, cs, ce;
        uint8_t sb[8], eb[8];
        conv_token(x.start, &cs, sb);
        conv_token(x.end, &ce, eb);
        if (random) {
            FUZZ_CHECK(tokenring_movement_range_bounds128(&s128, &e128, mp, i) == TOKENRING_OK);
            FUZZ_CHECK(tokenring_token128_compare(s128, cs) == 0 &&
                       tokenring_token128_compare(e128, ce) == 0);
        } else {
            const uint8_t *xs, *xe;
            size_t ls, le;
            FUZZ_CHECK(tokenring_movement_range_bounds_bytes(&xs, &ls, &xe, &le, mp, i) ==
                       TOKENRING_OK);
            FUZZ_CHECK(ls == 8 && le == 8 && memcmp(xs, sb, 8) == 0 && memcmp(xe, eb, 8) == 0);
        }
    }
    for (uint32_t i = 0; i < a.stream_count; i++) {
        tokenring_stream x, y;
        FUZZ_CHECK(tokenring_movement_get_stream(&x, m3, i) == TOKENRING_OK);
        FUZZ_CHECK(tokenring_movement_get_stream(&y, mp, i) == TOKENRING_OK);
        FUZZ_CHECK(x.source == y.source && x.destination == y.destination &&
                   x.range_index == y.range_index && x.strict == y.strict);
    }
}

/* The four movements on the topology in the other partitioners, against Murmur3 (no input
 * read: the corpus decodes as before). */
static void check_partitioners(const tokenring_topology *t, const tokenring_replication *repl,
                               const char *victim, const char *other, const char *dc,
                               const char *rack, const int64_t *jt, size_t jn)
{
    tokenring_token128 j128[4];
    uint8_t jb[4][8];
    const uint8_t *jbp[4];
    size_t jbl[4];
    for (size_t k = 0; k < jn; k++) {
        conv_token(jt[k], &j128[k], jb[k]);
        jbp[k] = jb[k];
        jbl[k] = 8;
    }
    static const uint8_t keys[] = "k1k2";
    static const uint64_t offs[] = { 0, 2, 4, 4 };
    for (int p = TOKENRING_PARTITIONER_RANDOM; p <= TOKENRING_PARTITIONER_BYTE_ORDERED; p++) {
        tokenring_topology *c = convert(t, (tokenring_partitioner)p);
        bool random = p == TOKENRING_PARTITIONER_RANDOM;
        for (int kind = 0; kind < 4; kind++) {
            tokenring_movement *m3 = NULL, *mp = NULL;
            int rc3, rc;
            switch (kind) {
            case 0:
                rc3 = tokenring_movement_join(&m3, t, repl, other, dc, rack, jt, jn, NULL, 0,
                                              NULL);
                rc = random ? tokenring_movement_join128(&mp, c, repl, other, dc, rack, j128,
                                                         jn, keys, offs, 3, NULL)
                            : tokenring_movement_join_bytes(&mp, c, repl, other, dc, rack, jbp,
                                                            jbl, jn, keys, offs, 3, NULL);
                break;
            case 1:
                rc3 = tokenring_movement_decommission(&m3, t, repl, victim, NULL, 0, NULL);
                rc = tokenring_movement_decommission_keys(&mp, c, repl, victim, keys, offs, 3,
                                                          NULL);
                break;
            case 2:
                rc3 = tokenring_movement_replace(&m3, t, repl, victim, other, NULL, 0, NULL);
                rc = tokenring_movement_replace_keys(&mp, c, repl, victim, other, keys, offs, 3,
                                                     NULL);
                break;
            default:
                rc3 = tokenring_movement_move(&m3, t, repl, victim, jt, jn, NULL, 0, NULL);
                rc = random ? tokenring_movement_move128(&mp, c, repl, victim, j128, jn, keys,
                                                         offs, 3, NULL)
                            : tokenring_movement_move_bytes(&mp, c, repl, victim, jbp, jbl, jn,
                                                            keys, offs, 3, NULL);
                break;
            }
            check_same_movement(rc3, m3, rc, mp, (tokenring_partitioner)p);
            tokenring_movement_free(m3);
            tokenring_movement_free(mp);
        }
        tokenring_topology_free(c);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_reader r = { data, size };
    tokenring_topology *t = NULL;
    FUZZ_CHECK(tokenring_topology_new(&t) == TOKENRING_OK);
    int nodes = 1 + fuzz_u8(&r) % 10;
    for (int i = 0; i < nodes; i++) {
        uint8_t b = fuzz_u8(&r);
        int64_t tok[8];
        size_t n = 1 + (b >> 5);
        for (size_t k = 0; k < n; k++)
            tok[k] = token_of(&r);
        char name[16];
        snprintf(name, sizeof name, "n%d", i);
        if (tokenring_topology_add_node(t, name, dcs[b & 1], racks[(b >> 1) % 3], tok, n,
                                        NULL) == TOKENRING_OK &&
            (b & 0x18) == 0x18)
            tokenring_topology_set_state(t, name, (int)(fuzz_u8(&r) % 4), TOKENRING_DOWN, NULL);
    }
    tokenring_replication *repl = NULL;
    uint8_t rb = fuzz_u8(&r);
    if (rb & 1) {
        int rf = (rb >> 1) % 5;
        tokenring_replication_simple(&repl, rf, rf > 1 ? (rb >> 4) % rf : 0, NULL);
    } else {
        FUZZ_CHECK(tokenring_replication_network(&repl) == TOKENRING_OK);
        for (int d = 0; d < 2; d++) {
            uint8_t f = fuzz_u8(&r);
            int rf = f % 5;
            tokenring_replication_set_dc(repl, dcs[d], rf, rf > 1 ? (f >> 4) % rf : 0, NULL);
        }
    }
    if (repl == NULL) {
        tokenring_topology_free(t);
        return 0;
    }
    char *before = dump(t, repl);
    int64_t samples[4];
    for (int k = 0; k < 4; k++)
        samples[k] = token_of(&r);
    tokenring_error err;
    tokenring_movement *m = NULL;
    char victim[16], other[16];
    snprintf(victim, sizeof victim, "n%d", fuzz_u8(&r) % (nodes + 1));
    snprintf(other, sizeof other, "n%d", fuzz_u8(&r) % (nodes + 2));

    int64_t jt[4];
    size_t jn = 1 + fuzz_u8(&r) % 4;
    for (size_t k = 0; k < jn; k++)
        jt[k] = token_of(&r);
    uint8_t jb = fuzz_u8(&r);
    int mrc = tokenring_movement_join(&m, t, repl, other, dcs[jb & 1], racks[jb % 3], jt, jn,
                                      samples, 4, &err);
    check_movement(mrc, &m, &err);
    m = NULL;
    mrc = tokenring_movement_decommission(&m, t, repl, victim, samples, 4, &err);
    check_movement(mrc, &m, &err);
    m = NULL;
    mrc = tokenring_movement_replace(&m, t, repl, victim, other, samples, 4, &err);
    check_movement(mrc, &m, &err);
    m = NULL;
    mrc = tokenring_movement_move(&m, t, repl, victim, jt, jn, samples, 4, &err);
    check_movement(mrc, &m, &err);
    check_partitioners(t, repl, victim, other, dcs[jb & 1], racks[jb % 3], jt, jn);

    tokenring_ring *ring = NULL;
    if (tokenring_ring_build(&ring, t, NULL) == TOKENRING_OK) {
        uint8_t ab = fuzz_u8(&r);
        tokenring_availability *av = NULL;
        int rc = tokenring_availability_build(&av, ring, repl, 1 + ab % 8,
                                              ab & 0x80 ? dcs[(ab >> 4) & 1] : NULL,
                                              (ab >> 5) & 3, &err);
        if (rc != TOKENRING_OK) {
            FUZZ_CHECK(av == NULL && err.code == rc);
        } else {
            for (size_t i = 0; i < tokenring_availability_count(av); i++) {
                uint32_t nodes_out[TOKENRING_AVAILABILITY_MAX_K];
                tokenring_u128 w;
                double f;
                FUZZ_CHECK(tokenring_availability_get(nodes_out, &w, &f, av, i) ==
                           TOKENRING_OK);
                FUZZ_CHECK(w128(w) <= (u128)1 << 64);
            }
        }
        tokenring_availability_free(av);
        tokenring_placement *p = NULL;
        if (tokenring_placement_build(&p, ring, repl, TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC,
                                      NULL) == TOKENRING_OK) {
            tokenring_balance pb, eb;
            rc = tokenring_balance_compute(&pb, &eb, ring, p, ab & 1 ? dcs[ab & 1] : NULL,
                                           ab & 2 ? racks[ab % 3] : NULL, &err);
            if (rc == TOKENRING_OK)
                FUZZ_CHECK(w128(pb.min_width) <= w128(pb.max_width) &&
                           w128(pb.max_width) <= w128(pb.total_width));
            else
                FUZZ_CHECK(err.code == rc);
            tokenring_placement_free(p);
        }
        tokenring_ring_free(ring);
    }

    uint8_t lb = fuzz_u8(&r);
    uint32_t num = 1 + lb % 8;
    int64_t out[3 * 8];
    const char *rk[3] = { racks[lb % 3], racks[(lb >> 2) % 3], racks[(lb >> 4) % 3] };
    size_t count = 1 + (lb >> 6) % 3;
    int rc = tokenring_allocate_nodes(out, num, t, dcs[lb & 1], rk, count, 1 + (lb >> 3) % 3,
                                      (lb & 0x80) ? TOKENRING_ALLOCATE_NODE_BY_NODE : 0, &err);
    if (rc == TOKENRING_OK) {
        for (size_t i = 0; i < count; i++) {
            for (uint32_t k = 0; k < num; k++) {
                int64_t v = out[i * num + k];
                if (k > 0)
                    FUZZ_CHECK(out[i * num + k - 1] < v);
                for (size_t j = 0; j < tokenring_topology_node_count(t); j++) {
                    tokenring_node_info ni;
                    FUZZ_CHECK(tokenring_topology_node(&ni, t, j) == TOKENRING_OK);
                    for (size_t q = 0; q < ni.token_count; q++)
                        FUZZ_CHECK(ni.tokens[q] != v);
                }
                for (size_t j = 0; j < i * num + k; j++)
                    FUZZ_CHECK(out[j] != v);
            }
        }
    } else {
        FUZZ_CHECK(err.code == rc);
    }

    /* num_tokens migration of dc1 to a new datacenter, and seeded layouts */
    uint8_t gb = fuzz_u8(&r);
    static const char *new_names[] = { "m0", "m1", "m2", "n0" };
    const char *new_racks[4] = { racks[gb % 3], racks[(gb >> 2) % 3], "x", racks[0] };
    size_t new_count = 1 + gb % 4;
    const char *ks[] = { "ks" };
    const tokenring_replication *ksr[] = { repl };
    tokenring_migration *mig = NULL;
    rc = tokenring_migration_plan(&mig, t, dcs[gb & 1], (gb & 0x40) ? "dc1" : "dcnew",
                                  new_names, new_racks, new_count, 1 + (gb >> 4) % 8,
                                  1 + (gb >> 3) % 3, ks, ksr, 1, &err);
    if (rc == TOKENRING_OK) {
        FUZZ_CHECK(tokenring_migration_node_count(mig) == new_count);
        FUZZ_CHECK(tokenring_migration_step_count(mig) > 0);
        for (size_t i = 0; i < tokenring_migration_step_count(mig); i++)
            FUZZ_CHECK(tokenring_migration_step(mig, i) != NULL);
    } else {
        FUZZ_CHECK(mig == NULL && err.code == rc);
    }
    tokenring_migration_free(mig);
    int64_t seeded[16];
    size_t scount = 1 + fuzz_u8(&r) % 16;
    rc = tokenring_layout_seeded_tokens(seeded, scount, fuzz_u64(&r), victim, t,
                                        (gb & 0x80) ? TOKENRING_LAYOUT_STRICT : 0, &err);
    if (rc != TOKENRING_OK)
        FUZZ_CHECK(err.code == rc);

    /* budgets: a small budget refuses before any work with the estimate above it; nodes
     * already down (the summary); the num_tokens cap of the allocators */
    uint8_t bb = fuzz_u8(&r), db = fuzz_u8(&r);
    tokenring_ring *bring = NULL;
    if (tokenring_ring_build(&bring, t, NULL) == TOKENRING_OK) {
        tokenring_limits lim;
        memset(&lim, 0, sizeof lim);
        lim.budget = bb & 0x80 ? (uint64_t)(bb & 0x7f) * 1000 : 0;
        uint32_t down[3];
        size_t bnodes = tokenring_ring_node_count(bring);
        for (size_t i = 0; i < 3 && i < (size_t)(db & 3); i++)
            down[lim.failed_count++] = (uint32_t)((db >> (2 + 2 * i)) % (bnodes + 1));
        lim.failed_nodes = down;
        tokenring_availability_summary *sum = NULL;
        rc = tokenring_availability_summary_build_limited(
            &sum, bring, repl, 1 + bb % 8, bb & 0x40 ? dcs[(bb >> 3) & 1] : NULL, (bb >> 1) % 3,
            1 + (bb >> 4) % 3, bb & 8 ? 3 : 0, &lim, &err);
        if (rc == TOKENRING_E_BUDGET) {
            FUZZ_CHECK(sum == NULL && lim.budget != 0 && lim.estimate > lim.budget);
        } else if (rc == TOKENRING_OK) {
            tokenring_u128 b, tot;
            FUZZ_CHECK(tokenring_availability_summary_counts(&b, &tot, NULL, sum) ==
                       TOKENRING_OK);
            FUZZ_CHECK(w128(b) <= w128(tot));
            FUZZ_CHECK(lim.estimate <= (lim.budget ? lim.budget : TOKENRING_BUDGET_DEFAULT));
            double df = -1;
            FUZZ_CHECK(tokenring_availability_summary_down(NULL, &df, sum) == TOKENRING_OK);
            FUZZ_CHECK(df >= 0 && df <= 1.0 + 1e-9);
        } else {
            FUZZ_CHECK(sum == NULL && err.code == rc);
        }
        /* the list under the same limits: the same budget rule, no down node in a set,
         * and as many sets as the summary of single nodes counts */
        bool sum_ok = rc == TOKENRING_OK && (bb >> 1) % 3 == TOKENRING_FAIL_NODES;
        u128 breaking = 0;
        if (sum_ok) {
            tokenring_u128 b;
            FUZZ_CHECK(tokenring_availability_summary_counts(&b, NULL, NULL, sum) ==
                       TOKENRING_OK);
            breaking = w128(b);
        }
        tokenring_availability *lav = NULL;
        lim.estimate = 0;
        uint32_t lk = 1 + (bb >> 4) % 3;
        rc = tokenring_availability_build_limited(&lav, bring, repl, 1 + bb % 8,
                                                  bb & 0x40 ? dcs[(bb >> 3) & 1] : NULL, lk,
                                                  &lim, &err);
        if (rc == TOKENRING_E_BUDGET) {
            FUZZ_CHECK(lav == NULL && lim.estimate >
                                          (lim.budget ? lim.budget : TOKENRING_BUDGET_DEFAULT));
        } else if (rc == TOKENRING_OK) {
            size_t cnt = tokenring_availability_count(lav);
            for (size_t i = 0; i < cnt; i++) {
                uint32_t ids[TOKENRING_AVAILABILITY_MAX_K];
                FUZZ_CHECK(tokenring_availability_get(ids, NULL, NULL, lav, i) == TOKENRING_OK);
                for (uint32_t j = 0; j < lk; j++)
                    for (size_t d = 0; d < lim.failed_count; d++)
                        FUZZ_CHECK(ids[j] != down[d]);
            }
            if (sum_ok)
                FUZZ_CHECK((u128)cnt == breaking);
        } else {
            FUZZ_CHECK(lav == NULL && err.code == rc);
        }
        tokenring_availability_free(lav);
        tokenring_availability_summary_free(sum);
        tokenring_ring_free(bring);
    }
    {
        tokenring_limits lim;
        memset(&lim, 0, sizeof lim);
        lim.budget = bb & 0x20 ? (uint64_t)db * 100 : 0;
        lim.max_num_tokens = db & 0x10 ? 4 : 0;
        const char *rk1[1] = { racks[db % 3] };
        int64_t o[8];
        rc = tokenring_allocate_nodes_limited(o, 1 + db % 8, t, dcs[db & 1], rk1, 1,
                                              1 + (db >> 5) % 3, 0, &lim, &err);
        if (rc == TOKENRING_E_BUDGET)
            FUZZ_CHECK(lim.budget != 0 && lim.estimate > lim.budget);
        else if (rc != TOKENRING_OK)
            FUZZ_CHECK(err.code == rc);
        if (lim.max_num_tokens == 4 && 1 + db % 8 > 4)
            FUZZ_CHECK(rc == TOKENRING_E_RANGE);
    }

    char *after = dump(t, repl);
    FUZZ_CHECK(strcmp(before, after) == 0);
    free(before);
    free(after);
    tokenring_replication_free(repl);
    tokenring_topology_free(t);
    return 0;
}
