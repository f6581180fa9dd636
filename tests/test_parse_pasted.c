/* SPDX-License-Identifier: Apache-2.0 */
/* What operators paste: `nodetool describering` read as a topology (and refused with the
 * range and the reason when it does not determine one), `nodetool getendpoints` output and
 * empty input refused with a message that says why, and `nodetool ring` rows whose long
 * rack name runs into the Status column. */
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

#define DR TOKENRING_INPUT_NODETOOL_DESCRIBERING


static tokenring_cluster *parse_ok(int fmt, const char *text, size_t len, uint32_t flags,
                                   int want_format)
{
    tokenring_cluster *c = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    int got = -1;
    int rc = tokenring_cluster_parse(c, fmt, text, len, flags, &got, &err);
    if (rc != TOKENRING_OK)
        fail_msg("parse failed at %u:%u: %s", err.line, err.column, err.message);
    assert_int_equal(got, want_format);
    return c;
}

/* Must fail with code at line:col, message containing every one of want (NULL-ended),
 * leaving a non-empty cluster as it was. */
static void fails(int fmt, const char *text, size_t len, uint32_t flags, int code,
                  uint32_t line, uint32_t col, ...)
{
    tokenring_cluster *c = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    static const char base[] = "node x dc=d rack=r tokens=5\n";
    assert_int_equal(tokenring_cluster_parse(c, TOKENRING_INPUT_TOPOLOGY, base,
                                             sizeof base - 1, 0, NULL, NULL),
                     TOKENRING_OK);
    int rc = tokenring_cluster_parse(c, fmt, text, len, flags, NULL, &err);
    if (rc != code || err.line != line || err.column != col)
        fail_msg("want %d at %u:%u, got %d at %u:%u '%s'", code, line, col, rc, err.line,
                 err.column, err.message);
    va_list ap;
    va_start(ap, col);
    for (const char *w; (w = va_arg(ap, const char *)) != NULL;)
        if (!strstr(err.message, w))
            fail_msg("message '%s' lacks '%s'", err.message, w);
    va_end(ap);
    assert_int_equal(tokenring_cluster_node_count(c), 1);
    tokenring_cluster_free(c);
}

static void node_has(const tokenring_cluster *c, const char *name, const char *dc,
                     const char *rack, size_t ntok)
{
    for (size_t i = 0; i < tokenring_cluster_node_count(c); i++) {
        tokenring_cluster_node_info n;
        assert_int_equal(tokenring_cluster_node(&n, c, i), TOKENRING_OK);
        if (strcmp(n.name, name) != 0)
            continue;
        assert_string_equal(n.datacenter, dc);
        assert_string_equal(n.rack, rack);
        assert_int_equal(n.token_count, ntok);
        assert_int_equal(n.state, TOKENRING_STATE_NORMAL);
        assert_int_equal(n.liveness, TOKENRING_UP);
        return;
    }
    fail_msg("no node %s", name);
}

static const char *owner_of(const tokenring_cluster *c, int64_t token)
{
    for (size_t i = 0; i < tokenring_cluster_node_count(c); i++) {
        tokenring_cluster_node_info n;
        assert_int_equal(tokenring_cluster_node(&n, c, i), TOKENRING_OK);
        for (size_t k = 0; k < n.token_count; k++)
            if (n.tokens[k] == token)
                return n.name;
    }
    return NULL;
}

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

/* ------------------------------------- describering: round trips through Cassandra's
 * placement. Writes what nodetool describering prints for a topology and keyspace (ranges
 * in a scrambled order, as Cassandra's hash map gives them), reads it back. */

typedef struct sbuf {
    char *p;
    size_t n, cap;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        assert_true(k >= 0);
        if (b->p && b->n + (size_t)k < b->cap) {
            b->n += (size_t)k;
            return;
        }
        b->cap = (b->cap + (size_t)k + 1) * 2;
        b->p = realloc(b->p, b->cap);
        assert_non_null(b->p);
    }
}

