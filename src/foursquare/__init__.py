"""Foursquare, the solitaire card game by Wil Su.

The rules engine is :mod:`foursquare.engine`; cards and deals are in :mod:`foursquare.cards`;
game records in :mod:`foursquare.record`.
"""

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

__version__ = "0.1.0"

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
