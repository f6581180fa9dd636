/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file hash.h
 * @brief Cassandra's Murmur3Partitioner tokens, one key at a time or in batches.
 *
 * Hashing knows nothing about rings. All functions here are pure, allocate nothing and
 * may be called from any number of threads at once.
 */
#ifndef TOKENRING_HASH_H
#define TOKENRING_HASH_H

#include "tokenring/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The Murmur3Partitioner token of a serialized partition key, exactly as Cassandra
 * computes it: MurmurHash3 x64 128 with seed 0 reading tail bytes as signed bytes, the
 * first 64-bit half as the token, a raw #TOKENRING_MIN_TOKEN mapped to
 * #TOKENRING_MAX_TOKEN, and the empty key giving #TOKENRING_MIN_TOKEN.
 *
 * Complexity O(@p len). Thread-safe.
 * @param key the key bytes; may be NULL only when @p len is 0
 * @param len the key length in bytes
 * @return the token (a signed 64-bit value); #TOKENRING_MIN_TOKEN for an empty or NULL key
 * @since 1.0
 */
TOKENRING_API int64_t tokenring_token(const void *key, size_t len);

/**
 * Tokens of many keys in one call. The keys are packed back to back in @p keys; key @c i
 * is the bytes <tt>keys[offsets[i] .. offsets[i+1])</tt>, so @p offsets has
 * @p count + 1 entries, non-decreasing (the layout of Arrow binary arrays).
 *
 * Thread-safe; allocates nothing.
 * @param[out] tokens_out receives @p count tokens
 * @param keys the packed key bytes (may be NULL when every key is empty)
 * @param offsets @p count + 1 non-decreasing byte offsets into @p keys
 * @param count number of keys
 * @return #TOKENRING_OK; #TOKENRING_E_INVAL if a needed pointer is NULL or the offsets
 *         decrease (nothing is written then)
 * @since 1.0
 */
TOKENRING_API int tokenring_tokens(int64_t *tokens_out, const uint8_t *keys,
                                   const uint64_t *offsets, size_t count);

/**
 * Cassandra's variant of MurmurHash3_x64_128 (signed tail bytes), both 64-bit halves,
 * without the partitioner's empty-key and minimum-token rules.
 * @param[out] out receives h1 (out[0]) and h2 (out[1]) as signed values
 * @param key the bytes; may be NULL only when @p len is 0
 * @param len length in bytes
 * @param seed the hash seed (Cassandra uses 0)
 * @return #TOKENRING_OK, or #TOKENRING_E_INVAL if @p out is NULL or @p key is NULL with a
 *         non-zero @p len
 * @since 1.0
 */
TOKENRING_API int tokenring_murmur3_cassandra(int64_t out[2], const void *key, size_t len,
                                              uint64_t seed);

#ifdef __cplusplus
}
#endif

#endif /* TOKENRING_HASH_H */
