/* SPDX-License-Identifier: Apache-2.0 */
/* Top layer of the parsers: format names, format detection and
 * tokenring_cluster_parse(), which detects, hands the text to one format reader
 * (parse_formats.h) and merges the staging cluster it fills. Nothing below calls
 * back up here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_formats.h"
#include "parse_paste.h"

/* ------------------------------------------------------------ format detect */

TOKENRING_API const char *tokenring_input_format_name(int format)
{
    switch (format) {
    case TOKENRING_INPUT_AUTO: return "auto";
    case TOKENRING_INPUT_TOPOLOGY: return "topology";
    case TOKENRING_INPUT_TSV: return "tsv";
    case TOKENRING_INPUT_NODETOOL_RING: return "nodetool-ring";
    case TOKENRING_INPUT_NODETOOL_STATUS: return "nodetool-status";
    case TOKENRING_INPUT_CQLSH: return "cqlsh";
    case TOKENRING_INPUT_NODETOOL_DESCRIBERING: return "nodetool-describering";
    }
    return "unknown";
}

static bool is_cqlsh_rule(const char *s, size_t n)
{
    bool dash = false, plus = false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '-')
            dash = true;
        else if (s[i] == '+')
            plus = true;
        else if (s[i] != ' ' && s[i] != '\t')
            return false;
    }
    return dash && (plus || n > 0);
}

TOKENRING_API int tokenring_input_detect(const char *text, size_t len)
{
    if (text == NULL)
        return TOKENRING_INPUT_AUTO;
    /* pasted text: as tokenring_cluster_parse() reads it (parse_paste.c) */
    char *clean = NULL;
    size_t clean_len = 0;
    uint32_t dedent = 0;
    if (tr_paste_clean(text, len, &clean, &clean_len, &dedent) == TOKENRING_OK && clean) {
        int f = tokenring_input_detect(clean, clean_len);
        tr_free(clean);
        return f;
    }
    if (tr_paste_has_records(text, len))
        return TOKENRING_INPUT_CQLSH;
    tr_lines ls;
    tr_lines_init(&ls, text, len);
    const char *line, *prev = NULL;
    size_t n, prev_n = 0;
    int seen = 0;
    bool saw_dc = false, tsv_closed = false, lead_comment = false;
    while (seen < 40 && tr_lines_next(&ls, &line, &n)) {
        if (tr_is_blank(line, n))
            continue;
        if (line[0] == '#' && !tsv_closed) {
            lead_comment = true; /* a TSV header may follow; else a topology file */
            continue;
        }
        seen++;
        size_t i = 0;
        while (i < n && (line[i] == ' ' || line[i] == '\t'))
            i++;
        const char *t = line + i;
        size_t tn = n - i;
        if (!tsv_closed && tr_starts_with(line, n, "node\tdc\track\ttokens"))
            return TOKENRING_INPUT_TSV;
        tsv_closed = true;
        if (lead_comment)
            return TOKENRING_INPUT_TOPOLOGY; /* only the topology format has comments */
        if (tr_starts_with(t, tn, "TokenRange(start_token:") ||
            (tr_starts_with(t, tn, "TokenRange:") && tr_is_blank(t + 11, tn - 11)) ||
            (seen == 1 && tr_starts_with(t, tn, "Schema Version:")))
            return TOKENRING_INPUT_NODETOOL_DESCRIBERING;
        if (tr_starts_with(t, tn, "Status=Up/Down") || tr_starts_with(t, tn, "--  Address") ||
            tr_starts_with(t, tn, "|/ State="))
            return TOKENRING_INPUT_NODETOOL_STATUS;
        if (tr_starts_with(t, tn, "Datacenter:"))
            saw_dc = true;
        if (i == 0 && tr_starts_with(t, tn, "Address") && tn > 7 &&
            (t[7] == ' ' || t[7] == '\t')) {
            for (size_t k = 0; k + 5 <= tn; k++)
                if (memcmp(t + k, "Token", 5) == 0)
                    return TOKENRING_INPUT_NODETOOL_RING;
        }
        if (prev && memchr(prev, '|', prev_n) && is_cqlsh_rule(line, n) &&
            memchr(line, '+', n))
            return TOKENRING_INPUT_CQLSH;
        if (prev && is_cqlsh_rule(line, n)) {
            /* a table of one column: SELECT partitioner (or tokens) FROM system.local */
            size_t a = 0, b = prev_n;
            while (a < b && prev[a] == ' ')
                a++;
            while (b > a && prev[b - 1] == ' ')
                b--;
            if ((b - a == 11 && memcmp(prev + a, "partitioner", 11) == 0) ||
                (b - a == 6 && memcmp(prev + a, "tokens", 6) == 0))
                return TOKENRING_INPUT_CQLSH;
        }
        if (!saw_dc && i == 0 &&
            ((tn > 5 && memcmp(t, "node", 4) == 0 && (t[4] == ' ' || t[4] == '\t')) ||
             (tn > 9 && memcmp(t, "keyspace", 8) == 0 && (t[8] == ' ' || t[8] == '\t')) ||
             (tn >= 11 && memcmp(t, "partitioner", 11) == 0 &&
              (tn == 11 || t[11] == ' ' || t[11] == '\t'))))
            return TOKENRING_INPUT_TOPOLOGY;
        if (t[0] == '#' && !saw_dc) {
            /* a comment line: only the topology format has them */
            return TOKENRING_INPUT_TOPOLOGY;
        }
        prev = line;
        prev_n = n;
    }
    return lead_comment && !tsv_closed ? TOKENRING_INPUT_TOPOLOGY : TOKENRING_INPUT_AUTO;
}

