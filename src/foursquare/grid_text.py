"""The grid as plain text, identifiers only: the picture of ``replay``, ``play`` in line mode, ``autoplay``
piped, and the reinforcement-learning environment's ``render_mode="ansi"``.

It has no words (card names, cell names and pile heights are identifiers, as in records), so every layer
may show it, in every language.

>>> from foursquare.engine import Game
>>> game = Game(deal=1)
>>> _ = game.place(0, 0)
>>> print(grid_text(game))
          D
   4     3S
"""

from __future__ import annotations

import codecs
from typing import TextIO

from foursquare.engine import Game, column_name, row_name


def grid_text(game: Game, ascii_only: bool = False, empty: str = "") -> str:
    """The occupied box of the grid: ``7H`` face up, ``(7H)`` face down, ``·`` (``.`` in ASCII) empty; ``x3`` =
    pile height; ``empty`` (the caller's words, in the player's language) when no card is down.

    The column letters above it and the row numbers beside it are those of the cells' names (D4 for the first
    card), the same in every front end. Card names and pile heights are identifiers (``7H``, ``x3``), as in
    records: they read the same in every language.
    """
    bounds = game.bounds()
    if bounds is None:
        return empty
    min_r, max_r, min_c, max_c = bounds
    width = 9
    header = "      " + "".join(f"{column_name(c):^{width}}" for c in range(min_c, max_c + 1))
    lines = [header.rstrip()]
    for r in range(min_r, max_r + 1):
        row = []
        for c in range(min_c, max_c + 1):
            pile = game.pile(r, c)
            if pile is None:
                text = "." if ascii_only else "·"
            else:
                name = pile.top.name if pile.top_face_up else f"({pile.top.name})"
                text = name + (f"x{pile.height}" if pile.height > 1 else "")
            row.append(f"{text:^{width}}")
        lines.append(f"{row_name(r):>4}  " + "".join(row).rstrip())
    return "\n".join(lines)


__all__ = ["grid_text"]


def unicode_ok(stream: TextIO) -> bool:
    """Whether ``stream`` can print the symbols of the pictures (``·``, ``♥``, box lines); not under ``LANG=C`` or
    ``PYTHONIOENCODING=ascii``, where they fall back to ASCII."""
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        "·♥♠╭─░×↓…".encode(codecs.lookup(encoding).name)
    except (LookupError, UnicodeEncodeError):
        return False
    return True
