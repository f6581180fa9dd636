/* SPDX-License-Identifier: Apache-2.0 */
/* Tokens as text for every partitioner (partitioner.h, "Tokens in text form"): one table
 * over Murmur3Partitioner, RandomPartitioner and ByteOrderedPartitioner. Each _text call
 * is checked against its typed counterpart (X, X128, X_bytes) on the same inputs, then
 * every error path: bad text, another partitioner's text, short buffers, NULLs. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"

#define NN 3 /* nodes of a case's topology */
#define NT 2 /* tokens of each */

typedef struct pcase {
    tokenring_partitioner p;
    const char *name;                /* the partitioner named in messages */
    const char *nodes[NN][NT];       /* the nodes' tokens (any accepted spelling) */
    const char *join[NT];            /* a joining node's tokens */
    const char *move[1];             /* node 0's new token */
    const char *bad;                 /* not a token of any spelling: PARSE */
    const char *other;               /* another partitioner's token, refused */
    int other_rc;
    const char *canon[4][2];         /* normalize: input, canonical form */
    const char *refused[2];          /* normalize: refused inputs */
    int refused_rc[2];
    const char *cmp[3][2];           /* compare: pairs */
    int cmp_want[3];
} pcase;

static const pcase cases[] = {
    { TOKENRING_PARTITIONER_MURMUR3, "Murmur3Partitioner",
      { { "-9000000000000000000", "-3000000000000000000" },
        { "0", "+3000000000000000000" },
        { "-6000000000000000000", "006000000000000000000" } },
      { "1500000000000000000", "7500000000000000000" },
      { "-8000000000000000000" },
      "12ab", "170141183460469231731687303715884105728", TOKENRING_E_RANGE,
      { { "+0012", "12" }, { "-0", "0" }, { "-9223372036854775808", "-9223372036854775808" },
        { "9223372036854775807", "9223372036854775807" } },
      { "9223372036854775808", "" }, { TOKENRING_E_RANGE, TOKENRING_E_PARSE },
      { { "-1", "1" }, { "5", "+5" }, { "10", "9" } }, { -1, 0, 1 } },
    { TOKENRING_PARTITIONER_RANDOM, "RandomPartitioner",
      { { "0", "85070591730234615865843651857942052864" },
        { "42535295865117307932921825928971026432", "127605887595351923798765477786913079296" },
        { "21267647932558653966460912964485513216", "+106338239662793269832304564822427566080" } },
      { "63802943797675961899382738893456539648", "0150000000000000000000000000000000000000" },
      { "10" },
      "12ab", "-5", TOKENRING_E_RANGE,
      { { "+007", "7" }, { "-1", "-1" }, { "-0", "0" },
        { "170141183460469231731687303715884105728", "170141183460469231731687303715884105728" } },
      { "170141183460469231731687303715884105729", "-2" }, { TOKENRING_E_RANGE, TOKENRING_E_RANGE },
      { { "-1", "0" }, { "007", "7" }, { "10", "9" } }, { -1, 0, 1 } },
    { TOKENRING_PARTITIONER_BYTE_ORDERED, "ByteOrderedPartitioner",
      { { "10", "80" }, { "40", "C0" }, { "2", "a0" } },
      { "6", "E0" },
      { "ff00" },
      "0x12", "-5", TOKENRING_E_PARSE,
      { { "ABC", "0abc" }, { "", "" }, { "00", "00" }, { "fF", "ff" } },
      { "g", "1 2" }, { TOKENRING_E_PARSE, TOKENRING_E_PARSE },
      { { "", "00" }, { "abc", "0ABC" }, { "ff", "0100" } }, { -1, 0, 1 } },
};
#define NCASES (sizeof cases / sizeof cases[0])

static const char *const node_names[NN] = { "10.0.0.1", "10.0.0.2", "10.0.0.3" };

/* --------------------------------------------------------- typed tokens, the oracle */

typedef struct typed {
    size_t n;
    int64_t m[8];
    tokenring_token128 r[8];
    uint8_t bb[8][64];
    const uint8_t *b[8];
    size_t blen[8];
} typed;

static void typed_read(typed *t, tokenring_partitioner p, const char *const *txt, size_t n)
{
    memset(t, 0, sizeof *t);
    t->n = n;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(txt[i]);
        if (p == TOKENRING_PARTITIONER_MURMUR3)
            assert_int_equal(tokenring_token_parse(&t->m[i], txt[i], len, NULL), TOKENRING_OK);
        else if (p == TOKENRING_PARTITIONER_RANDOM)
            assert_int_equal(tokenring_token128_parse(&t->r[i], txt[i], len, NULL), TOKENRING_OK);
        else {
            assert_int_equal(tokenring_byte_token_parse(t->bb[i], sizeof t->bb[i], &t->blen[i],
                                                        txt[i], len, NULL),
                             TOKENRING_OK);
            t->b[i] = t->bb[i];
        }
    }
}

static int add_typed(tokenring_topology *topo, tokenring_partitioner p, const char *name,
                     const typed *t)
{
    /* no tokens: NULL arrays, as the text call passes them */
    if (p == TOKENRING_PARTITIONER_MURMUR3)
        return tokenring_topology_add_node(topo, name, "dc1", "rack1", t->n ? t->m : NULL,
                                           t->n, NULL);
    if (p == TOKENRING_PARTITIONER_RANDOM)
        return tokenring_topology_add_node128(topo, name, "dc1", "rack1", t->n ? t->r : NULL,
                                              t->n, NULL);
    return tokenring_topology_add_node_bytes(topo, name, "dc1", "rack1", t->n ? t->b : NULL,
                                             t->n ? t->blen : NULL, t->n, NULL);
}

/* The text of a typed token, as the public format functions write it. */
static void text_m(char *buf, int64_t v) { snprintf(buf, 48, "%" PRId64, v); }
static void text_r(char *buf, tokenring_token128 v)
{
    size_t len;
    assert_int_equal(tokenring_token128_format(buf, 48, &len, v), TOKENRING_OK);
}
static void text_b(char *buf, const uint8_t *b, size_t n)
{
    size_t len;
    assert_int_equal(tokenring_byte_token_format(buf, 160, &len, b, n), TOKENRING_OK);
}

static tokenring_topology *new_topo(tokenring_partitioner p)
{
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new_partitioned(&t, p), TOKENRING_OK);
    return t;
}

/* The case's topology, made with the typed calls (text false) or the _text ones. */
static tokenring_topology *case_topo(const pcase *c, bool text)
{
    tokenring_topology *t = new_topo(c->p);
    for (size_t i = 0; i < NN; i++) {
        if (text) {
            assert_int_equal(tokenring_topology_add_node_text(t, node_names[i], "dc1", "rack1",
                                                              c->nodes[i], NT, NULL),
                             TOKENRING_OK);
        } else {
            typed ty;
            typed_read(&ty, c->p, c->nodes[i], NT);
            assert_int_equal(add_typed(t, c->p, node_names[i], &ty), TOKENRING_OK);
        }
    }
    return t;
}

/* Token k of node i of a topology, read with the typed calls and formatted. */
static void typed_node_token(char *buf, const tokenring_topology *t, size_t i, size_t k)
{
    switch (tokenring_topology_partitioner(t)) {
    case TOKENRING_PARTITIONER_MURMUR3: {
        tokenring_node_info info;
        assert_int_equal(tokenring_topology_node(&info, t, i), TOKENRING_OK);
        assert_true(k < info.token_count);
        text_m(buf, info.tokens[k]);
        break;
    }
    case TOKENRING_PARTITIONER_RANDOM: {
        tokenring_token128 v;
        assert_int_equal(tokenring_topology_node_token128(&v, t, i, k), TOKENRING_OK);
        text_r(buf, v);
        break;
    }
    default: {
        const uint8_t *b;
        size_t n;
        assert_int_equal(tokenring_topology_node_token_bytes(&b, &n, t, i, k), TOKENRING_OK);
        text_b(buf, b, n);
    }
    }
}

