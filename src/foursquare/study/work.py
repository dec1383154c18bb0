"""What a study computes for one deal: a solver row or a player's game, the same on any worker.

A solver row is what ``foursquare solve --deal N --nodes N --json`` computes (on one thread, since the
workers are the parallelism): with a node budget and no timeout, the same on any machine, however busy. A player
row is the game of a fresh player seeded with the study's seed, so it is the game of ``foursquare autoplay
--deal N --seed S``: whichever process plays it, it is the same.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from foursquare.engine import Game, Variant
from foursquare.errors import FoursquareError

MAX_SEED = 2**64 - 1  # the players mix their seed into 64-bit random streams
MAX_NODE_BUDGET = 1 << 50  # the solver's positions per deal: a year of one thread, far beyond any use
What = Literal["solver", "expert", "best", "greedy", "random"]
WHATS: tuple[What, ...] = ("solver", "expert", "best", "greedy", "random")
PLAYERS = ("expert", "best", "greedy", "random")


class StudyError(FoursquareError):
    """A study cannot be run, read or written as asked (bad settings, deals, database, file or scheduler).

    Besides its English text, for developers, it says what is wrong in a form a front end can put in its
    user's words: ``code`` (empty when the front end prevents the case) and ``params``, the details. The codes:
    ``no_scheduler`` (``scheduler``, ``seconds``, ``error``), ``no_worker`` (``scheduler``, ``seconds``),
    ``chunk_dropped`` (``error``), ``cannot_open`` (``path``, ``error``), ``not_a_study_db`` (``path``),
    ``format_version`` (``path``, ``found``, ``expected``), ``busy`` (``path``, ``error``), ``read_only``
    (``path``: a store opened read-only was asked to write), ``cannot_write`` (``path``: a good study database
    that this process cannot write, on read-only storage), ``needs_pyarrow``, ``bad_seed`` (``seed``, ``max``),
    and reading rows back (:mod:`~foursquare.study.importing`): ``no_such_file``, ``cannot_read`` (``path``,
    ``error``), ``too_large`` (``path``, ``limit``),
    ``unknown_format`` (``path``), ``not_json`` (``path``, ``line``), ``missing_field`` and ``bad_field``
    (``path``, ``line``, ``field``; ``value`` for the latter), ``duplicate`` (``path``, ``line``, ``deal``,
    ``first``: the line that gave it first).
    """


@dataclass(frozen=True)
class StudySettings:
    """What a study computes: the same settings always name the same study in a store.

    ``node_budget`` (positions per deal) and ``timeout`` (seconds per deal) are the solver's: given neither,
    the solver gets :data:`foursquare.solver.DEFAULT_NODES` and no clock, so that its rows are the same on any
    machine; a timeout makes them depend on the machine's speed. ``seed`` and ``time_budget`` (seconds per
    move, the ``best`` player's) are the players'. Settings that do not apply are normalised away so that they
    cannot split one study into two.
    """

    what: What
    variant: Variant = field(default_factory=Variant)
    timeout: float | None = None
    seed: int = 0
    time_budget: float | None = None
    node_budget: int | None = None

    def __post_init__(self) -> None:
        if self.what not in WHATS:
            raise StudyError(f"a study computes one of {', '.join(WHATS)}, not {self.what!r}")
        if self.what == "solver":
            self._normalise_solver_limits()
            object.__setattr__(self, "seed", 0)
            object.__setattr__(self, "time_budget", None)
        else:
            if isinstance(self.seed, bool) or not isinstance(self.seed, int) or not 0 <= self.seed <= MAX_SEED:
                raise StudyError(
                    f"a player's seed is a whole number from 0 to {MAX_SEED}, not {self.seed!r}",
                    "bad_seed",
                    seed=str(self.seed),
                    max=str(MAX_SEED),
                )
            object.__setattr__(self, "timeout", None)
            object.__setattr__(self, "node_budget", None)
            if self.what != "best":
                object.__setattr__(self, "time_budget", None)

    def _normalise_solver_limits(self) -> None:
        if self.timeout is not None:
            if not float(self.timeout) > 0:
                raise StudyError(f"the solver's timeout must be positive, not {self.timeout!r}")
            object.__setattr__(self, "timeout", float(self.timeout))
        budget = self.node_budget
        if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int)
                                   or not 1 <= budget <= MAX_NODE_BUDGET):
            raise StudyError(f"the solver's node budget is a whole number from 1 to {MAX_NODE_BUDGET}, not {budget!r}")
        if self.timeout is None and budget is None:
            from foursquare.solver.driver import DEFAULT_NODES  # not the package: numba compiles on import

            object.__setattr__(self, "node_budget", DEFAULT_NODES)

    @property
    def is_solver(self) -> bool:
        return self.what == "solver"

    def to_json(self) -> dict[str, Any]:
        """The settings as stored and reported (``variant`` apart, which reports keep on its own)."""
        if self.is_solver:  # the limits given, and only those: a study of 10 s keeps the key it always had
            limits = {"timeout": self.timeout, "node_budget": self.node_budget}
            return {k: v for k, v in limits.items() if v is not None}
        data: dict[str, Any] = {"seed": self.seed}
        if self.what == "best":
            data["time_budget"] = self.time_budget
        return data

    def key(self) -> str:
        """The canonical text that identifies the study in a store."""
        data = {"what": self.what, "variant": self.variant.to_json(), **self.to_json()}
        return json.dumps(data, sort_keys=True)

    @classmethod
    def from_key(cls, key: str) -> StudySettings:
        data = json.loads(key)
        return cls(
            what=data["what"],
            variant=Variant(**data["variant"]),
            timeout=data.get("timeout"),
            seed=data.get("seed", 0),
            time_budget=data.get("time_budget"),
            node_budget=data.get("node_budget"),
        )


@dataclass(frozen=True)
class DealResult:
    """One deal's result, named as ``solve --json`` and ``autoplay`` name them.

    For the solver ``status`` is ``optimal`` / ``unwinnable`` / ``bounds``, ``score`` the best score found
    (``best_score``), ``upper_bound`` the proven bound, ``nodes`` the positions searched. For a player
    ``status`` is the outcome ``won`` / ``lost``, ``score`` the game's score (0 for a loss) and ``moves`` the
    cards played. ``seconds`` is the solver's time, or the player's thinking time over the whole game.
    """

    deal: int
    status: str
    score: int | None
    seconds: float
    upper_bound: int | None = None
    nodes: int | None = None
    moves: int | None = None


_warm: set[str] = set()


def warm_up(what: What) -> None:
    """Compile (or load from numba's cache) what ``what`` needs, once per process, before any clock starts."""
    if what in _warm:
        return
    if what == "solver":
        from foursquare.solver import solve

        solve(Game(deal=1).stock, timeout=0.05, threads=1)
    else:
        from foursquare import players

        players.warm_up(what)
    _warm.add(what)


def compute_deal(settings: StudySettings, deal: int) -> DealResult:
    """The row of one deal."""
    game = Game(deal=deal, variant=settings.variant)
    if settings.is_solver:
        from foursquare.solver import solve

        solution = solve(game.stock, settings.variant, timeout=settings.timeout, max_nodes=settings.node_budget,
                         threads=1)
        return DealResult(
            deal=deal,
            status=solution.status,
            score=solution.best_score,
            seconds=solution.seconds,
            upper_bound=solution.upper_bound,
            nodes=solution.nodes,
        )
    from foursquare.players import make_player, play_game

    player = make_player(settings.what, seed=settings.seed, time_budget=settings.time_budget)
    result = play_game(player, game)
    return DealResult(
        deal=deal,
        status="won" if result.won else "lost",
        score=result.score,
        seconds=sum(result.move_seconds),
        moves=result.moves,
    )


def compute_chunk(settings: StudySettings, deals: Sequence[int]) -> list[DealResult]:
    """The rows of a chunk of deals, in order (the task a worker runs)."""
    warm_up(settings.what)
    return [compute_deal(settings, deal) for deal in deals]


__all__ = [
    "MAX_NODE_BUDGET",
    "MAX_SEED",
    "PLAYERS",
    "WHATS",
    "DealResult",
    "StudyError",
    "StudySettings",
    "What",
    "compute_chunk",
    "compute_deal",
    "warm_up",
]
