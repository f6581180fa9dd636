# SPDX-License-Identifier: Apache-2.0
"""Exceptions: one class per libtokenring status code, all under :class:`TokenRingError`."""
from typing import Any, Dict, Optional, Type

from ._ffi import ffi, lib

__all__ = [
    "TokenRingError", "InvalidArgumentError", "OutOfMemoryError", "NotFoundError",
    "ExistsError", "RangeError", "ParseError", "EmptyError", "BufferSizeError",
    "UnsupportedError", "ImpossibleError", "ClosedError", "NotPlacedError",
]


class TokenRingError(Exception):
    """A libtokenring call failed.

    Attributes:
        code: the library's status code (a negative ``tokenring_status`` value).
        status_name: its enumerator name, e.g. ``"TOKENRING_E_INVAL"``.
        message: the library's detail (``tokenring_error.message``) when the call fills
            one, otherwise the static description of the code (``tokenring_strerror``).
        line: 1-based line of the offending input for parsers, else 0.
        column: 1-based byte column for parsers, else 0.
    """

    code: int
    status_name: str
    message: str
    line: int
    column: int

    def __init__(self, code: int, message: Optional[str] = None, line: int = 0,
                 column: int = 0) -> None:
        self.code = code
        self.status_name = ffi.string(lib.tokenring_status_name(code)).decode()
        self.message = message or ffi.string(lib.tokenring_strerror(code)).decode()
        self.line = line
        self.column = column
        super().__init__(f"{self.message} [{self.status_name}]")


class InvalidArgumentError(TokenRingError, ValueError):
    """TOKENRING_E_INVAL: an invalid argument (empty or non-UTF-8 name, bad flag, ...)."""


class OutOfMemoryError(TokenRingError, MemoryError):
    """TOKENRING_E_NOMEM: an allocation inside the library failed."""


class NotFoundError(TokenRingError, LookupError):
    """TOKENRING_E_NOTFOUND: a named node or datacenter does not exist."""


class ExistsError(TokenRingError, ValueError):
    """TOKENRING_E_EXISTS: a node name or token is already present."""


class RangeError(TokenRingError, ValueError):
    """TOKENRING_E_RANGE: a value outside its limits (name length, replication factor...)."""


class ParseError(TokenRingError, ValueError):
    """TOKENRING_E_PARSE: malformed text; ``line`` and ``column`` locate it."""


class EmptyError(TokenRingError, ValueError):
    """TOKENRING_E_EMPTY: nothing to work on (a node without tokens, an empty ring)."""


class BufferSizeError(TokenRingError):
    """TOKENRING_E_BUFSIZE: an output buffer was too small (the binding retries these)."""


class UnsupportedError(TokenRingError):
    """TOKENRING_E_UNSUPPORTED: a valid request this call cannot satisfy."""


class ImpossibleError(TokenRingError, ValueError):
    """TOKENRING_E_IMPOSSIBLE: no answer can meet the request."""


class CancelledError(TokenRingError):
    """TOKENRING_E_CANCELLED: the ``progress`` callback asked the analysis to stop."""


class NotPlacedError(TokenRingError, ValueError):
    """TOKENRING_E_NOT_PLACED: a valid replication class that places nothing on the token
    ring (LocalStrategy, EverywhereStrategy, MetaStrategy)."""


class ClosedError(ValueError):
    """An object was used after :meth:`close` (or after its ``with`` block)."""


_BY_CODE: Dict[int, Type[TokenRingError]] = {
    lib.TOKENRING_E_INVAL: InvalidArgumentError,
    lib.TOKENRING_E_NOMEM: OutOfMemoryError,
    lib.TOKENRING_E_NOTFOUND: NotFoundError,
    lib.TOKENRING_E_EXISTS: ExistsError,
    lib.TOKENRING_E_RANGE: RangeError,
    lib.TOKENRING_E_PARSE: ParseError,
    lib.TOKENRING_E_EMPTY: EmptyError,
    lib.TOKENRING_E_BUFSIZE: BufferSizeError,
    lib.TOKENRING_E_UNSUPPORTED: UnsupportedError,
    lib.TOKENRING_E_IMPOSSIBLE: ImpossibleError,
    lib.TOKENRING_E_CANCELLED: CancelledError,
    lib.TOKENRING_E_NOT_PLACED: NotPlacedError,
}


def error_for(code: int, err: Any = None) -> TokenRingError:
    """The exception for status ``code``, with the detail of a filled ``tokenring_error *``."""
    message, line, column = None, 0, 0
    if err is not None and err.code == code and err.message[0] != b"\0":
        message = ffi.string(err.message).decode("utf-8", "replace")
        line, column = err.line, err.column
    return _BY_CODE.get(code, TokenRingError)(code, message, line, column)


def check(code: int, err: Any = None) -> None:
    """Raise the exception for a non-zero status code."""
    if code != 0:
        raise error_for(code, err)


def new_error() -> Any:
    """A zeroed ``tokenring_error *`` for one call."""
    return ffi.new("tokenring_error *")
