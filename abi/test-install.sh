#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Installed-package test: `meson install --destdir` the current build into a temporary
# directory, then build an example program OUTSIDE the source tree with nothing but
# `pkg-config --cflags --libs tokenring`, run it against the shared library, and again
# linked with `pkg-config --static` against the static archive (no NEEDED libtokenring).
#
# Usage: test-install.sh BUILDDIR EXAMPLE.c PROJECT_VERSION
set -eu
builddir=$1
example=$2
version=$3
cc=${CC:-cc}

for tool in meson pkg-config readelf "$cc"; do
    command -v "$tool" >/dev/null || { echo "SKIP: $tool not found"; exit 77; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tokenring-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/dest

meson install -C "$builddir" --no-rebuild --destdir "$dest" --quiet >"$tmp/install.log" 2>&1 || {
    cat "$tmp/install.log"; echo "FAIL: meson install"; exit 1; }

pc=$(find "$dest" -name tokenring.pc | head -n 1)
[ -n "$pc" ] || { echo "FAIL: tokenring.pc was not installed"; find "$dest"; exit 1; }
echo "installed: $(find "$dest" -type f | sed "s|^$dest||" | sort | tr '\n' ' ')"

# pkg-config sees only the installed tree: the sysroot maps the .pc file's prefix into
# the destdir, and nothing else is on the search path.
PKG_CONFIG_PATH=
PKG_CONFIG_LIBDIR=$(dirname "$pc")
PKG_CONFIG_SYSROOT_DIR=$dest
export PKG_CONFIG_PATH PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR

got=$(pkg-config --modversion tokenring)
[ "$got" = "$version" ] || { echo "FAIL: installed tokenring.pc says $got, project is $version"; exit 1; }

work=$tmp/outside
mkdir "$work"
cp "$example" "$work/example.c"
cd "$work"

cflags=$(pkg-config --cflags tokenring)
libs=$(pkg-config --libs tokenring)
echo "cflags: $cflags"
echo "libs:   $libs"
# shellcheck disable=SC2086
"$cc" -std=c11 -Wall -Werror -o example-shared example.c $cflags $libs
libdir=$(dirname "$(dirname "$pc")")
LD_LIBRARY_PATH=$libdir ./example-shared > shared.out || { cat shared.out; echo "FAIL: shared example"; exit 1; }
readelf -d example-shared | grep -q 'NEEDED.*libtokenring\.so\.' || {
    echo "FAIL: the shared example does not need libtokenring.so"; exit 1; }
# Make sure it really ran the installed copy.
LD_LIBRARY_PATH=$libdir ldd ./example-shared 2>/dev/null | grep libtokenring || true

static_libs=$(pkg-config --static --libs tokenring)
echo "static: $static_libs"
# -static makes the linker take libtokenring.a (and libc.a): the program must not need
# anything at run time.
# shellcheck disable=SC2086
"$cc" -std=c11 -Wall -Werror -static -o example-static example.c $cflags $static_libs
if readelf -d example-static | grep -q 'NEEDED.*libtokenring'; then
    echo "FAIL: the static example still needs libtokenring.so"; exit 1
fi
env -u LD_LIBRARY_PATH ./example-static > static.out || { cat static.out; echo "FAIL: static example"; exit 1; }
cmp shared.out static.out || { echo "FAIL: shared and static outputs differ"; exit 1; }

# A program that references every exported function pulls every object out of the
# archive: a static link then fails if tokenring.pc's Libs.private misses a library
# (libm, libpthread) that some part of the library needs.
so=$(find "$libdir" -maxdepth 1 -type f -name 'libtokenring.so.*' | head -n 1)
{
    echo '#include <stdio.h>'
    echo '#include <tokenring/tokenring.h>'
    echo 'typedef void (*any_fn)(void);'
    echo 'static const any_fn all[] = {'
    nm -D --defined-only "$so" | awk '$2 == "T" { sub(/@.*/, "", $3); print "    (any_fn)" $3 "," }'
    echo '};'
    echo 'int main(void) { return printf("%u functions linked statically", (unsigned)(sizeof all / sizeof all[0])) > 0 ? 0 : 1; }'
} > allsyms.c
# shellcheck disable=SC2086
"$cc" -std=c11 -Wall -Werror -static -o allsyms-static allsyms.c $cflags $static_libs || {
    echo "FAIL: linking every function statically needs more than pkg-config --static gives"; exit 1; }
env -u LD_LIBRARY_PATH ./allsyms-static && echo
cat shared.out
echo "OK: installed package builds and runs with pkg-config (shared and static)"
