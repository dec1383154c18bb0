"""``foursquare play``, driven the way a user or a script drives it: as a subprocess.

Line mode gets commands on a pipe; the interactive mode runs on a pseudo-terminal and gets keys.
Move lists come from a greedy loop over the engine, so the expected outcomes are the engine's.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import termios
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cli_support import run_main
from foursquare import record, tui
from foursquare.cards import Card
from foursquare.engine import Game, Move, Variant
from foursquare.grid_text import grid_text
from foursquare.i18n import translator
from pty_support import ANSI, Terminal

EN = translator("en")  # the tests read English (tests/conftest.py)

PLAY = [sys.executable, "-m", "foursquare.cli", "play"]

# Deals on which the greedy loop below wins (checked again by each test through the engine).
WON_ORTHOGONAL = 16
WON_DIAGONAL = 2


def greedy_game(deal: int, variant: Variant | None = None) -> Game:
    """Play a whole deal with the engine: avoid losing, then fewest face-down cards, then most cells."""
    game = Game(deal=deal, variant=variant)
    while not game.is_over():
        best: tuple[tuple[bool, bool, int, int, Move], Move] | None = None
        for move in game.legal_moves:
            trial = game.copy()
            outcome = trial.place(*move).outcome
            key = (outcome.status == "lost", outcome.status != "won", trial.face_down, -len(trial.cells()), move)
            if best is None or key < best[0]:
                best = (key, move)
        assert best is not None
        game.place(*best[1])
    return game


def commands(moves: list[Move]) -> str:
    return "".join(f"{m.row} {m.col}\n" for m in moves)


def play(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``foursquare play ARGS`` in line mode, in this process (its standard input a text buffer, not a terminal)."""
    return run_main("play", *args, stdin=stdin)


def play_through_a_pipe(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """The same in a process of its own, reading a real pipe."""
    return subprocess.run([*PLAY, *args], input=stdin, capture_output=True, text=True, timeout=120)


# --- line mode ----------------------------------------------------------------------------------------


def test_a_whole_game_to_a_win_prints_the_engines_outcome() -> None:
    game = greedy_game(WON_ORTHOGONAL)
    assert game.outcome().status == "won"
    # through a real pipe to a process of its own, as a script drives it
    result = play_through_a_pipe("--deal", str(WON_ORTHOGONAL), stdin=commands(game.moves) + "0 0\n")  # past the end
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0] == f"deal {WON_ORTHOGONAL}"
    assert lines[1] == "variant: orthogonal adjacency"
    assert lines[2] == f"card to place: {game.stock[0].name} (40 cards left in the stock)"
    assert lines[3] == "legal: D4"
    assert lines[-1] == f"won: score {game.outcome().score}"
    assert lines[-2] == "face down: 0 of 4"
    final_grid = "\n".join(lines[-2 - len(grid_text(game).splitlines()) : -2])
    assert final_grid == grid_text(game)
    assert [line for line in lines if line.startswith("placed ")] == [
        f"placed {p.card.name} at {p.move.name}" for p in game.placements
    ]


def test_every_step_reports_what_turned_over_and_the_next_choices() -> None:
    game = greedy_game(WON_ORTHOGONAL)
    replay = Game(deal=WON_ORTHOGONAL)
    result = play("--deal", str(WON_ORTHOGONAL), stdin=commands(game.moves[:12]))
    out = result.stdout
    for placement in game.placements[:12]:
        replay.place(*placement.move)
        flips = ", ".join(
            f"{f.card.name} at {f.cell_name} face {'up' if f.face_up else 'down'} ({EN(f'flip.line.{f.line}')})"
            for f in placement.flips
        )
        block = "\n".join(
            [
                f"placed {placement.card.name} at {placement.move.name}",
                f"turned over: {flips or 'nothing'}",
                grid_text(replay),
                f"face down: {replay.face_down} of 4",
                f"card to place: {replay.stock[replay.turn].name} ({replay.stock_left} cards left in the stock)",
                "legal: " + ", ".join(m.name for m in replay.legal_moves),
            ]
        )
        assert block in out
    assert out.splitlines()[-1] == "stopped: game not finished, 12 cards placed"
    assert any(p.flips for p in game.placements[:12])  # the check above saw a real flip


def test_a_lost_game_ends_with_the_reason() -> None:
    for deal in range(1, 50):
        game = greedy_game(deal)
        if game.outcome().reason == "too_many_face_down":
            break
    else:
        pytest.fail("no greedy loss by face-down cards among deals 1-49")
    result = play("--deal", str(deal), stdin=commands(game.moves))
    assert result.returncode == 0
    assert result.stdout.splitlines()[-1] == "lost: more than 4 cards face down"
    assert result.stdout.splitlines()[-2] == f"face down: {game.face_down} of 4"


