# SPDX-License-Identifier: Apache-2.0
"""libtokenring inside the DataStax Python driver (PyPI ``cassandra-driver``).

An optional module: ``import tokenring`` never imports the driver; ``import
tokenring.driver`` does (and raises ImportError naming the package when it is missing).

* :func:`ring_from_session`: the ring and every keyspace's replication of a connected
  session, read from ``system.local``, ``system.peers_v2`` (``system.peers`` on servers
  before 4.0) and ``system_schema.keyspaces``, all three pinned to ONE host (the driver's
  default policy would send them to different nodes, whose views can differ).
* :func:`ring_from_rows`: the same from rows already read (dicts or named tuples).
* :func:`ring_from_metadata`: the same from a driver ``Metadata`` (``cluster.metadata``).
* :class:`TokenRingPolicy`: a load-balancing policy, a drop-in for the driver's
  ``TokenAwarePolicy``::

      from cassandra.policies import DCAwareRoundRobinPolicy
      from tokenring.driver import TokenRingPolicy
      # was: TokenAwarePolicy(DCAwareRoundRobinPolicy("dc1"))
      policy = TokenRingPolicy(DCAwareRoundRobinPolicy("dc1"))

Every function returns a :class:`tokenring.ClusterRing` (keyspaces of ``LocalStrategy``, the
node-local system keyspaces, are left out: they have no token placement).
"""
import itertools
import logging
import random
import threading
import weakref
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple

try:
    from cassandra.policies import HostDistance, LoadBalancingPolicy
except ImportError as _e:  # pragma: no cover - depends on the environment
    raise ImportError("tokenring.driver needs the DataStax Python driver: "
                      "pip install cassandra-driver") from _e

from ._cluster_ring import ClusterRing
from ._errors import (EmptyError, InvalidArgumentError, TokenRingError, UnsupportedError)
from ._ffi import ffi, lib
from ._node import DEFAULT_RACK
from ._replication import Replication
from ._ring import Ring
from ._topology import Topology

try:
    import numpy as _np
except ImportError:  # pragma: no cover - numpy is optional
    _np = None

__all__ = ["ring_from_session", "ring_from_rows", "ring_from_metadata", "TokenRingPolicy",
           "replication_of_row", "replication_of_keyspace_metadata"]

log = logging.getLogger("tokenring.driver")

MURMUR3 = "org.apache.cassandra.dht.Murmur3Partitioner"

#: What the three system tables are read with (one host answers all of them).
SELECT_LOCAL = ("SELECT rpc_address, broadcast_address, listen_address, data_center, rack, "
                "tokens, partitioner FROM system.local WHERE key='local'")
SELECT_PEERS_V2 = "SELECT peer, native_address, data_center, rack, tokens FROM system.peers_v2"
SELECT_PEERS = "SELECT peer, rpc_address, data_center, rack, tokens FROM system.peers"
SELECT_KEYSPACES = "SELECT keyspace_name, replication FROM system_schema.keyspaces"


# ----------------------------------------------------------------------- replication

