# SPDX-License-Identifier: Apache-2.0
"""Shared helpers: the golden vectors of tests/data, loaded as the C tests load them."""
import csv
import os
from typing import Dict, List

import pytest

import tokenring

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
DATA = os.environ.get("TOKENRING_TEST_DATA") or os.path.join(REPO, "tests", "data")


def read_tsv(name: str) -> List[Dict[str, str]]:
    """Rows of a vector file as dicts (header line gives the keys)."""
    with open(os.path.join(DATA, name), newline="", encoding="utf-8") as f:
        lines = [line for line in f if not line.startswith("#")]  # provenance comments
        return list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))


def vector_names(prefix: str) -> List[str]:
    """NAME of every PREFIX_NAME.tsv (replicas_/ownership_) file."""
    out = []
    for fn in sorted(os.listdir(DATA)):
        if fn.startswith(prefix) and fn.endswith(".tsv") and not fn.endswith(".topology.tsv"):
            out.append(fn[len(prefix):-4])
    return out


def topology_rows(name: str) -> List[Dict[str, str]]:
    return read_tsv(f"replicas_{name}.topology.tsv")


def load_topology(name: str) -> tokenring.Topology:
    """The Topology of replicas_NAME.topology.tsv."""
    topo = tokenring.Topology()
    for r in topology_rows(name):
        topo.add_node(r["node"], r["dc"], r["rack"], [int(t) for t in r["tokens"].split(",")])
    return topo


def replication(strategy: str, options: str) -> tokenring.Replication:
    """The replication of a vector row ("SimpleStrategy", "3/1") / ("NetworkTopologyStrategy",
    "dc1=3,dc2=2/1")."""
    return tokenring.Replication.parse(f"{strategy}:{options}")


@pytest.fixture(scope="session")
def data_dir() -> str:
    return DATA


@pytest.fixture
def toy_ring() -> tokenring.Ring:
    """The worked example: A 10,50; B 30,80; C 65,95 (one rack)."""
    with load_topology("toy") as topo:
        return tokenring.Ring(topo)
