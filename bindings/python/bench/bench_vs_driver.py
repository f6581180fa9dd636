#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""libtokenring's Python binding next to cassandra-driver's TokenMap, in one process.

Not a test: prints a table. Two figures, both on the same ring (1,000 nodes x 256 random
tokens, 3 datacenters x 3 racks, NetworkTopologyStrategy rf 3 in each datacenter):

* hashing + replica lookup of 1,000,000 random 16-byte keys, in ns per key:
  - tokenring, batched: Placement.route_replicas() (packing the keys, one C call giving
    tokens + replica-set ids, then a vectorised numpy take of the replica-name tuples);
  - tokenring, pre-packed: Placement.route_packed() on keys already in one buffer with
    offsets (what numpy or Arrow hand over without copying): the C call alone;
  - tokenring, per key: Placement.replicas(key) in a Python loop;
  - driver: TokenMap.get_replicas(ks, Murmur3Token.from_key(key)) in a Python loop (the
    driver's C murmur3 extension);
* building the NTS replica map, in ms:
  - tokenring: Ring(topology) + Placement build (and the placement alone);
  - driver: Metadata.rebuild_token_map() + TokenMap.rebuild_keyspace() (and the replica
    map alone, NetworkTopologyStrategy.make_token_replica_map()).

Times are CPU time of this process (time.process_time), best of N runs, so that other
work on a shared machine does not count.

Usage: TOKENRING_BUILD_DIR=build python bindings/python/bench/bench_vs_driver.py
       [--nodes 1000] [--vnodes 256] [--keys 1000000] [--repeat 3] [--driver-keys N]
"""
import argparse
import os
import platform
import random
import sys
import time

import tokenring


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def build_nodes(nodes: int, vnodes: int, seed: int = 1):
    rnd = random.Random(seed)
    used = set()
    out = []
    for i in range(nodes):
        toks = []
        while len(toks) < vnodes:
            t = rnd.randrange(-2 ** 63, 2 ** 63)
            if t not in used:
                used.add(t)
                toks.append(t)
        out.append((f"10.{i // 250}.{i % 250}.1", f"dc{i % 3 + 1}", f"rack{i // 3 % 3 + 1}", toks))
    return out


def timed(fn, repeat: int):
    """Best of ``repeat`` runs, in CPU seconds of this process (time.process_time): the
    machine is shared, and CPU time does not count the time other processes hold the
    cores. Everything measured here is single-threaded."""
    times = []
    result = None
    for _ in range(repeat):
        t0 = time.process_time()
        result = fn()
        times.append(time.process_time() - t0)
    return min(times), result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nodes", type=int, default=1000)
    ap.add_argument("--vnodes", type=int, default=256)
    ap.add_argument("--keys", type=int, default=1_000_000)
    ap.add_argument("--driver-keys", type=int, default=None,
                    help="keys for the driver's lookup loop (default: --keys)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-driver", action="store_true")
    args = ap.parse_args()

    try:
        import cassandra
        from cassandra.metadata import KeyspaceMetadata, Metadata, Murmur3Token
        from cassandra.policies import SimpleConvictionPolicy
        from cassandra.pool import Host
        have_driver = not args.no_driver
    except ImportError:
        have_driver = False

    import cffi
    print(f"machine: {os.cpu_count()} CPUs, {_cpu_model()}; Python {platform.python_version()}, "
          f"cffi {cffi.__version__}, libtokenring {tokenring.library_version}"
          + (f", cassandra-driver {cassandra.__version__}" if have_driver else "")
          + (", numpy" if tokenring.HAVE_NUMPY else ", no numpy"))
    if hasattr(os, "getloadavg"):
        print("load average at start: %.2f %.2f %.2f" % os.getloadavg())
    nodes = build_nodes(args.nodes, args.vnodes)
    ntok = args.nodes * args.vnodes
    print(f"ring: {args.nodes} nodes x {args.vnodes} tokens = {ntok} tokens, 3 DCs x 3 racks, "
          f"NetworkTopologyStrategy dc1=3,dc2=3,dc3=3")

    repl = tokenring.Replication.network({"dc1": 3, "dc2": 3, "dc3": 3})
    topo = tokenring.Topology(nodes)

    def ours_build():
        ring = tokenring.Ring(topo)
        return ring, tokenring.Placement(ring, repl)

    t_build, (ring, placement) = timed(ours_build, args.repeat)
    t_place, _ = timed(lambda: tokenring.Placement(ring, repl), args.repeat)
    print(f"\n== replica map build (best of {args.repeat})")
    print(f"tokenring  Ring + Placement          {t_build * 1e3:10.1f} ms")
    print(f"tokenring  Placement alone           {t_place * 1e3:10.1f} ms")

    drv_build = drv_map = None
    if have_driver:
        token_map = {}
        hosts = {}
        for name, dc, rack, toks in nodes:
            h = Host(name, SimpleConvictionPolicy, datacenter=dc, rack=rack)
            hosts[name] = h
            token_map[h] = [str(t) for t in toks]
        md = Metadata()
        md.keyspaces["ks"] = KeyspaceMetadata("ks", True, "NetworkTopologyStrategy",
                                              {"dc1": "3", "dc2": "3", "dc3": "3"})

        def drv_full():
            md.rebuild_token_map("org.apache.cassandra.dht.Murmur3Partitioner", token_map)
            md.token_map.rebuild_keyspace("ks", build_if_absent=True)
            return md.token_map

        drv_build, tm = timed(drv_full, 1)
        strategy = md.keyspaces["ks"].replication_strategy
        drv_map, _ = timed(lambda: strategy.make_token_replica_map(tm.token_to_host_owner,
                                                                     tm.ring), 1)
        print(f"driver     token map + replica map   {drv_build * 1e3:10.1f} ms   (1 run)")
        print(f"driver     replica map alone         {drv_map * 1e3:10.1f} ms   (1 run)")
        print(f"speed-up   full build {drv_build / t_build:8.1f}x   replica map "
              f"{drv_map / t_place:8.1f}x   (target >= 100x)")

    rnd = random.Random(2)
    blob = rnd.randbytes(16 * args.keys)
    keys = [blob[i:i + 16] for i in range(0, len(blob), 16)]
    print(f"\n== hashing + replica lookup, {args.keys} random 16-byte keys (best of "
          f"{args.repeat})")

    t0 = time.process_time()
    placement.route_replicas(keys[:1])  # builds the names table of every replica set once
    t_table = time.process_time() - t0

    def ours_batch():
        return placement.route_replicas(keys)

    t_batch, res_batch = timed(ours_batch, args.repeat)

    def ours_route_only():
        return placement.route(keys)

    t_route, _ = timed(ours_route_only, args.repeat)

    packed = b"".join(keys)
    if tokenring.HAVE_NUMPY:
        import numpy as np
        offsets = np.arange(0, 16 * (len(keys) + 1), 16, dtype=np.uint64)
    else:
        offsets = list(range(0, 16 * (len(keys) + 1), 16))

    def ours_packed():
        return placement.route_packed(packed, offsets)

    t_packed, _ = timed(ours_packed, args.repeat)

    def ours_loop():
        rep = placement.replicas
        return [rep(k) for k in keys]

    t_loop, res_loop = timed(ours_loop, args.repeat)
    ns = 1e9 / args.keys
    print(f"tokenring  (names table of {placement.set_count} replica sets, built once: "
          f"{t_table * 1e3:.0f} ms)")
    print(f"tokenring  batch route + names       {t_batch * ns:10.0f} ns/key")
    print(f"tokenring  batch route (ids only)    {t_route * ns:10.0f} ns/key")
    print(f"tokenring  pre-packed route_packed() {t_packed * ns:10.0f} ns/key   (keys already "
          f"in one buffer, as numpy/Arrow hold them)")
    print(f"tokenring  per-key replicas() loop   {t_loop * ns:10.0f} ns/key")
    assert list(res_batch[:1000]) == res_loop[:1000]

    if have_driver:
        n_drv = args.driver_keys or args.keys
        dkeys = keys[:n_drv]
        get = tm.get_replicas
        from_key = Murmur3Token.from_key

        def drv_loop():
            return [get("ks", from_key(k)) for k in dkeys]

        t_drv, res_drv = timed(drv_loop, 1 if n_drv >= 500_000 else args.repeat)
        dns = 1e9 / n_drv
        print(f"driver     per-key get_replicas loop {t_drv * dns:10.0f} ns/key   "
              f"({n_drv} keys)")
        for k, theirs in zip(dkeys[:2000], res_drv[:2000]):
            assert {h.address for h in theirs} <= set(placement.replicas(k))
        print(f"speed-up   batch {t_drv * dns / (t_batch * ns):8.1f}x   pre-packed "
              f"{t_drv * dns / (t_packed * ns):8.1f}x   per-key loop "
              f"{t_drv * dns / (t_loop * ns):8.1f}x   (target >= 20x)")
    if hasattr(os, "getloadavg"):
        print("load average at end: %.2f %.2f %.2f" % os.getloadavg())
    return 0


if __name__ == "__main__":
    sys.exit(main())
