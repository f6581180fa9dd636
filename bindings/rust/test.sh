#!/usr/bin/env bash
# The Rust crates' checks: bindings/rust/test.sh [BUILD_DIR]
#   cargo test (the raw declarations against the header, tokens and replica lists against
#   the golden vectors of tests/data, the doc example), cargo clippy -D warnings, the
#   example, and cargo publish --dry-run of both crates (packaging and building each from
#   its packaged files; skipped when the crate index is unreachable).
# Exits 77 (skipped) when no cargo is found. The only download is the `cc` crate.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
CARGO=${CARGO:-$(command -v cargo || true)}
[ -z "$CARGO" ] && [ -x "$HOME/.cargo/bin/cargo" ] && CARGO=$HOME/.cargo/bin/cargo
if [ -z "$CARGO" ]; then
  echo "rust: no cargo found (apt-get install cargo): skipping"; exit 77
fi
export PATH="$(dirname "$CARGO"):$PATH"
if [ $# -ge 1 ]; then
  export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$(cd "$1" && pwd)/cargo-target}"
fi
export TOKENRING_TEST_DATA="$here/../../tests/data"
cd "$here"
echo "rust: $("$CARGO" --version)"
# The workspace's Cargo.lock is committed (format 3, which cargo 1.63 reads, chosen by cargo
# from rust-version): the tests and the packaging use the versions it pins, whatever the
# registry's index lists as newest that day (a view of it once listed a cc dependency for
# the tests that the packaging step could not find).
# Older toolchains (Debian 12's cargo is Rust 1.63) resolve without regard to rust-version:
# hold the cc crate at a release that still builds there.
rminor=$(rustc --version 2>/dev/null | sed -n 's/^rustc 1\.\([0-9]*\).*/\1/p')
if [ -n "$rminor" ] && [ "$rminor" -lt 70 ]; then
  "$CARGO" generate-lockfile
  "$CARGO" update -p cc --precise 1.0.83
fi
set -x
"$CARGO" test --workspace
"$CARGO" run -q --example route
set +x
if "$CARGO" clippy --version >/dev/null 2>&1; then
  set -x
  "$CARGO" clippy -q --workspace --all-targets -- -D warnings
  set +x
else
  echo "rust: cargo clippy is not installed: lint skipped"
fi
# --workspace publishes the -sys crate to a local registry first (cargo 1.90 or newer).
# That registry lives in the target directory, and cargo unpacks its crates under
# ~/.cargo/registry/src in a folder named after the registry's path, where a crate of the same
# version from an earlier run (a -sys crate without today's declarations) would be reused:
# package in a target directory of this run's own.
pkg_target=$(mktemp -d)
trap 'rm -rf "$pkg_target"' EXIT
if "$CARGO" publish --help 2>/dev/null | grep -q -- '--workspace'; then
  set -x
  CARGO_TARGET_DIR="$pkg_target" "$CARGO" publish --workspace --dry-run --allow-dirty
  set +x
else
  set -x
  CARGO_TARGET_DIR="$pkg_target" "$CARGO" publish -p libtokenring-sys --dry-run --allow-dirty
  set +x
fi
