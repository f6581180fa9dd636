/* SPDX-License-Identifier: Apache-2.0 */
/* Allocation failures in the layouts, the token allocator and every analysis (balance,
 * movement of each kind, availability, num_tokens migration), also on RandomPartitioner
 * and ByteOrderedPartitioner topologies. Each failure must give
 * TOKENRING_E_NOMEM, leak nothing, produce nothing, and leave the topology and the
 * replication passed in exactly as they were. */
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

/* The topology and the replication, printed. */
static char *dump_all(void *vctx)
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

static const int64_t SAMPLES[] = { INT64_MIN, -1, 0, 1, 4242, 9000, INT64_MAX };
#define NSAMPLES (sizeof SAMPLES / sizeof *SAMPLES)

/* ------------------------------------------------------------------- movement */

static int finish_movement(int rc, tokenring_movement *m, void **made, tokenring_error *err)
{
    *made = m;
    if (rc != TOKENRING_OK) {
        assert_int_equal(err->code, rc);
        return rc;
    }
    tokenring_movement_summary s;
    assert_int_equal(tokenring_movement_get_summary(&s, m), TOKENRING_OK);
    tokenring_movement_free(m);
    return rc;
}

static int op_join(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    static const int64_t tok[] = { -4000000000000000000LL, 17, 3000000000000000001LL };
    tokenring_movement *m = NULL;
    tokenring_error err;
    int rc = tokenring_movement_join(&m, ctx->topology, ctx->replication, "10.0.5.5", "dc1",
                                     "r2", tok, 3, SAMPLES, NSAMPLES, &err);
    return finish_movement(rc, m, made, &err);
}

static int op_decommission(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    tokenring_movement *m = NULL;
    tokenring_error err;
    int rc = tokenring_movement_decommission(&m, ctx->topology, ctx->replication, "10.0.1.2",
                                             SAMPLES, NSAMPLES, &err);
    return finish_movement(rc, m, made, &err);
}

static int op_replace(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    tokenring_movement *m = NULL;
    tokenring_error err;
    int rc = tokenring_movement_replace(&m, ctx->topology, ctx->replication, "10.0.2.1",
                                        "10.0.8.8", SAMPLES, NSAMPLES, &err);
    return finish_movement(rc, m, made, &err);
}

static int op_move(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    static const int64_t tok[] = { -77, 77, 777 };
    tokenring_movement *m = NULL;
    tokenring_error err;
    int rc = tokenring_movement_move(&m, ctx->topology, ctx->replication, "10.0.1.3", tok, 3,
                                     SAMPLES, NSAMPLES, &err);
    return finish_movement(rc, m, made, &err);
}

static int op_compare(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    const tokenring_topology *after = ctx->extra;
    tokenring_movement *m = NULL;
    tokenring_error err;
    int rc = tokenring_movement_compare(&m, ctx->topology, after, ctx->replication,
                                        TOKENRING_CHANGE_GENERIC, SAMPLES, NSAMPLES, &err);
    return finish_movement(rc, m, made, &err);
}

/* ---------------------------------------------------------- balance, availability */

static int op_balance(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    (void)made;
    tokenring_balance p, e;
    int rc = tokenring_balance_compute(&p, &e, ctx->ring, ctx->placement, NULL, NULL, NULL);
    if (rc == TOKENRING_OK)
        rc = tokenring_balance_compute(&p, &e, ctx->ring, ctx->placement, "dc1", NULL, NULL);
    if (rc == TOKENRING_OK)
        rc = tokenring_balance_compute(&p, &e, ctx->ring, ctx->placement, "dc2", "r1", NULL);
    return rc;
}

typedef struct {
    int cl;
    const char *local;
    uint32_t k;
} avail_args;

static int op_availability(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    const avail_args *a = ctx->extra;
    tokenring_availability *av = NULL;
    tokenring_error err;
    int rc = tokenring_availability_build(&av, ctx->ring, ctx->replication, a->cl, a->local,
                                          a->k, &err);
    *made = av;
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    tokenring_availability_free(av);
    return rc;
}

