#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Hold the include rules of doc/architecture.md against the code.

- Outside lib/, C sources include only the public headers (<tokenring/...>), the C and
  system headers, and their own folder's headers; the two white-box tests named below are
  the only exceptions.
- lib/ is one folder per layer, in the order lib/meson.build enters them (bottom first).
  A lib/ file includes the private headers of its own folder and of lower folders only,
  and calls no function defined in a higher folder: the arrows run one way. Inside
  lib/parse/, the format readers' header (parse_formats.h) and the pasted-text header
  (parse_paste.h) are for the files named in INSIDE only, so the bottom of the parsers
  (parse_cluster.c, parse_lex.c) never reaches a format and no reader another.
- Every lib/ source is named in the architecture page with its folder (base/alloc.c),
  so a new file cannot arrive, nor a file move, without a line saying what it is.
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

# Private headers with a narrower audience than their folder: the files (of that folder)
# allowed to include each. Every other private header is for its folder and those above.
INSIDE = {
    'parse_formats.h': {'parse_detect.c', 'parse_topology.c', 'parse_nodetool.c',
                        'parse_cqlsh.c', 'parse_describering.c', 'parse_tsv.c'},
    'parse_paste.h': {'parse_paste.c', 'parse_detect.c'},
}
# tests that read private layouts on purpose (white-box), with what they may include
WHITE_BOX = {'tests/test_index.c': {'index.h'}, 'tests/test_rank.c': {'ring_internal.h'},
             # the -2^127 digest, which no known key has, reached through the private helper
             'tests/test_partitioner.c': {'token.h'},
             # the partitioner table, one case table over the three partitioners
             'tests/test_token.c': {'token.h'},
             # the name indexes that keep parsing linear in the nodes (issue 27)
             'tests/test_parse_index.c': {'parse_internal.h', 'ring_internal.h'},
             # every way lib/base/alloc.c makes and frees a block, counted once (tr_realloc)
             'tests/test_alloc_live.c': {'internal.h'}}
# public headers: the line cap
HEADER_MAX_LINES = 600
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
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"', re.S)


def layers(root):
    """lib/'s folders, bottom layer first: the order of lib/meson.build's subdir() calls."""
    with open(os.path.join(root, 'lib', 'meson.build'), encoding='utf-8') as fh:
        return re.findall(r"^\s*subdir\('([^']+)'\)", fh.read(), re.M)


def lib_files(root, suffixes):
    """lib/'s sources and headers as FOLDER/NAME, folder by folder."""
    libdir = os.path.join(root, 'lib')
    out = []
    for folder in sorted(os.listdir(libdir)):
        path = os.path.join(libdir, folder)
        if os.path.isdir(path):
            out += [folder + '/' + n for n in sorted(os.listdir(path)) if n.endswith(suffixes)]
    return out


def definitions(lines):
    """(name, first line, last line) of each function defined in a lib/ source (the body
    opens with '{' alone on a line and closes with '}' alone)."""
    i = 0
    while i < len(lines):
        if lines[i] == '{' and i > 0:
            start = i - 1  # back to the first line of the signature
            while start > 0 and lines[start][:1] in (' ', '\t'):
                start -= 1
            end = i + 1
            while end < len(lines) and lines[end] != '}':
                end += 1
            signature = re.sub(r'__attribute__\s*\(\(.*?\)\)', ' ', lines[start])
            m = FUNCTION_NAME.search(signature)
            yield (m.group(1) if m else None), start, end
            i = end
        i += 1


def check_layers(root, bad):
    """The folder rule of lib/ (see the module comment); returns how many includes and
    calls were read."""
    order = layers(root)
    rank = {f: i for i, f in enumerate(order)}
    files = lib_files(root, ('.c', '.h'))
    folders = sorted({f.split('/')[0] for f in files} | {
        d for d in os.listdir(os.path.join(root, 'lib'))
        if os.path.isdir(os.path.join(root, 'lib', d))})
    for folder in folders:
        if folder not in rank:
            bad.append(f'lib/{folder}/: a folder lib/meson.build does not enter (subdir()), '
                       f'so it has no place among the layers')
    for name in os.listdir(os.path.join(root, 'lib')):
        if name.endswith(('.c', '.h')):
            bad.append(f'lib/{name}: a file outside the layer folders (put it in the '
                       f'folder of its layer)')
    headers = {}
    for f in files:
        if f.endswith('.h'):
            headers.setdefault(os.path.basename(f), []).append(f)
    texts = {}
    for f in files:
        with open(os.path.join(root, 'lib', f), encoding='utf-8', errors='replace') as fh:
            texts[f] = fh.read()
    checked = 0
    for f in files:
        folder, base = f.split('/')
        for inc in INCLUDE.findall(texts[f]):
            checked += 1
            if inc.startswith('tokenring/'):
                continue
            where = headers.get(inc, [])
            if len(where) != 1:
                bad.append(f'lib/{f}: includes "{inc}", which is ' +
                           ('no header of lib/' if not where else
                            'the name of two headers (' + ', '.join(where) + ')'))
                continue
            owner = where[0].split('/')[0]
            if rank.get(owner, -1) > rank.get(folder, -1):
                bad.append(f'lib/{f}: includes "{inc}" of lib/{owner}/, a higher layer than '
                           f'lib/{folder}/ (the arrows run down: ' + ' < '.join(order) + ')')
            elif inc in INSIDE and base not in INSIDE[inc]:
                bad.append(f'lib/{f}: includes "{inc}", which is for '
                           f'{", ".join(sorted(INSIDE[inc]))} only')
    # calls: no source calls a function that a source of a higher folder defines (a
    # private header may declare it: the call is what makes the arrow)
    defined = {}
    for f in files:
        if f.endswith('.c'):
            lines = texts[f].split('\n')
            for name, start, _ in definitions(lines):
                if name and not re.search(r'\bstatic\b', lines[start]):
                    defined.setdefault(name, f)
    call = re.compile(r'\b(' + '|'.join(map(re.escape, sorted(defined))) + r')\s*\(') \
        if defined else None
    for f in files:
        if call is None or not f.endswith('.c'):
            continue
        folder = f.split('/')[0]
        for name in sorted(set(call.findall(COMMENT.sub(' ', texts[f])))):
            checked += 1
            owner = defined[name].split('/')[0]
            if rank.get(owner, -1) > rank.get(folder, -1):
                bad.append(f'lib/{f}: calls {name}() of lib/{defined[name]}, a higher layer '
                           f'than lib/{folder}/ (the arrows run down: ' + ' < '.join(order) + ')')
    return checked


def check_function_lengths(root, bad):
    """Functions of lib/'s sources over FUNCTION_MAX_LINES lines; returns how many were
    read."""
    count = 0
    for name in lib_files(root, '.c'):
        with open(os.path.join(root, 'lib', name), encoding='utf-8') as fh:
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
        if lines > HEADER_MAX_LINES:
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
    checked += check_layers(root, bad)
    with open(os.path.join(root, 'doc', 'architecture.md'), encoding='utf-8') as fh:
        page = fh.read()
    checked += check_public_headers(root, page, bad)
    check_function_lengths(root, bad)
    for name in lib_files(root, '.c'):  # named with its folder: base/alloc.c
        if not re.search(r'(?<![\w/])(?:lib/)?' + re.escape(name) + r'\b', page):
            bad.append(f'lib/{name}: not named in doc/architecture.md (as {name}, with '
                       f'its folder)')
    for b in bad:
        print('FAIL:', b)
    print(f'{checked} includes checked, {len(bad)} against the rules')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
