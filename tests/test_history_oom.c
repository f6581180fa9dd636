/* SPDX-License-Identifier: Apache-2.0 */
/* tokenring_history_replay and tokenring_history_placement under every allocation failure
 * in turn: each gives TOKENRING_E_NOMEM, makes nothing and leaks nothing. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "oom.h"

/* A small history with every kind of step (a keyspace before and after the first ring). */
static const char HISTORY[] =
    "keyspace early dc1=1\n"
    "register 10.0.0.1 dc1 r1\nregister 10.0.0.2 dc1 r2\nregister 10.0.0.3 dc2 r1\n"
    "register 10.0.0.4 dc1 r1\nregister 10.0.0.5 dc2 r1\n"
    "unsafe_join 10.0.0.1 -9000,1000\nunsafe_join 10.0.0.2 -3000,5000\n"
    "keyspace ks dc1=2,dc2=1\n"
    "join 10.0.0.3 -6000,3000\njoin 10.0.0.4 7000\nmove 10.0.0.4 -100\n"
    "replace 10.0.0.3 10.0.0.5\nleave 10.0.0.2\n";

static int op_replay(void *vctx, void **made)
{
    (void)vctx;
    tokenring_history *h = NULL;
    tokenring_error err;
    int rc = tokenring_history_replay(&h, HISTORY, sizeof HISTORY - 1, &err);
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    *made = h;
    tokenring_history_free(h);
    return rc;
}

/* transient replicas (one token a node): flags through the deltas and the placement; the
 * bounded call with a progress callback */
static const char TRANSIENT[] =
    "register 10.0.0.1 dc1 r1\nregister 10.0.0.2 dc1 r1\nregister 10.0.0.3 dc1 r1\n"
    "register 10.0.0.4 dc1 r1\nregister 10.0.0.5 dc1 r1\n"
    "unsafe_join 10.0.0.1 -100\nunsafe_join 10.0.0.2 0\nunsafe_join 10.0.0.3 100\n"
    "keyspace t 3/1\njoin 10.0.0.4 50\nmove 10.0.0.1 -200\nleave 10.0.0.2\n"
    "replace 10.0.0.3 10.0.0.5\n";

static int count_progress(void *user, uint64_t done, uint64_t total)
{
    (void)done;
    (void)total;
    ++*(int *)user;
    return 0;
}

static int op_replay_transient(void *vctx, void **made)
{
    (void)vctx;
    tokenring_history *h = NULL;
    tokenring_error err;
    int calls = 0;
    tokenring_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.progress = count_progress;
    lim.user = &calls;
    int rc = tokenring_history_replay_limited(&h, TRANSIENT, sizeof TRANSIENT - 1, &lim, &err);
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    *made = h;
    tokenring_history_free(h);
    return rc;
}

static int op_placement(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    tokenring_placement *p = NULL;
    int rc = tokenring_history_placement(&p, ctx->extra, ctx->replication, NULL);
    *made = p;
    tokenring_placement_free(p);
    return rc;
}

/* the locks of planned operations (every kind), and the check over a list */
static const char OPS[] = "join 10.0.0.2 2000\nmove 10.0.0.4 100\nreplace 10.0.0.1 10.0.0.3\n"
                          "leave 10.0.0.4\njoin 10.0.0.2 -50,4000\nleave 10.0.0.1\n"
                          "join 10.0.0.2 9999\njoin 10.0.0.2 -1\njoin 10.0.0.2 1\n";

static int op_locked(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    int64_t rg[64];
    size_t n = 0;
    static const char op[] = "move 10.0.0.4 100";
    int rc = tokenring_history_locked_ranges(rg, 32, &n, ctx->extra, ctx->replication, op,
                                             sizeof op - 1, NULL);
    *made = NULL;
    return rc;
}

static int op_concurrent(void *vctx, void **made)
{
    oom_ctx *ctx = vctx;
    uint32_t cf[16];
    size_t n = 0;
    int rc = tokenring_history_concurrent(cf, 16, &n, ctx->extra, OPS, sizeof OPS - 1, NULL);
    *made = NULL;
    return rc;
}

static void history_ops(void **state)
{
    (void)state;
    oom_check("history_replay", NULL, op_replay, NULL);
    tokenring_history *h = NULL;
    assert_int_equal(tokenring_history_replay(&h, HISTORY, sizeof HISTORY - 1, NULL),
                     TOKENRING_OK);
    /* a replication of the history, and one it never had (placed fresh) */
    static const char *repls[] = { "dc1=2,dc2=1", "dc2=1" };
    for (size_t i = 0; i < 2; i++) {
        oom_ctx ctx = { .extra = h };
        assert_int_equal(tokenring_replication_parse(&ctx.replication, repls[i],
                                                     strlen(repls[i]), NULL),
                         TOKENRING_OK);
        oom_check(repls[i], &ctx, op_placement, NULL);
        if (i == 0) {
            oom_check("locked_ranges", &ctx, op_locked, NULL);
            oom_check("concurrent", &ctx, op_concurrent, NULL);
        }
        tokenring_replication_free(ctx.replication);
    }
    tokenring_history_free(h);
    oom_check("history_replay_limited transient", NULL, op_replay_transient, NULL);
    assert_int_equal(tokenring_history_replay(&h, TRANSIENT, sizeof TRANSIENT - 1, NULL),
                     TOKENRING_OK);
    oom_ctx ctx = { .extra = h };
    assert_int_equal(tokenring_replication_parse(&ctx.replication, "3/1", 3, NULL),
                     TOKENRING_OK);
    oom_check("transient placement", &ctx, op_placement, NULL);
    tokenring_replication_free(ctx.replication);
    tokenring_history_free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(history_ops, oom_setup, oom_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