/* The same under limits with node 0 down already (tokenring_availability_build_limited). */
static int op_availability_down(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    const avail_args *a = ctx->extra;
    tokenring_availability *av = NULL;
    tokenring_error err;
    uint32_t down[] = { 0 };
    tokenring_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.failed_nodes = down;
    lim.failed_count = 1;
    int rc = tokenring_availability_build_limited(&av, ctx->ring, ctx->replication, a->cl,
                                                  a->local, a->k, &lim, &err);
    *made = av;
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    tokenring_availability_free(av);
    return rc;
}

/* ------------------------------------------------------------------- migration */

static int op_migration(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    static const char *names[] = { "10.1.0.1", "10.1.0.2", "10.1.0.3", "10.1.0.4" };
    static const char *racks[] = { "n1", "n2", "n3", "n1" };
    static const char *ks[] = { "shop", "logs" };
    const tokenring_replication *repls[] = { ctx->replication, ctx->replication };
    tokenring_migration *m = NULL;
    tokenring_error err;
    int rc = tokenring_migration_plan(&m, ctx->topology, "dc1", "dc1new", names, racks, 4, 4,
                                      3, ks, repls, 2, &err);
    *made = m;
    if (rc != TOKENRING_OK) {
        assert_int_equal(err.code, rc);
        return rc;
    }
    assert_true(tokenring_migration_step_count(m) > 0);
    tokenring_migration_free(m);
    return rc;
}

/* rf 0 on one datacenter of three racks: SimpleStrategy made NTS first (with a repair),
 * system_auth kept at 0, each keyspace's own factor; three nodes in three racks, so
 * every step but the allocator's runs. */
static int op_migration_keep(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    static const char *names[] = { "10.1.0.1", "10.1.0.2", "10.1.0.3" };
    static const char *racks[] = { "r1", "r2", "r3" };
    static const char *ks[] = { "system_auth", "Shop" };
    const tokenring_replication *repls[] = { ctx->extra, ctx->replication };
    tokenring_migration *m = NULL;
    tokenring_error err;
    int rc = tokenring_migration_plan(&m, ctx->topology, "dc1", "dc1new", names, racks, 3, 4,
                                      0, ks, repls, 2, &err);
    *made = m;
    if (rc != TOKENRING_OK) {
        assert_int_equal(err.code, rc);
        return rc;
    }
    assert_true(tokenring_migration_step_count(m) > 0);
    tokenring_migration_free(m);
    return rc;
}

/* ---------------------------------------------------------- layouts, allocator */

static int op_seeded_tokens(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    (void)made;
    int64_t tok[16];
    return tokenring_layout_seeded_tokens(tok, 16, 99, "10.0.1.1", ctx->topology, 0, NULL);
}

static int op_add_seeded(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    (void)made;
    static const char *names[] = { "10.3.0.1", "10.3.0.2", "10.3.0.3" };
    static const char *dcs[] = { "dc1", "dc3", "dc3" };
    static const char *racks[] = { "r1", "x", "y" };
    tokenring_error err;
    int rc = tokenring_layout_add_seeded_nodes(ctx->topology, 7, 8, names, dcs, racks, 3, 0,
                                               &err);
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    return rc;
}

static int op_allocate_one(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    (void)made;
    int64_t tok[8];
    tokenring_error err;
    int rc = tokenring_allocate_tokens(tok, 8, ctx->topology, "dc1", "r2", 3, 0, &err);
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    return rc;
}

static int op_allocate_new_dc(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    (void)made;
    static const char *racks[] = { "a", "b", "c", "a", "b" };
    int64_t tok[5 * 4];
    tokenring_error err;
    int rc = tokenring_allocate_nodes(tok, 4, ctx->topology, "dc9", racks, 5, 3, 0, &err);
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    return rc;
}