/* ----------------------------------------------------------------- dispatch */

/* One address as nodetool getendpoints prints it (IPv4, IPv6, optionally with a port). */
static bool is_address(const char *s, size_t n)
{
    bool digit = false, sep = false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c >= '0' && c <= '9')
            digit = true;
        else if (c == '.' || c == ':')
            sep = true;
        else if (!((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == '[' ||
                   c == ']' || c == '%'))
            return false;
    }
    return digit && sep;
}

/* Fails for a text no reader recognised, saying what it is when that is known. */
static int undetected(const char *text, size_t len, tokenring_error *err)
{
    tr_lines ls;
    tr_lines_init(&ls, text, len);
    const char *line;
    size_t n, addresses = 0;
    bool other = false;
    uint32_t first = 0;
    while (tr_lines_next(&ls, &line, &n)) {
        if (tr_is_blank(line, n))
            continue;
        if (!first)
            first = ls.lineno;
        tr_word w[2];
        if (tr_split_words(line, n, w, 1) == 1 && is_address(w[0].s, w[0].n))
            addresses++;
        else
            other = true;
    }
    if (!first)
        return tr_fail_at(err, TOKENRING_E_PARSE, 1, 1,
                          "empty input: expected a topology file, nodetool ring, status or "
                          "describering output, or a cqlsh table");
    if (!other)
        return tr_fail_at(err, TOKENRING_E_PARSE, first, 1,
                          "nodetool getendpoints output (%zu address%s): the replicas of one "
                          "key, without tokens, datacenters or racks, so not a ring; give "
                          "nodetool ring, nodetool describering KEYSPACE or cqlsh "
                          "system.peers_v2 + system.local",
                          addresses, addresses == 1 ? "" : "es");
    tr_lines_init(&ls, text, len);
    while (tr_lines_next(&ls, &line, &n) && ls.lineno < first) {
    }
    size_t shown = n > 60 ? 60 : n;
    return tr_fail_at(err, TOKENRING_E_PARSE, first, 1,
                      "cannot recognise the input at '%.*s%s': expected a topology file, "
                      "nodetool ring, status or describering output, or a cqlsh table (remove "
                      "any line that is not part of such output)",
                      (int)shown, line, shown < n ? "..." : "");
}

static int parse_format(tokenring_cluster *staging, int format, const char *text, size_t len,
                        uint32_t flags, tokenring_error *err)
{
    switch (format) {
    case TOKENRING_INPUT_TOPOLOGY:
        return tr_parse_topology_text(staging, text, len, flags, err);
    case TOKENRING_INPUT_TSV:
        return tr_parse_tsv_text(staging, text, len, flags, err);
    case TOKENRING_INPUT_NODETOOL_RING:
        return tr_parse_ring_text(staging, text, len, flags, err);
    case TOKENRING_INPUT_NODETOOL_STATUS:
        return tr_parse_status_text(staging, text, len, flags, err);
    case TOKENRING_INPUT_CQLSH:
        return tr_parse_cqlsh_text(staging, text, len, flags, err);
    case TOKENRING_INPUT_NODETOOL_DESCRIBERING:
        return tr_parse_describering_text(staging, text, len, flags, err);
    default:
        return tr_fail(err, TOKENRING_E_INVAL, "unknown input format %d", format);
    }
}

