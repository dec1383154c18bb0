"""``foursquare deal`` and ``foursquare replay``: deals and game records."""

from __future__ import annotations

import argparse
import json
from typing import Any

from foursquare import record
from foursquare.cards import deal_stock
from foursquare.cli.options import (
    CommandError,
    add_variant_options,
    deal_number,
    house_rules_given,
    seed_number,
    variant_of,
)
from foursquare.cli.parser import help_text
from foursquare.engine import Game, Outcome
from foursquare.i18n import Translator


def register(sub: Any, t: Translator | None = None) -> None:
    t = t or sub.translator
    p = sub.add_parser("deal", help=help_text(t, "cli.deal.help"), description=t("cli.deal.description"))
    p.add_argument("number", nargs="?", type=deal_number, metavar="N", help=help_text(t, "cli.deal.number.help"))
    p.add_argument("--winnable", action="store_true", help=help_text(t, "cli.deal.winnable.help"))
    p.add_argument("--seed", type=seed_number, help=help_text(t, "cli.deal.seed.help", winnable="--winnable"))
    p.add_argument("--json", action="store_true", help=help_text(t, "cli.deal.json.help"))
    add_variant_options(p)
    p.set_defaults(run=run_deal)

    p = sub.add_parser("replay", help=help_text(t, "cli.replay.help"), description=t("cli.replay.description"))
    p.add_argument(
        "file",
        metavar="FILE",
        help=help_text(t, "cli.replay.file.help", doc="docs/records.md", command="foursquare play --save"),
    )
    p.add_argument("--json", action="store_true", help=help_text(t, "cli.replay.json.help"))
    p.set_defaults(run=run_replay)


def run_deal(args: argparse.Namespace) -> int:
    t: Translator = args.translator
    if args.winnable:
        if args.number is not None:
            raise CommandError(t("cli.deal.number_and_winnable", winnable="--winnable"))
        return _winnable_deal(args)
    if args.number is None:
        raise CommandError(t("cli.deal.no_deal", winnable="--winnable"))
    # A numbered deal's stock order is the same whatever the house rules and seed: they would be ignored.
    ignored = (["--seed"] if args.seed is not None else []) + house_rules_given(args)
    if ignored:
        raise CommandError(t("cli.option.only_with", option=ignored[0], other="--winnable"))
    stock = deal_stock(args.number)
    if args.json:
        print(json.dumps({"deal": args.number, "stock": [c.name for c in stock]}))
    else:
        print(" ".join(c.name for c in stock))
    return 0


def _winnable_deal(args: argparse.Namespace) -> int:
    """``deal --winnable``: a random deal the solver proves winnable, and its stock order."""
    from foursquare.cli.extras import require_extra

    t: Translator = args.translator
    require_extra("solver", "foursquare deal --winnable", t)
    from foursquare.solver import random_winnable_deal  # numba: slow to import, so only when needed

    variant = variant_of(args)
    deal = random_winnable_deal(variant, seed=args.seed)
    stock = deal_stock(deal)
    if args.json:
        print(json.dumps({"deal": deal, "stock": [c.name for c in stock], "variant": variant.to_json()}))
    else:
        print(t("cli.deal.deal", deal=str(deal)))
        print(" ".join(c.name for c in stock))
    return 0


def run_replay(args: argparse.Namespace) -> int:
    t: Translator = args.translator
    game = record.read(args.file)
    if args.json:
        print(json.dumps(record.replay_json(game)))
        return 0
    import sys

    from foursquare.grid_text import grid_text, unicode_ok

    print(grid_text(game, ascii_only=not unicode_ok(sys.stdout)) if game.turn else t("cli.replay.no_cards"))
    print(outcome_line(game, t))
    return 0


def outcome_text(outcome: Outcome, t: Translator) -> str:
    """``won with score 7``, ``lost: the stock ran out``, ``playing``: a game's outcome in a few words."""
    if outcome.status == "won":
        return t("cli.outcome.won", score=outcome.score)
    if outcome.reason is not None and outcome.status == "lost":
        return t(f"cli.outcome.{outcome.reason}")
    return t("cli.outcome.playing")


def outcome_line(game: Game, t: Translator) -> str:
    """The outcome, then how many cards were played, are left, and lie face down."""
    return t(
        "cli.replay.outcome",
        outcome=outcome_text(game.outcome(), t),
        played=t("cli.replay.cards", count=game.turn),
        left=game.stock_left,
        face_down=game.face_down,
    )
