# SPDX-License-Identifier: Apache-2.0
"""allocate_as_cassandra() on RandomPartitioner topologies: the tokens Cassandra's own
allocator chose on every vector of tests/data/cassandra_allocation_random_*.tsv (made by
running Cassandra's classes with RandomPartitioner), two results computed here from
Cassandra's definitions, and the argument checks."""
import math
import os
from fractions import Fraction

import pytest

import tokenring

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "..", "tests", "data")
R = 2 ** 127


def _replay(path, release):
    """Replays a vector file; returns (vectors, equal)."""
    topo = None
    vectors = equal = 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            f_ = line.split("\t")
            if f_[0] == "seq":
                topo = tokenring.Topology(partitioner="random")
                continue
            if f_[0] == "node":
                topo.add_node(f_[1], f_[2], f_[3], [int(t) for t in f_[5].split(",")])
                if f_[4] == "J":
                    topo.set_state(f_[1], tokenring.NodeState.JOINING)
                continue
            name, dc, rack, nt, mode, first, result = f_[1:8]
            kind, _, arg = mode.partition(":")
            kw = {"rf": int(arg)} if kind == "rf" else {
                "keyspace": int(arg) if kind == "simple" else
                {k: int(v) for k, v in (kv.split("=") for kv in arg.split(","))}}
            first_token = None if first == "-" else int(first)
            vectors += 1
            if result.startswith("ok "):
                want = [int(t) for t in result[3:].split(",")]
                got = tokenring.allocate_as_cassandra(topo, int(nt), name, dc, rack,
                                                      first_token=first_token,
                                                      release=release, **kw)
                equal += got == want
                if f_[0] == "join":
                    for n in list(topo):
                        if n.state == tokenring.NodeState.JOINING and set(n.tokens) & set(want):
                            topo.remove_node(n.name)
                    topo.add_node(name, dc, rack, want)
            else:
                with pytest.raises(tokenring.TokenRingError):
                    tokenring.allocate_as_cassandra(topo, int(nt), name, dc, rack,
                                                    first_token=first_token,
                                                    release=release, **kw)
                equal += 1
    return vectors, equal


@pytest.mark.parametrize("release,version", [("5.0", "5.0.6"), ("4.1", "4.1.10"),
                                             ("4.0", "4.0.19")])
def test_every_vector(release, version):
    path = os.path.join(DATA, f"cassandra_allocation_random_{version}.tsv")
    vectors, equal = _replay(path, release)
    assert vectors >= 900
    assert equal == vectors


def _java_random_next_double(seed):
    """java.util.Random(seed).nextDouble(), from its documented LCG."""
    mult, mask = 0x5DEECE66D, (1 << 48) - 1
    s = (seed ^ mult) & mask
    out = []
    for bits in (26, 27):
        s = (s * mult + 0xB) & mask
        out.append(s >> (48 - bits))
    return ((out[0] << 27) + out[1]) * 2.0 ** -53


def test_split_of_an_empty_ring():
    # An empty datacenter: Cassandra starts at the random first token F, then splits the
    # whole ring (F, F] at ratio MIN + 0.075 * Random(0).nextDouble(), MIN = 1 - 1/sqrt(5):
    # F + (2^127) * BigDecimal.valueOf(ratio), truncated, modulo 2^127.
    topo = tokenring.Topology(partitioner="random")
    topo.add_node("10.0.0.1", "dc1", "rack1", [12345])
    lo = 1.0 - 1.0 / math.sqrt(5)
    ratio = lo + ((lo + 0.075) - lo) * _java_random_next_double(0)
    for first in (0, 7, R - 3, R):
        got = tokenring.allocate_as_cassandra(topo, 2, "10.0.0.2", "dc2", "rack1", rf=3,
                                              first_token=first)
        second = (first + int(R * Fraction(repr(ratio)))) % R  # exact, truncated
        assert got == sorted({first, second})


def test_worked_example():
    # three single-token nodes at 0.05, 0.35 and 0.65 of the ring, one rack: with RF 2
    # Cassandra gives the fourth node the midpoint of the range 0.65 -> 0.05 (0.85),
    # FBUtilities.midpoint over 127 bits; with RF 1 a point near 0.8167
    topo = tokenring.Topology(partitioner="random")
    toks = [int(f * R) for f in (0.05, 0.35, 0.65)]
    for i, t in enumerate(toks):
        topo.add_node(f"10.0.0.{i + 1}", "dc1", "rack1", [t])
    (t2,) = tokenring.allocate_as_cassandra(topo, 1, "10.0.0.4", "dc1", "rack1", rf=2)
    assert t2 == (((R + toks[0] - toks[2]) >> 1) + toks[2]) % R
    (t1,) = tokenring.allocate_as_cassandra(topo, 1, "10.0.0.4", "dc1", "rack1", rf=1)
    assert abs(t1 / R - 0.8167) < 1e-3


def test_arguments():
    topo = tokenring.Topology(partitioner="random")
    topo.add_node("10.0.0.1", "dc1", "rack1", [0])
    with pytest.raises(TypeError):
        tokenring.allocate_as_cassandra(topo, 1, "10.0.0.2", "dc1", "rack1")
    with pytest.raises(tokenring.ExistsError):
        tokenring.allocate_as_cassandra(topo, 1, "10.0.0.1", "dc1", "rack1", rf=3)
    with pytest.raises(tokenring.InvalidArgumentError, match="first_token"):
        tokenring.allocate_as_cassandra(topo, 4, "10.0.0.2", "dc2", "rack1", rf=3)
    for bad in (-1, R + 1):
        with pytest.raises(ValueError):
            tokenring.allocate_as_cassandra(topo, 4, "10.0.0.2", "dc2", "rack1", rf=3,
                                            first_token=bad)
    got = tokenring.allocate_as_cassandra(topo, 4, "10.0.0.2", "dc2", "rack1", rf=3,
                                          first_token=R)
    assert R in got and len(set(got)) == 4 and all(0 <= t <= R for t in got)
    bop = tokenring.Topology(partitioner="byteordered")
    bop.add_node("10.0.0.1", "dc1", "rack1", [b"k"])
    with pytest.raises(tokenring.UnsupportedError, match="ByteOrderedPartitioner"):
        tokenring.allocate_as_cassandra(bop, 1, "10.0.0.2", "dc1", "rack1", rf=1)
