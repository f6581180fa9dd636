/* SPDX-License-Identifier: Apache-2.0 */
/* The format readers, one file each. Each fills an empty staging cluster through the
 * builders of parse_internal.h and calls no other reader; only parse_detect.c (detection
 * and tokenring_cluster_parse()) calls them. */
#ifndef TOKENRING_PARSE_FORMATS_H
#define TOKENRING_PARSE_FORMATS_H

#include "parse_internal.h"

/* parse_topology.c */
TR_HIDDEN int tr_parse_topology_text(tokenring_cluster *cl, const char *text, size_t len,
                                     uint32_t flags, tokenring_error *err);
/* parse_tsv.c */
TR_HIDDEN int tr_parse_tsv_text(tokenring_cluster *cl, const char *text, size_t len,
                                uint32_t flags, tokenring_error *err);
/* parse_nodetool.c */
TR_HIDDEN int tr_parse_ring_text(tokenring_cluster *cl, const char *text, size_t len,
                                 uint32_t flags, tokenring_error *err);
TR_HIDDEN int tr_parse_status_text(tokenring_cluster *cl, const char *text, size_t len,
                                   uint32_t flags, tokenring_error *err);
/* parse_cqlsh.c */
TR_HIDDEN int tr_parse_cqlsh_text(tokenring_cluster *cl, const char *text, size_t len,
                                  uint32_t flags, tokenring_error *err);
/* parse_describering.c */
TR_HIDDEN int tr_parse_describering_text(tokenring_cluster *cl, const char *text, size_t len,
                                         uint32_t flags, tokenring_error *err);

#endif
