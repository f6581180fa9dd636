# SPDX-License-Identifier: Apache-2.0
"""Bad input: the right exception class, the library's code and message, state untouched."""
import pytest

import tokenring
from tokenring import (EmptyError, ExistsError, ImpossibleError, InvalidArgumentError,
                       NotFoundError,
                       ParseError, RangeError, Replication, Ring, TokenRingError, Topology)

lib = tokenring._lib


def _topo():
    return Topology([("A", "dc1", "r1", [10, 50]), ("B", "dc1", "r2", [30, 80])])


def _expect(exc_type, code, fn, *args, **kw):
    with pytest.raises(exc_type) as ei:
        fn(*args, **kw)
    e = ei.value
    assert isinstance(e, TokenRingError)
    assert e.code == code
    assert e.status_name == tokenring._ffi.string(lib.tokenring_status_name(code)).decode()
    assert e.message and e.message in str(e) and e.status_name in str(e)
    return e


@pytest.mark.parametrize("args,exc,code,needle", [
    (("A", "dc1", "r1", [1]), ExistsError, lib.TOKENRING_E_EXISTS, "A"),
    (("C", "dc1", "r1", [30]), ExistsError, lib.TOKENRING_E_EXISTS, "30"),
    (("C", "dc1", "r1", [1, 1]), ExistsError, lib.TOKENRING_E_EXISTS, "1"),
    (("C", "dc1", "r1", []), EmptyError, lib.TOKENRING_E_EMPTY, ""),
    (("", "dc1", "r1", [1]), InvalidArgumentError, lib.TOKENRING_E_INVAL, ""),
    ((b"\xff\xfe", "dc1", "r1", [1]), InvalidArgumentError, lib.TOKENRING_E_INVAL, ""),
    (("C", "", "r1", [1]), InvalidArgumentError, lib.TOKENRING_E_INVAL, ""),
    (("x" * 256, "dc1", "r1", [1]), RangeError, lib.TOKENRING_E_RANGE, ""),
])
def test_add_node_rejected_and_unchanged(args, exc, code, needle):
    topo = _topo()
    before = topo.nodes
    e = _expect(exc, code, topo.add_node, *args)
    assert needle in e.message
    assert topo.nodes == before


def test_detail_message_comes_from_tokenring_error():
    topo = _topo()
    e = _expect(ExistsError, lib.TOKENRING_E_EXISTS, topo.add_node, "C", "dc1", "r1", [30])
    static = tokenring._ffi.string(lib.tokenring_strerror(lib.TOKENRING_E_EXISTS)).decode()
    assert e.message != static  # the detailed message, naming the token or node


def test_nul_in_name_rejected_before_c():
    with pytest.raises(InvalidArgumentError):
        _topo().add_node("A\0B", "dc1", "r1", [1])


def test_topology_edits_rejected_and_unchanged():
    topo = _topo()
    before = topo.nodes
    _expect(NotFoundError, lib.TOKENRING_E_NOTFOUND, topo.remove_node, "Z")
    _expect(NotFoundError, lib.TOKENRING_E_NOTFOUND, topo.replace_node, "Z", "Y")
    _expect(ExistsError, lib.TOKENRING_E_EXISTS, topo.replace_node, "A", "B")
    _expect(NotFoundError, lib.TOKENRING_E_NOTFOUND, topo.set_tokens, "Z", [1])
    _expect(ExistsError, lib.TOKENRING_E_EXISTS, topo.set_tokens, "A", [30])
    _expect(EmptyError, lib.TOKENRING_E_EMPTY, topo.set_tokens, "A", [])
    _expect(InvalidArgumentError, lib.TOKENRING_E_INVAL, topo.set_state, "A", 99)
    _expect(NotFoundError, lib.TOKENRING_E_NOTFOUND, topo.index, "Z")
    with pytest.raises(TypeError):
        topo.add_node("C", "dc1", "r1", ["x"])
    with pytest.raises(RangeError):  # the library's error, not cffi's OverflowError
        topo.add_node("C", "dc1", "r1", [2 ** 63])
    assert topo.nodes == before


def test_empty_ring():
    _expect(EmptyError, lib.TOKENRING_E_EMPTY, Ring, Topology())
    topo = Topology([("A", "dc1", "r1", [1])])
    topo.set_state("A", tokenring.NodeState.JOINING)
    _expect(EmptyError, lib.TOKENRING_E_EMPTY, Ring, topo)


def test_replication_rejected():
    _expect(RangeError, lib.TOKENRING_E_RANGE, Replication.simple, -1)
    _expect(RangeError, lib.TOKENRING_E_RANGE, Replication.simple,
            lib.TOKENRING_MAX_REPLICATION_FACTOR + 1)
    _expect(RangeError, lib.TOKENRING_E_RANGE, Replication.simple, 3, 3)
    _expect(RangeError, lib.TOKENRING_E_RANGE, Replication.network, {"dc1": -2})
    _expect(InvalidArgumentError, lib.TOKENRING_E_INVAL, Replication.network, {"": 3})
    e = _expect(ParseError, lib.TOKENRING_E_PARSE, Replication.parse, "dc1=three")
    assert e.column > 0
    with pytest.raises(InvalidArgumentError):
        Replication.network({"dc1": "x/y"})
    with pytest.raises(TypeError):
        Replication.of(True)


