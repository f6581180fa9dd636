# SPDX-License-Identifier: Apache-2.0
"""Routers (router.h): the routing state of a driver or a proxy as one immutable snapshot
(nodes with a caller's tag and liveness, every keyspace's placement, local-datacenter
views), built from the rows a driver reads, changed by cluster events, and published to
reader threads through a holder.

>>> b = RouterBuilder(local_dc="dc1")
>>> b.add_local("10.0.0.1", "dc1", "r1", ["-100", "100"],
...             partitioner="org.apache.cassandra.dht.Murmur3Partitioner")
>>> b.add_peer("10.0.0.2", "dc2", "r1", ["0"])
>>> b.add_keyspace("ks", {"class": "NetworkTopologyStrategy", "dc1": "1", "dc2": "1"})
>>> b.set_node("10.0.0.2", tag=7)
>>> r = b.build()
>>> [r.nodes[i].name for i in r.route_token("ks", 50).local]
['10.0.0.1', '10.0.0.2']
>>> r.local_tags("ks", b"key")
(0, 7)
"""
from typing import Any, List, Mapping, NamedTuple, Optional, Sequence, Tuple, Union

from ._errors import check, new_error
from ._ffi import ffi, lib
from ._handle import Handle, require
from ._ints import U64, c_int
from ._node import NodeState

__all__ = ["Router", "RouterBuilder", "RouterHolder", "RouterReader", "RouterNode", "Route"]


#: Bounds of a Murmur3 token (int64_t) and of an event kind.
I64 = (-2 ** 63, 2 ** 63 - 1)
EVENT_KINDS = (lib.TOKENRING_ROUTER_EVENT_UP, lib.TOKENRING_ROUTER_EVENT_PLACEMENT)


def _s(value: Optional[str]) -> Any:
    return ffi.NULL if value is None else value.encode("utf-8")


def _str_array(values: Sequence[str]) -> Tuple[Any, List[Any]]:
    """A ``const char **`` of ``values`` and the buffers that keep it alive."""
    keep = [ffi.new("char[]", v.encode("utf-8")) for v in values]
    arr = ffi.new("const char *[]", keep) if keep else ffi.NULL
    return arr, keep


def _tokens(tokens: Sequence[Union[str, int]]) -> Tuple[Any, List[Any]]:
    return _str_array([str(t) for t in tokens])


class RouterNode(NamedTuple):
    """One node of a :class:`Router`."""

    name: str
    datacenter: str
    rack: str
    host_id: Optional[str]
    tag: int
    up: bool
    state: NodeState
    token_count: int
    local: bool


class Route(NamedTuple):
    """The replicas of a key: node indices of the router (see :attr:`Router.nodes`)."""

    replicas: Tuple[int, ...]  #: server order, primary first
    local: Tuple[int, ...]     #: local datacenter first (up first when asked)
    local_count: int           #: how many of ``local`` are in the local datacenter
    local_up_count: int        #: how many of those are up
    set_id: int
    token: int                 #: Murmur3 routers; 0 otherwise


def _route(r: Any) -> Route:
    n = r.count
    return Route(tuple(r.replicas[i] for i in range(n)), tuple(r.local[i] for i in range(n)),
                 r.local_count, r.local_up_count, r.set_id, r.token)


