"""``FoursquareEnv``: one game of Foursquare as a Gymnasium environment (``foursquare/Foursquare-v0``)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
import numpy.typing as npt

from foursquare import kernel as K
from foursquare.cards import Card, parse_stock
from foursquare.engine import MAX_FACE_DOWN, Adjacency, Game
from foursquare.grid_text import grid_text
from foursquare.rl.encoding import (
    ActionError,
    ObsArray,
    action_name,
    action_space,
    check_action,
    move_of_action,
    observation_space,
)
from foursquare.rl.games import Games
from foursquare.rl.picture import Picture, picture
from foursquare.rl.settings import Settings, SettingsError, deal_of_option


class EpisodeOverError(RuntimeError):
    """``step`` after the episode ended, before ``reset``: a bug in the calling loop, not bad data."""


class SnapshotError(SettingsError):
    """A snapshot restored into an environment of other options, or a stock that contradicts what was seen."""


@dataclass(frozen=True, eq=False)
class EnvState:
    """What :meth:`FoursquareEnv.clone` copies: the game, its stock, the generator and the episode's progress."""

    settings: Settings
    arrays: dict[str, npt.NDArray[Any]]
    moves: tuple[int, ...]
    flags: tuple[bool, bool, bool, bool]  # started, over, ended by an illegal action, the stock is the deal's


