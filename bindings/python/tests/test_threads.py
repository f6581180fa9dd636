# SPDX-License-Identifier: Apache-2.0
"""Many threads reading one ring (the C calls run without the GIL), and a writer swapping
rings in while readers finish on the old one."""
import random
import threading

import tokenring
from tokenring import Replication, Ring, Topology


def _topology(seed: int, nodes: int = 30, vnodes: int = 16) -> Topology:
    rnd = random.Random(seed)
    topo = Topology()
    used = set()
    for i in range(nodes):
        toks = []
        while len(toks) < vnodes:
            t = rnd.randrange(-2 ** 63, 2 ** 63)
            if t not in used:
                used.add(t)
                toks.append(t)
        topo.add_node(f"n{i:02d}", f"dc{i % 3}", f"r{i % 2}", toks)
    return topo


REPL = Replication.network({"dc0": 3, "dc1": 2, "dc2": 1})


def test_threads_read_one_ring():
    ring = Ring(_topology(1))
    keys = [f"key-{i}".encode() for i in range(3000)]
    want = [ring.replicas(k, REPL) for k in keys]
    owners = [ring.owner(k) for k in keys]
    errors = []

    def reader(tid: int) -> None:
        try:
            order = list(range(len(keys)))
            random.Random(tid).shuffle(order)
            for i in order:
                assert ring.replicas(keys[i], REPL) == want[i]
                assert ring.owner(keys[i]) == owners[i]
            toks, ids = ring.placement(REPL).route(keys)
            sets = ring.placement(REPL).replica_sets
            assert [sets[j] for j in ids] == want
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=reader, args=(t,)) for t in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]


def test_swap_rings_while_reading():
    rings = [Ring(_topology(s)) for s in (2, 3)]
    answers = [{k: r.replicas(k, REPL) for k in (b"a", b"b", b"c")} for r in rings]
    current = {"ring": rings[0], "gen": 0}
    lock = threading.Lock()
    stop = threading.Event()
    errors = []

    def reader() -> None:
        try:
            while not stop.is_set():
                with lock:  # take a reference to the current snapshot
                    ring, gen = current["ring"], current["gen"]
                for k, v in answers[gen % 2].items():
                    assert ring.replicas(k, REPL) == v
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    readers = [threading.Thread(target=reader) for _ in range(4)]
    for t in readers:
        t.start()
    for gen in range(1, 40):
        new = Ring(_topology(2 + gen % 2))  # rebuilt from scratch each time
        new.placement(REPL)
        with lock:
            old = current["ring"]
            current["ring"], current["gen"] = new, gen
        # drop our reference, never close() a ring other threads may hold: the C ring
        # is freed (ffi.gc) when the last reader lets go of it
        del old
    stop.set()
    for t in readers:
        t.join()
    assert not errors, errors[0]
