"""The vector environments' fast paths agree with the kernel's readable rules; so do the rollout policy's moves."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import foursquare.rl as R
from foursquare import kernel as K
from foursquare.cards import Card, deal_stock
from foursquare.engine import Game, Move, Variant
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


def _kwargs(variant: Variant) -> dict[str, object]:
    return {"adjacency": variant.adjacency, "count_buried": variant.count_buried}


def _check_against_engine(game: Game, obs: np.ndarray, mask: np.ndarray, where: str) -> None:
    assert np.array_equal(obs, R.observe_view(game.view())), f"{where}: observation differs"
    assert np.array_equal(mask, R.mask_of_view(game.view())), f"{where}: mask differs"


def test_rollout_actions_are_the_rollout_policy() -> None:
    """Playing ``rollout_actions()`` scores each deal as the kernel's rollout-policy games do, and every step's
    observation and mask, through the wins it reaches, are the engine's."""
    deals = list(range(1, 65))
    envs = R.FoursquareVectorEnv(len(deals))
    obs, info = envs.reset(options={"deals": deals})
    games = [Game(deal=d) for d in deals]
    rewards = np.zeros(len(deals))
    while not all(g.is_over() for g in games):
        actions = envs.rollout_actions()
        playing = [i for i, g in enumerate(games) if not g.is_over()]
        for i in playing:
            move = R.move_of_action(int(actions[i]))
            games[i].place(move.row, move.col)
        obs, step_rewards, terminated, _, info = envs.step(actions)
        for i in playing:
            _check_against_engine(games[i], obs[i], info["action_mask"][i], f"deal {deals[i]} turn {games[i].turn}")
            assert terminated[i] == games[i].is_over()
            rewards[i] = step_rewards[i]
    stocks = np.array([[int(c) for c in deal_stock(d)] for d in deals], dtype=np.int8)
    expected = K.policy_games(stocks, K.new_state(), K.POLICY_WEIGHTS)  # -1 for a loss, which rewards 0
    assert rewards.tolist() == np.maximum(expected, 0).tolist()
    assert [g.outcome().status == "won" for g in games] == (expected >= 0).tolist()
    assert (expected >= 0).sum() > 40  # wins are what this test is for
    with pytest.raises(RuntimeError, match="reset"):
        R.FoursquareVectorEnv(2).rollout_actions()


@pytest.mark.parametrize("copy", [True, False], ids=["copies", "own arrays"])
@pytest.mark.parametrize("variant", VARIANTS, ids=VARIANT_IDS)
def test_illegal_endings_and_autoresets_agree_with_the_engine(variant: Variant, copy: bool) -> None:
    """Under ``illegal_action="lose"``, random legal and illegal actions (out of range too) and the rollout policy's,
    mixed over many autoresets: every game's observation and mask are the engine's after every step."""
    n = 12
    envs = R.FoursquareVectorEnv(
        n, illegal_action="lose", illegal_reward=-3.0, copy=copy, expose_deal=True, **_kwargs(variant)
    )
    obs, info = envs.reset(seed=4)
    games = [Game(deal=int(d), variant=variant) for d in info["deal"]]
    pending = np.zeros(n, dtype=bool)
    rng = np.random.default_rng(8)
    endings = {"illegal": 0, "rules": 0}
    for step in range(300):
        rollout = envs.rollout_actions()
        kinds = rng.integers(0, 10, size=n)  # 0: an illegal action, 1-5: a random legal one, else the rollout policy's
        actions = np.array([
            rng.integers(-3, 52) if k == 0 else rng.choice(np.flatnonzero(m)) if k < 6 and m.any() else e
            for k, m, e in zip(kinds, info["action_mask"], rollout, strict=True)
        ])  # fmt: skip
        masks_before = info["action_mask"].copy()
        obs, rewards, terminated, _, info = envs.step(actions)
        for i in range(n):
            if pending[i]:
                games[i] = Game(deal=int(info["deal"][i]), variant=variant)
                assert rewards[i] == 0 and not terminated[i]
            elif not (0 <= actions[i] < R.ACTIONS and masks_before[i, actions[i]]):
                assert terminated[i] and rewards[i] == -3.0 and not info["action_mask"][i].any()
                assert np.array_equal(obs[i], R.observe_view(games[i].view()))  # the position as it was
                endings["illegal"] += 1
                continue
            else:
                move = R.move_of_action(int(actions[i]))
                games[i].place(move.row, move.col)
                assert terminated[i] == games[i].is_over()
                endings["rules"] += bool(terminated[i])
            _check_against_engine(games[i], obs[i], info["action_mask"][i], f"env {i} step {step}")
        pending = terminated.copy()
    assert endings["illegal"] > 50 and endings["rules"] > 10


