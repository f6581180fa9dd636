/* SPDX-License-Identifier: Apache-2.0 */
/* check [KEYSPACE...]: what no server checks before an operator acts. The cluster's layout
 * (nodes per rack per datacenter, racks against each keyspace's factor as
 * NetworkTopologyStrategy places replicas, a factor larger than its datacenter, mixed
 * num_tokens, pasted Owns against the computed one), and with --yaml / --rackdc a node's
 * settings against that cluster. Each finding is one line, `error:`, `warning:` or `ok:`,
 * saying why it matters; the exit code says the worst (tool.h, check_exit). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tool.h"

enum sev { SEV_OK, SEV_WARNING, SEV_ERROR };

struct finding {
    enum sev sev;
    char *subject, *text;
};

struct findings {
    struct finding *f;
    size_t n, cap;
};

static void add(struct findings *fs, enum sev sev, const char *subject, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void add(struct findings *fs, enum sev sev, const char *subject, const char *fmt, ...)
{
    if (fs->n == fs->cap) {
        fs->cap = fs->cap ? 2 * fs->cap : 32;
        struct finding *g = realloc(fs->f, fs->cap * sizeof *g);
        if (!g)
            die(EXIT_INTERNAL, "out of memory");
        fs->f = g;
    }
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *t = malloc((size_t)k + 1), *s = strdup(subject);
    if (!t || !s)
        die(EXIT_INTERNAL, "out of memory");
    va_start(ap, fmt);
    vsnprintf(t, (size_t)k + 1, fmt, ap);
    va_end(ap);
    fs->f[fs->n++] = (struct finding){ sev, s, t };
}

/* ------------------------------------------------------------- the cluster */

struct rack {
    const char *name;
    size_t nodes;          /* normal, leaving and moving nodes: the ones placement counts */
    long double eff;       /* effective ownership of the keyspace in hand, of 2^64 */
};

struct dc {
    const char *name;
    struct rack racks[256];
    size_t nracks, nodes, joining;
};

static struct dc *find_dc(struct dc *dcs, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(dcs[i].name, name) == 0)
            return &dcs[i];
    return NULL;
}

static struct rack *find_rack(struct dc *d, const char *name)
{
    for (size_t i = 0; i < d->nracks; i++)
        if (strcmp(d->racks[i].name, name) == 0)
            return &d->racks[i];
    return NULL;
}

static void rack_list(strbuf *b, const struct dc *d)
{
    for (size_t r = 0; r < d->nracks; r++)
        sb_printf(b, "%s%s %zu", r ? ", " : "", d->racks[r].name, d->racks[r].nodes);
}

static bool racks_equal(const struct dc *d)
{
    for (size_t r = 1; r < d->nracks; r++)
        if (d->racks[r].nodes != d->racks[0].nodes)
            return false;
    return true;
}

/* The token count most of the datacenter's nodes have (0 when none is known). */
static size_t usual_tokens(tr_ctx *ctx, const char *dc)
{
    size_t n = tokenring_cluster_node_count(ctx->cluster), best = 0, best_votes = 0;
    for (size_t i = 0; i < n; i++) {
        tokenring_cluster_node_info a;
        tokenring_cluster_node(&a, ctx->cluster, i);
        if (strcmp(a.datacenter, dc) != 0 || !a.declared_tokens)
            continue;
        size_t votes = 0;
        for (size_t j = 0; j < n; j++) {
            tokenring_cluster_node_info b;
            tokenring_cluster_node(&b, ctx->cluster, j);
            votes += strcmp(b.datacenter, dc) == 0 && b.declared_tokens == a.declared_tokens;
        }
        if (votes > best_votes || (votes == best_votes && a.declared_tokens < best)) {
            best = a.declared_tokens;
            best_votes = votes;
        }
    }
    return best;
}

static void check_layout(tr_ctx *ctx, struct findings *fs, struct dc *dcs, size_t ndc)
{
    size_t n = tokenring_cluster_node_count(ctx->cluster);
    for (size_t d = 0; d < ndc; d++) {
        struct dc *dc = &dcs[d];
        strbuf racks = { 0 };
        rack_list(&racks, dc);
        size_t usual = usual_tokens(ctx, dc->name);
        strbuf odd = { 0 };
        size_t nodd = 0;
        for (size_t i = 0; i < n; i++) {
            tokenring_cluster_node_info a;
            tokenring_cluster_node(&a, ctx->cluster, i);
            if (strcmp(a.datacenter, dc->name) == 0 && a.declared_tokens &&
                a.declared_tokens != usual) {
                sb_printf(&odd, "%s%s %zu", nodd ? ", " : "", a.name, a.declared_tokens);
                nodd++;
            }
        }
        char tokens[64] = "";
        if (usual)
            snprintf(tokens, sizeof tokens, ", num_tokens %zu", usual);
        char joining[64] = "";
        if (dc->joining)
            snprintf(joining, sizeof joining, ", and %zu joining", dc->joining);
        add(fs, SEV_OK, dc->name, "%zu node%s in %zu rack%s (%s)%s%s", dc->nodes,
            dc->nodes == 1 ? "" : "s", dc->nracks, dc->nracks == 1 ? "" : "s",
            racks.p ? racks.p : "", joining, tokens);
        if (dc->nracks > 1 && !racks_equal(dc))
            add(fs, SEV_WARNING, dc->name,
                "racks of unequal size (%s): NetworkTopologyStrategy spreads each range's "
                "replicas over racks, not nodes, so the nodes of a smaller rack carry more "
                "data and requests (the keyspace lines below say how much)",
                racks.p);
        if (nodd)
            add(fs, SEV_WARNING, dc->name,
                "mixed num_tokens: %zu on most nodes, other counts on %zu (%s): a node's "
                "share of the ring follows its token count, and Cassandra's token allocator "
                "balances ownership, not per-token load",
                usual, nodd, odd.p);
        free(racks.p);
        free(odd.p);
    }
    if (ndc > 1) {
        strbuf per = { 0 };
        bool differ = false;
        size_t first = usual_tokens(ctx, dcs[0].name);
        for (size_t d = 0; d < ndc; d++) {
            size_t u = usual_tokens(ctx, dcs[d].name);
            sb_printf(&per, "%s%s %zu", d ? ", " : "", dcs[d].name, u);
            differ |= u != first;
        }
        if (differ)
            add(fs, SEV_OK, "cluster",
                "num_tokens differs between datacenters (%s): allowed, each datacenter's "
                "replicas are placed on its own tokens (NetworkTopologyStrategy)",
                per.p);
        free(per.p);
    }
}

