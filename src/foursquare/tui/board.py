"""The board pictures of the interactive game: the full board (3 lines per cell, framed) and the compact one
(1 line per cell) for small terminals. Each picture says where every cell lies, for mouse clicks.

Widths are counted in terminal cells, and every cell's lines are cut to its width, so that an ace's letter or
numbers in another script (``rank.short.1``, Bengali digits) never shift the board."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from rich.cells import cell_len
from rich.text import Text

from foursquare.cards import Card
from foursquare.engine import Game, Move, Placement, column_name, row_name
from foursquare.i18n import Translator
from foursquare.tui.glyphs import Box, Glyphs
from foursquare.tui.text import face, symbols_meanings

CELL_WIDTH = 9  # columns per cell of the full board, borders included
CELL_HEIGHT = 3  # lines per cell of the full board
BOARD_CELLS = 5  # the largest window ever needed: a 3-wide grid plus a legal cell on each side
RANK_WIDTH = 3  # the row numbers left of the board, like a chessboard's ranks (the letters go below)
BOARD_WIDTH = RANK_WIDTH + CELL_WIDTH * BOARD_CELLS + 4  # the frame and its inner margin included
BOARD_HEIGHT = CELL_HEIGHT * BOARD_CELLS + 1 + 2  # the cells, the column letters, the frame
COMPACT_CELL = 7  # columns per cell of the compact board (1 line each)
COMPACT_RANK = 2
COMPACT_WIDTH = COMPACT_RANK + COMPACT_CELL * BOARD_CELLS

RED_SUITS = frozenset({"H", "D"})
STYLE_LABEL_EMPTY = "bold yellow"
STYLE_LABEL_PILE = "bold black on yellow"
STYLE_EMPTY_BORDER = "yellow"
STYLE_LAST_PLACED = "bold cyan"
STYLE_FLIPPED = "bold magenta"
STYLE_CURSOR = "bold reverse"
STYLE_HINT = "bold green"
STYLE_BACK = "bright_blue on blue"
STYLE_BACK_NAME = "grey70 on blue"
STYLE_DIM = "dim"


@dataclass(frozen=True)
class BoardSize:
    """The size of the full board's cells, borders included; the board's own size follows from it."""

    cell_width: int
    cell_height: int

    @property
    def width(self) -> int:
        return RANK_WIDTH + self.cell_width * BOARD_CELLS + 4  # the frame and its inner margin included

    @property
    def height(self) -> int:
        return self.cell_height * BOARD_CELLS + 1 + 2  # the cells, the column letters, the frame


#: The full board (``BOARD_WIDTH`` × ``BOARD_HEIGHT``), and the larger one a large terminal gets.
NORMAL = BoardSize(CELL_WIDTH, CELL_HEIGHT)
LARGE = BoardSize(13, 5)


@dataclass
class LastAction:
    """What the last command did, for the side panel and the highlights."""

    kind: Literal["placed", "redone", "undone", "restart", "resumed"]
    placement: Placement | None = None


@dataclass
class Marks:
    """What the board shows besides the cards: keys, the cursor, the last move, the hint's ranks."""

    keys: dict[Move, str] = field(default_factory=dict)
    cursor: Move | None = None
    last: LastAction | None = None
    hints: dict[Move, int] = field(default_factory=dict)
    #: The only legal cells drawn as places for the card (the lesson's one cell); None: every legal cell.
    offered: frozenset[Move] | None = None

    def offers(self, game: Game, move: Move) -> bool:
        """Whether ``move`` is drawn as a place for the card to place."""
        return not game.is_over() and game.is_legal(*move) and (self.offered is None or move in self.offered)

    def placed(self) -> Placement | None:
        last = self.last
        return last.placement if last is not None and last.kind in ("placed", "redone") else None


@dataclass
class Picture:
    """Lines of text, and the rectangle ``(top, left, height, width)`` of every cell within them."""

    lines: list[Text]
    cells: dict[Move, tuple[int, int, int, int]]

    @property
    def width(self) -> int:
        return max((line.cell_len for line in self.lines), default=0)


def card_style(card: Card) -> str:
    """Hearts and diamonds red, clubs and spades the terminal's own colour; the suit always shows in the name."""
    return "bold red" if card.suit in RED_SUITS else "bold"


