"""The daily deal: one deal a UTC date, the same for every player, its number secret until the game ends.

The ``secrets`` table keeps the key from which each date's deal number is derived (:func:`daily_deal_number`);
a player gets one daily game a date, so the daily streak counts first attempts.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import date

from foursquare.engine import Variant
from foursquare.store.errors import StoreError
from foursquare.store.games import GameStore, StoredGame, make_sure_of_room
from foursquare.store.schema import DAILY_SECRET


def daily_deal_number(key: str, day: date) -> int:
    """The deal number of ``day``'s daily deal: the first 8 bytes of HMAC-SHA256(key, the ISO date).

    Without the key (kept in the database, never served) the number cannot be guessed before the game
    ends, and since the shuffle of a deal number is public (:func:`foursquare.cards.deal_stock`), the
    number is what must stay secret.

    >>> daily_deal_number("00" * 32, date(2026, 12, 1)) == daily_deal_number("00" * 32, date(2026, 12, 1))
    True
    """
    digest = hmac.new(bytes.fromhex(key), day.isoformat().encode("ascii"), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


class DailyGames(GameStore):
    """The games of the daily deal."""

    def daily_game(self, player: str, variant: Variant, *, live_limit: int | None = None) -> tuple[StoredGame, bool]:
        """The player's game of today's daily deal, and whether it was just created.

        A player gets one daily game per UTC date: asking again gives the same game (played or not), so
        the daily streak counts a first attempt, not a replay with the cards known. ``variant`` is used
        only when the game is created, and ``live_limit`` checked only then (see
        :meth:`~foursquare.store.Store.create_game`).
        """
        day = self.today()
        with self.transaction() as conn:
            row = conn.execute(
                "SELECT id FROM games WHERE player = ? AND daily = ?", (player, day.isoformat())
            ).fetchone()
            if row is not None:
                return self._read(conn, row["id"]), False
            make_sure_of_room(conn, player, live_limit)
            key = conn.execute("SELECT value FROM secrets WHERE name = ?", (DAILY_SECRET,)).fetchone()
            if key is None:
                raise StoreError(f"the database {self.path} is damaged: it has no daily secret")
            deal = daily_deal_number(key["value"], day)
            stored = self._insert(conn, player, deal=deal, stock=None, variant=variant, hidden=True, daily=day)
            return stored, True
