/* SPDX-License-Identifier: Apache-2.0 */
/* The token ring lab's glue (lab/glue.c): entry points shared by the WebAssembly module
 * and the native checker. Every answer is JSON text in a buffer owned by the glue, valid
 * until the next call. Not part of libtokenring's API. */
#ifndef TOKENRING_LAB_GLUE_H
#define TOKENRING_LAB_GLUE_H

#include <stddef.h>
#include <stdint.h>

/* What the page can draw and compute in a browser tab without freezing it (measured, see
 * doc/lab.md): up to LAB_MAX_NODES nodes and LAB_MAX_VNODES vnodes per node, with at most
 * LAB_MAX_TOKENS vnodes in all for the seeded layout and LAB_MAX_ALLOC_TOKENS for the
 * allocator layout (which plans the whole cluster and costs far more per token). */
#define LAB_MAX_NODES 1000
#define LAB_MAX_VNODES 256
#define LAB_MAX_TOKENS 16384
#define LAB_MAX_ALLOC_TOKENS 4096
#define LAB_MAX_DCS 3
#define LAB_MAX_RACKS 3

/* The movement counter's fixed sample keys: "sample-000" .. "sample-199". */
#define LAB_SAMPLE_KEYS 200
#define LAB_SAMPLE_KEY_FORMAT "sample-%03d"

#define LAB_LAYOUT_SEEDED 0     /* tokens from (seed, node identity, vnode index) */
#define LAB_LAYOUT_ALLOCATOR 1  /* the library's replication-aware allocator */
#define LAB_LAYOUT_EXPLICIT 2   /* nodes and tokens given as text (lab_configure_explicit) */

void *lab_alloc(size_t n);
void lab_free(void *p);
const char *lab_info(void);
const char *lab_configure(int nodes, int vnodes, uint32_t seed, int dcs, int racks, int layout,
                          const char *repl, size_t repl_len);
const char *lab_configure_explicit(const char *spec, size_t spec_len, const char *repl,
                                   size_t repl_len);
const char *lab_ring_json(void);
const char *lab_route_bytes(const uint8_t *key, size_t len);
const char *lab_route_typed(const char *types, size_t types_len, const char *text,
                            size_t text_len);
const char *lab_compare(const uint8_t *key, size_t len, int nodes_after);
void lab_node_name(char out[32], int node);

#endif
