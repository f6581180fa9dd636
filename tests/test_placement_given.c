/* SPDX-License-Identifier: Apache-2.0 */
/* tokenring_placement_from_lists and tokenring_placement_order: placements whose replica
 * order is given (a server's, or Cassandra 6.0's history order) instead of computed from
 * the tokens. Every range answers its given list exactly (by range, by token, by key, set
 * ids shared by equal lists); bad lists are refused with a message naming the range and
 * the node, and tokenring_placement_update refuses to recompute a given order. */
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

/* 6 nodes in 2 datacenters, 4 tokens each. */
static tokenring_ring *sample_ring(tokenring_topology **topo_out)
{
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    for (int n = 0; n < 6; n++) {
        char name[32];
        snprintf(name, sizeof name, "10.0.0.%d", n + 1);
        int64_t tok[4];
        for (int k = 0; k < 4; k++)
            tok[k] = (int64_t)(0x0123456789abcdefULL * (uint64_t)(n * 4 + k + 1));
        assert_int_equal(tokenring_topology_add_node(t, name, n < 4 ? "dc1" : "dc2",
                                                     n % 2 ? "r1" : "r2", tok, 4, NULL),
                         TOKENRING_OK);
    }
    tokenring_ring *r = NULL;
    assert_int_equal(tokenring_ring_build(&r, t, NULL), TOKENRING_OK);
    *topo_out = t;
    return r;
}

static tokenring_replication *repl(const char *text)
{
    tokenring_replication *r = NULL;
    assert_int_equal(tokenring_replication_parse(&r, text, strlen(text), NULL), TOKENRING_OK);
    return r;
}

/* The lists of p, each reversed (so the order differs from the computed one). */
static void reversed_lists(const tokenring_placement *p, size_t n, uint32_t *off,
                           uint32_t *nodes)
{
    off[0] = 0;
    for (size_t i = 0; i < n; i++) {
        tokenring_replicas r;
        assert_int_equal(tokenring_placement_range_replicas(&r, p, i), TOKENRING_OK);
        for (uint32_t k = 0; k < r.count; k++)
            nodes[off[i] + k] = r.nodes[r.count - 1 - k];
        off[i + 1] = off[i] + r.count;
    }
}

