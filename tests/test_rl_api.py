"""The environments' splits, seeds, safer defaults and the API for search over the hidden stock (issue 47)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import foursquare.rl as R
from foursquare.cards import Card, deal_stock
from foursquare.engine import Game
from foursquare.rl.env import SnapshotError


def _deals_of_env(env: R.FoursquareEnv, seed: int, count: int) -> list[int]:
    deals = [int(env.reset(seed=seed)[1]["deal"])]
    deals += [int(env.reset()[1]["deal"]) for _ in range(count - 1)]
    return deals


def _play_out(env: R.FoursquareEnv) -> dict[str, object]:
    """Play the first legal cell until the end; the last step's info."""
    terminated, info = False, {}
    while not terminated:
        _, _, terminated, _, info = env.step(int(env.action_masks().argmax()))
    return info


@pytest.mark.parametrize("split", [None, "train", "test"])
def test_seeds_deal_the_same_in_both_environments(split: str | None) -> None:
    """Environment i of a vector environment seeded s deals what a plain one seeded s + i deals, autoresets
    included: each game's deals come from its own generator."""
    n, episodes = 3, 4
    envs = R.FoursquareVectorEnv(n, split=split, expose_deal=True)
    _, info = envs.reset(seed=100)
    seen: list[list[int]] = [[int(d)] for d in info["deal"]]
    pending = np.zeros(n, dtype=bool)
    while min(map(len, seen)) < episodes:
        _, _, terminated, _, info = envs.step(info["action_mask"].argmax(axis=1))
        for i in np.flatnonzero(pending):  # ended at the step before: this step dealt its next deal
            seen[i].append(int(info["deal"][i]))
        pending = terminated
    single = R.FoursquareEnv(split=split, expose_deal=True)
    for i in range(n):
        assert seen[i][:episodes] == _deals_of_env(single, 100 + i, episodes)
    assert _deals_of_env(single, 7, 3) == _deals_of_env(R.FoursquareEnv(split=split, expose_deal=True), 7, 3)


def test_the_splits_deal_only_their_own_deals() -> None:
    test = R.FoursquareVectorEnv(256, split="test", expose_deal=True)
    train = R.FoursquareVectorEnv(256, split="train", expose_deal=True)
    test_deals = test.reset(seed=1)[1]["deal"]
    train_deals = train.reset(seed=1)[1]["deal"]
    assert ((test_deals >= 1) & (test_deals <= 20_000)).all() and len(set(test_deals.tolist())) > 200
    assert not ((train_deals >= 1) & (train_deals <= 20_000)).any()
    assert range(1, 20_001) == R.TEST_DEALS


def test_a_deal_outside_the_split_is_refused() -> None:
    train = R.FoursquareEnv(split="train")
    with pytest.raises(R.SplitError, match=r"deal 17 is not in the train split \(every deal but 1 to 20000\)"):
        train.reset(options={"deal": 17})
    train.reset(options={"deal": 20_001})
    with pytest.raises(R.SplitError, match="plays no deal of the train split"):
        train.reset(options={"stock": [str(c) for c in deal_stock(1)]})
    test = R.FoursquareEnv(split="test")
    with pytest.raises(R.SplitError, match="deal 0 is not in the test split"):
        test.reset(options={"deal": 0})
    with pytest.raises(R.SplitError, match="deal 20001 is not in the test split"):
        R.FoursquareVectorEnv(2, split="test").reset(options={"deals": [1, 20_001]})
    with pytest.raises(R.SettingsError, match="split must be None, 'train' or 'test', not 'dev'"):
        R.FoursquareEnv(split="dev")
    assert issubclass(R.SplitError, ValueError)


def test_the_deal_is_hidden_unless_exposed() -> None:
    env = R.FoursquareEnv()
    _, info = env.reset(seed=0)
    assert set(info) == {"action_mask"}
    _, _, _, _, info = env.step(24)
    assert "deal" not in info
    envs = R.FoursquareVectorEnv(2)
    _, info = envs.reset(seed=0)
    assert set(info) == {"action_mask", "_action_mask"}
    assert int(R.FoursquareEnv(expose_deal=True).reset(options={"deal": 5})[1]["deal"]) == 5


def test_the_last_step_reports_won_and_score() -> None:
    env = R.FoursquareEnv()
    for deal in range(1, 60):
        env.reset(options={"deal": deal})
        info = _play_out(env)
        outcome = env.game().outcome()
        assert (info["won"], info["score"]) == (outcome.status == "won", outcome.score or 0)
    env.reset(options={"deal": 1})
    _, _, _, _, info = env.step(0)  # illegal: the episode ends, the game is neither won nor scored
    assert (info["won"], info["score"]) == (False, 0)


def test_the_vector_environment_reports_the_ended_games() -> None:
    envs = R.FoursquareVectorEnv(64)
    _, info = envs.reset(seed=3)
    wins = ends = 0
    for _ in range(200):
        _, rewards, terminated, _, info = envs.step(envs.rollout_actions())
        if terminated.any():
            assert np.array_equal(info["_won"], terminated) and np.array_equal(info["_score"], terminated)
            assert np.array_equal(info["score"][terminated], rewards[terminated])  # reward="score"
            assert (info["score"][terminated & ~info["won"]] == 0).all()  # a loss scores 0 (a win may too)
            wins += int(info["won"].sum())
            ends += int(terminated.sum())
        else:
            assert "won" not in info
    assert ends > 100 and 0 < wins < ends


