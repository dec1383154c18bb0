"""Foursquare as a reinforcement-learning environment, in Gymnasium's API (docs/rl.md).

Importing this package registers ``foursquare/Foursquare-v0`` (and ``Foursquare-v0``, so that
``gymnasium.make("foursquare.rl:Foursquare-v0")`` imports and finds it):

>>> import gymnasium
>>> import foursquare.rl
>>> env = gymnasium.make("foursquare/Foursquare-v0")
>>> obs, info = env.reset(options={"deal": 1})
>>> obs.shape, int(info["action_mask"].sum()), action_name(int(info["action_mask"].argmax()))
((260,), 1, 'D4')

Modules: :mod:`~foursquare.rl.encoding` (actions and observations), :mod:`~foursquare.rl.settings` (the
options), :mod:`~foursquare.rl.games` (the arrays of a batch of games and its compiled step, on
:mod:`foursquare.kernel.vector`), :mod:`~foursquare.rl.env` (:class:`FoursquareEnv`, a batch of one),
:mod:`~foursquare.rl.vector_env` (:class:`FoursquareVectorEnv`), :mod:`~foursquare.rl.picture` (the
``rgb_array`` frames), :mod:`~foursquare.rl.players` (a trained policy as a player of engine games),
:mod:`~foursquare.rl.bench` (their steps per second for ``foursquare bench --rl``; imported only when asked
for), :mod:`~foursquare.rl.sb3` (the vector environment as Stable-Baselines3's ``VecEnv``, for ``MaskablePPO``;
the ``baseline`` extra), :mod:`~foursquare.rl.dataset` (Minari datasets of expert games and solver lines; the
``data`` extra) and :mod:`~foursquare.rl.spiel` (the game for OpenSpiel; the ``spiel`` extra): each imported only
when asked for.
"""

from __future__ import annotations

import gymnasium

from foursquare.rl.encoding import (
    ACTIONS,
    OBS_SIZE,
    ActionError,
    action_name,
    action_of_move,
    mask_of_view,
    move_of_action,
    observe_view,
)
from foursquare.rl.env import EnvState, EpisodeOverError, FoursquareEnv, SnapshotError
from foursquare.rl.settings import SPLITS, TEST_DEALS, SettingsError, SplitError
from foursquare.rl.vector_env import FoursquareVectorEnv

ENV_ID = "foursquare/Foursquare-v0"

for _id in (ENV_ID, "Foursquare-v0"):
    if _id not in gymnasium.registry:
        gymnasium.register(
            id=_id,
            entry_point="foursquare.rl.env:FoursquareEnv",
            vector_entry_point="foursquare.rl.vector_env:FoursquareVectorEnv",
        )

__all__ = [
    "ACTIONS",
    "ENV_ID",
    "OBS_SIZE",
    "SPLITS",
    "TEST_DEALS",
    "ActionError",
    "EnvState",
    "EpisodeOverError",
    "FoursquareEnv",
    "FoursquareVectorEnv",
    "SettingsError",
    "SnapshotError",
    "SplitError",
    "action_name",
    "action_of_move",
    "mask_of_view",
    "move_of_action",
    "observe_view",
]