static void assert_same_nodes(const tokenring_topology *a, const tokenring_topology *b)
{
    assert_int_equal(tokenring_topology_node_count(a), tokenring_topology_node_count(b));
    for (size_t i = 0; i < tokenring_topology_node_count(a); i++) {
        tokenring_node_info ia, ib;
        assert_int_equal(tokenring_topology_node(&ia, a, i), TOKENRING_OK);
        assert_int_equal(tokenring_topology_node(&ib, b, i), TOKENRING_OK);
        assert_string_equal(ia.name, ib.name);
        assert_int_equal(ia.token_count, ib.token_count);
        for (size_t k = 0; k < ia.token_count; k++) {
            char want[160], got[160];
            size_t len = 0;
            typed_node_token(want, a, i, k);
            assert_int_equal(tokenring_topology_node_token_text(got, sizeof got, &len, b, i, k),
                             TOKENRING_OK);
            assert_string_equal(got, want);
            assert_int_equal(len, strlen(want));
        }
    }
}

static void assert_msg(const tokenring_error *err, int code, const char *part)
{
    assert_int_equal(err->code, code);
    if (!strstr(err->message, part))
        fail_msg("message \"%s\" lacks \"%s\"", err->message, part);
}

/* ----------------------------------------------------------- the token of a key */

static void test_key_token_text(void **state)
{
    (void)state;
    uint8_t big[300];
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = (uint8_t)(i * 7 + 1);
    const struct { const void *k; size_t n; } keys[] = { { "", 0 }, { "a", 1 },
                                                         { "hello", 5 }, { big, sizeof big } };
    for (size_t c = 0; c < NCASES; c++) {
        tokenring_partitioner p = cases[c].p;
        for (size_t i = 0; i < 4; i++) {
            char want[700], got[700];
            if (p == TOKENRING_PARTITIONER_MURMUR3)
                text_m(want, tokenring_token(keys[i].k, keys[i].n));
            else if (p == TOKENRING_PARTITIONER_RANDOM)
                text_r(want, tokenring_random_token(keys[i].k, keys[i].n));
            else {
                size_t l;
                assert_int_equal(tokenring_byte_token_format(want, sizeof want, &l, keys[i].k,
                                                             keys[i].n),
                                 TOKENRING_OK);
            }
            size_t len = 0;
            assert_int_equal(tokenring_key_token_text(got, sizeof got, &len, p, keys[i].k,
                                                      keys[i].n),
                             TOKENRING_OK);
            assert_string_equal(got, want);
            assert_int_equal(len, strlen(want));
            /* a buffer one byte short, and none: the length needed */
            len = 0;
            assert_int_equal(tokenring_key_token_text(got, strlen(want), &len, p, keys[i].k,
                                                      keys[i].n),
                             TOKENRING_E_BUFSIZE);
            assert_int_equal(len, strlen(want));
            len = 0;
            int rc = tokenring_key_token_text(NULL, 0, &len, p, keys[i].k, keys[i].n);
            assert_int_equal(rc, TOKENRING_E_BUFSIZE);
            assert_int_equal(len, strlen(want));
        }
        char buf[64];
        size_t len;
        assert_int_equal(tokenring_key_token_text(buf, sizeof buf, NULL, p, "a", 1),
                         TOKENRING_E_INVAL);
        assert_int_equal(tokenring_key_token_text(NULL, 4, &len, p, "a", 1), TOKENRING_E_INVAL);
        assert_int_equal(tokenring_key_token_text(buf, sizeof buf, &len, p, NULL, 1),
                         TOKENRING_E_INVAL);
        assert_int_equal(tokenring_key_token_text(buf, sizeof buf, &len, p, NULL, 0),
                         TOKENRING_OK);
    }
    char buf[8];
    size_t len;
    assert_int_equal(tokenring_key_token_text(buf, sizeof buf, &len, (tokenring_partitioner)3,
                                              "a", 1),
                     TOKENRING_E_INVAL);
}

/* ------------------------------------------------------- normalize and compare */

static void test_normalize(void **state)
{
    (void)state;
    for (size_t c = 0; c < NCASES; c++) {
        const pcase *pc = &cases[c];
        for (size_t i = 0; i < 4; i++) {
            const char *in = pc->canon[i][0], *want = pc->canon[i][1];
            char got[64];
            size_t len = 99;
            tokenring_error err;
            assert_int_equal(tokenring_token_text_normalize(got, sizeof got, &len, pc->p, in,
                                                            strlen(in), &err),
                             TOKENRING_OK);
            assert_string_equal(got, want);
            assert_int_equal(len, strlen(want));
            /* the canonical form is a fixed point */
            assert_int_equal(tokenring_token_text_normalize(got, sizeof got, &len, pc->p, want,
                                                            strlen(want), NULL),
                             TOKENRING_OK);
            assert_string_equal(got, want);
            /* short buffer: the length needed, and a message */
            len = 0;
            assert_int_equal(tokenring_token_text_normalize(got, strlen(want), &len, pc->p, in,
                                                            strlen(in), &err),
                             TOKENRING_E_BUFSIZE);
            assert_int_equal(len, strlen(want));
            assert_msg(&err, TOKENRING_E_BUFSIZE, "too small");
        }
        for (size_t i = 0; i < 2; i++) {
            char got[64];
            size_t len = 0;
            tokenring_error err;
            const char *in = pc->refused[i];
            assert_int_equal(tokenring_token_text_normalize(got, sizeof got, &len, pc->p, in,
                                                            strlen(in), &err),
                             pc->refused_rc[i]);
            assert_msg(&err, pc->refused_rc[i], pc->name);
        }
        /* a token text is read up to len, not to a NUL */
        char got[64];
        size_t len;
        assert_int_equal(tokenring_token_text_normalize(got, sizeof got, &len, pc->p, "12345", 2,
                                                        NULL),
                         TOKENRING_OK);
        assert_string_equal(got, "12");
        tokenring_error err;
        assert_int_equal(tokenring_token_text_normalize(got, sizeof got, &len, pc->p, pc->bad,
                                                        strlen(pc->bad), &err),
                         TOKENRING_E_PARSE);
        assert_msg(&err, TOKENRING_E_PARSE, pc->name);
        assert_true(err.column > 0);
        assert_int_equal(tokenring_token_text_normalize(got, sizeof got, &len, pc->p, pc->other,
                                                        strlen(pc->other), &err),
                         pc->other_rc);
        assert_msg(&err, pc->other_rc, "is not a");
        assert_int_equal(tokenring_token_text_normalize(got, sizeof got, NULL, pc->p, "1", 1, &err),
                         TOKENRING_E_INVAL);
        assert_msg(&err, TOKENRING_E_INVAL, "len_out");
        assert_int_equal(tokenring_token_text_normalize(NULL, 3, &len, pc->p, "1", 1, &err),
                         TOKENRING_E_INVAL);
        assert_msg(&err, TOKENRING_E_INVAL, "cap is 3");
        assert_int_equal(tokenring_token_text_normalize(got, sizeof got, &len, pc->p, NULL, 0,
                                                        &err),
                         TOKENRING_E_INVAL);
        assert_msg(&err, TOKENRING_E_INVAL, "text is NULL");
    }
    char got[8];
    size_t len;
    tokenring_error err;
    assert_int_equal(tokenring_token_text_normalize(got, sizeof got, &len,
                                                    (tokenring_partitioner)7, "1", 1, &err),
                     TOKENRING_E_INVAL);
    assert_msg(&err, TOKENRING_E_INVAL, "unknown partitioner 7");
    /* a token longer than a message shows is cut with "..." and unprintable bytes as '?' */
    char longbad[100];
    memset(longbad, '1', sizeof longbad);
    longbad[1] = '\n';
    assert_int_equal(tokenring_token_text_normalize(got, sizeof got, &len,
                                                    TOKENRING_PARTITIONER_MURMUR3, longbad,
                                                    sizeof longbad, &err),
                     TOKENRING_E_PARSE);
    assert_msg(&err, TOKENRING_E_PARSE, "\"1?11111111111111111111111111111111111111...\"");
    /* ByteOrderedPartitioner texts longer than the calls' stack buffers: 1201 digits */
    static char big[1202], want[1203], big2[1205];
    memset(big, 'A', 1201);
    want[0] = '0';
    memset(want + 1, 'a', 1201);
    char norm[1300];
    assert_int_equal(tokenring_token_text_normalize(norm, sizeof norm, &len,
                                                    TOKENRING_PARTITIONER_BYTE_ORDERED, big, 1201,
                                                    &err),
                     TOKENRING_OK);
    assert_string_equal(norm, want);
    assert_int_equal(len, 1202);
    big[1200] = 'G';
    assert_int_equal(tokenring_token_text_normalize(norm, sizeof norm, &len,
                                                    TOKENRING_PARTITIONER_BYTE_ORDERED, big, 1201,
                                                    &err),
                     TOKENRING_E_PARSE);
    assert_int_equal(err.column, 1201);
    int cmp = 9;
    memcpy(big2, want, 1202);
    memcpy(big2 + 1202, "00", 2);
    assert_int_equal(tokenring_token_text_compare(&cmp, TOKENRING_PARTITIONER_BYTE_ORDERED, want,
                                                  big2, NULL),
                     TOKENRING_OK);
    assert_int_equal(cmp, -1); /* a proper prefix first */
}

