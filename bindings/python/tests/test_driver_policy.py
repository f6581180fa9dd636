# SPDX-License-Identifier: Apache-2.0
"""tokenring.driver: the ring from system-table rows and from a driver Metadata, and the
TokenRingPolicy load-balancing policy, offline (driver Metadata objects and Host objects
built without a server, as the driver's own unit tests do). The same against a live
cluster is in live/test_drivers.py.

What is asserted: rows and metadata give exactly the library's replicas; the policy's
plan starts with the key's local replicas in the server's order, skips a down host,
follows a token-map change, an ALTER and a DROP, falls back to the child without a key,
keeps its state on bad input (with last_error); where the driver's TokenAwarePolicy
yields another first host or a repeated host, the test counts it and asserts it exists on
the topology where it is known to; under a writer swapping token maps while threads route,
every plan is complete and belongs to one of the two rings.
"""
import random
import threading
import time
import types

import pytest

import tokenring

cassandra = pytest.importorskip("cassandra")
from cassandra.metadata import KeyspaceMetadata, Metadata, Murmur3Token  # noqa: E402
from cassandra.policies import (DCAwareRoundRobinPolicy, RoundRobinPolicy,  # noqa: E402
                                SimpleConvictionPolicy, TokenAwarePolicy)
from cassandra.pool import Host  # noqa: E402

from tokenring import driver  # noqa: E402

PARTITIONER = "org.apache.cassandra.dht.Murmur3Partitioner"
NTS = "org.apache.cassandra.locator.NetworkTopologyStrategy"
SIMPLE = "org.apache.cassandra.locator.SimpleStrategy"


class Stmt:
    """What a policy reads of a statement: keyspace and routing key."""

    def __init__(self, keyspace, routing_key):
        self.keyspace = keyspace
        self.routing_key = routing_key


def layout(seed=7, dcs=(("dc1", ("r1", "r1", "r2", "r2", "r3")), ("dc2", ("r1", "r1", "r1"))),
           vnodes=8):
    """[(address, dc, rack, tokens)] with random distinct tokens."""
    rnd = random.Random(seed)
    used = set()
    nodes = []
    n = 0
    for dc, racks in dcs:
        for rack in racks:
            n += 1
            toks = []
            while len(toks) < vnodes:
                t = rnd.randint(-2**63, 2**63 - 1)
                if t not in used:
                    used.add(t)
                    toks.append(t)
            nodes.append((f"10.0.0.{n}", dc, rack, toks))
    return nodes


def metadata(nodes, keyspaces):
    """A driver Metadata whose token map holds ``nodes``; ``keyspaces`` {name: (class, opts)}."""
    md = Metadata()
    md.partitioner = PARTITIONER
    tm = {}
    for addr, dc, rack, toks in nodes:
        h = Host(addr, SimpleConvictionPolicy, datacenter=dc, rack=rack)
        h.set_up()
        md._hosts[h.endpoint] = h
        tm[h] = [str(t) for t in toks]
    for ks, (cls, opts) in keyspaces.items():
        md.keyspaces[ks] = KeyspaceMetadata(ks, True, cls, opts)
    md.rebuild_token_map(PARTITIONER, tm)
    return md


KEYSPACES = {
    "ks_nts": (NTS, {"dc1": "3", "dc2": "2"}),
    "ks_dc1": (NTS, {"dc1": "4"}),
    "ks_simple": (SIMPLE, {"replication_factor": "3"}),
    "system": ("org.apache.cassandra.locator.LocalStrategy", {}),
}


def library_ring(nodes):
    return tokenring.Ring(tokenring.Topology(nodes))


def keys(n, seed=1):
    rnd = random.Random(seed)
    return [rnd.getrandbits(64).to_bytes(8, "big") for _ in range(n)]


def host(md, addr):
    return next(h for h in md.all_hosts() if h.address == addr)


def policy_for(md, child=None):
    child = child or DCAwareRoundRobinPolicy("dc1")
    p = driver.TokenRingPolicy(child)
    p.populate(types.SimpleNamespace(metadata=md), list(md.all_hosts()))
    return p


# ------------------------------------------------------------------------------ rows

def rows_of(nodes, v2=True):
    local = {"rpc_address": nodes[0][0], "broadcast_address": nodes[0][0],
             "data_center": nodes[0][1], "rack": nodes[0][2],
             "tokens": {str(t) for t in nodes[0][3]}, "partitioner": PARTITIONER}
    peers = []
    for addr, dc, rack, toks in nodes[1:]:
        r = {"peer": addr, "data_center": dc, "rack": rack, "tokens": {str(t) for t in toks}}
        r["native_address" if v2 else "rpc_address"] = addr
        peers.append(r)
    ks = [{"keyspace_name": name, "replication": dict(opts, **{"class": cls})}
          for name, (cls, opts) in KEYSPACES.items()]
    return local, peers, ks


@pytest.mark.parametrize("v2", [True, False])
def test_ring_from_rows_equals_library(v2):
    nodes = layout()
    cr = driver.ring_from_rows(*rows_of(nodes, v2))
    ref = library_ring(nodes)
    assert sorted(cr.keyspaces) == ["ks_dc1", "ks_nts", "ks_simple"]   # LocalStrategy left out
    assert cr.ring.node_names == ref.node_names
    checked = 0
    for ks, (cls, opts) in KEYSPACES.items():
        if ks == "system":
            continue
        repl = tokenring.Replication.parse(
            "{" + ", ".join([f"'class': '{cls}'"] + [f"'{k}': '{v}'" for k, v in opts.items()])
            + "}")
        for k in keys(200):
            assert cr.replicas(ks, k) == ref.replicas(k, repl)
            checked += 1
    assert checked == 600