def test_unknown_datacenter():
    ring = Ring(_topo())
    e = _expect(NotFoundError, lib.TOKENRING_E_NOTFOUND, ring.replicas, 1, {"dc9": 3})
    assert "dc9" in e.message
    # Cassandra skips a datacenter without nodes, but no replica at all is an error.
    e = _expect(ImpossibleError, lib.TOKENRING_E_IMPOSSIBLE, ring.replicas, 1, {"dc9": 3},
                allow_unknown_dc=True)
    assert "no replica: datacenter 'dc9'" in e.message


def test_value_parse_errors():
    e = _expect(ParseError, lib.TOKENRING_E_PARSE, tokenring.parse_value, "int", "4x2")
    assert e.column >= 1
    _expect(RangeError, lib.TOKENRING_E_RANGE, tokenring.parse_value, "tinyint", "300")
    _expect(ParseError, lib.TOKENRING_E_PARSE, tokenring.parse_value, "uuid", "not-a-uuid")
    _expect(ParseError, lib.TOKENRING_E_PARSE, tokenring.parse_key, ["int", "int"], "1:2:3")
    _expect(NotFoundError, lib.TOKENRING_E_NOTFOUND, tokenring.cql_type, "nosuchtype")
    _expect(InvalidArgumentError, lib.TOKENRING_E_INVAL, tokenring.composite, [])
    _expect(RangeError, lib.TOKENRING_E_RANGE, tokenring.composite, [b"x" * 65536])


def test_range_index_errors(toy_ring):
    _expect(RangeError, lib.TOKENRING_E_RANGE, toy_ring.range, 6)
    pl = toy_ring.placement(1)
    _expect(RangeError, lib.TOKENRING_E_RANGE, pl.range_replicas, 99)
    _expect(RangeError, lib.TOKENRING_E_RANGE, pl.replica_set, 10 ** 6)
    with pytest.raises(TypeError):
        toy_ring.owner(True)
    with pytest.raises(TypeError):
        toy_ring.owner(1.5)


def test_exception_hierarchy():
    assert issubclass(InvalidArgumentError, ValueError)
    assert issubclass(NotFoundError, LookupError)
    assert issubclass(tokenring.OutOfMemoryError, MemoryError)
    e = tokenring._errors.error_for(-12345)
    assert type(e) is TokenRingError and e.status_name == "TOKENRING_E_UNKNOWN"


def test_packed_offsets_past_the_buffer_refused(toy_ring):
    with pytest.raises(ValueError):
        tokenring.tokens_packed(b"abc", [0, 2, 10])
    with pytest.raises(ValueError):
        toy_ring.placement(1).route_packed(b"abc", [0, 4])
    with pytest.raises(InvalidArgumentError):  # decreasing: the library refuses
        tokenring.tokens_packed(b"abc", [0, 2, 1])
    assert len(tokenring.tokens_packed(b"abc", [0, 1, 3])) == 2


@pytest.mark.skipif(not tokenring.HAVE_NUMPY, reason="numpy not installed")
def test_numpy_tokens_must_be_integers():
    import numpy as np
    topo = _topo()
    with pytest.raises(TypeError):
        topo.add_node("C", "dc1", "r1", np.array([1.5]))
    with pytest.raises(RangeError):
        topo.add_node("C", "dc1", "r1", np.array([2 ** 63], dtype=np.uint64))
    topo.add_node("C", "dc1", "r1", np.array([7, 3], dtype=np.int32))
    assert topo.node(-1).tokens == (3, 7)


@pytest.mark.parametrize("bad", [2 ** 63, -2 ** 63 - 1, 2 ** 64, -2 ** 80])
def test_out_of_range_tokens_raise_the_library_error(bad):
    # every entry point that takes a token says RangeError (TOKENRING_E_RANGE), as the
    # library does for a value outside its limits, never cffi's OverflowError
    topo = _topo()
    ring = Ring(topo)
    pl = ring.placement(1)
    calls = [lambda: ring.owner(bad), lambda: ring.range_of(bad),
             lambda: ring.range_index(bad), lambda: ring.replicas(bad, 1),
             lambda: pl.replicas(bad), lambda: ring.search([0, bad]),
             lambda: pl.route_tokens([bad]), lambda: topo.add_node("C", "dc1", "r1", [bad]),
             lambda: topo.set_tokens("A", [bad]),
             lambda: tokenring.Movement.compare(topo, topo, 1, samples=[bad]),
             lambda: tokenring.Movement.join(topo, 1, "C", "dc1", "r1", [bad])]
    for call in calls:
        with pytest.raises(RangeError) as e:
            call()
        assert e.value.code == lib.TOKENRING_E_RANGE and str(bad) in e.value.message
    assert [n.name for n in topo] == ["A", "B"]


def test_out_of_range_indices_and_factors_raise_the_library_error():
    ring = Ring(_topo())
    for bad in (-1, 2 ** 64):
        with pytest.raises(RangeError):
            ring.range(bad)
        with pytest.raises(RangeError):
            ring.placement(1).range_replicas(bad)
        with pytest.raises(RangeError):
            ring.placement(1).replica_set(bad)
    for bad in (2 ** 31, 2 ** 40, -2 ** 31 - 1):
        with pytest.raises(RangeError):
            Replication.simple(bad)
        with pytest.raises(RangeError):
            Replication.network({"dc1": bad})
        with pytest.raises(RangeError):
            tokenring.allocate_tokens(_topo(), 4, "dc1", "r1", bad)
