/* SPDX-License-Identifier: Apache-2.0 */
/* Every row of every tests/data/ownership_NAME.tsv: the exact primary width of each node
 * and, bit for bit, the floats nodetool prints (StorageService.getOwnership and
 * effectiveOwnership on Cassandra 5.0.2). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>

#include "ringtest.h"

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static size_t check_file(const char *name)
{
    char topo_name[512];
    snprintf(topo_name, sizeof topo_name, "replicas_%.*s.topology.tsv",
             (int)(strlen(name) - strlen("ownership_") - 4), name + strlen("ownership_"));
    tokenring_topology *topo = rt_topology_load(topo_name);
    assert_non_null(topo);
    tokenring_ring *ring = NULL;
    assert_int_equal(tokenring_ring_build(&ring, topo, NULL), TOKENRING_OK);
    tokenring_topology_free(topo);
    size_t nn = tokenring_ring_node_count(ring);
    tokenring_ownership *own = calloc(nn, sizeof *own);
    tokenring_ownership *prim = calloc(nn, sizeof *prim);
    assert_int_equal(tokenring_ring_ownership(prim, nn, ring, NULL), TOKENRING_OK);

    /* Exact primary widths sum to 2^64. */
    rt_u128 sum = 0;
    for (size_t k = 0; k < nn; k++)
        sum += rt_u128_of(prim[k].primary_width);
    assert_true(sum == (rt_u128)1 << 64);

    tsv_file *t = tsv_open(name);
    assert_non_null(t);
    int c_strategy = tsv_column(t, "strategy"), c_options = tsv_column(t, "options"),
        c_node = tsv_column(t, "node"), c_pbits = tsv_column(t, "primary_f32_bits"),
        c_ebits = tsv_column(t, "effective_f32_bits"),
        c_width = tsv_column(t, "primary_exact_width");
    assert_true(c_strategy >= 0 && c_options >= 0 && c_node >= 0 && c_pbits >= 0 &&
                c_ebits >= 0 && c_width >= 0);
    char key[512] = "";
    size_t checked = 0;
    while (tsv_next(t)) {
        const char *f[16];
        for (size_t k = 0; k < 16; k++)
            f[k] = tsv_field(t, k);
        size_t line = tsv_line(t);
        char k2[512];
        snprintf(k2, sizeof k2, "%s|%s", f[c_strategy], f[c_options]);
        if (strcmp(k2, key) != 0) {
            snprintf(key, sizeof key, "%s", k2);
            tokenring_replication *repl = rt_replication(f[c_strategy], f[c_options]);
            assert_non_null(repl);
            tokenring_placement *p = NULL;
            assert_int_equal(tokenring_placement_build(&p, ring, repl,
                                                       TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC, NULL),
                             TOKENRING_OK);
            assert_int_equal(tokenring_ring_ownership(own, nn, ring, p), TOKENRING_OK);
            tokenring_placement_free(p);
            tokenring_replication_free(repl);
        }
        uint32_t node;
        assert_int_equal(tokenring_ring_find_node(&node, ring, f[c_node]), TOKENRING_OK);
        const tokenring_ownership *o = &own[node];
        /* Primary figures do not depend on the placement. */
        assert_memory_equal(&o->primary_width, &prim[node].primary_width, sizeof o->primary_width);
        assert_true(f32_bits(o->nodetool_primary) == f32_bits(prim[node].nodetool_primary));
        if (rt_u128_of(o->primary_width) != rt_u128_dec(f[c_width]))
            fail_msg("%s line %zu node %s: primary width differs from %s", name, line,
                     f[c_node], f[c_width]);
        uint32_t pbits = (uint32_t)strtoul(f[c_pbits], NULL, 16);
        uint32_t ebits = (uint32_t)strtoul(f[c_ebits], NULL, 16);
        if (f32_bits(o->nodetool_primary) != pbits || f32_bits(o->nodetool_effective) != ebits)
            fail_msg("%s line %zu (%s %s) node %s: nodetool primary %08x effective %08x, "
                     "expected %08x %08x", name, line, f[c_strategy], f[c_options], f[c_node],
                     (unsigned)f32_bits(o->nodetool_primary),
                     (unsigned)f32_bits(o->nodetool_effective), (unsigned)pbits,
                     (unsigned)ebits);
        /* The doubles are the exact widths over 2^64. */
        assert_true(o->primary == (double)rt_u128_of(o->primary_width) * 0x1p-64);
        assert_true(o->effective == (double)rt_u128_of(o->effective_width) * 0x1p-64);
        checked++;
    }
    free(own);
    free(prim);
    tokenring_ring_free(ring);
    assert_int_equal(tsv_rows(t), checked);
    tsv_close(t);
    return checked;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void every_ownership_vector(void **state)
{
    (void)state;
    DIR *d = opendir(tsv_data_dir());
    assert_non_null(d);
    char *names[256];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < 256) {
        size_t l = strlen(e->d_name);
        if (strncmp(e->d_name, "ownership_", 10) == 0 && l > 4 &&
            strcmp(e->d_name + l - 4, ".tsv") == 0)
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    assert_true(n >= 10);
    size_t rows = 0;
    for (size_t i = 0; i < n; i++) {
        size_t expected = rt_data_lines(names[i]);
        assert_int_equal(check_file(names[i]), expected);
        rows += expected;
        free(names[i]);
    }
    print_message("checked %zu ownership rows\n", rows);
    assert_true(rows >= 243); /* the vector set has 243 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_ownership_vector),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