def test_ring_from_rows_accepts_named_tuples():
    import collections
    nodes = layout()
    local, peers, ks = rows_of(nodes)
    L = collections.namedtuple("L", sorted(local))
    P = collections.namedtuple("P", sorted(peers[0]))
    cr = driver.ring_from_rows(L(**local), [P(**p) for p in peers], ks)
    assert len(cr.ring.node_names) == len(nodes)


def test_ring_from_rows_bad_input():
    """The library's rules (RouterBuilder, as its cqlsh reader), not the module's own."""
    nodes = layout()
    local, peers, ks = rows_of(nodes)
    p = [dict(x) for x in peers]
    p[2]["tokens"] = None
    # a node without tokens yet (bootstrapping) is left out, as the cqlsh reader does
    cr = driver.ring_from_rows(local, p, ks)
    assert "10.0.0.4" not in cr.ring.node_names and len(cr.ring.node_names) == len(nodes) - 1
    # a null rack is the server's DEFAULT_RACK, an empty one the rack "" (both distinct
    # racks for NetworkTopologyStrategy)
    p = [dict(x) for x in peers]
    p[0]["rack"] = None
    p[1]["rack"] = ""
    cr = driver.ring_from_rows(local, p, ks)
    racks = {n.name: n.rack for n in cr.ring.nodes}
    assert racks["10.0.0.2"] == tokenring.DEFAULT_RACK == "UNKNOWN_RACK"
    assert racks["10.0.0.3"] == ""
    assert cr.ring.rack_count == len({(n.datacenter, n.rack) for n in cr.ring.nodes})
    p = [dict(x) for x in peers]
    p[1]["data_center"] = None
    with pytest.raises(tokenring.TokenRingError, match=r"10\.0\.0\.3"):
        driver.ring_from_rows(local, p, ks)
    # EverywhereStrategy and MetaStrategy place nothing on the ring: skipped, not refused
    skip = ks + [{"keyspace_name": "ks_every",
                  "replication": {"class": "org.apache.cassandra.locator.EverywhereStrategy"}},
                 {"keyspace_name": "ks_meta",
                  "replication": {"class": "org.apache.cassandra.locator.MetaStrategy"}}]
    cr = driver.ring_from_rows(local, peers, skip)
    assert "ks_every" not in cr and "ks_meta" not in cr and "ks_nts" in cr
    r = driver.router_from_rows(local, peers, skip)
    assert {n for n, _ in r.skipped} >= {"ks_every", "ks_meta", "system"}
    odd = ks + [{"keyspace_name": "ks_odd", "replication": {"class": "com.example.Odd"}}]
    with pytest.raises(tokenring.TokenRingError, match="ks_odd"):
        driver.ring_from_rows(local, peers, odd)
    assert "ks_odd" not in driver.ring_from_rows(local, peers, odd, skip_unsupported=True)
    badrf = ks + [{"keyspace_name": "ks_bad", "replication": {"class": SIMPLE,
                                                              "replication_factor": "x"}}]
    with pytest.raises(tokenring.TokenRingError, match="ks_bad"):
        driver.ring_from_rows(local, peers, badrf)
    with pytest.raises(tokenring.TokenRingError, match="abc"):
        driver.ring_from_rows(dict(local, tokens={"abc"}), peers, ks)


def test_rows_of_random_and_byte_ordered_clusters_are_read():
    """RandomPartitioner and ByteOrderedPartitioner clusters route (the library models
    them); the module refused them before it read rows through the router."""
    rnd = random.Random(5)
    for part, tok in (("org.apache.cassandra.dht.RandomPartitioner",
                       lambda: str(rnd.randrange(2**127))),
                      ("org.apache.cassandra.dht.ByteOrderedPartitioner",
                       lambda: rnd.getrandbits(64).to_bytes(8, "big").hex())):
        nodes = [(f"10.0.1.{i}", "dc1", f"r{i % 3}", sorted({tok() for _ in range(4)}))
                 for i in range(1, 7)]
        local = {"rpc_address": nodes[0][0], "data_center": "dc1", "rack": nodes[0][2],
                 "tokens": set(nodes[0][3]), "partitioner": part}
        peers = [{"peer": a, "native_address": a, "data_center": dc, "rack": rk,
                  "tokens": set(t)} for a, dc, rk, t in nodes[1:]]
        ks = [{"keyspace_name": "k", "replication": {"class": NTS, "dc1": "3"}}]
        r = driver.router_from_rows(local, peers, ks, local_dc="dc1")
        got = r.route("k", b"some key")
        assert len(got.replicas) == 3 and len(set(got.replicas)) == 3
        assert driver.ring_from_rows(local, peers, ks).ring.partitioner.name in (
            "RANDOM", "BYTE_ORDERED")


