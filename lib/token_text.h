/* SPDX-License-Identifier: Apache-2.0 */
/* Private helpers of the text-form token calls (lib/token_text.c, lib/layout_text.c):
 * reading token arrays of any partitioner from text, and the token lists. Never
 * installed. */
#ifndef TOKENRING_TOKEN_TEXT_H
#define TOKENRING_TOKEN_TEXT_H

#include "internal.h"

/* Tokens read from text with the partitioner's parse (lib/token.h), in every typed form
 * the typed calls take: m (the 64-bit keys: Murmur3's tokens), r (RandomPartitioner's
 * values), b / blen over one buffer (ByteOrderedPartitioner's bytes); n of them. */
typedef struct tr_text_tokens {
    tokenring_partitioner partitioner;
    size_t n;
    int64_t *m;
    tokenring_token128 *r;
    const uint8_t **b;
    size_t *blen;
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

#endif
