#!/usr/bin/env python3
"""Tests of the `tokenring` command-line tool, run by `meson test --suite cli`.

usage: run.py TOOL DATA_DIR [--update] [--only GROUP]

Groups:
  golden     every subcommand on the demo ring, the golden-vector topologies and real
             samples, compared with tests/cli/golden/*.out (--update rewrites them)
  vectors    getendpoints, describering and token against tests/data/replicas_*.tsv,
             status and ring against tests/data/ownership_*.tsv (the vectors decide, not
             the golden files)
  samples    every real sample parses (or fails as expected), describering and
             getendpoints samples reproduced from the ring they describe
  roundtrip  every input format -> topology file -> the same nodes and the same ring
  errors     malformed inputs (FILE:LINE:COLUMN and the expectation) and exit codes
  analyses   generatetokens, join, decommission, replace, availability, balance and
             migrate-num-tokens: properties that hold whatever the allocator chooses
  rules      --cassandra-version: releases before 3.2 order replicas differently (same
             sets), 3.2 and later as the default; bad versions are usage errors
  cassandra  generatetokens and join --as-cassandra against what Cassandra itself chose:
             its generatetokens documentation, a real two-node 5.0 cluster, the vectors
"""
import bisect
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
from collections import OrderedDict, defaultdict

TOOL = os.path.abspath(sys.argv[1])
DATA = sys.argv[2]
UPDATE = "--update" in sys.argv
ONLY = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "golden")
SAMPLES = os.path.join(DATA, "samples")
TMP = tempfile.mkdtemp(prefix="tokenring-cli-")

failures = []
checks = 0


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        failures.append(what)
        print("FAIL:", what)
    return cond


def run(args, stdin=None):
    p = subprocess.run([TOOL] + args, input=stdin.encode() if stdin is not None else None,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=DATA)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def ok(args, stdin=None):
    rc, out, err = run(args, stdin)
    check(rc == 0, "%s: exit %d, stderr %r" % (args, rc, err[:300]))
    return out


def js(args, stdin=None):
    return json.loads(ok(args + ["--json"], stdin))


def tmpfile(name, text, newline="\n"):
    path = os.path.join(TMP, name)
    with open(path, "w", newline="") as f:
        f.write(text.replace("\n", newline))
    return path


def read_tsv(path):
    with open(path) as f:
        head = f.readline().rstrip("\n").split("\t")
        return [dict(zip(head, l.rstrip("\n").split("\t"))) for l in f if l.strip()]


def repl_spec(strategy, options):
    return ("SimpleStrategy:" if strategy == "SimpleStrategy"
            else "NetworkTopologyStrategy:") + options


def f32_bits(x):
    return struct.pack(">f", x).hex()


# ------------------------------------------------------------------ golden

def golden_cases():
    t = lambda n: "replicas_%s.topology.tsv" % n
    s = lambda n: os.path.join("samples", n)
    w = lambda n: os.path.join("samples", "written", n)
    cases = [
        ("help", ["--help"], None),
        ("demo", ["demo"], None),
        ("demo-json", ["demo", "--json", "user1", "user2"], None),
        ("token-demo", ["token", "alice", "bob", ""], None),
        ("token-stdin", ["token"], "alice\nbob\r\n\n"),
        ("token-json", ["token", "--json", "alice", "bob"], None),
        ("token-types", ["token", "--types", "int,text", "42:alice", "-1:b\\:c"], None),
        ("token-hex", ["token", "--hex", "0x00ff", "616c696365"], None),
        ("getendpoints-demo", ["getendpoints", "demo", "user42"], None),
        ("getendpoints-demo-multi", ["getendpoints", "demo", "a", "b", "c"], None),
        # nodetool's form KEYSPACE TABLE KEY: exactly three arguments
        ("getendpoints-demo-table", ["getendpoints", "demo", "users", "user42"], None),
        ("getendpoints-demo-stdin-two", ["getendpoints", "demo"], "a\nb\n"),
        # with --token there is no table: three arguments are KEYSPACE and two tokens
        ("getendpoints-demo-token-three", ["getendpoints", "demo", "--token", "5", "-5"],
         None),
        # after '--', '-' is the key "-", not standard input
        ("token-dashdash-dash", ["token", "--", "-"], "not-read\n"),
        # nodetool's form with the table's schema: the key read as its types (bigint,
        # text), the server's answer (tests/data/captured, cli-captured-schema)
        ("getendpoints-schema-users", ["--nodetool-ring", "captured/5.0.6-3dc-ring.txt",
                                       "--schema", "captured/5.0.6-system_schema-keyspaces.txt",
                                       "--schema", "captured/5.0.6-3dc-describe-table-Users.cql",
                                       "getendpoints", "ks_types", "Users", "-9:us\\:west"],
         None),
        # a keyspace that places no replica: nodetool's answers, with a warning
        ("status-captured-ks_dc3", ["--nodetool-ring", "captured/5.0.6-2dc-ring.txt",
                                    "--nodetool-status", "captured/5.0.6-2dc-status.txt",
                                    "--schema", "captured/5.0.6-system_schema-keyspaces.txt",
                                    "status", "ks_dc3"], None),
        ("describering-captured-ks_rf0", ["--nodetool-ring", "captured/5.0.6-3dc-ring.txt",
                                          "--schema",
                                          "captured/5.0.6-system_schema-keyspaces.txt",
                                          "describering", "ks_rf0"], None),
        ("getendpoints-demo-json", ["getendpoints", "--json", "--types", "bigint", "demo",
                                    "1", "2", "3"], None),
        ("ring-demo", ["ring"], None),
        ("ring-demo-ks", ["ring", "demo"], None),
        ("ring-demo-json", ["ring", "--json", "demo"], None),
        ("describering-demo", ["describering", "demo"], None),
        ("describering-demo-json", ["describering", "--json", "demo"], None),
        ("status-demo", ["status"], None),
        ("status-demo-json", ["status", "--json", "demo"], None),
        ("convert-demo", ["convert"], None),
        ("convert-demo-json", ["convert", "--json"], None),
        ("man", ["--man"], None),
        ("ring-pasted-1.1-dc-column", ["--input", w("ring-1.1-pasted-dc-column.txt"), "ring"],
         None),
        ("status-pasted-status-and-ring", ["--input", w("status-and-ring-5.0-pasted-joining.txt"),
                                           "status"], None),
        ("ring-random-toy", ["--topology", os.path.join("samples", "partitioned",
                             "random_toy.topology.tsv"), "--partitioner", "random",
                             "--keyspace", "ks=SimpleStrategy:2", "ring"], None),
        ("describering-random-toy", ["--topology", os.path.join("samples", "partitioned",
                                     "random_toy.topology.tsv"), "--partitioner", "random",
                                     "--keyspace", "ks=SimpleStrategy:2", "describering",
                                     "ks"], None),
        ("getendpoints-random-toy", ["--topology", os.path.join("samples", "partitioned",
                                     "random_toy.topology.tsv"), "--partitioner", "random",
                                     "--keyspace", "ks=SimpleStrategy:2", "getendpoints", "ks",
                                     "alice", "bob", "carol"], None),
        ("token-random-toy", ["--topology", os.path.join("samples", "partitioned",
                              "random_toy.topology.tsv"), "--partitioner", "random", "token",
                              "alice", "bob", "carol"], None),
        ("token-byteordered-toy-json", ["--topology", os.path.join("samples", "partitioned",
                                        "byteordered_toy.topology.tsv"), "--partitioner",
                                        "byteordered", "--json", "token", "alice", "mmmmmmmm",
                                        "zed"], None),
        ("join-random-toy", ["--topology", os.path.join("samples", "partitioned",
                             "random_toy.topology.tsv"), "--partitioner", "random",
                             "--keyspace", "ks=SimpleStrategy:2", "join", "ks", "R9",
                             "--rack", "r1", "--num-tokens", "4"], None),
        ("move-byteordered-toy", ["--topology", os.path.join("samples", "partitioned",
                                  "byteordered_toy.topology.tsv"), "--partitioner",
                                  "byteordered", "--keyspace", "ks=SimpleStrategy:2", "move",
                                  "ks", "10.0.1.3", "--initial-token", "B0"], None),
        ("pending-random-toy", ["--topology", os.path.join("samples", "partitioned",
                                "random_toy.topology.tsv"), "--partitioner", "random",
                                "--keyspace", "ks=SimpleStrategy:2", "pending", "ks", "R9",
                                "--rack", "r1", "--num-tokens", "2"], None),
        ("pending-byteordered-toy-json", ["--topology", os.path.join("samples", "partitioned",
                                          "byteordered_toy.topology.tsv"), "--partitioner",
                                          "byteordered", "--keyspace", "ks=SimpleStrategy:2",
                                          "--json", "pending", "ks", "R9", "--rack", "r1",
                                          "--initial-token", "70"], None),
        ("ring-byteordered-toy", ["--topology", os.path.join("samples", "partitioned",
                                  "byteordered_toy.topology.tsv"), "--partitioner",
                                  "byteordered", "--keyspace", "ks=SimpleStrategy:2", "ring",
                                  "ks"], None),
        ("describering-byteordered-toy", ["--topology", os.path.join("samples", "partitioned",
                                          "byteordered_toy.topology.tsv"), "--partitioner",
                                          "byteordered", "--keyspace", "ks=SimpleStrategy:2",
                                          "describering", "ks"], None),
        ("ring-toy", ["--topology", t("toy"), "--keyspace", "ks=SimpleStrategy:2", "ring",
                      "ks"], None),
        ("status-toy", ["--topology", t("toy"), "--keyspace", "ks=SimpleStrategy:2",
                        "status", "ks"], None),
        ("describering-toy", ["--topology", t("toy"), "--keyspace", "ks=SimpleStrategy:2",
                              "describering", "ks"], None),
        ("status-2dc", ["--topology", t("2dc_3r_2r_vn8"), "--keyspace", "ks=dc1=3,dc2=3",
                        "status", "ks"], None),
        ("ring-2dc", ["--topology", t("2dc_3r_2r_vn8"), "--keyspace", "ks=dc1=3,dc2=3",
                      "ring"], None),
        ("describering-2dc-transient", ["--topology", t("transient_single_token"),
                                        "--keyspace", "ks=dc1=3/1,dc2=2/1", "describering",
                                        "ks"], None),
        ("getendpoints-12n", ["--topology", t("12n_3racks_vn16"), "--keyspace",
                              "ks=dc1=5", "getendpoints", "ks", "k1", "k2", "k3"], None),
        ("status-12n-primary", ["--topology", t("12n_3racks_vn16"), "status"], None),
        ("status-single-token-layout", ["--topology", t("edges"), "status"], None),
        ("status-sample-5.0", ["--nodetool-status",
                               s("status-5.0-2dc-named-dcs-vnodes16-crlf.txt"), "status"],
         None),
        ("status-written-all-states", ["--input", w("status-4.x-all-states.txt"), "status"],
         None),
        ("status-sample-joining", ["--nodetool-status",
                                   s("status-5.0-uj-joining-vnodes16.txt"), "status"], None),
        ("ring-sample-joining", ["--nodetool-ring", s("ring-5.0-joining-node-vnodes16.txt"),
                                 "ring"], None),
        ("ring-written-states", ["--nodetool-ring", w("ring-4.x-states-toy.txt"),
                                 "--keyspace", "ks=SimpleStrategy:2", "ring", "ks"], None),
        ("status-written-states", ["--nodetool-ring", w("ring-4.x-states-toy.txt"),
                                   "--keyspace", "ks=SimpleStrategy:2", "status", "ks"],
         None),
        ("convert-cqlsh", ["--cqlsh", w("cqlsh-peers_v2-2dc_3r_2r_vn8.txt"), "--cqlsh",
                           w("cqlsh-local-2dc_3r_2r_vn8.txt"), "convert"], None),
        ("convert-status-ring-merge", ["--nodetool-status",
                                       s("status-5.0-uj-joining-vnodes16.txt"),
                                       "--nodetool-ring",
                                       s("ring-5.0-joining-node-vnodes16.txt"), "convert"],
         None),
        ("join-demo", ["join", "demo", "10.0.0.7", "--initial-token",
                       "0,4611686018427387904"], None),
        ("join-demo-json", ["join", "--json", "demo", "10.0.0.7", "--initial-token", "0"],
         None),
        ("decommission-demo", ["decommission", "demo", "10.0.0.3"], None),
        ("move-toy", ["--topology", t("toy"), "--keyspace", "ks=SimpleStrategy:2", "move", "ks",
                      "B", "--initial-token", "40,80"], None),
        ("replace-demo", ["replace", "demo", "10.0.0.3", "10.0.0.9"], None),
        ("removenode-demo", ["removenode", "demo", "10.0.0.3"], None),
        ("assassinate-demo", ["assassinate", "demo", "10.0.0.3"], None),
        ("ranges-demo", ["ranges", "demo", "10.0.0.3"], None),
        ("ranges-2dc-transient", ["--topology", t("transient_single_token"), "--keyspace",
                                  "ks=dc1=3/1,dc2=2/1", "ranges", "ks", "t1"], None),
        ("pending-sample-joining", ["--nodetool-status", s("status-5.0-uj-joining-vnodes16.txt"),
                                    "--nodetool-ring", s("ring-5.0-joining-node-vnodes16.txt"),
                                    "--keyspace", "ks=NetworkTopologyStrategy:datacenter1=2",
                                    "pending", "ks"], None),
        # the UJ row of nodetool status with the ring before the join: the joining node's
        # tokens planned as Cassandra's bootstrap chooses them
        ("pending-sample-planned", ["--nodetool-status", s("status-5.0-uj-joining-vnodes16.txt"),
                                    "--nodetool-ring",
                                    s("written/ring-5.0-before-join-vnodes16.txt"),
                                    "--keyspace", "ks=NetworkTopologyStrategy:datacenter1=3",
                                    "pending", "ks"], None),
        # a node in no input: its join planned on the ring (rack from --rack)
        ("pending-new-node", ["pending", "demo", "10.0.0.9", "--rack", "rack1"], None),
        ("availability-demo", ["availability", "demo", "--list"], None),
        ("availability-2dc-json", ["--topology", t("2dc_3r_2r_vn8"), "--keyspace",
                                   "ks=dc1=3,dc2=3", "availability", "--json", "ks", "--cl",
                                   "LOCAL_QUORUM", "--local-dc", "dc2", "--failures", "2",
                                   "--list"],
         None),
        ("availability-summary-demo", ["availability", "demo", "--cl", "ONE,QUORUM"], None),
        ("availability-summary-2dc-racks", ["--topology", t("2dc_3r_2r_vn8"), "--keyspace",
                                            "ks=dc1=3,dc2=3", "availability", "ks", "--cl",
                                            "EACH_QUORUM,LOCAL_QUORUM", "--local-dc", "dc2",
                                            "--fail", "racks", "--top", "3"], None),
        ("availability-summary-2dc-json", ["--topology", t("2dc_3r_2r_vn8"), "--keyspace",
                                           "ks=dc1=3,dc2=3", "availability", "--json", "ks",
                                           "--cl", "QUORUM", "--fail", "datacenters"], None),
        # a Down node counts as failed: what more failures break, what is unavailable already
        ("availability-down", ["--input", "samples/written/ring-4.x-states-toy.txt",
                               "--keyspace", "ks=SimpleStrategy:3", "availability", "ks",
                               "--cl", "QUORUM,ALL", "--top", "2"], None),
        # the list starts from the Down node too: the sets are of nodes still up
        ("availability-down-list", ["--input", "samples/written/ring-4.x-states-toy.txt",
                                    "--keyspace", "ks=SimpleStrategy:3", "availability", "ks",
                                    "--cl", "QUORUM", "--list"], None),
        ("balance-demo", ["balance", "demo"], None),
        ("balance-2dc-json", ["--topology", t("2dc_3r_2r_vn8"), "--keyspace", "ks=dc1=3,dc2=3",
                              "balance", "--json", "ks", "--dc", "dc1"], None),
        ("ring-describering-2.0", ["--input", s("describering-2.0-3nodes-single-token-rf3.txt"),
                                   "--keyspace", "ks=SimpleStrategy:3", "ring", "ks"], None),
        ("convert-describering-ipv6", ["--input",
                                       s("describering-3.x-ipv6-3nodes-substituted.txt"),
                                       "convert"], None),
        ("ring-written-long-racks", ["--input", w("ring-5.0-long-racks-ec2.txt"), "ring"],
         None),
        # Cassandra 6.0's order replayed from a history (tests/data/cassandra6)
        ("getendpoints-history-6.0", ["--history", os.path.join("cassandra6",
                                                                "live_stage.script"),
                                      "getendpoints", "ks_simple", "k1", "k2", "k3"], None),
        ("describering-history-6.0", ["--history", os.path.join("cassandra6",
                                                                "live_stage.script"),
                                      "describering", "ks_dc2"], None),
        # 6.0's concurrent operations: which ranges each locks, which wait
        ("concurrent-12n", ["--history", os.path.join("cassandra6", "concurrent_12n.script"),
                            "concurrent", "join 10.0.1.13 50",
                            "join 10.0.1.14 450000000000000000",
                            "join 10.0.1.15 150000000000000000", "leave 10.0.1.1"], None),
        # 6.0 without a history: 5.0's sets and order, and stderr says which rule
        ("getendpoints-12n-cassandra-6.0", ["--topology", t("12n_3racks_vn16"), "--keyspace",
                                            "ks=dc1=5", "--cassandra-version", "6.0-alpha2",
                                            "getendpoints", "ks", "k1", "k2", "k3"], None),
        ("getendpoints-12n-cassandra-3.0", ["--topology", t("12n_3racks_vn16"), "--keyspace",
                                            "ks=dc1=5", "--cassandra-version", "3.0.30",
                                            "getendpoints", "ks", "k1", "k2", "k3"], None),
        # every keyspace's replication from cqlsh's SELECT * FROM system_schema.keyspaces
        ("status-schema-shop", ["--cqlsh", w("cqlsh-peers_v2-2dc_3r_2r_vn8.txt"), "--cqlsh",
                                w("cqlsh-local-2dc_3r_2r_vn8.txt"), "--schema",
                                w("cqlsh-system_schema-keyspaces-5.0.txt"), "status", "shop"],
         None),
        ("ring-keyspaces-differ", ["--topology", t("toy"), "--keyspace",
                                   "a=SimpleStrategy:2", "--keyspace", "b=SimpleStrategy:3",
                                   "ring"], None),
    ]
    return cases


