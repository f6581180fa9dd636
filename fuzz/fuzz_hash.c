/* SPDX-License-Identifier: Apache-2.0 */
/* Batch hashing: the batch call over an arbitrary split of the input must agree with the
 * one-key call on every piece, and with the raw hash plus the partitioner's rules; and over
 * an even split into 8-24 keys of one length (the runs the batch hashes eight at a time
 * where the processor has AVX-512), with the one-key call on every key. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) {
        FUZZ_CHECK(tokenring_token(NULL, 0) == TOKENRING_MIN_TOKEN);
        return 0;
    }
    /* The first byte chooses how many pieces; piece boundaries come from later bytes. */
    size_t pieces = 1 + data[0] % 16;
    const uint8_t *keys = data + 1;
    size_t len = size - 1;
    uint64_t offsets[17];
    offsets[0] = 0;
    for (size_t i = 1; i < pieces; i++) {
        uint64_t cut = len ? (uint64_t)keys[(i * 7919) % len] * len / 256 : 0;
        offsets[i] = cut < offsets[i - 1] ? offsets[i - 1] : cut;
    }
    offsets[pieces] = len;
    int64_t out[16];
    FUZZ_CHECK(tokenring_tokens(out, len ? keys : NULL, offsets, pieces) == TOKENRING_OK);
    for (size_t i = 0; i < pieces; i++) {
        size_t n = (size_t)(offsets[i + 1] - offsets[i]);
        const uint8_t *k = keys + offsets[i];
        int64_t one = tokenring_token(n ? k : NULL, n);
        FUZZ_CHECK(one == out[i]);
        int64_t raw[2];
        FUZZ_CHECK(tokenring_murmur3_cassandra(raw, n ? k : NULL, n, 0) == TOKENRING_OK);
        if (n == 0)
            FUZZ_CHECK(one == TOKENRING_MIN_TOKEN);
        else if (raw[0] == TOKENRING_MIN_TOKEN)
            FUZZ_CHECK(one == TOKENRING_MAX_TOKEN);
        else
            FUZZ_CHECK(one == raw[0]);
    }
    /* 8-24 keys of one length (a whole number of them; the rest of the input unused) */
    size_t count = 8 + data[0] % 17, each = len / count;
    uint64_t even[25];
    for (size_t i = 0; i <= count; i++)
        even[i] = (uint64_t)(i * each);
    int64_t runs[24];
    FUZZ_CHECK(tokenring_tokens(runs, len ? keys : NULL, even, count) == TOKENRING_OK);
    for (size_t i = 0; i < count; i++)
        FUZZ_CHECK(runs[i] == tokenring_token(each ? keys + i * each : NULL, each));
    return 0;
}
