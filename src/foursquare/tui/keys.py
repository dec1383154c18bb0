"""Input of the interactive game: cell keys that stay put, and a keyboard that understands arrows and clicks."""

from __future__ import annotations

import contextlib
import os
import re
import select
import termios
from typing import Any

from foursquare.engine import Game, Move

# Commands first, then the keys of cells, which never include a command key nor a column letter (a-g start a
# cell's name, e.g. "e4").
KEY_UNDO = "u"
KEY_REDO = "r"
KEY_START_OVER = "s"
KEY_NEW = "n"
KEY_QUIT = "q"
KEY_HINT = "h"
KEY_HELP = "?"
COMMAND_KEYS = frozenset({KEY_UNDO, KEY_REDO, KEY_START_OVER, KEY_NEW, KEY_QUIT, KEY_HINT, KEY_HELP})
NAME_LETTERS = "abcdefg"
CELL_KEYS = "ijklmoptvwxyz1234567890;,./'[]-="
assert not (COMMAND_KEYS | set(NAME_LETTERS)) & set(CELL_KEYS)


class CellKeys:
    """The one-key label of every legal cell; a cell keeps its key for as long as it stays legal.

    New legal cells take the first free keys in reading order, so the same history always gives the same keys.
    """

    def __init__(self) -> None:
        self.keys: dict[Move, str] = {}

    @classmethod
    def replayed(cls, game: Game) -> CellKeys:
        """The keys as they stand after ``game``'s moves were played from its start (for a game continued)."""
        keys = cls()
        replay = Game(stock=[card.name for card in game.stock], variant=game.variant)
        keys.update(replay)
        for move in game.moves:
            replay.place(*move)
            keys.update(replay)
        return keys

    def update(self, game: Game) -> dict[Move, str]:
        legal = [] if game.is_over() else game.legal_moves
        kept = {move: key for move, key in self.keys.items() if move in legal}
        free = iter(k for k in CELL_KEYS if k not in kept.values())
        for move in legal:
            if move not in kept:
                key = next(free, None)
                if key is not None:
                    kept[move] = key
        self.keys = dict(sorted(kept.items()))
        return self.keys

    def move_of(self, key: str) -> Move | None:
        return next((move for move, k in self.keys.items() if k == key), None)


ARROWS = {"A": "up", "B": "down", "C": "right", "D": "left"}
#: The keys that move the cursor, in the game and in the lesson alike: the arrows alone (every letter and digit
#: is a command, a cell's key or the start of a cell's name).
ARROW_STEPS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
SEQUENCE = re.compile(rb"\x1b(?:\[<(\d+);(\d+);(\d+)([Mm])|[\[O]([ABCD])|\[[0-9;?]*[~A-Za-z]|O.)", re.DOTALL)
#: The paging keys, in the forms terminals send them (xterm, VT220, rxvt, the application keypad).
PAGING = {
    b"\x1b[5~": "page up",
    b"\x1b[6~": "page down",
    b"\x1b[H": "home",
    b"\x1b[F": "end",
    b"\x1b[1~": "home",
    b"\x1b[4~": "end",
    b"\x1b[7~": "home",
    b"\x1b[8~": "end",
    b"\x1bOH": "home",
    b"\x1bOF": "end",
}
MOUSE_ON = "\x1b[?1000h\x1b[?1006h"  # report button presses, in xterm's SGR form (1006): any size of screen
MOUSE_OFF = "\x1b[?1006l\x1b[?1000l"


class Keyboard:
    """Keys from a terminal without Enter; the terminal's mode is restored on exit.

    Keys are characters, or ``"escape"``, ``"enter"``, ``"backspace"``, ``"up"``/``"down"``/``"left"``/``"right"``,
    ``"page up"``/``"page down"``/``"home"``/``"end"``, or ``"click ROW COL"`` (0-based screen position of a left
    click). The terminal keeps generating SIGINT for Ctrl-C, so Ctrl-C raises KeyboardInterrupt as usual.
    """

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._saved: list[Any] | None = None
        self._pending = b""

    def __enter__(self) -> Keyboard:
        self._saved = termios.tcgetattr(self.fd)
        mode = termios.tcgetattr(self.fd)
        mode[3] &= ~(termios.ICANON | termios.ECHO)
        mode[6][termios.VMIN] = 1
        mode[6][termios.VTIME] = 0
        termios.tcsetattr(self.fd, termios.TCSAFLUSH, mode)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._saved is not None:
            with contextlib.suppress(termios.error, OSError):  # a terminal that closed has no mode to put back
                termios.tcsetattr(self.fd, termios.TCSAFLUSH, self._saved)

    def _fill(self, timeout: float | None) -> bool:
        if not select.select([self.fd], [], [], timeout)[0]:
            return False
        data = os.read(self.fd, 1024)
        if not data:
            raise EOFError
        self._pending += data
        return True

    def read_key(self, timeout: float | None = None) -> str | None:
        """The next key, None on timeout. Raises EOFError when the terminal closes or Ctrl-D is pressed."""
        if not self._pending and not self._fill(timeout):
            return None
        if self._pending[:1] == b"\x1b" and len(self._pending) < 3:
            while self._fill(0.03):  # the rest of an escape sequence comes at once; a lone Escape does not
                pass
        data, self._pending = self._pending, b""
        key, rest = decode_key(data)
        self._pending = rest
        return key


def decode_key(data: bytes) -> tuple[str | None, bytes]:
    """The first key of ``data`` and the bytes after it; ``None`` for a sequence we do not use."""
    first = data[:1]
    if first == b"\x04":
        raise EOFError
    if first == b"\x03":
        raise KeyboardInterrupt
    if first == b"\x1b":
        match = SEQUENCE.match(data)
        if match is None:
            return "escape", data[1:]
        rest = data[match.end() :]
        if match.group(4) is not None:  # SGR mouse: button;column;row, M pressed, m released (1-based)
            button, column, row = int(match.group(1)), int(match.group(2)), int(match.group(3))
            if match.group(4) == b"M" and button == 0:
                return f"click {row - 1} {column - 1}", rest
            return None, rest
        if match.group(5) is not None:
            return ARROWS[match.group(5).decode()], rest
        return PAGING.get(data[: match.end()]), rest
    if first in (b"\r", b"\n"):
        return "enter", data[1:]
    if first in (b"\x7f", b"\x08"):
        return "backspace", data[1:]
    if first[0] >= 0x80:  # a UTF-8 character of up to 4 bytes
        for size in (2, 3, 4):
            with contextlib.suppress(UnicodeDecodeError):
                return data[:size].decode("utf-8"), data[size:]
        return data[:1].decode("utf-8", errors="replace"), data[1:]
    return first.decode("ascii", errors="replace"), data[1:]


def scrolled(key: str, skip: int, last: int, height: int) -> int | None:
    """The first line a pager of ``height`` lines shows after ``key``, from ``skip`` (``last``: the last first
    line there is); None for a key that closes it. Space and Page Down page on, Page Up back, the arrows a line,
    Home and End to either end.

    >>> [scrolled(key, 3, 30, 12) for key in ("page down", "up", "home", "end", "q")]
    [13, 2, 0, 30, None]
    """
    page = max(1, height - 2)
    steps = {" ": page, "page down": page, "down": 1, "up": -1, "page up": -page}
    if key in steps:
        return max(0, min(last, skip + steps[key]))
    if key in ("home", "end"):
        return 0 if key == "home" else max(0, last)
    return None
