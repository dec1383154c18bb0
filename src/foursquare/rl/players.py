"""A policy trained on the environments as a player of engine games, for the players' own statistics.

A :class:`PolicyPlayer` sees only :class:`~foursquare.engine.View` values, like every player of
:mod:`foursquare.players`, and turns each into the environments' observation and action mask, so
``play_game``/``results_summary`` measure it exactly as ``foursquare autoplay`` measures the others.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from foursquare.engine import Game, Move, Variant, View
from foursquare.players import GameResult, play_game
from foursquare.rl.encoding import ActionError, ObsArray, action_name, mask_of_view, move_of_action, observe_view

#: A policy: (observation, action mask) to an action.
Policy = Callable[[ObsArray, ObsArray], int]


class PolicyPlayer:
    """The player that asks ``policy`` for each move (an illegal answer is an :class:`ActionError`)."""

    def __init__(self, policy: Policy, name: str = "policy") -> None:
        self.policy = policy
        self.name = name

    def choose(self, view: View) -> Move:
        mask = mask_of_view(view)
        action = int(self.policy(observe_view(view), mask))
        if not 0 <= action < len(mask):
            raise ActionError(f"the policy chose action {action}, which is not a cell (0 to {len(mask) - 1})")
        if not mask[action]:
            raise ActionError(f"the policy chose action {action} ({action_name(action)}), not a legal cell now")
        return move_of_action(action)


def play_policy(
    policy: Policy,
    deals: Iterable[int],
    *,
    variant: Variant | None = None,
    progress: Callable[[], None] | None = None,
) -> list[GameResult]:
    """Play every deal with ``policy``; results in deal order (for :func:`foursquare.players.results_summary`)."""
    player = PolicyPlayer(policy)
    results = []
    for deal in deals:
        results.append(play_game(player, Game(deal=deal, variant=variant or Variant())))
        if progress is not None:
            progress()
    return results
