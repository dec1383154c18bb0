"""Game records: loading checks everything and says what is wrong."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from foursquare import record
from foursquare.cards import ALL_CARDS
from foursquare.engine import Game, Variant
from foursquare.files import FileWriteError
from foursquare.record import RecordError


def good(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": "foursquare-game",
        "version": 1,
        "deal": 17,
        "variant": {"adjacency": "orthogonal", "count_buried": False},
        "moves": [[0, 0], [0, 1], [-1, 1]],
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_the_documented_example_loads() -> None:
    game = record.load(good())
    assert game.deal == 17 and game.turn == 3 and game.variant == Variant()


def test_variant_may_be_omitted() -> None:
    data = good()
    del data["variant"]
    assert record.load(data).variant == Variant()


def test_stock_may_stand_instead_of_deal() -> None:
    data = good()
    del data["deal"]
    data["stock"] = [c.name for c in reversed(ALL_CARDS)]
    game = record.load(data)
    assert game.deal is None and game.stock[0].name == "10S"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "must be a JSON object"),
        (good(format="chess-game"), "unknown format 'chess-game'"),
        (good(version=2), "unsupported version 2"),
        (good(version=True), "unsupported version True"),
        (good(deal=-5), "bad deal"),
        (good(deal="17"), "bad deal"),
        (good(extra=1), "unknown field"),
        (good(variant={"adjacency": "hex"}), "bad variant"),
        (good(variant={"count_buried": "yes"}), "bad variant"),
        (good(moves="0 0"), "moves must be a list"),
        (good(moves=[[0, 0], [0]]), "move 1: expected \\[row, col\\]"),
        (good(moves=[[0, 0], [0, "1"]]), "move 1: expected"),
        (good(moves=[[0, 0], [2, 2]]), "move 1: illegal: .*not orthogonally next to a card"),
        (good(moves=[[1, 0]]), "move 0: illegal: .*first card goes to D4"),
        (good(stock=["AC"] * 40), "a record needs exactly one"),
    ],
)
def test_bad_records_say_what_is_wrong(data: object, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        record.load(data)


def test_bad_stocks_are_named() -> None:
    names = [c.name for c in ALL_CARDS]
    for stock, message in [
        (["AC", *names[:39]], "duplicate card AC"),
        (names[:39], "stock has 39 cards"),
        ([*names[:39], "11C"], "bad card name '11C'"),
        ([*names[:39], 7], "must be a string"),
    ]:
        with pytest.raises(RecordError, match=message):
            record.load(good(deal=None, stock=stock))


def test_moves_after_the_end_are_refused() -> None:
    game = Game(stock=[*["5C", "5D", "6C", "6D", "7C", "8C"], *[c.name for c in ALL_CARDS if c.name not in
                                                    ["5C", "5D", "6C", "6D", "7C", "8C"]]])
    for move in [(0, 0), (0, 1), (1, 0), (1, 1), (1, 2), (2, 2)]:
        game.place(*move)
    data = record.to_json(game)
    data["moves"].append([0, 0])
    with pytest.raises(RecordError, match="move 6: the game was already over after 6 moves"):
        record.load(data)


def test_invalid_json_text() -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        record.loads("{nope")


def test_write_is_atomic_and_read_round_trips(tmp_path: Path) -> None:
    game = record.load(good())
    path = tmp_path / "game.json"
    record.write(game, path)
    assert json.loads(path.read_text())["moves"] == good()["moves"]
    assert record.read(path).cells() == game.cells()
    assert os.listdir(tmp_path) == ["game.json"]  # no temporary file left behind


def test_a_failed_write_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.json"
    record.write(record.load(good()), path)
    before = path.read_text()

    def broken(*args: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "fsync", broken)
    with pytest.raises(FileWriteError, match="disk full"):
        record.write(Game(deal=3), path)
    assert path.read_text() == before
    assert os.listdir(tmp_path) == ["game.json"]


def test_read_errors_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="no such file"):
        record.read(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe")
    with pytest.raises(RecordError, match=r"bad\.json"):
        record.read(bad)
