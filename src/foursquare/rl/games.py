"""The arrays of N games that the compiled step works on, shared by both environments.

:class:`~foursquare.rl.FoursquareEnv` is a batch of one and :class:`~foursquare.rl.FoursquareVectorEnv` a batch
of N; both keep their games in a :class:`Games` and step them with one call of
:func:`foursquare.kernel.vector.step_envs`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from foursquare.cards import DECK_SIZE
from foursquare.kernel import vector as V
from foursquare.kernel.policies import POLICY_WEIGHTS
from foursquare.kernel.state import STATE_SIZE
from foursquare.rl.settings import Settings

Actions = npt.NDArray[np.int64]
_MASK64 = 2**64 - 1


class Games:
    """``count`` games of one variant: their states, stocks, deal numbers, observations, masks and outcomes.

    The arrays are C-contiguous, one row per game, as the compiled step reads them; ``rngs`` holds each game's
    generator (a SplitMix64 state), which draws its deal numbers in the settings' split: game i's deals depend
    on its own seed alone.
    """

    def __init__(self, count: int, settings: Settings) -> None:
        self.settings = settings
        self.template = settings.template()
        self.states = np.empty((count, STATE_SIZE), dtype=np.int8)
        self.stocks = np.zeros((count, DECK_SIZE), dtype=np.int8)
        self.deals = np.zeros(count, dtype=np.uint64)
        self.obs = np.zeros((count, V.OBS_SIZE), dtype=np.int8)
        self.masks = np.zeros((count, V.ACTIONS), dtype=np.int8)
        self.boards = np.zeros((count, V.BOARDS), dtype=np.uint64)
        self.rewards = np.zeros(count, dtype=np.float32)
        self.terminated = np.zeros(count, dtype=np.bool_)
        self.pending = np.zeros(count, dtype=np.int8)
        self.scores = np.zeros(count, dtype=np.int8)  # an ended game's score, -1 for a loss (step_envs)
        self.rngs = np.zeros(count, dtype=np.uint64)

    def arrays(self) -> dict[str, npt.NDArray[Any]]:
        """Every array of the games by name: what :meth:`snapshot` copies and :meth:`restore` writes back."""
        names = (
            "states", "stocks", "deals", "obs", "masks", "boards", "rewards", "terminated", "pending", "scores", "rngs",
        )  # fmt: skip
        return {name: getattr(self, name) for name in names}

    def snapshot(self) -> dict[str, npt.NDArray[Any]]:
        """A copy of every array: the games' whole state, their generators included."""
        return {name: array.copy() for name, array in self.arrays().items()}

    def restore(self, snapshot: dict[str, npt.NDArray[Any]]) -> None:
        """Write a :meth:`snapshot` back, in place (the arrays stay the ones already handed out)."""
        for name, array in self.arrays().items():
            array[...] = snapshot[name]

    def seed(self, seed: int) -> None:
        """Game i's generator starts from ``seed + i`` (modulo 2⁶⁴), as Gymnasium seeds a vector's environments."""
        self.rngs[:] = [(seed + i) & _MASK64 for i in range(len(self.rngs))]

    def draw(self) -> None:
        """Each game's next deal number in the split, from its own generator."""
        V.draw_deals(self.rngs, self.settings.split_code, self.deals)

    def reset(self) -> None:
        """Start a new game of ``deals[i]`` in every row."""
        V.reset_envs(
            self.states, self.stocks, self.template, self.deals, self.obs, self.masks, self.boards, self.pending
        )

    def play_stock(self, i: int, stock: npt.NDArray[np.int8]) -> None:
        """Game i, just reset, plays ``stock`` instead of its deal's: its observation shows the stock's first card."""
        self.stocks[i] = stock
        V.observe(self.states[i], self.stocks[i], self.obs[i])

    def step(self, actions: Actions) -> int:
        """Step every game (see :func:`~foursquare.kernel.vector.step_envs`): -1, or the first game whose
        action is illegal under ``illegal_action="raise"``, when nothing moved."""
        s = self.settings
        bad: int = V.step_envs(
            self.states, self.stocks, self.template, self.deals, self.rngs, s.split_code, actions,
            s.illegal_code, s.illegal_reward, s.reward_code, s.shaping,
            self.obs, self.masks, self.boards, self.rewards, self.terminated, self.pending, self.scores,
        )  # fmt: skip
        return bad

    def outcomes(self, ended: npt.NDArray[np.bool_]) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
        """Whether each game where ``ended`` is won, and its score (the cards left after a win, 0 otherwise);
        False and 0 elsewhere (from ``scores``, which the compiled step writes as games end)."""
        won = self.scores >= 0
        won &= ended
        return won, np.multiply(self.scores, won, dtype=np.int64)

    def rollout_actions(self) -> Actions:
        """The rollout policy's action in every game (0 for a game about to reset)."""
        actions = np.zeros(len(self.states), dtype=np.int64)
        V.rollout_actions(self.states, self.stocks, self.pending, POLICY_WEIGHTS, actions)
        return actions


__all__ = ["Actions", "Games"]
