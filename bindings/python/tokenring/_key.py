# SPDX-License-Identifier: Apache-2.0
"""Partition-key bytes: CQL value serialization, composite keys, getendpoints strings."""
import datetime as _dt
import enum
import uuid as _uuid
from typing import Any, Callable, Iterable, Sequence, Union

from ._errors import BufferSizeError, check, new_error
from ._ffi import ffi, lib
from ._hash import Key, as_key_bytes

__all__ = [
    "CqlType", "cql_type", "encode_int", "encode_bigint", "encode_smallint",
    "encode_tinyint", "encode_boolean", "encode_timestamp", "encode_uuid", "encode_text",
    "parse_value", "parse_key", "composite", "parse_token", "hex_decode",
]


class CqlType(enum.IntEnum):
    """The CQL types whose values libtokenring serializes and parses (tokenring_cql_type)."""

    ASCII = lib.TOKENRING_CQL_ASCII
    BIGINT = lib.TOKENRING_CQL_BIGINT
    BLOB = lib.TOKENRING_CQL_BLOB
    BOOLEAN = lib.TOKENRING_CQL_BOOLEAN
    DATE = lib.TOKENRING_CQL_DATE
    DECIMAL = lib.TOKENRING_CQL_DECIMAL
    DOUBLE = lib.TOKENRING_CQL_DOUBLE
    FLOAT = lib.TOKENRING_CQL_FLOAT
    INET = lib.TOKENRING_CQL_INET
    INT = lib.TOKENRING_CQL_INT
    SMALLINT = lib.TOKENRING_CQL_SMALLINT
    TEXT = lib.TOKENRING_CQL_TEXT
    TIME = lib.TOKENRING_CQL_TIME
    TIMESTAMP = lib.TOKENRING_CQL_TIMESTAMP
    TIMEUUID = lib.TOKENRING_CQL_TIMEUUID
    TINYINT = lib.TOKENRING_CQL_TINYINT
    UUID = lib.TOKENRING_CQL_UUID
    VARINT = lib.TOKENRING_CQL_VARINT

    @property
    def cql_name(self) -> str:
        """The canonical CQL name, e.g. ``"int"`` (tokenring_cql_type_name)."""
        return ffi.string(lib.tokenring_cql_type_name(int(self))).decode()


def cql_type(name: Union[str, int, CqlType]) -> CqlType:
    """A :class:`CqlType` from its CQL name (case-insensitive; ``varchar``, ``counter`` and
    the other aliases the library knows), or from a ``CqlType``/int value.

    Raises:
        NotFoundError: for an unknown or unsupported type name.
    """
    if isinstance(name, int):
        return CqlType(name)
    out = ffi.new("tokenring_cql_type *")
    check(lib.tokenring_cql_type_from_name(out, name.encode("utf-8")))
    return CqlType(out[0])


def _fixed(fn: Callable[..., int], size: int, *args: Any) -> bytes:
    out = ffi.new("uint8_t[]", size)
    check(fn(out, *args))
    return bytes(ffi.buffer(out, size))


def encode_int(value: int) -> bytes:
    """Serialized CQL ``int`` (4 bytes big-endian). OverflowError outside int32."""
    return _fixed(lib.tokenring_encode_int, 4, value)


def encode_bigint(value: int) -> bytes:
    """Serialized CQL ``bigint``/``counter`` (8 bytes big-endian)."""
    return _fixed(lib.tokenring_encode_bigint, 8, value)


def encode_smallint(value: int) -> bytes:
    """Serialized CQL ``smallint`` (2 bytes big-endian)."""
    return _fixed(lib.tokenring_encode_smallint, 2, value)


def encode_tinyint(value: int) -> bytes:
    """Serialized CQL ``tinyint`` (1 byte)."""
    return _fixed(lib.tokenring_encode_tinyint, 1, value)


def encode_boolean(value: bool) -> bytes:
    """Serialized CQL ``boolean`` (one byte 00/01)."""
    return _fixed(lib.tokenring_encode_boolean, 1, 1 if value else 0)


def encode_timestamp(value: Union[int, _dt.datetime]) -> bytes:
    """Serialized CQL ``timestamp``: signed milliseconds since the epoch (an int), or an
    aware ``datetime`` (a naive one is taken as UTC)."""
    if isinstance(value, _dt.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=_dt.timezone.utc)
        delta = value - _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)
        value = (delta.days * 86400 + delta.seconds) * 1000 + delta.microseconds // 1000
    return _fixed(lib.tokenring_encode_timestamp, 8, value)