class Router(Handle):
    """An immutable routing snapshot; thread-safe to query. Made by
    :meth:`RouterBuilder.build` or :meth:`apply` (and the event methods)."""

    _kind = "router"

    @classmethod
    def _adopt(cls, ptr: Any, owned: bool = True, keep: Any = None) -> "Router":
        r = cls.__new__(cls)
        r._ptr = ffi.gc(ptr, lib.tokenring_router_free) if owned else ptr
        r._keep = keep
        r._nodes = None
        return r

    @property
    def nodes(self) -> Tuple[RouterNode, ...]:
        """The nodes, by index (indices shift when a node leaves; tags do not)."""
        if self._nodes is None:
            p = self._p()
            info = ffi.new("tokenring_router_node_info *")
            out = []
            for i in range(lib.tokenring_router_node_count(p)):
                check(lib.tokenring_router_node(info, p, i))
                out.append(RouterNode(
                    ffi.string(info.name).decode(), ffi.string(info.datacenter).decode(),
                    ffi.string(info.rack).decode(),
                    ffi.string(info.host_id).decode() if info.host_id != ffi.NULL else None,
                    info.tag, not (info.flags & lib.TOKENRING_ROUTER_NODE_DOWN),
                    NodeState(info.state), info.token_count, bool(info.local)))
            self._nodes = tuple(out)
        return self._nodes

    def find_node(self, name: str) -> int:
        """The index of a node (NotFoundError if none)."""
        out = ffi.new("uint32_t *")
        check(lib.tokenring_router_find_node(out, self._p(), name.encode("utf-8")))
        return int(out[0])

    @property
    def keyspaces(self) -> Tuple[str, ...]:
        """The keyspaces routed, sorted by name."""
        p = self._p()
        name = ffi.new("const char **")
        out = []
        for i in range(lib.tokenring_router_keyspace_count(p)):
            check(lib.tokenring_router_keyspace(name, ffi.NULL, p, i))
            out.append(ffi.string(name[0]).decode())
        return tuple(out)

    @property
    def skipped(self) -> Tuple[Tuple[str, str], ...]:
        """Keyspaces not routed because their class places nothing on the ring (name,
        class)."""
        p = self._p()
        name, cls = ffi.new("const char **"), ffi.new("const char **")
        out = []
        for i in range(lib.tokenring_router_skipped_count(p)):
            check(lib.tokenring_router_skipped(name, cls, p, i))
            out.append((ffi.string(name[0]).decode(), ffi.string(cls[0]).decode()))
        return tuple(out)

    def same_placement(self, keyspace_a: str, keyspace_b: str) -> bool:
        """True when the two keyspaces share one placement (the same replication)."""
        p = self._p()
        names = self.keyspaces
        pl = ffi.new("const tokenring_placement **")
        got = []
        for ks in (keyspace_a, keyspace_b):
            check(lib.tokenring_router_keyspace(ffi.NULL, pl, p, names.index(ks)))
            got.append(pl[0])
        return bool(got[0] == got[1])

    def route(self, keyspace: str, key: bytes, up_first: bool = False) -> Route:
        """The replicas of a serialized partition key."""
        out = ffi.new("tokenring_route *")
        key = bytes(key)
        check(lib.tokenring_router_route(out, self._p(), keyspace.encode("utf-8"), key,
                                         len(key), lib.TOKENRING_ROUTE_UP_FIRST if up_first
                                         else 0))
        return _route(out)

    def route_parts(self, keyspace: str, parts: Sequence[bytes], up_first: bool = False) -> Route:
        """The replicas of a composite key given as its parts (the column values)."""
        keep = [bytes(x) for x in parts]
        arr = ffi.new("const void *[]", [ffi.from_buffer(x) if x else ffi.NULL for x in keep])
        lens = ffi.new("size_t[]", [len(x) for x in keep])
        out = ffi.new("tokenring_route *")
        check(lib.tokenring_router_route_parts(out, self._p(), keyspace.encode("utf-8"), arr,
                                               lens, len(keep),
                                               lib.TOKENRING_ROUTE_UP_FIRST if up_first else 0))
        return _route(out)

    def route_token(self, keyspace: str, token: int, up_first: bool = False) -> Route:
        """The replicas of a Murmur3 token."""
        token = c_int(token, "token", I64)
        out = ffi.new("tokenring_route *")
        check(lib.tokenring_router_route_token(out, self._p(), keyspace.encode("utf-8"), token,
                                               lib.TOKENRING_ROUTE_UP_FIRST if up_first else 0))
        return _route(out)

    def local_tags(self, keyspace: str, key: bytes, up_first: bool = True) -> Tuple[int, ...]:
        """The tags of a key's replicas, local datacenter first, up before down (what a
        load-balancing policy iterates)."""
        out = ffi.new("tokenring_route *")
        key = bytes(key)
        check(lib.tokenring_router_route(out, self._p(), keyspace.encode("utf-8"), key,
                                         len(key), lib.TOKENRING_ROUTE_UP_FIRST if up_first
                                         else 0))
        return tuple(out.tags[out.local[i]] for i in range(out.count))

    # ------------------------------------------------------------------ events

    def apply(self, kind: int, **fields: Any) -> "Router":
        """The next snapshot after one event (``kind`` a
        ``lib.TOKENRING_ROUTER_EVENT_*`` value); prefer the named methods below."""
        kind = c_int(kind, "kind", EVENT_KINDS)
        tag = c_int(fields.get("tag", 0), "tag", U64)
        ev = ffi.new("tokenring_router_event *")
        ev.kind = kind
        keep: List[Any] = []
        for name in ("node", "old_node", "datacenter", "rack", "host_id", "keyspace"):
            v = fields.get(name)
            if v is not None:
                b = ffi.new("char[]", v.encode("utf-8"))
                keep.append(b)
                setattr(ev, name, b)
        if fields.get("tokens") is not None:
            arr, k = _tokens(fields["tokens"])
            keep += [arr, k]
            ev.tokens = arr
            ev.token_count = len(fields["tokens"])
        if fields.get("replication") is not None:
            items = list(fields["replication"].items())
            ka, kk = _str_array([str(k) for k, _ in items])
            va, vk = _str_array([str(v) for _, v in items])
            keep += [ka, kk, va, vk]
            ev.keys, ev.values, ev.count = ka, va, len(items)
        if fields.get("placement") is not None:
            ev.placement = require(fields["placement"], "placement", "set_placement()")
            keep.append(fields["placement"])
        ev.tag = tag
        ev.flags = lib.TOKENRING_ROUTER_NODE_DOWN if fields.get("down") else 0
        pp = ffi.new("tokenring_router **")
        err = new_error()
        check(lib.tokenring_router_apply(pp, self._p(), ev, err), err)
        return Router._adopt(pp[0])

    def with_history(self, history: Any) -> "Router":
        """A new snapshot whose every keyspace routes through ``history``'s placement of
        its replication (Cassandra 6.0's order, ``"history"``), with this one's nodes,
        tags and liveness (``tokenring_router_with_history``). InvalidArgumentError when
        the history's ring is not this router's (e.g. a metadata log older than the peers
        rows); this snapshot is unchanged."""
        h = require(history, "history", "Router.with_history()")
        pp = ffi.new("tokenring_router **")
        err = new_error()
        check(lib.tokenring_router_with_history(pp, self._p(), h, err), err)
        return Router._adopt(pp[0])

    def up(self, node: str) -> "Router":
        """``node`` is up."""
        return self.apply(lib.TOKENRING_ROUTER_EVENT_UP, node=node)

    def down(self, node: str) -> "Router":
        """``node`` is down."""
        return self.apply(lib.TOKENRING_ROUTER_EVENT_DOWN, node=node)

    def joined(self, node: str, datacenter: str, rack: Optional[str],
               tokens: Sequence[Union[str, int]], host_id: Optional[str] = None,
               tag: int = 0, down: bool = False) -> "Router":
        """``node`` joined the ring with ``tokens`` (as text or ints)."""
        return self.apply(lib.TOKENRING_ROUTER_EVENT_JOINED, node=node, datacenter=datacenter,
                          rack=rack, tokens=tokens, host_id=host_id, tag=tag, down=down)

    def left(self, node: str) -> "Router":
        """``node`` left the ring."""
        return self.apply(lib.TOKENRING_ROUTER_EVENT_LEFT, node=node)

    def moved(self, node: str, tokens: Sequence[Union[str, int]]) -> "Router":
        """``node`` now has ``tokens``."""
        return self.apply(lib.TOKENRING_ROUTER_EVENT_MOVED, node=node, tokens=tokens)

    def replaced(self, old_node: str, node: str, host_id: Optional[str] = None, tag: int = 0,
                 down: bool = False) -> "Router":
        """``node`` replaced ``old_node`` (its datacenter, rack and tokens)."""
        return self.apply(lib.TOKENRING_ROUTER_EVENT_REPLACED, node=node, old_node=old_node,
                          host_id=host_id, tag=tag, down=down)

    def keyspace_created(self, keyspace: str, replication: Mapping[str, str]) -> "Router":
        """A keyspace was created with a replication map ({"class": ..., ...})."""
        return self.apply(lib.TOKENRING_ROUTER_EVENT_CREATED, keyspace=keyspace,
                          replication=replication)

    def keyspace_altered(self, keyspace: str, replication: Mapping[str, str]) -> "Router":
        """A keyspace's replication changed."""
        return self.apply(lib.TOKENRING_ROUTER_EVENT_ALTERED, keyspace=keyspace,
                          replication=replication)

    def keyspace_dropped(self, keyspace: str) -> "Router":
        """A keyspace was dropped."""
        return self.apply(lib.TOKENRING_ROUTER_EVENT_DROPPED, keyspace=keyspace)

    def set_placement(self, keyspace: str, placement: Any) -> "Router":
        """Routes ``keyspace`` through a :class:`Placement` built elsewhere, on a ring
        with this router's nodes and tokens."""
        return self.apply(lib.TOKENRING_ROUTER_EVENT_PLACEMENT, keyspace=keyspace,
                          placement=placement)


