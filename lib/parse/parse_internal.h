/* SPDX-License-Identifier: Apache-2.0 */
/* The bottom layers of the parsers, shared by every format reader: the line reader and
 * lexing helpers (parse_lex.c) and the cluster document with its staging builders
 * (parse_cluster.c). Nothing here knows any format; the format readers are declared in
 * parse_formats.h. */
#ifndef TOKENRING_PARSE_INTERNAL_H
#define TOKENRING_PARSE_INTERNAL_H

#include "internal.h"
#include "token.h"
#include "tokenring/parse.h"

struct tr_cnode {
    char *name, *dc, *rack, *host_id;   /* host_id may be NULL */
    char *load, *owns;                  /* nodetool's Load and Owns as printed, or NULL */
    int64_t *tokens;                    /* Murmur3: sorted ascending once parsing ends */
    tr_tok *vtok;                       /* the other partitioners (tokens NULL): each token
                                           read once from its text into its value
                                           (lib/token/token.h; a ByteOrdered token's bytes owned
                                           by the node), sorted in the partitioner's order */
    uint64_t *tok_pos;                  /* staging only: (line << 32 | column) per token */
    size_t ntok, tcap;
    size_t declared;                    /* token count the input declared (0: none) */
    bool known;                         /* tokens known */
    int32_t state, liveness;
    uint32_t line, column;
};

/* Token k of node nd as a tr_tok (Murmur3's from its int64). */
static inline tr_tok tr_cl_tok(const struct tr_cnode *nd, size_t k)
{
    return nd->vtok ? nd->vtok[k] : tr_tok_m3(nd->tokens[k]);
}

/* A copy of token src in dst whose bytes (ByteOrdered) the copy owns: TOKENRING_OK or
 * TOKENRING_E_NOMEM (dst then has no bytes). tr_cl_tok_free releases them. */
TR_HIDDEN int tr_cl_tok_copy(tr_tok *dst, const tr_tok *src);
TR_HIDDEN void tr_cl_tok_free(tr_tok *t);

struct tr_keyspace {
    char *name;
    tokenring_replication *repl;
    uint32_t line;
};

/* A keyspace read but not kept: its class places no range on the ring. */
struct tr_skipped {
    char *name, *cls;
};

struct tokenring_cluster {
    struct tr_cnode *nodes;
    size_t n, cap;
    struct tr_keyspace *ks;
    size_t nks, kcap;
    struct tr_skipped *skipped;         /* system_schema.keyspaces rows not kept */
    size_t nskipped;
    tokenring_topology *topo;           /* NULL when no node or tokens unknown */
    tokenring_partitioner partitioner;  /* the tokens' partitioner (Murmur3 by default) */
    bool partitioner_fixed;             /* set by the caller or named by an input */
    bool token_text_failed;             /* staging: a token did not read in partitioner */
    bool hex_letter;                    /* staging: a ByteOrdered token had a-f in it */
    bool restart;                       /* staging: an input named another partitioner
                                           (in partitioner) after reading tokens: parse
                                           again with it */
    bool named;                         /* staging: the input named the partitioner */
    bool check_disjoint;                /* staging: tr_cl_merge refuses an input that
                                           shares no node with the cluster's nodes */
    uint32_t formats;                   /* 1 << format of each input parsed into it */
    uint32_t flags;
    uint32_t *hash;                     /* name index (node index + 1, 0 = empty), open
                                           addressing; valid when hashed == n */
    size_t hcap, hashed;
};

/* Line reader: strips "\n", "\r\n" (and a lone trailing "\r"), skips a UTF-8 BOM; a text
 * with "\r" but no "\n" (classic Mac OS line endings) breaks at each "\r". */
typedef struct tr_lines {
    const char *text;
    size_t len, pos;
    uint32_t lineno;                    /* number of the line last returned */
    char eol;                           /* '\n', or '\r' in a text without '\n' */
} tr_lines;

TR_HIDDEN void tr_lines_init(tr_lines *ls, const char *text, size_t len);
TR_HIDDEN bool tr_lines_next(tr_lines *ls, const char **line, size_t *n);

