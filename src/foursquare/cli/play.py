"""``foursquare play``: the terminal game (:mod:`foursquare.tui`)."""

from __future__ import annotations

import argparse
from typing import Any

from foursquare.cli.options import add_variant_options, deal_number, variant_of


def register(sub: Any) -> None:
    p = sub.add_parser("play", help="play in the terminal", description="Play Foursquare in the terminal.")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--deal", type=deal_number, help="deal number (default: a random deal)")
    which.add_argument("--winnable", action="store_true", help="a random deal the solver has proven winnable")
    p.add_argument("--save", metavar="FILE", help="write the game record to FILE after every move")
    add_variant_options(p)
    p.set_defaults(run=run_play)


def run_play(args: argparse.Namespace) -> int:
    from foursquare.tui import play

    return play(variant_of(args), deal=args.deal, winnable=args.winnable, save=args.save)
