"""``foursquare hint`` and ``foursquare analyze``: advice on a position, and the review of a finished game."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from foursquare import record
from foursquare.cli.options import CommandError, positive_float, seed_number

TEXT = {
    "not_over": "the game in {path} is not over ({placed} cards placed): analyze needs a finished game; "
    "finish it first (foursquare play {path})",
    "game_over": "the game in {path} is over ({outcome}): there is no move to hint",
    "hint_header": "Move {number} of {total}, card {card}: ranked by expected score",
    "col_move": "cell",
    "col_win": "win probability",
    "col_score": "expected score",
    "col_playouts": "futures",
    "row": "{index:>4}  {card:>4}  {played:>6}  {best:>4}  {es:>11}  {wp:>9}  {loss:>16}",
    "col_index": "move",
    "col_card": "card",
    "col_played": "played",
    "col_best": "best",
    "col_es": "score pl/best",
    "col_wp": "win pl/best",
    "col_loss": "loss (low bound)",
    "forced": "forced",
    "mistake": "MISTAKE",
    "outcome_won": "Result: won, score {score} ({deal})",
    "outcome_lost": "Result: lost ({reason}) ({deal})",
    "reason_too_many_face_down": "more than 4 cards face down",
    "reason_stock_empty": "the stock ran out",
    "deal": "deal {deal}",
    "explicit_stock": "explicit stock",
    "no_mistakes": "No mistakes found.",
    "mistakes": "Mistakes, costliest first: {moves}",
    "mistake_move": "move {number}",
    "perfect_title": "Perfect-information verdict (uses the whole stock order, which no player could see):",
    "perfect_won": "  winnable: best score {score}{proof}",
    "perfect_proven": " (proven optimal)",
    "perfect_bounds": " (search stopped; no line scores more than {upper})",
    "perfect_unwinnable": "  unwinnable: no sequence of placements wins this deal",
    "perfect_unknown": "  unknown: no win found in time; no line scores more than {upper}",
    "perfect_line": "  best line: {line}",
    "mistake_rule": (
        "Every move and the hint's best are played out on the same {playouts:,} fresh futures ({recheck:,} for a"
        " borderline move); a move is a mistake"
        " when its loss of expected score, less {z} standard errors of the paired difference (the 'low' bound),"
        " is still more than {es:.1f}."
    ),
}


def register(sub: Any) -> None:
    p = sub.add_parser("hint", help="rank the moves of a position", description="Rank every legal move.")
    p.add_argument(
        "record", metavar="RECORD", help="a game record (docs/records.md) of an unfinished game: its position is ranked"
    )
    p.add_argument(
        "--json", action="store_true", help="print the ranking as JSON (turn, card, moves) instead of a table"
    )
    p.add_argument("--time", type=positive_float, metavar="S", help="thinking time (buys precision)")
    p.add_argument("--seed", type=seed_number, default=0, help=SEED_HELP)
    p.set_defaults(run=run_hint)

    p = sub.add_parser("analyze", help="analyse a finished game", description="Analyse a finished game.")
    p.add_argument("record", metavar="RECORD", help="the game record (docs/records.md) of a finished game")
    p.add_argument(
        "--json", action="store_true", help="print the analysis as JSON (the web app's format, docs/api.md)"
    )
    p.add_argument("--time", type=positive_float, metavar="S", help="thinking time per move")
    p.add_argument("--seed", type=seed_number, default=0, help=SEED_HELP)
    p.set_defaults(run=run_analyze)


SEED_HELP = "seed of the random futures played out (default 0: the same figures every run)"


def run_hint(args: argparse.Namespace) -> int:
    """Rank every legal move of the position the record reaches."""
    from foursquare.players import hint  # numba: slow to import, so only when needed

    game = record.read(args.record)
    if game.is_over():
        raise CommandError(TEXT["game_over"].format(path=args.record, outcome=game.outcome()))
    view = game.view()
    advice = hint(view, seed=args.seed, time_budget=args.time)
    assert view.card is not None
    if args.json:
        print(json.dumps({"turn": view.turn, "card": view.card.name, "moves": [a.to_json() for a in advice]}))
        return 0
    from rich.console import Console
    from rich.table import Table

    from foursquare.cards import DECK_SIZE

    title = TEXT["hint_header"].format(number=view.turn + 1, total=DECK_SIZE, card=view.card.name)
    table = Table(title=title)
    table.add_column(TEXT["col_move"])
    table.add_column(TEXT["col_score"], justify="right")
    table.add_column(TEXT["col_win"], justify="right")
    table.add_column(TEXT["col_playouts"], justify="right")
    for a in advice:
        table.add_row(a.move.name, f"{a.expected_score:.2f}", f"{a.win_probability:.1%}", str(a.playouts))
    Console(width=100 if not sys.stdout.isatty() else None).print(table)
    return 0


def run_analyze(args: argparse.Namespace) -> int:
    """Analyse a finished game: its mistakes, then the perfect-information verdict."""
    game = record.read(args.record)
    if not game.is_over():
        raise CommandError(TEXT["not_over"].format(path=args.record, placed=game.turn))
    from foursquare.analysis import analyze  # numba: slow to import, so only when needed

    result = analyze(game, seed=args.seed, time_budget=args.time)
    print(json.dumps(result) if args.json else analysis_text(result))
    return 0


def analysis_text(result: dict[str, Any]) -> str:
    """A readable per-move table with the mistakes marked, then the perfect-information verdict."""
    lines = [_result_line(result), "", _move_row(TEXT["col_index"], TEXT["col_card"], TEXT["col_played"],
                                                 TEXT["col_best"], TEXT["col_es"], TEXT["col_wp"], TEXT["col_loss"])]
    for m in result["moves"]:
        row = _move_row(
            m["index"] + 1,
            m["card"],
            m["played_cell"],
            m["best_cell"],
            f"{m['played_expected_score']:.1f}/{m['best_expected_score']:.1f}",
            f"{m['played_win_probability']:.0%}/{m['best_win_probability']:.0%}",
            f"{m['expected_score_loss']:.1f} ({m['expected_score_loss_low']:.1f})" if m["expected_score_loss"] else "0",
        )
        if m["forced"]:
            row += "  " + TEXT["forced"]
        elif m["mistake"]:
            row += "  " + TEXT["mistake"]
        lines.append(row)
    lines += ["", _mistakes_text(result), "", *_perfect_lines(result["perfect"])]
    return "\n".join(lines)


def _move_row(index: object, card: str, played: str, best: str, es: str, wp: str, loss: str) -> str:
    return TEXT["row"].format(index=index, card=card, played=played, best=best, es=es, wp=wp, loss=loss)


def _result_line(result: dict[str, Any]) -> str:
    deal = TEXT["deal"].format(deal=result["deal"]) if result["deal"] is not None else TEXT["explicit_stock"]
    if result["outcome"] == "won":
        return TEXT["outcome_won"].format(score=result["score"], deal=deal)
    reason = TEXT.get(f"reason_{result['reason']}", str(result["reason"]))
    return TEXT["outcome_lost"].format(reason=reason, deal=deal)


def _mistakes_text(result: dict[str, Any]) -> str:
    from foursquare.analysis import CONFIDENCE_Z, MISTAKE_EXPECTED_SCORE, RECHECK_PLAYOUTS
    from foursquare.players import COMPARE_PLAYOUTS

    rule = TEXT["mistake_rule"].format(
        playouts=COMPARE_PLAYOUTS, recheck=RECHECK_PLAYOUTS, z=CONFIDENCE_Z, es=MISTAKE_EXPECTED_SCORE
    )
    if not result["costliest"]:
        return rule + "\n" + TEXT["no_mistakes"]
    moves = ", ".join(TEXT["mistake_move"].format(number=i + 1) for i in result["costliest"])
    return rule + "\n" + TEXT["mistakes"].format(moves=moves)


def _perfect_lines(perfect: dict[str, Any]) -> list[str]:
    lines = [TEXT["perfect_title"]]
    if perfect["best_score"] is not None:
        proof = (
            TEXT["perfect_proven"]
            if perfect["status"] == "optimal"
            else TEXT["perfect_bounds"].format(upper=perfect["upper_bound"])
        )
        lines.append(TEXT["perfect_won"].format(score=perfect["best_score"], proof=proof))
        lines.append(TEXT["perfect_line"].format(line=" ".join(perfect["line_cells"])))
    elif perfect["status"] == "unwinnable":
        lines.append(TEXT["perfect_unwinnable"])
    else:
        lines.append(TEXT["perfect_unknown"].format(upper=perfect["upper_bound"]))
    return lines
