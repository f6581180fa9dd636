/* SPDX-License-Identifier: Apache-2.0 */
/* Small clusters and checks shared by the analysis tests (balance, movement,
 * availability, migration, kept tokens): the seeded demo topology, replications, sample
 * tokens, a six-node fixture of three racks, and FAILS() for an argument refused with its
 * documented code and a message. Tests that use them link fixtures.c. */
#ifndef TESTS_FIXTURES_H
#define TESTS_FIXTURES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tokenring/tokenring.h"

__extension__ typedef unsigned __int128 u128;

/* A tokenring_u128 as a native 128-bit integer. */
static inline u128 U(tokenring_u128 v)
{
    return ((u128)v.hi << 64) | v.lo;
}

/* "10.0.0.1" .. "10.0.0.7" */
extern const char *demo_names[7];

/* `nodes` nodes of demo_names with `tokens` seeded tokens each (seed 1), one datacenter. */
tokenring_topology *demo(size_t nodes, uint32_t tokens);
/* SimpleStrategy with factor rf. */
tokenring_replication *simple(int rf);
/* The tokens of the keys "key-0" .. "key-<n-1>". */
void sample_tokens(int64_t *out, size_t n);
/* The ring of t (built, asserted). */
tokenring_ring *ring_of(const tokenring_topology *t);

/* Six nodes n0..n5 of dc1 in racks r1..r3, two tokens each, their ring, and dc1=3. */
typedef struct {
    tokenring_topology *t;
    tokenring_ring *ring;
    tokenring_replication *nts;
} fixture;

void make(fixture *f);
void unmake(fixture *f);

/* The call (which may use `err`) returns code and sets a message. */
#define FAILS(call, code)                                                                  \
    do {                                                                                   \
        tokenring_error e_;                                                                \
        memset(&e_, 0, sizeof e_);                                                         \
        tokenring_error *err = &e_;                                                        \
        int rc_ = (call);                                                                  \
        if (rc_ != (code))                                                                 \
            fail_msg("%s: got %s (%s), want %s", #call, tokenring_status_name(rc_),        \
                     e_.message, tokenring_status_name(code));                             \
        assert_true(e_.message[0] != '\0');                                                \
    } while (0)

#endif
