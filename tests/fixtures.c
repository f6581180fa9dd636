/* SPDX-License-Identifier: Apache-2.0 */
/* The shared clusters of fixtures.h. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

#include "tokenring/tokenring.h"
#include "fixtures.h"

const char *demo_names[7] = { "10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4",
                              "10.0.0.5", "10.0.0.6", "10.0.0.7" };

tokenring_topology *demo(size_t nodes, uint32_t tokens)
{
    tokenring_topology *t;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    assert_int_equal(
        tokenring_layout_add_seeded_nodes(t, 1, tokens, demo_names, NULL, NULL, nodes, 0, NULL),
        TOKENRING_OK);
    return t;
}

tokenring_replication *simple(int rf)
{
    tokenring_replication *r;
    assert_int_equal(tokenring_replication_simple(&r, rf, 0, NULL), TOKENRING_OK);
    return r;
}

/* "key-0" .. "key-199" */
void sample_tokens(int64_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char k[32];
        int len = snprintf(k, sizeof k, "key-%zu", i);
        out[i] = tokenring_token(k, (size_t)len);
    }
}

tokenring_ring *ring_of(const tokenring_topology *t)
{
    tokenring_ring *r;
    assert_int_equal(tokenring_ring_build(&r, t, NULL), TOKENRING_OK);
    return r;
}

void make(fixture *f)
{
    assert_int_equal(tokenring_topology_new(&f->t), TOKENRING_OK);
    static const char *const racks[] = { "r1", "r2", "r3" };
    for (int i = 0; i < 6; i++) {
        char name[16];
        snprintf(name, sizeof name, "n%d", i);
        int64_t tk[2] = { (int64_t)(i * 1000 - 3000), (int64_t)i * 1000 + 500000 };
        assert_int_equal(tokenring_topology_add_node(f->t, name, "dc1", racks[i % 3], tk, 2, NULL),
                         TOKENRING_OK);
    }
    assert_int_equal(tokenring_ring_build(&f->ring, f->t, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_replication_parse(&f->nts, "dc1=3", 5, NULL), TOKENRING_OK);
}

void unmake(fixture *f)
{
    tokenring_replication_free(f->nts);
    tokenring_ring_free(f->ring);
    tokenring_topology_free(f->t);
}