/* Effective ownership of the keyspace per node (of 2^64), or NULL without tokens. */
static tokenring_ownership *ownership_of(tr_ctx *ctx, const tokenring_replication *r)
{
    if (!tokenring_cluster_topology(ctx->cluster))
        return NULL;
    const tokenring_ring *ring = need_ring(ctx);
    if (tokenring_ring_ownership_flags(ring) & TOKENRING_OWNERSHIP_NO_WIDTHS)
        return NULL; /* ByteOrderedPartitioner: ownership depends on the data */
    size_t n = tokenring_ring_node_count(ring);
    tokenring_ownership *o = calloc(n ? n : 1, sizeof *o);
    if (!o)
        die(EXIT_INTERNAL, "out of memory");
    tokenring_placement *p = NULL;
    if (r && tokenring_placement_build(&p, ring, r, TOKENRING_PLACEMENT_SKIP_EMPTY_DC, NULL) !=
                 TOKENRING_OK) {
        free(o);
        return NULL; /* no replica anywhere: said by the keyspace findings */
    }
    if (tokenring_ring_ownership(o, n, ring, p) != TOKENRING_OK)
        die(EXIT_INTERNAL, "ownership failed");
    tokenring_placement_free(p);
    return o;
}

static void check_dc_factor(tr_ctx *ctx, struct findings *fs, const char *ks, struct dc *dc,
                            int32_t rf, const tokenring_ownership *own)
{
    char subj[512];
    snprintf(subj, sizeof subj, "%s in %s", ks, dc->name);
    size_t N = dc->nodes, R = dc->nracks;
    size_t q = (size_t)rf / 2 + 1; /* LOCAL_QUORUM of the configured factor */
    if (N == 0) {
        add(fs, SEV_WARNING, subj, "factor %d, but the datacenter has no node yet: Cassandra "
                                  "places no replica there until one joins",
            rf);
        return;
    }
    if ((size_t)rf > N) {
        if (q > N)
            add(fs, SEV_ERROR, subj,
                "factor %d is larger than the datacenter's %zu node%s: every node holds every "
                "range, and LOCAL_QUORUM (and QUORUM, EACH_QUORUM) can never succeed: it "
                "needs %zu replicas of the configured %d; lower the factor to %zu or add "
                "nodes",
                rf, N, N == 1 ? "" : "s", q, rf, N);
        else
            add(fs, SEV_WARNING, subj,
                "factor %d is larger than the datacenter's %zu nodes: only %zu replicas "
                "exist, so LOCAL_QUORUM (%zu of %d) survives %zu failed node%s instead of "
                "%zu; lower the factor to %zu or add nodes",
                rf, N, N, q, rf, N - q, N - q == 1 ? "" : "s", (size_t)rf - q, N);
        return;
    }
    /* the load of the keyspace per node and per rack */
    char load[256] = "";
    long double mx = 0, mn = -1;
    if (own) {
        size_t n = tokenring_cluster_node_count(ctx->cluster);
        for (size_t r = 0; r < R; r++)
            dc->racks[r].eff = 0;
        for (size_t i = 0; i < n; i++) {
            tokenring_cluster_node_info a;
            tokenring_cluster_node(&a, ctx->cluster, i);
            if (strcmp(a.datacenter, dc->name) != 0 || a.state == TOKENRING_STATE_JOINING)
                continue;
            long double e = (long double)own[i].effective;
            struct rack *rk = find_rack(dc, a.rack);
            if (rk)
                rk->eff += e;
            mx = e > mx ? e : mx;
            mn = mn < 0 || e < mn ? e : mn;
        }
        snprintf(load, sizeof load, "; a node replicates %.1f%% to %.1f%% of the ring (max/min %.2f)",
                 (double)(mn * 100), (double)(mx * 100), mn > 0 ? (double)(mx / mn) : 0.0);
    }
    if (R == 1) {
        if (rf == 1)
            add(fs, SEV_OK, subj, "factor 1: one replica of each range%s", load);
        else
            add(fs, SEV_OK, subj, "factor %d on one rack: replicas on %d distinct nodes%s", rf,
                rf, load);
        return;
    }
    if (R < (size_t)rf) {
        size_t most = (size_t)rf - R + 1, biggest = 0;
        for (size_t r = 0; r < R; r++)
            biggest = dc->racks[r].nodes > biggest ? dc->racks[r].nodes : biggest;
        most = most < biggest ? most : biggest;
        bool quorum_lost = (size_t)rf - most < q;
        add(fs, SEV_WARNING, subj,
            "%zu racks for factor %d: NetworkTopologyStrategy takes one replica per rack and "
            "the remaining %zu from racks already used (the first met on the ring), so one rack "
            "holds up to %zu replicas of a range%s and the extra replicas land unevenly%s; "
            "Cassandra's token allocation (allocate_tokens_for_keyspace or "
            "allocate_tokens_for_local_replication_factor) refuses a node joining one of "
            "these racks (\"the number of racks %zu in datacenter %s is lower than its "
            "replication factor %d\"); use %d racks, or one",
            R, rf, (size_t)rf - R, most,
            quorum_lost ? ": losing that rack loses LOCAL_QUORUM for those ranges" : "", load,
            R, dc->name, rf, rf);
        return;
    }
    if (R == (size_t)rf) {
        if (racks_equal(dc)) {
            add(fs, SEV_OK, subj,
                "%zu racks for factor %d: each rack holds exactly one replica of every range "
                "(a full copy), so losing a rack loses one replica of each%s",
                R, rf, load);
        } else {
            size_t small = 0, big = 0;
            for (size_t r = 0; r < R; r++) {
                if (!small || dc->racks[r].nodes < small)
                    small = dc->racks[r].nodes;
                big = dc->racks[r].nodes > big ? dc->racks[r].nodes : big;
            }
            add(fs, SEV_WARNING, subj,
                "%zu racks for factor %d: each rack holds a full copy of the data, shared by "
                "its own nodes, so a node of a %zu-node rack holds %zu times the data of a "
                "node of a %zu-node rack%s; make the racks equal",
                R, rf, small, big / small, big, load);
        }
        return;
    }
    /* more racks than the factor: the first rf distinct racks met on the ring */
    strbuf shares = { 0 };
    long double ideal = (long double)rf / (long double)R, worst = 0;
    for (size_t r = 0; own && r < R; r++) {
        sb_printf(&shares, "%s%s %.1f%%", r ? ", " : "", dc->racks[r].name,
                  (double)(dc->racks[r].eff / rf * 100));
        long double dev = fabsl(dc->racks[r].eff / ideal - 1);
        worst = dev > worst ? dev : worst;
    }
    bool uneven = !racks_equal(dc) || worst > 0.10L;
    add(fs, uneven ? SEV_WARNING : SEV_OK, subj,
        "%zu racks for factor %d: each range's replicas are on %d distinct racks (the first "
        "met on the ring), so a rack's share follows where its tokens lie, %.1f%% each when "
        "even%s%s%s%s",
        R, rf, rf, (double)(ideal / rf * 100), own ? "; measured: " : "",
        shares.p ? shares.p : "", load,
        uneven ? "; the uneven racks carry uneven load" : "");
    free(shares.p);
}