def _short_class(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def replication_of_row(keyspace: str, replication: Mapping[str, str]) -> Optional[Replication]:
    """The :class:`Replication` of a ``system_schema.keyspaces`` row's ``replication`` map
    (``{'class': 'org.apache.cassandra.locator.SimpleStrategy', 'replication_factor':
    '3'}``). None for ``LocalStrategy``. UnsupportedError names the keyspace and the class
    for any class other than SimpleStrategy and NetworkTopologyStrategy; ParseError for a
    bad factor."""
    if not isinstance(replication, Mapping) or "class" not in replication:
        raise InvalidArgumentError(lib.TOKENRING_E_INVAL,
                                   f"keyspace {keyspace!r}: replication {replication!r} has no "
                                   "'class'")
    cls = _short_class(str(replication["class"]))
    if cls == "LocalStrategy":
        return None
    if cls not in ("SimpleStrategy", "NetworkTopologyStrategy"):
        raise UnsupportedError(lib.TOKENRING_E_UNSUPPORTED,
                               f"keyspace {keyspace!r}: replication class "
                               f"{replication['class']!r} is not supported (only SimpleStrategy "
                               "and NetworkTopologyStrategy place replicas by token)")
    parts = [f"'class': '{cls}'"]
    for k, v in replication.items():
        if k == "class":
            continue
        parts.append(f"'{k}': '{v}'")
    try:
        return Replication.parse("{" + ", ".join(parts) + "}")
    except TokenRingError as e:
        raise type(e)(e.code, f"keyspace {keyspace!r}: {e}") from None


def replication_of_keyspace_metadata(ks: Any) -> Optional[Replication]:
    """The :class:`Replication` of a driver ``KeyspaceMetadata`` (None for LocalStrategy and
    virtual keyspaces);
    UnsupportedError for other classes (EverywhereStrategy, custom strategies)."""
    from cassandra import metadata as md
    s = ks.replication_strategy
    if s is None or getattr(ks, "virtual", False):
        return None         # a virtual keyspace (system_views, ...): node-local, no tokens
    if isinstance(s, md.SimpleStrategy):
        return replication_of_row(ks.name, {"class": "SimpleStrategy",
                                            "replication_factor": str(s.replication_factor_info)})
    if isinstance(s, md.NetworkTopologyStrategy):
        opts = {"class": "NetworkTopologyStrategy"}
        opts.update({dc: str(rf) for dc, rf in s.dc_replication_factors_info.items()})
        return replication_of_row(ks.name, opts)
    if isinstance(s, md.LocalStrategy):
        return None
    name = getattr(s, "name", None) or type(s).__name__
    return replication_of_row(ks.name, {"class": str(name)})


# ----------------------------------------------------------------------------- rows

def _row_dict(row: Any) -> Dict[str, Any]:
    if isinstance(row, Mapping):
        return dict(row)
    if hasattr(row, "_asdict"):
        return row._asdict()
    raise TypeError(f"a system table row must be a mapping or a named tuple, not "
                    f"{type(row).__name__}")


def _node_of(row: Mapping[str, Any], what: str, *address_columns: str
             ) -> Tuple[str, str, str, List[int]]:
    addr = None
    for c in address_columns:
        if row.get(c) is not None:
            addr = str(row[c])
            break
    if addr is None:
        raise InvalidArgumentError(lib.TOKENRING_E_INVAL,
                                   f"{what} has no address ({' / '.join(address_columns)})")
    dc, rack = row.get("data_center"), row.get("rack")
    if not dc:
        raise InvalidArgumentError(lib.TOKENRING_E_INVAL,
                                   f"{what} {addr} has no data_center (gossip has not told this "
                                   "node its datacenter yet)")
    if rack is None:
        # what the server reads: GossipingPropertyFileSnitch.getRack gives a peer whose
        # rack is null its DEFAULT_RACK; an empty rack is the rack "" (the C library accepts it)
        rack = DEFAULT_RACK
    toks = row.get("tokens")
    tokens: List[int] = []
    for t in toks or ():
        try:
            tokens.append(int(t))
        except (TypeError, ValueError):
            raise InvalidArgumentError(lib.TOKENRING_E_INVAL,
                                       f"{what} {addr}: token {t!r} is not an integer "
                                       "(not a Murmur3Partitioner cluster?)") from None
    return addr, str(dc), str(rack), tokens


def ring_from_rows(local: Any, peers: Iterable[Any], keyspaces: Iterable[Any] = (),
                   skip_tokenless: bool = False, skip_unsupported: bool = False,
                   allow_unknown_dc: bool = True) -> ClusterRing:
    """A :class:`ClusterRing` from one host's ``system.local`` row, its ``system.peers_v2``
    (or ``system.peers``) rows and ``system_schema.keyspaces`` rows (``keyspace_name``,
    ``replication``). Node names are the addresses clients connect to (``native_address`` /
    ``rpc_address``; the peer address when those are null).

    A null rack is :data:`~tokenring.DEFAULT_RACK` and an empty one the rack "", as the
    server reads them (the driver itself ignores such a peer row). Errors (each names the
    row): a non-Murmur3 partitioner (UnsupportedError); a row without datacenter
    (InvalidArgumentError); a node with no tokens yet (EmptyError; with
    ``skip_tokenless`` such nodes are left out, as a joining node owns nothing yet); a
    replication class other than SimpleStrategy / NetworkTopologyStrategy
    (UnsupportedError; ``skip_unsupported`` leaves that keyspace out). ``allow_unknown_dc``
    (default True, as the server) lets a keyspace name a datacenter with no node."""
    loc = _row_dict(local)
    part = loc.get("partitioner")
    if part is not None and _short_class(str(part)) != "Murmur3Partitioner":
        raise UnsupportedError(lib.TOKENRING_E_UNSUPPORTED,
                               f"partitioner {part}: only Murmur3Partitioner is supported")
    nodes = [_node_of(loc, "system.local", "rpc_address", "broadcast_address",
                      "listen_address")]
    for p in peers:
        nodes.append(_node_of(_row_dict(p), "peer", "native_address", "rpc_address", "peer"))
    topo = Topology()
    for addr, dc, rack, tokens in nodes:
        if not tokens:
            if skip_tokenless:
                continue
            raise EmptyError(lib.TOKENRING_E_EMPTY,
                             f"node {addr} ({dc}/{rack}) has no tokens yet (joining, or its "
                             "row is incomplete)")
        topo.add_node(addr, dc, rack, tokens)
    ring = topo.build()
    repl: Dict[str, Replication] = {}
    for k in keyspaces:
        row = _row_dict(k)
        name = row["keyspace_name"]
        try:
            r = replication_of_row(name, row["replication"])
        except UnsupportedError:
            if skip_unsupported:
                continue
            raise
        if r is not None:
            repl[name] = r
    return ClusterRing(ring, repl, allow_unknown_dc)


def ring_from_session(session: Any, host: Any = None, **options: Any) -> ClusterRing:
    """The :class:`ClusterRing` of a connected driver ``Session``: one call, three queries
    (``system.local``, ``system.peers_v2`` or, on servers without it, ``system.peers``,
    and ``system_schema.keyspaces``) all sent to ``host`` (a driver ``Host``; default: the
    control connection's host, else the first host that is up). ``options`` are those of
    :func:`ring_from_rows`."""
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
    keyspaces = ex(SELECT_KEYSPACES)
    return ring_from_rows(local[0], peers, keyspaces, **options)


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

def _host_name(h: Any) -> str:
    return str(h.address)


#: One node of a ring read from a driver token map: (Host, name, datacenter, rack, tokens);
#: tokens: ``bytes`` of native int64 (see :func:`_token_groups`) or a list of ints.
_NodeRow = Tuple[Any, str, str, str, Any]


def _token_count(tokens: Any) -> int:
    return len(tokens) // 8 if type(tokens) is bytes else len(tokens)


def _packed(values: List[int]) -> Optional[memoryview]:
    """``values`` as native int64, a memoryview of their bytes (one numpy conversion; the
    callers copy out each node's slice: one 200 KB bytes object would cost more, in page
    faults, than 96 small ones), or None without numpy or when a value does not fit (the
    list is then used, and the binding's own checks name the bad token)."""
    if _np is None:
        return None
    try:
        return memoryview(_np.fromiter(values, _np.int64, len(values))).cast("B")
    except (OverflowError, TypeError, ValueError):
        return None


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
                  ) -> List[Tuple[Any, Any]]:
    """``[(Host, tokens)]`` of a driver TokenMap, one entry per host, in the order hosts
    first appear; tokens: ``bytes`` of native int64 (with numpy), else a list of ints.

    The driver fills ``token_to_host_owner`` host by host (``Metadata.rebuild_token_map``),
    so its values come in runs of one host: the runs are found in C-level loops
    (:func:`_runs`, ``hint`` as there) and each run's tokens are one slice of the values,
    read with one list comprehension. Runs that repeat a host (a token map built
    otherwise) are grouped by the hosts' ``id()`` instead.

    Why bytes: the policy keeps each node's tokens to find, at the next token map, the
    nodes that changed. As Python ints that comparison touched 24,576 int objects
    scattered in memory (cache misses, 0.4-0.6 ms) and freeing them 0.3-0.4 ms more at
    the next refresh; as bytes the comparison is a memcmp per node and the previous rows
    free in microseconds, for one numpy conversion of the values (0.4-0.7 ms)."""
    owner = token_map.token_to_host_owner
    hosts = list(owner.values())
    runs = _runs(hosts, hint)
    values = [t.value for t in owner]
    if len({id(h) for h, _ in runs}) == len(runs):
        out: List[Tuple[Any, Any]] = []
        start = 0
        packed = _packed(values)
        if packed is not None:
            for h, n in runs:
                out.append((h, bytes(packed[8 * start:8 * (start + n)])))
                start += n
            return out
        for h, n in runs:
            out.append((h, values[start:start + n]))
            start += n
        return out
    by_host: Dict[int, Tuple[Any, List[int]]] = {}
    for h, v in zip(hosts, values):
        e = by_host.get(id(h))
        if e is None:
            by_host[id(h)] = (h, [v])
        else:
            e[1].append(v)
    return list(by_host.values())


