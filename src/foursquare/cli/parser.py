"""argparse in the player's language: its own words ("usage:", "options", "error:", "expected one argument" …).

How, and why this way: argparse writes every word of its own through two module-level names, ``argparse._``
(``gettext.gettext``) and ``argparse.ngettext``, looked up *when the word is needed*: group titles and the
``--help`` line when a parser is built, "usage:" when help is formatted, errors while parsing. gettext would
find them in a compiled ``.mo`` file of the process-wide default domain chosen by the environment, not in our
catalogue and not by ``--lang``. Subclassing ``HelpFormatter``/``ArgumentParser`` to replace the words would
mean copying private methods whose text and structure change between Python 3.11, 3.12 and 3.13.

So :class:`Parser` (an ``ArgumentParser`` subclass, also used for every subcommand) gives argparse's two
lookups an :class:`ArgparseCatalogue`, a ``gettext.NullTranslations`` whose ``gettext``/``ngettext`` answer
argparse's English msgids from our catalogue, for exactly as long as one of its own methods runs (building,
parsing, formatting help or usage, reporting an error), and puts the originals back afterwards, even when
argparse exits. Nothing outside those calls sees the change. A msgid we do not know (a future Python's new
sentence, or a programming error's text) stays English. The command line parses in one thread, so the
short-lived swap races with nothing.
"""

from __future__ import annotations

import argparse
import functools
import gettext
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

from foursquare.i18n import Translator, translator

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

#: argparse's msgids (Python 3.11–3.13) → our key and the names of the %-placeholders in the msgid, in the
#: order our ``{name}`` placeholders are given them. ``%s``/``%r`` placeholders are positional.
ARGPARSE_MESSAGES: dict[str, tuple[str, tuple[str, ...]]] = {
    "usage: ": ("cli.argparse.usage", ()),
    "positional arguments": ("cli.argparse.positionals", ()),
    "options": ("cli.argparse.options", ()),
    "show this help message and exit": ("cli.argparse.help", ()),
    "%(prog)s: error: %(message)s\n": ("cli.error", ("prog", "message")),
    "%(prog)s: warning: %(message)s\n": ("cli.argparse.warning", ("prog", "message")),
    "argument %(argument_name)s: %(message)s": ("cli.argparse.argument", ("argument_name", "message")),
    "the following arguments are required: %s": ("cli.argparse.required", ("%s",)),
    "one of the arguments %s is required": ("cli.argparse.one_required", ("%s",)),
    "not allowed with argument %s": ("cli.argparse.not_allowed", ("%s",)),
    "invalid choice: %(value)r (choose from %(choices)s)": ("cli.argparse.invalid_choice", ("value", "choices")),
    "invalid %(type)s value: %(value)r": ("cli.argparse.invalid_value", ("type", "value")),
    "expected one argument": ("cli.argparse.expected_one", ()),
    "expected at most one argument": ("cli.argparse.expected_at_most_one", ()),
    "expected at least one argument": ("cli.argparse.expected_at_least_one", ()),
    "expected %s argument": ("cli.argparse.expected_count", ()),
    "unrecognized arguments: %s": ("cli.argparse.unrecognized", ("%s",)),
    "ambiguous option: %(option)s could match %(matches)s": ("cli.argparse.ambiguous", ("option", "matches")),
    "ignored explicit argument %r": ("cli.argparse.ignored_explicit", ("%r",)),
    "unknown parser %(parser_name)r (choices: %(choices)s)": (
        "cli.argparse.unknown_parser",
        ("parser_name", "choices"),
    ),
    "option %(option)r is deprecated": ("cli.argparse.deprecated_option", ("option",)),
    "argument %(argument_name)r is deprecated": ("cli.argparse.deprecated_argument", ("argument_name",)),
    "command %(parser_name)r is deprecated": ("cli.argparse.deprecated_command", ("parser_name",)),
}
#: Our placeholder's name for each argparse placeholder.
_OUR_NAMES = {
    "prog": "prog",
    "message": "message",
    "argument_name": "argument",
    "%s": "arguments",
    "value": "value",
    "choices": "choices",
    "type": "type",
    "option": "option",
    "matches": "matches",
    "%r": "value",
    "parser_name": "name",
}
#: Where one message names a positional placeholder otherwise (one argument, not a list of them).
_OUR_NAMES_IN = {"cli.argparse.not_allowed": {"%s": "argument"}}
_POSITIONAL_NAMES = {"%s", "%r"}
_NAMED = re.compile(r"%\((\w+)\)([a-z])")


