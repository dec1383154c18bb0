"""Monte Carlo evaluation of moves: many rollouts of each candidate over random futures of the stock."""

from __future__ import annotations

import numpy as np

from foursquare.cards import DECK_SIZE
from foursquare.jitcache import njit
from foursquare.kernel.policies import greedy_playout, policy_playout
from foursquare.kernel.rng import shuffle_tail
from foursquare.kernel.rules import place
from foursquare.kernel.state import (
    SCORE,
    STATE_SIZE,
    STATUS,
    STATUS_PLAYING,
    STATUS_WON,
    TURN,
    Array,
    IntArray,
    Rng,
    Weights,
    copy_state,
)


@njit(cache=True)
def monte_carlo(
    state: Array, card: int, unseen: Array, cells: IntArray, rng: Rng, results: Array, weights: Weights
) -> None:
    """Try each of ``cells`` against ``results.shape[0]`` random orders of ``unseen`` with rollouts.

    ``results[s, i]`` becomes the final score of placing ``card`` at ``cells[i]`` and playing out
    future ``s``, or -1 for a loss. The rollouts follow :func:`~foursquare.kernel.policies.policy_choice`
    with ``weights``, or greedy when ``weights`` is empty. Every cell meets the same futures (common
    random numbers).
    """
    turn = state[TURN]
    stock = np.zeros(DECK_SIZE, dtype=np.int8)
    stock[turn] = card
    for i in range(unseen.shape[0]):
        stock[turn + 1 + i] = unseen[i]
    work = np.empty(STATE_SIZE, dtype=np.int8)
    for s in range(results.shape[0]):
        shuffle_tail(stock, turn + 1, rng)
        for i in range(cells.shape[0]):
            copy_state(work, state)
            place(work, cells[i], card)
            if work[STATUS] == STATUS_PLAYING:
                if weights.shape[0] == 0:
                    greedy_playout(work, stock)
                else:
                    policy_playout(work, stock, weights)
            results[s, i] = work[SCORE] if work[STATUS] == STATUS_WON else -1
