#!/usr/bin/env bash
# Builds the token ring lab into lab/dist/:
#   tokenring.wasm   the library's own sources (the list Meson builds the library from) plus
#                    lab/glue.c,
#                    compiled with clang's wasm32-wasi target against Debian's wasi-libc
#   index.html, app.js, style.css, build-info.json
# and, for the browser tests, build-lab/lab-native: the same sources and glue built with the
# host compiler, so the tests can compare the page with the C library's own answers.
#
# Installs nothing. Needs (Debian): clang lld wasi-libc libclang-rt-14-dev-wasm32 and a host
# C compiler and Meson (see lab/README.md). Environment overrides: CLANG, CC, WASI_SYSROOT,
# BUILD_DIR, MESON_BUILD_DIR, LAB_LIB_SOURCES.
set -euo pipefail
lab=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$lab/.." && pwd)
cd "$root"

CLANG=${CLANG:-$(command -v clang-14 || command -v clang || true)}
WASI_SYSROOT=${WASI_SYSROOT:-/usr}
BUILD_DIR=${BUILD_DIR:-$root/build-lab}
wasm_obj=$BUILD_DIR/wasm
dist=$lab/dist

die() { echo "lab/build.sh: $*" >&2; exit 1; }
[ -n "$CLANG" ] || die "clang not found (apt-get install clang lld)"
[ -f "$WASI_SYSROOT/include/wasm32-wasi/stdio.h" ] ||
  die "wasi-libc headers not found under $WASI_SYSROOT/include/wasm32-wasi (apt-get install wasi-libc)"
command -v wasm-ld >/dev/null || command -v wasm-ld-14 >/dev/null ||
  die "wasm-ld not found (apt-get install lld)"
builtins=$("$CLANG" --target=wasm32-wasi -print-libgcc-file-name 2>/dev/null || true)
[ -f "$builtins" ] ||
  die "compiler-rt builtins for wasm32 not found ($builtins) (apt-get install libclang-rt-14-dev-wasm32)"

# The library's sources: exactly the .c files Meson builds the library from (so a file
# someone is still writing, not yet in the build, is not compiled here either), as
# `meson introspect` reports them for a build directory of this tree: MESON_BUILD_DIR if
# given, else a minimal one under BUILD_DIR (library only; reconfigured on every run, so a
# source added to a folder's meson.build is seen). The same build directory gives
# tokenring/version.h, configured by Meson. LAB_LIB_SOURCES (paths relative
# to lib/, such as "base/alloc.c ring/ring.c") overrides the list.
command -v meson >/dev/null || die "meson not found (apt-get install meson, or the project's venv)"
meson_build=${MESON_BUILD_DIR:-$BUILD_DIR/meson}
if [ -z "${MESON_BUILD_DIR:-}" ]; then
  reconfigure=()
  [ -f "$meson_build/meson-info/intro-targets.json" ] && reconfigure=(--reconfigure)
  meson setup "${reconfigure[@]}" "$meson_build" "$root" -Dtests=false -Dtools=false \
    -Dbench=false -Ddocs=disabled -Dbindings=disabled -Dabi_check=disabled \
    -Dfuzzing=false >/dev/null || die "meson setup $meson_build failed"
fi
if [ -n "${LAB_LIB_SOURCES:-}" ]; then
  read -r -a lib_sources <<< "$LAB_LIB_SOURCES"
else
  mapfile -t lib_sources < <(meson introspect "$meson_build" --targets | python3 -c '
import json, os, sys
root = os.path.realpath(sys.argv[1])
for t in json.load(sys.stdin):
    if t["name"] == "tokenring-internal":
        for group in t["target_sources"]:
            for s in group["sources"]:
                if s.endswith(".c"):
                    print(os.path.relpath(os.path.realpath(s), os.path.join(root, "lib")))
' "$root")
fi
[ ${#lib_sources[@]} -gt 0 ] || die "no library sources in the Meson build $meson_build"
version_h_dir=$meson_build/include
[ -f "$version_h_dir/tokenring/version.h" ] ||
  die "$version_h_dir/tokenring/version.h not configured (meson setup --reconfigure $meson_build)"
# every lib/ folder is on the library's include path (lib/meson.build)
lib_inc=()
for d in lib/*/; do lib_inc+=("-I${d%/}"); done

# Native twin for the tests: the same sources with the host compiler, plus the checker.
cc=${CC:-cc}
"$cc" -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -pthread -Iinclude \
  -I"$version_h_dir" "${lib_inc[@]}" -I"$lab" "${lib_sources[@]/#/lib/}" "$lab/glue.c" \
  "$lab/native_check.c" -lm -o "$BUILD_DIR/lab-native"

# WebAssembly module: the same sources, one object each, then one reactor module.
mkdir -p "$wasm_obj" "$dist"
cflags=(--target=wasm32-wasi --sysroot="$WASI_SYSROOT" -std=c11 -O2 -Wall -Wextra
        -D_POSIX_C_SOURCE=200809L -fvisibility=hidden -Iinclude -I"$version_h_dir"
        "${lib_inc[@]}" -I"$lab")
objs=()
for src in "${lib_sources[@]}" ../lab/glue.c; do
  obj=$wasm_obj/$(basename "${src%.c}").o  # the file names are unique across lib/
  "$CLANG" "${cflags[@]}" -c "lib/$src" -o "$obj"
  objs+=("$obj")
done
"$CLANG" --target=wasm32-wasi --sysroot="$WASI_SYSROOT" -mexec-model=reactor -O2 \
  -Wl,--strip-debug -Wl,-z,stack-size=1048576 "${objs[@]}" -lm -o "$dist/tokenring.wasm"

# Static page.
cp "$lab/src/index.html" "$lab/src/app.js" "$lab/src/style.css" "$dist/"
{
  printf '{\n  "library_version": "%s",\n' \
    "$(sed -n 's/^#define TOKENRING_VERSION_STRING "\(.*\)"/\1/p' "$version_h_dir/tokenring/version.h")"
  printf '  "compiler": "%s",\n' "$("$CLANG" --version | head -n1 | sed 's/"/\\"/g')"
  printf '  "target": "wasm32-wasi (wasi-libc), reactor module",\n'
  printf '  "sources": ['
  sep=
  for src in "${lib_sources[@]}"; do printf '%s"lib/%s"' "$sep" "$src"; sep=', '; done
  printf ', "lab/glue.c"],\n'
  printf '  "wasm_sha256": "%s"\n}\n' "$(sha256sum "$dist/tokenring.wasm" | cut -d' ' -f1)"
} > "$dist/build-info.json"
echo "lab: built $dist ($(wc -c < "$dist/tokenring.wasm") bytes of wasm from ${#lib_sources[@]} library sources + glue)"
