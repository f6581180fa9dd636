#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Hold the include rules of doc/architecture.md against the code.

- Outside lib/, C sources include only the public headers (<tokenring/...>), the C and
  system headers, and their own folder's headers; the two white-box tests named below are
  the only exceptions.
- In lib/, each private header is included only by the files of its layer; the parser
  format files include parse_formats.h and nothing of another format; parse_cluster.c
  and parse_lex.c (the bottom) never include parse_formats.h.
- Every lib/*.c file is named in the architecture page, so a new file cannot arrive
  without a line saying what it is.

Usage: check-architecture.py SOURCE_ROOT
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)

# lib/ private headers and the lib files allowed to include each.
PRIVATE = {
    'internal.h': None,  # everyone in lib/
    'index.h': {'index.c', 'ring_internal.h'},
    'ring_internal.h': {'ring.c', 'topology.c', 'replication.c', 'placement.c', 'ownership.c',
                        'placement_given.c', 'router.c', 'router_build.c', 'router_event.c',
                        'router_history.c'},
    'layout_internal.h': {'layout.c', 'allocator.c', 'allocate_join.c', 'cassandra_alloc.c',
                          'migration.c'},
    'parse_internal.h': {'parse_cluster.c', 'parse_lex.c', 'parse_rows.c', 'parse_formats.h',
                         'parse_paste.h', 'router_build.c', 'router_event.c'},
    'parse_paste.h': {'parse_paste.c', 'parse_detect.c'},
    'router_internal.h': {'router.c', 'router_build.c', 'router_event.c', 'router_holder.c',
                          'router_history.c', 'murmur3_parts.c'},
    'parse_formats.h': {'parse_detect.c', 'parse_topology.c', 'parse_nodetool.c',
                        'parse_cqlsh.c', 'parse_describering.c', 'parse_tsv.c'},
}
# tests that read private layouts on purpose (white-box), with what they may include
WHITE_BOX = {'tests/test_index.c': {'index.h'}, 'tests/test_rank.c': {'ring_internal.h'},
             # the -2^127 digest, which no known key has, reached through the private helper
             'tests/test_partitioner.c': {'internal.h'},
             # the name indexes that keep parsing linear in the nodes (issue 27)
             'tests/test_parse_index.c': {'parse_internal.h', 'ring_internal.h'},
             # every way lib/alloc.c makes and frees a block, counted once (tr_realloc)
             'tests/test_alloc_live.c': {'internal.h'}}
OUTSIDE = ['tools', 'bindings', 'bench', 'fuzz', 'lab', 'tests', 'live', 'doc/examples']


def sources(root, folder):
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, folder)):
        dirnames[:] = [d for d in dirnames if d not in ('node_modules', 'dist', 'build')
                       and not d.startswith('.')]
        for f in filenames:
            if f.endswith(('.c', '.h', '.go')):
                yield os.path.join(dirpath, f)


def includes(path):
    with open(path, encoding='utf-8', errors='replace') as fh:
        return INCLUDE.findall(fh.read())


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))
    bad = []
    checked = 0
    for folder in OUTSIDE:
        for path in sources(root, folder):
            rel = os.path.relpath(path, root)
            here = os.path.dirname(path)
            for inc in includes(path):
                checked += 1
                if inc.startswith('tokenring/'):
                    continue
                if os.path.exists(os.path.join(here, inc)):
                    continue  # the folder's own header
                if inc in WHITE_BOX.get(rel, set()):
                    continue
                bad.append(f'{rel}: includes "{inc}", which is not a public header '
                           f'(outside lib/ only <tokenring/...> and the folder\'s own headers)')
    libdir = os.path.join(root, 'lib')
    for name in sorted(os.listdir(libdir)):
        if not name.endswith(('.c', '.h')):
            continue
        for inc in includes(os.path.join(libdir, name)):
            checked += 1
            if inc.startswith('tokenring/'):
                continue
            if inc not in PRIVATE:
                bad.append(f'lib/{name}: includes "{inc}", which is no header of lib/ '
                           f'named in doc/architecture.md')
                continue
            allowed = PRIVATE[inc]
            if allowed is not None and name not in allowed:
                bad.append(f'lib/{name}: includes "{inc}", which belongs to '
                           f'{", ".join(sorted(allowed))}')
    with open(os.path.join(root, 'doc', 'architecture.md'), encoding='utf-8') as fh:
        page = fh.read()
    for name in sorted(os.listdir(libdir)):
        if name.endswith('.c') and not re.search(r'(?<![\w/])' + re.escape(name) + r'\b', page):
            bad.append(f'lib/{name}: not named in doc/architecture.md')
    for b in bad:
        print('FAIL:', b)
    print(f'{checked} includes checked, {len(bad)} against the rules')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
