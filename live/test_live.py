# SPDX-License-Identifier: Apache-2.0
"""The live stage: libtokenring against a real Cassandra cluster it starts itself.

The cluster (conftest.py): 4 nodes on 127.0.0.1..4, datacenters dc1 (racks r1, r1, r2) and
dc2 (r1), vnodes (8 or 16 tokens a node). Keyspaces cover SimpleStrategy and
NetworkTopologyStrategy with replication factors below, at and above the node count of a
datacenter and a datacenter with rf 0. Every answer of the server is compared, exactly,
with the library's answer for the same input:

* tokens: `SELECT token(k)` of every partition-key CQL type and of composite keys, against
  the library's token of the same value (the C library through the Python binding, from the
  value's string form and from the server's own serialized bytes; the tool's `token`
  command; the Go binding through live/go);
* placement: `nodetool getendpoints` (set and order), `describering` (ranges and replicas)
  and `status KEYSPACE` (Owns as printed), against the tool's answers computed from the
  cluster's own `nodetool ring` output and, separately, from `system.peers_v2` +
  `system.local` rendered as cqlsh prints them; and the Go binding's replica lists;
* after a node joins and after one is decommissioned: all of the above again, and the
  library's movement analysis names exactly the ranges whose replica sets the server
  changed (from describering before and after).

On Cassandra 6.0 (Transactional Cluster Metadata) the replica *order* depends on the
cluster's history, not on its tokens (doc/cassandra-6.md): there the tokens, the Owns
figures, the describering ranges and every replica *set* are asserted exactly as above,
and the order of every getendpoints list against the library's 6.0 model replayed from
the server's own metadata log (system_views.cluster_metadata_log: tokenring.History) and
against the server's describering placement (TOKENRING_ORDER_SERVER). ORDER_RULE names
the rule the order follows.

Each check adds to COUNTS; the last test prints them (the stage's "counts asserted").
"""
import collections
import json
import os
import random
import re
import socket
import subprocess
import time
from pathlib import Path

import pytest

import harness
import tokenring
import tokenring.driver as tokenring_driver
from conftest import BUILD, JOINER, LEAVER, NODES

COUNTS = collections.Counter()
STATE = {}

# Which rule the server's replica order follows on this release: "5.0" (a function of the
# ring's tokens, what the tool computes) or "6.0" (a function of the cluster's history).
ORDER_RULE = "6.0" if harness.release_line(harness.DEFAULT_VERSION) >= (6, 0) else "5.0"


def same_replicas(mine, server):
    """The tool's replica list equals the server's: exactly (order too) where the 5.0 rule
    holds; as sets on 6.0, where the order is asserted separately (check_order_60)."""
    return mine == server if ORDER_RULE == "5.0" else sorted(mine) == sorted(server)


def ranges_key(text):
    """describering lines, exactly (5.0 rule), or as (start, end, replica set) on 6.0."""
    if ORDER_RULE == "5.0":
        return describering_lines(text)
    return {(s, e, frozenset(eps)) for s, e, eps in describering_ranges(text)}


def order_label():
    return "" if ORDER_RULE == "5.0" else " [sets; 6.0 order checked apart]"

KEYSPACES = {
    # name: replication map as CQL writes it
    "ks_simple": "{'class': 'SimpleStrategy', 'replication_factor': 3}",
    # dc1 below its 3 nodes, dc2 at its 1 node
    "ks_below": "{'class': 'NetworkTopologyStrategy', 'dc1': 2, 'dc2': 1}",
    # dc1 at its 3 nodes (2 racks: one repeat), dc2 rf 0
    "ks_at": "{'class': 'NetworkTopologyStrategy', 'dc1': 3, 'dc2': 0}",
    # dc1 and dc2 above their node counts
    "ks_above": "{'class': 'NetworkTopologyStrategy', 'dc1': 4, 'dc2': 2}",
    # dc2 only (dc1 not replicated at all)
    "ks_dc2": "{'class': 'NetworkTopologyStrategy', 'dc2': 1}",
}
TYPES_KS = "ks_below"       # the keyspace holding the one-table-per-type tables
RANDOM_KEYS = 150           # text keys per keyspace and phase for getendpoints
NODETOOL_SAMPLE = 5         # `nodetool getendpoints` calls per keyspace and phase (NodeTool in the probe JVM)

