"""The same game in Textual, for the measurement of benchmarks/terminal-ui.md (not part of the package).

It draws the very frames of :mod:`foursquare.tui.screens` in one Textual widget and takes the same keys
and clicks, so the comparison is of the frameworks, not of two different games. Usage:
``python benchmarks/terminal_ui/textual_prototype.py DEAL`` with textual installed.
"""

from __future__ import annotations

import sys

from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Static

from foursquare.engine import Game
from foursquare.tui.board import LastAction, Marks
from foursquare.tui.glyphs import UNICODE
from foursquare.tui.keys import CellKeys
from foursquare.tui.screens import Frame, View, draw_frame
from foursquare.tui.session import Session


class Board(Static):
    pass


class FoursquareApp(App[None]):
    CSS = "Board { width: 100%; height: 100%; }"

    def __init__(self, deal: int) -> None:
        super().__init__()
        game = Game(deal=deal)
        self.session = Session(game, game.variant, deal_shown=True, winnable=False, save=None)
        self.keys = CellKeys()
        self.last: LastAction | None = None
        self.frame = Frame("")

    def compose(self) -> ComposeResult:
        yield Board()

    def on_mount(self) -> None:
        self.redraw()

    def on_resize(self, event: events.Resize) -> None:
        self.redraw()

    def redraw(self) -> None:
        game = self.session.game
        view = View(self.session, Marks(keys=self.keys.update(game), last=self.last), UNICODE)
        self.frame = draw_frame(view, self.size.width, self.size.height)
        self.query_one(Board).update(self.frame.renderable)

    def on_key(self, event: events.Key) -> None:
        game = self.session.game
        key = event.character or event.key
        if key == "q":
            self.exit()
            return
        if key == "u" and game.can_undo:
            self.last = LastAction("undone", game.undo())
        elif key == "r" and game.can_redo:
            self.last = LastAction("redone", game.redo())
        else:
            move = self.keys.move_of(key)
            if move is not None and not game.is_over():
                self.last = LastAction("placed", game.place(*move))
        self.redraw()

    def on_click(self, event: events.Click) -> None:
        move = self.frame.cell_at(event.y, event.x)
        game = self.session.game
        if move is not None and game.is_legal(*move):
            self.last = LastAction("placed", game.place(*move))
            self.redraw()


if __name__ == "__main__":
    FoursquareApp(int(sys.argv[1])).run()
