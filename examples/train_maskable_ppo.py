"""Train MaskablePPO (sb3-contrib) on Foursquare and measure it on numbered deals, as ``autoplay`` measures.

    pip install 'foursquare-solitaire[rl]'     # or: make test (installs the CPU build of torch first)
    python examples/train_maskable_ppo.py --minutes 25 --save ppo.zip --eval-deals 1-1000
    python examples/train_maskable_ppo.py --load ppo.zip --eval-deals 1-1000 --json

The agent sees the environments' observation scaled to 0..1 (``ScaledObservation``) and chooses among the
legal cells only (the action mask). Evaluation plays each deal through the engine with a
:class:`foursquare.rl.players.PolicyPlayer`, so its win rate, Wilson interval and mean score are those of
``foursquare autoplay --deals A-B --json``. docs/rl.md reports a run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.env_util import make_vec_env

import foursquare.rl as R
from foursquare.kernel import vector as V
from foursquare.players import results_summary
from foursquare.rl.players import play_policy

HIGH = V.OBS_HIGH.astype(np.float32)


class ScaledObservation(gym.ObservationWrapper[np.ndarray, np.int64, np.ndarray]):
    """The observation as ``float32`` in 0..1: each entry over its upper bound."""

    def __init__(self, env: gym.Env[np.ndarray, np.int64]) -> None:
        super().__init__(env)
        self.observation_space = gym.spaces.Box(0.0, 1.0, shape=HIGH.shape, dtype=np.float32)

    def observation(self, observation: np.ndarray) -> np.ndarray:
        return observation.astype(np.float32) / HIGH


class TimeLimit(BaseCallback):
    """Stop training after a wall-clock budget."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.deadline = time.monotonic() + seconds

    def _on_step(self) -> bool:
        return time.monotonic() < self.deadline


def deal_range(text: str) -> range:
    lo, _, hi = text.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=10_000_000, help="environment steps at most (default: until --minutes)")
    p.add_argument("--minutes", type=float, default=30.0, help="wall-clock training budget (default 30)")
    p.add_argument("--envs", type=int, default=8, help="environments per rollout")
    p.add_argument("--n-steps", type=int, default=256, help="rollout length per environment")
    p.add_argument("--shaping", type=float, default=1.0, help="potential-based shaping on face-down cards")
    p.add_argument("--lr", type=float, default=3e-4, help="learning rate")
    p.add_argument("--ent-coef", type=float, default=0.01, help="entropy bonus")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=1, help="torch threads (the machine is shared)")
    p.add_argument("--save", help="write the trained model here (.zip)")
    p.add_argument("--load", help="evaluate this model instead of training one")
    p.add_argument("--eval-deals", type=deal_range, default=range(1, 1001), metavar="A-B")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    return p.parse_args(argv)


def train(args: argparse.Namespace) -> MaskablePPO:
    envs = make_vec_env(
        lambda: ScaledObservation(R.FoursquareEnv(shaping=args.shaping)), n_envs=args.envs, seed=args.seed
    )
    model = MaskablePPO(
        "MlpPolicy",
        envs,
        n_steps=args.n_steps,
        batch_size=min(512, args.n_steps * args.envs),
        learning_rate=args.lr,
        gamma=1.0,
        gae_lambda=0.95,
        ent_coef=args.ent_coef,
        policy_kwargs={"net_arch": [256, 256]},
        seed=args.seed,
        verbose=0,
    )
    model.learn(total_timesteps=args.steps, callback=TimeLimit(args.minutes * 60))
    return model


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    torch.set_num_threads(args.threads)
    start = time.monotonic()
    model = MaskablePPO.load(args.load) if args.load else train(args)
    trained_seconds = time.monotonic() - start
    if args.save and not args.load:
        model.save(args.save)

    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(obs.astype(np.float32) / HIGH, action_masks=mask.astype(bool), deterministic=True)
        return int(action)

    summary: dict[str, Any] = results_summary("maskable-ppo", play_policy(policy, args.eval_deals))
    summary["timesteps"] = int(model.num_timesteps)
    summary["train_seconds"] = round(trained_seconds, 1)
    if args.json:
        print(json.dumps(summary))
    else:
        lo, hi = summary["ci95"]
        print(
            f"maskable-ppo after {summary['timesteps']} steps ({trained_seconds / 60:.1f} min): "
            f"{summary['wins']}/{summary['games']} won ({summary['win_rate']:.1%}, 95% CI {lo:.1%}-{hi:.1%}), "
            f"mean score {summary['mean_score']:.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