/* Pasted text (parse_paste.c): prompt and JVM lines, an indentation every line shares,
 * cqlsh EXPAND ON records, `nodetool status` and `nodetool ring` in one text. Parses the
 * text so transformed (each listing of a status + ring text into one staging cluster,
 * merged at the end: all or nothing) and returns its status with *handled set; leaves
 * *handled false when the text needs none of this. */
static int parse_pasted(tokenring_cluster *cluster, int format, const char *text, size_t len,
                        uint32_t flags, int *format_out, tokenring_error *err, bool *handled)
{
    *handled = false;
    /* a file given as a topology file or TSV is read as written: indentation means
     * something there */
    if (len == 0 || format == TOKENRING_INPUT_TSV || format == TOKENRING_INPUT_TOPOLOGY)
        return TOKENRING_OK;
    char *clean = NULL;
    size_t clean_len = 0;
    uint32_t dedent = 0;
    if (tr_paste_clean(text, len, &clean, &clean_len, &dedent) != TOKENRING_OK) {
        *handled = true;
        return tr_cl_fail_nomem(err);
    }
    if (clean) {
        *handled = true;
        int rc = tokenring_cluster_parse(cluster, format, clean, clean_len, flags, format_out,
                                         err);
        tr_free(clean);
        if (rc != TOKENRING_OK && err && err->line && err->column)
            err->column += dedent;
        return rc;
    }
    if (format == TOKENRING_INPUT_AUTO || format == TOKENRING_INPUT_CQLSH) {
        struct tr_paste_map *map = NULL;
        size_t nmap = 0;
        int rc = tr_paste_expand(text, len, &clean, &clean_len, &map, &nmap, err);
        if (rc != TOKENRING_OK || clean) {
            *handled = true;
            if (rc == TOKENRING_OK) {
                rc = tokenring_cluster_parse(cluster, TOKENRING_INPUT_CQLSH, clean, clean_len,
                                             flags, format_out, err);
                if (rc != TOKENRING_OK)
                    tr_paste_map_error(map, nmap, err);
            }
            tr_free(clean);
            tr_free(map);
            return rc;
        }
    }
    if (format != TOKENRING_INPUT_AUTO && format != TOKENRING_INPUT_NODETOOL_RING &&
        format != TOKENRING_INPUT_NODETOOL_STATUS)
        return TOKENRING_OK;
    struct tr_paste_section sec[TR_PASTE_MAX_SECTIONS];
    size_t ns = tr_paste_sections(text, len, sec, TR_PASTE_MAX_SECTIONS);
    if (ns < 2)
        return TOKENRING_OK;
    *handled = true;
    tokenring_cluster staging;
    memset(&staging, 0, sizeof staging);
    bool decided = cluster->partitioner_fixed;
    for (size_t i = 0; i < cluster->n && !decided; i++)
        decided = cluster->nodes[i].ntok > 0;
    staging.partitioner = cluster->partitioner;
    staging.partitioner_fixed = decided;
    int rc = TOKENRING_OK;
    for (size_t i = 0; i < ns && rc == TOKENRING_OK; i++) {
        size_t sl = 0;
        char *part = tr_paste_lines(text, len, sec[i].first_line,
                                    i + 1 < ns ? sec[i + 1].first_line : 0, &sl);
        if (!part)
            rc = tr_cl_fail_nomem(err);
        else
            rc = tokenring_cluster_parse(&staging, sec[i].format, part, sl, flags, NULL, err);
        tr_free(part);
    }
    if (rc == TOKENRING_OK)
        rc = tr_cl_merge(cluster, &staging, err);
    tr_cl_clear(&staging);
    if (rc == TOKENRING_OK && format_out)
        *format_out = sec[0].format;
    return rc;
}

struct format_ctx {
    int format;
    const char *text;
    size_t len;
    uint32_t flags;
};

