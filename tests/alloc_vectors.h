/* SPDX-License-Identifier: Apache-2.0 */
/* Reading Cassandra's allocation vectors (tests/data/cassandra_allocation_*.tsv, Murmur3,
 * and cassandra_allocation_random_*.tsv, RandomPartitioner; one format), shared by
 * test_cassandra_alloc.c and test_allocate_join.c. Failures fail the running cmocka
 * test. */
#ifndef TESTS_ALLOC_VECTORS_H
#define TESTS_ALLOC_VECTORS_H

#include <stddef.h>
#include <stdint.h>

#include "tokenring/tokenring.h"

/* The test data folder (TOKENRING_TEST_DATA, else the source tree's). */
const char *av_data_dir(void);
/* TOKENRING_TEST_QUICK=1 (the valgrind job) replays every sixth sequence of each file
 * (a sequence's joins depend on each other, so whole sequences are kept or skipped). */
size_t av_seq_stride(void);
/* Splits s in place at tabs into at most max fields; returns the count. */
size_t av_split_tabs(char *s, char **f, size_t max);
/* The vector's mode column: rf:N (NULL, *local_rf = N), simple:N or nts:dc=N,... */
tokenring_replication *av_mode_replication(const char *mode, int32_t *local_rf);

/* Murmur3: a comma-separated token list into *out (grown as needed); returns the count. */
size_t av_tokens64(const char *s, int64_t **out, size_t *cap);
/* RandomPartitioner: one decimal token of s[0..len), and a comma-separated list. */
tokenring_token128 av_token128(const char *s, size_t len);
size_t av_tokens128(const char *s, tokenring_token128 **out, size_t *cap);
/* Cassandra does not see joining nodes and may take their tokens: drops such a holder
 * before a join is kept (it is invisible to every later allocation). */
void av_drop_joining_holders64(tokenring_topology *topo, const int64_t *tokens, size_t n);
void av_drop_joining_holders128(tokenring_topology *topo, const tokenring_token128 *tokens,
                                size_t n);

#endif
