"""The command line in every language: --help, argparse's own words, errors and text output.

Most cases call ``foursquare.cli.main`` in the test process (subprocesses cost a second each); a few run the
real command to prove the language reaches it from ``--lang`` and from the POSIX environment. The
pseudo-language ``qps`` brackets every catalogue message (⟦…⟧): a Latin word outside the brackets is a word
that escaped the catalogue, unless it is an identifier the user types or reads as typed (the allow-list).
"""

from __future__ import annotations

import argparse
import gettext
import inspect
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from foursquare import record
from foursquare.cli import LANGUAGE_CODES, LANGUAGE_VARIABLES, build_parser, main
from foursquare.cli.coach import analysis_text
from foursquare.cli.parser import ARGPARSE_MESSAGES, ArgparseCatalogue
from foursquare.engine import Game
from foursquare.i18n import LANGUAGES, english, translator
from foursquare.i18n.catalogue import translations
from foursquare.store import TERMINAL_PLAYER, Store

CODES = tuple(LANGUAGES)  # en, uz, hr, fil, kn, bn

#: Words that may stand outside ⟦…⟧ in the pseudo-language: what the user types as it is (options' values,
#: choices, commands), the program's name, and the words of the address of a Dask scheduler's metavariable.
ALLOWED = {
    "foursquare",
    "orthogonal",
    "diagonal",
    "solver",
    "best",
    "expert",
    "greedy",
    "random",
    "jsonl",
    "csv",
    "parquet",
    "tcp",
    "x",
    "text",  # serve --log-format's two values, typed as they are
    "json",
    "quick",  # rl evaluate --test's and rl leaderboard --format's values, and the rollout agent's name
    "full",
    "table",
    "markdown",
    "rollout",
}
#: Card names (7H, AH, 10S), cell names (D4), pile heights (x3), metavariables and options (--deal, FILE, A-B),
#: keys of the terminal game (u, i-z) in play's help.
_IDENTIFIER = re.compile(
    r"^(?:-{1,2}[a-z][a-z-]*|[A-Z][A-Z0-9_\-\[\],…:]*|(?:A|[2-9]|10)[CDHS](?:x\d+)?|x\d+|[a-z](?:-[a-z])?)$"
)
_WORD = re.compile(r"(?<![\w-])-{0,2}[A-Za-z][A-Za-z0-9_\-]*")


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """argparse wraps help at the terminal's width: a wide one keeps each message on one line."""
    monkeypatch.setenv("COLUMNS", "500")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``foursquare ARGS`` in this process: exit status, standard output, standard error."""
    try:
        code = main(list(args))
    except SystemExit as exc:  # --help and usage errors: argparse exits
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    assert not re.search(r"\{[a-z_]+\}", out + err), "a message was given no value for one of its {placeholders}"
    return code, out, err


def flat(text: str) -> str:
    return " ".join(text.split())


def contains(output: str, message: str) -> bool:
    return flat(message) in flat(output)


def escaped_words(text: str, allowed: set[str] = ALLOWED) -> list[str]:
    """The Latin words of ``text`` outside ⟦…⟧ that are not identifiers: text that escaped the catalogue."""
    previous = None
    while previous != text:  # brackets nest (an error's message inside "foursquare: error: …")
        previous, text = text, re.sub(r"⟦[^⟦⟧]*⟧", " ", text)
    words = []
    for word in _WORD.findall(text):
        if word in allowed or _IDENTIFIER.match(word):
            continue
        words.append(word)
    return words


def commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Every command and subcommand, as the words that name it (``("study", "run")``)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield (*path, name)
                yield from commands(sub, (*path, name))


def command_names() -> set[str]:
    return {word for path in commands(build_parser()) for word in path}


def play_is_translated() -> bool:
    """``foursquare play``'s help is the terminal game's (term.play.*, cli/play.py): checked once its
    ``register`` takes the language."""
    from foursquare.cli import play

    return len(inspect.signature(play.register).parameters) > 1


# --- each of the six languages --------------------------------------------------------------------------------


@pytest.mark.parametrize("code", CODES)
def test_help_and_errors_in_each_language(code: str, capsys: pytest.CaptureFixture[str]) -> None:
    t = translator(code)
    status, out, _ = run(capsys, "--lang", code, "--help")
    assert status == 0
    for key in ("cli.description", "cli.argparse.usage", "cli.argparse.options", "cli.argparse.help"):
        assert contains(out, t(key)), key
    lang_help = t("cli.lang.help", codes=LANGUAGE_CODES, variables=LANGUAGE_VARIABLES)
    assert contains(out, lang_help) and contains(out, t("cli.solve.help"))
    main_help = out

    status, out, _ = run(capsys, "solve", "--help", "--lang", code)
    assert status == 0
    keys = ("cli.solve.description", "cli.solve.deal.help", "cli.option.house_rules", "cli.option.count_buried.help")
    for key in keys:
        assert contains(out, t(key)), key

    status, out, err = run(capsys, "--lang", code, "solve", "--deal", "x")
    assert status == 2 and out == ""
    problem = t("cli.option.deal_not_integer", value="'x'")
    wrong = t("cli.argparse.argument", argument="--deal", message=problem)
    message = t("cli.error", prog="foursquare", message=wrong)
    assert err.count("\n") == 1 and contains(err, message)  # one line, no usage block before it

    status, out, err = run(capsys, "--lang", code, "deal")
    assert status == 2 and out == ""
    assert err.strip() == t("cli.error", prog="foursquare", message=t("cli.deal.no_deal", winnable="--winnable"))

    if code != "en" and "cli.description" in translations(code):  # once the language's translator has been
        english_help = run(capsys, "--lang", "en", "--help")[1]
        assert main_help != english_help


def test_tl_is_fil(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "--lang", "tl", "--help") == run(capsys, "--lang", "fil", "--help")
    assert run(capsys, "--lang=tl", "deal") == run(capsys, "--lang", "fil", "deal")


def test_an_unknown_language_falls_back_to_english_with_a_note(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "--lang", "de", "deal", "1")
    assert status == 0 and len(out.split()) == 40
    assert err.strip() == "foursquare: note: no messages in the language 'de'; using English"
    status, out, err = run(capsys, "--lang", "de", "--help")
    assert status == 0 and out.startswith("usage: foursquare") and "note" in err


def test_argparse_gets_its_words_back_after_a_run(capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "--lang", "qps", "deal", "1", "--bogus")
    assert argparse._ is gettext.gettext  # type: ignore[attr-defined]
    assert argparse.ngettext is gettext.ngettext  # type: ignore[attr-defined]
    assert set(english()) >= {key for key, _ in ARGPARSE_MESSAGES.values()}


@pytest.mark.parametrize("msgid", sorted(ARGPARSE_MESSAGES))
def test_each_argparse_sentence_fills_every_placeholder_of_its_message(msgid: str) -> None:
    """An argparse sentence given back in English and in the pseudo-language keeps all of argparse's fields."""
    for code in ("en", "qps"):
        catalogue = ArgparseCatalogue(translator(code))
        if msgid.startswith("expected %s"):
            text = catalogue.ngettext(msgid, msgid + "s", 3)
        else:
            text = catalogue.gettext(msgid)
        assert "{" not in text, text
        wanted = sorted(re.findall(r"%\(\w+\)[a-z]|%[sr]", msgid))
        assert sorted(re.findall(r"%\(\w+\)[a-z]|(?<!%)%[sr]", text)) == wanted, (code, text)


