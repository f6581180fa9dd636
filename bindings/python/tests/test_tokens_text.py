# SPDX-License-Identifier: Apache-2.0
"""Tokens as text, one table over the three partitioners: the one _text call of each
operation (topologies, rings, movement, layouts, allocation) and the package's typed
values (ints, bytes) converted to and from it."""
from typing import Any, List, NamedTuple

import pytest

import tokenring
from tokenring import (ExistsError, Movement, NotFoundError, ParseError, Partitioner, RangeError,
                       Replication, Ring, Topology, TokenRingError, UnsupportedError)


class Case(NamedTuple):
    part: Partitioner
    a: List[str]      # node A's tokens, ascending, canonical
    b: str            # node B's token, between A's
    moved: str        # a token above A's
    key_test: str     # the token of b"test"
    loose: str        # a non-canonical spelling of b
    bad: str          # not a token of the partitioner
    value: Any        # the typed value of b
    arithmetic: bool  # even/seeded layouts and allocation exist


CASES = [
    Case(Partitioner.MURMUR3, ["-4611686018427387904", "4611686018427387904"], "0",
         "9223372036854775807", str(tokenring.token(b"test")), "+000", "9223372036854775808",
         0, True),
    Case(Partitioner.RANDOM, ["42535295865117307932921825928971026432",
                              "127605887595351923798765477786913079296"],
         "85070591730234615865843651857942052864", "170141183460469231731687303715884105728",
         "12707736894140473154801792860916528374", "+085070591730234615865843651857942052864",
         "170141183460469231731687303715884105729", 2 ** 126, True),
    Case(Partitioner.BYTE_ORDERED, ["40", "c0"], "80", "ff", "74657374", "80", "8x", b"\x80",
         False),
]
IDS = [c.part.name for c in CASES]


def _topology(c: Case) -> Topology:
    t = Topology(partitioner=c.part)
    t.add_node_text("A", "dc1", "r1", [c.a[1], c.a[0]])
    t.add_node_text("B", "dc1", "r1", [c.loose])
    return t


@pytest.mark.parametrize("c", CASES, ids=IDS)
def test_topology_and_ring_take_and_give_text(c):
    t = _topology(c)
    assert t.partitioner == c.part
    assert t.node_token_texts(0) == c.a
    assert t.node_token_texts(1) == [c.b]
    assert t.node(1).tokens == (c.value,)  # the typed view of the same tokens
    with pytest.raises((ParseError, RangeError), match="token 2 of 2"):
        t.add_node_text("C", "dc1", "r1", [c.b, c.bad])
    with pytest.raises(ExistsError):
        t.add_node_text("C", "dc1", "r1", [c.b])
    with pytest.raises(TypeError):
        t.add_node_text("C", "dc1", "r1", [c.value])  # values go to add_node
    assert len(t) == 2
    ring = Ring(t)
    assert ring.token_texts == [c.a[0], c.b, c.a[1]]
    assert ring.token_text(1) == c.b
    with pytest.raises(RangeError):
        ring.token_text(3)
    assert ring.search_text(c.b) == 1
    assert ring.search_text(c.moved) == 0  # past the last token: wraps
    with pytest.raises((ParseError, RangeError)):
        ring.search_text(c.bad)
    assert ring.range_index(c.value) == 1  # the typed lookup agrees
    t.set_tokens_text("B", [c.moved])
    assert t.node_token_texts(1) == [c.moved]
    with pytest.raises(NotFoundError):
        t.set_tokens_text("Z", [c.b])


@pytest.mark.parametrize("c", CASES, ids=IDS)
def test_typed_tokens_round_trip_through_text(c):
    t = Topology(partitioner=c.part)
    t.add_node("A", "dc1", "r1", [tokenring.token_from_text(x, c.part) for x in c.a])
    assert t.node_token_texts(0) == c.a
    assert tokenring.token_to_text(c.value, c.part) == c.b
    assert tokenring.token_from_text(c.loose, c.part) == c.value
    other = b"\x01" if c.part != Partitioner.BYTE_ORDERED else 1
    with pytest.raises(TypeError, match="token is"):
        t.add_node("C", "dc1", "r1", [other])
    with pytest.raises(TypeError):
        tokenring.token_to_text(other, c.part)


