# SPDX-License-Identifier: Apache-2.0
"""Python values to C arguments and back: names, strings, 128-bit widths, tokens and
indices. Out-of-range numbers raise the library's :class:`RangeError` here, before cffi
would raise ``OverflowError``."""
import operator
from typing import Any, Iterable, Tuple, Union

from ._errors import InvalidArgumentError, RangeError
from ._ffi import ffi, lib
from ._hash import HAVE_NUMPY, Key, as_key_bytes
from ._ints import I32, U32, U64, c_int

if HAVE_NUMPY:
    import numpy as _np

__all__ = ["KeyOrToken", "c_name", "c_str", "u128", "token_of", "token_array", "c_index",
           "c_int32", "c_int", "U32", "U64"]

#: A token (an int) or a partition key (bytes, or str hashed as UTF-8).
KeyOrToken = Union[int, Key]

_MIN = lib.TOKENRING_MIN_TOKEN
_MAX = lib.TOKENRING_MAX_TOKEN


def c_name(value: Union[str, bytes], what: str = "name") -> bytes:
    """A node, datacenter, rack or keyspace name as the C string the library reads."""
    if not isinstance(value, (str, bytes, bytearray, memoryview)):
        raise TypeError(f"a {what} must be str or bytes, not {type(value).__name__}")
    b = value.encode("utf-8") if isinstance(value, str) else bytes(value)
    if b"\0" in b:
        raise InvalidArgumentError(lib.TOKENRING_E_INVAL, f"{what} {value!r} contains a NUL byte")
    return b


def c_str(p: Any) -> str:
    """A C string (NULL gives "")."""
    return ffi.string(p).decode("utf-8", "replace") if p != ffi.NULL else ""


def u128(v: Any) -> int:
    """A ``tokenring_u128`` as an int."""
    return (int(v.hi) << 64) | int(v.lo)


def _out_of_range(t: int) -> RangeError:
    return RangeError(lib.TOKENRING_E_RANGE,
                      f"token {t} is outside the Murmur3 range {_MIN} .. {_MAX}")


def _checked(t: int) -> int:
    if t < _MIN or t > _MAX:
        raise _out_of_range(t)
    return t


def token_of(key_or_token: KeyOrToken) -> int:
    """The token of an int (checked to be a signed 64-bit value) or of a key."""
    if type(key_or_token) is int:
        if _MIN <= key_or_token <= _MAX:
            return key_or_token
        raise _out_of_range(key_or_token)
    if isinstance(key_or_token, (str, bytes, bytearray, memoryview)):
        b = as_key_bytes(key_or_token)
        return lib.tokenring_token(b, len(b))
    if isinstance(key_or_token, bool):
        raise TypeError("a token must be an int, not bool")
    try:
        t = operator.index(key_or_token)  # numpy integers and other int-likes
    except TypeError:
        raise TypeError("expected a token (int) or a partition key (bytes or str), not "
                        f"{type(key_or_token).__name__}") from None
    return _checked(t)


def token_array(tokens: Iterable[int]) -> Tuple[Any, int]:
    """``(int64_t[] pointer, count)`` of many tokens; a numpy array of signed 64-bit
    integers is passed without copying."""
    if HAVE_NUMPY and isinstance(tokens, _np.ndarray):
        if tokens.dtype.kind not in "iu":
            raise TypeError(f"tokens must be signed 64-bit integers, not {tokens.dtype}")
        if tokens.dtype.kind == "u" and tokens.size and int(tokens.max()) > _MAX:
            raise _out_of_range(int(tokens.max()))
        arr = _np.ascontiguousarray(tokens, dtype=_np.int64)
        return ffi.from_buffer("int64_t[]", arr), len(arr)
    lst = []
    for t in tokens:
        if isinstance(t, bool):
            raise TypeError("a token must be an int, not bool")
        lst.append(_checked(operator.index(t)))
    return ffi.new("int64_t[]", lst), len(lst)


def c_index(index: int, what: str = "index") -> int:
    """A non-negative index for a ``size_t`` argument (a negative or huge one is the
    library's RangeError, as an index past the end is)."""
    return c_int(index, what, (0, 2 ** 63 - 1))


def c_int32(value: int, what: str) -> int:
    """An ``int32_t`` argument (replication factors, counts): out of range is RangeError."""
    return c_int(value, what, I32)
