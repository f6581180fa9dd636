# SPDX-License-Identifier: Apache-2.0
"""History.from_metadata and Router.with_history: a Cassandra 6.0 history from the rows a
driver reads of system_views.cluster_metadata_log and cluster_metadata_directory
(tests/data/cassandra6/metadata), equal to the history text they stand for; a router
routed through it answers that order; bad rows are named."""
import collections
import os
import re

import pytest

import tokenring
from conftest import DATA

META = os.path.join(DATA, "cassandra6", "metadata")
LogRow = collections.namedtuple("LogRow", "epoch kind transformation")
NodeRow = collections.namedtuple("NodeRow",
                                 "node_id broadcast_address broadcast_port dc rack state tokens")


def lines(name):
    with open(os.path.join(META, name), encoding="utf-8") as f:
        return [line.rstrip("\n").split("\t") for line in f if not line.startswith("#")]


def rows():
    """The rows as a driver hands them over: named tuples, an int epoch and node id, a
    null port, a list of tokens."""
    log = [LogRow(int(e), k, t) for e, k, t in lines("log.tsv")]
    directory = [NodeRow(int(f[0]), f[1], f[2] or None, f[3], f[4], f[5],
                         f[6].split(",") if f[6] else None) for f in lines("directory.tsv")]
    b = tokenring.RouterBuilder(local_dc="dc1")
    for r in directory:
        if r.tokens:
            b.add_peer(r.broadcast_address.lstrip("/"), r.dc, r.rack, r.tokens)
    for name, repl in lines("keyspaces.tsv"):
        b.add_keyspace(name, dict(re.findall(r"'([^']*)': '([^']*)'", repl)))
    return log, directory, b.build()


def test_rows_replay_as_the_text():
    log, directory, router = rows()
    h = tokenring.History.from_metadata(reversed(log), directory, keyspaces=router)
    with open(os.path.join(META, "history.txt"), encoding="utf-8") as f:
        want = tokenring.History(f.read())
    assert h.ring.token_owners == want.ring.token_owners
    routed = router.with_history(h)
    names = [n.name for n in routed.nodes]
    differ = 0
    for ks, spec in {"ks_a": "dc1=2,dc2=1", "ks_b": "3", "ks_c": "dc1=1",
                     "system_auth": "1", "system_traces": "2"}.items():
        p, w = h.placement(spec), want.placement(spec)
        assert p.order == w.order == "history"
        for tok in range(-2 ** 63 + 1, 2 ** 63 - 1, 2 ** 58):
            assert list(p.replicas(tok)) == list(w.replicas(tok))
            got = [names[i] for i in routed.route_token(ks, tok).replicas]
            assert got == list(w.replicas(tok)), (ks, tok)
            differ += got != [names[i] for i in router.route_token(ks, tok).replicas]
    assert differ > 0  # the history's order is not the tokens' somewhere
    # mappings and plain tuples are rows too
    h2 = tokenring.History.from_metadata([r._asdict() for r in log], [tuple(r) for r in directory],
                                         keyspaces=router)
    assert h2.placement("dc1=2,dc2=1").replicas(0) == \
        h.placement("dc1=2,dc2=1").replicas(0)


def test_bad_rows_are_named():
    log, directory, router = rows()
    bad = list(log)
    bad[23] = bad[23]._replace(kind="NEW_KIND")
    with pytest.raises(tokenring.UnsupportedError, match=r"epoch 24 \(NEW_KIND\)"):
        tokenring.History.from_metadata(bad, directory, keyspaces=router)
    with pytest.raises(tokenring.NotFoundError, match="node id 3 is not in"):
        tokenring.History.from_metadata(log, directory[1:], keyspaces=router)
    d = list(directory)
    d[1] = d[1]._replace(tokens=["12x"])
    with pytest.raises(tokenring.ParseError, match="node_id 1: token '12x'"):
        tokenring.History.from_metadata(log, d, keyspaces=router)
    d[1] = d[1]._replace(tokens="12")
    with pytest.raises(TypeError, match="not one str"):
        tokenring.History.from_metadata(log, d, keyspaces=router)
    with pytest.raises(tokenring.BudgetError) as e:
        tokenring.History.from_metadata(log, directory, keyspaces=router, budget=1e-9)
    assert e.value.estimate > 0
    with pytest.raises(TypeError):
        tokenring.History.from_metadata(log, directory, keyspaces="ks")


def test_router_of_another_moment_is_refused():
    log, directory, router = rows()
    # the log and directory before node 4's join
    h = tokenring.History.from_metadata(log[:16], directory[:3])
    with pytest.raises(tokenring.InvalidArgumentError, match="ring differs from the router's"):
        router.with_history(h)
    with pytest.raises(TypeError):
        router.with_history("history")


def test_a_real_60_log():
    """A real 6.0-alpha2 cluster's log and directory (tests/data/captured: the live stage's
    cluster after a join and a decommission): the history builds, skipping what it must
    (a CMS reconfiguration, schema changes of tables), and its ring is nodetool ring's."""
    cap = os.path.join(DATA, "captured")
    with open(os.path.join(cap, "6.0-alpha2-metadata-log.tsv"), encoding="utf-8") as f:
        log = [LogRow(*line.rstrip("\n").split("\t", 2)) for line in f]
    with open(os.path.join(cap, "6.0-alpha2-metadata-directory.tsv"), encoding="utf-8") as f:
        directory = [NodeRow(*(f[:6] + [f[6].split(",") if f[6] else None]))
                     for f in (line.rstrip("\n").split("\t") for line in f)]
    with open(os.path.join(cap, "6.0-alpha2-metadata-ring.txt"), encoding="utf-8") as f:
        ring = tokenring.Cluster.parse(f.read()).topology()
    assert {r.kind for r in log} >= {"PREPARE_COMPLEX_CMS_RECONFIGURATION", "PREPARE_JOIN",
                                     "PREPARE_LEAVE", "UNSAFE_JOIN"}
    b = tokenring.RouterBuilder()
    for r in directory:
        if r.tokens:
            b.add_peer(r.broadcast_address, r.dc, r.rack, r.tokens)
    nts = "NetworkTopologyStrategy"
    for name, m in {"ks_simple": {"class": "SimpleStrategy", "replication_factor": "3"},
                    "ks_below": {"class": nts, "dc1": "2", "dc2": "1"},
                    "ks_at": {"class": nts, "dc1": "3", "dc2": "0"},
                    "ks_above": {"class": nts, "dc1": "4", "dc2": "2"},
                    "ks_dc2": {"class": nts, "dc2": "1"}}.items():
        b.add_keyspace(name, m)
    router = b.build()
    h = tokenring.History.from_metadata(log, directory, keyspaces=router)
    want = tokenring.Ring(ring)
    assert list(h.ring.tokens) == list(want.tokens)
    assert list(h.ring.token_owners) == list(want.token_owners)
    routed = router.with_history(h)
    assert len(routed.route_token("ks_below", 0).replicas) == 3
    # without the keyspaces the log creates: refused, naming the first
    with pytest.raises(tokenring.NotFoundError, match="keyspace ks_simple exists"):
        tokenring.History.from_metadata(log, directory, keyspaces=_nodes_only(directory))


def _nodes_only(directory):
    b = tokenring.RouterBuilder()
    for r in directory:
        if r.tokens:
            b.add_peer(r.broadcast_address, r.dc, r.rack, r.tokens)
    return b.build()
