"""``foursquare learn``: the lesson in the terminal (:mod:`foursquare.tui.lesson`), in the command line's language."""

from __future__ import annotations

import argparse
from typing import Any

from foursquare.i18n import Translator


def register(sub: Any, t: Translator | None = None) -> None:
    """Add ``learn`` to the command line, its help in ``t``'s language."""
    t = t or sub.translator
    p = sub.add_parser("learn", help=t("term.learn.help"), description=t("term.learn.description"))
    p.set_defaults(run=run_learn)


def run_learn(args: argparse.Namespace) -> int:
    from foursquare.cli.play import handed_on
    from foursquare.tui.lesson import learn

    t: Translator = args.translator
    return handed_on(learn(t))