/* The typed order of two tokens of a case's partitioner. */
static int typed_compare(tokenring_partitioner p, const char *a, const char *b)
{
    typed x, y;
    typed_read(&x, p, &a, 1);
    typed_read(&y, p, &b, 1);
    int c = p == TOKENRING_PARTITIONER_MURMUR3 ? (x.m[0] > y.m[0]) - (x.m[0] < y.m[0])
            : p == TOKENRING_PARTITIONER_RANDOM
                ? tokenring_token128_compare(x.r[0], y.r[0])
                : tokenring_byte_token_compare(x.b[0], x.blen[0], y.b[0], y.blen[0]);
    return (c > 0) - (c < 0);
}

static void test_compare(void **state)
{
    (void)state;
    for (size_t c = 0; c < NCASES; c++) {
        const pcase *pc = &cases[c];
        for (size_t i = 0; i < 3; i++) {
            int cmp = 99;
            const char *a = pc->cmp[i][0], *b = pc->cmp[i][1];
            assert_int_equal(tokenring_token_text_compare(&cmp, pc->p, a, b, NULL), TOKENRING_OK);
            assert_int_equal(cmp, pc->cmp_want[i]);
            assert_int_equal(cmp, typed_compare(pc->p, a, b));
            assert_int_equal(tokenring_token_text_compare(&cmp, pc->p, b, a, NULL), TOKENRING_OK);
            assert_int_equal(cmp, -pc->cmp_want[i]);
        }
        /* every pair of the case's node tokens, against the typed order */
        for (size_t i = 0; i < NN * NT; i++)
            for (size_t j = 0; j < NN * NT; j++) {
                const char *a = pc->nodes[i / NT][i % NT], *b = pc->nodes[j / NT][j % NT];
                int cmp = 99;
                assert_int_equal(tokenring_token_text_compare(&cmp, pc->p, a, b, NULL),
                                 TOKENRING_OK);
                assert_int_equal(cmp, typed_compare(pc->p, a, b));
            }
        int cmp = 42;
        tokenring_error err;
        assert_int_equal(tokenring_token_text_compare(&cmp, pc->p, pc->bad, "1", &err),
                         TOKENRING_E_PARSE);
        assert_msg(&err, TOKENRING_E_PARSE, "token 1 of 2");
        assert_msg(&err, TOKENRING_E_PARSE, pc->name);
        assert_int_equal(tokenring_token_text_compare(&cmp, pc->p, "1", pc->other, &err),
                         pc->other_rc);
        assert_msg(&err, pc->other_rc, "token 2 of 2");
        assert_int_equal(cmp, 42);
        assert_int_equal(tokenring_token_text_compare(NULL, pc->p, "1", "2", &err),
                         TOKENRING_E_INVAL);
        assert_msg(&err, TOKENRING_E_INVAL, "cmp_out");
        assert_int_equal(tokenring_token_text_compare(&cmp, pc->p, NULL, "2", &err),
                         TOKENRING_E_INVAL);
        assert_msg(&err, TOKENRING_E_INVAL, "a is NULL");
        assert_int_equal(tokenring_token_text_compare(&cmp, pc->p, "1", NULL, &err),
                         TOKENRING_E_INVAL);
        assert_msg(&err, TOKENRING_E_INVAL, "b is NULL");
    }
    int cmp;
    assert_int_equal(tokenring_token_text_compare(&cmp, (tokenring_partitioner)-1, "1", "2", NULL),
                     TOKENRING_E_INVAL);
    /* ByteOrderedPartitioner: a proper prefix first, odd digit counts read with a 0 */
    assert_int_equal(tokenring_token_text_compare(&cmp, TOKENRING_PARTITIONER_BYTE_ORDERED, "0a",
                                                  "0a00", NULL),
                     TOKENRING_OK);
    assert_int_equal(cmp, -1);
    assert_int_equal(tokenring_token_text_compare(&cmp, TOKENRING_PARTITIONER_BYTE_ORDERED, "1",
                                                  "01", NULL),
                     TOKENRING_OK);
    assert_int_equal(cmp, 0);
    assert_int_equal(tokenring_token_text_compare(&cmp, TOKENRING_PARTITIONER_BYTE_ORDERED, "9",
                                                  "0A", NULL),
                     TOKENRING_OK);
    assert_int_equal(cmp, -1);
}

/* --------------------------------------------------------------------- topology */

static void test_topology_text(void **state)
{
    (void)state;
    for (size_t c = 0; c < NCASES; c++) {
        const pcase *pc = &cases[c];
        tokenring_topology *typed_t = case_topo(pc, false), *text_t = case_topo(pc, true);
        assert_same_nodes(typed_t, text_t);

        /* set_tokens: the typed call and the text call give the same node */
        typed mv;
        typed_read(&mv, pc->p, pc->move, 1);
        int rc = pc->p == TOKENRING_PARTITIONER_MURMUR3
                     ? tokenring_topology_set_tokens(typed_t, node_names[0], mv.m, 1, NULL)
                 : pc->p == TOKENRING_PARTITIONER_RANDOM
                     ? tokenring_topology_set_tokens128(typed_t, node_names[0], mv.r, 1, NULL)
                     : tokenring_topology_set_tokens_bytes(typed_t, node_names[0], mv.b, mv.blen,
                                                           1, NULL);
        assert_int_equal(rc, TOKENRING_OK);
        assert_int_equal(tokenring_topology_set_tokens_text(text_t, node_names[0], pc->move, 1,
                                                            NULL),
                         TOKENRING_OK);
        assert_same_nodes(typed_t, text_t);

        /* errors: the bad token named with its position; nothing changes */
        tokenring_error err;
        const char *four[4] = { pc->join[0], pc->join[1], pc->bad, pc->join[0] };
        assert_int_equal(tokenring_topology_add_node_text(text_t, "10.0.0.9", "dc1", "rack1",
                                                          four, 4, &err),
                         TOKENRING_E_PARSE);
        char want[128];
        snprintf(want, sizeof want, "token 3 of 4 (\"%s\"): not a %s token: ", pc->bad,
                 pc->name);
        assert_msg(&err, TOKENRING_E_PARSE, want);
        assert_true(err.column > 0);
        const char *other[2] = { pc->join[0], pc->other };
        assert_int_equal(tokenring_topology_set_tokens_text(text_t, node_names[1], other, 2, &err),
                         pc->other_rc);
        snprintf(want, sizeof want, "token 2 of 2 (\"%s\"): not a %s token", pc->other, pc->name);
        assert_msg(&err, pc->other_rc, want);
        assert_same_nodes(typed_t, text_t);
        /* the typed call's own errors come through: a taken token, an unknown node */
        assert_int_equal(tokenring_topology_add_node_text(text_t, "10.0.0.9", "dc1", "rack1",
                                                          pc->nodes[1], 1, &err),
                         TOKENRING_E_EXISTS);
        assert_int_equal(tokenring_topology_set_tokens_text(text_t, "nobody", pc->join, 1, &err),
                         TOKENRING_E_NOTFOUND);
        /* no tokens: the typed call's answer */
        typed none;
        memset(&none, 0, sizeof none);
        int want_rc = add_typed(typed_t, pc->p, "10.0.0.9", &none);
        assert_int_not_equal(want_rc, TOKENRING_OK);
        assert_int_equal(tokenring_topology_add_node_text(text_t, "10.0.0.9", "dc1", "rack1", NULL,
                                                          0, NULL),
                         want_rc);
        /* NULLs */
        assert_int_equal(tokenring_topology_add_node_text(text_t, "10.0.0.9", "dc1", "rack1", NULL,
                                                          2, &err),
                         TOKENRING_E_INVAL);
        assert_msg(&err, TOKENRING_E_INVAL, "tokens is NULL");
        const char *holes[3] = { pc->join[0], NULL, pc->join[1] };
        assert_int_equal(tokenring_topology_add_node_text(text_t, "10.0.0.9", "dc1", "rack1", holes,
                                                          3, &err),
                         TOKENRING_E_INVAL);
        assert_msg(&err, TOKENRING_E_INVAL, "token 2 of 3 is NULL");
        assert_int_equal(tokenring_topology_add_node_text(NULL, "x", "dc1", "rack1", pc->join, 2,
                                                          &err),
                         TOKENRING_E_INVAL);
        assert_int_equal(tokenring_topology_set_tokens_text(NULL, "x", pc->join, 2, &err),
                         TOKENRING_E_INVAL);
        assert_same_nodes(typed_t, text_t);

        /* node_token_text: short buffers, bad indices, NULLs */
        char buf[160];
        size_t len = 0, need;
        assert_int_equal(tokenring_topology_node_token_text(buf, sizeof buf, &need, text_t, 1, 1),
                         TOKENRING_OK);
        assert_int_equal(tokenring_topology_node_token_text(buf, need, &len, text_t, 1, 1),
                         TOKENRING_E_BUFSIZE);
        assert_int_equal(len, need);
        assert_int_equal(tokenring_topology_node_token_text(NULL, 0, &len, text_t, 1, 1),
                         TOKENRING_E_BUFSIZE);
        assert_int_equal(tokenring_topology_node_token_text(buf, sizeof buf, &len, text_t, NN, 0),
                         TOKENRING_E_RANGE);
        assert_int_equal(tokenring_topology_node_token_text(buf, sizeof buf, &len, text_t, 1, NT),
                         TOKENRING_E_RANGE);
        assert_int_equal(tokenring_topology_node_token_text(buf, sizeof buf, NULL, text_t, 0, 0),
                         TOKENRING_E_INVAL);
        assert_int_equal(tokenring_topology_node_token_text(NULL, 8, &len, text_t, 0, 0),
                         TOKENRING_E_INVAL);
        assert_int_equal(tokenring_topology_node_token_text(buf, sizeof buf, &len, NULL, 0, 0),
                         TOKENRING_E_INVAL);
        tokenring_topology_free(typed_t);
        tokenring_topology_free(text_t);
    }
}

