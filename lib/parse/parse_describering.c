/* SPDX-License-Identifier: Apache-2.0 */
/* Reader of `nodetool describering <keyspace>` (Cassandra 2.0 .. 5.0):
 *
 *   Schema Version:<uuid>
 *   TokenRange:
 *       TokenRange(start_token:S, end_token:E, endpoints:[a, b], rpc_endpoints:[a, b],
 *                  endpoint_details:[EndpointDetails(host:a, datacenter:d, rack:r), ...])
 *
 * (one range per line). Cassandra prints, for every range (S, E] of the ring, the natural
 * replicas of E in placement order (StorageService.describeRing ->
 * strategy.getNaturalReplicas(range.right); TokenRange.toString). Both strategies walk
 * the ring from E, and a walk's first replica is the first node it meets in a datacenter
 * that has replicas: the node owning E whenever the keyspace has replicas in that node's
 * datacenter. So the listing gives a topology when it names every node: E belongs to the
 * first endpoint of its range. The reader checks what it can: the ranges tile the ring,
 * each endpoint has a datacenter and rack, every node named owns some range end (else the
 * first endpoint is not the owner), and the replica sets Cassandra's placement gives for
 * the tokens so read (NetworkTopologyStrategy with the per-datacenter counts listed, or
 * SimpleStrategy) are the listed ones. What it cannot see: nodes of a datacenter in which
 * the keyspace has no replica appear nowhere, and the ranges ending at their tokens name
 * the next replica first (doc/topology-format.md says so). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_formats.h"

struct dr_range {
    int64_t start, end;
    uint32_t line, col;      /* position of the range, for messages */
    uint32_t ep_off, ep_n;   /* endpoints: eps[ep_off .. ep_off + ep_n) (node indices) */
};

struct dr {
    tokenring_cluster *cl;
    /* Other partitioners: tokens are read into keys (sorted, distinct) and the ranges
     * hold their ranks, so the ring logic below runs on int64 values in ring order. */
    tokenring_partitioner part;
    bool collect;            /* first pass: gather the tokens into keys */
    tr_tok *keys;            /* ByteOrdered bytes owned here (tr_cl_tok_copy) */
    size_t nkeys, kcap;
    char tkb[6][TR_TOKEN_TEXT_MAX];
    unsigned tki;
    struct dr_range *r;
    size_t n, cap;
    uint32_t *eps;
    size_t neps, epcap;
    tokenring_error *err;
};

static void dr_free(struct dr *d)
{
    tr_free(d->r);
    tr_free(d->eps);
    for (size_t i = 0; i < d->nkeys; i++)
        tr_cl_tok_free(&d->keys[i]);
    tr_free(d->keys);
}

/* A range bound for messages: the token itself (a rank's token on other partitioners). */
static const char *tk(struct dr *d, int64_t v)
{
    char *b = d->tkb[d->tki++ % 6];
    if (d->part == TOKENRING_PARTITIONER_MURMUR3 || v < 0 || (uint64_t)v >= d->nkeys) {
        snprintf(b, TR_TOKEN_TEXT_MAX, "%lld", (long long)v);
        return b;
    }
    struct tr_cnode fake;
    memset(&fake, 0, sizeof fake);
    fake.vtok = &d->keys[v];
    tokenring_cluster c;
    memset(&c, 0, sizeof c);
    c.partitioner = d->part;
    return tr_cl_token_text(&c, &fake, 0, b);
}

/* ------------------------------------------------------------ line lexing */

typedef struct cur {
    const char *s;
    size_t n, i;
    uint32_t line;
} cur;

static void cur_ws(cur *c)
{
    while (c->i < c->n && (c->s[c->i] == ' ' || c->s[c->i] == '\t'))
        c->i++;
}

static bool cur_lit(cur *c, const char *lit)
{
    size_t k = strlen(lit);
    if (c->n - c->i >= k && memcmp(c->s + c->i, lit, k) == 0) {
        c->i += k;
        return true;
    }
    return false;
}

static int expect(cur *c, const char *lit, tokenring_error *err)
{
    cur_ws(c);
    if (cur_lit(c, lit))
        return TOKENRING_OK;
    size_t rest = c->n - c->i;
    return tr_fail_at(err, TOKENRING_E_PARSE, c->line, (uint32_t)c->i + 1,
                      "expected '%s' (nodetool describering range), found '%.*s'", lit,
                      (int)(rest > 30 ? 30 : rest), c->s + c->i);
}

