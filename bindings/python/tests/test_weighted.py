# SPDX-License-Identifier: Apache-2.0
"""Weighted ownership and movement from a sample of keys with sizes."""
import pytest

import tokenring as tr
from tokenring import Movement, Topology

np = pytest.importorskip("numpy")


def _topo(n=6, vnodes=8, seed=1):
    topo = Topology()
    tr.add_seeded_nodes(topo, seed, vnodes, [f"node{i}" for i in range(1, n + 1)])
    return topo


KEYS = [f"user-{i}".encode() for i in range(3000)]
SIZES = np.array([(i * 7919) % 1000 + 1 for i in range(len(KEYS))], dtype=np.float64)


def test_weighted_ownership_sums_sizes_by_owner_and_replica():
    ring = tr.Ring(_topo())
    repl = {"datacenter1": 3}
    w = tr.weighted_ownership(ring, repl, keys=KEYS, sizes=SIZES, fraction=0.5)
    want_p = {n: 0.0 for n in ring.node_names}
    want_r = dict(want_p)
    for k, y in zip(KEYS, SIZES):
        want_p[ring.owner(k)] += y
        for n in ring.replicas(k, repl):
            want_r[n] += y
    total = SIZES.sum()
    for n, row in w.items():
        assert row.primary == pytest.approx(want_p[n])
        assert row.replicated == pytest.approx(want_r[n])
        assert row.primary_estimate == pytest.approx(2 * want_p[n])
        assert row.primary_share == pytest.approx(want_p[n] / total)
        assert row.primary_share_low < row.primary_share < row.primary_share_high
    assert sum(r.samples for r in w.values()) == len(KEYS)
    assert sum(r.replica_samples for r in w.values()) == 3 * len(KEYS)
    # the same from the tokens, and the interval narrows with the sample
    toks = tr.tokens(KEYS)
    same = tr.weighted_ownership(ring, repl, tokens=toks, sizes=SIZES, fraction=0.5)
    assert same == w
    small = tr.weighted_ownership(ring, repl, tokens=toks[:300], sizes=SIZES[:300])
    n = ring.node_names[0]
    assert (small[n].primary_share_high - small[n].primary_share_low) > \
        (w[n].primary_share_high - w[n].primary_share_low)
    try:
        import pandas  # noqa: F401
    except ImportError:
        return
    assert list(w.to_pandas().index) == list(ring.node_names)


def test_weighted_ownership_refuses_bad_input():
    ring = tr.Ring(_topo())
    with pytest.raises(TypeError, match=r"keys= or as tokens="):
        tr.weighted_ownership(ring)
    with pytest.raises(ValueError, match=r"one number per sample \(2\)"):
        tr.weighted_ownership(ring, keys=[b"a", b"b"], sizes=[1])
    with pytest.raises(ValueError, match=r"sizes\[1\] is -1.0"):
        tr.weighted_ownership(ring, keys=[b"a", b"b"], sizes=[1, -1])
    with pytest.raises(ValueError, match=r"fraction"):
        tr.weighted_ownership(ring, keys=[b"a"], fraction=0)
    with pytest.raises(ValueError, match=r"confidence"):
        tr.weighted_ownership(ring, keys=[b"a"], confidence=1.5)


def test_weighted_movement_of_a_decommission():
    topo = _topo()
    repl = {"datacenter1": 3}
    mv = Movement.decommission(topo, repl, "node3", samples=KEYS)
    w = tr.weighted_movement(mv, SIZES)
    ring = tr.Ring(topo)
    held = sum(y for k, y in zip(KEYS, SIZES) if "node3" in ring.replicas(k, repl))
    assert w["node3"].lost == pytest.approx(held) and w["node3"].gained == 0
    assert sum(r.gained for r in w.values()) == pytest.approx(held)
    assert w["node3"].lost_share_low < held / SIZES.sum() < w["node3"].lost_share_high
    with pytest.raises(ValueError, match=r"no samples"):
        tr.weighted_movement(Movement.decommission(topo, repl, "node3"))


def test_parquet_export_by_partial_sums_equals_the_whole(tmp_path):
    """The recipe for a table export too large for one machine: an engine maps
    load_partials over the Arrow batches of the Parquet files (Spark: mapInArrow), adds
    the sums up by node, and load_from_partials gives the result. Here the batches of a
    local Parquet file play the engine's partitions."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    ds = pytest.importorskip("pyarrow.dataset")
    ring = tr.Ring(_topo())
    repl = {"datacenter1": 3}
    path = tmp_path / "export.parquet"
    pq.write_table(pa.table({"pk": pa.array([k.decode() for k in KEYS]), "bytes": SIZES}),
                   path, row_group_size=700)
    batches = ds.dataset(path).to_batches(batch_size=500)
    partials = list(tr.load_partials(batches, ring, repl, key="pk", size="bytes"))
    assert len(partials) > 1
    whole = tr.weighted_ownership(ring, repl, keys=KEYS, sizes=SIZES, fraction=0.1)
    got = tr.load_from_partials(partials, fraction=0.1)
    assert list(got) == list(whole)
    for n in whole:
        assert got[n] == pytest.approx(whole[n])
    # summed by the engine first, with Spark's column names, as a pandas frame
    pd = pytest.importorskip("pandas")
    summed = pa.Table.from_batches(partials).to_pandas().groupby("node", sort=False).sum()
    summed.columns = [f"sum({c})" for c in summed.columns]
    again = tr.load_from_partials(summed.reset_index(), fraction=0.1)
    for n in whole:
        assert again[n] == pytest.approx(whole[n])
    # a composite key and a token column read the same way
    tok = pa.record_batch({"t": tr.tokens(KEYS)})
    by_token = tr.load_from_partials(tr.load_partials([tok], ring, repl, key="t",
                                                      key_is_token=True))
    assert by_token[n].samples == whole[n].samples
    del pd