class FoursquareEnv(gym.Env[ObsArray, np.int64]):
    """One game of Foursquare: lay each card of the stock on a cell of the 7 × 7 area.

    - Actions: ``Discrete(49)``, action ``7 * (row_number - 1) + column_index`` for the cell named like the
      game's cells (A1 = 0, D4 = 24 for the first card, G7 = 48); see :mod:`foursquare.rl.encoding`.
    - Observations: the ``int8`` vector of :mod:`foursquare.kernel.vector` — the board, the card to place,
      the unseen ranks, the stock size, the face-down count and the house rules; never the stock order.
    - Legal actions: ``info["action_mask"]`` and :meth:`action_masks` (an ``int8`` mask of 49).
    - Reward: by default the score at the end (the cards left after a win, 0 after a loss), nothing
      before; ``reward="win"`` gives 1 for a win instead. ``shaping=k`` adds ``k * (φ(s') − φ(s))`` each
      step with φ = −(face-down cards counting towards the limit) and φ = 0 at the end: potential-based
      shaping, which leaves the undiscounted return's best policies unchanged. The last step's ``info`` has
      ``"won"`` and ``"score"``.
    - Deals: ``split="train"`` deals every deal number but the test deals 1–20,000, ``split="test"`` only
      those, ``None`` (the default) any. ``reset(seed=s)`` draws deals from generator ``s``, as the vector
      environment's environment i does from ``s + i``; ``reset(options={"deal": N})`` plays deal N (in the
      split); ``reset(options={"stock": [...]})`` plays 40 cards in that order (no split only).
    - ``info["deal"]``, the deal number, tells the whole stock order: it is there only with
      ``expose_deal=True``.
    - Search over the hidden stock: :meth:`sample_stock`, :meth:`clone` and :meth:`restore`.
    - An illegal action (out of range too) ends the episode with reward ``illegal_reward`` (−1 by default),
      so that agents without masks and Gymnasium's ``check_env`` can sample any action;
      ``illegal_action="raise"`` raises :class:`ActionError` (a ``ValueError``) instead, to debug an agent.
    - ``render_mode="ansi"``: :meth:`render` returns the grid as the terminal shows it and a line of symbols
      (:func:`status_text`); ``"rgb_array"``: a picture (:mod:`foursquare.rl.picture`), for videos of episodes.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}  # noqa: RUF012 - Gymnasium's class attribute

    def __init__(
        self,
        *,
        adjacency: Adjacency = "orthogonal",
        count_buried: bool = False,
        reward: str = "score",
        shaping: float = 0.0,
        illegal_action: str = "lose",
        illegal_reward: float = -1.0,
        split: str | None = None,
        expose_deal: bool = False,
        render_mode: str | None = None,
    ) -> None:
        self.settings = Settings.of(
            adjacency, count_buried, reward, shaping, illegal_action, illegal_reward, split, expose_deal
        )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'ansi' or 'rgb_array', not {render_mode!r}")
        self.render_mode = render_mode
        self.action_space = action_space()
        self.observation_space = observation_space()  # type: ignore[assignment]  # Box of int8
        # A batch of one, so that this environment runs the vector environment's compiled step.
        self._games = Games(1, self.settings)
        self._games.seed(secrets.randbits(64))
        self._actions = np.zeros(1, dtype=np.int64)
        self._moves: list[int] = []
        self._started = False
        self._over = False
        self._illegal_end = False  # the episode ended by an illegal action: the game itself goes on
        self._from_deal = True  # the stock is deals[0]'s (not one given by reset or restore)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsArray, dict[str, Any]]:
        """Start a game: deal ``options["deal"]``, or the stock ``options["stock"]`` (40 cards, names or
        :class:`~foursquare.cards.Card`), else the next deal of the split from the generator ``seed`` starts."""
        super().reset(seed=seed)
        options = options or {}
        unknown = sorted(set(options) - {"deal", "stock"})
        if unknown or len(options) > 1:
            raise ValueError(
                f"reset options {', '.join(map(repr, sorted(options)))}: give at most one of 'deal' and 'stock'"
            )
        games = self._games
        if seed is not None:
            games.seed(seed)
        stock = None
        if "stock" in options:
            stock = self.settings.stock_of_option(options["stock"])
            games.deals[0] = 0
        elif "deal" in options:
            games.deals[0] = self.settings.check_deal(deal_of_option(options["deal"]))
        else:
            games.draw()
        games.reset()
        if stock is not None:
            games.play_stock(0, stock)
        self._moves = []
        self._started = True
        self._over = False
        self._illegal_end = False
        self._from_deal = stock is None
        return games.obs[0].copy(), self._info()

    def step(self, action: np.int64 | int) -> tuple[ObsArray, SupportsFloat, bool, bool, dict[str, Any]]:
        """Lay the card to place on the cell ``action``."""
        if not self._started or self._over:
            raise EpisodeOverError("the episode is over (or not started): call reset() before step()")
        lose = self.settings.illegal_action == "lose"
        try:
            a = check_action(action)
        except ActionError:
            if not lose:
                raise
            a = -1  # out of range: the kernel ends the episode as for any illegal action
        games = self._games
        legal = a >= 0 and bool(games.masks[0, a])
        if not legal and not lose:
            raise ActionError(f"{self._illegal_text(a)}; the legal cells are {', '.join(self._legal_names())}")
        self._actions[0] = a
        games.step(self._actions)  # a single environment never autoresets: the episode ends first
        if legal:
            self._moves.append(a)
        self._illegal_end = not legal
        self._over = bool(games.terminated[0])
        info = self._info()
        if self._over:
            won, score = games.outcomes(games.terminated)  # an illegal action's ending: neither won nor scored
            info["won"], info["score"] = bool(won[0]), int(score[0])
        return games.obs[0].copy(), float(games.rewards[0]), self._over, False, info

    def action_masks(self) -> ObsArray:
        """The legal actions as an ``int8`` mask of 49 (what sb3-contrib's MaskablePPO asks for)."""
        mask: ObsArray = self._games.masks[0].copy()
        return mask

    def sample_stock(self, rng: np.random.Generator | int | None = None) -> tuple[Card, ...]:
        """A stock the player cannot tell from the real one: the cards laid and the card to place where they
        are, the unseen cards after them in a random order (``rng``: a numpy ``Generator`` or a seed). For
        search under hidden information: :meth:`restore` a :meth:`clone` with it, play on, restore again."""
        self._check_started("sample_stock")
        generator = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
        stock = self._games.stocks[0]
        seen = self._seen()
        return tuple(Card(int(c)) for c in (*stock[:seen], *generator.permutation(stock[seen:])))

    def clone(self) -> EnvState:
        """A copy of the environment's whole state (the game, its stock, the generator), for :meth:`restore`."""
        self._check_started("clone")
        flags = (self._started, self._over, self._illegal_end, self._from_deal)
        return EnvState(self.settings, self._games.snapshot(), tuple(self._moves), flags)

    def restore(self, state: EnvState, stock: Sequence[Card | str] | None = None) -> None:
        """Go back to a :meth:`clone` of an environment of the same options; with ``stock``, one that agrees
        with every card seen there (:meth:`sample_stock` gives one), the game goes on with that stock instead."""
        if not isinstance(state, EnvState) or state.settings != self.settings:
            raise SnapshotError("restore() takes a clone() of an environment with the same options")
        self._games.restore(state.arrays)
        self._moves = list(state.moves)
        self._started, self._over, self._illegal_end, self._from_deal = state.flags
        if stock is not None:
            cards = np.array(parse_stock(list(stock)), dtype=np.int8)
            seen = self._seen()
            if not np.array_equal(cards[:seen], self._games.stocks[0, :seen]):
                raise SnapshotError(f"the stock given differs from the game's in its first {seen} cards, already seen")
            self._games.stocks[0] = cards
            self._from_deal = self._from_deal and np.array_equal(cards, state.arrays["stocks"][0])

    def render(self) -> str | Picture | None:
        """The game as text (``"ansi"``: :func:`status_text`), as a picture (``"rgb_array"``: an ``(H, W, 3)``
        ``uint8`` array of :mod:`foursquare.rl.picture`, the same size every step), else nothing."""
        if self.render_mode is None or not self._started:
            return None
        game = self.game()
        if self.render_mode == "rgb_array":
            return picture(game.view(), lost=self._illegal_end)
        return status_text(game, lost=self._illegal_end)

    def game(self) -> Game:
        """The engine game of the current episode, replayed from its deal (or stock) and the actions taken."""
        if self._from_deal:
            game = Game(deal=int(self._games.deals[0]), variant=self.settings.variant)
        else:
            stock = [Card(int(c)) for c in self._games.stocks[0]]
            game = Game(stock=stock, variant=self.settings.variant)
        for a in self._moves:
            move = move_of_action(a)
            game.place(move.row, move.col)
        return game

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._games.masks[0].copy()}
        if self.settings.expose_deal:
            # numpy uint64 rather than int, so that SyncVectorEnv can batch deal numbers of up to 2**64 - 1
            info["deal"] = self._games.deals[0].copy()
        return info

    def _seen(self) -> int:
        """How many cards of the stock the player has seen: those laid, and the card to place while there is one."""
        state = self._games.states[0]
        return int(state[K.TURN]) + (1 if state[K.STATUS] == K.STATUS_PLAYING else 0)

    def _check_started(self, what: str) -> None:
        if not self._started:
            raise EpisodeOverError(f"call reset() before {what}()")

    def _legal_names(self) -> list[str]:
        return [action_name(int(a)) for a in np.flatnonzero(self._games.masks[0])]

    def _illegal_text(self, action: int) -> str:
        card = Card(int(self._games.stocks[0, len(self._moves)]))
        return f"action {action} ({action_name(action)}) is not a legal cell for the {card.name}"


