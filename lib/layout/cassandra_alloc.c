/* SPDX-License-Identifier: Apache-2.0 */
/* The tokens Apache Cassandra 4.0 - 5.0 gives a bootstrapping node that allocates with
 * allocate_tokens_for_local_replication_factor or allocate_tokens_for_keyspace
 * (include/tokenring/allocate.h, tokenring_allocate_cassandra()).
 *
 * Written from a reading of Cassandra's dht/tokenallocator package (TokenAllocation,
 * TokenAllocatorFactory, TokenAllocatorBase, ReplicationAwareTokenAllocator,
 * NoReplicationTokenAllocator) and checked bit for bit against vectors made by running
 * those classes (tests/data/cassandra_allocation.tsv). Everything the result depends on
 * is reproduced: the arithmetic of java.lang.Double (IEEE-754 binary64, round to nearest,
 * no fused multiply-add: contraction is switched off for this file below), java.util.Random,
 * java.util.PriorityQueue's binary heap (which decides between equal weights),
 * java.util.HashMap's iteration order (which decides the order units enter a queue),
 * InetAddressAndPort.hashCode(), BigDecimal.valueOf(double) (the shortest decimal that
 * reads back as the double) and the partitioner's midpoint, split, size and
 * nextValidToken: Murmur3Partitioner's (LongToken) for tokenring_allocate_cassandra(),
 * RandomPartitioner's (BigIntegerToken, BigInteger.doubleValue() rounding to nearest
 * even) for tokenring_allocate_cassandra128(). One engine serves both: it holds tokens
 * as unsigned 128-bit values (a Murmur3 token shifted by 2^63, which keeps its order and
 * its differences modulo 2^64) and asks the partitioner's four operations of each.
 *
 * Nothing here is on a hot path of the rest of the library. */
#include <float.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "token.h"
#include "layout_internal.h"
#include "tokenring/allocate.h"
#include "tokenring/layout.h"

/* Java never fuses a * b + c into one rounding; GCC does by default wherever the target has
 * FMA (-ffp-contract=fast), clang within an expression. Off for every function here (the
 * same as compiling this file with -ffp-contract=off; checked: no vfmadd with -march=haswell). */
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD != 0
#error "tokenring_allocate_cassandra needs plain binary64 evaluation (FLT_EVAL_METHOD 0), e.g. SSE2 on x86"
#endif


#define NIL UINT32_MAX
#define OUTSIDE (UINT32_MAX - 1) /* a node outside the allocation ring */

/* ------------------------------------------------------------ Java semantics */

/* Double.compare: numeric order, then -0.0 < 0.0 and NaN above everything. */
static int java_double_compare(double x, double y)
{
    if (x < y)
        return -1;
    if (x > y)
        return 1;
    int64_t a, b;
    if (x != x)
        a = INT64_C(0x7ff8000000000000);
    else
        memcpy(&a, &x, sizeof a);
    if (y != y)
        b = INT64_C(0x7ff8000000000000);
    else
        memcpy(&b, &y, sizeof b);
    return a == b ? 0 : (a < b ? -1 : 1);
}

/* java.util.Random: the 48-bit linear congruential generator and nextDouble(). */
typedef struct { uint64_t seed; } jrandom;

#define JR_MULT UINT64_C(0x5DEECE66D)
#define JR_MASK ((UINT64_C(1) << 48) - 1)

static void jrandom_init(jrandom *r, int64_t seed)
{
    r->seed = ((uint64_t)seed ^ JR_MULT) & JR_MASK;
}

static int32_t jrandom_next(jrandom *r, int bits)
{
    r->seed = (r->seed * JR_MULT + 0xB) & JR_MASK;
    return (int32_t)(r->seed >> (48 - bits));
}

static double jrandom_next_double(jrandom *r)
{
    int64_t hi = jrandom_next(r, 26);
    int64_t lo = jrandom_next(r, 27);
    return (double)((hi << 27) + lo) * 0x1.0p-53;
}

/* One element of a weighted queue: Cassandra's Weighted<T>, ordered by descending weight. */
typedef struct { double weight; uint32_t value; } jweighted;

/* a before b in the queue iff Double.compare(b.weight, a.weight) < 0. */
static int weighted_cmp(const jweighted *a, const jweighted *b)
{
    return java_double_compare(b->weight, a->weight);
}

/* java.util.PriorityQueue: the same binary heap, sift for sift, so that equal weights come
 * out in the same order. */
typedef struct { jweighted *a; size_t n, cap; } jqueue;

static int jqueue_add(jqueue *q, double weight, uint32_t value)
{
    if (q->n == q->cap) {
        size_t cap = q->cap ? q->cap * 2 : 8;
        jweighted *a = tr_reallocarray(q->a, cap, sizeof *a);
        if (!a)
            return TOKENRING_E_NOMEM;
        q->a = a;
        q->cap = cap;
    }
    jweighted x = { weight, value };
    size_t k = q->n++;
    while (k > 0) {
        size_t parent = (k - 1) >> 1;
        if (weighted_cmp(&x, &q->a[parent]) >= 0)
            break;
        q->a[k] = q->a[parent];
        k = parent;
    }
    q->a[k] = x;
    return TOKENRING_OK;
}

static jweighted jqueue_poll(jqueue *q)
{
    jweighted result = q->a[0];
    size_t n = --q->n;
    if (n > 0) {
        jweighted x = q->a[n];
        size_t k = 0, half = n >> 1;
        while (k < half) {
            size_t child = 2 * k + 1, right = child + 1;
            if (right < n && weighted_cmp(&q->a[child], &q->a[right]) > 0)
                child = right;
            if (weighted_cmp(&x, &q->a[child]) <= 0)
                break;
            q->a[k] = q->a[child];
            k = child;
        }
        q->a[k] = x;
    }
    return result;
}

static void jqueue_free(jqueue *q)
{
    tr_free(q->a);
    q->a = NULL;
    q->n = q->cap = 0;
}

/* The order java.util.HashMap iterates keys with these hash codes, inserted in index
 * order: by bucket of the final table, then by insertion (resizes keep the relative
 * order), with the table grown as HashMap grows it (load factor 0.75 from 16 buckets, and
 * once more whenever a bucket of a table smaller than 64 reaches 9 keys). */
