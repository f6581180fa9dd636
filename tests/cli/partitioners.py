#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`tokenring token --partitioner random|byteordered|murmur3` against every row of
tests/data/partitioner_vectors.tsv (made by Cassandra 5.0.2's own classes), plus its
usage errors; `generatetokens --layout even|seeded` with both partitioners against
big-integer arithmetic and hashlib's MD5 of layout.h's byte string, exact output;
`generatetokens --partitioner random --as-cassandra` against the tokens Cassandra chose
(tests/data/cassandra_allocation_random_*.tsv) and Cassandra's split computed here.

    python3 tests/cli/partitioners.py build/tools/tokenring tests/data
"""
import csv
import hashlib
import json
import os
import struct
import subprocess
import sys


def run(tool, args, stdin=None):
    return subprocess.run([tool, *args], input=stdin, capture_output=True, text=True)


def read_rings(data):
    """The rings of partitioned_rings.tsv: {id: (partitioner, node rows, [(strategy,
    options, key rows, tok rows, own rows)])}."""
    rings, cur = {}, None
    with open(os.path.join(data, "partitioned_rings.tsv"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                continue
            r = line.rstrip("\n").split("\t")
            if r[0] == "ring":
                cur = rings[r[1]] = (r[2], [], [])
            elif r[0] == "node":
                cur[1].append(r[1:])
            elif r[0] == "repl":
                cur[2].append((r[1], r[2], [], [], []))
            else:
                cur[2][-1][{"key": 2, "tok": 3, "own": 4}[r[0]]].append(r[1:])
    return rings


def check_rings(tool, data):
    """getendpoints, describering and ring with --partitioner on every ring of
    partitioned_rings.tsv, against Cassandra's replicas and ownership floats."""
    import struct
    import tempfile
    failures = 0
    rings = read_rings(data)
    with tempfile.TemporaryDirectory() as tmp:
        for rid, (part, nodes, repls) in rings.items():
            topo = os.path.join(tmp, rid + ".topo")
            with open(topo, "w", encoding="utf-8") as f:
                f.write("node\tdc\track\ttokens\n")
                for n in nodes:
                    f.write("\t".join(n) + "\n")
            for strategy, options, keys, toks, owns in repls:
                base = ["--topology", topo, "--partitioner", part,
                        "--keyspace", f"ks={strategy}:{options}"]
                keys = [k for k in keys if k[0]]  # the empty key cannot come on stdin
                p = run(tool, base + ["--json", "--hex", "getendpoints", "ks"],
                        "\n".join(k[0] for k in keys) + "\n")
                got = json.loads(p.stdout) if p.returncode == 0 else []
                if len(got) != len(keys):
                    print(f"{rid} {options}: getendpoints exit {p.returncode}: {p.stderr}")
                    failures += 1
                    continue
                for g, (khex, token, end, reps) in zip(got, keys):
                    if g["token"] != token or ",".join(g["endpoints"]) != reps:
                        print(f"{rid} {options} key {khex}: {g}, Cassandra {token} {reps}")
                        failures += 1
                p = run(tool, base + ["--json", "describering", "ks"])
                ranges = {r["end_token"]: r for r in json.loads(p.stdout)["ranges"]}
                for token, end, reps in toks:
                    if token == end and ",".join(ranges[end]["endpoints"]) != reps:
                        print(f"{rid} {options} range ending {end}: {ranges[end]}, Cassandra {reps}")
                        failures += 1
                if owns:
                    p = run(tool, base + ["--json", "ring", "ks"])
                    rows = [r for d in json.loads(p.stdout)["datacenters"] for r in d["rows"]]
                    owns_of = {r["address"]: r["owns"]["nodetool"] for r in rows if r["owns"]}
                    for node, _pbits, ebits in owns:
                        if node in owns_of and struct.pack(">f", owns_of[node]).hex() != ebits:
                            print(f"{rid} {options} node {node}: owns {owns_of[node]}, "
                                  f"Cassandra bits {ebits}")
                            failures += 1
    text = run(tool, ["--topology", os.path.join(data, "replicas_toy.topology.tsv"),
                      "ring"])
    if text.returncode != 0:
        print("murmur3 ring:", text.stderr)
        failures += 1
    print(f"{len(rings)} rings of RandomPartitioner and ByteOrderedPartitioner checked "
          "(getendpoints, describering, ring)")
    return failures


def seeded128(seed, name, vnode, attempt=0):
    """RandomPartitioner's seeded token by layout.h's definition, with hashlib."""
    ident = name.encode("utf-8")
    b = b"tokenring-layout-v1" + struct.pack(">QI", seed, len(ident)) + ident
    b += struct.pack(">I", vnode) + (struct.pack(">I", attempt) if attempt else b"")
    return abs(int.from_bytes(hashlib.md5(b).digest(), "big", signed=True))


def check_layouts(tool, data):
    """generatetokens --layout: exact output, both partitioners, and its usage errors."""
    failures = 0

    def expect(args, want):
        nonlocal failures
        p = run(tool, args)
        if p.returncode != 0 or p.stdout != want or p.stderr:
            print(f"{args}: exit {p.returncode}\n got {p.stdout!r}\nwant {want!r}\n"
                  f"stderr {p.stderr!r}")
            failures += 1

    # The classic RandomPartitioner initial_token: node i of N at i * 2^127 // N.
    for n in (3, 7):
        want = (f"Generating evenly spaced tokens for {n} nodes with 1 vnodes each and "
                f"partitioner RandomPartitioner (datacenter datacenter1, empty cluster)\n")
        want += "".join(f"Node {i} rack rack1: [{i * 2**127 // n}]\n" for i in range(n))
        expect(["generatetokens", "--partitioner", "random", "--layout", "even",
                "--nodes", str(n), "--num-tokens", "1"], want)
    # Vnodes interleave: node i of N, token j at (j*N + i) * 2^127 // (T*N); JSON, racks.
    n, t = 3, 4
    nodes = [{"rack": r, "tokens": [str((j * n + i) * 2**127 // (t * n)) for j in range(t)]}
             for i, r in enumerate(["rack1", "rack2", "rack1"])]
    want = {"datacenter": "dc9", "partitioner": "RandomPartitioner", "layout": "even",
            "nodes": nodes}
    p = run(tool, ["--json", "generatetokens", "--partitioner", "random", "--layout", "even",
                   "--nodes", "3", "--num-tokens", "4", "--dc", "dc9", "--racks", "2,1"])
    if p.returncode or json.loads(p.stdout) != want:
        print(f"even --json: {p.stdout!r} {p.stderr!r}")
        failures += 1
    # Murmur3: MIN + (j*N + i) * 2^64 // (T*N).
    want = ("Generating evenly spaced tokens for 2 nodes with 2 vnodes each and partitioner "
            "Murmur3Partitioner (datacenter datacenter1, empty cluster)\n")
    for i in range(2):
        toks = [-2**63 + (j * 2 + i) * 2**64 // 4 for j in range(2)]
        want += f"Node {i} rack rack1: [{', '.join(map(str, toks))}]\n"
    expect(["generatetokens", "--layout", "even", "--nodes", "2", "--num-tokens", "2"], want)
    # Seeded, RandomPartitioner: MD5 of the documented bytes, each node's tokens ascending.
    names = ["10.0.0.1", "n\u00e9ud-2"]
    want = ("Generating seeded tokens (layout seed 18446744073709551615) for 2 nodes with 5 "
            "vnodes each and partitioner RandomPartitioner (datacenter datacenter1, empty "
            "cluster)\n")
    for i, name in enumerate(names):
        toks = sorted(seeded128(2**64 - 1, name, v) for v in range(5))
        want += f"Node {i} ({name}) rack rack1: [{', '.join(map(str, toks))}]\n"
    expect(["generatetokens", "--partitioner", "random", "--layout", "seeded", "--seed",
            "18446744073709551615", "--names", ",".join(names), "--nodes", "2",
            "--num-tokens", "5"], want)
    # Default seed 1 and names node1, node2, ...
    p = run(tool, ["--json", "generatetokens", "--partitioner", "random", "--layout",
                   "seeded", "--nodes", "2", "--num-tokens", "3"])
    got = json.loads(p.stdout) if p.returncode == 0 else None
    want = {"datacenter": "datacenter1", "partitioner": "RandomPartitioner",
            "layout": "seeded", "seed": "1",
            "nodes": [{"name": f"node{i}", "rack": "rack1",
                       "tokens": [str(x) for x in sorted(seeded128(1, f"node{i}", v)
                                                         for v in range(3))]}
                      for i in (1, 2)]}
    if got != want:
        print(f"seeded --json: {p.stdout!r} {p.stderr!r}")
        failures += 1
    # Seeded, Murmur3: the values layout.h's definition gives (pinned in the C tests).
    p = run(tool, ["generatetokens", "--layout", "seeded", "--names", "10.0.0.1", "--nodes",
                   "1", "--num-tokens", "8"])
    if p.returncode or "-5451696012198336313" not in p.stdout \
            or "8480969521621885180" not in p.stdout:
        print(f"seeded murmur3: {p.stdout!r} {p.stderr!r}")
        failures += 1

    # Usage errors: exit 2, a message, nothing on stdout.
    topo = os.path.join(data, "replicas_edges.topology.tsv")
    base = ["generatetokens", "--nodes", "2", "--num-tokens", "2"]
    for args, words in (
        (base + ["--layout", "even", "--partitioner", "byteordered"],
         "ByteOrderedPartitioner has no token allocation"),
        (base + ["--rf", "3", "--partitioner", "byteordered"],
         "ByteOrderedPartitioner has no token allocation"),
        (base + ["--rf", "3", "--partitioner", "random"],
         "needs --as-cassandra (Cassandra's allocator), --node-by-node (the library's join "
         "plan, node after node) or --layout even or --layout seeded"),
        (base + ["--layout", "diagonal"], "--layout: expected even or seeded"),
        (base + ["--layout", "seeded", "--seed", "+1"], "option --seed: expected a number"),
        (base + ["--layout", "seeded", "--seed", "18446744073709551616"],
         "option --seed: expected a number"),
        (base + ["--layout", "even", "--seed", "4"], "only --layout seeded takes a seed"),
        (base + ["--rf", "3", "--seed", "4"], "only --layout seeded takes a seed"),
        (base + ["--layout", "even", "--names", "a,b"], "only --layout seeded names"),
        (base + ["--layout", "seeded", "--names", "a"], "--names: 1 names for 2 nodes"),
        (base + ["--layout", "seeded", "--rf", "3"], "--rf, --as-cassandra and --node-by-node"),
        (base + ["--layout", "seeded", "--rack", "r", "--racks", "1,1"], "not both"),
        (["--topology", topo] + base + ["--layout", "even"], "plans a new cluster"),
        (["generatetokens", "--layout", "even", "--nodes", "2"], "needs --nodes N and "),
        (["ring", "--layout", "even"], "--layout and --seed work with generatetokens only"),
    ):
        p = run(tool, args)
        if p.returncode != 2 or p.stdout or words not in p.stderr:
            print(f"{args}: exit {p.returncode}, stdout {p.stdout!r}, stderr {p.stderr!r}")
            failures += 1
    # Two nodes of one name: the library's error, nothing on stdout.
    p = run(tool, base + ["--layout", "seeded", "--names", "a,a"])
    if p.returncode == 0 or p.stdout or "given twice" not in p.stderr:
        print(f"duplicate names: exit {p.returncode} {p.stdout!r} {p.stderr!r}")
        failures += 1
    print(f"generatetokens --layout checked ({failures} failures)")
    return failures


def _java_random_next_double(seed):
    """java.util.Random(seed).nextDouble(), from its documented LCG."""
    mult, mask = 0x5DEECE66D, (1 << 48) - 1
    s = (seed ^ mult) & mask
    out = []
    for bits in (26, 27):
        s = (s * mult + 0xB) & mask
        out.append(s >> (48 - bits))
    return ((out[0] << 27) + out[1]) * 2.0 ** -53


def check_allocation(tool, data):
    """generatetokens --partitioner random --as-cassandra: on a --topology ring built by
    Cassandra, the next joins' tokens are the ones Cassandra gave them; on an empty
    cluster (Cassandra's offline tool) the first split is Cassandra's, computed here."""
    import math
    import tempfile
    from fractions import Fraction
    failures = 0
    R = 2 ** 127
    for version, line in (("5.0.6", "5.0"), ("4.0.19", "4.0")):
        seqs, cur = {}, None
        with open(os.path.join(data, f"cassandra_allocation_random_{version}.tsv"),
                  encoding="utf-8") as f:
            for row in f:
                if row.startswith("#"):
                    continue
                r = row.rstrip("\n").split("\t")
                if r[0] == "seq":
                    cur = seqs[r[1]] = []
                elif r[0] == "join":
                    cur.append(r)
        # (sequence, joins already in the ring, nodes planned, racks in join order)
        for seq, k, n in (("built-3racks-rf3-t16", 9, 3), ("built-5racks-rf3-t8", 10, 2),
                          ("built-1rack-rf3-t16", 12, 2), ("built-1rack-rf1-t16", 8, 1)):
            joins = seqs[seq]
            assert all(j[5] == joins[0][5] and j[2] == "dc1" for j in joins), seq
            rf = joins[0][5].split(":")[1]
            nxt = joins[k:k + n]
            with tempfile.TemporaryDirectory() as tmp:
                topo = os.path.join(tmp, "ring.topo")
                with open(topo, "w", encoding="utf-8") as f:
                    f.write("node\tdc\track\ttokens\n")
                    for j in joins[:k]:
                        f.write("\t".join([j[1], j[2], j[3], j[7][3:]]) + "\n")
                names = [j[3] for j in nxt]
                racks = (["--rack", names[0]] if len(set(names)) == 1 else
                         ["--racks", ",".join(f"{r}=1" for r in names)])
                p = run(tool, ["--json", "--topology", topo, "--partitioner", "random",
                               "generatetokens", "--nodes", str(n), "--num-tokens", nxt[0][4],
                               "--rf", rf, *racks, "--as-cassandra",
                               "--cassandra-version", line])
            got = json.loads(p.stdout)["nodes"] if p.returncode == 0 else None
            want = [{"rack": j[3], "tokens": j[7][3:].split(",")} for j in nxt]
            if got != want:
                print(f"{version} {seq}: {p.stdout[:300]!r} {p.stderr!r}")
                failures += 1
    # An empty cluster: the first token F, then F + 2^127 * ratio (exact, truncated,
    # modulo 2^127), ratio = MIN + 0.075 * Random(0).nextDouble(), MIN = 1 - 1/sqrt(5).
    lo = 1.0 - 1.0 / math.sqrt(5)
    ratio = lo + ((lo + 0.075) - lo) * _java_random_next_double(0)
    for first in (0, 12345, R):
        p = run(tool, ["generatetokens", "--partitioner", "random", "--nodes", "1",
                       "--num-tokens", "2", "--rf", "3", "--as-cassandra", "--first-token",
                       str(first)])
        want = sorted({first, (first + int(R * Fraction(repr(ratio)))) % R})
        if p.returncode or f"Node 0 rack rack1: [{want[0]}, {want[1]}]\n" not in p.stdout \
                or "RandomPartitioner (datacenter datacenter1, empty cluster)" not in p.stdout:
            print(f"empty cluster, first token {first}: {p.stdout!r} {p.stderr!r}")
            failures += 1
    # Errors: a first token that is no node token (the library's range error, exit 2 or
    # 3, nothing on stdout), several datacenters without --dc, the library's own
    # allocator and ByteOrderedPartitioner.
    base = ["generatetokens", "--partitioner", "random", "--nodes", "1", "--num-tokens", "2",
            "--rf", "3"]
    with tempfile.TemporaryDirectory() as tmp:
        topo = os.path.join(tmp, "two.topo")
        with open(topo, "w", encoding="utf-8") as f:
            f.write("node\tdc\track\ttokens\n10.0.0.1\tdc1\tr1\t5\n10.0.0.2\tdc2\tr1\t7\n")
        for args, words in (
            (base + ["--as-cassandra", "--first-token", "-1"], "first_token"),
            (base + ["--as-cassandra", "--first-token", str(R + 1)], "--first-token"),
            (["--topology", topo] + base + ["--as-cassandra"], "several datacenters"),
            (base + ["--as-cassandra", "--node-by-node"], "--node-by-node"),
            (base, "needs --as-cassandra"),
        ):
            p = run(tool, args)
            if p.returncode not in (2, 3) or p.stdout or words not in p.stderr:
                print(f"{args}: exit {p.returncode}, stdout {p.stdout!r}, stderr {p.stderr!r}")
                failures += 1
    print(f"generatetokens --partitioner random --as-cassandra checked ({failures} failures)")
    return failures


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
    # Cassandra's class names as cassandra.yaml gives them, short or whole
    for name in ("RandomPartitioner", "org.apache.cassandra.dht.RandomPartitioner"):
        c = run(tool, ["token", "--partitioner", name, "test"])
        if c.returncode or c.stdout != p.stdout:
            print(f"--partitioner {name}:", c.returncode, repr(c.stdout), c.stderr)
            failures += 1
    c = run(tool, ["--json", "token", "--partitioner", "ByteOrderedPartitioner", "--hex", "0aff"])
    if c.returncode or json.loads(c.stdout)[0]["token"] != "0aff":
        print("--partitioner ByteOrderedPartitioner:", c.stdout, c.stderr)
        failures += 1
    a = run(tool, ["token", "abc"])
    b = run(tool, ["token", "--partitioner", "org.apache.cassandra.dht.Murmur3Partitioner",
                   "abc"])
    if a.returncode or a.stdout != b.stdout or "-5434086359492102041" not in a.stdout:
        print("murmur3 default:", a.stdout, b.stdout)
        failures += 1

    # With a ring of the partitioner, token names each key's owner: the first replica
    # getendpoints gives under SimpleStrategy, with the same token.
    for part, name in (("random", "random_toy"), ("byteordered", "byteordered_toy")):
        base = ["--topology", os.path.join(data, "samples", "partitioned",
                                           name + ".topology.tsv"),
                "--partitioner", part, "--keyspace", "ks=SimpleStrategy:2", "--json"]
        keys = ["alice", "bob", "carol", "", "zzz"]
        tk = run(tool, base + ["token", "--", *keys])
        ge = run(tool, base + ["getendpoints", "ks", "--", *keys])
        if tk.returncode or ge.returncode:
            print(f"token/getendpoints on {name}: {tk.stderr} {ge.stderr}")
            failures += 1
            continue
        for t, g in zip(json.loads(tk.stdout), json.loads(ge.stdout)):
            if t["token"] != g["token"] or t["owner"] != g["endpoints"][0]:
                print(f"{name}: token {t}, getendpoints {g}")
                failures += 1
        # --token: the partitioner's tokens as given, in canonical form, the same owner
        toks = [t["token"] for t in json.loads(tk.stdout)]
        tt = run(tool, base + ["--token", "token", "--",
                               *[x.upper() if part == "byteordered" else x for x in toks]])
        gt = run(tool, base + ["--token", "getendpoints", "ks", "--", *toks])
        if (tt.returncode or gt.returncode
                or [t["owner"] for t in json.loads(tt.stdout)] != [t["owner"] for t in json.loads(tk.stdout)]
                or [g["token"] for g in json.loads(gt.stdout)] != toks
                or [g["endpoints"] for g in json.loads(gt.stdout)]
                != [g["endpoints"] for g in json.loads(ge.stdout)]):
            print(f"--token on {name}: {tt.stdout} {tt.stderr} {gt.stdout} {gt.stderr}")
            failures += 1
    # generatetokens --partitioner random --node-by-node: the library's join plan, node
    # after node (tokenring_allocate_join_text), on an empty cluster and on a ring
    p = run(tool, ["--json", "generatetokens", "--partitioner", "random", "--nodes", "3",
                   "--num-tokens", "4", "--rf", "2", "--node-by-node"])
    toks = [t for n in json.loads(p.stdout)["nodes"] for t in n["tokens"]] if not p.returncode else []
    if len(toks) != 12 or len(set(toks)) != 12 or not all(0 <= int(t) <= 2**127 for t in toks):
        print(f"random --node-by-node: {p.stdout!r} {p.stderr!r}")
        failures += 1
    rt = os.path.join(data, "samples", "partitioned", "random_toy.topology.tsv")
    p = run(tool, ["--topology", rt, "--json", "generatetokens", "--nodes", "2", "--num-tokens",
                   "4", "--rf", "2", "--rack", "r1", "--node-by-node"])
    ring = {"0", "42535295865117307932921825928971026432", "85070591730234615865843651857942052864",
            "127605887595351923798765477786913079296", "170141183460469231731687303715884105728"}
    toks = [t for n in json.loads(p.stdout)["nodes"] for t in n["tokens"]] if not p.returncode else []
    if len(toks) != 8 or len(set(toks) | ring) != 13:
        print(f"random --node-by-node on a ring: {p.stdout!r} {p.stderr!r}")
        failures += 1
    failures += check_rings(tool, data)
    failures += check_layouts(tool, data)
    failures += check_allocation(tool, data)

    # Usage errors: exit 2, a message, nothing on stdout.
    topo = os.path.join(data, "replicas_edges.topology.tsv")
    for args, words in (
        (["token", "--partitioner", "md5", "a"], "expected Murmur3Partitioner, RandomPartitioner"),
        (["token", "--partitioner", "randompartitioner", "a"],
         "class names are case-sensitive, as in Cassandra (RandomPartitioner)"),
        (["ring", "--partitioner", "random"], "give the ring (--topology FILE"),
        (["status", "--partitioner", "random"], "give the ring (--topology FILE"),
        (["concurrent", "--partitioner", "random"],
         "ranges, pending, balance, check and generatetokens commands only"),
        (["--topology", os.path.join(data, "samples", "partitioned", "random_toy.topology.tsv"),
          "--keyspace", "ks=SimpleStrategy:2", "migrate-num-tokens", "ks"],
         "migrate-num-tokens works on Murmur3Partitioner rings only (so far)"),
        (["--topology", os.path.join(data, "samples", "partitioned", "byteordered_toy.topology.tsv"),
          "--keyspace", "ks=SimpleStrategy:2", "pending", "ks", "10.9.9.9", "--rack", "r1"],
         "give the joining node's --initial-token"),
        (["--topology", os.path.join(data, "samples", "partitioned", "byteordered_toy.topology.tsv"),
          "--keyspace", "ks=SimpleStrategy:2", "join", "ks", "10.9.9.9", "--rack", "r1"],
         "give --initial-token"),
        (["--topology", os.path.join(data, "samples", "partitioned", "random_toy.topology.tsv"),
          "--keyspace", "ks=SimpleStrategy:2", "move", "ks", "10.0.0.1", "--initial-token", "5,-3"],
         "is no org.apache.cassandra.dht.RandomPartitioner token"),
        (["token", "--partitioner", "random", "--token", "--", "-2"],
         "is not a RandomPartitioner token"),
        (["token", "--partitioner", "byteordered", "--token", "0g"],
         "is not a ByteOrderedPartitioner token"),
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
