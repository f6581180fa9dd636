/* SPDX-License-Identifier: Apache-2.0 */
/* Rings of any partitioner against Cassandra 5.0.2's own TokenMetadata, SimpleStrategy,
 * NetworkTopologyStrategy and RandomPartitioner.describeOwnership
 * (tests/data/partitioned_rings.tsv, made by tests/data/gen/rings/PartitionedRingVectors.java,
 * RandomPartitioner and ByteOrderedPartitioner rings): every key's token
 * (tokenring_key_token_text), range and replicas (tokenring_placement_replicas_for_key_any),
 * every probe token's range and replicas (tokenring_ring_search_text, then the range's
 * replicas), and the nodetool ownership floats bit for bit. Tokens are read and written
 * in Cassandra's text form, so one reader serves every partitioner. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"
#include "tsv.h"

#define MAXF 16
#define MAXTOK 64

typedef struct state {
    tokenring_partitioner part;
    tokenring_topology *topo;
    tokenring_ring *ring;
    tokenring_placement *placement;
    size_t keys, toks, owns, rings;
} state;

static size_t split(char *line, char **f)
{
    size_t n = 0;
    line[strcspn(line, "\r\n")] = 0;
    f[n++] = line;
    for (char *p = line; *p && n < MAXF; p++)
        if (*p == '\t') {
            *p = 0;
            f[n++] = p + 1;
        }
    return n;
}

static void finish_ring(state *s)
{
    tokenring_placement_free(s->placement);
    s->placement = NULL;
    tokenring_ring_free(s->ring);
    s->ring = NULL;
}

static void build_ring(state *s)
{
    if (s->ring)
        return;
    tokenring_error err;
    if (tokenring_ring_build(&s->ring, s->topo, &err) != TOKENRING_OK)
        fail_msg("ring: %s", err.message);
    assert_int_equal(tokenring_ring_partitioner(s->ring), s->part);
}

/* The text of ring token i. */
static void ring_token_text(char *out, size_t cap, const state *s, uint32_t i)
{
    size_t len;
    assert_int_equal(tokenring_ring_token_text(out, cap, &len, s->ring, i), TOKENRING_OK);
}

static void check_replicas(const state *s, const tokenring_replicas *r, const char *want,
                           const char *what)
{
    char got[4096] = "";
    for (uint32_t k = 0; k < r->count; k++) {
        tokenring_node_info info;
        assert_int_equal(tokenring_ring_node_brief(&info, s->ring, r->nodes[k]), TOKENRING_OK);
        if (k)
            strcat(got, ",");
        strcat(got, info.name);
        if (r->transient && r->transient[k])
            strcat(got, "~");
    }
    if (strcmp(got, want) != 0)
        fail_msg("%s: replicas %s, Cassandra %s", what, got, want);
}

