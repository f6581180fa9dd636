/* SPDX-License-Identifier: Apache-2.0 */
/* Cluster analyses (analysis.h): balance statistics, join / decommission / replace / move
 * movement with streaming, availability under node failures (checked exactly against a
 * brute-force model written here), and the num_tokens migration plan; then every bad
 * argument of each analysis and its accessors. test_analysis_oom.c fails every allocation
 * of every analysis in turn. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

#include "tokenring/tokenring.h"

__extension__ typedef unsigned __int128 u128;

static u128 U(tokenring_u128 v)
{
    return ((u128)v.hi << 64) | v.lo;
}

static const char *demo_names[] = { "10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4",
                                    "10.0.0.5", "10.0.0.6", "10.0.0.7" };

static tokenring_topology *demo(size_t nodes, uint32_t tokens)
{
    tokenring_topology *t;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    assert_int_equal(
        tokenring_layout_add_seeded_nodes(t, 1, tokens, demo_names, NULL, NULL, nodes, 0, NULL),
        TOKENRING_OK);
    return t;
}

static tokenring_replication *simple(int rf)
{
    tokenring_replication *r;
    assert_int_equal(tokenring_replication_simple(&r, rf, 0, NULL), TOKENRING_OK);
    return r;
}

/* "key-0" .. "key-199" */
static void sample_tokens(int64_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char k[32];
        int len = snprintf(k, sizeof k, "key-%zu", i);
        out[i] = tokenring_token(k, (size_t)len);
    }
}

/* ------------------------------------------------------------------- balance */

