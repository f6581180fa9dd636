# SPDX-License-Identifier: Apache-2.0
"""The Pythonic surface: keys, batches, encoders, topology edits, rings, placements."""
import uuid

import pytest

import tokenring
from tokenring import CqlType, NodeState, Replication, Ring, Topology

np = pytest.importorskip("numpy") if tokenring.HAVE_NUMPY else None


def test_token_str_is_utf8_bytes():
    assert tokenring.token("héllo") == tokenring.token("héllo".encode("utf-8"))
    assert tokenring.token(bytearray(b"abc")) == tokenring.token(b"abc")
    assert tokenring.token(memoryview(b"abc")) == tokenring.token(b"abc")
    assert tokenring.token(b"") == tokenring.MIN_TOKEN == -2 ** 63
    with pytest.raises(TypeError):
        tokenring.token(42)


def test_tokens_batch_forms():
    keys = [b"a", "b", b"", "ünï", bytearray(b"\x00\xff")]
    want = [tokenring.token(k) for k in keys]
    assert list(tokenring.tokens(keys)) == want
    assert list(tokenring.tokens(iter(keys))) == want
    assert list(tokenring.tokens([])) == []
    data = b"".join(tokenring._hash.as_key_bytes(k) for k in keys)
    offs = [0]
    for k in keys:
        offs.append(offs[-1] + len(tokenring._hash.as_key_bytes(k)))
    assert list(tokenring.tokens_packed(data, offs)) == want


@pytest.mark.skipif(not tokenring.HAVE_NUMPY, reason="numpy not installed")
def test_tokens_numpy_arrays():
    keys = np.array([b"alpha", b"be", b"gamma!"], dtype=object)
    out = tokenring.tokens(keys)
    assert out.dtype == np.int64
    assert out.tolist() == [tokenring.token(k) for k in keys]
    fixed = np.array([b"alpha", b"be"], dtype="S5")
    assert tokenring.tokens(fixed).tolist() == [tokenring.token(b"alpha"), tokenring.token(b"be")]
    offs = np.array([0, 5, 7], dtype=np.uint64)
    assert tokenring.tokens_packed(b"alphabe", offs).tolist() == \
        [tokenring.token(b"alpha"), tokenring.token(b"be")]


def test_encoders():
    assert tokenring.encode_int(42) == b"\x00\x00\x00\x2a"
    assert tokenring.encode_int(-1) == b"\xff" * 4
    assert tokenring.encode_bigint(1) == b"\x00" * 7 + b"\x01"
    assert tokenring.encode_smallint(-2) == b"\xff\xfe"
    assert tokenring.encode_tinyint(127) == b"\x7f"
    assert tokenring.encode_boolean(True) == b"\x01"
    assert tokenring.encode_boolean(False) == b"\x00"
    u = uuid.UUID("123e4567-e89b-12d3-a456-426614174000")
    assert tokenring.encode_uuid(u) == u.bytes == tokenring.encode_uuid(str(u))
    import datetime as dt
    t = dt.datetime(2020, 1, 2, 3, 4, 5, 678000, tzinfo=dt.timezone.utc)
    assert tokenring.encode_timestamp(t) == tokenring.encode_bigint(int(t.timestamp() * 1000))
    with pytest.raises(OverflowError):
        tokenring.encode_int(2 ** 31)


def test_parse_value_and_key():
    assert tokenring.parse_value("int", "42") == tokenring.encode_int(42)
    assert tokenring.parse_value(CqlType.BIGINT, "-1") == b"\xff" * 8
    assert tokenring.parse_value("text", "") == b""
    long_text = "x" * 5000
    assert tokenring.parse_value("text", long_text) == long_text.encode()
    assert tokenring.parse_value("blob", "ab" * 3000) == bytes.fromhex("ab" * 3000)
    key = tokenring.parse_key(["text", "int"], "user:42")
    assert key == tokenring.composite([b"user", tokenring.encode_int(42)])
    assert key == tokenring.composite(["user", tokenring.encode_int(42)])