static int op_allocate_nodes(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    (void)made;
    static const char *racks[] = { "r1", "r2", "r3" };
    int64_t tok[3 * 8];
    uint32_t flags = ctx->extra ? TOKENRING_ALLOCATE_NODE_BY_NODE : 0;
    tokenring_error err;
    int rc = tokenring_allocate_nodes(tok, 8, ctx->topology, "dc2", racks, 3, 2, flags, &err);
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    return rc;
}

/* ------------------------------------------------------------------------ tests */

static tokenring_replication *repl(const char *text)
{
    tokenring_replication *r = NULL;
    assert_int_equal(tokenring_replication_parse(&r, text, strlen(text), NULL), TOKENRING_OK);
    return r;
}

static void movements(void **state)
{
    (void)state;
    static const char *repls[] = { "2", "dc1=3,dc2=2/1" };
    struct {
        const char *name;
        oom_op op;
    } cases[] = {
        { "movement_join", op_join },
        { "movement_decommission", op_decommission },
        { "movement_replace", op_replace },
        { "movement_move", op_move },
        { "movement_compare", op_compare },
    };
    for (size_t r = 0; r < 2; r++) {
        for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
            oom_ctx ctx = { .topology = oom_sample_topology(), .replication = repl(repls[r]) };
            tokenring_topology *after = oom_sample_topology();
            assert_int_equal(tokenring_topology_remove_node(after, "10.0.1.5", NULL),
                             TOKENRING_OK);
            int64_t tok[] = { -3, 3 };
            assert_int_equal(tokenring_topology_add_node(after, "10.0.6.6", "dc2", "r2", tok,
                                                         2, NULL),
                             TOKENRING_OK);
            ctx.extra = after;
            char what[100];
            snprintf(what, sizeof what, "%s %s", cases[i].name, repls[r]);
            oom_check(what, &ctx, cases[i].op, dump_all);
            tokenring_topology_free(after);
            tokenring_topology_free(ctx.topology);
            tokenring_replication_free(ctx.replication);
        }
    }
}

static void balance_and_availability(void **state)
{
    (void)state;
    static const char *repls[] = { "3", "dc1=3,dc2=2/1" };
    static const avail_args avs[] = {
        { TOKENRING_CL_QUORUM, NULL, 1 },
        { TOKENRING_CL_ONE, NULL, 2 },
        { TOKENRING_CL_LOCAL_QUORUM, "dc1", 3 },
        { TOKENRING_CL_EACH_QUORUM, NULL, 2 },
        { TOKENRING_CL_ALL, NULL, 1 },
    };
    for (size_t r = 0; r < 2; r++) {
        oom_ctx ctx = { .topology = oom_sample_topology(), .replication = repl(repls[r]) };
        assert_int_equal(tokenring_ring_build(&ctx.ring, ctx.topology, NULL), TOKENRING_OK);
        assert_int_equal(tokenring_placement_build(&ctx.placement, ctx.ring, ctx.replication,
                                                   0, NULL),
                         TOKENRING_OK);
        oom_check("balance_compute", &ctx, op_balance, dump_all);
        for (size_t a = 0; a < sizeof avs / sizeof *avs; a++) {
            if (r == 0 && avs[a].local)
                continue;
            ctx.extra = (void *)&avs[a];
            char what[100];
            snprintf(what, sizeof what, "availability_build %s cl=%d k=%u", repls[r],
                     avs[a].cl, avs[a].k);
            oom_check(what, &ctx, op_availability, dump_all);
            snprintf(what, sizeof what, "availability_build_limited (node 0 down) %s cl=%d k=%u",
                     repls[r], avs[a].cl, avs[a].k);
            oom_check(what, &ctx, op_availability_down, dump_all);
        }
        tokenring_placement_free(ctx.placement);
        tokenring_ring_free(ctx.ring);
        tokenring_replication_free(ctx.replication);
        tokenring_topology_free(ctx.topology);
    }
}

static void migration(void **state)
{
    (void)state;
    oom_ctx ctx = { .topology = oom_sample_topology(), .replication = repl("dc1=3,dc2=2") };
    oom_check("migration_plan", &ctx, op_migration, dump_all);
    tokenring_replication_free(ctx.replication);
    tokenring_topology_free(ctx.topology);
}

