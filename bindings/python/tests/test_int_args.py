# SPDX-License-Identifier: Apache-2.0
"""Integer arguments and packed-key offsets of the public API: a clear TypeError or
ValueError (the library's RangeError) naming the argument, never cffi's OverflowError, a
bool taken for 1, or a float truncated (2.7 becoming 2)."""
import inspect

import pytest

import tokenring
from tokenring import RangeError, Ring, Router, RouterBuilder, Topology
from tokenring._ffi import lib

np = pytest.importorskip("numpy")


@pytest.fixture(scope="module")
def env():
    topo = Topology()
    tokenring.add_seeded_nodes(topo, 7, 4, [f"n{i}" for i in range(6)], ["dc1"] * 6,
                               [f"r{i % 3}" for i in range(6)])
    ring = Ring(topo)
    return topo, ring, ring.placement({"dc1": 3})


def _builder():
    b = RouterBuilder(local_dc="dc1")
    b.add_local("10.0.0.1", "dc1", "r1", ["-100", "100"],
                partitioner="org.apache.cassandra.dht.Murmur3Partitioner")
    b.add_peer("10.0.0.2", "dc1", "r2", ["0"])
    b.add_keyspace("ks", {"class": "NetworkTopologyStrategy", "dc1": "2"})
    return b


