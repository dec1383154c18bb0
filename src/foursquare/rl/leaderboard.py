"""The leaderboard of submissions (``foursquare rl leaderboard``; docs/benchmark.md).

The rows are the submissions by mean score, best first. Each row is compared deal by deal
(:func:`foursquare.rl.protocol.paired`) with the row below it, or with one agent for all (``against``): the mean
score difference over the deals both played with its 95 % interval, and the deals each won that the other lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from foursquare.rl.evaluate import Compute, Submission, SubmissionError
from foursquare.rl.protocol import Game, Metrics, Paired, paired


class Row(TypedDict):
    rank: int
    agent: str
    spec: str
    sees_stock: bool
    test_set: str | None
    deals: list[int]
    metrics: Metrics
    compute: Compute
    #: The agent this row is compared with (the next row, or ``against``), and the comparison; ``None`` for
    #: the last row (or the ``against`` agent itself).
    compared_with: str | None
    paired: Paired | None


def leaderboard(submissions: Sequence[Submission], against: str | None = None) -> list[Row]:
    """The rows of the leaderboard (:class:`SubmissionError` when two submissions share an agent's name, or
    ``against`` names none of them)."""
    names = [s["agent"] for s in submissions]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise SubmissionError(
            f"two submissions name the agent {repeated[0]!r}: give one another name", "same_name", agent=repeated[0]
        )
    if against is not None and against not in names:
        listed = ", ".join(names)
        raise SubmissionError(
            f"no submission of the agent {against!r} to compare with; there are {listed}",
            "no_against",
            agent=against,
            names=listed,
        )
    ordered = sorted(submissions, key=lambda s: (-s["metrics"]["mean_score"], s["agent"]))
    games = {s["agent"]: {g["deal"]: Game(g["deal"], g["won"], g["score"]) for g in s["games"]} for s in ordered}
    rows: list[Row] = []
    for rank, submission in enumerate(ordered, start=1):
        name = submission["agent"]
        other = against if against is not None else (ordered[rank]["agent"] if rank < len(ordered) else None)
        if other == name:
            other = None
        rows.append(
            {
                "rank": rank,
                "agent": name,
                "spec": submission["spec"],
                "sees_stock": submission["sees_stock"],
                "test_set": submission.get("test_set"),
                "deals": submission.get("deals", []),
                "metrics": submission["metrics"],
                "compute": submission["compute"],
                "compared_with": other,
                "paired": paired(games[name], games[other]) if other is not None else None,
            }
        )
    return rows


__all__ = ["Row", "leaderboard"]
