"""Positions of random games with the kernel's rollout policy's move, and some of the server's hints, written down
for the page's copy of the policy (``static/policy.js``) to check.

``tests/js/policy.test.mjs`` replays each game through engine.js and, at every position before a card is placed,
asks policy.js for the rollout policy's move: it must be the move of :func:`foursquare.kernel.policy_choice`
(the best player's rollout policy, with :data:`foursquare.kernel.POLICY_WEIGHTS`), and policy.js must value each
legal move exactly as the kernel does (:func:`foursquare.kernel.policy_value` after the move; a win at once
``null``, a loss the kernel's losing value). At some positions the file also holds the server's hint
(:func:`foursquare.web.pool.hint_json`, seed 0), which policy.js's ``hint`` must give number for number; and the
first numbers of the kernel's generator, its ``below`` and a shuffle.

The games are played in the four rule sets (game i in ``VARIANTS[i % 4]``), mostly by the policy itself (so they
reach the middle and the end of a game, wins and the stock's end), now and then by a random legal move (so they
also reach positions the policy would not).

The file is JSON Lines: a header, then one game a line. ``tests/js/policy_cases.jsonl`` is a small one, committed
so that ``node --test tests/js/*.test.mjs`` runs alone; ``tests/test_js_policy.py`` writes more. Refresh the
committed one after a change of the policy or the race with ``.venv/bin/python tests/js_policy_support.py``.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from foursquare import kernel as K
from foursquare import players
from foursquare.engine import Game, Move
from foursquare.kernel.state import Array
from js_engine_support import VARIANTS

FORMAT = "foursquare-js-policy-cases"
FIXTURE = Path(__file__).resolve().parent / "js" / "policy_cases.jsonl"
FIXTURE_POSITIONS = 150
FIXTURE_HINTS = 0.03
FIXTURE_SEED = 3  # the first whose positions cover EVERY_CASE of test_js_policy.py: find another after a change

#: The share of moves the games play by the rollout policy (the others: a random legal move).
POLICY_MOVES = 0.8
#: What the kernel's policy counts a losing move as (policies._LOSING_VALUE), less the cells it fills.
LOSING_VALUE = 1e9
#: Seeds of the generator vectors: edges of 64 bits, and one of the server's decision seeds.
RANDOM_SEEDS = (0, 1, 2**32 - 1, 2**32, 2**63, 2**64 - 1, 0x9E3779B97F4A7C15 * 7 + 3)


def _name(cell: int) -> str:
    return K.move_of(cell).name


def move_value(state: Array, cell: int, card: int, work: Array) -> float | None:
    """What the kernel's rollout policy thinks of placing ``card`` at ``cell`` (lower is better): None for a win at
    once, the losing value less the cells filled for a loss, else the policy's value of the position after it."""
    status, _down, occupied = K.evaluate(state, cell, card)
    if status == K.STATUS_WON:
        return None
    if status != K.STATUS_PLAYING:
        return LOSING_VALUE - occupied
    work[:] = state
    K.place(work, cell, card)
    return float(K.policy_value(work, K.POLICY_WEIGHTS))


def _server_hint(game: Game) -> dict[str, Any]:
    """The server's answer to ``GET /api/games/{id}/hint`` in ``game``'s position."""
    from foursquare.web.pool import hint_json  # late: the web extra's imports, for this only

    return hint_json(game.view())


def _risky(game: Game) -> bool:
    """Whether the hint of ``game``'s position runs its second race (a risky position)."""
    view = game.view()
    first = players.race(view, seed=0, playouts=players.HINT_PLAYOUTS, time_budget=None, bonus=players.WIN_BONUS)
    return 0 < first[0].win_probability < players.RISKY_BELOW and len(first) > 1


def play(index: int, rng: random.Random, hint_rate: float) -> dict[str, Any]:
    """Game ``index``: a random deal, its moves, and at each position before a card is placed the kernel
    policy's move and its value of every legal move; at a share ``hint_rate`` of the positions, the server's hint.

    ``hints`` holds ``[position, hint, risky]``: the hint asked before move ``position``, and whether it ran the
    second race.
    """
    variant = VARIANTS[index % len(VARIANTS)]
    deal = rng.getrandbits(64)
    game = Game(deal=deal, variant=variant)
    moves = np.empty(K.MAX_MOVES, dtype=np.int64)
    work = np.empty(K.STATE_SIZE, dtype=np.int8)
    record: dict[str, Any] = {"deal": str(deal), "variant": variant.to_json(), "moves": [], "policy": [], "values": [],
                              "hints": []}
    while not game.is_over():
        state = K.state_of_game(game)
        card = int(game.card_to_place)  # type: ignore[arg-type]  # the game is not over
        n = K.legal(state, moves)
        cells = [int(cell) for cell in moves[:n]]
        assert [K.move_of(cell) for cell in cells] == list(game.legal_moves)
        choice = int(K.policy_choice(state, card, moves, n, K.POLICY_WEIGHTS, work))
        record["policy"].append(_name(choice))
        record["values"].append([move_value(state, cell, card, work) for cell in cells])
        if rng.random() < hint_rate:
            record["hints"].append([len(record["moves"]), _server_hint(game), _risky(game)])
        move: Move = K.move_of(choice) if rng.random() < POLICY_MOVES else rng.choice(game.legal_moves)
        game.place(move.row, move.col)
        record["moves"].append(move.name)
    return record


