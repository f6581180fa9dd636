# SPDX-License-Identifier: Apache-2.0
"""libtokenring inside the DataStax Python driver (PyPI ``cassandra-driver``).

An optional module: ``import tokenring`` never imports the driver; ``import
tokenring.driver`` does (and raises ImportError naming the package when it is missing).

Everything here goes through the library's :class:`~tokenring.Router`: the rows and the
metadata a driver holds are handed to a :class:`~tokenring.RouterBuilder`, which applies
the rules of the library's cqlsh reader (one owner of those rules: a row without
datacenter is refused, a null rack is ``UNKNOWN_RACK``, a node without tokens yet is left
out, LocalStrategy / EverywhereStrategy / MetaStrategy keyspaces are skipped, any
partitioner the library models is read).

* :func:`router_from_session`: the :class:`~tokenring.Router` of a connected session,
  read from ``system.local``, ``system.peers_v2`` (``system.peers`` on servers before
  4.0) and ``system_schema.keyspaces``, all three pinned to ONE host (the driver's default
  policy would send them to different nodes, whose views can differ).
* :func:`router_from_rows`: the same from rows already read (dicts or named tuples).
* :func:`router_from_metadata`: the same from a driver ``Metadata`` (``cluster.metadata``).
* :func:`ring_from_session`, :func:`ring_from_rows`, :func:`ring_from_metadata`: the same
  as a :class:`tokenring.ClusterRing` (the router's ring and routed keyspaces).
* :class:`TokenRingPolicy`: a load-balancing policy, a drop-in for the driver's
  ``TokenAwarePolicy``::

      from cassandra.policies import DCAwareRoundRobinPolicy
      from tokenring.driver import TokenRingPolicy
      # was: TokenAwarePolicy(DCAwareRoundRobinPolicy("dc1"))
      policy = TokenRingPolicy(DCAwareRoundRobinPolicy("dc1"))

  On Cassandra 6.0 and later (a host's ``release_version``), whose replica order follows
  the cluster's history, the policy reads ``system_views.cluster_metadata_log`` and
  ``cluster_metadata_directory`` through a session after each change of its ring or
  schema and routes in the history's order (:attr:`TokenRingPolicy.replica_order`).
* :func:`history_from_session`: that history of a connected 6.0 cluster.
"""
import itertools
import logging
import random
import threading
import weakref
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Tuple

try:
    from cassandra.policies import HostDistance, LoadBalancingPolicy
except ImportError as _e:  # pragma: no cover - depends on the environment
    raise ImportError("tokenring.driver needs the DataStax Python driver: "
                      "pip install cassandra-driver") from _e

from ._cluster_ring import ClusterRing
from ._driver_history import HistoryWorker, history_from_session, orders_by_history
from ._errors import EmptyError, InvalidArgumentError, TokenRingError
from ._ffi import ffi, lib
from ._replication import Replication
from ._ring import Ring
from ._router import Router, RouterBuilder

__all__ = ["router_from_session", "router_from_rows", "router_from_metadata",
           "ring_from_session", "ring_from_rows", "ring_from_metadata", "TokenRingPolicy",
           "replication_map_of_keyspace_metadata", "history_from_session"]

log = logging.getLogger("tokenring.driver")
_HISTORY_FAILED = "the replica order stays the tokens' (Cassandra 6.0's history was not applied)"

#: What the three system tables are read with (one host answers all of them).
SELECT_LOCAL = ("SELECT rpc_address, broadcast_address, listen_address, data_center, rack, "
                "tokens, partitioner, host_id FROM system.local WHERE key='local'")
SELECT_PEERS_V2 = ("SELECT peer, native_address, data_center, rack, tokens, host_id "
                   "FROM system.peers_v2")
SELECT_PEERS = "SELECT peer, rpc_address, data_center, rack, tokens, host_id FROM system.peers"
SELECT_KEYSPACES = "SELECT keyspace_name, replication FROM system_schema.keyspaces"


# ----------------------------------------------------------------------------- rows

def _row_dict(row: Any) -> Dict[str, Any]:
    if isinstance(row, Mapping):
        return dict(row)
    if hasattr(row, "_asdict"):
        return row._asdict()
    raise TypeError(f"a system table row must be a mapping or a named tuple, not "
                    f"{type(row).__name__}")


def _address(row: Mapping[str, Any], what: str, *columns: str) -> str:
    for c in columns:
        if row.get(c) is not None:
            return str(row[c])
    raise InvalidArgumentError(lib.TOKENRING_E_INVAL,
                               f"{what} has no address ({' / '.join(columns)})")


def _opt(v: Any) -> Optional[str]:
    return None if v is None else str(v)


def _token_texts(tokens: Any) -> List[str]:
    return [t.hex() if isinstance(t, (bytes, bytearray)) else str(t) for t in tokens or ()]


def _add_keyspace(b: RouterBuilder, name: str, replication: Mapping[str, Any],
                  skip_unsupported: bool) -> None:
    try:
        b.add_keyspace(name, {str(k): str(v) for k, v in replication.items()})
    except TokenRingError:
        if not skip_unsupported:
            raise


