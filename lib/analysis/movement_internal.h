/* SPDX-License-Identifier: Apache-2.0 */
/* The tokens of a movement result as tr_tok (analysis/movement.c), for its _text calls
 * (analysis/movement_text.c). Never installed. */
#ifndef TOKENRING_MOVEMENT_INTERNAL_H
#define TOKENRING_MOVEMENT_INTERNAL_H

#include "internal.h"
#include "token.h"

/* Bound `end` (0: start, 1: end) of moved range index, borrowing the result's storage:
 * TOKENRING_OK, or TOKENRING_E_RANGE past the last range. */
TR_HIDDEN int tr_movement_bound_tok(tr_tok *out, const tokenring_movement *m, size_t index,
                                    int end);
/* The token of sample index: TOKENRING_OK, or TOKENRING_E_RANGE past the last sample. */
TR_HIDDEN int tr_movement_sample_tok(tr_tok *out, const tokenring_movement *m, size_t index);

#endif
