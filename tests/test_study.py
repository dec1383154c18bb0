"""Studies without a cluster: the store, the report's figures against hand-computed ones, export, bad input.

The tests that need a Dask scheduler and workers are in test_study_cluster.py.
"""

from __future__ import annotations

import contextlib
import csv
import gzip
import io
import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cli_support import run_main
from foursquare.cli import main
from foursquare.cli.options import DEFAULT_NODES
from foursquare.engine import Game, Variant
from foursquare.solver import solve
from foursquare.study import (
    DealResult,
    StudyError,
    StudyProgress,
    StudySettings,
    StudyStore,
    compute_chunk,
    deal_list,
    run_study,
)
from foursquare.study.report import deal_ranges

SOLVER = StudySettings("solver", timeout=10.0)
GREEDY = StudySettings("greedy", Variant("diagonal", True), seed=3)

# Ten solver rows made by hand: 5 proven wins, 1 win found before time ran out, 3 proven losses, 1 unknown.
SOLVER_ROWS = [
    DealResult(1, "optimal", 3, 0.5, upper_bound=3, nodes=10),
    DealResult(2, "optimal", 3, 0.5, upper_bound=3, nodes=10),
    DealResult(3, "optimal", 1, 0.5, upper_bound=1, nodes=10),
    DealResult(4, "optimal", 0, 0.5, upper_bound=0, nodes=10),
    DealResult(5, "optimal", 5, 0.5, upper_bound=5, nodes=10),
    DealResult(6, "bounds", 2, 10.0, upper_bound=4, nodes=99),
    DealResult(7, "unwinnable", None, 0.1, upper_bound=-1, nodes=5),
    DealResult(8, "unwinnable", None, 0.1, upper_bound=-1, nodes=5),
    DealResult(9, "unwinnable", None, 0.1, upper_bound=-1, nodes=5),
    DealResult(10, "bounds", None, 10.0, upper_bound=2, nodes=99),
]
# Five games: 2 won (scores 4 and 1), 3 lost; 60 moves in 0.3 s of thinking.
GREEDY_ROWS = [
    DealResult(1, "won", 4, 0.1, moves=20),
    DealResult(2, "lost", 0, 0.05, moves=10),
    DealResult(3, "won", 1, 0.05, moves=10),
    DealResult(4, "lost", 0, 0.05, moves=10),
    DealResult(5, "lost", 0, 0.05, moves=10),
]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "studies.db"
    with StudyStore(path) as store:
        store.add(store.study(SOLVER), SOLVER_ROWS)
        store.add(store.study(GREEDY), GREEDY_ROWS)
    return path


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    """``foursquare study ARGS`` in this process (a subprocess would load numba again: seconds each)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["study", *args])
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def test_report_figures_match_hand_computed_ones(db: Path) -> None:
    result = cli("report", "--db", str(db), "--json")
    assert result.returncode == 0, result.stderr
    solver, greedy = json.loads(result.stdout)["studies"]
    assert solver["what"] == "solver" and solver["variant"] == {"adjacency": "orthogonal", "count_buried": False}
    assert solver["settings"]["timeout"] == 10.0 and solver["deals"] == "1-10" and solver["done"] == 10
    assert (solver["winnable"], solver["unwinnable"], solver["unresolved"]) == (6, 3, 1)
    # Wilson 95 %: 6/10 (unresolved lost) gives 0.312674 below; 7/10 (unresolved won) gives 0.892209 above.
    assert solver["winnable_ci95"] == pytest.approx([0.312674, 0.892209], abs=1e-6)
    # Proven: scores 3, 3, 1, 0, 5 and three unwinnable (0); mean 12 / 8.
    assert solver["score_counts"] == {"0": 4, "1": 1, "3": 2, "5": 1}
    assert solver["mean_optimal_score"] == pytest.approx(1.5)
    assert greedy["what"] == "greedy" and greedy["variant"] == {"adjacency": "diagonal", "count_buried": True}
    assert greedy["settings"]["seed"] == 3
    assert (greedy["games"], greedy["wins"], greedy["done"]) == (5, 2, 5)
    assert greedy["win_rate"] == pytest.approx(0.4)
    assert greedy["ci95"] == pytest.approx([0.117621, 0.769276], abs=1e-6)  # Wilson 2/5
    assert greedy["mean_score"] == pytest.approx(1.0)
    assert greedy["seconds_per_move"] == pytest.approx(0.3 / 60)


def test_report_text_html_and_plots(db: Path, tmp_path: Path) -> None:
    page, plots = tmp_path / "report.html", tmp_path / "plots"
    result = cli("report", "--db", str(db), "--html", str(page), "--plots", str(plots))
    assert result.returncode == 0, result.stderr
    assert "winnable 6, unwinnable 3, unresolved 1" in result.stdout
    assert "31.27% to 89.22%" in result.stdout and "wins 2/5 = 40.00%" in result.stdout
    names = sorted(p.name for p in plots.iterdir())
    assert names == ["optimal_scores.png", "player_scores.png", "solver_time.png", "win_rates.png"]
    assert all((plots / n).read_bytes().startswith(b"\x89PNG") for n in names)
    text = page.read_text()
    assert text.count("data:image/png;base64,") == 4 and 'src="http' not in text
    assert "winnable 6, unwinnable 3, unresolved 1" in text


def test_export_names_fields_as_solve_and_autoplay_do(db: Path, tmp_path: Path) -> None:
    result = cli("export", "--db", str(db), "--format", "jsonl")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == 15
    assert lines[5] == {
        "what": "solver", "deal": 6, "adjacency": "orthogonal", "count_buried": False, "timeout": 10.0,
        "status": "bounds", "best_score": 2, "upper_bound": 4, "seconds": 10.0, "nodes": 99,
    }  # fmt: skip
    assert lines[10] == {
        "what": "greedy", "deal": 1, "adjacency": "diagonal", "count_buried": True, "seed": 3,
        "outcome": "won", "score": 4, "moves": 20, "seconds": 0.1,
    }  # fmt: skip
    out = tmp_path / "rows.csv"
    assert cli("export", "--db", str(db), "--format", "csv", "--out", str(out)).returncode == 0
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert len(rows) == 15 and rows[9]["status"] == "bounds" and rows[9]["best_score"] == ""
    assert rows[14]["outcome"] == "lost" and rows[14]["moves"] == "10"
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "rows.parquet"
    assert cli("export", "--db", str(db), "--format", "parquet", "--out", str(out)).returncode == 0
    table = pq.read_table(out).to_pylist()
    assert table[0]["best_score"] == 3 and table[10]["outcome"] == "won" and len(table) == 15


def test_store_keeps_one_row_per_deal_and_big_deal_numbers(tmp_path: Path) -> None:
    with StudyStore(tmp_path / "s.db") as store:
        study = store.study(GREEDY)
        assert store.add(study, GREEDY_ROWS) == 5
        assert store.add(study, GREEDY_ROWS[:2]) == 0  # already there: left as it is
        big = DealResult(2**64 - 1, "lost", 0, 0.1, moves=3)
        store.add(study, [big])
        assert store.results(study)[-1] == big and store.done_deals(study) == {1, 2, 3, 4, 5, 2**64 - 1}
        assert store.study(GREEDY).id == study.id and len(store.studies()) == 1


def test_a_run_with_everything_stored_computes_nothing(db: Path) -> None:
    """Resuming a finished study needs no cluster at all (the scheduler address would not answer)."""
    with StudyStore(db) as store:
        seen: list[StudyProgress] = []
        run_study(store, GREEDY, [1, 2, 3, 4, 5], scheduler="tcp://127.0.0.1:9", progress=seen.append)
    assert [(p.done, p.total) for p in seen] == [(5, 5)]


def test_player_rows_are_the_games_of_autoplay() -> None:
    rows = compute_chunk(StudySettings("random", seed=7), [11, 12])
    again = compute_chunk(StudySettings("random", seed=7), [12])
    assert (rows[1].status, rows[1].score, rows[1].moves) == (again[0].status, again[0].score, again[0].moves)
    result = run_main("autoplay", "--player", "random", "--seed", "7", "--deals", "12-12", "--json")
    summary = json.loads(result.stdout)
    assert (summary["wins"], summary["mean_score"]) == (int(rows[1].status == "won"), rows[1].score)


def test_deal_ranges_must_not_overlap_or_run_backwards(tmp_path: Path) -> None:
    assert deal_list([(5, 7), (1, 2)]) == [5, 6, 7, 1, 2] and deal_ranges([1, 2, 3, 7, 9, 10]) == "1-3,7,9-10"
    with pytest.raises(StudyError, match="overlap"):
        deal_list([(1, 10), (10, 20)])
    with pytest.raises(StudyError, match="ends before it starts"):
        deal_list([(9, 3)])
    db = str(tmp_path / "s.db")
    overlapping = cli("run", "--what", "greedy", "--deals", "1-10,5-20", "--db", db)
    assert overlapping.returncode == 2 and "deal ranges 1-10 and 5-20 overlap" in overlapping.stderr
    reversed_ = subprocess.run(  # argparse's usage error: exit status 2 from the command itself
        [sys.executable, "-m", "foursquare.cli", "study", "run", "--what", "greedy", "--deals", "10-1", "--db", db],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert reversed_.returncode == 2 and "ends before it starts" in reversed_.stderr
    assert "Traceback" not in overlapping.stderr + reversed_.stderr
    for options in (["greedy", "--timeout", "3"], ["solver", "--seed", "4"], ["random", "--time", "1"],
                    ["best", "--nodes", "1000"]):
        wrong = cli("run", "--what", *options, "--deals", "1-3", "--db", db)
        assert wrong.returncode == 2 and "--" in wrong.stderr and not Path(db).exists()


def test_a_database_of_another_format_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "games.db"
    with sqlite3.connect(other) as con:
        con.execute("CREATE TABLE games (id INTEGER)")
    text = tmp_path / "notes.txt"
    text.write_text("not a database at all, just some text that is long enough to be read " * 20)
    for path in (other, text):
        with pytest.raises(StudyError, match="not a Foursquare study database"):
            StudyStore(path)
        assert main(["study", "report", "--db", str(path)]) == 2
        assert "not a Foursquare study database" in capsys.readouterr().err
    with sqlite3.connect(other) as con:  # left untouched
        assert con.execute("SELECT name FROM sqlite_master").fetchall() == [("games",)]


def test_a_scheduler_that_does_not_answer_is_a_clear_error_within_seconds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    started = time.monotonic()
    code = main(["study", "run", "--what", "greedy", "--deals", "1-5", "--db", str(tmp_path / "s.db"),
                 "--scheduler", "tcp://127.0.0.1:9"])  # fmt: skip
    assert code == 2 and time.monotonic() - started < 120  # it gave up (a guard against hanging, not a speed test)
    err = capsys.readouterr().err
    assert "no Dask scheduler answered at tcp://127.0.0.1:9 within 5 s" in err and "Traceback" not in err


# --- import: rows exported elsewhere join a store -------------------------------------------------------------

BEST = StudySettings("best", seed=2, time_budget=0.5)
BEST_ROWS = [DealResult(7, "won", 18, 3.5, moves=16), DealResult(8, "lost", 0, 9.0, moves=31)]


@pytest.mark.parametrize("kind", ["jsonl", "csv", "csv.gz", "parquet"])
def test_an_export_imported_elsewhere_gives_the_same_rows(db: Path, tmp_path: Path, kind: str) -> None:
    if kind == "parquet":
        pytest.importorskip("pyarrow")
    with StudyStore(db) as store:
        store.add(store.study(BEST), BEST_ROWS)
    exported = tmp_path / f"rows.{kind}"
    plain = tmp_path / "rows.csv" if kind == "csv.gz" else exported
    assert cli("export", "--db", str(db), "--format", kind.split(".")[0], "--out", str(plain)).returncode == 0
    if kind == "csv.gz":
        exported.write_bytes(gzip.compress(plain.read_bytes()))
    other = tmp_path / "other.db"
    result = cli("import", str(exported), "--db", str(other))
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"17 rows added to {other}\n"
    with StudyStore(db) as a, StudyStore(other) as b:
        assert {s.settings: a.results(s) for s in a.studies()} == {s.settings: b.results(s) for s in b.studies()}
    again = cli("import", str(exported), "--db", str(other))
    assert again.stdout == f"0 rows added to {other}\n17 rows were already there and are kept as they were\n"


def test_an_import_continues_a_study_and_keeps_the_rows_it_has(tmp_path: Path) -> None:
    ours, theirs = tmp_path / "ours.db", tmp_path / "theirs.db"
    with StudyStore(ours) as store:
        store.add(store.study(GREEDY), GREEDY_ROWS[:3])
    changed = [DealResult(3, "lost", 0, 1.0, moves=9), *GREEDY_ROWS[3:]]
    with StudyStore(theirs) as store:
        store.add(store.study(GREEDY), changed)
    exported = tmp_path / "theirs.jsonl"
    assert cli("export", "--db", str(theirs), "--format", "jsonl", "--out", str(exported)).returncode == 0
    result = cli("import", str(exported), "--db", str(ours))
    assert result.stdout.splitlines() == [f"2 rows added to {ours}", "1 row was already there and is kept as it was"]
    with StudyStore(ours) as store:
        assert store.results(store.study(GREEDY)) == GREEDY_ROWS


GOOD_ROW = {"what": "greedy", "deal": 1, "adjacency": "orthogonal", "count_buried": False, "seed": 0,
            "outcome": "won", "score": 3, "moves": 20, "seconds": 0.5}  # fmt: skip
BAD_LINES = [
    ('{"what": "greedy", "deal": 1}', "line 2: adjacency is missing"),
    ('{"what": "chess", "deal": 1}', "line 2: what cannot be chess"),
    ('[1, 2]', "line 2: not a JSON object"),
    ('{"what": "solver", "deal": -4, "adjacency": "orthogonal", "count_buried": false}', "line 2: deal cannot be -4"),
    ('{"what": "solver", "deal": 4, "adjacency": "orthogonal", "count_buried": false, "timeout": 10, "status":'
     ' "optimal", "best_score": 99, "upper_bound": 24, "nodes": 1, "seconds": 0.1}', "line 2: best_score cannot be 99"),
    ('{"what": "greedy", "deal": 4, "adjacency": "orthogonal", "count_buried": "no", "seed": 0}',
     "line 2: count_buried cannot be no"),
    ('{"what": "greedy", "deal": "7", "adjacency": "orthogonal"}', "line 2: deal cannot be 7"),
    ('{"what": "greedy", "deal": 1.8446744073709550e19, "adjacency": "orthogonal"}', "line 2: deal cannot be"),
    ('{"what": "greedy", "deal": ' + "9" * 5000 + "}", "line 2: not a JSON object"),
    ("[" * 100_000 + "]" * 100_000, "line 2: not a JSON object"),
    ('{"what": "solver", "deal": 4, "adjacency": "orthogonal", "count_buried": false, "timeout": 10, "status":'
     ' "unwinnable", "best_score": 3, "upper_bound": -1, "nodes": 1, "seconds": 0.1}',
     "line 2: best_score cannot be 3"),
    ('{"what": "solver", "deal": 4, "adjacency": "orthogonal", "count_buried": false, "timeout": 10, "status":'
     ' "optimal", "best_score": 20, "upper_bound": 24, "nodes": 1, "seconds": 0.1}',
     "line 2: upper_bound cannot be 24"),
    ('{"what": "greedy", "deal": 4, "adjacency": "orthogonal", "count_buried": false, "seed": 0, "outcome": "lost",'
     ' "score": 5, "moves": 9, "seconds": 0.1}', "line 2: score cannot be 5"),
    ('{"what": "greedy", "deal": 4, "adjacency": "orthogonal", "count_buried": false, "seed": -1, "outcome": "lost",'
     ' "score": 0, "moves": 9, "seconds": 0.1}', "line 2: seed cannot be -1"),
    ('{"what": "best", "deal": 4, "adjacency": "orthogonal", "count_buried": false, "seed": 0, "outcome": "lost",'
     ' "score": 0, "moves": 9, "seconds": 0.1}', "line 2: time_budget is missing"),
    ('{"what": "greedy", "deal": 1, "adjacency": "orthogonal", "count_buried": false, "seed": 0, "outcome": "won",'
     ' "score": 3, "moves": 20, "seconds": 0.5}', "line 2: deal 1 of this study again (it came first on line 1)"),
]  # fmt: skip


@pytest.mark.parametrize(("line", "message"), BAD_LINES)
def test_a_bad_line_imports_nothing_and_says_where_it_is(tmp_path: Path, line: str, message: str) -> None:
    good = json.dumps(GOOD_ROW)
    path = tmp_path / "rows.jsonl"
    path.write_text(f"{good}\n{line}\n{good}\n")
    db = tmp_path / "s.db"
    result = cli("import", str(path), "--db", str(db))
    assert result.returncode == 2 and f"{path}, {message}" in result.stderr, result.stderr
    assert not db.exists()  # the file is read whole before the database is touched


def test_files_that_are_no_export_are_refused(tmp_path: Path) -> None:
    cases = {"notes.txt": b"what I did on my holidays\n", "bin": bytes(range(256)), "half.gz": gzip.compress(b"x")[:9]}
    for name, content in cases.items():
        (tmp_path / name).write_bytes(content)
        result = cli("import", str(tmp_path / name), "--db", str(tmp_path / "s.db"))
        assert result.returncode == 2 and str(tmp_path / name) in result.stderr and "Traceback" not in result.stderr
    missing = cli("import", str(tmp_path / "missing.csv"), "--db", str(tmp_path / "s.db"))
    assert missing.returncode == 2 and "no such file" in missing.stderr
    header_only = tmp_path / "wrong.csv"
    header_only.write_text("what,deal\nsolver,3\n")
    result = cli("import", str(header_only), "--db", str(tmp_path / "s.db"))
    assert result.returncode == 2 and "line 2: adjacency is missing" in result.stderr
    columns = "what,deal,adjacency,count_buried,seed,outcome,score,moves,seconds"
    for value, field in (("5.0", "moves"), ("১২", "moves"), ("+5", "moves"), ("1_0", "moves"), ("inf", "seconds")):
        row = {"moves": "12", "seconds": "0.5", field: value}
        line = f"greedy,3,orthogonal,False,0,lost,0,{row['moves']},{row['seconds']}"
        (tmp_path / "text.csv").write_text(f"{columns}\n{line}\n")
        result = cli("import", str(tmp_path / "text.csv"), "--db", str(tmp_path / "s.db"))
        assert result.returncode == 2 and f"line 2: {field} cannot be {value}" in result.stderr, (value, result.stderr)
    (tmp_path / "long.csv").write_text(f"{columns}\ngreedy,3,orthogonal,False,0,lost,0,{'9' * 200_000},1\n")
    result = cli("import", str(tmp_path / "long.csv"), "--db", str(tmp_path / "s.db"))
    assert result.returncode == 2 and "cannot read" in result.stderr
    corrupt = bytearray(gzip.compress(b'{"what": "greedy"}\n' * 100))
    corrupt[20:30] = b"\xff" * 10
    (tmp_path / "corrupt.gz").write_bytes(bytes(corrupt))
    result = cli("import", str(tmp_path / "corrupt.gz"), "--db", str(tmp_path / "s.db"))
    assert result.returncode == 2 and "cannot read" in result.stderr
    assert not (tmp_path / "s.db").exists()


def test_an_empty_export_imports_as_no_rows(tmp_path: Path) -> None:
    empty = tmp_path / "empty.db"
    StudyStore(empty).close()
    for kind in ("jsonl", "csv"):
        out = tmp_path / f"none.{kind}"
        assert cli("export", "--db", str(empty), "--format", kind, "--out", str(out)).returncode == 0
        for path in (out, tmp_path / f"none.{kind}.gz"):
            path.write_bytes(path.read_bytes() if path == out else gzip.compress(out.read_bytes()))
            result = cli("import", str(path), "--db", str(tmp_path / "s.db"))
            assert result.returncode == 0 and result.stdout.startswith("0 rows added"), result.stderr


def test_a_database_locked_by_another_writer_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import foursquare.study.store as store_module

    monkeypatch.setattr(store_module, "LOCK_TIMEOUT", 0.2)
    db = tmp_path / "s.db"
    StudyStore(db).close()
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps(GOOD_ROW) + "\n")
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        result = cli("import", str(rows), "--db", str(db))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert result.returncode == 2 and f"{db} is busy" in result.stderr and "Traceback" not in result.stderr
    assert cli("import", str(rows), "--db", str(db)).returncode == 0


def test_a_players_seed_outside_64_bits_is_refused(tmp_path: Path) -> None:
    for seed in ("-1", str(2**64)):  # an option error (argparse's usage, exit status 2)
        result = run_main(
            "study", "run", "--what", "greedy", "--deals", "1-2", "--seed", seed, "--db", str(tmp_path / "s.db")
        )
        assert result.returncode == 2 and f"from 0 to {2**64 - 1}, not '{seed}'" in result.stderr, result.stderr
        assert "argument --seed" in result.stderr and not (tmp_path / "s.db").exists()


def test_study_errors_are_worded_in_the_players_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from foursquare.i18n import translator

    t = translator("hr")
    code = main(["--lang", "hr", "study", "run", "--what", "greedy", "--deals", "1-5", "--db", str(tmp_path / "s.db"),
                 "--scheduler", "tcp://127.0.0.1:9"])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2 and "nijedan Dask raspoređivač nije se javio na tcp://127.0.0.1:9 unutar 5 s" in err
    other = tmp_path / "games.db"
    with sqlite3.connect(other) as con:
        con.execute("CREATE TABLE games (id INTEGER)")
    assert main(["--lang", "bn", "study", "report", "--db", str(other)]) == 2
    assert translator("bn")("cli.study.error.not_a_study_db", path=str(other)) in capsys.readouterr().err
    assert t("cli.study.error.not_a_study_db", path="x") != "x is not a Foursquare study database"


def test_a_solver_study_has_a_node_budget_by_default_and_its_rows_are_solve_nodes() -> None:
    """No limit given: the default node budget and no clock, so a row is ``solve --nodes`` on any machine; a
    study of seconds keeps the key it had before node budgets, and a budget and a timeout are two studies."""
    default = StudySettings("solver")
    assert default.node_budget == DEFAULT_NODES and default.timeout is None
    assert default.to_json() == {"node_budget": DEFAULT_NODES}
    assert StudySettings.from_key(default.key()) == default
    assert SOLVER.to_json() == {"timeout": 10.0} and SOLVER.key() == (
        '{"timeout": 10.0, "variant": {"adjacency": "orthogonal", "count_buried": false}, "what": "solver"}'
    )
    assert StudySettings("best", node_budget=5).node_budget is None  # the solver's setting, normalised away
    with pytest.raises(StudyError, match="node budget"):
        StudySettings("solver", node_budget=0)
    small = StudySettings("solver", node_budget=50_000)
    row = compute_chunk(small, [471])[0]
    again = solve(Game(deal=471).stock, max_nodes=50_000)
    assert (row.status, row.score, row.upper_bound, row.nodes) == (
        again.status, again.best_score, again.upper_bound, again.nodes
    )  # fmt: skip


def test_a_node_budget_study_exports_and_imports_its_budget(tmp_path: Path) -> None:
    db, copy = tmp_path / "a.db", tmp_path / "b.db"
    small = StudySettings("solver", node_budget=50_000)
    with StudyStore(db) as store:
        store.add(store.study(small), SOLVER_ROWS[:3])
    for kind in ("jsonl", "csv"):
        out = tmp_path / f"rows.{kind}"
        assert cli("export", "--db", str(db), "--format", kind, "--out", str(out)).returncode == 0
        if kind == "jsonl":
            first = json.loads(out.read_text().splitlines()[0])
            assert first["node_budget"] == 50_000 and "timeout" not in first
        imported = cli("import", str(out), "--db", str(copy))
        assert imported.returncode == 0, imported.stderr
    with StudyStore(copy) as store:
        (study,) = store.studies()
        assert study.settings == small and len(list(store.iter_results(study))) == 3
    report = cli("report", "--db", str(db))
    assert report.returncode == 0 and "node_budget 50000" in report.stdout
