"""The terminal game's key loop driven in-process: keys in, commands and frames out, with no pseudo-terminal.

``foursquare.tui.interactive.Interactive`` reads its keys from a keyboard and draws on a screen; here the keyboard
is a script and the screen a console writing to a string. The pseudo-terminal tests (tests/test_terminal_game.py,
``slow``) drive the same loop through the real terminal; these take milliseconds, for ``make check``.
"""

from __future__ import annotations

import io
import re
from collections import deque
from collections.abc import Iterable

from rich.console import Console

from foursquare.engine import Game, Move
from foursquare.tui.glyphs import UNICODE
from foursquare.tui.interactive import Interactive
from foursquare.tui.keys import KEY_HELP, KEY_REDO, KEY_UNDO
from foursquare.tui.session import Session
from foursquare.tui.terminal import Screen

WIDTH, HEIGHT = 100, 40
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class ScriptedKeyboard:
    """The keys a player presses, one per read; Ctrl-D (EOFError) once they are all read."""

    def __init__(self) -> None:
        self.keys: deque[str] = deque()

    def read_key(self, timeout: float | None = None) -> str | None:
        if not self.keys:
            raise EOFError
        return self.keys.popleft()


class Loop:
    """Deal 1 in the key loop on a 100 × 40 screen."""

    def __init__(self) -> None:
        self.game = Game(deal=1)
        self.session = Session(self.game, self.game.variant, deal_shown=True, winnable=False, save=None)
        self.keyboard = ScriptedKeyboard()
        self.output = io.StringIO()
        console = Console(file=self.output, width=WIDTH, height=HEIGHT, color_system=None, legacy_windows=False)
        self.loop = Interactive(self.session, self.keyboard, Screen(console), UNICODE)

    def press(self, *keys: str | Iterable[str]) -> str:
        """Press ``keys`` (a cell's name is two keys), then Ctrl-D; the last frame drawn, as text."""
        for key in keys:
            self.keyboard.keys.extend([key] if isinstance(key, str) and len(key) != 2 else list(key))
        self.output.seek(0)
        self.output.truncate()
        self.loop.run()
        frames = self.output.getvalue().split("\x1b[H")
        return ESCAPES.sub("", frames[-1])


def test_a_cell_named_then_enter_the_arrows_and_undo_redo_play_the_game() -> None:
    loop = Loop()
    frame = loop.press("d4")  # D4 typed: the cursor is there, nothing placed yet
    assert loop.game.turn == 0 and loop.loop.cursor == Move(0, 0)
    assert "D4" in frame
    loop.press("enter")
    assert loop.game.moves == [Move(0, 0)]
    loop.press("right", "enter")  # from the card placed last, one cell right: E4
    assert loop.game.moves == [Move(0, 0), Move(0, 1)]
    loop.press(KEY_UNDO)
    assert loop.game.turn == 1 and loop.game.can_redo
    loop.press(KEY_REDO)
    assert loop.game.moves == [Move(0, 0), Move(0, 1)] and not loop.game.can_redo


def test_each_legal_cell_has_a_key_and_a_click_on_it_places_there() -> None:
    loop = Loop()
    loop.press("enter", "enter")  # the first arrow or Enter puts the cursor on the one cell; Enter places
    assert loop.game.moves == [Move(0, 0)]
    keys = loop.loop.keys.update(loop.game)
    assert set(keys) == set(loop.game.legal_moves) and len(set(keys.values())) == len(keys)
    move, key = next(iter(keys.items()))
    loop.press(key)
    assert loop.game.moves == [Move(0, 0), move]
    frame = loop.loop.frame
    target = next(m for m in loop.game.legal_moves)
    top, left, height, width = frame.cells[target]
    loop.press(f"click {top + height // 2} {left + width // 2}")
    assert loop.game.moves[-1] == target and loop.game.turn == 3


def test_a_key_that_is_no_cell_and_an_illegal_cell_say_why_and_change_nothing() -> None:
    loop = Loop()
    loop.press("enter", "enter")
    frame = loop.press("'")  # a cell key that no legal cell has now
    assert loop.game.turn == 1 and "'" in frame
    frame = loop.press("g7", "enter")  # G7: far from the card placed
    assert loop.game.turn == 1 and "G7" in frame


def test_help_opens_and_any_key_returns_to_the_game() -> None:
    loop = Loop()
    frame = loop.press(KEY_HELP, "x")
    frames = [ESCAPES.sub("", text) for text in loop.output.getvalue().split("\x1b[H")]
    assert any(text.startswith("How to play") for text in frames), frames  # the rules, page by page
    assert loop.game.turn == 0 and "Card to place" in frame and "3♠" in frame  # back on the board
