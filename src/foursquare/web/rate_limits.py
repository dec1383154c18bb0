"""Fair use: how often one client may start games, deal winnable ones, change games, ask hints and analyses, use
passkeys, export its games and send the games it played offline (429 ``rate_limited``).

A client is its address (:func:`foursquare.web.deps.get_client`), not its cookie, which it may drop at will.
Each limit is a `limits <https://limits.readthedocs.io>`_ string (``"60/minute"``, ``"1000/day"``, several
joined by ``;``) counted in a moving window: in the server's memory on SQLite (a restart forgets the counts), and
in the database on PostgreSQL (:meth:`RateLimits.shared_in`), so that several servers count each client once.
The defaults are far above what a person playing does (a game a second, for a minute); they are there against scripts.

>>> limits = RateLimits.from_environment({"FOURSQUARE_RATE_HINTS": "2/hour"})
>>> [limits.retry_after("hints", "203.0.113.9") for _ in range(3)][:2], limits.hints
([None, None], '2/hour')
>>> limits.retry_after("hints", "203.0.113.9") > 0 and limits.retry_after("hints", "198.51.100.7") is None
True
"""

from __future__ import annotations

import bisect
import itertools
import math
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from datetime import timedelta
from typing import Literal

from limits import RateLimitItem, parse_many
from limits.storage import MovingWindowSupport, Storage
from limits.strategies import MovingWindowRateLimiter

from foursquare.store import Store, StoreError

Kind = Literal["games", "winnable", "moves", "hints", "analyses", "passkeys", "exports", "offline"]

DEFAULTS: dict[Kind, str] = {
    "games": "60/minute;1000/day",
    "winnable": "10/minute;200/day",
    "moves": "10/second;600/minute",
    "hints": "120/minute",
    "analyses": "60/minute",
    "passkeys": "30/minute;300/day",
    "exports": "10/minute;100/day",
    "offline": "30/minute;300/day",
}
"""The limits when the environment names none: per client address. ``winnable`` counts the new games that ask for
a winnable deal (each is a solver's search; they count as ``games`` too); ``moves`` counts every change of a game
(a move, undo, redo, restart); ``passkeys`` counts every request of the account routes that give out a challenge
or check an authenticator's answer (creating a passkey or signing in is two of them) and every change of the
account's passkeys and sessions (renaming, removing, signing out a device); ``exports`` counts ``GET
/api/account/export``, which rebuilds every game of the player; ``offline`` counts the games played offline sent
(``POST /api/offline-games``: each a replay of up to 40 moves), a device sending each of its games once or a few
times."""

