# SPDX-License-Identifier: Apache-2.0
"""Columns out: results (lists of named tuples, ``{node: named tuple}`` mappings, single
named tuples) as a pandas DataFrame or a pyarrow Table. pandas and pyarrow are optional
and imported only when a frame is asked for.

Exact widths stay exact: a width column (``*width``: a whole Murmur3 ring is 2**64 wide,
so their sums overflow 64 bits; RandomPartitioner widths reach 2**127), or any column of
ints past 64 bits, is a pandas ``object`` column of Python ints (``sum()`` is exact) and
an Arrow ``decimal256(40, 0)`` column; other ints are int64 (or uint64). Tuples
of names are Arrow ``list<string>`` columns; enums are their names."""
import decimal
import enum
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

__all__ = ["Rows", "Table", "to_pandas", "to_arrow", "row_to_pandas", "row_to_arrow"]

_I64 = (-2 ** 63, 2 ** 63 - 1)
_U64 = (0, 2 ** 64 - 1)


def _import(name: str) -> Any:
    try:
        return __import__(name)
    except ImportError:
        extra = {"pyarrow": "arrow"}.get(name, name)
        raise ImportError(f"{name} is needed for this (pip install {name}, or the "
                          f"tokenring[{extra}] extra)") from None


def _columns(rows: Sequence[Any], fields: Sequence[str]) -> Dict[str, List[Any]]:
    cols: Dict[str, List[Any]] = {f: [] for f in fields}
    for r in rows:
        for f, v in zip(fields, r):
            cols[f].append(v.name.lower() if isinstance(v, enum.Enum) else v)
    return cols


def _int_kind(vals: List[Any], name: str = "") -> Optional[str]:
    """'int64', 'uint64' or 'big' for a column of ints (bools excluded), else None. Widths
    are always 'big': their sums reach 2**64 (the whole ring) and must stay exact."""
    if not vals or not all(type(v) is int for v in vals):
        return None
    if name.endswith("width"):
        return "big"
    lo, hi = min(vals), max(vals)
    if _I64[0] <= lo and hi <= _I64[1]:
        return "int64"
    if lo >= 0 and hi <= _U64[1]:
        return "uint64"
    return "big"


def _pandas(cols: Dict[str, List[Any]], index: Optional[Tuple[str, List[Any]]]) -> Any:
    pd = _import("pandas")
    np = _import("numpy")
    data = {}
    for f, vals in cols.items():
        kind = _int_kind(vals, f)
        if kind in ("int64", "uint64"):
            data[f] = np.asarray(vals, dtype=kind)
        elif kind == "big" or (vals and isinstance(vals[0], tuple)):
            arr = np.empty(len(vals), dtype=object)  # exact ints, tuples kept whole
            arr[:] = vals
            data[f] = arr
        else:
            data[f] = vals
    df = pd.DataFrame(data, columns=list(cols))
    if index is not None:
        df.index = pd.Index(index[1], name=index[0])
    return df


def _arrow(cols: Dict[str, List[Any]], first: Optional[Tuple[str, List[Any]]]) -> Any:
    pa = _import("pyarrow")
    arrays, names = [], []
    if first is not None:
        names.append(first[0])
        arrays.append(pa.array(first[1], type=pa.string()))
    for f, vals in cols.items():
        kind = _int_kind(vals, f)
        if kind == "big":
            arr = pa.array([decimal.Decimal(v) for v in vals], type=pa.decimal256(40, 0))
        elif kind is not None:
            arr = pa.array(vals, type=getattr(pa, kind)())
        elif vals and isinstance(vals[0], tuple):
            item = next((v[0] for v in vals if v), "")
            arr = pa.array([list(v) for v in vals],
                           type=pa.list_(pa.string()) if isinstance(item, str) else None)
        else:
            arr = pa.array(vals)
        names.append(f)
        arrays.append(arr)
    return pa.Table.from_arrays(arrays, names=names)


