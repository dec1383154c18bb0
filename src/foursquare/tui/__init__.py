"""The terminal game: ``foursquare play``.

Interactive when standard input and output are both terminals: a full-screen board drawn with rich, read key
by key (:mod:`.interactive`, :mod:`.keys`, :mod:`.terminal`), each game kept in the data directory after every
move (:mod:`.saved`) and counted once in the games database when it ends. Otherwise line mode
(:mod:`.lines`): one command per line in, plain text out, for scripts. docs/terminal.md describes both as a
player and a script see them: keys, layouts by terminal size, ASCII and ``NO_COLOR``, kept games, line mode's
output, ``--save``. Every word comes from the player's catalogue; cells are named as in every front end.
"""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

from rich.console import Console

from foursquare import record
from foursquare.engine import Game, Move, Variant
from foursquare.i18n import ENGLISH, Translator, translator
from foursquare.store import default_path
from foursquare.tui import saved
from foursquare.tui.glyphs import ASCII, for_terminal
from foursquare.tui.interactive import Interactive
from foursquare.tui.keys import CELL_KEYS, CellKeys
from foursquare.tui.lines import play_lines
from foursquare.tui.session import (
    PlayError,
    Session,
    check_save_path,
    new_game,
    outcome_line,
    outcome_words,
    what_it_holds,
)
from foursquare.tui.terminal import Screen, terminal
from foursquare.tui.text import COMMAND_PLAY, COMMAND_STATS, DATA_DIR_VARIABLE, cards, command_analyze, command_deal

__all__ = ["CELL_KEYS", "CellKeys", "PlayError", "Session", "outcome_line", "play", "play_lines"]


def play(
    variant: Variant,
    *,
    deal: int | None = None,
    winnable: bool = False,
    save: str | None = None,
    resume: str | None = None,
    t: Translator | None = None,
) -> int:
    """Play in the terminal (see the package docstring); the exit status of ``foursquare play``.

    ``resume`` is a record to continue (its variant wins over ``variant``); it is saved back to itself
    unless ``save`` names another file. ``t`` is the player's language (English by default): every word of
    the game, in both modes, is its.
    """
    t = t or translator(ENGLISH.code)
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    session = _session(variant, deal, winnable, save, resume, interactive, t)
    warning = offer = None
    if interactive:
        session.history = default_path()
        offer = saved.last_unfinished() if resume is None and deal is None and not winnable else None
        if session.keep is None:
            try:
                session.keep, session.keep_is_new = saved.new_path(session.kind), True
            except OSError as exc:  # play on, saying so: the player may still --save elsewhere
                warning = t(
                    "term.cannot_keep",
                    path=str(saved.games_dir()),
                    error=str(exc.strerror or exc),
                    variable=DATA_DIR_VARIABLE,
                    option="--save FILE",
                )
    error = session.write()
    if error is not None:
        raise PlayError(error.removeprefix("warning: "))
    if interactive:
        return play_interactive(session, offer, warning=warning)
    return play_lines(session, sys.stdin, sys.stdout, sys.stderr)


def _session(
    variant: Variant,
    deal: int | None,
    winnable: bool,
    save: str | None,
    resume: str | None,
    interactive: bool,
    t: Translator,
) -> Session:
    """The first game of the run and where it is written, every --save question asked and answered."""
    if save is not None:
        check_save_path(save, t)
        if resume is None or not _same_file(save, resume):
            _may_replace(save, interactive, t)
    if resume is None:
        if winnable and interactive:
            print(t("term.finding_deal"), flush=True)
        game = new_game(variant, deal, winnable)
        return Session(game, game.variant, deal_shown=deal is not None, winnable=winnable, save=save, t=t)
    game = record.read(resume)
    check_save_path(resume, t)
    kept = Path(resume)
    if kept.resolve().parent == saved.games_dir().resolve():  # a game of the data directory goes on in its file
        kind = saved.kind_of(kept)
        return Session(game, game.variant, kind == "deal", kind == "winnable", save=save, keep=kept, t=t)
    return Session(game, game.variant, deal_shown=True, winnable=False, save=save or resume, t=t)


def _same_file(first: str, second: str) -> bool:
    return os.path.abspath(first) == os.path.abspath(second)


def _may_replace(path: str, interactive: bool, t: Translator) -> None:
    """Ask before a --save path that holds something is replaced; refuse when nobody can be asked."""
    holds = what_it_holds(path, t)
    if holds is None:
        return
    if interactive:
        try:
            answer = input(t("term.replace_question", holds=holds, y="y", n="N"))
        except EOFError:
            answer = ""
        if answer.strip().lower() in ("y", "yes"):
            return
    raise PlayError(t("term.not_replaced", holds=holds, option="--save", command=f"{COMMAND_PLAY} {path}"))


def play_interactive(
    session: Session, offer: saved.Kept | None = None, console: Console | None = None, warning: str | None = None
) -> int:
    """The full-screen game; returns the exit status (130 after Ctrl-C, like the rest of the CLI).

    ``warning`` is shown on the first frame (the game cannot be kept in the data directory)."""
    console = console or Console(highlight=False)
    glyphs = for_terminal(sys.stdout)
    if glyphs is ASCII and isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(errors="replace")  # a character we missed shows as "?" rather than end the game
    status = 0
    screen = Screen(console, ascii_only=glyphs is ASCII)
    try:
        with terminal(console, sys.stdin.fileno(), screen) as keyboard:
            game = Interactive(session, keyboard, screen, glyphs)
            game.message = warning
            game.run(offer)
    except KeyboardInterrupt:  # the terminal is already restored by now
        status = 130
    _drop_if_empty(session)
    for line in goodbye(session):
        print(line, flush=True)  # not wrapped: commands must stay whole to be copied
    return status


def _drop_if_empty(session: Session) -> None:
    """A game quit before its first card is not worth keeping in the data directory."""
    if session.keep is not None and session.keep_is_new and not session.game.turn:
        session.keep.unlink(missing_ok=True)


def goodbye(session: Session) -> list[str]:
    """What is printed after the full screen closes: how the game ended, or where it is kept."""
    game: Game = session.game
    t = session.t
    lines: list[str] = []
    outcome = game.outcome()
    path = session.record_path
    if outcome.is_over:
        lines.append(t("term.goodbye_finished", deal=str(game.deal), outcome=outcome_words(outcome, t)))
    elif game.turn:
        lines.append(t("term.goodbye_unfinished", placed=cards(t, game.turn), path=str(session.keep or path)))
        lines.append(t("term.goodbye_continue", command=COMMAND_PLAY + ("" if session.keep else f" {path}")))
        if session.deal_shown and game.deal is not None:
            lines.append(t("term.goodbye_again", deal=str(game.deal), command=command_deal(game.deal)))
    lines.extend(t("term.goodbye_saved", path=p) for p in session.saved)
    if outcome.is_over and path is not None:
        lines.append(t("term.end_analyze", command=command_analyze(path)))
    if outcome.is_over and session.history is not None:
        lines.append(t("term.end_stats", command=COMMAND_STATS))
    return lines


def cell_labels(game: Game) -> dict[Move, str]:
    """The keys of ``game``'s legal cells, as they stand after its moves were played from the start."""
    return dict(CellKeys.replayed(game).update(game))
