# SPDX-License-Identifier: Apache-2.0
"""Rings: the immutable token ring of a topology, its ranges and lookups, and the
replication questions asked of it (replicas, ownership, balance, describering), answered
through placements it builds and caches (ring.h).

Lifetimes: every object owns its C handle through ``ffi.gc``; ``close()`` (or leaving a
``with`` block) drops it, and any later use raises :class:`ClosedError`. A call already
running in another thread keeps the handle alive until it returns, so closing never frees
memory under a reader. A :class:`Ring` copies what it needs from its topology and keeps
working after the topology is closed or dropped; a placement holds a reference to its
ring's C handle (the library's reference count) and to its Python ring.
"""
import threading
import warnings
from typing import Any, Dict, Iterable, List, NamedTuple, Optional, Tuple, Union, cast

from ._convert import KeyOrToken, c_index, c_name, c_str, token_array, token_of, u128
from ._errors import check, new_error
from ._ffi import ffi, lib
from ._handle import Handle, require
from ._hash import HAVE_NUMPY
from ._frames import Rows
from ._node import Node, node_from_info
from ._ownership import BalanceReport, Ownership, balance_of, ownership_of
from ._partitioner import Partitioner, _from_c
from ._tokentext import key_token_text, text_of, text_out, value_of
from ._placement import Placement
from ._replication import Replication, ReplicationLike

if HAVE_NUMPY:
    import numpy as _np

__all__ = ["Range", "RangeList", "DescribedRange", "Ring"]


class Range(NamedTuple):
    """A range of the ring: (start, end] with its exact width (2**64 for a lone token).
    On a RandomPartitioner ring the bounds are ints of 0 .. 2**127 and the width is over
    2**127 (Cassandra's); on a ByteOrderedPartitioner ring the bounds are bytes and the
    width is 0 (that partitioner has no token arithmetic)."""

    start: Any
    end: Any
    width: int
    index: int  # type: ignore[assignment]  # the range index, as in tokenring_range
    owner: str


class DescribedRange(NamedTuple):
    """One line of ``nodetool describering``: a range and its replicas in Cassandra's
    order, with the transient ones listed apart as well."""

    start: int
    end: int
    endpoints: Tuple[str, ...]
    transient: Tuple[str, ...]


class RangeList(List[Range]):
    """The list :attr:`Ring.ranges` gives. Calling it (``ring.ranges()``, the form before
    ``ranges`` became a property like :attr:`Ring.tokens` and :attr:`Movement.ranges`)
    still returns the list, with a DeprecationWarning."""

    def __call__(self) -> "RangeList":
        warnings.warn("Ring.ranges is a property: write ring.ranges, not ring.ranges()",
                      DeprecationWarning, stacklevel=2)
        return self


