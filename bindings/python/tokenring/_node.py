# SPDX-License-Identifier: Apache-2.0
"""Nodes as topologies and rings describe them: state, liveness, the Node record, and the
rack a node without one gets."""
import enum
from typing import Any, NamedTuple, Optional, Tuple, Union

from ._convert import c_name, c_str
from ._ffi import ffi, lib

__all__ = ["NodeState", "Liveness", "Node", "DEFAULT_RACK", "node_from_info", "rack_name"]

#: The rack Cassandra gives a node whose rack is missing: DEFAULT_RACK of Cassandra's
#: locator/GossipingPropertyFileSnitch.java, which getRack() returns when neither gossip
#: nor system.peers has the node's rack (db/SystemKeyspace.java loadDcRackInfo skips a
#: peers row whose rack is null). The library's TOKENRING_DEFAULT_RACK.
DEFAULT_RACK = ffi.string(lib.TOKENRING_DEFAULT_RACK).decode("ascii")


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


def node_from_info(info: Any) -> Node:
    """A :class:`Node` from a filled ``tokenring_node_info``."""
    return Node(c_str(info.name), c_str(info.datacenter), c_str(info.rack),
                tuple(ffi.unpack(info.tokens, info.token_count))
                if info.token_count and info.tokens != ffi.NULL else (),
                NodeState(info.state), Liveness(info.liveness))


def rack_name(rack: Optional[Union[str, bytes]]) -> bytes:
    """A rack as the library reads it: a missing rack (None) is :data:`DEFAULT_RACK`."""
    return c_name(DEFAULT_RACK if rack is None else rack, "rack")
