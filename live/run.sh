#!/usr/bin/env bash
# The live stage: libtokenring against a real Cassandra cluster (live/README.md).
#   live/run.sh BUILD_DIR [pytest args...]
# Builds the Python binding's cffi extension and the Go checker (live/go) against
# BUILD_DIR's library, then runs live/test_live.py and live/test_drivers.py (the drivers'
# policies; it builds bindings/go/gocql's live test, fetching gocql from the Go module
# proxy) with the project's .venv.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [pytest args...]" >&2; exit 2; }
build=$(cd "$1" && pwd); shift
py=${TOKENRING_PYTHON:-.venv/bin/python}
[ -x "$py" ] || { echo "live: $py is missing: run scripts/deps.sh live" >&2; exit 1; }
command -v go >/dev/null || { [ -x /usr/local/go/bin/go ] && export PATH="$PATH:/usr/local/go/bin"; }
command -v go >/dev/null || { echo "live: no Go toolchain (scripts/deps.sh live installs one)" >&2; exit 1; }

meson compile -C "$build" >/dev/null
"$py" bindings/python/tokenring_cffi_build.py --build-dir "$build" >/dev/null
(cd live/go && PKG_CONFIG_PATH="$build/meson-uninstalled" GOPROXY=off GOTOOLCHAIN=local \
   GOFLAGS=-mod=mod CGO_ENABLED=1 GOCACHE="$build/go-cache" go build -o "$build/livecheck" .)
export TOKENRING_BUILD_DIR="$build"
export PYTHONPATH="$PWD/bindings/python:$PWD/live${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONDONTWRITEBYTECODE=1
# The driver policies' live checks (live/test_drivers.py) are opt-in until their after-join
# phase is stable: right after a join a session's system.peers can still lag the ring.
tests=(live/test_live.py)
[ "${TOKENRING_LIVE_DRIVERS:-0}" = 1 ] && tests+=(live/test_drivers.py)
exec "$py" -m pytest -p no:cacheprovider -v -s "${tests[@]}" "$@"
