"""Random games of the Python engine, written down for the page's copy of the rules to replay.

``static/engine.js`` plays Foursquare as :mod:`foursquare.engine` does; ``tests/js/engine.test.mjs`` checks it by
replaying, under Node, the games this module plays with the engine: every action (a placement, an undo, a
redo, a pop, a restart), what it did (the card placed, each flip with its line and reason, the outcome and
score) and the state after it (every pile, card by card with its face; the face-down count; the card to place;
the outcome; undo and redo), the legal cells, why one more cell is illegal or not, and now and then the server's
answer to the placement (:mod:`foursquare.web.views`), which engine.js must give in the same shapes. It also
writes the stock of several numbered deals and the first numbers of SplitMix64. The texts below are the
comparison's terms: the test writes engine.js's games in the same words.

The file is JSON Lines: a header (the deals), then one game a line. ``tests/js/engine_cases.jsonl`` is a small
one, committed so that ``node --test tests/js/*.test.mjs`` runs alone; ``tests/test_js_engine.py`` writes more.
Refresh the committed one after a change of the rules with ``.venv/bin/python tests/js_engine_support.py``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from foursquare.cards import ALL_CARDS, deal_stock, splitmix64
from foursquare.engine import AREA_REACH, CellView, Game, IllegalMoveError, Move, Placement, Variant

FORMAT = "foursquare-js-engine-cases"
FIXTURE = Path(__file__).resolve().parent / "js" / "engine_cases.jsonl"
FIXTURE_GAMES = 16
FIXTURE_SEED = 27  # the first whose 16 games cover EVERY_RULE of test_js_engine.py: find another after a change of play

#: The four rule sets; game i plays the rule set i mod 4.
VARIANTS = (
    Variant("orthogonal", False),
    Variant("orthogonal", True),
    Variant("diagonal", False),
    Variant("diagonal", True),
)

#: Deals at the edges of the numbers a shuffle could get wrong (32, 53 and 64 bits), besides random ones.
EDGE_DEALS = (
    0,
    1,
    2,
    42,
    2**31 - 1,
    2**32 - 1,
    2**32,
    2**53 - 1,
    2**53,
    2**53 + 1,
    2**63 - 1,
    2**63,
    2**64 - 2,
    2**64 - 1,
)
SPLITMIX_SEEDS = (0, 1, 2**63, 2**64 - 1)

# How often a game undoes, redoes, pops or restarts instead of placing a card, and how many actions it takes at
# most (undoing at the end can go on for a while).
UNDO, REDO, POP, RESTART, REPLAY_REDO = 0.07, 0.07, 0.02, 0.004, 0.3
END_UNDO = 0.5
MAX_ACTIONS = 120
# How often the server's answer to a placement is written (making it takes longer than playing), and its
# fields that the rules decide: the rest (the game's id, dates, owner, daily deal) is the server's own.
API_ANSWERS = 1 / 16
API_FIELDS = (
    "variant",
    "turn",
    "card",
    "stock_left",
    "face_down",
    "max_face_down",
    "cells",
    "legal",
    "legal_cells",
    "area",
    "outcome",
    "reason",
    "score",
    "can_undo",
    "can_redo",
    "placed",
    "flips",
)


# The names of cells and cards, looked up (the engine's properties are slow for 10,000 games).
_AXIS = range(-AREA_REACH, AREA_REACH + 1)
_CELL_NAMES = {(row, col): Move(row, col).name for row in _AXIS for col in _AXIS}
_CARD_NAMES = [card.name for card in ALL_CARDS]
_FACES = {True: "+", False: "-"}


def pile_text(pile: CellView) -> str:
    """``D4=3S-AH+``: the cell's name, then each card bottom first with ``+`` face up or ``-`` face down."""
    return (
        _CELL_NAMES[pile.row, pile.col]
        + "="
        + "".join(_CARD_NAMES[card] + _FACES[up] for card, up in zip(pile.cards, pile.face_up, strict=True))
    )


def state_text(game: Game) -> str:
    """Everything the rules decide about a position, in one line."""
    outcome = game.outcome()
    card = game.card_to_place
    return " ".join(
        [
            f"turn={game.turn}",
            f"card={'-' if card is None else _CARD_NAMES[card]}",
            f"left={game.stock_left}",
            f"down={game.face_down}",
            f"outcome={outcome.status}/{outcome.reason or '-'}/{'-' if outcome.score is None else outcome.score}",
            f"undo={int(game.can_undo)}",
            f"redo={','.join(_CELL_NAMES[move] for move in game.redo_moves)}",
            "piles=" + " ".join(pile_text(pile) for pile in game.cells()),
        ]
    )


def placement_text(placement: Placement) -> str:
    """``E4 AH flips=D4:3S-row/lowest outcome=playing/-/-``: a placement, its flips in order and its outcome."""
    flips = " ".join(
        f"{_CELL_NAMES[flip.row, flip.col]}:{_CARD_NAMES[flip.card]}{_FACES[flip.face_up]}{flip.line}/{flip.reason}"
        for flip in placement.flips
    )
    outcome = placement.outcome
    score = "-" if outcome.score is None else outcome.score
    where = f"{_CELL_NAMES[placement.move]} {_CARD_NAMES[placement.card]}"
    return f"{where} flips={flips} outcome={outcome.status}/{outcome.reason or '-'}/{score}"


