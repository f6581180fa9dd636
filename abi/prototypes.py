#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Freeze and check the exported functions' prototypes of each release.

  prototypes.py freeze --include-dir DIR/include/tokenring --version X.Y --out FILE
      writes abi/libtokenring-X.Y.prototypes.h: one function type per TOKENRING_API
      declaration of the release's headers, renamed tokenring_abi_X_Y_<name without
      "tokenring_">, e.g.
        typedef size_t tokenring_abi_1_1_ring_node_count(const tokenring_ring *ring);
      (abi/regenerate.sh runs it next to abidw).

  prototypes.py check --cc CC --include DIR... [--baseline-dir abi] [--version X.Y.Z]
      test `prototypes`: for every baseline of the library's major, compiles a C11 file
      that includes the current <tokenring/tokenring.h> and the frozen prototypes and
      asserts, for every function of the baseline,
        _Static_assert(__builtin_types_compatible_p(__typeof__(&tokenring_x),
                                                    tokenring_abi_X_Y_x *), ...);
      i.e. that the current declaration's type is compatible with the frozen one (same
      return type, same number and types of parameters; top-level qualifiers of a
      parameter do not count, as in C). The compiler decides, so no function escapes
      it. It also fails when a function of the baseline's .abi has no frozen prototype.
      Struct layouts and enumerator values are not its business: abidiff (abi-check)
      and tests/test_version.c check those.

