"""The ``foursquare`` command.

Each subcommand parses its options here and hands the parsed namespace to the module that owns
the capability (``command_*`` functions). Exit status: 0 success, 2 bad input or usage.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from foursquare import record
from foursquare.cards import MAX_DEAL, CardError, deal_stock
from foursquare.engine import Variant

EXIT_BAD_INPUT = 2


class CommandError(ValueError):
    """A command was asked something it cannot do; printed as ``foursquare: error: …``, exit 2."""


def deal_number(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"deal number must be an integer, not {text!r}") from None
    if not 0 <= value < MAX_DEAL:
        raise argparse.ArgumentTypeError(f"deal number {value} is outside 0 .. 2**64 - 1")
    return value


def deal_range(text: str) -> tuple[int, int]:
    """``A-B`` (inclusive) or a single ``N``."""
    first, sep, last = text.partition("-")
    try:
        lo = deal_number(first)
        hi = deal_number(last) if sep else lo
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"expected a deal range like 1-1000, not {text!r}") from None
    if hi < lo:
        raise argparse.ArgumentTypeError(f"deal range {text!r} ends before it starts")
    return lo, hi


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, not {text!r}")
    return value


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, not {text!r}")
    return value


def seed_number(text: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed must be an integer, not {text!r}") from None


def add_variant_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("house rules")
    group.add_argument(
        "--adjacency",
        choices=("orthogonal", "diagonal"),
        default="orthogonal",
        help="which empty cells next to a card may take one (default: orthogonal)",
    )
    group.add_argument(
        "--count-buried",
        action="store_true",
        help="face-down cards covered by a later card still count towards the limit of 4",
    )


def variant_of(args: argparse.Namespace) -> Variant:
    return Variant(adjacency=args.adjacency, count_buried=args.count_buried)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="foursquare",
        description="Foursquare, the solitaire card game by Wil Su: play it, learn it, study it.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("play", help="play in the terminal", description="Play Foursquare in the terminal.")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--deal", type=deal_number, help="deal number (default: a random deal)")
    which.add_argument("--winnable", action="store_true", help="a random deal the solver has proven winnable")
    p.add_argument("--save", metavar="FILE", help="write the game record to FILE after every move")
    add_variant_options(p)

    p = sub.add_parser("deal", help="print the stock order of a deal", description="Print a deal's stock order.")
    p.add_argument("number", nargs="?", type=deal_number, help="the deal number")
    p.add_argument("--winnable", action="store_true", help="pick a random deal the solver proves winnable")
    p.add_argument("--seed", type=seed_number, help="seed for choosing the --winnable deal")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_variant_options(p)

    p = sub.add_parser("replay", help="replay a game record", description="Replay a record, show the final grid.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--json", action="store_true", help="print the result as JSON")

    p = sub.add_parser("autoplay", help="let an AI player play", description="Let a player play deals.")
    p.add_argument("--player", default="best", help="random, greedy or best (default: best)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--deal", type=deal_number, help="show one game move by move")
    where.add_argument("--deals", type=deal_range, metavar="A-B", help="play deals A to B and report")
    p.add_argument("--seed", type=seed_number, default=0, help="the player's random seed (default 0)")
    p.add_argument("--time", type=positive_float, metavar="S", help="thinking time per move (best player)")
    p.add_argument("--delay", type=float, default=0.4, metavar="S", help="pause between moves in the demo")
    p.add_argument("--jobs", type=int, default=1, metavar="N", help="processes for --deals (default 1)")
    p.add_argument("--json", action="store_true", help="print a JSON summary")
    add_variant_options(p)

    p = sub.add_parser("hint", help="rank the moves of a position", description="Rank every legal move.")
    p.add_argument("record", metavar="RECORD")
    p.add_argument("--json", action="store_true")
    p.add_argument("--time", type=positive_float, metavar="S", help="thinking time (buys precision)")
    p.add_argument("--seed", type=seed_number, default=0)

    p = sub.add_parser("analyze", help="analyse a finished game", description="Analyse a finished game.")
    p.add_argument("record", metavar="RECORD")
    p.add_argument("--json", action="store_true")
    p.add_argument("--time", type=positive_float, metavar="S", help="thinking time per move")
    p.add_argument("--seed", type=seed_number, default=0)

    p = sub.add_parser("solve", help="solve a deal with the stock known", description="Perfect-information solver.")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--deal", type=deal_number)
    src.add_argument("--record", metavar="FILE", help="solve from the position the record reaches")
    p.add_argument("--timeout", type=positive_float, default=10.0, metavar="S", help="default 10 s")
    p.add_argument(
        "--threads", type=positive_int, metavar="N", help="search threads (default: the processors, at most 4)"
    )
    p.add_argument("--json", action="store_true")
    add_variant_options(p)

    p = sub.add_parser("bench", help="measure playout speed", description="Greedy playouts: kernel vs engine.")
    p.add_argument("--deals", type=deal_range, default=(1, 1000), metavar="A-B", help="default 1-1000")
    p.add_argument("--json", action="store_true")
    add_variant_options(p)

    p = sub.add_parser("serve", help="play in the browser", description="Serve the web app.")
    p.add_argument("--host", default="127.0.0.1", help="default 127.0.0.1 (this machine only)")
    p.add_argument("--port", type=int, default=8000, help="default 8000")
    p.add_argument("--db", metavar="PATH", help="SQLite database (default: in the user data directory)")
    p.add_argument("--open", action="store_true", help="open the page in a browser")
    return parser


def command_deal(args: argparse.Namespace) -> int:
    if args.winnable:
        from foursquare.solver import command_winnable_deal

        return command_winnable_deal(args)
    if args.number is None:
        raise CommandError("give a deal number, or --winnable")
    stock = deal_stock(args.number)
    if args.json:
        print(json.dumps({"deal": args.number, "stock": [c.name for c in stock]}))
    else:
        print(" ".join(c.name for c in stock))
    return 0


def command_replay(args: argparse.Namespace) -> int:
    game = record.read(args.file)
    if args.json:
        print(json.dumps(record.replay_json(game)))
        return 0
    from foursquare.render import grid_text, outcome_text

    print(grid_text(game))
    print(outcome_text(game))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        if args.command == "deal":
            return command_deal(args)
        if args.command == "replay":
            return command_replay(args)
        if args.command == "play":
            from foursquare.tui import command_play

            return command_play(args)
        if args.command in ("autoplay", "hint"):
            from foursquare import players

            return players.command_autoplay(args) if args.command == "autoplay" else players.command_hint(args)
        if args.command == "analyze":
            from foursquare.analysis import command_analyze

            return command_analyze(args)
        if args.command == "solve":
            from foursquare.solver import command_solve

            return command_solve(args)
        if args.command == "bench":
            from foursquare.bench import command_bench

            return command_bench(args)
        if args.command == "serve":
            from foursquare.web.server import serve

            return serve(args.host, args.port, args.db, args.open)
    except (ValueError, CardError) as exc:  # every error of ours subclasses ValueError
        print(f"foursquare: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `foursquare deal 1 | head`): not an error worth a traceback.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    parser.error(f"unknown command {args.command!r}")
    return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