# Values of every partition-key CQL type: (CQL literal, getendpoints string form).
VALUES = {
    "ascii": [("'a'", "a"), ("'hello world'", "hello world"), ("'x:y'", "x:y"),
              ("'end!'", "end!"), ("'back\\'", "back\\")],
    "text": [("'a'", "a"), ("'h\u00e9llo w\u00f6rld'", "h\u00e9llo w\u00f6rld"),
             ("'\u65e5\u672c\u8a9e'", "\u65e5\u672c\u8a9e"), ("'it''s'", "it's"),
             ("'\U0001F600 emoji'", "\U0001F600 emoji")],
    "varchar": [("'v'", "v"), ("'0123456789abcdefXYZ'", "0123456789abcdefXYZ")],
    "bigint": [("0", "0"), ("-1", "-1"), ("9223372036854775807", "9223372036854775807"),
               ("-9223372036854775808", "-9223372036854775808"), ("42", "42")],
    "int": [("0", "0"), ("42", "42"), ("-2147483648", "-2147483648"),
            ("2147483647", "2147483647")],
    "smallint": [("-32768", "-32768"), ("32767", "32767"), ("7", "7")],
    "tinyint": [("-128", "-128"), ("127", "127"), ("0", "0")],
    "varint": [("0", "0"), ("128", "128"), ("-129", "-129"),
               ("123456789012345678901234567890", "123456789012345678901234567890"),
               ("-98765432109876543210", "-98765432109876543210")],
    "decimal": [("123.4500", "123.4500"), ("-0.001", "-0.001"), ("0", "0"),
                ("1E+10", "1E+10"), ("3.14159265358979323846", "3.14159265358979323846")],
    "float": [("1.5", "1.5"), ("-2.5e-3", "-2.5e-3"), ("3.4028235E38", "3.4028235E38"),
              ("NaN", "NaN"), ("-Infinity", "-Infinity")],
    "double": [("0.1", "0.1"), ("-1e300", "-1e300"), ("Infinity", "Infinity"),
               ("4.9E-324", "4.9E-324")],
    "boolean": [("true", "true"), ("false", "false")],
    "blob": [("0xcafe", "cafe"), ("0x00", "00"), ("0xff00ff", "ff00ff"),
             ("0x" + "ab" * 40, "ab" * 40)],
    "uuid": [("5132b130-ae79-11e4-ab27-0800200c9a66", "5132b130-ae79-11e4-ab27-0800200c9a66"),
             ("00000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000000"),
             ("ffffffff-ffff-ffff-ffff-ffffffffffff", "ffffffff-ffff-ffff-ffff-ffffffffffff")],
    "timeuuid": [("d2177dd0-eaa2-11de-a572-001b779c76e3", "d2177dd0-eaa2-11de-a572-001b779c76e3"),
                 ("50554d6e-29bb-11e5-b345-feff819cdc9f", "50554d6e-29bb-11e5-b345-feff819cdc9f")],
    "timestamp": [("'2024-01-02 03:04:05.678+0000'", "2024-01-02 03:04:05.678+0000"),
                  ("1700000000000", "1700000000000"), ("0", "0"),
                  ("'1969-12-31T23:59:59.999Z'", "1969-12-31T23:59:59.999Z"),
                  ("-62135596800000", "-62135596800000")],
    "date": [("'2024-02-29'", "2024-02-29"), ("'1970-01-01'", "1970-01-01"),
             ("'1900-03-01'", "1900-03-01"), ("'9999-12-31'", "9999-12-31"),
             ("'2147000000'", "2147000000")],
    "time": [("'08:12:54.123456789'", "08:12:54.123456789"), ("'00:00:00'", "00:00:00"),
             ("'23:59:59.999999999'", "23:59:59.999999999"), ("'3600000000000'", "3600000000000")],
    "inet": [("'127.0.0.1'", "127.0.0.1"), ("'::1'", "::1"),
             ("'2001:db8::ff00:42:8329'", "2001:db8::ff00:42:8329"),
             ("'255.255.255.255'", "255.255.255.255")],
}
# CQL's <type>AsBlob function name for the server's own serialized bytes of a value.
AS_BLOB = {"varchar": "text", "blob": None}


def as_blob(t, col):
    fn = AS_BLOB.get(t, t)
    return col if fn is None else f"{fn}AsBlob({col})"

# Composite keys: (table, column types, rows of component values as Python values).
COMPOSITES = [
    ("c_text_int", ["text", "int"],
     [("alice", 42), ("ends!", 1), ("ends\\", 2), ("a:b", 3), ("a\\:b", 4), ("!", 5),
      ("", 0), ("::", -1), ("x!!", 7), ("tail\\!", 8), ("_x", 9), ("h\u00e9:\u00e9!", 10)]),
    ("c_text_text", ["text", "text"],
     [("!", "\\"), ("a:", ":b"), ("\\", "!"), ("", ""), ("k!", "v\\"), ("1:2:3", "4\\:5")]),
    ("c_mixed", ["uuid", "bigint", "blob", "text"],
     [("5132b130-ae79-11e4-ab27-0800200c9a66", -5, "cafe", "z:z!"),
      ("00000000-0000-0000-0000-000000000000", 0, "00", "\\")]),
]


