"""The terminal game: ``foursquare play``.

Two ways to play, chosen by what stdin and stdout are:

**Interactive** (both are terminals): a full-screen board drawn with rich, the row numbers on its left
edge and the column letters below it (the cells' names: D4 is the first card's), and the last move and
what it turned over told by those names. Every cell the card may go to carries a one-key label
(letters, then digits, never a command key); pressing it places the card. Commands: ``u`` undo,
``r`` redo, ``s`` start over (undo everything; ``r`` replays), ``n`` a new random deal, ``?``/``h``
the rules, ``q`` quit. At the end: ``n`` new random deal, ``s`` same deal again, ``u`` take back the
last card, ``q`` quit. The terminal is restored on every exit path (Ctrl-C included: exit status 130).
A random deal's number is shown only once the game is over.

**Lines** (otherwise: stdin or stdout is not a terminal), for scripts and tests. One command per
line, blank lines ignored, case-insensitive:

* ``D4``       a cell's name (column letter A-G, row number 1-7; the first card lies at D4): place the
               card there; ``ROW COL``, two integers (``0 1``, ``-1 2``; ``0,1`` too), is read as well;
* ``u``        undo;   ``r`` redo;   ``q`` quit.

Cells are named as in every front end: ``Move.name``, the 7 × 7 area around the first card, D4.

Output is plain text, one fact per line, each starting with a fixed word. At the start::

    deal 5                    (a random deal: "deal: random (its number is shown when the game ends)")
    variant: orthogonal adjacency                    (", covered face-down cards count" with --count-buried)
    card to place: 3S (40 cards left in the stock)
    legal: D4

After every accepted command::

    placed 3S at D4           ("undone: 3S from D4" / "redone: 3S at D4")
    turned over: 3S at D4 face down (row), 5C at D5 face up (column)     ("turned over: nothing";
                              after an undo the line reads "turned back: ...")
    <render.grid_text(game)>
    face down: 1 of 4
    card to place: AH (39 cards left in the stock)
    legal: D3, C4, E4, D5

("1 card" in the singular.) When a placement ends the game, the last two lines are replaced by the
outcome and the program exits with status 0, reading no further input::

    won: score 7              ("lost: more than 4 cards face down" / "lost: the stock ran out")
    deal 1234                 (only for a random deal, whose number was hidden until now)

``q`` or the end of input before the end prints ``stopped: game not finished, N cards placed``
(plus the ``deal`` line for a random deal) and exits 0. An illegal move, a malformed line, or an
undo/redo with nothing to undo/redo prints one line to stderr (``illegal: cannot place a card at
(5, 5): ...``, ``bad command ...``, ``cannot undo: ...``) and play continues, the game unchanged.

``--save FILE`` writes the record (``foursquare.record.write``, atomic) at the start and after every
move, undo and redo; an unwritable path is reported before play starts (exit status 2). Further games
of an interactive run go to ``FILE-2.json``, ``FILE-3.json``... (for ``FILE.json``).
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import termios
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TextIO

from rich.align import Align
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from foursquare import record
from foursquare.cards import DECK_SIZE, Card
from foursquare.cli.render import grid_text
from foursquare.engine import (
    MAX_FACE_DOWN,
    Flip,
    Game,
    Move,
    MoveError,
    Outcome,
    Placement,
    Variant,
    column_name,
    row_name,
)


class PlayError(ValueError):
    """``foursquare play`` cannot start as asked (bad option combination, unwritable --save path)."""


# --- every user-visible string of the terminal game, in one place (for translation) -----------------

TEXT: dict[str, str] = {
    # option errors
    "cannot_save": "cannot save the game to {path}: {error}",
    # line mode
    "deal": "deal {deal}",
    "deal_hidden": "deal: random (its number is shown when the game ends)",
    "variant": "variant: {adjacency} adjacency{buried}",
    "variant_buried": ", covered face-down cards count",
    "card_to_place": "card to place: {card} ({left} left in the stock)",
    "cards_1": "1 card",
    "cards_n": "{count} cards",
    "legal": "legal: {cells}",
    "placed": "placed {card} at {cell}",
    "redone": "redone: {card} at {cell}",
    "undone": "undone: {card} from {cell}",
    "turned_over": "turned over: {flips}",
    "turned_back": "turned back: {flips}",
    "nothing": "nothing",
    "flip": "{card} at {cell} face {way} ({line})",
    "face_down_count": "face down: {count} of {limit}",
    "won": "won: score {score}",
    "lost_face_down": "lost: more than 4 cards face down",
    "lost_stock": "lost: the stock ran out",
    "stopped": "stopped: game not finished, {placed} placed",
    "illegal": "illegal: {error}",
    "bad_command": (
        'bad command {line!r}: expected a cell such as "D4" (or "ROW COL", two integers), u (undo), r (redo) '
        "or q (quit)"
    ),
    "cannot_undo": "cannot undo: no card has been placed",
    "cannot_redo": "cannot redo: there is no undone move to play again",
    "save_failed": "warning: cannot save the game to {path}: {error}",
    # interactive mode
    "title": "Foursquare",
    "deal_number": "Deal {deal}",
    "deal_random": "Random deal (number shown at the end)",
    "deal_winnable": "Winnable deal (number shown at the end)",
    "variant_short": "Variant: {text}",
    "variant_diagonal": "diagonal adjacency",
    "variant_count_buried": "covered face-down cards count",
    "move": "Move {turn} of {total}",
    "to_place": "Card to place",
    "stock_left": "Stock: {left} left",
    "face_down_label": "Face down: ",
    "face_down_value": "{count} of {limit}",
    "face_down_warn_3": "  careful",
    "face_down_warn_4": "  one more loses",
    "last_placed": "You placed {card} at {cell} (cyan).",
    "last_redone": "Redone: {card} at {cell} (cyan).",
    "last_undone": "Took back {card} from {cell}.",
    "last_restart": "Started over: press r to replay your moves.",
    "why_highest": "{line}: {card} is the highest face-up card, so",
    "why_lowest": "{line}: {card} is the lowest face-up card, so",
    "why_none_face_up": "{line}: no other card was face up, so",
    "turned_back_line": "Turned back:",
    "nothing_turned": "Nothing turned over.",
    "row": "Row",
    "column": "Column",
    "now_up": "  now face up:",
    "now_down": "  now face down:",
    "key_hint": "Press a highlighted key to place the {card}.",
    "no_such_cell": "No cell is labelled {key!r}: press a highlighted key, or ? for the rules.",
    "nothing_to_undo": "Nothing to undo.",
    "nothing_to_redo": "Nothing to redo.",
    "footer_play": "[b]u[/b] undo   [b]r[/b] redo   [b]s[/b] start over   [b]n[/b] new deal   "
    "[b]?[/b] rules   [b]q[/b] quit",
    "footer_end": "[b]n[/b] new deal   [b]s[/b] same deal   [b]u[/b] take back the last card   [b]?[/b] rules   "
    "[b]q[/b] quit",
    "play_another": "Play another? (n)ew random deal / (s)ame deal again / (q)uit",
    "won_banner": "YOU WON!  SCORE {score}",
    "won_score": "All 16 cells face up with {score} cards left in the stock.",
    "lost_banner": "LOST",
    "lost_face_down_long": "More than 4 cards are face down.",
    "lost_stock_long": "The stock ran out before all 16 cells were face up.",
    "end_deal": "This was deal {deal}.",
    "confirm_new": "Abandon this game and deal a new random one? (y/n)",
    "finding_deal": "Looking for a winnable deal...",
    "help_title": "How to play Foursquare",
    "help_close": "Press any key to go back to the game.",
    "goodbye_finished": "Foursquare: deal {deal}, {outcome}.",
    "goodbye_unfinished": "Foursquare: deal {deal} not finished after {placed}. "
    "Play it again with: foursquare play --deal {deal}",
    "goodbye_saved": "Saved: {path}",
    "outcome_won": "won with score {score}",
    "outcome_lost_face_down": "lost with more than 4 cards face down",
    "outcome_lost_stock": "lost when the stock ran out",
}

HELP_PARAGRAPHS = (
    "[b]Cards.[/b] 40 cards, ace (1, lowest) to 10 (highest) in four suits; only ranks matter. The stock is "
    "shuffled and you only ever see the card you must place next.",
    "[b]Placing.[/b] The first card starts the grid. Each later card goes on an empty cell next to a card "
    "(above, below, left or right; corners too with the diagonal variant) or on top of a pile of fewer than "
    "4 cards. The grid may never grow beyond 4 cells wide or tall.",
    "[b]Turning over.[/b] Look at the other top cards in the new card's row. If the new card is higher than "
    "every face-up one of them, or lower than every face-up one, they all turn over: face up to face down "
    "and face down to face up (so if none is face up, all turn face up). Then the same for its column.",
    "[b]Winning.[/b] All 16 cells of the 4 x 4 square filled, every top card face up. Your score is the number "
    "of cards left in the stock.",
    "[b]Losing.[/b] More than 4 top cards face down (with the count-buried variant, face-down cards under "
    "other cards count too), or the stock runs out.",
    "[b]Tips.[/b] A middle rank in a busy row turns nothing over. Covering a face-down card takes it out of "
    "the count (unless covered cards count). Undo freely: u takes a card back, r plays it again.",
)

# Keys: commands first, then the labels of cells, which never include a command key.
KEY_UNDO = "u"
KEY_REDO = "r"
KEY_START_OVER = "s"
KEY_NEW = "n"
KEY_QUIT = "q"
KEYS_HELP = ("?", "h")
COMMAND_KEYS = frozenset({KEY_UNDO, KEY_REDO, KEY_START_OVER, KEY_NEW, KEY_QUIT, *KEYS_HELP})
CELL_KEYS = "abcdefgijklmoptvwxyz123456789"
assert not COMMAND_KEYS & set(CELL_KEYS)

RED_SUITS = frozenset({"H", "D"})


# --- shared -------------------------------------------------------------------------------------------


@dataclass
class Session:
    """One ``play`` run: the current game, how its deal was chosen, and where to save it.

    The interactive mode can start further games in the same run; game ``k > 1`` is saved next to
    the first, as ``FILE-k.json`` for ``--save FILE.json``, so a finished game is never overwritten.
    """

    game: Game
    variant: Variant
    deal_shown: bool
    winnable: bool
    save: str | None
    number: int = 1
    saved: list[str] = field(default_factory=list)

    @property
    def save_path(self) -> str | None:
        if self.save is None or self.number == 1:
            return self.save
        root, ext = os.path.splitext(self.save)
        return f"{root}-{self.number}{ext}"

    def start(self, game: Game, deal_shown: bool) -> str | None:
        """Go on with another game; returns what :meth:`write` returns."""
        self.game = game
        self.deal_shown = deal_shown
        self.number += 1
        return self.write()

    def write(self) -> str | None:
        """Save the record when asked to; return an error message instead of raising."""
        path = self.save_path
        if path is None:
            return None
        try:
            record.write(self.game, path)
        except OSError as exc:
            return TEXT["save_failed"].format(path=path, error=exc.strerror or exc)
        if path not in self.saved:
            self.saved.append(path)
        return None


def new_game(variant: Variant, deal: int | None, winnable: bool) -> Game:
    """A game of ``deal``, or a random (solver-proven winnable with ``winnable``) deal."""
    if winnable:
        from foursquare.solver import random_winnable_deal  # numba: slow to import, so only when needed

        deal = random_winnable_deal(variant, seed=None)
    return Game(deal=deal, variant=variant)


def play(variant: Variant, *, deal: int | None = None, winnable: bool = False, save: str | None = None) -> int:
    """Play in the terminal (see the module docstring); the exit status of ``foursquare play``."""
    if save is not None:
        check_save_path(save)
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    if winnable and interactive:
        print(TEXT["finding_deal"], flush=True)
    game = new_game(variant, deal, winnable)
    session = Session(game, variant, deal_shown=deal is not None, winnable=winnable, save=save)
    error = session.write()
    if error is not None:
        raise PlayError(error.removeprefix("warning: "))
    if interactive:
        return play_interactive(session)
    return play_lines(session, sys.stdin, sys.stdout, sys.stderr)


def check_save_path(path: str) -> None:
    """Refuse a --save path that cannot be written, before any game starts."""
    target = os.path.abspath(path)
    directory = os.path.dirname(target)
    if os.path.isdir(target):
        raise PlayError(TEXT["cannot_save"].format(path=path, error="it is a directory"))
    if not os.path.isdir(directory):
        raise PlayError(TEXT["cannot_save"].format(path=path, error=f"no such directory {directory}"))
    if not os.access(directory, os.W_OK | os.X_OK):
        raise PlayError(TEXT["cannot_save"].format(path=path, error=f"directory {directory} is not writable"))


def cards(count: int) -> str:
    """``1 card``, ``7 cards``."""
    return TEXT["cards_1"] if count == 1 else TEXT["cards_n"].format(count=count)


def outcome_line(outcome: Outcome) -> str:
    if outcome.status == "won":
        return TEXT["won"].format(score=outcome.score)
    if outcome.reason == "too_many_face_down":
        return TEXT["lost_face_down"]
    return TEXT["lost_stock"]


# --- line mode -----------------------------------------------------------------------------------------


def play_lines(session: Session, lines: Iterable[str], out: TextIO, err: TextIO) -> int:
    """Play from text commands, one per line; the output format is the module docstring's."""
    game = session.game

    def say(text: str) -> None:
        print(text, file=out, flush=True)

    def complain(text: str) -> None:
        out.flush()
        print(text, file=err, flush=True)

    def save() -> None:
        error = session.write()
        if error is not None:
            complain(error)

    say(TEXT["deal"].format(deal=game.deal) if session.deal_shown else TEXT["deal_hidden"])
    buried = TEXT["variant_buried"] if session.variant.count_buried else ""
    say(TEXT["variant"].format(adjacency=session.variant.adjacency, buried=buried))
    say(_state_lines(game))

    for raw in lines:
        command = raw.strip().lower()
        if not command:
            continue
        if command in ("q", "quit"):
            break
        if command in ("u", "undo"):
            if not game.can_undo:
                complain(TEXT["cannot_undo"])
                continue
            placement = game.undo()
            save()
            say(_report_lines("undone", placement))
        elif command in ("r", "redo"):
            if not game.can_redo:
                complain(TEXT["cannot_redo"])
                continue
            placement = game.redo()
            save()
            say(_report_lines("redone", placement))
        else:
            try:
                move = _parse_cell(command)
            except MoveError:
                complain(TEXT["bad_command"].format(line=raw.strip()))
                continue
            error = game.illegality(move.row, move.col)
            if error is not None:
                complain(TEXT["illegal"].format(error=error))
                continue
            placement = game.place(move.row, move.col)
            save()
            say(_report_lines("placed", placement))
        say(grid_text(game))
        say(TEXT["face_down_count"].format(count=game.face_down, limit=MAX_FACE_DOWN))
        if game.is_over():
            say(outcome_line(game.outcome()))
            if not session.deal_shown:
                say(TEXT["deal"].format(deal=game.deal))
            return 0
        say(_state_lines(game))
    save()
    say(TEXT["stopped"].format(placed=cards(game.turn)))
    if not session.deal_shown:
        say(TEXT["deal"].format(deal=game.deal))
    return 0