static void given_lists_answer_exactly(void **state)
{
    (void)state;
    tokenring_topology *t;
    tokenring_ring *ring = sample_ring(&t);
    tokenring_replication *rp = repl("dc1=3,dc2=1");
    tokenring_placement *computed = NULL, *given = NULL;
    assert_int_equal(tokenring_placement_build(&computed, ring, rp, 0, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_placement_order(computed), TOKENRING_ORDER_TOKENS);
    size_t n = 0;
    tokenring_ring_tokens(ring, &n);
    uint32_t *off = calloc(n + 1, sizeof *off), *nodes = calloc(n * 4, sizeof *nodes);
    reversed_lists(computed, n, off, nodes);
    /* one range gets a shorter list (two replicas), another none at all */
    memmove(nodes + off[3] + 2, nodes + off[4], (off[n] - off[4]) * sizeof *nodes);
    for (size_t i = 4; i <= n; i++)
        off[i] -= 2;
    memmove(nodes + off[5], nodes + off[6], (off[n] - off[6]) * sizeof *nodes);
    uint32_t cut = off[6] - off[5];
    for (size_t i = 6; i <= n; i++)
        off[i] -= cut;
    tokenring_error err;
    assert_int_equal(tokenring_placement_from_lists(&given, ring, rp, off, nodes, NULL, 0,
                                                    TOKENRING_ORDER_SERVER, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_placement_order(given), TOKENRING_ORDER_SERVER);
    assert_ptr_equal(tokenring_placement_ring(given), ring);
    size_t sets = tokenring_placement_set_count(given);
    for (size_t i = 0; i < n; i++) {
        tokenring_replicas r, by_token, s;
        assert_int_equal(tokenring_placement_range_replicas(&r, given, i), TOKENRING_OK);
        assert_int_equal(r.count, off[i + 1] - off[i]);
        assert_int_equal(r.range_index, i);
        for (uint32_t k = 0; k < r.count; k++)
            assert_int_equal(r.nodes[k], nodes[off[i] + k]);
        int64_t tok = tokenring_ring_tokens(ring, NULL)[i];
        assert_int_equal(tokenring_placement_replicas(&by_token, given, tok), TOKENRING_OK);
        assert_int_equal(by_token.set_id, r.set_id);
        assert_true(r.set_id < sets);
        assert_int_equal(tokenring_placement_set(&s, given, r.set_id), TOKENRING_OK);
        assert_int_equal(s.count, r.count);
        assert_memory_equal(s.nodes, r.nodes, r.count * sizeof *r.nodes);
        /* equal lists share a set id; different ones do not */
        for (size_t j = 0; j < i; j++) {
            tokenring_replicas q;
            assert_int_equal(tokenring_placement_range_replicas(&q, given, j), TOKENRING_OK);
            bool same = q.count == r.count &&
                        memcmp(q.nodes, r.nodes, r.count * sizeof *r.nodes) == 0;
            assert_int_equal(same, q.set_id == r.set_id);
        }
    }
    /* a key routes through its token */
    tokenring_replicas a, b;
    assert_int_equal(tokenring_placement_replicas_for_key(&a, given, "k", 1), TOKENRING_OK);
    assert_int_equal(tokenring_placement_replicas(&b, given, tokenring_token("k", 1)),
                     TOKENRING_OK);
    assert_int_equal(a.set_id, b.set_id);
    assert_int_equal(tokenring_placement_key_set_id(given, "k", 1), a.set_id);
    /* an update cannot recompute a given order */
    tokenring_placement *next = (tokenring_placement *)1;
    tokenring_ring *other = NULL;
    assert_int_equal(tokenring_ring_build(&other, t, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_placement_update(&next, given, other, &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_non_null(strstr(err.message, "the server's order"));
    assert_ptr_equal(next, (tokenring_placement *)1);
    /* the same ring: the same placement, as for computed ones */
    assert_int_equal(tokenring_placement_update(&next, given, ring, &err), TOKENRING_OK);
    assert_ptr_equal(next, given);
    tokenring_placement_free(next);
    tokenring_placement *hist = NULL;
    assert_int_equal(tokenring_placement_from_lists(&hist, other, rp, off, nodes, NULL, 0,
                                                    TOKENRING_ORDER_HISTORY, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_placement_order(hist), TOKENRING_ORDER_HISTORY);
    assert_int_equal(tokenring_placement_update(&next, hist, ring, &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_non_null(strstr(err.message, "6.0"));
    tokenring_placement_free(hist);
    tokenring_ring_free(other);
    free(off);
    free(nodes);
    tokenring_placement_free(given);
    tokenring_placement_free(computed);
    tokenring_replication_free(rp);
    tokenring_ring_free(ring);
    tokenring_topology_free(t);
}

static void empty_lists(void **state)
{
    (void)state;
    tokenring_topology *t;
    tokenring_ring *ring = sample_ring(&t);
    tokenring_replication *rp = repl("1");
    size_t n = 0;
    tokenring_ring_tokens(ring, &n);
    uint32_t *off = calloc(n + 1, sizeof *off);
    tokenring_placement *p = NULL;
    assert_int_equal(tokenring_placement_from_lists(&p, ring, rp, off, NULL, NULL, 0,
                                                    TOKENRING_ORDER_SERVER, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_placement_set_count(p), 1);
    tokenring_replicas r;
    assert_int_equal(tokenring_placement_replicas(&r, p, 42), TOKENRING_OK);
    assert_int_equal(r.count, 0);
    tokenring_placement_free(p);
    free(off);
    tokenring_replication_free(rp);
    tokenring_ring_free(ring);
    tokenring_topology_free(t);
}

/* Cassandra 6.0 keeps (t_last, min] apart from (min, t_0]: an upper list answers the
 * tokens above the largest ring token, range 0 the others. */
static void upper_part_of_range_0(void **state)
{
    (void)state;
    tokenring_topology *t;
    tokenring_ring *ring = sample_ring(&t);
    tokenring_replication *rp = repl("2");
    size_t n = 0;
    const int64_t *toks = tokenring_ring_tokens(ring, &n);
    uint32_t *off = calloc(n + 1, sizeof *off), *nodes = calloc(n * 2, sizeof *nodes);
    for (size_t i = 0; i < n; i++) {
        off[i + 1] = off[i] + 2;
        nodes[off[i]] = (uint32_t)(i % 6);
        nodes[off[i] + 1] = (uint32_t)((i + 1) % 6);
    }
    uint32_t upper[2] = { nodes[1], nodes[0] }; /* range 0's list, the other way round */
    tokenring_placement *p = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_placement_from_lists(&p, ring, rp, off, nodes, upper, 2,
                                                    TOKENRING_ORDER_HISTORY, &err),
                     TOKENRING_OK);
    tokenring_replicas lo, hi, r0;
    assert_int_equal(tokenring_placement_replicas(&lo, p, toks[0] - 1), TOKENRING_OK);
    assert_int_equal(tokenring_placement_replicas(&hi, p, toks[n - 1] + 1), TOKENRING_OK);
    assert_int_equal(tokenring_placement_range_replicas(&r0, p, 0), TOKENRING_OK);
    assert_int_equal(lo.set_id, r0.set_id);
    assert_int_equal(lo.nodes[0], nodes[0]);
    assert_int_equal(hi.nodes[0], upper[0]);
    assert_int_equal(hi.nodes[1], upper[1]);
    assert_int_equal(hi.range_index, 0);
    /* its own set: the last, whose range_index is the token count */
    size_t sets = tokenring_placement_set_count(p);
    assert_int_equal(hi.set_id, sets - 1);
    tokenring_replicas s;
    assert_int_equal(tokenring_placement_set(&s, p, hi.set_id), TOKENRING_OK);
    assert_int_equal(s.range_index, n);
    /* routing agrees */
    int64_t tk = toks[n - 1] + 1;
    for (int k = 0; k < 4096; k++) {
        char key[16];
        int len = snprintf(key, sizeof key, "k%d", k);
        if (tokenring_token(key, (size_t)len) > toks[n - 1]) {
            tk = tokenring_token(key, (size_t)len);
            assert_int_equal(tokenring_placement_key_set_id(p, key, (size_t)len), hi.set_id);
            int64_t tok_out;
            uint32_t sid;
            uint64_t offs[2] = { 0, (uint64_t)len };
            assert_int_equal(tokenring_placement_route_keys(&tok_out, &sid, p,
                                                            (const uint8_t *)key, offs, 1),
                             TOKENRING_OK);
            assert_int_equal(sid, hi.set_id);
            tokenring_replicas rk; /* the batch of replicas: the wrap set too */
            assert_int_equal(tokenring_placement_route_keys_replicas(&rk, NULL, p,
                                                                     (const uint8_t *)key, offs, 1),
                             TOKENRING_OK);
            assert_int_equal(rk.set_id, hi.set_id);
            assert_int_equal(rk.range_index, hi.range_index);
            assert_ptr_equal(rk.nodes, hi.nodes);
            break;
        }
    }
    assert_true(tk > toks[n - 1]);
    tokenring_placement_free(p);
    /* the same list as range 0: no set of its own */
    upper[0] = nodes[0];
    upper[1] = nodes[1];
    assert_int_equal(tokenring_placement_from_lists(&p, ring, rp, off, nodes, upper, 2,
                                                    TOKENRING_ORDER_HISTORY, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_placement_replicas(&hi, p, toks[n - 1] + 1), TOKENRING_OK);
    assert_int_equal(hi.set_id, r0.set_id);
    tokenring_placement_free(p);
    /* refused: a node twice, an index past the nodes */
    upper[1] = upper[0];
    assert_int_equal(tokenring_placement_from_lists(&p, ring, rp, off, nodes, upper, 2,
                                                    TOKENRING_ORDER_HISTORY, &err),
                     TOKENRING_E_INVAL);
    assert_non_null(strstr(err.message, "the list above the largest token names node"));
    upper[1] = 99;
    assert_int_equal(tokenring_placement_from_lists(&p, ring, rp, off, nodes, upper, 2,
                                                    TOKENRING_ORDER_HISTORY, &err),
                     TOKENRING_E_INVAL);
    assert_non_null(strstr(err.message, "the list above the largest token: replica 1 is node "
                                        "index 99"));
    free(off);
    free(nodes);
    tokenring_replication_free(rp);
    tokenring_ring_free(ring);
    tokenring_topology_free(t);
}

/* A RandomPartitioner ring: given lists work (messages name the range by index); a list
 * above the largest token is Murmur3's only. */
static void other_partitioner(void **state)
{
    (void)state;
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new_partitioned(&t, TOKENRING_PARTITIONER_RANDOM),
                     TOKENRING_OK);
    for (int n = 0; n < 3; n++) {
        char name[16];
        snprintf(name, sizeof name, "n%d", n);
        tokenring_token128 tok = { 0, (uint64_t)(n + 1) * 1000 };
        assert_int_equal(tokenring_topology_add_node128(t, name, "dc1", "r1", &tok, 1, NULL),
                         TOKENRING_OK);
    }
    tokenring_ring *ring = NULL;
    assert_int_equal(tokenring_ring_build(&ring, t, NULL), TOKENRING_OK);
    tokenring_replication *rp = repl("2");
    uint32_t off[4] = { 0, 2, 4, 6 }, nodes[6] = { 0, 1, 1, 2, 2, 2 }, upper[1] = { 0 };
    tokenring_placement *p = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_placement_from_lists(&p, ring, rp, off, nodes, NULL, 0,
                                                    TOKENRING_ORDER_SERVER, &err),
                     TOKENRING_E_INVAL);
    assert_string_equal(err.message, "range 2 names node n2 twice");
    nodes[5] = 0;
    assert_int_equal(tokenring_placement_from_lists(&p, ring, rp, off, nodes, upper, 1,
                                                    TOKENRING_ORDER_SERVER, &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_non_null(strstr(err.message, "Murmur3 rings only"));
    assert_int_equal(tokenring_placement_from_lists(&p, ring, rp, off, nodes, NULL, 0,
                                                    TOKENRING_ORDER_SERVER, &err),
                     TOKENRING_OK);
    tokenring_replicas r;
    assert_int_equal(tokenring_placement_range_replicas(&r, p, 1), TOKENRING_OK);
    assert_int_equal(r.nodes[0], 1);
    assert_int_equal(r.nodes[1], 2);
    tokenring_placement_free(p);
    tokenring_replication_free(rp);
    tokenring_ring_free(ring);
    tokenring_topology_free(t);
}

static void refuses_bad_lists(void **state)
{
    (void)state;
    tokenring_topology *t;
    tokenring_ring *ring = sample_ring(&t);
    tokenring_replication *rp = repl("3");
    size_t n = 0;
    tokenring_ring_tokens(ring, &n);
    uint32_t *off = calloc(n + 1, sizeof *off), *nodes = calloc(n * 3, sizeof *nodes);
    for (size_t i = 0; i < n; i++) {
        off[i + 1] = off[i] + 3;
        for (uint32_t k = 0; k < 3; k++)
            nodes[off[i] + k] = (uint32_t)((i + k) % 6);
    }
    tokenring_placement *p = NULL;
    tokenring_error err;
    const int S = TOKENRING_ORDER_SERVER;
    assert_int_equal(tokenring_placement_from_lists(NULL, ring, rp, off, nodes, NULL, 0, S, &err),
                     TOKENRING_E_INVAL);
    assert_string_equal(err.message, "out is NULL");
    assert_int_equal(tokenring_placement_from_lists(&p, NULL, rp, off, nodes, NULL, 0, S, &err),
                     TOKENRING_E_INVAL);
    assert_string_equal(err.message, "ring is NULL");
    assert_int_equal(tokenring_placement_from_lists(&p, ring, NULL, off, nodes, NULL, 0, S, &err),
                     TOKENRING_E_INVAL);
    assert_string_equal(err.message, "replication is NULL");
    assert_int_equal(tokenring_placement_from_lists(&p, ring, rp, NULL, nodes, NULL, 0, S, &err),
                     TOKENRING_E_INVAL);
    assert_string_equal(err.message, "offsets is NULL");
    assert_int_equal(tokenring_placement_from_lists(&p, ring, rp, off, NULL, NULL, 0, S, &err),
                     TOKENRING_E_INVAL);
    assert_non_null(strstr(err.message, "nodes is NULL with"));
    assert_int_equal(tokenring_placement_from_lists(&p, ring, rp, off, nodes, NULL, 0,
                                                    TOKENRING_ORDER_TOKENS, &err),
                     TOKENRING_E_INVAL);
    assert_non_null(strstr(err.message, "tokenring_placement_build() computes"));
    assert_int_equal(tokenring_placement_from_lists(&p, ring, rp, off, nodes, NULL, 0, 7, &err),
                     TOKENRING_E_INVAL);
    off[0] = 1;
    assert_int_equal(tokenring_placement_from_lists(&p, ring, rp, off, nodes, NULL, 0, S, &err),
                     TOKENRING_E_INVAL);
    assert_string_equal(err.message, "offsets[0] is 1, not 0");
    off[0] = 0;
    uint32_t keep = off[2];
    off[2] = 1;
    assert_int_equal(tokenring_placement_from_lists(&p, ring, rp, off, nodes, NULL, 0, S, &err),
                     TOKENRING_E_INVAL);
    char want[160];
    snprintf(want, sizeof want, "offsets decrease at range 1 (ending at token %lld): 1 after 3",
             (long long)tokenring_ring_tokens(ring, NULL)[1]);
    assert_string_equal(err.message, want);
    off[2] = keep;
    nodes[off[5] + 1] = 6;
    assert_int_equal(tokenring_placement_from_lists(&p, ring, rp, off, nodes, NULL, 0, S, &err),
                     TOKENRING_E_INVAL);
    snprintf(want, sizeof want,
             "range 5 (ending at token %lld): replica 1 is node index 6, but the ring has "
             "6 nodes", (long long)tokenring_ring_tokens(ring, NULL)[5]);
    assert_string_equal(err.message, want);
    nodes[off[5] + 1] = nodes[off[5]];
    assert_int_equal(tokenring_placement_from_lists(&p, ring, rp, off, nodes, NULL, 0, S, &err),
                     TOKENRING_E_INVAL);
    tokenring_node_info info;
    assert_int_equal(tokenring_ring_node(&info, ring, nodes[off[5]]), TOKENRING_OK);
    snprintf(want, sizeof want, "range 5 (ending at token %lld) names node %s twice",
             (long long)tokenring_ring_tokens(ring, NULL)[5], info.name);
    assert_string_equal(err.message, want);
    assert_null(p);
    assert_int_equal(tokenring_placement_order(NULL), TOKENRING_E_INVAL);
    free(off);
    free(nodes);
    tokenring_replication_free(rp);
    tokenring_ring_free(ring);
    tokenring_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(given_lists_answer_exactly),
        cmocka_unit_test(empty_lists),
        cmocka_unit_test(upper_part_of_range_0),
        cmocka_unit_test(other_partitioner),
        cmocka_unit_test(refuses_bad_lists),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
