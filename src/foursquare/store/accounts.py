"""Accounts: a person's games on every device, kept with passkeys (WebAuthn credentials), never a password.

A browser is known by its player cookie. Without an account the browser is an anonymous player: the games it
started are stored under the hash of its cookie (:func:`~foursquare.store.tokens.anonymous_player`), so that a
copy of the database holds no cookie. An account is a player of its own (``accounts.player``, a random id that is
never sent to a browser, nor taken from one as a cookie), with one or more passkeys (``credentials``: the public
key, the signature counter, the transports, the name its owner gave it) and the browsers signed in to it
(``sessions``: the SHA-256 of each browser's cookie, never the cookie itself, with its last use and its short
name; a session unused for :data:`SESSION_IDLE` has ended).

- Creating a passkey from an anonymous browser makes an account whose games are that browser's (they carry
  over: the same rows, relabelled), and signs the browser in under a new cookie.
- Signing in on another device makes that browser the account's: its own anonymous games join the account's.
  Of two daily games of one UTC date (one from each side), the first attempt stays the account's daily game of
  that date (the first finished; of open ones, one played before one only opened: :func:`merge`); the other is a
  repeat (``daily_repeat``), which neither the date's results nor the daily streak count — the daily deal counts
  once per person, however many devices.
- Signing out forgets the browser's session; deleting the account deletes its games, passkeys and sessions.
- Its owner lists the browsers signed in (:meth:`Sessions.of`, each by a short :data:`HANDLE_LENGTH`
  handle) and ends them, one or all but their own (:meth:`Sessions.end_others`: "sign out everywhere
  else"); names and removes passkeys. The last passkey goes only when asked with ``last=True``: the browsers
  signed in stay so, and may add a passkey again; once none is left, nobody can ever sign in to the account, and
  the purges delete it with its games (:meth:`~foursquare.store.retention.Retention.purge_sessions`).

Every change is one transaction: a process killed at any moment loses at most the change in flight. Challenges
(:meth:`Challenges.new`) are single-use and expire; a browser holds at most :data:`MAX_CHALLENGES` of
each purpose at once, and expired ones are deleted whenever a new one is made, so the table stays bounded by the
clients the rate limits let through. The store checks no signature: the web app verifies the authenticator's
answer (with the ``webauthn`` library) between :meth:`Passkeys.get` and :meth:`Accounts.sign_in`.

>>> import tempfile, os
>>> from foursquare.engine import Variant
>>> from foursquare.store import Store
>>> store = Store(os.path.join(tempfile.mkdtemp(), "games.db"))
>>> phone = "phone-cookie-0000000000"
>>> game = store.games.create(store.accounts.player_of(phone), deal=1, variant=Variant(), hidden=False)
>>> key = NewCredential(id="Y3JlZA", public_key=b"cose", sign_count=0, transports=("internal",))
>>> account, cookie = store.accounts.register(phone, "aGFuZGxl", key)
>>> store.accounts.player_of(cookie) == account.player != phone, store.games.get(game.id).player == account.player
(True, True)
>>> store.accounts.player_of(phone) == anonymous_player(phone)  # the old cookie is a stranger now, with no games
True
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Literal

from foursquare.errors import FoursquareError
from foursquare.store.database import Clock, Connection, Database, Repository, timestamp
from foursquare.store.tokens import anonymous_player, token_hash

Purpose = Literal["register", "sign_in"]

SESSION_IDLE = timedelta(days=30)
"""A session unused this long has ended: its browser is anonymous again (signing in with a passkey takes a tap)."""
SESSION_TOUCH = timedelta(hours=1)
"""How stale a session's ``last_seen_at`` may be before a request moves it on: one write an hour, not one a move."""
CHALLENGE_TTL = timedelta(minutes=5)
"""How long a challenge may be answered: a person takes seconds, an authenticator's own timeout is a minute."""
MAX_CHALLENGES = 5
"""The challenges of one purpose a browser holds at once (a sixth replaces the oldest): a few tabs' worth."""
HANDLE_LENGTH = 16
"""The hex digits of a session's hash that name it to its owner: enough to tell an account's sessions apart, too
few to be of use to anyone else (the hash is of a random cookie, and signs nobody in anyway)."""
NAME_LENGTH = 64
"""The longest name of a passkey, in characters once trimmed."""
NAME_FORBIDDEN = "\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
"""The characters a passkey's name may not hold, as a regular expression's class: the control characters, the line
and paragraph separators, and the marks that reorder text (which would make a name read as another)."""


