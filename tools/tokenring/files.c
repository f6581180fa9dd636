/* SPDX-License-Identifier: Apache-2.0 */
/* A file (or stdin, "-") read whole: what every input of the tool starts from (input.c,
 * history.c, keys.c, config.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

char *read_all(const char *path, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f)
        die(EXIT_INPUT, "%s: %s", path, strerror(errno));
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    if (!buf)
        die(EXIT_INTERNAL, "out of memory");
    for (;;) {
        if (n == cap) {
            cap *= 2;
            char *q = realloc(buf, cap);
            if (!q)
                die(EXIT_INTERNAL, "out of memory");
            buf = q;
        }
        size_t k = fread(buf + n, 1, cap - n, f);
        n += k;
        if (k == 0) {
            if (ferror(f))
                die(EXIT_INPUT, "%s: read error", path);
            break;
        }
    }
    if (f != stdin)
        fclose(f);
    *len = n;
    return buf;
}
