"""How long the server keeps live games, how many a player may have, and the purges that run while it serves.

Finished games are kept for good: they are the players' statistics. A live game is forgotten when it was never
played (no move, nothing to redo, never assisted) and untouched for ``FOURSQUARE_UNPLAYED_HOURS`` (1 by
default), or untouched, played or not, for ``FOURSQUARE_ABANDONED_DAYS`` (30); a player has at most
``FOURSQUARE_LIVE_GAMES`` (50) games in play. :class:`Purger` runs both purges when the server starts and
then every :data:`PURGE_EVERY` seconds, with those of the sessions idle for 30 days, the challenges past their
time, the accounts nobody can sign in to again, and the rate limits' counts older than their longest window
(:mod:`foursquare.store.retention` says what each deletes).

>>> RetentionSettings.from_environment({"FOURSQUARE_UNPLAYED_HOURS": "0.5", "FOURSQUARE_LIVE_GAMES": "20"})
RetentionSettings(unplayed_hours=0.5, abandoned_days=30.0, live_games=20)
>>> try:
...     RetentionSettings.from_environment({"FOURSQUARE_ABANDONED_DAYS": "0"})
... except RetentionSettingsError as error:
...     print(error)
FOURSQUARE_ABANDONED_DAYS must be a number of days from 1 to 36500, not '0'
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from types import TracebackType

from foursquare.store import Store
from foursquare.web.rate_limits import DEFAULTS, VARIABLES, parse_limit

log = logging.getLogger("foursquare.web")

UNPLAYED_HOURS_ENV = "FOURSQUARE_UNPLAYED_HOURS"
ABANDONED_DAYS_ENV = "FOURSQUARE_ABANDONED_DAYS"
LIVE_GAMES_ENV = "FOURSQUARE_LIVE_GAMES"

PURGE_EVERY = 300.0
"""Seconds between two rounds of purges: a game outlives its time by at most this."""

# The bounds of each setting. Below them the setting cannot work (a game purged before its player has had time
# to look at it, no game allowed); above them it is no longer a time or a limit (and the cut-off would fall
# before the year 1).
UNPLAYED_HOURS = (0.1, 24.0 * 365)
ABANDONED_DAYS = (1.0, 36500.0)
LIVE_GAMES = (1, 1_000_000)

_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+")
_WHOLE = re.compile(r"[0-9]+")


class RetentionSettingsError(ValueError):
    """Retention settings that cannot work: not a number, zero or negative, or absurdly large."""


@dataclass(frozen=True)
class RetentionSettings:
    """How long live games are kept, and how many a player may have (see the module docstring)."""

    unplayed_hours: float = 1.0
    """A game never played is purged once untouched for this many hours."""
    abandoned_days: float = 30.0
    """A game in play is purged once untouched for this many days."""
    live_games: int = 50
    """The most games in play a player may have; the next new game is refused."""

    def __post_init__(self) -> None:
        _check_number("unplayed_hours", self.unplayed_hours, UNPLAYED_HOURS, "hours")
        _check_number("abandoned_days", self.abandoned_days, ABANDONED_DAYS, "days")
        if isinstance(self.live_games, bool) or not isinstance(self.live_games, int):
            raise RetentionSettingsError(f"live_games must be a whole number, not {self.live_games!r}")
        _check_number("live_games", self.live_games, LIVE_GAMES, "games")

    @property
    def unplayed(self) -> timedelta:
        return timedelta(hours=self.unplayed_hours)

    @property
    def abandoned(self) -> timedelta:
        return timedelta(days=self.abandoned_days)

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ) -> RetentionSettings:
        """The settings of ``FOURSQUARE_UNPLAYED_HOURS``, ``FOURSQUARE_ABANDONED_DAYS`` and ``FOURSQUARE_LIVE_GAMES``.

        An unset or empty variable keeps the default; hours and days may have decimals, the number of games is
        whole. A value that is not such a number, or out of its bounds, is :class:`RetentionSettingsError`.
        """
        settings: dict[str, float | int] = {}
        for name, key, bounds, unit in (
            ("unplayed_hours", UNPLAYED_HOURS_ENV, UNPLAYED_HOURS, "hours"),
            ("abandoned_days", ABANDONED_DAYS_ENV, ABANDONED_DAYS, "days"),
            ("live_games", LIVE_GAMES_ENV, LIVE_GAMES, "games"),
        ):
            text = environ.get(key, "").strip()
            if not text:
                continue
            whole = name == "live_games"
            kind = "whole number" if whole else "number"
            low, high = bounds
            wrong = RetentionSettingsError(
                f"{key} must be a {kind} of {unit} from {_plain(low)} to {_plain(high)}, not {text!r}"
            )
            if not (_WHOLE if whole else _DECIMAL).fullmatch(text):
                raise wrong
            value = int(text) if whole else float(text)
            if not low <= value <= high:
                raise wrong
            settings[name] = value
        return cls(**settings)  # type: ignore[arg-type]  # each value's type was chosen by its name above


def _check_number(name: str, value: float, bounds: tuple[float, float], unit: str) -> None:
    low, high = bounds
    if not isinstance(value, int | float) or not math.isfinite(value) or not low <= value <= high:
        raise RetentionSettingsError(f"{name} must be from {_plain(low)} to {_plain(high)} {unit}, not {value!r}")


def _plain(number: float) -> str:
    """A bound as a person writes it: ``1``, ``0.1``, ``1000000``."""
    return str(int(number)) if number == int(number) else str(number)


def longest_window(environ: Mapping[str, str] = os.environ) -> timedelta:
    """The longest window of the rate limits the environment names (the defaults for the others): the counts of
    the shared rate limits (the table ``rate_hits``) older than this count in no window.

    >>> longest_window({}), longest_window({"FOURSQUARE_RATE_HINTS": "1000/month"})
    (datetime.timedelta(days=1), datetime.timedelta(days=30))
    """
    seconds = max(
        item.get_expiry()
        for kind, name in VARIABLES.items()
        for item in parse_limit(name, environ.get(name) or DEFAULTS[kind])
    )
    return timedelta(seconds=seconds)


@dataclass(frozen=True)
class Purged:
    """How many rows one round of purges deleted: games, then the accounts' rows and the rate limits' counts."""

    unplayed: int
    abandoned: int
    sessions: int = 0
    challenges: int = 0
    accounts: int = 0
    rate_hits: int = 0

    @property
    def anything(self) -> bool:
        """Whether the round deleted anything."""
        return any((self.unplayed, self.abandoned, self.sessions, self.challenges, self.accounts, self.rate_hits))


def purge(store: Store, settings: RetentionSettings, rates_kept: timedelta | None = None) -> Purged:
    """One round, one transaction each: the games never played, the abandoned ones, the idle sessions, the expired
    challenges, the accounts nobody can sign in to again, and the rate limits' counts older than ``rates_kept``
    (:func:`longest_window` by default)."""
    unplayed = store.retention.purge_unplayed(settings.unplayed)
    abandoned = store.retention.purge_abandoned(settings.abandoned)
    sessions = store.retention.purge_sessions()
    challenges = store.retention.purge_challenges()
    accounts = store.retention.purge_unreachable_accounts()
    kept = longest_window() if rates_kept is None else rates_kept
    rate_hits = store.rates.forget(before=time.time() - kept.total_seconds())
    return Purged(unplayed, abandoned, sessions, challenges, accounts, rate_hits)


class Purger:
    """Purge ``store`` by ``settings`` now, then every ``every`` seconds, until :meth:`stop` (the rate limits'
    counts older than ``rates_kept``: by default the longest window the environment's limits name).

    Each round runs in a worker thread, away from the event loop. A round that fails (the database locked past
    its timeout, a full disk) is logged and the next one tries again; a purge is never needed at once. Use it
    as an async context manager around the server's life (``async with Purger(store, settings): ...``), or
    :meth:`start` and :meth:`stop`. ``rounds`` counts the rounds done, ``last`` is what the last one purged.
    """

    def __init__(
        self,
        store: Store,
        settings: RetentionSettings,
        *,
        every: float = PURGE_EVERY,
        rates_kept: timedelta | None = None,
    ) -> None:
        if not math.isfinite(every) or every < 0:
            raise RetentionSettingsError(f"the purges run every 0 seconds or more, not {every!r}")
        self.store = store
        self.settings = settings
        self.every = every
        self.rates_kept = longest_window() if rates_kept is None else rates_kept
        self.rounds = 0
        self.last: Purged | None = None
        self._stopping = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the rounds in the running event loop (the first one at once)."""
        if self._task is not None:
            raise RuntimeError("the purges have already started")
        self._stopping = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._run(), name="foursquare-purges")

    async def stop(self) -> None:
        """Stop the rounds; a round under way finishes first (it is one short transaction), so none is left behind."""
        self._stopping.set()
        if self._task is not None:
            await self._task
            self._task = None

    async def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                self.last = await asyncio.to_thread(purge, self.store, self.settings, self.rates_kept)
            except Exception:
                log.exception("purging old games failed; the next round tries again")
            else:
                if self.last.anything:
                    log.info(
                        "purged games: %d never played, %d abandoned; %d idle sessions, %d expired challenges,"
                        " %d accounts nobody can sign in to, %d rate counts",
                        *(self.last.unplayed, self.last.abandoned, self.last.sessions, self.last.challenges),
                        *(self.last.accounts, self.last.rate_hits),
                    )
            self.rounds += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), self.every)

    async def __aenter__(self) -> Purger:
        self.start()
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await self.stop()