class RouterBuilder(Handle):
    """Collects the rows a driver reads (system.local, system.peers_v2,
    system_schema.keyspaces) under the rules of the library's cqlsh reader."""

    _kind = "router_builder"

    def __init__(self, local_dc: Optional[str] = None) -> None:
        pp = ffi.new("tokenring_router_builder **")
        err = new_error()
        check(lib.tokenring_router_builder_new(pp, _s(local_dc), err), err)
        self._ptr = ffi.gc(pp[0], lib.tokenring_router_builder_free)

    def add_local(self, address: str, datacenter: Optional[str], rack: Optional[str],
                  tokens: Sequence[Union[str, int]], host_id: Optional[str] = None,
                  partitioner: Optional[str] = None) -> None:
        """The row of system.local (None is CQL null). Add it first."""
        arr, keep = _tokens(tokens)
        err = new_error()
        check(lib.tokenring_router_builder_add_local(
            self._p(), address.encode("utf-8"), _s(datacenter), _s(rack), _s(host_id),
            _s(partitioner), arr, len(keep), err), err)

    def add_peer(self, address: str, datacenter: Optional[str], rack: Optional[str],
                 tokens: Sequence[Union[str, int]], host_id: Optional[str] = None) -> None:
        """A row of system.peers_v2 or system.peers (None is CQL null)."""
        arr, keep = _tokens(tokens)
        err = new_error()
        check(lib.tokenring_router_builder_add_peer(
            self._p(), address.encode("utf-8"), _s(datacenter), _s(rack), _s(host_id), arr,
            len(keep), err), err)

    def add_keyspace(self, name: str, replication: Mapping[str, str]) -> None:
        """A row of system_schema.keyspaces: its name and replication map."""
        items = list(replication.items())
        ka, kk = _str_array([str(k) for k, _ in items])
        va, vk = _str_array([str(v) for _, v in items])
        err = new_error()
        check(lib.tokenring_router_builder_add_keyspace(self._p(), name.encode("utf-8"), ka,
                                                        va, len(items), err), err)

    def add_cluster(self, cluster: Any) -> None:
        """Every node and keyspace of a parsed :class:`Cluster`."""
        err = new_error()
        check(lib.tokenring_router_builder_add_cluster(
            self._p(), require(cluster, "cluster", "add_cluster()"), err), err)

    def set_node(self, name: str, tag: int = 0, down: bool = False) -> None:
        """A node's tag (kept across snapshots) and liveness."""
        tag = c_int(tag, "tag", U64)
        err = new_error()
        check(lib.tokenring_router_builder_set_node(
            self._p(), name.encode("utf-8"), tag,
            lib.TOKENRING_ROUTER_NODE_DOWN if down else 0, err), err)

    def build(self) -> Router:
        """The snapshot of what was added (the builder stays usable)."""
        pp = ffi.new("tokenring_router **")
        err = new_error()
        check(lib.tokenring_router_build(pp, self._p(), err), err)
        return Router._adopt(pp[0])