static char *describe(const tokenring_topology *t, const char *repl_text, size_t *len)
{
    tokenring_ring *ring = NULL;
    tokenring_replication *r = NULL;
    tokenring_placement *p = NULL;
    assert_int_equal(tokenring_ring_build(&ring, t, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_replication_parse(&r, repl_text, strlen(repl_text), NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_placement_build(&p, ring, r, TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC,
                                               NULL),
                     TOKENRING_OK);
    size_t nt;
    tokenring_ring_tokens(ring, &nt);
    sbuf b = { 0 };
    sb_printf(&b, "Schema Version:00000000-0000-0000-0000-000000000000\nTokenRange: \n");
    for (size_t j = 0; j < nt; j++) {
        size_t i = (j * 7919) % nt; /* a permutation when nt is not a multiple of 7919 */
        tokenring_range rg;
        tokenring_replicas rep;
        assert_int_equal(tokenring_ring_range(&rg, ring, i), TOKENRING_OK);
        assert_int_equal(tokenring_placement_range_replicas(&rep, p, i), TOKENRING_OK);
        sb_printf(&b, "\tTokenRange(start_token:%lld, end_token:%lld, endpoints:[",
                  (long long)rg.start, (long long)rg.end);
        for (int pass = 0; pass < 2; pass++) {
            if (pass)
                sb_printf(&b, "], rpc_endpoints:[");
            for (uint32_t k = 0; k < rep.count; k++) {
                tokenring_node_info n;
                tokenring_ring_node_brief(&n, ring, rep.nodes[k]);
                sb_printf(&b, "%s%s", k ? ", " : "", n.name);
            }
        }
        sb_printf(&b, "], endpoint_details:[");
        for (uint32_t k = 0; k < rep.count; k++) {
            tokenring_node_info n;
            tokenring_ring_node_brief(&n, ring, rep.nodes[k]);
            sb_printf(&b, "%sEndpointDetails(host:%s, datacenter:%s, rack:%s)", k ? ", " : "",
                      n.name, n.datacenter, n.rack);
        }
        sb_printf(&b, "])\n");
    }
    tokenring_placement_free(p);
    tokenring_replication_free(r);
    tokenring_ring_free(ring);
    *len = b.n;
    return b.p;
}

static tokenring_cluster *load_tsv(const char *file)
{
    size_t len;
    char *text = slurp(file, &len);
    tokenring_cluster *c = parse_ok(TOKENRING_INPUT_TSV, text, len, 0, TOKENRING_INPUT_TSV);
    free(text);
    return c;
}

/* Every node of a is in b with the same datacenter, rack and tokens, and b has no other. */
static void same_nodes(const tokenring_cluster *a, const tokenring_cluster *b)
{
    assert_int_equal(tokenring_cluster_node_count(a), tokenring_cluster_node_count(b));
    for (size_t i = 0; i < tokenring_cluster_node_count(a); i++) {
        tokenring_cluster_node_info x, y;
        assert_int_equal(tokenring_cluster_node(&x, a, i), TOKENRING_OK);
        size_t j = 0;
        for (; j < tokenring_cluster_node_count(b); j++) {
            assert_int_equal(tokenring_cluster_node(&y, b, j), TOKENRING_OK);
            if (strcmp(x.name, y.name) == 0)
                break;
        }
        assert_true(j < tokenring_cluster_node_count(b));
        assert_string_equal(x.datacenter, y.datacenter);
        assert_string_equal(x.rack, y.rack);
        assert_int_equal(x.token_count, y.token_count);
        assert_memory_equal(x.tokens, y.tokens, x.token_count * sizeof *x.tokens);
    }
}

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

/* ------------------------------------------------- getendpoints, empty input */

static void getendpoints_refused(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        uint32_t line;
        const char *count;
    } cases[] = {
        { "samples/getendpoints-3.10-simple-rf3-pavle.txt", 2, "(3 addresses)" },
        { "samples/getendpoints-3.10-nts-2dc-pavle.txt", 2, "(6 addresses)" },
        { "samples/getendpoints-5.0-nts-2dc-crlf.txt", 1, "(2 addresses)" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t len;
        char *text = slurp(cases[i].file, &len);
        assert_int_equal(tokenring_input_detect(text, len), TOKENRING_INPUT_AUTO);
        fails(TOKENRING_INPUT_AUTO, text, len, 0, TOKENRING_E_PARSE, cases[i].line, 1,
              "nodetool getendpoints output", cases[i].count, "not a ring",
              "nodetool describering KEYSPACE", NULL);
        free(text);
    }
    static const char one[] = "[::1]:7000\n";
    fails(TOKENRING_INPUT_AUTO, one, sizeof one - 1, 0, TOKENRING_E_PARSE, 1, 1,
          "(1 address)", NULL);
    /* a word that is not an address, or two words: not getendpoints */
    fails(TOKENRING_INPUT_AUTO, "10.0.0.1\nhello\n", 15, 0, TOKENRING_E_PARSE, 1, 1,
          "cannot recognise the input", NULL);
    fails(TOKENRING_INPUT_AUTO, "10.0.0.1 10.0.0.2\n", 18, 0, TOKENRING_E_PARSE, 1, 1,
          "cannot recognise the input", NULL);
    fails(TOKENRING_INPUT_AUTO, "...\n", 4, 0, TOKENRING_E_PARSE, 1, 1,
          "cannot recognise the input", NULL);
    fails(TOKENRING_INPUT_AUTO, "2001\n", 5, 0, TOKENRING_E_PARSE, 1, 1,
          "cannot recognise the input", NULL);
}

static void empty_input(void **state)
{
    (void)state;
    fails(TOKENRING_INPUT_AUTO, NULL, 0, 0, TOKENRING_E_PARSE, 1, 1, "empty input", NULL);
    fails(TOKENRING_INPUT_AUTO, "", 0, 0, TOKENRING_E_PARSE, 1, 1, "empty input", NULL);
    fails(TOKENRING_INPUT_AUTO, " \r\n\t\n\n", 6, 0, TOKENRING_E_PARSE, 1, 1, "empty input",
          NULL);
    fails(TOKENRING_INPUT_AUTO, "\xEF\xBB\xBF\n", 4, 0, TOKENRING_E_PARSE, 1, 1,
          "empty input", NULL);
}

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

static void format_names(void **state)
{
    (void)state;
    assert_string_equal(tokenring_input_format_name(DR), "nodetool-describering");
    assert_int_equal(tokenring_input_detect("TokenRange: \n", 13), DR);
    assert_int_equal(tokenring_input_detect("Schema Version:1\n", 17), DR);
    assert_int_equal(tokenring_input_detect("  TokenRange(start_token:1", 26), DR);
    assert_int_equal(tokenring_input_detect("TokenRange: x\n", 14), TOKENRING_INPUT_AUTO);
}

/* ---------------------------------------- cqlsh: system_schema.keyspaces */

static const char *repl_str(const tokenring_cluster *c, const char *ks, char *buf, size_t cap)
{
    size_t idx, len;
    const tokenring_replication *r;
    assert_int_equal(tokenring_cluster_find_keyspace(&idx, c, ks), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_keyspace(NULL, &r, c, idx), TOKENRING_OK);
    assert_int_equal(tokenring_replication_format(buf, cap, &len, r), TOKENRING_OK);
    return buf;
}

static void schema_keyspaces(void **state)
{
    (void)state;
    size_t len;
    char *text = slurp("samples/written/cqlsh-system_schema-keyspaces-5.0.txt", &len);
    assert_int_equal(tokenring_input_detect(text, len), TOKENRING_INPUT_CQLSH);
    tokenring_cluster *c = parse_ok(TOKENRING_INPUT_AUTO, text, len, 0, TOKENRING_INPUT_CQLSH);
    assert_int_equal(tokenring_cluster_node_count(c), 0);
    assert_int_equal(tokenring_cluster_keyspace_count(c), 5);
    char buf[256];
    assert_string_equal(repl_str(c, "shop", buf, sizeof buf),
                        "{'class': 'NetworkTopologyStrategy', 'dc1': '3', 'dc2': '2'}");
    assert_string_equal(repl_str(c, "audit", buf, sizeof buf),
                        "{'class': 'NetworkTopologyStrategy', 'dc1': '3/1'}");
    assert_string_equal(repl_str(c, "system_traces", buf, sizeof buf),
                        "{'class': 'SimpleStrategy', 'replication_factor': '2'}");
    /* the LocalStrategy keyspaces are skipped, in the order read, with their class */
    assert_int_equal(tokenring_cluster_skipped_keyspace_count(c), 2);
    const char *name, *cls;
    assert_int_equal(tokenring_cluster_skipped_keyspace(&name, &cls, c, 0), TOKENRING_OK);
    assert_string_equal(name, "system_schema");
    assert_string_equal(cls, "org.apache.cassandra.locator.LocalStrategy");
    assert_int_equal(tokenring_cluster_skipped_keyspace(&name, NULL, c, 1), TOKENRING_OK);
    assert_string_equal(name, "system");
    assert_int_equal(tokenring_cluster_skipped_keyspace(&name, &cls, c, 2), TOKENRING_E_RANGE);
    assert_int_equal(tokenring_cluster_skipped_keyspace(NULL, NULL, c, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_skipped_keyspace(&name, &cls, NULL, 0), TOKENRING_E_INVAL);
    assert_int_equal(tokenring_cluster_skipped_keyspace_count(NULL), 0);
    /* merged with the nodes: the keyspaces place replicas on them */
    size_t pl, ll;
    char *peers = slurp("samples/written/cqlsh-peers_v2-2dc_3r_2r_vn8.txt", &pl);
    char *local = slurp("samples/written/cqlsh-local-2dc_3r_2r_vn8.txt", &ll);
    assert_int_equal(tokenring_cluster_parse(c, TOKENRING_INPUT_CQLSH, peers, pl, 0, NULL, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_cluster_parse(c, TOKENRING_INPUT_CQLSH, local, ll, 0, NULL, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_cluster_node_count(c), 10);
    assert_non_null(tokenring_cluster_topology(c));
    /* the same schema again: its keyspaces exist, so nothing changes */
    tokenring_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(tokenring_cluster_parse(c, TOKENRING_INPUT_CQLSH, text, len, 0, NULL, &err),
                     TOKENRING_E_EXISTS);
    assert_non_null(strstr(err.message, "keyspace system_auth is already defined"));
    assert_int_equal(tokenring_cluster_keyspace_count(c), 5);
    assert_int_equal(tokenring_cluster_skipped_keyspace_count(c), 2);
    /* the skipped list survives a later merge (the cluster is copied) */
    static const char more[] = " keyspace_name | replication\n"
                               "---------------+------------\n"
                               "        system | {'class': 'LocalStrategy'}\n"
                               "         dse_x | {'class': 'org.apache.cassandra.locator.EverywhereStrategy'}\n";
    assert_int_equal(tokenring_cluster_parse(c, TOKENRING_INPUT_CQLSH, more, sizeof more - 1, 0,
                                             NULL, &err), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_skipped_keyspace_count(c), 3);
    assert_int_equal(tokenring_cluster_skipped_keyspace(&name, &cls, c, 2), TOKENRING_OK);
    assert_string_equal(name, "dse_x");
    free(peers);
    free(local);
    free(text);
    tokenring_cluster_free(c);
}

/* Cassandra 6.0-alpha2's cqlsh output, real (tests/data/captured/README.md): PyPI's cqlsh
 * prints a WARNING line first; system_schema.keyspaces has a fast_path column; the metadata
 * keyspace system_cluster_metadata is listed as NetworkTopologyStrategy {'dc1': '1'} but is
 * placed on the CMS members only, so it is skipped (as MetaStrategy), not placed on the ring;
 * release_version reads 6.0-alpha2 in system.local and 6.0.0-alpha2 in peers_v2. */
static void cqlsh_cassandra_6(void **state)
{
    (void)state;
    static const char *const files[] = { "captured/6.0-alpha2-cqlsh-system_schema-keyspaces.txt",
                                         "captured/6.0-alpha2-cqlsh-peers_v2.txt",
                                         "captured/6.0-alpha2-cqlsh-local.txt" };
    tokenring_cluster *c = NULL;
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    for (size_t i = 0; i < 3; i++) {
        size_t len;
        char *text = slurp(files[i], &len);
        assert_non_null(strstr(text, "WARNING: cqlsh was built against"));
        tokenring_error err = { 0 };
        int rc = tokenring_cluster_parse(c, TOKENRING_INPUT_CQLSH, text, len, 0, NULL, &err);
        if (rc != TOKENRING_OK)
            print_message("%s: %s\n", files[i], err.message);
        assert_int_equal(rc, TOKENRING_OK);
        free(text);
    }
    assert_int_equal(tokenring_cluster_node_count(c), 2);
    assert_int_equal(tokenring_cluster_keyspace_count(c), 3);
    size_t idx;
    assert_int_equal(tokenring_cluster_find_keyspace(&idx, c, "system_cluster_metadata"),
                     TOKENRING_E_NOTFOUND);
    assert_int_equal(tokenring_cluster_find_keyspace(&idx, c, "system_distributed"), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_skipped_keyspace_count(c), 3);
    const char *name, *cls;
    assert_int_equal(tokenring_cluster_skipped_keyspace(&name, &cls, c, 0), TOKENRING_OK);
    assert_string_equal(name, "system_cluster_metadata");
    assert_string_equal(cls, "MetaStrategy");
    assert_non_null(tokenring_cluster_topology(c));
    tokenring_cluster_free(c);
    /* the name decides, not the class: the same row in a 5.0-style table is skipped too */
    static const char rows[] =
        " keyspace_name           | replication\n"
        "-------------------------+------------\n"
        " system_cluster_metadata | {'class': 'org.apache.cassandra.locator.NetworkTopologyStrategy', 'dc1': '1'}\n"
        "                     ks1 | {'class': 'org.apache.cassandra.locator.NetworkTopologyStrategy', 'dc1': '1'}\n";
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    assert_int_equal(tokenring_cluster_parse(c, TOKENRING_INPUT_CQLSH, rows, sizeof rows - 1, 0,
                                             NULL, NULL),
                     TOKENRING_OK);
    assert_int_equal(tokenring_cluster_keyspace_count(c), 1);
    assert_int_equal(tokenring_cluster_skipped_keyspace_count(c), 1);
    tokenring_cluster_free(c);
}

static void schema_keyspaces_errors(void **state)
{
    (void)state;
#define HDR " keyspace_name | durable_writes | replication\n---------------+----------------+---\n"
    static const char unknown_class[] =
        HDR "  ks |  True | {'class': 'com.example.MyStrategy', 'x': '1'}\n";
    fails(TOKENRING_INPUT_CQLSH, unknown_class, sizeof unknown_class - 1, 0, TOKENRING_E_PARSE, 3, /* the class */
          26, "keyspace ks", "unknown replication class", NULL);
    static const char no_map[] = HDR "  ks |  True | null\n";
    fails(TOKENRING_INPUT_CQLSH, no_map, sizeof no_map - 1, 0, TOKENRING_E_PARSE, 3, 16,
          "keyspace ks: expected a replication map", NULL);
    static const char no_name[] = HDR "  null |  True | {'class': 'SimpleStrategy', "
                                      "'replication_factor': '1'}\n";
    fails(TOKENRING_INPUT_CQLSH, no_name, sizeof no_name - 1, 0, TOKENRING_E_PARSE, 3, 3,
          "expected a keyspace name", NULL);
    static const char twice[] = HDR " a | True | {'class': 'SimpleStrategy', "
                                    "'replication_factor': '1'}\n"
                                    " a | True | {'class': 'LocalStrategy'}\n";
    fails(TOKENRING_INPUT_CQLSH, twice, sizeof twice - 1, 0, TOKENRING_E_EXISTS, 4, 2,
          "keyspace a is already defined", NULL);
    static const char bad_rf[] = HDR " a | True | {'class': 'SimpleStrategy', "
                                     "'replication_factor': 'x'}\n";
    fails(TOKENRING_INPUT_CQLSH, bad_rf, sizeof bad_rf - 1, 0, TOKENRING_E_PARSE, 3, 64, /* the x */
          "keyspace a", NULL);
    static const char cut[] = HDR " a | True | {'class': 'LocalStrategy'}\n\n(2 rows)\n";
    fails(TOKENRING_INPUT_CQLSH, cut, sizeof cut - 1, 0, TOKENRING_E_PARSE, 5, 2, "2 rows",
          NULL);
    static const char unquoted[] = HDR " a | True | {'class': LocalStrategy}\n";
    fails(TOKENRING_INPUT_CQLSH, unquoted, sizeof unquoted - 1, 0, TOKENRING_E_PARSE, 3, 13,
          "expected a replication map", NULL);
#undef HDR
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
        cmocka_unit_test(describering_samples),
        cmocka_unit_test(describering_round_trips),
        cmocka_unit_test(describering_dc_without_replicas),
        cmocka_unit_test(describering_wrong_order),
        cmocka_unit_test(describering_errors),
        cmocka_unit_test(getendpoints_refused),
        cmocka_unit_test(empty_input),
        cmocka_unit_test(ring_long_racks),
        cmocka_unit_test(format_names),
        cmocka_unit_test(schema_keyspaces),
        cmocka_unit_test(schema_keyspaces_errors),
        cmocka_unit_test(cqlsh_cassandra_6),
        cmocka_unit_test(pasted_columns),
        cmocka_unit_test(empty_and_missing_racks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
