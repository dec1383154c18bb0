"""The reinforcement-learning environments: Gymnasium's checks, and every step against the engine."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import foursquare.rl as R
from foursquare.cards import CardError
from foursquare.engine import Game, Move, Variant, VariantError
from foursquare.grid_text import grid_text
from foursquare.kernel import vector as V
from kernel_helpers import VARIANT_IDS, VARIANTS

ROOT = Path(__file__).resolve().parent.parent


def _kwargs(variant: Variant) -> dict[str, Any]:
    return {"adjacency": variant.adjacency, "count_buried": variant.count_buried}


def _expected_observation(game: Game) -> np.ndarray:
    """The observation read straight from the engine, entry by entry as docs/rl.md describes it."""
    obs = np.zeros(R.OBS_SIZE, dtype=np.int8)
    for cell in game.cells():
        a = R.action_of_move(Move(cell.row, cell.col))
        obs[V.OBS_OCCUPIED + a] = 1
        obs[V.OBS_RANK + a] = cell.top.rank
        obs[V.OBS_FACE_UP + a] = cell.top_face_up
        obs[V.OBS_HEIGHT + a] = cell.height
        obs[V.OBS_BURIED + a] = cell.buried_face_down
    view = game.view()
    obs[V.OBS_CARD] = view.card.rank if view.card is not None else 0
    for rank, n in Counter(c.rank for c in view.unseen).items():
        obs[V.OBS_UNSEEN + rank - 1] = n
    obs[V.OBS_STOCK] = game.stock_left
    obs[V.OBS_FACE_DOWN] = game.face_down
    obs[V.OBS_DIAGONAL] = game.variant.adjacency == "diagonal"
    obs[V.OBS_COUNT_BURIED] = game.variant.count_buried
    return obs


def _expected_mask(game: Game) -> np.ndarray:
    mask = np.zeros(R.ACTIONS, dtype=np.int8)
    for move in game.legal_moves:
        mask[R.action_of_move(move)] = 1
    return mask


def _assert_same(game: Game, obs: np.ndarray, mask: np.ndarray, where: str) -> None:
    expected = _expected_observation(game)
    assert np.array_equal(obs, expected), f"{where}: observation differs at {np.flatnonzero(obs != expected)}"
    assert np.array_equal(mask, _expected_mask(game)), f"{where}: action mask differs"


# --- actions and spaces --------------------------------------------------------------------------------


def test_actions_are_the_cells_named_as_in_the_game() -> None:
    assert [R.action_name(a) for a in (0, 3, 6, 7, 24, 48)] == ["A1", "D1", "G1", "A2", "D4", "G7"]
    for a in range(R.ACTIONS):
        assert R.action_of_move(Move.from_name(R.action_name(a))) == a
        assert a == 7 * (int(R.action_name(a)[1]) - 1) + "ABCDEFG".index(R.action_name(a)[0])


def test_bad_actions_are_explained() -> None:
    with pytest.raises(R.ActionError, match="from 0 to 48"):
        R.move_of_action(49)
    with pytest.raises(R.ActionError, match="outside the 7 × 7 area"):
        R.action_of_move(Move(4, 0))


def test_registered_under_both_ids_and_checked_by_gymnasium() -> None:
    env = gymnasium.make("foursquare/Foursquare-v0")
    assert isinstance(env.unwrapped, R.FoursquareEnv)
    assert isinstance(gymnasium.make("foursquare.rl:Foursquare-v0").unwrapped, R.FoursquareEnv)
    # check_env samples actions without the mask: the defaults end the episode on an illegal action
    check_env(gymnasium.make("foursquare/Foursquare-v0").unwrapped)
    for variant in VARIANTS:
        check_env(R.FoursquareEnv(**_kwargs(variant)), skip_render_check=True)
    for mode in ("ansi", "rgb_array"):
        check_env(gymnasium.make("foursquare/Foursquare-v0", render_mode=mode).unwrapped)


def test_make_vec_uses_the_compiled_vector_environment() -> None:
    envs = gymnasium.make_vec("foursquare/Foursquare-v0", num_envs=3, vectorization_mode="vector_entry_point")
    assert isinstance(envs.unwrapped, R.FoursquareVectorEnv)
    obs, info = envs.reset(seed=1)
    assert obs.shape == (3, R.OBS_SIZE) and info["action_mask"].shape == (3, R.ACTIONS)
    assert envs.observation_space.contains(obs)


# --- the plain environment ------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS, ids=VARIANT_IDS)
def test_random_episodes_agree_with_the_engine(variant: Variant) -> None:
    """Masked random episodes: every step's observation, mask, reward and ending equal the engine's replay."""
    env = R.FoursquareEnv(**_kwargs(variant), expose_deal=True)
    rng = np.random.default_rng(7)
    endings: set[tuple[str, int]] = set()
    for episode in range(60):
        obs, info = env.reset(seed=episode)
        game = Game(deal=int(info["deal"]), variant=variant)
        _assert_same(game, obs, info["action_mask"], f"deal {game.deal} start")
        assert np.array_equal(env.action_masks(), info["action_mask"])
        terminated = False
        while not terminated:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, terminated, truncated, info = env.step(action)
            move = R.move_of_action(action)
            game.place(move.row, move.col)
            _assert_same(game, obs, info["action_mask"], f"deal {game.deal} after {move.name}")
            assert terminated == game.is_over() and not truncated
            assert reward == (game.outcome().score or 0 if terminated else 0)
            assert env.observation_space.contains(obs)
        endings.add((game.outcome().status, game.turn))
        assert env.game().view() == game.view()
    # Random play loses, at many turns: the ending's zero reward is checked at each (a win's reward is checked by
    # the greedy episodes below).
    losses = {turn for status, turn in endings if status == "lost"}
    assert len(losses) >= 5, endings


def test_greedy_episodes_score_like_the_engine() -> None:
    """Greedy play wins some deals, so the reward of a win (the cards left) is checked too."""
    from foursquare.players import greedy_move

    env = R.FoursquareEnv()
    won = 0
    for deal in range(1, 41):
        env.reset(options={"deal": deal})
        game = Game(deal=deal)
        terminated, reward = False, 0.0
        while not terminated:
            move = greedy_move(game.view())
            _, reward, terminated, _, _ = env.step(R.action_of_move(move))
            game.place(move.row, move.col)
        assert reward == (game.outcome().score or 0)
        won += reward > 0
    assert won > 0


def test_observation_hides_the_stock_order() -> None:
    """Two deals that differ only in the order of the cards not yet seen look the same."""
    game = Game(deal=5)
    for _ in range(6):
        move = game.legal_moves[0]
        game.place(move.row, move.col)
    stock = list(game.stock)
    shuffled = stock[: game.turn + 1] + stock[game.turn + 1 :][::-1]
    other = Game(stock=shuffled)
    for move in game.moves:
        other.place(move.row, move.col)
    assert np.array_equal(R.observe_view(game.view()), R.observe_view(other.view()))
    assert np.array_equal(R.observe_view(game.view()), _expected_observation(game))


def test_reset_picks_deals_from_the_seed_or_the_option() -> None:
    env = R.FoursquareEnv(expose_deal=True)
    _, first = env.reset(seed=3)
    _, again = env.reset(seed=3)
    assert first["deal"] == again["deal"]
    obs, info = env.reset(options={"deal": 42})
    assert info["deal"] == 42 and obs[V.OBS_CARD] == Game(deal=42).card_to_place.rank  # type: ignore[union-attr]
    with pytest.raises(CardError, match="deal number"):
        env.reset(options={"deal": -1})
    with pytest.raises(ValueError, match="at most one of 'deal' and 'stock'"):
        env.reset(options={"deals": [1]})


def test_illegal_actions_lose_by_default_or_raise() -> None:
    default = R.FoursquareEnv()
    obs, _ = default.reset(options={"deal": 1})
    after, reward, terminated, _, info = default.step(0)
    assert terminated and reward == -1.0 and not info["action_mask"].any() and np.array_equal(after, obs)
    default.reset(options={"deal": 1})
    assert default.step(60)[1:3] == (-1.0, True)  # out of range too
    env = R.FoursquareEnv(illegal_action="raise")
    env.reset(options={"deal": 1})
    with pytest.raises(R.ActionError, match=r"action 0 \(A1\) is not a legal cell for the 3S; the legal cells are D4"):
        env.step(0)
    with pytest.raises(R.ActionError, match="from 0 to 48"):
        env.step(60)
    lose = R.FoursquareEnv(illegal_action="lose", illegal_reward=-2.0)
    obs, _ = lose.reset(options={"deal": 1})
    after, reward, terminated, _, info = lose.step(0)
    assert terminated and reward == -2.0 and not info["action_mask"].any()
    assert np.array_equal(after, obs)
    with pytest.raises(R.EpisodeOverError, match="call reset"):
        lose.step(24)


def test_bad_options_are_explained() -> None:
    with pytest.raises(VariantError, match="adjacency"):
        R.FoursquareEnv(adjacency="hex")  # type: ignore[arg-type]
    with pytest.raises(R.SettingsError, match="reward must be 'score' or 'win'"):
        R.FoursquareEnv(reward="points")
    with pytest.raises(R.SettingsError, match="illegal_action"):
        R.FoursquareEnv(illegal_action="ignore")
    with pytest.raises(R.SettingsError, match="shaping must be a finite number"):
        R.FoursquareEnv(shaping=float("nan"))
    with pytest.raises(ValueError, match="num_envs must be a positive integer"):
        R.FoursquareVectorEnv(0)


def test_win_reward_and_shaping() -> None:
    """``reward="win"`` pays 1 for a win; shaping pays the fall in face-down cards and sums to the same return."""
    plain, win, shaped = R.FoursquareEnv(), R.FoursquareEnv(reward="win"), R.FoursquareEnv(shaping=0.5)
    from foursquare.players import greedy_move

    for deal in range(1, 30):
        returns = []
        for env in (plain, win, shaped):
            env.reset(options={"deal": deal})
            game, total, terminated = Game(deal=deal), 0.0, False
            while not terminated:
                before = game.face_down
                move = greedy_move(game.view())
                _, reward, terminated, _, _ = env.step(R.action_of_move(move))
                game.place(move.row, move.col)
                if env is shaped and not terminated:
                    assert reward == pytest.approx(0.5 * (before - game.face_down))
                total += float(reward)
            returns.append(total)
        score = game.outcome().score or 0
        assert returns[0] == score and returns[1] == (1.0 if score else 0.0)
        assert returns[2] == pytest.approx(score)  # the potential starts and ends at 0


def test_ansi_render_is_the_terminal_grid_and_symbols() -> None:
    env = gymnasium.make("foursquare/Foursquare-v0", render_mode="ansi")
    env.reset(options={"deal": 1})
    text = env.render()
    assert text == "→ 3S   ▮ 40   ▼ 0/4\n"  # no grid before the first card
    env.step(24)
    game = Game(deal=1)
    game.place(0, 0)
    assert env.render() == grid_text(game) + "\n→ AH   ▮ 39   ▼ 0/4\n"
    assert R.FoursquareEnv().render() is None


def _rollout_episode(deal: int) -> tuple[list[int], float]:
    """The actions of the rollout policy's game of ``deal`` (``rollout_actions()``), and its return."""
    envs = R.FoursquareVectorEnv(1)
    envs.reset(options={"deals": [deal]})
    actions: list[int] = []
    terminated, reward = np.zeros(1, dtype=bool), np.zeros(1)
    while not terminated[0]:
        actions.append(int(envs.rollout_actions()[0]))
        _, reward, terminated, _, _ = envs.step(np.array(actions[-1:]))
    return actions, float(reward[0])


