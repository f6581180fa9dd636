/* SPDX-License-Identifier: Apache-2.0 */
/* The tests' deterministic random numbers: splitmix64 over a caller-held state (each test
 * file keeps its own state and seed, so a test's sequence does not depend on another's).
 * Header-only. */
#ifndef TOKENRING_TESTS_TESTRNG_H
#define TOKENRING_TESTS_TESTRNG_H

#include <stdint.h>

/* Advances *state and returns the next value. */
static inline uint64_t tt_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* A value in lo..hi, inclusive (hi >= lo). */
static inline int tt_between(uint64_t *state, int lo, int hi)
{
    return lo + (int)(tt_splitmix64(state) % (uint64_t)(hi - lo + 1));
}

#endif
