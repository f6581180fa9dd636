#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The installed static archive exposes the public API only.

Installs the build (meson install --destdir) into a temporary directory, then checks the
installed libtokenring.a:
  1. nm: every global symbol it defines is in the version script (the names the shared
     library exports), and it defines all of them; it leaves no internal name undefined;
     it keeps the debug information of the objects it was made from.
  2. A program that defines its own tr_free, tr_fail and tr_cpu_features, and a symbol of
     every other internal name the library's objects define globally (read from the
     internal archive), links against it with `pkg-config --static` and runs: the library
     calls its own functions, never the program's, and the program's are its own.
  3. The control: the same program fails to link against the internal archive (the
     objects as compiled), so step 2 tests something.

Usage: check-static.py --builddir DIR --internal INTERNAL.a --map libtokenring.map
                       [--not-localized]
Exit status: 0 when all hold, 1 otherwise, 77 (skip) without nm, pkg-config or a
static libc, or with --not-localized: the build said it could not localize the archive
on this toolchain (lib/meson.build warns then).
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import importlib.util  # noqa: E402

_spec = importlib.util.spec_from_file_location('check_symbols', os.path.join(HERE, 'check-symbols.py'))
check_symbols = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_symbols)

# The names the program defines with behaviour of its own; every other internal name gets a
# plain definition.
OWN = '''
static int own_free_calls, own_fail_calls, own_cpu_calls;
#if !ONLY_CPU
/* Different signatures from the library's: a program's names are its own business. */
void tr_free(void *p) { (void)p; own_free_calls++; }
int tr_fail(int code) { own_fail_calls++; return code; }
#endif
/* Claims every processor feature: the library must ask the processor, not this. */
unsigned tr_cpu_features(void) { own_cpu_calls++; return ~0u; }
'''

MAIN = r'''
static int check(int ok, const char *what)
{
    if (!ok)
        fprintf(stderr, "FAIL: %s\n", what);
    return ok ? 0 : 1;
}

int main(void)
{
    static const int64_t tokens[3][2] = {
        {-6000000000000000000LL, 0}, {-3000000000000000000LL, 3000000000000000000LL},
        {-1000000000000000000LL, 6000000000000000000LL}};
    static const char *const names[3] = {"n1", "n2", "n3"};
    const char *repl = "{'class': 'NetworkTopologyStrategy', 'dc1': '2'}";
    tokenring_error err;
    tokenring_topology *topo = NULL;
    tokenring_ring *ring = NULL;
    tokenring_replication *r = NULL;
    tokenring_placement *p = NULL;
    int bad = 0;

    bad |= check(tokenring_topology_new(&topo) == TOKENRING_OK, "topology_new");
    for (int i = 0; i < 3 && !bad; i++)
        bad |= check(tokenring_topology_add_node(topo, names[i], "dc1", "r1", tokens[i], 2,
                                                 &err) == TOKENRING_OK, "add_node");
    /* A failing call: the library fills err through its own tr_fail. */
    memset(&err, 0, sizeof err);
    bad |= check(tokenring_topology_add_node(topo, "n1", "dc1", "r1", tokens[0], 2, &err)
                 == TOKENRING_E_EXISTS && err.message[0] != '\0', "the library's own tr_fail");
    bad |= check(tokenring_ring_build(&ring, topo, &err) == TOKENRING_OK, "ring_build");
    bad |= check(tokenring_replication_parse(&r, repl, strlen(repl), &err) == TOKENRING_OK,
                 "replication_parse");
    /* Building a placement asks tr_cpu_features (the popcount path of its lookups). */
    bad |= check(tokenring_placement_build(&p, ring, r, 0, &err) == TOKENRING_OK,
                 "placement_build");
    if (!bad) {
        tokenring_replicas out;
        bad |= check(tokenring_placement_replicas_for_key(&out, p, "k", 1) == TOKENRING_OK
                     && out.count == 2, "replicas_for_key");
    }
    tokenring_placement_free(p);
    tokenring_replication_free(r);
    tokenring_ring_free(ring);
    tokenring_topology_free(topo);
    bad |= check(own_free_calls == 0, "the library called the program's tr_free");
    bad |= check(own_fail_calls == 0, "the library called the program's tr_fail");
    if (own_cpu_calls != 0)
        printf("the library called the program's tr_cpu_features %d times\n", own_cpu_calls);
    bad |= check(own_cpu_calls == 0, "the library called the program's tr_cpu_features");
    /* The program's own definitions are the ones it calls. */
#if !ONLY_CPU
    tr_free(NULL);
    bad |= check(own_free_calls == 1 && tr_fail(7) == 7 && own_fail_calls == 1,
                 "the program's own tr_free and tr_fail");
#endif
    bad |= check(tr_cpu_features() == ~0u, "the program's own tr_cpu_features");
    if (!bad)
        printf("the program defines %u internal name(s); the library used its own\n",
               (unsigned)INTERNAL_NAMES);
    return bad;
}
'''


