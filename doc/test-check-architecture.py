#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The architecture check fails where it should: on a copy of include/, lib/ and the
architecture page, each break below is made alone and check-architecture.py must fail
naming it (and pass on the unbroken copy).

- a public header that includes one that includes it back (an include cycle);
- a public header over the line cap;
- a public header that includes a system header other than the C standard ones;
- a lib/ function over the line cap;
- a lib/ file that includes the private header of a higher layer's folder;
- a lib/ file that calls a function a higher layer's folder defines;
- a parser file outside INSIDE's list that includes parse_formats.h;
- a lib/ source outside the layer folders;
- a lib/ source the architecture page does not name with its folder.

Usage: test-check-architecture.py SOURCE_ROOT
"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run(root):
    res = subprocess.run([sys.executable, os.path.join(HERE, 'check-architecture.py'), root],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         universal_newlines=True)
    return res.returncode, res.stdout


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(HERE)
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, 'src')
        for d in ('include', 'lib'):
            shutil.copytree(os.path.join(src, d), os.path.join(root, d))
        os.makedirs(os.path.join(root, 'doc'))
        shutil.copy(os.path.join(src, 'doc', 'architecture.md'), os.path.join(root, 'doc'))
        inc = os.path.join(root, 'include', 'tokenring')

        def edit(path, old, new):
            with open(path, encoding='utf-8') as fh:
                text = fh.read()
            if old not in text:
                sys.exit(f'{path}: no {old!r} to break')
            with open(path, 'w', encoding='utf-8') as fh:
                fh.write(text.replace(old, new, 1))
            return text

        def expect(label, path, text, want):
            rc, out = run(root)
            with open(path, 'w', encoding='utf-8') as fh:
                fh.write(text)  # restored for the next case
            if rc == 0 or want not in out:
                problems.append(f'{label}: expected a failure naming {want!r}, got '
                                f'exit {rc}:\n{out}')
            else:
                print(f'ok  {label}')

        rc, out = run(root)
        if rc != 0:
            problems.append(f'the unbroken copy fails:\n{out}')
        guard = '#include "tokenring/types.h"\n'
        path = os.path.join(inc, 'placement.h')
        text = edit(path, guard, guard + '#include "tokenring/ring.h"\n')
        expect('include cycle', path, text, 'an include cycle')
        path = os.path.join(inc, 'balance.h')
        text = edit(path, '#endif /* TOKENRING_BALANCE_H */',
                    '/* padding */\n' * 600 + '#endif /* TOKENRING_BALANCE_H */')
        expect('long header', path, text, 'balance.h: ')
        path = os.path.join(inc, 'types.h')
        text = edit(path, guard.replace('types.h', 'common.h'),
                    guard.replace('types.h', 'common.h') + '#include <stdio.h>\n')
        expect('system header', path, text, 'includes <stdio.h>')
        path = os.path.join(root, 'lib', 'analysis', 'balance.c')
        with open(path, encoding='utf-8') as fh:
            text = fh.read()
        with open(path, 'a', encoding='utf-8') as fh:
            fh.write('\nstatic int long_one(void)\n{\n' + '    ;\n' * 200 + '    return 0;\n}\n')
        expect('long function', path, text, 'long_one is 204 lines')
        path = os.path.join(root, 'lib', 'ring', 'ring.c')
        text = edit(path, '#include "ring_internal.h"\n',
                    '#include "ring_internal.h"\n#include "router_internal.h"\n')
        expect('include upward', path, text,
               'lib/ring/ring.c: includes "router_internal.h" of lib/router/')
        path = os.path.join(root, 'lib', 'base', 'version.c')
        with open(path, encoding='utf-8') as fh:
            text = fh.read()
        with open(path, 'a', encoding='utf-8') as fh:
            fh.write('\nvoid tr_upward(void);\nvoid tr_upward(void)\n{\n'
                     '    (void)tokenring_ring_build(NULL, NULL, NULL);\n}\n')
        expect('call upward', path, text, 'lib/base/version.c: calls tokenring_ring_build()')
        path = os.path.join(root, 'lib', 'parse', 'parse_lex.c')
        text = edit(path, '#include "parse_internal.h"\n',
                    '#include "parse_internal.h"\n#include "parse_formats.h"\n')
        expect('parser bottom reaching a format', path, text,
               'lib/parse/parse_lex.c: includes "parse_formats.h", which is for')
        path = os.path.join(root, 'lib', 'stray.c')
        with open(path, 'w', encoding='utf-8') as fh:
            fh.write('/* stray */\n')
        rc, out = run(root)
        os.remove(path)
        if rc == 0 or 'lib/stray.c: a file outside the layer folders' not in out:
            problems.append(f'file outside the folders: expected a failure, got exit {rc}:\n{out}')
        else:
            print('ok  file outside the folders')
        path = os.path.join(root, 'lib', 'ring', 'unnamed.c')
        with open(path, 'w', encoding='utf-8') as fh:
            fh.write('/* unnamed */\n')
        rc, out = run(root)
        os.remove(path)
        if rc == 0 or 'lib/ring/unnamed.c: not named in doc/architecture.md' not in out:
            problems.append(f'unnamed file: expected a failure, got exit {rc}:\n{out}')
        else:
            print('ok  unnamed file')
    for p in problems:
        print('FAIL:', p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
