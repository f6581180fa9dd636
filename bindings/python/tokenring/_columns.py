# SPDX-License-Identifier: Apache-2.0
"""Columns of partition keys on their way to the C batch calls: pyarrow arrays and chunked
arrays, pandas and polars Series, numpy arrays and plain sequences, as packed keys
(``data``, ``offsets``) without a Python loop where the column's layout allows it; typed
columns serialised as Cassandra serialises each CQL type; composite keys from several
columns. pyarrow, pandas and polars are optional: they are never imported here unless the
caller passes one of their objects (or asks for a frame)."""
import array as _array
import decimal as _decimal
import ipaddress
import uuid as _uuid
from typing import Any, List, Optional, Sequence, Tuple, Union

from ._errors import RangeError
from ._ffi import lib
from . import _hash
from ._hash import Key, as_key_bytes, pack_keys, tokens_packed
from ._key import cql_type, encode_timestamp, parse_value

try:  # numpy is optional: columns, typed keys and nulls need it, lists of keys do not
    import numpy as np
except ImportError:  # pragma: no cover - exercised without numpy
    np = None  # type: ignore[assignment]

__all__ = ["tokens", "packed_parts", "is_column", "tokens_of_parts", "NULLS"]

builtins_type = type

#: The values of the ``nulls=`` keyword: a null key is an error, or a null in the output.
NULLS = ("error", "null")

# (data, uint64 offsets, count, null mask or None)
Part = Tuple[Any, Any, int, Optional[Any]]

_BYTES_TYPES = ("text", "ascii", "blob")
_FIXED = {  # CQL type -> numpy big-endian dtype of its serialisation
    "int": ">i4", "bigint": ">i8", "smallint": ">i2", "tinyint": "i1",
    "double": ">f8", "float": ">f4", "timestamp": ">i8", "time": ">i8",
}


def _type_name(t: Any) -> str:
    return cql_type(t).cql_name


def _u8view(data: Any) -> Any:
    """The bytes of a packed buffer (bytes, an Arrow buffer, a numpy array) as uint8."""
    if isinstance(data, np.ndarray):
        return data.reshape(-1).view(np.uint8)
    return np.frombuffer(data, dtype=np.uint8)


def _module(obj: Any) -> str:
    return type(obj).__module__.split(".", 1)[0]


def _bare(keys: Any) -> None:
    if isinstance(keys, (str, bytes, bytearray, memoryview)):
        raise TypeError(f"keys must be a column or sequence of keys, not a bare "
                        f"{type(keys).__name__}: wrap one key in a list, tokens([key])")


def _null_error(index: int) -> ValueError:
    return ValueError(f"key {index} is null: drop the nulls first, or pass nulls='null' "
                      "to get a null (masked) result for them")


def _check_nulls(mask: Optional[Any], nulls: str, base: int = 0) -> Optional[Any]:
    if mask is None or not mask.any():
        return None
    if nulls == "error":
        raise _null_error(base + int(np.argmax(mask)))
    return mask


def _fixed_part(raw: Any, width: int, n: int, mask: Optional[Any]) -> Part:
    offsets = np.arange(0, (n + 1) * width, width, dtype=np.uint64) if width else \
        np.zeros(n + 1, dtype=np.uint64)
    return raw, offsets, n, mask


# ---------------------------------------------------------------- Arrow

