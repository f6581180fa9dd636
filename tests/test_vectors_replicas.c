/* SPDX-License-Identifier: Apache-2.0 */
/* Every row of every tests/data/replicas_NAME.tsv: the range holding the token, its owner
 * and the replicas in Cassandra's order (transient ones marked '~'), produced by
 * Cassandra 5.0.2's own classes. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>

#include "ringtest.h"

typedef struct {
    tokenring_ring *ring;
    tokenring_placement *placement;
    char key[512];
} built;

/* Builds the placement of one (strategy, options); a datacenter with no node in the ring
 * must first be refused by name, then accepted with ALLOW_UNKNOWN_DC. */
static void build_placement(built *b, const char *strategy, const char *options)
{
    tokenring_replication *repl = rt_replication(strategy, options);
    assert_non_null(repl);
    const char *missing = NULL;
    for (size_t k = 0; k < tokenring_replication_dc_count(repl); k++) {
        const char *dc;
        int32_t rf;
        assert_int_equal(tokenring_replication_get(&dc, &rf, NULL, repl, k), TOKENRING_OK);
        bool known = false;
        for (size_t d = 0; d < tokenring_ring_dc_count(b->ring); d++)
            known |= strcmp(tokenring_ring_dc_name(b->ring, d), dc) == 0;
        if (rf > 0 && !known)
            missing = dc;
    }
    uint32_t flags = 0;
    if (missing) {
        tokenring_error err;
        tokenring_placement *p = NULL;
        assert_int_equal(tokenring_placement_build(&p, b->ring, repl, 0, &err),
                         TOKENRING_E_NOTFOUND);
        assert_null(p);
        assert_non_null(strstr(err.message, missing));
        flags = TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC;
    }
    tokenring_error err;
    int rc = tokenring_placement_build(&b->placement, b->ring, repl, flags, &err);
    if (rc != TOKENRING_OK)
        fail_msg("%s %s: %s", strategy, options, err.message);
    tokenring_replication_free(repl);
}

static size_t check_file(const char *name)
{
    char topo_name[512];
    snprintf(topo_name, sizeof topo_name, "%.*s.topology.tsv", (int)(strlen(name) - 4), name);
    tokenring_topology *topo = rt_topology_load(topo_name);
    assert_non_null(topo);
    built b = { 0 };
    assert_int_equal(tokenring_ring_build(&b.ring, topo, NULL), TOKENRING_OK);
    tokenring_topology_free(topo);

    tsv_file *t = tsv_open(name);
    assert_non_null(t);
    int c_strategy = tsv_column(t, "strategy"), c_options = tsv_column(t, "options"),
        c_token = tsv_column(t, "token"), c_start = tsv_column(t, "range_start"),
        c_end = tsv_column(t, "range_end"), c_owner = tsv_column(t, "owner"),
        c_replicas = tsv_column(t, "replicas");
    assert_true(c_strategy >= 0 && c_options >= 0 && c_token >= 0 && c_start >= 0 &&
                c_end >= 0 && c_owner >= 0 && c_replicas >= 0);
    size_t checked = 0;
    while (tsv_next(t)) {
        const char *f[16];
        for (size_t k = 0; k < 16; k++)
            f[k] = tsv_field(t, k);
        size_t line = tsv_line(t);
        char key[512];
        snprintf(key, sizeof key, "%s|%s", f[c_strategy], f[c_options]);
        if (strcmp(key, b.key) != 0) {
            tokenring_placement_free(b.placement);
            b.placement = NULL;
            build_placement(&b, f[c_strategy], f[c_options]);
            snprintf(b.key, sizeof b.key, "%s", key);
        }
        int64_t token = rt_i64(f[c_token]);
        tokenring_range range;
        assert_int_equal(tokenring_ring_range_of(&range, b.ring, token), TOKENRING_OK);
        tokenring_node_info owner;
        assert_int_equal(tokenring_ring_node(&owner, b.ring, range.owner), TOKENRING_OK);
        if (range.start != rt_i64(f[c_start]) || range.end != rt_i64(f[c_end]) ||
            strcmp(owner.name, f[c_owner]) != 0)
            fail_msg("%s line %zu (%s %s token %s): range (%lld, %lld] owner %s, expected "
                     "(%s, %s] owner %s", name, line, f[c_strategy], f[c_options],
                     f[c_token], (long long)range.start, (long long)range.end, owner.name,
                     f[c_start], f[c_end], f[c_owner]);

        tokenring_replicas reps;
        assert_int_equal(tokenring_placement_replicas(&reps, b.placement, token), TOKENRING_OK);
        assert_int_equal(reps.range_index, range.index);
        char got[4096] = "";
        size_t len = 0;
        for (uint32_t k = 0; k < reps.count; k++) {
            tokenring_node_info ni;
            assert_int_equal(tokenring_ring_node(&ni, b.ring, reps.nodes[k]), TOKENRING_OK);
            len += (size_t)snprintf(got + len, sizeof got - len, "%s%s%s", k ? "," : "",
                                    ni.name, reps.transient && reps.transient[k] ? "~" : "");
        }
        if (strcmp(got, f[c_replicas]) != 0)
            fail_msg("%s line %zu (%s %s token %s): replicas %s, expected %s", name, line,
                     f[c_strategy], f[c_options], f[c_token], got, f[c_replicas]);
        /* A transient array is given only when some replica is transient. */
        if (reps.transient) {
            bool any = false;
            for (uint32_t k = 0; k < reps.count; k++)
                any |= reps.transient[k] != 0;
            assert_true(any);
        }
        /* The same answer by range index and through the set id. */
        tokenring_replicas by_range, by_set;
        assert_int_equal(tokenring_placement_range_replicas(&by_range, b.placement, range.index),
                         TOKENRING_OK);
        assert_ptr_equal(by_range.nodes, reps.nodes);
        assert_int_equal(by_range.set_id, reps.set_id);
        assert_int_equal(tokenring_placement_set(&by_set, b.placement, reps.set_id),
                         TOKENRING_OK);
        assert_ptr_equal(by_set.nodes, reps.nodes);
        assert_int_equal(by_set.count, reps.count);
        checked++;
    }
    tokenring_placement_free(b.placement);
    tokenring_ring_free(b.ring);
    assert_int_equal(tsv_rows(t), checked);
    tsv_close(t);
    return checked;
}

static int is_replica_file(const char *n)
{
    size_t l = strlen(n);
    return strncmp(n, "replicas_", 9) == 0 && l > 4 && strcmp(n + l - 4, ".tsv") == 0 &&
           (l < 13 || strcmp(n + l - 13, ".topology.tsv") != 0);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void every_replicas_vector(void **state)
{
    (void)state;
    DIR *d = opendir(tsv_data_dir());
    assert_non_null(d);
    char *names[256];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < 256)
        if (is_replica_file(e->d_name))
            names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    assert_true(n >= 10); /* the ten topologies of the vector set */
    size_t rows = 0;
    for (size_t i = 0; i < n; i++) {
        size_t expected = rt_data_lines(names[i]);
        size_t got = check_file(names[i]);
        assert_int_equal(got, expected);
        assert_true(got > 0);
        rows += got;
        free(names[i]);
    }
    print_message("checked %zu replica rows\n", rows);
    assert_true(rows >= 16850);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_replicas_vector),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
