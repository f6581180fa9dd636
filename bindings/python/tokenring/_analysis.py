# SPDX-License-Identifier: Apache-2.0
"""Cluster analysis (analysis.h): ownership balance, the data movement of a join,
decommission, replacement or move, availability under failures, num_tokens migration."""
import enum
from typing import Any, Iterable, List, Mapping, NamedTuple, Optional, Sequence, Tuple, Union

from ._budget import Budget, budget_error, new_limits
from ._errors import check, new_error
from ._ffi import ffi, lib
from ._progress import Progress, progress_callback
from ._convert import (U32, KeyOrToken, c_int, c_int32, c_name, c_str, token_array, token_of,
                       u128)
from ._frames import Rows, row_to_arrow, row_to_pandas
from ._handle import Handle, require
from ._ownership import Balance, BalanceReport
from ._partitioner import Partitioner
from ._replication import Replication, ReplicationLike
from ._ring import Ring
from ._tokentext import AnyToken, c_texts, sample_keys, text_out, value_of
from ._topology import Topology

__all__ = ["Balance", "BalanceReport", "balance", "ChangeKind", "Movement", "MovementSummary",
           "MovementNode", "MovedRange", "Stream", "SampleChange", "Consistency",
           "FailureSet", "availability", "MigrationNode", "MigrationPlan", "migration_plan",
           "AVAILABILITY_MAX_K", "TokensKept", "tokens_kept", "FailureUnit",
           "WorstSet", "AvailabilitySummary", "availability_summary"]

#: Largest number of failed nodes an availability analysis enumerates.
AVAILABILITY_MAX_K: int = lib.TOKENRING_AVAILABILITY_MAX_K


# ------------------------------------------------------------------- balance

def balance(ring: Ring, replication: Optional[ReplicationLike] = None,
            datacenter: Optional[str] = None, rack: Optional[str] = None,
            allow_unknown_dc: bool = False) -> BalanceReport:
    """Ownership statistics of a ring: the same as :meth:`Ring.balance` (kept as a
    function for existing callers)."""
    return ring.balance(replication, datacenter, rack, allow_unknown_dc)


# ------------------------------------------------------------------ movement

class ChangeKind(enum.IntEnum):
    """What a movement analysis compares; decides the streaming sources."""

    GENERIC = lib.TOKENRING_CHANGE_GENERIC
    JOIN = lib.TOKENRING_CHANGE_JOIN
    DECOMMISSION = lib.TOKENRING_CHANGE_DECOMMISSION
    REPLACE = lib.TOKENRING_CHANGE_REPLACE
    MOVE = lib.TOKENRING_CHANGE_MOVE


class MovementSummary(NamedTuple):
    """Totals of a movement analysis: exact widths in the ring's units (token values over
    2**64 for Murmur3, over 2**127 for RandomPartitioner, one per elementary range for
    ByteOrderedPartitioner) and fractions of the whole ring in those units."""

    changed_width: int
    primary_changed_width: int
    streamed_width: int
    changed_fraction: float
    primary_changed_fraction: float
    streamed_fraction: float
    range_count: int
    stream_count: int
    node_count: int
    cleanup_count: int
    sample_count: int
    samples_primary_changed: int
    samples_replicas_changed: int

    to_pandas = row_to_pandas
    to_arrow = row_to_arrow


class MovementNode(NamedTuple):
    """What one node gains and loses."""

    name: str
    before_width: int
    after_width: int
    gained_width: int
    lost_width: int
    primary_before_width: int
    primary_after_width: int
    gained_fraction: float
    lost_fraction: float
    in_before: bool
    in_after: bool
    needs_cleanup: bool


class MovedRange(NamedTuple):
    """A range (start, end] whose replica set changes, with both replica lists; the
    bounds are tokens of the topologies' partitioner (ints, or bytes for
    ByteOrderedPartitioner)."""

    start: AnyToken
    end: AnyToken
    width: int
    old_replicas: Tuple[str, ...]
    new_replicas: Tuple[str, ...]


