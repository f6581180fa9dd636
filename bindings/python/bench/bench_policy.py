#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tokenring.driver.TokenRingPolicy next to cassandra-driver's TokenAwarePolicy, in one
process, on the same driver Metadata (built without a server: Host objects and
Metadata.rebuild_token_map, as the driver's unit tests do).

Not a test: prints a table. The ring: 96 nodes x 256 random tokens, two datacenters of 48
nodes on 3 racks each; a keyspace {dc1: 3, dc2: 3}; child policy DCAwareRoundRobinPolicy
("dc1").

* per query: make_query_plan(statement) and the first host of the plan, in us (random
  8-byte routing keys, a working set of --keys keys);
* topology change: what follows a new token map until the first query is routed again:
  - driver: Metadata.rebuild_token_map() + the keyspace's replica map (TokenAwarePolicy's
    first get_replicas builds it);
  - tokenring: the driver's TokenMap is still built (the driver builds it whatever the
    policy), so the figure is rebuild_token_map() + the policy's ring and placement; the
    policy's own share is printed too;
* schema change (ALTER KEYSPACE: a new KeyspaceMetadata): driver rebuild_keyspace() vs the
  policy's placement rebuild.

Times are CPU time of this process (time.process_time), best of --repeat runs.

Usage: TOKENRING_BUILD_DIR=build PYTHONPATH=bindings/python \\
       python bindings/python/bench/bench_policy.py [--keys 20000] [--repeat 3]