class Ring(Handle):
    """An immutable snapshot of a topology's token ring. Any number of threads may query
    it at once. It stays valid after its topology is closed or changed.

    >>> ring = Ring(Topology([("A", "dc1", "r1", [10, 50]), ("B", "dc1", "r1", [30, 80])]))
    >>> ring.owner(42)
    'A'
    """

    _kind = "ring"

    def __init__(self, topology: Any) -> None:
        """Builds the ring of a :class:`tokenring.Topology` (its NORMAL, LEAVING and
        MOVING nodes' tokens).

        Raises:
            EmptyError: no node whose tokens form a ring.
        """
        pp = ffi.new("tokenring_ring **")
        err = new_error()
        check(lib.tokenring_ring_build(pp, require(topology, "topology", "Ring()"), err), err)
        self._adopt(pp[0])

    @classmethod
    def _of_reference(cls, ptr: Any) -> "Ring":
        """A Ring owning ``ptr``, a ring reference the caller took (tokenring_ring_ref)."""
        r = cls.__new__(cls)
        r._adopt(ptr)
        return r

    def _adopt(self, ptr: Any) -> None:
        self._ptr = ffi.gc(ptr, lib.tokenring_ring_free)
        p = self._ptr
        info = ffi.new("tokenring_node_info *")
        names = []
        for i in range(lib.tokenring_ring_node_count(p)):
            check(lib.tokenring_ring_node_brief(info, p, i))  # no token lists built
            names.append(c_str(info.name))
        self._names: Tuple[str, ...] = tuple(names)
        self._part = Partitioner(lib.tokenring_ring_partitioner(p))
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
                out.append(node_from_info(info))
            if info.tokens == ffi.NULL and len(self):
                # no int64 token arrays (the other partitioners): the ring holds its
                # nodes' tokens by ring position only, a node outside the ring (JOINING)
                # shows none (its topology has them)
                lists: List[List[Any]] = [[] for _ in out]
                for i, owner in enumerate(self._owners()):
                    lists[owner].append(self._ring_token(i))
                out = [n._replace(tokens=tuple(lists[i])) for i, n in enumerate(out)]
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
        check(lib.tokenring_ring_find_node(out, self._p(), c_name(name)))
        return self._nodes[out[0]]

    @property
    def datacenters(self) -> List[str]:
        """Datacenter names, sorted."""
        p = self._p()
        return [c_str(lib.tokenring_ring_dc_name(p, i))
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
    def partitioner(self) -> Partitioner:
        """The ring's partitioner (its topology's)."""
        self._p()
        return self._part

    def _owners(self) -> List[int]:
        n = ffi.new("size_t *")
        ptr = lib.tokenring_ring_token_nodes(self._p(), n)
        if ptr == ffi.NULL:
            raise MemoryError("tokenring_ring_token_nodes")
        return list(ffi.unpack(ptr, n[0]))

    def _ring_token(self, i: int) -> Any:
        """Ring token i as the partitioner's Python value."""
        return value_of(self._part, self.token_text(i))

    def token_text(self, index: int) -> str:
        """Ring token ``index`` in Cassandra's text form, for any partitioner
        (tokenring_ring_token_text)."""
        return text_out(lib.tokenring_ring_token_text, self._p(), c_index(index, "ring index"))

    @property
    def token_texts(self) -> List[str]:
        """The sorted ring tokens in Cassandra's text form, as ``nodetool ring`` prints
        them."""
        return [self.token_text(i) for i in range(len(self))]

    def search_text(self, token: str) -> int:
        """Index of the range holding a token given in Cassandra's text form
        (tokenring_ring_search_text), for any partitioner.

        Raises:
            ParseError / RangeError: not a token of the ring's partitioner.
        """
        if not isinstance(token, str):
            raise TypeError(f"token text must be str, not {type(token).__name__}")
        raw = token.encode("utf-8")
        out = ffi.new("uint32_t *")
        err = new_error()
        check(lib.tokenring_ring_search_text(out, self._p(), raw, len(raw), err), err)
        return int(out[0])

    def _search_other(self, key_or_token: Any) -> int:
        """Range index of a key (bytes/str, hashed with the ring's partitioner) or token
        (the partitioner's value) off the Murmur3 fast path: one text search."""
        if isinstance(key_or_token, (str, bytes, bytearray, memoryview)):
            text = key_token_text(key_or_token, self._part)
        else:
            text = text_of(self._part, key_or_token)
        return self.search_text(text)

    @property
    def ownership_flags(self) -> int:
        """``tokenring_ring_ownership_flags``: 0, or OWNERSHIP_NO_WIDTHS |
        OWNERSHIP_DATA_DEPENDENT (1 | 2) for a ByteOrderedPartitioner ring, whose
        ownership has no widths and whose nodetool figure is that of a cluster without
        data (1/N per token)."""
        return int(lib.tokenring_ring_ownership_flags(self._p()))

    @property
    def tokens(self) -> Union["_np.ndarray", List[Any]]:
        """The sorted ring tokens (a numpy int64 copy, or a list without numpy). On a
        Random or ByteOrdered ring a list of ints (0 .. 2**127) or of bytes."""
        p = self._p()
        n = ffi.new("size_t *")
        ptr = lib.tokenring_ring_tokens(p, n)
        if ptr == ffi.NULL and n[0]:  # no int64 tokens: the other partitioners, by text
            return [self._ring_token(i) for i in range(n[0])]
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
        if self._part != Partitioner.MURMUR3:
            return self._names[self._owners()[self._search_other(key_or_token)]]
        out = ffi.new("uint32_t *")
        check(lib.tokenring_ring_owner(out, self._p(), token_of(key_or_token)))
        return self._names[out[0]]

    def range_index(self, key_or_token: KeyOrToken) -> int:
        """Index of the range holding a token or key (with the ring's partitioner: on a
        RandomPartitioner ring an int is a 128-bit token and bytes/str a key; on a
        ByteOrderedPartitioner ring bytes/str are the key and its token)."""
        if self._part != Partitioner.MURMUR3:
            return self._search_other(key_or_token)
        return lib.tokenring_ring_search(self._p(), token_of(key_or_token))

    def search(self, tokens: Iterable[Any]) -> Union["_np.ndarray", List[int]]:
        """Range indices of many tokens in one C call (numpy uint32 array or list); on a
        Random or ByteOrdered ring a list, one search per token."""
        if self._part != Partitioner.MURMUR3:
            return [self._search_other(t) for t in tokens]
        arr, n = token_array(tokens)
        if HAVE_NUMPY:
            out = _np.empty(n, dtype=_np.uint32)
            with ffi.from_buffer("uint32_t[]", out, require_writable=True) as o:
                check(lib.tokenring_ring_search_batch(o, self._p(), arr, n))
            return out
        outc = ffi.new("uint32_t[]", n)
        check(lib.tokenring_ring_search_batch(outc, self._p(), arr, n))
        return list(outc)

    def _range(self, r: Any) -> Range:
        return Range(r.start, r.end, u128(r.width), r.index, self._names[r.owner])

    def range_of(self, key_or_token: KeyOrToken) -> Range:
        """The range (start, end] holding a token or key, with exact bounds and width."""
        if self._part != Partitioner.MURMUR3:
            return self.range(self._search_other(key_or_token))
        r = ffi.new("tokenring_range *")
        check(lib.tokenring_ring_range_of(r, self._p(), token_of(key_or_token)))
        return self._range(r)

    def range(self, index: int) -> Range:
        """Range number ``index`` (0 .. len(ring) - 1). RangeError past the end."""
        if self._part == Partitioner.RANDOM:
            r128 = ffi.new("tokenring_range128 *")
            check(lib.tokenring_ring_range128(r128, self._p(), c_index(index, "range index")))
            return Range(_from_c(r128.start), _from_c(r128.end), u128(r128.width), r128.index,
                         self._names[r128.owner])
        if self._part == Partitioner.BYTE_ORDERED:
            n = len(self)
            if not 0 <= index < n:
                raise IndexError("range index out of range")
            return Range(self._ring_token(index - 1 if index else n - 1), self._ring_token(index),
                         0, index, self._names[self._owners()[index]])
        r = ffi.new("tokenring_range *")
        check(lib.tokenring_ring_range(r, self._p(), c_index(index, "range index")))
        return self._range(r)

    @property
    def ranges(self) -> RangeList:
        """Every range, in token order (a property, as :attr:`tokens`, :attr:`nodes` and
        :attr:`token_owners` are: views of the immutable ring; methods are what take
        arguments or build new objects)."""
        p = self._p()
        r = ffi.new("tokenring_range *")
        out = RangeList()
        if self._part != Partitioner.MURMUR3:
            out.extend(self.range(i) for i in range(len(self)))
            return out
        for i in range(len(self)):
            check(lib.tokenring_ring_range(r, p, i))
            out.append(self._range(r))
        return out

    # -- replication
    def placement(self, replication: ReplicationLike,
                  allow_unknown_dc: bool = False) -> "Placement":
        """The replica map of this ring under ``replication``, built once and cached per
        (replication, flag). With ``allow_unknown_dc`` a datacenter that has no node in the
        ring gets no replicas (Cassandra's behaviour; a warning names it) instead of raising
        NotFoundError, and ImpossibleError is raised when no replica at all results."""
        self._p()
        repl = Replication.of(replication)
        key = (repl._text, int(repl.rules), bool(allow_unknown_dc))
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

    def _placement_p(self, replication: Optional[ReplicationLike],
                     allow_unknown_dc: bool) -> Tuple[Optional[Placement], Any]:
        if replication is None:
            return None, ffi.NULL
        pl = self.placement(replication, allow_unknown_dc)
        return pl, pl._p()

    def ownership(self, replication: Optional[ReplicationLike] = None,
                  allow_unknown_dc: bool = False) -> Dict[str, Ownership]:
        """``{node name: Ownership}`` for every node: primary shares from the ring alone,
        effective shares under ``replication`` when given (else 0)."""
        p = self._p()
        holder, pl = self._placement_p(replication, allow_unknown_dc)
        return ownership_of(p, pl, self._names)

    def balance(self, replication: Optional[ReplicationLike] = None,
                datacenter: Optional[str] = None, rack: Optional[str] = None,
                allow_unknown_dc: bool = False) -> BalanceReport:
        """Max, min, mean and sample standard deviation of primary ownership (and of
        effective ownership under ``replication``) over the whole ring, one datacenter or
        one rack."""
        p = self._p()
        holder, pl = self._placement_p(replication, allow_unknown_dc)
        return balance_of(p, pl, self._names, datacenter, rack)

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
        return Rows.of(out, DescribedRange._fields)

    def close(self) -> None:
        """Drops the ring (and this object's cached placements; placements already
        handed out keep working, they hold their own reference)."""
        self._ptr = None
        self._placements = {}

    def __repr__(self) -> str:
        return "<tokenring.Ring closed>" if self.closed else \
            f"<tokenring.Ring {len(self._names)} nodes, {len(self)} tokens>"
