# SPDX-License-Identifier: Apache-2.0
"""The drivers on the live cluster: tokenring.driver (cassandra-driver) and the Go driver
adapters (bindings/go/gocql for gocql v1.7 and bindings/go/gocqlv2 for the Apache driver
v2, each module's `live`-tagged test) routing real requests.

Runs after test_live.py on the stage's cluster (or, when TOKENRING_DRIVERS_CLUSTER names a
running cluster directory, on that one). Keyspaces: SimpleStrategy 2, {dc1: 2, dc2: 1},
{dc1: 3} (rf above dc1's rack count: gocql's own policy repeats hosts there), one table
`t (k text PRIMARY KEY)` each. Phases: the cluster as it is; after a node joins dc1; after
ALTER KEYSPACE; with the joined node stopped (the down node is skipped). In every phase, for
every key (RING_KEYS a keyspace):

* Python: ring_from_session() gives exactly the server's replica list (`nodetool
  getendpoints` through the harness's NodeProbe client, set and order); a prepared SELECT
  through TokenRingPolicy(DCAwareRoundRobinPolicy(dc1)) is served by (and first tried on)
  the server's first up replica in dc1 (ResponseFuture.coordinator_host and
  attempted_hosts); TokenAwarePolicy's first host is counted where it differs from the
  server's;
* Go, once per adapter (v1: gocql v1.7; v2: the Apache driver v2.1): the same through the
  driver (Iter.Host()), RouterFromSession and the policy's own router, and the driver's own
  TokenAwareHostPolicy's plans (repeated hosts asserted on {dc1: 3}).
The counts are added to test_live's COUNTS and printed by the last test.

On Cassandra 6.0 (ORDER_RULE "6.0": the server orders replicas by the cluster's history,
doc/cassandra-6.md) the Python policy must reach the history's order on its own (it reads
system_views.cluster_metadata_log through its session: replica_order "history") and every
list above is asserted in that order; ring_from_session / ring_from_metadata, which compute
from tokens, are asserted as sets, and router_from_session routed through
history_from_session in order. The Go policies read the same history (bindings/go/
hostpolicy) and are asserted in that order too; a fresh Go session that cannot read the
metadata log while the stopped node is down (the log is read at QUORUM of the CMS) is
counted, not failed.
"""
import json
import os
import random
import re
import subprocess
import time
from pathlib import Path

import pytest

import harness
from conftest import BUILD

try:
    import test_live
    COUNTS = test_live.COUNTS
except Exception:  # noqa: BLE001 - run alone
    import collections
    COUNTS = collections.Counter()

cassandra = pytest.importorskip("cassandra")
from cassandra.cluster import Cluster as DriverCluster, EXEC_PROFILE_DEFAULT, ExecutionProfile  # noqa: E402
from cassandra.policies import DCAwareRoundRobinPolicy, TokenAwarePolicy  # noqa: E402
from cassandra import ConsistencyLevel, Unavailable  # noqa: E402

from tokenring import driver  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
KEYSPACES = {
    "drv_simple": "{'class': 'SimpleStrategy', 'replication_factor': 2}",
    "drv_nts": "{'class': 'NetworkTopologyStrategy', 'dc1': 2, 'dc2': 1}",
    "drv_dc1": "{'class': 'NetworkTopologyStrategy', 'dc1': 3}",
}
ALTER = ("drv_nts", "{'class': 'NetworkTopologyStrategy', 'dc1': 1, 'dc2': 1}")
# Which rule the server's replica order follows on this release (as test_live.ORDER_RULE).
ORDER_RULE = "6.0" if harness.release_line(harness.DEFAULT_VERSION) >= (6, 0) else "5.0"
RING_KEYS = 100            # keys per keyspace and phase (300 prepared statements a phase)
LOCAL_DC = "dc1"
STATE = {}


@pytest.fixture(scope="module")
def cluster(request):
    d = os.environ.get("TOKENRING_DRIVERS_CLUSTER")
    if d:
        c = harness.Cluster.load(d)
        yield c
        c.stop_clients()
        return
    yield request.getfixturevalue("live_cluster")


