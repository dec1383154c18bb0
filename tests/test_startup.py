"""Issue 43: every command starts fast, and stays so as the code grows, checked without a clock.

What a start costs is what it imports and reads, so these tests say what it must not: ``--version`` and ``--help``
load no command's module, no rich, numpy, numba, store, web framework nor Babel's catalogue reader, and a
command's ``--help`` loads its own module and nothing heavy. The command line is built lazily
(:class:`foursquare.cli.parser.LazyCommands`): its help is checked to be the eagerly built one's in every language.
The catalogues are loaded as the build compiled them (:mod:`foursquare.i18n.compile`): checked to be Babel's
reading of each, and not read once the catalogue has changed. benchmarks/startup.py measures the times.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from fnmatch import fnmatch
from pathlib import Path

import pytest

from foursquare.cli import COMMAND_GROUPS, COMMANDS, build_parser
from foursquare.i18n import ENGLISH, LANGUAGES, PSEUDO, Language, translator
from foursquare.i18n.catalogue import (
    COMPILED_FORMAT,
    TEMPLATE,
    CatalogueError,
    compiled_path,
    load,
    po_path,
    read_messages,
    stamp,
    translations,
)
from foursquare.i18n.compile import compile_all, compile_catalogue

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
#: The terminal game's modules of the full screen only.
FULL_SCREEN_MODULES = ("interactive", "screens", "board", "terminal", "glyphs")
#: What a command's --help may load of HEAVY (patterns): play's epilog is the game's keys and words (tui.text and
#: tui.keys, rich's measure of their width), not the game (its store, rich's console, the key loop).
ALLOWED = {"play": ("foursquare.tui", "foursquare.tui.text", "foursquare.tui.keys", "rich", "rich.cells", "rich._*")}
#: What ``play`` in line mode must not load: the full screen's modules.
FULL_SCREEN = ("rich.console", "rich.table", "rich.panel", *(f"foursquare.tui.{name}" for name in FULL_SCREEN_MODULES))

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


@pytest.fixture(autouse=True, scope="module")
def compiled_catalogues() -> None:
    """The catalogues compiled as an install compiles them (a checkout's may be missing or stale)."""
    compile_all()


def loaded(*arguments: str, language: str = "C.UTF-8", data_dir: Path | None = None) -> list[str]:
    """The modules a fresh ``foursquare ARGUMENTS`` has loaded when it ends (its standard input empty)."""
    data = {} if data_dir is None else {"FOURSQUARE_DATA_DIR": str(data_dir)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *arguments],
        input="",
        capture_output=True,
        text=True,
        check=True,
        env={**ENVIRONMENT, "LANG": language, "COLUMNS": "80", **data},
    )
    assert done.stdout, done.stderr
    found: list[str] = json.loads(done.stderr.splitlines()[-1])
    return found


def matching(modules: list[str], prefixes: tuple[str, ...]) -> list[str]:
    return [name for name in modules if any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)]


@pytest.mark.parametrize("arguments", [("--version",), ("--help",), ()], ids=["--version", "--help", "bare"])
def test_version_and_help_load_nothing_heavy(arguments: tuple[str, ...]) -> None:
    assert matching(loaded(*arguments), NOT_AT_START) == []


def test_help_in_a_language_with_plurals_loads_no_babel() -> None:
    """The compiled catalogues hold the plural forms by CLDR category: no Babel to read them."""
    assert matching(loaded("--help", language="hr_HR.UTF-8"), NOT_AT_START) == []


@pytest.mark.parametrize("command", [*(name for name, _, _ in COMMANDS), "rl dataset", "study run"])
def test_a_commands_help_loads_its_module_and_nothing_heavy(command: str) -> None:
    modules = loaded(*command.split(), "--help")
    name = command.split()[0]
    module = next(module for command_name, module, _ in COMMANDS if command_name == name)
    assert f"foursquare.cli.{module}" in modules
    allowed = ALLOWED.get(name, ())
    assert [module for module in matching(modules, HEAVY) if not any(fnmatch(module, p) for p in allowed)] == []
    others = {f"foursquare.cli.{other}" for other in COMMAND_GROUPS if other != module}
    others -= {"foursquare.cli.records"} if module in ("autoplay", "coach") else set()  # outcome_text, theirs
    others -= {"foursquare.cli.benchmark"} if module == "rl" else set()  # rl evaluate and leaderboard
    assert sorted(others & set(modules)) == []


