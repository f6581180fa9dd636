/* SPDX-License-Identifier: Apache-2.0 */
/* Shared body of the parser fuzz targets. The first byte picks the flags (bit 0:
 * TOKENRING_PARSE_ALLOW_PARTIAL; bit 1: parse into a cluster that already has a node and
 * a keyspace, so merging is exercised), the rest is the text. Invariants:
 *  - a failing parse sets err (code and message) and leaves the cluster as it was;
 *  - a successful parse writes a topology file that parses back (as TOKENRING_INPUT_TOPOLOGY)
 *    to a cluster that writes the same text (the writer's round trip), and whose topology
 *    builds the same ring (tokens and their owners) as the original. */
#ifndef FUZZ_PARSE_COMMON_H
#define FUZZ_PARSE_COMMON_H

#include "fuzz_common.h"

static char *fuzz_cluster_text(const tokenring_cluster *c, size_t *len)
{
    *len = 0;
    int rc = tokenring_cluster_format(NULL, 0, len, c);
    FUZZ_CHECK(rc == TOKENRING_E_BUFSIZE || rc == TOKENRING_OK);
    char *s = malloc(*len + 1);
    FUZZ_CHECK(s != NULL);
    size_t len2 = 0;
    FUZZ_CHECK(tokenring_cluster_format(s, *len + 1, &len2, c) == TOKENRING_OK);
    FUZZ_CHECK(len2 == *len && strlen(s) == len2);
    return s;
}

static void fuzz_same_ring(const tokenring_cluster *a, const tokenring_cluster *b)
{
    tokenring_ring *ra = NULL, *rb = NULL;
    int rca = tokenring_ring_build(&ra, tokenring_cluster_topology(a), NULL);
    int rcb = tokenring_ring_build(&rb, tokenring_cluster_topology(b), NULL);
    FUZZ_CHECK(rca == rcb);
    if (rca == TOKENRING_OK) {
        size_t na = 0, nb = 0;
        const int64_t *ta = tokenring_ring_tokens(ra, &na);
        const int64_t *tb = tokenring_ring_tokens(rb, &nb);
        tokenring_partitioner part = tokenring_ring_partitioner(ra);
        FUZZ_CHECK(part == tokenring_ring_partitioner(rb));
        FUZZ_CHECK(na == nb);
        if (part == TOKENRING_PARTITIONER_MURMUR3)
            FUZZ_CHECK(na == 0 || memcmp(ta, tb, na * sizeof *ta) == 0);
        for (size_t i = 0; part == TOKENRING_PARTITIONER_RANDOM && i < na; i++) {
            tokenring_token128 x, y;
            FUZZ_CHECK(tokenring_ring_token128(&x, ra, i) == TOKENRING_OK &&
                       tokenring_ring_token128(&y, rb, i) == TOKENRING_OK);
            FUZZ_CHECK(tokenring_token128_compare(x, y) == 0);
        }
        for (size_t i = 0; part == TOKENRING_PARTITIONER_BYTE_ORDERED && i < na; i++) {
            const uint8_t *x, *y;
            size_t xn, yn;
            FUZZ_CHECK(tokenring_ring_token_bytes(&x, &xn, ra, i) == TOKENRING_OK &&
                       tokenring_ring_token_bytes(&y, &yn, rb, i) == TOKENRING_OK);
            FUZZ_CHECK(tokenring_byte_token_compare(x, xn, y, yn) == 0);
        }
        const uint32_t *oa = tokenring_ring_token_nodes(ra, &na);
        const uint32_t *ob = tokenring_ring_token_nodes(rb, &nb);
        FUZZ_CHECK(na == nb);
        for (size_t i = 0; i < na; i++) {
            tokenring_node_info x, y;
            FUZZ_CHECK(tokenring_ring_node(&x, ra, oa[i]) == TOKENRING_OK);
            FUZZ_CHECK(tokenring_ring_node(&y, rb, ob[i]) == TOKENRING_OK);
            FUZZ_CHECK(strcmp(x.name, y.name) == 0 && strcmp(x.datacenter, y.datacenter) == 0 &&
                       strcmp(x.rack, y.rack) == 0);
        }
    }
    tokenring_ring_free(ra);
    tokenring_ring_free(rb);
}

__extension__ typedef unsigned __int128 fuzz_u128;

/* Every keyspace of a parsed cluster places on its ring, and the primary widths of the
 * ownership sum to the ring's size (whatever the parser let through is usable). */