/* ", lit" or lit: DSE's TokenRange.toString appends "endpoints:", "rpc_endpoints:" and
 * "endpoint_details:" without the ", " Apache Cassandra's releases put before them (so the
 * end token runs into "endpoints:"); operators report 4.0 alpha builds printing the same. */
static int expect_field(cur *c, const char *lit, tokenring_error *err)
{
    cur_ws(c);
    cur_lit(c, ",");
    return expect(c, lit, err);
}

/* The end of the end token: where "endpoints:" starts when nothing separates them (a
 * token holds no ':', so the first "endpoints:" is the field), else the line's end. */
static size_t end_token_limit(const cur *c)
{
    for (size_t i = c->i; i + 10 <= c->n; i++)
        if (memcmp(c->s + i, "endpoints:", 10) == 0)
            return i;
    return c->n;
}

/* A value up to (not including) any byte of stop; at least one byte. */
static int value(cur *c, const char *stop, const char *what, const char **v, size_t *vn,
                 tokenring_error *err)
{
    cur_ws(c);
    size_t start = c->i;
    while (c->i < c->n && !strchr(stop, c->s[c->i]))
        c->i++;
    size_t end = c->i;
    while (end > start && (c->s[end - 1] == ' ' || c->s[end - 1] == '\t'))
        end--;
    if (end == start)
        return tr_fail_at(err, TOKENRING_E_PARSE, c->line, (uint32_t)start + 1,
                          "expected %s", what);
    *v = c->s + start;
    *vn = end - start;
    return TOKENRING_OK;
}

static int token_value(struct dr *d, cur *c, const char *what, int64_t *out,
                       tokenring_error *err)
{
    const char *v;
    size_t vn;
    int rc = value(c, ",)", what, &v, &vn, err);
    if (rc != TOKENRING_OK)
        return rc;
    uint32_t col = (uint32_t)(v - c->s) + 1;
    if (d->part == TOKENRING_PARTITIONER_MURMUR3) {
        rc = tr_parse_i64(v, vn, out);
        if (rc == TOKENRING_OK)
            return TOKENRING_OK;
        d->cl->token_text_failed = true;
        if (rc == TOKENRING_E_RANGE)
            return tr_fail_at(err, rc, c->line, col,
                              "token '%.*s' is outside -9223372036854775808.."
                              "9223372036854775807",
                              (int)(vn > 40 ? 40 : vn), v);
        return tr_fail_at(err, TOKENRING_E_PARSE, c->line, col,
                          "expected %s (a signed 64-bit integer), found '%.*s'", what,
                          (int)(vn > 40 ? 40 : vn), v);
    }
    uint8_t *b = tr_malloc(TR_TOK_PARSE_ROOM(vn));
    if (!b)
        return tr_cl_fail_nomem(err);
    tr_tok key;
    rc = tr_cl_read_token(d->cl, d->part, v, vn, c->line, col, &key, b, err);
    if (rc != TOKENRING_OK) {
        tr_free(b);
        return rc;
    }
    if (d->collect) {
        if (d->nkeys == d->kcap) {
            size_t ncap = d->kcap ? d->kcap * 2 : 64;
            tr_tok *k = tr_reallocarray(d->keys, ncap, sizeof *k);
            if (!k) {
                tr_free(b);
                return tr_cl_fail_nomem(err);
            }
            d->keys = k;
            d->kcap = ncap;
        }
        rc = tr_cl_tok_copy(&d->keys[d->nkeys], &key);
        tr_free(b);
        if (rc != TOKENRING_OK)
            return tr_cl_fail_nomem(err);
        d->nkeys++;
        *out = 0;
        return TOKENRING_OK;
    }
    const tr_tok *hit = bsearch(&key, d->keys, d->nkeys, sizeof key, tr_tok_qsort_cmp);
    tr_free(b);
    if (!hit) /* cannot happen: the first pass read the same text */
        return tr_fail_at(err, TOKENRING_E_PARSE, c->line, col, "token changed between passes");
    *out = (int64_t)(hit - d->keys);
    return TOKENRING_OK;
}

/* "[a, b, c]": the words, kept as (offset, length) into the line. */
#define MAX_EPS 1024
struct span {
    const char *s;
    size_t n;
    uint32_t col;
};

