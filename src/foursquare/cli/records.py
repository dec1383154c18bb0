"""``foursquare deal`` and ``foursquare replay``: deals and game records."""

from __future__ import annotations

import argparse
import json
from typing import Any

from foursquare import record
from foursquare.cards import deal_stock
from foursquare.cli.options import CommandError, add_variant_options, deal_number, seed_number, variant_of

TEXT = {
    "no_deal": "give a deal number, or --winnable",
    "deal": "deal: {deal}",
}


def register(sub: Any) -> None:
    p = sub.add_parser("deal", help="print the stock order of a deal", description="Print a deal's stock order.")
    p.add_argument("number", nargs="?", type=deal_number, help="the deal number")
    p.add_argument("--winnable", action="store_true", help="pick a random deal the solver proves winnable")
    p.add_argument("--seed", type=seed_number, help="seed for choosing the --winnable deal")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_variant_options(p)
    p.set_defaults(run=run_deal)

    p = sub.add_parser("replay", help="replay a game record", description="Replay a record, show the final grid.")
    p.add_argument("file", metavar="FILE", help="a game record (docs/records.md), e.g. one written by play --save")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(run=run_replay)


def run_deal(args: argparse.Namespace) -> int:
    if args.winnable:
        return _winnable_deal(args)
    if args.number is None:
        raise CommandError(TEXT["no_deal"])
    stock = deal_stock(args.number)
    if args.json:
        print(json.dumps({"deal": args.number, "stock": [c.name for c in stock]}))
    else:
        print(" ".join(c.name for c in stock))
    return 0


def _winnable_deal(args: argparse.Namespace) -> int:
    """``deal --winnable``: a random deal the solver proves winnable, and its stock order."""
    from foursquare.solver import random_winnable_deal  # numba: slow to import, so only when needed

    variant = variant_of(args)
    deal = random_winnable_deal(variant, seed=args.seed)
    stock = deal_stock(deal)
    if args.json:
        print(json.dumps({"deal": deal, "stock": [c.name for c in stock], "variant": variant.to_json()}))
    else:
        print(TEXT["deal"].format(deal=deal))
        print(" ".join(c.name for c in stock))
    return 0


def run_replay(args: argparse.Namespace) -> int:
    game = record.read(args.file)
    if args.json:
        print(json.dumps(record.replay_json(game)))
        return 0
    import sys

    from foursquare.cli.render import grid_text, outcome_text, unicode_ok

    print(grid_text(game, ascii_only=not unicode_ok(sys.stdout)))
    print(outcome_text(game))
    return 0