class ArgparseCatalogue(gettext.NullTranslations):
    """argparse's English msgids answered from our catalogue in ``t``'s language, as %-format strings.

    >>> catalogue = ArgparseCatalogue(translator("en"))
    >>> catalogue.gettext("%(prog)s: error: %(message)s\\n") % {"prog": "foursquare", "message": "no"}
    'foursquare: error: no\\n'
    >>> catalogue.ngettext("expected %s argument", "expected %s arguments", 2) % 2
    'expected 2 arguments'
    """

    def __init__(self, t: Translator) -> None:
        super().__init__()
        self.t = t

    def gettext(self, message: str) -> str:
        return self._translate(message, None)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        if msgid1 in ARGPARSE_MESSAGES:
            return self._translate(msgid1, n)
        return msgid1 if n == 1 else msgid2

    def _translate(self, message: str, count: int | None) -> str:
        found = ARGPARSE_MESSAGES.get(message)
        if found is None or not self.t.has(found[0]):
            return message  # not ours to translate: argparse's English, as it would print it
        key, names = found
        if count is not None:
            # argparse does ``ngettext(...) % n``: our form for n, with n given back to argparse as "%s".
            return self.t(key, count=count).replace("%", "%%").replace(self.t.number(count), "%s", 1)
        # Each placeholder becomes a marker no translation contains; the text is then made %-safe and the
        # markers become argparse's own placeholders again, which argparse fills after this returns.
        ours = {**_OUR_NAMES, **_OUR_NAMES_IN.get(key, {})}
        markers = {ours[name]: f"\x00{index}\x00" for index, name in enumerate(names)}
        text = self.t(key, **markers).replace("%", "%%")
        conversions = dict(_NAMED.findall(message))  # %(value)r stays a repr, %(prog)s a str
        for name, marker in zip(names, markers.values(), strict=True):
            text = text.replace(marker, name if name in _POSITIONAL_NAMES else f"%({name}){conversions[name]}")
        if key == "cli.argparse.usage":
            text += " "  # argparse writes the command line straight after it
        if message.endswith("\n") and not text.endswith("\n"):
            text += "\n"
        return text


#: The language argparse speaks at the moment: option types word their errors in it (:class:`OptionError`).
_speaking_now: ContextVar[Translator | None] = ContextVar("foursquare_cli_language", default=None)


@contextmanager
def argparse_speaks(t: Translator) -> Iterator[None]:
    """While the block runs, argparse's own words come from ``t``'s catalogue (see the module's docstring)."""
    catalogue = ArgparseCatalogue(t)
    saved = (argparse._, argparse.ngettext)  # type: ignore[attr-defined]
    argparse._ = catalogue.gettext  # type: ignore[attr-defined]
    argparse.ngettext = catalogue.ngettext  # type: ignore[attr-defined]
    token = _speaking_now.set(t)
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]
        _speaking_now.reset(token)


def current_translator() -> Translator:
    """The language of the parser at work (English outside one)."""
    return _speaking_now.get() or _english()


class OptionError(argparse.ArgumentTypeError):
    """An option's value is wrong: raised by an option type, worded when argparse reports it.

    An option type is called with the text alone, so it cannot know the language; argparse turns this error
    into its message with ``str()`` while a :class:`Parser` is parsing, and that is when the text is written,
    in the parser's language.
    """

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def __str__(self) -> str:
        return current_translator()(self.key, **self.params)


F = TypeVar("F", bound=Callable[..., Any])


def _speaking(method: F) -> F:
    @functools.wraps(method)
    def wrapper(self: Parser, *args: Any, **kwargs: Any) -> Any:
        with argparse_speaks(self.translator):
            return method(self, *args, **kwargs)

    return wrapper  # type: ignore[return-value]


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose own words are in ``translator``'s language; its subcommands' parsers too."""

    def __init__(self, *args: Any, translator: Translator | None = None, **kwargs: Any) -> None:
        self.translator = translator or _english()
        kwargs.setdefault("formatter_class", argparse.HelpFormatter)
        with argparse_speaks(self.translator):  # "positional arguments", "options", the -h line
            super().__init__(*args, **kwargs)

    def add_subparsers(self, **kwargs: Any) -> Any:
        """The subcommands' action; its ``translator`` is this parser's, for the commands' help texts."""
        kwargs.setdefault("parser_class", functools.partial(Parser, translator=self.translator))
        action = super().add_subparsers(**kwargs)
        action.translator = self.translator  # type: ignore[attr-defined]
        return action

    parse_args = _speaking(argparse.ArgumentParser.parse_args)  # "unrecognized arguments" is said here
    parse_known_args = _speaking(argparse.ArgumentParser.parse_known_args)
    format_usage = _speaking(argparse.ArgumentParser.format_usage)
    format_help = _speaking(argparse.ArgumentParser.format_help)

    @_speaking
    def error(self, message: str) -> NoReturn:
        """One line on standard error with the command line's one prefix (``foursquare: error: …``, as every
        other error of a command), exit status 2: no usage block first (``--help`` shows it)."""
        program = self.prog.split()[0] if self.prog else "foursquare"
        self.exit(2, self.translator("cli.error", prog=program, message=message) + "\n")

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        """argparse's, except that output which cannot be written to standard output (``--help`` into a full
        disk) raises, for the command line to report as it does any other command's output."""
        if message and file is sys.stdout:
            file.write(message)
        else:
            super()._print_message(message, file)

    parse_intermixed_args = _speaking(argparse.ArgumentParser.parse_intermixed_args)
    parse_known_intermixed_args = _speaking(argparse.ArgumentParser.parse_known_intermixed_args)


