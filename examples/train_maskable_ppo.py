"""Train MaskablePPO (sb3-contrib) on Foursquare, starting from a clone of the rollout policy, and measure it on deals.

    pip install 'foursquare-solitaire[baseline]'   # or: make test (installs the CPU build of torch first)
    taskset -c 1 python examples/train_maskable_ppo.py --save ppo.zip --eval-deals 1-1000 --json
    python examples/train_maskable_ppo.py --load ppo.zip --eval-deals 1-1000 --json

PPO from scratch learns nothing here: random play never wins, so the reward (the score of a win) never
comes. So training runs in three phases, each with a budget of counts (states, updates, steps), so that a
seed gives the same model on a slow machine as on a fast one; ``--minutes`` and ``--clone-minutes``
optionally stop the whole training and the cloning earlier by the wall clock (then a run is not
reproducible: a busier machine does less in the same minutes):

1. **Cloning** (``--clone-updates``): ``FoursquareVectorEnv.rollout_actions()`` gives the action of the
   ``best`` player's rollout policy (it sees only what a player sees and wins about 83 % of deals) in every
   environment. The actor is trained on those demonstrations by cross-entropy over the legal cells, first on
   the rollout policy's own games, then DAgger-style on the games the clone plays itself, still labelled by the
   rollout policy, so that it learns to recover from its own mistakes.
2. **Critic**: the value network is fitted to the returns of the clone's own (sampled) games, so that
   PPO's first updates do not follow the advantages of a random critic.
3. **PPO** (``--steps``): MaskablePPO fine-tunes both with a small learning rate and clip range on the
   score reward, on ``FoursquareVectorEnv`` through :class:`foursquare.rl.sb3.MaskableVecEnv`, the package's
   adapter to Stable-Baselines3's ``VecEnv``.

The network (``--net lines``, the default) sees the board as the rules do: each cell's pile, the card to
place and the counts, plus sums over the cell's row and column, in two layers (``LineFeatures``);
``--net mlp`` is a plain MLP of 256 × 256. Observations are scaled to 0..1 (``scale``). Evaluation plays
each deal through the engine with :func:`foursquare.rl.players.play_policy`, so its win rate, Wilson
interval and mean score are those of ``foursquare autoplay --deals A-B --json``; ``--eval-clone`` also
measures the clone before PPO. docs/rl.md reports the runs.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch
import torch.nn.functional as F
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

import foursquare.rl as R
from foursquare.kernel import vector as V
from foursquare.players import results_summary
from foursquare.rl.players import play_policy
from foursquare.rl.sb3 import MaskableVecEnv, scale

CLONE_UPDATES = 40_000  # cloning's batches of 256 over all rounds: about 30 ms each on a busy core, so 20 minutes or so
PPO_STEPS = 80 * 256 * 32  # 80 rollouts of 32 steps in 256 games: the 640,000 steps of run 1 in docs/rl.md
SIDE = 7  # the 7 × 7 cells of the actions
RANKS = 10


# --- the network -------------------------------------------------------------------------------------------


class LineLayer(nn.Module):
    """Each cell's new features from its own, the sums over its row and over its column, and the globals."""

    def __init__(self, cell_in: int, global_in: int, out: int) -> None:
        super().__init__()
        self.cell = nn.Linear(cell_in, out)
        self.row = nn.Linear(cell_in, out, bias=False)
        self.column = nn.Linear(cell_in, out, bias=False)
        self.globals = nn.Linear(global_in, out, bias=False)

    def forward(self, cells: torch.Tensor, globals_: torch.Tensor) -> torch.Tensor:  # cells: (B, 7, 7, C)
        rows = self.row(cells.sum(dim=2)) + self.globals(globals_)[:, None, :]  # (B, 7, out): the rows' sums
        columns = self.column(cells.sum(dim=1))  # (B, 7, out)
        return F.relu(self.cell(cells) + rows[:, :, None, :] + columns[:, None, :, :])


