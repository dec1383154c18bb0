"""The terminal game at its edges, played as a person plays it (a pseudo-terminal, the screen read back with
pyte): a data directory that cannot be written, starting over, a killed or closed terminal, a dumb terminal,
small terminals, the hint's ranking, the key bar in every language, the list of kept games, the mouse left to
the terminal, and options that a saved game cannot honour.

Deal 5 starts 2♦ (D4), 2♣, 10♦...: its first move's only cell gets the key ``i``, then D3 ``j``.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text

from cli_support import run_main
from foursquare import record
from foursquare.engine import Game, Move
from foursquare.i18n import LANGUAGES, translator
from foursquare.tui import cell_labels
from foursquare.tui.board import BOARD_WIDTH, LastAction, Marks
from foursquare.tui.glyphs import UNICODE
from foursquare.tui.screens import Hint, View, draw_frame, explain_forms
from foursquare.tui.session import Session
from foursquare.tui.terminal import Screen
from foursquare.tui.text import keys
from pty_support import ANSI, Terminal
from test_play import WON_ORTHOGONAL, greedy_game
from test_terminal_game import Terminals, terminals

__all__ = ["terminals"]  # the fixture, shared with test_terminal_game

LEAVE_ALTERNATE_SCREEN, SHOW_CURSOR, MOUSE_OFF = "\x1b[?1049l", "\x1b[?25h", "\x1b[?1000l"
ENTER_ALTERNATE_SCREEN, MOUSE_ON = "\x1b[?1049h", "\x1b[?1000h"


def flat(text: str) -> str:
    """The words of ``text`` one space apart (where a terminal broke its lines does not matter)."""
    return " ".join(text.split())


def goodbye(term: Terminal) -> str:
    """What the game printed once it left the full screen."""
    return ANSI.sub("", term.output.rsplit(LEAVE_ALTERNATE_SCREEN, 1)[-1]).replace("\r\n", "\n")


def deal5(*cells: str) -> Game:
    game = Game(deal=5)
    for name in cells:
        game.place(*Move.from_name(name))
    return game


# --- a data directory that cannot be written ---------------------------------------------------------------


@contextlib.contextmanager
def unwritable_data_dir(kind: str, tmp_path: Path) -> Iterator[Path]:
    """A data directory the game cannot write: under a regular file (no one can create it), a read-only mount, or
    a read-only mount whose games folder exists (root ignores permission bits: mounts are read-only for all)."""
    if kind == "under-a-file":
        (tmp_path / "a-file").write_text("")
        yield tmp_path / "a-file" / "data"
        return
    directory = tmp_path / "mounted"
    directory.mkdir()
    options = "ro" if kind == "read-only" else "rw"
    if subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(directory)], capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here (not root, or no mount namespace)")
    try:
        if kind == "read-only-games-folder":
            (directory / "games").mkdir()
            subprocess.run(["mount", "-o", "remount,ro", str(directory)], check=True)
        yield directory
    finally:
        subprocess.run(["umount", str(directory)], check=False)


@pytest.mark.slow  # a pseudo-terminal
@pytest.mark.parametrize("kind", ["under-a-file", "read-only", "read-only-games-folder"])
def test_a_game_kept_nowhere_says_so_when_it_ends(tmp_path: Path, terminals: Terminals, kind: str) -> None:
    with unwritable_data_dir(kind, tmp_path) as data_dir:
        term = terminals.start("--deal", "5", data_dir=data_dir)
        screen = flat(term.wait_screen("Move 1 of 40"))
        assert "Warning: this game cannot be kept in" in screen and "FOURSQUARE_DATA_DIR" in screen
        term.press("i")
        term.wait_screen("Move 2 of 40")
        term.press("q")
        assert term.finish() == 0
    said = goodbye(term)
    assert "game not finished after 1 card. It could not be kept anywhere, so it cannot be continued later." in said
    assert "None" not in said and "Continue it with" not in said
    assert "Or play deal 5 again from the start with: foursquare play --deal 5" in said


@pytest.mark.slow  # a pseudo-terminal
def test_a_game_kept_only_elsewhere_names_that_file(tmp_path: Path, terminals: Terminals) -> None:
    path = tmp_path / "mine.json"
    with unwritable_data_dir("under-a-file", tmp_path) as data_dir:
        term = terminals.start("--deal", "5", "--save", str(path), data_dir=data_dir)
        term.wait_screen("Move 1 of 40")
        term.press("i")
        term.wait_screen("Move 2 of 40")
        term.press("q")
        assert term.finish() == 0
    said = goodbye(term)
    assert f"It is kept in {path}\nContinue it with: foursquare play {path}\n" in said
    assert record.read(path).moves == deal5("D4").moves


# --- start over ----------------------------------------------------------------------------------------------


@pytest.mark.slow  # a pseudo-terminal
def test_start_over_asks_first_and_keeps_the_game_it_leaves(terminals: Terminals) -> None:
    term = terminals.start("--deal", "5")
    term.wait_screen("Move 1 of 40")
    term.press("ij")
    term.wait_screen("Move 3 of 40")
    term.press("s")
    question = flat(term.wait_screen("Start this deal over from the first card?"))
    assert "The game so far stays kept: foursquare play --list lists it. (y/n)" in question
    term.press("n")  # no: nothing changes
    term.wait_screen("Move 3 of 40")
    [kept] = terminals.kept()
    term.press("s")
    term.wait_screen("Start this deal over")
    term.press("y")
    term.wait_screen("Move 1 of 40")
    side = term.side_text()  # beside the board
    assert "press r to replay your moves. The game you left stays kept: foursquare play --list lists it." in side
    assert record.read(kept).moves == deal5("D4", "D3").moves  # the fresh start did not overwrite it
    term.press("r")  # the moves are still there to replay
    term.wait_screen("Move 2 of 40")
    term.press("uq")
    assert term.finish() == 0
    assert terminals.kept() == [kept]  # the fresh start had no card down: only the game left is kept
    said = goodbye(term)
    assert f"The game you left is kept in {kept}: continue it with foursquare play {kept}" in said

    again = terminals.start()
    again.wait_screen("Continue your unfinished game (Deal 5, 2 cards placed")
    again.press("y")
    again.wait_screen("Move 3 of 40")
    again.press("q")
    assert again.finish() == 0


@pytest.mark.slow  # a pseudo-terminal
def test_a_fresh_start_with_cards_down_is_a_game_of_its_own(terminals: Terminals) -> None:
    term = terminals.start("--deal", "5")
    term.wait_screen("Move 1 of 40")
    term.press("ij")
    term.wait_screen("Move 3 of 40")
    term.press("sy")
    term.wait_screen("Move 1 of 40")
    term.press("i")
    term.wait_screen("Move 2 of 40")
    term.press("q")
    assert term.finish() == 0
    assert sorted(record.read(path).turn for path in terminals.kept()) == [1, 2]


# --- signals: the terminal is put back, the game kept ---------------------------------------------------------

#: The game without the command line around it (whose main may have handlers of its own for these signals).
ALONE = (
    sys.executable,
    "-c",
    "import sys; from foursquare.engine import Variant; from foursquare.tui import play;"
    " sys.exit(play(Variant(), deal=5))",
)


@pytest.mark.slow  # a pseudo-terminal
@pytest.mark.parametrize(("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)], ids=["TERM", "HUP"])
@pytest.mark.parametrize("launcher", [(), ALONE], ids=["cli", "alone"])
def test_a_signal_puts_the_terminal_back_and_keeps_the_game(
    terminals: Terminals, signum: int, status: int, launcher: tuple[str, ...]
) -> None:
    term = terminals.start("--deal", "5", launcher=launcher)
    term.wait_screen("Move 1 of 40")
    term.press("i")
    term.wait_screen("Move 2 of 40")
    os.kill(term.process.pid, signum)
    assert term.finish() == status
    after = term.output.rsplit(ENTER_ALTERNATE_SCREEN, 1)[1]
    for sequence in (LEAVE_ALTERNATE_SCREEN, SHOW_CURSOR, MOUSE_OFF):
        assert sequence in after, repr(sequence)
    assert termios.tcgetattr(term.slave) == term.mode  # keys echo again, a line at a time
    assert "game not finished after 1 card. It is kept in" in goodbye(term)
    assert "Traceback" not in term.plain
    [kept] = terminals.kept()
    assert record.read(kept).moves == deal5("D4").moves


#: Loaded by Python at start-up (``sitecustomize``): once ``MARK`` exists, the next garbage collection's callback
#: says so and sleeps, as a finaliser or weakref callback may be running when a signal comes.
SLOW_COLLECTION = """
import gc, os, time
MARK = os.environ["FOURSQUARE_TEST_MARK"]
def slow(phase, info):
    if phase == "start" and os.path.exists(MARK):
        os.rename(MARK, MARK + ".collecting")
        for _ in range(100_000):
            time.sleep(0.01)
