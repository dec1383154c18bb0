"""SQLite storage of games: every game, every move, transactionally, and the statistics over them.

The web app (``foursquare serve``) keeps every game here as it is played; the terminal game
(``foursquare play``) records each game it finishes (:meth:`Store.record_game`), and ``foursquare stats``
reads the figures back. Both write the same format, so they may share one file (``games.db`` in the
user's data directory by default, :func:`default_path`); a game belongs to a player (a web browser's,
by the hash of its cookie, or an account's; or :data:`TERMINAL_PLAYER`), and the statistics are a player's.

Each game also records whether it was assisted (undo, restart, hint), the UTC date of a daily deal
and whether it was drawn winnable.

One :class:`Store` does it all; its rooms, each a module of this package:

- :mod:`~foursquare.store.schema`: the schema, its versions and migrations, the checks before a file is used
  (a file that is not ours is refused without a byte written);
- :mod:`~foursquare.store.database`: where the database lives, opening it, connections and transactions;
- :mod:`~foursquare.store.games`: :class:`StoredGame` and the games, created, read, changed, recorded, listed;
- :mod:`~foursquare.store.daily`: the daily deal;
- :mod:`~foursquare.store.stats`: a player's statistics and streaks;
- :mod:`~foursquare.store.retention`: the purges of live games never played or long abandoned, and of the
  sessions, challenges and rate counts past their time;
- :mod:`~foursquare.store.rates`: the requests counted by rate limits that several servers share;
- :mod:`~foursquare.store.postgres`: PostgreSQL as the database (``postgresql://…``), shared by several servers;
- :mod:`~foursquare.store.accounts`: the accounts a person keeps their games with (passkeys, the browsers signed
  in, the challenges given out), and what signing in does to a browser's games;
- :mod:`~foursquare.store.errors`: :class:`StoreError`, :class:`StoreUnavailableError`, :class:`UnknownGameError`,
  :class:`DamagedGameError`, :class:`TooManyGamesError`.
"""

from __future__ import annotations

from foursquare.store.accounts import (
    CHALLENGE_TTL,
    MAX_CHALLENGES,
    Account,
    AccountError,
    Accounts,
    Deleted,
    NewCredential,
    Passkey,
    PasskeyNameError,
    Session,
    StoredCredential,
    new_cookie,
)
from foursquare.store.daily import DailyGames, DailyResults, daily_deal_number
from foursquare.store.database import (
    DATA_DIR_ENV,
    DATABASE_ENV,
    Clock,
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
from foursquare.store.games import TERMINAL_PLAYER, StoredGame, new_game_id
from foursquare.store.rates import RateHits
from foursquare.store.retention import Retention
from foursquare.store.schema import COLUMNS, DAILY_SECRET, MIGRATIONS, SCHEMA, SCHEMA_VERSION
from foursquare.store.stats import MAX_SCORE, Statistics, daily_streaks, streaks, summarize, summarize_clean

__all__ = [
    "CHALLENGE_TTL", "COLUMNS", "DAILY_SECRET", "DATABASE_ENV", "DATA_DIR_ENV", "MAX_CHALLENGES", "MAX_SCORE",
    "MIGRATIONS", "SCHEMA", "SCHEMA_VERSION", "TERMINAL_PLAYER", "Account", "AccountError", "Clock", "DailyResults",
    "DamagedGameError", "Deleted", "NewCredential", "OfflineGameError", "Passkey", "PasskeyNameError", "Session",
    "Store", "StoreError", "StoreUnavailableError", "StoredCredential", "StoredGame", "TooManyGamesError",
    "UnknownGameError", "daily_deal_number", "daily_streaks", "data_dir", "default_path", "is_database_url",
    "new_cookie", "new_game_id", "now", "streaks", "summarize", "summarize_clean", "system_clock", "timestamp",
]  # fmt: skip


class Store(DailyGames, Statistics, Retention, Accounts, RateHits):
    """The games database at ``path``; checked (and created or migrated) on construction.

    >>> import tempfile, os
    >>> from foursquare.engine import Variant
    >>> store = Store(os.path.join(tempfile.mkdtemp(), "games.db"))
    >>> game = store.create_game("player-1", deal=17, variant=Variant(), hidden=False)
    >>> stored, _, placement = store.change(game.id, lambda g, s: g.place(0, 0))
    >>> stored.turn, stored.moves
    (1, (Move(row=0, col=0),))
    """
