/* SPDX-License-Identifier: Apache-2.0 */
/* The output: the buffer stdout is written from once the command succeeded, table cells,
 * JSON strings, the one decimal form of 128-bit widths, progress on a terminal, and the
 * exits (messages and codes). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tool.h"



void die(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("tokenring: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(code);
}

void sb_reserve(strbuf *b, size_t extra)
{
    if (b->n + extra + 1 <= b->cap)
        return;
    size_t ncap = b->cap ? b->cap : 4096;
    while (b->n + extra + 1 > ncap)
        ncap *= 2;
    char *q = realloc(b->p, ncap);
    if (!q)
        die(EXIT_INTERNAL, "out of memory");
    b->p = q;
    b->cap = ncap;
}

void sb_put(strbuf *b, const char *s, size_t n)
{
    sb_reserve(b, n);
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

void sb_puts(strbuf *b, const char *s)
{
    sb_put(b, s, strlen(s));
}



void sb_printf(strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (k < 0)
        die(EXIT_INTERNAL, "formatting failed");
    sb_reserve(b, (size_t)k);
    va_start(ap, fmt);
    vsnprintf(b->p + b->n, (size_t)k + 1, fmt, ap);
    va_end(ap);
    b->n += (size_t)k;
}

/* Left-aligned cell padded to width w (never truncated). */
void sb_pad(strbuf *b, const char *s, size_t w)
{
    size_t n = strlen(s);
    sb_put(b, s, n);
    for (; n < w; n++)
        sb_put(b, " ", 1);
}

void sb_json_str(strbuf *b, const char *s)
{
    sb_put(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': sb_puts(b, "\\\""); break;
        case '\\': sb_puts(b, "\\\\"); break;
        case '\n': sb_puts(b, "\\n"); break;
        case '\r': sb_puts(b, "\\r"); break;
        case '\t': sb_puts(b, "\\t"); break;
        default:
            if (*p < 0x20)
                sb_printf(b, "\\u%04x", *p);
            else
                sb_put(b, (const char *)p, 1);
        }
    }
    sb_put(b, "\"", 1);
}

void flush_and_exit(tr_ctx *ctx)
{
    if (ctx->out.n && fwrite(ctx->out.p, 1, ctx->out.n, stdout) != ctx->out.n)
        die(EXIT_INTERNAL, "cannot write the output: %s", strerror(errno));
    if (fflush(stdout) != 0)
        die(EXIT_INTERNAL, "cannot write the output: %s", strerror(errno));
    free(ctx->out.p);
    exit(ctx->exit_code);
}

/* u128 to decimal. */
void u128_str(char buf[48], tokenring_u128 v)
{
    __extension__ typedef unsigned __int128 u128;
    u128 x = ((u128)v.hi << 64) | v.lo;
    char tmp[48];
    int k = 0;
    do {
        tmp[k++] = (char)('0' + (int)(x % 10));
        x /= 10;
    } while (x);
    for (int i = 0; i < k; i++)
        buf[i] = tmp[k - 1 - i];
    buf[k] = '\0';
}

const char *liveness_word(int32_t l)
{
    return l == TOKENRING_UP ? "Up" : l == TOKENRING_DOWN ? "Down" : "?";
}