static void check_keyspaces(tr_ctx *ctx, struct findings *fs, struct dc *dcs, size_t ndc)
{
    size_t k = tokenring_cluster_keyspace_count(ctx->cluster);
    if (k == 0) {
        add(fs, SEV_WARNING, "keyspaces",
            "the input defines none: racks and factors are not checked; give --schema (cqlsh "
            "SELECT * FROM system_schema.keyspaces) or --keyspace NAME=REPLICATION");
        return;
    }
    size_t total = 0;
    for (size_t d = 0; d < ndc; d++)
        total += dcs[d].nodes;
    for (size_t i = 0; i < k; i++) {
        const char *name;
        const tokenring_replication *r;
        tokenring_cluster_keyspace(&name, &r, ctx->cluster, i);
        if (ctx->opt.nargs) {
            bool asked = false;
            for (size_t a = 0; a < ctx->opt.nargs; a++)
                asked |= strcmp(ctx->opt.args[a], name) == 0;
            if (!asked)
                continue;
        }
        tokenring_ownership *own = ownership_of(ctx, r);
        if (tokenring_replication_strategy(r) == TOKENRING_SIMPLE) {
            int32_t rf = 0;
            tokenring_replication_get(NULL, &rf, NULL, r, 0);
            if (ndc > 1)
                add(fs, SEV_WARNING, name,
                    "SimpleStrategy (factor %d) in a cluster of %zu datacenters: replicas are "
                    "the next %d nodes on the ring whatever their datacenter and rack, so a "
                    "datacenter may hold none of a range and LOCAL_* levels fail there; use "
                    "NetworkTopologyStrategy",
                    rf, ndc, rf);
            else if ((size_t)rf > total)
                add(fs, (size_t)rf / 2 + 1 > total ? SEV_ERROR : SEV_WARNING, name,
                    "factor %d is larger than the cluster's %zu nodes: QUORUM needs %d", rf,
                    total, rf / 2 + 1);
            else
                add(fs, SEV_OK, name, "SimpleStrategy factor %d on %zu nodes", rf, total);
            free(own);
            continue;
        }
        size_t nd = tokenring_replication_dc_count(r);
        for (size_t j = 0; j < nd; j++) {
            const char *dcname;
            int32_t rf;
            tokenring_replication_get(&dcname, &rf, NULL, r, j);
            if (rf <= 0)
                continue;
            struct dc *dc = find_dc(dcs, ndc, dcname);
            if (!dc) {
                char hint[320];
                char subj[512];
                snprintf(subj, sizeof subj, "%s in %s", name, dcname);
                add(fs, SEV_WARNING, subj,
                    "the cluster has no datacenter %s: this factor %d places no replica "
                    "anywhere%s",
                    dcname, rf, dc_hint(ctx, dcname, hint, sizeof hint));
                continue;
            }
            check_dc_factor(ctx, fs, name, dc, rf, own);
        }
        for (size_t d = 0; d < ndc; d++) {
            int32_t rf = 0;
            tokenring_replication_dc_factor(&rf, NULL, r, dcs[d].name);
            if (rf == 0 && ndc > 1 && dcs[d].nodes) {
                char subj[512];
                snprintf(subj, sizeof subj, "%s in %s", name, dcs[d].name);
                add(fs, SEV_OK, subj, "no replica in this datacenter (its factor is 0)");
            }
        }
        free(own);
    }
}

/* Pasted Owns against the computed one, when the keyspace it was taken with is known: the
 * one named, or the one replication every keyspace of the input shares. */
static void check_owns(tr_ctx *ctx, struct findings *fs)
{
    size_t n = tokenring_cluster_node_count(ctx->cluster), pasted = 0;
    for (size_t i = 0; i < n; i++) {
        const char *own = NULL;
        tokenring_cluster_node_columns(NULL, &own, ctx->cluster, i);
        pasted += own && strchr(own, '%');
    }
    if (!pasted)
        return;
    const tokenring_replication *r = NULL;
    const char *ksname = NULL;
    size_t k = tokenring_cluster_keyspace_count(ctx->cluster);
    if (ctx->opt.nargs == 1) {
        ksname = ctx->opt.args[0];
        r = find_keyspace(ctx, ksname);
    } else if (k >= 1) {
        char first[4096], cur[4096];
        size_t len;
        const tokenring_replication *r0;
        tokenring_cluster_keyspace(&ksname, &r0, ctx->cluster, 0);
        bool same = tokenring_replication_format(first, sizeof first, &len, r0) == TOKENRING_OK;
        for (size_t i = 1; same && i < k; i++) {
            const tokenring_replication *ri;
            tokenring_cluster_keyspace(NULL, &ri, ctx->cluster, i);
            same = tokenring_replication_format(cur, sizeof cur, &len, ri) == TOKENRING_OK &&
                   strcmp(cur, first) == 0;
        }
        r = same ? r0 : NULL;
    }
    if (!r) {
        add(fs, SEV_OK, "owns",
            "the pasted Owns of %zu node%s not compared: %s; name the keyspace nodetool was "
            "run with (check KEYSPACE)",
            pasted, pasted == 1 ? "" : "s",
            k ? "the input's keyspaces replicate differently" : "the input defines no keyspace");
        return;
    }
    tokenring_ownership *o = ownership_of(ctx, with_rules(ctx, r));
    if (!o) {
        add(fs, SEV_OK, "owns", "the pasted Owns not compared: the tokens are unknown (give "
                                "nodetool ring or cqlsh output too)");
        return;
    }
    size_t differ = 0, compared = 0;
    for (size_t i = 0; i < n; i++) {
        const char *own = NULL;
        tokenring_cluster_node_columns(NULL, &own, ctx->cluster, i);
        if (!own || !strchr(own, '%') || o[i].token_count == 0)
            continue;
        char *end;
        double pv = strtod(own, &end);
        const char *dot = strchr(own, '.');
        int decimals = dot && dot < end ? (int)(end - dot - 1) : 0;
        double v = (double)o[i].nodetool_effective * 100.0;
        compared++;
        double half = 0.5;
        for (int d = 0; d < decimals; d++)
            half /= 10;
        if (fabs(pv - v) <= half + 1e-6)
            continue;
        tokenring_cluster_node_info a;
        tokenring_cluster_node(&a, ctx->cluster, i);
        char subj[512];
        snprintf(subj, sizeof subj, "node %s", a.name);
        add(fs, SEV_WARNING, subj,
            "pasted Owns %s differs from the computed %.*f%% (effective, keyspace %s): "
            "the paste was taken with another keyspace, before a topology change, or the "
            "input misses some tokens; every figure the tool derives assumes the computed one",
            own, decimals, v, ksname);
        differ++;
    }
    if (!differ && compared)
        add(fs, SEV_OK, "owns", "the pasted Owns of %zu node%s equal%s the computed one "
                                "(keyspace %s)",
            compared, compared == 1 ? "" : "s", compared == 1 ? "s" : "", ksname);
    free(o);
}

