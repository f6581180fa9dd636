#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Plans an operator follows: `migrate-num-tokens` keeps every datacenter it does not
migrate and each keyspace's factor, refuses SimpleStrategy across datacenters and an input
without keyspaces, pins clients first and repairs after the rebuild; `decommission`
refuses what Cassandra 4.0+ refuses (every keyspace, --force); join, pending and
generatetokens name the library's plan and Cassandra's allocator; --emit prints what a
node takes, --write-topology the cluster after a change, which the next command reads.

Exact outputs (stdout, stderr and exit code) are compared with golden/plans-*.txt.

    python3 tests/cli/plans.py build/tools/tokenring tests/data [--update]
"""
import os
import re
import subprocess
import sys
import tempfile

TOOL = os.path.abspath(sys.argv[1])
DATA = sys.argv[2]
UPDATE = "--update" in sys.argv
GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")
TMP = tempfile.mkdtemp(prefix="tokenring-plans-")
TWO = "replicas_2dc_3r_2r_vn8.topology.tsv"  # dc1: a0..a5 (3 racks), dc2: b0..b3 (2 racks)
failures = []
checks = 0


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        failures.append(what)
        print("FAIL:", what)
    return cond


def run(args):
    p = subprocess.run([TOOL] + args, capture_output=True, text=True, cwd=DATA)
    return p.returncode, p.stdout, p.stderr


def ok(args):
    rc, out, err = run(args)
    check(rc == 0, "%s: exit %d: %s" % (args, rc, err.strip()))
    return out


W = os.path.join("samples", "written") + os.sep
SYSTEM_2DC = ["--keyspace", "system_auth=dc1=3,dc2=3", "--keyspace",
              "system_distributed=dc1=3,dc2=3", "--keyspace", "system_traces=dc1=2,dc2=2"]
# the first node of each rack takes evenly spaced tokens: no allocator, so exact goldens
MIGRATE = ["migrate-num-tokens", "--num-tokens", "4", "--nodes", "3", "--racks", "1,1,1"]

GOLDEN_CASES = [
    # 1. two datacenters, dc2 migrated: dc1 is in every ALTER as it was, factors kept
    ("migrate-2dc", ["--topology", TWO, "--keyspace", "shop=dc1=3,dc2=2", "--keyspace",
                     "dc1only=dc1=3"] + SYSTEM_2DC + MIGRATE + ["--dc", "dc2", "--new-dc",
                                                                 "dc3"]),
    # --rf given: the plan says it replaces the factors
    ("migrate-2dc-rf", ["--topology", TWO, "--keyspace", "shop=dc1=3,dc2=2"] + SYSTEM_2DC +
     MIGRATE + ["--dc", "dc2", "--new-dc", "dc3", "--rf", "3"]),
    # one datacenter, SimpleStrategy system keyspaces: NTS first, system_auth kept at 0
    ("migrate-1dc-simple", ["--keyspace", "system_auth=SimpleStrategy:3", "--keyspace",
                            "system_distributed=SimpleStrategy:3", "--keyspace",
                            "system_traces=SimpleStrategy:2"] + MIGRATE + ["--new-dc", "dc2"]),
    # refusals: SimpleStrategy across datacenters, an input without keyspaces; a warning
    # for system keyspaces the input does not know
    ("migrate-refuse-simple-2dc", ["--topology", TWO, "--keyspace", "shop=dc1=3,dc2=2",
                                   "--keyspace", "system_auth=SimpleStrategy:3", "--keyspace",
                                   "system_traces=SimpleStrategy:2"] + MIGRATE +
     ["--dc", "dc2", "--new-dc", "dc3"]),
    # the cluster: a 5.0 schema, system keyspaces SimpleStrategy, two datacenters
    ("migrate-refuse-schema-5.0", ["--cqlsh", W + "cqlsh-peers_v2-2dc_3r_2r_vn8.txt",
                                   "--cqlsh", W + "cqlsh-local-2dc_3r_2r_vn8.txt", "--schema",
                                   W + "cqlsh-system_schema-keyspaces-5.0.txt"] + MIGRATE +
     ["--dc", "dc2", "--new-dc", "dc3"]),
    ("migrate-refuse-no-keyspace", ["--topology", TWO] + MIGRATE + ["--dc", "dc2", "--new-dc",
                                                                    "dc3"]),
    ("migrate-warn-system", ["--topology", TWO, "--keyspace", "shop=dc1=3,dc2=2"] + MIGRATE +
     ["--dc", "dc2", "--new-dc", "dc3"]),
    # 2. decommission: refused for another keyspace than the one named (dc2 has 4 nodes)
    ("decommission-refused", ["--topology", TWO, "--keyspace", "shop=dc1=3,dc2=2",
                              "--keyspace", "big=dc1=3,dc2=4", "--keyspace",
                              "sd=SimpleStrategy:10", "decommission", "shop", "b0"]),
    ("decommission-force", ["--topology", TWO, "--keyspace", "shop=dc1=3,dc2=2",
                            "--keyspace", "big=dc1=3,dc2=4", "decommission", "shop", "b0",
                            "--force"]),
    # Cassandra's other refusals: a joining node is no member yet
    ("decommission-joining", ["--nodetool-status",
                              os.path.join("samples", "status-5.0-uj-joining-vnodes16.txt"),
                              "--nodetool-ring",
                              os.path.join("samples", "ring-5.0-joining-node-vnodes16.txt"),
                              "--keyspace", "ks=datacenter1=2", "decommission", "ks",
                              "172.16.0.12"]),
    ("decommission-3.11", ["--topology", TWO, "--keyspace", "big=dc1=3,dc2=4",
                           "--cassandra-version", "3.11.17", "decommission", "big", "b0"]),
    # 4. the library's plan next to Cassandra's allocator
    ("join-demo-names", ["join", "demo", "10.0.0.9", "--num-tokens", "4"]),
    ("join-demo-as-cassandra", ["join", "demo", "10.0.0.9", "--num-tokens", "4",
                                "--as-cassandra"]),
    # 12. what a node takes
    ("join-emit-yaml", ["join", "demo", "10.0.0.9", "--num-tokens", "4", "--emit", "yaml"]),
    ("join-emit-rackdc", ["--topology", TWO, "--keyspace", "shop=dc1=3,dc2=2", "join", "shop",
                          "b9", "--dc", "dc2", "--rack", "r2", "--initial-token", "1,2",
                          "--emit", "rackdc"]),
    ("generatetokens-emit-yaml", ["generatetokens", "--nodes", "3", "--num-tokens", "4",
                                  "--rf", "3", "--racks", "1,1,1", "--as-cassandra",
                                  "--first-token", "0", "--emit", "yaml"]),
    ("generatetokens-emit-initial-token", ["generatetokens", "--nodes", "2", "--num-tokens", "2",
                                           "--layout", "even", "--emit", "initial-token"]),
    ("emit-json-refused", ["join", "demo", "10.0.0.9", "--emit", "yaml", "--json"]),
    ("write-topology-refused", ["ring", "--write-topology", "x.topo"]),
    ("force-refused", ["join", "demo", "10.0.0.9", "--force"]),
]


def golden():
    for name, args in GOLDEN_CASES:
        rc, out, err = run(args)
        text = "$ tokenring %s\nexit %d\n--- stdout\n%s--- stderr\n%s" % (
            " ".join(args), rc, out, err)
        path = os.path.join(GOLDEN, "plans-%s.txt" % name)
        if UPDATE:
            with open(path, "w") as f:
                f.write(text)
            continue
        if not check(os.path.exists(path), "golden %s: missing %s (run with --update)"
                     % (name, path)):
            continue
        with open(path) as f:
            check(f.read() == text, "golden %s: differs from %s" % (name, path))


def steps(out):
    return [re.sub(r"^\s*\d+\. ", "", l) for l in out.split("Steps:\n", 1)[1].splitlines()
            if l.strip()]


def migrate_checks():
    out = ok(["--topology", TWO, "--keyspace", "shop=dc1=3,dc2=2", "--keyspace",
              "dc1only=dc1=3"] + SYSTEM_2DC + MIGRATE + ["--dc", "dc2", "--new-dc", "dc3"])
    st = steps(out)
    alters = [s for s in st if "ALTER KEYSPACE" in s]
    check(alters and all("'dc1': '" in s for s in alters),
          "migrate: every ALTER keeps dc1: %r" % alters)
    check(not any("dc1only" in s for s in alters), "migrate: a keyspace without dc2 replicas "
                                                   "is not altered")
    first_alter = min(i for i, s in enumerate(st) if "ALTER" in s)
    pin = [i for i, s in enumerate(st) if s.startswith("clients: before any change")]
    check(pin and pin[0] < first_alter, "migrate: clients pinned before any ALTER")
    rebuild = max(i for i, s in enumerate(st) if "nodetool rebuild" in s)
    repairs = [i for i, s in enumerate(st) if "nodetool repair -full" in s]
    switch = [i for i, s in enumerate(st) if s.startswith("clients: switch")]
    check(repairs and min(repairs) > rebuild and switch and switch[0] > max(repairs),
          "migrate: repair after the rebuild, then the switch of clients")
    decom = [i for i, s in enumerate(st) if "nodetool decommission" in s]
    drops = [i for i, s in enumerate(st) if "ALTER" in s and "'dc2'" not in s]
    check(decom and drops and max(i for i in drops if i < min(decom)) < min(decom),
          "migrate: dc2 leaves the keyspaces before its nodes are decommissioned")
    check("'dc3': '2'" in alters[0] or any("shop" in s and "'dc3': '2'" in s for s in alters),
          "migrate: shop keeps its factor 2 in dc3")
    # the nodes' cassandra.yaml lines carry what a node takes
    m = re.search(r"initial_token: ([-0-9,]+), auto_bootstrap: false", out)
    check(m and len(m.group(1).split(",")) == 4, "migrate: initial_token comma-separated")


def decommission_checks():
    base = ["--topology", TWO, "--keyspace", "shop=dc1=3,dc2=2"]
    ok(base + ["decommission", "shop", "b0"])  # dc2: 4 nodes > 2
    rc, out, err = run(base + ["--keyspace", "t=dc2=4", "decommission", "shop", "b0"])
    check(rc == 2 and out == "" and "Not enough live nodes to maintain replication factor in "
          "keyspace t (RF = 4, N = 4). Perform a forceful decommission to ignore." in err,
          "decommission refused for another keyspace: %d %r" % (rc, err))
    # a dc1 node is not counted against dc2's factor
    ok(base + ["--keyspace", "t=dc2=4", "decommission", "shop", "a0"])
    # SimpleStrategy counts every node of the ring (10)
    rc, _, err = run(base + ["--keyspace", "s=SimpleStrategy:10", "decommission", "shop", "a0"])
    check(rc == 2 and "keyspace s (RF = 10, N = 10)" in err, "SimpleStrategy: N = ring: %r" % err)
    ok(base + ["--keyspace", "s=SimpleStrategy:9", "decommission", "shop", "a0"])
    one = os.path.join(TMP, "one.topo")
    with open(one, "w") as f:
        f.write("node a dc=dc1 rack=r1 tokens=1\n")
    rc, out, err = run(["--topology", one, "--keyspace", "k=SimpleStrategy:1", "decommission",
                        "k", "a", "--force"])
    check(rc == 2 and "no other normal nodes in the ring; decommission would be pointless"
          in err, "the only node: refused even with --force: %r" % err)
    # a node already leaving: Cassandra checks nothing again
    w = os.path.join("samples", "written", "ring-4.x-states-toy.txt")
    leaving = [l.split()[0] for l in open(os.path.join(DATA, w)) if " Leaving " in l]
    if check(leaving, "the states sample has a leaving node"):
        ok(["--nodetool-ring", w, "--keyspace", "ks=SimpleStrategy:99", "decommission", "ks",
            leaving[0]])
    rc, out, err = run(base + ["--keyspace", "t=dc2=4", "decommission", "shop", "b0", "--force"])
    check(rc == 0 and "Streams:" in out and "--force" in err, "--force plans it, with a warning")


def naming_checks():
    j = ok(["join", "demo", "10.0.0.9", "--num-tokens", "4"])
    check("4 tokens: the library's plan)" in j and "from the allocator" not in j,
          "join names the library's plan: %r" % j.splitlines()[0])
    jc = ok(["join", "demo", "10.0.0.9", "--num-tokens", "16", "--as-cassandra"])
    p = ok(["pending", "demo", "10.0.0.9", "--rack", "rack1"])
    check("Cassandra 5.0's allocator" in jc.splitlines()[0] and
          "Cassandra 5.0's allocator" in p.splitlines()[0],
          "join --as-cassandra and pending both name Cassandra's allocator")
    tok = lambda out: re.search(r"^Tokens: (.*)$", out, re.M).group(1)
    check(tok(jc) == tok(p), "pending shows the tokens join --as-cassandra names Cassandra's")
    g = ok(["generatetokens", "--nodes", "1", "--num-tokens", "4", "--rf", "3"])
    check(g.splitlines()[0].endswith(": the library's plan"), "generatetokens names its plan")


def emit_checks():
    plain = ok(["generatetokens", "--nodes", "3", "--num-tokens", "4", "--rf", "3", "--racks",
                "1,1,1", "--as-cassandra", "--first-token", "0"])
    want = [l.split(": [", 1)[1].rstrip("]").replace(", ", ",")
            for l in plain.splitlines() if l.startswith("Node ")]
    y = ok(["generatetokens", "--nodes", "3", "--num-tokens", "4", "--rf", "3", "--racks",
            "1,1,1", "--as-cassandra", "--first-token", "0", "--emit", "yaml"])
    got = re.findall(r"^initial_token: (\S+)$", y, re.M)
    check(got == want, "--emit yaml: the tokens of the plan, comma-separated: %r" % got)
    check(re.findall(r"^num_tokens: (\d+)$", y, re.M) == ["4"] * 3 and
          y.count("allocate_tokens_for_local_replication_factor: 3\n") == 3,
          "--emit yaml: num_tokens and the allocation setting per node")
    j = ok(["join", "demo", "10.0.0.9", "--num-tokens", "4"])
    e = ok(["join", "demo", "10.0.0.9", "--num-tokens", "4", "--emit", "initial-token"])
    check(re.search(r"^Tokens: (.*)$", j, re.M).group(1) ==
          re.search(r"^initial_token: (.*)$", e, re.M).group(1),
          "join --emit initial-token: the join's tokens")


def topology_checks():
    f = os.path.join(TMP, "joined.topo")
    out = ok(["join", "demo", "10.0.0.9", "--initial-token", "0,4611686018427387904",
              "--write-topology", f])
    check(os.path.exists(f) and "Streams:" in out, "join --write-topology writes the file")
    ring = ok(["--topology", f, "ring", "demo"])
    check(re.search(r"^10\.0\.0\.9 .* 0 +$", ring, re.M) is not None and
          re.search(r"^10\.0\.0\.9 .* 4611686018427387904 +$", ring, re.M) is not None,
          "the written topology holds the joined node's tokens")
    # the next command on it: decommissioning the joined node gives the demo ring back
    g = os.path.join(TMP, "left.topo")
    ok(["--topology", f, "decommission", "demo", "10.0.0.9", "--write-topology", g])
    check(ok(["--topology", g, "convert"]) == ok(["convert"]),
          "join then decommission through written topologies: the demo ring again")
    # status on the written file equals the ring the join printed after
    st = ok(["--topology", f, "status", "demo"])
    check("10.0.0.9" in st, "status reads the written topology")
    for name, args, present, absent in (
            ("replace", ["replace", "demo", "10.0.0.3", "10.0.0.33"], "10.0.0.33", "10.0.0.3 "),
            ("removenode", ["removenode", "demo", "10.0.0.3"], "10.0.0.1", "10.0.0.3 "),
            ("move", ["move", "demo", "10.0.0.2", "--initial-token", "42"], "tokens=42",
             None)):
        h = os.path.join(TMP, name + ".topo")
        ok(args + ["--write-topology", h])
        text = ok(["--topology", h, "convert"])
        check(present in text and (absent is None or absent not in text),
              "%s --write-topology: %r in, %r out" % (name, present, absent))
    # a RandomPartitioner ring
    rt = os.path.join("samples", "partitioned", "random_toy.topology.tsv")
    h = os.path.join(TMP, "random.topo")
    ok(["--topology", rt, "--partitioner", "random", "--keyspace", "ks=SimpleStrategy:2",
        "join", "ks", "R9", "--rack", "r1", "--initial-token", "12345678901234567890123",
        "--write-topology", h])
    text = ok(["--topology", h, "--partitioner", "random", "ring"])
    check("12345678901234567890123" in text, "random ring written and read back")


golden()
migrate_checks()
decommission_checks()
naming_checks()
emit_checks()
topology_checks()
print("%d checks, %d failures" % (checks, len(failures)))
sys.exit(1 if failures else 0)
