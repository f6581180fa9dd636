/* SPDX-License-Identifier: Apache-2.0 */
/* The topology file's writer against its reader, as a property: any cluster the library
 * holds (node, datacenter, rack and keyspace names over every character the name rules
 * allow, a replication naming datacenters so spelled, host IDs) is written by
 * tokenring_cluster_format() and read back by tokenring_cluster_parse() to the same
 * names, keyspaces and replications; a name no cluster may hold is refused when it is
 * added, never written. Names are drawn from printable ASCII (every punctuation mark the
 * format gives a meaning: '#', '"', '\'', '\\', '=', ',', '{', '}', ':', '?'), spaces
 * and tabs at either end, multi-byte UTF-8, and control characters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <tokenring/tokenring.h>

#include "testrng.h"

/* One "character" of a generated name (a byte string). */
static const char *const alphabet_extra[] = { "\xc3\xa9", "\xe6\xbc\xa2", "\xf0\x9f\x98\x80",
                                              " ", "  ", "\t" };

static void gen_name(uint64_t *rng, char *out, size_t cap, bool controls)
{
    size_t n = (size_t)tt_between(rng, 1, 10), o = 0;
    for (size_t i = 0; i < n && o + 5 < cap; i++) {
        int pick = tt_between(rng, 0, 99);
        if (pick < 80) {
            out[o++] = (char)tt_between(rng, 0x21, 0x7e);
        } else if (pick < 97 || !controls) {
            const char *s = alphabet_extra[tt_between(rng, 0, 5)];
            size_t l = strlen(s);
            memcpy(out + o, s, l);
            o += l;
        } else {
            static const char ctl[] = { '\n', '\r', 0x01, 0x1b, 0x7f };
            out[o++] = ctl[tt_between(rng, 0, 4)];
        }
    }
    out[o] = '\0';
}

/* Names that stress one rule each, then random ones. */
static const char *const fixed_names[] = {
    "'", "''", "a'b", " #", "a #b", "#", "\"", "a\"b", "\\", "a\\", "=", "a=b", "?",
    "{", "}", "{'class': 'x'}", ",", "a,b", ":", " lead", "trail ", "\t", "a\tb",
    "node", "keyspace", "partitioner", "tokens=5", "dc=x", "\xc3\xa9t\xc3\xa9",
    "replication_factor", "class", "a b", "x#", "#x", "'#'", "\"#\"",
};

struct names {
    char node[64], dc[64], rack[64], ks[64], dc2[64], host[64];
    char dc3[64]; /* a datacenter of the replication only, without nodes ("" for none) */
};

static int build(tokenring_cluster **out, const struct names *nm, tokenring_error *err)
{
    tokenring_cluster *cl = NULL;
    tokenring_topology *t = NULL;
    tokenring_replication *r = NULL;
    int64_t tok[] = { -5, 7 }, tok2[] = { 100 };
    int rc = tokenring_cluster_new(&cl);
    assert_int_equal(rc, TOKENRING_OK);
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    rc = tokenring_topology_add_node(t, nm->node, nm->dc, nm->rack, tok, 2, err);
    if (rc == TOKENRING_OK)
        rc = tokenring_topology_add_node(t, "10.0.0.2", nm->dc2, "r1", tok2, 1, err);
    if (rc == TOKENRING_OK)
        rc = tokenring_cluster_add_topology(cl, t, err);
    if (rc == TOKENRING_OK)
        rc = tokenring_replication_network(&r);
    if (rc == TOKENRING_OK)
        rc = tokenring_replication_set_dc(r, nm->dc, 2, 0, err);
    if (rc == TOKENRING_OK && strcmp(nm->dc, nm->dc2) != 0)
        rc = tokenring_replication_set_dc(r, nm->dc2, 1, 0, err);
    if (rc == TOKENRING_OK && nm->dc3[0] && strcmp(nm->dc3, nm->dc) != 0 &&
        strcmp(nm->dc3, nm->dc2) != 0)
        rc = tokenring_replication_set_dc(r, nm->dc3, 3, 0, err);
    if (rc == TOKENRING_OK)
        rc = tokenring_cluster_add_keyspace(cl, nm->ks, r, err);
    tokenring_replication_free(r);
    tokenring_topology_free(t);
    if (rc != TOKENRING_OK) {
        tokenring_cluster_free(cl);
        return rc;
    }
    *out = cl;
    return TOKENRING_OK;
}

static char *repl_text(const tokenring_replication *r)
{
    size_t len = 0;
    tokenring_replication_format(NULL, 0, &len, r);
    char *s = malloc(len + 1);
    assert_non_null(s);
    assert_int_equal(tokenring_replication_format(s, len + 1, &len, r), TOKENRING_OK);
    return s;
}

