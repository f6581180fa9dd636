/* SPDX-License-Identifier: Apache-2.0 */
/* tokenring: nodetool-style answers (token, getendpoints, ring, describering, status)
 * from a topology file, `nodetool ring`/`status` output, cqlsh system tables, or a
 * built-in demo ring. Built only on the public API: every number shown was computed by
 * the library; this file only presents it.
 *
 * Output is buffered and written only once the whole command has succeeded, so a
 * failing command never prints a half-valid result. Exit codes: 0 ok, 1 internal error,
 * 2 bad usage, 3 bad input. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <tokenring/tokenring.h>
#include <tokenring/layout.h>
#include <tokenring/analysis.h>
#include <unistd.h>

enum { EXIT_OK = 0, EXIT_INTERNAL = 1, EXIT_USAGE = 2, EXIT_INPUT = 3 };

/* ------------------------------------------------------------------ output */

typedef struct strbuf {
    char *p;
    size_t n, cap;
} strbuf;

static strbuf out;

static void die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

static void die(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("tokenring: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(code);
}

static void sb_reserve(strbuf *b, size_t extra)
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

static void sb_put(strbuf *b, const char *s, size_t n)
{
    sb_reserve(b, n);
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

static void sb_puts(strbuf *b, const char *s)
{
    sb_put(b, s, strlen(s));
}

static void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_printf(strbuf *b, const char *fmt, ...)
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
static void sb_pad(strbuf *b, const char *s, size_t w)
{
    size_t n = strlen(s);
    sb_put(b, s, n);
    for (; n < w; n++)
        sb_put(b, " ", 1);
}

static void sb_json_str(strbuf *b, const char *s)
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

static void flush_and_exit(void)
{
    if (out.n && fwrite(out.p, 1, out.n, stdout) != out.n)
        die(EXIT_INTERNAL, "cannot write the output: %s", strerror(errno));
    if (fflush(stdout) != 0)
        die(EXIT_INTERNAL, "cannot write the output: %s", strerror(errno));
    free(out.p);
    exit(EXIT_OK);
}

/* u128 to decimal. */
static void u128_str(char buf[48], tokenring_u128 v)
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

/* ----------------------------------------------------------------- options */

enum in_kind { IN_AUTO, IN_TOPOLOGY, IN_RING, IN_STATUS, IN_CQLSH };

struct input {
    enum in_kind kind;
    const char *path;
};

static struct {
    bool json, hex, token_mode, allow_partial;
    const char *types;
    struct input inputs[64];
    size_t ninputs;
    const char *ks_defs[64];
    size_t nks_defs;
    const char *dc, *rack, *new_dc, *racks, *initial_token, *cl, *local_dc, *names;
    long num_tokens, nodes, rf, failures;
    bool node_by_node;
    const char *cmd;
    char **args, **positional;
    size_t nargs;
} opt = { .num_tokens = -1, .nodes = -1, .rf = -1, .failures = -1 };

/* ------------------------------------------------------------- the cluster */

static tokenring_cluster *cluster;
static tokenring_ring *ring;
static bool demo;

static char *read_all(const char *path, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f)
        die(EXIT_INPUT, "%s: %s", path, strerror(errno));
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    if (!buf)
        die(EXIT_INTERNAL, "out of memory");
    for (;;) {
        if (n == cap) {
            cap *= 2;
            char *q = realloc(buf, cap);
            if (!q)
                die(EXIT_INTERNAL, "out of memory");
            buf = q;
        }
        size_t k = fread(buf + n, 1, cap - n, f);
        n += k;
        if (k == 0) {
            if (ferror(f))
                die(EXIT_INPUT, "%s: read error", path);
            break;
        }
    }
    if (f != stdin)
        fclose(f);
    *len = n;
    return buf;
}

static int lib_exit(int rc)
{
    return rc == TOKENRING_E_NOMEM ? EXIT_INTERNAL : EXIT_INPUT;
}

static void load_input(const struct input *in)
{
    static const int formats[] = { TOKENRING_INPUT_AUTO, TOKENRING_INPUT_TOPOLOGY,
                                   TOKENRING_INPUT_NODETOOL_RING,
                                   TOKENRING_INPUT_NODETOOL_STATUS, TOKENRING_INPUT_CQLSH };
    size_t len;
    char *text = read_all(in->path, &len);
    const char *name = strcmp(in->path, "-") == 0 ? "<stdin>" : in->path;
    int format = formats[in->kind];
    if (format == TOKENRING_INPUT_TOPOLOGY &&
        tokenring_input_detect(text, len) == TOKENRING_INPUT_TSV)
        format = TOKENRING_INPUT_TSV;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = tokenring_cluster_parse(cluster, format, text, len,
                                     opt.allow_partial ? TOKENRING_PARSE_ALLOW_PARTIAL : 0,
                                     NULL, &err);
    free(text);
    if (rc != TOKENRING_OK) {
        if (err.line)
            die(lib_exit(rc), "%s:%u:%u: %s", name, (unsigned)err.line, (unsigned)err.column,
                err.message);
        die(lib_exit(rc), "%s: %s", name, err.message[0] ? err.message : tokenring_strerror(rc));
    }
}

static void load_demo(void)
{
    static const char *names[] = { "10.0.0.1", "10.0.0.2", "10.0.0.3",
                                   "10.0.0.4", "10.0.0.5", "10.0.0.6" };
    tokenring_topology *t = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = tokenring_topology_new(&t);
    if (rc == TOKENRING_OK)
        rc = tokenring_layout_add_seeded_nodes(t, 1, 8, names, NULL, NULL, 6, 0, &err);
    if (rc == TOKENRING_OK)
        rc = tokenring_cluster_add_topology(cluster, t, &err);
    tokenring_topology_free(t);
    tokenring_replication *r = NULL;
    {
        static const char demo_repl[] = "NetworkTopologyStrategy:datacenter1=3";
        if (rc == TOKENRING_OK)
            rc = tokenring_replication_parse(&r, demo_repl, strlen(demo_repl), &err);
    }
    if (rc == TOKENRING_OK)
        rc = tokenring_cluster_add_keyspace(cluster, "demo", r, &err);
    tokenring_replication_free(r);
    if (rc != TOKENRING_OK)
        die(EXIT_INTERNAL, "cannot build the demo ring: %s", err.message);
    demo = true;
}

static void add_keyspace_defs(void)
{
    for (size_t i = 0; i < opt.nks_defs; i++) {
        const char *d = opt.ks_defs[i];
        const char *eq = strchr(d, '=');
        if (!eq || eq == d || !eq[1])
            die(EXIT_USAGE, "--keyspace %s: expected NAME=REPLICATION, e.g. "
                            "shop=NetworkTopologyStrategy:dc1=3", d);
        char name[300];
        size_t nl = (size_t)(eq - d);
        if (nl >= sizeof name)
            die(EXIT_USAGE, "--keyspace: name too long");
        memcpy(name, d, nl);
        name[nl] = '\0';
        tokenring_replication *r = NULL;
        tokenring_error err;
        memset(&err, 0, sizeof err);
        int rc = tokenring_replication_parse(&r, eq + 1, strlen(eq + 1), &err);
        if (rc != TOKENRING_OK)
            die(EXIT_USAGE, "--keyspace %s: column %u: %s", d,
                (unsigned)(err.column + nl + 1), err.message);
        /* a definition on the command line replaces one of the same name from a file:
         * the cluster refuses duplicates, so it must be new */
        rc = tokenring_cluster_add_keyspace(cluster, name, r, &err);
        tokenring_replication_free(r);
        if (rc != TOKENRING_OK)
            die(rc == TOKENRING_E_NOMEM ? EXIT_INTERNAL : EXIT_USAGE, "--keyspace %s: %s", d,
                err.message);
    }
}

static void load_cluster(void)
{
    if (tokenring_cluster_new(&cluster) != TOKENRING_OK)
        die(EXIT_INTERNAL, "out of memory");
    if (opt.ninputs == 0)
        load_demo();
    for (size_t i = 0; i < opt.ninputs; i++)
        load_input(&opt.inputs[i]);
    add_keyspace_defs();
    if (tokenring_cluster_flags(cluster) & TOKENRING_CLUSTER_PARTIAL)
        fprintf(stderr, "tokenring: warning: the input is incomplete (elided or cut-short "
                        "listing); results describe only the tokens it shows\n");
}

static const tokenring_ring *need_ring(void)
{
    if (ring)
        return ring;
    const tokenring_topology *t = tokenring_cluster_topology(cluster);
    if (!t) {
        size_t n = tokenring_cluster_node_count(cluster);
        for (size_t i = 0; i < n; i++) {
            tokenring_cluster_node_info info;
            tokenring_cluster_node(&info, cluster, i);
            if (!info.tokens)
                die(EXIT_INPUT, "the tokens of node %s are unknown (nodetool status shows "
                                "only token counts): give nodetool ring or cqlsh output, or "
                                "a topology file with tokens", info.name);
        }
        die(EXIT_INPUT, "the input describes no node");
    }
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = tokenring_ring_build(&ring, t, &err);
    if (rc != TOKENRING_OK)
        die(lib_exit(rc), "cannot build the ring: %s", err.message);
    return ring;
}

static const tokenring_replication *find_keyspace(const char *name)
{
    size_t idx;
    const tokenring_replication *r = NULL;
    if (tokenring_cluster_find_keyspace(&idx, cluster, name) != TOKENRING_OK) {
        strbuf known = { 0 };
        size_t k = tokenring_cluster_keyspace_count(cluster);
        for (size_t i = 0; i < k; i++) {
            const char *kn;
            tokenring_cluster_keyspace(&kn, NULL, cluster, i);
            sb_printf(&known, "%s%s", i ? ", " : "", kn);
        }
        die(EXIT_USAGE, "unknown keyspace '%s' (%s%s); define one with --keyspace "
                        "NAME=REPLICATION or a 'keyspace' line in the topology file",
            name, k ? "known: " : "the input defines none", k ? known.p : "");
    }
    tokenring_cluster_keyspace(NULL, &r, cluster, idx);
    return r;
}

static tokenring_placement *build_placement(const tokenring_replication *r)
{
    tokenring_placement *p = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = tokenring_placement_build(&p, need_ring(), r, TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC,
                                       &err);
    if (rc != TOKENRING_OK)
        die(lib_exit(rc), "cannot place replicas: %s", err.message);
    return p;
}

static const char *node_name(uint32_t idx)
{
    tokenring_node_info info;
    if (tokenring_ring_node_brief(&info, ring, idx) != TOKENRING_OK)
        die(EXIT_INTERNAL, "bad node index %u", (unsigned)idx);
    return info.name;
}

/* ------------------------------------------------------------------- keys */

struct key {
    char *label;      /* as given */
    uint8_t *bytes;
    size_t len;
    int64_t token;
};

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Turns one key string into bytes and token; on error writes a message and returns
 * false. */
static bool make_key(struct key *k, const char *s, size_t n, char *msg, size_t msgcap)
{
    k->label = malloc(n + 1);
    if (!k->label)
        die(EXIT_INTERNAL, "out of memory");
    memcpy(k->label, s, n);
    k->label[n] = '\0';
    k->bytes = NULL;
    k->len = 0;
    if (opt.token_mode) {
        char *end;
        errno = 0;
        long long v = strtoll(k->label, &end, 10);
        if (n == 0 || *end || errno == ERANGE) {
            snprintf(msg, msgcap, "expected a token (a signed 64-bit integer), found '%s'",
                     k->label);
            return false;
        }
        k->token = v;
        return true;
    }
    if (opt.hex) {
        size_t i = 0;
        if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
            i = 2;
        if ((n - i) % 2) {
            snprintf(msg, msgcap, "expected an even number of hex digits in '%s'", k->label);
            return false;
        }
        k->bytes = malloc((n - i) / 2 + 1);
        if (!k->bytes)
            die(EXIT_INTERNAL, "out of memory");
        for (size_t j = i; j < n; j += 2) {
            int a = hexval(s[j]), b = hexval(s[j + 1]);
            if (a < 0 || b < 0) {
                snprintf(msg, msgcap, "column %zu: expected a hex digit in '%s'",
                         (a < 0 ? j : j + 1) + 1, k->label);
                return false;
            }
            k->bytes[k->len++] = (uint8_t)(a * 16 + b);
        }
    } else if (opt.types) {
        tokenring_cql_type types[32];
        size_t nt = 0;
        const char *p = opt.types;
        while (*p) {
            const char *c = strchr(p, ',');
            size_t l = c ? (size_t)(c - p) : strlen(p);
            char tn[64];
            if (l == 0 || l >= sizeof tn || nt == 32)
                die(EXIT_USAGE, "--types %s: expected CQL type names separated by ','",
                    opt.types);
            memcpy(tn, p, l);
            tn[l] = '\0';
            if (tokenring_cql_type_from_name(&types[nt], tn) != TOKENRING_OK)
                die(EXIT_USAGE, "--types: unknown or unsupported CQL type '%s'", tn);
            nt++;
            p += l + (c ? 1 : 0);
        }
        if (nt == 0)
            die(EXIT_USAGE, "--types: no type given");
        size_t need = 0;
        tokenring_error err;
        memset(&err, 0, sizeof err);
        int rc = tokenring_key_parse(NULL, 0, &need, types, nt, s, n, &err);
        if (rc == TOKENRING_E_BUFSIZE || rc == TOKENRING_OK) {
            k->bytes = malloc(need + 1);
            if (!k->bytes)
                die(EXIT_INTERNAL, "out of memory");
            rc = tokenring_key_parse(k->bytes, need + 1, &k->len, types, nt, s, n, &err);
        }
        if (rc != TOKENRING_OK) {
            if (err.column)
                snprintf(msg, msgcap, "column %u: %s", (unsigned)err.column, err.message);
            else
                snprintf(msg, msgcap, "%s", err.message[0] ? err.message
                                                           : tokenring_strerror(rc));
            return false;
        }
    } else {
        k->bytes = malloc(n + 1);
        if (!k->bytes)
            die(EXIT_INTERNAL, "out of memory");
        memcpy(k->bytes, s, n);
        k->len = n;
    }
    k->token = tokenring_token(k->bytes, k->len);
    return true;
}

static void free_keys(struct key *keys, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(keys[i].label);
        free(keys[i].bytes);
    }
    free(keys);
}

