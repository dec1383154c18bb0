"""``foursquare learn``: the lesson (:mod:`foursquare.lesson`) in the terminal.

Full screen when both ends are a terminal that moves its cursor (as ``foursquare play``): the board of the
game with the step's cell marked, the step's sentence beside it, the cursor moved by the arrows (or h j k l),
Enter or Space placing, a cell named by typing it (``e4``), a click on it; any other cell gets a one-line
correction. After each card, what it turned over is said in the game's own words (``flip.*``). Otherwise line
mode: each step's sentence, then a prompt for the cell's name. ``q`` leaves either; the last lines say how to
start a real game.
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Iterable
from typing import TextIO

from rich.console import Console, Group, RenderableType
from rich.text import Text

from foursquare.engine import MAX_FACE_DOWN, Move, MoveError
from foursquare.i18n import Translator
from foursquare.lesson import Lesson, Step
from foursquare.tui.board import BOARD_HEIGHT, BOARD_WIDTH, LastAction, Marks, compact_board, full_board, window
from foursquare.tui.glyphs import ASCII, Glyphs, for_terminal
from foursquare.tui.keys import KEY_QUIT, NAME_LETTERS, Keyboard
from foursquare.tui.screens import as_lines, beside, one_line
from foursquare.tui.terminal import Interrupted, Screen, terminal
from foursquare.tui.text import COMMAND_PLAY, FIRST_CELL, LAST_CELL, PROGRAM, ROWS, face, flip_sentences, keys

COMMAND_LEARN = f"{PROGRAM} learn"
#: Keys that move the cursor: the arrows, and h j k l as in vi.
MOVES = {
    "up": (-1, 0),
    "down": (1, 0),
    "left": (0, -1),
    "right": (0, 1),
    "k": (-1, 0),
    "j": (1, 0),
    "h": (0, -1),
    "l": (0, 1),
}
#: The mark of the step's cell on the board.
TARGET_MARK = "*"
SIDE_MIN = 26  # the narrowest text beside the board (80 columns have it); a narrower terminal has it under the board


def step_sentence(t: Translator, step: Step, suits: bool) -> str:
    """What to do at ``step`` and why, in one sentence (``lesson.step.<code>``)."""
    return t(f"lesson.step.{step.code}", card=face(t, step.card, suits), cell=step.cell, limit=t.number(MAX_FACE_DOWN))


def what_happened(t: Translator, step: Step, limit: int, suits: bool) -> list[str]:
    """After a step: the card placed, what turned over and why (the game's sentences), the face-down count."""
    placement = step.placement
    lines = [t("flip.placed", card=face(t, placement.card, suits), cell=step.cell)]
    lines += [sentence.text for sentence in flip_sentences(t, placement, suits)] or [t("lesson.nothing")]
    lines.append(t("lesson.faceDown", count=t.number(step.face_down), limit=t.number(limit)))
    return lines


def ending(t: Translator) -> list[str]:
    """The last words: the congratulation and how to start a real game."""
    return [t("lesson.done.title"), t("lesson.done.text"), t("term.lesson.play", command=COMMAND_PLAY)]


def stopped(t: Translator, lesson: Lesson) -> str:
    return t(
        "term.lesson.stopped",
        number=t.number(lesson.number),
        total=t.number(len(lesson.steps)),
        command=COMMAND_LEARN,
    )


def learn(t: Translator) -> int:
    """Run the lesson on this process's terminal (or in line mode); the exit status."""
    from foursquare.tui import full_screen

    if full_screen(sys.stdin, sys.stdout):
        return learn_interactive(t)
    return learn_lines(t, sys.stdin, sys.stdout)


# --- line mode -----------------------------------------------------------------------------------------------


def learn_lines(t: Translator, lines: Iterable[str], out: TextIO) -> int:
    """The lesson one line at a time: the step's sentence, then a prompt for the cell's name."""
    from foursquare.grid_text import unicode_ok

    suits = unicode_ok(out)
    lesson = Lesson()
    total = len(lesson.steps)

    def say(text: str = "", end: str = "\n") -> None:
        print(text, file=out, end=end, flush=True)

    say(t("lesson.title"))
    say(t("lesson.intro"))
    source = iter(lines)
    while (step := lesson.current) is not None:
        say()
        say(t("lesson.progress", number=t.number(step.number), total=t.number(total)))
        say(step_sentence(t, step, suits))
        while True:
            say(t("term.lesson.prompt", card=face(t, step.card, suits), **keys()), end="")
            raw = next(source, None)
            if raw is None or raw.strip().lower() in (KEY_QUIT, "quit"):
                say()
                say(stopped(t, lesson))
                return 0
            answer = raw.strip()
            if not answer:
                continue
            try:
                move = Move.from_name(answer)
            except MoveError:
                say(t("term.bad_name", name=answer.upper(), first=FIRST_CELL, last=LAST_CELL))
                continue
            if lesson.check(move) is not None:
                say(t("lesson.wrong", cell=step.cell))
                continue
            break
        lesson.place(move)
        for line in what_happened(t, step, lesson.limit, suits):
            say(line)
    say()
    for line in ending(t):
        say(line)
    return 0


# --- full screen ---------------------------------------------------------------------------------------------


class LessonScreen:
    """The lesson between keys: the cursor, the cell name being typed, the last message."""

    def __init__(self, t: Translator, keyboard: Keyboard, screen: Screen, glyphs: Glyphs) -> None:
        self.t = t
        self.keyboard = keyboard
        self.screen = screen
        self.glyphs = glyphs
        self.lesson = Lesson()
        self.cursor: Move | None = Move(0, 0)
        self.typing: str | None = None
        self.message: str | None = None
        self.last: Step | None = None
        self.cells: dict[Move, tuple[int, int, int, int]] = {}

    # --- drawing ---

    def marks(self) -> Marks:
        step = self.lesson.current
        target = frozenset() if step is None else frozenset({step.move})
        last = None if self.last is None else LastAction("placed", self.last.placement)
        return Marks(
            keys={move: TARGET_MARK for move in target},
            cursor=self.cursor if step is not None else None,
            last=last,
            offered=target,
        )

    def side(self, width: int) -> list[Text]:
        """The words beside (or under) the board: the step, what the last card did, what to do now."""
        t, suits = self.t, self.glyphs.suits
        lesson = self.lesson
        items: list[Text] = [Text(t("lesson.title"), style="bold")]
        step = lesson.current
        total = t.number(len(lesson.steps))
        if step is not None:
            items.append(Text(t("lesson.progress", number=t.number(step.number), total=total), style="dim"))
        else:
            items.append(Text(t("lesson.intro"), style="dim"))
        if self.last is not None:
            items.append(Text(""))
            items += [Text(line) for line in what_happened(t, self.last, lesson.limit, suits)]
        items.append(Text(""))
        if step is not None:
            items.append(Text(step_sentence(t, step, suits), style="bold"))
        else:
            title, text, play = ending(t)
            items += [Text(f" {title} ", style="bold reverse green"), Text(text), Text(play, style="bold")]
        return [line for item in items for line in as_lines(item, width)]

    def bottom(self, width: int) -> list[Text]:
        t = self.t
        ascii_only = not self.glyphs.suits
        lines = []
        if self.message:
            lines += as_lines(Text(self.message, style="bold yellow"), width)
        if self.lesson.done:
            footer = t("term.lesson.leave")
        else:
            footer = t("term.lesson.keys", **keys())
        lines.append(one_line(Text(footer, style="dim"), width, ascii_only))
        return lines

    def frame(self) -> RenderableType:
        width, height = self.screen.size
        game = self.lesson.game
        marks = self.marks()
        under = self.bottom(width)
        if width >= BOARD_WIDTH + 2 + SIDE_MIN and height >= BOARD_HEIGHT + len(under):
            board = full_board(game, marks, self.glyphs, self.t)
            side = self.side(width - BOARD_WIDTH - 2)
            self.cells = dict(board.cells)
            return Group(beside(board.lines, side), *under)
        board = compact_board(game, marks, self.glyphs, self.t)
        self.cells = dict(board.cells)
        return Group(*board.lines, *self.side(width), *under)

    def draw(self) -> None:
        self.screen.draw(self.frame())

    # --- the loop ---

    def run(self) -> bool:
        """Play until the lesson ends (True) or the player leaves (False)."""
        while True:
            self.draw()
            try:
                key = self.read_key()
            except EOFError:
                return self.lesson.done
            if self.lesson.done:
                return True
            key = key.lower() if len(key) == 1 else key
            self.message = None
            if self.typing is not None:
                self.finish_name(key)
            elif key == KEY_QUIT:
                return False
            elif key in MOVES:
                self.move_cursor(*MOVES[key])
            elif key in ("enter", " "):
                if self.cursor is not None:
                    self.place(self.cursor)
            elif key.startswith("click "):
                self.click(key)
            elif key in NAME_LETTERS:
                self.typing = key
                self.message = self.t("term.typing_name", letter=key.upper(), rows=ROWS)

    def read_key(self) -> str:
        while True:
            key = self.keyboard.read_key(timeout=0.1)
            if key is not None:
                return key
            if self.screen.resized():
                self.draw()

    def finish_name(self, key: str) -> None:
        letter, self.typing = self.typing, None
        if key in ("escape", "backspace"):
            return
        try:
            move = Move.from_name(f"{letter}{key}")
        except MoveError:
            self.message = self.t("term.bad_name", name=f"{letter}{key}".upper(), first=FIRST_CELL, last=LAST_CELL)
            return
        self.cursor = move
        self.place(move)

    def move_cursor(self, drow: int, dcol: int) -> None:
        game = self.lesson.game
        if self.cursor is None:
            self.cursor = Move(0, 0)
            return
        min_r, max_r, min_c, max_c = window(game)
        row = min(max(self.cursor.row + drow, min_r), max_r)
        col = min(max(self.cursor.col + dcol, min_c), max_c)
        self.cursor = Move(row, col)

    def click(self, key: str) -> None:
        _, row, col = key.split()
        for move, (top, left, height, width) in self.cells.items():
            if top <= int(row) < top + height and left <= int(col) < left + width:
                self.cursor = move
                self.place(move)
                return

    def place(self, move: Move) -> None:
        step = self.lesson.current
        if step is None:
            return
        if self.lesson.check(move) is not None:
            self.message = self.t("lesson.wrong", cell=step.cell)
            return
        self.last = self.lesson.place(move)
        self.cursor = move


def learn_interactive(t: Translator, console: Console | None = None) -> int:
    """The full-screen lesson; the exit status (130 after Ctrl-C, 128 + the signal's number after a signal that
    ends the program, handed on as ``foursquare play`` does)."""
    console = console or Console(highlight=False)
    glyphs = for_terminal(sys.stdout)
    if glyphs is ASCII and isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(errors="replace")
    screen = Screen(console, ascii_only=glyphs is ASCII)
    status = 0
    signalled: Interrupted | None = None
    lesson: Lesson | None = None
    finished = False
    try:
        with terminal(console, sys.stdin.fileno(), screen) as keyboard:
            shown = LessonScreen(t, keyboard, screen, glyphs)
            lesson = shown.lesson
            finished = shown.run()
    except KeyboardInterrupt:
        status = 130
    except Interrupted as exc:
        signalled, status = exc, exc.exit_status
    with contextlib.suppress(OSError):  # a closed terminal hears no goodbye
        if finished:
            for line in ending(t):
                print(line, flush=True)
        elif lesson is not None and status == 0:
            print(stopped(t, lesson), flush=True)
    return signalled.finish() if signalled is not None else status
