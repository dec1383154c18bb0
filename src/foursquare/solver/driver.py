"""The driver: ``solve`` and its ``Solution``, the probe, the deepening (alone or on threads), winnable deals.

Errors in what the caller asks raise :class:`SolverError` (a ``ValueError``); a line of the solver's
that does not replay through the engine is a bug, and raises ``RuntimeError``.

The search itself runs on a thread of its own while the caller's thread waits for it: an exception raised
in the waiting thread — ``KeyboardInterrupt`` at Ctrl-C, or a signal handler's — sets the search's stop flags
(which the compiled code looks at every ``CHECK_EVERY`` nodes), waits for the search to return, and goes on up.
A signal handler runs only on the main thread, between two instructions of Python: were the search on that
thread, the handler's exception would land in the compiled search's clock (numba's object mode), which cannot
pass it on (``SystemError: ... returned a result with an exception set``).
"""

from __future__ import annotations

import math
import os
import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.util import find_spec
from typing import Any, Literal, NamedTuple

import numpy as np

from foursquare import record
from foursquare.cards import DECK_SIZE, MAX_DEAL, Card, deal_stock
from foursquare.engine import Game, Move, Variant
from foursquare.errors import FoursquareError
from foursquare.solver.bits import IntArray
from foursquare.solver.frames import _frames, _Search
from foursquare.solver.position import COARSE_BITS, TT_BITS, _Tables
from foursquare.solver.search import ABORTED, EXACT, INF, RELAX_FROM

Status = Literal["optimal", "unwinnable", "bounds"]


class Best(NamedTuple):
    """A win found: its turn, and its moves from the position searched."""

    turn: int
    line: tuple[Move, ...]


class Found(NamedTuple):
    """What a stage of the solve settled: its status, the best win found, and the proven upper bound on the score."""

    status: Status
    best: Best | None
    upper: int

DEFAULT_VARIANT = Variant()
MAX_THREADS = 4  # the default's cap: the processors this process may use, at most this many
THREADS_LIMIT = 256  # the most threads a caller may ask for (each has its own search arrays)
NO_NODE_LIMIT = 1 << 62
INLINE_NODES = 1_000_000  # a node-bounded search this small runs on the caller's thread (solve_position)
SMALL_TABLE_BITS = 16  # the transposition table of solve_position(small=True): 2**16 entries
DEFAULT_TIMEOUT = 10.0  # seconds, when neither a timeout nor a node budget is given
#: The node budget of a reproducible solve: about 3 s of the deepening on one thread of the 2-core development
#: machine, then up to 20 units of the exact stage (at most about 24 s in all, for the 3 % of deals that reach it;
#: docs/solver.md). ``solve --nodes``, and the solver's studies, use it by default.
DEFAULT_NODES = 10_000_000
#: The node budget worth one unit of CP-SAT's deterministic time in the exact stage (each about a second of
#: one core here): a budget of N nodes gives the deepening N positions and the exact stage N / NODES_PER_WORK units.
#: Half a million, not a million: the hardest questions need 10-20 units (benchmarks/solver_history.md).
NODES_PER_WORK = 500_000
SEARCH_SHARE = 0.5  # of a timeout, for the probe and the deepening when the exact stage follows
PROBE_NODES = 1 << 15  # per frame and step of the probe
PROBE_SHARE = 0.1  # of the time and of the node budget, at most, for the probe
COMPILE_TABLE_BITS = 4  # the tables of the search that only compiles the code
COMPILE_DEADLINE = 3600.0
WINNABLE_TRIES = 50
WINNABLE_NODES = 1 << 20  # per candidate deal of random_winnable_deal: the same deal on any machine


class SolverError(FoursquareError):
    """The solver was asked about an impossible position or with bad limits."""


