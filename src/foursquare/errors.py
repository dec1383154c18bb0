"""The one base class of the errors a user of the library can cause: :class:`FoursquareError`.

Every such error is a :class:`FoursquareError`, itself a ``ValueError``, so one ``except`` clause catches them
all. Each keeps its own class (``except RecordError`` says what was being done), its English text for
developers (``str(error)``), and says what is wrong in a form a front end can put in its user's words: a
stable :attr:`~FoursquareError.code` and the details in :attr:`~FoursquareError.params`.

>>> from foursquare.record import loads
>>> try:
...     loads('{"format": "foursquare-game", "version": 1, "deal": 1, "moves": [[0, 0], [5, 5]]}')
... except FoursquareError as error:
...     print(type(error).__name__, error.code, dict(error.params))
...     print(error)
RecordError illegal_move {'index': 1, 'reason': 'not_adjacent'}
move 1: illegal: cannot place a card at (5, 5): the cell is empty and not orthogonally next to a card
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["FoursquareError"]


class FoursquareError(ValueError):
    """Something a user asked cannot be done: a malformed input, an impossible request, an unusable file.

    .. attribute:: code

        What is wrong, as a stable ``snake_case`` word a front end may choose its message by (the command line
        words ``RecordError``, ``StoreError`` and ``StudyError`` codes from its catalogue). Empty when the error
        has no finer code than its class. A code, once given, keeps its meaning for good.

    .. attribute:: params

        The details the code's message needs (a path, a move's index, a number), by name; empty when there are
        none. The English text may say more.

    The codes, by class (the details in brackets; each class's docstring says more):

    - :class:`~foursquare.engine.IllegalMoveError`: its ``reason``, ``game_over``, ``first_card``, ``pile_full``,
      ``not_adjacent``, ``outside_4x4`` or ``bad_cell`` (``row``, ``col``).
    - :class:`~foursquare.record.RecordError`: ``no_such_file``, ``cannot_read`` (``reason``), ``too_large``
      (``limit``), ``not_utf8`` (``position``), ``not_json`` (``detail``), ``number_too_long``, ``not_object``,
      ``unknown_format`` and ``unsupported_version`` (``found``, ``expected``), ``unknown_fields`` (``fields``),
      ``bad_variant`` (``detail``), ``deal_and_stock``, ``bad_deal`` and ``bad_stock`` (``detail``),
      ``no_moves``, ``moves_not_list``, ``bad_move`` (``index``, ``detail``), ``move_after_end`` (``index``),
      ``illegal_move`` (``index``, ``reason``), ``too_deep`` (JSON nested too deep), ``duplicate_key``
      (``field``: a key given twice); the file read, if any, is its ``path``.
    - :class:`~foursquare.files.FileWriteError`: ``is_directory``, ``no_directory``, ``not_a_folder``,
      ``cannot_write`` (``path``, ``folder``, ``reason``).
    - :class:`~foursquare.store.StoreError`: ``is_directory``, ``no_directory``, ``missing``, ``not_a_file``,
      ``cannot_open``, ``not_database``, ``damaged``, ``newer``, ``foreign``, ``foreign_database`` (a PostgreSQL
      one), ``bad_url`` (``path``, ``error``: the database's own English words, if any);
      :class:`~foursquare.store.UnknownGameError`: ``unknown_game`` (``game_id``);
      :class:`~foursquare.store.TooManyGamesError`: ``too_many_games`` (``limit``);
      :class:`~foursquare.store.OfflineGameError`: ``not_yours``, ``other_deal``, ``over`` (``offline_id``);
      :class:`~foursquare.store.AccountError`: ``passkey_taken``, ``wrong_account``, ``passkey_replayed``,
      ``no_account``, ``no_passkey``, ``last_passkey``, ``no_session``, ``current_session``;
      :class:`~foursquare.store.PasskeyNameError`: ``name_too_long`` (``length``, ``limit``), ``name_control``
      (``position``).
    - :class:`~foursquare.study.StudyError`: ``no_scheduler``, ``no_worker``, ``chunk_dropped``,
      ``cannot_open``, ``not_a_study_db``, ``format_version``, ``busy``, ``read_only``, ``cannot_write``,
      ``needs_pyarrow``, ``bad_seed``, and reading rows back ``no_such_file``, ``cannot_read``, ``too_large``,
      ``unknown_format``, ``not_json``, ``missing_field``, ``bad_field``, ``duplicate`` (the details of each in its
      docstring).
    - :class:`~foursquare.players.PlayerError`: ``unknown_player`` (``name``, ``choices``), ``no_move``,
      ``no_rank``, ``not_legal`` (``row``, ``col``), ``bad_budget`` (``budget``).
    - No finer code (yet): :class:`~foursquare.cards.CardError`, :class:`~foursquare.engine.VariantError`,
      :class:`~foursquare.engine.MoveError`, :class:`~foursquare.store.DamagedGameError`,
      :class:`~foursquare.analysis.AnalysisError`, :class:`~foursquare.solver.SolverError`,
      :class:`~foursquare.rl.settings.SettingsError`, :class:`~foursquare.rl.encoding.ActionError`,
      :class:`~foursquare.i18n.catalogue.CatalogueError`.

    A subclass may take other arguments; ``str(error)`` is always the English ``message``. Every one pickles
    whole (its code, details and own attributes), whatever its arguments: errors cross from worker processes.

    >>> error = FoursquareError("the file is not there", "no_such_file", path="game.json")
    >>> str(error), error.code, dict(error.params)
    ('the file is not there', 'no_such_file', {'path': 'game.json'})
    """

    code: str
    params: Mapping[str, object]

    def __init__(self, message: str, code: str = "", **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt without calling __init__, whose arguments differ from class to class.
        return _restore, (type(self), self.args, self.__dict__)


def _restore(cls: type[FoursquareError], args: tuple[object, ...], state: dict[str, object]) -> FoursquareError:
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error
