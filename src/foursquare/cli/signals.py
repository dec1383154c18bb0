"""How the ``foursquare`` command stops on a signal: Ctrl-C (SIGINT), SIGTERM and SIGHUP (the terminal closed).

:func:`foursquare.cli.main` turns each into an exception raised where the program is — ``KeyboardInterrupt``,
or :class:`Stopped` (a kind of it) for SIGTERM and SIGHUP — so that every ``finally`` and context manager runs
on the way up (a file being written is left as it was, with no temporary file beside it); then it prints one
line and exits with 128 and the signal's number (:data:`STOP_SIGNALS`: 130, 143, 129), as a shell reports a
process a signal ended.

- A signal that comes while the program is still loading (before ``main`` runs) is held, and ``main`` stops at
  once when it starts: this module is imported first, and installs the handlers then when it is the program
  that runs (the ``foursquare`` script or ``python -m foursquare.cli``), not a program that imports it.
- A signal that comes while the command is already on its way out (stopping after a first signal, or done)
  is ignored, so that its cleanup (short: a search stops within a few thousand positions) runs to its end; a
  third ends the process at once, as the system would.
- A signal the caller ignored stays ignored (``nohup`` ignores SIGHUP; a shell's background job, SIGINT).
- A process the command forks (a worker of a process pool, ``autoplay --jobs``) leaves Ctrl-C and SIGHUP, which
  reach the whole process group, to the command, and ends at once on SIGTERM, with no cleanup of its own: the
  command ends its workers so (:func:`end_workers`) as it stops, rather than wait for them to play every deal
  handed out.
- An exception Python cannot let through — the handler raised it while a finaliser or a weakref callback ran,
  as the garbage collector called it — is not lost with an "Exception ignored" traceback: the signal is sent
  again, and raises where the program goes on (:mod:`foursquare.interrupts`).
- Handlers are set on the main thread only (Python runs them there); the terminal game sets its own while it
  holds the screen and puts these back after.
"""

from __future__ import annotations

import atexit
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

from foursquare.interrupts import Redelivery, send_again_soon

EXIT_INTERRUPTED = 130  # 128 + SIGINT's number
EXIT_TERMINATED = 143  # 128 + SIGTERM's
EXIT_HANGUP = 129  # 128 + SIGHUP's
#: The signals the command stops on, with the exit status of each.
STOP_SIGNALS: dict[int, int] = {
    signal.SIGINT: EXIT_INTERRUPTED,
    signal.SIGTERM: EXIT_TERMINATED,
    signal.SIGHUP: EXIT_HANGUP,
}
PROGRAM = "foursquare"


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised where the program was when it came, as Ctrl-C raises ``KeyboardInterrupt`` (of
    which it is a kind, so that what cleans up after Ctrl-C cleans up after it too)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _exception(signum: int) -> KeyboardInterrupt:
    return KeyboardInterrupt() if signum == signal.SIGINT else Stopped(signum)