class AccountError(FoursquareError):
    """A change of accounts that cannot be made; ``code`` says why: ``passkey_taken`` (the passkey is stored
    already), ``wrong_account`` (a passkey made for another account), ``passkey_replayed`` (its counter moved
    meanwhile), ``no_account`` (the account is gone), ``no_passkey`` (the account has no such passkey),
    ``last_passkey`` (removing it needs ``last=True``), ``no_session`` (the account has no such session),
    ``current_session`` (a browser ends its own session by signing out)."""

    def __init__(self, code: str) -> None:
        super().__init__(REASONS[code], code)


REASONS = {
    "passkey_taken": "this passkey is stored already",
    "wrong_account": "this passkey was made for another account",
    "passkey_replayed": "this passkey was used meanwhile: its signature counter moved",
    "no_account": "there is no such account",
    "no_passkey": "the account has no such passkey",
    "last_passkey": "this is the account's last passkey: without one, no new device can sign in to it",
    "no_session": "the account has no such session",
    "current_session": "this is this browser's own session: sign out instead",
}


class PasskeyNameError(FoursquareError):
    """A passkey's name that cannot be kept; ``code`` says why: ``name_too_long`` (``length``, ``limit``: more
    than :data:`NAME_LENGTH` characters once trimmed), ``name_control`` (``position``: a control character, such
    as a line break, at that index of the trimmed name)."""


def new_cookie() -> str:
    """A new player cookie: 32 random bytes, base64url (valid for :func:`foursquare.web.player.valid_player_id`)."""
    return secrets.token_urlsafe(32)


@dataclass(frozen=True)
class Passkey:
    """A passkey of an account, as its owner may see it (never its key)."""

    id: str
    transports: tuple[str, ...]
    created_at: str
    last_used_at: str | None
    name: str | None = None
    """The name its owner gave it; None: none yet."""


@dataclass(frozen=True)
class Session:
    """A browser signed in to an account, as its owner may see it (never its cookie nor the cookie's hash)."""

    handle: str
    """The first :data:`HANDLE_LENGTH` hex digits of its cookie's hash: its name for :meth:`Sessions.end`."""
    created_at: str
    last_seen_at: str
    """Its last request, to within :data:`SESSION_TOUCH`."""
    device: str | None
    """What the browser said it is when it signed in (``Chrome on Android``); None: it did not say."""
    current: bool
    """Whether it is the browser asking."""


@dataclass(frozen=True)
class Account:
    """An account: the player of its games, its WebAuthn user handle (base64url), when it was made, its passkeys."""

    player: str
    user_handle: str
    created_at: str
    passkeys: tuple[Passkey, ...] = ()


@dataclass(frozen=True)
class NewCredential:
    """A passkey the web app has verified, to be stored: its id (base64url), COSE public key, counter, transports."""

    id: str
    public_key: bytes
    sign_count: int
    transports: tuple[str, ...] = ()


@dataclass(frozen=True)
class StoredCredential:
    """A stored passkey, with what verifying its next signature needs."""

    id: str
    account: str
    public_key: bytes
    sign_count: int


@dataclass(frozen=True)
class Challenge:
    """A challenge given out: its value (base64url), its purpose, and for ``register`` the user handle named."""

    challenge: str
    purpose: Purpose
    user_handle: str | None


@dataclass(frozen=True)
class Deleted:
    """What deleting an account deleted."""

    games: int
    passkeys: int
    sessions: int


KNOWN_ANONYMOUS = 100_000
"""At most so many cookies that name no session and no account are remembered (in memory, not in the database),
so that an anonymous player's next requests read no row to know who they are (:meth:`Accounts.known_player`)."""


