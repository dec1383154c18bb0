"""SQLite storage of games: every game, every move, transactionally, and the statistics over them.

The web app (``foursquare serve``) keeps every game here as it is played; the terminal game
(``foursquare play``) records each game it finishes (:meth:`Games.record`), and ``foursquare stats``
reads the figures back. Both write the same format, so they may share one file (``games.db`` in the
user's data directory by default, :func:`default_path`); a game belongs to a player (a web browser's,
by the hash of its cookie, or an account's; or :data:`TERMINAL_PLAYER`), and the statistics are a player's.

Each game also records whether it was assisted (undo, restart, hint), the UTC date of a daily deal
and whether it was drawn winnable.

A :class:`Store` is one :class:`~foursquare.store.database.Database` (the backend, its connections and
transactions, the clock) and small repositories over it, each of one concern and a few methods, each in a
module of this package:

- ``store.database``, :mod:`~foursquare.store.database`: where the database lives, opening it, connections and
  transactions, the clock; :mod:`~foursquare.store.schema` its schema, versions and migrations, the checks before
  a file is used (a file that is not ours is refused without a byte written), and
  :mod:`~foursquare.store.postgres` PostgreSQL as the database (``postgresql://…``), shared by several servers;
- ``store.games``, :mod:`~foursquare.store.games`: :class:`StoredGame` and the games, created, read, changed,
  recorded, listed (:class:`Games`);
- ``store.daily``, :mod:`~foursquare.store.daily`: the daily deal (:class:`DailyGames`);
- ``store.stats``, :mod:`~foursquare.store.stats`: a player's statistics and streaks (:class:`Statistics`);
- ``store.accounts``, ``store.sessions``, ``store.passkeys``, ``store.challenges``,
  :mod:`~foursquare.store.accounts`: the accounts a person keeps their games with and what signing in does to a
  browser's games, the browsers signed in, the passkeys, the challenges given out;
- ``store.rates``, :mod:`~foursquare.store.rates`: the requests counted by rate limits that several servers
  share (:class:`RateHits`);
- ``store.retention``, :mod:`~foursquare.store.retention`: the purges of live games never played or long
  abandoned, and of the sessions, challenges and accounts past their time (:class:`Retention`);
- :mod:`~foursquare.store.errors`: :class:`StoreError`, :class:`StoreUnavailableError`, :class:`UnknownGameError`,
  :class:`DamagedGameError`, :class:`TooManyGamesError`.
"""

from __future__ import annotations

from pathlib import Path

from foursquare.store.accounts import (
    CHALLENGE_TTL,
    MAX_CHALLENGES,
    Account,
    AccountError,
    Accounts,
    Challenges,
    Deleted,
    NewCredential,
    Passkey,
    PasskeyNameError,
    Passkeys,
    Session,
    Sessions,
    StoredCredential,
    new_cookie,
)
from foursquare.store.daily import DailyGames, DailyResults, daily_deal_number
from foursquare.store.database import (
    DATA_DIR_ENV,
    DATABASE_ENV,
    Clock,
    Database,
    data_dir,
    default_path,
    is_database_url,
    now,
    system_clock,
    timestamp,
)
from foursquare.store.errors import (
    DamagedGameError,
    OfflineGameError,
    StoreError,
    StoreUnavailableError,
    TooManyGamesError,
    UnknownGameError,
)
from foursquare.store.games import TERMINAL_PLAYER, Games, StoredGame, new_game_id
from foursquare.store.rates import RateHits
from foursquare.store.retention import Retention
from foursquare.store.schema import COLUMNS, DAILY_SECRET, MIGRATIONS, SCHEMA, SCHEMA_VERSION
from foursquare.store.stats import MAX_SCORE, Statistics, daily_streaks, streaks, summarize, summarize_clean

__all__ = [
    "CHALLENGE_TTL", "COLUMNS", "DAILY_SECRET", "DATABASE_ENV", "DATA_DIR_ENV", "MAX_CHALLENGES", "MAX_SCORE",
    "MIGRATIONS", "SCHEMA", "SCHEMA_VERSION", "TERMINAL_PLAYER", "Account", "AccountError", "Accounts", "Challenges",
    "Clock", "DailyGames", "DailyResults", "DamagedGameError", "Database", "Deleted", "Games", "NewCredential",
    "OfflineGameError", "Passkey", "PasskeyNameError", "Passkeys", "RateHits", "Retention", "Session", "Sessions",
    "Statistics", "Store", "StoreError", "StoreUnavailableError", "StoredCredential", "StoredGame",
    "TooManyGamesError", "UnknownGameError", "daily_deal_number", "daily_streaks", "data_dir", "default_path",
    "is_database_url", "new_cookie", "new_game_id", "now", "streaks", "summarize", "summarize_clean", "system_clock",
    "timestamp",
]  # fmt: skip


class Store:
    """The games database at ``location`` (an SQLite file's path, or a ``postgresql://`` URL), checked (and created
    or migrated) on construction: one :class:`Database` and its repositories, which share it.

    ``clock``: what tells the store the time (a test may give a frozen one); ``read_only``: the database is only
    read, never created, migrated or written; ``pool_size``: PostgreSQL only, the most connections kept open.

    >>> import tempfile, os
    >>> from foursquare.engine import Variant
    >>> store = Store(os.path.join(tempfile.mkdtemp(), "games.db"))
    >>> game = store.games.create("player-1", deal=17, variant=Variant(), hidden=False)
    >>> stored, _, placement = store.games.change(game.id, lambda g, s: g.place(0, 0))
    >>> stored.turn, stored.moves
    (1, (Move(row=0, col=0),))
    >>> store.stats.of("player-1")["played"], store.database.schema_version() == SCHEMA_VERSION
    (0, True)
    >>> store.close()
    """

    database: Database
    """The backend, its connections and transactions, the clock: what every repository works through."""
    games: Games
    """The games: created, read, changed with the engine, recorded, listed."""
    daily: DailyGames
    """The daily deal's games and results."""
    stats: Statistics
    """A player's statistics."""
    accounts: Accounts
    """Who a browser is; the accounts, made, signed in to and out of, deleted."""
    sessions: Sessions
    """The browsers signed in to an account."""
    passkeys: Passkeys
    """The accounts' passkeys."""
    challenges: Challenges
    """The WebAuthn challenges given out."""
    rates: RateHits
    """The requests counted by the rate limits that several servers share."""
    retention: Retention
    """The purges of what the store keeps no longer."""

    def __init__(
        self,
        location: str | Path,
        *,
        clock: Clock = system_clock,
        read_only: bool = False,
        pool_size: int | None = None,
    ) -> None:
        self.database = database = Database(location, clock=clock, read_only=read_only, pool_size=pool_size)
        self.games = Games(database)
        self.daily = DailyGames(database)
        self.stats = Statistics(database)
        self.accounts = Accounts(database)
        self.sessions = Sessions(database)
        self.passkeys = Passkeys(database)
        self.challenges = Challenges(database)
        self.rates = RateHits(database)
        self.retention = Retention(database)

    def close(self) -> None:
        """Release the database (the store is usable until then)."""
        self.database.close()
