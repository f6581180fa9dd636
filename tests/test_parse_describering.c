/* SPDX-License-Identifier: Apache-2.0 */
/* `nodetool describering` read as a topology (lib/parse/parse_describering.c): every
 * sample read as a ring, round trips through Cassandra's placement on the golden
 * topologies (ranges in a scrambled order, as Cassandra's hash map gives them), a
 * datacenter without replicas, reordered endpoints, and every refusal with its range,
 * line:column and reason when the output does not determine a topology. */
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

/* ------------------------------------------------------- describering: read */

static void describering_samples(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        size_t nodes, tokens_each;
    } cases[] = {
        { "samples/describering-2.0-3nodes-single-token-rf3.txt", 3, 1 },
        { "samples/describering-2.2-3nodes-anonymized.txt", 3, 1 },
        { "samples/describering-3.11-3nodes-single-token-rf3.txt", 3, 1 },
        { "samples/describering-3.x-ipv6-3nodes-substituted.txt", 3, 1 },
        { "samples/describering-5.0-1node-vnodes16-rf1.txt", 1, 16 },
        { "samples/describering-ccm-vnodes256-6nodes-3racks.txt", 6, 256 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t len;
        char *text = slurp(cases[i].file, &len);
        assert_int_equal(tokenring_input_detect(text, len), DR);
        tokenring_cluster *c = parse_ok(TOKENRING_INPUT_AUTO, text, len, 0, DR);
        assert_int_equal(tokenring_cluster_node_count(c), cases[i].nodes);
        for (size_t k = 0; k < cases[i].nodes; k++) {
            tokenring_cluster_node_info n;
            assert_int_equal(tokenring_cluster_node(&n, c, k), TOKENRING_OK);
            assert_int_equal(n.token_count, cases[i].tokens_each);
        }
        assert_non_null(tokenring_cluster_topology(c));
        assert_int_equal(tokenring_cluster_flags(c), 0);
        tokenring_cluster_free(c);
        free(text);
    }

    /* 2.0: the range (3074457345618258602, -2^63] names 127.0.0.1 first: it owns -2^63 */
    size_t len;
    char *text = slurp("samples/describering-2.0-3nodes-single-token-rf3.txt", &len);
    tokenring_cluster *c = parse_ok(DR, text, len, 0, DR);
    assert_string_equal(owner_of(c, INT64_MIN), "127.0.0.1");
    assert_string_equal(owner_of(c, -3074457345618258603LL), "127.0.0.2");
    assert_string_equal(owner_of(c, 3074457345618258602LL), "127.0.0.3");
    node_has(c, "127.0.0.1", "datacenter1", "rack1", 1);
    tokenring_cluster_free(c);
    free(text);

    text = slurp("samples/describering-2.2-3nodes-anonymized.txt", &len);
    c = parse_ok(DR, text, len, 0, DR);
    assert_string_equal(owner_of(c, INT64_MIN), "3.4.5.6");
    node_has(c, "1.2.3.4", "gew", "rac1", 1);
    tokenring_cluster_free(c);
    free(text);

    text = slurp("samples/describering-3.x-ipv6-3nodes-substituted.txt", &len);
    c = parse_ok(DR, text, len, 0, DR);
    assert_string_equal(owner_of(c, -9223372036854775806LL),
                        "713c:85de:1dfa:b614:e219:1bde:28cf:d160");
    tokenring_cluster_free(c);
    free(text);

    /* 3 racks, 1,536 unsorted ranges */
    text = slurp("samples/describering-ccm-vnodes256-6nodes-3racks.txt", &len);
    c = parse_ok(DR, text, len, 0, DR);
    node_has(c, "127.0.0.1", "dc1", "rack1", 256);
    node_has(c, "127.0.0.4", "dc1", "rack2", 256);
    node_has(c, "127.0.0.6", "dc1", "rack3", 256);
    /* its first line: (236226276953227033, 274158322884995148] names 127.0.0.1 first */
    assert_string_equal(owner_of(c, 274158322884995148LL), "127.0.0.1");
    tokenring_cluster_free(c);
    free(text);
}

/* ------------------------------------------------ describering: round trips */

