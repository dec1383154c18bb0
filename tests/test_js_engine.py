"""The page's copy of the rules (``static/engine.js``) plays as the engine: Node replays the engine's games.

``tests/js_engine_support.py`` plays random games with :mod:`foursquare.engine` in the four rule sets and writes
every action, flip and state, with the stock of edge and random deal numbers; ``tests/js/engine.test.mjs``,
run by ``node --test``, replays them through engine.js and compares everything.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from js_engine_support import FIXTURE, coverage, fixture_text, write
from node_support import node_tests

ROOT = Path(__file__).resolve().parent.parent
JS_TESTS = ROOT / "tests" / "js"

# What a file of games must exercise for its replay to vouch for every rule (a redo made illegal by a pop is
# rarer: engine.test.mjs checks it on its own).
EVERY_RULE = {
    "deal",
    "stock",
    *(f"{adjacency} count_buried={buried}" for adjacency in ("orthogonal", "diagonal") for buried in (False, True)),
    *(f"outcome {reason}" for reason in ("won", "too_many_face_down", "stock_empty")),
    *(f"flip {part}" for part in ("row", "column", "highest", "lowest", "none_face_up")),
    *(f"probe {reason}" for reason in ("legal", "game_over", "first_card", "pile_full", "not_adjacent", "outside_4x4")),
    *("start", "place", "undo", "redo", "pop", "restart"),
}


def _replay(cases: Path | None) -> str:
    """Run the Node tests on ``cases`` (None: the committed games); their report, or a failure with it."""
    files = sorted(JS_TESTS.glob("*.test.mjs"))
    return node_tests(files, "FOURSQUARE_JS_ENGINE_CASES", cases, "the page's copy of the rules")


def _games(cases: Path) -> list[dict[str, Any]]:
    with cases.open(encoding="utf-8") as lines:
        next(lines)
        return [json.loads(line) for line in lines]


def _check_and_replay(tmp_path: Path, games: int, seed: int) -> None:
    cases = tmp_path / "cases.jsonl"
    write(cases, games, seed)
    assert EVERY_RULE - coverage(_games(cases)) == set()
    assert "# fail 0" in _replay(cases)


FRESH_GAMES = 3_000
"""The fresh games make test replays. The games of a seed are a prefix of a longer run's (game i is the same in
3,000 as in 10,000), so this is the first 3,000 of the 10,000 the test replayed before (2026-12-07, seed 2): the
rarest rule path of :data:`EVERY_RULE` in them, a game lost with the stock empty, comes 12 times (49 in the 10,000),
a win 45 times, a restart 278, and the two illegal redos that engine.test.mjs checks on its own when a game makes
one (the cell of the first card, a cell no longer adjacent) are there as in the 10,000; each rule set 750 times.
The other 7,000 games repeated those paths at 3.5 times the cost (writing the 10,000 took 32 s of the engine)."""


@pytest.mark.slow
def test_engine_js_replays_three_thousand_games_of_the_engine(tmp_path: Path) -> None:
    _check_and_replay(tmp_path, FRESH_GAMES, seed=2)


def test_the_committed_games_are_the_engines_and_replay() -> None:
    assert FIXTURE.read_text(encoding="utf-8") == fixture_text(), "refresh: .venv/bin/python tests/js_engine_support.py"
    assert EVERY_RULE - coverage(_games(FIXTURE)) == set()
    assert "# fail 0" in _replay(None)
