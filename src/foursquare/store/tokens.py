"""What the database keeps of a bearer secret (a cookie, a challenge): its hash, never the secret itself.

A browser's cookie carries 128 random bits or more, so its SHA-256 cannot be turned back into it: a copy of the
database (a backup, a dump) holds nothing that a browser could send to act as anyone.
"""

from __future__ import annotations

import hashlib

ANONYMOUS = "anon:"
"""How an anonymous player's id begins: ``anon:`` and the hash of the browser's cookie. No cookie has a colon
(:func:`foursquare.web.player.valid_player_id`), so no stored id is ever a cookie that signs anyone in."""


def token_hash(token: str) -> str:
    """The hex SHA-256 of a cookie or a challenge: what the database keeps instead of a bearer secret.

    >>> token_hash("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def anonymous_player(cookie: str) -> str:
    """The player id of an anonymous browser with ``cookie``: its games are stored under this, never the cookie.

    >>> anonymous_player("abc")[:21]
    'anon:ba7816bf8f01cfea'
    """
    return ANONYMOUS + token_hash(cookie)


def stored_player(player: str) -> str:
    """An anonymous player's id as schema 7 stores it: a cookie that an older schema stored in clear becomes its
    hashed id, and an id hashed already stays (the migration may meet it twice in a file whose version was set
    back). The migration gives it no account's id and not the terminal's."""
    return player if player.startswith(ANONYMOUS) else anonymous_player(player)
