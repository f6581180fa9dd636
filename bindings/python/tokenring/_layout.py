# SPDX-License-Identifier: Apache-2.0
"""Choosing tokens (layout.h): seeded reproducible layouts, evenly spaced tokens and the
replication-aware allocator for joining nodes."""
from typing import Any, List, Optional, Sequence, Tuple, Union

from ._budget import Budget, budget_error, new_limits
from ._errors import check, new_error
from ._ffi import ffi, lib
from ._progress import Progress, progress_callback
from ._convert import U32, U64, c_int, c_int32, c_name
from ._handle import require
from ._node import rack_name as _rack_arg
from ._partitioner import Partitioner, _from_c as _token128
from ._replication import Replication
from ._tokentext import list_out, named_text, value_of
from ._topology import Topology

__all__ = ["seeded_token", "seeded_tokens", "add_seeded_nodes", "even_tokens",
           "seeded_token128", "seeded_tokens128", "even_tokens128",
           "allocate_tokens", "allocate_nodes", "LAYOUT_MAX_TOKENS", "assign_racks",
           "rack_name", "allocate_as_cassandra", "CASSANDRA_RELEASES"]

#: Most tokens per node the layout and allocation calls accept.
LAYOUT_MAX_TOKENS: int = lib.TOKENRING_LAYOUT_MAX_TOKENS


def _count(value: int, what: str = "num_tokens") -> int:
    """A count that sizes an output array: an int in 0 .. 2**32 - 1 (the library refuses
    0 and more than its limits with its own message)."""
    return c_int(value, what, U32)


def seeded_token(seed: int, identity: Union[str, bytes], vnode: int, attempt: int = 0) -> int:
    """The seeded token of one vnode of one node (the documented pure function of
    layout.h), without collision handling."""
    ident = identity.encode("utf-8") if isinstance(identity, str) else bytes(identity)
    out = ffi.new("int64_t *")
    check(lib.tokenring_layout_seeded_token(out, c_int(seed, "seed", U64), ident, len(ident),
                                            c_int(vnode, "vnode"), c_int(attempt, "attempt")))
    return out[0]


def seeded_tokens(count: int, seed: int, identity: Union[str, bytes],
                  taken: Optional[Topology] = None, strict: bool = False,
                  partitioner: Union[Partitioner, int, str] = Partitioner.MURMUR3) -> List[Any]:
    """The ``count`` seeded tokens of one node, in vnode order, avoiding the tokens of the
    other nodes of ``taken`` (a topology of ``partitioner``; collisions rehash, or raise
    ExistsError when ``strict``). ``partitioner`` RANDOM gives :func:`seeded_tokens128`'s
    tokens; ByteOrderedPartitioner has none (UnsupportedError)."""
    part = Partitioner.of(partitioner)
    return [value_of(part, t) for t in
            _seeded_texts(count, seed, identity, taken, strict, part, "seeded_tokens()")]


def _seeded_texts(count: int, seed: int, identity: Union[str, bytes], taken: Optional[Topology],
                  strict: bool, part: Partitioner, what: str) -> List[str]:
    count, seed = _count(count, "count"), c_int(seed, "seed", U64)
    pp = ffi.new("tokenring_token_list **")
    err = new_error()
    flags = lib.TOKENRING_LAYOUT_STRICT if strict else 0
    taken_p = require(taken, "topology", what) if taken is not None else ffi.NULL
    check(lib.tokenring_layout_seeded_tokens_text(pp, int(part), count, seed,
                                                  c_name(identity, "identity"), taken_p, flags,
                                                  err), err)
    return list_out(pp)


def seeded_token128(seed: int, identity: Union[str, bytes], vnode: int,
                    attempt: int = 0) -> int:
    """RandomPartitioner's seeded token (0 .. 2**127) of one vnode of one node: the
    RandomPartitioner token of the very byte string :func:`seeded_token` hashes with
    Murmur3 (layout.h), without collision handling."""
    ident = identity.encode("utf-8") if isinstance(identity, str) else bytes(identity)
    out = ffi.new("tokenring_token128 *")
    check(lib.tokenring_layout_seeded_token128(out, c_int(seed, "seed", U64), ident, len(ident),
                                               c_int(vnode, "vnode"), c_int(attempt, "attempt")))
    return _token128(out[0])


