"""Post-game analysis: the library call and the ``analyze`` command on finished games, errors otherwise."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from cli_support import run_main
from foursquare import analysis, record
from foursquare.analysis import (
    CONFIDENCE_Z,
    EXACT_POSITIONS,
    EXACT_UNSEEN,
    MISTAKE_EXPECTED_SCORE,
    RECHECK_PLAYOUTS,
    VERSION,
    AnalysisError,
    analyze,
    exact_judgements,
    judge_move,
    views_before_moves,
)
from foursquare.engine import Game, Move
from foursquare.solver import solve
from foursquare.solver.expectimax import judge_moves

DEAL = 3  # the solver proves 24 (a win with the first 16 cards) in well under a second


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return run_main(*args)


def lost_game() -> Game:
    """Deal 3 played badly on purpose: every card on the first pile that takes it, until the game ends."""
    game = Game(deal=DEAL)
    while not game.is_over():
        game.place(*game.legal_moves[0])
    return game


def perfect_game() -> Game:
    game = Game(deal=DEAL)
    for move in solve(game.stock, timeout=600, max_nodes=10**7).line:  # nodes: the same line on any machine
        game.place(move.row, move.col)
    return game


def check_shape(result: dict[str, object], game: Game) -> None:
    assert set(result) == {"version", "outcome", "reason", "score", "deal", "moves", "costliest", "perfect"}
    assert result["version"] == VERSION
    assert result["outcome"] == game.outcome().status
    assert result["deal"] == DEAL
    moves = result["moves"]
    assert isinstance(moves, list) and len(moves) == game.turn
    for i, (m, played) in enumerate(zip(moves, game.moves, strict=True)):
        assert m["index"] == i
        assert m["played"] == [played.row, played.col] and m["played_cell"] == played.name
        assert m["best_cell"] == Move(*m["best"]).name
        assert m["card"] == game.stock[i].name
        # the row agrees with itself: the best never shows less than the move played, a loss is that gap
        assert m["best_expected_score"] >= m["played_expected_score"]
        gap = m["best_expected_score"] - m["played_expected_score"]
        assert m["expected_score_loss"] == pytest.approx(gap, abs=2e-3)
        assert 0 <= m["expected_score_loss_low"] <= m["expected_score_loss"]
        assert m["win_probability_loss"] >= 0
        assert m["mistake"] == (not m["forced"] and m["expected_score_loss_low"] > MISTAKE_EXPECTED_SCORE)
        assert m["evaluation"] in ("exact", "playouts")
        if m["evaluation"] == "exact":  # no noise: the loss is its own bound
            assert m["expected_score_loss_low"] == m["expected_score_loss"]
        if m["played"] == m["best"] or m["forced"]:
            assert m["played"] == m["best"]
            assert m["win_probability_loss"] == m["expected_score_loss"] == 0 and not m["mistake"]
    # exact judgements are the end of the game: from the last move back, then playouts
    kinds: list[str] = [m["evaluation"] for m in moves]
    assert kinds == sorted(kinds, reverse=True)
    mistakes = [m for m in moves if m["mistake"]]
    assert sorted(result["costliest"]) == sorted(m["index"] for m in mistakes)  # type: ignore[arg-type]
    perfect = result["perfect"]
    assert isinstance(perfect, dict)
    assert perfect["status"] == "optimal" and perfect["winnable"] is True
    assert perfect["best_score"] == 24 and perfect["upper_bound"] == 24
    assert perfect["line_cells"] == [Move(r, c).name for r, c in perfect["line"]]
    replay = Game(deal=DEAL)
    for r, c in perfect["line"]:
        replay.place(r, c)
    assert replay.outcome().score == 24


@pytest.mark.slow
def test_library_flags_the_mistakes_of_a_bad_game() -> None:
    game = lost_game()
    result = analyze(game, seed=1, time_budget=None)
    check_shape(result, game)
    assert result["outcome"] == "lost" and result["score"] == 0
    assert result["costliest"], "piling every card on the first pile must be flagged somewhere"
    json.dumps(result)  # JSON-ready


@pytest.mark.slow
def test_perfect_game_has_no_mistake_in_score() -> None:
    game = perfect_game()
    result = analyze(game, seed=2, time_budget=None)
    check_shape(result, game)
    assert result["outcome"] == "won" and result["score"] == 24


@pytest.mark.slow
@pytest.mark.parametrize("deal", [1, 2])
def test_a_game_of_the_best_player_is_not_covered_in_mistakes(deal: int) -> None:
    """The played move and the hint's best are replayed on fresh paired futures and a loss must clear the
    threshold by its confidence bound, so the race's optimistic estimate of its winner and the noise of
    the estimates do not mark good moves as mistakes."""
    from foursquare.players import make_player, play_game

    game = Game(deal=deal)
    play_game(make_player("best", seed=5), game)
    result = analyze(game, seed=0, solve_nodes=1_000_000)
    assert result["outcome"] == "won"
    assert result["costliest"] == []
    for m in result["moves"]:
        assert m["best_expected_score"] >= m["played_expected_score"]
    # the game's curve ends where the game did: a won last move is certain and scores what the game scored
    last = result["moves"][-1]
    assert last["played_win_probability"] == 1 and last["played_expected_score"] == result["score"]


@pytest.mark.slow
def test_a_deliberately_bad_move_is_a_mistake() -> None:
    """In positions of a good game, a move that loses at once is flagged, its loss beyond the noise."""
    from foursquare.players import make_player

    player = make_player("best", seed=1)
    game = Game(deal=2)
    judged = 0
    while not game.is_over() and judged < 3:
        view = game.view()
        losing = [m for m in view.legal_moves if game.copy().place(m.row, m.col).outcome.status == "lost"]
        if losing:
            m = judge_move(view, losing[0], view.turn, seed=0, time_budget=None)
            assert m["mistake"] and m["played_expected_score"] == 0 == m["played_win_probability"]
            assert m["expected_score_loss_low"] > MISTAKE_EXPECTED_SCORE
            assert m["best_cell"] != m["played_cell"]
            judged += 1
        move = player.choose(view)
        game.place(move.row, move.col)
    assert judged > 0


@pytest.mark.slow
def test_the_loss_bound_is_z_standard_errors_below_the_paired_mean() -> None:
    """A mistake needs the lower confidence bound of the paired loss, not only the loss, above the threshold."""
    from foursquare.players import compare_moves, hint

    game = Game(deal=DEAL)
    for _ in range(6):
        game.place(*hint(game.view())[0].move)
    view = game.view()
    best = hint(view)[0].move
    for played in view.legal_moves:
        m = judge_move(view, played, view.turn, seed=0, time_budget=None)
        if played == best or m["best"] == m["played"]:
            assert m["expected_score_loss"] == m["expected_score_loss_low"] == 0
            continue
        duel = compare_moves(view, best, played, seed=0)
        low = duel.score_gap - CONFIDENCE_Z * duel.score_gap_se
        if duel.score_gap > MISTAKE_EXPECTED_SCORE >= low:  # borderline: a second, longer look
            duel = compare_moves(view, best, played, seed=0, playouts=RECHECK_PLAYOUTS)
            low = duel.score_gap - CONFIDENCE_Z * duel.score_gap_se
        assert m["expected_score_loss"] == round(duel.score_gap, 3)
        assert m["expected_score_loss_low"] == round(max(0.0, low), 3)
        assert m["mistake"] == (low > MISTAKE_EXPECTED_SCORE)


@pytest.mark.slow
def test_cli_text_and_json(tmp_path: Path) -> None:
    path = tmp_path / "lost.json"
    record.write(lost_game(), path)
    text = run_cli("analyze", str(path), "--seed", "3")  # no --time: the same answer twice
    assert text.returncode == 0, text.stderr
    assert "MISTAKE" in text.stdout
    assert "Perfect-information verdict" in text.stdout and "best score 24 (proven optimal)" in text.stdout
    data = run_cli("analyze", str(path), "--json", "--seed", "3")
    assert data.returncode == 0, data.stderr
    result = json.loads(data.stdout)
    check_shape(result, record.read(path))
    # moves are numbered as the game numbers them (the first card is move 1) and cells are named
    rows = [line.split() for line in text.stdout.splitlines() if line[:4].strip().isdigit()]
    assert [int(row[0]) for row in rows] == [m["index"] + 1 for m in result["moves"]]
    assert [row[2:4] for row in rows] == [[m["played_cell"], m["best_cell"]] for m in result["moves"]]
    assert rows[0][2] == "D4"
    flagged = [int(row[0]) for row in rows if row[-1] == "MISTAKE"]
    assert not any("exact" in row for row in rows)  # a game lost early: too many cards unseen to judge exactly
    assert "judged exactly" not in text.stdout
    assert sorted(flagged) == sorted(i + 1 for i in result["costliest"])
    numbers = ", ".join(f"move {i + 1}" for i in result["costliest"])
    assert f"Mistakes, costliest first: {numbers}" in text.stdout
    assert "best line: " + " ".join(result["perfect"]["line_cells"]) in text.stdout


@pytest.mark.slow
def test_cli_marks_the_moves_judged_exactly(tmp_path: Path) -> None:
    from foursquare.players import make_player, play_game

    path = tmp_path / "long.json"
    game = Game(deal=2)
    play_game(make_player("greedy"), game)  # a game to the last card, whose end settles
    record.write(game, path)
    text = run_cli("analyze", str(path), "--seed", "3")
    assert text.returncode == 0, text.stderr
    rows = [line.split() for line in text.stdout.splitlines() if line[:4].strip().isdigit()]
    marked = [int(row[0]) for row in rows if "exact" in row]
    assert len(marked) >= 3 and marked[-1] == game.turn
    assert marked == list(range(marked[0], game.turn + 1))
    count = "The last move is" if len(marked) == 1 else f"The last {len(marked)} moves are"
    assert f"{count} judged exactly (marked exact)" in text.stdout
    assert "a mistake when it gives up more than 1.0." in text.stdout


def test_unfinished_game_is_an_error(tmp_path: Path) -> None:
    game = Game(deal=DEAL)
    game.place(0, 0)
    with pytest.raises(AnalysisError, match="not over"):
        analyze(game)
    path = tmp_path / "unfinished.json"
    record.write(game, path)
    result = run_cli("analyze", str(path))
    assert result.returncode == 2
    assert "not over" in result.stderr and "Traceback" not in result.stderr


def test_missing_record_is_an_error(tmp_path: Path) -> None:
    result = run_cli("analyze", str(tmp_path / "nope.json"))
    assert result.returncode == 2 and "no such file" in result.stderr


@pytest.mark.slow
def test_analysis_sees_only_the_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every position is judged through the fair view: the hint never receives the stock order."""
    import foursquare.players as players

    seen: list[object] = []
    real = players.hint

    def spy(view: object, **kwargs: object) -> list[players.MoveAdvice]:
        seen.append(view)
        return real(view, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(players, "hint", spy)
    exact_views: list[object] = []
    real_exact = judge_moves

    def exact_spy(view: object, *args: Any) -> list[Any]:
        exact_views.append(view)
        return real_exact(view, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(analysis, "judge_moves", exact_spy)
    game = lost_game()
    result = analyze(game, seed=4, time_budget=None)
    exact = sum(m["evaluation"] == "exact" for m in result["moves"])
    assert len(seen) == game.turn - exact
    assert len(exact_views) <= exact + 1  # and the one that needed too many positions, if tried
    assert all(type(v).__name__ == "View" for v in seen + exact_views)
    assert Move(0, 0) in seen[0].legal_moves  # type: ignore[attr-defined]


@pytest.mark.slow
def test_the_end_of_the_game_is_judged_exactly() -> None:
    """The last moves' rows are the exact expectimax's, walking back until one needs more positions than allowed;
    a smaller allowance judges fewer moves exactly and the rest as before."""
    from foursquare.players import make_player, play_game

    game = Game(deal=2)
    play_game(make_player("greedy"), game)  # which loses deal 2 at its last card
    result = analyze(game, seed=1, solve_nodes=1_000)
    exact = [m for m in result["moves"] if m["evaluation"] == "exact"]
    assert len(exact) >= 3, "a long game's last few moves settle within the default positions"
    replay = Game(deal=2)
    needed = 0  # the most positions an exact judgement took
    for index, played in enumerate(game.moves):
        m = result["moves"][index]
        if m["evaluation"] == "exact":
            judgement = judge_moves(replay.view(), [played], EXACT_POSITIONS)[0]
            needed = max(needed, judgement.positions)
            assert m["played_expected_score"] == round(judgement.played, 3)
            assert m["best_expected_score"] == round(judgement.best, 3)
            assert m["played_win_probability"] == round(judgement.played_win_probability, 4)
            assert m["expected_score_loss"] == m["expected_score_loss_low"] == round(judgement.loss, 3)
            assert m["mistake"] == (not m["forced"] and judgement.loss > MISTAKE_EXPECTED_SCORE)
            if judgement.loss == 0:
                assert m["best"] == m["played"]
        replay.place(played.row, played.col)
    assert result["moves"][-1]["played_win_probability"] == 0  # the move that lost leaves no chance
    # a first exact judgement needing more than the allowance stops the walk there
    fewer = exact_judgements(views_before_moves(game), game.moves, needed - 1)
    assert 0 < len(fewer) < len(exact)
    assert sorted(fewer) == list(range(game.turn - len(fewer), game.turn))
    assert all(result["moves"][index] == entry for index, entry in fewer.items())
    # none is tried with more cards unseen than EXACT_UNSEEN, however large the allowance
    assert all(len(view.unseen) <= EXACT_UNSEEN for view in views_before_moves(game)[-len(exact) :])


def test_a_move_is_judged_the_same_whatever_the_unseen_order() -> None:
    """The hint, the fresh futures and the verdict on a move depend on the view only: two stocks that differ
    after the card to place give the same row (the unseen cards are shuffled, their order never read)."""
    game = Game(deal=DEAL)
    for _ in range(7):
        game.place(*game.legal_moves[-1])
    stock = list(game.stock)
    other = Game(stock=stock[: game.turn + 1] + stock[game.turn + 1 :][::-1])
    for move in game.moves:
        other.place(move.row, move.col)
    assert other.view() == game.view() and other.stock != game.stock
    for played in game.legal_moves[:2]:
        mine = judge_move(game.view(), played, game.turn, seed=1, time_budget=None)
        theirs = judge_move(other.view(), played, other.turn, seed=1, time_budget=None)
        assert mine == theirs
