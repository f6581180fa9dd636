#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check a built libtokenring against every frozen ABI baseline in abi/.

For each baseline abi/libtokenring-X.Y.abi of the library's major version X (with its
exported-symbol list abi/libtokenring-X.Y.symbols):

1. abidiff --no-added-syms --suppressions abi/suppressions.abignore BASELINE LIB.
   abidiff's exit status is a bit field and ANY set bit fails the check:
     1 ABIDIFF_ERROR            the tool itself failed
     2 ABIDIFF_USAGE_ERROR      bad invocation
     4 ABIDIFF_ABI_CHANGE       a change that may or may not be compatible (a changed
                                parameter type or struct size shows up only as this bit)
     8 ABIDIFF_ABI_INCOMPATIBLE_CHANGE  certainly incompatible (a removed symbol)
   We deliberately do not pass --headers-dir2: it makes types from system headers
   (size_t, uint32_t) "private" and hides a size_t -> uint32_t parameter change.
2. No symbol of the baseline may disappear or move to another version node.
3. Symbols added since the baseline are accepted only when all of these hold:
   - each is exported under a version node that the baseline does not have and whose
     version is newer than every node of the baseline (TOKENRING_1.1 after 1.0);
   - that node is not newer than the library's own MAJOR.MINOR (bump the minor);
   - the version script declares the node as inheriting from an older node;
   - CHANGELOG.md names every added symbol and the new node ("ABI: adds TOKENRING_1.1").
4. The baseline's .abi and .symbols files list the same symbols (both come from one
   run of abi/regenerate.sh).

Usage: check-abi.py --lib build/lib/libtokenring.so.X.Y.Z
         [--baseline-dir abi] [--map abi/libtokenring.map] [--changelog CHANGELOG.md]
         [--suppressions abi/suppressions.abignore] [--version X.Y.Z]
Exit: 0 compatible, 1 incompatible or inconsistent, 77 abidiff/nm missing.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRCDIR = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import importlib.util  # noqa: E402

_spec = importlib.util.spec_from_file_location('check_symbols', os.path.join(HERE, 'check-symbols.py'))
check_symbols = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_symbols)

ABIDIFF_BITS = [
    (1, 'ABIDIFF_ERROR: abidiff failed (unreadable input, missing debug info?)'),
    (2, 'ABIDIFF_USAGE_ERROR: abidiff was invoked wrongly'),
    (4, 'ABIDIFF_ABI_CHANGE: the ABI changed (parameter/return types, struct layout or '
        'size, enumerator values): review; compatible changes need a suppression with a reason'),
    (8, 'ABIDIFF_ABI_INCOMPATIBLE_CHANGE: incompatible change (a symbol was removed)'),
]


def decode_abidiff(rc):
    msgs = [msg for bit, msg in ABIDIFF_BITS if rc & bit]
    rest = rc & ~0xF
    if rest:
        msgs.append('unknown abidiff bits 0x%x' % rest)
    return msgs


def node_version(node):
    m = re.match(r'^[A-Z_]+_(\d+)\.(\d+)$', node or '')
    return (int(m.group(1)), int(m.group(2))) if m else None


