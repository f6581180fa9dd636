#!/usr/bin/env bash
# Runs the Go binding's checks against a Meson build of libtokenring:
#   bindings/go/test.sh BUILD_DIR
# go vet, go test -race (golden vectors, errors, concurrency, examples) with cgocheck,
# the whole suite again under GOEXPERIMENT=cgocheck2 when the toolchain supports it, a
# static link, and one pass of every benchmark.
# Exits 77 (skipped) when no Go toolchain is found.
# Needs no downloads: the module uses the standard library only.
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)

GO=${GO:-}
if [ -z "$GO" ]; then
  GO=$(command -v go || true)
  [ -z "$GO" ] && [ -x /usr/local/go/bin/go ] && GO=/usr/local/go/bin/go
fi
if [ -z "$GO" ] || [ ! -x "$GO" ]; then
  echo "go: no Go toolchain found (install golang-go or put go on PATH): skipping"
  exit 77
fi

# go.mod asks for Go 1.19 (Debian 12's golang-go); older toolchains skip.
gover=$("$GO" env GOVERSION 2>/dev/null || true)
minor=$(echo "$gover" | sed -n 's/^go1\.\([0-9]*\).*/\1/p')
if [ -z "$minor" ] || [ "$minor" -lt 19 ]; then
  echo "go: $GO is ${gover:-of unknown version}; the binding needs Go 1.19 or newer: skipping"
  exit 77
fi

pc="$build/meson-uninstalled/tokenring-uninstalled.pc"
if [ ! -f "$pc" ]; then
  echo "go: $pc is missing: is $build a configured Meson build directory?" >&2
  exit 1
fi
# A sanitizer build's library needs its runtime loaded first, which a Go test binary does
# not do: the Go suite runs against plain builds only.
if command -v ldd >/dev/null && ldd "$build/lib/libtokenring.so" 2>/dev/null | grep -qE 'lib(asan|ubsan|tsan|lsan)'; then
  echo "go: $build is a sanitizer build: skipping (run the Go suite in a plain build)"
  exit 77
fi
export PKG_CONFIG_PATH="$build/meson-uninstalled${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export LD_LIBRARY_PATH="$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export CGO_ENABLED=1
# Against this build's library (the tag libtokenring; without it the module compiles its
# bundled single-file source, which test-module.sh checks).
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-tags=libtokenring"
# Offline and reproducible: no module or toolchain downloads.
export GOPROXY=off GOTOOLCHAIN=local
# A build cache of this build directory's own: cgo's link flags come from pkg-config, and a
# shared cache can hold a link step made against another build directory's library.
export GOCACHE="${TOKENRING_GOCACHE:-$build/go-cache}"
if [ -z "${HOME:-}" ]; then
  export HOME="$build"
fi

cd "$here"
echo "go: $("$GO" version); library $(pkg-config --modversion tokenring) from $build"
set -x
"$GO" vet ./...
GODEBUG=cgocheck=1 "$GO" test -race -count=1 ./...
GODEBUG=cgocheck=1 "$GO" test -count=1 -run '^Example' -v ./... | grep -E '^(=== RUN|--- |ok|FAIL|PASS)' | grep -v '=== RUN'
set +x
if GOEXPERIMENT=cgocheck2 "$GO" version >/dev/null 2>&1; then
  set -x
  GOEXPERIMENT=cgocheck2 "$GO" test -count=1 ./...
  set +x
else
  echo "go: GOEXPERIMENT=cgocheck2 not supported by this toolchain; ran with GODEBUG=cgocheck=1 only"
fi
# The static library (-tags libtokenring,static links libtokenring.a; nothing to find at
# run time).
if [ -f "$build/lib/libtokenring.a" ]; then
  set -x
  "$GO" test -tags libtokenring,static -count=1 -run 'TestTokenVectors|TestReplicaVectors|TestHeaderInSync' ./...
  set +x
fi
set -x
# Every benchmark once, so that they keep compiling and running.
"$GO" test -count=1 -run '^$' -bench . -benchtime 1x ./... >/dev/null
