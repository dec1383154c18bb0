"""The figures of a study: counts, rates with 95 % Wilson intervals, score distributions.

For the solver a deal is winnable (a win was found: ``optimal``, or ``bounds`` with a best score),
unwinnable (proven) or unresolved (time ran out before any win was found). The winnable rate's interval is
Solvitaire's: its lower end is the Wilson interval's lower end with the unresolved counted unwinnable, its
upper end the upper end with them counted winnable. The optimal score of a proven deal is its best score,
0 for an unwinnable deal (a loss scores 0, as for the players).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from foursquare.players import wilson
from foursquare.study.store import Study, StudyStore
from foursquare.study.work import DealResult


def deal_ranges(deals: Iterable[int]) -> str:
    """Deal numbers as compact inclusive ranges: ``1-100,200,300-310`` (empty for none)."""
    ordered = sorted(deals)
    spans: list[list[int]] = []
    for deal in ordered:
        if spans and deal == spans[-1][1] + 1:
            spans[-1][1] = deal
        else:
            spans.append([deal, deal])
    return ",".join(f"{lo}" if lo == hi else f"{lo}-{hi}" for lo, hi in spans)


def optimal_scores(rows: Sequence[DealResult]) -> dict[int, int]:
    """The optimal score of every proven deal (0 when unwinnable), by deal."""
    scores = {r.deal: r.score or 0 for r in rows if r.status == "optimal"}
    scores.update({r.deal: 0 for r in rows if r.status == "unwinnable"})
    return scores


def solver_summary(rows: Sequence[DealResult]) -> dict[str, Any]:
    done = len(rows)
    winnable = sum(r.score is not None for r in rows)
    unwinnable = sum(r.status == "unwinnable" for r in rows)
    unresolved = done - winnable - unwinnable
    lo = wilson(winnable, done)[0]
    hi = wilson(winnable + unresolved, done)[1]
    proven = optimal_scores(rows)
    counts = Counter(proven.values())
    return {
        "winnable": winnable,
        "unwinnable": unwinnable,
        "unresolved": unresolved,
        "winnable_ci95": [lo, hi],
        "score_counts": {str(score): counts[score] for score in sorted(counts)},
        "mean_optimal_score": sum(proven.values()) / len(proven) if proven else 0.0,
        "seconds": sum(r.seconds for r in rows),
    }


def player_summary(rows: Sequence[DealResult]) -> dict[str, Any]:
    games = len(rows)
    wins = sum(r.status == "won" for r in rows)
    moves = sum(r.moves or 0 for r in rows)
    seconds = sum(r.seconds for r in rows)
    return {
        "games": games,
        "wins": wins,
        "win_rate": wins / games if games else 0.0,
        "ci95": list(wilson(wins, games)),
        "mean_score": sum(r.score or 0 for r in rows) / games if games else 0.0,
        "seconds_per_move": seconds / moves if moves else 0.0,
        "seconds": seconds,
    }


def study_summary(study: Study, rows: Sequence[DealResult]) -> dict[str, Any]:
    """One study's entry of :func:`report`."""
    settings = study.settings
    data: dict[str, Any] = {
        "what": settings.what,
        "variant": settings.variant.to_json(),
        "settings": {**settings.to_json(), "version": study.version},
        "deals": deal_ranges(r.deal for r in rows),
        "done": len(rows),
    }
    data.update(solver_summary(rows) if settings.is_solver else player_summary(rows))
    return data


def report(store: StudyStore) -> dict[str, Any]:
    """Every study of the store (``study report --json``): ``{"studies": [...]}`` in creation order."""
    return {"studies": [study_summary(study, store.results(study)) for study in store.studies()]}


__all__ = ["deal_ranges", "optimal_scores", "player_summary", "report", "solver_summary", "study_summary"]
