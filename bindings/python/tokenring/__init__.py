# SPDX-License-Identifier: Apache-2.0
"""Python binding of libtokenring: Apache Cassandra's token ring, exactly.

Tokens (Murmur3Partitioner), partition-key bytes, topologies, immutable rings, replica
placement (SimpleStrategy, NetworkTopologyStrategy with racks and transient replicas) and
ownership, computed by the C library through a cffi extension generated from its public
header.

>>> import tokenring
>>> ring = tokenring.Ring(tokenring.Topology([("A", "dc1", "r1", [10, 50]),
...                                           ("B", "dc1", "r1", [30, 80]),
...                                           ("C", "dc1", "r1", [65, 95])]))
>>> ring.replicas(42, tokenring.Replication.simple(2))
('A', 'C')
"""
from typing import Dict

from ._ffi import ffi as _ffi, lib as _lib
from ._budget import BudgetError, DEFAULT_BUDGET_UNITS, MAX_NUM_TOKENS, WORK_UNITS_PER_SECOND
from ._errors import (BufferSizeError, CancelledError, ClosedError, NotPlacedError, EmptyError, ExistsError, ImpossibleError,
                      InvalidArgumentError, NotFoundError, OutOfMemoryError, ParseError,
                      RangeError, TokenRingError, UnsupportedError)
from ._columns import tokens
from ._frames import Rows, Table, to_arrow, to_pandas
from ._weighted import (WeightedLoad, WeightedMove, load_from_partials, load_partials,
                        weighted_movement, weighted_ownership)
from ._hash import (HAVE_NUMPY, MAX_TOKEN, MIN_TOKEN, Key, murmur3, token,
                    tokens_packed)
from ._key import (CqlType, composite, cql_type, encode_bigint, encode_boolean, encode_int,
                   encode_smallint, encode_text, encode_timestamp, encode_tinyint,
                   encode_uuid, hex_decode, parse_key, parse_token, parse_value)
from ._node import DEFAULT_RACK, Liveness, Node, NodeState
from ._convert import KeyOrToken
from ._replication import CassandraRules, Replication, ReplicationLike, cassandra_rules
from ._placement import Placement
from ._history import History
from ._ownership import Balance, BalanceReport, Ownership
from ._ring import DescribedRange, Range, RangeList, Ring
from ._topology import Topology
from ._layout import (CASSANDRA_RELEASES, LAYOUT_MAX_TOKENS, add_seeded_nodes,
                      allocate_as_cassandra, allocate_join, allocate_nodes, allocate_tokens,
                      assign_racks,
                      even_tokens, even_tokens128, rack_name, seeded_token,
                      seeded_token128, seeded_tokens, seeded_tokens128)
from ._analysis import (AVAILABILITY_MAX_K, AvailabilitySummary, ChangeKind, Consistency,
                        FailureSet, FailureUnit, WorstSet, availability_summary,
                        MigrationNode, MigrationPlan, MovedRange, Movement, MovementNode,
                        MovementSummary, SampleChange, Stream, TokensKept, availability,
                        balance, migration_plan, tokens_kept)
from ._parse import Cluster, ClusterNode, InputFormat, detect_format
from ._partitioner import (RANDOM_MAX_TOKEN, RANDOM_MIN_TOKEN, Partitioner, byte_ordered_token,
                           parse_partitioner, partitioner_name,
                           compare_byte_tokens, compare_random_tokens, format_byte_token,
                           format_random_token, md5, parse_byte_token, parse_random_token,
                           random_token, random_tokens)
from ._tokentext import (AnyToken, compare_tokens, key_token_text, normalize_token_text,
                         token_from_text, token_to_text)
from ._cluster_ring import ClusterRing
from ._router import Route, Router, RouterBuilder, RouterHolder, RouterNode, RouterReader

#: Version of the libtokenring library loaded at run time, e.g. "1.2.0".
library_version: str = _ffi.string(_lib.tokenring_version_string()).decode()
#: Version of the headers the extension was compiled against.
header_version: str = _ffi.string(_lib.TOKENRING_VERSION_STRING).decode()
#: The package's version: the version of the library it runs on (the package is built
#: with the version of the headers it compiles against, see setup.py).
__version__: str = library_version

#: C functions of the public header that the package deliberately does not wrap, with
#: the reason. The divergence test fails for any other header function not used here.
UNWRAPPED: Dict[str, str] = {
    "tokenring_set_allocator": "process-wide allocator hook for C embedders; it must be set "
                               "before any object exists, which a Python import cannot "
                               "guarantee, and Python callbacks as allocators would be unsafe",
    "tokenring_get_allocator": "only meaningful together with tokenring_set_allocator",
    "tokenring_placement_ref": "Python objects share one handle; lifetime is managed by "
                               "ffi.gc and Python references, not manual reference counts",
    "tokenring_placement_ring": "a Placement keeps its Python Ring in Placement.ring",
    "tokenring_router_ref": "same as tokenring_ring_ref",
}
# The calls without limits are their _limited variants with zeroed limits (the default
# budget): the Python functions call the variants, which take budget= and the rest.
for _c, _v in [("tokenring_allocate_join", "tokenring_allocate_join_text"),
               ("tokenring_allocate_join128", "tokenring_allocate_join_text"),
               ("tokenring_allocate_join_limited", "tokenring_allocate_join_text"),
               ("tokenring_allocate_nodes", "tokenring_allocate_nodes_limited"),
               ("tokenring_availability_build", "tokenring_availability_build_limited"),
               ("tokenring_availability_build_progress",
                "tokenring_availability_build_limited"),
               ("tokenring_availability_summary_build",
                "tokenring_availability_summary_build_limited"),
               ("tokenring_migration_plan", "tokenring_migration_plan_limited"),
               ("tokenring_migration_plan_progress", "tokenring_migration_plan_limited"),
               ("tokenring_history_replay", "tokenring_history_replay_limited")]:
    UNWRAPPED[_c] = "wrapped through " + _v + " (the same call with limits; budget=)"