static int list(cur *c, struct span *out, size_t *count, tokenring_error *err)
{
    int rc = expect(c, "[", err);
    if (rc != TOKENRING_OK)
        return rc;
    *count = 0;
    cur_ws(c);
    if (cur_lit(c, "]"))
        return TOKENRING_OK;
    for (;;) {
        const char *v;
        size_t vn;
        if ((rc = value(c, ",]", "an address", &v, &vn, err)) != TOKENRING_OK)
            return rc;
        if (*count == MAX_EPS)
            return tr_fail_at(err, TOKENRING_E_RANGE, c->line, (uint32_t)(v - c->s) + 1,
                              "more than %d endpoints in one range", MAX_EPS);
        out[*count].s = v;
        out[*count].n = vn;
        out[*count].col = (uint32_t)(v - c->s) + 1;
        (*count)++;
        if (c->i >= c->n)
            return tr_fail_at(err, TOKENRING_E_PARSE, c->line, (uint32_t)c->i + 1,
                              "expected ',' or ']' (the list is cut short)");
        if (c->s[c->i++] == ']')
            return TOKENRING_OK;
    }
}

static int add_range(struct dr *d, int64_t start, int64_t end, uint32_t line, uint32_t col,
                     const uint32_t *eps, size_t n)
{
    if (d->n == d->cap) {
        size_t ncap = d->cap ? d->cap * 2 : 64;
        struct dr_range *q = tr_reallocarray(d->r, ncap, sizeof *q);
        if (!q)
            return tr_cl_fail_nomem(d->err);
        d->r = q;
        d->cap = ncap;
    }
    if (d->neps + n > d->epcap) {
        size_t ncap = d->epcap ? d->epcap : 256;
        while (ncap < d->neps + n)
            ncap *= 2;
        uint32_t *q = tr_reallocarray(d->eps, ncap, sizeof *q);
        if (!q)
            return tr_cl_fail_nomem(d->err);
        d->eps = q;
        d->epcap = ncap;
    }
    memcpy(d->eps + d->neps, eps, n * sizeof *eps);
    d->r[d->n] = (struct dr_range){ start, end, line, col, (uint32_t)d->neps, (uint32_t)n };
    d->neps += n;
    d->n++;
    return TOKENRING_OK;
}

/* One "TokenRange(...)" line starting at c->i. */
static int range_line(struct dr *d, cur *c, struct span *hosts, uint32_t *idx)
{
    tokenring_error *err = d->err;
    uint32_t col = (uint32_t)c->i + 1;
    int64_t start, end;
    size_t nh, nrpc;
    int rc;
    if ((rc = expect(c, "TokenRange(", err)) || (rc = expect(c, "start_token:", err)) ||
        (rc = token_value(d, c, "the start token", &start, err)) ||
        (rc = expect(c, ",", err)) || (rc = expect(c, "end_token:", err)))
        return rc;
    size_t line_end = c->n;
    c->n = end_token_limit(c);
    rc = token_value(d, c, "the end token", &end, err);
    c->n = line_end;
    if (rc != TOKENRING_OK)
        return rc;
    if (d->collect)
        return TOKENRING_OK; /* the first pass reads the tokens only */
    if ((rc = expect_field(c, "endpoints:", err)) || (rc = list(c, hosts, &nh, err)) ||
        (rc = expect_field(c, "rpc_endpoints:", err)))
        return rc;
    /* rpc (native) addresses are not part of the topology; only their number is checked */
    if ((rc = list(c, hosts + nh, &nrpc, err)) != TOKENRING_OK)
        return rc;
    if (nrpc != nh)
        return tr_fail_at(err, TOKENRING_E_PARSE, c->line, col,
                          "range (%s, %s]: %zu endpoints but %zu rpc_endpoints",
                          tk(d, start), tk(d, end), nh, nrpc);
    if ((rc = expect_field(c, "endpoint_details:", err)) || (rc = expect(c, "[", err)))
        return rc;
    if (nh == 0)
        return tr_fail_at(err, TOKENRING_E_PARSE, c->line, col,
                          "range (%s, %s] has no endpoint: the keyspace has no replica "
                          "there, so nothing says which node owns %s (describe a keyspace "
                          "with replicas in every datacenter)",
                          tk(d, start), tk(d, end), tk(d, end));
    for (size_t k = 0; k < nh; k++) {
        const char *h, *dc = NULL, *rack = NULL;
        size_t hn, dcn = 0, rackn = 0;
        if (k > 0 && (rc = expect(c, ",", err)) != TOKENRING_OK)
            return rc;
        if ((rc = expect(c, "EndpointDetails(", err)) || (rc = expect(c, "host:", err)) ||
            (rc = value(c, ",)", "a host address", &h, &hn, err)))
            return rc;
        uint32_t hcol = (uint32_t)(h - c->s) + 1;
        if (hn != hosts[k].n || memcmp(h, hosts[k].s, hn) != 0)
            return tr_fail_at(err, TOKENRING_E_PARSE, c->line, hcol,
                              "range (%s, %s]: endpoint_details lists %.*s where "
                              "endpoints lists %.*s (expected the same hosts in the same "
                              "order)", tk(d, start), tk(d, end), (int)hn, h,
                              (int)hosts[k].n, hosts[k].s);
        cur_ws(c);
        if (cur_lit(c, ",") && (cur_ws(c), cur_lit(c, "datacenter:"))) {
            if ((rc = value(c, ",)", "a datacenter name", &dc, &dcn, err)) != TOKENRING_OK)
                return rc;
            cur_ws(c);
            if (cur_lit(c, ",") && (cur_ws(c), cur_lit(c, "rack:"))) {
                cur_ws(c);
                if (c->i < c->n && c->s[c->i] == ')') {
                    /* ", rack:)": the rack "" (TokenRange.EndpointDetails prints
                     * ", rack:%s" for any non-null rack) */
                    rack = c->s + c->i;
                    rackn = 0;
                } else if ((rc = value(c, ")", "a rack name", &rack, &rackn, err)) !=
                           TOKENRING_OK) {
                    return rc;
                }
            }
        }
        if (!dc || !rack)
            return tr_fail_at(err, TOKENRING_E_PARSE, c->line, hcol,
                              "range (%s, %s]: endpoint %.*s has no %s (the snitch "
                              "gave none), so the node cannot be placed",
                              tk(d, start), tk(d, end), (int)hn, h,
                              dc ? "rack" : "datacenter");
        if ((rc = expect(c, ")", err)) != TOKENRING_OK)
            return rc;
        size_t ni;
        rc = tr_cl_node(d->cl, h, hn, dc, dcn, rack, rackn, c->line, hcol,
                        (uint32_t)(dc - c->s) + 1, (uint32_t)(rack - c->s) + 1, &ni, NULL,
                        err);
        if (rc != TOKENRING_OK)
            return rc;
        for (size_t j = 0; j < k; j++)
            if (idx[j] == (uint32_t)ni)
                return tr_fail_at(err, TOKENRING_E_PARSE, c->line, hcol,
                                  "range (%s, %s] names endpoint %.*s twice",
                                  tk(d, start), tk(d, end), (int)hn, h);
        idx[k] = (uint32_t)ni;
    }
    if ((rc = expect(c, "]", err)) || (rc = expect(c, ")", err)))
        return rc;
    cur_ws(c);
    if (c->i < c->n)
        return tr_fail_at(err, TOKENRING_E_PARSE, c->line, (uint32_t)c->i + 1,
                          "unexpected text after the range");
    return add_range(d, start, end, c->line, col, idx, nh);
}