@dataclass(frozen=True)
class Solution:
    """What the solver knows about the best score of a position, the whole stock being known.

    ``line`` is the whole line from the first card (the given moves included) of the best win
    found. ``upper_bound`` is proven: no line scores more (``-1`` when no line wins at all).
    """

    status: Status
    best_score: int | None
    upper_bound: int
    line: tuple[Move, ...]
    proven: bool
    nodes: int
    seconds: float
    work: float = 0.0  # the exact stage's CP-SAT deterministic time, if it ran
    #: The exact stage would have settled the bounds, but OR-Tools (the ``exact`` extra) is not installed.
    exact_missing: bool = False

    @property
    def winnable(self) -> bool | None:
        """True when a win was found, False when proven unwinnable, None when unknown."""
        if self.best_score is not None:
            return True
        return False if self.status == "unwinnable" else None

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "proven": self.proven,
            "best_score": self.best_score,
            "upper_bound": self.upper_bound,
            "line": [m.to_json() for m in self.line],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
        }


_compiled = False


def _compile(game: Game) -> None:
    """Compile the search (or load it from numba's cache) before the clock starts, once per process.

    The first call of the search compiles it, which takes seconds (more when the on-disk cache is
    stale); that is not search time and must not eat into the caller's ``timeout``. A search with
    ``k`` = 0 returns at once but needs the very same machine code as any other.
    """
    global _compiled
    if not _compiled:
        frame = _frames(game)[0]
        search = _Search(game, frame, _Tables(bits=COMPILE_TABLE_BITS))
        search.run(0, time.perf_counter() + COMPILE_DEADLINE, 1, np.zeros(1, dtype=np.int64))
        _compiled = True


def default_threads() -> int:
    """The solver's threads by default: the processors this process may use, at most ``MAX_THREADS``."""
    try:
        available = len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        available = os.cpu_count() or 1
    return max(1, min(MAX_THREADS, available))


def _start(stock: Sequence[Card], variant: Variant, moves: Sequence[Move | tuple[int, int]]) -> Game:
    if len(stock) != DECK_SIZE:
        raise SolverError(f"the stock must hold the {DECK_SIZE} cards, not {len(stock)}")
    game = Game(stock=list(stock), variant=variant)
    for index, (row, col) in enumerate(moves):
        error = game.illegality(row, col)
        if error is not None:
            raise SolverError(f"move {index} ({row}, {col}) is illegal: {error.explanation}")
        game.place(row, col)
    return game


def _check_limits(timeout: float | None, max_nodes: int | None, threads: int | None) -> None:
    if timeout is not None and not timeout > 0:
        raise SolverError(f"timeout must be a positive number of seconds, not {timeout!r}")
    if max_nodes is not None and max_nodes < 1:
        raise SolverError(f"the node budget must be a positive number, not {max_nodes!r}")
    if threads is not None and not 1 <= threads <= THREADS_LIMIT:
        raise SolverError(f"the number of threads must be from 1 to {THREADS_LIMIT}, not {threads!r}")