/* Whitespace helpers. */
TR_HIDDEN bool tr_is_blank(const char *s, size_t n);
TR_HIDDEN bool tr_starts_with(const char *s, size_t n, const char *prefix);
/* An elision mark: only dots (two or more), spaces and tabs, as nodetool prints for the
 * lines it leaves out ("..."). */
TR_HIDDEN bool tr_is_elision(const char *s, size_t n);

/* Splits a line at runs of spaces/tabs into at most max words (returns the count, or
 * max + 1 when there were more). */
typedef struct tr_word {
    const char *s;
    size_t n;
    uint32_t col;                       /* 1-based */
} tr_word;
TR_HIDDEN size_t tr_split_words(const char *line, size_t n, tr_word *words, size_t max);

/* Parses a signed decimal 64-bit integer occupying all of s[0..n): 0, TOKENRING_E_PARSE
 * or TOKENRING_E_RANGE. */
TR_HIDDEN int tr_parse_i64(const char *s, size_t n, int64_t *out);

/* Staging-cluster builders used by the parsers. Positions feed error messages. */
TR_HIDDEN int tr_cl_find(const tokenring_cluster *cl, const char *name, size_t n,
                         size_t *idx);
/* Adds a node (validating the names) or, when it exists, checks dc and rack agree. */
TR_HIDDEN int tr_cl_node(tokenring_cluster *cl, const char *name, size_t name_len,
                         const char *dc, size_t dc_len, const char *rack, size_t rack_len,
                         uint32_t line, uint32_t col, uint32_t dc_col, uint32_t rack_col,
                         size_t *idx,
                         bool *created, tokenring_error *err);
TR_HIDDEN int tr_cl_add_token(tokenring_cluster *cl, size_t idx, int64_t token,
                              uint32_t line, uint32_t col, tokenring_error *err);
/* Adds a token given as text in the cluster's partitioner's string form (Murmur3: a
 * signed 64-bit decimal; RandomPartitioner: a decimal 0 .. 2^127; ByteOrdered: hex). A
 * token that does not read sets token_text_failed. */
TR_HIDDEN int tr_cl_add_token_text(tokenring_cluster *cl, size_t idx, const char *s, size_t n,
                                   uint32_t line, uint32_t col, tokenring_error *err);
/* Reads a token's text in partitioner p into *out (may be NULL: checked only); a
 * ByteOrdered token's bytes go to buf (TR_TOK_PARSE_ROOM(n) bytes when out is set), which
 * out->b then points into. A token that does not read sets token_text_failed, a hex
 * letter hex_letter. */
TR_HIDDEN int tr_cl_read_token(tokenring_cluster *cl, tokenring_partitioner p, const char *s,
                               size_t n, uint32_t line, uint32_t col, tr_tok *out,
                               uint8_t *buf, tokenring_error *err);
/* Checks a token's text as tr_cl_add_token_text() reads it, without adding it; a
 * Murmur3 token's value goes to murmur3_out (may be NULL). */
TR_HIDDEN int tr_cl_check_token_text(tokenring_cluster *cl, const char *s, size_t n,
                                     uint32_t line, uint32_t col, int64_t *murmur3_out,
                                     tokenring_error *err);
/* The partitioner an input names (a topology file's `partitioner` line, cqlsh
 * system.local's column): fixes the staging cluster's, or asks for a new parse when the
 * staging cluster read tokens in another one. Returns TOKENRING_E_PARSE with restart set
 * in that case. */
TR_HIDDEN int tr_cl_name_partitioner(tokenring_cluster *cl, const char *s, size_t n,
                                     uint32_t line, uint32_t col, tokenring_error *err);
/* Formats token k of node nd in the cluster's partitioner's string form into buf (at
 * least TR_TOKEN_TEXT_MAX bytes; a byte token longer than fits is cut with "..."). */
#define TR_TOKEN_TEXT_MAX 96
TR_HIDDEN const char *tr_cl_token_text(const tokenring_cluster *cl, const struct tr_cnode *nd,
                                       size_t k, char *buf);
/* Sets a node's host ID unless it has one; the ID follows the rules of names. */
TR_HIDDEN int tr_cl_set_host_id(tokenring_cluster *cl, size_t idx, const char *s, size_t n,
                                uint32_t line, uint32_t col, tokenring_error *err);
