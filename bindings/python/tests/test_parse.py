# SPDX-License-Identifier: Apache-2.0
"""Cluster descriptions (parse.h): topology files, nodetool text, TSV, merging, errors, and
the inputs of clusters of every partitioner."""
import os

import pytest

import tokenring
import tokenring as tr
from tokenring import Cluster, InputFormat, NodeState, ParseError, Replication
from conftest import DATA, load_topology

RING_TEXT = """
Datacenter: datacenter1
==========
Address    Rack        Status State   Load            Owns                Token
                                                                          5534023222112865484
127.0.0.1  rack1       Up     Normal  98.97 KiB       40.00%              -9223372036854775808
127.0.0.2  rack1       Up     Normal  98.98 KiB       40.00%              -5534023222112865485
127.0.0.3  rack1       Up     Normal  98.98 KiB       40.00%              -1844674407370955162
127.0.0.4  rack1       Up     Normal  98.98 KiB       40.00%              1844674407370955161
127.0.0.5  rack1       Up     Normal  98.98 KiB       40.00%              5534023222112865484
"""

TOPOLOGY_TEXT = """# two datacenters
keyspace shop NetworkTopologyStrategy:dc1=2,dc2=1
node a dc=dc1 rack=r1 tokens=-100,100
node b dc=dc1 rack=r2 tokens=0
node c dc=dc2 rack=r1 state=leaving tokens=50
"""


def test_nodetool_ring():
    assert tokenring.detect_format(RING_TEXT) is InputFormat.NODETOOL_RING
    assert InputFormat.NODETOOL_RING.short_name == "nodetool-ring"
    c = Cluster.parse(RING_TEXT)
    assert len(c) == 5 and not c.partial and not c.tokens_unknown
    assert [n.name for n in c.nodes] == [f"127.0.0.{i}" for i in range(1, 6)]
    assert c.nodes[0].tokens == (-9223372036854775808,)
    ring = c.ring()
    assert ring.owner(0) == "127.0.0.4"
    assert ring.owner(tokenring.MAX_TOKEN) == "127.0.0.1"


def test_topology_file_round_trip():
    c = Cluster.parse(TOPOLOGY_TEXT)
    assert list(c.keyspaces) == ["shop"]
    assert c.keyspace("shop") == Replication.parse("dc1=2,dc2=1")
    nodes = {n.name: n for n in c.nodes}
    assert nodes["c"].state is NodeState.LEAVING and nodes["a"].tokens == (-100, 100)
    assert nodes["a"].line == 3
    text = c.format()
    again = Cluster.parse(text, InputFormat.TOPOLOGY)
    assert again.format() == text
    assert again.nodes == [n._replace(line=m.line) for n, m in zip(c.nodes, again.nodes)]
    ring = c.ring()
    # token 1 -> range (0, 50] of c; then a at 100 (dc1 r1), b at 0 (dc1 r2)
    assert ring.replicas(1, c.keyspace("shop")) == ("c", "a", "b")


def test_tsv_vector_topology_matches_builder():
    with open(f"{DATA}/replicas_2dc_3r_2r_vn8.topology.tsv", encoding="utf-8") as f:
        text = f.read()
    assert tokenring.detect_format(text) is InputFormat.TSV
    c = Cluster.parse(text)
    with load_topology("2dc_3r_2r_vn8") as topo:
        want = tokenring.Ring(topo)
    got = c.ring()
    assert list(got.tokens) == list(want.tokens)
    assert got.token_owners == want.token_owners


def test_parse_error_leaves_cluster_unchanged():
    c = Cluster.parse(TOPOLOGY_TEXT)
    before = (c.nodes, c.format())
    with pytest.raises(ParseError) as ei:
        c.add("node d dc=dc1 rack=r1 tokens=12x\n", InputFormat.TOPOLOGY)
    assert ei.value.line == 1 and ei.value.column > 1
    assert ei.value.code == tokenring._lib.TOKENRING_E_PARSE
    with pytest.raises(tokenring.ExistsError):
        c.add("node d dc=dc1 rack=r1 tokens=0\n", InputFormat.TOPOLOGY)  # b holds 0
    assert (c.nodes, c.format()) == before
    with pytest.raises(tokenring.NotFoundError):
        c.keyspace("nope")


