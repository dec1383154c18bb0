"""The lesson: a fixed teaching deal and the one line of placements that shows a new player every rule.

The stock (:data:`STOCK`) is not a numbered deal: it was made for the lesson, so that its line
(:data:`LINE`) places the first card, turns a row over with a highest card, a column with a lowest card,
turns face-down cards back up, reaches the limit of four face down and finishes the square, all within
seventeen cards (the fewest found: sixteen cells, and one card on a pile). Each placement is a
:class:`Step`; what it did (the cards that turned, the face-down count, the outcome) is the engine's own
result of that placement, kept as the engine gave it.

>>> lesson = Lesson()
>>> step = lesson.current
>>> step.number, step.cell, step.code, step.card.name
(1, 'D4', 'first_card', '3C')
>>> lesson.place("D4").flips
()
>>> lesson.current.cell, lesson.current.code
('E4', 'row_flip_high')
>>> lesson.check("C4").code, lesson.check("C4").params["target"]
('wrong_cell', 'E4')
>>> [(f.cell_name, f.face_up, f.line, f.reason) for f in lesson.place("E4").flips]
[('D4', False, 'row', 'highest')]
>>> lesson.number, len(lesson.steps)
(3, 17)

A front end shows :attr:`Lesson.current`'s cell and code, lets the player place, and then words what the step
did from its engine facts (:attr:`Step.flips`, :attr:`Step.face_down`, :attr:`Step.outcome`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Literal, get_args

from foursquare.cards import Card
from foursquare.engine import ALL_CARDS, MAX_FACE_DOWN, Flip, Game, IllegalMoveError, Move, Outcome, Placement
from foursquare.errors import FoursquareError

#: What a step teaches. ``place``: a card that turns nothing over; ``row_flip_high``, ``row_flip_low``,
#: ``column_flip_high``, ``column_flip_low``: the highest (lowest) card of a row (column) turns the line's other
#: top cards face down; ``turn_back_up``: face-down cards come back face up (every other card of the line was face
#: down); ``turn_both_ways``: a line turns over both ways at once (face-up cards go down, face-down come up);
#: ``four_face_down``: the fourth card face down, the limit (a fifth loses); ``finish_square``: the square is
#: complete with all sixteen cards face up, a win.
StepCode = Literal[
    "first_card",
    "place",
    "row_flip_high",
    "row_flip_low",
    "column_flip_high",
    "column_flip_low",
    "turn_back_up",
    "turn_both_ways",
    "four_face_down",
    "finish_square",
]
STEP_CODES: tuple[StepCode, ...] = get_args(StepCode)

# The line, one (cell, card, what it teaches) per step. It was made by a throwaway beam search (not kept) over
# placements whose card is chosen freely, each rank four times: the promised steps in order, the others turning
# nothing over where the rules allow (none did with fewer than four steps that turn cards both ways), the fewest
# cards: sixteen to fill the square and one to cover the last face-down card. The stock is the line's cards in
# order, then the rest of the deck, never drawn.
LINE: tuple[tuple[str, str, StepCode], ...] = (
    ("D4", "3C", "first_card"),
    ("E4", "10C", "row_flip_high"),
    ("E3", "AC", "column_flip_low"),
    ("C4", "AD", "turn_back_up"),
    ("D5", "3D", "place"),
    ("C3", "AH", "place"),
    ("E5", "3H", "place"),
    ("D6", "2C", "column_flip_low"),
    ("F3", "9C", "four_face_down"),
    ("C5", "10D", "turn_both_ways"),
    ("F4", "9D", "turn_both_ways"),
    ("E6", "8C", "turn_both_ways"),
    ("F6", "9H", "turn_both_ways"),
    ("F5", "9S", "place"),
    ("D3", "3S", "place"),
    ("C6", "7C", "place"),
    ("E6", "2D", "finish_square"),
)
_DRAWN = tuple(Card.parse(card) for _, card, _ in LINE)
STOCK: tuple[Card, ...] = _DRAWN + tuple(card for card in ALL_CARDS if card not in _DRAWN)


class LessonError(FoursquareError):
    """A card placed off the lesson's line.

    Codes: ``wrong_cell`` (``cell``: the cell asked, ``target``: the step's cell, ``reason``: why the rules
    refuse the cell asked, an :class:`~foursquare.engine.IllegalMoveError` code, or None when they would
    allow it), ``finished`` (the lesson is over; ``cell``).
    """


@dataclass(frozen=True)
class Step:
    """One card of the lesson: its number (from 1), where it goes, what it teaches, and what the engine said it
    did: the cards that turned (:attr:`flips`), the face-down count before and after, the outcome."""

    number: int
    move: Move
    card: Card
    code: StepCode
    placement: Placement
    face_down_before: int
    face_down: int
    #: The cell held a pile before this card (the card goes on top of it).
    on_pile: bool

    @property
    def cell(self) -> str:
        """The cell's name (``"D4"``), the engine's."""
        return self.move.name

    @property
    def flips(self) -> tuple[Flip, ...]:
        return self.placement.flips

    @property
    def outcome(self) -> Outcome:
        return self.placement.outcome


@cache
def steps() -> tuple[Step, ...]:
    """Every step of the lesson, each with the engine's result of its placement."""
    game = Game(stock=STOCK)
    made = []
    for number, (cell, _, code) in enumerate(LINE, start=1):
        move = Move.from_name(cell)
        before = game.face_down
        on_pile = game.pile(*move) is not None
        placement = game.place(*move)
        made.append(Step(number, move, placement.card, code, placement, before, game.face_down, on_pile))
    return tuple(made)


