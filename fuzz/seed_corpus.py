#!/usr/bin/env python3
"""Writes the seed corpus of every fuzz target from the golden vectors and samples.

Run from the repository root: fuzz/seed_corpus.py. Files are named by the SHA-1 of their
content, as libFuzzer names what it finds, so re-running adds nothing twice. Crashes found
by fuzzing are added to the same folders and replayed by `meson test --suite fuzz`."""
import csv, hashlib, os, random, struct, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data")
CORPUS = os.path.join(ROOT, "fuzz", "corpus")

TYPES = ["ascii", "bigint", "blob", "boolean", "date", "decimal", "double", "float", "inet",
         "int", "smallint", "text", "time", "timestamp", "timeuuid", "tinyint", "uuid",
         "varint"]


def rows(name):
    with open(os.path.join(DATA, name), newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def put(target, blob):
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(blob).hexdigest()), "wb") as f:
        f.write(blob)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def seed_parsers(rnd):
    """Parser targets: the first byte is the mode (bit 0 ALLOW_PARTIAL, bit 1 merge into a
    non-empty cluster, bits 2-3 the format where the target has a choice)."""
    samples = os.path.join(DATA, "samples")
    files = [os.path.join(samples, f) for f in sorted(os.listdir(samples))]
    files += [os.path.join(samples, "written", f)
              for f in sorted(os.listdir(os.path.join(samples, "written")))]
    # RandomPartitioner and ByteOrderedPartitioner clusters (5.0.6-P-ring.txt, ...)
    captured = os.path.join(DATA, "captured")
    for f in sorted(os.listdir(captured)):
        if f.endswith(".txt"):
            parts = f.split("-", 2)
            files.append((os.path.join(captured, f), parts[2] if len(parts) == 3 else f))
    for path in files:
        path, name = path if isinstance(path, tuple) else (path, os.path.basename(path))
        if name == "cqlsh.txt":
            name = "cqlsh-captured.txt"
        text = read(path) if os.path.isfile(path) else b""
        if len(text) > 64 * 1024 or not text:
            continue
        if name.startswith("ring-"):
            put("parse_nodetool", bytes([1]) + text)
            put("parse_nodetool", bytes([8 | 2]) + text)  # AUTO, merged
        elif name.startswith("status-"):
            put("parse_nodetool", bytes([4 | 1]) + text)
            put("parse_nodetool", bytes([8 | 1]) + text)
        elif "cqlsh" in name:
            put("parse_cqlsh", bytes([1]) + text)
            put("parse_cqlsh", bytes([2]) + text)
        elif name.startswith("describering-"):
            put("parse_describering", bytes([0]) + text)
            put("parse_describering", bytes([4 | 2]) + text)  # AUTO, merged
            # a range dropped (a gap: refused, or partial with bit 0)
            lines = text.split(b"\n")
            put("parse_describering", bytes([1]) + b"\n".join(lines[:3] + lines[4:]))
        elif name.startswith("getendpoints-"):
            put("parse_describering", bytes([4]) + text)
    ep = lambda hs, dc=", datacenter:d, rack:r": (
        "endpoints:[%s], rpc_endpoints:[%s], endpoint_details:[%s])"
        % (", ".join(hs), ", ".join(hs),
           ", ".join("EndpointDetails(host:%s%s)" % (h, dc) for h in hs)))
    for text in [
        "TokenRange:\n TokenRange(start_token:7, end_token:7, %s\n" % ep(["n"]),
        "Schema Version:x\nTokenRange: \n\tTokenRange(start_token:20, end_token:10, %s\n"
        "\tTokenRange(start_token:10, end_token:20, %s\n" % (ep(["a", "b"]), ep(["a", "b"])),
        "TokenRange:\n\tTokenRange(start_token:20, end_token:10, %s\n"
        "\tTokenRange(start_token:10, end_token:20, %s\n" % (ep(["a"], ""), ep(["b"])),
        "TokenRange:\n\tTokenRange(start_token:5, end_token:10, endpoints:[], "
        "rpc_endpoints:[], endpoint_details:[])\n  ...\n",
        "127.0.0.1\n[::1]:7000\n",
        " \r\n",
    ]:
        put("parse_describering", bytes([0]) + text.encode())
        put("parse_describering", bytes([5]) + text.encode())
    for f in sorted(os.listdir(DATA)):
        if not f.endswith(".topology.tsv"):
            continue
        text = read(os.path.join(DATA, f))
        put("parse_topology", bytes([4]) + text)  # TSV
        put("parse_nodetool", bytes([12 | 2]) + text)  # TSV via the ring target's choice
        # the same nodes as a topology file, with a keyspace
        lines = text.decode().splitlines()[1:]
        topo = "keyspace ks NetworkTopologyStrategy:dc1=3,dc2=2/1\n"
        for ln in lines:
            node, dc, rack, toks = ln.split("\t")
            topo += "node %s dc=%s rack=%s tokens=%s\n" % (node, dc, rack, toks)
        put("parse_topology", bytes([rnd.randrange(4) & ~0]) + topo.encode())
    doc = read(os.path.join(ROOT, "doc", "topology-format.md")).decode()
    for block in doc.split("```")[1::2]:
        body = block.split("\n", 1)[1] if "\n" in block else block
        put("parse_topology", bytes([0]) + body.encode())
        put("parse_topology", bytes([3]) + body.encode())
    for text in [
        "keyspace shop NetworkTopologyStrategy:dc1=3,dc2=2   # comment\n"
        "keyspace logs {'class': 'SimpleStrategy', 'replication_factor': '2'}\n"
        "node 10.0.0.1 dc=dc1 rack=r1 tokens=50,-9223372036854775808\n"
        "node 10.0.0.2 rack=r2 dc=dc1 state=joining status=down host_id=abc tokens=7,\n"
        "    8,9\n\t10 11\n"
        "node \"x y\" dc=\"d\\\"c\" rack=r tokens=-5\n"
        "node 10.0.0.4 dc=dc2 rack=r1 tokens=100,200 num_tokens=2\r\n"
        "node 10.0.0.5 dc=dc2 rack=r1 status=unknown state=leaving tokens=300",
        "node a dc=d rack=r num_tokens=16\n",
        "node a dc=d rack=r tokens=1\nnode a dc=d rack=r tokens=2\n",
        "node a dc=d rack=r tokens=9223372036854775808\n",
        "partitioner RandomPartitioner\nnode a dc=d rack=r tokens=0,170141183460469231731687303715884105728\n",
        "partitioner byteordered\nnode a dc=d rack=r tokens=00ff,3132\nnode b dc=d rack=r tokens=ab\n",
        "node a dc=d rack=r tokens=0a,ff01\nnode b dc=d rack=r tokens=c0ffee\n",
        "keyspace k 3\nkeyspace k 2\n",
        "node \"unterminated dc=d rack=r tokens=1\n",
        # names the writer quotes: a keyspace named ' beside a datacenter holding " #"
        "keyspace ' {'class': 'NetworkTopologyStrategy', 'x #y': '1', 'a''b': '2'}\n"
        "node a dc=\"x #y\" rack=\"'\" tokens=1\n",
    ]:
        put("parse_topology", bytes([0]) + text.encode())
        put("parse_topology", bytes([3]) + text.encode())


