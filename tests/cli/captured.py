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
                st = status_cells(run(*base, "status", ks))
                for addr, row in want_st.items():
                    for col in ("Owns (effective)", "Tokens", "Rack"):
                        checks += 1
                        if st.get(addr, {}).get(col) != row[col]:
                            print(f"{short} {ks} {addr} {col} from {src}: tool "
                                  f"{st.get(addr, {}).get(col)!r}, nodetool {row[col]!r}")
                            failures += 1
    print(f"captured: {checks} checks, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
