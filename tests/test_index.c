/* SPDX-License-Identifier: Apache-2.0 */
/* The radix index must agree with a plain lower_bound (wrapping) on every token of every
 * vector ring, each token +-1, the extremes, and random probes on random and deliberately
 * crowded rings. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "index.h"
#include "testrng.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint64_t rnd(void)
{
    return tt_splitmix64(&rng_state);
}

static uint32_t plain(const int64_t *tok, size_t n, int64_t t)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (tok[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo == n ? 0 : (uint32_t)lo;
}

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static size_t dedup(int64_t *tok, size_t n)
{
    qsort(tok, n, sizeof *tok, cmp64);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || tok[m - 1] != tok[i])
            tok[m++] = tok[i];
    return m;
}

#if defined(TR_CPU_X86)
/* tr_index_search_small_at is inlined only into AVX2 functions: the test has one, and checks
 * the out-of-line and batch calls with it */
__attribute__((target("avx2,popcnt"))) static uint32_t small_one(const tr_index *idx, int64_t t)
{
    uint32_t batch;
    const uint32_t *bk = tr_index_bucket(idx, t);
    tr_index_search_small_batch(idx, &t, &bk, 1, &batch);
    uint32_t one = tr_index_search_small_at(idx, bk, t);
    assert_int_equal(one, batch);
    assert_int_equal(tr_index_search_small_call(idx, tr_index_bucket(idx, t), t), one);
    return one;
}
#endif

/* Every search of the index for t: the dispatcher, the buckets and (where built) the tiny
 * table agree. */
static uint32_t search_all(const tr_index *idx, int64_t t)
{
    uint32_t r = tr_index_search(idx, t);
    assert_int_equal(tr_index_search_bucket(idx, t), r);
    if (idx->tiny)
        assert_int_equal(tr_index_search_tiny(idx, t), r);
    return r;
}

static void check_ring(int64_t *tok, size_t n, size_t probes)
{
    n = dedup(tok, n);
    tr_index idx;
    assert_int_equal(tr_index_build(&idx, tok, n), TOKENRING_OK);
    assert_true(tr_index_bytes(&idx) <= 4 * n + 12 + (n <= TR_INDEX_TINY_MAX ? 256 : 0));
    assert_true((idx.tiny != NULL) == (n <= TR_INDEX_TINY_MAX));
    static const int64_t edges[] = { INT64_MIN, INT64_MIN + 1, -1, 0, 1, INT64_MAX - 1,
                                     INT64_MAX };
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        assert_int_equal(search_all(&idx, edges[i]), plain(tok, n, edges[i]));
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(search_all(&idx, tok[i]), i);
        if (tok[i] != INT64_MIN)
            assert_int_equal(search_all(&idx, tok[i] - 1), plain(tok, n, tok[i] - 1));
        if (tok[i] != INT64_MAX)
            assert_int_equal(search_all(&idx, tok[i] + 1), plain(tok, n, tok[i] + 1));
    }
    for (size_t i = 0; i < probes; i++) {
        int64_t t = (int64_t)rnd();
        assert_int_equal(search_all(&idx, t), plain(tok, n, t));
    }
#if defined(TR_CPU_X86)
    /* the AVX2 count on any ring of 8 tokens or more (route_keys uses it on every ring):
     * every token and its neighbours, and random probes */
    if ((tr_cpu_features() & TR_CPU_AVX2) && n >= 8) {
        for (size_t i = 0; i < n; i++) {
            assert_int_equal(small_one(&idx, tok[i]), i);
            if (tok[i] != INT64_MIN)
                assert_int_equal(small_one(&idx, tok[i] - 1), plain(tok, n, tok[i] - 1));
            if (tok[i] != INT64_MAX)
                assert_int_equal(small_one(&idx, tok[i] + 1), plain(tok, n, tok[i] + 1));
        }
        for (size_t i = 0; i < probes; i++) {
            int64_t t = (int64_t)rnd();
            assert_int_equal(small_one(&idx, t), plain(tok, n, t));
        }
    }
#endif
    /* The batched search, over counts that end inside and on a group boundary: the ring's
     * own tokens, their neighbours and random probes, interleaved. */
    size_t bn = probes < 4000 ? probes : 4000;
    int64_t *q = malloc((bn + 1) * sizeof *q);
    uint32_t *got = malloc((bn + 1) * sizeof *got);
    for (size_t i = 0; i < bn; i++)
        q[i] = i % 3 == 0 ? tok[rnd() % n] : i % 3 == 1 ? (int64_t)((uint64_t)tok[rnd() % n] + 1) : (int64_t)rnd();
    static const size_t counts[] = { 0, 1, 15, 16, 17, 33 };
    for (size_t c = 0; c <= sizeof counts / sizeof counts[0]; c++) {
        size_t k = c < sizeof counts / sizeof counts[0] ? counts[c] : bn;
        if (k > bn)
            continue;
        got[k] = 0xDEADBEEF; /* one past the batch: must stay untouched */
        tr_index_search_batch(&idx, q, k, got);
        for (size_t i = 0; i < k; i++)
            assert_int_equal(got[i], plain(tok, n, q[i]));
        assert_int_equal(got[k], 0xDEADBEEF);
    }
    free(q);
    free(got);
    tr_index_free(&idx);
}

