# SPDX-License-Identifier: Apache-2.0
"""Topologies, rings, replication descriptions, placements and ownership.

Lifetimes: every object owns its C handle through ``ffi.gc``; ``close()`` (or leaving a
``with`` block) drops it, and any later use raises :class:`ClosedError`. A call already
running in another thread keeps the handle alive until it returns, so closing never frees
memory under a reader. A :class:`Ring` copies what it needs from its :class:`Topology`
and keeps working after the topology is closed or dropped; a :class:`Placement` holds a
reference to its ring's C handle (the library's reference count) and to its Python ring.
"""
import enum
import operator
import threading
from typing import (Any, Dict, Iterable, Iterator, List, Mapping, NamedTuple, Optional,
                    Sequence, Tuple, Union, cast)

from ._errors import ClosedError, InvalidArgumentError, check, new_error
from ._ffi import ffi, lib
from ._hash import HAVE_NUMPY, Key, as_key_bytes, check_packed, pack_keys, _offsets_ptr, _u8

if HAVE_NUMPY:
    import numpy as _np

__all__ = [
    "NodeState", "Liveness", "Node", "Range", "Ownership", "DescribedRange", "Topology",
    "Ring", "Replication", "Placement", "ReplicationLike", "KeyOrToken",
]

#: A token (an int) or a partition key (bytes, or str hashed as UTF-8).
KeyOrToken = Union[int, Key]
#: What methods accept as a replication: a :class:`Replication`, an int (SimpleStrategy
#: factor), a ``{dc: rf or "rf/transient"}`` mapping (NetworkTopologyStrategy), or text
#: for :meth:`Replication.parse`.
ReplicationLike = Union["Replication", int, Mapping[str, Union[int, str]], str]


class NodeState(enum.IntEnum):
    """A node's ring state (tokenring_node_state)."""

    NORMAL = lib.TOKENRING_STATE_NORMAL
    JOINING = lib.TOKENRING_STATE_JOINING
    LEAVING = lib.TOKENRING_STATE_LEAVING
    MOVING = lib.TOKENRING_STATE_MOVING


class Liveness(enum.IntEnum):
    """Whether a node is reachable (tokenring_liveness)."""

    UP = lib.TOKENRING_UP
    DOWN = lib.TOKENRING_DOWN
    UNKNOWN = lib.TOKENRING_UNKNOWN


class Node(NamedTuple):
    """One node of a topology or ring."""

    name: str
    datacenter: str
    rack: str
    tokens: Tuple[int, ...]
    state: NodeState
    liveness: Liveness


class Range(NamedTuple):
    """A range of the ring: (start, end] with its exact width (2**64 for a lone token)."""

    start: int
    end: int
    width: int
    index: int  # type: ignore[assignment]  # the range index, as in tokenring_range
    owner: str


class Ownership(NamedTuple):
    """One node's ownership. The exact widths decide; the floats are for display."""

    primary_width: int
    effective_width: int
    primary: float
    effective: float
    nodetool_primary: float
    nodetool_effective: float
    token_count: int


class DescribedRange(NamedTuple):
    """One line of ``nodetool describering``: a range and its replicas in Cassandra's
    order, with the transient ones listed apart as well."""

    start: int
    end: int
    endpoints: Tuple[str, ...]
    transient: Tuple[str, ...]


def _name(value: Union[str, bytes], what: str = "name") -> bytes:
    b = value.encode("utf-8") if isinstance(value, str) else bytes(value)
    if b"\0" in b:
        raise InvalidArgumentError(lib.TOKENRING_E_INVAL, f"{what} {value!r} contains a NUL byte")
    return b


def _str(p: Any) -> str:
    return ffi.string(p).decode("utf-8", "replace") if p != ffi.NULL else ""


def _u128(v: Any) -> int:
    return (int(v.hi) << 64) | int(v.lo)


def _token_array(tokens: Iterable[int]) -> Tuple[Any, int]:
    if HAVE_NUMPY and isinstance(tokens, _np.ndarray):
        if tokens.dtype.kind not in "iu" or (
                tokens.dtype.kind == "u" and tokens.size and int(tokens.max()) >= 2 ** 63):
            raise TypeError(f"tokens must be signed 64-bit integers, not {tokens.dtype}")
        arr = _np.ascontiguousarray(tokens, dtype=_np.int64)
        return ffi.from_buffer("int64_t[]", arr), len(arr)
    lst = [operator.index(t) for t in tokens]
    return ffi.new("int64_t[]", lst), len(lst)