def test_ring_from_metadata_equals_library():
    nodes = layout()
    md = metadata(nodes, KEYSPACES)
    cr = driver.ring_from_metadata(md)
    ref = library_ring(nodes)
    assert sorted(cr.ring.node_names) == sorted(ref.node_names)
    for k in keys(300):
        assert cr.replicas("ks_nts", k) == ref.replicas(k, {"dc1": 3, "dc2": 2})
        assert cr.replicas("ks_simple", k) == ref.replicas(k, 3)
    md.keyspaces["ks_x"] = KeyspaceMetadata("ks_x", True, "com.example.MyStrategy", {"a": "1"})
    with pytest.raises(tokenring.TokenRingError, match="ks_x.*MyStrategy"):
        driver.ring_from_metadata(md)
    assert "ks_x" not in driver.ring_from_metadata(md, skip_unsupported=True)
    md.token_map = None
    with pytest.raises(tokenring.EmptyError, match="no token map"):
        driver.ring_from_metadata(md)


# ---------------------------------------------------------------------------- policy

def server_local_first(ref, repl, key, local_dc, dc_of):
    return [n for n in ref.replicas(key, repl) if dc_of[n] == local_dc]


def plan(policy, ks, key):
    return [h.address for h in policy.make_query_plan(None, Stmt(ks, key))]


def test_policy_first_host_is_servers_first_local_replica():
    nodes = layout()
    md = metadata(nodes, KEYSPACES)
    ref = library_ring(nodes)
    dc_of = {a: dc for a, dc, _, _ in nodes}
    pol = policy_for(md)
    tap = TokenAwarePolicy(DCAwareRoundRobinPolicy("dc1"))
    tap.populate(types.SimpleNamespace(metadata=md), list(md.all_hosts()))
    dc1 = {a for a, dc, _, _ in nodes if dc == "dc1"}
    checked = differ = repeats = 0
    for ks, repl in (("ks_nts", {"dc1": 3, "dc2": 2}), ("ks_dc1", {"dc1": 4}),
                     ("ks_simple", 3)):
        for k in keys(300, seed=hash(ks) & 0xffff):
            want = server_local_first(ref, repl, k, "dc1", dc_of)
            got = plan(pol, ks, k)
            assert got[:len(want)] == want
            assert sorted(got) == sorted(dc1)               # then the rest of the local dc
            theirs = [h.address for h in tap.make_query_plan(None, Stmt(ks, k))]
            differ += theirs[:len(want)] != want
            repeats += len(theirs) != len(set(theirs))
            checked += 1
    assert checked == 900
    # dc1 has 5 nodes on 3 racks with vnodes and rf 4 > 3 racks: the driver's
    # NetworkTopologyStrategy lists some replicas in another order or twice
    assert differ > 0
    print(f"\n{checked} keys: TokenAwarePolicy's first local replicas differ from the "
          f"server's for {differ}, its plan repeats a host for {repeats}")


def test_policy_without_key_or_keyspace_is_the_child():
    md = metadata(layout(), KEYSPACES)
    pol = policy_for(md, RoundRobinPolicy())
    hosts = sorted(h.address for h in md.all_hosts())
    for stmt in (Stmt(None, b"k"), Stmt("ks_nts", None), None):
        got = [h.address for h in pol.make_query_plan(None, stmt)]
        assert sorted(got) == hosts
    # LocalStrategy and unknown keyspaces: the child's plan too
    assert sorted(plan(pol, "system", b"k")) == hosts
    assert sorted(plan(pol, "nope", b"k")) == hosts
    assert pol.last_error is None


def test_policy_round_robin_child_gives_every_replica_in_server_order():
    nodes = layout()
    md = metadata(nodes, KEYSPACES)
    ref = library_ring(nodes)
    pol = policy_for(md, RoundRobinPolicy())
    for k in keys(200):
        want = list(ref.replicas(k, {"dc1": 3, "dc2": 2}))
        assert plan(pol, "ks_nts", k)[:5] == want
        assert [h.address for h in pol.replicas("ks_nts", k)] == want


def test_policy_skips_down_host_and_follows_up_again():
    nodes = layout()
    md = metadata(nodes, KEYSPACES)
    ref = library_ring(nodes)
    dc_of = {a: dc for a, dc, _, _ in nodes}
    pol = policy_for(md)
    down = host(md, "10.0.0.1")
    down.set_down()
    pol.on_down(down)
    skipped = 0
    for k in keys(300):
        want = [n for n in server_local_first(ref, {"dc1": 3, "dc2": 2}, k, "dc1", dc_of)
                if n != "10.0.0.1"]
        got = plan(pol, "ks_nts", k)
        assert "10.0.0.1" not in got[:len(want)]
        assert got[:len(want)] == want
        skipped += "10.0.0.1" in ref.replicas(k, {"dc1": 3, "dc2": 2})
    assert skipped > 0
    down.set_up()
    pol.on_up(down)
    k = next(k for k in keys(300) if ref.replicas(k, {"dc1": 3})[0] == "10.0.0.1")
    assert plan(pol, "ks_nts", k)[0] == "10.0.0.1"


