/* SPDX-License-Identifier: Apache-2.0 */
/* TOKENRING_1.2: progress callbacks and cancellation of the long analyses, and the rule for
 * datacenters without nodes (TOKENRING_PLACEMENT_SKIP_EMPTY_DC and the empty-datacenter
 * query). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tokenring/tokenring.h"

/* Records every report and cancels at report number `cancel_at` (0: never). */
typedef struct recorder {
    unsigned calls;
    unsigned cancel_at;
    uint64_t first_done, last_done, last_total;
    int monotone; /* done never decreased, total never decreased, done <= total */
} recorder;

static int record(void *user, uint64_t done, uint64_t total)
{
    recorder *r = user;
    if (r->calls == 0) {
        r->first_done = done;
        r->monotone = 1;
    } else if (done < r->last_done || total < r->last_total) {
        r->monotone = 0;
    }
    if (done > total)
        r->monotone = 0;
    r->last_done = done;
    r->last_total = total;
    r->calls++;
    return r->cancel_at != 0 && r->calls >= r->cancel_at;
}

/* `nodes` nodes in dc1 (3 racks) with seeded tokens. */
static tokenring_topology *cluster(size_t nodes, uint32_t tokens)
{
    char names[64][16];
    const char *np[64], *dcs[64], *racks[64];
    static const char *rk[] = { "r1", "r2", "r3" };
    assert_true(nodes <= 64);
    for (size_t i = 0; i < nodes; i++) {
        snprintf(names[i], sizeof names[i], "10.0.0.%zu", i + 1);
        np[i] = names[i];
        dcs[i] = "dc1";
        racks[i] = rk[i % 3];
    }
    tokenring_topology *t;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    assert_int_equal(tokenring_layout_add_seeded_nodes(t, 7, tokens, np, dcs, racks, nodes, 0,
                                                       NULL),
                     TOKENRING_OK);
    return t;
}

static void status_names(void **state)
{
    (void)state;
    assert_string_equal(tokenring_status_name(TOKENRING_E_CANCELLED), "TOKENRING_E_CANCELLED");
    assert_string_equal(tokenring_strerror(TOKENRING_E_CANCELLED), "cancelled");
}

static void availability_progress_and_cancel(void **state)
{
    (void)state;
    tokenring_topology *t = cluster(24, 16);
    tokenring_ring *ring;
    assert_int_equal(tokenring_ring_build(&ring, t, NULL), TOKENRING_OK);
    tokenring_replication *r;
    assert_int_equal(tokenring_replication_parse(&r, "dc1=3", 5, NULL), TOKENRING_OK);

    /* With a callback that never cancels: the same result as without, reports that start
     * at 0, never go back, and end with done == total. */
    tokenring_availability *plain, *rep;
    assert_int_equal(tokenring_availability_build(&plain, ring, r, TOKENRING_CL_QUORUM, NULL, 2,
                                                  NULL),
                     TOKENRING_OK);
    recorder rec = { 0 };
    assert_int_equal(tokenring_availability_build_progress(&rep, ring, r, TOKENRING_CL_QUORUM,
                                                           NULL, 2, record, &rec, NULL),
                     TOKENRING_OK);
    assert_true(rec.calls >= 2);
    assert_int_equal(rec.first_done, 0);
    assert_true(rec.monotone);
    assert_int_equal(rec.last_done, rec.last_total);
    assert_true(rec.last_total > 0);
    size_t n = tokenring_availability_count(plain);
    assert_true(n > 0);
    assert_int_equal(tokenring_availability_count(rep), n);
    for (size_t i = 0; i < n; i++) {
        uint32_t a[3], b[3];
        tokenring_u128 wa, wb;
        assert_int_equal(tokenring_availability_get(a, &wa, NULL, plain, i), TOKENRING_OK);
        assert_int_equal(tokenring_availability_get(b, &wb, NULL, rep, i), TOKENRING_OK);
        assert_memory_equal(a, b, 2 * sizeof *a);
        assert_true(wa.hi == wb.hi && wa.lo == wb.lo);
    }
    tokenring_availability_free(rep);
    tokenring_availability_free(plain);

    /* NULL callback: exactly the plain call. */
    assert_int_equal(tokenring_availability_build_progress(&rep, ring, r, TOKENRING_CL_ONE, NULL,
                                                           1, NULL, NULL, NULL),
                     TOKENRING_OK);
    tokenring_availability_free(rep);

    /* Cancelling at the first report and at the second: no result, a clear code. */
    for (unsigned at = 1; at <= 2; at++) {
        recorder c = { 0 };
        c.cancel_at = at;
        tokenring_error err;
        rep = (tokenring_availability *)&c; /* a failed builder leaves it alone */
        assert_int_equal(tokenring_availability_build_progress(&rep, ring, r,
                                                               TOKENRING_CL_QUORUM, NULL, 3,
                                                               record, &c, &err),
                         TOKENRING_E_CANCELLED);
        assert_ptr_equal(rep, (tokenring_availability *)&c);
        assert_int_equal(err.code, TOKENRING_E_CANCELLED);
        assert_non_null(strstr(err.message, "availability analysis cancelled"));
        assert_int_equal(c.calls, at);
    }
    /* Argument errors come before any report. */
    rec = (recorder){ 0 };
    assert_int_equal(tokenring_availability_build_progress(&rep, ring, r, 99, NULL, 1, record,
                                                           &rec, NULL),
                     TOKENRING_E_INVAL);
    assert_int_equal(rec.calls, 0);
    tokenring_replication_free(r);
    tokenring_ring_free(ring);
    tokenring_topology_free(t);
}