def seeded_tokens128(count: int, seed: int, identity: Union[str, bytes],
                     taken: Optional[Topology] = None, strict: bool = False) -> List[int]:
    """The ``count`` RandomPartitioner seeded tokens of one node, in vnode order, avoiding
    the tokens of the other nodes of ``taken`` (a RandomPartitioner topology, else
    UnsupportedError); collisions rehash, or raise ExistsError when ``strict``."""
    return [int(t) for t in _seeded_texts(count, seed, identity, taken, strict,
                                          Partitioner.RANDOM, "seeded_tokens128()")]


def add_seeded_nodes(topology: Topology, seed: int, tokens_per_node: int,
                     names: Sequence[str], datacenters: Optional[Sequence[str]] = None,
                     racks: Optional[Sequence[Optional[str]]] = None,
                     strict: bool = False) -> None:
    """Adds nodes with seeded tokens, in order: the same as
    :meth:`Topology.add_seeded_nodes` (kept as a function for existing callers)."""
    topology.add_seeded_nodes(seed, tokens_per_node, names, datacenters, racks, strict)


def even_tokens(num_tokens: int, slot: int = 0, slots: int = 1,
                partitioner: Union[Partitioner, int, str] = Partitioner.MURMUR3) -> List[Any]:
    """Evenly spaced tokens, ascending: MIN_TOKEN + floor((j*slots + slot) * 2**64 /
    (num_tokens*slots)), exact (``slot``/``slots``: e.g. rack number and rack count); with
    ``partitioner`` RANDOM those of :func:`even_tokens128` (ByteOrderedPartitioner has no
    token arithmetic: UnsupportedError). One call for every partitioner
    (tokenring_layout_even_tokens_text)."""
    part = Partitioner.of(partitioner)
    return [value_of(part, t) for t in _even_texts(num_tokens, slot, slots, part)]


def _even_texts(num_tokens: int, slot: int, slots: int, part: Partitioner) -> List[str]:
    num_tokens = _count(num_tokens)
    slot, slots = c_int(slot, "slot"), c_int(slots, "slots")
    pp = ffi.new("tokenring_token_list **")
    err = new_error()
    check(lib.tokenring_layout_even_tokens_text(pp, int(part), num_tokens, slot, slots, err),
          err)
    return list_out(pp)


def even_tokens128(num_tokens: int, slot: int = 0, slots: int = 1) -> List[int]:
    """Evenly spaced RandomPartitioner tokens, ascending: floor((j*slots + slot) * 2**127 /
    (num_tokens*slots)), exact; ``even_tokens128(1, i, n)`` is the classic initial_token
    i * 2**127 // n of node i of n."""
    return [int(t) for t in _even_texts(num_tokens, slot, slots, Partitioner.RANDOM)]


def allocate_tokens(topology: Topology, num_tokens: int, datacenter: str, rack: str,
                    rf: int, progress: Optional[Progress] = None) -> List[int]:
    """Deprecated: use :func:`allocate_join`, the library's join plan (Cassandra's tokens
    by default). Tokens (ascending) for one node joining ``datacenter``/``rack`` from the
    1.0 allocator (tokenring_allocate_tokens()): a datacenter grown node by node with it
    ended less balanced than with Cassandra's tokens on most growths of the sweep in
    doc/performance.md ("Growth sweep"). More tokens than the datacenter has ranges are
    accepted (the tokens beyond change nothing), as Cassandra accepts them.
    ``progress(done, total)`` is called per token; a true result (or an exception) cancels
    the call (:class:`CancelledError`)."""
    num_tokens = _count(num_tokens)
    out = ffi.new("int64_t[]", max(num_tokens, 1))
    err = new_error()
    topo = require(topology, "topology", "allocate_tokens()")
    dc, c_rf = c_name(datacenter, "datacenter"), c_int32(rf, "replication factor")
    c_rack = ffi.new("char[]", _rack_arg(rack))
    c_racks = ffi.new("char *[]", [c_rack])
    with progress_callback(progress) as (cb, _):
        if cb is ffi.NULL:
            rc = lib.tokenring_allocate_tokens(out, num_tokens, topo, dc, _rack_arg(rack), c_rf,
                                               0, err)
        else:
            rc = lib.tokenring_allocate_nodes_progress(
                out, num_tokens, topo, dc, c_racks, 1, c_rf,
                lib.TOKENRING_ALLOCATE_NODE_BY_NODE, cb, ffi.NULL, err)
    if rc == lib.TOKENRING_E_IMPOSSIBLE:
        # more tokens than the datacenter's ranges: tokenring_allocate_tokens() places the
        # tokens beyond them (the progress variant refuses, as tokenring_allocate_nodes)
        rc = lib.tokenring_allocate_tokens(out, num_tokens, topo, dc, _rack_arg(rack), c_rf,
                                           0, err)
    check(rc, err)
    return list(out[0:num_tokens])


