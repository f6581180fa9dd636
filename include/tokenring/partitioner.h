/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file partitioner.h
 * @brief Tokens of Cassandra's RandomPartitioner (MD5) and ByteOrderedPartitioner (the
 *        key's bytes), their order and their text forms.
 *
 * Murmur3Partitioner's tokens are hashed in hash.h; their text form is read here too
 * (tokenring_token_parse()), next to the other partitioners' text forms.
 *
 * @section partitioner_random RandomPartitioner
 * Cassandra's `RandomPartitioner.getToken` reads the 16-byte MD5 digest of the key as a
 * signed big-endian two's-complement integer (`new BigInteger(digest)`) and takes its
 * absolute value, so a token lies in 0 .. 2^127 inclusive: the one digest equal to
 * -2^127 (0x80 followed by fifteen zero bytes) would give 2^127, which a signed 128-bit
 * integer cannot hold. The empty key has the minimum token -1, which no other key has.
 *
 * A ::tokenring_token128 therefore holds the token's value as an unsigned 128-bit
 * integer @c hi * 2^64 + @c lo for 0 .. 2^127, and the minimum token -1 as its 128-bit
 * two's-complement pattern (@c hi = @c lo = @c UINT64_MAX, #TOKENRING_TOKEN128_MIN_HI /
 * #TOKENRING_TOKEN128_MIN_LO), a pattern no token in 0 .. 2^127 has. Compare tokens with
 * tokenring_token128_compare(), which puts -1 first; a plain unsigned comparison of
 * (hi, lo) orders every token except -1 correctly.
 *
 * @section partitioner_bytes ByteOrderedPartitioner
 * The token of a key is the key's bytes (the empty key's token, the partitioner's
 * minimum, is the empty byte string), so there is no token function: tokens are compared
 * with tokenring_byte_token_compare() (unsigned bytes, lexicographically, a proper prefix
 * first) and written as lowercase hex (Cassandra's `Hex.bytesToHex`).
 *
 * @section partitioner_text Tokens in text form, for every partitioner
 * The calls ending in @c _text (here and in topology.h, ring.h, movement.h,
 * movement_result.h, layout.h and allocate_text.h) take and give tokens of any
 * partitioner in Cassandra's own text form (`TokenFactory.toString` / `fromString`):
 * Murmur3Partitioner a signed decimal (tokenring_token_parse()), RandomPartitioner a
 * decimal with -1 the minimum (tokenring_token128_parse()), ByteOrderedPartitioner
 * lowercase hex (read in either case, an odd digit count with a leading 0;
 * tokenring_byte_token_parse()). The partitioner comes from the object the call works
 * on, or from an explicit ::tokenring_partitioner argument, so one call serves all three.
 * An input token array is @c const @c char @c *const @c *tokens with @c token_count
 * NUL-terminated strings; a rejected token is named in the error message with its
 * position ("token 3 of 4 (\"12ab\"): not a Murmur3Partitioner token: ..."). A single
 * output token is written as tokenring_token128_format() writes one (@c out, @c cap,
 * @c len_out; #TOKENRING_E_BUFSIZE with @c len_out set to the length needed), and a list
 * of output tokens is a ::tokenring_token_list.
 *
 * Everything here may be called from any thread; the calls before the text forms are
 * pure and allocate nothing.
 */
#ifndef TOKENRING_PARTITIONER_H
#define TOKENRING_PARTITIONER_H

#include "tokenring/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Cassandra's partitioners a ring can use. Values are ABI. Every topology made by
 * tokenring_topology_new() is #TOKENRING_PARTITIONER_MURMUR3; the others come from
 * tokenring_topology_new_partitioned().
 * @since 1.2
 */
typedef enum tokenring_partitioner {
    TOKENRING_PARTITIONER_MURMUR3 = 0,     /**< org.apache.cassandra.dht.Murmur3Partitioner:
                                                signed 64-bit tokens (the default). */
    TOKENRING_PARTITIONER_RANDOM = 1,      /**< org.apache.cassandra.dht.RandomPartitioner:
                                                ::tokenring_token128 tokens, 0 .. 2^127. */
    TOKENRING_PARTITIONER_BYTE_ORDERED = 2 /**< org.apache.cassandra.dht.ByteOrderedPartitioner:
                                                the key's bytes, unsigned lexicographic. */
} tokenring_partitioner;

/**
 * The Java class name of a partitioner, as `cassandra.yaml`, `nodetool describecluster`
 * and `system.local.partitioner` spell it (e.g.
 * "org.apache.cassandra.dht.RandomPartitioner").
 * @param partitioner a ::tokenring_partitioner
 * @return a static string, or NULL for a value outside the enum
 * @since 1.2
 */
TOKENRING_API const char *tokenring_partitioner_name(tokenring_partitioner partitioner);

/**
 * Reads a partitioner's name: the Java class name
 * ("org.apache.cassandra.dht.Murmur3Partitioner"), the short class name
 * ("Murmur3Partitioner"), exactly as Cassandra reads them (a class name is
 * case-sensitive; one without a package is in org.apache.cassandra.dht), or the short
 * forms "murmur3", "random" and "byteordered" (ASCII case ignored).
 * OrderPreservingPartitioner and LocalPartitioner are named
 * but not modelled.
 * @param[out] out receives the partitioner; unchanged on error
 * @param text the name (need not be NUL-terminated)
 * @param text_len its length in bytes
 * @param[out] err optional detail
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL (NULL arguments); #TOKENRING_E_UNSUPPORTED
 *         (OrderPreservingPartitioner, LocalPartitioner); #TOKENRING_E_PARSE (any other
 *         name)
 * @since 1.2
 */
TOKENRING_API int tokenring_partitioner_parse(tokenring_partitioner *out, const char *text,
                                              size_t text_len, tokenring_error *err);

/**
 * A RandomPartitioner token: an unsigned 128-bit value in 0 .. 2^127, or the minimum
 * token -1 stored as @c hi = @c lo = @c UINT64_MAX (see @ref partitioner_random).
 * @since 1.2
 */
typedef struct tokenring_token128 {
    uint64_t hi; /**< High 64 bits of the value (at most 2^63, i.e. 2^127 >> 64, or
                      @c UINT64_MAX for the minimum token). */
    uint64_t lo; /**< Low 64 bits of the value. */
} tokenring_token128;

/** @c hi of RandomPartitioner's minimum token -1 (the empty key's token). @since 1.2 */
#define TOKENRING_TOKEN128_MIN_HI UINT64_MAX
/** @c lo of RandomPartitioner's minimum token -1. @since 1.2 */
#define TOKENRING_TOKEN128_MIN_LO UINT64_MAX
/** @c hi of RandomPartitioner's largest token 2^127 (its @c lo is 0). @since 1.2 */
#define TOKENRING_TOKEN128_MAX_HI 0x8000000000000000ULL
/** Bytes a buffer needs for any RandomPartitioner token in decimal text, with the
 *  terminating NUL: 2^127 has 39 digits. @since 1.2 */
#define TOKENRING_TOKEN128_TEXT_MAX 40

/**
 * The MD5 digest (RFC 1321) of @p len bytes.
 * @param[out] out receives the 16-byte digest
 * @param data the bytes; may be NULL only when @p len is 0
 * @param len their length
 * @return #TOKENRING_OK, or #TOKENRING_E_INVAL if @p out is NULL or @p data is NULL with
 *         a non-zero @p len
 * @since 1.2
 */
TOKENRING_API int tokenring_md5(uint8_t out[16], const void *data, size_t len);

/**
 * The RandomPartitioner token of a serialized partition key, exactly as Cassandra's
 * `RandomPartitioner.getToken` computes it: the absolute value of the MD5 digest read as
 * a signed 128-bit big-endian integer (0 .. 2^127), and the minimum token -1 for the
 * empty key.
 *
 * Complexity O(@p len). Thread-safe.
 * @param key the key bytes; may be NULL only when @p len is 0
 * @param len the key length in bytes
 * @return the token; the minimum token (-1) for an empty or NULL key
 * @since 1.2
 */
TOKENRING_API tokenring_token128 tokenring_random_token(const void *key, size_t len);

/**
 * RandomPartitioner tokens of many keys in one call, with the key layout of
 * tokenring_tokens(): key @c i is <tt>keys[offsets[i] .. offsets[i+1])</tt>.
 *
 * Thread-safe; allocates nothing.
 * @param[out] tokens_out receives @p count tokens
 * @param keys the packed key bytes (may be NULL when every key is empty)
 * @param offsets @p count + 1 non-decreasing byte offsets into @p keys
 * @param count number of keys
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL if a needed pointer is NULL or the offsets
 *         decrease (nothing is written then)
 * @since 1.2
 */
TOKENRING_API int tokenring_random_tokens(tokenring_token128 *tokens_out, const uint8_t *keys,
                                          const uint64_t *offsets, size_t count);

/**
 * Orders two RandomPartitioner tokens as Cassandra does (`BigInteger.compareTo`): the
 * minimum token -1 first, then 0 .. 2^127 by value.
 * @param a a token
 * @param b a token
 * @return a negative value, zero or a positive value as @p a is below, equal to or above
 *         @p b
 * @since 1.2
 */
TOKENRING_API int tokenring_token128_compare(tokenring_token128 a, tokenring_token128 b);

/**
 * Writes a RandomPartitioner token in decimal, as Cassandra's
 * `TokenFactory.toString` (`BigInteger.toString`) and nodetool print it: "-1" for the
 * minimum token, otherwise the digits without sign or leading zeros.
 * @param[out] out buffer for the NUL-terminated text (may be NULL when @p cap is 0);
 *        #TOKENRING_TOKEN128_TEXT_MAX bytes hold any token
 * @param cap size of @p out
 * @param[out] len_out receives the text's length without the NUL (also on
 *        #TOKENRING_E_BUFSIZE)
 * @param token the token
 * @return #TOKENRING_OK; #TOKENRING_E_BUFSIZE (@p cap < length + 1); #TOKENRING_E_RANGE
 *         for a value that is not a token (above 2^127 and not -1); #TOKENRING_E_INVAL
 *         (NULL @p len_out, NULL @p out with a non-zero @p cap)
 * @since 1.2
 */
TOKENRING_API int tokenring_token128_format(char *out, size_t cap, size_t *len_out,
                                            tokenring_token128 token);

/**
 * Parses a RandomPartitioner token in the decimal form Cassandra's
 * `TokenFactory.fromString` reads (`new BigInteger(String)`): an optional '+' or '-' and
 * one or more ASCII decimal digits, nothing else (no spaces; leading zeros allowed).
 * The value must be a token: -1 (the minimum) or 0 .. 2^127 ("-0" is 0), the range
 * Cassandra's `validate` accepts plus the minimum token.
 * @param[out] token_out receives the token; unchanged on error
 * @param text the string (need not be NUL-terminated)
 * @param text_len its length in bytes
 * @param[out] err optional detail (column of the offending character)
 * @return #TOKENRING_OK; #TOKENRING_E_PARSE for an empty or malformed string;
 *         #TOKENRING_E_RANGE for a number below -1 or above 2^127; #TOKENRING_E_INVAL for
 *         NULL arguments
 * @since 1.2
 */
TOKENRING_API int tokenring_token128_parse(tokenring_token128 *token_out, const char *text,
                                           size_t text_len, tokenring_error *err);

/**
 * Orders two ByteOrderedPartitioner tokens as Cassandra's `BytesToken.compareTo`
 * (`FBUtilities.compareUnsigned`): bytes as unsigned values, lexicographically; a proper
 * prefix comes first, so the empty token (the minimum, the empty key's) is below all.
 * @param a the first token's bytes (may be NULL when @p a_len is 0)
 * @param a_len its length
 * @param b the second token's bytes (may be NULL when @p b_len is 0)
 * @param b_len its length
 * @return a negative value, zero or a positive value as @p a is below, equal to or above
 *         @p b (a NULL pointer with a non-zero length counts as empty)
 * @since 1.2
 */
TOKENRING_API int tokenring_byte_token_compare(const uint8_t *a, size_t a_len,
                                               const uint8_t *b, size_t b_len);

/**
 * Writes a ByteOrderedPartitioner token as Cassandra's `TokenFactory.toString`
 * (`Hex.bytesToHex`) does: two lowercase hex digits per byte, no prefix; the empty token
 * is the empty string.
 * @param[out] out buffer for the NUL-terminated text (may be NULL when @p cap is 0);
 *        2 * @p len + 1 bytes are needed
 * @param cap size of @p out
 * @param[out] len_out receives the text's length without the NUL (also on
 *        #TOKENRING_E_BUFSIZE)
 * @param token the token's bytes (may be NULL when @p len is 0)
 * @param len its length
 * @return #TOKENRING_OK; #TOKENRING_E_BUFSIZE; #TOKENRING_E_RANGE if 2 * @p len + 1
 *         overflows @c size_t; #TOKENRING_E_INVAL for NULL arguments
 * @since 1.2
 */
TOKENRING_API int tokenring_byte_token_format(char *out, size_t cap, size_t *len_out,
                                              const uint8_t *token, size_t len);

/**
 * Parses a ByteOrderedPartitioner token as Cassandra's `TokenFactory.fromString` does:
 * hex digits of either case, no prefix, an odd number of digits read with a leading '0'
 * ("abc" is the bytes 0a bc); the empty string is the empty (minimum) token.
 * @param[out] out buffer for the bytes (may be NULL when @p cap is 0)
 * @param cap size of @p out
 * @param[out] len_out receives the token's length (also on #TOKENRING_E_BUFSIZE)
 * @param text the text (need not be NUL-terminated)
 * @param text_len its length in bytes
 * @param[out] err optional detail (column of a character that is not a hex digit)
 * @return #TOKENRING_OK; #TOKENRING_E_PARSE for a non-digit; #TOKENRING_E_BUFSIZE;
 *         #TOKENRING_E_INVAL for NULL arguments
 * @since 1.2
 */
TOKENRING_API int tokenring_byte_token_parse(uint8_t *out, size_t cap, size_t *len_out,
                                             const char *text, size_t text_len,
                                             tokenring_error *err);

/**
 * Parses a token in the string form Cassandra's Murmur3Partitioner reads
 * (`Long.parseLong`): an optional '+' or '-' and one or more ASCII decimal digits,
 * nothing else (no spaces), within [#TOKENRING_MIN_TOKEN, #TOKENRING_MAX_TOKEN]. This is
 * the form `nodetool getendpoints`, `initial_token` and the tokens of the input formats use.
 * @param[out] token_out receives the token; unchanged on error
 * @param text the string (need not be NUL-terminated)
 * @param text_len its length in bytes
 * @param[out] err optional detail (column of the offending character)
 * @return #TOKENRING_OK; #TOKENRING_E_PARSE for an empty or malformed string;
 *         #TOKENRING_E_RANGE for a number outside the signed 64-bit range;
 *         #TOKENRING_E_INVAL for NULL arguments
 * @since 1.2
 */
TOKENRING_API int tokenring_token_parse(int64_t *token_out, const char *text, size_t text_len,
                                        tokenring_error *err);

/* ------------------------------------------------ tokens of any partitioner, as text */

/**
 * An immutable list of tokens in text form (see @ref partitioner_text), as the
 * @c _text calls that produce several tokens return it. Free it with
 * tokenring_token_list_free(); reading it from several threads at once is safe.
 * @since 1.2
 */
typedef struct tokenring_token_list tokenring_token_list;

/**
 * The number of tokens in a list.
 * @param list the list (NULL gives 0)
 * @return the count
 * @since 1.2
 */
TOKENRING_API size_t tokenring_token_list_count(const tokenring_token_list *list);

/**
 * Token @p i of a list, in its partitioner's text form.
 * @param list the list
 * @param i 0 .. tokenring_token_list_count() - 1
 * @param[out] len_out receives the text's length without the NUL (may be NULL)
 * @return the NUL-terminated text, owned by the list and valid until it is freed; NULL
 *         for a NULL @p list or @p i past the end (@p len_out is then unchanged)
 * @since 1.2
 */
TOKENRING_API const char *tokenring_token_list_get(const tokenring_token_list *list, size_t i,
                                                   size_t *len_out);

/**
 * Frees a token list.
 * @param list the list, or NULL (nothing is done)
 * @since 1.2
 */
TOKENRING_API void tokenring_token_list_free(tokenring_token_list *list);

/**
 * The token of a serialized partition key under @p partitioner, in text form:
 * tokenring_token() in decimal for Murmur3Partitioner, tokenring_random_token() in
 * decimal for RandomPartitioner ("-1" for the empty key), the key's bytes in lowercase
 * hex for ByteOrderedPartitioner (the empty string for the empty key).
 *
 * Thread-safe; allocates nothing. O(@p len).
 * @param[out] out buffer for the NUL-terminated text (may be NULL when @p cap is 0)
 * @param cap size of @p out
 * @param[out] len_out receives the text's length without the NUL (also on
 *        #TOKENRING_E_BUFSIZE)
 * @param partitioner the partitioner
 * @param key the key bytes (may be NULL when @p len is 0)
 * @param len the key length
 * @return #TOKENRING_OK; #TOKENRING_E_BUFSIZE (@p cap < length + 1);
 *         #TOKENRING_E_INVAL (NULL @p len_out, NULL @p out with a non-zero @p cap, NULL
 *         @p key with a non-zero @p len, a @p partitioner outside the enum);
 *         #TOKENRING_E_RANGE (a ByteOrderedPartitioner key whose hex text would overflow
 *         @c size_t)
 * @since 1.2
 */
TOKENRING_API int tokenring_key_token_text(char *out, size_t cap, size_t *len_out,
                                           tokenring_partitioner partitioner, const void *key,
                                           size_t len);

/**
 * Reads a token of @p partitioner in text form and writes it back in the canonical form
 * Cassandra prints (`TokenFactory.toString(fromString(text))`): no '+' sign, no leading
 * zeros ("-0" is "0"), lowercase hex for ByteOrderedPartitioner (an odd digit count gets
 * its leading 0). Validates as the partitioner's parse function does: a Murmur3 token in
 * the signed 64-bit range, a RandomPartitioner token -1 or 0 .. 2^127, any hex string
 * (the empty string, the minimum token, included) for ByteOrderedPartitioner.
 *
 * Thread-safe; allocates only for a ByteOrderedPartitioner text of more than 510 hex
 * digits.
 * @param[out] out buffer for the NUL-terminated canonical text (may be NULL when @p cap
 *        is 0); @p text's length + 2 bytes always suffice
 * @param cap size of @p out
 * @param[out] len_out receives the canonical text's length without the NUL (also on
 *        #TOKENRING_E_BUFSIZE)
 * @param partitioner the partitioner
 * @param text the token (need not be NUL-terminated)
 * @param len its length in bytes
 * @param[out] err optional detail (the column of the offending character and the
 *        partitioner expected)
 * @return #TOKENRING_OK; #TOKENRING_E_PARSE (malformed text); #TOKENRING_E_RANGE (a value
 *         outside the partitioner's tokens); #TOKENRING_E_BUFSIZE; #TOKENRING_E_INVAL
 *         (NULL @p len_out or @p text, NULL @p out with a non-zero @p cap, a
 *         @p partitioner outside the enum); #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_token_text_normalize(char *out, size_t cap, size_t *len_out,
                                                 tokenring_partitioner partitioner,
                                                 const char *text, size_t len,
                                                 tokenring_error *err);

/**
 * Orders two tokens of @p partitioner given in text form, as Cassandra's
 * `Token.compareTo` does: signed for Murmur3Partitioner, the minimum -1 first for
 * RandomPartitioner (tokenring_token128_compare()), unsigned bytes with a proper prefix
 * first for ByteOrderedPartitioner (tokenring_byte_token_compare()).
 *
 * Thread-safe; allocates only for a ByteOrderedPartitioner text of more than 510 hex
 * digits.
 * @param[out] cmp_out receives -1, 0 or 1 as @p a is below, equal to or above @p b;
 *        unchanged on error
 * @param partitioner the partitioner
 * @param a the first token, NUL-terminated
 * @param b the second token, NUL-terminated
 * @param[out] err optional detail (which of the two is bad, and why)
 * @return #TOKENRING_OK; #TOKENRING_E_PARSE and #TOKENRING_E_RANGE as
 *         tokenring_token_text_normalize(); #TOKENRING_E_INVAL (NULL arguments, a
 *         @p partitioner outside the enum); #TOKENRING_E_NOMEM
 * @since 1.2
 */
TOKENRING_API int tokenring_token_text_compare(int *cmp_out, tokenring_partitioner partitioner,
                                               const char *a, const char *b,
                                               tokenring_error *err);

#ifdef __cplusplus
}
#endif

#endif /* TOKENRING_PARTITIONER_H */
