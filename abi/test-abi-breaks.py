#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Prove that abi/check-abi.py catches ABI breaks.

Copies the library's sources (meson.build, include/, lib/, the version script and
CHANGELOG.md) into a temporary directory, configures ONE debug build of the copy,
freezes a baseline of the pristine copy with abi/regenerate.sh, and checks that the
pristine library passes. Then, one at a time, it patches the copy, rebuilds the shared
library incrementally and runs abi/check-abi.py against the temporary baseline:

  param-type      an exported function's size_t parameter becomes uint32_t
                  (falls back to a return type change if no such function is built)
  enum-renumber   a tokenring_status value changes (visible: tokenring_strerror takes
                  the enum type)
  removed         a function disappears from the version script
  struct-size     a public struct passed to an exported function grows
  struct-member   two members of tokenring_error swap places (same size, new offsets;
                  a sign change of a member is NOT flagged: libabigail calls it harmless)
  add-old-node    a new function is added to the newest existing node (e.g. TOKENRING_1.1)
  add-no-bump     a new node for the next minor + CHANGELOG, but the version is not bumped
  add-no-log      a new node and a minor bump, but CHANGELOG.md does not mention it
  reserved-carve  a member carved out of tokenring_error's reserved tail (same size):
                  compatible, but it must be reviewed and the baseline re-frozen
  proto-return    tokenring_ring_node_count() returns uint32_t instead of size_t: checked
                  with abi/prototypes.py (test `prototypes`) alone, which must fail and
                  name the function (abidw 2.2 without --drop-undefined-syms recorded no
                  type for it, and abidiff passed this change)
must all FAIL, while
  enum-append     a new status code after the last one
  add-right       new node for the next minor inheriting the newest, minor bump, CHANGELOG entry
must PASS (both abi/check-abi.py and abi/prototypes.py). Exit 0 when every expectation
holds, 1 otherwise, 77 without abidiff/abidw.

With --objdir BUILDDIR (an existing build of the same sources) only the library sources
the cases need are built in the copy: those defining the status, allocator and version
functions, one function with a size_t parameter and one taking tokenring_error*, and
whatever they call (found with nm on BUILDDIR's objects).
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ADDED = 'tokenring_abi_test_added'


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, **kw)


