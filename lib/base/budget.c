/* SPDX-License-Identifier: Apache-2.0 */
/* Budgets of the long calls: saturating work arithmetic, the check that refuses a call
 * whose estimate is above its budget (TOKENRING_E_BUDGET), and the num_tokens cap. */
#include <stdio.h>

#include "internal.h"

uint64_t tr_work_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

uint64_t tr_work_mul(uint64_t a, uint64_t b)
{
    if (a != 0 && b > UINT64_MAX / a)
        return UINT64_MAX;
    return a * b;
}

/* C(n, k) saturated at UINT64_MAX (an estimate only needs to know it is huge). */
uint64_t tr_work_binom(uint64_t n, uint64_t k)
{
    if (k > n)
        return 0;
    if (k > n - k)
        k = n - k;
    long double r = 1;
    for (uint64_t i = 1; i <= k; i++) {
        r = r * (long double)(n - k + i) / (long double)i;
        if (r >= 18446744073709551615.0L)
            return UINT64_MAX;
    }
    return (uint64_t)(r + 0.5L);
}

int tr_budget_check(tokenring_limits *limits, uint64_t estimate, const char *what,
                    tokenring_error *err)
{
    uint64_t budget = limits && limits->budget ? limits->budget : TOKENRING_BUDGET_DEFAULT;
    if (limits)
        limits->estimate = estimate;
    if (estimate <= budget)
        return TOKENRING_OK;
    double secs = (double)estimate / (double)TOKENRING_WORK_UNITS_PER_SECOND;
    double bsecs = (double)budget / (double)TOKENRING_WORK_UNITS_PER_SECOND;
    char est[40];
    if (estimate == UINT64_MAX)
        snprintf(est, sizeof est, "more than 1.8e19");
    else
        snprintf(est, sizeof est, "%llu", (unsigned long long)estimate);
    return tr_fail(err, TOKENRING_E_BUDGET,
                   "%s: estimated %s work units (about %.3g s), above the budget of %llu "
                   "(about %.3g s); raise tokenring_limits.budget (the tool's --budget "
                   "SECONDS or unlimited) to run it",
                   what, est, secs, (unsigned long long)budget, bsecs);
}

int tr_check_num_tokens(tokenring_error *err, uint32_t num_tokens,
                        const tokenring_limits *limits)
{
    uint32_t max = limits && limits->max_num_tokens ? limits->max_num_tokens
                                                    : TOKENRING_MAX_NUM_TOKENS;
    if (max > TOKENRING_LAYOUT_MAX_TOKENS)
        max = TOKENRING_LAYOUT_MAX_TOKENS;
    if (num_tokens == 0 || num_tokens > TOKENRING_LAYOUT_MAX_TOKENS)
        return tr_fail(err, TOKENRING_E_RANGE, "num_tokens %u is outside 1..%u", num_tokens,
                       TOKENRING_LAYOUT_MAX_TOKENS);
    if (num_tokens > max)
        return tr_fail(err, TOKENRING_E_RANGE,
                       "num_tokens %u is above %u%s; raise tokenring_limits.max_num_tokens "
                       "(the tool's --max-num-tokens) to plan it anyway",
                       num_tokens, max,
                       max == TOKENRING_MAX_NUM_TOKENS
                           ? ", Cassandra's own limit (\"A maximum number of 1536 tokens "
                             "per node is supported\")"
                           : "");
    return TOKENRING_OK;
}
