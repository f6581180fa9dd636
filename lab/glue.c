/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The token ring lab's glue: a few entry points for the browser page (compiled to
 * WebAssembly together with lib/) and for the native checker (lab/native_check.c).
 *
 * Every number comes from the public libtokenring API. This file only keeps the lab's
 * current topology, calls the library, and formats the answers as JSON text (exact
 * integers as decimal strings). It never hashes, searches or places anything itself.
 *
 * Conventions: each lab_* function that answers returns a pointer to a NUL-terminated
 * JSON document in one shared output buffer, valid until the next lab_* call. Errors are
 * answered as {"ok":false,"code":"TOKENRING_E_...","message":"..."}.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"

#include "tokenring/analysis.h"
#include "tokenring/layout.h"

#include "glue.h"

#if defined(__wasm__)
#  define LAB_EXPORT(name) __attribute__((export_name(name), used))
#else
#  define LAB_EXPORT(name)
#endif

/* ------------------------------------------------------------------ output text */

static char *out_buf;
static size_t out_len, out_cap;
static int out_failed;

static void out_reset(void)
{
    out_len = 0;
    out_failed = 0;
    if (out_buf)
        out_buf[0] = '\0';
}

static void out_raw(const char *s, size_t n)
{
    if (out_failed)
        return;
    if (out_len + n + 1 > out_cap) {
        size_t cap = out_cap ? out_cap : 4096;
        while (cap < out_len + n + 1)
            cap *= 2;
        char *p = realloc(out_buf, cap);
        if (!p) {
            out_failed = 1;
            return;
        }
        out_buf = p;
        out_cap = cap;
    }
    memcpy(out_buf + out_len, s, n);
    out_len += n;
    out_buf[out_len] = '\0';
}

static void out_s(const char *s)
{
    out_raw(s, strlen(s));
}

__attribute__((format(printf, 1, 2))) static void out_f(const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    out_raw(tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* A JSON string literal. */
static void out_str(const char *s)
{
    out_raw("\"", 1);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\') {
            char esc[2] = {'\\', (char)*p};
            out_raw(esc, 2);
        } else if (*p < 0x20) {
            out_f("\\u%04x", *p);
        } else {
            out_raw((const char *)p, 1);
        }
    }
    out_raw("\"", 1);
}

/* An exact signed 64-bit value as a JSON string ("-9223372036854775808"). */
static void out_i64(int64_t v)
{
    out_f("\"%lld\"", (long long)v);
}

static void out_hex(const uint8_t *b, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    out_raw("\"", 1);
    for (size_t i = 0; i < n; i++) {
        char h[2] = {digits[b[i] >> 4], digits[b[i] & 15]};
        out_raw(h, 2);
    }
    out_raw("\"", 1);
}

static unsigned __int128 u128_of(tokenring_u128 v)
{
    return ((unsigned __int128)v.hi << 64) | v.lo;
}

