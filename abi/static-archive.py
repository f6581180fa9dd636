#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Makes the installed libtokenring.a from the library's internal archive.

The library's objects are compiled with hidden visibility: the shared library exports only
the TOKENRING_API functions, but in a plain archive every hidden symbol is still a global
of its object (tr_free, tr_fail, tr_cpu_features, ...), so a program that defines one of
those names fails to link, or silently replaces the library's own. This script

  1. links every object of the internal archive into one relocatable object
     (CC -r -nostdlib, whole archive): references between the library's files resolve here;
  2. turns every hidden symbol into a local one (objcopy --localize-hidden): the object
     now defines only the public API as globals; names, sections and debug information
     stay as they were;
  3. archives that one object (ar rcD: no timestamps, reproducible).

Given no --objcopy (a toolchain where the steps above are not available), it installs the
objects as compiled: a copy of the internal archive (of its members when it is thin).

Usage: static-archive.py --input INTERNAL.a --output libtokenring.a
                         [--ar AR] [--objcopy OBJCOPY -- CC [CC-ARGS...]]
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    if r.returncode != 0:
        sys.stderr.write('static-archive.py: %s failed:\n%s' % (' '.join(cmd), r.stdout))
        raise SystemExit(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--input', required=True)
    ap.add_argument('--output', required=True)
    ap.add_argument('--objcopy')
    ap.add_argument('--ar')
    ap.add_argument('cc', nargs='*', help='the C compiler command (after --)')
    args = ap.parse_args()
    if os.path.exists(args.output):
        os.unlink(args.output)
    if not args.objcopy:
        with open(args.input, 'rb') as f:
            thin = f.read(8) == b'!<thin>\n'
        if not thin:
            shutil.copyfile(args.input, args.output)
            return 0
        # A thin archive (GNU ar's T, which Meson uses for archives it does not install)
        # only names its members: archive copies of them.
        if not args.ar:
            ap.error('a thin archive needs --ar')
        members = subprocess.run([args.ar, 't', args.input], check=True, stdout=subprocess.PIPE,
                                 universal_newlines=True).stdout.split()
        # GNU ar prints them as paths from the current directory; others from the archive's.
        base = os.path.dirname(os.path.abspath(args.input))
        run([args.ar, 'rcsD', args.output]
            + [m if os.path.exists(m) else os.path.join(base, m) for m in members])
        return 0
    if not args.ar or not args.cc:
        ap.error('--objcopy needs --ar and the compiler command')
    with tempfile.TemporaryDirectory(dir=os.path.dirname(os.path.abspath(args.output))) as tmp:
        obj = os.path.join(tmp, 'tokenring.o')
        # -no-pie: compilers configured to link PIE by default must not pass -pie with -r.
        run(args.cc + ['-r', '-nostdlib', '-no-pie', '-o', obj,
                       '-Wl,--whole-archive', os.path.abspath(args.input),
                       '-Wl,--no-whole-archive'])
        run([args.objcopy, '--localize-hidden', obj])
        out = os.path.join(tmp, 'libtokenring.a')
        run([args.ar, 'rcD', out, obj])
        os.replace(out, args.output)
    return 0


if __name__ == '__main__':
    sys.exit(main())