def _arrow_parts(arr: Any, t: Optional[str], nulls: str, base: int) -> List[Part]:
    import pyarrow as pa
    if isinstance(arr, pa.ChunkedArray):
        parts: List[Part] = []
        for chunk in arr.chunks:
            parts.extend(_arrow_parts(chunk, t, nulls, base))
            base += len(chunk)
        return parts
    typ = arr.type
    if isinstance(typ, pa.ExtensionType):
        arr, typ = arr.storage, arr.storage.type
    n = len(arr)
    mask = None
    if arr.null_count:
        mask = _check_nulls(arr.is_null().to_numpy(zero_copy_only=False), nulls, base)
    if pa.types.is_string_view(typ) or pa.types.is_binary_view(typ):
        arr = arr.cast(pa.large_binary())
        typ = arr.type
    is_str = pa.types.is_string(typ) or pa.types.is_large_string(typ)
    is_bin = pa.types.is_binary(typ) or pa.types.is_large_binary(typ)
    if is_str or is_bin:
        if t is not None and t not in _BYTES_TYPES:
            # 16-byte uuids, 4/16-byte inets, or string forms of other types: Cassandra's fromString, value by value
            return [_encode_values(arr.to_pylist(), t, mask)]
        large = pa.types.is_large_string(typ) or pa.types.is_large_binary(typ)
        bufs = arr.buffers()
        offsets = np.frombuffer(bufs[1], dtype=np.int64 if large else np.int32,
                                count=n + 1, offset=arr.offset * (8 if large else 4))
        # int32 offsets widen to what the C call reads (8 bytes a key; the data is not
        # copied); int64 offsets are read as they are
        offsets = offsets.view(np.uint64) if large else offsets.astype(np.uint64)
        data = bufs[2] if bufs[2] is not None and bufs[2].size else b""
        if t == "ascii":
            _check_ascii(data, offsets, n)
        return [(data, offsets, n, mask)]
    if pa.types.is_fixed_size_binary(typ):
        w = typ.byte_width
        buf = arr.buffers()[1]
        raw = memoryview(buf)[arr.offset * w:(arr.offset + n) * w] if buf is not None else b""
        if t is None or t in _BYTES_TYPES or t in ("uuid", "timeuuid"):
            if t in ("uuid", "timeuuid"):
                _check_uuid(np.frombuffer(raw, dtype=np.uint8), w, t, mask)
            return [_fixed_part(raw, w, n, mask)]
        return [_encode_values(arr.to_pylist(), t, mask)]
    if pa.types.is_boolean(typ) or pa.types.is_integer(typ) or pa.types.is_floating(typ) \
            or pa.types.is_timestamp(typ) or pa.types.is_date(typ) or pa.types.is_time(typ):
        if mask is not None:
            arr = arr.fill_null(False if pa.types.is_boolean(typ) else 0)
        if pa.types.is_date(typ) and t is None:
            t = "date"  # date64 too (milliseconds, read as days)
        if pa.types.is_time(typ):  # CQL time: nanoseconds since midnight
            vals = arr.cast(pa.time64("ns")).cast(pa.int64()).to_numpy()
            return [_encode_numpy(vals, t or "time", mask)]
        return [_encode_numpy(arr.to_numpy(zero_copy_only=False), t, mask)]
    if pa.types.is_decimal(typ) or pa.types.is_null(typ):
        return [_encode_values(arr.to_pylist(), t or "decimal", mask)]
    raise TypeError(f"an Arrow column of type {typ} is not a key column (string, binary, "
                    "fixed-size binary, integer, floating, boolean, timestamp, date)")


def _check_ascii(data: Any, offsets: Any, n: int) -> None:
    if not n:
        return
    lo, hi = int(offsets[0]), int(offsets[n])
    b = _u8view(data)[lo:hi]
    bad = np.flatnonzero(b >= 0x80)
    if bad.size:
        key = int(np.searchsorted(offsets[: n + 1], lo + bad[0], side="right")) - 1
        raise ValueError(f"key {key} is not ascii: byte {int(b[bad[0]]):#04x}")


def _check_uuid(b: Any, w: int, t: str, mask: Optional[Any]) -> None:
    if w != 16:
        raise ValueError(f"a {t} is 16 bytes, not {w}")
    if t == "timeuuid" and b.size:
        version = b[6::16] >> 4
        bad = version != 1
        if mask is not None:
            bad &= ~mask
        if bad.any():
            i = int(np.argmax(bad))
            raise ValueError(f"key {i} is not a timeuuid (version {int(version[i])}, not 1)")


# ---------------------------------------------------------------- numpy

def _infer(dtype: Any) -> str:
    k = dtype.kind
    if k == "b":
        return "boolean"
    if k in "iu":
        return {1: "tinyint", 2: "smallint", 4: "int"}.get(dtype.itemsize, "bigint")
    if k == "f":
        return "float" if dtype.itemsize == 4 else "double"
    if k == "M":
        return "date" if np.datetime_data(dtype)[0] in ("D", "W", "M", "Y") else "timestamp"
    if k == "m":
        return "time"
    raise TypeError(f"a numpy array of {dtype} is not a key column")


