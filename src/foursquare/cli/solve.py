"""``foursquare solve``: the perfect-information solver on a deal or on the position a record reaches."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from foursquare import record
from foursquare.cli.options import add_variant_options, deal_number, positive_float, positive_int, variant_of
from foursquare.engine import Game

if TYPE_CHECKING:
    from foursquare.solver import Solution

TEXT = {
    "optimal": "optimal: no line scores more",
    "unwinnable": "unwinnable: no sequence of placements wins from here",
    "bounds": "time ran out: bounds only",
    "best": "best score found",
    "none": "none",
    "upper": "no line scores more than",
    "line": "line",
    "time": "time",
    "nodes": "nodes searched",
    "deal": "deal",
    "from_record": "from the position the record reaches (turn {turn})",
}


def register(sub: Any) -> None:
    p = sub.add_parser("solve", help="solve a deal with the stock known", description="Perfect-information solver.")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--deal", type=deal_number, help="solve this numbered deal from its start")
    src.add_argument("--record", metavar="FILE", help="solve from the position the record reaches")
    p.add_argument("--timeout", type=positive_float, default=10.0, metavar="S", help="default 10 s")
    p.add_argument(
        "--threads", type=positive_int, metavar="N", help="search threads (default: the processors, at most 4)"
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    add_variant_options(p)
    p.set_defaults(run=run_solve)


def run_solve(args: argparse.Namespace) -> int:
    """Solve a deal, or the position a record reaches, with the whole stock known."""
    from foursquare.solver import solution_json, solve  # numba: slow to import, so only when needed

    if args.record is not None:
        game = record.read(args.record)
    else:
        game = Game(deal=args.deal, variant=variant_of(args))
    solution = solve(game.stock, game.variant, moves=game.moves, timeout=args.timeout, threads=args.threads)
    print(json.dumps(solution_json(solution, game)) if args.json else solution_text(solution, game))
    return 0


def solution_text(solution: Solution, game: Game) -> str:
    """The status, the best score, the proven bound, the line, time and nodes."""
    lines = []
    if game.deal is not None:
        lines.append(f"{TEXT['deal']}: {game.deal}")
    if game.turn:
        lines.append(TEXT["from_record"].format(turn=game.turn))
    lines.append(TEXT[solution.status])
    best = TEXT["none"] if solution.best_score is None else str(solution.best_score)
    lines.append(f"{TEXT['best']}: {best}")
    if solution.status == "bounds":
        lines.append(f"{TEXT['upper']}: {solution.upper_bound}")
    if solution.line:
        cells = " ".join(m.name for m in solution.line)
        lines.append(f"{TEXT['line']}: {cells}")
    lines.append(f"{TEXT['time']}: {solution.seconds:.2f} s; {TEXT['nodes']}: {solution.nodes}")
    return "\n".join(lines)