def _node_from_info(info: Any) -> Node:
    return Node(_str(info.name), _str(info.datacenter), _str(info.rack),
                tuple(ffi.unpack(info.tokens, info.token_count)) if info.token_count else (),
                NodeState(info.state), Liveness(info.liveness))


class _Handle:
    """Owns one C handle (``ffi.gc``) and gives context-manager and close semantics."""

    _ptr: Any = None
    _kind = "object"

    def _p(self) -> Any:
        p = self._ptr
        if p is None:
            raise ClosedError(f"this {self._kind} is closed")
        return p

    @property
    def closed(self) -> bool:
        """True after :meth:`close`."""
        return self._ptr is None

    def close(self) -> None:
        """Releases the C object now (it is freed once no running call uses it). Later
        calls raise :class:`ClosedError`; closing twice is harmless."""
        self._ptr = None

    def __enter__(self) -> Any:
        self._p()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


# ---------------------------------------------------------------------- topology

class Topology(_Handle):
    """A mutable set of nodes (name, datacenter, rack, tokens, state). Use it from one
    thread at a time; build immutable :class:`Ring` snapshots from it.

    >>> topo = Topology()
    >>> topo.add_node("A", "dc1", "r1", [10, 50])
    """

    _kind = "topology"

    def __init__(self, nodes: Iterable[Tuple[str, str, str, Iterable[int]]] = ()) -> None:
        """Creates a topology, optionally with ``(name, datacenter, rack, tokens)`` nodes."""
        pp = ffi.new("tokenring_topology **")
        check(lib.tokenring_topology_new(pp))
        self._ptr = ffi.gc(pp[0], lib.tokenring_topology_free)
        for name, dc, rack, toks in nodes:
            self.add_node(name, dc, rack, toks)

    @classmethod
    def _adopt(cls, ptr: Any) -> "Topology":
        self = cls.__new__(cls)
        self._ptr = ffi.gc(ptr, lib.tokenring_topology_free)
        return self

    def add_node(self, name: Union[str, bytes], datacenter: Union[str, bytes],
                 rack: Union[str, bytes], tokens: Iterable[int]) -> None:
        """Adds a node in state NORMAL, UP. Tokens may come in any order.

        Raises:
            ExistsError: the name exists, a token repeats or is held by another node.
            EmptyError: no tokens. InvalidArgumentError / RangeError: a bad name.
        On failure the topology is unchanged.
        """
        arr, n = _token_array(tokens)
        err = new_error()
        check(lib.tokenring_topology_add_node(self._p(), _name(name), _name(datacenter, "datacenter"),
                                              _name(rack, "rack"), arr, n, err), err)

    def remove_node(self, name: Union[str, bytes]) -> None:
        """Removes a node (a completed decommission). NotFoundError if unknown."""
        err = new_error()
        check(lib.tokenring_topology_remove_node(self._p(), _name(name), err), err)

    def replace_node(self, old_name: Union[str, bytes], new_name: Union[str, bytes]) -> None:
        """Replaces a node by a new one that takes its datacenter, rack, tokens and index."""
        err = new_error()
        check(lib.tokenring_topology_replace_node(self._p(), _name(old_name), _name(new_name),
                                                  err), err)

    def set_tokens(self, name: Union[str, bytes], tokens: Iterable[int]) -> None:
        """Gives a node a new set of tokens (a completed move)."""
        arr, n = _token_array(tokens)
        err = new_error()
        check(lib.tokenring_topology_set_tokens(self._p(), _name(name), arr, n, err), err)

    def set_state(self, name: Union[str, bytes], state: Union[NodeState, int] = NodeState.NORMAL,
                  liveness: Union[Liveness, int] = Liveness.UP) -> None:
        """Sets a node's ring state and liveness. Only NORMAL, LEAVING and MOVING nodes'
        tokens form a ring (a JOINING node's tokens are pending ranges)."""
        err = new_error()
        check(lib.tokenring_topology_set_state(self._p(), _name(name), int(state),
                                               int(liveness), err), err)

    def __len__(self) -> int:
        return lib.tokenring_topology_node_count(self._p())

    def index(self, name: Union[str, bytes]) -> int:
        """Index of a node (insertion order). NotFoundError if unknown."""
        out = ffi.new("size_t *")
        check(lib.tokenring_topology_find_node(out, self._p(), _name(name)))
        return out[0]

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, (str, bytes)):
            return False
        out = ffi.new("size_t *")
        return lib.tokenring_topology_find_node(out, self._p(), _name(name)) == 0

    def node(self, index: int) -> Node:
        """Node ``index`` (0-based insertion order; negative indices count from the end)."""
        p = self._p()
        if index < 0:
            index += lib.tokenring_topology_node_count(p)
        if index < 0:
            raise IndexError("node index out of range")
        info = ffi.new("tokenring_node_info *")
        check(lib.tokenring_topology_node(info, p, index))
        return _node_from_info(info)

    @property
    def nodes(self) -> List[Node]:
        """Every node, in insertion order."""
        p = self._p()
        info = ffi.new("tokenring_node_info *")
        out = []
        for i in range(lib.tokenring_topology_node_count(p)):
            check(lib.tokenring_topology_node(info, p, i))
            out.append(_node_from_info(info))
        return out

    def __iter__(self) -> Iterator[Node]:
        return iter(self.nodes)

    def clone(self) -> "Topology":
        """A deep copy."""
        pp = ffi.new("tokenring_topology **")
        check(lib.tokenring_topology_clone(pp, self._p()))
        return Topology._adopt(pp[0])

    def build(self) -> "Ring":
        """An immutable :class:`Ring` snapshot of the current nodes."""
        return Ring(self)

    def add_seeded_nodes(self, seed: int, tokens_per_node: int, names: Sequence[str],
                         datacenters: Optional[Sequence[str]] = None,
                         racks: Optional[Sequence[str]] = None, strict: bool = False) -> None:
        """Adds nodes with seeded tokens: see :func:`tokenring.add_seeded_nodes`."""
        from ._layout import add_seeded_nodes
        add_seeded_nodes(self, seed, tokens_per_node, names, datacenters, racks, strict)

    def __repr__(self) -> str:
        return f"<tokenring.Topology closed>" if self.closed else \
            f"<tokenring.Topology {len(self)} nodes>"


