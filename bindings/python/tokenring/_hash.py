# SPDX-License-Identifier: Apache-2.0
"""Murmur3Partitioner tokens of partition keys, single and batched."""
import importlib as _importlib
import os as _os
from itertools import accumulate
from typing import Any, Iterable, List, Sequence, Tuple, Union

from ._errors import RangeError, check
from ._ffi import ffi, lib
from ._ints import U64, c_int

try:  # the optional C fast paths of token() and tokens(list), see _load_speedups: a C
    # module that imports nothing of the package (so no circle), absent when not built
    _speedups_module: Any = _importlib.import_module(__name__.rpartition(".")[0] + "._speedups")
except ImportError:
    _speedups_module = None

try:  # numpy is optional: batch results are numpy arrays when it is installed
    import numpy as _np
except ImportError:  # pragma: no cover - exercised without numpy
    _np = None  # type: ignore[assignment]

__all__ = ["Key", "token", "tokens_packed", "murmur3", "MIN_TOKEN", "MAX_TOKEN",
           "as_key_bytes", "pack_keys", "check_packed", "packed_offsets", "HAVE_NUMPY"]

#: A partition key: its serialized bytes, or a str hashed as UTF-8.
Key = Union[bytes, bytearray, memoryview, str]

#: The smallest token, -2**63: the partitioner's minimum-token sentinel (empty key).
MIN_TOKEN: int = lib.TOKENRING_MIN_TOKEN
#: The largest token, 2**63 - 1.
MAX_TOKEN: int = lib.TOKENRING_MAX_TOKEN
#: Whether batch calls return numpy arrays.
HAVE_NUMPY: bool = _np is not None


def as_key_bytes(key: Key) -> bytes:
    """The bytes of a key: ``str`` as UTF-8, bytes-like objects as they are."""
    if type(key) is bytes:
        return key
    if isinstance(key, str):
        return key.encode("utf-8")
    if isinstance(key, (bytes, bytearray, memoryview)):
        return bytes(key)
    raise TypeError(f"a partition key must be bytes or str, not {type(key).__name__}")


def _token_py(key: Key) -> int:
    """The Murmur3Partitioner token of one partition key, exactly as Cassandra computes it.

    ``str`` keys are hashed as their UTF-8 bytes (a CQL ``text`` key). The empty key gives
    :data:`MIN_TOKEN` (the partitioner's sentinel, not a real key).

    >>> token(b"")
    -9223372036854775808
    """
    if type(key) is bytes:  # the common case without a second Python call: a scalar
        return _token_c(key, len(key))  # call costs about twice the C hash's own call
    b = as_key_bytes(key)
    return _token_c(b, len(b))


_token_c = lib.tokenring_token


def _load_speedups() -> Any:
    """The optional CPython extension ``tokenring._speedups`` (see its source), bound to
    this cffi module's ``tokenring_token``; None when it is not built (PyPy, no compiler
    at install time), of another contract, or TOKENRING_NO_SPEEDUPS is set."""
    sp = _speedups_module
    if sp is None or _os.environ.get("TOKENRING_NO_SPEEDUPS"):
        return None
    if getattr(sp, "API", None) != 1:
        return None
    sp._init(int(ffi.cast("uintptr_t", ffi.addressof(lib, "tokenring_token"))), _token_py)
    return sp


#: The C fast paths of :func:`token` and :func:`tokens` (None: the pure cffi paths).
_speedups = _load_speedups()

if _speedups is not None:
    token = _speedups.token  # same answers and errors: other key types go to _token_py
else:
    token = _token_py


def murmur3(key: Key, seed: int = 0) -> Tuple[int, int]:
    """Both signed 64-bit halves of Cassandra's MurmurHash3_x64_128 variant (signed tail
    bytes), without the partitioner's empty-key and minimum-token rules."""
    b = as_key_bytes(key)
    out = ffi.new("int64_t[2]")
    check(lib.tokenring_murmur3_cassandra(out, b, len(b), c_int(seed, "seed", U64)))
    return out[0], out[1]


def pack_keys(keys: Iterable[Key]) -> Tuple[bytes, Any, int]:
    """Packs keys back to back: (bytes, offsets as uint64 numpy array or cffi array, count).

    numpy arrays of ``bytes`` (dtype ``S`` or ``object``) are accepted; note that numpy's
    fixed-width ``S`` dtype itself drops trailing NUL bytes of each item.
    """
    if _np is not None and isinstance(keys, _np.ndarray):
        keys = keys.tolist()
    if not isinstance(keys, (list, tuple)):
        keys = list(keys)
    try:
        data = b"".join(keys)  # type: ignore[arg-type]  # bytes, bytearray, memoryview
    except TypeError:  # str keys (or bad types: as_key_bytes says which)
        keys = [as_key_bytes(k) for k in keys]
        data = b"".join(keys)  # type: ignore[arg-type]
    n = len(keys)
    if _np is not None:
        offsets = _np.zeros(n + 1, dtype=_np.uint64)
        if n:
            _np.cumsum(_np.fromiter(map(len, keys), dtype=_np.uint64, count=n),
                       out=offsets[1:])
    else:
        offsets = ffi.new("uint64_t[]", [0, *accumulate(map(len, keys))])
    return data, offsets, n


