# SPDX-License-Identifier: Apache-2.0
"""The base of every object that owns a C handle: ``close()``, ``with`` blocks, and
:class:`ClosedError` after close. The handle itself is released by ``ffi.gc``."""
from typing import Any

from ._errors import ClosedError

__all__ = ["Handle", "require"]


class Handle:
    """Owns one C handle (``ffi.gc``) and gives context-manager and close semantics.
    ``_kind`` names the handle ("ring", "topology", ...) in messages and type checks."""

    _ptr: Any = None
    _kind = "object"

    def _p(self) -> Any:
        p = self._ptr
        if p is None:
            raise ClosedError(f"this {self._kind} is closed")
        return p

    @property
    def closed(self) -> bool:
        """True after :meth:`close`."""
        return self._ptr is None

    def close(self) -> None:
        """Releases the C object now (it is freed once no running call uses it). Later
        calls raise :class:`ClosedError`; closing twice is harmless."""
        self._ptr = None

    def __enter__(self) -> Any:
        self._p()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def require(obj: Any, kind: str, what: str) -> Any:
    """The C handle of ``obj`` if it is an open handle of ``kind``, else TypeError."""
    if not isinstance(obj, Handle) or obj._kind != kind:
        raise TypeError(f"{what} needs a {kind.capitalize()}, not {type(obj).__name__}")
    return obj._p()
