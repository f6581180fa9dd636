/* SPDX-License-Identifier: Apache-2.0 */
/* The builder API driven by a byte stream: add, remove, replace, move nodes and change
 * their state; every failed call must leave the topology exactly as it was; every built
 * ring and placement must satisfy the ring's invariants (sorted tokens, owner = first
 * token at or after, replicas distinct with the per-datacenter counts Cassandra gives,
 * primary widths summing to 2^64); and the placement updated from the previous ring's
 * (tokenring_placement_update) must equal a full build, range by range. */
#include "fuzz_common.h"

__extension__ typedef unsigned __int128 u128;

#define MAX_NODES 12

static const char *dcs[] = { "dc1", "dc2", "dc3" };
static const char *racks[] = { "r1", "r2", "r3", "r4" };

/* A printable snapshot of a topology, to compare before and after a failed call. */
static char *dump(const tokenring_topology *t)
{
    size_t cap = 256, len = 0;
    char *s = malloc(cap);
    s[0] = '\0';
    size_t n = tokenring_topology_node_count(t);
    for (size_t i = 0; i < n; i++) {
        tokenring_node_info ni;
        FUZZ_CHECK(tokenring_topology_node(&ni, t, i) == TOKENRING_OK);
        for (size_t k = 0; k <= ni.token_count; k++) {
            char line[600];
            int w = k == 0 ? snprintf(line, sizeof line, "%s %s %s %d %d:", ni.name,
                                      ni.datacenter, ni.rack, ni.state, ni.liveness)
                           : snprintf(line, sizeof line, " %lld",
                                      (long long)ni.tokens[k - 1]);
            while (len + (size_t)w + 2 > cap)
                s = realloc(s, cap *= 2);
            memcpy(s + len, line, (size_t)w + 1);
            len += (size_t)w;
        }
        s[len++] = '\n';
        s[len] = '\0';
    }
    return s;
}

static void check_unchanged(const tokenring_topology *t, const char *before, int rc,
                            const tokenring_error *err)
{
    if (rc == TOKENRING_OK)
        return;
    FUZZ_CHECK(err->code == rc && err->message[0] != '\0');
    char *after = dump(t);
    FUZZ_CHECK(strcmp(before, after) == 0);
    free(after);
}

/* The first placement built in a run, updated ring after ring. */
typedef struct {
    tokenring_placement *pl;
    tokenring_replication *repl;
} chain;

static void check_update(chain *c, const tokenring_ring *ring)
{
    tokenring_placement *upd = NULL, *full = NULL;
    tokenring_error err;
    int rc = tokenring_placement_update(&upd, c->pl, ring, &err);
    int want = tokenring_placement_build(&full, ring, c->repl,
                                         TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC, NULL);
    FUZZ_CHECK(rc == want);
    if (rc != TOKENRING_OK)
        return;
    size_t n = 0;
    tokenring_ring_tokens(ring, &n);
    FUZZ_CHECK(tokenring_placement_set_count(upd) == tokenring_placement_set_count(full));
    for (size_t i = 0; i < n; i++) {
        tokenring_replicas a, b;
        FUZZ_CHECK(tokenring_placement_range_replicas(&a, upd, i) == TOKENRING_OK);
        FUZZ_CHECK(tokenring_placement_range_replicas(&b, full, i) == TOKENRING_OK);
        FUZZ_CHECK(a.count == b.count && a.set_id == b.set_id);
        FUZZ_CHECK(a.count == 0 || memcmp(a.nodes, b.nodes, a.count * sizeof *a.nodes) == 0);
        FUZZ_CHECK((a.transient == NULL) == (b.transient == NULL));
    }
    tokenring_placement_free(full);
    tokenring_placement_free(c->pl);
    c->pl = upd;
}