def up_nodes(c):
    return [n for n in sorted(c.nodes) if c.running(n)]


def contact(c):
    return c.nodes[up_nodes(c)[0]].address


def session(c, policy):
    prof = ExecutionProfile(load_balancing_policy=policy, request_timeout=60,
                            consistency_level=ConsistencyLevel.ONE)
    dc = DriverCluster([contact(c)], port=harness.NATIVE_PORT, protocol_version=5,
                       execution_profiles={EXEC_PROFILE_DEFAULT: prof},
                       connect_timeout=30, control_connection_timeout=30)
    s = dc.connect()
    return s


def wait_up(s, down=(), timeout=90):
    """Waits until the driver has every running local node up (pools open)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if all(h.is_up for h in s.cluster.metadata.all_hosts()
               if h.address not in down and h.datacenter == LOCAL_DC):  # remote: no pool
            return
        time.sleep(0.5)
    raise AssertionError("local hosts not up in the driver: " + ", ".join(
        h.address for h in s.cluster.metadata.all_hosts()
        if not h.is_up and h.datacenter == LOCAL_DC and h.address not in down))


def wait_schema(s):
    assert s.cluster.control_connection.wait_for_schema_agreement(wait_time=120), \
        "no schema agreement within 120 s"
    s.cluster.refresh_schema_metadata()


RING_LINE = re.compile(r"^(\d+\.\d+\.\d+\.\d+)\s+\S+\s+(Up|Down|\?)\s+"
                       r"(Normal|Joining|Leaving|Moving)\s.*?(-?\d+)\s*$", re.M)


def server_ring(c):
    """{token: address} of `nodetool ring` on the first running node, the addresses whose
    state is not Normal, and {address: Up or Down}."""
    text = c.nodetool(up_nodes(c)[0], "ring")
    owners, unsettled, status = {}, set(), {}
    for addr, st, state, tok in RING_LINE.findall(text):
        owners[int(tok)] = addr
        status[addr] = st
        if state != "Normal":
            unsettled.add(addr)
    assert owners, f"no token in nodetool ring:\n{text}"
    return owners, unsettled, status


def _diff(what, got, want):
    missing = sorted(set(want.items()) - set(got.items()))
    extra = sorted(set(got.items()) - set(want.items()))
    return (f"{what}: {len(got)} tokens, server {len(want)}; missing {missing[:3]}, "
            f"not the server's {extra[:3]}")


def _replication(ks, row_or_meta):
    """A keyspace's replication as {option: value} with the short class name, from a
    system_schema.keyspaces replication map or from the driver's KeyspaceMetadata."""
    if isinstance(row_or_meta, dict):
        return {k: (v.rsplit(".", 1)[-1] if k == "class" else str(v))
                for k, v in row_or_meta.items()}
    st = row_or_meta.replication_strategy
    if hasattr(st, "dc_replication_factors_info"):
        out = {dc: str(rf) for dc, rf in st.dc_replication_factors_info.items()}
        out["class"] = "NetworkTopologyStrategy"
        return out
    return {"class": "SimpleStrategy", "replication_factor": str(st.replication_factor_info)}