def random_vectors() -> list[dict[str, Any]]:
    """The kernel generator's first numbers for some seeds, ``below`` of 1 to 64 (and 1000), and a shuffle of the
    deck's last 35 cards."""
    vectors = []
    for seed in RANDOM_SEEDS:
        rng = K.make_rng(seed)
        numbers = [str(int(K.next_random(rng))) for _ in range(8)]
        rng = K.make_rng(seed)
        below = [[n, int(K.below(rng, n))] for n in [*range(1, 65), 1000]]
        rng = K.make_rng(seed)
        stock = np.arange(40, dtype=np.int8)
        K.shuffle_tail(stock, 5, rng)
        vectors.append({"seed": str(seed), "next": numbers, "below": below, "shuffle": stock.tolist()})
    return vectors


def settings() -> dict[str, Any]:
    """The race's and the policy's settings, which policy.js must share."""
    return {
        "weights": K.POLICY_WEIGHTS.tolist(),
        "hint_playouts": players.HINT_PLAYOUTS,
        "batch": players.BATCH,
        "min_rounds": players.MIN_ROUNDS,
        "confidence": players.CONFIDENCE,
        "win_bonus": players.WIN_BONUS,
        "risky_below": players.RISKY_BELOW,
        "risk_bonus": players.RISK_BONUS,
        "hint_ranked_by": players.HINT_RANKED_BY,
    }


def lines(positions: int, seed: int, hint_rate: float) -> Iterator[str]:
    """The file's lines: the header, then games until they hold ``positions`` positions at least (the same for the
    same arguments)."""
    rng = random.Random(seed)
    games: list[dict[str, Any]] = []
    total = 0
    while total < positions:
        games.append(play(len(games), rng, hint_rate))
        total += len(games[-1]["policy"])
    head = {
        "format": FORMAT,
        "seed": seed,
        "games": len(games),
        "positions": total,
        "hints": sum(len(game["hints"]) for game in games),
        **settings(),
        "random": random_vectors(),
    }
    yield json.dumps(head, separators=(",", ":"))
    for game in games:
        yield json.dumps(game, separators=(",", ":"))


def coverage(games: Iterable[dict[str, Any]]) -> set[str]:
    """What the positions exercise, in words: each rule set; a move that wins at once, one that loses, a tie of
    the best values (the first in (row, col) order goes); a single legal move; the policy's move and another
    played; hints in ordinary and risky positions."""
    seen: set[str] = set()
    for game in games:
        seen.add(f"{game['variant']['adjacency']} count_buried={game['variant']['count_buried']}")
        for values, policy, played in zip(game["values"], game["policy"], game["moves"], strict=True):
            seen.add("policy played" if policy == played else "other played")
            if None in values:
                seen.add("wins at once")
                continue
            if len(values) == 1:
                seen.add("one legal move")
            if any(value >= LOSING_VALUE - 16 for value in values):
                seen.add("a losing move")
            if all(value >= LOSING_VALUE - 16 for value in values):
                seen.add("every move loses")
            if values.count(min(values)) > 1:
                seen.add("tie")
        for _position, _hint, risky in game["hints"]:
            seen.add("risky hint" if risky else "ordinary hint")
    return seen


def write(path: Path, positions: int, seed: int, hint_rate: float) -> None:
    with path.open("w", encoding="utf-8") as out:
        for line in lines(positions, seed, hint_rate):
            out.write(line + "\n")


def fixture_text() -> str:
    """What the committed fixture holds."""
    return "".join(line + "\n" for line in lines(FIXTURE_POSITIONS, FIXTURE_SEED, FIXTURE_HINTS))


def main() -> None:
    parser = argparse.ArgumentParser(description="Write the committed positions, or --positions N of them to PATH.")
    parser.add_argument("path", nargs="?", type=Path, help="where to write N positions (default: the fixture)")
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--hints", type=float, default=0.02, help="the share of positions with the server's hint")
    parser.add_argument("--seed", type=int, default=FIXTURE_SEED)
    args = parser.parse_args()
    if args.path is None:
        FIXTURE.write_text(fixture_text(), encoding="utf-8")
    else:
        write(args.path, args.positions, args.seed, args.hints)


if __name__ == "__main__":
    main()
