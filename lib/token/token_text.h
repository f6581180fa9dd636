/* SPDX-License-Identifier: Apache-2.0 */
/* Private helpers of the text-form token calls (token/token_text.c, ring/ring_text.c,
 * analysis/movement_text.c, layout/layout_text.c):
 * reading token arrays of any partitioner from text, and the token lists. Never
 * installed. */
#ifndef TOKENRING_TOKEN_TEXT_H
#define TOKENRING_TOKEN_TEXT_H

#include "internal.h"
#include "token.h"

/* One token read from text with the partitioner's parse: ByteOrderedPartitioner's bytes
 * in `small`, or in `heap` for a longer text (free with tr_text_tok_free()). */
typedef struct tr_text_tok {
    tr_tok t;
    uint8_t small[256];
    uint8_t *heap;
} tr_text_tok;

/* Reads one token for a call that names it in its errors (position pos of of, 0 of 0 for
 * a call of one token): the parse error with the text and the partitioner expected, or
 * the out-of-memory error as it is. On failure nothing is kept. */
TR_HIDDEN int tr_text_tok_read(tr_text_tok *tt, const tr_partitioner_ops *ops,
                               const char *text, size_t len, size_t pos, size_t of,
                               tokenring_error *err);
TR_HIDDEN void tr_text_tok_free(tr_text_tok *tt);

/* Tokens read from text with the partitioner's parse (lib/token/token.h): t[0 .. n)
 * (NULL when n is 0), ByteOrderedPartitioner's bytes in buf. */
typedef struct tr_text_tokens {
    tokenring_partitioner partitioner;
    size_t n;
    tr_tok *t;
    uint8_t *buf;
} tr_text_tokens;

/* Reads n NUL-terminated tokens of partitioner p (tokens may be NULL only when n is 0);
 * a bad token fails naming its text, its position (1-based) and the partitioner
 * expected. On failure nothing is kept. Free with tr_text_tokens_free(). */
TR_HIDDEN int tr_text_tokens_read(tr_text_tokens *out, tokenring_partitioner p,
                                  const char *const *tokens, size_t n, tokenring_error *err);
TR_HIDDEN void tr_text_tokens_free(tr_text_tokens *t);

/* The Java class name's last part ("Murmur3Partitioner"), for messages; "an unknown
 * partitioner" outside the enum. */
TR_HIDDEN const char *tr_partitioner_short(tokenring_partitioner p);

/* A token list of n tokens of partitioner p in text form: token i is t128[i] when t128
 * is given, else m3[i] (the stored columns tr_tok_at() reads). */
TR_HIDDEN int tr_token_list_of(tokenring_token_list **out, tokenring_partitioner p,
                               const int64_t *m3, const tokenring_token128 *t128, size_t n,
                               tokenring_error *err);

/* True when an output buffer's arguments are invalid (NULL len_out, NULL out with cap). */
TR_HIDDEN bool tr_text_bad_out(char *out, size_t cap, const size_t *len_out);

#endif
