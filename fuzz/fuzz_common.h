/* SPDX-License-Identifier: Apache-2.0 */
/* Shared helpers for the fuzz targets: a byte reader and an invariant check that aborts
 * (so libFuzzer and the replay test both report it). */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"

#define FUZZ_CHECK(cond)                                                                  \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #cond); \
            abort();                                                                      \
        }                                                                                 \
    } while (0)

typedef struct {
    const uint8_t *p;
    size_t n;
} fuzz_reader;

static inline uint8_t fuzz_u8(fuzz_reader *r)
{
    if (r->n == 0)
        return 0;
    r->n--;
    return *r->p++;
}

static inline uint64_t fuzz_u64(fuzz_reader *r)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = (v << 8) | fuzz_u8(r);
    return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