/* k = 3 at ALL enumerates many completions per failing replica: a cancel deep inside the
 * enumeration still stops the call. */
static void availability_cancel_in_completions(void **state)
{
    (void)state;
    tokenring_topology *t = cluster(40, 4);
    tokenring_ring *ring;
    assert_int_equal(tokenring_ring_build(&ring, t, NULL), TOKENRING_OK);
    tokenring_replication *r;
    assert_int_equal(tokenring_replication_parse(&r, "dc1=3", 5, NULL), TOKENRING_OK);
    recorder all = { 0 };
    tokenring_availability *a;
    assert_int_equal(tokenring_availability_build_progress(&a, ring, r, TOKENRING_CL_ALL, NULL,
                                                           3, record, &all, NULL),
                     TOKENRING_OK);
    assert_true(all.monotone);
    assert_true(all.calls > 4);
    tokenring_availability_free(a);
    for (unsigned at = 3; at < all.calls; at += (all.calls - 3) / 3 + 1) {
        recorder c = { 0 };
        c.cancel_at = at;
        tokenring_error err;
        a = NULL;
        assert_int_equal(tokenring_availability_build_progress(&a, ring, r, TOKENRING_CL_ALL,
                                                               NULL, 3, record, &c, &err),
                         TOKENRING_E_CANCELLED);
        assert_null(a);
        assert_int_equal(c.calls, at);
    }
    tokenring_replication_free(r);
    tokenring_ring_free(ring);
    tokenring_topology_free(t);
}

