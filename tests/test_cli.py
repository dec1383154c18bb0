"""The `deal` and `replay` commands and the CLI's error handling, driven as a user would (subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cli_support import run_main
from foursquare import record
from foursquare.engine import Game

DEAL_1 = (
    "3S AH 5C 7H 8C 5H 7C 4C 8D 9S 10H 8H 2D 6H 2C 5D 4D 6C 9H 2H 4S 3H 3D 9C 10D 8S AD "
    "AC 9D 7S 2S 3C AS 10S 6S 6D 10C 4H 5S 7D"
)


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return run_main(*args, stdin=stdin)


def test_deal_prints_the_stock_order() -> None:
    result = run("deal", "1")
    assert result.returncode == 0 and result.stdout.strip() == DEAL_1
    data = json.loads(run("deal", "1", "--json").stdout)
    assert data == {"deal": 1, "stock": DEAL_1.split()}


def test_deal_accepts_the_whole_range() -> None:
    assert run("deal", str(2**64 - 1)).returncode == 0
    for bad in ("-1", str(2**64), "seven"):
        result = run("deal", "--", bad) if bad.startswith("-") else run("deal", bad)
        assert result.returncode == 2 and result.stdout == ""
        assert "deal number" in result.stderr


def test_deal_without_a_number_says_so() -> None:
    result = run("deal")
    assert result.returncode == 2 and "give a deal number" in result.stderr


def test_replay_json_is_exactly_the_documented_shape(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"format": "foursquare-game", "version": 1, "deal": 17,
                                "variant": {"adjacency": "orthogonal", "count_buried": False},
                                "moves": [[0, 0], [0, 1], [-1, 1]]}))
    result = run("replay", str(path), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    game = record.read(path)
    assert list(data) == ["outcome", "reason", "score", "played", "stock_left", "face_down", "cells"]
    assert data["outcome"] == "playing" and data["reason"] is None and data["score"] is None
    assert data["played"] == 3 and data["stock_left"] == 37 and data["face_down"] == game.face_down
    assert data["cells"] == sorted(data["cells"], key=lambda c: (c["row"], c["col"]))
    assert data["cells"] == [
        {
            **{"row": c.row, "col": c.col, "cell": c.cell_name},
            **{"height": c.height, "card": c.top.name, "face_up": c.top_face_up},
        }
        for c in game.cells()
    ]


def test_replay_of_a_finished_game(tmp_path: Path) -> None:
    game = Game(deal=2)
    while not game.is_over():
        game.place(*game.legal_moves[0])
    path = tmp_path / "done.json"
    record.write(game, path)
    data = json.loads(run("replay", str(path), "--json").stdout)
    outcome = game.outcome()
    assert (data["outcome"], data["reason"], data["score"]) == (outcome.status, outcome.reason, outcome.score)
    text = run("replay", str(path))
    assert text.returncode == 0 and ("lost" in text.stdout or "won" in text.stdout)


def test_replay_of_a_bad_record_prints_nothing_and_exits_2(tmp_path: Path) -> None:
    cases = {
        "notjson.json": "{",
        "format.json": json.dumps({"format": "x", "version": 1, "deal": 1, "moves": []}),
        "illegal.json": json.dumps({"format": "foursquare-game", "version": 1, "deal": 1, "moves": [[0, 0], [3, 3]]}),
        "dup.json": json.dumps({"format": "foursquare-game", "version": 1, "stock": ["AC"] * 40, "moves": []}),
    }
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text)
        for extra in ([], ["--json"]):
            result = run("replay", str(path), *extra)
            assert result.returncode == 2, (name, result)
            assert result.stdout == ""
            assert result.stderr.startswith("foursquare: error: ") and name in result.stderr
            assert "Traceback" not in result.stderr
    missing = run("replay", str(tmp_path / "nope.json"), "--json")
    assert missing.returncode == 2 and "no such file" in missing.stderr and missing.stdout == ""


@pytest.mark.parametrize("module", ["foursquare", "foursquare.cli"])
def test_a_real_process_exits_with_the_status_of_main(module: str) -> None:
    """``python -m foursquare`` (and ``-m foursquare.cli``) hands main's status to the shell: 0, 2 for bad input,
    2 for bad usage."""
    command = [sys.executable, "-m", module]
    ok = subprocess.run([*command, "deal", "1"], capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0 and ok.stdout == run("deal", "1").stdout
    bad = subprocess.run([*command, "replay", "/nonexistent/game.json"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "no such file" in bad.stderr
    usage = subprocess.run([*command, "deal", "--bogus"], capture_output=True, text=True, timeout=120)
    assert usage.returncode == 2 and "--bogus" in usage.stderr


def test_help_lists_every_command() -> None:
    result = run("--help")
    assert result.returncode == 0
    for command in ("play", "deal", "replay", "autoplay", "hint", "analyze", "solve", "bench", "serve"):
        assert command in result.stdout


def test_unknown_options_are_usage_errors() -> None:
    result = run("deal", "1", "--frobnicate")
    assert result.returncode == 2 and "unrecognized arguments" in result.stderr
