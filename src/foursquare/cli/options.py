"""What several commands share: option types, the house-rule options, the error every command raises.

Option types raise :class:`argparse.ArgumentTypeError`, which argparse turns into a usage message and
exit status 2 (``foursquare solve: error: argument --timeout: ...``).
"""

from __future__ import annotations

import argparse

from foursquare.cards import MAX_DEAL
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
    if text.startswith("-"):
        raise argparse.ArgumentTypeError(f"deal range {text!r} starts below 0: deal numbers run from 0 to 2**64 - 1")
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


def non_negative_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"expected 0 or more seconds, not {text!r}")
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
    """``--adjacency`` and ``--count-buried``, read back by :func:`variant_of`."""
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


def add_json_option(parser: argparse.ArgumentParser, help: str = "print JSON instead of text") -> None:
    parser.add_argument("--json", action="store_true", help=help)


def add_seed_option(
    parser: argparse.ArgumentParser, default: int | None = 0, help: str = "random seed: the same seed, the same answer"
) -> None:
    parser.add_argument("--seed", type=seed_number, default=default, help=f"{help} (default {default})")


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