def allocate_nodes(topology: Topology, num_tokens: int, datacenter: str,
                   racks: Sequence[str], rf: int, node_by_node: bool = False,
                   progress: Optional[Progress] = None, *, budget: Budget = None,
                   max_num_tokens: Optional[int] = None) -> List[List[int]]:
    """Plans ``len(racks)`` nodes joining ``datacenter`` together (node i in ``racks[i]``),
    without collisions; returns each node's tokens, ascending. The batch is refined
    jointly unless ``node_by_node``. ``progress`` as for :func:`allocate_tokens` (one unit
    per token, then one per refinement round)."""
    num_tokens = _count(num_tokens)
    count = len(racks)
    keep = [ffi.new("char[]", _rack_arg(r)) for r in racks]
    c_racks = ffi.new("char *[]", keep or [ffi.NULL])
    out = ffi.new("int64_t[]", max(count * num_tokens, 1))
    err = new_error()
    flags = lib.TOKENRING_ALLOCATE_NODE_BY_NODE if node_by_node else 0
    topo = require(topology, "topology", "allocate_nodes()")
    dc, c_rf = c_name(datacenter, "datacenter"), c_int32(rf, "replication factor")
    with progress_callback(progress) as (cb, _):
        lim, _keep = new_limits(budget, cb, max_num_tokens=max_num_tokens)
        rc = lib.tokenring_allocate_nodes_limited(out, num_tokens, topo, dc, c_racks, count,
                                                  c_rf, flags, lim, err)
    budget_error(rc, err, lim)
    return [list(out[i * num_tokens:(i + 1) * num_tokens]) for i in range(count)]


#: Release lines tokenring_allocate_cassandra() reproduces, by name.
CASSANDRA_RELEASES = {"4.0": lib.TOKENRING_CASSANDRA_4_0, "4.1": lib.TOKENRING_CASSANDRA_4_1,
                      "5.0": lib.TOKENRING_CASSANDRA_5_0}


def allocate_as_cassandra(topology: Topology, num_tokens: int, name: str, datacenter: str,
                          rack: str, rf: Optional[int] = None, keyspace=None,
                          first_token: Optional[int] = None, release: str = "5.0",
                          offline: bool = False) -> List[int]:
    """The tokens (ascending) Cassandra ``release`` ("4.0", "4.1" or "5.0") gives node
    ``name`` (its address) bootstrapping into ``datacenter``/``rack`` with
    ``allocate_tokens_for_local_replication_factor: rf`` or, with ``keyspace`` (a
    :data:`ReplicationLike`), ``allocate_tokens_for_keyspace``; bit for bit.
    ``first_token`` is the random token Cassandra starts an empty ring at; ``offline``
    follows the ``generatetokens`` tool instead (racks ignored).

    On a RandomPartitioner topology the tokens are ints in 0 .. 2**127
    (tokenring_allocate_cassandra128()); a ByteOrderedPartitioner topology raises
    UnsupportedError (Cassandra has no allocation for it)."""
    if (rf is None) == (keyspace is None):
        raise TypeError("allocate_as_cassandra() takes exactly one of rf and keyspace")
    num_tokens = _count(num_tokens)
    if release not in CASSANDRA_RELEASES:
        raise ValueError(f"unknown Cassandra release {release!r} "
                         f"(known: {', '.join(CASSANDRA_RELEASES)})")
    topo = require(topology, "topology", "allocate_as_cassandra()")
    repl = Replication.of(keyspace) if keyspace is not None else None
    args = (c_name(name, "node name"), c_name(datacenter, "datacenter"), _rack_arg(rack),
            repl._p() if repl is not None else ffi.NULL,
            c_int32(rf if rf is not None else 0, "replication factor"))
    flags = lib.TOKENRING_CASSANDRA_OFFLINE if offline else 0
    err = new_error()
    part = topology.partitioner
    first = (named_text(part, first_token, "first_token").encode("ascii")
             if first_token is not None else ffi.NULL)
    pp = ffi.new("tokenring_token_list **")
    check(lib.tokenring_allocate_cassandra_text(pp, num_tokens, topo, *args, first,
                                                CASSANDRA_RELEASES[release], flags, ffi.NULL,
                                                err), err)
    return [value_of(part, t) for t in list_out(pp)]


