"""Statistics of the terminal game: each finished game recorded once in the games database, ``foursquare stats``.

The games are played as a player plays them, on a pseudo-terminal (:mod:`pty_support`); the figures are read
back through ``foursquare stats`` in a subprocess and checked against figures worked out by hand.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len

from foursquare.engine import Game, Move
from foursquare.store import TERMINAL_PLAYER, Store
from foursquare.tui.keys import CellKeys
from test_api import WINS, play_line
from test_play import greedy_game
from test_terminal_game import Terminals, cli, terminals
from web_support import as_player

__all__ = ["terminals"]

STATS_KEYS = {
    "database", "played", "won", "lost", "win_rate", "current_streak", "best_streak", "best_score", "mean_score",
    "score_histogram", "assisted", "clean", "recent",
}  # fmt: skip
RECENT_KEYS = {"id", "finished_at", "deal", "variant", "outcome", "reason", "score", "cards_placed", "assisted"}


def stats_json(*args: str, data_dir: Path) -> dict[str, Any]:
    result = cli("stats", "--json", *args, env={"FOURSQUARE_DATA_DIR": str(data_dir)})
    assert result.returncode == 0, result.stderr
    figures: dict[str, Any] = json.loads(result.stdout)
    return figures


def line(deal: int) -> Game:
    """A whole game of ``deal``: the winning line of the API tests, or the engine's greedy play (which loses)."""
    if deal in WINS:
        game = Game(deal=deal)
        for row, col in WINS[deal][1]:
            game.place(row, col)
        return game
    return greedy_game(deal)


def keys_for(game: Game, start: int = 0, stop: int | None = None) -> list[str]:
    """The keys a player presses to play ``game``'s moves ``start`` to ``stop`` (the cells' one-key labels)."""
    keys = CellKeys.replayed(Game(deal=game.deal))
    replay = Game(deal=game.deal)
    pressed = []
    for index, move in enumerate(game.moves[:stop]):
        label = keys.update(replay)[move]
        if index >= start:
            pressed.append(label)
        replay.place(*move)
    return pressed


def test_stats_of_an_empty_database(tmp_path: Path) -> None:
    env = {"FOURSQUARE_DATA_DIR": str(tmp_path)}
    text = cli("stats", env=env)
    assert text.returncode == 0 and "No finished game yet" in text.stdout
    figures = stats_json(data_dir=tmp_path)
    assert set(figures) == STATS_KEYS
    assert figures["database"] == str(tmp_path / "games.db")
    assert (figures["played"], figures["won"], figures["win_rate"], figures["best_score"]) == (0, 0, 0.0, None)
    assert figures["recent"] == [] and figures["clean"]["played"] == 0
    assert not (tmp_path / "games.db").exists()  # reading the figures creates nothing
    Store(tmp_path / "made.db").close()
    assert stats_json("--db", str(tmp_path / "made.db"), data_dir=tmp_path)["played"] == 0


def test_bad_databases_are_refused_untouched(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"not a database at all" * 100)
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (text TEXT)")
        conn.execute("INSERT INTO notes VALUES ('keep me')")
    conn.close()
    before = {path: path.read_bytes() for path in (garbage, other)}
    for path, words in ((garbage, "not a readable Foursquare database"), (other, "not a Foursquare one")):
        result = cli("stats", "--db", str(path))
        assert result.returncode == 2 and words in result.stderr and "Traceback" not in result.stderr
    url = "postgresql://play@db.example.org/foursquare"  # the web app's database: not read as a path
    for args, words in ((["--db", str(tmp_path / "no" / "games.db")], "does not exist"),
                        (["--db", str(tmp_path)], "is a directory"),
                        (["--db", url], f"cannot read {url}: foursquare stats reads the terminal's games"),
                        (["--lang", "hr", "--db", url], f"čitati {url}: foursquare stats čita igre")):  # fmt: skip
        result = cli("stats", *args)
        assert result.returncode == 2 and words in result.stderr and "Traceback" not in result.stderr, result.stderr
    assert {path: path.read_bytes() for path in before} == before


