"""``foursquare stats``: the statistics of the games finished in the terminal.

The figures come from the games database (:mod:`foursquare.store`), where the terminal game records
each game it finishes; they are the web app's statistics (``GET /api/stats``), for the terminal's games.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from foursquare.cli.options import CommandError
from foursquare.cli.parser import OptionError, help_text
from foursquare.i18n import Translator, translator

if TYPE_CHECKING:  # the store and rich load when the statistics are read, not for --help (issue 43)
    from foursquare.store import StoredGame

RECENT_DEFAULT = 10
PLAY = "foursquare play"


def register(sub: Any, t: Translator | None = None) -> None:
    t = t or sub.translator
    p = sub.add_parser("stats", help=help_text(t, "cli.stats.help"), description=t("cli.stats.description", play=PLAY))
    p.add_argument(
        "--db",
        metavar="PATH",
        help=help_text(t, "cli.stats.db.help", file="games.db", play=PLAY, variable="FOURSQUARE_DATA_DIR"),
    )
    p.add_argument(
        "--recent",
        type=recent_count,
        default=RECENT_DEFAULT,
        metavar="N",
        help=help_text(t, "cli.stats.recent.help"),
    )
    p.add_argument("--json", action="store_true", help=help_text(t, "cli.stats.json.help", doc="docs/terminal.md"))
    p.set_defaults(run=run_stats)


def recent_count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise OptionError("cli.stats.recent_not_number", value=repr(text)) from None
    if not 0 <= value <= 1000:
        raise OptionError("cli.stats.recent_range", value=str(value))
    return value


def run_stats(args: argparse.Namespace) -> int:
    from foursquare.store import default_path, is_database_url

    t: Translator = args.translator
    if is_database_url(args.db):  # the web app's database: a path it is not, so say so before it is read as one
        raise CommandError(
            t("cli.stats.database_url", url=args.db, stats="foursquare stats", serve="foursquare serve", option="--db")
        )
    path = Path(args.db).expanduser() if args.db else default_path()
    figures = read_figures(path, args.recent, explicit=args.db is not None, t=t)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print_figures(figures, t)
    return 0


def read_figures(path: Path, recent: int, *, explicit: bool, t: Translator | None = None) -> dict[str, Any]:
    """The terminal player's statistics and recent games in ``path``, which is only read, never created nor changed.

    No database at the default place means no game finished yet (all zero); at a place given with ``--db`` it is
    a mistyped path: a :class:`~foursquare.store.StoreError` (code ``missing``), printed, exit 2.
    """
    import sqlite3

    from foursquare.store import TERMINAL_PLAYER, Store, summarize, summarize_clean

    t = t or translator("en")
    if not explicit and not path.exists() and not path.is_symlink():
        figures = {**summarize([]), "assisted": 0, "clean": summarize_clean([], [])}
        return {"database": str(path), **figures, "recent": []}
    if explicit and not path.parent.is_dir():
        raise CommandError(t("cli.stats.no_directory", path=str(path), directory=str(path.parent)))
    store = Store(path, read_only=True)  # a StoreError (missing, not a database, another format, damaged): exit 2
    try:
        figures = store.stats.of(TERMINAL_PLAYER)
        games = store.games.recent(TERMINAL_PLAYER, recent)
    except sqlite3.Error as exc:
        raise CommandError(t("cli.stats.unreadable", path=str(path), error=str(exc))) from None
    finally:
        store.close()
    del figures["daily"]  # the terminal has no daily deal
    del figures["best_time"], figures["clean"]["best_time"]  # nor times: it records a game once over (play_time)
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


def print_figures(figures: dict[str, Any], t: Translator | None = None) -> None:
    from rich.console import Console

    t = t or translator("en")
    # A terminal's width, or COLUMNS (rich reads it); else 100 columns (a pipe, a file).
    wide = sys.stdout.isatty() or os.environ.get("COLUMNS", "").isdigit()
    console = Console(highlight=False, width=None if wide else 100)
    console.print(t("cli.stats.title", path=figures["database"]), style="bold", markup=False)
    if not figures["played"]:
        console.print(t("cli.stats.no_games", play=PLAY), markup=False)
        return
    console.print(figures_table(figures, t))
    if figures["assisted"]:
        console.print(t("cli.stats.assisted", count=figures["assisted"]), markup=False)
    console.print()
    console.print(t("cli.stats.histogram"), style="bold", markup=False)
    bar = "█" if (sys.stdout.encoding or "").lower().replace("-", "").startswith("utf") else "#"
    lines = histogram_lines(figures["score_histogram"], bar, number=t.number)
    console.print("\n".join(lines) or "  " + t("cli.stats.no_wins"), markup=False)
    if figures["recent"]:
        console.print()
        console.print(recent_table(figures["recent"], t))


def figures_table(figures: dict[str, Any], t: Translator) -> Any:
    from rich.markup import escape
    from rich.table import Table

    clean = figures["clean"]
    none = t("cli.stats.none")
    table = Table(box=None, padding=(0, 2))
    table.add_column("")
    table.add_column(escape(t("cli.stats.col.all")), justify="right")
    table.add_column(escape(t("cli.stats.col.clean")), justify="right")

    def number(value: int | None) -> str:
        return none if value is None else t.number(value)

    rate = t.percent(figures["win_rate"])
    mean = none if figures["mean_score"] is None else t.number(figures["mean_score"], 1)
    rows = [
        ("played", number(figures["played"]), number(clean["played"])),
        ("won", number(figures["won"]), number(clean["won"])),
        ("win_rate", rate, none),
        ("current_streak", number(figures["current_streak"]), number(clean["current_streak"])),
        ("best_streak", number(figures["best_streak"]), number(clean["best_streak"])),
        ("best_score", number(figures["best_score"]), number(clean["best_score"])),
        ("mean_score", mean, none),
    ]
    for key, everything, clean_only in rows:
        table.add_row(escape(t(f"cli.stats.{key}")), everything, clean_only)
    return table


def histogram_lines(
    histogram: list[dict[str, int]], bar: str, width: int = 40, number: Callable[[int], str] = str
) -> list[str]:
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
        lines.append(f"{number(row['score']):>3} {edge} {bars}{number(row['count'])}")
    return lines


def recent_table(games: list[dict[str, Any]], t: Translator) -> Any:
    from rich.markup import escape
    from rich.table import Table

    table = Table(
        title=escape(t("cli.stats.recent")), title_justify="left", title_style="bold", box=None, padding=(0, 2)
    )
    longest_deal = max((len(str(game["deal"])) for game in games if game["deal"] is not None), default=1)
    table.add_column(escape(t("cli.stats.col.date")))
    # A deal number is replayed from here (foursquare play --deal N): never cut, the other columns wrap instead.
    table.add_column(escape(t("cli.stats.col.deal")), no_wrap=True, min_width=longest_deal)
    table.add_column(escape(t("cli.stats.col.outcome")))
    table.add_column(escape(t("cli.stats.col.score")), justify="right")
    table.add_column("")
    none = t("cli.stats.none")
    for game in games:
        won = game["outcome"] == "won"
        key = "cli.stats.outcome.won" if won else f"cli.stats.outcome.{game['reason']}"
        outcome = t(key) if t.has(key) else str(game["outcome"])
        table.add_row(
            escape(_when(game["finished_at"], t)),
            escape(t("cli.stats.own_stock")) if game["deal"] is None else str(game["deal"]),
            escape(outcome),
            t.number(game["score"]) if won else none,
            escape(t("cli.stats.assisted_mark")) if game["assisted"] else "",
        )
    return table


def _when(finished_at: str | None, t: Translator) -> str:
    """When a game ended, to the minute, in UTC: ``2026-12-01 05:25``, in the language's digits."""
    when = (finished_at or "")[:16].replace("T", " ")
    return "".join(t.number(int(c)) if c.isdigit() else c for c in when)
