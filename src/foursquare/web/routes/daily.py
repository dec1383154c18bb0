"""The daily deal's results: everyone's daily game of a UTC date that is over, for a player to compare theirs.

A date's results are open once the date is over, and today's to a player once their own daily game of today is
over: before that they would tell how the deal goes (how many win it, with what score) to someone about to play
it. Nothing is read for a date whose results are refused, so a refusal says nothing of how many have played.

They are not rate-limited: an answer is one read of an index (one row per score), no more than a game's state
costs, and a loop over dates gets 404s and 409s, which read nothing at all.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated

from fastapi import APIRouter, Path

from foursquare.i18n import Translator
from foursquare.store.daily import DailyResults as Results
from foursquare.web.deps import PlayerDep, StoreDep
from foursquare.web.errors import ApiError, ConflictError
from foursquare.web.messages import say, say_in
from foursquare.web.models import DailyResults
from foursquare.web.openapi import error_response
from foursquare.web.routing import Route

router = APIRouter(route_class=Route)

DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
"""How a date is written in the path: ISO 8601's calendar date, ASCII digits only (no 20261201, no week dates)."""


class NoSuchDateError(ApiError):
    """The path names no date: 404 ``not_found``, as for any address that names nothing."""

    status = 404

    def __init__(self) -> None:
        super().__init__("not_found")
        self.args = (say("not_a_date"),)

    def detail(self, t: Translator) -> str:
        return say_in(t, "not_a_date")


class ResultsNotYetError(ConflictError):
    """Today's results before the asker has finished today's daily game, or a date still to come: 409."""

    def __init__(self, day: date) -> None:
        ValueError.__init__(self, say("daily_results_secret", day=day.isoformat()))
        self.code = "daily_secret"  # the code of every refusal while a daily deal is secret; its own sentence
        self.params = {"day": day.isoformat()}

    def detail(self, t: Translator) -> str:
        return say_in(t, "daily_results_secret", day=self.params["day"])


def parse_day(text: str) -> date:
    """The date ``text`` writes as YYYY-MM-DD, or :class:`NoSuchDateError`.

    >>> parse_day("2026-12-01")
    datetime.date(2026, 12, 1)
    >>> for text in ("2026-13-01", "2026-1-1", "today", "20261201", "0000-01-01", "١٢٣٤-01-01"):
    ...     try:
    ...         parse_day(text)
    ...     except NoSuchDateError:
    ...         pass
    ...     else:
    ...         print("taken:", text)
    """
    if DATE.fullmatch(text) is None:
        raise NoSuchDateError()
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise NoSuchDateError() from None


@router.get(
    "/api/daily/{day}/results",
    summary="The results of a date's daily deal",
    description="Everyone's daily game of the UTC date that is over: how many, how many won, how many of each "
    "score. Open for a past date, and for today once the asker's own daily game of today is over.",
    responses={
        404: {**error_response(404, ("not_found",)), "description": "The path names no date (code: not_found)"},
        409: {
            **error_response(409, ("daily_secret",)),
            "description": "Today's results before the asker's own daily game of today is over, or a date still "
            "to come (code: daily_secret)",
        },
    },
)
def daily_results(
    day: Annotated[
        str, Path(description="the UTC date, written YYYY-MM-DD (any other text is 404)", examples=["2026-12-01"])
    ],
    store: StoreDep,
    player: PlayerDep,
) -> DailyResults:
    asked = parse_day(day)
    today = store.database.today()
    if asked > today or (asked == today and not store.daily.has_finished(player, today)):
        raise ResultsNotYetError(asked)
    return answer(store.daily.results(asked))


def answer(results: Results) -> DailyResults:
    """The answer of ``results``: the scores as JSON object keys, in ascending order of score."""
    scores = {str(score): count for score, count in sorted(results.scores.items())}
    return DailyResults(date=results.day, players=results.players, won=results.won, scores=scores)