/* ------------------------------------------------------------- the checks */

static int cmp_range_end(const void *a, const void *b)
{
    const struct dr_range *x = a, *y = b;
    return x->end < y->end ? -1 : x->end > y->end;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Sorted by end: ends distinct, and each range starts where the one before it ends (the
 * first where the last ends). Returns 1 when a gap was accepted (partial input). */
static int check_tiling(struct dr *d, uint32_t flags, bool *gap)
{
    tokenring_error *err = d->err;
    qsort(d->r, d->n, sizeof *d->r, cmp_range_end);
    for (size_t i = 1; i < d->n; i++)
        if (d->r[i].end == d->r[i - 1].end) {
            const struct dr_range *a = &d->r[i - 1], *b = &d->r[i];
            if (a->line > b->line)
                a = b, b = &d->r[i - 1];
            return tr_fail_at(err, TOKENRING_E_EXISTS, b->line, b->col,
                              "a second range ending at %s (the first is on line %u)",
                              tk(d, b->end), (unsigned)a->line);
        }
    *gap = false;
    for (size_t i = 0; i < d->n; i++) {
        const struct dr_range *r = &d->r[i];
        int64_t prev = d->r[i == 0 ? d->n - 1 : i - 1].end;
        if (r->start == prev)
            continue;
        if (flags & TOKENRING_PARSE_ALLOW_PARTIAL) {
            *gap = true;
            continue;
        }
        /* Is the start some other range's end (then the ranges overlap) or none (then the
         * range ending at the start is missing)? */
        const struct dr_range key = { .end = r->start };
        const struct dr_range *hit = bsearch(&key, d->r, d->n, sizeof *d->r, cmp_range_end);
        if (hit && hit != r)
            return tr_fail_at(err, TOKENRING_E_PARSE, r->line, r->col,
                              "range (%s, %s] overlaps the range ending at %s (line "
                              "%u): the ranges come from different rings",
                              tk(d, r->start), tk(d, r->end), tk(d, prev),
                              (unsigned)d->r[i == 0 ? d->n - 1 : i - 1].line);
        return tr_fail_at(err, TOKENRING_E_PARSE, r->line, r->col,
                          "range (%s, %s] starts at %s, but no range ends there: the "
                          "ranges between %s and %s are missing (an incomplete listing; "
                          "allow partial input to accept it)",
                          tk(d, r->start), tk(d, r->end), tk(d, r->start),
                          tk(d, prev), tk(d, r->start));
    }
    return TOKENRING_OK;
}

/* Writes "a, b, c" for a replica list of staging node indices (cut at cap). */
static void names(char *buf, size_t cap, const tokenring_cluster *cl, const uint32_t *idx,
                  size_t n)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < n && o + 1 < cap; k++) {
        const char *s = cl->nodes[idx[k]].name;
        size_t sl = strlen(s);
        if (k) {
            buf[o++] = ',';
            if (o + 1 < cap)
                buf[o++] = ' ';
        }
        if (o + sl + 1 > cap)
            sl = cap - o - 1;
        memcpy(buf + o, s, sl);
        o += sl;
        buf[o] = '\0';
    }
}