def status_text(game: Game, lost: bool = False) -> str:
    """The grid as the terminal shows it (:func:`foursquare.grid_text.grid_text`), then a line of symbols and
    identifiers, no words (the environment is library code, read in any language):

    - ``→ 9D`` the card to place, while the game goes on; ``✓ 18`` a win and its score; ``✗`` a loss (``lost``:
      also one that an illegal action ended);
    - ``▮ 35`` the cards not yet laid, the card to place included;
    - ``▼ 3/4`` the face-down cards counting towards the limit, and the limit.

    >>> from foursquare.engine import Game
    >>> game = Game(deal=1)
    >>> _ = game.place(0, 0)
    >>> print(status_text(game), end="")
              D
       4     3S
    → AH   ▮ 39   ▼ 0/4
    """
    outcome = game.outcome()
    card = game.card_to_place
    if outcome.status == "won" and not lost:
        head = f"✓ {outcome.score}"
    elif lost or outcome.is_over or card is None:
        head = "✗"
    else:
        head = f"→ {card.name}"
    counts = f"{head}   ▮ {game.stock_left}   ▼ {game.face_down}/{MAX_FACE_DOWN}"
    return f"{grid_text(game)}\n{counts}\n" if game.turn else f"{counts}\n"


__all__ = ["EnvState", "EpisodeOverError", "FoursquareEnv", "SnapshotError", "status_text"]
