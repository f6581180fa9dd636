#!/usr/bin/env python3
"""The check command, per-command help, "did you mean", and ring as nodetool prints it.

usage: check.py TOOL DATA_DIR [--update]

The golden outputs (tests/cli/golden/check-*.out, help-*.out) are rewritten with --update.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

TOOL = os.path.abspath(sys.argv[1])
DATA = sys.argv[2]
TMP = tempfile.mkdtemp(prefix="tokenring-check-")
UPDATE = "--update" in sys.argv
GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)
    return cond


def run(args):
    p = subprocess.run([TOOL] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=DATA)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def tmp(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w", newline="") as f:
        f.write(text)
    return path


TOPO = ["--topology", "replicas_2dc_3r_2r_vn8.topology.tsv"]  # dc1: r1 r2 r3 x2, dc2: r1 r2 x2

# ------------------------------------------------------------------ layout
rc, out, err = run(TOPO + ["--keyspace", "ks=dc1=3,dc2=2", "check"])
check(rc == 0 and out.endswith("0 errors, 0 warnings, 4 ok\n"),
      "check, racks = factor everywhere: want exit 0, got %d %r" % (rc, out[-200:]))
check("ok: dc1: 6 nodes in 3 racks (r1 2, r2 2, r3 2), num_tokens 8\n" in out,
      "check: nodes per rack line missing: %r" % out)
check("ok: ks in dc1: 3 racks for factor 3: each rack holds exactly one replica" in out,
      "check: racks = factor line missing")
rc, out, err = run(TOPO + ["--keyspace", "ks=dc1=3,dc2=3", "check"])
check(rc == 4 and re.search(r"^warning: ks in dc2: 2 racks for factor 3: .* one rack holds up "
                            r"to 2 replicas of a range: losing that rack loses LOCAL_QUORUM", out,
                            re.M) and "refuses a node joining one of these racks" in out,
      "check, racks < factor: want exit 4 and the reason, got %d %r" % (rc, out))
rc, out, err = run(TOPO + ["--keyspace", "ks=dc1=3,dc2=5", "check"])
check(rc == 4 and "warning: ks in dc2: factor 5 is larger than the datacenter's 4 nodes: only "
      "4 replicas exist, so LOCAL_QUORUM (3 of 5) survives 1 failed node instead of 2" in out,
      "check, factor 5 on 4 nodes (quorum 3 of 4 still possible): want a warning, got %r" % out)
rc, out, err = run(TOPO + ["--keyspace", "ks=dc1=3,dc2=9", "check"])
check(rc == 5 and "error: ks in dc2: factor 9 is larger than the datacenter's 4 nodes" in out
      and "can never succeed: it needs 5 replicas" in out,
      "check, factor 9 on 4 nodes: want an error, got %d %r" % (rc, out))
rc, out, err = run(TOPO + ["--keyspace", "ks=dc1=2", "--keyspace", "s=SimpleStrategy:3",
                           "check", "--json"])
doc = json.loads(out) if rc in (4, 5) else {}
sev = {(f["severity"], f["subject"]) for f in doc.get("findings", [])}
check(rc == 4 and ("warning", "s") in sev and ("warning", "ks in dc1") in sev
      and doc["errors"] == 0 and doc["warnings"] == 2,
      "check --json: SimpleStrategy across datacenters and 3 racks for factor 2 (measured "
      "shares): got %d %r" % (rc, sorted(sev)))
# unequal racks and mixed num_tokens
uneven = tmp("uneven.topo", "".join(
    "node n%d dc=dc1 rack=%s tokens=%s\n" % (i, rack, ",".join(str(i * 1000 + k * 10**17) for k in range(t)))
    for i, (rack, t) in enumerate([("r1", 4), ("r1", 4), ("r2", 4), ("r3", 4), ("r3", 8)])))
rc, out, err = run(["--topology", uneven, "--keyspace", "ks=dc1=3", "check"])
check(rc == 4 and "warning: dc1: racks of unequal size (r1 2, r2 1, r3 2)" in out
      and "warning: dc1: mixed num_tokens: 4 on most nodes, other counts on 1 (n4 8)" in out
      and "a node of a 1-node rack holds 2 times the data of a node of a 2-node rack" in out,
      "check: unequal racks / mixed num_tokens: got %d %r" % (rc, out))
# pasted Owns against the computed one
ring50 = os.path.join("samples", "ring-5.0-2nodes-vnodes16-effective.txt")
rc, out, err = run(["--nodetool-ring", ring50, "--keyspace", "ks=datacenter1=1", "check"])
check(rc == 0 and "ok: owns: the pasted Owns of 2 nodes equal the computed one" in out,
      "check: pasted Owns that agree: got %d %r" % (rc, out))
rc, out, err = run(["--nodetool-ring", ring50, "--keyspace", "ks=datacenter1=2", "check"])
check(rc == 4 and "warning: node 172.16.0.12: pasted Owns 51.15% differs from the computed "
      "100.00%" in out, "check: pasted Owns that differ: got %d %r" % (rc, out))

# ------------------------------------------------------- a node's settings
yaml = tmp("cassandra.yaml", """# comment
cluster_name: 'Test Cluster'
num_tokens: 16   # vnodes
allocate_tokens_for_local_replication_factor: 2
initial_token:
seed_provider:
  - class_name: org.apache.cassandra.locator.SimpleSeedProvider
    parameters:
      - seeds: "127.0.0.1:7000"
