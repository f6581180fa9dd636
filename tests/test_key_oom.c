/* SPDX-License-Identifier: Apache-2.0 */
/* Allocation failures in the partition-key functions that allocate (key.h): long varints
 * and decimals, and key components beyond the stack buffer. Each failure must give
 * TOKENRING_E_NOMEM and leak nothing. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "tokenring/tokenring.h"
#include "oom.h"

typedef struct {
    const tokenring_cql_type *types;
    size_t ntypes;
    const char *text;
    int value;
} key_ctx;

static int op_key(void *vctx, void **made)
{
    key_ctx *k = vctx;
    (void)made;
    uint8_t out[4096];
    size_t len = 0;
    tokenring_error err;
    int rc = k->value
                 ? tokenring_value_parse(out, sizeof out, &len, k->types[0], k->text,
                                         strlen(k->text), &err)
                 : tokenring_key_parse(out, sizeof out, &len, k->types, k->ntypes, k->text,
                                       strlen(k->text), &err);
    if (rc != TOKENRING_OK)
        assert_int_equal(err.code, rc);
    return rc;
}

static void key_functions(void **state)
{
    (void)state;
    /* varint/decimal use a heap buffer beyond ~200 digits, key components beyond 256
     * bytes: both are exercised, plus forms that stay on the stack */
    static char digits[251], decimal[262], composite[400];
    memset(digits, 0, sizeof digits);
    for (int i = 0; i < 250; i++)
        digits[i] = (char)('1' + i % 9);
    snprintf(decimal, sizeof decimal, "-%.120s.%.120se-7", digits, digits + 7);
    snprintf(composite, sizeof composite, "42:%.300s%.40s", digits, digits);
    static const struct {
        const char *type_names;
        const char *text;
        int value;
    } cases[] = {
        { "varint", digits, 1 },
        { "decimal", decimal, 1 },
        { "decimal", "1E+300", 1 },
        { "varint", "-98765432109876543210987654321098765432109876543210", 1 },
        { "timestamp", "2011-02-03T04:05:00.123+0100", 1 },
        { "inet", "fe80::1%3", 1 },
        { "text", "h\xc3\xa9llo", 1 },
        { "int,text", composite, 0 },
        { "int,varint,text", "-7:123456789012345678901234567890:it\\:s", 0 },
        { "int,text", "42:abc", 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        tokenring_cql_type types[4];
        size_t n = 0;
        char names[64];
        snprintf(names, sizeof names, "%s", cases[i].type_names);
        for (char *tok = strtok(names, ","); tok; tok = strtok(NULL, ","))
            assert_int_equal(tokenring_cql_type_from_name(&types[n++], tok), TOKENRING_OK);
        key_ctx k = { types, n, cases[i].text, cases[i].value };
        /* only the forms the library accepts are interesting here */
        uint8_t out[4096];
        size_t len;
        int rc = k.value ? tokenring_value_parse(out, sizeof out, &len, types[0], k.text,
                                                 strlen(k.text), NULL)
                         : tokenring_key_parse(out, sizeof out, &len, types, n, k.text,
                                               strlen(k.text), NULL);
        if (rc != TOKENRING_OK)
            fail_msg("case %zu does not parse (%d)", i, rc);
        char what[200];
        snprintf(what, sizeof what, "%s %s", k.value ? "value_parse" : "key_parse",
                 cases[i].type_names);
        long live = oom_live_blocks();
        oom_check(what, &k, op_key, NULL);
        assert_int_equal(oom_live_blocks(), live);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(key_functions, oom_setup, oom_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