class Stream(NamedTuple):
    """``source`` streams range (start, end] to ``destination``."""

    start: AnyToken
    end: AnyToken
    width: int
    source: str
    destination: str
    range_index: int
    strict: bool


class SampleChange(NamedTuple):
    """What happens to one sample (its token in the partitioner's form)."""

    token: AnyToken
    old_replicas: Tuple[str, ...]
    new_replicas: Tuple[str, ...]
    old_owner: str
    new_owner: str
    owner_changed: bool
    replicas_changed: bool


def _samples(samples: Iterable[KeyOrToken], part: Partitioner
             ) -> Tuple[Optional[Tuple[Any, Any, int]], Any, int]:
    """The samples as packed keys (every partitioner's calls hash them with the
    partitioner), or, when some are tokens, as Murmur3 tokens (only Murmur3 topologies
    take token samples)."""
    samples = list(samples)
    keys = sample_keys(samples)
    if keys is not None:
        return keys, None, 0
    if part != Partitioner.MURMUR3:
        bad = next(s for s in samples if not isinstance(s, (str, bytes, bytearray, memoryview)))
        raise TypeError(f"on a {part.name} topology the samples are partition keys "
                        f"(bytes or str), not {type(bad).__name__}")
    arr, n = token_array([token_of(s) for s in samples])
    return None, arr, n


def _int64_tokens(tokens: List[Any]) -> Tuple[Any, int]:
    """Murmur3 tokens (ints or their text) for the int64 calls that take token samples."""
    return token_array([int(t) if isinstance(t, str) else t for t in tokens])