def test_argparse_says_nothing_we_do_not_translate() -> None:
    """Every sentence of this Python's argparse a user can meet is in the map (the rest are programming errors)."""
    source = inspect.getsource(argparse)
    said = set(re.findall(r"_\(\s*'((?:[^'\\]|\\.)*)'", source)) | set(re.findall(r"ngettext\(\s*'([^']*)'", source))
    said = {text.replace("\\n", "\n") for text in said}
    programming_errors = {
        ".__call__() not defined",
        "cannot merge actions - two groups are named %r",
        "invalid option string %(option)r: ",  # (the first line of a longer literal)
        "dest= is required for options like %r",
        "invalid conflict_resolution value: %r",
        "conflicting option string: %s",
        "mutually exclusive arguments must be optional",
        "cannot have multiple subparser arguments",
        "%r is not callable",
        "length of metavar tuple does not match nargs",
        "conflicting subparser: %s",
        "conflicting subparser alias: %s",
        "argument \"-\" with mode %r",
        "can't open '%(filename)s': %(error)s",
        "unexpected option string: %s",
        "show program's version number and exit",  # we have no --version
    }
    untranslated = said - programming_errors - set(ARGPARSE_MESSAGES)
    assert untranslated == set()


def test_library_errors_are_worded_in_the_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    t = translator("hr")
    missing = tmp_path / "missing.json"
    status, _, err = run(capsys, "--lang", "hr", "replay", str(missing))
    expected = t("cli.record.error", path=str(missing), message=t("cli.record.no_such_file"))
    assert status == 2 and err.strip() == t("cli.error", prog="foursquare", message=expected)

    game = Game(deal=1)
    game.place(0, 0)
    data = record.to_json(game)
    data["moves"].append([3, 3])  # far from the first card: illegal
    illegal = tmp_path / "illegal.json"
    illegal.write_text(json.dumps(data))
    status, _, err = run(capsys, "--lang", "hr", "hint", str(illegal))
    reason = t("error.illegal.not_adjacent")
    expected = t("cli.record.error", path=str(illegal), message=t("cli.record.illegal_move", move=2, reason=reason))
    assert status == 2 and err.strip() == t("cli.error", prog="foursquare", message=expected)

    status, _, err = run(capsys, "--lang", "hr", "stats", "--db", str(tmp_path))
    message = t("cli.store.is_directory", path=str(tmp_path))
    assert status == 2 and err.strip() == t("cli.error", prog="foursquare", message=message)