def read_symbols_file(path):
    syms = {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            name, _, node = line.partition('@@')
            if not node:
                name, _, node = line.partition('@')
            syms[name] = node or None
    return syms


def abi_file_symbols(path):
    with open(path, encoding='utf-8') as f:
        text = f.read()
    return set(re.findall(r"<elf-symbol name='([^']+)'", text))


def baselines(directory):
    found = []
    for name in os.listdir(directory):
        m = re.match(r'^libtokenring-(\d+)\.(\d+)\.abi$', name)
        if m:
            found.append(((int(m.group(1)), int(m.group(2))), os.path.join(directory, name)))
    return sorted(found)


def lib_version(lib, override):
    text = override
    if not text:
        m = re.search(r'\.so\.(\d+\.\d+\.\d+)$', os.path.realpath(lib))
        text = m.group(1) if m else None
    if not text:
        return None
    major, minor = text.split('.')[:2]
    return int(major), int(minor)


def changelog_mentions(changelog, word):
    return re.search(r'(?<![\w.])' + re.escape(word) + r'(?!\w|\.\d)', changelog) is not None


def check_one(args, version, abi_path, exported, map_nodes, changelog, lib_ver, problems):
    label = 'baseline %d.%d' % version
    sym_path = abi_path[:-len('.abi')] + '.symbols'
    if not os.path.exists(sym_path):
        problems.append('%s: %s is missing (re-run abi/regenerate.sh)' % (label, sym_path))
        return
    frozen = read_symbols_file(sym_path)
    in_abi = abi_file_symbols(abi_path)
    if set(frozen) != in_abi:
        problems.append('%s: %s and %s list different symbols (only in .abi: %s; only in '
                        '.symbols: %s): freeze both with abi/regenerate.sh' % (
                            label, os.path.basename(abi_path), os.path.basename(sym_path),
                            sorted(in_abi - set(frozen)), sorted(set(frozen) - in_abi)))

    # 1. abidiff, every bit counts.
    cmd = [args.abidiff, '--no-added-syms']
    if args.suppressions and os.path.exists(args.suppressions):
        cmd += ['--suppressions', args.suppressions]
    cmd += [abi_path, args.lib]
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         universal_newlines=True)
    if res.returncode != 0:
        problems.append('%s: abidiff exited with %d = %s\n%s\n      command: %s\n%s' % (
            label, res.returncode, ' | '.join('%d' % b for b, _ in ABIDIFF_BITS if res.returncode & b),
            '\n'.join('      - ' + m for m in decode_abidiff(res.returncode)),
            ' '.join(cmd), '\n'.join('      ' + l for l in res.stdout.rstrip().splitlines())))
    else:
        print('%s: abidiff clean (%s)' % (label, ' '.join(cmd[1:-2])))

    # 2. nothing frozen may vanish or change node.
    removed = sorted(n for n in frozen if n not in exported)
    if removed:
        problems.append('%s: %d frozen symbols are no longer exported: %s' % (
            label, len(removed), ', '.join(removed)))
    moved = sorted('%s (%s -> %s)' % (n, frozen[n], exported[n])
                   for n in frozen if n in exported and exported[n] != frozen[n])
    if moved:
        problems.append('%s: symbols moved to another version node (binaries link '
                        'name@NODE): %s' % (label, ', '.join(moved)))

    # 3. additions: new node, newer than the baseline, minor bumped, changelog.
    added = sorted(n for n in exported if n not in frozen)
    if not added:
        print('%s: no symbols added' % label)
        return
    base_nodes = set(frozen.values())
    newest_base = max((node_version(n) for n in base_nodes if node_version(n)), default=version)
    parents = dict(map_nodes)
    by_node = {}
    for n in added:
        by_node.setdefault(exported[n], []).append(n)
    for node, names in sorted(by_node.items(), key=lambda kv: str(kv[0])):
        nv = node_version(node)
        where = '%s: %d added symbol(s) in node %s (%s)' % (label, len(names), node, ', '.join(names))
        bad = []
        if node in base_nodes or nv is None or nv <= newest_base:
            bad.append('an addition needs a NEW version node, newer than %s, in '
                       'abi/libtokenring.map (e.g. TOKENRING_%d.%d { global: ...; } TOKENRING_%d.%d;)'
                       % (', '.join(sorted(base_nodes)) or 'the baseline', newest_base[0],
                          newest_base[1] + 1, newest_base[0], newest_base[1]))
            if lib_ver == version:
                bad.append('(or, if %d.%d is not released yet and the baseline was frozen '
                           'early, re-freeze it: abi/regenerate.sh)' % version)
        else:
            if lib_ver is not None and nv > lib_ver:
                bad.append('node %s is newer than the library version %d.%d: bump the '
                           'project minor version in meson.build' % (node, lib_ver[0], lib_ver[1]))
            if not parents.get(node):
                bad.append('node %s must inherit from the previous node in the version '
                           'script ("} TOKENRING_%d.%d;")' % (node, newest_base[0], newest_base[1]))
            if not changelog_mentions(changelog, node):
                bad.append('CHANGELOG.md does not say "ABI: adds %s"' % node)
            missing = [n for n in names if not changelog_mentions(changelog, n)]
            if missing:
                bad.append('CHANGELOG.md does not mention: %s' % ', '.join(missing))
        if bad:
            problems.append(where + ':\n' + '\n'.join('      - ' + b for b in bad))
        else:
            print(where + ': allowed (new node, version script and CHANGELOG agree)')


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--lib', required=True)
    ap.add_argument('--baseline-dir', default=HERE)
    ap.add_argument('--map', default=os.path.join(HERE, 'libtokenring.map'))
    ap.add_argument('--changelog', default=os.path.join(SRCDIR, 'CHANGELOG.md'))
    ap.add_argument('--suppressions', default=os.path.join(HERE, 'suppressions.abignore'))
    ap.add_argument('--version', help='library version X.Y.Z (default: from the file name)')
    ap.add_argument('--abidiff', default=os.environ.get('ABIDIFF', 'abidiff'))
    args = ap.parse_args()

    for tool in (args.abidiff, 'nm'):
        if shutil.which(tool) is None:
            print('SKIP: %s not found (apt-get install abigail-tools binutils)' % tool)
            return 77
    lib_ver = lib_version(args.lib, args.version)
    found = baselines(args.baseline_dir)
    if lib_ver is not None:
        # A new major (new SONAME) makes no promise to older majors' binaries.
        found = [(v, p) for v, p in found if v[0] == lib_ver[0]]
    if not found:
        print('FAIL: no baseline libtokenring-X.Y.abi in %s: run abi/regenerate.sh' % args.baseline_dir)
        return 1
    with open(args.changelog, encoding='utf-8') as f:
        changelog = f.read()
    _, map_nodes = check_symbols.parse_map(args.map)
    exported, _ = check_symbols.exported_symbols(args.lib)

    problems = []
    for version, path in found:
        check_one(args, version, path, exported, map_nodes, changelog, lib_ver, problems)
    if problems:
        print('FAIL: %s is not ABI-compatible with the frozen baseline:' % os.path.basename(
            os.path.realpath(args.lib)))
        for p in problems:
            print('  ' + p)
        print('If the change is intended, read abi/README.md (bump rules, regenerate.sh).')
        return 1
    print('OK: compatible with %s' % ', '.join('%d.%d' % v for v, _ in found))
    return 0


if __name__ == '__main__':
    sys.exit(main())
