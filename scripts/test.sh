#!/usr/bin/env bash
# Runs every test of libtokenring from a clean clone: installs what is missing, builds,
# then runs the C unit tests, the ABI and documentation checks, the command-line tool's
# golden tests, the Python and Go bindings' suites (all through `meson test`), the whole
# unit suite again under AddressSanitizer + UndefinedBehaviorSanitizer, and the browser lab.
#
#   scripts/test.sh            everything
#   scripts/test.sh quick      the main build's meson test only
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}
jobs=$(nproc 2>/dev/null || echo 2)

scripts/deps.sh test
export PATH="$PWD/.venv/bin:$PATH"     # pytest, cffi, numpy ... for the Python suite
command -v go >/dev/null || export PATH="$PATH:/usr/local/go/bin"

step() { printf '\n==== %s\n' "$*"; }

step "build (debugoptimized, with debug info for the ABI check)"
[ -f build/build.ninja ] || meson setup build -Dwerror=true >/dev/null
meson compile -C build -j "$jobs"

step "meson test: unit, abi, docs, cli, python, go"
meson test -C build --print-errorlogs --num-processes "$jobs"

[ "$mode" = quick ] && exit 0

step "unit tests under AddressSanitizer + UndefinedBehaviorSanitizer"
[ -f build-asan/build.ninja ] || meson setup build-asan -Db_sanitize=address,undefined \
  -Db_lundef=false -Dbuildtype=debug -Ddocs=disabled -Dbindings=disabled >/dev/null
meson compile -C build-asan -j "$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  meson test -C build-asan --suite unit --print-errorlogs --num-processes "$jobs"

if [ -x lab/test.sh ]; then
  step "browser lab (WebAssembly build + headless Chromium)"
  lab/build.sh
  lab/test.sh
fi

printf '\nall test stages passed\n'