# --- the pseudo-language: nothing escapes the catalogue ------------------------------------------------------


def test_every_help_in_the_pseudo_language(capsys: pytest.CaptureFixture[str]) -> None:
    allowed = ALLOWED | command_names()
    paths = [()] + [path for path in commands(build_parser()) if path[0] != "play" or play_is_translated()]
    for path in paths:
        status, out, err = run(capsys, *path, "--help", "--lang", "qps")
        assert status == 0 and err == ""
        if not play_is_translated():
            out = "\n".join(line for line in out.splitlines() if not line.strip().startswith("play "))
        assert escaped_words(out, allowed) == [], path


@pytest.mark.parametrize(
    "args",
    [
        ("solve", "--deal", "x"),
        ("solve",),
        ("solve", "--deal", "1", "--adjacency", "sideways"),
        ("solve", "--deal", "1", "--timeout", "-1"),
        ("deal",),
        ("deal", "1", "--bogus"),
        ("deal", "--seed"),
        ("autoplay", "--deals", "9-1"),
        ("autoplay", "--jobs", "0", "--deal", "1"),
        ("bench", "--deals", "x"),
        ("stats", "--recent", "many"),
        ("study",),
        ("study", "run", "--what", "greedy", "--deals", "1-10,5-20", "--db", "studies.db"),
        ("serve", "--port", "70000"),
        ("replay", "no-such-file.json"),
    ],
)
def test_errors_in_the_pseudo_language(args: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "--lang", "qps", *args)
    assert status == 2 and out == "" and "⟦" in err
    assert escaped_words(err, ALLOWED | command_names() | {"sideways", "many", "no-such-file"}) == []


