#!/usr/bin/env bash
# Checks the single-file build: dist/check-amalgamation.sh TOKENRING_C SOURCE_ROOT
#   - tokenring.c (with tokenring.h beside it) compiles with -std=c11 -pedantic -Wall
#     -Wextra -Werror and no -D at all, with gcc and with clang when they are installed,
#     and a program including only tokenring.h links against it and reports the version;
#   - every copy committed for a package equals what the sources generate now.
set -euo pipefail
src=$1
root=$2
dir=$(cd "$(dirname "$src")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/main.c" <<'C'
#include <stdio.h>
#include <string.h>
#include "tokenring.h"
int main(void)
{
    int64_t t = tokenring_token("hello", 5);
    printf("%s %lld\n", tokenring_version_string(), (long long)t);
    return strcmp(tokenring_version_string(), TOKENRING_VERSION_STRING) != 0;
}
C
compilers=0
for cc in gcc clang; do
  command -v "$cc" >/dev/null || { echo "$cc: not installed, skipped"; continue; }
  compilers=$((compilers + 1))
  flags=(-std=c11 -pedantic -Wall -Wextra -Wno-unused-parameter -Werror -O1)
  echo "+ $cc ${flags[*]} -c tokenring.c"
  "$cc" "${flags[@]}" -c "$dir/tokenring.c" -o "$tmp/tokenring-$cc.o"
  "$cc" "${flags[@]}" -I"$dir" "$tmp/main.c" "$tmp/tokenring-$cc.o" -o "$tmp/main-$cc" -lpthread
  out=$("$tmp/main-$cc")
  echo "$out"
  # Murmur3 token of "hello", as Cassandra computes it (tests/data/murmur3_cql_values.tsv).
  [ "${out#* }" = "-3758069500696749310" ] || { echo "$cc: wrong token: $out" >&2; exit 1; }
done
[ "$compilers" -gt 0 ] || { echo "no C compiler named gcc or clang found" >&2; exit 1; }

# The committed copies (bindings/go/internal/... for `go get`): see doc/single-file.md.
copies=()
for d in "$root/bindings/go/csrc/tokenring"; do
  [ -d "$d" ] && copies+=("$d")
done
if [ ${#copies[@]} -gt 0 ]; then
  "${PYTHON:-python3}" "$root/scripts/amalgamate.py" --check "${copies[@]}"
  echo "committed copies up to date: ${copies[*]#$root/}"
fi
