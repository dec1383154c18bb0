"""``foursquare solve``: the perfect-information solver on a deal or on the position a record reaches."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from foursquare import record
from foursquare.cli.options import (
    CommandError,
    add_variant_options,
    deal_number,
    house_rules_given,
    node_budget,
    positive_seconds,
    variant_of,
    whole_number_up_to,
)
from foursquare.cli.parser import help_text
from foursquare.engine import Game
from foursquare.i18n import Translator, translator

if TYPE_CHECKING:
    from foursquare.solver import Solution

#: The most threads ``--threads`` takes: :data:`foursquare.solver.THREADS_LIMIT`, repeated so that parsing the
#: command line does not import numba (``tests/test_cli_flags.py`` checks that they agree).
MAX_THREADS = 256


def register(sub: Any, t: Translator | None = None) -> None:
    t = t or sub.translator
    p = sub.add_parser("solve", help=help_text(t, "cli.solve.help"), description=t("cli.solve.description"))
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--deal", type=deal_number, help=help_text(t, "cli.solve.deal.help"))
    src.add_argument("--record", metavar="FILE", help=help_text(t, "cli.solve.record.help"))
    p.add_argument("--timeout", type=positive_seconds, metavar="S", help=help_text(t, "cli.solve.timeout.help"))
    p.add_argument(
        "--nodes", type=node_budget, metavar="N", help=help_text(t, "cli.solve.nodes.help", timeout="--timeout")
    )
    threads = whole_number_up_to(MAX_THREADS)
    p.add_argument("--threads", type=threads, metavar="N", help=help_text(t, "cli.solve.threads.help"))
    p.add_argument("--json", action="store_true", help=help_text(t, "cli.solve.json.help"))
    add_variant_options(p)
    p.set_defaults(run=run_solve)


def run_solve(args: argparse.Namespace) -> int:
    """Solve a deal, or the position a record reaches, with the whole stock known."""
    from foursquare.cli.extras import require_extra
    from foursquare.cli.progress import working

    require_extra("solver", "foursquare solve", args.translator)
    if args.record is not None:
        given = house_rules_given(args)
        if given:
            raise CommandError(args.translator("cli.option.record_rules", option=given[0]))
        game = record.read(args.record)
    else:
        game = Game(deal=args.deal, variant=variant_of(args))
    with working(args.translator("cli.working.solve"), args.translator):
        from foursquare.solver import solution_json, solve  # numba: slow to import, so only when needed

        solution = solve(
            game.stock, game.variant, moves=game.moves, timeout=args.timeout, max_nodes=args.nodes, threads=args.threads
        )
    print(json.dumps(solution_json(solution, game)) if args.json else solution_text(solution, game, args.translator))
    return 0


def solution_text(solution: Solution, game: Game, t: Translator | None = None) -> str:
    """The status, the best score, the proven bound, the line, time and nodes."""
    t = t or translator("en")
    lines = []
    if game.deal is not None:
        lines.append(t("cli.solve.deal", deal=str(game.deal)))
    if game.turn:
        lines.append(t("cli.solve.from_record", turn=game.turn))
    lines.append(t(f"cli.solve.{solution.status}"))
    lines.append(t("cli.solve.best", score=t("cli.solve.none") if solution.best_score is None else solution.best_score))
    if solution.status == "bounds":
        lines.append(t("cli.solve.upper", upper=solution.upper_bound))
    if solution.exact_missing:
        lines.append(t("cli.solve.exact_missing", install="pip install 'foursquare-solitaire[exact]'"))
    if solution.line:
        lines.append(t("cli.solve.line", cells=" ".join(m.name for m in solution.line)))
    lines.append(t("cli.solve.time", seconds=t.number(solution.seconds, 2), nodes=solution.nodes))
    return "\n".join(lines)
