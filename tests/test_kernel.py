"""The compiled kernel plays exactly the engine's game: differential tests over many games."""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foursquare import jitcache as cache
from foursquare import kernel as K
from foursquare.cards import ALL_CARDS, Card, deal_stock
from foursquare.engine import Game, Move, Variant
from foursquare.kernel import rng
from foursquare.kernel import vector as V
from kernel_helpers import (
    VARIANT_IDS,
    VARIANTS,
    differences,
    face_down_of_state,
    grid_of_game,
    grid_of_state,
    outcome_of_state,
    replay_snapshots,
)

MAKE_TEST_GAMES = 500
"""Random games per rule set that make test compares (2,000 in all; it was 2,500 per rule set). A seed's games are a
prefix of a longer run's (game i is the same in 200, 500 and 2,500), so these are the first 500 of the 2,500 before
(2026-12-07, seed 2024, measured by replaying them on the engine): every random game ends with too many cards face
down (wins and an empty stock are the greedy games' and the perft table's), and in each rule set every flip a move
can cause -- by the row and by the column, for the highest, the lowest and no card face up, turning a top face down
and face up, on a pile with cards under it, on both lines at once -- comes 252 times at least (a stacked pile turned
face up with none face up, with diagonal neighbours and buried cards counted: the rarest; 95 in the quick sample's
200, 1,232 in the 2,500). The other 2,000 games per rule set repeated those paths at five times this cost (the
10,000 took 17 s of CPU alone, 170 s of a loaded suite's profile); the perft golden table (tests/test_perft.py)
binds the kernel on every line of play of the first cards besides."""


# How many games per variant the differential tests play: a quick sample, and more under the slow marker.
RANDOM_GAMES = [pytest.param(200, id="200"), pytest.param(MAKE_TEST_GAMES, id="500", marks=pytest.mark.slow)]
GREEDY_DEALS = [pytest.param(40, id="40"), pytest.param(150, id="150", marks=pytest.mark.slow)]


def _engine_snapshot(game: Game) -> tuple[dict[tuple[int, int], tuple[int, bool, int, int]], int, object, list[Move]]:
    return grid_of_game(game), game.face_down, game.outcome(), game.legal_moves


def _kernel_snapshot(state: np.ndarray, legal: np.ndarray, count: int) -> tuple[object, ...]:
    return (
        grid_of_state(state),
        face_down_of_state(state),
        outcome_of_state(state),
        [K.move_of(int(c)) for c in legal[:count]],
    )


def _compare_game(stock: np.ndarray, moves: np.ndarray, length: int, variant: Variant) -> int:
    """Replay one kernel game on the engine and compare after every move; return the moves compared."""
    game = Game(stock=[Card(int(c)) for c in stock], variant=variant)
    states, legals, counts = replay_snapshots(K.new_state(variant), stock, moves, length)
    for i in range(length):
        move = K.move_of(int(moves[i]))
        assert move in game.legal_moves, f"move {i} {move} is not legal in the engine"
        game.place(move.row, move.col)
        assert int(states[i, K.TURN]) == game.turn
        assert _kernel_snapshot(states[i], legals[i], int(counts[i])) == _engine_snapshot(game), (
            f"after move {i} ({move}) of stock {[Card(int(c)).name for c in stock]}"
        )
    assert game.is_over() == (int(states[length - 1, K.STATUS]) != K.STATUS_PLAYING)
    return length


@pytest.mark.parametrize("count", RANDOM_GAMES)
@pytest.mark.parametrize("variant", VARIANTS, ids=VARIANT_IDS)
def test_random_games_agree_with_engine(variant: Variant, count: int) -> None:
    stocks, moves, lengths = K.random_games(count, seed=2024, variant=variant)
    compared = 0
    for g in range(count):
        compared += _compare_game(stocks[g], moves[g], int(lengths[g]), variant)
    assert compared > 10 * count
    # every random game ends (won or lost) and the kernel recorded its whole length
    assert (lengths > 0).all() and (lengths <= 40).all()


@pytest.mark.parametrize("deals", GREEDY_DEALS)
@pytest.mark.parametrize("variant", VARIANTS, ids=VARIANT_IDS)
def test_greedy_games_agree_with_engine(variant: Variant, deals: int) -> None:
    """Greedy games last longer than random ones and reach wins and empty stocks too."""
    outcomes: set[str] = set()
    for deal in range(1, deals + 1):
        stock = K.stock_array(deal_stock(deal))
        state = K.new_state(variant)
        moves = np.full(40, -1, dtype=np.int64)
        n = 0
        while int(state[K.STATUS]) == K.STATUS_PLAYING:
            cell = K.greedy_move(state, int(stock[int(state[K.TURN])]))
            K.place(state, cell, int(stock[int(state[K.TURN])]))
            moves[n] = cell
            n += 1
        _compare_game(stock, moves, n, variant)
        outcomes.add(outcome_of_state(state).reason or "")
    assert {"sixteen_face_up", "too_many_face_down"} <= outcomes


