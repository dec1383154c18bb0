"""The terminal game: ``foursquare play``.

Interactive when standard input and output are both terminals: a full-screen board drawn with rich, read key
by key (:mod:`.interactive`, :mod:`.keys`, :mod:`.terminal`), each game kept in the data directory after every
move (:mod:`.saved`) and counted once in the games database when it ends. Otherwise line mode
(:mod:`.lines`): one command per line in, plain text out, for scripts. docs/terminal.md describes both as a
player and a script see them: keys, layouts by terminal size, ASCII and ``NO_COLOR``, kept games, line mode's
output, ``--save``. Every word comes from the player's catalogue; cells are named as in every front end.

Importing the package loads none of its modules: ``play --help`` needs only the game's words and keys
(:mod:`.text`, :mod:`.keys`), not the store, rich's console nor the key loop. The names below load their module
when first used (:func:`play` is :mod:`.game`'s).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from foursquare.tui.game import cell_labels, full_screen, goodbye, play, play_interactive
    from foursquare.tui.keys import CELL_KEYS, CellKeys
    from foursquare.tui.lines import play_lines
    from foursquare.tui.session import PlayError, Session, outcome_line

#: Each name of the package, and the module that defines it.
_LAZY = {
    "CELL_KEYS": "keys",
    "CellKeys": "keys",
    "PlayError": "session",
    "Session": "session",
    "cell_labels": "game",
    "full_screen": "game",
    "goodbye": "game",
    "outcome_line": "session",
    "play": "game",
    "play_interactive": "game",
    "play_lines": "lines",
}

__all__ = [
    "CELL_KEYS",
    "CellKeys",
    "PlayError",
    "Session",
    "cell_labels",
    "full_screen",
    "goodbye",
    "outcome_line",
    "play",
    "play_interactive",
    "play_lines",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
