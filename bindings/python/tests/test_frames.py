# SPDX-License-Identifier: Apache-2.0
"""Columns out: ownership, describering, movement, availability and balance results as
pandas DataFrames and pyarrow Tables, exact widths kept exact."""
import pytest

import tokenring as tr
from tokenring import Movement, Topology

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")


def _topo(n=6, vnodes=8, seed=1):
    topo = Topology()
    tr.add_seeded_nodes(topo, seed, vnodes, [f"node{i}" for i in range(1, n + 1)])
    return topo


def test_results_stay_what_they_were():
    ring = tr.Ring(_topo())
    own = ring.ownership({"datacenter1": 3})
    assert isinstance(own, dict) and own == dict(own)
    rows = ring.describe_ring({"datacenter1": 3})
    assert isinstance(rows, list) and list(rows) == rows


def test_ownership_frame_is_indexed_by_node_and_exact():
    ring = tr.Ring(_topo())
    own = ring.ownership({"datacenter1": 3})
    df = own.to_pandas()
    assert df.index.name == "node" and list(df.index) == list(own)
    assert list(df.columns) == list(tr.Ownership._fields)
    for name, o in own.items():
        assert df.loc[name, "primary_width"] == o.primary_width
        assert df.loc[name, "effective"] == o.effective
    assert df["primary_width"].sum() == 2 ** 64  # exact: no int64 wrap, no float
    assert df["token_count"].dtype == "int64"
    t = own.to_arrow()
    assert t.column_names[0] == "node" and t.num_rows == len(own)
    assert t.column("token_count").to_pylist() == [o.token_count for o in own.values()]
    assert tr.to_pandas(dict(own)).equals(df)


def test_a_width_past_int64_is_exact():
    ring = tr.Ring(Topology([("A", "dc1", "r1", [0])]))  # one token: 2**64 wide
    own = ring.ownership()
    df = own.to_pandas()
    assert df.loc["A", "primary_width"] == 2 ** 64 and df["primary_width"].dtype == object
    t = own.to_arrow()
    assert t.schema.field("primary_width").type == pa.decimal256(40, 0)
    assert int(t.column("primary_width")[0].as_py()) == 2 ** 64


def test_describering_frame_has_list_columns():
    ring = tr.Ring(_topo())
    rows = ring.describe_ring({"datacenter1": 3})
    df = rows.to_pandas()
    assert len(df) == len(rows) and df["endpoints"].iloc[0] == rows[0].endpoints
    t = rows.to_arrow()
    assert t.schema.field("endpoints").type == pa.list_(pa.string())
    assert t.column("end").to_pylist() == [r.end for r in rows]


def test_movement_frames():
    topo = _topo()
    mv = Movement.decommission(topo, {"datacenter1": 3}, "node3")
    nodes = mv.nodes.to_pandas()
    assert list(nodes["name"]) == [n.name for n in mv.nodes]
    assert nodes["needs_cleanup"].dtype == bool
    streams = mv.streams.to_arrow()
    assert streams.num_rows == mv.summary.stream_count
    assert streams.column("source").to_pylist() == [s.source for s in mv.streams]
    assert mv.ranges.to_pandas()["width"].tolist() == [r.width for r in mv.ranges]
    s = mv.summary.to_pandas()
    assert len(s) == 1 and s["stream_count"].iloc[0] == mv.summary.stream_count


def test_availability_and_balance_frames():
    ring = tr.Ring(_topo())
    sets = tr.availability(ring, {"datacenter1": 3}, "QUORUM", 2)
    df = sets.to_pandas()
    assert len(df) == len(sets) and df["nodes"].iloc[0] == sets[0].nodes
    summ = tr.availability_summary(ring, {"datacenter1": 3}, "QUORUM", 2, top=3)
    one = summ.to_pandas()
    assert one["consistency"].iloc[0] == "quorum" and "worst" not in one.columns
    assert summ.worst.to_arrow().column("units").to_pylist() == [list(w.units)
                                                                  for w in summ.worst]
    bal = ring.balance({"datacenter1": 3}).to_pandas()
    assert list(bal.index) == ["primary", "effective"] and bal.index.name == "part"
    assert bal.loc["primary", "node_count"] == 6
    assert ring.balance().to_arrow().column("part").to_pylist() == ["primary"]


def test_empty_results_and_plain_lists():
    assert tr.Rows.of([], tr.FailureSet._fields).to_pandas().columns.tolist() == \
        ["nodes", "width", "fraction"]
    with pytest.raises(ValueError, match=r"pass fields="):
        tr.to_pandas([])
