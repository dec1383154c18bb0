"""The terminal of the interactive game: whole frames drawn without flicker, and a terminal put in game mode
(alternate screen, hidden cursor, key-at-a-time input, mouse clicks) and always put back: on leaving, on Ctrl-C
and Ctrl-Z, and on any signal that would end the program (``kill``, a closed terminal), which then ends it as
:class:`Interrupted`."""

from __future__ import annotations

import contextlib
import os
import re
import signal
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from rich.cells import cell_len
from rich.console import Console, RenderableType

from foursquare.interrupts import Redelivery, send_again_soon
from foursquare.tui.keys import MOUSE_OFF, MOUSE_ON, Keyboard
from foursquare.tui.text import terminal_cells

#: Typographic characters of the messages (the rules' quotes, dashes, suit symbols) as a plain ASCII terminal
#: (``LANG=C``) can show them.
ASCII_FORMS = str.maketrans(
    {
        "“": '"', "”": '"', "„": '"', "‘": "'", "’": "'", "ʻ": "'", "—": "-", "–": "-", "−": "-", "…": "...",
        "×": "x", "·": ".", "•": "-", "♣": "C", "♦": "D", "♥": "H", "♠": "S", "⁶": "6", "⁴": "4", "\u00a0": " ",
    }
)


ALT_SCREEN_ON, ALT_SCREEN_OFF = "\x1b[?1049h", "\x1b[?1049l"
HIDE_CURSOR, SHOW_CURSOR = "\x1b[?25l", "\x1b[?25h"

_ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
#: A line's trailing padding, before the style resets that may follow it.
_TRAILING_PADDING = re.compile(r" +((?:\x1b\[[0-9;]*m)*)$")


def ascii_text(text: str) -> str:
    """``text`` in ASCII: typographic characters in their plain forms, any other as ``?`` for each cell it
    takes (a combining mark takes none), so that lines keep their widths."""
    text = text.translate(ASCII_FORMS)
    if text.isascii():
        return text
    return "".join(ch if ch.isascii() else "?" * cell_len(ch) for ch in text)


@dataclass
class Screen:
    """Draws whole frames on the alternate screen without flicker (in ASCII alone with ``ascii_only``)."""

    console: Console
    last_size: tuple[int, int] = field(default=(0, 0))
    ascii_only: bool = False

    @property
    def size(self) -> tuple[int, int]:
        return self.console.size.width, self.console.size.height

    def lines(self, renderable: RenderableType) -> list[str]:
        """The frame as lines of text with their styles (escape sequences), laid out narrower where a line would
        be longer on the terminal than rich counts (:func:`terminal_cells`)."""
        width = room = self.console.size.width
        while True:
            with self.console.capture() as capture:
                self.console.print(renderable, width=room)
            output = capture.get()
            overhang = max((terminal_cells(_ESCAPES.sub("", line)) - width for line in output.split("\n")), default=0)
            if overhang <= 0 or room == 1:
                break
            room = max(1, room - overhang)
        lines = (ascii_text(output) if self.ascii_only else output).split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        # Bengali and Kannada vowel signs take no cell for rich but one in most terminals (xterm, tmux, VTE):
        # padded to the full width, such a line would wrap there. Unpadded, "erase to the end of the line"
        # clears the rest, and a line only runs a little further right.
        return [_TRAILING_PADDING.sub(r"\1", line) for line in lines]

    def draw(self, renderable: RenderableType) -> None:
        """Draw a whole frame; a terminal too small for it loses the bottom (it never scrolls)."""
        self.draw_lines(self.lines(renderable))

    def draw_lines(self, lines: list[str]) -> None:
        """Draw lines as :meth:`lines` gives them."""
        self.last_size = self.size
        shown = lines[: self.size[1]]
        frame = "\x1b[H" + "\n".join(line + "\x1b[K" for line in shown) + "\x1b[J"
        self.console.file.write(frame)
        self.console.file.flush()

    def resized(self) -> bool:
        """Whether the terminal's size changed (or the frame was lost) since the last frame."""
        return self.size != self.last_size

    def invalidate(self) -> None:
        """Have :meth:`resized` ask for a fresh frame (after the screen was given away)."""
        self.last_size = (0, 0)