def escape_component(text):
    """AbstractCompositeType's string form of one text component (what getendpoints
    parses): ':' written '\\:', and one '!' appended when the text ends in '\\' or '!'."""
    out = text.replace(":", "\\:")
    if out.endswith("\\") or out.endswith("!"):
        out += "!"
    return out


def cql_text(s):
    return "'" + s.replace("'", "''") + "'"


def composite_form(types, values):
    parts = []
    for t, v in zip(types, values):
        parts.append(escape_component(v) if t in ("text", "ascii", "varchar") else str(v))
    return ":".join(parts)


def composite_literal(t, v):
    if t in ("text", "ascii", "varchar"):
        return cql_text(v)
    if t == "blob":
        return "0x" + v
    return str(v)


# ------------------------------------------------------------------ cluster views

def replication_text(ks_row):
    """The replication map of system_schema.keyspaces as a CQL map string."""
    items = ", ".join(f"'{k}': '{v}'" for k, v in sorted(ks_row.items()))
    return "{" + items + "}"


def cqlsh_table(columns, rows):
    """Rows rendered as cqlsh prints them (the tool's --cqlsh input)."""
    def cell(v):
        if isinstance(v, (set, frozenset, list, tuple)) or type(v).__name__ == "SortedSet":
            return "{" + ", ".join(f"'{x}'" for x in v) + "}"
        return str(v)
    cells = [[cell(getattr(r, c)) for c in columns] for r in rows]
    widths = [max([len(c)] + [len(row[i]) for row in cells]) for i, c in enumerate(columns)]
    out = [" " + " | ".join(c.rjust(w) for c, w in zip(columns, widths)),
           "-" + "-+-".join("-" * w for w in widths) + "-"]
    for row in cells:
        out.append(" " + " | ".join(v.rjust(w) for v, w in zip(row, widths)))
    out += ["", f"({len(rows)} rows)", ""]
    return "\n".join(out)


class View:
    """What the cluster says about itself at one moment (one phase of the stage)."""

    def __init__(self, cluster, phase, node):
        self.phase = phase
        self.node = node
        self.dir = Path(cluster.workdir) / f"view-{phase}"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.ring_text = cluster.nodetool(node, "ring")
        (self.dir / "ring.txt").write_text(self.ring_text)
        s = cluster.session(node)
        peers = list(s.execute("SELECT peer, data_center, rack, tokens FROM system.peers_v2"))
        local = list(s.execute("SELECT broadcast_address, data_center, rack, tokens "
                               "FROM system.local"))
        (self.dir / "peers.txt").write_text(
            cqlsh_table(["peer", "data_center", "rack", "tokens"], peers))
        (self.dir / "local.txt").write_text(
            cqlsh_table(["broadcast_address", "data_center", "rack", "tokens"], local))
        self.replication = {}
        for r in s.execute("SELECT keyspace_name, replication FROM system_schema.keyspaces"):
            if r.keyspace_name in KEYSPACES:
                self.replication[r.keyspace_name] = replication_text(r.replication)
        self.members = {r.peer: (r.data_center, r.rack, len(r.tokens)) for r in peers}
        for r in local:
            self.members[r.broadcast_address] = (r.data_center, r.rack, len(r.tokens))
        self.inputs = {
            "nodetool-ring": ["--nodetool-ring", str(self.dir / "ring.txt")],
            "peers_v2": ["--cqlsh", str(self.dir / "peers.txt"),
                         "--cqlsh", str(self.dir / "local.txt")],
        }
        if ORDER_RULE == "6.0":
            self.dump_metadata(s)
        self.cluster = tokenring.Cluster.parse(self.ring_text)
        self.topology = self.cluster.topology()
        self.ring = tokenring.Ring(self.topology)
        if ORDER_RULE == "6.0":
            assert set(self.history.ring.token_owners) == set(self.ring.token_owners)

    def dump_metadata(self, s):
        """6.0: the metadata log and directory as a driver reads them, kept in the phase's
        directory; the history the library builds from them (History.from_metadata, the
        library's one reader of those rows, the keyspaces' replications from the router of
        the same moment's rows) and that router routed through it (Router.with_history):
        what tokenring.driver.TokenRingPolicy routes by on 6.0."""
        self.log = sorted(s.execute("SELECT epoch, kind, transformation FROM "
                                    "system_views.cluster_metadata_log"),
                          key=lambda r: r.epoch)
        (self.dir / "metadata_log.txt").write_text(
            "".join(f"{r.epoch}\t{r.kind}\t{r.transformation}\n" for r in self.log))
        self.directory = list(s.execute(
            "SELECT node_id, broadcast_address, broadcast_port, dc, rack, state, tokens "
            "FROM system_views.cluster_metadata_directory"))
        (self.dir / "metadata_directory.txt").write_text(
            "".join(f"{r.node_id}\t{r.broadcast_address}\t{r.broadcast_port}\t{r.dc}\t"
                    f"{r.rack}\t{r.state}\t{','.join(r.tokens or ())}\n"
                    for r in self.directory))
        self.router = tokenring_driver.router_from_session(s)
        self.history = tokenring.History.from_metadata(self.log, self.directory,
                                                       keyspaces=self.router)
        self.routed = self.router.with_history(self.history)

    def tool_args(self, source, ks):
        return self.inputs[source] + ["--keyspace", f"{ks}={self.replication[ks]}"]


