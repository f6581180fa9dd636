/* SPDX-License-Identifier: Apache-2.0 */
/* The cqlsh parser (see fuzz_parse_common.h for the input layout and the invariants). */
#include "fuzz_parse_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_parse(data, size, TOKENRING_INPUT_CQLSH);
}