def test_help_layout():
    """--help wraps at word boundaries within 80 columns: no line is longer, and every
    word of every command's synopsis, summary and details is printed whole."""
    out = ok(["--help"])
    lines = out.split("\n")
    long = [l for l in lines if len(l) > 80]
    check(not long, "--help: %d lines longer than 80 columns: %r" % (len(long), long[:3]))
    words = set(out.split())
    man = ok(["--man"])
    for m in re.finditer(r'^\.B (\S+)(?: \\fR(.*))?$', man, re.M):
        for w in (m.group(1) + " " + (m.group(2) or "")).replace("\\-", "-").split():
            check(w in words, "--help: the synopsis word %r of %s is cut or missing"
                  % (w, m.group(1)))


def test_schema():
    """--schema: the keyspaces of system_schema.keyspaces with their replication, the
    same placements as --keyspace gives, and a note naming the skipped system keyspaces."""
    w = lambda n: os.path.join("samples", "written", n)
    nodes = ["--cqlsh", w("cqlsh-peers_v2-2dc_3r_2r_vn8.txt"), "--cqlsh",
             w("cqlsh-local-2dc_3r_2r_vn8.txt")]
    schema = ["--schema", w("cqlsh-system_schema-keyspaces-5.0.txt")]
    rc, out, err = run(nodes + schema + ["describering", "shop"])
    check(rc == 0 and "skipped 2 keyspaces whose replication places nothing on the token "
          "ring: system_schema (LocalStrategy), system (LocalStrategy)" in err,
          "--schema: want the skipped-keyspace note, got %d %r" % (rc, err))
    rc2, out2, _ = run(nodes + ["--keyspace", "shop=dc1=3,dc2=2", "describering", "shop"])
    check(rc2 == 0 and out == out2 and out.count("TokenRange(") == 80,
          "--schema: describering shop differs from --keyspace shop=dc1=3,dc2=2")
    conv = ok(nodes + schema + ["convert"])
    for line in ("keyspace system_traces {'class': 'SimpleStrategy', 'replication_factor': '2'}",
                 "keyspace audit {'class': 'NetworkTopologyStrategy', 'dc1': '3/1'}"):
        check(line in conv, "--schema convert: missing %r" % line)
    check("system_schema" not in conv, "--schema convert: a LocalStrategy keyspace was kept")
    bad = tmpfile("schema-bad.txt", " keyspace_name | replication\n---+---\n"
                  " ks | {'class': 'com.example.Custom'}\n")
    rc, out, err = run(nodes + ["--schema", bad, "ring"])
    check(rc == 3 and out == "" and "3:17: keyspace ks: unknown replication class" in err,
          "--schema with an unknown class: got %d %r" % (rc, err))


def test_pasted_columns():
    """Re-printing a pasted nodetool status keeps nodetool's columns: a script that reads
    Address, Load (two fields), Tokens, Owns and Host ID by field position gets the
    pasted values back."""
    for f in ("status-4.1-3racks-vnodes16.txt", "status-5.0-uj-joining-vnodes16.txt",
              "status-5.0-2dc-named-dcs-vnodes16-crlf.txt"):
        path = os.path.join("samples", f)
        with open(os.path.join(DATA, path), newline="") as fh:
            src = fh.read().replace("\r\n", "\n")
        rows = lambda text: sorted(l.split()[:7] for l in text.split("\n")
                                   if re.match(r"^[UD?][NJLM] ", l))
        want, got = rows(src), rows(ok(["--nodetool-status", path, "status"]))
        check(want and got == want, "status %s: pasted columns not kept: %r vs %r"
              % (f, got[:2], want[:2]))


def test_golden():
    os.makedirs(GOLDEN, exist_ok=True)
    test_pasted_columns()
    test_help_layout()
    test_schema()
    for name, args, stdin in golden_cases():
        rc, out, err = run(args, stdin)
        if not check(rc == 0, "golden %s: exit %d: %s" % (name, rc, err.strip())):
            continue
        path = os.path.join(GOLDEN, name + ".out")
        # what stderr says (notes, warnings) is golden too: NAME.err, absent when silent
        epath = os.path.join(GOLDEN, name + ".err")
        if UPDATE:
            with open(path, "w", newline="") as f:
                f.write(out)
            if err:
                with open(epath, "w", newline="") as f:
                    f.write(err)
            elif os.path.exists(epath):
                os.remove(epath)
            continue
        if not os.path.exists(path):
            check(False, "golden %s: missing %s (run with --update)" % (name, path))
            continue
        with open(path, newline="") as f:
            want = f.read()
        check(out == want, "golden %s: output differs from %s" % (name, path))
        want_err = ""
        if os.path.exists(epath):
            with open(epath, newline="") as f:
                want_err = f.read()
        check(err == want_err, "golden %s: stderr %r differs from %s" % (name, err, epath))


# ----------------------------------------------------------------- vectors

def vector_names():
    return sorted(f[len("replicas_"):-len(".topology.tsv")] for f in os.listdir(DATA)
                  if f.startswith("replicas_") and f.endswith(".topology.tsv"))


def test_vectors():
    for name in vector_names():
        topo = "replicas_%s.topology.tsv" % name
        groups = OrderedDict()
        for r in read_tsv(os.path.join(DATA, "replicas_%s.tsv" % name)):
            groups.setdefault((r["strategy"], r["options"]), []).append(r)
        for (strategy, options), rows in groups.items():
            base = ["--topology", topo, "--keyspace", "ks=" + repl_spec(strategy, options)]
            what = "%s %s %s" % (name, strategy, options)
            # describering: every range, its bounds and replicas
            dr = js(base + ["describering", "ks"])
            ends = [int(x["end_token"]) for x in dr["ranges"]]
            check(ends == sorted(ends), what + ": describering not in ring order")
            bad = 0
            for r in rows:
                tok = int(r["token"])
                i = bisect.bisect_left(ends, tok) % len(ends)
                rg = dr["ranges"][i]
                want = [x.rstrip("~") for x in r["replicas"].split(",") if x]
                if (rg["start_token"] != r["range_start"] or rg["end_token"] != r["range_end"]
                        or rg["endpoints"] != want):
                    bad += 1
            check(bad == 0, "%s: describering disagrees with %d vector rows" % (what, bad))
            # getendpoints and token, in batches of tokens
            toks = [r["token"] for r in rows]
            got_ep, got_tok = [], []
            for k in range(0, len(toks), 400):
                got_ep += js(base + ["getendpoints", "--token", "ks"] + toks[k:k + 400])
                got_tok += js(base + ["token", "--token"] + toks[k:k + 400])
            bad_ep = bad_tr = bad_owner = 0
            for r, g, t in zip(rows, got_ep, got_tok):
                reps = [x for x in r["replicas"].split(",") if x]
                if g["endpoints"] != [x.rstrip("~") for x in reps]:
                    bad_ep += 1
                if g["transient"] != [x.endswith("~") for x in reps]:
                    bad_tr += 1
                if t["owner"] != r["owner"] or t["range"] != [r["range_start"], r["range_end"]]:
                    bad_owner += 1
            check(len(got_ep) == len(rows), what + ": getendpoints answered %d of %d"
                  % (len(got_ep), len(rows)))
            check(bad_ep == 0, "%s: getendpoints order/set wrong on %d rows" % (what, bad_ep))
            check(bad_tr == 0, "%s: transient flags wrong on %d rows" % (what, bad_tr))
            check(bad_owner == 0, "%s: token owner/range wrong on %d rows" % (what, bad_owner))
    for name in vector_names():
        path = os.path.join(DATA, "ownership_%s.tsv" % name)
        if not os.path.exists(path):
            continue
        topo = "replicas_%s.topology.tsv" % name
        groups = OrderedDict()
        for r in read_tsv(path):
            groups.setdefault((r["strategy"], r["options"]), []).append(r)
        primary = {n["address"]: n for n in js(["--topology", topo, "status"])["nodes"]}
        for (strategy, options), rows in groups.items():
            what = "ownership %s %s %s" % (name, strategy, options)
            base = ["--topology", topo, "--keyspace", "ks=" + repl_spec(strategy, options)]
            st = js(base + ["status", "ks"])
            nodes = {n["address"]: n for n in st["nodes"]}
            human = ok(base + ["status", "ks"])
            ring = js(base + ["ring", "ks"])
            ring_owns = {}
            for dc in ring["datacenters"]:
                for row in dc["rows"]:
                    ring_owns.setdefault(row["address"], row["owns"])
            ring_human = ok(base + ["ring", "ks"])
            for r in rows:
                n = nodes.get(r["node"])
                if not check(n is not None, what + ": node %s missing" % r["node"]):
                    continue
                check(f32_bits(n["owns"]["nodetool"]) == r["effective_f32_bits"],
                      "%s: %s effective %r, vector %s" % (what, r["node"],
                                                         n["owns"]["nodetool"],
                                                         r["effective_float"]))
                p = primary[r["node"]]["owns"]
                check(f32_bits(p["nodetool"]) == r["primary_f32_bits"],
                      "%s: %s primary %r, vector %s" % (what, r["node"], p["nodetool"],
                                                       r["primary_float"]))
                check(p["width"] == r["primary_exact_width"],
                      "%s: %s primary width %s, vector %s" % (what, r["node"], p["width"],
                                                             r["primary_exact_width"]))
                # the printed figures: ##0.0% (status) and ##0.00% (ring) of the float
                f = struct.unpack(">f", bytes.fromhex(r["effective_f32_bits"]))[0]
                cell = "%.1f%%" % (f * 100)
                check(re.search(r"^UN  %s +\? +\d+ +%s " % (re.escape(r["node"]),
                                                            re.escape(cell)),
                                human, re.M) is not None,
                      "%s: status does not print %s for %s" % (what, cell, r["node"]))
                check(f32_bits(ring_owns[r["node"]]["nodetool"]) == r["effective_f32_bits"],
                      "%s: ring owns for %s" % (what, r["node"]))
                check(re.search(r"^%s +\S+ +Up +Normal +\? +%s " % (
                    re.escape(r["node"]), re.escape("%.2f%%" % (f * 100))), ring_human,
                    re.M) is not None, "%s: ring does not print %.2f%% for %s"
                      % (what, f * 100, r["node"]))


