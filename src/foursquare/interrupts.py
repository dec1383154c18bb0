"""A signal whose handler's exception Python drops is sent again.

The handlers that stop a front end (the command line's, the terminal game's) raise where the main thread is.
When that is a finaliser or a weakref callback that the garbage collector called, Python cannot pass the
exception on: it prints "Exception ignored in …" with a traceback, and goes on as if the signal had never come.
While a :class:`Redelivery` is installed, such an exception of its handler's is recognised in
``sys.unraisablehook`` (and not printed), and the signal is sent to the main thread again a moment later, once
the hook has returned, to raise where the program goes on. A handler that finds itself running inside the
hook (:attr:`Redelivery.in_hook`) does the same rather than raise there, where it would be dropped too.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable
from typing import Any

RESEND_DELAY = 0.01
"""Seconds before a dropped signal is sent again: far longer than the hook that saw it dropped takes to return."""


class Redelivery:
    """``sys.unraisablehook`` while installed: an exception for which ``signal_of`` names a signal is that
    signal's, dropped, and the signal is sent again; any other goes to the hook that was there before."""

    def __init__(self, signal_of: Callable[[BaseException], int | None]) -> None:
        self.signal_of = signal_of
        self.in_hook = False
        self.previous: Callable[[Any], object] | None = None

    def install(self) -> None:
        if sys.unraisablehook != self.hook:
            self.previous = sys.unraisablehook
            sys.unraisablehook = self.hook

    def remove(self) -> None:
        if self.previous is not None and sys.unraisablehook == self.hook:
            sys.unraisablehook = self.previous
        self.previous = None

    def hook(self, unraisable: Any) -> None:
        self.in_hook = True
        try:
            exc = unraisable.exc_value
            signum = None if exc is None else self.signal_of(exc)
            if signum is not None:
                send_again_soon(signum)
            elif self.previous is not None:
                self.previous(unraisable)
        finally:
            self.in_hook = False


def send_again_soon(signum: int) -> None:
    """Send ``signum`` to the main thread after :data:`RESEND_DELAY`, from another thread: a signal (not a flag)
    also wakes a main thread that sleeps or waits."""
    main = threading.main_thread().ident
    if main is None:
        return
    timer = threading.Timer(RESEND_DELAY, signal.pthread_kill, (main, signum))
    timer.daemon = True
    timer.start()


__all__ = ["RESEND_DELAY", "Redelivery", "send_again_soon"]