/* Writes cl, reads it back, compares; fails the test with the text on a difference. */
static void roundtrip(const tokenring_cluster *cl, const struct names *nm)
{
    size_t len = 0;
    int rc = tokenring_cluster_format(NULL, 0, &len, cl);
    assert_true(rc == TOKENRING_OK || rc == TOKENRING_E_BUFSIZE);
    char *text = malloc(len + 1);
    assert_non_null(text);
    assert_int_equal(tokenring_cluster_format(text, len + 1, &len, cl), TOKENRING_OK);
    tokenring_cluster *back = NULL;
    assert_int_equal(tokenring_cluster_new(&back), TOKENRING_OK);
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int format = 0;
    rc = tokenring_cluster_parse(back, TOKENRING_INPUT_AUTO, text, len, 0, &format, &err);
    if (rc != TOKENRING_OK || format != TOKENRING_INPUT_TOPOLOGY)
        fail_msg("names node '%s' dc '%s' rack '%s' keyspace '%s' dc2 '%s': the written "
                 "file does not read back (format %d, %d:%u:%u %s):\n%s", nm->node, nm->dc,
                 nm->rack, nm->ks, nm->dc2, format, rc, (unsigned)err.line,
                 (unsigned)err.column, err.message, text);
    assert_int_equal(tokenring_cluster_node_count(back), tokenring_cluster_node_count(cl));
    for (size_t i = 0; i < tokenring_cluster_node_count(cl); i++) {
        tokenring_cluster_node_info a, b;
        assert_int_equal(tokenring_cluster_node(&a, cl, i), TOKENRING_OK);
        assert_int_equal(tokenring_cluster_node(&b, back, i), TOKENRING_OK);
        if (strcmp(a.name, b.name) || strcmp(a.datacenter, b.datacenter) ||
            strcmp(a.rack, b.rack) || (a.host_id == NULL) != (b.host_id == NULL) ||
            (a.host_id && strcmp(a.host_id, b.host_id)) || a.token_count != b.token_count ||
            memcmp(a.tokens, b.tokens, a.token_count * sizeof *a.tokens))
            fail_msg("node %zu reads back as '%s' dc '%s' rack '%s', written '%s' dc '%s' "
                     "rack '%s':\n%s", i, b.name, b.datacenter, b.rack, a.name, a.datacenter,
                     a.rack, text);
    }
    assert_int_equal(tokenring_cluster_keyspace_count(back),
                     tokenring_cluster_keyspace_count(cl));
    for (size_t i = 0; i < tokenring_cluster_keyspace_count(cl); i++) {
        const char *na, *nb;
        const tokenring_replication *ra, *rb;
        tokenring_cluster_keyspace(&na, &ra, cl, i);
        tokenring_cluster_keyspace(&nb, &rb, back, i);
        char *ta = repl_text(ra), *tb = repl_text(rb);
        if (strcmp(na, nb) || strcmp(ta, tb))
            fail_msg("keyspace '%s' %s reads back as '%s' %s:\n%s", na, ta, nb, tb, text);
        free(ta);
        free(tb);
    }
    /* and the text written again is the same text */
    size_t len2 = 0;
    tokenring_cluster_format(NULL, 0, &len2, back);
    char *again = malloc(len2 + 1);
    assert_non_null(again);
    assert_int_equal(tokenring_cluster_format(again, len2 + 1, &len2, back), TOKENRING_OK);
    assert_string_equal(again, text);
    free(again);
    free(text);
    tokenring_cluster_free(back);
}

static bool has_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return true;
    return false;
}

static void check_names(const struct names *nm, size_t *written, size_t *refused)
{
    tokenring_cluster *cl = NULL;
    tokenring_error err;
    memset(&err, 0, sizeof err);
    int rc = build(&cl, nm, &err);
    if (rc != TOKENRING_OK) {
        /* refused when added, with a message: only names the rules exclude */
        assert_true(err.message[0] != '\0');
        bool ks_bad = false;
        for (const char *p = nm->ks; *p; p++)
            ks_bad |= (unsigned char)*p <= 0x20 || *p == 0x7f || *p == '#' || *p == '"' ||
                      *p == '=';
        bool dc_option = !strcmp(nm->dc, "class") || !strcmp(nm->dc, "replication_factor") ||
                         !strcmp(nm->dc2, "class") || !strcmp(nm->dc2, "replication_factor") ||
                         !strcmp(nm->dc3, "class") || !strcmp(nm->dc3, "replication_factor");
        if (!(has_control(nm->node) || has_control(nm->dc) || has_control(nm->rack) ||
              has_control(nm->dc2) || has_control(nm->dc3) || ks_bad || dc_option || !strcmp(nm->node, "10.0.0.2")))
            fail_msg("names node '%s' dc '%s' rack '%s' keyspace '%s' dc2 '%s' refused: %s",
                     nm->node, nm->dc, nm->rack, nm->ks, nm->dc2, err.message);
        (*refused)++;
        return;
    }
    roundtrip(cl, nm);
    tokenring_cluster_free(cl);
    (*written)++;
}

