"""Every encoding of the rules reproduces the golden perft table, tests/golden/perft.json (see tests/perft_support.py).

The engine wrote the table (tools/perft.py) and must still count it; the kernel, the solver's positions and the
solver's SAT model must count it too. engine.js and policy.js's board do in tests/js/perft.test.mjs, which ``make
jstest`` runs (and tests/test_js_engine.py, with every tests/js/*.test.mjs). A change
of the rules in one copy alone fails here, with the depth and the count that differ.
"""

from __future__ import annotations

import json

import pytest

from foursquare.solver import sat
from perft_support import COUNTS, FORMAT, GOLDEN, Root, differences, engine_perft, kernel_perft, load, solver_perft

ROOTS = load()
IDS = [root.id for root in ROOTS]
WORK = 100.0  # CP-SAT's deterministic time: far more than these questions need, only a guard against a hang


def check(root: Root, counts: list[dict[str, int]]) -> None:
    assert counts == root.counts, f"{root.id}: " + "; ".join(differences(root.counts, counts))


def test_the_table_covers_every_rule_set_and_every_ending() -> None:
    data = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert data["format"] == FORMAT
    rule_sets = {(r.variant.adjacency, r.variant.count_buried) for r in ROOTS}
    assert rule_sets == {(a, b) for a in ("orthogonal", "diagonal") for b in (False, True)}
    for rules in rule_sets:
        roots = [r for r in ROOTS if (r.variant.adjacency, r.variant.count_buried) == rules]
        assert {r.name for r in roots} >= {"start-1", "start-2", "start-3", "opening", "near-loss", "near-end"}
        for name in ("won", "too_many_face_down", "stock_empty", "covers", "flips"):
            assert sum(row[name] for r in roots for row in r.counts) > 0, (rules, name)
    for root in ROOTS:
        assert [set(row) for row in root.counts] == [set(COUNTS)] * (root.depth + 1)
        # the legal moves of one depth are the positions of the next
        assert [row["moves"] for row in root.counts[:-1]] == [row["positions"] for row in root.counts[1:]]


@pytest.mark.parametrize("root", ROOTS, ids=IDS)
def test_engine(root: Root) -> None:
    check(root, engine_perft(root.game(), root.depth))


@pytest.mark.parametrize("root", ROOTS, ids=IDS)
def test_kernel(root: Root) -> None:
    check(root, kernel_perft(root))


@pytest.mark.parametrize("root", ROOTS, ids=IDS)
def test_solver_positions(root: Root) -> None:
    check(root, solver_perft(root))


@pytest.mark.parametrize("root", [r for r in ROOTS if r.name.startswith("near-win")], ids=lambda r: r.id)
def test_solver_sat_model_finds_the_wins_of_the_table(root: Root) -> None:
    """CP-SAT's model of "a win with exactly k cards laid" answers yes at the depths where the table counts wins."""
    game = root.game()
    for d in range(1, root.depth + 1):
        answer = sat.WinModel(game, game.turn + d).solve(WORK)
        assert answer.verdict == ("win" if root.counts[d]["won"] else "none"), (root.id, d, answer)