partitioner: "org.apache.cassandra.dht.Murmur3Partitioner"
endpoint_snitch: 'GossipingPropertyFileSnitch'
""")
rackdc = tmp("rackdc.properties", "# GPFS\ndc=dc1\nrack = r2\nprefer_local=true\n")
base = TOPO + ["--keyspace", "ks=dc1=3,dc2=2", "check", "--yaml", yaml, "--rackdc", rackdc]
rc, out, err = run(base + ["--node", "10.9.9.9"])
check(rc == 5 and re.search(r"^warning: node 10.9.9.9: num_tokens 16, but the nodes of dc1 have "
                            r"8", out, re.M)
      and re.search(r"^error: cassandra.yaml: allocate_tokens_for_local_replication_factor 2, but "
                    r"in dc1 keyspace ks 3", out, re.M)
      and "ok: node 10.9.9.9: joins dc1, rack r2" in out,
      "check --yaml, a new node: got %d %r" % (rc, out))
rc, out, err = run(base + ["--node", "a1"])  # a1 is in dc1, rack r2, 8 tokens
check(rc == 5 and "Cannot change the number of tokens from 8 to 16" in out
      and "snitch's data center" not in out,
      "check --yaml, an existing node with another num_tokens: got %d %r" % (rc, out))
bad = tmp("bad.properties", "dc=dc-1\nrak=r2\n")
rc, out, err = run(TOPO + ["check", "--rackdc", bad])
check(rc == 5 and "unknown key 'rak': no snitch reads it; did you mean 'rack'?" in out
      and "dc=dc-1 is not a datacenter of the cluster; did you mean 'dc1'?" in out,
      "check --rackdc with typos: got %d %r" % (rc, out))
moved = tmp("moved.properties", "dc=dc2\nrack=r1\n")
rc, out, err = run(TOPO + ["check", "--rackdc", moved, "--node", "a1"])
check(rc == 5 and "Cannot start node if snitch's data center (dc2) differs from previous data "
      "center (dc1)" in out and "snitch's rack (r1) differs from previous rack (r2)" in out,
      "check: a node moved to another dc and rack: got %d %r" % (rc, out))
# initial_token: a comma list continued on the next line, count and taken tokens
with open(os.path.join(DATA, "replicas_2dc_3r_2r_vn8.topology.tsv")) as f:
    taken = re.search(r"-?\d{12,}", f.read().split("\n", 3)[2]).group(0)
tokyaml = tmp("tokens.yaml", "num_tokens: 3\ninitial_token: 1, 2,\n   %s\n"
              "partitioner: Murmur3Partitioner\nendpoint_snitch: SimpleSnitch\n" % taken)
rc, out, err = run(TOPO + ["check", "--yaml", tokyaml])
check(rc == 5 and "Bootstrapping to existing token %s is not allowed" % taken in out
      and "initial_token lists" not in out,
      "check: initial_token continued on a second line, one token taken: got %d %r"
      % (rc, out))
twoyaml = tmp("two.yaml", "---\r\nnum_tokens : 4 # spaces before the colon\r\n"
              "initial_token: \"1,2\"\r\npartitioner: "
              "RandomPartitioner\nendpoint_snitch: GossipingPropertyFileSnitch\n")
rc, out, err = run(TOPO + ["check", "--yaml", twoyaml])
check(rc == 5 and "initial_token lists 2 tokens but num_tokens is 4" in out
      and "partitioner RandomPartitioner, but the cluster's tokens are Murmur3Partitioner's" in out,
      "check: initial_token count, partitioner: got %d %r" % (rc, out))
newdc = tmp("newdc.yaml", "initial_token: 0\npartitioner: Murmur3Partitioner\n"
             "endpoint_snitch: GossipingPropertyFileSnitch\n")
rc, out, err = run(TOPO + ["check", "--yaml", newdc, "--rackdc",
                           tmp("dc9.properties", "dc=east\nrack=r1\nprefer_local=yes\n")])
check(rc == 5 and "initial_token was set but num_tokens is not!" in out
      and "prefer_local=yes is read as false" in out
      and "dc=east is a new datacenter" in out and "auto_bootstrap is not set (true)" in out,
      "check: initial_token without num_tokens, prefer_local, a new datacenter: got %d %r"
      % (rc, out))
# a RandomPartitioner cluster (real 5.0.6 output): a token already taken, written with a
# leading zero
ryaml = tmp("random.yaml", "num_tokens: 4\ninitial_token: 043670719200469348867329696283634648000,"
            "1,2,3\npartitioner: org.apache.cassandra.dht.RandomPartitioner\n"
            "endpoint_snitch: GossipingPropertyFileSnitch\n")
rc, out, err = run(["--nodetool-ring", os.path.join("captured", "5.0.6-random-ring.txt"),
                    "--keyspace", "ks_nts=dc1=2,dc2=1", "check", "--yaml", ryaml])
check(rc == 5 and "ok: dc1: 2 nodes in 2 racks (r1 1, r2 1), num_tokens 4" in out
      and "initial_token 043670719200469348867329696283634648000 is node 127.0.0.2's" in out
      and "partitioner" not in out,
      "check on a RandomPartitioner ring: got %d %r %r" % (rc, out, err))
# a ByteOrderedPartitioner ring: a taken token in upper case, a token given twice in two
# forms, a token that is no hex
byaml = tmp("bop.yaml", "num_tokens: 4\ninitial_token: 7A,0f,f,zz\n"
            "partitioner: ByteOrderedPartitioner\nendpoint_snitch: GossipingPropertyFileSnitch\n")
rc, out, err = run(["--topology", os.path.join("samples", "partitioned",
                                               "byteordered_toy.topology.tsv"),
                    "check", "--yaml", byaml])
check(rc == 5 and "initial_token 7A is node 10.0.1.2's" in out
      and "initial_token lists f twice" in out
      and "initial_token (line 2): " in out and "zz" in out,
      "check on a ByteOrderedPartitioner ring: got %d %r %r" % (rc, out, err))
for text, where, what in (("num_tokens:\n  - 1\n", "2:3", "found a list"),
                          ("num_tokens: [1]\n", "1:13", "expected a single value"),
                          ("num_tokens: 1\nnum_tokens: 2\n", "2:1", "set twice"),
                          ("num_tokens: '16\n", "1:13", "not closed")):
    path = tmp("bad.yaml", text)
    rc, out, err = run(TOPO + ["check", "--yaml", path])
    check(rc == 3 and out == "" and ("%s:%s:" % (path, where)) in err and what in err,
          "check --yaml %r: want exit 3 at %s (%s), got %d %r" % (text, where, what, rc, err))
# a node joining a rack of a datacenter with fewer racks than the allocator's factor
dc2 = tmp("dc2.properties", "dc=dc2\nrack=r1\n")
alloc = tmp("alloc.yaml", "num_tokens: 8\nallocate_tokens_for_local_replication_factor: 3\n"
        "partitioner: Murmur3Partitioner\nendpoint_snitch: GossipingPropertyFileSnitch\n")
rc, out, err = run(TOPO + ["--keyspace", "ks=dc1=3,dc2=3", "check", "--yaml", alloc, "--rackdc",
                           dc2])
check(rc == 5 and "error: node (new node): dc2 has 2 racks, fewer than the factor 3: Cassandra's "
      "allocator refuses the bootstrap" in out,
      "check: a join the allocator refuses (racks < factor): got %d %r" % (rc, out))
rc, out, err = run(TOPO + ["check", "--node", "a1"])
check(rc == 2 and "give them" in err, "check --node alone: want a usage error, got %d" % rc)

# ------------------------------------------------------ help, did you mean
rc1, h1, _ = run(["help", "ring"])
rc2, h2, _ = run(["ring", "--help"])
check(rc1 == 0 and rc2 == 0 and h1 == h2 and h1.startswith("Usage: tokenring [OPTIONS] ring "
      "[KEYSPACE]\n") and "decommission KEYSPACE" not in h1 and "Commands:" not in h1
      and max(len(l) for l in h1.split("\n")) <= 80,
      "help ring / ring --help: want that command's help only, got %r" % h1[:300])
rc, full, _ = run(["help"])
rc2, full2, _ = run(["--help"])
check(rc == 0 and full == full2 and "Commands:" in full, "tokenring help: want the full help")
for args, want in ((["statu"], "unknown command 'statu' (see tokenring --help); did you mean "
                                "'status'?"),
                   (["help", "rnig"], "did you mean 'ring'?"),
                   (["getendpoints", "dem", "k"], "unknown keyspace 'dem' (known: demo); did "
                                                  "you mean 'demo'?"),
                   (["balance", "demo", "--dc", "datacentre1"],
                    "balance --dc: unknown datacenter 'datacentre1' (known: datacenter1); did you mean "
                    "'datacenter1'?"),
                   (["availability", "demo", "--cl", "LOCAL_ONE", "--local-dc", "datacenter"],
                    "did you mean 'datacenter1'?"),
                   (["--topolgy", "x", "ring"], "did you mean '--topology'?")):
    rc, out, err = run(args)
    check(rc == 2 and out == "" and want in err, "%s: want exit 2 with %r, got %d %r"
          % (args, want, rc, err))
rc, out, err = run(["--keyspace", "ks=datacentre1=3", "getendpoints", "ks", "a"])
# Cassandra answers such a keyspace (no replica anywhere): a warning with the hint, exit 0
check(rc == 0 and "no replica" in err and "did you mean 'datacenter1'?" in err,
      "a replication's mistyped datacenter: "
      "got %d %r" % (rc, err))
rc, out, err = run(["check", "nodemo"])
check(rc == 2 and "did you mean 'demo'?" in err, "check with a mistyped keyspace: got %r" % err)

# ------------------------------------------------------ ring as nodetool prints it
rc, out, err = run(TOPO + ["--keyspace", "a=dc1=3", "--keyspace", "b=dc1=2", "ring"])
check(rc == 0 and out.startswith("\nDatacenter: dc1\n==========\n")
      and "\n\nDatacenter: dc2\n" in out and "\n\n\nDatacenter" not in out
      and out.endswith("  To view status related info of a node use \"nodetool status\" "
                       "instead.\n\n\n  Note: Non-system keyspaces don't have the same "
                       "replication settings, effective ownership information is "
                       "meaningless\n"),
      "ring: want Ring.java's blank lines and the indented Note, got %r ... %r"
      % (out[:40], out[-200:]))
rc, out, err = run(["--nodetool-ring", ring50, "--keyspace", "ks=datacenter1=1", "ring", "ks"])
with open(os.path.join(DATA, ring50)) as f:
    sample = f.read()
strip = lambda t: [l.rstrip() for l in t.strip("\n ").split("\n")]
mine, real = strip(out), strip(sample)  # the sample was pasted without the warning lines
check(rc == 0 and out.endswith("status\" instead.\n\n\n  ") and mine[:len(real)] == real
      and mine[len(real):] == ["", "  Warning: \"nodetool ring\" is used to output all the "
                               "tokens of a node.", "  To view status related info of a node "
                               "use \"nodetool status\" instead."],
      "ring: the real 5.0 output (trailing blanks aside; nodetool ends with a blank line and "
      "two spaces), got %r" % out[-120:])
# real 5.0.6 outputs, every byte (RandomPartitioner and ByteOrderedPartitioner clusters,
# two keyspaces of different replication: '?' and the Note)
for part in ("random", "byteordered"):
    path = os.path.join("captured", "5.0.6-%s-ring.txt" % part)
    rc, out, err = run(["--nodetool-ring", path, "--keyspace", "ks_simple=SimpleStrategy:2",
                        "--keyspace", "ks_nts=dc1=2,dc2=1", "ring"])
    with open(os.path.join(DATA, path), newline="") as f:
        check(rc == 0 and out == f.read(), "ring on %s: not byte-identical to nodetool's" % path)
ring310 = os.path.join("samples", "ring-3.10-2dc-9nodes-single-token.txt")
with open(os.path.join(DATA, ring310)) as f:
    header = [l for l in f.read().split("\n") if l.startswith("Address")][0]
for version, width in (("3.10", 9), ("4.0.19", 14), (None, 14)):
    rc, out, err = run(["--nodetool-ring", ring310] +
                       (["--cassandra-version", version] if version else []) + ["ring"])
    got = [l for l in out.split("\n") if l.startswith("Address")]
    check(rc == 0 and got and got[0].index("Rack") == width + 2
          and (version != "3.10" or got[0].rstrip() == header),
          "ring --cassandra-version %s: the address column is %d wide (3.x: no port), got %r"
          % (version, width, got[:1]))
for version, want in (("4.2", "Cassandra version '4.2': unknown release line 4.2 (the "
                              "library knows 1.2, 2.0 to 2.2, 3.0 to 3.11, 4.0, 4.1, 5.0 and "
                              "6.0)"),
                      ("6.1", "unknown release line 6.1"), ("7.0.0", "unknown release line 7.0")):
    rc, out, err = run(["--cassandra-version", version, "ring"])
    check(rc == 2 and out == "" and want in err, "--cassandra-version %s: want exit 2 with %r, "
          "got %d %r" % (version, want, rc, err))
# 6.0: accepted; the sets, ranges, Owns and order of 5.0 without a history (getendpoints and
# describering say the order is the tokens' and 6.0's follows the history), the history's
# order with --history; nodetool's layouts of 5.0 (ports); token allocation 5.0's (its
# classes are 5.0.9's), said on stderr
TOPO12 = ["--topology", "replicas_12n_3racks_vn16.topology.tsv", "--keyspace",
          "ks=dc1=5"]
for cmd in (["getendpoints", "ks", "k1", "k2"], ["describering", "ks"], ["status", "ks"],
            ["ring"]):
    rc5, out5, err5 = run(TOPO12 + ["--cassandra-version", "5.0.9"] + cmd)
    rc6, out6, err6 = run(TOPO12 + ["--cassandra-version", "6.0-alpha2"] + cmd)
    check(rc5 == rc6 == 0 and out5 == out6, "%s: 6.0 without a history differs from 5.0" % cmd)
    shows_order = cmd[0] in ("getendpoints", "describering")
    check(("6.0 orders each range by the cluster's history" in err6) == shows_order and
          ("replica order: from the tokens (Cassandra 3.2 to 5.0's rule; 6.0 follows" in err5)
          == shows_order, "%s: the order's rule said where an order shows: %r %r"
          % (cmd, err5, err6))
H6 = ["--history", os.path.join("cassandra6", "live_stage.script")]
rc, out, err = run(H6 + ["--cassandra-version", "6.0-alpha2", "getendpoints", "ks_simple", "k1"])
check(rc == 0 and "replayed from the history" in err and "from the tokens" not in err,
      "--cassandra-version 6.0 --history: the history's order, said: %d %r" % (rc, err))
rc, out, err = run(["--cassandra-version", "6.0", "generatetokens", "--nodes", "9",
                    "--num-tokens", "4", "--rf", "3", "--racks", "3,3,3", "--as-cassandra",
                    "--first-token", "0"])
rc5, out5, err5 = run(["--cassandra-version", "5.0.9", "generatetokens", "--nodes", "9",
                       "--num-tokens", "4", "--rf", "3", "--racks", "3,3,3", "--as-cassandra",
                       "--first-token", "0"])
check(rc == rc5 == 0 and out == out5 and "token allocation as 5.0's (6.0-alpha2's allocator "
      "classes are 5.0.9's; compared, not run)" in err,
      "6.0 token allocation: 5.0's, said: %d %r" % (rc, err))

# ------------------------------------------------------------------ goldens
# (exit code, output): check's findings for a node about to join with a new rack, a
# num_tokens unlike its datacenter's and an allocator factor unlike one keyspace's
GOLDEN_CASES = [
    ("check-2dc-node", 4, TOPO + ["--keyspace", "ks=dc1=3,dc2=2", "--keyspace", "logs=dc1=2",
                                  "check", "--yaml", "check/cassandra.yaml", "--rackdc",
                                  "check/cassandra-rackdc.properties", "--node", "10.0.0.7"]),
    ("check-2dc-json", 4, TOPO + ["--keyspace", "ks=dc1=3,dc2=3", "check", "--json"]),
    ("check-sample-owns", 4, ["--nodetool-ring", ring50, "--keyspace", "ks=datacenter1=2",
                              "check", "ks"]),
    ("help-check", 0, ["help", "check"]),
    ("help-ring", 0, ["ring", "--help"]),
]
for name, code, args in GOLDEN_CASES:
    rc, out, err = run(args)
    if not check(rc == code, "golden %s: exit %d (want %d): %s" % (name, rc, code, err)):
        continue
    path = os.path.join(GOLDEN, name + ".out")
    if UPDATE:
        with open(path, "w", newline="") as f:
            f.write(out)
        continue
    with open(path, newline="") as f:
        check(out == f.read(), "golden %s: output differs from %s" % (name, path))

# Cassandra 6.0-alpha2's real cqlsh output (WARNING line, fast_path column, release_version
# 6.0-alpha2 in system.local and 6.0.0-alpha2 in peers_v2): the ring and the Owns of its
# nodetool status; system_cluster_metadata skipped (placed on the CMS members only)
CQ6 = []
for f in ("peers_v2", "local", "system_schema-keyspaces"):
    CQ6 += ["--cqlsh", os.path.join("captured", "6.0-alpha2-cqlsh-%s.txt" % f)]
rc, out, err = run(CQ6 + ["status", "system_distributed"])
with open(os.path.join(DATA, "captured", "6.0-alpha2-status.txt")) as f:
    want = sorted(l.split()[1] + " " + l.split()[-3] for l in f if l.startswith("UN "))
got = sorted(l.split()[1] + " " + l.split()[-3] for l in out.split("\n") if l.startswith("UN "))
check(rc == 0 and got == want and len(got) == 2,
      "6.0 cqlsh rows: status system_distributed %r, nodetool said %r" % (got, want))
# the tokens of each node: those of 6.0's nodetool ring
rc, out, _ = run(CQ6 + ["ring"])
with open(os.path.join(DATA, "captured", "6.0-alpha2-ring.txt")) as f:
    want = sorted((l.split()[0], l.split()[-1]) for l in f if l.startswith("127."))
got = sorted((l.split()[0], l.split()[-1]) for l in out.split("\n") if l.startswith("127."))
check(rc == 0 and got == want and len(got) == 32, "6.0 cqlsh rows: ring's tokens differ from "
      "nodetool ring's (%d against %d)" % (len(got), len(want)))
check("system_cluster_metadata (MetaStrategy)" in err,
      "6.0 cqlsh rows: the CMS keyspace skipped and said: %r" % err)
rc, out, err = run(CQ6 + ["getendpoints", "system_cluster_metadata", "k"])
check(rc != 0 and "system_cluster_metadata" in err,
      "the CMS keyspace is not a keyspace of the ring: %d %r" % (rc, err))
with tempfile.TemporaryDirectory() as tmp:
    cql = os.path.join(tmp, "schema.cql")
    with open(cql, "w") as f:
        f.write("CREATE KEYSPACE system_cluster_metadata WITH replication = {'class': "
                "'org.apache.cassandra.locator.NetworkTopologyStrategy', 'dc1': '1'} AND "
                "durable_writes = true AND fast_path = 'simple';\n"
                "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', "
                "'dc1': '2'} AND durable_writes = true AND fast_path = 'simple';\n")
    rc, out, err = run(CQ6[:4] + ["--schema", cql, "status", "ks"])
    check(rc == 0, "DESCRIBE with 6.0's CMS keyspace and fast_path: %d %r" % (rc, err))
    rc, out, err = run(CQ6[:4] + ["--schema", cql, "status", "system_cluster_metadata"])
    check(rc != 0, "DESCRIBE: the CMS keyspace skipped: %d %r" % (rc, err))

# concurrent: needs --history; a bad operation named by its place
rc, out, err = run(["concurrent", "join 10.0.0.1 5"])
check(rc == 2 and "give the cluster's history with --history FILE" in err,
      "concurrent without --history: %d %r" % (rc, err))
H12 = ["--history", os.path.join("cassandra6", "concurrent_12n.script")]
rc, out, err = run(H12 + ["concurrent", "join 10.0.1.13 50", "leave 10.0.9.9"])
check(rc != 0 and "operation 2 ('leave 10.0.9.9')" in err and "not registered" in err,
      "concurrent: a bad operation: %d %r" % (rc, err))
rc, out, err = run(H12 + ["concurrent"])
check(rc == 2 and "usage" in err, "concurrent without operations: %d %r" % (rc, err))

# --history under --budget and --progress (tokenring_history_replay_limited)
H6S = ["--history", os.path.join("cassandra6", "nts_2dc_3racks_vnodes.script")]
rc, out, err = run(H6S + ["--budget", "0.000001", "getendpoints", "ks_dc1_3", "k"])
check(rc == 2 and "--history" in err and "replaying the history: estimated" in err
      and "give --budget SECONDS (or --budget unlimited)" in err,
      "--history above --budget: %d %r" % (rc, err))
rc, out, err = run(H6S + ["--progress", "getendpoints", "ks_dc1_3", "k"])
check(rc == 0 and "tokenring: replaying the history: 0/" in err and out.strip(),
      "--history --progress: %d %r" % (rc, err))
rc, out, err = run(H6S + ["--budget", "unlimited", "getendpoints", "ks_dc1_3", "k"])
check(rc == 0 and out.strip(), "--history --budget unlimited: %d %r" % (rc, err))

if failures:
    print("%d check(s) failed" % len(failures))
    sys.exit(1)
print("all checks passed")