def window(
    game: Game, cursor: Move | None = None, offered: frozenset[Move] | None = None
) -> tuple[int, int, int, int]:
    """The rows and columns shown: every card, every legal cell (only those ``offered``, when given: the lesson's
    one cell) and the cursor."""
    places = game.legal_moves if offered is None else sorted(offered)
    cells = [(c.row, c.col) for c in game.cells()] + [(m.row, m.col) for m in places]
    if cursor is not None:
        cells.append((cursor.row, cursor.col))
    if not cells:
        return 0, 0, 0, 0
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    return min(rows), max(rows), min(cols), max(cols)


def _inside(game: Game, row: int, col: int) -> bool:
    bounds = game.bounds()
    return bounds is not None and bounds[0] <= row <= bounds[1] and bounds[2] <= col <= bounds[3]


def _border(game: Game, move: Move, marks: Marks, g: Glyphs) -> tuple[Box, str]:
    """The border of a pile: the cursor's, the placed card's (heavy: no colour needed), a turned card's, plain."""
    placement = marks.placed()
    if move == marks.cursor:
        return g.cursor, "bold"
    if placement is not None and placement.move == move:
        return g.placed, STYLE_LAST_PLACED
    if placement is not None and any((f.row, f.col) == move for f in placement.flips):
        return g.plain, STYLE_FLIPPED
    return g.plain, ""


def _fit(line: Text, width: int) -> Text:
    """``line`` cut or padded to exactly ``width`` terminal cells."""
    line.truncate(width, overflow="crop", pad=True)
    return line


