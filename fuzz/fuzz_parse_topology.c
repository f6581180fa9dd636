/* SPDX-License-Identifier: Apache-2.0 */
/* The topology-file and TSV parsers (see fuzz_parse_common.h for the input layout and the invariants). */
#include "fuzz_parse_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* bit 2 of the first byte: the TSV form instead of the topology file */
    return fuzz_parse(data, size,
                      size && (data[0] & 4) ? TOKENRING_INPUT_TSV : TOKENRING_INPUT_TOPOLOGY);
}
