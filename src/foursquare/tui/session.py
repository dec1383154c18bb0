"""One ``play`` run: the current game, how its deal was chosen, and every file it is kept in."""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from foursquare import record
from foursquare.engine import Game, Move, Outcome, Variant
from foursquare.files import FileWriteError
from foursquare.i18n import ENGLISH, Translator, translator
from foursquare.store import TERMINAL_PLAYER, Store, StoreError
from foursquare.tui.saved import DealKind, games_dir, new_path
from foursquare.tui.text import cards


class PlayError(ValueError):
    """``foursquare play`` cannot start as asked (bad option combination, unwritable or taken --save path)."""


@dataclass
class Session:
    """The game being played and where it is written after every move.

    ``save`` is the player's ``--save`` file (or the record given to continue); ``keep`` is the game's file in
    the data directory (None in line mode, which scripts drive). Further games of an interactive run go to
    ``FILE-2.json``, ``FILE-3.json``... for ``--save FILE.json``, skipping names already taken, so no game
    ever overwrites another.

    ``history`` is the games database where the game is recorded for ``foursquare stats`` when it ends (and
    marked assisted when the player takes a card back or a hint), under an id made from ``keep``'s name, so
    that a game continued later is still one game; None (line mode) records nothing.

    ``t`` is the player's language (``foursquare play --lang``, else the environment's): every word shown.

    ``written`` is the game's moves as its files last received them all (None before, or while none could be
    written), so that the goodbye says truthfully what is kept; ``left`` the files of unfinished games the player
    left for another during the run, still kept there.
    """

    game: Game
    variant: Variant
    deal_shown: bool
    winnable: bool
    save: str | None
    keep: Path | None = None
    number: int = 1
    saved: list[str] = field(default_factory=list)
    save_path: str | None = None
    #: Whether ``keep`` was made for this run's game (so an empty one may be removed again at the end).
    keep_is_new: bool = False
    history: Path | None = None
    t: Translator = field(default_factory=lambda: translator(ENGLISH.code))
    written: list[Move] | None = None
    left: list[str] = field(default_factory=list)
    #: The game was started over: it is recorded as assisted (the player has seen its cards).
    assisted: bool = False

    def __post_init__(self) -> None:
        if self.save_path is None:
            self.save_path = self.save

    @property
    def kind(self) -> DealKind:
        return "deal" if self.deal_shown else "winnable" if self.winnable else "random"

    def start(self, game: Game, deal_shown: bool, assisted: bool = False) -> str | None:
        """Go on with another game (``assisted``: one whose cards the player has seen), in files of its own: the
        game left stays in its files; returns what :meth:`write` returns."""
        if self.written and not self.game.is_over() and self.record_path is not None:
            self.left.append(self.record_path)
        self.game = game
        self.deal_shown = deal_shown
        self.assisted = assisted
        self.number += 1
        self.save_path = self._free_save_path()
        self.written = None
        if self.keep is not None:
            try:
                self.keep, self.keep_is_new = new_path(self.kind), True
            except OSError as exc:
                self.keep = None
                return self.t("term.save_failed", path=str(games_dir()), error=str(exc.strerror or exc))
        return self.write()

    @property
    def is_kept(self) -> bool:
        """Whether some file holds the game as it stands."""
        return self.written == self.game.moves and self.record_path is not None

    def _free_save_path(self) -> str | None:
        if self.save is None:
            return None
        root, ext = os.path.splitext(self.save)
        number = self.number
        while os.path.exists(f"{root}-{number}{ext}"):
            number += 1
        return f"{root}-{number}{ext}"

    def write(self) -> str | None:
        """Save the record everywhere it is kept; return an error message instead of raising."""
        for path in (self.keep, self.save_path):
            if path is None:
                continue
            try:
                record.write(self.game, path)
            except FileWriteError as exc:
                return self.t("term.save_failed", path=str(path), error=str(exc.params["reason"]))
            if path == self.save_path and path not in self.saved:
                self.saved.append(path)
        if self.keep is not None or self.save_path is not None:
            self.written = list(self.game.moves)
        return None

    def record(self, *, assisted: bool = False) -> str | None:
        """Record the game in ``history`` (see :meth:`foursquare.store.Games.record`); return a warning
        instead of raising, since play goes on without statistics."""
        if self.history is None or self.keep is None:
            return None
        try:
            store = Store(self.history)
            try:
                game_id = f"{TERMINAL_PLAYER}-{self.keep.stem}"
                helped = assisted or self.assisted
                store.games.record(game_id, TERMINAL_PLAYER, self.game, hidden=not self.deal_shown, assisted=helped)
            finally:
                store.close()
        except (StoreError, sqlite3.Error, OSError) as exc:
            return self.t("term.not_counted", error=str(exc))
        return None

    @property
    def record_path(self) -> str | None:
        """The file that holds this game, for the player to come back to (their own file first)."""
        if self.save_path is not None:
            return self.save_path
        return None if self.keep is None else str(self.keep)


def new_game(variant: Variant, deal: int | None, winnable: bool) -> Game:
    """A game of ``deal``, or a random (solver-proven winnable with ``winnable``) deal."""
    if winnable:
        from foursquare.solver import random_winnable_deal  # numba: slow to import, so only when needed

        deal = random_winnable_deal(variant, seed=None)
    return Game(deal=deal, variant=variant)


def check_save_path(path: str, t: Translator) -> None:
    """Refuse a --save path that cannot be written, before any game starts."""
    target = os.path.abspath(path)
    directory = os.path.dirname(target)
    why = None
    if os.path.isdir(target):
        why = t("term.save_is_directory")
    elif not os.path.isdir(directory):
        why = t("term.save_no_directory", directory=directory)
    elif not os.access(directory, os.W_OK | os.X_OK):
        why = t("term.save_not_writable", directory=directory)
    if why is not None:
        raise PlayError(t("term.cannot_save", path=path, error=why))


def what_it_holds(path: str, t: Translator) -> str | None:
    """How to describe an existing --save file to the player before replacing it; None when it is absent."""
    if not os.path.exists(path):
        return None
    try:
        game = record.read(path)
    except record.RecordError:
        return t("term.holds_other", path=path)
    what = t("term.what_game", deal=str(game.deal), placed=cards(t, game.turn))
    return t("term.holds_game", path=path, what=what)


def outcome_line(outcome: Outcome, t: Translator) -> str:
    """Line mode's last line: ``won: score 7``, ``lost: the stock ran out``..."""
    if outcome.status == "won":
        return t("term.won", score=outcome.score)
    if outcome.reason == "too_many_face_down":
        return t("term.lost_face_down")
    return t("term.lost_stock")


def outcome_words(outcome: Outcome, t: Translator) -> str:
    """``won with score 7``, ``lost when the stock ran out``..."""
    if outcome.status == "won":
        return t("term.outcome_won", score=outcome.score)
    if outcome.reason == "too_many_face_down":
        return t("term.outcome_lost_face_down")
    return t("term.outcome_lost_stock")