def test_play_in_line_mode_loads_nothing_of_the_full_screen(tmp_path: Path) -> None:
    """``play`` with no terminal plays line by line: rich's console, the screens and the key loop stay unloaded."""
    modules = loaded("play", "--deal", "1", data_dir=tmp_path)
    assert "foursquare.tui.lines" in modules
    assert matching(modules, FULL_SCREEN) == []
    assert matching(modules, ("numpy", "numba", "babel.messages", "foursquare.solver", "foursquare.kernel")) == []


#: The full-screen game, its loaded modules written to the file named by its first argument when it exits.
PLAY_PROBE = """
import atexit, json, sys
out = sys.argv.pop(1)
atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
from foursquare.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_play_on_a_terminal_loads_the_game_and_nothing_else(tmp_path: Path) -> None:
    """The full-screen game started and quit at once: its modules, rich's console and the store, and nothing of
    the solver, numpy, the web, the studies nor Babel's catalogue reader."""
    from pty_support import Terminal

    out = tmp_path / "modules.json"
    term = Terminal(
        "--deal", "1", "--no-mouse", data_dir=tmp_path, program=(sys.executable, "-c", PLAY_PROBE, str(out), "play")
    )
    try:
        term.wait_frame(0)
        term.press("q")
        assert term.finish() == 0
    finally:
        term.close()
    modules = json.loads(out.read_text(encoding="utf-8"))
    assert {"foursquare.tui.interactive", "rich.console"} <= set(modules)
    assert "foursquare.tui.lines" not in modules
    unused = tuple(
        prefix for prefix in HEAVY if prefix not in ("rich", "foursquare.tui", "foursquare.store", "sqlite3")
    )
    assert matching(modules, unused) == []


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


def catalogue_paths() -> list[tuple[Path, Language | None]]:
    return [(TEMPLATE, None)] + [(po_path(code), language) for code, language in LANGUAGES.items() if code != "en"]


@pytest.mark.parametrize("path, language", catalogue_paths(), ids=lambda value: getattr(value, "code", "template"))
def test_the_compiled_catalogue_is_what_babel_reads(path: Path, language: Language | None) -> None:
    """The build's JSON (compiled afresh by this module's fixture) holds Babel's reading, in the file's order, and
    is what a command loads."""
    babel = read_messages(path, language)
    assert len(babel) > 1000
    compiled = json.loads(compiled_path(path).read_text(encoding="utf-8"))
    assert compiled["sha256"] == stamp(path.read_bytes())
    assert list(compiled["messages"].items()) == list(babel.items())
    assert list(load(path, language).items()) == list(babel.items())
    plural = next(value for value in babel.values() if isinstance(value, dict))
    assert tuple(plural) == (language or ENGLISH).plural_categories


def test_a_stale_or_broken_compiled_catalogue_is_not_read(tmp_path: Path) -> None:
    """A catalogue edited since it was compiled is read by Babel, and nothing is written at run time."""
    source = tmp_path / "foursquare.po"
    source.write_bytes(po_path("hr").read_bytes())
    language = LANGUAGES["hr"]
    compiled = compile_catalogue(source, language)
    assert compiled == compiled_path(source) and load(source, language) == translations("hr")
    source.write_text(
        source.read_text(encoding="utf-8").replace('msgstr "Statistika"', 'msgstr "Statistika!"', 1), encoding="utf-8"
    )
    written = compiled.read_bytes()
    edited = load(source, language)
    assert edited != translations("hr") and edited == read_messages(source, language)
    assert sum(edited[key] != value for key, value in translations("hr").items()) == 1
    assert compiled.read_bytes() == written
    for broken in ("{", '{"format": 0}', json.dumps({"format": COMPILED_FORMAT})):
        compiled.write_text(broken, encoding="utf-8")
        assert load(source, language) == edited
    assert sorted(path.name for path in tmp_path.iterdir()) == ["foursquare.po", "foursquare.po.json"]


def test_a_missing_or_malformed_catalogue_is_named(tmp_path: Path) -> None:
    broken = tmp_path / "broken.po"
    broken.write_text('msgctxt "a"\nmsgid "b"\nmsgstr[0] "c"\nmsgstr "d"\nnonsense\n', encoding="utf-8")
    with pytest.raises(CatalogueError, match="malformed"):
        load(broken)
    with pytest.raises(CatalogueError, match="cannot read"):
        load(tmp_path / "missing.po")
