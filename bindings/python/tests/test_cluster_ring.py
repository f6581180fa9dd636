# SPDX-License-Identifier: Apache-2.0
"""ClusterRing: a ring with its keyspaces' replication, asked as the driver asks
(``replicas(keyspace, key)``), checked against the golden vectors made by Cassandra."""
import pytest

import tokenring
from conftest import load_topology, read_tsv, vector_names
from tokenring import ClusterRing, NotFoundError, Replication, Ring


@pytest.mark.parametrize("name", vector_names("replicas_"))
def test_keyspace_replicas_match_cassandra(name):
    rows = read_tsv(f"replicas_{name}.tsv")
    # one keyspace per replication the vectors were made with
    spaces = {}
    for r in rows:
        spaces.setdefault(f"{r['strategy']}:{r['options']}", f"ks{len(spaces)}")
    with load_topology(name) as topo:
        # the vectors include a datacenter without nodes, which Cassandra skips
        cr = ClusterRing(Ring(topo), {ks: text for text, ks in spaces.items()},
                         allow_unknown_dc=True)
    assert set(cr.keyspaces) == set(spaces.values())
    for r in rows:
        ks = spaces[f"{r['strategy']}:{r['options']}"]
        # "~" marks a transient replica in the vectors
        want = tuple(w.rstrip("~") for w in r["replicas"].split(",")) if r["replicas"] else ()
        assert cr.replicas(ks, int(r["token"])) == want, (ks, r["token"])


def test_cluster_ring_from_parsed_cluster_and_keys():
    c = tokenring.Cluster.parse(
        "node a dc=dc1 rack=r1 tokens=-100,50\n"
        "node b dc=dc1 rack=r2 tokens=0\n"
        "node c dc=dc2 rack=r1 tokens=-50,100\n"
        "keyspace shop NetworkTopologyStrategy:dc1=2,dc2=1\n"
        "keyspace logs SimpleStrategy:1\n")
    cr = ClusterRing.from_cluster(c)
    assert list(cr.keyspaces) == ["shop", "logs"] and "shop" in cr and "nope" not in cr
    assert cr.replication("shop") == Replication.parse("dc1=2,dc2=1")
    ring = cr.ring
    for key in (b"user:1", "user:2", b"", 12345, tokenring.MIN_TOKEN):
        assert cr.replicas("shop", key) == ring.replicas(key, {"dc1": 2, "dc2": 1})
        assert cr.replicas("logs", key) == (ring.owner(key),) == (cr.owner(key),)
    keys = [f"user:{i}".encode() for i in range(50)]
    assert [tuple(x) for x in cr.route_replicas("shop", keys)] == \
        [cr.replicas("shop", k) for k in keys]
    assert cr.placement("shop") is cr.placement("shop")  # built once
    assert "shop: {'class': 'NetworkTopologyStrategy'" in repr(cr)


def test_unknown_keyspace_and_datacenter():
    ring = Ring(tokenring.Topology([("A", "dc1", "r1", [10]), ("B", "dc1", "r1", [20])]))
    cr = ClusterRing(ring, {"ks": {"dc1": 1}, "far": {"dc1": 1, "dc9": 2}})
    with pytest.raises(NotFoundError, match=r"unknown keyspace 'nope' \(known: far, ks\)"):
        cr.replicas("nope", 1)
    with pytest.raises(NotFoundError, match="dc9"):
        cr.replicas("far", 1)
    # as Cassandra does, a datacenter without nodes can be skipped
    lenient = ClusterRing(ring, cr.keyspaces, allow_unknown_dc=True)
    assert lenient.replicas("far", 15) == ("B",)
    assert cr.with_ring(ring).replicas("ks", 15) == ("B",)
    with pytest.raises(TypeError):
        ClusterRing(object(), {})
    with pytest.raises(TypeError):
        ClusterRing(ring, {"": 1})