def test_merge_and_unknown_tokens():
    c = Cluster.parse("node x dc=dc1 rack=r1 num_tokens=16\n")
    assert c.tokens_unknown
    assert c.nodes[0].declared_tokens == 16 and c.nodes[0].tokens == ()
    with pytest.raises(tokenring.EmptyError):
        c.topology()
    c2 = Cluster()
    c2.add_topology(load_topology("toy"))
    c2.add_keyspace("ks", 2)
    assert c2.ring().replicas(42, c2.keyspace("ks")) == ("A", "C")
    with pytest.raises(tokenring.ExistsError):
        c2.add_keyspace("ks", 3)
    with pytest.raises(tokenring.EmptyError):
        Cluster().topology()


def test_nodetool_describering():
    """A pasted describering is read through the generic parse: each range's end token
    belongs to its first endpoint (the 1,536 ranges of a 3-rack ccm cluster here)."""
    path = f"{DATA}/samples/describering-ccm-vnodes256-6nodes-3racks.txt"
    with open(path, encoding="utf-8") as f:
        text = f.read()
    assert tokenring.detect_format(text) is InputFormat.NODETOOL_DESCRIBERING
    assert InputFormat.NODETOOL_DESCRIBERING.short_name == "nodetool-describering"
    c = Cluster.parse(text)
    assert len(c) == 6 and not c.partial and not c.tokens_unknown
    racks = {n.name: n.rack for n in c.nodes}
    assert racks["127.0.0.1"] == "rack1" and racks["127.0.0.4"] == "rack2"
    assert all(len(n.tokens) == 256 for n in c.nodes)
    # the file's first range: (236226276953227033, 274158322884995148] -> 127.0.0.1 first
    assert c.ring().owner(274158322884995148) == "127.0.0.1"
    # replicas of that range under the keyspace's replication, in the listed order
    first = text.splitlines()[2]
    listed = first.split("endpoints:[")[1].split("]")[0].split(", ")
    ring = c.ring()
    assert list(ring.replicas(274158322884995148, {"dc1": 3})) == listed


def test_describering_refused_and_getendpoints():
    bad = ("TokenRange:\n\tTokenRange(start_token:20, end_token:10, endpoints:[a, b], "
           "rpc_endpoints:[a, b], endpoint_details:[EndpointDetails(host:a, datacenter:d, "
           "rack:r), EndpointDetails(host:b, datacenter:d, rack:r)])\n"
           "\tTokenRange(start_token:10, end_token:20, endpoints:[a, b], rpc_endpoints:[a, b], "
           "endpoint_details:[EndpointDetails(host:a, datacenter:d, rack:r), "
           "EndpointDetails(host:b, datacenter:d, rack:r)])\n")
    with pytest.raises(ParseError, match="node b is a replica of range"):
        Cluster.parse(bad)
    with open(f"{DATA}/samples/getendpoints-5.0-nts-2dc-crlf.txt", encoding="utf-8") as f:
        with pytest.raises(ParseError, match="nodetool getendpoints output"):
            Cluster.parse(f.read())
    with pytest.raises(ParseError, match="empty input"):
        Cluster.parse("")


def test_system_schema_keyspaces():
    """cqlsh's SELECT * FROM system_schema.keyspaces gives each keyspace's replication;
    the LocalStrategy system keyspaces are skipped and listed with their class."""
    w = f"{DATA}/samples/written"
    with open(f"{w}/cqlsh-system_schema-keyspaces-5.0.txt", encoding="utf-8") as f:
        schema = f.read()
    c = Cluster.parse(schema)
    assert list(c.keyspaces) == ["system_auth", "shop", "system_distributed", "audit",
                                 "system_traces"]
    assert str(c.keyspace("shop")) == \
        "{'class': 'NetworkTopologyStrategy', 'dc1': '3', 'dc2': '2'}"
    assert c.skipped_keyspaces == {
        "system_schema": "org.apache.cassandra.locator.LocalStrategy",
        "system": "org.apache.cassandra.locator.LocalStrategy"}
    for name in ("cqlsh-peers_v2-2dc_3r_2r_vn8.txt", "cqlsh-local-2dc_3r_2r_vn8.txt"):
        with open(f"{w}/{name}", encoding="utf-8") as f:
            c.add(f.read())
    assert len(c) == 10
    assert len(c.ring().replicas(0, c.keyspace("shop"))) == 5
    with pytest.raises(ParseError, match="unknown replication class"):
        Cluster.parse(" keyspace_name | replication\n---+---\n ks | {'class': 'Foo'}\n")