static int java_hashmap_order(uint32_t *order, const int32_t *hash, size_t n)
{
    uint32_t *bucket = tr_calloc(n ? n : 1, sizeof *bucket);
    if (!bucket)
        return TOKENRING_E_NOMEM;
    uint64_t cap = 16;
    for (size_t i = 0; i < n; i++) {
        uint32_t h = (uint32_t)hash[i];
        uint32_t spread = h ^ (h >> 16);
        size_t same = 0;
        for (size_t j = 0; j < i; j++) {
            uint32_t hj = (uint32_t)hash[j];
            if (((hj ^ (hj >> 16)) & (cap - 1)) == (spread & (cap - 1)))
                same++;
        }
        if (same >= 8 && cap < 64)
            cap *= 2;
        if (i + 1 > cap / 4 * 3)
            cap *= 2;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t h = (uint32_t)hash[i];
        bucket[i] = (h ^ (h >> 16)) & (uint32_t)(cap - 1);
        order[i] = (uint32_t)i;
    }
    /* stable insertion sort by bucket (n is a node count) */
    for (size_t i = 1; i < n; i++) {
        uint32_t v = order[i];
        size_t j = i;
        while (j > 0 && bucket[order[j - 1]] > bucket[v]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = v;
    }
    tr_free(bucket);
    return TOKENRING_OK;
}

/* ------------------------------------------------- addresses and their hashes */

static bool parse_ipv4(const char *s, size_t len, uint8_t out[4])
{
    size_t i = 0;
    for (int part = 0; part < 4; part++) {
        if (part > 0) {
            if (i >= len || s[i] != '.')
                return false;
            i++;
        }
        unsigned v = 0, digits = 0;
        while (i < len && s[i] >= '0' && s[i] <= '9' && digits < 4) {
            v = v * 10 + (unsigned)(s[i] - '0');
            i++;
            digits++;
        }
        if (digits == 0 || digits > 3 || v > 255)
            return false;
        out[part] = (uint8_t)v;
    }
    return i == len;
}

static bool parse_ipv6(const char *s, size_t len, uint8_t out[16])
{
    uint16_t head[8], tail[8];
    size_t nh = 0, nt = 0, i = 0;
    bool gap = false;
    uint8_t v4[4];
    bool has_v4 = false;
    if (len >= 2 && s[0] == ':' && s[1] == ':') {
        gap = true;
        i = 2;
    } else if (len >= 1 && s[0] == ':') {
        return false;
    }
    while (i < len) {
        size_t start = i;
        unsigned v = 0, digits = 0;
        while (i < len && digits < 5) {
            char c = s[i];
            int d = c >= '0' && c <= '9' ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
            if (d < 0)
                break;
            v = v * 16 + (unsigned)d;
            i++;
            digits++;
        }
        if (i < len && s[i] == '.') { /* trailing dotted IPv4 */
            if (!parse_ipv4(s + start, len - start, v4))
                return false;
            has_v4 = true;
            i = len;
            break;
        }
        if (digits == 0 || digits > 4 || nh + nt == 8)
            return false;
        if (gap)
            tail[nt++] = (uint16_t)v;
        else
            head[nh++] = (uint16_t)v;
        if (i == len)
            break;
        if (s[i] != ':')
            return false;
        i++;
        if (i < len && s[i] == ':') {
            if (gap)
                return false;
            gap = true;
            i++;
        } else if (i == len) {
            return false;
        }
    }
    size_t groups = nh + nt + (has_v4 ? 2 : 0);
    if (groups > 8 || (!gap && groups != 8) || (gap && groups == 8))
        return false;
    memset(out, 0, 16);
    for (size_t k = 0; k < nh; k++) {
        out[2 * k] = (uint8_t)(head[k] >> 8);
        out[2 * k + 1] = (uint8_t)head[k];
    }
    size_t end = has_v4 ? 12 : 16;
    for (size_t k = 0; k < nt; k++) {
        size_t at = end - 2 * (nt - k);
        out[at] = (uint8_t)(tail[k] >> 8);
        out[at + 1] = (uint8_t)tail[k];
    }
    if (has_v4)
        memcpy(out + 12, v4, 4);
    return true;
}

static bool parse_port(const char *s, size_t len, int32_t *port)
{
    if (len == 0 || len > 5)
        return false;
    int32_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (s[i] - '0');
    }
    if (v > 65535)
        return false;
    *port = v;
    return true;
}

/* InetAddressAndPort.hashCode() of a node called by its address ("10.0.0.1",
 * "10.0.0.1:7001", "fd00::1", "[fd00::1]:7001"; port 7000 when none is given):
 * 31 * InetAddress.hashCode() + port in 4.0 (its own hashCode()), InetAddress.hashCode()
 * + port from 4.1 on (it extends InetSocketAddress, whose hashCode() that is), where an
 * IPv4 address hashes to its 32 bits and an
 * IPv6 address to the sum of its four 32-bit words built from signed bytes
 * (Inet6Address; an IPv4-mapped address is an Inet4Address). A name that is no address
 * gets String.hashCode() of the name, a fixed rule of our own. */
static int32_t java_endpoint_hash(const char *name, bool release_40)
{
    size_t len = strlen(name);
    const char *host = name;
    size_t hlen = len;
    int32_t port = 7000;
    uint8_t a[16];
    int32_t h = 0;
    bool ok = false, v4 = false;
    if (len > 0 && name[0] == '[') {
        const char *close = memchr(name, ']', len);
        if (close) {
            host = name + 1;
            hlen = (size_t)(close - name) - 1;
            size_t rest = len - (size_t)(close - name) - 1;
            if (rest == 0 || (close[1] == ':' && parse_port(close + 2, rest - 1, &port)))
                ok = parse_ipv6(host, hlen, a);
        }
    } else {
        const char *colon = memchr(name, ':', len);
        if (colon && !memchr(colon + 1, ':', len - (size_t)(colon - name) - 1)) {
            hlen = (size_t)(colon - name);
            if (parse_port(colon + 1, len - hlen - 1, &port))
                ok = v4 = parse_ipv4(host, hlen, a);
        } else if (colon) {
            ok = parse_ipv6(host, hlen, a);
        } else {
            ok = v4 = parse_ipv4(host, hlen, a);
        }
    }
    if (ok && !v4) {
        static const uint8_t mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
        if (memcmp(a, mapped, 12) == 0) {
            memmove(a, a + 12, 4);
            v4 = true;
        }
    }
    if (!ok) {
        uint32_t s = 0;
        for (size_t i = 0; i < len; i++)
            s = 31 * s + (uint8_t)name[i];
        return (int32_t)s;
    }
    if (v4) {
        h = (int32_t)(((uint32_t)a[0] << 24) | ((uint32_t)a[1] << 16) | ((uint32_t)a[2] << 8) |
                      (uint32_t)a[3]);
    } else {
        uint32_t sum = 0;
        for (int w = 0; w < 4; w++) {
            uint32_t comp = 0;
            for (int b = 0; b < 4; b++)
                comp = (comp << 8) + (uint32_t)(int32_t)(int8_t)a[4 * w + b];
            sum += comp;
        }
        h = (int32_t)sum;
    }
    return (int32_t)((release_40 ? 31u * (uint32_t)h : (uint32_t)h) + (uint32_t)port);
}

/* ------------------------------------------------------ Murmur3Partitioner */

/* LongToken.size(): (next - this) as a fraction of the ring, the whole ring when equal. */
static double size64(int64_t from, int64_t to)
{
    int64_t v = (int64_t)((uint64_t)to - (uint64_t)from);
    double d = (double)v * 0x1p-64;
    return d > 0.0 ? d : d + 1.0;
}

/* BigDecimal.valueOf(d) for 0 < d < 1: Double.toString's digits, i.e. the shortest
 * decimal that reads back as d (nearest first), as digits * 10^-scale. */
static void java_decimal(double d, uint64_t *digits, int *scale)
{
    char buf[40];
    for (int p = 1; p <= 17; p++) {
        snprintf(buf, sizeof buf, "%.*e", p - 1, d);
        if (strtod(buf, NULL) == d || p == 17)
            break;
    }
    uint64_t v = 0;
    int nd = 0, exp = 0;
    const char *c = buf;
    for (; *c && *c != 'e' && *c != 'E'; c++)
        if (*c >= '0' && *c <= '9') {
            v = v * 10 + (uint64_t)(*c - '0');
            nd++;
        }
    if (*c)
        exp = atoi(c + 1);
    /* buf is D.DDDD e exp: value = v * 10^(exp - (nd - 1)) */
    int sc = (nd - 1) - exp;
    while (sc < 0) {
        v *= 10;
        sc++;
    }
    while (sc > 0 && v % 10 == 0) {
        v /= 10;
        sc--;
    }
    *digits = v;
    *scale = sc;
}

/* Murmur3Partitioner.split(l, r, ratio): l + (r - l) * ratio in exact decimal arithmetic,
 * truncated toward zero; l >= r is the wrapping range of (2^64 - 1) + r - l tokens. */
static int64_t split64(int64_t l, int64_t r, double ratio)
{
    uint64_t digits;
    int scale;
    java_decimal(ratio, &digits, &scale);
    tr_i128 p = 1;
    for (int i = 0; i < scale; i++)
        p *= 10;
    tr_i128 width = l < r ? (tr_i128)r - l : ((tr_i128)INT64_MAX - (tr_i128)INT64_MIN) + r - l;
    tr_i128 t = (width * (tr_i128)digits + (tr_i128)l * p) / p;
    if (l < r || t <= INT64_MAX)
        return (int64_t)t;
    return (int64_t)((tr_i128)INT64_MIN + (t - INT64_MAX));
}

/* ------------------------------------------------------- RandomPartitioner */

#define TWO_127 ((tr_u128)1 << 127)