class RouterReader(Handle):
    """One thread's registration with a :class:`RouterHolder`: ``with reader as router``
    takes the current snapshot (valid inside the block) without a lock."""

    _kind = "router_reader"

    def __init__(self, holder: "RouterHolder") -> None:
        pp = ffi.new("tokenring_router_reader **")
        check(lib.tokenring_router_reader_new(pp, holder._p()))
        self._holder = holder  # freed after this reader
        self._ptr = ffi.gc(pp[0], lib.tokenring_router_reader_free)
        self._view: Optional[Router] = None

    def acquire(self) -> Router:
        """The current snapshot, valid until :meth:`release` (a borrowed view)."""
        self._view = Router._adopt(lib.tokenring_router_acquire(self._p()), owned=False,
                                   keep=self)
        return self._view

    def release(self) -> None:
        """Gives the snapshot back; the view from :meth:`acquire` is closed."""
        if self._view is not None:
            self._view.close()
            self._view = None
        lib.tokenring_router_release(self._p())

    def __enter__(self) -> Router:  # type: ignore[override]
        return self.acquire()

    def __exit__(self, *exc: Any) -> None:
        self.release()


class RouterHolder(Handle):
    """Publishes the current :class:`Router` to readers; :meth:`swap` replaces it."""

    _kind = "router_holder"

    def __init__(self, router: Router) -> None:
        pp = ffi.new("tokenring_router_holder **")
        check(lib.tokenring_router_holder_new(pp, require(router, "router", "RouterHolder()")))
        self._ptr = ffi.gc(pp[0], lib.tokenring_router_holder_free)

    def swap(self, router: Router) -> None:
        """Publishes ``router``; the previous one is freed when its last reader is done."""
        check(lib.tokenring_router_holder_swap(self._p(), require(router, "router", "swap()")))

    def current(self) -> Router:
        """A reference to the current snapshot (to apply an event to it)."""
        return Router._adopt(lib.tokenring_router_holder_current(self._p()))

    def reader(self) -> RouterReader:
        """A new reader (one per thread)."""
        return RouterReader(self)
