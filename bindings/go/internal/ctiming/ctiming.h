/* SPDX-License-Identifier: Apache-2.0 */
#ifndef CTIMING_H
#define CTIMING_H
#include <stdint.h>

enum { OP_TOKEN_SINGLE, OP_TOKEN_BATCH, OP_OWNER_SINGLE, OP_KEY_SINGLE, OP_KEY_BATCH,
       OP_TOKEN_REPLICAS_SINGLE, OP_TOKEN_REPLICAS_BATCH, OP_KEY_REPLICAS_BATCH };

/* Builds ring ring_index (0 or 1) and its keys; 0 or a tokenring status. */
int ctiming_setup(int ring_index, int nodes, int vnodes, int dcs, int racks, const char *repl_text,
                  uint64_t *checksum_out);
/* One pass of operation op over the ring's 100,000 keys: ns per key. */
double ctiming_run(int ring_index, int op);
#endif