def test_undo_and_redo() -> None:
    reference = Game(deal=5)
    first = reference.place(0, 0)
    one_card_grid = grid_text(reference)
    second = reference.place(0, 1)
    result = play("--deal", "5", stdin="0 0\n0 1\nu\nr\nu\n1 0\nr\nu\nu\nu\n")
    out = result.stdout
    assert f"undone: {second.card.name} from E4\nturned back: nothing\n{one_card_grid}\n" in out
    assert f"redone: {second.card.name} at E4\n" in out
    assert f"placed {second.card.name} at D5\n" in out
    # A new move drops the undone one, so the second redo has nothing to replay; the third undo neither.
    assert result.stderr.splitlines() == [
        "cannot redo: there is no undone move to play again",
        "cannot undo: no card has been placed",
    ]
    assert out.splitlines()[-1] == "stopped: game not finished, 0 cards placed"
    assert f"undone: {first.card.name} from D4\n" in out


def test_undo_of_a_flip_turns_the_card_back() -> None:
    game = Game(deal=1)  # 3S then AH: the ace turns the 3S face down (see the engine's doctest)
    game.place(0, 0)
    flip = game.place(0, 1).flips[0]
    result = play("--deal", "1", stdin="0 0\n0 1\nu\n")
    assert f"turned over: {flip.card.name} at D4 face down (Row)" in result.stdout
    assert f"turned back: {flip.card.name} at D4 face up (Row)" in result.stdout
    assert "face down: 1 of 4" in result.stdout


def test_an_illegal_move_is_refused_and_changes_nothing() -> None:
    result = play("--deal", "5", stdin="1 1\n0 0\n5 5\n0 2\n-1 0\n")
    assert result.returncode == 0
    first, apart = EN("error.illegal.first_card"), EN("error.illegal.not_adjacent")  # the web page's words
    assert result.stderr.splitlines() == [f"illegal: E5: {first}", f"illegal: 5 5: {apart}", f"illegal: F4: {apart}"]
    game = Game(deal=5)
    game.place(0, 0)
    game.place(-1, 0)
    placed = [line for line in result.stdout.splitlines() if line.startswith("placed ")]
    assert placed == [f"placed {p.card.name} at {p.move.name}" for p in game.placements]
    assert grid_text(game) in result.stdout


def test_cells_are_named_by_letter_and_number_and_read_back_by_name() -> None:
    """Lines may name cells as the output does (D4, e4): the same game as with row and column numbers."""
    game = Game(deal=5)
    for row, col in [(0, 0), (0, 1), (-1, 1)]:
        game.place(row, col)
    result = play("--deal", "5", stdin="D4\ne4\nE3\nH9\n")
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("bad command 'H9': expected a cell")
    assert [line for line in result.stdout.splitlines() if line.startswith("placed ")] == [
        f"placed {p.card.name} at {name}" for p, name in zip(game.placements, ["D4", "E4", "E3"], strict=True)
    ]
    assert "          D        E\n   3" in result.stdout  # the grid's edges carry the column letters and row numbers


def test_malformed_lines_are_reported_and_skipped() -> None:
    result = play("--deal", "5", stdin="hello\n\n   \n1\n1 2 3\na b\n0 0\nq\n0 1\n")
    assert result.returncode == 0
    errors = result.stderr.splitlines()
    assert len(errors) == 4
    assert all(line.startswith("bad command ") for line in errors)
    assert "'hello'" in errors[0] and "'1 2 3'" in errors[2]
    assert 'expected a cell such as "D4" (or "ROW COL", two integers), u (undo), r (redo) or q (quit)' in errors[0]
    # q stops reading: the move after it is never played.
    assert result.stdout.splitlines()[-1] == "stopped: game not finished, 1 card placed"