def legal_text(legal: list[Move]) -> str:
    return ",".join(_CELL_NAMES[move] for move in legal)


def _probe(game: Game, rng: random.Random) -> list[Any]:
    """A cell and why a card may not go there (null when it may): an occupied one half the time, else any."""
    cells = game.cells()
    if cells and rng.random() < 0.5:
        pile = rng.choice(cells)
        row, col = pile.row, pile.col
    else:
        row, col = rng.randint(-4, 4), rng.randint(-4, 4)
    error = game.illegality(row, col)
    return [row, col, None, None] if error is None else [row, col, error.reason, str(error)]


def player_of(index: int) -> str:
    """Who plays game ``index``: random moves lose soon (never a win, never to the end of the stock), so one game
    in 40 plays by the rollout policy, which wins most of its games, and one in 100 by the policy refusing to win,
    which often plays on to the stock's end. The policy's games take ten times longer to play."""
    if index % 40 == 1:
        return "policy"
    if index % 100 == 3:
        return "no_win"
    return "random"


def _lines_score(game: Game) -> float:
    """The rollout policy's score of a position (docs/ai.md; lower is better), on the engine: few face-down
    tops, many cells, lines whose face-up tops span the ranks, and lines of face-down tops that will turn up."""
    cells = game.cells()
    lines: dict[tuple[str, int], list[tuple[int, bool]]] = {}
    for pile in cells:
        top = (pile.top.rank, pile.top_face_up)
        lines.setdefault(("row", pile.row), []).append(top)
        lines.setdefault(("col", pile.col), []).append(top)
    total = game.face_down - 3.286 * len(cells)
    for tops in lines.values():
        up = [rank for rank, face_up in tops if face_up]
        fires = 1.0 if not up else ((10 - max(up)) + (min(up) - 1)) / 10
        total += fires * (0.585 * len(up) - 0.348 * (len(tops) - len(up)))
    return total


def _policy_move(game: Game, legal: list[Move], *, win: bool) -> Move:
    """A good move, tried on a copy: one that wins at once (or, with ``win`` false, one that does not, to play
    on to the end of the stock), else the best by :func:`_lines_score`, a losing one worst."""
    trial = game.copy()
    best, best_score = legal[0], math.inf
    for move in legal:
        outcome = trial.place(move.row, move.col).outcome
        if outcome.status == "won" and win:
            return move
        score = math.inf if outcome.is_over else _lines_score(trial)
        trial.pop()
        if score < best_score:
            best, best_score = move, score
    return best


def api_answer(game: Game, placement: Placement) -> dict[str, Any]:
    """What the server answers after ``placement`` (``views.move_result``), less what the rules do not decide:
    the API's shapes that engine.js's ``Game.state()`` and placements must have for the page to draw them."""
    from foursquare.store.games import StoredGame  # late: the web extra's imports, for this only
    from foursquare.web import views

    outcome = game.outcome()
    stored = StoredGame(
        id="game",
        player="player",
        deal=game.deal,
        stock=None if game.deal is not None else game.stock,
        deal_hidden=False,
        variant=game.variant,
        moves=tuple(game.moves),
        redo=tuple(game.redo_moves),
        turn=game.turn,
        outcome=outcome.status,
        reason=outcome.reason,
        score=outcome.score,
        analysis=None,
        created_at="",
        updated_at="",
    )
    answer = views.move_result(stored, game, placement, viewer="player").model_dump(mode="json")
    return {key: answer[key] for key in API_FIELDS}


def _act(game: Game, legal: list[Move], rng: random.Random, player: str) -> tuple[str, str, Placement | None] | None:
    """One random action (mostly a placement among ``legal``, the legal moves; at the end, an undo half the time)
    and what it did, or None to stop.

    A pop keeps the redo list, whose next move may then be illegal: redoing it raises (and drops it).
    """
    if game.is_over():
        return ("undo", placement_text(game.undo()), None) if rng.random() < END_UNDO else None
    draw = rng.random()
    if draw < UNDO and game.can_undo:
        return "undo", placement_text(game.undo()), None
    draw -= UNDO
    if draw < REDO and game.can_redo:
        try:
            placement = game.redo()
        except IllegalMoveError as error:
            return "redo", f"illegal {error.reason}", None
        return "redo", placement_text(placement), placement
    draw -= REDO
    if draw < POP and game.can_undo:
        return "pop", placement_text(game.pop()), None
    if player == "random" or rng.random() < 0.05:
        move = rng.choice(legal)
    else:
        move = _policy_move(game, legal, win=player == "policy")
    if game.can_redo and rng.random() < REPLAY_REDO and game.is_legal(*game.redo_moves[0]):
        move = game.redo_moves[0]  # placed again by hand: the redo list keeps the rest
    placement = game.place(move.row, move.col)
    return _CELL_NAMES[move], placement_text(placement), placement