def defined_globals(nm, archive):
    """Names of the global symbols the archive's members define (nm -g --defined-only)."""
    out = subprocess.run([nm, '-g', '--defined-only', archive], check=True,
                         stdout=subprocess.PIPE, universal_newlines=True).stdout
    return {p[2] for p in (line.split() for line in out.splitlines()) if len(p) == 3}


def undefined(nm, archive):
    out = subprocess.run([nm, '-u', archive], check=True, stdout=subprocess.PIPE,
                         universal_newlines=True).stdout
    return {p[-1] for p in (line.split() for line in out.splitlines()) if p and not p[-1].endswith(':')}


def has_debug_info(readelf, archive):
    if readelf is None:
        return None
    out = subprocess.run([readelf, '-S', '--wide', archive], stdout=subprocess.PIPE,
                         universal_newlines=True).stdout
    return '.debug_info' in out


def program(internal_names, only_cpu=False):
    """The program: defines every internal name, or (only_cpu) tr_cpu_features alone."""
    lines = ['#include <stdint.h>', '#include <stdio.h>', '#include <string.h>',
             '#include <tokenring/tokenring.h>', '#define ONLY_CPU %d' % only_cpu, OWN]
    if not only_cpu:
        for n in sorted(internal_names - {'tr_free', 'tr_fail', 'tr_cpu_features'}):
            lines.append('int %s = 1;' % n)  # a data symbol: clashes with a function as well
    lines.append('#define INTERNAL_NAMES %d' % (1 if only_cpu else len(internal_names)))
    lines.append(MAIN)
    return '\n'.join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--builddir', required=True)
    ap.add_argument('--internal', required=True, help='the internal (not installed) archive')
    ap.add_argument('--map', required=True)
    ap.add_argument('--cc', default=os.environ.get('CC', 'cc'))
    ap.add_argument('--nm', default=os.environ.get('NM', 'nm'))
    ap.add_argument('--meson', default='meson')
    ap.add_argument('--not-localized', dest='localized', action='store_false',
                    help='the build could not localize the archive\'s internal symbols: skip')
    args = ap.parse_args()
    cc = shlex.split(args.cc)
    for tool in (args.nm, 'pkg-config', cc[0], args.meson):
        if shutil.which(tool) is None:
            print('SKIP: %s not found' % tool)
            return 77

    public, _ = check_symbols.parse_map(args.map)
    internal = defined_globals(args.nm, args.internal) - set(public)
    if not any(n.startswith('tr_') for n in internal):
        print('FAIL: found no internal tr_* name in %s: the extraction is broken' % args.internal)
        return 1

    with tempfile.TemporaryDirectory(prefix='tokenring-static.') as tmp:
        dest = os.path.join(tmp, 'dest')
        r = subprocess.run([args.meson, 'install', '-C', args.builddir, '--no-rebuild',
                            '--destdir', dest, '--quiet'], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        if r.returncode != 0:
            print(r.stdout + 'FAIL: meson install')
            return 1
        found = {n: os.path.join(d, n) for d, _, files in os.walk(dest) for n in files
                 if n in ('libtokenring.a', 'tokenring.pc')}
        if 'libtokenring.a' not in found or 'tokenring.pc' not in found:
            print('FAIL: libtokenring.a or tokenring.pc was not installed')
            return 1
        archive = found['libtokenring.a']
        print('installed archive: %s' % os.path.relpath(archive, dest))

        problems = []
        # 1. nm of the installed archive.
        exported = defined_globals(args.nm, archive)
        if not args.localized:
            print('SKIP: this build installs the objects as compiled (lib/meson.build '
                  'warned: no ELF target, GNU-compatible linker, objcopy or ar, or LTO)')
            return 77
        check_symbols.report('global symbols of libtokenring.a that are not public API',
                             exported - set(public), problems)
        check_symbols.report('public functions missing from libtokenring.a',
                             set(public) - exported, problems)
        check_symbols.report('internal names libtokenring.a leaves undefined',
                             {n for n in undefined(args.nm, archive) if n in internal and n not in exported},
                             problems)
        readelf = shutil.which('readelf')
        if has_debug_info(readelf, args.internal) and not has_debug_info(readelf, archive):
            problems.append('libtokenring.a lost the debug information of its objects')
        print('libtokenring.a: %d global symbols, %d of them public API; the objects define '
              '%d internal names' % (len(exported), len(exported & set(public)), len(internal)))

        # 2. A program defining every internal name links and runs.
        env = dict(os.environ, PKG_CONFIG_PATH='',
                   PKG_CONFIG_LIBDIR=os.path.dirname(found['tokenring.pc']),
                   PKG_CONFIG_SYSROOT_DIR=dest)
        flags = subprocess.run(['pkg-config', '--cflags', '--static', '--libs', 'tokenring'],
                               env=env, check=True, stdout=subprocess.PIPE,
                               universal_newlines=True).stdout.split()
        def build(name, only_cpu, link):
            src = os.path.join(tmp, name + '.c')
            with open(src, 'w', encoding='utf-8') as f:
                f.write(program(internal, only_cpu))
            exe = os.path.join(tmp, name)
            r = subprocess.run(cc + ['-std=c11', '-Wall', '-Werror', '-o', exe, src] + link,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True)
            return exe, r

        def run_exe(exe):
            r = subprocess.run([exe], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True)
            return r.returncode, r.stdout.strip()

        # 2. -static takes libtokenring.a (not the .so beside it) and libc.a, as a static
        # user would; the internal names are globals of the program.
        for name, only_cpu in (('own_names', False), ('own_cpu_features', True)):
            exe, r = build(name, only_cpu, ['-static'] + flags)
            if r.returncode != 0 and re.search(r'cannot find -lc\b|cannot find -lpthread', r.stdout):
                print('SKIP: no static C library to link with:\n' + r.stdout)
                return 77
            if r.returncode != 0:
                problems.append('%s.c does not link against the installed libtokenring.a:\n%s'
                                % (name, r.stdout[-3000:]))
                continue
            rc, out = run_exe(exe)
            print('%s: %s' % (name, out))
            if rc != 0:
                problems.append('%s linked but failed (exit %d)' % (name, rc))

        # 3. The controls, against the objects as compiled (the internal archive): the
        # program defining every name cannot link; the one defining tr_cpu_features alone
        # links, and the library calls the program's function instead of its own.
        plain = [os.path.abspath(args.internal), '-lpthread'] + \
            [x for x in flags if not x.startswith(('-l', '-L'))]
        _, r = build('ctrl_names', False, plain)
        if r.returncode == 0 or 'multiple definition' not in r.stdout:
            problems.append('control: own_names.c links against the internal archive too '
                            '(the test no longer tests anything):\n' + r.stdout[-2000:])
        else:
            print('control: own_names.c against the internal archive fails to link '
                  '(multiple definition of %s, ...)'
                  % re.search(r"multiple definition of [`'](\w+)", r.stdout).group(1))
        exe, r = build('ctrl_cpu', True, plain)
        rc, out = run_exe(exe) if r.returncode == 0 else (None, r.stdout)
        if rc != 1 or 'the library called' not in out:
            problems.append('control: with the internal archive the library did not call the '
                            'program\'s tr_cpu_features (the test no longer tests anything):\n'
                            + out[-2000:])
        else:
            print('control: own_cpu_features.c against the internal archive links, and %s'
                  % next(x for x in out.splitlines() if 'the library called' in x))

        if problems:
            print('FAIL:')
            for p in problems:
                print('  ' + p)
            return 1
    print('OK: libtokenring.a defines the public API only')
    return 0


if __name__ == '__main__':
    sys.exit(main())
