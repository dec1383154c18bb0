"""The characters the board is drawn with: box lines and suit symbols, or plain ASCII where the terminal's
encoding cannot show those (``LANG=C``, ``PYTHONIOENCODING=ascii``)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TextIO

from foursquare.grid_text import unicode_ok


@dataclass(frozen=True)
class Box:
    """The corners, the horizontal and the vertical line of one kind of cell border."""

    top_left: str
    top_right: str
    bottom_left: str
    bottom_right: str
    across: str
    down: str


@dataclass(frozen=True)
class Glyphs:
    """One character set for the whole board."""

    plain: Box  #: a pile
    dashed: Box  #: an empty cell the card may go to
    placed: Box  #: the card just placed (marked without colour too, for NO_COLOR)
    cursor: Box  #: the cell under the cursor
    frame: Box  #: around the board
    back: str  #: the texture of a face-down card
    empty: str  #: an empty cell inside the grid
    times: str  #: before a pile's height
    buried: str  #: before the count of face-down cards covered in a pile
    suits: bool  #: card faces with suit symbols (``10♥``, :func:`foursquare.tui.text.face`) rather than ``10H``


UNICODE = Glyphs(
    plain=Box("╭", "╮", "╰", "╯", "─", "│"),
    dashed=Box("╭", "╮", "╰", "╯", "╌", "╎"),
    placed=Box("┏", "┓", "┗", "┛", "━", "┃"),
    cursor=Box("╔", "╗", "╚", "╝", "═", "║"),
    frame=Box("╭", "╮", "╰", "╯", "─", "│"),
    back="░",
    empty="·",
    times="×",
    buried="↓",
    suits=True,
)

ASCII = Glyphs(
    plain=Box("+", "+", "+", "+", "-", "|"),
    dashed=Box("+", "+", "+", "+", ".", ":"),
    placed=Box("*", "*", "*", "*", "=", "*"),
    cursor=Box("@", "@", "@", "@", "~", "@"),
    frame=Box("+", "+", "+", "+", "-", "|"),
    back="#",
    empty=".",
    times="x",
    buried="v",
    suits=False,
)


def for_terminal(stream: TextIO) -> Glyphs:
    """ASCII when ``stream`` cannot encode the symbols, or when the locale says the terminal is plain ASCII
    (``LANG=C``: Python itself then writes UTF-8, which such a terminal shows as garbage)."""
    locale = os.environ.get("LC_ALL") or os.environ.get("LC_CTYPE") or os.environ.get("LANG") or ""
    if not unicode_ok(stream) or locale in ("C", "POSIX"):
        return ASCII
    return UNICODE