class Accounts(Repository):
    """The accounts (``store.accounts``): who a browser's cookie is, making an account (a first passkey) and
    signing in and out with one, deleting it."""

    def __init__(self, database: Database) -> None:
        super().__init__(database)
        # Cookie -> anonymous player. Such a cookie never comes to name a session or an account: both are given
        # new random values (:func:`new_cookie`, an account's own id), so what is remembered stays true.
        self._anonymous: dict[str, str] = {}

    def of(self, cookie: str) -> Account | None:
        """The account the browser with ``cookie`` is signed in to, with its passkeys; None when it is anonymous."""
        with self.database.connect() as conn:
            return account_of(conn, cookie, self.database.clock)

    def known_player(self, cookie: str) -> str | None:
        """The anonymous player of ``cookie`` if :meth:`player_of` found it to be anonymous already; else None
        (ask :meth:`player_of`). Reads nothing: fit for the event loop."""
        return self._anonymous.get(cookie)

    def player_of(self, cookie: str) -> str | None:
        """The player whose games the browser with ``cookie`` plays: its account's while its session lives, else
        the anonymous player of the cookie (:func:`anonymous_player`: its hash, never the cookie itself).

        None if ``cookie`` is an account's own player id, which no browser is ever given: an account's games are
        reached through a session only. A session used after :data:`SESSION_TOUCH` has its last use moved on.
        """
        moment = self.database.clock()
        with self.database.connect() as conn:
            row = conn.execute(
                "SELECT sessions.account, sessions.last_seen_at,"
                " EXISTS (SELECT 1 FROM accounts WHERE player = ?) AS taken"
                " FROM (SELECT 1 AS one) AS here LEFT JOIN sessions ON sessions.token_hash = ?",
                (cookie, token_hash(cookie)),
            ).fetchone()
        if row["taken"]:
            return None
        seen = row["last_seen_at"]
        if row["account"] is None:
            return self._remember_anonymous(cookie)
        if seen is None or seen <= timestamp(moment - SESSION_IDLE):
            return anonymous_player(cookie)
        if seen <= timestamp(moment - SESSION_TOUCH):
            with self.database.transaction(f"session:{token_hash(cookie)}") as conn:
                conn.execute(
                    "UPDATE sessions SET last_seen_at = ? WHERE token_hash = ?", (timestamp(moment), token_hash(cookie))
                )
        return str(row["account"])

    def _remember_anonymous(self, cookie: str) -> str:
        if len(self._anonymous) >= KNOWN_ANONYMOUS:
            self._anonymous.clear()  # forgotten ones are read again: simpler than an order of use, as good here
        player = self._anonymous[cookie] = anonymous_player(cookie)
        return player

    def handle(self, player: str) -> str | None:
        """The WebAuthn user handle (base64url) of the account whose player is ``player``; None if there is none."""
        with self.database.connect() as conn:
            row = conn.execute("SELECT user_handle FROM accounts WHERE player = ?", (player,)).fetchone()
        return None if row is None else str(row["user_handle"])

    def register(
        self, cookie: str, user_handle: str, credential: NewCredential, device: str | None = None
    ) -> tuple[Account, str]:
        """Store a verified new passkey: the account and the browser's cookie from now on.

        A browser signed in adds the passkey to its account (the cookie stays). An anonymous one makes an account
        of its own player: its games are relabelled the account's, and it is signed in under a new cookie (the old
        one, which may have been seen elsewhere, means nothing any more). :class:`AccountError` ``passkey_taken``
        if the passkey is stored already, ``wrong_account`` if ``user_handle`` is not the signed-in account's.
        """
        stamp = timestamp(self.database.clock())
        with self.database.transaction() as conn:
            if conn.execute("SELECT 1 FROM credentials WHERE id = ?", (credential.id,)).fetchone() is not None:
                raise AccountError("passkey_taken")
            account = account_of(conn, cookie, self.database.clock)
            if account is not None:
                if account.user_handle != user_handle:
                    raise AccountError("wrong_account")
                insert_credential(conn, account.player, credential, stamp)
                return read_account(conn, account.player), cookie
            if conn.execute("SELECT 1 FROM accounts WHERE user_handle = ?", (user_handle,)).fetchone() is not None:
                raise AccountError("wrong_account")
            player = secrets.token_urlsafe(16)
            conn.execute(
                "INSERT INTO accounts (player, user_handle, created_at) VALUES (?, ?, ?)", (player, user_handle, stamp)
            )
            insert_credential(conn, player, credential, stamp)
            conn.execute("UPDATE games SET player = ? WHERE player = ?", (player, anonymous_player(cookie)))
            new = open_session(conn, player, stamp, device)
            return read_account(conn, player), new

    def sign_in(
        self, cookie: str, credential: StoredCredential, new_sign_count: int, device: str | None = None
    ) -> tuple[Account, str]:
        """Sign the browser in with a passkey whose signature was verified: the account and the browser's new cookie.

        The passkey's counter moves to ``new_sign_count`` only if it still is what was verified against (else
        another sign-in used it meanwhile: :class:`AccountError` ``passkey_replayed``). An anonymous browser's games
        join the account (:func:`merge`); a browser signed in to another account leaves that one (its games stay
        there). Either way the browser gets a new cookie.
        """
        stamp = timestamp(self.database.clock())
        with self.database.transaction() as conn:
            changed = conn.execute(
                "UPDATE credentials SET sign_count = ?, last_used_at = ? WHERE id = ? AND sign_count = ?",
                (new_sign_count, stamp, credential.id, credential.sign_count),
            ).rowcount
            if changed != 1:
                raise AccountError("passkey_replayed")
            if session_account(conn, cookie, self.database.clock) is None:
                merge(conn, anonymous_player(cookie), credential.account)
            conn.execute("DELETE FROM sessions WHERE token_hash = ?", (token_hash(cookie),))
            new = open_session(conn, credential.account, stamp, device)
            return read_account(conn, credential.account), new

    def sign_out(self, cookie: str) -> bool:
        """Forget the browser's session; whether it had one (its account and games stay)."""
        with self.database.transaction() as conn:
            return conn.execute("DELETE FROM sessions WHERE token_hash = ?", (token_hash(cookie),)).rowcount > 0

    def delete(self, cookie: str) -> Deleted | None:
        """Delete the account the browser is signed in to, with its games, passkeys and sessions (every device's).

        None, and nothing deleted, if the browser is signed in to no account.
        """
        with self.database.transaction() as conn:
            player = session_account(conn, cookie, self.database.clock)
            if player is None:
                return None
            games = conn.execute("DELETE FROM games WHERE player = ?", (player,)).rowcount
            passkeys = conn.execute("DELETE FROM credentials WHERE account = ?", (player,)).rowcount
            sessions = conn.execute("DELETE FROM sessions WHERE account = ?", (player,)).rowcount
            conn.execute("DELETE FROM accounts WHERE player = ?", (player,))
        return Deleted(games=games, passkeys=passkeys, sessions=sessions)


