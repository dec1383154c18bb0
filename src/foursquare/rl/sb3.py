"""``FoursquareVectorEnv`` as Stable-Baselines3's ``VecEnv``, for sb3-contrib's ``MaskablePPO``.

Needs the ``baseline`` extra (sb3-contrib, so torch); ``import foursquare.rl`` does not import this module.

>>> from foursquare.rl.sb3 import MaskableVecEnv
>>> envs = MaskableVecEnv(4, seed=0)
>>> obs = envs.reset()
>>> obs.shape, obs.dtype, envs.action_masks().sum(axis=1).tolist()
((4, 260), dtype('float32'), [1, 1, 1, 1])

SB3 expects a finished game to be replaced at once; Gymnasium's vector environment replaces it at the next
step, ignoring that step's action (``AutoresetMode.NEXT_STEP``). The adapter offers that step one legal action
only (the first card's cell, D4), so it has a log-probability of 0 and teaches the actor nothing; its reward is 0.
The finished game's last observation is ``infos[i]["terminal_observation"]``, as SB3 reads it.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from stable_baselines3.common.vec_env import VecEnv

from foursquare.kernel import vector as V
from foursquare.rl.encoding import ObsArray
from foursquare.rl.vector_env import FoursquareVectorEnv

#: Each observation entry's upper bound, the divisor of :func:`scale`.
HIGH = V.OBS_HIGH.astype(np.float32)

Floats = npt.NDArray[np.float32]


def scale(obs: ObsArray) -> Floats:
    """The observation as ``float32`` in 0..1: each entry over its upper bound."""
    return obs.astype(np.float32) / HIGH


class MaskableVecEnv(VecEnv):
    """``num_envs`` games of :class:`FoursquareVectorEnv` (``**options``: its options) as SB3's ``VecEnv``:
    observations scaled to 0..1 (:func:`scale`), masks for ``MaskablePPO`` (:meth:`action_masks`), SB3's
    autoreset; ``reset()`` seeds the deals with ``seed``."""

    render_mode = None

    def __init__(self, num_envs: int, seed: int | None = None, **options: Any) -> None:
        self.envs = FoursquareVectorEnv(num_envs, **options)
        space = gym.spaces.Box(0.0, 1.0, shape=HIGH.shape, dtype=np.float32)
        super().__init__(num_envs, space, self.envs.single_action_space)
        self.first_seed = seed
        self.masks = np.zeros((num_envs, V.ACTIONS), dtype=bool)
        self.actions = np.zeros(num_envs, dtype=np.int64)

    def reset(self) -> Floats:
        obs, info = self.envs.reset(seed=self.first_seed)
        self.masks = info["action_mask"].astype(bool)
        return scale(obs)

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        self.actions = np.asarray(actions, dtype=np.int64)

    def step_wait(self) -> tuple[Floats, npt.NDArray[Any], npt.NDArray[Any], list[dict[str, Any]]]:
        obs, rewards, terminated, _, info = self.envs.step(self.actions)
        self.masks = info["action_mask"].astype(bool)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(terminated):
            infos[i]["terminal_observation"] = scale(obs[i])
            self.masks[i, V.FIRST_ACTION] = True  # the autoreset step: one legal action, whose reward is 0
        return scale(obs), rewards, terminated, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal cells of every game (``MaskablePPO`` calls this)."""
        return self.masks

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]:
        if method_name != "action_masks":
            raise AttributeError(f"MaskableVecEnv offers env_method('action_masks') only, not {method_name!r}")
        return list(self.masks)

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self, attr_name)] * self.num_envs

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self, attr_name, value)

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper[Any, Any, Any, Any]], indices: Any = None) -> list[bool]:
        return [False] * self.num_envs

    def close(self) -> None:
        self.envs.close()