def _parse_cell(text: str) -> Move:
    """The cell a line names: ``D4`` (a name, any case) or ``0 1`` (row and column); :class:`MoveError` else."""
    if text[:1].isalpha():
        return Move.from_name(text)
    return Move.parse(text)


def _state_lines(game: Game) -> str:
    card = game.card_to_place
    assert card is not None
    cells = ", ".join(move.name for move in game.legal_moves)
    return "\n".join(
        [TEXT["card_to_place"].format(card=card.name, left=cards(game.stock_left)), TEXT["legal"].format(cells=cells)]
    )


def _report_lines(kind: Literal["placed", "undone", "redone"], placement: Placement) -> str:
    move = placement.move
    undone = kind == "undone"  # an undo turns every flipped card back: it now faces the other way
    flips = [
        TEXT["flip"].format(
            card=f.card.name, cell=f.cell_name, way="up" if f.face_up != undone else "down", line=f.line
        )
        for f in placement.flips
    ]
    return "\n".join(
        [
            TEXT[kind].format(card=placement.card.name, cell=move.name),
            TEXT["turned_back" if undone else "turned_over"].format(flips=", ".join(flips) or TEXT["nothing"]),
        ]
    )


# --- interactive mode: drawing ------------------------------------------------------------------------

CELL_WIDTH = 9  # columns per cell, borders included
CELL_HEIGHT = 3  # lines per cell
BOARD_CELLS = 5  # the largest window ever needed: a 3-wide grid plus a legal cell on each side
RANK_WIDTH = 3  # the row numbers left of the board, like a chessboard's ranks (the letters go below)
BOARD_WIDTH = RANK_WIDTH + CELL_WIDTH * BOARD_CELLS + 4  # the panel, borders and padding included
BOARD_HEIGHT = CELL_HEIGHT * BOARD_CELLS + 1 + 2  # the cells, the column letters, the borders
SIDE_MIN_WIDTH = 26  # narrower terminals get the side panel below the board