"""
import argparse
import os
import platform
import random
import sys
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import cassandra  # noqa: E402
from cassandra.metadata import KeyspaceMetadata, Metadata  # noqa: E402
from cassandra.policies import (DCAwareRoundRobinPolicy, SimpleConvictionPolicy,  # noqa: E402
                                TokenAwarePolicy)
from cassandra.pool import Host  # noqa: E402

import tokenring  # noqa: E402
from tokenring import driver  # noqa: E402

PARTITIONER = "org.apache.cassandra.dht.Murmur3Partitioner"
NTS = "org.apache.cassandra.locator.NetworkTopologyStrategy"


class Stmt:
    __slots__ = ("keyspace", "routing_key")

    def __init__(self, ks, key):
        self.keyspace = ks
        self.routing_key = key


def build(nodes_per_dc, vnodes, seed=42):
    rnd = random.Random(seed)
    used = set()
    token_map = {}
    md = Metadata()
    md.partitioner = PARTITIONER
    for d, dc in enumerate(("dc1", "dc2")):
        for i in range(nodes_per_dc):
            h = Host(f"10.{d}.{i // 250}.{i % 250 + 1}", SimpleConvictionPolicy,
                     datacenter=dc, rack=f"r{i % 3 + 1}")
            h.set_up()
            md._hosts[h.endpoint] = h
            toks = []
            while len(toks) < vnodes:
                t = rnd.randint(-2**63, 2**63 - 1)
                if t not in used:
                    used.add(t)
                    toks.append(str(t))
            token_map[h] = toks
    md.keyspaces["ks"] = KeyspaceMetadata("ks", True, NTS, {"dc1": "3", "dc2": "3"})
    return md, token_map


def best(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return min(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nodes-per-dc", type=int, default=48)
    ap.add_argument("--vnodes", type=int, default=256)
    ap.add_argument("--keys", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()

    md, tm = build(a.nodes_per_dc, a.vnodes)
    md.rebuild_token_map(PARTITIONER, tm)
    hosts = list(md.all_hosts())
    cluster = types.SimpleNamespace(metadata=md)
    theirs = TokenAwarePolicy(DCAwareRoundRobinPolicy("dc1"))
    theirs.populate(cluster, hosts)
    ours = driver.TokenRingPolicy(DCAwareRoundRobinPolicy("dc1"))
    ours.populate(cluster, hosts)
    rnd = random.Random(1)
    stmts = [Stmt("ks", rnd.getrandbits(64).to_bytes(8, "big")) for _ in range(a.keys)]
    for s in stmts[:10]:     # warm both (the driver builds its replica map lazily)
        next(iter(theirs.make_query_plan(None, s)))
        next(iter(ours.make_query_plan(None, s)))
    # the same first host for every key, or the comparison is meaningless
    same = sum(next(iter(theirs.make_query_plan(None, s))) is
               next(iter(ours.make_query_plan(None, s))) for s in stmts[:2000])

    def route(policy):
        def run():
            for s in stmts:
                next(iter(policy.make_query_plan(None, s)))
        return run

    def whole(policy):
        def run():
            for s in stmts[:2000]:
                for _ in policy.make_query_plan(None, s):
                    pass
        return run

    q_theirs = best(route(theirs), a.repeat) / len(stmts) * 1e6
    q_ours = best(route(ours), a.repeat) / len(stmts) * 1e6
    p_theirs = best(whole(theirs), a.repeat) / 2000 * 1e6
    p_ours = best(whole(ours), a.repeat) / 2000 * 1e6

    # topology change: a node joins dc1 or leaves again (alternately), then the first
    # routed query
    probe = stmts[0]
    joiner = Host("10.9.9.9", SimpleConvictionPolicy, datacenter="dc1", rack="r1")
    joiner.set_up()
    tm2 = dict(tm)
    jr = random.Random(7)
    tm2[joiner] = [str(jr.randint(-2**63, 2**63 - 1)) for _ in range(a.vnodes)]
    maps = [tm, tm2]
    flip = {"i": 0}

    def change():
        flip["i"] ^= 1
        md.rebuild_token_map(PARTITIONER, maps[flip["i"]])

    def topo_theirs():
        change()
        next(iter(theirs.make_query_plan(None, probe)))

    def topo_ours():
        change()
        next(iter(ours.make_query_plan(None, probe)))

    def tokenmap_only():
        change()

    t_theirs = best(topo_theirs, 2 * a.repeat)
    t_ours = best(topo_ours, 2 * a.repeat)
    t_map = best(tokenmap_only, 2 * a.repeat)
    # the policy's own share: a fresh ring and placement from the same token map
    fixed = md.token_map

    def policy_only():
        ours._state = driver._NO_RING
        md.token_map = fixed
        next(iter(ours.make_query_plan(None, probe)))

    t_policy = best(policy_only, a.repeat)   # a full rebuild: no placement to update from

    # schema change: ALTER KEYSPACE between two factors
    # a replication never seen before each time (the Ring caches placements by
    # replication: a repeated one would cost nothing)
    alt = [KeyspaceMetadata("ks", True, NTS, {"dc1": "2", "dc2": str(k)})
           for k in range(1, 4 * a.repeat + 2)]
    state = {"i": 0}

    def schema_theirs():
        state["i"] += 1
        md.keyspaces["ks"] = alt[state["i"]]
        md.token_map.rebuild_keyspace("ks", build_if_absent=False)  # as Metadata does on ALTER
        next(iter(theirs.make_query_plan(None, probe)))

    def schema_ours():
        state["i"] += 1
        md.keyspaces["ks"] = alt[state["i"]]
        next(iter(ours.make_query_plan(None, probe)))

    s_theirs = best(schema_theirs, a.repeat)
    state["i"] = 0
    s_ours = best(schema_ours, a.repeat)

    print(f"# Python {platform.python_version()}, cassandra-driver {cassandra.__version__}, "
          f"libtokenring {tokenring.library_version}; {2 * a.nodes_per_dc} nodes x "
          f"{a.vnodes} tokens, 2 dcs x 3 racks, NTS dc1:3 dc2:3, child DCAwareRoundRobinPolicy;"
          f" CPU time, best of {a.repeat}")
    print(f"# same first host on {same} of 2000 keys")
    print("| figure | TokenAwarePolicy | TokenRingPolicy | ratio |")
    print("| --- | ---: | ---: | ---: |")
    print(f"| query plan, first host (us/query) | {q_theirs:.2f} | {q_ours:.2f} | "
          f"{q_theirs / q_ours:.1f}x |")
    print(f"| query plan, every host (us/query) | {p_theirs:.2f} | {p_ours:.2f} | "
          f"{p_theirs / p_ours:.1f}x |")
    print(f"| topology change to first routed query (ms) | {t_theirs * 1e3:.0f} | "
          f"{t_ours * 1e3:.0f} | {t_theirs / t_ours:.1f}x |")
    print(f"| of which the driver's TokenMap (ms) | {t_map * 1e3:.0f} | {t_map * 1e3:.0f} | |")
    print(f"| replica map rebuild alone (ms) | {(t_theirs - t_map) * 1e3:.0f} | "
          f"{t_policy * 1e3:.1f} | {(t_theirs - t_map) / t_policy:.0f}x |")
    print(f"| schema change to first routed query (ms) | {s_theirs * 1e3:.0f} | "
          f"{s_ours * 1e3:.1f} | {s_theirs / s_ours:.0f}x |")


if __name__ == "__main__":
    main()
