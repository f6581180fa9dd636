# SPDX-License-Identifier: Apache-2.0
"""Checks an installed tokenring against the C library's golden vectors:
    python check_install.py DATA_DIR
Every token of murmur3_tokens.tsv and every replica list of replicas_toy.tsv (both
strategies, every factor) must equal the C library's; the extension must need no
libtokenring outside itself. Run by test-install.sh in fresh virtual environments."""
import csv
import os
import subprocess
import sys

import tokenring as tr
_ffi = sys.modules["tokenring._ffi"]

data = sys.argv[1]


def rows(name):
    with open(os.path.join(data, name), encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


tokens = rows("murmur3_tokens.tsv")
for r in tokens:
    got = tr.token(bytes.fromhex(r["key_hex"]))
    assert got == int(r["token"]), (r, got)
# the list path too (the C fast path where it is built, the cffi path otherwise)
got = [int(t) for t in tr.tokens([bytes.fromhex(r["key_hex"]) for r in tokens])]
assert got == [int(r["token"]) for r in tokens]
fast = "C fast paths" if tr._hash._speedups is not None else "no C fast paths"

topo = tr.Topology()
for n in rows("replicas_toy.topology.tsv"):
    topo.add_node(n["node"], n["dc"], n["rack"], [int(t) for t in n["tokens"].split(",")])
ring = tr.Ring(topo)
checked = 0
for r in rows("replicas_toy.tsv"):
    if r["strategy"] == "SimpleStrategy":
        repl = tr.Replication.simple(int(r["options"]))
    else:
        dc, rf = r["options"].split("=")
        repl = tr.Replication.network({dc: int(rf)})
    got = ",".join(ring.replicas(int(r["token"]), repl))
    assert got == r["replicas"], (r, got)
    checked += 1

ext = _ffi.EXTENSION_PATH
if sys.platform.startswith("linux"):
    deps = subprocess.run(["ldd", ext], capture_output=True, text=True).stdout
    assert "libtokenring" not in deps, deps
print(f"tokenring {tr.__version__} from {os.path.dirname(ext)}: {len(tokens)} tokens and "
      f"{checked} replica lists equal to the C library's ({fast}); "
      f"token('hello') = {tr.token('hello')}")
