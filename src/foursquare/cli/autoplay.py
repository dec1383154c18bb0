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
    seed_number,
    variant_of,
)
from foursquare.engine import Game

TEXT = {
    "bad_jobs": "--jobs must be at least 1, not {jobs}",
    "deal_or_deals": "give --deal N to watch one game or --deals A-B to play many",
    "demo_title": "{player} plays deal {deal}",
    "demo_move": "turn {turn:>2}: {card} to {cell}{flips}",
    "demo_flips": ", {n} turned over",
    "demo_end": "{outcome}; {turn} cards played, score {score}",
    "progress": "{player} playing deals {lo}-{hi}",
    "summary": (
        "{player}: {wins}/{games} won ({rate:.1%}, 95% CI {lo:.1%}-{hi:.1%}), mean score {mean:.2f} "
        "(a loss scores 0), {ms:.1f} ms per move, {p95:.1f} ms at the 95th percentile"
    ),
}


def register(sub: Any) -> None:
    p = sub.add_parser("autoplay", help="let an AI player play", description="Let a player play deals.")
    p.add_argument("--player", default="best", help="random, greedy or best (default: best)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--deal", type=deal_number, help="show one game move by move")
    where.add_argument("--deals", type=deal_range, metavar="A-B", help="play deals A to B and report")
    p.add_argument("--seed", type=seed_number, default=0, help="the player's random seed (default 0)")
    p.add_argument("--time", type=positive_float, metavar="S", help="thinking time per move (best player)")
    p.add_argument(
        "--delay", type=non_negative_float, default=0.4, metavar="S", help="pause between moves in the demo (0.4)"
    )
    p.add_argument("--jobs", type=int, default=1, metavar="N", help="processes for --deals (default 1)")
    p.add_argument("--json", action="store_true", help="print a JSON summary")
    add_variant_options(p)
    p.set_defaults(run=run_autoplay)


def run_autoplay(args: argparse.Namespace) -> int:
    """Watch one game (``--deal``) or play many (``--deals``)."""
    from foursquare.players import make_player  # numba: slow to import, so only when needed

    player = make_player(args.player, seed=args.seed, time_budget=args.time)
    if args.jobs < 1:
        raise CommandError(TEXT["bad_jobs"].format(jobs=args.jobs))
    if args.deals is not None:
        return _play_many(args)
    if args.deal is None:
        raise CommandError(TEXT["deal_or_deals"])
    return _watch(args, player)


def _watch(args: argparse.Namespace, player: Any) -> int:
    """One game, move by move: a rich grid with a pause on a terminal, plain text otherwise."""
    import sys

    from rich.console import Console

    from foursquare.cli.render import grid_table, grid_text, unicode_ok
    from foursquare.players import play_game

    console = Console()
    game = Game(deal=args.deal, variant=variant_of(args))
    interactive = console.is_terminal
    console.print(TEXT["demo_title"].format(player=player.name, deal=args.deal), style="bold" if interactive else None)

    def show(g: Game) -> None:
        placement = g.placements[-1]
        flips = TEXT["demo_flips"].format(n=len(placement.flips)) if placement.flips else ""
        line = TEXT["demo_move"].format(
            turn=g.turn, card=placement.card.name, cell=placement.move.name, flips=flips
        )
        if interactive:
            console.print(line, style="cyan", highlight=False)
            console.print(grid_table(g))
            if args.delay > 0:
                time.sleep(args.delay)
        else:
            print(line)
            print(grid_text(g, ascii_only=not unicode_ok(sys.stdout)))
            print()

    result = play_game(player, game, show)
    end = TEXT["demo_end"].format(outcome=game.outcome(), turn=result.moves, score=result.score)
    if interactive:
        console.print(end, style="bold green" if result.won else "bold red", highlight=False)
    else:
        print(end)
    return 0


def _play_many(args: argparse.Namespace) -> int:
    """Deals A to B with a progress bar on stderr, then the summary (text or JSON) on stdout."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from foursquare.players import p95_seconds_per_move, play_deals, results_summary

    lo, hi = args.deals
    deals = range(lo, hi + 1)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(TEXT["progress"].format(player=args.player, lo=lo, hi=hi), total=len(deals))
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
        TEXT["summary"].format(
            player=summary["player"],
            wins=summary["wins"],
            games=summary["games"],
            rate=summary["win_rate"],
            lo=summary["ci95"][0],
            hi=summary["ci95"][1],
            mean=summary["mean_score"],
            ms=summary["seconds_per_move"] * 1000,
            p95=p95_seconds_per_move(results) * 1000,
        )
    )
    return 0
