# SPDX-License-Identifier: Apache-2.0
"""Cluster descriptions: the topology file, ``nodetool ring``/``status``/``describering``
text and cqlsh output of the system tables, parsed and merged by libtokenring (parse.h)."""
import enum
import os
from typing import Any, Dict, List, NamedTuple, Optional, Tuple, Union

from ._errors import EmptyError, check, new_error
from ._ffi import ffi, lib
from ._convert import c_name, c_str
from ._handle import Handle
from ._node import Liveness, NodeState
from ._partitioner import Partitioner
from ._replication import Replication, ReplicationLike, replication_text
from ._ring import Ring
from ._topology import Topology

__all__ = ["InputFormat", "ClusterNode", "Cluster", "detect_format"]


class InputFormat(enum.IntEnum):
    """Text formats the parsers understand (tokenring_input_format)."""

    AUTO = lib.TOKENRING_INPUT_AUTO
    TOPOLOGY = lib.TOKENRING_INPUT_TOPOLOGY
    TSV = lib.TOKENRING_INPUT_TSV
    NODETOOL_RING = lib.TOKENRING_INPUT_NODETOOL_RING
    NODETOOL_STATUS = lib.TOKENRING_INPUT_NODETOOL_STATUS
    CQLSH = lib.TOKENRING_INPUT_CQLSH
    NODETOOL_DESCRIBERING = lib.TOKENRING_INPUT_NODETOOL_DESCRIBERING

    @property
    def short_name(self) -> str:
        """"topology", "tsv", "nodetool-ring", "nodetool-status", "cqlsh",
        "nodetool-describering" or "auto"."""
        return ffi.string(lib.tokenring_input_format_name(int(self))).decode()


def _text(text: Union[str, bytes]) -> bytes:
    return text.encode("utf-8") if isinstance(text, str) else bytes(text)


def detect_format(text: Union[str, bytes]) -> InputFormat:
    """Guesses the format of a text from its first lines (AUTO when nothing matches)."""
    raw = _text(text)
    return InputFormat(lib.tokenring_input_detect(raw, len(raw)))


class ClusterNode(NamedTuple):
    """A node of a cluster description; ``tokens`` is empty when the input did not list
    them (``declared_tokens`` then holds the count it gave). Tokens are ints (Murmur3,
    RandomPartitioner) or bytes (ByteOrderedPartitioner)."""

    name: str
    datacenter: str
    rack: str
    host_id: Optional[str]
    tokens: Tuple[Any, ...]
    declared_tokens: int
    state: NodeState
    liveness: Liveness
    line: int


