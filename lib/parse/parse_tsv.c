/* SPDX-License-Identifier: Apache-2.0 */
/* The golden-vector TSV format: a `node<TAB>dc<TAB>rack<TAB>tokens` header (after
 * '#' comment lines, if any) and one node per line, tokens comma-separated. */
#include <string.h>

#include "parse_formats.h"

int tr_parse_tsv_text(tokenring_cluster *cl, const char *text, size_t len, uint32_t flags,
                      tokenring_error *err)
{
    tr_lines ls;
    tr_lines_init(&ls, text, len);
    const char *line;
    size_t n;
    bool header = false;
    uint32_t header_line = 0;
    while (tr_lines_next(&ls, &line, &n)) {
        uint32_t ln = ls.lineno;
        if (!header) {
            if (tr_is_blank(line, n) || (n && line[0] == '#'))
                continue; /* comments above the header */
            if (!(n == 19 && memcmp(line, "node\tdc\track\ttokens", 19) == 0))
                return tr_fail_at(err, TOKENRING_E_PARSE, ln, 1,
                                  "expected the header 'node<TAB>dc<TAB>rack<TAB>tokens'");
            header = true;
            header_line = ln;
            continue;
        }
        if (tr_is_blank(line, n))
            continue;
        const char *f[4];
        size_t fl[4];
        uint32_t fc[4];
        size_t nf = 0, start = 0;
        for (size_t i = 0; i <= n; i++) {
            if (i == n || line[i] == '\t') {
                if (nf == 4)
                    return tr_fail_at(err, TOKENRING_E_PARSE, ln, (uint32_t)start + 1,
                                      "expected 4 tab-separated fields, found more");
                f[nf] = line + start;
                fl[nf] = i - start;
                fc[nf] = (uint32_t)start + 1;
                nf++;
                start = i + 1;
            }
        }
        if (nf != 4)
            return tr_fail_at(err, TOKENRING_E_PARSE, ln, (uint32_t)n + 1,
                              "expected 4 tab-separated fields (node, dc, rack, tokens), "
                              "found %zu", nf);
        size_t idx;
        bool created;
        int rc = tr_cl_node(cl, f[0], fl[0], f[1], fl[1], f[2], fl[2], ln, fc[0], fc[1], fc[2],
                            &idx, &created, err);
        if (rc != TOKENRING_OK)
            return rc;
        if (!created)
            return tr_fail_at(err, TOKENRING_E_EXISTS, ln, fc[0],
                              "node %.*s is already defined on line %u", (int)fl[0], f[0],
                              (unsigned)cl->nodes[idx].line);
        if (fl[3] == 0)
            return tr_fail_at(err, TOKENRING_E_EMPTY, ln, fc[3],
                              "expected at least one token");
        rc = tr_cl_add_token_list(cl, idx, f[3], fl[3], ln, fc[3], err);
        if (rc != TOKENRING_OK)
            return rc;
    }
    if (!header)
        return tr_fail_at(err, TOKENRING_E_PARSE, 1, 1,
                          "expected the header 'node<TAB>dc<TAB>rack<TAB>tokens'");
    if (cl->n == 0) { /* the header alone: the rows were cut off */
        if (flags & TOKENRING_PARSE_ALLOW_PARTIAL) {
            cl->flags |= TOKENRING_CLUSTER_PARTIAL;
            return TOKENRING_OK;
        }
        return tr_fail_at(err, TOKENRING_E_PARSE, header_line, 1,
                          "the header is not followed by any row: the listing is cut "
                          "(allow partial input to accept it)");
    }
    return TOKENRING_OK;
}