def test_a_shaped_loss_can_pay_on_its_last_step() -> None:
    """With shaping, the losing step gives back the potential: with four face-down cards it pays +4."""
    env = R.FoursquareEnv(shaping=1.0)
    for deal in range(1, 200):
        env.reset(options={"deal": deal})
        terminated, reward, info = False, 0.0, {}
        while not terminated:
            _, reward_, terminated, _, info = env.step(int(env.action_masks().argmax()))
            reward = float(reward_)
        if not info["won"] and reward > 0:
            assert reward == 4.0 and info["score"] == 0
            return
    pytest.fail("no shaped loss paid on its last step")


def test_a_sampled_stock_agrees_with_what_was_seen() -> None:
    env = R.FoursquareEnv()
    env.reset(options={"deal": 9})
    for _ in range(6):
        env.step(int(env.action_masks().argmax()))
    real = env.game().stock
    seen = env.game().turn + 1  # the cards laid and the card to place
    stocks = [env.sample_stock(k) for k in range(20)]
    for stock in stocks:
        assert stock[:seen] == real[:seen] and Counter(stock[seen:]) == Counter(real[seen:])
        assert sorted(stock) == list(range(40)) and all(isinstance(c, Card) for c in stock)
    assert len({s[seen:] for s in stocks}) == 20  # really shuffled
    assert env.sample_stock(3) == env.sample_stock(np.random.default_rng(3))


def test_clone_and_restore_round_trip_and_change_the_stock() -> None:
    env = R.FoursquareEnv(render_mode="ansi")
    env.reset(options={"deal": 4})
    env.step(24)
    root = env.clone()
    picture = env.render()
    _play_out(env)
    env.restore(root)
    assert np.array_equal(env.step(int(env.action_masks().argmax()))[0], _after_first_legal(4))
    env.restore(root)
    assert env.render() == picture and env.game().turn == 1
    stock = env.sample_stock(1)
    env.restore(root, stock)
    assert env.game().stock == stock and env.game().deal is None
    info = _play_out(env)
    game = Game(stock=list(stock))
    game.place(0, 0)
    while not game.is_over():
        move = min(game.legal_moves, key=R.action_of_move)
        game.place(move.row, move.col)
    assert info["score"] == (game.outcome().score or 0)
    with pytest.raises(SnapshotError, match="first 2 cards"):
        env.restore(root, deal_stock(5))
    with pytest.raises(SnapshotError, match="same options"):
        R.FoursquareEnv(shaping=1.0).restore(root)
    env.restore(root)
    assert env.game().deal == 4


def _after_first_legal(deal: int) -> np.ndarray:
    env = R.FoursquareEnv()
    env.reset(options={"deal": deal})
    env.step(24)
    return env.step(int(env.action_masks().argmax()))[0]


def test_reset_with_a_stock_plays_that_stock() -> None:
    stock = list(reversed(deal_stock(3)))
    env = R.FoursquareEnv()
    obs, info = env.reset(options={"stock": [c.name for c in stock]})
    game = Game(stock=stock)
    assert np.array_equal(obs, R.observe_view(game.view())) and env.game().stock == tuple(stock)
    while not game.is_over():
        move = min(game.legal_moves, key=R.action_of_move)
        obs, _, _, _, info = env.step(R.action_of_move(move))
        game.place(move.row, move.col)
        assert np.array_equal(obs, R.observe_view(game.view()))
    assert info["score"] == (game.outcome().score or 0)
    env.reset(options={"stock": np.array(stock, dtype=np.int8)})
    with pytest.raises(ValueError, match="duplicate card"):
        env.reset(options={"stock": ["AS"] * 40})
    with pytest.raises(ValueError, match="at most one of 'deal' and 'stock'"):
        env.reset(options={"stock": stock, "deal": 1})


def test_expert_actions_is_the_former_name_of_rollout_actions() -> None:
    envs = R.FoursquareVectorEnv(2)
    envs.reset(options={"deals": [1, 2]})
    with pytest.warns(DeprecationWarning, match=r"expert_actions\(\) is now rollout_actions\(\)"):
        actions = envs.expert_actions()
    assert np.array_equal(actions, envs.rollout_actions())


def test_the_vector_environment_resets_to_given_stocks() -> None:
    stocks = [list(reversed(deal_stock(3))), list(deal_stock(8))]
    envs = R.FoursquareVectorEnv(2, expose_deal=True)
    obs, info = envs.reset(options={"stocks": [[c.name for c in s] for s in stocks]})
    assert info["deal"].tolist() == [0, 0]
    singles = [R.FoursquareEnv() for _ in stocks]
    for single, stock, row in zip(singles, stocks, obs, strict=True):
        assert np.array_equal(single.reset(options={"stock": stock})[0], row)
    for _ in range(6):  # both play the first legal cell: the same games
        actions = envs.action_masks().argmax(axis=1)
        obs, _, terminated, _, _ = envs.step(actions)
        for single, action, row in zip(singles, actions, obs, strict=True):
            assert np.array_equal(single.step(int(action))[0], row)
        assert not terminated.any()
    with pytest.raises(ValueError, match="must list 2 stocks"):
        envs.reset(options={"stocks": stocks[:1]})
    with pytest.raises(ValueError, match="at most one of 'deals' and 'stocks'"):
        envs.reset(options={"stocks": stocks, "deals": [1, 2]})
    with pytest.raises(R.SplitError, match="plays no deal of the test split"):
        R.FoursquareVectorEnv(2, split="test").reset(options={"stocks": stocks})