# ------------------------------------------------------------------- replication

class Replication(_Handle):
    """A replication description: SimpleStrategy or NetworkTopologyStrategy, with
    transient replicas. Immutable; equal descriptions compare and hash equal.

    >>> str(Replication.network({"dc1": 3, "dc2": "2/1"}))
    "{'class': 'NetworkTopologyStrategy', 'dc1': '3', 'dc2': '2/1'}"
    """

    _kind = "replication"

    def __init__(self, ptr: Any) -> None:
        """Internal: use :meth:`simple`, :meth:`network` or :meth:`parse`."""
        self._ptr = ffi.gc(ptr, lib.tokenring_replication_free)
        self._text = self._format()

    @classmethod
    def simple(cls, rf: int, transient: int = 0) -> "Replication":
        """SimpleStrategy with ``rf`` replicas, ``transient`` of them transient."""
        pp = ffi.new("tokenring_replication **")
        err = new_error()
        check(lib.tokenring_replication_simple(pp, rf, transient, err), err)
        return cls(pp[0])

    @classmethod
    def network(cls, factors: Mapping[str, Union[int, str, Tuple[int, int]]]) -> "Replication":
        """NetworkTopologyStrategy from ``{datacenter: rf}``; a factor may be an int, a
        ``"rf/transient"`` string as in CQL, or an ``(rf, transient)`` pair."""
        pp = ffi.new("tokenring_replication **")
        check(lib.tokenring_replication_network(pp))
        self = cls.__new__(cls)
        self._ptr = ffi.gc(pp[0], lib.tokenring_replication_free)
        err = new_error()
        for dc, f in factors.items():
            rf, tr = _factor(f)
            check(lib.tokenring_replication_set_dc(self._ptr, _name(dc, "datacenter"), rf, tr,
                                                   err), err)
        self._text = self._format()
        return self

    @classmethod
    def parse(cls, text: str) -> "Replication":
        """Parses a CQL replication map (``{'class': 'SimpleStrategy',
        'replication_factor': '3'}``), ``SimpleStrategy:3``,
        ``NetworkTopologyStrategy:dc1=3,dc2=2/1``, a bare ``3`` or ``dc1=3,dc2=2/1``."""
        raw = text.encode("utf-8")
        pp = ffi.new("tokenring_replication **")
        err = new_error()
        check(lib.tokenring_replication_parse(pp, raw, len(raw), err), err)
        return cls(pp[0])

    @classmethod
    def of(cls, value: ReplicationLike) -> "Replication":
        """Coerces a :data:`ReplicationLike` into a :class:`Replication`."""
        if isinstance(value, Replication):
            return value
        if isinstance(value, bool):
            raise TypeError("a replication factor must be an int, not bool")
        if isinstance(value, int):
            return cls.simple(value)
        if isinstance(value, str):
            return cls.parse(value)
        if isinstance(value, Mapping):
            return cls.network(value)
        raise TypeError(f"cannot make a replication from {type(value).__name__}")

    def _format(self) -> str:
        return replication_text(self._p())

    @property
    def strategy(self) -> str:
        """``"SimpleStrategy"`` or ``"NetworkTopologyStrategy"``."""
        s = lib.tokenring_replication_strategy(self._p())
        return "SimpleStrategy" if s == lib.TOKENRING_SIMPLE else "NetworkTopologyStrategy"

    @property
    def factors(self) -> Dict[Optional[str], Tuple[int, int]]:
        """``{datacenter: (rf, transient)}`` (sorted by name); SimpleStrategy gives
        ``{None: (rf, transient)}``."""
        p = self._p()
        dc = ffi.new("const char **")
        rf = ffi.new("int32_t *")
        tr = ffi.new("int32_t *")
        if lib.tokenring_replication_strategy(p) == lib.TOKENRING_SIMPLE:
            check(lib.tokenring_replication_get(dc, rf, tr, p, 0))
            return {None: (rf[0], tr[0])}
        out: Dict[Optional[str], Tuple[int, int]] = {}
        for i in range(lib.tokenring_replication_dc_count(p)):
            check(lib.tokenring_replication_get(dc, rf, tr, p, i))
            out[_str(dc[0])] = (rf[0], tr[0])
        return out

    def __str__(self) -> str:
        self._p()
        return self._text

    def __repr__(self) -> str:
        return f"Replication.parse({self._text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Replication) and self._text == other._text

    def __hash__(self) -> int:
        return hash(self._text)


