"""Perft counts, as chess engines count them: every line of placements from a fixed position to a fixed depth.

The rules are encoded several times (docs/rules.md, *The copies of the rules*); ``tests/golden/perft.json`` holds
what the engine counts from fixed positions of the four rule sets, and every encoding must count the same:
``tests/test_perft.py`` recounts it with the engine, the kernel (its rules and its bit boards) and the solver's
positions (and asks its SAT model where the wins are), ``tests/js/perft.test.mjs`` with engine.js and with
policy.js's board. ``tools/perft.py`` picks the positions and writes the file (see tests/golden/README.md).

The stock order is fixed by the deal, so the tree is of placements only. Its counts, for each depth d from 0 (the
position itself) to the position's ``depth``, over the positions d placements after it (lines, not distinct
positions, as in chess):

``positions``
    how many (the legal moves of the playing positions one level up);
``moves``
    their legal moves summed (0 for a game over; at the last depth, the moves that would come next);
``covers``
    of the placements that reached them, how many went on a pile rather than on an empty cell;
``flips``
    the cards those placements turned over;
``face_down``
    the face-down cards counting towards the limit (buried ones too under ``count_buried``), summed;
``won``, ``too_many_face_down``, ``stock_empty``
    how many are over, and why.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from foursquare.engine import Game, Move, Variant

GOLDEN = Path(__file__).resolve().parent / "golden" / "perft.json"
FORMAT = "foursquare-perft"
COUNTS = ("positions", "moves", "covers", "flips", "face_down", "won", "too_many_face_down", "stock_empty")


@dataclass
class Counts:
    """One depth's counts (see the module's docstring)."""

    positions: int = 0
    moves: int = 0
    covers: int = 0
    flips: int = 0
    face_down: int = 0
    won: int = 0
    too_many_face_down: int = 0
    stock_empty: int = 0

    def tally(self, face_down: int, moves: int, ending: str | None) -> None:
        """Count one position with ``face_down`` cards down, ``moves`` legal moves, and its ending (or None)."""
        self.positions += 1
        self.moves += moves
        self.face_down += face_down
        if ending is not None:
            setattr(self, ending, getattr(self, ending) + 1)


Table = list[dict[str, int]]


def table(rows: list[Counts]) -> Table:
    return [asdict(row) for row in rows]


@dataclass(frozen=True)
class Root:
    """A position of the golden table: a deal, its rule set, the moves that reach it, and the depth counted."""

    name: str
    deal: int
    variant: Variant
    moves: tuple[Move, ...]
    depth: int
    counts: Table

    @property
    def id(self) -> str:
        rules = f"{self.variant.adjacency}{'+buried' if self.variant.count_buried else ''}"
        return f"{rules}-{self.name}"

    def game(self) -> Game:
        """The engine's game in this position."""
        game = Game(deal=self.deal, variant=self.variant)
        for move in self.moves:
            game.place(move.row, move.col)
        return game

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "deal": self.deal,
            "variant": self.variant.to_json(),
            "moves": [m.to_json() for m in self.moves],
            "depth": self.depth,
            "counts": self.counts,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Root:
        return cls(
            name=data["name"],
            deal=data["deal"],
            variant=Variant.from_json(data["variant"]),
            moves=tuple(Move.from_json(m) for m in data["moves"]),
            depth=data["depth"],
            counts=data["counts"],
        )


def load(path: Path = GOLDEN) -> list[Root]:
    """The golden table's positions, with their counts."""
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == FORMAT, data["format"]
    return [Root.from_json(root) for root in data["roots"]]


def ending(game: Game) -> str | None:
    """The name of the count of a game's ending (None while it plays)."""
    outcome = game.outcome()
    if outcome.status == "won":
        return "won"
    return outcome.reason if outcome.status == "lost" else None


def engine_perft(game: Game, depth: int) -> Table:
    """The perft counts of the engine's ``game`` to ``depth`` (the game is left as it was)."""
    rows = [Counts() for _ in range(depth + 1)]

    def visit(d: int) -> None:
        moves = game.legal_moves
        rows[d].tally(game.face_down, len(moves), ending(game))
        if d == depth:
            return
        below = rows[d + 1]
        for move in moves:
            below.covers += game.pile(move.row, move.col) is not None
            below.flips += len(game.place(move.row, move.col).flips)
            visit(d + 1)
            game.pop()

    visit(0)
    return table(rows)