/* Rings of 1 to 65 tokens: the tiny table (at most 64 tokens, every processor), the radix
 * search and the AVX2 count (tr_index_search_small_at, where the processor has AVX2) against
 * lower_bound on every token, its neighbours and the extremes, on random rings (tiny
 * buckets of 0, 1 or more tokens; radix buckets of 0 to 8, the last buckets' last-eight
 * count), tokens on the tiny buckets' first and last values, and rings of consecutive
 * tokens at both ends of the token range and around zero (one crowded bucket: the
 * fallbacks). */
static void check_small(const int64_t *tok, size_t n)
{
    tr_index idx;
    assert_int_equal(tr_index_build(&idx, tok, n), TOKENRING_OK);
    /* the tiny table on at most 64 tokens, on every processor; the AVX2 count (the
     * single-key lookup past 64 tokens, the batches) on 8 tokens or more where there is AVX2 */
    assert_int_equal(idx.tiny != NULL, n <= TR_INDEX_TINY_MAX);
#if defined(TR_CPU_X86)
    assert_int_equal(idx.avx2, n >= 8 && (tr_cpu_features() & TR_CPU_AVX2) != 0);
#else
    assert_false(idx.avx2);
#endif
    int64_t probes[(TR_INDEX_TINY_MAX + 1) * 3 + 4];
    size_t np = 0;
    probes[np++] = INT64_MIN;
    probes[np++] = INT64_MAX;
    probes[np++] = 0;
    probes[np++] = -1;
    for (size_t i = 0; i < n; i++) {
        probes[np++] = tok[i];
        probes[np++] = (int64_t)((uint64_t)tok[i] - 1); /* wraps at the extremes: a probe too */
        probes[np++] = (int64_t)((uint64_t)tok[i] + 1);
    }
    for (size_t i = 0; i < np; i++) {
        uint32_t want = plain(tok, n, probes[i]);
        assert_int_equal(search_all(&idx, probes[i]), want);
#if defined(TR_CPU_X86)
        if ((tr_cpu_features() & TR_CPU_AVX2) && n >= 8)
            assert_int_equal(small_one(&idx, probes[i]), want);
#endif
    }
    tr_index_free(&idx);
}

static void small_rings(void **state)
{
    (void)state;
    int64_t tok[TR_INDEX_TINY_MAX + 1];
    for (size_t n = 1; n <= TR_INDEX_TINY_MAX + 1; n++) {
        for (int round = 0; round < 4; round++) {
            size_t m = n;
            for (size_t i = 0; i < m; i++)
                tok[i] = (int64_t)rnd();
            m = dedup(tok, m);
            check_small(tok, m);
        }
        for (size_t i = 0; i < n; i++) { /* on tiny bucket edges: first or last value */
            uint64_t b = (uint64_t)(i * 256 / n);
            uint64_t edge = i % 2 ? UINT64_C(0x00FFFFFFFFFFFFFF) : 0;
            tok[i] = (int64_t)((b << 56 | edge) ^ (UINT64_C(1) << 63));
        }
        check_small(tok, dedup(tok, n));
        for (size_t i = 0; i < n; i++) /* consecutive, from the minimum */
            tok[i] = INT64_MIN + (int64_t)i;
        check_small(tok, n);
        for (size_t i = 0; i < n; i++) /* consecutive, up to the maximum */
            tok[i] = INT64_MAX - (int64_t)(n - 1 - i);
        check_small(tok, n);
        for (size_t i = 0; i < n; i++) /* around zero, two apart */
            tok[i] = 2 * ((int64_t)i - (int64_t)n / 2);
        check_small(tok, n);
    }
}

static void random_rings(void **state)
{
    (void)state;
    static const size_t sizes[] = { 1, 2, 3, 7, 8, 9, 15, 48, 100, 1000, 24576, 256000 };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int64_t *tok = malloc(sizes[s] * sizeof *tok);
        for (size_t i = 0; i < sizes[s]; i++)
            tok[i] = (int64_t)rnd();
        check_ring(tok, sizes[s], 20000);
        free(tok);
    }
}

static void crowded_rings(void **state)
{
    (void)state;
    /* All tokens in a tiny interval (one bucket): the toy ring, small integers, a cluster
     * near the maximum, and a mix of one far token with a dense cluster. */
    int64_t toy[] = { 10, 30, 50, 65, 80, 95 };
    check_ring(toy, 6, 1000);
    int64_t *tok = malloc(5000 * sizeof *tok);
    for (size_t i = 0; i < 5000; i++)
        tok[i] = (int64_t)(rnd() % 100000) - 50000;
    check_ring(tok, 5000, 20000);
    for (size_t i = 0; i < 5000; i++)
        tok[i] = INT64_MAX - (int64_t)(rnd() % 3000);
    check_ring(tok, 5000, 20000);
    for (size_t i = 0; i < 5000; i++)
        tok[i] = i == 0 ? INT64_MIN : (int64_t)(rnd() % 7000);
    check_ring(tok, 5000, 20000);
    int64_t extremes[] = { INT64_MIN, -1, 0, INT64_MAX };
    check_ring(extremes, 4, 1000);
    free(tok);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_rings),
        cmocka_unit_test(crowded_rings),
        cmocka_unit_test(small_rings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