STYLE_LABEL_EMPTY = "bold yellow"
STYLE_LABEL_PILE = "bold black on yellow"
STYLE_EMPTY_BORDER = "yellow"
STYLE_LAST_PLACED = "bold cyan"
STYLE_FLIPPED = "bold magenta"
STYLE_BACK = "bright_blue on blue"
STYLE_BACK_NAME = "grey70 on blue"


def card_style(card: Card) -> str:
    """Hearts and diamonds red, clubs and spades the terminal's own colour; the suit symbol always shows."""
    return "bold red" if card.suit in RED_SUITS else "bold"


def card_text(card: Card) -> Text:
    return Text(card.symbol, style=card_style(card))


def cell_labels(game: Game) -> dict[Move, str]:
    """The one-key label of every legal cell, in reading order."""
    return {move: CELL_KEYS[i] for i, move in enumerate(game.legal_moves) if i < len(CELL_KEYS)}


@dataclass
class LastAction:
    """What the last command did, for the side panel and the highlights."""

    kind: Literal["placed", "redone", "undone", "restart"]
    placement: Placement | None = None


def _window(game: Game) -> tuple[int, int, int, int]:
    cells = [(c.row, c.col) for c in game.cells()] + [(m.row, m.col) for m in game.legal_moves]
    if not cells:
        return 0, 0, 0, 0
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    return min(rows), max(rows), min(cols), max(cols)