class _Cancel:
    """A solve's stop request, made from another thread: the stop flags of the searches running at the time
    are set, and so is that of every search started after it (each search aborts at its next look)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._flags: list[IntArray] = []
        self._stops: list[Callable[[], None]] = []
        self.requested = False

    @contextmanager
    def flag(self) -> Iterator[IntArray]:
        """A stop flag for one search (one array, or one iteration on several threads), set if cancelled."""
        with self._lock:
            flag = np.full(1, int(self.requested), dtype=np.int64)
            self._flags.append(flag)
        try:
            yield flag
        finally:
            with self._lock:
                self._flags = [f for f in self._flags if f is not flag]

    @contextmanager
    def stopping(self, stop: Callable[[], None]) -> Iterator[None]:
        """Call ``stop`` (which stops the exact stage's solver) if cancelled while in this context."""
        with self._lock:
            self._stops.append(stop)
            requested = self.requested
        if requested:
            stop()
        try:
            yield
        finally:
            with self._lock:
                self._stops.remove(stop)

    def request(self) -> None:
        with self._lock:
            self.requested = True
            for flag in self._flags:
                flag[0] = 1
            for stop in self._stops:
                stop()


def _legal_line(game: Game, tail: Sequence[Move]) -> tuple[Move, ...] | None:
    """``tail``, or None when the line puts a card where the rules do not allow it (a win of the relaxed
    search). The line found last is checked in full once, by :func:`_checked_line`."""
    replay = game.copy()
    for move in tail:
        if move not in replay.legal_moves:
            return None
        replay.place(move.row, move.col)
    return tuple(tail)


def _checked_line(game: Game, tail: Sequence[Move], turn: int) -> tuple[Move, ...]:
    """Replay a found line through the engine: it must win after exactly ``turn`` cards."""
    replay = game.copy()
    for move in tail:
        replay.place(move.row, move.col)
    outcome = replay.outcome()
    if outcome.status != "won" or replay.turn != turn:
        raise RuntimeError(f"solver bug: its line does not win after {turn} cards ({outcome})")
    return tuple(replay.moves)


def _verdict(k: int, best: Best | None, aborted: bool) -> Found | None:
    """The deepening's one termination check, before each iteration: (status, best win, upper bound), or None
    to search iteration ``k`` (the least bound of the frames).

    A proof ends it — no frame can win (``k`` is ``INF``), or the best win found is no later than any frame
    allows —, and so does a search stopped by the clock or the node budget (``aborted``): then only the bound
    ``k`` is proven.
    """
    if k >= INF:
        return Found("unwinnable", None, -1)
    if best is not None and best.turn <= k:
        return Found("optimal", best, DECK_SIZE - best.turn)
    if aborted:
        return Found("bounds", best, DECK_SIZE - k)
    return None


@dataclass
class _Iteration:
    """What one iteration of the deepening found."""

    win: Best | None = None  # a win by the rules within k
    broken: bool = False  # a win of the relaxed search that breaks the rules: search k again by the rules
    aborted: bool = False  # stopped by the clock, the node budget or a win


class _Deepening:
    """The iterative deepening over the frames: each iteration ``k`` looks for a win within ``k`` cards."""

    def __init__(self, game: Game, searches: list[_Search], deadline: float, node_limit: int,
                 counters: IntArray, cancel: _Cancel | None = None) -> None:
        self.game = game
        self.searches = searches
        self.deadline = deadline
        self.node_limit = node_limit
        self.counters = counters
        self.cancel = cancel or _Cancel()

    def run(self, best: Best | None, iterate: Callable[[int, int], _Iteration]) -> Found:
        """Deepen with ``iterate(k, relax_from)`` until :func:`_verdict` ends it; k is always a proven lower bound
        on the winning turn of every frame. The relaxed search proves; once it finds a win that breaks the
        rules, the search keeps to the rules."""
        relax = RELAX_FROM
        aborted = False
        while True:
            k = min(search.bound for search in self.searches)
            verdict = _verdict(k, best, aborted)
            if verdict is not None:
                return verdict
            found = iterate(k, relax)
            aborted = found.aborted
            if found.win is not None:
                best = found.win
            elif found.broken:
                relax = EXACT  # the same k again, by the rules

    def alone(self, k: int, relax: int) -> _Iteration:
        """Iteration ``k`` on this thread, frame after frame."""
        for search in self.searches:
            if search.bound > k:
                continue
            with self.cancel.flag() as stop:
                value = search.run(k, self.deadline, self.node_limit, self.counters, stop=stop, relax_from=relax)
            if value == ABORTED:
                return _Iteration(aborted=True)
            if value <= k:
                line = _legal_line(self.game, search.moves(value))
                return _Iteration(broken=True) if line is None else _Iteration(win=Best(value, line))
            search.bound = value
        return _Iteration()


class _Crew:
    """Iterations on several threads: each searches its share of every frame (see ``_search``), with its own
    arrays and node counter, on the shared tables."""

    def __init__(self, deepening: _Deepening, tables: _Tables, threads: int, pool: ThreadPoolExecutor) -> None:
        game = deepening.game
        self.deepening = deepening
        self.searches = deepening.searches
        self.crews = [self.searches] + [[_Search(game, s.frame, tables) for s in self.searches]
                                        for _ in range(threads - 1)]
        self.counts = [np.zeros(1, dtype=np.int64) for _ in range(threads)]
        self.probe_nodes = int(deepening.counters[0])
        self.threads = threads
        self.pool = pool

    def share(self, owner: int, k: int, stop: IntArray, relax: int) -> list[int | None]:
        """Thread ``owner``'s share of iteration ``k``: its result per frame (None: frame not searched)."""
        d = self.deepening
        values: list[int | None] = []
        for f, search in enumerate(self.crews[owner]):
            if self.searches[f].bound > k:
                values.append(None)
                continue
            value = search.run(k, d.deadline, d.node_limit, self.counts[owner], owner, self.threads, stop, relax)
            values.append(value)
            if value == ABORTED or value <= k:
                break
        return values

    def iterate(self, k: int, relax: int) -> _Iteration:
        """Iteration ``k`` on every thread; a frame's new bound is the least of its threads' results."""
        n = self.threads
        with self.deepening.cancel.flag() as stop:
            shares = list(self.pool.map(self.share, range(n), [k] * n, [stop] * n, [relax] * n))
        self.deepening.counters[0] = self.probe_nodes + sum(int(c[0]) for c in self.counts)
        broken = False
        for owner, values in enumerate(shares):
            for f, got in enumerate(values):
                if got is not None and 0 <= got <= k:
                    line = _legal_line(self.deepening.game, self.crews[owner][f].moves(got))
                    if line is not None:
                        return _Iteration(win=Best(got, line))
                    broken = True
        if broken:
            return _Iteration(broken=True)
        if any(got == ABORTED for values in shares for got in values):
            return _Iteration(aborted=True)
        for f, search in enumerate(self.searches):
            if search.bound <= k:  # every thread searched its share of this frame
                search.bound = min(got for values in shares if (got := values[f]) is not None)
        return _Iteration()


def _probe(
    game: Game, searches: list[_Search], limits: tuple[float, int], node_limit: int, counters: IntArray,
    cancel: _Cancel,
) -> Best | None:
    """A short search for any win, most promising cells first, then for better and better wins with small node
    budgets, until ``limits`` (a deadline, a number of nodes) is reached: a good line to show if time runs out,
    and often the optimum itself, which then spares the last (and longest) deepening iterations. A frame it
    exhausts at some k gets that bound."""
    deadline, probe_nodes = limits
    best: Best | None = None
    k = DECK_SIZE
    while (k >= min(search.bound for search in searches) and counters[0] < probe_nodes
           and time.perf_counter() < deadline):
        found = False
        for search in searches:
            if search.bound > k:
                continue
            budget = min(node_limit, int(counters[0]) + PROBE_NODES)
            with cancel.flag() as stop:
                value = search.run(k, deadline, budget, counters, stop=stop)
            if cancel.requested:
                return best
            if 0 <= value <= k:
                best = Best(value, tuple(search.moves(value)))  # by the rules: checked once, at the end
                found = True
                break
            if value > k:
                search.bound = value  # the probe exhausted the frame at this k: a proven bound
        if not found:
            return best
        k = best.turn - 1 if best is not None else k
    return best


def solve(
    stock: Sequence[Card],
    variant: Variant = DEFAULT_VARIANT,
    *,
    moves: Sequence[Move | tuple[int, int]] = (),
    timeout: float | None = None,
    max_nodes: int | None = None,
    threads: int | None = None,
    exact: bool = True,
) -> Solution:
    """The best score reachable from the position after ``moves``, the whole ``stock`` order known.

    Returns the optimum with a line reaching it, or a proof that no line wins, or — when ``timeout``
    seconds pass first, or ``max_nodes`` positions were examined (give or take a few thousand) — the best
    line found and a proven upper bound. With a node budget and no timeout the search never looks at the
    clock, so the answer is the same on any machine, however busy (:data:`DEFAULT_NODES` takes at most
    about 24 s here, 3 s without the exact stage); with neither, the timeout is :data:`DEFAULT_TIMEOUT`.
    The deepening runs on ``threads`` threads (default: :func:`default_threads`; one with a node budget), at
    most :data:`THREADS_LIMIT`. The search runs on a thread of its own: an exception that interrupts the caller's
    wait for it (``KeyboardInterrupt``) stops it within a few thousand positions, and is raised once it has stopped.

    What the deepening leaves open, the exact stage settles if it can (``exact``, :func:`_exact_stage`): it gets
    ``max_nodes / NODES_PER_WORK`` units of CP-SAT's deterministic time, and the deepening only
    :data:`SEARCH_SHARE` of a ``timeout``. ``exact=False`` is the deepening alone, with all the time.
    """
    game = _start(stock, variant, moves)
    return solve_position(game, timeout=timeout, max_nodes=max_nodes, threads=threads, exact=exact)


def solve_position(
    game: Game,
    *,
    timeout: float | None = None,
    max_nodes: int | None = None,
    threads: int | None = None,
    small: bool = False,
    exact: bool = True,
) -> Solution:
    """:func:`solve` from ``game``'s position, its stock known: a game played so far, or one stock a player
    imagines (:meth:`Game.from_view`), whose line then starts at the view. ``game`` is not changed.

    ``small`` gives the search tables of 2**16 and 2**19 entries instead of 2**21 and 2**24: a search of a few
    thousand positions, as a player makes many of, would otherwise spend most of its time on fresh tables.
    """
    _check_limits(timeout, max_nodes, threads)
    if timeout is None and max_nodes is None:
        timeout = DEFAULT_TIMEOUT
    n_threads = 1 if max_nodes is not None else (threads if threads is not None else default_threads())
    cancel = _Cancel()
    if _compiled and timeout is None and max_nodes is not None and max_nodes <= INLINE_NODES and not exact:
        # Milliseconds of search, which a Ctrl-C may wait for: a thread of their own would cost the expert a
        # fifth of its time. Never before the compile: a Ctrl-C inside numba's compiler leaves it broken.
        return _solve(game, (None, max_nodes), 1, (small, exact), cancel)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="foursquare-solve") as runner:
        try:
            return runner.submit(_solve, game, (timeout, max_nodes), n_threads, (small, exact), cancel).result()
        except BaseException:  # Ctrl-C, a signal handler's exception: stop the search, and wait for it to stop
            cancel.request()
            raise