def test_cql_types_cover_header():
    lib = tokenring._lib
    names = {n[len("TOKENRING_CQL_"):] for n in dir(lib) if n.startswith("TOKENRING_CQL_")}
    assert names == {m.name for m in CqlType}
    for m in CqlType:
        assert tokenring.cql_type(m.cql_name) is m
    assert tokenring.cql_type("varchar") is CqlType.TEXT
    assert tokenring.cql_type("INT") is CqlType.INT
    assert tokenring.cql_type("counter") is CqlType.BIGINT


def test_replication_forms():
    s = Replication.simple(3)
    assert s.strategy == "SimpleStrategy" and s.factors == {None: (3, 0)}
    assert str(s) == "{'class': 'SimpleStrategy', 'replication_factor': '3'}"
    n = Replication.network({"dc2": "2/1", "dc1": 3})
    assert n.strategy == "NetworkTopologyStrategy"
    assert n.factors == {"dc1": (3, 0), "dc2": (2, 1)}
    assert n == Replication.parse("dc1=3,dc2=2/1") == Replication.parse(str(n))
    assert n == Replication.parse("NetworkTopologyStrategy:dc1=3,dc2=2/1")
    assert hash(n) == hash(Replication.network({"dc1": (3, 0), "dc2": (2, 1)}))
    assert Replication.simple(3, 1) == Replication.parse("3/1")
    assert Replication.of(3) == s and Replication.of({"dc1": 3}) == Replication.parse("dc1=3")
    assert eval(repr(n), {"Replication": Replication}) == n


def test_topology_edits():
    topo = Topology()
    topo.add_node("A", "dc1", "r1", [50, 10])
    topo.add_node("B", "dc1", "r2", [30])
    assert len(topo) == 2 and "A" in topo and "Z" not in topo
    assert topo.node(0).tokens == (10, 50)  # ascending
    assert topo.index("B") == 1
    topo.replace_node("B", "B2")
    assert [n.name for n in topo.nodes] == ["A", "B2"]
    assert topo.node(-1).rack == "r2" and topo.node(-1).tokens == (30,)
    topo.set_tokens("B2", [31, 32])
    assert topo.node(1).tokens == (31, 32)
    copy = topo.clone()
    topo.remove_node("A")
    assert [n.name for n in topo] == ["B2"]
    assert [n.name for n in copy] == ["A", "B2"]
    copy.set_state("B2", NodeState.JOINING)
    assert copy.node(1).state is NodeState.JOINING
    ring = copy.build()
    assert ring.owner(31) == "A"  # a joining node's tokens are not in the ring
    assert list(ring.tokens) == [10, 50]
    assert len(ring.nodes) == 2  # but it is numbered


def test_ring_views(toy_ring):
    assert len(toy_ring) == 6
    assert list(toy_ring.tokens) == [10, 30, 50, 65, 80, 95]
    assert toy_ring.token_owners == ["A", "B", "A", "C", "B", "C"]
    assert toy_ring.node_names == ("A", "B", "C")
    assert toy_ring.datacenters == ["dc1"]
    assert toy_ring.rack_count == 1
    assert toy_ring.node("C").tokens == (65, 95)
    assert list(toy_ring.search([0, 10, 11, 96])) == [0, 0, 1, 0]
    assert toy_ring.range_index(96) == 0
    r0 = toy_ring.range(0)
    assert (r0.start, r0.end, r0.width, r0.owner) == (95, 10, 2 ** 64 - 85, "A")
    assert [r.end for r in toy_ring.ranges] == [10, 30, 50, 65, 80, 95]
    # a key routes like its token
    key = b"some key"
    assert toy_ring.owner(key) == toy_ring.owner(tokenring.token(key))
    assert toy_ring.owner("some key") == toy_ring.owner(key)


