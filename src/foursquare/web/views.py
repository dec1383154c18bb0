"""The JSON the API answers with: what the player may see of a game, and no more (``docs/api.md``).

Cells and outcomes are written by :mod:`foursquare.record`'s serializers, the same as in
``foursquare replay --json``; moves by the engine's :meth:`~foursquare.engine.Move.to_json`.
"""

from __future__ import annotations

from typing import Any

from foursquare.cards import Card
from foursquare.engine import AREA_REACH, MAX_FACE_DOWN, Flip, Game, Placement, column_name, row_name
from foursquare.record import cells_json, outcome_json
from foursquare.store import StoredGame


def card_json(card: Card | None) -> str | None:
    return None if card is None else card.name


def area_json() -> dict[str, Any]:
    """The 7 × 7 area every game stays inside, and the names of its columns and rows (for the board's edges)."""
    indices = range(-AREA_REACH, AREA_REACH + 1)
    return {
        "min_row": -AREA_REACH,
        "max_row": AREA_REACH,
        "min_col": -AREA_REACH,
        "max_col": AREA_REACH,
        "column_names": [column_name(c) for c in indices],
        "row_names": [row_name(r) for r in indices],
    }


def state_json(stored: StoredGame, game: Game, *, viewer: str | None = None) -> dict[str, Any]:
    """The state object of the API, as ``viewer`` (a player id) may see it."""
    outcome = game.outcome()
    return {
        "id": stored.id,
        "deal": stored.visible_deal,
        "variant": game.variant.to_json(),
        "turn": game.turn,
        "card": card_json(game.card_to_place),
        "stock_left": game.stock_left,
        "face_down": game.face_down,
        "max_face_down": MAX_FACE_DOWN,
        "cells": cells_json(game),
        "legal": [m.to_json() for m in game.legal_moves],
        "legal_cells": [m.name for m in game.legal_moves],
        "area": area_json(),
        **outcome_json(outcome),
        "can_undo": game.can_undo and not outcome.is_over,
        "can_redo": game.can_redo and not outcome.is_over,
        "created_at": stored.created_at,
        "updated_at": stored.updated_at,
        **ownership_json(stored, viewer),
    }


def ownership_json(stored: StoredGame, viewer: str | None) -> dict[str, Any]:
    """Whose game it is and how it was played: ``yours``, ``daily`` (its UTC date), ``winnable``, ``assisted``."""
    return {
        "yours": viewer is not None and viewer == stored.player,
        "daily": None if stored.daily is None else stored.daily.isoformat(),
        "winnable": stored.winnable,
        "assisted": stored.assisted,
    }


def flip_json(flip: Flip) -> dict[str, Any]:
    """A top card that turned over: where (and the cell's name), which card, which way it faces now, the line
    and why it turned."""
    return {
        "row": flip.row,
        "col": flip.col,
        "cell": flip.cell_name,
        "card": flip.card.name,
        "face_up": flip.face_up,
        "line": flip.line,
        "reason": flip.reason,
    }


def placement_json(placement: Placement | None) -> dict[str, Any]:
    """``placed`` and ``flips`` of one placement (every card named in it is on the grid); null and [] for none."""
    if placement is None:
        return {"placed": None, "flips": []}
    move = placement.move
    return {
        "placed": {"row": move.row, "col": move.col, "cell": move.name, "card": placement.card.name},
        "flips": [flip_json(f) for f in placement.flips],
    }


def position_json(game: Game, placement: Placement | None) -> dict[str, Any]:
    """A position of a finished game's replay, reached by ``placement`` (None before the first card)."""
    return {
        "turn": game.turn,
        "cells": cells_json(game),
        "card": card_json(game.card_to_place),
        **placement_json(placement),
        "face_down": game.face_down,
        **outcome_json(game.outcome()),
    }


def summary_json(stored: StoredGame) -> dict[str, Any]:
    """One line of the game list."""
    return {
        "id": stored.id,
        "deal": stored.visible_deal,
        "variant": stored.variant.to_json(),
        "turn": stored.turn,
        "outcome": stored.outcome,
        "reason": stored.reason,
        "score": stored.score,
        "created_at": stored.created_at,
        "updated_at": stored.updated_at,
        "daily": None if stored.daily is None else stored.daily.isoformat(),
        "assisted": stored.assisted,
    }