def _fields_of(rows: Sequence[Any], fields: Optional[Sequence[str]]) -> Sequence[str]:
    if fields is not None:
        return fields
    if rows and hasattr(rows[0], "_fields"):
        return rows[0]._fields
    raise ValueError("an empty result has no columns: pass fields=")


class Rows(list):  # type: ignore[type-arg]
    """A list of result rows (named tuples) that also converts to a frame. Equal to, and
    usable as, the plain list it was."""

    _fields: Optional[Tuple[str, ...]] = None

    @classmethod
    def of(cls, rows: Iterable[Any], fields: Sequence[str]) -> "Rows":
        r = cls(rows)
        r._fields = tuple(fields)
        return r

    def to_pandas(self) -> Any:
        """The rows as a pandas DataFrame, one column per field."""
        return _pandas(_columns(self, _fields_of(self, self._fields)), None)

    def to_arrow(self) -> Any:
        """The rows as a pyarrow Table, one column per field."""
        return _arrow(_columns(self, _fields_of(self, self._fields)), None)


class Table(dict):  # type: ignore[type-arg]
    """A ``{name: row}`` mapping (e.g. ownership by node) that also converts to a frame
    indexed (pandas) or led (Arrow) by the key column. Equal to the plain dict it was."""

    _key: str = "node"
    _fields: Optional[Tuple[str, ...]] = None

    @classmethod
    def of(cls, items: Dict[str, Any], key: str, fields: Sequence[str]) -> "Table":
        t = cls(items)
        t._key, t._fields = key, tuple(fields)
        return t

    def to_pandas(self) -> Any:
        """A pandas DataFrame indexed by the key (``node``), one column per field."""
        rows = list(self.values())
        return _pandas(_columns(rows, _fields_of(rows, self._fields)), (self._key, list(self)))

    def to_arrow(self) -> Any:
        """A pyarrow Table whose first column is the key (``node``)."""
        rows = list(self.values())
        return _arrow(_columns(rows, _fields_of(rows, self._fields)), (self._key, list(self)))


def _frame_rows(nt: Any) -> Tuple[Optional[List[str]], List[Any], Sequence[str]]:
    """Rows of a single named-tuple result: the result itself as one row (its list-valued
    fields left out: they are results of their own, e.g. ``summary.worst``), or, for a
    result made of named tuples (a BalanceReport's primary and effective statistics), one
    row per part, named by the part."""
    fields, vals = nt._fields, list(nt)
    parts = [(f, v) for f, v in zip(fields, vals) if hasattr(v, "_fields")]
    if parts and len(parts) == len([v for v in vals if v is not None]):
        return [f for f, _ in parts], [v for _, v in parts], parts[0][1]._fields
    keep = [i for i, v in enumerate(vals) if not isinstance(v, list)]
    return None, [tuple(vals[i] for i in keep)], [fields[i] for i in keep]


def row_to_pandas(self: Any) -> Any:
    """This result as a pandas DataFrame (one row, or one row per part)."""
    index, rows, fields = _frame_rows(self)
    return _pandas(_columns(rows, fields), ("part", index) if index else None)


def row_to_arrow(self: Any) -> Any:
    """This result as a pyarrow Table (one row, or one row per part)."""
    index, rows, fields = _frame_rows(self)
    return _arrow(_columns(rows, fields), ("part", index) if index else None)


def to_pandas(result: Any) -> Any:
    """Any result of the package (rows, a mapping by node, a named tuple, a plain list of
    named tuples) as a pandas DataFrame."""
    if hasattr(result, "to_pandas"):
        return result.to_pandas()
    if isinstance(result, dict):
        return Table(result).to_pandas()
    return Rows(result).to_pandas()


def to_arrow(result: Any) -> Any:
    """Any result of the package as a pyarrow Table (see :func:`to_pandas`)."""
    if hasattr(result, "to_arrow"):
        return result.to_arrow()
    if isinstance(result, dict):
        return Table(result).to_arrow()
    return Rows(result).to_arrow()