/* ------------------------------------------------------------------------- ring */

static void typed_ring_token(char *buf, const tokenring_ring *ring, size_t i)
{
    switch (tokenring_ring_partitioner(ring)) {
    case TOKENRING_PARTITIONER_MURMUR3: {
        size_t n;
        const int64_t *t = tokenring_ring_tokens(ring, &n);
        assert_true(i < n);
        text_m(buf, t[i]);
        break;
    }
    case TOKENRING_PARTITIONER_RANDOM: {
        tokenring_token128 v;
        assert_int_equal(tokenring_ring_token128(&v, ring, i), TOKENRING_OK);
        text_r(buf, v);
        break;
    }
    default: {
        const uint8_t *b;
        size_t n;
        assert_int_equal(tokenring_ring_token_bytes(&b, &n, ring, i), TOKENRING_OK);
        text_b(buf, b, n);
    }
    }
}

static uint32_t typed_search(const tokenring_ring *ring, const char *text)
{
    typed t;
    tokenring_partitioner p = tokenring_ring_partitioner(ring);
    typed_read(&t, p, &text, 1);
    return p == TOKENRING_PARTITIONER_MURMUR3 ? tokenring_ring_search(ring, t.m[0])
           : p == TOKENRING_PARTITIONER_RANDOM ? tokenring_ring_search128(ring, t.r[0])
                                              : tokenring_ring_search_bytes(ring, t.b[0],
                                                                            t.blen[0]);
}

static void test_ring_text(void **state)
{
    (void)state;
    for (size_t c = 0; c < NCASES; c++) {
        const pcase *pc = &cases[c];
        tokenring_topology *topo = case_topo(pc, true);
        tokenring_ring *ring = NULL;
        assert_int_equal(tokenring_ring_build(&ring, topo, NULL), TOKENRING_OK);
        size_t count = 0;
        (void)tokenring_ring_tokens(ring, &count);
        assert_int_equal(count, NN * NT);
        for (size_t i = 0; i < count; i++) {
            char want[160], got[160];
            size_t len = 0;
            typed_ring_token(want, ring, i);
            assert_int_equal(tokenring_ring_token_text(got, sizeof got, &len, ring, i),
                             TOKENRING_OK);
            assert_string_equal(got, want);
            assert_int_equal(len, strlen(want));
            /* searching a ring token finds its own range */
            uint32_t idx = 99;
            assert_int_equal(tokenring_ring_search_text(&idx, ring, got, len, NULL), TOKENRING_OK);
            assert_int_equal(idx, i);
            len = 0;
            assert_int_equal(tokenring_ring_token_text(got, strlen(want), &len, ring, i),
                             TOKENRING_E_BUFSIZE);
            assert_int_equal(len, strlen(want));
        }
        /* other probes, against the typed search (the case's join, move and normalize
         * inputs, which are all tokens of the partitioner) */
        const char *probes[] = { pc->join[0], pc->join[1], pc->move[0], pc->canon[0][0],
                                 pc->canon[1][0], pc->canon[2][0], pc->canon[3][0] };
        for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
            uint32_t idx = 99;
            assert_int_equal(tokenring_ring_search_text(&idx, ring, probes[i], strlen(probes[i]),
                                                        NULL),
                             TOKENRING_OK);
            assert_int_equal(idx, typed_search(ring, probes[i]));
        }
        char buf[160];
        size_t len;
        uint32_t idx = 77;
        tokenring_error err;
        assert_int_equal(tokenring_ring_token_text(buf, sizeof buf, &len, ring, count),
                         TOKENRING_E_RANGE);
        assert_int_equal(tokenring_ring_token_text(buf, sizeof buf, NULL, ring, 0),
                         TOKENRING_E_INVAL);
        assert_int_equal(tokenring_ring_token_text(NULL, 1, &len, ring, 0), TOKENRING_E_INVAL);
        assert_int_equal(tokenring_ring_token_text(buf, sizeof buf, &len, NULL, 0),
                         TOKENRING_E_INVAL);
        assert_int_equal(tokenring_ring_search_text(&idx, ring, pc->bad, strlen(pc->bad), &err),
                         TOKENRING_E_PARSE);
        assert_msg(&err, TOKENRING_E_PARSE, pc->name);
        assert_int_equal(tokenring_ring_search_text(&idx, ring, pc->other, strlen(pc->other),
                                                    &err),
                         pc->other_rc);
        assert_msg(&err, pc->other_rc, pc->name);
        assert_int_equal(idx, 77);
        assert_int_equal(tokenring_ring_search_text(NULL, ring, "1", 1, &err), TOKENRING_E_INVAL);
        assert_msg(&err, TOKENRING_E_INVAL, "index_out");
        assert_int_equal(tokenring_ring_search_text(&idx, NULL, "1", 1, &err), TOKENRING_E_INVAL);
        assert_msg(&err, TOKENRING_E_INVAL, "ring");
        assert_int_equal(tokenring_ring_search_text(&idx, ring, NULL, 1, &err), TOKENRING_E_INVAL);
        assert_msg(&err, TOKENRING_E_INVAL, "token");
        tokenring_ring_free(ring);
        tokenring_topology_free(topo);
    }
}

/* A ByteOrderedPartitioner token longer than the search's stack buffer: 600 bytes from
 * 0x9f, between the ring tokens 80 and a0, so in the range of a0; with an odd digit
 * count the token starts 0x09, between 02 and 10. */
