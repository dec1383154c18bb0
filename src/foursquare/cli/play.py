"""``foursquare play``: the terminal game (:mod:`foursquare.tui`)."""

from __future__ import annotations

import argparse
from typing import Any

from foursquare.cli.options import add_variant_options, deal_number, variant_of


def _epilog() -> str:
    from foursquare.tui.text import KEYS_LEGEND

    width = max(len(key) for key, _ in KEYS_LEGEND)
    keys = "\n".join(f"  {key:<{width}}  {meaning}" for key, meaning in KEYS_LEGEND)
    return (
        "in-game keys:\n"
        f"{keys}\n\n"
        "Every game on a terminal is kept in your data directory after every move; `foursquare play` offers to\n"
        "continue the last unfinished one. Set FOURSQUARE_DATA_DIR to keep them elsewhere. Each game that ends\n"
        "is counted once in games.db there: see foursquare stats. When standard input is not a terminal, play\n"
        "reads one command per line (a cell's name such as D4, u, r, q) for scripts."
    )


KEYS_EPILOG = "(the in-game keys)"  # replaced when help is printed: the game's modules load only then


class _PlayHelp(argparse.RawDescriptionHelpFormatter):
    def add_text(self, text: str | None) -> None:
        super().add_text(_epilog() if text == KEYS_EPILOG else text)


def register(sub: Any) -> None:
    p = sub.add_parser(
        "play",
        help="play in the terminal",
        description="Play Foursquare in the terminal.",
        epilog=KEYS_EPILOG,
        formatter_class=_PlayHelp,
    )
    p.add_argument(
        "file",
        nargs="?",
        metavar="FILE",
        help="a saved game record to continue (it is saved back to FILE after every move)",
    )
    which = p.add_mutually_exclusive_group()
    which.add_argument("--deal", type=deal_number, help="deal number (default: a random deal)")
    which.add_argument("--winnable", action="store_true", help="a random deal the solver has proven winnable")
    p.add_argument(
        "--save",
        metavar="FILE",
        help="also write the game record to FILE after every move (an existing FILE is never replaced unasked)",
    )
    add_variant_options(p)
    p.set_defaults(run=run_play)


def run_play(args: argparse.Namespace) -> int:
    from foursquare.cli.options import CommandError
    from foursquare.tui import play

    if args.file is not None and (args.deal is not None or args.winnable):
        raise CommandError("FILE continues a saved game: it cannot be combined with --deal or --winnable")
    return play(variant_of(args), deal=args.deal, winnable=args.winnable, save=args.save, resume=args.file)