# (public callable, argument, call with the argument X, whether -1 is a valid value)
def _cases(topo, ring, pl):
    t = tokenring
    r = _builder().build()
    names, racks = ["a", "b", "c"], ["r1", "r2", "r3"]
    return [
        (t.availability, "k", lambda X: t.availability(ring, {"dc1": 3}, "ONE", X), False),
        (t.availability_summary, "k", lambda X: t.availability_summary(ring, {"dc1": 3}, "ONE", k=X), False),
        (t.availability_summary, "top", lambda X: t.availability_summary(ring, {"dc1": 3}, "ONE", k=1, top=X), False),
        (t.migration_plan, "num_tokens", lambda X: t.migration_plan(topo, "dc1", "dc2", names, racks, X, 3), False),
        (t.migration_plan, "rf", lambda X: t.migration_plan(topo, "dc1", "dc2", names, racks, 4, X), False),
        (t.migration_plan, "max_num_tokens", lambda X: t.migration_plan(topo, "dc1", "dc2", names, racks, 4, 3, max_num_tokens=X), False),
        (t.murmur3, "seed", lambda X: t.murmur3(b"a", X), False),
        (t.tokens_packed, "count", lambda X: t.tokens_packed(b"abc", [0, 1, 3], X), True),
        (pl.route_packed, "count", lambda X: pl.route_packed(b"abc", [0, 1, 3], X), True),
        (pl.route_ranges_packed, "count", lambda X: pl.route_ranges_packed(b"abc", [0, 1, 3], X), True),
        (t.seeded_token, "seed", lambda X: t.seeded_token(X, "a", 0), False),
        (t.seeded_token, "vnode", lambda X: t.seeded_token(1, "a", X), False),
        (t.seeded_token, "attempt", lambda X: t.seeded_token(1, "a", 0, X), False),
        (t.seeded_tokens, "count", lambda X: t.seeded_tokens(X, 1, "a"), False),
        (t.seeded_tokens, "seed", lambda X: t.seeded_tokens(2, X, "a"), False),
        (t.seeded_token128, "seed", lambda X: t.seeded_token128(X, "a", 0), False),
        (t.seeded_token128, "vnode", lambda X: t.seeded_token128(1, "a", X), False),
        (t.seeded_token128, "attempt", lambda X: t.seeded_token128(1, "a", 0, X), False),
        (t.seeded_tokens128, "count", lambda X: t.seeded_tokens128(X, 1, "a"), False),
        (t.seeded_tokens128, "seed", lambda X: t.seeded_tokens128(2, X, "a"), False),
        (t.add_seeded_nodes, "seed", lambda X: t.add_seeded_nodes(Topology(), X, 4, ["x"]), False),
        (t.add_seeded_nodes, "tokens_per_node", lambda X: t.add_seeded_nodes(Topology(), 1, X, ["x"]), False),
        (Topology.add_seeded_nodes, "seed", lambda X: Topology().add_seeded_nodes(X, 4, ["x"]), False),
        (Topology.add_seeded_nodes, "tokens_per_node", lambda X: Topology().add_seeded_nodes(1, X, ["x"]), False),
        (t.even_tokens, "num_tokens", lambda X: t.even_tokens(X), False),
        (t.even_tokens, "slot", lambda X: t.even_tokens(4, X, 8), False),
        (t.even_tokens, "slots", lambda X: t.even_tokens(4, 0, X), False),
        (t.even_tokens128, "num_tokens", lambda X: t.even_tokens128(X), False),
        (t.even_tokens128, "slot", lambda X: t.even_tokens128(4, X, 8), False),
        (t.even_tokens128, "slots", lambda X: t.even_tokens128(4, 0, X), False),
        (t.allocate_tokens, "num_tokens", lambda X: t.allocate_tokens(topo, X, "dc1", "r1", 3), False),
        (t.allocate_tokens, "rf", lambda X: t.allocate_tokens(topo, 4, "dc1", "r1", X), False),
        (t.allocate_nodes, "num_tokens", lambda X: t.allocate_nodes(topo, X, "dc1", ["r1"], 3), False),
        (t.allocate_nodes, "rf", lambda X: t.allocate_nodes(topo, 4, "dc1", ["r1"], X), False),
        (t.allocate_nodes, "max_num_tokens", lambda X: t.allocate_nodes(topo, 4, "dc1", ["r1"], 3, max_num_tokens=X), False),
        (t.allocate_as_cassandra, "num_tokens", lambda X: t.allocate_as_cassandra(topo, X, "10.9.9.9", "dc1", "r1", rf=3), False),
        (t.allocate_as_cassandra, "rf", lambda X: t.allocate_as_cassandra(topo, 4, "10.9.9.9", "dc1", "r1", rf=X), False),
        (t.allocate_as_cassandra, "first_token", lambda X: t.allocate_as_cassandra(Topology(), 4, "10.9.9.9", "dc1", "r1", rf=3, first_token=X), True),
        (t.allocate_join, "num_tokens", lambda X: t.allocate_join(topo, X, "10.9.9.9", "dc1", "r1", rf=3), False),
        (t.allocate_join, "rf", lambda X: t.allocate_join(topo, 4, "10.9.9.9", "dc1", "r1", rf=X), False),
        (t.allocate_join, "max_num_tokens", lambda X: t.allocate_join(topo, 4, "10.9.9.9", "dc1", "r1", rf=3, max_num_tokens=X), False),
        (t.assign_racks, "node_count", lambda X: t.assign_racks(X), False),
        (t.assign_racks, "racks", lambda X: t.assign_racks(6, X), False),
        (t.assign_racks, "datacenters", lambda X: t.assign_racks(6, 1, X), False),
        (t.assign_racks, "nodes_per_rack", lambda X: t.assign_racks(6, nodes_per_rack=[2, X]), False),
        (t.rack_name, "rack", lambda X: t.rack_name(X), False),
        (tokenring.Replication.simple, "rf", lambda X: tokenring.Replication.simple(X), False),
        (tokenring.Replication.simple, "transient", lambda X: tokenring.Replication.simple(3, X), False),
        (Ring.range, "index", lambda X: ring.range(X), False),
        (Ring.token_text, "index", lambda X: ring.token_text(X), False),
        (Topology.node_token_texts, "index", lambda X: topo.node_token_texts(X), False),
        (Topology.node, "index", lambda X: topo.node(X), True),  # negative counts from the end
        (type(pl).range_replicas, "index", lambda X: pl.range_replicas(X), False),
        (type(pl).replica_set, "set_id", lambda X: pl.replica_set(X), False),
        (Router.route_token, "token", lambda X: r.route_token("ks", X), True),  # int64_t
        (Router.apply, "kind", lambda X: r.apply(X, node="10.0.0.2"), False),
        (Router.apply, "tag", lambda X: r.apply(lib.TOKENRING_ROUTER_EVENT_JOINED, node="10.0.0.9",
                                                datacenter="dc1", rack="r1", tokens=["5"], tag=X), False),
        (Router.joined, "tag", lambda X: r.joined("10.0.0.9", "dc1", "r1", ["5"], tag=X), False),
        (Router.replaced, "tag", lambda X: r.replaced("10.0.0.2", "10.0.0.9", tag=X), False),
        (RouterBuilder.set_node, "tag", lambda X: _builder().set_node("10.0.0.2", tag=X), False),
    ]


