#!/usr/bin/env bash
# The Python package as a new user gets it: bindings/python/test-install.sh [DATA_DIR]
#   - `python -m build` (in a throwaway virtual environment) makes an sdist and a wheel of
#     the distribution libtokenring from this checkout; the wheel's extension holds the
#     library (the bundled single-file source) and needs nothing outside the wheel;
#   - fresh virtual environments, with no libtokenring installed, no pkg-config and no
#     LD_LIBRARY_PATH, install the wheel, the sdist and `pip install ./bindings/python`,
#     and each computes tokens and replica lists equal to the C library's golden vectors
#     (check_install.py).
# Needs the package index (build, setuptools, cffi): exits 77 (skipped) when it is
# unreachable or no Python with venv is found.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
data=${1:-$here/../../tests/data}
data=$(cd "$data" && pwd)
PY=${TOKENRING_INSTALL_PYTHON:-$(command -v python3 || true)}
[ -n "$PY" ] || { echo "install: no python3: skipping"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset PKG_CONFIG_PATH LD_LIBRARY_PATH LIBRARY_PATH CPATH C_INCLUDE_PATH \
  TOKENRING_BUILD_DIR TOKENRING_PREFIX TOKENRING_PKG_CONFIG PYTHONPATH VIRTUAL_ENV
export PKG_CONFIG=/bin/false PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1

venv() {
  "$PY" -m venv "$tmp/$1" || { echo "install: $PY cannot create a venv (python3-venv): skipping"; exit 77; }
}
venv tools
if ! "$tmp/tools/bin/pip" install -q build >"$tmp/pip.log" 2>&1; then
  cat "$tmp/pip.log"
  echo "install: the package index is unreachable (pip install build failed): skipping"
  exit 77
fi

echo "+ python -m build bindings/python"
start=$SECONDS
"$tmp/tools/bin/python" -m build --outdir "$tmp/dist" "$here" >"$tmp/build.log" 2>&1 \
  || { cat "$tmp/build.log"; exit 1; }
ls "$tmp/dist"
echo "built in $((SECONDS - start)) s"
sdist=$(ls "$tmp"/dist/libtokenring-*.tar.gz)
wheel=$(ls "$tmp"/dist/libtokenring-*.whl)
# The sdist carries the single-file source; the wheel the extension, and no library.
tar tzf "$sdist" >"$tmp/sdist.txt"
grep -q '/csrc/tokenring/tokenring\.c$' "$tmp/sdist.txt" || { echo "sdist lacks csrc/tokenring/tokenring.c" >&2; exit 1; }
grep -q '/tokenring/_speedups\.c$' "$tmp/sdist.txt" || { echo "sdist lacks tokenring/_speedups.c" >&2; exit 1; }
"$tmp/tools/bin/python" - "$wheel" <<'PYEOF'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
assert any(n.startswith("tokenring/_native") for n in names), names
assert not any("libtokenring.so" in n for n in names), names
# the optional C fast paths are built where a compiler is (CPython, as here)
assert any(n.startswith("tokenring/_speedups") for n in names), names
print("wheel:", ", ".join(n for n in names if "_native" in n))
PYEOF

for what in wheel sdist checkout; do
  venv "$what"
  case $what in
    wheel) src=$wheel ;;
    sdist) src=$sdist ;;
    checkout) src=$here ;;
  esac
  echo "+ pip install ${src#"$tmp"/} (fresh venv)"
  start=$SECONDS
  "$tmp/$what/bin/pip" install -q "$src" >"$tmp/$what.log" 2>&1 || { cat "$tmp/$what.log"; exit 1; }
  # (a copy: run from here, Python would import the source tree's tokenring)
  cp "$here/check_install.py" "$tmp/check_install.py"
  (cd "$tmp" && "$tmp/$what/bin/python" check_install.py "$data")
  echo "$what: installed and checked in $((SECONDS - start)) s"
done
# A checkout install leaves no build/ behind to be reused by the next one.
[ ! -d "$here/build" ] || { echo "install: $here/build was left behind" >&2; exit 1; }