def test_policy_follows_topology_and_schema_changes():
    nodes = layout()
    md = metadata(nodes, KEYSPACES)
    pol = policy_for(md)
    for k in keys(50):
        plan(pol, "ks_nts", k)
    assert pol.ring_builds == 1
    # a node joins dc1 (new token map): routing follows the new ring
    joined = nodes + layout(seed=99, dcs=(("dc1", ("r3",)),), vnodes=8)[:1]
    joined[-1] = ("10.0.0.99",) + joined[-1][1:]
    md2 = metadata(joined, KEYSPACES)
    newhost = host(md2, "10.0.0.99")
    md._hosts[newhost.endpoint] = newhost
    md.token_map = md2.token_map
    pol.on_add(newhost)
    ref = library_ring(joined)
    dc_of = {a: dc for a, dc, _, _ in joined}
    hit = 0
    for k in keys(300):
        want = server_local_first(ref, {"dc1": 3, "dc2": 2}, k, "dc1", dc_of)
        assert plan(pol, "ks_nts", k)[:len(want)] == want
        hit += "10.0.0.99" in want
    assert hit > 0 and pol.ring_builds == 2
    # the join was an event on the router: its node carries the new Host as its tag
    r = pol.router
    assert pol._state.hosts[r.find_node("10.0.0.99")] is newhost
    assert pol.keyspace_builds == 0
    # ALTER KEYSPACE: a new KeyspaceMetadata object, an ALTERED event on the router (which
    # then shares ks_nts's placement with nothing, and ks_dc1's stays the one it had)
    before = pol.router
    md.keyspaces["ks_nts"] = KeyspaceMetadata("ks_nts", True, NTS, {"dc1": "1", "dc2": "1"})
    for k in keys(300):
        want = server_local_first(ref, {"dc1": 1, "dc2": 1}, k, "dc1", dc_of)
        assert len(want) == 1 and plan(pol, "ks_nts", k)[0] == want[0]
        assert len(pol.router.route("ks_nts", k).replicas) == 2
    assert pol.keyspace_builds == 1 and pol.router is not before
    assert len(before.route("ks_nts", b"k").replicas) == 5      # the old snapshot unchanged
    # DROP KEYSPACE: a DROPPED event; the child's plan, no error
    del md.keyspaces["ks_nts"]
    assert sorted(plan(pol, "ks_nts", b"k")) == sorted(a for a in dc_of if dc_of[a] == "dc1")
    assert "ks_nts" not in pol.router.keyspaces and pol.keyspace_builds == 2
    assert pol.last_error is None


def test_policy_bad_changes_keep_the_previous_state():
    nodes = layout()
    md = metadata(nodes, KEYSPACES)
    ref = library_ring(nodes)
    dc_of = {a: dc for a, dc, _, _ in nodes}
    pol = policy_for(md)
    ks = keys(200)
    before = [plan(pol, "ks_nts", k)[:3] for k in ks]     # the 3 dc1 replicas
    # a host without a rack in the next token map
    bad = [list(n) for n in nodes]
    md2 = metadata([tuple(n) for n in bad], KEYSPACES)
    host(md2, "10.0.0.2").set_location_info(None, "r1")
    md.token_map = md2.token_map
    assert [plan(pol, "ks_nts", k)[:3] for k in ks] == before
    assert "10.0.0.2" in pol.last_error and "not applied" in pol.last_error
    for k in ks[:50]:
        want = server_local_first(ref, {"dc1": 3, "dc2": 2}, k, "dc1", dc_of)
        assert plan(pol, "ks_nts", k)[:len(want)] == want
    # an unknown replication class: that keyspace goes through the child, others unchanged
    pol.last_error = None
    md.keyspaces["ks_dc1"] = KeyspaceMetadata("ks_dc1", True, "com.example.Odd", {"x": "1"})
    got = plan(pol, "ks_dc1", ks[0])
    assert sorted(got) == sorted(a for a in dc_of if dc_of[a] == "dc1")
    assert "'ks_dc1'" in pol.last_error and "com.example.Odd" in pol.last_error
    assert [plan(pol, "ks_nts", k)[:3] for k in ks] == before


def test_policy_threads_under_churn():
    """A writer swaps two token maps while threads route: every plan is complete (all local
    hosts once) and starts with the first local replica of ring A or of ring B."""
    a = layout(seed=1)
    b = layout(seed=2)
    mda, mdb = metadata(a, KEYSPACES), metadata(b, KEYSPACES)
    md = metadata(a, KEYSPACES)
    # both token maps over the same Host objects (same addresses)
    for m in (mda, mdb):
        for tok, h in list(m.token_map.token_to_host_owner.items()):
            m.token_map.token_to_host_owner[tok] = host(md, h.address)
    pol = policy_for(md)
    ra, rb = library_ring(a), library_ring(b)
    dc_of = {x[0]: x[1] for x in a}
    local = sorted(x for x in dc_of if dc_of[x] == "dc1")
    ks = keys(400, seed=5)
    want = [(server_local_first(ra, {"dc1": 3, "dc2": 2}, k, "dc1", dc_of)[0],
             server_local_first(rb, {"dc1": 3, "dc2": 2}, k, "dc1", dc_of)[0]) for k in ks]
    stop = threading.Event()
    errors = []
    routed = [0] * 6

    def reader(t):
        try:
            while not stop.is_set() or routed[t] < 2000:
                i = random.randrange(len(ks))
                got = plan(pol, "ks_nts", ks[i])
                if sorted(got) != local or got[0] not in want[i]:
                    errors.append((ks[i], got))
                    return
                routed[t] += 1
        except Exception as e:      # noqa: BLE001 - reported below
            errors.append(e)

    def writer():
        for i in range(200):
            md.token_map = (mda if i % 2 else mdb).token_map
            # let the readers run between swaps: 200 swaps fit in one GIL slice, and
            # readers that never see a swap would test nothing
            time.sleep(0.0002)

    ts = [threading.Thread(target=reader, args=(t,)) for t in range(6)]
    for t in ts:
        t.start()
    w = threading.Thread(target=writer)
    w.start()
    w.join()
    stop.set()
    for t in ts:
        t.join()
    assert not errors, errors[:3]
    assert sum(routed) >= 12000 and pol.ring_builds >= 2


