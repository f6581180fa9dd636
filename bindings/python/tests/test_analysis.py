# SPDX-License-Identifier: Apache-2.0
"""layout.h and analysis.h through the binding: seeded and even layouts, the allocator,
balance, movement, availability and the num_tokens migration plan."""
import random

import pytest

import tokenring
from tokenring import (ChangeKind, Consistency, ImpossibleError, Movement, Replication, Ring,
                       Topology)

MIN = tokenring.MIN_TOKEN


def _seeded(n=6, vnodes=8, seed=1):
    topo = Topology()
    tokenring.add_seeded_nodes(topo, seed, vnodes, [f"node{i}" for i in range(1, n + 1)])
    return topo


def test_seeded_layout_is_stable():
    topo = _seeded()
    assert len(topo) == 6 and all(len(n.tokens) == 8 for n in topo)
    assert topo.node(0).datacenter == "datacenter1" and topo.node(0).rack == "rack1"
    first = tokenring.seeded_tokens(8, 1, "node1")
    assert first[0] == tokenring.seeded_token(1, "node1", 0)
    assert sorted(first) == list(topo.node(0).tokens)
    assert tokenring.seeded_tokens(8, 1, "node1", taken=topo) == first
    before = {n.name: n.tokens for n in topo}
    tokenring.add_seeded_nodes(topo, 1, 8, ["node7"], ["datacenter1"], ["rack1"])
    assert {n.name: n.tokens for n in topo if n.name != "node7"} == before
    assert tokenring.seeded_tokens(8, 2, "node1") != first
    with pytest.raises(tokenring.ExistsError):
        tokenring.add_seeded_nodes(topo, 1, 8, ["node7"])
    assert len(topo) == 7
    other = Topology()
    other.add_seeded_nodes(1, 8, [f"node{i}" for i in range(1, 8)])
    assert other.nodes == topo.nodes


def test_join_moves_primaries_only_to_the_new_node():
    # the seed's claim: six nodes, eight tokens, seed 1, 200 fixed sample keys
    topo = _seeded()
    keys = [f"sample-key-{i}" for i in range(200)]
    new_tokens = tokenring.seeded_tokens(8, 1, "node7", taken=topo)
    mv = Movement.join(topo, 1, "node7", "datacenter1", "rack1", new_tokens, samples=keys)
    s = mv.summary
    assert s.sample_count == 200
    moved = [c for c in mv.samples if c.owner_changed]
    assert 0 < len(moved) == s.samples_primary_changed < 200
    assert all(c.new_owner == "node7" for c in moved)
    assert [c.token for c in mv.samples] == [tokenring.token(k) for k in keys]
    before, after = Ring(topo), None
    topo2 = topo.clone()
    topo2.add_node("node7", "datacenter1", "rack1", new_tokens)
    after = Ring(topo2)
    for c, k in zip(mv.samples, keys):
        assert (c.old_owner, c.new_owner) == (before.owner(k), after.owner(k))
    # the ranges that changed are exactly where the owner changed, and nothing else
    assert sum(r.width for r in mv.ranges) == s.changed_width
    assert all(r.new_replicas == ("node7",) for r in mv.ranges)
    assert sum(st.width for st in mv.streams) == s.streamed_width
    assert all(st.destination == "node7" for st in mv.streams)
    assert len(mv.nodes) == 7 and mv.nodes[-1].in_before is False


def test_decommission_replace_move_compare():
    topo = _seeded()
    repl = Replication.simple(3)
    d = Movement.decommission(topo, repl, "node3")
    assert any(st.source == "node3" for st in d.streams)
    assert all(st.destination != "node3" for st in d.streams)
    r = Movement.replace(topo, repl, "node2", "node2b")
    assert r.streams and all(st.destination == "node2b" and st.source != "node2"
                             for st in r.streams)
    assert r.summary.primary_changed_width == sum(
        w.width for w in r.ranges if w.old_replicas[0] != w.new_replicas[0])
    m = Movement.move(topo, repl, "node1", [1, 2, 3])
    assert m.summary.changed_width > 0
    same = Movement.compare(topo, topo.clone(), repl, ChangeKind.GENERIC)
    assert same.summary.changed_width == 0 and same.ranges == [] and same.cleanup == []
    with pytest.raises(tokenring.NotFoundError):
        Movement.decommission(topo, repl, "nope")


