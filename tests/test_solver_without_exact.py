"""Without OR-Tools (the ``exact`` extra) the solver's exact stage is skipped: the answer keeps the deepening's proven
bounds, never a guessed optimum, and says what would settle them.

Deal 20 with 20,000 nodes is a deal the deepening leaves open (best 19, no line scores more than 24), which the
exact stage would settle; OR-Tools is made to look uninstalled to the solver.
"""

from __future__ import annotations

import pytest

from foursquare.cards import deal_stock
from foursquare.cli import main
from foursquare.solver import driver, solve

DEAL, NODES = 20, 20_000


@pytest.fixture
def no_exact_stage(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(driver, "exact_stage_installed", lambda: False)


def test_the_answer_keeps_its_bounds_and_says_the_exact_stage_is_missing(no_exact_stage: None) -> None:
    solution = solve(deal_stock(DEAL), max_nodes=NODES)
    assert solution.status == "bounds" and not solution.proven and solution.exact_missing
    assert solution.best_score is not None and solution.best_score <= solution.upper_bound
    assert solution.work == 0
    alone = solve(deal_stock(DEAL), max_nodes=NODES, exact=False)  # the deepening alone: the same bounds
    assert (alone.best_score, alone.upper_bound, alone.exact_missing) == (solution.best_score, solution.upper_bound,
                                                                          False)


def test_a_solve_without_the_exact_stage_needs_no_or_tools(no_exact_stage: None) -> None:
    """No bounds to settle: the answer is the optimum, and nothing is said about the exact stage."""
    solution = solve(deal_stock(3), max_nodes=NODES)
    assert solution.status == "optimal" and not solution.exact_missing


def test_the_command_says_which_extra_settles_the_bounds(
    no_exact_stage: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--lang", "en", "solve", "--deal", str(DEAL), "--nodes", str(NODES)]) == 0
    out = capsys.readouterr().out
    assert "no line scores more than: 24" in out
    assert "the exact stage, not installed, would settle these bounds: pip install 'foursquare-solitaire[exact]'" in out
