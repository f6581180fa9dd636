/* SPDX-License-Identifier: Apache-2.0 */
#include "internal.h"

TOKENRING_API uint32_t tokenring_version_number(void)
{
    return TOKENRING_VERSION_NUMBER;
}

TOKENRING_API const char *tokenring_version_string(void)
{
    return TOKENRING_VERSION_STRING;
}
