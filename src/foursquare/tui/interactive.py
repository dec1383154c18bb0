"""The key loop of the full-screen game: one key (or click) in, one command, one fresh frame out."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable

from rich.console import Group
from rich.text import Text

from foursquare.engine import Game, Move, MoveError
from foursquare.tui import saved
from foursquare.tui.board import LastAction, Marks, window
from foursquare.tui.glyphs import Glyphs
from foursquare.tui.keys import (
    ARROW_STEPS,
    KEY_HELP,
    KEY_HINT,
    KEY_NEW,
    KEY_QUIT,
    KEY_REDO,
    KEY_START_OVER,
    KEY_UNDO,
    NAME_LETTERS,
    CellKeys,
    Keyboard,
    scrolled,
)
from foursquare.tui.screens import Frame, Hint, View, draw_frame, help_lines
from foursquare.tui.session import Session, new_game
from foursquare.tui.terminal import Screen
from foursquare.tui.text import (
    COMMAND_LIST,
    COMMAND_PLAY,
    FIRST_CELL,
    LAST_CELL,
    ROWS,
    cards,
    face,
    illegal_reason,
    keys,
    saved_when,
)


class HintJob:
    """The hint for one position, worked out on a thread so that keys keep working meanwhile."""

    def __init__(self, game: Game) -> None:
        self.moves = list(game.moves)
        self.result: list[Hint] | None = None
        self.error: str | None = None
        self._thread = threading.Thread(target=self._work, args=(game.copy(),), daemon=True)
        self._thread.start()

    def _work(self, game: Game) -> None:
        try:
            from foursquare.players import hint  # numba: slow to import, so only when asked

            advice = hint(game.view())
            self.result = [Hint(a.move, a.win_probability, a.expected_score) for a in advice]
        except Exception as exc:  # a thread's error would be printed over the screen: shown in the frame instead
            self.error = str(exc) or type(exc).__name__

    @property
    def done(self) -> bool:
        return not self._thread.is_alive()

    def is_for(self, game: Game) -> bool:
        return self.moves == game.moves


class Interactive:
    """The state of the screen between keys: the game, the cell keys, the cursor, the hint, the last message."""

    def __init__(self, session: Session, keyboard: Keyboard, screen: Screen, glyphs: Glyphs) -> None:
        self.session = session
        self.t = session.t
        self.keyboard = keyboard
        self.screen = screen
        self.glyphs = glyphs
        self.keys = CellKeys.replayed(session.game)
        self.cursor: Move | None = None
        self.last: LastAction | None = None
        self.message: str | None = None
        self.typing: str | None = None  # the column letter of a cell name being typed
        self.hint_job: HintJob | None = None
        self.frame = Frame(renderable="")

    # --- drawing ---

    def view(self, message: str | None = None) -> View:
        game = self.session.game
        job = self.hint_job
        hints = job.result if job is not None and job.is_for(game) and job.result else []
        marks = Marks(
            keys=self.keys.update(game),
            cursor=self.cursor,
            last=self.last,
            hints={hint.move: rank for rank, hint in enumerate(hints[:5], start=1)},
        )
        thinking = job is not None and job.is_for(game) and not job.done
        return View(self.session, marks, self.glyphs, message or self.message, hints, thinking)

    def draw(self, message: str | None = None) -> None:
        width, height = self.screen.size
        self.frame = draw_frame(self.view(message), width, height)
        self.screen.draw(self.frame.renderable)

    def key(self, draw: Callable[[], object]) -> str:
        """The next key; the frame is redrawn with ``draw`` when the terminal is resized or a hint arrives."""
        while True:
            job = self.hint_job
            waiting = job is not None and not job.done
            key = self.keyboard.read_key(timeout=0.1)
            if key is not None:
                return key
            if self.screen.resized() or (waiting and job is not None and job.done):
                if job is not None and job.error is not None:
                    self.message = self.t("term.hint_failed", error=job.error)
                draw()

    # --- the loop ---

    def run(self, offer: saved.Kept | None = None) -> None:
        """Play until the player quits (q, or Ctrl-D / the terminal closing)."""
        if offer is not None and self.offer_resume(offer):
            self.resume(offer)
        while True:
            self.draw()
            try:
                key = self.key(self.draw)
            except EOFError:
                return
            key = key.lower() if len(key) == 1 else key  # Caps Lock does not matter
            self.message = None
            if self.typing is not None:
                self.finish_name(key)
            elif key == KEY_QUIT:
                return
            else:
                self.command(key)

    def command(self, key: str) -> None:
        game = self.session.game
        if key == KEY_HELP:
            self.show_help()
        elif key in (KEY_UNDO, "backspace"):
            self.undo()
        elif game.is_over():
            self.after_the_end(key)
        elif key == KEY_REDO:
            self.redo()
        elif key == KEY_START_OVER:
            self.start_over()
        elif key == KEY_NEW:
            if self.confirm(self.t("term.confirm_new", command=COMMAND_PLAY, **keys())):
                self.new_deal()
        elif key == KEY_HINT:
            self.hint_job = HintJob(game)
            self.message = self.session.record(assisted=True)
        elif key in ARROW_STEPS:
            self.move_cursor(*ARROW_STEPS[key])
        elif key in ("enter", " "):
            self.place_at_cursor()
        elif key.startswith("click "):
            self.click(key)
        elif key in NAME_LETTERS:
            self.typing = key
            self.message = self.t("term.typing_name", letter=key.upper(), rows=ROWS)
        elif len(key) == 1:  # not Escape, nor a paging key
            self.place_key(key)

    # --- choosing a cell ---

    def finish_name(self, key: str) -> None:
        letter, self.typing = self.typing, None
        if key in ("escape", "backspace"):
            return
        try:
            self.cursor = Move.from_name(f"{letter}{key}")
        except MoveError:
            self.message = self.t("term.bad_name", name=f"{letter}{key}".upper(), first=FIRST_CELL, last=LAST_CELL)
            return
        self.say_cursor()

    def say_cursor(self) -> None:
        card = self.session.game.card_to_place
        if self.cursor is not None and card is not None:
            self.message = self.t("term.cursor_at", cell=self.cursor.name, card=face(self.t, card, self.glyphs.suits))

    def move_cursor(self, drow: int, dcol: int) -> None:
        game = self.session.game
        if self.cursor is None and not game.placements:  # the first card: the cursor starts on its one cell
            self.cursor = game.legal_moves[0]
        else:  # from the cursor, or from the card placed last: the first arrow moves it too
            start = self.cursor if self.cursor is not None else game.placements[-1].move
            min_r, max_r, min_c, max_c = window(game)
            row = min(max(start.row + drow, min_r), max_r)
            col = min(max(start.col + dcol, min_c), max_c)
            self.cursor = Move(row, col)
        self.say_cursor()

    def place_at_cursor(self) -> None:
        if self.cursor is None:
            self.move_cursor(0, 0)
            return
        self.place(self.cursor)

    def click(self, key: str) -> None:
        _, row, col = key.split()
        move = self.frame.cell_at(int(row), int(col))
        if move is not None:
            self.cursor = move
            self.place(move)

    def place_key(self, key: str) -> None:
        move = self.keys.move_of(key)
        if move is None:
            self.message = self.t("term.no_such_cell", key=repr(key), **keys())
            return
        self.place(move)

    # --- commands ---

    def place(self, move: Move) -> None:
        game = self.session.game
        card = game.card_to_place
        error = game.illegality(move.row, move.col)
        if error is not None or card is None:
            why = illegal_reason(self.t, error.reason if error is not None else "game_over")
            name = face(self.t, card, self.glyphs.suits) if card is not None else ""
            self.message = self.t("term.not_legal", card=name, cell=move.name, why=why)
            return
        self.last = LastAction("placed", game.place(move.row, move.col))
        self.after_change()

    def undo(self) -> None:
        game = self.session.game
        if not game.can_undo:
            self.message = self.t("term.nothing_to_undo")
            return
        self.last = LastAction("undone", game.undo())
        self.after_change(assisted=True)

    def redo(self) -> None:
        game = self.session.game
        if not game.can_redo:
            self.message = self.t("term.nothing_to_redo")
            return
        self.last = LastAction("redone", game.redo())
        self.after_change()

    def after_change(self, assisted: bool = False) -> None:
        """Write the game after a change; record it in the statistics when it ended or was helped."""
        written = self.session.write()
        recorded = self.session.record(assisted=assisted) if assisted or self.session.game.is_over() else None
        self.message = written or recorded

    def start_over(self) -> None:
        """Start the deal over from its first card, once the player said yes. The moves are kept for redo (unlike
        ``Game.restart``), and the game left stays whole in its files, a game of its own (``play --list``): the
        fresh start goes on in new files."""
        session = self.session
        game = session.game
        if not game.can_undo:
            return
        if session.written and session.record_path is not None:
            question = self.t("term.confirm_start_over", command=COMMAND_LIST, **keys())
        else:
            question = self.t("term.confirm_start_over_unkept", **keys())
        if not self.confirm(question):
            return
        while game.can_undo:
            game.undo()
        self.last = LastAction("restart")
        self.message = session.start(game, session.deal_shown, assisted=True)

    def new_deal(self) -> None:
        if self.session.winnable:
            self.draw(self.t("term.finding_deal"))
        try:
            game = new_game(self.session.variant, None, self.session.winnable)
        except ValueError:  # the solver found no winnable deal in its tries (its SolverError)
            self.message = self.t("term.no_winnable_deal", **keys())
            return
        self.fresh()
        self.message = self.session.start(game, deal_shown=False)

    def same_deal(self) -> None:
        session = self.session
        self.fresh()
        self.message = session.start(Game(deal=session.game.deal, variant=session.variant), session.deal_shown)

    def fresh(self) -> None:
        self.last = None
        self.cursor = None
        self.keys = CellKeys()

    def after_the_end(self, key: str) -> None:
        if key == KEY_NEW:
            self.new_deal()
        elif key == KEY_START_OVER:
            self.same_deal()

    def confirm(self, question: str) -> bool:
        self.draw(question)
        try:
            return self.key(lambda: self.draw(question)).lower() == "y"
        except EOFError:
            return False

    def offer_resume(self, kept: saved.Kept) -> bool:
        game = kept.game
        t = self.t
        deal = t("term.deal_number", deal=str(game.deal)) if kept.kind == "deal" else t(f"term.deal_{kept.kind}_short")
        when = saved_when(t, kept.path.stat().st_mtime)
        what = t("term.what_resume", deal=deal, placed=cards(t, game.turn))
        return self.confirm(t("term.offer_resume", what=what, when=when, **keys()))

    def resume(self, kept: saved.Kept) -> None:
        session = self.session
        if session.keep is not None and session.keep_is_new and not session.game.turn:  # nothing to keep there
            session.keep.unlink(missing_ok=True)
        session.game = kept.game
        session.variant = kept.game.variant
        session.deal_shown = kept.kind == "deal"
        session.winnable = kept.kind == "winnable"
        session.keep, session.keep_is_new = kept.path, False
        session.written = list(kept.game.moves)  # as its file holds it
        self.fresh()
        self.keys = CellKeys.replayed(kept.game)
        self.last = LastAction("resumed")

    def show_help(self) -> None:
        """The rules, the symbols and the keys; on a short terminal a page at a time (Space or Page Down, Page Up,
        the arrows a line, Home and End), the way out always shown."""
        skip = 0

        def draw() -> int:
            lines = self.screen.lines(Group(*help_lines(self.t, self.glyphs)))
            more = len(lines) > self.screen.size[1] - 1
            footer = self.screen.lines(Text(self.t("term.help_more" if more else "term.help_close"), style="dim"))
            room = self.screen.size[1] - len(footer)
            self.screen.draw_lines(lines[skip : skip + room] + footer)
            return len(lines) - room

        last_skip = draw()
        with contextlib.suppress(EOFError):
            while True:
                key = self.key(draw)
                moved = scrolled(key, skip, last_skip, self.screen.size[1])
                if moved is None:
                    return
                skip = moved
                last_skip = draw()
