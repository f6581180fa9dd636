# SPDX-License-Identifier: Apache-2.0
"""TokenRingPolicy on Cassandra 6.0, offline: the driver's Metadata of the cluster of
tests/data/cassandra6/metadata, its hosts saying release 6.0-alpha2, and a fake session
answering the two virtual tables with that cluster's rows. The policy must route in the
history's order (the history text those rows stand for), keep the tokens' order where it
cannot read or apply the history (saying why), follow an ALTER with a new read, keep the
history's order across up and down, and read nothing before 6.0."""
import collections
import os
import re
import threading
import types

import pytest

import tokenring

cassandra = pytest.importorskip("cassandra")
from cassandra.metadata import KeyspaceMetadata, Metadata  # noqa: E402
from cassandra.policies import DCAwareRoundRobinPolicy, SimpleConvictionPolicy  # noqa: E402
from cassandra.pool import Host  # noqa: E402

from conftest import DATA  # noqa: E402
from tokenring import driver  # noqa: E402
from tokenring._driver_history import orders_by_history, release_major  # noqa: E402

META = os.path.join(DATA, "cassandra6", "metadata")
PARTITIONER = "org.apache.cassandra.dht.Murmur3Partitioner"
LogRow = collections.namedtuple("LogRow", "epoch kind transformation")
NodeRow = collections.namedtuple(
    "NodeRow", "node_id broadcast_address broadcast_port dc rack state tokens")


def lines(name):
    with open(os.path.join(META, name), encoding="utf-8") as f:
        return [line.rstrip("\n").split("\t") for line in f if not line.startswith("#")]


LOG = [LogRow(int(e), k, t) for e, k, t in lines("log.tsv")]
DIRECTORY = [NodeRow(int(f[0]), f[1].lstrip("/"), int(f[2]) if f[2] else None, f[3], f[4],
                     f[5], f[6].split(",") if f[6] else None) for f in lines("directory.tsv")]
KEYSPACES = {name: dict(re.findall(r"'([^']*)': '([^']*)'", repl))
             for name, repl in lines("keyspaces.tsv")}
with open(os.path.join(META, "history.txt"), encoding="utf-8") as _f:
    HISTORY = tokenring.History(_f.read())
SPEC = {"ks_a": "dc1=2,dc2=1", "ks_b": "3", "ks_c": "dc1=1"}


class FakeSession:
    """Answers the two virtual tables with ``log`` and ``directory`` (or raises
    ``error``); counts the queries and the hosts they were pinned to."""

    def __init__(self, log=LOG, directory=DIRECTORY, error=None):
        self.log, self.directory, self.error = log, directory, error
        self.queries = []
        self.lock = threading.Lock()

    def execute(self, query, host=None):
        with self.lock:
            self.queries.append((query, host))
        if self.error:
            raise self.error
        if "cluster_metadata_log" in query:
            return iter(self.log)
        assert "cluster_metadata_directory" in query
        return iter(self.directory)


def metadata(release="6.0-alpha2", keyspaces=KEYSPACES):
    md = Metadata()
    md.partitioner = PARTITIONER
    tm = {}
    for r in DIRECTORY:
        if not r.tokens:
            continue
        h = Host(r.broadcast_address, SimpleConvictionPolicy, datacenter=r.dc, rack=r.rack)
        h.set_up()
        h.release_version = release
        md._hosts[h.endpoint] = h
        tm[h] = list(r.tokens)
    for name, m in keyspaces.items():
        opts = {k: v for k, v in m.items() if k != "class"}
        md.keyspaces[name] = KeyspaceMetadata(name, True, m["class"], opts)
    md.rebuild_token_map(PARTITIONER, tm)
    return md


def policy_for(md, session, **kw):
    p = driver.TokenRingPolicy(DCAwareRoundRobinPolicy("dc1"), session=session, **kw)
    p.populate(types.SimpleNamespace(metadata=md), list(md.all_hosts()))
    return p


def tokens():
    return range(-2 ** 63 + 1, 2 ** 63 - 1, 2 ** 57)


def order(policy, ks, token):
    """The policy's replicas (all distances) of a token, by address."""
    r = policy.router.route_token(ks, token)
    return [policy.router.nodes[i].name for i in r.replicas]


def test_release_lines():
    assert release_major("6.0-alpha2") == 6
    assert release_major("6.0.0-alpha2") == 6
    assert release_major("5.0.9") == 5
    assert release_major(None) is None and release_major("x") is None
    hs = [types.SimpleNamespace(release_version=v) for v in ("5.0.9", None)]
    assert not orders_by_history(hs)
    assert orders_by_history(hs + [types.SimpleNamespace(release_version="6.0.0-alpha2")])


