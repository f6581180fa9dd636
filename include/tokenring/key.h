/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file key.h
 * @brief Partition-key bytes: CQL value serialization, composite keys, and the string
 *        forms `nodetool getendpoints` accepts.
 *
 * A driver that hashes the same bytes Cassandra hashes gets the same token. For a table
 * with one partition-key column the key is that column's serialized value; with several
 * columns it is the composite layout (per component: u16 big-endian length, the bytes,
 * a 0x00 end-of-component byte).
 *
 * Output convention: functions write into a caller buffer @p out of @p cap bytes and
 * store the length in @p len_out. When the buffer is too small they return
 * #TOKENRING_E_BUFSIZE and still store the needed length in @p len_out, so calling with
 * @p cap 0 (and @p out NULL) measures. All functions are pure and thread-safe.
 */
#ifndef TOKENRING_KEY_H
#define TOKENRING_KEY_H

#include "tokenring/common.h"
/* tokenring_token_parse() moved to partitioner.h with the other tokens' text forms; a
 * program that includes only key.h still sees it. */
#include "tokenring/partitioner.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * CQL types whose values can be serialized or parsed. Values are ABI and never change.
 * @since 1.0
 */
typedef enum tokenring_cql_type {
    TOKENRING_CQL_ASCII = 1,      /**< ascii: the bytes of the text */
    TOKENRING_CQL_BIGINT = 2,     /**< bigint (and counter): 8 bytes big-endian */
    TOKENRING_CQL_BLOB = 3,       /**< blob: the bytes; string form is hex without 0x */
    TOKENRING_CQL_BOOLEAN = 4,    /**< boolean: one byte 00/01; string form true/false */
    TOKENRING_CQL_DATE = 5,       /**< date: u32 days with 1970-01-01 = 2^31; YYYY-MM-DD */
    TOKENRING_CQL_DECIMAL = 6,    /**< decimal: i32 scale then the unscaled varint */
    TOKENRING_CQL_DOUBLE = 7,     /**< double: IEEE-754 binary64 big-endian */
    TOKENRING_CQL_FLOAT = 8,      /**< float: IEEE-754 binary32 big-endian */
    TOKENRING_CQL_INET = 9,       /**< inet: 4 (IPv4) or 16 (IPv6) bytes */
    TOKENRING_CQL_INT = 10,       /**< int: 4 bytes big-endian */
    TOKENRING_CQL_SMALLINT = 11,  /**< smallint: 2 bytes big-endian */
    TOKENRING_CQL_TEXT = 12,      /**< text/varchar: UTF-8 bytes */
    TOKENRING_CQL_TIME = 13,      /**< time: nanoseconds since midnight, 8 bytes */
    TOKENRING_CQL_TIMESTAMP = 14, /**< timestamp: signed ms since the epoch, 8 bytes */
    TOKENRING_CQL_TIMEUUID = 15,  /**< timeuuid: 16 bytes, RFC 4122 order */
    TOKENRING_CQL_TINYINT = 16,   /**< tinyint: 1 byte */
    TOKENRING_CQL_UUID = 17,      /**< uuid: 16 bytes, RFC 4122 order */
    TOKENRING_CQL_VARINT = 18     /**< varint: shortest big-endian two's complement */
} tokenring_cql_type;

/**
 * Looks up a CQL type by its CQL name, case-insensitively ("int", "bigint", "counter",
 * "varchar", "text", "uuid", ...).
 * @param[out] type_out receives the type
 * @param name NUL-terminated CQL type name
 * @return #TOKENRING_OK, #TOKENRING_E_INVAL for NULL arguments, #TOKENRING_E_NOTFOUND for
 *         an unknown or unsupported name
 * @since 1.0
 */
TOKENRING_API int tokenring_cql_type_from_name(tokenring_cql_type *type_out, const char *name);

/**
 * The canonical CQL name of a type ("int", "text", ...).
 * @param type a ::tokenring_cql_type
 * @return a static string, or NULL for a value that is not a ::tokenring_cql_type
 * @since 1.0
 */
TOKENRING_API const char *tokenring_cql_type_name(tokenring_cql_type type);

/** Serializes a CQL @c int. @param[out] out 4 bytes @param value the value
 *  @return #TOKENRING_OK or #TOKENRING_E_INVAL if @p out is NULL @since 1.0 */
TOKENRING_API int tokenring_encode_int(uint8_t out[4], int32_t value);
/** Serializes a CQL @c bigint (or @c counter). @param[out] out 8 bytes @param value the
 *  value @return #TOKENRING_OK or #TOKENRING_E_INVAL if @p out is NULL @since 1.0 */
TOKENRING_API int tokenring_encode_bigint(uint8_t out[8], int64_t value);
/** Serializes a CQL @c smallint. @param[out] out 2 bytes @param value the value
 *  @return #TOKENRING_OK or #TOKENRING_E_INVAL if @p out is NULL @since 1.0 */
TOKENRING_API int tokenring_encode_smallint(uint8_t out[2], int16_t value);
/** Serializes a CQL @c tinyint. @param[out] out 1 byte @param value the value
 *  @return #TOKENRING_OK or #TOKENRING_E_INVAL if @p out is NULL @since 1.0 */
TOKENRING_API int tokenring_encode_tinyint(uint8_t out[1], int8_t value);
/** Serializes a CQL @c boolean. @param[out] out 1 byte @param value zero for false,
 *  anything else for true @return #TOKENRING_OK or #TOKENRING_E_INVAL if @p out is NULL
 *  @since 1.0 */