def differences(expected: Table, actual: Table) -> Iterator[str]:
    """What differs between two tables, depth by depth, for an assertion's message."""
    if len(expected) != len(actual):
        yield f"{len(actual)} depths, not {len(expected)}"
    for d, (want, got) in enumerate(zip(expected, actual, strict=False)):
        for name in COUNTS:
            if want[name] != got[name]:
                yield f"depth {d} {name}: {got[name]}, not {want[name]}"


# --- the kernel: its rules (legal, place, evaluate) and its bit boards (legal_bits, lay) ----------------------------


def kernel_perft(root: Root) -> Table:
    """The perft counts of ``root`` played on the kernel's state from the empty one, every move by ``K.place``.

    Each position's moves are ``K.legal``'s, which the bit boards of the vector environments (``legal_bits``, kept
    up to date by ``lay``) must give too; each placement's status, face-down count and occupied cells are
    ``K.evaluate``'s prediction too.
    """
    import numpy as np

    from foursquare import kernel as K
    from foursquare.kernel.boards import lay, legal_bits
    from foursquare.kernel.vector import _action_of_cell

    endings = {K.STATUS_WON: "won", K.STATUS_LOST_FACE_DOWN: "too_many_face_down", K.STATUS_LOST_STOCK: "stock_empty"}
    faces = slice(K.TOP_FACE_UP, K.TOP_FACE_UP + K.AREA_CELLS)
    game = root.game()
    stock = K.stock_array(game.stock)
    state = K.new_state(root.variant)
    boards = (np.uint64(0), np.uint64(0))

    def lay_card(state: Any, boards: tuple[Any, Any], cell: int) -> tuple[Any, Any]:
        K.place(state, cell, stock[state[K.TURN]])
        return lay(boards[0], boards[1], state, _action_of_cell(cell), cell)

    for move in root.moves:
        boards = lay_card(state, boards, K.cell_of(move.row, move.col))
    rows = [Counts() for _ in range(root.depth + 1)]
    out = np.zeros(K.MAX_MOVES, dtype=np.int64)

    def visit(state: Any, boards: tuple[Any, Any], d: int) -> None:
        n = K.legal(state, out)
        cells = [int(c) for c in out[:n]]
        bits = int(legal_bits(state, *boards))
        assert bits == sum(1 << _action_of_cell(c) for c in cells), ("legal_bits", cells, bin(bits))
        down = K.face_down(state, state[K.FACE_DOWN_TOPS], state[K.BURIED_FACE_DOWN])
        rows[d].tally(int(down), n, endings.get(int(state[K.STATUS])))
        if d == root.depth:
            return
        below = rows[d + 1]
        for cell in cells:
            child = state.copy()
            predicted = K.evaluate(state, cell, stock[state[K.TURN]])
            child_boards = lay_card(child, boards, cell)
            below.covers += int(state[K.TOP_CARD + cell] >= 0)
            turned = child[faces] != state[faces]
            below.flips += int(turned.sum()) - int(turned[cell])  # the card's own cell does not turn
            after = (int(child[K.STATUS]), int(K.face_down(child, child[K.FACE_DOWN_TOPS], child[K.BURIED_FACE_DOWN])),
                     int(child[K.OCCUPIED]))
            assert tuple(int(x) for x in predicted) == after, ("evaluate", cell, predicted, after)
            visit(child, child_boards, d + 1)

    visit(state, boards, 0)
    return table(rows)


# --- the solver: its frames' positions and placements ------------------------------------------------------------