class Tree:
    def __init__(self, src, tmp, meson):
        self.src = os.path.join(tmp, 'src')
        self.build = os.path.join(tmp, 'build')
        self.baseline = os.path.join(tmp, 'baseline')
        self.meson = meson
        os.makedirs(os.path.join(self.src, 'abi'))
        for f in ('meson.build', 'meson_options.txt', 'CHANGELOG.md'):
            shutil.copy(os.path.join(src, f), self.src)
        for d in ('include', 'lib'):
            shutil.copytree(os.path.join(src, d), os.path.join(self.src, d))
        for f in ('libtokenring.map', 'static-archive.py'):  # what lib/meson.build uses
            shutil.copy(os.path.join(src, 'abi', f), os.path.join(self.src, 'abi'))
        self.pristine = {}
        for root, _, files in os.walk(self.src):
            for f in files:
                p = os.path.join(root, f)
                with open(p, encoding='utf-8', errors='surrogateescape') as fh:
                    self.pristine[p] = fh.read()
        self.dirty = set()

    def path(self, rel):
        return os.path.join(self.src, rel)

    def read(self, rel):
        with open(self.path(rel), encoding='utf-8', errors='surrogateescape') as f:
            return f.read()

    def write(self, rel, text):
        p = self.path(rel)
        with open(p, 'w', encoding='utf-8', errors='surrogateescape') as f:
            f.write(text)
        self.dirty.add(p)

    def sub(self, rel, pattern, repl, flags=0):
        text = self.read(rel)
        new, n = re.subn(pattern, repl, text, count=1, flags=flags)
        if n != 1:
            raise RuntimeError('patch did not apply to %s: %s' % (rel, pattern))
        self.write(rel, new)

    def restore(self, keep=()):
        for p in sorted(self.dirty):
            if os.path.relpath(p, self.src) in keep:
                continue
            with open(p, 'w', encoding='utf-8', errors='surrogateescape') as f:
                f.write(self.pristine[p])
        self.dirty = {p for p in self.dirty if os.path.relpath(p, self.src) in keep}

    def restrict_sources(self, sources):
        """Builds only `sources` of lib/ (paths relative to lib/, base/alloc.c ...): rewrites
        the `lib_sources += files(...)` of each folder's meson.build in the copy."""
        wanted = {}
        for s in sources:
            folder, _, name = s.rpartition('/')
            wanted.setdefault(folder, []).append(name)
        builds = sorted(glob.glob(self.path('lib/*/meson.build')))
        texts = {}
        for b in builds:
            rel = os.path.relpath(b, self.src)
            folder = os.path.basename(os.path.dirname(b))
            text = self.read(rel)
            listing = ''.join("  '%s',\n" % s for s in sorted(wanted.pop(folder, [])))
            new, n = re.subn(r'lib_sources\s*\+=\s*files\((.*?)\)',
                             'lib_sources += files(\n%s)' % listing, text, count=1, flags=re.S)
            if n != 1:
                return False
            texts[rel] = new
        if wanted or not texts:  # a source outside the folders the copy knows
            return False
        for rel, new in texts.items():
            self.write(rel, new)
            self.pristine[self.path(rel)] = new
            self.dirty.discard(self.path(rel))
        return True

    def setup(self):
        res = run([self.meson, 'setup', self.build, self.src, '--buildtype=debug',
                   '-Dtests=false', '-Dtools=false', '-Dbench=false', '-Ddocs=disabled',
                   '-Dabi_check=disabled', '-Dbindings=disabled'])
        if res.returncode != 0:
            raise RuntimeError('meson setup of the copy failed:\n' + res.stdout)

    def compile(self):
        res = run([self.meson, 'compile', '-C', self.build, '-j', '2'])
        if res.returncode != 0:
            raise RuntimeError('build of the patched copy failed:\n' + res.stdout[-4000:])
        libs = [p for p in glob.glob(os.path.join(self.build, 'lib', 'libtokenring.so.*'))
                if re.search(r'\.so\.\d+\.\d+\.\d+$', p) and os.path.isfile(p)]
        return max(libs, key=os.path.getmtime)


def object_symbols(objdir, src):
    """{source path relative to lib/: (defined, undefined)} from the objects of an existing
    build (Meson names the object of lib/FOLDER/X.c FOLDER_X.c.o)."""
    by_object = {os.path.relpath(c, os.path.join(src, 'lib')).replace(os.sep, '_'):
                 os.path.relpath(c, os.path.join(src, 'lib')).replace(os.sep, '/')
                 for c in glob.glob(os.path.join(src, 'lib', '*', '*.c'))}
    table = {}
    for o in sorted(glob.glob(os.path.join(objdir, '*.c.o'))):
        obj = os.path.basename(o)[:-2]
        if obj not in by_object:
            return {}  # an object of a source this tree no longer has: a stale build
        res = run(['nm', o])
        if res.returncode != 0:
            return {}
        defined, undefined = set(), set()
        for line in res.stdout.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] == 'U':
                undefined.add(parts[1])
            elif len(parts) == 3 and parts[1] in 'TDBRVWG':
                defined.add(parts[2])
        table[by_object[obj]] = (defined, undefined)
    return table


def closure(table, seeds):
    where = {}
    for src, (defined, _) in table.items():
        for sym in defined:
            where.setdefault(sym, src)
    todo, done = list(seeds), set()
    while todo:
        src = todo.pop()
        if src in done:
            continue
        done.add(src)
        for sym in table[src][1]:
            if sym in where and where[sym] not in done:
                todo.append(where[sym])
    return done