class _Pending:
    """A command declared but not built yet: ``load`` registers its module's parsers."""

    def __init__(self, load: Callable[[], None]) -> None:
        self.load = load


class _Parsers(dict[str, Any]):
    """The subcommands' parsers by name, each built (its module imported) when it is first looked up; ``values()``,
    ``items()`` and ``get()`` build every one, so that code that walks the command line sees it all."""

    def __getitem__(self, name: str) -> Any:
        found = super().__getitem__(name)
        if isinstance(found, _Pending):
            found.load()
            found = super().__getitem__(name)
        return found

    def get(self, name: str, default: Any = None) -> Any:
        if name not in self:
            return default
        return self[name]

    def _all(self) -> None:
        for name in list(self):
            self[name]

    def values(self) -> Any:
        self._all()
        return super().values()

    def items(self) -> Any:
        self._all()
        return super().items()


class LazyCommands(argparse._SubParsersAction):  # type: ignore[type-arg]
    """Subcommands declared by name and help line (:meth:`add_command`) and built when one runs or its help is
    asked for: ``foursquare --help`` and ``foursquare play`` import no other command's module (issue 43: each
    command starts in at most 0.3 s however many commands there are).

    A command's module registers its parsers as it would on an ordinary subparsers action (``add_parser``), once
    its command is first looked up; :meth:`for_each_parser` applies a function to every parser built, now or
    later (``--lang`` on each).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._name_parser_map: _Parsers = _Parsers()
        self.choices = self._name_parser_map
        self._finishers: list[Callable[[argparse.ArgumentParser], None]] = []
        self._built: list[argparse.ArgumentParser] = []

    def add_command(self, name: str, help: str, load: Callable[[LazyCommands], None]) -> None:
        """Declare command ``name`` with its line in the help; ``load(self)`` registers its parsers (and maybe
        other declared commands': a module that registers several is loaded once)."""
        if name in self._name_parser_map:
            raise argparse.ArgumentError(self, f"conflicting subparser: {name}")
        self._choices_actions.append(self._ChoicesPseudoAction(name, (), help))
        loaded: list[bool] = []

        def load_once() -> None:
            if not loaded:
                loaded.append(True)
                self._load(load)
            if isinstance(dict.get(self._name_parser_map, name), _Pending):
                raise RuntimeError(f"loading the command {name!r} did not register it")

        dict.__setitem__(self._name_parser_map, name, _Pending(load_once))

    def _load(self, load: Callable[[LazyCommands], None]) -> None:
        self._built = []
        load(self)
        built, self._built = self._built, []
        for parser in built:
            for finish in self._finishers:
                finish(parser)

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        """A declared command's parser, built by argparse's own ``add_parser`` in its declared place; its help line
        stays the declared one (the tests check they agree)."""
        parsers = self._name_parser_map
        if isinstance(dict.get(parsers, name), _Pending):
            kwargs.pop("help", None)  # listed already
            order = list(parsers)
            dict.__delitem__(parsers, name)
            parser = super().add_parser(name, **kwargs)
            built = dict(dict.items(parsers))
            dict.clear(parsers)
            dict.update(parsers, {key: built[key] for key in order + [key for key in built if key not in order]})
        else:
            parser = super().add_parser(name, **kwargs)
        self._built.append(parser)
        return parser

    def for_each_parser(self, finish: Callable[[argparse.ArgumentParser], None]) -> None:
        """``finish(parser)`` on every command's parser: those built now, and the others when they are."""
        for parser in dict.fromkeys(dict.values(self._name_parser_map)):
            if not isinstance(parser, _Pending):
                finish(parser)
        self._finishers.append(finish)


def _english() -> Translator:
    return translator("en")


def help_text(t: Translator, key: str, **params: object) -> str:
    """A help string from the catalogue, safe from argparse's ``%`` formatting (``95%`` stays ``95%``)."""
    return t(key, **params).replace("%", "%%")