static int fill_format(tokenring_cluster *staging, void *ctx, tokenring_error *err)
{
    const struct format_ctx *c = ctx;
    return parse_format(staging, c->format, c->text, c->len, c->flags, err);
}

TOKENRING_API int tokenring_cluster_parse(tokenring_cluster *cluster, int format,
                                          const char *text, size_t len, uint32_t flags,
                                          int *format_out, tokenring_error *err)
{
    if (cluster == NULL || (text == NULL && len > 0))
        return tr_fail(err, TOKENRING_E_INVAL, "NULL cluster or text");
    if (flags & ~(TOKENRING_PARSE_ALLOW_PARTIAL | TOKENRING_PARSE_MERGE_DISJOINT))
        return tr_fail(err, TOKENRING_E_INVAL, "unknown flag 0x%x", (unsigned)flags);
    bool pasted = false;
    int prc = parse_pasted(cluster, format, text, len, flags, format_out, err, &pasted);
    if (pasted)
        return prc;
    if (format == TOKENRING_INPUT_AUTO) {
        format = tokenring_input_detect(text, len);
        if (format == TOKENRING_INPUT_AUTO)
            return undetected(text, len, err);
    }
    /* A NUL byte would silently cut names short: reject it up front. */
    const char *nul = len ? memchr(text, '\0', len) : NULL;
    if (nul) {
        uint32_t line = 1, col = 1;
        char eol = memchr(text, '\n', len) || !memchr(text, '\r', len) ? '\n' : '\r';
        for (const char *p = text; p < nul; p++) {
            if (*p == eol) {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        return tr_fail_at(err, TOKENRING_E_PARSE, line, col, "unexpected NUL byte");
    }
    if (format < TOKENRING_INPUT_TOPOLOGY || format > TOKENRING_INPUT_NODETOOL_DESCRIBERING)
        return tr_fail(err, TOKENRING_E_INVAL, "unknown input format %d", format);
    struct format_ctx ctx = { format, text, len, flags };
    int rc = tr_cluster_stage(cluster, format, flags, fill_format, &ctx, err);
    if (rc == TOKENRING_OK && format_out)
        *format_out = format;
    return rc;
}

TR_HIDDEN int tr_cluster_stage(tokenring_cluster *cluster, int format, uint32_t flags,
                               int (*fill)(tokenring_cluster *staging, void *ctx,
                                           tokenring_error *err),
                               void *ctx, tokenring_error *err)
{
    /* The partitioner: the cluster's when it is fixed or holds tokens; else the one the
     * input names (a restart when it names it after tokens were read), else the first
     * of Murmur3, RandomPartitioner and ByteOrderedPartitioner whose token form every
     * token has (ByteOrdered only when some token has a hex letter: decimal digits read
     * as hex would turn a mistyped Murmur3 token into a ring of bytes). When none fits,
     * the error is Murmur3's. */
    bool decided = cluster->partitioner_fixed;
    for (size_t i = 0; i < cluster->n && !decided; i++)
        decided = cluster->nodes[i].ntok > 0;
    static const tokenring_partitioner order[] = { TOKENRING_PARTITIONER_MURMUR3,
                                                   TOKENRING_PARTITIONER_RANDOM,
                                                   TOKENRING_PARTITIONER_BYTE_ORDERED };
    tokenring_error first;
    memset(&first, 0, sizeof first);
    int first_rc = TOKENRING_OK, rc = TOKENRING_OK;
    size_t attempt = 0;
    tokenring_partitioner p = decided ? cluster->partitioner : order[0];
    bool fixed = decided, named = false, contradicted = false, input_named = false;
    size_t small = 0, total = 0;
    /* Only what clusters print is held to sharing a node with what they printed before:
     * a topology file or TSV (written by hand, a node or datacenter per file) and
     * clusters built with tokenring_cluster_add_topology() are not, nor cqlsh tables
     * merged into cqlsh tables (system.peers_v2 and system.local share no node). */
    const uint32_t printed = 1u << TOKENRING_INPUT_NODETOOL_RING |
                             1u << TOKENRING_INPUT_NODETOOL_STATUS |
                             1u << TOKENRING_INPUT_NODETOOL_DESCRIBERING |
                             1u << TOKENRING_INPUT_CQLSH;
    bool disjoint_ok = (flags & TOKENRING_PARSE_MERGE_DISJOINT) || !(printed >> format & 1) ||
                       cluster->formats == 0 || (cluster->formats & ~printed) ||
                       (format == TOKENRING_INPUT_CQLSH &&
                        cluster->formats == 1u << TOKENRING_INPUT_CQLSH);
    for (int round = 0; round < 5; round++) {
        tokenring_cluster staging;
        memset(&staging, 0, sizeof staging);
        staging.partitioner = p;
        staging.partitioner_fixed = fixed;
        tokenring_error e;
        memset(&e, 0, sizeof e);
        rc = fill(&staging, ctx, &e);
        if (rc == TOKENRING_OK && !staging.partitioner_fixed &&
            staging.partitioner == TOKENRING_PARTITIONER_RANDOM) {
            /* Every token reads as RandomPartitioner's (none is negative), but a Murmur3
             * ring with one mistyped token does too: read so only when the tokens above
             * 2^63 - 1 are not outnumbered by those that are Murmur3 tokens. */
            small = total = 0;
            for (size_t i = 0; i < staging.n; i++) {
                const struct tr_cnode *nd = &staging.nodes[i];
                for (size_t j = 0; j < nd->ntok; j++, total++) {
                    tokenring_token128 v = nd->vtok[j].v128; /* below 2^63 */
                    small += v.hi == 0 && v.lo < (UINT64_C(1) << 63);
                }
            }
            if (small > total - small) {
                rc = TOKENRING_E_PARSE;
                staging.token_text_failed = true;
                contradicted = true;
            }
        }
        staging.check_disjoint = !disjoint_ok;
        if (rc != TOKENRING_E_NOMEM && !staging.partitioner_fixed && !staging.restart &&
            staging.partitioner == TOKENRING_PARTITIONER_BYTE_ORDERED && !staging.hex_letter) {
            /* decimal digits only are not read as hex unless named: as if no token had
             * read, whatever stopped the attempt (its error must not replace Murmur3's) */
            if (rc == TOKENRING_OK)
                rc = TOKENRING_E_PARSE;
            staging.token_text_failed = true;
        }
        if (rc == TOKENRING_OK)
            rc = tr_cl_finish(&staging, &e);
        if (rc == TOKENRING_OK && !staging.partitioner_fixed &&
            staging.partitioner != TOKENRING_PARTITIONER_MURMUR3)
            staging.flags |= TOKENRING_CLUSTER_PARTITIONER_INFERRED;
        if (rc == TOKENRING_OK)
            rc = tr_cl_merge(cluster, &staging, &e);
        bool restart = staging.restart, text_failed = staging.token_text_failed;
        input_named = staging.named;
        tokenring_partitioner next = staging.partitioner;
        tr_cl_clear(&staging);
        if (rc == TOKENRING_OK)
            break;
        if (restart && !named) { /* the input named its partitioner: parse with it */
            p = next;
            fixed = named = true;
            continue;
        }
        if (rc == TOKENRING_E_NOMEM) { /* never hidden behind another attempt's error */
            first_rc = rc;
            first = e;
            break;
        }
        if (first_rc == TOKENRING_OK || named || !text_failed) {
            /* the first error, unless this attempt read every token (then its error is
             * the input's) or the input named its partitioner */
            first_rc = rc;
            first = e;
        }
        if (fixed || !text_failed || ++attempt >= sizeof order / sizeof order[0])
            break;
        p = order[attempt];
    }
    if (rc != TOKENRING_OK) {
        rc = first_rc;
        if (contradicted && first_rc != TOKENRING_E_NOMEM) {
            size_t at = strlen(first.message);
            snprintf(first.message + at, sizeof first.message - at,
                     "; %zu of the %zu tokens are Murmur3 tokens, so the ring is not read "
                     "as RandomPartitioner's (name the partitioner if it is)",
                     small, total);
        }
        if (err)
            *err = first;
    }
    if (rc == TOKENRING_OK) {
        cluster->formats |= 1u << format;
        if (input_named) /* the input named the partitioner the tokens were read in */
            cluster->flags &= ~TOKENRING_CLUSTER_PARTITIONER_INFERRED;
    }
    return rc;
}
