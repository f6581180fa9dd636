/* SPDX-License-Identifier: Apache-2.0 */
/* check: the cluster's layout. Nodes per rack per datacenter, racks against each
 * keyspace's factor as NetworkTopologyStrategy places replicas, a factor larger than its
 * datacenter, mixed num_tokens, pasted Owns against the computed one (check.c collects
 * and prints the findings). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

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

void check_layout(tr_ctx *ctx, struct findings *fs, struct dc *dcs, size_t ndc)
{
    size_t n = tokenring_cluster_node_count(ctx->cluster);
    for (size_t d = 0; d < ndc; d++) {
        struct dc *dc = &dcs[d];
        strbuf racks = { 0 };
        rack_list(&racks, dc);
        size_t usual = check_usual_tokens(ctx, dc->name);
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
        check_add(fs, SEV_OK, dc->name, "%zu node%s in %zu rack%s (%s)%s%s", dc->nodes,
                  dc->nodes == 1 ? "" : "s", dc->nracks, dc->nracks == 1 ? "" : "s",
                  racks.p ? racks.p : "", joining, tokens);
        if (dc->nracks > 1 && !racks_equal(dc))
            check_add(fs, SEV_WARNING, dc->name,
                      "racks of unequal size (%s): NetworkTopologyStrategy spreads each range's "
                      "replicas over racks, not nodes, so the nodes of a smaller rack carry more "
                      "data and requests (the keyspace lines below say how much)",
                      racks.p);
        if (nodd)
            check_add(fs, SEV_WARNING, dc->name,
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
        size_t first = check_usual_tokens(ctx, dcs[0].name);
        for (size_t d = 0; d < ndc; d++) {
            size_t u = check_usual_tokens(ctx, dcs[d].name);
            sb_printf(&per, "%s%s %zu", d ? ", " : "", dcs[d].name, u);
            differ |= u != first;
        }
        if (differ)
            check_add(fs, SEV_OK, "cluster",
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
        check_add(fs, SEV_WARNING, subj, "factor %d, but the datacenter has no node yet: Cassandra "
                                        "places no replica there until one joins",
                  rf);
        return;
    }
    if ((size_t)rf > N) {
        if (q > N)
            check_add(fs, SEV_ERROR, subj,
                      "factor %d is larger than the datacenter's %zu node%s: every node holds "
                      "every range, and LOCAL_QUORUM (and QUORUM, EACH_QUORUM) can never succeed: "
                      "it needs %zu replicas of the configured %d; lower the factor to %zu or add "
                      "nodes",
                      rf, N, N == 1 ? "" : "s", q, rf, N);
        else
            check_add(fs, SEV_WARNING, subj,
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
            struct rack *rk = check_find_rack(dc, a.rack);
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
            check_add(fs, SEV_OK, subj, "factor 1: one replica of each range%s", load);
        else
            check_add(fs, SEV_OK, subj,
                      "factor %d on one rack: replicas on %d distinct nodes%s", rf, rf, load);
        return;
    }
    if (R < (size_t)rf) {
        size_t most = (size_t)rf - R + 1, biggest = 0;
        for (size_t r = 0; r < R; r++)
            biggest = dc->racks[r].nodes > biggest ? dc->racks[r].nodes : biggest;
        most = most < biggest ? most : biggest;
        bool quorum_lost = (size_t)rf - most < q;
        check_add(fs, SEV_WARNING, subj,
                  "%zu racks for factor %d: NetworkTopologyStrategy takes one replica per rack and "
                  "the remaining %zu from racks already used (the first met on the ring), so one "
                  "rack holds up to %zu replicas of a range%s and the extra replicas land "
                  "unevenly%s; Cassandra's token allocation (allocate_tokens_for_keyspace or "
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
            check_add(fs, SEV_OK, subj,
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
            check_add(fs, SEV_WARNING, subj,
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
    check_add(fs, uneven ? SEV_WARNING : SEV_OK, subj,
              "%zu racks for factor %d: each range's replicas are on %d distinct racks (the first "
              "met on the ring), so a rack's share follows where its tokens lie, %.1f%% each when "
              "even%s%s%s%s",
              R, rf, rf, (double)(ideal / rf * 100), own ? "; measured: " : "",
              shares.p ? shares.p : "", load,
              uneven ? "; the uneven racks carry uneven load" : "");
    free(shares.p);
}

void check_keyspaces(tr_ctx *ctx, struct findings *fs, struct dc *dcs, size_t ndc)
{
    size_t k = tokenring_cluster_keyspace_count(ctx->cluster);
    if (k == 0) {
        check_add(fs, SEV_WARNING, "keyspaces",
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
                check_add(fs, SEV_WARNING, name,
                          "SimpleStrategy (factor %d) in a cluster of %zu datacenters: replicas "
                          "are the next %d nodes on the ring whatever their datacenter and rack, "
                          "so a datacenter may hold none of a range and LOCAL_* levels fail there; "
                          "use NetworkTopologyStrategy",
                          rf, ndc, rf);
            else if ((size_t)rf > total)
                check_add(fs, (size_t)rf / 2 + 1 > total ? SEV_ERROR : SEV_WARNING, name,
                          "factor %d is larger than the cluster's %zu nodes: QUORUM needs %d", rf,
                          total, rf / 2 + 1);
            else
                check_add(fs, SEV_OK, name, "SimpleStrategy factor %d on %zu nodes", rf, total);
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
            struct dc *dc = check_find_dc(dcs, ndc, dcname);
            if (!dc) {
                char hint[320];
                char subj[512];
                snprintf(subj, sizeof subj, "%s in %s", name, dcname);
                check_add(fs, SEV_WARNING, subj,
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
                check_add(fs, SEV_OK, subj, "no replica in this datacenter (its factor is 0)");
            }
        }
        free(own);
    }
}

/* Pasted Owns against the computed one, when the keyspace it was taken with is known: the
 * one named, or the one replication every keyspace of the input shares. */
void check_owns(tr_ctx *ctx, struct findings *fs)
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
        check_add(fs, SEV_OK, "owns",
                  "the pasted Owns of %zu node%s not compared: %s; name the keyspace nodetool was "
                  "run with (check KEYSPACE)",
                  pasted, pasted == 1 ? "" : "s",
                  k ? "the input's keyspaces replicate differently"
                    : "the input defines no keyspace");
        return;
    }
    tokenring_ownership *o = ownership_of(ctx, with_rules(ctx, r));
    if (!o) {
        check_add(fs, SEV_OK, "owns", "the pasted Owns not compared: the tokens are unknown (give "
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
        check_add(fs, SEV_WARNING, subj,
                  "pasted Owns %s differs from the computed %.*f%% (effective, keyspace %s): the "
                  "paste was taken with another keyspace, before a topology change, or the input "
                  "misses some tokens; every figure the tool derives assumes the computed one",
                  own, decimals, v, ksname);
        differ++;
    }
    if (!differ && compared)
        check_add(fs, SEV_OK, "owns", "the pasted Owns of %zu node%s equal%s the computed one "
                                      "(keyspace %s)",
                  compared, compared == 1 ? "" : "s", compared == 1 ? "s" : "", ksname);
    free(o);
}

