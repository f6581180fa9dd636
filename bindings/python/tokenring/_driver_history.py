# SPDX-License-Identifier: Apache-2.0
"""Cassandra 6.0's replica order for the driver module (tokenring.driver): the server's
release line from the driver's hosts, the two virtual tables a 6.0 server exposes about
its cluster metadata read through a session, the history the library builds from them
(:meth:`tokenring.History.from_metadata`, the library's one reader of those rows), and a
background worker that brings a policy's router to the history's order after each change
of its ring or schema. Imports nothing of the driver itself."""
import re
import threading
from typing import Any, Callable, Iterable, List, Optional, Tuple

from ._history import History

#: The rows History.from_metadata reads, as a 6.0 server names its columns.
SELECT_LOG = "SELECT epoch, kind, transformation FROM system_views.cluster_metadata_log"
SELECT_DIRECTORY = ("SELECT node_id, broadcast_address, broadcast_port, dc, rack, state, "
                    "tokens FROM system_views.cluster_metadata_directory")


def release_major(version: Any) -> Optional[int]:
    """The major release of a ``release_version`` (``"6.0-alpha2"``, ``"6.0.0-alpha2"``,
    ``"5.0.9"``: 6, 6, 5), or None when it is unknown or not a version."""
    m = re.match(r"\s*(\d+)\.", str(version)) if version is not None else None
    return int(m.group(1)) if m else None


def orders_by_history(hosts: Iterable[Any]) -> bool:
    """Whether the cluster of these driver hosts orders replicas by its history
    (Cassandra 6.0 or later: a host whose ``release_version`` is 6 or more)."""
    return any((release_major(getattr(h, "release_version", None)) or 0) >= 6 for h in hosts)


def read_metadata(session: Any, host: Any = None) -> Tuple[List[Any], List[Any]]:
    """The rows of system_views.cluster_metadata_log and cluster_metadata_directory, both
    from ``host`` when given (virtual tables answer what their node knows: both tables
    from one node describe one moment)."""
    def run(q: str) -> List[Any]:
        if host is not None:
            return list(session.execute(q, host=host))
        return list(session.execute(q))
    return run(SELECT_LOG), run(SELECT_DIRECTORY)


def history_from_session(session: Any, router: Any, host: Any = None,
                         budget: Any = None) -> History:
    """The history of a connected 6.0 cluster: its metadata log and directory read through
    ``session`` (from ``host`` when given), the keyspaces' replications from ``router``
    (e.g. :func:`tokenring.driver.router_from_session`'s); ``budget`` as
    :meth:`tokenring.History.from_metadata`'s."""
    log, directory = read_metadata(session, host)
    return History.from_metadata(log, directory, keyspaces=router, budget=budget)


class HistoryWorker:
    """One daemon thread that runs ``apply(target)`` for the latest target it is given
    (:meth:`want`), retrying a failure after 0.5, 1, 2, 4, 8, 16 and 30 s (``report`` gets
    each failure: a node's view of the log can lag the driver's token map by seconds)
    unless a newer target arrives; ``apply`` returns whether it applied."""

    RETRIES = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 30.0)

    def __init__(self, apply: Callable[[Any], bool], report: Callable[[Exception], None]
                 ) -> None:
        self._apply = apply
        self._report = report
        self._cv = threading.Condition()
        self._target: Any = None
        self._thread: Optional[threading.Thread] = None
        #: Targets applied, and attempts made (for tests and monitoring).
        self.applied = 0
        self.attempts = 0

    def want(self, target: Any) -> None:
        with self._cv:
            self._target = target
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, daemon=True,
                                                name="tokenring-history")
                self._thread.start()
            self._cv.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        """Waits until no target is pending or being applied (tests)."""
        with self._cv:
            return self._cv.wait_for(lambda: self._target is None and not self._busy, timeout)

    _busy = False

    def _loop(self) -> None:
        while True:
            with self._cv:
                while self._target is None:
                    self._cv.wait()
                target, self._target = self._target, None
                self._busy = True
            try:
                for delay in self.RETRIES + (None,):
                    self.attempts += 1
                    try:
                        if self._apply(target):
                            self.applied += 1
                        break
                    except Exception as e:  # noqa: BLE001 - reported, then retried
                        self._report(e)
                        if delay is None:
                            break
                        with self._cv:
                            if self._cv.wait_for(lambda: self._target is not None, delay):
                                break   # a newer target replaces this one
            finally:
                with self._cv:
                    self._busy = False
                    self._cv.notify_all()
