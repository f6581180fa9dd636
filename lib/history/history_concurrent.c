/* SPDX-License-Identifier: Apache-2.0 */
/* Concurrent operations on Cassandra 6.0 (doc/cassandra-6.md): the ranges a planned join,
 * leave, move or replace would lock (PlacementTransitionPlan.affectedRanges(): per
 * replication, the range of every replica its read deltas add or remove), computed by
 * running the step in collect mode on the replayed history, and which planned operations
 * 6.0 would refuse while another runs (LockedRanges.intersects). */
#include <stdlib.h>
#include <string.h>

#include "history_internal.h"

/* ------------------------------------------------------------------ locks */

/* The locks of one planned operation (a step line), on the history as it is. */
static int plan_locks(const tokenring_history *history, const char *line, size_t len,
                      uint32_t lineno, struct hlocks *L, tokenring_error *err)
{
    field f[5];
    size_t nf = tr_hist_fields(line, len, f, 5);
    if (nf == 0 || f[0].p[0] == '#')
        return tr_fail_at(err, TOKENRING_E_PARSE, lineno, 1,
                          "expected an operation: join, leave, move or replace");
    if (!tr_hist_is(&f[0], "join") && !tr_hist_is(&f[0], "leave") && !tr_hist_is(&f[0], "move") &&
        !tr_hist_is(&f[0], "replace"))
        return tr_fail_at(err, TOKENRING_E_PARSE, lineno, 1,
                          "'%.*s' is not an operation that locks ranges (join, leave, move, "
                          "replace; register nodes and create keyspaces in the history)",
                          (int)f[0].n, f[0].p);
    if (!history->ring)
        return tr_fail(err, TOKENRING_E_EMPTY, "the history leaves no node in the ring");
    tokenring_history tmp = *history; /* read only: collect mode applies nothing */
    tmp.collect = L;
    return tr_hist_run_step(&tmp, f, nf, lineno, err);
}

/* Range.intersects for ranges cut at the minimum token (right == HMIN: to the end), and
 * LockedRanges' rule: two ranges both at the minimum token always meet. */
static bool locks_meet(const hlock *a, const hlock *b)
{
    if (a->repl != b->repl)
        return false;
    if ((a->left == HMIN || a->right == HMIN) && (b->left == HMIN || b->right == HMIN))
        return true;
    int64_t lo = a->left > b->left ? a->left : b->left;
    /* not both at the minimum: at most one runs to the end of the ring */
    bool a_end = a->right == HMIN, b_end = b->right == HMIN;
    int64_t hi = a_end ? b->right : b_end ? a->right : (a->right < b->right ? a->right : b->right);
    return lo < hi;
}

TOKENRING_API int tokenring_history_locked_ranges(int64_t *ranges_out, size_t cap,
                                                  size_t *count_out,
                                                  const tokenring_history *history,
                                                  const tokenring_replication *replication,
                                                  const char *operation, size_t len,
                                                  tokenring_error *err)
{
    if (count_out == NULL || history == NULL || replication == NULL ||
        (operation == NULL && len > 0) || (ranges_out == NULL && cap > 0))
        return tr_fail(err, TOKENRING_E_INVAL, "%s is NULL",
                       !count_out ? "count_out" : !history ? "history" : !replication
                                                                 ? "replication"
                                                                 : !ranges_out ? "ranges_out"
                                                                               : "operation");
    char *key = tr_hist_repl_key(replication);
    if (!key)
        return tr_hist_nomem(err);
    size_t repl = SIZE_MAX;
    for (size_t r = 0; r < history->nrepls && repl == SIZE_MAX; r++)
        if (strcmp(history->repls[r].key, key) == 0)
            repl = r;
    tr_free(key);
    if (repl == SIZE_MAX)
        return tr_fail(err, TOKENRING_E_NOTFOUND, "no keyspace of the history has this "
                                                  "replication (6.0 locks ranges per "
                                                  "replication of its keyspaces)");
    struct hlocks L = { 0 };
    int rc = plan_locks(history, operation, len, 1, &L, err);
    size_t n = 0;
    for (size_t i = 0; rc == TOKENRING_OK && i < L.n; i++)
        if (L.l[i].repl == repl) {
            if (n < cap) {
                ranges_out[2 * n] = L.l[i].left;
                ranges_out[2 * n + 1] = L.l[i].right;
            }
            n++;
        }
    tr_free(L.l);
    if (rc != TOKENRING_OK)
        return rc;
    *count_out = n;
    if (n > cap)
        return tr_fail(err, TOKENRING_E_BUFSIZE, "%zu ranges, room for %zu", n, cap);
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_history_concurrent(uint32_t *conflicts_out, size_t cap,
                                               size_t *count_out,
                                               const tokenring_history *history,
                                               const char *operations, size_t len,
                                               tokenring_error *err)
{
    if (count_out == NULL || history == NULL || (operations == NULL && len > 0) ||
        (conflicts_out == NULL && cap > 0))
        return tr_fail(err, TOKENRING_E_INVAL, "%s is NULL",
                       !count_out ? "count_out" : !history ? "history" : !operations
                                                                 ? "operations"
                                                                 : "conflicts_out");
    struct hlocks *ops = NULL;
    size_t nops = 0, capops = 0;
    int rc = TOKENRING_OK;
    uint32_t line = 0;
    for (size_t i = 0; rc == TOKENRING_OK && i < len;) {
        size_t e = i;
        while (e < len && operations[e] != '\n')
            e++;
        line++;
        field f[1];
        if (tr_hist_fields(operations + i, e - i, f, 1) && f[0].p[0] != '#') {
            if (nops == capops) {
                size_t c = capops ? 2 * capops : 8;
                struct hlocks *o = tr_realloc(ops, c * sizeof *o);
                if (!o) {
                    rc = tr_hist_nomem(err);
                    break;
                }
                memset(o + capops, 0, (c - capops) * sizeof *o);
                ops = o;
                capops = c;
            }
            rc = plan_locks(history, operations + i, e - i, line, &ops[nops++], err);
        }
        i = e + 1;
    }
    if (rc == TOKENRING_OK) {
        *count_out = nops;
        for (size_t i = 0; i < nops && i < cap; i++) {
            conflicts_out[i] = UINT32_MAX;
            /* prepared in order: one refused holds no locks */
            for (size_t j = 0; j < i && conflicts_out[i] == UINT32_MAX; j++)
                for (size_t a = 0; conflicts_out[j] == UINT32_MAX && a < ops[i].n &&
                                   conflicts_out[i] == UINT32_MAX;
                     a++)
                    for (size_t b = 0; b < ops[j].n; b++)
                        if (locks_meet(&ops[i].l[a], &ops[j].l[b])) {
                            conflicts_out[i] = (uint32_t)j;
                            break;
                        }
        }
        if (nops > cap)
            rc = tr_fail(err, TOKENRING_E_BUFSIZE, "%zu operations, room for %zu", nops, cap);
    }
    for (size_t i = 0; i < nops; i++)
        tr_free(ops[i].l);
    tr_free(ops);
    return rc;
}
