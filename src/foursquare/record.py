"""Game records: the JSON format of ``docs/records.md``.

from foursquare.engine import Game
>>> game = Game(deal=17)
>>> _ = game.place(0, 0); _ = game.place(0, 1)
>>> to_json(game)["moves"], to_json(game)["deal"]
([[0, 0], [0, 1]], 17)
>>> load(to_json(game)).turn
2
"""

from __future__ import annotations

import json
import os
from typing import Any

from foursquare import files
from foursquare.cards import CardError
from foursquare.engine import Game, Move, MoveError, Outcome, Variant, VariantError
from foursquare.errors import FoursquareError

FORMAT = "foursquare-game"
VERSION = 1
#: What is wrong with a text that is not JSON: the start of the message of Python's parser, and its code.
JSON_FAULTS = (
    ("Expecting value", "expecting_value"),
    ("Expecting ',' delimiter", "expecting_comma"),
    ("Expecting ':' delimiter", "expecting_colon"),
    ("Expecting property name", "expecting_name"),
    ("Unterminated string", "unterminated_string"),
    ("Invalid control character", "control_character"),
    ("Invalid \\uXXXX escape", "bad_escape"),
    ("Invalid \\escape", "bad_escape"),
    ("Extra data", "extra_data"),
    ("Illegal trailing comma", "trailing_comma"),
)


class RecordError(FoursquareError):
    """A game record is malformed or describes an impossible game.

    Besides its English text, for developers, it says what is wrong in a form a front end can put in its
    player's words: ``code`` (``no_such_file``, ``cannot_read``, ``too_large`` (``limit``), ``not_utf8``
    (``position``: the first byte that is not), ``not_json``, ``too_deep``, ``number_too_long``, ``not_object``,
    ``duplicate_key`` (``field``: the key given twice, in quotes), ``unknown_format``, ``unsupported_version``,
    ``unknown_fields``, ``bad_variant``, ``deal_and_stock``, ``bad_deal``, ``bad_stock``, ``no_moves``,
    ``moves_not_list``, ``bad_move``, ``move_after_end``, ``illegal_move``; empty
    when unknown), ``params`` (the details: ``index`` of a move counted from 0, ``reason`` of an illegal move
    (:class:`IllegalMoveError`'s code), ``found``/``expected``, ``fields``, ``detail`` (an English text); for
    ``not_json``, ``fault`` (one of :data:`JSON_FAULTS`' codes, or ``other``), ``line`` and ``column``, counted
    from 1) and ``path``, the file read, if any.
    """

    def __init__(self, message: str, code: str = "", *, path: str | None = None, **params: object) -> None:
        super().__init__(message, code, **params)
        self.path = path


def to_json(game: Game) -> dict[str, Any]:
    """The record of ``game`` as a JSON-ready dict (moves undone and not redone are not part of it)."""
    data: dict[str, Any] = {"format": FORMAT, "version": VERSION}
    if game.deal is not None:
        data["deal"] = game.deal
    else:
        data["stock"] = [card.name for card in game.stock]
    data["variant"] = game.variant.to_json()
    data["moves"] = [m.to_json() for m in game.moves]
    return data


def dumps(game: Game) -> str:
    return json.dumps(to_json(game), indent=None) + "\n"


def load(data: object) -> Game:
    """Check a record (a parsed JSON value) and replay it; raise :class:`RecordError` saying what is wrong."""
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object", "not_object")
    if data.get("format") != FORMAT:
        raise RecordError(
            f"unknown format {data.get('format')!r}: expected {FORMAT!r}",
            "unknown_format",
            found=repr(data.get("format")),
            expected=repr(FORMAT),
        )
    version = data.get("version")
    if version != VERSION or isinstance(version, bool):
        raise RecordError(
            f"unsupported version {version!r}: this program reads version {VERSION}",
            "unsupported_version",
            found=repr(version),
            expected=VERSION,
        )
    unknown = sorted(set(data) - {"format", "version", "deal", "stock", "variant", "moves"})
    if unknown:
        fields = ", ".join(map(str, unknown))
        raise RecordError(f"unknown field(s): {fields}", "unknown_fields", fields=fields)
    try:
        variant = Variant.from_json(data.get("variant"))
    except VariantError as exc:
        raise RecordError(f"bad variant: {exc}", "bad_variant", detail=str(exc)) from None
    has_deal, has_stock = "deal" in data, "stock" in data
    if has_deal == has_stock:
        raise RecordError('a record needs exactly one of "deal" and "stock"', "deal_and_stock")
    try:
        if has_deal:
            game = Game(deal=data["deal"], variant=variant)
        else:
            game = Game(stock=data["stock"], variant=variant)
    except CardError as exc:
        what = "deal" if has_deal else "stock"
        raise RecordError(f"bad {what}: {exc}", f"bad_{what}", detail=str(exc)) from None
    if "moves" not in data:  # a game before its first card has an empty list: a record without one is cut short
        raise RecordError('a record needs its "moves" (an empty list before the first card)', "no_moves")
    moves = data["moves"]
    if not isinstance(moves, list):
        raise RecordError("moves must be a list of [row, col] pairs", "moves_not_list")
    for index, data_move in enumerate(moves):
        try:
            move = Move.from_json(data_move)
        except MoveError as exc:
            raise RecordError(f"move {index}: {exc}", "bad_move", index=index, detail=str(exc)) from None
        if game.is_over():
            raise RecordError(
                f"move {index}: the game was already over after {index} moves", "move_after_end", index=index
            )
        error = game.illegality(move.row, move.col)
        if error is not None:
            raise RecordError(f"move {index}: illegal: {error}", "illegal_move", index=index, reason=error.reason)
        game.place(move.row, move.col)
    return game


