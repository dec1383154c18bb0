"""Cards and numbered deals.

A card is an ``int`` from 0 to 39: ``(rank - 1) * 4 + suit``, suits in the order
C, D, H, S. That is also the deck order the deal shuffle starts from, so
``Card(i)`` is the card at position ``i`` before shuffling.

>>> Card.parse("10H").rank, Card.parse("10H").suit
(10, 'H')
>>> str(Card.parse("AS")), Card.parse("AS").symbol
('AS', 'A♠')
>>> [str(c) for c in deal_stock(1)[:5]]
['3S', 'AH', '5C', '7H', '8C']
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence

from foursquare.errors import FoursquareError

SUITS = "CDHS"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_NAMES = {1: "A", 10: "10"}
DECK_SIZE = 40
MAX_DEAL = 2**64

_MASK64 = 2**64 - 1


class CardError(FoursquareError):
    """A card name or a stock order is malformed."""


class Card(int):
    """One of the 40 cards; an ``int`` 0–39 with named views of it."""

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        if not 0 <= index < DECK_SIZE:
            raise CardError(f"card index {index} is not in 0..39")
        return super().__new__(cls, index)

    @classmethod
    def from_rank_suit(cls, rank: int, suit: str) -> Card:
        if not 1 <= rank <= 10:
            raise CardError(f"rank {rank} is not in 1..10")
        if suit not in SUITS or len(suit) != 1:
            raise CardError(f"suit {suit!r} is not one of C, D, H, S")
        return cls((rank - 1) * 4 + SUITS.index(suit))

    @classmethod
    def parse(cls, name: str) -> Card:
        """Parse a short name such as ``AC``, ``7h`` or ``10S`` (case-insensitive)."""
        if not isinstance(name, str):
            raise CardError(f"card name must be a string, not {type(name).__name__}")
        text = name.strip().upper()
        if len(text) < 2:
            raise CardError(f"bad card name {name!r}: expected a rank A, 2..10 and a suit C, D, H, S")
        rank_text, suit = text[:-1], text[-1]
        if suit not in SUITS:
            raise CardError(f"bad card name {name!r}: suit must be one of C, D, H, S")
        if rank_text == "A":
            rank = 1
        elif rank_text.isdigit() and 2 <= int(rank_text) <= 10 and rank_text == str(int(rank_text)):
            rank = int(rank_text)
        else:
            raise CardError(f"bad card name {name!r}: rank must be A or 2..10")
        return cls.from_rank_suit(rank, suit)

    @property
    def rank(self) -> int:
        """1 (ace, low) to 10 (high)."""
        return int(self) // 4 + 1

    @property
    def suit(self) -> str:
        return SUITS[int(self) % 4]

    @property
    def rank_name(self) -> str:
        return RANK_NAMES.get(self.rank, str(self.rank))

    @property
    def name(self) -> str:
        """The short name used in records and on the command line, e.g. ``10S``."""
        return self.rank_name + self.suit

    @property
    def symbol(self) -> str:
        """The name with a suit symbol, e.g. ``10♠``."""
        return self.rank_name + SUIT_SYMBOLS[self.suit]

    @property
    def label(self) -> str:
        """A spoken label for screen readers, e.g. ``10 of spades``."""
        rank = {1: "ace"}.get(self.rank, str(self.rank))
        return f"{rank} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Card.parse({self.name!r})"


ALL_CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(DECK_SIZE))


def splitmix64(seed: int) -> Iterable[int]:
    """The SplitMix64 generator, seeded with ``seed``, as an endless iterator."""
    state = seed & _MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & _MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        yield z ^ (z >> 31)


def check_deal_number(deal: int) -> int:
    if isinstance(deal, bool) or not isinstance(deal, int):
        raise CardError(f"deal number must be an integer, not {deal!r}")
    if not 0 <= deal < MAX_DEAL:
        raise CardError(f"deal number {deal} is outside 0 .. 2**64 - 1")
    return deal


def deal_stock(deal: int) -> tuple[Card, ...]:
    """The stock order of deal ``deal``; position 0 is drawn first.

    Fisher–Yates over the ordered deck, driven by SplitMix64 seeded with the deal number.
    """
    check_deal_number(deal)
    positions = list(ALL_CARDS)
    numbers = iter(splitmix64(deal))
    for i in range(DECK_SIZE - 1, 0, -1):
        j = next(numbers) % (i + 1)
        positions[i], positions[j] = positions[j], positions[i]
    return tuple(positions)


def random_deal_number() -> int:
    return secrets.randbits(64)


def parse_stock(names: Sequence[object]) -> tuple[Card, ...]:
    """Parse an explicit stock order: exactly the 40 cards, each once."""
    if isinstance(names, str) or not isinstance(names, Sequence):
        raise CardError("stock must be a list of 40 card names")
    cards: list[Card] = []
    seen: dict[int, int] = {}
    for index, name in enumerate(names):
        if isinstance(name, Card):
            card = name
        elif isinstance(name, str):
            try:
                card = Card.parse(name)
            except CardError as exc:
                raise CardError(f"stock position {index}: {exc}") from None
        else:
            raise CardError(f"stock position {index}: card name must be a string, not {name!r}")
        if card in seen:
            raise CardError(f"stock position {index}: duplicate card {card.name} (also at position {seen[card]})")
        seen[card] = index
        cards.append(card)
    if len(cards) != DECK_SIZE:
        missing = ", ".join(c.name for c in ALL_CARDS if c not in seen)
        raise CardError(f"stock has {len(cards)} cards, not 40 (missing: {missing})")
    return tuple(cards)
