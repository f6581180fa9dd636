# SPDX-License-Identifier: Apache-2.0
"""Ctrl-C (SIGINT) cancels a long call into the library, with or without a progress
callback, and comes back out as KeyboardInterrupt once the library has returned.

Before, a SIGINT arriving during a call with a progress callback raised KeyboardInterrupt
where the callback's own ``try`` could not catch it: cffi printed "Exception ignored from
cffi callback" and the call ran on (and the interrupt was lost); without a callback the
interrupt waited for the whole call."""
import os
import signal
import threading
import time

import pytest

import tokenring
from tokenring import Ring, Topology
from tokenring._ffi import ffi
from tokenring._progress import progress_callback

# 180 nodes x 16 tokens, 3 failed nodes at QUORUM: 4 to 8 s here, reporting progress
# every few tens of milliseconds; its estimate is above the library's default work
# budget, so the calls pass budget="unlimited" (the interrupt, not the budget, must end
# them). The interrupt comes after 0.3 s and must end the call well before it finishes.
NODES, VNODES, DELAY, LIMIT = 180, 16, 0.3, 1.5


def _ring(nodes, vnodes, racks):
    topo = Topology()
    names = [f"10.0.{i // 250}.{i % 250 + 1}" for i in range(nodes)]
    tokenring.add_seeded_nodes(topo, 7, vnodes, names, ["dc1"] * nodes,
                               [f"r{i % racks + 1}" for i in range(nodes)])
    return Ring(topo)


@pytest.fixture(scope="module")
def big_ring():
    return _ring(NODES, VNODES, 3)


def _interrupted(call):
    """Runs call with a SIGINT sent to this process after DELAY seconds; returns how long
    call took to raise KeyboardInterrupt."""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(DELAY, os.kill, (os.getpid(), signal.SIGINT))
    start = time.monotonic()
    try:
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            call()
        return time.monotonic() - start
    finally:
        timer.cancel()
        timer.join()
        signal.signal(signal.SIGINT, old)


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix", reason="POSIX signals")
def test_sigint_cancels_availability_without_progress(big_ring):
    took = _interrupted(lambda: tokenring.availability(big_ring, {"dc1": 3}, "QUORUM", 3,
                                                        budget="unlimited"))
    assert DELAY <= took < LIMIT, f"the call ran on for {took:.1f} s after SIGINT"


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix", reason="POSIX signals")
def test_sigint_cancels_availability_with_progress(big_ring):
    reports = []
    took = _interrupted(lambda: tokenring.availability(
        big_ring, {"dc1": 3}, "QUORUM", 3, progress=lambda d, t: reports.append(d),
        budget="unlimited"))
    assert DELAY <= took < LIMIT, f"the call ran on for {took:.1f} s after SIGINT"
    assert reports  # the caller's callback ran until the interrupt


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix", reason="POSIX signals")
def test_sigint_cancels_availability_summary():
    # 150 single-node racks, 4 failed racks: about 4 s here (above the default budget).
    ring = _ring(150, 4, 150)
    took = _interrupted(lambda: tokenring.availability_summary(
        ring, {"dc1": 3}, "QUORUM", k=4, unit="racks", budget="unlimited"))
    assert DELAY <= took < LIMIT, f"the call ran on for {took:.1f} s after SIGINT"


def _long_history(nodes=60, vnodes=256):
    """A 6.0 history of nodes joining one by one (about 3 s to replay here)."""
    import random
    rnd = random.Random(29)
    lines = [f"register 10.0.0.{i + 1} dc{i % 2 + 1} r{i % 3 + 1}" for i in range(nodes)]
    lines.append("keyspace ks dc1=3,dc2=3")
    for i in range(nodes):
        toks = ",".join(str(rnd.randrange(-2**63 + 1, 2**63)) for _ in range(vnodes))
        lines.append(f"{'unsafe_join' if i == 0 else 'join'} 10.0.0.{i + 1} {toks}")
    return "\n".join(lines) + "\n"


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix", reason="POSIX signals")
def test_sigint_cancels_history_replay():
    text = _long_history()
    took = _interrupted(lambda: tokenring.History(text, budget="unlimited"))
    assert DELAY <= took < LIMIT, f"the replay ran on for {took:.1f} s after SIGINT"


def test_callback_raising_outside_its_try_cancels():
    """An exception the callback's own try cannot catch (what a signal handler raises as
    the callback starts) cancels the call and is raised afterwards, not printed."""
    topo = Topology()
    tokenring.add_seeded_nodes(topo, 7, 4, [f"n{i}" for i in range(30)], ["dc1"] * 30,
                               [f"r{i % 3}" for i in range(30)])
    ring = Ring(topo)
    calls = []

    class Boom:
        def __call__(self, done, total):
            calls.append(done)
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        tokenring.availability(ring, {"dc1": 3}, "ALL", 3, progress=Boom())
    assert len(calls) == 1
    with progress_callback(None) as (cb, raised):
        assert cb is not ffi.NULL  # the main thread: an internal callback
        # What cffi does with an exception raised outside the callback's try: onerror.
        assert cb(ffi.NULL, 0, 1) == 0
    out = {}

    def worker():
        with progress_callback(None) as (cb2, _):
            out["cb"] = cb2

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert out["cb"] is ffi.NULL  # no signal handler runs off the main thread: no cost


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix", reason="POSIX signals")
@pytest.mark.parametrize("progress", ["", ", progress=lambda d, t: None"])
def test_kernel_interrupt_cancels_availability_in_jupyter(progress):
    """The notebook's Ctrl-C (Kernel > Interrupt: SIGINT to the kernel) stops the call and
    the cell sees KeyboardInterrupt, with and without a progress callback."""
    manager = pytest.importorskip("jupyter_client.manager")
    pytest.importorskip("ipykernel")
    km, kc = manager.start_new_kernel(kernel_name="python3", env=dict(os.environ))
    lines = []

    def out(m):
        if m["msg_type"] == "stream":
            lines.append(m["content"]["text"])
    try:
        kc.execute_interactive(f"""
import time, tokenring
from tokenring import Ring, Topology
topo = Topology()
names = [f"10.0.{{i // 250}}.{{i % 250 + 1}}" for i in range({NODES})]
tokenring.add_seeded_nodes(topo, 7, {VNODES}, names, ["dc1"] * {NODES},
                           [f"r{{i % 3 + 1}}" for i in range({NODES})])
ring = Ring(topo)
""", timeout=60)
        kc.execute(f"""
t = time.monotonic()
try:
    tokenring.availability(ring, {{"dc1": 3}}, "QUORUM", 3{progress},
                           budget="unlimited")
    print("ran to the end")
except KeyboardInterrupt:
    print("interrupted after", time.monotonic() - t)
""")
        time.sleep(DELAY)
        km.interrupt_kernel()
        while True:
            m = kc.get_iopub_msg(timeout=30)
            out(m)
            if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
                break
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    text = "".join(lines)
    assert "interrupted after" in text, text
    assert "Exception ignored" not in text
    assert float(text.split("interrupted after")[1]) < LIMIT, text
