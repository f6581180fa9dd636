/* SPDX-License-Identifier: Apache-2.0 */
/* Balance statistics of a ring's ownership, tokenring_balance_compute()
 * (include/tokenring/balance.h), on every partitioner. Built on the public ring/placement
 * API only. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "token.h"
#include "tokenring/balance.h"


static tokenring_u128 tr_u128_out(tr_u128 v)
{
    tokenring_u128 r = { (uint64_t)(v >> 64), (uint64_t)v };
    return r;
}

/* ------------------------------------------------------------------- balance */

/* Square root by Newton's method (keeps the library free of libm). */
static long double sqrt_ld(long double v)
{
    if (v <= 0)
        return 0;
    long double x = v > 1 ? v : 1;
    for (int i = 0; i < 200; i++) {
        long double nx = 0.5L * (x + v / x);
        if (nx >= x)
            break;
        x = nx;
    }
    return x;
}

/* Statistics of widths w[0..n-1] in units of which the whole ring is `space` (2^64 for
 * Murmur3, 2^127 for RandomPartitioner, the range count for ByteOrderedPartitioner).
 * The total can pass 2^128 on a RandomPartitioner ring (effective widths sum to
 * rf * 2^127): total_width then saturates and the mean is taken from the exact sum
 * (carries counted). On Murmur3 the figures are those of 1.0 (no carry: same arithmetic). */
static void fill_balance(tokenring_balance *out, const tr_u128 *w, const uint32_t *nodes,
                         size_t n, tr_u128 space)
{
    memset(out, 0, sizeof *out);
    out->node_count = (uint32_t)n;
    tr_u128 total = 0, mn = 0, mx = 0;
    uint64_t carries = 0;
    uint32_t mn_node = 0, mx_node = 0;
    const long double sp = (long double)space;
    for (size_t i = 0; i < n; i++) {
        tr_u128 t = total + w[i];
        carries += t < total;
        total = t;
        if (i == 0 || w[i] < mn) {
            mn = w[i];
            mn_node = nodes[i];
        }
        if (i == 0 || w[i] > mx) {
            mx = w[i];
            mx_node = nodes[i];
        }
    }
    out->min_node = mn_node;
    out->max_node = mx_node;
    out->min_width = tr_u128_out(mn);
    out->max_width = tr_u128_out(mx);
    out->total_width = tr_u128_out(carries ? ~(tr_u128)0 : total);
    out->min = (double)((long double)mn / sp);
    out->max = (double)((long double)mx / sp);
    long double exact = (long double)total;
    if (carries)
        exact += (long double)carries * 340282366920938463463374607431768211456.0L;
    long double mean = n ? (exact / sp) / (long double)n : 0;
    out->mean = (double)mean;
    long double ss = 0;
    for (size_t i = 0; i < n; i++) {
        long double d = (long double)w[i] / sp - mean;
        ss += d * d;
    }
    out->stdev = n > 1 ? (double)sqrt_ld(ss / (long double)(n - 1)) : 0.0;
}

TOKENRING_API int tokenring_balance_compute(tokenring_balance *primary_out,
                                            tokenring_balance *effective_out,
                                            const tokenring_ring *ring,
                                            const tokenring_placement *placement,
                                            const char *datacenter, const char *rack,
                                            tokenring_error *err)
{
    if (!ring)
        return tr_fail(err, TOKENRING_E_INVAL, "ring must not be NULL");
    if (rack && !datacenter)
        return tr_fail(err, TOKENRING_E_INVAL, "a rack needs its datacenter");
    if (effective_out && !placement)
        return tr_fail(err, TOKENRING_E_INVAL,
                       "effective ownership statistics need a placement");
    if (placement && tokenring_placement_ring(placement) != ring)
        return tr_fail(err, TOKENRING_E_INVAL, "the placement was built from another ring");
    size_t n = tokenring_ring_node_count(ring);
    tokenring_ownership *own = tr_calloc(n ? n : 1, sizeof *own);
    tr_u128 *pw = tr_calloc(n ? n : 1, sizeof *pw);
    tr_u128 *ew = tr_calloc(n ? n : 1, sizeof *ew);
    uint32_t *ids = tr_calloc(n ? n : 1, sizeof *ids);
    int rc = TOKENRING_OK;
    if (!own || !pw || !ew || !ids) {
        rc = tr_fail(err, TOKENRING_E_NOMEM, "out of memory computing balance");
        goto done;
    }
    rc = tokenring_ring_ownership(own, n, ring, placement);
    if (rc != TOKENRING_OK) {
        rc = tr_fail(err, rc, "cannot compute ownership: %s", tokenring_strerror(rc));
        goto done;
    }
    tokenring_partitioner part = tokenring_ring_partitioner(ring);
    size_t ranges = 0;
    tokenring_ring_tokens(ring, &ranges);
    unsigned bits = tr_ops(part)->width_bits;
    tr_u128 space = bits ? (tr_u128)1 << bits : (tr_u128)ranges;
    if (bits == 0) {
        /* no token arithmetic: a node's widths count the ranges it owns (its ring tokens)
         * and the ranges it holds a replica of, full or transient */
        for (size_t i = 0; i < n; i++) {
            own[i].primary_width = tr_u128_out(own[i].token_count);
            own[i].effective_width = tr_u128_out(0);
        }
        if (placement) {
            for (size_t i = 0; i < ranges; i++) {
                tokenring_replicas rs;
                tokenring_placement_range_replicas(&rs, placement, i);
                for (uint32_t k = 0; k < rs.count; k++)
                    own[rs.nodes[k]].effective_width.lo++;
            }
        }
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        tokenring_node_info info;
        tokenring_ring_node_brief(&info, ring, (uint32_t)i);
        if (own[i].token_count == 0)
            continue;
        if (datacenter && strcmp(info.datacenter, datacenter) != 0)
            continue;
        if (rack && strcmp(info.rack, rack) != 0)
            continue;
        pw[m] = ((tr_u128)own[i].primary_width.hi << 64) | own[i].primary_width.lo;
        ew[m] = ((tr_u128)own[i].effective_width.hi << 64) | own[i].effective_width.lo;
        ids[m] = (uint32_t)i;
        m++;
    }
    if (m == 0) {
        if (rack)
            rc = tr_fail(err, TOKENRING_E_NOTFOUND,
                         "no node of the ring in rack '%s' of datacenter '%s'", rack,
                         datacenter);
        else if (datacenter)
            rc = tr_fail(err, TOKENRING_E_NOTFOUND, "no node of the ring in datacenter '%s'",
                         datacenter);
        else
            rc = tr_fail(err, TOKENRING_E_NOTFOUND, "the ring has no node with tokens");
        goto done;
    }
    if (primary_out)
        fill_balance(primary_out, pw, ids, m, space);
    if (effective_out)
        fill_balance(effective_out, ew, ids, m, space);
done:
    tr_free(own);
    tr_free(pw);
    tr_free(ew);
    tr_free(ids);
    return rc;
}