@pytest.mark.parametrize("c", CASES, ids=IDS)
def test_key_tokens_normalize_compare(c):
    assert tokenring.key_token_text(b"test", c.part) == c.key_test
    assert tokenring.key_token_text("test", c.part.name.lower().replace("_", "")) == c.key_test
    assert tokenring.normalize_token_text(c.loose, c.part) == c.b
    with pytest.raises((ParseError, RangeError)) as e:
        tokenring.normalize_token_text(c.bad, c.part)
    assert len(e.value.message) > 20  # the library's detail
    assert tokenring.compare_tokens(c.a[0], c.b, c.part) == -1
    assert tokenring.compare_tokens(c.b, c.loose, c.part) == 0
    assert tokenring.compare_tokens(c.a[1], c.value, c.part) == 1  # a value and a text
    with pytest.raises(TokenRingError):
        tokenring.compare_tokens(c.bad, c.b, c.part)


def test_key_token_text_minimums_and_hex():
    assert tokenring.key_token_text(b"", Partitioner.RANDOM) == "-1"
    assert tokenring.key_token_text(b"", Partitioner.BYTE_ORDERED) == ""
    assert tokenring.normalize_token_text("ABC", Partitioner.BYTE_ORDERED) == "0abc"
    assert tokenring.token_from_text("ABC", "byteordered") == b"\x0a\xbc"
    assert tokenring.token_from_text("-1", "random") == tokenring.RANDOM_MIN_TOKEN


@pytest.mark.parametrize("c", CASES, ids=IDS)
def test_movement_bounds_and_samples_as_text(c):
    t = _topology(c)
    repl = Replication.simple(1)
    mv = Movement.join(t, repl, "C", "dc1", "r1", [tokenring.token_from_text(c.moved, c.part)],
                       samples=[b"test", "other"])
    assert mv.range_texts() == [(c.a[1], c.moved)]
    assert mv.ranges[0].start == tokenring.token_from_text(c.a[1], c.part)
    assert mv.ranges[0].end == tokenring.token_from_text(c.moved, c.part)
    assert mv.sample_texts() == [c.key_test, tokenring.key_token_text("other", c.part)]
    assert mv.samples[0].token == tokenring.token_from_text(c.key_test, c.part)
    mv = Movement.move(t, repl, "B", [tokenring.token_from_text(c.moved, c.part)])
    assert len(mv.range_texts()) == 2 and mv.sample_texts() == []
    assert [(r.start, r.end) for r in mv.ranges] == \
        [tuple(tokenring.token_from_text(x, c.part) for x in r) for r in mv.range_texts()]


@pytest.mark.parametrize("c", CASES, ids=IDS)
def test_layouts_and_allocation(c):
    t = _topology(c)
    calls = [
        lambda: tokenring.even_tokens(4, partitioner=c.part),
        lambda: tokenring.seeded_tokens(4, 7, "n1", partitioner=c.part),
        lambda: tokenring.allocate_as_cassandra(t, 4, "10.0.0.9", "dc1", "r1", rf=1),
        lambda: tokenring.allocate_join(t, 4, "10.0.0.9", "dc1", "r1", rf=1),
    ]
    if not c.arithmetic:
        for call in calls:
            with pytest.raises(UnsupportedError):
                call()
        return
    even, seeded, cass, join = (call() for call in calls)
    assert even == sorted(even) and len(even) == 4
    assert len(seeded) == 4 and join == cass
    typed = {Partitioner.MURMUR3: (tokenring.even_tokens, tokenring.seeded_tokens),
             Partitioner.RANDOM: (tokenring.even_tokens128, tokenring.seeded_tokens128)}[c.part]
    assert even == typed[0](4) and seeded == typed[1](4, 7, "n1")


def test_first_token_as_value_named():
    t = Topology(partitioner="random")
    first = tokenring.even_tokens128(1, 1, 4)[0]
    got = tokenring.allocate_as_cassandra(t, 2, "10.0.0.1", "dc1", "r1", rf=1, first_token=first)
    assert got[0] == first or first in got
    with pytest.raises(RangeError, match="first_token"):
        tokenring.allocate_as_cassandra(t, 2, "10.0.0.1", "dc1", "r1", rf=1, first_token=2 ** 128)
