# SPDX-License-Identifier: Apache-2.0
"""Placements: the replica map of one ring under one replication, with single and batch
lookups by key, token and range (placement.h). A placement takes its ring as
an argument and never builds one: :class:`tokenring.Ring` builds and caches placements."""
import bisect
import re
import threading
import warnings
from typing import Any, List, Optional, Sequence, Tuple, Union

from ._columns import is_column, packed_parts, tokens_of_parts
from ._convert import KeyOrToken, c_index, token_array, token_of
from ._errors import ClosedError, NotFoundError, check, new_error
from ._ffi import ffi, lib
from ._handle import Handle, require
from ._hash import (HAVE_NUMPY, Key, _offsets_ptr, _u8, as_key_bytes, check_packed, pack_keys,
                    packed_offsets)
from ._replication import Replication, ReplicationLike

if HAVE_NUMPY:
    import numpy as _np

builtins_type = type

__all__ = ["Placement"]


_M3 = 1 << 63
_TOKEN_RANGE = re.compile(
    r"TokenRange\(start_token:(-?\d+), end_token:(-?\d+), endpoints:\[([^\]]*)\]")


# Keys per C call of Placement.route_ranges: the library prefetches each key's replica row
# as it routes it, for a caller reading the rows right after (64-1,024 measured).
_ROUTE_CHUNK = 1024
_REPLICAS_DTYPE = None


def _replicas_dtype() -> Any:
    """A numpy structured dtype with the layout of C's tokenring_replicas (its offsets and
    size read from cffi), to read the fields of a whole buffer of them at once."""
    global _REPLICAS_DTYPE
    if _REPLICAS_DTYPE is None:
        names = ["range_index", "set_id"]
        _REPLICAS_DTYPE = _np.dtype({
            "names": names, "formats": [_np.uint32] * len(names),
            "offsets": [ffi.offsetof("tokenring_replicas", f) for f in names],
            "itemsize": ffi.sizeof("tokenring_replicas")})
    return _REPLICAS_DTYPE


