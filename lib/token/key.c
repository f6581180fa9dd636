/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Partition-key bytes: CQL value serialization, composite keys, and the string forms
 * `nodetool getendpoints` accepts (Cassandra's AbstractType.fromString and
 * CompositeType.fromString), re-implemented from their documented behaviour.
 *
 * Where Cassandra's parser depends on its environment we pick the reproducible choice and
 * say so here (and in the tests):
 *  - timestamp strings without a zone are read as UTC (Cassandra uses the JVM's default
 *    zone); "now" is refused (E_PARSE) because its value is not reproducible; zone names
 *    other than UTC/GMT are not supported (Java also knows PST, CET, ...).
 *  - float/double parsing never depends on the C locale: the text is validated against
 *    Java's Float.parseFloat/Double.parseDouble grammar here and handed to strtof/strtod
 *    as "DIGITSeEXP" (or "0xHEXpEXP"), a form without a radix character.
 *  - inet accepts IPv4 literals (Java's 1-4 part decimal forms) and IPv6 literals
 *    (optionally in brackets, with an optional numeric scope; ::ffff:a.b.c.d becomes 4
 *    bytes as in Java); host names and interface-name scopes are never resolved.
 *  - numbers use ASCII digits only (Java also accepts other Unicode decimal digits).
 *  (The empty string follows Cassandra: false for boolean, an error for date and time, the
 *  empty value for every other type.)
 *
 * Cross-checked against the JDK 17 calls Cassandra makes (Integer/Long/Short/Byte.parseX,
 * BigInteger, BigDecimal, Float/Double.parseX, the IPv4/IPv6 literal parser, java.time's
 * strict ISO date, commons-lang3 DateUtils.parseDateStrictly with Cassandra's timestamp
 * patterns): about 37,000 strings (edge cases, a zone matrix, random ones) gave the same
 * bytes or the same rejection, apart from the divergences listed above.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Significant decimal digits accepted for varint/decimal: bounds the quadratic
 * conversion; 200,000 digits is ~83 KB, already more than any key can hold. */
#define MAX_BIG_DIGITS 200000u

#define PFAIL(code, col, ...) \
    tr_fail_at(err, (code), 1, clamp_col((size_t)(col)), __VA_ARGS__)

static uint32_t clamp_col(size_t col)
{
    return col > UINT32_MAX ? UINT32_MAX : (uint32_t)col;
}

/* ---------------------------------------------------------------- type names */

static const char *const canonical_names[] = {
    NULL,      "ascii",  "bigint", "blob",     "boolean", "date",      "decimal",
    "double",  "float",  "inet",   "int",      "smallint", "text",     "time",
    "timestamp", "timeuuid", "tinyint", "uuid", "varint",
};

static const struct {
    const char *name;
    tokenring_cql_type type;
} name_table[] = {
    { "ascii", TOKENRING_CQL_ASCII },         { "bigint", TOKENRING_CQL_BIGINT },
    { "blob", TOKENRING_CQL_BLOB },           { "boolean", TOKENRING_CQL_BOOLEAN },
    { "counter", TOKENRING_CQL_BIGINT },      { "date", TOKENRING_CQL_DATE },
    { "decimal", TOKENRING_CQL_DECIMAL },     { "double", TOKENRING_CQL_DOUBLE },
    { "float", TOKENRING_CQL_FLOAT },         { "inet", TOKENRING_CQL_INET },
    { "int", TOKENRING_CQL_INT },             { "smallint", TOKENRING_CQL_SMALLINT },
    { "text", TOKENRING_CQL_TEXT },           { "time", TOKENRING_CQL_TIME },
    { "timestamp", TOKENRING_CQL_TIMESTAMP }, { "timeuuid", TOKENRING_CQL_TIMEUUID },
    { "tinyint", TOKENRING_CQL_TINYINT },     { "uuid", TOKENRING_CQL_UUID },
    { "varchar", TOKENRING_CQL_TEXT },        { "varint", TOKENRING_CQL_VARINT },
};

static bool valid_type(tokenring_cql_type type)
{
    return (int)type >= TOKENRING_CQL_ASCII && (int)type <= TOKENRING_CQL_VARINT;
}

static int lower_ascii(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* Case-insensitive (ASCII only, locale-free) comparison of s[0..n) with a lowercase word. */
static bool eq_nocase(const char *s, size_t n, const char *word)
{
    size_t wl = strlen(word);
    if (n != wl)
        return false;
    for (size_t i = 0; i < n; i++)
        if (lower_ascii((unsigned char)s[i]) != word[i])
            return false;
    return true;
}

TOKENRING_API int tokenring_cql_type_from_name(tokenring_cql_type *type_out, const char *name)
{
    if (type_out == NULL || name == NULL)
        return TOKENRING_E_INVAL;
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof name_table / sizeof name_table[0]; i++) {
        if (eq_nocase(name, n, name_table[i].name)) {
            *type_out = name_table[i].type;
            return TOKENRING_OK;
        }
    }
    return TOKENRING_E_NOTFOUND;
}

TOKENRING_API const char *tokenring_cql_type_name(tokenring_cql_type type)
{
    return valid_type(type) ? canonical_names[type] : NULL;
}

/* ---------------------------------------------------------------- fixed encoders */

static void put_be(uint8_t *out, uint64_t v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
}

TOKENRING_API int tokenring_encode_int(uint8_t out[4], int32_t value)
{
    if (out == NULL)
        return TOKENRING_E_INVAL;
    put_be(out, (uint32_t)value, 4);
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_encode_bigint(uint8_t out[8], int64_t value)
{
    if (out == NULL)
        return TOKENRING_E_INVAL;
    put_be(out, (uint64_t)value, 8);
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_encode_smallint(uint8_t out[2], int16_t value)
{
    if (out == NULL)
        return TOKENRING_E_INVAL;
    put_be(out, (uint16_t)value, 2);
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_encode_tinyint(uint8_t out[1], int8_t value)
{
    if (out == NULL)
        return TOKENRING_E_INVAL;
    out[0] = (uint8_t)value;
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_encode_boolean(uint8_t out[1], int value)
{
    if (out == NULL)
        return TOKENRING_E_INVAL;
    out[0] = value ? 1 : 0;
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_encode_timestamp(uint8_t out[8], int64_t millis)
{
    return tokenring_encode_bigint(out, millis);
}

TOKENRING_API int tokenring_encode_uuid(uint8_t out[16], uint64_t msb, uint64_t lsb)
{
    if (out == NULL)
        return TOKENRING_E_INVAL;
    put_be(out, msb, 8);
    put_be(out + 8, lsb, 8);
    return TOKENRING_OK;
}

/* ---------------------------------------------------------------- output helper */

static int need(uint8_t *out, size_t cap, size_t *len_out, const void *bytes, size_t n,
                tokenring_error *err)
{
    *len_out = n;
    if (n > cap)
        return tr_fail(err, TOKENRING_E_BUFSIZE,
                       "output buffer of %zu bytes is too small: %zu bytes needed", cap, n);
    if (n)
        memcpy(out, bytes, n);
    return TOKENRING_OK;
}

static bool is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static int hex_value(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* True when s[0..n) matches Java's "^-?\d+$" (ASCII digits). */
static bool is_raw_integer(const char *s, size_t n)
{
    size_t i = (n > 0 && s[0] == '-') ? 1 : 0;
    if (i == n)
        return false;
    for (; i < n; i++)
        if (!is_digit((unsigned char)s[i]))
            return false;
    return true;
}

/*
 * Java's Integer/Long/Short/Byte.parseX grammar: an optional '+' or '-', then one or more
 * ASCII digits, nothing else. @p base is the 0-based offset of s in the caller's text,
 * for error columns. E_RANGE when the value is outside [lo, hi].
 */
static int parse_java_integer(int64_t *v_out, const char *s, size_t n, int64_t lo, int64_t hi,
                              const char *what, size_t base, tokenring_error *err)
{
    size_t i = 0;
    bool neg = false;
    if (n > 0 && (s[0] == '+' || s[0] == '-')) {
        neg = s[0] == '-';
        i = 1;
    }
    if (i == n)
        return PFAIL(TOKENRING_E_PARSE, base + i + 1, "%s: expected a digit", what);
    uint64_t mag = 0;
    bool over = false;
    for (size_t k = i; k < n; k++) {
        unsigned char c = (unsigned char)s[k];
        if (!is_digit(c))
            return PFAIL(TOKENRING_E_PARSE, base + k + 1,
                         "%s: unexpected character '%c' (expected a digit)", what,
                         c >= 0x20 && c < 0x7f ? c : '?');
        unsigned d = (unsigned)(c - '0');
        if (mag > (UINT64_MAX - d) / 10)
            over = true;
        else
            mag = mag * 10 + d;
    }
    uint64_t limit = neg ? (uint64_t)(-(lo + 1)) + 1 : (uint64_t)hi;
    if (over || mag > limit)
        return PFAIL(TOKENRING_E_RANGE, base + 1, "%s: %.*s is outside [%lld, %lld]", what,
                     (int)(n > 40 ? 40 : n), s, (long long)lo, (long long)hi);
    *v_out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
    return TOKENRING_OK;
}

/* ---------------------------------------------------------------- varint / decimal */

/*
 * Decimal digits (any '.' in s is skipped) to the shortest big-endian two's complement
 * bytes of +value or -value. The magnitude is built in 32-bit limbs, nine digits at a
 * time (multiply by 10^9 and add). The bytes are written to out when they fit in cap;
 * *len receives the length either way. E_NOMEM only for numbers over ~150 digits.
 */
static int digits_to_varint(uint8_t *out, size_t cap, size_t *len, const char *s, size_t n,
                            bool neg)
{
    size_t i = 0;
    while (i < n && (s[i] == '0' || s[i] == '.'))
        i++;
    size_t nd = 0;
    for (size_t k = i; k < n; k++)
        nd += s[k] != '.';
    if (nd == 0) {
        *len = 1;
        if (cap >= 1)
            out[0] = 0;
        return TOKENRING_OK;
    }
    size_t maxl = nd / 9 + 2;
    uint32_t small[24];
    uint32_t *L = small;
    if (maxl > sizeof small / sizeof small[0]) {
        L = tr_calloc(maxl, sizeof *L);
        if (L == NULL)
            return TOKENRING_E_NOMEM;
    }
    static const uint32_t pow10[10] = { 1,      10,      100,      1000,      10000,
                                        100000, 1000000, 10000000, 100000000, 1000000000 };
    size_t m = 0, left = nd, k = i;
    size_t take = nd % 9 ? nd % 9 : 9;
    while (left > 0) {
        uint32_t chunk = 0;
        for (size_t t = 0; t < take; k++) {
            if (s[k] == '.')
                continue;
            chunk = chunk * 10 + (uint32_t)(s[k] - '0');
            t++;
        }
        uint64_t carry = chunk, mul = pow10[take];
        for (size_t j = 0; j < m; j++) {
            uint64_t t = (uint64_t)L[j] * mul + carry;
            L[j] = (uint32_t)t;
            carry = t >> 32;
        }
        if (carry)
            L[m++] = (uint32_t)carry;
        left -= take;
        take = 9;
    }
    if (m == 0) /* unreachable: nd > 0 means a non-zero digit */
        L[m++] = 0;
    if (neg) { /* 2^(32m) - M */
        uint64_t c = 1;
        for (size_t j = 0; j < m; j++) {
            uint64_t t = (uint64_t)(uint32_t)~L[j] + c;
            L[j] = (uint32_t)t;
            c = t >> 32;
        }
    }
    /* Bytes: one sign-extension byte, then 4m bytes big-endian. */
    size_t total = 4 * m + 1;
    uint8_t ext = neg ? 0xFF : 0x00;
#define BYTE_AT(b) ((b) == 0 ? ext : (uint8_t)(L[m - 1 - ((b)-1) / 4] >> (8 * (3 - ((b)-1) % 4))))
    size_t start = 0;
    while (start + 1 < total) {
        uint8_t x = BYTE_AT(start), y = BYTE_AT(start + 1);
        if ((x == 0x00 && y < 0x80) || (x == 0xFF && y >= 0x80))
            start++;
        else
            break;
    }
    *len = total - start;
    if (cap >= *len)
        for (size_t b = start; b < total; b++)
            out[b - start] = BYTE_AT(b);
#undef BYTE_AT
    if (L != small)
        tr_free(L);
    return TOKENRING_OK;
}

static int parse_varint(uint8_t *out, size_t cap, size_t *len_out, const char *s, size_t n,
                        tokenring_error *err)
{
    size_t i = 0;
    bool neg = false;
    if (n > 0 && (s[0] == '+' || s[0] == '-')) {
        neg = s[0] == '-';
        i = 1;
    }
    if (i == n)
        return PFAIL(TOKENRING_E_PARSE, i + 1, "varint: expected a digit");
    for (size_t k = i; k < n; k++)
        if (!is_digit((unsigned char)s[k]))
            return PFAIL(TOKENRING_E_PARSE, k + 1, "varint: expected a digit");
    if (n - i > MAX_BIG_DIGITS)
        return PFAIL(TOKENRING_E_RANGE, 1, "varint: more than %u digits", MAX_BIG_DIGITS);
    size_t len;
    int rc = digits_to_varint(out, cap, &len, s + i, n - i, neg);
    if (rc != TOKENRING_OK)
        return tr_fail(err, rc, "varint: out of memory");
    *len_out = len;
    if (len > cap)
        return tr_fail(err, TOKENRING_E_BUFSIZE,
                       "output buffer of %zu bytes is too small: %zu bytes needed", cap, len);
    return TOKENRING_OK;
}

/* Java's BigDecimal(String): [+-] (digits [. digits*] | . digits) [eE [+-] digits]. The
 * scale is (fraction digits - exponent) and must fit a 32-bit int. */
static int parse_decimal(uint8_t *out, size_t cap, size_t *len_out, const char *s, size_t n,
                         tokenring_error *err)
{
    size_t i = 0;
    bool neg = false;
    if (n > 0 && (s[0] == '+' || s[0] == '-')) {
        neg = s[0] == '-';
        i = 1;
    }
    size_t mant = i, ndig = 0, frac = 0;
    bool point = false;
    for (; i < n; i++) {
        char c = s[i];
        if (c == '.' && !point) {
            point = true;
        } else if (is_digit((unsigned char)c)) {
            ndig++;
            frac += point;
        } else {
            break;
        }
    }
    size_t mant_end = i;
    if (ndig == 0)
        return PFAIL(TOKENRING_E_PARSE, i + 1, "decimal: expected a digit");
    int64_t exp = 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        bool eneg = false;
        if (i < n && (s[i] == '+' || s[i] == '-')) {
            eneg = s[i] == '-';
            i++;
        }
        if (i == n || !is_digit((unsigned char)s[i]))
            return PFAIL(TOKENRING_E_PARSE, i + 1, "decimal: expected exponent digits");
        size_t ecol = i + 1;
        for (; i < n && is_digit((unsigned char)s[i]); i++)
            if (exp < 1000000000000LL)
                exp = exp * 10 + (s[i] - '0');
        if (eneg)
            exp = -exp;
        if (i == n && (exp < INT32_MIN || exp > INT32_MAX)) /* as BigDecimal: an int */
            return PFAIL(TOKENRING_E_RANGE, ecol, "decimal: exponent does not fit 32 bits");
    }
    if (i != n)
        return PFAIL(TOKENRING_E_PARSE, i + 1, "decimal: unexpected character");
    if (ndig > MAX_BIG_DIGITS)
        return PFAIL(TOKENRING_E_RANGE, 1, "decimal: more than %u digits", MAX_BIG_DIGITS);
    int64_t scale = (int64_t)frac - exp;
    if (scale < INT32_MIN || scale > INT32_MAX)
        return PFAIL(TOKENRING_E_RANGE, 1, "decimal: scale %lld does not fit 32 bits",
                     (long long)scale);
    size_t vlen;
    int rc = digits_to_varint(cap >= 4 ? out + 4 : NULL, cap >= 4 ? cap - 4 : 0, &vlen,
                              s + mant, mant_end - mant, neg);
    if (rc != TOKENRING_OK)
        return tr_fail(err, rc, "decimal: out of memory");
    *len_out = 4 + vlen;
    if (4 + vlen > cap)
        return tr_fail(err, TOKENRING_E_BUFSIZE,
                       "output buffer of %zu bytes is too small: %zu bytes needed", cap,
                       4 + vlen);
    put_be(out, (uint32_t)(int32_t)scale, 4);
    return TOKENRING_OK;
}

/* ---------------------------------------------------------------- float / double */

#define FLOAT_DEC_DIGITS 800 /* > 767: enough for correct rounding of any double */
#define FLOAT_HEX_DIGITS 40

/*
 * Java's Float.parseFloat / Double.parseDouble: surrounding characters <= ' ' trimmed,
 * optional sign, then "NaN", "Infinity", a decimal (digits [. digits] [eE[+-]digits]) or
 * hexadecimal (0x hexdigits [. hexdigits] pP[+-]digits) significand, optionally followed
 * by one of f F d D. Overflow gives infinity and underflow zero, as in Java.
 */
static int parse_java_float(uint8_t tmp[8], size_t *len, bool dbl, const char *s, size_t n,
                            tokenring_error *err)
{
    const char *what = dbl ? "double" : "float";
    size_t a = 0, b = n;
    while (a < b && (unsigned char)s[a] <= ' ')
        a++;
    while (b > a && (unsigned char)s[b - 1] <= ' ')
        b--;
    size_t i = a;
    bool neg = false;
    if (i < b && (s[i] == '+' || s[i] == '-')) {
        neg = s[i] == '-';
        i++;
    }
    double dv = 0;
    float fv = 0;
    bool special = false;
    if (b - i == 3 && memcmp(s + i, "NaN", 3) == 0) {
        special = true;
        dv = (double)NAN;
        fv = NAN;
    } else if (b - i == 8 && memcmp(s + i, "Infinity", 8) == 0) {
        special = true;
        dv = neg ? -(double)INFINITY : (double)INFINITY;
        fv = neg ? -INFINITY : INFINITY;
    }
    if (!special) {
        char buf[FLOAT_DEC_DIGITS + 48];
        size_t k = 0;
        if (neg)
            buf[k++] = '-';
        bool hex = b - i >= 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X');
        if (hex) {
            i += 2;
            buf[k++] = '0';
            buf[k++] = 'x';
        }
        size_t limit = hex ? FLOAT_HEX_DIGITS : FLOAT_DEC_DIGITS;
        size_t kept = 0, frac = 0, dropped = 0;
        bool seen_digit = false, point = false, sticky = false;
        for (; i < b; i++) {
            char c = s[i];
            if (c == '.' && !point) {
                point = true;
                continue;
            }
            int d = hex ? hex_value((unsigned char)c)
                        : (is_digit((unsigned char)c) ? c - '0' : -1);
            if (d < 0)
                break;
            seen_digit = true;
            frac += point;
            if (kept == 0 && d == 0)
                continue;
            if (kept < limit) {
                buf[k++] = c;
                kept++;
            } else {
                dropped++;
                sticky |= d != 0;
            }
        }
        if (!seen_digit)
            return PFAIL(TOKENRING_E_PARSE, i + 1, "%s: expected a digit", what);
        if (kept == 0)
            buf[k++] = '0';
        if (sticky) {
            buf[k++] = '1';
            dropped--;
        }
        int64_t exp = 0;
        bool has_exp = i < b && (hex ? (s[i] == 'p' || s[i] == 'P') : (s[i] == 'e' || s[i] == 'E'));
        if (hex && !has_exp)
            return PFAIL(TOKENRING_E_PARSE, i + 1,
                         "%s: a hexadecimal number needs a binary exponent (p)", what);
        if (has_exp) {
            i++;
            bool eneg = false;
            if (i < b && (s[i] == '+' || s[i] == '-')) {
                eneg = s[i] == '-';
                i++;
            }
            if (i == b || !is_digit((unsigned char)s[i]))
                return PFAIL(TOKENRING_E_PARSE, i + 1, "%s: expected exponent digits", what);
            for (; i < b && is_digit((unsigned char)s[i]); i++)
                if (exp < 1000000000000000LL)
                    exp = exp * 10 + (s[i] - '0');
            if (eneg)
                exp = -exp;
        }
        if (i < b && (s[i] == 'f' || s[i] == 'F' || s[i] == 'd' || s[i] == 'D'))
            i++;
        if (i != b)
            return PFAIL(TOKENRING_E_PARSE, i + 1, "%s: unexpected character", what);
        int64_t unit = hex ? 4 : 1;
        exp += ((int64_t)dropped - (int64_t)frac) * unit;
        snprintf(buf + k, sizeof buf - k, "%c%lld", hex ? 'p' : 'e', (long long)exp);
        char *end = NULL;
        errno = 0; /* ERANGE (overflow to inf, underflow to 0) is what Java does too */
        if (dbl)
            dv = strtod(buf, &end);
        else
            fv = strtof(buf, &end);
        if (end == NULL || *end != '\0')
            return PFAIL(TOKENRING_E_PARSE, a + 1, "%s: not a number", what);
    }
    if (dbl) {
        uint64_t bits;
        if (dv != dv)
            bits = 0x7ff8000000000000ULL; /* Java's canonical NaN */
        else
            memcpy(&bits, &dv, 8);
        put_be(tmp, bits, 8);
        *len = 8;
    } else {
        uint32_t bits;
        if (fv != fv)
            bits = 0x7fc00000u;
        else
            memcpy(&bits, &fv, 4);
        put_be(tmp, bits, 4);
        *len = 4;
    }
    return TOKENRING_OK;
}

/* ---------------------------------------------------------------- text, blob, uuid */

static int parse_uuid(uint8_t tmp[16], const char *s, size_t n, bool time_based,
                      tokenring_error *err)
{
    const char *what = time_based ? "timeuuid" : "uuid";
    size_t k = 0;
    for (size_t i = 0; i < n && i < 36; i++) {
        bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash) {
            if (s[i] != '-')
                return PFAIL(TOKENRING_E_PARSE, i + 1,
                             "%s: expected '-' (form xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)",
                             what);
            continue;
        }
        int h = hex_value((unsigned char)s[i]);
        if (h < 0)
            return PFAIL(TOKENRING_E_PARSE, i + 1, "%s: expected a hex digit", what);
        if (k % 2 == 0)
            tmp[k / 2] = (uint8_t)(h << 4);
        else
            tmp[k / 2] |= (uint8_t)h;
        k++;
    }
    if (n != 36)
        return PFAIL(TOKENRING_E_PARSE, (n < 36 ? n : 36) + 1,
                     "%s: expected 36 characters (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx), got %zu",
                     what, n);
    if (time_based && (tmp[6] >> 4) != 1)
        return PFAIL(TOKENRING_E_PARSE, 15, "timeuuid: version %d UUID, expected version 1",
                     tmp[6] >> 4);
    return TOKENRING_OK;
}

/* ---------------------------------------------------------------- inet */

/* Java's IPv4 literal forms: a, a.b, a.b.c, a.b.c.d (decimal; the last part fills the
 * remaining bytes). */
static bool parse_ipv4_java(uint8_t tmp[4], const char *s, size_t n)
{
    uint64_t parts[4];
    size_t np = 0, i = 0;
    while (1) {
        if (np == 4 || i == n || !is_digit((unsigned char)s[i]))
            return false;
        uint64_t v = 0;
        for (; i < n && is_digit((unsigned char)s[i]); i++) {
            v = v * 10 + (uint64_t)(s[i] - '0');
            if (v > 0xFFFFFFFFu)
                return false;
        }
        parts[np++] = v;
        if (i == n)
            break;
        if (s[i] != '.')
            return false;
        i++;
    }
    uint32_t addr = 0;
    for (size_t p = 0; p + 1 < np; p++) {
        if (parts[p] > 255)
            return false;
        addr |= (uint32_t)parts[p] << (8 * (3 - p));
    }
    uint64_t lastmax = np == 1 ? 0xFFFFFFFFu : np == 2 ? 0xFFFFFFu : np == 3 ? 0xFFFFu : 0xFFu;
    if (parts[np - 1] > lastmax)
        return false;
    addr |= (uint32_t)parts[np - 1];
    put_be(tmp, addr, 4);
    return true;
}

static int parse_inet(uint8_t tmp[16], size_t *len, const char *s, size_t n,
                      tokenring_error *err)
{
    if (memchr(s, ':', n) == NULL) {
        if (!parse_ipv4_java(tmp, s, n))
            return PFAIL(TOKENRING_E_PARSE, 1,
                         "inet: not an IPv4 address literal (host names are not resolved)");
        *len = 4;
        return TOKENRING_OK;
    }
    const char *p = s;
    size_t m = n;
    if (m >= 2 && p[0] == '[' && p[m - 1] == ']') {
        p++;
        m -= 2;
    }
    /* A numeric scope ("%3") is accepted and does not change the bytes, as in Java;
     * interface names would need the host's interfaces and are refused. */
    const char *pct = memchr(p, '%', m);
    if (pct != NULL) {
        size_t k = (size_t)(pct - p) + 1;
        if (k == m)
            return PFAIL(TOKENRING_E_PARSE, (size_t)(pct - s) + 2, "inet: empty scope id");
        for (; k < m; k++)
            if (!is_digit((unsigned char)p[k]))
                return PFAIL(TOKENRING_E_PARSE, (size_t)(p + k - s) + 1,
                             "inet: only numeric IPv6 scope ids are supported");
        m = (size_t)(pct - p);
    }
    char buf[64];
    if (m >= sizeof buf || memchr(p, '\0', m) != NULL)
        return PFAIL(TOKENRING_E_PARSE, 1, "inet: not an IPv6 address literal");
    memcpy(buf, p, m);
    buf[m] = '\0';
    if (inet_pton(AF_INET6, buf, tmp) != 1)
        return PFAIL(TOKENRING_E_PARSE, 1, "inet: not an IPv6 address literal");
    static const uint8_t mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF };
    if (memcmp(tmp, mapped, 12) == 0) { /* Java returns an Inet4Address */
        memmove(tmp, tmp + 12, 4);
        *len = 4;
    } else {
        *len = 16;
    }
    return TOKENRING_OK;
}

/* ---------------------------------------------------------------- dates and times */

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (any year). */
static int64_t days_from_civil(int64_t y, int64_t m, int64_t d)
{
    y -= m <= 2;
    int64_t era = floor_div(y, 400);
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* Days since 1970-01-01 of a Julian-calendar date (year >= 1). */
static int64_t days_from_julian(int64_t y, int64_t m, int64_t d)
{
    int64_t a = (14 - m) / 12, yy = y + 4800 - a, mm = m + 12 * a - 3;
    int64_t jdn = d + (153 * mm + 2) / 5 + 365 * yy + yy / 4 - 32083;
    return jdn - 2440588;
}

static int days_in_month(int64_t y, int64_t m, bool julian)
{
    static const int dm[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    if (m != 2)
        return dm[m - 1];
    bool leap = julian ? floor_div(y, 4) * 4 == y
                       : (floor_div(y, 4) * 4 == y && (floor_div(y, 100) * 100 != y ||
                                                       floor_div(y, 400) * 400 == y));
    return leap ? 29 : 28;
}

/* Reads 1..maxd ASCII digits at s[*i]. */
static bool read_digits(const char *s, size_t n, size_t *i, size_t mind, size_t maxd,
                        int64_t *v)
{
    size_t k = *i;
    int64_t x = 0;
    while (k < n && k - *i < maxd && is_digit((unsigned char)s[k]))
        x = x * 10 + (s[k++] - '0');
    if (k - *i < mind || (k < n && is_digit((unsigned char)s[k])))
        return false;
    *i = k;
    *v = x;
    return true;
}

/* date: a raw day number 0 .. 2^32-1 (epoch = 2^31), or ISO "yyyy-MM-dd" (proleptic
 * Gregorian; more than four year digits need a sign, as in java.time's strict ISO date). */
static int parse_date(uint8_t tmp[4], const char *s, size_t n, tokenring_error *err)
{
    if (is_raw_integer(s, n)) {
        int64_t v;
        int rc = parse_java_integer(&v, s, n, INT64_MIN, INT64_MAX, "date", 0, err);
        if (rc == TOKENRING_OK && (v < 0 || v > 0xFFFFFFFFLL))
            rc = PFAIL(TOKENRING_E_RANGE, 1, "date: day number %lld is outside [0, 2^32-1]",
                       (long long)v);
        if (rc != TOKENRING_OK)
            return rc;
        put_be(tmp, (uint64_t)v, 4);
        return TOKENRING_OK;
    }
    size_t i = 0;
    int sign = 0;
    if (n > 0 && (s[0] == '+' || s[0] == '-')) {
        sign = s[0] == '-' ? -1 : 1;
        i = 1;
    }
    size_t y0 = i;
    int64_t y, m, d;
    if (!read_digits(s, n, &i, 4, 10, &y))
        return PFAIL(TOKENRING_E_PARSE, y0 + 1, "date: expected yyyy-mm-dd");
    size_t yd = i - y0;
    if ((sign == 0 && yd != 4) || (sign == 1 && yd <= 4))
        return PFAIL(TOKENRING_E_PARSE, y0 + 1,
                     "date: a year of more than 4 digits needs a sign, and only then");
    if (sign < 0)
        y = -y;
    if (i >= n || s[i] != '-')
        return PFAIL(TOKENRING_E_PARSE, i + 1, "date: expected '-' after the year");
    i++;
    size_t mcol = i;
    if (!read_digits(s, n, &i, 2, 2, &m))
        return PFAIL(TOKENRING_E_PARSE, i + 1, "date: expected a 2-digit month");
    if (i >= n || s[i] != '-')
        return PFAIL(TOKENRING_E_PARSE, i + 1, "date: expected '-' after the month");
    i++;
    size_t dcol = i;
    if (!read_digits(s, n, &i, 2, 2, &d))
        return PFAIL(TOKENRING_E_PARSE, i + 1, "date: expected a 2-digit day");
    if (i != n)
        return PFAIL(TOKENRING_E_PARSE, i + 1, "date: unexpected character after the day");
    if (m < 1 || m > 12)
        return PFAIL(TOKENRING_E_RANGE, mcol + 1, "date: month %lld is outside 1..12",
                     (long long)m);
    if (d < 1 || d > days_in_month(y, m, false))
        return PFAIL(TOKENRING_E_RANGE, dcol + 1, "date: day %lld does not exist in that month",
                     (long long)d);
    int64_t days = days_from_civil(y, m, d);
    if (days < INT32_MIN || days > INT32_MAX)
        return PFAIL(TOKENRING_E_RANGE, 1, "date: more than 2^31 days from 1970-01-01");
    put_be(tmp, (uint64_t)(days + 2147483648LL), 4);
    return TOKENRING_OK;
}

#define NANOS_PER_DAY 86400000000000LL

/* time: raw nanoseconds 0 .. 86399999999999, or "HH:MM:SS[.f{1,9}]" (each of H, M, S an
 * integer as Integer.parseInt reads it; surrounding blanks trimmed as in Cassandra). */
static int parse_time(uint8_t tmp[8], const char *s, size_t n, tokenring_error *err)
{
    int64_t v;
    if (is_raw_integer(s, n)) {
        int rc = parse_java_integer(&v, s, n, INT64_MIN, INT64_MAX, "time", 0, err);
        if (rc == TOKENRING_OK && (v < 0 || v >= NANOS_PER_DAY))
            rc = PFAIL(TOKENRING_E_RANGE, 1,
                       "time: %lld nanoseconds is outside [0, 86399999999999]", (long long)v);
        if (rc != TOKENRING_OK)
            return rc;
        put_be(tmp, (uint64_t)v, 8);
        return TOKENRING_OK;
    }
    size_t a = 0, b = n;
    while (a < b && (unsigned char)s[a] <= ' ')
        a++;
    while (b > a && (unsigned char)s[b - 1] <= ' ')
        b--;
    const char *c1 = memchr(s + a, ':', b - a);
    const char *c2 = c1 ? memchr(c1 + 1, ':', (size_t)(s + b - c1 - 1)) : NULL;
    if (c1 == NULL || c2 == NULL || c1 == s + a || c2 == s + b - 1)
        return PFAIL(TOKENRING_E_PARSE, a + 1, "time: expected hh:mm:ss[.fffffffff]");
    size_t f = (size_t)(c1 - s), g = (size_t)(c2 - s);
    const char *dot = memchr(c2 + 1, '.', b - g - 1);
    size_t send = dot ? (size_t)(dot - s) : b;
    int64_t h, mi, se, nanos = 0;
    int rc;
    if ((rc = parse_java_integer(&h, s + a, f - a, INT32_MIN, INT32_MAX, "time hour", a, err)))
        return rc;
    if (h < 0 || h > 23)
        return PFAIL(TOKENRING_E_RANGE, a + 1, "time: hour %lld is outside 0..23", (long long)h);
    if ((rc = parse_java_integer(&mi, s + f + 1, g - f - 1, INT32_MIN, INT32_MAX, "time minute",
                                 f + 1, err)))
        return rc;
    if (mi < 0 || mi > 59)
        return PFAIL(TOKENRING_E_RANGE, f + 2, "time: minute %lld is outside 0..59",
                     (long long)mi);
    if (dot != NULL && send == b - 1)
        return PFAIL(TOKENRING_E_PARSE, b, "time: expected digits after '.'");
    if ((rc = parse_java_integer(&se, s + g + 1, send - g - 1, INT32_MIN, INT32_MAX,
                                 "time second", g + 1, err)))
        return rc;
    if (se < 0 || se > 59)
        return PFAIL(TOKENRING_E_RANGE, g + 2, "time: second %lld is outside 0..59",
                     (long long)se);
    if (dot != NULL) {
        size_t fs = send + 1, fl = b - fs;
        if (fl > 9)
            return PFAIL(TOKENRING_E_PARSE, fs + 10, "time: more than 9 fraction digits");
        for (size_t k = 0; k < 9; k++) {
            if (k < fl && !is_digit((unsigned char)s[fs + k]))
                return PFAIL(TOKENRING_E_PARSE, fs + k + 1, "time: expected a fraction digit");
            nanos = nanos * 10 + (k < fl ? s[fs + k] - '0' : 0);
        }
    }
    v = ((h * 60 + mi) * 60 + se) * 1000000000LL + nanos;
    put_be(tmp, (uint64_t)v, 8);
    return TOKENRING_OK;
}

/* Reads exactly @p count ASCII digits at s[*i] into *v. */
static bool fixed_digits(const char *s, size_t n, size_t *i, size_t count, int64_t *v)
{
    int64_t x = 0;
    for (size_t k = 0; k < count; k++) {
        if (*i + k >= n || !is_digit((unsigned char)s[*i + k]))
            return false;
        x = x * 10 + (s[*i + k] - '0');
    }
    *i += count;
    *v = x;
    return true;
}

/*
 * A zone suffix as Cassandra's SimpleDateFormat patterns accept it (checked against
 * commons-lang3's DateUtils.parseDateStrictly): right after the time or date, an ISO 8601
 * zone (pattern X): Z, +hh, +hhmm or +hh:mm; after one space, a general time zone
 * (pattern z): UTC or GMT (any case), GMT+h:mm / GMT+hh:mm, or RFC 822 +hhmm. Other zone
 * names (PST, Europe/Paris) are not supported. Returns false when s[i..n) is not one.
 */
static bool parse_zone(const char *s, size_t n, size_t i, bool spaced, int64_t *offset_ms)
{
    int64_t sign = 1, hh = 0, mm = 0;
    *offset_ms = 0;
    if (!spaced) {
        if (n - i == 1 && s[i] == 'Z')
            return true;
        if (s[i] != '+' && s[i] != '-')
            return false;
        sign = s[i++] == '-' ? -1 : 1;
        if (!fixed_digits(s, n, &i, 2, &hh))
            return false;
        if (i < n && s[i] == ':')
            i++;
        if (i < n && !fixed_digits(s, n, &i, 2, &mm))
            return false;
    } else if (eq_nocase(s + i, n - i, "utc") || eq_nocase(s + i, n - i, "gmt")) {
        return true;
    } else if (n - i > 3 && eq_nocase(s + i, 3, "gmt")) {
        i += 3;
        if (s[i] != '+' && s[i] != '-')
            return false;
        sign = s[i++] == '-' ? -1 : 1;
        if (!read_digits(s, n, &i, 1, 2, &hh) || i >= n || s[i] != ':')
            return false;
        i++;
        if (!fixed_digits(s, n, &i, 2, &mm))
            return false;
    } else {
        if (s[i] != '+' && s[i] != '-')
            return false;
        sign = s[i++] == '-' ? -1 : 1;
        if (!fixed_digits(s, n, &i, 2, &hh) || !fixed_digits(s, n, &i, 2, &mm))
            return false;
    }
    if (i != n || hh > 23 || mm > 59)
        return false;
    *offset_ms = sign * (hh * 3600000 + mm * 60000);
    return true;
}

/* timestamp: raw milliseconds, or "yyyy-MM-dd[( |T)HH:mm[:ss[.SSS]]][ ][zone]" read as
 * Cassandra's SimpleDateFormat patterns do (non-lenient, Julian calendar before
 * 1582-10-15, the fraction a count of milliseconds); no zone means UTC. */
static int parse_timestamp(uint8_t tmp[8], const char *s, size_t n, tokenring_error *err)
{
    int64_t v;
    if (is_raw_integer(s, n)) {
        int rc = parse_java_integer(&v, s, n, INT64_MIN, INT64_MAX, "timestamp", 0, err);
        if (rc != TOKENRING_OK)
            return rc;
        put_be(tmp, (uint64_t)v, 8);
        return TOKENRING_OK;
    }
    if (eq_nocase(s, n, "now"))
        return PFAIL(TOKENRING_E_PARSE, 1,
                     "timestamp: 'now' is not supported (its value is not reproducible)");
    size_t i = 0;
    int64_t y, mo, d, h = 0, mi = 0, se = 0, ms = 0, off = 0;
    if (!read_digits(s, n, &i, 1, 9, &y))
        return PFAIL(TOKENRING_E_PARSE, i + 1, "timestamp: expected yyyy-mm-dd");
    if (i >= n || s[i] != '-')
        return PFAIL(TOKENRING_E_PARSE, i + 1, "timestamp: expected '-' after the year");
    i++;
    size_t mcol = i;
    if (!read_digits(s, n, &i, 1, 2, &mo))
        return PFAIL(TOKENRING_E_PARSE, i + 1, "timestamp: expected a month");
    if (i >= n || s[i] != '-')
        return PFAIL(TOKENRING_E_PARSE, i + 1, "timestamp: expected '-' after the month");
    i++;
    size_t dcol = i;
    if (!read_digits(s, n, &i, 1, 2, &d))
        return PFAIL(TOKENRING_E_PARSE, i + 1, "timestamp: expected a day");
    if (i + 1 < n && (s[i] == ' ' || s[i] == 'T') && is_digit((unsigned char)s[i + 1])) {
        i++;
        if (!read_digits(s, n, &i, 1, 2, &h) || i >= n || s[i] != ':')
            return PFAIL(TOKENRING_E_PARSE, i + 1, "timestamp: expected HH:mm");
        i++;
        if (!read_digits(s, n, &i, 1, 2, &mi))
            return PFAIL(TOKENRING_E_PARSE, i + 1, "timestamp: expected minutes");
        if (i < n && s[i] == ':') {
            i++;
            if (!read_digits(s, n, &i, 1, 2, &se))
                return PFAIL(TOKENRING_E_PARSE, i + 1, "timestamp: expected seconds");
            if (i < n && s[i] == '.') {
                i++;
                if (!read_digits(s, n, &i, 1, 3, &ms))
                    return PFAIL(TOKENRING_E_PARSE, i + 1,
                                 "timestamp: expected 1 to 3 millisecond digits");
            }
        }
    }
    if (i < n) {
        bool spaced = s[i] == ' ';
        size_t z = i + spaced;
        if (z >= n || !parse_zone(s, n, z, spaced, &off))
            return PFAIL(TOKENRING_E_PARSE, i + 1,
                         "timestamp: expected a zone: Z, +hh, +hhmm or +hh:mm right after "
                         "the time, or ' UTC', ' GMT', ' GMT+h:mm', ' +hhmm'");
    }
    if (y < 1 || y > 292278994)
        return PFAIL(TOKENRING_E_RANGE, 1, "timestamp: year outside 1..292278994");
    if (mo < 1 || mo > 12)
        return PFAIL(TOKENRING_E_RANGE, mcol + 1, "timestamp: month %lld is outside 1..12",
                     (long long)mo);
    bool julian = y < 1582 || (y == 1582 && (mo < 10 || (mo == 10 && d < 15)));
    if (d < 1 || d > days_in_month(y, mo, julian) ||
        (y == 1582 && mo == 10 && d >= 5 && d <= 14))
        return PFAIL(TOKENRING_E_RANGE, dcol + 1, "timestamp: day %lld does not exist in that month",
                     (long long)d);
    if (h > 23 || mi > 59 || se > 59)
        return PFAIL(TOKENRING_E_RANGE, dcol + 3, "timestamp: time of day out of range");
    int64_t days = julian ? days_from_julian(y, mo, d) : days_from_civil(y, mo, d);
    int64_t t;
    if (__builtin_mul_overflow(days, (int64_t)86400000, &t) ||
        __builtin_add_overflow(t, ((h * 60 + mi) * 60 + se) * 1000 + ms - off, &t))
        return PFAIL(TOKENRING_E_RANGE, 1, "timestamp: does not fit 64-bit milliseconds");
    put_be(tmp, (uint64_t)t, 8);
    return TOKENRING_OK;
}

/* ---------------------------------------------------------------- value_parse */

static int parse_value(uint8_t *out, size_t cap, size_t *len_out, tokenring_cql_type type,
                       const char *s, size_t n, tokenring_error *err)
{
    uint8_t tmp[16];
    size_t len = 0;
    int64_t v;
    int rc;

    if (n == 0) {
        /* As Cassandra's fromString: "" is false for boolean, an error for date and time,
         * and the empty value for every other type. */
        if (type == TOKENRING_CQL_DATE || type == TOKENRING_CQL_TIME)
            return tr_fail_at(err, TOKENRING_E_PARSE, 0, 1, "%s: empty string",
                              type == TOKENRING_CQL_DATE ? "date" : "time");
        if (type == TOKENRING_CQL_BOOLEAN) {
            *len_out = 1;
            if (cap < 1)
                return TOKENRING_E_BUFSIZE;
            out[0] = 0;
            return TOKENRING_OK;
        }
        *len_out = 0;
        return TOKENRING_OK;
    }
    switch (type) {
    case TOKENRING_CQL_INT:
        if ((rc = parse_java_integer(&v, s, n, INT32_MIN, INT32_MAX, "int", 0, err)))
            return rc;
        put_be(tmp, (uint64_t)v, len = 4);
        break;
    case TOKENRING_CQL_BIGINT:
        if ((rc = parse_java_integer(&v, s, n, INT64_MIN, INT64_MAX, "bigint", 0, err)))
            return rc;
        put_be(tmp, (uint64_t)v, len = 8);
        break;
    case TOKENRING_CQL_SMALLINT:
        if ((rc = parse_java_integer(&v, s, n, INT16_MIN, INT16_MAX, "smallint", 0, err)))
            return rc;
        put_be(tmp, (uint64_t)v, len = 2);
        break;
    case TOKENRING_CQL_TINYINT:
        if ((rc = parse_java_integer(&v, s, n, INT8_MIN, INT8_MAX, "tinyint", 0, err)))
            return rc;
        put_be(tmp, (uint64_t)v, len = 1);
        break;
    case TOKENRING_CQL_VARINT:
        return parse_varint(out, cap, len_out, s, n, err);
    case TOKENRING_CQL_DECIMAL:
        return parse_decimal(out, cap, len_out, s, n, err);
    case TOKENRING_CQL_FLOAT:
    case TOKENRING_CQL_DOUBLE:
        if ((rc = parse_java_float(tmp, &len, type == TOKENRING_CQL_DOUBLE, s, n, err)))
            return rc;
        break;
    case TOKENRING_CQL_BOOLEAN:
        if (eq_nocase(s, n, "true"))
            tmp[0] = 1;
        else if (eq_nocase(s, n, "false"))
            tmp[0] = 0;
        else
            return PFAIL(TOKENRING_E_PARSE, 1, "boolean: expected true or false");
        len = 1;
        break;
    case TOKENRING_CQL_UUID:
    case TOKENRING_CQL_TIMEUUID:
        if ((rc = parse_uuid(tmp, s, n, type == TOKENRING_CQL_TIMEUUID, err)))
            return rc;
        len = 16;
        break;
    case TOKENRING_CQL_INET:
        if ((rc = parse_inet(tmp, &len, s, n, err)))
            return rc;
        break;
    case TOKENRING_CQL_DATE:
        if ((rc = parse_date(tmp, s, n, err)))
            return rc;
        len = 4;
        break;
    case TOKENRING_CQL_TIME:
        if ((rc = parse_time(tmp, s, n, err)))
            return rc;
        len = 8;
        break;
    case TOKENRING_CQL_TIMESTAMP:
        if ((rc = parse_timestamp(tmp, s, n, err)))
            return rc;
        len = 8;
        break;
    case TOKENRING_CQL_TEXT: {
        size_t bad = tr_utf8_bad_offset((const uint8_t *)s, n);
        if (bad != n)
            return PFAIL(TOKENRING_E_PARSE, bad + 1, "text: invalid UTF-8 at byte %zu", bad + 1);
        return need(out, cap, len_out, s, n, err);
    }
    case TOKENRING_CQL_ASCII:
        for (size_t i = 0; i < n; i++)
            if ((unsigned char)s[i] >= 0x80)
                return PFAIL(TOKENRING_E_PARSE, i + 1, "ascii: byte 0x%02x is not 7-bit ASCII",
                             (unsigned char)s[i]);
        return need(out, cap, len_out, s, n, err);
    case TOKENRING_CQL_BLOB:
        for (size_t i = 0; i < n; i++)
            if (hex_value((unsigned char)s[i]) < 0)
                return PFAIL(TOKENRING_E_PARSE, i + 1,
                             "blob: expected a hex digit (hex without 0x)");
        if (n % 2)
            return PFAIL(TOKENRING_E_PARSE, n, "blob: odd number of hex digits");
        *len_out = n / 2;
        if (n / 2 > cap)
            return tr_fail(err, TOKENRING_E_BUFSIZE,
                           "output buffer of %zu bytes is too small: %zu bytes needed", cap,
                           n / 2);
        for (size_t i = 0; i < n / 2; i++)
            out[i] = (uint8_t)(hex_value((unsigned char)s[2 * i]) << 4 |
                               hex_value((unsigned char)s[2 * i + 1]));
        return TOKENRING_OK;
    }
    return need(out, cap, len_out, tmp, len, err);
}

TOKENRING_API int tokenring_value_parse(uint8_t *out, size_t cap, size_t *len_out,
                                        tokenring_cql_type type, const char *text,
                                        size_t text_len, tokenring_error *err)
{
    if (len_out == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "len_out is NULL");
    if (out == NULL && cap != 0)
        return tr_fail(err, TOKENRING_E_INVAL, "out is NULL but cap is %zu", cap);
    if (text == NULL && text_len != 0)
        return tr_fail(err, TOKENRING_E_INVAL, "text is NULL");
    if (!valid_type(type))
        return tr_fail(err, TOKENRING_E_INVAL, "unknown CQL type %d", (int)type);
    return parse_value(out, cap, len_out, type, text, text_len, err);
}

/* ---------------------------------------------------------------- composite keys */

TOKENRING_API int tokenring_composite_encode(uint8_t *out, size_t cap, size_t *len_out,
                                             const uint8_t *parts, const uint64_t *offsets,
                                             size_t count)
{
    if (len_out == NULL || offsets == NULL || count == 0 || (out == NULL && cap != 0))
        return TOKENRING_E_INVAL;
    size_t total = 0;
    for (size_t i = 0; i < count; i++) {
        if (offsets[i + 1] < offsets[i])
            return TOKENRING_E_INVAL;
        uint64_t len = offsets[i + 1] - offsets[i];
        if (len > TOKENRING_MAX_KEY)
            return TOKENRING_E_RANGE;
        if (total > SIZE_MAX - 3 - (size_t)len)
            return TOKENRING_E_RANGE;
        total += 3 + (size_t)len;
    }
    if (parts == NULL && offsets[count] != offsets[0])
        return TOKENRING_E_INVAL;
    *len_out = total;
    if (total > cap)
        return TOKENRING_E_BUFSIZE;
    size_t pos = 0;
    for (size_t i = 0; i < count; i++) {
        size_t len = (size_t)(offsets[i + 1] - offsets[i]);
        out[pos++] = (uint8_t)(len >> 8);
        out[pos++] = (uint8_t)len;
        if (len)
            memcpy(out + pos, parts + offsets[i], len);
        pos += len;
        out[pos++] = 0;
    }
    return TOKENRING_OK;
}

/* Raw column (1-based, in the whole text) of the character at 0-based offset u of the
 * unescaped part that starts at raw offset start and ends at end. */
static size_t raw_column(const char *text, size_t start, size_t end, size_t u)
{
    size_t i = start;
    for (size_t j = 0; j < u && i < end; j++)
        i += (text[i] == '\\' && i + 1 < end && text[i + 1] == ':') ? 2 : 1;
    return i + 1;
}

/* Rewrites a component's error so that it names the component and points into the text. */
static int component_error(tokenring_error *err, const tokenring_error *inner, size_t index,
                           tokenring_cql_type type, const char *text, size_t start, size_t end)
{
    if (err == NULL)
        return inner->code;
    size_t col = inner->column ? raw_column(text, start, end, inner->column - 1) : start + 1;
    return tr_fail_at(err, inner->code, 1, clamp_col(col), "component %zu (%s): %s", index + 1,
                      canonical_names[type], inner->message);
}

TOKENRING_API int tokenring_key_parse(uint8_t *out, size_t cap, size_t *len_out,
                                      const tokenring_cql_type *types, size_t ntypes,
                                      const char *text, size_t text_len,
                                      tokenring_error *err)
{
    if (len_out == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "len_out is NULL");
    if (out == NULL && cap != 0)
        return tr_fail(err, TOKENRING_E_INVAL, "out is NULL but cap is %zu", cap);
    if (text == NULL && text_len != 0)
        return tr_fail(err, TOKENRING_E_INVAL, "text is NULL");
    if (types == NULL || ntypes == 0)
        return tr_fail(err, TOKENRING_E_INVAL, "no partition-key types");
    for (size_t i = 0; i < ntypes; i++)
        if (!valid_type(types[i]))
            return tr_fail(err, TOKENRING_E_INVAL, "unknown CQL type %d for column %zu",
                           (int)types[i], i + 1);
    if (ntypes == 1)
        return parse_value(out, cap, len_out, types[0], text, text_len, err);
    if (text_len == 0) { /* CompositeType.fromString("") has no components: empty key */
        *len_out = 0;
        return TOKENRING_OK;
    }

    size_t pos = 0, ncomp = 0, start = 0;
    bool short_buf = false;
    uint8_t eoc = 0;
    bool marker = false;
    char small[256];
    int rc = TOKENRING_OK;
    for (;;) {
        /* A ':' separates parts unless the character before it (anywhere) is '\'. */
        size_t end = start;
        while (end < text_len && !(text[end] == ':' && (end == 0 || text[end - 1] != '\\')))
            end++;
        size_t plen = end - start;
        if (plen == 1 && (text[start] == '!' || text[start] == '_')) {
            if (ncomp == 0)
                return PFAIL(TOKENRING_E_PARSE, start + 1,
                             "end-of-component marker '%c' before any component", text[start]);
            eoc = text[start] == '!' ? 0x01 : 0xFF;
            marker = true;
            break;
        }
        if (ncomp == ntypes)
            return PFAIL(TOKENRING_E_PARSE, start + 1, "more than %zu components", ntypes);
        /* Unescape: "\:" -> ":", then drop one trailing '!'. */
        char *buf = plen <= sizeof small ? small : tr_malloc(plen);
        if (buf == NULL)
            return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
        size_t ul = 0;
        for (size_t i = start; i < end; i++) {
            if (text[i] == '\\' && i + 1 < end && text[i + 1] == ':') {
                buf[ul++] = ':';
                i++;
            } else {
                buf[ul++] = text[i];
            }
        }
        if (ul > 0 && buf[ul - 1] == '!')
            ul--;
        size_t room = (!short_buf && cap >= pos + 3) ? cap - pos - 3 : 0;
        size_t vlen = 0;
        tokenring_error inner;
        rc = parse_value(room ? out + pos + 2 : NULL, room, &vlen, types[ncomp], buf, ul,
                         &inner);
        if (buf != small)
            tr_free(buf);
        if (rc == TOKENRING_E_BUFSIZE) {
            short_buf = true;
        } else if (rc != TOKENRING_OK) {
            return component_error(err, &inner, ncomp, types[ncomp], text, start, end);
        }
        if (vlen > TOKENRING_MAX_KEY)
            return PFAIL(TOKENRING_E_RANGE, start + 1,
                         "component %zu is %zu bytes, more than %d", ncomp + 1, vlen,
                         TOKENRING_MAX_KEY);
        if (!short_buf && pos + 3 + vlen <= cap) {
            out[pos] = (uint8_t)(vlen >> 8);
            out[pos + 1] = (uint8_t)vlen;
            out[pos + 2 + vlen] = 0;
        } else {
            short_buf = true;
        }
        pos += 3 + vlen;
        ncomp++;
        if (end == text_len)
            break;
        start = end + 1;
    }
    if (!marker && ncomp < ntypes)
        return PFAIL(TOKENRING_E_PARSE, text_len + 1, "%zu components, expected %zu", ncomp,
                     ntypes);
    *len_out = pos;
    if (short_buf)
        return tr_fail(err, TOKENRING_E_BUFSIZE,
                       "output buffer of %zu bytes is too small: %zu bytes needed", cap, pos);
    if (marker)
        out[pos - 1] = eoc;
    return TOKENRING_OK;
}

/* ---------------------------------------------------------------- tokens and hex */

TOKENRING_API int tokenring_token_parse(int64_t *token_out, const char *text, size_t text_len,
                                        tokenring_error *err)
{
    if (token_out == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "token_out is NULL");
    if (text == NULL && text_len != 0)
        return tr_fail(err, TOKENRING_E_INVAL, "text is NULL");
    int64_t v;
    int rc = parse_java_integer(&v, text, text_len, INT64_MIN, INT64_MAX, "token", 0, err);
    if (rc == TOKENRING_OK)
        *token_out = v;
    return rc;
}

TOKENRING_API int tokenring_hex_decode(uint8_t *out, size_t cap, size_t *len_out,
                                       const char *text, size_t text_len,
                                       tokenring_error *err)
{
    if (len_out == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "len_out is NULL");
    if (out == NULL && cap != 0)
        return tr_fail(err, TOKENRING_E_INVAL, "out is NULL but cap is %zu", cap);
    if (text == NULL && text_len != 0)
        return tr_fail(err, TOKENRING_E_INVAL, "text is NULL");
    size_t i = 0;
    if (text_len >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
        i = 2;
    if ((text_len - i) % 2)
        return tr_fail(err, TOKENRING_E_PARSE, "expected an even number of hex digits");
    for (size_t j = i; j < text_len; j++)
        if (hex_value((unsigned char)text[j]) < 0)
            return PFAIL(TOKENRING_E_PARSE, j + 1, "expected a hex digit");
    size_t n = (text_len - i) / 2;
    *len_out = n;
    if (n > cap)
        return tr_fail(err, TOKENRING_E_BUFSIZE,
                       "output buffer of %zu bytes is too small: %zu bytes needed", cap, n);
    for (size_t k = 0; k < n; k++)
        out[k] = (uint8_t)(hex_value((unsigned char)text[i + 2 * k]) << 4 |
                           hex_value((unsigned char)text[i + 2 * k + 1]));
    return TOKENRING_OK;
}
