"""The figures of a study: counts, rates with 95 % Wilson intervals, score distributions.

For the solver a deal is winnable (a win was found: ``optimal``, or ``bounds`` with a best score),
unwinnable (proven) or unresolved (time ran out before any win was found). The winnable rate's interval is
Solvitaire's: its lower end is the Wilson interval's lower end with the unresolved counted unwinnable, its
upper end the upper end with them counted winnable. The optimal score of a proven deal is its best score,
0 for an unwinnable deal (a loss scores 0, as for the players).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from foursquare.players import wilson
from foursquare.study.store import Study, StudyStore
from foursquare.study.work import DealResult


def deal_ranges(deals: Iterable[int]) -> str:
    """Deal numbers as compact inclusive ranges: ``1-100,200,300-310`` (empty for none)."""
    spans = _Spans()
    for deal in sorted(deals):
        spans.add(deal)
    return spans.text()


class _Spans:
    """Deal numbers given in increasing order, kept as their runs of consecutive numbers."""

    def __init__(self) -> None:
        self.spans: list[list[int]] = []

    def add(self, deal: int) -> None:
        if self.spans and deal <= self.spans[-1][1] + 1:
            self.spans[-1][1] = max(deal, self.spans[-1][1])
        else:
            self.spans.append([deal, deal])

    def text(self) -> str:
        return ",".join(f"{lo}" if lo == hi else f"{lo}-{hi}" for lo, hi in self.spans)


def optimal_scores(rows: Iterable[DealResult]) -> dict[int, int]:
    """The optimal score of every proven deal (0 when unwinnable), by deal."""
    return {r.deal: r.score or 0 for r in rows if r.status in PROVEN}


PROVEN = ("optimal", "unwinnable")  # the solver's statuses that settle a deal's optimal score


def solver_summary(rows: Iterable[DealResult]) -> dict[str, Any]:
    """The solver's figures, read in one pass (the rows may be an iterator over a study of any size)."""
    done = winnable = unwinnable = 0
    seconds = 0.0
    counts: Counter[int] = Counter()
    for r in rows:
        done += 1
        winnable += r.score is not None
        unwinnable += r.status == "unwinnable"
        seconds += r.seconds
        if r.status in PROVEN:
            counts[r.score or 0] += 1
    unresolved = done - winnable - unwinnable
    proven = sum(counts.values())
    return {
        "winnable": winnable,
        "unwinnable": unwinnable,
        "unresolved": unresolved,
        "winnable_ci95": [wilson(winnable, done)[0], wilson(winnable + unresolved, done)[1]],
        "score_counts": {str(score): counts[score] for score in sorted(counts)},
        "mean_optimal_score": sum(score * n for score, n in counts.items()) / proven if proven else 0.0,
        "seconds": seconds,
    }


def player_summary(rows: Iterable[DealResult]) -> dict[str, Any]:
    """A player's figures, read in one pass."""
    games = wins = moves = points = 0
    seconds = 0.0
    for r in rows:
        games += 1
        wins += r.status == "won"
        moves += r.moves or 0
        points += r.score or 0
        seconds += r.seconds
    return {
        "games": games,
        "wins": wins,
        "win_rate": wins / games if games else 0.0,
        "ci95": list(wilson(wins, games)),
        "mean_score": points / games if games else 0.0,
        "seconds_per_move": seconds / moves if moves else 0.0,
        "seconds": seconds,
    }


def study_summary(study: Study, rows: Iterable[DealResult]) -> dict[str, Any]:
    """One study's entry of :func:`report`, read in one pass over ``rows``: a list in any order, or an iterator
    in deal order (:meth:`~foursquare.study.store.StudyStore.iter_results`) over a study of any size."""
    settings = study.settings
    spans = _Spans()
    ordered: Iterable[DealResult] = sorted(rows, key=lambda r: r.deal) if isinstance(rows, Sequence) else rows

    def seen() -> Iterator[DealResult]:
        for row in ordered:
            spans.add(row.deal)
            yield row

    figures = solver_summary(seen()) if settings.is_solver else player_summary(seen())
    done = figures["games"] if "games" in figures else figures["winnable"] + figures["unwinnable"]
    done += figures.get("unresolved", 0)
    data: dict[str, Any] = {
        "what": settings.what,
        "variant": settings.variant.to_json(),
        "settings": {**settings.to_json(), "version": study.version},
        "deals": spans.text(),
        "done": done,
    }
    data.update(figures)
    return data


def report(store: StudyStore) -> dict[str, Any]:
    """Every study of the store (``study report --json``): ``{"studies": [...]}`` in creation order."""
    return {"studies": [study_summary(study, store.iter_results(study)) for study in store.studies()]}


__all__ = ["PROVEN", "deal_ranges", "optimal_scores", "player_summary", "report", "solver_summary", "study_summary"]
