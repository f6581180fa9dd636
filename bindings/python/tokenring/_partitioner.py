# SPDX-License-Identifier: Apache-2.0
"""RandomPartitioner (MD5) and ByteOrderedPartitioner tokens (``tokenring/partitioner.h``).

A RandomPartitioner token is a Python ``int``: 0 .. 2**127, or -1 (the minimum token, the
empty key's). A ByteOrderedPartitioner token is the key's ``bytes``.
"""
import enum
from typing import Any, Iterable, List, Union

from ._errors import check, new_error
from ._ffi import ffi, lib
from ._hash import Key, _offsets_ptr, _u8, as_key_bytes, pack_keys

__all__ = [
    "Partitioner", "partitioner_name", "parse_partitioner", "RANDOM_MIN_TOKEN", "RANDOM_MAX_TOKEN", "md5", "random_token", "random_tokens",
    "compare_random_tokens", "format_random_token", "parse_random_token", "byte_ordered_token", "format_byte_token",
    "parse_byte_token", "compare_byte_tokens",
]

#: RandomPartitioner's minimum token (the empty key's).
RANDOM_MIN_TOKEN = -1
#: RandomPartitioner's largest token, 2**127.
RANDOM_MAX_TOKEN = 1 << 127

_MASK64 = (1 << 64) - 1


class Partitioner(enum.IntEnum):
    """Cassandra's partitioners a ring can use (tokenring_partitioner)."""

    MURMUR3 = lib.TOKENRING_PARTITIONER_MURMUR3
    RANDOM = lib.TOKENRING_PARTITIONER_RANDOM
    BYTE_ORDERED = lib.TOKENRING_PARTITIONER_BYTE_ORDERED

    @classmethod
    def of(cls, value: Union["Partitioner", int, str]) -> "Partitioner":
        """A Partitioner from itself, its value, or a name :func:`parse_partitioner` reads."""
        if isinstance(value, str):
            return parse_partitioner(value)
        return cls(value)


def partitioner_name(partitioner: Union[Partitioner, int]) -> str:
    """The Java class name, e.g. ``org.apache.cassandra.dht.RandomPartitioner``."""
    p = lib.tokenring_partitioner_name(int(Partitioner(partitioner)))
    return ffi.string(p).decode("ascii")


def parse_partitioner(text: str) -> Partitioner:
    """A partitioner from its class name or short class name, exactly as Cassandra reads
    them (case-sensitive), or ``murmur3`` / ``random`` / ``byteordered`` (case ignored).

    Raises:
        ParseError: an unknown name. UnsupportedError: OrderPreservingPartitioner or
        LocalPartitioner.
    """
    raw = text.encode("utf-8")
    out = ffi.new("tokenring_partitioner *")
    err = new_error()
    check(lib.tokenring_partitioner_parse(out, raw, len(raw), err), err)
    return Partitioner(out[0])


def _from_c(t: Any) -> int:
    if t.hi == lib.TOKENRING_TOKEN128_MIN_HI and t.lo == lib.TOKENRING_TOKEN128_MIN_LO:
        return RANDOM_MIN_TOKEN
    return (int(t.hi) << 64) | int(t.lo)


def _to_c(token: int) -> Any:
    if not isinstance(token, int) or isinstance(token, bool):
        raise TypeError(f"a RandomPartitioner token is an int, not {type(token).__name__}")
    t = ffi.new("tokenring_token128 *")
    if token == RANDOM_MIN_TOKEN:
        t.hi, t.lo = lib.TOKENRING_TOKEN128_MIN_HI, lib.TOKENRING_TOKEN128_MIN_LO
    elif 0 <= token <= RANDOM_MAX_TOKEN:
        t.hi, t.lo = token >> 64, token & _MASK64
    else:
        raise ValueError(f"{token} is not a RandomPartitioner token (-1 or 0 .. 2**127)")
    return t


def md5(data: Key) -> bytes:
    """The 16-byte MD5 digest (RFC 1321) of ``data`` (``str`` as UTF-8)."""
    b = as_key_bytes(data)
    out = ffi.new("uint8_t[16]")
    check(lib.tokenring_md5(out, b, len(b)))
    return bytes(out)


