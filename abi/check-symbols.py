#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Exported symbols, the version script and the public headers must agree.

Compares three sets of names and prints every difference:
  * the symbols the built shared library exports (nm -D --defined-only, with the
    @@TOKENRING_x suffixes and the version-node names themselves stripped),
  * the names listed in the version script (abi/libtokenring.map),
  * the declarations marked TOKENRING_API in include/tokenring/*.h.
It also checks that each exported symbol carries the version node the map puts it in,
that each node lists its names alphabetically, and that every public header is included by tokenring.h and installed by
include/tokenring/meson.build, so that a new header cannot be forgotten.

Usage: check-symbols.py --lib libtokenring.so [--map FILE] [--include-dir DIR]
Exit status: 0 when everything agrees, 1 otherwise (77 when nm is missing).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRCDIR = os.path.dirname(HERE)


def strip_c_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)


ORDER = {}  # node -> names in the order the map lists them


def parse_map(path):
    """Returns {symbol: node} and the ordered list of (node, parent) of a version script."""
    with open(path, encoding='utf-8') as f:
        text = strip_c_comments(f.read())
    text = re.sub(r'#[^\n]*', ' ', text)
    symbols, nodes = {}, []
    for m in re.finditer(r'([A-Za-z_][\w.]*)\s*\{(.*?)\}\s*([A-Za-z_][\w.]*)?\s*;', text, re.S):
        node, body, parent = m.group(1), m.group(2), m.group(3)
        nodes.append((node, parent))
        scope = 'global'
        for tok in re.split(r'[;\s]+', body):
            if not tok:
                continue
            if tok.endswith(':'):
                scope = tok[:-1]
                continue
            if tok.startswith(('global:', 'local:')):
                scope, tok = tok.split(':', 1)
                if not tok:
                    continue
            if scope == 'global':
                ORDER.setdefault(node, []).append(tok)
                if tok in symbols:
                    raise SystemExit('%s: %s listed twice (%s and %s)' % (path, tok, symbols[tok], node))
                symbols[tok] = node
    return symbols, nodes


def header_files(include_dir):
    return sorted(os.path.join(include_dir, n) for n in os.listdir(include_dir) if n.endswith('.h'))


API_DECL = re.compile(r'\bTOKENRING_API\b([^;{}]*?)\b([A-Za-z_]\w*)\s*(\(|\[|;|=)', re.S)


def parse_headers(include_dir):
    """Returns {name: header} for every TOKENRING_API declaration."""
    decls = {}
    for path in header_files(include_dir):
        with open(path, encoding='utf-8') as f:
            text = strip_c_comments(f.read())
        # Drop preprocessor lines (the #define of TOKENRING_API itself), with continuations.
        text = re.sub(r'^[ \t]*#(?:[^\n]*\\\n)*[^\n]*', ' ', text, flags=re.M)
        for m in API_DECL.finditer(text):
            name = m.group(2)
            if name in decls:
                raise SystemExit('%s: %s declared again (first in %s)' % (path, name, decls[name]))
            decls[name] = os.path.basename(path)
    return decls


def exported_symbols(lib, nm='nm'):
    """Returns ({symbol: node or None}, {version nodes}) of a shared library."""
    out = subprocess.run([nm, '-D', '--defined-only', lib], check=True,
                         stdout=subprocess.PIPE, universal_newlines=True).stdout
    syms, nodes = {}, set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 3:
            continue
        kind, name = parts[1], parts[2]
        if '@' in name:
            base, node = re.split(r'@@?', name, maxsplit=1)
        else:
            base, node = name, None
        if kind == 'A' and (node is None or node == base):
            nodes.add(base)        # the version node's own absolute symbol
            continue
        syms[base] = node
    return syms, nodes


def check_headers_wired(include_dir, problems):
    headers = [os.path.basename(h) for h in header_files(include_dir)]
    umbrella = os.path.join(include_dir, 'tokenring.h')
    with open(umbrella, encoding='utf-8') as f:
        included = set(re.findall(r'#\s*include\s*[<"]tokenring/([\w.]+\.h)[>"]', f.read()))
    build = os.path.join(include_dir, 'meson.build')
    installed = set()
    if os.path.exists(build):
        with open(build, encoding='utf-8') as f:
            installed = set(re.findall(r"'([\w.]+\.h)'", f.read()))
    for h in headers:
        if h != 'tokenring.h' and h not in included:
            problems.append('include/tokenring/%s is not included by tokenring.h' % h)
        if h not in installed:
            problems.append('include/tokenring/%s is not listed in include/tokenring/meson.build '
                            '(it would not be installed)' % h)


def report(title, names, problems):
    if names:
        problems.append('%s (%d):\n%s' % (title, len(names), '\n'.join('    ' + n for n in sorted(names))))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--lib', required=True, help='the built shared library')
    ap.add_argument('--map', default=os.path.join(HERE, 'libtokenring.map'))
    ap.add_argument('--include-dir', default=os.path.join(SRCDIR, 'include', 'tokenring'))
    ap.add_argument('--nm', default=os.environ.get('NM', 'nm'))
    args = ap.parse_args()
    if shutil.which(args.nm) is None:
        print('SKIP: %s not found' % args.nm)
        return 77

    mapped, map_nodes = parse_map(args.map)
    declared = parse_headers(args.include_dir)
    exported, so_nodes = exported_symbols(args.lib, args.nm)
    m, d, e = set(mapped), set(declared), set(exported)
    problems = []
    report('declared TOKENRING_API in include/tokenring/ but missing from the version script',
           ['%s (%s)' % (n, declared[n]) for n in d - m], problems)
    report('in the version script but declared nowhere in include/tokenring/',
           ['%s (%s)' % (n, mapped[n]) for n in m - d], problems)
    report('in the version script but not exported by the library (not defined yet, or '
           'defined without TOKENRING_API)', ['%s (%s)' % (n, mapped[n]) for n in m - e], problems)
    report('exported by the library but not in the version script',
           ['%s@%s' % (n, exported[n]) for n in e - m], problems)
    report('exported by the library but not declared TOKENRING_API in include/tokenring/',
           e - d, problems)
    wrong_node = ['%s: exported as @%s, the map says %s' % (n, exported[n], mapped[n])
                  for n in e & m if exported[n] != mapped[n]]
    report('exported under a different version node than the map', wrong_node, problems)
    unknown_nodes = so_nodes - {n for n, _ in map_nodes}
    report('version nodes in the library that the map does not define', unknown_nodes, problems)
    check_headers_wired(args.include_dir, problems)
    for node, names in ORDER.items():
        if names != sorted(names):
            a, b = next((a, b) for a, b in zip(names, names[1:]) if a > b)
            problems.append('node %s of the version script is not in alphabetical order '
                            '(%s comes after %s)' % (node, b, a))

    print('%d exported, %d in %s (%s), %d declared in %d headers' % (
        len(e), len(m), os.path.basename(args.map), ', '.join(n for n, _ in map_nodes),
        len(d), len(header_files(args.include_dir))))
    if problems:
        print('FAIL: the exported symbols, the version script and the headers disagree:')
        for p in problems:
            print('  ' + p)
        return 1
    print('OK: all three agree')
    return 0


if __name__ == '__main__':
    sys.exit(main())