def _u8(data: Any) -> Any:
    return ffi.from_buffer("uint8_t[]", data) if len(data) else ffi.NULL


def _offsets_ptr(offsets: Any) -> Any:
    if _np is not None and isinstance(offsets, _np.ndarray):
        return ffi.from_buffer("uint64_t[]", offsets)
    return offsets


def check_packed(data: Any, offsets: Any, count: int) -> None:
    """Refuses offsets that point past the end of ``data`` (the C call cannot know the
    buffer's length; decreasing offsets are refused by the library itself)."""
    if count <= 0:
        return
    nbytes = memoryview(data).nbytes
    if _np is not None and isinstance(offsets, _np.ndarray):
        last = int(offsets[: count + 1].max())
    else:
        last = max(int(offsets[i]) for i in range(count + 1))
    if last > nbytes:
        raise ValueError(f"offsets reach byte {last} but the key buffer holds {nbytes}")


def packed_offsets(offsets: Any, count: Any) -> Tuple[Any, int]:
    """The offsets of packed keys (``count + 1`` non-decreasing byte offsets; ``count`` -1
    for all of them) as what the C call reads, and the key count. A 1-D sequence or numpy
    array of integers only: floats (2.7 would become 2), strings, bools and arrays of
    another shape are refused with a TypeError or ValueError saying what is expected."""
    count = c_int(count, "count", (-1, 2 ** 63 - 1))
    expected = "offsets must be a 1-D sequence of non-negative integers (numpy uint64)"
    if isinstance(offsets, (str, bytes, bytearray, memoryview)):
        raise TypeError(f"{expected}, not {type(offsets).__name__}")
    if _np is not None:
        if not isinstance(offsets, _np.ndarray):
            if not isinstance(offsets, (list, tuple, range)):
                try:
                    offsets = list(offsets)
                except TypeError:
                    raise TypeError(f"{expected}, not {type(offsets).__name__}") from None
            arr = _np.asarray(offsets)
            if arr.size == 0:
                arr = _np.zeros(0, dtype=_np.uint64)
            if not (arr.ndim == 1 and (arr.dtype.kind in "iu" or arr.size == 0)):
                # Say which item is wrong (or take ints past int64 one by one).
                arr = _np.array([c_int(o, f"offsets[{i}]", U64) for i, o in enumerate(offsets)],
                                dtype=_np.uint64)
            offsets = arr
        if offsets.ndim != 1:
            raise ValueError(f"{expected}, not an array of shape {offsets.shape}")
        if offsets.dtype.kind not in "iu":
            raise TypeError(f"{expected}, not an array of {offsets.dtype}")
        if offsets.dtype.kind == "i" and offsets.size and int(offsets.min()) < 0:
            raise RangeError(lib.TOKENRING_E_RANGE,
                             f"offsets[{int(offsets.argmin())}] {int(offsets.min())} "
                             "is negative")
        offsets = _np.ascontiguousarray(offsets, dtype=_np.uint64)
    elif not (isinstance(offsets, ffi.CData) and ffi.typeof(offsets).kind == "array"
              and ffi.typeof(offsets).item.cname == "uint64_t"):
        try:
            items = list(offsets)
        except TypeError:
            raise TypeError(f"{expected}, not {type(offsets).__name__}") from None
        offsets = ffi.new("uint64_t[]", [c_int(o, f"offsets[{i}]", U64)
                                         for i, o in enumerate(items)])
    if count < 0:
        count = len(offsets) - 1
    if count < 0 or len(offsets) < count + 1:
        raise ValueError(f"offsets must have count + 1 entries ({len(offsets)} for "
                         f"count {count})")
    return offsets, count


def tokens_packed(data: Union[bytes, bytearray, memoryview, Any], offsets: Any,
                  count: int = -1) -> Union["_np.ndarray", List[int]]:
    """Tokens of keys already packed back to back, without copying them.

    Key ``i`` is ``data[offsets[i]:offsets[i + 1]]`` (the layout of an Arrow binary
    array). ``offsets`` has ``count + 1`` non-decreasing entries: a numpy ``uint64`` array
    (of any integer dtype), or a sequence of ints; floats, strings, bools and arrays of
    another shape are refused (TypeError or ValueError).
    """
    offsets, count = packed_offsets(offsets, count)
    check_packed(data, offsets, count)
    if _np is not None:
        out = _np.empty(count, dtype=_np.int64)
        with ffi.from_buffer("int64_t[]", out, require_writable=True) as o:
            check(lib.tokenring_tokens(o, _u8(data), _offsets_ptr(offsets), count))
        return out
    outc = ffi.new("int64_t[]", count)
    check(lib.tokenring_tokens(outc, _u8(data), _offsets_ptr(offsets), count))
    return list(outc)
