# SPDX-License-Identifier: Apache-2.0
"""Movement analyses, kept tokens and balance on RandomPartitioner and
ByteOrderedPartitioner topologies through the binding: one ring written in the three
partitioners (Murmur3 t, RandomPartitioner u * 2**63, the 8 bytes of u, u = t + 2**63)
gives the same ranges and streams with widths scaled exactly; sample keys hash with the
partitioner (checked with hashlib); bounds come back as ints or bytes."""
import hashlib
import random

import pytest

import tokenring
from tokenring import Movement, Partitioner


def _three(seed, nodes=6, tokens=3):
    rnd = random.Random(seed)
    tops = [tokenring.Topology(), tokenring.Topology(partitioner="random"),
            tokenring.Topology(partitioner="byteordered")]
    for i in range(nodes):
        toks = [rnd.randrange(-2**63, 2**63) for _ in range(tokens)]
        dc, rack = ("dc1" if i % 2 == 0 else "dc2"), f"r{i % 3}"
        for p, t in enumerate(tops):
            t.add_node(f"n{i}", dc, rack, [_conv(p, x) for x in toks])
    return rnd, tops


def _conv(p, t):
    u = t + 2**63
    return t if p == 0 else (u << 63 if p == 1 else u.to_bytes(8, "big"))


def _md5_token(key):
    """RandomPartitioner's token from hashlib: abs of the MD5 as a signed integer."""
    return abs(int.from_bytes(hashlib.md5(key).digest(), "big", signed=True))


def _check_same(m, elementary):
    s = [x.summary for x in m]
    assert [x.partitioner for x in m] == [Partitioner.MURMUR3, Partitioner.RANDOM,
                                          Partitioner.BYTE_ORDERED]
    assert s[1].range_count == s[0].range_count == s[2].range_count
    assert s[1].stream_count == s[0].stream_count == s[2].stream_count
    assert s[1].changed_width == s[0].changed_width << 63
    assert s[1].primary_changed_width == s[0].primary_changed_width << 63
    assert s[1].changed_fraction == s[0].changed_fraction
    assert s[2].changed_width == s[0].range_count
    assert s[2].changed_fraction == s[0].range_count / elementary
    r = [x.ranges for x in m]
    for a, b, c in zip(*r):
        assert b.old_replicas == a.old_replicas == c.old_replicas
        assert b.new_replicas == a.new_replicas == c.new_replicas
        assert (b.start, b.end) == (_conv(1, a.start), _conv(1, a.end))
        assert (c.start, c.end) == (_conv(2, a.start), _conv(2, a.end))
        assert b.width == a.width << 63 and c.width == 1
    st = [x.streams for x in m]
    for a, b, c in zip(*st):
        assert (b.source, b.destination, b.range_index, b.strict) == \
            (a.source, a.destination, a.range_index, a.strict)
        assert (c.source, c.destination, c.range_index) == (a.source, a.destination,
                                                            a.range_index)
        assert (b.start, b.end) == (_conv(1, a.start), _conv(1, a.end))
        assert (c.start, c.end) == (_conv(2, a.start), _conv(2, a.end))
        assert b.width == a.width << 63 and c.width == 1
    for a, b in zip(m[0].nodes, m[1].nodes):
        assert b.name == a.name
        assert (b.before_width, b.after_width, b.gained_width, b.lost_width) == \
            (a.before_width << 63, a.after_width << 63, a.gained_width << 63,
             a.lost_width << 63)
    assert m[2].cleanup == m[0].cleanup == m[1].cleanup


def _elementary(a, b):
    return len(set(a.build().tokens) | set(b.build().tokens))


def test_movement_every_partitioner():
    for seed in range(4):
        rnd, tops = _three(seed)
        repl = "NetworkTopologyStrategy:dc1=2,dc2=2" if seed % 2 else "SimpleStrategy:3"
        jt = [rnd.randrange(-2**63, 2**63) for _ in range(3)]
        m = [Movement.join(t, repl, "new", "dc1", "r1", [_conv(p, x) for x in jt])
             for p, t in enumerate(tops)]
        after = tops[0].clone()
        after.add_node("new", "dc1", "r1", jt)
        _check_same(m, _elementary(tops[0], after))
        m = [Movement.decommission(t, repl, "n1") for t in tops]
        _check_same(m, 18)
        m = [Movement.replace(t, repl, "n0", "n9") for t in tops]
        _check_same(m, 18)
        mt = [rnd.randrange(-2**63, 2**63) for _ in range(2)]
        m = [Movement.move(t, repl, "n2", [_conv(p, x) for x in mt])
             for p, t in enumerate(tops)]
        after = tops[0].clone()
        after.set_tokens("n2", mt)
        _check_same(m, _elementary(tops[0], after))
        # compare of two topologies, and the kept tokens of the move
        afters = [tops[0].clone(), tops[1].clone(), tops[2].clone()]
        for p, t in enumerate(afters):
            t.set_tokens("n2", [_conv(p, x) for x in mt])
        m = [Movement.compare(b, a, repl, tokenring.ChangeKind.MOVE)
             for b, a in zip(tops, afters)]
        _check_same(m, _elementary(tops[0], afters[0]))
        kept = [tokenring.tokens_kept(b.build(), a.build()) for b, a in zip(tops, afters)]
        assert kept[0] == kept[1] == kept[2] == (15, 3, 2)
        # balance: same nodes, widths scaled; ByteOrdered counts ranges
        rings = [t.build() for t in tops]
        bal = [r.balance(repl) for r in rings]
        for which in ("primary", "effective"):
            a, b, c = (getattr(x, which) for x in bal)
            assert (b.min_node, b.max_node) == (a.min_node, a.max_node)
            assert (b.min_width, b.max_width) == (a.min_width << 63, a.max_width << 63)
            assert b.total_width == min(a.total_width << 63, 2**128 - 1)
            assert b.mean == pytest.approx(a.mean, rel=2**-50)
            assert c.node_count == a.node_count
        assert bal[2].primary.min_width == bal[2].primary.max_width == 3
        assert bal[2].primary.total_width == 18 and bal[2].primary.mean == 1 / 6


