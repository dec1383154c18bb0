"""What several commands share: option types, the house-rule options, the error every command raises.

Option types raise :class:`~foursquare.cli.parser.OptionError` (an :class:`argparse.ArgumentTypeError`),
which argparse turns into a usage message in the run's language and exit status 2
(``foursquare solve: error: argument --timeout: ...``). Values are quoted as typed (``'abc'``).

No option takes an absurd value: seconds are more than 0 (or at least 0) and at most :data:`MAX_SECONDS` (a
day; not ``nan`` nor ``inf``), a seed is from 0 to :data:`MAX_SEED`, and each count has its own maximum
(:func:`whole_number_up_to`, :func:`deal_range_up_to`).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING

from foursquare.cards import MAX_DEAL
from foursquare.cli.errors import CommandError
from foursquare.cli.parser import OptionError, help_text
from foursquare.i18n import Translator, translator

if TYPE_CHECKING:  # the rules load with the command that plays, not when the command line starts (issue 43)
    from foursquare.engine import Variant

EXIT_BAD_INPUT = 2

#: The largest deal number, written as deal numbers are (Latin digits).
LAST_DEAL = str(MAX_DEAL - 1)
#: The most seconds an option takes (a day): ``inf`` is refused, and so is any wait no one means.
MAX_SECONDS = 86_400
#: The largest seed: the players mix a seed into 64-bit random streams, and a study's rows (``study run
#: --seed``) take any 64-bit seed, which autoplay and hint must take to replay them.
MAX_SEED = 2**64 - 1


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


def deal_range_up_to(most: int) -> Callable[[str], tuple[int, int]]:
    """:func:`deal_range` of at most ``most`` deals (a command that keeps every game's result in memory)."""

    def bounded_deal_range(text: str) -> tuple[int, int]:
        lo, hi = deal_range(text)
        if hi - lo + 1 > most:
            raise OptionError("cli.option.deal_range_too_long", value=repr(text), max=most)
        return lo, hi

    return bounded_deal_range


def positive_float(text: str) -> float:
    """A number of seconds more than 0 (``inf`` too: see :func:`positive_seconds`)."""
    try:
        value = float(text)
    except ValueError:
        raise OptionError("cli.option.seconds_not_number", value=repr(text)) from None
    if not value > 0:  # nan too
        raise OptionError("cli.option.seconds_not_positive", value=repr(text))
    return value


def non_negative_float(text: str) -> float:
    """A number of seconds, 0 or more (``inf`` too: see :func:`non_negative_seconds`)."""
    try:
        value = float(text)
    except ValueError:
        raise OptionError("cli.option.seconds_not_number", value=repr(text)) from None
    if not value >= 0:  # nan too
        raise OptionError("cli.option.seconds_negative", value=repr(text))
    return value


def _at_most_a_day(value: float, text: str) -> float:
    if value > MAX_SECONDS:  # inf too
        raise OptionError("cli.option.seconds_too_many", value=repr(text), max=MAX_SECONDS)
    return value


def positive_seconds(text: str) -> float:
    """Seconds: more than 0, at most :data:`MAX_SECONDS`."""
    return _at_most_a_day(positive_float(text), text)


def non_negative_seconds(text: str) -> float:
    """Seconds: 0 or more, at most :data:`MAX_SECONDS`."""
    return _at_most_a_day(non_negative_float(text), text)


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise OptionError("cli.option.not_whole", value=repr(text)) from None
    if value < 1:
        raise OptionError("cli.option.at_least_one", value=repr(text))
    return value


def whole_number_up_to(most: int) -> Callable[[str], int]:
    """:func:`positive_int` of at most ``most``: a count of threads or processes (each costs memory), a node budget."""

    def bounded_whole_number(text: str) -> int:
        value = positive_int(text)
        if value > most:
            raise OptionError("cli.option.at_most", value=repr(text), max=most)
        return value

    return bounded_whole_number


#: The most positions ``--nodes`` takes: :data:`foursquare.study.work.MAX_NODE_BUDGET`, repeated so that parsing
#: the command line does not import the study's modules (``tests/test_cli_flags.py`` checks that they agree).
MAX_NODES = 1 << 50
#: :data:`foursquare.solver.DEFAULT_NODES`, repeated for the same reason (the solver imports numba).
DEFAULT_NODES = 10_000_000
#: The most seconds a solve of :data:`DEFAULT_NODES` takes on the development machine (docs/solver.md), for help.
DEFAULT_NODES_SECONDS = 25
node_budget = whole_number_up_to(MAX_NODES)


def seed_number(text: str) -> int:
    """A seed: a whole number from 0 to :data:`MAX_SEED` (decimal, or ``0x…``)."""
    try:
        value = int(text, 0)
    except ValueError:
        raise OptionError("cli.option.seed_not_integer", value=repr(text)) from None
    if not 0 <= value <= MAX_SEED:
        raise OptionError("cli.option.seed_range", value=repr(text), max=str(MAX_SEED))
    return value


def parser_translator(parser: argparse.ArgumentParser) -> Translator:
    """The language of ``parser``'s help (a :class:`~foursquare.cli.parser.Parser`'s; else English)."""
    found = getattr(parser, "translator", None)
    return found if isinstance(found, Translator) else translator("en")


def add_variant_options(parser: argparse.ArgumentParser) -> None:
    """``--adjacency`` and ``--count-buried``, read back by :func:`variant_of`; each is None when not given (see
    :func:`house_rules_given`)."""
    t = parser_translator(parser)
    group = parser.add_argument_group(t("cli.option.house_rules"))
    group.add_argument(
        "--adjacency",
        choices=("orthogonal", "diagonal"),
        default=None,
        help=help_text(t, "cli.option.adjacency.help", orthogonal="orthogonal", diagonal="diagonal"),
    )
    group.add_argument(
        "--count-buried", action="store_true", default=None, help=help_text(t, "cli.option.count_buried.help")
    )


def variant_of(args: argparse.Namespace) -> Variant:
    """The house rules the options give: the standard rules for those not given."""
    from foursquare.engine import Variant

    return Variant(adjacency=args.adjacency or "orthogonal", count_buried=bool(args.count_buried))


def house_rules_given(args: argparse.Namespace) -> list[str]:
    """The house-rule options given, as typed (``--adjacency``, ``--count-buried``): for a command to refuse them
    where they would be ignored."""
    given = [("--adjacency", args.adjacency), ("--count-buried", args.count_buried)]
    return [option for option, value in given if value is not None]


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


DASHED_VALUE_OPTIONS = frozenset(
    {"--deals", "--deal", "--delay", "--time", "--timeout", "--seed", "--jobs", "--threads", "--seconds", "--nodes"}
)

__all__ = [
    "DEFAULT_NODES",
    "DEFAULT_NODES_SECONDS",
    "EXIT_BAD_INPUT",
    "MAX_NODES",
    "MAX_SECONDS",
    "MAX_SEED",
    "CommandError",
    "add_variant_options",
    "deal_number",
    "deal_range",
    "deal_range_up_to",
    "house_rules_given",
    "node_budget",
    "non_negative_float",
    "non_negative_seconds",
    "positive_float",
    "positive_int",
    "positive_seconds",
    "seed_number",
    "variant_of",
    "whole_number_up_to",
]