class Cluster(Handle):
    """A cluster description: nodes (with tokens when known) and keyspaces. Several inputs
    merge into one (e.g. cqlsh ``system.peers_v2`` plus ``system.local``, or ``nodetool
    status`` for host IDs plus ``nodetool ring`` for tokens). A failing parse leaves the
    cluster as it was and raises with the line and column.

    >>> c = Cluster.parse("node A dc=dc1 rack=r1 tokens=10,50\\n")
    >>> c.ring().owner(42)
    'A'
    """

    _kind = "cluster"

    def __init__(self, partitioner: Optional[Union[Partitioner, int, str]] = None) -> None:
        """An empty cluster; ``partitioner`` fixes the partitioner its inputs' tokens are
        read in (see :meth:`set_partitioner`)."""
        pp = ffi.new("tokenring_cluster **")
        check(lib.tokenring_cluster_new(pp))
        self._ptr = ffi.gc(pp[0], lib.tokenring_cluster_free)
        if partitioner is not None:
            self.set_partitioner(partitioner)

    @classmethod
    def parse(cls, text: Union[str, bytes], format: InputFormat = InputFormat.AUTO,
              allow_partial: bool = False,
              partitioner: Optional[Union[Partitioner, int, str]] = None) -> "Cluster":
        """A new cluster from one text (see :meth:`add`)."""
        c = cls(partitioner)
        c.add(text, format, allow_partial)
        return c

    @classmethod
    def from_file(cls, path: Union[str, "os.PathLike[str]"],
                  format: InputFormat = InputFormat.AUTO,
                  allow_partial: bool = False,
                  partitioner: Optional[Union[Partitioner, int, str]] = None) -> "Cluster":
        """A new cluster from a file."""
        with open(path, "rb") as f:
            return cls.parse(f.read(), format, allow_partial, partitioner)

    def set_partitioner(self, partitioner: Union[Partitioner, int, str]) -> None:
        """Fixes the partitioner whose string form the inputs give tokens in.

        Without it, an input's tokens are Murmur3 tokens when every one is a signed 64-bit
        decimal, else RandomPartitioner tokens (decimals 0 .. 2**127), else
        ByteOrderedPartitioner tokens (hex); a topology file's ``partitioner`` line and
        cqlsh ``system.local``'s ``partitioner`` column name it too.

        Raises:
            ExistsError: the cluster already has another partitioner (its tokens, an
                earlier call or an input named it).
        """
        err = new_error()
        check(lib.tokenring_cluster_set_partitioner(self._p(), int(Partitioner.of(partitioner)),
                                                    err), err)

    @property
    def partitioner(self) -> Partitioner:
        """The partitioner of the cluster's tokens (Murmur3 while none is known)."""
        return Partitioner(lib.tokenring_cluster_partitioner(self._p()))

    def add(self, text: Union[str, bytes], format: InputFormat = InputFormat.AUTO,
            allow_partial: bool = False, merge_disjoint: bool = False) -> InputFormat:
        """Parses ``text`` and merges it in; returns the format actually parsed.

        Args:
            text: the text (str or bytes).
            format: the format, or AUTO to detect it.
            allow_partial: accept a visibly incomplete listing (an elided ``...`` line, a
                cut token set, a datacenter block or table without rows);
                :attr:`partial` then becomes True.
            merge_disjoint: merge ``text`` although it shares no node with the nodes
                already read (nodetool and cqlsh outputs; by default that is an error:
                the outputs of two clusters).
        Raises:
            ParseError: malformed or cut text (``line``, ``column`` and the message say
                where and what was expected); ExistsError: a token held twice or a merge
                conflict; InvalidArgumentError: an input sharing no node with the
                cluster's without ``merge_disjoint``.
        """
        raw = _text(text)
        fmt = ffi.new("int *")
        err = new_error()
        flags = lib.TOKENRING_PARSE_ALLOW_PARTIAL if allow_partial else 0
        if merge_disjoint:
            flags |= lib.TOKENRING_PARSE_MERGE_DISJOINT
        check(lib.tokenring_cluster_parse(self._p(), int(format), raw, len(raw), flags, fmt,
                                          err), err)
        return InputFormat(fmt[0])

    def add_topology(self, topology: Topology) -> None:
        """Adds every node of a topology (merge rules of :meth:`add`)."""
        err = new_error()
        check(lib.tokenring_cluster_add_topology(self._p(), topology._p(), err), err)

    def add_keyspace(self, name: str, replication: ReplicationLike) -> None:
        """Adds a keyspace with its replication (copied)."""
        repl = Replication.of(replication)
        err = new_error()
        check(lib.tokenring_cluster_add_keyspace(self._p(), c_name(name, "keyspace"), repl._p(),
                                                 err), err)

    def __len__(self) -> int:
        return lib.tokenring_cluster_node_count(self._p())

    @property
    def nodes(self) -> List[ClusterNode]:
        """Every node, in the order the inputs first named them."""
        p = self._p()
        info = ffi.new("tokenring_cluster_node_info *")
        out = []
        topo = None
        for i in range(lib.tokenring_cluster_node_count(p)):
            check(lib.tokenring_cluster_node(info, p, i))
            toks = tuple(ffi.unpack(info.tokens, info.token_count)) \
                if info.token_count and info.tokens != ffi.NULL else ()
            if info.tokens == ffi.NULL and info.declared_tokens and not self.tokens_unknown:
                # no int64 array (the other partitioners): the topology's tokens, same order
                topo = topo if topo is not None else self.topology()
                toks = topo.node(i).tokens
            out.append(ClusterNode(
                c_str(info.name), c_str(info.datacenter), c_str(info.rack),
                c_str(info.host_id) if info.host_id != ffi.NULL else None, toks,
                info.declared_tokens, NodeState(info.state), Liveness(info.liveness),
                info.line))
        return out

    @property
    def flags(self) -> int:
        """TOKENRING_CLUSTER_* bits."""
        return lib.tokenring_cluster_flags(self._p())

    @property
    def partial(self) -> bool:
        """An input was accepted incomplete: the tokens are a subset of the real ring's."""
        return bool(self.flags & lib.TOKENRING_CLUSTER_PARTIAL)

    @property
    def partitioner_inferred(self) -> bool:
        """The partitioner (RandomPartitioner or ByteOrderedPartitioner) was inferred from
        the tokens' form, not fixed or named by an input (Murmur3, the default, never is)."""
        return bool(self.flags & lib.TOKENRING_CLUSTER_PARTITIONER_INFERRED)

    @property
    def tokens_unknown(self) -> bool:
        """Some node's tokens are unknown (``nodetool status`` alone): no ring."""
        return bool(self.flags & lib.TOKENRING_CLUSTER_TOKENS_UNKNOWN)

    @property
    def default_dc_rack(self) -> bool:
        """An input gave some node's tokens without its datacenter and rack (cqlsh
        ``SELECT peer, tokens FROM system.peers_v2``): it is in ``datacenter1``, rack
        ``rack1`` (Cassandra's SimpleSnitch defaults); a ``system.local`` row without its
        address is the node ``local``."""
        return bool(self.flags & lib.TOKENRING_CLUSTER_DEFAULT_DC_RACK)

    def topology(self) -> Topology:
        """A copy of the cluster's nodes as a :class:`Topology` (independent of the
        cluster). EmptyError when there is no node or some tokens are unknown."""
        p = self._p()
        borrowed = lib.tokenring_cluster_topology(p)
        if borrowed == ffi.NULL:
            why = "some node's tokens are unknown" if self.tokens_unknown else "it has no node"
            raise EmptyError(lib.TOKENRING_E_EMPTY, f"the cluster has no topology: {why}")
        pp = ffi.new("tokenring_topology **")
        check(lib.tokenring_topology_clone(pp, borrowed))
        return Topology._adopt(pp[0])

    def ring(self) -> Ring:
        """The :class:`Ring` of the cluster's nodes."""
        with self.topology() as topo:
            return Ring(topo)

    @property
    def keyspaces(self) -> Dict[str, Replication]:
        """``{keyspace: Replication}`` in the order they were added (copies)."""
        p = self._p()
        name = ffi.new("const char **")
        repl = ffi.new("const tokenring_replication **")
        out = {}
        for i in range(lib.tokenring_cluster_keyspace_count(p)):
            check(lib.tokenring_cluster_keyspace(name, repl, p, i))
            out[c_str(name[0])] = Replication.parse(replication_text(repl[0]))
        return out

    @property
    def nodetool_columns(self) -> Dict[str, Tuple[Optional[str], Optional[str]]]:
        """``{node: (load, owns)}``: the Load and Owns cells a pasted ``nodetool status`` or
        ``ring`` printed for each node (e.g. ``("105.3 KiB", "33.5%")``), ``None`` where it
        printed ``?`` or the input had none. nodetool's figures, as pasted."""
        p = self._p()
        load = ffi.new("const char **")
        owns = ffi.new("const char **")
        out = {}
        for i, node in enumerate(self.nodes):
            check(lib.tokenring_cluster_node_columns(load, owns, p, i))
            out[node.name] = (c_str(load[0]) if load[0] != ffi.NULL else None,
                              c_str(owns[0]) if owns[0] != ffi.NULL else None)
        return out

    @property
    def skipped_keyspaces(self) -> Dict[str, str]:
        """``{keyspace: replication class}`` of the keyspaces a cqlsh ``SELECT * FROM
        system_schema.keyspaces`` table listed but the cluster does not keep: their class
        (LocalStrategy, EverywhereStrategy, MetaStrategy) places nothing on the token
        ring. The class is as cqlsh printed it (full Java name). In reading order."""
        p = self._p()
        name = ffi.new("const char **")
        cls = ffi.new("const char **")
        out = {}
        for i in range(lib.tokenring_cluster_skipped_keyspace_count(p)):
            check(lib.tokenring_cluster_skipped_keyspace(name, cls, p, i))
            out[c_str(name[0])] = c_str(cls[0])
        return out

    def keyspace(self, name: str) -> Replication:
        """The replication of keyspace ``name``. NotFoundError if unknown."""
        p = self._p()
        idx = ffi.new("size_t *")
        check(lib.tokenring_cluster_find_keyspace(idx, p, c_name(name, "keyspace")))
        repl = ffi.new("const tokenring_replication **")
        check(lib.tokenring_cluster_keyspace(ffi.NULL, repl, p, idx[0]))
        return Replication.parse(replication_text(repl[0]))

    def format(self) -> str:
        """The cluster in the topology file format (parsing it gives the same cluster)."""
        p = self._p()
        n = ffi.new("size_t *")
        rc = lib.tokenring_cluster_format(ffi.NULL, 0, n, p)
        if rc not in (0, lib.TOKENRING_E_BUFSIZE):
            check(rc)
        buf = ffi.new("char[]", n[0] + 1)
        check(lib.tokenring_cluster_format(buf, n[0] + 1, n, p))
        return ffi.string(buf, n[0]).decode("utf-8")

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return "<tokenring.Cluster closed>" if self.closed else \
            f"<tokenring.Cluster {len(self)} nodes, {len(self.keyspaces)} keyspaces>"
