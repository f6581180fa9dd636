# SPDX-License-Identifier: Apache-2.0
"""Routers from Python: rows, routes against Ring/Placement, composite parts, events,
errors that leave the snapshot as it was, and the holder with reader threads."""
import random
import threading

import pytest

import tokenring as tr

NTS = {"class": "org.apache.cassandra.locator.NetworkTopologyStrategy", "dc1": "2", "dc2": "1"}
_RNG = random.Random(28)


def _toks(n):
    return [str(_RNG.randrange(-2**63, 2**63)) for _ in range(n)]


NODES = [("10.0.0.%d" % (i + 1), "dc1" if i < 4 else "dc2", "r%d" % (i % 2), _toks(8))
         for i in range(6)]


def builder(local_dc="dc1"):
    b = tr.RouterBuilder(local_dc)
    name, dc, rack, toks = NODES[0]
    b.add_local(name, dc, rack, toks, host_id="h1",
                partitioner="org.apache.cassandra.dht.Murmur3Partitioner")
    for name, dc, rack, toks in NODES[1:]:
        b.add_peer(name, dc, rack, toks)
    for i, (name, *_rest) in enumerate(NODES):
        b.set_node(name, tag=100 + i)
    b.add_keyspace("shop", NTS)
    b.add_keyspace("users", NTS)
    b.add_keyspace("system", {"class": "org.apache.cassandra.locator.LocalStrategy"})
    return b


def test_rows_agree_with_placement():
    r = builder().build()
    assert r.keyspaces == ("shop", "users")
    assert r.skipped == (("system", "org.apache.cassandra.locator.LocalStrategy"),)
    assert r.same_placement("shop", "users")
    ring = tr.Ring(tr.Topology([(n, d, k, [int(t) for t in ts]) for n, d, k, ts in NODES]))
    repl = tr.Replication.parse("NetworkTopologyStrategy:dc1=2,dc2=1")
    for i in range(200):
        key = b"key%d" % i
        route = r.route("shop", key)
        assert tuple(r.nodes[x].name for x in route.replicas) == ring.replicas(key, repl)
        assert route.token == tr.token(key)
        assert route.local_count == 2
        assert [r.nodes[x].datacenter for x in route.local] == ["dc1", "dc1", "dc2"]
        assert r.local_tags("shop", key) == tuple(r.nodes[x].tag for x in route.local)
    assert r.nodes[r.find_node("10.0.0.1")].host_id == "h1"
    with pytest.raises(tr.NotFoundError):
        r.route("nope", b"k")
    with pytest.raises(tr.NotFoundError):
        r.find_node("nope")


def test_parts_equal_packed():
    r = builder().build()
    for i in range(100):
        parts = [b"a" * i, (i).to_bytes(4, "big"), b""]
        assert r.route_parts("shop", parts).token == tr.token(tr.composite(parts))


def test_events():
    r = builder().build()
    d = r.down("10.0.0.1")
    assert not d.nodes[d.find_node("10.0.0.1")].up
    route = d.route("shop", b"k", up_first=True)
    assert route.local_up_count == route.local_count - (0 in route.replicas)
    j = d.joined("10.0.0.9", "dc2", "r1", _toks(8), tag=9)
    assert j.nodes[j.find_node("10.0.0.9")].tag == 9
    left = j.left("10.0.0.2")
    assert [n.tag for n in left.nodes if n.name == "10.0.0.9"] == [9]
    assert {n.tag for n in left.nodes} == {100, 102, 103, 104, 105, 9}
    m = left.moved("10.0.0.9", _toks(4))
    assert m.nodes[m.find_node("10.0.0.9")].token_count == 4
    rep = m.replaced("10.0.0.9", "10.0.0.10", tag=10)
    assert rep.nodes[rep.find_node("10.0.0.10")].tag == 10
    c = rep.keyspace_created("orders", {"class": "SimpleStrategy", "replication_factor": "1"})
    assert c.route("orders", b"k").replicas.__len__() == 1
    a = c.keyspace_altered("orders", NTS)
    assert a.same_placement("orders", "shop")
    dropped = a.keyspace_dropped("orders")
    assert dropped.keyspaces == ("shop", "users")
    with pytest.raises(tr.NotFoundError):
        r.down("10.9.9.9")
    with pytest.raises(tr.ParseError):
        r.joined("10.9.9.9", None, "r1", ["1"])
    with pytest.raises(tr.ParseError):
        r.keyspace_created("odd", {"class": "OddStrategy"})
    assert r.keyspaces == ("shop", "users")  # unchanged


def test_ringless_class_is_not_a_parse_error():
    with pytest.raises(tr.NotPlacedError):
        tr.Replication.parse("{'class': 'org.apache.cassandra.locator.EverywhereStrategy'}")
    with pytest.raises(tr.ParseError):
        tr.Replication.parse("{'class': 'OddStrategy'}")


def test_builder_errors():
    b = tr.RouterBuilder()
    with pytest.raises(tr.EmptyError):
        b.build()
    with pytest.raises(tr.ParseError):
        b.add_peer("10.0.0.1", None, "r1", ["1"])
    with pytest.raises(tr.NotFoundError):
        b.set_node("10.0.0.1", tag=1)
    c = tr.Cluster.parse("node A dc=dc1 rack=r1 tokens=10,50\nkeyspace ks 1\n")
    b.add_cluster(c)
    r = b.build()
    assert r.keyspaces == ("ks",)
    assert r.nodes[0].name == "A"


def test_holder_threads():
    r = builder().build()
    h = tr.RouterHolder(r)
    stop = threading.Event()
    errors = []

    def reader():
        rd = h.reader()
        try:
            while not stop.is_set():
                with rd as snap:
                    if len(snap.route("shop", b"k").replicas) != 3:
                        errors.append("count")
        except Exception as e:  # pragma: no cover - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=reader) for _ in range(2)]
    for t in threads:
        t.start()
    cur = h.current()
    for i in range(200):
        cur = cur.down("10.0.0.1") if i % 2 == 0 else cur.up("10.0.0.1")
        h.swap(cur)
    stop.set()
    for t in threads:
        t.join()
    assert not errors
    rd = h.reader()
    view = rd.acquire()
    assert view.nodes[0].up  # 200 swaps: the last one is up
    rd.release()
    with pytest.raises(tr.ClosedError):
        view.route("shop", b"k")