def replication_text(p: Any) -> str:
    """The CQL map text of a (possibly borrowed) ``tokenring_replication *``."""
    n = ffi.new("size_t *")
    buf = ffi.new("char[]", 256)
    rc = lib.tokenring_replication_format(buf, 256, n, p)
    if rc == lib.TOKENRING_E_BUFSIZE:
        buf = ffi.new("char[]", n[0] + 1)
        rc = lib.tokenring_replication_format(buf, n[0] + 1, n, p)
    check(rc)
    return ffi.string(buf, n[0]).decode("utf-8")


def _factor(f: Union[int, str, Tuple[int, int]]) -> Tuple[int, int]:
    if isinstance(f, bool):
        raise TypeError("a replication factor must be an int, not bool")
    if isinstance(f, int):
        return f, 0
    if isinstance(f, tuple):
        return int(f[0]), int(f[1])
    full, _, tr = str(f).strip().partition("/")
    try:
        return int(full), int(tr) if tr else 0
    except ValueError:
        raise InvalidArgumentError(lib.TOKENRING_E_INVAL,
                                   f"bad replication factor {f!r}: expected N or N/T") from None


# -------------------------------------------------------------------------- ring

def _token_of(key_or_token: KeyOrToken) -> int:
    if type(key_or_token) is int:
        return key_or_token
    if isinstance(key_or_token, (str, bytes, bytearray, memoryview)):
        b = as_key_bytes(key_or_token)
        return lib.tokenring_token(b, len(b))
    if isinstance(key_or_token, bool):
        raise TypeError("a token must be an int, not bool")
    try:
        return operator.index(key_or_token)  # numpy integers and other int-likes
    except TypeError:
        raise TypeError("expected a token (int) or a partition key (bytes or str), not "
                        f"{type(key_or_token).__name__}") from None