# Integer arguments that are values, not counts, sizes or indices, and keep their own rules:
# CQL encoders (documented OverflowError outside the type), tokens (any int of the
# partitioner's range), enums, error codes.
VALUE_ARGUMENTS = {
    ("encode_int", "value"), ("encode_bigint", "value"), ("encode_smallint", "value"),
    ("encode_tinyint", "value"), ("encode_timestamp", "value"),
    ("compare_random_tokens", "a"), ("compare_random_tokens", "b"),
    ("format_random_token", "token"), ("error_for", "code"), ("check", "code"),
}


# How messages name an argument when not by its Python name.
ALIASES = {"rf": "replication factor", "index": "index", "set_id": "set"}


def _int_parameters(fn):
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return []
    out = []
    for p in sig.parameters.values():
        ann = p.annotation if isinstance(p.annotation, str) else getattr(p.annotation, "__name__", repr(p.annotation))
        if ann in ("int", "Optional[int]") or repr(p.annotation) in ("typing.Optional[int]",) or \
                p.name in ("nodes_per_rack",):
            out.append(p.name)
    return out


def test_every_integer_argument_is_covered(env):
    """Every public function or method with an ``int`` parameter is in the table (or named
    a value argument): a new one is then checked too."""
    covered = {(getattr(fn, "__qualname__", fn.__name__).split(".")[-1], arg)
               for fn, arg, _, _ in _cases(*env)}
    missing = []
    public = [getattr(tokenring, n) for n in tokenring.__all__]
    for obj in public:
        fns = [obj]
        if inspect.isclass(obj):
            fns = [getattr(obj, n) for n in vars(obj) if not n.startswith("_")
                   and callable(getattr(obj, n, None))]
        for fn in fns:
            if not callable(fn) or inspect.isclass(fn):
                continue
            name = getattr(fn, "__name__", "")
            for arg in _int_parameters(fn):
                if (name, arg) not in covered and (name, arg) not in VALUE_ARGUMENTS:
                    missing.append(f"{getattr(fn, '__qualname__', name)}({arg})")
    assert not missing, f"integer arguments not checked by test_int_args.py: {missing}"


@pytest.mark.parametrize("bad", [-1, 2 ** 64, -2 ** 80, True, 2.7, "3", None.__class__])
def test_bad_integer_arguments_are_refused_by_name(env, bad):
    for fn, arg, call, negative_ok in _cases(*env):
        if bad == -1 and negative_ok and type(bad) is int:
            continue
        if negative_ok and type(bad) is int and bad < 0:  # an index from the end, too far
            with pytest.raises((IndexError, ValueError)):
                call(bad)
            continue
        with pytest.raises((TypeError, ValueError)) as e:
            call(bad)
        assert not isinstance(e.value, OverflowError)
        msg = str(e.value)
        named = ALIASES.get(arg, arg)
        assert named in msg, (fn, arg, bad, msg)


def test_availability_k_message(env):
    _, ring, _ = env
    with pytest.raises(RangeError) as e:
        tokenring.availability(ring, {"dc1": 3}, "ONE", k=-1)
    assert isinstance(e.value, ValueError)
    assert "k (failed nodes) -1 is out of range (1 .. 3)" in str(e.value)
    with pytest.raises(TypeError, match=r"k \(failed nodes\) must be an int, not float"):
        tokenring.availability(ring, {"dc1": 3}, "ONE", k=2.0)
    with pytest.raises(TypeError, match="must be an int, not bool"):
        tokenring.availability(ring, {"dc1": 3}, "ONE", k=True)
    # int-likes still work
    assert tokenring.availability(ring, {"dc1": 3}, "ONE", k=np.int64(1)) == \
        tokenring.availability(ring, {"dc1": 3}, "ONE", k=1)


KEYS = b"abcdef"
GOOD = [0, 1, 3, 6]