# ------------------------------------------------------- reading token maps into rings

def ring_facts(ring):
    """What a ring is: each node's datacenter, rack and sorted tokens, by name."""
    return {n.name: (n.datacenter, n.rack, tuple(sorted(n.tokens))) for n in ring.nodes}


def rebuilt(md, nodes):
    """md's token map rebuilt from ``nodes`` (new Host objects for new addresses, the
    existing ones otherwise, with the layout's datacenter and rack)."""
    by_addr = {h.address: h for h in md.all_hosts()}
    tm = {}
    for addr, dc, rack, toks in nodes:
        h = by_addr.get(addr)
        if h is None or h.datacenter != dc or h.rack != rack:
            h = Host(addr, SimpleConvictionPolicy, datacenter=dc, rack=rack)
            h.set_up()
            md._hosts[h.endpoint] = h
        tm[h] = [str(t) for t in toks]
    md.rebuild_token_map(PARTITIONER, tm)


def test_token_map_changes_read_incrementally_equal_a_fresh_build(monkeypatch):
    """A join, a move, a leave, a rack change, an address change (same tokens, a new
    Host) and a token swap between two nodes, each read into the policy's ring from the
    previous one (only the changed nodes touched), give exactly the ring and the replicas
    a policy reading the same token map from scratch gives."""
    nodes = layout(vnodes=16)
    md = metadata(nodes, KEYSPACES)
    pol = policy_for(md)
    ks_keys = keys(200, 5)
    rnd = random.Random(9)
    used = {t for n in nodes for t in n[3]}

    def fresh_tokens(n):
        out = []
        while len(out) < n:
            t = rnd.randint(-2**63, 2**63 - 1)
            if t not in used:
                used.add(t)
                out.append(t)
        return out

    steps = []
    cur = list(nodes)
    cur = cur + [("10.0.0.50", "dc1", "r2", fresh_tokens(16))]
    steps.append(("join", list(cur)))
    cur[1] = (cur[1][0], cur[1][1], cur[1][2], cur[1][3][:8] + fresh_tokens(8))
    steps.append(("move", list(cur)))
    cur = cur[:3] + cur[4:]
    steps.append(("leave", list(cur)))
    cur[0] = (cur[0][0], cur[0][1], "r3", cur[0][3])
    steps.append(("rack change", list(cur)))
    cur[2] = ("10.0.0.99", cur[2][1], cur[2][2], cur[2][3])
    steps.append(("new address, same tokens", list(cur)))
    a, b = cur[4], cur[5]
    cur[4], cur[5] = (a[0], a[1], a[2], b[3]), (b[0], b[1], b[2], a[3])
    steps.append(("two nodes swap tokens", list(cur)))
    for k in ks_keys:       # the policy has a ring and the keyspaces in use
        pol.replicas("ks_nts", k)
        pol.replicas("ks_simple", k)
    full = []
    real_build = driver.RouterBuilder.build
    monkeypatch.setattr(driver.RouterBuilder, "build",
                        lambda self: full.append(1) or real_build(self))
    for what, layout_now in steps:
        builds = pol.ring_builds
        rebuilt(md, layout_now)
        full.clear()
        pol.replicas("ks_nts", ks_keys[0])
        # applied to the previous router as events (a token swap between two nodes
        # cannot be: one node's move would take a token the other holds)
        assert len(full) == (1 if what == "two nodes swap tokens" else 0), what
        scratch = policy_for(md)
        got = pol.replicas("ks_nts", ks_keys[0])
        assert got == scratch.replicas("ks_nts", ks_keys[0])
        assert pol.ring_builds == builds + 1, what
        assert ring_facts(pol._state.ring) == ring_facts(library_ring(layout_now)), what
        assert ring_facts(pol._state.ring) == ring_facts(scratch.cluster_ring().ring), what
        for k in ks_keys:
            assert pol.replicas("ks_nts", k) == scratch.replicas("ks_nts", k), what
            assert pol.replicas("ks_simple", k) == scratch.replicas("ks_simple", k), what
            # the plans' replica part (the rest is each child's round robin)
            mine = pol._local_replicas("ks_nts", k)
            assert mine == scratch._local_replicas("ks_nts", k), what
            plan = [h.address for h in pol.make_query_plan(None, Stmt("ks_nts", k))]
            assert plan[:len(mine)] == [h.address for h in mine], what
        # every host of the plan is the token map's own Host object
        assert set(pol._state.hosts) <= set(md.token_map.token_to_host_owner.values())


def test_token_map_not_grouped_by_host_is_read_the_same():
    """A TokenMap whose token_to_host_owner does not list each host's tokens together
    (not what Metadata builds, but a TokenMap is public) gives the same ring."""
    from cassandra.metadata import TokenMap
    nodes = layout()
    md = metadata(nodes, KEYSPACES)
    owner = md.token_map.token_to_host_owner
    items = list(owner.items())
    random.Random(2).shuffle(items)
    tm = TokenMap(Murmur3Token, dict(items), sorted(owner), md)
    groups = driver._token_groups(tm)
    assert len(groups) == len(nodes)
    rows = driver._node_rows(tm)
    ring = driver._cluster_ring(driver._builder_of_nodes(PARTITIONER, rows).build(), {},
                                True).ring
    assert ring_facts(ring) == ring_facts(library_ring(nodes))
    assert sorted(rows) == sorted(ring.node_names)