/* Decimal text of an unsigned 128-bit value (formatting only). */
static void u128_text(char out[48], unsigned __int128 v)
{
    char tmp[48];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    for (size_t i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    out[n] = '\0';
}

static void out_u128(tokenring_u128 v)
{
    char t[48];
    u128_text(t, u128_of(v));
    out_raw("\"", 1);
    out_s(t);
    out_raw("\"", 1);
}

/* A width as a percentage of the whole ring (2^64 values), rounded to six decimals with
 * integer arithmetic, e.g. "16.666667". Display only: the width itself is exact. */
static void out_pct(tokenring_u128 width)
{
    unsigned __int128 q = u128_of(width) * (unsigned __int128)100000000u;
    q = (q + ((unsigned __int128)1 << 63)) >> 64; /* round half up to 1e-6 % */
    char whole[48];
    u128_text(whole, q / 1000000u);
    out_f("\"%s.%06u\"", whole, (unsigned)(q % 1000000u));
}

static const char *out_error(int code, const tokenring_error *err, const char *what)
{
    out_reset();
    out_s("{\"ok\":false,\"code\":");
    out_str(tokenring_status_name((tokenring_status)code));
    out_s(",\"message\":");
    char msg[400];
    const char *detail = err && err->message[0] ? err->message
                                                : tokenring_strerror((tokenring_status)code);
    snprintf(msg, sizeof msg, "%s%s%s", what ? what : "", what ? ": " : "", detail);
    out_str(msg);
    if (err && err->column)
        out_f(",\"column\":%u", (unsigned)err->column);
    out_s("}");
    return out_buf;
}

/* ------------------------------------------------------------------ state */

typedef struct lab_config {
    int nodes;        /* physical nodes */
    int vnodes;       /* tokens per node */
    uint32_t seed;    /* layout seed */
    int dcs;          /* datacenters, 1..LAB_MAX_DCS */
    int racks;        /* racks per datacenter, 1..LAB_MAX_RACKS */
    int layout;       /* LAB_LAYOUT_* */
} lab_config;

typedef struct lab_state {
    lab_config cfg;
    tokenring_topology *topo;
    tokenring_ring *ring;
    tokenring_replication *repl;
    tokenring_placement *place;
    char repl_text[256];
} lab_state;

static lab_state cur;

static void state_clear(lab_state *s)
{
    tokenring_placement_free(s->place);
    tokenring_replication_free(s->repl);
    tokenring_ring_free(s->ring);
    tokenring_topology_free(s->topo);
    memset(s, 0, sizeof *s);
}

void lab_node_name(char out[32], int node)
{
    snprintf(out, 32, "n%d", node + 1);
}

static void dc_name(char out[16], int dc)
{
    snprintf(out, 16, "dc%d", dc + 1);
}

/* Datacenter and rack index of each node of a generated layout, in join order, by the
 * library's rule (tokenring_layout_assign_racks: round-robin over datacenters, then over
 * each datacenter's racks), the one `tokenring generatetokens --racks` uses. Filled by
 * places_compute() for the layout being built. */
static uint32_t place_dc[LAB_MAX_NODES + 1], place_rack[LAB_MAX_NODES + 1];

static int places_compute(const lab_config *cfg, int count, tokenring_error *err)
{
    if (count < 0 || count > LAB_MAX_NODES + 1)
        return TOKENRING_E_RANGE;
    return tokenring_layout_assign_racks(place_dc, place_rack, (size_t)count,
                                         (uint32_t)cfg->dcs, (uint32_t)cfg->racks, NULL, err);
}

static const char *lab_layout_rule(void)
{
    return "vnode v of node n under seed s gets the Cassandra Murmur3 token of the bytes "
           "\"tokenring-layout-v1\" + s + the node's name + v "
           "(tokenring_layout_add_seeded_nodes), so a node's tokens depend only on (seed, "
           "name, vnode)";
}

/* Replication factor the allocator plans for in datacenter @p dc (at least 1): the
 * library's tokenring_replication_dc_factor(). */
static int32_t alloc_rf(const tokenring_replication *repl, const char *dc)
{
    int32_t rf = 0;
    (void)tokenring_replication_dc_factor(&rf, NULL, repl, dc);
    return rf < 1 ? 1 : rf;
}

/* Names of node @p node (places_compute() must cover it): n<i+1>, its datacenter, and its
 * rack as the library names it (tokenring_layout_rack_name). */
static void node_names(int node, char name[32], char dc[16], char rack[16])
{
    size_t len = 0;
    lab_node_name(name, node);
    dc_name(dc, (int)place_dc[node]);
    if (tokenring_layout_rack_name(rack, 16, &len, place_rack[node]) != TOKENRING_OK)
        rack[0] = '\0';
}

/* Adds nodes @p from .. @p to - 1 to @p t one after the other, as joins: seeded tokens, or
 * tokens the library's allocator chooses against the ring as it stands. Node i is named
 * n<i+1>, in datacenter dc<(i mod dcs)+1> and the rack tokenring_layout_assign_racks gives
 * it (rack<((i div dcs) mod racks)+1>). */
static int topology_add_nodes(tokenring_topology *t, const lab_config *cfg,
                              const tokenring_replication *repl, int from, int to,
                              tokenring_error *err)
{
    if (to <= from)
        return TOKENRING_OK;
    int prc = places_compute(cfg, to, err);
    if (prc != TOKENRING_OK)
        return prc;
    if (cfg->layout != LAB_LAYOUT_ALLOCATOR) {
        /* Seeded: every new node in one library call (one pass over the ring's tokens,
         * rather than one per node). */
        size_t count = (size_t)(to - from);
        char (*buf)[3][32] = malloc(count * sizeof *buf);
        const char **names = malloc(3 * count * sizeof *names);
        if (!buf || !names) {
            free(buf);
            free(names);
            return TOKENRING_E_NOMEM;
        }
        for (size_t i = 0; i < count; i++) {
            node_names(from + (int)i, buf[i][0], buf[i][1], buf[i][2]);
            names[i] = buf[i][0];
            names[count + i] = buf[i][1];
            names[2 * count + i] = buf[i][2];
        }
        int rc = tokenring_layout_add_seeded_nodes(t, cfg->seed, (uint32_t)cfg->vnodes, names,
                                                   names + count, names + 2 * count, count, 0,
                                                   err);
        free(names);
        free(buf);
        return rc;
    }
    int rc = TOKENRING_OK;
    int64_t *mine = malloc((size_t)cfg->vnodes * sizeof *mine);
    if (!mine)
        return TOKENRING_E_NOMEM;
    for (int n = from; n < to && rc == TOKENRING_OK; n++) {
        char name[32], dc[16], rack[16];
        node_names(n, name, dc, rack);
        rc = tokenring_allocate_tokens(mine, (uint32_t)cfg->vnodes, t, dc, rack,
                                       alloc_rf(repl, dc), 0, err);
        if (rc == TOKENRING_OK)
            rc = tokenring_topology_add_node(t, name, dc, rack, mine, (size_t)cfg->vnodes, err);
    }
    free(mine);
    return rc;
}

/* The allocator layout of a new cluster: each datacenter's nodes planned together by the
 * library (tokenring_allocate_nodes), datacenter after datacenter, then added in name
 * order. */
static int topology_plan(tokenring_topology *t, const lab_config *cfg,
                         const tokenring_replication *repl, tokenring_error *err)
{
    size_t per = (size_t)cfg->vnodes;
    int64_t *tokens = malloc((size_t)cfg->nodes * per * sizeof *tokens);
    int64_t *plan = malloc((size_t)cfg->nodes * per * sizeof *plan);
    const char **racks = malloc((size_t)cfg->nodes * sizeof *racks);
    char (*rack_buf)[16] = malloc((size_t)cfg->nodes * sizeof *rack_buf);
    tokenring_topology *scratch = NULL;
    int rc = tokens && plan && racks && rack_buf ? places_compute(cfg, cfg->nodes, err)
                                                 : TOKENRING_E_NOMEM;
    if (rc == TOKENRING_OK)
        rc = tokenring_topology_new(&scratch);
    for (int d = 0; d < cfg->dcs && rc == TOKENRING_OK; d++) {
        char dc[16];
        dc_name(dc, d);
        size_t count = 0;
        for (int n = d; n < cfg->nodes; n += cfg->dcs) {
            char name[32], ndc[16];
            node_names(n, name, ndc, rack_buf[count]);
            racks[count] = rack_buf[count];
            count++;
        }
        if (count == 0)
            continue;
        rc = tokenring_allocate_nodes(plan, (uint32_t)cfg->vnodes, scratch, dc, racks, count,
                                      alloc_rf(repl, dc), 0, err);
        size_t k = 0;
        for (int n = d; n < cfg->nodes && rc == TOKENRING_OK; n += cfg->dcs, k++) {
            char name[32], ndc[16], rack[16];
            node_names(n, name, ndc, rack);
            memcpy(tokens + (size_t)n * per, plan + k * per, per * sizeof *plan);
            rc = tokenring_topology_add_node(scratch, name, dc, rack, plan + k * per, per, err);
        }
    }
    for (int n = 0; n < cfg->nodes && rc == TOKENRING_OK; n++) {
        char name[32], dc[16], rack[16];
        node_names(n, name, dc, rack);
        rc = tokenring_topology_add_node(t, name, dc, rack, tokens + (size_t)n * per, per, err);
    }
    tokenring_topology_free(scratch);
    free(rack_buf);
    free(racks);
    free(plan);
    free(tokens);
    return rc;
}

/* Builds topology, ring, replication and placement for (cfg, repl_text) into *s. With
 * @p base (a state of the same configuration with fewer nodes) the new nodes join the
 * base's topology; otherwise the cluster is laid out from nothing. */
static int state_build(lab_state *s, const lab_config *cfg, const char *repl_text,
                       const lab_state *base, tokenring_error *err, const char **what)
{
    lab_state n;
    memset(&n, 0, sizeof n);
    n.cfg = *cfg;
    snprintf(n.repl_text, sizeof n.repl_text, "%s", repl_text);
    *what = "replication";
    int rc = tokenring_replication_parse(&n.repl, repl_text, strlen(repl_text), err);
    if (rc == TOKENRING_OK) {
        *what = "topology";
        rc = base ? tokenring_topology_clone(&n.topo, base->topo) : tokenring_topology_new(&n.topo);
    }
    if (rc == TOKENRING_OK) {
        *what = "layout";
        if (!base && cfg->layout == LAB_LAYOUT_ALLOCATOR)
            rc = topology_plan(n.topo, cfg, n.repl, err);
        else
            rc = topology_add_nodes(n.topo, cfg, n.repl, base ? base->cfg.nodes : 0, cfg->nodes,
                                    err);
    }
    if (rc == TOKENRING_OK) {
        *what = "ring";
        rc = tokenring_ring_build(&n.ring, n.topo, err);
    }
    if (rc == TOKENRING_OK) {
        *what = "placement";
        rc = tokenring_placement_build(&n.place, n.ring, n.repl, 0, err);
    }
    if (rc != TOKENRING_OK) {
        state_clear(&n);
        return rc;
    }
    *s = n;
    return TOKENRING_OK;
}

/* Whether (cfg, repl_text) is the current state with nodes added: then they join it. */
static const lab_state *join_base(const lab_config *cfg, const char *repl_text)
{
    if (!cur.topo || cfg->nodes < cur.cfg.nodes || strcmp(repl_text, cur.repl_text) != 0)
        return NULL;
    const lab_config *c = &cur.cfg;
    int same = cfg->vnodes == c->vnodes && cfg->seed == c->seed && cfg->dcs == c->dcs &&
               cfg->racks == c->racks && cfg->layout == c->layout;
    return same ? &cur : NULL;
}

/* ------------------------------------------------------------------ exports */

LAB_EXPORT("lab_alloc") void *lab_alloc(size_t n)
{
    return malloc(n ? n : 1);
}

LAB_EXPORT("lab_free") void lab_free(void *p)
{
    free(p);
}

LAB_EXPORT("lab_info") const char *lab_info(void)
{
    out_reset();
    out_s("{\"ok\":true,\"version\":");
    out_str(tokenring_version_string());
    out_s(",\"seeded_layout\":true,\"allocator_layout\":true");
    out_s(",\"layout_rule\":");
    out_str(lab_layout_rule());
    out_f(",\"sample_keys\":%d,\"sample_key_format\":", LAB_SAMPLE_KEYS);
    out_str(LAB_SAMPLE_KEY_FORMAT);
    out_f(",\"limits\":{\"nodes\":%d,\"vnodes\":%d,\"tokens\":%d,\"allocator_tokens\":%d,"
          "\"dcs\":%d,\"racks\":%d}",
          LAB_MAX_NODES, LAB_MAX_VNODES, LAB_MAX_TOKENS, LAB_MAX_ALLOC_TOKENS, LAB_MAX_DCS,
          LAB_MAX_RACKS);
    out_s(",\"min_token\":");
    out_i64(TOKENRING_MIN_TOKEN);
    out_s(",\"max_token\":");
    out_i64(TOKENRING_MAX_TOKEN);
    out_s("}");
    return out_buf;
}

static int config_check(const lab_config *c)
{
    int ok = c->nodes >= 1 && c->nodes <= LAB_MAX_NODES && c->vnodes >= 1 &&
             c->vnodes <= LAB_MAX_VNODES && c->dcs >= 1 && c->dcs <= LAB_MAX_DCS &&
             c->racks >= 1 && c->racks <= LAB_MAX_RACKS &&
             (c->layout == LAB_LAYOUT_SEEDED || c->layout == LAB_LAYOUT_ALLOCATOR);
    long tokens = (long)c->nodes * c->vnodes;
    return ok && tokens <= (c->layout == LAB_LAYOUT_ALLOCATOR ? LAB_MAX_ALLOC_TOKENS
                                                              : LAB_MAX_TOKENS);
}

static void config_limits_message(tokenring_error *err)
{
    snprintf(err->message, sizeof err->message,
             "nodes 1..%d, vnodes 1..%d, nodes x vnodes at most %d (%d with the allocator "
             "layout), datacenters 1..%d, racks 1..%d, layout 0 or 1",
             LAB_MAX_NODES, LAB_MAX_VNODES, LAB_MAX_TOKENS, LAB_MAX_ALLOC_TOKENS, LAB_MAX_DCS,
             LAB_MAX_RACKS);
}

LAB_EXPORT("lab_configure")
const char *lab_configure(int nodes, int vnodes, uint32_t seed, int dcs, int racks, int layout,
                          const char *repl, size_t repl_len)
{
    lab_config cfg = {nodes, vnodes, seed, dcs, racks, layout};
    tokenring_error err;
    memset(&err, 0, sizeof err);
    if (!config_check(&cfg)) {
        config_limits_message(&err);
        return out_error(TOKENRING_E_RANGE, &err, "lab");
    }
    char text[256];
    if (!repl || repl_len >= sizeof text) {
        snprintf(err.message, sizeof err.message, "replication text missing or too long");
        return out_error(TOKENRING_E_INVAL, &err, "replication");
    }
    memcpy(text, repl, repl_len);
    text[repl_len] = '\0';
    lab_state next;
    const char *what = NULL;
    int rc = state_build(&next, &cfg, text, join_base(&cfg, text), &err, &what);
    if (rc != TOKENRING_OK)
        return out_error(rc, &err, what);
    state_clear(&cur);
    cur = next;
    return lab_ring_json();
}

static void out_node_info(const tokenring_ring *ring, uint32_t node)
{
    tokenring_node_info info;
    if (tokenring_ring_node(&info, ring, node) != TOKENRING_OK) {
        out_s("{}");
        return;
    }
    out_f("{\"index\":%u,\"name\":", (unsigned)node);
    out_str(info.name);
    out_s(",\"dc\":");
    out_str(info.datacenter);
    out_s(",\"rack\":");
    out_str(info.rack);
    out_s(",\"tokens\":[");
    for (size_t i = 0; i < info.token_count; i++) {
        if (i)
            out_s(",");
        out_i64(info.tokens[i]);
    }
    out_s("]}");
}

static const char *node_name_of(const tokenring_ring *ring, uint32_t node)
{
    tokenring_node_info info;
    return tokenring_ring_node(&info, ring, node) == TOKENRING_OK ? info.name : "?";
}

/* The ring of state @p s: nodes with their tokens, the sorted ring, exact ownership. */
static void out_ring(const lab_state *s)
{
    size_t ntok = 0, nn = tokenring_ring_node_count(s->ring);
    const int64_t *tokens = tokenring_ring_tokens(s->ring, &ntok);
    const uint32_t *owners = tokenring_ring_token_nodes(s->ring, NULL);
    out_f("{\"ok\":true,\"config\":{\"nodes\":%d,\"vnodes\":%d,\"seed\":%u,\"dcs\":%d,"
          "\"racks\":%d,\"layout\":%d,\"replication\":",
          s->cfg.nodes, s->cfg.vnodes, (unsigned)s->cfg.seed, s->cfg.dcs, s->cfg.racks,
          s->cfg.layout);
    out_str(s->repl_text);
    out_s("}");
    char cql[512];
    size_t cql_len = 0;
    if (tokenring_replication_format(cql, sizeof cql, &cql_len, s->repl) == TOKENRING_OK) {
        out_s(",\"replication_cql\":");
        out_str(cql);
    }
    out_s(",\"nodes\":[");
    for (size_t i = 0; i < nn; i++) {
        if (i)
            out_s(",");
        out_node_info(s->ring, (uint32_t)i);
    }
    out_s("],\"dcs\":[");
    for (size_t i = 0; i < tokenring_ring_dc_count(s->ring); i++) {
        if (i)
            out_s(",");
        out_str(tokenring_ring_dc_name(s->ring, i));
    }
    out_s("],\"ring\":[");
    for (size_t i = 0; i < ntok; i++) {
        if (i)
            out_s(",");
        out_s("[");
        out_i64(tokens[i]);
        out_f(",%u]", (unsigned)owners[i]);
    }
    out_s("],\"ownership\":[");
    tokenring_ownership *own = calloc(nn ? nn : 1, sizeof *own);
    int rc = own ? tokenring_ring_ownership(own, nn, s->ring, s->place) : TOKENRING_E_NOMEM;
    for (size_t i = 0; rc == TOKENRING_OK && i < nn; i++) {
        if (i)
            out_s(",");
        out_f("{\"node\":%u,\"name\":", (unsigned)i);
        out_str(node_name_of(s->ring, (uint32_t)i));
        out_f(",\"vnodes\":%u,\"primary_width\":", (unsigned)own[i].token_count);
        out_u128(own[i].primary_width);
        out_s(",\"primary_pct\":");
        out_pct(own[i].primary_width);
        out_s(",\"effective_width\":");
        out_u128(own[i].effective_width);
        out_s(",\"effective_pct\":");
        out_pct(own[i].effective_width);
        out_f(",\"nodetool_primary\":\"%.2f%%\",\"nodetool_effective\":\"%.2f%%\"}",
              (double)own[i].nodetool_primary * 100.0, (double)own[i].nodetool_effective * 100.0);
    }
    free(own);
    out_s("]");
    if (rc != TOKENRING_OK) {
        out_s(",\"ownership_error\":");
        out_str(tokenring_strerror((tokenring_status)rc));
    }
    out_s(",\"ring_size\":\"18446744073709551616\"}");
}

/* Configures a topology given as text, one node per line: "name datacenter rack token
 * token ...". For the tests, which feed the page's own layout back to the native build. */
LAB_EXPORT("lab_configure_explicit")
const char *lab_configure_explicit(const char *spec, size_t spec_len, const char *repl,
                                   size_t repl_len)
{
    tokenring_error err;
    memset(&err, 0, sizeof err);
    char *text = malloc(spec_len + 1), *rtext = malloc(repl_len + 1);
    int64_t *tokens = malloc((spec_len / 2 + 1) * sizeof *tokens);
    lab_state n;
    memset(&n, 0, sizeof n);
    n.cfg.layout = LAB_LAYOUT_EXPLICIT;
    n.cfg.seed = 0;
    int rc = text && rtext && tokens && repl_len < sizeof n.repl_text ? TOKENRING_OK
                                                                      : TOKENRING_E_INVAL;
    const char *what = "lab";
    if (rc == TOKENRING_OK) {
        memcpy(text, spec, spec_len);
        text[spec_len] = '\0';
        memcpy(rtext, repl, repl_len);
        rtext[repl_len] = '\0';
        snprintf(n.repl_text, sizeof n.repl_text, "%s", rtext);
        what = "replication";
        rc = tokenring_replication_parse(&n.repl, rtext, repl_len, &err);
    }
    if (rc == TOKENRING_OK) {
        what = "topology";
        rc = tokenring_topology_new(&n.topo);
    }
    for (char *line = text, *next; rc == TOKENRING_OK && line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        char *save = NULL;
        char *name = strtok_r(line, " \t", &save), *dc = strtok_r(NULL, " \t", &save);
        char *rack = strtok_r(NULL, " \t", &save), *tok;
        if (!name)
            continue;
        size_t count = 0;
        while ((tok = strtok_r(NULL, " \t", &save)) != NULL)
            tokens[count++] = strtoll(tok, NULL, 10);
        rc = tokenring_topology_add_node(n.topo, name, dc ? dc : "", rack ? rack : "", tokens,
                                         count, &err);
        if ((int)count > n.cfg.vnodes)
            n.cfg.vnodes = (int)count;
        n.cfg.nodes++;
    }
    if (rc == TOKENRING_OK) {
        what = "ring";
        rc = tokenring_ring_build(&n.ring, n.topo, &err);
    }
    if (rc == TOKENRING_OK) {
        what = "placement";
        rc = tokenring_placement_build(&n.place, n.ring, n.repl, 0, &err);
    }
    free(text);
    free(rtext);
    free(tokens);
    if (rc != TOKENRING_OK) {
        state_clear(&n);
        return out_error(rc, &err, what);
    }
    n.cfg.dcs = (int)tokenring_ring_dc_count(n.ring);
    n.cfg.racks = 1;
    state_clear(&cur);
    cur = n;
    return lab_ring_json();
}

LAB_EXPORT("lab_ring_json") const char *lab_ring_json(void)
{
    out_reset();
    if (!cur.ring)
        return out_error(TOKENRING_E_EMPTY, NULL, "lab: no topology configured yet");
    out_ring(&cur);
    return out_buf;
}

/* The route of a key (its bytes) on state @p s. */
static int out_route(const lab_state *s, const uint8_t *key, size_t len)
{
    int64_t token = tokenring_token(key, len);
    tokenring_range range;
    int rc = tokenring_ring_range_of(&range, s->ring, token);
    if (rc != TOKENRING_OK)
        return rc;
    tokenring_replicas reps;
    rc = tokenring_placement_replicas(&reps, s->place, token);
    if (rc != TOKENRING_OK)
        return rc;
    size_t ntok = 0;
    (void)tokenring_ring_tokens(s->ring, &ntok);
    const int64_t *tokens = tokenring_ring_tokens(s->ring, NULL);
    const uint32_t *owners = tokenring_ring_token_nodes(s->ring, NULL);

    out_s("{\"ok\":true,\"key_hex\":");
    out_hex(key, len);
    out_f(",\"key_len\":%zu,\"token\":", len);
    out_i64(token);
    out_f(",\"empty_key\":%s,\"is_min_token\":%s", len == 0 ? "true" : "false",
          token == TOKENRING_MIN_TOKEN ? "true" : "false");
    out_f(",\"range\":{\"index\":%u,\"start\":", (unsigned)range.index);
    out_i64(range.start);
    out_s(",\"end\":");
    out_i64(range.end);
    out_s(",\"width\":");
    out_u128(range.width);
    out_s(",\"width_pct\":");
    out_pct(range.width);
    out_f(",\"owner\":%u,\"owner_name\":", (unsigned)range.owner);
    out_str(node_name_of(s->ring, range.owner));
    out_f(",\"wraps\":%s}", range.start >= range.end ? "true" : "false");
    out_f(",\"replica_count\":%u,\"replicas\":[", (unsigned)reps.count);
    /* Which vnode each replica was reached through: the walk starts at the key's range
     * and goes clockwise; a replica is reached through its node's first vnode on that
     * walk. (Annotation of the library's answer; the set and order are the library's.) */
    uint32_t walk = 0;
    for (uint32_t r = 0; r < reps.count; r++) {
        uint32_t node = reps.nodes[r];
        uint32_t step = 0;
        while (step < ntok && owners[(range.index + step) % ntok] != node)
            step++;
        uint32_t idx = (uint32_t)((range.index + step) % ntok);
        if (step + 1 > walk)
            walk = step + 1;
        if (r)
            out_s(",");
        out_f("{\"order\":%u,\"node\":%u,\"name\":", r + 1, (unsigned)node);
        tokenring_node_info info;
        if (tokenring_ring_node(&info, s->ring, node) == TOKENRING_OK) {
            out_str(info.name);
            out_s(",\"dc\":");
            out_str(info.datacenter);
            out_s(",\"rack\":");
            out_str(info.rack);
        } else {
            out_s("\"?\"");
        }
        out_s(",\"via_token\":");
        out_i64(step < ntok ? tokens[idx] : 0);
        out_f(",\"via_index\":%u,\"steps\":%u,\"transient\":%s}", (unsigned)idx, (unsigned)step,
              reps.transient && reps.transient[r] ? "true" : "false");
    }
    out_f("],\"walk_len\":%u,\"set_id\":%u}", (unsigned)walk, (unsigned)reps.set_id);
    return TOKENRING_OK;
}

LAB_EXPORT("lab_route_bytes") const char *lab_route_bytes(const uint8_t *key, size_t len)
{
    out_reset();
    if (!cur.place)
        return out_error(TOKENRING_E_EMPTY, NULL, "lab: no topology configured yet");
    int rc = out_route(&cur, key, len);
    if (rc != TOKENRING_OK)
        return out_error(rc, NULL, "route");
    return out_buf;
}

/* Parses a typed (possibly composite) key in `nodetool getendpoints` form with the library
 * and routes its bytes. @p types is a comma-separated list of CQL type names. */
LAB_EXPORT("lab_route_typed")
const char *lab_route_typed(const char *types, size_t types_len, const char *text,
                            size_t text_len)
{
    tokenring_error err;
    memset(&err, 0, sizeof err);
    if (!cur.place)
        return out_error(TOKENRING_E_EMPTY, NULL, "lab: no topology configured yet");
    tokenring_cql_type tv[16];
    size_t nt = 0;
    size_t i = 0;
    while (i <= types_len) {
        size_t j = i;
        while (j < types_len && types[j] != ',')
            j++;
        size_t a = i, b = j;
        while (a < b && (types[a] == ' ' || types[a] == '\t'))
            a++;
        while (b > a && (types[b - 1] == ' ' || types[b - 1] == '\t'))
            b--;
        char name[32];
        if (b - a == 0 || b - a >= sizeof name || nt == 16) {
            snprintf(err.message, sizeof err.message,
                     "give 1 to 16 comma-separated CQL type names, e.g. text,int");
            return out_error(TOKENRING_E_INVAL, &err, "types");
        }
        memcpy(name, types + a, b - a);
        name[b - a] = '\0';
        int rc = tokenring_cql_type_from_name(&tv[nt], name);
        if (rc != TOKENRING_OK) {
            snprintf(err.message, sizeof err.message, "unknown CQL type \"%s\"", name);
            return out_error(rc, &err, "types");
        }
        nt++;
        i = j + 1;
    }
    size_t need = 0;
    int rc = tokenring_key_parse(NULL, 0, &need, tv, nt, text, text_len, &err);
    if (rc != TOKENRING_OK && rc != TOKENRING_E_BUFSIZE)
        return out_error(rc, &err, "key");
    uint8_t *key = malloc(need ? need : 1);
    if (!key)
        return out_error(TOKENRING_E_NOMEM, NULL, "key");
    rc = tokenring_key_parse(key, need, &need, tv, nt, text, text_len, &err);
    if (rc != TOKENRING_OK) {
        free(key);
        return out_error(rc, &err, "key");
    }
    out_reset();
    rc = out_route(&cur, key, need);
    free(key);
    if (rc != TOKENRING_OK)
        return out_error(rc, NULL, "route");
    return out_buf;
}

/* Tokens of the fixed sample keys, hashed by the library in one batch call. */
static int sample_tokens(int64_t tokens[LAB_SAMPLE_KEYS])
{
    char keys[LAB_SAMPLE_KEYS * 24];
    uint64_t offsets[LAB_SAMPLE_KEYS + 1];
    size_t used = 0;
    for (int i = 0; i < LAB_SAMPLE_KEYS; i++) {
        offsets[i] = used;
        used += (size_t)snprintf(keys + used, sizeof keys - used, LAB_SAMPLE_KEY_FORMAT, i);
    }
    offsets[LAB_SAMPLE_KEYS] = used;
    return tokenring_tokens(tokens, (const uint8_t *)keys, offsets, LAB_SAMPLE_KEYS);
}

static void out_sample_move(int i, int64_t token, const char *from, const char *to, int is_new,
                            int first)
{
    char k[24];
    snprintf(k, sizeof k, LAB_SAMPLE_KEY_FORMAT, i);
    if (!first)
        out_s(",");
    out_s("{\"key\":");
    out_str(k);
    out_s(",\"token\":");
    out_i64(token);
    out_s(",\"from\":");
    out_str(from);
    out_s(",\"to\":");
    out_str(to);
    out_f(",\"to_new_node\":%s}", is_new ? "true" : "false");
}

/* The sample keys' primaries and the token space that changes, from the library's
 * movement analysis of the join. */
static int out_movement(const lab_state *before, const lab_state *after,
                        const int64_t *tokens, tokenring_error *err)
{
    tokenring_movement *mv = NULL;
    int rc = tokenring_movement_compare(&mv, before->topo, after->topo, before->repl,
                                        TOKENRING_CHANGE_JOIN, tokens, LAB_SAMPLE_KEYS, err);
    if (rc != TOKENRING_OK)
        return rc;
    tokenring_movement_summary sum;
    rc = tokenring_movement_get_summary(&sum, mv);
    int moved = 0, to_new = 0;
    out_s(",\"sample_moves\":[");
    for (uint32_t i = 0; rc == TOKENRING_OK && i < sum.sample_count; i++) {
        tokenring_sample_change sc;
        tokenring_movement_node from, to;
        rc = tokenring_movement_get_sample(&sc, mv, i);
        if (rc != TOKENRING_OK || !sc.owner_changed)
            continue;
        rc = tokenring_movement_get_node(&from, mv, sc.old_owner);
        if (rc == TOKENRING_OK)
            rc = tokenring_movement_get_node(&to, mv, sc.new_owner);
        if (rc != TOKENRING_OK)
            break;
        out_sample_move((int)i, sc.token, from.name, to.name, !to.in_before, moved == 0);
        moved++;
        to_new += !to.in_before;
    }
    out_f("],\"moved\":%d,\"moved_to_new\":%d,\"samples_primary_changed\":%u,"
          "\"samples_replicas_changed\":%u",
          moved, to_new, (unsigned)sum.samples_primary_changed,
          (unsigned)sum.samples_replicas_changed);
    out_s(",\"primary_changed_width\":");
    out_u128(sum.primary_changed_width);
    out_s(",\"primary_changed_pct\":");
    out_pct(sum.primary_changed_width);
    out_s(",\"replicas_changed_width\":");
    out_u128(sum.changed_width);
    out_s(",\"replicas_changed_pct\":");
    out_pct(sum.changed_width);
    out_f(",\"stream_count\":%u,\"movement_source\":\"tokenring_movement_compare\"",
          (unsigned)sum.stream_count);
    tokenring_movement_free(mv);
    return rc;
}

/* What adding nodes does: the key's route on the current topology and on the same
 * topology with @p nodes_after nodes (same seed, vnodes, datacenters, racks and
 * replication), and the movement of the fixed sample keys' primaries. The current
 * topology is not changed. */
LAB_EXPORT("lab_compare")
const char *lab_compare(const uint8_t *key, size_t len, int nodes_after)
{
    tokenring_error err;
    memset(&err, 0, sizeof err);
    if (!cur.place)
        return out_error(TOKENRING_E_EMPTY, NULL, "lab: no topology configured yet");
    lab_config cfg = cur.cfg;
    cfg.nodes = nodes_after;
    if (!config_check(&cfg)) {
        config_limits_message(&err);
        return out_error(TOKENRING_E_RANGE, &err, "lab");
    }
    lab_state after;
    const char *what = NULL;
    int rc = state_build(&after, &cfg, cur.repl_text, nodes_after >= cur.cfg.nodes ? &cur : NULL,
                         &err, &what);
    if (rc != TOKENRING_OK)
        return out_error(rc, &err, what);
    int64_t tokens[LAB_SAMPLE_KEYS];
    rc = sample_tokens(tokens);
    if (rc != TOKENRING_OK) {
        state_clear(&after);
        return out_error(rc, NULL, "sample keys");
    }
    out_reset();
    what = "route";
    out_s("{\"ok\":true,\"before\":");
    rc = out_route(&cur, key, len);
    if (rc == TOKENRING_OK) {
        out_s(",\"after\":");
        rc = out_route(&after, key, len);
    }
    if (rc == TOKENRING_OK) {
        /* the library's account of which tokens of the old nodes the join kept */
        size_t kept = 0, lost = 0, gained = 0;
        what = "tokens kept";
        rc = tokenring_ring_tokens_kept(&kept, &lost, &gained, cur.ring, after.ring);
        if (rc == TOKENRING_OK) {
            out_f(",\"existing_tokens_unchanged\":%s,\"existing_tokens_checked\":%zu,"
                  "\"existing_tokens_lost\":%zu,\"existing_tokens_gained\":%zu",
                  lost == 0 && gained == 0 ? "true" : "false", kept + lost, lost, gained);
            out_f(",\"sample_keys\":%d", LAB_SAMPLE_KEYS);
            what = "movement";
            rc = out_movement(&cur, &after, tokens, &err);
        }
    }
    if (rc != TOKENRING_OK) {
        state_clear(&after);
        return out_error(rc, &err, what);
    }
    out_s(",\"new_nodes\":[");
    int first = 1;
    for (size_t i = 0; i < tokenring_ring_node_count(after.ring); i++) {
        uint32_t idx;
        const char *nm = node_name_of(after.ring, (uint32_t)i);
        if (tokenring_ring_find_node(&idx, cur.ring, nm) == TOKENRING_OK)
            continue;
        if (!first)
            out_s(",");
        first = 0;
        out_node_info(after.ring, (uint32_t)i);
    }
    out_s("],\"after_ring\":");
    out_ring(&after);
    out_s("}");
    state_clear(&after);
    return out_buf;
}
