"""The report's plots as PNG files (matplotlib, no display needed).

Library code words nothing for a person: every title and axis label comes from the caller's ``labels``
(keys: ``optimal_title``, ``players_title``, ``time_title``, ``rates_title``, ``score``, ``deals_share``,
``seconds``, ``solved_share``, ``win_rate``, ``optimum``, ``winnable``). A plot with nothing to show is not
drawn: the solver's two without a solver study, the players' without a player study (:func:`missing_plots`
says which, so that the caller can say why).

The rows are read in one pass per study, in deal order, into counts: a study of any size is drawn in memory
that grows only with its settled solver times (one float each).
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from foursquare.cards import DECK_SIZE
from foursquare.files import atomic_path, make_folder
from foursquare.study.report import PROVEN, player_summary, solver_summary
from foursquare.study.store import Study, StudyStore
from foursquare.study.work import DealResult

FIGURE_SIZE = (7.0, 4.0)  # inches, at 100 dots an inch
BAR_INCHES = 1.15  # the width a bar of win_rates.png takes, its label included
PLOTS = ("optimal_scores.png", "player_scores.png", "solver_time.png", "win_rates.png")
SOLVER_PLOTS = ("optimal_scores.png", "solver_time.png")  # drawn from a solver study
PLAYER_PLOTS = ("player_scores.png",)  # drawn from a player study
StudyRows = Sequence[tuple[Study, Sequence[DealResult]]]

#: The highest score there is: a win with every card on a cell of its own leaves 40 - 16 cards in the stock.
BEST_SCORE = DECK_SIZE - 16


def variant_name(study: Study) -> str:
    """``orthogonal`` / ``diagonal``, with ``+buried`` for the count-buried rule (a legend entry)."""
    variant = study.settings.variant
    return variant.adjacency + ("+buried" if variant.count_buried else "")


def legend_names(studies: Sequence[Study], base: Any = variant_name, separator: str = " ") -> dict[int, str]:
    """Each study's name in a legend: ``base(study)``, followed by its settings (``timeout=10``,
    ``node_budget=30M``) after ``separator`` when another study of the list has the same name, so that no two
    entries read alike."""
    names = {study.id: base(study) for study in studies}
    seen = Counter(names.values())
    for study in studies:
        if seen[names[study.id]] > 1:
            settings = ", ".join(f"{k}={_short(v)}" for k, v in study.settings.to_json().items() if v is not None)
            names[study.id] = f"{names[study.id]}{separator}({settings})"
    return names


def _short(value: object) -> str:
    """A setting's value in a legend: ``10`` for 10.0, ``30M`` for 30,000,000."""
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1_000_000 and value % 1_000_000 == 0:
        return f"{value // 1_000_000}M"
    return str(value)


def missing_plots(studies: Iterable[Study]) -> tuple[str, ...]:
    """The plots :func:`write_plots` leaves out for these studies, in the order of ``PLOTS``."""
    kinds = {study.settings.is_solver for study in studies}
    missing: set[str] = set()
    if not kinds:
        return PLOTS
    if True not in kinds:
        missing.update(SOLVER_PLOTS)
    if False not in kinds:
        missing.update(PLAYER_PLOTS)
    return tuple(name for name in PLOTS if name in missing)


@dataclass
class _Figures:
    """What the plots need of one study, read in one pass."""

    study: Study
    summary: dict[str, Any]
    proven: Counter[int] = field(default_factory=Counter)  # solver: optimal score -> deals
    settled: array[float] = field(default_factory=lambda: array("d"))  # solver: seconds of each proven deal
    scores: Counter[int] = field(default_factory=Counter)  # player: score -> games
    done: int = 0


def _figures(study: Study, rows: Iterable[DealResult]) -> _Figures:
    figures = _Figures(study, {})

    def seen() -> Iterator[DealResult]:
        for row in rows:
            figures.done += 1
            if study.settings.is_solver and row.status in PROVEN:
                figures.proven[row.score or 0] += 1
                figures.settled.append(row.seconds)
            elif not study.settings.is_solver:
                figures.scores[row.score or 0] += 1
            yield row

    figures.summary = solver_summary(seen()) if study.settings.is_solver else player_summary(seen())
    return figures


