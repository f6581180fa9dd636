/* SPDX-License-Identifier: Apache-2.0 */
/* What must not allocate at all: every lookup and reader documented as allocation-free
 * (ring, placement, topology, keys, layouts, a movement's accessors) allocates nothing on
 * built objects; and the replication constructors that allocate fail cleanly. */
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

static int op_replication_simple(void *vctx, void **made)
{
    (void)vctx;
    tokenring_replication *r = NULL;
    int rc = tokenring_replication_simple(&r, 3, 1, NULL);
    *made = r;
    tokenring_replication_free(r);
    return rc;
}

static int op_replication_network(void *vctx, void **made)
{
    (void)vctx;
    tokenring_replication *r = NULL;
    int rc = tokenring_replication_network(&r);
    *made = r;
    tokenring_replication_free(r);
    return rc;
}

/* Every lookup and reader documented as allocation-free, on a built ring, placement,
 * movement, availability and migration. */
static int op_readers(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    (void)made;
    const tokenring_ring *ring = ctx->ring;
    const tokenring_placement *p = ctx->placement;
    static const uint8_t keys[] = "abcdefghij";
    static const uint64_t off[] = { 0, 0, 3, 7, 10 };
    int64_t toks[4];
    uint32_t ids[4], ranges[OOM_NSAMPLES];
    tokenring_replicas x;
    tokenring_range rg;
    tokenring_node_info ni;
    uint32_t node;
    assert_int_equal(tokenring_tokens(toks, keys, off, 4), TOKENRING_OK);
    assert_int_equal(tokenring_placement_route_keys(toks, ids, p, keys, off, 4), TOKENRING_OK);
    tokenring_replicas reps[4];
    assert_int_equal(tokenring_placement_route_keys_replicas(reps, toks, p, keys, off, 4),
                     TOKENRING_OK);
    assert_int_equal(tokenring_ring_search_batch(ranges, ring, OOM_SAMPLES, OOM_NSAMPLES),
                     TOKENRING_OK);
    for (size_t i = 0; i < OOM_NSAMPLES; i++) {
        (void)tokenring_ring_search(ring, OOM_SAMPLES[i]);
        assert_int_equal(tokenring_ring_owner(&node, ring, OOM_SAMPLES[i]), TOKENRING_OK);
        assert_int_equal(tokenring_ring_range_of(&rg, ring, OOM_SAMPLES[i]), TOKENRING_OK);
        assert_int_equal(tokenring_placement_replicas(&x, p, OOM_SAMPLES[i]), TOKENRING_OK);
    }
    assert_int_equal(tokenring_placement_replicas_for_key(&x, p, "k", 1), TOKENRING_OK);
    for (size_t i = 0; i < tokenring_placement_set_count(p); i++)
        assert_int_equal(tokenring_placement_set(&x, p, i), TOKENRING_OK);
    size_t n = 0;
    (void)tokenring_ring_tokens(ring, &n);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(tokenring_placement_range_replicas(&x, p, i), TOKENRING_OK);
        assert_int_equal(tokenring_ring_range(&rg, ring, i), TOKENRING_OK);
    }
    for (size_t i = 0; i < tokenring_ring_node_count(ring); i++)
        assert_int_equal(tokenring_ring_node(&ni, ring, i), TOKENRING_OK);
    assert_int_equal(tokenring_ring_find_node(&node, ring, "10.0.1.1"), TOKENRING_OK);
    for (size_t i = 0; i < tokenring_ring_dc_count(ring); i++)
        assert_non_null(tokenring_ring_dc_name(ring, i));
    tokenring_ring *ref = tokenring_ring_ref(ring);
    tokenring_ring_free(ref);
    tokenring_placement *pref = tokenring_placement_ref(p);
    tokenring_placement_free(pref);
    size_t idx;
    assert_int_equal(tokenring_topology_find_node(&idx, ctx->topology, "10.0.2.2"), TOKENRING_OK);
    assert_int_equal(tokenring_topology_node(&ni, ctx->topology, idx), TOKENRING_OK);
    assert_int_equal(tokenring_topology_set_state(ctx->topology, "10.0.2.2",
                                                  TOKENRING_STATE_NORMAL, TOKENRING_UP, NULL),
                     TOKENRING_OK);
    uint8_t buf[64];
    size_t len;
    static const uint8_t parts[] = "abcdef";
    static const uint64_t poff[] = { 0, 2, 6 };
    assert_int_equal(tokenring_composite_encode(buf, sizeof buf, &len, parts, poff, 2),
                     TOKENRING_OK);
    int64_t even[8];
    assert_int_equal(tokenring_layout_even_tokens(even, 8, 1, 3), TOKENRING_OK);
    assert_int_equal(tokenring_layout_seeded_token(even, 5, "n", 1, 2, 0), TOKENRING_OK);
    tokenring_token128 even128[8];
    assert_int_equal(tokenring_layout_even_tokens128(even128, 8, 1, 3), TOKENRING_OK);
    assert_int_equal(tokenring_layout_seeded_token128(even128, 5, "n", 1, 2, 0), TOKENRING_OK);

    tokenring_movement *m = ctx->extra;
    tokenring_movement_summary s;
    assert_int_equal(tokenring_movement_get_summary(&s, m), TOKENRING_OK);
    for (uint32_t i = 0; i < s.node_count; i++) {
        tokenring_movement_node mn;
        assert_int_equal(tokenring_movement_get_node(&mn, m, i), TOKENRING_OK);
    }
    for (uint32_t i = 0; i < s.range_count; i++) {
        tokenring_moved_range mr;
        assert_int_equal(tokenring_movement_get_range(&mr, m, i), TOKENRING_OK);
    }
    for (uint32_t i = 0; i < s.stream_count; i++) {
        tokenring_stream st;
        assert_int_equal(tokenring_movement_get_stream(&st, m, i), TOKENRING_OK);
    }
    for (uint32_t i = 0; i < s.sample_count; i++) {
        tokenring_sample_change sc;
        assert_int_equal(tokenring_movement_get_sample(&sc, m, i), TOKENRING_OK);
    }
    return TOKENRING_OK;
}

