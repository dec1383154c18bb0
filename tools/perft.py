"""Write the golden perft table, tests/golden/perft.json, that every encoding of the rules must reproduce.

    .venv/bin/python tools/perft.py            # recount the committed positions with the engine, rewrite the file
    .venv/bin/python tools/perft.py --pick     # pick the positions afresh (deterministic), then count them
    .venv/bin/python tools/perft.py --check    # recount and compare, change nothing (exit 1 on a difference)

The engine (src/foursquare/engine.py, the rules of docs/rules.md as code) is the reference: the counts are its
own, from tests/perft_support.py's ``engine_perft``. Regenerate only after a deliberate change of the rules, and
then change every other encoding until tests/test_perft.py and tests/js/perft.test.mjs pass again.

The positions, in each of the four rule sets: the empty start of deals 1, 2 and 3; an opening (deal 7 after a
few careful cards); three cards from a win (deal 3's winning line of tests/test_solver.py, on single cards, and
deal 14's, with a card on a pile); two cards from a loss by too many cards face down (random play of a deal,
backed up from its loss); and three cards from the end of the stock (careful play that lasts). Each is reached
by a fixed list of moves, written in the file, so the tests depend on the moves alone, not on this picking.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from foursquare.engine import Game, Move, Variant  # noqa: E402
from perft_support import FORMAT, GOLDEN, Root, differences, engine_perft, load  # noqa: E402

VARIANTS = (
    Variant("orthogonal", False),
    Variant("orthogonal", True),
    Variant("diagonal", False),
    Variant("diagonal", True),
)
START_DEPTH = 4  # from an empty grid: few cells are legal
DEPTH = 3  # from a position in play: up to 16 piles and the cells around them
WINNING_LINES = {  # from tests/test_solver.py (standard rules)
    3: "0,0 0,1 1,0 0,2 2,0 0,3 1,2 2,1 2,2 3,2 2,3 1,1 3,3 1,3 3,0 3,1",
    14: "0,0 0,1 1,0 0,2 1,1 2,0 2,1 0,3 2,2 1,2 3,0 2,3 3,3 3,1 3,2 1,3 1,3",
}
ABOUT = (
    "Perft counts of the rules (see tests/golden/README.md): written by tools/perft.py from the engine; every "
    "encoding of the rules must reproduce them (tests/test_perft.py, tests/js/perft.test.mjs)."
)


def _line(text: str) -> list[Move]:
    return [Move(*map(int, cell.split(","))) for cell in text.split()]


def _careful(game: Game, rng: random.Random) -> Move:
    """A move that leaves the fewest cards face down and does not lose, ties broken at random."""

    def cost(move: Move) -> tuple[int, float]:
        game.place(move.row, move.col)
        value = game.face_down + 100 * (game.outcome().status == "lost")
        game.pop()
        return value, rng.random()

    return min(game.legal_moves, key=cost)


def _played(deal: int, variant: Variant, choose: Callable[[Game], Move], stop: Callable[[Game], bool]) -> Game:
    game = Game(deal=deal, variant=variant)
    while not game.is_over() and not stop(game):
        move = choose(game)
        game.place(move.row, move.col)
    return game


def _near_win(deal: int, variant: Variant, before: int) -> list[Move] | None:
    """The winning line of ``deal`` but its last ``before`` moves, if it wins in ``variant`` too."""
    game = Game(deal=deal, variant=variant)
    line = _line(WINNING_LINES[deal])
    for move in line:
        if not game.is_legal(move.row, move.col):
            return None
        game.place(move.row, move.col)
    return line[:-before] if game.outcome().status == "won" else None


def _near_loss(variant: Variant, before: int) -> tuple[int, list[Move]]:
    """Random play of deals from 100 on until one is lost by too many cards face down; its moves but the last
    ``before``."""
    for deal in range(100, 200):
        rng = random.Random(deal)
        game = _played(deal, variant, lambda g, rng=rng: rng.choice(g.legal_moves), lambda g: False)
        if game.outcome().reason == "too_many_face_down" and game.turn > 8:
            return deal, game.moves[:-before]
    raise RuntimeError("no random game lost by too many cards face down")


def _near_end(variant: Variant, left: int) -> tuple[int, list[Move]]:
    """Careful play of deals from 200 on until one still plays with ``left`` cards in the stock."""
    for deal in range(200, 400):
        rng = random.Random(deal)
        game = _played(deal, variant, lambda g, rng=rng: _careful(g, rng), lambda g: g.stock_left == left)
        if not game.is_over():
            return deal, game.moves
    raise RuntimeError(f"no careful game reached {left} cards left")


def pick() -> list[Root]:
    """The positions of the table (without counts), deterministically."""
    roots = []
    for variant in VARIANTS:

        def root(name: str, deal: int, moves: list[Move], depth: int = DEPTH, variant: Variant = variant) -> Root:
            return Root(name, deal, variant, tuple(moves), depth, [])

        for deal in (1, 2, 3):
            roots.append(root(f"start-{deal}", deal, [], START_DEPTH))
        rng = random.Random(7)
        opening = _played(7, variant, lambda g, rng=rng: _careful(g, rng), lambda g: g.turn == 5)
        roots.append(root("opening", 7, opening.moves))
        for deal in (3, 14):
            line = _near_win(deal, variant, 3)
            if line is not None:
                roots.append(root(f"near-win-{deal}", deal, line))
        deal, moves = _near_loss(variant, 2)
        roots.append(root("near-loss", deal, moves))
        deal, moves = _near_end(variant, 3)
        roots.append(root("near-end", deal, moves))
    return roots


def count(roots: list[Root]) -> list[Root]:
    """The roots with the engine's counts."""
    return [Root(r.name, r.deal, r.variant, r.moves, r.depth, engine_perft(r.game(), r.depth)) for r in roots]


def write(roots: list[Root], path: Path) -> None:
    lines = ",\n".join("    " + json.dumps(root.to_json(), separators=(", ", ": ")) for root in roots)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'{{"format": "{FORMAT}", "about": {json.dumps(ABOUT)},\n "roots": [\n{lines}\n]}}\n')


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pick", action="store_true", help="pick the positions afresh")
    parser.add_argument("--check", action="store_true", help="compare with the file, change nothing")
    parser.add_argument("--path", type=Path, default=GOLDEN)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    roots = count(pick() if args.pick else load(args.path))
    seconds = time.perf_counter() - start
    nodes = sum(row["positions"] for root in roots for row in root.counts)
    print(f"{len(roots)} positions, {nodes} nodes counted by the engine in {seconds:.1f} s")
    if args.check:
        committed = {root.id: root for root in load(args.path)}
        bad = [f"{r.id}: {'; '.join(differences(committed[r.id].counts, r.counts))}" for r in roots
               if r.counts != committed[r.id].counts]
        print("\n".join(bad) or "the engine reproduces the table")
        return 1 if bad else 0
    write(roots, args.path)
    print(f"wrote {args.path.relative_to(ROOT) if args.path.is_relative_to(ROOT) else args.path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