def _solve(
    game: Game, limits: tuple[float | None, int | None], n_threads: int, options: tuple[bool, bool], cancel: _Cancel
) -> Solution:
    """:func:`solve`'s work, on its own thread; ``cancel`` stops it. Without a timeout, no deadline. ``options``:
    small tables, the exact stage."""
    timeout, max_nodes = limits
    small, exact = options
    node_limit = NO_NODE_LIMIT if max_nodes is None else max_nodes
    seconds = math.inf if timeout is None else timeout
    # On this thread: a Ctrl-C raised inside numba's compiler (in an LLVM callback) is swallowed there and leaves the
    # compile broken, an internal error. So a Ctrl-C during the first compile acts once the compile is done.
    _compile(game)
    started = time.perf_counter()
    counters = np.zeros(1, dtype=np.int64)

    def result(status: Status, best: Best | None, upper: int, work: float = 0.0, missing: bool = False) -> Solution:
        return Solution(
            status=status,
            best_score=None if best is None else DECK_SIZE - best.turn,
            upper_bound=upper,
            line=() if best is None else _checked_line(game, best.line, best.turn),
            proven=status != "bounds",
            nodes=int(counters[0]),
            seconds=time.perf_counter() - started,
            work=work,
            exact_missing=missing,
        )

    outcome = game.outcome()
    if outcome.status == "won":
        return result("optimal", Best(game.turn, ()), DECK_SIZE - game.turn)
    if outcome.status == "lost":
        return result("unwinnable", None, -1)
    tables = _Tables(SMALL_TABLE_BITS, SMALL_TABLE_BITS + COARSE_BITS - TT_BITS) if small else _Tables()
    searches = [_Search(game, frame, tables) for frame in _frames(game)]
    probe_limits = (started + PROBE_SHARE * seconds, int(PROBE_SHARE * node_limit))
    best = _probe(game, searches, probe_limits, node_limit, counters, cancel)
    search_seconds = SEARCH_SHARE * seconds if exact else seconds
    deepening = _Deepening(game, searches, started + search_seconds, node_limit, counters, cancel)
    if n_threads == 1:
        found = deepening.run(best, deepening.alone)
    else:
        with ThreadPoolExecutor(max_workers=n_threads) as pool:
            found = deepening.run(best, _Crew(deepening, tables, n_threads, pool).iterate)
    if exact and found.status == "bounds":
        if not exact_stage_installed():
            return result(*found, missing=True)  # the bounds stay proven: only the optimum is left unsettled
        work = math.inf if max_nodes is None else max_nodes / NODES_PER_WORK
        return result(*_exact_stage(game, found, work, started + seconds, cancel))
    return result(*found)