def random_token(key: Key) -> int:
    """The RandomPartitioner token of a partition key, exactly as Cassandra's
    ``RandomPartitioner.getToken``: ``abs`` of the MD5 digest read as a signed 128-bit
    big-endian integer (0 .. 2**127), and -1 for the empty key.

    >>> random_token(b"test")
    12707736894140473154801792860916528374
    >>> random_token(b"")
    -1
    """
    b = as_key_bytes(key)
    return _from_c(lib.tokenring_random_token(b, len(b)))


def random_tokens(keys: Iterable[Key]) -> List[int]:
    """RandomPartitioner tokens of many keys, hashed in one C call (a list of ints)."""
    data, offsets, n = pack_keys(keys)
    if n == 0:
        return []
    out = ffi.new("tokenring_token128[]", n)
    check(lib.tokenring_random_tokens(out, _u8(data), _offsets_ptr(offsets), n))
    return [_from_c(out[i]) for i in range(n)]


def compare_random_tokens(a: int, b: int) -> int:
    """-1, 0 or 1 as RandomPartitioner token ``a`` sorts below, equal to or above ``b``
    (-1 first, then by value), computed by the library."""
    c = lib.tokenring_token128_compare(_to_c(a)[0], _to_c(b)[0])
    return (c > 0) - (c < 0)


def format_random_token(token: int) -> str:
    """A RandomPartitioner token in Cassandra's text form (decimal, ``-1`` the minimum),
    written by the library (``tokenring_token128_format``)."""
    t = _to_c(token)
    buf = ffi.new("char[]", lib.TOKENRING_TOKEN128_TEXT_MAX)
    n = ffi.new("size_t *")
    check(lib.tokenring_token128_format(buf, lib.TOKENRING_TOKEN128_TEXT_MAX, n, t[0]))
    return ffi.string(buf, n[0]).decode("ascii")


def parse_random_token(text: str) -> int:
    """A RandomPartitioner token from Cassandra's text form (``TokenFactory.fromString``:
    optional sign, decimal digits), -1 or 0 .. 2**127.

    Raises:
        ParseError: empty or malformed text.
        RangeError: below -1 or above 2**127.
    """
    raw = text.encode("utf-8")
    out = ffi.new("tokenring_token128 *")
    err = new_error()
    check(lib.tokenring_token128_parse(out, raw, len(raw), err), err)
    return _from_c(out[0])


def byte_ordered_token(key: Key) -> bytes:
    """The ByteOrderedPartitioner token of a key: the key's bytes (``str`` as UTF-8); the
    empty key's is ``b""``, the partitioner's minimum."""
    return bytes(as_key_bytes(key))


def format_byte_token(token: bytes) -> str:
    """A ByteOrderedPartitioner token as Cassandra prints it (lowercase hex)."""
    b = bytes(token)
    cap = 2 * len(b) + 1
    buf = ffi.new("char[]", cap)
    n = ffi.new("size_t *")
    check(lib.tokenring_byte_token_format(buf, cap, n, b, len(b)))
    return ffi.string(buf, n[0]).decode("ascii")


def parse_byte_token(text: str) -> bytes:
    """A ByteOrderedPartitioner token from Cassandra's text form: hex digits, an odd
    count read with a leading 0 (``parse_byte_token("abc") == b"\\x0a\\xbc"``).

    Raises:
        ParseError: a character that is not a hex digit.
    """
    raw = text.encode("utf-8")
    cap = len(raw) // 2 + 1
    out = ffi.new("uint8_t[]", cap)
    n = ffi.new("size_t *")
    err = new_error()
    check(lib.tokenring_byte_token_parse(out, cap, n, raw, len(raw), err), err)
    return bytes(ffi.buffer(out, n[0]))


def compare_byte_tokens(a: bytes, b: bytes) -> int:
    """-1, 0 or 1 as ByteOrderedPartitioner token ``a`` sorts below, equal to or above
    ``b`` (unsigned bytes, lexicographic, a prefix first), computed by the library."""
    ba, bb = bytes(a), bytes(b)
    c = lib.tokenring_byte_token_compare(ba, len(ba), bb, len(bb))
    return (c > 0) - (c < 0)