# ----------------------------------------------------------------- samples

ELIDED = {  # sample -> (line, column) of the reported elision
    "ring-2.x-ec2-vnodes-partial.txt": (5, 79),
    "ring-3.11-vnodes256-1node-elided.txt": (10, 1),
    "ring-4.1-3racks-vnodes16-elided-warning.txt": (7, 1),
    "peers-cqlsh-2.1-select-star-abridged.txt": (3, 115),
    "status-3.x-2dc-dn-filtered-grep.txt": (1, 1),  # dc1's block has no row
}
NOT_CLUSTER = ("getendpoints-",)


def parse_describering(path):
    ranges = []
    with open(path, newline="") as f:
        for line in f.read().splitlines():
            m = re.match(r"\s*TokenRange\(start_token:(-?\d+), end_token:(-?\d+), "
                         r"endpoints:\[([^\]]*)\], rpc_endpoints:\[[^\]]*\], "
                         r"endpoint_details:\[(.*)\]\)$", line)
            if m:
                details = re.findall(r"EndpointDetails\(host:([^,]+), datacenter:([^,]+), "
                                     r"rack:([^)]+)\)", m.group(4))
                ranges.append((int(m.group(1)), int(m.group(2)),
                               m.group(3).split(", "), details))
    return ranges


def describering_check(sample, repl):
    """Rebuilds the ring a real describering shows (range ends are ring tokens, the first
    endpoint owns them), runs our describering on it and compares the set of lines."""
    ranges = parse_describering(os.path.join(SAMPLES, sample))
    if not check(len(ranges) > 0, "sample %s: no ranges parsed" % sample):
        return
    nodes = OrderedDict()
    for start, end, eps, details in ranges:
        where = {h: (dc, rack) for h, dc, rack in details}
        for h in eps:
            nodes.setdefault(h, [where[h], []])
        nodes[eps[0]][1].append(end)
    topo = "".join("node %s dc=%s rack=%s tokens=%s\n" % (n, dr[0], dr[1],
                                                         ",".join(map(str, toks)))
                   for n, (dr, toks) in nodes.items())
    path = tmpfile(sample + ".topo", "keyspace ks %s\n" % repl + topo)
    out = ok(["--topology", path, "describering", "ks"])
    ours = sorted(l.strip() for l in out.splitlines() if "TokenRange(" in l)
    with open(os.path.join(SAMPLES, sample), newline="") as f:
        theirs = sorted(l.strip() for l in f.read().splitlines() if "TokenRange(" in l)
    check(ours == theirs, "sample %s: our describering differs from Cassandra's (%d vs %d "
          "lines, %d in common)" % (sample, len(ours), len(theirs),
                                    len(set(ours) & set(theirs))))
    # the sample itself as the input: the tool reads the same ring from it
    read = js(["--input", os.path.join("samples", sample), "convert"])
    got = {n["name"]: (n["datacenter"], n["rack"], sorted(map(int, n["tokens"])))
           for n in read["nodes"]}
    check(got == {n: (dr[0], dr[1], sorted(toks)) for n, (dr, toks) in nodes.items()},
          "sample %s: --input reads another ring than the ranges show" % sample)
    out = ok(["--input", os.path.join("samples", sample), "--keyspace", "ks=" + repl,
              "describering", "ks"])
    again = sorted(l.strip() for l in out.splitlines() if "TokenRange(" in l)
    check(again == theirs, "sample %s: describering of the pasted describering differs"
          % sample)


def test_pasted():
    """What operators paste (issue 35, item 10): each pasted variant in samples/written
    (made by editing a real sample, see samples/README.md) reads as the output it came
    from; the seed's queries without data_center and rack are said on stderr."""
    w = lambda n: os.path.join("samples", "written", n)
    s = lambda n: os.path.join("samples", n)
    for pasted, plain in (
            ([w("ring-5.0-pasted-prompt-jvm-indented.txt")],
             [s("ring-5.0-2nodes-vnodes16-effective.txt")]),
            ([w("describering-3.11-pasted-dse-no-separators.txt")],
             [s("describering-3.11-3nodes-single-token-rf3.txt")]),
            ([w("status-and-ring-5.0-pasted-joining.txt")],
             [s("status-5.0-uj-joining-vnodes16.txt"), s("ring-5.0-joining-node-vnodes16.txt")]),
            ([w("cqlsh-pasted-expand-peers_v2-local.txt")],
             [w("cqlsh-peers_v2-2dc_3r_2r_vn8.txt"), w("cqlsh-local-2dc_3r_2r_vn8.txt")])):
        args = lambda files: sum((["--input", f] for f in files), [])
        a, b = ok(args(pasted) + ["convert"]), ok(args(plain) + ["convert"])
        check(a == b and a.count("\nnode ") >= 2,
              "pasted %s reads as %s: %r vs %r" % (pasted, plain, a[:300], b[:300]))
    rc, out, err = run(["--input", w("ring-1.1-pasted-dc-column.txt"), "convert", "--json"])
    check(rc == 0 and [n["datacenter"] for n in json.loads(out)["nodes"]].count("dc2") == 4,
          "the pre-1.2 ring's DC column: %d %r" % (rc, err))
    seed = w("cqlsh-pasted-seed-queries-no-dc-rack.txt")
    rc, out, err = run(["--input", seed, "convert"])
    check(rc == 0 and "node local dc=datacenter1 rack=rack1 tokens=" in out
          and "note: the input gives no datacenter or rack for some nodes" in err
          and "datacenter1, rack rack1" in err and "the node 'local'" in err,
          "seed queries: defaults said on stderr: %d %r" % (rc, err))
    rc, out, err = run(["--input", w("cqlsh-peers_v2-2dc_3r_2r_vn8.txt"), "convert"])
    check(rc == 0 and "no datacenter or rack" not in err, "no defaults note: %r" % err)
    # still refused: named, with what to add, at its line and column
    old = tmpfile("ring-0.8.txt", "$ nodetool ring\nAddress         Status State   Load  "
                  "          Owns    Token\n10.0.0.1        Up     Normal  6.19 KB         "
                  "100.00% 5\n")
    rc, out, err = run(["--input", old, "ring"])
    check(rc == 3 and out == "" and (":2:1: a nodetool ring header without 'Datacenter: "
                                     "<name>'") in err
          and "add the 'Datacenter: <name>' line" in err, "0.8 ring: %d %r" % (rc, err))


def test_samples():
    test_pasted()
    files = sorted(os.listdir(SAMPLES)) + ["written/" + f for f in
                                             sorted(os.listdir(os.path.join(SAMPLES,
                                                                            "written")))]
    for f in files:
        if not f.endswith(".txt") or os.path.basename(f).startswith(NOT_CLUSTER):
            continue
        path = os.path.join("samples", f)
        rc, out, err = run(["--input", path, "convert"])
        if f in ELIDED:
            line, col = ELIDED[f]
            check(rc == 3 and out == "" and err.startswith("tokenring: %s:%d:%d: "
                                                          % (path, line, col))
                  and "give --allow-partial" in err,
                  "sample %s: expected an incompleteness error at %d:%d, got %d %r"
                  % (f, line, col, rc, err))
            rc, out, err = run(["--input", path, "--allow-partial", "convert"])
            check(rc == 0 and "warning: the input is incomplete" in err,
                  "sample %s: --allow-partial should accept it with a warning (%d %r)"
                  % (f, rc, err))
        else:
            check(rc == 0 and out.startswith("# tokenring topology"),
                  "sample %s: does not parse: %r" % (f, err))
    # what the samples contain
    st = js(["--nodetool-status", "samples/status-2.2-3dc-single-token-dn-anonymized.txt",
             "convert"])
    check(len(st["nodes"]) == 9 and [n["status"] for n in st["nodes"]].count("Down") == 1
          and st["nodes"][-1]["name"] == "11.111.111.119"
          and st["nodes"][-1]["host_id"] == "97123467-7dab-4a9e-bd44-5613ac419961",
          "status 2.2 sample: nodes, DN node or last (misaligned, unterminated) row wrong")
    st = js(["--input", "samples/status-3.11-1node-token-column-note.txt", "convert"])
    check(st["nodes"][0]["tokens"] == ["-1080085985719557225"],
          "status with a Token column: token not read")
    st = js(["--input", "samples/written/status-4.x-all-states.txt", "convert"])
    check([(n["status"], n["state"]) for n in st["nodes"]] ==
          [("Up", "Normal"), ("Down", "Normal"), ("Up", "Leaving"), ("Up", "Moving"),
           ("?", "Normal"), ("Up", "Joining")] and st["nodes"][4]["rack"] == "rack-two",
          "status with every state code: %r" % [(n["status"], n["state"]) for n in st["nodes"]])
    r = js(["--input", "samples/ring-5.0-joining-node-vnodes16.txt", "convert"])
    states = {n["name"]: (n["state"], len(n["tokens"])) for n in r["nodes"]}
    check(states == {"172.16.0.12": ("Joining", 16), "172.16.0.11": ("Normal", 16)},
          "ring with a joining node: %r" % states)
    r = js(["--input", "samples/ring-2.0-vnodes3-ownership-note.txt", "convert"])
    check(sum(len(n["tokens"]) for n in r["nodes"]) == 9, "ring 2.0 sample: 9 tokens")
    crlf = js(["--input", "samples/status-5.0-2dc-named-dcs-vnodes16-crlf.txt", "convert"])
    check([n["datacenter"] for n in crlf["nodes"]] == ["Nord", "Nord", "Terres-de-la-Couronne"]
          and crlf["nodes"][2]["rack"] == "Port-Real", "CRLF status sample: names")
    cq = js(["--cqlsh", "samples/written/cqlsh-peers_v2-2dc_3r_2r_vn8.txt", "--cqlsh",
             "samples/written/cqlsh-local-2dc_3r_2r_vn8.txt", "convert"])
    want = {r["node"]: r["tokens"].split(",") for r in
            read_tsv(os.path.join(DATA, "replicas_2dc_3r_2r_vn8.topology.tsv"))}
    got = {n["name"]: n["tokens"] for n in cq["nodes"]}
    check(got == {k: sorted(v, key=int) for k, v in want.items()},
          "cqlsh peers_v2 + local: tokens not those of the topology, sorted numerically")
    # our `ring` reprints real 5.0 `nodetool ring` listings: same layout, same rows, same
    # primary ownership figures (51.15 % / 48.85 %; 100.00 % and '?' for a joining node);
    # only Load differs (the tool knows none) and the authors trimmed trailing spaces
    def block(text):
        lines = [re.sub(r" +$", "", l) for l in text.splitlines()]
        start = next(i for i, l in enumerate(lines) if l.startswith("Datacenter:"))
        end = max(i for i, l in enumerate(lines) if re.match(r"^\S+ +\S+ +(Up|Down|\?) ", l))
        return [re.sub(r"(Normal|Joining|Leaving|Moving) +\S+( [KMGT]i?B)? +",
                       lambda m: m.group(1) + " LOAD ", l) for l in lines[start:end + 1]]
    for sample in ("ring-5.0-2nodes-vnodes16-effective.txt", "ring-5.0-joining-node-vnodes16.txt"):
        with open(os.path.join(SAMPLES, sample), newline="") as f:
            theirs = block(f.read())
        ours = block(ok(["--nodetool-ring", os.path.join("samples", sample), "ring"]))
        check(ours == theirs and len(ours) > 30, "sample %s: our ring differs from nodetool's"
              % sample)
    # real describering output reproduced from the ring it shows
    describering_check("describering-2.0-3nodes-single-token-rf3.txt", "SimpleStrategy:3")
    describering_check("describering-3.11-3nodes-single-token-rf3.txt", "SimpleStrategy:3")
    describering_check("describering-5.0-1node-vnodes16-rf1.txt", "SimpleStrategy:1")
    describering_check("describering-ccm-vnodes256-6nodes-3racks.txt",
                       "NetworkTopologyStrategy:dc1=3")
    # getendpoints samples against the rings they were taken from
    def endpoints(sample):
        with open(os.path.join(SAMPLES, sample), newline="") as f:
            return [l.strip() for l in f.read().splitlines() if l.strip()]
    out = ok(["--nodetool-ring", "samples/ring-3.10-1dc-5nodes-single-token.txt",
              "--keyspace", "ass2=SimpleStrategy:3", "getendpoints", "ass2", "pavle"])
    check(out.split() == endpoints("getendpoints-3.10-simple-rf3-pavle.txt"),
          "getendpoints sample 3.10 SimpleStrategy: %r" % out)
    out = ok(["--nodetool-ring", "samples/ring-3.10-2dc-9nodes-single-token.txt",
              "--keyspace", "ass2=dc1=3,dc2=3", "getendpoints", "ass2", "pavle"])
    # 3.10 printed dc1's replicas first; Cassandra 5.0 (the vectors) interleaves
    # datacenters in ring order, so only the set is compared here.
    check(sorted(out.split()) == sorted(endpoints("getendpoints-3.10-nts-2dc-pavle.txt")),
          "getendpoints sample 3.10 NTS (as a set): %r" % out)