def _builder_of_rows(local: Any, peers: Iterable[Any], keyspaces: Iterable[Any],
                     local_dc: Optional[str], skip_unsupported: bool) -> RouterBuilder:
    b = RouterBuilder(local_dc)
    loc = _row_dict(local)
    b.add_local(_address(loc, "system.local", "rpc_address", "broadcast_address",
                         "listen_address"),
                _opt(loc.get("data_center")), _opt(loc.get("rack")),
                _token_texts(loc.get("tokens")), _opt(loc.get("host_id")),
                _opt(loc.get("partitioner")))
    for p in peers:
        row = _row_dict(p)
        b.add_peer(_address(row, "peer", "native_address", "rpc_address", "peer"),
                   _opt(row.get("data_center")), _opt(row.get("rack")),
                   _token_texts(row.get("tokens")), _opt(row.get("host_id")))
    for k in keyspaces:
        row = _row_dict(k)
        _add_keyspace(b, row["keyspace_name"], row["replication"] or {}, skip_unsupported)
    return b


def router_from_rows(local: Any, peers: Iterable[Any], keyspaces: Iterable[Any] = (),
                     local_dc: Optional[str] = None, skip_unsupported: bool = False) -> Router:
    """A :class:`~tokenring.Router` from one host's ``system.local`` row, its
    ``system.peers_v2`` (or ``system.peers``) rows and ``system_schema.keyspaces`` rows
    (``keyspace_name``, ``replication``). Node names are the addresses clients connect to
    (``native_address`` / ``rpc_address``; the peer address when those are null). The
    rules are the library's (:class:`~tokenring.RouterBuilder`); ``skip_unsupported``
    leaves out a keyspace whose replication the library refuses instead of raising."""
    return _builder_of_rows(local, peers, keyspaces, local_dc, skip_unsupported).build()


def _cluster_ring(router: Router, maps: Mapping[str, Mapping[str, Any]],
                  allow_unknown_dc: bool) -> ClusterRing:
    ring = Ring._of_reference(lib.tokenring_ring_ref(lib.tokenring_router_ring(router._p())))
    repl: Dict[str, Replication] = {}
    for name in router.keyspaces:
        m = maps[name]
        cls = str(m["class"]).rsplit(".", 1)[-1]
        text = ", ".join([f"'class': '{cls}'"] +
                         [f"'{k}': '{v}'" for k, v in m.items() if k != "class"])
        repl[name] = Replication.parse("{" + text + "}")
    return ClusterRing(ring, repl, allow_unknown_dc)


def ring_from_rows(local: Any, peers: Iterable[Any], keyspaces: Iterable[Any] = (),
                   skip_unsupported: bool = False, allow_unknown_dc: bool = True
                   ) -> ClusterRing:
    """:func:`router_from_rows` as a :class:`ClusterRing` (its ring and routed keyspaces)."""
    keyspaces = [_row_dict(k) for k in keyspaces]
    r = router_from_rows(local, peers, keyspaces, None, skip_unsupported)
    return _cluster_ring(r, {k["keyspace_name"]: k["replication"] for k in keyspaces},
                         allow_unknown_dc)


def _rows_of_session(session: Any, host: Any) -> Tuple[Any, List[Any], List[Any]]:
    from cassandra import InvalidRequest
    if host is None:
        host = _pick_host(session)
    ex = lambda q: list(session.execute(q, host=host))  # noqa: E731
    local = ex(SELECT_LOCAL)
    if len(local) != 1:
        raise InvalidArgumentError(lib.TOKENRING_E_INVAL,
                                   f"system.local of {host} has {len(local)} rows")
    try:
        peers = ex(SELECT_PEERS_V2)
    except InvalidRequest:        # Cassandra 3.x: no peers_v2
        peers = ex(SELECT_PEERS)
    return local[0], peers, [_row_dict(k) for k in ex(SELECT_KEYSPACES)]


def router_from_session(session: Any, host: Any = None, local_dc: Optional[str] = None,
                        skip_unsupported: bool = False) -> Router:
    """The :class:`~tokenring.Router` of a connected driver ``Session``: three queries
    (``system.local``, ``system.peers_v2`` or, on servers without it, ``system.peers``,
    and ``system_schema.keyspaces``) all sent to ``host`` (a driver ``Host``; default: the
    control connection's host, else the first host that is up)."""
    local, peers, ks = _rows_of_session(session, host)
    return router_from_rows(local, peers, ks, local_dc, skip_unsupported)


def ring_from_session(session: Any, host: Any = None, **options: Any) -> ClusterRing:
    """:func:`router_from_session` as a :class:`ClusterRing`; ``options`` are those of
    :func:`ring_from_rows`."""
    local, peers, ks = _rows_of_session(session, host)
    return ring_from_rows(local, peers, ks, **options)


def _pick_host(session: Any) -> Any:
    cc = getattr(session.cluster, "control_connection", None)
    conn = getattr(cc, "_connection", None)
    if conn is not None:
        h = session.cluster.metadata.get_host(conn.endpoint)
        if h is not None and h.is_up:
            return h
    for h in session.cluster.metadata.all_hosts():
        if h.is_up:
            return h
    raise InvalidArgumentError(lib.TOKENRING_E_INVAL, "the session knows no host that is up")


# --------------------------------------------------------------------------- metadata