def solver_perft(root: Root) -> Table:
    """The perft counts of ``root`` played on the solver's frame positions.

    The solver searches each 4×4 frame that may hold a win on its own, in frame coordinates. A position here is
    the list of every frame that holds the occupied cells (all 16 around the first cell before the first card),
    each with the search's arrays (:class:`~foursquare.solver.frames._Search`) at the position's turn; its legal
    moves are the union over the frames of the search's candidates (an empty cell next to an occupied one, by
    the frame's neighbour masks, or a pile below the cap, ``_open_piles``), and a child keeps the frames that
    hold its cell, each placing the card with ``_child_position`` (or ``_fill_child`` on an empty cell, which
    must agree) and ``_build``. Every frame of a position must agree on its flips, face-down cards and end;
    ``_quick_value`` must see each win and each loss.
    """
    import numpy as np

    from foursquare.engine import GRID, MAX_FACE_DOWN
    from foursquare.solver import frames, position
    from foursquare.solver.bits import FULL, LINES, _popcount
    from foursquare.solver.parity import PARITY_WORDS
    from foursquare.solver.search import INF, _quick_value

    game = Game(deal=root.deal, variant=root.variant)
    tables = position._Tables(bits=4, coarse_bits=4)
    searches = [frames._Search(game, frames._Frame(r0, c0, GRID * -r0 - c0, False), tables)
                for r0 in range(1 - GRID, 1) for c0 in range(1 - GRID, 1)]
    count_buried = root.variant.count_buried
    cards = searches[0].cards
    stats = np.zeros((2, LINES), dtype=np.int64)
    line_z = np.zeros(LINES, dtype=np.uint64)
    no_table = np.zeros(1, dtype=np.uint64)  # a transposition table that knows nothing
    parities = np.zeros(PARITY_WORDS, dtype=np.uint64)  # _quick_value's work space

    def candidates(s: frames._Search, slot: int) -> int:
        occ = int(s.state[slot, position.OCCUPIED])
        if occ == 0:
            return 1 << s.frame.first_cell
        near = 0
        while occ:
            j = (occ & -occ).bit_length() - 1
            occ &= occ - 1
            near |= int(s.adjacent[j])
        occ = int(s.state[slot, position.OCCUPIED])
        return (near & ~occ) | int(position._open_piles(s.height, slot, occ))

    def place(s: frames._Search, slot: int, cell: int) -> tuple[int, int, int, Any]:
        card = int(cards[slot])
        occ, up, buried = (int(x) for x in s.state[slot])
        child = position._child_position(slot, cell, card, s.top, s.height, s.state, s.hashes, s.row, s.col,
                                         tables.z_card, tables.z_up, tables.z_height, tables.z_buried, count_buried)
        if occ and not occ >> cell & 1:
            position._line_stats(slot, occ, up, s.top, tables.z_up, stats, line_z)
            fill = position._fill_child(cell, card, occ, up, buried, s.hashes[slot], stats, line_z, s.row, s.col,
                                        tables.z_card, tables.z_up, tables.z_height)
            assert fill == child, ("_fill_child", cell, fill, child)
        occ, up, buried, h = child
        position._build(slot, slot + 1, cell, card, s.top, s.height, s.state, s.hashes, occ, up, buried, np.uint64(h))
        return child

    def judge(s: frames._Search, slot: int) -> tuple[int, str | None]:
        occ, up, buried = (int(x) for x in s.state[slot])
        down = _popcount(occ & ~up) + (buried if count_buried else 0)
        value = _quick_value(slot, 40, occ, up, buried, s.hashes[slot], position._open_piles(s.height, slot, occ),
                             count_buried, no_table, parities)[0]
        if occ == FULL and up == FULL:
            assert value == slot, ("_quick_value misses a win", slot)
            return down, "won"
        if down > MAX_FACE_DOWN or slot == 40:
            assert value == INF, ("_quick_value misses a loss", slot)
            return down, "too_many_face_down" if down > MAX_FACE_DOWN else "stock_empty"
        return down, None

    for slot, move in enumerate(root.moves):
        searches = [s for s in searches if s.frame.row0 <= move.row < s.frame.row0 + GRID
                    and s.frame.col0 <= move.col < s.frame.col0 + GRID]
        for s in searches:
            place(s, slot, s.frame.cell_of(move.row, move.col))
    rows = [Counts() for _ in range(root.depth + 1)]
    t0 = len(root.moves)

    def visit(searches: list[frames._Search], d: int) -> None:
        slot = t0 + d
        verdicts = {judge(s, slot) for s in searches}
        assert len(verdicts) == 1, ("the frames disagree", verdicts)
        ((down, end),) = verdicts
        moves: dict[tuple[int, int], list[frames._Search]] = {}
        if end is None:
            for s in searches:
                cand = candidates(s, slot)
                while cand:
                    j = (cand & -cand).bit_length() - 1
                    cand &= cand - 1
                    moves.setdefault((s.frame.row0 + j // GRID, s.frame.col0 + j % GRID), []).append(s)
        rows[d].tally(down, len(moves), end)
        if d == root.depth:
            return
        below = rows[d + 1]
        for (row, col), keep in moves.items():
            effects = set()
            for s in keep:
                cell = s.frame.cell_of(row, col)
                occ, up = int(s.state[slot, position.OCCUPIED]), int(s.state[slot, position.FACE_UP])
                c_up = place(s, slot, cell)[1]
                effects.add((occ >> cell & 1, _popcount((up ^ c_up) & ~(1 << cell))))
            assert len(effects) == 1, ("the frames disagree", row, col, effects)
            ((covers, flips),) = effects
            below.covers += covers
            below.flips += flips
            visit(keep, d + 1)

    visit(searches, 0)
    return table(rows)