static void balance_exact(void **state)
{
    (void)state;
    /* A owns (2^62, -2^62] = 2^63, B (-2^62, 0] = 2^62, C (0, 2^62] = 2^62. */
    tokenring_topology *t;
    tokenring_topology_new(&t);
    int64_t a = -4611686018427387904LL, b = 0, c = 4611686018427387904LL;
    assert_int_equal(tokenring_topology_add_node(t, "A", "dc1", "r1", &a, 1, NULL), 0);
    assert_int_equal(tokenring_topology_add_node(t, "B", "dc1", "r2", &b, 1, NULL), 0);
    assert_int_equal(tokenring_topology_add_node(t, "C", "dc2", "r1", &c, 1, NULL), 0);
    tokenring_ring *ring;
    assert_int_equal(tokenring_ring_build(&ring, t, NULL), 0);
    tokenring_replication *r = simple(2);
    tokenring_placement *p;
    assert_int_equal(tokenring_placement_build(&p, ring, r, 0, NULL), 0);
    tokenring_balance pb, eb;
    assert_int_equal(tokenring_balance_compute(&pb, &eb, ring, p, NULL, NULL, NULL), 0);
    assert_int_equal(pb.node_count, 3);
    assert_true(U(pb.max_width) == (u128)1 << 63);
    assert_true(U(pb.min_width) == (u128)1 << 62);
    assert_true(U(pb.total_width) == (u128)1 << 64);
    assert_int_equal(pb.max_node, 0);
    assert_int_equal(pb.min_node, 1);
    assert_true(pb.max == 0.5 && pb.min == 0.25);
    assert_true(pb.mean > 0.333333 && pb.mean < 0.333334);
    /* sample stdev sqrt(1/48) */
    assert_true(pb.stdev > 0.1443375 && pb.stdev < 0.1443376);
    /* Effective, rf 2: A = 2^63 + 2^62 (its range + C's), B = 2^63 + 2^62, C = 2^63. */
    assert_true(U(eb.max_width) == ((u128)1 << 63) + ((u128)1 << 62));
    assert_true(U(eb.min_width) == (u128)1 << 63);
    assert_int_equal(eb.min_node, 2);
    assert_true(U(eb.total_width) == (u128)1 << 65);
    /* Per datacenter and rack. */
    assert_int_equal(tokenring_balance_compute(&pb, &eb, ring, p, "dc1", NULL, NULL), 0);
    assert_int_equal(pb.node_count, 2);
    assert_true(U(pb.total_width) == ((u128)1 << 63) + ((u128)1 << 62));
    assert_int_equal(tokenring_balance_compute(&pb, NULL, ring, NULL, "dc1", "r2", NULL), 0);
    assert_int_equal(pb.node_count, 1);
    assert_int_equal(pb.max_node, 1);
    assert_true(pb.stdev == 0.0);
    /* Errors. */
    tokenring_error err;
    assert_int_equal(tokenring_balance_compute(&pb, NULL, ring, NULL, "nowhere", NULL, &err),
                     TOKENRING_E_NOTFOUND);
    assert_non_null(strstr(err.message, "nowhere"));
    assert_int_equal(tokenring_balance_compute(&pb, NULL, ring, NULL, "dc1", "r9", &err),
                     TOKENRING_E_NOTFOUND);
    assert_int_equal(tokenring_balance_compute(&pb, NULL, ring, NULL, NULL, "r1", &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_balance_compute(&pb, &eb, ring, NULL, NULL, NULL, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_balance_compute(&pb, NULL, NULL, NULL, NULL, NULL, &err),
                     TOKENRING_E_INVAL);
    tokenring_placement_free(p);
    tokenring_replication_free(r);
    tokenring_ring_free(ring);
    tokenring_topology_free(t);
}

/* ------------------------------------------------------------------ movement */

static void join_moves_primaries_only_to_new_node(void **state)
{
    (void)state;
    tokenring_topology *t = demo(6, 8);
    int64_t samples[200];
    sample_tokens(samples, 200);
    int64_t nt[8];
    assert_int_equal(tokenring_layout_seeded_tokens(nt, 8, 1, "10.0.0.7", t, 0, NULL), 0);
    tokenring_replication *r = simple(3);
    tokenring_movement *m;
    tokenring_error err;
    assert_int_equal(tokenring_movement_join(&m, t, r, "10.0.0.7", "datacenter1", "rack1", nt,
                                             8, samples, 200, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_node_count(t), 6); /* input untouched */
    tokenring_movement_summary s;
    assert_int_equal(tokenring_movement_get_summary(&s, m), 0);
    assert_int_equal(s.node_count, 7);
    assert_int_equal(s.sample_count, 200);
    assert_true(s.samples_primary_changed > 0);
    assert_true(s.samples_replicas_changed >= s.samples_primary_changed);
    const uint32_t newcomer = 6;
    for (uint32_t i = 0; i < 200; i++) {
        tokenring_sample_change c;
        assert_int_equal(tokenring_movement_get_sample(&c, m, i), 0);
        assert_true(c.token == samples[i]);
        if (c.owner_changed)
            assert_int_equal(c.new_owner, newcomer);
        if (c.replicas_changed) /* the newcomer enters every changed replica set */
            assert_true(c.new_replicas[0] == newcomer || c.new_replicas[1] == newcomer ||
                        c.new_replicas[2] == newcomer);
    }
    /* No unchanged range changes owner: every range of the old ring that holds no new
     * token has the same owner afterwards. */
    tokenring_topology *after;
    tokenring_topology_clone(&after, t);
    tokenring_topology_add_node(after, "10.0.0.7", "datacenter1", "rack1", nt, 8, NULL);
    tokenring_ring *r1, *r2;
    tokenring_ring_build(&r1, t, NULL);
    tokenring_ring_build(&r2, after, NULL);
    size_t n1;
    tokenring_ring_tokens(r1, &n1);
    size_t untouched = 0;
    for (size_t i = 0; i < n1; i++) {
        tokenring_range rg;
        tokenring_ring_range(&rg, r1, i);
        int holds_new = 0;
        for (int k = 0; k < 8; k++) {
            tokenring_range nr;
            tokenring_ring_range_of(&nr, r1, nt[k]);
            holds_new |= nr.index == rg.index;
        }
        uint32_t o2;
        tokenring_ring_owner(&o2, r2, rg.end);
        if (!holds_new) {
            untouched++;
            assert_int_equal(o2, rg.owner); /* same index: same topology order */
        }
    }
    assert_true(untouched >= n1 - 8);
    /* What changed primary owner is exactly what the newcomer owns now. */
    tokenring_movement_node nn;
    assert_int_equal(tokenring_movement_get_node(&nn, m, newcomer), 0);
    assert_string_equal(nn.name, "10.0.0.7");
    assert_true(nn.in_after && !nn.in_before && !nn.needs_cleanup);
    assert_true(U(s.primary_changed_width) == U(nn.primary_after_width));
    /* Streams: all to the newcomer, each from the replica losing the range (strict),
     * together exactly what it gains, which is all it holds. */
    assert_true(s.stream_count > 0);
    u128 streamed = 0, lost = 0;
    for (uint32_t i = 0; i < s.stream_count; i++) {
        tokenring_stream st;
        assert_int_equal(tokenring_movement_get_stream(&st, m, i), 0);
        assert_int_equal(st.destination, newcomer);
        assert_int_equal(st.strict, 1);
        tokenring_moved_range mr;
        assert_int_equal(tokenring_movement_get_range(&mr, m, st.range_index), 0);
        int src_in_new = 0, src_in_old = 0;
        for (uint32_t k = 0; k < mr.new_count; k++)
            src_in_new |= mr.new_replicas[k] == st.source;
        for (uint32_t k = 0; k < mr.old_count; k++)
            src_in_old |= mr.old_replicas[k] == st.source;
        assert_true(src_in_old && !src_in_new);
        streamed += U(st.width);
    }
    assert_true(streamed == U(s.streamed_width));
    assert_true(streamed == U(nn.gained_width));
    assert_true(U(nn.gained_width) == U(nn.after_width));
    assert_true(nn.gained_fraction == 1.0);
    /* Cleanup: the nodes that lost data; total lost = total gained. */
    uint32_t cleanup = 0;
    for (uint32_t i = 0; i < 6; i++) {
        tokenring_movement_node on;
        tokenring_movement_get_node(&on, m, i);
        lost += U(on.lost_width);
        cleanup += on.needs_cleanup;
        assert_true(U(on.before_width) - U(on.lost_width) == U(on.after_width));
    }
    assert_true(lost == U(nn.gained_width));
    assert_int_equal(cleanup, s.cleanup_count);
    assert_true(cleanup > 0);
    /* Changed width = the token values whose replica set changed = sum of range widths. */
    u128 changed = 0;
    for (uint32_t i = 0; i < s.range_count; i++) {
        tokenring_moved_range mr;
        tokenring_movement_get_range(&mr, m, i);
        changed += U(mr.width);
    }
    assert_true(changed == U(s.changed_width));
    assert_int_equal(tokenring_movement_get_range(NULL, m, 0), TOKENRING_E_INVAL);
    tokenring_moved_range mr;
    assert_int_equal(tokenring_movement_get_range(&mr, m, s.range_count), TOKENRING_E_RANGE);
    tokenring_movement_free(m);
    tokenring_ring_free(r1);
    tokenring_ring_free(r2);
    tokenring_topology_free(after);
    tokenring_replication_free(r);
    tokenring_topology_free(t);
}

static void decommission_replace_move(void **state)
{
    (void)state;
    tokenring_topology *t = demo(6, 8);
    tokenring_replication *r = simple(3);
    tokenring_movement *m;
    tokenring_movement_summary s;
    /* Decommission: the leaving node streams everything it held, strictly. */
    assert_int_equal(tokenring_movement_decommission(&m, t, r, "10.0.0.3", NULL, 0, NULL), 0);
    tokenring_movement_get_summary(&s, m);
    tokenring_movement_node leaving;
    tokenring_movement_get_node(&leaving, m, 2);
    assert_true(leaving.in_before && !leaving.in_after);
    assert_true(U(leaving.lost_width) == U(leaving.before_width));
    assert_true(U(s.streamed_width) == U(leaving.before_width));
    for (uint32_t i = 0; i < s.stream_count; i++) {
        tokenring_stream st;
        tokenring_movement_get_stream(&st, m, i);
        assert_int_equal(st.source, 2);
        assert_int_equal(st.strict, 1);
    }
    assert_int_equal(s.cleanup_count, 0);
    tokenring_movement_free(m);
    /* Replace: the new node takes exactly the old node's data from other replicas. */
    assert_int_equal(tokenring_movement_replace(&m, t, r, "10.0.0.3", "10.0.0.9", NULL, 0, NULL),
                     0);
    tokenring_movement_get_summary(&s, m);
    assert_int_equal(s.node_count, 7);
    tokenring_movement_node fresh;
    tokenring_movement_get_node(&fresh, m, 6);
    assert_string_equal(fresh.name, "10.0.0.9");
    assert_true(U(s.changed_width) == U(leaving.before_width));
    assert_true(U(fresh.gained_width) == U(leaving.before_width));
    assert_true(U(fresh.primary_after_width) == U(leaving.primary_before_width));
    for (uint32_t i = 0; i < s.stream_count; i++) {
        tokenring_stream st;
        tokenring_movement_get_stream(&st, m, i);
        assert_int_not_equal(st.source, 2);
        assert_int_equal(st.destination, 6);
        assert_int_equal(st.strict, 0);
    }
    assert_int_equal(s.cleanup_count, 0);
    tokenring_movement_free(m);
    /* Move: a node takes new tokens; primary ownership moves only to or from it. */
    int64_t nt[8];
    tokenring_layout_seeded_tokens(nt, 8, 77, "10.0.0.4", t, 0, NULL);
    assert_int_equal(tokenring_movement_move(&m, t, r, "10.0.0.4", nt, 8, NULL, 0, NULL), 0);
    tokenring_movement_get_summary(&s, m);
    assert_int_equal(s.node_count, 6);
    assert_true(s.range_count > 0);
    tokenring_movement_free(m);
    /* Errors leave nothing behind and name the node. */
    tokenring_error err;
    m = (tokenring_movement *)0x1;
    assert_int_equal(tokenring_movement_decommission(&m, t, r, "nobody", NULL, 0, &err),
                     TOKENRING_E_NOTFOUND);
    assert_ptr_equal(m, (tokenring_movement *)0x1); /* *out untouched (common.h) */
    assert_non_null(strstr(err.message, "nobody"));
    assert_int_equal(tokenring_movement_replace(&m, t, r, "10.0.0.1", "10.0.0.2", NULL, 0, &err),
                     TOKENRING_E_EXISTS);
    assert_int_equal(tokenring_movement_join(&m, t, r, "10.0.0.1", "datacenter1", "rack1", nt, 8,
                                             NULL, 0, &err),
                     TOKENRING_E_EXISTS);
    assert_int_equal(tokenring_movement_compare(&m, t, t, r, 99, NULL, 0, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_movement_compare(&m, t, NULL, r, 0, NULL, 0, &err),
                     TOKENRING_E_INVAL);
    tokenring_replication *nts;
    tokenring_replication_network(&nts);
    tokenring_replication_set_dc(nts, "elsewhere", 3, 0, NULL);
    assert_int_equal(tokenring_movement_compare(&m, t, t, nts, 0, NULL, 0, &err),
                     TOKENRING_E_NOTFOUND);
    tokenring_replication_free(nts);
    /* Comparing a topology with itself: nothing moves. */
    assert_int_equal(tokenring_movement_compare(&m, t, t, r, 0, NULL, 0, NULL), 0);
    tokenring_movement_get_summary(&s, m);
    assert_int_equal(s.range_count, 0);
    assert_int_equal(s.stream_count, 0);
    assert_true(U(s.changed_width) == 0);
    tokenring_movement_free(m);
    tokenring_movement_free(NULL);
    tokenring_replication_free(r);
    tokenring_topology_free(t);
}

/* -------------------------------------------------------------- availability */

/* Brute force: for every k-subset, the width of ranges whose live replicas fall short. */
typedef struct bf_rule {
    int cl;
    int need_total;
    int need_dc[8];
    int local;
} bf_rule;

static int bf_fails(const bf_rule *b, const tokenring_ring *ring, const tokenring_replicas *rep,
                    const uint32_t *f, uint32_t k)
{
    int alive_dc[8] = { 0 }, alive = 0;
    for (uint32_t i = 0; i < rep->count; i++) {
        int down = 0;
        for (uint32_t j = 0; j < k; j++)
            down |= rep->nodes[i] == f[j];
        if (down)
            continue;
        tokenring_node_info ni;
        tokenring_ring_node(&ni, ring, rep->nodes[i]);
        alive_dc[ni.dc_index]++;
        alive++;
    }
    switch (b->cl) {
    case TOKENRING_CL_LOCAL_ONE:
    case TOKENRING_CL_LOCAL_QUORUM: return alive_dc[b->local] < b->need_dc[b->local];
    case TOKENRING_CL_EACH_QUORUM:
        for (int d = 0; d < 8; d++)
            if (alive_dc[d] < b->need_dc[d])
                return 1;
        return 0;
    default: return alive < b->need_total;
    }
}

static void check_against_brute_force(const tokenring_topology *t,
                                      const tokenring_replication *r, const bf_rule *b,
                                      const char *local, uint32_t k, size_t *count_out)
{
    tokenring_ring *ring;
    tokenring_ring_build(&ring, t, NULL);
    tokenring_placement *p;
    assert_int_equal(tokenring_placement_build(&p, ring, r, 0, NULL), 0);
    tokenring_availability *a;
    assert_int_equal(tokenring_availability_build(&a, ring, r, b->cl, local, k, NULL), 0);
    size_t n = tokenring_ring_node_count(ring), ranges;
    tokenring_ring_tokens(ring, &ranges);
    size_t expect = 0, got = tokenring_availability_count(a), idx = 0;
    uint32_t f[3];
    for (f[0] = 0; f[0] < n; f[0]++)
        for (f[1] = k > 1 ? f[0] + 1 : 0; k < 2 || f[1] < n; f[1]++) {
            for (f[2] = k > 2 ? f[1] + 1 : 0; k < 3 || f[2] < n; f[2]++) {
                u128 w = 0;
                for (size_t i = 0; i < ranges; i++) {
                    tokenring_replicas rep;
                    tokenring_range rg;
                    tokenring_placement_range_replicas(&rep, p, i);
                    tokenring_ring_range(&rg, ring, i);
                    if (bf_fails(b, ring, &rep, f, k))
                        w += U(rg.width);
                }
                if (w > 0) {
                    expect++;
                    assert_true(idx < got);
                    uint32_t nodes[3];
                    tokenring_u128 width;
                    double frac;
                    assert_int_equal(tokenring_availability_get(nodes, &width, &frac, a, idx), 0);
                    for (uint32_t j = 0; j < k; j++)
                        assert_int_equal(nodes[j], f[j]);
                    assert_true(U(width) == w);
                    assert_true(frac > 0 && frac <= 1.0);
                    idx++;
                }
                if (k < 3)
                    break;
            }
            if (k < 2)
                break;
        }
    assert_int_equal(got, expect);
    *count_out = got;
    tokenring_availability_free(a);
    tokenring_placement_free(p);
    tokenring_ring_free(ring);
}

static tokenring_topology *twelve(uint32_t tokens, int racks)
{
    static const char *names[] = { "n01", "n02", "n03", "n04", "n05", "n06",
                                   "n07", "n08", "n09", "n10", "n11", "n12" };
    const char *rk[12];
    for (int i = 0; i < 12; i++)
        rk[i] = racks == 1 ? "r1" : (i % 3 == 0 ? "r1" : i % 3 == 1 ? "r2" : "r3");
    tokenring_topology *t;
    tokenring_topology_new(&t);
    assert_int_equal(tokenring_layout_add_seeded_nodes(t, 1, tokens, names, NULL, rk, 12, 0, NULL),
                     0);
    return t;
}

static tokenring_replication *nts1(int rf)
{
    tokenring_replication *r;
    tokenring_replication_network(&r);
    tokenring_replication_set_dc(r, "datacenter1", rf, 0, NULL);
    return r;
}

static void availability_seed_facts(void **state)
{
    (void)state;
    bf_rule q = { .cl = TOKENRING_CL_QUORUM, .need_total = 2 };
    tokenring_replication *r = nts1(3);
    size_t count;
    /* 256 tokens, one rack: every pair breaks QUORUM. */
    tokenring_topology *t = twelve(256, 1);
    check_against_brute_force(t, r, &q, NULL, 2, &count);
    assert_int_equal(count, 66);
    tokenring_topology_free(t);
    /* Three racks of four: exactly the 48 cross-rack pairs. */
    t = twelve(256, 3);
    tokenring_ring *ring;
    tokenring_ring_build(&ring, t, NULL);
    tokenring_availability *a;
    assert_int_equal(tokenring_availability_build(&a, ring, r, TOKENRING_CL_QUORUM, NULL, 2, NULL),
                     0);
    assert_int_equal(tokenring_availability_count(a), 48);
    for (size_t i = 0; i < 48; i++) {
        uint32_t nodes[2];
        tokenring_availability_get(nodes, NULL, NULL, a, i);
        tokenring_node_info x, y;
        tokenring_ring_node(&x, ring, nodes[0]);
        tokenring_ring_node(&y, ring, nodes[1]);
        assert_string_not_equal(x.rack, y.rack);
    }
    tokenring_availability_free(a);
    tokenring_ring_free(ring);
    check_against_brute_force(t, r, &q, NULL, 2, &count);
    tokenring_topology_free(t);
    /* One token per node: only pairs within two ring positions (12 * 2 = 24). */
    t = twelve(1, 1);
    tokenring_ring_build(&ring, t, NULL);
    assert_int_equal(tokenring_availability_build(&a, ring, r, TOKENRING_CL_QUORUM, NULL, 2, NULL),
                     0);
    assert_int_equal(tokenring_availability_count(a), 24);
    const uint32_t *owners = tokenring_ring_token_nodes(ring, NULL);
    for (size_t i = 0; i < 24; i++) {
        uint32_t nodes[2];
        tokenring_availability_get(nodes, NULL, NULL, a, i);
        int p0 = -1, p1 = -1;
        for (int j = 0; j < 12; j++) {
            if (owners[j] == nodes[0])
                p0 = j;
            if (owners[j] == nodes[1])
                p1 = j;
        }
        int d = abs(p0 - p1);
        if (d > 6)
            d = 12 - d;
        assert_true(d >= 1 && d <= 2);
    }
    tokenring_availability_free(a);
    tokenring_ring_free(ring);
    check_against_brute_force(t, r, &q, NULL, 2, &count);
    check_against_brute_force(t, r, &q, NULL, 3, &count);
    check_against_brute_force(t, r, &q, NULL, 1, &count);
    assert_int_equal(count, 0);
    tokenring_topology_free(t);
    tokenring_replication_free(r);
}

static void availability_levels_brute_force(void **state)
{
    (void)state;
    /* Two datacenters, racks, 4 tokens per node. */
    static const char *names[] = { "a1", "a2", "a3", "a4", "a5", "b1", "b2", "b3", "b4" };
    static const char *dcs[] = { "east", "east", "east", "east", "east",
                                 "west", "west", "west", "west" };
    static const char *racks[] = { "r1", "r2", "r3", "r1", "r2", "r1", "r2", "r1", "r2" };
    tokenring_topology *t;
    tokenring_topology_new(&t);
    assert_int_equal(tokenring_layout_add_seeded_nodes(t, 3, 4, names, dcs, racks, 9, 0, NULL), 0);
    tokenring_replication *r;
    tokenring_replication_network(&r);
    tokenring_replication_set_dc(r, "east", 3, 0, NULL);
    tokenring_replication_set_dc(r, "west", 2, 0, NULL);
    size_t count;
    /* dc indices: east 0, west 1 (sorted names). */
    bf_rule rules[] = {
        { .cl = TOKENRING_CL_ONE, .need_total = 1 },
        { .cl = TOKENRING_CL_TWO, .need_total = 2 },
        { .cl = TOKENRING_CL_THREE, .need_total = 3 },
        { .cl = TOKENRING_CL_QUORUM, .need_total = 3 },
        { .cl = TOKENRING_CL_ALL, .need_total = 5 },
        { .cl = TOKENRING_CL_LOCAL_ONE, .need_dc = { 1, 1 }, .local = 1 },
        { .cl = TOKENRING_CL_LOCAL_QUORUM, .need_dc = { 2, 2 }, .local = 0 },
        { .cl = TOKENRING_CL_EACH_QUORUM, .need_dc = { 2, 2 } },
    };
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        for (uint32_t k = 1; k <= 3; k++) {
            const char *local = rules[i].cl == TOKENRING_CL_LOCAL_ONE ? "west"
                                : rules[i].cl == TOKENRING_CL_LOCAL_QUORUM ? "east"
                                                                           : NULL;
            check_against_brute_force(t, r, &rules[i], local, k, &count);
            if (rules[i].cl == TOKENRING_CL_ALL && k == 1)
                assert_int_equal(count, 9); /* any node down breaks ALL */
        }
    tokenring_replication_free(r);
    tokenring_topology_free(t);
}

static void availability_errors(void **state)
{
    (void)state;
    tokenring_topology *t = twelve(4, 1);
    tokenring_ring *ring;
    tokenring_ring_build(&ring, t, NULL);
    tokenring_replication *r = nts1(2);
    tokenring_availability *a = (tokenring_availability *)0x1;
    tokenring_error err;
    assert_int_equal(tokenring_availability_build(&a, ring, r, TOKENRING_CL_THREE, NULL, 1, &err),
                     TOKENRING_E_IMPOSSIBLE);
    assert_ptr_equal(a, (tokenring_availability *)0x1); /* *out untouched (common.h) */
    assert_non_null(strstr(err.message, "THREE"));
    assert_int_equal(tokenring_availability_build(&a, ring, r, TOKENRING_CL_ONE, NULL, 0, &err),
                     TOKENRING_E_RANGE);
    assert_int_equal(tokenring_availability_build(&a, ring, r, TOKENRING_CL_ONE, NULL, 4, &err),
                     TOKENRING_E_RANGE);
    assert_non_null(strstr(err.message, "k = 4"));
    assert_int_equal(tokenring_availability_build(&a, ring, r, 0, NULL, 1, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(
        tokenring_availability_build(&a, ring, r, TOKENRING_CL_LOCAL_QUORUM, NULL, 1, &err),
        TOKENRING_E_INVAL);
    assert_int_equal(
        tokenring_availability_build(&a, ring, r, TOKENRING_CL_LOCAL_QUORUM, "mars", 1, &err),
        TOKENRING_E_NOTFOUND);
    assert_int_equal(tokenring_availability_build(NULL, ring, r, 1, NULL, 1, &err),
                     TOKENRING_E_INVAL);
    /* k larger than the node count. */
    tokenring_topology *two;
    tokenring_topology_new(&two);
    tokenring_layout_add_seeded_nodes(two, 1, 4, demo_names, NULL, NULL, 2, 0, NULL);
    tokenring_ring *ring2;
    tokenring_ring_build(&ring2, two, NULL);
    assert_int_equal(tokenring_availability_build(&a, ring2, r, TOKENRING_CL_ONE, NULL, 3, &err),
                     TOKENRING_E_RANGE);
    assert_int_equal(tokenring_availability_build(&a, ring2, r, TOKENRING_CL_ONE, NULL, 2, &err),
                     0);
    assert_int_equal(tokenring_availability_count(a), 1);
    uint32_t nodes[2];
    tokenring_u128 w;
    assert_int_equal(tokenring_availability_get(nodes, &w, NULL, a, 0), 0);
    assert_true(U(w) == (u128)1 << 64);
    assert_int_equal(tokenring_availability_get(nodes, &w, NULL, a, 1), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_availability_get(NULL, &w, NULL, a, 0), TOKENRING_E_INVAL);
    tokenring_availability_free(a);
    tokenring_availability_free(NULL);
    assert_int_equal(tokenring_availability_count(NULL), 0);
    tokenring_ring_free(ring2);
    tokenring_topology_free(two);
    tokenring_replication_free(r);
    tokenring_ring_free(ring);
    tokenring_topology_free(t);
}

/* ----------------------------------------------------------------- migration */

static void migration_plan(void **state)
{
    (void)state;
    tokenring_topology *t = demo(6, 8);
    static const char *names[] = { "n1", "n2", "n3", "n4", "n5", "n6" };
    static const char *racks[] = { "r1", "r2", "r3", "r1", "r2", "r3" };
    static const char *ks[] = { "shop", "users" };
    tokenring_replication *r1, *r2;
    tokenring_replication_parse(&r1, "datacenter1=3", 13, NULL);
    tokenring_replication_parse(&r2, "SimpleStrategy:2", 16, NULL);
    const tokenring_replication *reps[] = { r1, r2 };
    tokenring_migration *m;
    tokenring_error err;
    assert_int_equal(tokenring_migration_plan(&m, t, "datacenter1", "dc16", names, racks, 6, 16,
                                              3, ks, reps, 2, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_migration_node_count(m), 6);
    /* First node of each rack: evenly spaced with rack offsets. */
    for (uint32_t i = 0; i < 3; i++) {
        const int64_t *tok;
        size_t n;
        const char *name, *rack;
        assert_int_equal(tokenring_migration_node(&name, &rack, &tok, &n, m, i), 0);
        assert_int_equal(n, 16);
        assert_string_equal(name, names[i]);
        int64_t even[16];
        tokenring_layout_even_tokens(even, 16, i, 3);
        assert_memory_equal(tok, even, sizeof even);
    }
    /* Every token distinct and none taken. */
    tokenring_topology *after;
    tokenring_topology_clone(&after, t);
    for (uint32_t i = 0; i < 6; i++) {
        const int64_t *tok;
        size_t n;
        tokenring_migration_node(NULL, NULL, &tok, &n, m, i);
        assert_int_equal(tokenring_topology_add_node(after, names[i], "dc16", racks[i], tok, n,
                                                     NULL),
                         TOKENRING_OK);
    }
    tokenring_topology_free(after);
    /* Steps name the keyspaces, datacenters and nodes. */
    size_t steps = tokenring_migration_step_count(m);
    assert_true(steps > 10);
    int alter_add = 0, alter_drop = 0, rebuild = 0, decom = 0;
    for (size_t i = 0; i < steps; i++) {
        const char *s = tokenring_migration_step(m, i);
        assert_non_null(s);
        if (strstr(s, "ALTER KEYSPACE shop") && strstr(s, "'dc16': '3'") &&
            strstr(s, "'datacenter1': '3'"))
            alter_add++;
        if (strstr(s, "ALTER KEYSPACE users") && strstr(s, "'dc16': '3'") &&
            strstr(s, "'datacenter1': '2'"))
            alter_add++;
        /* Dropping the old datacenter keeps the new one (it was left out before). */
        if (strcmp(s, "cqlsh: ALTER KEYSPACE shop WITH replication = {'class': "
                      "'NetworkTopologyStrategy', 'dc16': '3'};") == 0 ||
            strcmp(s, "cqlsh: ALTER KEYSPACE users WITH replication = {'class': "
                      "'NetworkTopologyStrategy', 'dc16': '3'};") == 0)
            alter_drop++;
        if (strstr(s, "ALTER KEYSPACE") && !strstr(s, "dc16") && !strstr(s, "datacenter1"))
            fail_msg("a replication with no datacenter: %s", s);
        if (strstr(s, "nodetool rebuild -- datacenter1"))
            rebuild++;
        if (strstr(s, "nodetool decommission"))
            decom++;
    }
    assert_int_equal(alter_add, 2);
    assert_int_equal(alter_drop, 2);
    assert_int_equal(rebuild, 6);
    assert_int_equal(decom, 6);
    assert_null(tokenring_migration_step(m, steps));
    tokenring_migration_free(m);
    /* Errors. */
    assert_int_equal(tokenring_migration_plan(&m, t, "nowhere", "dc16", names, racks, 6, 16, 3,
                                              ks, reps, 2, &err),
                     TOKENRING_E_NOTFOUND);
    assert_int_equal(tokenring_migration_plan(&m, t, "datacenter1", "datacenter1", names, racks,
                                              6, 16, 3, ks, reps, 2, &err),
                     TOKENRING_E_EXISTS);
    assert_int_equal(tokenring_migration_plan(&m, t, "datacenter1", "dc16", names, racks, 2, 16,
                                              3, ks, reps, 2, &err),
                     TOKENRING_E_IMPOSSIBLE);
    assert_int_equal(tokenring_migration_plan(&m, t, "datacenter1", "dc16", demo_names, racks, 6,
                                              16, 3, ks, reps, 2, &err),
                     TOKENRING_E_EXISTS);
    assert_int_equal(tokenring_migration_plan(&m, t, "datacenter1", "dc16", names, racks, 6, 0, 3,
                                              ks, reps, 2, &err),
                     TOKENRING_E_RANGE);
    tokenring_migration_free(NULL);
    tokenring_replication_free(r1);
    tokenring_replication_free(r2);
    tokenring_topology_free(t);
}

/* ============================================================ */

/* Argument checks and edge cases of the analyses (analysis.h) that the tests above do
 * not reach: each bad argument gets its documented code and a message, accessors refuse
 * NULL and out-of-range indices, and a valid plan's accessors agree with its inputs. */

typedef struct {
    tokenring_topology *t;
    tokenring_ring *ring;
    tokenring_replication *nts;
} fixture;

static void make(fixture *f)
{
    assert_int_equal(tokenring_topology_new(&f->t), TOKENRING_OK);
    static const char *const racks[] = { "r1", "r2", "r3" };
    for (int i = 0; i < 6; i++) {
        char name[16];
        snprintf(name, sizeof name, "n%d", i);
        int64_t tk[2] = { (int64_t)(i * 1000 - 3000), (int64_t)i * 1000 + 500000 };
        assert_int_equal(tokenring_topology_add_node(f->t, name, "dc1", racks[i % 3], tk, 2, NULL),
                         TOKENRING_OK);
    }
    assert_int_equal(tokenring_ring_build(&f->ring, f->t, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_replication_parse(&f->nts, "dc1=3", 5, NULL), TOKENRING_OK);
}

static void unmake(fixture *f)
{
    tokenring_replication_free(f->nts);
    tokenring_ring_free(f->ring);
    tokenring_topology_free(f->t);
}

#define FAILS(call, code)                                                                  \
    do {                                                                                   \
        tokenring_error e_;                                                                \
        memset(&e_, 0, sizeof e_);                                                         \
        tokenring_error *err = &e_;                                                        \
        int rc_ = (call);                                                                  \
        if (rc_ != (code))                                                                 \
            fail_msg("%s: got %s (%s), want %s", #call, tokenring_status_name(rc_),        \
                     e_.message, tokenring_status_name(code));                             \
        assert_true(e_.message[0] != '\0');                                                \
    } while (0)

static void balance_arguments(void **state)
{
    (void)state;
    fixture f;
    make(&f);
    tokenring_balance b;
    FAILS(tokenring_balance_compute(&b, NULL, NULL, NULL, NULL, NULL, err), TOKENRING_E_INVAL);
    FAILS(tokenring_balance_compute(&b, NULL, f.ring, NULL, NULL, "r1", err), TOKENRING_E_INVAL);
    /* effective figures need a placement */
    FAILS(tokenring_balance_compute(NULL, &b, f.ring, NULL, NULL, NULL, err), TOKENRING_E_INVAL);
    FAILS(tokenring_balance_compute(&b, NULL, f.ring, NULL, "nope", NULL, err),
          TOKENRING_E_NOTFOUND);
    FAILS(tokenring_balance_compute(&b, NULL, f.ring, NULL, "dc1", "nope", err),
          TOKENRING_E_NOTFOUND);
    /* a placement from another ring */
    tokenring_ring *other = NULL;
    assert_int_equal(tokenring_ring_build(&other, f.t, NULL), TOKENRING_OK);
    tokenring_placement *p = NULL;
    assert_int_equal(tokenring_placement_build(&p, other, f.nts, 0, NULL), TOKENRING_OK);
    FAILS(tokenring_balance_compute(&b, &b, f.ring, p, NULL, NULL, err), TOKENRING_E_INVAL);
    /* per rack: two nodes of six, each with a third of the effective ownership */
    tokenring_placement *mine = NULL;
    assert_int_equal(tokenring_placement_build(&mine, f.ring, f.nts, 0, NULL), TOKENRING_OK);
    tokenring_balance eff;
    assert_int_equal(tokenring_balance_compute(&b, &eff, f.ring, mine, "dc1", "r2", NULL),
                     TOKENRING_OK);
    assert_int_equal(b.node_count, 2);
    assert_int_equal(eff.node_count, 2);
    tokenring_placement_free(mine);
    tokenring_placement_free(p);
    tokenring_ring_free(other);
    unmake(&f);
}

static void movement_arguments_and_accessors(void **state)
{
    (void)state;
    fixture f;
    make(&f);
    tokenring_movement *m = NULL;
    const int64_t tk[] = { 777 };
    const int64_t sample[] = { 0, 600000 };
    FAILS(tokenring_movement_compare(&m, f.t, NULL, f.nts, 0, NULL, 0, err), TOKENRING_E_INVAL);
    FAILS(tokenring_movement_compare(&m, f.t, f.t, f.nts, 0, NULL, 2, err), TOKENRING_E_INVAL);
    FAILS(tokenring_movement_compare(&m, f.t, f.t, f.nts, 99, NULL, 0, err), TOKENRING_E_INVAL);
    FAILS(tokenring_movement_compare(NULL, f.t, f.t, f.nts, 0, NULL, 0, err), TOKENRING_E_INVAL);
    FAILS(tokenring_movement_join(&m, f.t, f.nts, NULL, "dc1", "r1", tk, 1, NULL, 0, err),
          TOKENRING_E_INVAL);
    FAILS(tokenring_movement_join(&m, f.t, f.nts, "n0", "dc1", "r1", tk, 1, NULL, 0, err),
          TOKENRING_E_EXISTS);
    FAILS(tokenring_movement_decommission(&m, f.t, f.nts, "ghost", NULL, 0, err),
          TOKENRING_E_NOTFOUND);
    FAILS(tokenring_movement_decommission(&m, f.t, NULL, "n0", NULL, 0, err), TOKENRING_E_INVAL);
    FAILS(tokenring_movement_replace(&m, f.t, f.nts, "n0", NULL, NULL, 0, err), TOKENRING_E_INVAL);
    FAILS(tokenring_movement_replace(&m, f.t, f.nts, "n0", "n1", NULL, 0, err), TOKENRING_E_EXISTS);
    FAILS(tokenring_movement_replace(&m, f.t, f.nts, "ghost", "new", NULL, 0, err),
          TOKENRING_E_NOTFOUND);
    FAILS(tokenring_movement_move(&m, f.t, f.nts, "ghost", tk, 1, NULL, 0, err),
          TOKENRING_E_NOTFOUND);
    FAILS(tokenring_movement_move(&m, f.t, f.nts, "n0", NULL, 1, NULL, 0, err), TOKENRING_E_INVAL);
    assert_null(m);

    /* a valid join: accessors agree with the summary and refuse bad indices */
    tokenring_error err;
    assert_int_equal(tokenring_movement_join(&m, f.t, f.nts, "n9", "dc1", "r1", tk, 1, sample, 2,
                                             &err),
                     TOKENRING_OK);
    tokenring_movement_summary s;
    assert_int_equal(tokenring_movement_get_summary(&s, m), TOKENRING_OK);
    assert_int_equal(tokenring_movement_get_summary(NULL, m), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_movement_get_summary(&s, NULL), TOKENRING_E_INVAL);
    tokenring_movement_node nd;
    tokenring_moved_range rg;
    tokenring_stream st;
    tokenring_sample_change sc;
    assert_int_equal(tokenring_movement_get_node(&nd, m, 0), TOKENRING_OK);
    assert_int_equal(tokenring_movement_get_node(&nd, m, 1000), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_movement_get_node(NULL, m, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_movement_get_range(&rg, m, 1000000), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_movement_get_range(NULL, m, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_movement_get_stream(&st, m, 1000000), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_movement_get_stream(&st, NULL, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_movement_get_sample(&sc, m, 0), TOKENRING_OK);
    assert_int_equal(tokenring_movement_get_sample(&sc, m, 1), TOKENRING_OK);
    assert_int_equal(tokenring_movement_get_sample(&sc, m, 2), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_movement_get_sample(NULL, m, 0), TOKENRING_E_INVAL);
    tokenring_movement_free(m);
    tokenring_movement_free(NULL);
    unmake(&f);
}

static void availability_arguments(void **state)
{
    (void)state;
    fixture f;
    make(&f);
    tokenring_availability *a = NULL;
    FAILS(tokenring_availability_build(NULL, f.ring, f.nts, TOKENRING_CL_ONE, NULL, 1, err),
          TOKENRING_E_INVAL);
    FAILS(tokenring_availability_build(&a, f.ring, NULL, TOKENRING_CL_ONE, NULL, 1, err),
          TOKENRING_E_INVAL);
    FAILS(tokenring_availability_build(&a, f.ring, f.nts, 0, NULL, 1, err), TOKENRING_E_INVAL);
    FAILS(tokenring_availability_build(&a, f.ring, f.nts, 9, NULL, 1, err), TOKENRING_E_INVAL);
    FAILS(tokenring_availability_build(&a, f.ring, f.nts, TOKENRING_CL_LOCAL_ONE, NULL, 1, err),
          TOKENRING_E_INVAL);
    FAILS(tokenring_availability_build(&a, f.ring, f.nts, TOKENRING_CL_LOCAL_QUORUM, "dcX", 1,
                                       err),
          TOKENRING_E_NOTFOUND);
    FAILS(tokenring_availability_build(&a, f.ring, f.nts, TOKENRING_CL_ONE, NULL, 0, err),
          TOKENRING_E_RANGE);
    FAILS(tokenring_availability_build(&a, f.ring, f.nts, TOKENRING_CL_ONE, NULL,
                                       TOKENRING_AVAILABILITY_MAX_K + 1, err),
          TOKENRING_E_RANGE);
    assert_null(a);

    /* LOCAL_ONE in dc1 with rf 3: two failures never suffice, three in distinct racks do */
    tokenring_error err;
    assert_int_equal(tokenring_availability_build(&a, f.ring, f.nts, TOKENRING_CL_LOCAL_ONE, "dc1",
                                                  2, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_availability_count(a), 0);
    tokenring_availability_free(a);
    assert_int_equal(tokenring_availability_build(&a, f.ring, f.nts, TOKENRING_CL_ONE, NULL, 3,
                                                  &err),
                     TOKENRING_OK);
    size_t n = tokenring_availability_count(a);
    assert_true(n > 0);
    uint32_t nodes[3];
    double frac = -1;
    tokenring_u128 w;
    assert_int_equal(tokenring_availability_get(nodes, &w, &frac, a, 0), TOKENRING_OK);
    assert_true(frac > 0 && frac <= 1);
    assert_true(nodes[0] < nodes[1] && nodes[1] < nodes[2]);
    assert_int_equal(tokenring_availability_get(nodes, NULL, NULL, a, n), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_availability_get(NULL, NULL, NULL, a, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_availability_get(nodes, NULL, NULL, NULL, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_availability_count(NULL), 0);
    tokenring_availability_free(a);
    tokenring_availability_free(NULL);
    unmake(&f);
}

static void migration_arguments_and_accessors(void **state)
{
    (void)state;
    fixture f;
    make(&f);
    tokenring_migration *m = NULL;
    const char *names[] = { "m1", "m2", "m3" };
    const char *dup[] = { "m1", "m1", "m3" };
    const char *racks[] = { "r1", "r2", "r3" };
    const char *ks[] = { "shop" };
    const char *noname[] = { "" };
    const tokenring_replication *reps[] = { f.nts };
    FAILS(tokenring_migration_plan(&m, f.t, "dc1", "dc2", names, NULL, 3, 16, 3, NULL, NULL, 0,
                                   err),
          TOKENRING_E_INVAL);
    FAILS(tokenring_migration_plan(&m, f.t, "dc1", "dc2", names, racks, 3, 16, 3, NULL, NULL, 1,
                                   err),
          TOKENRING_E_INVAL);
    FAILS(tokenring_migration_plan(&m, f.t, "dc1", "", names, racks, 3, 16, 3, NULL, NULL, 0,
                                   err),
          TOKENRING_E_INVAL);
    FAILS(tokenring_migration_plan(&m, f.t, "dc1", "dc2", names, racks, 3, 0, 3, NULL, NULL, 0,
                                   err),
          TOKENRING_E_RANGE);
    FAILS(tokenring_migration_plan(&m, f.t, "dc1", "dc2", names, racks, 3, 16, 0, NULL, NULL, 0,
                                   err),
          TOKENRING_E_RANGE);
    FAILS(tokenring_migration_plan(&m, f.t, "dc1", "dc2", dup, racks, 3, 16, 3, NULL, NULL, 0,
                                   err),
          TOKENRING_E_EXISTS);
    FAILS(tokenring_migration_plan(&m, f.t, "dc1", "dc2", names, racks, 3, 16, 3, noname, reps, 1,
                                   err),
          TOKENRING_E_INVAL);
    FAILS(tokenring_migration_plan(&m, f.t, "dcX", "dc2", names, racks, 3, 16, 3, NULL, NULL, 0,
                                   err),
          TOKENRING_E_NOTFOUND);
    FAILS(tokenring_migration_plan(&m, f.t, "dc1", "dc1", names, racks, 3, 16, 3, NULL, NULL, 0,
                                   err),
          TOKENRING_E_EXISTS);
    FAILS(tokenring_migration_plan(&m, f.t, "dc1", "dc2", names, racks, 2, 16, 3, NULL, NULL, 0,
                                   err),
          TOKENRING_E_IMPOSSIBLE);
    assert_null(m);

    tokenring_error err;
    assert_int_equal(tokenring_migration_plan(&m, f.t, "dc1", "dc2", names, racks, 3, 4, 3, ks,
                                              reps, 1, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_migration_node_count(m), 3);
    const char *nm = NULL, *rk = NULL;
    const int64_t *toks = NULL;
    size_t ntok = 0;
    assert_int_equal(tokenring_migration_node(&nm, &rk, &toks, &ntok, m, 2), TOKENRING_OK);
    assert_string_equal(nm, "m3");
    assert_string_equal(rk, "r3");
    assert_int_equal(ntok, 4);
    for (size_t i = 1; i < ntok; i++)
        assert_true(toks[i - 1] < toks[i]);
    assert_int_equal(tokenring_migration_node(NULL, NULL, NULL, NULL, m, 0), TOKENRING_OK);
    assert_int_equal(tokenring_migration_node(&nm, &rk, &toks, &ntok, m, 3), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_migration_node(&nm, &rk, &toks, &ntok, NULL, 0), TOKENRING_E_INVAL);
    size_t steps = tokenring_migration_step_count(m);
    assert_true(steps > 0);
    bool names_keyspace = false;
    for (size_t i = 0; i < steps; i++) {
        const char *line = tokenring_migration_step(m, i);
        assert_non_null(line);
        names_keyspace |= strstr(line, "shop") != NULL;
    }
    assert_true(names_keyspace);
    assert_null(tokenring_migration_step(m, steps));
    assert_null(tokenring_migration_step(NULL, 0));
    assert_int_equal(tokenring_migration_step_count(NULL), 0);
    assert_int_equal(tokenring_migration_node_count(NULL), 0);
    tokenring_migration_free(m);
    tokenring_migration_free(NULL);
    unmake(&f);
}

/* ---------------------------------------------------------------- kept tokens */

static tokenring_ring *ring_of(const tokenring_topology *t)
{
    tokenring_ring *r;
    assert_int_equal(tokenring_ring_build(&r, t, NULL), TOKENRING_OK);
    return r;
}

static void tokens_kept_by_change(void **state)
{
    (void)state;
    tokenring_topology *t = demo(6, 8);
    tokenring_ring *before = ring_of(t);
    size_t kept = 99, lost = 99, gained = 99;
    /* a ring compared with itself keeps everything */
    assert_int_equal(tokenring_ring_tokens_kept(&kept, &lost, &gained, before, before),
                     TOKENRING_OK);
    assert_int_equal(kept, 48);
    assert_int_equal(lost, 0);
    assert_int_equal(gained, 0);
    /* a join: the new node's tokens are not counted, every old token is kept */
    tokenring_topology *joined;
    assert_int_equal(tokenring_topology_clone(&joined, t), TOKENRING_OK);
    assert_int_equal(tokenring_layout_add_seeded_nodes(joined, 1, 8, demo_names + 6, NULL, NULL,
                                                       1, 0, NULL),
                     TOKENRING_OK);
    tokenring_ring *after = ring_of(joined);
    assert_int_equal(tokenring_ring_tokens_kept(&kept, &lost, &gained, before, after),
                     TOKENRING_OK);
    assert_int_equal(kept, 48);
    assert_int_equal(lost, 0);
    assert_int_equal(gained, 0);
    /* the other way round it is a decommission: the leaving node's 8 tokens are lost */
    assert_int_equal(tokenring_ring_tokens_kept(&kept, &lost, &gained, after, before),
                     TOKENRING_OK);
    assert_int_equal(kept, 48);
    assert_int_equal(lost, 8);
    assert_int_equal(gained, 0);
    tokenring_ring_free(after);
    tokenring_topology_free(joined);
    /* a move of one token of node 10.0.0.2 to a free token: one lost, one gained */
    tokenring_node_info info;
    size_t idx;
    assert_int_equal(tokenring_topology_find_node(&idx, t, "10.0.0.2"), TOKENRING_OK);
    assert_int_equal(tokenring_topology_node(&info, t, idx), TOKENRING_OK);
    int64_t moved[8];
    memcpy(moved, info.tokens, sizeof moved);
    int64_t fresh = moved[0] + 1;
    moved[0] = fresh; /* the seeded tokens are far apart: fresh is free */
    tokenring_topology *mv;
    assert_int_equal(tokenring_topology_clone(&mv, t), TOKENRING_OK);
    assert_int_equal(tokenring_topology_set_tokens(mv, "10.0.0.2", moved, 8, NULL),
                     TOKENRING_OK);
    after = ring_of(mv);
    assert_int_equal(tokenring_ring_tokens_kept(&kept, NULL, NULL, before, after),
                     TOKENRING_OK);
    assert_int_equal(kept, 47);
    assert_int_equal(tokenring_ring_tokens_kept(NULL, &lost, &gained, before, after),
                     TOKENRING_OK);
    assert_int_equal(lost, 1);
    assert_int_equal(gained, 1);
    /* bad input leaves the outputs alone */
    kept = 5;
    assert_int_equal(tokenring_ring_tokens_kept(&kept, NULL, NULL, NULL, after),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_ring_tokens_kept(&kept, NULL, NULL, before, NULL),
                     TOKENRING_E_INVAL);
    assert_int_equal(kept, 5);
    tokenring_ring_free(after);
    tokenring_topology_free(mv);
    tokenring_ring_free(before);
    tokenring_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(balance_exact),
        cmocka_unit_test(join_moves_primaries_only_to_new_node),
        cmocka_unit_test(decommission_replace_move),
        cmocka_unit_test(availability_seed_facts),
        cmocka_unit_test(availability_levels_brute_force),
        cmocka_unit_test(availability_errors),
        cmocka_unit_test(migration_plan),
        cmocka_unit_test(balance_arguments),
        cmocka_unit_test(movement_arguments_and_accessors),
        cmocka_unit_test(availability_arguments),
        cmocka_unit_test(migration_arguments_and_accessors),
        cmocka_unit_test(tokens_kept_by_change),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
