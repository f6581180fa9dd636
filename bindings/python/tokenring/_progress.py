# SPDX-License-Identifier: Apache-2.0
"""Progress callbacks of the long analyses (``tokenring_progress_fn``), and Ctrl-C.

``progress(done, total)`` is called as the work goes (total may grow; done == total at the
end). Returning a true value cancels the call, which then raises :class:`CancelledError`;
an exception raised by the callback (``KeyboardInterrupt`` in a notebook) cancels it too
and is re-raised once the library has returned.

Ctrl-C (SIGINT) cancels a long call too, with or without ``progress``: Python runs its
signal handlers only between bytecodes of the main thread, never while C runs, so on the
main thread the long calls always pass the library a callback (an internal one that does
nothing when the caller gave none: a few Python calls per second of work). The handler's
``KeyboardInterrupt`` surfaces in the callback, which cancels the C call, and is raised
again once the library has returned. The same holds for any Python signal handler that
raises (``SystemExit`` from a SIGTERM handler, for instance).
"""
import contextlib
import threading
from typing import Any, Callable, Iterator, List, Optional, Tuple

from ._ffi import ffi

__all__ = ["Progress", "progress_callback"]

Progress = Callable[[int, int], Any]

_SIGNATURE = "int(void *, uint64_t, uint64_t)"


@contextlib.contextmanager
def progress_callback(progress: Optional[Progress]) -> Iterator[Tuple[Any, List[BaseException]]]:
    """Yields (C callback or NULL, list that receives an exception the callback raised).

    NULL only when there is no ``progress`` and the caller is not the main thread (no
    signal handler can run there). An exception raised in the callback, or by a signal
    handler as the callback starts or ends (where its own ``try`` cannot catch it: cffi
    would print "Exception ignored from cffi callback" and let the call run on), cancels
    the call and is raised when the ``with`` block ends.
    """
    raised: List[BaseException] = []
    if progress is None and threading.current_thread() is not threading.main_thread():
        yield ffi.NULL, raised
        return

    def call(_user: Any, done: int, total: int) -> int:
        if progress is None:
            return 0  # a pending signal handler has run on the way in
        try:
            return 1 if progress(done, total) else 0
        except BaseException as e:  # re-raised by the caller once C has returned
            raised.append(e)
            return 1

    def onerror(exc_type: Any, exc: Optional[BaseException], _tb: Any) -> int:
        # An exception outside call's try (a signal handler's KeyboardInterrupt).
        raised.append(exc if exc is not None else exc_type())
        return 1

    cb = ffi.callback(_SIGNATURE, call, error=1, onerror=onerror)
    yield cb, raised
    if raised:
        raise raised[0]