def header_functions(t):
    """{function: parameter list} of every TOKENRING_API function in the copy."""
    funcs = {}
    for h in sorted(glob.glob(t.path('include/tokenring/*.h'))):
        text = open(h, encoding='utf-8').read()
        for m in re.finditer(r'TOKENRING_API\s+[^;{}()]*?\b(tokenring_\w+)\s*\(([^)]*)\)\s*;', text):
            funcs[m.group(1)] = m.group(2)
    return funcs


def choose_subset(t, table):
    """The smallest set of library sources that still exercises every case: the files
    defining the status, allocator and version functions, one function with a size_t
    parameter and one taking tokenring_error*, plus whatever those files call."""
    where = {}
    for src, (defined, _) in table.items():
        for sym in defined:
            where.setdefault(sym, src)
    seeds = {where[n] for n in ('tokenring_strerror', 'tokenring_status_name',
                                 'tokenring_set_allocator', 'tokenring_version_number')
             if n in where}
    funcs = header_functions(t)

    def smallest(pred):
        best = None
        for name in sorted(funcs, key=lambda n: (n != 'tokenring_token', n)):
            if name in where and pred(funcs[name]):
                size = len(closure(table, seeds | {where[name]}))
                if best is None or size < best[0]:
                    best = (size, name)
        return best[1] if best else None

    extra = [smallest(lambda p: re.search(r'\bsize_t\s+\w+', p)),
             smallest(lambda p: 'tokenring_error' in p)]
    seeds |= {where[n] for n in extra if n}
    return sorted(closure(table, seeds)), [n for n in extra if n]


def patch_param_type(t, exported):
    """size_t -> uint32_t in one exported function's declaration and definition."""
    decls = {}
    for h in sorted(glob.glob(t.path('include/tokenring/*.h'))):
        text = open(h, encoding='utf-8').read()
        for m in re.finditer(r'TOKENRING_API\s+[^;{}()]*?\b(tokenring_\w+)\s*\(([^)]*)\)\s*;', text):
            pm = re.search(r'\bsize_t\s+(\w+)', m.group(2))
            if pm and m.group(1) in exported:
                decls[m.group(1)] = (os.path.relpath(h, t.src), pm.group(1))
    order = sorted(decls, key=lambda n: (n != 'tokenring_token', n))
    for name in order:
        hdr, param = decls[name]
        for c in sorted(glob.glob(t.path('lib/*/*.c'))):
            rel = os.path.relpath(c, t.src)
            text = t.read(rel)
            defn = re.search(r'\b%s\s*\(([^)]*)\)\s*\{' % name, text)
            if defn and re.search(r'\bsize_t\s+%s\b' % param, defn.group(1)):
                t.sub(hdr, r'(\b%s\s*\([^)]*?)\bsize_t(\s+%s\b)' % (name, param), r'\1uint32_t\2', re.S)
                t.sub(rel, r'(\b%s\s*\([^)]*?)\bsize_t(\s+%s\b)' % (name, param), r'\1uint32_t\2', re.S)
                return '%s(): parameter %s size_t -> uint32_t' % (name, param)
    # No function with a size_t parameter is built yet: change a return type instead.
    t.sub('include/tokenring/common.h', r'TOKENRING_API uint32_t tokenring_version_number',
          'TOKENRING_API uint64_t tokenring_version_number')
    t.sub('lib/base/version.c', r'\buint32_t(\s+tokenring_version_number)', r'uint64_t\1')
    return 'tokenring_version_number(): return type uint32_t -> uint64_t (no size_t function built yet)'


def patch_enum(t):
    text = t.read('include/tokenring/common.h')
    body = re.search(r'typedef enum tokenring_status \{(.*?)\} tokenring_status;', text, re.S).group(1)
    name, value = re.findall(r'(TOKENRING_E_\w+)\s*=\s*(-\d+)', body)[-1]
    new = int(value) - 100
    t.sub('include/tokenring/common.h', r'\b%s\s*=\s*%s\b' % (name, value), '%s = %d' % (name, new))
    return '%s renumbered %s -> %d' % (name, value, new)