def _draw_cell(
    game: Game, row: int, col: int, label: str | None, last: LastAction | None, inside: bool
) -> list[Text]:
    """Three lines of ``CELL_WIDTH`` columns picturing one cell (each part styled on its own)."""
    inner = CELL_WIDTH - 2
    pile = game.pile(row, col)
    if pile is None:
        if label is None:
            middle = "·" if inside else " "
            return [Text(" " * CELL_WIDTH), Text(middle.center(CELL_WIDTH), style="dim"), Text(" " * CELL_WIDTH)]
        dash = STYLE_EMPTY_BORDER
        return [
            Text("╭" + "╌" * inner + "╮", style=dash),
            Text.assemble(("╎", dash), (label.center(inner), STYLE_LABEL_EMPTY), ("╎", dash)),
            Text("╰" + "╌" * inner + "╯", style=dash),
        ]

    border = ""
    placement = last.placement if last is not None and last.kind in ("placed", "redone") else None
    if placement is not None and placement.move == (row, col):
        border = STYLE_LAST_PLACED
    elif placement is not None and any((f.row, f.col) == (row, col) for f in placement.flips):
        border = STYLE_FLIPPED

    if label is not None:
        tag = f" {label} "
        top = Text.assemble(("╭", border), (tag, STYLE_LABEL_PILE), ("─" * (inner - len(tag)) + "╮", border))
    else:
        top = Text("╭" + "─" * inner + "╮", style=border)

    card = pile.top
    name = card.symbol
    if pile.top_face_up:
        mid = Text.assemble(("│ ", border), (name, card_style(card)), (" " * (inner - 1 - len(name)) + "│", border))
    else:  # a card back, with the name the player saw faded on it
        mid = Text.assemble(
            ("│", border),
            ("░", STYLE_BACK),
            (name, STYLE_BACK_NAME),
            ("░" * (inner - 1 - len(name)), STYLE_BACK),
            ("│", border),
        )

    height = ""
    if pile.height > 1:
        height = f"×{pile.height}"
        if game.variant.count_buried and pile.buried_face_down:
            height += f"↓{pile.buried_face_down}"
    bottom = Text.assemble(("╰" + "─" * (inner - len(height) - 1), border), (height, "bold"), ("─╯", border))
    return [top, mid, bottom]


