# SPDX-License-Identifier: Apache-2.0
"""Cluster inputs of RandomPartitioner and ByteOrderedPartitioner clusters: output captured
from real Cassandra 5.0.6 clusters (tests/data/captured) read without naming the
partitioner, the partitioner fixed or named, and refusals that leave the cluster as it
was."""
import os

import pytest

import tokenring as tr


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