/* BigInteger.doubleValue() of 0 .. 2^128 - 1: the nearest double, ties to even (the
 * 64 bits below the leading one keep a sticky bit for what is dropped; converting those
 * to double rounds once, to nearest even). */
static double u128_to_double(tr_u128 v)
{
    uint64_t hi = (uint64_t)(v >> 64);
    if (hi == 0)
        return (double)(uint64_t)v;
    int shift = 64 - __builtin_clzll(hi); /* bits of v above the top 64: 1 .. 64 */
    uint64_t top = (uint64_t)(v >> shift);
    if (v & (((tr_u128)1 << shift) - 1))
        top |= 1;
    uint64_t bits = (uint64_t)(1023 + shift) << 52; /* 2^shift, exact */
    double scale;
    memcpy(&scale, &bits, sizeof scale);
    return (double)top * scale;
}

/* BigIntegerToken.size(): Math.scalb(BigInteger (to - from).doubleValue(), -127), plus
 * 1 when not positive (so from == to is the whole ring, and 2^127 to 0 is empty). */
static double size128(tr_u128 from, tr_u128 to)
{
    double d = to >= from ? u128_to_double(to - from) * 0x1p-127
                          : -(u128_to_double(from - to) * 0x1p-127);
    return d > 0.0 ? d : d + 1.0;
}

/* RandomPartitioner.split(l, r, ratio): l + (r - l) * BigDecimal.valueOf(ratio) exactly,
 * truncated; l >= r wraps: (2^127 + r - l) * ratio + l, truncated, modulo 2^127. The
 * product of a width (at most 2^127) and the ratio's digits (below 10^17) takes three
 * 64-bit limbs; the quotient by 10^scale is below the width. */
static tr_u128 split128(tr_u128 l, tr_u128 r, double ratio)
{
    uint64_t digits;
    int scale;
    java_decimal(ratio, &digits, &scale);
    uint64_t p = 1;
    for (int i = 0; i < scale; i++)
        p *= 10; /* scale <= 18 for the ratios the allocator uses (0.09.. to 0.9) */
    tr_u128 width = l < r ? r - l : TWO_127 + r - l;
    tr_u128 low = (tr_u128)(uint64_t)width * digits;
    tr_u128 high = (width >> 64) * digits + (low >> 64); /* product = high * 2^64 + (low & mask) */
    tr_u128 qhigh = high / p, rem = high % p;
    tr_u128 qlow = ((rem << 64) | (uint64_t)low) / p;
    tr_u128 t = (qhigh << 64) + qlow + l;
    return l < r ? t : t % TWO_127;
}

/* ------------------------------------------------- the partitioner's operations */

/* The engine's token: Murmur3's int64 t as t + 2^63 (order and differences mod 2^64
 * kept), RandomPartitioner's value as it is. */
typedef tr_u128 ctok;

static ctok from64(int64_t t)
{
    return (tr_u128)((uint64_t)t ^ (UINT64_C(1) << 63));
}

static int64_t to64(ctok t)
{
    return (int64_t)((uint64_t)t ^ (UINT64_C(1) << 63));
}

static inline double token_size(bool wide, ctok from, ctok to)
{
    return wide ? size128(from, to) : size64(to64(from), to64(to));
}

/* The partitioner's midpoint (lib/token/token.c: Murmur3Partitioner.midpoint,
 * RandomPartitioner's FBUtilities.midpoint over 127 bits); l >= r is the wrapping range. */
static ctok token_midpoint(bool wide, ctok l, ctok r)
{
    if (wide) {
        tokenring_token128 a = { (uint64_t)(l >> 64), (uint64_t)l };
        tokenring_token128 b = { (uint64_t)(r >> 64), (uint64_t)r };
        tr_tok x = tr_tok_128(a), y = tr_tok_128(b);
        tr_tok m = tr_ops(TOKENRING_PARTITIONER_RANDOM)->midpoint(&x, &y, NULL);
        return ((tr_u128)m.v128.hi << 64) | m.v128.lo;
    }
    tr_tok x = tr_tok_m3(to64(l)), y = tr_tok_m3(to64(r));
    return from64(tr_ops(TOKENRING_PARTITIONER_MURMUR3)->midpoint(&x, &y, NULL).key);
}

static inline ctok token_split(bool wide, ctok l, ctok r, double ratio)
{
    return wide ? split128(l, r, ratio) : from64(split64(to64(l), to64(r), ratio));
}

/* --------------------------------------------------------- the shared ring */

/* The allocation ring: the tokens the allocator sees, ascending, with a unit each. */
typedef struct {
    ctok *tok;
    uint32_t *unit;
    size_t n, cap;
    uint32_t units;       /* distinct units; the new unit is number `units` */
    uint32_t *group;      /* group of each unit (units + 1 entries) */
    uint32_t groups;      /* distinct groups of the existing units */
    uint32_t new_group;   /* group of the new unit (may equal an existing one) */
    int32_t *hash;        /* Java hash code of each existing unit */
    int replicas;
    bool wide;            /* RandomPartitioner tokens (else Murmur3's) */
} cring;

/* The tokens chosen, in the order Cassandra generates them. */
typedef struct {
    ctok *tok;
    size_t n;
} chosen;

static int ring_insert(cring *r, ctok t, uint32_t unit)
{
    size_t lo = 0, hi = r->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->tok[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < r->n && r->tok[lo] == t) { /* TreeMap.put of an existing key: new owner */
        r->unit[lo] = unit;
        return 0;
    }
    memmove(r->tok + lo + 1, r->tok + lo, (r->n - lo) * sizeof *r->tok);
    memmove(r->unit + lo + 1, r->unit + lo, (r->n - lo) * sizeof *r->unit);
    r->tok[lo] = t;
    r->unit[lo] = unit;
    r->n++;
    return 1;
}

/* TokenAllocatorBase.generateSplits(): a PRNG seeded with the ring's size; an empty ring
 * starts at `first` (Cassandra's random token); then the largest range (first found from
 * the wrap-around range on) is split at a ratio drawn from [0.553, 0.628]. */
static void generate_splits(cring *r, chosen *out, uint32_t num_tokens, ctok first)
{
    /* Cassandra's MIN = 1 - 1/Math.sqrt(5), MAX = MIN + 0.075, growth = MAX - MIN, in the
     * same binary64 steps; Math.sqrt is correctly rounded: sqrt(5) = 0x1.1e3779b97f4a8p+1. */
    double min_ratio = 1.0 - 1.0 / 0x1.1e3779b97f4a8p+1;
    double max_ratio = min_ratio + 0.075;
    double growth = max_ratio - min_ratio;
    jrandom rnd;
    jrandom_init(&rnd, (int64_t)r->n);
    uint32_t unit = r->units;
    if (r->n == 0) {
        out->tok[out->n++] = first;
        ring_insert(r, first, unit);
    }
    while (out->n < num_tokens) {
        ctok prev = r->tok[r->n - 1], t1 = 0, t2 = 0;
        double maxsz = 0;
        for (size_t i = 0; i < r->n; i++) {
            double sz = token_size(r->wide, prev, r->tok[i]);
            if (sz > maxsz) {
                maxsz = sz;
                t1 = prev;
                t2 = r->tok[i];
            }
            prev = r->tok[i];
        }
        ctok t = token_split(r->wide, t1, t2, min_ratio + growth * jrandom_next_double(&rnd));
        out->tok[out->n++] = t;
        ring_insert(r, t, unit);
    }
}

/* ------------------------------------------------ ReplicationAwareTokenAllocator */

/* Marks groups seen in one walk (Cassandra's GroupVisitor). */
typedef struct {
    uint8_t *mark;
    uint32_t *list;
    uint32_t n;
    int seen;
} visitor;

static bool visit_add(visitor *v, uint32_t g)
{
    if (v->mark[g])
        return false;
    v->mark[g] = 1;
    v->list[v->n++] = g;
    v->seen++;
    return true;
}

static void visit_clean(visitor *v)
{
    for (uint32_t i = 0; i < v->n; i++)
        v->mark[v->list[i]] = 0;
    v->n = 0;
    v->seen = 0;
}