def test_even_tokens_exact():
    for num, slot, slots in [(4, 0, 1), (16, 1, 3), (256, 2, 3), (1, 0, 1), (7, 4, 5)]:
        want = [MIN + (j * slots + slot) * 2 ** 64 // (num * slots) for j in range(num)]
        assert tokenring.even_tokens(num, slot, slots) == want
    with pytest.raises(tokenring.RangeError):
        tokenring.even_tokens(4, 3, 3)


def test_allocator():
    topo = Topology()
    for i, rack in enumerate(["r1", "r2", "r3"]):
        topo.add_node(f"n{i}", "dc1", rack, tokenring.even_tokens(16, i, 3))
    toks = tokenring.allocate_tokens(topo, 16, "dc1", "r1", 3)
    assert len(toks) == 16 and toks == sorted(set(toks))
    taken = {t for n in topo for t in n.tokens}
    assert not taken & set(toks)
    plans = tokenring.allocate_nodes(topo, 16, "dc1", ["r1", "r2", "r3"], 3)
    assert [len(p) for p in plans] == [16, 16, 16]
    allnew = [t for p in plans for t in p]
    assert len(set(allnew)) == 48 and not taken & set(allnew)
    for i, p in enumerate(plans):
        topo.add_node(f"m{i}", "dc1", f"r{i + 1}", p)
    eff = tokenring.balance(Ring(topo), {"dc1": 3}).effective
    # every range has one replica per rack (3 racks, rf 3); the allocator's quality is
    # tested by the C suite and its benchmark, not here
    assert eff.node_count == 6 and eff.total_width == 3 * 2 ** 64


def test_balance_matches_ownership(toy_ring):
    rep = tokenring.balance(toy_ring, 2)
    own = toy_ring.ownership(2)
    widths = {n: o.primary_width for n, o in own.items()}
    assert rep.primary.node_count == 3
    assert rep.primary.max_width == max(widths.values())
    assert rep.primary.min_width == min(widths.values())
    assert rep.primary.total_width == 2 ** 64
    assert widths[rep.primary.max_node] == rep.primary.max_width
    assert rep.effective.total_width == sum(o.effective_width for o in own.values())
    assert tokenring.balance(toy_ring).effective is None
    assert toy_ring.balance(2) == rep
    with pytest.raises(tokenring.NotFoundError):
        tokenring.balance(toy_ring, datacenter="nope")


def _random_ring(racks):
    rnd = random.Random(5)
    topo = Topology()
    for i in range(12):
        topo.add_node(f"n{i:02d}", "dc1", f"r{i % racks}",
                      [rnd.randrange(-2 ** 63, 2 ** 63) for _ in range(256)])
    return Ring(topo)


def test_availability_seed_facts():
    one_rack = tokenring.availability(_random_ring(1), 3, Consistency.QUORUM, 2)
    assert len(one_rack) == 66
    assert all(0 < f.fraction < 1 and f.width > 0 for f in one_rack)
    # rack-aware NetworkTopologyStrategy: only pairs in different racks share a range
    three = tokenring.availability(_random_ring(3), {"dc1": 3}, Consistency.QUORUM, 2)
    assert len(three) == 48
    ring = _random_ring(3)
    racks = {n.name: n.rack for n in ring.nodes}
    assert all(racks[a] != racks[b] for a, b in (f.nodes for f in three))
    assert len(tokenring.availability(ring, 3, "one", 1)) == 0
    with pytest.raises(ImpossibleError):
        tokenring.availability(ring, 2, Consistency.THREE, 1)
    with pytest.raises(tokenring.RangeError):
        tokenring.availability(ring, 3, Consistency.QUORUM, tokenring.AVAILABILITY_MAX_K + 1)


def test_migration_plan():
    topo = _seeded()
    plan = tokenring.migration_plan(topo, "datacenter1", "dc2", ["x1", "x2", "x3"],
                                    ["r1", "r2", "r3"], 16, 3,
                                    {"shop": {"datacenter1": 3}})
    assert [n.name for n in plan.nodes] == ["x1", "x2", "x3"]
    assert all(len(n.tokens) == 16 and list(n.tokens) == sorted(n.tokens) for n in plan.nodes)
    text = "\n".join(plan.steps)
    assert "shop" in text and "dc2" in text and "x1" in text
    with pytest.raises(tokenring.NotFoundError):
        tokenring.migration_plan(topo, "nope", "dc2", ["x1"], ["r1"], 16, 1)


def test_migration_plan_keeps_factors_and_other_datacenters():
    """rf=0 keeps each keyspace's factor of the old datacenter; dc1 stays in every ALTER;
    SimpleStrategy across two datacenters is refused, named."""
    topo = Topology([("n%d" % i, "dc1" if i < 3 else "dc2", "r1", [i * 1000 - 3000])
                     for i in range(6)])
    plan = tokenring.migration_plan(topo, "dc2", "dc3", ["x1", "x2"], ["r1", "r2"], 4, 0,
                                    {"shop": {"dc1": 3, "dc2": 2}})
    assert ("cqlsh: ALTER KEYSPACE shop WITH replication = {'class': "
            "'NetworkTopologyStrategy', 'dc1': '3', 'dc2': '2', 'dc3': '2'};") in plan.steps
    assert all("'dc1': '3'" in s for s in plan.steps if "ALTER KEYSPACE" in s)
    with pytest.raises(tokenring.UnsupportedError, match="system_auth"):
        tokenring.migration_plan(topo, "dc2", "dc3", ["x1", "x2", "x3"], ["r1", "r2", "r3"], 4,
                                 0, {"system_auth": "SimpleStrategy:3"})


def test_movement_repr_reads_as_its_summary():
    topo = Topology([("A", "dc1", "r1", [10, 50]), ("B", "dc1", "r1", [30, 80]),
                     ("C", "dc1", "r1", [65, 95])])
    mv = Movement.join(topo, 2, "D", "dc1", "r1", [40])
    s = mv.summary
    assert mv.kind is ChangeKind.JOIN
    text = repr(mv)
    assert "object at 0x" not in text
    assert text.startswith("<tokenring.Movement join: 4 nodes, ")
    assert f"{s.range_count} ranges change replicas" in text
    assert f"{s.stream_count} streams" in text
    assert f"{100 * s.changed_fraction:.2f} % of the token space" in text
    assert ("cleanup on " + ", ".join(mv.cleanup)) in text and mv.cleanup
    gone = Movement.decommission(topo, 2, "A")
    assert gone.kind is ChangeKind.DECOMMISSION and "decommission: 3 nodes" in repr(gone)
    assert "cleanup on no node" in repr(gone)
    assert Movement.compare(topo, topo, 2).kind is ChangeKind.GENERIC
    gone.close()
    assert repr(gone) == "<tokenring.Movement closed>"
    # public classes read as tokenring.X, not as the private module defining them
    assert Movement.__module__ == "tokenring" and tokenring.Ring.__module__ == "tokenring"


def _brute_summary(ring, rf, cl, k, unit):
    """Every k-set of failed units, each range checked against Cassandra's blockFor."""
    from itertools import combinations
    pl = ring.placement({"dc1": rf})
    nodes = ring.nodes
    key = {"nodes": lambda n: n.name, "racks": lambda n: "dc1/" + n.rack}[unit]
    units = sorted({key(n) for n in nodes}, key=lambda u: [key(n) for n in nodes].index(u))
    need = {"ONE": 1, "QUORUM": rf // 2 + 1, "ALL": rf}[cl]
    reps = [pl.range_replicas(r.index) for r in ring.ranges]
    unit_of = {n.name: key(n) for n in nodes}
    rows = []
    for combo in combinations(units, k):
        down = set(combo)
        lost = sum(r.width for r, rep in zip(ring.ranges, reps)
                   if sum(unit_of[x] not in down for x in rep) < need)
        if lost:
            rows.append((lost, combo))
    return len(list(combinations(units, k))), rows


@pytest.mark.parametrize("cl", ["ONE", "QUORUM", "ALL"])
def test_availability_summary_equals_brute_force(cl):
    rnd = random.Random(11)
    topo = Topology()
    for i in range(9):
        topo.add_node(f"n{i}", "dc1", f"r{i % 3}",
                      [rnd.randrange(-2 ** 63, 2 ** 63) for _ in range(4)])
    ring = Ring(topo)
    for unit in ("nodes", "racks"):
        for k in range(1, 4):
            total, rows = _brute_summary(ring, 3, cl, k, unit)
            s = tokenring.availability_summary(ring, {"dc1": 3}, cl, k, unit=unit, top=4)
            assert (s.sets, s.breaking) == (total, len(rows))
            best = sorted(rows, key=lambda r: -r[0])[:4]
            assert [w.width for w in s.worst] == [b[0] for b in best]
            assert s.worst_width == (best[0][0] if best else 0)
            assert all(w.fraction == w.width / 2 ** 64 for w in s.worst)
            assert s.unit == tokenring.FailureUnit[unit.upper()] and s.k == k
            assert "sets break it" in repr(s)


def test_availability_summary_errors_and_progress():
    ring = _random_ring(3)
    with pytest.raises(tokenring.RangeError):
        tokenring.availability_summary(ring, {"dc1": 3}, "ONE", 13)
    with pytest.raises(tokenring.RangeError):
        tokenring.availability_summary(ring, {"dc1": 3}, "ONE", 0)
    with pytest.raises(ImpossibleError):
        tokenring.availability_summary(ring, 2, "THREE", 1)
    with pytest.raises(KeyError):
        tokenring.availability_summary(ring, 3, "ONE", 1, unit="planets")
    seen = []
    s = tokenring.availability_summary(ring, {"dc1": 3}, "QUORUM", 4, unit="nodes", top=0,
                                       progress=lambda d, t: seen.append((d, t)))
    assert s.worst == [] and s.worst_width == 0 and s.sets == 495
    assert seen[-1][0] == seen[-1][1] and all(a[0] <= b[0] for a, b in zip(seen, seen[1:]))
    with pytest.raises(tokenring.CancelledError):
        tokenring.availability_summary(ring, {"dc1": 3}, "QUORUM", 4, progress=lambda d, t: 1)
    dcs = tokenring.availability_summary(ring, {"dc1": 3}, "ONE", 1, unit="datacenters")
    assert dcs.breaking == 1 and dcs.worst[0].units == ("dc1",) and dcs.worst_fraction == 1.0


def test_replication_factors_above_255():
    topo = Topology()
    for i in range(10):
        topo.add_node(f"n{i}", "dc1", f"r{i % 2}", [i * 1000003, -i * 77777 - 5])
    ring = Ring(topo)
    for repl in (Replication.simple(300), {"dc1": 300}, "dc1=2147483647",
                 Replication.simple(2 ** 31 - 1)):
        for r in ring.ranges:
            reps = ring.placement(repl).range_replicas(r.index)
            assert len(reps) == 10 and len(set(reps)) == 10
    s = tokenring.availability_summary(ring, 300, "ONE", 9, top=1)
    assert s.breaking == 0
    with pytest.raises(tokenring.RangeError):
        Replication.simple(2 ** 31)
    with pytest.raises(tokenring.RangeError):
        Replication.parse("dc1=2147483648")