def test_placement_views(toy_ring):
    pl = toy_ring.placement(2)
    assert toy_ring.placement(Replication.simple(2)) is pl  # cached per replication
    assert pl.replicas(42) == ("A", "C")
    assert pl.replicas(42, with_transient=True) == (("A", False), ("C", False))
    assert pl.range_replicas(0) == ("A", "B")
    assert pl.replicas(42) is pl.replicas(43)  # one shared tuple per replica set
    sets = pl.replica_sets
    assert len(sets) == pl.set_count and ("A", "C") in sets
    keys = [b"k%d" % i for i in range(50)]
    toks, ids = pl.route(keys)
    assert list(toks) == list(tokenring.tokens(keys))
    assert [sets[i] for i in ids] == [pl.replicas(k) for k in keys]
    assert list(pl.route_replicas(keys)) == [pl.replicas(k) for k in keys]


def test_placement_update_equals_a_full_build():
    import random
    rnd = random.Random(7)
    nodes = [(f"n{i}", f"dc{i % 2 + 1}", f"r{i % 3}", [rnd.randrange(-2**63, 2**63)
                                                        for _ in range(16)])
             for i in range(12)]
    topo = Topology(nodes)
    ring = Ring(topo)
    before = ring.placement("dc1=2,dc2=2")
    topo.add_node("joined", "dc2", "r1", [rnd.randrange(-2**63, 2**63) for _ in range(16)])
    ring2 = Ring(topo)
    after = before.update(ring2)
    assert after.ring is ring2 and after.replication == before.replication
    full = ring2.placement("dc1=2,dc2=2")
    assert after is not full
    assert [after.range_replicas(i) for i in range(len(ring2))] == \
        [full.range_replicas(i) for i in range(len(ring2))]
    assert after.set_count == full.set_count
    assert before.replicas(0) == ring.placement("dc1=2,dc2=2").replicas(0)  # unchanged
    assert any("joined" in r for r in after.replica_sets)
    # the same ring gives an equal placement
    same = before.update(ring)
    assert same.replica_sets == before.replica_sets
    with pytest.raises(TypeError):
        before.update(None)  # type: ignore[arg-type]


def test_transient_replicas():
    topo = Topology([(f"n{i}", "dc1", f"r{i % 3}", [i * 1000]) for i in range(6)])
    ring = Ring(topo)
    got = ring.placement(Replication.simple(3, 1)).replicas(1, with_transient=True)
    assert [t for _, t in got] == [False, False, True]
    d = ring.describe_ring("3/1")
    assert len(d) == 6
    assert all(len(r.endpoints) == 3 and len(r.transient) == 1 for r in d)
    assert d[1].transient == (d[1].endpoints[2],)


def test_ownership_and_describe_ring(toy_ring):
    own = toy_ring.ownership()
    assert set(own) == {"A", "B", "C"}
    assert own["A"].token_count == 2
    assert own["A"].effective_width == 0
    eff = toy_ring.ownership(3)
    assert all(o.effective_width == 2 ** 64 for o in eff.values())
    assert all(o.effective == 1.0 for o in eff.values())
    d = toy_ring.describe_ring(2)
    assert [(r.start, r.end) for r in d] == [(95, 10), (10, 30), (30, 50), (50, 65),
                                            (65, 80), (80, 95)]
    assert d[2].endpoints == ("A", "C") and d[2].transient == ()


def test_version_info():
    assert tokenring.library_version == tokenring.header_version
    assert tokenring.__version__.count(".") == 2


