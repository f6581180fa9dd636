#!/usr/bin/env bash
# The live stage: libtokenring against a real Cassandra cluster (live/README.md).
#   live/run.sh BUILD_DIR [pytest args...]
# Builds the Python binding's cffi extension and the Go checker (live/go) against
# BUILD_DIR's library, then, for each Cassandra release in turn, runs live/test_live.py and
# live/test_drivers.py (the drivers' policies; it builds the live tests of bindings/go/gocql
# and bindings/go/gocqlv2, fetching the drivers from the Go module proxy) with the project's .venv.
#
# Releases: TOKENRING_CASSANDRA_VERSION=X (one release), else TOKENRING_CASSANDRA_VERSIONS
# (space-separated), else every line of live/versions (6.0 pre-release, 5.0.x, 4.1.x, 4.0.x).
# Driver checks: TOKENRING_LIVE_DRIVERS=all (every release, the default; on 6.0, whose
# replica order follows the cluster's history, the Python and Go policies', which read
# that history), =0 (none), or a list of releases. Then
# live/test_partitioners.py (RandomPartitioner and ByteOrderedPartitioner clusters) on the first release; TOKENRING_LIVE_PARTITIONERS=0
# skips it, TOKENRING_LIVE_MAIN=0 skips the main stage (to run that part alone).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [pytest args...]" >&2; exit 2; }
build=$(cd "$1" && pwd); shift
py=${TOKENRING_PYTHON:-.venv/bin/python}
[ -x "$py" ] || { echo "live: $py is missing: run scripts/deps.sh live" >&2; exit 1; }
command -v go >/dev/null || { [ -x /usr/local/go/bin/go ] && export PATH="$PATH:/usr/local/go/bin"; }
command -v go >/dev/null || { echo "live: no Go toolchain (scripts/deps.sh live installs one)" >&2; exit 1; }

read -r -a versions <<< "${TOKENRING_CASSANDRA_VERSION:-${TOKENRING_CASSANDRA_VERSIONS:-$(cat live/versions)}}"
[ ${#versions[@]} -gt 0 ] || { echo "live: no Cassandra release to run" >&2; exit 2; }
for v in "${versions[@]}"; do
  # X.Y.Z, or a pre-release X.Y-alphaN/-betaN/-rcN (as Maven names them: 6.0-alpha2)
  [[ $v =~ ^[0-9]+\.[0-9]+(\.[0-9]+)?(-(alpha|beta|rc)[0-9]+)?$ ]] || { echo "live: bad Cassandra release '$v' (want e.g. 5.0.9 or 6.0-alpha2)" >&2; exit 2; }
done
drivers=${TOKENRING_LIVE_DRIVERS:-all}

meson compile -C "$build" >/dev/null
"$py" bindings/python/tokenring_cffi_build.py --build-dir "$build" >/dev/null
(cd live/go && PKG_CONFIG_PATH="$build/meson-uninstalled" GOPROXY=off GOTOOLCHAIN=local \
   GOFLAGS=-mod=mod CGO_ENABLED=1 GOCACHE="$build/go-cache" go build -o "$build/livecheck" .)
export TOKENRING_BUILD_DIR="$build"
export PYTHONPATH="$PWD/bindings/python:$PWD/live${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONDONTWRITEBYTECODE=1

times=()
t_all=$SECONDS
for v in "${versions[@]}"; do
  [ "${TOKENRING_LIVE_MAIN:-1}" != 0 ] || break
  tests=(live/test_live.py)
  case " $drivers " in
    " all ") tests+=(live/test_drivers.py) ;;
    *" $v "*) tests+=(live/test_drivers.py) ;;
  esac
  printf '\n---- live: Cassandra %s (%s)\n' "$v" "${tests[*]}"
  t0=$SECONDS
  TOKENRING_CASSANDRA_VERSION=$v "$py" -m pytest -p no:cacheprovider -v -s --durations=0 \
    "${tests[@]}" "$@"
  times+=("$v: $(( (SECONDS - t0) / 60 )) min $(( (SECONDS - t0) % 60 )) s (${#tests[@]} files)")
done
# RandomPartitioner and ByteOrderedPartitioner clusters, on the first release only (their
# handling does not differ between the release lines); TOKENRING_LIVE_PARTITIONERS=0 skips.
if [ "${TOKENRING_LIVE_PARTITIONERS:-1}" != 0 ]; then
  v=${versions[0]}
  printf '\n---- live: Cassandra %s (live/test_partitioners.py)\n' "$v"
  t0=$SECONDS
  TOKENRING_CASSANDRA_VERSION=$v "$py" -m pytest -p no:cacheprovider -v -s --durations=0 \
    live/test_partitioners.py "$@"
  times+=("$v partitioners: $(( (SECONDS - t0) / 60 )) min $(( (SECONDS - t0) % 60 )) s")
fi
printf '\nlive stage: %s; total %d min %d s\n' "$(IFS=';'; echo "${times[*]}" | sed 's/;/; /g')" \
  $(( (SECONDS - t_all) / 60 )) $(( (SECONDS - t_all) % 60 ))