def draw_board(game: Game, labels: dict[Move, str], last: LastAction | None) -> Panel:
    """The grid, with card backs, pile heights, highlights and labelled legal cells; the row numbers on its
    left edge and the column letters below, those of the cells' names (D4 for the first card)."""
    min_r, max_r, min_c, max_c = _window(game)
    bounds = game.bounds()
    lines: list[Text] = []
    for r in range(min_r, max_r + 1):
        rank = Text(row_name(r).rjust(RANK_WIDTH - 1) + " ", style="dim")
        row_lines = [Text(" " * RANK_WIDTH), rank, Text(" " * RANK_WIDTH)]
        for c in range(min_c, max_c + 1):
            inside = bounds is not None and bounds[0] <= r <= bounds[1] and bounds[2] <= c <= bounds[3]
            drawn = _draw_cell(game, r, c, labels.get(Move(r, c)), last, inside)
            for i in range(CELL_HEIGHT):
                row_lines[i].append_text(drawn[i])
        lines.extend(row_lines)
    files = "".join(column_name(c).center(CELL_WIDTH) for c in range(min_c, max_c + 1))
    lines.append(Text(" " * RANK_WIDTH + files, style="dim"))
    picture = Text("\n").join(lines)
    return Panel(Align.center(picture, vertical="middle"), width=BOARD_WIDTH, height=BOARD_HEIGHT, border_style="dim")


def draw_big_card(card: Card) -> Text:
    """The card to place, drawn large."""
    name = card.symbol
    width = 9
    rows = [
        "╭" + "─" * width + "╮",
        "│" + name.ljust(width) + "│",
        "│" + name[-1].center(width) + "│",
        "│" + name.rjust(width) + "│",
        "╰" + "─" * width + "╯",
    ]
    return Text("\n".join(rows), style=card_style(card))


def _flip_lines(flips: Sequence[Flip], undone: bool = False) -> Text:
    """``  now face up: 2♦ E4, 7♠ F4`` and ``  now face down: A♦ D4`` (each way as the cards now face)."""
    text = Text()
    for up in (True, False):
        turned = [f for f in flips if (f.face_up != undone) == up]
        if not turned:
            continue
        text.append("\n" + TEXT["now_up" if up else "now_down"], style="green" if up else "yellow")
        for index, flip in enumerate(turned):
            text.append("," if index else "")
            text.append(" ")
            text.append_text(card_text(flip.card))
            text.append(" " + flip.cell_name)
    return text


