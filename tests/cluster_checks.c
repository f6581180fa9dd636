/* SPDX-License-Identifier: Apache-2.0 */
/* The checks of cluster_checks.h. */
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

tokenring_cluster *parse_ok(int fmt, const char *text, size_t len, uint32_t flags,
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
void fails(int fmt, const char *text, size_t len, uint32_t flags, int code,
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

void node_has(const tokenring_cluster *c, const char *name, const char *dc,
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

const char *owner_of(const tokenring_cluster *c, int64_t token)
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

char *describe(const tokenring_topology *t, const char *repl_text, size_t *len)
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

tokenring_cluster *load_tsv(const char *file)
{
    size_t len;
    char *text = slurp(file, &len);
    tokenring_cluster *c = parse_ok(TOKENRING_INPUT_TSV, text, len, 0, TOKENRING_INPUT_TSV);
    free(text);
    return c;
}

/* Every node of a is in b with the same datacenter, rack and tokens, and b has no other. */
void same_nodes(const tokenring_cluster *a, const tokenring_cluster *b)
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