#: Signals whose default is to end the program: the game catches them to put the terminal back first. Those
#: a profiler uses (SIGPROF, SIGVTALRM) are left alone.
ENDING_SIGNALS = tuple(
    getattr(signal, name)
    for name in ("SIGHUP", "SIGQUIT", "SIGTERM", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGXCPU", "SIGXFSZ")
    if hasattr(signal, name)
)


class Interrupted(BaseException):  # beside KeyboardInterrupt: no `except Exception` catches it
    """A signal that ends the program (``signum``) arrived while the game owned the terminal, now put back.

    ``previous`` is the handler the signal had before the game (a command line's own, or ``signal.SIG_DFL``):
    :meth:`finish` hands the signal on to it once the game is kept and said goodbye."""

    def __init__(self, signum: int, previous: object) -> None:
        super().__init__(signum)
        self.signum = signum
        self.previous = previous

    @property
    def exit_status(self) -> int:
        """The shell's status for a program ended by the signal: 128 + its number (143 for SIGTERM)."""
        return 128 + self.signum

    def finish(self) -> int:
        """Hand the signal on to the handler it had before (which may raise, as a command line's does); the exit
        status when that handler returns or there was none."""
        if callable(self.previous):
            self.previous(self.signum, None)
        return self.exit_status


@contextlib.contextmanager
def terminal(console: Console, fd: int, screen: Screen, mouse: bool = True) -> Iterator[Keyboard]:
    """Alternate screen, hidden cursor, key-at-a-time input and (with ``mouse``) mouse clicks, all undone however
    we leave.

    Ctrl-Z (SIGTSTP) gives the shell a normal terminal while the game is stopped; ``fg`` brings
    the game back and redraws it. A signal of :data:`ENDING_SIGNALS` (not ignored) puts the terminal back and
    raises :class:`Interrupted`; the handlers there were before are put back on the way out.
    """
    keyboard = Keyboard(fd)

    def write(text: str) -> None:
        with contextlib.suppress(OSError):  # a closed terminal (SIGHUP) cannot be written to: nothing to restore
            console.file.write(text)
            console.file.flush()

    def enter() -> None:
        write(ALT_SCREEN_ON + HIDE_CURSOR + (MOUSE_ON if mouse else ""))

    def leave() -> None:
        write((MOUSE_OFF if mouse else "") + SHOW_CURSOR + ALT_SCREEN_OFF)

    def suspend(signum: int, frame: object) -> None:
        keyboard.__exit__()
        leave()
        signal.signal(signal.SIGTSTP, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTSTP)  # stops here until SIGCONT
        signal.signal(signal.SIGTSTP, suspend)
        keyboard.__enter__()
        enter()
        screen.invalidate()

    previous = {signum: signal.getsignal(signum) for signum in ENDING_SIGNALS}
    caught = [signum for signum, handler in previous.items() if handler != signal.SIG_IGN and handler is not None]

    def end(signum: int, frame: object) -> None:
        if redelivery.in_hook:  # raised here, it would be dropped too
            send_again_soon(signum)
            return
        raise Interrupted(signum, previous[signum])

    # A signal's exception that the garbage collector's callbacks drop comes again (foursquare.interrupts).
    redelivery = Redelivery(_signal_of)
    redelivery.install()
    try:
        for signum in caught:  # before the screen is taken: from then on a signal always finds it put back
            signal.signal(signum, end)
        enter()
        stop = signal.signal(signal.SIGTSTP, suspend)
        interrupt = _let_ctrl_c_through()
        try:
            with keyboard:
                yield keyboard
        finally:
            signal.signal(signal.SIGTSTP, stop)
            interrupt()
    finally:
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, caught)  # no second signal while putting it back
        try:
            leave()
            for signum in caught:
                signal.signal(signum, previous[signum])
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)  # one that came meanwhile: the previous handler's
            redelivery.remove()


def _signal_of(exc: BaseException) -> int | None:
    """The signal whose handler raised ``exc`` in the game: an ending signal's, or Ctrl-C's."""
    if isinstance(exc, Interrupted):
        return exc.signum
    return signal.SIGINT if type(exc) is KeyboardInterrupt else None


def _let_ctrl_c_through() -> Callable[[], None]:
    """Make Ctrl-C quit the game even if whatever started us ignored or blocked SIGINT (a parent's mask and
    ignored signals are inherited); returns what puts the previous state back."""
    handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    blocked = signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})

    def restore() -> None:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        if handler is not None:  # None: a handler set outside Python, which cannot be put back from here
            signal.signal(signal.SIGINT, handler)

    return restore
