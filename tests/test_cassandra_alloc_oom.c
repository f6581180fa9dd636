/* SPDX-License-Identifier: Apache-2.0 */
/* Allocation failures in tokenring_allocate_cassandra(): each of its paths
 * (ReplicationAware, NoReplication, the split generator) fails every allocation in turn;
 * each failure must give TOKENRING_E_NOMEM, leak nothing and leave the topology as it was. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"
#include "oom.h"

static int run(oom_ctx *ctx, const char *dc, const char *rack, int32_t rf, uint32_t release)
{
    int64_t out[8], first = 42;
    tokenring_error err;
    int rc = tokenring_allocate_cassandra(out, 8, ctx->topology, "10.0.9.9", dc, rack, NULL,
                                          rf, &first, release, 0, &err);
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    return rc;
}

static int op_replication_aware(void *vctx, void **made)
{
    (void)made;
    return run(vctx, "dc1", "r1", 2, TOKENRING_CASSANDRA_5_0); /* 3 racks > rf 2 */
}

static int op_no_replication(void *vctx, void **made)
{
    (void)made;
    return run(vctx, "dc1", "r2", 3, TOKENRING_CASSANDRA_4_0); /* 3 racks = rf 3 */
}

static int op_splits(void *vctx, void **made)
{
    (void)made;
    return run(vctx, "dc9", "r1", 3, TOKENRING_CASSANDRA_4_1); /* an empty datacenter */
}

static int op_keyspace(void *vctx, void **made)
{
    (void)made;
    oom_ctx *ctx = vctx;
    int64_t out[4];
    return tokenring_allocate_cassandra(out, 4, ctx->topology, "10.0.9.9", "dc2", "r1",
                                        ctx->replication, 0, NULL, TOKENRING_CASSANDRA_5_0, 0,
                                        NULL);
}

/* tokenring_allocate_join: Cassandra's tokens, the allocator's plan, the refined tokens
 * and three ring and placement builds; a keyspace (SimpleStrategy) and a local factor */
static int op_join_local(void *vctx, void **made)
{
    (void)made;
    oom_ctx *ctx = vctx;
    int64_t out[8];
    tokenring_error err;
    int rc = tokenring_allocate_join(out, 8, ctx->topology, "10.0.9.9", "dc1", "r1", NULL, 2,
                                     TOKENRING_CASSANDRA_5_0, 0, &err);
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    return rc;
}

static int op_join_keyspace(void *vctx, void **made)
{
    (void)made;
    oom_ctx *ctx = vctx;
    int64_t out[8];
    return tokenring_allocate_join(out, 8, ctx->topology, "10.0.9.9", "dc9", "r1",
                                   ctx->replication, 0, TOKENRING_CASSANDRA_4_1, 0, NULL);
}

static void cassandra_paths(void **state)
{
    (void)state;
    oom_ctx ctx = { oom_sample_topology(), NULL, NULL, NULL, NULL };
    assert_int_equal(tokenring_replication_simple(&ctx.replication, 3, 0, NULL), TOKENRING_OK);
    oom_check("allocate_cassandra replication-aware", &ctx, op_replication_aware,
              oom_dump_topology);
    oom_check("allocate_cassandra no-replication", &ctx, op_no_replication, oom_dump_topology);
    oom_check("allocate_cassandra splits", &ctx, op_splits, oom_dump_topology);
    oom_check("allocate_cassandra keyspace", &ctx, op_keyspace, oom_dump_topology);
    oom_check("allocate_join local rf", &ctx, op_join_local, oom_dump_topology);
    oom_check("allocate_join keyspace", &ctx, op_join_keyspace, oom_dump_topology);
    tokenring_replication_free(ctx.replication);
    tokenring_topology_free(ctx.topology);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(cassandra_paths, oom_setup, oom_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
