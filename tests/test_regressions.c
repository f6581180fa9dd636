/* SPDX-License-Identifier: Apache-2.0 */
/* Inputs found by fuzzing, each a bug that was fixed; the inputs themselves are also in
 * fuzz/corpus/<target>/ and replayed by the fuzz suite. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"

/* Format then parse again must give the same text. */
static void round_trips(const tokenring_replication *r)
{
    char a[1024], b[1024];
    size_t la = 0, lb = 0;
    assert_int_equal(tokenring_replication_format(a, sizeof a, &la, r), TOKENRING_OK);
    tokenring_replication *again = NULL;
    tokenring_error err;
    int rc = tokenring_replication_parse(&again, a, la, &err);
    if (rc != TOKENRING_OK)
        fail_msg("'%s' does not parse back: %s", a, err.message);
    assert_int_equal(tokenring_replication_format(b, sizeof b, &lb, again), TOKENRING_OK);
    assert_string_equal(a, b);
    tokenring_replication_free(again);
}

/* fuzz/corpus/replication/crash-4f832ca6...: the bare form "x=0,class=1" made a
 * datacenter called 'class', which formats as a CQL map with 'class' twice. A datacenter
 * may not be called 'class' or 'replication_factor' (the map's option keys). */
static void replication_option_names_are_not_datacenters(void **state)
{
    (void)state;
    static const char *bad[] = {
        "x=0,class=1",
        "class=3",
        "NetworkTopologyStrategy:dc1=3,replication_factor=2",
        "ccla\x4e\x65      ator.Netw           \t=0,.c1=3,class=1,.08=0",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        tokenring_replication *r = (tokenring_replication *)&r; /* must stay untouched */
        tokenring_replication *keep = r;
        tokenring_error err;
        int rc = tokenring_replication_parse(&r, bad[i], strlen(bad[i]), &err);
        assert_int_equal(rc, TOKENRING_E_INVAL);
        assert_ptr_equal(r, keep);
        assert_non_null(strstr(err.message, "cannot name a datacenter"));
        assert_int_equal(err.line, 1);
        assert_true(err.column >= 1);
    }
    tokenring_replication *r = NULL;
    assert_int_equal(tokenring_replication_network(&r), TOKENRING_OK);
    assert_int_equal(tokenring_replication_set_dc(r, "class", 1, 0, NULL), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_replication_set_dc(r, "replication_factor", 1, 0, NULL),
                     TOKENRING_E_INVAL);
    assert_int_equal(tokenring_replication_dc_count(r), 0);
    /* names that merely look like them, and names with quotes, still work and round-trip */
    static const char *good[] = { "Class", "class ", "classes", "it's", "say \"hi\"", "a,b=c",
                                  "{'x'}", " lead" };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        assert_int_equal(tokenring_replication_set_dc(r, good[i], (int32_t)i, 0, NULL),
                         TOKENRING_OK);
    assert_int_equal(tokenring_replication_dc_count(r), sizeof good / sizeof *good);
    round_trips(r);
    tokenring_replication_free(r);
}

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
        cmocka_unit_test(replication_option_names_are_not_datacenters),
        cmocka_unit_test(movement_with_no_replicas),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
