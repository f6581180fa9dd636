/* SPDX-License-Identifier: Apache-2.0 */
/* What operators paste, turned into what the format readers read (parse_paste.c): pure
 * text transforms below parse_detect.c, which applies them before detection. Nothing here
 * knows a cluster. */
#ifndef TOKENRING_PARSE_PASTE_H
#define TOKENRING_PARSE_PASTE_H

#include "parse_internal.h"

/* Blanks the lines that are no tool's output (a shell or cqlsh prompt with its command,
 * `$ nodetool ring`, `user@host:~$ nodetool -h x status`, `cqlsh> SELECT ...`; the JVM's
 * "Picked up JAVA_TOOL_OPTIONS: ..." notices; cqlsh's "WARNING: cqlsh was built against
 * ..." line) and removes the indentation every other non-blank line shares. Lines keep
 * their numbers; columns move left by *dedent. Returns TOKENRING_OK with *out NULL when
 * the text needs nothing, else *out (tr_malloc'ed, *out_len bytes, NUL-terminated). */
TR_HIDDEN int tr_paste_clean(const char *text, size_t len, char **out, size_t *out_len,
                             uint32_t *dedent);

/* A run of `nodetool status` or `nodetool ring` blocks ("Datacenter:" ... ) of one kind. */
struct tr_paste_section {
    uint32_t first_line; /* 1-based; the first section starts at line 1 */
    int format;          /* TOKENRING_INPUT_NODETOOL_RING or _STATUS */
};
#define TR_PASTE_MAX_SECTIONS 16

/* The runs of one kind of nodetool listing in text, in order (at most max). Returns their
 * number: 2 or more when `nodetool status` and `nodetool ring` follow each other. */
TR_HIDDEN size_t tr_paste_sections(const char *text, size_t len, struct tr_paste_section *out,
                                   size_t max);

/* A copy of text whose lines outside [first_line, end_line) are blank (end_line 0: to the
 * end): one section, at its own line numbers. NULL when out of memory. */
TR_HIDDEN char *tr_paste_lines(const char *text, size_t len, uint32_t first_line,
                               uint32_t end_line, size_t *out_len);

/* Where a position of a transformed text comes from. */
struct tr_paste_map {
    uint32_t out_line, out_col, in_line, in_col;
};

/* cqlsh `EXPAND ON` output (`@ Row N` records of `column | value` lines) as the table
 * cqlsh prints without it, with a map from the table's positions back to the records'.
 * Returns TOKENRING_OK with *out NULL when the text has no record; TOKENRING_E_PARSE (at
 * the record's line and column) when records cannot form a table. */
TR_HIDDEN int tr_paste_expand(const char *text, size_t len, char **out, size_t *out_len,
                              struct tr_paste_map **map, size_t *nmap, tokenring_error *err);

/* Whether text holds an `@ Row N` record (cqlsh EXPAND ON). */
TR_HIDDEN bool tr_paste_has_records(const char *text, size_t len);

/* Moves err's line and column from the table tr_paste_expand() wrote to the records. */
TR_HIDDEN void tr_paste_map_error(const struct tr_paste_map *map, size_t nmap,
                                  tokenring_error *err);

#endif
