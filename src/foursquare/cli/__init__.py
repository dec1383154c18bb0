"""The ``foursquare`` command: one module per command group, each adding its subcommands.

A command module has ``register(subparsers)``, which adds its parsers and sets ``run`` on each to the
function that carries the command out from the parsed options. Library modules never see argparse:
a command reads its options, calls the library, and prints. Each command is also named in :data:`COMMANDS`
with its module and help line: the module is imported only when its command runs or its help is asked for, so
that every command starts in a fraction of a second (issue 43; tests/test_startup.py). A command module imports
what only running needs (the store, rich, numpy…) inside its ``run`` functions.

Exit status: 0 success, 1 an internal error (a bug: please report it), 2 bad input or usage, and when a
signal stops the command, 128 and the signal's number: 130 after Ctrl-C (SIGINT), 143 after SIGTERM, 129 after
SIGHUP (the terminal closed), each after one line, ``foursquare: interrupted``, and the cleanup that the
exception the signal raised brings on its way up (:mod:`foursquare.cli.signals`).
"""

from __future__ import annotations

# First, so that a signal while the rest loads is held for main (see the module).
from foursquare.cli.signals import (  # isort: split
    EXIT_HANGUP,
    EXIT_INTERRUPTED,
    EXIT_TERMINATED,
    STOP_SIGNALS,
    Signals,
    Stopped,
    for_this_run,
)

import errno
import importlib
import inspect
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from foursquare import __version__
from foursquare.cli.errors import user_message
from foursquare.cli.language import add_lang_option, choose_language
from foursquare.cli.options import EXIT_BAD_INPUT, CommandError, values_may_start_with_a_dash
from foursquare.cli.parser import LazyCommands, Parser, help_text
from foursquare.i18n import Translator, translator

PROG = "foursquare"
#: What ``--lang``'s help lists: the codes it takes, and where the language comes from without it.
LANGUAGE_CODES = "en, uz, hr, fil (tl), kn, bn"
LANGUAGE_VARIABLES = "LANGUAGE, LC_ALL, LC_MESSAGES, LANG"

EXIT_INTERNAL_ERROR = 1
#: The errors of a write to standard output that cannot go on: the disk is full, over quota, the file too large,
#: the device failing.
OUTPUT_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})

#: Every command in the order ``foursquare --help`` lists them: the module of ``foursquare.cli`` that registers it
#: (imported only when the command runs or its help is asked for: issue 43) and the key of its help line, the one
#: the module gives (tests/test_startup.py checks that they agree).
COMMANDS = (
    ("play", "play", "term.play.help"),
    ("learn", "learn", "term.learn.help"),
    ("stats", "stats", "cli.stats.help"),
    ("deal", "records", "cli.deal.help"),
    ("replay", "records", "cli.replay.help"),
    ("autoplay", "autoplay", "cli.autoplay.help"),
    ("hint", "coach", "cli.hint.help"),
    ("analyze", "coach", "cli.analyze.help"),
    ("solve", "solve", "cli.solve.help"),
    ("bench", "bench", "cli.bench.help"),
    ("rl", "rl", "cli.rl.help"),
    ("study", "study", "cli.study.help"),
    ("serve", "serve", "cli.serve.help"),
)
#: The command modules, in the order of their first command.
COMMAND_GROUPS = tuple(dict.fromkeys(module for _, module, _ in COMMANDS))


def build_parser(t: Translator | None = None, *, lazy: bool = True) -> Parser:
    """The whole command line, its help in ``t``'s language (English by default).

    A command's parser is built, and its module imported, when the command is looked up (``lazy``, what the
    ``foursquare`` command does); ``lazy=False`` builds every one first, as the command line was built before
    issue 43 (the tests compare the two).
    """
    t = t or translator("en")
    parser = Parser(prog=PROG, description=t("cli.description"), translator=t)
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}", help=t("cli.version.help"))
    commands_help = help_text(t, "cli.commands.help", example=f"{PROG} COMMAND --help")
    if lazy:
        sub = parser.add_subparsers(dest="command", metavar="COMMAND", help=commands_help, action=LazyCommands)
        for name, module, key in COMMANDS:
            sub.add_command(name, help_text(t, key), _loader(module, t))
    else:
        sub = parser.add_subparsers(dest="command", metavar="COMMAND", help=commands_help)
        for module in COMMAND_GROUPS:
            _register(importlib.import_module(f"foursquare.cli.{module}"), sub, t)
    add_lang_option(parser, help_text(t, "cli.lang.help", codes=LANGUAGE_CODES, variables=LANGUAGE_VARIABLES))
    return parser


