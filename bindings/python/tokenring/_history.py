# SPDX-License-Identifier: Apache-2.0
"""Cassandra 6.0's replica order replayed from a cluster's history (history.h)."""
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from ._budget import Budget, budget_error, new_limits
from ._errors import check, new_error
from ._ffi import ffi, lib
from ._handle import Handle, require
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

    @classmethod
    def from_metadata(cls, log: Sequence[Any], directory: Sequence[Any],
                      keyspaces: Any = None, budget: Budget = None) -> "History":
        """The history of a Cassandra 6.0 cluster from what a driver reads
        (``tokenring_history_from_metadata``): the rows of
        ``system_views.cluster_metadata_log`` (each with ``epoch``, ``kind`` and
        ``transformation``) and ``system_views.cluster_metadata_directory`` (``node_id``,
        ``broadcast_address``, optionally ``broadcast_port``, ``dc``, ``rack``, ``state``,
        ``tokens``), as the driver's row objects, mappings or tuples in those orders; the
        keyspaces' replications from ``keyspaces``, a :class:`Router` built from the same
        moment's rows (None when no user keyspace is created in the log). Errors name the
        row (its epoch or node id): ParseError for a malformed column, NotFoundError for
        a node id the directory lacks, UnsupportedError for an entry the replay does not
        model, an operation in progress or a log without its first entries, BudgetError
        above ``budget`` seconds (None: the default)."""
        def col(row: Any, name: str, index: int) -> Any:
            if isinstance(row, Mapping):
                return row.get(name)
            if isinstance(row, tuple) and not hasattr(row, "_fields"):
                return row[index] if index < len(row) else None
            return getattr(row, name, None)

        keep: List[Any] = []

        def text(value: Any) -> Any:
            if value is None:
                return ffi.NULL
            b = ffi.new("char[]", str(value).encode("utf-8"))
            keep.append(b)
            return b

        logs = list(log)
        dirs = list(directory)
        lrows = ffi.new("tokenring_metadata_log_row[]", max(1, len(logs)))
        for i, r in enumerate(logs):
            lrows[i].epoch = text(col(r, "epoch", 0))
            lrows[i].kind = text(col(r, "kind", 1))
            lrows[i].transformation = text(col(r, "transformation", 2))
        drows = ffi.new("tokenring_metadata_node_row[]", max(1, len(dirs)))
        for i, r in enumerate(dirs):
            drows[i].node_id = text(col(r, "node_id", 0))
            drows[i].broadcast_address = text(col(r, "broadcast_address", 1))
            drows[i].broadcast_port = text(col(r, "broadcast_port", 2))
            drows[i].dc = text(col(r, "dc", 3))
            drows[i].rack = text(col(r, "rack", 4))
            drows[i].state = text(col(r, "state", 5))
            toks = col(r, "tokens", 6)
            if isinstance(toks, str):
                raise TypeError("directory row tokens: a sequence of tokens, not one str")
            toks = list(toks or [])
            if toks:
                arr = ffi.new("const char *[]", [text(t) for t in toks])
                keep.append(arr)
                drows[i].tokens = arr
            drows[i].token_count = len(toks)
        ks = ffi.NULL if keyspaces is None else require(keyspaces, "router", "History.from_metadata() keyspaces")
        lim, _lkeep = new_limits(budget)
        pp = ffi.new("tokenring_history **")
        err = new_error()
        rc = lib.tokenring_history_from_metadata(pp, lrows, len(logs), drows, len(dirs), ks,
                                                 lim, err)
        budget_error(rc, err, lim)
        h = cls.__new__(cls)
        h._ptr = ffi.gc(pp[0], lib.tokenring_history_free)
        h._ring = None
        h._placements = {}
        return h

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

    def locked_ranges(self, replication: ReplicationLike,
                      operation: str) -> List[Tuple[int, Optional[int]]]:
        """The ranges Cassandra 6.0 would lock in ``replication``'s placement to prepare
        ``operation`` (``"join ADDRESS TOKENS"``, ``"leave ADDRESS"``, ``"move ADDRESS
        TOKEN"``, ``"replace OLD NEW"``) now (``tokenring_history_locked_ranges``): pairs
        ``(left, right)`` of ``(left, right]``, ``right`` None up to the minimum token.
        NotFoundError for a replication of no keyspace of the history."""
        repl = Replication.of(replication)
        data = operation.encode("utf-8")
        n = ffi.new("size_t *")
        cap = 64
        while True:
            buf = ffi.new("int64_t[]", 2 * cap)
            err = new_error()
            rc = lib.tokenring_history_locked_ranges(buf, cap, n, self._p(), repl._p(), data,
                                                     len(data), err)
            if rc == lib.TOKENRING_E_BUFSIZE:
                cap = n[0]
                continue
            check(rc, err)
            mn = -(1 << 63)
            return [(buf[2 * i], None if buf[2 * i + 1] == mn else buf[2 * i + 1])
                    for i in range(n[0])]

    def concurrent(self, operations: Sequence[str]) -> List[Optional[int]]:
        """Whether planned operations can run at once on Cassandra 6.0
        (``tokenring_history_concurrent``): per operation, the index of the first earlier
        one whose locked ranges it meets (6.0 refuses to prepare it while that one runs),
        or None."""
        if isinstance(operations, str):
            raise TypeError("operations: a sequence of operation lines, not one str")
        data = "".join(op + "\n" for op in operations).encode("utf-8")
        n = ffi.new("size_t *")
        cap = max(1, len(operations))
        buf = ffi.new("uint32_t[]", cap)
        err = new_error()
        check(lib.tokenring_history_concurrent(buf, cap, n, self._p(), data, len(data), err),
              err)
        return [None if buf[i] == 0xFFFFFFFF else buf[i] for i in range(n[0])]
