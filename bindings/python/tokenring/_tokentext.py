# SPDX-License-Identifier: Apache-2.0
"""Tokens of every partitioner in Cassandra's text form (``TokenFactory.toString`` /
``fromString``, partitioner.h): the one place where the package converts its token values
(ints for Murmur3Partitioner and RandomPartitioner, ``bytes`` for ByteOrderedPartitioner)
to and from the text that the library's ``_text`` calls take and return.

Every operation that is not on the routing hot path (adding nodes, moves, layouts,
allocation, movement, ring token listing) calls one C function for all three partitioners
through these helpers; the Murmur3 lookups keep their int64 paths.
"""
import itertools
import operator
from typing import Any, Callable, Iterable, List, NamedTuple, Optional, Sequence, Tuple, Union

from ._errors import TokenRingError, check, new_error
from ._ffi import ffi, lib
from ._hash import HAVE_NUMPY, Key, as_key_bytes
from ._partitioner import Partitioner, partitioner_name

if HAVE_NUMPY:
    import numpy as _np

__all__ = ["AnyToken", "token_to_text", "token_from_text", "key_token_text",
           "normalize_token_text", "compare_tokens"]

#: A token of any partitioner: an int (Murmur3, RandomPartitioner) or bytes
#: (ByteOrderedPartitioner).
AnyToken = Union[int, bytes]

_KEYLIKE = (str, bytes, bytearray, memoryview)


def _int_text(token: Any) -> str:
    if isinstance(token, bool):
        raise TypeError
    return str(operator.index(token))  # ints, numpy integers; TypeError for the rest


def _bytes_text(token: Any) -> str:
    if not isinstance(token, (bytes, bytearray, memoryview)):
        raise TypeError
    return bytes(token).hex()


class _Form(NamedTuple):
    """How a partitioner's tokens look in Python."""

    what: str                          #: "an int" or "bytes", for TypeError messages
    to_text: Callable[[Any], str]      #: a token value to its text (the library validates it)
    from_text: Callable[[str], Any]    #: the library's canonical text to the value


#: The partitioners' Python token forms (the text form is Cassandra's for all three).
_INT_FORM = _Form("an int", _int_text, int)
_FORMS = {
    Partitioner.MURMUR3: _INT_FORM,
    Partitioner.RANDOM: _INT_FORM,
    Partitioner.BYTE_ORDERED: _Form("bytes", _bytes_text, bytes.fromhex),
}


def _form(partitioner: Union[Partitioner, int, str]) -> Tuple[Partitioner, _Form]:
    part = Partitioner.of(partitioner)
    return part, _FORMS[part]


def text_of(part: Partitioner, token: Any, text: bool = False) -> str:
    """The text of one token of ``part`` from its value in the partitioner's Python form,
    or with ``text`` also from a ``str`` (passed on for the library to validate); the
    typed methods refuse a ``str`` (TypeError), as they always have."""
    if text and isinstance(token, str):
        return token
    form = _FORMS[part]
    try:
        return form.to_text(token)
    except TypeError:
        short = partitioner_name(part).rpartition(".")[2]
        raise TypeError(f"a {short} token is {form.what}, not "
                        f"{type(token).__name__}") from None


def named_text(part: Partitioner, token: Any, what: str) -> str:
    """The canonical text of one token argument of ``part``, its errors naming ``what``
    (e.g. ``first_token``): TypeError for another type, the library's ParseError or
    RangeError for a value outside the partitioner's tokens."""
    try:
        return normalize_token_text(text_of(part, token), part)
    except TypeError as e:
        raise TypeError(f"{what}: {e}") from None
    except TokenRingError as e:
        raise type(e)(e.code, f"{what} {token!r}: {e.message}") from None


def value_of(part: Partitioner, text: str) -> AnyToken:
    """The Python value of a token the library wrote (canonical text)."""
    return _FORMS[part].from_text(text)


def c_texts(part: Partitioner, tokens: Iterable[Any], text: bool = False
            ) -> Tuple[Any, int, Any]:
    """``(const char *const *, count, keep-alive)`` of tokens (values, or with ``text``
    also their text) for a ``_text`` call: the texts in one NUL-separated buffer."""
    if HAVE_NUMPY and isinstance(tokens, _np.ndarray):
        tokens = tokens.tolist()
    tokens = list(tokens)
    texts = None
    if not text and _FORMS[part] is _INT_FORM and bool not in set(map(type, tokens)):
        try:  # the common case at C speed: ints (numpy integers, int-likes) to decimal
            texts = list(map(str, map(operator.index, tokens)))
        except TypeError:
            pass  # text_of names the bad one
    if texts is None:
        texts = [text_of(part, t, text) for t in tokens]
    blob = "\0".join(texts).encode("utf-8") + b"\0"
    if blob.count(b"\0") != max(len(texts), 1):
        bad = next(t for t in texts if "\0" in t)
        raise ValueError(f"token text {bad!r} contains a NUL byte")
    buf = ffi.new("char[]", blob)
    lens = list(map(len, texts))
    if len(blob) != sum(lens) + max(len(texts), 1):  # not ASCII: lengths in bytes
        lens = [len(t.encode("utf-8")) for t in texts]
    offsets = [0, *itertools.accumulate(n + 1 for n in lens[:-1])]
    if HAVE_NUMPY:
        addr = _np.array(offsets, dtype=_np.uint64) + _np.uint64(int(ffi.cast("uintptr_t", buf)))
        ptrs = ffi.from_buffer("char *[]", addr)
        return ptrs, len(texts), (buf, addr)
    return ffi.new("char *[]", [buf + o for o in offsets] or [ffi.NULL]), len(texts), buf