const char *state_word(int32_t s)
{
    static const char *w[] = { "Normal", "Joining", "Leaving", "Moving" };
    return s >= 0 && s < 4 ? w[s] : "?";
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Off a terminal: one line at most every second, once the work has lasted a second (at
 * once with --progress). */
static void progress_line(tr_ctx *ctx, const char *what, size_t done, size_t total)
{
    double t = now_seconds();
    if (ctx->progress_t0 == 0)
        ctx->progress_t0 = ctx->progress_last = t;
    bool due = ctx->opt.progress ? (ctx->progress_last == ctx->progress_t0 && done == 0) ||
                                       t - ctx->progress_last >= 1
                                 : t - ctx->progress_t0 >= 1 && t - ctx->progress_last >= 1;
    if (!due || total == 0)
        return;
    ctx->progress_last = t;
    fprintf(stderr, "tokenring: %s: %zu/%zu (%.0f%%) after %.1f s\n", what, done, total,
            100.0 * (double)done / (double)total, t - ctx->progress_t0);
    fflush(stderr);
}

void progress(tr_ctx *ctx, const char *what, size_t done, size_t total)
{
    if (!ctx->progress_on) {
        progress_line(ctx, what, done, total);
        return;
    }
    if (total == 0)
        return;
    size_t w = 30, fill = done * w / total;
    fprintf(stderr, "\r%-24s [", what);
    for (size_t i = 0; i < w; i++)
        fputc(i < fill ? '#' : ' ', stderr);
    fprintf(stderr, "] %zu/%zu", done, total);
    if (done == total)
        fputs("\r\033[K", stderr);
    fflush(stderr);
}

double frac(tokenring_u128 w)
{
    return (double)w.hi + (double)w.lo / 18446744073709551616.0;
}

/* The one place the tool knows the size of a partitioner's ring: the text-form calls carry
 * tokens, not widths. Murmur3's ring is 2^64 values, RandomPartitioner's 2^127;
 * ByteOrderedPartitioner's ranges have no width (TOKENRING_OWNERSHIP_NO_WIDTHS), so its
 * fractions count ranges. */
bool ring_range_width(const tokenring_ring *r, size_t i, tokenring_u128 *w)
{
    tokenring_range rg;
    tokenring_range128 rg128;
    switch (tokenring_ring_partitioner(r)) {
    case TOKENRING_PARTITIONER_MURMUR3:
        if (tokenring_ring_range(&rg, r, i) != TOKENRING_OK)
            die(EXIT_INTERNAL, "range lookup failed");
        *w = rg.width;
        return true;
    case TOKENRING_PARTITIONER_RANDOM:
        if (tokenring_ring_range128(&rg128, r, i) != TOKENRING_OK)
            die(EXIT_INTERNAL, "range lookup failed");
        *w = rg128.width;
        return true;
    default:
        return false;
    }
}

double ring_frac(const tokenring_ring *r, tokenring_u128 w)
{
    long double v = (long double)w.hi * 18446744073709551616.0L + (long double)w.lo;
    switch (tokenring_ring_partitioner(r)) {
    case TOKENRING_PARTITIONER_MURMUR3:
        return frac(w);
    case TOKENRING_PARTITIONER_RANDOM:
        return (double)(v / 170141183460469231731687303715884105728.0L);
    default: {
        size_t n = 0;
        tokenring_ring_tokens(r, &n);
        return n ? (double)(v / (long double)n) : 0.0;
    }
    }
}

int lib_exit(int rc)
{
    return rc == TOKENRING_E_NOMEM ? EXIT_INTERNAL : EXIT_INPUT;
}

/* The library's messages name remedies in words (it knows no command line); the tool
 * names the flag that applies. */
static const struct {
    const char *phrase, *replacement, *appended;
} remedies[] = {
    { "allow partial input to accept it", "give --allow-partial to accept it", NULL },
    { "merge disjoint inputs to combine them", "give --merge-disjoint to combine them",
      NULL },
    { "needs a local datacenter", NULL, " (give --local-dc DC)" },
    { "raise tokenring_limits.budget (the tool's --budget SECONDS or unlimited)",
      "give --budget SECONDS (or --budget unlimited)", NULL },
    { "raise tokenring_limits.max_num_tokens (the tool's --max-num-tokens)",
      "give --max-num-tokens T", NULL },
};

const char *with_remedy(const char *msg, char *buf, size_t cap)
{
    for (size_t i = 0; i < sizeof remedies / sizeof *remedies; i++) {
        const char *at = strstr(msg, remedies[i].phrase);
        if (!at)
            continue;
        if (remedies[i].replacement)
            snprintf(buf, cap, "%.*s%s%s", (int)(at - msg), msg, remedies[i].replacement,
                     at + strlen(remedies[i].phrase));
        else
            snprintf(buf, cap, "%s%s", msg, remedies[i].appended);
        return buf;
    }
    return msg;
}

void fail_lib(int rc, const tokenring_error *err, const char *what)
{
    int code = rc == TOKENRING_E_NOMEM ? EXIT_INTERNAL
               : (rc == TOKENRING_E_INVAL || rc == TOKENRING_E_RANGE ||
                  rc == TOKENRING_E_NOTFOUND || rc == TOKENRING_E_EXISTS ||
                  rc == TOKENRING_E_IMPOSSIBLE || rc == TOKENRING_E_BUDGET)
                   ? EXIT_USAGE
                   : EXIT_INPUT;
    char buf[sizeof err->message + 64];
    die(code, "%s: %s", what,
        err->message[0] ? with_remedy(err->message, buf, sizeof buf) : tokenring_strerror(rc));
}

const char *repl_text(const tokenring_replication *r, char *buf, size_t cap)
{
    size_t len;
    if (tokenring_replication_format(buf, cap, &len, r) != TOKENRING_OK)
        snprintf(buf, cap, "?");
    return buf;
}

/* A token text the library writes into a buffer of the length it asks for (the
 * TOKENRING_E_BUFSIZE convention), malloc'ed; NULL when the call fails otherwise. */
#define TEXT_OF(call_with_out_cap_len)                                                     \
    do {                                                                                  \
        size_t len = 0;                                                                   \
        char *out = NULL;                                                                 \
        size_t cap = 0;                                                                   \
        int rc = TOKENRING_E_BUFSIZE;                                                     \
        while (rc == TOKENRING_E_BUFSIZE) {                                               \
            free(out);                                                                    \
            cap = len + 1;                                                                \
            if (!(out = malloc(cap)))                                                     \
                die(EXIT_INTERNAL, "out of memory");                                      \
            rc = call_with_out_cap_len;                                                   \
        }                                                                                 \
        if (rc != TOKENRING_OK) {                                                         \
            free(out);                                                                    \
            return NULL;                                                                  \
        }                                                                                 \
        return out;                                                                       \
    } while (0)

/* Token k of cluster node i as its partitioner writes it, or NULL when its tokens are not
 * known (no topology); the string is malloc'ed. */
char *cluster_token_text(tr_ctx *ctx, size_t i, size_t k)
{
    const tokenring_topology *t = tokenring_cluster_topology(ctx->cluster);
    if (!t) { /* a listing of counts only; a Murmur3 one may still carry some tokens */
        tokenring_cluster_node_info info;
        if (tokenring_cluster_node(&info, ctx->cluster, i) != TOKENRING_OK || !info.tokens ||
            k >= info.token_count)
            return NULL;
        char *out = malloc(24);
        if (!out)
            die(EXIT_INTERNAL, "out of memory");
        snprintf(out, 24, "%lld", (long long)info.tokens[k]);
        return out;
    }
    TEXT_OF(tokenring_topology_node_token_text(out, cap, &len, t, i, k));
}

/* The token of key K under partitioner P (with --token: the token given), malloc'ed. */
char *key_token_text(tr_ctx *ctx, tokenring_partitioner p, const struct key *k)
{
    if (ctx->opt.token_mode) { /* the token itself */
        char *out = strdup(k->token_text);
        if (!out)
            die(EXIT_INTERNAL, "out of memory");
        return out;
    }
    TEXT_OF(tokenring_key_token_text(out, cap, &len, p, k->bytes, k->len));
}

/* Ring token i as the ring's partitioner writes it. */
void ring_token_text(char *out, size_t cap, const tokenring_ring *r, size_t i)
{
    size_t len;
    int rc = tokenring_ring_token_text(out, cap, &len, r, i);
    if (rc != TOKENRING_OK)
        die(EXIT_INTERNAL, "formatting a ring token: %s", tokenring_strerror(rc));
}

/* The buffer that holds the ring's longest token text. */
size_t ring_token_text_cap(const tokenring_ring *r)
{
    size_t n, cap = 1;
    tokenring_ring_tokens(r, &n);
    for (size_t i = 0; i < n; i++) {
        size_t len = 0;
        tokenring_ring_token_text(NULL, 0, &len, r, i);
        if (len + 1 > cap)
            cap = len + 1;
    }
    return cap;
}