def wait_until(what, fn, timeout=300, every=1):
    end = time.monotonic() + timeout
    while True:
        last = fn()
        if last is True:
            return
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}: {last}")
        time.sleep(every)


def ring_settled(cluster, expect):
    """Node 1 sees exactly the members `expect` (addresses), all Up/Normal (nodetool
    status), and every other live node lists the same members in system.peers_v2."""
    def check():
        out = cluster.nodetool(1, "status")
        rows = re.findall(r"^([UD?][NLJM?])\s+(\S+)", out, re.M)
        if {a for _, a in rows} != set(expect) or any(st != "UN" for st, _ in rows):
            return f"node 1 sees {sorted(rows)}"
        for n in sorted(cluster.nodes):
            if n == 1 or not cluster.running(n):
                continue
            peers = {r.peer for r in cluster.cql("SELECT peer, tokens FROM system.peers_v2",
                                                   n=n) if r.tokens}
            if peers | {cluster.nodes[n].address} != set(expect):
                return f"node {n}'s peers_v2: {sorted(peers)}"
        return True
    return check


def status_cells(text):
    """{address: {column: cell}} of `nodetool status` (or the tool's) output, cut at the
    header's column starts (every column is left-aligned and padded)."""
    out = {}
    header = None
    for line in text.splitlines():
        if line.startswith("--  Address"):
            header = line
            names = re.findall(r"\S+(?: \S+)*(?: \([a-z]+\))?", line)
            starts = [line.index(n) for n in names]
            continue
        if header and re.match(r"^[UD?][NLJM?]  ", line):
            cells = {}
            for i, name in enumerate(names):
                end = starts[i + 1] if i + 1 < len(names) else None
                cells[name] = line[starts[i]:end].strip()
            out[cells["Address"]] = cells
    return out


def describering_lines(text):
    return {ln.strip() for ln in text.splitlines() if ln.strip().startswith("TokenRange(")}


def describering_ranges(text):
    """[(start, end, [endpoints])] of describering output."""
    out = []
    for ln in describering_lines(text):
        m = re.match(r"TokenRange\(start_token:(-?\d+), end_token:(-?\d+), endpoints:\[([^\]]*)\]",
                     ln)
        assert m, ln
        eps = [e.strip() for e in m.group(3).split(",") if e.strip()]
        out.append((int(m.group(1)), int(m.group(2)), eps))
    return out


def replicas_at(ranges, token):
    for start, end, eps in ranges:
        if (start < token <= end) if start < end else (token > start or token <= end):
            return eps
    raise AssertionError(f"token {token} in no range")


def server_changes(before, after):
    """Elementary ranges (start, end] whose replica SET differs between two describering
    outputs: the boundaries of both rings cut the ring into elementary ranges."""
    bounds = sorted({e for _, e, _ in before} | {e for _, e, _ in after})
    out = []
    for i, b in enumerate(bounds):
        prev = bounds[i - 1]   # i == 0: wraps to the largest
        old = replicas_at(before, b)
        new = replicas_at(after, b)
        if set(old) != set(new):
            out.append((prev, b, tuple(sorted(old)), tuple(sorted(new))))
    return sorted(out, key=lambda r: r[1])


# ------------------------------------------------------------------------- tests

