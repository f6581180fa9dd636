#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (+ ASan/UBSan) and runs each for a bounded time,
# starting from the committed corpus in fuzz/corpus/<target>. New interesting inputs go to
# a scratch folder; a crash leaves its input in build-fuzz/crashes/ and fails the run: add
# it to fuzz/corpus/<target>/ with the fix, so the replay test keeps checking it.
#   scripts/fuzz.sh [SECONDS_PER_TARGET]   (default 20)
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-20}
. scripts/configure.sh
CC=clang configure build-fuzz -Dfuzzing=true -Db_sanitize=address,undefined -Db_lundef=false \
  -Dbuildtype=debugoptimized -Ddocs=disabled -Dbindings=disabled -Dabi_check=disabled \
  -Dtests=false -Dbench=false -Dtools=false
meson compile -C build-fuzz >/dev/null
mkdir -p build-fuzz/crashes
status=0
for bin in build-fuzz/fuzz/fuzz-*; do
  [ -f "$bin" ] && [ -x "$bin" ] || continue
  t=${bin##*/fuzz-}
  scratch=$(mktemp -d)
  echo "fuzz: $t for ${secs}s"
  if ! UBSAN_OPTIONS=halt_on_error=1 "$bin" -max_total_time="$secs" -print_final_stats=0 \
       -artifact_prefix="build-fuzz/crashes/$t-" "$scratch" "fuzz/corpus/$t" \
       >"build-fuzz/$t.log" 2>&1; then
    echo "fuzz: $t FAILED (see build-fuzz/$t.log and build-fuzz/crashes/)"; tail -30 "build-fuzz/$t.log"
    status=1
  else
    grep -E "^#[0-9]+.*(DONE|pulse)" "build-fuzz/$t.log" | tail -1 || true
  fi
  rm -rf "$scratch"
done
exit $status