typedef struct {
    cring *r;
    int replicas;
    double opt;
    /* vnodes: existing tokens then confirmed new ones, a circular list in ring order */
    ctok *tok;
    uint32_t *unit, *prev, *next;
    ctok *rstart, *rthr;
    double *rown;
    size_t ntok;
    /* candidates: one midpoint per original range, a circular list */
    ctok *ctok, *crstart, *crthr;
    uint32_t *csplit, *cprev, *cnext;
    /* units */
    double *own, *adj;
    double *count;     /* token count, as the double Cassandra divides by */
    uint32_t *prev_used;
    uint32_t *ugroup;
    uint32_t newu, newg;
    visitor repl, pop;
} ra_state;

/* populateTokenInfo(): the replication start of a vnode (the token of the replicas-th
 * distinct group met walking back from `walk_from`, or of the first repeat of its own
 * group) and the threshold a new token must pass to become the start. */
static ctok ra_populate(ra_state *s, ctok token, uint32_t tgroup, uint32_t walk_from,
                        ctok *thr_out)
{
    visitor *v = &s->pop;
    ctok start = 0, thr = token;
    uint32_t cg = 0;
    for (uint32_t curr = walk_from;; curr = s->prev[curr]) {
        start = s->tok[curr];
        cg = s->ugroup[s->unit[curr]];
        if (!visit_add(v, cg))
            continue;
        if (v->seen >= s->replicas)
            break;
        thr = start;
        if (cg == tgroup)
            break;
    }
    if (s->newg == tgroup)
        thr = token;
    else if (s->newg != cg && v->mark[s->newg])
        thr = start;
    visit_clean(v);
    *thr_out = thr;
    return start;
}

static void ra_populate_vnode(ra_state *s, uint32_t i)
{
    s->rstart[i] = ra_populate(s, s->tok[i], s->ugroup[s->unit[i]], s->prev[i], &s->rthr[i]);
    double now = token_size(s->r->wide, s->rstart[i], s->tok[i]);
    double old = s->rown[i];
    s->rown[i] = now;
    s->own[s->unit[i]] += now - old;
}

static void ra_populate_candidate(ra_state *s, uint32_t c)
{
    s->crstart[c] = ra_populate(s, s->ctok[c], s->newg, s->prev[s->csplit[c]], &s->crthr[c]);
}

static double sq(double d)
{
    return d * d;
}

/* Cassandra's UnitAdjustmentTracker: a chain of the units an insertion touches. */
static void track(ra_state *s, uint32_t *chain, uint32_t u, double diff)
{
    if (s->prev_used[u] == NIL) {
        s->adj[u] = s->own[u] + diff;
        s->prev_used[u] = *chain;
        *chain = u;
    } else {
        s->adj[u] += diff;
    }
}

static double ra_adjust(ra_state *s, uint32_t *chain, double old_own, uint32_t u,
                        ctok start, ctok end)
{
    double now = token_size(s->r->wide, start, end);
    double tc = s->count[u];
    track(s, chain, u, now - old_own);
    return (sq(now - s->opt) - sq(old_own - s->opt)) / sq(tc);
}

static ctok further_start(bool wide, ctok t1, ctok t2, ctok towards)
{
    if (t1 == towards)
        return t2;
    if (t2 == towards)
        return t1;
    return token_size(wide, t1, towards) > token_size(wide, t2, towards) ? t1 : t2;
}

/* evaluateImprovement(): minus the change of the token-level and unit-level squared
 * deviations from the ideal, summed in Cassandra's order. */
static double ra_evaluate(ra_state *s, uint32_t c, double new_unit_mult)
{
    uint32_t chain = s->newu;
    double token_change = 0;
    token_change += ra_adjust(s, &chain, s->opt, s->newu, s->crstart[c], s->ctok[c]);
    visitor *v = &s->repl;
    for (uint32_t curr = s->csplit[c]; v->seen < s->replicas; curr = s->next[curr]) {
        uint32_t u = s->unit[curr];
        if (!visit_add(v, s->ugroup[u]))
            continue;
        ctok start = further_start(s->r->wide, s->rthr[curr], s->ctok[c], s->tok[curr]);
        token_change += ra_adjust(s, &chain, s->rown[curr], u, start, s->tok[curr]);
    }
    visit_clean(v);
    double unit_change = 0;
    uint32_t u = chain;
    for (;;) {
        double tc = s->count[u];
        double diff = sq(s->adj[u] / tc - s->opt) - sq(s->own[u] / tc - s->opt);
        uint32_t p = s->prev_used[u];
        s->prev_used[u] = NIL;
        if (u != p) {
            unit_change += diff;
        } else {
            unit_change += diff * new_unit_mult;
            break;
        }
        u = p;
    }
    return -(token_change + unit_change);
}

/* confirmCandidate(): insert the token, refresh the spans it changes and the candidates
 * that follow it in the candidate list (as many as vnodes walked). */
static void ra_confirm(ra_state *s, uint32_t c, chosen *out)
{
    uint32_t split = s->csplit[c];
    uint32_t before = s->prev[split];
    uint32_t t = (uint32_t)s->ntok++;
    s->tok[t] = s->ctok[c];
    s->unit[t] = s->newu;
    s->rown[t] = s->opt;
    s->prev[t] = before;
    s->next[t] = split;
    s->next[before] = t;
    s->prev[split] = t;
    out->tok[out->n++] = s->ctok[c];
    ra_populate_vnode(s, t);
    visitor *v = &s->repl;
    uint32_t cand = c;
    for (uint32_t curr = s->next[t]; v->seen < s->replicas; curr = s->next[curr]) {
        cand = s->cnext[cand];
        ra_populate_candidate(s, cand);
        if (!visit_add(v, s->ugroup[s->unit[curr]]))
            continue;
        ra_populate_vnode(s, curr);
    }
    visit_clean(v);
}