def test_view_conversion_matches_incremental_state() -> None:
    for variant in VARIANTS:
        game = Game(deal=77, variant=variant)
        state = K.new_state(variant)
        while not game.is_over():
            view = game.view()
            assert np.array_equal(K.state_of_view(view), state)
            move = view.legal_moves[len(view.legal_moves) // 2]
            card = int(game.card_to_place)  # type: ignore[arg-type]
            game.place(move.row, move.col)
            K.place(state, K.cell_of(move.row, move.col), card)
            assert differences(game, state) == []
        assert np.array_equal(K.state_of_game(game), state)


def test_cells_and_moves_round_trip() -> None:
    for row in range(-3, 4):
        for col in range(-3, 4):
            assert K.move_of(K.cell_of(row, col)) == Move(row, col)
    assert K.cell_of(0, 0) == K.ORIGIN_CELL
    for row, col in ((4, 0), (0, -4)):
        with pytest.raises(K.KernelMismatch, match="outside"):
            K.cell_of(row, col)
    for cell in (-1, 0, K.cell_of(-3, 3) - K.AREA_SIDE, K.AREA_CELLS):
        with pytest.raises(K.KernelMismatch, match="not a cell"):
            K.move_of(cell)


def test_a_kernel_mismatch_is_a_bug_not_bad_input() -> None:
    """The CLI reports ValueError as bad input (exit 2); a disagreement with the engine must not look like one."""
    assert issubclass(K.KernelMismatch, RuntimeError)
    assert not issubclass(K.KernelMismatch, ValueError)


def test_the_area_holds_every_reachable_cell_with_an_empty_ring() -> None:
    """Every legal cell of every position lies in the reachable square, so neighbour reads stay in the area."""
    reachable = {K.cell_of(r, c) for r in range(-K.REACH, K.REACH + 1) for c in range(-K.REACH, K.REACH + 1)}
    ring = set(range(K.AREA_CELLS)) - reachable
    assert all({cell % K.AREA_SIDE, cell // K.AREA_SIDE} & {0, K.AREA_SIDE - 1} for cell in ring)
    _, moves, lengths = K.random_games(200, seed=7, variant=Variant("diagonal", False))
    played = {int(m) for g in range(200) for m in moves[g, : lengths[g]]}
    assert played <= reachable and len(played) > len(reachable) // 2


def test_new_state_is_the_empty_state_of_each_variant() -> None:
    for variant in VARIANTS:
        state = K.new_state(variant)
        assert np.array_equal(state, K.empty_state(*K.variant_flags(variant)))
        assert np.array_equal(state, K.state_of_view(Game(deal=1, variant=variant).view()))
        assert (state[K.TOP_CARD : K.TOP_CARD + K.AREA_CELLS] == -1).all()
        assert (int(state[K.DIAGONAL_FLAG]), int(state[K.COUNT_BURIED_FLAG])) == K.variant_flags(variant)


def test_differences_reports_a_disagreement() -> None:
    game = Game(deal=3)
    state = K.new_state()
    game.place(0, 0)
    assert differences(game, state)  # the kernel state has no card: they must disagree
    K.place(state, K.ORIGIN_CELL, int(deal_stock(3)[0]))
    assert differences(game, state) == []


@settings(max_examples=60, deadline=None)
@given(
    order=st.permutations(list(range(40))),
    choices=st.lists(st.integers(min_value=0, max_value=10_000), min_size=40, max_size=40),
    variant=st.sampled_from(VARIANTS),
)
def test_hypothesis_any_game_agrees(order: list[int], choices: list[int], variant: Variant) -> None:
    """Arbitrary stocks and move choices: engine and kernel agree after every move."""
    game = Game(stock=[ALL_CARDS[i] for i in order], variant=variant)
    state = K.new_state(variant)
    for pick in choices:
        if game.is_over():
            break
        legal = game.legal_moves
        move = legal[pick % len(legal)]
        card = int(game.card_to_place)  # type: ignore[arg-type]
        game.place(move.row, move.col)
        K.place(state, K.cell_of(move.row, move.col), card)
        assert differences(game, state) == []


@settings(max_examples=60, deadline=None)
@given(
    deal=st.integers(min_value=0, max_value=2**64 - 1),
    steps=st.integers(min_value=0, max_value=30),
    variant=st.sampled_from(VARIANTS),
)
def test_hypothesis_evaluate_predicts_place(deal: int, steps: int, variant: Variant) -> None:
    """``evaluate`` (used by greedy without copying) says what ``place`` then does, for every legal move."""
    stock = K.stock_array(deal_stock(deal))
    state = K.new_state(variant)
    for _ in range(steps):  # greedy moves, stopping short of the one that would end the game
        card = int(stock[int(state[K.TURN])])
        after = state.copy()
        K.place(after, K.greedy_move(state, card), card)
        if int(after[K.STATUS]) != K.STATUS_PLAYING:
            break
        state = after
    assert int(state[K.STATUS]) == K.STATUS_PLAYING
    card = int(stock[int(state[K.TURN])])
    out = np.empty(K.MAX_MOVES, dtype=np.int64)
    for i in range(K.legal(state, out)):
        status, down, cells = K.evaluate(state, int(out[i]), card)
        after = state.copy()
        K.place(after, int(out[i]), card)
        assert (status, down, cells) == (int(after[K.STATUS]), face_down_of_state(after), int(after[K.OCCUPIED]))


def test_shuffle_is_a_permutation_and_seeded() -> None:
    stock = np.arange(40, dtype=np.int8)
    K.shuffle_tail(stock, 10, K.make_rng(5))
    assert list(stock[:10]) == list(range(10))
    assert sorted(stock.tolist()) == list(range(40))
    again = np.arange(40, dtype=np.int8)
    K.shuffle_tail(again, 10, K.make_rng(5))
    assert np.array_equal(stock, again)


def test_remainder_without_division_is_exact() -> None:
    """``rng.remainder`` (multiplications in place of a 64-bit division) equals ``%`` for every divisor it
    takes, on random numbers and on those next to powers of two and to multiples of the divisor."""
    numbers = [int(x) for x in np.random.default_rng(3).integers(0, 2**64, size=300, dtype=np.uint64)]
    numbers += [(1 << k) + e for k in range(64) for e in (-1, 0, 1)] + [2**64 - 1]
    for d in range(1, rng.MAX_DIVISOR + 1):
        top = (2**64 - 1) // d * d
        for n in [*numbers, top, top - 1, top - d, d, d - 1]:
            assert rng.remainder(np.uint64(n % 2**64), d) == n % 2**64 % d, (n, d)
    stock = np.zeros(40, dtype=np.int8)
    for deal in (0, 1, 7, 2**63, 2**64 - 1):
        V.deal_into(stock, np.uint64(deal))
        assert [int(c) for c in stock] == [int(c) for c in deal_stock(deal)]


@pytest.mark.parametrize("variant", VARIANTS, ids=VARIANT_IDS)
def test_policy_games_replay_on_the_engine(variant: Variant) -> None:
    """The best player's rollout policy plays legal games whose outcome the engine confirms."""
    stocks = np.array([[int(c) for c in deal_stock(d)] for d in range(1, 31)], dtype=np.int8)
    scores = K.policy_games(stocks, K.new_state(variant), K.POLICY_WEIGHTS)
    work = np.empty(K.STATE_SIZE, dtype=np.int8)
    moves = np.empty(K.MAX_MOVES, dtype=np.int64)
    for g in range(len(stocks)):
        game = Game(stock=[Card(int(c)) for c in stocks[g]], variant=variant)
        state = K.new_state(variant)
        while not game.is_over():
            card = int(stocks[g, game.turn])
            n = K.legal(state, moves)
            cell = K.policy_choice(state, card, moves, n, K.POLICY_WEIGHTS, work)
            move = K.move_of(cell)
            game.place(move.row, move.col)
            K.place(state, cell, card)
        outcome = game.outcome()
        assert scores[g] == (outcome.score if outcome.status == "won" else -1)
    greedy = K.greedy_games(stocks, int(variant.adjacency == "diagonal"), int(variant.count_buried))
    assert (scores >= 0).sum() > (greedy >= 0).sum()


def test_cache_refresh_flushes_when_any_source_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """numba checks only a function's own file, so the kernel flushes its cache when any of its sources changes."""
    (tmp_path / "kernel_cache_probe.py").write_text(
        "from numba import njit\n\n\n@njit(cache=True)\ndef twice(x):\n    return 2 * x\n"
    )
    other = tmp_path / "other.py"
    other.write_text("A = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    probe = importlib.import_module("kernel_cache_probe")
    assert probe.twice(2) == 4
    twice, sig = probe.twice, probe.twice.signatures[0]
    assert cache.compiled_functions([probe]) == [twice]
    assert twice._cache.load_overload(sig, twice.targetctx) is not None  # saved on disk
    assert cache.refresh([probe], [other])  # no fingerprint yet
    assert twice._cache.load_overload(sig, twice.targetctx) is None  # flushed
    assert not cache.refresh([probe], [other])
    other.write_text("A = 2\n")
    assert cache.refresh([probe], [other])
    assert not cache.refresh([probe], [other])
