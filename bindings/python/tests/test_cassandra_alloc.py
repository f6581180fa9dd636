# SPDX-License-Identifier: Apache-2.0
"""allocate_as_cassandra() on every partitioner with an allocation: the tokens Cassandra's
own allocator chose, on every vector of tests/data/cassandra_allocation_5.0.2.tsv
(Murmur3Partitioner) and cassandra_allocation_random_*.tsv (RandomPartitioner), made by
running Cassandra's own classes, results computed here from Cassandra's definitions, and
the argument checks; ByteOrderedPartitioner has no allocation."""
import math
import os
from fractions import Fraction

import pytest

import tokenring

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "..", "tests", "data")
R = 2 ** 127


def _replay(path, release, partitioner):
    """Replays a vector file on topologies of ``partitioner``; returns (vectors, equal)."""
    topo = None
    vectors = equal = 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            f_ = line.split("\t")
            if f_[0] == "seq":
                topo = tokenring.Topology(partitioner=partitioner)
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
                    # a joining node Cassandra could not see may hold one of them
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


@pytest.mark.parametrize("partitioner,file,release,at_least", [
    ("murmur3", "cassandra_allocation_5.0.2.tsv", "5.0", 1000),
    ("random", "cassandra_allocation_random_5.0.6.tsv", "5.0", 900),
    ("random", "cassandra_allocation_random_4.1.10.tsv", "4.1", 900),
    ("random", "cassandra_allocation_random_4.0.19.tsv", "4.0", 900),
])
def test_every_vector(partitioner, file, release, at_least):
    vectors, equal = _replay(os.path.join(DATA, file), release, partitioner)
    assert vectors >= at_least
    assert equal == vectors


def test_byte_ordered_has_no_allocation():
    bop = tokenring.Topology(partitioner="byteordered")
    bop.add_node("10.0.0.1", "dc1", "rack1", [b"k"])
    for call in (tokenring.allocate_as_cassandra, tokenring.allocate_join):
        with pytest.raises(tokenring.UnsupportedError, match="ByteOrderedPartitioner"):
            call(bop, 1, "10.0.0.2", "dc1", "rack1", rf=1)


def test_worked_example():
    # three single-token nodes at 0.05, 0.35 and 0.65 of the ring, one rack: with RF 2
    # Cassandra gives the fourth node the midpoint of the range 0.65 -> 0.05 (0.85), with
    # RF 1 the point 0.8167 (the allocation spec's worked example, run on the real class)
    topo = tokenring.Topology()
    frac = [0.05, 0.35, 0.65]
    toks = [tokenring.MIN_TOKEN + int(f * 2 ** 64) for f in frac]
    for i, t in enumerate(toks):
        topo.add_node(f"10.0.0.{i + 1}", "dc1", "rack1", [t])
    (t2,) = tokenring.allocate_as_cassandra(topo, 1, "10.0.0.4", "dc1", "rack1", rf=2)
    mid = (toks[2] + toks[0] + 2 ** 64 - 1) >> 1  # Murmur3Partitioner.midpoint, wrapping
    if mid > tokenring.MAX_TOKEN:
        mid = tokenring.MIN_TOKEN + (mid - tokenring.MAX_TOKEN)
    assert t2 == mid
    (t1,) = tokenring.allocate_as_cassandra(topo, 1, "10.0.0.4", "dc1", "rack1", rf=1)
    assert abs((t1 - tokenring.MIN_TOKEN) / 2 ** 64 - 0.8167) < 1e-3


def test_arguments():
    topo = tokenring.Topology()
    topo.add_node("10.0.0.1", "dc1", "rack1", [0])
    with pytest.raises(TypeError):
        tokenring.allocate_as_cassandra(topo, 1, "10.0.0.2", "dc1", "rack1")
    with pytest.raises(TypeError):
        tokenring.allocate_as_cassandra(topo, 1, "10.0.0.2", "dc1", "rack1", rf=3, keyspace=3)
    with pytest.raises(ValueError, match="unknown Cassandra release"):
        tokenring.allocate_as_cassandra(topo, 1, "10.0.0.2", "dc1", "rack1", rf=3,
                                        release="3.11")
    with pytest.raises(tokenring.ExistsError):
        tokenring.allocate_as_cassandra(topo, 1, "10.0.0.1", "dc1", "rack1", rf=3)
    with pytest.raises(tokenring.InvalidArgumentError, match="first_token"):
        tokenring.allocate_as_cassandra(topo, 4, "10.0.0.2", "dc2", "rack1", rf=3)
    got = tokenring.allocate_as_cassandra(topo, 4, "10.0.0.2", "dc2", "rack1", rf=3,
                                          first_token=123)
    assert 123 in got and len(set(got)) == 4
    assert got == tokenring.allocate_as_cassandra(topo, 4, "10.0.0.2", "dc2", "rack1", rf=3,
                                                  first_token=123, offline=True,
                                                  release="4.0")


