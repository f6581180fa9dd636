#!/bin/sh
# Noise-free second figure for bench-ring: instructions (Ir) per key, counted by callgrind.
# Runs one untimed pass of each workload (bench-ring --callgrind SET) under
# valgrind --tool=callgrind and divides each w_* function's inclusive Ir by the keys
# (10,000 per lookup/hash workload; builds are reported as total Ir).
#
#   bench/callgrind.sh path/to/bench-ring [hash8 hash16 hash64 hash256 6x8 96x256 1000x256]
set -eu
bench=$1
shift
sets=${*:-hash8 hash16 hash64 hash256 6x8 96x256 1000x256}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for set in $sets; do
    valgrind --tool=callgrind --callgrind-out-file="$out/cg.$set" "$bench" --callgrind "$set" \
        >"$out/log.$set" 2>&1
    echo "## $set"
    callgrind_annotate --inclusive=yes --threshold=100 "$out/cg.$set" 2>/dev/null |
        awk '/:w_[a-z0-9_]+.*bench-ring/ {
                 ir = $1; gsub(",", "", ir);
                 name = $0; sub(/.*w_/, "w_", name); sub(/[ (.].*/, "", name);
                 if (name ~ /build/) printf "%-16s %14d Ir total\n", name, ir;
                 else printf "%-16s %10.1f Ir/key\n", name, ir / 10000;
             }' | sort -u
done