static void check_ring(fuzz_reader *r, const tokenring_topology *t, chain *c)
{
    tokenring_ring *ring = NULL;
    tokenring_error err;
    int rc = tokenring_ring_build(&ring, t, &err);
    if (rc != TOKENRING_OK) {
        FUZZ_CHECK(ring == NULL && (rc == TOKENRING_E_EMPTY || rc == TOKENRING_E_NOMEM));
        return;
    }
    size_t n = 0;
    const int64_t *tok = tokenring_ring_tokens(ring, &n);
    const uint32_t *own = tokenring_ring_token_nodes(ring, NULL);
    FUZZ_CHECK(n > 0);
    for (size_t i = 1; i < n; i++)
        FUZZ_CHECK(tok[i - 1] < tok[i]);
    /* Owner lookups against a linear scan. */
    for (int q = 0; q < 4; q++) {
        int64_t x = (int64_t)fuzz_u64(r);
        size_t want = 0;
        while (want < n && tok[want] < x)
            want++;
        if (want == n)
            want = 0;
        FUZZ_CHECK(tokenring_ring_search(ring, x) == want);
        uint32_t node;
        FUZZ_CHECK(tokenring_ring_owner(&node, ring, x) == TOKENRING_OK && node == own[want]);
    }
    /* A replication drawn from the stream. */
    tokenring_replication *repl = NULL;
    int32_t rf_of[3] = { 0, 0, 0 };
    int simple = fuzz_u8(r) & 1;
    if (simple) {
        rf_of[0] = fuzz_u8(r) % 5;
        FUZZ_CHECK(tokenring_replication_simple(&repl, rf_of[0], 0, NULL) == TOKENRING_OK);
    } else {
        FUZZ_CHECK(tokenring_replication_network(&repl) == TOKENRING_OK);
        for (int d = 0; d < 3; d++) {
            rf_of[d] = fuzz_u8(r) % 5;
            FUZZ_CHECK(tokenring_replication_set_dc(repl, dcs[d], rf_of[d], 0, NULL) ==
                       TOKENRING_OK);
        }
    }
    tokenring_placement *pl = NULL;
    rc = tokenring_placement_build(&pl, ring, repl, TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC, &err);
    FUZZ_CHECK(rc == TOKENRING_OK);
    if (c->pl)
        check_update(c, ring);
    size_t nodes = tokenring_ring_node_count(ring);
    /* Nodes with ring tokens, per datacenter. */
    size_t in_dc[3] = { 0, 0, 0 }, in_ring = 0;
    for (uint32_t v = 0; v < nodes; v++) {
        tokenring_node_info ni;
        FUZZ_CHECK(tokenring_ring_node(&ni, ring, v) == TOKENRING_OK);
        int member = ni.state != TOKENRING_STATE_JOINING;
        in_ring += member;
        for (int d = 0; d < 3; d++)
            in_dc[d] += member && strcmp(ni.datacenter, dcs[d]) == 0;
    }
    for (size_t i = 0; i < n; i++) {
        tokenring_replicas reps;
        FUZZ_CHECK(tokenring_placement_range_replicas(&reps, pl, i) == TOKENRING_OK);
        FUZZ_CHECK(reps.range_index == i);
        size_t want = 0;
        if (simple)
            want = (size_t)rf_of[0] < in_ring ? (size_t)rf_of[0] : in_ring;
        else
            for (int d = 0; d < 3; d++)
                want += (size_t)rf_of[d] < in_dc[d] ? (size_t)rf_of[d] : in_dc[d];
        FUZZ_CHECK(reps.count == want);
        for (uint32_t a = 0; a < reps.count; a++) {
            FUZZ_CHECK(reps.nodes[a] < nodes);
            for (uint32_t b = a + 1; b < reps.count; b++)
                FUZZ_CHECK(reps.nodes[a] != reps.nodes[b]);
        }
        if (simple && reps.count > 0)
            FUZZ_CHECK(reps.nodes[0] == own[i]);
    }
    tokenring_ownership *o = calloc(nodes, sizeof *o);
    FUZZ_CHECK(tokenring_ring_ownership(o, nodes, ring, pl) == TOKENRING_OK);
    u128 sum = 0;
    for (size_t v = 0; v < nodes; v++)
        sum += ((u128)o[v].primary_width.hi << 64) | o[v].primary_width.lo;
    FUZZ_CHECK(sum == (u128)1 << 64);
    free(o);
    if (!c->pl) {
        c->pl = pl; /* the chain keeps the first placement and its replication */
        c->repl = repl;
    } else {
        tokenring_placement_free(pl);
        tokenring_replication_free(repl);
    }
    tokenring_ring_free(ring);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_reader r = { data, size };
    chain c = { NULL, NULL };
    tokenring_topology *t = NULL;
    FUZZ_CHECK(tokenring_topology_new(&t) == TOKENRING_OK);
    char name[16], other[16];
    int64_t tokens[8];
    unsigned ops = 0;
    while (r.n > 0 && ops++ < 64) {
        uint8_t op = fuzz_u8(&r);
        snprintf(name, sizeof name, "n%u", fuzz_u8(&r) % MAX_NODES);
        char *before = dump(t);
        tokenring_error err;
        int rc = TOKENRING_OK;
        size_t k = fuzz_u8(&r) % 9; /* 0 tokens is a valid (rejected) request */
        for (size_t i = 0; i < k; i++) {
            /* Small token alphabet so that collisions happen often. */
            uint8_t b = fuzz_u8(&r);
            tokens[i] = (b & 0x80) ? (int64_t)fuzz_u64(&r) : (int64_t)(b % 32) - 16;
        }
        switch (op % 6) {
        case 0:
        case 1:
            rc = tokenring_topology_add_node(t, name, dcs[op / 6 % 3], racks[op / 18 % 4],
                                             tokens, k, &err);
            break;
        case 2:
            rc = tokenring_topology_remove_node(t, name, &err);
            break;
        case 3:
            snprintf(other, sizeof other, "n%u", fuzz_u8(&r) % MAX_NODES);
            rc = tokenring_topology_replace_node(t, name, other, &err);
            break;
        case 4:
            rc = tokenring_topology_set_tokens(t, name, tokens, k, &err);
            break;
        case 5:
            rc = tokenring_topology_set_state(t, name, (tokenring_node_state)(op / 6 % 5),
                                              (tokenring_liveness)(op / 30 % 4), &err);
            break;
        }
        check_unchanged(t, before, rc, &err);
        free(before);
        if ((op & 0x0f) == 0x0f)
            check_ring(&r, t, &c);
    }
    check_ring(&r, t, &c);
    tokenring_placement_free(c.pl);
    tokenring_replication_free(c.repl);
    tokenring_topology_free(t);
    return 0;
}