class Movement(Handle):
    """The result of comparing the replica placement before and after a topology change.
    Build one with :meth:`compare`, :meth:`join`, :meth:`decommission`, :meth:`replace`
    or :meth:`move` (the topology passed in is never modified)."""

    _kind = "movement"

    def __init__(self, ptr: Any, kind: Optional[int] = None) -> None:
        """Internal: use the class methods."""
        self._ptr = ffi.gc(ptr, lib.tokenring_movement_free)
        self.kind: ChangeKind = ChangeKind.GENERIC if kind is None else ChangeKind(kind)
        s = self.summary
        node = ffi.new("tokenring_movement_node *")
        names = []
        for i in range(s.node_count):
            check(lib.tokenring_movement_get_node(node, self._ptr, i))
            names.append(c_str(node.name))
        self._names: Tuple[str, ...] = tuple(names)

    @classmethod
    def compare(cls, before: Topology, after: Topology, replication: ReplicationLike,
                kind: ChangeKind = ChangeKind.GENERIC,
                samples: Iterable[KeyOrToken] = ()) -> "Movement":
        """Compares two topologies (of one partitioner) under one replication;
        ``samples`` are keys or tokens to trace (keys only, hashed with the partitioner,
        on RandomPartitioner and ByteOrderedPartitioner topologies)."""
        repl = Replication.of(replication)
        pp = ffi.new("tokenring_movement **")
        err = new_error()
        keys, arr, n = _samples(samples, before.partitioner)
        if keys is not None:
            check(lib.tokenring_movement_compare_keys(pp, before._p(), after._p(), repl._p(),
                                                      int(kind), *keys, err), err)
        else:
            check(lib.tokenring_movement_compare(pp, before._p(), after._p(), repl._p(),
                                                 int(kind), arr, n, err), err)
        return cls(pp[0], int(kind))

    @classmethod
    def join(cls, topology: Topology, replication: ReplicationLike, name: str,
             datacenter: str, rack: str, tokens: Iterable[Any],
             samples: Iterable[KeyOrToken] = ()) -> "Movement":
        """Simulates a node joining with ``tokens`` (of the topology's partitioner: ints,
        or bytes for ByteOrderedPartitioner)."""
        repl = Replication.of(replication)
        pp = ffi.new("tokenring_movement **")
        err = new_error()
        part = topology.partitioner
        cn, cd, cr = c_name(name), c_name(datacenter, "datacenter"), c_name(rack, "rack")
        tokens = list(tokens)
        toks, nt, _keep = c_texts(part, tokens)
        keys, arr, n = _samples(samples, part)
        if keys is None:  # Murmur3 token samples: the int64 call
            check(lib.tokenring_movement_join(pp, topology._p(), repl._p(), cn, cd, cr,
                                              *_int64_tokens(tokens), arr, n, err), err)
        else:
            check(lib.tokenring_movement_join_text(pp, topology._p(), repl._p(), cn, cd, cr,
                                                   toks, nt, *keys, err), err)
        return cls(pp[0], ChangeKind.JOIN)

    @classmethod
    def decommission(cls, topology: Topology, replication: ReplicationLike, name: str,
                     samples: Iterable[KeyOrToken] = ()) -> "Movement":
        """Simulates node ``name`` leaving (it streams its data away)."""
        repl = Replication.of(replication)
        pp = ffi.new("tokenring_movement **")
        err = new_error()
        keys, arr, n = _samples(samples, topology.partitioner)
        if keys is not None:
            check(lib.tokenring_movement_decommission_keys(pp, topology._p(), repl._p(),
                                                           c_name(name), *keys, err), err)
        else:
            check(lib.tokenring_movement_decommission(pp, topology._p(), repl._p(),
                                                      c_name(name), arr, n, err), err)
        return cls(pp[0], ChangeKind.DECOMMISSION)

    @classmethod
    def replace(cls, topology: Topology, replication: ReplicationLike, old_name: str,
                new_name: str, samples: Iterable[KeyOrToken] = ()) -> "Movement":
        """Simulates replacing dead node ``old_name`` by ``new_name`` (same tokens)."""
        repl = Replication.of(replication)
        pp = ffi.new("tokenring_movement **")
        err = new_error()
        keys, arr, n = _samples(samples, topology.partitioner)
        if keys is not None:
            check(lib.tokenring_movement_replace_keys(pp, topology._p(), repl._p(),
                                                      c_name(old_name), c_name(new_name),
                                                      *keys, err), err)
        else:
            check(lib.tokenring_movement_replace(pp, topology._p(), repl._p(),
                                                 c_name(old_name), c_name(new_name), arr, n,
                                                 err), err)
        return cls(pp[0], ChangeKind.REPLACE)

    @classmethod
    def move(cls, topology: Topology, replication: ReplicationLike, name: str,
             tokens: Iterable[Any], samples: Iterable[KeyOrToken] = ()) -> "Movement":
        """Simulates node ``name`` moving to new ``tokens`` (of the topology's
        partitioner)."""
        repl = Replication.of(replication)
        pp = ffi.new("tokenring_movement **")
        err = new_error()
        part = topology.partitioner
        tokens = list(tokens)
        toks, nt, _keep = c_texts(part, tokens)
        keys, arr, n = _samples(samples, part)
        if keys is None:  # Murmur3 token samples: the int64 call
            check(lib.tokenring_movement_move(pp, topology._p(), repl._p(), c_name(name),
                                              *_int64_tokens(tokens), arr, n, err), err)
        else:
            check(lib.tokenring_movement_move_text(pp, topology._p(), repl._p(), c_name(name),
                                                   toks, nt, *keys, err), err)
        return cls(pp[0], ChangeKind.MOVE)

    @property
    def partitioner(self) -> Partitioner:
        """The partitioner of the topologies compared."""
        return Partitioner(lib.tokenring_movement_partitioner(self._p()))

    def _bounds(self, p: Any, i: int) -> Tuple[AnyToken, AnyToken]:
        """The bounds of changed range ``i`` as the partitioner's values."""
        part = self.partitioner
        return (value_of(part, text_out(lib.tokenring_movement_range_bound_text, p, i, 0)),
                value_of(part, text_out(lib.tokenring_movement_range_bound_text, p, i, 1)))

    def range_texts(self) -> List[Tuple[str, str]]:
        """The (start, end] bounds of every changed range (as :attr:`ranges`) in
        Cassandra's text form (tokenring_movement_range_bound_text)."""
        p = self._p()
        return [(text_out(lib.tokenring_movement_range_bound_text, p, i, 0),
                 text_out(lib.tokenring_movement_range_bound_text, p, i, 1))
                for i in range(self.summary.range_count)]

    def sample_texts(self) -> List[str]:
        """The token of every sample (as :attr:`samples`) in Cassandra's text form
        (tokenring_movement_sample_token_text)."""
        p = self._p()
        return [text_out(lib.tokenring_movement_sample_token_text, p, i)
                for i in range(self.summary.sample_count)]

    @property
    def summary(self) -> MovementSummary:
        """The totals."""
        s = ffi.new("tokenring_movement_summary *")
        check(lib.tokenring_movement_get_summary(s, self._p()))
        return MovementSummary(u128(s.changed_width), u128(s.primary_changed_width),
                               u128(s.streamed_width), s.changed_fraction,
                               s.primary_changed_fraction, s.streamed_fraction, s.range_count,
                               s.stream_count, s.node_count, s.cleanup_count, s.sample_count,
                               s.samples_primary_changed, s.samples_replicas_changed)

    def _list(self, ptr: Any, count: int) -> Tuple[str, ...]:
        return tuple(self._names[i] for i in ffi.unpack(ptr, count)) if count else ()

    @property
    def nodes(self) -> List[MovementNode]:
        """Every node of either topology: nodes before in order, then new ones."""
        p = self._p()
        o = ffi.new("tokenring_movement_node *")
        out = []
        for i in range(len(self._names)):
            check(lib.tokenring_movement_get_node(o, p, i))
            out.append(MovementNode(c_str(o.name), u128(o.before_width), u128(o.after_width),
                                    u128(o.gained_width), u128(o.lost_width),
                                    u128(o.primary_before_width),
                                    u128(o.primary_after_width), o.gained_fraction,
                                    o.lost_fraction, bool(o.in_before), bool(o.in_after),
                                    bool(o.needs_cleanup)))
        return Rows.of(out, MovementNode._fields)

    @property
    def ranges(self) -> List[MovedRange]:
        """Every range whose replica set changes, in token order."""
        p = self._p()
        r = ffi.new("tokenring_moved_range *")
        out = []
        for i in range(self.summary.range_count):
            check(lib.tokenring_movement_get_range(r, p, i))
            start, end = self._bounds(p, i)
            out.append(MovedRange(start, end, u128(r.width),
                                  self._list(r.old_replicas, r.old_count),
                                  self._list(r.new_replicas, r.new_count)))
        return Rows.of(out, MovedRange._fields)

    @property
    def streams(self) -> List[Stream]:
        """Who streams which range to whom, in range order."""
        p = self._p()
        s = ffi.new("tokenring_stream *")
        out = []
        for i in range(self.summary.stream_count):
            check(lib.tokenring_movement_get_stream(s, p, i))
            start, end = self._bounds(p, s.range_index)
            out.append(Stream(start, end, u128(s.width), self._names[s.source],
                              self._names[s.destination], s.range_index, bool(s.strict)))
        return Rows.of(out, Stream._fields)

    @property
    def samples(self) -> List[SampleChange]:
        """What happens to each sample, in the order given."""
        p = self._p()
        s = ffi.new("tokenring_sample_change *")
        out = []
        for i in range(self.summary.sample_count):
            check(lib.tokenring_movement_get_sample(s, p, i))
            out.append(SampleChange(self._sample_token(p, i), self._list(s.old_replicas, s.old_count),
                                    self._list(s.new_replicas, s.new_count),
                                    self._names[s.old_owner], self._names[s.new_owner],
                                    bool(s.owner_changed), bool(s.replicas_changed)))
        return Rows.of(out, SampleChange._fields)

    def _sample_token(self, p: Any, i: int) -> AnyToken:
        return value_of(self.partitioner,
                        text_out(lib.tokenring_movement_sample_token_text, p, i))

    @property
    def cleanup(self) -> List[str]:
        """Nodes that afterwards hold data they no longer replicate (``nodetool cleanup``)."""
        return [n.name for n in self.nodes if n.needs_cleanup]

    def __repr__(self) -> str:
        if self.closed:
            return "<tokenring.Movement closed>"
        s = self.summary
        cleanup = self.cleanup
        return (f"<tokenring.Movement {self.kind.name.lower()}: {s.node_count} nodes, "
                f"{s.range_count} ranges change replicas ({100 * s.changed_fraction:.2f} % "
                f"of the token space, {100 * s.primary_changed_fraction:.2f} % change "
                f"owner), {s.stream_count} streams ({100 * s.streamed_fraction:.2f} % "
                f"streamed), cleanup on {', '.join(cleanup) if cleanup else 'no node'}>")


