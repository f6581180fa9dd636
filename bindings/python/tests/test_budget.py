# SPDX-License-Identifier: Apache-2.0
"""Budgets of the long calls (budget=, BudgetError), the num_tokens cap, and availability
from the nodes already down."""
import math

import pytest

import tokenring
from tokenring import BudgetError, RangeError, Ring, Topology


def four_nodes_one_down():
    t = Topology()
    for name, tok in [("A", -6 * 10**18), ("B", -10**18), ("C", 3 * 10**18), ("D", 7 * 10**18)]:
        t.add_node(name, "dc1", "r1", [tok])
    t.set_state("A", liveness=tokenring.Liveness.DOWN)
    return t


def test_status_code():
    assert tokenring.BudgetError.__mro__[1] is tokenring.TokenRingError
    assert tokenring.WORK_UNITS_PER_SECOND == 200_000_000
    assert tokenring.MAX_NUM_TOKENS == 1536


def test_down_node_counts_as_failed():
    ring = Ring(four_nodes_one_down())
    s = tokenring.availability_summary(ring, "SimpleStrategy:3", "QUORUM", 1, down=["A"])
    assert (s.sets, s.breaking) == (3, 3)  # 0 of 4 before: A counted as up
    assert s.unavailable_already == 0
    assert all(w.units[0] in ("B", "C", "D") for w in s.worst)
    a = tokenring.availability_summary(ring, "SimpleStrategy:3", "ALL", 1, down=[0])
    assert 0.5 < a.unavailable_already < 1
    plain = tokenring.availability_summary(ring, "SimpleStrategy:3", "QUORUM", 1)
    assert (plain.sets, plain.breaking, plain.unavailable_already) == (4, 0, 0)
    with pytest.raises(RangeError):
        tokenring.availability_summary(ring, "SimpleStrategy:3", "QUORUM", 1, down=[9])
    with pytest.raises(KeyError):
        tokenring.availability_summary(ring, "SimpleStrategy:3", "QUORUM", 1, down=["Z"])


def test_availability_budget():
    t = Topology()
    tokenring.add_seeded_nodes(t, 1, 16, [f"n{i}" for i in range(300)])
    ring = Ring(t)
    with pytest.raises(BudgetError) as e:
        tokenring.availability_summary(ring, "SimpleStrategy:3", "QUORUM", 2, budget=1e-6)
    assert e.value.estimate and e.value.estimate > 200
    assert e.value.seconds == e.value.estimate / tokenring.WORK_UNITS_PER_SECOND
    assert "estimated %d work units" % e.value.estimate in str(e.value)
    ok = tokenring.availability_summary(ring, "SimpleStrategy:3", "QUORUM", 2,
                                        budget=e.value.seconds * 1.01)
    assert ok.sets == 300 * 299 // 2
    with pytest.raises(BudgetError) as e:  # the default budget applies
        tokenring.availability_summary(ring, "SimpleStrategy:3", "ONE", 20)
    assert e.value.estimate is None and math.isinf(e.value.seconds)
    for bad in (0, -1, "soon", float("nan")):
        with pytest.raises((ValueError, TypeError)):
            tokenring.availability_summary(ring, "SimpleStrategy:3", "ONE", 1, budget=bad)


def test_allocator_budget_and_cap():
    t = Topology()
    tokenring.add_seeded_nodes(t, 1, 8, [f"10.0.0.{i}" for i in range(1, 7)])
    with pytest.raises(RangeError, match="1536"):
        tokenring.allocate_join(t, 1537, "10.9.9.9", "datacenter1", "rack1", rf=3)
    with pytest.raises(BudgetError) as e:
        tokenring.allocate_join(t, 8192, "10.9.9.9", "datacenter1", "rack1", rf=3,
                                max_num_tokens=8192)
    assert e.value.estimate > tokenring.DEFAULT_BUDGET_UNITS
    toks = tokenring.allocate_join(t, 1600, "10.9.9.9", "datacenter1", "rack1", rf=3,
                                   max_num_tokens=1600, budget="unlimited")
    assert len(toks) == 1600
    with pytest.raises(BudgetError):
        tokenring.allocate_nodes(t, 16, "datacenter1", ["rack1"], 3, budget=1e-8)
    assert len(tokenring.allocate_nodes(t, 16, "datacenter1", ["rack1"], 3)[0]) == 16
    with pytest.raises(BudgetError):
        tokenring.migration_plan(t, "datacenter1", "dc2", ["a", "b", "c"], ["r1", "r2", "r3"],
                                 16, 3, budget=1e-8)
    with pytest.raises(ValueError):
        tokenring.allocate_nodes(t, 16, "datacenter1", ["rack1"], 3, max_num_tokens=0)


