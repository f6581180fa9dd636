# SPDX-License-Identifier: Apache-2.0
"""TOKENRING_1.2 through the binding: progress callbacks and cancellation of the long
analyses, and Cassandra's rule for datacenters without nodes."""
import warnings

import pytest

import tokenring
from tokenring import CancelledError, ImpossibleError, NotFoundError, Ring, Topology

lib = tokenring._lib


def _cluster(n, vnodes):
    topo = Topology()
    names = [f"10.0.0.{i + 1}" for i in range(n)]
    tokenring.add_seeded_nodes(topo, 7, vnodes, names, ["dc1"] * n,
                               [f"r{i % 3 + 1}" for i in range(n)])
    return topo


class _Recorder:
    def __init__(self, cancel_at=0, raise_at=0):
        self.calls, self.cancel_at, self.raise_at = 0, cancel_at, raise_at
        self.reports = []

    def __call__(self, done, total):
        self.calls += 1
        self.reports.append((done, total))
        if self.raise_at and self.calls == self.raise_at:
            raise KeyboardInterrupt
        return self.cancel_at and self.calls >= self.cancel_at


def _monotone(reports):
    return all(d <= t for d, t in reports) and all(
        a[0] <= b[0] and a[1] <= b[1] for a, b in zip(reports, reports[1:]))


def test_availability_progress_and_cancel():
    ring = Ring(_cluster(40, 4))
    plain = tokenring.availability(ring, {"dc1": 3}, "ALL", 3)
    rec = _Recorder()
    assert tokenring.availability(ring, {"dc1": 3}, "ALL", 3, progress=rec) == plain
    assert rec.calls > 3 and rec.reports[0][0] == 0 and _monotone(rec.reports)
    assert rec.reports[-1][0] == rec.reports[-1][1]
    for at in (1, 2, rec.calls // 2):
        c = _Recorder(cancel_at=at)
        with pytest.raises(CancelledError) as ei:
            tokenring.availability(ring, {"dc1": 3}, "ALL", 3, progress=c)
        assert ei.value.code == lib.TOKENRING_E_CANCELLED
        assert "availability analysis cancelled" in ei.value.message
        assert c.calls == at
    # An exception in the callback (Ctrl-C in a notebook) cancels and comes back out.
    c = _Recorder(raise_at=2)
    with pytest.raises(KeyboardInterrupt):
        tokenring.availability(ring, {"dc1": 3}, "ALL", 3, progress=c)
    assert c.calls == 2


def test_allocator_and_migration_progress_and_cancel():
    topo = _cluster(9, 8)
    racks = ["r1", "r2", "r3", "r4"]
    plain = tokenring.allocate_nodes(topo, 8, "dc1", racks, 3)
    rec = _Recorder()
    assert tokenring.allocate_nodes(topo, 8, "dc1", racks, 3, progress=rec) == plain
    assert _monotone(rec.reports) and rec.reports[-1][0] == rec.reports[-1][1] >= 32
    with pytest.raises(CancelledError):
        tokenring.allocate_nodes(topo, 8, "dc1", racks, 3, progress=_Recorder(cancel_at=5))
    one = tokenring.allocate_tokens(topo, 8, "dc1", "r2", 3)
    rec = _Recorder()
    assert tokenring.allocate_tokens(topo, 8, "dc1", "r2", 3, progress=rec) == one
    assert rec.reports[-1] == (8, 8)
    with pytest.raises(CancelledError):
        tokenring.allocate_tokens(topo, 8, "dc1", "r2", 3, progress=_Recorder(cancel_at=3))
    names = [f"n{i}" for i in range(1, 7)]
    mracks = ["r1", "r2", "r3"] * 2
    plan = tokenring.migration_plan(topo, "dc1", "dc16", names, mracks, 16, 3)
    rec = _Recorder()
    assert tokenring.migration_plan(topo, "dc1", "dc16", names, mracks, 16, 3,
                                    progress=rec) == plan
    assert _monotone(rec.reports) and rec.reports[-1][0] == rec.reports[-1][1]
    with pytest.raises(CancelledError):
        tokenring.migration_plan(topo, "dc1", "dc16", names, mracks, 16, 3,
                                 progress=_Recorder(cancel_at=1))


def test_datacenter_without_nodes():
    ring = Ring(_cluster(6, 4))
    # Strict by default.
    with pytest.raises(NotFoundError, match="dc9"):
        ring.replicas(1, {"dc1": 2, "dc9": 3})
    # allow_unknown_dc: Cassandra's rule, said out loud.
    with pytest.warns(UserWarning, match="datacenter 'dc9' of the replication has no node"):
        pl = ring.placement({"dc1": 2, "dc9": 3}, allow_unknown_dc=True)
    assert pl.empty_datacenters == ("dc9",)
    assert len(pl.replicas(1)) == 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        full = ring.placement({"dc1": 2}, allow_unknown_dc=True)
    assert full.empty_datacenters == ()
    # No replica at all: the library's error, naming the datacenter.
    with pytest.raises(ImpossibleError, match="no replica: datacenter 'dc9'"):
        ring.replicas(1, {"dc9": 3}, allow_unknown_dc=True)
    with pytest.raises(ImpossibleError, match="datacenters 'dc8', 'dc9'"):
        ring.placement({"dc9": 3, "dc8": 1}, allow_unknown_dc=True)
