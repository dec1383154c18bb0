"""The daily deal: one deal a UTC date, the same for every player, its number secret until the game ends.

The ``secrets`` table keeps the key from which each date's deal number is derived (:func:`daily_deal_number`);
a player gets one daily game a date, so the daily streak counts first attempts, and so do a date's results
(:meth:`DailyGames.results`): everyone's daily game of that date, once finished. A player with an account is
the account, on every device; when signing in brings a browser's games to an account, the later attempt of two
daily games of one date is marked a repeat (``daily_repeat``), which neither the results nor the streak count.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field
from datetime import date

from foursquare.engine import Variant
from foursquare.store.database import Repository, player_scope
from foursquare.store.errors import StoreError
from foursquare.store.games import StoredGame, insert_game, make_sure_of_room, read_game
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


@dataclass(frozen=True)
class DailyResults:
    """Everyone's finished daily game of one UTC date: how many, how many won, and how many of each score.

    ``scores`` maps a score to the number of games that had it, a loss scoring 0, in ascending order of score;
    its counts add up to ``players``.

    >>> results = DailyResults(date(2026, 12, 1), players=3, won=2, scores={0: 1, 7: 2})
    >>> results.lower_than(7), results.lower_than(0)
    (1, 0)
    """

    day: date
    players: int
    won: int
    scores: dict[int, int] = field(default_factory=dict)

    def lower_than(self, score: int) -> int:
        """How many of the games scored strictly less than ``score``."""
        return sum(count for scored, count in self.scores.items() if scored < score)


class DailyGames(Repository):
    """The games of the daily deal (``store.daily``).

    >>> import tempfile, os
    >>> from foursquare.store import Store
    >>> store = Store(os.path.join(tempfile.mkdtemp(), "games.db"))
    >>> game, created = store.daily.game("player-1", Variant())
    >>> created, store.daily.game("player-1", Variant()) == (game, False), game.visible_deal
    (True, True, None)
    >>> store.daily.has_finished("player-1", game.daily), store.daily.results(game.daily).players
    (False, 0)
    """

    def game(self, player: str, variant: Variant, *, live_limit: int | None = None) -> tuple[StoredGame, bool]:
        """The player's game of today's daily deal, and whether it was just created.

        A player gets one daily game per UTC date: asking again gives the same game (played or not), so
        the daily streak counts a first attempt, not a replay with the cards known. ``variant`` is used
        only when the game is created, and ``live_limit`` checked only then (see
        :meth:`~foursquare.store.games.Games.create`).
        """
        day = self.database.today()
        with self.database.transaction(player_scope(player)) as conn:
            row = conn.execute(
                "SELECT id FROM games WHERE player = ? AND daily = ? AND daily_repeat = 0", (player, day.isoformat())
            ).fetchone()
            if row is not None:
                return read_game(conn, row["id"], self.database.today()), False
            make_sure_of_room(conn, player, live_limit)
            key = conn.execute("SELECT value FROM secrets WHERE name = ?", (DAILY_SECRET,)).fetchone()
            if key is None:
                raise StoreError(f"the database {self.database.name} is damaged: it has no daily secret")
            deal = daily_deal_number(key["value"], day)
            stored = insert_game(
                conn, self.database, player, deal=deal, stock=None, variant=variant, hidden=True, daily=day
            )
            return stored, True

    def results(self, day: date) -> DailyResults:
        """The results of ``day``'s daily deal: every player's daily game of that date that is over.

        A player has one daily game a date (its first attempt: asking again gives the same game, and a restart
        replays that game; a person with an account is one player on every device, and a daily game that signing
        in brought to an account that had one of that date already is a repeat, left out), so each finished one
        counts once; a game still being played does not count, nor does
        a game of the same deal that is not the daily (a numbered deal, a copy of a past daily). Read from the
        index of the daily games alone (schema 4), one row per score. Whether the asker may see them yet is the
        caller's to decide: today's results tell nothing of the deal, but a player who has not played it yet
        should not be told how it goes.
        """
        with self.database.connect() as conn:
            rows = conn.execute(
                "SELECT CASE WHEN outcome = 'won' THEN score ELSE 0 END AS result, count(*) AS games,"
                " sum(CASE WHEN outcome = 'won' THEN 1 ELSE 0 END) AS won"
                " FROM games WHERE daily = ? AND daily_repeat = 0 AND outcome IN ('won', 'lost')"
                " GROUP BY result ORDER BY result",
                (day.isoformat(),),
            ).fetchall()
        scores = {int(row["result"]): int(row["games"]) for row in rows}
        return DailyResults(day, players=sum(scores.values()), won=sum(int(row["won"]) for row in rows), scores=scores)

    def has_finished(self, player: str, day: date) -> bool:
        """Whether ``player``'s daily game of ``day`` is over (read from the index of each player's daily game)."""
        with self.database.connect() as conn:
            row = conn.execute(
                "SELECT outcome FROM games WHERE player = ? AND daily = ? AND daily_repeat = 0",
                (player, day.isoformat()),
            ).fetchone()
        return row is not None and row["outcome"] != "playing"
