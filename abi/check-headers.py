#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Header hygiene: the public headers compile cleanly as strict C99 and as C++.

For tokenring.h and for every include/tokenring/*.h on its own (each header must be
self-contained), compile a translation unit with
    CC -std=c99 -pedantic-errors -Wall -Wextra -Werror
and, when a C++ compiler is given, with
    CXX -std=c++11 -pedantic-errors -Wall -Wextra -Werror.
The C++ program also calls one function and links against the shared library, which
fails if a header forgets its extern "C" block (the name would be mangled).

Usage: check-headers.py --cc CC [--cxx CXX] --include DIR [--include DIR ...] --lib SO
"""
import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile


def compile_one(cmd, label, problems):
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         universal_newlines=True)
    if res.returncode != 0:
        problems.append('%s:\n    %s\n%s' % (label, ' '.join(cmd), res.stdout))
    else:
        print('ok  %s' % label)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--cc', required=True)
    ap.add_argument('--cxx')
    ap.add_argument('--include', action='append', required=True)
    ap.add_argument('--lib', required=True)
    args = ap.parse_args()

    cc = shlex.split(args.cc)
    cxx = shlex.split(args.cxx) if args.cxx else None
    incs = ['-I' + d for d in args.include]
    src_inc = os.path.join(args.include[0], 'tokenring')
    headers = sorted(h for h in os.listdir(src_inc) if h.endswith('.h'))
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        for h in ['tokenring.h'] + [h for h in headers if h != 'tokenring.h'] + ['version.h']:
            c = os.path.join(tmp, 'c99_%s.c' % h[:-2])
            with open(c, 'w') as f:
                f.write('#include <tokenring/%s>\nint tokenring_hygiene_%s;\n' % (h, h[:-2]))
            compile_one(cc + ['-std=c99', '-pedantic-errors', '-Wall', '-Wextra', '-Werror']
                        + incs + ['-c', c, '-o', c + '.o'], 'C99 %s' % h, problems)
            if cxx:
                cpp = os.path.join(tmp, 'cxx_%s.cpp' % h[:-2])
                with open(cpp, 'w') as f:
                    f.write('#include <tokenring/%s>\nint tokenring_hygiene_%s;\n' % (h, h[:-2]))
                compile_one(cxx + ['-std=c++11', '-pedantic-errors', '-Wall', '-Wextra',
                                   '-Werror'] + incs + ['-c', cpp, '-o', cpp + '.o'],
                            'C++11 %s' % h, problems)
        if cxx:
            cpp = os.path.join(tmp, 'link.cpp')
            with open(cpp, 'w') as f:
                f.write('#include <tokenring/tokenring.h>\n#include <cstring>\n'
                        'int main() {\n'
                        '    int rc = tokenring_replication_parse(nullptr, "3", 1, nullptr);\n'
                        '    // the int every call returns, as C++ callers hold it\n'
                        '    if (std::strcmp(tokenring_strerror(rc), "invalid argument") != 0 ||\n'
                        '        std::strcmp(tokenring_status_name(rc), "TOKENRING_E_INVAL") != 0 ||\n'
                        '        std::strcmp(tokenring_strerror(TOKENRING_E_PARSE), '
                        '"malformed input") != 0)\n'
                        '        return 2;\n'
                        '    return std::strcmp(tokenring_version_string(), '
                        'TOKENRING_VERSION_STRING) == 0 ? 0 : 1;\n}\n')
            exe = os.path.join(tmp, 'link')
            compile_one(cxx + ['-std=c++11', '-Wall', '-Werror'] + incs + [cpp, '-o', exe,
                        args.lib], 'C++ links against the C library (extern "C")', problems)
            if not problems:
                env = dict(os.environ)
                env['LD_LIBRARY_PATH'] = os.path.dirname(os.path.abspath(args.lib))
                rc = subprocess.run([exe], env=env).returncode
                if rc != 0:
                    problems.append('C++ program: version string mismatch (rc %d)' % rc)
        else:
            print('note: no C++ compiler, C++ checks skipped')
    if problems:
        print('FAIL:\n' + '\n'.join(problems))
        return 1
    print('OK: %d headers are clean C99%s' % (len(headers) + 1, ' and C++11' if cxx else ''))
    return 0


if __name__ == '__main__':
    sys.exit(main())