/* Keys from the arguments, or from stdin (one per line) when there are none or the only
 * one is "-". */
static struct key *collect_keys(char **args, size_t nargs, size_t *count)
{
    struct key *keys = NULL;
    size_t n = 0, cap = 0;
    char msg[400];
    bool from_stdin = nargs == 0 || (nargs == 1 && strcmp(args[0], "-") == 0);
    if (!from_stdin) {
        keys = calloc(nargs, sizeof *keys);
        if (!keys)
            die(EXIT_INTERNAL, "out of memory");
        for (size_t i = 0; i < nargs; i++) {
            if (!make_key(&keys[i], args[i], strlen(args[i]), msg, sizeof msg))
                die(EXIT_USAGE, "key '%s': %s", args[i], msg);
        }
        *count = nargs;
        return keys;
    }
    for (size_t i = 0; i < opt.ninputs; i++)
        if (strcmp(opt.inputs[i].path, "-") == 0)
            die(EXIT_USAGE, "stdin is already the cluster input: give the keys as arguments");
    size_t len;
    char *text = read_all("-", &len);
    size_t pos = 0;
    unsigned line = 0;
    while (pos < len) {
        const char *s = text + pos;
        const char *nl = memchr(s, '\n', len - pos);
        size_t l = nl ? (size_t)(nl - s) : len - pos;
        pos += l + (nl ? 1 : 0);
        line++;
        if (l > 0 && s[l - 1] == '\r')
            l--;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            struct key *q = realloc(keys, cap * sizeof *q);
            if (!q)
                die(EXIT_INTERNAL, "out of memory");
            keys = q;
        }
        if (!make_key(&keys[n], s, l, msg, sizeof msg))
            die(EXIT_INPUT, "<stdin>:%u: %s", line, msg);
        n++;
    }
    free(text);
    *count = n;
    return keys;
}

/* -------------------------------------------------------------- ownership */

enum own_mode { OWN_PRIMARY, OWN_EFFECTIVE, OWN_UNKNOWN };

static const char *NOTE_DIFFERENT =
    "Non-system keyspaces don't have the same replication settings, effective ownership "
    "information is meaningless";

/* Which ownership `ring`/`status` show: the named keyspace's effective ownership; without
 * one, the effective ownership shared by every keyspace of the input (as nodetool does),
 * "?" when they differ, or primary ownership when the input defines no keyspace. */
static enum own_mode own_mode_for(const char *ks, const tokenring_replication **repl)
{
    *repl = NULL;
    if (ks) {
        *repl = find_keyspace(ks);
        return OWN_EFFECTIVE;
    }
    size_t k = tokenring_cluster_keyspace_count(cluster);
    if (k == 0)
        return OWN_PRIMARY;
    char first[4096], cur[4096];
    size_t len;
    const tokenring_replication *r0;
    tokenring_cluster_keyspace(NULL, &r0, cluster, 0);
    if (tokenring_replication_format(first, sizeof first, &len, r0) != TOKENRING_OK)
        return OWN_UNKNOWN;
    for (size_t i = 1; i < k; i++) {
        const tokenring_replication *r;
        tokenring_cluster_keyspace(NULL, &r, cluster, i);
        if (tokenring_replication_format(cur, sizeof cur, &len, r) != TOKENRING_OK ||
            strcmp(cur, first) != 0)
            return OWN_UNKNOWN;
    }
    *repl = r0;
    return OWN_EFFECTIVE;
}

/* ------------------------------------------------------------- commands */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sorted distinct datacenter names of the cluster (all nodes, any state). */
static const char **cluster_dcs(size_t *count)
{
    size_t n = tokenring_cluster_node_count(cluster), k = 0;
    const char **dcs = calloc(n + 1, sizeof *dcs);
    if (!dcs)
        die(EXIT_INTERNAL, "out of memory");
    for (size_t i = 0; i < n; i++) {
        tokenring_cluster_node_info info;
        tokenring_cluster_node(&info, cluster, i);
        bool seen = false;
        for (size_t j = 0; j < k; j++)
            if (strcmp(dcs[j], info.datacenter) == 0)
                seen = true;
        if (!seen)
            dcs[k++] = info.datacenter;
    }
    qsort(dcs, k, sizeof *dcs, cmp_str);
    *count = k;
    return dcs;
}

static const char *liveness_word(int32_t l)
{
    return l == TOKENRING_UP ? "Up" : l == TOKENRING_DOWN ? "Down" : "?";
}

static const char *state_word(int32_t s)
{
    static const char *w[] = { "Normal", "Joining", "Leaving", "Moving" };
    return s >= 0 && s < 4 ? w[s] : "?";
}

static void check_args(size_t min, size_t max, const char *usage)
{
    if (opt.nargs < min || opt.nargs > max)
        die(EXIT_USAGE, "usage: tokenring %s %s (see tokenring --help)", opt.cmd, usage);
}

/* token KEY... */
static void cmd_token(void)
{
    size_t n;
    struct key *keys = collect_keys(opt.args, opt.nargs, &n);
    bool with_owner = tokenring_cluster_topology(cluster) != NULL;
    if (with_owner)
        need_ring();
    if (opt.json) {
        sb_puts(&out, "[");
        for (size_t i = 0; i < n; i++) {
            sb_puts(&out, i ? ",\n " : "");
            sb_puts(&out, "{\"key\": ");
            sb_json_str(&out, keys[i].label);
            sb_printf(&out, ", \"token\": \"%lld\"", (long long)keys[i].token);
            if (with_owner) {
                tokenring_range r;
                tokenring_ring_range_of(&r, ring, keys[i].token);
                sb_puts(&out, ", \"owner\": ");
                sb_json_str(&out, node_name(r.owner));
                sb_printf(&out, ", \"range\": [\"%lld\", \"%lld\"]", (long long)r.start,
                          (long long)r.end);
            }
            sb_puts(&out, "}");
        }
        sb_puts(&out, "]\n");
        free_keys(keys, n);
        return;
    }
    size_t wk = 3;
    for (size_t i = 0; i < n; i++)
        if (strlen(keys[i].label) > wk)
            wk = strlen(keys[i].label);
    sb_pad(&out, "Key", wk);
    sb_puts(&out, "  ");
    sb_pad(&out, "Token", 20);
    sb_puts(&out, with_owner ? "  Owner\n" : "\n");
    for (size_t i = 0; i < n; i++) {
        char t[32];
        snprintf(t, sizeof t, "%lld", (long long)keys[i].token);
        sb_pad(&out, keys[i].label, wk);
        sb_puts(&out, "  ");
        if (with_owner) {
            uint32_t owner;
            tokenring_ring_owner(&owner, ring, keys[i].token);
            sb_pad(&out, t, 20);
            sb_printf(&out, "  %s\n", node_name(owner));
        } else {
            sb_printf(&out, "%s\n", t);
        }
    }
    free_keys(keys, n);
}

/* getendpoints KS KEY... */
static void cmd_getendpoints(void)
{
    if (opt.nargs < 1)
        die(EXIT_USAGE, "usage: tokenring getendpoints KEYSPACE KEY... (see tokenring --help)");
    const tokenring_replication *r = find_keyspace(opt.args[0]);
    size_t n;
    struct key *keys = collect_keys(opt.args + 1, opt.nargs - 1, &n);
    tokenring_placement *p = build_placement(r);
    if (opt.json)
        sb_puts(&out, "[");
    for (size_t i = 0; i < n; i++) {
        tokenring_replicas rep;
        if (tokenring_placement_replicas(&rep, p, keys[i].token) != TOKENRING_OK)
            die(EXIT_INTERNAL, "replica lookup failed");
        if (opt.json) {
            sb_puts(&out, i ? ",\n " : "");
            sb_puts(&out, "{\"key\": ");
            sb_json_str(&out, keys[i].label);
            sb_printf(&out, ", \"token\": \"%lld\", \"endpoints\": [", (long long)keys[i].token);
            for (uint32_t j = 0; j < rep.count; j++) {
                sb_puts(&out, j ? ", " : "");
                sb_json_str(&out, node_name(rep.nodes[j]));
            }
            sb_puts(&out, "], \"transient\": [");
            for (uint32_t j = 0; j < rep.count; j++)
                sb_printf(&out, "%s%s", j ? ", " : "",
                          rep.transient && rep.transient[j] ? "true" : "false");
            sb_puts(&out, "]}");
            continue;
        }
        if (n > 1)
            sb_printf(&out, "%s# %s (token %lld)\n", i ? "\n" : "", keys[i].label,
                      (long long)keys[i].token);
        for (uint32_t j = 0; j < rep.count; j++)
            sb_printf(&out, "%s\n", node_name(rep.nodes[j]));
    }
    if (opt.json)
        sb_puts(&out, "]\n");
    tokenring_placement_free(p);
    free_keys(keys, n);
}

