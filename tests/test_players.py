"""Players, hints and the ``autoplay`` and ``hint`` commands."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

from cli_support import run_main
from foursquare import kernel as K
from foursquare import record
from foursquare.cards import Card, deal_stock
from foursquare.engine import Game, Move, Variant
from foursquare.players import (
    HINT_PLAYOUTS,
    PLAYER_NAMES,
    RISK_BONUS,
    RISKY_BELOW,
    BestPlayer,
    MoveAdvice,
    PlayerError,
    compare_moves,
    estimate_move,
    greedy_move,
    hint,
    make_player,
    play_game,
    race,
    rank_moves,
    results_summary,
    wilson,
)
from kernel_helpers import VARIANTS


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return run_main(*args)


def played(deal: int, moves: int, variant: Variant | None = None) -> Game:
    """Deal ``deal`` after ``moves`` greedy moves."""
    game = Game(deal=deal, variant=variant)
    for _ in range(moves):
        move = greedy_move(game.view())
        game.place(move.row, move.col)
    return game


# --- greedy -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: f"{v.adjacency}-{v.count_buried}")
def test_greedy_engine_and_kernel_agree_move_for_move(variant: Variant) -> None:
    kernel_player = make_player("greedy")
    for deal in range(1, 61):
        game = Game(deal=deal, variant=variant)
        while not game.is_over():
            view = game.view()
            move = greedy_move(view)
            assert kernel_player.choose(view) == move, f"deal {deal} turn {game.turn}"
            game.place(move.row, move.col)


def test_greedy_follows_its_definition() -> None:
    """Check the rule itself on many positions: win at once, else fewest face down, more cells, first."""
    for deal in range(200, 230):
        game = Game(deal=deal)
        while not game.is_over():
            view = game.view()
            keys = []
            for move in view.legal_moves:
                trial = game.copy()
                outcome = trial.place(move.row, move.col).outcome
                if outcome.status == "won":
                    keys.append((-1, 0, 0))
                elif outcome.status == "lost":
                    keys.append((1, 0, -len(trial.cells())))
                else:
                    keys.append((0, trial.face_down, -len(trial.cells())))
            expected = view.legal_moves[keys.index(min(keys))]
            assert greedy_move(view) == expected
            game.place(expected.row, expected.col)


def test_greedy_wins_the_same_games_as_the_bench_kernel() -> None:
    stocks = np.array([[int(c) for c in deal_stock(d)] for d in range(1, 101)], dtype=np.int8)
    scores = K.greedy_games(stocks, 0, 0)
    player = make_player("greedy")
    for deal in range(1, 101):
        result = play_game(player, Game(deal=deal))
        assert (result.score if result.won else -1) == scores[deal - 1]


# --- players ------------------------------------------------------------------------------------------


def test_make_player_names_the_valid_players() -> None:
    for name in PLAYER_NAMES:
        assert make_player(name).name == name
    with pytest.raises(PlayerError, match="random, greedy, best") as info:
        make_player("clever")
    assert isinstance(info.value, ValueError)


def test_random_player_is_legal_and_seeded() -> None:
    def moves(seed: int) -> list[Move]:
        game = Game(deal=9)
        play_game(make_player("random", seed=seed), game)
        return game.moves

    assert moves(1) == moves(1)
    assert moves(1) != moves(2)


def test_players_refuse_a_finished_game() -> None:
    game = played(4, 0)
    play_game(make_player("greedy"), game)
    for name in PLAYER_NAMES:
        with pytest.raises(PlayerError, match="over"):
            make_player(name).choose(game.view())


def test_honest_play_same_view_same_decision_whatever_the_future() -> None:
    """One position reached with two stock orders that differ only after the card to place."""
    game = played(11, 6)
    stock = list(game.stock)
    future = stock[game.turn + 1 :]
    other_stock = stock[: game.turn + 1] + future[::-1]
    other = Game(stock=other_stock)
    for move in game.moves:
        other.place(move.row, move.col)
    assert other.view() == game.view()
    assert game.stock != other.stock
    for name in PLAYER_NAMES:
        assert make_player(name, seed=3).choose(game.view()) == make_player(name, seed=3).choose(other.view())
    assert hint(game.view(), seed=3) == hint(other.view(), seed=3)


@pytest.mark.slow
def test_best_plays_a_whole_game_legally() -> None:
    game = Game(deal=2)
    result = play_game(make_player("best", seed=1), game)
    assert game.is_over() and result.moves == game.turn
    replayed = Game(deal=2)
    for move in game.moves:
        replayed.place(move.row, move.col)
    assert replayed.outcome() == game.outcome()


@pytest.mark.slow
def test_best_beats_greedy_where_greedy_loses() -> None:
    """Greedy loses deals 1-5; the best player wins at least four of them even on a short budget."""
    greedy = [play_game(make_player("greedy"), Game(deal=d)).won for d in range(1, 6)]
    assert not any(greedy)
    best = [play_game(BestPlayer(seed=0, playouts=300), Game(deal=d)).won for d in range(1, 6)]
    assert sum(best) >= 4


def test_ordinary_positions_rank_by_expected_score() -> None:
    view = played(5, 2).view()
    plain = race(view, seed=0, playouts=400, time_budget=None)
    assert plain[0].win_probability >= RISKY_BELOW
    assert rank_moves(view, seed=0, playouts=400, time_budget=None) == plain


def test_risky_positions_rank_with_a_win_bonus() -> None:
    """Deal 3 after 10 greedy moves: the plain leader wins under 85 % of its rollouts, so the moves race
    again by expected score + RISK_BONUS * win probability, which picks a safer cell here."""
    view = played(3, 10).view()
    plain = race(view, seed=0, playouts=400, time_budget=None)
    assert 0 < plain[0].win_probability < RISKY_BELOW
    safe = race(view, seed=0, playouts=400, time_budget=None, bonus=RISK_BONUS)
    assert safe[0].move != plain[0].move
    assert rank_moves(view, seed=0, playouts=400, time_budget=None) == safe
    assert BestPlayer(seed=0, playouts=400).choose(view) == safe[0].move


def test_compare_moves_plays_both_on_the_same_futures() -> None:
    view = played(3, 10).view()
    a, b = view.legal_moves[0], view.legal_moves[-1]
    same = compare_moves(view, a, a, seed=0, playouts=200)
    assert same.first == same.second and same.score_gap == same.win_gap == 0 == same.score_gap_se
    duel = compare_moves(view, a, b, seed=0, playouts=200)
    assert duel == compare_moves(view, a, b, seed=0, playouts=200)
    assert duel.first.move == a and duel.second.move == b
    assert duel.score_gap == pytest.approx(duel.first.expected_score - duel.second.expected_score)
    assert duel.win_gap == pytest.approx(duel.first.win_probability - duel.second.win_probability)
    assert compare_moves(view, b, a, seed=0, playouts=200).score_gap == pytest.approx(-duel.score_gap)
    outside = Move(a.row + 10, a.col)
    with pytest.raises(PlayerError, match=r"\(\d+, -?\d+\) is not a legal move"):
        compare_moves(view, a, outside, seed=0)


# --- hints ----------------------------------------------------------------------------------------------


def test_hint_ranks_every_legal_move_and_is_deterministic() -> None:
    view = played(5, 8).view()
    advice = hint(view, seed=7)
    assert sorted(a.move for a in advice) == sorted(view.legal_moves)
    assert all(isinstance(a, MoveAdvice) and 0 <= a.win_probability <= 1 for a in advice)
    assert all(0 <= a.expected_score <= 40 - view.turn for a in advice)
    assert advice == hint(view, seed=7)
    assert advice[0].win_probability >= RISKY_BELOW  # an ordinary position: the best move scores most
    assert advice[0].expected_score == max(a.expected_score for a in advice)


def test_hint_finds_the_immediate_win() -> None:
    """A position one card from winning: the winning cell is certain and scores the stock left."""
    for deal in range(1, 400):
        game = Game(deal=deal)
        while not game.is_over():
            view = game.view()
            winning = [m for m in view.legal_moves if game.copy().place(m.row, m.col).outcome.status == "won"]
            if winning and len(view.legal_moves) > 1:
                best = hint(view)[0]
                assert best.move in winning
                assert best.win_probability == 1.0
                assert best.expected_score == 40 - view.turn - 1
                return
            move = rank_moves(view, seed=0, playouts=64, time_budget=None)[0].move
            game.place(move.row, move.col)
    pytest.fail("no position with an immediate win found")


def test_hint_with_a_time_budget_samples_more(monkeypatch: pytest.MonkeyPatch) -> None:
    """A time budget races on until the clock runs out. The clock here ticks 1/64 s a reading, so the budget of
    2 s lasts a fixed number of rounds, whatever the machine's speed."""
    view = played(6, 3).view()
    quick = hint(view)
    ticks = iter(itertools.count())
    monkeypatch.setattr(time, "perf_counter", lambda: next(ticks) / 64)
    advice = hint(view, time_budget=2.0)
    assert sorted(a.move for a in advice) == sorted(view.legal_moves)
    # the default stops after HINT_PLAYOUTS playouts in all; the budget races on until the clock runs out
    assert sum(a.playouts for a in quick) <= HINT_PLAYOUTS + 16 * len(quick)
    assert advice[0].playouts == 128 * 16  # a reading to start, one after each round: 128 rounds of 16 futures
    assert sum(a.playouts for a in advice) > sum(a.playouts for a in quick)
    assert hint(view, time_budget=2.0) == advice  # the same rounds, the same seed: the same answer
    with pytest.raises(PlayerError, match="positive"):
        hint(view, time_budget=0)