static int replication_aware(cring *r, chosen *out, uint32_t num_tokens, ctok first)
{
    if (r->units < (uint32_t)r->replicas || num_tokens > r->n || r->groups < (uint32_t)r->replicas) {
        generate_splits(r, out, num_tokens, first);
        return TOKENRING_OK;
    }
    size_t m = r->n, cap = m + num_tokens;
    uint32_t nu = r->units + 1, ng = r->groups + 1;
    ra_state s;
    memset(&s, 0, sizeof s);
    s.r = r;
    s.replicas = r->replicas;
    s.opt = 1.0 * r->replicas / (double)(m + num_tokens);
    s.tok = tr_calloc(cap, sizeof *s.tok);
    s.unit = tr_calloc(cap, sizeof *s.unit);
    s.prev = tr_calloc(cap, sizeof *s.prev);
    s.next = tr_calloc(cap, sizeof *s.next);
    s.rstart = tr_calloc(cap, sizeof *s.rstart);
    s.rthr = tr_calloc(cap, sizeof *s.rthr);
    s.rown = tr_calloc(cap, sizeof *s.rown);
    s.ctok = tr_calloc(m, sizeof *s.ctok);
    s.crstart = tr_calloc(m, sizeof *s.crstart);
    s.crthr = tr_calloc(m, sizeof *s.crthr);
    s.csplit = tr_calloc(m, sizeof *s.csplit);
    s.cprev = tr_calloc(m, sizeof *s.cprev);
    s.cnext = tr_calloc(m, sizeof *s.cnext);
    s.own = tr_calloc(nu, sizeof *s.own);
    s.adj = tr_calloc(nu, sizeof *s.adj);
    s.count = tr_calloc(nu, sizeof *s.count);
    s.prev_used = tr_calloc(nu, sizeof *s.prev_used);
    s.repl.mark = tr_calloc(ng, 1);
    s.repl.list = tr_calloc(ng, sizeof *s.repl.list);
    s.pop.mark = tr_calloc(ng, 1);
    s.pop.list = tr_calloc(ng, sizeof *s.pop.list);
    jqueue q = { 0 };
    int rc = TOKENRING_E_NOMEM;
    if (!s.tok || !s.unit || !s.prev || !s.next || !s.rstart || !s.rthr || !s.rown || !s.ctok ||
        !s.crstart || !s.crthr || !s.csplit || !s.cprev || !s.cnext || !s.own || !s.adj ||
        !s.count || !s.prev_used || !s.repl.mark || !s.repl.list || !s.pop.mark || !s.pop.list)
        goto done;
    s.ugroup = r->group;
    s.newu = r->units;
    s.newg = r->new_group;
    for (uint32_t u = 0; u < nu; u++)
        s.prev_used[u] = NIL;
    for (size_t i = 0; i < m; i++)
        s.count[r->unit[i]] += 1.0;
    s.own[s.newu] = (double)num_tokens * s.opt;
    /* the vnode list, in ring order; spans populated from the first token on */
    for (size_t i = 0; i < m; i++) {
        s.tok[i] = r->tok[i];
        s.unit[i] = r->unit[i];
        s.prev[i] = (uint32_t)(i == 0 ? m - 1 : i - 1);
        s.next[i] = (uint32_t)(i + 1 == m ? 0 : i + 1);
    }
    s.ntok = m;
    for (size_t i = 0; i < m; i++)
        ra_populate_vnode(&s, (uint32_t)i);
    s.count[s.newu] = (double)num_tokens;
    /* candidates: the midpoint of each range, the range ending at token i */
    for (size_t i = 0; i < m; i++) {
        s.ctok[i] = token_midpoint(r->wide, s.tok[s.prev[i]], s.tok[i]);
        s.csplit[i] = (uint32_t)i;
        s.cprev[i] = (uint32_t)(i == 0 ? m - 1 : i - 1);
        s.cnext[i] = (uint32_t)(i + 1 == m ? 0 : i + 1);
        ra_populate_candidate(&s, (uint32_t)i);
    }
    for (size_t i = 0; i < m; i++)
        if ((rc = jqueue_add(&q, ra_evaluate(&s, (uint32_t)i, 1.0 / num_tokens), (uint32_t)i)) !=
            TOKENRING_OK)
            goto done;
    uint32_t best = jqueue_poll(&q).value;
    for (uint32_t vn = 1;; ++vn) {
        s.cnext[s.cprev[best]] = s.cnext[best];
        s.cprev[s.cnext[best]] = s.cprev[best];
        ra_confirm(&s, best, out);
        if (vn == num_tokens)
            break;
        for (;;) {
            best = jqueue_poll(&q).value;
            double impr = ra_evaluate(&s, best, (vn + 1.0) / num_tokens);
            if (q.n == 0 || impr >= q.a[0].weight)
                break;
            if ((rc = jqueue_add(&q, impr, best)) != TOKENRING_OK)
                goto done;
        }
    }
    rc = TOKENRING_OK;
done:
    jqueue_free(&q);
    tr_free(s.tok);
    tr_free(s.unit);
    tr_free(s.prev);
    tr_free(s.next);
    tr_free(s.rstart);
    tr_free(s.rthr);
    tr_free(s.rown);
    tr_free(s.ctok);
    tr_free(s.crstart);
    tr_free(s.crthr);
    tr_free(s.csplit);
    tr_free(s.cprev);
    tr_free(s.cnext);
    tr_free(s.own);
    tr_free(s.adj);
    tr_free(s.count);
    tr_free(s.prev_used);
    tr_free(s.repl.mark);
    tr_free(s.repl.list);
    tr_free(s.pop.mark);
    tr_free(s.pop.list);
    return rc;
}

/* ------------------------------------------------- NoReplicationTokenAllocator */

static int no_replication(cring *r, chosen *out, uint32_t num_tokens, ctok first,
                          tokenring_error *err)
{
    if (r->units == 0 || num_tokens > r->n) {
        generate_splits(r, out, num_tokens, first);
        return TOKENRING_OK;
    }
    size_t m = r->n, cap = m + num_tokens;
    uint32_t nu = r->units + 1;
    ctok *tok = tr_calloc(cap, sizeof *tok);
    uint32_t *unit = tr_calloc(cap, sizeof *unit);
    uint32_t *prev = tr_calloc(cap, sizeof *prev);
    uint32_t *next = tr_calloc(cap, sizeof *next);
    double *own = tr_calloc(nu, sizeof *own);
    uint32_t *order = tr_calloc(r->units, sizeof *order);
    jqueue *per_unit = tr_calloc(nu, sizeof *per_unit);
    jweighted *donors = tr_calloc(num_tokens, sizeof *donors);
    jweighted *picked = tr_calloc(num_tokens, sizeof *picked);
    jqueue units = { 0 };
    int rc = TOKENRING_E_NOMEM;
    if (!tok || !unit || !prev || !next || !own || !order || !per_unit || !donors || !picked)
        goto done;
    for (size_t i = 0; i < m; i++) {
        tok[i] = r->tok[i];
        unit[i] = r->unit[i];
        prev[i] = (uint32_t)(i == 0 ? m - 1 : i - 1);
        next[i] = (uint32_t)(i + 1 == m ? 0 : i + 1);
    }
    size_t ntok = m;
    /* populateTokenInfoAndAdjustUnit over the ring from its first token */
    for (size_t i = 0; i < m; i++) {
        double sz = token_size(r->wide, tok[prev[i]], tok[i]);
        own[unit[i]] += sz;
        if ((rc = jqueue_add(&per_unit[unit[i]], sz, (uint32_t)i)) != TOKENRING_OK)
            goto done;
    }
    if ((rc = java_hashmap_order(order, r->hash, r->units)) != TOKENRING_OK)
        goto done;
    for (uint32_t k = 0; k < r->units; k++)
        if ((rc = jqueue_add(&units, own[order[k]], order[k])) != TOKENRING_OK)
            goto done;
    /* donors: the largest units while each is above the average with the new unit */
    double target_average = 0.0, sum = 0.0;
    size_t nd = 0;
    for (uint32_t i = 0; i < num_tokens; i++) {
        if (units.n == 0)
            break;
        jweighted top = units.a[0];
        sum += top.weight;
        double average = sum / (double)(nd + 2);
        if (top.weight <= average)
            break;
        jqueue_poll(&units);
        donors[nd++] = top;
        target_average = average;
    }
    double size_correction = (num_tokens + 1.0) / (r->units + 1.0);
    if (size_correction > 1.0)
        size_correction = 1.0;
    double spread = target_average * size_correction * 2.0 / (double)(2 * num_tokens + 1);
    double target = target_average + spread / 2;
    double step = spread / (double)nd;
    for (size_t d = 0; d < nd; d++) {
        uint32_t du = donors[d].value;
        uint32_t change = num_tokens / (uint32_t)nd + (d < num_tokens % nd ? 1 : 0);
        double work = 0;
        for (uint32_t i = 0; i < change; i++) {
            if (per_unit[du].n == 0) {
                rc = tr_fail(err, TOKENRING_E_IMPOSSIBLE,
                             "Cassandra's allocator fails here (NoSuchElementException): a "
                             "donor has fewer tokens than it is asked to split");
                goto done;
            }
            picked[i] = jqueue_poll(&per_unit[du]);
            work += picked[i].weight;
            own[du] -= picked[i].weight;
        }
        double take = donors[d].weight - target;
        for (uint32_t i = 0; i < change; i++) {
            double slice;
            if (take < work) {
                slice = take / work;
                if (slice < 1.0 - 0.90)
                    slice = 1.0 - 0.90;
                if (slice > 0.90)
                    slice = 0.90;
            } else {
                slice = 0.90;
            }
            uint32_t w = picked[i].value;
            uint32_t before = prev[w];
            ctok t = token_split(r->wide, tok[before], tok[w], slice);
            uint32_t ti = (uint32_t)ntok++;
            tok[ti] = t;
            unit[ti] = r->units;
            prev[ti] = before;
            next[ti] = w;
            next[before] = ti;
            prev[w] = ti;
            out->tok[out->n++] = t;
            own[r->units] += token_size(r->wide, tok[before], t);
            double sz = token_size(r->wide, t, tok[w]);
            own[du] += sz;
            if ((rc = jqueue_add(&per_unit[du], sz, w)) != TOKENRING_OK)
                goto done;
        }
        target -= step;
    }
    rc = TOKENRING_OK;
done:
    if (per_unit)
        for (uint32_t u = 0; u < nu; u++)
            jqueue_free(&per_unit[u]);
    jqueue_free(&units);
    tr_free(tok);
    tr_free(unit);
    tr_free(prev);
    tr_free(next);
    tr_free(own);
    tr_free(order);
    tr_free(per_unit);
    tr_free(donors);
    tr_free(picked);
    return rc;
}