def exact_stage_installed() -> bool:
    """Whether OR-Tools, the exact stage's CP-SAT (the ``exact`` extra), is installed."""
    return find_spec("ortools") is not None


def _exact_stage(
    game: Game, found: Found, work: float, deadline: float, cancel: _Cancel
) -> tuple[Status, Best | None, int, float]:
    """Settle what the deepening left open with CP-SAT (:mod:`~foursquare.solver.sat`): for each turn ``k`` from
    the earliest a win may come, "a win after exactly k cards?", until one is found (the optimum), the best win
    found is reached, or ``work`` units of deterministic time (or the ``deadline``) are spent. Returns the
    status, the best win, the upper bound and the work spent."""
    _, best, upper = found
    k = DECK_SIZE - upper  # no win comes before turn k
    spent = 0.0
    while best is None or k < best.turn:
        if k > DECK_SIZE:
            return "unwinnable", None, -1, spent
        seconds = deadline - time.perf_counter()
        if spent >= work or seconds <= 0 or cancel.requested:
            return "bounds", best, DECK_SIZE - k, spent
        from foursquare.solver import sat  # OR-Tools (and pandas) take half a second to import: only when needed

        model = sat.WinModel(game, k)
        with cancel.stopping(model.stop):
            answer = model.solve(work - spent, None if math.isinf(seconds) else seconds)
        spent += answer.work
        if answer.verdict == "win":
            return "optimal", Best(k, answer.line), DECK_SIZE - k, spent
        if answer.verdict == "unknown":
            return "bounds", best, DECK_SIZE - k, spent
        k += 1
    return "optimal", best, DECK_SIZE - best.turn, spent


