#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The tool on what a real Cassandra 5.0.6 cluster printed (tests/data/captured, README
there) about partition-key types and keyspaces that place no replica:

* `getendpoints KEYSPACE TABLE KEY`, nodetool's form, with the tables' schema pasted
  (cqlsh system_schema.columns, or DESCRIBE KEYSPACE / DESCRIBE TABLE output) gives the
  server's own endpoint list, in order, for every captured key; without a schema the key
  is hashed as text (wrong for most of them) and stderr says so; an unknown table is
  refused as nodetool refuses it; a key type the reader does not take is refused clearly;
* SimpleStrategy with factor 0, and NetworkTopologyStrategy naming only a datacenter that
  lost its nodes: getendpoints prints nothing, describering every range with empty
  endpoint lists, status and ring Owns 0.0% / 0.00%, as the server did, with a warning.

usage: captured_schema.py TOOL DATA_DIR
"""
import os
import re
import subprocess
import sys

failures = []
checks = 0


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        failures.append(what)
        print("FAIL:", what)
    return cond


def check_pastes(run, ring):
    """Schema pastes the reader takes (quoted names, comments, strings, USE, views, cqlsh
    prompts, CREATE KEYSPACE) and the ones it refuses, at their line and column."""
    import tempfile
    tmp = tempfile.mkdtemp(prefix="tokenring-schema-")

    def paste(name, text):
        path = os.path.join(tmp, name)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        return path

    good = paste("good.cql", """cqlsh> DESCRIBE KEYSPACE shop
-- a comment; with a ';'
CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': '1',
    'dc2': '1'}  AND durable_writes = true;
USE shop;
CREATE TYPE shop.addr (street text, zip int);
/* CREATE TABLE shop.decoy (x blob PRIMARY KEY); */
CREATE TABLE "Quoted""Name" (
    "A" INT,
    b text,
    c frozen<map<text, int>>,
    s text static,
    PRIMARY KEY (("A", b), c)
) WITH comment = 'PRIMARY KEY (c); it''s' AND extensions = {};
CREATE FUNCTION shop.f (x int) RETURNS NULL ON NULL INPUT RETURNS int LANGUAGE java
    AS $$ return x; /* ; */ $$;
create table SHOP.Lower (K BigInt primary key, v int,);
CREATE MATERIALIZED VIEW shop.by_b AS SELECT * FROM "Quoted""Name"
    WHERE b IS NOT NULL AND "A" IS NOT NULL AND c IS NOT NULL
    PRIMARY KEY (b, "A", c) WITH comment = 'x';
