#!/usr/bin/env bash
# Runs every test of libtokenring from a clean clone: installs what is missing, builds,
# then runs the C unit tests, the ABI and documentation checks, the command-line tool's
# golden tests, the Python and Go bindings' suites (all through `meson test`), the whole
# unit suite again under AddressSanitizer + UndefinedBehaviorSanitizer and under valgrind, the
# concurrency test under ThreadSanitizer, the coverage of lib/ (fails below 95 % of lines or
# 90 % of branches), each fuzz target for a bounded time, the browser lab, and the live
# stage (a real Cassandra cluster started on 127.0.0.1..5, live/README.md).
# doc/testing.md describes each stage.
#
#   scripts/test.sh            everything
#   scripts/test.sh quick      the main build's meson test only
#   scripts/test.sh live       the main build, then the live stage only
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}
jobs=$(nproc 2>/dev/null || echo 2)

# A Go toolchain installed from go.dev's archive lives in /usr/local/go (prefer it to
# Debian's older golang-go, which deps.sh installs only when no go is found).
command -v go >/dev/null || { [ -x /usr/local/go/bin/go ] && export PATH="$PATH:/usr/local/go/bin"; }
if [ "$mode" = live ]; then scripts/deps.sh live; else scripts/deps.sh test; fi
export PATH="$PWD/.venv/bin:$PATH"     # pytest, cffi, numpy ... for the Python suite
. scripts/configure.sh                  # configure DIR -D...: every stage's exact options

# Every stage must leave the machine as it found it; /dev/null has been seen replaced by a
# regular file on a shared machine, so each stage checks it is still the null device.
last_stage="start"
step() {
  [ -c /dev/null ] || { echo "error: /dev/null is no longer a device after: $last_stage" >&2; exit 1; }
  last_stage=$*
  printf '\n==== %s\n' "$*"
}

step "build (debugoptimized, with debug info for the ABI check)"
configure build -Dwerror=true
meson compile -C build -j "$jobs"

# The live stage: Cassandra's release jars (Maven, cached in ~/.m2 and
# ~/.cache/tokenring-cassandra), a 4-node cluster on loopback for each release of
# live/versions (5.0.x, 4.1.x, 4.0.x; TOKENRING_CASSANDRA_VERSION=X runs one), every answer
# compared with the library's, the tool's and the Python and Go bindings' (and the driver policies'). Stops every JVM it started,
# also on failure.
live_stage() {
  step "live: real Cassandra clusters (${TOKENRING_CASSANDRA_VERSION:-${TOKENRING_CASSANDRA_VERSIONS:-$(cat live/versions)}}) against the library, the tool, the bindings and the driver policies"
  scripts/deps.sh live
  live/run.sh build
}
if [ "$mode" = live ]; then
  live_stage
  exit 0
fi

step "meson test: unit, abi, docs, cli, python, go, dist (single file), install (Python packages), rust"
meson test -C build --print-errorlogs --num-processes "$jobs"

[ "$mode" = quick ] && exit 0

step "unit tests under AddressSanitizer + UndefinedBehaviorSanitizer"
configure build-asan -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug \
  -Ddocs=disabled -Dbindings=disabled
meson compile -C build-asan -j "$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  meson test -C build-asan --suite unit --print-errorlogs --num-processes "$jobs"

step "unit tests and fuzz corpus replays under valgrind memcheck (no errors, no leaks)"
configure build-vg -Dbuildtype=debugoptimized -Ddocs=disabled -Dbindings=disabled \
  -Dabi_check=disabled -Dbench=false -Dtools=false
meson compile -C build-vg -j "$jobs"
# The valgrind test setup (top-level meson.build): memcheck with errors and definite or
# indirect leaks failing, fewer random cases (TOKENRING_TEST_QUICK, ..._WORLDS), 4x timeouts.
meson test -C build-vg --setup=valgrind --suite unit --suite fuzz --print-errorlogs \
  --num-processes "$jobs"

step "concurrency test under ThreadSanitizer"
configure build-tsan -Db_sanitize=thread -Db_lundef=false -Dbuildtype=debugoptimized \
  -Ddocs=disabled -Dbindings=disabled -Dabi_check=disabled -Dbench=false -Dtools=false
meson compile -C build-tsan -j "$jobs"
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
  meson test -C build-tsan concurrency ring_lazy router_concurrency router example_proxy --print-errorlogs --num-processes "$jobs"

step "coverage of lib/ (unit, fuzz replays, cli): at least 95 % of lines and 90 % of branches"
configure build-cov -Db_coverage=true -Dbuildtype=debug -Ddocs=disabled -Dbindings=disabled \
  -Dabi_check=disabled -Dbench=false
meson compile -C build-cov -j "$jobs"
find build-cov -name '*.gcda' -delete       # counts from this run only
meson test -C build-cov --suite unit --suite fuzz --suite cli --print-errorlogs \
  --num-processes "$jobs"
mkdir -p build-cov/coverage
# Branches the compiler adds that no input can take are left out (see doc/testing.md).
gcovr -r . build-cov --filter 'lib/' --exclude-unreachable-branches --exclude-throw-branches \
  --txt build-cov/coverage/files.txt --html-details build-cov/coverage/index.html \
  --print-summary --fail-under-line 95 --fail-under-branch 90 | tee build-cov/coverage/summary.txt
echo "per-file figures: build-cov/coverage/files.txt, annotated sources: build-cov/coverage/index.html"

step "fuzzing: every libFuzzer target for a bounded time (clang, ASan + UBSan)"
scripts/fuzz.sh "${TOKENRING_FUZZ_SECONDS:-15}"

if [ -x lab/test.sh ]; then
  step "browser lab (WebAssembly build + headless Chromium)"
  lab/build.sh
  lab/test.sh
fi

live_stage

step "done"
printf '\nall test stages passed\n'
