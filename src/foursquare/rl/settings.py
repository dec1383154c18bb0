"""The options both environments take: house rules, reward and what an illegal action does."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from foursquare import kernel as K
from foursquare.cards import check_deal_number
from foursquare.engine import Adjacency, Variant
from foursquare.errors import FoursquareError
from foursquare.kernel import vector as V
from foursquare.kernel.state import Array

RewardMode = Literal["score", "win"]
IllegalAction = Literal["raise", "lose"]

_REWARD_CODES = {"score": V.REWARD_SCORE, "win": V.REWARD_WIN}
_ILLEGAL_CODES = {"raise": V.ILLEGAL_RAISE, "lose": V.ILLEGAL_LOSE}


class SettingsError(FoursquareError):
    """An environment option with a value it cannot take."""


@dataclass(frozen=True)
class Settings:
    """The checked options of an environment (see :class:`foursquare.rl.FoursquareEnv`)."""

    variant: Variant
    reward: RewardMode
    shaping: float
    illegal_action: IllegalAction
    illegal_reward: float

    @classmethod
    def of(
        cls,
        adjacency: Adjacency,
        count_buried: bool,
        reward: str,
        shaping: float,
        illegal_action: str,
        illegal_reward: float,
    ) -> Settings:
        """Check every option; :class:`SettingsError` (or the engine's ``VariantError``) says what is wrong."""
        variant = Variant(adjacency, count_buried)
        if reward not in _REWARD_CODES:
            raise SettingsError(f"reward must be 'score' or 'win', not {reward!r}")
        if illegal_action not in _ILLEGAL_CODES:
            raise SettingsError(f"illegal_action must be 'raise' or 'lose', not {illegal_action!r}")
        for name, value in (("shaping", shaping), ("illegal_reward", illegal_reward)):
            if isinstance(value, bool) or not isinstance(value, int | float) or not np.isfinite(value):
                raise SettingsError(f"{name} must be a finite number, not {value!r}")
        return cls(variant, reward, float(shaping), illegal_action, float(illegal_reward))  # type: ignore[arg-type]

    @property
    def reward_code(self) -> int:
        return _REWARD_CODES[self.reward]

    @property
    def illegal_code(self) -> int:
        return _ILLEGAL_CODES[self.illegal_action]

    def template(self) -> Array:
        """The kernel's empty state of the house rules."""
        return K.new_state(self.variant)


def deal_of_option(value: object) -> np.uint64:
    """A deal number from ``reset(options={"deal": N})`` (the engine's ``CardError`` when it is not one)."""
    if isinstance(value, np.integer):
        value = int(value)
    return np.uint64(check_deal_number(value))  # type: ignore[arg-type]


__all__ = ["IllegalAction", "RewardMode", "Settings", "SettingsError", "deal_of_option"]