def test_save_writes_a_record_that_replay_reads_back(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    game = greedy_game(WON_ORTHOGONAL)
    moves = game.moves[:9]
    result = play("--deal", str(WON_ORTHOGONAL), "--save", str(path), stdin=commands(moves) + "u\nu\nr\n")
    assert result.returncode == 0, result.stderr
    expected = Game(deal=WON_ORTHOGONAL)
    for move in moves[:8]:
        expected.place(*move)
    assert record.to_json(record.read(path)) == record.to_json(expected)
    replayed = subprocess.run(
        [sys.executable, "-m", "foursquare.cli", "replay", "--json", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(replayed.stdout) == record.replay_json(expected)


def test_save_after_a_finished_game(tmp_path: Path) -> None:
    path = tmp_path / "won.json"
    game = greedy_game(WON_ORTHOGONAL)
    result = play("--deal", str(WON_ORTHOGONAL), "--save", str(path), stdin=commands(game.moves))
    assert result.returncode == 0
    saved = record.read(path)
    assert saved.outcome() == game.outcome()
    assert saved.moves == game.moves


def test_an_unwritable_save_path_stops_before_playing(tmp_path: Path) -> None:
    for bad in (tmp_path / "missing" / "game.json", tmp_path):
        result = play("--deal", "5", "--save", str(bad), stdin="0 0\n")
        assert result.returncode == 2
        assert result.stdout == ""
        assert result.stderr.startswith(f"foursquare: error: cannot save the game to {bad}: ")


def test_deal_and_winnable_together_are_refused() -> None:
    result = play("--deal", "5", "--winnable")
    assert result.returncode == 2
    assert "--winnable: not allowed with argument --deal" in result.stderr


def test_a_random_deal_shows_its_number_only_at_the_end() -> None:
    result = play(stdin="0 0\n")
    lines = result.stdout.splitlines()
    assert lines[0] == "deal: random (its number is shown when the game ends)"
    assert lines[-2] == "stopped: game not finished, 1 card placed"
    deal = int(lines[-1].removeprefix("deal "))
    first = Game(deal=deal).stock[0].name
    assert lines[2] == f"card to place: {first} (40 cards left in the stock)"
    assert sum(str(deal) in line for line in lines) == 1


def test_diagonal_variant() -> None:
    variant = Variant(adjacency="diagonal")
    game = greedy_game(WON_DIAGONAL, variant)
    assert game.outcome().status == "won"
    result = play("--deal", str(WON_DIAGONAL), "--adjacency", "diagonal", stdin=commands(game.moves))
    lines = result.stdout.splitlines()
    assert lines[1] == "variant: diagonal adjacency"
    assert "legal: C3, D3, E3, C4, D4, E4, C5, D5, E5" in lines
    assert lines[-1] == f"won: score {game.outcome().score}"
    orthogonal = play("--deal", str(WON_DIAGONAL), stdin="0 0\n1 1\n")
    assert f"illegal: E5: {EN('error.illegal.not_adjacent')}" in orthogonal.stderr


def test_count_buried_variant(tmp_path: Path) -> None:
    variant = Variant(count_buried=True)
    for deal in range(1, 80):  # a deal where the buried cards make the difference to the outcome
        game = greedy_game(deal, variant)
        plain = Game(deal=deal)
        for move in game.moves:
            plain.place(*move)
        if game.outcome() != plain.outcome():
            break
    else:
        pytest.fail("no deal among 1-79 where count_buried changes the greedy game's outcome")
    path = tmp_path / "buried.json"
    result = play("--deal", str(deal), "--count-buried", "--save", str(path), stdin=commands(game.moves))
    lines = result.stdout.splitlines()
    assert lines[1] == "variant: orthogonal adjacency, covered face-down cards count"
    assert lines[-1] == tui.outcome_line(game.outcome(), EN)
    assert lines[-2] == f"face down: {game.face_down} of 4"
    assert record.read(path).variant == variant


def test_winnable_takes_the_solvers_deal_and_hides_its_number(monkeypatch: pytest.MonkeyPatch) -> None:
    # The solver's search is slow and tested elsewhere; here only the wiring: which function, which arguments.
    from foursquare import solver

    calls: list[tuple[Variant, object]] = []

    def fake(variant: Variant, seed: object = "missing") -> int:
        calls.append((variant, seed))
        return WON_ORTHOGONAL

    monkeypatch.setattr(solver, "random_winnable_deal", fake)
    game = greedy_game(WON_ORTHOGONAL)
    monkeypatch.setattr(sys, "stdin", io.StringIO(commands(game.moves)))
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    # diagonal adjacency: the greedy orthogonal moves are still legal, so the game plays out the same
    assert tui.play(Variant(adjacency="diagonal"), winnable=True) == 0
    assert calls == [(Variant(adjacency="diagonal"), None)]
    lines = out.getvalue().splitlines()
    assert lines[0] == "deal: random (its number is shown when the game ends)"
    assert lines[-1] == f"deal {WON_ORTHOGONAL}"


# --- interactive mode on a pseudo-terminal ---------------------------------------------------------


StartTerminal = Callable[..., Terminal]


@pytest.fixture
def terminal_factory(tmp_path: Path) -> Iterator[StartTerminal]:
    opened: list[Terminal] = []

    def start(*args: str, **options: object) -> Terminal:
        term = Terminal(*args, data_dir=tmp_path / "data", **options)  # type: ignore[arg-type]
        opened.append(term)
        return term

    yield start
    for term in opened:
        term.close()


def test_interactive_one_key_places_a_card_and_q_quits(terminal_factory: StartTerminal, tmp_path: Path) -> None:
    path = tmp_path / "tty.json"
    deal = next(n for n in range(1000) if Game(deal=n).stock[0] == Card.parse("AC"))  # card 0: a falsy int
    term = terminal_factory("--deal", str(deal), "--save", str(path))
    at = term.wait_for("Press a cell's key, or move with the arrows and press Enter, to place the A♣.")
    assert f"Deal {deal}" in ANSI.sub("", term.output)
    assert "\x1b[?1049h" in term.output  # the alternate screen
    term.press("i")  # the only legal cell of the first move
    at = term.wait_for("Move 2 of 40", at)
    screen = ANSI.sub("", term.output)[at:]
    assert re.search(r"│\s+3\s", screen) and re.search(r"│\s+4\s", screen)  # row numbers on the left edge,
    assert re.search(r"│\s+C\s+D\s+E\s+│", screen)  # the column letters below (the 3 × 3 window around D4)
    assert "A♣ placed at D4." in screen
    term.press("?")
    at = term.wait_for("How to play", at)
    term.press("\x1b")
    at = term.wait_for("Move 2 of 40", at)
    term.press("q")
    assert term.finish() == 0
    plain = ANSI.sub("", term.output)
    assert "game not finished after 1 card. It is kept in " in plain[at:]
    assert "Continue it with: foursquare play" in plain[at:]
    assert "\x1b[?1049l" in term.output  # back from the alternate screen
    assert termios.tcgetattr(term.slave) == term.mode  # the terminal's mode is restored
    assert record.read(path).moves == [Move(0, 0)]


# What a shell's background job or some launchers do to their children: SIGINT ignored and blocked, both
# inherited across exec. Ctrl-C must quit the game all the same.
DEAF_TO_CTRL_C = (
    sys.executable,
    "-c",
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN);"
    " signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}); os.execv(sys.argv[1], sys.argv[1:])",
)


@pytest.mark.slow  # a pseudo-terminal
@pytest.mark.parametrize("launcher", [(), DEAF_TO_CTRL_C], ids=["plain", "started-deaf-to-ctrl-c"])
def test_ctrl_c_restores_the_terminal(terminal_factory: StartTerminal, launcher: tuple[str, ...]) -> None:
    term = terminal_factory("--deal", "5", launcher=launcher)
    at = term.wait_for("Press a cell's key")
    term.press("i")
    at = term.wait_for("Move 2 of 40", at)
    term.press("\x03")
    assert term.finish() == 130
    assert "game not finished after 1 card" in ANSI.sub("", term.output)[at:]
    assert term.output.rfind("\x1b[?1049l") > term.output.rfind("\x1b[?1049h")
    assert termios.tcgetattr(term.slave) == term.mode


@pytest.mark.slow  # a pseudo-terminal
def test_interactive_game_to_a_win_then_the_same_deal_again(terminal_factory: StartTerminal, tmp_path: Path) -> None:
    game = greedy_game(WON_ORTHOGONAL)
    replay = Game(deal=WON_ORTHOGONAL)
    keys = ""
    for move in game.moves:
        keys += tui.cell_labels(replay)[move]
        replay.place(*move)
    path = tmp_path / "game.json"
    term = terminal_factory("--deal", str(WON_ORTHOGONAL), "--save", str(path))
    at = term.wait_for("Press a cell's key")
    term.press(keys)
    at = term.wait_for(f"YOU WON!  SCORE {game.outcome().score}", at)
    at = term.wait_for("Play another? (n) new random deal / (s) same deal again / (q) quit", at)
    term.press("s")
    at = term.wait_for("Move 1 of 40", at)
    term.press("i")
    at = term.wait_for("Move 2 of 40", at)
    term.press("q")
    assert term.finish() == 0
    plain = ANSI.sub("", term.output)[at:]
    assert f"Saved: {path}" in plain and f"Saved: {tmp_path / 'game-2.json'}" in plain
    assert record.read(path).outcome() == game.outcome()  # the won game is kept,
    assert record.read(tmp_path / "game-2.json").moves == [Move(0, 0)]  # the next one saved beside it


@pytest.mark.slow  # a pseudo-terminal
def test_interactive_explains_why_a_line_turned(terminal_factory: StartTerminal) -> None:
    # deal 1: 3S, then AH to the right of it is the lowest of the row, so the 3S turns face down
    game = Game(deal=1)
    game.place(0, 0)
    key = tui.cell_labels(game)[Move(0, 1)]
    term = terminal_factory("--deal", "1")
    at = term.wait_for("Press a cell's key, or move with the arrows and press Enter, to place the 3♠.")
    term.press("i")
    at = term.wait_for("Move 2 of 40", at)
    term.press(key)
    term.wait_screen("A♥ placed at E4.")  # the move and what turned, by the cells' names, in the web page's words
    term.wait_screen("turned face down.")
    assert "Row: A♥ is lower than every other face-up card, so 3♠ on D4 turned face down." in term.side_text()
    term.press("q")
    assert term.finish() == 0
