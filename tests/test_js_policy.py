"""The page's copy of the best player's rollout policy and hint (``static/policy.js``) moves as the kernel's.

``tests/js_policy_support.py`` plays random games in the four rule sets and writes, for every position before a
card is placed, the move of the kernel's rollout policy (:func:`foursquare.kernel.policy_choice`) and its value
of every legal move, and at some positions the server's hint; ``tests/js/policy.test.mjs``, run by
``node --test``, replays the games through engine.js and checks that policy.js chooses the same move for every
one, values every move the same, and gives the same hints, number for number.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from js_policy_support import FIXTURE, coverage, fixture_text, write
from node_support import node_tests

ROOT = Path(__file__).resolve().parent.parent
NODE_TEST = ROOT / "tests" / "js" / "policy.test.mjs"

# What a file of positions must exercise for its check to vouch for every branch of the policy and the race.
EVERY_CASE = {
    *(f"{adjacency} count_buried={buried}" for adjacency in ("orthogonal", "diagonal") for buried in (False, True)),
    "policy played",
    "other played",
    "wins at once",
    "one legal move",
    "a losing move",
    "every move loses",
    "tie",
    "ordinary hint",
    "risky hint",
}


def _check(cases: Path | None) -> str:
    """Run policy.test.mjs on ``cases`` (None: the committed positions); its report, or a failure with it."""
    return node_tests([NODE_TEST], "FOURSQUARE_JS_POLICY_CASES", cases, "the page's copy of the policy")


def _read(cases: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    with cases.open(encoding="utf-8") as lines:
        header = json.loads(next(lines))
        return header, [json.loads(line) for line in lines]


def _check_positions(tmp_path: Path, positions: int, seed: int, hints: float) -> None:
    cases = tmp_path / "cases.jsonl"
    write(cases, positions, seed, hints)
    header, games = _read(cases)
    assert header["positions"] >= positions
    assert EVERY_CASE - coverage(games) == set()
    assert "# fail 0" in _check(cases)


FRESH_POSITIONS = 5_000
"""The fresh positions make test checks. A seed's games are a prefix of a longer run's, so these are the first
games of the 10,000 positions the test checked before (2026-12-07, seed 2): the rarest case of :data:`EVERY_CASE`
in them, a position where every move loses, comes 12 times (32 in the 10,000), a risky hint 19 times, an ordinary
one 25, a move that wins at once 42. The other half repeated those cases at twice the cost (12 s of a core)."""


@pytest.mark.slow
def test_policy_js_moves_as_the_kernel_on_five_thousand_positions(tmp_path: Path) -> None:
    _check_positions(tmp_path, FRESH_POSITIONS, seed=2, hints=0.01)


def test_the_committed_positions_are_the_kernels_and_check() -> None:
    assert FIXTURE.read_text(encoding="utf-8") == fixture_text(), "refresh: .venv/bin/python tests/js_policy_support.py"
    _header, games = _read(FIXTURE)
    assert EVERY_CASE - coverage(games) == set()
    assert "# fail 0" in _check(None)
