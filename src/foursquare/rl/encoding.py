"""The environments' spaces: actions as named cells, and the observation of what a player sees.

The layout is that of :mod:`foursquare.kernel.vector` (which builds it in compiled code) and is frozen
for ``Foursquare-v0``: a change of it is a new version of the environment. docs/rl.md has the tables.

>>> action_name(24), action_of_move(Move.from_name("D4")), move_of_action(0).name
('D4', 24, 'A1')
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from foursquare import kernel as K
from foursquare.cards import DECK_SIZE
from foursquare.engine import AREA_REACH, AREA_SIDE, Move, View
from foursquare.errors import FoursquareError
from foursquare.kernel import vector as V

ObsArray = npt.NDArray[np.int8]

ACTIONS = V.ACTIONS
OBS_SIZE = V.OBS_SIZE


class ActionError(FoursquareError):
    """An action that is not one of the 49 cells, or not a legal cell now."""


def action_space() -> spaces.Discrete:
    """One action per cell of the 7 × 7 area: ``Discrete(49)``."""
    return spaces.Discrete(ACTIONS)


def observation_space() -> spaces.Box:
    """The ``int8`` vector of :data:`OBS_SIZE` entries of :mod:`foursquare.kernel.vector`, from 0 to ``OBS_HIGH``."""
    return spaces.Box(low=0, high=V.OBS_HIGH.copy(), shape=(OBS_SIZE,), dtype=np.int8)


def check_action(action: object) -> int:
    """``action`` as an int in ``0..48`` (:class:`ActionError` otherwise)."""
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action.item()
    if isinstance(action, bool) or not isinstance(action, int | np.integer) or not 0 <= int(action) < ACTIONS:
        raise ActionError(
            f"action must be an integer from 0 to {ACTIONS - 1} (a cell, A1 = 0 … G7 = 48), not {action!r}"
        )
    return int(action)


def move_of_action(action: int) -> Move:
    """The engine move of an action: ``7 * (row_number - 1) + column_index`` (A1 = 0, D4 = 24, G7 = 48)."""
    return Move(check_action(action) // AREA_SIDE - AREA_REACH, action % AREA_SIDE - AREA_REACH)


def action_of_move(move: Move) -> int:
    """The action of an engine move (any legal move lies in the 7 × 7 area)."""
    if not (-AREA_REACH <= move.row <= AREA_REACH and -AREA_REACH <= move.col <= AREA_REACH):
        raise ActionError(f"move {move} lies outside the 7 × 7 area of the actions")
    return V.action_of(move.row, move.col)


def action_name(action: int) -> str:
    """The cell name of an action, as every front end shows it (``"D4"`` for 24)."""
    return move_of_action(action).name


def observe_view(view: View) -> ObsArray:
    """The observation of a player's view: the same vector the environments give for that position.

    It reads only the view (the card to place and the unseen cards as a multiset), so a player that plays
    an engine game through views can use a policy trained on the environments.
    """
    state = K.state_of_view(view)
    stock = np.zeros(DECK_SIZE, dtype=np.int8)  # cards already laid: the observation does not read them
    if view.card is not None:
        stock[view.turn] = int(view.card)
        stock[view.turn + 1 :] = [int(c) for c in view.unseen]
    else:
        stock[view.turn :] = [int(c) for c in view.unseen]
    obs = np.empty(OBS_SIZE, dtype=np.int8)
    V.observe(state, stock, obs)
    return obs


def mask_of_view(view: View) -> ObsArray:
    """The action mask (``int8``, 1 for a legal cell) of a player's view."""
    mask = np.zeros(ACTIONS, dtype=np.int8)
    for move in view.legal_moves:
        mask[action_of_move(move)] = 1
    return mask
