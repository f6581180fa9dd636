# SPDX-License-Identifier: Apache-2.0
"""Replication descriptions: SimpleStrategy and NetworkTopologyStrategy with transient
replicas, their CQL text forms (replication.h)."""
import enum
from typing import Any, Dict, Mapping, Optional, Tuple, Union

from ._convert import c_int32, c_name, c_str
from ._errors import InvalidArgumentError, check, new_error
from ._ffi import ffi, lib
from ._handle import Handle

__all__ = ["Replication", "ReplicationLike", "replication_text", "CassandraRules",
           "cassandra_rules"]


class CassandraRules(enum.IntEnum):
    """The replica order of a Cassandra release line (``tokenring_cassandra_rules``):
    how NetworkTopologyStrategy orders replicas in a datacenter with fewer racks than its
    replication factor. Sets are the same; the order differs."""
    #: Cassandra before 3.2 (2.x, 3.0.x, 3.1): skip nodes of used racks, then append them
    #: when every rack has a replica.
    RULES_3_0 = 1
    #: Cassandra 3.2 and later (3.11, 4.0, 4.1, 5.0; 6.0's sets, its order following the
    #: history): a used rack's node is taken at once while the rf - racks budget lasts.
    #: The default.
    RULES_3_2 = 2
    LATEST = 2


def cassandra_rules(version: str) -> CassandraRules:
    """The rules of a Cassandra release, e.g. ``cassandra_rules("3.0.30")``.

    Known release lines: 1.2, 2.0 to 2.2, 3.0 to 3.11, 4.0, 4.1, 5.0 and 6.0. 6.0 gives
    ``RULES_3_2``: its sets, ranges and ownership are 5.0's, but its replica *order*
    follows the cluster's history (a placement from ``tokenring.History``, or the server's
    lists, ``Placement.from_describering``); a placement from tokens has the 5.0 order.

    Raises:
        ParseError: not ``MAJOR.MINOR[.PATCH][-SUFFIX]``.
        RangeError: a major version outside 1..99, or a release line the library does
            not know (e.g. ``"4.2"``, ``"7.0"``).
    """
    out = ffi.new("int *")
    err = new_error()
    check(lib.tokenring_cassandra_rules_for_version(out, version.encode("utf-8"), err), err)
    return CassandraRules(out[0])

#: What methods accept as a replication: a :class:`Replication`, an int (SimpleStrategy
#: factor), a ``{dc: rf or "rf/transient"}`` mapping (NetworkTopologyStrategy), or text
#: for :meth:`Replication.parse`.
ReplicationLike = Union["Replication", int, Mapping[str, Union[int, str]], str]


class Replication(Handle):
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
        check(lib.tokenring_replication_simple(pp, c_int32(rf, "replication factor"),
                                               c_int32(transient, "transient replica count"),
                                               err), err)
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
            check(lib.tokenring_replication_set_dc(self._ptr, c_name(dc, "datacenter"),
                                                   c_int32(rf, "replication factor"),
                                                   c_int32(tr, "transient replica count"),
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
    def rules(self) -> CassandraRules:
        """The release rules it is placed with (:attr:`CassandraRules.LATEST` unless
        :meth:`with_rules` chose others)."""
        return CassandraRules(lib.tokenring_replication_rules(self._p()))

    def with_rules(self, rules: Union[CassandraRules, int, str]) -> "Replication":
        """A copy placed with the replica order of a Cassandra release: a release string
        (``"3.0.30"``, ``"4.1"``) or a :class:`CassandraRules`. Every placement, ownership
        and analysis built from the copy follows those rules."""
        r = cassandra_rules(rules) if isinstance(rules, str) else CassandraRules(rules)
        copy = Replication.parse(self._text)
        check(lib.tokenring_replication_set_rules(copy._p(), int(r)))
        return copy

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
            out[c_str(dc[0])] = (rf[0], tr[0])
        return out

    def dc_factor(self, datacenter: str) -> Tuple[int, int]:
        """``(rf, transient)`` this replication gives ``datacenter``: SimpleStrategy's
        factor for any datacenter, ``(0, 0)`` for one a NetworkTopologyStrategy lists not."""
        rf = ffi.new("int32_t *")
        tr = ffi.new("int32_t *")
        check(lib.tokenring_replication_dc_factor(rf, tr, self._p(),
                                                  c_name(datacenter, "datacenter")))
        return (rf[0], tr[0])

    def __str__(self) -> str:
        self._p()
        return self._text

    def __repr__(self) -> str:
        rules = self.rules
        tail = "" if rules == CassandraRules.LATEST else f".with_rules(CassandraRules.{rules.name})"
        return f"Replication.parse({self._text!r}){tail}"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Replication) and self._text == other._text
                and self.rules == other.rules)

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