def test_route_precomputed_tokens():
    np = pytest.importorskip("numpy")
    topo = Topology([("A", "dc1", "r1", [10, 50]), ("B", "dc1", "r2", [30, 80]),
                     ("C", "dc2", "r1", [65, 95]), ("D", "dc2", "r2", [-7, 2 ** 62])])
    ring = Ring(topo)
    pl = ring.placement({"dc1": 2, "dc2": 1})
    rng = np.random.default_rng(7)
    edge = [tokenring.MIN_TOKEN, tokenring.MAX_TOKEN, -8, -7, -6, 9, 10, 11, 95, 96]
    toks = np.concatenate([np.array(edge, dtype=np.int64),
                           rng.integers(tokenring.MIN_TOKEN, tokenring.MAX_TOKEN, 2000,
                                        dtype=np.int64, endpoint=True)])
    sets = pl.route_tokens(toks)
    assert sets.dtype == np.uint32 and len(sets) == len(toks)
    names = pl.route_token_replicas(toks)
    for t, s, n in zip(toks.tolist(), sets.tolist(), names):
        assert pl.replica_set(s) == n == pl.replicas(t)
    # tokens of keys route as the keys do
    keys = [f"k{i}".encode() for i in range(300)]
    ktoks, ksets = pl.route(keys)
    assert pl.route_tokens(ktoks).tolist() == ksets.tolist()
    assert list(pl.route_token_replicas(ktoks)) == list(pl.route_replicas(keys))
    # plain lists, other integer dtypes, and the empty batch
    assert list(pl.route_tokens([10, 11])) == [pl.route_tokens(np.array([10]))[0],
                                               pl.route_tokens(np.array([11]))[0]]
    assert pl.route_tokens(np.array([10, 11], dtype=np.int32)).tolist() == \
        pl.route_tokens([10, 11]).tolist()
    assert len(pl.route_tokens(np.array([], dtype=np.int64))) == 0
    with pytest.raises(TypeError):
        pl.route_tokens(np.array([1.5]))


def test_missing_rack_is_cassandras_default_rack():
    # a null rack (system.peers) reads as GossipingPropertyFileSnitch's DEFAULT_RACK
    topo = Topology([("A", "dc1", None, [10]), ("B", "dc1", "r1", [20])])
    topo.add_node("C", "dc1", None, [30])
    tokenring.add_seeded_nodes(topo, 1, 2, ["D"], ["dc1"], [None])
    assert [n.rack for n in topo] == ["UNKNOWN_RACK", "r1", "UNKNOWN_RACK", "UNKNOWN_RACK"]
    assert tokenring.DEFAULT_RACK == "UNKNOWN_RACK"
    assert tokenring._ffi.string(tokenring._lib.TOKENRING_DEFAULT_RACK) == b"UNKNOWN_RACK"
    ring = Ring(topo)
    assert ring.rack_count == 2
    # the nodes without a rack share one rack: NTS with rf 2 takes one of each rack first
    assert ring.replicas(15, {"dc1": 2}) == ("B", "C")
    assert len(tokenring.allocate_tokens(topo, 4, "dc1", None, 2)) == 4


def test_empty_rack_is_a_rack_of_its_own():
    # Cassandra's snitches read rack= as the rack "": NTS keys racks by name, so "" is a
    # rack distinct from "r1" and from DEFAULT_RACK
    topo = Topology([("A", "dc1", "", [10]), ("B", "dc1", "", [20]),
                     ("C", "dc1", "r1", [30]), ("D", "dc1", None, [40])])
    assert [n.rack for n in topo] == ["", "", "r1", "UNKNOWN_RACK"]
    ring = Ring(topo)
    assert ring.rack_count == 3
    # from A: A (rack ""), B skipped (same rack), C (r1), D (UNKNOWN_RACK)
    assert ring.replicas(5, {"dc1": 3}) == ("A", "C", "D")
    # from B: B, C, D, then A's rack is already placed: rf 3 is full
    assert ring.replicas(15, {"dc1": 3}) == ("B", "C", "D")
    assert ring.replicas(25, {"dc1": 2}) == ("C", "D")
    assert ring.replicas(35, {"dc1": 2}) == ("D", "A")
    # the cqlsh reading: an empty cell is "", null is DEFAULT_RACK
    text = (" peer | data_center | rack | tokens\n---+---+---+---\n"
            " a | dc1 |  | {'1'}\n b | dc1 | null | {'2'}\n")
    cl = tokenring.Cluster.parse(text)
    assert [n.rack for n in cl.nodes] == ["", "UNKNOWN_RACK"]
    with pytest.raises(tokenring.InvalidArgumentError, match="datacenter name is empty"):
        topo.add_node("E", "", "", [50])


