"""Foursquare as an OpenSpiel game, ``python_foursquare`` (the ``spiel`` extra: ``open_spiel``).

Importing this module registers the game with ``pyspiel.register_game``:

>>> import pyspiel
>>> import foursquare.rl.spiel
>>> game = pyspiel.load_game("python_foursquare")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), [p for _, p in state.chance_outcomes()] == [0.1] * 10
(True, True)
>>> state.apply_action(2)                            # the first card: a 3
>>> [state.action_to_string(a) for a in state.legal_actions()]
['D4']

One player; chance nodes draw the cards. A draw's outcome is a rank, 1 to 10 as outcome 0 to 9, with the
chance that the next unseen card has it: suits do not matter to the rules, so a card of that rank (the
lowest suit unseen) is drawn. The player's actions are the environments' 49 cells (:mod:`foursquare.rl.encoding`).
The only reward is the score at the end (:data:`MAX_SCORE` at most; 0 after a loss): ``returns()``.

What the player sees never holds the stock's order, which the state does not even have: the observation tensor
is the environments' observation (260 entries, as ``float32``; at a chance node no card to place, that card
still counted among the unseen), and the information-state tensor adds the whole history, the rank of every
card drawn and every cell played (perfect recall). Game parameters: ``adjacency`` (``"orthogonal"`` or
``"diagonal"``) and ``count_buried`` (a bool), the house rules.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from foursquare.cards import ALL_CARDS, DECK_SIZE, Card
from foursquare.engine import Game, Move, Variant
from foursquare.kernel import vector as V
from foursquare.rl.encoding import ACTIONS, OBS_SIZE, action_name, mask_of_view, move_of_action, observe_view

GAME_NAME = "python_foursquare"
RANKS = 10
#: The best score: a win after the 16 cards that fill the 4 × 4 square leaves 24 in the stock.
MAX_SCORE = DECK_SIZE - 16
#: The information-state tensor: the observation, then one row per turn of the rank drawn and the cell played.
INFO_STATE_SIZE = OBS_SIZE + DECK_SIZE * (RANKS + ACTIONS)

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Foursquare (solitaire by Wil Su)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=1,
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"adjacency": "orthogonal", "count_buried": False},
)
GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=ACTIONS,
    max_chance_outcomes=RANKS,
    num_players=1,
    min_utility=0.0,
    max_utility=float(MAX_SCORE),
    utility_sum=None,
    max_game_length=DECK_SIZE,
)


class FoursquareGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type information
    """The game: its parameters are the house rules."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(GAME_TYPE, GAME_INFO, params or {})
        given = self.get_parameters()
        adjacency = given.get("adjacency", "orthogonal")
        if adjacency not in ("orthogonal", "diagonal"):
            raise ValueError(f"adjacency must be 'orthogonal' or 'diagonal', not {adjacency!r}")
        self.variant = Variant(adjacency=adjacency, count_buried=bool(given.get("count_buried", False)))

    def new_initial_state(self) -> FoursquareState:
        return FoursquareState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> FoursquareObserver:
        if params:
            raise ValueError(f"the observer takes no parameters, not {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return FoursquareObserver(perfect_recall)


class FoursquareState(pyspiel.State):  # type: ignore[misc]
    """A position: the ranks drawn so far and the cells played, replayed on the engine when it changes."""

    def __init__(self, game: FoursquareGame) -> None:
        super().__init__(game)
        self.variant = game.variant
        self.drawn: list[Card] = []
        self.moves: list[Move] = []
        self._game: Game | None = None

    # --- the engine game of the position --------------------------------------------------------

    def engine_game(self) -> Game:
        """The engine game after the moves; its stock is the cards drawn, then the unseen in a fixed order (which
        nothing reads: after a move, until the next draw, its card to place is not the player's to see)."""
        if self._game is None:
            rest = sorted(set(ALL_CARDS) - set(self.drawn))
            game = Game(stock=[*self.drawn, *rest], variant=self.variant)
            for move in self.moves:
                game.place(move.row, move.col)
            self._game = game
        return self._game

    def unseen_ranks(self) -> npt.NDArray[np.int64]:
        """How many cards of each rank (1 to 10, as 0 to 9) have not been drawn."""
        counts = np.full(RANKS, 4, dtype=np.int64)
        for card in self.drawn:
            counts[card.rank - 1] -= 1
        return counts

    # --- OpenSpiel's API ---------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.engine_game().is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        if len(self.drawn) == len(self.moves):
            return int(pyspiel.PlayerId.CHANCE)
        return 0

    def _legal_actions(self, player: int) -> list[int]:
        return [int(a) for a in np.flatnonzero(mask_of_view(self.engine_game().view()))]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        counts = self.unseen_ranks()
        total = int(counts.sum())
        return [(rank, int(n) / total) for rank, n in enumerate(counts) if n]

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            rank = int(action) + 1
            self.drawn.append(min(c for c in set(ALL_CARDS) - set(self.drawn) if c.rank == rank))
            self._game = None  # the stock changed: replay
        else:
            move = move_of_action(int(action))
            self.moves.append(move)
            self.engine_game().place(move.row, move.col)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"draw rank {int(action) + 1}"
        return action_name(int(action))

    def is_terminal(self) -> bool:
        return self.engine_game().is_over()

    def returns(self) -> list[float]:
        outcome = self.engine_game().outcome()
        return [float(outcome.score or 0) if outcome.status == "won" else 0.0]

    def observation(self) -> npt.NDArray[np.int8]:
        """The environments' observation of the position (the player's view, never the stock's order)."""
        game = self.engine_game()
        obs = observe_view(game.view())
        card = game.card_to_place
        if card is not None and len(self.drawn) == len(self.moves):  # a chance node: the card is not drawn yet
            obs[V.OBS_CARD] = 0
            obs[V.OBS_UNSEEN + card.rank - 1] += 1
        return obs

    def __str__(self) -> str:
        drawn = " ".join(str(c.rank) for c in self.drawn)
        return f"ranks drawn: {drawn}; cells: {' '.join(m.name for m in self.moves)}"


class FoursquareObserver:
    """OpenSpiel's ``PyObserver``: the observation, or with ``perfect_recall`` the information state."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(INFO_STATE_SIZE if perfect_recall else OBS_SIZE, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {"observation": self.tensor[:OBS_SIZE]}
        if perfect_recall:
            history = self.tensor[OBS_SIZE:].reshape(DECK_SIZE, RANKS + ACTIONS)
            self.dict["ranks_drawn"], self.dict["cells_played"] = history[:, :RANKS], history[:, RANKS:]

    def set_from(self, state: FoursquareState, player: int) -> None:
        self.tensor.fill(0)
        self.dict["observation"][:] = state.observation()
        if self.perfect_recall:
            for turn, card in enumerate(state.drawn):
                self.dict["ranks_drawn"][turn, card.rank - 1] = 1
            for turn, move in enumerate(state.moves):
                self.dict["cells_played"][turn, V.action_of(move.row, move.col)] = 1

    def string_from(self, state: FoursquareState, player: int) -> str:
        if self.perfect_recall:
            return str(state)
        return " ".join(str(int(x)) for x in state.observation())


pyspiel.register_game(GAME_TYPE, FoursquareGame)
