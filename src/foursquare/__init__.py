"""Foursquare, the solitaire card game by Wil Su.

The rules engine is :mod:`foursquare.engine`; cards and deals are in :mod:`foursquare.cards`;
game records in :mod:`foursquare.record`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from foursquare.cards import ALL_CARDS, Card, CardError, deal_stock
    from foursquare.engine import (
        CellView,
        Flip,
        Game,
        IllegalMoveError,
        Move,
        MoveError,
        Outcome,
        Placement,
        Variant,
        VariantError,
        View,
    )
    from foursquare.errors import FoursquareError

#: Where each name of the package's API is defined. They are loaded when first used, so that starting the
#: ``foursquare`` command loads only what it needs first: its signal handlers (:mod:`foursquare.cli.signals`),
#: so that a Ctrl-C while the rest loads is answered by the command, not by a traceback.
_API = {
    **dict.fromkeys(["ALL_CARDS", "Card", "CardError", "deal_stock"], "foursquare.cards"),
    **dict.fromkeys(
        ["CellView", "Flip", "Game", "IllegalMoveError", "Move", "MoveError", "Outcome", "Placement", "Variant",
         "VariantError", "View"],
        "foursquare.engine",
    ),
    "FoursquareError": "foursquare.errors",
}  # fmt: skip


def __getattr__(name: str) -> Any:
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module 'foursquare' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_API])


__version__ = "0.9.0"  # a release sets it and dates its section of CHANGELOG.md

__all__ = [
    "ALL_CARDS",
    "Card",
    "CardError",
    "CellView",
    "Flip",
    "FoursquareError",
    "Game",
    "IllegalMoveError",
    "Move",
    "MoveError",
    "Outcome",
    "Placement",
    "Variant",
    "VariantError",
    "View",
    "deal_stock",
]