class Placement(Handle):
    """The replica map of one ring under one replication: lookups are a search plus a
    pointer into shared memory. Thread-safe to query. Usually obtained from
    :meth:`Ring.placement` (which caches it)."""

    _kind = "placement"

    def __init__(self, ring: Any, replication: ReplicationLike,
                 allow_unknown_dc: bool = False) -> None:
        """Builds the replica map of ``ring`` (a :class:`tokenring.Ring`). NotFoundError
        names a datacenter with no node unless ``allow_unknown_dc``; then the library's rule
        applies (Cassandra's): such a datacenter gets no replicas and a :class:`UserWarning`
        names it (see :attr:`empty_datacenters`), and ImpossibleError is raised when no
        replica at all results."""
        ring_p = require(ring, "ring", "Placement()")
        repl = Replication.of(replication)
        pp = ffi.new("tokenring_placement **")
        err = new_error()
        flags = lib.TOKENRING_PLACEMENT_SKIP_EMPTY_DC if allow_unknown_dc else 0
        check(lib.tokenring_placement_build(pp, ring_p, repl._p(), flags, err), err)
        self._adopt(pp[0], ring, repl, allow_unknown_dc)
        self._warn_empty()

    def _warn_empty(self) -> None:
        for dc in self.empty_datacenters:
            warnings.warn(f"datacenter '{dc}' of the replication has no node in the ring: "
                          "Cassandra places no replica there", UserWarning, stacklevel=3)

    @property
    def empty_datacenters(self) -> Tuple[str, ...]:
        """Datacenters the replication gives a factor above 0 that have no node in the
        ring (no replica is placed there), in the replication's order."""
        r, p = self.replication._p(), self.ring._p()
        return tuple(ffi.string(lib.tokenring_replication_empty_dc(r, p, i)).decode()
                     for i in range(lib.tokenring_replication_empty_dc_count(r, p)))

    def _adopt(self, ptr: Any, ring: Any, repl: Replication, allow_unknown_dc: bool) -> None:
        self._ptr = ffi.gc(ptr, lib.tokenring_placement_free)
        self.ring: Any = ring  # the tokenring.Ring it was built from
        self.replication: Replication = repl
        self.allow_unknown_dc = allow_unknown_dc
        self._names: Tuple[str, ...] = ring.node_names
        # names of each distinct replica set, filled on first use (indexed by set id)
        self._sets: List[Optional[Tuple[str, ...]]] = \
            [None] * lib.tokenring_placement_set_count(self._ptr)
        self._set_table: Any = None
        self._range_sets: Any = None  # set id of each range, filled on first token batch
        self._local = threading.local()

    #: Names of the replica-order rules (tokenring_replica_order), by value.
    ORDERS = ("tokens", "server", "history")

    @classmethod
    def from_lists(cls, ring: Any, replication: ReplicationLike,
                   lists: Sequence[Sequence[str]], order: str = "server",
                   upper: Optional[Sequence[str]] = None) -> "Placement":
        """A placement whose range ``i`` of ``ring`` (see :meth:`Ring.range`) has the
        replicas ``lists[i]`` (node names) in the order given
        (``tokenring_placement_from_lists``): the order a server reported (``order=
        "server"``, e.g. ``describering``) or Cassandra 6.0's order replayed from the
        cluster's history (``"history"``). ``upper``: the list of the tokens above the
        largest ring token when it differs from range 0's (Cassandra 6.0 keeps (t_last,
        min] apart from (min, t_0]). Every lookup then answers from these lists;
        :meth:`update` refuses such a placement. InvalidArgumentError names a list that
        repeats a node; NotFoundError an unknown node name."""
        ring_p = require(ring, "ring", "Placement.from_lists()")
        if order not in ("server", "history"):
            raise ValueError(f"order {order!r}: 'server' or 'history'")
        repl = Replication.of(replication)
        index = {n: i for i, n in enumerate(ring.node_names)}
        if len(lists) != len(ring.tokens):
            raise ValueError(f"{len(lists)} replica lists for a ring of {len(ring.tokens)} "
                             "ranges")
        offsets, nodes = [0], []
        for i, lst in enumerate(list(lists) + ([upper] if upper is not None else [])):
            for name in lst:
                if name not in index:
                    where = f"range {i}" if i < len(lists) else "the list above the largest token"
                    raise NotFoundError(lib.TOKENRING_E_NOTFOUND,
                                        f"{where}: node {name!r} is not in the ring")
                nodes.append(index[name])
            offsets.append(len(nodes))
        n = len(lists)
        up = nodes[offsets[n]:] if upper is not None else None
        nodes = nodes[:offsets[n]]
        offsets = offsets[:n + 1]
        pp = ffi.new("tokenring_placement **")
        err = new_error()
        check(lib.tokenring_placement_from_lists(
            pp, ring_p, repl._p(), ffi.new("uint32_t[]", offsets),
            ffi.new("uint32_t[]", nodes) if nodes else ffi.NULL,
            ffi.new("uint32_t[]", up) if up else (ffi.new("uint32_t[]", 1) if up == [] else ffi.NULL),
            len(up) if up else 0,
            lib.TOKENRING_ORDER_SERVER if order == "server" else lib.TOKENRING_ORDER_HISTORY,
            err), err)
        p = cls.__new__(cls)
        p._adopt(pp[0], ring, repl, True)
        return p

    @classmethod
    def from_describering(cls, ring: Any, replication: ReplicationLike,
                          text: str) -> "Placement":
        """The server's placement of one keyspace: ``nodetool describering KEYSPACE``
        output (its ``TokenRange(...)`` lines, each range's endpoints in the server's
        order) laid over ``ring`` (the same moment's ring, e.g. from ``nodetool ring``),
        as :meth:`from_lists` with ``order="server"``. Every ring token must lie in a
        listed range (ValueError names the token otherwise); 6.0's listing, cut at the
        minimum token, and 5.0's, one wrapping range, are both read. On 6.0 describering
        prints (min, t_0]'s list for the wrapping range: for the tokens above the largest
        ring token, whose list 6.0 keeps apart and may order otherwise, the order is then
        that of (min, t_0], not necessarily the server's (the replica set is)."""
        starts: List[Tuple[int, int, Tuple[str, ...]]] = []
        for m in _TOKEN_RANGE.finditer(text):
            eps = tuple(e.strip() for e in m.group(3).split(",") if e.strip())
            starts.append((int(m.group(1)), int(m.group(2)), eps))
        if not starts:
            raise ValueError("no TokenRange(...) line in the describering text")
        starts.sort(key=lambda r: r[1])
        ends = [b for _, b, _ in starts]
        lists = []
        for t in ring.tokens:
            t = int(t)
            j = bisect.bisect_left(ends, t)  # the first listed range ending at or after t
            a, b, eps = starts[j if j < len(ends) else 0]
            if not ((a < t <= b) if a < b else (t > a or t <= b)):
                raise ValueError(f"ring token {t} lies in no listed range")
            lists.append(eps)
        return cls.from_lists(ring, replication, lists, "server")  # type: ignore[arg-type]

    @property
    def order(self) -> str:
        """Which rule ordered the replicas: ``"tokens"`` (computed from the ring's tokens:
        Cassandra's order before 6.0), ``"server"`` or ``"history"`` (given lists, see
        :meth:`from_lists`)."""
        rc = lib.tokenring_placement_order(self._p())
        check(rc if rc < 0 else 0)
        return self.ORDERS[rc]

    def update(self, ring: Any) -> "Placement":
        """The placement of ``ring`` (typically this placement's ring after a join, a
        decommission, a move or a replacement) under the same replication, equal to
        ``Placement(ring, self.replication, self.allow_unknown_dc)`` but built by walking
        again only the ranges the change can affect. This placement is unchanged."""
        ring_p = require(ring, "ring", "update()")
        pp = ffi.new("tokenring_placement **")
        err = new_error()
        check(lib.tokenring_placement_update(pp, self._p(), ring_p, err), err)
        p = Placement.__new__(Placement)
        p._adopt(pp[0], ring, self.replication, self.allow_unknown_dc)
        p._warn_empty()
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
        elif type(key_or_token) is int and not -_M3 <= key_or_token < _M3:
            # not a Murmur3 token: a RandomPartitioner one, or the RangeError token_of gives
            rc = lib.TOKENRING_E_UNSUPPORTED if self.ring._part else \
                lib.tokenring_placement_replicas(out, p, token_of(key_or_token))
        else:
            rc = lib.tokenring_placement_replicas(out, p, token_of(key_or_token))
        if rc == lib.TOKENRING_E_UNSUPPORTED:  # a Random or ByteOrdered ring
            self._replicas_other(out, key_or_token)
        elif rc:
            check(rc)
        if with_transient:
            return self._detail(out)
        names = self._sets[out.set_id]
        if names is None:
            names = self._names_of(out)
        return names

    def _replicas_other(self, out: Any, key_or_token: Any) -> None:
        """Fills out for a key (bytes/str, hashed with the ring's partitioner) or a
        RandomPartitioner token (int) on a Random or ByteOrdered ring."""
        if isinstance(key_or_token, str):
            key_or_token = key_or_token.encode("utf-8")
        if isinstance(key_or_token, (bytes, bytearray, memoryview)):
            b = bytes(key_or_token)
            check(lib.tokenring_placement_replicas_for_key_any(out, self._p(), b, len(b)))
            return
        index = self.ring.range_index(key_or_token)
        check(lib.tokenring_placement_range_replicas(out, self._p(), index))

    def range_replicas(self, index: int, with_transient: bool = False
                       ) -> Union[Tuple[str, ...], Tuple[Tuple[str, bool], ...]]:
        """Replicas of range ``index`` (see :meth:`Ring.range`)."""
        out = ffi.new("tokenring_replicas *")
        check(lib.tokenring_placement_range_replicas(out, self._p(), c_index(index, "range index")))
        return self._detail(out) if with_transient else self._names_of(out)

    def key_set_id(self, key: Key) -> int:
        """The id of the replica set of a key (bytes, or str hashed as UTF-8): one C call
        returning it (``tokenring_placement_key_set_id``), for a router that keeps its own
        table per set id; read the set with :meth:`replica_set`."""
        p = self._p()
        b = key if type(key) is bytes else as_key_bytes(key)
        sid = lib.tokenring_placement_key_set_id(p, b, len(b))
        if sid < 0:
            check(sid)
        return sid

    @property
    def set_count(self) -> int:
        """Number of distinct replica sets."""
        return lib.tokenring_placement_set_count(self._p())

    def replica_set(self, set_id: int) -> Tuple[str, ...]:
        """The names of distinct replica set ``set_id``, in order."""
        out = ffi.new("tokenring_replicas *")
        check(lib.tokenring_placement_set(out, self._p(), c_index(set_id, "set id")))
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

    def route(self, keys: Union[Sequence[Key], Any], type: Any = None,
              nulls: str = "error") -> Tuple[Any, Any]:
        """Routes many keys in one C call: ``(tokens, set_ids)``, numpy int64/uint32
        arrays (lists without numpy). Read names with :meth:`replica_set` /
        :attr:`replica_sets`. ``keys``, ``type`` and ``nulls`` as for
        :func:`tokenring.tokens` (columns, typed and composite keys; with
        ``nulls="null"`` both arrays are masked where a key is null)."""
        if isinstance(keys, (str, bytes, bytearray, memoryview)):
            raise TypeError(f"route() takes a column or sequence of keys, not a bare "
                            f"{builtins_type(keys).__name__}: wrap one key in a list")
        if HAVE_NUMPY and (type is not None or nulls != "error" or is_column(keys)):
            return tokens_of_parts(packed_parts(keys, type, nulls), self.route_packed)
        data, offsets, n = pack_keys(keys)
        return self.route_packed(data, offsets, n)

    def route_packed(self, data: Union[bytes, bytearray, memoryview, Any], offsets: Any,
                     count: int = -1) -> Tuple[Any, Any]:
        """:meth:`route` for keys already packed back to back (key ``i`` is
        ``data[offsets[i]:offsets[i + 1]]``), without copying them. ``offsets`` as for
        :func:`tokens_packed`."""
        offsets, n = packed_offsets(offsets, count)
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

    def route_ranges(self, keys: Union[Sequence[Key], Any], type: Any = None,
                     nulls: str = "error") -> Tuple[Any, Any, Any]:
        """Routes many keys to their own ranges: ``(tokens, ranges, set_ids)``, numpy
        int64/uint32/uint32 arrays (lists without numpy). ``ranges[i]`` is the index of
        key ``i``'s range (what :meth:`Ring.range_index` gives its token; read it with
        :meth:`Ring.range` or :meth:`range_replicas`), what a bulk loader or a Spark job
        groups keys by; ``set_ids[i]`` is the id of its replica set, as :meth:`route`
        gives it. ``keys``, ``type`` and ``nulls`` as for :meth:`route` (with
        ``nulls="null"`` the three arrays are masked where a key is null). Murmur3 rings
        only (UnsupportedError otherwise)."""
        if isinstance(keys, (str, bytes, bytearray, memoryview)):
            raise TypeError(f"route_ranges() takes a column or sequence of keys, not a "
                            f"bare {builtins_type(keys).__name__}: wrap one key in a list")
        if HAVE_NUMPY and (type is not None or nulls != "error" or is_column(keys)):
            return tokens_of_parts(packed_parts(keys, type, nulls), self.route_ranges_packed)
        data, offsets, n = pack_keys(keys)
        return self.route_ranges_packed(data, offsets, n)

    def route_ranges_packed(self, data: Union[bytes, bytearray, memoryview, Any],
                            offsets: Any, count: int = -1) -> Tuple[Any, Any, Any]:
        """:meth:`route_ranges` for keys already packed back to back (key ``i`` is
        ``data[offsets[i]:offsets[i + 1]]``), without copying them. ``offsets`` as for
        :func:`tokens_packed`. The keys go to C ``_ROUTE_CHUNK`` at a time
        (``tokenring_placement_route_keys_replicas``)."""
        offsets, n = packed_offsets(offsets, count)
        check_packed(data, offsets, n)
        p = self._p()
        keys = _u8(data)
        offs = _offsets_ptr(offsets)
        call = lib.tokenring_placement_route_keys_replicas
        step = _ROUTE_CHUNK
        out = ffi.new("tokenring_replicas[]", min(n, step) or 1)
        if HAVE_NUMPY:
            toks = _np.empty(n, dtype=_np.int64)
            ranges = _np.empty(n, dtype=_np.uint32)
            sets = _np.empty(n, dtype=_np.uint32)
            rows = _np.frombuffer(ffi.buffer(out), dtype=_replicas_dtype())
            with ffi.from_buffer("int64_t[]", toks, require_writable=True) as t:
                for i in range(0, n, step):
                    k = min(step, n - i)
                    rc = call(out, t + i, p, keys, offs + i, k)
                    if rc:
                        check(rc)
                    ranges[i:i + k] = rows["range_index"][:k]
                    sets[i:i + k] = rows["set_id"][:k]
            if n == 0:  # the call's checks (a ring of another partitioner) still apply
                check(call(out, ffi.NULL, p, keys, offs, 0))
            return toks, ranges, sets
        tc = ffi.new("int64_t[]", n)
        ranges_l: List[int] = []
        sets_l: List[int] = []
        for i in range(0, n, step):
            k = min(step, n - i)
            check(call(out, tc + i, p, keys, offsets + i, k))
            for j in range(k):
                r = out[j]
                ranges_l.append(r.range_index)
                sets_l.append(r.set_id)
        if n == 0:
            check(call(out, ffi.NULL, p, keys, offsets, 0))
        return list(tc), ranges_l, sets_l

    def route_replicas(self, keys: Union[Sequence[Key], Any], type: Any = None,
                       nulls: str = "error") -> Union[List[Tuple[str, ...]], "_np.ndarray"]:
        """Replica names of many keys: one C call, then one table lookup per key. With
        numpy, a numpy object array of name tuples (one vectorised take); else a list.
        ``keys``, ``type`` and ``nulls`` as for :meth:`route`; a null key's entry is
        None."""
        _, sets = self.route(keys, type, nulls)
        if HAVE_NUMPY and isinstance(sets, _np.ma.MaskedArray):
            out = self._names_table(sets.filled(0))
            out[sets.mask] = None
            return out
        return self._names_table(sets)

    def _names_table(self, sets: Any) -> Any:
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

    def _sets_of_ranges(self) -> Any:
        """The replica-set id of every range (numpy uint32 array, or a list), read once."""
        table = self._range_sets
        if table is None:
            p = self._p()
            out = ffi.new("tokenring_replicas *")
            get = lib.tokenring_placement_range_replicas
            n = ffi.new("size_t *")
            lib.tokenring_ring_tokens(self.ring._p(), n)
            ids = []
            for i in range(n[0]):
                rc = get(out, p, i)
                if rc:
                    check(rc)
                ids.append(out.set_id)
            table = _np.asarray(ids, dtype=_np.uint32) if HAVE_NUMPY else ids
            self._range_sets = table
        return table

    def route_tokens(self, tokens: Any) -> Any:
        """Replica-set ids of many precomputed tokens (e.g. a numpy int64 column): one C
        search over the ring for all of them, then one table lookup per token. Returns a
        numpy uint32 array (a list without numpy); read names with :meth:`replica_set` /
        :attr:`replica_sets`, or use :meth:`route_token_replicas`. A token outside the
        Murmur3 range raises RangeError."""
        arr, n = token_array(tokens)
        ring_p = self.ring._p()
        table = self._sets_of_ranges()
        if HAVE_NUMPY:
            ranges = _np.empty(n, dtype=_np.uint32)
            with ffi.from_buffer("uint32_t[]", ranges, require_writable=True) as o:
                check(lib.tokenring_ring_search_batch(o, ring_p, arr, n))
            return table[ranges]
        outc = ffi.new("uint32_t[]", n)
        check(lib.tokenring_ring_search_batch(outc, ring_p, arr, n))
        return [table[i] for i in outc]

    def route_token_replicas(self, tokens: Any) -> Union[List[Tuple[str, ...]], "_np.ndarray"]:
        """Replica names of many precomputed tokens, as :meth:`route_replicas` gives them
        for keys: a numpy object array of name tuples (a list without numpy)."""
        return self._names_table(self.route_tokens(tokens))

    def __repr__(self) -> str:
        return "<tokenring.Placement closed>" if self.closed else \
            f"<tokenring.Placement {self.replication} on {self.ring!r}>"
