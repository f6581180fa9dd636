# SPDX-License-Identifier: Apache-2.0
"""Placements in a given order (tokenring_placement_from_lists): the server's order, read
from `nodetool describering`, or Cassandra 6.0's history order; and the rule each
placement's order follows."""
import random

import pytest

import tokenring
from tokenring import Placement, Ring, Topology


def sample_ring(nodes=6):
    rnd = random.Random(29)
    topo = Topology()
    for i in range(nodes):
        topo.add_node(f"10.0.0.{i + 1}", "dc1" if i < 4 else "dc2", f"r{i % 2}",
                      [rnd.randrange(-2**63 + 1, 2**63) for _ in range(4)])
    return Ring(topo)


def describering(ring, lists, cut_at_min=False):
    """describering lines of `lists` (per ring range), 5.0's form (one wrapping range) or
    6.0's (cut at the minimum token)."""
    toks = [int(t) for t in ring.tokens]
    out = ["Schema Version:x", "TokenRange: "]
    for i, t in enumerate(toks):
        eps = ", ".join(lists[i])
        starts = [(toks[i - 1], t)]
        if i == 0 and cut_at_min:
            starts = [(toks[-1], -2**63), (-2**63, t)]
        for a, b in starts:
            out.append(f"\tTokenRange(start_token:{a}, end_token:{b}, endpoints:[{eps}], "
                       f"rpc_endpoints:[{eps}], endpoint_details:[])")
    return "\n".join(out) + "\n"


def test_from_lists_keeps_the_given_order():
    ring = sample_ring()
    computed = ring.placement("dc1=3,dc2=1")
    assert computed.order == "tokens"
    n = len(ring.tokens)
    lists = [tuple(reversed(computed.range_replicas(i))) for i in range(n)]
    given = Placement.from_lists(ring, "dc1=3,dc2=1", lists, "history")
    assert given.order == "history"
    assert [given.range_replicas(i) for i in range(n)] == lists
    for i in range(n):
        assert given.replicas(int(ring.tokens[i])) == lists[i]
    key = b"some key"
    idx = ring.range_index(tokenring.token(key))
    assert given.replicas(key) == lists[idx]
    assert given.replica_set(given.key_set_id(key)) == lists[idx]
    assert sorted(map(sorted, given.replica_sets)) == sorted(map(sorted, set(lists)))
    assert given.update(ring) is not None  # the same ring: the same placement
    with pytest.raises(tokenring.UnsupportedError, match="Cassandra 6.0's history"):
        given.update(sample_ring(5))


@pytest.mark.parametrize("cut_at_min", [False, True])
def test_from_describering_reads_the_servers_order(cut_at_min):
    ring = sample_ring()
    computed = ring.placement("3")
    n = len(ring.tokens)
    lists = [tuple(reversed(computed.range_replicas(i))) for i in range(n)]
    text = describering(ring, lists, cut_at_min)
    p = Placement.from_describering(ring, "3", text)
    assert p.order == "server"
    assert [p.range_replicas(i) for i in range(n)] == lists


def test_given_lists_refused():
    ring = sample_ring()
    n = len(ring.tokens)
    good = [ring.placement("2").range_replicas(i) for i in range(n)]
    with pytest.raises(tokenring.InvalidArgumentError, match=r"range 2 .* names node 10\.0\.0\.\d twice"):
        Placement.from_lists(ring, "2", good[:2] + [(good[2][0], good[2][0])] + good[3:])
    with pytest.raises(tokenring.NotFoundError, match="range 1: node 'nope' is not in the ring"):
        Placement.from_lists(ring, "2", good[:1] + [("nope",)] + good[2:])
    with pytest.raises(ValueError, match="replica lists for a ring of"):
        Placement.from_lists(ring, "2", good[1:])
    with pytest.raises(ValueError, match="order 'tokens'"):
        Placement.from_lists(ring, "2", good, "tokens")
    with pytest.raises(ValueError, match="no TokenRange"):
        Placement.from_describering(ring, "2", "Schema Version:x\n")
    toks = sorted(int(t) for t in ring.tokens)
    partial = (f"TokenRange(start_token:{toks[0]}, end_token:{toks[1]}, "
               f"endpoints:[{', '.join(good[1])}], rpc_endpoints:[], endpoint_details:[])")
    with pytest.raises(ValueError, match="lies in no listed range"):
        Placement.from_describering(ring, "2", partial)


DATA = __import__("pathlib").Path(__file__).resolve().parents[3] / "tests" / "data" / "cassandra6"


def last_step(name):
    """{keyspace names: [(start, end, [replicas])]} of a vector file's last step."""
    out = {}
    for line in (DATA / f"{name}.placements").read_text().splitlines():
        f = line.split(" ")
        if f[0] == "step":
            out = {}
        elif f[0] == "place":
            out.setdefault(f[1], []).append((int(f[2]), int(f[3]),
                                             f[4].split(",") if f[4] else []))
    return out


def test_history_replays_cassandra_60():
    """The live stage's history: every range of every replication in 6.0-alpha2's order,
    the part of range 0 above the largest token included."""
    h = tokenring.History((DATA / "live_stage.script").read_text())
    repl = {"system_auth": "1", "system_traces": "2", "system_distributed": "3",
            "ks_below": "dc1=2,dc2=1", "ks_at": "dc1=3,dc2=0", "ks_above": "dc1=4,dc2=2",
            "ks_dc2": "dc2=1", "ks_simple": "3"}
    ring = h.ring
    toks = [int(t) for t in ring.tokens]
    n = 0
    for kss, ranges in last_step("live_stage").items():
        p = h.placement(repl[kss.split(",")[0]])
        assert p.order == "history"
        for start, end, eps in ranges:
            token = toks[-1] + 1 if end == -2**63 else end
            assert list(p.replicas(token)) == eps, (kss, start, end)
            n += 1
    assert n == 7 * 41  # 7 replications (5 keyspaces, 3 system ones, one shared), 41 ranges
    # the tokens' order differs somewhere: the history's is not a function of the tokens
    computed = ring.placement("3")
    assert any(computed.range_replicas(i) != h.placement("3").range_replicas(i)
               for i in range(len(toks)))


