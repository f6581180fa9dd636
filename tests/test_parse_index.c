/* SPDX-License-Identifier: Apache-2.0 */
/* White-box: reading N nodes costs O(N) lookups (issue 27). Each input is merged into the
 * cluster by name; the merge once dropped the cluster's name index, so that every lookup
 * scanned every node (100,000 nodes took 45 s), and the topology kept its names in a
 * sorted array that every added node shifted. Timing would be flaky on a shared machine:
 * this checks the structure that makes lookups O(1) instead, after every input of every
 * format and after merges, and bench/bench_parse.c measures the time. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_internal.h"
#include "ring_internal.h"

/* Every node is in the name index (so tr_cl_find never scans), and the topology's name
 * table holds every node at most half full. */
static void indexed(const tokenring_cluster *c, size_t nodes)
{
    assert_int_equal(c->n, nodes);
    assert_non_null(c->hash);
    assert_int_equal(c->hashed, c->n);
    assert_true(c->hcap >= 2 * c->n);
    size_t in_index = 0;
    for (size_t i = 0; i < c->hcap; i++)
        in_index += c->hash[i] != 0;
    assert_int_equal(in_index, nodes);
    for (size_t i = 0; i < c->n; i++) {
        size_t idx = SIZE_MAX;
        assert_int_equal(tr_cl_find(c, c->nodes[i].name, strlen(c->nodes[i].name), &idx),
                         TOKENRING_OK);
        assert_int_equal(idx, i);
    }
    const tokenring_topology *t = tokenring_cluster_topology(c);
    if (t) {
        assert_int_equal(t->count, nodes);
        assert_true(t->name_slots >= 2 * t->count);
        size_t used = 0;
        for (size_t i = 0; i < t->name_slots; i++)
            used += t->name_nodes[i] != UINT32_MAX;
        assert_int_equal(used, nodes);
    }
}

enum kind { TOPO_ROW, STATUS_ROW, RING_ROW };

/* head, then nodes from .. to - 1 as rows of the kind (node i: 10.0.i/256.i%256, token
 * i * 1000 - 500000). */
static char *text_of(const char *head, enum kind kind, size_t from, size_t to)
{
    size_t cap = strlen(head) + (to - from) * 100 + 1, n = strlen(head);
    char *s = malloc(cap);
    assert_non_null(s);
    memcpy(s, head, n + 1);
    for (size_t i = from; i < to; i++) {
        unsigned x = (unsigned)(i / 256), y = (unsigned)(i % 256);
        long long tok = (long long)i * 1000 - 500000;
        int w = kind == TOPO_ROW
                    ? snprintf(s + n, cap - n, "node 10.0.%u.%u dc=d rack=r tokens=%lld\n", x,
                               y, tok)
                : kind == STATUS_ROW
                    ? snprintf(s + n, cap - n, "UN  10.0.%u.%u  1 KiB  1  ?  ?  r\n", x, y)
                    : snprintf(s + n, cap - n, "10.0.%u.%u  r  Up  Normal  1 KiB  ?  %lld\n",
                               x, y, tok);
        assert_true(w > 0 && (size_t)w < cap - n);
        n += (size_t)w;
    }
    return s;
}

static void parse_ok(tokenring_cluster *c, int format, const char *text, uint32_t flags)
{
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = tokenring_cluster_parse(c, format, text, strlen(text), flags, NULL, &err);
    if (rc != TOKENRING_OK)
        fail_msg("%d at %u:%u: %s", rc, err.line, err.column, err.message);
}

static void name_index_kept(void **state)
{
    (void)state;
    enum { N = 700 };
    /* the topology file in two inputs: the second merged into the first */
    char *a = text_of("", TOPO_ROW, 0, N / 2);
    char *b = text_of("", TOPO_ROW, N / 2, N);
    tokenring_cluster *c = NULL;
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    parse_ok(c, TOKENRING_INPUT_TOPOLOGY, a, 0);
    indexed(c, N / 2);
    parse_ok(c, TOKENRING_INPUT_TOPOLOGY, b, 0);
    indexed(c, N);
    /* the same nodes again: every one found, none added */
    parse_ok(c, TOKENRING_INPUT_TOPOLOGY, a, 0);
    indexed(c, N);
    tokenring_cluster_free(c);
    free(a);
    free(b);

    /* nodetool status (no tokens), then nodetool ring of the same nodes */
    char *st = text_of("Datacenter: d\n=======\nStatus=Up/Down\n|/ State=Normal/Leaving/"
                       "Joining/Moving\n--  Address  Load  Tokens  Owns  Host ID  Rack\n",
                       STATUS_ROW, 0, N);
    char *ring = text_of("Datacenter: d\n==========\nAddress  Rack  Status State  Load  Owns  "
                         "Token\n   199000\n",
                         RING_ROW, 0, N);
    assert_int_equal(tokenring_cluster_new(&c), TOKENRING_OK);
    parse_ok(c, TOKENRING_INPUT_NODETOOL_STATUS, st, 0);
    indexed(c, N);
    parse_ok(c, TOKENRING_INPUT_NODETOOL_RING, ring, 0);
    indexed(c, N);
    tokenring_cluster_free(c);
    free(st);
    free(ring);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(name_index_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
