"""The report's plots as PNG files (matplotlib, no display needed).

Library code words nothing for a person: every title and axis label comes from the caller's ``labels``
(keys: ``optimal_title``, ``players_title``, ``time_title``, ``rates_title``, ``score``, ``deals_share``,
``seconds``, ``solved_share``, ``win_rate``, ``optimum``, ``winnable``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from foursquare.files import atomic_path, make_folder
from foursquare.study.report import optimal_scores
from foursquare.study.store import Study
from foursquare.study.work import DealResult

PLOTS = ("optimal_scores.png", "player_scores.png", "solver_time.png", "win_rates.png")
StudyRows = Sequence[tuple[Study, Sequence[DealResult]]]


def variant_name(study: Study) -> str:
    """``orthogonal`` / ``diagonal``, with ``+buried`` for the count-buried rule (a legend entry)."""
    variant = study.settings.variant
    return variant.adjacency + ("+buried" if variant.count_buried else "")


def write_plots(studies: StudyRows, directory: str | Path, labels: Mapping[str, str]) -> list[Path]:
    """Write the four plots into ``directory`` (created when missing); returns their paths.

    :class:`~foursquare.files.FileWriteError` if ``directory`` is a file or cannot be made.
    """
    import matplotlib

    matplotlib.use("Agg")
    out = make_folder(directory)
    solvers = [(s, rows) for s, rows in studies if s.settings.is_solver]
    drawers = (_optimal_scores, _player_scores, _solver_time, _win_rates)
    paths = []
    for name, draw in zip(PLOTS, drawers, strict=True):
        paths.append(_save(out / name, lambda ax, d=draw: d(ax, studies, solvers, labels)))
    return paths


def _save(path: Path, draw: Any) -> Path:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4), layout="constrained")
    try:
        draw(ax)
        with atomic_path(path, suffix=".png") as temporary:  # a reader never sees half a picture
            fig.savefig(temporary, dpi=100, format="png")
    finally:
        plt.close(fig)
    return path


def _distribution(scores: Sequence[int]) -> tuple[list[int], list[float]]:
    xs = list(range(min(scores, default=0), max(scores, default=0) + 1))
    n = max(1, len(scores))
    return xs, [sum(s == x for s in scores) / n for x in xs]


def _optimal_scores(ax: Any, studies: StudyRows, solvers: StudyRows, labels: Mapping[str, str]) -> None:
    for study, rows in solvers:
        xs, ys = _distribution(list(optimal_scores(rows).values()))
        ax.plot(xs, ys, marker="o", label=variant_name(study))
    ax.set(title=labels["optimal_title"], xlabel=labels["score"], ylabel=labels["deals_share"])
    _integer_scores(ax)
    _legend(ax)


def _player_scores(ax: Any, studies: StudyRows, solvers: StudyRows, labels: Mapping[str, str]) -> None:
    """Each player's scores on the deals the solver proved (same variant), against the optimum there."""
    for study, rows in studies:
        if study.settings.is_solver:
            continue
        same = [r for s, r in solvers if s.settings.variant == study.settings.variant]
        optimum = optimal_scores(same[0]) if same else {}
        scores = [r.score or 0 for r in rows if r.deal in optimum or not optimum]
        xs, ys = _distribution(scores)
        name = f"{study.settings.what} ({variant_name(study)})"
        (line,) = ax.plot(xs, ys, marker=".", label=name)
        if optimum:  # in the player's colour: each player is set against the optimum of its own deals
            best = [optimum[r.deal] for r in rows if r.deal in optimum]
            xs, ys = _distribution(best)
            ax.plot(xs, ys, linestyle="--", color=line.get_color(), label=f"{labels['optimum']}: {name}")
    ax.set(title=labels["players_title"], xlabel=labels["score"], ylabel=labels["deals_share"])
    _integer_scores(ax)
    _legend(ax)


def _solver_time(ax: Any, studies: StudyRows, solvers: StudyRows, labels: Mapping[str, str]) -> None:
    """The share of deals the solver has settled (proven either way) within each time."""
    for study, rows in solvers:
        times = sorted(r.seconds for r in rows if r.status != "bounds")
        if times:
            ax.step(times, [(i + 1) / len(rows) for i in range(len(times))], where="post", label=variant_name(study))
    ax.set(title=labels["time_title"], xlabel=labels["seconds"], ylabel=labels["solved_share"], xscale="log")
    _legend(ax)


def _win_rates(ax: Any, studies: StudyRows, solvers: StudyRows, labels: Mapping[str, str]) -> None:
    from foursquare.study.report import player_summary, solver_summary

    names, rates, errors = [], [], []
    for study, rows in studies:
        if study.settings.is_solver:
            s = solver_summary(rows)
            rate, (lo, hi) = s["winnable"] / max(1, len(rows)), s["winnable_ci95"]
            names.append(f"{labels['winnable']}\n{_stacked(variant_name(study))}")
        else:
            s = player_summary(rows)
            rate, (lo, hi) = s["win_rate"], s["ci95"]
            names.append(f"{study.settings.what}\n{_stacked(variant_name(study))}")
        rates.append(rate)
        errors.append((max(0.0, rate - lo), max(0.0, hi - rate)))
    ax.bar(range(len(names)), rates, yerr=list(zip(*errors, strict=True)) if errors else None, capsize=4)
    ax.set_xticks(range(len(names)), names, fontsize=7)
    ax.set(title=labels["rates_title"], ylabel=labels["win_rate"])


def _stacked(name: str) -> str:
    """A variant's name on lines of their own (``diagonal`` over ``+buried``), so that bar labels never meet."""
    return name.replace("+", "\n+")


def _integer_scores(ax: Any) -> None:
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))


def _legend(ax: Any) -> None:
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8)


__all__ = ["PLOTS", "variant_name", "write_plots"]
