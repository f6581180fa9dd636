/* SPDX-License-Identifier: Apache-2.0 */
/* Empty and missing racks in every format: the empty rack "" (cqlsh '', the topology
 * file's rack="", describering's rack:) read, written and read back the same, a cqlsh
 * null rack read as UNKNOWN_RACK, and a null datacenter or an empty name refused. */
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

/* Empty and missing racks as Cassandra reads them: an empty rack is the rack "" (cqlsh
 * prints '' as an empty cell; the topology file writes rack=""), a null rack in
 * system.peers is the snitch's DEFAULT_RACK "UNKNOWN_RACK" (GossipingPropertyFileSnitch
 * getRack: loadDcRackInfo has no entry for a peer whose rack is null). */
static void empty_and_missing_racks(void **state)
{
    (void)state;
    static const char cq[] = " peer     | data_center | rack | tokens\n"
                             "----------+-------------+------+--------\n"
                             " 10.0.0.1 |         dc1 |      | {'10'}\n"
                             " 10.0.0.2 |         dc1 | null | {'20'}\n"
                             " 10.0.0.3 |         dc1 |   r1 | {'30'}\n"
                             "\n(3 rows)\n";
    tokenring_cluster *c = parse_ok(TOKENRING_INPUT_CQLSH, cq, sizeof cq - 1, 0,
                                    TOKENRING_INPUT_CQLSH);
    tokenring_cluster_node_info n;
    const char *want[] = { "", "UNKNOWN_RACK", "r1" };
    assert_string_equal(TOKENRING_DEFAULT_RACK, "UNKNOWN_RACK"); /* the public name of it */
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(tokenring_cluster_node(&n, c, i), TOKENRING_OK);
        assert_string_equal(n.rack, want[i]);
    }
    const tokenring_topology *t = tokenring_cluster_topology(c);
    assert_non_null(t);
    tokenring_ring *ring = NULL;
    assert_int_equal(tokenring_ring_build(&ring, t, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_ring_rack_count(ring), 3);
    tokenring_ring_free(ring);
    /* Written as a topology file, the empty rack is quoted and reads back the same. */
    char buf[1024];
    size_t len = 0;
    assert_int_equal(tokenring_cluster_format(buf, sizeof buf, &len, c), TOKENRING_OK);
    assert_non_null(strstr(buf, "node 10.0.0.1 dc=dc1 rack=\"\" "));
    assert_non_null(strstr(buf, "rack=UNKNOWN_RACK"));
    tokenring_cluster *back = parse_ok(TOKENRING_INPUT_TOPOLOGY, buf, len, 0,
                                       TOKENRING_INPUT_TOPOLOGY);
    assert_int_equal(tokenring_cluster_node(&n, back, 0), TOKENRING_OK);
    assert_string_equal(n.rack, "");
    tokenring_cluster_free(back);
    tokenring_cluster_free(c);
    /* rack= with nothing after it is the same rack "". */
    static const char tf[] = "node a dc=d rack= tokens=1\nnode b dc=d rack=\"\" tokens=2\n";
    c = parse_ok(TOKENRING_INPUT_TOPOLOGY, tf, sizeof tf - 1, 0, TOKENRING_INPUT_TOPOLOGY);
    assert_int_equal(tokenring_cluster_node(&n, c, 1), TOKENRING_OK);
    assert_string_equal(n.rack, "");
    assert_int_equal(tokenring_ring_build(&ring, tokenring_cluster_topology(c), NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_ring_rack_count(ring), 1);
    tokenring_ring_free(ring);
    tokenring_cluster_free(c);
    /* nodetool status prints nothing under Rack (its last column), nodetool ring 12
     * spaces: the status then follows the address. */
    static const char st[] =
        "Datacenter: dc1\n===============\nStatus=Up/Down\n|/ State=Normal/Leaving/Joining/Moving\n"
        "--  Address   Load     Tokens  Owns  Host ID                               Rack\n"
        "UN  10.0.0.1  100 KiB  1       ?     2c7d204b-8375-4ee1-b2c2-bcda888f3cfb  \n"
        "UN  10.0.0.2  100 KiB  1       ?     3c7d204b-8375-4ee1-b2c2-bcda888f3cfb  r1\n";
    c = parse_ok(TOKENRING_INPUT_NODETOOL_STATUS, st, sizeof st - 1, 0,
                 TOKENRING_INPUT_NODETOOL_STATUS);
    assert_int_equal(tokenring_cluster_node(&n, c, 0), TOKENRING_OK);
    assert_string_equal(n.rack, "");
    assert_string_equal(n.host_id, "2c7d204b-8375-4ee1-b2c2-bcda888f3cfb");
    assert_int_equal(tokenring_cluster_node(&n, c, 1), TOKENRING_OK);
    assert_string_equal(n.rack, "r1");
    tokenring_cluster_free(c);
    static const char rg[] =
        "Datacenter: dc1\n==========\n"
        "Address    Rack        Status State   Load            Owns                Token\n"
        "                                                                          20\n"
        "10.0.0.1               Up     Normal  100 KiB         ?                   10\n"
        "10.0.0.2   Up          Down   Normal  100 KiB         ?                   20\n";
    c = parse_ok(TOKENRING_INPUT_NODETOOL_RING, rg, sizeof rg - 1, 0,
                 TOKENRING_INPUT_NODETOOL_RING);
    assert_int_equal(tokenring_cluster_node(&n, c, 0), TOKENRING_OK);
    assert_string_equal(n.rack, "");
    assert_int_equal(n.liveness, TOKENRING_UP);
    assert_int_equal(n.token_count, 1);
    assert_int_equal(n.tokens[0], 10);
    /* a rack named Up is still a rack when a status follows it */
    assert_int_equal(tokenring_cluster_node(&n, c, 1), TOKENRING_OK);
    assert_string_equal(n.rack, "Up");
    assert_int_equal(n.liveness, TOKENRING_DOWN);
    tokenring_cluster_free(c);
    /* describering prints ", rack:" then the rack (TokenRange.EndpointDetails): the rack
     * "" is ", rack:)"; the ring comes back with it. */
    static const char two[] = "node a dc=d rack= tokens=10\nnode b dc=d rack=r tokens=20\n"
                              "node c dc=d rack=\"\" tokens=30\n";
    c = parse_ok(TOKENRING_INPUT_TOPOLOGY, two, sizeof two - 1, 0, TOKENRING_INPUT_TOPOLOGY);
    size_t dlen;
    char *dtext = describe(tokenring_cluster_topology(c), "d=2", &dlen);
    assert_non_null(strstr(dtext, "EndpointDetails(host:a, datacenter:d, rack:)"));
    tokenring_cluster *dback = parse_ok(TOKENRING_INPUT_AUTO, dtext, dlen, 0, DR);
    same_nodes(c, dback);
    assert_int_equal(tokenring_cluster_node(&n, dback, 0), TOKENRING_OK);
    assert_string_equal(n.rack, "");
    tokenring_cluster_free(dback);
    free(dtext);
    tokenring_cluster_free(c);
    /* A null datacenter is still refused, naming the column; an empty node name too. */
    static const char nodc[] = " peer | data_center | rack | tokens\n---+---+---+---\n"
                               " a | null | r | {'1'}\n";
    fails(TOKENRING_INPUT_CQLSH, nodc, sizeof nodc - 1, 0, TOKENRING_E_PARSE, 3, 6,
          "data_center is null", (const char *)NULL);
    static const char nodc2[] = "node a dc= rack=r tokens=1\n";
    fails(TOKENRING_INPUT_TOPOLOGY, nodc2, sizeof nodc2 - 1, 0, TOKENRING_E_INVAL, 1, 11,
          "datacenter name is empty", (const char *)NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(empty_and_missing_racks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