# --------------------------------------------------------------- roundtrip

def test_roundtrip():
    inputs = [
        ("demo", []),
        ("tsv", ["--topology", "replicas_2dc_3r_2r_vn8.topology.tsv", "--keyspace",
                 "ks=dc1=3,dc2=3"]),
        ("tsv-transient", ["--topology", "replicas_transient_single_token.topology.tsv",
                           "--keyspace", "ks=dc1=3/1,dc2=2/1"]),
        ("ring", ["--nodetool-ring", "samples/ring-5.0-2nodes-vnodes16-effective.txt"]),
        ("ring-states", ["--nodetool-ring", "samples/written/ring-4.x-states-toy.txt"]),
        ("ring-2dc", ["--nodetool-ring", "samples/ring-3.10-2dc-9nodes-single-token.txt"]),
        ("ring-partial", ["--allow-partial", "--nodetool-ring",
                          "samples/ring-4.1-3racks-vnodes16-elided-warning.txt"]),
        ("status", ["--nodetool-status", "samples/status-5.0-2dc-named-dcs-vnodes16-crlf.txt"]),
        ("status-all-states", ["--nodetool-status", "samples/written/status-4.x-all-states.txt"]),
        ("status-token", ["--nodetool-status",
                          "samples/status-3.11-1node-token-column-note.txt"]),
        ("cqlsh", ["--cqlsh", "samples/written/cqlsh-peers_v2-2dc_3r_2r_vn8.txt", "--cqlsh",
                   "samples/written/cqlsh-local-2dc_3r_2r_vn8.txt"]),
        ("quoted", ["--topology", tmpfile("quoted.topo",
                                          'node "a b" dc="d#1" rack="r\\"1" tokens=5\n'
                                          'node "c\\\\d" dc=x rack=y status=down tokens=?\n')]),
        # a keyspace named ' beside a datacenter holding " #" (issue 35, item 15)
        ("quote-hash", ["--topology", tmpfile("quote-hash.topo",
                                              'node a dc="x #y" rack=r tokens=5\n'),
                        "--keyspace", "'=NetworkTopologyStrategy:x #y=1,'z #'=2"]),
    ]
    for name, args in inputs:
        first = ok(args + ["convert"])
        path = tmpfile("rt-%s.topo" % name, first)
        second = ok(["--topology", path, "convert"])
        check(first == second, "roundtrip %s: topology file not stable" % name)
        a = js(args + ["convert"])
        b = js(["--topology", path, "convert"])
        a.pop("partial")
        b.pop("partial")
        check(a == b, "roundtrip %s: nodes or keyspaces differ after the round trip" % name)
        if all(n["tokens"] is not None for n in a["nodes"]):
            ra = js(args + ["ring"])
            rb = js(["--topology", path, "ring"])
            check(ra == rb, "roundtrip %s: ring differs after the round trip" % name)
        # and through stdin
        third = ok(["--topology", "-", "convert"], stdin=first)
        check(third == first, "roundtrip %s: via stdin" % name)


# ------------------------------------------------------------------ errors

def test_errors():
    topo_cases = [
        # (text, marker whose position is the reported column, expected message part); CRLF
    # variants must give the same positions
        ("node a dc=dc1 rack=r1 tokens=1,2x\n", "2x", "expected a token"),
        ("node a dc=dc1 rack=r1 tokens=1\nnode b dc=dc1 rack=r1 tokens=3,1\n", "3,|1",
         "already held by node a"),
        ("node a dc=dc1 rack=r1 tokens=1\nnode a dc=dc1 rack=r1 tokens=2\n", "a dc=dc1 rack=r1 tokens=2",
         "already defined on line 1"),
        ("node a dc=dc1 rack=r1 colour=red tokens=1\n", "colour", "unknown key"),
        ("node a dc=dc1 tokens=1\n", None, "expected rack="),
        ("node a dc=dc1 rack=r1 tokens=-99999999999999999999\n", "-9999", "outside"),
        ("node a dc=dc1 rack=r1 tokens=999999999999999999999999999999999999999999\n", "9999", "outside"),
        ("node a dc=dc1 rack=r1 state=gone tokens=1\n", "gone", "expected state"),
        ("keyspace ks NetworkTopologyStrategy:dc1=x\n", None, "keyspace ks"),
        ("  -5,6\n", "-5", "unexpected indented line"),
        ("nodes a\n", "nodes", "expected 'node', 'keyspace'"),
        ('node "a dc=dc1 rack=r1 tokens=1\n', '"a', "unterminated quoted string"),
        ("node a dc=dc1 rack=r1 tokens=\n", "a dc", "lists no token"),
    ]
    for i, (text, marker, msg) in enumerate(topo_cases):
        for nl in ("\n", "\r\n"):
            path = tmpfile("bad%d.topo" % i, text, nl)
            rc, out, err = run(["--topology", path, "ring"])
            lines = text.split("\n")
            if marker is None:
                pos = None
            else:
                # "ab|c": the column of c in the first "abc"
                off = text.index(marker.replace("|", "")) + max(marker.find("|"), 0)
                line = text[:off].count("\n") + 1
                col = off - (text.rfind("\n", 0, off) + 1) + 1
                pos = (line, col)
            prefix = "tokenring: %s:" % path + ("%d:%d: " % pos if pos else "")
            check(rc == 3 and out == "" and err.startswith(prefix) and msg in err,
                  "bad topology %d (%r): want exit 3, %r ... %r; got %d %r"
                  % (i, text, prefix, msg, rc, err))
    # nodetool / cqlsh / tsv
    ring_hdr = ("Datacenter: dc1\n==========\nAddress    Rack        Status State   Load"
                "            Owns                Token\n")
    other = [
        ("--nodetool-ring", ring_hdr + "127.0.0.1  r1          Sideways Normal  1 KiB  "
         "50.00%  5\n", "Sideways", "expected status Up, Down or ?"),
        ("--nodetool-ring", ring_hdr + "127.0.0.1  r1  Up  Normal  1 KiB  50.00%  5x\n",
         "5x", "expected a token"),
        ("--nodetool-ring", "127.0.0.1  r1  Up  Normal  1 KiB  50.00%  5\n", "127",
         "expected 'Datacenter: <name>'"),
        ("--nodetool-status", "Datacenter: dc1\n===============\nStatus=Up/Down\n"
         "|/ State=Normal/Leaving/Joining/Moving\n--  Address  Load  Tokens  Owns  Host ID"
         "  Rack\nXN  1.2.3.4  1 KiB  16  ?  abc  r1\n", "XN", "expected a status row"),
        ("--nodetool-status", "Datacenter: dc1\n===============\nStatus=Up/Down\n"
         "|/ State=Normal/Leaving/Joining/Moving\n--  Address  Load  Tokens  Owns  Host ID"
         "  Rack\nUN  1.2.3.4  1 KiB  many  ?  abc  r1\n", "many", "token count"),
        ("--cqlsh", " peer | data_center | rack | tokens\n------+----+----+----\n"
         " a | dc1 | r1 | {'1', '2'}\n\n(2 rows)\n", "2 rows", "incomplete"),
        ("--cqlsh", " peer | data_center | rack | tokens\n------+----+----+----\n"
         " a | dc1 | r1 | {'1', 'x2'}\n", "'x2'", "expected a token"),
        ("--cqlsh", " peer | data_center | tokens\n------+----+----\n", None,
         "lacks the column rack"),
        ("--topology", "node\tdc\track\ttokens\na\tdc1\tr1\n", None, "expected 4 tab-separated"),
    ]
    for i, (flag, text, marker, msg) in enumerate(other):
        path = tmpfile("bad-other%d.txt" % i, text)
        rc, out, err = run([flag, path, "convert"])
        if marker is None:
            ok_pos = True
        else:
            off = text.index(marker)
            line = text[:off].count("\n") + 1
            col = off - (text.rfind("\n", 0, off) + 1) + 1
            ok_pos = err.startswith("tokenring: %s:%d:%d: " % (path, line, col))
        check(rc == 3 and out == "" and ok_pos and msg in err,
              "bad input %d (%s): want exit 3 at %r with %r; got %d %r"
              % (i, flag, marker, msg, rc, err))
    # exit codes and messages
    st = "samples/status-4.1-3racks-vnodes16.txt"
    # a describering whose endpoint lists were sorted: 10.0.0.2 is never named first
    ep = lambda hs: ("endpoints:[%s], rpc_endpoints:[%s], endpoint_details:[%s])"
                     % (", ".join(hs), ", ".join(hs), ", ".join(
                         "EndpointDetails(host:%s, datacenter:dc1, rack:r1)" % h for h in hs)))
    reordered = tmpfile("describering-reordered.txt", "Schema Version:x\nTokenRange: \n"
                        "\tTokenRange(start_token:20, end_token:10, %s\n"
                        "\tTokenRange(start_token:10, end_token:20, %s\n"
                        % (ep(["10.0.0.1", "10.0.0.2"]), ep(["10.0.0.1", "10.0.0.2"])))
    codes = [
        (["frobnicate"], 2, "unknown command"),
        (["--frob", "ring"], 2, "unknown option"),
        ([], 2, "no command"),
        (["getendpoints", "nosuchks", "k"], 2, "unknown keyspace 'nosuchks'"),
        (["getendpoints"], 2, "usage"),
        (["describering"], 2, "usage"),
        (["token", "--types", "int", "notanint"], 2, "key 'notanint'"),
        (["token", "--types", "nosuchtype", "1"], 2, "unknown or unsupported CQL type"),
        (["token", "--hex", "abc"], 2, "even number"),
        (["token", "--hex", "--token", "1"], 2, "exclude each other"),
        (["--keyspace", "broken", "ring"], 2, "expected NAME=REPLICATION"),
        (["--keyspace", "ks=Bogus:3", "ring"], 2, "--keyspace ks=Bogus:3"),
        (["--topology", "no/such/file", "ring"], 3, "no/such/file"),
        (["--nodetool-status", st, "ring"], 3, "tokens of node"),
        (["--nodetool-status", st, "getendpoints", "ks", "k"], 2, "unknown keyspace"),
        (["--nodetool-status", st, "--keyspace", "ks=3", "getendpoints", "ks", "k"], 3,
         "tokens of node"),
        (["--nodetool-status", st, "--keyspace", "ks=3", "status", "ks"], 3, "tokens of node"),
        (["--input", "samples/getendpoints-3.10-nts-2dc-pavle.txt", "ring"], 3,
         "samples/getendpoints-3.10-nts-2dc-pavle.txt:2:1: nodetool getendpoints output "
         "(6 addresses)"),
        (["--input", "samples/getendpoints-5.0-nts-2dc-crlf.txt", "ring"], 3,
         "nodetool describering KEYSPACE"),
        (["--input", reordered, "ring"], 3,
         "describering-reordered.txt:3:2: node 10.0.0.2 is a replica of range (20, 10] but "
         "the first endpoint of no range"),
        (["demo", "--topology", "replicas_toy.topology.tsv"], 2, "demo ring only"),
        # errors with a flag remedy name the flag
        (["--topology", "replicas_2dc_3r_2r_vn8.topology.tsv", "--keyspace", "ks=dc1=3,dc2=3",
          "availability", "ks", "--cl", "LOCAL_QUORUM"], 2,
         "LOCAL_QUORUM needs a local datacenter (give --local-dc DC)"),
        (["--topology", "replicas_2dc_3r_2r_vn8.topology.tsv", "generatetokens", "--nodes",
          "2", "--num-tokens", "4", "--rf", "3"], 2, "give --dc"),
    ]
    for args, code, msg in codes:
        rc, out, err = run(args)
        check(rc == code and out == "" and msg in err,
              "%s: want exit %d with %r, got %d %r (stdout %r)" % (args, code, msg, rc, err,
                                                                   out[:80]))
    for stdin in ("", "\n  \r\n"):
        rc, out, err = run(["--input", "-", "ring"], stdin=stdin)
        check(rc == 3 and out == "" and err == "tokenring: <stdin>:1:1: empty input: "
              "expected a topology file, nodetool ring, status or describering output, or a "
              "cqlsh table\n", "empty input %r: got %d %r" % (stdin, rc, err))
    rc, out, err = run(["token", "--types", "int"], stdin="1\n2\nthree\n")
    check(rc == 3 and out == "" and "<stdin>:3:" in err,
          "bad key on stdin line 3: got %d %r" % (rc, err))
    # No input: the demo ring, said on stderr every time (one line naming the inputs),
    # exit code unchanged; never with an input, nor where the demo ring is not used
    # (generatetokens plans an empty cluster, token --partitioner random prints tokens)
    notice = ("tokenring: note: no input given: this is the built-in demo ring (6 made-up "
              "nodes, keyspace demo), not a cluster of yours; give one with --topology, "
              "--nodetool-ring, --cqlsh or --input FILE\n")
    order = ("tokenring: note: replica order: from the tokens (Cassandra 3.2 to 5.0's rule; "
             "6.0 follows the cluster's history: --history FILE)\n")
    for args in (["status"], ["demo"], ["token", "a"], ["getendpoints", "demo", "a"],
                 ["ring", "--json"]):
        rc, out, err = run(args)
        # getendpoints shows an order, and says which rule made it
        want = notice + (order if args[0] == "getendpoints" else "")
        check(rc == 0 and out and err == want, "%s on the demo ring: want exit 0 and the "
              "notice on stderr, got %d %r" % (args, rc, err))
    rc, out, err = run(["--keyspace", "x=SimpleStrategy:1", "describering", "nosuch"])
    check(rc == 2 and err.startswith(notice) and err.count("demo ring") == 1,
          "an error on the demo ring: want the notice once, then the error: %d %r" % (rc, err))
    for args in (["--topology", "replicas_toy.topology.tsv", "status"],
                 ["generatetokens", "--nodes", "2", "--num-tokens", "2", "--rf", "1"],
                 ["token", "--partitioner", "random", "a"]):
        rc, out, err = run(args)
        check(rc == 0 and "demo ring" not in err, "%s: no demo notice, got %r" % (args, err))
    # A replication that places no replica anywhere (a datacenter without nodes only,
    # SimpleStrategy with factor 0): Cassandra answers (empty endpoint lists, Owns 0.0%),
    # and so does the tool, with a warning naming why (the server's own outputs:
    # cli-captured-schema)
    none = ["--keyspace", "ks=NetworkTopologyStrategy:dc9=3"]
    zero = ["--keyspace", "ks=SimpleStrategy:0"]
    for base, why in ((none, "no replica: datacenter 'dc9' of the replication has no node in "
                       "the ring"), (zero, "SimpleStrategy with replication factor 0")):
        rc, out, err = run(base + ["getendpoints", "ks", "mykey"])
        check(rc == 0 and out == "" and why in err and "every replica list is empty" in err,
              "%s getendpoints: want no endpoint and a warning, got %d %r" % (base, rc, err))
        rc, out, err = run(base + ["status", "ks"])
        check(rc == 0 and out.count(" 0.0% ") == 6 and why in err,
              "%s status: want Owns 0.0%% x 6, got %d %r" % (base, rc, out[:300]))
        rc, out, err = run(base + ["describering", "ks"])
        check(rc == 0 and out.count("endpoints:[], rpc_endpoints:[], endpoint_details:[])")
              == 48 and why in err, "%s describering: want 48 empty ranges, got %d %r"
              % (base, rc, out[:200]))
        rc, out, err = run(base + ["--json", "getendpoints", "ks", "a", "b", "c"])
        check(rc == 0 and [d["endpoints"] for d in json.loads(out)] == [[], [], []],
              "%s getendpoints --json: want empty lists, got %r" % (base, out[:200]))
    # where nothing answers for such a keyspace, the refusal stays
    rc, out, err = run(none + ["availability", "ks"])
    check(rc == 2 and out == "" and "dc9" in err,
          "availability with no replica: want exit 2, got %d %r" % (rc, err))
    mixed = ["--keyspace", "ks=NetworkTopologyStrategy:datacenter1=2,dc9=3"]
    rc, out, err = run(mixed + ["getendpoints", "ks", "mykey"])
    plain = ok(["--keyspace", "ks=NetworkTopologyStrategy:datacenter1=2", "getendpoints", "ks",
                "mykey"])
    check(rc == 0 and out == plain and len(out.split()) == 2 and
          err.count("warning: datacenter 'dc9'") == 1 and "Cassandra places no replica" in err,
          "skipped dc9: want datacenter1's 2 replicas and one warning, got %d %r %r"
          % (rc, out, err))
    rc, out, err = run(mixed + ["status", "ks"])
    check(rc == 0 and "warning: datacenter 'dc9'" in err and "0.0%" not in out,
          "status with dc9 skipped: got %d %r %r" % (rc, out[:200], err))
    test_input_checks()  # issue 27 items 6-7, issue 35 items 7-8


