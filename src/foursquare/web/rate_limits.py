"""Fair use: how often one client may start games, ask hints and analyses, use passkeys and export its games (429
``rate_limited``).

A client is its address (:func:`foursquare.web.deps.get_client`), not its cookie, which it may drop at will.
Each limit is a `limits <https://limits.readthedocs.io>`_ string (``"60/minute"``, ``"1000/day"``, several
joined by ``;``) counted in a moving window, in the server's memory: a restart forgets the counts. The defaults
are far above what a person playing does (a game a second, for a minute); they are there against scripts.

>>> limits = RateLimits.from_environment({"FOURSQUARE_RATE_HINTS": "2/hour"})
>>> [limits.retry_after("hints", "203.0.113.9") for _ in range(3)][:2], limits.hints
([None, None], '2/hour')
>>> limits.retry_after("hints", "203.0.113.9") > 0 and limits.retry_after("hints", "198.51.100.7") is None
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Literal

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

Kind = Literal["games", "hints", "analyses", "passkeys", "exports"]

DEFAULTS: dict[Kind, str] = {
    "games": "60/minute;1000/day",
    "hints": "120/minute",
    "analyses": "60/minute",
    "passkeys": "30/minute;300/day",
    "exports": "10/minute;100/day",
}
"""The limits when the environment names none: per client address. ``passkeys`` counts every request of the
account routes that give out a challenge or check an authenticator's answer (creating a passkey or signing in
is two of them); ``exports`` counts ``GET /api/account/export``, which rebuilds every game of the player."""

VARIABLES: dict[Kind, str] = {
    "games": "FOURSQUARE_RATE_GAMES",
    "hints": "FOURSQUARE_RATE_HINTS",
    "analyses": "FOURSQUARE_RATE_ANALYSES",
    "passkeys": "FOURSQUARE_RATE_PASSKEYS",
    "exports": "FOURSQUARE_RATE_EXPORTS",
}
MAX_AMOUNT = 10**9
"""More than any server answers in its window: a bigger number is a typing mistake."""


class RateLimitSettingsError(ValueError):
    """A limit that cannot be read, or cannot be meant (none allowed, or a number beyond belief)."""


def parse_limit(name: str, text: str) -> list[RateLimitItem]:
    """The limits of ``text`` (e.g. ``"60/minute;1000/day"``), or :class:`RateLimitSettingsError` naming ``name``."""
    try:
        items = parse_many(text)
    except ValueError:
        items = []
    if not items:
        raise RateLimitSettingsError(f"{name} must be a rate such as '60/minute' or '60/minute;1000/day', not {text!r}")
    for item in items:
        if not 1 <= item.amount <= MAX_AMOUNT:
            raise RateLimitSettingsError(f"{name}: {item.amount} per {item.GRANULARITY.name} must be 1 to {MAX_AMOUNT}")
    return items


@dataclass(frozen=True)
class RateLimits:
    """The limit of each kind of request, and the counts of each client in the current windows."""

    games: str = DEFAULTS["games"]
    hints: str = DEFAULTS["hints"]
    analyses: str = DEFAULTS["analyses"]
    passkeys: str = DEFAULTS["passkeys"]
    exports: str = DEFAULTS["exports"]
    _items: dict[str, list[RateLimitItem]] = field(init=False, repr=False, compare=False)
    _limiter: MovingWindowRateLimiter = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        items = {f.name: parse_limit(f.name, getattr(self, f.name)) for f in fields(self) if f.init}
        object.__setattr__(self, "_items", items)
        object.__setattr__(self, "_limiter", MovingWindowRateLimiter(MemoryStorage()))

    @classmethod
    def from_environment(cls, environ: Mapping[str, str]) -> RateLimits:
        """The limits named by ``FOURSQUARE_RATE_GAMES``, ``…_HINTS``, ``…_ANALYSES``, ``…_PASSKEYS``,
        ``…_EXPORTS``; the defaults for the others."""
        given: dict[str, str] = {}
        for kind, name in VARIABLES.items():
            text = environ.get(name)
            if text:
                parse_limit(name, text)  # refused in the variable's name
                given[kind] = text
        return cls(**given)

    def retry_after(self, kind: Kind, client: str) -> int | None:
        """Count one request of ``kind`` by ``client``: None if allowed, else the seconds until it would be.

        A refused request counts in no window: retrying past the minute's limit does not spend the day's.
        """
        items = self._items[kind]
        over = [item for item in items if not self._limiter.test(item, kind, client)]
        if not over:
            for item in items:
                self._limiter.hit(item, kind, client)
            return None
        reset = max(self._limiter.get_window_stats(item, kind, client).reset_time for item in over)
        return max(1, math.ceil(reset - time.time()))