def test_ansi_render_shows_the_end() -> None:
    deal, actions = next((d, a) for d in range(1, 50) for a, ret in [_rollout_episode(d)] if ret > 0)
    won = R.FoursquareEnv(render_mode="ansi")
    won.reset(options={"deal": deal})
    for action in actions:
        won.step(action)
    score = won.game().outcome().score
    assert won.render().splitlines()[-1] == f"✓ {score}   ▮ {score}   ▼ 0/4"
    lost = R.FoursquareEnv(render_mode="ansi", illegal_action="lose")
    lost.reset(options={"deal": 1})
    lost.step(0)  # A1: not next to a card
    assert lost.render() == "✗   ▮ 40   ▼ 0/4\n"


# --- the vector environment -----------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS, ids=VARIANT_IDS)
def test_vector_environment_agrees_with_the_engine(variant: Variant) -> None:
    """N games stepped together, with next-step autoreset on drawn deals, each replayed by the engine."""
    n = 16
    envs = R.FoursquareVectorEnv(n, **_kwargs(variant), expose_deal=True)
    obs, info = envs.reset(seed=11)
    games = [Game(deal=int(d), variant=variant) for d in info["deal"]]
    rng = np.random.default_rng(3)
    pending = np.zeros(n, dtype=bool)
    episodes = 0
    for step in range(150):
        masks = info["action_mask"]
        assert np.array_equal(envs.action_masks(), masks)
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert not truncated.any()
        for i in range(n):
            if pending[i]:  # the previous step ended this game: this one started a new deal
                assert rewards[i] == 0 and not terminated[i]
                games[i] = Game(deal=int(info["deal"][i]), variant=variant)
                episodes += 1
            else:
                move = R.move_of_action(int(actions[i]))
                games[i].place(move.row, move.col)
                assert terminated[i] == games[i].is_over()
                assert rewards[i] == (games[i].outcome().score or 0 if terminated[i] else 0)
            _assert_same(games[i], obs[i], info["action_mask"][i], f"env {i} step {step}")
        pending = terminated
    assert episodes > n