def explain(last: LastAction | None) -> Text:
    """What the last command did and why, in words."""
    if last is None:
        return Text()
    if last.kind == "restart" or last.placement is None:
        return Text(TEXT["last_restart"])
    p = last.placement
    if last.kind == "undone":
        text = Text(TEXT["last_undone"].format(card=p.card.symbol, cell=p.move.name))
        if p.flips:
            text.append("\n" + TEXT["turned_back_line"])
            text.append_text(_flip_lines(p.flips, undone=True))
        return text
    key = "last_redone" if last.kind == "redone" else "last_placed"
    text = Text(TEXT[key].format(card=p.card.symbol, cell=p.move.name))
    if not p.flips:
        text.append("\n" + TEXT["nothing_turned"])
        return text
    for line in ("row", "column"):
        flips = [f for f in p.flips if f.line == line]
        if not flips:
            continue
        why = TEXT[f"why_{flips[0].reason}"].format(line=TEXT[line], card=p.card.symbol)
        text.append("\n" + why)
        text.append_text(_flip_lines(flips))
    return text


def deal_caption(session: Session, reveal: bool) -> str:
    """The deal number, or for a random deal a note that it is kept secret until ``reveal``."""
    if session.deal_shown or reveal:
        return TEXT["deal_number"].format(deal=session.game.deal)
    return TEXT["deal_winnable"] if session.winnable else TEXT["deal_random"]


def variant_caption(variant: Variant) -> str | None:
    """The house rules in force, or None for the standard game."""
    parts = []
    if variant.adjacency == "diagonal":
        parts.append(TEXT["variant_diagonal"])
    if variant.count_buried:
        parts.append(TEXT["variant_count_buried"])
    return TEXT["variant_short"].format(text=", ".join(parts)) if parts else None


def draw_side(session: Session, last: LastAction | None) -> RenderableType:
    """Beside the board: the card to place (or the outcome), stock, face-down count, the last move."""
    game = session.game
    items: list[RenderableType] = []
    card = game.card_to_place
    if card is not None:
        items.append(Text(TEXT["move"].format(turn=game.turn + 1, total=DECK_SIZE), style="bold"))
        items.append(Text(TEXT["to_place"]))
        items.append(draw_big_card(card))
    else:
        items.append(end_panel(session))
    items.append(Text(TEXT["stock_left"].format(left=cards(game.stock_left))))
    down = game.face_down
    down_style = "bold red" if down >= MAX_FACE_DOWN else "bold yellow" if down == MAX_FACE_DOWN - 1 else "green"
    line = Text(TEXT["face_down_label"])
    line.append(TEXT["face_down_value"].format(count=down, limit=MAX_FACE_DOWN), style=down_style)
    if card is not None and down == MAX_FACE_DOWN - 1:
        line.append(TEXT["face_down_warn_3"], style="yellow")
    elif card is not None and down == MAX_FACE_DOWN:
        line.append(TEXT["face_down_warn_4"], style="bold red")
    items.append(line)
    caption = variant_caption(session.variant)
    if caption:
        items.append(Text(caption, style="dim"))
    items.append(Text(""))
    items.append(explain(last))
    return Group(*items)


def end_panel(session: Session) -> Panel:
    """The outcome, big and coloured, with the score and the deal number (now revealed)."""
    outcome = session.game.outcome()
    if outcome.status == "won":
        banner = TEXT["won_banner"].format(score=outcome.score)
        style, body = "green", TEXT["won_score"].format(score=outcome.score)
    else:
        banner = TEXT["lost_banner"]
        style = "red"
        body = TEXT["lost_face_down_long"] if outcome.reason == "too_many_face_down" else TEXT["lost_stock_long"]
    text = Text.assemble(
        (f" {banner} ", f"bold white on {style}"),
        "\n\n",
        (body, "bold"),
        "\n",
        TEXT["end_deal"].format(deal=session.game.deal),
    )
    return Panel(text, border_style=f"bold {style}", width=40)


def draw_screen(session: Session, last: LastAction | None, message: str | None, width: int) -> RenderableType:
    """A whole frame: header, board and side panel (side by side when ``width`` allows), footer.

    ``message`` (a warning or a question) takes the place of the usual hint above the keys.
    """
    game = session.game
    labels = cell_labels(game)
    over = game.is_over()
    header = Text(TEXT["title"], style="bold")
    header.append("   " + deal_caption(session, reveal=over), style="dim")
    board = draw_board(game, labels, last)
    side = draw_side(session, last)
    layout = Table.grid(padding=(0, 2))
    board_width = BOARD_WIDTH
    layout.add_column(width=board_width, no_wrap=True)
    if width >= board_width + 2 + SIDE_MIN_WIDTH:
        layout.add_column(width=min(width - board_width - 2, 60))
        layout.add_row(board, side)
    else:
        layout.add_row(board)
        layout.add_row(side)
    card = game.card_to_place
    if message:
        prompt = Text(message, style="bold yellow")
    elif card is None:
        prompt = Text(TEXT["play_another"], style="bold")
    else:
        prompt = Text(TEXT["key_hint"].format(card=card.symbol))
    keys = Text.from_markup(TEXT["footer_end"] if card is None else TEXT["footer_play"])
    return Group(header, layout, prompt, keys)


