# SPDX-License-Identifier: Apache-2.0
"""pytest fixtures of the live stage: a real Cassandra cluster (live/harness.py).

    live_cluster   the running 4-node, 2-datacenter, 3-rack cluster of the stage (session
                   scope; started once, stopped and wiped at the end, also on failure)
    tool           runs the tokenring command-line tool of the build under test

Environment: TOKENRING_BUILD_DIR (the Meson build under test, required),
TOKENRING_CASSANDRA_VERSION (default 5.0.9), TOKENRING_LIVE_DIR (cluster files; default
BUILD/live-cluster), TOKENRING_LIVE_KEEP=1 (leave the cluster directory for inspection),
TOKENRING_LIVE_REUSE=1 (developing tests: use the cluster of an earlier run with
TOKENRING_LIVE_REUSE=1 if all its nodes still run, and leave it running at the end; stop
it with `TOKENRING_CASSANDRA_DIR=BUILD/live-cluster scripts/cassandra.sh stop`).
"""
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import harness  # noqa: E402

BUILD = Path(os.environ.get("TOKENRING_BUILD_DIR", HERE.parent / "build")).resolve()
VERSION = harness.DEFAULT_VERSION

# The stage's cluster: node N is 127.0.0.N. Racks are per datacenter, so dc1 has racks
# r1, r2 and dc2 has r1: three racks. Token counts differ per node (vnodes).
# The first four form a new cluster (no bootstrap); the joiner bootstraps.
NODES = [
    harness.Node(1, "dc1", "r1", 8, bootstrap=False),
    harness.Node(2, "dc1", "r1", 8, bootstrap=False),
    harness.Node(3, "dc1", "r2", 8, bootstrap=False),
    harness.Node(4, "dc2", "r1", 16, bootstrap=False),
]
# The node that joins (a second rack in dc2) and the one that is decommissioned.
JOINER = harness.Node(5, "dc2", "r2", 8)
LEAVER = 2


@pytest.fixture(scope="session")
def live_cluster():
    workdir = Path(os.environ.get("TOKENRING_LIVE_DIR", BUILD / "live-cluster"))
    reuse = bool(os.environ.get("TOKENRING_LIVE_REUSE"))
    c = harness.Cluster(workdir, NODES, version=VERSION)
    if reuse and all(c.running(nd.n) for nd in NODES):
        c = harness.Cluster.load(workdir)
        yield c
        c.stop_clients()
        return
    c.wipe()                      # a previous run's leftovers (only our own JVMs)
    c.save()
    try:
        c.start()
        yield c
    finally:
        if reuse:
            c.stop_clients()
        elif os.environ.get("TOKENRING_LIVE_KEEP"):
            c.stop()
        else:
            c.wipe()


class Tool:
    """The tokenring tool of the build under test."""

    def __init__(self, build: Path) -> None:
        self.path = build / "tools" / "tokenring"
        if not self.path.exists():
            raise RuntimeError(f"{self.path} is missing: build first")
        self.calls = 0

    def __call__(self, *args: str) -> str:
        self.calls += 1
        r = subprocess.run([str(self.path), *args], capture_output=True, text=True)
        if r.returncode != 0:
            raise AssertionError(f"tokenring {' '.join(args)[:300]} failed "
                                 f"({r.returncode}): {r.stderr}")
        return r.stdout


@pytest.fixture(scope="session")
def tool():
    return Tool(BUILD)
