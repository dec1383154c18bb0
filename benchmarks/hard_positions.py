"""Compare settings of the ``best`` player where it loses: from hard mid-game positions.

The ``best`` player loses under 1 % of whole games, too few to tell two settings apart over a
thousand deals. Its losses come from bad mid-game positions, so this script makes such positions
and plays every setting from them, on the same futures:

1. ``positions``: for deals FIRST.., play the rollout policy alone (``kernel.policy_choice``) up to a
   turn drawn between 9 and 14 (seeded by the deal), and keep the position when the default hint's
   best win probability lies in [LOW, HIGH]; stop after COUNT positions. Writes JSON.
2. ``play``: from every position, REPS futures (the unseen cards reshuffled, seeded by deal and
   repetition, so two settings meet the same futures), played to the end by ``best`` with the
   setting's module constants overridden (``--set WIN_BONUS=20 --set BEST_PLAYOUTS=6000``); prints
   games, losses and mean score, and writes one line per game when ``--out`` is given.

    .venv/bin/python benchmarks/hard_positions.py positions hard.json --first 30001 --count 400
    .venv/bin/python benchmarks/hard_positions.py play hard.json --reps 2 --set RISK_BONUS=0
"""

from __future__ import annotations

import argparse
import json
import random
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from foursquare import kernel as K
from foursquare import players as P
from foursquare.cards import deal_stock
from foursquare.engine import Game


def make_positions(first: int, count: int, low: float, high: float) -> list[dict[str, Any]]:
    work = np.empty(K.STATE_SIZE, dtype=np.int8)
    cells = np.empty(K.MAX_MOVES, dtype=np.int64)
    found: list[dict[str, Any]] = []
    deal = first
    while len(found) < count:
        game = Game(deal=deal)
        turn = random.Random(deal).randint(9, 14)
        while game.turn < turn and not game.is_over():
            state = K.state_of_game(game)
            n = K.legal(state, cells)
            move = K.move_of(int(K.policy_choice(state, int(game.card_to_place), cells, n, K.POLICY_WEIGHTS, work)))
            game.place(move.row, move.col)
        if not game.is_over():
            best = P.race(game.view(), seed=1, playouts=P.HINT_PLAYOUTS, time_budget=None)[0]
            if low <= best.win_probability <= high:
                found.append({"deal": deal, "turn": game.turn, "moves": [[m.row, m.col] for m in game.moves]})
        deal += 1
    return found


SETTINGS: dict[str, float] = {}


def _configure(settings: dict[str, float]) -> None:
    for name, value in settings.items():
        # set where the constant is read: the module of the package that defines it
        module = next(m for m in (P.evaluation, P.player, P.hints) if hasattr(m, name))
        setattr(module, name, type(getattr(module, name))(value))
    P.warm_up()


def _play(job: tuple[dict[str, Any], int]) -> tuple[bool, int, float, int]:
    position, rep = job
    stock = list(deal_stock(position["deal"]))
    turn = position["turn"]
    tail = stock[turn + 1:]
    random.Random(position["deal"] * 1000 + rep).shuffle(tail)
    game = Game(stock=stock[: turn + 1] + tail)
    for row, col in position["moves"]:
        game.place(row, col)
    player = P.make_player("best")
    start = time.process_time()
    moves = 0
    while not game.is_over():
        move = player.choose(game.view())
        game.place(move.row, move.col)
        moves += 1
    outcome = game.outcome()
    return outcome.status == "won", outcome.score or 0, time.process_time() - start, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    make = sub.add_parser("positions")
    make.add_argument("file")
    make.add_argument("--first", type=int, default=30001)
    make.add_argument("--count", type=int, default=400)
    make.add_argument("--low", type=float, default=0.4)
    make.add_argument("--high", type=float, default=0.8)
    play = sub.add_parser("play")
    play.add_argument("file")
    play.add_argument("--reps", type=int, default=2)
    play.add_argument("--jobs", type=int, default=2)
    play.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    play.add_argument("--out")
    args = parser.parse_args()
    if args.command == "positions":
        with open(args.file, "w") as f:
            json.dump(make_positions(args.first, args.count, args.low, args.high), f)
        return
    settings = {name: float(value) for name, value in (item.split("=", 1) for item in args.set)}
    with open(args.file) as f:
        positions = json.load(f)
    jobs = [(p, r) for r in range(args.reps) for p in positions]
    with ProcessPoolExecutor(args.jobs, initializer=_configure, initargs=(settings,)) as pool:
        results = list(pool.map(_play, jobs, chunksize=4))
    losses = sum(not won for won, *_ in results)
    print(json.dumps({
        "settings": settings, "games": len(results), "losses": losses,
        "mean_score": sum(r[1] for r in results) / len(results),
        "cpu_seconds_per_move": sum(r[2] for r in results) / max(1, sum(r[3] for r in results)),
    }))
    if args.out:
        with open(args.out, "w") as f:
            for (position, rep), (won, score, _, _) in zip(jobs, results, strict=True):
                f.write(json.dumps({"deal": position["deal"], "rep": rep, "won": won, "score": score}) + "\n")


if __name__ == "__main__":
    main()