def _loader(module: str, t: Translator) -> Any:
    """What registers ``foursquare.cli.<module>``'s commands on the action it is given, importing it then."""
    return lambda sub: _register(importlib.import_module(f"foursquare.cli.{module}"), sub, t)


def _register(group: ModuleType, sub: Any, t: Translator) -> None:
    """``group.register(sub, t)``; a ``register(sub)`` of one parameter reads the language from ``sub.translator``."""
    if len(inspect.signature(group.register).parameters) > 1:
        group.register(sub, t)
    else:
        group.register(sub)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = values_may_start_with_a_dash(list(sys.argv[1:] if argv is None else argv))
    t, unknown = choose_language(arguments, os.environ)
    signals = for_this_run()
    try:
        signals.arm()
        code = _run(arguments, t, unknown)
        if signals.received is not None and code == EXIT_INTERRUPTED:
            return STOP_SIGNALS[signals.received]  # the command saw it as Ctrl-C: say which signal it was
        return code
    except KeyboardInterrupt as exc:
        return _interrupted(exc, signals, t)
    finally:
        signals.restore()


def _run(arguments: list[str], t: Translator, unknown: str | None) -> int:
    """Parse ``arguments`` and run the command: its exit status, its errors in one line each."""
    if unknown is not None:
        print(t("cli.note.unknown_language", prog=PROG, code=repr(unknown)), file=sys.stderr)
    parser = build_parser(t)
    try:
        args = _parse(parser, arguments)
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except OSError as exc:
        return _output_failed(exc, t)
    if args is None:  # a bare `foursquare`: the help, as --help shows it
        return 0
    args.translator = t
    try:
        code: int = args.run(args)
        sys.stdout.flush()  # a write error is the command's to report, not the interpreter's at exit
        return code
    except ValueError as exc:  # every bad-input error of ours subclasses it (FoursquareError, CardError too)
        print(t("cli.error", prog=PROG, message=user_message(exc, t)), file=sys.stderr)
        return EXIT_BAD_INPUT
    except RuntimeError as exc:  # our internal errors (a kernel/engine disagreement, a solver bug) are bugs
        print(t("cli.internal_error", prog=PROG, message=exc), file=sys.stderr)
        return EXIT_INTERNAL_ERROR
    except BrokenPipeError:
        # The reader went away (e.g. `foursquare deal 1 | head`): not an error worth a traceback.
        _silence_stdout()
        return 0
    except OSError as exc:
        return _output_failed(exc, t)


def _parse(parser: Parser, arguments: list[str]) -> Any:
    """The parsed options; None for a bare ``foursquare``, whose help is printed (exit status 0). ``--help`` and
    ``--version`` exit as argparse has them, once their output is written: a write that fails raises here."""
    try:
        args: Any = parser.parse_args(arguments)
        if args.command is None:
            parser.print_help()
            args = None
        sys.stdout.flush()
    except SystemExit as exc:
        if exc.code in (0, None):
            sys.stdout.flush()
        raise
    return args


def _output_failed(exc: OSError, t: Translator) -> int:
    """The output cannot be written (`foursquare deal 1 > /dev/full`, a full disk): one line, as a file that
    cannot be, exit status 2. Any other error of the system is not ours to explain: raised again."""
    if exc.errno not in OUTPUT_ERRORS:  # a file the command writes is a FileWriteError: this is the output
        raise exc
    print(t("cli.output_failed", prog=PROG, reason=exc.strerror or str(exc)), file=sys.stderr)
    _silence_stdout()
    return EXIT_BAD_INPUT


def _silence_stdout() -> None:
    """Standard output goes nowhere from now on, so that nothing fails again as the interpreter exits."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def _interrupted(exc: KeyboardInterrupt, signals: Signals, t: Translator) -> int:
    """The one line after a signal (or Ctrl-C), and its exit status."""
    status = signals.status(exc)
    line = t("cli.interrupted", prog=PROG)
    try:
        if status == EXIT_INTERRUPTED and sys.stderr.isatty():
            line = "\n" + line  # after the terminal's ^C
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError):  # no standard error to say it on (closed, or gone with the terminal)
        pass
    return status


__all__ = [
    "EXIT_HANGUP",
    "EXIT_INTERRUPTED",
    "EXIT_TERMINATED",
    "STOP_SIGNALS",
    "CommandError",
    "Stopped",
    "build_parser",
    "main",
]