def _add_node(topo: Topology, name: str, dc: str, rack: str, tokens: Any) -> None:
    """Topology.add_node with the tokens converted by numpy when they all fit in int64
    (a C-level loop; else the binding's own checks, which name the bad token); tokens
    already packed (bytes of int64, :func:`_token_groups`) are passed without a copy."""
    if type(tokens) is bytes:
        topo.add_node(name, dc, rack, _np.frombuffer(tokens, dtype=_np.int64))
        return
    if _np is not None:
        try:
            arr = _np.array(tokens, dtype=_np.int64)
        except (OverflowError, TypeError, ValueError):
            arr = None
        if arr is not None and arr.ndim == 1 and len(arr) == len(tokens):
            topo.add_node(name, dc, rack, arr)
            return
    topo.add_node(name, dc, rack, tokens)


def _node_rows(token_map: Any, hint: Optional[Dict[int, int]] = None) -> Dict[str, _NodeRow]:
    """The nodes of a driver TokenMap by name; InvalidArgumentError for a host without
    datacenter or rack (EmptyError for no tokens at all). ``hint``: as :func:`_runs`."""
    if not token_map.token_to_host_owner:
        raise EmptyError(lib.TOKENRING_E_EMPTY, "the driver's token map has no tokens")
    rows: Dict[str, _NodeRow] = {}
    for h, tokens in _token_groups(token_map, hint):
        name = _host_name(h)
        if not h.datacenter:
            raise InvalidArgumentError(lib.TOKENRING_E_INVAL,
                                       f"host {name} has no datacenter (its peers row has no "
                                       "data_center)")
        if h.rack is None:
            # the driver's metadata has not learnt this host's rack yet (it ignores peer
            # rows without one): refused, so a policy keeps its previous ring; an empty
            # rack is the rack "", as the server reads it
            raise InvalidArgumentError(lib.TOKENRING_E_INVAL,
                                       f"host {name} has no rack (its peers row has no rack)")
        if name in rows:     # two Host objects of one address: one node, all the tokens
            tokens = rows[name][4] + tokens
        rows[name] = (h, name, h.datacenter, h.rack, tokens)
    return rows


