#!/usr/bin/env bash
# Builds libtokenring and its command-line tool, then runs the tool on the built-in demo
# ring (six nodes, eight tokens each, layout seed one, one datacenter).
# Extra arguments are passed to the tool, e.g. scripts/demo.sh getendpoints demo user42
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh build
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Quiet when all goes well; the whole log when a step fails.
{ [ -f build/build.ninja ] || meson setup build; } >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
meson compile -C build tools/tokenring:executable >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
if [ $# -eq 0 ]; then
  set -- demo
fi
build/tools/tokenring "$@"