# -------------------------------------------------------------- availability

class Consistency(enum.IntEnum):
    """Consistency levels for :func:`availability`."""

    ONE = lib.TOKENRING_CL_ONE
    TWO = lib.TOKENRING_CL_TWO
    THREE = lib.TOKENRING_CL_THREE
    QUORUM = lib.TOKENRING_CL_QUORUM
    ALL = lib.TOKENRING_CL_ALL
    LOCAL_ONE = lib.TOKENRING_CL_LOCAL_ONE
    LOCAL_QUORUM = lib.TOKENRING_CL_LOCAL_QUORUM
    EACH_QUORUM = lib.TOKENRING_CL_EACH_QUORUM


class FailureSet(NamedTuple):
    """k failed nodes that leave some range below the consistency level, and the exact
    width (and fraction) of the token space they make unavailable: token values over
    2**64 (Murmur3) or 2**127 (RandomPartitioner), ranges on a ByteOrderedPartitioner
    ring, whose tokens have no width."""

    nodes: Tuple[str, ...]
    width: int
    fraction: float


def availability(ring: Ring, replication: ReplicationLike,
                 consistency: Consistency, k: int,
                 local_dc: Optional[str] = None,
                 progress: Optional[Progress] = None, *, budget: Budget = None,
                 down: Optional[Sequence[Any]] = None) -> List[FailureSet]:
    """Every set of exactly ``k`` failed nodes (1 .. AVAILABILITY_MAX_K) that leaves some
    range unable to reach ``consistency``, sorted by node index. ``progress(done, total)``
    is called as the analysis goes; a true result (or an exception) cancels it.

    ``down``: nodes already down (names or ring indices, e.g. the DN nodes of nodetool
    status), failed before the ``k`` more, as in :func:`availability_summary`: the sets
    are of nodes still up, and list what ``k`` more failures add (ranges unavailable
    already are left out).

    Raises:
        ImpossibleError: the level cannot be reached even with every node up.
        CancelledError: ``progress`` asked to stop.
        BudgetError: the estimated work is above ``budget`` (seconds, or "unlimited";
            default about 5 s); it carries the estimate.
    """
    if isinstance(consistency, str):
        consistency = Consistency[consistency.upper()]
    k = c_int(k, "k (failed nodes)", (1, AVAILABILITY_MAX_K))
    if down is not None:
        down = _down_indices(ring, down)
    repl = Replication.of(replication)
    pp = ffi.new("tokenring_availability **")
    err = new_error()
    c_local = c_name(local_dc, "datacenter") if local_dc is not None else ffi.NULL
    with progress_callback(progress) as (cb, _):
        lim, _keep = new_limits(budget, cb, down)
        rc = lib.tokenring_availability_build_limited(pp, ring._p(), repl._p(),
                                                      int(consistency), c_local, k, lim, err)
    budget_error(rc, err, lim)
    handle = ffi.gc(pp[0], lib.tokenring_availability_free)
    names = ring.node_names
    nodes = ffi.new("uint32_t[]", max(k, 1))
    width = ffi.new("tokenring_u128 *")
    frac = ffi.new("double *")
    out = []
    for i in range(lib.tokenring_availability_count(handle)):
        check(lib.tokenring_availability_get(nodes, width, frac, handle, i))
        out.append(FailureSet(tuple(names[j] for j in nodes[0:k]), u128(width), frac[0]))
    del handle
    return Rows.of(out, FailureSet._fields)