def test_nodetool_columns_kept():
    """A pasted nodetool status keeps its Load (two fields, one cell) and Owns cells."""
    with open(f"{DATA}/samples/status-4.1-3racks-vnodes16.txt", encoding="utf-8") as f:
        c = Cluster.parse(f.read())
    cols = c.nodetool_columns
    assert cols["172.18.0.2"] == ("109.38 KiB", "64.7%")
    with open(f"{DATA}/samples/status-5.0-uj-joining-vnodes16.txt", encoding="utf-8") as f:
        c = Cluster.parse(f.read())
    assert c.nodetool_columns["172.16.0.12"] == ("30.9 KiB", None)  # Owns '?'


def test_cut_listing_disjoint_inputs_and_inferred_partitioner():
    # a nodetool ring datacenter block without rows is cut: an error naming its line
    cut = RING_TEXT + "\nDatacenter: dc2\n==========\nAddress  Rack  Status State  Load  " \
                      "Owns  Token\n                 100\n"
    with pytest.raises(ParseError) as e:
        Cluster.parse(cut)
    assert e.value.line == 12 and "datacenter dc2 lists no node" in str(e.value)
    c = Cluster.parse(cut, allow_partial=True)
    assert c.partial and len(c) == 5
    # another cluster's listing shares no node: refused unless asked for
    status = ("Datacenter: dc9\n=======\nStatus=Up/Down\n|/ State=Normal/Leaving/Joining/"
              "Moving\n--  Address  Load  Tokens  Owns  Host ID  Rack\n"
              "UN  10.9.9.9  1 KiB  1  ?  ?  r1\n")
    c = Cluster.parse(RING_TEXT)
    with pytest.raises(tokenring.InvalidArgumentError, match="shares? no node"):
        c.add(status)
    assert len(c) == 5
    c.add(status, merge_disjoint=True)
    assert len(c) == 6
    # the partitioner: Murmur3 is the default, never inferred; RandomPartitioner is
    assert not Cluster.parse(RING_TEXT).partitioner_inferred
    r = Cluster.parse("node a dc=d rack=r tokens=0,85070591730234615865843651857942052864\n")
    assert r.partitioner is tokenring.Partitioner.RANDOM and r.partitioner_inferred
    r = Cluster.parse("node a dc=d rack=r tokens=0,85070591730234615865843651857942052864\n",
                      partitioner="random")
    assert not r.partitioner_inferred
    # a Murmur3 ring with one mistyped token is not read as RandomPartitioner's
    with pytest.raises(tokenring.RangeError, match="2 of the 3 tokens are Murmur3 tokens"):
        Cluster.parse("node a dc=d rack=r tokens=3074457345618258603\n"
                      "node b dc=d rack=r tokens=30744573456182586020\n"
                      "node c dc=d rack=r tokens=6148914691236517206\n")


def test_pasted_text():
    """What operators paste (issue 35, item 10): a prompt line, the JVM's notice and an
    indented block read as the plain listing; the seed's queries without data_center and
    rack give datacenter1/rack1, which default_dc_rack says."""
    pasted = "user@host:~$ nodetool ring\nPicked up JAVA_TOOL_OPTIONS: -Xss1m\n" + \
        "".join("    " + line + "\n" if line else "\n" for line in RING_TEXT.split("\n"))
    assert Cluster.parse(pasted).format() == Cluster.parse(RING_TEXT).format()
    assert not Cluster.parse(pasted).default_dc_rack
    seed = ("cqlsh> SELECT peer, tokens FROM system.peers_v2;\n\n"
            " peer | tokens\n------+--------\n    b | {'5'}\n\n(1 rows)\n"
            "\n@ Row 1\n--------+-------\n tokens | {'-5', '7'}\n\n(1 rows)\n")
    c = Cluster.parse(seed)
    assert c.default_dc_rack
    assert [(n.name, n.datacenter, n.rack, n.tokens) for n in c.nodes] == [
        ("b", "datacenter1", "rack1", (5,)), ("local", "datacenter1", "rack1", (-5, 7))]
    with pytest.raises(ParseError, match="lacks the column rack"):
        Cluster.parse(" peer | data_center | tokens\n---+---+---\n b | d | {'5'}\n")