class Signals:
    """The handlers of :data:`STOP_SIGNALS` for one run of the command: see the module's docstring."""

    def __init__(self) -> None:
        self.received: int | None = None  # the first signal that came
        self.repeats = 0  # the signals after it
        self.armed = False  # the command runs: a signal raises (before, it is held)
        self.previous: dict[int, Any] = {}
        self.raised: KeyboardInterrupt | None = None  # what the handler last raised
        self.redelivery = Redelivery(self._dropped)

    def install(self) -> None:
        if self.previous or threading.current_thread() is not threading.main_thread():
            return
        for signum in STOP_SIGNALS:
            handler = signal.getsignal(signum)
            if handler is not signal.SIG_IGN:
                self.previous[signum] = handler
                signal.signal(signum, self.handle)
        self.redelivery.install()

    def arm(self) -> None:
        """The command starts: from now on a signal raises; one that came while the program loaded, at once."""
        self.install()
        self.armed = True
        if self.received is not None:
            raise self._raise(self.received)

    def _raise(self, signum: int) -> KeyboardInterrupt:
        self.raised = _exception(signum)
        return self.raised

    def handle(self, signum: int, frame: FrameType | None) -> None:
        if self.redelivery.in_hook:  # raised here, it would be dropped too
            send_again_soon(signum)
            return
        if self.received is None:
            self.received = signum
            if self.armed:
                raise self._raise(signum)
            return
        self.repeats += 1
        if self.repeats >= 2:  # the third: the system's own way, at once
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)

    def _dropped(self, exc: BaseException) -> int | None:
        """The signal of the handler's exception that Python dropped (see :mod:`foursquare.interrupts`), which is
        then as if it had not come yet; None for any other exception."""
        if not self.armed or exc is not self.raised:
            return None
        signum = self.received or signal.SIGINT
        self.received, self.raised = None, None
        return signum

    def restore(self) -> None:
        """Put the previous handlers back — unless this process is the ``foursquare`` command itself, which is
        then on its way out: its handlers stay, disarmed, so that a signal during the rest of its exit (Python's
        own cleanup, which waits for threads and may take a while after a report's plots) neither raises nor
        kills it halfway with the system's default action; the work is done and the exit status is the
        command's. A program that called :func:`~foursquare.cli.main` (a test) gets its own back whatever
        happened, so that its next Ctrl-C is its own."""
        if _is_the_program():
            self.armed = False
            return
        for signum, handler in self.previous.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
        self.previous.clear()
        self.redelivery.remove()
        self.armed = False

    def status(self, exc: BaseException) -> int:
        """The exit status after ``exc`` (a ``KeyboardInterrupt``): that of the signal that raised it, if any."""
        signum = exc.signum if isinstance(exc, Stopped) else self.received or signal.SIGINT
        return STOP_SIGNALS.get(signum, EXIT_INTERRUPTED)


def _leave_stopping_to_the_parent() -> None:
    """In a child forked while the command's handlers are set: see the module's docstring."""
    for signum in STOP_SIGNALS:
        handler = signal.getsignal(signum)
        if isinstance(getattr(handler, "__self__", None), Signals) or handler is _end_workers_then:
            signal.signal(signum, signal.SIG_DFL if signum == signal.SIGTERM else signal.SIG_IGN)


os.register_at_fork(after_in_child=_leave_stopping_to_the_parent)


_handlers_before_workers: dict[int, Any] = {}


def _end_workers_then(signum: int, frame: FrameType | None) -> None:
    import multiprocessing

    for child in multiprocessing.active_children():
        child.terminate()
    handler = _handlers_before_workers.get(signum)
    if callable(handler):
        handler(signum, frame)


@contextmanager
def end_workers() -> Iterator[None]:
    """While the body runs, a signal ends this process's worker processes (SIGTERM, which they do not catch)
    before the command's handler raises: a process pool would otherwise wait, as it unwinds, for its workers to
    finish every task already handed out."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    saved = {signum: signal.getsignal(signum) for signum in STOP_SIGNALS}
    _handlers_before_workers.update(saved)
    for signum, handler in saved.items():
        if handler is not signal.SIG_IGN:
            signal.signal(signum, _end_workers_then)
    try:
        yield
    finally:
        for signum, handler in saved.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)


def _is_the_program() -> bool:
    """Whether this process is the command (``foursquare …``, ``python -m foursquare.cli …``), rather than a
    program that imports it (a test, the web app): ``python -m`` sets ``sys.argv[0]`` to ``-m`` while it finds
    the module, and so while it imports this package."""
    first = sys.argv[0] if sys.argv else ""
    return first == "-m" or Path(first).name in (PROGRAM, f"{PROGRAM}.exe")


def _ignore_stops_at_exit() -> None:
    """The exit's last step of ours (registered first, so run last): the command's work is over and its threads
    joined. Python then puts the default action back for every handler of its own — not for an ignored signal —
    before it tears its modules down, which after a report's plots takes a while: a signal then would kill the
    process halfway (-15), where the command's exit status is already decided."""
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_IGN)


_loading: Signals | None = None
if _is_the_program():
    _loading = Signals()
    _loading.install()
    atexit.register(_ignore_stops_at_exit)


def for_this_run() -> Signals:
    """The handlers for a run of the command: those installed while the program loaded (once), else new ones."""
    global _loading
    signals, _loading = _loading or Signals(), None
    return signals


__all__ = [
    "EXIT_HANGUP",
    "EXIT_INTERRUPTED",
    "EXIT_TERMINATED",
    "STOP_SIGNALS",
    "Signals",
    "Stopped",
    "end_workers",
    "for_this_run",
]