class FailureUnit(enum.IntEnum):
    """What fails together in :func:`availability_summary`."""

    NODES = lib.TOKENRING_FAIL_NODES
    RACKS = lib.TOKENRING_FAIL_RACKS
    DATACENTERS = lib.TOKENRING_FAIL_DATACENTERS


class WorstSet(NamedTuple):
    """One of the worst sets of a summary: the failed units (node names, ``"dc/rack"`` or
    datacenter names), their indices in the ring, and the exact unavailable width."""

    units: Tuple[str, ...]
    indices: Tuple[int, ...]
    width: int
    fraction: float


class AvailabilitySummary(NamedTuple):
    """How many of the ``sets`` = C(units, k) failure sets break the level, the largest
    unavailable width of any of them (0 when ``top`` was 0), and the worst sets."""

    consistency: "Consistency"
    unit: FailureUnit
    k: int
    sets: int
    breaking: int
    worst_width: int
    worst_fraction: float
    worst: List[WorstSet]
    #: the share of the ring unavailable already with the ``down`` nodes down (0 without)
    unavailable_already: float = 0.0

    to_pandas = row_to_pandas
    to_arrow = row_to_arrow

    def __repr__(self) -> str:
        return (f"AvailabilitySummary({self.consistency.name}, {self.unit.name.lower()}, "
                f"k={self.k}: {self.breaking} of {self.sets} sets break it, worst "
                f"{self.worst_fraction:.6%})")


