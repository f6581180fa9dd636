/* SPDX-License-Identifier: Apache-2.0 */
/* The Cassandra release lines --cassandra-version knows, and what differs between them
 * in what the tool prints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* Release lines (MAJOR.MINOR) the tool models: replica order (3.2 changed it; 6.0 made it
 * follow the cluster's history: --history, history.c), nodetool's layouts (4.0 added
 * ports), token allocation (4.0 to 5.0, planning.c). */
static const char *const known_lines[] = { "1.2", "2.0", "2.1", "2.2", "3.0", "3.1", "3.2",
                                           "3.3", "3.4", "3.5", "3.6", "3.7", "3.8", "3.9",
                                           "3.10", "3.11", "4.0", "4.1", "5.0", "6.0" };

const char *const known_releases_text = "1.2, 2.0, 2.1, 2.2, 3.0 to 3.11, 4.0, 4.1, 5.0 and 6.0";

/* MAJOR.MINOR of V (already accepted by tokenring_cassandra_rules_for_version) in out. */
static void line_of(const char *v, char *out, size_t cap)
{
    size_t n = strspn(v, "0123456789");
    if (v[n] == '.')
        n += 1 + strspn(v + n + 1, "0123456789");
    snprintf(out, cap, "%.*s", (int)n, v);
}

void check_release(const char *v)
{
    char line[32];
    line_of(v, line, sizeof line);
    for (size_t i = 0; i < sizeof known_lines / sizeof *known_lines; i++)
        if (strcmp(line, known_lines[i]) == 0)
            return;
    die(EXIT_USAGE, "option --cassandra-version: unknown Cassandra release '%s' (release line "
                    "%s); the tool knows %s",
        v, line, known_releases_text);
}

bool release_before(tr_ctx *ctx, int major, int minor)
{
    const char *v = ctx->opt.cassandra_version;
    if (!v)
        return false; /* the default: the newest */
    char *end;
    long ma = strtol(v, &end, 10), mi = *end == '.' ? strtol(end + 1, NULL, 10) : 0;
    return ma < major || (ma == major && mi < minor);
}