gc.callbacks.append(slow)
"""


@pytest.mark.slow  # a pseudo-terminal
def test_a_signal_while_the_garbage_collector_runs_a_callback_still_ends_the_game(
    terminals: Terminals, tmp_path: Path
) -> None:
    """The handler's exception, raised inside the collector's callback, is dropped by Python ("Exception
    ignored"); it comes again where the game goes on (foursquare.interrupts) — before, the game went on playing."""
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(SLOW_COLLECTION)
    mark = tmp_path / "collect"
    env = {"PYTHONPATH": str(tmp_path / "site"), "FOURSQUARE_TEST_MARK": str(mark)}
    term = terminals.start("--deal", "5", env=env)
    term.wait_screen("Move 1 of 40")
    mark.touch()
    collecting = tmp_path / "collect.collecting"
    for _ in range(1000):  # cursor moves redraw the board, and their garbage is collected soon
        if collecting.exists():
            break
        term.press("\x1b[C")
        term.read(0.05)
    assert collecting.exists(), "no garbage collection in 1,000 key presses"
    os.kill(term.process.pid, signal.SIGTERM)
    assert term.finish() == 143
    assert "Traceback" not in term.plain and "Exception ignored" not in term.plain, term.plain[-3000:]


@pytest.mark.slow  # a pseudo-terminal
def test_a_closed_terminal_keeps_the_game(terminals: Terminals) -> None:
    term = terminals.start("--deal", "5")
    term.wait_screen("Move 1 of 40")
    term.press("i")
    term.wait_screen("Move 2 of 40")
    os.close(term.master)  # the window closes: the kernel hangs the terminal up (SIGHUP)
    term.master = os.open(os.devnull, os.O_RDONLY)  # for close()
    deadline = time.monotonic() + 60  # a guard against hanging, not a speed requirement
    while term.process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert term.process.returncode == 129
    [kept] = terminals.kept()
    assert record.read(kept).moves == deal5("D4").moves


# --- a dumb terminal ------------------------------------------------------------------------------------------


@pytest.mark.slow  # a pseudo-terminal
def test_a_dumb_terminal_gets_line_mode_without_escape_codes(terminals: Terminals) -> None:
    term = terminals.start("--deal", "5", env={"TERM": "dumb"})
    term.wait_for("card to place: 2D")
    term.press("D4\n")
    term.wait_for("placed 2D at D4")
    term.press("q\n")
    assert term.finish() == 0
    assert "stopped: game not finished, 1 card placed" in term.plain
    assert "\x1b" not in term.output  # no cursor movement, no alternate screen, no mouse, no colour


# --- small terminals ------------------------------------------------------------------------------------------

#: Deal 1 after the rules' example: its fourth card turns one card of its row down and one of its column up.
EXAMPLE = ((0, 0), (0, 1), (1, 1), (1, 0))


def example_keys() -> str:
    game, pressed = Game(deal=1), ""
    for move in EXAMPLE:
        pressed += cell_labels(game)[Move(*move)]
        game.place(*move)
    return pressed


@pytest.mark.slow  # a pseudo-terminal
@pytest.mark.parametrize("size", [(37, 11), (40, 12), (80, 24)])
def test_both_lines_that_turned_are_told_whole(terminals: Terminals, size: tuple[int, int]) -> None:
    term = terminals.start("--deal", "1", size=size)
    term.wait_screen("Move 1")
    term.press(example_keys())
    term.wait_screen("Move 5")
    screen = flat(term.wait_screen("Column:"))
    if size[0] >= 80:  # beside the board: the reasons too
        screen = term.side_text()
        assert "Row: 7♥ is higher than every other face-up card, so 5♣ on E5 turned face down." in screen
        assert "Column: no other card was face up, so 3♠ on D4 turned face up." in screen
    else:  # below the small board: what turned, each sentence whole
        assert "Row: 5♣ on E5 turned face down." in screen and "Column: 3♠ on D4 turned face up." in screen
    lines = term.display().splitlines()
    assert len(lines) <= size[1] and all(len(line) <= size[0] for line in lines)
    term.press("q")
    assert term.finish() == 0


def views(code: str) -> Iterator[tuple[str, View]]:
    """Frames of deal 1's example in ``code``'s language: cards turned, the hint, and a finished game's end."""
    t = translator(code)
    game = Game(deal=1)
    session = Session(game, game.variant, deal_shown=False, winnable=False, save=None, t=t)
    yield "start", View(session, Marks(), UNICODE)
    for move in EXAMPLE:
        placement = game.place(*move)
    marks = Marks(last=LastAction("placed", placement))
    yield "turned", View(session, marks, UNICODE)
    hints = [Hint(move, 0.9 - i / 10, 5 - i) for i, move in enumerate(game.legal_moves[:5])]
    yield "hint", View(session, marks, UNICODE, hints=hints)
    won = greedy_game(WON_ORTHOGONAL)
    ended = Session(won, won.variant, deal_shown=True, winnable=False, save=LONG_PATH, t=t)
    ended.written = list(won.moves)
    yield "end", View(ended, Marks(last=LastAction("placed", won.placements[-1])), UNICODE)


LONG_PATH = "/tmp/a-folder-with-a-long-name-for-its-games/and-one-more/won-the-game.json"


def frame_lines(view: View, size: tuple[int, int]) -> list[str]:
    width, height = size
    screen = Screen(Console(width=width, height=height, color_system=None, legacy_windows=False, record=False))
    lines = screen.lines(draw_frame(view, width, height).renderable)
    assert len(lines) <= height, "\n".join(lines)
    return lines


@pytest.mark.parametrize("code", list(LANGUAGES))
@pytest.mark.parametrize("size", [(40, 12), (80, 24)])
def test_nothing_a_player_needs_is_cut(code: str, size: tuple[int, int]) -> None:
    t = translator(code)
    for name, view in views(code):
        lines = frame_lines(view, size)
        shown = flat("\n".join(lines))
        joined = "".join(shown.split())
        if name == "turned":  # each line that turned, in one form or another, whole
            for sentence in ("flip.line.row", "flip.line.column"):
                assert t(sentence) in shown, (sentence, "\n".join(lines))
            assert "…" not in shown, "\n".join(lines)
        if name == "end":  # the path to analyse the game, whole (broken across lines where it must be)
            assert "".join(t("term.end_analyze", command=f"foursquare analyze {LONG_PATH}").split()) in joined
        if name == "hint":  # what the moves are ranked by, and the best one
            label = "term.hint_label.expected_score" if size[0] < 80 else "term.hint_title.expected_score"
            assert flat(t(label))[:10] in shown, "\n".join(lines)


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_what_turned_over_is_never_dropped_on_the_smallest_terminal(code: str) -> None:
    """Whole games of random moves at 37 × 11, the smallest size the docs promise: after every card, each line
    that turned over is told (in its longest form that fits whole, down to the cells' names alone), or that
    nothing did; the frame never grows past the terminal."""
    import random

    from foursquare.tui.keys import CellKeys

    t = translator(code)
    for deal in (1, 2, 3):
        game = Game(deal=deal)
        session = Session(game, game.variant, deal_shown=True, winnable=False, save=None, t=t)
        cells, choose = CellKeys(), random.Random(deal)
        while not game.is_over():
            cells.update(game)
            placement = game.place(*choose.choice(game.legal_moves))
            view = View(session, Marks(keys=cells.update(game), last=LastAction("placed", placement)), UNICODE)
            lines = frame_lines(view, (37, 11))
            told = flat("\n".join(lines[:-1]))  # the keys line aside (cut to fit)
            forms = [flat(form.plain) for form in explain_forms(view)]
            assert any(form in told for form in forms), "\n".join(lines)  # one form whole, never cut
            if not placement.flips:
                assert t("term.nothing_turned") in told


# --- the hint's ranking ---------------------------------------------------------------------------------------


def test_the_hint_panel_says_what_it_ranks_by_as_the_library_does() -> None:
    from foursquare.players import HINT_RANKED_BY

    assert View.ranked_by == HINT_RANKED_BY  # the default is the library's
    [(_, view)] = [(name, view) for name, view in views("en") if name == "hint"]
    side = flat("\n".join(line[BOARD_WIDTH + 2 :] for line in frame_lines(view, (100, 32))[1:-2]))
    assert "Best moves, ranked by expected score (score, chance to win):" in side
    assert re.search(r"1\. D3 score 5\.0, win 90% 2\. [A-G][1-7] score 4\.0, win 80%", side), side
    shown = flat("\n".join(frame_lines(view, (40, 12))))
    assert "By expected score (score/win): 1.D3 5.0/90%" in shown


# --- the key bar ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("code", list(LANGUAGES))
@pytest.mark.parametrize("size", [(80, 22), (80, 24), (120, 40)])
def test_every_key_shows_in_every_language_at_80_columns(code: str, size: tuple[int, int]) -> None:
    for name, view in views(code):
        if name not in ("start", "end"):
            continue
        lines = frame_lines(view, size)
        bar = lines[-1]
        letters = "nsu?q" if name == "end" else "ursnh?q"
        for letter in letters:
            assert re.search(rf"(^|\s){re.escape(letter)}\s", bar + " "), (code, name, letter, bar)


def test_a_small_terminal_shows_every_key_on_two_lines_when_there_is_room() -> None:
    [(_, view)] = [(name, view) for name, view in views("en") if name == "start"]
    bar = " ".join(frame_lines(view, (40, 12))[-2:])
    for letter in "ursnh?q":
        assert re.search(rf"(^|\s){re.escape(letter)}\s", bar + " "), bar
    line = Text.from_markup(translator("bn")("term.footer_play_medium", **keys(bold=True))).plain
    assert len(line) <= 64  # the medium form fits beside nothing at 80 columns, whatever the script


# --- the list of kept games, and picking one ------------------------------------------------------------------


def keep(data_dir: Path, name: str, game: Game, age: int) -> Path:
    """A kept game of the data directory, saved ``age`` minutes ago."""
    path = data_dir / "games" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    record.write(game, path)
    stamp = time.time() - 60 * age
    os.utime(path, (stamp, stamp))
    return path


def play(*args: str, data_dir: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return run_main("play", *args, stdin=stdin, env={**os.environ, "FOURSQUARE_DATA_DIR": str(data_dir)})


def test_play_list_shows_the_kept_games_newest_first(tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert play("--list", data_dir=data).stdout == f"No games are kept in {data / 'games'}.\n"
    random = Game(deal=987654321)
    random.place(0, 0)
    keep(data, "20260101-100000-random.json", random, age=30)
    keep(data, "20260102-100000-deal.json", deal5("D4", "D3"), age=10)
    keep(data, "20260103-100000-random.json", greedy_game(WON_ORTHOGONAL), age=20)
    (data / "games" / "20260104-100000-deal.json").write_text("{")
    os.utime(data / "games" / "20260104-100000-deal.json", (time.time() - 3600, time.time() - 3600))
    result = play("--list", data_dir=data)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"Games kept in {data / 'games'}, newest first:"
    first = r"1\. 20260102-100000-deal\.json: Deal 5, 2 cards placed, saved .+ \d\d?:\d\d; not finished"
    assert re.fullmatch(first, lines[1]), lines[1]
    won = greedy_game(WON_ORTHOGONAL)
    assert lines[2].startswith(f"2. 20260103-100000-random.json: Deal {WON_ORTHOGONAL}, {won.turn} cards placed")
    assert "won with score" in lines[2]  # a finished random deal shows its number
    assert lines[3].startswith("3. 20260101-100000-random.json: Random deal, 1 card placed")
    assert "987654321" not in result.stdout  # an unfinished random deal keeps its secret
    assert lines[4] == "4. 20260104-100000-deal.json: not a readable game record"
    assert lines[5] == "Continue one with: foursquare play --pick NUMBER, or foursquare play FILE"


def test_play_pick_continues_a_kept_game_by_its_number(tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert "no game is kept in" in play("--pick", "1", data_dir=data).stderr
    older = keep(data, "20260101-100000-deal.json", deal5("D4"), age=30)
    keep(data, "20260102-100000-deal.json", deal5("D4", "D3"), age=10)
    result = play("--pick", "2", data_dir=data, stdin="D3\nq\n")
    assert result.returncode == 0, result.stderr
    assert "placed 2C at D3" in result.stdout
    assert record.read(older).moves == deal5("D4", "D3").moves  # went on in its own file
    result = play("--pick", "3", data_dir=data)
    assert result.returncode == 2
    assert "there is no kept game number 3: foursquare play --list numbers them from 1 to 2" in result.stderr
    assert play("--pick", "0", data_dir=data).returncode == 2


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--list", "--deal", "5"), "argument --deal: not allowed with argument --list"),
        (("--list", "--save", "x.json"), "--list and --save cannot be used together"),
        (("--pick", "1", "FILE.json"), "--pick and FILE cannot be used together"),
        (("--pick", "1", "--winnable"), "not allowed with argument"),
        (("--delete", "1", "--pick", "2"), "argument --pick: not allowed with argument --delete"),
        (("--delete", "1", "FILE.json"), "--delete and FILE cannot be used together"),
        (("--delete", "1", "--save", "x.json"), "--delete and --save cannot be used together"),
    ],
)
def test_play_list_and_pick_refuse_what_they_would_ignore(tmp_path: Path, args: tuple[str, ...], words: str) -> None:
    result = play(*args, data_dir=tmp_path / "data")
    assert result.returncode == 2 and words in result.stderr.splitlines()[-1], result.stderr  # after any usage
    assert "Traceback" not in result.stderr


def test_play_delete_removes_a_kept_game_by_its_number(tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert play("--delete", "1", data_dir=data).stderr == (
        f"foursquare: error: there is no kept game number 1: no game is kept in {data / 'games'}\n"
    )
    older = keep(data, "20260101-100000-deal.json", deal5("D4"), age=30)
    newer = keep(data, "20260102-100000-deal.json", deal5("D4", "D3"), age=10)
    result = play("--delete", "3", data_dir=data)
    assert result.returncode == 2 and result.stderr == (
        "foursquare: error: there is no kept game number 3: foursquare play --list numbers them from 1 to 2\n"
    )
    result = play("--delete", "2", data_dir=data)  # no terminal to ask on: a script's word is final
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout == f"Deleted {older.name} from {older.parent}.\n"
    assert not older.exists() and newer.exists()
    assert "1. 20260102-100000-deal.json" in play("--list", data_dir=data).stdout


@pytest.mark.slow  # a pseudo-terminal
def test_play_delete_asks_first_on_a_terminal(terminals: Terminals) -> None:
    kept = keep(terminals.data_dir, "20260101-100000-deal.json", deal5("D4"), age=30)
    term = terminals.start("--delete", "1")
    term.wait_for("Delete this kept game? 1. 20260101-100000-deal.json: Deal 5, 1 card placed, saved")
    term.wait_for("not finished [y/N] ")
    term.press("\n")  # the default: no
    assert term.finish() == 0
    assert "Nothing deleted." in term.plain and kept.exists()
    term = terminals.start("--delete", "1")
    term.wait_for("[y/N] ")
    term.press("y\n")
    assert term.finish() == 0
    assert f"Deleted {kept.name} from {kept.parent}." in term.plain and not kept.exists()


def test_play_help_names_list_pick_and_no_mouse() -> None:
    out = flat(run_main("play", "--help").stdout)
    for words in ("--list", "--pick N", "--delete N", "numbered for --pick", "(1 is the newest)", "--no-mouse",
                  "its own text selection works (or set FOURSQUARE_NO_MOUSE)"):
        assert words in out, words


def test_the_variable_that_turns_the_mouse_off_has_one_name() -> None:
    from foursquare.cli.play import NO_MOUSE_VARIABLE as named_by_the_command_line
    from foursquare.tui.text import NO_MOUSE_VARIABLE

    assert named_by_the_command_line == NO_MOUSE_VARIABLE


@pytest.mark.slow  # a pseudo-terminal
def test_play_pick_in_the_terminal(terminals: Terminals) -> None:
    keep(terminals.data_dir, "20260101-100000-deal.json", deal5("D4", "D3"), age=30)
    term = terminals.start("--pick", "1")
    term.wait_screen("Move 3 of 40")
    term.press("q")
    assert term.finish() == 0


# --- the mouse left to the terminal -----------------------------------------------------------------------------


@pytest.mark.slow  # a pseudo-terminal
@pytest.mark.parametrize(("args", "env"), [(("--no-mouse",), {}), ((), {"FOURSQUARE_NO_MOUSE": "1"})])
def test_no_mouse_sends_no_mouse_reporting(terminals: Terminals, args: tuple[str, ...], env: dict[str, str]) -> None:
    term = terminals.start("--deal", "5", *args, env=env)
    term.wait_screen("Move 1 of 40")
    term.press("i")
    term.wait_screen("Move 2 of 40")
    term.press("q")
    assert term.finish() == 0
    assert ENTER_ALTERNATE_SCREEN in term.output
    assert not re.search(r"\x1b\[\?100[0-6][hl]", term.output)  # no mouse reporting asked for (nor turned off)


# --- a saved game keeps its rules -------------------------------------------------------------------------------


@pytest.mark.parametrize("option", [("--adjacency", "diagonal"), ("--adjacency", "orthogonal"), ("--count-buried",)])
def test_a_saved_game_refuses_other_rules(tmp_path: Path, option: tuple[str, ...]) -> None:
    path = tmp_path / "mine.json"
    record.write(deal5("D4"), path)
    before = path.read_text()
    result = play(str(path), *option, data_dir=tmp_path / "data", stdin="D3\n")
    assert result.returncode == 2 and result.stdout == ""
    assert f"{path} holds a saved game, which keeps its own rules: leave out {option[0]}" in result.stderr
    assert path.read_text() == before
    keep(tmp_path / "data", "20260101-100000-deal.json", deal5("D4"), age=1)
    result = play("--pick", "1", *option, data_dir=tmp_path / "data")
    assert result.returncode == 2 and "--pick 1 holds a saved game, which keeps its own rules" in result.stderr
