"""``GET /api/lesson``: the lesson's steps (:mod:`foursquare.lesson`), for the page at ``/learn``.

The answer never changes while the server runs: it is built once, and the page plays it without another request
(a click on the step's cell advances; every flip it shows is the engine's, as sent here).

>>> answer = lesson_answer()
>>> answer.steps[0].cell, answer.steps[0].code, answer.steps[-1].outcome
('D4', 'first_card', 'won')
"""

from __future__ import annotations

from functools import cache

from fastapi import APIRouter

from foursquare.lesson import Lesson as Lessons
from foursquare.lesson import steps
from foursquare.web.lesson_models import Lesson, LessonStep
from foursquare.web.routing import Route
from foursquare.web.views import flip

router = APIRouter(route_class=Route)


@cache
def lesson_answer() -> Lesson:
    """The lesson, every step with the engine's result of its placement."""
    return Lesson(
        max_face_down=Lessons().limit,
        steps=[
            LessonStep(
                number=step.number,
                row=step.move.row,
                col=step.move.col,
                cell=step.cell,
                card=step.card.name,
                code=step.code,
                on_pile=step.on_pile,
                flips=[flip(turned) for turned in step.flips],
                face_down=step.face_down,
                outcome=step.outcome.status,
            )
            for step in steps()
        ],
    )


@router.get("/api/lesson", summary="The lesson: a fixed teaching deal, each step with what its card did")
def lesson() -> Lesson:
    return lesson_answer()