class Ring(_Handle):
    """An immutable snapshot of a topology's token ring. Any number of threads may query
    it at once. It stays valid after its topology is closed or changed.

    >>> ring = Ring(Topology([("A", "dc1", "r1", [10, 50]), ("B", "dc1", "r1", [30, 80])]))
    >>> ring.owner(42)
    'A'
    """

    _kind = "ring"

    def __init__(self, topology: Topology) -> None:
        """Builds the ring of ``topology`` (its NORMAL, LEAVING and MOVING nodes' tokens).

        Raises:
            EmptyError: no node whose tokens form a ring.
        """
        pp = ffi.new("tokenring_ring **")
        err = new_error()
        check(lib.tokenring_ring_build(pp, topology._p(), err), err)
        self._ptr = ffi.gc(pp[0], lib.tokenring_ring_free)
        p = self._ptr
        info = ffi.new("tokenring_node_info *")
        names = []
        for i in range(lib.tokenring_ring_node_count(p)):
            check(lib.tokenring_ring_node_brief(info, p, i))  # no token lists built
            names.append(_str(info.name))
        self._names: Tuple[str, ...] = tuple(names)
        self._nodes_cache: Optional[Tuple[Node, ...]] = None  # read on first use
        self._placements: Dict[Tuple[str, bool], "Placement"] = {}
        self._lock = threading.Lock()

    # -- structure
    @property
    def node_names(self) -> Tuple[str, ...]:
        """Node names by ring node index."""
        return self._names

    @property
    def _nodes(self) -> Tuple[Node, ...]:
        nodes = self._nodes_cache
        if nodes is None:
            p = self._p()
            info = ffi.new("tokenring_node_info *")
            out = []
            for i in range(len(self._names)):
                check(lib.tokenring_ring_node(info, p, i))
                out.append(_node_from_info(info))
            nodes = self._nodes_cache = tuple(out)
        return nodes

    @property
    def nodes(self) -> List[Node]:
        """Every node of the ring (of every state), by node index."""
        self._p()
        return list(self._nodes)

    def node(self, name: Union[str, bytes]) -> Node:
        """The node called ``name``. NotFoundError if unknown."""
        out = ffi.new("uint32_t *")
        check(lib.tokenring_ring_find_node(out, self._p(), _name(name)))
        return self._nodes[out[0]]

    @property
    def datacenters(self) -> List[str]:
        """Datacenter names, sorted."""
        p = self._p()
        return [_str(lib.tokenring_ring_dc_name(p, i))
                for i in range(lib.tokenring_ring_dc_count(p))]

    @property
    def rack_count(self) -> int:
        """Number of distinct (datacenter, rack) pairs."""
        return lib.tokenring_ring_rack_count(self._p())

    def __len__(self) -> int:
        """Number of tokens (= ranges) in the ring."""
        n = ffi.new("size_t *")
        lib.tokenring_ring_tokens(self._p(), n)
        return n[0]

    @property
    def tokens(self) -> Union["_np.ndarray", List[int]]:
        """The sorted ring tokens (a numpy int64 copy, or a list without numpy)."""
        p = self._p()
        n = ffi.new("size_t *")
        ptr = lib.tokenring_ring_tokens(p, n)
        if HAVE_NUMPY:
            return _np.frombuffer(ffi.buffer(ptr, 8 * n[0]), dtype=_np.int64).copy()
        return list(ffi.unpack(ptr, n[0]))

    @property
    def token_owners(self) -> List[str]:
        """For each ring token (same order as :attr:`tokens`), its node's name."""
        p = self._p()
        n = ffi.new("size_t *")
        ptr = lib.tokenring_ring_token_nodes(p, n)
        names = self._names
        return [names[i] for i in ffi.unpack(ptr, n[0])]

    # -- lookups
    def owner(self, key_or_token: KeyOrToken) -> str:
        """The primary owner of a token (int) or key (bytes/str): the node of the first
        ring token at or after it, wrapping. O(log n)."""
        out = ffi.new("uint32_t *")
        check(lib.tokenring_ring_owner(out, self._p(), _token_of(key_or_token)))
        return self._names[out[0]]

    def range_index(self, key_or_token: KeyOrToken) -> int:
        """Index of the range holding a token or key."""
        return lib.tokenring_ring_search(self._p(), _token_of(key_or_token))

    def search(self, tokens: Iterable[int]) -> Union["_np.ndarray", List[int]]:
        """Range indices of many tokens in one C call (numpy uint32 array or list)."""
        arr, n = _token_array(tokens)
        if HAVE_NUMPY:
            out = _np.empty(n, dtype=_np.uint32)
            with ffi.from_buffer("uint32_t[]", out, require_writable=True) as o:
                check(lib.tokenring_ring_search_batch(o, self._p(), arr, n))
            return out
        outc = ffi.new("uint32_t[]", n)
        check(lib.tokenring_ring_search_batch(outc, self._p(), arr, n))
        return list(outc)

    def _range(self, r: Any) -> Range:
        return Range(r.start, r.end, _u128(r.width), r.index, self._names[r.owner])

    def range_of(self, key_or_token: KeyOrToken) -> Range:
        """The range (start, end] holding a token or key, with exact bounds and width."""
        r = ffi.new("tokenring_range *")
        check(lib.tokenring_ring_range_of(r, self._p(), _token_of(key_or_token)))
        return self._range(r)

    def range(self, index: int) -> Range:
        """Range number ``index`` (0 .. len(ring) - 1). RangeError past the end."""
        r = ffi.new("tokenring_range *")
        check(lib.tokenring_ring_range(r, self._p(), index))
        return self._range(r)

    def ranges(self) -> List[Range]:
        """Every range, in token order."""
        return [self.range(i) for i in range(len(self))]

    # -- replication
    def placement(self, replication: ReplicationLike,
                  allow_unknown_dc: bool = False) -> "Placement":
        """The replica map of this ring under ``replication``, built once and cached per
        (replication, flag). With ``allow_unknown_dc`` a datacenter that has no node in the
        ring gets no replicas (Cassandra's behaviour) instead of raising NotFoundError."""
        self._p()
        repl = Replication.of(replication)
        key = (repl._text, bool(allow_unknown_dc))
        pl = self._placements.get(key)
        if pl is None or pl.closed:
            with self._lock:
                pl = self._placements.get(key)
                if pl is None or pl.closed:
                    pl = Placement(self, repl, allow_unknown_dc)
                    self._placements[key] = pl
        return pl

    def replicas(self, key_or_token: KeyOrToken, replication: ReplicationLike,
                 allow_unknown_dc: bool = False) -> Tuple[str, ...]:
        """Replica node names of a token or key in Cassandra's order (the first is the
        primary owner's for SimpleStrategy; an interleaved walk across datacenters for
        NetworkTopologyStrategy), as a tuple."""
        return cast(Tuple[str, ...],
                    self.placement(replication, allow_unknown_dc).replicas(key_or_token))

    def ownership(self, replication: Optional[ReplicationLike] = None,
                  allow_unknown_dc: bool = False) -> Dict[str, Ownership]:
        """``{node name: Ownership}`` for every node: primary shares from the ring alone,
        effective shares under ``replication`` when given (else 0)."""
        p = self._p()
        pl = ffi.NULL
        holder = None
        if replication is not None:
            holder = self.placement(replication, allow_unknown_dc)
            pl = holder._p()
        n = len(self._names)
        out = ffi.new("tokenring_ownership[]", max(n, 1))
        check(lib.tokenring_ring_ownership(out, n, p, pl))
        return {self._names[i]: Ownership(_u128(o.primary_width), _u128(o.effective_width),
                                          o.primary, o.effective, o.nodetool_primary,
                                          o.nodetool_effective, o.token_count)
                for i, o in enumerate(out[0:n])}

    def balance(self, replication: Optional[ReplicationLike] = None,
                datacenter: Optional[str] = None, rack: Optional[str] = None,
                allow_unknown_dc: bool = False) -> Any:
        """Ownership statistics (a :class:`tokenring.BalanceReport`): see
        :func:`tokenring.balance`."""
        from ._analysis import balance
        return balance(self, replication, datacenter, rack, allow_unknown_dc)

    def describe_ring(self, replication: ReplicationLike,
                      allow_unknown_dc: bool = False) -> List[DescribedRange]:
        """Every range with its replicas, as ``nodetool describering`` lists them."""
        pl = self.placement(replication, allow_unknown_dc)
        out = []
        for i in range(len(self)):
            r = self.range(i)
            reps = cast(Tuple[Tuple[str, bool], ...], pl.range_replicas(i, with_transient=True))
            out.append(DescribedRange(r.start, r.end, tuple(n for n, _ in reps),
                                      tuple(n for n, t in reps if t)))
        return out

    def close(self) -> None:
        """Drops the ring (and this object's cached placements; placements already
        handed out keep working, they hold their own reference)."""
        self._ptr = None
        self._placements = {}

    def __repr__(self) -> str:
        return "<tokenring.Ring closed>" if self.closed else \
            f"<tokenring.Ring {len(self._names)} nodes, {len(self)} tokens>"