/* ------------------------------------------------------- a node's settings */

static const char *const yaml_keys[] = {
    "num_tokens", "allocate_tokens_for_keyspace", "allocate_tokens_for_local_replication_factor",
    "initial_token", "partitioner", "endpoint_snitch", "auto_bootstrap"
};

static const char *const rackdc_keys[] = { "dc", "rack", "dc_suffix", "prefer_local",
                                           "ec2_naming_scheme" };

static const char *short_class(const char *s)
{
    const char *dot = strrchr(s, '.');
    return dot ? dot + 1 : s;
}

static bool is_cloud_snitch(const char *snitch)
{
    static const char *const cloud[] = { "Ec2Snitch", "Ec2MultiRegionSnitch",
                                         "GoogleCloudSnitch", "AzureSnitch",
                                         "AlibabaCloudSnitch", "CloudstackSnitch" };
    for (size_t i = 0; i < sizeof cloud / sizeof *cloud; i++)
        if (strcmp(short_class(snitch), cloud[i]) == 0)
            return true;
    return false;
}

/* A cluster node named NAME, or with NAME's address (a ':port' on either side ignored). */
static long find_node(tr_ctx *ctx, const char *name)
{
    size_t n = tokenring_cluster_node_count(ctx->cluster);
    size_t ln = strcspn(name, ":");
    if (strchr(name + ln + (name[ln] ? 1 : 0), ':'))
        ln = strlen(name); /* IPv6 */
    for (size_t i = 0; i < n; i++) {
        tokenring_cluster_node_info a;
        tokenring_cluster_node(&a, ctx->cluster, i);
        if (strcmp(a.name, name) == 0)
            return (long)i;
    }
    for (size_t i = 0; i < n; i++) {
        tokenring_cluster_node_info a;
        tokenring_cluster_node(&a, ctx->cluster, i);
        size_t la = strcspn(a.name, ":");
        if (strchr(a.name + la + (a.name[la] ? 1 : 0), ':'))
            la = strlen(a.name);
        if (la == ln && strncmp(a.name, name, ln) == 0)
            return (long)i;
    }
    return -1;
}

/* A token of the cluster's partitioner, for comparing texts that may differ in form. */
struct ptoken {
    int64_t m;
    tokenring_token128 r;
    uint8_t b[256];
    size_t bn;
};

static bool parse_ptoken(struct ptoken *t, tokenring_partitioner p, const char *s)
{
    memset(t, 0, sizeof *t);
    size_t n = strlen(s);
    if (p == TOKENRING_PARTITIONER_MURMUR3)
        return tokenring_token_parse(&t->m, s, n, NULL) == TOKENRING_OK;
    if (p == TOKENRING_PARTITIONER_RANDOM)
        return tokenring_token128_parse(&t->r, s, n, NULL) == TOKENRING_OK;
    return tokenring_byte_token_parse(t->b, sizeof t->b, &t->bn, s, n, NULL) == TOKENRING_OK;
}

static bool same_ptoken(const struct ptoken *a, const struct ptoken *b)
{
    return a->m == b->m && a->r.hi == b->r.hi && a->r.lo == b->r.lo && a->bn == b->bn &&
           memcmp(a->b, b->b, a->bn) == 0;
}

/* initial_token's list as Cassandra reads it: split at commas, each trimmed, empty ones
 * dropped (commons-lang StringUtils.split). */
