"""What a player cannot do: :class:`PlayerError`, with a stable code and the English text of each."""

from __future__ import annotations

from foursquare.errors import FoursquareError

#: The English text of each :class:`PlayerError` code, formatted with its ``params``.
ERRORS = {
    "unknown_player": "unknown player {name!r}: choose one of {choices}",
    "no_move": "the game is over: there is no move to choose",
    "no_rank": "the game is over: there is no move to rank",
    "not_legal": "({row}, {col}) is not a legal move in this position",
    "bad_budget": "time budget must be a positive number of seconds, not {budget!r}",
}


class PlayerError(FoursquareError):
    """A player was asked for by a name that does not exist, or cannot play the position.

    Its ``code`` is one of :data:`ERRORS`' keys, its ``params`` the values that text is formatted with.
    """


def player_error(code: str, **params: object) -> PlayerError:
    """The :class:`PlayerError` of ``code``, its text :data:`ERRORS`' one formatted with ``params``."""
    return PlayerError(ERRORS[code].format(**params), code, **params)