def test_text_output_in_the_pseudo_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # stats: an empty database, then one with a game won and one lost
    db = tmp_path / "games.db"
    Store(db).close()
    status, out, _ = run(capsys, "--lang", "qps", "stats", "--db", str(db))
    assert status == 0 and escaped_words(out.replace(str(db), "")) == []
    store = Store(db)
    for deal in (1, 2):
        game = Game(deal=deal)
        while not game.is_over():
            move = game.legal_moves[0]
            game.place(move.row, move.col)
        store.games.record(f"terminal-{deal}", TERMINAL_PLAYER, game, hidden=False, assisted=deal == 2)
    store.close()
    status, out, _ = run(capsys, "--lang", "qps", "stats", "--db", str(db))
    assert status == 0 and escaped_words(out.replace(str(db), "")) == []

    # replay: the grid and the outcome line
    path = tmp_path / "game.json"
    record.write(game, path)
    status, out, _ = run(capsys, "--lang", "qps", "replay", str(path))
    assert status == 0 and "⟦" in out and escaped_words(out) == []

    # autoplay and solve
    status, out, _ = run(capsys, "--lang", "qps", "autoplay", "--deal", "3", "--player", "greedy", "--delay", "0")
    assert status == 0 and escaped_words(out) == []
    status, out, _ = run(capsys, "--lang", "qps", "solve", "--deal", "1", "--timeout", "2")
    assert status == 0 and "⟦" in out and escaped_words(out) == []

    # hint on an unfinished game; the analysis's text (the analysis itself takes seconds: its figures are made up)
    unfinished = Game(deal=2)
    for move in game.moves[:3]:  # the last game recorded above, of deal 2
        unfinished.place(move.row, move.col)
    record.write(unfinished, tmp_path / "unfinished.json")
    status, out, _ = run(capsys, "--lang", "qps", "hint", str(tmp_path / "unfinished.json"))
    assert status == 0 and "⟦" in out and escaped_words(out) == []
    assert escaped_words(analysis_text(ANALYSIS, translator("qps"))) == []
    unknown = {"best_score": None, "status": "bounds", "upper_bound": 3}
    for perfect in ({"best_score": None, "status": "unwinnable"}, unknown):
        assert escaped_words(analysis_text({**ANALYSIS, "perfect": perfect}, translator("qps"))) == []


ANALYSIS = {
    "deal": 2,
    "outcome": "lost",
    "reason": "too_many_face_down",
    "score": 0,
    "moves": [
        {
            "index": index,
            "card": card,
            "played_cell": "D4",
            "best_cell": "C4",
            "played_expected_score": 1.5,
            "best_expected_score": 2.5,
            "played_win_probability": 0.25,
            "best_win_probability": 0.5,
            "expected_score_loss": loss,
            "expected_score_loss_low": loss / 2,
            "forced": index == 0,
            "mistake": loss > 1,
        }
        for index, (card, loss) in enumerate((("AH", 0.0), ("10S", 2.0), ("7D", 0.5)))
    ],
    "costliest": [1],
    "perfect": {"best_score": 4, "status": "optimal", "upper_bound": 4, "line_cells": ["D4", "C4"]},
}


def test_bengali_numbers_use_bengali_digits(capsys: pytest.CaptureFixture[str]) -> None:
    t = translator("bn")
    status, out, _ = run(capsys, "--lang", "bn", "solve", "--deal", "1", "--timeout", "2")
    assert status == 0 and re.search("[০-৯]", out.splitlines()[-1])  # time and nodes searched
    assert out.splitlines()[0] == t("cli.solve.deal", deal="1")  # a deal number stays as typed


# --- the real command -----------------------------------------------------------------------------------------


def command(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "foursquare.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )


def test_the_command_follows_lang(tmp_path: Path) -> None:
    t = translator("kn")
    result = command("--lang", "kn", "solve", "--deal", "x")
    assert result.returncode == 2
    assert contains(result.stderr, t("cli.option.deal_not_integer", value="'x'"))


def test_the_command_follows_the_environment_without_language() -> None:
    env = {name: value for name, value in os.environ.items() if name not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env["LANG"] = "bn_BD.UTF-8"
    env["COLUMNS"] = "500"
    t = translator("bn")
    result = command("deal", "1", "--bogus", env=env)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and t("cli.argparse.usage") not in result.stderr
    unrecognized = t("cli.argparse.unrecognized", arguments="--bogus")
    assert contains(result.stderr, t("cli.error", prog="foursquare", message=unrecognized))
