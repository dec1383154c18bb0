"""``foursquare learn``: the lesson (:mod:`foursquare.lesson`) in the terminal.

Full screen when both ends are a terminal that moves its cursor (as ``foursquare play``), with the game's own
keys and nothing else, so that what the lesson teaches is what the game does: the step's cell is marked with
the key the game would give it (:class:`~foursquare.tui.keys.CellKeys`), and that key places the card; the
arrows move the cursor and Enter or Space places under it; a cell's name typed (``e4``) moves the cursor there;
a click places. Any other cell gets a one-line correction, and a key the game uses for something else (``u``,
``h``...) or no cell's key says what to press instead. After each card, what it turned over is said in the
game's own words (``flip.*``). The words are laid out by need: the step's instruction and the keys always
show, whole; what the last card did takes the longest form that fits whole. Otherwise line mode: each step's
sentence, then a prompt for the cell's name. ``q`` leaves either; the last lines say how to start a real game.
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Callable, Iterable
from typing import TextIO

from rich.console import Console, Group, RenderableType
from rich.text import Text

from foursquare.engine import MAX_FACE_DOWN, Move, MoveError
from foursquare.i18n import Translator
from foursquare.lesson import Lesson, Step
from foursquare.tui.board import BOARD_HEIGHT, BOARD_WIDTH, LastAction, Marks, compact_board, full_board, window
from foursquare.tui.glyphs import ASCII, Glyphs, for_terminal
from foursquare.tui.keys import ARROW_STEPS, KEY_HELP, KEY_QUIT, NAME_LETTERS, CellKeys, Keyboard, scrolled
from foursquare.tui.screens import as_lines, beside, board_size, centred, fill, one_line
from foursquare.tui.terminal import Interrupted, Screen, terminal
from foursquare.tui.text import (
    COMMAND_PLAY,
    FIRST_CELL,
    LAST_CELL,
    PROGRAM,
    ROWS,
    cells_sentence,
    cells_sentences,
    face,
    flip_sentences,
    keys,
)

COMMAND_LEARN = f"{PROGRAM} learn"
SIDE_MIN = 26  # the narrowest text beside the board (80 columns have it); a narrower terminal has it under the board
SIDE_MAX = 60  # the widest: a line longer than that is hard to read


def step_sentence(t: Translator, step: Step, suits: bool) -> str:
    """What to do at ``step`` and why, in one sentence (``lesson.step.<code>``)."""
    return t(f"lesson.step.{step.code}", card=face(t, step.card, suits), cell=step.cell, limit=t.number(MAX_FACE_DOWN))


def what_happened(t: Translator, step: Step, limit: int, suits: bool) -> list[str]:
    """After a step: the card placed, what turned over and why (the game's sentences), the face-down count."""
    return what_happened_forms(t, step, limit, suits)[0]


def what_happened_forms(t: Translator, step: Step, limit: int, suits: bool) -> list[list[str]]:
    """:func:`what_happened`, then shorter forms for a small terminal, each whole: without the card placed (the
    board marks it), without the reasons, without the count, and what turned named by its cells alone."""
    placement = step.placement
    placed = t("flip.placed", card=face(t, placement.card, suits), cell=step.cell)
    count = t("lesson.faceDown", count=t.number(step.face_down), limit=t.number(limit))
    nothing = [t("lesson.nothing")]
    reasons = [sentence.text for sentence in flip_sentences(t, placement, suits)] or nothing
    bare = [sentence.text for sentence in flip_sentences(t, placement, suits, reasons=False)] or nothing
    cells = cells_sentences(t, placement) or nothing
    together = cells_sentence(t, placement)
    return [
        [placed, *reasons, count],
        [*reasons, count],
        [*bare, count],
        bare,
        cells,
        [together] if together else nothing,
    ]


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
    from foursquare.tui.game import full_screen

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
    """The lesson between keys: the cursor, the cell keys, the cell name being typed, the last message."""

    def __init__(self, t: Translator, keyboard: Keyboard, screen: Screen, glyphs: Glyphs) -> None:
        self.t = t
        self.keyboard = keyboard
        self.screen = screen
        self.glyphs = glyphs
        self.lesson = Lesson()
        self.keys = CellKeys()
        self.keys.update(self.lesson.game)
        self.cursor: Move | None = self.lesson.game.legal_moves[0]
        self.typing: str | None = None
        self.message: str | None = None
        self.last: Step | None = None
        self.cells: dict[Move, tuple[int, int, int, int]] = {}

    # --- drawing ---

    def target_key(self) -> str | None:
        """The key of the step's cell, the one the game would give it."""
        step = self.lesson.current
        return None if step is None else self.keys.keys.get(step.move)

    def marks(self) -> Marks:
        step = self.lesson.current
        target = frozenset() if step is None else frozenset({step.move})
        key = self.target_key()
        last = None if self.last is None else LastAction("placed", self.last.placement)
        return Marks(
            keys={} if step is None or key is None else {step.move: key},
            cursor=self.cursor if step is not None else None,
            last=last,
            offered=target,
        )

    def words(self, width: int, room: int, under: bool = False) -> list[Text]:
        """The words beside the board (``under`` it: with the message and the keys) in ``room`` lines ``width``
        wide, by need: the step's instruction (or the end's congratulation) and the keys, whole, in their
        longest forms that fit; the message of the last key; the step's number; what the last card did, in its
        longest form that fits whole; the lesson's title."""
        t, suits = self.t, self.glyphs.suits
        lesson = self.lesson
        step = lesson.current

        def lines(*texts: Text) -> list[Text]:
            return [line for text in texts for line in as_lines(text, width)]

        gap = Text("")
        if step is not None:
            card = face(t, step.card, suits)
            sentence = Text(step_sentence(t, step, suits), style="bold")
            short = Text(t("lesson.target", cell=step.cell, card=card), style="bold")
            whole = Text(t("term.lesson.target_more", target=short.plain, **keys()), style="bold")
            task = [lines(gap, sentence), lines(sentence), lines(whole), lines(short)]
            progress = Text(t("lesson.progress", number=t.number(step.number), total=t.number(len(lesson.steps))))
            head = [lines(progress)]
        else:
            title, text, play = ending(t)
            won = Text(f" {title} ", style="bold reverse green")
            task = [
                lines(gap, won, Text(text), Text(play, style="bold")),
                lines(won, Text(play, style="bold")),
                lines(won),
            ]
            head = []
        blocks: list[tuple[int, list[list[Text]], bool]] = [(3, task, True)]
        if under and self.message:
            blocks.append((4, [lines(Text(self.message, style="bold yellow"))], True))
        if self.last is not None:
            forms = what_happened_forms(t, self.last, lesson.limit, suits)
            # The fullest that fits first, with a gap above it where that fits too.
            told = [form for words in forms for form in (lines(gap, *map(Text, words)), lines(*map(Text, words)))]
            blocks.append((2, told, True))  # what the step taught: kept room for, as the step's instruction is
        if under:
            blocks.append((5, self.keys_forms(width), True))
        blocks.append((1, head, False))
        blocks.append((0, [lines(Text(t("lesson.title"), style="bold"))], False))
        return fill(blocks, room)

    def keys_forms(self, width: int) -> list[list[Text]]:
        """The keys: all of them on as many lines as they take, else the most needed on one line."""
        t = self.t
        if self.lesson.done:
            return [as_lines(Text(t("term.lesson.leave"), style="dim"), width)]
        short = one_line(Text(t("term.lesson.keys_short", **keys()), style="dim"), width, not self.glyphs.suits)
        return [as_lines(Text(t("term.lesson.keys", **keys()), style="dim"), width), [short]]

    def bottom(self, width: int) -> list[Text]:
        """The message of the last key, and the keys (on as many lines as they take: never cut)."""
        lines = []
        if self.message:
            lines += as_lines(Text(self.message, style="bold yellow"), width)
        return lines + self.keys_forms(width)[0]

    def frame(self) -> RenderableType:
        width, height = self.screen.size
        game = self.lesson.game
        marks = self.marks()
        under = self.bottom(width)
        if width >= BOARD_WIDTH + 2 + SIDE_MIN and height >= BOARD_HEIGHT + len(under):
            size = board_size(width, height)
            board = full_board(game, marks, self.glyphs, self.t, size)
            side_width = min(width - size.width - 2, SIDE_MAX)
            left, top = centred(width, height, size.width + 2 + side_width, size.height + len(under))
            under = self.bottom(side_width + size.width + 2) if left else under
            side = self.words(side_width, max(size.height, height - top - len(under)))
            self.cells = {move: (y + top, x + left, h, w) for move, (y, x, h, w) in board.cells.items()}
            pad = Text(" " * left)
            shown = [pad + line for line in beside(board.lines, side).split("\n")] + [pad + line for line in under]
            return Group(*[Text("")] * top, *shown)
        board = compact_board(game, marks, self.glyphs, self.t)
        self.cells = dict(board.cells)
        return Group(*board.lines, *self.words(width, max(1, height - len(board.lines)), under=True))

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
            elif key == KEY_HELP:
                self.show_whole()
            elif key in ARROW_STEPS:
                self.move_cursor(*ARROW_STEPS[key])
            elif key in ("enter", " "):
                if self.cursor is not None:
                    self.place(self.cursor)
            elif key.startswith("click "):
                self.click(key)
            elif key in NAME_LETTERS:
                self.typing = key
                self.message = self.t("term.typing_name", letter=key.upper(), rows=ROWS)
            elif (move := self.keys.move_of(key)) is not None:
                self.place(move)
            elif len(key) == 1:  # not Escape, Backspace, nor a paging key
                self.other_key(key)

    def whole_words(self) -> list[RenderableType]:
        """The step's words whole, for ``?``: what the last card did with its reasons, and what to do and why
        (a small terminal shows them shortened beside the board)."""
        t, suits, lesson = self.t, self.glyphs.suits, self.lesson
        items: list[RenderableType] = [Text(t("lesson.title"), style="bold")]
        step = lesson.current
        if step is not None:
            items.append(Text(t("lesson.progress", number=t.number(step.number), total=t.number(len(lesson.steps)))))
        if self.last is not None:
            items += [Text(""), *(Text(line) for line in what_happened(t, self.last, lesson.limit, suits))]
        if step is not None:
            items += [Text(""), Text(step_sentence(t, step, suits), style="bold")]
        return items

    def show_whole(self) -> None:
        """``?``: the step's words whole, a page at a time where they do not fit (as the game's ``?`` pages:
        Space or Page Down, Page Up, the arrows a line, Home and End); any other key goes back."""
        skip = 0

        def draw() -> int:
            lines = self.screen.lines(Group(*self.whole_words()))
            more = len(lines) > self.screen.size[1] - 1
            footer = self.screen.lines(Text(self.t("term.help_more" if more else "term.lesson.back"), style="dim"))
            room = max(1, self.screen.size[1] - len(footer))
            self.screen.draw_lines(lines[skip : skip + room] + footer)
            return len(lines) - room

        last_skip = draw()
        with contextlib.suppress(EOFError):
            while True:
                key = self.read_key(draw)
                moved = scrolled(key, skip, last_skip, self.screen.size[1])
                if moved is None:
                    return
                skip = moved
                last_skip = draw()

    def read_key(self, redraw: Callable[[], object] | None = None) -> str:
        while True:
            key = self.keyboard.read_key(timeout=0.1)
            if key is not None:
                return key
            if self.screen.resized():
                (redraw or self.draw)()

    def other_key(self, key: str) -> None:
        """A key that is no cell's, or one the game uses for something the lesson does not do (undo, hint...)."""
        step = self.lesson.current
        target = self.target_key()
        if step is not None and target is not None:
            self.message = self.t("term.lesson.other_key", key=key, target=target, cell=step.cell)

    def finish_name(self, key: str) -> None:
        """A cell's name typed moves the cursor there, as in the game: Enter (or its key) then places."""
        letter, self.typing = self.typing, None
        if key in ("escape", "backspace"):
            return
        try:
            move = Move.from_name(f"{letter}{key}")
        except MoveError:
            self.message = self.t("term.bad_name", name=f"{letter}{key}".upper(), first=FIRST_CELL, last=LAST_CELL)
            return
        self.cursor = move
        step = self.lesson.current
        if step is not None:
            card = face(self.t, step.card, self.glyphs.suits)
            self.message = self.t("term.cursor_at", cell=move.name, card=card)

    def move_cursor(self, drow: int, dcol: int) -> None:
        game = self.lesson.game
        step = self.lesson.current
        offered = None if step is None else frozenset({step.move})
        start = self.cursor if self.cursor is not None else game.legal_moves[0]
        min_r, max_r, min_c, max_c = window(game, start, offered)
        row = min(max(start.row + drow, min_r), max_r)
        col = min(max(start.col + dcol, min_c), max_c)
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
        self.keys.update(self.lesson.game)
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
