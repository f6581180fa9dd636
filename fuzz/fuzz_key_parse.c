/* SPDX-License-Identifier: Apache-2.0 */
/* Typed and composite key strings: parsing never crashes, reports sizes consistently,
 * and a composite key's bytes re-split into components that re-encode identically. */
#include "fuzz_common.h"

static const tokenring_cql_type all_types[] = {
    TOKENRING_CQL_ASCII, TOKENRING_CQL_BIGINT, TOKENRING_CQL_BLOB, TOKENRING_CQL_BOOLEAN,
    TOKENRING_CQL_DATE, TOKENRING_CQL_DECIMAL, TOKENRING_CQL_DOUBLE, TOKENRING_CQL_FLOAT,
    TOKENRING_CQL_INET, TOKENRING_CQL_INT, TOKENRING_CQL_SMALLINT, TOKENRING_CQL_TEXT,
    TOKENRING_CQL_TIME, TOKENRING_CQL_TIMESTAMP, TOKENRING_CQL_TIMEUUID,
    TOKENRING_CQL_TINYINT, TOKENRING_CQL_UUID, TOKENRING_CQL_VARINT,
};
#define NTYPES (sizeof all_types / sizeof all_types[0])

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* Header: number of columns - 1, then one type index per column (3 bytes). */
    if (size < 4)
        return 0;
    size_t ntypes = 1 + data[0] % 3;
    tokenring_cql_type types[3];
    for (size_t i = 0; i < ntypes; i++)
        types[i] = all_types[data[1 + i] % NTYPES];
    const char *text = (const char *)data + 4;
    size_t text_len = size - 4;

    /* Measure, then parse into a buffer of exactly that size. */
    size_t need = 0;
    tokenring_error err;
    int rc = tokenring_key_parse(NULL, 0, &need, types, ntypes, text, text_len, &err);
    if (rc != TOKENRING_OK && rc != TOKENRING_E_BUFSIZE) {
        FUZZ_CHECK(err.code == rc && err.message[0] != '\0');
        return 0;
    }
    uint8_t *buf = malloc(need ? need : 1);
    size_t got = 0;
    FUZZ_CHECK(tokenring_key_parse(buf, need, &got, types, ntypes, text, text_len, NULL) ==
               TOKENRING_OK);
    FUZZ_CHECK(got == need);
    (void)tokenring_token(got ? buf : NULL, got);

    if (ntypes > 1) {
        /* Walk the composite layout: u16 length, bytes, end-of-component byte. */
        size_t pos = 0, k = 0;
        uint64_t offs[4] = { 0 };
        uint8_t *parts = malloc(got ? got : 1);
        size_t plen = 0;
        int plain_eoc = 1;
        while (pos < got && k < 3) {
            FUZZ_CHECK(pos + 2 <= got);
            size_t len = ((size_t)buf[pos] << 8) | buf[pos + 1];
            FUZZ_CHECK(pos + 2 + len + 1 <= got);
            memcpy(parts + plen, buf + pos + 2, len);
            plen += len;
            plain_eoc &= buf[pos + 2 + len] == 0;
            pos += 3 + len;
            offs[++k] = plen;
        }
        FUZZ_CHECK(pos == got);
        if (plain_eoc && k > 0) {
            uint8_t *again = malloc(got);
            size_t alen = 0;
            FUZZ_CHECK(tokenring_composite_encode(again, got, &alen, parts, offs, k) ==
                       TOKENRING_OK);
            FUZZ_CHECK(alen == got && memcmp(again, buf, got) == 0);
            free(again);
        }
        free(parts);
    }
    free(buf);
    return 0;
}