def test_hint_lists_moves_by_the_expected_score_it_shows_first() -> None:
    """Over many positions (early, middle, late; ordinary and risky; moves that left the race early),
    a move lower in the list never shows a higher expected score, and each names its cell."""
    positions = 0
    for deal in range(1, 9):
        game = Game(deal=deal)
        while not game.is_over():
            view = game.view()
            advice = hint(view, seed=deal)
            scores = [a.expected_score for a in advice]
            assert scores == sorted(scores, reverse=True), f"deal {deal} move {view.turn + 1}"
            shown = [round(score, 1) for score in scores]  # as the page and the terminal round them
            assert shown == sorted(shown, reverse=True)
            for a in advice:
                assert a.to_json()["cell"] == a.move.name and a.to_json()["playouts"] == a.playouts > 0
            positions += 1
            move = advice[-1].move if view.turn % 5 == 4 else advice[0].move  # now and then a poor move
            game.place(move.row, move.col)
    assert positions > 80


def test_advice_json_names_the_cell() -> None:
    advice = MoveAdvice(Move(-1, 2), 0.5, 7.25, 64)
    assert advice.to_json() == {
        "row": -1, "col": 2, "cell": "F3", "win_probability": 0.5, "expected_score": 7.25, "playouts": 64,
    }


def test_estimate_move_uses_the_comparison_futures() -> None:
    view = played(3, 10).view()
    a, b = view.legal_moves[0], view.legal_moves[-1]
    duel = compare_moves(view, a, b, seed=0, playouts=200)
    assert estimate_move(view, a, seed=0, playouts=200) == duel.first
    assert estimate_move(view, b, seed=0, playouts=200) == duel.second


