/* SPDX-License-Identifier: Apache-2.0 */
/* Checks on parsed clusters shared by the parser tests, and a writer of what `nodetool
 * describering` prints for a topology and keyspace. Tests that use them link
 * cluster_checks.c. */
#ifndef TESTS_CLUSTER_CHECKS_H
#define TESTS_CLUSTER_CHECKS_H

#include <stddef.h>
#include <stdint.h>

#include "tokenring/tokenring.h"

#define DR TOKENRING_INPUT_NODETOOL_DESCRIBERING

/* Parses text as fmt into a new cluster, which must succeed and detect want_format. */
tokenring_cluster *parse_ok(int fmt, const char *text, size_t len, uint32_t flags,
                            int want_format);
/* Must fail with code at line:col, message containing every one of the strings that
 * follow (NULL-ended), leaving a non-empty cluster as it was. */
void fails(int fmt, const char *text, size_t len, uint32_t flags, int code, uint32_t line,
           uint32_t col, ...);
/* The node called name has this datacenter, rack and token count, and is normal and up. */
void node_has(const tokenring_cluster *c, const char *name, const char *dc, const char *rack,
              size_t ntok);
/* The node holding token, or NULL. */
const char *owner_of(const tokenring_cluster *c, int64_t token);
/* What nodetool describering prints for t under the replication repl_text (ranges in a
 * scrambled order, as Cassandra's hash map gives them); malloc'd, *len its length. */
char *describe(const tokenring_topology *t, const char *repl_text, size_t *len);
/* The golden TSV file (relative to the test data), parsed. */
tokenring_cluster *load_tsv(const char *file);
/* Every node of a is in b with the same datacenter, rack and tokens, and b has no other. */
void same_nodes(const tokenring_cluster *a, const tokenring_cluster *b);

#endif