def full_cell(game: Game, move: Move, marks: Marks, g: Glyphs, t: Translator, size: BoardSize = NORMAL) -> list[Text]:
    """``size.cell_height`` lines of ``size.cell_width`` columns picturing one cell (each part styled on its own):
    the top border (with the key), the card, the bottom border (with the pile's height); a larger cell has room
    above and below the card."""
    top, middle, bottom = _full_cell(game, move, marks, g, t, size.cell_width)
    extra = size.cell_height - 3
    above = [_filler(game, move, marks, g, size.cell_width)] * (extra // 2)
    below = [_filler(game, move, marks, g, size.cell_width)] * (extra - extra // 2)
    return [_fit(line.copy(), size.cell_width) for line in [top, *above, middle, *below, bottom]]


def _filler(game: Game, move: Move, marks: Marks, g: Glyphs, width: int) -> Text:
    """A line of a larger cell above or below its card: its sides, and the back's pattern on a face-down card."""
    inner = width - 2
    pile = game.pile(*move)
    if pile is None:
        if not marks.offers(game, move) and move != marks.cursor:
            return Text(" " * width)
        box, style = (g.cursor, "bold") if move == marks.cursor else (g.dashed, STYLE_EMPTY_BORDER)
        return Text.assemble((box.down, style), " " * inner, (box.down, style))
    box, border = _border(game, move, marks, g)
    inside = (" " * inner, "") if pile.top_face_up else (g.back * inner, STYLE_BACK)
    return Text.assemble((box.down, border), inside, (box.down, border))


def _full_cell(game: Game, move: Move, marks: Marks, g: Glyphs, t: Translator, width: int) -> list[Text]:
    inner = width - 2  # the cell's width, borders included
    pile = game.pile(*move)
    key = marks.keys.get(move)
    rank = marks.hints.get(move)
    tag = f"#{t.number(rank)}" if rank is not None else ""
    legal = marks.offers(game, move)
    if pile is None:
        if not legal and move != marks.cursor:
            middle = g.empty if _inside(game, *move) else " "
            return [Text(" " * width), Text(middle.center(width), style=STYLE_DIM), Text(" " * width)]
        box, style = (g.cursor, "bold") if move == marks.cursor else (g.dashed, STYLE_EMPTY_BORDER)
        label = (key or "").center(inner)
        fill = max(0, inner - cell_len(tag))
        return [
            Text(box.top_left + box.across * inner + box.top_right, style=style),
            Text.assemble((box.down, style), (label, STYLE_LABEL_EMPTY), (box.down, style)),
            Text.assemble(
                (box.bottom_left + box.across * (fill // 2), style),
                (tag, STYLE_HINT),
                (box.across * (fill - fill // 2) + box.bottom_right, style),
            ),
        ]

    box, border = _border(game, move, marks, g)
    if key is not None:
        label = f" {key} "
        rest = box.across * (inner - cell_len(label)) + box.top_right
        top = Text.assemble((box.top_left, border), (label, STYLE_LABEL_PILE), (rest, border))
    else:
        top = Text(box.top_left + box.across * inner + box.top_right, style=border)

    card = pile.top
    name = face(t, card, g.suits)
    room = max(0, inner - 1 - cell_len(name))
    if pile.top_face_up:
        mid = Text.assemble((box.down + " ", border), (name, card_style(card)), (" " * room + box.down, border))
    else:  # a card back, with the name the player saw faded on it
        mid = Text.assemble(
            (box.down, border),
            (g.back, STYLE_BACK),
            (name, STYLE_BACK_NAME),
            (g.back * room, STYLE_BACK),
            (box.down, border),
        )

    height = ""
    if pile.height > 1:
        height = f"{g.times}{t.number(pile.height)}"
        if game.variant.count_buried and pile.buried_face_down:
            height += f"{g.buried}{t.number(pile.buried_face_down)}"
    fill = max(0, inner - cell_len(height) - cell_len(tag) - 1)
    bottom = Text.assemble(
        (box.bottom_left, border),
        (tag, STYLE_HINT),
        (box.across * fill, border),
        (height, "bold"),
        (box.across + box.bottom_right, border),
    )
    return [top, mid, bottom]


def full_board(game: Game, marks: Marks, g: Glyphs, t: Translator, size: BoardSize = NORMAL) -> Picture:
    """The framed board, ``size.width`` × ``size.height`` (``BOARD_WIDTH`` × ``BOARD_HEIGHT``): the row numbers
    on its left edge and the column letters below, those of the cells' names (D4 for the first card)."""
    cell_width, cell_height = size.cell_width, size.cell_height
    min_r, max_r, min_c, max_c = window(game, marks.cursor, marks.offered)
    inner_width, inner_height = size.width - 4, size.height - 2
    picture_width = RANK_WIDTH + cell_width * (max_c - min_c + 1)
    picture_height = cell_height * (max_r - min_r + 1) + 1
    left = max(0, (inner_width - picture_width) // 2)
    top = max(0, (inner_height - picture_height) // 2)
    body: list[Text] = []
    cells: dict[Move, tuple[int, int, int, int]] = {}
    for r in range(min_r, max_r + 1):
        rank = Text(row_name(r).rjust(RANK_WIDTH - 1) + " ", style=STYLE_DIM)
        row_lines = [Text(" " * RANK_WIDTH) for _ in range(cell_height)]
        row_lines[cell_height // 2] = rank
        for c in range(min_c, max_c + 1):
            move = Move(r, c)
            cells[move] = (1 + top + len(body), 2 + left + len(row_lines[0]), cell_height, cell_width)
            for i, line in enumerate(full_cell(game, move, marks, g, t, size)):
                row_lines[i].append_text(line)
        body.extend(row_lines)
    letters = "".join(column_name(c).center(cell_width) for c in range(min_c, max_c + 1))
    body.append(Text(" " * RANK_WIDTH + letters, style=STYLE_DIM))
    frame = g.frame
    lines = [Text(frame.top_left + frame.across * (size.width - 2) + frame.top_right, style=STYLE_DIM)]
    content = [Text("")] * top + body + [Text("")] * (inner_height - top - len(body))
    for line in content[:inner_height]:
        padded = Text(" " * left) + line
        padded.pad_right(inner_width - padded.cell_len)
        lines.append(Text.assemble((frame.down + " ", STYLE_DIM), padded, (" " + frame.down, STYLE_DIM)))
    lines.append(Text(frame.bottom_left + frame.across * (size.width - 2) + frame.bottom_right, style=STYLE_DIM))
    return Picture(lines, cells)


def compact_cell(game: Game, move: Move, marks: Marks, g: Glyphs, t: Translator) -> Text:
    """One cell in ``COMPACT_CELL`` columns: its key, then the card after a space (``k 7♥``), or after the back's
    mark face down (``k░7♥×2`` in a pile of 2)."""
    pile = game.pile(*move)
    key = marks.keys.get(move)
    cursor = " " + STYLE_CURSOR if move == marks.cursor else ""
    if pile is None:
        if key is None and not marks.offers(game, move):
            mark = g.empty if _inside(game, *move) else " "
            return Text(mark.center(COMPACT_CELL), style=STYLE_DIM + cursor)
        rank = marks.hints.get(move)
        text = Text(f"[{key or ' '}]", style=STYLE_LABEL_EMPTY + cursor)
        if rank is not None:
            text.append(f"#{t.number(rank)}", style=STYLE_HINT + cursor)
        cell = Text("  ") + text
        return _fit(cell, COMPACT_CELL)
    hinted = move in marks.hints
    text = Text(key or " ", style=("bold black on green" if hinted else STYLE_LABEL_PILE) if key else "")
    name = face(t, pile.top, g.suits)
    placement = marks.placed()
    style = card_style(pile.top)
    if placement is not None and placement.move == move:
        style = STYLE_LAST_PLACED + " underline"
    elif placement is not None and any((f.row, f.col) == move for f in placement.flips):
        style = STYLE_FLIPPED
    if pile.top_face_up:  # after a space, so that a key's digit never reads as part of the rank ("1 2♦")
        text.append(" ")
        text.append(name, style=style)
    else:  # the card's back mark separates them
        text.append(g.back + name, style=STYLE_BACK_NAME + (" underline" if "underline" in style else ""))
    if pile.height > 1:
        text.append(f"{g.times}{t.number(pile.height)}", style="bold")
    _fit(text, COMPACT_CELL)
    if cursor:
        text.stylize(STYLE_CURSOR)
    return text


def compact_board(game: Game, marks: Marks, g: Glyphs, t: Translator) -> Picture:
    """The board in one line per row: the row numbers on the left, the column letters below."""
    min_r, max_r, min_c, max_c = window(game, marks.cursor, marks.offered)
    lines: list[Text] = []
    cells: dict[Move, tuple[int, int, int, int]] = {}
    for r in range(min_r, max_r + 1):
        line = Text(row_name(r).rjust(COMPACT_RANK - 1) + " ", style=STYLE_DIM)
        for c in range(min_c, max_c + 1):
            cells[Move(r, c)] = (len(lines), line.cell_len, 1, COMPACT_CELL)
            line.append_text(compact_cell(game, Move(r, c), marks, g, t))
        lines.append(line)
    letters = "".join(column_name(c).center(COMPACT_CELL) for c in range(min_c, max_c + 1))
    lines.append(Text(" " * COMPACT_RANK + letters, style=STYLE_DIM))
    return Picture(lines, cells)


def big_card(card: Card, g: Glyphs, t: Translator) -> Text:
    """The card to place, drawn large."""
    name = face(t, card, g.suits)
    width = 9
    box = g.plain
    gap = " " * max(0, width - cell_len(name))
    rows = [
        box.top_left + box.across * width + box.top_right,
        box.down + name + gap + box.down,
        box.down + name[-1].center(width) + box.down,
        box.down + gap + name + box.down,
        box.bottom_left + box.across * width + box.bottom_right,
    ]
    return Text("\n".join(rows), style=card_style(card))


def symbols_legend(g: Glyphs, t: Translator) -> list[tuple[str, str]]:
    """What every mark of the board means, drawn with the glyphs in use (for the ``?`` screen)."""
    p, d, placed, cursor = g.plain, g.dashed, g.placed, g.cursor
    meaning = symbols_meanings(t, buried=f"{g.buried}{t.number(1)}")
    return [
        (f"{p.top_left} k {p.across}{p.top_right}", meaning["pile"]),
        (f"{d.top_left}{d.across * 3}{d.top_right}", meaning["target"]),
        (f"{g.back}{'7♥' if g.suits else '7H'}{g.back}", meaning["back"]),
        (f"{g.times}{t.number(2)}", meaning["height"]),
        (f"{placed.top_left}{placed.across * 3}{placed.top_right}", meaning["placed"]),
        (f"{cursor.top_left}{cursor.across * 3}{cursor.top_right}", meaning["cursor"]),
        (f"#{t.number(1)} #{t.number(2)}", meaning["hint"]),
        (g.empty, meaning["inside"]),
        (t("term.face_down_label").rstrip(":： "), meaning["face_down"]),
    ]
