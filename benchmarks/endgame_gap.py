"""How far each player is from the true optimum where it can be computed: end games with few cards unseen.

    .venv/bin/python benchmarks/endgame_gap.py 1 200 5 [jobs=2] > endgame_gap.jsonl

The positions: in each of deals FIRST..LAST, the greedy player's position with UNSEEN cards not yet seen (its
games run long, so nearly every deal has one; a deal already over there has none). At each, every player
(random, greedy, best, expert; seed 0) chooses its move from the same view, and
:func:`foursquare.solver.expectimax.judge_moves` settles exactly the expected score of each choice and of the
best move, each followed by the best play under the hidden stock. A player's loss at a position is the best
expected score minus its move's. One JSON line per position, then the summary: for each player the mean loss
with its standard error, the share of positions where its move was a best one, its mean loss where the
optimum is above nothing (a win still possible), and the mean optimum. A
position whose search needs more than the budget of positions is counted as unsettled and left out.
The runs published in docs/results.md are endgame_gap_4.jsonl, endgame_gap_5.jsonl and endgame_gap_6.jsonl beside this script.
"""

from __future__ import annotations

import json
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from foursquare.engine import Game, View
from foursquare.players import make_player, warm_up
from foursquare.solver.expectimax import BudgetExceeded, judge_moves

PLAYERS = ("random", "greedy", "best", "expert")
BUDGET = 2_000_000
TIE = 1e-9


def position(deal: int, unseen: int) -> View | None:
    """The greedy player's position in ``deal`` with ``unseen`` cards unseen, or None if the game ended first."""
    game, greedy = Game(deal=deal), make_player("greedy", seed=0)
    while not game.is_over() and len(game.view().unseen) > unseen:
        move = greedy.choose(game.view())
        game.place(move.row, move.col)
    return None if game.is_over() else game.view()


def judge(job: tuple[int, int]) -> dict[str, Any]:
    deal, unseen = job
    view = position(deal, unseen)
    if view is None:
        return {"deal": deal, "status": "over"}
    moves = [make_player(name, seed=0).choose(view) for name in PLAYERS]
    try:
        judgements = judge_moves(view, moves, BUDGET)
    except BudgetExceeded:
        return {"deal": deal, "status": "unsettled"}
    return {
        "deal": deal,
        "status": "settled",
        "optimum": judgements[0].best,
        "best_move": judgements[0].best_move.name,
        "moves": {name: move.name for name, move in zip(PLAYERS, moves, strict=True)},
        "loss": {name: j.loss for name, j in zip(PLAYERS, judgements, strict=True)},
    }


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    settled = [r for r in rows if r["status"] == "settled"]
    winnable = [r for r in settled if r["optimum"] > 0]
    out: dict[str, Any] = {
        "positions": len(settled),
        "unsettled": sum(r["status"] == "unsettled" for r in rows),
        "over": sum(r["status"] == "over" for r in rows),
        "winnable": len(winnable),
        "mean_optimum": statistics.fmean(r["optimum"] for r in settled) if settled else 0.0,
    }
    for name in PLAYERS:
        losses = [r["loss"][name] for r in settled]
        sem = statistics.stdev(losses) / len(losses) ** 0.5 if len(losses) > 1 else 0.0
        out[name] = {
            "mean_loss": statistics.fmean(losses) if losses else 0.0,
            "sem": sem,
            "best_share": sum(loss <= TIE for loss in losses) / len(losses) if losses else 0.0,
            "mean_loss_winnable": statistics.fmean(r["loss"][name] for r in winnable) if winnable else 0.0,
        }
    return out


def main() -> None:
    first, last, unseen = (int(a) for a in sys.argv[1:4])
    settings = dict(a.split("=", 1) for a in sys.argv[4:])
    jobs = [(deal, unseen) for deal in range(first, last + 1)]
    rows = []
    with ProcessPoolExecutor(int(settings.get("jobs", 1)), initializer=warm_up, initargs=("expert",)) as pool:
        for row in pool.map(judge, jobs):
            rows.append(row)
            print(json.dumps(row), flush=True)
    print(json.dumps({"summary": summary(rows)}), flush=True)


if __name__ == "__main__":
    main()