def allocate_join(topology: Topology, num_tokens: int, name: str, datacenter: str,
                  rack: str, rf: Optional[int] = None, keyspace=None,
                  release: str = "5.0", *, budget: Budget = None,
                  max_num_tokens: Optional[int] = None,
                  one_step: bool = False) -> List[int]:
    """The library's join plan (tokens ascending) for node ``name`` joining
    ``datacenter``/``rack``, final when it joins: by default the tokens Cassandra
    ``release`` would choose, bit for bit (an empty datacenter starts at token 0), so a
    datacenter grown node by node ends exactly as balanced as under Cassandra's allocator;
    the allocator's plan only where Cassandra gives none. ``one_step=True``
    (TOKENRING_JOIN_BEST_ONE_STEP) picks the tokens best for this one join instead: never
    less balanced (max/mean, then min/mean of effective ownership in the datacenter,
    primary while it has at most rf nodes) than Cassandra's for this join, but a
    datacenter grown join after join that way can end less balanced than Cassandra's (12
    of 82 growths of the reduced sweep, doc/performance.md "Growth sweep"). Balance under
    ``keyspace`` (a :data:`ReplicationLike`; SimpleStrategy balances the whole cluster,
    racks ignored) or NetworkTopologyStrategy ``{datacenter: rf}``. On a RandomPartitioner
    topology the tokens are ints 0 .. 2**127 (tokenring_allocate_join128()). See
    tokenring_allocate_join()."""
    if (rf is None) == (keyspace is None):
        raise TypeError("allocate_join() takes exactly one of rf and keyspace")
    num_tokens = _count(num_tokens)
    if release not in CASSANDRA_RELEASES:
        raise ValueError(f"unknown Cassandra release {release!r} "
                         f"(known: {', '.join(CASSANDRA_RELEASES)})")
    repl = Replication.of(keyspace) if keyspace is not None else None
    topo = require(topology, "topology", "allocate_join()")
    args = (c_name(name, "node name"), c_name(datacenter, "datacenter"), _rack_arg(rack),
            repl._p() if repl is not None else ffi.NULL,
            c_int32(rf if rf is not None else 0, "replication factor"),
            CASSANDRA_RELEASES[release], lib.TOKENRING_JOIN_BEST_ONE_STEP if one_step else 0)
    err = new_error()
    lim, _keep = new_limits(budget, max_num_tokens=max_num_tokens)
    pp = ffi.new("tokenring_token_list **")
    budget_error(lib.tokenring_allocate_join_text(pp, num_tokens, topo, *args, lim, err), err,
                 lim)
    return [value_of(topology.partitioner, t) for t in list_out(pp)]


def assign_racks(node_count: int, racks: int = 1, datacenters: int = 1,
                 nodes_per_rack: Optional[Sequence[int]] = None) -> List[Tuple[int, int]]:
    """The (datacenter, rack) indices, 0-based, of ``node_count`` new nodes in join order:
    round-robin over the datacenters, then within each over its racks, a rack skipped once
    it holds ``nodes_per_rack[r]`` nodes (as ``generatetokens --racks`` takes them; then
    ``racks`` is ``len(nodes_per_rack)``). Name a rack with :func:`rack_name`.

    >>> assign_racks(6, nodes_per_rack=[2, 1, 3])
    [(0, 0), (0, 1), (0, 2), (0, 0), (0, 2), (0, 2)]
    """
    node_count = _count(node_count, "node_count")
    datacenters = c_int(datacenters, "datacenters")
    counts = ffi.NULL
    if nodes_per_rack is not None:
        racks = len(nodes_per_rack)
        counts = ffi.new("uint32_t[]", [c_int(c, f"nodes_per_rack[{i}]")
                                        for i, c in enumerate(nodes_per_rack)] or [0])
    racks = c_int(racks, "racks")
    dc_out = ffi.new("uint32_t[]", max(node_count, 1))
    rack_out = ffi.new("uint32_t[]", max(node_count, 1))
    err = new_error()
    check(lib.tokenring_layout_assign_racks(dc_out, rack_out, node_count, datacenters, racks,
                                            counts, err), err)
    return [(int(dc_out[i]), int(rack_out[i])) for i in range(node_count)]


def rack_name(rack: int) -> str:
    """The name of rack ``rack`` (0-based) of :func:`assign_racks`: "rack1", "rack2", ..."""
    buf = ffi.new("char[]", 16)
    n = ffi.new("size_t *")
    check(lib.tokenring_layout_rack_name(buf, 16, n, c_int(rack, "rack")))
    return ffi.string(buf, n[0]).decode()