class Lesson:
    """The lesson being played: the game on :data:`STOCK` and the step it has reached."""

    def __init__(self) -> None:
        self.game = Game(stock=STOCK)
        self.steps = steps()

    @property
    def number(self) -> int:
        """The current step's number, from 1; ``len(steps) + 1`` once every card is placed."""
        return self.game.turn + 1

    @property
    def current(self) -> Step | None:
        """The step to play now, or None when the lesson is done."""
        return self.steps[self.game.turn] if self.game.turn < len(self.steps) else None

    @property
    def done(self) -> bool:
        return self.current is None

    @property
    def limit(self) -> int:
        """The most cards that may be face down (a fifth loses)."""
        return MAX_FACE_DOWN

    def check(self, cell: str | Move) -> LessonError | None:
        """Why the card may not go to ``cell`` in the lesson, or None when it is the step's cell.

        ``cell`` is a name (``"D4"``) or a :class:`~foursquare.engine.Move`; a malformed name raises
        :class:`~foursquare.engine.MoveError`."""
        move = Move.from_name(cell) if isinstance(cell, str) else cell
        step = self.current
        name = _name(move)
        if step is None:
            return LessonError(f"the lesson is over: no card to place on {name}", "finished", cell=name)
        if move == step.move:
            return None
        illegal: IllegalMoveError | None = self.game.illegality(move.row, move.col)
        reason = None if illegal is None else illegal.reason
        message = f"this step's card goes to {step.cell}, not {name}"
        return LessonError(message, "wrong_cell", cell=name, target=step.cell, reason=reason)

    def place(self, cell: str | Move) -> Step:
        """Place the step's card on ``cell``, which must be the step's; returns the step played.

        Raises :class:`LessonError` for any other cell (the game is unchanged)."""
        error = self.check(cell)
        if error is not None:
            raise error
        step = self.current
        assert step is not None
        self.game.place(*step.move)
        return step

    def restart(self) -> None:
        """Back to the first step."""
        self.game.restart()


def _name(move: Move) -> str:
    try:
        return move.name
    except FoursquareError:
        return str(move)


__all__ = ["LINE", "STEP_CODES", "STOCK", "Lesson", "LessonError", "Step", "StepCode", "steps"]
