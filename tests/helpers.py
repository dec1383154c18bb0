"""Helpers for building hand-made positions in tests."""

from __future__ import annotations

from collections.abc import Iterable

from foursquare.cards import ALL_CARDS, Card
from foursquare.engine import Game, Variant


def stock_starting(names: str) -> list[Card]:
    """A full stock that starts with the given cards (space separated), the rest in deck order."""
    head = [Card.parse(n) for n in names.split()]
    return head + [c for c in ALL_CARDS if c not in head]


def game_with(names: str, moves: Iterable[tuple[int, int]] = (), variant: Variant | None = None) -> Game:
    """A game whose stock starts with ``names``, after playing ``moves``."""
    game = Game(stock=stock_starting(names), variant=variant)
    for row, col in moves:
        game.place(row, col)
    return game


def tops(game: Game) -> dict[tuple[int, int], tuple[str, bool]]:
    return {(c.row, c.col): (c.top.name, c.top_face_up) for c in game.cells()}


def greedy_game(deal: int, moves: int) -> Game:
    """Deal ``deal`` after ``moves`` moves of the greedy player."""
    from foursquare.players import make_player

    game = Game(deal=deal)
    greedy = make_player("greedy")
    for _ in range(moves):
        move = greedy.choose(game.view())
        game.place(move.row, move.col)
    return game
