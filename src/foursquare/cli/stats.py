"""``foursquare stats``: the statistics of the games finished in the terminal.

The figures come from the games database (:mod:`foursquare.store`), where the terminal game records
each game it finishes; they are the web app's statistics (``GET /api/stats``), for the terminal's games.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from pathlib import Path
from typing import Any

from foursquare.cli.options import CommandError
from foursquare.store import (
    TERMINAL_PLAYER,
    Store,
    StoredGame,
    default_path,
    summarize,
    summarize_clean,
)

TEXT = {
    "title": "Foursquare statistics: the games finished in the terminal ({path})",
    "no_games": "No finished game yet: play one with foursquare play.",
    "col_figure": "",
    "col_all": "all games",
    "col_clean": "clean games",
    "played": "Played",
    "won": "Won",
    "win_rate": "Win rate",
    "current_streak": "Current streak",
    "best_streak": "Best streak",
    "best_score": "Best score",
    "mean_score": "Mean score",
    "assisted": "Assisted games: {count} (a card taken back, a start over or a hint); the clean figures leave them "
    "out, and an assisted game ends a clean streak.",
    "histogram": "Scores of the games won",
    "no_wins": "  (no game won yet)",
    "recent": "Recent games",
    "col_date": "ended (UTC)",
    "col_deal": "deal",
    "col_outcome": "outcome",
    "col_score": "score",
    "col_assisted": "",
    "assisted_mark": "assisted",
    "stock_deal": "own stock",
    "won_outcome": "won",
    "lost_too_many_face_down": "lost: more than 4 face down",
    "lost_stock_empty": "lost: stock ran out",
    "none": "-",
    "no_directory": "cannot read the database {path}: the directory {directory} does not exist",
    "unreadable": "cannot read the database {path}: {error}",
}

RECENT_DEFAULT = 10


def register(sub: Any) -> None:
    p = sub.add_parser(
        "stats",
        help="your statistics over the games finished in the terminal",
        description="Show the statistics of the games finished in the terminal (foursquare play): played, won, "
        "streaks, scores, the recent games. Games with a card taken back, a start over or a hint are assisted: "
        "the clean figures leave them out.",
    )
    p.add_argument(
        "--db",
        metavar="PATH",
        help="the games database (default: games.db in the data directory, where foursquare play records "
        "its games; FOURSQUARE_DATA_DIR moves it)",
    )
    p.add_argument(
        "--recent", type=recent_count, default=RECENT_DEFAULT, metavar="N", help="how many recent games to list"
    )
    p.add_argument("--json", action="store_true", help="print the figures as JSON (keys: docs/terminal.md)")
    p.set_defaults(run=run_stats)


def recent_count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of games, not {text!r}") from None
    if not 0 <= value <= 1000:
        raise argparse.ArgumentTypeError(f"the number of recent games must be 0 to 1000, not {value}")
    return value


def run_stats(args: argparse.Namespace) -> int:
    path = Path(args.db).expanduser() if args.db else default_path()
    figures = read_figures(path, args.recent, explicit=args.db is not None)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print_figures(figures)
    return 0


def read_figures(path: Path, recent: int, *, explicit: bool) -> dict[str, Any]:
    """The terminal player's statistics and recent games in ``path`` (no database yet: all zero)."""
    if not path.exists() and not path.is_symlink():
        if explicit and not path.parent.is_dir():
            raise CommandError(TEXT["no_directory"].format(path=path, directory=path.parent))
        figures = {**summarize([]), "assisted": 0, "clean": summarize_clean([], [])}
        return {"database": str(path), **figures, "recent": []}
    store = Store(path)  # a StoreError (not a database, another format, damaged) is printed, exit 2
    try:
        figures = store.stats(TERMINAL_PLAYER)
        games = store.recent_games(TERMINAL_PLAYER, recent)
    except sqlite3.Error as exc:
        raise CommandError(TEXT["unreadable"].format(path=path, error=exc)) from None
    finally:
        store.close()
    del figures["daily"]  # the terminal has no daily deal
    return {"database": str(path), **figures, "recent": [recent_json(game) for game in games]}