def _topology_of(rows: Dict[str, _NodeRow], prev: Optional[Tuple[Topology, Dict[str, _NodeRow]]]
                 ) -> Topology:
    """The topology of ``rows``: from the previous one (``(topology, its rows)``, left
    untouched) by removing the nodes that left or changed (tokens, datacenter or rack) and
    adding the new and changed ones, on a clone; from scratch without one (or when that
    fails, so that the error is the from-scratch build's)."""
    if prev is not None:
        ptopo, prows = prev
        gone = [n for n, r in prows.items()
                if n not in rows or rows[n][2] != r[2] or rows[n][3] != r[3]
                or rows[n][4] != r[4]]
        new = [n for n in rows if n not in prows or n in gone]
        if len(gone) + len(new) < len(rows):
            try:
                topo = ptopo.clone()
                for n in gone:
                    topo.remove_node(n)
                for n in new:
                    _, name, dc, rack, tokens = rows[n]
                    _add_node(topo, name, dc, rack, tokens)
                return topo
            except TokenRingError:
                pass
    topo = Topology()
    for _, name, dc, rack, tokens in rows.values():
        _add_node(topo, name, dc, rack, tokens)
    return topo


def _ring_of_token_map(token_map: Any,
                       prev: Optional[Tuple[Topology, Dict[str, _NodeRow]]] = None
                       ) -> Tuple[Ring, Tuple[Any, ...], Tuple[Topology, Dict[str, _NodeRow]]]:
    """The Ring of a driver TokenMap, the driver Host of each ring node index, and what
    the next call takes as ``prev`` (the topology and its rows: a later token map is then
    read into the ring by changing only the nodes that changed)."""
    # each host's token count in the previous rows: where the runs of the new token map
    # probably are (the Host objects are alive, held by those rows, so ids are unique)
    hint = ({id(r[0]): _token_count(r[4]) for r in prev[1].values()} if prev is not None
            else None)
    rows = _node_rows(token_map, hint)
    topo = _topology_of(rows, prev)
    ring = topo.build()
    return ring, tuple(rows[n][0] for n in ring.node_names), (topo, rows)