def patch_removed(t, exported):
    for name in ('tokenring_status_name', 'tokenring_version_string'):
        if name in exported:
            break
    else:
        name = sorted(exported)[-1]
    t.sub('abi/libtokenring.map', r'\n\s*%s;' % name, '')
    return '%s removed from the version script' % name


def patch_struct_size(t):
    t.sub('include/tokenring/common.h', r'(\n)(\} tokenring_allocator;)',
          r'\1    void *abi_test_extra;\n\2')
    return 'tokenring_allocator grows by one pointer (tokenring_set_allocator takes it)'


def patch_return_type(t):
    """tokenring_ring_node_count() returns uint32_t: in ring.h, and in its definition if the
    copy has it (the prototypes check reads the headers only)."""
    name = 'tokenring_ring_node_count'
    t.sub('include/tokenring/ring.h', r'\bsize_t(\s+%s\s*\()' % name, r'uint32_t\1')
    for c in sorted(glob.glob(t.path('lib/*/*.c'))):
        rel = os.path.relpath(c, t.src)
        if re.search(r'\bsize_t\s+%s\s*\([^)]*\)\s*\{' % name, t.read(rel)):
            t.sub(rel, r'\bsize_t(\s+%s\s*\()' % name, r'uint32_t\1')
    return '%s(): return type size_t -> uint32_t (prototypes check only)' % name


def patch_enum_append(t):
    text = t.read('include/tokenring/common.h')
    body = re.search(r'typedef enum tokenring_status \{(.*?)\} tokenring_status;', text, re.S).group(1)
    name, value = re.findall(r'(TOKENRING_E_\w+)\s*=\s*(-\d+)', body)[-1]
    t.sub('include/tokenring/common.h', r'(\b%s\s*=\s*%s)' % (name, value),
          r'\1, /**< x */\n    TOKENRING_E_ABI_TEST = %d' % (int(value) - 1))
    return 'new status TOKENRING_E_ABI_TEST = %d appended' % (int(value) - 1)


def patch_struct_member(t):
    t.sub('include/tokenring/common.h', r'(uint32_t line;[^\n]*\n)(\s*uint32_t column;[^\n]*\n)',
          r'\2\1')
    return 'tokenring_error: members line and column swapped (same size, new offsets)'


def patch_reserved_carve(t):
    t.sub('include/tokenring/common.h', r'uint8_t reserved\[64\];',
          'uint32_t abi_test_new; uint8_t reserved[60];')
    return 'tokenring_error: new member carved from reserved[64] (size unchanged)'


def current_nodes(t):
    """The version nodes of the map, oldest first, and the next minor's node name."""
    nodes = re.findall(r'^(TOKENRING_\d+\.\d+)\s*\{', t.read('abi/libtokenring.map'), re.M)
    major, minor = map(int, re.search(r"version:\s*'(\d+)\.(\d+)\.\d+'",
                                      t.read('meson.build')).groups())
    return nodes, 'TOKENRING_%d.%d' % (major, minor + 1), '%d.%d.0' % (major, minor + 1)


def add_function(t, node):
    t.sub('include/tokenring/common.h', r'(\n#ifdef __cplusplus\n\}\n#endif)',
          r'\n/** Test addition. @return 42 @since 9.9 */\nTOKENRING_API int %s(void);\n\1' % ADDED)
    text = t.read('lib/base/version.c')
    t.write('lib/base/version.c', text + '\nTOKENRING_API int %s(void)\n{\n    return 42;\n}\n' % ADDED)
    nodes, _, _ = current_nodes(t)
    if node in nodes:
        t.sub('abi/libtokenring.map', r'(%s\s*\{\s*global:)' % re.escape(node), r'\1\n    %s;' % ADDED)
    else:
        t.write('abi/libtokenring.map', t.read('abi/libtokenring.map')
                + '\n%s {\n  global:\n    %s;\n} %s;\n' % (node, ADDED, nodes[-1]))


def add_changelog(t, node):
    t.sub('CHANGELOG.md', r'(## \[Unreleased\]\n)',
          r'\1\n### Added\n- `%s()`, a test addition.\n- ABI: adds %s.\n' % (ADDED, node))