def server_settled(c, down=(), timeout=180):
    """Waits (at most `timeout` s) until the server side has settled: every running node's
    system.local + system.peers_v2 tokens equal the first node's `nodetool ring`, every
    node there is Normal, and every running node has the same replication of our
    keyspaces. Returns the ring."""
    def check():
        ring, unsettled, status = server_ring(c)
        if unsettled:
            return False, f"nodetool ring: not Normal yet: {sorted(unsettled)}"
        if set(ring.values()) != {c.nodes[n].address for n in up_nodes(c)} | set(down):
            return False, f"nodetool ring lists {sorted(set(ring.values()))}"
        for a, st in status.items():
            if st != ("Down" if a in down else "Up"):
                return False, f"nodetool ring: {a} is {st}"
        for n in up_nodes(c):
            seen = {}
            for r in c.cql("SELECT peer, tokens FROM system.peers_v2", n=n):
                seen.update({int(t): r.peer for t in (r.tokens or ())})
            for r in c.cql("SELECT broadcast_address, tokens FROM system.local", n=n):
                seen.update({int(t): r.broadcast_address for t in (r.tokens or ())})
            if seen != ring:
                return False, _diff(f"node {n}'s system.local + system.peers_v2", seen, ring)
            repl = {r.keyspace_name: _replication(r.keyspace_name, dict(r.replication))
                    for r in c.cql("SELECT keyspace_name, replication FROM "
                                   "system_schema.keyspaces", n=n)
                    if r.keyspace_name in KEYSPACES}
            want = {ks: _replication(ks, _cql_map(v)) for ks, v in KEYSPACES.items()}
            if repl != want:
                return False, f"node {n}'s system_schema.keyspaces: {repl}, want {want}"
        return True, ring
    return _wait("the server's ring and schema", check, timeout)


def _cql_map(text):
    """{'class': ..., 'dc1': '2'} of a CQL replication map literal of KEYSPACES."""
    return {k: v for k, v in re.findall(r"'([^']+)':\s*'?([^',}]+)'?", text)}


def driver_settled(c, ring, down=(), timeout=180):
    """Waits (at most `timeout` s) until what each kept Python session sees equals the
    server: the driver's token map (what TokenRingPolicy and TokenAwarePolicy route by)
    is exactly `ring`, ring_from_session's ring (system.local + system.peers_v2 of the
    host the session asks) too, its keyspaces' replication is the server's, the `down`
    hosts are marked down and every other local host up."""
    pol, s, tap, s2 = sessions(c)
    for x in (s, s2):
        wait_schema(x)

    def check():
        for name, x in (("TokenRingPolicy session", s), ("TokenAwarePolicy session", s2)):
            md = x.cluster.metadata
            tm = md.token_map
            got = {} if tm is None else {t.value: h.address
                                         for t, h in tm.token_to_host_owner.items()}
            if got != ring:
                return False, _diff(f"{name}'s driver token map", got, ring)
            for ks, v in KEYSPACES.items():
                meta = md.keyspaces.get(ks)
                want = _replication(ks, _cql_map(v))
                if meta is None or _replication(ks, meta) != want:
                    return False, (f"{name}: keyspace {ks} is "
                                   f"{None if meta is None else _replication(ks, meta)}, "
                                   f"want {want}")
            for h in md.all_hosts():
                if h.address in down and h.is_up:
                    return False, f"{name}: stopped host {h.address} still up"
                if h.address not in down and h.datacenter == LOCAL_DC and not h.is_up:
                    return False, f"{name}: local host {h.address} not up yet"
        cr = driver.ring_from_session(s)
        got = {int(t): o for t, o in zip(cr.ring.tokens, cr.ring.token_owners)}
        if got != ring:
            return False, _diff("ring_from_session", got, ring)
        return True, None
    _wait("the Python drivers' view to equal the server's", check, timeout)


def _wait(what, check, timeout):
    """Calls check() every second until it returns (True, value); returns the value.
    check() returns (False, what differs) while things have not settled; after `timeout`
    seconds the last difference fails the test."""
    t0 = time.monotonic()
    while True:
        done, value = check()
        if done:
            waited = time.monotonic() - t0
            if waited >= 1:
                print(f"\n  waited {waited:.0f} s for {what}")
            COUNTS["driver settle waits (s)"] += round(waited)
            return value
        if time.monotonic() - t0 > timeout:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}; still "
                                 f"different: {value}")
        time.sleep(1)


def expectations(c):
    """[(keyspace, key, server endpoints)] from getendpoints (NodeProbe)."""
    probe = c.probe(up_nodes(c)[0])
    rnd = random.Random(len(STATE))
    out = []
    for ks in sorted(KEYSPACES):
        for i in range(RING_KEYS):
            key = f"k{rnd.getrandbits(40):x}-{i}"
            out.append((ks, key, probe.getendpoints(ks, "t", key)))
    return out


