#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Compile a documentation example against the freshly built library and run it.
# Usage: run-example.sh CC SOURCE.c LIBRARY.so INCLUDE_DIR...
set -eu
cc=$1 src=$2 lib=$3
shift 3
incs=
for d in "$@"; do incs="$incs -I$d"; done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tokenring-example.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2086
$cc -std=c11 -Wall -Wextra -Wpedantic -Werror $incs "$src" "$lib" -o "$tmp/example"
LD_LIBRARY_PATH=$(dirname "$lib") "$tmp/example"
