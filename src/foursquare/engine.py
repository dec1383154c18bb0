"""The rules engine: the one readable definition of Foursquare's rules.

``docs/rules.md`` states the rules in words; this module is the same text as code.
It does no I/O and keeps no global state.

>>> game = Game(deal=1)
>>> game.card_to_place
Card.parse('3S')
>>> game.legal_moves
[Move(row=0, col=0)]
>>> game.place(0, 0).card
Card.parse('3S')
>>> game.place(0, 1).flips          # AH is the lowest of its row: the 3S turns over
(Flip(row=0, col=0, card=Card.parse('3S'), face_up=False, line='row', reason='lowest'),)
>>> game.face_down, game.outcome().status
(1, 'playing')
>>> game.undo().card, game.face_down
(Card.parse('AH'), 0)
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from foursquare.cards import (
    ALL_CARDS,
    DECK_SIZE,
    Card,
    check_deal_number,
    deal_stock,
    parse_stock,
    random_deal_number,
)
from foursquare.errors import FoursquareError

GRID = 4
PILE_CAP = 4
MAX_FACE_DOWN = 4
WINNING_CELLS = GRID * GRID

Adjacency = Literal["orthogonal", "diagonal"]
Status = Literal["won", "lost", "playing"]
Reason = Literal["sixteen_face_up", "too_many_face_down", "stock_empty"]
Line = Literal["row", "column"]
# Why a line turned over: the placed card was the strict highest or lowest of the line's other face-up
# tops, or none of the line's other tops was face up.
FlipReason = Literal["highest", "lowest", "none_face_up"]

# Every game stays inside the 7 × 7 area centred on the first card (a 4 × 4 grid holding it reaches at
# most 3 cells further each way). A cell's name is its column letter, A-G from the left, and its row
# number, 1-7 from the top, so the first card lies at D4.
AREA_SIDE = 2 * GRID - 1
AREA_REACH = GRID - 1
COLUMN_LETTERS = "ABCDEFG"

ORTHOGONAL_STEPS = ((-1, 0), (0, -1), (0, 1), (1, 0))
DIAGONAL_STEPS = ((-1, -1), (-1, 1), (1, -1), (1, 1))


class VariantError(FoursquareError):
    """A house-rule variant is malformed."""


class IllegalMoveError(FoursquareError):
    """A card cannot be placed where asked.

    ``reason`` (also its ``code``) is a stable code: ``game_over``, ``first_card``, ``pile_full``,
    ``not_adjacent``, ``outside_4x4`` or ``bad_cell``; ``params`` holds ``row`` and ``col``.
    """

    def __init__(self, row: object, col: object, reason: str, explanation: str) -> None:
        super().__init__(f"cannot place a card at ({row}, {col}): {explanation}", reason, row=row, col=col)
        self.row = row
        self.col = col
        self.reason = reason
        self.explanation = explanation


@dataclass(frozen=True)
class Variant:
    """House rules, fixed for a whole game.

    ``adjacency="diagonal"`` lets an empty cell touching a card only at a corner take a card too;
    ``count_buried=True`` keeps face-down cards that were covered counting towards the limit of 4.
    """

    adjacency: Adjacency = "orthogonal"
    count_buried: bool = False

    def __post_init__(self) -> None:
        if self.adjacency not in ("orthogonal", "diagonal"):
            raise VariantError(f"adjacency must be 'orthogonal' or 'diagonal', not {self.adjacency!r}")
        if not isinstance(self.count_buried, bool):
            raise VariantError(f"count_buried must be true or false, not {self.count_buried!r}")

    @property
    def steps(self) -> tuple[tuple[int, int], ...]:
        if self.adjacency == "diagonal":
            return ORTHOGONAL_STEPS + DIAGONAL_STEPS
        return ORTHOGONAL_STEPS

    def to_json(self) -> dict[str, Any]:
        return {"adjacency": self.adjacency, "count_buried": self.count_buried}

    @classmethod
    def from_json(cls, data: object) -> Variant:
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise VariantError('variant must be an object like {"adjacency": "orthogonal", "count_buried": false}')
        unknown = sorted(set(data) - {"adjacency", "count_buried"})
        if unknown:
            raise VariantError(f"unknown variant field(s): {', '.join(map(str, unknown))}")
        return cls(
            adjacency=data.get("adjacency", "orthogonal"),
            count_buried=data.get("count_buried", False),
        )


def column_name(col: int) -> str:
    """The letter of column ``col`` (A-G from the left, D for the first card's); "" outside the named area.

    >>> column_name(0), column_name(-3), column_name(4)
    ('D', 'A', '')
    """
    return COLUMN_LETTERS[col + AREA_REACH] if -AREA_REACH <= col <= AREA_REACH else ""


def row_name(row: int) -> str:
    """The number of row ``row`` (1-7 from the top, 4 for the first card's); "" outside the named area.

    >>> row_name(0), row_name(-3), row_name(-4)
    ('4', '1', '')
    """
    return str(row + AREA_REACH + 1) if -AREA_REACH <= row <= AREA_REACH else ""


class MoveError(FoursquareError):
    """A move's text or JSON form is malformed (not an illegal move: see :class:`IllegalMoveError`)."""


class Move(NamedTuple):
    """A cell, in the coordinates fixed by the first card at (0, 0); rows grow downward.

    Its text form is ``"row col"`` and its JSON form the pair ``[row, col]``:

    >>> Move.parse("0 -1"), str(Move(0, -1))
    (Move(row=0, col=-1), '0 -1')
    >>> Move.from_json([1, 0]), Move(1, 0).to_json()
    (Move(row=1, col=0), [1, 0])

    Its name, for a person, is the cell's column letter and row number in the 7 × 7 area around the first
    card, which lies at D4:

    >>> Move(0, 0).name, Move(-1, 2).name, Move.from_name("a7")
    ('D4', 'F3', Move(row=3, col=-3))
    """

    row: int
    col: int

    def __str__(self) -> str:
        return f"{self.row} {self.col}"

    @classmethod
    def parse(cls, text: str) -> Move:
        """The move written ``"row col"`` (two integers separated by blanks or a comma)."""
        parts = text.replace(",", " ").split()
        try:
            row, col = (int(part) for part in parts)
        except ValueError:
            raise MoveError(f"expected a cell as two whole numbers 'row col', not {text!r}") from None
        return cls(row, col)

    def to_json(self) -> list[int]:
        return [self.row, self.col]

    @property
    def name(self) -> str:
        """``"D4"`` for the first card's cell; :class:`MoveError` outside the 7 × 7 area no game leaves."""
        if not (-AREA_REACH <= self.row <= AREA_REACH and -AREA_REACH <= self.col <= AREA_REACH):
            raise MoveError(f"({self.row}, {self.col}) lies outside the {AREA_SIDE} × {AREA_SIDE} area of named cells")
        return column_name(self.col) + row_name(self.row)

    @classmethod
    def from_name(cls, name: str) -> Move:
        """The move to the cell named ``name``: a column letter A-G and a row number 1-7 (``"D4"``, ``"b7"``)."""
        text = name.strip().upper()
        if len(text) != 2 or text[0] not in COLUMN_LETTERS or text[1] not in "1234567"[:AREA_SIDE]:
            raise MoveError(f"expected a cell name from A1 to G7 (column letter, row number), not {name!r}")
        return cls(int(text[1]) - AREA_REACH - 1, COLUMN_LETTERS.index(text[0]) - AREA_REACH)

    @classmethod
    def from_json(cls, data: object) -> Move:
        """The move of a JSON ``[row, col]`` pair of integers."""
        if (
            not isinstance(data, list)
            or len(data) != 2
            or any(isinstance(x, bool) or not isinstance(x, int) for x in data)
        ):
            raise MoveError(f"expected [row, col] with two integers, got {_json_text(data)}")
        return cls(data[0], data[1])


def _json_text(data: object) -> str:
    try:
        return json.dumps(data)
    except (TypeError, ValueError):
        return repr(data)


class Flip(NamedTuple):
    """A top card that turned over, which way it now faces, the check that turned it, and why it fired."""

    row: int
    col: int
    card: Card
    face_up: bool
    line: Line
    reason: FlipReason

    @property
    def cell_name(self) -> str:
        """The name of the cell whose top turned over (``"D4"``)."""
        return Move(self.row, self.col).name


@dataclass(frozen=True)
class Outcome:
    """How a game stands. ``score`` is None while playing, the cards left after a win, 0 after a loss."""

    status: Status
    reason: Reason | None = None
    score: int | None = None

    @property
    def is_over(self) -> bool:
        return self.status != "playing"

    def __str__(self) -> str:
        """A short English sentence: ``won with score 7``, ``lost: the stock ran out``, ``playing``."""
        if self.status == "won":
            return f"won with score {self.score}"
        if self.reason == "too_many_face_down":
            return f"lost: more than {MAX_FACE_DOWN} cards face down"
        if self.reason == "stock_empty":
            return "lost: the stock ran out"
        return "playing"


PLAYING = Outcome("playing")


class Placement(NamedTuple):
    """What one placement did."""

    move: Move
    card: Card
    flips: tuple[Flip, ...]
    outcome: Outcome


@dataclass
class _Pile:
    """The cards on one cell, bottom first, and which way each faces (mutable: the game's own)."""

    cards: list[Card] = field(default_factory=list)
    face_up: list[bool] = field(default_factory=list)

    @property
    def top(self) -> Card:
        return self.cards[-1]

    @property
    def top_face_up(self) -> bool:
        return self.face_up[-1]

    @property
    def height(self) -> int:
        return len(self.cards)

    @property
    def buried_face_down(self) -> int:
        return self.face_up[:-1].count(False)

    def view(self, row: int, col: int) -> CellView:
        return CellView(row, col, tuple(self.cards), tuple(self.face_up))


class CellView(NamedTuple):
    """A pile as a player sees it: every card in it is known (each was face up when placed)."""

    row: int
    col: int
    cards: tuple[Card, ...]
    face_up: tuple[bool, ...]

    @property
    def top(self) -> Card:
        return self.cards[-1]

    @property
    def cell_name(self) -> str:
        """The name of the pile's cell (``"D4"``)."""
        return Move(self.row, self.col).name

    @property
    def top_face_up(self) -> bool:
        return self.face_up[-1]

    @property
    def height(self) -> int:
        return len(self.cards)

    @property
    def buried_face_down(self) -> int:
        return self.face_up[:-1].count(False)


@dataclass(frozen=True)
class View:
    """Everything a fair player may know: no stock order beyond the card to place.

    ``unseen`` is the multiset (sorted) of cards still in the stock below the card to place.
    """

    variant: Variant
    turn: int
    card: Card | None
    cells: tuple[CellView, ...]
    unseen: tuple[Card, ...]
    face_down: int
    outcome: Outcome
    legal_moves: tuple[Move, ...]

    def key(self) -> tuple[Any, ...]:
        """A translation-independent key: equal for positions that play out identically."""
        return _position_key(self.cells, self.card, self.unseen, self.variant)


def _position_key(
    cells: Sequence[CellView], card: Card | None, unseen: Sequence[Card], variant: Variant
) -> tuple[Any, ...]:
    if cells:
        r0 = min(c.row for c in cells)
        c0 = min(c.col for c in cells)
    else:
        r0 = c0 = 0
    shape = tuple(sorted((c.row - r0, c.col - c0, c.height, int(c.top), c.top_face_up) for c in cells))
    buried = sum(c.face_up[:-1].count(False) for c in cells) if variant.count_buried else 0
    mask = 0
    for u in unseen:
        mask |= 1 << int(u)
    return (shape, buried, -1 if card is None else int(card), mask, variant.adjacency, variant.count_buried)


class _Step(NamedTuple):
    placement: Placement
    created: bool


class Game:
    """One game of Foursquare: a stock order, a variant, and the cards placed so far.

    Give a ``deal`` number, or an explicit ``stock`` (40 distinct cards, drawn first to last), or
    neither for a random deal. ``deal`` is ``None`` for a game made from an explicit stock.
    """

    def __init__(
        self,
        deal: int | None = None,
        *,
        stock: Sequence[Card | str] | None = None,
        variant: Variant | None = None,
    ) -> None:
        if deal is not None and stock is not None:
            raise ValueError("give a deal number or a stock order, not both")
        if stock is not None:
            self._deal: int | None = None
            self._stock = parse_stock(stock)
        else:
            self._deal = random_deal_number() if deal is None else check_deal_number(deal)
            self._stock = deal_stock(self._deal)
        self._variant = variant if variant is not None else Variant()
        if not isinstance(self._variant, Variant):
            raise VariantError("variant must be a Variant")
        self._piles: dict[tuple[int, int], _Pile] = {}
        self._turn = 0
        self._history: list[_Step] = []
        self._redo: list[Move] = []
        self._outcome = PLAYING

    # --- what a game is ---------------------------------------------------------------------------

    @property
    def deal(self) -> int | None:
        return self._deal

    @property
    def stock(self) -> tuple[Card, ...]:
        """The whole stock order. Secret: never show it to a player."""
        return self._stock

    @property
    def variant(self) -> Variant:
        return self._variant

    @property
    def turn(self) -> int:
        """How many cards have been placed."""
        return self._turn

    @property
    def stock_left(self) -> int:
        """Cards still in the stock, the card to place included (the score of a win)."""
        return DECK_SIZE - self._turn

    @property
    def card_to_place(self) -> Card | None:
        if self._outcome.is_over:
            return None
        return self._stock[self._turn]

    @property
    def moves(self) -> list[Move]:
        return [step.placement.move for step in self._history]

    @property
    def placements(self) -> list[Placement]:
        return [step.placement for step in self._history]

    @property
    def redo_moves(self) -> list[Move]:
        """Undone moves that ``redo`` would play again, next first."""
        return list(reversed(self._redo))

    @property
    def can_undo(self) -> bool:
        return bool(self._history)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def pile(self, row: int, col: int) -> CellView | None:
        """The pile at (row, col) as an immutable view, or None for an empty cell."""
        pile = self._piles.get((row, col))
        return None if pile is None else pile.view(row, col)

    def cells(self) -> list[CellView]:
        """Every pile, sorted by (row, col)."""
        return [p.view(r, c) for (r, c), p in sorted(self._piles.items())]

    def bounds(self) -> tuple[int, int, int, int] | None:
        """(min_row, max_row, min_col, max_col) of the occupied cells, or None before the first card."""
        if not self._piles:
            return None
        rows = [r for r, _ in self._piles]
        cols = [c for _, c in self._piles]
        return min(rows), max(rows), min(cols), max(cols)

    @property
    def face_down(self) -> int:
        """Face-down cards that count towards the limit (tops; buried ones too under ``count_buried``)."""
        count = 0
        for pile in self._piles.values():
            if not pile.face_up[-1]:
                count += 1
            if self._variant.count_buried:
                count += pile.buried_face_down
        return count

    def outcome(self) -> Outcome:
        return self._outcome

    def is_over(self) -> bool:
        return self._outcome.is_over

    # --- legality ----------------------------------------------------------------------------------

    @property
    def legal_moves(self) -> list[Move]:
        """Every cell the card to place may go to, in (row, col) order."""
        if self._outcome.is_over:
            return []
        if not self._piles:
            return [Move(0, 0)]
        min_r, max_r, min_c, max_c = self.bounds()  # type: ignore[misc]
        moves: set[Move] = set()
        steps = self._variant.steps
        for (r, c), pile in self._piles.items():
            if pile.height < PILE_CAP:
                moves.add(Move(r, c))
            for dr, dc in steps:
                cell = (r + dr, c + dc)
                if cell in self._piles:
                    continue
                if max(max_r, cell[0]) - min(min_r, cell[0]) < GRID and max(max_c, cell[1]) - min(
                    min_c, cell[1]
                ) < GRID:
                    moves.add(Move(*cell))
        return sorted(moves)

    def illegality(self, row: int, col: int) -> IllegalMoveError | None:
        """Why a card may not go to (row, col), or None when it may."""
        if isinstance(row, bool) or isinstance(col, bool) or not isinstance(row, int) or not isinstance(col, int):
            return IllegalMoveError(row, col, "bad_cell", "row and column must be integers")
        if self._outcome.is_over:
            return IllegalMoveError(row, col, "game_over", f"the game is over ({self._outcome})")
        if not self._piles:
            if (row, col) != (0, 0):
                return IllegalMoveError(row, col, "first_card", "the first card goes to D4")
            return None
        pile = self._piles.get((row, col))
        if pile is not None:
            if pile.height >= PILE_CAP:
                return IllegalMoveError(row, col, "pile_full", f"the pile there already holds {PILE_CAP} cards")
            return None
        if not any((row + dr, col + dc) in self._piles for dr, dc in self._variant.steps):
            where = "orthogonally or diagonally" if self._variant.adjacency == "diagonal" else "orthogonally"
            return IllegalMoveError(row, col, "not_adjacent", f"the cell is empty and not {where} next to a card")
        min_r, max_r, min_c, max_c = self.bounds()  # type: ignore[misc]
        rows = max(max_r, row) - min(min_r, row) + 1
        cols = max(max_c, col) - min(min_c, col) + 1
        if rows > GRID or cols > GRID:
            span = f"{rows} rows" if rows > GRID else f"{cols} columns"
            return IllegalMoveError(row, col, "outside_4x4", f"the grid would span {span}, more than 4")
        return None

    def is_legal(self, row: int, col: int) -> bool:
        return self.illegality(row, col) is None

    # --- playing -----------------------------------------------------------------------------------

    def place(self, row: int, col: int) -> Placement:
        """Place the card to place at (row, col); clears the redo list unless it replays its next move."""
        placement = self._place(row, col)
        if self._redo and self._redo[-1] == placement.move:
            self._redo.pop()
        else:
            self._redo.clear()
        return placement

    def _place(self, row: int, col: int) -> Placement:
        error = self.illegality(row, col)
        if error is not None:
            raise error
        card = self._stock[self._turn]
        created = (row, col) not in self._piles
        pile = self._piles.setdefault((row, col), _Pile())
        pile.cards.append(card)
        pile.face_up.append(True)
        flips: list[Flip] = []
        rank = card.rank
        lines: tuple[Line, Line] = ("row", "column")
        for line in lines:
            others = [
                (cell, p)
                for cell, p in self._piles.items()
                if cell != (row, col) and (cell[0] == row if line == "row" else cell[1] == col)
            ]
            if not others:
                continue
            reason = _flip_reason(rank, [p.top.rank for _, p in others if p.top_face_up])
            if reason is not None:
                for (r, c), p in sorted(others, key=lambda item: item[0]):
                    p.face_up[-1] = not p.face_up[-1]
                    flips.append(Flip(r, c, p.top, p.face_up[-1], line, reason))
        self._turn += 1
        self._outcome = self._judge()
        placement = Placement(Move(row, col), card, tuple(flips), self._outcome)
        self._history.append(_Step(placement, created))
        return placement

    def _judge(self) -> Outcome:
        down = self.face_down
        if len(self._piles) == WINNING_CELLS and all(p.face_up[-1] for p in self._piles.values()):
            return Outcome("won", "sixteen_face_up", DECK_SIZE - self._turn)
        if down > MAX_FACE_DOWN:
            return Outcome("lost", "too_many_face_down", 0)
        if self._turn == DECK_SIZE:
            return Outcome("lost", "stock_empty", 0)
        return PLAYING

    def pop(self) -> Placement:
        """Take back the last placement (it is not kept for redo)."""
        if not self._history:
            raise IndexError("no card has been placed")
        step = self._history.pop()
        placement = step.placement
        for flip in placement.flips:
            p = self._piles[(flip.row, flip.col)]
            p.face_up[-1] = not p.face_up[-1]
        key = (placement.move.row, placement.move.col)
        pile = self._piles[key]
        pile.cards.pop()
        pile.face_up.pop()
        if step.created:
            del self._piles[key]
        self._turn -= 1
        self._outcome = self._history[-1].placement.outcome if self._history else PLAYING
        return placement

    def undo(self) -> Placement:
        """Take back the last placement, keeping it for ``redo``."""
        placement = self.pop()
        self._redo.append(placement.move)
        return placement

    def redo(self) -> Placement:
        if not self._redo:
            raise IndexError("nothing to redo")
        move = self._redo.pop()
        return self._place(move.row, move.col)

    def restart(self) -> None:
        """Back to the first card, same stock; the redo list is dropped."""
        while self._history:
            self.pop()
        self._redo.clear()

    # --- views -------------------------------------------------------------------------------------

    def view(self) -> View:
        """What a fair player may see of this position."""
        card = self.card_to_place
        start = self._turn + 1 if card is not None else self._turn
        return View(
            variant=self._variant,
            turn=self._turn,
            card=card,
            cells=tuple(self.cells()),
            unseen=tuple(sorted(self._stock[start:])),
            face_down=self.face_down,
            outcome=self._outcome,
            legal_moves=tuple(self.legal_moves),
        )

    def key(self) -> tuple[Any, ...]:
        """A translation-independent key of the position (see :meth:`View.key`)."""
        card = self.card_to_place
        start = self._turn + 1 if card is not None else self._turn
        return _position_key(self.cells(), card, self._stock[start:], self._variant)

    def copy(self) -> Game:
        other = Game.__new__(Game)
        other._deal = self._deal
        other._stock = self._stock
        other._variant = self._variant
        other._piles = {cell: _Pile(list(p.cards), list(p.face_up)) for cell, p in self._piles.items()}
        other._turn = self._turn
        other._history = list(self._history)
        other._redo = list(self._redo)
        other._outcome = self._outcome
        return other

    @classmethod
    def from_view(cls, view: View, future: Sequence[Card]) -> Game:
        """A game in the position of ``view`` whose stock continues with ``future``.

        ``future`` must be an ordering of ``view.unseen``. This is how a player imagines one
        possible stock; the game has no history before the view, so it cannot be undone past it.
        """
        if sorted(future) != list(view.unseen):
            raise ValueError("future must be an ordering of the unseen cards")
        placed = [card for cell in view.cells for card in cell.cards]
        head = [] if view.card is None else [view.card]
        game = cls(stock=[*placed, *head, *future], variant=view.variant)
        game._piles = {(c.row, c.col): _Pile(list(c.cards), list(c.face_up)) for c in view.cells}
        game._turn = view.turn
        game._outcome = view.outcome
        return game

    def __iter__(self) -> Iterator[CellView]:
        return iter(self.cells())

    def __repr__(self) -> str:
        source = f"deal={self._deal}" if self._deal is not None else "stock=..."
        return f"<Game {source} turn={self._turn} face_down={self.face_down} {self._outcome.status}>"


def _flip_reason(rank: int, face_up_ranks: Sequence[int]) -> FlipReason | None:
    """Why a card of ``rank`` turns its line over, given the line's other face-up tops; None if it does not."""
    if not face_up_ranks:
        return "none_face_up"
    if rank > max(face_up_ranks):
        return "highest"
    if rank < min(face_up_ranks):
        return "lowest"
    return None


__all__ = [
    "ALL_CARDS",
    "DECK_SIZE",
    "GRID",
    "MAX_FACE_DOWN",
    "PILE_CAP",
    "Card",
    "CellView",
    "Flip",
    "Game",
    "IllegalMoveError",
    "Move",
    "MoveError",
    "Outcome",
    "Placement",
    "Variant",
    "VariantError",
    "View",
    "column_name",
    "row_name",
]