def test_own_arrays_are_read_only_and_copies_are_the_callers() -> None:
    own = R.FoursquareVectorEnv(2, copy=False, expose_deal=True)
    obs, info = own.reset(seed=1)
    with pytest.raises(ValueError, match="read-only"):
        obs[0, 0] = 1
    obs, rewards, terminated, truncated, info = own.step(np.array([24, 24]))
    for array in (obs, rewards, terminated, truncated, info["action_mask"], info["deal"], info["_deal"]):
        assert not array.flags.writeable
    copies, untouched = R.FoursquareVectorEnv(2), R.FoursquareVectorEnv(2)
    obs, info = copies.reset(seed=1)
    untouched.reset(seed=1)
    obs[:] = 0
    info["action_mask"][:] = 0
    obs, _, _, _, info = copies.step(np.array([24, 24]))  # what the caller did to its copies changed nothing
    expected_obs, _, _, _, expected = untouched.step(np.array([24, 24]))
    assert np.array_equal(obs, expected_obs) and np.array_equal(info["action_mask"], expected["action_mask"])
    assert [[R.action_name(a) for a in np.flatnonzero(m)] for m in info["action_mask"]] == [
        ["D3", "C4", "D4", "E4", "D5"]
    ] * 2


def _settings() -> Settings:
    return Settings.of("orthogonal", False, "score", 0.0, "raise", -1.0)


def test_the_compiled_step_refuses_arrays_it_cannot_read_as_rows() -> None:
    """The unmanaged rows write wherever they point, so wrong shapes and layouts are refused before."""
    games = Games(4, _settings())
    games.obs = np.zeros((4, 2 * V.OBS_SIZE), dtype=np.int8)[:, ::2]  # every other byte: not contiguous
    with pytest.raises(ValueError, match="C-contiguous"):
        games.reset()
    games = Games(4, _settings())
    games.reset()
    games.boards = np.zeros((3, V.BOARDS), dtype=np.uint64)  # a row short
    with pytest.raises(ValueError, match="boards"):
        games.step(np.full(4, 24))
    games = Games(4, _settings())
    games.reset()
    with pytest.raises(ValueError, match="one entry per game"):
        games.step(np.full(5, 24))


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


def test_rgb_array_frames_hide_the_stock_and_show_an_illegal_ending() -> None:
    """Two stocks that differ only beyond the card to place draw the same frames; an episode ended by an
    illegal action draws the frame of a loss though the game itself is not over."""
    stock = [Card(int(c)) for c in deal_stock(5)]
    other = stock[:7] + stock[7:][::-1]
    frames = []
    for cards in (stock, other):
        game = Game(stock=cards)
        for name in ("D4", "D3", "E4", "D5", "C4", "E3"):
            move = Move.from_name(name)
            if move in game.legal_moves:
                game.place(move.row, move.col)
        frames.append(P.picture(game.view()))
    assert np.array_equal(frames[0], frames[1])
    env = R.FoursquareEnv(render_mode="rgb_array", illegal_action="lose")
    env.reset(options={"deal": 5})
    _, _, terminated, _, _ = env.step(0)  # A1: not next to anything
    assert terminated and tuple(env.render()[1, 1]) == P._LOST
