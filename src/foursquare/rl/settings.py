"""The options both environments take: house rules, reward, what an illegal action does, which deals they
deal (``split``) and whether ``info`` names them (``expose_deal``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, cast

import numpy as np
import numpy.typing as npt

from foursquare import kernel as K
from foursquare.cards import Card, check_deal_number, parse_stock
from foursquare.engine import Adjacency, Variant
from foursquare.errors import FoursquareError
from foursquare.kernel import vector as V
from foursquare.kernel.state import Array

RewardMode = Literal["score", "win"]
IllegalAction = Literal["raise", "lose"]
Split = Literal["train", "test"]

#: The test split: deals 1 to 20,000 (the quick test is its first 1,000). The train split is every other deal
#: number, so that an agent trained on ``split="train"`` never meets a deal it is tested on.
TEST_DEALS = range(1, V.TEST_DEALS + 1)
SPLITS: tuple[Split, ...] = ("train", "test")
_SPLIT_CODES = {None: V.SPLIT_ANY, "train": V.SPLIT_TRAIN, "test": V.SPLIT_TEST}

_REWARD_CODES = {"score": V.REWARD_SCORE, "win": V.REWARD_WIN}
_ILLEGAL_CODES = {"raise": V.ILLEGAL_RAISE, "lose": V.ILLEGAL_LOSE}


class SettingsError(FoursquareError):
    """An environment option with a value it cannot take."""


class SplitError(SettingsError):
    """A deal (or a stock of one's own) asked of an environment whose split does not hold it."""


@dataclass(frozen=True)
class Settings:
    """The checked options of an environment (see :class:`foursquare.rl.FoursquareEnv`)."""

    variant: Variant
    reward: RewardMode
    shaping: float
    illegal_action: IllegalAction
    illegal_reward: float
    split: Split | None = None
    expose_deal: bool = False

    @classmethod
    def of(
        cls,
        adjacency: Adjacency,
        count_buried: bool,
        reward: str,
        shaping: float,
        illegal_action: str,
        illegal_reward: float,
        split: str | None = None,
        expose_deal: bool = False,
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
        if split is not None and split not in SPLITS:
            raise SettingsError(f"split must be None, 'train' or 'test', not {split!r}")
        if not isinstance(expose_deal, bool):
            raise SettingsError(f"expose_deal must be True or False, not {expose_deal!r}")
        modes = cast(tuple[RewardMode, IllegalAction, Split | None], (reward, illegal_action, split))
        return cls(variant, modes[0], float(shaping), modes[1], float(illegal_reward), modes[2], expose_deal)

    @property
    def reward_code(self) -> int:
        return _REWARD_CODES[self.reward]

    @property
    def illegal_code(self) -> int:
        return _ILLEGAL_CODES[self.illegal_action]

    @property
    def split_code(self) -> int:
        return _SPLIT_CODES[self.split]

    def stock_of_option(self, value: object) -> npt.NDArray[np.int8]:
        """A stock of one's own for ``reset``: 40 cards (names or :class:`~foursquare.cards.Card`); the
        engine's ``CardError`` when it is not one, :class:`SplitError` under a split (it is no deal of one)."""
        if self.split is not None:
            raise SplitError(f"a stock of one's own plays no deal of the {self.split} split")
        if isinstance(value, np.ndarray):
            value = [Card(int(c)) for c in value]
        return np.array(parse_stock(value), dtype=np.int8)  # type: ignore[arg-type]

    def check_deal(self, deal: np.uint64) -> np.uint64:
        """``deal`` when it belongs to the split; :class:`SplitError` otherwise."""
        if self.split is not None and (int(deal) in TEST_DEALS) != (self.split == "test"):
            where = "deals 1 to 20000" if self.split == "test" else "every deal but 1 to 20000"
            raise SplitError(f"deal {int(deal)} is not in the {self.split} split ({where})")
        return deal

    def template(self) -> Array:
        """The kernel's empty state of the house rules."""
        return K.new_state(self.variant)


def deal_of_option(value: object) -> np.uint64:
    """A deal number from ``reset(options={"deal": N})`` (the engine's ``CardError`` when it is not one)."""
    if isinstance(value, np.integer):
        value = int(value)
    return np.uint64(check_deal_number(value))  # type: ignore[arg-type]


__all__ = [
    "SPLITS",
    "TEST_DEALS",
    "IllegalAction",
    "RewardMode",
    "Settings",
    "SettingsError",
    "Split",
    "SplitError",
    "deal_of_option",
]
