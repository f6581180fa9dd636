# SPDX-License-Identifier: Apache-2.0
"""Integer arguments of the public API on their way to C: one check for all of them."""
import operator
from typing import Any, Tuple

from ._errors import RangeError
from ._ffi import lib

__all__ = ["c_int", "U32", "U64", "I32"]

#: Bounds of the C integer types the public calls take.
U32 = (0, 2 ** 32 - 1)
U64 = (0, 2 ** 64 - 1)
I32 = (-2 ** 31, 2 ** 31 - 1)


def c_int(value: Any, what: str, bounds: Tuple[int, int] = U32) -> int:
    """Every integer argument of the public API on its way to C, checked once here, before
    cffi would truncate, wrap or raise its own ``OverflowError``: an int, or an int-like
    (``operator.index``: numpy integers); ``bool``, ``float``, ``str`` and the rest are a
    TypeError naming the argument; a value outside ``bounds`` (inclusive; by default the
    C type's range, or the call's own limits) is the library's :class:`RangeError`, a
    ValueError, naming the argument and the range."""
    if isinstance(value, bool):
        raise TypeError(f"{what} must be an int, not bool")
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be an int, not {type(value).__name__}") from None
    lo, hi = bounds
    if not lo <= v <= hi:
        raise RangeError(lib.TOKENRING_E_RANGE, f"{what} {v} is out of range ({lo} .. {hi})")
    return v