/* Replicas of every range under repl on the topology just read, compared with the listed
 * ones: in order when strict, else as sets. (The order differs between Cassandra < 3.2 and
 * later when a datacenter has more than one rack but fewer racks than replicas,
 * CASSANDRA-10200; the first replica, the owner, never does.) On a mismatch *bad is the
 * first range that differs and want its computed replicas. */
static int verify(struct dr *d, const tokenring_ring *ring, const uint32_t *to_ring,
                  const uint32_t *from_ring, const tokenring_replication *repl, bool strict,
                  size_t *bad, uint32_t *want, size_t *nwant)
{
    tokenring_placement *p = NULL;
    int rc = tokenring_placement_build(&p, ring, repl, 0, NULL);
    if (rc != TOKENRING_OK)
        return rc == TOKENRING_E_NOMEM ? tr_cl_fail_nomem(d->err) : rc;
    uint32_t a[MAX_EPS], b[MAX_EPS];
    *bad = d->n;
    for (size_t i = 0; i < d->n && *bad == d->n; i++) {
        const struct dr_range *r = &d->r[i];
        tokenring_replicas rep;
        tokenring_placement_replicas(&rep, p, r->end);
        bool same = rep.count == r->ep_n && rep.count > 0 &&
                    rep.nodes[0] == to_ring[d->eps[r->ep_off]];
        if (same) {
            for (uint32_t k = 0; k < rep.count; k++) {
                a[k] = rep.nodes[k];
                b[k] = to_ring[d->eps[r->ep_off + k]];
            }
            if (!strict) {
                qsort(a, rep.count, sizeof *a, cmp_u32);
                qsort(b, rep.count, sizeof *b, cmp_u32);
            }
            same = memcmp(a, b, rep.count * sizeof *a) == 0;
        }
        if (!same) {
            *bad = i;
            *nwant = rep.count > MAX_EPS ? MAX_EPS : rep.count;
            for (size_t k = 0; k < *nwant; k++)
                want[k] = from_ring[rep.nodes[k]];
        }
    }
    tokenring_placement_free(p);
    return TOKENRING_OK;
}

/* Node tokens are in the staging cluster; build the ring, infer the replication and
 * compare. */