TOKENRING_API int tokenring_encode_boolean(uint8_t out[1], int value);
/** Serializes a CQL @c timestamp. @param[out] out 8 bytes @param millis signed
 *  milliseconds since 1970-01-01T00:00Z @return #TOKENRING_OK or #TOKENRING_E_INVAL if
 *  @p out is NULL @since 1.0 */
TOKENRING_API int tokenring_encode_timestamp(uint8_t out[8], int64_t millis);
/** Serializes a CQL @c uuid or @c timeuuid from its two 64-bit halves.
 *  @param[out] out 16 bytes @param msb most significant 64 bits @param lsb least
 *  significant 64 bits @return #TOKENRING_OK or #TOKENRING_E_INVAL if @p out is NULL
 *  @since 1.0 */
TOKENRING_API int tokenring_encode_uuid(uint8_t out[16], uint64_t msb, uint64_t lsb);

/**
 * Parses the string form `nodetool getendpoints` accepts for one value of @p type
 * (Cassandra's AbstractType.fromString) into its serialized bytes. An empty string gives
 * an empty value (so a one-column key's token is #TOKENRING_MIN_TOKEN), except that, as in
 * Cassandra, it is @c false for boolean and an error (#TOKENRING_E_PARSE) for date and
 * time.
 *
 * @param[out] out buffer for the bytes (may be NULL when @p cap is 0)
 * @param cap size of @p out
 * @param[out] len_out receives the serialized length (also on #TOKENRING_E_BUFSIZE)
 * @param type the CQL type
 * @param text the string (need not be NUL-terminated)
 * @param text_len its length in bytes
 * @param[out] err optional detail (column of the offending character, what was expected)
 * @return #TOKENRING_OK; #TOKENRING_E_PARSE for malformed text; #TOKENRING_E_RANGE for a
 *         number that does not fit; #TOKENRING_E_BUFSIZE; #TOKENRING_E_INVAL for NULL
 *         arguments or an unknown type
 * @since 1.0
 */
TOKENRING_API int tokenring_value_parse(uint8_t *out, size_t cap, size_t *len_out,
                                        tokenring_cql_type type, const char *text,
                                        size_t text_len, tokenring_error *err);

/**
 * Builds a composite partition key from component bytes: for each component a u16
 * big-endian length, the bytes, and a 0x00 end-of-component byte. Components are packed
 * in @p parts with @p offsets (count + 1 entries) as in tokenring_tokens(). A single
 * component is still wrapped (use the value bytes themselves for one-column keys).
 * @param[out] out buffer for the key (may be NULL when @p cap is 0)
 * @param cap size of @p out
 * @param[out] len_out receives the key length (also on #TOKENRING_E_BUFSIZE)
 * @param parts the packed component bytes
 * @param offsets @p count + 1 non-decreasing offsets into @p parts
 * @param count number of components (at least 1)
 * @return #TOKENRING_OK; #TOKENRING_E_RANGE if a component exceeds #TOKENRING_MAX_KEY
 *         bytes; #TOKENRING_E_BUFSIZE; #TOKENRING_E_INVAL for NULL pointers, a zero
 *         @p count or decreasing offsets
 * @since 1.0
 */
TOKENRING_API int tokenring_composite_encode(uint8_t *out, size_t cap, size_t *len_out,
                                             const uint8_t *parts, const uint64_t *offsets,
                                             size_t count);

/**
 * Parses a whole partition key in `nodetool getendpoints` string form. With one type the
 * text is one value (see tokenring_value_parse()); with several, the components are
 * separated by ':' (a literal ':' written "\:"; a component ending in '\' or '!' carries
 * one extra '!'; a part that is exactly "!" or "_" is an end-of-component marker that
 * sets the last end byte to 0x01 or 0xFF and stops parsing) and the result is the
 * composite layout.
 * @param[out] out buffer for the key bytes (may be NULL when @p cap is 0)
 * @param cap size of @p out
 * @param[out] len_out receives the key length (also on #TOKENRING_E_BUFSIZE)
 * @param types the partition-key column types in order
 * @param ntypes number of columns (at least 1)
 * @param text the string
 * @param text_len its length in bytes
 * @param[out] err optional detail (component and column of the error)
 * @return as tokenring_value_parse(); #TOKENRING_E_PARSE also for too many or too few
 *         components
 * @since 1.0
 */
TOKENRING_API int tokenring_key_parse(uint8_t *out, size_t cap, size_t *len_out,
                                      const tokenring_cql_type *types, size_t ntypes,
                                      const char *text, size_t text_len,
                                      tokenring_error *err);

/**
 * Decodes hexadecimal text into bytes: an optional "0x" or "0X" prefix, then an even
 * number of hex digits of either case (two per byte; "" and "0x" give no bytes). This is
 * how raw key bytes are written on a command line; the blob form of
 * tokenring_value_parse() is Cassandra's and has no prefix.
 * @param[out] out buffer for the bytes (may be NULL when @p cap is 0)
 * @param cap size of @p out
 * @param[out] len_out receives the decoded length (also on #TOKENRING_E_BUFSIZE)
 * @param text the text (need not be NUL-terminated)
 * @param text_len its length in bytes
 * @param[out] err optional detail: for a character that is not a hex digit, its column
 *        (1-based, counting the prefix); an odd number of digits has no column
 * @return #TOKENRING_OK; #TOKENRING_E_PARSE for an odd number of digits or a non-digit
 *         (the count is checked first); #TOKENRING_E_BUFSIZE; #TOKENRING_E_INVAL for NULL
 *         arguments
 * @since 1.2
 */
TOKENRING_API int tokenring_hex_decode(uint8_t *out, size_t cap, size_t *len_out,
                                       const char *text, size_t text_len,
                                       tokenring_error *err);

#ifdef __cplusplus
}
#endif

#endif /* TOKENRING_KEY_H */
