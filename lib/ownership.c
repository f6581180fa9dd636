/* SPDX-License-Identifier: Apache-2.0 */
/* Ownership: exact primary and effective widths per node, plus the floats `nodetool`
 * prints, reproduced bit for bit.
 *
 * Cassandra (Murmur3Partitioner.describeOwnership) gives each ring token the fraction
 * ((t_i - t_{i-1} + R) mod R) / R with R = 2^64 - 2, the first token's predecessor being
 * the last token; the quotient is rounded to 6 decimals HALF_EVEN (BigDecimal) and turned
 * into a float. getOwnership sums a node's fractions in float, in ascending token order;
 * effectiveOwnership sums, per node, the fraction of every range it replicates, in ring
 * order. Here the rounding is done exactly on 128-bit integers. */
#include <float.h>
#include <string.h>

#include "ring_internal.h"

#define R_MOD ((((tr_u128)1) << 64) - 2) /* 2^64 - 2 */
#define MILLION 1000000u

/* round_half_even(num * 10^6 / R) for 0 <= num < R. Since R = 2^64 - 2 and
 * x = num * 10^6 < 10^6 * 2^64, the quotient is x >> 64 or one more. */
static uint32_t millionths(tr_u128 num)
{
    tr_u128 x = num * MILLION;
    tr_u128 q = x >> 64;
    tr_u128 r = x - q * R_MOD;
    while (r >= R_MOD) {
        q++;
        r -= R_MOD;
    }
    tr_u128 twice = r * 2;
    if (twice > R_MOD || (twice == R_MOD && (q & 1)))
        q++;
    return (uint32_t)q;
}

/* m / 10^6 correctly rounded to float (round half to even), as Java's
 * BigDecimal.floatValue() gives for a value of scale 6 (it divides the float of the
 * unscaled value by 1e6f, both exact, so the one IEEE division rounds correctly).
 * m <= 10^6. */
static float float_of_millionths(uint32_t m)
{
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
    return (float)m / 1e6f;
#else
    /* Without strict float evaluation: round exactly on integers. */
    if (m == 0)
        return 0.0f;
    const tr_u128 lo = (tr_u128)MILLION << 23; /* q >= 2^23 */
    int k = 0;
    while (((tr_u128)m << k) < lo)
        k++;
    tr_u128 x = (tr_u128)m << k;
    uint64_t q = (uint64_t)(x / MILLION), r = (uint64_t)(x % MILLION);
    if (2 * r > MILLION || (2 * r == MILLION && (q & 1)))
        q++;
    /* q <= 2^24 and k < 64: q / 2^k is exact in double and in float. */
    return (float)((double)q / (double)((uint64_t)1 << k));
#endif
}

/* describeOwnership's float for ring token i (of n). */
static float nodetool_fraction(const tokenring_ring *ring, size_t i)
{
    size_t n = ring->token_count;
    if (n == 1)
        return 1.0f;
    uint64_t w = (uint64_t)ring->tokens[i] - (uint64_t)ring->tokens[i == 0 ? n - 1 : i - 1];
    tr_u128 num;
    if (i > 0) {
        /* (t_i - t_{i-1}) mod R, the difference being the true width w in 1 .. 2^64-1 */
        num = (tr_u128)w >= R_MOD ? (tr_u128)w - R_MOD : (tr_u128)w;
    } else {
        /* (t_0 - t_last + R) mod R = (w - 2) mod R: a width of 1 gives R - 1 */
        num = w >= 2 ? (tr_u128)(w - 2) : R_MOD - 1;
    }
    return float_of_millionths(millionths(num));
}

static tr_u128 u128_in(tokenring_u128 v)
{
    return ((tr_u128)v.hi << 64) | v.lo;
}

TOKENRING_API int tokenring_ring_ownership(tokenring_ownership *out, size_t cap,
                                           const tokenring_ring *ring,
                                           const tokenring_placement *placement)
{
    if (out == NULL || ring == NULL)
        return TOKENRING_E_INVAL;
    if (placement && placement->ring != ring)
        return TOKENRING_E_INVAL;
    if (cap < ring->node_count)
        return TOKENRING_E_BUFSIZE;
    memset(out, 0, ring->node_count * sizeof *out);
    for (size_t i = 0; i < ring->token_count; i++) {
        tr_u128 w = tr_ring_width(ring, i);
        float f = nodetool_fraction(ring, i);
        tokenring_ownership *o = &out[tr_ring_owner(ring, i)];
        o->primary_width = tr_u128_out(u128_in(o->primary_width) + w);
        o->nodetool_primary = o->nodetool_primary + f;
        o->token_count++;
        if (placement) {
            uint32_t set = tr_range_set(placement, (uint32_t)i);
            const uint32_t *nodes = placement->rows + tr_row_off(placement, set);
            uint32_t count = tr_row_len(placement, set);
            for (uint32_t k = 0; k < count; k++) {
                tokenring_ownership *e = &out[nodes[k]];
                e->effective_width = tr_u128_out(u128_in(e->effective_width) + w);
                e->nodetool_effective = e->nodetool_effective + f;
            }
        }
    }
    for (size_t k = 0; k < ring->node_count; k++) {
        out[k].primary = (double)u128_in(out[k].primary_width) * 0x1p-64;
        out[k].effective = (double)u128_in(out[k].effective_width) * 0x1p-64;
    }
    return TOKENRING_OK;
}
