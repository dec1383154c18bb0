"""``foursquare autoplay``: watch a computer player play one deal, or measure it over many.

Every option given is honoured or refused: ``--delay`` is for the one game, ``--jobs`` for many, ``--time`` for
the player that thinks (best), ``--seed`` for those that draw at random (best, random).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from foursquare import record
from foursquare.cli.options import (
    CommandError,
    add_variant_options,
    deal_number,
    deal_range,
    non_negative_seconds,
    positive_seconds,
    seed_number,
    variant_of,
    whole_number_up_to,
)
from foursquare.cli.parser import help_text
from foursquare.cli.records import outcome_text
from foursquare.cli.signals import end_workers
from foursquare.engine import Game
from foursquare.i18n import Translator

#: The most processes ``--jobs`` starts (each loads the compiled kernel).
MAX_JOBS = 64
DEFAULT_DELAY = 0.4
#: The options each player makes use of (``--time``: thinking time; ``--seed``: its random draws).
PLAYER_OPTIONS = {"random": ("--seed",), "greedy": (), "best": ("--seed", "--time"), "expert": ("--seed",)}


def register(sub: Any, t: Translator | None = None) -> None:
    t = t or sub.translator
    p = sub.add_parser("autoplay", help=help_text(t, "cli.autoplay.help"), description=t("cli.autoplay.description"))
    p.add_argument(
        "--player",
        default="best",
        help=help_text(t, "cli.autoplay.player.help", random="random", greedy="greedy", best="best", expert="expert"),
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument("--deal", type=deal_number, help=help_text(t, "cli.autoplay.deal.help"))
    where.add_argument("--deals", type=deal_range, metavar="A-B", help=help_text(t, "cli.autoplay.deals.help"))
    p.add_argument("--seed", type=seed_number, help=help_text(t, "cli.autoplay.seed.help"))
    p.add_argument("--time", type=positive_seconds, metavar="S", help=help_text(t, "cli.autoplay.time.help"))
    p.add_argument(
        "--delay", type=non_negative_seconds, metavar="S", help=help_text(t, "cli.autoplay.delay.help")
    )
    p.add_argument(
        "--jobs",
        type=whole_number_up_to(MAX_JOBS),
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
    if args.player == "expert":  # the solver judges its candidates
        from foursquare.cli.extras import require_extra

        require_extra("solver", "foursquare autoplay --player expert", t)
    _refuse_what_is_ignored(args, t)
    if args.deals is not None:
        return _play_many(args)
    player = make_player(args.player, seed=_seed(args), time_budget=args.time)
    if args.json:
        return _game_json(args, player)
    return _watch(args, player)


def _refuse_what_is_ignored(args: argparse.Namespace, t: Translator) -> None:
    """An option the run would not use is refused, one line and exit 2, rather than silently ignored."""
    if args.deal is None and args.deals is None:
        raise CommandError(t("cli.autoplay.deal_or_deals", deal="--deal N", deals="--deals A-B"))
    if args.deal is not None and args.jobs is not None:
        raise CommandError(t("cli.option.only_with", option="--jobs", other="--deals"))
    if args.deals is not None and args.delay is not None:
        raise CommandError(t("cli.option.only_with", option="--delay", other="--deal"))
    if args.deal is not None and args.json and args.delay is not None:
        raise CommandError(t("cli.option.not_together", option="--delay", other="--json"))
    for option, value in (("--time", args.time), ("--seed", args.seed)):
        if value is not None and option not in PLAYER_OPTIONS.get(args.player, ()):
            raise CommandError(t("cli.autoplay.not_for_player", option=option, player=args.player))


def _seed(args: argparse.Namespace) -> int:
    return 0 if args.seed is None else int(args.seed)


def _game_json(args: argparse.Namespace, player: Any) -> int:
    """``--deal N --json``: the game as one JSON object, keyed as the ``--deals`` summary and the records are."""
    from foursquare.players import play_game

    game = Game(deal=args.deal, variant=variant_of(args))
    result = play_game(player, game)
    times = result.move_seconds
    data = {
        "player": args.player,
        "deal": args.deal,
        "variant": game.variant.to_json(),
        **record.outcome_json(game.outcome()),
        "played": game.turn,
        "seconds_per_move": sum(times) / len(times) if times else 0.0,
        "record": record.to_json(game),
    }
    print(json.dumps(data))
    return 0


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
            delay = DEFAULT_DELAY if args.delay is None else args.delay
            if delay > 0:
                time.sleep(delay)
        else:
            print(line)
            print(grid_text(g, ascii_only=not unicode_ok(sys.stdout)))
            print()

    result = play_game(player, game, show)
    end = t("cli.autoplay.demo_end_cards", outcome=outcome_text(game.outcome(), t), count=result.moves)
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
    from foursquare.players import Tally, iter_play_deals

    t: Translator = args.translator
    lo, hi = args.deals
    count = hi - lo + 1  # of any size: len(range) stops at 2**63 - 1
    columns = (TextColumn("{task.description}"), BarColumn(), CountColumn(t), TimeRemainingColumn())
    console = Console(stderr=True)
    # On a terminal only: elsewhere rich would leave an empty line on standard error.
    bar = Progress(*columns, console=console, transient=True, disable=not console.is_terminal)
    tally = Tally()  # the games are summed as they end: a run of any length holds none of them
    with bar as progress, end_workers():
        description = t("cli.autoplay.progress", player=args.player, deals=f"{lo}-{hi}")
        task = progress.add_task(escape(description), total=count)
        for result in iter_play_deals(
            args.player,
            range(lo, hi + 1),
            seed=_seed(args),
            time_budget=args.time,
            variant=variant_of(args),
            jobs=min(args.jobs or 1, count),  # no process without a deal to play
        ):
            tally.add(result)
            progress.advance(task)
    summary = tally.summary(args.player)
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
            p95=t.number(tally.p95_seconds_per_move() * 1000, 1),
        )
    )
    return 0