/* ------------------------------------------------------------ TokenAllocation */

typedef struct {
    const char *name, *dc, *rack;
    const ctok *tokens;
    size_t count;
    bool normal;
} cnode;

static int cmp_ctok(const void *a, const void *b)
{
    ctok x = *(const ctok *)a, y = *(const ctok *)b;
    return x < y ? -1 : x > y;
}

typedef struct { ctok token; uint32_t node; } owned;

static int cmp_owned(const void *a, const void *b)
{
    return cmp_ctok(&((const owned *)a)->token, &((const owned *)b)->token);
}

/* A token as Cassandra prints it (decimal), for messages. */
static const char *token_text(char buf[TOKENRING_TOKEN128_TEXT_MAX], bool wide, ctok t)
{
    if (!wide) {
        snprintf(buf, TOKENRING_TOKEN128_TEXT_MAX, "%" PRId64, to64(t));
        return buf;
    }
    char rev[TOKENRING_TOKEN128_TEXT_MAX];
    size_t n = 0;
    do {
        rev[n++] = (char)('0' + (int)(t % 10));
        t /= 10;
    } while (t != 0 && n < TOKENRING_TOKEN128_TEXT_MAX - 1);
    for (size_t i = 0; i < n; i++)
        buf[i] = rev[n - 1 - i];
    buf[n] = '\0';
    return buf;
}

/* The partitioner's first question: may this topology use this entry point? */
static int check_partitioner(const tokenring_topology *topology, bool wide, tokenring_error *err)
{
    tokenring_partitioner p = tokenring_topology_partitioner(topology);
    if (p == TOKENRING_PARTITIONER_BYTE_ORDERED)
        return tr_fail(err, TOKENRING_E_UNSUPPORTED,
                       "Cassandra has no token allocation for ByteOrderedPartitioner (its "
                       "tokens have no size or split: \"Token type BytesToken does not "
                       "support token allocation.\")");
    if (p == TOKENRING_PARTITIONER_MURMUR3 && wide)
        return tr_fail(err, TOKENRING_E_UNSUPPORTED,
                       "a Murmur3Partitioner topology has 64-bit tokens: use "
                       "tokenring_allocate_cassandra()");
    if (p == TOKENRING_PARTITIONER_RANDOM && !wide)
        return tr_fail(err, TOKENRING_E_UNSUPPORTED,
                       "a RandomPartitioner topology has 128-bit tokens: use "
                       "tokenring_allocate_cassandra128()");
    if (p != TOKENRING_PARTITIONER_MURMUR3 && p != TOKENRING_PARTITIONER_RANDOM)
        return tr_fail(err, TOKENRING_E_UNSUPPORTED, "unknown partitioner %d", (int)p);
    return TOKENRING_OK;
}

/* The state of one allocate_cassandra() call: the topology's nodes and tokens, which of
 * them form the allocation ring (createStrategy()), the ring with its unit and group
 * maps, and the chosen tokens. Zeroed to start; cass_free() releases all of it. */
typedef struct cass_state {
    bool wide;
    cnode *nodes;
    ctok *all;
    size_t nn, total;
    const char *dc_filter, *rack_filter;
    int replicas;
    bool by_rack;
    cring r;
    chosen out;
    uint32_t *unit_of_node, *node_of_unit;
    owned *normal;
    size_t nnormal;
} cass_state;

static void cass_free(cass_state *s)
{
    tr_free(s->nodes);
    tr_free(s->all);
    tr_free(s->out.tok);
    tr_free(s->unit_of_node);
    tr_free(s->node_of_unit);
    tr_free(s->normal);
    tr_free(s->r.tok);
    tr_free(s->r.unit);
    tr_free(s->r.group);
    tr_free(s->r.hash);
}

/* The arguments and the replication the allocation follows: *rf_out, and *simple_out
 * for a SimpleStrategy keyspace. */
static int cass_check(uint32_t num_tokens, const char *name, const char *datacenter,
                      const char *rack, const tokenring_replication *keyspace,
                      int32_t local_rf, uint32_t release, uint32_t flags,
                      const tokenring_limits *lim, int32_t *rf_out, bool *simple_out,
                      tokenring_error *err)
{
    if (flags & ~TOKENRING_CASSANDRA_OFFLINE)
        return tr_fail(err, TOKENRING_E_INVAL, "unknown flags 0x%x", flags);
    if (release != TOKENRING_CASSANDRA_4_0 && release != TOKENRING_CASSANDRA_4_1 &&
        release != TOKENRING_CASSANDRA_5_0)
        return tr_fail(err, TOKENRING_E_UNSUPPORTED,
                       "unknown Cassandra release line 0x%x (4.0, 4.1 and 5.0 are known)",
                       release);
    int rc;
    if ((rc = tr_check_name(err, "node name", name)) != TOKENRING_OK ||
        (rc = tr_check_name(err, "datacenter name", datacenter)) != TOKENRING_OK ||
        (rc = tr_check_rack_name(err, "rack name", rack)) != TOKENRING_OK)
        return rc;
    /* Cassandra's own cap (DatabaseDescriptor.MAX_NUM_TOKENS), raised by the limits */
    if ((rc = tr_check_num_tokens(err, num_tokens, lim)) != TOKENRING_OK)
        return rc;
    /* the replication the allocation follows */
    bool simple = false;
    int32_t rf;
    if (keyspace) {
        if (local_rf != 0)
            return tr_fail(err, TOKENRING_E_INVAL,
                           "give either a keyspace or a local replication factor, not both");
        int32_t f = 0;
        if (tokenring_replication_strategy(keyspace) == TOKENRING_SIMPLE) {
            simple = true;
            tokenring_replication_get(NULL, &f, NULL, keyspace, 0);
            if (f < 1)
                return tr_fail(err, TOKENRING_E_RANGE,
                               "SimpleStrategy with replication factor 0: Cassandra's "
                               "allocator needs at least 1");
        } else {
            size_t n = tokenring_replication_dc_count(keyspace);
            for (size_t i = 0; i < n; i++) {
                const char *dc;
                int32_t v;
                tokenring_replication_get(&dc, &v, NULL, keyspace, i);
                if (strcmp(dc, datacenter) == 0)
                    f = v;
            }
        }
        rf = f;
    } else {
        if (local_rf < 1 || local_rf > TOKENRING_MAX_RF)
            return tr_fail(err, TOKENRING_E_RANGE, "replication factor %d is outside 1..%d",
                           local_rf, TOKENRING_MAX_RF);
        rf = local_rf;
    }
    *rf_out = rf;
    *simple_out = simple;
    return TOKENRING_OK;
}

/* The topology's nodes with their tokens (either partitioner's, as ctok); the new node
 * must not be one of them. */
static int cass_read_nodes(cass_state *s, const tokenring_topology *topology,
                           const char *name, tokenring_error *err)
{
    size_t nn = tokenring_topology_node_count(topology);
    size_t total = 0;
    for (size_t i = 0; i < nn; i++) {
        tokenring_node_info info;
        tokenring_topology_node(&info, topology, i);
        total += info.token_count;
        if (strcmp(info.name, name) == 0)
            return tr_fail(err, TOKENRING_E_EXISTS, "node %s is already in the ring", name);
    }
    s->nn = nn;
    s->total = total;
    s->nodes = tr_calloc(nn ? nn : 1, sizeof *s->nodes);
    s->all = tr_calloc(total ? total : 1, sizeof *s->all);
    if (!s->nodes || !s->all)
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
    for (size_t i = 0, at = 0; i < nn; i++) {
        tokenring_node_info info;
        tokenring_topology_node(&info, topology, i);
        for (size_t k = 0; k < info.token_count; k++) {
            if (s->wide) {
                tokenring_token128 t = { 0, 0 };
                tokenring_topology_node_token128(&t, topology, i, k);
                s->all[at + k] = ((tr_u128)t.hi << 64) | t.lo;
            } else {
                s->all[at + k] = from64(info.tokens[k]);
            }
        }
        s->nodes[i] = (cnode){ info.name, info.datacenter, info.rack, s->all + at,
                               info.token_count, info.state != TOKENRING_STATE_JOINING };
        at += info.token_count;
    }
    return TOKENRING_OK;
}

