"""The command line as a player meets it when something is off (issue 44): an argument error is one line on
standard error with one prefix and no usage block; a bare ``foursquare`` shows the help; ``--help`` and
``--version`` into a full disk say so like every other command; Ctrl-C in the full-screen game and lesson ends
with ``foursquare: interrupted``; a study database on read-only storage is called read-only, not "not a study
database"; a record without ``moves`` or with a field given twice is refused like any other malformed record."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import pty_support
from cli_support import run_main
from foursquare.i18n import translator
from pty_support import ANSI, Terminal
from readonly_support import read_only_view, snapshot

COMMAND = [sys.executable, "-m", "foursquare.cli"]
FULL_DISK = "foursquare: error: cannot write the output: No space left on device\n"

#: Bad arguments of every kind, to every level of the command line.
BAD_ARGUMENTS = [
    ("bogus",),
    ("--nope",),
    ("--lang",),
    ("deal", "x"),
    ("deal", "1", "--frobnicate"),
    ("play", "--deal", "x"),
    ("play", "--deal", "1", "--winnable"),
    ("play", "--adjacency", "sideways"),
    ("replay",),
    ("solve", "--threads", "0"),
    ("autoplay", "--player", "nobody"),
    ("bench", "--deals", "5-1"),
    ("study", "run", "--what", "nothing"),
    ("study",),
    ("stats", "--recent", "-3"),
    ("learn", "extra"),
]


@pytest.mark.parametrize("arguments", BAD_ARGUMENTS, ids=[" ".join(a) for a in BAD_ARGUMENTS])
def test_an_argument_error_is_one_line_with_one_prefix(arguments: tuple[str, ...]) -> None:
    result = run_main(*arguments)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("foursquare: error: "), result.stderr
    assert "usage:" not in result.stderr


def test_an_argument_error_in_bengali_is_one_line_too() -> None:
    t = translator("bn")
    result = run_main("--lang", "bn", "play", "--deal", "x")
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert result.stderr.startswith(t("cli.error", prog="foursquare", message=""))
    assert t("cli.argparse.usage") not in result.stderr


@pytest.mark.slow  # a process
def test_an_argument_error_of_a_process_is_one_line() -> None:
    done = subprocess.run([*COMMAND, "play", "--deal", "x"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "foursquare: error: argument --deal: deal number must be a whole number, not 'x'\n"


def test_a_bare_foursquare_shows_the_help_and_exits_0() -> None:
    result = run_main()
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout == run_main("--help").stdout
    assert result.stdout.startswith("usage: foursquare") and "learn" in result.stdout


@pytest.mark.slow  # processes
@pytest.mark.parametrize("arguments", [("--help",), ("--version",), (), ("play", "--help"), ("deal", "1")])
def test_help_and_version_into_a_full_disk_say_so(arguments: tuple[str, ...]) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run([*COMMAND, *arguments], stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr == FULL_DISK


# --- Ctrl-C in the full screen -------------------------------------------------------------------------------


@pytest.mark.slow  # a pseudo-terminal
@pytest.mark.parametrize("command", ["play", "learn"])
def test_ctrl_c_on_the_full_screen_says_interrupted(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pty_support, "PLAY", [*COMMAND, command])
    term = Terminal(*(["--deal", "5"] if command == "play" else []), data_dir=tmp_path / "data", env={"LANGUAGE": "en"})
    try:
        term.wait_screen("Move 1 of 40" if command == "play" else "Step 1 of 17")
        term.press("i")  # the first card
        term.wait_screen("Move 2 of 40" if command == "play" else "Step 2 of 17")
        term.press("\x03")  # Ctrl-C
        assert term.finish() == 130
        after = ANSI.sub("", term.output.rsplit("\x1b[?1049l", 1)[1])  # on the terminal put back
        if command == "play":
            assert "game not finished after 1 card. It is kept in" in after
        assert after.rstrip().endswith("foursquare: interrupted"), after
        assert "Traceback" not in term.plain
    finally:
        with contextlib.suppress(OSError):
            term.close()


# --- a study database on read-only storage -----------------------------------------------------------------


def test_study_run_on_a_read_only_study_database_says_it_is_read_only(tmp_path: Path) -> None:
    from foursquare.study import StudyStore

    folder = tmp_path / "studies"
    folder.mkdir()
    StudyStore(folder / "studies.db").close()  # a good, empty study database
    before = snapshot(folder)
    with read_only_view(folder) as view:
        path = view / "studies.db"
        result = run_main("study", "run", "--what", "solver", "--deals", "1-2", "--db", str(path))
        assert result.returncode == 2 and result.stdout == ""
        assert result.stderr == (
            f"foursquare: error: {path} is a Foursquare study database on storage that cannot be written"
            f" (read-only): a run stores its results in it; foursquare study report --db {path} reads it as it is\n"
        )
        assert "not a Foursquare study database" not in result.stderr
        assert run_main("study", "report", "--db", str(path)).returncode == 0  # and it reads as it is
    assert snapshot(folder) == before


def test_a_file_that_is_no_study_database_is_still_called_so(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("not a database\n")
    result = run_main("study", "run", "--what", "solver", "--deals", "1-2", "--db", str(path))
    assert result.returncode == 2 and result.stderr == f"foursquare: error: {path} is not a Foursquare study database\n"


# --- records cut short or with a field twice -----------------------------------------------------------------


RECORD = '{"format": "foursquare-game", "version": 1, '
MALFORMED = {
    "no moves": (
        RECORD + '"deal": 5}',
        'has no list of moves ("moves"); a game before its first card has an empty one: []',
    ),
    "deal twice": (RECORD + '"deal": 5, "deal": 6, "moves": []}', 'gives the field "deal" more than once'),
    "moves twice": (RECORD + '"deal": 5, "moves": [], "moves": [[0, 0]]}', 'gives the field "moves" more than once'),
    "rule twice": (
        RECORD + '"deal": 5, "variant": {"adjacency": "diagonal", "adjacency": "orthogonal"}, "moves": []}',
        'gives the field "adjacency" more than once',
    ),
}


@pytest.mark.parametrize("case", list(MALFORMED))
@pytest.mark.parametrize("command", ["replay", "hint", "analyze", "play"])
def test_a_record_without_moves_or_with_a_field_twice_is_refused(tmp_path: Path, case: str, command: str) -> None:
    text, words = MALFORMED[case]
    path = tmp_path / "game.json"
    path.write_text(text)
    env = {**os.environ, "FOURSQUARE_DATA_DIR": str(tmp_path / "data")}
    result = run_main(command, str(path), env=env)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"foursquare: error: {path}: this record {words}\n"
    assert json.loads(text) is not None  # Python's own reader would have taken it


def test_a_record_without_moves_is_refused_in_bengali(tmp_path: Path) -> None:
    t = translator("bn")
    path = tmp_path / "game.json"
    path.write_text(RECORD + '"deal": 5}')
    result = run_main("--lang", "bn", "replay", str(path))
    message = t("cli.record.error", path=str(path), message=t("cli.record.no_moves", moves='"moves"'))
    assert result.returncode == 2 and result.stderr == t("cli.error", prog="foursquare", message=message) + "\n"


# --- long work is never silent on a terminal -----------------------------------------------------------------


@pytest.mark.slow  # a pseudo-terminal
@pytest.mark.parametrize(
    ("arguments", "key", "answer"),
    [
        (("solve", "--deal", "1"), "cli.working.solve", "line: D4"),
        (("hint", "GAME"), "cli.working.hint", "ranked by expected score"),
        (("analyze", "GAME"), "cli.working.analyze", "Result: won"),
    ],
    ids=["solve", "hint", "analyze"],
)
def test_long_work_shows_what_it_does_on_a_terminal_and_nothing_in_a_pipe(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, arguments: tuple[str, ...], key: str, answer: str
) -> None:
    """A spinner, what is being done and the time taken, on standard error while the work goes on (its length
    unknown: the first run compiles); the line goes before the answer. A pipe gets the answer alone."""
    from foursquare import record
    from foursquare.engine import Game

    game = Game(deal=1)
    for move in ((0, 0), (0, 1), (1, 1), (1, 0)):
        game.place(*move)
    if key == "cli.working.analyze":
        from test_play import WON_ORTHOGONAL, greedy_game

        game = greedy_game(WON_ORTHOGONAL)
    path = tmp_path / "game.json"
    record.write(game, path)
    arguments = tuple(str(path) if a == "GAME" else a for a in arguments)
    monkeypatch.setattr(pty_support, "PLAY", COMMAND)
    term = Terminal(*arguments, data_dir=tmp_path / "data", size=(200, 24), env={"LANGUAGE": "en"})
    try:
        term.wait_for(translator("en")(key))
        assert term.finish() == 0
        assert answer in term.plain
        assert translator("en")(key) not in term.display()  # the line went before the answer
    finally:
        with contextlib.suppress(OSError):
            term.close()
    piped = run_main(*arguments)
    assert piped.returncode == 0 and piped.stderr == "" and answer in piped.stdout


def test_the_study_bars_time_left_agrees_with_its_rate() -> None:
    """The time left is the deals left at the rate the bar shows (rich's own estimate follows the last seconds'
    speed alone, and disagreed with it). The clock is the test's: no waiting."""
    from types import SimpleNamespace

    from foursquare.cli.progress import TimeLeftColumn
    from foursquare.cli.study import _ProgressBar

    t = translator("en")
    bar = _ProgressBar("solver", "1-1000", 1000, t)
    clock = [100.0]
    bar._bar.get_time = lambda: clock[0]
    task = bar._bar.tasks[0]
    task._get_time = lambda: clock[0]
    bar._update(SimpleNamespace(done=200, total=1000, computed=0, dashboard=None))  # 200 found stored
    clock[0] = 110.0
    bar._update(SimpleNamespace(done=300, total=1000, computed=100, dashboard=None))  # 100 in 10 s: 10 a second
    assert task.fields["rate"] == t("cli.study.rate", rate=t.number(10.0, 1))
    assert str(TimeLeftColumn(t).render(task)) == "0:01:10"  # 700 deals left at 10 a second