# The typed calls of each partitioner (Murmur3 int64, RandomPartitioner token128,
# ByteOrderedPartitioner bytes): the package calls the one _text call of each operation for
# every partitioner, converting its ints and bytes to and from the text form (_tokentext).
for _v, _cs in [
        ("tokenring_topology_new_partitioned", ["tokenring_topology_new"]),
        ("tokenring_topology_add_node_text", ["tokenring_topology_add_node",
                                              "tokenring_topology_add_node128",
                                              "tokenring_topology_add_node_bytes"]),
        ("tokenring_topology_set_tokens_text", ["tokenring_topology_set_tokens",
                                                "tokenring_topology_set_tokens128",
                                                "tokenring_topology_set_tokens_bytes"]),
        ("tokenring_topology_node_token_text", ["tokenring_topology_node_token128",
                                                "tokenring_topology_node_token_bytes"]),
        ("tokenring_ring_token_text", ["tokenring_ring_token128", "tokenring_ring_token_bytes"]),
        ("tokenring_ring_search_text", ["tokenring_ring_search128",
                                        "tokenring_ring_search_bytes"]),
        ("tokenring_movement_join_text", ["tokenring_movement_join128",
                                          "tokenring_movement_join_bytes"]),
        ("tokenring_movement_move_text", ["tokenring_movement_move128",
                                          "tokenring_movement_move_bytes"]),
        ("tokenring_movement_range_bound_text", ["tokenring_movement_range_bounds128",
                                                 "tokenring_movement_range_bounds_bytes"]),
        ("tokenring_movement_sample_token_text", ["tokenring_movement_sample_token128",
                                                  "tokenring_movement_sample_token_bytes"]),
        ("tokenring_layout_even_tokens_text", ["tokenring_layout_even_tokens",
                                               "tokenring_layout_even_tokens128"]),
        ("tokenring_layout_seeded_tokens_text", ["tokenring_layout_seeded_tokens",
                                                 "tokenring_layout_seeded_tokens128"]),
        ("tokenring_allocate_cassandra_text", ["tokenring_allocate_cassandra",
                                               "tokenring_allocate_cassandra128"])]:
    for _c in _cs:
        UNWRAPPED[_c] = "wrapped through " + _v + " (one call for every partitioner, tokens as text)"
del _c, _v, _cs

__all__ = [
    "token", "tokens", "tokens_packed", "Rows", "Table", "to_pandas", "to_arrow",
    "WeightedLoad", "WeightedMove", "weighted_ownership", "weighted_movement",
    "load_partials", "load_from_partials", "murmur3", "MIN_TOKEN", "MAX_TOKEN", "Key",
    "HAVE_NUMPY", "CqlType", "cql_type", "encode_int", "encode_bigint", "encode_smallint",
    "encode_tinyint", "encode_boolean", "encode_timestamp", "encode_uuid", "encode_text",
    "parse_value", "parse_key", "composite", "Topology", "Ring", "Replication", "Placement", "History",
    "Node", "NodeState", "Liveness", "Range", "Ownership", "DescribedRange", "KeyOrToken",
    "ReplicationLike", "CassandraRules", "cassandra_rules", "TokenRingError",
    "InvalidArgumentError", "OutOfMemoryError",
    "NotFoundError", "ExistsError", "RangeError", "ParseError", "EmptyError",
    "BufferSizeError", "UnsupportedError", "ImpossibleError", "ClosedError", "CancelledError", "NotPlacedError",
    "BudgetError", "DEFAULT_BUDGET_UNITS", "MAX_NUM_TOKENS", "WORK_UNITS_PER_SECOND",
    "library_version", "header_version", "UNWRAPPED", "Cluster", "ClusterNode", "InputFormat",
    "detect_format", "seeded_token", "seeded_tokens", "add_seeded_nodes", "even_tokens",
    "seeded_token128", "seeded_tokens128", "even_tokens128",
    "allocate_tokens", "allocate_nodes", "LAYOUT_MAX_TOKENS", "balance", "Balance",
    "BalanceReport", "ChangeKind", "Movement", "MovementSummary", "MovementNode",
    "MovedRange", "Stream", "SampleChange", "Consistency", "FailureSet", "availability",
    "FailureUnit", "WorstSet", "AvailabilitySummary", "availability_summary",
    "AVAILABILITY_MAX_K", "MigrationNode", "MigrationPlan", "migration_plan", "ClusterRing",
    "DEFAULT_RACK", "RangeList",
    "parse_token", "hex_decode", "assign_racks", "rack_name", "TokensKept", "tokens_kept",
    "allocate_as_cassandra", "allocate_join", "CASSANDRA_RELEASES",
    "RANDOM_MIN_TOKEN", "RANDOM_MAX_TOKEN", "md5", "random_token", "random_tokens",
    "compare_random_tokens", "format_random_token", "parse_random_token",
    "byte_ordered_token", "format_byte_token", "parse_byte_token", "compare_byte_tokens",
    "Partitioner", "partitioner_name", "parse_partitioner",
    "AnyToken", "token_to_text", "token_from_text", "key_token_text", "normalize_token_text",
    "compare_tokens",
    "Router", "RouterBuilder", "RouterHolder", "RouterReader", "RouterNode", "Route",
]

# Public classes read as tokenring.X (in help(), pickles and default reprs), not as the
# private module that defines them.
for _name in __all__:
    _obj = globals()[_name]
    if isinstance(_obj, type) and _obj.__module__.startswith(__name__ + "._"):
        _obj.__module__ = __name__
del _name, _obj