def replication_map_of_keyspace_metadata(ks: Any) -> Optional[Dict[str, str]]:
    """The replication map of a driver ``KeyspaceMetadata`` as ``system_schema.keyspaces``
    holds it (``{"class": ..., ...}``), or None for a virtual keyspace. Which classes place
    replicas is the library's to say (:class:`~tokenring.RouterBuilder`)."""
    from cassandra import metadata as md
    s = ks.replication_strategy
    if getattr(ks, "virtual", False) or s is None:
        return None
    if isinstance(s, md.SimpleStrategy):
        return {"class": "org.apache.cassandra.locator.SimpleStrategy",
                "replication_factor": str(s.replication_factor_info)}
    if isinstance(s, md.NetworkTopologyStrategy):
        out = {"class": "org.apache.cassandra.locator.NetworkTopologyStrategy"}
        out.update({str(dc): str(rf) for dc, rf in s.dc_replication_factors_info.items()})
        return out
    if isinstance(s, md.LocalStrategy):
        return {"class": "org.apache.cassandra.locator.LocalStrategy"}
    out = {"class": str(getattr(s, "name", None) or type(s).__name__)}
    out.update({str(k): str(v) for k, v in (getattr(s, "options_map", None) or {}).items()
                if k != "class"})
    return out


def _runs(hosts: List[Any], hint: Optional[Dict[int, int]] = None) -> List[Tuple[Any, int]]:
    """``[(Host, n)]``: the runs of ``hosts`` as ``itertools.groupby`` finds them.

    ``hint`` (``id(Host) -> n``, the previous token map's run lengths) lets a run be
    checked rather than scanned by ``groupby``: a run that kept its length is one slice
    whose ``count`` of the Host is its length and whose next element differs (C-level
    identity compares: about half of ``groupby``'s cost on 24,576 tokens). Only a guess:
    from the first run it does not confirm (a new host, a host whose token count changed)
    ``groupby`` reads the rest."""
    out: List[Tuple[Any, int]] = []
    total = len(hosts)
    s = 0
    if hint:
        while s < total:
            h = hosts[s]
            n = hint.get(id(h), 0)
            e = s + n
            # list.count, like groupby, takes an element that is h or equal to h (a Host
            # of the same address); the run ends where groupby's would, at one not equal
            if not (n and e <= total and hosts[e - 1] is h and hosts[s:e].count(h) == n
                    and (e == total or not h == hosts[e])):
                break
            out.append((h, n))
            s = e
    if s < total:
        out.extend((h, len(list(g)))
                   for h, g in itertools.groupby(itertools.islice(hosts, s, None)))
    return out


def _token_groups(token_map: Any, hint: Optional[Dict[int, int]] = None
                  ) -> List[Tuple[Any, Tuple[Any, ...]]]:
    """``[(Host, token values)]`` of a driver TokenMap, one entry per host, in the order
    hosts first appear. The driver fills ``token_to_host_owner`` host by host
    (``Metadata.rebuild_token_map``), so its values come in runs of one host, found in
    C-level loops (:func:`_runs`, ``hint`` as there); runs that repeat a host (a token map
    built otherwise) are grouped by the hosts' ``id()`` instead."""
    owner = token_map.token_to_host_owner
    hosts = list(owner.values())
    runs = _runs(hosts, hint)
    values = [t.value for t in owner]
    if len({id(h) for h, _ in runs}) == len(runs):
        out: List[Tuple[Any, Tuple[Any, ...]]] = []
        start = 0
        for h, n in runs:
            out.append((h, tuple(values[start:start + n])))
            start += n
        return out
    by_host: Dict[int, Tuple[Any, List[Any]]] = {}
    for h, v in zip(hosts, values):
        e = by_host.get(id(h))
        if e is None:
            by_host[id(h)] = (h, [v])
        else:
            e[1].append(v)
    return [(h, tuple(v)) for h, v in by_host.values()]


#: One node read from a driver token map: (Host, name, datacenter, rack, token values).
_NodeRow = Tuple[Any, str, Optional[str], Optional[str], Tuple[Any, ...]]


def _node_rows(token_map: Any, hint: Optional[Dict[int, int]] = None) -> Dict[str, _NodeRow]:
    """The nodes of a driver TokenMap by name (two Host objects of one address: one node,
    all the tokens); EmptyError for a token map without tokens."""
    if not token_map.token_to_host_owner:
        raise EmptyError(lib.TOKENRING_E_EMPTY, "the driver's token map has no tokens")
    rows: Dict[str, _NodeRow] = {}
    for h, tokens in _token_groups(token_map, hint):
        name = str(h.address)
        if name in rows:
            tokens = rows[name][4] + tokens
        rows[name] = (h, name, h.datacenter, h.rack, tokens)
    return rows


def _builder_of_nodes(partitioner: Optional[str], rows: Mapping[str, _NodeRow],
                      local_dc: Optional[str] = None) -> RouterBuilder:
    b = RouterBuilder(local_dc)
    first = True
    for _, name, dc, rack, tokens in rows.values():
        if first:
            b.add_local(name, _opt(dc), _opt(rack), _token_texts(tokens), None, partitioner)
            first = False
        else:
            b.add_peer(name, _opt(dc), _opt(rack), _token_texts(tokens))
    return b


def _keyspace_maps(metadata: Any) -> Dict[str, Dict[str, str]]:
    out = {}
    for name, ks in list(metadata.keyspaces.items()):
        m = replication_map_of_keyspace_metadata(ks)
        if m is not None:
            out[name] = m
    return out


def _metadata_builder(metadata: Any, local_dc: Optional[str], skip_unsupported: bool
                      ) -> Tuple[RouterBuilder, Dict[str, Dict[str, str]]]:
    if metadata.token_map is None:
        raise EmptyError(lib.TOKENRING_E_EMPTY,
                         "the driver metadata has no token map (token_metadata_enabled=False, "
                         "or not connected yet)")
    b = _builder_of_nodes(metadata.partitioner, _node_rows(metadata.token_map), local_dc)
    maps = _keyspace_maps(metadata)
    for name, m in maps.items():
        _add_keyspace(b, name, m, skip_unsupported)
    return b, maps


