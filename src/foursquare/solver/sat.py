"""The exact stage: "can this position be won with exactly ``k`` cards laid?" as a constraint model for CP-SAT.

The deepening search (:mod:`~foursquare.solver.search`) proves most deals in a fraction of a second, but a few in
a hundred need hundreds of millions of positions to show that no win comes one card sooner: it enumerates,
and the subtrees that differ only in when the spare card comes are searched again and again. OR-Tools' CP-SAT
learns a clause from every conflict instead, and refutes those same questions in about a second. The driver
asks it when the search's budget is spent (docs/solver.md, *The exact stage*).

The model is the rules of ``docs/rules.md`` over the cards still to come, one step per card, in the frame
coordinates of :mod:`~foursquare.solver.frames`: from the first card, one 4×4 frame whose first cell is a corner,
an edge or a middle cell (the square's symmetries); from a later position, the area every frame that holds the
occupied cells covers, with one Boolean per frame. Per step and cell: the card goes there (``x``), the cell is
occupied, its top is face up, and its top's rank is at least ``v`` for v = 2..10. Two kinds of constraints
only help the solver, both implied by the rules: the counts of cells and of cards on piles a win in ``k``
allows, and the parities of the line toggles to come (what :mod:`~foursquare.solver.parity` tests), as one
Boolean per line and step.

CP-SAT runs on one worker with a limit on its *deterministic time* (a count of its work, in units of about a
second here), so that an answer depends neither on the machine nor on its load.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from ortools.sat.python import cp_model, cp_model_helper

from foursquare.engine import GRID, MAX_FACE_DOWN, PILE_CAP, WINNING_CELLS, Game, Move

Verdict = Literal["win", "none", "unknown"]
Lit = cp_model_helper.Literal  # a Boolean variable or its negation
TOP_RANK = 10
FIRST_CELLS = ((0, 0), (0, 1), (1, 1))  # the first card on a corner, an edge, a middle cell of the frame


@dataclass(frozen=True)
class Answer:
    """CP-SAT's answer: ``"win"`` with the ``line`` of moves from the position (turn ``k`` wins), ``"none"``
    (proven: no win with exactly ``k`` cards laid) or ``"unknown"`` (a limit came first); ``work`` is the
    deterministic time it spent."""

    verdict: Verdict
    line: tuple[Move, ...]
    work: float


@dataclass(frozen=True)
class _Area:
    """The cells a win from the position may use, as (row, col) in the game's coordinates, and its frames."""

    cells: tuple[tuple[int, int], ...]
    frames: tuple[frozenset[int], ...]  # the cells of each 4×4 frame that holds the occupied cells
    first: tuple[int, ...]  # the cells the first card may take (only before the first card)

    @classmethod
    def of(cls, game: Game) -> _Area:
        bounds = game.bounds()
        if bounds is None:  # one frame: its cells relative to the first card are fixed by where that card goes
            cells = tuple((r, c) for r in range(GRID) for c in range(GRID))
            return cls(cells, (frozenset(range(len(cells))),), tuple(cells.index(cell) for cell in FIRST_CELLS))
        top, bottom, left, right = bounds
        cells = tuple(
            (r, c) for r in range(bottom - GRID + 1, top + GRID) for c in range(right - GRID + 1, left + GRID)
        )
        frames = tuple(
            frozenset(i for i, (r, c) in enumerate(cells) if r0 <= r < r0 + GRID and c0 <= c < c0 + GRID)
            for r0 in range(bottom - GRID + 1, top + 1)
            for c0 in range(right - GRID + 1, left + 1)
        )
        return cls(cells, frames, ())

    def lines(self) -> list[list[int]]:
        """The area's rows, then its columns, as lists of cells."""
        rows = sorted({r for r, _ in self.cells})
        cols = sorted({c for _, c in self.cells})
        return [[i for i, cell in enumerate(self.cells) if cell[0] == r] for r in rows] + [
            [i for i, cell in enumerate(self.cells) if cell[1] == c] for c in cols
        ]

    def neighbours(self, i: int, steps: Iterable[tuple[int, int]]) -> list[int]:
        r, c = self.cells[i]
        near = {(r + dr, c + dc) for dr, dc in steps}
        return [j for j, cell in enumerate(self.cells) if cell in near]


