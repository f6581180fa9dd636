# SPDX-License-Identifier: Apache-2.0
"""Rings of every partitioner through the binding: Cassandra 5.0.2's replicas, ranges and
ownership floats on RandomPartitioner and ByteOrderedPartitioner rings
(tests/data/partitioned_rings.tsv) through the typed and the text calls, the
Topology(partitioner=...) token rules, lookups by int token, key and bytes."""
import os
import struct

import pytest

import tokenring
from conftest import DATA


def _blocks():
    """(partitioner, nodes, [(replication, keys, toks, owns)]) per ring of the file."""
    rings = []
    with open(os.path.join(DATA, "partitioned_rings.tsv"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                continue
            f_ = line.rstrip("\n").split("\t")
            kind = f_[0]
            if kind == "ring":
                rings.append((f_[2], [], []))
            elif kind == "node":
                rings[-1][1].append(f_[1:])
            elif kind == "repl":
                rings[-1][2].append((f"{f_[1]}:{f_[2]}", [], [], []))
            elif kind == "key":
                rings[-1][2][-1][1].append(f_[1:])
            elif kind == "tok":
                rings[-1][2][-1][2].append(f_[1:])
            elif kind == "own":
                rings[-1][2][-1][3].append(f_[1:])
    return rings


def _parse_token(part, text):
    return tokenring.token_from_text(text, part)


def _names(s):
    return tuple(s.split(",")) if s else ()


def test_cassandra_vectors():
    rings = _blocks()
    assert len(rings) >= 20
    keys = toks = owns = 0
    for part_name, nodes, repls in rings:
        part = tokenring.parse_partitioner(part_name)
        topo = tokenring.Topology(partitioner=part)
        for name, dc, rack, tokens in nodes:
            topo.add_node(name, dc, rack, [_parse_token(part, t) for t in tokens.split(",")])
        assert topo.partitioner == part
        ring = topo.build()
        assert ring.partitioner == part
        tokens = ring.tokens
        assert tokens == sorted(tokens)
        texts = ring.token_texts
        assert [_parse_token(part, t) for t in texts] == tokens
        for text, key_rows, tok_rows, own_rows in repls:
            pl = ring.placement(text)
            for key_hex, token, end, reps in key_rows:
                key = bytes.fromhex(key_hex)
                assert tokenring.key_token_text(key, part) == token
                assert pl.replicas(_parse_token(part, token)) == _names(reps)
                assert pl.replicas(key) == _names(reps)
                assert ring.range_of(key).end == _parse_token(part, end)
                keys += 1
            for token, end, reps in tok_rows:
                t = _parse_token(part, token)
                i = ring.range_index(t)
                assert ring.search_text(token) == i
                assert tokens[i] == _parse_token(part, end)
                assert texts[i] == end
                assert pl.range_replicas(i) == _names(reps)
                toks += 1
            if own_rows:
                own = ring.ownership(text)
                for node, pbits, ebits in own_rows:
                    o = own[node]
                    assert struct.pack(">f", o.nodetool_primary).hex() == pbits
                    assert struct.pack(">f", o.nodetool_effective).hex() == ebits
                    owns += 1
                assert sum(o.primary_width for o in own.values()) <= 1 << 127
    assert keys > 5000 and toks > 5000 and owns > 100


def test_random_topology_rules():
    topo = tokenring.Topology(partitioner="random")
    topo.add_node("a", "dc1", "r1", [0, 1 << 127, 5 << 64])
    assert topo.node(0).tokens == (0, 5 << 64, 1 << 127)
    with pytest.raises(tokenring.RangeError):
        topo.add_node("b", "dc1", "r1", [-1])
    with pytest.raises(ValueError):
        topo.add_node("b", "dc1", "r1", [(1 << 127) + 1])
    with pytest.raises(tokenring.ExistsError):
        topo.add_node("b", "dc1", "r1", [5 << 64])
    assert len(topo) == 1
    topo.add_node("b", "dc1", "r1", [1 << 100])
    topo.set_tokens("b", [3])
    assert topo.node(1).tokens == (3,)
    ring = topo.build()
    assert ring.tokens == [0, 3, 5 << 64, 1 << 127]
    assert ring.owner(4) == "a" and ring.owner(3) == "b" and ring.owner(2) == "b"
    assert ring.node("b").tokens == (3,)
    r = ring.range(1)
    assert (r.start, r.end, r.width, r.owner) == (0, 3, 3, "b")
    r0 = ring.range(0)
    assert r0.width == 0  # (0 - 2^127 + 2^127) mod 2^127: Cassandra's widths
    assert ring.replicas(b"key", "SimpleStrategy:2") == \
        ring.placement("SimpleStrategy:2").replicas(tokenring.random_token(b"key"))
    own = ring.ownership()
    assert own["b"].primary_width == 3
    assert own["a"].primary_width == (1 << 127) - 3
    assert ring.ownership_flags == 0
    with pytest.raises(tokenring.UnsupportedError):
        ring.placement("SimpleStrategy:1").route([b"k"])  # Murmur3's batch call refuses
    m3 = tokenring.Topology()
    with pytest.raises(TypeError):
        tokenring.Topology(partitioner="byteordered").add_node("a", "dc1", "r1", [5])
    assert m3.partitioner == tokenring.Partitioner.MURMUR3


def test_byte_ordered_ring():
    topo = tokenring.Topology(partitioner=tokenring.Partitioner.BYTE_ORDERED)
    topo.add_node("a", "dc1", "r1", [b"m", b"ab"])
    topo.add_node("b", "dc1", "r1", [b"ab\x00", b"z"])
    with pytest.raises(tokenring.ExistsError):
        topo.add_node("c", "dc1", "r1", [b"z"])
    ring = topo.build()
    assert ring.tokens == [b"ab", b"ab\x00", b"m", b"z"]
    assert ring.owner(b"ab") == "a"
    assert ring.owner(b"ab\x00") == "b"
    assert ring.owner(b"ab\x00\x00") == "a"
    assert ring.owner("zz") == "a"  # wraps
    assert ring.range(0) == tokenring.Range(b"z", b"ab", 0, 0, "a")
    own = ring.ownership("SimpleStrategy:1")
    assert ring.ownership_flags == 3
    assert own["a"].primary_width == 0
    assert own["a"].nodetool_primary == pytest.approx(0.5)
    assert struct.pack(">f", own["a"].nodetool_primary).hex() == "3f000000"
    assert ring.replicas(b"n", "SimpleStrategy:2") == ("b", "a")


def test_partitioner_names():
    assert tokenring.partitioner_name(tokenring.Partitioner.RANDOM) == \
        "org.apache.cassandra.dht.RandomPartitioner"
    assert tokenring.parse_partitioner("Murmur3Partitioner") == tokenring.Partitioner.MURMUR3
    with pytest.raises(tokenring.ParseError):
        tokenring.parse_partitioner("md5")
    with pytest.raises(tokenring.UnsupportedError):
        tokenring.parse_partitioner("OrderPreservingPartitioner")
    # Cassandra's class names, exactly as it reads them; the short forms in any case
    assert tokenring.parse_partitioner("org.apache.cassandra.dht.RandomPartitioner") == \
        tokenring.Partitioner.RANDOM
    assert tokenring.parse_partitioner("ByteOrderedPartitioner") == \
        tokenring.Partitioner.BYTE_ORDERED
    assert tokenring.parse_partitioner("Random") == tokenring.Partitioner.RANDOM
    with pytest.raises(tokenring.ParseError, match="case-sensitive"):
        tokenring.parse_partitioner("randompartitioner")
    with pytest.raises(tokenring.ParseError):
        tokenring.Cluster(partitioner="org.apache.cassandra.dht.murmur3partitioner")


def test_availability_every_partitioner():
    """One ring in three partitioners (Murmur3 t, RandomPartitioner u * 2**63, the 8
    bytes of u, u = t + 2**63: the same order): the same failing sets, RandomPartitioner's
    widths Murmur3's times 2**63, a ByteOrderedPartitioner width counts ranges."""
    import random
    rnd = random.Random(20261204)
    m3 = tokenring.Topology()
    rp = tokenring.Topology(partitioner="random")
    bo = tokenring.Topology(partitioner="byteordered")
    for i in range(7):
        toks = [rnd.randrange(-2**63, 2**63) for _ in range(4)]
        us = [t + 2**63 for t in toks]
        dc, rack = ("dc1" if i % 2 == 0 else "dc2"), f"r{i % 3}"
        m3.add_node(f"n{i}", dc, rack, toks)
        rp.add_node(f"n{i}", dc, rack, [u << 63 for u in us])
        bo.add_node(f"n{i}", dc, rack, [u.to_bytes(8, "big") for u in us])
    rings = [m3.build(), rp.build(), bo.build()]
    repl = "NetworkTopologyStrategy:dc1=2,dc2=2"
    for cl in (tokenring.Consistency.ONE, tokenring.Consistency.QUORUM,
               tokenring.Consistency.ALL):
        for k in (1, 2):
            a = [tokenring.availability(r, repl, cl, k) for r in rings]
            assert [s.nodes for s in a[1]] == [s.nodes for s in a[0]]
            assert [s.nodes for s in a[2]] == [s.nodes for s in a[0]]
            assert [s.width for s in a[1]] == [s.width << 63 for s in a[0]]
            assert [s.fraction for s in a[1]] == [s.fraction for s in a[0]]
            assert all(1 <= s.width <= len(rings[2]) for s in a[2])
            assert [s.fraction for s in a[2]] == [s.width / len(rings[2]) for s in a[2]]
            sm = [tokenring.availability_summary(r, repl, cl, k, top=3) for r in rings]
            assert sm[1].breaking == sm[0].breaking == sm[2].breaking
            assert sm[1].worst_width == sm[0].worst_width << 63
            assert sm[1].worst_fraction == sm[0].worst_fraction
            assert sm[2].worst_fraction == sm[2].worst_width / len(rings[2])
            assert [w.units for w in sm[1].worst] == [w.units for w in sm[0].worst]
