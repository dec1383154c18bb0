"""The requests counted by rate limits that several app servers share: each one a row, kept for its window.

A limit's *key* names the limit and the client (``limits``' own key: the kind of request, the address, the
window); :meth:`RateHits.take` counts a request only if the key's window has room, in one transaction scoped
to the key, so that two servers counting the same client at once cannot both take the last place.

>>> import tempfile, os
>>> from foursquare.store import Store
>>> store = Store(os.path.join(tempfile.mkdtemp(), "games.db"))
>>> [store.rates.take("hints/203.0.113.9/60", limit=2, window=60, now=1000.0 + i) for i in range(3)]
[True, True, False]
>>> store.rates.window("hints/203.0.113.9/60", window=60, now=1030.0), store.rates.take("x", 2, 60, now=1061.0)
((1000.0, 2), True)
"""

from __future__ import annotations

from foursquare.store.database import Repository


def rate_scope(key: str) -> str:
    """The scope of a change of one limit's count for one client."""
    return f"rate:{key}"


class RateHits(Repository):
    """The requests counted for each key, in the table ``rate_hits`` (schema 6): ``store.rates``."""

    def take(self, key: str, limit: int, window: float, *, now: float, amount: int = 1) -> bool:
        """Count ``amount`` requests at ``now`` under ``key`` if the last ``window`` seconds leave room for them
        within ``limit``; whether they were counted. The key's rows older than the window go first."""
        with self.database.transaction(rate_scope(key)) as conn:
            conn.execute("DELETE FROM rate_hits WHERE key = ? AND at <= ?", (key, now - window))
            count = int(conn.execute("SELECT count(*) FROM rate_hits WHERE key = ?", (key,)).fetchone()[0])
            if count + amount > limit:
                return False
            for _ in range(amount):
                conn.execute("INSERT INTO rate_hits (key, at) VALUES (?, ?)", (key, now))
            return True

    def window(self, key: str, window: float, *, now: float) -> tuple[float, int]:
        """When the oldest request counted in the last ``window`` seconds came (``now`` if none), and how many."""
        with self.database.connect() as conn:
            row = conn.execute(
                "SELECT min(at), count(*) FROM rate_hits WHERE key = ? AND at > ?", (key, now - window)
            ).fetchone()
        return (now if row[0] is None else float(row[0])), int(row[1])

    def forget(self, key: str | None = None, *, before: float | None = None) -> int:
        """Delete the requests counted under ``key`` (every key: None), or only those before ``before``; how many."""
        where: list[str] = []
        parameters: list[object] = []
        if key is not None:
            where.append("key = ?")
            parameters.append(key)
        if before is not None:
            where.append("at < ?")
            parameters.append(before)
        clause = f" WHERE {' AND '.join(where)}" if where else ""
        with self.database.transaction(None if key is None else rate_scope(key)) as conn:
            return conn.execute(f"DELETE FROM rate_hits{clause}", tuple(parameters)).rowcount