static void test_ring_search_long_bytes(void **state)
{
    (void)state;
    tokenring_topology *topo = case_topo(&cases[2], true);
    tokenring_ring *ring = NULL;
    assert_int_equal(tokenring_ring_build(&ring, topo, NULL), TOKENRING_OK);
    char text[1201];
    memset(text, 'f', 1200);
    text[0] = '9';
    text[1200] = '\0';
    uint32_t idx = 99;
    char tok[8];
    size_t len;
    assert_int_equal(tokenring_ring_search_text(&idx, ring, text, 1200, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_ring_token_text(tok, sizeof tok, &len, ring, idx), TOKENRING_OK);
    assert_string_equal(tok, "a0");
    assert_int_equal(tokenring_ring_search_text(&idx, ring, text, 1199, NULL), TOKENRING_OK);
    assert_int_equal(tokenring_ring_token_text(tok, sizeof tok, &len, ring, idx), TOKENRING_OK);
    assert_string_equal(tok, "10");
    tokenring_ring_free(ring);
    tokenring_topology_free(topo);
}

/* --------------------------------------------------------------------- movement */

static const uint8_t sample_keys[] = "alphabetagammadelta";
static const uint64_t sample_offsets[] = { 0, 5, 9, 9, 14, 19 }; /* one key is empty */
#define NSAMPLES 5

static tokenring_replication *simple_rf(int32_t rf)
{
    tokenring_replication *r = NULL;
    assert_int_equal(tokenring_replication_simple(&r, rf, 0, NULL), TOKENRING_OK);
    return r;
}

/* The typed join (move when join is false) of a case on topo. */
static int typed_movement(tokenring_movement **out, const pcase *pc,
                          const tokenring_topology *topo, const tokenring_replication *r,
                          bool join)
{
    typed t;
    typed_read(&t, pc->p, join ? pc->join : pc->move, join ? NT : 1);
    const char *name = join ? "10.0.0.9" : node_names[0];
    switch (pc->p) {
    case TOKENRING_PARTITIONER_MURMUR3: {
        int64_t st[NSAMPLES];
        assert_int_equal(tokenring_tokens(st, sample_keys, sample_offsets, NSAMPLES),
                         TOKENRING_OK);
        return join ? tokenring_movement_join(out, topo, r, name, "dc1", "rack2", t.m, t.n, st,
                                              NSAMPLES, NULL)
                    : tokenring_movement_move(out, topo, r, name, t.m, t.n, st, NSAMPLES, NULL);
    }
    case TOKENRING_PARTITIONER_RANDOM:
        return join ? tokenring_movement_join128(out, topo, r, name, "dc1", "rack2", t.r, t.n,
                                                 sample_keys, sample_offsets, NSAMPLES, NULL)
                    : tokenring_movement_move128(out, topo, r, name, t.r, t.n, sample_keys,
                                                 sample_offsets, NSAMPLES, NULL);
    default:
        return join ? tokenring_movement_join_bytes(out, topo, r, name, "dc1", "rack2", t.b,
                                                    t.blen, t.n, sample_keys, sample_offsets,
                                                    NSAMPLES, NULL)
                    : tokenring_movement_move_bytes(out, topo, r, name, t.b, t.blen, t.n,
                                                    sample_keys, sample_offsets, NSAMPLES, NULL);
    }
}

static void typed_bound(char *buf, const tokenring_movement *m, size_t i, int end)
{
    switch (tokenring_movement_partitioner(m)) {
    case TOKENRING_PARTITIONER_MURMUR3: {
        tokenring_moved_range r;
        assert_int_equal(tokenring_movement_get_range(&r, m, i), TOKENRING_OK);
        text_m(buf, end ? r.end : r.start);
        break;
    }
    case TOKENRING_PARTITIONER_RANDOM: {
        tokenring_token128 s, e;
        assert_int_equal(tokenring_movement_range_bounds128(&s, &e, m, i), TOKENRING_OK);
        text_r(buf, end ? e : s);
        break;
    }
    default: {
        const uint8_t *s, *e;
        size_t sl, el;
        assert_int_equal(tokenring_movement_range_bounds_bytes(&s, &sl, &e, &el, m, i),
                         TOKENRING_OK);
        text_b(buf, end ? e : s, end ? el : sl);
    }
    }
}

static void typed_sample(char *buf, const tokenring_movement *m, size_t i)
{
    switch (tokenring_movement_partitioner(m)) {
    case TOKENRING_PARTITIONER_MURMUR3: {
        tokenring_sample_change s;
        assert_int_equal(tokenring_movement_get_sample(&s, m, i), TOKENRING_OK);
        text_m(buf, s.token);
        break;
    }
    case TOKENRING_PARTITIONER_RANDOM: {
        tokenring_token128 v;
        assert_int_equal(tokenring_movement_sample_token128(&v, m, i), TOKENRING_OK);
        text_r(buf, v);
        break;
    }
    default: {
        const uint8_t *b;
        size_t n;
        assert_int_equal(tokenring_movement_sample_token_bytes(&b, &n, m, i), TOKENRING_OK);
        text_b(buf, b, n);
    }
    }
}

static void assert_same_movement(const tokenring_movement *a, const tokenring_movement *b)
{
    tokenring_movement_summary sa, sb;
    assert_int_equal(tokenring_movement_get_summary(&sa, a), TOKENRING_OK);
    assert_int_equal(tokenring_movement_get_summary(&sb, b), TOKENRING_OK);
    assert_memory_equal(&sa, &sb, sizeof sa);
    assert_true(sa.range_count > 0);
    assert_int_equal(sa.sample_count, NSAMPLES);
    assert_int_equal(tokenring_movement_partitioner(a), tokenring_movement_partitioner(b));
    for (size_t i = 0; i < sa.range_count; i++)
        for (int end = 0; end <= 1; end++) {
            char want[160], got[160];
            size_t len = 0;
            typed_bound(want, a, i, end);
            assert_int_equal(tokenring_movement_range_bound_text(got, sizeof got, &len, b, i, end),
                             TOKENRING_OK);
            assert_string_equal(got, want);
            assert_int_equal(len, strlen(want));
        }
    for (size_t i = 0; i < sa.sample_count; i++) {
        char want[160], got[160];
        size_t len = 0;
        typed_sample(want, a, i);
        assert_int_equal(tokenring_movement_sample_token_text(got, sizeof got, &len, b, i),
                         TOKENRING_OK);
        assert_string_equal(got, want);
        /* the token of the sample key, as tokenring_key_token_text() writes it */
        char key[160];
        assert_int_equal(tokenring_key_token_text(key, sizeof key, &len,
                                                  tokenring_movement_partitioner(b),
                                                  sample_keys + sample_offsets[i],
                                                  (size_t)(sample_offsets[i + 1] -
                                                           sample_offsets[i])),
                         TOKENRING_OK);
        assert_string_equal(got, key);
    }
}

static void test_movement_text(void **state)
{
    (void)state;
    for (size_t c = 0; c < NCASES; c++) {
        const pcase *pc = &cases[c];
        tokenring_topology *topo = case_topo(pc, true);
        tokenring_replication *r = simple_rf(2);
        for (int join = 1; join >= 0; join--) {
            tokenring_movement *want = NULL, *got = NULL;
            assert_int_equal(typed_movement(&want, pc, topo, r, join), TOKENRING_OK);
            int rc = join ? tokenring_movement_join_text(&got, topo, r, "10.0.0.9", "dc1",
                                                         "rack2", pc->join, NT, sample_keys,
                                                         sample_offsets, NSAMPLES, NULL)
                          : tokenring_movement_move_text(&got, topo, r, node_names[0], pc->move,
                                                         1, sample_keys, sample_offsets,
                                                         NSAMPLES, NULL);
            assert_int_equal(rc, TOKENRING_OK);
            assert_same_movement(want, got);
            tokenring_movement_free(want);
            tokenring_movement_free(got);
        }
        /* the topology is not modified */
        tokenring_topology *fresh = case_topo(pc, false);
        assert_same_nodes(fresh, topo);
        tokenring_topology_free(fresh);

        tokenring_movement *m = NULL;
        tokenring_error err;
        const char *bad[2] = { pc->join[0], pc->bad };
        assert_int_equal(tokenring_movement_join_text(&m, topo, r, "10.0.0.9", "dc1", "rack2", bad,
                                                      2, NULL, NULL, 0, &err),
                         TOKENRING_E_PARSE);
        char want[128];
        snprintf(want, sizeof want, "token 2 of 2 (\"%s\"): not a %s token", pc->bad, pc->name);
        assert_msg(&err, TOKENRING_E_PARSE, want);
        assert_null(m);
        assert_int_equal(tokenring_movement_move_text(&m, topo, r, node_names[1], &pc->other, 1,
                                                      NULL, NULL, 0, &err),
                         pc->other_rc);
        assert_msg(&err, pc->other_rc, "token 1 of 1");
        assert_int_equal(tokenring_movement_move_text(&m, topo, r, "nobody", pc->move, 1, NULL,
                                                      NULL, 0, &err),
                         TOKENRING_E_NOTFOUND);
        assert_msg(&err, TOKENRING_E_NOTFOUND, "nobody");
        assert_int_equal(tokenring_movement_join_text(&m, topo, r, node_names[1], "dc1", "rack2",
                                                      pc->join, NT, NULL, NULL, 0, &err),
                         TOKENRING_E_EXISTS);
        assert_int_equal(tokenring_movement_join_text(NULL, topo, r, "x", "dc1", "rack2",
                                                      pc->join, NT, NULL, NULL, 0, &err),
                         TOKENRING_E_INVAL);
        assert_int_equal(tokenring_movement_join_text(&m, NULL, r, "x", "dc1", "rack2", pc->join,
                                                      NT, NULL, NULL, 0, &err),
                         TOKENRING_E_INVAL);
        assert_int_equal(tokenring_movement_move_text(&m, topo, NULL, node_names[0], pc->move, 1,
                                                      NULL, NULL, 0, &err),
                         TOKENRING_E_INVAL);
        assert_int_equal(tokenring_movement_move_text(&m, topo, r, NULL, pc->move, 1, NULL, NULL,
                                                      0, &err),
                         TOKENRING_E_INVAL);
        assert_null(m);

        /* reading a result: short buffers, bad indices, NULLs */
        assert_int_equal(tokenring_movement_join_text(&m, topo, r, "10.0.0.9", "dc1", "rack2",
                                                      pc->join, NT, sample_keys, sample_offsets,
                                                      NSAMPLES, NULL),
                         TOKENRING_OK);
        tokenring_movement_summary s;
        assert_int_equal(tokenring_movement_get_summary(&s, m), TOKENRING_OK);
        char buf[160];
        size_t len = 0, need = 0;
        assert_int_equal(tokenring_movement_range_bound_text(buf, sizeof buf, &need, m, 0, 1),
                         TOKENRING_OK);
        assert_int_equal(tokenring_movement_range_bound_text(buf, need, &len, m, 0, 1),
                         TOKENRING_E_BUFSIZE);
        assert_int_equal(len, need);
        assert_int_equal(tokenring_movement_range_bound_text(buf, sizeof buf, &len, m,
                                                             s.range_count, 0),
                         TOKENRING_E_RANGE);
        assert_int_equal(tokenring_movement_range_bound_text(buf, sizeof buf, &len, m, 0, 2),
                         TOKENRING_E_INVAL);
        assert_int_equal(tokenring_movement_range_bound_text(buf, sizeof buf, &len, m, 0, -1),
                         TOKENRING_E_INVAL);
        assert_int_equal(tokenring_movement_range_bound_text(buf, sizeof buf, NULL, m, 0, 0),
                         TOKENRING_E_INVAL);
        assert_int_equal(tokenring_movement_range_bound_text(NULL, 2, &len, m, 0, 0),
                         TOKENRING_E_INVAL);
        assert_int_equal(tokenring_movement_range_bound_text(buf, sizeof buf, &len, NULL, 0, 0),
                         TOKENRING_E_INVAL);
        assert_int_equal(tokenring_movement_sample_token_text(buf, sizeof buf, &need, m, 0),
                         TOKENRING_OK);
        assert_int_equal(tokenring_movement_sample_token_text(buf, need, &len, m, 0),
                         TOKENRING_E_BUFSIZE);
        assert_int_equal(len, need);
        assert_int_equal(tokenring_movement_sample_token_text(buf, sizeof buf, &len, m, NSAMPLES),
                         TOKENRING_E_RANGE);
        assert_int_equal(tokenring_movement_sample_token_text(buf, sizeof buf, NULL, m, 0),
                         TOKENRING_E_INVAL);
        assert_int_equal(tokenring_movement_sample_token_text(NULL, 2, &len, m, 0),
                         TOKENRING_E_INVAL);
        assert_int_equal(tokenring_movement_sample_token_text(buf, sizeof buf, &len, NULL, 0),
                         TOKENRING_E_INVAL);
        tokenring_movement_free(m);
        tokenring_replication_free(r);
        tokenring_topology_free(topo);
    }
}

/* ---------------------------------------------------------------------- layouts */

static void assert_list_m(const tokenring_token_list *l, const int64_t *t, size_t n)
{
    assert_int_equal(tokenring_token_list_count(l), n);
    for (size_t i = 0; i < n; i++) {
        char want[48];
        size_t len = 0;
        text_m(want, t[i]);
        assert_string_equal(tokenring_token_list_get(l, i, &len), want);
        assert_int_equal(len, strlen(want));
    }
    assert_null(tokenring_token_list_get(l, n, NULL));
}

static void assert_list_r(const tokenring_token_list *l, const tokenring_token128 *t, size_t n)
{
    assert_int_equal(tokenring_token_list_count(l), n);
    for (size_t i = 0; i < n; i++) {
        char want[48];
        text_r(want, t[i]);
        assert_string_equal(tokenring_token_list_get(l, i, NULL), want);
    }
    assert_null(tokenring_token_list_get(l, n, NULL));
}

static void test_token_list(void **state)
{
    (void)state;
    size_t len = 5;
    assert_int_equal(tokenring_token_list_count(NULL), 0);
    assert_null(tokenring_token_list_get(NULL, 0, &len));
    assert_int_equal(len, 5);
    tokenring_token_list_free(NULL);
}

static void test_layout_text(void **state)
{
    (void)state;
    for (size_t c = 0; c < 2; c++) {
        tokenring_partitioner p = cases[c].p;
        tokenring_token_list *l = NULL;
        const uint32_t shapes[][3] = { { 1, 0, 1 }, { 4, 1, 3 }, { 16, 2, 3 } };
        for (size_t s = 0; s < 3; s++) {
            uint32_t n = shapes[s][0];
            assert_int_equal(tokenring_layout_even_tokens_text(&l, p, n, shapes[s][1],
                                                               shapes[s][2], NULL),
                             TOKENRING_OK);
            if (p == TOKENRING_PARTITIONER_MURMUR3) {
                int64_t t[16];
                assert_int_equal(tokenring_layout_even_tokens(t, n, shapes[s][1], shapes[s][2]),
                                 TOKENRING_OK);
                assert_list_m(l, t, n);
            } else {
                tokenring_token128 t[16];
                assert_int_equal(tokenring_layout_even_tokens128(t, n, shapes[s][1],
                                                                 shapes[s][2]),
                                 TOKENRING_OK);
                assert_list_r(l, t, n);
            }
            tokenring_token_list_free(l);
            l = NULL;
        }
        /* seeded, against a taken topology of the partitioner */
        tokenring_topology *taken = case_topo(&cases[c], true);
        for (uint32_t flags = 0; flags <= TOKENRING_LAYOUT_STRICT; flags += TOKENRING_LAYOUT_STRICT) {
            assert_int_equal(tokenring_layout_seeded_tokens_text(&l, p, 8, 42, "10.0.0.9", taken,
                                                                 flags, NULL),
                             TOKENRING_OK);
            if (p == TOKENRING_PARTITIONER_MURMUR3) {
                int64_t t[8];
                assert_int_equal(tokenring_layout_seeded_tokens(t, 8, 42, "10.0.0.9", taken,
                                                                flags, NULL),
                                 TOKENRING_OK);
                assert_list_m(l, t, 8);
            } else {
                tokenring_token128 t[8];
                assert_int_equal(tokenring_layout_seeded_tokens128(t, 8, 42, "10.0.0.9", taken,
                                                                   flags, NULL),
                                 TOKENRING_OK);
                assert_list_r(l, t, 8);
            }
            tokenring_token_list_free(l);
            l = NULL;
        }
        /* errors: the typed calls' own, and the output untouched */
        tokenring_error err;
        assert_int_equal(tokenring_layout_even_tokens_text(&l, p, 0, 0, 1, &err),
                         TOKENRING_E_RANGE);
        assert_msg(&err, TOKENRING_E_RANGE, "num_tokens 0");
        assert_int_equal(tokenring_layout_even_tokens_text(&l, p, TOKENRING_LAYOUT_MAX_TOKENS + 1,
                                                           0, 1, &err),
                         TOKENRING_E_RANGE);
        assert_int_equal(tokenring_layout_even_tokens_text(&l, p, 4, 3, 3, &err),
                         TOKENRING_E_RANGE);
        assert_msg(&err, TOKENRING_E_RANGE, "slot 3, slots 3");
        assert_int_equal(tokenring_layout_seeded_tokens_text(&l, p, 0, 1, "n", NULL, 0, &err),
                         TOKENRING_E_RANGE);
        assert_int_equal(tokenring_layout_seeded_tokens_text(&l, p, TOKENRING_LAYOUT_MAX_TOKENS + 1,
                                                             1, "n", NULL, 0, &err),
                         TOKENRING_E_RANGE);
        assert_int_equal(tokenring_layout_seeded_tokens_text(&l, p, 4, 1, NULL, NULL, 0, &err),
                         TOKENRING_E_INVAL);
        /* a taken topology of the other number partitioner */
        tokenring_topology *other = case_topo(&cases[1 - c], true);
        assert_int_equal(tokenring_layout_seeded_tokens_text(&l, p, 4, 1, "n", other, 0, &err),
                         TOKENRING_E_UNSUPPORTED);
        assert_null(l);
        assert_int_equal(tokenring_layout_even_tokens_text(NULL, p, 4, 0, 1, &err),
                         TOKENRING_E_INVAL);
        assert_int_equal(tokenring_layout_seeded_tokens_text(NULL, p, 4, 1, "n", NULL, 0, &err),
                         TOKENRING_E_INVAL);
        tokenring_topology_free(other);
        tokenring_topology_free(taken);
    }
    tokenring_token_list *l = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_layout_even_tokens_text(&l, TOKENRING_PARTITIONER_BYTE_ORDERED, 4, 0,
                                                       1, &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_msg(&err, TOKENRING_E_UNSUPPORTED, "ByteOrderedPartitioner has no even layout");
    assert_int_equal(tokenring_layout_seeded_tokens_text(&l, TOKENRING_PARTITIONER_BYTE_ORDERED, 4,
                                                         1, "n", NULL, 0, &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_int_equal(tokenring_layout_even_tokens_text(&l, (tokenring_partitioner)3, 4, 0, 1, &err),
                     TOKENRING_E_INVAL);
    assert_msg(&err, TOKENRING_E_INVAL, "unknown partitioner 3");
    assert_null(l);
}

/* ------------------------------------------------------------------- allocators */

static void test_allocate_cassandra_text(void **state)
{
    (void)state;
    for (size_t c = 0; c < 2; c++) {
        const pcase *pc = &cases[c];
        tokenring_partitioner p = pc->p;
        tokenring_topology *topo = case_topo(pc, true);
        tokenring_topology *empty = new_topo(p);
        /* the typed call's result, success or failure, for several shapes */
        size_t ok = 0;
        for (int32_t rf = 1; rf <= 3; rf += 2)
            for (uint32_t n = 1; n <= 4; n++) {
                tokenring_token_list *l = NULL;
                tokenring_limits lim;
                memset(&lim, 0, sizeof lim);
                tokenring_error e1, e2;
                int rc = tokenring_allocate_cassandra_text(&l, n, topo, "10.0.0.9", "dc1",
                                                           "rack1", NULL, rf, NULL,
                                                           TOKENRING_CASSANDRA_5_0, 0, &lim, &e1);
                assert_true(lim.estimate > 0);
                int want;
                if (p == TOKENRING_PARTITIONER_MURMUR3) {
                    int64_t t[4];
                    want = tokenring_allocate_cassandra(t, n, topo, "10.0.0.9", "dc1", "rack1",
                                                        NULL, rf, NULL, TOKENRING_CASSANDRA_5_0,
                                                        0, &e2);
                    if (want == TOKENRING_OK && rc == TOKENRING_OK)
                        assert_list_m(l, t, n);
                } else {
                    tokenring_token128 t[4];
                    want = tokenring_allocate_cassandra128(t, n, topo, "10.0.0.9", "dc1",
                                                           "rack1", NULL, rf, NULL,
                                                           TOKENRING_CASSANDRA_5_0, 0, &e2);
                    if (want == TOKENRING_OK && rc == TOKENRING_OK)
                        assert_list_r(l, t, n);
                }
                assert_int_equal(rc, want);
                if (rc == TOKENRING_OK)
                    ok++;
                else {
                    assert_string_equal(e1.message, e2.message);
                    assert_null(l);
                }
                tokenring_token_list_free(l);
            }
        assert_true(ok >= 4);
        /* an empty ring starts at first_token, given as text */
        tokenring_token_list *l = NULL;
        tokenring_replication *ks = NULL;
        assert_int_equal(tokenring_replication_network(&ks), TOKENRING_OK);
        assert_int_equal(tokenring_replication_set_dc(ks, "dc1", 3, 0, NULL), TOKENRING_OK);
        assert_int_equal(tokenring_allocate_cassandra_text(&l, 8, empty, "10.0.0.9", "dc1",
                                                           "rack1", ks, 0, pc->join[0],
                                                           TOKENRING_CASSANDRA_4_0, 0, NULL, NULL),
                         TOKENRING_OK);
        typed first;
        typed_read(&first, p, pc->join, 1);
        if (p == TOKENRING_PARTITIONER_MURMUR3) {
            int64_t t[8];
            assert_int_equal(tokenring_allocate_cassandra(t, 8, empty, "10.0.0.9", "dc1", "rack1",
                                                          ks, 0, first.m, TOKENRING_CASSANDRA_4_0,
                                                          0, NULL),
                             TOKENRING_OK);
            assert_list_m(l, t, 8);
        } else {
            tokenring_token128 t[8];
            assert_int_equal(tokenring_allocate_cassandra128(t, 8, empty, "10.0.0.9", "dc1",
                                                             "rack1", ks, 0, first.r,
                                                             TOKENRING_CASSANDRA_4_0, 0, NULL),
                             TOKENRING_OK);
            assert_list_r(l, t, 8);
        }
        tokenring_token_list_free(l);
        l = NULL;

        /* errors */
        tokenring_error err;
        tokenring_limits lim;
        memset(&lim, 0, sizeof lim);
        assert_int_equal(tokenring_allocate_cassandra_text(&l, 8, empty, "10.0.0.9", "dc1",
                                                           "rack1", ks, 0, pc->bad,
                                                           TOKENRING_CASSANDRA_4_0, 0, &lim, &err),
                         TOKENRING_E_PARSE);
        assert_msg(&err, TOKENRING_E_PARSE, "token 1 of 1");
        assert_msg(&err, TOKENRING_E_PARSE, pc->name);
        assert_int_equal(lim.estimate, 0);
        assert_int_equal(tokenring_allocate_cassandra_text(&l, 8, empty, "10.0.0.9", "dc1",
                                                           "rack1", ks, 0, pc->other,
                                                           TOKENRING_CASSANDRA_4_0, 0, NULL, &err),
                         pc->other_rc);
        assert_int_equal(tokenring_allocate_cassandra_text(&l, 8, empty, "10.0.0.9", "dc1",
                                                           "rack1", ks, 0, NULL,
                                                           TOKENRING_CASSANDRA_4_0, 0, NULL, &err),
                         TOKENRING_E_INVAL);
        assert_msg(&err, TOKENRING_E_INVAL, "first_token");
        /* the budget: refused before any work, with the estimate */
        lim.budget = 1;
        assert_int_equal(tokenring_allocate_cassandra_text(&l, 4, topo, "10.0.0.9", "dc1",
                                                           "rack1", NULL, 1, NULL,
                                                           TOKENRING_CASSANDRA_5_0, 0, &lim, &err),
                         TOKENRING_E_BUDGET);
        assert_true(lim.estimate > 1);
        assert_msg(&err, TOKENRING_E_BUDGET, "Cassandra's token allocation");
        /* num_tokens: Cassandra's cap unless the limits raise it */
        memset(&lim, 0, sizeof lim);
        assert_int_equal(tokenring_allocate_cassandra_text(&l, 0, topo, "10.0.0.9", "dc1",
                                                           "rack1", NULL, 1, NULL,
                                                           TOKENRING_CASSANDRA_5_0, 0, &lim, &err),
                         TOKENRING_E_RANGE);
        assert_int_equal(tokenring_allocate_cassandra_text(&l, TOKENRING_MAX_NUM_TOKENS + 1, topo,
                                                           "10.0.0.9", "dc1", "rack1", NULL, 1,
                                                           NULL, TOKENRING_CASSANDRA_5_0, 0, &lim,
                                                           &err),
                         TOKENRING_E_RANGE);
        /* the typed call's own errors come through */
        assert_int_equal(tokenring_allocate_cassandra_text(&l, 4, topo, node_names[0], "dc1",
                                                           "rack1", NULL, 1, NULL,
                                                           TOKENRING_CASSANDRA_5_0, 0, NULL, &err),
                         TOKENRING_E_EXISTS);
        assert_int_equal(tokenring_allocate_cassandra_text(&l, 4, topo, "10.0.0.9", "dc1",
                                                           "rack1", NULL, 1, NULL, 0x0300u, 0,
                                                           NULL, &err),
                         TOKENRING_E_UNSUPPORTED);
        const char *nul = NULL;
        assert_int_equal(tokenring_allocate_cassandra_text(NULL, 4, topo, "n", "dc1", "rack1",
                                                           NULL, 1, NULL,
                                                           TOKENRING_CASSANDRA_5_0, 0, NULL, &err),
                         TOKENRING_E_INVAL);
        assert_int_equal(tokenring_allocate_cassandra_text(&l, 4, topo, nul, "dc1", "rack1", NULL,
                                                           1, NULL, TOKENRING_CASSANDRA_5_0, 0,
                                                           NULL, &err),
                         TOKENRING_E_INVAL);
        assert_null(l);
        tokenring_replication_free(ks);
        tokenring_topology_free(empty);
        tokenring_topology_free(topo);
    }
    tokenring_topology *bop = case_topo(&cases[2], true);
    tokenring_token_list *l = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_allocate_cassandra_text(&l, 4, bop, "10.0.0.9", "dc1", "rack1",
                                                       NULL, 1, NULL, TOKENRING_CASSANDRA_5_0, 0,
                                                       NULL, &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_msg(&err, TOKENRING_E_UNSUPPORTED, "ByteOrderedPartitioner has no token allocation");
    assert_null(l);
    tokenring_topology_free(bop);
}

static void test_allocate_join_text(void **state)
{
    (void)state;
    for (size_t c = 0; c < 2; c++) {
        const pcase *pc = &cases[c];
        tokenring_partitioner p = pc->p;
        tokenring_topology *topo = case_topo(pc, true);
        for (uint32_t flags = 0; flags <= TOKENRING_JOIN_BEST_ONE_STEP; flags++) {
            tokenring_token_list *l = NULL;
            tokenring_limits lim, lim2;
            memset(&lim, 0, sizeof lim);
            memset(&lim2, 0, sizeof lim2);
            assert_int_equal(tokenring_allocate_join_text(&l, 4, topo, "10.0.0.9", "dc1", "rack1",
                                                          NULL, 2, TOKENRING_CASSANDRA_5_0, flags,
                                                          &lim, NULL),
                             TOKENRING_OK);
            if (p == TOKENRING_PARTITIONER_MURMUR3) {
                int64_t t[4];
                assert_int_equal(tokenring_allocate_join_limited(t, NULL, 4, topo, "10.0.0.9",
                                                                 "dc1", "rack1", NULL, 2,
                                                                 TOKENRING_CASSANDRA_5_0, flags,
                                                                 &lim2, NULL),
                                 TOKENRING_OK);
                assert_list_m(l, t, 4);
                assert_int_equal(tokenring_allocate_join(t, 4, topo, "10.0.0.9", "dc1", "rack1",
                                                         NULL, 2, TOKENRING_CASSANDRA_5_0, flags,
                                                         NULL),
                                 TOKENRING_OK);
                assert_list_m(l, t, 4);
            } else {
                tokenring_token128 t[4];
                assert_int_equal(tokenring_allocate_join_limited(NULL, t, 4, topo, "10.0.0.9",
                                                                 "dc1", "rack1", NULL, 2,
                                                                 TOKENRING_CASSANDRA_5_0, flags,
                                                                 &lim2, NULL),
                                 TOKENRING_OK);
                assert_list_r(l, t, 4);
                assert_int_equal(tokenring_allocate_join128(t, 4, topo, "10.0.0.9", "dc1",
                                                            "rack1", NULL, 2,
                                                            TOKENRING_CASSANDRA_5_0, flags, NULL),
                                 TOKENRING_OK);
                assert_list_r(l, t, 4);
            }
            assert_true(lim.estimate > 0);
            assert_int_equal(lim.estimate, lim2.estimate);
            tokenring_token_list_free(l);
        }
        tokenring_token_list *l = NULL;
        tokenring_error err;
        tokenring_limits lim;
        memset(&lim, 0, sizeof lim);
        lim.budget = 1;
        assert_int_equal(tokenring_allocate_join_text(&l, 4, topo, "10.0.0.9", "dc1", "rack1",
                                                      NULL, 2, TOKENRING_CASSANDRA_5_0, 0, &lim,
                                                      &err),
                         TOKENRING_E_BUDGET);
        assert_true(lim.estimate > 1);
        assert_int_equal(tokenring_allocate_join_text(&l, 0, topo, "10.0.0.9", "dc1", "rack1",
                                                      NULL, 2, TOKENRING_CASSANDRA_5_0, 0, NULL,
                                                      &err),
                         TOKENRING_E_RANGE);
        assert_int_equal(tokenring_allocate_join_text(&l, 4, topo, node_names[1], "dc1", "rack1",
                                                      NULL, 2, TOKENRING_CASSANDRA_5_0, 0, NULL,
                                                      &err),
                         TOKENRING_E_EXISTS);
        assert_int_equal(tokenring_allocate_join_text(&l, 4, topo, NULL, "dc1", "rack1", NULL, 2,
                                                      TOKENRING_CASSANDRA_5_0, 0, NULL, &err),
                         TOKENRING_E_INVAL);
        assert_int_equal(tokenring_allocate_join_text(NULL, 4, topo, "n", "dc1", "rack1", NULL, 2,
                                                      TOKENRING_CASSANDRA_5_0, 0, NULL, &err),
                         TOKENRING_E_INVAL);
        assert_int_equal(tokenring_allocate_join_text(&l, 4, NULL, "n", "dc1", "rack1", NULL, 2,
                                                      TOKENRING_CASSANDRA_5_0, 0, NULL, &err),
                         TOKENRING_E_INVAL);
        assert_null(l);
        tokenring_topology_free(topo);
    }
    tokenring_topology *bop = case_topo(&cases[2], true);
    tokenring_token_list *l = NULL;
    tokenring_error err;
    assert_int_equal(tokenring_allocate_join_text(&l, 4, bop, "10.0.0.9", "dc1", "rack1", NULL, 2,
                                                  TOKENRING_CASSANDRA_5_0, 0, NULL, &err),
                     TOKENRING_E_UNSUPPORTED);
    assert_msg(&err, TOKENRING_E_UNSUPPORTED, "ByteOrderedPartitioner");
    assert_null(l);
    tokenring_topology_free(bop);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key_token_text),
        cmocka_unit_test(test_normalize),
        cmocka_unit_test(test_compare),
        cmocka_unit_test(test_topology_text),
        cmocka_unit_test(test_ring_text),
        cmocka_unit_test(test_ring_search_long_bytes),
        cmocka_unit_test(test_movement_text),
        cmocka_unit_test(test_token_list),
        cmocka_unit_test(test_layout_text),
        cmocka_unit_test(test_allocate_cassandra_text),
        cmocka_unit_test(test_allocate_join_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
