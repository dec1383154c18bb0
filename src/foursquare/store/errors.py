"""What can go wrong with the games database: it cannot be used (at all, or for now), a game is unknown, a
stored game is damaged, a player has too many games in play."""

from __future__ import annotations

from foursquare.errors import FoursquareError


class StoreError(FoursquareError):
    """The database cannot be used: unreadable, damaged, not ours, or from a newer version.

    ``code`` says which, for a front end's own words (``is_directory``, ``no_directory``, ``missing``,
    ``not_a_file``, ``cannot_open``, ``not_database``, ``damaged``, ``newer``, ``foreign``, ``foreign_database``
    for a PostgreSQL one, ``bad_url``; empty for the others), ``path`` (a file, or a URL without its password)
    and ``error`` (the database's own English words, if any) the details, in ``params`` too.
    """

    def __init__(self, message: str, code: str = "", path: object = None, error: object = None) -> None:
        # The details as text, as every error's params are (a front end may write them out); the objects stay
        # in the attributes.
        super().__init__(message, code, path=_text(path), error=_text(error))
        self.path = path
        self.error = error


class StoreUnavailableError(StoreError):
    """The database cannot be used *now*, though it may be in a moment: PostgreSQL does not answer or dropped the
    connection, or SQLite's file stayed locked by another process past the wait (code ``cannot_open``, as when
    it cannot be opened at all). A server answers it "try again later" rather than as its own fault."""


class UnknownGameError(FoursquareError):
    """No game has this id (code ``unknown_game``, the id in ``game_id``)."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"there is no game with id {game_id!r}", "unknown_game", game_id=game_id)
        self.game_id = game_id


class TooManyGamesError(FoursquareError):
    """A player who already has ``limit`` live games asked for one more (code ``too_many_games``, ``limit``)."""

    def __init__(self, limit: int) -> None:
        super().__init__(
            f"a player may have at most {limit} games in play at once: finish one before starting another",
            "too_many_games",
            limit=limit,
        )
        self.limit = limit


class OfflineGameError(FoursquareError):
    """A game played offline that cannot be recorded as sent: its id names another player's game (code
    ``not_yours``), or a game of another deal or rules (``other_deal``), or a game already over that the record
    would change (``over``). ``offline_id`` is the device's id of the game."""

    def __init__(self, message: str, code: str, offline_id: str) -> None:
        super().__init__(message, code, offline_id=offline_id)
        self.offline_id = offline_id


class DamagedGameError(StoreError):
    """A stored game cannot be replayed (the database was edited by hand or damaged)."""


def _text(detail: object) -> str | None:
    return None if detail is None else str(detail)
