"""The API's answers about games, built as their models (:mod:`foursquare.web.models`): what the player may see.

Cells and outcomes are written by :mod:`foursquare.record`'s serializers, the same as in
``foursquare replay --json``; a cell as ``[row, col]`` too, as the engine's :meth:`~foursquare.engine.Move.to_json`.
"""

from __future__ import annotations

from typing import Any

from foursquare import record
from foursquare.cards import Card
from foursquare.engine import AREA_REACH, MAX_FACE_DOWN, Flip, Game, Move, Placement, column_name, row_name
from foursquare.record import cells_json, outcome_json
from foursquare.store import StoredGame
from foursquare.web.models import (
    Area,
    Cell,
    GameRecord,
    GameState,
    GameSummary,
    MoveResult,
    Pair,
    Placed,
    ReplayPosition,
    Rules,
)
from foursquare.web.models import Flip as FlipAnswer

_INDICES = range(-AREA_REACH, AREA_REACH + 1)
AREA = Area(
    min_row=-AREA_REACH,
    max_row=AREA_REACH,
    min_col=-AREA_REACH,
    max_col=AREA_REACH,
    column_names=[column_name(c) for c in _INDICES],
    row_names=[row_name(r) for r in _INDICES],
)
"""The 7 × 7 area every game stays inside, and the names of its columns and rows (for the board's edges)."""


def card_name(card: Card | None) -> str | None:
    return None if card is None else card.name


def pair(move: Move) -> Pair:
    return move.row, move.col


def cells(game: Game) -> list[Cell]:
    return [Cell.model_validate(cell) for cell in cells_json(game)]


def game_state(stored: StoredGame, game: Game, *, viewer: str | None = None) -> GameState:
    """The state of a game, as ``viewer`` (a player id) may see it."""
    return GameState(**state_fields(stored, game, viewer))


def move_result(stored: StoredGame, game: Game, placement: Placement, *, viewer: str) -> MoveResult:
    """The state after ``placement``, with the card placed and the cards it turned over."""
    return MoveResult(**state_fields(stored, game, viewer), placed=placed(placement), flips=flips(placement))


def state_fields(stored: StoredGame, game: Game, viewer: str | None) -> dict[str, Any]:
    """The fields of :class:`GameState`, by name."""
    outcome = game.outcome()
    return {
        "id": stored.id,
        "deal": stored.visible_deal,
        "variant": Rules.model_validate(game.variant.to_json()),
        "turn": game.turn,
        "card": card_name(game.card_to_place),
        "stock_left": game.stock_left,
        "face_down": game.face_down,
        "max_face_down": MAX_FACE_DOWN,
        "cells": cells(game),
        "legal": [pair(m) for m in game.legal_moves],
        "legal_cells": [m.name for m in game.legal_moves],
        "area": AREA,
        **outcome_json(outcome),
        "can_undo": game.can_undo and not outcome.is_over,
        "can_redo": game.can_redo and not outcome.is_over,
        "created_at": stored.created_at,
        "updated_at": stored.updated_at,
        "yours": viewer is not None and viewer == stored.player,
        "daily": stored.daily,
        "winnable": stored.winnable,
        "assisted": stored.assisted,
        "daily_late": stored.daily_late,
        "offline": stored.offline,
    }


def placed(placement: Placement) -> Placed:
    move = placement.move
    return Placed(row=move.row, col=move.col, cell=move.name, card=placement.card.name)


def flips(placement: Placement | None) -> list[FlipAnswer]:
    """The top cards that turned over with ``placement`` (every card named is on the grid); [] for none."""
    return [] if placement is None else [flip(turned) for turned in placement.flips]


def flip(turned: Flip) -> FlipAnswer:
    return FlipAnswer(
        row=turned.row,
        col=turned.col,
        cell=turned.cell_name,
        card=turned.card.name,
        face_up=turned.face_up,
        line=turned.line,
        reason=turned.reason,
    )


def replay_position(game: Game, placement: Placement | None) -> ReplayPosition:
    """A position of a finished game's replay, reached by ``placement`` (None before the first card)."""
    return ReplayPosition(
        turn=game.turn,
        cells=cells(game),
        card=card_name(game.card_to_place),
        placed=None if placement is None else placed(placement),
        flips=flips(placement),
        face_down=game.face_down,
        **outcome_json(game.outcome()),
    )


def summary(stored: StoredGame) -> GameSummary:
    """One line of the game list (validated: the store keeps the outcome's reason as text)."""
    return GameSummary.model_validate(
        {
            "id": stored.id,
            "deal": stored.visible_deal,
            "variant": stored.variant.to_json(),
            "turn": stored.turn,
            "outcome": stored.outcome,
            "reason": stored.reason,
            "score": stored.score,
            "created_at": stored.created_at,
            "updated_at": stored.updated_at,
            "daily": stored.daily,
            "assisted": stored.assisted,
            "offline": stored.offline,
        }
    )


def record_answer(game: Game) -> GameRecord:
    """The record of a finished game (``docs/records.md``): of its deal number, or else of its stock."""
    return GameRecord.model_validate(record.to_json(game))