def _encode_numpy(vals: Any, t: Optional[str], mask: Optional[Any]) -> Part:
    """A numeric/boolean/datetime numpy column serialised as CQL type ``t`` (inferred from
    the dtype when None), vectorised."""
    vals = np.asarray(vals)
    if vals.ndim != 1:
        raise ValueError(f"a key column must be 1-D, not of shape {vals.shape}")
    t = t or _infer(vals.dtype)
    n = vals.size
    k = vals.dtype.kind
    if t in ("uuid", "timeuuid") and k in "SV" and vals.dtype.itemsize == 16:
        raw = np.ascontiguousarray(vals).view(np.uint8)
        _check_uuid(raw, 16, t, mask)
        return _fixed_part(raw, 16, n, mask)
    if t == "boolean":
        if k != "b":
            raise TypeError(f"a boolean key column must hold booleans, not {vals.dtype}")
        return _fixed_part(vals.astype(np.uint8), 1, n, mask)
    if t == "timestamp" and k == "M":
        vals = vals.astype("datetime64[ms]").view(np.int64)
        k = "i"
    if t == "date":
        if k == "M":
            vals = vals.astype("datetime64[D]").view(np.int64)
        elif k not in "iu":
            raise TypeError(f"a date key column holds days since 1970-01-01 or "
                            f"datetime64, not {vals.dtype}")
        v = vals.astype(np.int64)
        _range(v, -2 ** 31, 2 ** 31 - 1, t, mask)
        return _fixed_part((v + 2 ** 31).astype(">u4"), 4, n, mask)
    if t == "time" and k == "m":
        vals = vals.astype("timedelta64[ns]").view(np.int64)
        k = "i"
    if t in _FIXED:
        want = np.dtype(_FIXED[t])
        if want.kind == "i":
            if k not in "iu":
                raise TypeError(f"a {t} key column must hold integers, not {vals.dtype}")
            info = np.iinfo(want)
            lo, hi = (0, 86400 * 10 ** 9 - 1) if t == "time" else (info.min, info.max)
            _range(vals, lo, hi, t, mask)
        elif k not in "iuf":
            raise TypeError(f"a {t} key column must hold numbers, not {vals.dtype}")
        return _fixed_part(vals.astype(want), want.itemsize, n, mask)
    return _encode_values(vals.tolist(), t, mask)


def _range(vals: Any, lo: int, hi: int, t: str, mask: Optional[Any]) -> None:
    if not vals.size:
        return
    bad = (vals < lo) | (vals > hi)
    if mask is not None:
        bad &= ~mask
    if bad.any():
        i = int(np.argmax(bad))
        raise RangeError(lib.TOKENRING_E_RANGE,
                         f"key {i}: {vals[i]} is out of range for {t} ({lo} .. {hi})")


# ---------------------------------------------------------------- Python values

def _varint(v: int) -> bytes:
    n = (v if v >= 0 else ~v).bit_length() // 8 + 1
    return v.to_bytes(n, "big", signed=True)


def _decimal_bytes(v: Any) -> bytes:
    d = v if isinstance(v, _decimal.Decimal) else _decimal.Decimal(str(v))
    if not d.is_finite():
        raise ValueError(f"{d} is not a decimal Cassandra stores")
    sign, digits, exp = d.as_tuple()
    unscaled = int("".join(map(str, digits)) or "0")
    return (-exp).to_bytes(4, "big", signed=True) + _varint(-unscaled if sign else unscaled)


def _uuid_bytes(v: Any) -> bytes:
    if isinstance(v, _uuid.UUID):
        return v.bytes
    if isinstance(v, (bytes, bytearray, memoryview)) and len(v) == 16:
        return bytes(v)
    return _uuid.UUID(str(v)).bytes


def _parse(t: str, v: str) -> bytes:
    return parse_value(t, v)


