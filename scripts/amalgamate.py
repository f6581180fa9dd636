#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generates the single-file build of libtokenring: tokenring.c and tokenring.h.

    scripts/amalgamate.py OUTDIR            write OUTDIR/tokenring.c and OUTDIR/tokenring.h
    scripts/amalgamate.py --check DIR...    exit 1 if any DIR holds a stale copy

tokenring.h is include/tokenring/tokenring.h with every public header (version.h from
version.h.in with meson.build's project version) inlined once, in include order.
tokenring.c is every library source in the order of lib/meson.build's folders (its
subdir() calls, bottom layer first) and of each folder's meson.build, with the private
headers (found in whichever lib/ folder holds them) inlined once, where first included.
It compiles with any C11 compiler and no defines:

    cc -std=c11 -c tokenring.c

Each file keeps its own names: every identifier a .c file defines at file scope (a static
function or variable, a typedef, a struct/union/enum tag) is renamed inside that file by a
`#define NAME file_NAME` ... `#undef NAME` pair, so that two files may both define
`cmp_i64` and a later file may name a local variable after an earlier file's type; every
macro a .c file defines is undefined at the end of that file. Names that two files share
are listed with --clashes. The output is deterministic (no dates, no paths).
See doc/single-file.md.
"""
import argparse
import collections
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
DEFINE_RE = re.compile(r'^\s*#\s*define\s+(\w+)')

# Feature-test macros the library needs, set before the first system header. They only
# widen what the C library declares (POSIX 2008: strnlen, clock_gettime; BSD/Linux:
# madvise's MADV_HUGEPAGE), and a program may set its own first.
PROLOGUE = """\
#if !defined(_POSIX_C_SOURCE) && !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#endif
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE 1
#endif
"""


def project_version(root):
    text = open(os.path.join(root, 'meson.build'), encoding='utf-8').read()
    m = re.search(r"project\([^)]*?version:\s*'(\d+)\.(\d+)\.(\d+)'", text, re.S)
    if not m:
        sys.exit('amalgamate: no project version in meson.build')
    return m.groups()


def lib_sources(root):
    """The library's sources as paths relative to lib/ (base/alloc.c, ...): the folders in
    the order lib/meson.build enters them, each folder's files in its meson.build's order."""
    text = open(os.path.join(root, 'lib', 'meson.build'), encoding='utf-8').read()
    folders = re.findall(r"^\s*subdir\('([^']+)'\)", text, re.M)
    if not folders:
        sys.exit('amalgamate: no subdir() in lib/meson.build')
    sources = []
    for folder in folders:
        build = os.path.join(root, 'lib', folder, 'meson.build')
        text = open(build, encoding='utf-8').read()
        m = re.search(r'lib_sources\s*\+=\s*files\((.*?)\)', text, re.S)
        if not m:
            sys.exit('amalgamate: no lib_sources += files(...) in lib/%s/meson.build' % folder)
        sources += [folder + '/' + s for s in re.findall(r"'([^']+\.c)'", m.group(1))]
    return sources


def private_headers(root):
    """Every private header of lib/ by its include name, with its path relative to lib/."""
    found = {}
    for folder in sorted(os.listdir(os.path.join(root, 'lib'))):
        path = os.path.join(root, 'lib', folder)
        if os.path.isdir(path):
            for h in sorted(f for f in os.listdir(path) if f.endswith('.h')):
                if h in found:
                    sys.exit('amalgamate: two private headers named %s (lib/%s, lib/%s/%s)'
                             % (h, found[h], folder, h))
                found[h] = folder + '/' + h
    return found


def read_header(root, name, version):
    """A public header's text by its include name (tokenring/x.h)."""
    base = os.path.join(root, 'include', name)
    if name == 'tokenring/version.h':
        text = open(base + '.in', encoding='utf-8').read()
        major, minor, patch = version
        for key, value in (('MAJOR', major), ('MINOR', minor), ('PATCH', patch),
                           ('VERSION', '.'.join(version))):
            text = text.replace('@%s@' % key, value)
        return text
    return open(base, encoding='utf-8').read()


def build_header(root, version):
    out, seen = [], set()

    def inline(name):
        seen.add(name)
        out.append('/* ---- include/%s ---- */\n' % name)
        for line in read_header(root, name, version).splitlines(keepends=True):
            m = INCLUDE_RE.match(line)
            if m and m.group(1).startswith('tokenring/'):
                if m.group(1) not in seen:
                    inline(m.group(1))
                continue
            out.append(line)

    out.append('/* SPDX-License-Identifier: Apache-2.0 */\n'
               '/* libtokenring %s, the whole public API in one header. Generated by\n'
               ' * scripts/amalgamate.py from include/tokenring/: do not edit. */\n'
               % '.'.join(version))
    inline('tokenring/tokenring.h')
    return ''.join(out)


