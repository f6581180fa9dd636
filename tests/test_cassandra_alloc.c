/* SPDX-License-Identifier: Apache-2.0 */
/* tokenring_allocate_cassandra(): bit-for-bit equality with Cassandra's own allocator on
 * every vector of tests/data/cassandra_allocation.tsv (see tests/data/gen/allocation/),
 * and its argument checks. */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tokenring/tokenring.h"

#ifndef TEST_DATA_DIR
#define TEST_DATA_DIR "tests/data"
#endif

static const char *data_dir(void)
{
    const char *d = getenv("TOKENRING_TEST_DATA");
    return d && *d ? d : TEST_DATA_DIR;
}

/* Splits s in place on '\t'; returns the field count. */
static size_t split_tabs(char *s, char **f, size_t max)
{
    size_t n = 0;
    f[n++] = s;
    for (char *p = s; *p && n < max; p++)
        if (*p == '\t') {
            *p = '\0';
            f[n++] = p + 1;
        }
    return n;
}

/* Parses a comma-separated token list; returns the count (the array grows as needed). */
static size_t parse_tokens(const char *s, int64_t **out, size_t *cap)
{
    size_t n = 0;
    while (*s) {
        char *end;
        long long v = strtoll(s, &end, 10);
        assert_true(end != s);
        if (n == *cap) {
            *cap = *cap ? *cap * 2 : 64;
            *out = realloc(*out, *cap * sizeof **out);
            assert_non_null(*out);
        }
        (*out)[n++] = (int64_t)v;
        s = *end == ',' ? end + 1 : end;
    }
    return n;
}

typedef struct {
    size_t vectors, ok, errors, mismatched;
} tally;

static void run_file(const char *name, uint32_t release, tally *t)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", data_dir(), name);
    FILE *fp = fopen(path, "r");
    if (!fp)
        fail_msg("cannot open %s", path);
    char *line = NULL;
    size_t linecap = 0;
    ssize_t len;
    tokenring_topology *topo = NULL;
    int64_t *want = NULL, *got = NULL;
    size_t wantcap = 0, gotcap = 0;
    char seq[256] = "";
    unsigned lineno = 0;
    while ((len = getline(&line, &linecap, fp)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (len == 0 || line[0] == '#')
            continue;
        char *f[10];
        size_t nf = split_tabs(line, f, 10);
        tokenring_error err;
        memset(&err, 0, sizeof err);
        if (strcmp(f[0], "seq") == 0) {
            tokenring_topology_free(topo);
            assert_int_equal(tokenring_topology_new(&topo), TOKENRING_OK);
            snprintf(seq, sizeof seq, "%s", nf > 1 ? f[1] : "?");
            continue;
        }
        if (strcmp(f[0], "node") == 0) {
            assert_int_equal(nf, 6);
            size_t n = parse_tokens(f[5], &want, &wantcap);
            int rc = tokenring_topology_add_node(topo, f[1], f[2], f[3], want, n, &err);
            if (rc != TOKENRING_OK)
                fail_msg("%s:%u: node %s: %s", name, lineno, f[1], err.message);
            if (strcmp(f[4], "J") == 0)
                assert_int_equal(tokenring_topology_set_state(topo, f[1], TOKENRING_STATE_JOINING,
                                                              TOKENRING_UP, &err),
                                 TOKENRING_OK);
            continue;
        }
        bool commit = strcmp(f[0], "join") == 0;
        assert_true(commit || strcmp(f[0], "probe") == 0);
        assert_int_equal(nf, 8);
        uint32_t num_tokens = (uint32_t)strtoul(f[4], NULL, 10);
        tokenring_replication *ks = NULL;
        int32_t local_rf = 0;
        const char *mode = f[5];
        if (strncmp(mode, "rf:", 3) == 0) {
            local_rf = atoi(mode + 3);
        } else if (strncmp(mode, "simple:", 7) == 0) {
            assert_int_equal(tokenring_replication_simple(&ks, atoi(mode + 7), 0, &err),
                             TOKENRING_OK);
        } else {
            assert_true(strncmp(mode, "nts:", 4) == 0);
            assert_int_equal(tokenring_replication_network(&ks), TOKENRING_OK);
            char buf[512];
            snprintf(buf, sizeof buf, "%s", mode + 4);
            for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv;
                 kv = strtok_r(NULL, ",", &save)) {
                char *eq = strchr(kv, '=');
                assert_non_null(eq);
                *eq = '\0';
                assert_int_equal(tokenring_replication_set_dc(ks, kv, atoi(eq + 1), 0, &err),
                                 TOKENRING_OK);
            }
        }
        int64_t first = 0;
        bool has_first = strcmp(f[6], "-") != 0;
        if (has_first)
            first = (int64_t)strtoll(f[6], NULL, 10);
        if (gotcap < num_tokens) {
            gotcap = num_tokens;
            got = realloc(got, gotcap * sizeof *got);
            assert_non_null(got);
        }
        int rc = tokenring_allocate_cassandra(got, num_tokens, topo, f[1], f[2], f[3], ks,
                                              local_rf, has_first ? &first : NULL, release, 0,
                                              &err);
        tokenring_replication_free(ks);
        t->vectors++;
        if (strncmp(f[7], "ok ", 3) == 0) {
            size_t n = parse_tokens(f[7] + 3, &want, &wantcap);
            bool same = rc == TOKENRING_OK && n == num_tokens &&
                        memcmp(got, want, n * sizeof *got) == 0;
            if (!same) {
                t->mismatched++;
                size_t diff = 0;
                if (rc == TOKENRING_OK)
                    for (size_t i = 0; i < n; i++)
                        diff += got[i] != want[i];
                print_message("%s:%u (%s) %s %s dc %s rack %s T %u %s: rc %d (%s), %zu of %zu "
                              "tokens differ\n",
                              name, lineno, seq, f[0], f[1], f[2], f[3], num_tokens, mode, rc,
                              err.message, diff, n);
            } else {
                t->ok++;
            }
            if (commit) {
                assert_int_equal(tokenring_topology_add_node(topo, f[1], f[2], f[3], want, n,
                                                             &err),
                                 TOKENRING_OK);
            }
        } else {
            assert_true(strncmp(f[7], "error ", 6) == 0);
            /* Cassandra failed: so must we, with the same reason */
            bool racks = strstr(f[7], "number of racks") != NULL;
            bool taken = strstr(f[7], "already assigned") != NULL;
            bool same = rc != TOKENRING_OK &&
                        (!racks || (rc == TOKENRING_E_IMPOSSIBLE &&
                                    strstr(err.message, "number of racks"))) &&
                        (!taken || (rc == TOKENRING_E_EXISTS &&
                                    strstr(err.message, "already assigned")));
            if (!same) {
                t->mismatched++;
                print_message("%s:%u (%s) expected %s, got rc %d (%s)\n", name, lineno, seq,
                              f[7], rc, err.message);
            } else {
                t->errors++;
            }
        }
    }
    tokenring_topology_free(topo);
    free(line);
    free(want);
    free(got);
    fclose(fp);
}

static void test_vectors(void **state)
{
    (void)state;
    tally t = { 0 };
    run_file("cassandra_allocation.tsv", TOKENRING_CASSANDRA_5_0, &t);
    print_message("cassandra_allocation.tsv: %zu vectors, %zu token sets equal, %zu errors "
                  "equal, %zu differ\n",
                  t.vectors, t.ok, t.errors, t.mismatched);
    assert_true(t.vectors >= 200);
    assert_int_equal(t.mismatched, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
