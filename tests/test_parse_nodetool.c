/* SPDX-License-Identifier: Apache-2.0 */
/* `nodetool ring` and `nodetool status` rows as printed (lib/parse/parse_nodetool.c):
 * a long rack name running into the Status column, and the Load and Owns cells kept as
 * printed, through a merge of the two listings. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"
#include "testdata.h"
#include "cluster_checks.h"

/* --------------------------------------------------- ring: rack into Status */

static void ring_long_racks(void **state)
{
    (void)state;
    size_t len;
    char *text = slurp("samples/written/ring-5.0-long-racks-ec2.txt", &len);
    tokenring_cluster *c = parse_ok(TOKENRING_INPUT_AUTO, text, len, 0,
                                    TOKENRING_INPUT_NODETOOL_RING);
    assert_int_equal(tokenring_cluster_node_count(c), 4);
    static const struct {
        const char *name, *rack;
        int state, live;
        size_t ntok;
    } want[] = {
        { "10.0.1.11", "us-east-1a-prod", TOKENRING_STATE_NORMAL, TOKENRING_UP, 2 },
        { "10.0.2.12", "use1-az2-prod", TOKENRING_STATE_NORMAL, TOKENRING_UP, 2 },
        { "10.0.3.13", "us-east-1c12", TOKENRING_STATE_NORMAL, TOKENRING_DOWN, 2 },
        { "10.0.4.14", "us-east-1d-long-rack-name", TOKENRING_STATE_JOINING,
          TOKENRING_UNKNOWN, 1 },
    };
    for (size_t i = 0; i < 4; i++) {
        tokenring_cluster_node_info n;
        assert_int_equal(tokenring_cluster_node(&n, c, i), TOKENRING_OK);
        assert_string_equal(n.name, want[i].name);
        assert_string_equal(n.datacenter, "us-east-1");
        assert_string_equal(n.rack, want[i].rack);
        assert_int_equal(n.state, want[i].state);
        assert_int_equal(n.liveness, want[i].live);
        assert_int_equal(n.token_count, want[i].ntok);
    }
    assert_string_equal(owner_of(c, 9000000000000000000LL), "10.0.3.13");
    tokenring_cluster_free(c);
    free(text);

    /* under 12 characters nodetool leaves a space: a glued word is not split */
    static const char short_rack[] =
        "Datacenter: dc1\n==========\n"
        "Address    Rack        Status State   Load            Owns                Token\n"
        "10.0.0.1   rack1Up     Normal  1 KiB           100.00%             5\n";
    fails(TOKENRING_INPUT_NODETOOL_RING, short_rack, sizeof short_rack - 1, 0,
          TOKENRING_E_PARSE, 4, 24, "expected status Up, Down or ?, found 'Normal'", NULL);
}

/* ------------------------------------------- nodetool Load and Owns kept */

static void pasted_columns(void **state)
{
    (void)state;
    size_t len, rl;
    char *text = slurp("samples/status-5.0-uj-joining-vnodes16.txt", &len);
    tokenring_cluster *c = parse_ok(TOKENRING_INPUT_AUTO, text, len, 0,
                                    TOKENRING_INPUT_NODETOOL_STATUS);
    const char *load, *owns;
    assert_int_equal(tokenring_cluster_node_columns(&load, &owns, c, 0), TOKENRING_OK);
    assert_string_equal(load, "30.9 KiB"); /* two fields, one cell */
    assert_null(owns);                     /* '?' */
    assert_int_equal(tokenring_cluster_node_columns(&load, NULL, c, 1), TOKENRING_OK);
    assert_string_equal(load, "538.24 KiB");
    assert_int_equal(tokenring_cluster_node_columns(NULL, NULL, c, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_node_columns(&load, &owns, NULL, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_node_columns(&load, &owns, c, 2), TOKENRING_E_RANGE);
    /* merged with a ring: the first input's cells stay, the ring fills none in */
    char *ring = slurp("samples/ring-5.0-joining-node-vnodes16.txt", &rl);
    assert_int_equal(tokenring_cluster_parse(c, TOKENRING_INPUT_NODETOOL_RING, ring, rl, 0, NULL,
                                             NULL), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_node_columns(&load, &owns, c, 1), TOKENRING_OK);
    assert_string_equal(load, "538.24 KiB");
    assert_string_equal(owns, "100.00%"); /* from the ring: status had '?' */
    tokenring_cluster_free(c);
    /* the ring alone: Load as printed in its rows, Owns of the first row */
    c = parse_ok(TOKENRING_INPUT_NODETOOL_RING, ring, rl, 0, TOKENRING_INPUT_NODETOOL_RING);
    assert_int_equal(tokenring_cluster_node_columns(&load, &owns, c, 0), TOKENRING_OK);
    assert_non_null(load);
    assert_non_null(strstr(load, "KiB"));
    tokenring_cluster_free(c);
    /* a rack glued to the status keeps the Load words */
    static const char glued[] =
        "Datacenter: dc1\n==========\nAddress   Rack        Status State   Load            "
        "Owns                Token\n                                                        "
        "                         5\n10.0.0.1  us-east-1a-prodUp     Normal  1.5 MiB         "
        "100.00%             5\n";
    c = parse_ok(TOKENRING_INPUT_NODETOOL_RING, glued, sizeof glued - 1, 0,
                 TOKENRING_INPUT_NODETOOL_RING);
    assert_int_equal(tokenring_cluster_node_columns(&load, &owns, c, 0), TOKENRING_OK);
    assert_string_equal(load, "1.5 MiB");
    assert_string_equal(owns, "100.00%");
    tokenring_cluster_free(c);
    free(ring);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ring_long_racks),
        cmocka_unit_test(pasted_columns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