class Sessions(Repository):
    """The browsers signed in to an account, as their owner sees and ends them (``store.sessions``).

    >>> import tempfile, os
    >>> from foursquare.store import Store
    >>> store = Store(os.path.join(tempfile.mkdtemp(), "games.db"))
    >>> key = NewCredential(id="Y3JlZA", public_key=b"cose", sign_count=0)
    >>> _, laptop = store.accounts.register("laptop-cookie-00000000", "aGFuZGxl", key, device="Firefox on Linux")
    >>> _, phone = store.accounts.sign_in("phone-cookie-000000000", store.passkeys.get("Y3JlZA"), 1)
    >>> sorted((session.device or "-", session.current) for session in store.sessions.of(laptop))
    [('-', False), ('Firefox on Linux', True)]
    >>> store.sessions.end_others(laptop), store.accounts.player_of(phone) == anonymous_player(phone)
    (1, True)
    """

    def of(self, cookie: str) -> list[Session] | None:
        """The live sessions of the account the browser is signed in to, the last used first; None if it is not."""
        with self.database.connect() as conn:
            player = session_account(conn, cookie, self.database.clock)
            if player is None:
                return None
            rows = conn.execute(
                "SELECT token_hash, created_at, last_seen_at, device FROM sessions"
                " WHERE account = ? AND last_seen_at > ? ORDER BY last_seen_at DESC, created_at DESC, token_hash",
                (player, timestamp(self.database.clock() - SESSION_IDLE)),
            ).fetchall()
        mine = token_hash(cookie)
        return [
            Session(row["token_hash"][:HANDLE_LENGTH], row["created_at"], row["last_seen_at"], row["device"],
                    row["token_hash"] == mine)
            for row in rows
        ]  # fmt: skip

    def end(self, cookie: str, handle: str) -> bool:
        """Sign out the account's browser named ``handle`` (:attr:`Session.handle`); False if this browser is
        signed in to no account. :class:`AccountError` ``no_session`` if the account has no session of that
        handle, ``current_session`` if it is this browser's own (which :meth:`Accounts.sign_out` ends)."""
        mine = token_hash(cookie)
        with self.database.transaction() as conn:
            player = session_account(conn, cookie, self.database.clock)
            if player is None:
                return False
            if mine[:HANDLE_LENGTH] == handle:
                raise AccountError("current_session")
            ended = conn.execute(
                "DELETE FROM sessions WHERE account = ? AND substr(token_hash, 1, ?) = ? AND token_hash <> ?",
                (player, HANDLE_LENGTH, handle, mine),
            ).rowcount
            if not ended:
                raise AccountError("no_session")
        return True

    def end_others(self, cookie: str) -> int | None:
        """Sign out every browser of the account but this one ("sign out everywhere else"); how many were signed
        in (idle ones included), or None if this browser is signed in to no account."""
        mine = token_hash(cookie)
        with self.database.transaction() as conn:
            player = session_account(conn, cookie, self.database.clock)
            if player is None:
                return None
            return int(
                conn.execute("DELETE FROM sessions WHERE account = ? AND token_hash <> ?", (player, mine)).rowcount
            )