def _down_indices(ring: Ring, down: Sequence[Any]) -> List[int]:
    """The ring indices of the nodes already down, given by name or index."""
    if isinstance(down, (str, bytes)):
        raise TypeError("down must be a sequence of node names or indices, not "
                        f"{type(down).__name__}")
    names_idx = {n: i for i, n in enumerate(ring.node_names)}
    out = []
    for i, d in enumerate(down):
        if isinstance(d, str):
            if d not in names_idx:
                raise KeyError(f"down[{i}]: no node named {d!r} in the ring")
            out.append(names_idx[d])
        else:
            out.append(c_int(d, f"down[{i}]"))
    return out


def _unit_names(ring: Ring, unit: FailureUnit) -> List[str]:
    if unit == FailureUnit.NODES:
        return list(ring.node_names)
    info = ffi.new("tokenring_node_info *")
    count = (lib.tokenring_ring_rack_count(ring._p()) if unit == FailureUnit.RACKS
             else lib.tokenring_ring_dc_count(ring._p()))
    names = [""] * count
    for i in range(lib.tokenring_ring_node_count(ring._p())):
        check(lib.tokenring_ring_node_brief(info, ring._p(), i))
        dc = ffi.string(info.datacenter).decode()
        if unit == FailureUnit.RACKS:
            names[info.rack_index] = dc + "/" + ffi.string(info.rack).decode()
        else:
            names[info.dc_index] = dc
    return names


