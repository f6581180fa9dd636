/* SPDX-License-Identifier: Apache-2.0 */
/* Tokens as text, for every partitioner: the first byte picks the partitioner, the rest is
 * up to 16 token texts separated by ','. Every text the partitioner reads normalizes to a
 * fixed point that compares equal to it; comparison is antisymmetric; a node added with
 * the texts either has them all (each ring token prints, normalizes and searches back to
 * its own range) or the topology is left as it was. */
#include "fuzz_common.h"

enum { MAX_TOKENS = 16 };

static int sign(int v)
{
    return (v > 0) - (v < 0);
}

/* The canonical text of t, or NULL when the partitioner refuses it (malloc'd). */
static char *normalized(tokenring_partitioner p, const char *t)
{
    size_t len = 0;
    int rc = tokenring_token_text_normalize(NULL, 0, &len, p, t, strlen(t), NULL);
    if (rc != TOKENRING_OK && rc != TOKENRING_E_BUFSIZE)
        return NULL;
    char *out = malloc(len + 1);
    FUZZ_CHECK(out != NULL);
    size_t len2 = 0;
    FUZZ_CHECK(tokenring_token_text_normalize(out, len + 1, &len2, p, t, strlen(t), NULL) ==
               TOKENRING_OK);
    FUZZ_CHECK(len2 == len && strlen(out) == len);
    return out;
}

static void check_ring(const tokenring_topology *topo, tokenring_partitioner p)
{
    tokenring_ring *ring = NULL;
    if (tokenring_ring_build(&ring, topo, NULL) != TOKENRING_OK)
        return;
    char buf[2048];
    for (size_t i = 0;; i++) {
        size_t len = 0;
        int rc = tokenring_ring_token_text(buf, sizeof buf, &len, ring, i);
        if (rc == TOKENRING_E_RANGE)
            break;
        if (rc == TOKENRING_E_BUFSIZE)
            continue;
        FUZZ_CHECK(rc == TOKENRING_OK);
        char *n = normalized(p, buf);
        FUZZ_CHECK(n != NULL && strcmp(n, buf) == 0); /* printed in canonical form */
        free(n);
        uint32_t at = UINT32_MAX;
        FUZZ_CHECK(tokenring_ring_search_text(&at, ring, buf, len, NULL) == TOKENRING_OK);
        FUZZ_CHECK(at == i);
    }
    tokenring_ring_free(ring);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    tokenring_partitioner p = (tokenring_partitioner)(data[0] % 3);
    char *text = malloc(size);
    FUZZ_CHECK(text != NULL);
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    const char *tokens[MAX_TOKENS];
    size_t n = 0;
    for (char *s = text; n < MAX_TOKENS;) {
        tokens[n++] = s;
        char *comma = strchr(s, ',');
        if (!comma)
            break;
        *comma = '\0';
        s = comma + 1;
    }
    char *norm[MAX_TOKENS] = {0};
    for (size_t i = 0; i < n; i++) {
        norm[i] = normalized(p, tokens[i]);
        if (norm[i]) {
            char *again = normalized(p, norm[i]);
            FUZZ_CHECK(again != NULL && strcmp(again, norm[i]) == 0);
            free(again);
            int c = 2;
            FUZZ_CHECK(tokenring_token_text_compare(&c, p, tokens[i], norm[i], NULL) ==
                       TOKENRING_OK);
            FUZZ_CHECK(c == 0);
        }
    }
    for (size_t i = 0; i + 1 < n; i++) {
        if (!norm[i] || !norm[i + 1])
            continue;
        int ab = 2, ba = 2;
        FUZZ_CHECK(tokenring_token_text_compare(&ab, p, norm[i], norm[i + 1], NULL) ==
                   TOKENRING_OK);
        FUZZ_CHECK(tokenring_token_text_compare(&ba, p, norm[i + 1], norm[i], NULL) ==
                   TOKENRING_OK);
        FUZZ_CHECK(sign(ab) == -sign(ba));
        FUZZ_CHECK((ab == 0) == (strcmp(norm[i], norm[i + 1]) == 0));
    }
    tokenring_topology *topo = NULL;
    FUZZ_CHECK(tokenring_topology_new_partitioned(&topo, p) == TOKENRING_OK);
    tokenring_error err;
    int rc = tokenring_topology_add_node_text(topo, "a", "dc1", "r1", tokens, n, &err);
    if (rc == TOKENRING_OK) {
        FUZZ_CHECK(tokenring_topology_node_count(topo) == 1);
        for (size_t i = 0; i < n; i++)
            FUZZ_CHECK(norm[i] != NULL); /* only readable tokens are added */
        check_ring(topo, p);
        /* the same texts again, as a move: accepted, nothing else changes */
        FUZZ_CHECK(tokenring_topology_set_tokens_text(topo, "a", tokens, n, &err) ==
                   TOKENRING_OK);
        FUZZ_CHECK(tokenring_topology_node_count(topo) == 1);
    } else {
        FUZZ_CHECK(err.message[0] != '\0');
        FUZZ_CHECK(tokenring_topology_node_count(topo) == 0);
    }
    tokenring_topology_free(topo);
    for (size_t i = 0; i < n; i++)
        free(norm[i]);
    free(text);
    return 0;
}