class Passkeys(Repository):
    """The passkeys of the accounts (``store.passkeys``): the one a sign-in names, and their owner's controls.

    >>> import tempfile, os
    >>> from foursquare.store import Store
    >>> store = Store(os.path.join(tempfile.mkdtemp(), "games.db"))
    >>> key = NewCredential(id="Y3JlZA", public_key=b"cose", sign_count=0)
    >>> _, cookie = store.accounts.register("laptop-cookie-00000000", "aGFuZGxl", key)
    >>> store.passkeys.ids(cookie), store.passkeys.get("Y3JlZA").sign_count
    (['Y3JlZA'], 0)
    >>> store.passkeys.rename(cookie, "Y3JlZA", " Laptop ").passkeys[0].name
    'Laptop'
    """

    def get(self, credential_id: str) -> StoredCredential | None:
        """The stored passkey ``credential_id`` (base64url), or None."""
        with self.database.connect() as conn:
            row = conn.execute(
                "SELECT id, account, public_key, sign_count FROM credentials WHERE id = ?", (credential_id,)
            ).fetchone()
        if row is None:
            return None
        return StoredCredential(row["id"], row["account"], bytes(row["public_key"]), int(row["sign_count"]))

    def ids(self, cookie: str) -> list[str]:
        """The passkeys of the account the browser is signed in to (none for an anonymous browser)."""
        with self.database.connect() as conn:
            account = account_of(conn, cookie, self.database.clock)
        return [] if account is None else [passkey.id for passkey in account.passkeys]

    def rename(self, cookie: str, passkey_id: str, name: str | None) -> Account | None:
        """Name a passkey of the account the browser is signed in to (:func:`passkey_name`: trimmed; empty or None
        forgets the name); the account after, or None if the browser is signed in to none. :class:`AccountError`
        ``no_passkey`` if the account has no passkey ``passkey_id``."""
        kept = passkey_name(name)
        with self.database.transaction() as conn:
            player = session_account(conn, cookie, self.database.clock)
            if player is None:
                return None
            changed = conn.execute(
                "UPDATE credentials SET name = ? WHERE id = ? AND account = ?", (kept, passkey_id, player)
            ).rowcount
            if changed != 1:
                raise AccountError("no_passkey")
            return read_account(conn, player)

    def remove(self, cookie: str, passkey_id: str, *, last: bool = False) -> Account | None:
        """Remove a passkey of the account the browser is signed in to; the account after, or None if the browser
        is signed in to none. :class:`AccountError` ``no_passkey`` if the account has no passkey ``passkey_id``,
        ``last_passkey`` if it is the account's last one and ``last`` is False: without a passkey, no new device
        can sign in. The browsers signed in stay so (and may add one again)."""
        with self.database.transaction() as conn:
            player = session_account(conn, cookie, self.database.clock)
            if player is None:
                return None
            owned = conn.execute(
                "SELECT count(*) AS total, sum(CASE WHEN id = ? THEN 1 ELSE 0 END) AS this"
                " FROM credentials WHERE account = ?",
                (passkey_id, player),
            ).fetchone()
            if not owned["this"]:
                raise AccountError("no_passkey")
            if owned["total"] == 1 and not last:
                raise AccountError("last_passkey")
            conn.execute("DELETE FROM credentials WHERE id = ? AND account = ?", (passkey_id, player))
            return read_account(conn, player)


