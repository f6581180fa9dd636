#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Run Doxygen with warnings as errors, then check what Doxygen cannot: every public
function, type, enum, macro and variable of include/tokenring carries an @since.

Doxygen itself (WARN_IF_UNDOCUMENTED, WARN_NO_PARAMDOC, WARN_AS_ERROR=FAIL_ON_WARNINGS)
fails on an undocumented function, parameter, return value, type, enumerator or macro.
This script reads the XML it writes (GENERATE_XML in the check configuration) and fails
when a documented public entity has no "@since" section (enumerators and struct members
inherit it from their enum or struct).

Usage: check-docs.py DOXYGEN DOXYFILE XML_DIR
"""
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

KINDS = {'function', 'define', 'typedef', 'enum', 'variable'}


def has_since(node):
    return any(s.get('kind') == 'since' for s in node.iter('simplesect'))


def main():
    doxygen, doxyfile, xml_dir = sys.argv[1:4]
    res = subprocess.run([doxygen, doxyfile], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         universal_newlines=True)
    if res.stdout.strip():
        print(res.stdout.rstrip())
    if res.returncode != 0:
        print('FAIL: Doxygen reported warnings (they are errors)')
        return 1

    missing, seen = [], 0
    for name in sorted(os.listdir(xml_dir)):
        if not name.endswith('.xml') or name in ('index.xml', 'Doxyfile.xml'):
            continue
        root = ET.parse(os.path.join(xml_dir, name)).getroot()
        for comp in root.iter('compounddef'):
            kind = comp.get('kind')
            loc = comp.find('location')
            path = loc.get('file') if loc is not None else ''
            if kind in ('struct', 'union') and path.endswith('.h'):
                seen += 1
                # a struct's @since is on its typedef'd definition comment
                if not has_since(comp.find('detaileddescription')) and \
                        not has_since(comp.find('briefdescription')):
                    missing.append('struct %s (%s)' % (comp.findtext('compoundname'),
                                                       os.path.basename(path)))
            if kind != 'file':
                continue
            for member in comp.iter('memberdef'):
                if member.get('kind') not in KINDS:
                    continue
                mloc = member.find('location')
                mpath = mloc.get('file') if mloc is not None else ''
                if os.path.basename(mpath) != os.path.basename(path):
                    continue  # listed in another file's page
                mname = member.findtext('name')
                if mname.endswith('_H') and member.get('kind') == 'define':
                    continue  # include guards
                seen += 1
                if not (has_since(member.find('detaileddescription'))
                        or has_since(member.find('briefdescription'))):
                    missing.append('%s %s (%s:%s)' % (member.get('kind'), mname,
                                                      os.path.basename(mpath), mloc.get('line')))
    print('%d public entities checked for @since' % seen)
    if missing:
        print('FAIL: missing @since:\n  ' + '\n  '.join(sorted(set(missing))))
        return 1
    print('OK: Doxygen is clean and every public entity says @since')
    return 0


if __name__ == '__main__':
    sys.exit(main())