def test_ring_views_are_properties():
    topo = Topology([("A", "dc1", "r1", [10, 50]), ("B", "dc1", "r1", [30])])
    ring = Ring(topo)
    assert isinstance(ring.ranges, list)
    assert [r.end for r in ring.ranges] == list(ring.tokens) == [10, 30, 50]
    assert [r.owner for r in ring.ranges] == ring.token_owners
    assert ring.ranges == [ring.range(i) for i in range(len(ring))]
    with pytest.warns(DeprecationWarning, match="property"):
        assert ring.ranges() == ring.ranges
    mv = tokenring.Movement.join(topo, 1, "C", "dc1", "r1", [40])
    assert isinstance(mv.ranges, list) and isinstance(mv.streams, list)


def test_docstring_examples_run():
    # the examples in the docstrings are what a notebook user copies: they must hold
    import doctest
    result = doctest.testmod(tokenring, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10
    assert result.failed == 0


def test_parse_token_and_hex_decode():
    assert tokenring.parse_token("-9223372036854775808") == tokenring.MIN_TOKEN
    assert tokenring.parse_token("+42") == 42
    for bad in ["", " 5", "1.0", "0x10"]:
        with pytest.raises(tokenring.ParseError):
            tokenring.parse_token(bad)
    with pytest.raises(tokenring.RangeError):
        tokenring.parse_token("9223372036854775808")
    assert tokenring.hex_decode("0x00ff") == b"\x00\xff"
    assert tokenring.hex_decode("616C696365") == b"alice"
    assert tokenring.hex_decode("") == b""
    with pytest.raises(tokenring.ParseError, match="even number"):
        tokenring.hex_decode("abc")
    with pytest.raises(tokenring.ParseError, match="hex digit"):
        tokenring.hex_decode("0g")


def test_assign_racks_and_names():
    assert tokenring.assign_racks(6, nodes_per_rack=[2, 2, 2]) == [(0, r % 3) for r in range(6)]
    assert tokenring.assign_racks(6, nodes_per_rack=[2, 1, 3]) == [
        (0, 0), (0, 1), (0, 2), (0, 0), (0, 2), (0, 2)]
    # the lab's layout: datacenter i mod 2, rack (i div 2) mod 3
    assert tokenring.assign_racks(7, racks=3, datacenters=2) == [
        (i % 2, (i // 2) % 3) for i in range(7)]
    assert tokenring.assign_racks(0) == []
    with pytest.raises(tokenring.InvalidArgumentError, match="add up to 2"):
        tokenring.assign_racks(3, nodes_per_rack=[1, 1])
    assert [tokenring.rack_name(i) for i in range(3)] == ["rack1", "rack2", "rack3"]
    assert tokenring.rack_name(2 ** 32 - 1) == "rack4294967296"


def test_tokens_kept_by_a_join_and_a_move():
    nodes = [(f"n{i}", "dc1", "r1", [i * 1000, i * 1000 + 500]) for i in range(4)]
    before = Ring(Topology(nodes))
    joined = Ring(Topology(nodes + [("n9", "dc1", "r1", [250, 1250])]))
    k = tokenring.tokens_kept(before, joined)
    assert k == (8, 0, 0) and k.unchanged
    moved = Ring(Topology(nodes[:3] + [("n3", "dc1", "r1", [3000, 3600])]))
    k = tokenring.tokens_kept(before, moved)
    assert (k.kept, k.lost, k.gained) == (7, 1, 1) and not k.unchanged
    assert tokenring.tokens_kept(joined, before) == (8, 2, 0)


def test_replication_dc_factor():
    nts = Replication.parse("dc1=3/1,dc2=2")
    assert nts.dc_factor("dc1") == (3, 1)
    assert nts.dc_factor("dc2") == (2, 0)
    assert nts.dc_factor("dc9") == (0, 0)
    assert Replication.parse("SimpleStrategy:2").dc_factor("anywhere") == (2, 0)
