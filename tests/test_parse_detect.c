/* SPDX-License-Identifier: Apache-2.0 */
/* Format names and detection of what is not a cluster (lib/parse/parse_detect.c):
 * `nodetool getendpoints` output and empty input refused with a message that says why,
 * and the names and signatures of `nodetool describering`. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"
#include "testdata.h"
#include "cluster_checks.h"

/* ------------------------------------------------- getendpoints, empty input */

static void getendpoints_refused(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        uint32_t line;
        const char *count;
    } cases[] = {
        { "samples/getendpoints-3.10-simple-rf3-pavle.txt", 2, "(3 addresses)" },
        { "samples/getendpoints-3.10-nts-2dc-pavle.txt", 2, "(6 addresses)" },
        { "samples/getendpoints-5.0-nts-2dc-crlf.txt", 1, "(2 addresses)" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t len;
        char *text = slurp(cases[i].file, &len);
        assert_int_equal(tokenring_input_detect(text, len), TOKENRING_INPUT_AUTO);
        fails(TOKENRING_INPUT_AUTO, text, len, 0, TOKENRING_E_PARSE, cases[i].line, 1,
              "nodetool getendpoints output", cases[i].count, "not a ring",
              "nodetool describering KEYSPACE", NULL);
        free(text);
    }
    static const char one[] = "[::1]:7000\n";
    fails(TOKENRING_INPUT_AUTO, one, sizeof one - 1, 0, TOKENRING_E_PARSE, 1, 1,
          "(1 address)", NULL);
    /* a word that is not an address, or two words: not getendpoints */
    fails(TOKENRING_INPUT_AUTO, "10.0.0.1\nhello\n", 15, 0, TOKENRING_E_PARSE, 1, 1,
          "cannot recognise the input", NULL);
    fails(TOKENRING_INPUT_AUTO, "10.0.0.1 10.0.0.2\n", 18, 0, TOKENRING_E_PARSE, 1, 1,
          "cannot recognise the input", NULL);
    fails(TOKENRING_INPUT_AUTO, "...\n", 4, 0, TOKENRING_E_PARSE, 1, 1,
          "cannot recognise the input", NULL);
    fails(TOKENRING_INPUT_AUTO, "2001\n", 5, 0, TOKENRING_E_PARSE, 1, 1,
          "cannot recognise the input", NULL);
}

static void empty_input(void **state)
{
    (void)state;
    fails(TOKENRING_INPUT_AUTO, NULL, 0, 0, TOKENRING_E_PARSE, 1, 1, "empty input", NULL);
    fails(TOKENRING_INPUT_AUTO, "", 0, 0, TOKENRING_E_PARSE, 1, 1, "empty input", NULL);
    fails(TOKENRING_INPUT_AUTO, " \r\n\t\n\n", 6, 0, TOKENRING_E_PARSE, 1, 1, "empty input",
          NULL);
    fails(TOKENRING_INPUT_AUTO, "\xEF\xBB\xBF\n", 4, 0, TOKENRING_E_PARSE, 1, 1,
          "empty input", NULL);
}

static void format_names(void **state)
{
    (void)state;
    assert_string_equal(tokenring_input_format_name(DR), "nodetool-describering");
    assert_int_equal(tokenring_input_detect("TokenRange: \n", 13), DR);
    assert_int_equal(tokenring_input_detect("Schema Version:1\n", 17), DR);
    assert_int_equal(tokenring_input_detect("  TokenRange(start_token:1", 26), DR);
    assert_int_equal(tokenring_input_detect("TokenRange: x\n", 14), TOKENRING_INPUT_AUTO);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(getendpoints_refused),
        cmocka_unit_test(empty_input),
        cmocka_unit_test(format_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
