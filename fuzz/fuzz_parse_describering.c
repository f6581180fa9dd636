/* SPDX-License-Identifier: Apache-2.0 */
/* The nodetool describering reader (see fuzz_parse_common.h for the input layout and the
 * invariants). Bit 2 of the first byte picks describering or AUTO (detection, and the
 * messages for getendpoints output and empty input). */
#include "fuzz_parse_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    return fuzz_parse(data, size,
                      (data[0] & 4) ? TOKENRING_INPUT_AUTO
                                    : TOKENRING_INPUT_NODETOOL_DESCRIBERING);
}
