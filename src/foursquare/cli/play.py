"""``foursquare play``: the terminal game (:mod:`foursquare.tui`), in the language of the command line."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from typing import Any

from rich.cells import cell_len

from foursquare.cli.options import add_variant_options, deal_number, positive_int
from foursquare.engine import Variant
from foursquare.i18n import Translator

#: Set to play without the mouse, like --no-mouse (:data:`foursquare.tui.text.NO_MOUSE_VARIABLE`, named here
#: too so that ``play --help`` does not load the game).
NO_MOUSE_VARIABLE = "FOURSQUARE_NO_MOUSE"


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
    which.add_argument("--pick", type=positive_int, metavar="N", help=t("term.play.pick.help", list="--list"))
    which.add_argument("--list", action="store_true", help=t("term.play.list.help", pick="--pick"))
    which.add_argument("--delete", type=positive_int, metavar="N", help=t("term.play.delete.help", list="--list"))
    p.add_argument("--save", metavar="FILE", help=t("term.play.save.help"))
    p.add_argument("--no-mouse", action="store_true", help=t("term.play.no_mouse.help", variable=NO_MOUSE_VARIABLE))
    add_variant_options(p)
    # None when not given: a saved game keeps its own rules, so giving them with FILE is refused, not ignored.
    p.set_defaults(run=run_play, adjacency=None, count_buried=None)


def run_play(args: argparse.Namespace) -> int:
    from foursquare.tui import play
    from foursquare.tui.listing import delete, list_lines, picked

    t = _translator(getattr(args, "translator", None))
    _refuse_what_is_ignored(args, t)
    if args.winnable:  # the solver proves the deal winnable
        from foursquare.cli.extras import require_extra

        require_extra("solver", "foursquare play --winnable", t)
    if args.list or args.delete is not None:
        for line in list_lines(t) if args.list else delete(args.delete, t):
            print(line)
        return 0
    resume = args.file if args.pick is None else picked(args.pick, t)
    variant = Variant(adjacency=args.adjacency or "orthogonal", count_buried=bool(args.count_buried))
    status = play(
        variant,
        deal=args.deal,
        winnable=args.winnable,
        save=args.save,
        resume=resume,
        t=t,
        mouse=not args.no_mouse,
    )
    return handed_on(status)


def handed_on(status: int) -> int:
    """A full-screen game or lesson left by Ctrl-C (its terminal put back, the game kept, the goodbye said) ends
    as every command does after Ctrl-C: ``foursquare: interrupted``, exit status 130 (the command line's)."""
    from foursquare.cli.signals import EXIT_INTERRUPTED

    if status == EXIT_INTERRUPTED:
        raise KeyboardInterrupt
    return status


def _refuse_what_is_ignored(args: argparse.Namespace, t: Translator) -> None:
    """Every option given is honoured: one that the others make pointless is refused (one line, exit 2)."""
    from foursquare.cli.options import CommandError

    if args.file is not None and (args.deal is not None or args.winnable):
        raise CommandError(t("term.play.file_with_deal", file="FILE", deal="--deal", winnable="--winnable"))
    given = _given(args)
    for alone in ("--list", "--delete"):
        if alone in given and len(given) > 1:
            raise CommandError(t("term.play.not_together", option=alone, other=next(g for g in given if g != alone)))
    if args.pick is not None and args.file is not None:
        raise CommandError(t("term.play.not_together", option="--pick", other="FILE"))
    if args.file is not None or args.pick is not None:
        rules = [option for option in ("--adjacency", "--count-buried") if option in given]
        if rules:
            record = args.file if args.file is not None else f"--pick {args.pick}"
            raise CommandError(t("term.play.file_rules", file=record, option=rules[0]))


def _given(args: argparse.Namespace) -> list[str]:
    """The options and argument given, as typed (their names)."""
    values = {
        "FILE": args.file,
        "--deal": args.deal,
        "--winnable": args.winnable or None,
        "--pick": args.pick,
        "--list": args.list or None,
        "--delete": args.delete,
        "--save": args.save,
        "--no-mouse": args.no_mouse or None,
        "--adjacency": args.adjacency,
        "--count-buried": args.count_buried,
    }
    return [name for name, value in values.items() if value is not None]