# File-scope definitions that can clash between .c files once they share one translation
# unit. The library's style puts them at column 0; anything else is caught by compiling.
STATIC_FUNC_RE = re.compile(r'^static\b[^;=(]*?\b(\w+)\s*\(')
STATIC_VAR_RE = re.compile(r'^static\b[^(]*?\b(\w+)\s*(?:\[[^\]]*\]\s*)*(?:=|;)')
TAG_RE = re.compile(r'^(?:__extension__\s+)?(?:typedef\s+)?(?:struct|union|enum)\s+(\w+)')
TYPEDEF_END_RE = re.compile(r'^}\s*(\w+)\s*;')
TYPEDEF_LINE_RE = re.compile(r'^(?:__extension__\s+)?typedef\b.*?\b(\w+)\s*(?:\[[^\]]*\]\s*)?;\s*(?:/[*/].*)?$')


def file_scope_names(text):
    names = set()
    for line in text.splitlines():
        for rx in (STATIC_FUNC_RE, STATIC_VAR_RE, TAG_RE, TYPEDEF_END_RE, TYPEDEF_LINE_RE):
            m = rx.match(line)
            if m:
                names.add(m.group(1))
                break
    # Public types (tokenring_*) are defined by the header, not by a .c file.
    return {n for n in names if not n.startswith('tokenring_')}


def clashes(root):
    """File-scope names that two files define (the renaming keeps them apart)."""
    sources = lib_sources(root)
    texts = {s: open(os.path.join(root, 'lib', s), encoding='utf-8').read() for s in sources}
    owners = collections.defaultdict(list)
    for s in sources:
        for name in file_scope_names(texts[s]):
            owners[name].append(s)
    # A private header's names count too: a .c file that does not include the header may
    # define the same name for itself (the header is inlined once, for every later file).
    for h in sorted(private_headers(root).values()):
        text = open(os.path.join(root, 'lib', h), encoding='utf-8').read()
        for name in file_scope_names(re.sub(r'^static inline\b', 'static', text, flags=re.M)):
            owners[name].append(h)
    return {n: files for n, files in owners.items() if len(files) > 1}


def build_source(root, version):
    sources = lib_sources(root)
    texts = {s: open(os.path.join(root, 'lib', s), encoding='utf-8').read() for s in sources}

    headers = private_headers(root)
    out, seen = [], set()
    out.append('/* SPDX-License-Identifier: Apache-2.0 */\n'
               '/* libtokenring %s, the whole library in one C11 source file. Generated by\n'
               ' * scripts/amalgamate.py from lib/: do not edit. Build it with any C11\n'
               ' * compiler, no defines needed: cc -std=c11 -c tokenring.c */\n'
               % '.'.join(version))
    out.append(PROLOGUE)
    out.append('#include "tokenring.h"\n')

    def inline_private(name, where):
        if name not in headers:
            sys.exit('amalgamate: %s includes "%s", found neither in include/ nor lib/'
                     % (where, name))
        seen.add(name)
        out.append('/* ---- lib/%s ---- */\n' % headers[name])
        emit(open(os.path.join(root, 'lib', headers[name]), encoding='utf-8').read(),
             'lib/' + headers[name])

    def emit(text, label):
        out.append('#line 1 "%s"\n' % label)
        for lineno, line in enumerate(text.splitlines(keepends=True), 1):
            m = INCLUDE_RE.match(line)
            if m:
                name = m.group(1)
                if not name.startswith('tokenring/') and name not in seen:
                    inline_private(name, label)
                out.append('#line %d "%s"\n' % (lineno + 1, label))
                continue
            out.append(line)

    for s in sources:
        stem = os.path.basename(s)[:-2]
        # Every file-scope name of the file: those two files share, and those a later
        # file uses for a local variable (-Wshadow would flag them).
        renamed = sorted(file_scope_names(texts[s]))
        out.append('\n/* ======== lib/%s ======== */\n' % s)
        for n in renamed:
            out.append('#define %s %s_%s\n' % (n, stem, n))
        emit(texts[s], 'lib/' + s)
        if not texts[s].endswith('\n'):
            out.append('\n')
        macros = sorted({m.group(1) for line in texts[s].splitlines()
                         for m in [DEFINE_RE.match(line)] if m and not m.group(1).startswith('_')})
        for n in sorted(set(renamed) | set(macros)):
            out.append('#undef %s\n' % n)
    return ''.join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('dirs', nargs='+', metavar='DIR')
    ap.add_argument('--check', action='store_true',
                    help='compare with the copies in each DIR instead of writing')
    ap.add_argument('--clashes', action='store_true',
                    help='also list the names that two files define at file scope')
    ap.add_argument('--root', default=ROOT, help='the source tree (default: this one)')
    args = ap.parse_args()
    version = project_version(args.root)
    if args.clashes:
        for name, owners in sorted(clashes(args.root).items()):
            print('%s: %s' % (name, ', '.join(owners)))
    files = {'tokenring.h': build_header(args.root, version),
             'tokenring.c': build_source(args.root, version)}
    stale = []
    for d in args.dirs:
        for name, text in files.items():
            path = os.path.join(d, name)
            if args.check:
                try:
                    current = open(path, encoding='utf-8').read()
                except OSError:
                    current = None
                if current != text:
                    stale.append(path)
                continue
            os.makedirs(d, exist_ok=True)
            with open(path, 'w', encoding='utf-8', newline='\n') as f:
                f.write(text)
    if stale:
        for path in stale:
            print('amalgamate: %s is stale or missing: run scripts/amalgamate.py %s'
                  % (path, os.path.dirname(path)), file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