VARIABLES: dict[Kind, str] = {
    "games": "FOURSQUARE_RATE_GAMES",
    "winnable": "FOURSQUARE_RATE_WINNABLE",
    "moves": "FOURSQUARE_RATE_MOVES",
    "hints": "FOURSQUARE_RATE_HINTS",
    "analyses": "FOURSQUARE_RATE_ANALYSES",
    "passkeys": "FOURSQUARE_RATE_PASSKEYS",
    "exports": "FOURSQUARE_RATE_EXPORTS",
    "offline": "FOURSQUARE_RATE_OFFLINE",
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
    winnable: str = DEFAULTS["winnable"]
    moves: str = DEFAULTS["moves"]
    hints: str = DEFAULTS["hints"]
    analyses: str = DEFAULTS["analyses"]
    passkeys: str = DEFAULTS["passkeys"]
    exports: str = DEFAULTS["exports"]
    offline: str = DEFAULTS["offline"]
    _items: dict[str, list[RateLimitItem]] = field(init=False, repr=False, compare=False)
    _limiter: MovingWindowRateLimiter = field(init=False, repr=False, compare=False)
    _refused: dict[str, int] = field(init=False, repr=False, compare=False)
    _refused_guard: threading.Lock = field(init=False, repr=False, compare=False, default_factory=threading.Lock)

    def __post_init__(self) -> None:
        items = {f.name: parse_limit(f.name, getattr(self, f.name)) for f in fields(self) if f.init}
        object.__setattr__(self, "_items", items)
        object.__setattr__(self, "_refused", dict.fromkeys(items, 0))
        object.__setattr__(self, "_limiter", MovingWindowRateLimiter(LocalStorage()))

    @classmethod
    def from_environment(cls, environ: Mapping[str, str]) -> RateLimits:
        """The limits named by ``FOURSQUARE_RATE_GAMES``, ``…_WINNABLE``, ``…_MOVES``, ``…_HINTS``, ``…_ANALYSES``,
        ``…_PASSKEYS``, ``…_EXPORTS``; the defaults for the others."""
        given: dict[str, str] = {}
        for kind, name in VARIABLES.items():
            text = environ.get(name)
            if text:
                parse_limit(name, text)  # refused in the variable's name
                given[kind] = text
        return cls(**given)

    def longest_window(self) -> timedelta:
        """The longest window of these limits: a count older than this is in no window (the purges forget it)."""
        return timedelta(seconds=max(item.get_expiry() for items in self._items.values() for item in items))

    def shared_in(self, store: Store) -> None:
        """Count in ``store``'s database from now on (PostgreSQL: every server on it shares the counts)."""
        keep = self.longest_window().total_seconds()
        object.__setattr__(self, "_limiter", MovingWindowRateLimiter(StoreStorage(store, keep=keep)))

    @property
    def in_memory(self) -> bool:
        """Whether the counts are in this process's memory (not shared through the database)."""
        return isinstance(self._limiter.storage, LocalStorage)

    def retry_after(self, kind: Kind, client: str) -> int | None:
        """Count one request of ``kind`` by ``client``: None if allowed, else the seconds until it would be.

        A refused request counts in no window: retrying past the minute's limit does not spend the day's.
        """
        items = self._items[kind]
        over = [item for item in items if not self._limiter.test(item, kind, client)]
        if not over:
            # Another server may have taken the last place since the test: a hit refused is a request refused.
            over = [item for item in items if not self._limiter.hit(item, kind, client)]
            if not over:
                return None
        reset = max(self._limiter.get_window_stats(item, kind, client).reset_time for item in over)
        with self._refused_guard:  # counted in worker threads as well as in the event loop
            self._refused[kind] += 1
        return max(1, math.ceil(reset - time.time()))

    def refusals(self) -> dict[str, int]:
        """How many requests of each kind this server refused since it started (the metrics read it)."""
        with self._refused_guard:
            return dict(self._refused)


PURGE_EVERY_HITS = 1000
"""A server deletes every client's counts older than the longest window once in so many requests it counts: the
counts of clients who went away, which their own next request would have deleted."""


class MovingWindowOnly(Storage, MovingWindowSupport):
    """A ``limits`` storage for the moving window alone: always healthy, and without the fixed window's calls."""

    STORAGE_SCHEME = None

    def check(self) -> bool:
        return True

    # The fixed-window calls, which the moving window never makes.
    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        raise NotImplementedError("the rate limits use the moving window")

    def get(self, key: str) -> int:
        raise NotImplementedError("the rate limits use the moving window")

    def get_expiry(self, key: str) -> float:
        raise NotImplementedError("the rate limits use the moving window")


SWEEP_EVERY = 60.0
"""Seconds between two sweeps of :class:`LocalStorage`, which forget the clients whose hits have all expired."""


class LocalStorage(MovingWindowOnly):
    """``limits``' storage in this process's memory, for the moving window: each key's hit times, oldest first.

    ``limits``' own ``MemoryStorage`` expires its entries on a timer thread that it starts again every 10 ms while
    requests come and that walks every key: beside a hundred players that thread took an eighth of the server's
    interpreter from the moves (benchmarks/hint_traffic_history.md). Here a key's expired hits are dropped when
    the key is used, and the keys of clients gone quiet once every :data:`SWEEP_EVERY` seconds.
    """

    def __init__(self) -> None:
        super().__init__()
        self._hits: dict[str, tuple[int, list[float]]] = {}  # key: (its window in seconds, its hits in the window)
        self._guard = threading.Lock()
        self._swept = time.time()

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return ValueError

    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        now = time.time()
        with self._guard:
            self._sweep(now)
            hits = self._window(key, expiry, now)
            if len(hits) + amount > limit:
                return False
            hits.extend([now] * amount)
            self._hits[key] = (expiry, hits)
            return True

    def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        now = time.time()
        with self._guard:
            hits = self._window(key, expiry, now)
        return (hits[0], len(hits)) if hits else (now, 0)

    def _window(self, key: str, expiry: int, now: float) -> list[float]:
        """The hits of ``key`` within its window, the older ones dropped (the caller holds the guard)."""
        hits = self._hits.get(key, (expiry, []))[1]
        del hits[: bisect.bisect_right(hits, now - expiry)]
        return hits

    def _sweep(self, now: float) -> None:
        if now - self._swept < SWEEP_EVERY:
            return
        self._swept = now
        for key, (expiry, hits) in list(self._hits.items()):
            if not hits or hits[-1] <= now - expiry:
                del self._hits[key]

    def clear(self, key: str) -> None:
        with self._guard:
            self._hits.pop(key, None)

    def reset(self) -> int | None:
        with self._guard:
            count = len(self._hits)
            self._hits.clear()
        return count


class StoreStorage(MovingWindowOnly):
    """``limits``' storage in the games database (:class:`~foursquare.store.rates.RateHits`), for the moving window;
    counts older than ``keep`` seconds are deleted as it goes (:data:`PURGE_EVERY_HITS`)."""

    def __init__(self, store: Store, *, keep: float) -> None:
        super().__init__()
        self.store = store
        self.keep = keep
        self._hits = itertools.count(1)

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return StoreError

    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        now = time.time()
        if next(self._hits) % PURGE_EVERY_HITS == 0:
            self.store.rates.forget(before=now - self.keep)
        return self.store.rates.take(key, limit, expiry, now=now, amount=amount)

    def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        return self.store.rates.window(key, expiry, now=time.time())

    def clear(self, key: str) -> None:
        self.store.rates.forget(key)

    def reset(self) -> int | None:
        return self.store.rates.forget()
