/* SPDX-License-Identifier: Apache-2.0 */
/* Reading Cassandra's RandomPartitioner allocation vectors
 * (tests/data/cassandra_allocation_random_*.tsv), shared by test_cassandra_alloc128.c and
 * test_allocate_join128.c. Failures fail the running cmocka test. */
#ifndef TESTS_ALLOC128_H
#define TESTS_ALLOC128_H

#include <stddef.h>
#include <stdint.h>

#include "tokenring/tokenring.h"

/* Splits s in place at tabs into at most max fields; returns the count. */
size_t a128_split_tabs(char *s, char **f, size_t max);
/* One decimal token of s[0..len). */
tokenring_token128 a128_token(const char *s, size_t len);
/* A comma-separated token list into *out (grown as needed); returns the count. */
size_t a128_tokens(const char *s, tokenring_token128 **out, size_t *cap);
/* The vector's mode column: rf:N (NULL, *local_rf = N), simple:N or nts:dc=N,... */
tokenring_replication *a128_mode_replication(const char *mode, int32_t *local_rf);
/* Cassandra does not see joining nodes and may take their tokens: drops such a holder
 * before a join is kept (it is invisible to every later allocation). */
void a128_drop_joining_holders(tokenring_topology *topo, const tokenring_token128 *tokens,
                               size_t n);

#endif
