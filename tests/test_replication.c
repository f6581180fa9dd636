/* SPDX-License-Identifier: Apache-2.0 */
/* Replication settings (replication.h) beyond what test_ring.c checks: the factors of one
 * datacenter (tokenring_replication_dc_factor), and the option names of the CQL map that
 * cannot name a datacenter. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"

static void replication_dc_factor(void **state)
{
    (void)state;
    tokenring_replication *r;
    assert_int_equal(tokenring_replication_parse(&r, "dc1=3/1,dc2=2", 13, NULL), TOKENRING_OK);
    int32_t rf = -1, tr = -1;
    assert_int_equal(tokenring_replication_dc_factor(&rf, &tr, r, "dc1"), TOKENRING_OK);
    assert_int_equal(rf, 3);
    assert_int_equal(tr, 1);
    assert_int_equal(tokenring_replication_dc_factor(&rf, &tr, r, "dc2"), TOKENRING_OK);
    assert_int_equal(rf, 2);
    assert_int_equal(tr, 0);
    assert_int_equal(tokenring_replication_dc_factor(&rf, NULL, r, "dc3"), TOKENRING_OK);
    assert_int_equal(rf, 0); /* no replica there */
    rf = 7;
    assert_int_equal(tokenring_replication_dc_factor(&rf, NULL, r, NULL), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_replication_dc_factor(NULL, NULL, r, "dc1"), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_replication_dc_factor(&rf, NULL, NULL, "dc1"), TOKENRING_E_INVAL);
    assert_int_equal(rf, 7); /* untouched on error */
    tokenring_replication_free(r);
    assert_int_equal(tokenring_replication_simple(&r, 2, 1, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_replication_dc_factor(&rf, &tr, r, "anywhere"), TOKENRING_OK);
    assert_int_equal(rf, 2);
    assert_int_equal(tr, 1);
    tokenring_replication_free(r);
}

/* A fuzz-found bug, fixed: the input is also in fuzz/corpus/replication/ and replayed by
 * the fuzz suite. */

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(replication_dc_factor),
        cmocka_unit_test(replication_option_names_are_not_datacenters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