class Challenges(Repository):
    """The WebAuthn challenges given out, each answered once, within :data:`CHALLENGE_TTL` (``store.challenges``).

    >>> import tempfile, os
    >>> from foursquare.store import Store
    >>> store = Store(os.path.join(tempfile.mkdtemp(), "games.db"))
    >>> challenge = store.challenges.new("phone-cookie-000000000", "sign_in")
    >>> store.challenges.take("phone-cookie-000000000", "sign_in", challenge).purpose
    'sign_in'
    >>> store.challenges.take("phone-cookie-000000000", "sign_in", challenge) is None  # used once
    True
    """

    def new(self, cookie: str, purpose: Purpose, user_handle: str | None = None) -> str:
        """A new challenge (base64url of 32 random bytes) for the browser with ``cookie``, valid :data:`CHALLENGE_TTL`.

        Expired challenges are deleted first, and the browser's oldest ones beyond :data:`MAX_CHALLENGES`.
        """
        challenge = secrets.token_urlsafe(32)
        moment = self.database.clock()
        browser = token_hash(cookie)
        with self.database.transaction() as conn:
            conn.execute("DELETE FROM challenges WHERE expires_at <= ?", (timestamp(moment),))
            conn.execute(
                "DELETE FROM challenges WHERE browser_hash = ? AND purpose = ? AND challenge NOT IN"
                " (SELECT challenge FROM challenges WHERE browser_hash = ? AND purpose = ?"
                " ORDER BY expires_at DESC LIMIT ?)",
                (browser, purpose, browser, purpose, MAX_CHALLENGES - 1),
            )
            conn.execute(
                "INSERT INTO challenges (challenge, purpose, browser_hash, user_handle, expires_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (challenge, purpose, browser, user_handle, timestamp(moment + CHALLENGE_TTL)),
            )
        return challenge

    def take(self, cookie: str, purpose: Purpose, challenge: str) -> Challenge | None:
        """The challenge ``challenge`` given to this browser for ``purpose``, deleted as it is taken (single use).

        None when there is no such challenge (never given, given to another browser or for another purpose,
        already used) or it has expired: the caller refuses the answer.
        """
        with self.database.transaction() as conn:
            row = conn.execute(
                "SELECT challenge, purpose, user_handle, expires_at FROM challenges"
                " WHERE challenge = ? AND browser_hash = ? AND purpose = ?",
                (challenge, token_hash(cookie), purpose),
            ).fetchone()
            if row is None:
                return None
            conn.execute("DELETE FROM challenges WHERE challenge = ?", (challenge,))
        if row["expires_at"] <= timestamp(self.database.clock()):
            return None
        return Challenge(challenge=row["challenge"], purpose=row["purpose"], user_handle=row["user_handle"])


def session_account(conn: Connection, cookie: str, clock: Clock) -> str | None:
    """The account of the browser's session, if it has one that has not been idle for :data:`SESSION_IDLE`."""
    row = conn.execute(
        "SELECT account FROM sessions WHERE token_hash = ? AND last_seen_at > ?",
        (token_hash(cookie), timestamp(clock() - SESSION_IDLE)),
    ).fetchone()
    return None if row is None else str(row["account"])


def account_of(conn: Connection, cookie: str, clock: Clock) -> Account | None:
    """The account of the browser's live session, with its passkeys; None when it has none."""
    player = session_account(conn, cookie, clock)
    return None if player is None else read_account(conn, player)


def read_account(conn: Connection, player: str) -> Account:
    """The account whose player is ``player``, with its passkeys; :class:`AccountError` ``no_account`` if none."""
    row = conn.execute("SELECT player, user_handle, created_at FROM accounts WHERE player = ?", (player,)).fetchone()
    if row is None:
        raise AccountError("no_account")
    keys = conn.execute(
        "SELECT id, transports, created_at, last_used_at, name FROM credentials WHERE account = ?"
        " ORDER BY created_at, id",
        (player,),
    ).fetchall()
    passkeys = tuple(
        Passkey(key["id"], _transports(key["transports"]), key["created_at"], key["last_used_at"], key["name"])
        for key in keys
    )
    return Account(row["player"], row["user_handle"], row["created_at"], passkeys)


