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
- The public headers include only each other and the C standard headers, the includes
  among them run one way (no header includes one that includes it back, directly or
  through others: the handles they share are declared in types.h), every public header
  is named in the architecture page, and none is over HEADER_MAX_LINES lines.
- No function in lib/ is over FUNCTION_MAX_LINES lines (signature to closing brace): a
  long build is init / phases / free over its state struct.

Usage: check-architecture.py SOURCE_ROOT
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)

# lib/ private headers and the lib files allowed to include each.
PRIVATE = {
    'internal.h': None,  # everyone in lib/
    'token.h': None,  # the token and the partitioner table: everyone in lib/
    'index.h': {'index.c', 'ring_internal.h'},
    'ring_internal.h': {'ring.c', 'topology.c', 'replication.c', 'placement.c', 'ownership.c',
                        'placement_given.c', 'router.c', 'router_build.c', 'router_event.c',
                        'history.c', 'router_history.c'},
    'layout_internal.h': {'layout.c', 'allocator.c', 'allocate_join.c', 'cassandra_alloc.c',
                          'migration.c', 'layout_text.c'},
    'token_text.h': {'token_text.c', 'layout_text.c'},
    'parse_internal.h': {'parse_cluster.c', 'parse_lex.c', 'parse_rows.c', 'parse_formats.h',
                         'parse_paste.h', 'router_build.c', 'router_event.c'},
    'parse_paste.h': {'parse_paste.c', 'parse_detect.c'},
    'router_internal.h': {'router.c', 'router_build.c', 'router_event.c', 'router_holder.c',
                          'router_history.c', 'murmur3_parts.c'},
    'history_internal.h': {'history.c', 'history_concurrent.c', 'history_delta.c'},
    'parse_formats.h': {'parse_detect.c', 'parse_topology.c', 'parse_nodetool.c',
                        'parse_cqlsh.c', 'parse_describering.c', 'parse_tsv.c'},
}
# tests that read private layouts on purpose (white-box), with what they may include
WHITE_BOX = {'tests/test_index.c': {'index.h'}, 'tests/test_rank.c': {'ring_internal.h'},
             # the -2^127 digest, which no known key has, reached through the private helper
             'tests/test_partitioner.c': {'internal.h'},
             # the partitioner table, one case table over the three partitioners
             'tests/test_token.c': {'token.h'},
             # the name indexes that keep parsing linear in the nodes (issue 27)
             'tests/test_parse_index.c': {'parse_internal.h', 'ring_internal.h'},
             # every way lib/alloc.c makes and frees a block, counted once (tr_realloc)
             'tests/test_alloc_live.c': {'internal.h'}}
# public headers: the line cap, and the headers still over it with what splits them
HEADER_MAX_LINES = 600
OVER_CAP = {'router.h': 'to be split by concern: the snapshot and its lookups, building and '
                        'events, the holder'}
# lib/ functions: the line cap (a function's body opens with '{' alone on a line and
# closes with '}' alone, as everywhere in lib/)
FUNCTION_MAX_LINES = 200
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


FUNCTION_NAME = re.compile(r'(\w+)\s*\(')


def check_function_lengths(root, bad):
    """Functions of lib/*.c over FUNCTION_MAX_LINES lines; returns how many were read."""
    libdir = os.path.join(root, 'lib')
    count = 0
    for name in sorted(os.listdir(libdir)):
        if not name.endswith('.c'):
            continue
        with open(os.path.join(libdir, name), encoding='utf-8') as fh:
            lines = fh.read().split('\n')
        i = 0
        while i < len(lines):
            if lines[i] == '{' and i > 0:
                start = i - 1  # back to the first line of the signature
                while start > 0 and lines[start][:1] in (' ', '\t'):
                    start -= 1
                end = i + 1
                while end < len(lines) and lines[end] != '}':
                    end += 1
                count += 1
                length = end - start + 1
                if length > FUNCTION_MAX_LINES:
                    m = FUNCTION_NAME.search(lines[start])
                    bad.append(f'lib/{name}:{start + 1}: {m.group(1) if m else "a function"} '
                               f'is {length} lines, over {FUNCTION_MAX_LINES}: split it into '
                               f'init / phases / free over its state')
                i = end
            i += 1
    return count


SYSTEM_INCLUDE = re.compile(r'^\s*#\s*include\s+<([^>]+)>', re.M)


def check_public_headers(root, page, bad):
    """The include rules of include/tokenring/ (see the module comment)."""
    incdir = os.path.join(root, 'include', 'tokenring')
    names = sorted(n for n in os.listdir(incdir) if n.endswith(('.h', '.h.in')))
    graph = {}
    checked = 0
    for name in names:
        path = os.path.join(incdir, name)
        with open(path, encoding='utf-8') as fh:
            text = fh.read()
        header = name[:-3] if name.endswith('.in') else name
        graph[header] = []
        for inc in INCLUDE.findall(text):
            checked += 1
            target = inc[len('tokenring/'):] if inc.startswith('tokenring/') else None
            if target is None or not (target in names or target + '.in' in names):
                bad.append(f'include/tokenring/{name}: includes "{inc}", which is not a '
                           f'public header')
                continue
            graph[header].append(target)
        for inc in SYSTEM_INCLUDE.findall(text):
            checked += 1
            if inc not in ('stddef.h', 'stdint.h', 'stdbool.h', 'limits.h'):
                bad.append(f'include/tokenring/{name}: includes <{inc}>, which is not one '
                           f'of the C standard headers a public header may use')
        lines = text.count('\n')
        if lines > HEADER_MAX_LINES and header not in OVER_CAP:
            bad.append(f'include/tokenring/{name}: {lines} lines, over the '
                       f'{HEADER_MAX_LINES} of a public header: split it by concern')
        if name not in ('version.h.in',) and not re.search(
                r'(?<![\w/])' + re.escape(header) + r'\b', page):
            bad.append(f'include/tokenring/{name}: not named in doc/architecture.md')
    # a cycle in the include graph: depth-first search with the path on a stack
    state = {}

    def visit(h, path):
        state[h] = 'open'
        for nxt in graph.get(h, []):
            if state.get(nxt) == 'open':
                cycle = path[path.index(nxt):] + [nxt] if nxt in path else [h, nxt]
                bad.append('include/tokenring: an include cycle: ' + ' -> '.join(cycle)
                           + ' (name shared handles through types.h instead)')
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[h] = 'done'

    for h in sorted(graph):
        if h not in state:
            visit(h, [h])
    return checked


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
    checked += check_public_headers(root, page, bad)
    check_function_lengths(root, bad)
    for name in sorted(os.listdir(libdir)):
        if name.endswith('.c') and not re.search(r'(?<![\w/])' + re.escape(name) + r'\b', page):
            bad.append(f'lib/{name}: not named in doc/architecture.md')
    for b in bad:
        print('FAIL:', b)
    print(f'{checked} includes checked, {len(bad)} against the rules')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
