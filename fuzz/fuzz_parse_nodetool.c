/* SPDX-License-Identifier: Apache-2.0 */
/* The nodetool ring and status parsers, and format detection (see fuzz_parse_common.h
 * for the invariants). Bits 2-3 of the first byte pick the format: ring, status, or
 * AUTO (detection, which also reaches the TSV and topology parsers). */
#include "fuzz_parse_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    static const int formats[4] = { TOKENRING_INPUT_NODETOOL_RING,
                                    TOKENRING_INPUT_NODETOOL_STATUS, TOKENRING_INPUT_AUTO,
                                    TOKENRING_INPUT_TSV };
    return fuzz_parse(data, size, formats[(data[0] >> 2) & 3]);
}