/* TokenAllocation.createStrategy(): which ring, how many replicas, which groups. */
static int cass_strategy(cass_state *s, const char *datacenter, const char *rack, int32_t rf,
                         bool simple, uint32_t flags, tokenring_error *err)
{
    const cnode *nodes = s->nodes;
    size_t nn = s->nn;
    s->dc_filter = simple ? NULL : datacenter;
    s->rack_filter = NULL;
    s->by_rack = false;
    if (simple) {
        s->replicas = rf;
        return TOKENRING_OK;
    }
    /* racks of the datacenter among nodes with normal tokens; 1 if the new rack is not
     * one of them (or always, offline) */
    size_t racks = 0;
    bool known = false;
    for (size_t i = 0; i < nn; i++) {
        if (!nodes[i].normal || strcmp(nodes[i].dc, datacenter) != 0)
            continue;
        bool first_of_rack = true;
        for (size_t j = 0; j < i && first_of_rack; j++)
            if (nodes[j].normal && strcmp(nodes[j].dc, datacenter) == 0 &&
                strcmp(nodes[j].rack, nodes[i].rack) == 0)
                first_of_rack = false;
        racks += first_of_rack;
        known |= strcmp(nodes[i].rack, rack) == 0;
    }
    if (!known || (flags & TOKENRING_CASSANDRA_OFFLINE))
        racks = 1;
    if (rf <= 1) {
        s->replicas = 1;
    } else if (racks == (size_t)rf) {
        s->replicas = 1;
        s->rack_filter = rack;
    } else if (racks > (size_t)rf) {
        s->replicas = rf;
        s->by_rack = true;
    } else if (racks == 1) {
        s->replicas = rf;
    } else {
        return tr_fail(err, TOKENRING_E_IMPOSSIBLE,
                       "Token allocation failed: the number of racks %zu in datacenter %s "
                       "is lower than its replication factor %d.",
                       racks, datacenter, rf);
    }
    return TOKENRING_OK;
}

/* The allocation ring: every normal token sorted once; the ring is the part of it that
 * its nodes hold (tokens are distinct in a topology), with units numbered by first
 * appearance and their groups. */
static int cass_ring(cass_state *s, uint32_t num_tokens, const char *rack, uint32_t release,
                     tokenring_error *err)
{
    cring *r = &s->r;
    size_t nn = s->nn, total = s->total;
    const cnode *nodes = s->nodes;
    const char *dc_filter = s->dc_filter, *rack_filter = s->rack_filter;
    s->out.tok = tr_calloc(num_tokens, sizeof(ctok));
    r->wide = s->wide;
    s->unit_of_node = tr_calloc(nn ? nn : 1, sizeof *s->unit_of_node);
    s->node_of_unit = tr_calloc(nn + 1, sizeof *s->node_of_unit);
    s->normal = tr_calloc(total ? total : 1, sizeof *s->normal);
    r->cap = total + num_tokens;
    r->tok = tr_calloc(r->cap, sizeof *r->tok);
    r->unit = tr_calloc(r->cap, sizeof *r->unit);
    r->group = tr_calloc(nn + 1, sizeof *r->group);
    r->hash = tr_calloc(nn + 1, sizeof *r->hash);
    if (!s->out.tok || !s->unit_of_node || !s->node_of_unit || !s->normal || !r->tok ||
        !r->unit || !r->group || !r->hash)
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
    uint32_t *unit_of_node = s->unit_of_node, *node_of_unit = s->node_of_unit;
    owned *normal = s->normal;
    size_t nnormal = 0;
    for (size_t i = 0; i < nn; i++) {
        /* TokenAllocation works on TokenMetadata.cloneOnlyTokenMap(), which keeps normal
         * tokens only: joining nodes are not seen at all */
        bool in = nodes[i].normal && (!dc_filter || strcmp(nodes[i].dc, dc_filter) == 0) &&
                  (!rack_filter || strcmp(nodes[i].rack, rack_filter) == 0);
        unit_of_node[i] = in ? NIL : OUTSIDE;
        if (nodes[i].normal)
            for (size_t k = 0; k < nodes[i].count; k++)
                normal[nnormal++] = (owned){ nodes[i].tokens[k], (uint32_t)i };
    }
    qsort(normal, nnormal, sizeof *normal, cmp_owned);
    for (size_t i = 0; i < nnormal; i++) {
        uint32_t node = normal[i].node;
        if (unit_of_node[node] == OUTSIDE)
            continue;
        if (unit_of_node[node] == NIL) { /* units numbered by first appearance */
            unit_of_node[node] = r->units;
            node_of_unit[r->units] = node;
            r->hash[r->units] =
                java_endpoint_hash(nodes[node].name, release == TOKENRING_CASSANDRA_4_0);
            r->units++;
        }
        r->tok[r->n] = normal[i].token;
        r->unit[r->n++] = unit_of_node[node];
    }
    /* groups: the unit itself, or its rack (numbered by first appearance); the new
     * unit's group is counted apart (Cassandra counts the existing units' groups) */
    if (!s->by_rack) {
        for (uint32_t u = 0; u <= r->units; u++)
            r->group[u] = u;
        r->groups = r->units;
        r->new_group = r->units;
    } else {
        for (uint32_t u = 0; u <= r->units; u++) {
            const char *rk = u < r->units ? nodes[node_of_unit[u]].rack : rack;
            uint32_t g = NIL;
            for (uint32_t v = 0; v < u && g == NIL; v++)
                if (strcmp(nodes[node_of_unit[v]].rack, rk) == 0)
                    g = r->group[v];
            if (g == NIL)
                g = u < r->units ? r->groups++ : r->groups;
            r->group[u] = g;
        }
        r->new_group = r->group[r->units];
    }
    s->nnormal = nnormal;
    r->replicas = s->replicas;
    return TOKENRING_OK;
}

/* adjustForCrossDatacenterClashes() on the chosen tokens, then ascending; a token
 * chosen twice is refused. */
static int cass_adjust(cass_state *s, tokenring_error *err)
{
    for (size_t k = 0; k < s->out.n; k++) {
        ctok t = s->out.tok[k];
        for (;;) {
            owned key = { t, 0 };
            owned *hit = bsearch(&key, s->normal, s->nnormal, sizeof *s->normal, cmp_owned);
            if (!hit)
                break;
            const cnode *o = &s->nodes[hit->node];
            if ((!s->dc_filter || strcmp(o->dc, s->dc_filter) == 0) &&
                (!s->rack_filter || strcmp(o->rack, s->rack_filter) == 0)) {
                char buf[TOKENRING_TOKEN128_TEXT_MAX];
                return tr_fail(err, TOKENRING_E_EXISTS,
                               "Allocated token %s already assigned to node %s. Is "
                               "another node also allocating tokens?",
                               token_text(buf, s->wide, t), o->name);
            }
            /* nextValidToken(): LongToken wraps, a BigIntegerToken just counts on */
            if (!s->wide) {
                t = from64((int64_t)((uint64_t)to64(t) + 1));
            } else if (t == TWO_127) {
                return tr_fail(err, TOKENRING_E_IMPOSSIBLE,
                               "Cassandra would step past token 2^127, held in another "
                               "datacenter, to 2^127 + 1, which is no RandomPartitioner "
                               "token");
            } else {
                t++;
            }
        }
        s->out.tok[k] = t;
    }
    qsort(s->out.tok, s->out.n, sizeof *s->out.tok, cmp_ctok);
    for (size_t k = 1; k < s->out.n; k++)
        if (s->out.tok[k] == s->out.tok[k - 1]) {
            char buf[TOKENRING_TOKEN128_TEXT_MAX];
            return tr_fail(err, TOKENRING_E_IMPOSSIBLE,
                           "Cassandra would choose token %s twice (the node would join "
                           "with fewer tokens)",
                           token_text(buf, s->wide, s->out.tok[k]));
        }
    return TOKENRING_OK;
}

