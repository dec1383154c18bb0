"""Studies at the edges, without a cluster: deal ranges of any size, read a window at a time; the progress bar's
figures; options capped; a report that says why a plot is missing, names each study once and reads as words.

The runs through a real cluster, interrupted and huge, are in test_study_interrupt.py.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from cli_support import run_main
from foursquare.cli.progress import TimeLeftColumn, count_text
from foursquare.engine import Variant
from foursquare.i18n import translator
from foursquare.study import DealResult, Deals, StudyError, StudySettings, StudyStore, run_study
from foursquare.study import run as running
from foursquare.study.plots import legend_names, missing_plots
from foursquare.study.report import study_summary

LAST = 2**64 - 1
GREEDY = StudySettings("greedy", Variant("diagonal", True), seed=3)
SOLVER_10 = StudySettings("solver", timeout=10.0)
SOLVER_5 = StudySettings("solver", timeout=5.0)


def test_deals_of_any_size_are_ranges_never_a_list() -> None:
    every = Deals.of([(0, LAST)])
    assert every.count == 2**64 and LAST in every and 0 in every and -1 not in every and 2**64 not in every
    assert list(itertools.islice(every, 3)) == [0, 1, 2]
    assert list(itertools.islice(every.windows(10), 2)) == [(0, 9), (10, 19)]
    two = Deals.of([(100, 105), (1, 3)])
    assert two.text() == "100-105,1-3" and list(two) == [100, 101, 102, 103, 104, 105, 1, 2, 3] and two.count == 9
    assert 4 not in two and 3 in two and 99 not in two and 100 in two and 106 not in two
    assert Deals.numbers([5, 1, 2, 3, 9, 2]).spans == ((1, 3), (5, 5), (9, 9))
    for bad, match in (([(1, 10), (10, 20)], "overlap"), ([(9, 3)], "ends before"), ([], "no deals"),
                       ([(0, 2**64)], "outside")):  # fmt: skip
        with pytest.raises(StudyError, match=match):
            Deals.of(bad)


def test_the_missing_deals_are_read_a_window_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(running, "WINDOW", 4)
    with StudyStore(tmp_path / "s.db") as store:
        study = store.study(GREEDY)
        store.add(study, [DealResult(d, "lost", 0, 0.1, moves=1) for d in (2, 5, 6, LAST - 1)])
        asked: list[tuple[int, int]] = []
        done_deals = store.done_deals

        def spy(study: Any, first: int, last: int) -> set[int]:
            asked.append((first, last))
            return done_deals(study, first, last)

        monkeypatch.setattr(store, "done_deals", spy)
        missing = running._Missing(store, study, Deals.of([(0, 9), (LAST - 2, LAST)]))
        assert list(missing) == [0, 1, 3, 4, 7, 8, 9, LAST - 2, LAST] and missing.stored == 4
    assert asked == [(0, 3), (4, 7), (8, 9), (LAST - 2, LAST)]


def test_every_deal_there_is_gives_its_first_chunks_at_once(tmp_path: Path) -> None:
    with StudyStore(tmp_path / "s.db") as store:
        study = store.study(GREEDY)
        store.add(study, [DealResult(1, "lost", 0, 0.1, moves=1)])
        missing = running._Missing(store, study, Deals.of([(0, LAST)]))
        first = list(itertools.islice(running.chunks(missing, 1000), 2))
    assert first[0] == [0, *range(2, 1001)] and first[1] == list(range(1001, 2001)) and missing.stored == 1


def test_a_huge_study_with_nothing_missing_needs_no_cluster(tmp_path: Path) -> None:
    """Every deal stored: no cluster is started (the scheduler address would not answer), the total is exact."""
    deals = Deals.of([(LAST - 2, LAST), (7, 8)])
    with StudyStore(tmp_path / "s.db") as store:
        study = store.study(GREEDY)
        store.add(study, [DealResult(d, "won", 2, 0.1, moves=9) for d in deals])
        seen: list[Any] = []
        run_study(store, GREEDY, deals, scheduler="tcp://127.0.0.1:9", progress=seen.append)
    assert [(p.done, p.total, p.computed) for p in seen] == [(5, 5, 0)]


def test_a_summary_read_in_one_pass_is_that_of_the_rows_in_memory(tmp_path: Path) -> None:
    rows = [DealResult(d, "won" if d % 3 else "lost", d % 3, 0.1, moves=5) for d in (*range(1, 50), LAST)]
    with StudyStore(tmp_path / "s.db") as store:
        study = store.study(GREEDY)
        store.add(study, reversed(rows))
        streamed = study_summary(study, store.iter_results(study))
        listed = study_summary(study, list(reversed(rows)))
    assert streamed == listed and streamed["deals"] == f"1-49,{LAST}" and streamed["done"] == 50


def test_huge_counts_and_times_stay_readable_in_every_digit() -> None:
    en, bn = translator("en"), translator("bn")
    assert [count_text(n, en) for n in (0, 40_000, 10**12, LAST, 996 * 10**12)] == [
        "0", "40,000", "1,000,000,000,000", "1.8E19", "1.0E15",
    ]  # fmt: skip
    assert count_text(LAST, bn) == "১.৮E১৯"
    column = TimeLeftColumn(en)

    def left(seconds: float | None, total: int | None = 10) -> str:
        return str(column.render(SimpleNamespace(time_remaining=seconds, total=total)))  # type: ignore[arg-type]

    assert (left(None), left(5, None), left(3725), left(1e17)) == ("-:--:--", "-:--:--", "1:02:05", ">999:59:59")
    assert str(TimeLeftColumn(bn).render(SimpleNamespace(time_remaining=3725, total=1))) == "১:০২:০৫"  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--workers", "100000", "a local cluster takes at most"),
        ("--workers", "0", "expected at least 1"),
        ("--timeout", "1e30", "expected at most 86400 seconds, not '1e30'"),
        ("--timeout", "inf", "expected at most 86400 seconds"),
        ("--time", "99999", "expected at most 3600 seconds, not '99999'"),
        ("--nodes", "0", "expected at least 1, not '0'"),
        ("--nodes", str(10**20), "expected at most 1,125,899,906,842,624"),
        ("--nodes", "1e7", "whole number"),
    ],
)
def test_absurd_numbers_are_option_errors(tmp_path: Path, option: str, value: str, message: str) -> None:
    what = {"--timeout": "solver", "--nodes": "solver", "--time": "best"}.get(option, "random")
    db = tmp_path / "s.db"
    result = run_main("study", "run", "--what", what, "--deals", "1-5", "--db", str(db), option, value)
    assert result.returncode == 2 and message in result.stderr and f"argument {option}" in result.stderr
    assert "Traceback" not in result.stderr and not db.exists()


@pytest.fixture
def players_only(tmp_path: Path) -> Path:
    path = tmp_path / "players.db"
    with StudyStore(path) as store:
        store.add(store.study(GREEDY), [DealResult(d, "won", d % 4, 0.1, moves=20) for d in range(1, 9)])
    return path


def test_a_report_without_a_solver_study_draws_no_empty_plot_and_says_why(players_only: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    plots, page = tmp_path / "plots", tmp_path / "report.html"
    result = run_main("study", "report", "--db", str(players_only), "--plots", str(plots), "--html", str(page))
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in plots.iterdir()) == ["player_scores.png", "win_rates.png"]
    assert "no solver study yet, so no optimal_scores.png, solver_time.png" in result.stderr
    assert "foursquare study run --what solver" in result.stderr
    text = page.read_text()
    assert text.count("data:image/png;base64,") == 2
    assert "no solver study yet, so no <q>Optimal score of the proven deals (0: unwinnable)</q>, <q>Solver: " in text


def test_a_report_without_a_player_study_says_so(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    db = tmp_path / "solver.db"
    with StudyStore(db) as store:
        store.add(store.study(SOLVER_10), [DealResult(1, "optimal", 3, 0.5, upper_bound=3, nodes=10)])
    result = run_main("study", "report", "--db", str(db), "--plots", str(tmp_path / "plots"))
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in (tmp_path / "plots").iterdir()) == [
        "optimal_scores.png", "solver_time.png", "win_rates.png",
    ]  # fmt: skip
    assert "no player study yet, so no player_scores.png" in result.stderr


def test_the_html_table_reads_as_words_not_json(players_only: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    with StudyStore(players_only) as store:
        store.add(store.study(SOLVER_10), [DealResult(1, "optimal", 3, 0.5, upper_bound=3, nodes=10)])
        best = StudySettings("best", seed=4)
        store.add(store.study(best), [DealResult(1, "won", 3, 0.5, moves=20)])
    page = tmp_path / "report.html"
    assert run_main("study", "report", "--db", str(players_only), "--html", str(page)).returncode == 0
    table = page.read_text().split("<table>")[1].split("</table>")[0]
    assert "{" not in table and "&quot;" not in table and "null" not in table and "count_buried" not in table
    assert "<td>diagonal, count-buried</td>" in table and "seed 3; Foursquare " in table
    assert "<td>10 s per deal; Foursquare " in table and "a fixed number of playouts per move" in table
    hr = tmp_path / "hr.html"
    assert run_main("--lang", "hr", "study", "report", "--db", str(players_only), "--html", str(hr)).returncode == 0
    assert "10 s po dijeljenju" in hr.read_text()


def test_each_study_is_named_once_in_a_legend(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("matplotlib")
    db = tmp_path / "s.db"
    with StudyStore(db) as store:
        for settings in (SOLVER_10, SOLVER_5):
            store.add(store.study(settings), [DealResult(1, "optimal", 3, 0.5, upper_bound=3, nodes=10)])
        for seed in (1, 2):
            store.add(store.study(StudySettings("greedy", seed=seed)), [DealResult(1, "won", 2, 0.1, moves=20)])
        studies = store.studies()
    names = legend_names(studies[:2])
    assert sorted(names.values()) == ["orthogonal (timeout=10)", "orthogonal (timeout=5)"]
    assert legend_names([studies[0]]) == {studies[0].id: "orthogonal"}
    legends: list[list[str]] = []
    from foursquare.study import plots

    monkeypatch.setattr(plots, "_legend", lambda ax: legends.append(ax.get_legend_handles_labels()[1]))
    assert run_main("study", "report", "--db", str(db), "--plots", str(tmp_path / "plots")).returncode == 0
    assert legends and all(len(set(labels)) == len(labels) for labels in legends), legends
    assert ["orthogonal (timeout=10)", "orthogonal (timeout=5)"] in legends


def test_missing_plots_follow_the_kinds_of_study() -> None:
    def study(settings: StudySettings) -> Any:
        return SimpleNamespace(settings=settings)

    assert missing_plots([]) == ("optimal_scores.png", "player_scores.png", "solver_time.png", "win_rates.png")
    assert missing_plots([study(GREEDY)]) == ("optimal_scores.png", "solver_time.png")
    assert missing_plots([study(SOLVER_5)]) == ("player_scores.png",)
    assert missing_plots([study(SOLVER_5), study(GREEDY)]) == ()


def test_a_parquet_export_is_written_in_batches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pyarrow")
    from foursquare.study import export

    monkeypatch.setattr(export, "PARQUET_BATCH", 3)
    db, out = tmp_path / "s.db", tmp_path / "rows.parquet"
    rows = [DealResult(d, "won", 1, 0.1, moves=20) for d in (*range(1, 11), LAST)]
    with StudyStore(db) as store:
        store.add(store.study(GREEDY), rows)
    assert run_main("study", "export", "--db", str(db), "--format", "parquet", "--out", str(out)).returncode == 0
    other = tmp_path / "other.db"
    assert run_main("study", "import", str(out), "--db", str(other)).returncode == 0
    with StudyStore(other) as store:
        assert store.results(store.studies()[0]) == rows
    empty = tmp_path / "empty.db"
    StudyStore(empty).close()
    assert run_main("study", "export", "--db", str(empty), "--format", "parquet", "--out", str(out)).returncode == 0
    assert run_main("study", "import", str(out), "--db", str(tmp_path / "third.db")).stdout.startswith("0 rows")


def test_study_run_json_summary_counts_only_the_deals_asked(tmp_path: Path) -> None:
    """A run over deals all stored prints the summary of those deals, not of the whole study."""
    db = tmp_path / "s.db"
    with StudyStore(db) as store:
        store.add(store.study(GREEDY), [DealResult(d, "won", 1, 0.1, moves=20) for d in range(1, 21)])
    result = run_main("study", "run", "--what", "greedy", "--seed", "3", "--adjacency", "diagonal", "--count-buried",
                      "--deals", "5-9,15", "--db", str(db), "--json")  # fmt: skip
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert (summary["deals"], summary["done"]) == ("5-9,15", 6)
    assert result.stderr == ""  # no bar: standard error is no terminal


def test_the_win_rate_plot_widens_with_its_bars_so_that_no_two_labels_meet(tmp_path: Path) -> None:
    """Twelve studies, as docs/results has: each bar keeps BAR_INCHES of width for its label (whose longest
    line is a setting such as "(node_budget=30M)"); two studies keep the usual size."""
    pytest.importorskip("matplotlib")
    from foursquare.study.plots import BAR_INCHES, FIGURE_SIZE

    def width_with(count: int, folder: Path) -> int:
        with StudyStore(folder / "s.db") as store:
            for seed in range(count):
                store.add(store.study(StudySettings("greedy", seed=seed)), [DealResult(1, "lost", 0, 0.1, moves=1)])
        result = run_main("study", "report", "--db", str(folder / "s.db"), "--plots", str(folder / "plots"))
        assert result.returncode == 0, result.stderr
        header = (folder / "plots" / "win_rates.png").read_bytes()[16:24]  # the PNG's IHDR: width, height
        return int.from_bytes(header[:4], "big")

    (tmp_path / "two").mkdir()
    (tmp_path / "twelve").mkdir()
    assert width_with(2, tmp_path / "two") == FIGURE_SIZE[0] * 100
    assert width_with(12, tmp_path / "twelve") >= 12 * BAR_INCHES * 100


def test_twelve_solver_studies_draw_twelve_curves_that_look_different(tmp_path: Path) -> None:
    """Matplotlib has ten colours; the eleventh solver study once drew in the first one's. The curves of the
    optimal scores and of the solver's time each keep a colour and line style of their own."""
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from foursquare.study import plots

    with StudyStore(tmp_path / "s.db") as store:
        for budget in range(1, 13):
            store.add(store.study(StudySettings("solver", node_budget=budget)), [DealResult(1, "optimal", 24, 0.1)])
        figures = [plots._figures(study, store.iter_results(study)) for study in store.studies()]
    for draw in (plots._optimal_scores, plots._solver_time):
        fig, ax = plt.subplots()
        draw(ax, figures, {key: key for key in ("optimal_title", "score", "deals_share", "time_title", "seconds",
                                                  "solved_share")})
        styles = {(line.get_color(), line.get_linestyle()) for line in ax.get_lines()}
        plt.close(fig)
        assert len(ax.get_lines()) == 12 and len(styles) == 12


