/* SPDX-License-Identifier: Apache-2.0 */
/* The tests' reader of files under tests/data (TEST_DATA_DIR, set by tests/meson.build):
 * the whole file, NUL-terminated, failing the test when it cannot be read. Header-only;
 * include after <cmocka.h>. */
#ifndef TOKENRING_TESTS_TESTDATA_H
#define TOKENRING_TESTS_TESTDATA_H

#include <stdio.h>
#include <stdlib.h>

#ifndef TEST_DATA_DIR
#define TEST_DATA_DIR "tests/data"
#endif

/* The contents of TEST_DATA_DIR/rel (free() it) and their length in *len. */
static inline char *slurp(const char *rel, size_t *len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", TEST_DATA_DIR, rel);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}

#endif