def test_harness_refuses_bad_input(tmp_path, monkeypatch):
    """A port in use, a JVM that exits, a node that does not come up in time and a missing
    JDK each give a clear HarnessError and leave no JVM of ours running."""
    # a port in use (a listener of ours on node 9's CQL port, wherever the address base
    # puts node 9)
    node9 = harness.Node(9, "dc9", "r1", 1)
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((node9.address, harness.NATIVE_PORT))
    s.listen(1)
    c = harness.Cluster(tmp_path / "busy", [node9], seeds=(9,))
    try:
        with pytest.raises(harness.HarnessError,
                           match=r"port already in use: " + re.escape(node9.address) + ":9042"):
            c.start()
        assert c.pid(9) is None
    finally:
        s.close()
        c.stop()   # should the check ever let a node start, it does not outlive the test
    COUNTS["harness errors"] += 1
    # a JVM that exits at once (a heap the JVM refuses)
    c = harness.Cluster(tmp_path / "exits", [harness.Node(9, "dc9", "r1", 1)], seeds=(9,),
                        heap="1k")
    with pytest.raises(harness.HarnessError, match=r"node 9 exited with status \d+ before "
                                                   r"serving CQL(.|\n)*stdout\.log"):
        c.start()
    assert c.pid(9) is None
    COUNTS["harness errors"] += 1
    # a node that does not serve CQL in time: stopped, with the tail of its log
    c = harness.Cluster(tmp_path / "slow", [harness.Node(9, "dc9", "r1", 1)], seeds=(9,),
                        start_timeout=2)
    # (the tail of its logs: system.log, or only stdout.log when the JVM had not yet
    # configured logging after 2 s, as under a heavy load)
    with pytest.raises(harness.HarnessError, match=r"did not serve CQL within 2 s(.|\n)*"
                                                   r"(system|stdout)\.log \(last"):
        c.start()
    assert c.pid(9) is None
    out = subprocess.run(["pgrep", "-f", str(tmp_path / "slow")], capture_output=True,
                         text=True).stdout
    assert out == "", f"a JVM survived: {out}"
    COUNTS["harness errors"] += 1
    # a missing JDK: nothing is started
    monkeypatch.setattr(harness, "JVM_DIRS", [])
    monkeypatch.setattr(harness.shutil, "which", lambda name: None)
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.delenv("TOKENRING_JAVA17", raising=False)
    c = harness.Cluster(tmp_path / "nojdk", [harness.Node(9, "dc9", "r1", 1)], seeds=(9,),
                        version="5.0.9")
    with pytest.raises(harness.HarnessError, match=r"needs JDK 17; none found"):
        c.start()
    assert not (tmp_path / "nojdk" / "node9" / "pid").exists()
    COUNTS["harness errors"] += 1
    # an address outside 127.0.0.1..9
    with pytest.raises(harness.HarnessError, match=r"node number 10: only 1 \.\. 9 \(127\.0\.0\."
                                                   + str(harness.ADDRESS_BASE + 1)):
        harness.Cluster(tmp_path / "far", [harness.Node(10, "dc1", "r1", 1)])
    COUNTS["harness errors"] += 1


def test_schema(live_cluster):
    c = live_cluster
    addrs = [n.address for n in NODES]
    wait_until("the 4 nodes to see each other", ring_settled(c, addrs))
    for ks, repl in KEYSPACES.items():
        c.cql(f"CREATE KEYSPACE IF NOT EXISTS {ks} WITH replication = {repl}")
        c.cql(f"CREATE TABLE IF NOT EXISTS {ks}.kv (k text PRIMARY KEY, v int)")
    for t in VALUES:
        c.cql(f"CREATE TABLE IF NOT EXISTS {TYPES_KS}.t_{t} (k {t} PRIMARY KEY, label text)")
    for name, types, _ in COMPOSITES:
        cols = ", ".join(f"c{i} {t}" for i, t in enumerate(types))
        pk = ", ".join(f"c{i}" for i in range(len(types)))
        c.cql(f"CREATE TABLE IF NOT EXISTS {TYPES_KS}.{name} ({cols}, label text, PRIMARY KEY (({pk})))")
    # (the driver waits for schema agreement after each statement: sending them all and
    # waiting once at the end was slower here, 77 and 92 s instead of 67 and 36 s)
    c.nodetool(1, "describecluster")
    STATE["views"] = {}