static void describering_round_trips(void **state)
{
    (void)state;
    static const struct {
        const char *file, *repl;
    } cases[] = {
        /* two datacenters, racks = rf in dc1 (order compared) */
        { "replicas_2dc_3r_2r_vn8.topology.tsv", "dc1=3,dc2=2" },
        /* 3 racks, rf 5: fewer racks than replicas, sets compared */
        { "replicas_12n_3racks_vn16.topology.tsv", "dc1=5" },
        { "replicas_2racks_rf3_vn8.topology.tsv", "dc1=3" },
        { "replicas_lopsided_racks.topology.tsv", "dc1=3" },
        /* a datacenter with fewer nodes than its rf */
        { "replicas_dc_short_of_rf.topology.tsv", "dc1=3,dc2=3" },
        /* SimpleStrategy across two datacenters: the per-datacenter counts vary */
        { "replicas_2dc_3r_2r_vn8.topology.tsv", "SimpleStrategy:3" },
        { "replicas_edges.topology.tsv", "SimpleStrategy:2" },
        { "replicas_toy.topology.tsv", "SimpleStrategy:1" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        tokenring_cluster *orig = load_tsv(cases[i].file);
        size_t len;
        char *text = describe(tokenring_cluster_topology(orig), cases[i].repl, &len);
        tokenring_cluster *back = parse_ok(TOKENRING_INPUT_AUTO, text, len, 0, DR);
        same_nodes(orig, back);
        /* and merged with the original: nothing conflicts */
        tokenring_error err;
        assert_int_equal(tokenring_cluster_parse(orig, DR, text, len, 0, NULL, &err),
                         TOKENRING_OK);
        tokenring_cluster_free(back);
        tokenring_cluster_free(orig);
        free(text);
    }
}

/* A keyspace with no replica in dc2: dc2's nodes appear nowhere, and the ranges ending at
 * their tokens name the next dc1 replica first. The listing is self-consistent (the
 * reader cannot tell), but merged with an input that names dc2 it conflicts. */
static void describering_dc_without_replicas(void **state)
{
    (void)state;
    tokenring_cluster *orig = load_tsv("replicas_2dc_single_token.topology.tsv");
    size_t len;
    char *text = describe(tokenring_cluster_topology(orig), "dc1=2", &len);
    tokenring_cluster *back = parse_ok(DR, text, len, 0, DR);
    assert_int_equal(tokenring_cluster_node_count(back), 6); /* dc1 only: b0..b3 absent */
    /* b2 owns -9081300425231719150; the next dc1 node on the ring is a0 */
    assert_string_equal(owner_of(orig, -9081300425231719150LL), "b2");
    assert_string_equal(owner_of(back, -9081300425231719150LL), "a0");
    tokenring_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(tokenring_cluster_parse(orig, DR, text, len, 0, NULL, &err),
                     TOKENRING_E_EXISTS);
    assert_non_null(strstr(err.message, "different tokens"));
    tokenring_cluster_free(back);
    tokenring_cluster_free(orig);
    free(text);
}

/* ----------------------------------------------------- describering: refused */

/* Rewrites line k (0-based) of text with endpoints (and rpc_endpoints and details) in
 * the order perm, for a range of 3 endpoints. Returns a new text. */
static char *permute_line(const char *text, size_t len, size_t k, const int perm[3])
{
    char *out = malloc(len + 1);
    assert_non_null(out);
    memcpy(out, text, len + 1);
    char *line = out;
    for (size_t i = 0; i < k; i++) {
        line = strchr(line, '\n');
        assert_non_null(line);
        line++;
    }
    char *eol = strchr(line, '\n');
    size_t ll = eol ? (size_t)(eol - line) : strlen(line);
    char *copy = strndup(line, ll);
    /* three lists: endpoints:[a, b, c], rpc_endpoints:[...], endpoint_details:[E(..), ...] */
    const char *keys[] = { "endpoints:[", "rpc_endpoints:[", "endpoint_details:[" };
    char *w = line;
    const char *r = copy;
    for (int li = 0; li < 3; li++) {
        const char *at = strstr(r, keys[li]);
        assert_non_null(at);
        at += strlen(keys[li]);
        memcpy(w, r, (size_t)(at - r));
        w += at - r;
        const char *item[3];
        size_t il[3];
        const char *p = at;
        for (int j = 0; j < 3; j++) {
            item[j] = p;
            const char *e = li == 2 ? strchr(p, ')') + 1 : p + strcspn(p, ",]");
            il[j] = (size_t)(e - p);
            p = e + (j < 2 ? 2 : 0); /* ", " */
        }
        for (int j = 0; j < 3; j++) {
            if (j) {
                memcpy(w, ", ", 2);
                w += 2;
            }
            memcpy(w, item[perm[j]], il[perm[j]]);
            w += il[perm[j]];
        }
        r = p;
    }
    memcpy(w, r, strlen(r));
    free(copy);
    return out;
}

static void describering_wrong_order(void **state)
{
    (void)state;
    size_t len;
    char *text = slurp("samples/describering-ccm-vnodes256-6nodes-3racks.txt", &len);
    /* One range's endpoints reordered (3 racks, rf 3: Cassandra's order is the same in
     * every version, so the order is compared). A reordered listing is refused, unless it
     * is exactly what Cassandra prints for another ring (the one where the range's new
     * first endpoint owns its end): then it is read as that ring. */
    static const int swap01[3] = { 1, 0, 2 }, swap12[3] = { 0, 2, 1 };
    int refused = 0, tried = 0;
    for (size_t k = 2; k < 1538; k += 97) {
        for (int s = 0; s < 2; s++) {
            char *bad = permute_line(text, len, k, s ? swap12 : swap01);
            assert_int_equal(strlen(bad), len);
            tokenring_cluster *c = NULL;
            tokenring_error err;
            memset(&err, 0, sizeof err);
            assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
            int rc = tokenring_cluster_parse(c, DR, bad, len, 0, NULL, &err);
            tried++;
            if (rc == TOKENRING_OK) {
                /* the range's end went to the new first endpoint */
                const char *line = bad;
                for (size_t i = 0; i < k; i++)
                    line = strchr(line, '\n') + 1;
                long long end = 0;
                char first[32];
                assert_int_equal(sscanf(line, "\tTokenRange(start_token:%*d, end_token:%lld, "
                                              "endpoints:[%31[^,]", &end, first), 2);
                assert_int_equal(s, 0); /* a later swap never fits another ring here */
                assert_string_equal(owner_of(c, end), first);
                assert_int_equal(tokenring_cluster_node_count(c), 6);
            } else {
                if (rc != TOKENRING_E_PARSE || (!strstr(err.message, "first endpoint") &&
                                                !strstr(err.message, "Cassandra's order")))
                    fail_msg("line %zu swap %d: rc %d '%s'", k + 1, s, rc, err.message);
                assert_int_equal(tokenring_cluster_node_count(c), 0);
                refused++;
            }
            tokenring_cluster_free(c);
            free(bad);
        }
    }
    assert_true(refused * 10 >= tried * 9);
    free(text);
}

static const char R3[] =
    "Schema Version:x\n"
    "TokenRange: \n"
    "\tTokenRange(start_token:30, end_token:10, endpoints:[a, b], rpc_endpoints:[a, b], "
    "endpoint_details:[EndpointDetails(host:a, datacenter:d, rack:r), "
    "EndpointDetails(host:b, datacenter:d, rack:r)])\n"
    "\tTokenRange(start_token:10, end_token:20, endpoints:[b, c], rpc_endpoints:[b, c], "
    "endpoint_details:[EndpointDetails(host:b, datacenter:d, rack:r), "
    "EndpointDetails(host:c, datacenter:d, rack:r)])\n"
    "\tTokenRange(start_token:20, end_token:30, endpoints:[c, a], rpc_endpoints:[c, a], "
    "endpoint_details:[EndpointDetails(host:c, datacenter:d, rack:r), "
    "EndpointDetails(host:a, datacenter:d, rack:r)])\n";

/* R3 with the first occurrence of from replaced by to. */
static char *edit(const char *from, const char *to)
{
    const char *at = strstr(R3, from);
    assert_non_null(at);
    size_t n = strlen(R3) - strlen(from) + strlen(to);
    char *s = malloc(n + 1);
    assert_non_null(s);
    size_t pre = (size_t)(at - R3);
    memcpy(s, R3, pre);
    memcpy(s + pre, to, strlen(to));
    strcpy(s + pre + strlen(to), at + strlen(from));
    return s;
}

static void fails_edit(const char *from, const char *to, int code, uint32_t line,
                       uint32_t col, const char *w1, const char *w2)
{
    char *s = edit(from, to);
    fails(TOKENRING_INPUT_AUTO, s, strlen(s), 0, code, line, col, w1, w2, NULL);
    free(s);
}

static void describering_errors(void **state)
{
    (void)state;
    /* the base parses: a owns 10, b 20, c 30 */
    tokenring_cluster *c = parse_ok(TOKENRING_INPUT_AUTO, R3, strlen(R3), 0, DR);
    assert_string_equal(owner_of(c, 10), "a");
    assert_string_equal(owner_of(c, 20), "b");
    assert_string_equal(owner_of(c, 30), "c");
    tokenring_cluster_free(c);

    /* what is missing, with the range */
    fails_edit(", datacenter:d, rack:r), EndpointDetails(host:b", "), EndpointDetails(host:b",
               TOKENRING_E_PARSE, 3, 122, "range (30, 10]: endpoint a has no datacenter", NULL);
    fails_edit(", rack:r), EndpointDetails(host:b", "), EndpointDetails(host:b",
               TOKENRING_E_PARSE, 3, 122, "endpoint a has no rack", NULL);
    fails_edit("endpoints:[a, b], rpc_endpoints:[a, b], endpoint_details:["
               "EndpointDetails(host:a, datacenter:d, rack:r), "
               "EndpointDetails(host:b, datacenter:d, rack:r)]",
               "endpoints:[], rpc_endpoints:[], endpoint_details:[]", TOKENRING_E_PARSE, 3, 2,
               "range (30, 10] has no endpoint", "which node owns 10");
    /* tiling */
    fails_edit("start_token:10, end_token:20", "start_token:15, end_token:20",
               TOKENRING_E_PARSE, 4, 2, "range (15, 20] starts at 15, but no range ends there",
               "between 10 and 15 are missing");
    fails_edit("start_token:20, end_token:30", "start_token:10, end_token:30",
               TOKENRING_E_PARSE, 5, 2, "range (10, 30] overlaps the range ending at 20", NULL);
    fails_edit("start_token:20, end_token:30", "start_token:10, end_token:20",
               TOKENRING_E_EXISTS, 5, 2, "a second range ending at 20 (the first is on line 4)",
               NULL);
    /* the lists disagree */
    fails_edit("EndpointDetails(host:b, datacenter:d, rack:r)])\n\tTokenRange(start_token:10",
               "EndpointDetails(host:z, datacenter:d, rack:r)])\n\tTokenRange(start_token:10",
               TOKENRING_E_PARSE, 3, 169, "endpoint_details lists z where endpoints lists b",
               NULL);
    fails_edit("rpc_endpoints:[a, b]", "rpc_endpoints:[a]", TOKENRING_E_PARSE, 3, 2,
               "2 endpoints but 1 rpc_endpoints", NULL);
    fails_edit("rack:r), EndpointDetails(host:c, datacenter:d, rack:r)])\n\tTokenRange(start_token:20",
               "rack:q), EndpointDetails(host:c, datacenter:d, rack:r)])\n\tTokenRange(start_token:20",
               TOKENRING_E_EXISTS, 4, 144, "node b is in datacenter d, rack r", NULL);
    fails_edit("endpoints:[c, a], rpc_endpoints:[c, a], endpoint_details:["
               "EndpointDetails(host:c, datacenter:d, rack:r), "
               "EndpointDetails(host:a, datacenter:d, rack:r)]",
               "endpoints:[c, c], rpc_endpoints:[c, c], endpoint_details:["
               "EndpointDetails(host:c, datacenter:d, rack:r), "
               "EndpointDetails(host:c, datacenter:d, rack:r)]",
               TOKENRING_E_PARSE, 5, 169, "names endpoint c twice", NULL);
    /* the owner is not named first */
    fails_edit("endpoints:[b, c], rpc_endpoints:[b, c], endpoint_details:["
               "EndpointDetails(host:b, datacenter:d, rack:r), "
               "EndpointDetails(host:c, datacenter:d, rack:r)]",
               "endpoints:[c, b], rpc_endpoints:[c, b], endpoint_details:["
               "EndpointDetails(host:c, datacenter:d, rack:r), "
               "EndpointDetails(host:b, datacenter:d, rack:r)]",
               TOKENRING_E_PARSE, 3, 2, "node b is a replica of range (30, 10]",
               "first endpoint of no range");
    /* a's ranges: (30,10] must have replicas [a, b]; listing [a, c] does not fit */
    fails_edit("endpoints:[a, b], rpc_endpoints:[a, b], endpoint_details:["
               "EndpointDetails(host:a, datacenter:d, rack:r), "
               "EndpointDetails(host:b, datacenter:d, rack:r)]",
               "endpoints:[a, c], rpc_endpoints:[a, c], endpoint_details:["
               "EndpointDetails(host:a, datacenter:d, rack:r), "
               "EndpointDetails(host:c, datacenter:d, rack:r)]",
               TOKENRING_E_PARSE, 3, 2,
               "range (30, 10]: replica 2 is c where Cassandra's order "
               "(NetworkTopologyStrategy d=2) puts b",
               "(expected [a, b])");
    /* syntax */
    fails_edit("end_token:20", "end_token:2x", TOKENRING_E_PARSE, 4, 39,
               "expected the end token (a signed 64-bit integer), found '2x'", NULL);
    fails_edit("end_token:20", "end_token:9223372036854775808", TOKENRING_E_RANGE, 4, 39,
               "outside", NULL);
    fails_edit("start_token:10,", "start_token:10;", TOKENRING_E_PARSE, 4, 25,
               "expected the start token", NULL);
    fails_edit("end_token:20, endpoints", "end_token:20, replicas", TOKENRING_E_PARSE, 4, 43,
               "expected 'endpoints:'", NULL);
    fails_edit("rack:r)])\n\tTokenRange(start_token:10", "rack:r)]) x\n\tTokenRange(start_token:10",
               TOKENRING_E_PARSE, 3, 196, "unexpected text after the range", NULL);
    fails_edit("TokenRange: \n", "TokenRange: \nTokenRange:\n", TOKENRING_E_PARSE, 3, 1,
               "a second 'TokenRange:' header", NULL);
    fails_edit("TokenRange: \n", "TokenRange: \nSchema Version:y\n", TOKENRING_E_PARSE, 3, 1,
               "a second 'Schema Version:' line", NULL);
    fails_edit("TokenRange: \n", "TokenRange: \nhello\n", TOKENRING_E_PARSE, 3, 1,
               "expected 'Schema Version:', 'TokenRange:' or", NULL);
    fails(DR, "Schema Version:x\nTokenRange:\n", 28, 0, TOKENRING_E_PARSE, 2, 1,
          "without any TokenRange(...) line", NULL);
    static const char cut[] = "TokenRange(start_token:1, end_token:1, endpoints:[a, b";
    fails(DR, cut, sizeof cut - 1, 0, TOKENRING_E_PARSE, 1, 55, "cut short", NULL);

    /* NetworkTopologyStrategy d=2 gives (20, 30] [c, a], the listing [c]; the replica
     * counts differ between ranges, so no SimpleStrategy either */
    fails_edit("endpoints:[c, a], rpc_endpoints:[c, a], endpoint_details:["
               "EndpointDetails(host:c, datacenter:d, rack:r), "
               "EndpointDetails(host:a, datacenter:d, rack:r)]",
               "endpoints:[c], rpc_endpoints:[c], endpoint_details:["
               "EndpointDetails(host:c, datacenter:d, rack:r)]",
               TOKENRING_E_PARSE, 5, 2, "range (20, 30]: endpoints [c] do not fit",
               "NetworkTopologyStrategy d=2 gives [c, a]");
    fails_edit("start_token:20, end_token:30", "start_token:20, end_token:10",
               TOKENRING_E_EXISTS, 5, 2, "a second range ending at 10 (the first is on line 3)",
               NULL);
    /* one malformed part at a time, in a one-range listing */
    static const struct {
        const char *line, *want;
        uint32_t col;
    } bad[] = {
        { "TokenRange(start_token:, end_token:7, endpoints:[n]", "expected the start token", 24 },
        { "TokenRange(start_token:7, end_token:7, endpoints:n", "expected '['", 50 },
        { "TokenRange(start_token:7, end_token:7, endpoints:[n], rpc_endpoints:n",
          "expected '['", 69 },
        { "TokenRange(start_token:7, end_token:7, endpoints:[n], rpc_endpoints:[n], "
          "endpoint_details:n", "expected '['", 91 },
        { "TokenRange(start_token:7, end_token:7, endpoints:[n], rpc_endpoints:[n], "
          "endpoint_details:[EndpointDetails(host:n, datacenter:, rack:r)])",
          "expected a datacenter name", 127 },
        { "TokenRange(start_token:7, end_token:7, endpoints:[n], rpc_endpoints:[n], "
          "endpoint_details:[EndpointDetails(host:n, datacenter:d, rack:r",
          "expected ')'", 136 },
        { "TokenRange(start_token:7, end_token:7, endpoints:[n], rpc_endpoints:[n], "
          "endpoint_details:[EndpointDetails(host:n, datacenter:d, rack:r)]",
          "expected ')'", 138 },
        { "TokenRange(start_token:7, end_token:7, endpoints:[n, m], rpc_endpoints:[n, m], "
          "endpoint_details:[EndpointDetails(host:n, datacenter:d, rack:r) "
          "EndpointDetails(host:m, datacenter:d, rack:r)])", "expected ','", 144 },
        { "TokenRange(start_token:7, end_token:7, endpoints:[n], rpc_endpoints:[n], "
          "endpoint_details:[EndpointDetails(host: , datacenter:d, rack:r)])",
          "expected a host address", 114 },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char text[512];
        int k = snprintf(text, sizeof text, "TokenRange:\n%s\n", bad[i].line);
        fails(DR, text, (size_t)k, 0, TOKENRING_E_PARSE, 2, bad[i].col, bad[i].want, NULL);
    }
    /* more than 1,024 endpoints in one range */
    {
        size_t cap = 20000, o = 0;
        char *big = malloc(cap);
        assert_non_null(big);
        o += (size_t)snprintf(big, cap, "TokenRange(start_token:7, end_token:7, endpoints:[");
        for (int i = 0; i < 1025; i++)
            o += (size_t)snprintf(big + o, cap - o, "%sh%d", i ? ", " : "", i);
        o += (size_t)snprintf(big + o, cap - o, "]\n");
        fails(DR, big, o, 0, TOKENRING_E_RANGE, 1, 6109, "more than 1024 endpoints", NULL);
        free(big);
    }
    /* spaces before the commas are allowed (trimmed) */
    static const char spaced[] =
        "TokenRange(start_token:7 , end_token:7 , endpoints:[n ], rpc_endpoints:[n], "
        "endpoint_details:[EndpointDetails(host:n , datacenter:d , rack:r)])\n";
    c = parse_ok(DR, spaced, sizeof spaced - 1, 0, DR);
    assert_string_equal(owner_of(c, 7), "n");
    tokenring_cluster_free(c);

    /* incomplete listings: refused, or accepted as partial with the flag */
    char *gap = edit("start_token:10, end_token:20", "start_token:15, end_token:20");
    c = parse_ok(DR, gap, strlen(gap), TOKENRING_PARSE_ALLOW_PARTIAL, DR);
    assert_int_equal(tokenring_cluster_flags(c), TOKENRING_CLUSTER_PARTIAL);
    assert_string_equal(owner_of(c, 20), "b");
    assert_null(owner_of(c, 15));
    tokenring_cluster_free(c);
    free(gap);
    char *dots = edit("TokenRange: \n", "TokenRange: \n  ...\n");
    fails(DR, dots, strlen(dots), 0, TOKENRING_E_PARSE, 3, 3, "elided listing", NULL);
    c = parse_ok(DR, dots, strlen(dots), TOKENRING_PARSE_ALLOW_PARTIAL, DR);
    assert_int_equal(tokenring_cluster_flags(c), TOKENRING_CLUSTER_PARTIAL);
    tokenring_cluster_free(c);
    free(dots);

    /* one token, one node: the range (t, t] */
    static const char one[] =
        "TokenRange:\n TokenRange(start_token:7, end_token:7, endpoints:[n], "
        "rpc_endpoints:[n], endpoint_details:[EndpointDetails(host:n, datacenter:d, "
        "rack:r)])\n";
    c = parse_ok(TOKENRING_INPUT_AUTO, one, sizeof one - 1, 0, DR);
    assert_string_equal(owner_of(c, 7), "n");
    tokenring_cluster_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(describering_samples),
        cmocka_unit_test(describering_round_trips),
        cmocka_unit_test(describering_dc_without_replicas),
        cmocka_unit_test(describering_wrong_order),
        cmocka_unit_test(describering_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