# ---------------------------------------------------------------- analyses

TWO64 = 1 << 64


def test_analyses():
    """Properties of the simulations that hold whatever tokens the allocator picks."""
    demo_rf, demo_nodes = 3, 6
    # generatetokens: N x T distinct tokens, racks as asked
    g = js(["generatetokens", "--nodes", "6", "--num-tokens", "8", "--rf", "3", "--racks",
            "2,2,2"])
    toks = [int(t) for n in g["nodes"] for t in n["tokens"]]
    check(len(g["nodes"]) == 6 and len(toks) == 48 and len(set(toks)) == 48,
          "generatetokens: 6 nodes x 8 distinct tokens")
    check([n["rack"] for n in g["nodes"]] == ["rack1", "rack2", "rack3"] * 2,
          "generatetokens: racks filled round-robin")
    g2 = js(["generatetokens", "--nodes", "3", "--num-tokens", "4", "--rf", "3",
             "--node-by-node"])
    check(len({t for n in g2["nodes"] for t in n["tokens"]}) == 12,
          "generatetokens --node-by-node: 12 distinct tokens")
    # the allocator's tokens, joined to the cluster they were planned for, give a ring
    tsv = "replicas_2dc_3r_2r_vn8.topology.tsv"
    g3 = js(["--topology", tsv, "generatetokens", "--dc", "dc2", "--nodes", "2",
             "--num-tokens", "8", "--rf", "3", "--rack", "r1"])
    existing = {int(t) for r in read_tsv(os.path.join(DATA, tsv)) for t in r["tokens"].split(",")}
    new = [int(t) for n in g3["nodes"] for t in n["tokens"]]
    check(len(set(new)) == 16 and not (set(new) & existing),
          "generatetokens into a cluster: new tokens distinct and not already taken")

    # join: effective widths after sum to rf * 2^64; gains = streamed; the new node gains
    # exactly its after-width
    j = js(["join", "demo", "10.0.0.7", "--num-tokens", "8"])
    after = sum(int(n["after_width"]) for n in j["nodes"])
    before = sum(int(n["before_width"]) for n in j["nodes"])
    gained = sum(int(n["gained_width"]) for n in j["nodes"])
    lost = sum(int(n["lost_width"]) for n in j["nodes"])
    new = [n for n in j["nodes"] if n["name"] == "10.0.0.7"]
    check(after == demo_rf * TWO64 and before == demo_rf * TWO64,
          "join: effective widths sum to rf x 2^64 before and after")
    check(gained == lost == int(j["streamed_width"]), "join: gained = lost = streamed")
    check(len(new) == 1 and not new[0]["in_before"] and new[0]["gained_width"] ==
          new[0]["after_width"], "join: the new node streams all it owns")
    check(all(s["destination"] == "10.0.0.7" for s in j["streams"]),
          "join: every stream goes to the joining node")
    # decommission: the leaving node's width is redistributed, it streams everything
    d = js(["decommission", "demo", "10.0.0.3"])
    leaving = [n for n in d["nodes"] if n["name"] == "10.0.0.3"][0]
    check(not leaving["in_after"] and int(leaving["lost_width"]) == int(leaving["before_width"])
          and sum(int(n["gained_width"]) for n in d["nodes"]) == int(leaving["before_width"]),
          "decommission: others gain exactly what the leaving node held")
    check(all(s["source"] == "10.0.0.3" for s in d["streams"]),
          "decommission: the leaving node is the source of every stream")
    # replace: only the new node gains, exactly the dead node's ranges, never from it
    r = js(["replace", "demo", "10.0.0.3", "10.0.0.9"])
    dead = [n for n in r["nodes"] if n["name"] == "10.0.0.3"][0]
    newn = [n for n in r["nodes"] if n["name"] == "10.0.0.9"][0]
    others = [n for n in r["nodes"] if n["name"] not in ("10.0.0.3", "10.0.0.9")]
    check(newn["gained_width"] == dead["before_width"] and
          all(n["gained_width"] == "0" and n["lost_width"] == "0" for n in others),
          "replace: the replacement takes over exactly the dead node's ranges")
    check(all(s["source"] != "10.0.0.3" and s["destination"] == "10.0.0.9"
              for s in r["streams"]) and r["streams"],
          "replace: streams go to the replacement and never come from the dead node")
    # removenode: the same ring change as decommission, but the dead node never sends:
    # every gained range comes from a replica that remains (Cassandra's restoreReplicaCount)
    rm = js(["removenode", "demo", "10.0.0.3"])
    check([(n["name"], n["after_width"], n["gained_width"]) for n in rm["nodes"]] ==
          [(n["name"], n["after_width"], n["gained_width"]) for n in d["nodes"]],
          "removenode: the ring after is the ring after decommission")
    check(rm["streams"] and all(s["source"] != "10.0.0.3" for s in rm["streams"]) and
          sum(int(n["gained_width"]) for n in rm["nodes"]) == int(rm["streamed_width"]),
          "removenode: streams cover every gain and never come from the removed node")
    desc = ok(["describering", "demo"])
    owners = {}
    for m_ in re.finditer(r"start_token:(-?\d+), end_token:(-?\d+), endpoints:\[([^]]*)\]",
                          desc):
        owners[(m_.group(1), m_.group(2))] = m_.group(3).split(", ")
    for st_ in rm["streams"]:
        reps = owners.get((st_["start"], st_["end"]))
        check(reps is not None and st_["source"] in reps and st_["destination"] not in reps,
              "removenode: stream %r is from an old replica to a new one" % st_)
    # assassinate: the same changed ranges, no stream; the nodes without data are the gainers
    asn = js(["assassinate", "demo", "10.0.0.3"])
    check(asn["streams"] == [] and int(asn["changed_width"]) == int(rm["changed_width"]) and
          sorted((u["start"], u["end"], tuple(u["without_data"])) for u in asn["unstreamed"])
          == sorted((s_["start"], s_["end"], (s_["destination"],)) for s_ in rm["streams"]),
          "assassinate: no stream; each changed range lists the new replica removenode "
          "would stream to")
    # ranges: what describering lists for the node, whose widths sum to its effective
    # ownership (status --json)
    rg = js(["ranges", "demo", "10.0.0.3"])
    mine = [k for k, v in owners.items() if "10.0.0.3" in v]
    st_js = js(["status", "demo"])
    eff = [n for n in st_js["nodes"] if n["address"] == "10.0.0.3"][0]["owns"]["width"]
    check(rg["count"] == len(mine) == len(rg["ranges"]) and rg["width"] == eff and
          sum(int(x["width"]) for x in rg["ranges"]) == int(eff) and
          rg["primary"] == sum(1 for x in rg["ranges"] if x["position"] == 0),
          "ranges: the node's describering ranges, summing to its effective ownership")
    rc, out, err = run(["ranges", "demo", "10.9.9.9"])
    check(rc == 2 and "no node '10.9.9.9'" in err, "ranges: unknown node")
    # pending: a joining node's gains are exactly its ownership once Normal
    ring5 = os.path.join("samples", "ring-5.0-joining-node-vnodes16.txt")
    pd = js(["--nodetool-ring", ring5, "--keyspace", "ks=SimpleStrategy:2", "pending", "ks"])
    j_ = [n for n in pd[0]["nodes"] if n["name"] == "172.16.0.12"][0]
    check(len(pd) == 1 and j_["before_width"] == "0" and j_["gained_width"] == j_["after_width"] and
          all(s_["destination"] == "172.16.0.12" for s_ in pd[0]["streams"]) and
          int(pd[0]["streamed_width"]) == int(j_["gained_width"]) > 0,
          "pending: the joining node gains what it will own, streamed to it")
    # planned pending ranges: Cassandra 5.0's allocator gives exactly the tokens the real
    # joining node of the sample took (its Joining rows), from the UJ row and the ring
    # before it, and from the node's name alone
    with open(os.path.join(DATA, ring5)) as f:
        real = sorted(int(l.split()[-1]) for l in f if "Joining" in l)
    st5 = os.path.join("samples", "status-5.0-uj-joining-vnodes16.txt")
    before5 = os.path.join("samples", "written", "ring-5.0-before-join-vnodes16.txt")
    for args in (["--nodetool-status", st5, "--nodetool-ring", before5],
                 ["--nodetool-ring", before5]):
        out = ok(args + ["--keyspace", "ks=datacenter1=3", "pending", "ks", "172.16.0.12"])
        toks = [l for l in out.splitlines() if l.startswith("Tokens: ")]
        check(len(real) == 16 and len(toks) == 1 and
              sorted(int(x) for x in toks[0][8:].split(",")) == real,
              "pending %s: planned tokens are the real joining node's" % args[0])
        pj = js(args + ["--keyspace", "ks=datacenter1=3", "pending", "ks", "172.16.0.12"])
        check(len(pj) == 1 and sorted(int(x) for x in pj[0]["tokens"]) == real,
              "pending %s --json: the planned tokens listed" % args[0])
    rc, out, err = run(["--nodetool-status", st5, "--keyspace", "ks=datacenter1=3", "pending",
                        "ks"])
    check(rc == 3 and "172.16.0.11 (Normal) are unknown" in err and "nodetool ring" in err,
          "pending from nodetool status alone: says which tokens are missing and what to give")
    rc, out, err = run(["pending", "demo"])
    check(rc == 3 and "no joining node" in err and "name a node" in err,
          "pending: no joining node")
    rc, out, err = run(["pending", "demo", "10.0.0.1"])
    check(rc == 2 and "is not joining" in err, "pending: a Normal node")
    # move on the toy ring: B (10,30] + (65,80] moves to 40, 80 -> B's primary (30,40] +
    # (65,80]; with SimpleStrategy 2 effective widths still sum to 2 x 2^64
    mv = js(["--topology", "replicas_toy.topology.tsv", "--keyspace", "ks=SimpleStrategy:2",
             "move", "ks", "B", "--initial-token", "40,80"])
    check(sum(int(n["after_width"]) for n in mv["nodes"]) == 2 * TWO64 and
          sum(int(n["gained_width"]) for n in mv["nodes"]) == int(mv["streamed_width"]),
          "move: effective widths sum to 2 x 2^64, gains = streamed")
    rc, out, err = run(["move", "demo", "10.0.0.1"])
    check(rc == 2 and "--initial-token" in err, "move without tokens is a usage error")
    # availability: rf 3 survives any 2 failures at ONE and any 1 at QUORUM
    a = js(["availability", "demo", "--cl", "ONE", "--list"])
    check([len(k["breaking"]) for k in a["failures"]][:2] == [0, 0] and
          a["failures"][2]["breaking"], "availability ONE: k=1,2 harmless, some k=3 sets break")
    q = js(["availability", "demo", "--cl", "QUORUM", "--failures", "2", "--list"])
    check(len(q["failures"]) == 2 and q["failures"][0]["breaking"] == [] and
          q["failures"][1]["sets"] == 15, "availability QUORUM: one failure never breaks")
    for k in q["failures"]:
        for b in k["breaking"]:
            check(abs(int(b["width"]) / TWO64 - b["fraction"]) < 1e-12,
                  "availability: width and fraction agree")
    # the summary agrees with the list: count and widest set per k, for every level
    for cl in ("ONE", "TWO", "QUORUM", "ALL", "LOCAL_QUORUM", "EACH_QUORUM"):
        full = js(["availability", "demo", "--cl", cl, "--list"])
        summ = js(["availability", "demo", "--cl", cl, "--top", "2"])["levels"][0]["failures"]
        for lk, sk in zip(full["failures"], summ):
            widest = max([int(b["width"]) for b in lk["breaking"]], default=0)
            check(int(sk["breaking"]) == len(lk["breaking"]) and
                  int(sk["worst_width"]) == widest and int(sk["sets"]) == lk["sets"] and
                  [int(w["width"]) for w in sk["worst"]] ==
                  sorted([int(b["width"]) for b in lk["breaking"]], reverse=True)[:2],
                  "availability summary %s k=%d agrees with --list" % (cl, sk["k"]))
    r = js(["availability", "demo", "--cl", "ONE,ALL", "--fail", "racks"])
    check([lv["failures"][0]["breaking"] for lv in r["levels"]] == ["1", "1"] and
          r["failing"] == "racks", "availability: the demo's single rack breaks ONE and ALL")
    rc, out, err = run(["availability", "demo", "--fail", "racks", "--list"])
    check(rc == 2 and "--list" in err, "availability --list with racks is a usage error")
    rc, out, err = run(["availability", "demo", "--fail", "moons"])
    check(rc == 2 and "--fail" in err, "availability --fail moons is a usage error")
    # balance: mean effective = rf / nodes
    b = js(["balance", "demo"])
    check(abs(b["effective"]["mean"] - demo_rf / demo_nodes) < 1e-12 and
          abs(b["primary"]["mean"] - 1 / demo_nodes) < 1e-12,
          "balance: means are rf/nodes and 1/nodes")
    st = js(["status", "demo"])
    effs = [n["owns"]["exact"] for n in st["nodes"]]
    check(abs(b["effective"]["min"] - min(effs)) < 1e-12 and
          abs(b["effective"]["max"] - max(effs)) < 1e-12,
          "balance: min/max agree with status' exact ownership")
    # migrate-num-tokens: nodes with T tokens each and the steps
    m = js(["migrate-num-tokens", "--new-dc", "dc9", "--num-tokens", "4", "--nodes", "3",
            "--rf", "3"])
    check(len(m["nodes"]) == 3 and all(len(n["tokens"]) == 4 for n in m["nodes"]) and
          any("decommission" in s for s in m["steps"]),
          "migrate-num-tokens: 3 nodes x 4 tokens and a decommission step")
    test_budget()
    # usage errors
    for args, msg in [(["join", "demo", "10.0.0.1", "--initial-token", "99"], "join"),
                      (["join", "demo", "x", "--initial-token", "1,a"], "--initial-token"),
                      (["decommission", "demo", "nosuch"], "decommission"),
                      (["availability", "demo", "--cl", "SOMETIMES"], "consistency level"),
                      (["availability", "demo", "--budget", "0"], "--budget"),
                      (["availability", "demo", "--budget", "soon"], "--budget"),
                      (["join", "demo", "x", "--max-num-tokens", "0"], "--max-num-tokens"),
                      (["join", "demo", "x", "--num-tokens", "2048"],
                       "A maximum number of 1536 tokens per node"),
                      (["generatetokens", "--nodes", "65536", "--num-tokens", "65536", "--rf",
                        "3", "--max-num-tokens", "65536"], "TOKENRING_MAX_CLUSTER_TOKENS"),
                      (["availability", "demo", "--failures", "4", "--budget", "0.000001"],
                       "give --budget SECONDS"),
                      (["join", "demo", "x", "--num-tokens", "8192", "--max-num-tokens",
                        "8192"], "join planning: estimated"),
                      (["join", "demo", "x", "--as-cassandra", "--num-tokens", "1600",
                        "--max-num-tokens", "1600"], "--as-cassandra has no Cassandra tokens"),
                      (["generatetokens", "--nodes", "2", "--num-tokens", "1600", "--rf", "3",
                        "--as-cassandra", "--max-num-tokens", "1600"],
                       "--as-cassandra has no Cassandra tokens"),
                      (["pending", "demo", "--num-tokens", "1600", "--max-num-tokens", "1600"],
                       "pending has no Cassandra tokens"),
                      (["pending", "demo", "--num-tokens", "1600"], "--max-num-tokens"),
                      (["generatetokens", "--nodes", "6", "--num-tokens", "16", "--rf", "3",
                        "--budget", "0.000001"], "token allocation: estimated"),
                      (["migrate-num-tokens", "--new-dc", "dc9", "--num-tokens", "4", "--nodes",
                        "3", "--rf", "3", "--budget", "0.000001"], "migration plan: estimated"),
                      (["generatetokens", "--nodes", "3"], "needs --nodes"),
                      (["generatetokens", "--nodes", "3", "--num-tokens", "2", "--rf", "1",
                        "--racks", "1,1"], "add up to 2"),
                      (["balance", "demo", "--dc", "nosuchdc"], "balance")]:
        rc, out, err = run(args)
        check(rc == 2 and out == "" and msg in err,
              "%s: want exit 2 with %r, got %d %r" % (args, msg, rc, err))