class DuplicateKey(Exception):
    """A JSON object gives one of its keys twice (``json`` would keep the last and say nothing)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _no_key_twice(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """A JSON object as a dict; raise :class:`DuplicateKey` for a key given twice."""
    data: dict[str, object] = {}
    for key, value in pairs:
        if key in data:
            raise DuplicateKey(key)
        data[key] = value
    return data


def loads(text: str) -> Game:
    """Read a record from its text (a byte order mark before it is allowed, as some editors write one)."""
    try:
        data = json.loads(text.removeprefix("\ufeff"), object_pairs_hook=_no_key_twice)
    except DuplicateKey as exc:
        field = json.dumps(exc.key, ensure_ascii=False)
        raise RecordError(f"not a record: the field {field} is given twice", "duplicate_key", field=field) from None
    except json.JSONDecodeError as exc:
        fault = next((code for start, code in JSON_FAULTS if exc.msg.startswith(start)), "other")
        raise RecordError(
            f"not valid JSON: {exc}", "not_json", detail=str(exc), fault=fault, line=exc.lineno, column=exc.colno
        ) from None
    except RecursionError:  # [[[[…]]]] deeper than Python's parser goes
        raise RecordError("not a record: its JSON is nested too deeply", "too_deep") from None
    except ValueError as exc:  # a number of thousands of digits: Python will not convert it
        raise RecordError(f"not a record: {exc}", "number_too_long") from None
    return load(data)


#: The largest record file read: a record is a few kilobytes, and a device such as /dev/zero never ends.
MAX_RECORD_BYTES = 1_000_000


def read(path: str | os.PathLike[str]) -> Game:
    """Load a record file (:class:`RecordError` ``too_large`` past :data:`MAX_RECORD_BYTES`)."""
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_RECORD_BYTES + 1)
        if len(data) > MAX_RECORD_BYTES:
            raise RecordError(
                f"{os.fspath(path)}: not a record: it is larger than {MAX_RECORD_BYTES} bytes",
                "too_large",
                path=os.fspath(path),
                limit=MAX_RECORD_BYTES,
            )
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(
            f"{os.fspath(path)}: not a record: not UTF-8 text (byte {exc.start})",
            "not_utf8",
            path=os.fspath(path),
            position=exc.start,
        ) from None
    except FileNotFoundError:
        raise RecordError(f"{os.fspath(path)}: no such file", "no_such_file", path=os.fspath(path)) from None
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise RecordError(
            f"{os.fspath(path)}: cannot read: {exc}", "cannot_read", path=os.fspath(path), reason=reason
        ) from None
    try:
        return loads(text)
    except RecordError as exc:
        raise RecordError(f"{os.fspath(path)}: {exc}", exc.code, path=os.fspath(path), **exc.params) from None


def write(game: Game, path: str | os.PathLike[str]) -> None:
    """Save the record of ``game`` atomically: the file is either the old one or the new one, whole.

    Raises :class:`~foursquare.files.FileWriteError` if it cannot be written.
    """
    files.write_text(path, json.dumps(to_json(game), indent=1) + "\n")


def cells_json(game: Game) -> list[dict[str, Any]]:
    """Every pile as the player sees it, sorted by (row, col): ``{"row", "col", "cell", "height", "card",
    "face_up"}``, ``cell`` being the cell's name (``"D4"``).

    The same in ``foursquare replay --json`` and in the web API's states and replays.
    """
    return [
        {
            "row": c.row,
            "col": c.col,
            "cell": c.cell_name,
            "height": c.height,
            "card": c.top.name,
            "face_up": c.top_face_up,
        }
        for c in game.cells()
    ]


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    """``{"outcome", "reason", "score"}``: ``"playing"``, null, null while the game goes on."""
    return {"outcome": outcome.status, "reason": outcome.reason, "score": outcome.score}


def replay_json(game: Game) -> dict[str, Any]:
    """The summary printed by ``foursquare replay --json`` (see ``docs/records.md``)."""
    return {
        **outcome_json(game.outcome()),
        "played": game.turn,
        "stock_left": game.stock_left,
        "face_down": game.face_down,
        "cells": cells_json(game),
    }