def test_vector_reset_deals_seeds_and_illegal_actions() -> None:
    envs = R.FoursquareVectorEnv(3, illegal_action="raise", expose_deal=True)
    obs, info = envs.reset(options={"deals": [1, 2, 3]})
    assert list(info["deal"]) == [1, 2, 3]
    for i, deal in enumerate((1, 2, 3)):
        assert np.array_equal(obs[i], _expected_observation(Game(deal=deal)))
    _, a = envs.reset(seed=5)
    _, b = envs.reset(seed=5)
    assert np.array_equal(a["deal"], b["deal"])
    with pytest.raises(R.ActionError, match=r"environment 1: action 0 \(A1\) is not a legal cell now"):
        envs.step(np.array([24, 0, 24]))
    # nothing moved: the same actions are still the legal ones
    _, _, terminated, _, _ = envs.step(np.array([24, 24, 24]))
    assert not terminated.any()
    with pytest.raises(R.ActionError, match="3 integers"):
        envs.step(np.array([24, 24]))
    with pytest.raises(ValueError, match="3 deal numbers"):
        envs.reset(options={"deals": [1]})
    lose = R.FoursquareVectorEnv(2)  # the default
    lose.reset(options={"deals": [1, 2]})
    _, rewards, terminated, _, info = lose.step(np.array([0, 24]))
    assert list(terminated) == [True, False] and rewards[0] == -1.0
    assert not info["action_mask"][0].any()


