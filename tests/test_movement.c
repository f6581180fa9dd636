/* SPDX-License-Identifier: Apache-2.0 */
/* Movement analyses (movement.h: join, decommission, replace, move, compare) and the
 * tokens a change keeps (tokenring_ring_tokens_kept): on seeded Murmur3 rings, which
 * ranges move to whom and what streams, exactly; every bad argument and accessor; a
 * replication of factor 0 everywhere. Then on RandomPartitioner and
 * ByteOrderedPartitioner rings (with balance there): one ring written in the three
 * partitioners (Murmur3 token t, RandomPartitioner u * 2^63, the 8 big-endian bytes of
 * u, u = t with its sign bit flipped) gives the same changed ranges, replica lists and
 * streams in the same order, RandomPartitioner's widths exactly Murmur3's times 2^63 and
 * a ByteOrderedPartitioner width of 1 per elementary range; plus rings with the token
 * 2^127, the empty byte token and byte tokens sharing their 8-byte prefix, and bad
 * input refused with the topology untouched. test_movement_oom.c fails each of their
 * allocations in turn. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"
#include "fixtures.h"
#include "testrng.h"

__extension__ typedef unsigned __int128 u128;

static u128 w128(tokenring_u128 w)
{
    return ((u128)w.hi << 64) | w.lo;
}

static u128 v128(tokenring_token128 t)
{
    return ((u128)t.hi << 64) | t.lo;
}

/* Fractions: equal natively (the widths differ by a power of two); valgrind computes the
 * library's long double division in double precision, one rounding off. */
static bool close_to(double a, double b)
{
    double d = a > b ? a - b : b - a;
    return d <= 0x1p-50 * (a > b ? a : b);
}

static uint64_t flip(int64_t t)
{
    return (uint64_t)t ^ UINT64_C(0x8000000000000000);
}

static tokenring_token128 conv128(int64_t t)
{
    uint64_t u = flip(t);
    tokenring_token128 r = { u >> 1, (u & 1) << 63 };
    return r;
}

static void conv_bytes(uint8_t b[8], int64_t t)
{
    uint64_t u = flip(t);
    for (int j = 0; j < 8; j++)
        b[j] = (uint8_t)(u >> (56 - 8 * j));
}

/* Murmur3 tokens in the partitioner's form: 128-bit into r, bytes into b/bp/bl. */
typedef struct conv {
    tokenring_token128 r[16];
    uint8_t b[16][8];
    const uint8_t *bp[16];
    size_t bl[16];
} conv;

static void convert(conv *c, const int64_t *t, size_t n)
{
    assert_true(n <= 16);
    for (size_t k = 0; k < n; k++) {
        c->r[k] = conv128(t[k]);
        conv_bytes(c->b[k], t[k]);
        c->bp[k] = c->b[k];
        c->bl[k] = 8;
    }
}

static tokenring_topology *same_ring(tokenring_partitioner p, const tokenring_topology *m3)
{
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new_partitioned(&t, p), TOKENRING_OK);
    for (size_t i = 0; i < tokenring_topology_node_count(m3); i++) {
        tokenring_node_info n;
        assert_int_equal(tokenring_topology_node(&n, m3, i), TOKENRING_OK);
        conv c;
        convert(&c, n.tokens, n.token_count);
        int rc = p == TOKENRING_PARTITIONER_RANDOM
                     ? tokenring_topology_add_node128(t, n.name, n.datacenter, n.rack, c.r,
                                                      n.token_count, NULL)
                     : tokenring_topology_add_node_bytes(t, n.name, n.datacenter, n.rack, c.bp,
                                                         c.bl, n.token_count, NULL);
        assert_int_equal(rc, TOKENRING_OK);
    }
    return t;
}