def availability_summary(ring: Ring, replication: ReplicationLike,
                         consistency: Consistency, k: int,
                         local_dc: Optional[str] = None,
                         unit: Any = FailureUnit.NODES, top: int = 10,
                         progress: Optional[Progress] = None, *, budget: Budget = None,
                         down: Optional[Sequence[Any]] = None) -> AvailabilitySummary:
    """Counts the sets of ``k`` failed units (``"nodes"``, ``"racks"`` or
    ``"datacenters"``; a rack or datacenter fails with every node in it) that leave some
    range unable to reach ``consistency``, exactly and for any ``k``, and keeps the ``top``
    worst (largest unavailable width first). ``progress`` as for :func:`availability`.

    Raises:
        RangeError: ``k`` outside 1 .. the number of units, or C(units, k) >= 2**128.
        ImpossibleError: the level cannot be reached even with every node up.
        CancelledError: ``progress`` asked to stop.
        BudgetError: the estimated work is above ``budget`` (seconds, or "unlimited";
            default about 5 s); it carries the estimate.

    ``down``: nodes already down (names or ring indices, e.g. the DN nodes of nodetool
    status), failed before the ``k`` more: the counts are then of what ``k`` more
    failures add, and ``unavailable_already`` is what is unavailable already.
    """
    if isinstance(consistency, str):
        consistency = Consistency[consistency.upper()]
    consistency = Consistency(consistency)
    if down is not None:
        down = _down_indices(ring, down)
    if isinstance(unit, str):
        unit = FailureUnit[unit.upper()]
    unit = FailureUnit(unit)
    k = c_int(k, "k (failed units)", (1, 2 ** 32 - 1))
    top = c_int(top, "top", (0, 2 ** 64 - 1))  # more than 2**25 lists all: the same
    repl = Replication.of(replication)
    pp = ffi.new("tokenring_availability_summary **")
    err = new_error()
    c_local = c_name(local_dc, "datacenter") if local_dc is not None else ffi.NULL
    with progress_callback(progress) as (cb, _):
        lim, _keep = new_limits(budget, cb, down)
        rc = lib.tokenring_availability_summary_build_limited(
            pp, ring._p(), repl._p(), int(consistency), c_local, int(unit),
            k, min(top, 1 << 25), lim, err)
    budget_error(rc, err, lim)
    handle = ffi.gc(pp[0], lib.tokenring_availability_summary_free)
    dfrac = ffi.new("double *")
    check(lib.tokenring_availability_summary_down(ffi.NULL, dfrac, handle))
    b = ffi.new("tokenring_u128 *")
    t = ffi.new("tokenring_u128 *")
    w = ffi.new("tokenring_u128 *")
    check(lib.tokenring_availability_summary_counts(b, t, w, handle))
    names = _unit_names(ring, unit)
    k = lib.tokenring_availability_summary_k(handle)
    ids = ffi.new("uint32_t[]", max(k, 1))
    width = ffi.new("tokenring_u128 *")
    frac = ffi.new("double *")
    worst = []
    for i in range(lib.tokenring_availability_summary_top_count(handle)):
        check(lib.tokenring_availability_summary_top(ids, width, frac, handle, i))
        idx = tuple(ids[0:k])
        worst.append(WorstSet(tuple(names[j] for j in idx), idx, u128(width), frac[0]))
    del handle
    ww = u128(w)
    return AvailabilitySummary(consistency, unit, k, u128(t), u128(b), ww,
                               ww / _ring_space(ring), Rows.of(worst, WorstSet._fields), dfrac[0])


def _ring_space(ring: Ring) -> int:
    """The whole ring in the units of its availability widths: 2**64 token values
    (Murmur3), 2**127 (RandomPartitioner), its range count (ByteOrderedPartitioner, whose
    tokens have no width)."""
    return _TOKEN_SPACE.get(ring.partitioner) or max(len(ring), 1)


#: The token space of the partitioners with token arithmetic.
_TOKEN_SPACE = {Partitioner.MURMUR3: 2**64, Partitioner.RANDOM: 2**127}


# ----------------------------------------------------------------- migration

class MigrationNode(NamedTuple):
    """A node of the new datacenter with its planned tokens (ascending)."""

    name: str
    rack: str
    tokens: Tuple[int, ...]


class MigrationPlan(NamedTuple):
    """A num_tokens migration through a new datacenter: its nodes and the ordered steps."""

    nodes: List[MigrationNode]
    steps: List[str]