def test_policy_routes_in_the_historys_order():
    md = metadata()
    s = FakeSession()
    p = policy_for(md, s)
    assert p.replicas("ks_a", b"k") != ()          # first request: the ring is built
    assert p.wait_for_history(30)
    assert p.replica_order == "history", p.last_error
    assert p.history_refreshes == 1
    # both tables read from one host
    assert len({h for _, h in s.queries}) == 1 and s.queries[0][1] is not None
    differ = 0
    tok = driver.TokenRingPolicy(DCAwareRoundRobinPolicy("dc1"), history=False)
    tok.populate(types.SimpleNamespace(metadata=md), list(md.all_hosts()))
    tok.replicas("ks_a", b"k")
    assert tok.replica_order == "tokens"
    for ks, spec in SPEC.items():
        want = HISTORY.placement(spec)
        for t in tokens():
            assert order(p, ks, t) == list(want.replicas(t)), (ks, t)
            differ += order(tok, ks, t) != order(p, ks, t)
        # the query plan starts with the history's first local replica
        key = b"some key"
        t = tokenring.token(key)
        first_local = next(n for n in want.replicas(t)
                           if n in ("127.0.0.1", "127.0.0.2", "127.0.0.4"))
        plan = list(p.make_query_plan(ks, types.SimpleNamespace(keyspace=ks, routing_key=key)))
        assert plan[0].address == first_local
    assert differ > 0
    # up and down keep the history's order
    h = next(iter(md.all_hosts()))
    p.on_down(h)
    assert p.replica_order == "history"
    p.on_up(h)
    assert p.replica_order == "history"
    assert p.history_refreshes == 1


def test_policy_follows_an_alter_with_a_new_read():
    md = metadata()
    s = FakeSession()
    p = policy_for(md, s)
    p.replicas("ks_a", b"k")
    assert p.wait_for_history(30) and p.replica_order == "history"
    n = len(s.queries)
    # ALTER KEYSPACE ks_c (the log says so: the fake's rows stand for after it)
    md.keyspaces["ks_c"] = KeyspaceMetadata("ks_c", True, "NetworkTopologyStrategy",
                                            {"dc1": "2"})
    p.replicas("ks_c", b"k")
    assert p.wait_for_history(30)
    assert len(s.queries) > n
    assert p.history_refreshes == 2 and p.replica_order == "history"
    # dc1=2 is a replication no keyspace of the log had: as created now
    fresh = HISTORY.placement("dc1=2")
    for t in tokens():
        assert order(p, "ks_c", t) == list(fresh.replicas(t))


def test_policy_keeps_the_tokens_order_when_the_history_fails(monkeypatch):
    monkeypatch.setattr(driver.HistoryWorker, "RETRIES", (0.01,))
    md = metadata()
    # an operation in progress: the log ends before node 5's leave finished
    s = FakeSession(log=LOG[:-1])
    p = policy_for(md, s)
    p.replicas("ks_a", b"k")
    assert p.wait_for_history(30)
    assert p.replica_order == "tokens"
    assert "still in progress (no FINISH_LEAVE" in p.last_error
    assert p._history_worker.attempts == 2                 # retried once
    # the session fails
    s2 = FakeSession(error=RuntimeError("no route to host"))
    p2 = policy_for(md, s2)
    p2.replicas("ks_a", b"k")
    assert p2.wait_for_history(30)
    assert p2.replica_order == "tokens" and "no route to host" in p2.last_error
    # rows of another moment: the directory before node 4 joined
    before = LOG[:16]
    assert "(ks_d)" in before[13].transformation     # created later in that log's terms
    before[13] = before[13]._replace(
        transformation="AlterSchema{schemaTransformation=CreateTableStatement (ks_a.u)}")
    s3 = FakeSession(log=before, directory=DIRECTORY[:3])
    p3 = policy_for(md, s3)
    p3.replicas("ks_a", b"k")
    assert p3.wait_for_history(30)
    assert p3.replica_order == "tokens" and "ring differs" in p3.last_error
    with pytest.raises(tokenring.InvalidArgumentError, match="ring differs"):
        p3.refresh_history()
    # fixed: a synchronous refresh applies it
    s3.log, s3.directory = LOG, DIRECTORY
    assert p3.refresh_history() is True
    assert p3.replica_order == "history"
    assert p3.last_error is None                # superseded by the read that applied


def test_policy_history_budget(monkeypatch):
    monkeypatch.setattr(driver.HistoryWorker, "RETRIES", ())
    p = policy_for(metadata(), FakeSession(), history_budget=1e-9)
    p.replicas("ks_a", b"k")
    assert p.wait_for_history(30)
    assert p.replica_order == "tokens" and "budget" in p.last_error
    p2 = policy_for(metadata(), FakeSession(), history_budget="unlimited")
    p2.replicas("ks_a", b"k")
    assert p2.wait_for_history(30) and p2.replica_order == "history"


def test_policy_reads_nothing_before_60_or_when_told_not_to():
    s = FakeSession()
    p = policy_for(metadata(release="5.0.9"), s)
    p.replicas("ks_a", b"k")
    assert p.wait_for_history(5)
    assert p.replica_order == "tokens" and s.queries == []
    p2 = policy_for(metadata(), s, history=False)
    p2.replicas("ks_a", b"k")
    assert p2.wait_for_history(5)
    assert p2.replica_order == "tokens" and s.queries == []
    # without a session nor a cluster to connect: said, tokens kept
    p3 = driver.TokenRingPolicy(DCAwareRoundRobinPolicy("dc1"))
    with pytest.raises(tokenring.EmptyError):
        p3.refresh_history()


def test_policy_connects_a_session_of_its_own():
    md = metadata()
    s = FakeSession()
    cluster = types.SimpleNamespace(metadata=md, connect=lambda: s)
    p = driver.TokenRingPolicy(DCAwareRoundRobinPolicy("dc1"))
    p.populate(cluster, list(md.all_hosts()))
    p.replicas("ks_a", b"k")
    assert p.wait_for_history(30)
    assert p.replica_order == "history" and s.queries


def test_history_from_session():
    router = driver.router_from_metadata(metadata())
    h = driver.history_from_session(FakeSession(), router)
    assert h.placement("3").replicas(0) == HISTORY.placement("3").replicas(0)
