"""What the store forgets: live games never played, and live games long abandoned. Finished games stay for good,
unless their account can never be signed in to again (:meth:`Retention.purge_unreachable_accounts`). The purges
are ``store.retention``'s.

Each purge is one ``DELETE`` in one transaction, chosen by SQL alone (a damaged row is deleted like any other,
never decoded), over the index of live games (``games_live_by_update``), so that it never reads the finished
games, however many there are. The time is the store's clock, against ``updated_at``: the last move, undo,
redo or restart. A purge only ever deletes games in play (no ``finished_seq``), so a player's statistics,
streaks and daily streaks, which count finished games only, are the same after it. The terminal game's records
(:data:`~foursquare.store.TERMINAL_PLAYER`) are the player's own, on their own machine: they are never purged.

The accounts' rows are purged the same way: the sessions idle for
:data:`~foursquare.store.accounts.SESSION_IDLE` (their browsers are anonymous already), the challenges past their
time, then the accounts left with neither a passkey nor a session, with their games (nobody can reach them again).

>>> import tempfile, os
>>> from datetime import UTC, datetime, timedelta
>>> from foursquare.engine import Variant
>>> from foursquare.store import Store
>>> moment = [datetime(2026, 12, 1, tzinfo=UTC)]
>>> store = Store(os.path.join(tempfile.mkdtemp(), "games.db"), clock=lambda: moment[0])
>>> unplayed = store.games.create("player-1", deal=17, variant=Variant(), hidden=False)
>>> played = store.games.create("player-1", deal=18, variant=Variant(), hidden=False)
>>> _ = store.games.change(played.id, lambda game, _: game.place(0, 0))
>>> moment[0] += timedelta(hours=2)
>>> store.retention.purge_unplayed(timedelta(hours=1)), store.games.live_count("player-1")
(1, 1)
>>> moment[0] += timedelta(days=31)
>>> store.retention.purge_abandoned(timedelta(days=30)), store.games.live_count("player-1")
(1, 0)
"""

from __future__ import annotations

from datetime import timedelta

from foursquare.store.accounts import SESSION_IDLE
from foursquare.store.database import Repository, timestamp
from foursquare.store.games import TERMINAL_PLAYER

UNPLAYED = (
    "outcome = 'playing' AND finished_seq IS NULL AND player != ? AND updated_at < ?"
    " AND moves = '[]' AND redo = '[]' AND assisted = 0"
)
"""A game never played: no move now and none to redo, and never assisted (a game restarted after a move, or
hinted, was played: its player has seen cards, and its ``assisted`` mark must stay)."""

ABANDONED = "outcome = 'playing' AND finished_seq IS NULL AND player != ? AND updated_at < ?"
"""A game in play, untouched since the cut-off."""

UNREACHABLE = (
    "SELECT player FROM accounts WHERE NOT EXISTS (SELECT 1 FROM credentials WHERE account = accounts.player)"
    " AND NOT EXISTS (SELECT 1 FROM sessions WHERE account = accounts.player)"
)
"""The accounts that no browser is signed in to and no passkey can sign in to: their last passkey was removed
(:meth:`~foursquare.store.accounts.Passkeys.remove`) and their last session ended since."""


class Retention(Repository):
    """The purges of live games (never played, or abandoned) and of the accounts' rows past their time."""

    def purge_unplayed(self, older_than: timedelta) -> int:
        """Delete the games never played (see :data:`UNPLAYED`) untouched for ``older_than``; how many went."""
        return self._purge(UNPLAYED, older_than)

    def purge_abandoned(self, older_than: timedelta) -> int:
        """Delete the games in play untouched for ``older_than``, played or not; how many went."""
        return self._purge(ABANDONED, older_than)

    def _purge(self, where: str, older_than: timedelta) -> int:
        if older_than <= timedelta(0):
            raise ValueError(f"a purge keeps games untouched for a positive time, not {older_than}")
        cutoff = timestamp(self.database.clock() - older_than)
        with self.database.transaction() as conn:
            return conn.execute(f"DELETE FROM games WHERE {where}", (TERMINAL_PLAYER, cutoff)).rowcount

    def purge_sessions(self) -> int:
        """Delete the sessions unused for :data:`~foursquare.store.accounts.SESSION_IDLE`; how many went."""
        cutoff = timestamp(self.database.clock() - SESSION_IDLE)
        with self.database.transaction() as conn:
            return conn.execute("DELETE FROM sessions WHERE last_seen_at <= ?", (cutoff,)).rowcount

    def purge_challenges(self) -> int:
        """Delete the challenges past their time, never answered; how many went."""
        with self.database.transaction() as conn:
            return conn.execute(
                "DELETE FROM challenges WHERE expires_at <= ?", (timestamp(self.database.clock()),)
            ).rowcount

    def purge_unreachable_accounts(self) -> int:
        """Delete the accounts of :data:`UNREACHABLE` with their games, finished or not; how many accounts went."""
        with self.database.transaction() as conn:
            conn.execute(f"DELETE FROM games WHERE player IN ({UNREACHABLE})")
            return conn.execute(f"DELETE FROM accounts WHERE player IN ({UNREACHABLE})").rowcount
