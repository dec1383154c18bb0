"""``FoursquareVectorEnv``: N games stepped together in one compiled call of the kernel."""

from __future__ import annotations

import secrets
import warnings
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from foursquare.engine import Adjacency
from foursquare.kernel import vector as V
from foursquare.rl.encoding import ActionError, ObsArray, action_name, action_space, observation_space
from foursquare.rl.games import Actions, Games
from foursquare.rl.settings import Settings, deal_of_option


class FoursquareVectorEnv(gym.vector.VectorEnv[ObsArray, Actions, Any]):
    """``num_envs`` games of :class:`foursquare.rl.FoursquareEnv`, stepped together in compiled code.

    Observations come as an ``int8`` array of shape ``(num_envs, 260)``, rewards as ``float32`` and the
    legal actions as ``info["action_mask"]`` of shape ``(num_envs, 49)`` (also :meth:`action_masks`);
    ``info["won"]`` and ``info["score"]`` the outcomes of the games that ended at that step (where
    ``info["_won"]``); with ``expose_deal=True``, ``info["deal"]`` holds each game's deal number. Autoreset is
    Gymnasium's default, next-step: the step after an episode ends ignores that environment's action and
    starts a new game on the next deal of the split from that environment's own generator, which
    ``reset(seed=s)`` starts at ``s + i`` for environment i: environment i deals what
    ``FoursquareEnv(...).reset(seed=s + i)`` and its later resets deal. ``reset(options={"deals": [...]})``
    plays given deals. The options are those of :class:`~foursquare.rl.FoursquareEnv`: by default an illegal
    action ends that
    environment's episode with ``illegal_reward``; with ``illegal_action="raise"`` it raises
    :class:`~foursquare.rl.ActionError` before any environment moves.
    ``copy=False`` returns read-only views of the environment's own arrays instead of copies: the next step
    overwrites them (only where they changed, which is why they cannot be written to).
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}  # noqa: RUF012 - Gymnasium's

    def __init__(
        self,
        num_envs: int = 1,
        *,
        adjacency: Adjacency = "orthogonal",
        count_buried: bool = False,
        reward: str = "score",
        shaping: float = 0.0,
        illegal_action: str = "lose",
        illegal_reward: float = -1.0,
        split: str | None = None,
        expose_deal: bool = False,
        copy: bool = True,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, not {num_envs!r}")
        self.settings = Settings.of(
            adjacency, count_buried, reward, shaping, illegal_action, illegal_reward, split, expose_deal
        )
        self.num_envs = num_envs
        self.copy = copy
        self.single_action_space = action_space()
        self.single_observation_space = observation_space()
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self._games = Games(num_envs, self.settings)
        games = self._games
        games.seed(secrets.randbits(64))
        truncated = np.zeros(num_envs, dtype=np.bool_)  # a game ends by its rules within 40 steps
        every = np.ones(num_envs, dtype=np.bool_)  # info's "_key" arrays: every environment has each key
        # What copy=False hands out: read-only views, since a step rewrites only what changed.
        self._shown = {
            name: _read_only(array)
            for name, array in (
                ("obs", games.obs), ("rewards", games.rewards), ("terminated", games.terminated),
                ("truncated", truncated), ("masks", games.masks), ("deals", games.deals), ("every", every),
            )
        }  # fmt: skip
        self._started = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsArray, dict[str, Any]]:
        """New games in every environment: ``options["deals"]`` when given, or ``options["stocks"]`` (one stock
        of 40 cards per environment, without a split; the games after them are drawn deals), else each
        environment's next deal of the split, from its generator (environment i's starts at ``seed + i`` when a
        seed is given)."""
        options = options or {}
        unknown = sorted(set(options) - {"deals", "stocks"})
        if unknown or len(options) > 1:
            raise ValueError(
                f"reset options {', '.join(map(repr, sorted(options)))}: give at most one of 'deals' and 'stocks'"
            )
        games = self._games
        if seed is not None:
            games.seed(seed)
        stocks = None
        if "stocks" in options:
            stocks = [self.settings.stock_of_option(s) for s in self._per_environment(options["stocks"], "stocks")]
            games.deals[:] = 0
        elif "deals" in options:
            games.deals[:] = self._deal_list(options["deals"])
        else:
            games.draw()
        games.reset()
        for i, stock in enumerate(stocks or []):
            games.play_stock(i, stock)
        self._started = True
        return self._out("obs"), self._info()

    def step(self, actions: Actions) -> tuple[ObsArray, Any, Any, Any, dict[str, Any]]:
        """Advance every environment by one step (see the class documentation for autoreset)."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or acts.dtype.kind not in "iu":
            raise ActionError(f"actions must be {self.num_envs} integers, one per environment, not {actions!r}")
        games = self._games
        bad = games.step(acts.astype(np.int64, copy=False))
        if bad >= 0:
            a = int(acts[bad])
            cell = f" ({action_name(a)})" if 0 <= a < V.ACTIONS else ""
            raise ActionError(f"environment {bad}: action {a}{cell} is not a legal cell now")
        out = self._out
        info = self._info()
        if games.terminated.any():
            ended = games.terminated.copy()
            won, score = games.outcomes(ended)  # an illegal action's ending: the game goes on, neither won nor scored
            info.update(won=won, _won=ended, score=score, _score=ended)
        return out("obs"), out("rewards"), out("terminated"), out("truncated"), info

    def rollout_actions(self) -> Actions:
        """What the ``best`` player's rollout policy (the ``rollout`` agent of docs/benchmark.md) would play in
        every environment now: demonstrations for imitation learning (it wins about 83 % of deals on its own,
        greedy 11 %).

        The policy sees only what a player sees: the board and the card to place, never the stock beyond it.
        An environment whose episode has just ended gets 0, which its next step ignores.
        """
        if not self._started:
            raise RuntimeError("call reset() before rollout_actions()")
        return self._games.rollout_actions()

    def expert_actions(self) -> Actions:
        """The former name of :meth:`rollout_actions` ("expert" is the ``expert`` player's name alone)."""
        warnings.warn("expert_actions() is now rollout_actions()", DeprecationWarning, stacklevel=2)
        return self.rollout_actions()

    def action_masks(self) -> ObsArray:
        """The legal actions of every environment, shape ``(num_envs, 49)``, ``int8``."""
        return self._games.masks.copy()

    def _out(self, name: str) -> npt.NDArray[Any]:
        shown = self._shown[name]
        return shown.copy() if self.copy else shown

    def _info(self) -> dict[str, Any]:
        every = self._out("every")
        info = {"action_mask": self._out("masks"), "_action_mask": every}
        if self.settings.expose_deal:
            info.update(deal=self._out("deals"), _deal=every)
        return info

    def _deal_list(self, deals: object) -> list[np.uint64]:
        return [self.settings.check_deal(deal_of_option(d)) for d in self._per_environment(deals, "deals")]

    def _per_environment(self, values: object, name: str) -> Sequence[Any]:
        if not isinstance(values, Sequence | np.ndarray) or len(values) != self.num_envs:
            what = "deal numbers" if name == "deals" else "stocks"
            raise ValueError(f"options[{name!r}] must list {self.num_envs} {what}, one per environment")
        return values  # type: ignore[return-value]


def _read_only(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    view = array.view()
    view.flags.writeable = False
    return view


__all__ = ["FoursquareVectorEnv"]