def test_budget():
    """--budget, --progress and availability from the nodes already down (DN)."""
    # the issue's case: one DN node, rf 3 at QUORUM: one more failure on a node sharing
    # ranges with it breaks them (0 breaking sets before)
    topo = tmpfile("dn.topo", "node A dc=dc1 rack=r1 status=down tokens=-6000000000000000000\n"
                   "node B dc=dc1 rack=r1 tokens=-1000000000000000000\n"
                   "node C dc=dc1 rack=r1 tokens=3000000000000000000\n"
                   "node D dc=dc1 rack=r1 tokens=7000000000000000000\n")
    a = js(["--topology", topo, "--keyspace", "ks=SimpleStrategy:3", "availability", "ks",
            "--cl", "QUORUM,ALL"])
    check(a["down"] == ["A"], "availability: the DN node is listed as down")
    q, al = a["levels"]
    check(q["failures"][0]["breaking"] == "3" and q["failures"][0]["sets"] == "3",
          "availability: with A down, each of B, C, D failing breaks QUORUM: %r" %
          q["failures"][0])
    check(q["down_fraction"] == 0 and al["down_fraction"] > 0.5,
          "availability: QUORUM is whole with A down, ALL is not")
    out = ok(["--topology", topo, "--keyspace", "ks=SimpleStrategy:3", "availability", "ks",
              "--cl", "ALL"])
    check("Down already (counted as failed): A" in out and "unavailable already: " in out,
          "availability: the text says what is down and unavailable already")
    # --list counts the DN node as failed too, as the summary does: the same 3 sets
    rc, out, err = run(["--topology", topo, "--keyspace", "ks=SimpleStrategy:3", "availability",
                        "ks", "--list", "--failures", "1"])
    check(rc == 0 and err == "" and "Down already (counted as failed): A" in out and
          "1 more failed node: 3 of 3 sets make more ranges unavailable" in out,
          "availability --list starts from the DN node: %d %r %r" % (rc, out, err))
    lj = js(["--topology", topo, "--keyspace", "ks=SimpleStrategy:3", "availability", "ks",
             "--list", "--cl", "ALL", "--failures", "2"])
    al1 = [f["nodes"] for f in lj["failures"][0]["breaking"]]
    check(lj["down"] == ["A"] and al1 == [["B"], ["C"], ["D"]] and
          lj["failures"][0]["sets"] == 3 and lj["failures"][1]["sets"] == 3,
          "availability --list --json: the DN node is down and in no set: %r" % lj)
    sj = js(["--topology", topo, "--keyspace", "ks=SimpleStrategy:3", "availability", "ks",
             "--cl", "QUORUM", "--failures", "1"])
    lq = js(["--topology", topo, "--keyspace", "ks=SimpleStrategy:3", "availability", "ks",
             "--list", "--cl", "QUORUM", "--failures", "1"])
    check(len(lq["failures"][0]["breaking"]) ==
          int(sj["levels"][0]["failures"][0]["breaking"]),
          "availability --list and the summary agree with a DN node")
    # --list takes --budget: raised it runs, too small it refuses with the estimate
    ok(["availability", "demo", "--list", "--budget", "3"])
    rc, out, err = run(["availability", "demo", "--list", "--budget", "0.000001"])
    check(rc == 2 and out == "" and "estimated" in err and "give --budget" in err,
          "availability --list over its budget is refused: %d %r" % (rc, err))
    # the default count of failed nodes stops where the budget does, and says so
    rc, out, err = run(["availability", "demo", "--budget", "0.000075"])
    check(rc == 0 and "not computed" in out and "--budget" in err and " 1 " in out,
          "availability: the default k stops at the budget: %d %r %r" % (rc, out[-300:], err))
    # an explicit count beyond the budget is refused, with the estimate
    rc, out, err = run(["availability", "demo", "--failures", "3", "--budget", "0.000075"])
    check(rc == 2 and out == "" and "estimated" in err and "give --budget" in err,
          "availability --failures 3 over the budget: %d %r" % (rc, err))
    ok(["availability", "demo", "--failures", "4", "--budget", "unlimited"])
    # --progress reports on stderr off a terminal
    rc, out, err = run(["availability", "demo", "--progress"])
    check(rc == 0 and "tokenring: availability: " in err,
          "--progress: lines on stderr off a terminal: %r" % err[:200])
    # (on an input, not the built-in demo ring, on which the tool notes on stderr that it
    # is the demo)
    rc, out, err = run(["--topology", topo, "--keyspace", "ks=SimpleStrategy:3",
                        "availability", "ks"])
    check(rc == 0 and err == "", "no --progress: quick work prints nothing on stderr: %r" % err)
    rc, out, err = run(["--topology", topo, "--keyspace", "ks=SimpleStrategy:3",
                        "availability", "ks", "--list"])
    check(rc == 0 and err == "", "no --progress: a quick --list prints nothing on stderr: %r"
          % err)
    # num_tokens above 1536 with --max-num-tokens is planned
    g = js(["generatetokens", "--nodes", "1", "--num-tokens", "1600",
            "--max-num-tokens", "1600", "--layout", "even"])
    check(len(g["nodes"][0]["tokens"]) == 1600, "generatetokens --max-num-tokens 1600")