def ring_from_metadata(metadata: Any, skip_unsupported: bool = False,
                       allow_unknown_dc: bool = True) -> ClusterRing:
    """The :class:`ClusterRing` of a driver ``Metadata`` (``cluster.metadata``): its token
    map's tokens and hosts and its keyspaces' replication strategies. Needs token metadata
    (the default ``Cluster(token_metadata_enabled=True)``)."""
    _check_partitioner(metadata)
    if metadata.token_map is None:
        raise EmptyError(lib.TOKENRING_E_EMPTY,
                         "the driver metadata has no token map (token_metadata_enabled=False, "
                         "or not connected yet)")
    ring, _, _ = _ring_of_token_map(metadata.token_map)
    repl: Dict[str, Replication] = {}
    for name, ks in list(metadata.keyspaces.items()):
        try:
            r = replication_of_keyspace_metadata(ks)
        except UnsupportedError:
            if skip_unsupported:
                continue
            raise
        if r is not None:
            repl[name] = r
    return ClusterRing(ring, repl, allow_unknown_dc)


def _check_partitioner(metadata: Any) -> None:
    p = metadata.partitioner
    if p is not None and _short_class(p) != "Murmur3Partitioner":
        raise UnsupportedError(lib.TOKENRING_E_UNSUPPORTED,
                               f"partitioner {p}: only Murmur3Partitioner is supported")


# ----------------------------------------------------------------------------- policy

#: Trailing empty entries of a keyspace's per-set list (more than the library's error codes,
#: -1 .. -11).
_SET_PAD = 16