def main():
    rnd = random.Random(1)
    toks = rows("murmur3_tokens.tsv")
    for r in rnd.sample(toks, 60):
        put("hash", bytes([rnd.randrange(256)]) + bytes.fromhex(r["key_hex"]))
    put("hash", b"")
    for r in rows("murmur3_cql_values.tsv"):
        t = TYPES.index(r["cql_type"])
        put("key_parse", bytes([0, t, 0, 0]) + r["value_string"].encode())
    for r in rows("murmur3_composite.tsv")[:60]:
        ts = r["cql_types"].split(",")
        if len(ts) <= 3 and all(x in TYPES for x in ts):
            idx = [TYPES.index(x) for x in ts] + [0] * (3 - len(ts))
            put("key_parse", bytes([len(ts) - 1] + idx) + r["value_string"].encode())
    for text in ["3", "SimpleStrategy:3", "NetworkTopologyStrategy:dc1=3,dc2=2/1",
                 "dc1=3,dc2=0", "{'class': 'SimpleStrategy', 'replication_factor': '3'}",
                 "{'class': 'org.apache.cassandra.locator.NetworkTopologyStrategy', "
                 "'dc1': '3', 'dc2': '2/1'}", "dc1=-1", "dc1=3/3", "{", ""]:
        put("replication", text.encode())
    for i in range(40):
        put("builder", bytes(rnd.randrange(256) for _ in range(rnd.randrange(8, 400))))
    seed_parsers(rnd)
    for i in range(40):
        put("analysis", bytes(rnd.randrange(256) for _ in range(rnd.randrange(16, 300))))
    print("corpus written to", CORPUS)


if __name__ == "__main__":
    sys.exit(main())