def test_rules():
    """--cassandra-version on the vectors where racks < rf: 3.0 rules give the same sets in
    another order on some tokens, every 3.2+ release the default order; ownership and
    describering follow the rules; malformed versions are usage errors."""
    for name, repl in (("12n_3racks_vn16", "dc1=5"), ("2racks_rf3_vn8", "dc1=3"),
                       ("lopsided_racks", "dc1=3")):
        base = ["--topology", "replicas_%s.topology.tsv" % name, "--keyspace", "ks=" + repl]
        rows = read_tsv_rows("replicas_%s.tsv" % name)
        toks = [r["token"] for r in rows][:200]
        def lists(extra):
            out = json.loads(ok(base + extra + ["getendpoints", "--json", "ks", "--token",
                                                "--"] + toks))
            return [o["endpoints"] for o in out]
        new = lists([])
        check(new == lists(["--cassandra-version", "5.0.6"]) ==
              lists(["--cassandra-version", "3.2"]), "%s: 3.2+ differs from default" % name)
        old = lists(["--cassandra-version", "3.0.30"])
        check(old == lists(["--cassandra-version", "2.2.19"]), "%s: 2.2 != 3.0" % name)
        check(all(sorted(a) == sorted(b) for a, b in zip(old, new)),
              "%s: 3.0 rules change a replica set" % name)
        differ = sum(a != b for a, b in zip(old, new))
        check(0 < differ < len(new), "%s: %d of %d orders differ" % (name, differ, len(new)))
        # describering and status follow the same rules
        d_old = ok(base + ["--cassandra-version", "3.0", "describering", "ks"])
        d_new = ok(base + ["describering", "ks"])
        check(d_old != d_new, "%s: describering ignores --cassandra-version" % name)
    for bad, msg in (("3.x", "expected a digit"), ("3", "MAJOR.MINOR"),
                     ("0.1", "outside 1..99")):
        rc, out, err = run(["--cassandra-version", bad, "demo"])
        check(rc == 2 and out == "" and msg in err and "--cassandra-version" in err,
              "--cassandra-version %s: want exit 2 with %r, got %d %r" % (bad, msg, rc, err))


def read_tsv_rows(name):
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        lines = [ln.rstrip("\n") for ln in f if not ln.startswith("#")]
    head = lines[0].split("\t")
    return [dict(zip(head, ln.split("\t"))) for ln in lines[1:] if ln]


def tokens_of_line(line):
    return [int(t) for t in line[line.index("[") + 1:line.index("]")].split(",")]


def test_cassandra():
    # 1. Cassandra's generatetokens documentation: all 36 tokens, from its random start
    doc = [l for l in open(os.path.join(DATA, "cassandra",
                                        "generatetokens-doc-9nodes-4tokens-rf3.txt"))
           if l.startswith("Node ")]
    out = ok(["generatetokens", "--nodes", "9", "--num-tokens", "4", "--rf", "3", "--racks",
              "3,3,3", "--as-cassandra", "--first-token", "5778609289102954400"])
    mine = [l for l in out.splitlines() if l.startswith("Node ")]
    check([tokens_of_line(l) for l in mine] == [tokens_of_line(l) for l in doc],
          "generatetokens --as-cassandra reproduces the 36 tokens of Cassandra's documentation")
    check("Cassandra 5.0's allocator, as its generatetokens tool runs it" in out,
          "generatetokens --as-cassandra says so")
    for v in ("4.0", "4.1", "5.0.2"):
        out_v = ok(["generatetokens", "--nodes", "9", "--num-tokens", "4", "--rf", "3",
                    "--racks", "3,3,3", "--as-cassandra", "--cassandra-version", v, "--first-token",
                    "5778609289102954400"])
        check([tokens_of_line(l) for l in out_v.splitlines() if l.startswith("Node ")] ==
              [tokens_of_line(l) for l in doc], "generatetokens as Cassandra %s" % v)
    # 2. a real 5.0 cluster (Docker defaults: allocate_tokens_for_local_replication_factor
    # 3): the second node's 16 tokens from the first node's ring, and the first node's from
    # its own first token
    ring = {}
    for line in open(os.path.join(SAMPLES, "ring-5.0-2nodes-vnodes16-effective.txt")):
        f = line.split()
        if f and f[0].startswith("172.16."):
            ring.setdefault(f[0], []).append(int(f[-1]))
    first = tmpfile("first-node.topo", "keyspace ks SimpleStrategy:1\n"
                    "node 172.16.0.11 dc=datacenter1 rack=RAC1 tokens=%s\n"
                    % ",".join(map(str, ring["172.16.0.11"])))
    out = ok(["--topology", first, "join", "ks", "172.16.0.12", "--dc", "datacenter1", "--rack",
              "RAC1", "--as-cassandra", "--rf", "3"])
    got = [int(t) for t in out.splitlines()[1].split(":", 1)[1].split(",")]
    check(sorted(got) == sorted(ring["172.16.0.12"]),
          "join --as-cassandra --rf 3 gives the tokens the real 5.0 cluster gave its 2nd node")
    check("allocate_tokens_for_local_replication_factor: 3" in out.splitlines()[0],
          "join --as-cassandra names the setting")
    starts = []
    for t in ring["172.16.0.11"]:
        out = ok(["generatetokens", "--nodes", "1", "--num-tokens", "16", "--rf", "3",
                  "--as-cassandra", "--first-token", str(t)])
        line = [l for l in out.splitlines() if l.startswith("Node 0")][0]
        if sorted(tokens_of_line(line)) == sorted(ring["172.16.0.11"]):
            starts.append(t)
    check(starts == [5196130663882084078],
          "the real cluster's first node is the split layout of one of its tokens: %r" % starts)
    # 3. keyspace mode: a vector ring replayed through the tool (SimpleStrategy 3)
    seq, nodes, probe = None, [], None
    for line in open(os.path.join(DATA, "cassandra_allocation_5.0.2.tsv")):
        f = line.rstrip("\n").split("\t")
        if f[0] == "seq":
            if probe:
                break
            seq, nodes = f[1], []
        elif f[0] == "node":
            nodes.append(f)
        elif f[0] == "probe" and f[5].startswith("simple:") and f[7].startswith("ok ") and \
                all(n[4] == "N" for n in nodes) and nodes:
            probe = f
    text = "keyspace ks SimpleStrategy:%s\n" % probe[5].split(":")[1] + "".join(
        "node %s dc=%s rack=%s tokens=%s\n" % (n[1], n[2], n[3], n[5]) for n in nodes)
    path = tmpfile("vector.topo", text)
    out = ok(["--topology", path, "join", "ks", probe[1], "--dc", probe[2], "--rack", probe[3],
              "--num-tokens", probe[4], "--as-cassandra"])
    got = [int(t) for t in out.splitlines()[1].split(":", 1)[1].split(",")]
    check(got == [int(t) for t in probe[7][3:].split(",")],
          "join --as-cassandra (keyspace) equals Cassandra's vector of %s" % seq)
    # 4. the new node's rack: a datacenter with several racks needs --rack (the error lists
    # them), a single-rack one takes its rack, --rack is honoured by generatetokens
    tsv = "replicas_2dc_3r_2r_vn8.topology.tsv"
    for cmd in (["join", "x", "10.9.9.9"], ["generatetokens", "--nodes", "1", "--num-tokens",
                                            "4", "--rf", "2"]):
        rc, out, err = run(["--topology", tsv, "--keyspace", "x=NetworkTopologyStrategy:dc2=2"]
                           + cmd + ["--dc", "dc2"])
        check(rc == 2 and "has 2 racks (r1, r2): give --rack" in err,
              "%s into a 2-rack datacenter without --rack: %d %r" % (cmd[0], rc, err))
    out = ok(["--input", os.path.abspath(os.path.join(SAMPLES, "ring-5.0-2nodes-vnodes16-effective.txt")),
              "--keyspace", "ks=SimpleStrategy:2", "join", "ks", "172.16.0.13"])
    check("(datacenter1/RAC1," in out.splitlines()[0], "join takes a single-rack datacenter's rack")
    out = ok(["generatetokens", "--nodes", "2", "--num-tokens", "4", "--rf", "2", "--rack",
              "RAC7"])
    check(all(" rack RAC7: " in l for l in out.splitlines() if l.startswith("Node ")),
          "generatetokens --rack RAC7 puts every node in RAC7")
    rc, out, err = run(["generatetokens", "--nodes", "2", "--num-tokens", "4", "--rf", "2",
                        "--rack", "a", "--racks", "1,1"])
    check(rc == 2 and "not both" in err, "--rack with --racks is a usage error")
    # 5. join prints our balance next to the one Cassandra's tokens give (checked against
    # the widths of the same join done with --as-cassandra)
    sample = os.path.abspath(os.path.join(SAMPLES, "ring-5.0-2nodes-vnodes16-effective.txt"))
    base = ["--input", sample, "--keyspace", "ks=SimpleStrategy:2", "join", "ks", "172.16.0.13"]
    line = ok(base).splitlines()[2]
    m = re.search(r"the library's plan ([0-9.]+) / ([0-9.]+); Cassandra 5\.0's allocator "
                  r"([0-9.]+) / ([0-9.]+)", line)
    check(m is not None, "join prints ours and Cassandra's balance: %r" % line)
    if m:
        jc = js(base + ["--as-cassandra"])
        w = [int(n["after_width"]) for n in jc["nodes"]]
        mean = sum(w) / len(w)
        check("%.3f / %.3f" % (max(w) / mean, min(w) / mean) ==
              "%s / %s" % (m.group(3), m.group(4)),
              "the 'Cassandra would choose' figures are those of its tokens: %r" % line)
    # 5b. the one-step plan (join --one-step) is never less balanced than Cassandra's:
    # the issue's example gives every node two thirds (SimpleStrategy: racks ignored, a
    # rack of its own changes nothing), a second node joining a one-node datacenter balances
    # primary ranges, 16 tokens join a datacenter of single-token nodes
    def balance_pair(out):
        m = re.search(r"\((effective|primary) ownership, max/mean min/mean\): the library's "
                      r"plan ([0-9.]+) / ([0-9.]+); Cassandra 5\.0's allocator ([0-9.]+) / "
                      r"([0-9.]+)", out)
        return (m.group(1), [float(m.group(i)) for i in range(2, 6)]) if m else (None, None)
    # the default plan is Cassandra's tokens (join --as-cassandra); --one-step the plan
    # best for this one join
    def tokens_line(out):
        return [l for l in out.splitlines() if l.startswith("Tokens: ")]
    check(tokens_line(ok(base)) == tokens_line(ok(base + ["--as-cassandra"])) != [],
          "join: the default plan is Cassandra's tokens")
    check("the library's plan, best in one step" in ok(base + ["--one-step"]),
          "join --one-step names its plan")
    for rack in ([], ["--rack", "rack9"]):
        j = js(base + rack + ["--one-step"])
        w = [int(n["after_width"]) for n in j["nodes"]]
        check(len(w) == 3 and all(abs(x / 2**64 - 2 / 3) < 1e-4 for x in w),
              "join (SimpleStrategy 2, 3 nodes%s): two thirds each: %r"
              % (" --rack rack9" if rack else "", [x / 2**64 for x in w]))
    one = os.path.abspath(os.path.join(SAMPLES, "ring-5.0-1node-vnodes16-owns-unknown.txt"))
    kind, f = balance_pair(ok(["--input", one, "--keyspace",
                               "ks=NetworkTopologyStrategy:datacenter1=3", "join", "ks",
                               "10.0.0.2", "--one-step"]))
    check(kind == "primary" and f[0] <= f[2] and f[1] >= f[3] and f[0] < 1.01,
          "second node of a one-node datacenter: primary balance ours <= Cassandra's: %r"
          % (f,))
    single = os.path.abspath(os.path.join(SAMPLES, "ring-3.10-1dc-5nodes-single-token.txt"))
    for ks in ("ks=SimpleStrategy:3", "ks=NetworkTopologyStrategy:datacenter1=3"):
        out = ok(["--input", single, "--keyspace", ks, "join", "ks", "10.0.0.99"])
        toks = out.splitlines()[1][len("Tokens: "):].split(",")
        kind, f = balance_pair(out)
        check(len(set(toks)) == 16 and f is not None and f[0] <= f[2] and f[1] >= f[3],
              "16 tokens join a single-token datacenter (%s), no worse than Cassandra: %r"
              % (ks, f))
    # the batch plan accepts what Cassandra accepts join after join: with no room for a
    # batch it plans the nodes join after join (16 distinct tokens each, none shared);
    # node by node, each node gets the default join plan, which fits any number
    gt = ["--input", single, "generatetokens", "--nodes", "2", "--num-tokens", "16", "--rf", "3"]
    rc, out, err = run(gt)
    nodes = [l for l in out.splitlines() if l.startswith("Node ")]
    batch = [t for l in nodes for t in l.split("[")[1].rstrip("]").split(",")]
    check(rc == 0 and len(nodes) == 2 and len(set(batch)) == 32,
          "generatetokens batch into a single-token ring plans join after join: %d %r %r"
          % (rc, err, nodes))
    out = ok(gt + ["--node-by-node"])
    nodes = [l for l in out.splitlines() if l.startswith("Node ")]
    check(len(nodes) == 2 and all(len(set(l.split("[")[1].split(","))) == 16 for l in nodes),
          "generatetokens --node-by-node into a single-token ring: 16 tokens each")
    # --racks with rack names
    out = ok(["generatetokens", "--nodes", "4", "--num-tokens", "4", "--rf", "3", "--racks",
              "RAC1=2,RAC2=1,r3=1"])
    racks = [l.split(" rack ")[1].split(":")[0] for l in out.splitlines() if l.startswith("Node ")]
    check(racks == ["RAC1", "RAC2", "r3", "RAC1"], "--racks NAME=COUNT names the racks: %r"
          % racks)
    rc, out, err = run(["generatetokens", "--nodes", "4", "--num-tokens", "4", "--rf", "3",
                        "--racks", "a=2,a=2"])
    check(rc == 2 and "named twice" in err, "--racks with a rack named twice: %d %r" % (rc, err))
    # 6. Cassandra's refusals are the tool's errors
    three = tmpfile("tworacks.topo", "keyspace ks NetworkTopologyStrategy:dc1=3\n"
                    "node 10.0.0.1 dc=dc1 rack=r1 tokens=1\nnode 10.0.0.2 dc=dc1 rack=r2 "
                    "tokens=100\n")
    rc, out, err = run(["--topology", three, "join", "ks", "10.0.0.3", "--dc", "dc1", "--rack",
                        "r1", "--num-tokens", "1", "--as-cassandra"])
    check(rc != 0 and "number of racks 2" in err,
          "join --as-cassandra refuses 2 racks < RF 3 as Cassandra does: %d %r" % (rc, err))
    rc, out, err = run(["generatetokens", "--nodes", "1", "--num-tokens", "4", "--rf", "3",
                        "--as-cassandra", "--cassandra-version", "3.11"])
    check(rc == 2 and "--cassandra-version" in err,
          "--as-cassandra with a release before 4.0 is a usage error")