def test_the_score_plots_of_a_small_range_read_well(tmp_path: Path) -> None:
    """Two deals, both of one score: the plots once showed a dot in the middle of a share axis from 0.96 to 1.04
    and a score axis from 23 to 25, and the optimum's dashed line was invisible as a single point. The score
    axes now run over every score (0 to 24), the share axes from 0, and every curve marks its points."""
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from foursquare.study import plots

    with StudyStore(tmp_path / "s.db") as store:
        solver = store.study(StudySettings("solver"))
        store.add(solver, [DealResult(1, "optimal", 24, 0.1), DealResult(2, "optimal", 24, 0.7)])
        store.add(store.study(StudySettings("greedy")), [DealResult(d, "lost", 0, 0.1, moves=9) for d in (1, 2)])
        figures = [plots._figures(study, store.iter_results(study)) for study in store.studies()]
        source = plots._Source(store)
        labels = {key: key for key in ("optimal_title", "players_title", "score", "deals_share", "optimum",
                                       "time_title", "seconds", "solved_share")}  # fmt: skip
        for draw in (plots._optimal_scores, lambda ax, f, names: plots._player_scores(ax, f, source, names)):
            fig, ax = plt.subplots()
            draw(ax, figures, labels)
            assert ax.get_xlim() == (-0.5, 24.5) and ax.get_ylim()[0] == 0 and ax.get_ylim()[1] >= 1
            assert all(line.get_marker() not in (None, "None", "") for line in ax.get_lines())
            plt.close(fig)
    fig, ax = plt.subplots()
    plots._solver_time(ax, figures, labels)
    assert ax.get_ylim() == (0, 1.05)
    plt.close(fig)
