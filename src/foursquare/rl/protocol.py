"""The benchmark's protocol (docs/benchmark.md): the test deals, the metrics and their intervals.

- **Splits.** The environments' ``split="test"`` deals only deals 1–20,000 and ``split="train"`` every other deal
  number (:mod:`foursquare.rl.settings`). An agent is measured on a *test set* of the test split: ``quick``,
  deals 1–1,000, or ``full``, deals 1–20,000, under the standard rules.
- **Metrics** of a set of games (:func:`metrics`): the win rate with its 95 % Wilson interval, the mean score
  with its 95 % interval, and the normalised score, each deal's score over the stock-known optimum (random
  play scores 0 and the solver that sees the stock 1), with its interval.
- **Paired differences** (:func:`paired`): two agents compared deal by deal on the deals both played, the mean
  of the score differences with its interval, and the deals each won that the other lost.

The optima are package data (``optima.csv.gz``), the solver's study of deals 1–20,000 under its default budget
(docs/results.md): all of deals 1–1,000 proven (mean 23.83); of the 20,000, 15 not proven, for which the best
win found stands in.

>>> [optimum(d) for d in (1, 2, 3)], round(sum(map(optimum, TEST_SETS["quick"])) / 1000, 2)
([24, 24, 24], 23.83)
>>> m = metrics([(1, True, 20), (2, False, 0), (3, True, 24)])
>>> m["wins"], round(m["mean_score"], 2), round(m["normalised_score"], 3)
(2, 14.67, 0.611)
"""

from __future__ import annotations

import csv
import functools
import gzip
import io
import math
from collections.abc import Iterable, Mapping, Sequence
from importlib import resources
from typing import NamedTuple, TypedDict

from foursquare.errors import FoursquareError
from foursquare.players import wilson
from foursquare.rl.settings import TEST_DEALS

#: The test sets of the test split, by name: the quick one and the full one.
TEST_SETS: dict[str, range] = {"quick": range(1, 1001), "full": TEST_DEALS}
#: The normal quantile of a two-sided 95 % interval.
Z95 = 1.959963984540054


class ProtocolError(FoursquareError):
    """A deal outside the test split, or figures that cannot be compared."""


class Game(NamedTuple):
    """What the metrics read of one game: its deal, whether it was won and its score (0 after a loss)."""

    deal: int
    won: bool
    score: int


class Interval(TypedDict):
    mean: float
    ci95: list[float]


class Metrics(TypedDict):
    games: int
    wins: int
    win_rate: float
    #: The win rate's 95 % Wilson interval.
    win_ci95: list[float]
    mean_score: float
    #: The mean score's 95 % interval (normal, from the scores' standard deviation; never below 0).
    score_ci95: list[float]
    #: The mean of each deal's score over its stock-known optimum.
    normalised_score: float
    normalised_ci95: list[float]


class Paired(TypedDict):
    #: The deals both played.
    deals: int
    #: The mean of (a's score − b's score) over those deals, and its 95 % interval.
    mean_difference: float
    ci95: list[float]
    #: Deals a won and b lost, and the other way round.
    only_a_won: int
    only_b_won: int


@functools.cache
def _optima() -> tuple[tuple[int, int], ...]:
    """(best win found, proven upper bound) of deals 1–20,000 in order, from the package data."""
    data = resources.files("foursquare.rl").joinpath("optima.csv.gz").read_bytes()
    text = gzip.decompress(data).decode("utf-8")
    rows = csv.reader(line for line in io.StringIO(text) if not line.startswith("#"))
    next(rows)  # the header
    return tuple((int(best), int(upper)) for best, upper in rows)


def optimum(deal: int) -> int:
    """The stock-known optimum of a test deal under the standard rules (the best win found where the solver did
    not prove it: 15 of deals 1–20,000, none of 1–1,000); :class:`ProtocolError` outside the test split."""
    check_test_deal(deal)
    return _optima()[deal - 1][0]


def proven(deal: int) -> bool:
    """Whether the solver proved :func:`optimum` of the deal."""
    check_test_deal(deal)
    best, upper = _optima()[deal - 1]
    return best == upper


def check_test_deal(deal: int) -> int:
    if isinstance(deal, bool) or not isinstance(deal, int) or deal not in TEST_DEALS:
        raise ProtocolError(f"deal {deal!r} is not a test deal (1 to {TEST_DEALS[-1]})")
    return deal


def mean_interval(values: Sequence[float]) -> Interval:
    """The mean and its 95 % interval, mean ± 1.96 standard errors (0 wide for fewer than two values)."""
    n = len(values)
    if n == 0:
        return {"mean": 0.0, "ci95": [0.0, 0.0]}
    mean = math.fsum(values) / n
    if n < 2:
        return {"mean": mean, "ci95": [mean, mean]}
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(variance / n)
    return {"mean": mean, "ci95": [mean - half, mean + half]}


def metrics(games: Iterable[tuple[int, bool, int]]) -> Metrics:
    """The metrics of games of test deals, each ``(deal, won, score)``."""
    played = [Game(*g) for g in games]
    wins = sum(g.won for g in played)
    scores = mean_interval([g.score for g in played])
    normalised = mean_interval([g.score / optimum(g.deal) for g in played])
    lo, hi = wilson(wins, len(played))
    return {
        "games": len(played),
        "wins": wins,
        "win_rate": wins / len(played) if played else 0.0,
        "win_ci95": [lo, hi],
        "mean_score": scores["mean"],
        "score_ci95": _not_below_zero(scores["ci95"]),
        "normalised_score": normalised["mean"],
        "normalised_ci95": _not_below_zero(normalised["ci95"]),
    }


def _not_below_zero(interval: list[float]) -> list[float]:
    """A score is never negative: neither is its interval's lower end."""
    return [max(0.0, interval[0]), interval[1]]


def paired(a: Mapping[int, Game], b: Mapping[int, Game]) -> Paired:
    """Two agents' games compared deal by deal, on the deals both played (``a`` and ``b`` by deal number)."""
    common = sorted(set(a) & set(b))
    differences = mean_interval([a[d].score - b[d].score for d in common])
    return {
        "deals": len(common),
        "mean_difference": differences["mean"],
        "ci95": differences["ci95"],
        "only_a_won": sum(a[d].won and not b[d].won for d in common),
        "only_b_won": sum(b[d].won and not a[d].won for d in common),
    }


__all__ = [
    "TEST_SETS",
    "Z95",
    "Game",
    "Interval",
    "Metrics",
    "Paired",
    "ProtocolError",
    "check_test_deal",
    "mean_interval",
    "metrics",
    "optimum",
    "paired",
    "proven",
]
