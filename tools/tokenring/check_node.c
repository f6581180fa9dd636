/* SPDX-License-Identifier: Apache-2.0 */
/* check --yaml FILE --rackdc FILE [--node NAME]: a node's settings against the cluster
 * (cassandra.yaml's token and snitch keys, cassandra-rackdc.properties, read by
 * config.c): where the snitch puts it, its partitioner, num_tokens, initial_token and
 * token allocation, each as Cassandra would take or refuse it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tool.h"


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

/* Whether A and B, texts of partitioner P's tokens that may differ in form (case, leading
 * zeros), are the same token; false when either is no token of P. */
static bool same_token(tokenring_partitioner p, const char *a, const char *b)
{
    int c = 1;
    return tokenring_token_text_compare(&c, p, a, b, NULL) == TOKENRING_OK && c == 0;
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

void check_node(tr_ctx *ctx, struct findings *fs, struct dc *dcs, size_t ndc)
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
        check_add(fs, *hint ? SEV_WARNING : SEV_OK, subj,
                  "not in the cluster: checked as a node about to join%s", hint);
    } else if (idx >= 0) {
        check_add(fs, SEV_OK, subj, "in the cluster: %s, rack %s, %zu tokens", me.datacenter,
                  me.rack, me.declared_tokens);
    }

    /* where the node will be: the snitch's datacenter and rack */
    const char *dc = idx >= 0 ? me.datacenter : NULL, *rack = idx >= 0 ? me.rack : NULL;
    const struct conf_entry *snitch = conf_get(&y, "endpoint_snitch");
    const char *sn = snitch && snitch->value ? short_class(snitch->value) : NULL;
    char where[1024];
    if (have_y && !sn)
        check_add(fs, SEV_ERROR, "cassandra.yaml",
                  "endpoint_snitch is not set: Cassandra refuses to start (\"Missing "
                  "endpoint_snitch directive\"); set GossipingPropertyFileSnitch");
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
                check_add(fs, SEV_WARNING, where, "unknown key '%s': no snitch reads it%s",
                          p.e[i].key, hint);
            }
        }
        const struct conf_entry *pdc = conf_get(&p, "dc"), *prack = conf_get(&p, "rack");
        const struct conf_entry *suffix = conf_get(&p, "dc_suffix");
        if (sn && strcmp(sn, "SimpleSnitch") == 0) {
            check_add(fs, SEV_WARNING, p.path,
                      "endpoint_snitch SimpleSnitch ignores this file: every node is in "
                      "datacenter1, rack1");
        } else if (sn && strcmp(sn, "PropertyFileSnitch") == 0) {
            check_add(fs, SEV_WARNING, p.path,
                      "endpoint_snitch PropertyFileSnitch reads cassandra-topology.properties, not "
                      "this file");
        } else if (sn && is_cloud_snitch(sn)) {
            if (pdc || prack)
                check_add(fs, SEV_WARNING, p.path,
                          "%s takes the datacenter and rack from the cloud (region%s, availability "
                          "zone): dc and rack here are ignored",
                          sn, suffix ? " + dc_suffix" : "");
        } else {
            /* GossipingPropertyFileSnitch (or none named): dc and rack from here, trimmed */
            if (!pdc || !pdc->value || !*pdc->value || !prack || !prack->value ||
                !*prack->value)
                check_add(fs, SEV_ERROR, p.path,
                          "%s%s%s not set (or empty): GossipingPropertyFileSnitch puts the node in "
                          "%s",
                          !pdc || !pdc->value || !*pdc->value ? "dc" : "",
                          (!pdc || !pdc->value || !*pdc->value) &&
                                  (!prack || !prack->value || !*prack->value)
                              ? " and "
                              : "",
                          !prack || !prack->value || !*prack->value ? "rack" : "",
                          "UNKNOWN_DC / UNKNOWN_RACK (or an empty name): a datacenter no keyspace "
                          "replicates to");
            if (suffix)
                check_add(fs, SEV_WARNING, p.path,
                          "dc_suffix is read by the cloud snitches (Ec2Snitch, ...) only: "
                          "GossipingPropertyFileSnitch uses dc as it is, without the suffix");
            const char *fdc = pdc && pdc->value && *pdc->value ? pdc->value : NULL;
            const char *frack = prack && prack->value && *prack->value ? prack->value : NULL;
            if (idx >= 0) {
                if (fdc && strcmp(fdc, me.datacenter) != 0)
                    check_add(fs, SEV_ERROR, subj,
                              "dc=%s, but the node is in %s: Cassandra refuses to start (\"Cannot "
                              "start node if snitch's data center (%s) differs from previous data "
                              "center (%s)\"); a node changes datacenter only by decommission and "
                              "a new bootstrap",
                              fdc, me.datacenter, fdc, me.datacenter);
                if (frack && strcmp(frack, me.rack) != 0)
                    check_add(fs, SEV_ERROR, subj,
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
            check_add(fs, SEV_WARNING, p.path,
                      "prefer_local=%s is read as false (Boolean.parseBoolean takes true only)",
                      pl->value);
    }
    struct dc *mydc = dc ? check_find_dc(dcs, ndc, dc) : NULL;
    if (idx < 0 && dc) {
        if (!mydc) {
            char hint[320];
            dc_hint(ctx, dc, hint, sizeof hint);
            if (*hint)
                check_add(fs, SEV_ERROR, subj,
                          "dc=%s is not a datacenter of the cluster%s (a typo starts a new "
                          "datacenter, with no replica of any keyspace)",
                          dc, hint);
            else
                check_add(fs, SEV_WARNING, subj,
                          "dc=%s is a new datacenter: no keyspace replicates to it until ALTER "
                          "KEYSPACE adds it; its nodes start with auto_bootstrap: false and get "
                          "their data by nodetool rebuild -- <an existing datacenter>",
                          dc);
        } else if (rack && !check_find_rack(mydc, rack)) {
            const char **names = calloc(mydc->nracks + 1, sizeof *names);
            if (!names)
                die(EXIT_INTERNAL, "out of memory");
            for (size_t r = 0; r < mydc->nracks; r++)
                names[r] = mydc->racks[r].name;
            char hint[320];
            did_you_mean(rack, names, mydc->nracks, hint, sizeof hint);
            free(names);
            check_add(fs, *hint ? SEV_ERROR : SEV_WARNING, subj,
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
                    check_add(fs, SEV_WARNING, ks_subj,
                              "each of the %zu racks holds a full copy today (factor %d); with "
                              "rack %s a range is on %d of %zu racks, so the new rack's nodes, "
                              "however few, take about %.0f%% of the data between them, streamed "
                              "when they join",
                              R, f, rack, f, R + 1, 100.0 * f / (double)(R + 1));
                else
                    check_add(fs, SEV_WARNING, ks_subj,
                              "%zu rack%s for factor %d today; with rack %s every range has a "
                              "replica in each of the %zu racks, so the new rack's nodes, however "
                              "few, take a full copy of the data between them, streamed when they "
                              "join",
                              R, R == 1 ? "" : "s", f, rack, R + 1);
            }
        } else if (rack) {
            check_add(fs, SEV_OK, subj, "joins %s, rack %s", dc, rack);
        }
    }

    if (!have_y)
        goto done;
    /* partitioner */
    const struct conf_entry *pe = conf_get(&y, "partitioner");
    tokenring_partitioner cp = tokenring_cluster_partitioner(ctx->cluster);
    if (!pe || !pe->value) {
        check_add(fs, SEV_ERROR, "cassandra.yaml", "partitioner is not set: Cassandra refuses to "
                                                   "start (\"Missing directive: partitioner\"); "
                                                   "the cluster's is %s",
                  short_class(tokenring_partitioner_name(cp)));
    } else {
        tokenring_partitioner yp;
        if (tokenring_partitioner_parse(&yp, pe->value, strlen(pe->value), NULL) != TOKENRING_OK)
            check_add(fs, SEV_ERROR, "cassandra.yaml", "partitioner %s: unknown (line %u)",
                      pe->value, pe->line);
        else if (yp != cp)
            check_add(fs, SEV_ERROR, "cassandra.yaml",
                      "partitioner %s, but the cluster's tokens are %s's: a node of another "
                      "partitioner cannot join (its tokens mean nothing to the others)",
                      short_class(pe->value), short_class(tokenring_partitioner_name(cp)));
    }
    /* num_tokens */
    const struct conf_entry *nt = conf_get(&y, "num_tokens");
    long num_tokens = 1;
    if (!nt || !nt->value) {
        check_add(fs, SEV_WARNING, "cassandra.yaml",
                  "num_tokens is not set: Cassandra's default is 1 (the cassandra.yaml shipped "
                  "with 4.0 and later sets 16)");
    } else {
        char *end;
        num_tokens = strtol(nt->value, &end, 10);
        if (*end || num_tokens < 1 || num_tokens > 65536) {
            check_add(fs, SEV_ERROR, "cassandra.yaml", "num_tokens %s (line %u): expected a number "
                                                       "from 1",
                      nt->value, nt->line);
            num_tokens = 0;
        }
    }
    if (num_tokens > 0) {
        if (idx >= 0 && me.declared_tokens && (size_t)num_tokens != me.declared_tokens)
            check_add(fs, SEV_ERROR, subj,
                      "num_tokens %ld, but the node has %zu tokens: Cassandra refuses to start "
                      "(\"Cannot change the number of tokens from %zu to %ld\"); a node changes "
                      "num_tokens only by a new bootstrap (or a new datacenter: "
                      "migrate-num-tokens)",
                      num_tokens, me.declared_tokens, me.declared_tokens, num_tokens);
        else if (idx < 0 && mydc) {
            size_t usual = check_usual_tokens(ctx, mydc->name);
            if (usual && (size_t)num_tokens != usual)
                check_add(fs, SEV_WARNING, subj,
                          "num_tokens %ld, but the nodes of %s have %zu: the new node will own "
                          "about %.2g times a node's share (ownership follows the token count)",
                          num_tokens, mydc->name, usual, (double)num_tokens / (double)usual);
            else if (usual)
                check_add(fs, SEV_OK, subj, "num_tokens %ld, as the nodes of %s", num_tokens,
                          mydc->name);
        }
    }
    /* initial_token */
    const struct conf_entry *it = conf_get(&y, "initial_token");
    size_t ninit = 0;
    if (it && it->value && *it->value) {
        char **parts = token_list(it->value, &ninit);
        if (!nt || !nt->value)
            check_add(fs, SEV_ERROR, "cassandra.yaml",
                      "initial_token lists %zu token%s but num_tokens is not set: Cassandra "
                      "refuses to start (\"initial_token was set but num_tokens is not!\"); set "
                      "num_tokens: %zu",
                      ninit, ninit == 1 ? "" : "s", ninit);
        else if (num_tokens > 0 && ninit != (size_t)num_tokens)
            check_add(fs, SEV_ERROR, "cassandra.yaml",
                      "initial_token lists %zu token%s but num_tokens is %ld: Cassandra refuses to "
                      "start (\"The number of initial tokens (by initial_token) specified (%zu) is "
                      "different from num_tokens value (%ld)\")",
                      ninit, ninit == 1 ? "" : "s", num_tokens, ninit, num_tokens);
        size_t n = tokenring_cluster_node_count(ctx->cluster);
        for (size_t i = 0; i < ninit; i++) {
            tokenring_error err;
            memset(&err, 0, sizeof err);
            size_t len;
            int rc = tokenring_token_text_normalize(NULL, 0, &len, cp, parts[i],
                                                    strlen(parts[i]), &err);
            if (rc != TOKENRING_OK && rc != TOKENRING_E_BUFSIZE) {
                check_add(fs, SEV_ERROR, "cassandra.yaml", "initial_token (line %u): %s",
                          it->line, err.message);
                continue;
            }
            for (size_t j = 0; j < i; j++)
                if (same_token(cp, parts[i], parts[j]))
                    check_add(fs, SEV_ERROR, "cassandra.yaml", "initial_token lists %s twice",
                              parts[i]);
            for (size_t a = 0; a < n && idx < 0; a++) { /* a joined node keeps its tokens */
                tokenring_cluster_node_info o;
                tokenring_cluster_node(&o, ctx->cluster, a);
                for (size_t k = 0; k < o.declared_tokens; k++) {
                    char *text = cluster_token_text(ctx, a, k);
                    if (text && same_token(cp, parts[i], text))
                        check_add(fs, SEV_ERROR, subj,
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
        check_add(fs, SEV_WARNING, "cassandra.yaml",
                  "initial_token is set: Cassandra takes those tokens and ignores %s",
                  has_aks ? "allocate_tokens_for_keyspace"
                          : "allocate_tokens_for_local_replication_factor");
    else if (has_aks && has_arf)
        check_add(fs, SEV_WARNING, "cassandra.yaml",
                  "both allocate_tokens_for_keyspace and "
                  "allocate_tokens_for_local_replication_factor are set: Cassandra uses the "
                  "keyspace's replication and ignores the factor");
    if (!ninit && !has_aks && !has_arf && num_tokens >= 1 && idx < 0)
        check_add(fs, SEV_WARNING, "cassandra.yaml",
                  "num_tokens %ld without allocate_tokens_for_local_replication_factor (or "
                  "allocate_tokens_for_keyspace, or initial_token): the node takes %s, and its "
                  "ownership may be far from its share",
                  num_tokens, num_tokens == 1 ? "a random token" : "random tokens");
    const struct conf_entry *ab = conf_get(&y, "auto_bootstrap");
    if (idx < 0 && dc && !mydc && !(ab && ab->value && strcasecmp(ab->value, "false") == 0))
        check_add(fs, SEV_WARNING, "cassandra.yaml",
                  "auto_bootstrap is %s for a node of the new datacenter %s: a new datacenter's "
                  "nodes start with auto_bootstrap: false, get added to the keyspaces' "
                  "replication, then run nodetool rebuild -- <an existing datacenter>",
                  ab && ab->value ? ab->value : "not set (true)", dc);
    if (idx >= 0 && (ninit || has_aks || has_arf))
        check_add(fs, SEV_OK, subj, "%s: read at bootstrap only; the node keeps its tokens",
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
            check_add(fs, k ? SEV_ERROR : SEV_WARNING, "cassandra.yaml",
                      "allocate_tokens_for_keyspace: %s is %s%s", aks->value,
                      k ? "not a keyspace of the input: the bootstrap fails if the cluster has "
                          "none of that name"
                        : "not checked: the input defines no keyspace",
                      hint);
        } else if (alloc_dc) {
            const tokenring_replication *r;
            tokenring_cluster_keyspace(NULL, &r, ctx->cluster, kidx);
            int32_t rf = 0;
            tokenring_replication_dc_factor(&rf, NULL, r, alloc_dc);
            if (rf == 0)
                check_add(fs, SEV_ERROR, "cassandra.yaml",
                          "allocate_tokens_for_keyspace: %s places no replica in %s: the allocator "
                          "has no factor to balance for; name a keyspace replicated there, or set "
                          "allocate_tokens_for_local_replication_factor",
                          aks->value, alloc_dc);
            else
                check_add(fs, SEV_OK, "cassandra.yaml",
                          "allocate_tokens_for_keyspace: %s, factor %d in %s", aks->value, rf,
                          alloc_dc);
        }
    }
    if (has_arf && !has_aks && !ninit) {
        char *end;
        long rf = strtol(arf->value, &end, 10);
        if (*end || rf < 1) {
            check_add(fs, SEV_ERROR, "cassandra.yaml",
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
                check_add(fs, nsame ? SEV_WARNING : SEV_ERROR, "cassandra.yaml",
                          "allocate_tokens_for_local_replication_factor %ld, but in %s %s %s: the "
                          "allocator balances ownership for factor %ld, so %s",
                          rf, alloc_dc, nother == 1 ? "keyspace" : "keyspaces", other.p, rf,
                          nsame ? "those keyspaces are balanced less well"
                                : "no keyspace's ownership is what it balanced");
            else if (nsame)
                check_add(fs, SEV_OK, "cassandra.yaml",
                          "allocate_tokens_for_local_replication_factor %ld: the factor of every "
                          "keyspace replicated in %s",
                          rf, alloc_dc);
            else
                check_add(fs, SEV_WARNING, "cassandra.yaml",
                          "allocate_tokens_for_local_replication_factor %ld: no keyspace of the "
                          "input is replicated in %s, nothing to compare with",
                          rf, alloc_dc);
            free(other.p);
            if (mydc && mydc->nracks > 1 && mydc->nracks < (size_t)rf && rack &&
                check_find_rack(mydc, rack))
                check_add(fs, SEV_ERROR, subj,
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