def draw_help(width: int, height: int) -> RenderableType:
    """The rules in a few paragraphs; blank lines between them only when the terminal is tall enough."""
    gap = "\n\n" if height >= 32 else "\n"
    body = Text.from_markup(gap.join(HELP_PARAGRAPHS))
    return Panel(
        Group(body, Text(""), Text(TEXT["help_close"], style="dim")),
        title=TEXT["help_title"],
        width=min(width, 92),
    )


# --- interactive mode: the terminal ------------------------------------------------------------------


class Keyboard:
    """Single keys from a terminal without Enter; the terminal's mode is restored on exit.

    The terminal keeps generating SIGINT for Ctrl-C, so Ctrl-C raises KeyboardInterrupt as usual.
    """

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._saved: list[Any] | None = None

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
            termios.tcsetattr(self.fd, termios.TCSAFLUSH, self._saved)

    def read_key(self, timeout: float | None = None) -> str | None:
        """One key: a character, or ``"escape"``, ``"enter"``, ``"backspace"``; None on timeout.

        Raises EOFError when the terminal closes or Ctrl-D is pressed.
        """
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return None
        byte = os.read(self.fd, 1)
        if not byte or byte == b"\x04":
            raise EOFError
        if byte == b"\x03":
            raise KeyboardInterrupt
        if byte == b"\x1b":  # a lone Escape, or an arrow/function key sequence: swallow the rest
            while select.select([self.fd], [], [], 0.03)[0]:
                os.read(self.fd, 64)
            return "escape"
        if byte in (b"\r", b"\n"):
            return "enter"
        if byte in (b"\x7f", b"\x08"):
            return "backspace"
        if byte[0] >= 0x80:  # the rest of a UTF-8 character
            data = byte
            while select.select([self.fd], [], [], 0.01)[0] and len(data) < 4:
                data += os.read(self.fd, 1)
                with contextlib.suppress(UnicodeDecodeError):
                    return data.decode("utf-8")
            return data.decode("utf-8", errors="replace")
        return byte.decode("ascii", errors="replace")


@dataclass
class Screen:
    """Draws whole frames on the alternate screen without flicker."""

    console: Console
    last_size: tuple[int, int] = field(default=(0, 0))

    def draw(self, renderable: RenderableType) -> None:
        self.last_size = (self.console.size.width, self.console.size.height)
        with self.console.capture() as capture:
            self.console.print(renderable)
        lines = capture.get().split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        del lines[self.console.size.height :]  # never scroll: a too-small terminal loses the bottom
        frame = "\x1b[H" + "\n".join(line + "\x1b[K" for line in lines) + "\x1b[J"
        self.console.file.write(frame)
        self.console.file.flush()

    def resized(self) -> bool:
        """Whether the terminal's size changed (or the frame was lost) since the last frame."""
        return (self.console.size.width, self.console.size.height) != self.last_size

    def invalidate(self) -> None:
        """Have :meth:`resized` ask for a fresh frame (after the screen was given away)."""
        self.last_size = (0, 0)


@contextlib.contextmanager
def terminal(console: Console, fd: int, screen: Screen) -> Iterator[Keyboard]:
    """Alternate screen, hidden cursor and key-at-a-time input, all undone however we leave.

    Ctrl-Z (SIGTSTP) gives the shell a normal terminal while the game is stopped; ``fg`` brings
    the game back and redraws it.
    """
    keyboard = Keyboard(fd)

    def enter() -> None:
        console.set_alt_screen(True)
        console.show_cursor(False)

    def leave() -> None:
        console.show_cursor(True)
        console.set_alt_screen(False)

    def suspend(signum: int, frame: object) -> None:
        keyboard.__exit__()
        leave()
        signal.signal(signal.SIGTSTP, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTSTP)  # stops here until SIGCONT
        signal.signal(signal.SIGTSTP, suspend)
        keyboard.__enter__()
        enter()
        screen.invalidate()

    enter()
    previous = signal.signal(signal.SIGTSTP, suspend)
    try:
        with keyboard:
            yield keyboard
    finally:
        signal.signal(signal.SIGTSTP, previous)
        leave()