/* Number of distinct tokens of two Murmur3 topologies' rings: the elementary ranges. */
static size_t union_count(const tokenring_topology *a, const tokenring_topology *b)
{
    tokenring_ring *ra = NULL, *rb = NULL;
    assert_int_equal(tokenring_ring_build(&ra, a, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_ring_build(&rb, b, NULL), TOKENRING_OK);
    size_t ca, cb, i = 0, j = 0, n = 0;
    const int64_t *ta = tokenring_ring_tokens(ra, &ca), *tb = tokenring_ring_tokens(rb, &cb);
    while (i < ca || j < cb) {
        if (j == cb || (i < ca && ta[i] < tb[j]))
            i++;
        else if (i == ca || tb[j] < ta[i])
            j++;
        else
            i++, j++;
        n++;
    }
    tokenring_ring_free(ra);
    tokenring_ring_free(rb);
    return n;
}

/* m[0] Murmur3, m[1] Random, m[2] ByteOrdered of the same change: everything agrees. */
static void check_same(tokenring_movement *const m[3], size_t elementary)
{
    tokenring_movement_summary s[3];
    for (int p = 0; p < 3; p++)
        assert_int_equal(tokenring_movement_get_summary(&s[p], m[p]), TOKENRING_OK);
    assert_int_equal(tokenring_movement_partitioner(m[0]), TOKENRING_PARTITIONER_MURMUR3);
    assert_int_equal(tokenring_movement_partitioner(m[1]), TOKENRING_PARTITIONER_RANDOM);
    assert_int_equal(tokenring_movement_partitioner(m[2]), TOKENRING_PARTITIONER_BYTE_ORDERED);
    for (int p = 1; p < 3; p++) {
        assert_int_equal(s[p].range_count, s[0].range_count);
        assert_int_equal(s[p].stream_count, s[0].stream_count);
        assert_int_equal(s[p].node_count, s[0].node_count);
        assert_int_equal(s[p].cleanup_count, s[0].cleanup_count);
    }
    assert_true(w128(s[1].changed_width) == w128(s[0].changed_width) << 63);
    assert_true(w128(s[1].primary_changed_width) == w128(s[0].primary_changed_width) << 63);
    /* streamed: at most rf copies of 2^64; scaled past 2^128 it saturates */
    u128 st0 = w128(s[0].streamed_width);
    assert_true(w128(s[1].streamed_width) ==
                (st0 >> 65 ? ~(u128)0 : st0 << 63));
    assert_true(close_to(s[1].changed_fraction, s[0].changed_fraction));
    assert_true(close_to(s[1].primary_changed_fraction, s[0].primary_changed_fraction));
    /* ByteOrdered: one per changed elementary range, over their number */
    assert_true(w128(s[2].changed_width) == s[0].range_count);
    assert_true(close_to(s[2].changed_fraction, (double)s[0].range_count / (double)elementary));
    assert_true(w128(s[2].streamed_width) == s[0].stream_count);
    for (uint32_t i = 0; i < s[0].node_count; i++) {
        tokenring_movement_node n[3];
        for (int p = 0; p < 3; p++)
            assert_int_equal(tokenring_movement_get_node(&n[p], m[p], i), TOKENRING_OK);
        assert_string_equal(n[1].name, n[0].name);
        assert_string_equal(n[2].name, n[0].name);
        assert_true(w128(n[1].before_width) == w128(n[0].before_width) << 63);
        assert_true(w128(n[1].after_width) == w128(n[0].after_width) << 63);
        assert_true(w128(n[1].gained_width) == w128(n[0].gained_width) << 63);
        assert_true(w128(n[1].lost_width) == w128(n[0].lost_width) << 63);
        assert_true(w128(n[1].primary_before_width) == w128(n[0].primary_before_width) << 63);
        assert_true(w128(n[1].primary_after_width) == w128(n[0].primary_after_width) << 63);
        assert_true(close_to(n[1].gained_fraction, n[0].gained_fraction));
        assert_int_equal(n[2].needs_cleanup, n[0].needs_cleanup);
        assert_true(w128(n[2].after_width) <= elementary);
    }
    for (uint32_t i = 0; i < s[0].range_count; i++) {
        tokenring_moved_range r[3];
        for (int p = 0; p < 3; p++)
            assert_int_equal(tokenring_movement_get_range(&r[p], m[p], i), TOKENRING_OK);
        for (int p = 1; p < 3; p++) {
            assert_int_equal(r[p].old_count, r[0].old_count);
            assert_int_equal(r[p].new_count, r[0].new_count);
            assert_memory_equal(r[p].old_replicas, r[0].old_replicas,
                                r[0].old_count * sizeof(uint32_t));
            assert_memory_equal(r[p].new_replicas, r[0].new_replicas,
                                r[0].new_count * sizeof(uint32_t));
            assert_true(r[p].start == 0 && r[p].end == 0);
        }
        u128 w0 = w128(r[0].width);
        assert_true(w128(r[1].width) == w0 << 63);
        assert_true(w128(r[2].width) == 1);
        tokenring_token128 a, z;
        assert_int_equal(tokenring_movement_range_bounds128(&a, &z, m[1], i), TOKENRING_OK);
        assert_true(v128(a) == v128(conv128(r[0].start)) && v128(z) == v128(conv128(r[0].end)));
        const uint8_t *ab, *zb;
        size_t al, zl;
        uint8_t ea[8], ez[8];
        assert_int_equal(tokenring_movement_range_bounds_bytes(&ab, &al, &zb, &zl, m[2], i),
                         TOKENRING_OK);
        conv_bytes(ea, r[0].start);
        conv_bytes(ez, r[0].end);
        assert_true(al == 8 && zl == 8);
        assert_memory_equal(ab, ea, 8);
        assert_memory_equal(zb, ez, 8);
        /* the getters of the other partitioners refuse */
        assert_int_equal(tokenring_movement_range_bounds128(&a, &z, m[0], i),
                         TOKENRING_E_UNSUPPORTED);
        assert_int_equal(tokenring_movement_range_bounds128(&a, &z, m[2], i),
                         TOKENRING_E_UNSUPPORTED);
        assert_int_equal(tokenring_movement_range_bounds_bytes(&ab, &al, &zb, &zl, m[1], i),
                         TOKENRING_E_UNSUPPORTED);
    }
    tokenring_token128 a;
    const uint8_t *ab, *zb;
    size_t al, zl;
    assert_int_equal(tokenring_movement_range_bounds128(&a, NULL, m[1], s[0].range_count),
                     TOKENRING_E_RANGE);
    assert_int_equal(tokenring_movement_range_bounds_bytes(&ab, &al, &zb, &zl, m[2],
                                                           s[0].range_count),
                     TOKENRING_E_RANGE);
    assert_int_equal(tokenring_movement_range_bounds128(NULL, NULL, m[1], 0), TOKENRING_E_INVAL);
    for (uint32_t i = 0; i < s[0].stream_count; i++) {
        tokenring_stream t[3];
        for (int p = 0; p < 3; p++)
            assert_int_equal(tokenring_movement_get_stream(&t[p], m[p], i), TOKENRING_OK);
        for (int p = 1; p < 3; p++) {
            assert_int_equal(t[p].source, t[0].source);
            assert_int_equal(t[p].destination, t[0].destination);
            assert_int_equal(t[p].range_index, t[0].range_index);
            assert_int_equal(t[p].strict, t[0].strict);
        }
        assert_true(w128(t[1].width) == w128(t[0].width) << 63);
        assert_true(w128(t[2].width) == 1);
    }
}

/* Sample keys: each partitioner's sample token is its hash of the key and the replicas
 * are those of the ring positions holding it (checked on rings built here). */
static void check_samples(const tokenring_movement *m, const tokenring_topology *before,
                          const tokenring_topology *after, const tokenring_replication *repl,
                          const uint8_t *keys, const uint64_t *off, size_t count)
{
    tokenring_movement_summary s;
    assert_int_equal(tokenring_movement_get_summary(&s, m), TOKENRING_OK);
    assert_int_equal(s.sample_count, count);
    tokenring_ring *rb = NULL, *ra = NULL;
    tokenring_placement *pb = NULL, *pa = NULL;
    assert_int_equal(tokenring_ring_build(&rb, before, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_ring_build(&ra, after, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_placement_build(&pb, rb, repl, 0, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_placement_build(&pa, ra, repl, 0, NULL), TOKENRING_OK);
    tokenring_partitioner part = tokenring_movement_partitioner(m);
    uint32_t primary = 0, replicas = 0;
    for (size_t i = 0; i < count; i++) {
        const uint8_t *key = keys + off[i];
        size_t len = (size_t)(off[i + 1] - off[i]);
        tokenring_sample_change c;
        assert_int_equal(tokenring_movement_get_sample(&c, m, i), TOKENRING_OK);
        if (part == TOKENRING_PARTITIONER_RANDOM) {
            tokenring_token128 t;
            assert_int_equal(tokenring_movement_sample_token128(&t, m, i), TOKENRING_OK);
            assert_true(v128(t) == v128(tokenring_random_token(key, len)));
            assert_int_equal(c.token, 0);
        } else if (part == TOKENRING_PARTITIONER_BYTE_ORDERED) {
            const uint8_t *t;
            size_t tl;
            assert_int_equal(tokenring_movement_sample_token_bytes(&t, &tl, m, i), TOKENRING_OK);
            assert_int_equal(tl, len);
            if (len)
                assert_memory_equal(t, key, len);
        } else {
            assert_true(c.token == tokenring_token(key, len));
        }
        tokenring_replicas ro, rn;
        assert_int_equal(tokenring_placement_replicas_for_key_any(&ro, pb, key, len), TOKENRING_OK);
        assert_int_equal(tokenring_placement_replicas_for_key_any(&rn, pa, key, len), TOKENRING_OK);
        assert_int_equal(c.old_count, ro.count);
        assert_int_equal(c.new_count, rn.count);
        for (uint32_t k = 0; k < ro.count; k++) {
            tokenring_node_info n;
            tokenring_movement_node mn;
            tokenring_ring_node_brief(&n, rb, ro.nodes[k]);
            tokenring_movement_get_node(&mn, m, c.old_replicas[k]);
            assert_string_equal(mn.name, n.name);
        }
        for (uint32_t k = 0; k < rn.count; k++) {
            tokenring_node_info n;
            tokenring_movement_node mn;
            tokenring_ring_node_brief(&n, ra, rn.nodes[k]);
            tokenring_movement_get_node(&mn, m, c.new_replicas[k]);
            assert_string_equal(mn.name, n.name);
        }
        primary += c.owner_changed;
        replicas += c.replicas_changed;
    }
    assert_int_equal(s.samples_primary_changed, primary);
    assert_int_equal(s.samples_replicas_changed, replicas);
    tokenring_token128 t;
    const uint8_t *tb;
    size_t tl;
    assert_int_equal(tokenring_movement_sample_token128(&t, m, count),
                     part == TOKENRING_PARTITIONER_RANDOM ? TOKENRING_E_RANGE
                                                          : TOKENRING_E_UNSUPPORTED);
    assert_int_equal(tokenring_movement_sample_token_bytes(&tb, &tl, m, count),
                     part == TOKENRING_PARTITIONER_BYTE_ORDERED ? TOKENRING_E_RANGE
                                                                : TOKENRING_E_UNSUPPORTED);
    tokenring_placement_free(pb);
    tokenring_placement_free(pa);
    tokenring_ring_free(rb);
    tokenring_ring_free(ra);
}

static void free3(tokenring_movement *m[3])
{
    for (int p = 0; p < 3; p++) {
        tokenring_movement_free(m[p]);
        m[p] = NULL;
    }
}

static void test_movement_every_partitioner(void **state)
{
    (void)state;
    uint64_t rng = 20261205;
    /* sample keys: "k0" .. "k19" and the empty key */
    uint8_t keys[128];
    uint64_t off[22];
    size_t kl = 0, nkeys = 21;
    off[0] = 0;
    for (size_t i = 0; i < 20; i++) {
        kl += (size_t)snprintf((char *)keys + kl, sizeof keys - kl, "k%zu", i);
        off[i + 1] = kl;
    }
    off[21] = kl;
    for (int round = 0; round < 8; round++) {
        tokenring_topology *m3 = NULL;
        assert_int_equal(tokenring_topology_new(&m3), TOKENRING_OK);
        int nodes = tt_between(&rng, 3, 8), tokens = tt_between(&rng, 1, 6);
        for (int i = 0; i < nodes; i++) {
            char name[16], rack[8];
            snprintf(name, sizeof name, "10.0.0.%d", i + 1);
            snprintf(rack, sizeof rack, "r%d", tt_between(&rng, 1, 3));
            int64_t tk[16];
            for (int k = 0; k < tokens; k++)
                tk[k] = (int64_t)tt_splitmix64(&rng);
            assert_int_equal(tokenring_topology_add_node(m3, name, i % 2 ? "dc2" : "dc1", rack,
                                                         tk, (size_t)tokens, NULL),
                             TOKENRING_OK);
        }
        tokenring_topology *t[3] = { m3, same_ring(TOKENRING_PARTITIONER_RANDOM, m3),
                                     same_ring(TOKENRING_PARTITIONER_BYTE_ORDERED, m3) };
        tokenring_replication *repl = NULL;
        const char *rtext = round % 2 ? "NetworkTopologyStrategy:dc1=2,dc2=2"
                                      : round % 4 ? "SimpleStrategy:3" : "SimpleStrategy:1";
        assert_int_equal(tokenring_replication_parse(&repl, rtext, strlen(rtext), NULL),
                         TOKENRING_OK);
        tokenring_movement *m[3] = { NULL, NULL, NULL };

        /* join */
        int64_t jt[16];
        int jn = tt_between(&rng, 1, 6);
        for (int k = 0; k < jn; k++)
            jt[k] = (int64_t)tt_splitmix64(&rng);
        conv jc;
        convert(&jc, jt, (size_t)jn);
        assert_int_equal(tokenring_movement_join(&m[0], m3, repl, "new", "dc1", "r1", jt,
                                                 (size_t)jn, NULL, 0, NULL),
                         TOKENRING_OK);
        assert_int_equal(tokenring_movement_join128(&m[1], t[1], repl, "new", "dc1", "r1",
                                                    jc.r, (size_t)jn, NULL, NULL, 0, NULL),
                         TOKENRING_OK);
        assert_int_equal(tokenring_movement_join_bytes(&m[2], t[2], repl, "new", "dc1", "r1",
                                                       jc.bp, jc.bl, (size_t)jn, NULL, NULL, 0,
                                                       NULL),
                         TOKENRING_OK);
        tokenring_topology *joined = NULL;
        assert_int_equal(tokenring_topology_clone(&joined, m3), TOKENRING_OK);
        assert_int_equal(tokenring_topology_add_node(joined, "new", "dc1", "r1", jt, (size_t)jn,
                                                     NULL),
                         TOKENRING_OK);
        check_same(m, union_count(m3, joined));
        free3(m);
        /* with sample keys, hashed by each partitioner */
        for (int p = 0; p < 3; p++) {
            tokenring_topology *after = p == 0 ? joined
                                        : same_ring((tokenring_partitioner)p, joined);
            assert_int_equal(tokenring_movement_compare_keys(&m[p], t[p], after, repl,
                                                             TOKENRING_CHANGE_JOIN, keys, off,
                                                             nkeys, NULL),
                             TOKENRING_OK);
            check_samples(m[p], t[p], after, repl, keys, off, nkeys);
            /* the kept tokens of a join: every existing token, nothing lost or gained */
            tokenring_ring *rb = NULL, *ra = NULL;
            assert_int_equal(tokenring_ring_build(&rb, t[p], NULL), TOKENRING_OK);
            assert_int_equal(tokenring_ring_build(&ra, after, NULL), TOKENRING_OK);
            size_t kept = 99, lost = 99, gained = 99;
            assert_int_equal(tokenring_ring_tokens_kept(&kept, &lost, &gained, rb, ra),
                             TOKENRING_OK);
            assert_true(kept == (size_t)(nodes * tokens) && lost == 0 && gained == 0);
            tokenring_ring_free(rb);
            tokenring_ring_free(ra);
            if (p)
                tokenring_topology_free(after);
        }
        /* Murmur3: compare_keys is compare with the keys' tokens */
        {
            int64_t st[21];
            assert_int_equal(tokenring_tokens(st, keys, off, nkeys), TOKENRING_OK);
            tokenring_movement *x = NULL;
            assert_int_equal(tokenring_movement_compare(&x, m3, joined, repl,
                                                        TOKENRING_CHANGE_JOIN, st, nkeys, NULL),
                             TOKENRING_OK);
            for (size_t i = 0; i < nkeys; i++) {
                tokenring_sample_change a, b;
                tokenring_movement_get_sample(&a, x, i);
                tokenring_movement_get_sample(&b, m[0], i);
                assert_true(a.token == b.token && a.old_owner == b.old_owner &&
                            a.new_owner == b.new_owner && a.replicas_changed == b.replicas_changed);
            }
            tokenring_movement_free(x);
        }
        free3(m);
        tokenring_topology_free(joined);

        /* decommission and replace (no token arguments: the same calls) */
        for (int p = 0; p < 3; p++)
            assert_int_equal(tokenring_movement_decommission(&m[p], t[p], repl, "10.0.0.2",
                                                             NULL, 0, NULL),
                             TOKENRING_OK);
        check_same(m, (size_t)(nodes * tokens));
        free3(m);
        for (int p = 0; p < 3; p++)
            assert_int_equal(tokenring_movement_decommission_keys(&m[p], t[p], repl,
                                                                  "10.0.0.2", keys, off, nkeys,
                                                                  NULL),
                             TOKENRING_OK);
        check_same(m, (size_t)(nodes * tokens));
        free3(m);
        for (int p = 0; p < 3; p++)
            assert_int_equal(tokenring_movement_replace_keys(&m[p], t[p], repl, "10.0.0.1",
                                                             "10.0.1.1", keys, off, 3, NULL),
                             TOKENRING_OK);
        check_same(m, (size_t)(nodes * tokens));
        free3(m);

        /* move */
        int64_t mt[16];
        int mn = tt_between(&rng, 1, 6);
        for (int k = 0; k < mn; k++)
            mt[k] = (int64_t)tt_splitmix64(&rng);
        conv mc;
        convert(&mc, mt, (size_t)mn);
        assert_int_equal(tokenring_movement_move(&m[0], m3, repl, "10.0.0.3", mt, (size_t)mn,
                                                 NULL, 0, NULL),
                         TOKENRING_OK);
        assert_int_equal(tokenring_movement_move128(&m[1], t[1], repl, "10.0.0.3", mc.r,
                                                    (size_t)mn, NULL, NULL, 0, NULL),
                         TOKENRING_OK);
        assert_int_equal(tokenring_movement_move_bytes(&m[2], t[2], repl, "10.0.0.3", mc.bp,
                                                       mc.bl, (size_t)mn, NULL, NULL, 0, NULL),
                         TOKENRING_OK);
        tokenring_topology *moved = NULL;
        assert_int_equal(tokenring_topology_clone(&moved, m3), TOKENRING_OK);
        assert_int_equal(tokenring_topology_set_tokens(moved, "10.0.0.3", mt, (size_t)mn, NULL),
                         TOKENRING_OK);
        check_same(m, union_count(m3, moved));
        free3(m);
        /* kept tokens of a move: the same counts on every partitioner */
        size_t k3[3][3];
        for (int p = 0; p < 3; p++) {
            tokenring_topology *after = p == 0 ? moved : same_ring((tokenring_partitioner)p, moved);
            tokenring_ring *rb = NULL, *ra = NULL;
            assert_int_equal(tokenring_ring_build(&rb, t[p], NULL), TOKENRING_OK);
            assert_int_equal(tokenring_ring_build(&ra, after, NULL), TOKENRING_OK);
            assert_int_equal(tokenring_ring_tokens_kept(&k3[p][0], &k3[p][1], &k3[p][2], rb, ra),
                             TOKENRING_OK);
            tokenring_ring_free(rb);
            tokenring_ring_free(ra);
            if (p)
                tokenring_topology_free(after);
        }
        assert_memory_equal(k3[1], k3[0], sizeof k3[0]);
        assert_memory_equal(k3[2], k3[0], sizeof k3[0]);
        assert_int_equal(k3[0][1], tokens); /* the moved node lost its old tokens */
        assert_int_equal(k3[0][2], mn);     /* and gained its new ones */
        tokenring_topology_free(moved);

        /* balance: same nodes, widths scaled, ByteOrdered counting ranges */
        tokenring_ring *r[3];
        tokenring_placement *pl[3];
        for (int p = 0; p < 3; p++) {
            r[p] = NULL;
            pl[p] = NULL;
            assert_int_equal(tokenring_ring_build(&r[p], t[p], NULL), TOKENRING_OK);
            assert_int_equal(tokenring_placement_build(&pl[p], r[p], repl, 0, NULL), TOKENRING_OK);
        }
        const char *dcs[] = { NULL, "dc1" };
        for (int d = 0; d < 2; d++) {
            tokenring_balance pb[3], eb[3];
            for (int p = 0; p < 3; p++)
                assert_int_equal(tokenring_balance_compute(&pb[p], &eb[p], r[p], pl[p], dcs[d],
                                                           NULL, NULL),
                                 TOKENRING_OK);
            const tokenring_balance *b0[2] = { &pb[0], &eb[0] }, *b1[2] = { &pb[1], &eb[1] },
                                    *b2[2] = { &pb[2], &eb[2] };
            for (int e = 0; e < 2; e++) {
                assert_int_equal(b1[e]->node_count, b0[e]->node_count);
                assert_int_equal(b1[e]->min_node, b0[e]->min_node);
                assert_int_equal(b1[e]->max_node, b0[e]->max_node);
                assert_true(w128(b1[e]->min_width) == w128(b0[e]->min_width) << 63);
                assert_true(w128(b1[e]->max_width) == w128(b0[e]->max_width) << 63);
                u128 tot = w128(b0[e]->total_width);
                assert_true(w128(b1[e]->total_width) == (tot >> 65 ? ~(u128)0 : tot << 63));
                assert_true(close_to(b1[e]->min, b0[e]->min));
                assert_true(close_to(b1[e]->max, b0[e]->max));
                assert_true(close_to(b1[e]->mean, b0[e]->mean));
                assert_true(close_to(b1[e]->stdev, b0[e]->stdev) ||
                            (b1[e]->stdev < 1e-12 && b0[e]->stdev < 1e-12));
                assert_int_equal(b2[e]->node_count, b0[e]->node_count);
            }
            /* ByteOrdered widths, counted here on the Murmur3 ring of the same order */
            size_t n = tokenring_ring_node_count(r[0]), ranges;
            tokenring_ring_tokens(r[0], &ranges);
            u128 cnt[2][16] = { { 0 } };
            const uint32_t *own = tokenring_ring_token_nodes(r[0], NULL);
            for (size_t i = 0; i < ranges; i++) {
                cnt[0][own[i]]++;
                tokenring_replicas rs;
                tokenring_placement_range_replicas(&rs, pl[0], i);
                for (uint32_t k = 0; k < rs.count; k++)
                    cnt[1][rs.nodes[k]]++;
            }
            for (int e = 0; e < 2; e++) {
                u128 mnw = ~(u128)0, mxw = 0, tot = 0;
                for (size_t i = 0; i < n; i++) {
                    tokenring_node_info ni;
                    tokenring_ring_node_brief(&ni, r[0], (uint32_t)i);
                    if (dcs[d] && strcmp(ni.datacenter, dcs[d]) != 0)
                        continue;
                    mnw = cnt[e][i] < mnw ? cnt[e][i] : mnw;
                    mxw = cnt[e][i] > mxw ? cnt[e][i] : mxw;
                    tot += cnt[e][i];
                }
                assert_true(w128(b2[e]->min_width) == mnw && w128(b2[e]->max_width) == mxw);
                assert_true(w128(b2[e]->total_width) == tot);
                assert_true(close_to(b2[e]->max, (double)mxw / (double)ranges));
                assert_true(close_to(b2[e]->mean, (double)tot / (double)b2[e]->node_count /
                                                      (double)ranges));
            }
        }
        for (int p = 0; p < 3; p++) {
            tokenring_placement_free(pl[p]);
            tokenring_ring_free(r[p]);
        }
        tokenring_replication_free(repl);
        for (int p = 0; p < 3; p++)
            tokenring_topology_free(t[p]);
    }
}

/* RandomPartitioner: the token 2^127 (the same point as 0 for widths). a = {0},
 * b = {2^126}; c joins at 2^127 with rf 1: c takes (2^126, 2^127] from a, width 2^126,
 * and a keeps (2^127, 0], width 0. */
static void test_random_edge(void **state)
{
    (void)state;
    const u128 R = (u128)1 << 127;
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new_partitioned(&t, TOKENRING_PARTITIONER_RANDOM),
                     TOKENRING_OK);
    tokenring_token128 a = { 0, 0 }, b = { UINT64_C(1) << 62, 0 },
                       c = { UINT64_C(1) << 63, 0 };
    assert_int_equal(tokenring_topology_add_node128(t, "a", "dc1", "r1", &a, 1, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node128(t, "b", "dc1", "r1", &b, 1, NULL), TOKENRING_OK);
    tokenring_replication *one = NULL;
    assert_int_equal(tokenring_replication_simple(&one, 1, 0, NULL), TOKENRING_OK);
    tokenring_movement *m = NULL;
    assert_int_equal(tokenring_movement_join128(&m, t, one, "c", "dc1", "r1", &c, 1, NULL, NULL,
                                                0, NULL),
                     TOKENRING_OK);
    tokenring_movement_summary s;
    tokenring_movement_get_summary(&s, m);
    assert_int_equal(s.range_count, 1);
    assert_int_equal(s.stream_count, 1);
    assert_true(w128(s.changed_width) == R / 2 && s.changed_fraction == 0.5);
    assert_true(w128(s.primary_changed_width) == R / 2);
    tokenring_token128 st, en;
    assert_int_equal(tokenring_movement_range_bounds128(&st, &en, m, 0), TOKENRING_OK);
    assert_true(v128(st) == R / 2 && v128(en) == R);
    tokenring_stream str;
    assert_int_equal(tokenring_movement_get_stream(&str, m, 0), TOKENRING_OK);
    tokenring_movement_node src, dst;
    tokenring_movement_get_node(&src, m, str.source);
    tokenring_movement_get_node(&dst, m, str.destination);
    assert_string_equal(src.name, "a");
    assert_string_equal(dst.name, "c");
    assert_true(str.strict == 1 && w128(str.width) == R / 2);
    /* a: before (2^126, 0] = 2^126, after (2^127, 0] = 0 */
    tokenring_movement_node na;
    tokenring_movement_get_node(&na, m, 0);
    assert_true(w128(na.before_width) == R / 2 && w128(na.after_width) == 0);
    tokenring_movement_free(m);
    /* balance over 2^127: a and b own half each */
    tokenring_ring *r = NULL;
    assert_int_equal(tokenring_ring_build(&r, t, NULL), TOKENRING_OK);
    tokenring_balance bal;
    assert_int_equal(tokenring_balance_compute(&bal, NULL, r, NULL, NULL, NULL, NULL), TOKENRING_OK);
    assert_true(w128(bal.min_width) == R / 2 && w128(bal.max_width) == R / 2);
    assert_true(w128(bal.total_width) == R && bal.mean == 0.5 && bal.stdev == 0.0);
    /* effective ownership at rf 3 of a 3-node ring: every node holds 2^127, the total
     * 3 * 2^127 saturates and the mean is still 1 */
    tokenring_topology *t3 = NULL;
    assert_int_equal(tokenring_topology_clone(&t3, t), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node128(t3, "c", "dc1", "r1", &c, 1, NULL), TOKENRING_OK);
    tokenring_ring *r3 = NULL;
    assert_int_equal(tokenring_ring_build(&r3, t3, NULL), TOKENRING_OK);
    tokenring_replication *three = NULL;
    assert_int_equal(tokenring_replication_simple(&three, 3, 0, NULL), TOKENRING_OK);
    tokenring_placement *p3 = NULL;
    assert_int_equal(tokenring_placement_build(&p3, r3, three, 0, NULL), TOKENRING_OK);
    tokenring_balance eff;
    assert_int_equal(tokenring_balance_compute(NULL, &eff, r3, p3, NULL, NULL, NULL), TOKENRING_OK);
    assert_true(w128(eff.min_width) == R && w128(eff.max_width) == R);
    assert_true(w128(eff.total_width) == ~(u128)0);
    assert_true(close_to(eff.mean, 1.0) && eff.stdev == 0.0);
    /* streams summed past 2^128 saturate: the same three tokens under three new names at
     * rf 3 stream three whole copies (3 * 2^127) */
    tokenring_topology *tn = NULL;
    assert_int_equal(tokenring_topology_new_partitioned(&tn, TOKENRING_PARTITIONER_RANDOM),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node128(tn, "x", "dc1", "r1", &a, 1, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node128(tn, "y", "dc1", "r1", &b, 1, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node128(tn, "z", "dc1", "r1", &c, 1, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_movement_compare_keys(&m, t3, tn, three, TOKENRING_CHANGE_GENERIC,
                                                     NULL, NULL, 0, NULL),
                     TOKENRING_OK);
    tokenring_movement_get_summary(&s, m);
    assert_true(w128(s.changed_width) == R && s.changed_fraction == 1.0);
    assert_int_equal(s.stream_count, 3 * s.range_count);
    assert_true(w128(s.streamed_width) == ~(u128)0);
    tokenring_movement_free(m);
    tokenring_topology_free(tn);
    tokenring_placement_free(p3);
    tokenring_replication_free(three);
    tokenring_ring_free(r3);
    tokenring_topology_free(t3);
    tokenring_ring_free(r);
    tokenring_replication_free(one);
    tokenring_topology_free(t);
}

/* ByteOrderedPartitioner: the empty token and tokens sharing their 8-byte prefix.
 * a = {""}, b = {"abcdefgh1"}; c joins at "abcdefgh0" with rf 1: c takes
 * ("", "abcdefgh0"] from b; three elementary ranges, so the fraction is 1/3. */
static void test_bytes_edge(void **state)
{
    (void)state;
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new_partitioned(&t, TOKENRING_PARTITIONER_BYTE_ORDERED),
                     TOKENRING_OK);
    const uint8_t *ta = (const uint8_t *)"", *tb = (const uint8_t *)"abcdefgh1",
                  *tc = (const uint8_t *)"abcdefgh0";
    size_t l0 = 0, l9 = 9;
    assert_int_equal(tokenring_topology_add_node_bytes(t, "a", "dc1", "r1", &ta, &l0, 1, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node_bytes(t, "b", "dc1", "r1", &tb, &l9, 1, NULL),
                     TOKENRING_OK);
    tokenring_replication *one = NULL;
    assert_int_equal(tokenring_replication_simple(&one, 1, 0, NULL), TOKENRING_OK);
    /* samples: one on each side of "abcdefgh0", and the empty key (range 0, a's) */
    const uint8_t keys[] = "abcdefgh00abcdefgh";
    const uint64_t off[] = { 0, 10, 18, 18 };
    tokenring_movement *m = NULL;
    assert_int_equal(tokenring_movement_join_bytes(&m, t, one, "c", "dc1", "r1", &tc, &l9, 1,
                                                   keys, off, 3, NULL),
                     TOKENRING_OK);
    tokenring_movement_summary s;
    tokenring_movement_get_summary(&s, m);
    assert_int_equal(s.range_count, 1);
    assert_true(w128(s.changed_width) == 1 && s.changed_fraction == 1.0 / 3.0);
    const uint8_t *sb, *eb;
    size_t sl, el;
    assert_int_equal(tokenring_movement_range_bounds_bytes(&sb, &sl, &eb, &el, m, 0), TOKENRING_OK);
    assert_int_equal(sl, 0);
    assert_int_equal(el, 9);
    assert_memory_equal(eb, "abcdefgh0", 9);
    tokenring_stream st;
    tokenring_movement_get_stream(&st, m, 0);
    tokenring_movement_node src, dst;
    tokenring_movement_get_node(&src, m, st.source);
    tokenring_movement_get_node(&dst, m, st.destination);
    assert_string_equal(src.name, "b");
    assert_string_equal(dst.name, "c");
    /* "abcdefgh00" sorts after "abcdefgh0": still b's; "abcdefgh" before: now c's */
    tokenring_sample_change c0, c1, c2;
    tokenring_movement_get_sample(&c0, m, 0);
    tokenring_movement_get_sample(&c1, m, 1);
    tokenring_movement_get_sample(&c2, m, 2);
    assert_true(!c0.owner_changed && c1.owner_changed && !c2.owner_changed);
    assert_int_equal(c2.old_owner, 0); /* a */
    assert_int_equal(s.samples_primary_changed, 1);
    const uint8_t *k;
    size_t kl;
    assert_int_equal(tokenring_movement_sample_token_bytes(&k, &kl, m, 2), TOKENRING_OK);
    assert_int_equal(kl, 0);
    tokenring_movement_free(m);
    /* balance counts ranges: a and b own one each of two */
    tokenring_ring *r = NULL;
    assert_int_equal(tokenring_ring_build(&r, t, NULL), TOKENRING_OK);
    tokenring_balance bal;
    assert_int_equal(tokenring_balance_compute(&bal, NULL, r, NULL, NULL, NULL, NULL), TOKENRING_OK);
    assert_true(w128(bal.min_width) == 1 && w128(bal.total_width) == 2 && bal.mean == 0.5);
    /* kept tokens compare the bytes: b moving to "abcdefgh10" (same 8-byte prefix) loses
     * its token */
    tokenring_topology *t2 = NULL;
    assert_int_equal(tokenring_topology_clone(&t2, t), TOKENRING_OK);
    const uint8_t *tb2 = (const uint8_t *)"abcdefgh10";
    size_t l10 = 10;
    assert_int_equal(tokenring_topology_set_tokens_bytes(t2, "b", &tb2, &l10, 1, NULL), TOKENRING_OK);
    tokenring_ring *r2 = NULL;
    assert_int_equal(tokenring_ring_build(&r2, t2, NULL), TOKENRING_OK);
    size_t kept, lost, gained;
    assert_int_equal(tokenring_ring_tokens_kept(&kept, &lost, &gained, r, r2), TOKENRING_OK);
    assert_true(kept == 1 && lost == 1 && gained == 1);
    tokenring_ring_free(r2);
    tokenring_topology_free(t2);
    tokenring_ring_free(r);
    tokenring_replication_free(one);
    tokenring_topology_free(t);
}

/* Bad input: refused with a clear error, the topology and *out untouched. */
static void test_bad_input(void **state)
{
    (void)state;
    tokenring_topology *rp = NULL, *bo = NULL, *m3 = NULL;
    assert_int_equal(tokenring_topology_new_partitioned(&rp, TOKENRING_PARTITIONER_RANDOM),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_new_partitioned(&bo, TOKENRING_PARTITIONER_BYTE_ORDERED),
                     TOKENRING_OK);
    assert_int_equal(tokenring_topology_new(&m3), TOKENRING_OK);
    tokenring_token128 a = { 0, 10 }, b = { 0, 20 };
    assert_int_equal(tokenring_topology_add_node128(rp, "a", "dc1", "r1", &a, 1, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node128(rp, "b", "dc1", "r1", &b, 1, NULL), TOKENRING_OK);
    const uint8_t *x = (const uint8_t *)"x";
    size_t l1 = 1;
    assert_int_equal(tokenring_topology_add_node_bytes(bo, "a", "dc1", "r1", &x, &l1, 1, NULL),
                     TOKENRING_OK);
    int64_t t64 = 5;
    assert_int_equal(tokenring_topology_add_node(m3, "a", "dc1", "r1", &t64, 1, NULL), TOKENRING_OK);
    tokenring_replication *one = NULL;
    assert_int_equal(tokenring_replication_simple(&one, 1, 0, NULL), TOKENRING_OK);
    tokenring_movement *m = (tokenring_movement *)0x1; /* must stay as it is */
    tokenring_error err;
    const tokenring_token128 minus1 = { UINT64_MAX, UINT64_MAX },
                             above = { UINT64_C(0x8000000000000000), 1 };
    assert_int_equal(tokenring_movement_join128(&m, rp, one, "c", "dc1", "r1", &minus1, 1, NULL,
                                                NULL, 0, &err),
                     TOKENRING_E_RANGE);
    assert_int_equal(tokenring_movement_join128(&m, rp, one, "c", "dc1", "r1", &above, 1, NULL,
                                                NULL, 0, &err),
                     TOKENRING_E_RANGE);
    assert_int_equal(tokenring_movement_join128(&m, rp, one, "c", "dc1", "r1", &a, 1, NULL, NULL,
                                                0, &err),
                     TOKENRING_E_EXISTS); /* a's token */
    tokenring_token128 dup[2] = { { 0, 30 }, { 0, 30 } };
    assert_int_equal(tokenring_movement_join128(&m, rp, one, "c", "dc1", "r1", dup, 2, NULL,
                                                NULL, 0, &err),
                     TOKENRING_E_EXISTS);
    assert_int_equal(tokenring_movement_join128(&m, rp, one, "a", "dc1", "r1", dup, 1, NULL,
                                                NULL, 0, &err),
                     TOKENRING_E_EXISTS); /* a known name */
    assert_int_equal(tokenring_movement_move128(&m, rp, one, "zz", dup, 1, NULL, NULL, 0, &err),
                     TOKENRING_E_NOTFOUND);
    assert_int_equal(tokenring_movement_move128(&m, rp, one, "a", &minus1, 1, NULL, NULL, 0, &err),
                     TOKENRING_E_RANGE);
    /* tokens of the wrong partitioner */
    assert_int_equal(tokenring_movement_join_bytes(&m, rp, one, "c", "dc1", "r1", &x, &l1, 1,
                                                   NULL, NULL, 0, &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_int_equal(tokenring_movement_join(&m, rp, one, "c", "dc1", "r1", &t64, 1, NULL, 0,
                                             &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_int_equal(tokenring_movement_join128(&m, m3, one, "c", "dc1", "r1", &b, 1, NULL, NULL,
                                                0, &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_int_equal(tokenring_movement_move_bytes(&m, m3, one, "a", &x, &l1, 1, NULL, NULL, 0,
                                                   &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_int_equal(tokenring_movement_move128(&m, bo, one, "a", &b, 1, NULL, NULL, 0, &err),
                     TOKENRING_E_UNSUPPORTED);
    /* int64 sample tokens on such topologies; topologies of two partitioners */
    assert_int_equal(tokenring_movement_decommission(&m, rp, one, "a", &t64, 1, &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_non_null(strstr(err.message, "tokenring_movement_compare_keys"));
    assert_int_equal(tokenring_movement_compare(&m, rp, bo, one, 0, NULL, 0, &err),
                     TOKENRING_E_INVAL);
    assert_non_null(strstr(err.message, "different partitioners"));
    assert_int_equal(tokenring_movement_compare_keys(&m, rp, m3, one, 0, NULL, NULL, 0, &err),
                     TOKENRING_E_INVAL);
    /* sample keys: decreasing offsets, NULL offsets, NULL keys with bytes */
    const uint64_t bad[] = { 0, 3, 1 }, two[] = { 0, 1, 2 };
    const uint8_t kb[] = "abc";
    assert_int_equal(tokenring_movement_compare_keys(&m, rp, rp, one, 0, kb, bad, 2, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_movement_compare_keys(&m, rp, rp, one, 0, kb, NULL, 2, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_movement_compare_keys(&m, rp, rp, one, 0, NULL, two, 2, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_movement_compare_keys(&m, rp, rp, one, 9, kb, two, 2, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_movement_replace_keys(&m, rp, one, "a", NULL, kb, two, 2, &err),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_movement_decommission_keys(&m, rp, one, "zz", kb, two, 2, &err),
                     TOKENRING_E_NOTFOUND);
    assert_true(m == (tokenring_movement *)0x1);
    /* the topologies are unchanged */
    assert_int_equal(tokenring_topology_node_count(rp), 2);
    tokenring_token128 got;
    assert_int_equal(tokenring_topology_node_token128(&got, rp, 0, 0), TOKENRING_OK);
    assert_true(v128(got) == 10);
    assert_int_equal(tokenring_topology_node_count(bo), 1);
    /* NULL keys with every key empty are fine: three empty keys hash to -1 */
    const uint64_t empty[] = { 0, 0, 0, 0 };
    m = NULL;
    assert_int_equal(tokenring_movement_compare_keys(&m, rp, rp, one, 0, NULL, empty, 3, &err),
                     TOKENRING_OK);
    tokenring_token128 s0;
    assert_int_equal(tokenring_movement_sample_token128(&s0, m, 2), TOKENRING_OK);
    assert_true(s0.hi == UINT64_MAX && s0.lo == UINT64_MAX);
    tokenring_movement_summary sm;
    tokenring_movement_get_summary(&sm, m);
    assert_true(sm.range_count == 0 && sm.sample_count == 3 && sm.changed_fraction == 0.0);
    assert_int_equal(tokenring_movement_partitioner(NULL), TOKENRING_PARTITIONER_MURMUR3);
    tokenring_movement_free(m);
    /* kept tokens and balance: rings of two partitioners, a joining node's tokens */
    tokenring_ring *rr = NULL, *rb = NULL;
    assert_int_equal(tokenring_ring_build(&rr, rp, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_ring_build(&rb, bo, NULL), TOKENRING_OK);
    size_t kept = 7, lost = 7, gained = 7;
    assert_int_equal(tokenring_ring_tokens_kept(&kept, &lost, &gained, rr, rb), TOKENRING_E_INVAL);
    tokenring_topology *jn = NULL;
    assert_int_equal(tokenring_topology_clone(&jn, rp), TOKENRING_OK);
    assert_int_equal(tokenring_topology_set_state(jn, "b", TOKENRING_STATE_JOINING, TOKENRING_UP, NULL),
                     TOKENRING_OK);
    tokenring_ring *rj = NULL;
    assert_int_equal(tokenring_ring_build(&rj, jn, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_ring_tokens_kept(&kept, &lost, &gained, rj, rr),
                     TOKENRING_E_UNSUPPORTED);
    assert_int_equal(tokenring_ring_tokens_kept(&kept, &lost, &gained, rr, rj),
                     TOKENRING_E_UNSUPPORTED);
    assert_true(kept == 7 && lost == 7 && gained == 7);
    tokenring_balance bal;
    assert_int_equal(tokenring_balance_compute(&bal, NULL, rb, NULL, "nodc", NULL, &err),
                     TOKENRING_E_NOTFOUND);
    tokenring_ring_free(rj);
    tokenring_topology_free(jn);
    tokenring_ring_free(rr);
    tokenring_ring_free(rb);
    tokenring_replication_free(one);
    tokenring_topology_free(rp);
    tokenring_topology_free(bo);
    tokenring_topology_free(m3);
}

/* ----------------------------------- tokens sharing prefixes, against ranks */

/* A token of either partitioner as comparable bytes: RandomPartitioner's 16 big-endian
 * bytes (no -1 among node tokens, so unsigned byte order is the token order), or the
 * ByteOrderedPartitioner token itself. */
typedef struct anytok {
    uint8_t b[24];
    size_t len;
} anytok;

static int anytok_cmp(const void *x, const void *y)
{
    const anytok *a = x, *b = y;
    return tokenring_byte_token_compare(a->b, a->len, b->b, b->len);
}

static anytok from128(tokenring_token128 t)
{
    anytok a;
    for (int j = 0; j < 8; j++) {
        a.b[j] = (uint8_t)(t.hi >> (56 - 8 * j));
        a.b[8 + j] = (uint8_t)(t.lo >> (56 - 8 * j));
    }
    a.len = 16;
    return a;
}

/* Tokens crowded together: RandomPartitioner values sharing their top 64 bits (and now
 * and then 0 or 2^127), byte strings sharing an 8-byte prefix, of every length from 0. */
static anytok crowded(uint64_t *rng, tokenring_partitioner p)
{
    anytok a;
    if (p == TOKENRING_PARTITIONER_RANDOM) {
        int pick = tt_between(rng, 0, 19);
        tokenring_token128 t = { (uint64_t)tt_between(rng, 0, 2), tt_splitmix64(rng) % 64 };
        if (pick == 0)
            t.hi = t.lo = 0;
        else if (pick == 1)
            t.hi = UINT64_C(1) << 63, t.lo = 0;
        return from128(t);
    }
    static const uint8_t alpha[] = { 0x00, 0x61, 0xff };
    size_t pre = tt_between(rng, 0, 1) ? 8 : 0;
    a.len = pre + (size_t)tt_between(rng, 0, 3);
    for (size_t j = 0; j < a.len; j++)
        a.b[j] = j < pre ? (uint8_t)("abcdefgh"[j]) : alpha[tt_between(rng, 0, 2)];
    return a;
}

static int add_any(tokenring_topology *t, tokenring_partitioner p, const char *name,
                   const char *dc, const anytok *tk, size_t n, bool move)
{
    tokenring_token128 r[8];
    const uint8_t *bp[8];
    size_t bl[8];
    for (size_t k = 0; k < n; k++) {
        r[k].hi = r[k].lo = 0;
        for (int j = 0; j < 8; j++) {
            r[k].hi = r[k].hi << 8 | tk[k].b[j];
            r[k].lo = r[k].lo << 8 | tk[k].b[8 + j];
        }
        bp[k] = tk[k].b;
        bl[k] = tk[k].len;
    }
    if (p == TOKENRING_PARTITIONER_RANDOM)
        return move ? tokenring_topology_set_tokens128(t, name, r, n, NULL)
                    : tokenring_topology_add_node128(t, name, dc, "r1", r, n, NULL);
    return move ? tokenring_topology_set_tokens_bytes(t, name, bp, bl, n, NULL)
                : tokenring_topology_add_node_bytes(t, name, dc, "r1", bp, bl, n, NULL);
}

static anytok node_tok(const tokenring_topology *t, size_t i, size_t k)
{
    if (tokenring_topology_partitioner(t) == TOKENRING_PARTITIONER_RANDOM) {
        tokenring_token128 x;
        assert_int_equal(tokenring_topology_node_token128(&x, t, i, k), TOKENRING_OK);
        return from128(x);
    }
    anytok a;
    const uint8_t *b;
    assert_int_equal(tokenring_topology_node_token_bytes(&b, &a.len, t, i, k), TOKENRING_OK);
    if (a.len)
        memcpy(a.b, b, a.len);
    return a;
}

/* The same topology in Murmur3, each token replaced by its rank among `all`. */
static tokenring_topology *by_rank(const tokenring_topology *t, const anytok *all, size_t n)
{
    tokenring_topology *m3 = NULL;
    assert_int_equal(tokenring_topology_new(&m3), TOKENRING_OK);
    for (size_t i = 0; i < tokenring_topology_node_count(t); i++) {
        tokenring_node_info ni;
        assert_int_equal(tokenring_topology_node(&ni, t, i), TOKENRING_OK);
        int64_t tk[8];
        for (size_t k = 0; k < ni.token_count; k++) {
            anytok a = node_tok(t, i, k);
            const anytok *f = bsearch(&a, all, n, sizeof *all, anytok_cmp);
            assert_non_null(f);
            tk[k] = (int64_t)(f - all) * 1000 - 500000;
        }
        assert_int_equal(tokenring_topology_add_node(m3, ni.name, ni.datacenter, ni.rack, tk,
                                                     ni.token_count, NULL),
                         TOKENRING_OK);
    }
    return m3;
}

static void collect(anytok *all, size_t *n, const tokenring_topology *t)
{
    for (size_t i = 0; i < tokenring_topology_node_count(t); i++) {
        tokenring_node_info ni;
        assert_int_equal(tokenring_topology_node(&ni, t, i), TOKENRING_OK);
        for (size_t k = 0; k < ni.token_count; k++)
            all[(*n)++] = node_tok(t, i, k);
    }
}

static void test_crowded_tokens_against_ranks(void **state)
{
    (void)state;
    uint64_t rng = 20261206;
    for (int round = 0; round < 60; round++) {
        tokenring_partitioner p = round % 2 ? TOKENRING_PARTITIONER_BYTE_ORDERED
                                            : TOKENRING_PARTITIONER_RANDOM;
        tokenring_topology *before = NULL;
        assert_int_equal(tokenring_topology_new_partitioned(&before, p), TOKENRING_OK);
        int nodes = tt_between(&rng, 2, 6);
        for (int i = 0; i < nodes; i++) {
            char name[16];
            snprintf(name, sizeof name, "n%d", i);
            for (;;) { /* crowded tokens collide: draw again */
                anytok tk[4];
                size_t n = (size_t)tt_between(&rng, 1, 4);
                for (size_t k = 0; k < n; k++)
                    tk[k] = crowded(&rng, p);
                if (add_any(before, p, name, i % 3 ? "dc1" : "dc2", tk, n, false) ==
                    TOKENRING_OK)
                    break;
            }
        }
        tokenring_topology *after = NULL;
        assert_int_equal(tokenring_topology_clone(&after, before), TOKENRING_OK);
        for (;;) {
            anytok tk[4];
            size_t n = (size_t)tt_between(&rng, 1, 4);
            for (size_t k = 0; k < n; k++)
                tk[k] = crowded(&rng, p);
            int rc = round % 4 < 2 ? add_any(after, p, "new", "dc1", tk, n, false)
                                   : add_any(after, p, "n0", "dc1", tk, n, true);
            if (rc == TOKENRING_OK)
                break;
        }
        anytok all[64];
        size_t na = 0;
        collect(all, &na, before);
        collect(all, &na, after);
        qsort(all, na, sizeof *all, anytok_cmp);
        size_t nu = 0;
        for (size_t i = 0; i < na; i++)
            if (nu == 0 || anytok_cmp(&all[nu - 1], &all[i]) != 0)
                all[nu++] = all[i];
        tokenring_topology *mb = by_rank(before, all, nu), *ma = by_rank(after, all, nu);
        const char *rtext = round % 3 ? "SimpleStrategy:2" : "NetworkTopologyStrategy:dc1=2,dc2=1";
        tokenring_replication *repl = NULL;
        assert_int_equal(tokenring_replication_parse(&repl, rtext, strlen(rtext), NULL),
                         TOKENRING_OK);
        tokenring_movement *mo = NULL, *m3 = NULL;
        int kind = round % 4 < 2 ? TOKENRING_CHANGE_JOIN : TOKENRING_CHANGE_MOVE;
        assert_int_equal(tokenring_movement_compare_keys(&mo, before, after, repl, kind, NULL,
                                                         NULL, 0, NULL),
                         TOKENRING_OK);
        assert_int_equal(tokenring_movement_compare(&m3, mb, ma, repl, kind, NULL, 0, NULL),
                         TOKENRING_OK);
        tokenring_movement_summary so, s3;
        tokenring_movement_get_summary(&so, mo);
        tokenring_movement_get_summary(&s3, m3);
        assert_int_equal(so.range_count, s3.range_count);
        assert_int_equal(so.stream_count, s3.stream_count);
        const u128 R = (u128)1 << 127;
        u128 changed = 0;
        for (uint32_t i = 0; i < s3.range_count; i++) {
            tokenring_moved_range a, b;
            tokenring_movement_get_range(&a, m3, i);
            tokenring_movement_get_range(&b, mo, i);
            assert_int_equal(a.old_count, b.old_count);
            assert_int_equal(a.new_count, b.new_count);
            assert_memory_equal(a.old_replicas, b.old_replicas, a.old_count * sizeof(uint32_t));
            assert_memory_equal(a.new_replicas, b.new_replicas, a.new_count * sizeof(uint32_t));
            const anytok *ws = &all[(a.start + 500000) / 1000], *we = &all[(a.end + 500000) / 1000];
            if (p == TOKENRING_PARTITIONER_RANDOM) {
                tokenring_token128 x, y;
                assert_int_equal(tokenring_movement_range_bounds128(&x, &y, mo, i), TOKENRING_OK);
                anytok ax = from128(x), ay = from128(y);
                assert_int_equal(anytok_cmp(&ax, ws), 0);
                assert_int_equal(anytok_cmp(&ay, we), 0);
                u128 w = nu == 1 ? R : (v128(y) + R - v128(x)) % R;
                assert_true(w128(b.width) == w);
                changed += w;
            } else {
                const uint8_t *x, *y;
                size_t xl, yl;
                assert_int_equal(tokenring_movement_range_bounds_bytes(&x, &xl, &y, &yl, mo, i),
                                 TOKENRING_OK);
                assert_int_equal(tokenring_byte_token_compare(x, xl, ws->b, ws->len), 0);
                assert_int_equal(tokenring_byte_token_compare(y, yl, we->b, we->len), 0);
                assert_true(w128(b.width) == 1);
                changed += 1;
            }
        }
        assert_true(w128(so.changed_width) == changed);
        if (p == TOKENRING_PARTITIONER_BYTE_ORDERED)
            assert_true(close_to(so.changed_fraction, (double)changed / (double)nu));
        for (uint32_t i = 0; i < s3.stream_count; i++) {
            tokenring_stream a, b;
            tokenring_movement_get_stream(&a, m3, i);
            tokenring_movement_get_stream(&b, mo, i);
            assert_true(a.source == b.source && a.destination == b.destination &&
                        a.range_index == b.range_index && a.strict == b.strict);
        }
        /* kept tokens: the same counts as on the ranks */
        tokenring_ring *r[4];
        const tokenring_topology *tt[4] = { before, after, mb, ma };
        for (int k = 0; k < 4; k++) {
            r[k] = NULL;
            assert_int_equal(tokenring_ring_build(&r[k], tt[k], NULL), TOKENRING_OK);
        }
        size_t ko[3], k3[3];
        assert_int_equal(tokenring_ring_tokens_kept(&ko[0], &ko[1], &ko[2], r[0], r[1]),
                         TOKENRING_OK);
        assert_int_equal(tokenring_ring_tokens_kept(&k3[0], &k3[1], &k3[2], r[2], r[3]),
                         TOKENRING_OK);
        assert_memory_equal(ko, k3, sizeof ko);
        for (int k = 0; k < 4; k++)
            tokenring_ring_free(r[k]);
        tokenring_movement_free(mo);
        tokenring_movement_free(m3);
        tokenring_replication_free(repl);
        tokenring_topology_free(mb);
        tokenring_topology_free(ma);
        tokenring_topology_free(before);
        tokenring_topology_free(after);
    }
}


/* ------------------------------------------ movement on Murmur3 rings (seeded) */

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

/* Argument checks of the movement analyses and their accessors: each bad argument gets
 * its documented code and a message, accessors refuse NULL and out-of-range indices. */

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

/* ---------------------------------------------------------------- kept tokens */

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

/* A fuzz-found bug, fixed: the input is also in fuzz/corpus/analysis/ and replayed by
 * the fuzz suite. */

/* fuzz/corpus/analysis/crash-da39a3ee... (the empty input): a movement under a
 * replication whose every factor is 0 did arithmetic on a null replica pool (UBSan). Every
 * replica list is empty: nothing changes, nothing streams, the samples have no replicas. */
static void movement_with_no_replicas(void **state)
{
    (void)state;
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    int64_t a[] = { -100, 100 }, b[] = { 0 };
    assert_int_equal(tokenring_topology_add_node(t, "n0", "dc1", "r1", a, 2, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_topology_add_node(t, "n1", "dc1", "r2", b, 1, NULL), TOKENRING_OK);
    tokenring_replication *r = NULL;
    assert_int_equal(tokenring_replication_parse(&r, "dc1=0,dc2=0", 11, NULL), TOKENRING_OK);
    int64_t samples[] = { INT64_MIN, 0, 50 };
    tokenring_movement *m = NULL;
    assert_int_equal(tokenring_movement_decommission(&m, t, r, "n1", samples, 3, NULL),
                     TOKENRING_OK);
    tokenring_movement_summary s;
    assert_int_equal(tokenring_movement_get_summary(&s, m), TOKENRING_OK);
    assert_int_equal(s.range_count, 0);
    assert_int_equal(s.stream_count, 0);
    assert_true(s.changed_width.hi == 0 && s.changed_width.lo == 0);
    assert_int_equal(s.sample_count, 3);
    for (uint32_t i = 0; i < 3; i++) {
        tokenring_sample_change c;
        assert_int_equal(tokenring_movement_get_sample(&c, m, i), TOKENRING_OK);
        assert_int_equal(c.old_count, 0);
        assert_int_equal(c.new_count, 0);
        assert_int_equal(c.replicas_changed, 0);
    }
    tokenring_movement_free(m);
    tokenring_replication_free(r);
    tokenring_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_movement_every_partitioner),
        cmocka_unit_test(test_random_edge),
        cmocka_unit_test(test_bytes_edge),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_crowded_tokens_against_ranks),
        cmocka_unit_test(join_moves_primaries_only_to_new_node),
        cmocka_unit_test(decommission_replace_move),
        cmocka_unit_test(movement_arguments_and_accessors),
        cmocka_unit_test(tokens_kept_by_change),
        cmocka_unit_test(movement_with_no_replicas),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