class LineFeatures(BaseFeaturesExtractor):
    """Per-cell features over rows and columns, flattened: the rules compare a card with its row's and column's tops."""

    def __init__(self, observation_space: gym.spaces.Box, hidden: int = 64, per_cell: int = 8) -> None:
        super().__init__(observation_space, features_dim=SIDE * SIDE * per_cell + hidden)
        cell_in, global_in = 3 + 2 * RANKS, V.OBS_SIZE - V.OBS_CARD + RANKS
        self.first = LineLayer(cell_in, global_in, hidden)
        self.second = LineLayer(hidden, global_in, hidden)
        self.out = nn.Linear(hidden, per_cell)
        self.pooled = nn.Linear(hidden, hidden)

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        n = SIDE * SIDE
        occupied, rank, face_up = obs[:, :n], obs[:, n : 2 * n] * RANKS, obs[:, 2 * n : 3 * n]
        ranks = F.one_hot(rank.round().long(), RANKS + 1)[..., 1:].float()  # (B, 49, 10)
        cells = torch.cat(
            [occupied[..., None], obs[:, 3 * n : 5 * n].reshape(-1, 2, n).transpose(1, 2),
             ranks * face_up[..., None], ranks * (occupied - face_up)[..., None]],
            dim=2,
        ).reshape(-1, SIDE, SIDE, 3 + 2 * RANKS)  # fmt: skip
        card = F.one_hot((obs[:, V.OBS_CARD] * RANKS).round().long(), RANKS + 1)[:, 1:].float()
        globals_ = torch.cat([obs[:, V.OBS_CARD :], card], dim=1)
        h = self.second(self.first(cells, globals_), globals_)
        return torch.cat([self.out(h).flatten(1), F.relu(self.pooled(h.mean(dim=(1, 2))))], dim=1)


def make_model(envs: MaskableVecEnv, args: argparse.Namespace) -> MaskablePPO:
    if args.net == "lines":
        policy_kwargs: dict[str, Any] = {
            "features_extractor_class": LineFeatures,
            "share_features_extractor": False,
            "net_arch": {"pi": [], "vf": [64]},
        }
    else:
        policy_kwargs = {"net_arch": [256, 256]}
    return MaskablePPO(
        MaskableActorCriticPolicy,
        envs,
        n_steps=args.n_steps,
        batch_size=min(args.batch, args.n_steps * args.envs),
        n_epochs=args.epochs,
        learning_rate=args.lr,
        clip_range=args.clip,
        gamma=1.0,
        gae_lambda=0.95,
        ent_coef=args.ent_coef,
        target_kl=args.target_kl,
        policy_kwargs=policy_kwargs,
        seed=args.seed,
        verbose=0,
    )


