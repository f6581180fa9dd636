/* SPDX-License-Identifier: Apache-2.0 */
/* Replication descriptions: parse never crashes; whatever parses formats to a CQL map that
 * parses back to the same description. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tokenring_replication *r = NULL;
    tokenring_error err;
    int rc = tokenring_replication_parse(&r, (const char *)data, size, &err);
    if (rc != TOKENRING_OK) {
        FUZZ_CHECK(r == NULL);
        FUZZ_CHECK(err.code == rc && err.message[0] != '\0');
        return 0;
    }
    size_t len = 0;
    FUZZ_CHECK(tokenring_replication_format(NULL, 0, &len, r) == TOKENRING_E_BUFSIZE ||
               len == 0);
    char *text = malloc(len + 1);
    FUZZ_CHECK(tokenring_replication_format(text, len + 1, &len, r) == TOKENRING_OK);
    tokenring_replication *again = NULL;
    FUZZ_CHECK(tokenring_replication_parse(&again, text, len, NULL) == TOKENRING_OK);
    size_t len2 = 0;
    char *text2 = malloc(len + 1);
    FUZZ_CHECK(tokenring_replication_format(text2, len + 1, &len2, again) == TOKENRING_OK);
    FUZZ_CHECK(len2 == len && memcmp(text, text2, len) == 0);
    FUZZ_CHECK(tokenring_replication_strategy(r) == tokenring_replication_strategy(again));
    free(text);
    free(text2);
    tokenring_replication_free(again);
    tokenring_replication_free(r);
    return 0;
}