def router_from_metadata(metadata: Any, local_dc: Optional[str] = None,
                         skip_unsupported: bool = False) -> Router:
    """The :class:`~tokenring.Router` of a driver ``Metadata`` (``cluster.metadata``): its
    token map's hosts and tokens and its keyspaces' replication. Needs token metadata (the
    default ``Cluster(token_metadata_enabled=True)``)."""
    return _metadata_builder(metadata, local_dc, skip_unsupported)[0].build()


def ring_from_metadata(metadata: Any, skip_unsupported: bool = False,
                       allow_unknown_dc: bool = True) -> ClusterRing:
    """:func:`router_from_metadata` as a :class:`ClusterRing`."""
    b, maps = _metadata_builder(metadata, None, skip_unsupported)
    return _cluster_ring(b.build(), maps, allow_unknown_dc)


# ----------------------------------------------------------------------------- policy

#: Trailing empty entries of a keyspace's per-set list (more than the library's error codes).
_SET_PAD = 16
_key_set_id = lib.tokenring_placement_key_set_id


def _any_set_id(p: Any, key: bytes, n: int) -> int:
    """The set id of a key on a placement of any partitioner (negative: an error)."""
    out = ffi.new("tokenring_replicas *")
    rc = lib.tokenring_placement_replicas_for_key_any(out, p, key, n)
    return rc if rc else int(out.set_id)


class _Keyspace:
    """One keyspace of a routing state: the driver's KeyspaceMetadata it was checked
    against, its placement in the router (None: route through the child policy) and, per
    replica set, the LOCAL hosts in the server's order (filled on first use). ``router``
    keeps the placement alive."""
    __slots__ = ("meta", "router", "ptr", "sets", "error")

    def __init__(self, meta: Any, router: Optional[Router], ptr: Any,
                 error: Optional[str] = None) -> None:
        self.meta = meta
        self.router = router
        self.ptr = ptr
        self.sets: List[Optional[Tuple[Any, ...]]] = (
            [None] * lib.tokenring_placement_set_count(ptr) + [()] * _SET_PAD
            if ptr is not None else [])
        self.error = error


class _Dead:
    pass


def _weak(obj: Any) -> Any:
    """A callable giving ``obj`` back while it lives (a weak reference; None gives a dead
    one, which gives None; an object without weak references is held strongly)."""
    if obj is None:
        d = _Dead()
        r = weakref.ref(d)
        del d
        return r
    try:
        return weakref.ref(obj)
    except TypeError:
        return lambda: obj


class _State:
    """A routing state: one router snapshot (the library's), the driver Host of each of
    its node indices (by the nodes' tags), the child's LOCAL distance per node index, the
    node rows and replication maps the router was made from (what the next token map or
    keyspace metadata is compared with), and the keyspaces routed so far (added under the
    policy's lock). The token map is held weakly: a state never keeps the driver's previous
    TokenMap alive."""
    __slots__ = ("tm", "router", "hosts", "local", "rows", "maps", "placements", "keyspaces",
                 "fast", "_ring", "order")

    def __init__(self, token_map: Any, router: Optional[Router], hosts: Tuple[Any, ...],
                 local: Tuple[bool, ...], rows: Optional[Dict[str, _NodeRow]] = None,
                 maps: Optional[Dict[str, Dict[str, str]]] = None) -> None:
        self.tm = _weak(token_map)
        self.router = router
        self.hosts = hosts
        self.local = local
        self.rows = rows or {}
        self.maps = maps or {}
        self.placements: Dict[str, Any] = {}
        self.fast = False
        if router is not None:
            p = router._p()
            name = ffi.new("const char **")
            pl = ffi.new("const tokenring_placement **")
            for i in range(lib.tokenring_router_keyspace_count(p)):
                lib.tokenring_router_keyspace(name, pl, p, i)
                self.placements[ffi.string(name[0]).decode()] = pl[0]
            ring = lib.tokenring_router_ring(p)
            if lib.tokenring_ring_partitioner(ring) == lib.TOKENRING_PARTITIONER_MURMUR3:
                self.fast = True
        self.keyspaces: Dict[str, _Keyspace] = {}
        self._ring: Optional[Ring] = None
        #: Which rule orders the router's replicas: "tokens" or "history" (6.0).
        self.order = "tokens"

    @property
    def ring(self) -> Optional[Ring]:
        """The router's ring (for tests and introspection)."""
        if self._ring is None and self.router is not None:
            self._ring = Ring._of_reference(
                lib.tokenring_ring_ref(lib.tokenring_router_ring(self.router._p())))
        return self._ring


_NO_RING = _State(None, None, (), ())


class _Plan:
    """A query plan: the replicas that are up (in the order given; ``is_up`` is read when
    the plan reaches each one), then the child policy's plan without them (made only when
    it is reached). An iterator class rather than a generator: a plan is mostly dropped
    after its first host, and a suspended generator costs more to make and to drop.

    ``_i`` is the index of the next replica to look at, -1 once the replicas are done
    (``_rest``, the child's plan, is set only then: one attribute store less per plan)."""
    __slots__ = ("_replicas", "_i", "_child", "_keyspace", "_query", "_rest")

    def __iter__(self) -> "_Plan":
        return self

    def __next__(self) -> Any:
        i = self._i
        if i >= 0:
            r = self._replicas
            n = len(r)
            while i < n:
                h = r[i]
                i += 1
                if h.is_up:
                    self._i = i
                    return h
            self._i = -1
            self._rest = itertools.filterfalse(
                r.__contains__, iter(self._child.make_query_plan(self._keyspace, self._query)))
        return next(self._rest)


