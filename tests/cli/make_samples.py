#!/usr/bin/env python3
"""Writes tests/data/samples/written/: inputs in the formats Cassandra prints, written by
following the format notes (cqlsh tables of system.peers_v2 / system.local with the tokens
column, and a `nodetool ring` with Down/Leaving/Moving/Joining nodes in the 4.x layout).
Run once; the outputs are committed. Usage: make_samples.py DATA_DIR"""
import os
import sys

data = sys.argv[1]
out = os.path.join(data, "samples", "written")


def topology(name):
    nodes = []
    with open(os.path.join(data, "replicas_%s.topology.tsv" % name)) as f:
        next(f)
        for line in f:
            n, dc, rack, toks = line.rstrip("\n").split("\t")
            nodes.append((n, dc, rack, [int(t) for t in toks.split(",")]))
    return nodes


def cqlsh_table(header, rows, ralign):
    """cqlsh layout: ' a | b ' with a '-+-' rule, values padded to the widest cell."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    def line(cells, head=False):
        parts = []
        for i, c in enumerate(cells):
            if head or not ralign[i]:
                parts.append(" " + c.ljust(widths[i]) + " ")
            else:
                parts.append(" " + c.rjust(widths[i]) + " ")
        return "|".join(parts).rstrip() + "\n"
    s = line(header, True)
    s += "+".join("-" * (w + 2) for w in widths) + "\n"
    for r in rows:
        s += line(r)
    s += "\n(%d rows)\n" % len(rows)
    return s


def token_set(tokens):
    # set<text> comes back in string (byte) order, not numeric order
    return "{" + ", ".join("'%d'" % t for t in sorted(tokens, key=lambda t: str(t))) + "}"


def write(name, text, crlf=False):
    if crlf:
        text = text.replace("\n", "\r\n")
    with open(os.path.join(out, name), "w", newline="") as f:
        f.write(text)


nodes = topology("2dc_3r_2r_vn8")
local, peers = nodes[0], nodes[1:]
peers_rows = [(n, "7000", dc, rack, token_set(t)) for n, dc, rack, t in peers]
write("cqlsh-peers_v2-2dc_3r_2r_vn8.txt",
      cqlsh_table(["peer", "peer_port", "data_center", "rack", "tokens"], peers_rows,
                  [False, True, True, True, False]))
write("cqlsh-local-2dc_3r_2r_vn8.txt",
      cqlsh_table(["broadcast_address", "data_center", "host_id", "rack", "tokens"],
                  [(local[0], local[1], "0b0b6ad4-8b0b-4f0e-9d21-8c1c2b1d0a01", local[2],
                    token_set(local[3]))],
                  [False, True, False, True, False]), crlf=True)

# nodetool ring, 4.x layout (address column sized for ip:port), toy topology with states
toy = [("10.0.0.1", "r1", "Up", "Normal", "100.00%", [10, 50]),
       ("10.0.0.2", "r1", "Down", "Leaving", "100.00%", [30, 80]),
       ("10.0.0.3", "r2", "Up", "Moving", "0.00%", [65, 95]),
       ("10.0.0.4", "r2", "?", "Joining", "?", [20, 99])]
rows = sorted(((t, a, r, s, st, o) for a, r, s, st, o, ts in toy for t in ts))
w = max(len(a) + 5 for a, *_ in toy)
fmt = "%-{}s  %-12s%-7s%-8s%-16s%-20s%-44s\n".format(w)
s = "\nDatacenter: dc1\n==========\n"
s += fmt % ("Address", "Rack", "Status", "State", "Load", "Owns", "Token")
s += fmt % ("", "", "", "", "", "", str(rows[-1][0]))
for t, a, r, st, state, o in rows:
    s += fmt % (a, r, st, state, "1.5 MiB", o, str(t))
s += "\n  Warning: \"nodetool ring\" is used to output all the tokens of a node.\n"
s += "  To view status related info of a node use \"nodetool status\" instead.\n\n"
write("ring-4.x-states-toy.txt", s)

# nodetool status, 4.x layout, every status/state code (public samples lack UL, UM, ?N)
rows = [("UN", "10.0.1.1", "101.2 KiB", "16", "33.5%", "5e0d4fd6-6d4a-4a0e-9a38-9c1a4f4a0001", "r1"),
        ("DN", "10.0.1.2", "99.87 KiB", "16", "31.0%", "5e0d4fd6-6d4a-4a0e-9a38-9c1a4f4a0002", "r2"),
        ("UL", "10.0.1.3", "1.02 MiB", "16", "35.5%", "5e0d4fd6-6d4a-4a0e-9a38-9c1a4f4a0003", "r3"),
        ("UM", "10.0.2.1", "12 bytes", "16", "50.0%", "5e0d4fd6-6d4a-4a0e-9a38-9c1a4f4a0004", "r1"),
        ("?N", "10.0.2.2", "?", "16", "50.0%", "5e0d4fd6-6d4a-4a0e-9a38-9c1a4f4a0005", "rack-two"),
        ("UJ", "10.0.2.3", "30.9 KiB", "16", "?", "5e0d4fd6-6d4a-4a0e-9a38-9c1a4f4a0006", "r1")]
head = ("--", "Address", "Load", "Tokens", "Owns (effective)", "Host ID", "Rack")
widths = [max(len(x) for x in col) for col in zip(head, *rows)]
def srow(cells):
    return "  ".join(c.ljust(w) for c, w in zip(cells, widths)) + "\n"
s = ""
for dc, members in (("dc1", rows[:3]), ("dc2", rows[3:])):
    title = "Datacenter: " + dc
    s += title + "\n" + "=" * len(title) + "\nStatus=Up/Down\n|/ State=Normal/Leaving/Joining/Moving\n"
    s += srow(head) + "".join(srow(r) for r in members) + "\n"
write("status-4.x-all-states.txt", s)

# cqlsh `SELECT * FROM system_schema.keyspaces` on a 5.0 cluster with the datacenters of
# 2dc_3r_2r_vn8, laid out as cqlsh's print_formatted_result does (header cells left-
# justified, every row cell right-justified, ' | ' between cells), the replication map as
# cqlsh's formatter prints a map<text, text> (full Java class names). The system keyspaces
# are those of 5.0 with their default replication; the order is cqlsh's (token order of
# the partition keys), not alphabetical.
L = "org.apache.cassandra.locator."
ks_rows = [
    ("system_auth", "True", "{'class': '%sSimpleStrategy', 'replication_factor': '1'}" % L),
    ("system_schema", "True", "{'class': '%sLocalStrategy'}" % L),
    ("shop", "True", "{'class': '%sNetworkTopologyStrategy', 'dc1': '3', 'dc2': '2'}" % L),
    ("system_distributed", "True",
     "{'class': '%sSimpleStrategy', 'replication_factor': '3'}" % L),
    ("system", "True", "{'class': '%sLocalStrategy'}" % L),
    ("audit", "False", "{'class': '%sNetworkTopologyStrategy', 'dc1': '3/1'}" % L),
    ("system_traces", "True", "{'class': '%sSimpleStrategy', 'replication_factor': '2'}" % L),
]
write("cqlsh-system_schema-keyspaces-5.0.txt",
      cqlsh_table(["keyspace_name", "durable_writes", "replication"], ks_rows,
                  [True, True, True]))
