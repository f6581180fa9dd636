# SPDX-License-Identifier: Apache-2.0
"""Budgets of the long calls (``tokenring_limits``): the ``budget=`` keyword and
:class:`BudgetError`.

Before it runs, a long call (availability summaries, the allocators, migration plans)
estimates its work from its inputs, in work units (about ``WORK_UNITS_PER_SECOND`` take a
second); past its budget it raises :class:`BudgetError` carrying the estimate, without
doing the work. ``budget`` is in seconds (a number, e.g. ``30`` or ``0.5``), or
``"unlimited"`` / ``math.inf``; ``None`` is the library's default (about 5 seconds).
"""
import math
import re
from typing import Any, Iterable, Optional, Union

from . import _errors
from ._errors import TokenRingError
from ._ints import c_int
from ._ffi import ffi, lib

__all__ = ["BudgetError", "Budget", "DEFAULT_BUDGET_UNITS", "WORK_UNITS_PER_SECOND",
           "MAX_NUM_TOKENS", "new_limits", "budget_error"]

Budget = Union[None, int, float, str]

#: Work units of the default budget (``TOKENRING_BUDGET_DEFAULT``).
DEFAULT_BUDGET_UNITS: int = lib.TOKENRING_BUDGET_DEFAULT
#: Work units per second of the calibration (``TOKENRING_WORK_UNITS_PER_SECOND``).
WORK_UNITS_PER_SECOND: int = lib.TOKENRING_WORK_UNITS_PER_SECOND
#: Cassandra's num_tokens limit, the allocators' default cap (``TOKENRING_MAX_NUM_TOKENS``).
MAX_NUM_TOKENS: int = lib.TOKENRING_MAX_NUM_TOKENS

_UNLIMITED = (1 << 64) - 1
_ESTIMATE = re.compile(r"estimated (\d+) work units")


class BudgetError(TokenRingError):
    """TOKENRING_E_BUDGET: the call's estimated work is above its budget; nothing was done.

    ``estimate`` is the estimate in work units (``None`` when the library saturated it,
    past 1.8e19), ``seconds`` the same in rough seconds; pass a larger ``budget=`` (or
    ``budget="unlimited"``) to run it."""

    def __init__(self, code: int, message: Optional[str] = None, line: int = 0,
                 column: int = 0, estimate: Optional[int] = None) -> None:
        super().__init__(code, message, line, column)
        if estimate is None and message:
            m = _ESTIMATE.search(message)
            estimate = int(m.group(1)) if m else None
        if estimate == _UNLIMITED:
            estimate = None
        self.estimate: Optional[int] = estimate
        self.seconds: float = (estimate / WORK_UNITS_PER_SECOND if estimate is not None
                               else math.inf)


_errors._BY_CODE[lib.TOKENRING_E_BUDGET] = BudgetError


def _units(budget: Budget) -> int:
    if budget is None:
        return 0
    if isinstance(budget, str):
        if budget != "unlimited":
            raise ValueError(f"budget: expected seconds or 'unlimited', got {budget!r}")
        return _UNLIMITED
    if isinstance(budget, bool) or not isinstance(budget, (int, float)):
        raise TypeError(f"budget: expected seconds (a number) or 'unlimited', got "
                        f"{type(budget).__name__}")
    if math.isinf(budget) and budget > 0:
        return _UNLIMITED
    if not budget > 0 or math.isnan(budget):
        raise ValueError(f"budget: expected a positive number of seconds, got {budget!r}")
    return max(1, min(_UNLIMITED - 1, int(round(budget * WORK_UNITS_PER_SECOND))))


def new_limits(budget: Budget = None, progress_cb: Any = ffi.NULL,
               failed_nodes: Optional[Iterable[int]] = None,
               max_num_tokens: Optional[int] = None) -> Any:
    """A ``tokenring_limits *`` (and what it points to, kept alive by the returned tuple's
    second item): the budget in units, the progress callback, the nodes already down."""
    lim = ffi.new("tokenring_limits *")
    lim.budget = _units(budget)
    lim.progress = progress_cb
    keep = None
    if failed_nodes is not None:
        ids = [int(i) for i in failed_nodes]
        if any(i < 0 or i > 0xFFFFFFFF for i in ids):
            raise ValueError("failed node indices must be 0 .. 2**32 - 1")
        keep = ffi.new("uint32_t[]", ids or [0])
        lim.failed_nodes = keep if ids else ffi.NULL
        lim.failed_count = len(ids)
    if max_num_tokens is not None:
        lim.max_num_tokens = c_int(max_num_tokens, "max_num_tokens",
                                   (1, lib.TOKENRING_LAYOUT_MAX_TOKENS))
    return lim, keep


def budget_error(rc: int, err: Any, lim: Any) -> None:
    """Raises the exception of ``rc`` (a :class:`BudgetError` with the limits' estimate)."""
    if rc == lib.TOKENRING_E_BUDGET:
        message = ffi.string(err.message).decode("utf-8", "replace")
        raise BudgetError(rc, message or None, estimate=int(lim.estimate))
    _errors.check(rc, err)
