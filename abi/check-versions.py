#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The SONAME, the Meson project version and the pkg-config version agree.

  * the SONAME of the built library (readelf -d) is libtokenring.so.<MAJOR>, with MAJOR
    the first component of meson.project_version() and equal to the soversion,
  * the real file is libtokenring.so.<project version>,
  * the generated pkg-config file says Version: <project version>,
  * the generated version.h defines the same MAJOR, MINOR, PATCH and string.
(tests/test_version.c checks the run-time query against the macros.)

Usage: check-versions.py --lib SO --project-version X.Y.Z --soversion N --pc FILE
                         --version-h FILE
"""
import argparse
import os
import re
import shutil
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--lib', required=True)
    ap.add_argument('--project-version', required=True)
    ap.add_argument('--soversion', required=True)
    ap.add_argument('--pc', required=True)
    ap.add_argument('--version-h', required=True)
    args = ap.parse_args()
    if shutil.which('readelf') is None:
        print('SKIP: readelf not found')
        return 77

    problems = []
    major, minor, patch = args.project_version.split('.')
    if args.soversion != major:
        problems.append('soversion %s != project major %s' % (args.soversion, major))

    dyn = subprocess.run(['readelf', '-d', args.lib], check=True, stdout=subprocess.PIPE,
                         universal_newlines=True).stdout
    m = re.search(r'\(SONAME\)\s+Library soname: \[([^\]]+)\]', dyn)
    soname = m.group(1) if m else None
    want = 'libtokenring.so.%s' % major
    print('SONAME %s, project version %s, soversion %s' % (soname, args.project_version, args.soversion))
    if soname != want:
        problems.append('SONAME is %s, expected %s' % (soname, want))

    real = os.path.basename(os.path.realpath(args.lib))
    if real != 'libtokenring.so.%s' % args.project_version:
        problems.append('library file is %s, expected libtokenring.so.%s' % (real, args.project_version))

    with open(args.pc, encoding='utf-8') as f:
        pc = f.read()
    m = re.search(r'^Version:\s*(\S+)', pc, re.M)
    pc_version = m.group(1) if m else None
    print('%s: Version %s' % (os.path.basename(args.pc), pc_version))
    if pc_version != args.project_version:
        problems.append('pkg-config Version is %s, expected %s' % (pc_version, args.project_version))

    with open(args.version_h, encoding='utf-8') as f:
        vh = f.read()
    macros = dict(re.findall(r'#define (TOKENRING_VERSION_\w+) (\S+)', vh))
    for name, value in (('MAJOR', major), ('MINOR', minor), ('PATCH', patch),
                        ('STRING', '"%s"' % args.project_version)):
        got = macros.get('TOKENRING_VERSION_' + name)
        if got != value:
            problems.append('version.h: TOKENRING_VERSION_%s is %s, expected %s' % (name, got, value))

    if problems:
        print('FAIL:\n  ' + '\n  '.join(problems))
        return 1
    print('OK: SONAME, project version, pkg-config and version.h agree')
    return 0


if __name__ == '__main__':
    sys.exit(main())