def test_cassandra_allocator_cap_and_single_token_batch():
    """Cassandra's allocator stops at its own 1536 tokens; the whole-datacenter plan takes
    a single-token datacenter that Cassandra takes join after join."""
    t = Topology()
    tokenring.add_seeded_nodes(t, 1, 8, [f"10.0.0.{i}" for i in range(1, 7)])
    with pytest.raises(RangeError, match="A maximum number of 1536 tokens"):
        tokenring.allocate_as_cassandra(t, 1537, "10.9.9.9", "datacenter1", "rack1", rf=3)
    assert len(tokenring.allocate_as_cassandra(t, 1536, "10.9.9.9", "datacenter1", "rack1",
                                               rf=3)) == 1536
    single = Topology()
    for i in range(3):
        single.add_node(f"10.1.0.{i + 1}", "dc1", "r1", [-2 ** 63 + 1 + i * (2 ** 64 // 3)])
    nodes = tokenring.allocate_nodes(single, 16, "dc1", ["r1", "r1"], 3)
    assert [len(set(n)) for n in nodes] == [16, 16]
    assert len(set(nodes[0]) | set(nodes[1])) == 32


def test_availability_list_from_down_nodes():
    """availability(down=) counts the down nodes as failed before the k, as the summary
    does: the sets are of nodes still up, with the width they add."""
    ring = Ring(four_nodes_one_down())
    assert tokenring.availability(ring, "SimpleStrategy:3", "QUORUM", 1) == []
    sets = tokenring.availability(ring, "SimpleStrategy:3", "QUORUM", 1, down=["A"])
    assert [f.nodes for f in sets] == [("B",), ("C",), ("D",)]
    s = tokenring.availability_summary(ring, "SimpleStrategy:3", "QUORUM", 1, top=10,
                                       down=["A"])
    assert sorted((w.units, w.width) for w in s.worst) == sorted((f.nodes, f.width) for f in sets)
    # ALL: the ranges A holds are unavailable already; B, C or D adds the last one.
    al = tokenring.availability(ring, "SimpleStrategy:3", "ALL", 1, down=[0])
    assert [f.nodes for f in al] == [("B",), ("C",), ("D",)]
    assert len({f.width for f in al}) == 1 and 0 < al[0].fraction < 0.5
    with pytest.raises(RangeError):
        tokenring.availability(ring, "SimpleStrategy:3", "QUORUM", 1, down=[9])
    with pytest.raises(KeyError):
        tokenring.availability(ring, "SimpleStrategy:3", "QUORUM", 1, down=["Z"])
    with pytest.raises(RangeError, match="not down already"):
        tokenring.availability(ring, "SimpleStrategy:3", "ONE", 3, down=["A", "B"])


def test_availability_list_agrees_with_summary_when_nodes_are_down():
    t = Topology()
    tokenring.add_seeded_nodes(t, 3, 4, [f"n{i}" for i in range(24)], ["dc1"] * 24,
                               [f"r{i % 3}" for i in range(24)])
    ring = Ring(t)
    down = ["n0", "n7"]
    for cl in ("QUORUM", "ALL"):
        for k in (1, 2):
            sets = tokenring.availability(ring, {"dc1": 3}, cl, k, down=down)
            s = tokenring.availability_summary(ring, {"dc1": 3}, cl, k, top=1000, down=down)
            assert s.breaking == len(sets), (cl, k)
            assert sorted((w.units, w.width) for w in s.worst) == \
                sorted((f.nodes, f.width) for f in sets), (cl, k)
            assert not any(set(f.nodes) & set(down) for f in sets)


def test_availability_list_budget():
    t = Topology()
    tokenring.add_seeded_nodes(t, 1, 16, [f"n{i}" for i in range(300)])
    ring = Ring(t)
    with pytest.raises(BudgetError) as e:
        tokenring.availability(ring, "SimpleStrategy:3", "QUORUM", 3)
    assert e.value.estimate > tokenring.DEFAULT_BUDGET_UNITS
    with pytest.raises(BudgetError) as e2:
        tokenring.availability(ring, "SimpleStrategy:3", "QUORUM", 1, budget=1e-6)
    assert 200 < e2.value.estimate <= tokenring.DEFAULT_BUDGET_UNITS
    assert tokenring.availability(ring, "SimpleStrategy:3", "QUORUM", 1,
                                  budget="unlimited") == []