static void test_vectors(void **unused)
{
    (void)unused;
    char path[4096];
    snprintf(path, sizeof path, "%s/partitioned_rings.tsv", tsv_data_dir());
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    static char line[1 << 16];
    state s = {0};
    tokenring_error err;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *fl[MAXF];
        size_t n = split(line, fl);
        if (strcmp(fl[0], "ring") == 0) {
            finish_ring(&s);
            tokenring_topology_free(s.topo);
            assert_int_equal(tokenring_partitioner_parse(&s.part, fl[2], strlen(fl[2]), NULL),
                             TOKENRING_OK);
            assert_int_equal(tokenring_topology_new_partitioned(&s.topo, s.part), TOKENRING_OK);
            s.rings++;
        } else if (strcmp(fl[0], "node") == 0) {
            assert_int_equal(n, 5);
            const char *toks[MAXTOK];
            size_t count = 0;
            for (char *tok = strtok(fl[4], ","); tok; tok = strtok(NULL, ",")) {
                assert_true(count < MAXTOK);
                toks[count++] = tok;
            }
            int rc = tokenring_topology_add_node_text(s.topo, fl[1], fl[2], fl[3], toks, count,
                                                      &err);
            if (rc != TOKENRING_OK)
                fail_msg("node %s: %s", fl[1], err.message);
        } else if (strcmp(fl[0], "repl") == 0) {
            build_ring(&s);
            tokenring_placement_free(s.placement);
            char text[256];
            snprintf(text, sizeof text, "%s:%s", fl[1], fl[2]);
            tokenring_replication *repl = NULL;
            assert_int_equal(tokenring_replication_parse(&repl, text, strlen(text), NULL), TOKENRING_OK);
            if (tokenring_placement_build(&s.placement, s.ring, repl, 0, &err) != TOKENRING_OK)
                fail_msg("placement %s: %s", text, err.message);
            tokenring_replication_free(repl);
        } else if (strcmp(fl[0], "key") == 0) {
            assert_int_equal(n, 5);
            uint8_t key[256];
            size_t klen = 0;
            assert_int_equal(tokenring_byte_token_parse(key, sizeof key, &klen, fl[1], strlen(fl[1]), NULL),
                             TOKENRING_OK);
            char tt[TOKENRING_TOKEN128_TEXT_MAX + 600];
            size_t len;
            uint32_t range;
            assert_int_equal(tokenring_key_token_text(tt, sizeof tt, &len, s.part, key, klen),
                             TOKENRING_OK);
            assert_int_equal(tokenring_ring_search_text(&range, s.ring, tt, len, &err),
                             TOKENRING_OK);
            assert_string_equal(tt, fl[2]);
            ring_token_text(tt, sizeof tt, &s, range);
            assert_string_equal(tt, fl[3]);
            tokenring_replicas r;
            assert_int_equal(tokenring_placement_replicas_for_key_any(&r, s.placement, key, klen),
                             TOKENRING_OK);
            assert_int_equal(r.range_index, range);
            check_replicas(&s, &r, fl[4], fl[1]);
            /* the int64 calls refuse the ring */
            assert_int_equal(tokenring_placement_replicas_for_key(&r, s.placement, key, klen),
                             TOKENRING_E_UNSUPPORTED);
            assert_int_equal(tokenring_placement_key_set_id(s.placement, key, klen),
                             TOKENRING_E_UNSUPPORTED);
            s.keys++;
        } else if (strcmp(fl[0], "tok") == 0) {
            assert_int_equal(n, 4);
            uint32_t range;
            assert_int_equal(tokenring_ring_search_text(&range, s.ring, fl[1], strlen(fl[1]), &err),
                             TOKENRING_OK);
            char tt[600];
            ring_token_text(tt, sizeof tt, &s, range);
            if (strcmp(tt, fl[2]) != 0)
                fail_msg("token %s: range end %s, Cassandra %s", fl[1], tt, fl[2]);
            tokenring_replicas r;
            assert_int_equal(tokenring_placement_range_replicas(&r, s.placement, range), TOKENRING_OK);
            check_replicas(&s, &r, fl[3], fl[1]);
            s.toks++;
        } else if (strcmp(fl[0], "own") == 0) {
            assert_int_equal(n, 4);
            size_t nn = tokenring_ring_node_count(s.ring);
            tokenring_ownership *o = calloc(nn, sizeof *o);
            assert_non_null(o);
            assert_int_equal(tokenring_ring_ownership(o, nn, s.ring, s.placement), TOKENRING_OK);
            uint32_t node;
            assert_int_equal(tokenring_ring_find_node(&node, s.ring, fl[1]), TOKENRING_OK);
            uint32_t pb, eb;
            memcpy(&pb, &o[node].nodetool_primary, 4);
            memcpy(&eb, &o[node].nodetool_effective, 4);
            char got[32];
            snprintf(got, sizeof got, "%08x", pb);
            if (strcmp(got, fl[2]) != 0)
                fail_msg("node %s primary float %s (%.9g), Cassandra %s", fl[1], got,
                         (double)o[node].nodetool_primary, fl[2]);
            snprintf(got, sizeof got, "%08x", eb);
            if (strcmp(got, fl[3]) != 0)
                fail_msg("node %s effective float %s (%.9g), Cassandra %s", fl[1], got,
                         (double)o[node].nodetool_effective, fl[3]);
            assert_int_equal(tokenring_ring_ownership_flags(s.ring), 0);
            free(o);
            s.owns++;
        } else {
            fail_msg("unknown line kind %s", fl[0]);
        }
    }
    fclose(f);
    finish_ring(&s);
    tokenring_topology_free(s.topo);
    printf("# %zu rings, %zu keys, %zu tokens, %zu ownership rows\n", s.rings, s.keys, s.toks, s.owns);
    assert_true(s.rings >= 20 && s.keys > 5000 && s.toks > 5000 && s.owns > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
