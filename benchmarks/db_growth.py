"""How big the games database grows: bytes per stored game of each kind, and per active player.

    .venv/bin/python benchmarks/db_growth.py            # 1,000 games of each kind, analyses of 8 real games
    .venv/bin/python benchmarks/db_growth.py 5000 12    # more games, more analysed games

Real games first: the ``best`` and the ``greedy`` players take turns on random deals (seeded: the same deals
every run; the best player mostly wins, in some 20 moves, the greedy one mostly loses, in up to 40), and
``analysis.analyze`` analyses each, as ``GET /api/games/{id}/analysis`` would. Then, for each kind of game, a new
database gets that many games through the store's own methods, as the server stores them: the real games in
turn, their deals hidden, for 40 players with cookie-sized ids, the moves in one change each. The kinds:

- never played (a first visit's game, which the purges delete after an hour);
- live, half-played (the first half of a real game's moves);
- finished, without its analysis;
- finished, with its analysis cached.

Each database is checkpointed (its write-ahead log folded in) and measured by its pages (``page_count`` ×
``page_size``), less an empty database's; the bytes of the ``games`` table and of each index come from SQLite's
``dbstat`` table when SQLite has it. Then the growth of an active player: three games a day, each finished and
analysed, and at most their cap of live games.

Bytes, not seconds: the figures depend on the games played and analysed, not on the machine.
"""

from __future__ import annotations

import json
import random
import secrets
import sqlite3
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from foursquare.analysis import analyze
from foursquare.cards import MAX_DEAL
from foursquare.engine import Game, Move, Variant
from foursquare.players import make_player, play_game
from foursquare.store import Store
from foursquare.web.retention import RetentionSettings

PLAYERS = 40
GAMES_A_DAY = 3
LIVE_GAMES_CAP = RetentionSettings().live_games  # the server's default cap (FOURSQUARE_LIVE_GAMES)


def real_games(count: int) -> list[tuple[Game, dict[str, Any]]]:
    """``count`` games, half by the best player and half by the greedy one, each with its analysis."""
    games = []
    deals = random.Random(0)
    for index in range(count):
        name = ("best", "greedy")[index % 2]
        game = Game(deal=deals.randrange(MAX_DEAL))  # a random deal's number, as long as the server's
        play_game(make_player(name, seed=index), game)
        games.append((game, analyze(game, seed=0)))
        print(f"  {name}: {game.outcome().status} in {len(game.moves)} moves", file=sys.stderr)
    return games


def play(moves: Sequence[Move]) -> Callable[[Game, object], None]:
    def apply(game: Game, _: object) -> None:
        for move in moves:
            game.place(move.row, move.col)

    return apply


def fill(path: Path, kind: str, count: int, games: list[tuple[Game, dict[str, Any]]]) -> None:
    """``count`` games of ``kind`` in the database at ``path``, each after one of ``games`` in turn."""
    store = Store(path)
    players = [secrets.token_urlsafe(16) for _ in range(PLAYERS)]
    for index in range(count):
        game, analysis = games[index % len(games)]
        stored = store.games.create(players[index % PLAYERS], deal=game.deal, variant=Variant(), hidden=True)
        if kind == "never played":
            continue
        moves = game.moves if kind.startswith("finished") else game.moves[: len(game.moves) // 2]
        store.games.change(stored.id, play(moves))
        if kind == "finished, analysed":
            store.games.save_analysis(stored.id, analysis)
    store.close()


def size(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages: int = conn.execute("PRAGMA page_count").fetchone()[0]
        page_size: int = conn.execute("PRAGMA page_size").fetchone()[0]
    return pages * page_size


def parts(path: Path) -> dict[str, int]:
    """Bytes of the ``games`` table and of each of its indexes over one page (SQLite's ``dbstat``), or nothing
    when this SQLite lacks it."""
    try:
        with sqlite3.connect(path) as conn:
            rows = conn.execute(
                "SELECT name, sum(pgsize) FROM dbstat"
                " WHERE name IN (SELECT name FROM sqlite_schema WHERE tbl_name = 'games')"
                " GROUP BY name HAVING count(*) > 1 ORDER BY 2 DESC"
            ).fetchall()
    except sqlite3.OperationalError:
        return {}
    return {name: int(total) for name, total in rows}


def main(count: int, analysed: int) -> None:
    print(f"analysing {analysed} real games…", file=sys.stderr)
    games = real_games(analysed)
    mean_moves = sum(len(g.moves) for g, _ in games) / len(games)
    mean_analysis = sum(len(json.dumps(a, separators=(",", ":"))) for _, a in games) / len(games)
    print(f"{analysed} real games: {mean_moves:.1f} moves and {mean_analysis:,.0f} bytes of analysis JSON on average")
    print(f"{count} games of each kind; bytes a game in all, then in the table and each index:")
    per_game: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as scratch:
        empty = Path(scratch) / "empty.db"
        Store(empty).close()
        base = size(empty)
        for kind in ("never played", "live, half-played", "finished", "finished, analysed"):
            path = Path(scratch) / f"{kind.replace(' ', '_').replace(',', '')}.db"
            fill(path, kind, count, games)
            per_game[kind] = (size(path) - base) / count
            breakdown = ", ".join(f"{name} {total / count:,.0f}" for name, total in parts(path).items())
            print(f"{kind:>18}: {per_game[kind]:7,.0f} bytes a game" + (f" ({breakdown})" if breakdown else ""))
    day = GAMES_A_DAY * per_game["finished, analysed"]
    live = LIVE_GAMES_CAP * per_game["live, half-played"]
    print(
        f"an active player, {GAMES_A_DAY} games a day, each finished and analysed: {day / 1024:,.1f} KiB a day, "
        f"{day * 365 / 1024**2:,.1f} MiB a year; their live games at most {live / 1024:,.0f} KiB "
        f"({LIVE_GAMES_CAP} half-played, until 30 days untouched)"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000, int(sys.argv[2]) if len(sys.argv) > 2 else 8)
