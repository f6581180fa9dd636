/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A small reader for the tab-separated vector files in tests/data, shared by the tests.
 *
 *     tsv_file *f = tsv_open("murmur3_tokens.tsv");     // fails the test if missing
 *     int col = tsv_column(f, "token");                   // index from the header line
 *     while (tsv_next(f))
 *         use(tsv_field(f, col), tsv_field_len(f, col));
 *     tsv_close(f);
 *
 * The first non-comment line is the header. Lines starting with '#' and blank lines are
 * skipped. Fields are split on '\t' only (no quoting); a trailing "\r" is dropped.
 * Uses malloc (test code), never the library's allocator.
 */
#ifndef TESTS_TSV_H
#define TESTS_TSV_H

#include <stddef.h>
#include <stdint.h>

typedef struct tsv_file tsv_file;

/* The directory holding the vector files: $TOKENRING_TEST_DATA if set, else the
 * TEST_DATA_DIR macro the build passes. */
const char *tsv_data_dir(void);

/* Opens data_dir/name and reads its header. Returns NULL (and prints why) on failure. */
tsv_file *tsv_open(const char *name);
void tsv_close(tsv_file *f);

/* Index of the header column called name, or -1. */
int tsv_column(const tsv_file *f, const char *name);
/* Number of header columns. */
size_t tsv_header_count(const tsv_file *f);

/* Advances to the next data row. Returns 1 with a row, 0 at the end of the file. */
int tsv_next(tsv_file *f);
/* Fields of the current row (NUL-terminated, valid until the next tsv_next). */
size_t tsv_count(const tsv_file *f);
const char *tsv_field(const tsv_file *f, size_t i);   /* "" when i >= tsv_count() */
size_t tsv_field_len(const tsv_file *f, size_t i);
/* 1-based line number of the current row in the file, for messages. */
size_t tsv_line(const tsv_file *f);
/* Rows returned so far. */
size_t tsv_rows(const tsv_file *f);

/* Decodes hex (upper or lower case, even length) into out (cap bytes). Returns the byte
 * count, or -1 for bad hex or a too small buffer. */
long tsv_hex_decode(const char *hex, size_t hexlen, uint8_t *out, size_t cap);
/* Same into a malloc'd buffer (at least 1 byte, caller frees); NULL on bad hex. */
uint8_t *tsv_hex_dup(const char *hex, size_t hexlen, size_t *len_out);
/* Lowercase hex of bytes into a malloc'd NUL-terminated string (caller frees). */
char *tsv_hex_encode(const uint8_t *bytes, size_t len);

#endif
