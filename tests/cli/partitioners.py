#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`tokenring token --partitioner random|byteordered|murmur3` against every row of
tests/data/partitioner_vectors.tsv (made by Cassandra 5.0.2's own classes), plus its
usage errors.

    python3 tests/cli/partitioners.py build/tools/tokenring tests/data
"""
import csv
import json
import os
import subprocess
import sys


def run(tool, args, stdin=None):
    return subprocess.run([tool, *args], input=stdin, capture_output=True, text=True)


def main() -> int:
    tool, data = sys.argv[1], sys.argv[2]
    with open(os.path.join(data, "partitioner_vectors.tsv"), encoding="utf-8") as f:
        rows = list(csv.DictReader((line for line in f if not line.startswith("#")),
                                   delimiter="\t", quoting=csv.QUOTE_NONE))
    # Keys through stdin (one hex key per line); the empty key is an argument of its own.
    keys = [r["key_hex"] for r in rows if r["key_hex"]]
    failures = 0
    for part, column in (("random", "random_token"), ("byteordered", "byte_ordered_token")):
        p = run(tool, ["--json", "token", "--partitioner", part, "--hex"], "\n".join(keys) + "\n")
        if p.returncode != 0:
            print(f"{part}: exit {p.returncode}: {p.stderr}")
            return 1
        got = json.loads(p.stdout)
        want = [r for r in rows if r["key_hex"]]
        if len(got) != len(want):
            print(f"{part}: {len(got)} tokens for {len(want)} keys")
            return 1
        for g, r in zip(got, want):
            if g["key"] != r["key_hex"] or g["token"] != r[column]:
                failures += 1
                if failures < 5:
                    print(f"{part}: key {r['key_hex']}: {g['token']}, Cassandra {r[column]}")
        p = run(tool, ["--json", "token", "--partitioner", part, "--", ""])
        empty = next(r for r in rows if not r["key_hex"])
        if p.returncode != 0 or json.loads(p.stdout)[0]["token"] != empty[column]:
            print(f"{part}: empty key: {p.stdout} {p.stderr}")
            failures += 1
        print(f"{part}: {len(want) + 1} keys checked against Cassandra's vectors")

    # The table form and the default (murmur3) stay as they were.
    p = run(tool, ["token", "--partitioner", "random", "test"])
    if p.stdout != "Key   Token\ntest  12707736894140473154801792860916528374\n":
        print("table form:", repr(p.stdout))
        failures += 1
    a = run(tool, ["token", "abc"])
    b = run(tool, ["token", "--partitioner", "murmur3", "abc"])
    if a.returncode or a.stdout != b.stdout or "-5434086359492102041" not in a.stdout:
        print("murmur3 default:", a.stdout, b.stdout)
        failures += 1

    # Usage errors: exit 2, a message, nothing on stdout.
    topo = os.path.join(data, "replicas_edges.topology.tsv")
    for args, words in (
        (["token", "--partitioner", "md5", "a"], "expected murmur3, random or byteordered"),
        (["ring", "--partitioner", "random"], "token command only"),
        (["--topology", topo, "token", "--partitioner", "byteordered", "a"], "not supported yet"),
        (["token", "--partitioner", "random", "--token", "5"], "--token reads Murmur3 tokens"),
    ):
        p = run(tool, args)
        if p.returncode != 2 or p.stdout or words not in p.stderr:
            print(f"{args}: exit {p.returncode}, stdout {p.stdout!r}, stderr {p.stderr!r}")
            failures += 1
    if failures:
        print(f"{failures} failures")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
