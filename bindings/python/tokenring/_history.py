# SPDX-License-Identifier: Apache-2.0
"""Cassandra 6.0's replica order replayed from a cluster's history (history.h)."""
from typing import Any, Dict, Optional

from ._errors import check, new_error
from ._ffi import ffi, lib
from ._handle import Handle
from ._placement import Placement
from ._replication import Replication, ReplicationLike
from ._ring import Ring

__all__ = ["History"]


class History(Handle):
    """A cluster's history replayed with Cassandra 6.0's placement rules
    (``tokenring_history_replay``): ``register``, ``keyspace``, ``unsafe_join``, ``join``,
    ``leave``, ``move`` and ``replace`` steps, one a line (doc/cassandra-6.md). Its
    placements give each range's replicas in the order a 6.0 server gives them.

    >>> h = History("register 10.0.0.1 dc1 r1\\nunsafe_join 10.0.0.1 -5,5\\n")
    >>> h.placement("1").order
    'history'
    """

    _kind = "history"

    def __init__(self, text: str) -> None:
        """Replays ``text``. ParseError names the line and column of a bad step;
        NotFoundError, ExistsError or ImpossibleError a step the cluster refuses."""
        data = text.encode("utf-8")
        pp = ffi.new("tokenring_history **")
        err = new_error()
        check(lib.tokenring_history_replay(pp, data, len(data), err), err)
        self._ptr = ffi.gc(pp[0], lib.tokenring_history_free)
        self._ring: Optional[Ring] = None
        self._placements: Dict[str, Placement] = {}

    @property
    def ring(self) -> Optional[Ring]:
        """The ring after the last step (None when no node is in it)."""
        if self._ring is None:
            r = lib.tokenring_history_ring(self._p())
            if r == ffi.NULL:
                return None
            self._ring = Ring._of_reference(lib.tokenring_ring_ref(r))
        return self._ring

    def placement(self, replication: ReplicationLike) -> Placement:
        """The placement of ``replication`` after the history, in 6.0's order
        (``Placement.order == "history"``), on :attr:`ring`."""
        repl = Replication.of(replication)
        key = str(repl)
        p = self._placements.get(key)
        if p is None:
            ring = self.ring
            pp = ffi.new("tokenring_placement **")
            err = new_error()
            check(lib.tokenring_history_placement(pp, self._p(), repl._p(), err), err)
            p = Placement.__new__(Placement)
            p._adopt(pp[0], ring, repl, True)
            self._placements[key] = p
        return p
