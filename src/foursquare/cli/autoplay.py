"""``foursquare autoplay``: watch a computer player play one deal, or measure it over many."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from foursquare.cli.options import (
    CommandError,
    add_variant_options,
    deal_number,
    deal_range,
    non_negative_float,
    positive_float,
    positive_int,
    seed_number,
    variant_of,
)
from foursquare.cli.parser import help_text
from foursquare.cli.records import outcome_text
from foursquare.engine import Game
from foursquare.i18n import Translator


def register(sub: Any, t: Translator | None = None) -> None:
    t = t or sub.translator
    p = sub.add_parser("autoplay", help=help_text(t, "cli.autoplay.help"), description=t("cli.autoplay.description"))
    p.add_argument(
        "--player",
        default="best",
        help=help_text(t, "cli.autoplay.player.help", random="random", greedy="greedy", best="best"),
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument("--deal", type=deal_number, help=help_text(t, "cli.autoplay.deal.help"))
    where.add_argument("--deals", type=deal_range, metavar="A-B", help=help_text(t, "cli.autoplay.deals.help"))
    p.add_argument("--seed", type=seed_number, default=0, help=help_text(t, "cli.autoplay.seed.help"))
    p.add_argument("--time", type=positive_float, metavar="S", help=help_text(t, "cli.autoplay.time.help"))
    p.add_argument(
        "--delay", type=non_negative_float, default=0.4, metavar="S", help=help_text(t, "cli.autoplay.delay.help")
    )
    p.add_argument(
        "--jobs",
        type=positive_int,
        default=1,
        metavar="N",
        help=help_text(t, "cli.autoplay.jobs.help", deals="--deals"),
    )
    p.add_argument("--json", action="store_true", help=help_text(t, "cli.autoplay.json.help"))
    add_variant_options(p)
    p.set_defaults(run=run_autoplay)


def run_autoplay(args: argparse.Namespace) -> int:
    """Watch one game (``--deal``) or play many (``--deals``)."""
    from foursquare.players import PLAYER_NAMES, make_player  # numba: slow to import, so only when needed

    t: Translator = args.translator
    if args.player not in PLAYER_NAMES:
        raise CommandError(t("cli.player.unknown", name=repr(args.player), choices=", ".join(PLAYER_NAMES)))
    player = make_player(args.player, seed=args.seed, time_budget=args.time)
    if args.deals is not None:
        return _play_many(args)
    if args.deal is None:
        raise CommandError(t("cli.autoplay.deal_or_deals", deal="--deal N", deals="--deals A-B"))
    return _watch(args, player)


def _watch(args: argparse.Namespace, player: Any) -> int:
    """One game, move by move: a rich grid with a pause on a terminal, plain text otherwise."""
    import sys

    from rich.console import Console

    from foursquare.cli.render import grid_table
    from foursquare.grid_text import grid_text, unicode_ok
    from foursquare.players import play_game

    t: Translator = args.translator
    console = Console()
    game = Game(deal=args.deal, variant=variant_of(args))
    interactive = console.is_terminal
    title = t("cli.autoplay.demo_title", player=player.name, deal=str(args.deal))
    console.print(title, style="bold" if interactive else None, markup=False)

    def show(g: Game) -> None:
        placement = g.placements[-1]
        flips = t("cli.autoplay.demo_flips", count=len(placement.flips)) if placement.flips else ""
        turn = t.number(g.turn).rjust(2)
        line = t("cli.autoplay.demo_move", turn=turn, card=placement.card.name, cell=placement.move.name, flips=flips)
        if interactive:
            console.print(line, style="cyan", highlight=False, markup=False)
            console.print(grid_table(g))
            if args.delay > 0:
                time.sleep(args.delay)
        else:
            print(line)
            print(grid_text(g, ascii_only=not unicode_ok(sys.stdout)))
            print()

    result = play_game(player, game, show)
    end = t("cli.autoplay.demo_end", outcome=outcome_text(game.outcome(), t), count=result.moves, score=result.score)
    if interactive:
        console.print(end, style="bold green" if result.won else "bold red", highlight=False, markup=False)
    else:
        print(end)
    return 0


def _play_many(args: argparse.Namespace) -> int:
    """Deals A to B with a progress bar on stderr, then the summary (text or JSON) on stdout."""
    from rich.console import Console
    from rich.markup import escape
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    from foursquare.cli.progress import CountColumn
    from foursquare.players import p95_seconds_per_move, play_deals, results_summary

    t: Translator = args.translator
    lo, hi = args.deals
    deals = range(lo, hi + 1)
    columns = (TextColumn("{task.description}"), BarColumn(), CountColumn(t), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        description = t("cli.autoplay.progress", player=args.player, deals=f"{lo}-{hi}")
        task = progress.add_task(escape(description), total=len(deals))
        results = play_deals(
            args.player,
            deals,
            seed=args.seed,
            time_budget=args.time,
            variant=variant_of(args),
            jobs=args.jobs,
            progress=lambda: progress.advance(task),
        )
    summary = results_summary(args.player, results)
    if args.json:
        print(json.dumps(summary))
        return 0
    print(
        t(
            "cli.autoplay.summary",
            player=summary["player"],
            wins=summary["wins"],
            games=summary["games"],
            rate=t.percent(summary["win_rate"], 1),
            low=t.percent(summary["ci95"][0], 1),
            high=t.percent(summary["ci95"][1], 1),
            mean=t.number(summary["mean_score"], 2),
            ms=t.number(summary["seconds_per_move"] * 1000, 1),
            p95=t.number(p95_seconds_per_move(results) * 1000, 1),
        )
    )
    return 0