def write_plots(studies: StudyStore | StudyRows, directory: str | Path, labels: Mapping[str, str]) -> list[Path]:
    """Write the plots that have something to show into ``directory`` (created when missing); returns their paths.

    ``studies``: a store (read a study at a time, in deal order) or ``(study, rows)`` pairs.
    :class:`~foursquare.files.FileWriteError` if ``directory`` is a file or cannot be made.
    """
    import matplotlib

    matplotlib.use("Agg")
    source = _Source(studies)
    missing = missing_plots(source.studies)
    out = make_folder(directory)
    figures = [_figures(study, source.rows(study)) for study in source.studies]
    drawers = {
        "optimal_scores.png": lambda ax: _optimal_scores(ax, figures, labels),
        "player_scores.png": lambda ax: _player_scores(ax, figures, source, labels),
        "solver_time.png": lambda ax: _solver_time(ax, figures, labels),
        "win_rates.png": lambda ax: _win_rates(ax, figures, labels),
    }
    return [_save(out / name, drawers[name]) for name in PLOTS if name not in missing]


class _Source:
    """The studies and, for each, its rows in deal order: from a store, or from pairs given."""

    def __init__(self, studies: StudyStore | StudyRows) -> None:
        if isinstance(studies, StudyStore):
            self._store: StudyStore | None = studies
            self.studies = studies.studies()
            self._rows: dict[int, Sequence[DealResult]] = {}
        else:
            self._store = None
            self.studies = [study for study, _ in studies]
            self._rows = {study.id: sorted(rows, key=lambda r: r.deal) for study, rows in studies}

    def rows(self, study: Study) -> Iterator[DealResult]:
        if self._store is not None:
            return self._store.iter_results(study)
        return iter(self._rows[study.id])


def _save(path: Path, draw: Any) -> Path:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=FIGURE_SIZE, layout="constrained")
    try:
        draw(ax)
        with atomic_path(path, suffix=".png") as temporary:  # a reader never sees half a picture
            fig.savefig(temporary, dpi=100, format="png")
    finally:
        plt.close(fig)
    return path


def _distribution(counts: Counter[int]) -> tuple[list[int], list[float]]:
    xs = list(range(min(counts, default=0), max(counts, default=0) + 1))
    n = max(1, sum(counts.values()))
    return xs, [counts[x] / n for x in xs]


def _many_curves(ax: Any) -> None:
    """Ten colours solid, then the same ten dashed: a store can hold more solver studies than the ten colours."""
    import matplotlib
    from cycler import cycler

    colours = matplotlib.rcParams["axes.prop_cycle"].by_key()["color"]
    ax.set_prop_cycle(cycler(linestyle=["-", "--", ":"]) * cycler(color=colours))


def _optimal_scores(ax: Any, figures: Sequence[_Figures], labels: Mapping[str, str]) -> None:
    solvers = [f for f in figures if f.study.settings.is_solver]
    names = legend_names([f.study for f in solvers])
    _many_curves(ax)
    for f in solvers:
        if f.proven:
            xs, ys = _distribution(f.proven)
            ax.plot(xs, ys, marker="o", label=names[f.study.id])
    ax.set(title=labels["optimal_title"], xlabel=labels["score"], ylabel=labels["deals_share"])
    _integer_scores(ax)
    _legend(ax)


def _player_name(study: Study) -> str:
    return f"{study.settings.what} ({variant_name(study)})"


def _player_scores(ax: Any, figures: Sequence[_Figures], source: _Source, labels: Mapping[str, str]) -> None:
    """Each player's scores on the deals the solver proved (same variant), against the optimum there."""
    players = [f for f in figures if not f.study.settings.is_solver]
    names = legend_names([f.study for f in players], _player_name)
    for f in players:
        solver = next(
            (s for s in figures if s.study.settings.is_solver and s.proven
             and s.study.settings.variant == f.study.settings.variant),
            None,
        )  # fmt: skip
        scores, optimum = (f.scores, Counter[int]()) if solver is None else _on_proven(source, f.study, solver.study)
        xs, ys = _distribution(scores)
        name = names[f.study.id]
        (line,) = ax.plot(xs, ys, marker=".", label=name)
        if optimum:  # in the player's colour: each player is set against the optimum of its own deals
            xs, ys = _distribution(optimum)
            ax.plot(xs, ys, linestyle="--", marker="x", color=line.get_color(), label=f"{labels['optimum']}: {name}")
    ax.set(title=labels["players_title"], xlabel=labels["score"], ylabel=labels["deals_share"])
    _integer_scores(ax)
    _legend(ax)