def recent_json(game: StoredGame) -> dict[str, Any]:
    return {
        "id": game.id,
        "finished_at": game.finished_at,
        "deal": game.visible_deal,
        "variant": game.variant.to_json(),
        "outcome": game.outcome,
        "reason": game.reason,
        "score": game.score,
        "cards_placed": game.turn,
        "assisted": game.assisted,
    }


# --- the text -----------------------------------------------------------------------------------------------


def print_figures(figures: dict[str, Any]) -> None:
    from rich.console import Console

    console = Console(highlight=False, width=None if sys.stdout.isatty() else 100)
    console.print(TEXT["title"].format(path=figures["database"]), style="bold", markup=False)
    if not figures["played"]:
        console.print(TEXT["no_games"])
        return
    console.print(figures_table(figures))
    if figures["assisted"]:
        console.print(TEXT["assisted"].format(count=figures["assisted"]), markup=False)
    console.print()
    console.print(TEXT["histogram"], style="bold")
    bar = "█" if (sys.stdout.encoding or "").lower().replace("-", "").startswith("utf") else "#"
    console.print("\n".join(histogram_lines(figures["score_histogram"], bar)) or TEXT["no_wins"], markup=False)
    if figures["recent"]:
        console.print()
        console.print(recent_table(figures["recent"]))


def figures_table(figures: dict[str, Any]) -> Any:
    from rich.table import Table

    clean = figures["clean"]
    table = Table(box=None, padding=(0, 2))
    table.add_column(TEXT["col_figure"])
    table.add_column(TEXT["col_all"], justify="right")
    table.add_column(TEXT["col_clean"], justify="right")
    rate = f"{figures['win_rate']:.0%}"
    mean = TEXT["none"] if figures["mean_score"] is None else f"{figures['mean_score']:.1f}"
    rows = [
        ("played", str(figures["played"]), str(clean["played"])),
        ("won", str(figures["won"]), str(clean["won"])),
        ("win_rate", rate, TEXT["none"]),
        ("current_streak", str(figures["current_streak"]), str(clean["current_streak"])),
        ("best_streak", str(figures["best_streak"]), str(clean["best_streak"])),
        ("best_score", _number(figures["best_score"]), _number(clean["best_score"])),
        ("mean_score", mean, TEXT["none"]),
    ]
    for key, everything, clean_only in rows:
        table.add_row(TEXT[key], everything, clean_only)
    return table


def _number(value: int | None) -> str:
    return TEXT["none"] if value is None else str(value)


def histogram_lines(histogram: list[dict[str, int]], bar: str, width: int = 40) -> list[str]:
    """One line per score from the lowest to the highest won: ``  7 │████ 2``; none when nothing was won.

    >>> histogram_lines([{"score": 0, "count": 0}, {"score": 1, "count": 2}, {"score": 2, "count": 0},
    ...                  {"score": 3, "count": 1}], "#")
    ['  1 | ## 2', '  2 | 0', '  3 | # 1']
    """
    counted = [row for row in histogram if row["count"]]
    if not counted:
        return []
    most = max(row["count"] for row in counted)
    low, high = counted[0]["score"], counted[-1]["score"]
    edge = "|" if bar == "#" else "│"
    lines = []
    for row in histogram[low : high + 1]:
        length = round(row["count"] * width / most) if most > width else row["count"]
        if row["count"] and not length:
            length = 1
        bars = bar * length + " " if length else ""
        lines.append(f"{row['score']:>3} {edge} {bars}{row['count']}")
    return lines


def recent_table(games: list[dict[str, Any]]) -> Any:
    from rich.table import Table

    table = Table(title=TEXT["recent"], title_justify="left", title_style="bold", box=None, padding=(0, 2))
    for column in ("col_date", "col_deal", "col_outcome"):
        table.add_column(TEXT[column])
    table.add_column(TEXT["col_score"], justify="right")
    table.add_column(TEXT["col_assisted"])
    for game in games:
        when = (game["finished_at"] or "")[:16].replace("T", " ")
        deal = TEXT["stock_deal"] if game["deal"] is None else str(game["deal"])
        won = game["outcome"] == "won"
        outcome = TEXT["won_outcome"] if won else TEXT.get(f"lost_{game['reason']}", game["outcome"])
        score = str(game["score"]) if won else TEXT["none"]
        table.add_row(when, deal, outcome, score, TEXT["assisted_mark"] if game["assisted"] else "")
    return table
