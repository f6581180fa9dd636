# SPDX-License-Identifier: Apache-2.0
"""Executes doc/examples/ring.ipynb headless (nbclient, a python3 kernel, matplotlib Agg)."""
import os

import pytest

from conftest import REPO

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("matplotlib")
pytest.importorskip("ipykernel")

NOTEBOOK = os.path.join(REPO, "doc", "examples", "ring.ipynb")


def test_notebook_runs_and_plots(tmp_path, monkeypatch):
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()  # raises CellExecutionError on any failing cell
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs), "no plot was rendered"
    text = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    assert "keys routed" in text and "change primary owner" in text
    assert "weighted load: 5000 sampled partitions" in text
