# SPDX-License-Identifier: Apache-2.0
"""A ring together with its keyspaces' replication: the driver's view of a cluster, where
replicas are asked for by keyspace (``Metadata.get_replicas(keyspace, key)``) instead of
by replication. A plain Python object over a :class:`Ring`; build it from a ring and a
``{keyspace: replication}`` mapping, or from a parsed :class:`Cluster`."""
import threading
from typing import Any, Dict, Iterable, Mapping, Tuple

from ._convert import KeyOrToken
from ._errors import NotFoundError
from ._ffi import lib
from ._parse import Cluster
from ._placement import Placement
from ._replication import Replication, ReplicationLike
from ._ring import Ring

__all__ = ["ClusterRing"]


class ClusterRing:
    """A ring and the replication of each keyspace.

    >>> from tokenring import Ring, Topology
    >>> ring = Ring(Topology([("A", "dc1", "r1", [10, 50]), ("B", "dc1", "r1", [30, 80]),
    ...                       ("C", "dc1", "r1", [65, 95])]))
    >>> cr = ClusterRing(ring, {"shop": {"dc1": 2}})
    >>> cr.replicas("shop", 42)
    ('A', 'C')
    """

    def __init__(self, ring: Ring, keyspaces: Mapping[str, ReplicationLike] = {},
                 allow_unknown_dc: bool = False) -> None:
        """``keyspaces`` maps keyspace names to a :data:`ReplicationLike` (a
        :class:`Replication`, a CQL replication map text, ``{dc: rf}`` or an int).
        ``allow_unknown_dc`` is passed to :meth:`Ring.placement`."""
        if not isinstance(ring, Ring):
            raise TypeError(f"ClusterRing needs a Ring, not {type(ring).__name__}")
        self.ring: Ring = ring
        self.allow_unknown_dc = bool(allow_unknown_dc)
        self._keyspaces: Dict[str, Replication] = {}
        for name, repl in keyspaces.items():
            if not isinstance(name, str) or not name:
                raise TypeError(f"a keyspace name must be a non-empty str, not {name!r}")
            self._keyspaces[name] = Replication.of(repl)
        self._placements: Dict[str, Placement] = {}
        self._lock = threading.Lock()

    @classmethod
    def from_cluster(cls, cluster: Cluster, allow_unknown_dc: bool = False) -> "ClusterRing":
        """The ring and keyspaces of a parsed cluster description (e.g. cqlsh output of
        ``system.peers_v2``, ``system.local`` and ``system_schema.keyspaces``)."""
        return cls(cluster.ring(), cluster.keyspaces, allow_unknown_dc)

    @property
    def keyspaces(self) -> Dict[str, Replication]:
        """``{keyspace: Replication}`` (a copy of the mapping; the replications are
        immutable)."""
        return dict(self._keyspaces)

    def replication(self, keyspace: str) -> Replication:
        """The replication of ``keyspace``. NotFoundError names it and the known ones."""
        try:
            return self._keyspaces[keyspace]
        except KeyError:
            known = ", ".join(sorted(self._keyspaces)) or "none"
            raise NotFoundError(lib.TOKENRING_E_NOTFOUND,
                                f"unknown keyspace {keyspace!r} (known: {known})") from None

    def placement(self, keyspace: str) -> Placement:
        """The replica map of ``keyspace`` (built on first use, then reused)."""
        pl = self._placements.get(keyspace)
        if pl is None or pl.closed:
            repl = self.replication(keyspace)
            with self._lock:
                pl = self._placements.get(keyspace)
                if pl is None or pl.closed:
                    pl = self.ring.placement(repl, self.allow_unknown_dc)
                    self._placements[keyspace] = pl
        return pl

    def replicas(self, keyspace: str, key: KeyOrToken) -> Tuple[str, ...]:
        """Replica names of a partition key (its serialized bytes, as the driver's
        routing key, or str) or token in ``keyspace``, in Cassandra's order."""
        return self.placement(keyspace).replicas(key)  # type: ignore[return-value]

    def route_replicas(self, keyspace: str, keys: Iterable[Any], type: Any = None,
                       nulls: str = "error") -> Any:
        """Replica names of many keys of ``keyspace`` (see :meth:`Placement.route_replicas`:
        columns, typed and composite keys, ``nulls=``)."""
        return self.placement(keyspace).route_replicas(keys, type, nulls)

    def route(self, keyspace: str, keys: Iterable[Any], type: Any = None,
              nulls: str = "error") -> Any:
        """``(tokens, set_ids)`` of many keys of ``keyspace`` (see :meth:`Placement.route`)."""
        return self.placement(keyspace).route(keys, type, nulls)

    def owner(self, key: KeyOrToken) -> str:
        """The primary owner of a key or token (independent of keyspaces)."""
        return self.ring.owner(key)

    def with_ring(self, ring: Ring) -> "ClusterRing":
        """The same keyspaces over another ring (e.g. after a topology change)."""
        return ClusterRing(ring, self._keyspaces, self.allow_unknown_dc)

    def __contains__(self, keyspace: object) -> bool:
        return keyspace in self._keyspaces

    def __repr__(self) -> str:
        ks = ", ".join(f"{k}: {v}" for k, v in self._keyspaces.items())
        return f"<tokenring.ClusterRing {self.ring!r}, keyspaces {{{ks}}}>"
