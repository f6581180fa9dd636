# SPDX-License-Identifier: Apache-2.0
"""Lifetimes: rings outlive topologies, placements outlive rings, use after close raises."""
import gc

import pytest

import tokenring
from tokenring import ClosedError, Replication, Ring, Topology


def _topo():
    return Topology([("A", "dc1", "r1", [10, 50]), ("B", "dc1", "r2", [30, 80]),
                     ("C", "dc2", "r1", [65, 95])])


def test_ring_outlives_dropped_topology():
    topo = _topo()
    ring = Ring(topo)
    del topo
    gc.collect()
    assert ring.owner(42) == "A"
    assert ring.replicas(42, {"dc1": 2, "dc2": 1}) == ("A", "C", "B")


def test_ring_outlives_closed_and_edited_topology():
    topo = _topo()
    ring = Ring(topo)
    topo.remove_node("A")
    assert ring.owner(42) == "A"  # the snapshot does not change
    topo.close()
    assert topo.closed
    with pytest.raises(ClosedError):
        topo.add_node("D", "dc1", "r1", [1])
    with pytest.raises(ClosedError):
        len(topo)
    with pytest.raises(ClosedError):
        Ring(topo)
    assert ring.owner(42) == "A"
    topo.close()  # twice is harmless


def test_use_after_close_raises():
    ring = Ring(_topo())
    ring.close()
    for call in (lambda: ring.owner(1), lambda: ring.range_of(1), lambda: len(ring),
                 lambda: ring.tokens, lambda: ring.replicas(1, 1), lambda: ring.ownership(),
                 lambda: ring.placement(1), lambda: ring.describe_ring(1),
                 lambda: ring.search([1]), lambda: ring.datacenters):
        with pytest.raises(ClosedError):
            call()


def test_placement_outlives_ring_and_replication():
    ring = Ring(_topo())
    repl = Replication.network({"dc1": 2, "dc2": 1})
    pl = ring.placement(repl)
    want = pl.replicas(42)
    ring.close()
    repl.close()
    del ring, repl
    gc.collect()
    assert pl.replicas(42) == want
    assert pl.ring.closed
    pl.close()
    with pytest.raises(ClosedError):
        pl.replicas(42)


def test_closed_replication_rejected():
    repl = Replication.simple(2)
    repl.close()
    with pytest.raises(ClosedError):
        str(repl)
    with pytest.raises(ClosedError):
        Ring(_topo()).replicas(1, repl)


def test_context_managers():
    with _topo() as topo, Ring(topo) as ring, Replication.simple(2) as repl:
        with ring.placement(repl) as pl:
            assert pl.replicas(42) == ("A", "C")
        assert pl.closed
        # a closed cached placement is rebuilt on demand
        assert ring.replicas(42, repl) == ("A", "C")
    assert topo.closed and ring.closed and repl.closed
    with pytest.raises(ClosedError):
        with ring:
            pass


def test_many_rings_freed():
    # build and drop many rings and placements; ffi.gc frees them (no crash, no growth
    # in live Python objects)
    topo = _topo()
    for _ in range(2000):
        r = Ring(topo)
        r.replicas(b"k", 2)
    del r
    gc.collect()