static void fuzz_place_keyspaces(const tokenring_cluster *c)
{
    tokenring_ring *ring = NULL;
    if (tokenring_ring_build(&ring, tokenring_cluster_topology(c), NULL) != TOKENRING_OK)
        return;
    size_t nodes = tokenring_ring_node_count(ring);
    tokenring_ownership *own = calloc(nodes ? nodes : 1, sizeof *own);
    FUZZ_CHECK(own != NULL);
    for (size_t k = 0; k < tokenring_cluster_keyspace_count(c) && k < 4; k++) {
        const char *name = NULL;
        const tokenring_replication *r = NULL;
        FUZZ_CHECK(tokenring_cluster_keyspace(&name, &r, c, k) == TOKENRING_OK);
        tokenring_placement *p = NULL;
        tokenring_error err;
        int rc = tokenring_placement_build(&p, ring, r, TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC,
                                           &err);
        FUZZ_CHECK(rc == TOKENRING_OK || (err.code == rc && p == NULL));
        if (rc != TOKENRING_OK)
            continue;
        FUZZ_CHECK(tokenring_ring_ownership(own, nodes, ring, p) == TOKENRING_OK);
        fuzz_u128 sum = 0;
        for (size_t i = 0; i < nodes; i++)
            sum += ((fuzz_u128)own[i].primary_width.hi << 64) | own[i].primary_width.lo;
        /* the ring's size: 2^64 (Murmur3), 2^127 (Random); ByteOrdered has no widths */
        switch (tokenring_ring_partitioner(ring)) {
        case TOKENRING_PARTITIONER_MURMUR3: FUZZ_CHECK(sum == (fuzz_u128)1 << 64); break;
        case TOKENRING_PARTITIONER_RANDOM: FUZZ_CHECK(sum == (fuzz_u128)1 << 127); break;
        default: FUZZ_CHECK(sum == 0); break;
        }
        tokenring_placement_free(p);
    }
    free(own);
    tokenring_ring_free(ring);
}

static const char fuzz_parse_base[] =
    "keyspace base NetworkTopologyStrategy:dc1=3\n"
    "node 10.9.9.9 dc=dc1 rack=r1 tokens=-17,4242\n";

static int fuzz_parse(const uint8_t *data, size_t size, int format)
{
    if (size == 0)
        return 0;
    uint8_t mode = data[0];
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    uint32_t flags = mode & 1 ? TOKENRING_PARSE_ALLOW_PARTIAL : 0;

    (void)tokenring_input_detect(text, len);
    tokenring_cluster *c = NULL;
    FUZZ_CHECK(tokenring_cluster_new(&c) == TOKENRING_OK);
    if (mode & 2)
        FUZZ_CHECK(tokenring_cluster_parse(c, TOKENRING_INPUT_TOPOLOGY, fuzz_parse_base,
                                           sizeof fuzz_parse_base - 1, 0, NULL,
                                           NULL) == TOKENRING_OK);
    size_t before_len;
    char *before = fuzz_cluster_text(c, &before_len);
    uint32_t before_flags = tokenring_cluster_flags(c);

    tokenring_error err;
    memset(&err, 0, sizeof err);
    int got = -1;
    int rc = tokenring_cluster_parse(c, format, text, len, flags, &got, &err);
    if (rc != TOKENRING_OK) {
        FUZZ_CHECK(err.code == rc && err.message[0] != '\0');
        FUZZ_CHECK(rc != TOKENRING_E_NOMEM);
        size_t after_len;
        char *after = fuzz_cluster_text(c, &after_len);
        FUZZ_CHECK(after_len == before_len && memcmp(before, after, before_len) == 0);
        FUZZ_CHECK(tokenring_cluster_flags(c) == before_flags);
        free(after);
    } else {
        FUZZ_CHECK(format == TOKENRING_INPUT_AUTO || got == format);
        size_t wlen;
        char *written = fuzz_cluster_text(c, &wlen);
        tokenring_cluster *back = NULL;
        FUZZ_CHECK(tokenring_cluster_new(&back) == TOKENRING_OK);
        tokenring_error err2;
        /* a complete cluster writes a complete file: it parses back without ALLOW_PARTIAL */
        uint32_t back_flags = tokenring_cluster_flags(c) ? TOKENRING_PARSE_ALLOW_PARTIAL : 0;
        int rc2 = tokenring_cluster_parse(back, TOKENRING_INPUT_TOPOLOGY, written, wlen,
                                          back_flags, NULL, &err2);
        if (rc2 != TOKENRING_OK) {
            fprintf(stderr, "written text does not parse back (%u:%u %s):\n%s\n", err2.line,
                    err2.column, err2.message, written);
            abort();
        }
        size_t blen;
        char *again = fuzz_cluster_text(back, &blen);
        if (blen != wlen || memcmp(again, written, wlen) != 0) {
            fprintf(stderr, "round trip differs:\n%s\n---\n%s\n", written, again);
            abort();
        }
        FUZZ_CHECK(tokenring_cluster_node_count(back) == tokenring_cluster_node_count(c));
        /* the topology file has no mark for an elided (partial) listing: only
         * TOKENRING_CLUSTER_TOKENS_UNKNOWN survives the round trip */
        FUZZ_CHECK((tokenring_cluster_flags(back) & TOKENRING_CLUSTER_TOKENS_UNKNOWN) ==
                   (tokenring_cluster_flags(c) & TOKENRING_CLUSTER_TOKENS_UNKNOWN));
        FUZZ_CHECK(tokenring_cluster_keyspace_count(back) ==
                   tokenring_cluster_keyspace_count(c));
        fuzz_same_ring(c, back);
        fuzz_place_keyspaces(c);
        free(again);
        free(written);
        tokenring_cluster_free(back);
    }
    free(before);
    tokenring_cluster_free(c);
    return 0;
}

#endif