def test_runs_with_any_hint_are_groupbys():
    """_runs finds the runs itertools.groupby finds, whatever the hint: none, right,
    wrong lengths, a host it does not know, and Host objects of one address that are not
    the same object (groupby and list.count both take them as equal)."""
    import itertools
    a, b, c = (Host(f"10.0.1.{i}", SimpleConvictionPolicy, datacenter="dc1", rack="r1")
               for i in (1, 2, 3))
    a2 = Host("10.0.1.1", SimpleConvictionPolicy, datacenter="dc1", rack="r1")  # == a
    lists = [[a] * 3 + [b] * 2 + [c] * 4,
             [a] * 3 + [c] * 4 + [b] * 2,
             [a] * 2 + [a2] * 2 + [b] * 3,
             [b] * 2 + [a] * 3 + [a2] + [c],
             [a] * 3 + [b] + [a] * 2,
             [a]]
    hints = [None, {}, {id(a): 3, id(b): 2, id(c): 4}, {id(a): 2, id(b): 2, id(c): 4},
             {id(a): 4}, {id(b): 1, id(a): 3}, {id(a): 1}, {id(c): 9}, {id(a2): 1}]
    for hosts in lists:
        want = [(h, len(list(g))) for h, g in itertools.groupby(hosts)]
        for hint in hints:
            got = driver._runs(hosts, hint)
            assert [(id(h), n) for h, n in got] == [(id(h), n) for h, n in want], (hosts, hint)


def test_token_map_tokens_read_and_a_bad_one_refused():
    """A token map's tokens are read per node; a token outside the Murmur3 range is
    refused by the router, naming it."""
    from cassandra.metadata import TokenMap
    nodes = layout()
    md = metadata(nodes, KEYSPACES)
    groups = driver._token_groups(md.token_map)
    by_addr = {h.address: t for h, t in groups}
    for addr, _, _, toks in nodes:
        assert list(by_addr[addr]) == toks
    owner = dict(md.token_map.token_to_host_owner)
    bad = Murmur3Token(0)
    bad.value = 2**63          # not a Murmur3 token
    owner[bad] = Host("10.0.9.9", SimpleConvictionPolicy, datacenter="dc1", rack="r1")
    tm = TokenMap(Murmur3Token, owner, sorted(owner, key=lambda t: t.value), md)
    groups = driver._token_groups(tm)
    assert len(groups) == len(nodes) + 1          # one run per host: not the by-id path
    with pytest.raises(tokenring.TokenRingError, match=str(2**63)):
        driver._builder_of_nodes(PARTITIONER, driver._node_rows(tm)).build()


def test_placement_key_set_id():
    """Placement.key_set_id is the set id of the key's replicas (bytes and str keys), and
    replica_set reads the same replicas back; a closed placement raises."""
    nodes = layout()
    ring = library_ring(nodes)
    pl = ring.placement({"dc1": 3, "dc2": 2})
    seen = set()
    for k in keys(300) + ["text key", "", b""]:
        sid = pl.key_set_id(k)
        assert 0 <= sid < pl.set_count
        assert pl.replica_set(sid) == pl.replicas(k)
        seen.add(sid)
    assert len(seen) > 10
    with pytest.raises(TypeError):
        pl.key_set_id(12)
    pl.close()
    with pytest.raises(tokenring.ClosedError):
        pl.key_set_id(b"k")


def test_plan_object_reads_is_up_when_reached_and_ends():
    """The plan (an iterator object, not a generator): iter(plan) is the plan; a replica
    that goes down after the plan is made but before the plan reaches it is skipped; every
    host comes once (the child's part without the replicas); exhausted, it stays so."""
    nodes = layout()
    md = metadata(nodes, KEYSPACES)
    pol = policy_for(md)
    k = keys(1)[0]
    local = pol._local_replicas("ks_nts", k)
    assert len(local) == 3
    it = pol.make_query_plan(None, Stmt("ks_nts", k))
    assert iter(it) is it
    assert next(it) is local[0]
    local[1].set_down()          # goes down while the plan is in use
    try:
        rest = list(it)
    finally:
        local[1].set_up()
    assert rest[0] is local[2]
    addrs = [local[0].address] + [h.address for h in rest]
    assert local[1].address not in addrs[:3]
    assert len(addrs) == len(set(addrs))
    assert set(addrs) >= {h.address for h in md.all_hosts() if h.datacenter == "dc1"} - \
        {local[1].address}
    with pytest.raises(StopIteration):
        next(it)
    # all replicas down: the plan is the child's (without them)
    for h in local:
        h.set_down()
    try:
        got = [h.address for h in pol.make_query_plan(None, Stmt("ks_nts", k))]
    finally:
        for h in local:
            h.set_up()
    assert not set(got) & {h.address for h in local}


def test_policy_keeps_no_previous_token_map_alive():
    """After a topology change the policy holds no reference to the driver's previous
    TokenMap (its Token objects are freed with the driver's rebuild), and still notices
    every later change."""
    import gc
    import weakref
    nodes = layout()
    md = metadata(nodes, KEYSPACES)
    pol = policy_for(md)
    k = keys(1)[0]
    pol.replicas("ks_nts", k)
    old = weakref.ref(md.token_map)
    extra = layout(seed=99, dcs=(("dc1", ("r3",)),), vnodes=8)[0]
    joined = nodes + [("10.0.0.77", "dc1", "r3", extra[3])]
    rebuilt(md, joined)
    gc.collect()
    assert old() is None
    pol.replicas("ks_nts", k)
    assert pol.ring_builds == 2
    for i in range(3):           # back and forth: every new map is seen
        rebuilt(md, nodes if i % 2 == 0 else joined)
        pol.replicas("ks_nts", k)
        assert pol.ring_builds == 3 + i
        assert len(pol._state.ring.node_names) == len(nodes) + (i % 2)