/* describering KS */
static void cmd_describering(void)
{
    check_args(1, 1, "KEYSPACE");
    const tokenring_replication *r = find_keyspace(opt.args[0]);
    tokenring_placement *p = build_placement(r);
    size_t nt;
    tokenring_ring_tokens(ring, &nt);
    if (opt.json)
        sb_puts(&out, "{\"keyspace\": ");
    if (opt.json) {
        sb_json_str(&out, opt.args[0]);
        sb_puts(&out, ", \"ranges\": [");
    } else {
        sb_puts(&out, "Schema Version:unknown\nTokenRange: \n");
    }
    for (size_t i = 0; i < nt; i++) {
        tokenring_range rg;
        tokenring_replicas rep;
        if (tokenring_ring_range(&rg, ring, i) != TOKENRING_OK ||
            tokenring_placement_range_replicas(&rep, p, i) != TOKENRING_OK)
            die(EXIT_INTERNAL, "range lookup failed");
        if (opt.json) {
            char w[48];
            u128_str(w, rg.width);
            sb_printf(&out, "%s{\"start_token\": \"%lld\", \"end_token\": \"%lld\", "
                            "\"width\": \"%s\", \"endpoints\": [",
                      i ? ",\n " : "", (long long)rg.start, (long long)rg.end, w);
            for (uint32_t j = 0; j < rep.count; j++) {
                sb_puts(&out, j ? ", " : "");
                sb_json_str(&out, node_name(rep.nodes[j]));
            }
            sb_puts(&out, "]}");
            continue;
        }
        sb_printf(&out, "\tTokenRange(start_token:%lld, end_token:%lld, endpoints:[",
                  (long long)rg.start, (long long)rg.end);
        for (int pass = 0; pass < 2; pass++) {
            if (pass)
                sb_puts(&out, "], rpc_endpoints:[");
            for (uint32_t j = 0; j < rep.count; j++)
                sb_printf(&out, "%s%s", j ? ", " : "", node_name(rep.nodes[j]));
        }
        sb_puts(&out, "], endpoint_details:[");
        for (uint32_t j = 0; j < rep.count; j++) {
            tokenring_node_info info;
            tokenring_ring_node_brief(&info, ring, rep.nodes[j]);
            sb_printf(&out, "%sEndpointDetails(host:%s, datacenter:%s, rack:%s)",
                      j ? ", " : "", info.name, info.datacenter, info.rack);
        }
        sb_puts(&out, "])\n");
    }
    if (opt.json)
        sb_puts(&out, "]}\n");
    tokenring_placement_free(p);
}

/* Per-cluster-node ownership for ring/status; node index = cluster index = ring index. */
struct own {
    enum own_mode mode;
    tokenring_ownership *o; /* NULL when tokens are unknown */
    size_t n;
};

static struct own compute_ownership(const char *ks, bool tokens_needed)
{
    struct own res = { OWN_PRIMARY, NULL, 0 };
    const tokenring_replication *r;
    res.mode = own_mode_for(ks, &r);
    if (!tokenring_cluster_topology(cluster)) {
        if (ks || tokens_needed)
            need_ring(); /* dies with the reason */
        res.mode = OWN_UNKNOWN;
        return res;
    }
    need_ring();
    res.n = tokenring_ring_node_count(ring);
    res.o = calloc(res.n ? res.n : 1, sizeof *res.o);
    if (!res.o)
        die(EXIT_INTERNAL, "out of memory");
    tokenring_placement *p = res.mode == OWN_EFFECTIVE ? build_placement(r) : NULL;
    int rc = tokenring_ring_ownership(res.o, res.n, ring, p);
    if (rc != TOKENRING_OK)
        die(lib_exit(rc), "ownership failed: %s", tokenring_strerror(rc));
    tokenring_placement_free(p);
    return res;
}

/* The float nodetool prints, or -1 for "?". */
static double own_value(const struct own *o, size_t i)
{
    if (o->mode == OWN_UNKNOWN || !o->o)
        return -1;
    if (o->o[i].token_count == 0)
        return -1; /* joining: not in the ownership map */
    return o->mode == OWN_EFFECTIVE ? (double)o->o[i].nodetool_effective
                                    : (double)o->o[i].nodetool_primary;
}

static void json_own(const struct own *o, size_t i)
{
    double v = own_value(o, i);
    if (v < 0) {
        sb_puts(&out, "null");
        return;
    }
    char w[48];
    u128_str(w, o->mode == OWN_EFFECTIVE ? o->o[i].effective_width : o->o[i].primary_width);
    sb_printf(&out, "{\"nodetool\": %.9g, \"exact\": %.17g, \"width\": \"%s\"}", v,
              o->mode == OWN_EFFECTIVE ? o->o[i].effective : o->o[i].primary, w);
}

static const char *mode_name(enum own_mode m)
{
    return m == OWN_EFFECTIVE ? "effective" : m == OWN_PRIMARY ? "primary" : "unknown";
}

/* nodetool's "%-{W}s  %-12s%-7s%-8s%-16s%-20s%-44s%n" */
static void ring_row(size_t w, const char *addr, const char *rack, const char *status,
                     const char *state, const char *load, const char *owns, const char *token)
{
    sb_pad(&out, addr, w);
    sb_puts(&out, "  ");
    sb_pad(&out, rack, 12);
    sb_pad(&out, status, 7);
    sb_pad(&out, state, 8);
    sb_pad(&out, load, 16);
    sb_pad(&out, owns, 20);
    sb_pad(&out, token, 44);
    sb_puts(&out, "\n");
}

struct row {
    int64_t token;
    size_t node;
};

static int cmp_row(const void *a, const void *b)
{
    int64_t x = ((const struct row *)a)->token, y = ((const struct row *)b)->token;
    return x < y ? -1 : x > y;
}

/* ring [KS] */
static void cmd_ring(void)
{
    check_args(0, 1, "[KEYSPACE]");
    struct own o = compute_ownership(opt.nargs ? opt.args[0] : NULL, true);
    size_t n = tokenring_cluster_node_count(cluster);
    size_t ndc;
    const char **dcs = cluster_dcs(&ndc);
    size_t w = 0;
    bool vnodes = false;
    for (size_t i = 0; i < n; i++) {
        tokenring_cluster_node_info info;
        tokenring_cluster_node(&info, cluster, i);
        const char *c = strchr(info.name, ':');
        size_t l = strlen(info.name) + ((c && !strchr(c + 1, ':')) ? 0 : 5); /* ":7000" */
        if (l > w)
            w = l;
        if (info.token_count > 1)
            vnodes = true;
    }
    if (opt.json) {
        sb_printf(&out, "{\"ownership\": \"%s\", \"datacenters\": [", mode_name(o.mode));
    }
    for (size_t d = 0; d < ndc; d++) {
        /* rows: every token of the DC's nodes (normal and joining), ascending */
        size_t nrows = 0;
        for (size_t i = 0; i < n; i++) {
            tokenring_cluster_node_info info;
            tokenring_cluster_node(&info, cluster, i);
            if (strcmp(info.datacenter, dcs[d]) == 0)
                nrows += info.token_count;
        }
        struct row *rows = calloc(nrows ? nrows : 1, sizeof *rows);
        if (!rows)
            die(EXIT_INTERNAL, "out of memory");
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            tokenring_cluster_node_info info;
            tokenring_cluster_node(&info, cluster, i);
            if (strcmp(info.datacenter, dcs[d]) == 0)
                for (size_t j = 0; j < info.token_count; j++)
                    rows[k++] = (struct row){ info.tokens[j], i };
        }
        qsort(rows, nrows, sizeof *rows, cmp_row); /* tokens are distinct */
        if (opt.json) {
            sb_puts(&out, d ? ",\n " : "");
            sb_puts(&out, "{\"datacenter\": ");
            sb_json_str(&out, dcs[d]);
            sb_puts(&out, ", \"rows\": [");
            for (size_t a = 0; a < nrows; a++) {
                tokenring_cluster_node_info info;
                tokenring_cluster_node(&info, cluster, rows[a].node);
                sb_puts(&out, a ? ",\n  " : "\n  ");
                sb_puts(&out, "{\"address\": ");
                sb_json_str(&out, info.name);
                sb_puts(&out, ", \"rack\": ");
                sb_json_str(&out, info.rack);
                sb_printf(&out, ", \"status\": \"%s\", \"state\": \"%s\", \"owns\": ",
                          liveness_word(info.liveness), state_word(info.state));
                json_own(&o, rows[a].node);
                sb_printf(&out, ", \"token\": \"%lld\"}", (long long)rows[a].token);
            }
            sb_puts(&out, "]}");
            free(rows);
            continue;
        }
        sb_printf(&out, "\nDatacenter: %s\n==========\n", dcs[d]);
        ring_row(w, "Address", "Rack", "Status", "State", "Load", "Owns", "Token");
        if (nrows > 1) {
            char t[32];
            snprintf(t, sizeof t, "%lld", (long long)rows[nrows - 1].token);
            ring_row(w, "", "", "", "", "", "", t);
        } else {
            sb_puts(&out, "\n");
        }
        for (size_t a = 0; a < nrows; a++) {
            tokenring_cluster_node_info info;
            tokenring_cluster_node(&info, cluster, rows[a].node);
            char t[32], ow[32];
            snprintf(t, sizeof t, "%lld", (long long)rows[a].token);
            double v = own_value(&o, rows[a].node);
            if (v < 0)
                snprintf(ow, sizeof ow, "?");
            else
                snprintf(ow, sizeof ow, "%.2f%%", v * 100.0);
            ring_row(w, info.name, info.rack, liveness_word(info.liveness),
                     state_word(info.state), "?", ow, t);
        }
        sb_puts(&out, "\n");
        free(rows);
    }
    if (opt.json) {
        sb_puts(&out, "]}\n");
    } else {
        if (vnodes)
            sb_puts(&out, "  Warning: \"nodetool ring\" is used to output all the tokens of a "
                          "node.\n  To view status related info of a node use \"nodetool "
                          "status\" instead.\n\n");
        if (o.mode == OWN_UNKNOWN)
            sb_printf(&out, "Note: %s\n", NOTE_DIFFERENT);
        else if (o.mode == OWN_PRIMARY)
            sb_puts(&out, "Note: Ownership information does not include topology; for "
                          "complete information, specify a keyspace\n");
    }
    free(dcs);
    free(o.o);
}

