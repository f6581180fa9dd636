# SPDX-License-Identifier: Apache-2.0
"""Topologies: the mutable set of nodes (name, datacenter, rack, tokens, state) that
rings are built from (topology.h)."""
from typing import Any, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from ._convert import U64, c_index, c_int, c_name
from ._errors import check, new_error
from ._ffi import ffi, lib
from ._handle import Handle
from ._node import Liveness, Node, NodeState, node_from_info, rack_name
from ._partitioner import Partitioner
from ._ring import Ring
from ._tokentext import c_texts, text_out, value_of

__all__ = ["Topology"]


def _texts(tokens: Iterable[str]) -> List[str]:
    out = list(tokens)
    for t in out:
        if not isinstance(t, str):
            raise TypeError(f"a token's text is str, not {type(t).__name__}")
    return out


class Topology(Handle):
    """A mutable set of nodes (name, datacenter, rack, tokens, state). Use it from one
    thread at a time; build immutable :class:`Ring` snapshots from it.

    >>> topo = Topology()
    >>> topo.add_node("A", "dc1", "r1", [10, 50])
    """

    _kind = "topology"

    def __init__(self, nodes: Iterable[Tuple[str, str, Optional[str], Iterable[Any]]] = (),
                 partitioner: Union[Partitioner, int, str] = Partitioner.MURMUR3) -> None:
        """Creates a topology, optionally with ``(name, datacenter, rack, tokens)`` nodes.
        ``partitioner`` (a :class:`Partitioner` or a name such as ``"random"`` or
        ``"org.apache.cassandra.dht.ByteOrderedPartitioner"``) decides the tokens: ints
        of -2**63 .. 2**63-1 (Murmur3, the default), ints of 0 .. 2**127 (Random), or
        ``bytes`` (ByteOrdered)."""
        pp = ffi.new("tokenring_topology **")
        check(lib.tokenring_topology_new_partitioned(pp, int(Partitioner.of(partitioner))))
        self._ptr = ffi.gc(pp[0], lib.tokenring_topology_free)
        for name, dc, rack, toks in nodes:
            self.add_node(name, dc, rack, toks)

    @classmethod
    def _adopt(cls, ptr: Any) -> "Topology":
        self = cls.__new__(cls)
        self._ptr = ffi.gc(ptr, lib.tokenring_topology_free)
        return self

    @property
    def partitioner(self) -> Partitioner:
        """The topology's partitioner."""
        return Partitioner(lib.tokenring_topology_partitioner(self._p()))

    def add_node(self, name: Union[str, bytes], datacenter: Union[str, bytes],
                 rack: Optional[Union[str, bytes]], tokens: Iterable[Any]) -> None:
        """Adds a node in state NORMAL, UP, with tokens of the topology's partitioner in
        any order: ints (Murmur3, RandomPartitioner) or bytes (ByteOrderedPartitioner),
        added by one call for every partitioner (tokenring_topology_add_node_text; see
        :meth:`add_node_text` for tokens as Cassandra prints them). A missing rack
        (None, as a null ``rack`` of ``system.peers`` reads) is :data:`DEFAULT_RACK`,
        the rack Cassandra gives such a node.

        Raises:
            ExistsError: the name exists, a token repeats or is held by another node.
            EmptyError: no tokens. InvalidArgumentError / RangeError / ParseError: a bad
            name, or a token outside the partitioner's range or not its text.
            TypeError: a token of another partitioner's type.
        On failure the topology is unchanged.
        """
        err = new_error()
        arr, n, _keep = c_texts(self.partitioner, tokens)
        check(lib.tokenring_topology_add_node_text(self._p(), c_name(name),
                                                   c_name(datacenter, "datacenter"),
                                                   rack_name(rack), arr, n, err), err)

    def add_node_text(self, name: Union[str, bytes], datacenter: Union[str, bytes],
                      rack: Optional[Union[str, bytes]], tokens: Iterable[str]) -> None:
        """:meth:`add_node` with the tokens in Cassandra's text form for the topology's
        partitioner, as ``nodetool ring`` or ``system.peers`` print them: ``"-42"``
        (Murmur3), ``"-1"`` .. ``"170141183460469231731687303715884105728"``
        (RandomPartitioner), hex ``"0abc"`` (ByteOrderedPartitioner, either case).

        Raises:
            ParseError / RangeError: a token that is not one of the partitioner's, named
            with its position; and :meth:`add_node`'s errors.
        """
        err = new_error()
        arr, n, _keep = c_texts(self.partitioner, _texts(tokens), text=True)
        check(lib.tokenring_topology_add_node_text(self._p(), c_name(name),
                                                   c_name(datacenter, "datacenter"),
                                                   rack_name(rack), arr, n, err), err)

    def set_tokens_text(self, name: Union[str, bytes], tokens: Iterable[str]) -> None:
        """:meth:`set_tokens` with the tokens in Cassandra's text form (as for
        :meth:`add_node_text`)."""
        err = new_error()
        arr, n, _keep = c_texts(self.partitioner, _texts(tokens), text=True)
        check(lib.tokenring_topology_set_tokens_text(self._p(), c_name(name), arr, n, err), err)

    def add_seeded_nodes(self, seed: int, tokens_per_node: int, names: Sequence[str],
                         datacenters: Optional[Sequence[str]] = None,
                         racks: Optional[Sequence[Optional[str]]] = None,
                         strict: bool = False) -> None:
        """Adds nodes with seeded tokens (layout.h), in order, each against the topology
        as it stands after the previous ones. Existing tokens never change; on failure
        nothing is added. ``datacenters``/``racks`` default to "datacenter1"/"rack1"; a
        None rack is :data:`DEFAULT_RACK`. Collisions rehash, or raise ExistsError when
        ``strict``. A RandomPartitioner topology gets RandomPartitioner's seeded tokens
        (:func:`seeded_tokens128`); a ByteOrderedPartitioner one raises UnsupportedError."""
        n = len(names)
        for seq, what in ((datacenters, "datacenters"), (racks, "racks")):
            if seq is not None and len(seq) != n:
                raise ValueError(f"{what} must have one entry per name")
        keep = [[ffi.new("char[]", c_name(v)) for v in names]]
        c_names = ffi.new("char *[]", keep[0] or [ffi.NULL])
        c_dcs = c_racks = ffi.NULL
        if datacenters is not None:
            keep.append([ffi.new("char[]", c_name(v, "datacenter")) for v in datacenters])
            c_dcs = ffi.new("char *[]", keep[-1] or [ffi.NULL])
        if racks is not None:
            keep.append([ffi.new("char[]", rack_name(v)) for v in racks])
            c_racks = ffi.new("char *[]", keep[-1] or [ffi.NULL])
        err = new_error()
        flags = lib.TOKENRING_LAYOUT_STRICT if strict else 0
        seed = c_int(seed, "seed", U64)
        tokens_per_node = c_int(tokens_per_node, "tokens_per_node")
        check(lib.tokenring_layout_add_seeded_nodes(self._p(), seed, tokens_per_node,
                                                    c_names, c_dcs, c_racks, n, flags, err),
              err)

    def remove_node(self, name: Union[str, bytes]) -> None:
        """Removes a node (a completed decommission). NotFoundError if unknown."""
        err = new_error()
        check(lib.tokenring_topology_remove_node(self._p(), c_name(name), err), err)

    def replace_node(self, old_name: Union[str, bytes], new_name: Union[str, bytes]) -> None:
        """Replaces a node by a new one that takes its datacenter, rack, tokens and index."""
        err = new_error()
        check(lib.tokenring_topology_replace_node(self._p(), c_name(old_name),
                                                  c_name(new_name), err), err)

    def set_tokens(self, name: Union[str, bytes], tokens: Iterable[Any]) -> None:
        """Gives a node a new set of tokens (a completed move), of the topology's
        partitioner (as for :meth:`add_node`)."""
        err = new_error()
        arr, n, _keep = c_texts(self.partitioner, tokens)
        check(lib.tokenring_topology_set_tokens_text(self._p(), c_name(name), arr, n, err), err)

    def set_state(self, name: Union[str, bytes], state: Union[NodeState, int] = NodeState.NORMAL,
                  liveness: Union[Liveness, int] = Liveness.UP) -> None:
        """Sets a node's ring state and liveness. Only NORMAL, LEAVING and MOVING nodes'
        tokens form a ring (a JOINING node's tokens are pending ranges)."""
        err = new_error()
        check(lib.tokenring_topology_set_state(self._p(), c_name(name), int(state),
                                               int(liveness), err), err)

    def __len__(self) -> int:
        return lib.tokenring_topology_node_count(self._p())

    def index(self, name: Union[str, bytes]) -> int:
        """Index of a node (insertion order). NotFoundError if unknown."""
        out = ffi.new("size_t *")
        check(lib.tokenring_topology_find_node(out, self._p(), c_name(name)))
        return out[0]

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, (str, bytes)):
            return False
        out = ffi.new("size_t *")
        return lib.tokenring_topology_find_node(out, self._p(), c_name(name)) == 0

    def node(self, index: int) -> Node:
        """Node ``index`` (0-based insertion order; negative indices count from the end)."""
        p = self._p()
        index = c_int(index, "node index", (-2 ** 63, 2 ** 63 - 1))
        if index < 0:
            index += lib.tokenring_topology_node_count(p)
        if index < 0:
            raise IndexError("node index out of range")
        info = ffi.new("tokenring_node_info *")
        check(lib.tokenring_topology_node(info, p, c_index(index, "node index")))
        return self._full(node_from_info(info), index, info)

    def _full(self, node: Node, index: int, info: Any) -> Node:
        """node with its tokens: the node info's int64 array (Murmur3), else read one by
        one in the text form (the other partitioners' node info has no token array)."""
        if info.tokens != ffi.NULL or not info.token_count:
            return node
        return node._replace(tokens=tuple(self.node_token_texts(index, values=True)))

    def node_token_texts(self, index: int, values: bool = False) -> List[Any]:
        """The tokens (ascending) of node ``index`` in Cassandra's text form
        (tokenring_topology_node_token_text), for any partitioner; with ``values`` as the
        partitioner's Python values instead (:attr:`Node.tokens`)."""
        p = self._p()
        index = c_index(index, "node index")
        info = ffi.new("tokenring_node_info *")
        check(lib.tokenring_topology_node(info, p, index))
        part = self.partitioner
        texts = [text_out(lib.tokenring_topology_node_token_text, p, index, k)
                 for k in range(info.token_count)]
        return [value_of(part, t) for t in texts] if values else texts

    @property
    def nodes(self) -> List[Node]:
        """Every node, in insertion order."""
        p = self._p()
        info = ffi.new("tokenring_node_info *")
        out = []
        for i in range(lib.tokenring_topology_node_count(p)):
            check(lib.tokenring_topology_node(info, p, i))
            out.append(self._full(node_from_info(info), i, info))
        return out

    def __iter__(self) -> Iterator[Node]:
        return iter(self.nodes)

    def clone(self) -> "Topology":
        """A deep copy."""
        pp = ffi.new("tokenring_topology **")
        check(lib.tokenring_topology_clone(pp, self._p()))
        return Topology._adopt(pp[0])

    def build(self) -> Ring:
        """An immutable :class:`Ring` snapshot of the current nodes."""
        return Ring(self)

    def __repr__(self) -> str:
        return "<tokenring.Topology closed>" if self.closed else \
            f"<tokenring.Topology {len(self)} nodes>"
