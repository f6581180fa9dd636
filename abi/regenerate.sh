#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Re-freeze the ABI baseline: abi/libtokenring-MAJOR.MINOR.abi, .symbols and .prototypes.h.
#
#   abi/regenerate.sh                 clean debugoptimized build in a temporary directory
#   abi/regenerate.sh BUILDDIR        use (and first bring up to date) an existing build
#   abi/regenerate.sh --lib SO [--src DIR] [--out-dir DIR]
#                                     freeze a given library built from the tree DIR
#   --force                           freeze even if abi/check-symbols.py disagrees
#
# Run it only when a release is cut (see abi/README.md), then commit the three files with
# the version-script node and the CHANGELOG entry of that release. It refuses to freeze a
# library whose exports, version script and headers disagree (abi/check-symbols.py).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
src=$(dirname "$here")
out_dir=$here
lib=
builddir=
tmp=
force=no
lib_src=$src

while [ $# -gt 0 ]; do
    case $1 in
        --lib) lib=$2; shift 2 ;;
        --out-dir) out_dir=$2; shift 2 ;;
        --src) lib_src=$2; shift 2 ;;
        --force) force=yes; shift ;;
        -h|--help) sed -n '3,13p' "$0"; exit 0 ;;
        *) builddir=$1; shift ;;
    esac
done

command -v abidw >/dev/null || { echo "abidw not found: apt-get install abigail-tools" >&2; exit 1; }

if [ -z "$lib" ]; then
    if [ -z "$builddir" ]; then
        tmp=$(mktemp -d)
        trap 'rm -rf "$tmp"' EXIT
        builddir=$tmp/build
        log=$tmp/setup.log
        meson setup "$builddir" "$src" --buildtype=debugoptimized -Dtests=false \
            -Dtools=false -Dbench=false -Ddocs=disabled -Dabi_check=disabled \
            -Dbindings=disabled >"$log" 2>&1 || { cat "$log" >&2; echo "meson setup failed" >&2; exit 1; }
    fi
    log=$(mktemp)
    meson compile -C "$builddir" tokenring:shared_library >"$log" 2>&1 || {
        tail -n 30 "$log" >&2; rm -f "$log"; echo "build failed" >&2; exit 1; }
    rm -f "$log"
    lib=$(find "$builddir/lib" -maxdepth 1 -type f -name 'libtokenring.so.*.*.*' | head -n 1)
fi

# The versioned file name gives the release: libtokenring.so.1.2.3 -> 1.2
version=$(basename "$lib" | sed -n 's/^libtokenring\.so\.\([0-9]*\)\.\([0-9]*\)\.[0-9]*$/\1.\2/p')
[ -n "$version" ] || { echo "cannot read the version from $lib (expected libtokenring.so.X.Y.Z)" >&2; exit 1; }

if ! readelf -S "$lib" | grep -q '\.debug_info'; then
    echo "$lib has no debug info: build with -g (buildtype debug or debugoptimized)" >&2
    exit 1
fi

if ! python3 "$here/check-symbols.py" --lib "$lib" --map "$lib_src/abi/libtokenring.map" \
        --include-dir "$lib_src/include/tokenring" >&2; then
    if [ $force = yes ]; then
        echo "WARNING: freezing anyway (--force); this baseline is provisional" >&2
    else
        echo "refusing to freeze: fix the disagreement above first (or --force)" >&2
        exit 1
    fi
fi

mkdir -p "$out_dir"
abi=$out_dir/libtokenring-$version.abi
syms=$out_dir/libtokenring-$version.symbols

# The exact freeze command. No paths of the build machine end up in the file:
# --no-corpus-path / --no-comp-dir-path drop the library's and the compile directory's
# paths, --short-locs keeps only file names; --headers-dir with --drop-private-types
# keeps only types declared in the public headers (opaque handles stay opaque);
# --type-id-style hash keeps ids stable between freezes. --drop-undefined-syms drops the
# declarations of functions a translation unit only calls: without it libabigail 2.2 keeps
# the first one it reads and discards the definition read later, and the function's
# parameter and return types go unrecorded ("not referenced by debug info").
abidw --no-corpus-path --no-comp-dir-path --short-locs --type-id-style hash \
      --drop-private-types --drop-undefined-syms --headers-dir "$lib_src/include/tokenring" \
      --out-file "$abi" "$lib"

nm -D --defined-only "$lib" | awk '$2 != "A" { print $3 }' | LC_ALL=C sort > "$syms"

# The functions' types once more, from the headers: abi/prototypes.py (test `prototypes`)
# has the compiler check the current declarations against them, independently of abidw.
python3 "$here/prototypes.py" freeze --include-dir "$lib_src/include/tokenring" \
    --version "$version" --out "$out_dir/libtokenring-$version.prototypes.h" >/dev/null

echo "froze $(wc -l < "$syms") symbols of libtokenring $version:"
echo "  $abi"
echo "  $syms"
echo "  $out_dir/libtokenring-$version.prototypes.h"