static void allocator_progress_and_cancel(void **state)
{
    (void)state;
    tokenring_topology *t = cluster(9, 8);
    static const char *racks[] = { "r1", "r2", "r3", "r4" };
    int64_t plain[4 * 8], got[4 * 8];
    assert_int_equal(tokenring_allocate_nodes(plain, 8, t, "dc1", racks, 4, 3, 0, NULL),
                     TOKENRING_OK);
    recorder rec = { 0 };
    assert_int_equal(tokenring_allocate_nodes_progress(got, 8, t, "dc1", racks, 4, 3, 0, record,
                                                       &rec, NULL),
                     TOKENRING_OK);
    assert_memory_equal(plain, got, sizeof got);
    assert_int_equal(rec.first_done, 0);
    assert_true(rec.monotone);
    assert_int_equal(rec.last_done, rec.last_total);
    assert_true(rec.last_total >= 4 * 8); /* every token, then the refinement rounds */
    unsigned calls = rec.calls;
    /* Cancel at the start, during placement and during the refinement. */
    unsigned points[] = { 1, 10, calls - 1 };
    for (size_t i = 0; i < 3; i++) {
        recorder c = { 0 };
        c.cancel_at = points[i];
        tokenring_error err;
        assert_int_equal(tokenring_allocate_nodes_progress(got, 8, t, "dc1", racks, 4, 3, 0,
                                                           record, &c, &err),
                         TOKENRING_E_CANCELLED);
        assert_int_equal(c.calls, points[i]);
        assert_non_null(strstr(err.message, "token allocation cancelled"));
    }
    /* One node as tokenring_allocate_tokens() does it. */
    int64_t one[8], one_p[8];
    assert_int_equal(tokenring_allocate_tokens(one, 8, t, "dc1", "r2", 3, 0, NULL), TOKENRING_OK);
    rec = (recorder){ 0 };
    const char *r2 = "r2";
    assert_int_equal(tokenring_allocate_nodes_progress(one_p, 8, t, "dc1", &r2, 1, 3,
                                                       TOKENRING_ALLOCATE_NODE_BY_NODE, record,
                                                       &rec, NULL),
                     TOKENRING_OK);
    assert_memory_equal(one, one_p, sizeof one);
    assert_int_equal(rec.last_done, 8);
    /* Exactly rf racks: the per-rack groups report into one count. */
    static const char *three[] = { "r1", "r2", "r3" };
    int64_t g[3 * 8], gp[3 * 8];
    assert_int_equal(tokenring_allocate_nodes(g, 8, t, "dc1", three, 3, 3, 0, NULL), 0);
    rec = (recorder){ 0 };
    assert_int_equal(tokenring_allocate_nodes_progress(gp, 8, t, "dc1", three, 3, 3, 0, record,
                                                       &rec, NULL),
                     TOKENRING_OK);
    assert_memory_equal(g, gp, sizeof g);
    assert_true(rec.monotone);
    assert_int_equal(rec.last_done, rec.last_total);
    tokenring_topology_free(t);
}

static void migration_progress_and_cancel(void **state)
{
    (void)state;
    tokenring_topology *t = cluster(6, 8);
    static const char *names[] = { "n1", "n2", "n3", "n4", "n5", "n6" };
    static const char *racks[] = { "r1", "r2", "r3", "r1", "r2", "r3" };
    tokenring_migration *plain, *m;
    assert_int_equal(tokenring_migration_plan(&plain, t, "dc1", "dc16", names, racks, 6, 16, 3,
                                              NULL, NULL, 0, NULL),
                     TOKENRING_OK);
    recorder rec = { 0 };
    assert_int_equal(tokenring_migration_plan_progress(&m, t, "dc1", "dc16", names, racks, 6, 16,
                                                       3, NULL, NULL, 0, record, &rec, NULL),
                     TOKENRING_OK);
    assert_true(rec.monotone);
    assert_int_equal(rec.last_done, rec.last_total);
    assert_true(rec.last_total >= 3 * 16); /* the three allocated nodes */
    for (size_t i = 0; i < 6; i++) {
        const int64_t *a, *b;
        size_t na, nb;
        assert_int_equal(tokenring_migration_node(NULL, NULL, &a, &na, plain, i), 0);
        assert_int_equal(tokenring_migration_node(NULL, NULL, &b, &nb, m, i), 0);
        assert_int_equal(na, nb);
        assert_memory_equal(a, b, na * sizeof *a);
    }
    tokenring_migration_free(m);
    tokenring_migration_free(plain);
    for (unsigned at = 1; at <= 3; at++) {
        recorder c = { 0 };
        c.cancel_at = at;
        m = (tokenring_migration *)&c;
        tokenring_error err;
        assert_int_equal(tokenring_migration_plan_progress(&m, t, "dc1", "dc16", names, racks, 6,
                                                           16, 3, NULL, NULL, 0, record, &c,
                                                           &err),
                         TOKENRING_E_CANCELLED);
        assert_ptr_equal(m, (tokenring_migration *)&c);
        assert_int_equal(err.code, TOKENRING_E_CANCELLED);
    }
    tokenring_topology_free(t);
}