static void readers_do_not_allocate(void **state)
{
    (void)state;
    oom_check("replication_simple", NULL, op_replication_simple, NULL);
    oom_check("replication_network", NULL, op_replication_network, NULL);
    assert_true(oom_count_allocations(NULL, op_replication_simple) > 0); /* the counter counts */

    oom_ctx ctx = { .topology = oom_sample_topology(),
                    .replication = oom_replication("dc1=3/1,dc2=2") };
    assert_int_equal(tokenring_ring_build(&ctx.ring, ctx.topology, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_placement_build(&ctx.placement, ctx.ring, ctx.replication, 0,
                                               NULL),
                     TOKENRING_OK);
    tokenring_movement *m = NULL;
    assert_int_equal(tokenring_movement_decommission(&m, ctx.topology, ctx.replication,
                                                     "10.0.1.2", OOM_SAMPLES, OOM_NSAMPLES, NULL),
                     TOKENRING_OK);
    ctx.extra = m;
    /* tokenring_ring_node builds the ring's per-node token lists on its first call (once
     * per ring, as documented); every read after that allocates nothing. */
    tokenring_node_info first;
    assert_int_equal(tokenring_ring_node(&first, ctx.ring, 0), TOKENRING_OK);
    assert_int_equal(oom_count_allocations(&ctx, op_readers), 0);
    tokenring_movement_free(m);
    tokenring_placement_free(ctx.placement);
    tokenring_ring_free(ctx.ring);
    tokenring_replication_free(ctx.replication);
    tokenring_topology_free(ctx.topology);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(readers_do_not_allocate, oom_setup, oom_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