def bump_minor(t):
    _, _, version = current_nodes(t)
    t.sub('meson.build', r"version:\s*'\d+\.\d+\.\d+'", "version: '%s'" % version)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--src', default=os.path.dirname(HERE))
    ap.add_argument('--meson', default='meson')
    ap.add_argument('--cc', default=os.environ.get('CC', 'cc'),
                    help='C compiler (GCC or Clang) for abi/prototypes.py')
    ap.add_argument('--keep', action='store_true', help='keep the temporary directory')
    ap.add_argument('--objdir', help='a build directory of the same sources: its object '
                    'files tell which sources the cases need (the rest is not built)')
    args = ap.parse_args()
    for tool in ('abidiff', 'abidw', 'nm'):
        if shutil.which(tool) is None:
            print('SKIP: %s not found' % tool)
            return 77

    tmp = tempfile.mkdtemp(prefix='tokenring-abi-breaks.')
    t0 = time.time()
    failures = []
    try:
        t = Tree(args.src, tmp, args.meson)
        table = {}
        if args.objdir:
            for d in glob.glob(os.path.join(args.objdir, 'lib', 'libtokenring-internal.a.p')):
                table = object_symbols(d, t.src)
        if table and all(os.path.exists(t.path('lib/' + s)) for s in table):
            subset, picked = choose_subset(t, table)
            if t.restrict_sources(subset):
                print('building %d of %d library sources (%s), enough for %s' % (
                    len(subset), len(table), ' '.join(subset), ', '.join(picked)))
        t.setup()
        lib = t.compile()
        res = run([os.path.join(HERE, 'regenerate.sh'), '--lib', lib, '--src', t.src,
                   '--out-dir', t.baseline, '--force'])
        if res.returncode != 0:
            print(res.stdout)
            print('FAIL: could not freeze the pristine copy')
            return 1
        print('froze the pristine copy in %.1fs' % (time.time() - t0))

        def check(lib):
            return run([sys.executable, os.path.join(HERE, 'check-abi.py'), '--lib', lib,
                        '--baseline-dir', t.baseline, '--map', t.path('abi/libtokenring.map'),
                        '--changelog', t.path('CHANGELOG.md'),
                        '--suppressions', os.path.join(HERE, 'suppressions.abignore')])

        def check_protos(_lib):
            return run([sys.executable, os.path.join(HERE, 'prototypes.py'), 'check',
                        '--cc', args.cc, '--include', t.path('include'),
                        '--include', os.path.join(t.build, 'include'),
                        '--baseline-dir', t.baseline])

        def check_both(lib):
            res, pres = check(lib), check_protos(lib)
            if pres.returncode not in (0, 77):
                res.returncode = res.returncode or pres.returncode
                res.stdout += pres.stdout
            return res

        with open(glob.glob(os.path.join(t.baseline, '*.abi'))[0], encoding='utf-8') as f:
            frozen_abi = f.read()

        def case(name, expect_ok, patch, needs_type=None, checker=check_both, must_say=None):
            start = time.time()
            if needs_type and ("name='%s'" % needs_type) not in frozen_abi:
                print('n/a  %-15s %s is not used by any exported function of this build yet'
                      % (name, needs_type))
                return
            try:
                what = patch()
                lib = t.compile()
            except RuntimeError as e:
                failures.append('%s: %s' % (name, e))
                print('ERROR %-15s %s' % (name, e))
                return
            res = checker(lib)
            if res.returncode == 77:
                print('n/a  %-15s %s' % (name, res.stdout.strip()))
                return
            ok = res.returncode == 0
            verdict = 'passes' if ok else 'FAILS (rc %d)' % res.returncode
            good = ok == expect_ok and (must_say is None or must_say in res.stdout)
            print('%s %-15s %-75s check %s, expected %s [%.1fs]' % (
                'ok  ' if good else 'BAD ', name, what, verdict,
                'pass' if expect_ok else 'failure', time.time() - start))
            reasons = [l for l in res.stdout.splitlines()
                       if re.search(r'ABIDIFF_|no longer exported|NEW version node|newer than the '
                                    r'library|CHANGELOG|allowed|\[C\]|\[D\]|changed from|'
                                    r'  - tokenring_\w+: its type', l)]
            for l in reasons[:6]:
                print('        ' + l.strip())
            if not good:
                failures.append(name)
                print(res.stdout)
            if name == 'removed':
                # The symbols test must see it too: declared in a header, not in the map.
                sres = run([sys.executable, os.path.join(HERE, 'check-symbols.py'), '--lib', lib,
                            '--map', t.path('abi/libtokenring.map'),
                            '--include-dir', t.path('include/tokenring')])
                gone = what.split()[0]
                seen = sres.returncode == 1 and re.search(
                    r'missing from the version script \(\d+\):\n\s+%s ' % gone, sres.stdout)
                print('%s %-15s check-symbols %s' % ('ok  ' if seen else 'BAD ', name,
                      'reports %s declared but not in the map' % gone if seen else 'missed it'))
                if not seen:
                    failures.append(name + ' (check-symbols)')
                    print(sres.stdout)

        frozen_text = open(glob.glob(os.path.join(t.baseline, '*.symbols'))[0]).read()
        exported = set(re.findall(r'^(\w+)@', frozen_text, re.M))
        # The newest node the frozen copy exports (the copy is built from a subset of the
        # sources, so it need not hold a symbol of every node of the map).
        frozen_nodes = set(re.findall(r'^\w+@@?(TOKENRING_\d+\.\d+)$', frozen_text, re.M))
        case('pristine', True, lambda: 'unmodified copy')
        cases = [
            ('param-type', False, lambda: patch_param_type(t, exported)),
            ('enum-renumber', False, lambda: patch_enum(t)),
            ('enum-append', True, lambda: patch_enum_append(t)),
            ('removed', False, lambda: patch_removed(t, exported)),
            ('struct-size', False, lambda: patch_struct_size(t)),
            ('struct-member', False, lambda: patch_struct_member(t), 'tokenring_error'),
            ('reserved-carve', False, lambda: patch_reserved_carve(t), 'tokenring_error'),
        ]
        for name, expect_ok, patch, *needs in cases:
            case(name, expect_ok, patch, *needs)
            t.restore()
        case('proto-return', False, lambda: patch_return_type(t), checker=check_protos,
             must_say='tokenring_ring_node_count: its type differs')
        t.restore()

        nodes, new_node, new_version = current_nodes(t)
        last_node = max(frozen_nodes, key=lambda n: tuple(int(x) for x in n.split('_')[1].split('.')))

        def add_old():
            add_function(t, last_node)
            add_changelog(t, last_node)
            return '%s added to the released node %s (CHANGELOG updated)' % (ADDED, last_node)
        case('add-old-node', False, add_old)
        t.restore()

        def add_no_bump():
            add_function(t, new_node)
            add_changelog(t, new_node)
            return '%s in a new node %s, version unchanged' % (ADDED, new_node)
        case('add-no-bump', False, add_no_bump)

        def add_no_log():
            t.restore(keep=('include/tokenring/common.h', 'lib/base/version.c', 'abi/libtokenring.map'))
            bump_minor(t)
            return 'new node %s, version %s, CHANGELOG not updated' % (new_node, new_version)
        case('add-no-log', False, add_no_log)

        def add_right():
            add_changelog(t, new_node)
            return 'new node %s, version %s, CHANGELOG names the symbol and node' % (
                new_node, new_version)
        case('add-right', True, add_right)
    finally:
        if args.keep:
            print('kept ' + tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)

    print('done in %.1fs' % (time.time() - t0))
    if failures:
        print('FAIL: the ABI check did not behave as expected for: ' + ', '.join(failures))
        return 1
    print('OK: every break is caught, every allowed change passes')
    return 0


if __name__ == '__main__':
    sys.exit(main())