# --- the baseline example -------------------------------------------------------------------------------


def _example() -> Any:
    """examples/train_maskable_ppo.py as a module (it needs sb3-contrib and torch)."""
    pytest.importorskip("sb3_contrib")
    import importlib.util

    spec = importlib.util.spec_from_file_location("train_maskable_ppo", ROOT / "examples" / "train_maskable_ppo.py")
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    return example


@pytest.mark.slow  # the example imports torch: seconds
@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--minutes", "-1"], "--minutes: must be a number above 0"),
        (["--minutes", "5", "--clone-minutes", "6"], "must not exceed --minutes"),
        (["--clone-updates", "0"], "--clone-updates: must be a whole number above 0"),
        (["--envs", "0"], "--envs: must be a whole number above 0"),
        (["--eval-deals", "9-2"], "--eval-deals: invalid"),
        (["--ent-coef", "-0.1"], "--ent-coef: must not be negative"),
        (["--load", "/nonexistent/model.zip"], "--load: no such file"),
    ],
)
def test_the_example_explains_bad_options(argv: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        _example().parse_args(argv)
    assert exit_.value.code == 2 and says in capsys.readouterr().err


class _RacingClock:
    """A ``time.monotonic`` that jumps an hour at every call: the machine as slow as can be. Training with counts
    for budgets must not notice it."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 3600.0
        return self.now


def _clone_once(example: Any) -> tuple[float, float, Any]:
    """Clone the rollout policy for a fixed 150 batches of 64 on 40 steps of 64 games: the loss before and after."""
    import torch

    torch.manual_seed(0)
    policy = example.make_model(example.MaskableVecEnv(2, seed=0), example.parse_args(["--envs", "2"])).policy
    envs = R.FoursquareVectorEnv(64)
    obs, _ = envs.reset(seed=3)
    (states, masks, actions), _, games = example.collect(envs, obs, 64 * 40, lambda o, m: envs.rollout_actions())
    assert games["games"] > 0 and masks[np.arange(len(actions)), actions].all()  # the rollout policy plays legal moves
    demos = example.Demos()
    demos.add(states, masks, actions)

    def loss() -> float:
        x, m = torch.as_tensor(example.scale(demos.obs)), torch.as_tensor(demos.mask)
        with torch.no_grad():
            return float(torch.nn.functional.cross_entropy(example.logits(policy, x, m), torch.as_tensor(actions)))

    before = loss()
    example.fit_actor(policy, demos, updates=150, lr=1e-3, batch=64)
    return before, loss(), policy


@pytest.mark.slow  # torch and the networks take seconds to load
def test_cloning_the_rollout_policy_lowers_the_loss_and_plays_legal_moves() -> None:
    """A fixed number of cloning updates (not seconds: the same on any machine) cuts the cross-entropy of the
    rollout policy's moves by 30 %; the clone plays legal moves."""
    import torch

    example = _example()
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # the same sums in the same order on any machine
    try:
        before, after, policy = _clone_once(example)
    finally:
        torch.set_num_threads(threads)
    assert after < 0.7 * before
    summary = example.evaluate(policy, "clone", example.parse_args(["--eval-deals", "1-3"]))
    assert summary["games"] == 3  # an illegal move would have raised


@pytest.mark.slow
def test_training_example_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The example clones, fits the critic, runs PPO 256 steps, saves, and evaluates on a few deals; its budgets
    are counts, so the same seed trains the same model on a slow machine as on a fast one."""
    import json

    example = _example()
    model_path = tmp_path / "model.zip"
    # Every phase runs on small counts (2026-12-07: 1,024 demos from 64 environments, 10 cloning batches, 2,048
    # critic states, where 8,192 from 256, 40 and 20,000 proved the same at 11.8 s of CPU, now 10.0: torch's load
    # is the rest): two rounds of cloning (the rollout policy's, then the clone's own), the critic, PPO, the save.
    argv = ["--demos", "1024", "--dagger", "1", "--clone-updates", "10", "--clone-envs", "64",
            "--critic-states", "2048", "--critic-updates", "5", "--steps", "256", "--envs", "8", "--n-steps", "32",
            "--eval-deals", "1-3", "--quiet", "--json"]  # fmt: skip
    assert example.main([*argv, "--eval-clone", "--save", str(model_path)]) == 0 and model_path.exists()
    clone, trained = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert clone["player"] == "maskable-ppo-clone" and trained["games"] == 3 and trained["timesteps"] == 256
    assert example.main(["--load", str(model_path), "--eval-deals", "1-3", "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert (again["wins"], again["mean_score"]) == (trained["wins"], trained["mean_score"])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(example.time, "monotonic", _RacingClock())
        assert example.main(argv) == 0
    raced = json.loads(capsys.readouterr().out)
    assert (raced["wins"], raced["mean_score"], raced["timesteps"]) == (trained["wins"], trained["mean_score"], 256)


def test_a_policy_plays_engine_games_through_views() -> None:
    """PolicyPlayer gives a policy the environments' observation and mask of each view; an illegal answer is named."""
    from foursquare.players import greedy_move, results_summary
    from foursquare.rl.players import PolicyPlayer, play_policy

    seen: list[np.ndarray] = []

    def first_legal(obs: np.ndarray, mask: np.ndarray) -> int:
        seen.append(obs)
        return int(mask.argmax())

    results = play_policy(first_legal, range(1, 4))
    assert [r.deal for r in results] == [1, 2, 3] and results_summary("first", results)["games"] == 3
    assert np.array_equal(seen[0], _expected_observation(Game(deal=1)))
    game = Game(deal=9)
    greedy = PolicyPlayer(lambda obs, mask: R.action_of_move(greedy_move(game.view())))
    assert greedy.choose(game.view()) == greedy_move(game.view())
    with pytest.raises(R.ActionError, match=r"action 0 \(A1\), not a legal cell now"):
        PolicyPlayer(lambda obs, mask: 0).choose(game.view())