# ----------------------- inputs of RandomPartitioner and ByteOrderedPartitioner clusters

def capture(data_dir, short, name):
    with open(os.path.join(data_dir, "captured", f"5.0.6-{short}-{name}.txt"), "rb") as f:
        return f.read()


@pytest.mark.parametrize("short,part", [("random", tr.Partitioner.RANDOM),
                                        ("byteordered", tr.Partitioner.BYTE_ORDERED)])
def test_captured_inputs(data_dir, short, part):
    rings = {}
    for name in ("ring", "cqlsh", "describering-ks_simple", "describering-ks_nts"):
        c = tr.Cluster.parse(capture(data_dir, short, name))
        assert c.partitioner == part, name
        assert c.topology().partitioner == part
        rings[name] = {n.name: n.tokens for n in c.nodes}
        for n in c.nodes:
            assert n.declared_tokens == len(n.tokens) > 0
            for t in n.tokens:
                if part == tr.Partitioner.RANDOM:
                    assert isinstance(t, int) and 0 <= t <= 2**127
                else:
                    assert isinstance(t, bytes) and len(t) == 16
    first = rings["ring"]
    assert sorted(len(v) for v in first.values()) == [4, 4, 8]
    for name, ring in rings.items():
        assert ring == first, name
    # nodetool status (no tokens) merges with any of them; the written topology file
    # names the partitioner and reads back the same
    c = tr.Cluster.parse(capture(data_dir, short, "status-ks_simple"))
    assert c.tokens_unknown and c.partitioner == tr.Partitioner.MURMUR3
    c.add(capture(data_dir, short, "ring"))
    assert c.partitioner == part and not c.tokens_unknown
    text = c.format()
    assert f"partitioner {tr.partitioner_name(part)}\n" in text
    back = tr.Cluster.parse(text)
    assert {n.name: n.tokens for n in back.nodes} == first
    # the cluster's partitioner reads the next inputs: a Murmur3 token does not fit
    with pytest.raises(tr.RangeError if part == tr.Partitioner.RANDOM else tr.ParseError):
        c.add("node 10.9.9.9 dc=dc1 rack=r1 tokens=-5\n")
    assert len(c) == 3
    # nor does a topology of another partitioner
    with pytest.raises(tr.InvalidArgumentError, match="but the cluster's are"):
        c.add_topology(tr.Topology([("10.9.9.9", "dc1", "r1", [-5])]))
    assert len(c) == 3


def test_fixed_and_named():
    c = tr.Cluster(partitioner="byteordered")
    c.add("node a dc=d rack=r tokens=3132,ff\n")
    assert c.nodes[0].tokens == (b"12", b"\xff")
    with pytest.raises(tr.ExistsError):
        c.set_partitioner("random")
    c.set_partitioner(tr.Partitioner.BYTE_ORDERED)   # the same: fine
    c = tr.Cluster.parse("partitioner RandomPartitioner\nnode a dc=d rack=r tokens=5,7\n")
    assert c.partitioner == tr.Partitioner.RANDOM and c.nodes[0].tokens == (5, 7)
    ring = c.ring()
    assert ring.partitioner == tr.Partitioner.RANDOM and ring.owner(6) == "a"
    # nothing fits: Murmur3's error, the cluster untouched
    c = tr.Cluster()
    with pytest.raises(tr.RangeError, match="signed 64-bit range"):
        c.add("node a dc=d rack=r tokens=-9223372036854775809\n")
    assert len(c) == 0 and c.partitioner == tr.Partitioner.MURMUR3
    with pytest.raises(tr.ParseError, match="unknown partitioner 'md5'"):
        c.set_partitioner("md5")