Exit: 0 compatible, 1 incompatible or inconsistent, 77 compiler without
__builtin_types_compatible_p / __typeof__ (not GCC or Clang).
"""
import argparse
import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def strip_c(text):
    """The header without comments and preprocessor lines."""
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r'//[^\n]*', ' ', text)
    text = re.sub(r'\\\n', ' ', text)
    return '\n'.join(l for l in text.splitlines() if not l.lstrip().startswith('#'))


def header_prototypes(include_dir):
    """{name: (return type, parameter list)} of every TOKENRING_API function."""
    protos = {}
    for h in sorted(glob.glob(os.path.join(include_dir, '*.h'))):
        with open(h, encoding='utf-8') as f:
            text = strip_c(f.read())
        for m in re.finditer(r'\bTOKENRING_API\s+([^;{}]*?);', text):
            decl = ' '.join(m.group(1).split())
            d = re.match(r'^(.*?)\b(tokenring_\w+)\s*\((.*)\)$', decl)
            if not d:
                raise SystemExit('%s: cannot read the declaration "%s"' % (h, decl))
            if d.group(2) in protos:
                raise SystemExit('%s: %s declared twice' % (h, d.group(2)))
            protos[d.group(2)] = (d.group(1).strip(), d.group(3).strip())
    return protos


def frozen_name(version, name):
    return 'tokenring_abi_%s_%s' % (version.replace('.', '_'), name[len('tokenring_'):])


def freeze(args):
    protos = header_prototypes(args.include_dir)
    if not protos:
        raise SystemExit('no TOKENRING_API declaration in %s' % args.include_dir)
    guard = 'TOKENRING_ABI_%s_PROTOTYPES_H' % args.version.replace('.', '_')
    out = ['/* SPDX-License-Identifier: Apache-2.0 */',
           '/* The exported functions of libtokenring %s: the type of each, frozen from the'
           % args.version,
           ' * public headers of that release by abi/regenerate.sh. Include it after',
           ' * <tokenring/tokenring.h>; abi/prototypes.py checks the current declarations',
           ' * against it (test `prototypes`). Generated: do not edit. */',
           '#ifndef ' + guard, '#define ' + guard, '']
    for name in sorted(protos):
        ret, params = protos[name]
        sep = '' if ret.endswith('*') else ' '
        out.append('typedef %s%s%s(%s);' % (ret, sep, frozen_name(args.version, name), params))
    out += ['', '#endif', '']
    with open(args.out, 'w', encoding='utf-8') as f:
        f.write('\n'.join(out))
    print('froze %d prototypes: %s' % (len(protos), args.out))
    return 0


def frozen_functions(path, version):
    with open(path, encoding='utf-8') as f:
        text = f.read()
    prefix = frozen_name(version, 'tokenring_')
    return ['tokenring_' + n for n in
            re.findall(r'^typedef\b[^;]*?\b%s(\w+)\s*\(' % re.escape(prefix), text, re.M)]


def abi_functions(path):
    with open(path, encoding='utf-8') as f:
        return set(re.findall(r"<elf-symbol name='([^']+)'[^>]*type='func-type'", f.read()))


def compile_c(cc, incs, source, tmp):
    path = os.path.join(tmp, 'check.c')
    with open(path, 'w', encoding='utf-8') as f:
        f.write(source)
    return subprocess.run(cc + ['-std=c11', '-fsyntax-only'] + incs + [path],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)


def check(args):
    cc = shlex.split(args.cc)
    incs = ['-I' + d for d in args.include]
    major = args.version.split('.')[0] if args.version else None
    found = []
    for p in sorted(glob.glob(os.path.join(args.baseline_dir, 'libtokenring-*.prototypes.h'))):
        m = re.search(r'libtokenring-((\d+)\.\d+)\.prototypes\.h$', p)
        if m and (major is None or m.group(2) == major):
            found.append((m.group(1), p))
    if not found:
        print('FAIL: no libtokenring-X.Y.prototypes.h in %s: run abi/regenerate.sh'
              % args.baseline_dir)
        return 1
    with tempfile.TemporaryDirectory(prefix='tokenring-prototypes.') as tmp:
        # The compiler must know the builtins, and must tell size_t from uint32_t.
        probe = ('#include <stddef.h>\n#include <stdint.h>\nint probe_f(void);\n'
                 '_Static_assert(__builtin_types_compatible_p(__typeof__(&probe_f),\n'
                 '                                            int (*)(void)), "");\n'
                 '_Static_assert(!__builtin_types_compatible_p(size_t (*)(void),\n'
                 '                                             uint32_t (*)(void)), "");\n')
        res = compile_c(cc, incs, probe, tmp)
        if res.returncode != 0:
            print('SKIP: %s has no __builtin_types_compatible_p/__typeof__ (GCC or Clang '
                  'needed):\n%s' % (args.cc, res.stdout))
            return 77
        problems = []
        src = ['#include <tokenring/tokenring.h>']
        total = 0
        for version, path in found:
            names = frozen_functions(path, version)
            abi = os.path.join(args.baseline_dir, 'libtokenring-%s.abi' % version)
            if os.path.exists(abi):
                # (A provisional freeze with --force may hold fewer functions in the .abi
                # than the headers declare; none may be missing from the prototypes.)
                missing = sorted(abi_functions(abi) - set(names))
                if missing:
                    problems.append('baseline %s: functions of %s missing from %s: %s: freeze '
                                    'both with abi/regenerate.sh' % (
                                        version, os.path.basename(abi), os.path.basename(path),
                                        ', '.join(missing)))
            src.append('#include "%s"' % os.path.abspath(path))
            for n in names:
                src.append('_Static_assert(__builtin_types_compatible_p(__typeof__(&%s), %s *), '
                           '"%s: its type differs from the %s prototype in %s");'
                           % (n, frozen_name(version, n), n, version, os.path.basename(path)))
            total += len(names)
        res = compile_c(cc, incs, '\n'.join(src) + '\n', tmp)
        if res.returncode != 0:
            bad = sorted(set(re.findall(r'"(tokenring_\w+: its type differs[^"]*)"', res.stdout)))
            problems.append('the current headers do not compile against the frozen '
                            'prototypes%s\n%s' % (
                                ':\n' + '\n'.join('      - ' + b for b in bad) if bad else '',
                                '\n'.join('      ' + l for l in res.stdout.rstrip().splitlines()[:40])))
    if problems:
        print('FAIL: exported functions changed type since a release:')
        for p in problems:
            print('  ' + p)
        print('A changed parameter or return type is an ABI break: read abi/README.md.')
        return 1
    print('OK: %d prototypes of %s match the current headers' % (
        total, ', '.join(v for v, _ in found)))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    f = sub.add_parser('freeze')
    f.add_argument('--include-dir', required=True)
    f.add_argument('--version', required=True, help='X.Y')
    f.add_argument('--out', required=True)
    c = sub.add_parser('check')
    c.add_argument('--cc', required=True)
    c.add_argument('--include', action='append', required=True)
    c.add_argument('--baseline-dir', default=HERE)
    c.add_argument('--version', help='library version X.Y.Z: only baselines of its major')
    args = ap.parse_args()
    return freeze(args) if args.cmd == 'freeze' else check(args)


if __name__ == '__main__':
    sys.exit(main())