@pytest.mark.parametrize("route", [False, True, "ranges"])
def test_packed_offsets_refused(env, route):
    pl = env[2]
    call = (lambda o: pl.route_packed(KEYS, o)) if route is True else \
        (lambda o: pl.route_ranges_packed(KEYS, o)) if route else \
        (lambda o: tokenring.tokens_packed(KEYS, o))
    want = tokenring.tokens_packed(KEYS, GOOD)
    for ok in (GOOD, tuple(GOOD), np.array(GOOD, dtype=np.uint64), np.array(GOOD, dtype=np.int32),
               np.array(GOOD, dtype=np.int64), range(0, 7, 3), [np.uint64(o) for o in GOOD]):
        got = call(ok)
        if not route:
            assert list(got) == list(tokenring.tokens_packed(KEYS, list(ok)))
    assert list(tokenring.tokens_packed(KEYS, np.array(GOOD, dtype=np.int32))) == list(want)
    bad = [
        ([0, 1, 2.7, 6], TypeError, r"offsets\[2\] must be an int, not float"),
        (np.array([0.0, 1.0, 2.7, 6.0]), TypeError, "offsets must be a 1-D sequence of non-negative integers"),
        (np.array(GOOD, dtype=np.float64), TypeError, "not an array of float64"),
        ("0136", TypeError, "offsets must be a 1-D sequence of non-negative integers .*, not str"),
        (["0", "1", "3", "6"], TypeError, r"offsets\[0\] must be an int, not str"),
        (b"\x00\x01", TypeError, "not bytes"),
        (np.array([[0, 1], [3, 6]], dtype=np.uint64), ValueError, r"not an array of shape \(2, 2\)"),
        ([[0, 1], [3, 6]], TypeError, r"offsets\[0\] must be an int, not list"),
        ([False, True, True], TypeError, r"offsets\[0\] must be an int, not bool"),
        (np.array([0, -1, 3], dtype=np.int64), ValueError, r"offsets\[1\] -1 is negative"),
        ([0, -1, 3], ValueError, r"offsets\[1\] -1 is negative"),
        ([0, 2 ** 64], ValueError, r"offsets\[1\] 18446744073709551616 is out of range"),
        (5, TypeError, "not int"),
    ]
    for offsets, exc, pattern in bad:
        with pytest.raises(exc, match=pattern):
            call(offsets)
    with pytest.raises(TypeError, match="count must be an int, not float"):
        tokenring.tokens_packed(KEYS, GOOD, 2.0)
    with pytest.raises(ValueError, match="count -2 is out of range"):
        tokenring.tokens_packed(KEYS, GOOD, -2)
    with pytest.raises(ValueError, match="offsets must have count \\+ 1 entries"):
        tokenring.tokens_packed(KEYS, GOOD, 4)


def test_router_int_messages():
    """The router's integer arguments: the C type's range (or the event enum's) in the
    message, and the largest and smallest values still accepted."""
    b = _builder()
    r = b.build()
    with pytest.raises(RangeError, match=r"token -9223372036854775809 is out of range "
                                         r"\(-9223372036854775808 \.\. 9223372036854775807\)"):
        r.route_token("ks", -2 ** 63 - 1)
    assert r.route_token("ks", -2 ** 63).token == -2 ** 63
    assert r.route_token("ks", np.int64(2 ** 63 - 1)).token == 2 ** 63 - 1
    with pytest.raises(RangeError, match=r"kind 11 is out of range \(1 \.\. 10\)"):
        r.apply(11, node="10.0.0.2")
    with pytest.raises(RangeError, match=r"kind 0 is out of range"):
        r.apply(0, node="10.0.0.2")
    with pytest.raises(TypeError, match="kind must be an int, not str"):
        r.apply("up", node="10.0.0.2")
    with pytest.raises(RangeError, match=r"tag -1 is out of range \(0 \.\. 18446744073709551615\)"):
        b.set_node("10.0.0.2", tag=-1)
    with pytest.raises(TypeError, match="tag must be an int, not bool"):
        r.joined("10.0.0.9", "dc1", "r1", ["5"], tag=True)
    b.set_node("10.0.0.2", tag=2 ** 64 - 1)
    r2 = b.build()
    assert r2.nodes[r2.find_node("10.0.0.2")].tag == 2 ** 64 - 1
    j = r.joined("10.0.0.9", "dc1", "r1", ["5"], tag=np.uint64(2 ** 64 - 1))
    assert j.nodes[j.find_node("10.0.0.9")].tag == 2 ** 64 - 1
    assert r.nodes == _builder().build().nodes  # refused calls left the snapshot alone