class _Keyspace:
    """One keyspace of a routing state: the driver's KeyspaceMetadata it was built from, its
    placement (None: route through the child policy) and, per replica set, the LOCAL hosts in
    the server's order (filled on first use)."""
    __slots__ = ("meta", "replication", "placement", "ptr", "sets", "error")

    def __init__(self, meta: Any, replication: Optional[Replication], placement: Any,
                 error: Optional[str] = None) -> None:
        self.meta = meta
        self.replication = replication
        self.placement = placement
        self.ptr = placement._ptr if placement is not None else None
        # one None per replica set (filled on first use), then _SET_PAD empty tuples: a
        # negative set id (an error code) indexes one of those, never a set
        self.sets: List[Optional[Tuple[Any, ...]]] = (
            [None] * placement.set_count + [()] * _SET_PAD if placement is not None else [])
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
    """An immutable routing state: one token map's ring and the hosts of its node indices.
    Keyspaces are added to ``keyspaces`` under the policy's lock (a dict store is atomic).
    The token map is held weakly (``tm()`` gives it, or None once the driver dropped it):
    a state never keeps the driver's previous TokenMap alive (its 24,576 Token objects
    would then be freed in the policy's next refresh instead of in the driver's rebuild)."""
    __slots__ = ("tm", "ring", "hosts", "keyspaces", "local", "topo")

    def __init__(self, token_map: Any, ring: Optional[Ring], hosts: Tuple[Any, ...],
                 local: Tuple[bool, ...], topo: Any = None) -> None:
        self.tm = _weak(token_map)
        self.ring = ring
        self.hosts = hosts
        self.local = local       # distance LOCAL per node index (when the state was built)
        self.topo = topo         # (Topology, rows) the ring was built from (the next one's base)
        self.keyspaces: Dict[str, _Keyspace] = {}


