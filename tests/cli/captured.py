#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The tool on output captured from real RandomPartitioner and ByteOrderedPartitioner
clusters (tests/data/captured, README there): each of `nodetool ring`, cqlsh
system.peers_v2 + system.local and `nodetool describering`, read without naming the
partitioner, gives the same ring, and from it the tool prints the server's own
describering (every range and its replicas) and `status KEYSPACE` (Owns, Tokens, Rack).

usage: captured.py TOOL DATA_DIR
"""
import os
import re
import subprocess
import sys

KEYSPACES = {
    "ks_simple": "SimpleStrategy:2",
    "ks_nts": "NetworkTopologyStrategy:dc1=2,dc2=1",
}
PARTITIONERS = {"random": "org.apache.cassandra.dht.RandomPartitioner",
                "byteordered": "org.apache.cassandra.dht.ByteOrderedPartitioner"}


def describering_lines(text):
    return {ln.strip() for ln in text.splitlines() if ln.strip().startswith("TokenRange(")}


def range_triples(text):
    """{(start, end, (endpoints...))} of TokenRange lines."""
    return {(m.group(1), m.group(2), tuple(e.strip() for e in m.group(3).split(",")))
            for m in re.finditer(r"TokenRange\(start_token:([^,]*), end_token:([^,]*), "
                                 r"endpoints:\[([^\]]*)\]", text)}


def status_cells(text):
    """{address: {column: cell}} of nodetool status output (columns cut at the header)."""
    out, names, starts = {}, None, None
    for line in text.splitlines():
        if line.startswith("--  Address"):
            names = re.findall(r"\S+(?: \S+)*(?: \([a-z]+\))?", line)
            starts = [line.index(n) for n in names]
            continue
        if names and re.match(r"^[UD?][NLJM?]  ", line):
            cells = {}
            for i, name in enumerate(names):
                end = starts[i + 1] if i + 1 < len(names) else None
                cells[name] = line[starts[i]:end].strip()
            out[cells["Address"]] = cells
    return out


def shape(doc):
    """What a change's JSON says that depends on the ring's order only."""
    return ([(s["source"], s["destination"], s["strict"]) for s in doc["streams"]],
            [(nd["name"], nd["in_before"], nd["in_after"], nd["needs_cleanup"])
             for nd in doc["nodes"]])


def check_changes(run, short, ring_args):
    import json
    import tempfile
    text = run(*ring_args, "convert")
    nodes = []
    for ln in text.splitlines():
        if ln.startswith("node "):
            f = dict(x.split("=", 1) for x in ln.split()[2:])
            nodes.append((ln.split()[1], f["dc"], f["rack"],
                          [t for t in f["tokens"].split(",") if t]))
        elif ln.startswith(" ") and nodes:      # more tokens of the node above
            nodes[-1][3].extend(t for t in ln.strip().split(",") if t)
    key = (lambda t: int(t)) if short == "random" else (lambda t: bytes.fromhex(t))
    order = sorted({t for *_, ts in nodes for t in ts}, key=key)
    rank = {t: i for i, t in enumerate(order)}
    checks = failures = streamed = 0
    with tempfile.TemporaryDirectory() as tmp:
        m3 = os.path.join(tmp, "m3.topo")
        with open(m3, "w", encoding="utf-8") as fh:
            for name, dc, rack, ts in nodes:
                fh.write(f"node {name} dc={dc} rack={rack} tokens="
                         + ",".join(str(1000 * rank[t]) for t in ts) + "\n")
        # new tokens between the ring's first three: the midpoint (Random), the lower
        # token with a byte appended (ByteOrdered), rank * 1000 + 500 (Murmur3)
        if short == "random":
            mid = [str((int(order[i]) + int(order[i + 1])) // 2) for i in range(2)]
        else:
            mid = [order[i] + "80" for i in range(2)]
        m3mid = [str(1000 * i + 500) for i in range(2)]
        for ks, repl in KEYSPACES.items():
            kd = ["--keyspace", f"{ks}={repl}"]
            # --force: with factor 2 and two nodes in dc1, Cassandra 4.0+ refuses it otherwise
            cases = [(["decommission", ks, nodes[0][0], "--force"], None),
                     (["removenode", ks, nodes[1][0]], None),
                     (["replace", ks, nodes[1][0], "10.9.9.9"], None),
                     (["join", ks, "10.9.9.8", "--dc", "dc1", "--rack", "r1",
                       "--initial-token", ",".join(mid)], ",".join(m3mid)),
                     (["move", ks, nodes[2][0], "--initial-token", mid[0]], m3mid[0])]
            for args, m3tokens in cases:
                mine = json.loads(run(*ring_args, *kd, "--json", *args))
                margs = list(args)
                if m3tokens:
                    margs[-1] = m3tokens
                theirs = json.loads(run("--topology", m3, *kd, "--json", *margs))
                checks += 1
                streamed += len(mine["streams"])
                if shape(mine) != shape(theirs):
                    print(f"{short} {ks} {args[0]}: differs from the same ring in Murmur3 "
                          f"tokens:\n{shape(mine)}\n{shape(theirs)}")
                    failures += 1
                if short == "random" and args[0] != "join" and args[0] != "move":
                    # widths over 2^127: every stream's share lies in (0, 1]
                    for st in mine["streams"]:
                        checks += 1
                        if not 0 < int(st["width"]) <= 2**127:
                            print(f"{short} {ks} {args[0]}: stream width {st['width']}")
                            failures += 1
            # assassinate: the same changed ranges (ring order) as the Murmur3 twin, no
            # streams; ranges NODE: the server's describering lines that name NODE
            mine = json.loads(run(*ring_args, *kd, "--json", "assassinate", ks, nodes[0][0]))
            theirs = json.loads(run("--topology", m3, *kd, "--json", "assassinate", ks,
                                    nodes[0][0]))
            checks += 1
            if ([u["without_data"] for u in mine["unstreamed"]] !=
                    [u["without_data"] for u in theirs["unstreamed"]] or mine["streams"]):
                print(f"{short} {ks} assassinate differs from the Murmur3 twin")
                failures += 1
    if short == "random":
        # join without tokens plans them (tokenring_allocate_join128): ascending, in
        # 0 .. 2^127, none held; with --as-cassandra, Cassandra's (generatetokens' twin)
        held = {int(t) for *_, ts in nodes for t in ts}
        for extra in ([], ["--as-cassandra"]):
            doc = json.loads(run(*ring_args, "--keyspace", "ks=dc1=2,dc2=1", "--json", "join",
                                 "ks", "10.9.9.7", "--dc", "dc1", "--rack", "r1",
                                 "--num-tokens", "4", *extra))
            toks = [int(t) for t in doc["tokens"]]
            checks += 1
            if (len(toks) != 4 or toks != sorted(set(toks)) or set(toks) & held or
                    not all(0 <= t <= 2**127 for t in toks)):
                print(f"{short} join {extra}: tokens {toks}")
                failures += 1
    checks += 1
    if streamed < 10:
        print(f"{short}: the changes stream only {streamed} ranges: the check is too weak")
        failures += 1
    return checks, failures


def main() -> int:
    tool, data = sys.argv[1], sys.argv[2]
    cap = os.path.join(data, "captured")
    failures = checks = 0

    def run(*args):
        p = subprocess.run([tool, *args], capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"{' '.join(args)}: exit {p.returncode}: {p.stderr}")
        return p.stdout

    for short, cls in PARTITIONERS.items():
        f = lambda name: os.path.join(cap, f"5.0.6-{short}-{name}.txt")  # noqa: E731
        inputs = {
            "nodetool ring": ["--nodetool-ring", f("ring")],
            "cqlsh": ["--cqlsh", f("cqlsh")],
            "describering": ["--input", f("describering-ks_simple")],
        }
        # the same ring from every input: the topology file the tool writes (its
        # partitioner line first), equal across inputs
        converted = {src: run(*args, "convert") for src, args in inputs.items()}
        # node lines in name order (each input names the nodes in its own order)
        converted = {src: "".join(sorted(ln + "\n" for ln in text.splitlines()
                                         if not ln.startswith("node ")))
                     + "".join(sorted(ln + "\n" for ln in text.splitlines()
                                      if ln.startswith("node ")))
                     for src, text in converted.items()}
        first = next(iter(converted.values()))
        if f"\npartitioner {cls}\n" not in first:
            print(f"{short}: convert lacks the partitioner line:\n{first[:300]}")
            failures += 1
        for src, text in converted.items():
            checks += 1
            if text != first:
                print(f"{short}: the ring from {src} differs from the one from nodetool ring")
                failures += 1
        for ks, repl in KEYSPACES.items():
            with open(f(f"describering-{ks}"), encoding="utf-8") as fh:
                want_dr = describering_lines(fh.read())
            with open(f(f"status-{ks}"), encoding="utf-8") as fh:
                want_st = status_cells(fh.read())
            if len(want_dr) < 16 or len(want_st) != 3:
                print(f"{short} {ks}: the captures are not what they should be")
                failures += 1
                continue
            for src, args in inputs.items():
                base = args + ["--keyspace", f"{ks}={repl}"]
                got = describering_lines(run(*base, "describering", ks))
                checks += 1
                if got != want_dr:
                    print(f"{short} {ks} from {src}: describering differs: "
                          f"{sorted(got ^ want_dr)[:2]}")
                    failures += 1
                # ranges NODE: exactly the server's ranges that name NODE
                node = sorted(want_st)[0]
                got_r = range_triples(run(*base, "ranges", ks, node))
                want_r = {t for t in range_triples("\n".join(want_dr)) if node in t[2]}
                checks += 1
                if got_r != want_r or not want_r:
                    print(f"{short} {ks} ranges {node} from {src}: "
                          f"{sorted(got_r ^ want_r)[:2]}")
                    failures += 1
                st = status_cells(run(*base, "status", ks))
                for addr, row in want_st.items():
                    for col in ("Owns (effective)", "Tokens", "Rack"):
                        checks += 1
                        if st.get(addr, {}).get(col) != row[col]:
                            print(f"{short} {ks} {addr} {col} from {src}: tool "
                                  f"{st.get(addr, {}).get(col)!r}, nodetool {row[col]!r}")
                            failures += 1
        # join, decommission, replace and move on the captured ring against the same
        # ring written in Murmur3 tokens of the same order (token i -> 1000 * rank): the
        # changes depend on the order only, so the streams (source, destination, strict),
        # the nodes' roles and the counts must be the same
        c, n = check_changes(run, short, inputs["nodetool ring"])
        checks += c
        failures += n
    # single-token rings of the other partitioners: status shows each node's token, and
    # convert --json lists the tokens in the partitioner's form
    import json
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        for part, toks in (("RandomPartitioner", ("100", "170141183460469231731687303715884105728")),
                           ("ByteOrderedPartitioner", ("0a", "ff01"))):
            topo = os.path.join(tmp, "one.topo")
            with open(topo, "w", encoding="utf-8") as fh:
                fh.write(f"partitioner {part}\nnode a dc=dc1 rack=r1 tokens={toks[0]}\n"
                         f"node b dc=dc2 rack=r1 tokens={toks[1]}\n")
            st = status_cells(run("--topology", topo, "--keyspace", "ks=dc1=1,dc2=1", "status",
                                  "ks"))
            doc = json.loads(run("--topology", topo, "convert", "--json"))
            checks += 1
            if ([st.get(n, {}).get("Token") for n in "ab"] != list(toks) or
                    [nd["tokens"] for nd in doc["nodes"]] != [[toks[0]], [toks[1]]] or
                    not doc["partitioner"].endswith(part)):
                print(f"{part}: status tokens {st}, convert {doc}")
                failures += 1
    print(f"captured: {checks} checks, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
