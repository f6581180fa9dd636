# SPDX-License-Identifier: Apache-2.0
"""Progress callbacks of the long analyses (``tokenring_progress_fn``).

``progress(done, total)`` is called as the work goes (total may grow; done == total at the
end). Returning a true value cancels the call, which then raises :class:`CancelledError`;
an exception raised by the callback (``KeyboardInterrupt`` in a notebook) cancels it too
and is re-raised once the library has returned.
"""
import contextlib
from typing import Any, Callable, Iterator, List, Optional, Tuple

from ._ffi import ffi

__all__ = ["Progress", "progress_callback"]

Progress = Callable[[int, int], Any]


@contextlib.contextmanager
def progress_callback(progress: Optional[Progress]) -> Iterator[Tuple[Any, List[BaseException]]]:
    """Yields (C callback or NULL, list that receives an exception the callback raised)."""
    raised: List[BaseException] = []
    if progress is None:
        yield ffi.NULL, raised
        return

    def call(_user: Any, done: int, total: int) -> int:
        try:
            return 1 if progress(done, total) else 0
        except BaseException as e:  # re-raised by the caller once C has returned
            raised.append(e)
            return 1

    cb = ffi.callback("int(void *, uint64_t, uint64_t)", call)
    yield cb, raised
    if raised:
        raise raised[0]