def test_hot_path_equals_full_path():
    """make_query_plan's hot path (a keyspace already routed on the current state) gives
    the plan of the full path for every key: same replicas, same order, then the child's
    plan without them; it is dropped by every change of state (host event, token map,
    ALTER, DROP, shuffle_replicas) and made again by the next full-path plan."""
    nodes = layout()
    md = metadata(nodes, KEYSPACES)
    ref = library_ring(nodes)
    dc_of = {a: dc for a, dc, _, _ in nodes}
    pol = policy_for(md)
    ks = keys(300)
    assert pol._fast == {}
    first = [plan(pol, "ks_nts", k) for k in ks]        # fills the sets, makes the entry
    assert set(pol._fast) == {"ks_nts"}
    for k, got in zip(ks, first):
        stmt = Stmt("ks_nts", k)
        hot = [h.address for h in pol.make_query_plan(None, stmt)]
        full = [h.address for h in pol._make_query_plan(None, stmt)]
        want = server_local_first(ref, {"dc1": 3, "dc2": 2}, k, "dc1", dc_of)
        # the same replicas first; then the child's (round-robin) plan without them,
        # rotated from one plan to the next
        assert hot[:len(want)] == full[:len(want)] == got[:len(want)] == want
        assert sorted(hot) == sorted(full) == sorted(got) and len(set(hot)) == len(hot)
    # the working keyspace (a statement without its own) takes the same path
    assert [h.address for h in pol.make_query_plan("ks_nts", Stmt(None, ks[0]))][:3] == \
        first[0][:3]
    # keyspaces of no placement never get an entry; nor do keys that are not bytes
    plan(pol, "system", b"k")
    plan(pol, "nope", b"k")
    assert set(pol._fast) == {"ks_nts"}
    assert plan(pol, "ks_nts", bytearray(ks[0]))[:3] == first[0][:3]
    # a host event drops every entry
    h = host(md, first[0][0])
    h.set_down()
    pol.on_down(h)
    assert pol._fast == {}
    assert plan(pol, "ks_nts", ks[0])[:2] == first[0][1:3]
    assert set(pol._fast) == {"ks_nts"}
    h.set_up()
    pol.on_up(h)
    assert pol._fast == {} and plan(pol, "ks_nts", ks[0])[:3] == first[0][:3]
    # ALTER: the entry's KeyspaceMetadata is not the driver's any more (full path)
    md.keyspaces["ks_nts"] = KeyspaceMetadata("ks_nts", True, NTS, {"dc1": "1", "dc2": "1"})
    for k in ks[:50]:
        want = server_local_first(ref, {"dc1": 1, "dc2": 1}, k, "dc1", dc_of)
        assert plan(pol, "ks_nts", k)[0] == want[0]
    assert pol._fast["ks_nts"][1] is md.keyspaces["ks_nts"]
    # DROP: the child's plan
    del md.keyspaces["ks_nts"]
    assert sorted(plan(pol, "ks_nts", ks[0])) == sorted(a for a in dc_of if dc_of[a] == "dc1")
    assert "ks_nts" not in pol._fast
    # shuffle_replicas: no entry while set (every plan shuffles), dropped when set
    md.keyspaces["ks_nts"] = KeyspaceMetadata("ks_nts", True, NTS, {"dc1": "3", "dc2": "2"})
    plan(pol, "ks_nts", ks[0])
    assert "ks_nts" in pol._fast
    pol.shuffle_replicas = True
    assert pol._fast == {} and pol.shuffle_replicas is True
    orders = {tuple(plan(pol, "ks_nts", ks[0])[:3]) for _ in range(60)}
    assert len(orders) > 1 and {frozenset(o) for o in orders} == {frozenset(first[0][:3])}
    assert pol._fast == {}
    pol.shuffle_replicas = False
    assert [plan(pol, "ks_nts", k)[:3] for k in ks[:20]] == [
        [h.address for h in pol._make_query_plan(None, Stmt("ks_nts", k))][:3]
        for k in ks[:20]]
    assert "ks_nts" in pol._fast
    assert pol.last_error is None


def test_hot_path_follows_a_new_token_map():
    """A new token map makes the hot path's entry stale: the next plan takes the full path
    (the ring is read again) and routes on the new ring."""
    nodes = layout()
    md = metadata(nodes, KEYSPACES)
    pol = policy_for(md)
    ks = keys(300)
    for k in ks:
        plan(pol, "ks_nts", k)
    assert "ks_nts" in pol._fast and pol.ring_builds == 1
    extra = layout(seed=99, dcs=(("dc1", ("r3",)),), vnodes=8)[0]
    joined = nodes + [("10.0.0.77", "dc1", "r3", extra[3])]
    rebuilt(md, joined)
    ref = library_ring(joined)
    dc_of = {a: dc for a, dc, _, _ in joined}
    hit = 0
    for k in ks:
        want = server_local_first(ref, {"dc1": 3, "dc2": 2}, k, "dc1", dc_of)
        assert plan(pol, "ks_nts", k)[:len(want)] == want
        hit += "10.0.0.77" in want
    assert hit > 0 and pol.ring_builds == 2 and "ks_nts" in pol._fast


