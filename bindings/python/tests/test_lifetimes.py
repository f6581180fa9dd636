# SPDX-License-Identifier: Apache-2.0
"""Lifetimes: rings outlive topologies, placements outlive rings, use after close raises."""
import gc
import json
import os
import subprocess
import sys

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


# Run in a fresh interpreter: the library's allocator may only be replaced while no
# library object is alive. It counts live allocations (malloc/realloc/free of the
# library, through tokenring_set_allocator) and prints them as JSON.
_COUNTING = r"""
import ctypes, gc, json, sys
import tokenring
from tokenring import _ffi as ffi, _lib as lib

libc = ctypes.CDLL(None)
libc.malloc.restype = libc.realloc.restype = ctypes.c_void_p
libc.malloc.argtypes = [ctypes.c_size_t]
libc.realloc.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
libc.free.argtypes = [ctypes.c_void_p]
live = set()
MALLOC = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p)
REALLOC = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p)
FREE = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)

@MALLOC
def c_malloc(size, user):
    p = libc.malloc(size)
    if p:
        live.add(p)
    return p

@REALLOC
def c_realloc(ptr, size, user):
    p = libc.realloc(ptr, size)
    if p:
        live.discard(ptr)
        live.add(p)
    return p

@FREE
def c_free(ptr, user):
    if ptr:
        live.remove(ptr)  # a free of memory this allocator did not give out fails here
    libc.free(ptr)

def fn(cfn, ctype):
    return ffi.cast(ctype, ctypes.cast(cfn, ctypes.c_void_p).value)

alloc = ffi.new("tokenring_allocator *")
alloc.malloc_fn = fn(c_malloc, "void *(*)(size_t, void *)")
alloc.realloc_fn = fn(c_realloc, "void *(*)(void *, size_t, void *)")
alloc.free_fn = fn(c_free, "void (*)(void *, void *)")
assert lib.tokenring_set_allocator(alloc) == 0

out = {"start": len(live)}
topo = tokenring.Topology([("A", "dc1", "r1", [10, 50]), ("B", "dc1", "r2", [30, 80]),
                           ("C", "dc2", "r1", [65, 95])])
out["topology"] = len(live)
peak = 0
for i in range(int(sys.argv[1])):
    r = tokenring.Ring(topo)
    r.replicas(b"k", 2)
    r.placement({"dc1": 2, "dc2": 1}).route_tokens([1, 2, 3])
    m = tokenring.Movement.decommission(topo, 2, "A", samples=[42])
    peak = max(peak, len(live))
del r, m
gc.collect()
out["peak"] = peak
out["after"] = len(live)
# a ring built through the C API and not freed must show as one more live block set
pp = ffi.new("tokenring_ring **")
assert lib.tokenring_ring_build(pp, topo._p(), ffi.NULL) == 0
out["leaked"] = len(live)
lib.tokenring_ring_free(pp[0])
out["leak_freed"] = len(live)
topo.close()
gc.collect()
out["end"] = len(live)
assert lib.tokenring_set_allocator(ffi.NULL) == 0
print(json.dumps(out))
"""


def _count_live_allocations(rounds):
    env = dict(os.environ)
    r = subprocess.run([sys.executable, "-c", _COUNTING, str(rounds)], capture_output=True,
                       text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_many_rings_freed():
    # 500 rings, each with two placements and a movement analysis, all dropped: every
    # block the library allocated for them is freed again (counted by an allocator
    # installed through tokenring_set_allocator in a fresh interpreter)
    c = _count_live_allocations(500)
    assert c["topology"] > c["start"]           # the counter sees the library's blocks
    assert c["peak"] > c["topology"]            # ... and those of the live ring
    assert c["after"] == c["topology"]          # nothing of 500 rounds is left
    assert c["leaked"] > c["after"]             # a ring that is not freed is seen
    assert c["leak_freed"] == c["after"]
    assert c["end"] == c["start"]               # the topology's blocks are freed too