/* status [KS] */
static void cmd_status(void)
{
    check_args(0, 1, "[KEYSPACE]");
    struct own o = compute_ownership(opt.nargs ? opt.args[0] : NULL, false);
    size_t n = tokenring_cluster_node_count(cluster);
    size_t ndc;
    const char **dcs = cluster_dcs(&ndc);
    size_t total_tokens = 0;
    for (size_t i = 0; i < n; i++) {
        tokenring_cluster_node_info info;
        tokenring_cluster_node(&info, cluster, i);
        total_tokens += info.declared_tokens;
    }
    /* nodetool compares the token count with the number of datacenters */
    bool token_layout = total_tokens <= ndc && o.o != NULL;
    const char *owns_head = o.mode == OWN_EFFECTIVE ? "Owns (effective)" : "Owns";
    if (opt.json) {
        sb_printf(&out, "{\"ownership\": \"%s\", \"nodes\": [", mode_name(o.mode));
        for (size_t d = 0, first = 1; d < ndc; d++) {
            for (size_t i = 0; i < n; i++) {
                tokenring_cluster_node_info info;
                tokenring_cluster_node(&info, cluster, i);
                if (strcmp(info.datacenter, dcs[d]) != 0)
                    continue;
                sb_puts(&out, first ? "\n " : ",\n ");
                first = 0;
                sb_puts(&out, "{\"address\": ");
                sb_json_str(&out, info.name);
                sb_puts(&out, ", \"datacenter\": ");
                sb_json_str(&out, info.datacenter);
                sb_puts(&out, ", \"rack\": ");
                sb_json_str(&out, info.rack);
                sb_printf(&out, ", \"status\": \"%s\", \"state\": \"%s\", \"tokens\": %zu, "
                                "\"host_id\": ",
                          liveness_word(info.liveness), state_word(info.state),
                          info.declared_tokens);
                if (info.host_id)
                    sb_json_str(&out, info.host_id);
                else
                    sb_puts(&out, "null");
                sb_puts(&out, ", \"owns\": ");
                json_own(&o, i);
                sb_puts(&out, "}");
            }
        }
        sb_puts(&out, "]}\n");
        free(dcs);
        free(o.o);
        return;
    }
    /* cells first, for shared column widths */
    enum { NCOL = 7 };
    const char *head[NCOL];
    size_t nc = 0;
    head[nc++] = "--";
    head[nc++] = "Address";
    head[nc++] = "Load";
    if (!token_layout)
        head[nc++] = "Tokens";
    head[nc++] = owns_head;
    head[nc++] = "Host ID";
    if (token_layout)
        head[nc++] = "Token";
    head[nc++] = "Rack";
    char **cells = calloc(n * NCOL + 1, sizeof *cells);
    size_t width[NCOL];
    if (!cells)
        die(EXIT_INTERNAL, "out of memory");
    for (size_t c = 0; c < nc; c++)
        width[c] = strlen(head[c]);
    for (size_t i = 0; i < n; i++) {
        tokenring_cluster_node_info info;
        tokenring_cluster_node(&info, cluster, i);
        char buf[NCOL][320];
        size_t c = 0;
        snprintf(buf[c++], 320, "%c%c",
                 info.liveness == TOKENRING_UP ? 'U' : info.liveness == TOKENRING_DOWN ? 'D'
                                                                                       : '?',
                 "NJLM"[info.state & 3]);
        snprintf(buf[c++], 320, "%s", info.name);
        snprintf(buf[c++], 320, "?");
        if (!token_layout)
            snprintf(buf[c++], 320, "%zu", info.declared_tokens);
        double v = own_value(&o, i);
        if (v < 0)
            snprintf(buf[c++], 320, "?");
        else
            snprintf(buf[c++], 320, "%.1f%%", v * 100.0);
        snprintf(buf[c++], 320, "%s", info.host_id ? info.host_id : "?");
        if (token_layout)
            snprintf(buf[c++], 320, "%lld", info.token_count ? (long long)info.tokens[0] : 0LL);
        snprintf(buf[c++], 320, "%s", info.rack);
        for (size_t j = 0; j < nc; j++) {
            cells[i * NCOL + j] = strdup(buf[j]);
            if (!cells[i * NCOL + j])
                die(EXIT_INTERNAL, "out of memory");
            if (strlen(buf[j]) > width[j])
                width[j] = strlen(buf[j]);
        }
    }
    for (size_t d = 0; d < ndc; d++) {
        char title[400];
        snprintf(title, sizeof title, "Datacenter: %s", dcs[d]);
        sb_printf(&out, "%s\n", title);
        for (size_t k = strlen(title); k > 0; k--)
            sb_puts(&out, "=");
        sb_puts(&out, "\nStatus=Up/Down\n|/ State=Normal/Leaving/Joining/Moving\n");
        for (size_t c = 0; c < nc; c++) {
            sb_pad(&out, head[c], width[c]);
            sb_puts(&out, c + 1 < nc ? "  " : "\n");
        }
        for (size_t i = 0; i < n; i++) {
            tokenring_cluster_node_info info;
            tokenring_cluster_node(&info, cluster, i);
            if (strcmp(info.datacenter, dcs[d]) != 0)
                continue;
            for (size_t c = 0; c < nc; c++) {
                sb_pad(&out, cells[i * NCOL + c], width[c]);
                sb_puts(&out, c + 1 < nc ? "  " : "\n");
            }
        }
        sb_puts(&out, "\n");
    }
    if (o.mode == OWN_UNKNOWN && o.o)
        sb_printf(&out, "Note: %s\n", NOTE_DIFFERENT);
    else if (o.mode == OWN_UNKNOWN)
        sb_puts(&out, "Note: the input has no tokens (nodetool status), so ownership is "
                      "unknown\n");
    for (size_t i = 0; i < n * NCOL; i++)
        free(cells[i]);
    free(cells);
    free(dcs);
    free(o.o);
}

/* convert */
static void cmd_convert(void)
{
    check_args(0, 0, "");
    if (opt.json) {
        size_t n = tokenring_cluster_node_count(cluster);
        size_t k = tokenring_cluster_keyspace_count(cluster);
        sb_puts(&out, "{\"keyspaces\": [");
        for (size_t i = 0; i < k; i++) {
            const char *name;
            const tokenring_replication *r;
            char rb[4096];
            size_t len;
            tokenring_cluster_keyspace(&name, &r, cluster, i);
            if (tokenring_replication_format(rb, sizeof rb, &len, r) != TOKENRING_OK)
                die(EXIT_INTERNAL, "replication too long to format");
            sb_puts(&out, i ? ", " : "");
            sb_puts(&out, "{\"name\": ");
            sb_json_str(&out, name);
            sb_puts(&out, ", \"replication\": ");
            sb_json_str(&out, rb);
            sb_puts(&out, "}");
        }
        sb_printf(&out, "], \"partial\": %s, \"nodes\": [",
                  tokenring_cluster_flags(cluster) & TOKENRING_CLUSTER_PARTIAL ? "true"
                                                                                : "false");
        for (size_t i = 0; i < n; i++) {
            tokenring_cluster_node_info info;
            tokenring_cluster_node(&info, cluster, i);
            sb_puts(&out, i ? ",\n " : "\n ");
            sb_puts(&out, "{\"name\": ");
            sb_json_str(&out, info.name);
            sb_puts(&out, ", \"datacenter\": ");
            sb_json_str(&out, info.datacenter);
            sb_puts(&out, ", \"rack\": ");
            sb_json_str(&out, info.rack);
            sb_printf(&out, ", \"state\": \"%s\", \"status\": \"%s\", \"host_id\": ",
                      state_word(info.state), liveness_word(info.liveness));
            if (info.host_id)
                sb_json_str(&out, info.host_id);
            else
                sb_puts(&out, "null");
            sb_printf(&out, ", \"num_tokens\": %zu, \"tokens\": ", info.declared_tokens);
            if (!info.tokens) {
                sb_puts(&out, "null}");
                continue;
            }
            sb_puts(&out, "[");
            for (size_t j = 0; j < info.token_count; j++)
                sb_printf(&out, "%s\"%lld\"", j ? ", " : "", (long long)info.tokens[j]);
            sb_puts(&out, "]}");
        }
        sb_puts(&out, "]}\n");
        return;
    }
    size_t len = 0;
    int rc = tokenring_cluster_format(NULL, 0, &len, cluster);
    if (rc != TOKENRING_E_BUFSIZE && rc != TOKENRING_OK)
        die(EXIT_INTERNAL, "cannot write the topology: %s", tokenring_strerror(rc));
    sb_reserve(&out, len + 1);
    rc = tokenring_cluster_format(out.p + out.n, out.cap - out.n, &len, cluster);
    if (rc != TOKENRING_OK)
        die(EXIT_INTERNAL, "cannot write the topology: %s", tokenring_strerror(rc));
    out.n += len;
}

/* demo [KEY...] */
static void cmd_demo(void)
{
    if (!demo)
        die(EXIT_USAGE, "demo works on the built-in demo ring only (give no input)");
    static char *defaults[] = { "user42" };
    char **args = opt.nargs ? opt.args : defaults;
    size_t nargs = opt.nargs ? opt.nargs : 1;
    size_t n;
    struct key *keys = collect_keys(args, nargs, &n);
    const tokenring_replication *r = find_keyspace("demo");
    tokenring_placement *p = build_placement(r);
    size_t nt;
    tokenring_ring_tokens(ring, &nt);
    if (opt.json)
        sb_puts(&out, "[");
    else
        sb_printf(&out, "Demo ring: %zu nodes x 8 tokens (layout seed 1), datacenter1; "
                        "keyspace demo = NetworkTopologyStrategy datacenter1=3\n\n",
                  tokenring_ring_node_count(ring));
    for (size_t i = 0; i < n; i++) {
        tokenring_replicas rep;
        tokenring_range rg;
        tokenring_placement_replicas(&rep, p, keys[i].token);
        tokenring_ring_range_of(&rg, ring, keys[i].token);
        if (opt.json) {
            sb_puts(&out, i ? ",\n " : "");
            sb_puts(&out, "{\"key\": ");
            sb_json_str(&out, keys[i].label);
            sb_printf(&out, ", \"token\": \"%lld\", \"owner\": ", (long long)keys[i].token);
            sb_json_str(&out, node_name(rg.owner));
            sb_puts(&out, ", \"replicas\": [");
            for (uint32_t j = 0; j < rep.count; j++) {
                sb_puts(&out, j ? ", " : "");
                sb_json_str(&out, node_name(rep.nodes[j]));
            }
            sb_puts(&out, "]}");
            continue;
        }
        sb_printf(&out, "key       %s\ntoken     %lld\nrange     (%lld, %lld]\nowner     %s\n"
                        "replicas ",
                  keys[i].label, (long long)keys[i].token, (long long)rg.start,
                  (long long)rg.end, node_name(rg.owner));
        for (uint32_t j = 0; j < rep.count; j++)
            sb_printf(&out, " %s", node_name(rep.nodes[j]));
        sb_puts(&out, i + 1 < n ? "\n\n" : "\n");
    }
    if (opt.json)
        sb_puts(&out, "]\n");
    tokenring_placement_free(p);
    free_keys(keys, n);
}

/* --------------------------------------------------------------- analyses */

/* A progress bar on stderr, only when stderr is a terminal. */
static bool progress_on;