static int check_placement(struct dr *d)
{
    tokenring_cluster *cl = d->cl;
    tokenring_error *err = d->err;
    tokenring_topology *t = NULL;
    tokenring_ring *ring = NULL;
    tokenring_replication *nts = NULL, *simple = NULL;
    uint32_t *to_ring = tr_reallocarray(NULL, cl->n * 2 + 1, sizeof *to_ring);
    uint32_t *want = tr_reallocarray(NULL, 2 * MAX_EPS, sizeof *want);
    size_t *dc_rf = tr_reallocarray(NULL, cl->n + 1, sizeof *dc_rf);
    size_t *dc_of = tr_reallocarray(NULL, cl->n + 1, sizeof *dc_of);
    size_t *cnt = tr_reallocarray(NULL, cl->n + 1, sizeof *cnt);
    size_t *per = tr_reallocarray(NULL, cl->n + 1, sizeof *per);
    int rc = TOKENRING_OK;
    if (!to_ring || !want || !dc_rf || !dc_of || !cnt || !per) {
        rc = tr_cl_fail_nomem(err);
        goto out;
    }
    uint32_t *from_ring = to_ring + cl->n;
    if ((rc = tokenring_topology_new(&t)) != TOKENRING_OK) {
        rc = tr_cl_fail_nomem(err);
        goto out;
    }
    for (size_t i = 0; i < cl->n; i++) {
        const struct tr_cnode *nd = &cl->nodes[i];
        rc = tokenring_topology_add_node(t, nd->name, nd->dc, nd->rack, nd->tokens, nd->ntok,
                                         err);
        if (rc != TOKENRING_OK)
            goto out;
    }
    if ((rc = tokenring_ring_build(&ring, t, err)) != TOKENRING_OK)
        goto out;
    for (size_t i = 0; i < cl->n; i++) {
        uint32_t ri;
        tokenring_ring_find_node(&ri, ring, cl->nodes[i].name);
        to_ring[i] = ri;
        from_ring[ri] = (uint32_t)i;
    }
    /* datacenters (first-seen order) and the most replicas any range has in each */
    size_t ndc = 0;
    for (size_t i = 0; i < cl->n; i++) {
        size_t k = 0;
        while (k < ndc && strcmp(cl->nodes[dc_of[k]].dc, cl->nodes[i].dc) != 0)
            k++;
        if (k == ndc) {
            dc_of[ndc] = i; /* representative node, then reused below */
            dc_rf[ndc++] = 0;
        }
    }
    size_t *node_dc = cnt; /* reuse: node -> dc index */
    for (size_t i = 0; i < cl->n; i++)
        for (size_t k = 0; k < ndc; k++)
            if (strcmp(cl->nodes[dc_of[k]].dc, cl->nodes[i].dc) == 0)
                node_dc[i] = k;
    bool same_total = true;
    memset(per, 0, (cl->n + 1) * sizeof *per);
    for (size_t i = 0; i < d->n; i++) {
        const struct dr_range *r = &d->r[i];
        for (uint32_t k = 0; k < r->ep_n; k++) {
            size_t dk = node_dc[d->eps[r->ep_off + k]];
            if (++per[dk] > dc_rf[dk])
                dc_rf[dk] = per[dk];
        }
        for (uint32_t k = 0; k < r->ep_n; k++)
            per[node_dc[d->eps[r->ep_off + k]]] = 0;
        if (r->ep_n != d->r[0].ep_n)
            same_total = false;
    }
    /* racks per datacenter: the replica order is version-independent when every
     * datacenter has one rack or at least as many racks as replicas */
    bool strict = true;
    for (size_t k = 0; k < ndc; k++) {
        size_t racks = 0;
        for (size_t i = 0; i < cl->n; i++) {
            if (node_dc[i] != k)
                continue;
            size_t j = 0;
            while (j < i && (node_dc[j] != k || strcmp(cl->nodes[j].rack, cl->nodes[i].rack)))
                j++;
            racks += j == i;
        }
        if (racks > 1 && racks < dc_rf[k])
            strict = false;
    }
    if ((rc = tokenring_replication_network(&nts)) != TOKENRING_OK) {
        rc = tr_cl_fail_nomem(err);
        goto out;
    }
    for (size_t k = 0; k < ndc && rc == TOKENRING_OK; k++)
        rc = tokenring_replication_set_dc(nts, cl->nodes[dc_of[k]].dc, (int32_t)dc_rf[k], 0,
                                          err);
    if (rc != TOKENRING_OK)
        goto out;
    size_t bad, nwant, bad2, nwant2;
    if ((rc = verify(d, ring, to_ring, from_ring, nts, strict, &bad, want, &nwant)) != TOKENRING_OK)
        goto out;
    if (bad != d->n && same_total && d->r[0].ep_n <= TOKENRING_MAX_REPLICATION_FACTOR) {
        /* SimpleStrategy: same replica count everywhere, datacenters ignored */
        if ((rc = tokenring_replication_simple(&simple, (int32_t)d->r[0].ep_n, 0, err)) !=
            TOKENRING_OK)
            goto out;
        if ((rc = verify(d, ring, to_ring, from_ring, simple, true, &bad2, want + MAX_EPS,
                         &nwant2)) != TOKENRING_OK)
            goto out;
        if (bad2 == d->n)
            bad = d->n; /* SimpleStrategy explains every range; the report stays NTS's */
    }
    if (bad != d->n) {
        const struct dr_range *r = &d->r[bad];
        char got[160], exp[160], rbuf[96];
        size_t o = 0;
        rbuf[0] = '\0';
        for (size_t k = 0; k < ndc && o + 1 < sizeof rbuf; k++) {
            int w = snprintf(rbuf + o, sizeof rbuf - o, "%s%s=%zu", k ? "," : "",
                             cl->nodes[dc_of[k]].dc, dc_rf[k]);
            o = w < 0 ? sizeof rbuf : o + (size_t)w;
        }
        const uint32_t *ep = d->eps + r->ep_off;
        names(got, sizeof got, cl, ep, r->ep_n);
        names(exp, sizeof exp, cl, want, nwant);
        /* the first replica out of Cassandra's order, and whether only the order differs */
        size_t k = 0, same = 0;
        while (k < r->ep_n && k < nwant && ep[k] == want[k])
            k++;
        for (size_t a = 0; a < r->ep_n && r->ep_n == nwant; a++)
            for (size_t b = 0; b < nwant; b++)
                same += ep[a] == want[b];
        if (k == 0 || k >= r->ep_n || k >= nwant)
            rc = tr_fail_at(err, TOKENRING_E_PARSE, r->line, r->col,
                            "range (%s, %s]: endpoints [%s] do not fit the tokens read "
                            "(NetworkTopologyStrategy %s gives [%s]): the first endpoint is "
                            "not the owner",
                            tk(d, r->start), tk(d, r->end), got, rbuf, exp);
        else
            rc = tr_fail_at(err, TOKENRING_E_PARSE, r->line, r->col,
                            "range (%s, %s]: replica %zu is %s where Cassandra's order "
                            "(NetworkTopologyStrategy %s) puts %s (expected [%s]%s)",
                            tk(d, r->start), tk(d, r->end), k + 1, cl->nodes[ep[k]].name,
                            rbuf, cl->nodes[want[k]].name, exp,
                            same == nwant ? ": same replicas, other order" : "");
    }
out:
    tokenring_replication_free(nts);
    tokenring_replication_free(simple);
    tokenring_ring_free(ring);
    tokenring_topology_free(t);
    tr_free(to_ring);
    tr_free(want);
    tr_free(dc_rf);
    tr_free(dc_of);
    tr_free(cnt);
    tr_free(per);
    return rc;
}

