/* SPDX-License-Identifier: Apache-2.0 */
/* Tokens of every partitioner in Cassandra's text form (partitioner.h, "Tokens in text
 * form"): the _text calls of the public headers. First commit: declarations only. */
#include "tokenring/tokenring.h"
#include "internal.h"

size_t tokenring_token_list_count(const tokenring_token_list *list) { (void)list; return 0; }
const char *tokenring_token_list_get(const tokenring_token_list *list, size_t i, size_t *len_out)
{ (void)list; (void)i; (void)len_out; return NULL; }
void tokenring_token_list_free(tokenring_token_list *list) { (void)list; }
int tokenring_key_token_text(char *out, size_t cap, size_t *len_out, tokenring_partitioner p,
                             const void *key, size_t len)
{ (void)out; (void)cap; (void)len_out; (void)p; (void)key; (void)len; return TOKENRING_E_UNSUPPORTED; }
int tokenring_token_text_normalize(char *out, size_t cap, size_t *len_out, tokenring_partitioner p,
                                   const char *text, size_t len, tokenring_error *err)
{ (void)out; (void)cap; (void)len_out; (void)p; (void)text; (void)len; (void)err; return TOKENRING_E_UNSUPPORTED; }
int tokenring_token_text_compare(int *cmp_out, tokenring_partitioner p, const char *a,
                                 const char *b, tokenring_error *err)
{ (void)cmp_out; (void)p; (void)a; (void)b; (void)err; return TOKENRING_E_UNSUPPORTED; }
int tokenring_topology_add_node_text(tokenring_topology *t, const char *name, const char *dc,
                                     const char *rack, const char *const *tokens, size_t n,
                                     tokenring_error *err)
{ (void)t; (void)name; (void)dc; (void)rack; (void)tokens; (void)n; (void)err; return TOKENRING_E_UNSUPPORTED; }
int tokenring_topology_set_tokens_text(tokenring_topology *t, const char *name,
                                       const char *const *tokens, size_t n, tokenring_error *err)
{ (void)t; (void)name; (void)tokens; (void)n; (void)err; return TOKENRING_E_UNSUPPORTED; }
int tokenring_topology_node_token_text(char *out, size_t cap, size_t *len_out,
                                       const tokenring_topology *t, size_t index, size_t k)
{ (void)out; (void)cap; (void)len_out; (void)t; (void)index; (void)k; return TOKENRING_E_UNSUPPORTED; }
int tokenring_ring_token_text(char *out, size_t cap, size_t *len_out, const tokenring_ring *ring,
                              size_t index)
{ (void)out; (void)cap; (void)len_out; (void)ring; (void)index; return TOKENRING_E_UNSUPPORTED; }
int tokenring_ring_search_text(uint32_t *index_out, const tokenring_ring *ring, const char *token,
                               size_t len, tokenring_error *err)
{ (void)index_out; (void)ring; (void)token; (void)len; (void)err; return TOKENRING_E_UNSUPPORTED; }
int tokenring_movement_join_text(tokenring_movement **out, const tokenring_topology *t,
                                 const tokenring_replication *r, const char *name,
                                 const char *dc, const char *rack, const char *const *tokens,
                                 size_t n, const uint8_t *sk, const uint64_t *so, size_t sc,
                                 tokenring_error *err)
{ (void)out; (void)t; (void)r; (void)name; (void)dc; (void)rack; (void)tokens; (void)n; (void)sk; (void)so; (void)sc; (void)err; return TOKENRING_E_UNSUPPORTED; }
int tokenring_movement_move_text(tokenring_movement **out, const tokenring_topology *t,
                                 const tokenring_replication *r, const char *name,
                                 const char *const *tokens, size_t n, const uint8_t *sk,
                                 const uint64_t *so, size_t sc, tokenring_error *err)
{ (void)out; (void)t; (void)r; (void)name; (void)tokens; (void)n; (void)sk; (void)so; (void)sc; (void)err; return TOKENRING_E_UNSUPPORTED; }
int tokenring_movement_range_bound_text(char *out, size_t cap, size_t *len_out,
                                        const tokenring_movement *m, size_t index, int end)
{ (void)out; (void)cap; (void)len_out; (void)m; (void)index; (void)end; return TOKENRING_E_UNSUPPORTED; }
int tokenring_movement_sample_token_text(char *out, size_t cap, size_t *len_out,
                                         const tokenring_movement *m, size_t index)
{ (void)out; (void)cap; (void)len_out; (void)m; (void)index; return TOKENRING_E_UNSUPPORTED; }
int tokenring_layout_even_tokens_text(tokenring_token_list **out, tokenring_partitioner p,
                                      uint32_t num_tokens, uint32_t slot, uint32_t slots,
                                      tokenring_error *err)
{ (void)out; (void)p; (void)num_tokens; (void)slot; (void)slots; (void)err; return TOKENRING_E_UNSUPPORTED; }
int tokenring_layout_seeded_tokens_text(tokenring_token_list **out, tokenring_partitioner p,
                                        size_t count, uint64_t seed, const char *identity,
                                        const tokenring_topology *taken, uint32_t flags,
                                        tokenring_error *err)
{ (void)out; (void)p; (void)count; (void)seed; (void)identity; (void)taken; (void)flags; (void)err; return TOKENRING_E_UNSUPPORTED; }
int tokenring_allocate_cassandra_text(tokenring_token_list **out, uint32_t num_tokens,
                                      const tokenring_topology *t, const char *name,
                                      const char *dc, const char *rack,
                                      const tokenring_replication *ks, int32_t local_rf,
                                      const char *first_token, uint32_t release, uint32_t flags,
                                      tokenring_limits *limits, tokenring_error *err)
{ (void)out; (void)num_tokens; (void)t; (void)name; (void)dc; (void)rack; (void)ks; (void)local_rf; (void)first_token; (void)release; (void)flags; (void)limits; (void)err; return TOKENRING_E_UNSUPPORTED; }
int tokenring_allocate_join_text(tokenring_token_list **out, uint32_t num_tokens,
                                 const tokenring_topology *t, const char *name, const char *dc,
                                 const char *rack, const tokenring_replication *ks,
                                 int32_t local_rf, uint32_t release, uint32_t flags,
                                 tokenring_limits *limits, tokenring_error *err)
{ (void)out; (void)num_tokens; (void)t; (void)name; (void)dc; (void)rack; (void)ks; (void)local_rf; (void)release; (void)flags; (void)limits; (void)err; return TOKENRING_E_UNSUPPORTED; }
