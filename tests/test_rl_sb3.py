"""foursquare.rl.sb3: the environments through Stable-Baselines3's VecEnv, as MaskablePPO drives them.

Stable-Baselines3 is imported by the tests, not at collection: it loads torch (seconds of a core), which every
test worker would otherwise pay for, whichever worker runs these tests.
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from foursquare.kernel import vector as V
from foursquare.rl import FoursquareVectorEnv

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("sb3_contrib") is None, reason="sb3-contrib is not installed (the rl extra)"
)


def test_adapter_steps_as_the_vector_environment_with_sb3_autoreset() -> None:
    from stable_baselines3.common.vec_env import VecEnv

    from foursquare.rl.sb3 import MaskableVecEnv, scale

    envs, plain = MaskableVecEnv(8, seed=3), FoursquareVectorEnv(8)
    assert isinstance(envs, VecEnv)
    obs, (raw, info) = envs.reset(), plain.reset(seed=3)
    assert np.array_equal(obs, scale(raw)) and obs.min() >= 0.0 and obs.max() <= 1.0
    ended = 0
    for _ in range(60):
        actions = envs.action_masks().argmax(axis=1)  # the first legal cell
        envs.step_async(actions)
        obs, rewards, dones, infos = envs.step_wait()
        raw, plain_rewards, terminated, _, info = plain.step(actions)
        assert np.array_equal(obs, scale(raw)) and np.array_equal(rewards, plain_rewards)
        assert np.array_equal(dones, terminated)
        for i in np.flatnonzero(dones):
            ended += 1
            assert np.array_equal(infos[i]["terminal_observation"], obs[i])
            # the autoreset step to come offers one action, the first card's cell, and ignores it
            assert envs.action_masks()[i].sum() == 1 and envs.action_masks()[i, V.FIRST_ACTION]
        live = ~dones
        assert np.array_equal(envs.action_masks()[live], info["action_mask"][live].astype(bool))
    assert ended > 0
    with pytest.raises(AttributeError, match="action_masks"):
        envs.env_method("render")


def test_maskable_ppo_learns_a_few_steps_through_the_adapter() -> None:
    from sb3_contrib import MaskablePPO

    from foursquare.rl.sb3 import MaskableVecEnv

    model = MaskablePPO("MlpPolicy", MaskableVecEnv(4, seed=0), n_steps=16, batch_size=32, n_epochs=1, seed=0)
    model.learn(total_timesteps=64)
    assert model.num_timesteps == 64
