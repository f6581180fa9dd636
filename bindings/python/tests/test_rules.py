# SPDX-License-Identifier: Apache-2.0
"""Release rules: the replica order of Cassandra before 3.2 next to the default (3.2+)."""
import pytest

import tokenring
from tokenring import CassandraRules, Replication, cassandra_rules


@pytest.mark.parametrize("version,rules", [
    ("3.0.30", CassandraRules.RULES_3_0), ("3.1", CassandraRules.RULES_3_0),
    ("2.2.19", CassandraRules.RULES_3_0), ("3.2", CassandraRules.RULES_3_2),
    ("3.11.17", CassandraRules.RULES_3_2), ("4.0.14", CassandraRules.RULES_3_2),
    ("4.1.7", CassandraRules.RULES_3_2), ("5.0.6", CassandraRules.RULES_3_2),
    ("5.0-rc1", CassandraRules.LATEST), ("5.0.9", CassandraRules.RULES_3_2),
    # 6.0: the sets and the walk of 5.0; its order follows the history (Placement from a
    # tokenring.History), which no rules value says
    ("6.0-alpha2", CassandraRules.RULES_3_2), ("6.0", CassandraRules.LATEST)])
def test_versions(version, rules):
    assert cassandra_rules(version) is rules or cassandra_rules(version) == rules


@pytest.mark.parametrize("bad,error", [("", tokenring.ParseError), ("3", tokenring.ParseError),
                                       ("3.x", tokenring.ParseError),
                                       ("0.9", tokenring.RangeError),
                                       ("100.1", tokenring.RangeError),
                                       ("7.0", tokenring.RangeError),
                                       ("6.1", tokenring.RangeError),
                                       ("4.2", tokenring.RangeError)])
def test_bad_versions(bad, error):
    with pytest.raises(error, match="Cassandra version"):
        cassandra_rules(bad)


def ring():
    # one datacenter, racks r1 r1 r1 r2, rf 3: the orders differ (semantics notes 5.2)
    return tokenring.Ring(tokenring.Topology([("A", "dc1", "r1", [0]), ("B", "dc1", "r1", [10]),
                                              ("C", "dc1", "r1", [20]),
                                              ("D", "dc1", "r2", [30])]))


def test_orders_differ_sets_agree():
    r = ring()
    new = Replication.parse("dc1=3")
    old = new.with_rules("3.0.30")
    assert new.rules == CassandraRules.LATEST and old.rules == CassandraRules.RULES_3_0
    assert r.replicas(5, new) == ("B", "C", "D")
    assert r.replicas(5, old) == ("B", "D", "C")
    assert r.replicas(5, new.with_rules(CassandraRules.RULES_3_2)) == ("B", "C", "D")
    # the copy keeps the factors; the original keeps its rules
    assert str(old) == str(new) and new.rules == CassandraRules.LATEST
    assert old != new and old == new.with_rules(1) and hash(old) == hash(new)
    assert "with_rules(CassandraRules.RULES_3_0)" in repr(old)
    assert repr(new) == "Replication.parse(\"{'class': 'NetworkTopologyStrategy', 'dc1': '3'}\")"
    for tok in range(-5, 40, 3):
        assert set(r.replicas(tok, old)) == set(r.replicas(tok, new))


def test_rules_reach_the_analyses():
    r = ring()
    old = Replication.parse("dc1=3").with_rules("3.1")
    topo = tokenring.Topology([("A", "dc1", "r1", [0]), ("B", "dc1", "r1", [10]),
                               ("C", "dc1", "r1", [20]), ("D", "dc1", "r2", [30])])
    after = topo.clone()
    after.add_node("E", "dc1", "r2", [15])
    mv = tokenring.Movement.compare(topo, after, old)
    assert mv.summary.range_count >= 1
    desc = r.describe_ring(old)
    assert [d.endpoints for d in desc if d.end == 10][0] == ("B", "D", "C")


def test_transient_needs_4_0():
    with pytest.raises(tokenring.UnsupportedError, match="transient"):
        ring().replicas(5, Replication.parse("dc1=3/1").with_rules("3.0.30"))
    with pytest.raises(ValueError):
        Replication.parse("dc1=3").with_rules(7)
