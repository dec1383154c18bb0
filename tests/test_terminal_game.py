"""The terminal game, played as a person plays it: on a pseudo-terminal, keys (and mouse clicks) in,
the screen read back with a terminal emulator (pyte). Deal 5 starts 2♦ (D4), 2♣, 10♦, 5♣...: its first move's
only cell gets the key ``i``; then D3 ``j``, C4 ``k``, E4 ``l``, D5 ``m``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cli_support import run_main
from foursquare import record
from foursquare.engine import Game, Move
from foursquare.tui import CellKeys, cell_labels
from foursquare.tui.board import BOARD_HEIGHT, LARGE
from pty_support import Terminal


class Terminals:
    """Start games on pseudo-terminals sharing one data directory; all are closed after the test."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.opened: list[Terminal] = []

    def start(self, *args: str, **options: Any) -> Terminal:
        """A game started with ``args``; ``options`` are :class:`Terminal`'s (the data directory is the shared one
        unless given)."""
        options.setdefault("data_dir", self.data_dir)
        term = Terminal(*args, **options)
        self.opened.append(term)
        return term

    def kept(self) -> list[Path]:
        return sorted((self.data_dir / "games").glob("*.json"))


@pytest.fixture
def terminals(tmp_path: Path) -> Iterator[Terminals]:
    manager = Terminals(tmp_path / "data")
    yield manager
    for term in manager.opened:
        with contextlib.suppress(OSError):  # a test may have closed it already
            term.close()