def test_recording_a_game_again_never_counts_it_twice(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.db")
    game = line(1)
    half = Game(deal=1)
    for move in game.moves[:5]:
        half.place(*move)
    store.games.record("terminal-a", TERMINAL_PLAYER, half, hidden=True, assisted=True)  # a hint, mid-game
    assert store.stats.of(TERMINAL_PLAYER)["played"] == 0  # not finished: not counted
    for _ in range(2):
        stored = store.games.record("terminal-a", TERMINAL_PLAYER, game, hidden=True, assisted=False)
    assert stored.assisted and stored.outcome == "won" and stored.score == 24
    taken_back = game.copy()
    taken_back.undo()
    store.games.record("terminal-a", TERMINAL_PLAYER, taken_back, hidden=True, assisted=True)
    figures = store.stats.of(TERMINAL_PLAYER)
    assert (figures["played"], figures["won"], figures["assisted"]) == (1, 1, 1)  # the result stands
    assert store.games.recent(TERMINAL_PLAYER, 5)[0].visible_deal == 1
    assert store.stats.of("someone-on-the-web")["played"] == 0
    store.close()


@pytest.mark.slow  # a pseudo-terminal
def test_finished_terminal_games_are_counted_once(terminals: Terminals) -> None:
    data = terminals.data_dir
    won_1, lost_4, won_2 = line(1), line(4), line(2)

    term = terminals.start("--deal", "1")  # A: won, clean
    term.wait_screen("Move 1 of 40")
    term.press("".join(keys_for(won_1)))
    screen = term.wait_screen("YOU WON!")
    assert "Your statistics: foursquare stats" in screen
    term.press("q")
    assert term.finish() == 0
    assert "Your statistics: foursquare stats" in term.plain

    term = terminals.start("--deal", "4")  # B: lost, clean
    term.wait_screen("Move 1 of 40")
    term.press("".join(keys_for(lost_4)))
    term.wait_screen("LOST")
    term.press("q")
    assert term.finish() == 0

    term = terminals.start("--deal", "2")  # C: won after an undo (assisted); a card taken back after the end
    term.wait_screen("Move 1 of 40")
    term.press("".join(keys_for(won_2, 0, 3)))
    term.wait_screen("Move 4 of 40")
    term.press("u")
    term.wait_screen("Took back")
    term.press("r")
    term.wait_screen("Redone")
    term.press("".join(keys_for(won_2, 3)))
    term.wait_screen("YOU WON!")
    term.press("u")
    term.wait_screen("Took back")
    term.press("r")
    term.wait_screen("YOU WON!")
    term.press("q")
    assert term.finish() == 0

    term = terminals.start("--deal", "1")  # D: left half-way, continued later, won: counted once
    term.wait_screen("Move 1 of 40")
    term.press("".join(keys_for(won_1, 0, 8)))
    term.wait_screen("Move 9 of 40")
    term.press("q")
    assert term.finish() == 0
    assert stats_json(data_dir=data)["played"] == 3
    kept = max(terminals.kept(), key=lambda path: path.stat().st_mtime)
    term = terminals.start()  # continued as the game offers it
    term.wait_screen("Continue your unfinished game")
    term.press("y")
    term.wait_screen("Move 9 of 40")
    term.press("".join(keys_for(won_1, 8)))
    term.wait_screen("YOU WON!")
    term.press("q")
    assert term.finish() == 0
    term = terminals.start(str(kept))  # over already: nothing new to count
    term.wait_screen("YOU WON!")
    term.press("q")
    assert term.finish() == 0

    figures = stats_json(data_dir=data)
    assert set(figures) == STATS_KEYS
    # By hand: A won 24, B lost, C won 24 (assisted), D won 24.
    assert (figures["played"], figures["won"], figures["lost"], figures["assisted"]) == (4, 3, 1, 1)
    assert figures["win_rate"] == 0.75 and figures["mean_score"] == 18.0 and figures["best_score"] == 24
    assert (figures["current_streak"], figures["best_streak"]) == (2, 2)
    assert [row["count"] for row in figures["score_histogram"]] == [0] * 24 + [3]
    assert figures["clean"] == {"played": 3, "won": 2, "current_streak": 1, "best_streak": 1, "best_score": 24}
    recent = figures["recent"]
    assert all(set(game) == RECENT_KEYS for game in recent)
    assert [(g["deal"], g["outcome"], g["score"], g["assisted"]) for g in recent] == [
        (1, "won", 24, False), (2, "won", 24, True), (4, "lost", 0, False), (1, "won", 24, False),
    ]  # fmt: skip
    assert recent[2]["reason"] == "too_many_face_down" and recent[2]["cards_placed"] == 35

    text = cli("stats", env={"FOURSQUARE_DATA_DIR": str(data)})
    assert text.returncode == 0, text.stderr
    out = text.stdout
    for words in ("Played", "Win rate", "75%", "Best streak", "18.0", "Assisted games: 1", "Recent games",
                  "lost: more than 4 face down", "assisted"):  # fmt: skip
        assert words in out, out
    assert " 24 │ ███ 3" in out or " 24 | ### 3" in out


@pytest.mark.slow  # a pseudo-terminal
def test_a_game_that_cannot_be_counted_still_plays_and_the_database_is_untouched(terminals: Terminals) -> None:
    terminals.data_dir.mkdir(parents=True)
    database = terminals.data_dir / "games.db"
    database.write_bytes(b"my precious notes")
    term = terminals.start("--deal", "1")
    term.wait_screen("Move 1 of 40")
    term.press("".join(keys_for(line(1))))
    screen = term.wait_screen("YOU WON!")
    assert "not counted in your statistics" in screen
    term.press("q")
    assert term.finish() == 0
    assert database.read_bytes() == b"my precious notes"
    assert cli("stats", env={"FOURSQUARE_DATA_DIR": str(terminals.data_dir)}).returncode == 2


def test_move_names_of_the_lines_are_legal() -> None:
    assert all(isinstance(move, Move) for move in line(4).moves) and line(4).outcome().status == "lost"


@pytest.mark.slow  # a pseudo-terminal
def test_a_hint_marks_the_game_assisted(terminals: Terminals) -> None:
    term = terminals.start("--deal", "1")
    term.wait_screen("Move 1 of 40")
    term.press("h")
    term.wait_screen("Best moves")
    term.press("".join(keys_for(line(1))))
    term.wait_screen("YOU WON!")
    term.press("q")
    assert term.finish() == 0
    figures = stats_json(data_dir=terminals.data_dir)
    assert (figures["played"], figures["won"], figures["assisted"], figures["clean"]["played"]) == (1, 1, 1, 0)
    assert figures["recent"][0]["assisted"] is True


# --- the leftovers of hint and analyze (cli/coach.py) --------------------------------------------------------


def test_analyze_of_an_unfinished_game_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "half.json"
    game = Game(deal=1)
    game.place(0, 0)
    from foursquare import record

    record.write(game, path)
    result = cli("analyze", str(path))
    assert result.returncode == 2 and str(path) in result.stderr and "not over" in result.stderr
    assert "Traceback" not in result.stderr


def test_hint_and_analyze_help_describe_every_argument() -> None:
    for command in ("hint", "analyze"):
        out = " ".join(cli(command, "--help").stdout.split())
        assert "RECORD a game record" in out or "RECORD the game record" in out
        assert "--json print the" in out and "--seed SEED seed of the random futures" in out


def test_the_web_app_and_the_terminal_share_one_database(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from foursquare.web import create_app

    path = tmp_path / "games.db"
    store = Store(path)
    store.games.record("terminal-x", TERMINAL_PLAYER, line(1), hidden=False, assisted=False)
    store.close()
    with TestClient(create_app(path)) as client:
        as_player(client)
        assert client.get("/api/stats").json()["played"] == 0  # a web player sees only their own games
        play_line(client, 1, WINS[1][1])
        assert client.get("/api/stats").json()["won"] == 1
    figures = stats_json("--db", str(path), data_dir=tmp_path)
    assert (figures["played"], figures["won"]) == (1, 1)
    assert [game["id"] for game in figures["recent"]] == ["terminal-x"]


def test_play_help_points_to_the_statistics() -> None:
    assert "foursquare stats" in cli("play", "--help").stdout


@pytest.mark.parametrize("lang", ["en", "bn"])
def test_recent_deal_numbers_are_never_cut_at_80_columns(tmp_path: Path, lang: str) -> None:
    store = Store(tmp_path / "games.db")
    for deal in (2**64 - 1, 98846506648327712):
        store.games.record(f"g{deal}", TERMINAL_PLAYER, greedy_game(deal), hidden=False, assisted=True)
    store.close()
    result = cli("stats", "--db", str(tmp_path / "games.db"), "--lang", lang, env={"COLUMNS": "80"})
    assert result.returncode == 0, result.stderr
    assert max(cell_len(line) for line in result.stdout.splitlines()) <= 80
    assert "18446744073709551615" in result.stdout and "98846506648327712" in result.stdout