/* --------------------------------------------------------------- the reader */

/* The lines: fills d's ranges (or, in the collect pass, d's keys). */
static int read_lines(struct dr *d, const char *text, size_t len, uint32_t flags,
                      struct span *hosts, uint32_t *idx, bool *elided_out)
{
    tokenring_error *err = d->err;
    int rc = TOKENRING_OK;
    tr_lines ls;
    tr_lines_init(&ls, text, len);
    const char *line;
    size_t n;
    bool schema = false, header = false, elided = false;
    size_t lines = 0;
    while (tr_lines_next(&ls, &line, &n)) {
        if (tr_is_blank(line, n))
            continue;
        cur c = { line, n, 0, ls.lineno };
        cur_ws(&c);
        const char *t = line + c.i;
        size_t tn = n - c.i;
        if (tr_starts_with(t, tn, "Schema Version:")) {
            if (schema || header || d->n || lines)
                rc = tr_fail_at(err, TOKENRING_E_PARSE, c.line, (uint32_t)c.i + 1,
                                "a second 'Schema Version:' line: expected the output of "
                                "one nodetool describering");
            schema = true;
        } else if (tr_starts_with(t, tn, "TokenRange:") && tr_is_blank(t + 11, tn - 11)) {
            if (header || d->n || lines)
                rc = tr_fail_at(err, TOKENRING_E_PARSE, c.line, (uint32_t)c.i + 1,
                                "a second 'TokenRange:' header");
            header = true;
        } else if (tr_starts_with(t, tn, "TokenRange(")) {
            rc = range_line(d, &c, hosts, idx);
            lines++;
        } else if (tr_is_elision(t, tn)) {
            if (!(flags & TOKENRING_PARSE_ALLOW_PARTIAL))
                rc = tr_fail_at(err, TOKENRING_E_PARSE, c.line, (uint32_t)c.i + 1,
                                "elided listing ('...'): ranges are missing, so the tokens "
                                "are incomplete (allow partial input to accept it)");
            elided = true;
        } else {
            rc = tr_fail_at(err, TOKENRING_E_PARSE, c.line, (uint32_t)c.i + 1,
                            "expected 'Schema Version:', 'TokenRange:' or a "
                            "'TokenRange(start_token:..., end_token:..., endpoints:[...], "
                            "...)' line, found '%.*s'", (int)(tn > 30 ? 30 : tn), t);
        }
        if (rc != TOKENRING_OK)
            return rc;
    }
    if (lines == 0)
        return tr_fail_at(err, TOKENRING_E_PARSE, ls.lineno ? ls.lineno : 1, 1,
                          "nodetool describering output without any TokenRange(...) line");
    *elided_out = elided;
    return TOKENRING_OK;
}

