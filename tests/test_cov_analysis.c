/* SPDX-License-Identifier: Apache-2.0 */
/* Argument checks and edge cases of the analyses (analysis.h) that test_analysis.c does
 * not reach: each bad argument gets its documented code and a message, accessors refuse
 * NULL and out-of-range indices, and a valid plan's accessors agree with its inputs. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tokenring/tokenring.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(balance_arguments),
        cmocka_unit_test(movement_arguments_and_accessors),
        cmocka_unit_test(availability_arguments),
        cmocka_unit_test(migration_arguments_and_accessors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
