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

/* v * 2^-127 correctly rounded to float, as RandomPartitioner.describeOwnership's
 * new BigDecimal(w).divide(2^127).floatValue() gives it: v rounded to 24 significant
 * bits (half to even), then scaled by a power of two, which is exact (the smallest
 * result, 2^-127 for v = 1, is a float subnormal with its one bit kept). v <= 2^127. */
static float float_over_2_127(tr_u128 v)
{
    if (v == 0)
        return 0.0f;
    int bits = 0;
    for (tr_u128 x = v; x; x >>= 1)
        bits++;
    int shift = bits > 24 ? bits - 24 : 0;
    tr_u128 q = v >> shift;
    if (shift > 0) {
        tr_u128 rem = v & ((((tr_u128)1) << shift) - 1), half = ((tr_u128)1) << (shift - 1);
        if (rem > half || (rem == half && (q & 1)))
            q++;
    }
    /* q <= 2^24: q * 2^(shift - 127) is exact in double and representable in float */
    double d = (double)(uint64_t)q * 0x1p-127;
    while (shift >= 60) {
        d *= 0x1p60;
        shift -= 60;
    }
    d *= (double)(UINT64_C(1) << shift);
    return (float)d;
}

/* 1 / n correctly rounded to float (n >= 1): ByteOrderedPartitioner.describeOwnership's
 * count / total on a cluster without data (every range one split per table, so T / (N T)
 * with both exact in float). Integer rounding, independent of the float evaluation mode. */
static float float_one_over(uint64_t n)
{
    /* find k with 2^23 <= 2^k / n < 2^24 */
    int k = 0;
    while ((((tr_u128)1) << k) / n < ((tr_u128)1 << 23))
        k++;
    tr_u128 x = ((tr_u128)1) << k;
    uint64_t q = (uint64_t)(x / n);
    tr_u128 r = x % n;
    if (2 * r > n || (2 * r == n && (q & 1)))
        q++;
    /* q / 2^k, k <= 23 + 64: exact in double, then in float */
    double d = (double)q;
    while (k >= 60) {
        d *= 0x1p-60;
        k -= 60;
    }
    d /= (double)(UINT64_C(1) << k);
    return (float)d;
}

/* describeOwnership's float for ring token i, by the ring's partitioner. */
static float nodetool_fraction_any(const tokenring_ring *ring, size_t i)
{
    unsigned bits = tr_ops(ring->partitioner)->width_bits;
    if (bits == 64) /* Murmur3's own rule (describeOwnership over longs) */
        return nodetool_fraction(ring, i);
    if (ring->token_count == 1)
        return 1.0f;
    if (bits == 127)
        return float_over_2_127(tr_ring_width_any(ring, i));
    return float_one_over(ring->token_count); /* no widths: count / total */
}

TOKENRING_API uint32_t tokenring_ring_ownership_flags(const tokenring_ring *ring)
{
    if (ring && tr_ops(ring->partitioner)->width_bits == 0) /* no token arithmetic */
        return TOKENRING_OWNERSHIP_NO_WIDTHS | TOKENRING_OWNERSHIP_DATA_DEPENDENT;
    return 0;
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
    /* One float for every token of a byte-ordered ring. */
    bool widths = tr_ops(ring->partitioner)->width_bits != 0;
    float bop = widths ? 0.0f : nodetool_fraction_any(ring, 0);
    for (size_t i = 0; i < ring->token_count; i++) {
        tr_u128 w = tr_ring_width_any(ring, i);
        float f = widths ? nodetool_fraction_any(ring, i) : bop;
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
    /* 2^-width_bits (exact); ByteOrdered's widths are 0 whatever the scale */
    double scale = tr_ops(ring->partitioner)->width_bits == 127 ? 0x1p-127 : 0x1p-64;
    for (size_t k = 0; k < ring->node_count; k++) {
        out[k].primary = (double)u128_in(out[k].primary_width) * scale;
        out[k].effective = (double)u128_in(out[k].effective_width) * scale;
    }
    return TOKENRING_OK;
}