_NO_RING = _State(None, None, (), ())
_key_set_id = lib.tokenring_placement_key_set_id


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
    """A token-aware load-balancing policy whose replicas come from libtokenring: a drop-in
    for ``TokenAwarePolicy(child_policy)``.

    For a statement with a routing key and a keyspace (the statement's, else the session's),
    the query plan starts with the key's replicas that the child policy calls
    ``HostDistance.LOCAL`` and that are up, in Cassandra's replica order (with a
    DC-aware child: the local datacenter's replicas, in the server's order), then the child's
    plan without the hosts already given. Without a routing key or keyspace, with a keyspace
    the policy cannot place (LocalStrategy, an unsupported class, a dropped keyspace) or
    before the token map is known, the plan is the child's. ``shuffle_replicas`` shuffles the
    replicas (as the driver's option does).

    The placements follow the driver's metadata: a new token map (node added, removed, moved)
    rebuilds the ring, a replaced KeyspaceMetadata (CREATE / ALTER / DROP KEYSPACE) that
    keyspace's placement, both on the first request that sees the change; host up/down
    events refresh the distances. A change that cannot be placed (a host without rack or
    datacenter, an unsupported replication class) keeps the previous ring, or routes that
    keyspace through the child, and is logged and kept in :attr:`last_error`. Thread-safe.
    """

    def __init__(self, child_policy: Any, shuffle_replicas: bool = False) -> None:
        self._child_policy = child_policy
        self._shuffle = bool(shuffle_replicas)
        self._metadata: Any = None
        self._state: _State = _NO_RING
        self._lock = threading.RLock()
        #: The hot path's entries: keyspace -> (the token map's weak reference, the
        #: KeyspaceMetadata, the placement pointer, the per-set host tuples, the
        #: _Keyspace, which keeps the placement alive), for the keyspaces routed on the
        #: current state; replaced (never changed in place) by every change of state,
        #: under the lock.
        self._fast: Dict[Optional[str], Tuple[Any, Any, Any, List[Any], Any]] = {}
        #: The message of the last change the policy could not apply (None: none).
        self.last_error: Optional[str] = None
        #: Number of ring and keyspace (re)builds (for tests and monitoring).
        self.ring_builds = 0
        self.keyspace_builds = 0

    # -- the LoadBalancingPolicy interface ----------------------------------------------
    def populate(self, cluster: Any, hosts: Any) -> None:
        with self._lock:
            self._metadata = cluster.metadata
            self._fast = {}
        self._child_policy.populate(cluster, hosts)

    def check_supported(self) -> None:
        md = self._metadata
        if md is not None and md.partitioner and _short_class(md.partitioner) != \
                "Murmur3Partitioner":
            raise RuntimeError(f"TokenRingPolicy supports only Murmur3Partitioner, not "
                               f"{md.partitioner}")

    def distance(self, *args: Any, **kwargs: Any) -> Any:
        return self._child_policy.distance(*args, **kwargs)

    def on_up(self, *args: Any, **kwargs: Any) -> Any:
        self._hosts_changed()
        return self._child_policy.on_up(*args, **kwargs)

    def on_down(self, *args: Any, **kwargs: Any) -> Any:
        self._hosts_changed()
        return self._child_policy.on_down(*args, **kwargs)

    def on_add(self, *args: Any, **kwargs: Any) -> Any:
        r = self._child_policy.on_add(*args, **kwargs)
        self._hosts_changed()
        return r

    def on_remove(self, *args: Any, **kwargs: Any) -> Any:
        r = self._child_policy.on_remove(*args, **kwargs)
        self._hosts_changed()
        return r

    @property
    def child_policy(self) -> Any:
        return self._child_policy

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
        # replica-set id) and one list index (the set's LOCAL hosts, once filled)
        if query is not None:
            key = query.routing_key
            if type(key) is bytes:
                keyspace = query.keyspace or working_keyspace
                f = self._fast.get(keyspace)
                if f is not None:
                    # (ks keeps the placement, so p, alive while this call runs)
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

    def _make_query_plan(self, working_keyspace: Optional[str], query: Any) -> Iterator[Any]:
        """make_query_plan's full path: every case, and the first plan of a keyspace on
        a new state (which makes the keyspace's entry of the hot path)."""
        if query is None:
            return iter(self._child_policy.make_query_plan(working_keyspace, query))
        keyspace = query.keyspace or working_keyspace
        key = query.routing_key
        if key is None or keyspace is None:
            return iter(self._child_policy.make_query_plan(keyspace, query))
        md = self._metadata
        if md is None:
            return iter(self._child_policy.make_query_plan(keyspace, query))
        st = self._state
        if st.tm() is not md.token_map:
            st = self._refresh()
        ks = st.keyspaces.get(keyspace)
        if ks is None or ks.meta is not md.keyspaces.get(keyspace):
            ks = self._refresh_keyspace(st, keyspace)
        p = ks.ptr
        if p is None:
            return iter(self._child_policy.make_query_plan(keyspace, query))
        if type(key) is not bytes:
            key = bytes(key)
        # one C call returning the set id (no output structure to keep per thread)
        sid = _key_set_id(p, key, len(key))
        if sid < 0:
            return iter(self._child_policy.make_query_plan(keyspace, query))
        replicas = ks.sets[sid]
        if replicas is None:
            replicas = self._fill(st, ks, sid)
        if keyspace not in self._fast and not self._shuffle:
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
        policy's (under the lock, as every change of state, which drops all the entries:
        an entry is never made from a state already replaced)."""
        with self._lock:
            if (self._state is st and st.keyspaces.get(keyspace) is ks and ks.ptr is not None
                    and not self._shuffle):
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
        md = self._metadata
        st = self._state
        if md is None:
            return ()
        if st.tm() is not md.token_map:
            st = self._refresh()
        ks = st.keyspaces.get(keyspace)
        if ks is None or ks.meta is not md.keyspaces.get(keyspace):
            ks = self._refresh_keyspace(st, keyspace)
        p = ks.ptr
        if p is None:
            return ()
        if type(key) is not bytes:
            key = bytes(key)
        sid = _key_set_id(p, key, len(key))
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

    def _distances(self, hosts: Sequence[Any]) -> Tuple[bool, ...]:
        return tuple(self._child_policy.distance(h) == HostDistance.LOCAL for h in hosts)

    def _hosts_changed(self) -> None:
        with self._lock:
            st = self._state
            if st.ring is None:
                return
            # same ring and placements, fresh distances and per-set host tuples
            new = _State(st.tm(), st.ring, st.hosts, self._distances(st.hosts), st.topo)
            for name, ks in st.keyspaces.items():
                new.keyspaces[name] = _Keyspace(ks.meta, ks.replication, ks.placement, ks.error)
            self._state = new
            self._fast = {}

    def _refresh(self) -> _State:
        """Rebuilds the ring from the driver's current token map (under the lock; a
        failure keeps the previous state)."""
        with self._lock:
            md = self._metadata
            st = self._state
            tm = md.token_map
            if st.tm() is tm:
                return st
            if tm is None:
                new = _State(None, None, (), ())
            else:
                try:
                    _check_partitioner(md)
                    ring, hosts, topo = _ring_of_token_map(tm, st.topo)
                except (TokenRingError, TypeError, ValueError) as e:
                    self._fail(f"the new token map was not applied (routing stays on the "
                               f"previous ring): {e}")
                    # remember the token map so that the next request does not retry it;
                    # the ring (and so the routing) stays the previous one
                    new = _State(tm, st.ring, st.hosts, st.local, st.topo)
                    new.keyspaces.update(st.keyspaces)
                    self._state = new
                    self._fast = {}
                    return new
                new = _State(tm, ring, hosts, self._distances(hosts), topo)
                self.ring_builds += 1
                # placements of the previous ring are rebuilt (by update: only the ranges a
                # change can affect) for the keyspaces already in use
                for name, ks in st.keyspaces.items():
                    if ks.placement is not None and st.ring is not None:
                        try:
                            pl = ks.placement.update(ring)
                        except TokenRingError:
                            continue        # rebuilt on first use (and reported then)
                        new.keyspaces[name] = _Keyspace(ks.meta, ks.replication, pl)
                        self.keyspace_builds += 1
            self._state = new
            self._fast = {}
            return new

    def _refresh_keyspace(self, st: _State, keyspace: str) -> _Keyspace:
        with self._lock:
            md = self._metadata
            meta = md.keyspaces.get(keyspace)
            cur = st.keyspaces.get(keyspace)
            if cur is not None and cur.meta is meta:
                return cur
            if meta is None or st.ring is None:      # dropped, unknown, or no ring yet
                ks = _Keyspace(meta, None, None)
            else:
                try:
                    repl = replication_of_keyspace_metadata(meta)
                    if repl is None:
                        ks = _Keyspace(meta, None, None)
                    elif cur is not None and cur.placement is not None and \
                            cur.replication == repl:
                        ks = _Keyspace(meta, repl, cur.placement)
                    else:
                        ks = _Keyspace(meta, repl, st.ring.placement(repl, True))
                        self.keyspace_builds += 1
                except TokenRingError as e:
                    self._fail(f"keyspace {keyspace!r} routes through the child policy: {e}")
                    ks = _Keyspace(meta, None, None, str(e))
            st.keyspaces[keyspace] = ks
            if keyspace in self._fast:          # the other keyspaces' entries stay
                fast = dict(self._fast)
                del fast[keyspace]
                self._fast = fast
            return ks

    # -- introspection (tests, monitoring) ---------------------------------------------
    def cluster_ring(self) -> ClusterRing:
        """A :class:`ClusterRing` of the policy's current ring and placed keyspaces."""
        st = self._state
        if st.ring is None:
            raise EmptyError(lib.TOKENRING_E_EMPTY, "the policy has no ring yet")
        return ClusterRing(st.ring, {k: v.replication for k, v in st.keyspaces.items()
                                     if v.replication is not None}, True)

    def replicas(self, keyspace: str, key: bytes) -> Tuple[Any, ...]:
        """Every replica (driver Host) of ``key`` in ``keyspace`` in the server's order,
        whatever the distance (() when the policy cannot place it)."""
        md = self._metadata
        st = self._state
        if md is None:
            return ()
        if st.tm() is not md.token_map:
            st = self._refresh()
        ks = st.keyspaces.get(keyspace)
        if ks is None or ks.meta is not md.keyspaces.get(keyspace):
            ks = self._refresh_keyspace(st, keyspace)
        if ks.placement is None:
            return ()
        names = ks.placement.replicas(bytes(key))
        by_name = {n: h for n, h in zip(st.ring.node_names, st.hosts)}
        return tuple(by_name[n] for n in names)
