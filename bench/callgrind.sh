#!/bin/sh
# Noise-free second figure for bench-ring: instructions (Ir) and simulated mispredicted
# conditional branches (Bcm) per key, counted by callgrind. Runs one untimed pass of each
# workload (bench-ring --callgrind SET) under valgrind --tool=callgrind --branch-sim=yes
# and divides each w_* function's inclusive counts by the keys (10,000 per lookup/hash
# workload); builds (w_ring_build, w_map_build: the ring, then the ring plus one node;
# w_map_update_build: the map after the join updated from the first) are
# reported as totals.
#
#   bench/callgrind.sh path/to/bench-ring [hash8 hash16 hash64 hash256 6x8 96x256 1000x16 1000x256]
set -eu
bench=$1
shift
sets=${*:-hash8 hash16 hash64 hash256 6x8 96x256 1000x16 1000x256}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for set in $sets; do
    valgrind --tool=callgrind --branch-sim=yes --callgrind-out-file="$out/cg.$set" \
        "$bench" --callgrind "$set" >"$out/log.$set" 2>&1
    echo "## $set"
    callgrind_annotate --inclusive=yes --threshold=100 --show=Ir,Bcm "$out/cg.$set" 2>/dev/null |
        awk '/:w_[a-z0-9_]+.*bench-ring/ {
                 line = $0; gsub(/\([^)]*\)/, "", line); split(line, f, " ");
                 ir = f[1]; bcm = f[2]; gsub(",", "", ir); gsub(",", "", bcm);
                 if (bcm == ".") bcm = 0;
                 name = line; sub(/.*:w_/, "w_", name); sub(/[ (.\[].*/, "", name);
                 if (name ~ /build/) printf "%-16s %14d Ir total  %10d Bcm total\n", name, ir, bcm;
                 else printf "%-16s %10.1f Ir/key  %6.2f Bcm/key\n", name, ir / 10000, bcm / 10000;
             }' | sort -u
done
