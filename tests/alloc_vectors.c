/* SPDX-License-Identifier: Apache-2.0 */
/* Reading Cassandra's allocation vectors of both partitioners (alloc_vectors.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "alloc_vectors.h"

#ifndef TEST_DATA_DIR
#define TEST_DATA_DIR "tests/data"
#endif

const char *av_data_dir(void)
{
    const char *d = getenv("TOKENRING_TEST_DATA");
    return d && *d ? d : TEST_DATA_DIR;
}

size_t av_seq_stride(void)
{
    const char *quick = getenv("TOKENRING_TEST_QUICK");
    return quick && *quick && strcmp(quick, "0") != 0 ? 6 : 1;
}
size_t av_split_tabs(char *s, char **f, size_t max)
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

tokenring_token128 av_token128(const char *s, size_t len)
{
    tokenring_token128 t;
    tokenring_error err;
    if (tokenring_token128_parse(&t, s, len, &err) != TOKENRING_OK)
        fail_msg("bad token '%.*s': %s", (int)len, s, err.message);
    return t;
}

/* Parses a comma-separated token list; returns the count (the array grows as needed). */
size_t av_tokens128(const char *s, tokenring_token128 **out, size_t *cap)
{
    size_t n = 0;
    while (*s) {
        size_t len = strcspn(s, ",");
        if (n == *cap) {
            *cap = *cap ? *cap * 2 : 64;
            *out = realloc(*out, *cap * sizeof **out);
            assert_non_null(*out);
        }
        (*out)[n++] = av_token128(s, len);
        s += len;
        if (*s == ',')
            s++;
    }
    return n;
}

/* Cassandra does not see joining nodes and may take their tokens: drop such a holder
 * before the join is kept (it is invisible to every later allocation). */
void av_drop_joining_holders128(tokenring_topology *topo, const tokenring_token128 *tokens,
                                 size_t n)
{
    for (size_t i = tokenring_topology_node_count(topo); i-- > 0;) {
        tokenring_node_info info;
        assert_int_equal(tokenring_topology_node(&info, topo, i), TOKENRING_OK);
        if (info.state != TOKENRING_STATE_JOINING)
            continue;
        bool holds = false;
        for (size_t k = 0; k < info.token_count && !holds; k++) {
            tokenring_token128 t;
            assert_int_equal(tokenring_topology_node_token128(&t, topo, i, k), TOKENRING_OK);
            for (size_t j = 0; j < n && !holds; j++)
                holds = t.hi == tokens[j].hi && t.lo == tokens[j].lo;
        }
        if (holds) {
            char name[TOKENRING_MAX_NAME + 1];
            snprintf(name, sizeof name, "%s", info.name);
            assert_int_equal(tokenring_topology_remove_node(topo, name, NULL), TOKENRING_OK);
        }
    }
}

tokenring_replication *av_mode_replication(const char *mode, int32_t *local_rf)
{
    tokenring_replication *ks = NULL;
    tokenring_error err;
    *local_rf = 0;
    if (strncmp(mode, "rf:", 3) == 0) {
        *local_rf = atoi(mode + 3);
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
    return ks;
}


/* Parses a comma-separated token list; returns the count (the array grows as needed). */
size_t av_tokens64(const char *s, int64_t **out, size_t *cap)
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

void av_drop_joining_holders64(tokenring_topology *topo, const int64_t *tokens, size_t n)
{
    for (size_t i = tokenring_topology_node_count(topo); i-- > 0;) {
        tokenring_node_info info;
        assert_int_equal(tokenring_topology_node(&info, topo, i), TOKENRING_OK);
        if (info.state != TOKENRING_STATE_JOINING)
            continue;
        bool holds = false;
        for (size_t k = 0; k < info.token_count && !holds; k++)
            for (size_t j = 0; j < n && !holds; j++)
                holds = info.tokens[k] == tokens[j];
        if (holds) {
            char name[TOKENRING_MAX_NAME + 1];
            snprintf(name, sizeof name, "%s", info.name);
            assert_int_equal(tokenring_topology_remove_node(topo, name, NULL), TOKENRING_OK);
        }
    }
}