def encode_uuid(value: Union[_uuid.UUID, str, bytes]) -> bytes:
    """Serialized CQL ``uuid``/``timeuuid`` (16 bytes, RFC 4122 order)."""
    if isinstance(value, bytes):
        value = _uuid.UUID(bytes=value)
    elif isinstance(value, str):
        value = _uuid.UUID(value)
    i = value.int
    return _fixed(lib.tokenring_encode_uuid, 16, i >> 64, i & 0xFFFFFFFFFFFFFFFF)


def encode_text(value: str) -> bytes:
    """Serialized CQL ``text``/``varchar``: the UTF-8 bytes."""
    return value.encode("utf-8")


def _measured(call: Callable[[Any, int, Any], int], first: int = 64) -> bytes:
    """Runs a caller-buffer call, growing the buffer once on TOKENRING_E_BUFSIZE."""
    size = first
    for _ in range(2):
        out = ffi.new("uint8_t[]", max(size, 1))
        n = ffi.new("size_t *")
        rc = call(out, size, n)
        if rc == lib.TOKENRING_E_BUFSIZE and n[0] > size:
            size = n[0]
            continue
        check(rc, getattr(call, "err", None))
        return bytes(ffi.buffer(out, n[0]))
    raise BufferSizeError(lib.TOKENRING_E_BUFSIZE)  # pragma: no cover - library contract


def parse_value(type: Union[str, int, CqlType], text: str) -> bytes:
    """Serialized bytes of one value given in the string form ``nodetool getendpoints``
    accepts (Cassandra's ``AbstractType.fromString``), e.g. ``parse_value("int", "42")``.

    Raises:
        ParseError: malformed text (the message says where and what was expected).
        RangeError: a number that does not fit the type.
    """
    t = int(cql_type(type))
    raw = text.encode("utf-8")
    err = new_error()

    def call(out: Any, cap: int, n: Any) -> int:
        return lib.tokenring_value_parse(out, cap, n, t, raw, len(raw), err)
    call.err = err  # type: ignore[attr-defined]
    return _measured(call, max(64, 2 * len(raw) + 16))


def parse_key(types: Sequence[Union[str, int, CqlType]], text: str) -> bytes:
    """Partition-key bytes from getendpoints' string form: one value for one type, or the
    ``:``-separated components of a composite key (``\\:`` for a literal colon).

    >>> parse_key(["text", "int"], "user:42").hex()
    '0004757365720000040000002a00'
    """
    ts = ffi.new("tokenring_cql_type[]", [int(cql_type(t)) for t in types])
    raw = text.encode("utf-8")
    err = new_error()

    def call(out: Any, cap: int, n: Any) -> int:
        return lib.tokenring_key_parse(out, cap, n, ts, len(types), raw, len(raw), err)
    call.err = err  # type: ignore[attr-defined]
    return _measured(call, max(64, 3 * len(raw) + 16 + 3 * len(types)))


def composite(parts: Iterable[Key]) -> bytes:
    """A composite partition key from its components' serialized bytes (``str`` parts are
    UTF-8): per component a u16 big-endian length, the bytes and a 0x00 byte."""
    bs = [as_key_bytes(p) for p in parts]
    data = b"".join(bs)
    offs = [0]
    for b in bs:
        offs.append(offs[-1] + len(b))
    offsets = ffi.new("uint64_t[]", offs)
    buf = ffi.from_buffer("uint8_t[]", data) if data else ffi.new("uint8_t[1]")

    def call(out: Any, cap: int, n: Any) -> int:
        return lib.tokenring_composite_encode(out, cap, n, buf, offsets, len(bs))
    return _measured(call, len(data) + 3 * len(bs))


def parse_token(text: str) -> int:
    """A token in the form Cassandra's Murmur3Partitioner reads (``Long.parseLong``: an
    optional sign and decimal digits, nothing else), e.g. ``parse_token("-42")``.

    Raises:
        ParseError: empty or malformed text (the message says where).
        RangeError: outside the signed 64-bit range.
    """
    raw = text.encode("utf-8")
    out = ffi.new("int64_t *")
    err = new_error()
    check(lib.tokenring_token_parse(out, raw, len(raw), err), err)
    return int(out[0])


def hex_decode(text: str) -> bytes:
    """Bytes from hex text with an optional ``0x`` prefix (``hex_decode("0x00ff")`` is
    ``b"\\x00\\xff"``), as the command-line tool reads ``--hex`` keys.

    Raises:
        ParseError: an odd number of digits, or a character that is not a hex digit.
    """
    raw = text.encode("utf-8")
    err = new_error()

    def call(out: Any, cap: int, n: Any) -> int:
        return lib.tokenring_hex_decode(out, cap, n, raw, len(raw), err)
    call.err = err  # type: ignore[attr-defined]
    return _measured(call, max(1, len(raw) // 2))