static char **token_list(const char *s, size_t *count)
{
    size_t n = 1;
    for (const char *p = s; *p; p++)
        n += *p == ',';
    char **v = calloc(n, sizeof *v);
    if (!v)
        die(EXIT_INTERNAL, "out of memory");
    size_t k = 0;
    while (*s) {
        size_t len = strcspn(s, ",");
        const char *b = s, *e = s + len;
        while (b < e && (*b == ' ' || *b == '\t'))
            b++;
        while (e > b && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        if (e > b) {
            v[k] = malloc((size_t)(e - b) + 1);
            if (!v[k])
                die(EXIT_INTERNAL, "out of memory");
            memcpy(v[k], b, (size_t)(e - b));
            v[k++][e - b] = '\0';
        }
        s += len + (s[len] == ',');
    }
    *count = k;
    return v;
}

static void check_node(tr_ctx *ctx, struct findings *fs, struct dc *dcs, size_t ndc)
{
    struct conf y = { 0 }, p = { 0 };
    bool have_y = ctx->opt.yaml != NULL, have_p = ctx->opt.rackdc != NULL;
    if (have_y)
        conf_read_yaml(&y, ctx->opt.yaml, yaml_keys, sizeof yaml_keys / sizeof *yaml_keys);
    if (have_p)
        conf_read_properties(&p, ctx->opt.rackdc);
    const char *nodename = ctx->opt.node ? ctx->opt.node : "(new node)";
    long idx = ctx->opt.node ? find_node(ctx, ctx->opt.node) : -1;
    tokenring_cluster_node_info me = { 0 };
    if (idx >= 0)
        tokenring_cluster_node(&me, ctx->cluster, (size_t)idx);
    char subj[512];
    snprintf(subj, sizeof subj, "node %s", nodename);
    if (ctx->opt.node && idx < 0) {
        size_t n = tokenring_cluster_node_count(ctx->cluster);
        const char **names = calloc(n + 1, sizeof *names);
        if (!names)
            die(EXIT_INTERNAL, "out of memory");
        for (size_t i = 0; i < n; i++) {
            tokenring_cluster_node_info a;
            tokenring_cluster_node(&a, ctx->cluster, i);
            names[i] = a.name;
        }
        char hint[320];
        did_you_mean(ctx->opt.node, names, n, hint, sizeof hint);
        free(names);
        add(fs, *hint ? SEV_WARNING : SEV_OK, subj,
            "not in the cluster: checked as a node about to join%s", hint);
    } else if (idx >= 0) {
        add(fs, SEV_OK, subj, "in the cluster: %s, rack %s, %zu tokens", me.datacenter,
            me.rack, me.declared_tokens);
    }

    /* where the node will be: the snitch's datacenter and rack */
    const char *dc = idx >= 0 ? me.datacenter : NULL, *rack = idx >= 0 ? me.rack : NULL;
    const struct conf_entry *snitch = conf_get(&y, "endpoint_snitch");
    const char *sn = snitch && snitch->value ? short_class(snitch->value) : NULL;
    char where[1024];
    if (have_y && !sn)
        add(fs, SEV_ERROR, "cassandra.yaml",
            "endpoint_snitch is not set: Cassandra refuses to start (\"Missing endpoint_snitch "
            "directive\"); set GossipingPropertyFileSnitch");
    if (have_p) {
        for (size_t i = 0; i < p.n; i++) {
            bool known = false;
            for (size_t k = 0; k < sizeof rackdc_keys / sizeof *rackdc_keys; k++)
                known |= strcmp(p.e[i].key, rackdc_keys[k]) == 0;
            if (!known) {
                char hint[320];
                did_you_mean(p.e[i].key, rackdc_keys, sizeof rackdc_keys / sizeof *rackdc_keys,
                             hint, sizeof hint);
                snprintf(where, sizeof where, "%s:%u", p.path, p.e[i].line);
                add(fs, SEV_WARNING, where, "unknown key '%s': no snitch reads it%s",
                    p.e[i].key, hint);
            }
        }
        const struct conf_entry *pdc = conf_get(&p, "dc"), *prack = conf_get(&p, "rack");
        const struct conf_entry *suffix = conf_get(&p, "dc_suffix");
        if (sn && strcmp(sn, "SimpleSnitch") == 0) {
            add(fs, SEV_WARNING, p.path,
                "endpoint_snitch SimpleSnitch ignores this file: every node is in "
                "datacenter1, rack1");
        } else if (sn && strcmp(sn, "PropertyFileSnitch") == 0) {
            add(fs, SEV_WARNING, p.path,
                "endpoint_snitch PropertyFileSnitch reads cassandra-topology.properties, not "
                "this file");
        } else if (sn && is_cloud_snitch(sn)) {
            if (pdc || prack)
                add(fs, SEV_WARNING, p.path,
                    "%s takes the datacenter and rack from the cloud (region%s, availability "
                    "zone): dc and rack here are ignored",
                    sn, suffix ? " + dc_suffix" : "");
        } else {
            /* GossipingPropertyFileSnitch (or none named): dc and rack from here, trimmed */
            if (!pdc || !pdc->value || !*pdc->value || !prack || !prack->value ||
                !*prack->value)
                add(fs, SEV_ERROR, p.path,
                    "%s%s%s not set (or empty): GossipingPropertyFileSnitch puts the node in %s",
                    !pdc || !pdc->value || !*pdc->value ? "dc" : "",
                    (!pdc || !pdc->value || !*pdc->value) &&
                            (!prack || !prack->value || !*prack->value)
                        ? " and "
                        : "",
                    !prack || !prack->value || !*prack->value ? "rack" : "",
                    "UNKNOWN_DC / UNKNOWN_RACK (or an empty name): a datacenter no keyspace "
                    "replicates to");
            if (suffix)
                add(fs, SEV_WARNING, p.path,
                    "dc_suffix is read by the cloud snitches (Ec2Snitch, ...) only: "
                    "GossipingPropertyFileSnitch uses dc as it is, without the suffix");
            const char *fdc = pdc && pdc->value && *pdc->value ? pdc->value : NULL;
            const char *frack = prack && prack->value && *prack->value ? prack->value : NULL;
            if (idx >= 0) {
                if (fdc && strcmp(fdc, me.datacenter) != 0)
                    add(fs, SEV_ERROR, subj,
                        "dc=%s, but the node is in %s: Cassandra refuses to start (\"Cannot "
                        "start node if snitch's data center (%s) differs from previous data "
                        "center (%s)\"); a node changes datacenter only by decommission and "
                        "a new bootstrap",
                        fdc, me.datacenter, fdc, me.datacenter);
                if (frack && strcmp(frack, me.rack) != 0)
                    add(fs, SEV_ERROR, subj,
                        "rack=%s, but the node is in rack %s: Cassandra refuses to start "
                        "(\"Cannot start node if snitch's rack (%s) differs from previous "
                        "rack (%s)\"); a node changes rack only by decommission and a new "
                        "bootstrap",
                        frack, me.rack, frack, me.rack);
            } else {
                dc = fdc;
                rack = frack;
            }
        }
        const struct conf_entry *pl = conf_get(&p, "prefer_local");
        if (pl && pl->value && strcasecmp(pl->value, "true") != 0 &&
            strcasecmp(pl->value, "false") != 0)
            add(fs, SEV_WARNING, p.path,
                "prefer_local=%s is read as false (Boolean.parseBoolean takes true only)",
                pl->value);
    }
    struct dc *mydc = dc ? find_dc(dcs, ndc, dc) : NULL;
    if (idx < 0 && dc) {
        if (!mydc) {
            char hint[320];
            dc_hint(ctx, dc, hint, sizeof hint);
            if (*hint)
                add(fs, SEV_ERROR, subj,
                    "dc=%s is not a datacenter of the cluster%s (a typo starts a new "
                    "datacenter, with no replica of any keyspace)",
                    dc, hint);
            else
                add(fs, SEV_WARNING, subj,
                    "dc=%s is a new datacenter: no keyspace replicates to it until ALTER "
                    "KEYSPACE adds it; its nodes start with auto_bootstrap: false and get "
                    "their data by nodetool rebuild -- <an existing datacenter>",
                    dc);
        } else if (rack && !find_rack(mydc, rack)) {
            const char **names = calloc(mydc->nracks + 1, sizeof *names);
            if (!names)
                die(EXIT_INTERNAL, "out of memory");
            for (size_t r = 0; r < mydc->nracks; r++)
                names[r] = mydc->racks[r].name;
            char hint[320];
            did_you_mean(rack, names, mydc->nracks, hint, sizeof hint);
            free(names);
            add(fs, *hint ? SEV_ERROR : SEV_WARNING, subj,
                "rack=%s is not a rack of %s (it has %zu)%s: a new rack changes which racks "
                "hold each range's replicas in every keyspace replicated there",
                rack, dc, mydc->nracks, hint);
            /* the keyspaces whose racks each hold a full copy today */
            size_t k = tokenring_cluster_keyspace_count(ctx->cluster), R = mydc->nracks;
            for (size_t i = 0; i < k && !*hint; i++) {
                const char *ksn;
                const tokenring_replication *r;
                tokenring_cluster_keyspace(&ksn, &r, ctx->cluster, i);
                int32_t f = 0;
                tokenring_replication_dc_factor(&f, NULL, r, dc);
                if (tokenring_replication_strategy(r) != TOKENRING_NETWORK_TOPOLOGY || f < 2 ||
                    (size_t)f < R)
                    continue;
                char ks_subj[512];
                snprintf(ks_subj, sizeof ks_subj, "%s in %s", ksn, dc);
                if ((size_t)f == R)
                    add(fs, SEV_WARNING, ks_subj,
                        "each of the %zu racks holds a full copy today (factor %d); with rack "
                        "%s a range is on %d of %zu racks, so the new rack's nodes, however "
                        "few, take about %.0f%% of the data between them, streamed when they "
                        "join",
                        R, f, rack, f, R + 1, 100.0 * f / (double)(R + 1));
                else
                    add(fs, SEV_WARNING, ks_subj,
                        "%zu rack%s for factor %d today; with rack %s every range has a "
                        "replica in each of the %zu racks, so the new rack's nodes, however "
                        "few, take a full copy of the data between them, streamed when they "
                        "join",
                        R, R == 1 ? "" : "s", f, rack, R + 1);
            }
        } else if (rack) {
            add(fs, SEV_OK, subj, "joins %s, rack %s", dc, rack);
        }
    }

    if (!have_y)
        goto done;
    /* partitioner */
    const struct conf_entry *pe = conf_get(&y, "partitioner");
    tokenring_partitioner cp = tokenring_cluster_partitioner(ctx->cluster);
    if (!pe || !pe->value) {
        add(fs, SEV_ERROR, "cassandra.yaml", "partitioner is not set: Cassandra refuses to "
                                             "start (\"Missing directive: partitioner\"); the "
                                             "cluster's is %s",
            short_class(tokenring_partitioner_name(cp)));
    } else {
        tokenring_partitioner yp;
        if (tokenring_partitioner_parse(&yp, pe->value, strlen(pe->value), NULL) != TOKENRING_OK)
            add(fs, SEV_ERROR, "cassandra.yaml", "partitioner %s: unknown (line %u)", pe->value,
                pe->line);
        else if (yp != cp)
            add(fs, SEV_ERROR, "cassandra.yaml",
                "partitioner %s, but the cluster's tokens are %s's: a node of another "
                "partitioner cannot join (its tokens mean nothing to the others)",
                short_class(pe->value), short_class(tokenring_partitioner_name(cp)));
    }
    /* num_tokens */
    const struct conf_entry *nt = conf_get(&y, "num_tokens");
    long num_tokens = 1;
    if (!nt || !nt->value) {
        add(fs, SEV_WARNING, "cassandra.yaml",
            "num_tokens is not set: Cassandra's default is 1 (the cassandra.yaml shipped with "
            "4.0 and later sets 16)");
    } else {
        char *end;
        num_tokens = strtol(nt->value, &end, 10);
        if (*end || num_tokens < 1 || num_tokens > 65536) {
            add(fs, SEV_ERROR, "cassandra.yaml", "num_tokens %s (line %u): expected a number "
                                                 "from 1",
                nt->value, nt->line);
            num_tokens = 0;
        }
    }
    if (num_tokens > 0) {
        if (idx >= 0 && me.declared_tokens && (size_t)num_tokens != me.declared_tokens)
            add(fs, SEV_ERROR, subj,
                "num_tokens %ld, but the node has %zu tokens: Cassandra refuses to start "
                "(\"Cannot change the number of tokens from %zu to %ld\"); a node changes "
                "num_tokens only by a new bootstrap (or a new datacenter: migrate-num-tokens)",
                num_tokens, me.declared_tokens, me.declared_tokens, num_tokens);
        else if (idx < 0 && mydc) {
            size_t usual = usual_tokens(ctx, mydc->name);
            if (usual && (size_t)num_tokens != usual)
                add(fs, SEV_WARNING, subj,
                    "num_tokens %ld, but the nodes of %s have %zu: the new node will own "
                    "about %.2g times a node's share (ownership follows the token count)",
                    num_tokens, mydc->name, usual, (double)num_tokens / (double)usual);
            else if (usual)
                add(fs, SEV_OK, subj, "num_tokens %ld, as the nodes of %s", num_tokens,
                    mydc->name);
        }
    }
    /* initial_token */
    const struct conf_entry *it = conf_get(&y, "initial_token");
    size_t ninit = 0;
    if (it && it->value && *it->value) {
        char **parts = token_list(it->value, &ninit);
        if (!nt || !nt->value)
            add(fs, SEV_ERROR, "cassandra.yaml",
                "initial_token lists %zu token%s but num_tokens is not set: Cassandra refuses "
                "to start (\"initial_token was set but num_tokens is not!\"); set num_tokens: "
                "%zu",
                ninit, ninit == 1 ? "" : "s", ninit);
        else if (num_tokens > 0 && ninit != (size_t)num_tokens)
            add(fs, SEV_ERROR, "cassandra.yaml",
                "initial_token lists %zu token%s but num_tokens is %ld: Cassandra refuses to "
                "start (\"The number of initial tokens (by initial_token) specified (%zu) is "
                "different from num_tokens value (%ld)\")",
                ninit, ninit == 1 ? "" : "s", num_tokens, ninit, num_tokens);
        size_t n = tokenring_cluster_node_count(ctx->cluster);
        for (size_t i = 0; i < ninit; i++) {
            struct ptoken t;
            if (!parse_ptoken(&t, cp, parts[i])) {
                add(fs, SEV_ERROR, "cassandra.yaml",
                    "initial_token '%s' (line %u) is not a %s token (%s)", parts[i], it->line,
                    short_class(tokenring_partitioner_name(cp)),
                    cp == TOKENRING_PARTITIONER_MURMUR3 ? "a decimal from -2^63 to 2^63-1"
                    : cp == TOKENRING_PARTITIONER_RANDOM ? "a decimal from 0 to 2^127"
                                                         : "hex bytes");
                continue;
            }
            for (size_t j = 0; j < i; j++) {
                struct ptoken u;
                if (parse_ptoken(&u, cp, parts[j]) && same_ptoken(&t, &u))
                    add(fs, SEV_ERROR, "cassandra.yaml", "initial_token lists %s twice",
                        parts[i]);
            }
            for (size_t a = 0; a < n && idx < 0; a++) { /* a joined node keeps its tokens */
                tokenring_cluster_node_info o;
                tokenring_cluster_node(&o, ctx->cluster, a);
                for (size_t k = 0; k < o.declared_tokens; k++) {
                    char *text = cluster_token_text(ctx, a, k);
                    struct ptoken u;
                    if (text && parse_ptoken(&u, cp, text) && same_ptoken(&t, &u))
                        add(fs, SEV_ERROR, subj,
                            "initial_token %s is node %s's: Cassandra refuses the bootstrap "
                            "(\"Bootstrapping to existing token %s is not allowed\")",
                            parts[i], o.name, parts[i]);
                    free(text);
                }
            }
        }
        for (size_t i = 0; i < ninit; i++)
            free(parts[i]);
        free(parts);
    }
    /* token allocation */
    const struct conf_entry *aks = conf_get(&y, "allocate_tokens_for_keyspace");
    const struct conf_entry *arf = conf_get(&y, "allocate_tokens_for_local_replication_factor");
    bool has_aks = aks && aks->value, has_arf = arf && arf->value;
    if (ninit && (has_aks || has_arf))
        add(fs, SEV_WARNING, "cassandra.yaml",
            "initial_token is set: Cassandra takes those tokens and ignores %s",
            has_aks ? "allocate_tokens_for_keyspace" : "allocate_tokens_for_local_replication_factor");
    else if (has_aks && has_arf)
        add(fs, SEV_WARNING, "cassandra.yaml",
            "both allocate_tokens_for_keyspace and allocate_tokens_for_local_replication_factor "
            "are set: Cassandra uses the keyspace's replication and ignores the factor");
    if (!ninit && !has_aks && !has_arf && num_tokens >= 1 && idx < 0)
        add(fs, SEV_WARNING, "cassandra.yaml",
            "num_tokens %ld without allocate_tokens_for_local_replication_factor (or "
            "allocate_tokens_for_keyspace, or initial_token): the node takes %s, and its "
            "ownership may be far from its share",
            num_tokens, num_tokens == 1 ? "a random token" : "random tokens");
    const struct conf_entry *ab = conf_get(&y, "auto_bootstrap");
    if (idx < 0 && dc && !mydc && !(ab && ab->value && strcasecmp(ab->value, "false") == 0))
        add(fs, SEV_WARNING, "cassandra.yaml",
            "auto_bootstrap is %s for a node of the new datacenter %s: a new datacenter's "
            "nodes start with auto_bootstrap: false, get added to the keyspaces' replication, "
            "then run nodetool rebuild -- <an existing datacenter>",
            ab && ab->value ? ab->value : "not set (true)", dc);
    if (idx >= 0 && (ninit || has_aks || has_arf))
        add(fs, SEV_OK, subj, "%s: read at bootstrap only; the node keeps its tokens",
            ninit ? "initial_token" : "the token allocation settings");
    const char *alloc_dc = idx >= 0 ? NULL : mydc ? mydc->name : dc;
    if (has_aks && !ninit) {
        size_t kidx;
        if (tokenring_cluster_find_keyspace(&kidx, ctx->cluster, aks->value) != TOKENRING_OK) {
            size_t k = tokenring_cluster_keyspace_count(ctx->cluster);
            const char **names = calloc(k + 1, sizeof *names);
            if (!names)
                die(EXIT_INTERNAL, "out of memory");
            for (size_t i = 0; i < k; i++)
                tokenring_cluster_keyspace(&names[i], NULL, ctx->cluster, i);
            char hint[320];
            did_you_mean(aks->value, names, k, hint, sizeof hint);
            free(names);
            add(fs, k ? SEV_ERROR : SEV_WARNING, "cassandra.yaml",
                "allocate_tokens_for_keyspace: %s is %s%s", aks->value,
                k ? "not a keyspace of the input: the bootstrap fails if the cluster has none "
                    "of that name"
                  : "not checked: the input defines no keyspace",
                hint);
        } else if (alloc_dc) {
            const tokenring_replication *r;
            tokenring_cluster_keyspace(NULL, &r, ctx->cluster, kidx);
            int32_t rf = 0;
            tokenring_replication_dc_factor(&rf, NULL, r, alloc_dc);
            if (rf == 0)
                add(fs, SEV_ERROR, "cassandra.yaml",
                    "allocate_tokens_for_keyspace: %s places no replica in %s: the allocator "
                    "has no factor to balance for; name a keyspace replicated there, or set "
                    "allocate_tokens_for_local_replication_factor",
                    aks->value, alloc_dc);
            else
                add(fs, SEV_OK, "cassandra.yaml",
                    "allocate_tokens_for_keyspace: %s, factor %d in %s", aks->value, rf,
                    alloc_dc);
        }
    }
    if (has_arf && !has_aks && !ninit) {
        char *end;
        long rf = strtol(arf->value, &end, 10);
        if (*end || rf < 1) {
            add(fs, SEV_ERROR, "cassandra.yaml",
                "allocate_tokens_for_local_replication_factor %s (line %u): expected a "
                "number from 1",
                arf->value, arf->line);
        } else if (alloc_dc) {
            size_t k = tokenring_cluster_keyspace_count(ctx->cluster);
            strbuf other = { 0 };
            size_t nother = 0, nsame = 0;
            for (size_t i = 0; i < k; i++) {
                const char *name;
                const tokenring_replication *r;
                tokenring_cluster_keyspace(&name, &r, ctx->cluster, i);
                int32_t f = 0;
                tokenring_replication_dc_factor(&f, NULL, r, alloc_dc);
                if (f == 0)
                    continue;
                if (f == rf) {
                    nsame++;
                } else {
                    sb_printf(&other, "%s%s %d", nother ? ", " : "", name, f);
                    nother++;
                }
            }
            if (nother)
                add(fs, nsame ? SEV_WARNING : SEV_ERROR, "cassandra.yaml",
                    "allocate_tokens_for_local_replication_factor %ld, but in %s %s %s: the "
                    "allocator balances ownership for factor %ld, so %s",
                    rf, alloc_dc, nother == 1 ? "keyspace" : "keyspaces", other.p, rf,
                    nsame ? "those keyspaces are balanced less well"
                          : "no keyspace's ownership is what it balanced");
            else if (nsame)
                add(fs, SEV_OK, "cassandra.yaml",
                    "allocate_tokens_for_local_replication_factor %ld: the factor of every "
                    "keyspace replicated in %s",
                    rf, alloc_dc);
            else
                add(fs, SEV_WARNING, "cassandra.yaml",
                    "allocate_tokens_for_local_replication_factor %ld: no keyspace of the "
                    "input is replicated in %s, nothing to compare with",
                    rf, alloc_dc);
            free(other.p);
            if (mydc && mydc->nracks > 1 && mydc->nracks < (size_t)rf && rack &&
                find_rack(mydc, rack))
                add(fs, SEV_ERROR, subj,
                    "%s has %zu racks, fewer than the factor %ld: Cassandra's allocator "
                    "refuses the bootstrap (\"the number of racks %zu in datacenter %s is "
                    "lower than its replication factor %ld\")",
                    mydc->name, mydc->nracks, rf, mydc->nracks, mydc->name, rf);
        }
    }
done:
    conf_free(&y);
    conf_free(&p);
}

/* ------------------------------------------------------------------ output */

static const char *sev_word(enum sev s)
{
    return s == SEV_ERROR ? "error" : s == SEV_WARNING ? "warning" : "ok";
}

static int cmp_rack(const void *a, const void *b)
{
    return strcmp(((const struct rack *)a)->name, ((const struct rack *)b)->name);
}

/* check [KEYSPACE...] [--yaml FILE] [--rackdc FILE] [--node NAME] */
TOOL_COMMAND(cmd_check)
{
    for (size_t a = 0; a < ctx->opt.nargs; a++)
        find_keyspace(ctx, ctx->opt.args[a]); /* an unknown one is a usage error */
    if (ctx->opt.node && !ctx->opt.yaml && !ctx->opt.rackdc)
        die(EXIT_USAGE, "check: --node NAME names the node whose --yaml cassandra.yaml and "
                        "--rackdc cassandra-rackdc.properties to check: give them");
    size_t n = tokenring_cluster_node_count(ctx->cluster), ndc;
    const char **names = cluster_dcs(ctx, &ndc);
    struct dc *dcs = calloc(ndc ? ndc : 1, sizeof *dcs);
    if (!dcs)
        die(EXIT_INTERNAL, "out of memory");
    for (size_t d = 0; d < ndc; d++)
        dcs[d].name = names[d];
    for (size_t i = 0; i < n; i++) {
        tokenring_cluster_node_info a;
        tokenring_cluster_node(&a, ctx->cluster, i);
        struct dc *d = find_dc(dcs, ndc, a.datacenter);
        if (a.state == TOKENRING_STATE_JOINING) {
            d->joining++;
            continue;
        }
        d->nodes++;
        struct rack *r = find_rack(d, a.rack);
        if (!r) {
            if (d->nracks == sizeof d->racks / sizeof *d->racks)
                die(EXIT_INPUT, "check: datacenter %s has more than 256 racks", d->name);
            r = &d->racks[d->nracks++];
            r->name = a.rack;
        }
        r->nodes++;
    }
    for (size_t d = 0; d < ndc; d++)
        qsort(dcs[d].racks, dcs[d].nracks, sizeof *dcs[d].racks, cmp_rack);
    struct findings fs = { 0 };
    if (ctx->demo)
        add(&fs, SEV_WARNING, "input", "none given: this is the built-in demo ring");
    check_layout(ctx, &fs, dcs, ndc);
    check_keyspaces(ctx, &fs, dcs, ndc);
    check_owns(ctx, &fs);
    if (ctx->opt.yaml || ctx->opt.rackdc)
        check_node(ctx, &fs, dcs, ndc);
    size_t count[3] = { 0, 0, 0 };
    for (size_t i = 0; i < fs.n; i++)
        count[fs.f[i].sev]++;
    if (ctx->opt.json) {
        sb_puts(&ctx->out, "{\"findings\": [");
        for (size_t i = 0; i < fs.n; i++) {
            sb_printf(&ctx->out, "%s{\"severity\": \"%s\", \"subject\": ", i ? ",\n " : "\n ",
                      sev_word(fs.f[i].sev));
            sb_json_str(&ctx->out, fs.f[i].subject);
            sb_puts(&ctx->out, ", \"message\": ");
            sb_json_str(&ctx->out, fs.f[i].text);
            sb_puts(&ctx->out, "}");
        }
        sb_printf(&ctx->out, "],\n \"errors\": %zu, \"warnings\": %zu, \"ok\": %zu}\n",
                  count[SEV_ERROR], count[SEV_WARNING], count[SEV_OK]);
    } else {
        for (size_t i = 0; i < fs.n; i++)
            sb_printf(&ctx->out, "%s: %s: %s\n", sev_word(fs.f[i].sev), fs.f[i].subject,
                      fs.f[i].text);
        sb_printf(&ctx->out, "%zu error%s, %zu warning%s, %zu ok\n", count[SEV_ERROR],
                  count[SEV_ERROR] == 1 ? "" : "s", count[SEV_WARNING],
                  count[SEV_WARNING] == 1 ? "" : "s", count[SEV_OK]);
    }
    ctx->exit_code = count[SEV_ERROR] ? EXIT_CHECK_ERRORS
                     : count[SEV_WARNING] ? EXIT_CHECK_WARNINGS
                                          : EXIT_OK;
    for (size_t i = 0; i < fs.n; i++) {
        free(fs.f[i].subject);
        free(fs.f[i].text);
    }
    free(fs.f);
    free(dcs);
    free(names);
}
