"""Post-game analysis: the library call and the ``analyze`` command on finished games, errors otherwise."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from foursquare import record
from foursquare.analysis import MISTAKE_EXPECTED_SCORE, MISTAKE_WIN_PROBABILITY, AnalysisError, analyze
from foursquare.engine import Game, Move
from foursquare.solver import solve

DEAL = 3  # the solver proves 24 (a win with the first 16 cards) in well under a second


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "foursquare.cli", *args], capture_output=True, text=True, timeout=300)


def lost_game() -> Game:
    """Deal 3 played badly on purpose: every card on the first pile that takes it, until the game ends."""
    game = Game(deal=DEAL)
    while not game.is_over():
        game.place(*game.legal_moves[0])
    return game


def perfect_game() -> Game:
    game = Game(deal=DEAL)
    for move in solve(game.stock, timeout=30).line:
        game.place(move.row, move.col)
    return game


def check_shape(result: dict[str, object], game: Game) -> None:
    assert set(result) == {"outcome", "reason", "score", "deal", "moves", "costliest", "perfect"}
    assert result["outcome"] == game.outcome().status
    assert result["deal"] == DEAL
    moves = result["moves"]
    assert isinstance(moves, list) and len(moves) == game.turn
    for i, (m, played) in enumerate(zip(moves, game.moves, strict=True)):
        assert m["index"] == i
        assert m["played"] == [played.row, played.col]
        assert m["card"] == game.stock[i].name
        assert m["win_probability_loss"] >= 0 and m["expected_score_loss"] >= 0
        flagged = (
            m["win_probability_loss"] >= MISTAKE_WIN_PROBABILITY or m["expected_score_loss"] >= MISTAKE_EXPECTED_SCORE
        )
        assert not m["mistake"] or (flagged and not m["forced"])  # a mistake also had to beat the noise
        if m["played"] == m["best"] or m["forced"]:
            assert m["win_probability_loss"] == m["expected_score_loss"] == 0 and not m["mistake"]
    mistakes = [m for m in moves if m["mistake"]]
    assert sorted(result["costliest"]) == sorted(m["index"] for m in mistakes)  # type: ignore[arg-type]
    perfect = result["perfect"]
    assert isinstance(perfect, dict)
    assert perfect["status"] == "optimal" and perfect["winnable"] is True
    assert perfect["best_score"] == 24 and perfect["upper_bound"] == 24
    replay = Game(deal=DEAL)
    for r, c in perfect["line"]:
        replay.place(r, c)
    assert replay.outcome().score == 24


@pytest.mark.slow
def test_library_flags_the_mistakes_of_a_bad_game() -> None:
    game = lost_game()
    result = analyze(game, seed=1, time_budget=0.05)
    check_shape(result, game)
    assert result["outcome"] == "lost" and result["score"] == 0
    assert result["costliest"], "piling every card on the first pile must be flagged somewhere"
    json.dumps(result)  # JSON-ready


@pytest.mark.slow
def test_perfect_game_has_no_mistake_in_score() -> None:
    game = perfect_game()
    result = analyze(game, seed=2, time_budget=0.05)
    check_shape(result, game)
    assert result["outcome"] == "won" and result["score"] == 24


@pytest.mark.slow
def test_the_strong_players_own_moves_are_rarely_mistakes() -> None:
    """The analysis replays the played move and the hint's best on fresh futures, so the race's
    optimistic estimate of its winner does not turn good moves into mistakes."""
    from foursquare.players import make_player, play_game

    game = Game(deal=1)
    play_game(make_player("best", seed=5), game)
    result = analyze(game, seed=0, solve_timeout=1.0)
    assert result["outcome"] == "won"
    assert len(result["costliest"]) <= 1


@pytest.mark.slow
def test_cli_text_and_json(tmp_path: Path) -> None:
    path = tmp_path / "lost.json"
    record.write(lost_game(), path)
    text = run_cli("analyze", str(path), "--seed", "3", "--time", "0.05")
    assert text.returncode == 0, text.stderr
    assert "MISTAKE" in text.stdout
    assert "Perfect-information verdict" in text.stdout and "best score 24 (proven optimal)" in text.stdout
    data = run_cli("analyze", str(path), "--json", "--seed", "3", "--time", "0.05")
    assert data.returncode == 0, data.stderr
    result = json.loads(data.stdout)
    check_shape(result, record.read(path))


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
    game = lost_game()
    analyze(game, seed=4, time_budget=0.05)
    assert len(seen) == game.turn
    assert all(type(v).__name__ == "View" for v in seen)
    assert Move(0, 0) in seen[0].legal_moves  # type: ignore[attr-defined]