""")
    for table, key, types in (('Quoted"Name', "7:x\\:y", "int,text"), ("lower", "42", "bigint"),
                              ("by_b", "x:y", "text")):
        rc, out, err = run(*ring, "--schema", good, "getendpoints", "shop", table, key)
        rc2, out2, _ = run(*ring, "--schema", good, "--types", types, "getendpoints", "shop",
                           "--", key)
        check(rc == 0 and rc2 == 0 and out == out2 and len(out.split()) == 2 and
              "warning" not in err,
              "paste: shop.%s %r as %s: got %d %r %r, --types %r" % (table, key, types, rc,
                                                                     out, err, out2))
    # a byte-order mark and CRLF line endings (a paste saved on Windows)
    bom = os.path.join(tmp, "bom.cql")
    with open(bom, "wb") as fh:
        fh.write(b"\xef\xbb\xbfCREATE TABLE shop.w (\r\n  k bigint PRIMARY KEY\r\n);\r\n")
    rc, out, err = run(*ring, "--schema", good, "--schema", bom, "getendpoints", "shop", "w",
                       "42")
    rc2, out2, _ = run(*ring, "--schema", good, "getendpoints", "shop", "lower", "42")
    check(rc == 0 and out == out2 and out, "BOM and CRLF: got %d %r %r" % (rc, out, err))
    rc, out, err = run(*ring, "--schema", good, "getendpoints", "shop", "decoy", "1")
    check(rc == 2 and "unknown table 'decoy' in keyspace 'shop'" in err and
          "Quoted\"Name" in err, "a commented-out table: got %d %r" % (rc, err))
    bad = [
        ("CREATE TABLE ks.t (k int, v int);\n", "1:14: table without a PRIMARY KEY"),
        ("CREATE TABLE t (k int PRIMARY KEY);\n", "1:14: table 't' has no keyspace"),
        ("CREATE TABLE ks.t (\n  k int,\n  PRIMARY KEY ((a), k));\n",
         "1:14: table ks.t: partition-key column 'a' is not a column of t"),
        ('CREATE TABLE ks."t (k int PRIMARY KEY);\n',
         "1:17: unterminated quoted name: expected '\"'"),
        ("CREATE TABLE ks.t (k int PRIMARY KEY, v int PRIMARY KEY);\n",
         "1:45: expected one PRIMARY KEY, found 'PRIMARY'"),
        ("CREATE TABLE ks.t (k int PRIMARY KEY\n", "2:1: expected ',' or ')' after a column "
         "definition, found the end of the input"),
        ("CREATE MATERIALIZED VIEW ks.v AS SELECT * FROM ks.base WHERE k IS NOT NULL "
         "PRIMARY KEY (k);\n", "1:26: view ks.v: its base table ks.base is not in this input"),
        ("CREATE KEYSPACE ks WITH replication = {'class': 'Foo'};\n",
         "keyspace ks: unknown replication class"),
        ("CREATE TABLE ks.t (k int PRIMARY KEY) WITH comment = 'open;\n",
         "1:54: unterminated string"),
        (" keyspace_name | table_name | column_name | kind | type\n---+---+---+---+---\n",
         "1:1: system_schema.columns without its column 'position'"),
        (" keyspace_name | table_name | column_name | kind | position | type\n"
         "---+---+---+---+---+---\n ks | t | a | partition_key | 0 | int\n"
         " ks | t | b | partition_key | 2 | int\n",
         "4: table ks.t: partition-key column b has position 2, expected 1"),
        (" keyspace_name | table_name | column_name | kind | position | type\n"
         "---+---+---+---+---+---\n ks | t | a | partition_key | 0\n",
         "3:1: expected 6 '|'-separated cells as in the header, found 5"),
        (" keyspace_name | table_name | column_name | kind | position | type\n"
         "---+---+---+---+---+---\n ks | t | a | partition_key | first | int\n",
         "3:31: expected a partition-key position (0, 1, ...), found 'first'"),
    ]
    for i, (text, msg) in enumerate(bad):
        path = paste("bad%d.txt" % i, text)
        rc, out, err = run(*ring, "--schema", path, "status")
        check(rc == 3 and out == "" and msg in err,
              "paste %r: want exit 3 with %r, got %d %r" % (text[:60], msg, rc, err))
    # two pastes of one table must agree
    a = paste("a.cql", "CREATE TABLE ks.t (k int PRIMARY KEY);")
    b = paste("b.cql", "CREATE TABLE ks.t (k text PRIMARY KEY);")
    rc, out, err = run(*ring, "--schema", a, "--schema", b, "status")
    check(rc == 3 and "table ks.t: partition key (k text) differs from (k int) read before"
          in err, "two schemas that differ: got %d %r" % (rc, err))


def main() -> int:
    tool, data = sys.argv[1], sys.argv[2]
    cap = lambda name: os.path.join(data, "captured", "5.0.6-" + name)  # noqa: E731

    def run(*args, stdin=None):
        p = subprocess.run([tool, *args], capture_output=True, text=True, input=stdin)
        return p.returncode, p.stdout, p.stderr

    keyspaces = ["--schema", cap("system_schema-keyspaces.txt")]
    ring3 = ["--nodetool-ring", cap("3dc-ring.txt")] + keyspaces
    ring2 = ["--nodetool-ring", cap("2dc-ring.txt")] + keyspaces
    schemas = {
        "system_schema.columns": ["--schema", cap("3dc-system_schema-columns.txt")],
        "DESCRIBE KEYSPACE": ["--schema", cap("3dc-describe-keyspace-ks_types.cql")],
        # the same file through --input (detected) and --cqlsh
        "system_schema.columns (--input)": ["--input", cap("3dc-system_schema-columns.txt")],
        "DESCRIBE KEYSPACE (--input)": ["--input", cap("3dc-describe-keyspace-ks_types.cql")],
    }

    # ---- getendpoints KS TABLE KEY against the server's answers
    with open(cap("3dc-getendpoints-ks_types.tsv"), encoding="utf-8") as fh:
        head = fh.readline().rstrip("\n").split("\t")
        rows = [dict(zip(head, ln.rstrip("\n").split("\t"))) for ln in fh if ln.strip()]
    answered = [r for r in rows if r["exit"] == "0" and r["table"] not in ("t_tuple",)]
    check(len(answered) >= 19, "the capture has %d answered keys" % len(answered))
    for name, schema in schemas.items():
        for r in answered:
            rc, out, err = run(*ring3, *schema, "getendpoints", "ks_types", r["table"],
                               r["key"])
            check(rc == 0 and ",".join(out.split()) == r["endpoints"] and
                  "hashed as text" not in err,
                  "%s: getendpoints ks_types %s %r: want %s, got %d %r %r"
                  % (name, r["table"], r["key"], r["endpoints"], rc, out, err))
    # DESCRIBE TABLE of one table: that table's keys
    users = [r for r in answered if r["table"] == "Users"]
    for r in users:
        rc, out, err = run(*ring3, "--schema", cap("3dc-describe-table-Users.cql"),
                           "getendpoints", "ks_types", "Users", r["key"])
        check(rc == 0 and ",".join(out.split()) == r["endpoints"],
              "DESCRIBE TABLE: Users %r: got %d %r %r" % (r["key"], rc, out, err))
    # without a schema: hashed as text, which most of these keys are not; stderr says so
    wrong = 0
    for r in answered:
        rc, out, err = run(*ring3, "getendpoints", "ks_types", r["table"], r["key"])
        wrong += ",".join(out.split()) != r["endpoints"]
        check(rc == 0 and "no schema input, so the key is hashed as text and the table is "
              "ignored" in err and "--schema FILE" in err,
              "no schema: %s %r: want the warning, got %d %r" % (r["table"], r["key"], rc, err))
    check(wrong >= 10, "without the schema only %d of %d keys differ: the check is too weak"
          % (wrong, len(answered)))
    # a schema that lacks the keyspace: the same warning, naming it
    rc, out, err = run(*ring3, "--schema", cap("3dc-describe-table-Users.cql"),
                       "getendpoints", "ks_rf0", "kv", "alice")
    check(rc == 0 and "has no table of keyspace ks_rf0" in err,
          "schema without the keyspace: got %d %r" % (rc, err))
    # an unknown table: refused, as nodetool refuses it
    with open(cap("3dc-getendpoints-unknown-table.txt"), encoding="utf-8") as fh:
        server = fh.read()
    check("Unknown table 'nosuch' in keyspace 'ks_types'" in server, "the capture's refusal")
    for schema in schemas.values():
        rc, out, err = run(*ring3, *schema, "getendpoints", "ks_types", "nosuch", "k")
        check(rc == 2 and out == "" and "unknown table 'nosuch' in keyspace 'ks_types'" in err
              and "Users" in err and "c_text_int" in err,
              "unknown table: got %d %r" % (rc, err))
    # a key type the reader does not take: refused, naming the column, the type and --hex
    for schema in schemas.values():
        rc, out, err = run(*ring3, *schema, "getendpoints", "ks_types", "t_tuple", "1:a")
        check(rc == 3 and out == "" and "partition-key column k has type "
              "frozen<tuple<int, text>>" in err and "--hex" in err,
              "frozen tuple key: got %d %r" % (rc, err))
    # --types that contradict the schema: read as --types say, with a warning
    rc, out, err = run(*ring3, *schemas["DESCRIBE KEYSPACE"], "--types", "text",
                       "getendpoints", "ks_types", "t_int", "42")
    check(rc == 0 and "--types text differs from the partition key of table ks_types.t_int "
          "in the schema input (int)" in err, "--types against the schema: %d %r" % (rc, err))
    # --hex: the bytes as given, the table still checked
    rc, out, err = run(*ring3, *schemas["DESCRIBE KEYSPACE"], "--hex", "getendpoints",
                       "ks_types", "t_int", "0000002a")
    want = [r for r in answered if r["table"] == "t_int" and r["key"] == "42"][0]
    check(rc == 0 and ",".join(out.split()) == want["endpoints"] and "warning" not in err,
          "--hex with a schema: got %d %r %r" % (rc, out, err))

    # ---- keyspaces that place no replica
    for ring, ks, tag in ((ring3, "ks_rf0", "3dc"), (ring2, "ks_dc3", "2dc")):
        def server(cmd):
            with open(cap("%s-%s-%s.txt" % (tag, cmd, ks)), encoding="utf-8") as fh:
                return fh.read()
        rc, out, err = run(*ring, "getendpoints", ks, "kv", "alice")
        check(rc == 0 and out == server("getendpoints") == "" and
              "every replica list is empty" in err,
              "%s getendpoints: got %d %r %r" % (ks, rc, out, err))
        rc, out, err = run(*ring, "describering", ks)
        lines = lambda t: {ln.strip() for ln in t.splitlines()  # noqa: E731
                           if ln.strip().startswith("TokenRange(")}
        want = lines(server("describering"))
        check(rc == 0 and len(want) >= 8 and lines(out) == want and
              "every replica list is empty" in err,
              "%s describering: got %d, %d of %d lines differ %r" % (ks, rc,
              len(lines(out) ^ want), len(want), err))
        owns = lambda t: re.findall(r"^[UD][NLJM]  (\S+) .*?(\d+\.\d%)", t, re.M)  # noqa
        rc, out, err = run(*ring, "status", ks)
        want = owns(server("status"))
        check(rc == 0 and want and sorted(owns(out)) == sorted(want) and
              all(o == "0.0%" for _, o in want) and "Owns (effective)" in out,
              "%s status: want %r, got %d %r" % (ks, want, rc, owns(out)))
        # with nodetool status merged in (host IDs, Load): byte for byte the server's
        rc, out, err = run(*ring, "--nodetool-status", cap("%s-status.txt" % tag), "status", ks)
        check(rc == 0 and out == server("status"),
              "%s status with the status paste: not the server's bytes: %r" % (ks, out[:400]))
        ring_owns = lambda t: sorted(  # noqa: E731
            (m.group(1), m.group(3), m.group(4)) for m in re.finditer(
                r"^(\S+)\s+\S+\s+Up\s+Normal\s+(\S+ \S+|\?)\s+(\S+)\s+(-?\d+)\s*$", t, re.M))
        rc, out, err = run(*ring, "ring", ks)
        want = ring_owns(server("ring"))
        check(rc == 0 and len(want) >= 8 and ring_owns(out) == want and
              all(o == "0.00%" for _, o, _ in want),
              "%s ring: want %r, got %d %r" % (ks, want[:2], rc, ring_owns(out)[:2]))
    check_pastes(run, ring3)
    print("captured_schema: %d checks, %d failures" % (checks, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
