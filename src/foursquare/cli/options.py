"""What several commands share: option types, the house-rule options, the error every command raises.

Option types raise :class:`~foursquare.cli.parser.OptionError` (an :class:`argparse.ArgumentTypeError`),
which argparse turns into a usage message in the run's language and exit status 2
(``foursquare solve: error: argument --timeout: ...``). Values are quoted as typed (``'abc'``).
"""

from __future__ import annotations

import argparse

from foursquare.cards import MAX_DEAL
from foursquare.cli.errors import CommandError
from foursquare.cli.parser import OptionError, help_text
from foursquare.engine import Variant
from foursquare.i18n import Translator, translator

EXIT_BAD_INPUT = 2

#: The largest deal number, written as deal numbers are (Latin digits).
LAST_DEAL = str(MAX_DEAL - 1)


def deal_number(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise OptionError("cli.option.deal_not_integer", value=repr(text)) from None
    if not 0 <= value < MAX_DEAL:
        raise OptionError("cli.option.deal_out_of_range", value=str(value), max=LAST_DEAL)
    return value


def deal_range(text: str) -> tuple[int, int]:
    """``A-B`` (inclusive) or a single ``N``."""
    if text.startswith("-"):
        raise OptionError("cli.option.deal_range_negative", value=repr(text), max=LAST_DEAL)
    first, sep, last = text.partition("-")
    try:
        lo = deal_number(first)
        hi = deal_number(last) if sep else lo
    except argparse.ArgumentTypeError:
        raise OptionError("cli.option.deal_range_format", value=repr(text)) from None
    if hi < lo:
        raise OptionError("cli.option.deal_range_reversed", value=repr(text))
    return lo, hi


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise OptionError("cli.option.seconds_not_number", value=repr(text)) from None
    if not value > 0:
        raise OptionError("cli.option.seconds_not_positive", value=repr(text))
    return value


def non_negative_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise OptionError("cli.option.seconds_not_number", value=repr(text)) from None
    if not value >= 0:
        raise OptionError("cli.option.seconds_negative", value=repr(text))
    return value


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise OptionError("cli.option.not_whole", value=repr(text)) from None
    if value < 1:
        raise OptionError("cli.option.at_least_one", value=repr(text))
    return value


def seed_number(text: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        raise OptionError("cli.option.seed_not_integer", value=repr(text)) from None


def parser_translator(parser: argparse.ArgumentParser) -> Translator:
    """The language of ``parser``'s help (a :class:`~foursquare.cli.parser.Parser`'s; else English)."""
    found = getattr(parser, "translator", None)
    return found if isinstance(found, Translator) else translator("en")


def add_variant_options(parser: argparse.ArgumentParser) -> None:
    """``--adjacency`` and ``--count-buried``, read back by :func:`variant_of`."""
    t = parser_translator(parser)
    group = parser.add_argument_group(t("cli.option.house_rules"))
    group.add_argument(
        "--adjacency",
        choices=("orthogonal", "diagonal"),
        default="orthogonal",
        help=help_text(t, "cli.option.adjacency.help", orthogonal="orthogonal", diagonal="diagonal"),
    )
    group.add_argument("--count-buried", action="store_true", help=help_text(t, "cli.option.count_buried.help"))


def variant_of(args: argparse.Namespace) -> Variant:
    return Variant(adjacency=args.adjacency, count_buried=args.count_buried)


def values_may_start_with_a_dash(argv: list[str]) -> list[str]:
    """``--deals -5-3`` as ``--deals=-5-3``: argparse would read ``-5-3`` as an option and say only "expected one
    argument"; joined, the option's own type explains what is wrong with the value."""
    joined: list[str] = []
    for arg in argv:
        if joined and joined[-1] in DASHED_VALUE_OPTIONS and arg[:1] == "-" and arg[1:2].isdigit():
            joined[-1] = f"{joined[-1]}={arg}"
        else:
            joined.append(arg)
    return joined


DASHED_VALUE_OPTIONS = frozenset({"--deals", "--deal", "--delay", "--time", "--timeout", "--seed", "--jobs"})

__all__ = [
    "EXIT_BAD_INPUT",
    "CommandError",
    "add_variant_options",
    "deal_number",
    "deal_range",
    "non_negative_float",
    "positive_float",
    "positive_int",
    "seed_number",
    "variant_of",
]