def random_winnable_deal(variant: Variant = DEFAULT_VARIANT, *, seed: int | None = None, timeout: float = 10.0) -> int:
    """A deal number, drawn at random (reproducibly with ``seed``), that the solver proves winnable.

    A deal counts as proven winnable as soon as the solver finds a win (replayed through the engine);
    the optimum need not be proven. Each candidate gets a fixed node budget (so that a seed gives the
    same deal on any machine) and at most ``timeout`` seconds.
    """
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    for _ in range(WINNABLE_TRIES):
        deal = rng.randrange(MAX_DEAL)
        found = solve(deal_stock(deal), variant, timeout=timeout, max_nodes=WINNABLE_NODES, exact=False)
        if found.best_score is not None:
            return deal
    raise SolverError(f"no deal proven winnable within {WINNABLE_TRIES} tries; try again with a longer timeout")


def solution_json(solution: Solution, game: Game) -> dict[str, Any]:
    """The ``solve --json`` document: the solution, the deal, the line's cell names, and a full game record of
    the line."""
    data: dict[str, Any] = {"deal": game.deal}
    data.update(solution.to_json())
    data["line_cells"] = [move.name for move in solution.line]  # the line for a person: "D4", "E4", ...
    data["record"] = None
    if solution.line:
        if game.deal is not None:
            won = Game(deal=game.deal, variant=game.variant)
        else:
            won = Game(stock=list(game.stock), variant=game.variant)
        for move in solution.line:
            won.place(move.row, move.col)
        data["record"] = record.to_json(won)
    return data
