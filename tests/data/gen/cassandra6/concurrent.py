#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the input of PlacementHistory for the concurrent-operation vectors: clusters
(single-token and vnode rings, SimpleStrategy and NetworkTopologyStrategy keyspaces), each
followed by 2 to 5 planned operations prepared one after the other (prepare_join,
prepare_leave, prepare_move, prepare_replace) without finishing any. PlacementHistory
prints "prepare ok|rejected STEP" for each: whether 6.0 accepts it while the earlier
accepted ones are in progress (README.md)."""
import random
import sys

rnd = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 20261205)
# "transient": one token a node and keyspaces with transient replicas ('3/1'), which 6.0
# accepts only with transient replication enabled and num_tokens 1 (every node's yaml)
TRANSIENT = len(sys.argv) > 3 and sys.argv[3] == "transient"
M = 2**63
out = []
if TRANSIENT:
    out += ["# config transient_replication_enabled true", "# config num_tokens 1"]
for case in range(int(sys.argv[2]) if len(sys.argv) > 2 else 60):
    vnodes = 1 if TRANSIENT else rnd.choice([1, 1, 4, 8])
    dcs = rnd.choice([1, 2])
    n = rnd.randint(4, 10)
    spare = 4
    out.append("reset case %d" % case)
    ks = rnd.choice(["2", "3", "1"] if dcs == 1 else ["dc1=2,dc2=1", "dc1=3,dc2=2", "dc2=1", "2"])
    if TRANSIENT:
        ks = rnd.choice(["3/1", "2/1", "4/2"] if dcs == 1
                        else ["dc1=3/1,dc2=2/1", "dc1=3,dc2=2/1", "dc2=3/1", "3/1"])
    nodes = []
    for i in range(n + spare):
        dc = "dc%d" % (1 + i % dcs)
        rack = "r%d" % (1 + (i // dcs) % 3)
        addr = "10.%d.0.%d" % (case % 200, i + 1)
        nodes.append((addr, dc, rack))
        out.append("register %s %s %s" % (addr, dc, rack))
    used = set()

    def token():
        while True:
            t = rnd.randrange(-M + 1, M)
            if t not in used:
                used.add(t)
                return t
    for addr, _, _ in nodes[:n]:
        out.append("unsafe_join %s %s" % (addr, ",".join(str(token()) for _ in range(vnodes))))
    # after the ring (PlacementHistory applies a keyspace before the first register or
    # after the first join, and 6.0-alpha2 fails to place an NTS keyspace at a join while
    # one of its datacenters has no node)
    out.append("keyspace ks %s" % ks)
    ring = [a for a, _, _ in nodes[:n]]
    free = [a for a, _, _ in nodes[n:]]
    busy = set()
    for _ in range(rnd.randint(2, 5)):
        kind = rnd.choice(["join", "join", "leave", "move", "replace"])
        avail = [a for a in ring if a not in busy]
        if kind in ("join", "replace") and not free or len(avail) < 2:
            kind = "leave" if len(avail) >= 2 else "join"
        if kind == "join" and free:
            a = free.pop()
            out.append("prepare_join %s %s" % (a, ",".join(str(token()) for _ in range(vnodes))))
        elif kind == "leave":
            a = rnd.choice(avail)
            busy.add(a)
            out.append("prepare_leave %s" % a)
        elif kind == "move" and vnodes == 1:
            a = rnd.choice(avail)
            busy.add(a)
            out.append("prepare_move %s %d" % (a, token()))
        elif free:
            a = rnd.choice(avail)
            b = free.pop()
            busy.add(a)
            out.append("prepare_replace %s %s" % (a, b))
print("\n".join(out))