def test_allocate_join_simple_strategy_two_thirds_each():
    """The default plan reaches tokenring_allocate_join(): three nodes, SimpleStrategy 2."""
    topo = tokenring.Topology()
    first = -8686704767075290596
    for name in ("172.16.0.11", "172.16.0.12"):
        toks = tokenring.allocate_as_cassandra(topo, 16, name, "datacenter1", "RAC1", rf=2,
                                               first_token=first)
        topo.add_node(name, "datacenter1", "RAC1", toks)
    ours = tokenring.allocate_join(topo, 16, "172.16.0.13", "datacenter1", "rack1", keyspace=2)
    assert ours == sorted(set(ours)) and len(ours) == 16
    with pytest.raises(TypeError):
        tokenring.allocate_join(topo, 16, "172.16.0.13", "datacenter1", "rack1")
    with pytest.raises(tokenring.TokenRingError):
        tokenring.allocate_join(topo, 16, "172.16.0.11", "datacenter1", "rack1", rf=3)


def test_allocate_join_default_is_cassandra_one_step_is_a_choice():
    """The join plan's default is Cassandra's tokens bit for bit (an empty datacenter
    started at token 0); one_step=True the plan best for this one join, never less
    balanced than Cassandra's for it; and a 16-token node joins a 3-node single-token
    datacenter through every entry point, as Cassandra accepts it (issue 32)."""
    topo = tokenring.Topology()
    assert (tokenring.allocate_join(topo, 8, "10.0.0.1", "dc1", "r1", rf=3)
            == tokenring.allocate_as_cassandra(topo, 8, "10.0.0.1", "dc1", "r1", rf=3,
                                               first_token=0))
    for i in range(3):
        topo.add_node(f"10.0.0.{i + 1}", "dc1", "r1", [-2**63 + 1 + i * (2**64 // 3)])
    theirs = tokenring.allocate_as_cassandra(topo, 16, "10.0.1.1", "dc1", "r1", rf=3)
    assert tokenring.allocate_join(topo, 16, "10.0.1.1", "dc1", "r1", rf=3) == theirs
    one = tokenring.allocate_join(topo, 16, "10.0.1.1", "dc1", "r1", rf=3, one_step=True)
    assert one == sorted(set(one)) and len(one) == 16
    old = tokenring.allocate_tokens(topo, 16, "dc1", "r1", 3)
    assert old == sorted(set(old)) and len(old) == 16
    held = {t for n in topo.nodes for t in n.tokens}
    assert not held & (set(one) | set(old))


# ------------------------------------------------------------- RandomPartitioner

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


def test_worked_example_random():
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


def test_arguments_random():
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


def _judge(topo, name, dc, rack, tokens, rf):
    """max/mean and min/mean of effective ownership in dc under {dc: rf} once name has
    joined with tokens (primary while the datacenter has at most rf nodes), as
    tokenring_allocate_join() documents its rule."""
    t = tokenring.Topology(partitioner="random")
    for n in topo.nodes:
        t.add_node(n.name, n.datacenter, n.rack, n.tokens)
    t.add_node(name, dc, rack, tokens)
    b = tokenring.Ring(t).balance({dc: rf}, datacenter=dc)
    m = b.primary if b.effective.node_count <= rf else b.effective
    return m.max / m.mean, m.min / m.mean


def test_allocate_join_on_random_partitioner():
    """allocate_join() on a RandomPartitioner topology (tokenring_allocate_join128()):
    by default Cassandra's own tokens; with one_step=True ints 0 .. 2**127, ascending,
    none held, and never less balanced than Cassandra's own tokens for the same node,
    join after join."""
    rng = __import__("random").Random(22)
    topo = tokenring.Topology(partitioner="random")
    for i in range(4):
        topo.add_node(f"10.0.0.{i + 1}", "dc1", f"r{i % 2}",
                      sorted(rng.randrange(2**127) for _ in range(8)))
    better = 0
    for j in range(6):
        name, rack = f"10.0.1.{j}", f"r{j % 2}"
        ours = tokenring.allocate_join(topo, 8, name, "dc1", rack, rf=2, one_step=True)
        theirs = tokenring.allocate_as_cassandra(topo, 8, name, "dc1", rack, rf=2)
        assert tokenring.allocate_join(topo, 8, name, "dc1", rack, rf=2) == theirs
        assert all(isinstance(t, int) and 0 <= t <= 2**127 for t in ours)
        assert ours == sorted(set(ours))
        held = {t for n in topo.nodes for t in n.tokens}
        assert not held & set(ours)
        a, b = _judge(topo, name, "dc1", rack, ours, 2), _judge(topo, name, "dc1", rack, theirs, 2)
        assert a[0] <= b[0] and a[1] >= b[1], (a, b)
        better += a != b
        topo.add_node(name, "dc1", rack, ours)
    assert better > 0
    # the other partitioners' calls refuse it
    with pytest.raises(tokenring.UnsupportedError):
        tokenring.allocate_join(tokenring.Topology(partitioner="byteordered"), 4, "n", "dc1",
                                "r1", rf=1)
