/* SPDX-License-Identifier: Apache-2.0 */
/* Balance statistics (balance.h, tokenring_balance_compute): exact primary and effective
 * figures of a seeded ring, per datacenter and per rack; then every bad argument.
 * test_balance_oom.c fails each of its allocations in turn. */
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
#include "fixtures.h"

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

/* ------------------------------------------------------------- bad arguments */

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(balance_exact),
        cmocka_unit_test(balance_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