def test_input_checks():
    """Issue 27 items 6 and 7, issue 35 items 7 and 8: cut listings are errors naming the
    line (warnings naming it with --allow-partial), errors name the real problem, no
    partitioner is guessed against the tokens, and inputs sharing no node are refused."""
    ring_hdr = ("Datacenter: %s\n==========\nAddress    Rack  Status State   Load       Owns"
                "    Token\n")
    row = "%-10s r1    Up     Normal  1 KiB      50%%     %d\n"
    ring_dc1 = (ring_hdr % "dc1" + "                                                  100\n"
                + row % ("10.0.0.1", -100) + row % ("10.0.0.2", 100) + "\n")
    empty_dc2 = ring_hdr % "dc2" + "                                                  200\n\n"
    st_hdr = ("Datacenter: %s\n===============\nStatus=Up/Down\n|/ State=Normal/Leaving/"
              "Joining/Moving\n--  Address    Load       Tokens  Owns (effective)  Host ID"
              "                               Rack\n")
    st_row = "UN  10.0.0.1   1 KiB      1       50%               " \
             "3d8f189c-ad47-4b1e-8ea8-c004c0cd95b5  r1\n"
    cq_hdr = " peer | data_center | rack | tokens\n------+-------------+------+--------\n"
    cut = [  # (file, text, line, column, message part)
        ("cut-ring-dc.txt", ring_dc1 + empty_dc2, 8, 1,
         "datacenter dc2 lists no node: its block ends after its header and wrap-around "
         "token, so the listing is cut or filtered"),
        ("cut-ring-none.txt", empty_dc2, 1, 1, "datacenter dc2 lists no node"),
        ("cut-status-header.txt", st_hdr % "dc1", 1, 1,
         "datacenter dc1 lists no node: its block ends after its header"),
        ("cut-status-dc2.txt", st_hdr % "dc1" + st_row + "Datacenter: dc2\n=====\n", 7, 1,
         "datacenter dc2 lists no node: its block ends after its name"),
        ("cut-cqlsh-none.txt", cq_hdr, 1, 1,
         "the cqlsh table of line 1 ends without rows or its '(N rows)' line"),
        ("cut-cqlsh-count.txt", cq_hdr + " a | d | r | {'5'}\n\n(2 rows)\n", 5, 2,
         "cqlsh says 2 rows but the table above has 1"),
        ("cut-tsv.txt", "node\tdc\track\ttokens\n", 1, 1,
         "the header is not followed by any row"),
    ]
    for name, text, line, col, msg in cut:
        path = tmpfile(name, text)
        rc, out, err = run(["--input", path, "convert"])
        check(rc == 3 and out == "" and err.startswith("tokenring: %s:%d:%d: %s"
                                                      % (path, line, col, msg))
              and "give --allow-partial" in err,
              "%s: want exit 3 at %d:%d with %r, got %d %r" % (name, line, col, msg, rc, err))
        rc, out, err = run(["--input", path, "--allow-partial", "convert"])
        check(rc == 0 and err.startswith("tokenring: warning: the input is incomplete: "
                                         "%s:%d:%d: %s" % (path, line, col, msg))
              and "allow" not in err and err.count("\n") == 1,
              "%s: --allow-partial: want one warning naming %d:%d, got %d %r"
              % (name, line, col, rc, err))
    # CR-only line endings are line breaks
    with open(os.path.join(DATA, "samples/ring-3.10-2dc-9nodes-single-token.txt")) as f:
        ring_text = f.read()
    lf = ok(["--nodetool-ring", tmpfile("ring-lf.txt", ring_text), "convert"])
    cr = ok(["--input", tmpfile("ring-cr.txt", ring_text, "\r"), "convert"])
    check(cr == lf and "node 127.0.0.9" in cr, "a CR-only ring reads as its LF copy")
    # errors that name the real problem
    ks = tmpfile("ks-no-colon.topo", "keyspace ks NetworkTopologyStrategy\n"
                 "node a dc=dc1 rack=r1 tokens=1\n")
    ks2 = tmpfile("ks-space.topo", "keyspace ks NetworkTopologyStrategy dc1=3\n"
                  "node a dc=dc1 rack=r1 tokens=1\n")
    null_peer = tmpfile("cqlsh-null.txt", cq_hdr + " a | d | r | {'5'}\n b | d | r | null\n"
                        "\n(2 rows)\n")
    dr = "".join(l + "\n" for l in open(os.path.join(
        DATA, "samples/describering-3.11-3nodes-single-token-rf3.txt")).read().splitlines())
    a = "EndpointDetails(host:127.0.0.3, datacenter:datacenter1, rack:rack1)"
    b = "EndpointDetails(host:127.0.0.1, datacenter:datacenter1, rack:rack1)"
    first = dr.split("\n")[2]
    swapped = tmpfile("describering-swapped.txt", dr.replace(first, first.replace(
        "[127.0.0.2, 127.0.0.3, 127.0.0.1]", "[127.0.0.2, 127.0.0.1, 127.0.0.3]").replace(
        a + ", " + b, b + ", " + a)))
    typo = tmpfile("murmur3-typo.topo", "node a dc=dc1 rack=r1 tokens=3074457345618258603\n"
                   "node b dc=dc1 rack=r1 tokens=30744573456182586020\n"
                   "node c dc=dc1 rack=r1 tokens=6148914691236517206\n")
    ring2 = "samples/ring-5.0-2nodes-vnodes16-effective.txt"
    st = "samples/status-4.1-3racks-vnodes16.txt"
    for args, want in [
        (["--topology", ks, "ring"], "%s:1:36: keyspace ks: expected ':' and the options "
         "after the class NetworkTopologyStrategy (e.g. NetworkTopologyStrategy:dc1=3,dc2=3 "
         "or SimpleStrategy:3)" % ks),
        (["--topology", ks2, "ring"], "%s:1:36: keyspace ks: expected ':'" % ks2),
        (["--cqlsh", null_peer, "ring"], "the tokens of node b are unknown: its row in %s "
         "(line 4) has tokens null" % null_peer),
        (["--input", swapped, "ring"], "%s:3:5: range (-9223372036854775806, "
         "-3074457345618258603]: replica 2 is 127.0.0.1 where Cassandra's order "
         "(NetworkTopologyStrategy datacenter1=3) puts 127.0.0.3 (expected [127.0.0.2, "
         "127.0.0.3, 127.0.0.1]: same replicas, other order)" % swapped),
        (["--topology", typo, "ring"], "%s:2:30: token '30744573456182586020' is outside the "
         "signed 64-bit range -9223372036854775808..9223372036854775807; 2 of the 3 tokens "
         "are Murmur3 tokens, so the ring is not read as RandomPartitioner's" % typo),
        (["--nodetool-status", st, "--nodetool-ring", ring2, "convert"],
         "%s: this input's 2 nodes (e.g. 172.16.0.12) share no node with the 3 nodes read "
         "before (e.g. 172.18.0.6): the outputs of two clusters? (give --merge-disjoint to "
         "combine them)" % ring2),
    ]:
        rc, out, err = run(args)
        check(rc == 3 and out == "" and err.startswith("tokenring: " + want),
              "%s: want exit 3 with %r, got %d %r" % (args, want, rc, err))
    rc, out, err = run(["--nodetool-status", st, "--nodetool-ring", ring2, "--merge-disjoint",
                        "convert"])
    check(rc == 0 and out.count("\nnode ") == 5, "--merge-disjoint merges: %d %r" % (rc, err))
    # system.peers_v2 and system.local share no node: merged without the flag
    rc, out, err = run(["--cqlsh", "samples/written/cqlsh-peers_v2-2dc_3r_2r_vn8.txt",
                        "--cqlsh", "samples/written/cqlsh-local-2dc_3r_2r_vn8.txt", "convert"])
    check(rc == 0, "peers_v2 + local merge: %d %r" % (rc, err))
    # an inferred partitioner is said on stderr, one line; a named one is not
    rc, out, err = run(["--topology", "samples/partitioned/random_toy.topology.tsv", "ring"])
    check(rc == 0 and err == "tokenring: note: partitioner RandomPartitioner inferred from "
          "the tokens' form (decimals up to 2^127, none negative, most above 2^63 - 1); "
          "--partitioner random names it\n", "inferred RandomPartitioner note: %r" % err)
    rc, out, err = run(["--partitioner", "random", "--topology",
                        "samples/partitioned/random_toy.topology.tsv", "ring"])
    check(rc == 0 and err == "", "a named partitioner: no note (%r)" % err)


def test_history():
    """--history: every range of the live stage's history equals 6.0-alpha2's vectors (the
    last step), stderr names the rule, bad histories are refused at their line."""
    script = os.path.join("cassandra6", "live_stage.script")
    last = {}
    with open(os.path.join(DATA, "cassandra6", "live_stage.placements")) as f:
        for line in f:
            p = line.rstrip("\n").split(" ")
            if p[0] == "step":
                last = {}
            elif p[0] == "place":
                last.setdefault(p[1].split(",")[0], []).append((int(p[3]), p[4]))
    for ks in ("ks_simple", "ks_below", "ks_above", "ks_dc2"):
        ends = [e for e, _ in last[ks] if e != -2 ** 63]
        rc, out, err = run(["--history", script, "getendpoints", ks, "--token", "--json", "--"]
                           + [str(e) for e in ends])
        check(rc == 0 and "replica order: Cassandra 6.0's, replayed from the history" in err,
              "--history %s: %d %r" % (ks, rc, err))
        got = [",".join(o["endpoints"]) for o in json.loads(out)]
        want = [eps for e, eps in last[ks] if e != -2 ** 63]
        check(got == want, "--history %s: the 6.0 order of every range" % ks)
    bad = tmpfile("bad.history", "register 10.0.0.1 dc1 r1\njoin 10.0.0.1 12,x\n")
    rc, out, err = run(["--history", bad, "ring"])
    check(rc == 3 and "bad.history:2:18: bad token" in err, "--history bad token: %d %r"
          % (rc, err))
    other = tmpfile("other.topo", "node 10.0.0.1 dc=dc1 rack=r1 tokens=1\n")
    rc, out, err = run(["--topology", other, "--keyspace", "ks=1", "--history", script,
                        "getendpoints", "ks", "k"])
    check(rc == 3 and "is not the input's" in err, "--history with another ring: %d %r"
          % (rc, err))
    # cqlsh's output of a 6.0 cluster's metadata log, directory and keyspaces: the same
    # order as the history text those rows stand for, and bad rows named
    dump = os.path.join("cassandra6", "metadata", "cqlsh-dump.txt")
    text = os.path.join("cassandra6", "metadata", "history.txt")
    toks = [str(t) for t in range(-2 ** 63 + 1, 2 ** 63 - 1, 2 ** 59)]
    for ks in ("ks_a", "ks_b", "ks_c"):
        rc, out, err = run(["--history", dump, "getendpoints", ks, "--token", "--"] + toks)
        rc2, out2, err2 = run(["--history", text, "getendpoints", ks, "--token", "--"]
                              + toks)
        check(rc == 0 and rc2 == 0 and out == out2 and out.strip(),
              "--history cqlsh dump %s: %d %r / %d %r" % (ks, rc, err, rc2, err2))
    with open(os.path.join(DATA, dump)) as f:
        dump_text = f.read()
    bad = tmpfile("bad-dump.txt", dump_text.replace("PREPARE_LEAVE", "PREPARE_LEAF"))
    rc, out, err = run(["--history", bad, "ring"])
    check(rc != 0 and "epoch 31 (PREPARE_LEAF): a kind of entry this release does not know"
          in err, "--history dump with an unknown kind: %d %r" % (rc, err))
    cut = dump_text[:dump_text.index(" node_id |")]
    rc, out, err = run(["--history", tmpfile("cut-dump.txt", cut), "ring"])
    check(rc == 3 and "the directory is missing" in err,
          "--history dump without the directory: %d %r" % (rc, err))


GROUPS = OrderedDict([("golden", test_golden), ("vectors", test_vectors),
                      ("samples", test_samples), ("roundtrip", test_roundtrip),
                      ("errors", test_errors), ("analyses", test_analyses),
                      ("rules", test_rules),
                      ("cassandra", test_cassandra), ("history", test_history)])

if ONLY and ONLY not in GROUPS:
    sys.exit("unknown group %r (the groups: %s)" % (ONLY, ", ".join(GROUPS)))

for name, fn in GROUPS.items():
    if ONLY and name != ONLY:
        continue
    before = len(failures)
    try:
        fn()
    except Exception as e:  # a crash of the driver (e.g. no JSON after a failure) fails too
        import traceback
        traceback.print_exc()
        check(False, "%s: %s: %s" % (name, type(e).__name__, e))
    print("%-10s %s" % (name, "ok" if len(failures) == before else
                        "%d failures" % (len(failures) - before)))
print("%d checks, %d failures" % (checks, len(failures)))
sys.exit(1 if failures else 0)