def test_hint_refuses_a_finished_game() -> None:
    game = played(4, 0)
    play_game(make_player("greedy"), game)
    with pytest.raises(PlayerError, match="over"):
        hint(game.view())


def test_wilson_interval() -> None:
    lo, hi = wilson(95, 100)
    assert lo == pytest.approx(0.8882, abs=1e-4) and hi == pytest.approx(0.9785, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == 1.0


def test_summary_counts_a_loss_as_zero() -> None:
    results = [play_game(make_player("greedy"), Game(deal=d)) for d in range(1, 31)]
    summary = results_summary("greedy", results)
    assert summary["games"] == 30
    assert summary["wins"] == sum(r.won for r in results)
    assert summary["mean_score"] == sum(r.score for r in results if r.won) / 30


# --- the commands -----------------------------------------------------------------------------------------


def test_cli_autoplay_many_prints_one_json_object() -> None:
    proc = run_cli("autoplay", "--player", "greedy", "--deals", "1-40", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert list(data) == ["player", "games", "wins", "win_rate", "ci95", "mean_score", "seconds_per_move"]
    stocks = np.array([[int(c) for c in deal_stock(d)] for d in range(1, 41)], dtype=np.int8)
    scores = K.greedy_games(stocks, 0, 0)
    assert data["games"] == 40 and data["wins"] == int((scores >= 0).sum())
    assert data["mean_score"] == pytest.approx(float(np.maximum(scores, 0).sum()) / 40)
    assert data["ci95"] == list(wilson(data["wins"], 40))


def test_cli_autoplay_with_jobs_and_variant_and_text_summary() -> None:
    proc = run_cli("autoplay", "--player", "greedy", "--deals", "1-12", "--jobs", "2", "--adjacency", "diagonal")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("greedy: ") and "/12 won" in proc.stdout
    stocks = np.array([[int(c) for c in deal_stock(d)] for d in range(1, 13)], dtype=np.int8)
    wins = int((K.greedy_games(stocks, 1, 0) >= 0).sum())
    assert f"{wins}/12 won" in proc.stdout


def test_cli_autoplay_demo_shows_every_move() -> None:
    proc = run_cli("autoplay", "--player", "greedy", "--deal", "1", "--delay", "0")
    assert proc.returncode == 0, proc.stderr
    game = Game(deal=1)
    play_game(make_player("greedy"), game)
    for i, placement in enumerate(game.placements, start=1):
        assert f"turn {i:>2}: {placement.card.name} to {placement.move.name}" in proc.stdout
    assert proc.stdout.rstrip().endswith(f"cards played: {game.turn}")


def test_cli_autoplay_demo_in_a_terminal_uses_rich() -> None:
    """With a terminal (forced by FORCE_COLOR) the demo draws a coloured grid with suit symbols."""
    env = {**os.environ, "FORCE_COLOR": "1", "COLUMNS": "100"}
    proc = run_main("autoplay", "--player", "greedy", "--deal", "3", "--delay", "0", env=env)
    assert proc.returncode == 0, proc.stderr
    game = Game(deal=3)
    play_game(make_player("greedy"), game)
    assert "\x1b[" in proc.stdout  # ANSI styles
    last = game.placements[-1]
    assert last.card.symbol in proc.stdout
    assert f"cards played: {game.turn}" in proc.stdout


def test_cli_autoplay_rejects_unknown_player() -> None:
    proc = run_cli("autoplay", "--player", "oracle", "--deal", "1")
    assert proc.returncode == 2
    assert "random, greedy, best" in proc.stderr


def test_cli_hint_json_and_table(tmp_path: Path) -> None:
    game = played(8, 5)
    path = tmp_path / "game.json"
    record.write(game, path)
    proc = run_cli("hint", str(path), "--json", "--seed", "4")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    card = game.card_to_place
    assert card is not None
    assert data["turn"] == 5 and data["card"] == card.name
    assert sorted((m["row"], m["col"]) for m in data["moves"]) == sorted(game.legal_moves)
    expected = hint(game.view(), seed=4)
    assert [(m["row"], m["col"]) for m in data["moves"]] == [tuple(a.move) for a in expected]
    assert [m["cell"] for m in data["moves"]] == [a.move.name for a in expected]
    text = run_cli("hint", str(path), "--seed", "4")
    assert text.returncode == 0, text.stderr
    # numbered as the game numbers its moves (five placed: this is move 6), cells by name, ranked by the first number
    assert f"Move 6 of 40, card {card.name}: ranked by expected score" in text.stdout
    rows = [line.split("│")[1:4] for line in text.stdout.splitlines() if line.startswith("│")]
    assert [cell.strip() for cell, _, _ in rows] == [a.move.name for a in expected]
    scores = [float(score) for _, score, _ in rows]
    assert scores == sorted(scores, reverse=True)


def test_cli_hint_on_a_finished_game_is_an_error(tmp_path: Path) -> None:
    game = Game(deal=4)
    play_game(make_player("greedy"), game)
    path = tmp_path / "over.json"
    record.write(game, path)
    proc = run_cli("hint", str(path))
    assert proc.returncode == 2
    assert "over" in proc.stderr and "no move to hint" in proc.stderr


def test_hint_positions_from_explicit_stocks() -> None:
    stock = [Card(i) for i in range(40)]
    game = Game(stock=stock)
    game.place(0, 0)
    advice = hint(game.view())
    assert {a.move for a in advice} == set(game.legal_moves)


@pytest.mark.parametrize("variant", VARIANTS[1:], ids=lambda v: f"{v.adjacency}-{v.count_buried}")
def test_hint_in_the_variants(variant: Variant) -> None:
    game = played(12, 7, variant)
    advice = hint(game.view(), seed=1)
    assert sorted(a.move for a in advice) == sorted(game.legal_moves)
    move = make_player("best", seed=1).choose(game.view())
    assert move in game.legal_moves


def test_a_tally_sums_games_as_they_end_as_the_summary_of_them_all_does() -> None:
    from foursquare.players import GameResult, Tally

    rng = np.random.default_rng(5)
    results = [
        GameResult(deal, bool(deal % 3), int(deal % 11), 20, tuple(float(t) for t in rng.lognormal(-7, 1, 20)))
        for deal in range(300)
    ]
    tally = Tally()
    for result in results:
        tally.add(result)
    expected = results_summary("greedy", results)
    summary = tally.summary("greedy")
    assert summary.pop("seconds_per_move") == pytest.approx(expected.pop("seconds_per_move"))
    assert summary == expected
    times = sorted(t for r in results for t in r.move_seconds)
    nearest_rank = times[int(np.ceil(0.95 * len(times))) - 1]
    assert tally.p95_seconds_per_move() == pytest.approx(nearest_rank, rel=0.006)
    assert Tally().summary("random")["games"] == 0 and Tally().p95_seconds_per_move() == 0.0


def test_deals_played_on_several_processes_come_back_in_deal_order() -> None:
    from foursquare.players import iter_play_deals, play_deals

    alone = [(r.deal, r.won, r.score, r.moves) for r in play_deals("greedy", range(3, 60))]
    together = [(r.deal, r.won, r.score, r.moves) for r in iter_play_deals("greedy", range(3, 60), jobs=2)]
    assert together == alone and [deal for deal, *_ in alone] == list(range(3, 60))