def test_tokens_every_type(live_cluster, tool):
    """SELECT token(k) for every partition-key type and composite keys equals the
    library's token: the C library through the Python binding (string form, and the
    server's own bytes), the tool's `token --types` and `token --hex`, and Go."""
    c = live_cluster
    cases = []     # (types, string form, server token, server bytes hex, table)
    for t, vals in VALUES.items():
        for i, (lit, form) in enumerate(vals):
            c.cql(f"INSERT INTO {TYPES_KS}.t_{t} (k, label) VALUES ({lit}, {cql_text(form)})",
                  consistency="ALL")
        rows = c.cql(f"SELECT token(k) AS tok, label, {as_blob(t, 'k')} AS raw "
                     f"FROM {TYPES_KS}.t_{t}", consistency="ALL")
        assert len(rows) == len(vals), f"{t}: {len(rows)} rows for {len(vals)} values"
        for r in rows:
            cases.append(([t], r.label, r.tok, bytes(r.raw).hex(), f"t_{t}"))
    for name, types, rows in COMPOSITES:
        for vals in rows:
            cols = ", ".join(f"c{i}" for i in range(len(types)))
            lits = ", ".join(composite_literal(t, v) for t, v in zip(types, vals))
            form = composite_form(types, vals)
            c.cql(f"INSERT INTO {TYPES_KS}.{name} ({cols}, label) VALUES ({lits}, "
                  f"{cql_text(form)})", consistency="ALL")
        pk = ", ".join(f"c{i}" for i in range(len(types)))
        blobs = ", ".join(as_blob(t, f"c{i}") for i, t in enumerate(types))
        got = c.cql(f"SELECT token({pk}) AS tok, label, {blobs} FROM {TYPES_KS}.{name}",
                    consistency="ALL")
        assert len(got) == len(rows), f"{name}: {len(got)} rows for {len(rows)} keys"
        for r in got:
            parts = [bytes(r[2 + i]) for i in range(len(types))]
            raw = tokenring.composite(parts)
            cases.append((types, r.label, r.tok, raw.hex(), name))
    assert len(cases) > 90
    # the C library through the Python binding
    for types, form, tok, raw, _ in cases:
        key = tokenring.parse_key(types, form)
        assert key.hex() == raw, f"{types} {form!r}: bytes {key.hex()} != server {raw}"
        assert tokenring.token(key) == tok, f"{types} {form!r}"
        assert tokenring.token(bytes.fromhex(raw)) == tok, f"{types} {form!r} (bytes)"
        COUNTS["tokens (Python binding: string form and server bytes)"] += 1
    # the tool: one call per type list, all keys at once; and --hex on the server bytes
    by_types = collections.defaultdict(list)
    for case in cases:
        by_types[",".join(case[0])].append(case)
    for types, group in by_types.items():
        out = json.loads(tool("token", "--json", "--types", types, "--",
                              *[g[1] for g in group]))
        assert [o["key"] for o in out] == [g[1] for g in group]
        assert [int(o["token"]) for o in out] == [g[2] for g in group], types
        COUNTS["tokens (tool, --types string form)"] += len(group)
    out = json.loads(tool("token", "--json", "--hex", *[g[3] or "" for g in cases
                                                        if g[3]]))
    assert [int(o["token"]) for o in out] == [g[2] for g in cases if g[3]]
    COUNTS["tokens (tool, --hex server bytes)"] += len(out)
    # Go
    go = run_livecheck({"tokens": [{"types": g[0], "key": g[1], "hex": g[3],
                                    "token": str(g[2])} for g in cases]})
    assert f"livecheck: {len(cases)} tokens equal" in go
    COUNTS["tokens (Go binding)"] += len(cases)
    STATE["token_cases"] = cases


def run_livecheck(doc):
    exe = BUILD / "livecheck"
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = str(BUILD / "lib") + ":" + env.get("LD_LIBRARY_PATH", "")
    r = subprocess.run([str(exe)], input=json.dumps(doc), capture_output=True, text=True,
                       env=env)
    assert r.returncode == 0, r.stderr + r.stdout
    return r.stdout