def test_samples_hash_with_the_partitioner():
    _, tops = _three(7)
    keys = [b"k%d" % i for i in range(30)] + [b""]
    rp, bo = tops[1], tops[2]
    m = Movement.decommission(rp, "SimpleStrategy:2", "n3", samples=keys)
    ring = rp.build()
    after = rp.clone()
    after.remove_node("n3")
    ring2 = after.build()
    pl, pl2 = ring.placement("SimpleStrategy:2"), ring2.placement("SimpleStrategy:2")
    for k, s in zip(keys, m.samples):
        assert s.token == (_md5_token(k) if k else -1)
        assert s.old_replicas == tuple(pl.replicas(k))
        assert s.new_replicas == tuple(pl2.replicas(k))
    assert m.summary.samples_replicas_changed == sum(s.replicas_changed for s in m.samples)
    m = Movement.replace(bo, "SimpleStrategy:1", "n0", "n9", samples=keys)
    assert [s.token for s in m.samples] == keys
    assert all(not s.replicas_changed or "n9" in s.new_replicas for s in m.samples)
    with pytest.raises(TypeError):
        Movement.decommission(rp, "SimpleStrategy:2", "n3", samples=[5])


def test_partitioner_edges():
    # RandomPartitioner: 2**127 joins after 2**126; a keeps (2**127, 0], width 0
    t = tokenring.Topology(partitioner="random")
    t.add_node("a", "dc1", "r1", [0])
    t.add_node("b", "dc1", "r1", [2**126])
    m = Movement.join(t, "SimpleStrategy:1", "c", "dc1", "r1", [2**127])
    (r,) = m.ranges
    assert (r.start, r.end, r.width) == (2**126, 2**127, 2**126)
    assert (r.old_replicas, r.new_replicas) == (("a",), ("c",))
    assert m.summary.changed_fraction == 0.5
    # ByteOrdered: the empty token, tokens sharing their first 8 bytes
    t = tokenring.Topology(partitioner="byteordered")
    t.add_node("a", "dc1", "r1", [b""])
    t.add_node("b", "dc1", "r1", [b"abcdefgh1"])
    m = Movement.join(t, "SimpleStrategy:1", "c", "dc1", "r1", [b"abcdefgh0"],
                      samples=[b"abcdefgh00", b"abcdefgh", b""])
    (r,) = m.ranges
    assert (r.start, r.end, r.width) == (b"", b"abcdefgh0", 1)
    assert m.summary.changed_fraction == 1 / 3
    assert [s.owner_changed for s in m.samples] == [False, True, False]
    (s,) = m.streams
    assert (s.source, s.destination, s.start, s.end) == ("b", "c", b"", b"abcdefgh0")


def test_bad_input_leaves_the_topology():
    t = tokenring.Topology(partitioner="random")
    t.add_node("a", "dc1", "r1", [10])
    t.add_node("b", "dc1", "r1", [20])
    with pytest.raises(ValueError):
        Movement.join(t, "SimpleStrategy:1", "c", "dc1", "r1", [2**127 + 1])
    with pytest.raises(tokenring.RangeError):  # the minimum token is no node token
        Movement.join(t, "SimpleStrategy:1", "c", "dc1", "r1", [-1])
    with pytest.raises(ValueError):
        Movement.join(t, "SimpleStrategy:1", "c", "dc1", "r1", [-2])
    with pytest.raises(tokenring.ExistsError):
        Movement.join(t, "SimpleStrategy:1", "c", "dc1", "r1", [10])
    with pytest.raises(tokenring.ExistsError):
        Movement.join(t, "SimpleStrategy:1", "c", "dc1", "r1", [30, 30])
    with pytest.raises(TypeError):
        Movement.join(t, "SimpleStrategy:1", "c", "dc1", "r1", [b"x"])
    with pytest.raises(tokenring.NotFoundError):
        Movement.move(t, "SimpleStrategy:1", "zz", [30])
    bo = tokenring.Topology(partitioner="byteordered")
    bo.add_node("a", "dc1", "r1", [b"x"])
    with pytest.raises(TypeError):
        Movement.join(bo, "SimpleStrategy:1", "c", "dc1", "r1", [5])
    with pytest.raises(tokenring.InvalidArgumentError):
        Movement.compare(t, bo, "SimpleStrategy:1")
    with pytest.raises(tokenring.InvalidArgumentError):
        tokenring.tokens_kept(t.build(), bo.build())
    assert [n.tokens for n in t.nodes] == [(10,), (20,)]
    assert len(bo) == 1
