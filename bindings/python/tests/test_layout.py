# SPDX-License-Identifier: Apache-2.0
"""Layouts (layout.h) of every partitioner through the binding: even tokens of each
against Python's own big-integer arithmetic, RandomPartitioner's seeded tokens against
hashlib's MD5 of the documented byte string, collisions, and add_seeded_nodes on
RandomPartitioner and ByteOrdered topologies."""
import hashlib
import struct

import pytest

import tokenring


def _bytes(seed, identity, vnode, attempt=0):
    ident = identity.encode("utf-8")
    b = b"tokenring-layout-v1" + struct.pack(">QI", seed, len(ident)) + ident
    b += struct.pack(">I", vnode)
    if attempt:
        b += struct.pack(">I", attempt)
    return b


def _by_definition(seed, identity, vnode, attempt=0):
    digest = hashlib.md5(_bytes(seed, identity, vnode, attempt)).digest()
    return abs(int.from_bytes(digest, "big", signed=True))


# (partitioner, its minimum token, the size of its token space); ByteOrderedPartitioner
# has no token arithmetic and no even layout
EVEN = [(tokenring.Partitioner.MURMUR3, tokenring.MIN_TOKEN, 2**64),
        (tokenring.Partitioner.RANDOM, 0, 2**127)]


@pytest.mark.parametrize("part,low,space", EVEN, ids=[p.name for p, _, _ in EVEN])
def test_even_tokens_exact(part, low, space):
    for n in (1, 2, 3, 7, 12, 256):
        assert [tokenring.even_tokens(1, i, n, partitioner=part)[0] for i in range(n)] == \
            [low + i * space // n for i in range(n)]
    for num, slot, slots in ((4, 0, 1), (16, 2, 3), (5, 4, 5), (1000, 999, 1000)):
        want = [low + (j * slots + slot) * space // (num * slots) for j in range(num)]
        assert tokenring.even_tokens(num, slot, slots, partitioner=part) == want
    for bad in ((4, 3, 3), (0,), (tokenring.LAYOUT_MAX_TOKENS + 1,)):
        with pytest.raises(tokenring.RangeError):
            tokenring.even_tokens(*bad, partitioner=part)


def test_even_tokens_byte_ordered_refused():
    with pytest.raises(tokenring.UnsupportedError):
        tokenring.even_tokens(4, partitioner="byteordered")
    with pytest.raises(tokenring.UnsupportedError):
        tokenring.seeded_tokens(4, 1, "n", partitioner="byteordered")


def test_even_tokens128_exact():
    for n in (1, 2, 3, 7, 12, 256):
        assert [tokenring.even_tokens128(1, i, n)[0] for i in range(n)] == \
            [i * 2**127 // n for i in range(n)]
    for num, slot, slots in ((4, 0, 1), (16, 2, 3), (5, 4, 5), (1000, 999, 1000)):
        want = [(j * slots + slot) * 2**127 // (num * slots) for j in range(num)]
        assert tokenring.even_tokens128(num, slot, slots) == want
    assert tokenring.even_tokens128(4) == [0, 2**125, 2**126, 3 * 2**125]
    with pytest.raises(tokenring.RangeError):
        tokenring.even_tokens128(4, 3, 3)
    with pytest.raises(tokenring.RangeError):
        tokenring.even_tokens128(0)
    with pytest.raises(tokenring.RangeError):
        tokenring.even_tokens128(tokenring.LAYOUT_MAX_TOKENS + 1)


def test_seeded_token128_is_md5_of_the_layout_bytes():
    assert tokenring.seeded_token128(1, "10.0.0.1", 0) == \
        144675658811347221704957138149180670279
    for v in range(50):
        assert tokenring.seeded_token128(v * 7919, "node-x", v, v % 3) == \
            _by_definition(v * 7919, "node-x", v, v % 3)
    # the same bytes as the Murmur3 layout: random_token of them
    assert tokenring.seeded_token128(5, "n\u00e9ud", 3, 2) == \
        tokenring.random_token(_bytes(5, "n\u00e9ud", 3, 2))
    assert tokenring.seeded_token128(5, b"raw", 0) == _by_definition(5, "raw", 0)
    with pytest.raises(tokenring.RangeError):
        tokenring.seeded_token128(1, "a" * 256, 0)


def test_seeded_tokens128_collisions():
    first = tokenring.seeded_tokens128(3, 1, "10.0.0.1")
    assert first == [_by_definition(1, "10.0.0.1", v) for v in range(3)]
    topo = tokenring.Topology(partitioner=tokenring.Partitioner.RANDOM)
    taken = _by_definition(5, "victim", 0)
    topo.add_node("squatter", "dc1", "r1", [taken])
    got = tokenring.seeded_tokens128(2, 5, "victim", taken=topo)
    assert got == [_by_definition(5, "victim", 0, 1), _by_definition(5, "victim", 1)]
    with pytest.raises(tokenring.ExistsError, match=f"seeded token {taken} .*'squatter'"):
        tokenring.seeded_tokens128(2, 5, "victim", taken=topo, strict=True)
    with pytest.raises(tokenring.UnsupportedError, match="Murmur3Partitioner, not"):
        tokenring.seeded_tokens128(2, 5, "victim", taken=tokenring.Topology())
    with pytest.raises(tokenring.UnsupportedError):
        tokenring.seeded_tokens(2, 5, "victim", taken=topo)
    with pytest.raises(tokenring.RangeError):
        tokenring.seeded_tokens128(0, 5, "victim")


def test_add_seeded_nodes_random_topology():
    topo = tokenring.Topology(partitioner=tokenring.Partitioner.RANDOM)
    names = [f"10.0.0.{i}" for i in range(1, 7)]
    topo.add_seeded_nodes(1, 8, names)
    tokenring.add_seeded_nodes(topo, 1, 8, ["10.0.0.7"], ["east"], ["r2"])
    assert [n.name for n in topo.nodes] == names + ["10.0.0.7"]
    for node in topo.nodes:
        assert sorted(node.tokens) == sorted(_by_definition(1, node.name, v)
                                             for v in range(8))
    assert topo.node(6).datacenter == "east" and topo.node(6).rack == "r2"
    before = [n.tokens for n in topo.nodes]
    with pytest.raises(tokenring.ExistsError):
        topo.add_seeded_nodes(1, 8, ["fresh", "10.0.0.1"])
    assert [n.tokens for n in topo.nodes] == before
    ring = topo.build()
    assert len(ring.tokens) == 56


def test_add_seeded_nodes_byte_ordered_refused():
    topo = tokenring.Topology(partitioner=tokenring.Partitioner.BYTE_ORDERED)
    with pytest.raises(tokenring.UnsupportedError, match="no token allocation"):
        topo.add_seeded_nodes(1, 8, ["a", "b"])
    assert topo.nodes == []