def play(index: int, rng: random.Random) -> dict[str, Any]:
    """Game ``index`` of a file: a random deal (now and then an edge deal, or an explicit stock), played by
    :func:`player_of` with random undos, redos, pops and restarts.

    ``answers`` holds the server's answer (:func:`api_answer`) after some placements (one in 16, and the first
    that ends the game if none before), as ``[step, answer]``.

    Each step is ``[action, what it did, state, legal cells, probe]``: the action is a cell's name (a
    placement), ``undo``, ``redo``, ``pop``, ``restart`` or ``start`` (the game before any action, which did
    nothing: ``""``); what it did is the placement placed or taken back, ``illegal <reason>`` for a redo that
    raised, ``""`` for a restart.
    """
    variant = VARIANTS[index % len(VARIANTS)]
    draw = rng.random()
    if draw < 0.05:
        stock = list(ALL_CARDS)
        rng.shuffle(stock)
        game = Game(stock=stock, variant=variant)
    else:
        game = Game(deal=rng.choice(EDGE_DEALS) if draw < 0.1 else rng.getrandbits(64), variant=variant)
    player = player_of(index)
    legal = game.legal_moves
    steps: list[list[Any]] = [["start", "", state_text(game), legal_text(legal), _probe(game, rng)]]
    answers: list[list[Any]] = []
    for _ in range(MAX_ACTIONS):
        placement = None
        if rng.random() < RESTART and game.can_undo:
            game.restart()
            action, did = "restart", ""
        else:
            acted = _act(game, legal, rng, player)
            if acted is None:
                break
            action, did, placement = acted
        legal = game.legal_moves
        steps.append([action, did, state_text(game), legal_text(legal), _probe(game, rng)])
        if placement is not None and (rng.random() < API_ANSWERS or (placement.outcome.is_over and not answers)):
            answers.append([len(steps) - 1, api_answer(game, placement)])
    return {
        "deal": None if game.deal is None else str(game.deal),
        "stock": None if game.deal is not None else " ".join(card.name for card in game.stock),
        "variant": variant.to_json(),
        "steps": steps,
        "answers": answers,
    }


def header(random_deals: int, rng: random.Random) -> dict[str, Any]:
    """The deal vectors: the stock of each edge deal and of ``random_deals`` random ones; SplitMix64's first numbers."""
    deals = [*EDGE_DEALS, *(rng.getrandbits(64) for _ in range(random_deals))]
    splitmix = []
    for seed in SPLITMIX_SEEDS:
        numbers = iter(splitmix64(seed))
        splitmix.append([str(seed), [str(next(numbers)) for _ in range(5)]])
    return {
        "format": FORMAT,
        "deals": [[str(deal), " ".join(card.name for card in deal_stock(deal))] for deal in deals],
        "splitmix64": splitmix,
    }


def lines(games: int, seed: int, random_deals: int = 100) -> Iterator[str]:
    """The file's lines: the header, then ``games`` games (the same for the same arguments)."""
    rng = random.Random(seed)
    head = header(random_deals, rng)
    yield json.dumps({**head, "seed": seed, "games": games}, separators=(",", ":"))
    for index in range(games):
        yield json.dumps(play(index, rng), separators=(",", ":"))


def coverage(games: Iterable[dict[str, Any]]) -> set[str]:
    """What the games exercise, in words: each outcome, flip reason and line, why a probed cell was illegal (or
    ``legal``), each kind of action, each rule set, and games from explicit stocks."""
    seen: set[str] = set()
    for game in games:
        seen.add("stock" if game["deal"] is None else "deal")
        seen.add(f"{game['variant']['adjacency']} count_buried={game['variant']['count_buried']}")
        for action, did, state, _legal, probe in game["steps"]:
            seen.add(action if not action[0].isupper() else "place")
            seen.update(f"outcome {end}" for end in ("won", "too_many_face_down", "stock_empty") if end in state)
            for line, reason in re.findall(r":\w+[+-](row|column)/(\w+)", did):
                seen.update((f"flip {line}", f"flip {reason}"))
            seen.add(f"probe {probe[2] or 'legal'}")
            if did.startswith("illegal"):
                seen.add(f"redo {did}")
    return seen


def write(path: Path, games: int, seed: int, random_deals: int = 100) -> None:
    with path.open("w", encoding="utf-8") as out:
        for line in lines(games, seed, random_deals):
            out.write(line + "\n")


def fixture_text() -> str:
    """What the committed fixture holds."""
    return "".join(line + "\n" for line in lines(FIXTURE_GAMES, FIXTURE_SEED, random_deals=20))


def main() -> None:
    parser = argparse.ArgumentParser(description="Write the committed games, or --games N of them to PATH.")
    parser.add_argument("path", nargs="?", type=Path, help="where to write N games (default: the committed fixture)")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=FIXTURE_SEED)
    args = parser.parse_args()
    if args.path is None:
        FIXTURE.write_text(fixture_text(), encoding="utf-8")
    else:
        write(args.path, args.games, args.seed)


if __name__ == "__main__":
    main()