def _on_proven(source: _Source, player: Study, solver: Study) -> tuple[Counter[int], Counter[int]]:
    """The player's scores and the optimal scores on the deals both have, the solver having proven them: the
    two studies' rows walked side by side in deal order."""
    scores: Counter[int] = Counter()
    optimum: Counter[int] = Counter()
    proven = (r for r in source.rows(solver) if r.status in PROVEN)
    best = next(proven, None)
    for row in source.rows(player):
        while best is not None and best.deal < row.deal:
            best = next(proven, None)
        if best is not None and best.deal == row.deal:
            scores[row.score or 0] += 1
            optimum[best.score or 0] += 1
    return scores, optimum


def _solver_time(ax: Any, figures: Sequence[_Figures], labels: Mapping[str, str]) -> None:
    """The share of deals the solver has settled (proven either way) within each time."""
    solvers = [f for f in figures if f.study.settings.is_solver]
    names = legend_names([f.study for f in solvers])
    _many_curves(ax)
    for f in solvers:
        times = sorted(f.settled)
        if times:
            shares = [(i + 1) / f.done for i in range(len(times))]
            ax.step(times, shares, where="post", label=names[f.study.id])
    ax.set(title=labels["time_title"], xlabel=labels["seconds"], ylabel=labels["solved_share"], xscale="log")
    ax.set_ylim(0, 1.05)  # a share, from none to all, however few the deals
    _legend(ax)


def _win_rates(ax: Any, figures: Sequence[_Figures], labels: Mapping[str, str]) -> None:
    names = legend_names([f.study for f in figures], _bar_name(labels), separator="\n")
    rates, errors = [], []
    for f in figures:
        if f.study.settings.is_solver:
            rate, (lo, hi) = f.summary["winnable"] / max(1, f.done), f.summary["winnable_ci95"]
        else:
            rate, (lo, hi) = f.summary["win_rate"], f.summary["ci95"]
        rates.append(rate)
        errors.append((max(0.0, rate - lo), max(0.0, hi - rate)))
    # Wide enough for every label under its bar, however many studies: the longest line of a label is a
    # setting such as "(node_budget=30M)".
    ax.figure.set_size_inches(max(FIGURE_SIZE[0], BAR_INCHES * len(rates) + 1), FIGURE_SIZE[1])
    ax.bar(range(len(rates)), rates, yerr=list(zip(*errors, strict=True)) if errors else None, capsize=4)
    ax.set_xticks(range(len(rates)), [names[f.study.id] for f in figures], fontsize=7)
    ax.set(title=labels["rates_title"], ylabel=labels["win_rate"])


def _bar_name(labels: Mapping[str, str]) -> Any:
    def name(study: Study) -> str:
        what = labels["winnable"] if study.settings.is_solver else study.settings.what
        return f"{what}\n{_stacked(variant_name(study))}"

    return name


def _stacked(name: str) -> str:
    """A variant's name on lines of their own (``diagonal`` over ``+buried``), so that bar labels never meet."""
    return name.replace("+", "\n+")


def _integer_scores(ax: Any) -> None:
    """A score axis: every score there can be (0 to 24), whole numbers; and its share axis from 0. So that a
    small range of deals (all of them at one score) reads as well as a large one, not as a dot in the middle of
    an axis from 0.96 to 1.04."""
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlim(-0.5, BEST_SCORE + 0.5)
    ax.set_ylim(0, max(0.05, ax.get_ylim()[1]))


def _legend(ax: Any) -> None:
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8)


__all__ = ["PLAYER_PLOTS", "PLOTS", "SOLVER_PLOTS", "legend_names", "missing_plots", "variant_name", "write_plots"]
