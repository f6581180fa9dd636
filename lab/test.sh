#!/usr/bin/env bash
# Runs the token ring lab's end-to-end tests: lab/dist (from lab/build.sh) served on
# 127.0.0.1, driven in Debian's headless Chromium by playwright-core, every figure checked
# against the native build of the same glue (build-lab/lab-native). Screenshots go to
# lab/test-results/.
#
# Needs: chromium (Debian), node + npm, and lab/node_modules from `npm ci` (run here when
# missing; playwright-core downloads no browser). See lab/README.md.
set -euo pipefail
lab=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$lab/.." && pwd)
die() { echo "lab/test.sh: $*" >&2; exit 1; }

export CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
export LAB_NATIVE=${LAB_NATIVE:-${BUILD_DIR:-$root/build-lab}/lab-native}
[ -x "$CHROMIUM" ] || die "$CHROMIUM not found (apt-get install chromium)"
command -v node >/dev/null || die "node not found (apt-get install nodejs npm)"
[ -f "$lab/dist/tokenring.wasm" ] || die "lab/dist is not built: run lab/build.sh"
[ -x "$LAB_NATIVE" ] || die "$LAB_NATIVE is not built: run lab/build.sh"
if [ ! -d "$lab/node_modules/playwright-core" ]; then
  (cd "$lab" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --silent)
fi
mkdir -p "$lab/test-results"
cd "$lab"
exec node --test --test-concurrency=1 test/
