"""The kernel compiled ahead of time (``foursquare.kernel._compiled``, built by setup.py) is numba's kernel: the same
source, so the same numbers — every exported function on positions of many games, the hints and whole games.

Both run in this process: the module's functions against the kernel modules' numba dispatchers.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from foursquare import kernel as K
from foursquare.engine import Game, Variant
from foursquare.kernel import compiled, exports, montecarlo, policies, rules, state, survival
from foursquare.players import hint

KERNEL = Path(K.__file__).parent
JIT = {"state": state, "rules": rules, "policies": policies, "montecarlo": montecarlo, "survival": survival}


@pytest.fixture(scope="module")
def built() -> Any:
    module = compiled.module()
    if module is None:
        pytest.skip("the compiled kernel is not built from these sources: pip install -e . (make install) builds it")
    return module


def positions(count: int) -> list[Game]:
    """Positions of ``count`` deals at every few turns, in both adjacencies, played by the engine's greedy rule."""
    games = []
    for deal in range(1, count + 1):
        variant = Variant(adjacency="diagonal" if deal % 2 else "orthogonal", count_buried=deal % 3 == 0)
        game = Game(deal=deal, variant=variant)
        while not game.is_over():
            if game.turn % 3 == deal % 3:
                games.append(game.copy())
            move = game.legal_moves[(deal * 31 + game.turn) % len(game.legal_moves)]
            game.place(move.row, move.col)
    return games


def jit(name: str) -> Any:
    export = next(e for e in exports.EXPORTS if e.name == name)
    return getattr(JIT[export.module], name)


@pytest.mark.slow  # every export on many positions (make check: the hints' numbers below)
def test_every_function_gives_numbas_numbers_on_many_positions(built: Any) -> None:
    games = positions(40)
    assert len(games) > 100
    for game in games:
        view = game.view()
        s = K.state_of_view(view)
        card = int(view.card)
        ours, theirs = np.empty(K.MAX_MOVES, dtype=np.int64), np.empty(K.MAX_MOVES, dtype=np.int64)
        n = built.legal(s, ours)
        assert n == jit("legal")(s, theirs) and (ours[:n] == theirs[:n]).all()
        cells = ours[:n].copy()
        for cell in cells:
            assert built.evaluate(s, int(cell), card) == tuple(jit("evaluate")(s, int(cell), card))
            a, b = s.copy(), s.copy()
            built.place(a, int(cell), card)
            jit("place")(b, int(cell), card)
            assert (a == b).all()
        assert built.greedy_move(s, card) == jit("greedy_move")(s, card)
        assert built.greedy_choice(s, card, cells, n) == jit("greedy_choice")(s, card, cells, n)
        work = np.empty(K.STATE_SIZE, dtype=np.int8)
        weights = K.POLICY_WEIGHTS
        assert built.policy_choice(s, card, cells, n, weights, work) == jit("policy_choice")(
            s, card, cells, n, weights, work
        )
        unseen = K.stock_array(view.unseen)
        for w in (weights, np.empty(0)):  # the rollout policy, and greedy rollouts
            a, b = np.empty((8, n), dtype=np.int8), np.empty((8, n), dtype=np.int8)
            built.monte_carlo(s, card, unseen, cells, K.make_rng(game.turn), a, w)
            jit("monte_carlo")(s, card, unseen, cells, K.make_rng(game.turn), b, w)
            assert (a == b).all()
        counts = np.bincount([c.rank - 1 for c in view.unseen], minlength=K.RANK_COUNT).astype(np.int64)
        a, b = np.zeros(n), np.zeros(n)
        built.survival_after(s, card, cells, counts.copy(), 2, a)
        jit("survival_after")(s, card, cells, counts.copy(), 2, b)
        assert (a == b).all()


@pytest.mark.slow  # whole games by both
def test_whole_games_and_random_games_agree(built: Any) -> None:
    stocks = np.array([[int(c) for c in Game(deal=d).stock] for d in range(1, 301)], dtype=np.int8)
    for diagonal in (0, 1):
        assert (built.greedy_games(stocks, diagonal, 1) == jit("greedy_games")(stocks, diagonal, 1)).all()
        template = built.empty_state(diagonal, 0)
        assert (template == jit("empty_state")(diagonal, 0)).all()
        ours = built.policy_games(stocks[:60], template, K.POLICY_WEIGHTS)
        assert (ours == jit("policy_games")(stocks[:60], template, K.POLICY_WEIGHTS)).all()
        for a, b in zip(
            built._random_games(50, K.make_rng(7), diagonal, 1), policies._random_games(50, K.make_rng(7), diagonal, 1),
            strict=True,
        ):
            assert (a == b).all()


def test_hints_are_the_same_numbers(built: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    views = [game.view() for game in positions(12)[::3]]
    assert K.monte_carlo.__name__ == "monte_carlo" and compiled.origin() == "ahead-of-time"
    ahead = [hint(view, seed=5) for view in views]
    monkeypatch.setattr(K, "monte_carlo", montecarlo.monte_carlo)  # numba's, as a developer's edited kernel runs
    assert [hint(view, seed=5) for view in views] == ahead


def test_a_wrong_argument_is_refused_not_read_as_another_type(built: Any) -> None:
    s = K.new_state()
    with pytest.raises(compiled.CompiledArgumentError, match="legal: argument 2 must be a C-contiguous 1-d int64"):
        K.legal(s, np.empty(K.MAX_MOVES, dtype=np.int32))
    with pytest.raises(compiled.CompiledArgumentError, match="argument 1"):
        K.greedy_move(s.astype(np.int64), 0)
    with pytest.raises(compiled.CompiledArgumentError, match="argument 1"):
        K.greedy_move(np.empty((2, K.STATE_SIZE), dtype=np.int8)[:, 0], 0)  # not contiguous


def test_the_fingerprint_covers_every_module_the_exports_are_compiled_from() -> None:
    """An export compiled from a module outside SOURCE_MODULES would not be rebuilt, nor found stale, after its edit."""
    for name in exports.SOURCE_MODULES:
        tree = ast.parse((KERNEL / f"{name}.py").read_text())
        imported = {
            node.module.rsplit(".", 1)[1]
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("foursquare.kernel.")
        }
        assert imported - {"compiled"} <= set(exports.SOURCE_MODULES), name


def test_a_stale_module_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled, "fingerprint_word", lambda: -1)
    compiled.module.cache_clear()
    try:
        assert compiled.module() is None
    finally:
        monkeypatch.undo()
        compiled.module.cache_clear()
