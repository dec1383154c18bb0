"""The lesson's answer (``GET /api/lesson``) as Pydantic models: closed, every field described.

The lesson is a fixed teaching deal (:mod:`foursquare.lesson`): its line is public, so the answer holds every
step, each with what the engine said the placement did.

>>> Lesson.model_json_schema()["required"]
['max_face_down', 'steps']
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from foursquare.engine import Status
from foursquare.lesson import StepCode
from foursquare.web.models import ROW, Answer, CardName, CellName, Coordinate, Count, Flip

STEP_CODE = (
    "what the step teaches: `first_card`; `place` (nothing turns over); `row_flip_high`, `row_flip_low`, "
    "`column_flip_high`, `column_flip_low` (the highest or lowest card of its row or column turns the line's other "
    "top cards face down); `turn_back_up` (face-down cards come back up); `turn_both_ways` (a line turns over both "
    "ways); `four_face_down` (the limit reached); `finish_square` (the square is finished face up: a win)"
)


class LessonStep(Answer):
    """One card of the lesson: where it goes, what it teaches, and what placing it did (the engine's result)."""

    number: Annotated[int, Field(ge=1, description="the step's number, from 1")]
    row: Coordinate = Field(description=ROW)
    col: Coordinate = Field(description="the column: the first card is at column 0, columns grow rightward")
    cell: CellName = Field(description="the cell's name: the only cell the step's card may go to")
    card: CardName = Field(description="the card to place")
    code: StepCode = Field(description=STEP_CODE)
    on_pile: bool = Field(description="whether the card goes on a pile (the cell already holds cards)")
    flips: list[Flip] = Field(description="every top card that turned over with the card, in the engine's order")
    face_down: Count = Field(description="face-down cards counting towards the limit once the card is placed")
    outcome: Status = Field(description="`playing`, or `won` once the last card finishes the square")


class Lesson(Answer):
    """The lesson: its steps in order, and the most cards that may be face down."""

    max_face_down: Count = Field(description="the most cards that may be face down: one more loses")
    steps: list[LessonStep] = Field(description="every step, first to last")
