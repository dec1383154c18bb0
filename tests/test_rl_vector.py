"""The vector environments' fast paths agree with the kernel's readable rules; demonstrations are the expert's."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import foursquare.rl as R
from foursquare import kernel as K
from foursquare.cards import deal_stock
from foursquare.engine import Move, Variant
from foursquare.kernel import boards
from foursquare.kernel import vector as V
from foursquare.rl import picture as P
from foursquare.rl.games import Games
from foursquare.rl.settings import Settings
from kernel_helpers import VARIANT_IDS, VARIANTS


def _action(cell: int) -> int:
    move = K.move_of(cell)
    return V.action_of(move.row, move.col)


def _legal_actions(state: np.ndarray) -> set[int]:
    moves = np.empty(K.MAX_MOVES, dtype=np.int64)
    return {_action(int(c)) for c in moves[: K.legal(state, moves)]}


def _board_actions(state: np.ndarray, occupied: np.uint64, open_piles: np.uint64) -> set[int]:
    bits = int(boards.legal_bits(state, occupied, open_piles))
    return {a for a in range(V.ACTIONS) if bits >> a & 1}


@pytest.mark.parametrize("variant", VARIANTS, ids=VARIANT_IDS)
def test_bit_boards_give_the_legal_cells_of_every_position(variant: Variant) -> None:
    """After every move of 300 random games, the bit boards' legal actions are ``legal()``'s cells, and the
    mask written from them says the same; full piles and the grid's edge are reached many times."""
    stocks, moves, lengths = K.random_games(300, seed=5, variant=variant)
    full_piles = edge = 0
    for g in range(len(stocks)):
        state = K.new_state(variant)
        occupied = open_piles = np.uint64(0)
        for t in range(int(lengths[g]) + 1):
            expected = _legal_actions(state)
            assert _board_actions(state, occupied, open_piles) == expected, f"game {g} move {t}"
            mask = np.zeros(V.ACTIONS, dtype=np.int8)
            boards.write_mask(mask, boards.legal_bits(state, occupied, open_piles))
            assert set(np.flatnonzero(mask)) == expected
            full_piles += int(occupied) & ~int(open_piles) != 0
            edge += state[K.MAX_ROW] - state[K.MIN_ROW] == 3 or state[K.MAX_COL] - state[K.MIN_COL] == 3
            if t == lengths[g]:
                break
            cell = int(moves[g, t])
            K.place(state, cell, int(stocks[g, t]))
            occupied, open_piles = boards.lay(occupied, open_piles, state, _action(cell), cell)
    assert full_piles > 100 and edge > 1000


def test_place_says_which_lines_turned() -> None:
    """``place`` reports a line as turned exactly when another top of that line changed its face."""
    stocks, moves, lengths = K.random_games(100, seed=9, variant=Variant())
    faces = slice(K.TOP_FACE_UP, K.TOP_FACE_UP + K.AREA_CELLS)
    seen = set()
    for g in range(len(stocks)):
        state = K.new_state()
        for t in range(int(lengths[g])):
            cell = int(moves[g, t])
            before = state[faces].copy()
            turned = K.place(state, cell, int(stocks[g, t]))
            changed = [int(x) for x in np.flatnonzero(before != state[faces]) if x != cell]
            assert bool(turned & K.rules.ROW_TURNED) == any(x // K.AREA_SIDE == cell // K.AREA_SIDE for x in changed)
            assert bool(turned & K.rules.COLUMN_TURNED) == any(x % K.AREA_SIDE == cell % K.AREA_SIDE for x in changed)
            seen.add(turned)
    assert seen == {0, 1, 2, 3}


def test_expert_actions_are_the_rollout_policy() -> None:
    """Playing ``expert_actions()`` scores each deal as the kernel's rollout-policy games do."""
    deals = list(range(1, 65))
    envs = R.FoursquareVectorEnv(len(deals))
    _, info = envs.reset(options={"deals": deals})
    scores = np.full(len(deals), -2)
    while (scores == -2).any():
        actions = envs.expert_actions()
        playing = info["action_mask"].any(axis=1)
        assert all(info["action_mask"][i, actions[i]] for i in np.flatnonzero(playing))
        _, rewards, terminated, _, info = envs.step(actions)
        for i in np.flatnonzero(terminated & (scores == -2)):
            scores[i] = rewards[i] if rewards[i] > 0 else -1
    stocks = np.array([[int(c) for c in deal_stock(d)] for d in deals], dtype=np.int8)
    expected = K.policy_games(stocks, K.new_state(), K.POLICY_WEIGHTS)
    assert scores.tolist() == expected.tolist()
    with pytest.raises(RuntimeError, match="reset"):
        R.FoursquareVectorEnv(2).expert_actions()


def test_the_compiled_step_refuses_arrays_it_cannot_read_as_rows() -> None:
    games = Games(4, Settings.of("orthogonal", False, "score", 0.0, "raise", -1.0))
    games.obs = np.zeros((4, 2 * V.OBS_SIZE), dtype=np.int8)[:, ::2]  # every other byte: not contiguous
    with pytest.raises(ValueError, match="C-contiguous"):
        games.reset()


def _colour_at_cell(frame: np.ndarray, name: str) -> tuple[int, ...]:
    """The colour a little inside the top-left corner of the cell ``name``'s card."""
    move = Move.from_name(name)
    x0, y0, _, _ = P._cell_box(move.row, move.col)
    return tuple(int(v) for v in frame[y0 + 8, x0 + 8])


def test_rgb_array_frames_show_the_position() -> None:
    """Every frame has one size; a face-up card is light, a face-down one dark, an empty cell the table's green;
    the card to place is drawn beside the grid and the frame turns red at a loss."""
    env = R.FoursquareEnv(render_mode="rgb_array")
    assert env.render() is None  # before reset
    env.reset(options={"deal": 7})
    frames = [env.render()]
    rng = np.random.default_rng(1)
    terminated = False
    while not terminated:
        _, _, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        frames.append(env.render())
    assert all(f.shape == (P.HEIGHT, P.WIDTH, 3) and f.dtype == np.uint8 for f in frames)
    assert _colour_at_cell(frames[0], "D4") == P._EMPTY
    assert _colour_at_cell(frames[1], "D4") == P._FACE_UP
    game = env.game()
    down = [c for c in game.cells() if not c.top_face_up]
    assert down, "a random game on deal 7 ends with cards face down"
    assert _colour_at_cell(frames[-1], Move(down[0].row, down[0].col).name) == P._FACE_DOWN
    assert game.outcome().status == "lost" and tuple(frames[-1][1, 1]) == P._LOST
    assert tuple(frames[1][1, 1]) == P._TABLE
    assert not np.array_equal(frames[1], frames[2])


def test_rgb_array_passes_gymnasiums_render_check() -> None:
    env = gymnasium.make(R.ENV_ID, render_mode="rgb_array", illegal_action="lose").unwrapped
    check_env(env, skip_render_check=False)  # every render mode, through the registered spec
    with pytest.raises(ValueError, match="'rgb_array'"):
        R.FoursquareEnv(render_mode="human")