def sessions(c):
    """The two Python sessions, opened once and kept across the phases: the policy must
    follow the join, the ALTER and the stop on its own."""
    if "py" not in STATE:
        pol = driver.TokenRingPolicy(DCAwareRoundRobinPolicy(LOCAL_DC))
        tap = TokenAwarePolicy(DCAwareRoundRobinPolicy(LOCAL_DC))
        STATE["py"] = (pol, session(c, pol), tap, session(c, tap))
    return STATE["py"]


def same_list(got, want):
    """A list computed from tokens equals the server's: in order before 6.0, as a set on
    6.0 (whose order follows the history: asserted through the history's router)."""
    return got == want if ORDER_RULE == "5.0" else sorted(got) == sorted(want)


def policy_in_history_order(pol, timeout=180):
    """6.0: waits until the policy routes in the history's order (its worker reads the
    metadata log after each change of ring or schema); requests bring it up to date."""
    def check():
        for ks in KEYSPACES:
            pol.replicas(ks, b"x")
        pol.wait_for_history(5)
        if pol.replica_order == "history":
            return True, None
        return False, f"replica_order {pol.replica_order}; last_error {pol.last_error}"
    _wait("the policy's router in the history's order", check, timeout)


def check_python(c, exp, down=()):
    pol, s, tap, s2 = sessions(c)
    builds = (pol.ring_builds, pol.keyspace_builds)
    wait_schema(s)
    wait_schema(s2)
    wait_up(s, down)
    wait_up(s2, down)
    order = "" if ORDER_RULE == "5.0" else " (sets: 6.0 orders by history)"
    cr = driver.ring_from_session(s)
    for ks, key, eps in exp:
        assert same_list(list(cr.replicas(ks, key)), eps), (ks, key)
        COUNTS["python ring_from_session replicas = getendpoints" + order] += 1
    md_ring = driver.ring_from_metadata(s.cluster.metadata)
    for ks, key, eps in exp:
        assert same_list(list(md_ring.replicas(ks, key)), eps), (ks, key)
        COUNTS["python ring_from_metadata replicas = getendpoints" + order] += 1
    # the router the policy routes by: built from the same rows (on 6.0 routed through the
    # history read from the same session), then the policy's own snapshot (events applied
    # to it since the session opened); replicas by name
    rt = driver.router_from_session(s, local_dc=LOCAL_DC)
    if ORDER_RULE == "6.0":
        policy_in_history_order(pol)
        try:
            rt = rt.with_history(driver.history_from_session(s, rt))
        except Unavailable:
            # the log is read from the CMS at QUORUM: with its member stopped it cannot be
            # read (the policy keeps the order of the history it read before the stop)
            COUNTS["6.0: metadata log unreadable (CMS member down): phases"] += 1
            rt = None
    for ks, key, eps in exp:
        if rt is not None:
            names = [rt.nodes[i].name for i in rt.route(ks, key.encode()).replicas]
            assert names == eps, (ks, key, names)
        assert [h.address for h in pol.replicas(ks, key.encode())] == eps, (ks, key)
        COUNTS["python router_from_session and the policy's router = getendpoints"
               + ("" if ORDER_RULE == "5.0" else " (6.0: the history's order)")] += 1
    dc_of = {h.address: h.datacenter for h in s.cluster.metadata.all_hosts()}
    prepared = {ks: s.prepare(f"SELECT k FROM {ks}.t WHERE k = ?") for ks in KEYSPACES}
    prepared2 = {ks: s2.prepare(f"SELECT k FROM {ks}.t WHERE k = ?") for ks in KEYSPACES}
    differ = 0
    for ks, key, eps in exp:
        want = next((e for e in eps if dc_of.get(e) == LOCAL_DC and e not in down), None)
        rs = s.execute(prepared[ks], (key,))
        f = rs.response_future
        if want is None:
            COUNTS["python coordinator: no local replica up (child's host)"] += 1
            continue
        assert f.attempted_hosts[0].address == want, (ks, key, eps, f.attempted_hosts)
        assert f.coordinator_host.address == want, (ks, key, eps, f.coordinator_host)
        COUNTS["python coordinator = server's first up local replica"] += 1
        rs2 = s2.execute(prepared2[ks], (key,))
        theirs = rs2.response_future.attempted_hosts[0].address
        # The driver's own policy is shown, not trusted: right after a join its token map
        # can lag the server's, and it then sends a request to a node that is no replica.
        COUNTS["python TokenAwarePolicy first host is no replica"] += theirs not in eps
        differ += theirs != want
        COUNTS["python TokenAwarePolicy requests"] += 1
    COUNTS["python TokenAwarePolicy first host != server's first local replica"] += differ
    assert pol.last_error is None, pol.last_error
    STATE.setdefault("builds", []).append(builds)