def _one(v: Any, t: str) -> bytes:
    """One Python value serialised as CQL type ``t``."""
    if t in ("text", "ascii"):
        b = v.encode("utf-8") if isinstance(v, str) else bytes(v)
        if t == "ascii" and not b.isascii():
            raise ValueError(f"{v!r} is not ascii")
        return b
    if t == "blob":
        if isinstance(v, str):
            raise TypeError("a blob key is bytes; a str is hashed as text (type='text')")
        return bytes(v)
    if isinstance(v, str):  # the string form getendpoints takes, as Cassandra parses it
        return _parse(t, v)
    if t in ("uuid", "timeuuid"):
        b = _uuid_bytes(v)
        if t == "timeuuid" and b[6] >> 4 != 1:
            raise ValueError(f"{v} is not a timeuuid (version {b[6] >> 4}, not 1)")
        return b
    if t == "inet":
        if isinstance(v, (bytes, bytearray)) and len(v) in (4, 16):
            return bytes(v)
        return ipaddress.ip_address(v).packed
    if t == "varint":
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"a varint key is an int, not {type(v).__name__}")
        return _varint(int(v))
    if t == "decimal":
        return _decimal_bytes(v)
    if t == "timestamp" and hasattr(v, "tzinfo"):
        return encode_timestamp(v)
    if t == "date" and hasattr(v, "toordinal"):
        return (v.toordinal() - 719163 + 2 ** 31).to_bytes(4, "big")
    return _u8view(_encode_numpy(np.asarray([v]), t, None)[0]).tobytes()


def _encode_values(values: Sequence[Any], t: str, mask: Optional[Any]) -> Part:
    """A sequence of Python values (None where ``mask`` is set) serialised as ``t``: a
    loop, for the types numpy cannot serialise (varint, decimal, inet, string forms)."""
    out = []
    for i, v in enumerate(values):
        if v is None or (mask is not None and mask[i]):
            out.append(b"")
            continue
        try:
            out.append(_one(v, t))
        except (TypeError, ValueError) as e:
            raise type(e)(f"key {i}: {e}") from None
    return _pack_list(out, mask)


def _pack_list(keys: List[bytes], mask: Optional[Any]) -> Part:
    n = len(keys)
    data = b"".join(keys)
    offsets = np.zeros(n + 1, dtype=np.uint64)
    if n:
        np.cumsum(np.fromiter(map(len, keys), dtype=np.uint64, count=n), out=offsets[1:])
    return data, offsets, n, mask


def _list_part(keys: Sequence[Any], t: Optional[str], nulls: str) -> Part:
    keys = list(keys)
    if not keys:
        return b"", np.zeros(1, dtype=np.uint64), 0, None
    if t is None:
        try:  # the fast path: bytes-like keys joined in one call
            data, offsets, n = pack_keys(keys)
            return data, offsets, n, None
        except TypeError:
            pass  # None, or a key of another type (as_key_bytes says which)
    mask = None
    if None in keys:
        mask = _check_nulls(np.fromiter((k is None for k in keys), dtype=bool,
                                        count=len(keys)), nulls)
    if t is None:
        return _pack_list([b"" if k is None else as_key_bytes(k) for k in keys], mask)
    if mask is None and (t in _FIXED or t in ("boolean", "date")):
        try:  # plain numbers: one conversion, then the vectorised encoder
            arr = np.asarray(keys)
        except (OverflowError, ValueError):
            arr = None
        if arr is not None and arr.ndim == 1 and arr.dtype.kind in "biuf":
            return _encode_numpy(arr, t, None)
    return _encode_values(keys, t, mask)


# ---------------------------------------------------------------- entry point

