"""foursquare.rl.dataset and ``foursquare rl dataset``: offline datasets that Minari loads, of training deals only."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("minari")

import minari

from foursquare.engine import Game
from foursquare.rl import FoursquareEnv, mask_of_view, move_of_action
from foursquare.rl.dataset import DatasetError, check_train_deals, episodes, expert_episodes, write_dataset

TRAIN = [20_001, 20_002, 20_003]


def replay(episode: minari.EpisodeData, deal: int) -> None:
    """The episode's observations, masks, rewards and ending are the environment's for its actions."""
    env = FoursquareEnv()
    obs, info = env.reset(options={"deal": deal})
    assert np.array_equal(episode.observations[0], obs)
    for t, action in enumerate(episode.actions):
        assert info["action_mask"][action] == 1
        obs, reward, terminated, truncated, info = env.step(np.int64(action))
        assert np.array_equal(episode.observations[t + 1], obs)
        assert np.array_equal(episode.infos["action_mask"][t + 1], info["action_mask"])
        assert episode.rewards[t] == reward and episode.terminations[t] == terminated and not truncated
    assert terminated


def test_solver_lines_load_with_minari_and_replay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_dataset("foursquare/solver-v0", episodes("solver", TRAIN), tmp_path, source="solver")
    assert path == tmp_path / "foursquare" / "solver-v0" and not list(tmp_path.glob(".minari-*"))
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(tmp_path))
    data = minari.load_dataset("foursquare/solver-v0")
    assert data.total_episodes == 3 and data.storage.metadata["algorithm_name"] == "solver"
    assert data.spec.env_spec.id == "foursquare/Foursquare-v0"
    assert "foursquare/solver-v0" in minari.list_local_datasets()
    for episode, deal in zip(data.iterate_episodes(), TRAIN, strict=True):
        (metadata,) = data.storage.get_episode_metadata([episode.id])
        assert metadata["options"] == {"deal": deal}
        replay(episode, deal)
        assert episode.rewards.sum() > 0  # every line is a win
    env = data.recover_environment()
    assert env.spec.id == "foursquare/Foursquare-v0"
    with pytest.raises(DatasetError, match="never overwritten"):
        write_dataset("foursquare/solver-v0", episodes("solver", TRAIN[:1]), tmp_path, source="solver")


@pytest.mark.slow  # the expert plays whole games
def test_expert_games_see_only_the_view(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (game,) = expert_episodes([20_004])
    board = Game(deal=20_004)
    for action, mask in zip(game.actions, game.masks, strict=False):
        assert np.array_equal(mask, mask_of_view(board.view()))
        board.place(*move_of_action(int(action)))
    assert board.is_over() and game.rewards.sum() == (board.outcome().score or 0)
    write_dataset("foursquare/expert-v0", [game], tmp_path, source="expert")
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(tmp_path))
    (episode,) = minari.load_dataset("foursquare/expert-v0").iterate_episodes()
    replay(episode, 20_004)


def test_test_deals_are_refused() -> None:
    for deals in ([1], [20_000, 20_001], [0], []):
        with pytest.raises(DatasetError):
            check_train_deals(deals)
    with pytest.raises(DatasetError, match="unknown source"):
        episodes("random", TRAIN)


def run(*args: str, root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MINARI_DATASETS_PATH": str(root / "elsewhere")}
    return subprocess.run([sys.executable, "-m", "foursquare", "rl", "dataset", *args], capture_output=True,
                          text=True, timeout=600, env=env)  # fmt: skip


@pytest.mark.slow  # whole datasets, written and loaded
def test_the_command_writes_a_dataset_minari_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    done = run("--source", "solver", "--deals", "20001-20002", "--root", str(tmp_path), "--json", root=tmp_path)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["episodes"] == 2 and report["deals"] == [20_001, 20_002] and report["wins"] == 2
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(tmp_path))
    assert minari.load_dataset("foursquare/solver-v0").total_steps == report["steps"]
    text = run("--source", "solver", "--deals", "20003", "--id", "mine/lines-v1", "--root", str(tmp_path),
               root=tmp_path)  # fmt: skip
    assert text.returncode == 0 and "mine/lines-v1" in text.stdout and "1 game," in text.stdout
    assert (tmp_path / "mine" / "lines-v1").is_dir()
    # without --root: MINARI_DATASETS_PATH, as Minari itself reads it
    assert run("--source", "solver", "--deals", "20003", root=tmp_path).returncode == 0
    assert (tmp_path / "elsewhere" / "foursquare" / "solver-v0").is_dir()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--source", "solver", "--deals", "19999-20001"), "training deals only"),
        (("--source", "solver", "--deals", "20001", "--id", "no version"), "is not a dataset name"),
        (("--source", "solver", "--deals", "20001", "--id", "taken/lines-v0"), "already exists"),
        (("--source", "oracle", "--deals", "20001"), "invalid choice"),
    ],
)
def test_the_command_refuses_bad_requests_in_one_line(args: tuple[str, ...], words: str, tmp_path: Path) -> None:
    (tmp_path / "taken" / "lines-v0").mkdir(parents=True)
    result = run(*args, "--root", str(tmp_path), root=tmp_path)
    assert result.returncode == 2 and words in result.stderr and "Traceback" not in result.stderr
    assert result.stdout == ""