class TokenRingPolicy(LoadBalancingPolicy):
    """A token-aware load-balancing policy whose replicas come from a libtokenring
    :class:`~tokenring.Router`: a drop-in for ``TokenAwarePolicy(child_policy)``.

    For a statement with a routing key and a keyspace (the statement's, else the session's),
    the query plan starts with the key's replicas that the child policy calls
    ``HostDistance.LOCAL`` and that are up, in Cassandra's replica order (with a
    DC-aware child: the local datacenter's replicas, in the server's order), then the child's
    plan without the hosts already given. Without a routing key or keyspace, with a keyspace
    the router does not place (LocalStrategy, EverywhereStrategy, a class it refuses, a
    dropped keyspace) or before the token map is known, the plan is the child's.
    ``shuffle_replicas`` shuffles the replicas (as the driver's option does).

    The router follows the driver's metadata: it is built (RouterBuilder) from the first
    token map and keyspace metadata, the driver's hosts being its nodes' tags; a new token
    map (node added, removed, moved) is applied to it as join / leave / move events (a
    full build when many nodes changed), a replaced KeyspaceMetadata (CREATE / ALTER / DROP
    KEYSPACE) as a keyspace event, host up/down as up/down events, each on the first
    request that sees the change (host events at once). A change the router refuses keeps
    the previous snapshot, or routes that keyspace through the child, and is logged and
    kept in :attr:`last_error`. Any partitioner the library models is routed. Thread-safe.

    On Cassandra 6.0 and later (a host's ``release_version`` 6 or more), whose replica
    order follows the cluster's history rather than its tokens (doc/cassandra-6.md), each
    router made after a change of the ring or of a keyspace is brought, in the
    background, to the history's order: a worker thread reads
    ``system_views.cluster_metadata_log`` and ``cluster_metadata_directory`` (from one
    host) through ``session`` (by default a session of its own, connected on first use),
    builds the history (:meth:`tokenring.History.from_metadata`, the keyspaces'
    replications from the router) and swaps in the router routed through it
    (:meth:`tokenring.Router.with_history`) if no newer change came meanwhile. Until then,
    and when the history cannot be read or does not match the ring (an operation in
    progress, rows of another moment: retried after 0.5 s to 30 s, a minute in all, then
    at the next change), the order is the tokens'; :attr:`replica_order` says which,
    :attr:`last_error` why (cleared when a later read applies).
    ``history=False`` keeps the tokens' order. ``history_budget``: the seconds of work a
    history's replay may take (estimated before it starts; None: the library's default,
    about 5 s; ``"unlimited"``); a larger cluster keeps the tokens' order, saying so.
    """

    def __init__(self, child_policy: Any, shuffle_replicas: bool = False,
                 session: Any = None, history: bool = True,
                 history_budget: Any = None) -> None:
        self._child_policy = child_policy
        self._shuffle = bool(shuffle_replicas)
        self._cluster: Any = None
        self._session = session
        self._own_session = False
        self._history = bool(history)
        self._history_budget = history_budget
        self._history_worker = HistoryWorker(self._apply_history, self._history_failed)
        self._metadata: Any = None
        self._state: _State = _NO_RING
        self._lock = threading.RLock()
        #: The hot path's entries: keyspace -> (the token map's weak reference, the
        #: KeyspaceMetadata, the placement pointer, the per-set host tuples, the
        #: _Keyspace, which keeps the router and so the placement alive), for the
        #: keyspaces routed on the current state; replaced (never changed in place), under
        #: the lock.
        self._fast: Dict[Optional[str], Tuple[Any, Any, Any, List[Any], Any]] = {}
        #: Tags: the driver Host of each tag, and each node name's tag.
        self._tag_of: Dict[str, int] = {}
        #: The message of the last change the policy could not apply (None: none).
        self.last_error: Optional[str] = None
        #: Number of router builds and event batches that changed the ring, and of
        #: keyspace events applied (for tests and monitoring).
        self.ring_builds = 0
        self.keyspace_builds = 0

    # -- the LoadBalancingPolicy interface ----------------------------------------------
    def populate(self, cluster: Any, hosts: Any) -> None:
        with self._lock:
            self._cluster = cluster
            self._metadata = cluster.metadata
            self._fast = {}
        self._child_policy.populate(cluster, hosts)

    def check_supported(self) -> None:
        """Nothing to check: the router reads every partitioner the library models (and
        refuses, naming it, one it does not, keeping the child's plans)."""

    def distance(self, *args: Any, **kwargs: Any) -> Any:
        return self._child_policy.distance(*args, **kwargs)

    def on_up(self, host: Any, *args: Any, **kwargs: Any) -> Any:
        r = self._child_policy.on_up(host, *args, **kwargs)
        self._host_event(host, lib.TOKENRING_ROUTER_EVENT_UP)
        return r

    def on_down(self, host: Any, *args: Any, **kwargs: Any) -> Any:
        r = self._child_policy.on_down(host, *args, **kwargs)
        self._host_event(host, lib.TOKENRING_ROUTER_EVENT_DOWN)
        return r

    def on_add(self, host: Any, *args: Any, **kwargs: Any) -> Any:
        # the node joins the router with the token map that brings its tokens
        r = self._child_policy.on_add(host, *args, **kwargs)
        self._host_event(host, 0)
        return r

    def on_remove(self, host: Any, *args: Any, **kwargs: Any) -> Any:
        # the node leaves the router with the token map that drops its tokens
        r = self._child_policy.on_remove(host, *args, **kwargs)
        self._host_event(host, 0)
        return r

    @property
    def child_policy(self) -> Any:
        return self._child_policy

    @property
    def router(self) -> Optional[Router]:
        """The current :class:`~tokenring.Router` snapshot (None before the first token
        map); its nodes' tags index :attr:`hosts_by_tag`."""
        return self._state.router

    @property
    def replica_order(self) -> str:
        """Which rule orders the current router's replicas: ``"tokens"`` (every release
        before 6.0, and 6.0 until its history is read) or ``"history"`` (6.0's order,
        from the cluster's metadata log)."""
        return self._state.order

    @property
    def history_refreshes(self) -> int:
        """Routers brought to the history's order so far (6.0; tests and monitoring)."""
        return self._history_worker.applied

    def wait_for_history(self, timeout: float = 30.0) -> bool:
        """Waits until no history refresh is pending (tests); True unless timed out."""
        return self._history_worker.wait_idle(timeout)

    def refresh_history(self) -> bool:
        """Reads the cluster's metadata log now and routes the current router in its
        order (what the worker does after each change); True when applied, False when
        the router changed meanwhile. Raises what reading or building the history raises
        (and records it in :attr:`last_error`)."""
        st = self._current_state()
        if st.router is None:
            raise EmptyError(lib.TOKENRING_E_EMPTY, "the policy has no ring yet")
        return self._apply_history(st)

    @property
    def shuffle_replicas(self) -> bool:
        """Whether the replicas are shuffled (as the driver's option); settable."""
        return self._shuffle

    @shuffle_replicas.setter
    def shuffle_replicas(self, value: bool) -> None:
        with self._lock:
            self._shuffle = bool(value)
            self._fast = {}

    def make_query_plan(self, working_keyspace: Optional[str] = None, query: Any = None
                        ) -> Iterator[Any]:
        # the hot path: a keyspace already routed on the current state (an entry of
        # _fast, made by the full path below) and a bytes routing key: two identity
        # checks (the token map, the keyspace's metadata), one C call (the key's
        # replica-set id in the router's placement) and one list index (the set's LOCAL
        # hosts, once filled)
        if query is not None:
            key = query.routing_key
            if type(key) is bytes:
                keyspace = query.keyspace or working_keyspace
                f = self._fast.get(keyspace)
                if f is not None:
                    # (ks keeps the router, so p, alive while this call runs)
                    tm, meta, p, sets, ks = f
                    md = self._metadata
                    if tm() is md.token_map and meta is md.keyspaces.get(keyspace):
                        # sets ends with () entries: a negative id (an error) reads one
                        replicas = sets[_key_set_id(p, key, len(key))]
                        if replicas:
                            it = _Plan()
                            it._replicas = replicas
                            it._i = 0
                            it._child = self._child_policy
                            it._keyspace = keyspace
                            it._query = query
                            return it
                        if replicas is not None:
                            # () : a set without LOCAL replica, or an error: the child's
                            # plan, as on the full path; None: a set not filled yet
                            return iter(self._child_policy.make_query_plan(keyspace, query))
        return self._make_query_plan(working_keyspace, query)

    def _current(self, keyspace: str) -> Tuple[Optional[_State], Optional[_Keyspace]]:
        """The current state and ``keyspace``'s entry, brought up to date with the driver's
        metadata (None, None before there is any)."""
        md = self._metadata
        if md is None:
            return None, None
        st = self._state
        if st.tm() is not md.token_map:
            st = self._refresh()
        ks = st.keyspaces.get(keyspace)
        if ks is None or ks.meta is not md.keyspaces.get(keyspace):
            st, ks = self._refresh_keyspace(keyspace)
        return st, ks

    def _make_query_plan(self, working_keyspace: Optional[str], query: Any) -> Iterator[Any]:
        """make_query_plan's full path: every case, and the first plan of a keyspace on
        a new state (which makes the keyspace's entry of the hot path)."""
        if query is None:
            return iter(self._child_policy.make_query_plan(working_keyspace, query))
        keyspace = query.keyspace or working_keyspace
        key = query.routing_key
        if key is None or keyspace is None:
            return iter(self._child_policy.make_query_plan(keyspace, query))
        st, ks = self._current(keyspace)
        if ks is None or ks.ptr is None:
            return iter(self._child_policy.make_query_plan(keyspace, query))
        if type(key) is not bytes:
            key = bytes(key)
        sid = (_key_set_id if st.fast else _any_set_id)(ks.ptr, key, len(key))
        if sid < 0:
            return iter(self._child_policy.make_query_plan(keyspace, query))
        replicas = ks.sets[sid]
        if replicas is None:
            replicas = self._fill(st, ks, sid)
        if keyspace not in self._fast and not self._shuffle and st.fast:
            self._make_fast(st, keyspace, ks)
        if not replicas:
            return iter(self._child_policy.make_query_plan(keyspace, query))
        if self._shuffle:
            replicas = tuple(random.sample(replicas, len(replicas)))
        it = _Plan()
        it._replicas = replicas
        it._i = 0
        it._child = self._child_policy
        it._keyspace = keyspace
        it._query = query
        return it

    def _make_fast(self, st: _State, keyspace: str, ks: _Keyspace) -> None:
        """Makes ``keyspace``'s entry of the hot path, if ``st`` and ``ks`` are still the
        policy's (under the lock, as every change of state: an entry is never made from a
        state already replaced)."""
        with self._lock:
            if (self._state is st and st.keyspaces.get(keyspace) is ks and ks.ptr is not None
                    and not self._shuffle and st.fast):
                fast = dict(self._fast)
                fast[keyspace] = (st.tm, ks.meta, ks.ptr, ks.sets, ks)
                self._fast = fast

    def _fill(self, st: _State, ks: _Keyspace, sid: int) -> Tuple[Any, ...]:
        """The LOCAL hosts of replica set ``sid``, in replica order (kept for the set)."""
        out = ffi.new("tokenring_replicas *")
        if lib.tokenring_placement_set(out, ks.ptr, sid):
            return ()
        local = st.local
        hs = st.hosts
        hosts = tuple(hs[i] for i in ffi.unpack(out.nodes, out.count) if local[i])
        ks.sets[sid] = hosts
        return hosts

    def _local_replicas(self, keyspace: str, key: bytes) -> Tuple[Any, ...]:
        """The LOCAL replicas of ``key`` in ``keyspace`` in the server's order (() when the
        policy cannot place the key)."""
        st, ks = self._current(keyspace)
        if ks is None or ks.ptr is None:
            return ()
        if type(key) is not bytes:
            key = bytes(key)
        sid = (_key_set_id if st.fast else _any_set_id)(ks.ptr, key, len(key))
        if sid < 0:
            return ()
        hosts = ks.sets[sid]
        if hosts is None:
            hosts = self._fill(st, ks, sid)
        return hosts

    # -- keeping in sync ---------------------------------------------------------------
    def _fail(self, msg: str) -> None:
        self.last_error = msg
        log.warning("tokenring.driver.TokenRingPolicy: %s", msg)

    def _distances(self, hosts: Iterable[Any]) -> Tuple[bool, ...]:
        return tuple(self._child_policy.distance(h) == HostDistance.LOCAL for h in hosts)

    def _tag(self, name: str) -> int:
        t = self._tag_of.get(name)
        if t is None:
            t = self._tag_of[name] = len(self._tag_of) + 1
        return t

    def _state_of(self, tm: Any, router: Router, rows: Dict[str, _NodeRow],
                  maps: Dict[str, Dict[str, str]]) -> _State:
        """A new state of ``router``: its hosts by node index from the nodes' tags."""
        by_tag = {self._tag_of[n]: r[0] for n, r in rows.items()}
        hosts = tuple(by_tag[n.tag] for n in router.nodes)
        return _State(tm, router, hosts, self._distances(hosts), rows, maps)

    def _host_event(self, host: Any, kind: int) -> None:
        """Host up / down (``kind``, 0 for add / remove): the router's liveness, fresh
        distances and per-set host tuples."""
        with self._lock:
            st = self._state
            if st.router is None:
                return
            router = st.router
            if kind:
                try:
                    router = router.apply(kind, node=str(host.address))
                except TokenRingError:
                    pass            # a host the router does not hold (no tokens yet)
            new = _State(st.tm(), router, st.hosts, self._distances(st.hosts), st.rows,
                         st.maps)
            new.order = st.order    # up and down keep every placement
            self._state = new
            self._fast = {}

    def _events(self, st: _State, rows: Dict[str, _NodeRow]) -> Optional[Router]:
        """``st``'s router with the changes from its rows to ``rows`` applied as events, or
        None when a full build is cheaper (most nodes changed) or an event fails."""
        prev = st.rows
        events: List[Tuple[int, Dict[str, Any]]] = []
        for n, r in prev.items():
            s = rows.get(n)
            if s is None or s[2] != r[2] or s[3] != r[3]:
                events.append((lib.TOKENRING_ROUTER_EVENT_LEFT, {"node": n}))
            elif s[4] != r[4]:
                events.append((lib.TOKENRING_ROUTER_EVENT_MOVED,
                               {"node": n, "tokens": _token_texts(s[4])}))
        for n, s in rows.items():
            r = prev.get(n)
            if r is None or s[2] != r[2] or s[3] != r[3]:
                events.append((lib.TOKENRING_ROUTER_EVENT_JOINED,
                               {"node": n, "datacenter": _opt(s[2]), "rack": _opt(s[3]),
                                "tokens": _token_texts(s[4]), "tag": self._tag(n),
                                "down": s[0].is_up is False}))
        if 2 * len(events) > len(rows):
            return None
        router = st.router
        try:
            for kind, fields in events:
                router = router.apply(kind, **fields)
        except TokenRingError:
            return None
        return router

    def _refresh(self) -> _State:
        """The router of the driver's current token map: events on the previous one, else
        a full build (under the lock; a failure keeps the previous state)."""
        with self._lock:
            md = self._metadata
            st = self._state
            tm = md.token_map
            if st.tm() is tm:
                return st
            if tm is None:
                new = _State(None, None, (), ())
                self._state = new
                self._fast = {}
                return new
            try:
                hint = {id(r[0]): len(r[4]) for r in st.rows.values()} or None
                rows = _node_rows(tm, hint)
                router = self._events(st, rows) if st.router is not None else None
                maps = st.maps
                if router is None:
                    b = _builder_of_nodes(md.partitioner, rows)
                    maps = {}
                    for name, m in _keyspace_maps(md).items():
                        try:
                            b.add_keyspace(name, m)
                            maps[name] = m
                        except TokenRingError:
                            pass    # reported when the keyspace is first routed
                    for n, r in rows.items():
                        b.set_node(n, self._tag(n), r[0].is_up is False)
                    router = b.build()
                new = self._state_of(tm, router, rows, maps)
            except (TokenRingError, TypeError, ValueError) as e:
                self._fail(f"the new token map was not applied (routing stays on the "
                           f"previous router): {e}")
                # remember the token map so that the next request does not retry it
                new = _State(tm, st.router, st.hosts, st.local, st.rows, st.maps)
                new.keyspaces.update(st.keyspaces)
                self._state = new
                self._fast = {}
                return new
            self.ring_builds += 1
            self._state = new
            self._fast = {}
            self._want_history(new)
            return new

    def _refresh_keyspace(self, keyspace: str) -> Tuple[_State, _Keyspace]:
        """``keyspace``'s entry on the current state: the router's placement when the
        router holds the keyspace's current replication, else after a keyspace event
        (created, altered, dropped) applied to the router, which makes a new state."""
        with self._lock:
            md = self._metadata
            st = self._state
            meta = md.keyspaces.get(keyspace)
            cur = st.keyspaces.get(keyspace)
            if cur is not None and cur.meta is meta:
                return st, cur
            if st.router is None:
                ks = _Keyspace(meta, None, None)
                st.keyspaces[keyspace] = ks
                return st, ks
            want = replication_map_of_keyspace_metadata(meta) if meta is not None else None
            have = st.maps.get(keyspace)
            error = None
            if want != have:
                if want is None:
                    kind, fields = lib.TOKENRING_ROUTER_EVENT_DROPPED, {}
                elif have is None:
                    kind, fields = lib.TOKENRING_ROUTER_EVENT_CREATED, {"replication": want}
                else:
                    kind, fields = lib.TOKENRING_ROUTER_EVENT_ALTERED, {"replication": want}
                try:
                    router = st.router.apply(kind, keyspace=keyspace, **fields)
                    self.keyspace_builds += 1
                    maps = dict(st.maps)
                    if want is None:
                        maps.pop(keyspace, None)
                    else:
                        maps[keyspace] = want
                    new = _State(st.tm(), router, st.hosts, st.local, st.rows, maps)
                    new.keyspaces.update(st.keyspaces)
                    st = self._state = new
                    self._want_history(new)
                except TokenRingError as e:
                    error = str(e)
                    self._fail(f"keyspace {keyspace!r} routes through the child policy: {e}")
            ptr = st.placements.get(keyspace) if error is None else None
            ks = _Keyspace(meta, st.router, ptr, error)
            st.keyspaces[keyspace] = ks
            if keyspace in self._fast:          # the other keyspaces' entries stay
                fast = dict(self._fast)
                del fast[keyspace]
                self._fast = fast
            return st, ks

    # -- Cassandra 6.0: the history's order --------------------------------------------
    def _current_state(self) -> _State:
        md = self._metadata
        st = self._state
        if md is not None and st.tm() is not md.token_map:
            st = self._refresh()
        return st

    def _want_history(self, st: _State) -> None:
        """Queues a new state for the history's order (6.0 and later only)."""
        md = self._metadata
        if self._history and st.router is not None and md is not None and \
                orders_by_history(md.all_hosts()):
            self._history_worker.want(st)

    def _history_session(self) -> Any:
        with self._lock:
            if self._session is None:
                if self._cluster is None:
                    raise InvalidArgumentError(lib.TOKENRING_E_INVAL,
                                               "no session to read the metadata log with")
                self._session = self._cluster.connect()
                self._own_session = True
            return self._session

    def _history_host(self) -> Any:
        """One up host to read both tables from (None: any)."""
        md = self._metadata
        for h in (md.all_hosts() if md is not None else ()):
            if getattr(h, "is_up", None):
                return h
        return None

    def _apply_history(self, st: _State) -> bool:
        """Reads the history and, if ``st`` is still the policy's state, swaps in its
        router routed through the history."""
        if self._state is not st:
            return False
        hist = history_from_session(self._history_session(), st.router, self._history_host(),
                                    budget=self._history_budget)
        routed = st.router.with_history(hist)
        with self._lock:
            if self._state is not st:
                return False
            new = _State(st.tm(), routed, st.hosts, st.local, st.rows, st.maps)
            new.order = "history"
            self._state = new
            self._fast = {}
            if self.last_error and self.last_error.startswith(_HISTORY_FAILED):
                self.last_error = None      # superseded
        return True

    def _history_failed(self, e: Exception) -> None:
        self._fail(f"{_HISTORY_FAILED}: {e}")

    # -- introspection (tests, monitoring) ---------------------------------------------
    def cluster_ring(self) -> ClusterRing:
        """A :class:`ClusterRing` of the policy's current router."""
        st = self._state
        if st.router is None:
            raise EmptyError(lib.TOKENRING_E_EMPTY, "the policy has no ring yet")
        return _cluster_ring(st.router, st.maps, True)

    def replicas(self, keyspace: str, key: bytes) -> Tuple[Any, ...]:
        """Every replica (driver Host) of ``key`` in ``keyspace`` in the server's order,
        whatever the distance (() when the policy cannot place it)."""
        st, ks = self._current(keyspace)
        if ks is None or ks.ptr is None:
            return ()
        route = ks.router.route(keyspace, bytes(key))
        return tuple(st.hosts[i] for i in route.replicas)