def _column_parts(col: Any, t: Optional[str], nulls: str) -> List[Part]:
    _bare(col)
    mod = _module(col)
    if mod == "pyarrow":
        return _arrow_parts(col, t, nulls, 0)
    if mod == "polars":
        return _arrow_parts(col.to_arrow(), t, nulls, 0)
    if mod == "pandas":
        arr = getattr(col, "array", col)
        if hasattr(arr, "__arrow_array__") and col.dtype != object:
            import pyarrow as pa
            return _arrow_parts(pa.array(arr), t, nulls, 0)
        if getattr(col.dtype, "tz", None) is not None:  # aware datetimes: as UTC
            col = col.dt.tz_convert("UTC").dt.tz_localize(None)
        vals = col.to_numpy()
        if vals.dtype == object:
            try:
                return [_list_part(vals.tolist(), t, nulls)]
            except TypeError:  # NaN or pd.NA as the null of an object column
                mask = np.asarray(col.isna())
                if not mask.any():
                    raise
                return [_list_part([None if m else v for v, m in zip(vals, mask)], t, nulls)]
        mask = _check_nulls(np.asarray(col.isna()), nulls)  # NaN and NaT are pandas' nulls
        if mask is not None:
            vals = vals.copy()
            vals[mask] = np.zeros(1, dtype=vals.dtype)[0]
        return [_encode_numpy(vals, t, mask)]
    if isinstance(col, np.ndarray):
        if col.dtype.kind in "SUO" and not (t in ("uuid", "timeuuid") and col.dtype.kind == "S"):
            return [_list_part(col.tolist(), t, nulls)]
        return [_encode_numpy(col, t, None)]
    if hasattr(col, "__arrow_c_array__") or hasattr(col, "__arrow_c_stream__"):
        import pyarrow as pa
        return _arrow_parts(pa.array(col) if hasattr(col, "__arrow_c_array__")
                            else pa.chunked_array(col), t, nulls, 0)
    if not isinstance(col, (list, tuple)):
        try:
            col = list(col)
        except TypeError:
            raise TypeError(f"keys must be a column or sequence of keys, not "
                            f"{type(col).__name__}") from None
    return [_list_part(col, t, nulls)]


def _one_part(parts: List[Part]) -> Part:
    if len(parts) == 1:
        return parts[0]
    # chunks of one column joined for a composite key (the data is copied here)
    datas, offs, masks, n = [], [], [], 0
    total = 0
    for data, o, c, m in parts:
        lo, hi = int(o[0]), int(o[c])
        datas.append(_u8view(data)[lo:hi].tobytes())
        offs.append(o[1:c + 1] - lo + total if c else o[:0])
        masks.append(m if m is not None else np.zeros(c, dtype=bool))
        total += hi - lo
        n += c
    offsets = np.concatenate([np.zeros(1, dtype=np.uint64)] + offs)
    mask = np.concatenate(masks) if masks else None
    return b"".join(datas), offsets, n, mask if mask is not None and mask.any() else None


def _composite(cols: Sequence[Any], types: Sequence[Any], nulls: str) -> Part:
    if len(cols) != len(types):
        raise ValueError(f"{len(cols)} columns for {len(types)} types: a composite key "
                         "needs one type per column")
    if not cols:
        raise ValueError("a composite key needs at least one column")
    comps = [_one_part(_column_parts(c, _type_name(t), nulls)) for c, t in zip(cols, types)]
    n = comps[0][2]
    for j, c in enumerate(comps):
        if c[2] != n:
            raise ValueError(f"column {j} has {c[2]} keys, column 0 has {n}")
    lens = [(c[1][1:n + 1] - c[1][:n]).astype(np.int64) for c in comps]
    for j, ln in enumerate(lens):
        if n and int(ln.max()) > 0xFFFF:
            i = int(np.argmax(ln))
            raise ValueError(f"key {i}: component {j} is {int(ln[i])} bytes, more than a "
                             "composite key component holds (65535)")
    keylen = sum(ln + 3 for ln in lens) if n else np.zeros(0, dtype=np.int64)
    offsets = np.zeros(n + 1, dtype=np.uint64)
    np.cumsum(keylen, out=offsets[1:])
    out = np.zeros(int(offsets[n]), dtype=np.uint8)
    pos = offsets[:n].astype(np.int64)
    for (data, o, _, _), ln in zip(comps, lens):
        out[pos] = ln >> 8
        out[pos + 1] = ln & 0xFF
        src = _u8view(data)
        lo = int(o[0]) if n else 0
        body = src[lo:int(o[n])] if n else src[:0]
        if body.size:  # every byte of the column to its place: one scatter
            shift = np.repeat(pos + 2 - (o[:n].astype(np.int64) - lo), ln)
            out[np.arange(body.size, dtype=np.int64) + shift] = body
        pos = pos + 3 + ln  # the 0x00 end-of-component byte is already there
    masks = [c[3] for c in comps if c[3] is not None]
    mask = np.logical_or.reduce(masks) if masks else None
    return out, offsets, n, mask