def test_hot_path_negative_set_id_gives_the_childs_plan(monkeypatch):
    """A negative set id (an error code of the C call) indexes one of the trailing empty
    entries of the per-set list, never a set: the plan is the child's, as on the full path
    (which gets the same error)."""
    nodes = layout()
    md = metadata(nodes, KEYSPACES)
    pol = policy_for(md, RoundRobinPolicy())
    k = keys(1)[0]
    plan(pol, "ks_nts", k)
    sets = pol._fast["ks_nts"][3]
    assert sets[-driver._SET_PAD:] == [()] * driver._SET_PAD
    assert driver._SET_PAD > -driver.lib.TOKENRING_E_CANCELLED
    for code in range(-1, -driver._SET_PAD - 1, -1):
        assert sets[code] == ()
    calls = []

    def failing(p, key, n):
        calls.append(key)
        return driver.lib.TOKENRING_E_UNSUPPORTED

    monkeypatch.setattr(driver, "_key_set_id", failing)
    got = plan(pol, "ks_nts", k)
    assert len(calls) == 1                          # the hot path only
    assert sorted(got) == sorted(h.address for h in md.all_hosts())
    assert sorted(h.address for h in pol._make_query_plan(None, Stmt("ks_nts", k))) == \
        sorted(got) and len(calls) == 2             # the full path: the same plan


def test_hot_path_keyspace_without_local_replica_gives_the_childs_plan():
    """A keyspace with no replica in the local datacenter: its sets are empty tuples once
    filled; the hot path then gives the child's plan (one C call), as the full path does."""
    nodes = layout()
    md = metadata(nodes, dict(KEYSPACES, ks_dc2=(NTS, {"dc2": "2"})))
    pol = policy_for(md)
    dc1 = sorted(a for a, dc, _, _ in nodes if dc == "dc1")
    for k in keys(100):
        assert sorted(plan(pol, "ks_dc2", k)) == dc1
    assert "ks_dc2" in pol._fast
    sets = pol._fast["ks_dc2"][3]
    assert any(x == () for x in sets[:-driver._SET_PAD])
    assert all(x in (None, ()) for x in sets)
    for k in keys(100):
        assert sorted(plan(pol, "ks_dc2", k)) == dc1


def test_hot_path_entry_is_never_made_from_a_replaced_state():
    """An entry is made only from the policy's current state: a thread that read the
    state before a change cannot put back an entry of the previous state."""
    md = metadata(layout(), KEYSPACES)
    pol = policy_for(md)
    plan(pol, "ks_nts", b"k")
    st = pol._state
    ks = st.keyspaces["ks_nts"]
    pol.on_down(host(md, "10.0.0.1"))             # a new state (same ring)
    assert pol._state is not st and pol._fast == {}
    pol._make_fast(st, "ks_nts", ks)
    assert pol._fast == {}
    pol.populate(types.SimpleNamespace(metadata=md), list(md.all_hosts()))
    plan(pol, "ks_nts", b"k")
    assert "ks_nts" in pol._fast
    pol.populate(types.SimpleNamespace(metadata=md), list(md.all_hosts()))
    assert pol._fast == {}


def test_policy_routes_random_partitioner_and_skips_everywhere():
    """The policy is built on the router: a RandomPartitioner cluster routes (it was
    refused before), an EverywhereStrategy keyspace goes through the child without an
    error, host down/up events reach the router's nodes, and the hosts are its tags."""
    rp = "org.apache.cassandra.dht.RandomPartitioner"
    rnd = random.Random(3)
    nodes = [(f"10.0.2.{i}", "dc1", f"r{i % 3}", [rnd.randrange(2**127) for _ in range(4)])
             for i in range(1, 7)]
    md = Metadata()
    md.partitioner = rp
    tm = {}
    for addr, dc, rack, toks in nodes:
        h = Host(addr, SimpleConvictionPolicy, datacenter=dc, rack=rack)
        h.set_up()
        md._hosts[h.endpoint] = h
        tm[h] = [str(t) for t in toks]
    md.keyspaces["k"] = KeyspaceMetadata("k", True, NTS, {"dc1": "3"})
    md.keyspaces["ev"] = KeyspaceMetadata(
        "ev", True, "org.apache.cassandra.locator.EverywhereStrategy", {})
    md.rebuild_token_map(rp, tm)
    pol = policy_for(md)
    for k in keys(50):
        got = pol.replicas("k", k)
        r = pol.router.route("k", k)
        assert [h.address for h in got] == [pol.router.nodes[i].name for i in r.replicas]
        assert plan(pol, "k", k)[:3] == [h.address for h in got]
        assert len(set(plan(pol, "k", k))) == len(nodes)
    assert pol.last_error is None
    assert sorted(plan(pol, "ev", keys(1)[0])) == sorted(a for a, _, _, _ in nodes)
    assert pol.last_error is None and "ev" in {n for n, _ in pol.router.skipped}
    # tags: each node's tag gives back its Host
    assert [h.address for h in pol._state.hosts] == [n.name for n in pol.router.nodes]
    h = host(md, "10.0.2.2")
    h.set_down()
    pol.on_down(h)
    assert not pol.router.nodes[pol.router.find_node("10.0.2.2")].up
    h.set_up()
    pol.on_up(h)
    assert pol.router.nodes[pol.router.find_node("10.0.2.2")].up