def play_interactive(session: Session, console: Console | None = None) -> int:
    """The full-screen game; returns the exit status (130 after Ctrl-C, like the rest of the CLI)."""
    console = console or Console(highlight=False)
    status = 0
    screen = Screen(console)
    try:
        with terminal(console, sys.stdin.fileno(), screen) as keyboard:
            Interactive(session, keyboard, screen).run()
    except KeyboardInterrupt:  # the terminal is already restored by now
        status = 130
    for line in _goodbye(session):
        console.print(line, highlight=False)
    return status


class Interactive:
    """The key loop of the full-screen game: one key in, one command, one fresh frame out."""

    def __init__(self, session: Session, keyboard: Keyboard, screen: Screen) -> None:
        self.session = session
        self.keyboard = keyboard
        self.screen = screen
        self.last: LastAction | None = None
        self.message: str | None = None

    def draw(self, message: str | None = None) -> None:
        width = self.screen.console.size.width
        self.screen.draw(draw_screen(self.session, self.last, message or self.message, width))

    def key(self, draw: Callable[[], None]) -> str:
        """The next key; the frame is redrawn with ``draw`` when the terminal is resized meanwhile."""
        while True:
            key = self.keyboard.read_key(timeout=0.25)
            if key is not None:
                return key
            if self.screen.resized():
                draw()

    def run(self) -> None:
        """Play until the player quits (q, or Ctrl-D / the terminal closing)."""
        while True:
            self.draw()
            try:
                key = self.key(self.draw)
            except EOFError:
                return
            key = key.lower() if len(key) == 1 else key  # Caps Lock does not matter
            self.message = None
            if key == KEY_QUIT:
                return
            if key in KEYS_HELP:
                self.show_help()
            elif key in (KEY_UNDO, "backspace"):
                self.undo()
            elif self.session.game.is_over():
                self.after_the_end(key)
            elif key == KEY_REDO:
                self.redo()
            elif key == KEY_START_OVER:
                self.start_over()
            elif key == KEY_NEW:
                if self.confirm(TEXT["confirm_new"]):
                    self.new_deal()
            else:
                self.place(key)

    # --- commands ---

    def place(self, key: str) -> None:
        game = self.session.game
        move = {label: move for move, label in cell_labels(game).items()}.get(key)
        if move is None:
            if key not in ("escape", "enter"):
                self.message = TEXT["no_such_cell"].format(key=key)
            return
        self.last = LastAction("placed", game.place(move.row, move.col))
        self.message = self.session.write()

    def undo(self) -> None:
        game = self.session.game
        if not game.can_undo:
            self.message = TEXT["nothing_to_undo"]
            return
        self.last = LastAction("undone", game.undo())
        self.message = self.session.write()

    def redo(self) -> None:
        game = self.session.game
        if not game.can_redo:
            self.message = TEXT["nothing_to_redo"]
            return
        self.last = LastAction("redone", game.redo())
        self.message = self.session.write()

    def start_over(self) -> None:
        """Undo every move, keeping them for redo (unlike ``Game.restart``)."""
        game = self.session.game
        if not game.can_undo:
            return
        while game.can_undo:
            game.undo()
        self.last = LastAction("restart")
        self.message = self.session.write()

    def new_deal(self) -> None:
        if self.session.winnable:
            self.draw(TEXT["finding_deal"])
        try:
            game = new_game(self.session.variant, None, self.session.winnable)
        except ValueError as exc:  # the solver found no winnable deal in its tries
            self.message = str(exc)
            return
        self.last = None
        self.message = self.session.start(game, deal_shown=False)

    def same_deal(self) -> None:
        session = self.session
        self.last = None
        self.message = session.start(Game(deal=session.game.deal, variant=session.variant), session.deal_shown)

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

    def show_help(self) -> None:
        def draw() -> None:
            self.screen.draw(draw_help(self.screen.console.size.width, self.screen.console.size.height))

        draw()
        with contextlib.suppress(EOFError):
            self.key(draw)


def _goodbye(session: Session) -> list[str]:
    game = session.game
    lines: list[str] = []
    outcome = game.outcome()
    if outcome.is_over:
        if outcome.status == "won":
            said = TEXT["outcome_won"].format(score=outcome.score)
        elif outcome.reason == "too_many_face_down":
            said = TEXT["outcome_lost_face_down"]
        else:
            said = TEXT["outcome_lost_stock"]
        lines.append(TEXT["goodbye_finished"].format(deal=game.deal, outcome=said))
    elif game.turn:
        lines.append(TEXT["goodbye_unfinished"].format(deal=game.deal, placed=cards(game.turn)))
    lines.extend(TEXT["goodbye_saved"].format(path=path) for path in session.saved)
    return lines