def packed_parts(keys: Any, type: Any = None, nulls: str = "error") -> List[Part]:
    """Keys (a column, a sequence, or with a list of ``type`` several columns) as packed
    parts ``(data, uint64 offsets, count, null mask or None)``, one per Arrow chunk."""
    if nulls not in NULLS:
        raise ValueError(f"nulls must be one of {NULLS}, not {nulls!r}")
    if isinstance(type, (list, tuple)):
        _bare(keys)
        if _module(keys) in ("pandas", "polars") and hasattr(keys, "columns"):
            keys = [keys[c] for c in keys.columns]
        return [_composite(list(keys), type, nulls)]
    t = _type_name(type) if type is not None else None
    return _column_parts(keys, t, nulls)


def is_column(keys: Any) -> bool:
    """Whether ``keys`` needs the column path (anything but a list/tuple of bytes/str)."""
    return _module(keys) in ("pyarrow", "pandas", "polars") or \
        (isinstance(keys, np.ndarray) and keys.dtype.kind not in "SO")


def tokens_of_parts(parts: List[Part], call: Any) -> Any:
    """Runs ``call(data, offsets, n)`` on each part; joins the outputs; masks nulls."""
    if not parts:  # a chunked array without chunks
        parts = [(b"", np.zeros(1, dtype=np.uint64), 0, None)]
    outs = [call(d, o, c) for d, o, c, _ in parts]
    masks = [m for *_, m in parts]
    out = outs[0] if len(outs) == 1 else (
        tuple(np.concatenate(x) for x in zip(*outs)) if isinstance(outs[0], tuple)
        else np.concatenate(outs))
    if all(m is None for m in masks):
        return out
    mask = np.concatenate([m if m is not None else np.zeros(p[2], dtype=bool)
                           for m, p in zip(masks, parts)])
    if isinstance(out, tuple):
        return tuple(np.ma.masked_array(x, mask=mask) for x in out)
    return np.ma.masked_array(out, mask=mask)


def tokens(keys: Union[Sequence[Key], Any], type: Any = None,
           nulls: str = "error") -> Union["np.ndarray", List[int]]:
    """Tokens of many keys, hashed in one C call.

    Args:
        keys: a list (or any iterable) of bytes/str keys; or a column: a pyarrow array or
            chunked array (string, binary, their large forms, fixed-size binary, numeric,
            boolean, timestamp, date), a pandas or polars Series, a numpy array. Arrow
            string and binary buffers are hashed where they are (no copy, no Python loop).
            A bare ``str`` or ``bytes`` is a TypeError: wrap one key in a list.
        type: the CQL type of the values (``"int"``, ``"uuid"``, ... as ``--types``
            takes): each value is serialised as Cassandra serialises it. Without it,
            str is UTF-8 text, bytes are the key, and a numeric column's type follows its
            dtype (int32 is ``int``, int64 ``bigint``, float64 ``double``, datetime64
            ``timestamp``). A list of types with a list of columns (or a DataFrame) gives
            composite keys: ``tokens([ids, names], type=["int", "text"])``.
        nulls: ``"error"`` (a null key is a ValueError naming it) or ``"null"`` (the
            result is a numpy masked array, masked where the key is null).
    Returns:
        a numpy ``int64`` array when numpy is installed, otherwise a list of ints.
    """
    if isinstance(keys, (str, bytes, bytearray, memoryview)):
        raise TypeError(f"tokens() takes a column or sequence of keys, not a bare "
                        f"{builtins_type(keys).__name__}: wrap one key in a list, "
                        "tokens([key]), or use token(key)")
    if np is not None and (type is not None or nulls != "error" or is_column(keys)):
        return tokens_of_parts(packed_parts(keys, type, nulls), tokens_packed)
    if type is not None or nulls != "error":
        raise TypeError("type= and nulls= need numpy")
    fast = _hash._speedups
    if fast is not None and builtins_type(keys) in (list, tuple):
        # each key's bytes hashed where they are, in one C loop (no packing); False when a
        # key is of another type: the general path below then answers or names it
        out = np.empty(len(keys), dtype=np.int64) if np is not None else \
            _array.array("q", bytes(8 * len(keys)))
        if fast.tokens_into(keys, out):
            return out if np is not None else out.tolist()
    try:
        data, offsets, n = pack_keys(keys)
    except TypeError:
        if np is not None and isinstance(keys, (list, tuple)) and None in keys:
            packed_parts(keys, None, nulls)  # the ValueError naming the null
        raise
    return tokens_packed(data, offsets, n)