def insert_credential(conn: Connection, player: str, credential: NewCredential, stamp: str) -> None:
    conn.execute(
        "INSERT INTO credentials (id, account, public_key, sign_count, transports, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (
            credential.id,
            player,
            credential.public_key,
            credential.sign_count,
            json.dumps(list(credential.transports)),
            stamp,
        ),
    )


def open_session(conn: Connection, player: str, stamp: str, device: str | None) -> str:
    """A new session of ``player``'s account: the new cookie (its hash is what is stored)."""
    cookie = new_cookie()
    conn.execute(
        "INSERT INTO sessions (token_hash, account, created_at, last_seen_at, device) VALUES (?, ?, ?, ?, ?)",
        (token_hash(cookie), player, stamp, stamp, device),
    )
    return cookie


def merge(conn: Connection, source: str, target: str) -> None:
    """Give the games of player ``source`` to player ``target``, inside the caller's transaction.

    Where both have a daily game of one date, one stays the daily game of that date and the other becomes a repeat
    (``daily_repeat``): the daily deal's results and streak count one game per date. The one that stays is the
    first finished (never the better-informed one, played knowing the other's cards); of two still open, a game
    played before one only opened (no card placed, none taken back, no hint: else a page left open on the phone
    would push out the game played on the laptop), then the one created first.
    """
    better = f"{_attempt_order('other')} < {_attempt_order('games')}"
    for worse, other in ((source, target), (target, source)):
        conn.execute(
            "UPDATE games SET daily_repeat = 1 WHERE player = ? AND daily IS NOT NULL AND daily_repeat = 0"
            " AND EXISTS (SELECT 1 FROM games AS other WHERE other.player = ? AND other.daily = games.daily"
            f" AND other.daily_repeat = 0 AND {better})",
            (worse, other),
        )
    conn.execute("UPDATE games SET player = ? WHERE player = ?", (target, source))


def _attempt_order(table: str) -> str:
    """SQL: the order of daily games as attempts, the first first: the first finished (a game finished later may
    have been played knowing the other's cards), then, of games still open, one played before one only opened,
    then the first created."""
    return (
        f"({table}.finished_seq IS NULL, coalesce({table}.finished_seq, 0),"
        f" {table}.turn = 0 AND {table}.assisted = 0, {table}.seq)"
    )


_FORBIDDEN = re.compile(f"[{NAME_FORBIDDEN}]")


def passkey_name(name: str | None) -> str | None:
    """A passkey's name as it is kept: trimmed, None if empty; :class:`PasskeyNameError` if it is longer than
    :data:`NAME_LENGTH` characters or holds a character of :data:`NAME_FORBIDDEN` (a line break, a tab, a direction
    mark).

    >>> passkey_name("  Phone "), passkey_name("   "), passkey_name(None)
    ('Phone', None, None)
    >>> try:
    ...     passkey_name("a\\tb")
    ... except PasskeyNameError as error:
    ...     print(error.code, error)
    name_control a passkey's name may not hold a control character (U+0009 at 1)
    """
    if name is None or not name.strip():
        return None
    kept = name.strip()
    if len(kept) > NAME_LENGTH:
        raise PasskeyNameError(
            f"a passkey's name has at most {NAME_LENGTH} characters, not {len(kept)}",
            "name_too_long",
            length=len(kept),
            limit=NAME_LENGTH,
        )
    control = _FORBIDDEN.search(kept)
    if control is not None:
        raise PasskeyNameError(
            f"a passkey's name may not hold a control character (U+{ord(control[0]):04X} at {control.start()})",
            "name_control",
            position=control.start(),
        )
    return kept


def _transports(text: str) -> tuple[str, ...]:
    try:
        value = json.loads(text)
    except ValueError:
        return ()
    return tuple(str(item) for item in value) if isinstance(value, list) else ()


def transports_of(names: Sequence[str] | None) -> tuple[str, ...]:
    """The transports a browser named, as stored: strings, at most eight, each at most 32 characters."""
    return tuple(str(name)[:32] for name in (names or ())[:8])