@dataclass
class _State:
    """The grid after a step: per cell, occupied, top face up, top rank ≥ v (v = 2..10)."""

    occupied: list[Lit]
    up: list[Lit]
    at_least: list[dict[int, Lit]]


class WinModel:
    """The question "is there a win with exactly ``k`` cards laid?" from ``game``'s position, ready to solve.

    ``game`` is not over and ``k`` leaves at least one card to lay for every empty cell of a frame.
    """

    def __init__(self, game: Game, k: int) -> None:
        self._game = game
        self._steps = k - game.turn
        self._ranks = [card.rank for card in game.stock[game.turn : k]]
        self._area = _Area.of(game)
        self._lines = self._area.lines()
        self._model = cp_model.CpModel()
        self._solver = cp_model.CpSolver()
        self._x: list[list[Lit]] = []
        self._fires: list[list[Lit]] = []  # per step, per line: the card toggles that line
        self._stopped = False
        # CP-SAT's own stop works only once its search exists; its log's first line comes as it starts, so a
        # stop asked for just before is acted on there. The log changes neither the answer nor the work.
        self._solver.parameters.log_search_progress = True
        self._solver.parameters.log_to_stdout = False
        self._solver.parameters.catch_sigint_signal = False  # Ctrl-C is the program's (driver._Cancel stops CP-SAT)
        self._solver.log_callback = self._on_log
        self._build()

    def solve(self, work: float, seconds: float | None = None) -> Answer:
        """Solve on one worker within ``work`` units of deterministic time (and ``seconds``, if given)."""
        if self._stopped:
            return Answer("unknown", (), 0.0)
        parameters = self._solver.parameters
        parameters.num_workers = 1
        parameters.max_deterministic_time = work
        if seconds is not None:
            parameters.max_time_in_seconds = seconds
        status = self._solver.solve(self._model)
        spent = self._solver.deterministic_time
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Answer("win", self._line(), spent)
        return Answer("none" if status == cp_model.INFEASIBLE else "unknown", (), spent)

    def stop(self) -> None:
        """Stop a solve running on another thread, or about to start (it then answers ``"unknown"``)."""
        self._stopped = True
        self._solver.stop_search()  # a no-op before the search exists: hence the flag, read by solve and the log

    def _on_log(self, _line: str) -> None:
        if self._stopped:
            self._solver.stop_search()

    def _line(self) -> tuple[Move, ...]:
        cells = [self._area.cells[self._placed(step)] for step in range(self._steps)]
        if self._game.turn == 0:  # frame coordinates: the first card is the game's cell (0, 0)
            row0, col0 = cells[0]
            return tuple(Move(r - row0, c - col0) for r, c in cells)
        return tuple(Move(r, c) for r, c in cells)

    def _placed(self, step: int) -> int:
        return next(i for i, x in enumerate(self._x[step]) if self._solver.boolean_value(x))

    # The model.

    def _build(self) -> None:
        state = self._initial_state()
        in_frame = self._frame_choice()
        states = [state]
        for step, rank in enumerate(self._ranks):
            x: list[Lit] = [self._model.new_bool_var(f"x{step}_{i}") for i in range(len(self._area.cells))]
            self._model.add_exactly_one(x)
            for i in range(len(x)):
                self._model.add_implication(x[i], in_frame[i])
            self._x.append(x)
            self._add_placement_rules(step, x, state)
            state = self._next_state(x, rank, state)
            states.append(state)
        self._add_face_down_limits(states)
        self._add_win(states[-1], in_frame)
        self._add_counts(states)
        self._add_parities(states)

    def _constant(self, value: bool) -> Lit:
        return self._model.new_constant(int(value))

    def _initial_state(self) -> _State:
        piles = {(cell.row, cell.col): cell for cell in self._game.cells()}
        occupied, up, at_least = [], [], []
        for cell in self._area.cells:
            pile = piles.get(cell)
            occupied.append(self._constant(pile is not None))
            up.append(self._constant(pile is not None and pile.top_face_up))
            rank = 0 if pile is None else pile.top.rank
            at_least.append({v: self._constant(rank >= v) for v in range(2, TOP_RANK + 1)})
        return _State(occupied, up, at_least)

    def _frame_choice(self) -> list[Lit]:
        """Per cell, a literal true when the chosen frame holds it."""
        frames = self._area.frames
        if len(frames) == 1:
            return [self._constant(True) for _ in self._area.cells]
        chosen: list[Lit] = [self._model.new_bool_var(f"frame{f}") for f in range(len(frames))]
        self._model.add_exactly_one(chosen)
        in_frame = []
        for i in range(len(self._area.cells)):
            holders = [chosen[f] for f, frame in enumerate(frames) if i in frame]
            in_frame.append(self._any(holders))
        return in_frame

    def _add_placement_rules(self, step: int, x: list[Lit], before: _State) -> None:
        """Where the card may go: the first on a first cell; later ones on a pile below the cap or next to one."""
        if self._game.turn == 0 and step == 0:
            for i in range(len(x)):
                if i not in self._area.first:
                    self._model.add(x[i] == 0)
            return
        for i in range(len(x)):
            near = [before.occupied[j] for j in self._area.neighbours(i, self._game.variant.steps)]
            self._model.add_bool_or([before.occupied[i], *near]).only_enforce_if(x[i])

    def _next_state(self, x: list[Lit], rank: int, before: _State) -> _State:
        model = self._model
        n = len(x)
        occupied = [self._any([before.occupied[i], x[i]]) for i in range(n)]
        at_least = []
        for i in range(n):
            ranks: dict[int, Lit] = {}
            for v in range(2, TOP_RANK + 1):
                ranks[v] = model.new_bool_var("")
                model.add(ranks[v] == int(rank >= v)).only_enforce_if(x[i])
                model.add(ranks[v] == before.at_least[i][v]).only_enforce_if(~x[i])
            at_least.append(ranks)
        fires = self._line_fires(x, rank, before)
        self._fires.append(fires)
        up: list[Lit] = []
        for i in range(n):
            turned = self._any([fires[line] for line in self._lines_of(i)])
            face = model.new_bool_var("")
            model.add_implication(x[i], face)
            self._odd([face, before.up[i], ~turned], [~x[i]])  # face = before.up[i] ⊕ turned, unless laid on
            up.append(face)
        return _State(occupied, up, at_least)

    def _lines_of(self, i: int) -> list[int]:
        return [line for line, cells in enumerate(self._lines) if i in cells]

    def _line_fires(self, x: list[Lit], rank: int, before: _State) -> list[Lit]:
        """Per line, a literal true when the card laid is in it and toggles its other tops (rule 4)."""
        above = [self._all(self._faced(before, i, rank, higher=True)) for i in range(len(x))]
        below = [self._all(self._faced(before, i, rank, higher=False)) for i in range(len(x))]
        fires = []
        for cells in self._lines:
            triggers = []
            for i in cells:
                others = [j for j in cells if j != i]
                if not others:
                    continue
                no_higher = self._all([~above[j] for j in others])  # no face-up other top ≥ the card
                no_lower = self._all([~below[j] for j in others])  # no face-up other top ≤ the card
                some_other = self._any([before.occupied[j] for j in others])
                triggers.append(self._all([x[i], some_other, self._any([no_higher, no_lower])]))
            fires.append(self._any(triggers))
        return fires

    def _faced(self, before: _State, i: int, rank: int, *, higher: bool) -> list[Lit]:
        """The literals whose conjunction says cell i holds a face-up top ranked ≥ ``rank`` (``higher``) or ≤."""
        faced = [before.occupied[i], before.up[i]]
        if higher and rank >= 2:
            faced.append(before.at_least[i][rank])
        if not higher and rank < TOP_RANK:
            faced.append(~before.at_least[i][rank + 1])
        return faced

    def _add_face_down_limits(self, states: Sequence[_State]) -> None:
        """More than four face-down tops lose (and, under ``count_buried``, the face-down cards covered)."""
        buried_before = sum(cell.buried_face_down for cell in self._game.cells())
        covered: list[Lit] = []
        for step, state in enumerate(states[1:]):
            before = states[step]
            down = [self._all([state.occupied[i], ~state.up[i]]) for i in range(len(state.up))]
            if self._game.variant.count_buried:
                x = self._x[step]
                covered += [self._all([x[i], before.occupied[i], ~before.up[i]]) for i in range(len(x))]
                self._model.add(sum(down) + sum(covered) + buried_before <= MAX_FACE_DOWN)
            else:
                self._model.add(sum(down) <= MAX_FACE_DOWN)

    def _add_win(self, last: _State, in_frame: list[Lit]) -> None:
        for i in range(len(in_frame)):
            self._model.add_bool_and([last.occupied[i], last.up[i]]).only_enforce_if(in_frame[i])

    def _add_counts(self, states: Sequence[_State]) -> None:
        """Implied by the rules, stated for the solver: the piles' caps, the cards a win leaves for piles, and the
        cells occupied after each step (every step from now on fills at most one, and all 16 must be)."""
        heights = {(cell.row, cell.col): cell.height for cell in self._game.cells()}
        empty_cells = WINNING_CELLS - len(heights)
        spare = self._steps - empty_cells  # the cards that must go on piles
        for i, cell in enumerate(self._area.cells):
            height = heights.get(cell, 0)
            cards = sum(x[i] for x in self._x)
            self._model.add(cards <= min(PILE_CAP - height, spare + (height == 0)))
        for step, state in enumerate(states[1:]):
            occupied = sum(state.occupied)
            self._model.add(occupied >= WINNING_CELLS - (self._steps - 1 - step))
            self._model.add(occupied <= sum(states[step].occupied) + 1)

    def _add_parities(self, states: Sequence[_State]) -> None:
        """A top that gets no more cards ends face up iff its row and column toggle, from now on, an odd number
        of times in all when it is face down, an even one when face up: with ``toggles[j][line]`` the parity of a
        line's toggles in the steps from ``j`` on, ``up ⊕ row ⊕ column = 1``."""
        model = self._model
        n_lines = len(self._lines)
        toggles = [[self._constant(False) for _ in range(n_lines)]]
        for step in reversed(range(self._steps)):
            later = toggles[0]
            now: list[Lit] = [model.new_bool_var("") for _ in range(n_lines)]
            for line in range(n_lines):
                self._odd([now[line], later[line], ~self._fires[step][line]], [])
            toggles.insert(0, now)
        last_card = [self._constant(True) for _ in self._area.cells]  # no card after this state on the cell
        for j in reversed(range(len(states))):
            state = states[j]
            for i in range(len(state.up)):
                row, column = self._lines_of(i)
                self._odd([state.up[i], toggles[j][row], toggles[j][column]], [state.occupied[i], last_card[i]])
            if j > 0:
                last_card = [self._all([last_card[i], ~self._x[j - 1][i]]) for i in range(len(last_card))]

    # Literals for conjunctions and disjunctions (their definitions both ways, so that they propagate).

    def _odd(self, literals: list[Lit], conditions: list[Lit]) -> None:
        """An odd number of the three ``literals`` are true when all ``conditions`` are: its four clauses (CP-SAT
        learns from clauses; an enforced XOR constraint propagated more weakly here)."""
        a, b, c = literals
        unless = [~condition for condition in conditions]
        for clause in ([a, b, c], [a, ~b, ~c], [~a, b, ~c], [~a, ~b, c]):
            self._model.add_bool_or(unless + clause)

    def _all(self, literals: Sequence[Lit]) -> Lit:
        if len(literals) == 1:
            return literals[0]
        both = self._model.new_bool_var("")
        self._model.add_bool_and(literals).only_enforce_if(both)
        self._model.add_bool_or([~lit for lit in literals]).only_enforce_if(~both)
        return both

    def _any(self, literals: Sequence[Lit]) -> Lit:
        if not literals:
            return self._constant(False)
        if len(literals) == 1:
            return literals[0]
        either = self._model.new_bool_var("")
        self._model.add_bool_or(literals).only_enforce_if(either)
        for lit in literals:
            self._model.add_implication(lit, either)
        return either
