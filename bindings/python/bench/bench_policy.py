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
* topology change (a node joins dc1 or leaves again): Metadata.rebuild_token_map() builds
  the driver's TokenMap (untimed: the driver builds it whatever the policy, and it is
  printed apart), then each policy's first routed query is timed: TokenAwarePolicy builds
  the keyspace's replica map, TokenRingPolicy applies the token map's change to its router
  as join / leave events ("from scratch": a policy with no previous state builds its
  router anew through RouterBuilder);
* schema change (ALTER KEYSPACE: a new KeyspaceMetadata): driver rebuild_keyspace() vs the
  policy's keyspace event on its router.

Times are CPU time of the benchmark's thread (time.thread_time, as the Go benchmark's
thread CPU clock: the process's clock would also count other threads, such as numpy's
OpenBLAS threads, which spin now and then), the two policies taking turns:
per query by whole passes over the keys, the order of the two alternating from pass to
pass (each pass timed in slices of --chunk queries; the figure is the best slice, the
spread the ratio of whole passes), for changes one change or ALTER each, the order of the
policies rotating from turn to turn (the figure is the best turn, the spread the min-max
ratio over the turns). Printed after the table: for topology changes, the best and the
median of each policy over the turns in which it went first (right after the driver's
TokenMap, as in an application); paired medians (per query: each slice's best pass for
each policy, the median over the slices of the ratio; per change and ALTER: the median of
the per-turn ratio).

Usage: TOKENRING_BUILD_DIR=build PYTHONPATH=build/bindings/python/ext:bindings/python \\
       python bindings/python/bench/bench_policy.py [--keys 20000] [--repeat 5]
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

#: The clock: CPU time of this thread (every policy call and the driver's work run here).
cpu = time.thread_time

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
        t0 = cpu()
        fn()
        times.append(cpu() - t0)
    return min(times)


def interleaved(fns, rounds, start=0):
    """Best (minimum) CPU time of each of ``fns`` over ``rounds`` rounds, the functions
    taking turns within each round (so that a burst of load on the machine falls on both
    sides alike), and the per-round times of each. The order rotates from round to round
    (round r starts with fns[(start + r) % len(fns)]): what runs just before a function
    (a change of the driver's TokenMap, or another policy's rebuild, which evicts the
    caches) is the same for every function over the rounds, not always the same one."""
    times = [[] for _ in fns]
    for r in range(rounds):
        for j in range(len(fns)):
            i = (start + r + j) % len(fns)
            t0 = cpu()
            fns[i]()
            times[i].append(cpu() - t0)
    return [min(t) for t in times], times