TR_HIDDEN int tr_cl_add_keyspace_at(tokenring_cluster *cl, const char *name, size_t n,
                                    tokenring_replication *repl_owned, uint32_t line,
                                    uint32_t col, tokenring_error *err);

/* Keeps a node's Load or Owns cell as nodetool printed it (the first input's wins). */
TR_HIDDEN int tr_cl_set_column(tokenring_cluster *cl, size_t idx, bool owns, const char *s,
                               size_t n, tokenring_error *err);

/* Records a keyspace that is skipped (its class places no range on the ring); a name
 * already skipped is not recorded twice, a name that is a keyspace fails. */
TR_HIDDEN int tr_cl_add_skipped(tokenring_cluster *cl, const char *name, size_t n,
                                const char *cls, size_t cn, uint32_t line, uint32_t col,
                                tokenring_error *err);

/* Parses a comma-separated token list s[0..n) at column col0 into node idx (a trailing
 * comma is allowed: more tokens follow on a continuation line). */
TR_HIDDEN int tr_cl_add_token_list(tokenring_cluster *cl, size_t idx, const char *s, size_t n,
                                   uint32_t line, uint32_t col0, tokenring_error *err);
/* Checks a keyspace name (non-empty, no whitespace or '#', not too long). */
TR_HIDDEN int tr_cl_check_keyspace_name(const char *s, size_t n, uint32_t line, uint32_t col,
                                        tokenring_error *err);
TR_HIDDEN int tr_cl_fail_nomem(tokenring_error *err);

/* Staging life cycle: a format reader fills an empty staging cluster; tr_cl_finish sorts
 * each node's tokens and rejects a token given twice; tr_cl_merge merges the staging
 * cluster into the caller's (all or nothing); tr_cl_clear frees what a cluster owns. */
TR_HIDDEN int tr_cl_finish(tokenring_cluster *cl, tokenring_error *err);
TR_HIDDEN int tr_cl_merge(tokenring_cluster *target, tokenring_cluster *staging,
                          tokenring_error *err);
TR_HIDDEN void tr_cl_clear(tokenring_cluster *cl);

/* Runs fill on a fresh staging cluster (in the partitioner the cluster has or the input
 * names, else trying Murmur3, RandomPartitioner and ByteOrdered in turn as
 * tokenring_cluster_parse() documents), then finishes and merges it into cluster: all
 * or nothing (lib/parse/parse_detect.c). format is the kind of input fill reads (a
 * TOKENRING_INPUT_* value: whether it must share a node with what the cluster holds,
 * and the cluster's record of the formats read); flags the TOKENRING_PARSE_* flags. */
TR_HIDDEN int tr_cluster_stage(tokenring_cluster *cluster, int format, uint32_t flags,
                               int (*fill)(tokenring_cluster *staging, void *ctx,
                                           tokenring_error *err),
                               void *ctx, tokenring_error *err);

/* The rules for rows of system.local, system.peers(_v2) and system_schema.keyspaces,
 * shared by the cqlsh reader (parse_cqlsh.c) and the router builder (router_build.c)
 * (lib/parse/parse_rows.c). A column value: s NULL for CQL null; col its 1-based column in a
 * text, 0 for a row given as values. */
typedef struct tr_col {
    const char *s;
    size_t n;
    uint32_t col;
} tr_col;
/* A node row: the address (required), data_center (null refused), rack (null is
 * TOKENRING_DEFAULT_RACK), host_id (optional); a node listed twice is refused. Its tokens are
 * added by the caller with tr_cl_add_token_text (none: unknown). */
TR_HIDDEN int tr_row_node(tokenring_cluster *cl, const tr_col *name, const tr_col *dc,
                          const tr_col *rack, const tr_col *host_id, uint32_t line,
                          size_t *idx, tokenring_error *err);
/* A keyspace row: its name and its replication class and map (the CQL map text that
 * tokenring_replication_parse reads). Ringless classes (LocalStrategy,
 * EverywhereStrategy, MetaStrategy) are recorded as skipped. */
TR_HIDDEN int tr_row_keyspace(tokenring_cluster *cl, const tr_col *name, const tr_col *cls,
                              const tr_col *map, uint32_t line, tokenring_error *err);
/* The class is one that places nothing on the token ring. */
TR_HIDDEN bool tr_ringless_class(const char *s, size_t n);

#endif
