"""The agents of the benchmark's ladder (docs/benchmark.md), and an agent of one's own from Python code.

One name per agent:

``random``, ``greedy``, ``best``, ``expert``
    the players of :mod:`foursquare.players` (``expert``: hindsight over stocks drawn from the unseen cards; it
    wins every one of deals 1–1,000);
``rollout``
    the ``best`` player's rollout policy alone, the move of :meth:`FoursquareVectorEnv.rollout_actions
    <foursquare.rl.FoursquareVectorEnv.rollout_actions>` (about 83 % of deals won);
``solver``
    the solver *knowing the stock*: the upper bound of the ladder, not a player (:data:`SEES_STOCK`).

Any other agent is Python code, named ``module:name`` or ``path/to/file.py:name``; ``name`` is

- a function ``policy(observation, action_mask) -> action``, given what :class:`~foursquare.rl.FoursquareEnv`
  gives (the ``int8`` observation and mask; the action a cell 0–48), called for every move;
- or a class, made anew for each deal with no arguments, whose instances are such a function (``__call__``) or
  a player of :mod:`foursquare.players` (``choose(view) -> Move``);
- or an object with ``choose(view) -> Move``, used for every deal.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from foursquare import kernel as K
from foursquare.engine import Game, Move, View
from foursquare.errors import FoursquareError
from foursquare.players import PLAYER_NAMES, GameResult, Player, make_player, play_game
from foursquare.rl.players import PolicyPlayer

#: The agents known by name, in the ladder's order.
AGENT_NAMES = ("random", "greedy", "rollout", "best", "expert", "solver")
#: The agents that see the stock: bounds, not players.
SEES_STOCK = frozenset({"solver"})


class AgentError(FoursquareError):
    """An agent that cannot be found or used. Codes: ``unknown_agent`` (``agent``, ``names``), ``no_file``
    (``path``), ``no_module`` (``module``), ``load_failed`` (``target``, ``error``), ``no_attribute``
    (``target``, ``attribute``), ``not_a_policy`` (``agent``), ``failed`` (``agent``, ``deal``, ``error``: it
    raised, or chose an illegal cell), ``one_process`` (``agent``, ``names``)."""


class RolloutPlayer:
    """The ``best`` player's rollout policy as a player: the kernel's
    :func:`~foursquare.kernel.policies.policy_choice` on the view (the board and the card to place)."""

    name = "rollout"

    def __init__(self) -> None:
        self._moves = np.empty(K.MAX_MOVES, dtype=np.int64)
        self._work = np.empty(K.STATE_SIZE, dtype=np.int8)

    def choose(self, view: View) -> Move:
        state = K.state_of_view(view)
        n = K.legal(state, self._moves)
        cell = K.policy_choice(state, int(view.card), self._moves, n, K.POLICY_WEIGHTS, self._work)  # type: ignore[arg-type]
        return K.move_of(cell)


@dataclass(frozen=True)
class Agent:
    """An agent ready to play deals: its name, how it was given, and what it plays a game with."""

    name: str
    spec: str
    sees_stock: bool
    #: A fresh player for each deal (``seed`` is the built-in players' seed); ``None`` for the solver.
    make: Callable[[int], Player] | None

    def play(self, game: Game, seed: int = 0) -> GameResult:
        """Play ``game`` to its end (the solver reads its stock; every other agent sees only views)."""
        if self.make is None:
            return play_knowing_the_stock(game)
        return play_game(self.make(seed), game)


def play_knowing_the_stock(game: Game) -> GameResult:
    """The solver's best line of ``game``, its stock known, under the studies' default node budget; its
    search's time counts as the first move's."""
    from foursquare.solver import DEFAULT_NODES, solve  # the solver compiles: only for the agent using it

    start = time.perf_counter()
    solution = solve(game.stock, game.variant, max_nodes=DEFAULT_NODES)
    seconds = time.perf_counter() - start
    for move in solution.line:
        game.place(move.row, move.col)
    outcome = game.outcome()
    times = (seconds,) + (0.0,) * max(game.turn - 1, 0)
    return GameResult(game.deal or 0, outcome.status == "won", outcome.score or 0, game.turn, times)


def load_agent(spec: str, name: str | None = None) -> Agent:
    """The agent ``spec`` names: one of :data:`AGENT_NAMES`, ``module:attribute`` or ``file.py:attribute``."""
    if spec in AGENT_NAMES:
        return _known(spec, name or spec)
    module_name, colon, attribute = spec.rpartition(":")
    if not colon or not module_name or not attribute:
        names = ", ".join(AGENT_NAMES)
        raise AgentError(
            f"agent {spec!r} is not one of {names} nor module:name or path/to/file.py:name",
            "unknown_agent",
            agent=spec,
            names=names,
        )
    target = _attribute(_module(module_name), attribute, spec)
    return Agent(name or attribute, spec, False, _maker(target, spec))


def _known(spec: str, name: str) -> Agent:
    if spec == "solver":
        return Agent(name, spec, True, None)
    if spec == "rollout":
        return Agent(name, spec, False, lambda seed: RolloutPlayer())
    assert spec in PLAYER_NAMES
    return Agent(name, spec, False, lambda seed: make_player(spec, seed=seed))


def _module(text: str) -> Any:
    if text.endswith(".py"):
        path = Path(text)
        if not path.is_file():
            raise AgentError(f"no Python file {text}", "no_file", path=text)
        module_name = f"foursquare_agent_{abs(hash(path.resolve()))}"
        spec = importlib.util.spec_from_file_location(module_name, path)
        if spec is None or spec.loader is None:
            raise AgentError(f"cannot load {text} as Python", "no_file", path=text)
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module  # dataclasses and pickling look their module up there
        try:
            spec.loader.exec_module(module)
        except Exception as exc:  # the agent's own code failed: say where, not our traceback
            raise _load_failed(text, exc) from exc
        return module
    try:
        return importlib.import_module(text)
    except ModuleNotFoundError as exc:
        if exc.name is not None and text.startswith(exc.name):  # the module itself, not one it imports
            raise AgentError(f"no module {text}", "no_module", module=text) from None
        raise _load_failed(text, exc) from exc
    except Exception as exc:
        raise _load_failed(text, exc) from exc


def _load_failed(target: str, exc: Exception) -> AgentError:
    error = f"{type(exc).__name__}: {exc}"
    return AgentError(f"{target} failed to load: {error}", "load_failed", target=target, error=error)


def _attribute(module: Any, attribute: str, spec: str) -> Any:
    target = module
    for part in attribute.split("."):
        if not hasattr(target, part):
            where = spec.rpartition(":")[0]
            raise AgentError(f"{where} has no {attribute}", "no_attribute", target=where, attribute=attribute)
        target = getattr(target, part)
    return target


def _maker(target: Any, spec: str) -> Callable[[int], Player]:
    """How to get a player for a deal from the object the user named."""
    if isinstance(target, type):

        def fresh(seed: int) -> Player:
            return _as_player(target(), spec)

        return fresh
    player = _as_player(target, spec)
    return lambda seed: player


def _as_player(target: Any, spec: str) -> Player:
    if callable(getattr(target, "choose", None)):
        return target  # type: ignore[no-any-return]
    if callable(target):
        return PolicyPlayer(target, name=spec)
    raise AgentError(
        f"{spec} is neither a function policy(observation, mask) -> action nor has choose(view)",
        "not_a_policy",
        agent=spec,
    )


__all__ = [
    "AGENT_NAMES",
    "SEES_STOCK",
    "Agent",
    "AgentError",
    "RolloutPlayer",
    "load_agent",
    "play_knowing_the_stock",
]
