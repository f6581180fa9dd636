#!/usr/bin/env bash
# The Go module as a new user gets it: bindings/go/test-module.sh [BUILD_DIR]
# (BUILD_DIR only lends its go-cache folder, so that the bundled source compiles once.)
#   - a fresh module outside the repository that requires the binding through `replace`
#     builds and runs with no libtokenring installed, no pkg-config, no LD_LIBRARY_PATH
#     (cgo compiles the bundled single-file source), and its token and replicas are the
#     ones Cassandra computes;
#   - the same program linked fully static (-ldflags '-extldflags -static') runs;
#   - with CGO_ENABLED=0 the build fails with a message that says cgo is required;
#   - the binding's golden-vector tests pass against the bundled source;
#   - the gocql and gocqlv2 modules build the same way (skipped when the module proxy is
#     unreachable).
# Exits 77 (skipped) when no Go toolchain is found.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
GO=${GO:-$(command -v go || true)}
[ -z "$GO" ] && [ -x /usr/local/go/bin/go ] && GO=/usr/local/go/bin/go
if [ -z "$GO" ] || [ ! -x "$GO" ]; then
  echo "go-module: no Go toolchain found: skipping"; exit 77
fi
minor=$("$GO" env GOVERSION | sed -n 's/^go1\.\([0-9]*\).*/\1/p')
if [ -z "$minor" ] || [ "$minor" -lt 19 ]; then
  echo "go-module: $("$GO" env GOVERSION) is older than Go 1.19: skipping"; exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Nothing of a libtokenring installation or build may help.
unset PKG_CONFIG_PATH LD_LIBRARY_PATH LIBRARY_PATH C_INCLUDE_PATH CPATH CGO_CFLAGS CGO_LDFLAGS
export PKG_CONFIG=/bin/false
export CGO_ENABLED=1 GOTOOLCHAIN=local GOFLAGS=-mod=mod
cache=$tmp/go-cache
# Go's build cache does not see a change of the bundled source (bundle.c includes
# csrc/tokenring/tokenring.c): a cache of its own per version of that file.
bundle=$(sha256sum "$here/csrc/tokenring/tokenring.c" | cut -c1-16)
[ $# -ge 1 ] && cache=$(cd "$1" && pwd)/go-cache-$bundle
export GOCACHE="${TOKENRING_GOCACHE:-$cache}"
[ -n "${HOME:-}" ] || export HOME="$tmp"

mkdir "$tmp/app"
cd "$tmp/app"
# The recipe of README.md ("Getting it").
"$GO" mod init example.com/app >/dev/null 2>&1
"$GO" mod edit -require=github.com/libtokenring/tokenring/bindings/go@v0.0.0 \
  -replace=github.com/libtokenring/tokenring/bindings/go="$here"
cat > main.go <<'GO'
package main

import (
	"fmt"
	"os"

	tokenring "github.com/libtokenring/tokenring/bindings/go"
)

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// The toy ring of the binding's examples: A holds tokens 10 and 50, B 30 and 80, C 65 and 95.
func main() {
	topo, err := tokenring.NewTopology()
	must(err)
	defer topo.Close()
	must(topo.AddNode("A", "dc1", "r1", []int64{10, 50}))
	must(topo.AddNode("B", "dc1", "r1", []int64{30, 80}))
	must(topo.AddNode("C", "dc1", "r1", []int64{65, 95}))
	ring, err := topo.Build()
	must(err)
	defer ring.Close()
	repl, err := tokenring.NewSimpleStrategy(2, 0)
	must(err)
	defer repl.Close()
	p, err := tokenring.BuildPlacement(ring, repl, 0)
	must(err)
	defer p.Close()
	r42, err := p.AppendReplicaNames(nil, 42)
	must(err)
	r97, err := p.AppendReplicaNames(nil, 97)
	must(err)
	fmt.Println(tokenring.Version(), r42, r97, tokenring.Token([]byte("hello")))
}
GO
echo "+ go run (fresh module, replace => bindings/go, bundled source)"
"$GO" mod tidy >/dev/null
out=$("$GO" run .)
echo "$out"
# Replicas as the binding's examples give them; the token of "hello" as Cassandra computes it
# (tests/data/murmur3_cql_values.tsv).
[ "${out#* }" = "[A C] [A B] -3758069500696749310" ] || { echo "go-module: wrong answer: $out" >&2; exit 1; }

echo "+ go build -ldflags '-extldflags -static'"
"$GO" build -o app-static -ldflags '-extldflags -static' .
if command -v ldd >/dev/null; then
  deps=$(ldd ./app-static 2>&1 || true)
  case "$deps" in
    *"not a dynamic executable"*|*"statically linked"*) ;;
    *) echo "go-module: app-static is not static: $deps" >&2; exit 1 ;;
  esac
fi
[ "$(./app-static)" = "$out" ]
echo "static binary OK: $(./app-static)"

echo "+ CGO_ENABLED=0 go build"
if msg=$(CGO_ENABLED=0 "$GO" build . 2>&1); then
  echo "go-module: CGO_ENABLED=0 built, expected the cgo-required message" >&2; exit 1
fi
echo "$msg"
echo "$msg" | grep -q 'tokenring_binding_requires_cgo__build_with_CGO_ENABLED_1_and_a_C_compiler' \
  || { echo "go-module: CGO_ENABLED=0 failed without the cgo-required message" >&2; exit 1; }

echo "+ go test (golden vectors, bundled source)"
cd "$here"
GOPROXY=off "$GO" test -count=1 -run 'TestTokenVectors|TestReplicaVectors|TestHeaderInSync' .

# The driver adapters: gocql v1.7 (package tokenringgocql) and the Apache driver v2
# (package tokenringgocqlv2), each over the hostpolicy core.
for mod in gocql:tokenringgocql gocqlv2:tokenringgocqlv2; do
  dir=${mod%%:*} pkg=${mod#*:}
  echo "+ $dir module (bundled source), and a fresh module using it with README's two replace lines"
  cd "$here/$dir"
  if "$GO" mod download >/dev/null 2>&1; then
    "$GO" build ./... && "$GO" vet ./... && echo "$dir module builds with no libtokenring installed"
    mkdir "$tmp/${dir}app" && cd "$tmp/${dir}app"
    "$GO" mod init "example.com/${dir}app" >/dev/null 2>&1
    "$GO" mod edit -require="github.com/libtokenring/tokenring/bindings/go/$dir@v0.0.0" \
      -replace="github.com/libtokenring/tokenring/bindings/go/$dir=$here/$dir" \
      -replace=github.com/libtokenring/tokenring/bindings/go="$here"
    printf 'package main\n\nimport (\n\t"fmt"\n\n\t%s "github.com/libtokenring/tokenring/bindings/go/%s"\n)\n\nfunc main() {\n\tp := %s.NewPolicy(nil)\n\tdefer p.Close()\n\tfmt.Println(p != nil)\n}\n' "$pkg" "$dir" "$pkg" > main.go
    "$GO" mod tidy >/dev/null 2>&1
    "$GO" build -o "${dir}app" . && [ "$(./"${dir}app")" = true ] && echo "fresh $dir module builds and runs"
  else
    echo "$dir module: the module proxy ($("$GO" env GOPROXY)) is unreachable: skipped"
  fi
done