static void progress(const char *what, size_t done, size_t total)
{
    if (!progress_on || total == 0)
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

static double frac(tokenring_u128 w)
{
    return (double)w.hi + (double)w.lo / 18446744073709551616.0;
}

static void fail_lib(int rc, const tokenring_error *err, const char *what)
{
    int code = rc == TOKENRING_E_NOMEM ? EXIT_INTERNAL
               : (rc == TOKENRING_E_INVAL || rc == TOKENRING_E_RANGE ||
                  rc == TOKENRING_E_NOTFOUND || rc == TOKENRING_E_EXISTS ||
                  rc == TOKENRING_E_IMPOSSIBLE)
                   ? EXIT_USAGE
                   : EXIT_INPUT;
    die(code, "%s: %s", what, err->message[0] ? err->message : tokenring_strerror(rc));
}

static const tokenring_topology *need_topology(void)
{
    need_ring();
    return tokenring_cluster_topology(cluster);
}

/* Splits "a,b,c" into a NULL-terminated array of strings (owned by the caller). */
static char **split_list(const char *s, size_t *count)
{
    size_t n = 1;
    for (const char *p = s; *p; p++)
        n += *p == ',';
    char **v = calloc(n + 1, sizeof *v);
    char *dup = strdup(s);
    if (!v || !dup)
        die(EXIT_INTERNAL, "out of memory");
    size_t k = 0;
    for (char *tok = dup, *next; tok; tok = next) {
        next = strchr(tok, ',');
        if (next)
            *next++ = '\0';
        v[k++] = tok;
    }
    *count = k;
    return v;
}

static int64_t *parse_token_list_arg(const char *s, size_t *count)
{
    char **v = split_list(s, count);
    int64_t *t = calloc(*count, sizeof *t);
    if (!t)
        die(EXIT_INTERNAL, "out of memory");
    for (size_t i = 0; i < *count; i++) {
        char *end;
        errno = 0;
        long long x = strtoll(v[i], &end, 10);
        if (!*v[i] || *end || errno == ERANGE)
            die(EXIT_USAGE, "--initial-token: expected comma-separated tokens, found '%s'", v[i]);
        t[i] = x;
    }
    free(v[0]);
    free(v);
    return t;
}

/* The replication factor a keyspace gives a datacenter (SimpleStrategy: its factor). */
static int32_t rf_for_dc(const tokenring_replication *r, const char *dc)
{
    int32_t rf = 0;
    if (tokenring_replication_strategy(r) == TOKENRING_SIMPLE) {
        tokenring_replication_get(NULL, &rf, NULL, r, 0);
        return rf;
    }
    size_t n = tokenring_replication_dc_count(r);
    for (size_t i = 0; i < n; i++) {
        const char *d;
        int32_t f;
        tokenring_replication_get(&d, &f, NULL, r, i);
        if (strcmp(d, dc) == 0)
            rf = f;
    }
    return rf;
}

static const char *only_dc(void)
{
    size_t ndc;
    const char **dcs = cluster_dcs(&ndc);
    const char *dc = ndc == 1 ? dcs[0] : NULL;
    free(dcs);
    return dc;
}

static void print_movement(const tokenring_movement *m, const char *title)
{
    tokenring_movement_summary sum;
    if (tokenring_movement_get_summary(&sum, m) != TOKENRING_OK)
        die(EXIT_INTERNAL, "cannot read the movement summary");
    char cw[48], sw[48];
    u128_str(cw, sum.changed_width);
    u128_str(sw, sum.streamed_width);
    if (opt.json) {
        sb_puts(&out, "{\"change\": ");
        sb_json_str(&out, title);
        sb_printf(&out, ", \"changed_width\": \"%s\", \"changed_fraction\": %.17g, "
                        "\"streamed_width\": \"%s\", \"streamed_fraction\": %.17g, "
                        "\"nodes\": [",
                  cw, sum.changed_fraction, sw, sum.streamed_fraction);
    } else {
        if (*title)
            sb_printf(&out, "%s\n", title);
        sb_printf(&out, "\nRanges whose replicas change: %u (%.4f%% of the ring)\n"
                        "Streams: %u (%.4f%% of the ring streamed)\n"
                        "Nodes needing cleanup: %u\n\n",
                  (unsigned)sum.range_count, sum.changed_fraction * 100,
                  (unsigned)sum.stream_count, sum.streamed_fraction * 100,
                  (unsigned)sum.cleanup_count);
    }
    size_t wn = 4;
    const char **names = calloc(sum.node_count + 1, sizeof *names);
    if (!names)
        die(EXIT_INTERNAL, "out of memory");
    for (uint32_t i = 0; i < sum.node_count; i++) {
        tokenring_movement_node nd;
        tokenring_movement_get_node(&nd, m, i);
        names[i] = nd.name;
        if (strlen(nd.name) > wn)
            wn = strlen(nd.name);
    }
    if (!opt.json)
        sb_printf(&out, "%-*s  %-10s  %-10s  %-10s  %-10s  %s\n", (int)wn, "Node",
                  "Before", "After", "Gains", "Loses", "Cleanup");
    for (uint32_t i = 0; i < sum.node_count; i++) {
        tokenring_movement_node nd;
        tokenring_movement_get_node(&nd, m, i);
        if (opt.json) {
            char b[48], a[48], g[48], l[48];
            u128_str(b, nd.before_width);
            u128_str(a, nd.after_width);
            u128_str(g, nd.gained_width);
            u128_str(l, nd.lost_width);
            sb_puts(&out, i ? ",\n  " : "\n  ");
            sb_puts(&out, "{\"name\": ");
            sb_json_str(&out, nd.name);
            sb_printf(&out, ", \"before_width\": \"%s\", \"after_width\": \"%s\", "
                            "\"gained_width\": \"%s\", \"lost_width\": \"%s\", "
                            "\"in_before\": %s, \"in_after\": %s, \"needs_cleanup\": %s}",
                      b, a, g, l, nd.in_before ? "true" : "false",
                      nd.in_after ? "true" : "false", nd.needs_cleanup ? "true" : "false");
            continue;
        }
        char c[5][32];
        snprintf(c[0], 32, nd.in_before ? "%.2f%%" : "-", frac(nd.before_width) * 100);
        snprintf(c[1], 32, nd.in_after ? "%.2f%%" : "-", frac(nd.after_width) * 100);
        snprintf(c[2], 32, "%.2f%%", frac(nd.gained_width) * 100);
        snprintf(c[3], 32, "%.2f%%", frac(nd.lost_width) * 100);
        sb_printf(&out, "%-*s  %-10s  %-10s  %-10s  %-10s  %s\n", (int)wn, nd.name, c[0],
                  c[1], c[2], c[3], nd.needs_cleanup ? "yes" : "no");
    }
    if (opt.json)
        sb_puts(&out, "],\n \"streams\": [");
    else
        sb_printf(&out, "\nStreaming plan\n%-*s  %-*s  %-20s  %-20s  %-8s  %s\n",
                  (int)(wn > 6 ? wn : 6), "Source", (int)(wn > 11 ? wn : 11), "Destination", "Start (exclusive)",
                  "End", "Share", "Strict");
    for (uint32_t i = 0; i < sum.stream_count; i++) {
        tokenring_stream st;
        tokenring_movement_get_stream(&st, m, i);
        if (opt.json) {
            char w[48];
            u128_str(w, st.width);
            sb_puts(&out, i ? ",\n  " : "\n  ");
            sb_puts(&out, "{\"source\": ");
            sb_json_str(&out, names[st.source]);
            sb_puts(&out, ", \"destination\": ");
            sb_json_str(&out, names[st.destination]);
            sb_printf(&out, ", \"start\": \"%lld\", \"end\": \"%lld\", \"width\": \"%s\", "
                            "\"strict\": %s}",
                      (long long)st.start, (long long)st.end, w, st.strict ? "true" : "false");
            continue;
        }
        char a[32], b[32], f[32];
        snprintf(a, sizeof a, "%lld", (long long)st.start);
        snprintf(b, sizeof b, "%lld", (long long)st.end);
        snprintf(f, sizeof f, "%.4f%%", frac(st.width) * 100);
        sb_printf(&out, "%-*s  %-*s  %-20s  %-20s  %-8s  %s\n", (int)(wn > 6 ? wn : 6),
                  names[st.source],
                  (int)(wn > 11 ? wn : 11), names[st.destination], a, b, f,
                  st.strict ? "yes" : "no");
    }
    if (opt.json)
        sb_puts(&out, "]}\n");
    free(names);
}

static const char *repl_text(const tokenring_replication *r, char *buf, size_t cap)
{
    size_t len;
    if (tokenring_replication_format(buf, cap, &len, r) != TOKENRING_OK)
        snprintf(buf, cap, "?");
    return buf;
}

/* join KEYSPACE NODE --dc DC --rack RACK [--num-tokens T | --initial-token LIST] */
static void cmd_join(void)
{
    check_args(2, 2, "KEYSPACE NODE --dc DC --rack RACK [--num-tokens T | --initial-token "
                     "T1,T2,...]");
    const tokenring_replication *r = find_keyspace(opt.args[0]);
    const tokenring_topology *t = need_topology();
    const char *dc = opt.dc ? opt.dc : only_dc();
    if (!dc)
        die(EXIT_USAGE, "join: the cluster has several datacenters: give --dc");
    const char *rack = opt.rack ? opt.rack : "rack1";
    size_t nt = 0;
    int64_t *tokens = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    if (opt.initial_token) {
        tokens = parse_token_list_arg(opt.initial_token, &nt);
    } else {
        long T = opt.num_tokens > 0 ? opt.num_tokens : 16;
        int32_t rf = rf_for_dc(r, dc);
        if (rf < 1)
            die(EXIT_USAGE, "join: keyspace %s places no replica in datacenter %s",
                opt.args[0], dc);
        nt = (size_t)T;
        tokens = calloc(nt, sizeof *tokens);
        if (!tokens)
            die(EXIT_INTERNAL, "out of memory");
        int rc = tokenring_allocate_tokens(tokens, (uint32_t)T, t, dc, rack, rf, 0, &err);
        if (rc != TOKENRING_OK)
            fail_lib(rc, &err, "join: allocating tokens");
    }
    tokenring_movement *m = NULL;
    int rc = tokenring_movement_join(&m, t, r, opt.args[1], dc, rack, tokens, nt, NULL, 0, &err);
    if (rc != TOKENRING_OK)
        fail_lib(rc, &err, "join");
    char title[1024], rb[512];
    snprintf(title, sizeof title, "Join of %s (%s/%s, %zu tokens%s) under keyspace %s %s",
             opt.args[1], dc, rack, nt, opt.initial_token ? "" : " from the allocator",
             opt.args[0], repl_text(r, rb, sizeof rb));
    if (!opt.json) {
        sb_printf(&out, "%s\nTokens: ", title);
        for (size_t i = 0; i < nt; i++)
            sb_printf(&out, "%s%lld", i ? "," : "", (long long)tokens[i]);
        sb_puts(&out, "\n");
        print_movement(m, "");
    } else {
        print_movement(m, title);
    }
    tokenring_movement_free(m);
    free(tokens);
}

/* decommission KEYSPACE NODE */
static void cmd_decommission(void)
{
    check_args(2, 2, "KEYSPACE NODE");
    const tokenring_replication *r = find_keyspace(opt.args[0]);
    tokenring_movement *m = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = tokenring_movement_decommission(&m, need_topology(), r, opt.args[1], NULL, 0, &err);
    if (rc != TOKENRING_OK)
        fail_lib(rc, &err, "decommission");
    char title[1024], rb[512];
    snprintf(title, sizeof title, "Decommission of %s under keyspace %s %s", opt.args[1],
             opt.args[0], repl_text(r, rb, sizeof rb));
    print_movement(m, title);
    tokenring_movement_free(m);
}

/* replace KEYSPACE OLD NEW */
static void cmd_replace(void)
{
    check_args(3, 3, "KEYSPACE DEAD_NODE NEW_NODE");
    const tokenring_replication *r = find_keyspace(opt.args[0]);
    tokenring_movement *m = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = tokenring_movement_replace(&m, need_topology(), r, opt.args[1], opt.args[2], NULL,
                                        0, &err);
    if (rc != TOKENRING_OK)
        fail_lib(rc, &err, "replace");
    char title[1024], rb[512];
    snprintf(title, sizeof title, "Replacement of %s by %s under keyspace %s %s", opt.args[1],
             opt.args[2], opt.args[0], repl_text(r, rb, sizeof rb));
    print_movement(m, title);
    tokenring_movement_free(m);
}

/* move KEYSPACE NODE --initial-token LIST */
static void cmd_move(void)
{
    check_args(2, 2, "KEYSPACE NODE --initial-token T1,T2,...");
    if (!opt.initial_token)
        die(EXIT_USAGE, "move needs the node's new tokens: --initial-token T1,T2,...");
    const tokenring_replication *r = find_keyspace(opt.args[0]);
    size_t nt;
    int64_t *tokens = parse_token_list_arg(opt.initial_token, &nt);
    tokenring_movement *m = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = tokenring_movement_move(&m, need_topology(), r, opt.args[1], tokens, nt, NULL, 0,
                                     &err);
    if (rc != TOKENRING_OK)
        fail_lib(rc, &err, "move");
    char title[1024], rb[512];
    snprintf(title, sizeof title, "Move of %s to %zu new token%s under keyspace %s %s",
             opt.args[1], nt, nt == 1 ? "" : "s", opt.args[0], repl_text(r, rb, sizeof rb));
    print_movement(m, title);
    tokenring_movement_free(m);
    free(tokens);
}

static int parse_cl(const char *s)
{
    static const char *names[] = { NULL, "ONE", "TWO", "THREE", "QUORUM", "ALL",
                                   "LOCAL_ONE", "LOCAL_QUORUM", "EACH_QUORUM" };
    for (int i = 1; i < 9; i++)
        if (strcasecmp(s, names[i]) == 0)
            return i;
    die(EXIT_USAGE, "--cl: unknown consistency level '%s' (ONE, TWO, THREE, QUORUM, ALL, "
                    "LOCAL_ONE, LOCAL_QUORUM, EACH_QUORUM)", s);
}

/* availability KEYSPACE [--cl LEVEL] [--local-dc DC] [--failures K] */
static void cmd_availability(void)
{
    check_args(1, 1, "KEYSPACE [--cl LEVEL] [--local-dc DC] [--failures K]");
    const tokenring_replication *r = find_keyspace(opt.args[0]);
    const tokenring_ring *rg = need_ring();
    const char *cl_name = opt.cl ? opt.cl : "QUORUM";
    int cl = parse_cl(cl_name);
    const char *local = opt.local_dc;
    if (!local && (cl == TOKENRING_CL_LOCAL_ONE || cl == TOKENRING_CL_LOCAL_QUORUM))
        local = only_dc();
    size_t nodes = tokenring_ring_node_count(rg);
    long kmax = opt.failures > 0 ? opt.failures : (long)TOKENRING_AVAILABILITY_MAX_K;
    if (kmax > (long)TOKENRING_AVAILABILITY_MAX_K)
        die(EXIT_USAGE, "--failures: at most %u", TOKENRING_AVAILABILITY_MAX_K);
    if ((size_t)kmax > nodes)
        kmax = (long)nodes;
    char rb[512];
    if (opt.json) {
        sb_printf(&out, "{\"keyspace\": ");
        sb_json_str(&out, opt.args[0]);
        sb_printf(&out, ", \"consistency\": \"%s\", \"failures\": [", cl_name);
    } else {
        sb_printf(&out, "Availability of keyspace %s %s at %s%s%s\n", opt.args[0],
                  repl_text(r, rb, sizeof rb), cl_name, local ? " in " : "",
                  local ? local : "");
    }
    for (long k = 1; k <= kmax; k++) {
        progress("availability", (size_t)k - 1, (size_t)kmax);
        tokenring_availability *a = NULL;
        tokenring_error err;
        memset(&err, 0, sizeof err);
        int rc = tokenring_availability_build(&a, rg, r, cl, local, (uint32_t)k, &err);
        if (rc != TOKENRING_OK)
            fail_lib(rc, &err, "availability");
        size_t n = tokenring_availability_count(a);
        /* C(nodes, k) failure sets in all */
        double total = 1;
        for (long i = 0; i < k; i++)
            total = total * (double)(nodes - (size_t)i) / (double)(i + 1);
        if (opt.json) {
            sb_printf(&out, "%s{\"k\": %ld, \"sets\": %.0f, \"breaking\": [", k > 1 ? ",\n " : "",
                      k, total);
        } else {
            sb_printf(&out, "\n%ld failed node%s: %zu of %.0f sets make ranges unavailable\n", k,
                      k > 1 ? "s" : "", n, total);
            if (n)
                sb_printf(&out, "  %-40s  %s\n", "Failed nodes", "Unavailable");
        }
        for (size_t i = 0; i < n; i++) {
            uint32_t ids[TOKENRING_AVAILABILITY_MAX_K];
            tokenring_u128 w;
            double f;
            tokenring_availability_get(ids, &w, &f, a, i);
            strbuf set = { 0 };
            if (opt.json) {
                char ws[48];
                u128_str(ws, w);
                sb_puts(&out, i ? ", " : "");
                sb_puts(&out, "{\"nodes\": [");
                for (long j = 0; j < k; j++) {
                    sb_puts(&out, j ? ", " : "");
                    sb_json_str(&out, node_name(ids[j]));
                }
                sb_printf(&out, "], \"width\": \"%s\", \"fraction\": %.17g}", ws, f);
                continue;
            }
            for (long j = 0; j < k; j++)
                sb_printf(&set, "%s%s", j ? ", " : "", node_name(ids[j]));
            sb_printf(&out, "  %-40s  %.4f%%\n", set.p, f * 100);
            free(set.p);
        }
        if (opt.json)
            sb_puts(&out, "]}");
        tokenring_availability_free(a);
    }
    progress("availability", (size_t)kmax, (size_t)kmax);
    if (opt.json)
        sb_puts(&out, "]}\n");
}

static void balance_line(const char *what, const tokenring_balance *b)
{
    if (opt.json) {
        sb_printf(&out, "{\"nodes\": %u, \"min\": %.17g, \"max\": %.17g, \"mean\": %.17g, "
                        "\"stdev\": %.17g, \"min_node\": ",
                  (unsigned)b->node_count, b->min, b->max, b->mean, b->stdev);
        sb_json_str(&out, node_name(b->min_node));
        sb_puts(&out, ", \"max_node\": ");
        sb_json_str(&out, node_name(b->max_node));
        sb_puts(&out, "}");
        return;
    }
    char c[4][32];
    snprintf(c[0], 32, "%.4f%%", b->min * 100);
    snprintf(c[1], 32, "%.4f%%", b->max * 100);
    snprintf(c[2], 32, "%.4f%%", b->mean * 100);
    snprintf(c[3], 32, "%.4f%%", b->stdev * 100);
    sb_printf(&out, "%-10s %-10s %-10s %-10s %-10s %-8.4f  %s / %s\n", what, c[0], c[1], c[2],
              c[3], b->mean > 0 ? b->max / b->mean : 0, node_name(b->min_node),
              node_name(b->max_node));
}

/* balance [KEYSPACE] [--dc DC] [--rack RACK] */
static void cmd_balance(void)
{
    check_args(0, 1, "[KEYSPACE] [--dc DC [--rack RACK]]");
    const tokenring_replication *r = opt.nargs ? find_keyspace(opt.args[0]) : NULL;
    const tokenring_ring *rg = need_ring();
    tokenring_placement *p = r ? build_placement(r) : NULL;
    tokenring_balance prim, eff;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = tokenring_balance_compute(&prim, p ? &eff : NULL, rg, p, opt.dc, opt.rack, &err);
    if (rc != TOKENRING_OK)
        fail_lib(rc, &err, "balance");
    if (opt.json) {
        sb_puts(&out, "{\"primary\": ");
        balance_line("primary", &prim);
        if (p) {
            sb_puts(&out, ", \"effective\": ");
            balance_line("effective", &eff);
        }
        sb_puts(&out, "}\n");
    } else {
        sb_printf(&out, "Ownership balance over %u nodes%s%s%s%s%s%s\n\n", (unsigned)prim.node_count,
                  opt.dc ? " of datacenter " : "", opt.dc ? opt.dc : "",
                  opt.rack ? ", rack " : "", opt.rack ? opt.rack : "",
                  r ? ", keyspace " : "", r ? opt.args[0] : "");
        sb_printf(&out, "%-10s %-10s %-10s %-10s %-10s %-8s  %s\n", "Ownership", "Min", "Max",
                  "Mean", "Stdev", "Max/Mean", "Min node / Max node");
        balance_line("primary", &prim);
        if (p)
            balance_line("effective", &eff);
    }
    tokenring_placement_free(p);
}

/* Rack names for n new nodes: --racks "2,2,2" (nodes per rack, Cassandra's
 * generatetokens) gives rack1..rackN filled round-robin; default one rack "rack1". */
static char **rack_plan(size_t n, size_t *nracks_out)
{
    size_t nr = 1;
    long counts[256] = { (long)n };
    if (opt.racks) {
        char **v = split_list(opt.racks, &nr);
        long sum = 0;
        if (nr > 256)
            die(EXIT_USAGE, "--racks: at most 256 racks");
        for (size_t i = 0; i < nr; i++) {
            char *end;
            counts[i] = strtol(v[i], &end, 10);
            if (!*v[i] || *end || counts[i] < 1)
                die(EXIT_USAGE, "--racks: expected node counts per rack such as 2,2,2");
            sum += counts[i];
        }
        free(v[0]);
        free(v);
        if ((size_t)sum != n)
            die(EXIT_USAGE, "--racks: the counts add up to %ld, not to the %zu nodes", sum, n);
    }
    char **racks = calloc(n + 1, sizeof *racks);
    if (!racks)
        die(EXIT_INTERNAL, "out of memory");
    for (size_t k = 0, i = 0; k < n; i = (i + 1) % nr) {
        if (counts[i] == 0)
            continue;
        counts[i]--;
        char name[32];
        snprintf(name, sizeof name, "rack%zu", i + 1);
        racks[k++] = strdup(name);
    }
    *nracks_out = nr;
    return racks;
}

/* generatetokens -n NODES --num-tokens T --rf RF [--racks 2,2,2] [--dc DC] */
static void cmd_generatetokens(void)
{
    check_args(0, 0, "--nodes N --num-tokens T --rf RF [--racks 2,2,2] [--dc DC]");
    if (opt.nodes < 1 || opt.num_tokens < 1 || opt.rf < 1)
        die(EXIT_USAGE, "generatetokens needs --nodes N, --num-tokens T and --rf RF (each at "
                        "least 1)");
    size_t n = (size_t)opt.nodes, nr;
    char **racks = rack_plan(n, &nr);
    tokenring_topology *empty = NULL;
    const tokenring_topology *t = NULL;
    if (demo) {
        if (tokenring_topology_new(&empty) != TOKENRING_OK)
            die(EXIT_INTERNAL, "out of memory");
        t = empty;
    } else {
        t = need_topology();
    }
    const char *dc = opt.dc ? opt.dc : demo ? "datacenter1" : only_dc();
    if (!dc)
        die(EXIT_USAGE, "generatetokens: the cluster has several datacenters: give --dc");
    int64_t *tokens = calloc(n * (size_t)opt.num_tokens, sizeof *tokens);
    if (!tokens)
        die(EXIT_INTERNAL, "out of memory");
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc;
    if (opt.node_by_node) {
        /* node by node, so that progress can be shown: each node against the cluster
         * plus the nodes planned before it */
        tokenring_topology *work = NULL;
        rc = tokenring_topology_clone(&work, t);
        for (size_t i = 0; i < n && rc == TOKENRING_OK; i++) {
            progress("generatetokens", i, n);
            int64_t *mine = tokens + i * (size_t)opt.num_tokens;
            rc = tokenring_allocate_tokens(mine, (uint32_t)opt.num_tokens, work, dc, racks[i],
                                           (int32_t)opt.rf, 0, &err);
            char name[64];
            snprintf(name, sizeof name, "planned-node-%zu", i);
            if (rc == TOKENRING_OK)
                rc = tokenring_topology_add_node(work, name, dc, racks[i], mine,
                                                 (size_t)opt.num_tokens, &err);
        }
        progress("generatetokens", n, n);
        tokenring_topology_free(work);
    } else {
        if (progress_on)
            fprintf(stderr, "planning %zu nodes...", n);
        rc = tokenring_allocate_nodes(tokens, (uint32_t)opt.num_tokens, t, dc,
                                      (const char *const *)racks, n, (int32_t)opt.rf, 0, &err);
        if (progress_on)
            fputs("\r\033[K", stderr);
    }
    if (rc != TOKENRING_OK)
        fail_lib(rc, &err, "generatetokens");
    if (opt.json) {
        sb_puts(&out, "{\"datacenter\": ");
        sb_json_str(&out, dc);
        sb_puts(&out, ", \"nodes\": [");
    } else {
        sb_printf(&out, "Generating tokens for %zu nodes with %ld vnodes each for replication "
                        "factor %ld and partitioner Murmur3Partitioner (datacenter %s%s)\n",
                  n, opt.num_tokens, opt.rf, dc, demo ? ", empty cluster" : "");
    }
    for (size_t i = 0; i < n; i++) {
        const int64_t *mine = tokens + i * (size_t)opt.num_tokens;
        if (opt.json) {
            sb_puts(&out, i ? ",\n " : "\n ");
            sb_puts(&out, "{\"rack\": ");
            sb_json_str(&out, racks[i]);
            sb_puts(&out, ", \"tokens\": [");
        } else {
            sb_printf(&out, "Node %zu rack %s: [", i, racks[i]);
        }
        for (long j = 0; j < opt.num_tokens; j++)
            sb_printf(&out, opt.json ? "%s\"%lld\"" : "%s%lld", j ? ", " : "",
                      (long long)mine[j]);
        sb_puts(&out, opt.json ? "]}" : "]\n");
    }
    if (opt.json)
        sb_puts(&out, "]}\n");
    for (size_t i = 0; i < n; i++)
        free(racks[i]);
    free(racks);
    free(tokens);
    tokenring_topology_free(empty);
}

/* migrate-num-tokens --dc OLD --new-dc NEW --num-tokens T --nodes N --rf RF [--racks ...]
 *                    [--names a,b,...] */
static void cmd_migrate(void)
{
    check_args(0, 0, "--dc OLD --new-dc NEW --num-tokens T --nodes N --rf RF");
    if (!opt.new_dc || opt.nodes < 1 || opt.num_tokens < 1 || opt.rf < 1)
        die(EXIT_USAGE, "migrate-num-tokens needs --new-dc NAME, --nodes N, --num-tokens T "
                        "and --rf RF");
    const tokenring_topology *t = need_topology();
    const char *old = opt.dc ? opt.dc : only_dc();
    if (!old)
        die(EXIT_USAGE, "migrate-num-tokens: the cluster has several datacenters: give --dc");
    size_t n = (size_t)opt.nodes, nr, nn = 0;
    char **racks = rack_plan(n, &nr);
    char **names = NULL;
    if (opt.names) {
        names = split_list(opt.names, &nn);
        if (nn != n)
            die(EXIT_USAGE, "--names: %zu names for %zu nodes", nn, n);
    } else {
        names = calloc(n + 1, sizeof *names);
        if (!names)
            die(EXIT_INTERNAL, "out of memory");
        for (size_t i = 0; i < n; i++) {
            char b[300];
            snprintf(b, sizeof b, "%s-node%zu", opt.new_dc, i + 1);
            names[i] = strdup(b);
        }
    }
    size_t nk = tokenring_cluster_keyspace_count(cluster);
    const char **ks = calloc(nk + 1, sizeof *ks);
    const tokenring_replication **rs = calloc(nk + 1, sizeof *rs);
    if (!ks || !rs)
        die(EXIT_INTERNAL, "out of memory");
    for (size_t i = 0; i < nk; i++)
        tokenring_cluster_keyspace(&ks[i], &rs[i], cluster, i);
    tokenring_migration *m = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    if (progress_on)
        fprintf(stderr, "planning %zu nodes...", n);
    int rc = tokenring_migration_plan(&m, t, old, opt.new_dc, (const char *const *)names,
                                      (const char *const *)racks, n, (uint32_t)opt.num_tokens,
                                      (int32_t)opt.rf, ks, rs, nk, &err);
    if (progress_on)
        fputs("\r\033[K", stderr);
    if (rc != TOKENRING_OK)
        fail_lib(rc, &err, "migrate-num-tokens");
    size_t cnt = tokenring_migration_node_count(m);
    if (opt.json) {
        sb_puts(&out, "{\"nodes\": [");
    } else {
        sb_printf(&out, "Migration of datacenter %s to %s with num_tokens %ld (%zu nodes)\n\n"
                        "New nodes (initial_token):\n",
                  old, opt.new_dc, opt.num_tokens, cnt);
    }
    for (size_t i = 0; i < cnt; i++) {
        const char *name, *rack;
        const int64_t *toks;
        size_t tc;
        tokenring_migration_node(&name, &rack, &toks, &tc, m, i);
        if (opt.json) {
            sb_puts(&out, i ? ",\n " : "\n ");
            sb_puts(&out, "{\"name\": ");
            sb_json_str(&out, name);
            sb_puts(&out, ", \"rack\": ");
            sb_json_str(&out, rack);
            sb_puts(&out, ", \"tokens\": [");
        } else {
            sb_printf(&out, "  %s (rack %s): ", name, rack);
        }
        for (size_t j = 0; j < tc; j++)
            sb_printf(&out, opt.json ? "%s\"%lld\"" : "%s%lld", j ? (opt.json ? ", " : ",") : "",
                      (long long)toks[j]);
        sb_puts(&out, opt.json ? "]}" : "\n");
    }
    size_t steps = tokenring_migration_step_count(m);
    if (opt.json)
        sb_puts(&out, "],\n \"steps\": [");
    else
        sb_puts(&out, "\nSteps:\n");
    for (size_t i = 0; i < steps; i++) {
        if (opt.json) {
            sb_puts(&out, i ? ",\n  " : "\n  ");
            sb_json_str(&out, tokenring_migration_step(m, i));
        } else {
            sb_printf(&out, "%3zu. %s\n", i + 1, tokenring_migration_step(m, i));
        }
    }
    if (opt.json)
        sb_puts(&out, "]}\n");
    tokenring_migration_free(m);
    free(ks);
    free(rs);
    for (size_t i = 0; i < n; i++)
        free(racks[i]);
    free(racks);
    if (opt.names) {
        free(names[0]);
    } else {
        for (size_t i = 0; i < n; i++)
            free(names[i]);
    }
    free(names);
}

/* ------------------------------------------------------------------- help */

struct command {
    const char *name, *args, *summary, *details, *example;
    void (*fn)(void);
};

static const struct command commands[] = {
    { "token", "[KEY...]", "print the Murmur3 token of each key (and its owner)",
      "Keys come from the arguments, or from standard input one per line when none is "
      "given. A key is text (its UTF-8 bytes) unless --hex (hex bytes) or --types (the "
      "string form nodetool getendpoints accepts, components of a composite key separated "
      "by ':') is given. With a ring, the owner is the node of the first token at or after "
      "the key's token.",
      "tokenring token --types int,text '42:alice'", cmd_token },
    { "getendpoints", "KEYSPACE KEY...", "print the replicas of a key, as nodetool getendpoints",
      "One address per line in Cassandra's replica order (pending nodes excluded). Key "
      "types: text by default, --types for the partition key's CQL types, --hex for raw "
      "bytes, --token when the arguments are tokens. With several keys each list is "
      "preceded by a '# KEY (token T)' line.",
      "tokenring --topology cluster.topo getendpoints shop --types uuid "
      "f47ac10b-58cc-4372-a567-0e02b2c3d479", cmd_getendpoints },
    { "ring", "[KEYSPACE]", "print the ring, as nodetool ring",
      "One row per token (joining nodes included), grouped by datacenter, in nodetool's "
      "column layout. Owns is the node's effective ownership for KEYSPACE; without one, "
      "that of the input's keyspaces if they all share one replication ('?' and a Note "
      "when they differ), or primary ownership when the input defines no keyspace. The "
      "tool knows no load, so Load is '?'.",
      "tokenring --nodetool-ring ring.txt ring shop", cmd_ring },
    { "describering", "KEYSPACE", "print every range with its replicas, as nodetool describering",
      "Ranges are printed in ring order (range (t_last, t_0] first). Cassandra prints them "
      "in the iteration order of a Java hash map, so compare sets of lines, not the order. "
      "Schema Version is 'unknown' and rpc_endpoints repeat the endpoints.",
      "tokenring --cqlsh peers.txt --cqlsh local.txt --keyspace "
      "ks=NetworkTopologyStrategy:dc1=3 describering ks", cmd_describering },
    { "status", "[KEYSPACE]", "print nodes with token counts and ownership, as nodetool status",
      "The 4.0+ layout: columns padded to the widest cell across all datacenters; nodes "
      "in input order (nodetool prints them in hash-map order). Owns "
      "(effective) for KEYSPACE, chosen as for ring. Works on nodetool status input too "
      "(then ownership is '?'). Load is '?'; Host ID is '?' unless the input had one.",
      "tokenring --nodetool-status status.txt status", cmd_status },
    { "convert", "", "write the input as a topology file",
      "Reads any input (or several, merged) and writes the topology file format "
      "(doc/topology-format.md); with --json, a JSON document with the same content "
      "(tokens as strings).",
      "tokenring --nodetool-ring ring.txt convert > cluster.topo", cmd_convert },
    { "generatetokens", "--nodes N --num-tokens T --rf RF [--racks 2,2,2] [--dc DC]",
      "choose tokens for new nodes with the replication-aware allocator",
      "Plans N nodes of T tokens each joining datacenter DC (default: the input's only "
      "datacenter; with no input, an empty cluster, like Cassandra's generatetokens tool) "
      "so that effective ownership under replication factor RF is as even as possible. "
      "--racks gives the number of nodes per rack (racks rack1, rack2, ... filled "
      "round-robin). The batch is refined jointly unless --node-by-node is given (then a "
      "progress bar shows on a terminal). Prints one line per node, in join order.",
      "tokenring generatetokens --nodes 6 --num-tokens 16 --rf 3 --racks 2,2,2", cmd_generatetokens },
    { "join", "KEYSPACE NODE [--dc DC] [--rack RACK] [--num-tokens T | --initial-token LIST]",
      "simulate a node joining: ownership changes and streaming plan",
      "The node joins with the given tokens, or T (default 16) tokens from the allocator. "
      "Prints which ranges change, each node's effective ownership before and after, what "
      "it gains and loses (cleanup), and the streams Cassandra's bootstrap would run (the "
      "replica losing a range streams it: strict).",
      "tokenring join demo 10.0.0.7 --num-tokens 8", cmd_join },
    { "decommission", "KEYSPACE NODE", "simulate a node leaving: ownership changes and streams",
      "As join, for `nodetool decommission`: the leaving node streams its ranges to the "
      "nodes that gain them.",
      "tokenring decommission demo 10.0.0.3", cmd_decommission },
    { "replace", "KEYSPACE DEAD NEW", "simulate replacing a dead node (replace_address)",
      "NEW takes DEAD's tokens, datacenter and rack; every range it gains streams from "
      "another replica of it (the dead node cannot send).",
      "tokenring replace demo 10.0.0.3 10.0.0.9", cmd_replace },
    { "move", "KEYSPACE NODE --initial-token LIST",
      "simulate nodetool move: a node takes new tokens",
      "As join, for a node that moves to the tokens of --initial-token.",
      "tokenring move demo 10.0.0.2 --initial-token 0", cmd_move },
    { "availability", "KEYSPACE [--cl LEVEL] [--local-dc DC] [--failures K]",
      "list the sets of failed nodes that make ranges unavailable at a consistency level",
      "For k = 1 .. K (default 3, at most the node count) failed nodes, every set of k "
      "nodes whose loss leaves some range without enough live replicas for LEVEL (default "
      "QUORUM; ONE, TWO, THREE, QUORUM, ALL, LOCAL_ONE, LOCAL_QUORUM, EACH_QUORUM), with "
      "the share of the token space it makes unavailable. A progress bar shows on a "
      "terminal.",
      "tokenring availability demo --cl QUORUM --failures 2", cmd_availability },
    { "balance", "[KEYSPACE] [--dc DC [--rack RACK]]",
      "ownership balance: min, max, mean, standard deviation",
      "Primary ownership, and effective ownership for KEYSPACE, over the ring's nodes or "
      "those of one datacenter or rack, from the library's exact widths.",
      "tokenring balance demo", cmd_balance },
    { "migrate-num-tokens", "--dc OLD --new-dc NEW --num-tokens T --nodes N --rf RF",
      "plan moving a datacenter to a new num_tokens through a new datacenter",
      "Tokens for the N nodes of the new datacenter (racks from --racks, names from "
      "--names or NEW-node1, ...) and the steps: start them without bootstrap, add NEW to "
      "each keyspace, rebuild, switch clients, drop OLD, decommission its nodes.",
      "tokenring migrate-num-tokens --new-dc dc2 --num-tokens 16 --nodes 6 --rf 3 "
      "--racks 2,2,2", cmd_migrate },
    { "demo", "[KEY...]", "show a key's token, owner and replicas on the demo ring",
      "The built-in demo ring: six nodes with eight seeded tokens each (layout seed 1), "
      "one datacenter 'datacenter1', keyspace 'demo' with NetworkTopologyStrategy "
      "datacenter1=3. The default key is 'user42'.",
      "tokenring demo user42", cmd_demo },
};

#define NCOMMANDS (sizeof commands / sizeof *commands)

static const struct {
    const char *flag, *arg, *help;
} options[] = {
    { "--topology", "FILE", "read a topology file (or golden-vector TSV); '-' is stdin" },
    { "--nodetool-ring", "FILE", "read `nodetool ring` output" },
    { "--nodetool-status", "FILE",
      "read `nodetool status` output (no tokens: only status and convert work)" },
    { "--cqlsh", "FILE", "read cqlsh output of SELECT peer, data_center, rack, tokens FROM "
                         "system.peers_v2 (or system.local); repeat for several files" },
    { "--input", "FILE", "read a file of any of these formats (detected)" },
    { "--keyspace", "NAME=REPL",
      "define a keyspace, REPL as in the topology file (e.g. NetworkTopologyStrategy:dc1=3, "
      "SimpleStrategy:2, or a CQL replication map)" },
    { "--allow-partial", NULL,
      "accept elided or cut-short listings (results then cover only the tokens shown)" },
    { "--json", NULL, "print JSON instead of tables (tokens as strings)" },
    { "--hex", NULL, "keys are hex bytes" },
    { "--types", "T1,T2", "keys are CQL values of these partition-key types" },
    { "--token", NULL, "keys are tokens" },
    { "--dc", "DC", "datacenter (join, generatetokens, balance; the old one for "
                    "migrate-num-tokens)" },
    { "--rack", "RACK", "rack (join, balance)" },
    { "--new-dc", "DC", "the new datacenter (migrate-num-tokens)" },
    { "--num-tokens", "T", "tokens per node (join, generatetokens, migrate-num-tokens)" },
    { "--initial-token", "T1,T2", "the joining or moving node's tokens (join, move)" },
    { "--nodes", "N", "number of new nodes (generatetokens, migrate-num-tokens)" },
    { "--rf", "RF", "replication factor to plan for (generatetokens, migrate-num-tokens)" },
    { "--racks", "N1,N2", "new nodes per rack, racks named rack1, rack2, ..." },
    { "--names", "A,B", "names of the new nodes (migrate-num-tokens)" },
    { "--node-by-node", NULL, "plan new nodes one at a time (generatetokens)" },
    { "--cl", "LEVEL", "consistency level (availability; default QUORUM)" },
    { "--local-dc", "DC", "local datacenter for LOCAL_ONE and LOCAL_QUORUM" },
    { "--failures", "K", "largest number of failed nodes to try (availability; 1..3)" },
    { "--help", NULL, "print this help" },
    { "--man", NULL, "print the manual page (roff)" },
    { "--version", NULL, "print the version" },
};

#define NOPTIONS (sizeof options / sizeof *options)

static const char *DESCRIPTION =
    "tokenring answers nodetool's questions about a Cassandra token ring offline, with "
    "Cassandra's exact arithmetic (Murmur3Partitioner tokens, SimpleStrategy and "
    "NetworkTopologyStrategy replica order, nodetool's ownership figures). The cluster "
    "comes from a topology file, `nodetool ring` or `nodetool status` output, or cqlsh "
    "output of the system tables; several inputs are merged. With no input it uses a "
    "built-in demo ring. Options may appear before or after the command; negative "
    "numbers are arguments, and '--' ends the options (for keys that start with '-').";

static const char *EXIT_TEXT =
    "0 success; 1 internal error (e.g. out of memory); 2 bad usage (unknown command or "
    "option, malformed key argument, unknown keyspace); 3 bad input (a file that cannot be "
    "read or parsed, with FILE:LINE:COLUMN, or an input lacking what the command needs). "
    "Nothing is printed on standard output unless the command succeeds.";

static void print_help(void)
{
    strbuf b = { 0 };
    sb_printf(&b, "Usage: tokenring [OPTIONS] COMMAND [ARGS]\n\n%s\n\nCommands:\n", DESCRIPTION);
    for (size_t i = 0; i < NCOMMANDS; i++) {
        char head[80];
        snprintf(head, sizeof head, "%s %s", commands[i].name, commands[i].args);
        sb_printf(&b, "  %-28s %s\n", head, commands[i].summary);
        sb_printf(&b, "      %s\n      example: %s\n", commands[i].details,
                  commands[i].example);
    }
    sb_puts(&b, "\nOptions:\n");
    for (size_t i = 0; i < NOPTIONS; i++) {
        char head[80];
        snprintf(head, sizeof head, "%s%s%s", options[i].flag, options[i].arg ? " " : "",
                 options[i].arg ? options[i].arg : "");
        sb_printf(&b, "  %-28s %s\n", head, options[i].help);
    }
    sb_printf(&b, "\nExit status: %s\n", EXIT_TEXT);
    fputs(b.p, stdout);
    free(b.p);
}

static void roff(strbuf *b, const char *s)
{
    if (*s == '.' || *s == '\'')
        sb_puts(b, "\\&");
    for (; *s; s++) {
        if (*s == '\\')
            sb_puts(b, "\\e");
        else if (*s == '-')
            sb_puts(b, "\\-");
        else
            sb_put(b, s, 1);
    }
}

static void print_man(void)
{
    strbuf b = { 0 };
    sb_printf(&b, ".TH TOKENRING 1 \"\" \"libtokenring %s\" \"User Commands\"\n",
              tokenring_version_string());
    sb_puts(&b, ".SH NAME\ntokenring \\- nodetool\\-style answers about a Cassandra token "
                "ring\n.SH SYNOPSIS\n.B tokenring\n[\\fIOPTIONS\\fR] \\fICOMMAND\\fR "
                "[\\fIARGS\\fR]\n.SH DESCRIPTION\n");
    roff(&b, DESCRIPTION);
    sb_puts(&b, "\n.SH COMMANDS\n");
    for (size_t i = 0; i < NCOMMANDS; i++) {
        sb_printf(&b, ".TP\n.B %s", commands[i].name);
        if (*commands[i].args) {
            sb_puts(&b, " \\fR");
            roff(&b, commands[i].args);
        }
        sb_puts(&b, "\n");
        roff(&b, commands[i].summary);
        sb_puts(&b, ". ");
        roff(&b, commands[i].details);
        sb_puts(&b, "\n.RS\n.PP\nExample:\n.nf\n");
        roff(&b, commands[i].example);
        sb_puts(&b, "\n.fi\n.RE\n");
    }
    sb_puts(&b, ".SH OPTIONS\n");
    for (size_t i = 0; i < NOPTIONS; i++) {
        sb_puts(&b, ".TP\n.B ");
        roff(&b, options[i].flag);
        if (options[i].arg) {
            sb_puts(&b, " \\fI");
            roff(&b, options[i].arg);
            sb_puts(&b, "\\fR");
        }
        sb_puts(&b, "\n");
        roff(&b, options[i].help);
        sb_puts(&b, "\n");
    }
    sb_puts(&b, ".SH EXIT STATUS\n");
    roff(&b, EXIT_TEXT);
    sb_puts(&b, "\n.SH SEE ALSO\nThe topology file format: doc/topology\\-format.md in the "
                "libtokenring sources.\n");
    fputs(b.p, stdout);
    free(b.p);
}

/* ------------------------------------------------------------------- main */

static void parse_args(int argc, char **argv)
{
    char **positional = calloc((size_t)argc + 1, sizeof *positional);
    size_t np = 0;
    if (!positional)
        die(EXIT_INTERNAL, "out of memory");
    bool dashdash = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        /* "-" is stdin; "-42" is a negative number (a token or an int key), not an
         * option */
        if (dashdash || a[0] != '-' || strcmp(a, "-") == 0 || (a[1] >= '0' && a[1] <= '9')) {
            positional[np++] = argv[i];
            continue;
        }
        if (strcmp(a, "--") == 0) {
            dashdash = true;
            continue;
        }
        const char *val = NULL;
        char flag[64];
        const char *eq = strchr(a, '=');
        if (eq && (size_t)(eq - a) < sizeof flag && a[1] == '-') {
            memcpy(flag, a, (size_t)(eq - a));
            flag[eq - a] = '\0';
            val = eq + 1;
        } else {
            snprintf(flag, sizeof flag, "%s", a);
        }
        size_t k;
        for (k = 0; k < NOPTIONS; k++)
            if (strcmp(flag, options[k].flag) == 0)
                break;
        if (strcmp(flag, "-h") == 0)
            for (k = 0; k < NOPTIONS; k++)
                if (strcmp(options[k].flag, "--help") == 0)
                    break;
        if (k == NOPTIONS)
            die(EXIT_USAGE, "unknown option '%s' (see tokenring --help)", a);
        if (options[k].arg && !val) {
            if (i + 1 >= argc)
                die(EXIT_USAGE, "option %s needs an argument %s", flag, options[k].arg);
            val = argv[++i];
        } else if (!options[k].arg && val) {
            die(EXIT_USAGE, "option %s takes no argument", flag);
        }
        const char *f = options[k].flag;
        enum in_kind kind = IN_AUTO;
        if (strcmp(f, "--topology") == 0 || strcmp(f, "--nodetool-ring") == 0 ||
            strcmp(f, "--nodetool-status") == 0 || strcmp(f, "--cqlsh") == 0 ||
            strcmp(f, "--input") == 0) {
            kind = f[2] == 't' ? IN_TOPOLOGY
                   : strcmp(f, "--nodetool-ring") == 0 ? IN_RING
                   : strcmp(f, "--nodetool-status") == 0 ? IN_STATUS
                   : f[2] == 'c' ? IN_CQLSH
                                 : IN_AUTO;
            if (opt.ninputs == 64)
                die(EXIT_USAGE, "too many inputs");
            opt.inputs[opt.ninputs++] = (struct input){ kind, val };
        } else if (strcmp(f, "--keyspace") == 0) {
            if (opt.nks_defs == 64)
                die(EXIT_USAGE, "too many --keyspace options");
            opt.ks_defs[opt.nks_defs++] = val;
        } else if (strcmp(f, "--allow-partial") == 0) {
            opt.allow_partial = true;
        } else if (strcmp(f, "--json") == 0) {
            opt.json = true;
        } else if (strcmp(f, "--hex") == 0) {
            opt.hex = true;
        } else if (strcmp(f, "--types") == 0) {
            opt.types = val;
        } else if (strcmp(f, "--token") == 0) {
            opt.token_mode = true;
        } else if (strcmp(f, "--dc") == 0) {
            opt.dc = val;
        } else if (strcmp(f, "--rack") == 0) {
            opt.rack = val;
        } else if (strcmp(f, "--new-dc") == 0) {
            opt.new_dc = val;
        } else if (strcmp(f, "--initial-token") == 0) {
            opt.initial_token = val;
        } else if (strcmp(f, "--racks") == 0) {
            opt.racks = val;
        } else if (strcmp(f, "--names") == 0) {
            opt.names = val;
        } else if (strcmp(f, "--cl") == 0) {
            opt.cl = val;
        } else if (strcmp(f, "--local-dc") == 0) {
            opt.local_dc = val;
        } else if (strcmp(f, "--node-by-node") == 0) {
            opt.node_by_node = true;
        } else if (strcmp(f, "--num-tokens") == 0 || strcmp(f, "--nodes") == 0 ||
                   strcmp(f, "--rf") == 0 || strcmp(f, "--failures") == 0) {
            char *end;
            errno = 0;
            long v = strtol(val, &end, 10);
            if (!*val || *end || errno || v < 1 || v > 65536)
                die(EXIT_USAGE, "option %s: expected a number from 1 to 65536, found '%s'", f,
                    val);
            if (f[2] == 'n' && f[3] == 'u')
                opt.num_tokens = v;
            else if (f[2] == 'n')
                opt.nodes = v;
            else if (f[2] == 'r')
                opt.rf = v;
            else
                opt.failures = v;
        } else if (strcmp(f, "--help") == 0) {
            print_help();
            free(positional);
            exit(EXIT_OK);
        } else if (strcmp(f, "--man") == 0) {
            print_man();
            free(positional);
            exit(EXIT_OK);
        } else if (strcmp(f, "--version") == 0) {
            printf("tokenring (libtokenring) %s\n", tokenring_version_string());
            free(positional);
            exit(EXIT_OK);
        }
    }
    if ((opt.hex ? 1 : 0) + (opt.types ? 1 : 0) + (opt.token_mode ? 1 : 0) > 1)
        die(EXIT_USAGE, "--hex, --types and --token exclude each other");
    if (np == 0)
        die(EXIT_USAGE, "no command given (see tokenring --help)");
    opt.positional = positional;
    opt.cmd = positional[0];
    opt.args = positional + 1;
    opt.nargs = np - 1;
}

int main(int argc, char **argv)
{
    parse_args(argc, argv);
    const struct command *cmd = NULL;
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, opt.cmd) == 0)
            cmd = &commands[i];
    if (!cmd)
        die(EXIT_USAGE, "unknown command '%s' (see tokenring --help)", opt.cmd);
    progress_on = isatty(STDERR_FILENO) == 1;
    load_cluster();
    cmd->fn();
    tokenring_ring_free(ring);
    tokenring_cluster_free(cluster);
    free(opt.positional);
    flush_and_exit();
}
