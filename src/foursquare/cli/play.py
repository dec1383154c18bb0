"""``foursquare play``: the terminal game (:mod:`foursquare.tui`), in the language of the command line."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from typing import Any

from rich.cells import cell_len

from foursquare.cli.options import add_variant_options, deal_number, variant_of
from foursquare.i18n import Translator


def _translator(t: Translator | None) -> Translator:
    """``t``, or the language the command line would choose (``--lang``, else the environment)."""
    if t is not None:
        return t
    from foursquare.cli.language import choose_language

    return choose_language(sys.argv[1:], os.environ)[0]


def epilog(t: Translator, width: int | None = None) -> str:
    """``foursquare play --help``'s closing text: the in-game keys and where games are kept, wrapped to
    ``width`` terminal cells (the terminal's, like argparse, at most 100)."""
    width = width or max(40, min(100, shutil.get_terminal_size().columns - 2))
    from foursquare.tui.text import (
        COMMAND_PLAY,
        COMMAND_STATS,
        DATA_DIR_VARIABLE,
        keys,
        keys_legend,
        pad,
        wrap,
    )

    legend = keys_legend(t)
    key_width = max(cell_len(key) for key, _ in legend)
    lines = [t("term.play.epilog_keys")]
    indent = " " * (key_width + 4)
    for key, meaning in legend:
        wrapped = wrap(meaning, max(20, width - len(indent))) or [""]
        lines.append(f"  {pad(key, key_width)}  {wrapped[0]}")
        lines.extend(indent + line for line in wrapped[1:])
    notes = t(
        "term.play.epilog_notes",
        play=COMMAND_PLAY,
        stats=COMMAND_STATS,
        variable=DATA_DIR_VARIABLE,
        database="games.db",
        example="D4",
        **keys(),
    )
    return "\n".join([*lines, "", *wrap(notes, width)])


KEYS_EPILOG = "(the in-game keys)"  # replaced when help is printed: the game's modules load only then


def _help_formatter(t: Translator | None) -> type[argparse.RawDescriptionHelpFormatter]:
    class PlayHelp(argparse.RawDescriptionHelpFormatter):
        def add_text(self, text: str | None) -> None:
            super().add_text(epilog(_translator(t)) if text == KEYS_EPILOG else text)

    return PlayHelp


def register(sub: Any, t: Translator | None = None) -> None:
    """Add ``play`` to the command line, its help in ``t``'s language (the command line's, by default)."""
    t = _translator(t)
    p = sub.add_parser(
        "play",
        help=t("term.play.help"),
        description=t("term.play.description"),
        epilog=KEYS_EPILOG,
        formatter_class=_help_formatter(t),
    )
    p.add_argument("file", nargs="?", metavar="FILE", help=t("term.play.file.help"))
    which = p.add_mutually_exclusive_group()
    which.add_argument("--deal", type=deal_number, help=t("term.play.deal.help"))
    which.add_argument("--winnable", action="store_true", help=t("term.play.winnable.help"))
    p.add_argument("--save", metavar="FILE", help=t("term.play.save.help"))
    add_variant_options(p)
    p.set_defaults(run=run_play)


def run_play(args: argparse.Namespace) -> int:
    from foursquare.cli.options import CommandError
    from foursquare.tui import play

    t = _translator(getattr(args, "translator", None))
    if args.file is not None and (args.deal is not None or args.winnable):
        raise CommandError(t("term.play.file_with_deal", file="FILE", deal="--deal", winnable="--winnable"))
    return play(
        variant_of(args), deal=args.deal, winnable=args.winnable, save=args.save, resume=args.file, t=t
    )
