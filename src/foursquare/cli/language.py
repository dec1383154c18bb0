"""Which language the command line speaks: ``--lang CODE`` on any command, else the POSIX environment.

The language must be known before the parser is built (its ``--help`` is translated), so ``--lang`` is read
from the raw arguments first, then declared on every parser so that ``--help`` lists it and argparse accepts
it anywhere. An unknown ``--lang`` falls back to English with a note; an environment naming a language the
game does not speak falls back to English quietly (it is the system's setting, not a request to us).
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence

from foursquare.cli.parser import LazyCommands
from foursquare.i18n import ENGLISH, Translator, environment_preferences, language, negotiate, translator

LANG_OPTION = "--lang"


def requested_code(argv: Sequence[str]) -> str | None:
    """The value of the last ``--lang CODE`` / ``--lang=CODE`` before a ``--``, or None."""
    code = None
    for index, argument in enumerate(argv):
        if argument == "--":
            break
        if argument == LANG_OPTION and index + 1 < len(argv):
            code = argv[index + 1]
        elif argument.startswith(LANG_OPTION + "="):
            code = argument.partition("=")[2]
    return code


def choose_language(argv: Sequence[str], environ: Mapping[str, str]) -> tuple[Translator, str | None]:
    """The translator for this run, and the code of an unknown ``--lang`` that fell back to English."""
    code = requested_code(argv)
    if code is not None:
        found = language(code)
        if found is None:
            return translator(ENGLISH.code), code
        return translator(found.code), None
    found = negotiate(environment_preferences(environ))
    return translator((found or ENGLISH).code), None


def add_lang_option(parser: argparse.ArgumentParser, help_text: str) -> None:
    """Declare ``--lang`` on ``parser`` and every subcommand's parser below it."""
    parser.add_argument(LANG_OPTION, metavar="CODE", help=help_text)
    for action in parser._actions:
        if isinstance(action, LazyCommands):  # each command's parser as it is built
            action.for_each_parser(lambda subparser: add_lang_option(subparser, help_text))
        elif isinstance(action, argparse._SubParsersAction):
            for subparser in dict.fromkeys(action.choices.values()):
                add_lang_option(subparser, help_text)
