# SPDX-License-Identifier: Apache-2.0
"""Ownership: each node's exact share of the token space (ownership.h) and
the statistics of those shares over a ring, a datacenter or a rack (balance, analysis.h).
Functions over a ring handle and an optional placement handle; :class:`tokenring.Ring`
calls them for :meth:`~tokenring.Ring.ownership` and :meth:`~tokenring.Ring.balance`."""
from typing import Any, Dict, NamedTuple, Optional, Sequence

from ._convert import c_name, u128
from ._errors import check, new_error
from ._ffi import ffi, lib
from ._frames import Table, row_to_arrow, row_to_pandas

__all__ = ["Ownership", "Balance", "BalanceReport", "ownership_of", "balance_of"]


class Ownership(NamedTuple):
    """One node's ownership. The exact widths decide; the floats are for display."""

    primary_width: int
    effective_width: int
    primary: float
    effective: float
    nodetool_primary: float
    nodetool_effective: float
    token_count: int


class Balance(NamedTuple):
    """Statistics of one ownership measure over a group of nodes: widths in the ring's
    units (token values for Murmur3 and RandomPartitioner, ring ranges for
    ByteOrderedPartitioner) and fractions of the whole ring (2**64, 2**127 or the range
    count); ``total_width`` saturates at 2**128 - 1."""

    node_count: int
    min_node: str
    max_node: str
    min_width: int
    max_width: int
    total_width: int
    min: float
    max: float
    mean: float
    stdev: float

    to_pandas = row_to_pandas
    to_arrow = row_to_arrow


class BalanceReport(NamedTuple):
    """Primary and (with a replication) effective ownership statistics."""

    primary: Balance
    effective: Optional[Balance]

    to_pandas = row_to_pandas
    to_arrow = row_to_arrow


def ownership_of(ring_p: Any, placement_p: Any, names: Sequence[str]) -> Dict[str, Ownership]:
    """``{node name: Ownership}`` of a ring (``placement_p``: a placement or ffi.NULL)."""
    n = len(names)
    out = ffi.new("tokenring_ownership[]", max(n, 1))
    check(lib.tokenring_ring_ownership(out, n, ring_p, placement_p))
    return Table.of({names[i]: Ownership(u128(o.primary_width), u128(o.effective_width),
                                         o.primary, o.effective, o.nodetool_primary,
                                         o.nodetool_effective, o.token_count)
                     for i, o in enumerate(out[0:n])}, "node", Ownership._fields)


def _balance(b: Any, names: Sequence[str]) -> Balance:
    return Balance(b.node_count, names[b.min_node], names[b.max_node], u128(b.min_width),
                   u128(b.max_width), u128(b.total_width), b.min, b.max, b.mean, b.stdev)


def balance_of(ring_p: Any, placement_p: Any, names: Sequence[str],
               datacenter: Optional[str] = None, rack: Optional[str] = None) -> BalanceReport:
    """Balance statistics of a ring (effective ones too when ``placement_p`` is not NULL)
    over the whole ring, one datacenter or one rack."""
    prim = ffi.new("tokenring_balance *")
    eff = ffi.new("tokenring_balance *") if placement_p != ffi.NULL else ffi.NULL
    err = new_error()
    check(lib.tokenring_balance_compute(
        prim, eff, ring_p, placement_p,
        c_name(datacenter, "datacenter") if datacenter is not None else ffi.NULL,
        c_name(rack, "rack") if rack is not None else ffi.NULL, err), err)
    return BalanceReport(_balance(prim, names),
                         _balance(eff, names) if placement_p != ffi.NULL else None)