def text_out(fn: Callable[..., int], *args: Any) -> str:
    """One output token: ``fn(out, cap, len_out, *args)``, retried with the length the
    library asked for when the first buffer is too small (#TOKENRING_E_BUFSIZE)."""
    cap = 48  # any Murmur3 or RandomPartitioner token, and short byte tokens
    n = ffi.new("size_t *")
    buf = ffi.new("char[]", cap)
    rc = fn(buf, cap, n, *args)
    if rc == lib.TOKENRING_E_BUFSIZE:
        cap = n[0] + 1
        buf = ffi.new("char[]", cap)
        rc = fn(buf, cap, n, *args)
    check(rc)
    return ffi.string(buf, n[0]).decode("ascii")


def list_out(pp: Any) -> List[str]:
    """The texts of a ``tokenring_token_list`` a call wrote to ``*pp``; frees it."""
    lst = ffi.gc(pp[0], lib.tokenring_token_list_free)
    n = ffi.new("size_t *")
    out = []
    for i in range(lib.tokenring_token_list_count(lst)):
        p = lib.tokenring_token_list_get(lst, i, n)
        out.append(ffi.string(p, n[0]).decode("ascii"))
    return out


def token_to_text(token: AnyToken, partitioner: Union[Partitioner, int, str]) -> str:
    """A token of ``partitioner`` in Cassandra's text form, validated and written by the
    library (tokenring_token_text_normalize): Murmur3 and RandomPartitioner decimal
    (``-1`` the minimum), ByteOrderedPartitioner lowercase hex.

    >>> token_to_text(b"\\x0a\\xbc", "byteordered")
    '0abc'
    """
    part, _ = _form(partitioner)
    return normalize_token_text(text_of(part, token, True), part)


def token_from_text(text: str, partitioner: Union[Partitioner, int, str]) -> AnyToken:
    """A token of ``partitioner`` from Cassandra's text form: an int (Murmur3,
    RandomPartitioner) or bytes (ByteOrderedPartitioner; hex in either case, an odd digit
    count read with a leading 0).

    Raises:
        ParseError: malformed text. RangeError: outside the partitioner's tokens.
    """
    part, _ = _form(partitioner)
    return value_of(part, normalize_token_text(text, part))


def normalize_token_text(text: str, partitioner: Union[Partitioner, int, str]) -> str:
    """Validates a token's text for ``partitioner`` and returns its canonical form
    (tokenring_token_text_normalize): ``"+007"`` is ``"7"``, ``"ABC"`` is ``"0abc"``."""
    part, _ = _form(partitioner)
    if not isinstance(text, str):
        raise TypeError(f"token text must be str, not {type(text).__name__}")
    raw = text.encode("utf-8")
    err = new_error()

    def call(out: Any, cap: int, n: Any) -> int:
        rc = lib.tokenring_token_text_normalize(out, cap, n, int(part), raw, len(raw), err)
        if rc not in (lib.TOKENRING_OK, lib.TOKENRING_E_BUFSIZE):
            check(rc, err)
        return rc
    return text_out(call)


def key_token_text(key: Key, partitioner: Union[Partitioner, int, str] = Partitioner.MURMUR3
                   ) -> str:
    """The token of a partition key (bytes, or str as UTF-8) under ``partitioner``, in
    Cassandra's text form (tokenring_key_token_text): what ``SELECT token(...)`` prints.

    >>> key_token_text(b"test", "random")
    '12707736894140473154801792860916528374'
    """
    part, _ = _form(partitioner)
    b = as_key_bytes(key)
    return text_out(lambda out, cap, n: lib.tokenring_key_token_text(out, cap, n, int(part),
                                                                       b, len(b)))


def compare_tokens(a: Union[AnyToken, str], b: Union[AnyToken, str],
                   partitioner: Union[Partitioner, int, str]) -> int:
    """-1, 0 or 1 as token ``a`` sorts below, equal to or above ``b`` on ``partitioner``'s
    ring (tokenring_token_text_compare); either may be a value or its text."""
    part, _ = _form(partitioner)
    ta, tb = text_of(part, a, True).encode("utf-8"), text_of(part, b, True).encode("utf-8")
    out = ffi.new("int *")
    err = new_error()
    check(lib.tokenring_token_text_compare(out, int(part), ta, tb, err), err)
    return (out[0] > 0) - (out[0] < 0)


def sample_keys(samples: Sequence[Any]) -> Optional[Tuple[Any, Any, int]]:
    """Packed keys and offsets (tokenring_tokens()'s layout) when every sample is a
    partition key (bytes or str), else None (Murmur3 token samples)."""
    if not all(isinstance(s, _KEYLIKE) for s in samples):
        return None
    raw = [as_key_bytes(s) for s in samples]
    offsets = [0]
    for r in raw:
        offsets.append(offsets[-1] + len(r))
    return ffi.new("uint8_t[]", b"".join(raw) or b"\0"), ffi.new("uint64_t[]", offsets), len(raw)
