"""A player's statistics over their finished games: results, scores, best times, clean games, streaks, daily
streaks."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from foursquare.store.database import Repository
from foursquare.store.games import TERMINAL_PLAYER

MAX_SCORE = 24
"""The best possible score: a win needs at least 16 cards placed, leaving 24 in the stock."""


class Statistics(Repository):
    """The statistics read from the database (``store.stats``).

    >>> import tempfile, os
    >>> from foursquare.store import Store
    >>> store = Store(os.path.join(tempfile.mkdtemp(), "games.db"))
    >>> figures = store.stats.of("player-1")
    >>> figures["played"], figures["daily"]
    (0, {'played': 0, 'won': 0, 'current_streak': 0, 'best_streak': 0})
    """

    def of(self, player: str) -> dict[str, Any]:
        """A player's statistics over their finished games (see ``docs/api.md``).

        The daily figures count a player's first daily game of each date only: a repeat (a second daily game of a
        date that signing in brought to an account, see :mod:`~foursquare.store.accounts`) counts as a game, not as
        a daily one. The best times are the server's own stamps (:func:`play_time`), never a number a player sent.
        """
        with self.database.connect() as conn:
            rows = conn.execute(
                "SELECT outcome, score, assisted, created_at, finished_at, offline_id FROM games"
                " WHERE player = ? AND finished_seq IS NOT NULL ORDER BY finished_seq",
                (player,),
            ).fetchall()
            dailies = conn.execute(
                "SELECT daily, outcome FROM games WHERE player = ? AND daily IS NOT NULL AND daily_repeat = 0"
                " ORDER BY daily",
                (player,),
            ).fetchall()
        results = [(row["outcome"], row["score"] or 0) for row in rows]
        assisted = [bool(row["assisted"]) for row in rows]
        times = [play_time(player, row["created_at"], row["finished_at"], row["offline_id"]) for row in rows]
        clean_times = [None if helped else time for time, helped in zip(times, assisted, strict=True)]
        finished = {
            date.fromisoformat(row["daily"]): row["outcome"] == "won" for row in dailies if row["outcome"] != "playing"
        }
        return {
            **summarize(results),
            "best_time": best_time(results, times),
            "assisted": sum(assisted),
            "clean": {
                **summarize_clean(results, assisted),
                "best_time": best_time(results, clean_times),
            },
            "daily": {
                "played": len(finished),
                "won": sum(finished.values()),
                **daily_streaks(finished, self.database.today()),
            },
        }


def summarize(results: list[tuple[str, int]]) -> dict[str, Any]:
    """Statistics of finished games given as (outcome, score) in the order they ended.

    >>> summarize([("won", 5), ("lost", 0), ("won", 3), ("won", 5)])["current_streak"]
    2
    """
    played = len(results)
    won = sum(1 for outcome, _ in results if outcome == "won")
    current, best = streaks([outcome == "won" for outcome, _ in results])
    histogram = [0] * (MAX_SCORE + 1)
    for outcome, score in results:
        if outcome == "won":
            histogram[min(max(score, 0), MAX_SCORE)] += 1
    scores = [score if outcome == "won" else 0 for outcome, score in results]
    return {
        "played": played,
        "won": won,
        "lost": played - won,
        "win_rate": won / played if played else 0.0,
        "current_streak": current,
        "best_streak": best,
        "best_score": max(scores) if scores else None,
        "mean_score": sum(scores) / played if played else None,
        "score_histogram": [{"score": s, "count": n} for s, n in enumerate(histogram)],
    }


def summarize_clean(results: list[tuple[str, int]], assisted: list[bool]) -> dict[str, Any]:
    """Wins, best score and streaks counting clean games only: an assisted game is no clean win.

    An assisted game ends a clean streak as a loss does (skipping it would let a hint taken in a bad
    game protect the streak).

    >>> summarize_clean([("won", 5), ("won", 9), ("won", 3)], [False, True, False])
    {'played': 2, 'won': 2, 'current_streak': 1, 'best_streak': 1, 'best_score': 5}
    """
    pairs = list(zip(results, assisted, strict=True))
    clean = [result for result, helped in pairs if not helped]
    current, best = streaks([outcome == "won" and not helped for (outcome, _), helped in pairs])
    scores = [score if outcome == "won" else 0 for outcome, score in clean]
    return {
        "played": len(clean),
        "won": sum(1 for outcome, _ in clean if outcome == "won"),
        "current_streak": current,
        "best_streak": best,
        "best_score": max(scores) if scores else None,
    }


def play_time(player: str, created_at: str, finished_at: str | None, offline_id: str | None) -> float | None:
    """The seconds from a game's creation to its end, as the server's clock stamped them; None for a game whose
    stamps do not span its play: one played offline (the server stored it when the device sent it) or in the
    terminal (recorded once it ended, or once assisted), or one not over.

    >>> play_time("p", "2026-12-01T10:00:00.000Z", "2026-12-01T10:03:12.250Z", None)
    192.25
    """
    if finished_at is None or offline_id is not None or player == TERMINAL_PLAYER:
        return None
    seconds = (_moment(finished_at) - _moment(created_at)).total_seconds()
    return round(max(seconds, 0.0), 3)


def _moment(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def best_time(results: list[tuple[str, int]], times: list[float | None]) -> float | None:
    """The shortest time of a won game among those timed (``times`` in the order of ``results``); None when none.

    >>> best_time([("won", 5), ("lost", 0), ("won", 9), ("won", 3)], [300.0, 10.0, None, 240.5])
    240.5
    """
    won = [time for (outcome, _), time in zip(results, times, strict=True) if outcome == "won" and time is not None]
    return min(won, default=None)


def streaks(wins: list[bool]) -> tuple[int, int]:
    """The current run of wins (ending with the last game) and the longest one."""
    current = best = 0
    for won in wins:
        current = current + 1 if won else 0
        best = max(best, current)
    return current, best


def daily_streaks(finished: dict[date, bool], today: date) -> dict[str, int]:
    """Consecutive UTC dates with a won daily deal: the run still alive today, and the longest.

    ``finished`` tells, for each date whose daily game is over, whether it was won. The current run
    ends today or, while today's daily is not over, yesterday; a lost daily ends it at once.

    >>> d = date(2026, 12, 1)
    >>> daily_streaks({d - timedelta(days=n): True for n in (6, 5, 4, 2, 1)}, d)
    {'current_streak': 2, 'best_streak': 3}
    """
    best = run = 0
    previous: date | None = None
    for day in sorted(day for day, won in finished.items() if won):
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    yesterday = today - timedelta(days=1)
    alive = previous is not None and (previous == today or (previous == yesterday and today not in finished))
    return {"current_streak": run if alive else 0, "best_streak": best}
