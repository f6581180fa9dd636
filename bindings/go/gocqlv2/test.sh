#!/usr/bin/env bash
# Runs the gocqlv2 module's checks against a Meson build of libtokenring:
#   bindings/go/gocqlv2/test.sh BUILD_DIR
# go mod download (the Apache driver v2 and its dependencies from the Go module proxy,
# checked against go.sum), go vet, go test -race (offline: the driver's hosts from its
# NewTestHostInfoFromRow, statements of the tests' own, no server), one pass of every
# benchmark. The live half (-tags live) runs in the live stage.
# Exits 77 (skipped) when no Go toolchain is found.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
GO=${GO:-$(command -v go || true)}
[ -z "$GO" ] && [ -x /usr/local/go/bin/go ] && GO=/usr/local/go/bin/go
if [ -z "$GO" ] || [ ! -x "$GO" ]; then
  echo "gocqlv2: no Go toolchain found: skipping"; exit 77
fi
minor=$("$GO" env GOVERSION | sed -n 's/^go1\.\([0-9]*\).*/\1/p')
if [ -z "$minor" ] || [ "$minor" -lt 19 ]; then
  echo "gocqlv2: $("$GO" env GOVERSION) is older than Go 1.19: skipping"; exit 77
fi
if command -v ldd >/dev/null && ldd "$build/lib/libtokenring.so" 2>/dev/null | grep -qE 'lib(asan|ubsan|tsan|lsan)'; then
  echo "gocqlv2: $build is a sanitizer build: skipping"; exit 77
fi
export PKG_CONFIG_PATH="$build/meson-uninstalled${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export LD_LIBRARY_PATH="$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# Against this build's library (-tags libtokenring); test-module.sh builds the bundled one.
export CGO_ENABLED=1 GOTOOLCHAIN=local GOFLAGS="-mod=mod -tags=libtokenring"
export GOCACHE="${TOKENRING_GOCACHE:-$build/go-cache}"
[ -n "${HOME:-}" ] || export HOME="$build"
cd "$here"
set -x
"$GO" mod download
"$GO" vet ./...
"$GO" vet -tags live,libtokenring ./...
"$GO" test -race -count=1 ./...
"$GO" test -count=1 -run '^$' -bench . -benchtime 1x ./... >/dev/null
