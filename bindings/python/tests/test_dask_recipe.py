# SPDX-License-Identifier: Apache-2.0
"""The README's Dask recipe for weighted ownership over a whole table export, run as
written (its code block is read from the README) with Dask in local mode over a Parquet
export of several files, and checked against weighted_ownership in one process."""
import os
import re

import pytest

import tokenring as tr
from conftest import DATA, HERE

np = pytest.importorskip("numpy")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pd = pytest.importorskip("pandas")
dask = pytest.importorskip("dask")
pytest.importorskip("dask.dataframe")

TOPOLOGY = os.path.join(DATA, "replicas_2dc_3r_2r_vn8.topology.tsv")
KEYS = 300_000
FILES = 6


def _readme_block(needle):
    """The fenced python block of the binding's README that contains NEEDLE."""
    with open(os.path.join(HERE, "..", "README.md"), encoding="utf-8") as f:
        text = f.read()
    blocks = [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if needle in b]
    assert len(blocks) == 1, f"one README block with {needle!r}, found {len(blocks)}"
    return blocks[0]


def _export(directory):
    """A table export: text partition keys with integer sizes, in several Parquet files
    of several row groups each. Sizes up to 10**4 keep every sum of sizes and of their
    squares below 2**53, so float sums are exact whatever order they are added in."""
    pk = pa.array([f"user-{i:07d}" for i in range(KEYS)], type=pa.string())
    size = (np.arange(KEYS, dtype=np.int64) * 7919 + 13) % 10_000 + 1
    os.makedirs(directory)
    step = -(-KEYS // FILES)
    for j in range(FILES):
        part = pa.table({"pk": pk[j * step:(j + 1) * step],
                         "bytes": pa.array(size[j * step:(j + 1) * step])})
        pq.write_table(part, os.path.join(directory, f"part-{j:05d}.parquet"),
                       row_group_size=16_384)
    return pk, size


@pytest.mark.parametrize("scheduler", ["threads", "sync"])
# Dask's own Parquet reader still calls a pandas API pandas 3.1 deprecates
@pytest.mark.filterwarnings("ignore:The inplace keyword:DeprecationWarning")
def test_readme_dask_recipe_equals_weighted_ownership(tmp_path, monkeypatch, scheduler):
    pk, size = _export(tmp_path / "export")
    with open(TOPOLOGY, encoding="utf-8") as f:
        ring_text = f.read()
    monkeypatch.chdir(tmp_path)  # the recipe reads "export/"
    env = {"tokenring": tr, "RING_TEXT": ring_text}
    with dask.config.set(scheduler=scheduler):
        exec(compile(_readme_block("dd.read_parquet"), "README.md (Dask recipe)", "exec"),
             env)
    sums, load = env["sums"], env["load"]

    ring = tr.Cluster.parse(ring_text).ring()
    nodes = list(ring.node_names)
    # the engine ran the function once per partition, and over more than one
    assert len(sums) % len(nodes) == 0 and len(sums) // len(nodes) >= FILES
    assert int(sums["samples"].sum()) == KEYS

    whole = tr.weighted_ownership(ring, {"dc1": 3}, keys=pk, sizes=size, fraction=1.0)
    want = whole.to_pandas()
    assert list(load.index) == nodes
    pd.testing.assert_frame_equal(load, want, check_exact=True)
    # exact integer sums: every key counted once as primary, three times in dc1 replicas
    total = int(size.sum())
    assert load["primary"].sum() == total and load["samples"].sum() == KEYS
    assert load["replicated"].sum() == 3 * total
    assert load["replica_samples"].sum() == 3 * KEYS
    assert all(float(v).is_integer() for v in load["primary"])
    # a node's load really differs from the even share: the test could fail
    assert load["primary"].min() < load["primary"].max()
    # a key's replicas in dc1 only: the dc2 nodes hold no replica
    dc2 = [n.name for n in tr.Cluster.parse(ring_text).nodes if n.datacenter == "dc2"]
    assert dc2 and (load.loc[dc2, "replica_samples"] == 0).all()