static void test_fixed_names(void **state)
{
    (void)state;
    size_t written = 0, refused = 0, nf = sizeof fixed_names / sizeof *fixed_names;
    for (size_t i = 0; i < nf; i++) {
        for (int role = 0; role < 5; role++) {
            struct names nm = { "10.0.0.1", "dc1", "r1", "ks", "dc2", "", "" };
            char *slot[] = { nm.node, nm.dc, nm.rack, nm.ks, nm.dc2 };
            snprintf(slot[role], 64, "%s", fixed_names[i]);
            check_names(&nm, &written, &refused);
        }
    }
    /* every pair as keyspace and datacenter names: one line holds both */
    for (size_t i = 0; i < nf; i++)
        for (size_t j = 0; j < nf; j++) {
            struct names nm = { "10.0.0.1", "dc1", "r1", "ks", "dc2", "", "" };
            snprintf(nm.ks, sizeof nm.ks, "%s", fixed_names[i]);
            snprintf(nm.dc, sizeof nm.dc, "%s", fixed_names[j]);
            check_names(&nm, &written, &refused);
        }
    /* the issue's: a keyspace named ' with a datacenter holding " #" */
    struct names a = { "10.0.0.1", "x #y", "r1", "'", "dc2", "", "" };
    struct names b = { "10.0.0.1", "x #y", "r1", "a'b'c'", "dc #2", "", "'z #'" };
    size_t before = written;
    check_names(&a, &written, &refused);
    check_names(&b, &written, &refused);
    assert_int_equal(written, before + 2);
    assert_true(written > 600);
}

static void test_random_names(void **state)
{
    (void)state;
    uint64_t rng = 35;
    size_t written = 0, refused = 0;
    for (int trial = 0; trial < 4000; trial++) {
        struct names nm;
        bool ctl = trial % 4 == 0;
        gen_name(&rng, nm.node, sizeof nm.node, ctl);
        gen_name(&rng, nm.dc, sizeof nm.dc, ctl);
        gen_name(&rng, nm.rack, sizeof nm.rack, ctl);
        gen_name(&rng, nm.ks, sizeof nm.ks, false);
        gen_name(&rng, nm.dc2, sizeof nm.dc2, ctl);
        gen_name(&rng, nm.dc3, sizeof nm.dc3, trial % 4 == 1);
        if (trial % 3 != 0) /* keyspace names within the rules more often */
            for (char *p = nm.ks; *p; p++)
                if ((unsigned char)*p <= 0x20 || *p == '#' || *p == '"' || *p == '=')
                    *p = '_';
        check_names(&nm, &written, &refused);
    }
    /* most draws are written (and read back); the refused ones broke a rule */
    print_message("%zu clusters written and read back, %zu refused\n", written, refused);
    assert_true(written > 1000);
    assert_true(refused > 100);
}

/* A host ID is written too: any name-like word reads back. */
static void test_host_ids(void **state)
{
    (void)state;
    static const char *const ids[] = { "6ceb7b98-12d7-4c3d-b74e-41f12cc5284e", "a b", "#", "'",
                                       "x\"y", "\\", "=", "\xc3\xa9" };
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) {
        char text[256];
        char quoted[64];
        size_t o = 0;
        quoted[o++] = '"';
        for (const char *p = ids[i]; *p; p++) {
            if (*p == '"' || *p == '\\')
                quoted[o++] = '\\';
            quoted[o++] = *p;
        }
        quoted[o++] = '"';
        quoted[o] = '\0';
        snprintf(text, sizeof text, "node a dc=d rack=r host_id=%s tokens=1\n", quoted);
        tokenring_cluster *cl = NULL;
        tokenring_error err;
        assert_int_equal(tokenring_cluster_new(&cl), TOKENRING_OK);
        assert_int_equal(tokenring_cluster_parse(cl, TOKENRING_INPUT_TOPOLOGY, text,
                                                 strlen(text), 0, NULL, &err), TOKENRING_OK);
        struct names nm = { "a", "d", "r", "-", "-", "", "" };
        snprintf(nm.host, sizeof nm.host, "%s", ids[i]);
        roundtrip(cl, &nm);
        tokenring_cluster_node_info info;
        tokenring_cluster_node(&info, cl, 0);
        assert_string_equal(info.host_id, ids[i]);
        tokenring_cluster_free(cl);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixed_names),
        cmocka_unit_test(test_random_names),
        cmocka_unit_test(test_host_ids),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