static void layouts_and_allocator(void **state)
{
    (void)state;
    struct {
        const char *name;
        oom_op op;
        void *extra;
    } cases[] = {
        { "layout_seeded_tokens", op_seeded_tokens, NULL },
        { "layout_add_seeded_nodes", op_add_seeded, NULL },
        { "allocate_tokens (one node)", op_allocate_one, NULL },
        { "allocate_nodes (new datacenter)", op_allocate_new_dc, NULL },
        { "allocate_nodes (several, joint)", op_allocate_nodes, NULL },
        { "allocate_nodes (several, node by node)", op_allocate_nodes, (void *)1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        oom_ctx ctx = { .topology = oom_sample_topology(), .extra = cases[i].extra };
        oom_check(cases[i].name, &ctx, cases[i].op, dump_all);
        tokenring_topology_free(ctx.topology);
    }
}

/* ------------------------------------------------ what must not allocate at all */

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
    uint32_t ids[4], ranges[NSAMPLES];
    tokenring_replicas x;
    tokenring_range rg;
    tokenring_node_info ni;
    uint32_t node;
    assert_int_equal(tokenring_tokens(toks, keys, off, 4), TOKENRING_OK);
    assert_int_equal(tokenring_placement_route_keys(toks, ids, p, keys, off, 4), TOKENRING_OK);
    assert_int_equal(tokenring_ring_search_batch(ranges, ring, SAMPLES, NSAMPLES), TOKENRING_OK);
    for (size_t i = 0; i < NSAMPLES; i++) {
        (void)tokenring_ring_search(ring, SAMPLES[i]);
        assert_int_equal(tokenring_ring_owner(&node, ring, SAMPLES[i]), TOKENRING_OK);
        assert_int_equal(tokenring_ring_range_of(&rg, ring, SAMPLES[i]), TOKENRING_OK);
        assert_int_equal(tokenring_placement_replicas(&x, p, SAMPLES[i]), TOKENRING_OK);
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

/* A larger datacenter (24 nodes x 16 tokens, 3 racks): the allocator's queues and the
 * movement's arrays grow past their first sizes. */
static tokenring_topology *large_topology(void)
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

static int op_allocate_large(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    (void)made;
    static const char *racks[] = { "r1", "r2", "r3" };
    int64_t tok[3 * 16];
    tokenring_error err;
    int rc = tokenring_allocate_nodes(tok, 16, ctx->topology, "dc1", racks, 3, 3, 0, &err);
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    return rc;
}

static int op_decommission_large(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    tokenring_movement *m = NULL;
    tokenring_error err;
    int rc = tokenring_movement_decommission(&m, ctx->topology, ctx->replication, "10.7.0.5",
                                             SAMPLES, NSAMPLES, &err);
    return finish_movement(rc, m, made, &err);
}

static void larger_inputs(void **state)
{
    (void)state;
    oom_ctx ctx = { .topology = large_topology(), .replication = repl("dc1=3") };
    tokenring_replication *simple = repl("2");
    ctx.extra = simple;
    oom_check("migration_plan (rf 0, SimpleStrategy, three racks)", &ctx, op_migration_keep,
              dump_all);
    ctx.extra = NULL;
    tokenring_replication_free(simple);
    oom_check("allocate_nodes (24 x 16 datacenter)", &ctx, op_allocate_large, dump_all);
    oom_check("movement_decommission (24 x 16)", &ctx, op_decommission_large, dump_all);
    tokenring_replication_free(ctx.replication);
    tokenring_topology_free(ctx.topology);
}

static void readers_do_not_allocate(void **state)
{
    (void)state;
    oom_check("replication_simple", NULL, op_replication_simple, NULL);
    oom_check("replication_network", NULL, op_replication_network, NULL);
    assert_true(oom_count_allocations(NULL, op_replication_simple) > 0); /* the counter counts */

    oom_ctx ctx = { .topology = oom_sample_topology(), .replication = repl("dc1=3/1,dc2=2") };
    assert_int_equal(tokenring_ring_build(&ctx.ring, ctx.topology, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_placement_build(&ctx.placement, ctx.ring, ctx.replication, 0,
                                               NULL),
                     TOKENRING_OK);
    tokenring_movement *m = NULL;
    assert_int_equal(tokenring_movement_decommission(&m, ctx.topology, ctx.replication,
                                                     "10.0.1.2", SAMPLES, NSAMPLES, NULL),
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

/* ---------------------------------------------------------------- kept tokens */

/* Builds both rings inside the op, so that every run starts without the lazily built
 * node token lists tokenring_ring_tokens_kept() reads. */
static int op_tokens_kept(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    tokenring_ring *before = NULL, *after = NULL;
    *made = NULL;
    int rc = tokenring_ring_build(&before, ctx->topology, NULL);
    if (rc == TOKENRING_OK)
        rc = tokenring_ring_build(&after, ctx->extra, NULL);
    size_t kept = 0, lost = 0, gained = 0;
    if (rc == TOKENRING_OK)
        rc = tokenring_ring_tokens_kept(&kept, &lost, &gained, before, after);
    if (rc == TOKENRING_OK) {
        assert_true(kept > 0);
        assert_true(lost > 0); /* the removed node's tokens */
        assert_int_equal(gained, 0);
    }
    tokenring_ring_free(after);
    tokenring_ring_free(before);
    return rc;
}

static void tokens_kept(void **state)
{
    (void)state;
    oom_ctx ctx = { .topology = oom_sample_topology() };
    tokenring_topology *after = oom_sample_topology();
    assert_int_equal(tokenring_topology_remove_node(after, "10.0.1.5", NULL), TOKENRING_OK);
    ctx.extra = after;
    oom_check("ring_tokens_kept", &ctx, op_tokens_kept, dump_all);
    tokenring_topology_free(after);
    tokenring_topology_free(ctx.topology);
}

/* ------------------------------------- RandomPartitioner, ByteOrderedPartitioner */

/* The sample topology in another partitioner: Murmur3 token t as u * 2^63 or the 8
 * bytes of u (u = t with its sign bit flipped; the same order), plus, for bytes, an
 * empty token on the first node. */
static tokenring_topology *partitioned_topology(tokenring_partitioner p)
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
static char *dump_partitioned(void *vctx)
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

static const uint8_t PKEYS[] = "abcdefghijklmnopq";
static const uint64_t POFF[] = { 0, 0, 1, 9, 17 }; /* "", "a", "bcdefghi", "jklmnopq" */
#define NPKEYS 4

static bool is_random(const tokenring_topology *t)
{
    return tokenring_topology_partitioner(t) == TOKENRING_PARTITIONER_RANDOM;
}

static int op_join_any(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    tokenring_movement *m = NULL;
    tokenring_error err;
    const tokenring_token128 t128[] = { { 5, 0 }, { UINT64_C(1) << 63, 0 } };
    const uint8_t *tb[] = { (const uint8_t *)"abcdefgh0", (const uint8_t *)"\xff" };
    const size_t tl[] = { 9, 1 };
    int rc = is_random(ctx->topology)
                 ? tokenring_movement_join128(&m, ctx->topology, ctx->replication, "10.0.5.5",
                                              "dc1", "r2", t128, 2, PKEYS, POFF, NPKEYS, &err)
                 : tokenring_movement_join_bytes(&m, ctx->topology, ctx->replication, "10.0.5.5",
                                                 "dc1", "r2", tb, tl, 2, PKEYS, POFF, NPKEYS,
                                                 &err);
    return finish_movement(rc, m, made, &err);
}

static int op_move_any(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    tokenring_movement *m = NULL;
    tokenring_error err;
    const tokenring_token128 t128[] = { { 7, 1 } };
    const uint8_t *tb[] = { (const uint8_t *)"m" };
    const size_t tl[] = { 1 };
    int rc = is_random(ctx->topology)
                 ? tokenring_movement_move128(&m, ctx->topology, ctx->replication, "10.0.1.2",
                                              t128, 1, PKEYS, POFF, NPKEYS, &err)
                 : tokenring_movement_move_bytes(&m, ctx->topology, ctx->replication, "10.0.1.2",
                                                 tb, tl, 1, PKEYS, POFF, NPKEYS, &err);
    return finish_movement(rc, m, made, &err);
}

static int op_decommission_keys(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    tokenring_movement *m = NULL;
    tokenring_error err;
    int rc = tokenring_movement_decommission_keys(&m, ctx->topology, ctx->replication,
                                                  "10.0.1.2", PKEYS, POFF, NPKEYS, &err);
    return finish_movement(rc, m, made, &err);
}

static int op_replace_keys(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    tokenring_movement *m = NULL;
    tokenring_error err;
    int rc = tokenring_movement_replace_keys(&m, ctx->topology, ctx->replication, "10.0.1.2",
                                             "10.0.9.9", PKEYS, POFF, NPKEYS, &err);
    return finish_movement(rc, m, made, &err);
}

static int op_balance_kept_any(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    (void)made;
    tokenring_ring *r = NULL, *r2 = NULL;
    tokenring_placement *p = NULL;
    int rc = tokenring_ring_build(&r, ctx->topology, NULL);
    if (rc == TOKENRING_OK)
        rc = tokenring_placement_build(&p, r, ctx->replication, 0, NULL);
    tokenring_balance pb, eb;
    if (rc == TOKENRING_OK)
        rc = tokenring_balance_compute(&pb, &eb, r, p, "dc1", NULL, NULL);
    if (rc == TOKENRING_OK)
        rc = tokenring_ring_build(&r2, ctx->topology, NULL);
    size_t kept = 0, lost = 1, gained = 1;
    if (rc == TOKENRING_OK)
        rc = tokenring_ring_tokens_kept(&kept, &lost, &gained, r, r2);
    if (rc == TOKENRING_OK)
        assert_true(kept > 0 && lost == 0 && gained == 0);
    tokenring_placement_free(p);
    tokenring_ring_free(r);
    tokenring_ring_free(r2);
    return rc;
}

static void other_partitioners(void **state)
{
    (void)state;
    static const char *repls[] = { "2", "dc1=3,dc2=2/1" };
    struct {
        const char *name;
        oom_op op;
    } cases[] = {
        { "movement_join128/_bytes", op_join_any },
        { "movement_move128/_bytes", op_move_any },
        { "movement_decommission_keys", op_decommission_keys },
        { "movement_replace_keys", op_replace_keys },
        { "balance/tokens_kept", op_balance_kept_any },
    };
    for (int p = TOKENRING_PARTITIONER_RANDOM; p <= TOKENRING_PARTITIONER_BYTE_ORDERED; p++)
        for (size_t r = 0; r < 2; r++)
            for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
                oom_ctx ctx = { .topology = partitioned_topology((tokenring_partitioner)p),
                                .replication = repl(repls[r]) };
                char what[120];
                snprintf(what, sizeof what, "%s %s partitioner %d", cases[i].name, repls[r], p);
                oom_check(what, &ctx, cases[i].op, dump_partitioned);
                tokenring_topology_free(ctx.topology);
                tokenring_replication_free(ctx.replication);
            }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(movements, oom_setup, oom_teardown),
        cmocka_unit_test_setup_teardown(balance_and_availability, oom_setup, oom_teardown),
        cmocka_unit_test_setup_teardown(migration, oom_setup, oom_teardown),
        cmocka_unit_test_setup_teardown(tokens_kept, oom_setup, oom_teardown),
        cmocka_unit_test_setup_teardown(layouts_and_allocator, oom_setup, oom_teardown),
        cmocka_unit_test_setup_teardown(larger_inputs, oom_setup, oom_teardown),
        cmocka_unit_test_setup_teardown(readers_do_not_allocate, oom_setup, oom_teardown),
        cmocka_unit_test_setup_teardown(other_partitioners, oom_setup, oom_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
