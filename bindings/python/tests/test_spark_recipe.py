# SPDX-License-Identifier: Apache-2.0
"""The README's Spark recipe (mapInArrow) for weighted ownership over a whole table
export, run as written (its code block is read from the README) with Spark in local mode
over a Parquet export of several files, and checked against weighted_ownership in one
process. Skipped without pyspark or a Java runtime (Spark 4 needs JDK 17)."""
import os
import re
import shutil
import sys

import pytest

import tokenring as tr
from conftest import DATA, HERE

np = pytest.importorskip("numpy")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pd = pytest.importorskip("pandas")
pytest.importorskip("pyspark")
if not shutil.which("java") and not os.environ.get("JAVA_HOME"):
    pytest.skip("Spark needs a Java runtime", allow_module_level=True)

TOPOLOGY = os.path.join(DATA, "replicas_2dc_3r_2r_vn8.topology.tsv")
KEYS = 200_000
FILES = 4


def _readme_block(needle):
    with open(os.path.join(HERE, "..", "README.md"), encoding="utf-8") as f:
        text = f.read()
    blocks = [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if needle in b]
    assert len(blocks) == 1, f"one README block with {needle!r}, found {len(blocks)}"
    return blocks[0]


# pyspark 4.3 warns about pandas 3 and calls an API pandas 3.1 deprecates
@pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning")
@pytest.mark.filterwarnings("ignore:The copy keyword:DeprecationWarning")
def test_readme_spark_recipe_equals_weighted_ownership(tmp_path, monkeypatch):
    pk = pa.array([f"order-{i:07d}" for i in range(KEYS)], type=pa.string())
    size = (np.arange(KEYS, dtype=np.int64) * 104_729 + 7) % 10_000 + 1  # sums exact in float
    os.makedirs(tmp_path / "export")
    step = -(-KEYS // FILES)
    for j in range(FILES):
        pq.write_table(pa.table({"pk": pk[j * step:(j + 1) * step],
                                 "bytes": pa.array(size[j * step:(j + 1) * step])}),
                       tmp_path / "export" / f"part-{j:05d}.parquet", row_group_size=16_384)
    with open(TOPOLOGY, encoding="utf-8") as f:
        ring_text = f.read()

    # the Python workers Spark starts run this interpreter, with this environment
    monkeypatch.setenv("PYSPARK_PYTHON", sys.executable)
    monkeypatch.setenv("PYSPARK_DRIVER_PYTHON", sys.executable)
    monkeypatch.setenv("SPARK_LOCAL_IP", "127.0.0.1")
    monkeypatch.chdir(tmp_path)  # the recipe reads "export/"
    from pyspark.sql import SparkSession
    spark = (SparkSession.builder.master("local[2]").appName("tokenring-recipe")
             .config("spark.ui.enabled", "false")
             .config("spark.sql.shuffle.partitions", "2")
             .config("spark.sql.files.maxPartitionBytes", str(256 * 1024))
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    try:
        env = {"tokenring": tr, "RING_TEXT": ring_text, "spark": spark}
        exec(compile(_readme_block("mapInArrow"), "README.md (Spark recipe)", "exec"), env)
        tasks = spark.read.parquet("export/").rdd.getNumPartitions()
    finally:
        spark.stop()
    load = env["load"]
    assert tasks > 1  # mapInArrow ran over more than one partition

    ring = tr.Cluster.parse(ring_text).ring()
    whole = tr.weighted_ownership(ring, {"dc1": 3}, keys=pk, sizes=size).to_pandas()
    # Spark's groupBy gives the nodes in its own order: compare node by node, exactly
    assert sorted(load.index) == sorted(ring.node_names)
    pd.testing.assert_frame_equal(load.loc[whole.index], whole, check_exact=True)
    total = int(size.sum())
    assert load["primary"].sum() == total and load["samples"].sum() == KEYS
    assert load["replicated"].sum() == 3 * total
    assert load["primary"].min() < load["primary"].max()
