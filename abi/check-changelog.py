#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every public name appears in CHANGELOG.md.

"Every public API change appears in CHANGELOG.md": this test holds the file to it for
everything a program can name. It collects, from include/tokenring/*.h and *.h.in,
  * every TOKENRING_API function or variable,
  * every public type (typedef names: structs, enums, opaque handles),
  * every public macro (#define TOKENRING_..., except include guards and TOKENRING_API),
and every version node of abi/libtokenring.map, and fails listing those that
CHANGELOG.md never mentions (as a whole word). Enumerators are covered by their enum.

Usage: check-changelog.py [--include-dir DIR] [--map FILE] [--changelog FILE]
"""
import argparse
import glob
import importlib.util
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRCDIR = os.path.dirname(HERE)
_spec = importlib.util.spec_from_file_location('check_symbols', os.path.join(HERE, 'check-symbols.py'))
check_symbols = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_symbols)


def public_names(include_dir):
    names = {}
    paths = sorted(glob.glob(os.path.join(include_dir, '*.h')) +
                   glob.glob(os.path.join(include_dir, '*.h.in')))
    for path in paths:
        base = os.path.basename(path)
        with open(path, encoding='utf-8') as f:
            text = check_symbols.strip_c_comments(f.read())
        for m in re.finditer(r'^[ \t]*#[ \t]*define[ \t]+(TOKENRING_\w+)', text, re.M):
            name = m.group(1)
            if name != 'TOKENRING_API' and not name.endswith('_H'):
                names.setdefault(name, base)
        for m in re.finditer(r'\}\s*(tokenring_\w+)\s*;', text):
            names.setdefault(m.group(1), base)
        for m in re.finditer(r'typedef\s+(?:struct|enum|union)\s+\w+\s+(tokenring_\w+)\s*;', text):
            names.setdefault(m.group(1), base)
    for name, header in check_symbols.parse_headers(include_dir).items():
        names.setdefault(name, header)
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--include-dir', default=os.path.join(SRCDIR, 'include', 'tokenring'))
    ap.add_argument('--map', default=os.path.join(HERE, 'libtokenring.map'))
    ap.add_argument('--changelog', default=os.path.join(SRCDIR, 'CHANGELOG.md'))
    args = ap.parse_args()

    with open(args.changelog, encoding='utf-8') as f:
        changelog = f.read()
    words = set(re.findall(r'[A-Za-z_][\w.]*\w|[A-Za-z_]', changelog))
    words |= set(re.findall(r'[A-Za-z_]\w*', changelog))
    names = public_names(args.include_dir)
    _, nodes = check_symbols.parse_map(args.map)
    missing = sorted('%s (%s)' % (n, h) for n, h in names.items() if n not in words)
    missing += ['version node %s (write "ABI: adds %s")' % (n, n)
                for n, _ in nodes if n not in words]
    print('%d public names and %d version nodes' % (len(names), len(nodes)))
    if missing:
        print('FAIL: CHANGELOG.md does not mention %d of them:\n  %s'
              % (len(missing), '\n  '.join(missing)))
        return 1
    print('OK: CHANGELOG.md mentions every one')
    return 0


if __name__ == '__main__':
    sys.exit(main())