#: The Go adapters: (counts prefix, module directory, test binary name).
GO_ADAPTERS = (("go", "gocql", "gocql-live.test"), ("go v2", "gocqlv2", "gocqlv2-live.test"))


def gocql_binary(module="gocql", name="gocql-live.test"):
    b = STATE.get(("go_bin", module))
    if b:
        return b
    out = BUILD / name
    env = dict(os.environ, PKG_CONFIG_PATH=str(BUILD / "meson-uninstalled"),
               CGO_ENABLED="1", GOFLAGS="-mod=mod", GOCACHE=str(BUILD / "go-cache"),
               GOTOOLCHAIN="local")
    go = "go" if subprocess.run(["which", "go"], capture_output=True).returncode == 0 \
        else "/usr/local/go/bin/go"
    subprocess.run([go, "mod", "download"], cwd=ROOT / "bindings/go" / module, env=env,
                   check=True)
    r = subprocess.run([go, "test", "-c", "-tags", "live", "-o", str(out), "."],
                       cwd=ROOT / "bindings/go" / module, env=env, capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    STATE[("go_bin", module)] = out
    return out


def check_go(c, exp, down=(), expect_repeats=False, adapter=GO_ADAPTERS[0]):
    prefix, module, name = adapter
    f = BUILD / "gocql-live-expect.json"
    f.write_text(json.dumps([{"keyspace": ks, "key": k, "endpoints": e} for ks, k, e in exp]))
    env = dict(os.environ, TOKENRING_LIVE_CONTACT=contact(c), TOKENRING_LIVE_DC=LOCAL_DC,
               TOKENRING_LIVE_EXPECT=str(f), TOKENRING_LIVE_DOWN=",".join(down),
               LD_LIBRARY_PATH=str(BUILD / "lib"))
    r = subprocess.run([str(gocql_binary(module, name)), "-test.run", "^TestLive$",
                        "-test.count=1"],
                       env=env, capture_output=True, text=True, timeout=600)
    if r.returncode and ORDER_RULE == "6.0" and down and "Cannot achieve consistency level" in r.stdout:
        # 6.0: a fresh session cannot read the cluster's history while the node the
        # metadata log needs is down (the log is read at QUORUM of the CMS): no order to
        # route by; counted, not asserted (a kept session keeps the history it read)
        COUNTS[prefix + " history unreadable with a node down (metadata log at QUORUM)"] += 1
        return {}
    assert r.returncode == 0, module + ": " + r.stdout[-4000:] + r.stderr[-2000:]
    line = [x for x in r.stdout.splitlines() if x.startswith("COUNTS ")][-1]
    counts = json.loads(line[7:])
    assert counts["ring_from_session_replicas"] == len(exp), (module, counts)
    assert counts["policy_router_replicas"] == len(exp), (module, counts)
    assert counts.get("coordinator_first_local_replica", 0) + \
        counts.get("coordinator_fallback", 0) == len(exp), (module, counts)
    for k, v in counts.items():
        COUNTS[prefix + " " + k] += v
    if expect_repeats:
        # drv_dc1 has rf 3 over dc1's racks with vnodes: the driver's NetworkTopologyStrategy
        # walk adds a host once per vnode it meets (both lines)
        assert counts.get("gocql_plan_repeats_host", 0) > 0, (module, counts)
    return counts


def phase(c, name, down=(), expect_repeats=False):
    """One phase: wait until the server and then the drivers have settled (deadlines,
    and what still differs when one passes), then assert."""
    t0 = time.monotonic()
    ring = server_settled(c, down)
    exp = expectations(c)
    driver_settled(c, ring, down)
    check_python(c, exp, down)
    counts = {a[0]: check_go(c, exp, down, expect_repeats, a) for a in GO_ADAPTERS}
    print(f"\ndrivers phase {name}: {len(exp)} keys, go {counts}, "
          f"{time.monotonic() - t0:.0f} s")


def test_drivers_setup(cluster):
    s = cluster.session(up_nodes(cluster)[0])
    for ks, repl in KEYSPACES.items():
        s.execute(f"CREATE KEYSPACE IF NOT EXISTS {ks} WITH replication = {repl}")
        s.execute(f"CREATE TABLE IF NOT EXISTS {ks}.t (k text PRIMARY KEY)")
    wait_schema(s)


def test_drivers_route(cluster):
    phase(cluster, "initial", expect_repeats=True)


def test_drivers_after_join(cluster):
    if os.environ.get("TOKENRING_DRIVERS_JOINED"):      # developing: joined earlier
        free = int(os.environ["TOKENRING_DRIVERS_JOINED"])
    else:
        free = next(n for n in range(1, harness.MAX_NODES + 1) if n not in cluster.nodes)
        cluster.add_node(harness.Node(free, LOCAL_DC, "r2", 8))
        STATE["joined_here"] = True
    STATE["joined"] = free
    phase(cluster, f"after node {free} joined", expect_repeats=True)


def test_drivers_after_alter(cluster):
    s = cluster.session(up_nodes(cluster)[0])
    s.execute(f"ALTER KEYSPACE {ALTER[0]} WITH replication = {ALTER[1]}")
    wait_schema(s)
    KEYSPACES[ALTER[0]] = ALTER[1]
    phase(cluster, "after ALTER KEYSPACE", expect_repeats=True)


def test_drivers_node_down(cluster):
    """Last: Cassandra refuses ALTER KEYSPACE while a node is down."""
    n = STATE.get("joined") or int(os.environ["TOKENRING_DRIVERS_JOINED"])
    addr = cluster.nodes[n].address
    cluster.stop_node(n)
    phase(cluster, f"node {n} stopped", down=(addr,))

def test_drivers_close():
    if "py" in STATE:
        pol, s, tap, s2 = STATE.pop("py")
        # the kept session's policy rebuilt its ring after the join (a new token map) and
        # the altered keyspace's placement during the ALTER phase
        if STATE.get("joined_here"):
            assert pol.ring_builds >= 2, pol.ring_builds
        b = STATE["builds"]        # (ring, keyspace) builds at the start of each phase
        assert len(b) == 4 and b[3][1] > b[2][1], b
        COUNTS["python kept-session ring rebuilds"] += pol.ring_builds
        COUNTS["python kept-session keyspace rebuilds"] += pol.keyspace_builds
        s.cluster.shutdown()
        s2.cluster.shutdown()


def test_drivers_counts():
    """Prints the drivers' counts (test_live's last test prints them all when run first)."""
    mine = {k: v for k, v in COUNTS.items() if k.startswith(("python ", "go "))}
    for k in sorted(mine):
        print(f"  {mine[k]:7d}  {k}")
    assert mine.get("python coordinator = server's first up local replica", 0) > 0
    assert mine.get("go coordinator_first_local_replica", 0) > 0
    assert mine.get("go v2 coordinator_first_local_replica", 0) > 0