def migration_plan(topology: Topology, old_datacenter: str, new_datacenter: str,
                   node_names: Sequence[str], racks: Sequence[str], num_tokens: int, rf: int,
                   keyspaces: Mapping[str, ReplicationLike] = {},
                   progress: Optional[Progress] = None, *, budget: Budget = None,
                   max_num_tokens: Optional[int] = None) -> MigrationPlan:
    """Plans changing num_tokens by building ``new_datacenter`` (nodes ``node_names`` in
    ``racks``) and moving to it; the steps name the real keyspaces and nodes. Every
    keyspace with replicas in ``old_datacenter`` gets factor ``rf`` in the new one, or with
    ``rf=0`` keeps its factor there; every other datacenter is kept as it is (a
    SimpleStrategy keyspace in a cluster of several datacenters raises UnsupportedError).
    ``progress`` as for :func:`availability`."""
    if len(racks) != len(node_names):
        raise ValueError("racks must have one entry per node name")
    keep = [ffi.new("char[]", c_name(n)) for n in node_names]
    keep_r = [ffi.new("char[]", c_name(r, "rack")) for r in racks]
    ks_names = [ffi.new("char[]", c_name(k, "keyspace")) for k in keyspaces]
    repls = [Replication.of(v) for v in keyspaces.values()]
    c_names = ffi.new("char *[]", keep or [ffi.NULL])
    c_racks = ffi.new("char *[]", keep_r or [ffi.NULL])
    c_ks = ffi.new("char *[]", ks_names or [ffi.NULL])
    c_repl = ffi.new("tokenring_replication *[]", [r._p() for r in repls] or [ffi.NULL])
    pp = ffi.new("tokenring_migration **")
    err = new_error()
    old, new = c_name(old_datacenter, "datacenter"), c_name(new_datacenter, "datacenter")
    c_rf = c_int32(rf, "replication factor")
    num_tokens = c_int(num_tokens, "num_tokens", U32)
    with progress_callback(progress) as (cb, _):
        lim, _keep = new_limits(budget, cb, max_num_tokens=max_num_tokens)
        rc = lib.tokenring_migration_plan_limited(
            pp, topology._p(), old, new, c_names, c_racks, len(keep), num_tokens, c_rf,
            c_ks, c_repl, len(repls), lim, err)
    budget_error(rc, err, lim)
    plan = ffi.gc(pp[0], lib.tokenring_migration_free)
    name = ffi.new("const char **")
    rack = ffi.new("const char **")
    toks = ffi.new("const int64_t **")
    cnt = ffi.new("size_t *")
    nodes = []
    for i in range(lib.tokenring_migration_node_count(plan)):
        check(lib.tokenring_migration_node(name, rack, toks, cnt, plan, i))
        nodes.append(MigrationNode(c_str(name[0]), c_str(rack[0]),
                                   tuple(ffi.unpack(toks[0], cnt[0])) if cnt[0] else ()))
    steps = [c_str(lib.tokenring_migration_step(plan, i))
             for i in range(lib.tokenring_migration_step_count(plan))]
    del plan
    return MigrationPlan(nodes, steps)


class TokensKept(NamedTuple):
    """How the tokens of the nodes of one ring fare in another (tokenring_ring_tokens_kept)."""

    kept: int    #: tokens still held by the same node
    lost: int    #: tokens their node no longer holds (also a node that is gone)
    gained: int  #: tokens nodes of the first ring hold only in the second

    @property
    def unchanged(self) -> bool:
        """Every existing node kept exactly its tokens (what a join guarantees)."""
        return self.lost == 0 and self.gained == 0


def tokens_kept(before: Ring, after: Ring) -> TokensKept:
    """Which tokens of ``before`` the same nodes (by name) still hold in ``after``; tokens
    of nodes only in ``after`` (joining nodes) are not counted."""
    k, lo, g = ffi.new("size_t *"), ffi.new("size_t *"), ffi.new("size_t *")
    check(lib.tokenring_ring_tokens_kept(k, lo, g, require(before, "ring", "tokens_kept()"),
                                         require(after, "ring", "tokens_kept()")))
    return TokensKept(int(k[0]), int(lo[0]), int(g[0]))
