# SPDX-License-Identifier: Apache-2.0
"""Placement.route_ranges / route_ranges_packed: each key's token, own range and replica
set, checked key by key against the single-key lookups (token, Ring.range_index,
Placement.key_set_id, Placement.replicas / range_replicas)."""
import os
import random
import subprocess
import sys
import textwrap

import pytest

import tokenring
from tokenring import InvalidArgumentError, Replication, Topology, UnsupportedError
from tokenring import _placement

np = pytest.importorskip("numpy") if tokenring.HAVE_NUMPY else None
needs_numpy = pytest.mark.skipif(not tokenring.HAVE_NUMPY, reason="numpy not installed")


def _ring(nodes, vnodes, dcs, seed):
    rnd = random.Random(seed)
    topo = Topology()
    taken = set()
    for n in range(nodes):
        toks = []
        while len(toks) < vnodes:
            t = rnd.randrange(-2 ** 63 + 1, 2 ** 63)
            if t not in taken:
                taken.add(t)
                toks.append(t)
        topo.add_node(f"n{n}", f"dc{n % dcs + 1}", f"r{n % 3}", toks)
    return tokenring.Ring(topo)


@pytest.fixture(scope="module")
def small_ring():
    return _ring(3, 2, 1, 1)


@pytest.fixture(scope="module")
def large_ring():
    return _ring(120, 16, 2, 2)  # 1,920 ranges, two datacenters


def _keys(n, seed=7):
    rnd = random.Random(seed)
    return [bytes(rnd.randrange(256) for _ in range(rnd.randrange(0, 24))) for _ in range(n)]


def _check(ring, pl, keys, got):
    toks, ranges, sets = (list(map(int, x)) for x in got)
    assert len(toks) == len(ranges) == len(sets) == len(keys)
    for k, t, r, s in zip(keys, toks, ranges, sets):
        assert t == tokenring.token(k)
        assert r == ring.range_index(t)
        assert s == pl.key_set_id(k)
        assert pl.range_replicas(r) == pl.replicas(k) == pl.replica_set(s)


@pytest.mark.parametrize("which,repl", [("small", "SimpleStrategy:2"),
                                        ("large", "SimpleStrategy:3"),
                                        ("large", Replication.network({"dc1": 3, "dc2": 2}))])
def test_each_key_as_the_single_key_calls(small_ring, large_ring, which, repl):
    ring = small_ring if which == "small" else large_ring
    pl = ring.placement(repl)
    keys = _keys(3000)
    got = pl.route_ranges(keys)
    _check(ring, pl, keys, got)
    if tokenring.HAVE_NUMPY:
        assert [g.dtype for g in got] == [np.int64, np.uint32, np.uint32]
    # route gives the same tokens and set ids; its ranges are the sets' first, not the key's
    rt, rs = pl.route(keys)
    assert list(rt) == list(got[0]) and list(rs) == list(got[2])
    if which == "small":
        # the key's own range, not its set's first: more ranges than sets are seen
        assert len(set(map(int, got[1]))) > len(set(map(int, got[2])))


@pytest.mark.parametrize("n", [0, 1, 1023, 1024, 1025, 2049])
def test_chunk_boundaries(large_ring, n):
    pl = large_ring.placement(Replication.network({"dc1": 2, "dc2": 1}))
    keys = _keys(n, seed=n)
    got = pl.route_ranges(keys)
    _check(large_ring, pl, keys, got)
    data = b"".join(keys)
    offs = [0]
    for k in keys:
        offs.append(offs[-1] + len(k))
    packed = pl.route_ranges_packed(data, offs)
    assert [list(x) for x in packed] == [list(x) for x in got]


def test_packed_count_and_views(toy_ring):
    pl = toy_ring.placement(2)
    keys = [b"alpha", b"", b"gamma", b"d"]
    data = bytearray(b"".join(keys))
    offs = [0, 5, 5, 10, 11]
    full = pl.route_ranges_packed(data, offs)
    _check(toy_ring, pl, keys, full)
    # count takes the first keys only; a memoryview is read where it lies
    part = pl.route_ranges_packed(memoryview(data), offs, 2)
    assert [list(x) for x in part] == [list(x)[:2] for x in full]
    assert [list(x) for x in pl.route_ranges_packed(b"", [0], 0)] == [[], [], []]
    assert [list(x) for x in pl.route_ranges([])] == [[], [], []]
    # str keys are UTF-8
    assert [list(x) for x in pl.route_ranges(["h\u00e9"])] == \
        [list(x) for x in pl.route_ranges(["h\u00e9".encode()])]