def logits(policy: MaskableActorCriticPolicy, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """The actor's 49 logits, the illegal cells' pushed to -1e8 (as MaskablePPO's distribution does)."""
    latent = policy.mlp_extractor.forward_actor(policy.pi_features_extractor(obs))
    return policy.action_net(latent).masked_fill(~mask, -1e8)


def values(policy: MaskableActorCriticPolicy, obs: torch.Tensor) -> torch.Tensor:
    latent = policy.mlp_extractor.forward_critic(policy.vf_features_extractor(obs))
    return policy.value_net(latent).squeeze(1)


def choose(policy: MaskableActorCriticPolicy, obs: np.ndarray, mask: np.ndarray, sample: bool = False) -> np.ndarray:
    """The policy's actions for a batch of raw observations and masks (argmax, or sampled)."""
    with torch.no_grad():
        z = logits(policy, torch.as_tensor(scale(obs)), torch.as_tensor(mask.astype(bool)))
        return (torch.distributions.Categorical(logits=z).sample() if sample else z.argmax(dim=1)).numpy()


# --- phase 1: cloning the rollout policy -----------------------------------------------------------------------


class Demos:
    """Observations, masks and the rollout policy's actions, grown round after round (DAgger's aggregate)."""

    def __init__(self) -> None:
        self.parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []

    def add(self, obs: np.ndarray, mask: np.ndarray, action: np.ndarray) -> None:
        self.parts.append((obs, mask.astype(bool), action))
        self.obs, self.mask, self.action = (np.concatenate(a) for a in zip(*self.parts, strict=True))

    def __len__(self) -> int:
        return len(self.action) if self.parts else 0


def collect(
    envs: R.FoursquareVectorEnv, obs: np.ndarray, states: int, actor: Callable[[np.ndarray, np.ndarray], np.ndarray]
) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], np.ndarray, dict[str, int]]:
    """Play ``actor`` for about ``states`` live states; record each with its mask and the rollout policy's action."""
    seen: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    games = {"games": 0, "wins": 0}
    for _ in range(max(1, states // envs.num_envs)):
        mask = envs.action_masks()
        live = mask.any(axis=1)  # a game that has just ended starts again at this step
        rollout = envs.rollout_actions()
        seen.append((obs[live], mask[live], rollout[live]))
        obs, reward, terminated, _, _ = envs.step(np.where(live, actor(obs, mask), 0))
        games["games"] += int(terminated.sum())
        games["wins"] += int((reward[terminated] > 0).sum())
    states, masks, actions = (np.concatenate(a) for a in zip(*seen, strict=True))
    return (states, masks, actions), obs, games


def fit_actor(
    policy: MaskableActorCriticPolicy, demos: Demos, updates: int, lr: float, batch: int, deadline: float = math.inf
) -> float:
    """Cross-entropy of the rollout policy's action over the legal cells, on ``updates`` random batches (fewer when
    the wall clock passes ``deadline``, a ``time.monotonic()`` value); the mean loss of the last 50."""
    params = [*policy.pi_features_extractor.parameters(), *policy.mlp_extractor.policy_net.parameters(),
              *policy.action_net.parameters()]  # fmt: skip
    optimizer = torch.optim.Adam(params, lr=lr)
    rng = np.random.default_rng(len(demos))
    losses = [float("nan")]
    for _ in range(updates):
        if deadline < math.inf and time.monotonic() >= deadline:
            break
        i = rng.integers(0, len(demos), batch)
        z = logits(policy, torch.as_tensor(scale(demos.obs[i])), torch.as_tensor(demos.mask[i]))
        loss = F.cross_entropy(z, torch.as_tensor(demos.action[i]))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return float(np.mean(losses[-50:]))


def clone(policy: MaskableActorCriticPolicy, args: argparse.Namespace, log: Callable[[str], None]) -> int:
    """Phase 1: the rollout policy's games, then ``--dagger`` rounds of the clone's own; return the states seen."""
    envs = R.FoursquareVectorEnv(args.clone_envs)
    obs, _ = envs.reset(seed=args.seed)
    demos, rounds = Demos(), args.dagger + 1
    started = time.monotonic()
    for k in range(rounds):
        actor = (lambda o, m: envs.rollout_actions()) if k == 0 else (lambda o, m: choose(policy, o, m))
        part, obs, games = collect(envs, obs, args.demos // rounds, actor)
        demos.add(*part)
        lr = args.clone_lr * 0.6**k  # later rounds refine
        # each round an equal share of the updates (and of --clone-minutes, when given)
        minutes = args.clone_minutes or args.minutes
        deadline = started + minutes * 60 * (k + 1) / rounds if minutes else math.inf
        loss = fit_actor(policy, demos, args.clone_updates // rounds, lr, args.clone_batch, deadline)
        who = "rollout" if k == 0 else "clone"
        log(f"round {k}: {len(demos)} states, {who} won {games['wins']}/{games['games']}, loss {loss:.3f}")
    return len(demos)


# --- phase 2: the critic, phase 3: PPO ------------------------------------------------------------------------


def fit_critic(policy: MaskableActorCriticPolicy, args: argparse.Namespace, log: Callable[[str], None]) -> None:
    """Fit the value network to the returns of the clone's sampled games (γ = 1: the final reward)."""
    envs = R.FoursquareVectorEnv(args.clone_envs)
    obs, _ = envs.reset(seed=args.seed + 1)
    seen, episode = [], np.arange(envs.num_envs)  # each state's episode number
    returns: dict[int, float] = {}
    next_episode = envs.num_envs
    for _ in range(max(1, args.critic_states // envs.num_envs)):
        mask = envs.action_masks()
        live = mask.any(axis=1)
        seen.append((obs[live], episode[live]))
        obs, reward, terminated, _, _ = envs.step(np.where(live, choose(policy, obs, mask, sample=True), 0))
        for i in np.flatnonzero(terminated):
            returns[int(episode[i])] = float(reward[i])
            episode[i], next_episode = next_episode, next_episode + 1
    states = np.concatenate([o for o, _ in seen])
    target = np.array([returns.get(int(e), np.nan) for _, es in seen for e in es], dtype=np.float32)
    done = ~np.isnan(target)  # drop the states of games still going
    if not done.any():
        return
    x, y = torch.as_tensor(scale(states[done])), torch.as_tensor(target[done])
    params = [*policy.vf_features_extractor.parameters(), *policy.mlp_extractor.value_net.parameters(),
              *policy.value_net.parameters()]  # fmt: skip
    optimizer = torch.optim.Adam(params, lr=1e-3)
    rng = np.random.default_rng(args.seed)
    for _ in range(args.critic_updates):
        i = torch.as_tensor(rng.integers(0, len(y), 1024))
        loss = F.mse_loss(values(policy, x[i]), y[i])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    log(f"critic: {len(y)} states of {len(returns)} sampled games (mean return {y.mean():.2f}), mse {loss.item():.2f}")


class Progress(BaseCallback):
    """Log the games won in each rollout; stop at the wall-clock ``deadline`` (``math.inf``: never)."""

    def __init__(self, deadline: float, log: Callable[[str], None]) -> None:
        super().__init__()
        self.deadline, self.log = deadline, log
        self.games = self.wins = 0

    def _on_step(self) -> bool:
        done = self.locals["dones"]
        self.games += int(done.sum())
        self.wins += int((self.locals["rewards"][done] > 0).sum())
        return self.deadline == math.inf or time.monotonic() < self.deadline

    def _on_rollout_end(self) -> None:
        self.log(f"ppo: {self.num_timesteps} steps, won {self.wins}/{self.games} sampled games")
        self.games = self.wins = 0


# --- the command --------------------------------------------------------------------------------------------


def deal_range(text: str) -> range:
    """``A-B`` (or ``A``): deals A to B, both positive, A not above B."""
    lo, _, hi = text.partition("-")
    deals = range(int(lo), int(hi or lo) + 1)
    if deals.start < 1 or len(deals) == 0:
        raise ValueError(text)
    return deals


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number above 0, not {text}")
    return value


def positive_float(text: str) -> float:
    value = float(text)
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number above 0, not {text}")
    return value


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    a = p.add_argument
    a("--minutes", type=positive_float, help="also stop the whole training after this much wall-clock time")
    a("--clone-minutes", type=positive_float, help="also stop cloning after this much wall-clock time")
    a("--demos", type=positive_int, default=3_600_000, help="states labelled by the rollout policy, over all rounds")
    a("--clone-updates", type=positive_int, default=CLONE_UPDATES, help="cloning's batches, over all rounds")
    a("--dagger", type=positive_int, default=5, help="rounds on the clone's own games after the rollout policy's")
    a("--clone-envs", type=positive_int, default=1024, help="environments playing the games to label")
    a("--clone-lr", type=positive_float, default=1e-3, help="learning rate of cloning")
    a("--clone-batch", type=positive_int, default=256, help="batch of cloning")
    a("--critic-states", type=positive_int, default=200_000, help="states of the clone's games to fit the critic on")
    a("--critic-updates", type=positive_int, default=300, help="batches of 1024 to fit the critic")
    a("--net", choices=["lines", "mlp"], default="lines", help="rows-and-columns network or a plain MLP")
    a("--steps", type=positive_int, default=PPO_STEPS, help="PPO's steps (a whole number of rollouts)")
    a("--envs", type=positive_int, default=256, help="PPO's environments")
    a("--n-steps", type=positive_int, default=32, help="PPO's rollout length per environment")
    a("--batch", type=positive_int, default=2048, help="PPO's minibatch")
    a("--epochs", type=positive_int, default=4, help="PPO's epochs per rollout")
    a("--lr", type=positive_float, default=1e-5, help="PPO's learning rate")
    a("--clip", type=positive_float, default=0.1, help="PPO's clip range")
    a("--ent-coef", type=float, default=0.0, help="PPO's entropy bonus")
    a("--target-kl", type=positive_float, default=0.02, help="PPO stops a rollout's epochs beyond this KL")
    a("--seed", type=int, default=0)
    a("--threads", type=positive_int, default=1, help="torch threads (the machine is shared)")
    a("--save", help="write the trained model here (.zip)")
    a("--load", help="evaluate this model instead of training one")
    a("--eval-deals", type=deal_range, default=range(1, 1001), metavar="A-B")
    a("--eval-clone", action="store_true", help="also evaluate the clone before PPO")
    a("--json", action="store_true", help="print the summaries as JSON lines")
    a("--quiet", action="store_true", help="no progress on stderr")
    args = p.parse_args(argv)
    if args.ent_coef < 0:
        p.error(f"argument --ent-coef: must not be negative, not {args.ent_coef}")
    if args.clone_minutes and args.minutes and args.clone_minutes > args.minutes:
        p.error("argument --clone-minutes: must not exceed --minutes, the whole budget")
    if args.load and not (Path(args.load).is_file() or Path(args.load + ".zip").is_file()):  # as SB3 finds it
        p.error(f"argument --load: no such file: {args.load}")
    return args


def evaluate(policy: MaskableActorCriticPolicy, name: str, args: argparse.Namespace) -> dict[str, Any]:
    """``results_summary`` of the deterministic policy over ``--eval-deals``, played through the engine."""
    summary: dict[str, Any] = results_summary(
        name, play_policy(lambda obs, mask: int(choose(policy, obs[None], mask[None])[0]), args.eval_deals)
    )
    return summary


def report(summary: dict[str, Any], args: argparse.Namespace) -> None:
    if args.json:
        print(json.dumps(summary), flush=True)
        return
    lo, hi = summary["ci95"]
    print(
        f"{summary['player']} after {summary.get('timesteps', 0)} PPO steps ({summary['train_seconds'] / 60:.1f} min): "
        f"{summary['wins']}/{summary['games']} won ({summary['win_rate']:.1%}, 95% CI {lo:.1%}-{hi:.1%}), "
        f"mean score {summary['mean_score']:.2f}",
        flush=True,
    )


def train(args: argparse.Namespace, log: Callable[[str], None]) -> MaskablePPO:
    start = time.monotonic()
    model = make_model(MaskableVecEnv(args.envs, args.seed), args)
    args.demos_seen = clone(model.policy, args, log)
    args.clone_seconds = time.monotonic() - start
    if args.eval_clone:  # not training time: the deadline moves on by the evaluation's duration
        paused = time.monotonic()
        clone_summary = evaluate(model.policy, "maskable-ppo-clone", args)
        report({**clone_summary, "timesteps": 0, "train_seconds": round(args.clone_seconds, 1)}, args)
        start += time.monotonic() - paused
    fit_critic(model.policy, args, log)
    deadline = start + args.minutes * 60 if args.minutes else math.inf
    model.learn(total_timesteps=args.steps, callback=Progress(deadline, log))
    args.train_seconds = time.monotonic() - start
    return model


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)

    def log(text: str) -> None:
        if not args.quiet:
            print(text, file=sys.stderr, flush=True)

    if args.load:
        model, args.train_seconds = MaskablePPO.load(args.load), 0.0
    else:
        model = train(args, log)
        if args.save:
            model.save(args.save)
    summary = evaluate(model.policy, "maskable-ppo", args)
    summary.update(timesteps=int(model.num_timesteps), train_seconds=round(args.train_seconds, 1))
    if not args.load:
        summary.update(clone_seconds=round(args.clone_seconds, 1), demos=args.demos_seen, net=args.net)
    report(summary, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