/* TokenAllocation.allocate() over either partitioner's tokens (the arguments checked
 * except the topology's partitioner and first_token's range); tokens_out ascending. */
static int allocate_cassandra(ctok *tokens_out, uint32_t num_tokens,
                              const tokenring_topology *topology, const char *name,
                              const char *datacenter, const char *rack,
                              const tokenring_replication *keyspace, int32_t local_rf,
                              const ctok *first_token, uint32_t release, uint32_t flags,
                              bool wide, const tokenring_limits *lim, tokenring_error *err)
{
    int32_t rf = 0;
    bool simple = false;
    int rc = cass_check(num_tokens, name, datacenter, rack, keyspace, local_rf, release, flags,
                        lim, &rf, &simple, err);
    if (rc != TOKENRING_OK)
        return rc;
    cass_state s;
    memset(&s, 0, sizeof s);
    s.wide = wide;
    if ((rc = cass_read_nodes(&s, topology, name, err)) != TOKENRING_OK ||
        (rc = cass_strategy(&s, datacenter, rack, rf, simple, flags, err)) != TOKENRING_OK ||
        (rc = cass_ring(&s, num_tokens, rack, release, err)) != TOKENRING_OK)
        goto done;
    if (s.r.n == 0 && !first_token) {
        rc = tr_fail(err, TOKENRING_E_INVAL,
                     "the allocation ring is empty: Cassandra starts it at a random token; "
                     "pass one as first_token");
        goto done;
    }
    ctok first = first_token ? *first_token : 0;
    if (s.replicas == 1)
        rc = no_replication(&s.r, &s.out, num_tokens, first, err);
    else
        rc = replication_aware(&s.r, &s.out, num_tokens, first);
    if (rc != TOKENRING_OK) {
        if (rc == TOKENRING_E_NOMEM)
            rc = tr_fail(err, rc, "out of memory");
        goto done;
    }
    if ((rc = cass_adjust(&s, err)) != TOKENRING_OK)
        goto done;
    memcpy(tokens_out, s.out.tok, s.out.n * sizeof *s.out.tok);
    rc = TOKENRING_OK;
done:
    cass_free(&s);
    return rc;
}

int tr_allocate_cassandra_lim(int64_t *tokens_out, uint32_t num_tokens,
                              const tokenring_topology *topology, const char *name,
                              const char *datacenter, const char *rack,
                              const tokenring_replication *keyspace, int32_t local_rf,
                              const int64_t *first_token, uint32_t release, uint32_t flags,
                              const tokenring_limits *lim, tokenring_error *err)
{
    if (!tokens_out || !topology || !name || !datacenter || !rack)
        return tr_fail(err, TOKENRING_E_INVAL, "NULL argument to the Cassandra allocator");
    int rc = check_partitioner(topology, false, err);
    if (rc != TOKENRING_OK)
        return rc;
    if ((rc = tr_check_num_tokens(err, num_tokens, lim)) != TOKENRING_OK)
        return rc;
    ctok *out = tr_calloc(num_tokens, sizeof *out);
    if (!out)
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
    ctok first = first_token ? from64(*first_token) : 0;
    rc = allocate_cassandra(out, num_tokens, topology, name, datacenter, rack, keyspace,
                            local_rf, first_token ? &first : NULL, release, flags, false, lim, err);
    if (rc == TOKENRING_OK)
        for (uint32_t k = 0; k < num_tokens; k++)
            tokens_out[k] = to64(out[k]);
    tr_free(out);
    return rc;
}

int tr_allocate_cassandra128_lim(tokenring_token128 *tokens_out, uint32_t num_tokens,
                                 const tokenring_topology *topology, const char *name,
                                 const char *datacenter, const char *rack,
                                 const tokenring_replication *keyspace, int32_t local_rf,
                                 const tokenring_token128 *first_token, uint32_t release,
                                 uint32_t flags, const tokenring_limits *lim,
                                 tokenring_error *err)
{
    if (!tokens_out || !topology || !name || !datacenter || !rack)
        return tr_fail(err, TOKENRING_E_INVAL, "NULL argument to the Cassandra allocator");
    int rc = check_partitioner(topology, true, err);
    if (rc != TOKENRING_OK)
        return rc;
    if ((rc = tr_check_num_tokens(err, num_tokens, lim)) != TOKENRING_OK)
        return rc;
    ctok first = 0;
    if (first_token) {
        first = ((tr_u128)first_token->hi << 64) | first_token->lo;
        if (first > TWO_127)
            return tr_fail(err, TOKENRING_E_RANGE,
                           "first_token is not a RandomPartitioner node token (0 .. 2^127)");
    }
    ctok *out = tr_calloc(num_tokens, sizeof *out);
    if (!out)
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
    rc = allocate_cassandra(out, num_tokens, topology, name, datacenter, rack, keyspace,
                            local_rf, first_token ? &first : NULL, release, flags, true, lim, err);
    if (rc == TOKENRING_OK)
        for (uint32_t k = 0; k < num_tokens; k++)
            tokens_out[k] = (tokenring_token128){ (uint64_t)(out[k] >> 64), (uint64_t)out[k] };
    tr_free(out);
    return rc;
}

/* The public calls have no limits: above Cassandra's own cap there are no Cassandra
 * tokens to reproduce (the server refuses to start such a node). */
static int check_cassandra_cap(uint32_t num_tokens, tokenring_error *err)
{
    if (num_tokens > TOKENRING_MAX_NUM_TOKENS && num_tokens <= TOKENRING_LAYOUT_MAX_TOKENS)
        return tr_fail(err, TOKENRING_E_RANGE,
                       "num_tokens %u is above %u, Cassandra's own limit (\"A maximum number "
                       "of 1536 tokens per node is supported\"): Cassandra refuses to start "
                       "such a node, so it has no tokens to reproduce (the join plan, "
                       "tokenring_allocate_join_limited() with tokenring_limits.max_num_tokens, "
                       "plans more)",
                       num_tokens, TOKENRING_MAX_NUM_TOKENS);
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_allocate_cassandra(int64_t *tokens_out, uint32_t num_tokens,
                                               const tokenring_topology *topology,
                                               const char *name, const char *datacenter,
                                               const char *rack,
                                               const tokenring_replication *keyspace,
                                               int32_t local_rf, const int64_t *first_token,
                                               uint32_t release, uint32_t flags,
                                               tokenring_error *err)
{
    int rc = check_cassandra_cap(num_tokens, err);
    if (rc != TOKENRING_OK)
        return rc;
    return tr_allocate_cassandra_lim(tokens_out, num_tokens, topology, name, datacenter, rack,
                                     keyspace, local_rf, first_token, release, flags, NULL,
                                     err);
}

TOKENRING_API int tokenring_allocate_cassandra128(tokenring_token128 *tokens_out,
                                                  uint32_t num_tokens,
                                                  const tokenring_topology *topology,
                                                  const char *name, const char *datacenter,
                                                  const char *rack,
                                                  const tokenring_replication *keyspace,
                                                  int32_t local_rf,
                                                  const tokenring_token128 *first_token,
                                                  uint32_t release, uint32_t flags,
                                                  tokenring_error *err)
{
    int rc = check_cassandra_cap(num_tokens, err);
    if (rc != TOKENRING_OK)
        return rc;
    return tr_allocate_cassandra128_lim(tokens_out, num_tokens, topology, name, datacenter,
                                        rack, keyspace, local_rf, first_token, release, flags,
                                        NULL, err);
}
