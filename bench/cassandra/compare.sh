#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# One join into a 1000-node x 16-token datacenter, three ways, in one run on one machine:
# Cassandra's own allocator (the release jar, JoinBench.java), libtokenring's exact mode
# (tokenring_allocate_cassandra: the same tokens) and its default mode
# (tokenring_allocate_join), for a 1-rack ring (Cassandra's ReplicationAwareTokenAllocator)
# and a 3-rack ring with RF 3 (its NoReplicationTokenAllocator on the rack's ring); then
# the same rings in RandomPartitioner tokens, Cassandra's allocator next to
# tokenring_allocate_cassandra128 (bench_join's mode exact128).
#
# usage: bench/cassandra/compare.sh BUILD_DIR [CASSANDRA_VERSION] [REPEATS]
# Needs a JDK 17 and Maven (the jars come from Maven Central through
# tests/data/gen/allocation/pom.xml into $TMPDIR). Prints a table; doc/performance.md
# records a run.
set -eu
build=$1
version=${2:-5.0.2}
repeats=${3:-21}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${TMPDIR:-/tmp}/tokenring-join-bench
mkdir -p "$work"
if [ ! -d "$work/lib-$version" ]; then
  mvn -q -B -f "$root/tests/data/gen/allocation/pom.xml" dependency:copy-dependencies \
    -Dcassandra.version="$version" -DoutputDirectory="$work/lib-$version"
fi
mkdir -p "$work/cls-$version"
javac -nowarn -d "$work/cls-$version" -cp "$work/lib-$version/*" "$here/JoinBench.java" 2>/dev/null
"$build/bench/bench-join" "$work/ring" "$repeats" > "$work/c.tsv"
printf '%-7s %-40s %12s %12s  %s\n' ring allocator median_s best_s "same tokens as Cassandra"
for part in murmur3 random; do
  for layout in 1rack 3rack; do
    # --add-opens: 4.0 and 4.1's RandomPartitioner measure a BigInteger reflectively
    java --add-opens java.base/java.math=ALL-UNNAMED \
      -Dlogback.configurationFile="$root/tests/data/gen/allocation/logback.xml" \
      -cp "$work/cls-$version:$work/lib-$version/*" JoinBench "$work/ring.$layout.tsv" \
      "$repeats" "$part" > "$work/j.$layout.tsv"
    IFS="$(printf '\t')" read -r jmed jbest jtok < "$work/j.$layout.tsv"
    [ "$part" = random ] && ours=exact128 || ours=
    printf '%-7s %-40s %12s %12s  %s\n' "$layout" \
      "Cassandra $version${ours:+ random} (JVM, warmed up)" "$jmed" "$jbest" -
    grep "^$layout	" "$work/c.tsv" | while IFS="$(printf '\t')" read -r _ mode med best tok; do
      if [ -n "$ours" ]; then [ "$mode" = exact128 ] || continue
      else [ "$mode" != exact128 ] || continue; fi
      same=-
      case $mode in exact*) [ "$tok" = "$jtok" ] && same=yes || same=NO ;; esac
      printf '%-7s %-40s %12s %12s  %s\n' "$layout" "libtokenring $mode" "$med" "$best" "$same"
    done
  done
done
