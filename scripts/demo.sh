#!/usr/bin/env bash
# Builds libtokenring and its command-line tool, then runs the tool on the built-in demo
# ring (six nodes, eight tokens each, layout seed one, one datacenter).
# Extra arguments are passed to the tool, e.g. scripts/demo.sh getendpoints demo user42
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh build
[ -f build/build.ninja ] || meson setup build >/dev/null
meson compile -C build tokenring >/dev/null
if [ $# -eq 0 ]; then
  set -- demo
fi
exec build/tools/tokenring "$@"