/* Replaces each node's ranks by the tokens they stand for. */
static int ranks_to_tokens(struct dr *d)
{
    tokenring_cluster *cl = d->cl;
    for (size_t i = 0; i < cl->n; i++) {
        struct tr_cnode *nd = &cl->nodes[i];
        if (!nd->ntok)
            continue;
        tr_tok *v = tr_calloc(nd->tcap ? nd->tcap : 1, sizeof *v);
        if (!v)
            return tr_cl_fail_nomem(d->err);
        for (size_t j = 0; j < nd->ntok; j++) {
            if (tr_cl_tok_copy(&v[j], &d->keys[nd->tokens[j]]) != TOKENRING_OK) {
                for (size_t q = 0; q < j; q++)
                    tr_cl_tok_free(&v[q]);
                tr_free(v);
                return tr_cl_fail_nomem(d->err);
            }
        }
        tr_free(nd->tokens);
        nd->tokens = NULL;
        nd->vtok = v;
    }
    return TOKENRING_OK;
}

int tr_parse_describering_text(tokenring_cluster *cl, const char *text, size_t len,
                               uint32_t flags, tokenring_error *err)
{
    struct dr d = { .cl = cl, .err = err, .part = cl->partitioner };
    struct span *hosts = tr_reallocarray(NULL, 2 * MAX_EPS, sizeof *hosts);
    uint32_t *idx = tr_reallocarray(NULL, MAX_EPS, sizeof *idx);
    int rc = TOKENRING_OK;
    bool elided = false;
    if (!hosts || !idx) {
        rc = tr_cl_fail_nomem(err);
        goto out;
    }
    if (d.part != TOKENRING_PARTITIONER_MURMUR3) {
        /* first pass: the tokens, sorted and distinct; the second reads ranks */
        d.collect = true;
        if ((rc = read_lines(&d, text, len, flags, hosts, idx, &elided)) != TOKENRING_OK)
            goto out;
        d.collect = false;
        if (d.nkeys > 1) {
            qsort(d.keys, d.nkeys, sizeof *d.keys, tr_tok_qsort_cmp);
            size_t w = 1;
            for (size_t i = 1; i < d.nkeys; i++) {
                if (tr_tok_cmp(&d.keys[i], &d.keys[w - 1]) == 0)
                    tr_cl_tok_free(&d.keys[i]);
                else
                    d.keys[w++] = d.keys[i];
            }
            d.nkeys = w;
        }
        cl->partitioner = TOKENRING_PARTITIONER_MURMUR3; /* ranks, in ring order */
    }
    if ((rc = read_lines(&d, text, len, flags, hosts, idx, &elided)) != TOKENRING_OK)
        goto out;
    bool gap = false;
    if ((rc = check_tiling(&d, flags, &gap)) != TOKENRING_OK)
        goto out;
    /* the owner of each range end is its first endpoint */
    for (size_t i = 0; i < d.n && rc == TOKENRING_OK; i++)
        rc = tr_cl_add_token(cl, d.eps[d.r[i].ep_off], d.r[i].end, d.r[i].line, d.r[i].col,
                             err);
    if (rc != TOKENRING_OK)
        goto out;
    for (size_t k = 0; k < cl->n; k++) {
        if (cl->nodes[k].ntok)
            continue;
        /* named as a replica, first in no range: the order is not owner-first */
        for (size_t i = 0; i < d.n; i++)
            for (uint32_t j = 0; j < d.r[i].ep_n; j++)
                if (d.eps[d.r[i].ep_off + j] == k) {
                    rc = tr_fail_at(err, TOKENRING_E_PARSE, d.r[i].line, d.r[i].col,
                                    "node %s is a replica of range (%s, %s] but the "
                                    "first endpoint of no range: the endpoints do not name "
                                    "each range's owner first, so its tokens are unknown",
                                    cl->nodes[k].name, tk(&d, d.r[i].start),
                                    tk(&d, d.r[i].end));
                    goto out;
                }
    }
    if (gap || elided)
        cl->flags |= TOKENRING_CLUSTER_PARTIAL;
    else
        rc = check_placement(&d);
    if (rc == TOKENRING_OK && d.part != TOKENRING_PARTITIONER_MURMUR3)
        rc = ranks_to_tokens(&d);
out:
    cl->partitioner = d.part; /* on failure the staging cluster (ranks in tokens) is
                                 discarded */
    tr_free(hosts);
    tr_free(idx);
    dr_free(&d);
    return rc;
}
