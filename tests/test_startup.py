"""Issue 43: every command starts fast, and stays so as the code grows, checked without a clock.

What a start costs is what it imports and reads, so these tests say what it must not: ``--version`` and ``--help``
load no command's module, no rich, numpy, numba, store, web framework nor Babel's catalogue reader, and a
command's ``--help`` loads its own module and nothing heavy. The command line is built lazily
(:class:`foursquare.cli.parser.LazyCommands`): its help is checked to be the eagerly built one's in every language,
and the catalogues' own reader to give what Babel's gives. benchmarks/startup.py measures the times.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from foursquare.cli import COMMAND_GROUPS, COMMANDS, build_parser
from foursquare.i18n import LANGUAGES, PSEUDO, translator
from foursquare.i18n.catalogue import TEMPLATE, Entry, _entry, read_catalogue, read_entries

#: What no start loads unless its command needs it (prefixes of module names).
HEAVY = (
    "rich",
    "numpy",
    "numba",
    "babel.messages",
    "foursquare.store",
    "foursquare.web",
    "foursquare.tui",
    "foursquare.solver",
    "foursquare.kernel",
    "foursquare.rl",
    "foursquare.study",
    "fastapi",
    "uvicorn",
    "gymnasium",
    "sqlite3",
)
#: Besides these, what --version and --help must not load either: the rules and every command's module.
NOT_AT_START = (*HEAVY, "babel", "foursquare.engine", *(f"foursquare.cli.{module}" for module in COMMAND_GROUPS))
#: What a command's --help may load of HEAVY: the game's keys are play's epilog (the game's modules, the store).
ALLOWED = {"play": ("foursquare.tui", "foursquare.store", "rich", "sqlite3")}

ENVIRONMENT = {name: value for name, value in os.environ.items() if name not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
PROBE = """
import json, sys
from foursquare.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def loaded(*arguments: str) -> list[str]:
    """The modules a fresh ``foursquare ARGUMENTS`` has loaded when it ends."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *arguments],
        capture_output=True,
        text=True,
        check=True,
        env={**ENVIRONMENT, "LANG": "C.UTF-8", "COLUMNS": "80"},
    )
    assert done.stdout, done.stderr
    found: list[str] = json.loads(done.stderr.splitlines()[-1])
    return found


def matching(modules: list[str], prefixes: tuple[str, ...]) -> list[str]:
    return [name for name in modules if any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)]


@pytest.mark.parametrize("arguments", [("--version",), ("--help",), ()], ids=["--version", "--help", "bare"])
def test_version_and_help_load_nothing_heavy(arguments: tuple[str, ...]) -> None:
    assert matching(loaded(*arguments), NOT_AT_START) == []


@pytest.mark.parametrize("command", [*(name for name, _, _ in COMMANDS), "rl dataset", "study run"])
def test_a_commands_help_loads_its_module_and_nothing_heavy(command: str) -> None:
    modules = loaded(*command.split(), "--help")
    name = command.split()[0]
    module = next(module for command_name, module, _ in COMMANDS if command_name == name)
    assert f"foursquare.cli.{module}" in modules
    heavy = tuple(prefix for prefix in HEAVY if prefix not in ALLOWED.get(name, ()))
    assert matching(modules, heavy) == []
    others = {f"foursquare.cli.{other}" for other in COMMAND_GROUPS if other != module}
    others -= {"foursquare.cli.records"} if module in ("autoplay", "coach") else set()  # outcome_text, theirs
    others -= {"foursquare.cli.benchmark"} if module == "rl" else set()  # rl evaluate and leaderboard
    assert sorted(others & set(modules)) == []


def command_paths(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield (*path, name)
                yield from command_paths(sub, (*path, name))


def help_of(parser: argparse.ArgumentParser, path: tuple[str, ...]) -> str:
    for name in path:
        action = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
        parser = action.choices[name]
    return parser.format_help()


@pytest.mark.parametrize("code", [*LANGUAGES, PSEUDO.code])
def test_the_lazy_command_line_is_the_eager_one(code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every command's help, and ``foursquare --help`` with the declared help lines, as the modules give them."""
    monkeypatch.setenv("COLUMNS", "100")
    t = translator(code)
    eager = build_parser(t, lazy=False)
    paths = [(), *command_paths(eager)]
    assert {path[0] for path in paths if path} == {name for name, _, _ in COMMANDS}
    lazy = build_parser(t)
    assert help_of(lazy, ()) == help_of(eager, ())  # before any command is built: the declared lines
    for path in paths:
        assert help_of(build_parser(t), path) == help_of(eager, path), path  # each built alone
    assert list(command_paths(lazy)) == paths[1:]


def test_a_lazy_command_parses_as_before() -> None:
    lazy = build_parser().parse_args(["deal", "7", "--lang", "en"])
    eager = build_parser(lazy=False).parse_args(["deal", "7", "--lang", "en"])
    assert vars(lazy) == vars(eager)
    with pytest.raises(SystemExit):
        build_parser().parse_args(["dela"])


def test_serve_names_the_stores_variable() -> None:
    from foursquare.cli import serve
    from foursquare.store import DATABASE_ENV

    assert serve.DATABASE_ENV == DATABASE_ENV


def catalogue_paths() -> list[tuple[Path, str | None]]:
    from foursquare.i18n.catalogue import po_path

    return [(TEMPLATE, None)] + [(po_path(code), language.cldr) for code, language in LANGUAGES.items() if code != "en"]


@pytest.mark.parametrize("path, locale", catalogue_paths(), ids=lambda value: getattr(value, "name", value))
def test_the_catalogue_reader_reads_what_babel_reads(path: Path, locale: str | None) -> None:
    babel = [_entry(message) for message in read_catalogue(path, locale=locale) if message.id]
    ours = [entry for entry in read_entries(path, locale=locale) if entry.id]
    assert len(ours) > 1000
    assert ours == babel


def test_what_the_reader_does_not_know_babel_reads(tmp_path: Path) -> None:
    from foursquare.i18n.catalogue import CatalogueError

    obsolete = tmp_path / "obsolete.po"
    obsolete.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgctxt "a.b"\nmsgid "A \\"b\\"\\n"\nmsgstr "c"\n\n#~ msgctxt "old"\n#~ msgid "Old"\n#~ msgstr "d"\n',
        encoding="utf-8",
    )
    assert [entry for entry in read_entries(obsolete) if entry.id] == [Entry("a.b", 'A "b"\n', "c", False)]
    broken = tmp_path / "broken.po"
    broken.write_text('msgctxt "a"\nmsgid "b"\nmsgstr[0] "c"\nmsgstr "d"\nnonsense\n', encoding="utf-8")
    with pytest.raises(CatalogueError, match="malformed"):
        read_entries(broken)
