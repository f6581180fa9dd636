/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Native twin of the lab's WebAssembly module: the same glue (lab/glue.c) linked against
 * the natively built libtokenring, so the browser tests can compare what the page shows
 * with the C library's own answer.
 *
 *   lab-native [--nodes N] [--vnodes V] [--seed S] [--dcs D] [--racks R]
 *              [--layout 0|1] [--replication TEXT] [--explicit FILE] COMMAND [ARG...]
 *   COMMAND: info | ring | route KEY | typed TYPES TEXT | compare KEY NODES_AFTER
 *
 * --explicit FILE takes the nodes and tokens from FILE, one node per line: "name
 * datacenter rack token token ..." (the options that lay out a topology are then ignored).
 *
 * Prints the glue's JSON answer on stdout; exits 1 if the answer is an error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glue.h"

static int usage(void)
{
    fputs("usage: lab-native [--nodes N] [--vnodes V] [--seed S] [--dcs D] [--racks R]\n"
          "                  [--layout 0|1] [--replication TEXT] [--explicit FILE]\n"
          "                  info | ring | route KEY | typed TYPES TEXT | compare KEY NODES\n",
          stderr);
    return 2;
}

static int answer(const char *json)
{
    puts(json);
    return strncmp(json, "{\"ok\":true", 10) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    int nodes = 6, vnodes = 8, dcs = 1, racks = 1, layout = 0;
    unsigned long seed = 1;
    const char *repl = "3";
    const char *explicit_file = NULL;
    int i = 1;
    for (; i + 1 < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
        const char *o = argv[i], *v = argv[i + 1];
        if (!strcmp(o, "--nodes"))
            nodes = atoi(v);
        else if (!strcmp(o, "--vnodes"))
            vnodes = atoi(v);
        else if (!strcmp(o, "--seed"))
            seed = strtoul(v, NULL, 10);
        else if (!strcmp(o, "--dcs"))
            dcs = atoi(v);
        else if (!strcmp(o, "--racks"))
            racks = atoi(v);
        else if (!strcmp(o, "--layout"))
            layout = atoi(v);
        else if (!strcmp(o, "--replication"))
            repl = v;
        else if (!strcmp(o, "--explicit"))
            explicit_file = v;
        else
            return usage();
    }
    if (i >= argc)
        return usage();
    const char *cmd = argv[i];
    if (!strcmp(cmd, "info"))
        return answer(lab_info());
    const char *cfg;
    if (explicit_file) {
        static char spec[1 << 20];
        FILE *f = fopen(explicit_file, "rb");
        if (!f) {
            perror(explicit_file);
            return 2;
        }
        size_t n = fread(spec, 1, sizeof spec - 1, f);
        fclose(f);
        cfg = lab_configure_explicit(spec, n, repl, strlen(repl));
    } else {
        cfg = lab_configure(nodes, vnodes, (uint32_t)seed, dcs, racks, layout, repl,
                            strlen(repl));
    }
    if (strncmp(cfg, "{\"ok\":true", 10) != 0)
        return answer(cfg);
    if (!strcmp(cmd, "ring"))
        return answer(cfg);
    if (!strcmp(cmd, "route") && i + 1 < argc)
        return answer(lab_route_bytes((const uint8_t *)argv[i + 1], strlen(argv[i + 1])));
    if (!strcmp(cmd, "typed") && i + 2 < argc)
        return answer(lab_route_typed(argv[i + 1], strlen(argv[i + 1]), argv[i + 2],
                                      strlen(argv[i + 2])));
    if (!strcmp(cmd, "compare") && i + 2 < argc)
        return answer(lab_compare((const uint8_t *)argv[i + 1], strlen(argv[i + 1]),
                                  atoi(argv[i + 2])));
    return usage();
}