def check_placement(c, tool, phase, node=1):
    """getendpoints, describering and status KEYSPACE against the tool (from nodetool ring
    and from system.peers_v2), plus the Go binding; returns the phase's View and the
    server's describering ranges per keyspace."""
    view = View(c, phase, node)
    live = {a for a in view.members}
    assert {n.name for n in view.topology} == live, "nodetool ring and system.peers_v2 differ"
    probe = c.probe(node)
    rng = random.Random(f"live-{phase}")
    keys = [f"key-{rng.getrandbits(48):012x}" for _ in range(RANDOM_KEYS)]
    keys += ["", "a", "x" * 300, "\u00e9t\u00e9"]
    keys = [k for k in keys if k]          # the empty key is rejected by getendpoints
    go_doc = {"placements": []}
    server_ranges = {}
    for ks in KEYSPACES:
        # --- getendpoints: Cassandra (NodeProbe) against the tool, both inputs
        server = {k: probe.getendpoints(ks, "kv", k) for k in keys}
        for source in view.inputs:
            out = json.loads(tool(*view.tool_args(source, ks), "getendpoints", ks, "--json",
                                  "--", *keys))
            assert [o["key"] for o in out] == keys
            for o in out:
                assert same_replicas(o["endpoints"], server[o["key"]]), (
                    f"{phase} {ks} {o['key']!r} from {source}: tool {o['endpoints']}, "
                    f"nodetool {server[o['key']]}")
            COUNTS[f"getendpoints lists (tool from {source}){order_label()}"] += len(out)
            tool_lists = {o["key"]: o["endpoints"] for o in out}
        # typed and composite keys, by their string forms, in the types keyspace
        if ks == TYPES_KS:
            toks = []
            for types, form, tok, _, table in STATE["token_cases"]:
                eps = probe.getendpoints(ks, table, form)
                toks.append((tok, eps))
            out = json.loads(tool(*view.tool_args("nodetool-ring", ks), "getendpoints", ks,
                                  "--json", "--token", "--", *[str(t) for t, _ in toks]))
            assert len(out) == len(toks)
            for o, (_, e) in zip(out, toks):
                assert same_replicas(o["endpoints"], e), (o, e)
            COUNTS["getendpoints lists (typed keys' string forms, tool by token)"
                   + order_label()] += len(out)
        # a sample of `nodetool getendpoints` calls (Cassandra's NodeTool in the probe's
        # JVM, and for the first keyspace a NodeTool JVM of its own, as the `nodetool`
        # command runs) agrees with the NodeProbe client
        for k in keys[:NODETOOL_SAMPLE]:
            real = c.nodetool(node, "getendpoints", ks, "kv", k).split()
            assert real == server[k], f"nodetool {real} != NodeProbe {server[k]}"
            COUNTS["getendpoints (NodeTool = NodeProbe client)"] += 1
            if ks == "ks_simple" and k == keys[0]:
                real = c.nodetool(node, "getendpoints", ks, "kv", k, own_jvm=True).split()
                assert real == server[k], f"nodetool JVM {real} != NodeProbe {server[k]}"
                COUNTS["getendpoints (real nodetool JVM = NodeProbe client)"] += 1
        # (on 6.0 the Go binding's lists are checked against the tool's 5.0-rule lists,
        # whose sets equal the server's, asserted above)
        expect = server if ORDER_RULE == "5.0" else tool_lists
        go_doc["placements"].append({
            "ring": view.ring_text, "replication": view.replication[ks],
            "cases": [{"token": str(tokenring.token(k.encode())), "endpoints": expect[k]}
                      for k in keys]})
        # --- describering: the set of TokenRange lines (Cassandra prints a hash map order),
        # through NodeProbe.describeRing; real nodetool for the first keyspace
        text = "\n".join(probe.describering(ks))
        if ks == "ks_simple":
            real = c.nodetool(node, "describering", ks, own_jvm=True)
            assert describering_lines(real) == describering_lines(text)
            COUNTS["describering (real nodetool JVM = NodeProbe client)"] += 1
        lines = ranges_key(text)
        assert len(lines) == len(view.ring.tokens)
        for source in view.inputs:
            mine = ranges_key(tool(*view.tool_args(source, ks), "describering", ks))
            assert mine == lines, (f"{phase} {ks} from {source}: "
                                   f"{sorted(mine ^ lines, key=str)[:4]}")
            COUNTS[f"describering ranges (tool from {source}){order_label()}"] += len(lines)
        server_ranges[ks] = describering_ranges(text)
        if ORDER_RULE == "6.0":
            check_order_60(view, ks, text, keys, server)
        # --- status KEYSPACE: Owns (effective) as printed, tokens, rack
        st = status_cells(c.nodetool(node, "status", ks))
        assert set(st) == live
        for source in view.inputs:
            mine = status_cells(tool(*view.tool_args(source, ks), "status", ks))
            assert set(mine) == set(st)
            for addr, cells in st.items():
                for col in ("Owns (effective)", "Tokens", "Rack"):
                    assert mine[addr][col] == cells[col], (
                        f"{phase} {ks} {addr} {col} from {source}: tool "
                        f"{mine[addr][col]!r}, nodetool {cells[col]!r}")
            COUNTS[f"status Owns (tool from {source})"] += len(st)
    go = run_livecheck(go_doc)
    total = sum(len(p["cases"]) for p in go_doc["placements"])
    assert f"{total} replica lists equal" in go
    COUNTS["getendpoints lists (Go binding)"] += total
    STATE.setdefault("views", {})[phase] = (view, server_ranges)
    COUNTS["phases checked"] += 1
    return view, server_ranges


