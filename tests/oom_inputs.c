/* SPDX-License-Identifier: Apache-2.0 */
/* The inputs of oom_inputs.h. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"
#include "oom.h"
#include "oom_inputs.h"

const int64_t OOM_SAMPLES[OOM_NSAMPLES] = { INT64_MIN, -1, 0, 1, 4242, 9000, INT64_MAX };

/* The topology and the replication, printed. */
char *oom_dump_all(void *vctx)
{
    oom_ctx *ctx = vctx;
    char *t = oom_dump_topology(ctx);
    size_t len = 0;
    char *r = NULL;
    if (ctx->replication) {
        tokenring_replication_format(NULL, 0, &len, ctx->replication);
        r = malloc(len + 1);
        assert_int_equal(tokenring_replication_format(r, len + 1, &len, ctx->replication),
                         TOKENRING_OK);
    }
    size_t tl = strlen(t);
    t = realloc(t, tl + len + 2);
    t[tl] = '|';
    memcpy(t + tl + 1, r ? r : "", len + 1);
    free(r);
    return t;
}

tokenring_replication *oom_replication(const char *text)
{
    tokenring_replication *r = NULL;
    assert_int_equal(tokenring_replication_parse(&r, text, strlen(text), NULL), TOKENRING_OK);
    return r;
}

void oom_ring_and_placement(oom_ctx *ctx)
{
    assert_int_equal(tokenring_ring_build(&ctx->ring, ctx->topology, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_placement_build(&ctx->placement, ctx->ring, ctx->replication,
                                               0, NULL),
                     TOKENRING_OK);
}

/* A larger datacenter (24 nodes x 16 tokens, 3 racks): the allocator's queues and the
 * movement's arrays grow past their first sizes. */
tokenring_topology *oom_large_topology(void)
{
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    uint64_t x = 0x243F6A8885A308D3ULL;
    for (int i = 0; i < 24; i++) {
        int64_t tok[16];
        for (int k = 0; k < 16; k++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            tok[k] = (int64_t)x;
        }
        char name[16], rack[8];
        snprintf(name, sizeof name, "10.7.0.%d", i + 1);
        snprintf(rack, sizeof rack, "r%d", i % 3 + 1);
        assert_int_equal(tokenring_topology_add_node(t, name, "dc1", rack, tok, 16, NULL),
                         TOKENRING_OK);
    }
    return t;
}

/* The sample topology in another partitioner: Murmur3 token t as u * 2^63 or the 8
 * bytes of u (u = t with its sign bit flipped; the same order), plus, for bytes, an
 * empty token on the first node. */
tokenring_topology *oom_partitioned_topology(tokenring_partitioner p)
{
    tokenring_topology *m3 = oom_sample_topology(), *t = NULL;
    assert_int_equal(tokenring_topology_new_partitioned(&t, p), TOKENRING_OK);
    for (size_t i = 0; i < tokenring_topology_node_count(m3); i++) {
        tokenring_node_info n;
        assert_int_equal(tokenring_topology_node(&n, m3, i), TOKENRING_OK);
        tokenring_token128 r[65];
        uint8_t b[65][8];
        const uint8_t *bp[65];
        size_t bl[65];
        assert_true(n.token_count < 65);
        size_t c = 0;
        for (size_t k = 0; k < n.token_count; k++, c++) {
            uint64_t u = (uint64_t)n.tokens[k] ^ UINT64_C(0x8000000000000000);
            r[c].hi = u >> 1;
            r[c].lo = (u & 1) << 63;
            for (int j = 0; j < 8; j++)
                b[c][j] = (uint8_t)(u >> (56 - 8 * j));
            bp[c] = b[c];
            bl[c] = 8;
        }
        if (i == 0) {
            bp[c] = b[0];
            bl[c++] = 0;
        }
        int rc = p == TOKENRING_PARTITIONER_RANDOM
                     ? tokenring_topology_add_node128(t, n.name, n.datacenter, n.rack, r,
                                                      n.token_count, NULL)
                     : tokenring_topology_add_node_bytes(t, n.name, n.datacenter, n.rack, bp,
                                                         bl, c, NULL);
        assert_int_equal(rc, TOKENRING_OK);
    }
    tokenring_topology_free(m3);
    return t;
}

/* The topology (tokens through the partitioner's getters) and the replication. */
char *oom_dump_partitioned(void *vctx)
{
    oom_ctx *ctx = vctx;
    const tokenring_topology *t = ctx->topology;
    size_t cap = 1 << 16, len = 0;
    char *s = malloc(cap);
    for (size_t i = 0; i < tokenring_topology_node_count(t); i++) {
        tokenring_node_info ni;
        assert_int_equal(tokenring_topology_node(&ni, t, i), TOKENRING_OK);
        len += (size_t)snprintf(s + len, cap - len, "\n%s %s %s %d:", ni.name, ni.datacenter,
                                ni.rack, ni.state);
        for (size_t k = 0; k < ni.token_count; k++) {
            tokenring_token128 x;
            const uint8_t *b;
            size_t bl;
            if (tokenring_topology_node_token128(&x, t, i, k) == TOKENRING_OK) {
                len += (size_t)snprintf(s + len, cap - len, " %016llx%016llx",
                                        (unsigned long long)x.hi, (unsigned long long)x.lo);
            } else {
                assert_int_equal(tokenring_topology_node_token_bytes(&b, &bl, t, i, k),
                                 TOKENRING_OK);
                len += (size_t)snprintf(s + len, cap - len, " ");
                for (size_t j = 0; j < bl; j++)
                    len += (size_t)snprintf(s + len, cap - len, "%02x", b[j]);
            }
            assert_true(len + 64 < cap);
        }
    }
    size_t rl = 0;
    tokenring_replication_format(NULL, 0, &rl, ctx->replication);
    s = realloc(s, len + rl + 2);
    s[len] = '|';
    assert_int_equal(tokenring_replication_format(s + len + 1, rl + 1, &rl, ctx->replication),
                     TOKENRING_OK);
    return s;
}
