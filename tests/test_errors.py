"""The library's errors: one base class, stable codes and details, whole across processes, worded by the CLI."""

from __future__ import annotations

import ast
import pickle
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from foursquare import record
from foursquare.cards import Card, CardError
from foursquare.cli.errors import user_message
from foursquare.engine import Game, IllegalMoveError, VariantError
from foursquare.errors import FoursquareError
from foursquare.i18n import translator
from foursquare.players import ERRORS, PlayerError, make_player
from foursquare.record import RecordError
from foursquare.store import DamagedGameError, Store, StoreError, UnknownGameError
from foursquare.study.work import StudyError, StudySettings

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "foursquare"
FRONT_ENDS = ("cli", "tui", "web")


def _library_sources() -> list[Path]:
    return [p for p in sorted(PACKAGE.rglob("*.py")) if p.relative_to(PACKAGE).parts[0] not in FRONT_ENDS]


def _base_names(node: ast.ClassDef) -> list[str]:
    return [ast.unparse(base) for base in node.bases]


def test_no_library_error_derives_from_value_error_but_through_the_base_class() -> None:
    classes = [
        (path.relative_to(PACKAGE), node)
        for path in _library_sources()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef)
    ]
    assert len([c for c in classes if c[1].name.endswith("Error")]) >= 15
    direct = [f"{path}: {node.name}" for path, node in classes if "ValueError" in _base_names(node)]
    assert direct == ["errors.py: FoursquareError"]


@pytest.mark.parametrize(
    "error_class",
    [CardError, VariantError, IllegalMoveError, RecordError, StoreError, UnknownGameError, DamagedGameError,
     StudyError, PlayerError],
)  # fmt: skip
def test_the_errors_named_keep_their_names_and_are_value_errors(error_class: type[Exception]) -> None:
    assert issubclass(error_class, FoursquareError) and issubclass(error_class, ValueError)
    assert error_class.__module__.startswith("foursquare.")


def _raised(call: Callable[[], object]) -> FoursquareError:
    with pytest.raises(FoursquareError) as info:
        call()
    return info.value


def test_each_error_says_its_code_and_details_and_keeps_its_text(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    cases: list[tuple[FoursquareError, type[FoursquareError], str, dict[str, object], str | None]] = [
        (_raised(lambda: record.read(missing)), RecordError, "no_such_file", {}, f"{missing}: no such file"),
        (
            _raised(lambda: record.loads('{"format": "foursquare-game", "version": 1, "deal": 1, "moves": [[1, 1]]}')),
            RecordError,
            "illegal_move",
            {"index": 0, "reason": "first_card"},
            "move 0: illegal: cannot place a card at (1, 1): the first card goes to D4",
        ),
        (_raised(lambda: Store(tmp_path)), StoreError, "is_directory", {"path": str(tmp_path), "error": None}, None),
        (
            _raised(lambda: StudySettings("greedy", seed=-1)),
            StudyError,
            "bad_seed",
            {"seed": "-1", "max": str(2**64 - 1)},
            None,
        ),
        (
            _raised(lambda: make_player("nobody")),
            PlayerError,
            "unknown_player",
            {"name": "nobody", "choices": "random, greedy, best, expert"},
            "unknown player 'nobody': choose one of random, greedy, best, expert",
        ),
        (_raised(lambda: Card.parse("ZZ")), CardError, "", {}, None),
    ]
    for error, kind, code, params, text in cases:
        assert type(error) is kind and error.code == code and dict(error.params) == params, error
        assert text is None or str(error) == text
    unread = cases[0][0]
    assert isinstance(unread, RecordError) and unread.path == str(missing)  # the file: not a detail of the message


def test_an_illegal_move_has_its_reason_as_code() -> None:
    error = Game(deal=1).illegality(1, 1)
    assert isinstance(error, IllegalMoveError)
    assert (error.code, error.reason, dict(error.params)) == ("first_card", "first_card", {"row": 1, "col": 1})
    assert str(error) == "cannot place a card at (1, 1): the first card goes to D4"


def test_an_unknown_game_says_which(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.db")
    try:
        error = _raised(lambda: store.games.get("missing"))
    finally:
        store.close()
    assert isinstance(error, UnknownGameError) and error.game_id == "missing"
    assert (error.code, dict(error.params), str(error)) == (
        "unknown_game",
        {"game_id": "missing"},
        "there is no game with id 'missing'",
    )


def test_every_error_crosses_a_process_boundary_whole(tmp_path: Path) -> None:
    errors = [
        IllegalMoveError(1, 2, "not_adjacent", "the cell is empty and not orthogonally next to a card"),
        UnknownGameError("abc"),
        StoreError("cannot open", "cannot_open", tmp_path, "disk I/O error"),
        DamagedGameError("the stored game 'x' does not match its moves"),
        RecordError("move 3: bad", "bad_move", path="game.json", index=3, detail="bad"),
        StudyError("busy", "busy", path="s.db", error="locked"),
        _raised(lambda: make_player("nobody")),
        CardError("bad card name 'ZZ'"),
    ]
    for error in errors:
        copy = pickle.loads(pickle.dumps(error))
        assert type(copy) is type(error) and str(copy) == str(error) and copy.args == error.args
        assert vars(copy) == vars(error), type(error).__name__


def _literal_codes() -> dict[str, set[str]]:
    """The codes given as literals where the library raises the errors that have codes, by class."""
    positions = {"RecordError": 1, "StoreError": 1, "StudyError": 1, "_error": 1, "player_error": 0}
    found: dict[str, set[str]] = {}
    for path in _library_sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = ast.unparse(node.func).rsplit(".", 1)[-1]
            at = positions.get(name)
            code = node.args[at] if at is not None and len(node.args) > at else None
            if isinstance(code, ast.Constant):
                owner = {"_error": "StudyError", "player_error": "PlayerError"}.get(name, name)
                found.setdefault(owner, set()).add(str(code.value))
    return found


def test_every_code_raised_is_documented_on_the_base_class() -> None:
    doc = FoursquareError.__doc__ or ""
    codes = _literal_codes()
    assert {"RecordError", "StoreError", "StudyError", "PlayerError"} <= set(codes)
    assert set(ERRORS) == codes["PlayerError"]
    documented = set(re.findall(r"``([a-z0-9_]+)``", doc))
    missing = {owner: sorted(c - documented) for owner, c in codes.items() if c - documented}
    assert not missing


def test_the_command_line_words_only_the_errors_it_has_messages_for(tmp_path: Path) -> None:
    t = translator("en")
    store_error = StoreError("…", "is_directory", tmp_path)
    assert user_message(store_error, t) == t("cli.store.is_directory", path=str(tmp_path), error="",
                                                directory=str(tmp_path.parent), option="--db")  # fmt: skip
    for english in (
        StoreError("the game 'x' belongs to another player"),  # no code
        _raised(lambda: make_player("nobody")),  # a code, but no message of the command line
        StudyError("a code the catalogue lacks", "no_such_code"),
        ValueError("not ours"),
    ):
        assert user_message(english, t) == str(english)
