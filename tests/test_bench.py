"""``foursquare bench``: both implementations do the same work and report it."""

from __future__ import annotations

import json
import subprocess

import numpy as np
import pytest

from cli_support import run_main
from foursquare import kernel as K
from foursquare.bench import bench, check_agreement
from foursquare.cards import deal_stock
from foursquare.engine import Game, Variant
from foursquare.players import greedy_move_on


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return run_main(*args)


def engine_greedy(deals: range, variant: Variant) -> tuple[int, int]:
    wins = total = 0
    for deal in deals:
        game = Game(deal=deal, variant=variant)
        while not game.is_over():
            move = greedy_move_on(game)
            game.place(move.row, move.col)
        if game.outcome().status == "won":
            wins += 1
            total += game.outcome().score or 0
    return wins, total


@pytest.mark.slow
def test_cli_bench_json_reports_checkable_work() -> None:
    proc = run_cli("bench", "--deals", "1-60", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["deals"] == [1, 60] and data["games"] == 60
    assert (data["wins"], data["total_score"]) == engine_greedy(range(1, 61), Variant())
    assert data["agree"] is True
    assert (data["engine"]["wins"], data["engine"]["total_score"]) == (data["wins"], data["total_score"])
    for side in ("kernel", "engine"):
        assert data[side]["games_per_second"] > 0
        assert data[side]["seconds"] > 0
    assert data["kernel"]["compile_seconds"] >= 0


@pytest.mark.slow
def test_cli_bench_text_with_variant() -> None:
    proc = run_cli("bench", "--deals", "5-30", "--adjacency", "diagonal", "--count-buried")
    assert proc.returncode == 0, proc.stderr
    variant = Variant("diagonal", True)
    wins, total = engine_greedy(range(5, 31), variant)
    assert "adjacency=diagonal, count_buried=True" in proc.stdout
    games = "game" if wins == 1 else "games"
    assert f"both won {wins} {games} with a total score of {total}" in proc.stdout
    assert "kernel:" in proc.stdout and "engine:" in proc.stdout and "speedup:" in proc.stdout


def test_bench_function_matches_kernel_greedy() -> None:
    report = bench((100, 140))
    stocks = np.array([[int(c) for c in deal_stock(d)] for d in range(100, 141)], dtype=np.int8)
    scores = K.greedy_games(stocks, 0, 0)
    assert report["wins"] == int((scores >= 0).sum())
    assert report["total_score"] == int(scores[scores >= 0].sum())


def test_cli_bench_rejects_a_bad_range() -> None:
    proc = run_cli("bench", "--deals", "9-3")
    assert proc.returncode == 2
    assert "ends before it starts" in proc.stderr


def test_a_disagreement_is_reported_as_a_bug_not_as_bad_input() -> None:
    report = bench((1, 5))
    check_agreement(report)  # the real report agrees
    report["engine"]["wins"] += 1
    report["agree"] = False
    with pytest.raises(K.KernelMismatch, match="the kernel won") as caught:
        check_agreement(report)
    assert not isinstance(caught.value, ValueError)  # ValueError means bad input to the command line