def cli(*args: str, stdin: str = "", env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_main(*args, stdin=stdin, env={**os.environ, **(env or {})})


def flat(screen: str) -> str:
    """The screen's words as one line, one space between words (where the terminal broke lines does not matter)."""
    return " ".join(screen.split())


def deal5(*cells: str) -> Game:
    game = Game(deal=5)
    for name in cells:
        game.place(*Move.from_name(name))
    return game


# --- 1. a game is never lost --------------------------------------------------------------------------------


@pytest.mark.slow  # a pseudo-terminal
def test_a_killed_game_resumes_at_the_last_card_placed(terminals: Terminals) -> None:
    term = terminals.start("--deal", "5")
    term.wait_screen("Move 1 of 40")
    term.press("i")
    term.wait_screen("Move 2 of 40")
    term.press("j")
    term.wait_screen("Move 3 of 40")
    os.killpg(term.process.pid, signal.SIGKILL)  # no goodbye, no clean-up: only what was on disk survives
    term.process.wait()
    [kept] = terminals.kept()
    assert record.read(kept).moves == deal5("D4", "D3").moves

    again = terminals.start()
    again.wait_screen("Continue your unfinished game (Deal 5, 2 cards placed")
    again.press("y")
    screen = again.wait_screen("Move 3 of 40")
    assert "Welcome back" in screen and "2♣" in screen and "10♦" in screen
    again.press("l")  # E4 kept its key
    again.wait_screen("Move 4 of 40")
    again.press("q")
    assert again.finish() == 0
    assert record.read(kept).moves == deal5("D4", "D3", "E4").moves
    assert terminals.kept() == [kept]  # continued in its own file, no empty one beside it
    assert f"It is kept in {kept}" in again.plain and "Continue it with: foursquare play" in again.plain


@pytest.mark.slow  # a pseudo-terminal
def test_a_random_deal_resumes_without_showing_its_number(terminals: Terminals) -> None:
    term = terminals.start()
    term.wait_screen("Random deal (number shown at the end)")
    term.press("i")
    term.wait_screen("Move 2 of 40")
    os.killpg(term.process.pid, signal.SIGKILL)
    term.process.wait()
    [kept] = terminals.kept()
    deal = record.read(kept).deal
    assert kept.name.endswith("-random.json") and str(deal) not in kept.name
    again = terminals.start()
    screen = again.wait_screen("Continue your unfinished game (Random deal, 1 card placed")
    again.press("y")
    screen = again.wait_screen("Move 2 of 40")
    assert "Random deal" in screen and f"Deal {deal}" not in screen
    again.press("q")
    assert again.finish() == 0
    assert f"--deal {deal}" not in again.plain  # the goodbye keeps the secret too


@pytest.mark.slow  # a pseudo-terminal
def test_play_with_a_kept_games_file_goes_on_in_that_file(terminals: Terminals) -> None:
    term = terminals.start()
    term.wait_screen("Move 1 of 40")
    term.press("iq")
    assert term.finish() == 0
    [kept] = terminals.kept()
    again = terminals.start(str(kept))
    screen = again.wait_screen("Move 2 of 40")
    assert "Random deal" in screen  # still secret
    again.press("uq")
    assert again.finish() == 0
    assert terminals.kept() == [kept] and record.read(kept).turn == 0


@pytest.mark.slow  # a pseudo-terminal
def test_a_new_deal_keeps_the_game_it_leaves(terminals: Terminals) -> None:
    term = terminals.start("--deal", "5")
    term.wait_screen("Move 1 of 40")
    term.press("in")
    term.wait_screen("It stays kept: foursquare play continues it. (y/n)")
    term.press("y")
    term.wait_screen("Random deal")
    term.press("iq")
    assert term.finish() == 0
    games = [record.read(path) for path in terminals.kept()]
    assert sorted(game.turn for game in games) == [1, 1] and 5 in [game.deal for game in games]


@pytest.mark.slow  # a pseudo-terminal
def test_declining_to_continue_starts_a_new_game_and_keeps_the_old_one(terminals: Terminals) -> None:
    term = terminals.start("--deal", "5")
    term.wait_screen("Move 1 of 40")
    term.press("iq")
    assert term.finish() == 0
    again = terminals.start()
    again.wait_screen("Continue your unfinished game")
    again.press("n")
    again.wait_screen("Move 1 of 40")
    again.press("q")
    assert again.finish() == 0
    assert len(terminals.kept()) == 1  # the new game had no card down: nothing to keep; the old one stays
    assert record.read(terminals.kept()[0]).turn == 1


@pytest.mark.slow  # a pseudo-terminal
def test_save_never_replaces_another_game_unasked(tmp_path: Path, terminals: Terminals) -> None:
    path = tmp_path / "g.json"
    record.write(deal5("D4", "D3"), path)
    before = path.read_text()
    result = cli("play", "--deal", "1", "--save", str(path), stdin="D4\n")
    assert result.returncode == 2 and result.stdout == ""
    assert f"{path} already holds a game (deal 5, 2 cards placed): left as it was" in result.stderr
    assert f"foursquare play {path}" in result.stderr
    assert path.read_text() == before

    term = terminals.start("--deal", "1", "--save", str(path))
    term.wait_for("Replace it? [y/N]")
    term.press("n\r")
    assert term.finish() == 2
    assert path.read_text() == before

    term = terminals.start("--deal", "1", "--save", str(path))
    term.wait_for("Replace it? [y/N]")
    term.press("y\r")
    term.wait_screen("Move 1 of 40")
    term.press("iq")
    assert term.finish() == 0
    assert record.read(path).deal == 1 and record.read(path).turn == 1


@pytest.mark.slow  # a pseudo-terminal
def test_play_file_continues_a_saved_record(tmp_path: Path, terminals: Terminals) -> None:
    path = tmp_path / "mine.json"
    record.write(deal5("D4", "D3"), path)
    result = cli("play", str(path), stdin="E4\nq\n")
    assert result.returncode == 0, result.stderr
    assert "placed 10D at E4" in result.stdout
    assert record.read(path).moves == deal5("D4", "D3", "E4").moves

    term = terminals.start(str(path))
    term.wait_screen("Move 4 of 40")
    term.press("u")
    term.wait_screen("Took back 10♦ from E4.")
    term.press("q")
    assert term.finish() == 0
    assert record.read(path).moves == deal5("D4", "D3").moves
    assert cli("play", str(tmp_path / "none.json")).returncode == 2
    from test_play import WON_ORTHOGONAL, greedy_game

    record.write(greedy_game(WON_ORTHOGONAL), path)
    finished = cli("play", str(path), stdin="D4\n")
    assert finished.returncode == 0 and finished.stdout.splitlines()[-1].startswith("won: score ")


@pytest.mark.slow  # a pseudo-terminal
@pytest.mark.parametrize("size", [(80, 24), (40, 12)])
def test_a_finished_game_points_to_the_analysis(terminals: Terminals, tmp_path: Path, size: tuple[int, int]) -> None:
    from test_play import WON_ORTHOGONAL, greedy_game

    game = greedy_game(WON_ORTHOGONAL)
    keys = "".join(_keys_for(game))
    path = tmp_path / "won.json"
    term = terminals.start("--deal", str(WON_ORTHOGONAL), "--save", str(path), size=size)
    term.wait_screen("Move 1")
    term.press(keys)
    screen = term.wait_screen("YOU WON!")
    # A path longer than a line is broken across lines (in the middle of a word), never cut: compare without the
    # white space.
    pointer = f"See your mistakes: foursquare analyze {path}"
    assert "".join(pointer.split()) in "".join(screen.split()), screen
    term.press("q")
    assert term.finish() == 0
    assert f"See your mistakes: foursquare analyze {path}\n" in term.plain.replace("\r\n", "\n")


def _keys_for(game: Game) -> list[str]:
    keys = CellKeys()
    replay = Game(deal=game.deal)
    pressed = []
    for move in game.moves:
        pressed.append(keys.update(replay)[move])
        replay.place(*move)
    return pressed


# --- 2. cells: stable keys, cursor, names, mouse ------------------------------------------------------------


def test_a_cell_keeps_its_key_while_it_stays_legal() -> None:
    keys = CellKeys()
    game = Game(deal=5)
    assert keys.update(game) == {Move(0, 0): "i"}
    game.place(0, 0)
    first = dict(keys.update(game))
    game.place(-1, 0)
    second = keys.update(game)
    for move, key in first.items():
        if move in second:
            assert second[move] == key
    assert not set(second.values()) & set("abcdefghnqrsu?")  # never a command key nor a column letter


@pytest.mark.slow  # a pseudo-terminal
def test_arrows_and_enter_place_the_card_under_the_cursor(terminals: Terminals) -> None:
    term = terminals.start("--deal", "5")
    term.wait_screen("Move 1 of 40")
    term.press("\r")  # the cursor appears on the only legal cell
    term.wait_screen("Cursor on D4")
    term.press(" ")
    term.wait_screen("Move 2 of 40")
    term.press("\x1b[C")  # right, from the card just placed
    term.wait_screen("Cursor on E4")
    term.press("\x1b[A")  # up: E3 is not legal yet
    term.wait_screen("Cursor on E3")
    term.press("\r")
    term.wait_screen("cannot go to E3")
    term.press("\x1b[B\r")
    screen = term.wait_screen("2♣ placed at E4.")
    assert "Move 3 of 40" in screen


@pytest.mark.slow  # a pseudo-terminal
def test_the_first_arrow_after_a_cards_key_moves_the_cursor(terminals: Terminals) -> None:
    """No cursor shown yet: the first arrow starts it from the card just placed and moves it, as every arrow does."""
    term = terminals.start("--deal", "5")
    term.wait_screen("Move 1 of 40")
    term.press("i")  # D4, by its key: no cursor yet
    term.wait_screen("Move 2 of 40")
    term.press("\x1b[C")  # right, from D4
    term.wait_screen("Cursor on E4")
    term.press("\r")
    term.wait_screen("2♣ placed at E4.")
    term.press("q")
    assert term.finish() == 0


@pytest.mark.slow  # a pseudo-terminal
def test_typing_a_cells_name_moves_the_cursor_there(terminals: Terminals) -> None:
    term = terminals.start("--deal", "5")
    term.wait_screen("Move 1 of 40")
    term.press("i")
    term.wait_screen("Move 2 of 40")
    term.press("e")
    term.wait_screen("Cell E_: type its row number")
    term.press("9")
    term.wait_screen("There is no cell E9")
    term.press("E4")
    term.wait_screen("Cursor on E4")
    term.press("\r")
    term.wait_screen("2♣ placed at E4.")


@pytest.mark.slow  # a pseudo-terminal
@pytest.mark.parametrize("size", [(100, 32), (40, 12), (200, 50)])
def test_a_mouse_click_places_the_card(terminals: Terminals, size: tuple[int, int]) -> None:
    term = terminals.start("--deal", "5", size=size)
    term.wait_screen("Move 1")
    assert "\x1b[?1006h" in term.output  # SGR mouse reports asked for
    term.press("i")
    term.wait_screen("Move 2")
    label = {100: "╎   l   ╎", 40: "[l]", 200: "╎     l     ╎"}[size[0]]  # a large terminal's cells are larger
    row, column = term.find(label)
    term.click(row, column + len(label) // 2)
    term.wait_screen("2♣ placed at E4.")
    term.press("q")
    assert term.finish() == 0
    assert "\x1b[?1006l" in term.output  # and turned off again


# --- 3. hint and legend -------------------------------------------------------------------------------------


@pytest.mark.slow  # a pseudo-terminal
def test_the_hint_key_shows_and_marks_the_ranked_moves(terminals: Terminals) -> None:
    from foursquare.players import hint

    best = hint(deal5("D4", "D3").view())
    term = terminals.start("--deal", "5")
    term.wait_screen("Move 1 of 40")
    term.press("ij")
    term.wait_screen("Move 3 of 40")
    term.press("h")
    screen = term.wait_screen("#1", timeout=300)  # may compile the kernel
    side = term.side_text()  # the title, wrapped beside the board
    assert "Best moves, ranked by expected score (score, chance to win):" in side
    first = best[0]
    line = f"1. {first.move.name} [{cell_labels(deal5('D4', 'D3'))[first.move]}] score {first.expected_score:.1f}, win"
    assert line in side
    assert "#1" in screen and "#2" in screen
    assert "Thinking about the best moves" in term.plain  # it said it was thinking meanwhile


@pytest.mark.slow  # a pseudo-terminal
def test_keys_work_while_the_hint_thinks_and_a_stale_hint_is_dropped(terminals: Terminals) -> None:
    term = terminals.start("--deal", "5")
    term.wait_screen("Move 1 of 40")
    term.press("i")
    term.wait_screen("Move 2 of 40")
    term.press("hl")  # the hint for move 2 is asked, then move 2 is played at once
    term.wait_screen("2♣ placed at E4.")
    term.press("?")
    # The help's footer, on every page: under load its first lines were once seen scrolled off (to look into).
    term.wait_screen("other key")
    term.press("\x1b")
    screen = term.wait_screen("Move 3 of 40")
    assert "Best moves" not in screen


@pytest.mark.slow  # a pseudo-terminal
def test_help_explains_every_symbol_and_key(terminals: Terminals) -> None:
    term = terminals.start("--deal", "5", size=(120, 40))
    term.wait_screen("Move 1 of 40")
    term.press("?")
    term.wait_screen("How to play")
    screen = flat("\n".join(term.page_through()))  # the rules come first, then the symbols and the keys
    for words in ("face-down card", "×2", "([k] on the small board)", "the card just placed", "the cursor", "#1 #2",
                  "one more loses", "arrows", "a cell's name", "click a cell", "hint"):
        assert words in screen, words


@pytest.mark.slow  # a pseudo-terminal
def test_help_pages_with_page_up_page_down_home_and_end(terminals: Terminals) -> None:
    term = terminals.start("--deal", "5", size=(40, 12))
    term.wait_screen("Move 1")
    term.press("?")
    first = term.wait_screen("Space/arrows: scroll; other key: back")
    down = term.page_through("\x1b[6~")  # Page Down, to the end
    assert "play continues it)" in down[-1] and len(down) > 3
    since = len(term.output)
    term.press("\x1b[5~")  # Page Up: a page back
    term.wait_frame(since)
    term.read(0.05)
    assert term.display() not in (down[-1], first)
    for home, end in (("\x1b[H", "\x1b[F"), ("\x1b[1~", "\x1b[4~")):  # xterm's and the VT220's forms
        since = len(term.output)
        term.press(home)
        term.wait_frame(since)
        term.read(0.05)
        assert term.display() == first
        since = len(term.output)
        term.press(end)
        term.wait_frame(since)
        term.read(0.05)
        assert term.display() == down[-1]
    term.press("x")  # any other key goes back to the game, with no word about a key it does not know
    screen = term.wait_screen("Place 2♦")
    assert "No cell has the key" not in screen
    term.press("\x1b[6~")
    term.press("q")
    assert term.finish() == 0
    assert "No cell has the key" not in term.plain


@pytest.mark.slow  # a pseudo-terminal
def test_help_scrolls_on_a_small_terminal(terminals: Terminals) -> None:
    term = terminals.start("--deal", "5", size=(40, 12))
    term.wait_screen("Move 1")
    term.press("?")
    term.wait_screen("Space/arrows: scroll; other key: back")
    screen = term.page_through()[-1]  # the whole rules come first: page down to the keys at the end
    assert "play continues it)" in screen
    assert "How to play" not in screen
    term.press("x")
    term.wait_screen("Place 2♦")


def test_play_help_lists_the_in_game_keys() -> None:
    out = cli("play", "--help").stdout
    assert "in-game keys:" in out
    for words in ("arrows", "Enter", "a cell's name", "click", "undo", "hint", "FILE"):
        assert words in out


def test_every_argument_of_every_command_is_described() -> None:
    from foursquare.cli import build_parser

    def undescribed(parser: argparse.ArgumentParser, path: str) -> set[tuple[str, str]]:
        """Every argument of ``parser`` and of its subcommands, at any depth, that has no help."""
        found = set()
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    found |= undescribed(sub, f"{path} {name}".strip())
            if not action.help and action.dest != "help":
                found.add((path, action.dest))
        return found

    assert not undescribed(build_parser(), ""), undescribed(build_parser(), "")


# --- 4. any terminal ----------------------------------------------------------------------------------------


@pytest.mark.slow  # a pseudo-terminal
@pytest.mark.parametrize("size", [(40, 12), (60, 20), (80, 24), (120, 40)])
def test_every_size_shows_the_card_to_place_the_stock_and_the_face_down_count(
    terminals: Terminals, size: tuple[int, int]
) -> None:
    term = terminals.start("--deal", "5", size=size)
    term.wait_screen("Move 1")
    term.press("ij")
    screen = term.wait_screen("Move 3")
    card = "Place 10♦" if size[0] < 80 else "10♦"
    assert card in screen
    assert ("stock 38" in screen and "down 0/4" in screen) or ("Stock: 38" in screen and "Face down: 0 of 4" in screen)
    assert "undo" in screen and "hint" in screen  # the keys line
    lines = screen.splitlines()
    assert len(lines) <= size[1] and all(len(line) <= size[0] for line in lines)


@pytest.mark.slow  # a pseudo-terminal
def test_a_large_terminal_has_the_game_in_its_middle(terminals: Terminals) -> None:
    term = terminals.start("--deal", "5", size=(200, 50))
    term.wait_screen("Move 1")
    term.press("ij")
    screen = term.wait_screen("Move 3")
    top, left = term.find("╭")  # the board's frame
    assert left >= 25 and 4 <= top <= 20, screen  # not in the top left corner
    right = screen.splitlines()[top].index("╮")
    assert right - left + 1 == LARGE.width, screen  # and larger: the cells take 13 columns and 5 lines
    assert "Stock: 38" in flat(screen) and "undo" in screen
    row, column = term.find("u undo")
    assert row > top + BOARD_HEIGHT - 2 and column == left, screen  # the keys under the board, lined up with it
    term.press("q")
    assert term.finish() == 0


@pytest.mark.slow  # a pseudo-terminal
def test_the_layout_follows_the_terminal_when_it_is_resized(terminals: Terminals) -> None:
    term = terminals.start("--deal", "5", size=(100, 32))
    term.wait_screen("Card to place")
    term.resize(40, 12)
    screen = term.wait_screen("Place 2♦")
    assert all(len(line) <= 40 for line in screen.splitlines())
    term.resize(30, 8)
    term.wait_screen("Card to place: 2♦")
    term.resize(120, 40)
    term.wait_screen("Press a cell's key")


@pytest.mark.slow  # a pseudo-terminal
def test_a_terminal_too_small_says_how_large_it_must_be(terminals: Terminals) -> None:
    term = terminals.start("--deal", "5", size=(30, 8))
    screen = term.wait_screen("Card to place: 2♦")
    assert "This terminal is 30 x 8; Foursquare needs at least 37 x 11." in flat(screen)


@pytest.mark.slow  # a pseudo-terminal
@pytest.mark.parametrize("env", [{"PYTHONIOENCODING": "ascii"}, {"LANG": "C", "LC_ALL": "C"}])
def test_ascii_terminals_get_ascii_cards_and_boxes(terminals: Terminals, env: dict[str, str]) -> None:
    term = terminals.start("--deal", "5", size=(80, 24), env=env)
    term.wait_screen("Move 1 of 40")
    term.press("ij")
    screen = term.wait_screen("2C placed at D3.")
    assert "10D" in screen and "+-------+" in screen and "*=======*" in screen
    term.press("?")
    term.wait_screen("How to play")
    term.press("x")
    term.wait_screen("2C placed at D3.")
    assert all(ord(ch) < 128 for ch in term.output)
    term.press("q")
    assert term.finish() == 0


@pytest.mark.slow  # a pseudo-terminal
def test_the_compact_board_in_ascii_shortens_lines_without_unicode(terminals: Terminals) -> None:
    term = terminals.start("--deal", "5", size=(40, 12), env={"PYTHONIOENCODING": "ascii"})
    term.wait_screen("Move 1")
    term.press("ijh")
    term.wait_screen("1.E4", timeout=300)
    term.press("q")
    assert term.finish() == 0
    assert all(ord(ch) < 128 for ch in term.output)


@pytest.mark.parametrize("env", [{"PYTHONIOENCODING": "ascii"}, {"LANG": "C", "LC_ALL": "C"}])
def test_line_mode_and_replay_work_without_unicode(tmp_path: Path, env: dict[str, str]) -> None:
    result = cli("play", "--deal", "5", stdin="D4\nD3\nq\n", env=env)
    assert result.returncode == 0, result.stderr
    assert "placed 2C at D3" in result.stdout
    path = tmp_path / "g.json"
    record.write(deal5("D4", "D3", "E4"), path)
    replayed = cli("replay", str(path), env=env)
    assert replayed.returncode == 0, replayed.stderr


@pytest.mark.slow  # a pseudo-terminal
def test_no_color_still_marks_the_card_just_placed(terminals: Terminals) -> None:
    term = terminals.start("--deal", "5", env={"NO_COLOR": "1"})
    term.wait_screen("Move 1 of 40")
    term.press("ij")
    screen = term.wait_screen("2♣ placed at D3.")
    assert "┃ 2♣" in screen  # the heavy border of the card just placed
    assert "\x1b[3" not in term.output.split("\x1b[?1049h", 1)[1]  # no foreground colour at all


# --- 6. small things ----------------------------------------------------------------------------------------


@pytest.mark.slow  # a pseudo-terminal
def test_the_goodbye_is_not_wrapped_at_80_columns(terminals: Terminals) -> None:
    term = terminals.start("--deal", "12345678901234567890", size=(80, 24))
    term.wait_screen("Move 1 of 40")
    term.press("iq")
    assert term.finish() == 0
    plain = term.plain.replace("\r\n", "\n")
    deal = "12345678901234567890"
    assert f"Or play deal {deal} again from the start with: foursquare play --deal {deal}\n" in plain


def test_bad_ranges_and_delays_are_explained() -> None:
    result = cli("autoplay", "--deals", "-5-3")
    assert result.returncode == 2 and "deal range '-5-3' starts below 0" in result.stderr
    result = cli("autoplay", "--deal", "1", "--delay", "-1")
    assert result.returncode == 2 and "expected 0 or more seconds, not '-1'" in result.stderr


@pytest.mark.slow
def test_bench_counts_one_game_in_the_singular() -> None:
    result = cli("bench", "--deals", "0-0")
    assert result.returncode == 0, result.stderr
    assert "(1 game," in result.stdout


@pytest.mark.slow  # a pseudo-terminal
def test_kept_games_are_valid_records(terminals: Terminals) -> None:
    term = terminals.start("--deal", "5")
    term.wait_screen("Move 1 of 40")
    term.press("ijq")
    assert term.finish() == 0
    [kept] = terminals.kept()
    data = json.loads(kept.read_text())
    assert data["deal"] == 5 and len(data["moves"]) == 2
    assert not [p for p in kept.parent.iterdir() if p.suffix == ".tmp"]  # written atomically: no leftovers
