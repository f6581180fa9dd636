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
    print("corpus written to", CORPUS)


if __name__ == "__main__":
    sys.exit(main())