def spread(a, b):
    """min..max over rounds of a[i] / b[i]."""
    r = sorted(x / y for x, y in zip(a, b) if y > 0)
    return f"{r[0]:.1f}-{r[-1]:.1f}x" if r else "-"


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return (xs[n // 2] + xs[(n - 1) // 2]) / 2 if n else float("nan")


def paired(a, b):
    """median of the ratios a[i] / b[i] (pairs measured on the same work: the same slice of
    keys, the same topology change or ALTER)."""
    return median([x / y for x, y in zip(a, b) if y > 0])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nodes-per-dc", type=int, default=48)
    ap.add_argument("--vnodes", type=int, default=256)
    ap.add_argument("--keys", type=int, default=20000)
    ap.add_argument("--chunk", type=int, default=500, help="queries per timed slice")
    ap.add_argument("--repeat", type=int, default=5,
                    help="passes over the keys (per query); 5x this many plans, 4x this "
                         "many topology changes and ALTERs")
    a = ap.parse_args()

    md, tm = build(a.nodes_per_dc, a.vnodes)
    md.rebuild_token_map(PARTITIONER, tm)
    hosts = list(md.all_hosts())
    cluster = types.SimpleNamespace(metadata=md)
    theirs = TokenAwarePolicy(DCAwareRoundRobinPolicy("dc1"))
    theirs.populate(cluster, hosts)
    ours = driver.TokenRingPolicy(DCAwareRoundRobinPolicy("dc1"))
    ours.populate(cluster, hosts)
    fresh = driver.TokenRingPolicy(DCAwareRoundRobinPolicy("dc1"))
    fresh.populate(cluster, hosts)
    rnd = random.Random(1)
    stmts = [Stmt("ks", rnd.getrandbits(64).to_bytes(8, "big")) for _ in range(a.keys)]
    for s in stmts:     # warm both (the driver builds its replica map lazily; the
        next(iter(theirs.make_query_plan(None, s)))   # policy its host tuple per set)
        next(iter(ours.make_query_plan(None, s)))
    # the same first host for every key, or the comparison is meaningless
    same = sum(next(iter(theirs.make_query_plan(None, s))) is
               next(iter(ours.make_query_plan(None, s))) for s in stmts[:2000])

    chunks = [stmts[i:i + a.chunk] for i in range(0, len(stmts), a.chunk)]

    def route(policy, chunk):
        def run():
            mq = policy.make_query_plan
            for s in chunk:
                next(iter(mq(None, s)))
        return run

    def whole(policy, chunk):
        def run():
            mq = policy.make_query_plan
            for s in chunk:
                for _ in mq(None, s):
                    pass
        return run

    # per query: the policies take turns by whole passes over the keys (one policy's
    # pass never evicts the other's memory from the caches mid-pass: in an application
    # only one of them is installed), each pass timed in slices of --chunk queries;
    # the figure is the best slice, the spread the ratio of whole passes
    q_rt, q_ro, pass_t, pass_o = [], [], [], []
    sides = ((q_rt, pass_t, theirs), (q_ro, pass_o, ours))
    for r in range(a.repeat):
        # the order of the two alternates from pass to pass
        for mine, passes, policy in (sides if r % 2 == 0 else sides[::-1]):
            total = 0.0
            for c in chunks:
                run = route(policy, c)
                t0 = cpu()
                run()
                d = cpu() - t0
                mine.append(d)
                total += d
            passes.append(total)
    n_chunk = len(chunks[0])
    q_theirs = min(q_rt) / n_chunk * 1e6
    q_ours = min(q_ro) / n_chunk * 1e6
    # paired by slice: each slice's best pass for each policy (the same keys), then the
    # median over the slices of their ratio
    nc = len(chunks)
    s_best_t = [min(q_rt[p * nc + c] for p in range(a.repeat)) for c in range(nc)]
    s_best_o = [min(q_ro[p * nc + c] for p in range(a.repeat)) for c in range(nc)]
    small = stmts[:200]
    (p_t, p_o), (p_rt, p_ro) = interleaved([whole(theirs, small), whole(ours, small)],
                                           5 * a.repeat)
    p_theirs, p_ours = p_t / len(small) * 1e6, p_o / len(small) * 1e6

    # topology change: a node joins dc1 or leaves again (alternately); the driver builds
    # its TokenMap (untimed, whatever the policy), then each policy's first routed query
    # is timed: TokenAwarePolicy builds the keyspace's replica map, TokenRingPolicy reads
    # the token map into its ring and updates its placement ("fresh": a policy with no
    # previous state, which builds the placement from scratch, as at first connection)
    probe = stmts[0]
    joiner = Host("10.9.9.9", SimpleConvictionPolicy, datacenter="dc1", rack="r1")
    joiner.set_up()
    tm2 = dict(tm)
    jr = random.Random(7)
    tm2[joiner] = [str(jr.randint(-2**63, 2**63 - 1)) for _ in range(a.vnodes)]
    maps = [tm, tm2]
    flip = {"i": 0}

    def first(policy):
        def run():
            next(iter(policy.make_query_plan(None, probe)))
        return run

    def from_scratch():
        fresh._state = driver._NO_RING
        next(iter(fresh.make_query_plan(None, probe)))

    def tokenmap():
        flip["i"] ^= 1
        md.rebuild_token_map(PARTITIONER, maps[flip["i"]])

    t_rt, t_ro, t_rf, t_map = [], [], [], []
    for turn in range(4 * a.repeat):
        t0 = cpu()
        tokenmap()
        t_map.append(cpu() - t0)
        # each of the three goes first, right after the driver's TokenMap, in a third of
        # the turns (as in an application, where only one policy is installed)
        _, (rt, ro, rf) = interleaved([first(theirs), first(ours), from_scratch], 1, turn)
        t_rt += rt
        t_ro += ro
        t_rf += rf
    t_theirs, t_ours, t_fresh, t_tm = min(t_rt), min(t_ro), min(t_rf), min(t_map)

    # schema change: ALTER KEYSPACE to a replication never seen before each time (the Ring
    # caches placements by replication: a repeated one would cost nothing); the driver
    # rebuilds the keyspace's replica map as Metadata does on ALTER
    alt = [KeyspaceMetadata("ks", True, NTS, {"dc1": "2", "dc2": str(k)})
           for k in range(1, 8 * a.repeat + 2)]
    state = {"i": 0}

    def schema_theirs():
        md.token_map.rebuild_keyspace("ks", build_if_absent=False)
        next(iter(theirs.make_query_plan(None, probe)))

    s_rt, s_ro = [], []
    for turn in range(4 * a.repeat):
        state["i"] += 1
        md.keyspaces["ks"] = alt[state["i"]]
        _, (rt, ro) = interleaved([schema_theirs, first(ours)], 1, turn)
        s_rt += rt
        s_ro += ro
    s_theirs, s_ours = min(s_rt), min(s_ro)

    print(f"# Python {platform.python_version()}, cassandra-driver {cassandra.__version__}, "
          f"libtokenring {tokenring.library_version}; {2 * a.nodes_per_dc} nodes x "
          f"{a.vnodes} tokens, 2 dcs x 3 racks, NTS dc1:3 dc2:3, child DCAwareRoundRobinPolicy;"
          f" thread CPU time, the two policies taking turns, best of {len(q_rt)} slices of "
          f"{n_chunk} queries ({a.repeat} passes of {len(stmts)} each) / {len(p_rt)} x {len(small)} plans / {len(t_rt)} topology "
          f"changes / {len(s_rt)} ALTERs")
    print(f"# same first host on {same} of 2000 keys; 'turns' = min-max ratio over the turns "
          "(per query: over the passes)")
    print("| figure | TokenAwarePolicy | TokenRingPolicy | ratio (best) | turns |")
    print("| --- | ---: | ---: | ---: | ---: |")
    print(f"| query plan, first host (us/query) | {q_theirs:.2f} | {q_ours:.2f} | "
          f"{q_theirs / q_ours:.1f}x | {spread(pass_t, pass_o)} |")
    print(f"| query plan, every host (us/query) | {p_theirs:.2f} | {p_ours:.2f} | "
          f"{p_theirs / p_ours:.1f}x | {spread(p_rt, p_ro)} |")
    print(f"| topology change: replica map rebuild (ms) | {t_theirs * 1e3:.0f} | "
          f"{t_ours * 1e3:.1f} | {t_theirs / t_ours:.0f}x | {spread(t_rt, t_ro)} |")
    print(f"| same, the policy from scratch (ms) | {t_theirs * 1e3:.0f} | "
          f"{t_fresh * 1e3:.1f} | {t_theirs / t_fresh:.0f}x | {spread(t_rt, t_rf)} |")
    print(f"| topology change with the driver's TokenMap (ms) | {(t_tm + t_theirs) * 1e3:.0f} | "
          f"{(t_tm + t_ours) * 1e3:.0f} | {(t_tm + t_theirs) / (t_tm + t_ours):.1f}x | |")
    print(f"| of which the driver's TokenMap (ms) | {t_tm * 1e3:.0f} | {t_tm * 1e3:.0f} | | |")
    print(f"| schema change to first routed query (ms) | {s_theirs * 1e3:.0f} | "
          f"{s_ours * 1e3:.1f} | {s_theirs / s_ours:.0f}x | {spread(s_rt, s_ro)} |")
    # the turns in which each went first, right after the driver's TokenMap (turn % 3 is
    # the index of the first, see interleaved): what an application sees
    nt = len(t_rt)
    f_t = [t_rt[i] for i in range(nt) if i % 3 == 0]
    f_o = [t_ro[i] for i in range(nt) if i % 3 == 1]
    print(f"# topology change, each policy's {len(f_t)}/{len(f_o)} turns right after the "
          f"driver's TokenMap: best {min(f_t) * 1e3:.0f} / {min(f_o) * 1e3:.2f} ms = "
          f"{min(f_t) / min(f_o):.0f}x, median {median(f_t) * 1e3:.0f} / "
          f"{median(f_o) * 1e3:.2f} ms = {median(f_t) / median(f_o):.0f}x")
    print(f"# paired medians (the ratio on the same work, median over the pairs): per query "
          f"{paired(s_best_t, s_best_o):.1f}x over {nc} slices (each slice's best of "
          f"{a.repeat} passes, range {spread(s_best_t, s_best_o)}); topology change "
          f"{paired(t_rt, t_ro):.0f}x, from scratch {paired(t_rt, t_rf):.0f}x over "
          f"{len(t_rt)} changes; ALTER {paired(s_rt, s_ro):.0f}x")


if __name__ == "__main__":
    main()