def check_order_60(view, ks, text, keys, server):
    """6.0: every getendpoints list, in order, equals the server's own placement read from
    its describering (Placement.from_describering: the library's TOKENRING_ORDER_SERVER
    placement, what a router given the server's order answers); counts the lists whose
    order the 5.0 rule (the tool's) gets wrong, and those whose first replica differs."""
    sp = tokenring.Placement.from_describering(view.ring, view.replication[ks], text)
    assert sp.order == "server"
    computed = view.ring.placement(view.replication[ks])
    last = int(view.ring.tokens[-1])
    for k in keys:
        got = list(sp.replicas(k))
        if tokenring.token(k) > last:
            # 6.0 keeps (t_last, min] apart from (min, t_0]; describering prints the latter's
            # list for the wrapping range: above the largest token only the set is known
            assert sorted(got) == sorted(server[k])
            COUNTS["6.0: keys above the largest token (describering gives the set only)"] += 1
            COUNTS["6.0: ... of which describering's order is not the server's"] += \
                got != server[k]
            continue
        assert got == server[k], (f"{view.phase} {ks} {k!r}: server placement {got}, "
                                  f"getendpoints {server[k]}")
        five = list(computed.replicas(k))
        COUNTS["6.0: getendpoints lists whose order the 5.0 rule misses"] += five != got
        COUNTS["6.0: ... of which the first replica differs"] += five[:1] != got[:1]
    COUNTS["getendpoints lists = server's describering placement, in order (6.0)"] += len(keys)
    # the library's 6.0 model, replayed from the server's own metadata log: every list
    hist = view.history
    hp = hist.placement(view.replication[ks])
    assert hp.order == "history"
    for k in keys:
        assert list(hp.replicas(k)) == server[k], (
            f"{view.phase} {ks} {k!r}: history model {list(hp.replicas(k))}, getendpoints "
            f"{server[k]}")
    COUNTS["getendpoints lists = the 6.0 model replayed from the metadata log, in order"] += \
        len(keys)
    # the router routed through that history (what the driver policy routes by on 6.0)
    names = [n.name for n in view.routed.nodes]
    for k in keys:
        got = [names[i] for i in view.routed.route(ks, k.encode()).replicas]
        assert got == server[k], f"{view.phase} {ks} {k!r}: routed router {got}, getendpoints {server[k]}"
    COUNTS["getendpoints lists = Router.with_history(History.from_metadata), in order"] += \
        len(keys)


def check_movement(phase_before, phase_after, kind, simulate):
    """The library's movement analysis (compare of the two rings, and the simulation of
    the operation on the ring before) names exactly the elementary ranges whose replica
    set the server changed, with the same old and new sets."""
    vb, rb = STATE["views"][phase_before]
    va, ra = STATE["views"][phase_after]
    changed = 0
    for ks in KEYSPACES:
        # (a keyspace that does not replicate to the changed datacenter has no change:
        # the library must then report none either)
        want = server_changes(rb[ks], ra[ks])
        changed += len(want)
        for how, mv in (("compare", tokenring.Movement.compare(
                vb.topology, va.topology, vb.replication[ks], kind)),
                        ("simulated", simulate(vb, va, ks))):
            got = [(r.start, r.end, tuple(sorted(r.old_replicas)), tuple(sorted(r.new_replicas)))
                   for r in mv.ranges]
            assert sorted(got, key=lambda r: r[1]) == want, (
                f"{ks} {how}: {len(got)} ranges, server {len(want)}; first differences "
                f"{sorted(set(got) ^ set(want))[:3]}")
            COUNTS[f"moved ranges ({phase_after}, movement {how})"] += len(want)
            COUNTS[f"keyspaces whose moved ranges equal ({phase_after}, {how})"] += 1
    assert changed > 0, "the server changed no range at all?"


def test_placement_initial(live_cluster, tool):
    check_placement(live_cluster, tool, "initial")


def test_join(live_cluster, tool):
    c = live_cluster
    c.add_node(JOINER)
    addrs = [n.address for n in NODES] + [JOINER.address]
    wait_until("node 5 to be Normal everywhere", ring_settled(c, addrs))
    check_placement(c, tool, "joined")

    def simulate(vb, va, ks):
        tokens = [t for t, o in zip(va.ring.tokens, va.ring.token_owners)
                  if o == JOINER.address]
        assert len(tokens) == JOINER.num_tokens
        return tokenring.Movement.join(vb.topology, vb.replication[ks], JOINER.address,
                                       JOINER.dc, JOINER.rack, tokens)
    check_movement("initial", "joined", tokenring.ChangeKind.JOIN, simulate)


def test_decommission(live_cluster, tool):
    c = live_cluster
    leaver = c.nodes[LEAVER].address
    # --force: some keyspaces replicate more copies than dc1 will have nodes
    c.nodetool(LEAVER, "decommission", "--force", timeout=900, own_jvm=True)
    c.stop_node(LEAVER)
    addrs = [n.address for n in NODES if n.n != LEAVER] + [JOINER.address]
    wait_until(f"node {LEAVER} to be gone", ring_settled(c, addrs))
    check_placement(c, tool, "decommissioned")

    def simulate(vb, va, ks):
        return tokenring.Movement.decommission(vb.topology, vb.replication[ks], leaver)
    check_movement("joined", "decommissioned", tokenring.ChangeKind.DECOMMISSION, simulate)


def test_counts():
    """Prints what the stage asserted (and that every part ran)."""
    assert COUNTS["phases checked"] == 3
    width = max(len(k) for k in COUNTS)
    print()
    for k in sorted(COUNTS):
        print(f"  {k:<{width}}  {COUNTS[k]}")
    print(f"  cassandra {harness.DEFAULT_VERSION} (replica order: the {ORDER_RULE} rule)")