@needs_numpy
def test_columns_types_and_nulls(large_ring):
    pl = large_ring.placement(3)
    ids = np.arange(-600, 1500, dtype=np.int32)
    got = pl.route_ranges(ids, type="int")
    keys = [int(i).to_bytes(4, "big", signed=True) for i in ids]
    _check(large_ring, pl, keys, got)
    assert [list(x) for x in pl.route_ranges(ids)] == [list(x) for x in got]  # int32 is int
    names = np.array([f"u{i}" for i in ids], dtype=object)
    comp = pl.route_ranges([ids, names], type=["int", "text"])
    assert list(comp[0]) == list(tokenring.tokens([ids, names], type=["int", "text"]))
    assert list(comp[2]) == list(pl.route([ids, names], type=["int", "text"])[1])
    assert list(comp[1]) == [large_ring.range_index(int(t)) for t in comp[0]]
    pa = pytest.importorskip("pyarrow")
    col = pa.chunked_array([["a", None, "c"], ["d"], [None]])
    with pytest.raises(ValueError):
        pl.route_ranges(col)
    toks, ranges, sets = pl.route_ranges(col, nulls="null")
    for x in (toks, ranges, sets):
        assert isinstance(x, np.ma.MaskedArray)
        assert x.mask.tolist() == [False, True, False, False, True]
    _check(large_ring, pl, [b"a", b"c", b"d"],
           (toks.compressed(), ranges.compressed(), sets.compressed()))


def test_errors(toy_ring):
    pl = toy_ring.placement(1)
    with pytest.raises(TypeError, match="wrap one key"):
        pl.route_ranges(b"abc")
    with pytest.raises(TypeError, match="wrap one key"):
        pl.route_ranges("abc")
    with pytest.raises(TypeError):
        pl.route_ranges([b"a", 5])
    with pytest.raises(ValueError, match="reach byte"):  # past the buffer
        pl.route_ranges_packed(b"abc", [0, 4])
    with pytest.raises(InvalidArgumentError):  # decreasing: the library refuses
        pl.route_ranges_packed(b"abc", [0, 2, 1])
    # decreasing in a later chunk: refused, nothing returned
    offs = list(range(1100)) + [5]
    with pytest.raises(InvalidArgumentError):
        pl.route_ranges_packed(b"x" * 1100, offs)
    with pytest.raises((TypeError, ValueError)):
        pl.route_ranges_packed(b"abc", [0, 1.5, 3])
    with pytest.raises(ValueError):
        pl.route_ranges_packed(b"abc", [0, 1, 3], 5)  # more keys than offsets
    if tokenring.HAVE_NUMPY:
        with pytest.raises(ValueError, match="nulls"):
            pl.route_ranges([b"a"], nulls="skip")
    pl.close()
    with pytest.raises(tokenring.ClosedError):
        pl.route_ranges([b"a"])


def test_other_partitioner_refused():
    topo = Topology(partitioner="random")
    topo.add_node("a", "dc1", "r1", [0])
    topo.add_node("b", "dc1", "r1", [1 << 100])
    pl = topo.build().placement("SimpleStrategy:1")
    for keys in ([b"k"], []):
        with pytest.raises(UnsupportedError):
            pl.route_ranges(keys)


def test_struct_layout_matches_the_dtype():
    from tokenring._ffi import ffi
    if tokenring.HAVE_NUMPY:
        dt = _placement._replicas_dtype()
        assert dt.itemsize == ffi.sizeof("tokenring_replicas")
        for f in ("range_index", "set_id"):
            assert dt.fields[f][1] == ffi.offsetof("tokenring_replicas", f)
    assert _placement._ROUTE_CHUNK == 1024


def test_list_path_without_numpy():
    code = textwrap.dedent("""
        import sys
        sys.modules["numpy"] = None  # import numpy fails
        import tokenring
        assert not tokenring.HAVE_NUMPY
        topo = tokenring.Topology()
        for n in range(20):
            step = 57646075230342348
            topo.add_node("n%d" % n, "dc1", "r1", [(n * 8 + i) * step - 2 ** 62 for i in range(8)])
        ring = tokenring.Ring(topo)
        pl = ring.placement(3)
        keys = [b"k%d" % i for i in range(2100)]
        toks, ranges, sets = pl.route_ranges(keys)
        assert type(toks) is list and type(ranges) is list and type(sets) is list
        assert toks == [tokenring.token(k) for k in keys]
        assert ranges == [ring.range_index(t) for t in toks]
        assert sets == [pl.key_set_id(k) for k in keys]
        assert pl.route_ranges([]) == ([], [], [])
        try:
            pl.route_ranges_packed(b"abc", [0, 2, 1])
        except tokenring.InvalidArgumentError:
            print("ok")
    """)
    for env in ({}, {"TOKENRING_NO_SPEEDUPS": "1"}):
        run = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, **env),
                             capture_output=True, text=True)
        assert run.stdout.strip() == "ok", run.stderr
