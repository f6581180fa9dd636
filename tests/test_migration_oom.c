/* SPDX-License-Identifier: Apache-2.0 */
/* Allocation failures in tokenring_migration_plan() (migration.h): a datacenter of the
 * sample topology, and rf 0 with a SimpleStrategy keyspace on a 24 x 16 datacenter of
 * three racks. Each failure must give TOKENRING_E_NOMEM, leak nothing, produce nothing,
 * and leave the topology and the replications exactly as they were. */
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

static void migration(void **state)
{
    (void)state;
    oom_ctx ctx = { .topology = oom_sample_topology(),
                    .replication = oom_replication("dc1=3,dc2=2") };
    oom_check("migration_plan", &ctx, op_migration, oom_dump_all);
    tokenring_replication_free(ctx.replication);
    tokenring_topology_free(ctx.topology);
}

static void larger_inputs(void **state)
{
    (void)state;
    oom_ctx ctx = { .topology = oom_large_topology(), .replication = oom_replication("dc1=3") };
    tokenring_replication *simple = oom_replication("2");
    ctx.extra = simple;
    oom_check("migration_plan (rf 0, SimpleStrategy, three racks)", &ctx, op_migration_keep,
              oom_dump_all);
    ctx.extra = NULL;
    tokenring_replication_free(simple);
    tokenring_replication_free(ctx.replication);
    tokenring_topology_free(ctx.topology);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(migration, oom_setup, oom_teardown),
        cmocka_unit_test_setup_teardown(larger_inputs, oom_setup, oom_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