def test_history_refuses_bad_steps():
    with pytest.raises(tokenring.ParseError, match="unknown step 'hop'"):
        tokenring.History("hop\n")
    with pytest.raises(tokenring.NotFoundError, match="10.0.0.1 is not registered"):
        tokenring.History("join 10.0.0.1 5\n")
    h = tokenring.History("")
    assert h.ring is None
    with pytest.raises(tokenring.EmptyError):
        h.placement("3")


def test_history_transient_replicas():
    """Transient replicas in 6.0's history order (6.0-alpha2's own classes on this history:
    (-100, 0] is 10.0.0.2, 10.0.0.3/t, 10.0.0.4); refused with several tokens a node."""
    reg = "".join("register 10.0.0.%d dc1 r1\n" % i for i in range(1, 5))
    h = tokenring.History(reg + "unsafe_join 10.0.0.1 -100\nunsafe_join 10.0.0.2 0\n"
                          "unsafe_join 10.0.0.3 100\nkeyspace t 3/1\njoin 10.0.0.4 50\n")
    assert h.placement("3/1").replicas(-50, with_transient=True) == (
        ("10.0.0.2", False), ("10.0.0.3", True), ("10.0.0.4", False))
    with pytest.raises(tokenring.UnsupportedError,
                       match="Transient nodes are not allowed with multiple tokens"):
        tokenring.History(reg + "unsafe_join 10.0.0.1 5,50\nkeyspace t 3/1\n")


def test_history_budget_progress_cancel():
    text = (DATA / "nts_2dc_3racks_vnodes.script").read_text()
    with pytest.raises(tokenring.BudgetError) as e:
        tokenring.History(text, budget=1e-6)
    assert e.value.estimate > 200
    seen = []
    h = tokenring.History(text, lambda done, total: seen.append((done, total)))
    assert len(seen) > 20 and seen[0][0] == 0 and seen[-1][0] == seen[-1][1]
    assert all(a[0] <= b[0] for a, b in zip(seen, seen[1:]))
    assert h.placement("dc1=3").order == "history"
    with pytest.raises(tokenring.CancelledError):
        tokenring.History(text, lambda done, total: done > 0)
    with pytest.raises(ZeroDivisionError):  # an exception in the callback cancels, raised
        tokenring.History(text, lambda done, total: 1 / 0)
    big = "join 10.0.0.1 1\n" * 4000  # estimated above the default budget, not replayed
    with pytest.raises(tokenring.BudgetError, match="replaying the history"):
        tokenring.History(big)
    assert tokenring.History(text, budget="unlimited").ring is not None


def test_history_locks_and_concurrent():
    """6.0's locked ranges (read in its source): a join at 500 between tokens 0 and 10^6
    splits (0, 10^6] and moves (0, 500]; joins far apart run at once, next to each other
    not (the C test's ring)."""
    h = tokenring.History("register 10.0.0.1 dc1 r1\nregister 10.0.0.2 dc1 r1\n"
                          "register 10.0.0.3 dc1 r1\nunsafe_join 10.0.0.1 0\n"
                          "unsafe_join 10.0.0.2 1000000\n")
    assert sorted(h.locked_ranges("1", "join 10.0.0.3 500")) == [
        (0, 500), (0, 1000000), (500, 1000000)]
    # the range up to the minimum token: right is None
    assert (1000000, None) in h.locked_ranges("3", "join 10.0.0.3 500")
    with pytest.raises(tokenring.NotFoundError, match="no keyspace of the history"):
        h.locked_ranges("dc1=9", "join 10.0.0.3 500")
    with pytest.raises(tokenring.ParseError, match="not an operation that locks"):
        h.locked_ranges("1", "register 10.0.0.4 dc1 r1")
    text = "".join("register 10.0.1.%d dc1 r1\n" % (i + 1) for i in range(16))
    text += "".join("unsafe_join 10.0.1.%d %d\n" % (i + 1, (i - 6) * 10**17) for i in range(12))
    h = tokenring.History(text)
    assert h.concurrent(["join 10.0.1.13 50", "join 10.0.1.14 %d" % (45 * 10**16),
                         "join 10.0.1.15 %d" % (15 * 10**16), "leave 10.0.1.1",
                         "move 10.0.1.5 %d" % (-15 * 10**16)]) == [None, None, 0, 1, 0]
    assert h.concurrent([]) == []
    with pytest.raises(TypeError):
        h.concurrent("join 10.0.1.13 50")


def test_from_lists_upper_part():
    ring = sample_ring()
    n = len(ring.tokens)
    lists = [ring.placement("2").range_replicas(i) for i in range(n)]
    upper = tuple(reversed(lists[0]))
    p = Placement.from_lists(ring, "2", lists, "history", upper=upper)
    assert p.replicas(int(ring.tokens[-1]) + 1) == upper
    assert p.range_replicas(0) == lists[0]
    with pytest.raises(tokenring.NotFoundError, match="the list above the largest token"):
        Placement.from_lists(ring, "2", lists, "history", upper=("nope",))
