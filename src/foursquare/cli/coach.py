"""``foursquare hint`` and ``foursquare analyze``: advice on a position, and the review of a finished game."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from foursquare import record
from foursquare.cli.options import CommandError, positive_seconds, seed_number
from foursquare.cli.parser import help_text
from foursquare.cli.records import outcome_text
from foursquare.i18n import Translator, translator


def register(sub: Any, t: Translator | None = None) -> None:
    t = t or sub.translator
    seed_help = help_text(t, "cli.coach.seed.help")
    p = sub.add_parser("hint", help=help_text(t, "cli.hint.help"), description=t("cli.hint.description"))
    p.add_argument("record", metavar="RECORD", help=help_text(t, "cli.hint.record.help", doc="docs/records.md"))
    p.add_argument("--json", action="store_true", help=help_text(t, "cli.hint.json.help", keys="turn, card, moves"))
    p.add_argument("--time", type=positive_seconds, metavar="S", help=help_text(t, "cli.hint.time.help"))
    p.add_argument("--seed", type=seed_number, default=0, help=seed_help)
    p.set_defaults(run=run_hint)

    p = sub.add_parser("analyze", help=help_text(t, "cli.analyze.help"), description=t("cli.analyze.description"))
    p.add_argument("record", metavar="RECORD", help=help_text(t, "cli.analyze.record.help", doc="docs/records.md"))
    p.add_argument("--json", action="store_true", help=help_text(t, "cli.analyze.json.help", doc="docs/api.md"))
    p.add_argument("--time", type=positive_seconds, metavar="S", help=help_text(t, "cli.analyze.time.help"))
    p.add_argument("--seed", type=seed_number, default=0, help=seed_help)
    p.set_defaults(run=run_analyze)


def run_hint(args: argparse.Namespace) -> int:
    """Rank every legal move of the position the record reaches."""
    from foursquare.cli.progress import working

    t: Translator = args.translator
    game = record.read(args.record)
    if game.is_over():
        raise CommandError(t("cli.hint.game_over", path=args.record, outcome=outcome_text(game.outcome(), t)))
    view = game.view()
    with working(t("cli.working.hint"), t):
        from foursquare.players import hint  # numba: slow to import, so only when needed

        advice = hint(view, seed=args.seed, time_budget=args.time)
    assert view.card is not None
    if args.json:
        print(json.dumps({"turn": view.turn, "card": view.card.name, "moves": [a.to_json() for a in advice]}))
        return 0
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from foursquare.cards import DECK_SIZE

    title = t("cli.hint.title", number=view.turn + 1, total=DECK_SIZE, card=view.card.name)
    table = Table(title=escape(title))
    table.add_column(escape(t("cli.hint.col.cell")))
    table.add_column(escape(t("cli.hint.col.score")), justify="right")
    table.add_column(escape(t("cli.hint.col.win")), justify="right")
    table.add_column(escape(t("cli.hint.col.futures")), justify="right")
    for a in advice:
        table.add_row(a.move.name, t.number(a.expected_score, 2), t.percent(a.win_probability, 1), t.number(a.playouts))
    Console(width=100 if not sys.stdout.isatty() else None).print(table)
    return 0


def run_analyze(args: argparse.Namespace) -> int:
    """Analyse a finished game: its mistakes, then the perfect-information verdict."""
    from foursquare.cli.extras import require_extra

    t: Translator = args.translator
    require_extra("solver", "foursquare analyze", t)
    game = record.read(args.record)
    if not game.is_over():
        command = f"foursquare play {args.record}"
        raise CommandError(t("cli.analyze.not_over", path=args.record, count=game.turn, command=command))
    from foursquare.cli.progress import working

    with working(t("cli.working.analyze"), t):
        from foursquare.analysis import analyze  # numba: slow to import, so only when needed

        result = analyze(game, seed=args.seed, time_budget=args.time)
    print(json.dumps(result) if args.json else analysis_text(result, t))
    return 0


def analysis_text(result: dict[str, Any], t: Translator | None = None) -> str:
    """A readable per-move table with the mistakes marked, then the perfect-information verdict."""
    t = t or translator("en")
    head = [t(f"cli.analyze.col.{name}") for name in ("move", "card", "played", "best", "score", "win", "loss")]
    lines = [_result_line(result, t), "", _move_row(*head)]
    for m in result["moves"]:
        es = f"{t.number(m['played_expected_score'], 1)}/{t.number(m['best_expected_score'], 1)}"
        wp = f"{t.percent(m['played_win_probability'])}/{t.percent(m['best_win_probability'])}"
        exact = m.get("evaluation") == "exact"
        loss = t.number(0)
        if m["expected_score_loss"]:
            loss = t.number(m["expected_score_loss"], 1)
            if not exact:  # an estimate: its low bound beside it
                loss += f" ({t.number(m['expected_score_loss_low'], 1)})"
        row = _move_row(t.number(m["index"] + 1), m["card"], m["played_cell"], m["best_cell"], es, wp, loss)
        marks = [t("cli.analyze.exact")] if exact else []
        if m["forced"]:
            marks.append(t("cli.analyze.forced"))
        elif m["mistake"]:
            marks.append(t("cli.analyze.mistake"))
        lines.append("  ".join([row, *marks]))
    lines += ["", _mistakes_text(result, t), "", *_perfect_lines(result["perfect"], t)]
    return "\n".join(lines)


def _move_row(index: str, card: str, played: str, best: str, es: str, wp: str, loss: str) -> str:
    """One row of the table: its columns as wide as the English headings (a longer heading pushes its row)."""
    widths = (4, 4, 6, 4, 11, 9, 16)
    cells = (index, card, played, best, es, wp, loss)
    return "  ".join(cell.rjust(width) for cell, width in zip(cells, widths, strict=True))


def _result_line(result: dict[str, Any], t: Translator) -> str:
    deal = (
        t("cli.analyze.deal", deal=str(result["deal"]))
        if result["deal"] is not None
        else t("cli.analyze.explicit_stock")
    )
    if result["outcome"] == "won":
        return t("cli.analyze.won", score=result["score"], deal=deal)
    key = f"cli.analyze.reason.{result['reason']}"
    reason = t(key) if t.has(key) else str(result["reason"])
    return t("cli.analyze.lost", reason=reason, deal=deal)


def _mistakes_text(result: dict[str, Any], t: Translator) -> str:
    from foursquare.analysis import CONFIDENCE_Z, MISTAKE_EXPECTED_SCORE, RECHECK_PLAYOUTS
    from foursquare.players import COMPARE_PLAYOUTS

    rule = t(
        "cli.analyze.rule",
        playouts=COMPARE_PLAYOUTS,
        recheck=RECHECK_PLAYOUTS,
        z=t.number(CONFIDENCE_Z),
        threshold=t.number(MISTAKE_EXPECTED_SCORE, 1),
    )
    exact = sum(m.get("evaluation") == "exact" for m in result["moves"])
    if exact:
        threshold = t.number(MISTAKE_EXPECTED_SCORE, 1)
        rule += "\n" + t("cli.analyze.exact_rule", count=exact, threshold=threshold)
    if not result["costliest"]:
        return rule + "\n" + t("cli.analyze.no_mistakes")
    moves = t("list.sep").join(t("cli.analyze.mistake_move", number=i + 1) for i in result["costliest"])
    return rule + "\n" + t("cli.analyze.mistakes", moves=moves)


def _perfect_lines(perfect: dict[str, Any], t: Translator) -> list[str]:
    lines = [t("cli.analyze.perfect_title")]
    if perfect["best_score"] is not None:
        proof = (
            t("cli.analyze.perfect_proven")
            if perfect["status"] == "optimal"
            else t("cli.analyze.perfect_bounds", upper=perfect["upper_bound"])
        )
        lines.append("  " + t("cli.analyze.perfect_won", score=perfect["best_score"], proof=proof))
        lines.append("  " + t("cli.analyze.perfect_line", line=" ".join(perfect["line_cells"])))
    elif perfect["status"] == "unwinnable":
        lines.append("  " + t("cli.analyze.perfect_unwinnable"))
    else:
        lines.append("  " + t("cli.analyze.perfect_unknown", upper=perfect["upper_bound"]))
    return lines