/* ------------------------------------------------------- datacenters without nodes */

static void empty_datacenters(void **state)
{
    (void)state;
    tokenring_topology *t = cluster(6, 4);
    tokenring_ring *ring;
    assert_int_equal(tokenring_ring_build(&ring, t, NULL), TOKENRING_OK);
    tokenring_replication *only9, *mixed, *zero, *simple;
    assert_int_equal(tokenring_replication_parse(&only9, "dc9=3", 5, NULL), 0);
    assert_int_equal(tokenring_replication_parse(&mixed, "dc1=2, dc8=1, dc9=3, dc7=0", 26, NULL),
                     0);
    assert_int_equal(tokenring_replication_parse(&zero, "dc1=0", 5, NULL), 0);
    assert_int_equal(tokenring_replication_parse(&simple, "SimpleStrategy:3", 16, NULL), 0);

    /* The query: datacenters with rf > 0 and no node, in the replication's order; a
     * datacenter with rf 0 asks for nothing. */
    assert_int_equal(tokenring_replication_empty_dc_count(only9, ring), 1);
    assert_string_equal(tokenring_replication_empty_dc(only9, ring, 0), "dc9");
    assert_null(tokenring_replication_empty_dc(only9, ring, 1));
    assert_int_equal(tokenring_replication_empty_dc_count(mixed, ring), 2);
    assert_string_equal(tokenring_replication_empty_dc(mixed, ring, 0), "dc8");
    assert_string_equal(tokenring_replication_empty_dc(mixed, ring, 1), "dc9");
    assert_int_equal(tokenring_replication_empty_dc_count(zero, ring), 0);
    assert_int_equal(tokenring_replication_empty_dc_count(simple, ring), 0);
    assert_null(tokenring_replication_empty_dc(simple, ring, 0));
    assert_int_equal(tokenring_replication_empty_dc_count(NULL, ring), 0);
    assert_int_equal(tokenring_replication_empty_dc_count(only9, NULL), 0);
    assert_null(tokenring_replication_empty_dc(NULL, ring, 0));

    /* SKIP_EMPTY_DC: skipped where another datacenter has replicas... */
    tokenring_placement *p;
    tokenring_error err;
    assert_int_equal(tokenring_placement_build(&p, ring, mixed, TOKENRING_PLACEMENT_SKIP_EMPTY_DC,
                                               &err),
                     TOKENRING_OK);
    tokenring_replicas rep;
    assert_int_equal(tokenring_placement_replicas(&rep, p, 0), TOKENRING_OK);
    assert_int_equal(rep.count, 2);
    tokenring_placement_free(p);
    /* ...and a clear failure naming the datacenter when no replica results. */
    p = NULL;
    assert_int_equal(tokenring_placement_build(&p, ring, only9, TOKENRING_PLACEMENT_SKIP_EMPTY_DC,
                                               &err),
                     TOKENRING_E_IMPOSSIBLE);
    assert_null(p);
    assert_non_null(strstr(err.message, "no replica: datacenter 'dc9' of the replication has no "
                                        "node in the ring"));
    tokenring_replication *two;
    assert_int_equal(tokenring_replication_parse(&two, "dc9=3, dc8=1", 12, NULL), 0);
    assert_int_equal(tokenring_placement_build(&p, ring, two, TOKENRING_PLACEMENT_SKIP_EMPTY_DC,
                                               &err),
                     TOKENRING_E_IMPOSSIBLE);
    assert_non_null(strstr(err.message, "datacenters 'dc8', 'dc9' of the replication have no"));
    assert_int_equal(tokenring_placement_build(&p, ring, zero, TOKENRING_PLACEMENT_SKIP_EMPTY_DC,
                                               &err),
                     TOKENRING_E_IMPOSSIBLE);
    assert_non_null(strstr(err.message, "every datacenter has replication factor 0"));
    tokenring_replication *simple0;
    assert_int_equal(tokenring_replication_simple(&simple0, 0, 0, NULL), 0);
    assert_int_equal(tokenring_placement_build(&p, ring, simple0,
                                               TOKENRING_PLACEMENT_SKIP_EMPTY_DC, &err),
                     TOKENRING_E_IMPOSSIBLE);
    assert_non_null(strstr(err.message, "SimpleStrategy with replication factor 0"));
    assert_int_equal(tokenring_placement_build(&p, ring, simple0, 0, &err), TOKENRING_OK);
    tokenring_placement_free(p);
    tokenring_replication_free(simple0);
    /* The 1.0 behaviours stay: no flag refuses, ALLOW_UNKNOWN_DC gives empty replicas. */
    assert_int_equal(tokenring_placement_build(&p, ring, only9, 0, &err), TOKENRING_E_NOTFOUND);
    assert_int_equal(tokenring_placement_build(&p, ring, only9,
                                               TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC, &err),
                     TOKENRING_OK);
    assert_int_equal(tokenring_placement_replicas(&rep, p, 0), TOKENRING_OK);
    assert_int_equal(rep.count, 0);
    tokenring_placement_free(p);
    assert_int_equal(tokenring_placement_build(&p, ring, only9, 0x4, &err), TOKENRING_E_INVAL);

    /* An update keeps the flag: the new ring losing dc1's last nodes fails the same way. */
    tokenring_topology *t2;
    assert_int_equal(tokenring_topology_new(&t2), TOKENRING_OK);
    int64_t tok[] = { 1, 2 };
    assert_int_equal(tokenring_topology_add_node(t2, "x", "dc1", "r1", tok, 1, NULL), 0);
    assert_int_equal(tokenring_topology_add_node(t2, "y", "dc2", "r1", tok + 1, 1, NULL), 0);
    tokenring_ring *r2, *r3;
    assert_int_equal(tokenring_ring_build(&r2, t2, NULL), 0);
    tokenring_replication *d1;
    assert_int_equal(tokenring_replication_parse(&d1, "dc1=1", 5, NULL), 0);
    assert_int_equal(tokenring_placement_build(&p, r2, d1, TOKENRING_PLACEMENT_SKIP_EMPTY_DC,
                                               NULL),
                     0);
    assert_int_equal(tokenring_topology_remove_node(t2, "x", NULL), 0);
    assert_int_equal(tokenring_ring_build(&r3, t2, NULL), 0);
    tokenring_placement *q = NULL;
    assert_int_equal(tokenring_placement_update(&q, p, r3, &err), TOKENRING_E_IMPOSSIBLE);
    assert_null(q);
    assert_non_null(strstr(err.message, "'dc1'"));
    tokenring_placement_free(p);
    tokenring_ring_free(r3);
    tokenring_ring_free(r2);
    tokenring_topology_free(t2);
    tokenring_replication_free(d1);
    tokenring_replication_free(two);
    tokenring_replication_free(only9);
    tokenring_replication_free(mixed);
    tokenring_replication_free(zero);
    tokenring_replication_free(simple);
    tokenring_ring_free(ring);
    tokenring_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(status_names),
        cmocka_unit_test(availability_progress_and_cancel),
        cmocka_unit_test(availability_cancel_in_completions),
        cmocka_unit_test(allocator_progress_and_cancel),
        cmocka_unit_test(migration_progress_and_cancel),
        cmocka_unit_test(empty_datacenters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