# --------------------------------------------------------------------- placement

class Placement(_Handle):
    """The replica map of one ring under one replication: lookups are a search plus a
    pointer into shared memory. Thread-safe to query. Usually obtained from
    :meth:`Ring.placement` (which caches it)."""

    _kind = "placement"

    def __init__(self, ring: Ring, replication: ReplicationLike,
                 allow_unknown_dc: bool = False) -> None:
        """Builds the replica map. NotFoundError names a datacenter with no node unless
        ``allow_unknown_dc``."""
        repl = Replication.of(replication)
        pp = ffi.new("tokenring_placement **")
        err = new_error()
        flags = lib.TOKENRING_PLACEMENT_ALLOW_UNKNOWN_DC if allow_unknown_dc else 0
        check(lib.tokenring_placement_build(pp, ring._p(), repl._p(), flags, err), err)
        self._adopt(pp[0], ring, repl, allow_unknown_dc)

    def _adopt(self, ptr: Any, ring: Ring, repl: Replication, allow_unknown_dc: bool) -> None:
        self._ptr = ffi.gc(ptr, lib.tokenring_placement_free)
        self.ring: Ring = ring
        self.replication: Replication = repl
        self.allow_unknown_dc = allow_unknown_dc
        self._names = ring._names
        # names of each distinct replica set, filled on first use (indexed by set id)
        self._sets: List[Optional[Tuple[str, ...]]] = \
            [None] * lib.tokenring_placement_set_count(self._ptr)
        self._set_table: Any = None
        self._local = threading.local()

    def update(self, ring: Ring) -> "Placement":
        """The placement of ``ring`` (typically this placement's ring after a join, a
        decommission, a move or a replacement) under the same replication, equal to
        ``Placement(ring, self.replication, self.allow_unknown_dc)`` but built by walking
        again only the ranges the change can affect. This placement is unchanged."""
        if not isinstance(ring, Ring):
            raise TypeError(f"update() needs a Ring, not {type(ring).__name__}")
        pp = ffi.new("tokenring_placement **")
        err = new_error()
        check(lib.tokenring_placement_update(pp, self._p(), ring._p(), err), err)
        p = Placement.__new__(Placement)
        p._adopt(pp[0], ring, self.replication, self.allow_unknown_dc)
        return p

    def _names_of(self, r: Any) -> Tuple[str, ...]:
        sid = r.set_id
        t = self._sets[sid]
        if t is None:
            names = self._names
            t = tuple([names[i] for i in ffi.unpack(r.nodes, r.count)]) if r.count else ()
            self._sets[sid] = t
        return t

    def _detail(self, r: Any) -> Tuple[Tuple[str, bool], ...]:
        names = self._names_of(r)
        if r.transient == ffi.NULL:
            return tuple((n, False) for n in names)
        return tuple((n, bool(r.transient[i])) for i, n in enumerate(names))

    def replicas(self, key_or_token: KeyOrToken, with_transient: bool = False
                 ) -> Union[Tuple[str, ...], Tuple[Tuple[str, bool], ...]]:
        """Replica names of a token (int) or key (bytes/str) in Cassandra's order, as a
        tuple (shared and immutable); with ``with_transient``, ``(name, is_transient)``
        pairs. O(log n); no allocation in C, none in Python once a replica set was seen."""
        p = self._ptr
        if p is None:
            raise ClosedError("this placement is closed")
        try:
            out = self._local.out  # one output struct per thread: the call drops the GIL
        except AttributeError:
            out = self._local.out = ffi.new("tokenring_replicas *")
        # the hot path: a few attribute reads around one C call
        if type(key_or_token) is bytes:
            rc = lib.tokenring_placement_replicas_for_key(out, p, key_or_token,
                                                          len(key_or_token))
        elif isinstance(key_or_token, str):
            b = key_or_token.encode("utf-8")
            rc = lib.tokenring_placement_replicas_for_key(out, p, b, len(b))
        else:
            rc = lib.tokenring_placement_replicas(out, p, _token_of(key_or_token))
        if rc:
            check(rc)
        if with_transient:
            return self._detail(out)
        names = self._sets[out.set_id]
        if names is None:
            names = self._names_of(out)
        return names

    def range_replicas(self, index: int, with_transient: bool = False
                       ) -> Union[Tuple[str, ...], Tuple[Tuple[str, bool], ...]]:
        """Replicas of range ``index`` (see :meth:`Ring.range`)."""
        out = ffi.new("tokenring_replicas *")
        check(lib.tokenring_placement_range_replicas(out, self._p(), index))
        return self._detail(out) if with_transient else self._names_of(out)

    @property
    def set_count(self) -> int:
        """Number of distinct replica sets."""
        return lib.tokenring_placement_set_count(self._p())

    def replica_set(self, set_id: int) -> Tuple[str, ...]:
        """The names of distinct replica set ``set_id``, in order."""
        out = ffi.new("tokenring_replicas *")
        check(lib.tokenring_placement_set(out, self._p(), set_id))
        return self._names_of(out)

    @property
    def replica_sets(self) -> List[Tuple[str, ...]]:
        """Every distinct replica set, indexed by set id (as :meth:`route` returns)."""
        p = self._p()
        out = ffi.new("tokenring_replicas *")
        names, cache, get, unpack = self._names, self._sets, lib.tokenring_placement_set, ffi.unpack
        result = []
        for i in range(len(cache)):
            t = cache[i]
            if t is None:
                rc = get(out, p, i)
                if rc:
                    check(rc)
                c = out.count
                t = cache[i] = tuple([names[j] for j in unpack(out.nodes, c)]) if c else ()
            result.append(t)
        return result

    def route(self, keys: Union[Sequence[Key], Any]) -> Tuple[Any, Any]:
        """Routes many keys in one C call: ``(tokens, set_ids)``, numpy int64/uint32
        arrays (lists without numpy). Read names with :meth:`replica_set` /
        :attr:`replica_sets`."""
        data, offsets, n = pack_keys(keys)
        return self.route_packed(data, offsets, n)

    def route_packed(self, data: Union[bytes, bytearray, memoryview, Any], offsets: Any,
                     count: int = -1) -> Tuple[Any, Any]:
        """:meth:`route` for keys already packed back to back (key ``i`` is
        ``data[offsets[i]:offsets[i + 1]]``), without copying them."""
        if HAVE_NUMPY:
            offsets = _np.ascontiguousarray(offsets, dtype=_np.uint64)
        elif isinstance(offsets, (list, tuple)):
            offsets = ffi.new("uint64_t[]", list(offsets))
        n = len(offsets) - 1 if count < 0 else count
        if n < 0 or len(offsets) < n + 1:
            raise ValueError("offsets must have count + 1 entries")
        check_packed(data, offsets, n)
        p = self._p()
        if HAVE_NUMPY:
            toks = _np.empty(n, dtype=_np.int64)
            sets = _np.empty(n, dtype=_np.uint32)
            with ffi.from_buffer("int64_t[]", toks, require_writable=True) as t, \
                    ffi.from_buffer("uint32_t[]", sets, require_writable=True) as s:
                check(lib.tokenring_placement_route_keys(t, s, p, _u8(data),
                                                         _offsets_ptr(offsets), n))
            return toks, sets
        tc = ffi.new("int64_t[]", n)
        sc = ffi.new("uint32_t[]", n)
        check(lib.tokenring_placement_route_keys(tc, sc, p, _u8(data), offsets, n))
        return list(tc), list(sc)

    def route_replicas(self, keys: Union[Sequence[Key], Any]) -> Union[List[Tuple[str, ...]],
                                                                         "_np.ndarray"]:
        """Replica names of many keys: one C call, then one table lookup per key. With
        numpy, a numpy object array of name tuples (one vectorised take); else a list."""
        _, sets = self.route(keys)
        if HAVE_NUMPY:
            table = self._set_table
            if table is None:
                table = _np.empty(self.set_count, dtype=object)
                for i, names in enumerate(self.replica_sets):
                    table[i] = names
                self._set_table = table
            return table[sets]
        table = self.replica_sets
        return [table[i] for i in sets]

    def __repr__(self) -> str:
        return "<tokenring.Placement closed>" if self.closed else \
            f"<tokenring.Placement {self.replication} on {self.ring!r}>"
